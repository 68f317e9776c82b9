"""Each guest's rating (hands, time at the table, handle, average bet, the house's theoretical win
beside its actual result, how unusual the difference is) per night and over any set of nights,
and the house's theoretical hold beside its actual one (docs/host-guide.md, "Ratings")."""
