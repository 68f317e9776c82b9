from django.urls import path

from ledger import result_views, transfer_views, views

app_name = "ledger"
urlpatterns = [
    path("events/", views.event_list, name="event_list"),
    path("events/new/", views.event_create, name="event_create"),
    path("events/import/", transfer_views.scoresheet_upload, name="scoresheet_upload"),
    path(
        "events/import/template.csv",
        transfer_views.scoresheet_template,
        name="scoresheet_template",
    ),
    path(
        "events/<int:event_id>/settlement.xlsx",
        transfer_views.event_workbook,
        name="event_workbook",
    ),
    path("events/<int:event_id>/", views.event_detail, name="event_detail"),
    path("events/<int:event_id>/guests/", views.event_guest_add, name="event_guest_add"),
    path(
        "events/<int:event_id>/guests/bring-back/",
        views.event_guests_bring_back,
        name="event_guests_bring_back",
    ),
    path("events/<int:event_id>/shoes/", views.shoe_start, name="shoe_start"),
    path("events/<int:event_id>/close/", views.event_close, name="event_close"),
    path("shoes/<int:shoe_id>/", views.shoe_table, name="shoe_table"),
    path("shoes/<int:shoe_id>/hands/", views.hand_record, name="hand_record"),
    path("shoes/<int:shoe_id>/hands/undo/", views.hand_undo, name="hand_undo"),
    path("shoes/<int:shoe_id>/seats/", views.seat_change, name="seat_change"),
    path("shoes/<int:shoe_id>/deal/", views.deal_helper, name="deal_helper"),
    path("shoes/<int:shoe_id>/close/", views.shoe_close, name="shoe_close"),
    path("hands/<int:hand_id>/", views.hand_detail, name="hand_detail"),
    path(
        "events/<int:event_id>/results/",
        result_views.event_guest_results_page,
        name="event_guest_results",
    ),
    path(
        "events/<int:event_id>/settlements/",
        result_views.settlement_record,
        name="settlement_record",
    ),
    path("guests/", result_views.guest_list, name="guest_list"),
    path("guests/<int:guest_id>/", result_views.guest_detail, name="guest_detail"),
    path("guests/<int:guest_id>/link/", result_views.guest_link_issue, name="guest_link_issue"),
    path(
        "guests/<int:guest_id>/link/revoke/",
        result_views.guest_link_revoke,
        name="guest_link_revoke",
    ),
    path("g/<int:guest_id>/<str:token>/", result_views.guest_page, name="guest_page"),
    path(
        "g/<int:guest_id>/<str:token>/statement.xlsx",
        result_views.guest_statement,
        name="guest_statement",
    ),
    path("me/", result_views.my_page, name="my_page"),
    path("me/statement.xlsx", result_views.my_statement, name="my_statement"),
    path("standings/", result_views.standings_page, name="standings"),
    path("house/", result_views.house_page, name="house"),
    path("audit/", result_views.audit_log, name="audit_log"),
]
