from django.contrib import admin

from games.models import Event, Hand, Shoe


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "format", "decks", "closed_at"]
    search_fields = ["name", "venue"]
    date_hierarchy = "date"


@admin.register(Shoe)
class ShoeAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "opened_at", "closed_at"]
    list_select_related = ["event"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["shoe", "number", "player_cards", "banker_cards", "winner", "logged_by"]
    list_select_related = ["shoe__event", "logged_by"]
    # Hands change only through the logging page, which settles bets and keeps the journal.
    readonly_fields = [f.name for f in Hand._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
