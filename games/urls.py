from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("", views.rules_and_odds, name="rules_and_odds"),
]

display_patterns = [
    path("<int:event_id>/<str:token>/", views.table_display, name="table_display"),
]
