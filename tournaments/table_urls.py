"""A tournament table's pages for the players: the secret bet and the leaderboard."""

from django.urls import path

from shoebook.base.converters import use_id_converter
from tournaments import table_views

use_id_converter()

urlpatterns = [
    path("<id:event_id>/secret/", table_views.secret_bet, name="secret_bet"),
    path(
        "standings/<id:guest_id>/<str:token>/",
        table_views.guest_standings,
        name="guest_standings",
    ),
    path("standings/me/", table_views.my_standings, name="my_standings"),
]

# The live streams of a table display and of a guest's own page, beside those pages' addresses
# (shoebook.urls includes them at the root, as "live").
live_patterns = [
    path("display/<id:event_id>/<str:token>/live/", table_views.display_live, name="display"),
    path("g/<id:guest_id>/<str:token>/live/", table_views.guest_live, name="guest"),
    path("me/live/", table_views.my_live, name="me"),
]
