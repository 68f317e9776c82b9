"""The admin shows the nights as played; it never writes them.

Every change to an event, a shoe or a hand goes through the services, which check the rules,
settle the bets and keep the journal and the audit log. The admin edits none of that, not even
for a superuser: a row changed here would skip all three.
"""

from typing import TypeVar

from django.contrib import admin
from django.db import models
from django.http import HttpRequest

from games.models import Event, Hand, Shoe

_M = TypeVar("_M", bound=models.Model)


class ReadOnlyAdmin(admin.ModelAdmin[_M]):
    """View only: no add, no change, no delete, whatever the user's permissions.

    The change page still opens, read-only and without a save button; a POST to it, the add
    page and the delete page answer 403."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin[Event]):
    list_display = ["name", "date", "venue", "format", "decks", "closed_at"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"
    # The table display's link opens the TV page: it is issued from the event page, never shown.
    exclude = ["display_token"]


@admin.register(Shoe)
class ShoeAdmin(ReadOnlyAdmin[Shoe]):
    list_display = ["event", "number", "opened_at", "closed_at"]
    list_select_related = ["event"]


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin[Hand]):
    list_display = ["shoe", "number", "player_cards", "banker_cards", "winner", "logged_by"]
    list_select_related = ["shoe__event", "logged_by"]
