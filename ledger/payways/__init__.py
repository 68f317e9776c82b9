"""Ways to pay: the site's list, each guest's handles, and the settlement request."""
