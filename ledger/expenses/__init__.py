"""Expenses of a night: what was bought, who paid, who shares it (docs/host-guide.md)."""
