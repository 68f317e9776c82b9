"""The admin shows tournaments; it never writes them (their services do)."""

from django.contrib import admin

from games.admin import ReadOnlyAdmin
from tournaments.models import Entrant, Round, TableSeat, Tournament, TournamentTable


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin[Tournament]):
    list_display = ["event", "entry_fee", "starting_stack", "created_at", "finished_at"]
    list_select_related = ["event"]


@admin.register(Entrant)
class EntrantAdmin(ReadOnlyAdmin[Entrant]):
    list_display = ["tournament", "number", "guest", "out_after_round", "place", "prize"]
    list_select_related = ["tournament__event", "guest"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin[Round]):
    list_display = ["tournament", "number", "is_final", "hands", "started_at", "closed_at"]
    list_select_related = ["tournament__event"]


@admin.register(TournamentTable)
class TournamentTableAdmin(ReadOnlyAdmin[TournamentTable]):
    list_display = ["round", "number", "event"]
    list_select_related = ["round__tournament__event", "event"]


@admin.register(TableSeat)
class TableSeatAdmin(ReadOnlyAdmin[TableSeat]):
    list_display = ["table", "seat", "entrant"]
    list_select_related = ["table__round__tournament__event", "entrant__guest"]
