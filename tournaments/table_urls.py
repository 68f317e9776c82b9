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
