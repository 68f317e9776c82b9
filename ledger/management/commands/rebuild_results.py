"""Recompute the guests' totals per event from the bets: ``manage.py rebuild_results``.

All or nothing (``ledger.money.services.results_rebuild`` runs in one transaction): if it fails, the
totals it would have replaced are still there.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ledger.money.services import results_rebuild


class Command(BaseCommand):
    help = "Recompute every guest's totals per event (GuestEventResult) from the bets."

    def handle(self, *args: Any, **options: Any) -> None:
        written = results_rebuild()
        self.stdout.write(
            self.style.SUCCESS(
                f"Rebuilt the guests' results from the bets: {written} rows written."
            )
        )
