"""Nights as the ledger keeps them: an event's terms edited, its shoes and the event itself closed
and reopened (the only public close and reopen: ``services``), the events list and an event's
page with what is still going on before it closes."""
