"""The games' own pages: the rules and odds, and the table display."""

from django.urls import path

from games import views
from shoebook.base.converters import use_id_converter

use_id_converter()

app_name = "games"
urlpatterns = [
    path("", views.rules_and_odds, name="rules_and_odds"),
]

display_patterns = [
    path("<id:event_id>/<str:token>/", views.table_display, name="table_display"),
]
