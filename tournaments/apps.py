"""The tournaments' app, on top of games and the ledger."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from ledger.integrity import register_check
        from tournaments.integrity import stack_row_problems

        register_check(stack_row_problems)
