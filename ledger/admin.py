from django.contrib import admin

from ledger.models import (
    AuditEntry,
    Bet,
    EventGuest,
    Guest,
    GuestEventResult,
    HandRevision,
    Seating,
    Settlement,
)


@admin.register(Guest)
class GuestAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "created_at"]
    search_fields = ["name"]
    # The private link is issued and revoked from the guest's page, never typed in.
    exclude = ["access_token"]


@admin.register(EventGuest)
class EventGuestAdmin(admin.ModelAdmin):
    list_display = ["event", "guest", "added_at"]
    list_select_related = ["event", "guest"]


@admin.register(Seating)
class SeatingAdmin(admin.ModelAdmin):
    list_display = ["shoe", "seat", "guest", "from_hand", "to_hand"]
    list_select_related = ["shoe__event", "guest"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Money records are written by the services only; the admin shows them."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Bet)
class BetAdmin(ReadOnlyAdmin):
    list_display = ["hand", "seat", "guest", "bet_type", "stake", "gross", "commission", "net"]
    list_select_related = ["hand__shoe__event", "guest"]
    list_filter = ["bet_type"]


@admin.register(HandRevision)
class HandRevisionAdmin(ReadOnlyAdmin):
    list_display = ["shoe", "hand_number", "kind", "reason", "changed_by", "changed_at"]
    list_select_related = ["shoe__event", "changed_by"]


@admin.register(Settlement)
class SettlementAdmin(ReadOnlyAdmin):
    list_display = ["recorded_at", "guest", "event", "amount", "method", "note", "recorded_by"]
    list_select_related = ["guest", "event", "recorded_by"]
    list_filter = ["method"]


@admin.register(GuestEventResult)
class GuestEventResultAdmin(ReadOnlyAdmin):
    list_display = ["event", "guest", "hands", "stake", "gross", "commission", "net"]
    list_select_related = ["event", "guest"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "action", "event", "summary", "by"]
    list_select_related = ["event", "by"]
    list_filter = ["action"]
