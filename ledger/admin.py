"""The admin shows the money records; it never writes them (see ``games.admin``).

The one thing it still edits is a guest's optional login: linking a user account (created in
the auth admin) to a guest, or unlinking it. Nothing else on a guest changes here.
"""

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.admin import ReadOnlyAdmin
from ledger.guests.names import InvalidName, clean_name, name_key
from ledger.models import (
    AuditEntry,
    Bet,
    Charge,
    Coup,
    EventGuest,
    Guest,
    GuestEventResult,
    HandRevision,
    Seating,
    Settlement,
    StackRow,
)


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin[Guest]):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]
    # The private link is issued and revoked from the guest's page, never shown or typed here.
    fields = ["name", "user", "created_at"]
    readonly_fields = ["name", "created_at"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Guest | None = None) -> bool:
        return False

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Guest], search_term: str
    ) -> tuple[QuerySet[Guest], bool]:
        """Also the guests the term means by the one matching rule (an alias, "ＫＥＮ" for Ken)."""
        found, duplicates = super().get_search_results(request, queryset, search_term)
        try:
            key = name_key(clean_name(search_term))
        except InvalidName:
            return found, duplicates
        # The services load the whole ledger: every process starts the admin, few search it.
        from ledger.guests.services import guests_matching

        matched = [guest.pk for guest in guests_matching({key}).get(key, [])]
        return found | queryset.filter(pk__in=matched), duplicates


@admin.register(EventGuest)
class EventGuestAdmin(ReadOnlyAdmin[EventGuest]):
    list_display = ["event", "guest", "added_at"]
    list_select_related = ["event", "guest"]


@admin.register(Seating)
class SeatingAdmin(ReadOnlyAdmin[Seating]):
    list_display = ["shoe", "seat", "guest", "from_hand", "to_hand"]
    list_select_related = ["shoe__event", "guest"]


@admin.register(Bet)
class BetAdmin(ReadOnlyAdmin[Bet]):
    list_display = ["hand", "seat", "guest", "bet_type", "stake", "gross", "commission", "net"]
    list_select_related = ["hand__shoe__event", "guest"]
    list_filter = ["bet_type"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin[HandRevision]):
    list_display = ["shoe", "hand_number", "kind", "reason", "changed_by", "changed_at"]
    list_select_related = ["shoe__event", "changed_by"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin[Settlement]):
    list_display = ["recorded_at", "guest", "event", "amount", "method", "note", "recorded_by"]
    list_select_related = ["guest", "event", "recorded_by"]
    list_filter = ["method"]


@admin.register(GuestEventResult)
class GuestEventResultAdmin(ReadOnlyAdmin[GuestEventResult]):
    list_display = ["event", "guest", "hands", "stake", "gross", "commission", "net"]
    list_select_related = ["event", "guest"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin[AuditEntry]):
    list_display = ["at", "action", "event", "summary", "by"]
    list_select_related = ["event", "by"]
    list_filter = ["action"]


@admin.register(StackRow)
class StackRowAdmin(ReadOnlyAdmin[StackRow]):
    list_display = ["event", "guest", "kind", "chips", "after_hand", "recorded_at"]
    list_select_related = ["event", "guest"]


@admin.register(Charge)
class ChargeAdmin(ReadOnlyAdmin[Charge]):
    list_display = ["recorded_at", "event", "guest", "kind", "amount", "note"]
    list_select_related = ["event", "guest"]


@admin.register(Coup)
class CoupAdmin(ReadOnlyAdmin[Coup]):
    list_display = ["hand", "banker", "co_banker", "bank", "covered", "house_cut", "move"]
    list_select_related = ["hand__shoe__event", "banker", "co_banker"]
