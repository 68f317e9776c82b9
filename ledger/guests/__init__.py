"""Guests: what a name is and when two names are one guest (``names``), the list, renames,
aliases and merges, private links and login invitations, and each guest's own pages and receipts
(``sharing``)."""
