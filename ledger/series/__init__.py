"""A series: nights that recur, with the settings and the usual guests each new one takes."""
