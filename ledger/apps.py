"""The ledger's app: money, cut by concept (see docs/developers.md)."""

from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"
