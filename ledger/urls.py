"""The ledger's pages: events, the table, hands, guests, money and workbooks."""

from django.urls import path

from ledger.count import views as count
from ledger.expenses import views as expenses
from ledger.guests.views import guests, sharing
from ledger.hands.views import coup_table, hands, live, table
from ledger.money.views import clearing, results
from ledger.nights import views as events
from ledger.payways import views as payways
from ledger.people import views as people
from ledger.series import views as series
from ledger.tips import views as tips
from ledger.workbook import views as workbook
from shoebook.base.converters import use_id_converter

use_id_converter()

app_name = "ledger"
urlpatterns = [
    path("events/", events.event_list, name="event_list"),
    path("events/new/", events.event_create, name="event_create"),
    path("events/import/", workbook.scoresheet_upload, name="scoresheet_upload"),
    path(
        "events/import/template.csv",
        workbook.scoresheet_template,
        name="scoresheet_template",
    ),
    path("house/season.xlsx", workbook.season_workbook, name="season_workbook"),
    path(
        "events/<id:event_id>/settlement.xlsx",
        workbook.event_workbook,
        name="event_workbook",
    ),
    path("events/<id:event_id>/export/csv/", workbook.event_export_csv, name="event_export_csv"),
    path("events/<id:event_id>/export/json/", workbook.event_export_json, name="event_export_json"),
    path("exports/season/csv/", workbook.season_export_csv, name="season_export_csv"),
    path("exports/season/json/", workbook.season_export_json, name="season_export_json"),
    path("audit/export/csv/", workbook.audit_export_csv, name="audit_export_csv"),
    path("events/<id:event_id>/", events.event_detail, name="event_detail"),
    path("events/<id:event_id>/make-series/", series.series_from_night, name="series_from_night"),
    path("series/", series.series_list, name="series_list"),
    path("series/<id:series_id>/", series.series_detail, name="series_detail"),
    path("series/<id:series_id>/edit/", series.series_edit, name="series_edit"),
    path("series/<id:series_id>/next/", series.series_next_night, name="series_next_night"),
    path("series/<id:series_id>/guests/", series.series_guests, name="series_guests"),
    path(
        "series/<id:series_id>/settings/",
        series.series_settings_from,
        name="series_settings_from",
    ),
    path("series/<id:series_id>/feed-link/", series.series_feed_link, name="series_feed_link"),
    path(
        "series/<id:series_id>/guests/<id:guest_id>/calendar-link/",
        series.series_guest_link,
        name="series_guest_link",
    ),
    path(
        "series/<id:series_id>/calendar/<str:token>/series.ics",
        series.series_feed,
        name="series_feed",
    ),
    path(
        "series/<id:series_id>/g/<id:guest_id>/<str:token>/series.ics",
        series.series_guest_feed,
        name="series_guest_feed",
    ),
    path("events/<id:event_id>/edit/", events.event_edit, name="event_edit"),
    path("events/<id:event_id>/guests/", events.event_guest_add, name="event_guest_add"),
    path(
        "events/<id:event_id>/guests/bring-back/",
        events.event_guests_bring_back,
        name="event_guests_bring_back",
    ),
    path("events/<id:event_id>/shoes/", events.shoe_start, name="shoe_start"),
    path("events/<id:event_id>/close/", events.event_close, name="event_close"),
    path("events/<id:event_id>/count/", count.count_page, name="count_page"),
    path("events/<id:event_id>/live/", count.event_live, name="event_live"),
    path("events/<id:event_id>/count/setup/", count.count_setup, name="count_setup"),
    path("events/<id:event_id>/count/chips/", count.chips_add, name="chips_add"),
    path("events/<id:event_id>/count/adjustments/", count.adjustment_add, name="adjustment_add"),
    path("events/<id:event_id>/count/guests/<id:guest_id>/", count.count_guest, name="count_guest"),
    path("chips/<id:move_id>/void/", count.chips_void, name="chips_void"),
    path("adjustments/<id:adjustment_id>/void/", count.adjustment_void, name="adjustment_void"),
    path("events/<id:event_id>/tips/", tips.tips_page, name="tips_page"),
    path("events/<id:event_id>/tips/add/", tips.tip_add, name="tip_add"),
    path("events/<id:event_id>/tips/sharing/", tips.tip_sharing, name="tip_sharing"),
    path("events/<id:event_id>/shifts/", tips.shift_add, name="shift_add"),
    path("tips/<id:tip_id>/void/", tips.tip_void, name="tip_void"),
    path("shifts/<id:shift_id>/stop/", tips.shift_stop, name="shift_stop"),
    path("shifts/<id:shift_id>/remove/", tips.shift_remove, name="shift_remove"),
    path("dealer/tips/", tips.dealer_tips, name="dealer_tips"),
    path("events/<id:event_id>/expenses/", expenses.expense_page, name="expense_page"),
    path("events/<id:event_id>/expenses/new/", expenses.expense_record, name="expense_record"),
    path("expenses/<id:expense_id>/void/", expenses.expense_void, name="expense_void"),
    path("events/<id:event_id>/reopen/", events.event_reopen, name="event_reopen"),
    path(
        "events/<id:event_id>/display-link/",
        events.display_link_issue,
        name="display_link_issue",
    ),
    path("shoes/<id:shoe_id>/", table.shoe_table, name="shoe_table"),
    path("shoes/<id:shoe_id>/live/", live.shoe_live, name="shoe_live"),
    path("shoes/<id:shoe_id>/hands/", table.hand_record, name="hand_record"),
    path("shoes/<id:shoe_id>/hands/undo/", table.hand_undo, name="hand_undo"),
    path("shoes/<id:shoe_id>/hands/go/", hands.hand_go, name="hand_go"),
    path(
        "shoes/<id:shoe_id>/hands/<id:number>/",
        hands.hand_by_number,
        name="hand_by_number",
    ),
    path("shoes/<id:shoe_id>/seats/", table.seat_change, name="seat_change"),
    path("shoes/<id:shoe_id>/deal/", table.deal_helper, name="deal_helper"),
    path("shoes/<id:shoe_id>/coup-step/", coup_table.coup_step_helper, name="coup_step"),
    path("shoes/<id:shoe_id>/close/", table.shoe_close, name="shoe_close"),
    path("shoes/<id:shoe_id>/reopen/", table.shoe_reopen, name="shoe_reopen"),
    path("hands/<id:hand_id>/", hands.hand_detail, name="hand_detail"),
    path(
        "events/<id:event_id>/results/",
        results.event_guest_results_page,
        name="event_guest_results",
    ),
    path(
        "events/<id:event_id>/settlements/",
        events.settlement_record,
        name="settlement_record",
    ),
    path(
        "events/<id:event_id>/transfers/",
        clearing.transfer_record,
        name="transfer_record",
    ),
    path("transfers/<id:transfer_id>/void/", clearing.transfer_void, name="transfer_void"),
    path(
        "settlements/<id:settlement_id>/void/",
        events.settlement_void,
        name="settlement_void",
    ),
    path("ways/", payways.pay_ways, name="pay_ways"),
    path("ways/add/", payways.pay_way_add, name="pay_way_add"),
    path("ways/<id:way_id>/edit/", payways.pay_way_edit, name="pay_way_edit"),
    path("ways/<id:way_id>/retire/", payways.pay_way_retire, name="pay_way_retire"),
    path("ways/<id:way_id>/move/", payways.pay_way_move, name="pay_way_move"),
    path("guests/<id:guest_id>/handles/", payways.guest_handles_save, name="guest_handles_save"),
    path("guests/", guests.guest_list, name="guest_list"),
    path("guests/<id:guest_id>/", guests.guest_detail, name="guest_detail"),
    path(
        "guests/<id:guest_id>/credit-limit/",
        guests.guest_credit_limit,
        name="guest_credit_limit",
    ),
    path("guests/<id:guest_id>/link/", guests.guest_link_issue, name="guest_link_issue"),
    path(
        "guests/<id:guest_id>/link/revoke/",
        guests.guest_link_revoke,
        name="guest_link_revoke",
    ),
    path("guests/<id:guest_id>/rename/", guests.guest_rename, name="guest_rename"),
    path("guests/<id:guest_id>/aliases/", guests.guest_alias_add, name="guest_alias_add"),
    path(
        "guests/<id:guest_id>/aliases/<id:alias_id>/remove/",
        guests.guest_alias_remove,
        name="guest_alias_remove",
    ),
    path("guests/<id:guest_id>/merge/", guests.guest_merge, name="guest_merge"),
    path(
        "guests/<id:guest_id>/invitation/",
        guests.guest_invitation_issue,
        name="guest_invitation_issue",
    ),
    path(
        "guests/<id:guest_id>/invitation/revoke/",
        guests.guest_invitation_revoke,
        name="guest_invitation_revoke",
    ),
    path("invite/<str:token>/", guests.invitation_accept, name="invitation_accept"),
    path("people/", people.people_page, name="people"),
    path("people/invite/", people.staff_invite, name="staff_invite"),
    path(
        "people/invitations/<id:invitation_id>/withdraw/",
        people.staff_invitation_withdraw,
        name="staff_invitation_withdraw",
    ),
    path("people/<id:user_id>/role/", people.person_role, name="person_role"),
    path("people/<id:user_id>/revoke/", people.person_revoke, name="person_revoke"),
    path("join/<str:token>/", people.staff_invitation_accept, name="staff_invitation_accept"),
    path("g/<id:guest_id>/<str:token>/", guests.guest_page, name="guest_page"),
    path("g/<id:guest_id>/<str:token>/preview.png", guests.guest_preview, name="guest_preview"),
    path(
        "g/<id:guest_id>/<str:token>/manifest.webmanifest",
        guests.guest_manifest,
        name="guest_manifest",
    ),
    path(
        "g/<id:guest_id>/<str:token>/statement.xlsx",
        guests.guest_statement,
        name="guest_statement",
    ),
    path(
        "guests/<id:guest_id>/receipts/<id:event_id>/",
        sharing.guest_receipt_page,
        name="guest_receipt",
    ),
    path(
        "guests/<id:guest_id>/receipts/<id:event_id>/receipt.pdf",
        sharing.guest_receipt_pdf,
        name="guest_receipt_pdf",
    ),
    path(
        "g/<id:guest_id>/<str:token>/receipts/<id:event_id>/",
        sharing.link_receipt_page,
        name="link_receipt",
    ),
    path(
        "g/<id:guest_id>/<str:token>/receipts/<id:event_id>/receipt.pdf",
        sharing.link_receipt_pdf,
        name="link_receipt_pdf",
    ),
    path("me/receipts/<id:event_id>/", sharing.my_receipt_page, name="my_receipt"),
    path("me/receipts/<id:event_id>/receipt.pdf", sharing.my_receipt_pdf, name="my_receipt_pdf"),
    path("events/<id:event_id>/share/", sharing.event_share, name="event_share"),
    path("events/<id:event_id>/share/names/", sharing.event_share_names, name="event_share_names"),
    path("events/<id:event_id>/share/link/", sharing.event_results_link, name="event_results_link"),
    path("r/<id:event_id>/<str:token>/", sharing.shared_results, name="shared_results"),
    path(
        "r/<id:event_id>/<str:token>/preview.png",
        sharing.shared_results_preview,
        name="shared_results_preview",
    ),
    path("me/", guests.my_page, name="my_page"),
    path("me/statement.xlsx", guests.my_statement, name="my_statement"),
    path("standings/", results.standings_page, name="standings"),
    path("house/", results.house_page, name="house"),
    path("audit/", results.audit_log, name="audit_log"),
]
