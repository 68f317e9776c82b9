"""Who may log in and with what role: co-hosts and dealers invited by a link, roles changed,
access revoked, from the host's People page (the Django admin is the operator's)."""
