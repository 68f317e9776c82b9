from django.urls import path

from games import display_views, views

app_name = "games"
urlpatterns = [
    path("", views.rules_and_odds, name="rules_and_odds"),
]

display_patterns = [
    # The host's action first: "link" would otherwise read as a token.
    path("<int:event_id>/link/", display_views.display_link_issue, name="display_link_issue"),
    path("<int:event_id>/<str:token>/", display_views.table_display, name="table_display"),
]
