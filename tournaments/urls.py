"""The host's tournament pages."""

from django.urls import path

from shoebook.base.converters import use_id_converter
from tournaments import views

use_id_converter()

app_name = "tournaments"
urlpatterns = [
    path("", views.tournament_list, name="tournament_list"),
    path("new/", views.tournament_create, name="tournament_create"),
    path("<id:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("<id:tournament_id>/live/", views.tournament_live, name="tournament_live"),
    path("<id:tournament_id>/edit/", views.tournament_edit, name="tournament_edit"),
    path("<id:tournament_id>/players/", views.entrant_add, name="entrant_add"),
    path("<id:tournament_id>/rounds/", views.round_add, name="round_add"),
    path("night/<id:event_id>/", views.tournament_for_event, name="tournament_for_event"),
    path("rounds/<id:round_id>/", views.round_detail, name="round_detail"),
    path("rounds/<id:round_id>/board/", views.round_board_partial, name="round_board"),
    path("rounds/<id:round_id>/draw/", views.round_draw, name="round_draw"),
    path("rounds/<id:round_id>/start/", views.round_start, name="round_start"),
    path("rounds/<id:round_id>/close/", views.round_close, name="round_close"),
    path(
        "rounds/<id:round_id>/players/<id:entrant_id>/rebuy/",
        views.entrant_rebuy,
        name="entrant_rebuy",
    ),
    path(
        "rounds/<id:round_id>/players/<id:entrant_id>/add-on/",
        views.entrant_add_on,
        name="entrant_add_on",
    ),
    path(
        "tables/<id:table_id>/display-link/",
        views.table_display_link,
        name="table_display_link",
    ),
]
