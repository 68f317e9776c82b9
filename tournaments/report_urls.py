"""A tournament's reports: standings, the season and the workbook."""

from django.urls import path

from shoebook.base.converters import use_id_converter
from tournaments import report_views

use_id_converter()

app_name = "tournament_reports"
urlpatterns = [
    path("season/", report_views.season, name="season"),
    path("<id:tournament_id>/standings/", report_views.final_standings, name="standings"),
    path(
        "<id:tournament_id>/workbook.xlsx",
        report_views.tournament_workbook,
        name="workbook",
    ),
]
