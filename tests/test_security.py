"""Who may do what, checked on every URL of the project; and the protections around it."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from games import services as game_services
from ledger.count import services as count_services
from ledger.expenses import services as expense_services
from ledger.guests import services as guest_services
from ledger.models import Guest, PayWay, SeriesGuest, StaffInvitation, Transfer
from ledger.money import services as money_services
from ledger.people import services as people_services
from ledger.series import services as series_services
from ledger.tips import services as tip_services
from shoebook import accounts as shoebook_accounts
from tests.conftest import bet, seed_pay_ways
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

OK, LOGIN, FORBIDDEN, MISSING, NOT_ALLOWED = "ok", "login", "403", "404", "405"
ROLES = ("anonymous", "outsider", "guest", "dealer", "host")


def every_url_name(resolver: URLResolver | None = None, namespace: str = "") -> set[str]:
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if entry.namespace != "admin":
                names |= every_url_name(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name:
            names.add(namespace + entry.name)
    return names


# name: (method, expected answer for anonymous, outsider, guest (logged in), dealer, host)
# "ok" is any answer that is neither a refusal nor a detour to the login page.
ACCESS: dict[str, tuple[str, tuple[str, ...]]] = {
    "home": ("get", (OK, OK, OK, OK, OK)),
    "games:rules_and_odds": ("get", (OK, OK, OK, OK, OK)),
    "set_language": ("post", (OK, OK, OK, OK, OK)),
    "web_manifest": ("get", (OK, OK, OK, OK, OK)),
    "service_worker": ("get", (OK, OK, OK, OK, OK)),
    "offline": ("get", (OK, OK, OK, OK, OK)),
    "login": ("get", (OK, OK, OK, OK, OK)),
    "logout": ("post", (LOGIN, OK, OK, OK, OK)),
    "password_change": ("get", (LOGIN, OK, OK, OK, OK)),
    "password_change_done": ("get", (LOGIN, OK, OK, OK, OK)),
    # Off without a mail server (shoebook.accounts): not found for anyone.
    "password_reset": ("get", (MISSING, MISSING, MISSING, MISSING, MISSING)),
    "password_reset_done": ("get", (MISSING, MISSING, MISSING, MISSING, MISSING)),
    "password_reset_confirm": ("get", (MISSING, MISSING, MISSING, MISSING, MISSING)),
    "password_reset_complete": ("get", (MISSING, MISSING, MISSING, MISSING, MISSING)),
    "ledger:event_list": ("get", (LOGIN, FORBIDDEN, OK, OK, OK)),  # a guest: sent to their page
    "ledger:event_create": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:scoresheet_upload": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:scoresheet_template": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:event_workbook": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_export_csv": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_export_json": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:season_export_csv": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:season_export_json": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:audit_export_csv": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_guest_results": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:event_guest_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_guests_bring_back": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:shoe_start": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_close": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_reopen": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_edit": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:settlement_record": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:settlement_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:transfer_record": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:transfer_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:count_page": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:count_guest": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:count_setup": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:chips_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:chips_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:adjustment_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:adjustment_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # The tips: the host records them and sees every share; a dealer starts and stops only their
    # own shift (another's: 403) and sees only their own share; a guest sees none.
    "ledger:tips_page": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:tip_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:tip_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:tip_sharing": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:shift_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:shift_stop": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:shift_remove": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:dealer_tips": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:expense_page": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:expense_record": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:expense_void": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_credit_limit": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # The ways to pay and a guest's handles: the host's alone (a guest sees their own handles
    # and request on their own pages, ledger:guest_page and ledger:my_page).
    "ledger:pay_ways": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:pay_way_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:pay_way_edit": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:pay_way_retire": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:pay_way_move": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_handles_save": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:shoe_table": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:hand_record": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:hand_undo": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:seat_change": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:deal_helper": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    # A guest-banked table's helper: a Punto Banco shoe (the world's) has none.
    "ledger:coup_step": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, MISSING, MISSING)),
    "ledger:shoe_close": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:shoe_reopen": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:hand_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:hand_by_number": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:hand_go": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:guest_list": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_link_issue": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_link_revoke": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_rename": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_alias_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_alias_remove": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_merge": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_invitation_issue": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_invitation_revoke": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:invitation_accept": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:people": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:staff_invite": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:staff_invitation_withdraw": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:person_role": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:person_revoke": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:staff_invitation_accept": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:guest_page": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:guest_manifest": ("get", (OK, OK, OK, OK, OK)),
    "ledger:guest_statement": ("get", (OK, OK, OK, OK, OK)),
    "ledger:my_page": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
    "ledger:my_statement": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
    "ledger:standings": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:house": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    # A series: the host's pages; its calendar feeds open by their link alone.
    "ledger:series_list": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_from_night": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_edit": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_next_night": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_guests": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_settings_from": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_feed_link": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_guest_link": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:series_feed": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:series_guest_feed": ("get", (OK, OK, OK, OK, OK)),
    "ledger:season_workbook": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:audit_log": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_receipt": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:guest_receipt_pdf": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:link_receipt": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:guest_preview": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:shared_results": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "ledger:shared_results_preview": ("get", (OK, OK, OK, OK, OK)),
    "ledger:event_results_link": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:link_receipt_pdf": ("get", (OK, OK, OK, OK, OK)),
    "ledger:my_receipt": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
    "ledger:my_receipt_pdf": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
    "ledger:event_share": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "ledger:event_share_names": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "display:table_display": ("get", (OK, OK, OK, OK, OK)),
    "ledger:display_link_issue": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:tournament_list": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournaments:tournament_create": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:tournament_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournaments:tournament_edit": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:tournament_for_event": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournaments:entrant_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:round_add": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:round_detail": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournaments:round_board": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournaments:round_draw": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:round_start": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:round_close": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:entrant_rebuy": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:entrant_add_on": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:table_display_link": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_reports:standings": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournament_reports:workbook": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournament_reports:season": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournament_table:secret_bet": ("post", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "tournament_table:guest_standings": ("get", (OK, OK, OK, OK, OK)),  # the link is the key
    "tournament_table:my_standings": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
    # The live streams (shoebook.base.live), each checked like its page.
    "ledger:shoe_live": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "ledger:event_live": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, FORBIDDEN, OK)),
    "tournaments:tournament_live": ("get", (LOGIN, FORBIDDEN, FORBIDDEN, OK, OK)),
    "live:display": ("get", (OK, OK, OK, OK, OK)),  # the display's link is the key
    "live:guest": ("get", (OK, OK, OK, OK, OK)),  # the guest's link is the key
    "live:me": ("get", (LOGIN, MISSING, OK, MISSING, MISSING)),
}


@pytest.fixture
def world(seated, shoe, record, host, dealer):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    guest = seated[1]
    guest_services.guest_link_issue(guest=guest)
    game_services.event_display_link_issue(event=shoe.event)
    game_services.event_results_link_issue(event=shoe.event)
    guest.refresh_from_db()
    shoe.event.refresh_from_db()
    guest_user = User.objects.create_user("aki-login", password="pw-for-tests")
    Guest.objects.filter(pk=guest.pk).update(user=guest_user)
    outsider = User.objects.create_user("nobody", password="pw-for-tests")
    settlement = money_services.settlement_record(
        guest=guest, event=shoe.event, amount=Decimal("5"), method="cash", by=host
    )
    alias = guest_services.guest_alias_add(guest=guest, name="Aki-san", by=host)
    seed_pay_ways()
    way = PayWay.objects.get(name="PayPal")
    # A transfer between guests (of a guest-banked night; its row alone will do here).
    transfer = Transfer.objects.create(
        event=shoe.event, payer=guest, payee=seated[2], amount=Decimal("5"), recorded_by=host
    )
    invitation = guest_services.guest_invitation_issue(guest=seated[2], by=host)
    staff_token = people_services.staff_invitation_issue(role="dealer", by=host)
    staff_invitation = StaffInvitation.objects.get()
    people_target = User.objects.create_user("people-target", password="pw-for-tests")
    people_target.groups.add(*dealer.groups.all())
    chips = count_services.chips_record(
        event=shoe.event, guest=guest, kind="buy_in", chips=Decimal(500), source="cash", by=host
    )
    adjustment = count_services.adjustment_record(
        event=shoe.event, guest=guest, amount=Decimal(5), reason="test", by=host
    )
    tip = tip_services.tip_record(
        event=shoe.event, guest=guest, amount=Decimal(2), source="money", by=host
    )
    second_dealer = User.objects.create_user("second-dealer", password="pw-for-tests")
    second_dealer.groups.add(*dealer.groups.all())
    shift = tip_services.shift_start(event=shoe.event, dealer=second_dealer, by=host)
    expense = expense_services.expense_record(
        event=shoe.event, what="Pizza", amount=Decimal(30), paid_by=None,
        sharers=[(guest, 1), (seated[2], 1)], by=host,
    )  # fmt: skip
    series = series_services.series_from_night(
        event=shoe.event, by=host, name="Fridays", recurrence="weekly"
    )
    series_feed = series_services.series_feed_link_issue(series=series, by=host)
    calendar = SeriesGuest.objects.get(series=series, guest=guest).calendar_token
    tournament = tournament_services.tournament_create(
        name="Spring cup", date=shoe.event.date, by=host, entry_fee=Decimal(50)
    )
    for name in ("Aki", "Ben"):
        tournament_services.entrant_add(tournament=tournament, name=name, by=host)
    round_ = tournament_services.round_add(tournament=tournament, by=host, hands=3)
    tournament_services.round_draw(round_=round_, by=host)
    tournament_services.round_start(round_=round_, by=host)
    entrant = tournament.entrants.first()
    args = {
        "ledger:settlement_void": [settlement.pk], "ledger:guest_credit_limit": [guest.pk],
        "ledger:pay_way_edit": [way.pk], "ledger:pay_way_retire": [way.pk],
        "ledger:pay_way_move": [way.pk], "ledger:guest_handles_save": [guest.pk],
        "ledger:pay_way_add": [],
        "ledger:transfer_record": [shoe.event_id], "ledger:transfer_void": [transfer.pk],
        "ledger:count_page": [shoe.event_id], "ledger:count_guest": [shoe.event_id, guest.pk],
        "ledger:count_setup": [shoe.event_id], "ledger:chips_add": [shoe.event_id],
        "ledger:chips_void": [chips.pk], "ledger:adjustment_add": [shoe.event_id],
        "ledger:adjustment_void": [adjustment.pk],
        "ledger:tips_page": [shoe.event_id], "ledger:tip_add": [shoe.event_id],
        "ledger:tip_void": [tip.pk], "ledger:tip_sharing": [shoe.event_id],
        "ledger:shift_add": [shoe.event_id], "ledger:shift_stop": [shift.pk],
        "ledger:shift_remove": [shift.pk],
        "ledger:expense_page": [shoe.event_id], "ledger:expense_record": [shoe.event_id],
        "ledger:expense_void": [expense.pk],
        "ledger:guest_rename": [guest.pk], "ledger:guest_alias_add": [guest.pk],
        "ledger:guest_alias_remove": [guest.pk, alias.pk], "ledger:guest_merge": [guest.pk],
        "ledger:guest_invitation_issue": [guest.pk],
        "ledger:guest_invitation_revoke": [guest.pk],
        "ledger:invitation_accept": [invitation],
        "ledger:people": [], "ledger:staff_invite": [],
        "ledger:staff_invitation_withdraw": [staff_invitation.pk],
        "ledger:person_role": [people_target.pk], "ledger:person_revoke": [people_target.pk],
        "ledger:staff_invitation_accept": [staff_token],
        "ledger:event_detail": [shoe.event_id], "ledger:event_workbook": [shoe.event_id],
        "ledger:event_export_csv": [shoe.event_id], "ledger:event_export_json": [shoe.event_id],
        "ledger:event_guest_results": [shoe.event_id], "ledger:event_guest_add": [shoe.event_id],
        "ledger:event_guests_bring_back": [shoe.event_id], "ledger:shoe_start": [shoe.event_id],
        "ledger:event_close": [shoe.event_id], "ledger:settlement_record": [shoe.event_id],
        "ledger:event_edit": [shoe.event_id], "ledger:event_reopen": [shoe.event_id],
        "ledger:shoe_table": [shoe.pk], "ledger:hand_record": [shoe.pk],
        "ledger:hand_undo": [shoe.pk], "ledger:seat_change": [shoe.pk],
        "ledger:deal_helper": [shoe.pk], "ledger:coup_step": [shoe.pk],
        "ledger:shoe_close": [shoe.pk],
        "ledger:shoe_reopen": [shoe.pk],
        "ledger:hand_detail": [hand.pk], "ledger:guest_detail": [guest.pk],
        "ledger:hand_by_number": [shoe.pk, hand.number], "ledger:hand_go": [shoe.pk],
        "ledger:guest_link_issue": [guest.pk], "ledger:guest_link_revoke": [guest.pk],
        "ledger:guest_page": [guest.pk, guest.access_token],
        "ledger:guest_manifest": [guest.pk, guest.access_token],
        "ledger:guest_statement": [guest.pk, guest.access_token],
        "tournament_table:guest_standings": [guest.pk, guest.access_token],
        "tournament_table:secret_bet": [shoe.event_id],
        "display:table_display": [shoe.event_id, shoe.event.display_token],
        "ledger:display_link_issue": [shoe.event_id],
        "ledger:guest_receipt": [guest.pk, shoe.event_id],
        "ledger:guest_receipt_pdf": [guest.pk, shoe.event_id],
        "ledger:link_receipt": [guest.pk, guest.access_token, shoe.event_id],
        "ledger:link_receipt_pdf": [guest.pk, guest.access_token, shoe.event_id],
        "ledger:my_receipt": [shoe.event_id], "ledger:my_receipt_pdf": [shoe.event_id],
        "ledger:event_share": [shoe.event_id], "ledger:event_share_names": [shoe.event_id],
        "ledger:event_results_link": [shoe.event_id],
        "ledger:guest_preview": [guest.pk, guest.access_token],
        "ledger:shared_results": [shoe.event_id, shoe.event.results_token],
        "ledger:shared_results_preview": [shoe.event_id, shoe.event.results_token],
        "password_reset_confirm": ["MQ", "set-password"],
        "tournaments:tournament_detail": [tournament.pk],
        "tournaments:tournament_edit": [tournament.pk],
        "tournaments:tournament_for_event": [tournament.event_id],
        "tournaments:entrant_add": [tournament.pk], "tournaments:round_add": [tournament.pk],
        "tournaments:round_detail": [round_.pk], "tournaments:round_board": [round_.pk],
        "tournaments:round_draw": [round_.pk], "tournaments:round_start": [round_.pk],
        "tournaments:round_close": [round_.pk],
        "tournaments:entrant_rebuy": [round_.pk, entrant.pk],
        "tournaments:entrant_add_on": [round_.pk, entrant.pk],
        "tournaments:table_display_link": [round_.tables.get().pk],
        "tournament_reports:standings": [tournament.pk],
        "tournament_reports:workbook": [tournament.pk],
        "ledger:shoe_live": [shoe.pk], "ledger:event_live": [shoe.event_id],
        "tournaments:tournament_live": [tournament.pk],
        "live:display": [shoe.event_id, shoe.event.display_token],
        "live:guest": [guest.pk, guest.access_token],
        "ledger:series_detail": [series.pk], "ledger:series_from_night": [shoe.event_id],
        "ledger:series_edit": [series.pk], "ledger:series_next_night": [series.pk],
        "ledger:series_guests": [series.pk], "ledger:series_settings_from": [series.pk],
        "ledger:series_feed_link": [series.pk],
        "ledger:series_guest_link": [series.pk, guest.pk],
        "ledger:series_feed": [series.pk, series_feed],
        "ledger:series_guest_feed": [series.pk, guest.pk, calendar],
    }  # fmt: skip
    users = {"anonymous": None, "outsider": outsider, "guest": guest_user, "dealer": dealer,
             "host": host}  # fmt: skip
    return args, users


def classify(response, login_url: str) -> str:
    if response.status_code in (301, 302) and response.url.startswith(login_url):
        return LOGIN
    return {403: FORBIDDEN, 404: MISSING, 405: NOT_ALLOWED}.get(response.status_code, OK)


def test_the_access_table_covers_every_url_of_the_project():
    assert every_url_name() == set(ACCESS)


@pytest.mark.parametrize("role", ROLES)
def test_every_url_answers_each_role_as_the_table_says(world, role):
    args, users = world
    answers = {}
    # Reads first: the writes (an undo, a replaced link) change what later requests find.
    for name, (method, _expected) in sorted(ACCESS.items(), key=lambda item: item[1][0] != "get"):
        client = Client()
        if users[role] is not None:
            client.force_login(users[role])
        send: Callable = getattr(client, method)
        response = send(reverse(name, args=args.get(name, [])))
        assert response.status_code < 500, name
        answers[name] = classify(response, reverse("login"))
    wanted = {name: expected[ROLES.index(role)] for name, (_, expected) in ACCESS.items()}
    assert answers == wanted


def test_a_wrong_token_is_a_404_everywhere(world, client):
    args, _ = world
    guest_id = args["ledger:guest_page"][0]
    event_id = args["display:table_display"][0]
    for name, key in (
        ("ledger:guest_page", guest_id),
        ("ledger:guest_statement", guest_id),
        ("ledger:guest_manifest", guest_id),
        ("tournament_table:guest_standings", guest_id),
        ("display:table_display", event_id),
        ("live:display", event_id),
        ("live:guest", guest_id),
        ("ledger:series_feed", args["ledger:series_feed"][0]),
    ):
        assert client.get(reverse(name, args=[key, secrets.token_urlsafe(32)])).status_code == 404
    series_id = args["ledger:series_guest_feed"][0]
    wrong = reverse(
        "ledger:series_guest_feed", args=[series_id, guest_id, secrets.token_urlsafe(32)]
    )
    assert client.get(wrong).status_code == 404
    for name in ("ledger:link_receipt", "ledger:link_receipt_pdf"):
        wrong = reverse(name, args=[guest_id, secrets.token_urlsafe(32), event_id])
        assert client.get(wrong).status_code == 404
    for name in ("ledger:invitation_accept", "ledger:staff_invitation_accept"):
        assert client.get(reverse(name, args=[secrets.token_urlsafe(32)])).status_code == 404


def private_link_names(resolver: URLResolver | None = None, namespace: str = "") -> set[str]:
    """Every URL whose address holds a token: the project's private links (Django's own
    password reset aside: it takes the token out of its address itself)."""
    names = set()
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            inner = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            if entry.namespace != "admin":
                names |= private_link_names(entry, inner)
        elif isinstance(entry, URLPattern) and entry.name and "<str:token>" in str(entry.pattern):
            names.add(namespace + entry.name)
    return names


PRIVATE_CACHE = {"private, no-store", "private, no-cache", "no-cache", "no-store"}


def test_every_private_link_s_answer_keeps_its_address_to_itself(world, client):
    """Every answer of every private link, found and refused alike, carries the headers that
    keep its address out of referrers, shared caches and search engines."""
    args, _ = world
    names = private_link_names()
    assert {"ledger:guest_statement", "ledger:link_receipt_pdf", "live:guest"} <= names
    for name in sorted(names):
        good = args[name]
        wrong = [secrets.token_urlsafe(32) if isinstance(arg, str) else arg for arg in good]
        for url_args in (good, wrong):
            response = client.get(reverse(name, args=url_args))
            assert response.status_code < 500, name
            assert response["X-Robots-Tag"] == "noindex, nofollow", name
            assert response["Referrer-Policy"] in {"no-referrer", "same-origin"}, name
            assert response["Cache-Control"] in PRIVATE_CACHE, name
    statement = client.get(reverse("ledger:guest_statement", args=args["ledger:guest_statement"]))
    assert statement["Cache-Control"] == "private, no-store"
    assert statement["Referrer-Policy"] == "no-referrer"


def test_every_form_needs_its_csrf_token(world):
    args, users = world
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["host"])
    for name in (
        "ledger:hand_record",
        "ledger:seat_change",
        "ledger:settlement_record",
        "ledger:settlement_void",
        "ledger:guest_credit_limit",
        "ledger:pay_way_add",
        "ledger:pay_way_retire",
        "ledger:guest_handles_save",
        "ledger:transfer_record",
        "ledger:transfer_void",
        "ledger:chips_add",
        "ledger:chips_void",
        "ledger:adjustment_add",
        "ledger:adjustment_void",
        "ledger:expense_record",
        "ledger:expense_void",
        "ledger:count_setup",
        "ledger:event_guest_add",
        "ledger:display_link_issue",
        "ledger:shoe_close",
        "ledger:shoe_reopen",
        "ledger:event_close",
        "ledger:event_reopen",
        "ledger:event_share_names",
        "tournaments:entrant_add",
        "tournaments:round_close",
        "tournaments:entrant_rebuy",
        "tournament_table:secret_bet",
        "ledger:staff_invite",
        "ledger:staff_invitation_withdraw",
        "ledger:person_role",
        "ledger:person_revoke",
    ):
        assert client.post(reverse(name, args=args[name]), {}).status_code == 403


def test_pages_carry_the_security_headers(client):
    response = client.get(reverse("games:rules_and_odds"))
    policy = response["Content-Security-Policy"]
    script_src = next(part for part in policy.split(";") if "script-src" in part)
    assert script_src.strip() == "script-src 'self'"
    assert "frame-ancestors 'none'" in policy
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_pages_run_no_inline_script(client, host, seated, shoe, record):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10)])
    client.force_login(host)
    for url in (
        reverse("ledger:shoe_table", args=[shoe.pk]),
        reverse("ledger:event_detail", args=[shoe.event_id]),
    ):
        page = client.get(url).content.decode()
        scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", page, re.S)
        run = [(attrs, body) for attrs, body in scripts if 'type="application/json"' not in attrs]
        assert run and all("src=" in attrs and not body.strip() for attrs, body in run)
        assert not re.search(r"<[^>]+\son[a-z]+=", page)  # no inline event handlers


def test_five_wrong_passwords_lock_the_login(client, settings, host):
    settings.AXES_ENABLED = True
    url = reverse("login")
    for _ in range(4):
        response = client.post(url, {"username": host.username, "password": "wrong"})
        assert response.status_code == 200  # the form again, with its message
    fifth = client.post(url, {"username": host.username, "password": "wrong"})
    assert fifth.status_code == 429
    locked = client.post(url, {"username": host.username, "password": "pw-for-tests"})
    assert locked.status_code == 429
    assert "Too many wrong passwords" in locked.content.decode()
    assert "_auth_user_id" not in client.session
    other = Client().post(url, {"username": "someone-else", "password": "x"})
    assert other.status_code == 200  # only that username from that address is locked


PROXY = "10.0.0.2"  # the TLS proxy in front of the site, as the workers see it


def log_in(username: str, password: str, *, client: str, proxy: str | None = PROXY) -> int:
    """A login from ``client``: through ``proxy``, which names it in X-Forwarded-For as nginx's
    ``$proxy_add_x_forwarded_for`` does, or straight (``proxy=None``). Its status."""
    meta = {"REMOTE_ADDR": client} if proxy is None else {
        "REMOTE_ADDR": proxy, "HTTP_X_FORWARDED_FOR": client}  # fmt: skip
    answer = Client().post(reverse("login"), {"username": username, "password": password}, **meta)
    return answer.status_code


@pytest.fixture
def lockout(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.TRUSTED_PROXIES = [f"{PROXY}/32"]
    return settings


def test_a_strangers_wrong_passwords_do_not_lock_the_host_out_behind_a_trusted_proxy(lockout, host):
    stranger = [log_in(host.username, "wrong", client="203.0.113.7") for _ in range(5)]
    assert stranger == [200] * 4 + [429]
    assert log_in(host.username, "pw-for-tests", client="198.51.100.20") == 302  # the host, in
    # That login from that address stays locked, the right password too.
    assert log_in(host.username, "pw-for-tests", client="203.0.113.7") == 429


def test_the_proxys_header_is_read_from_the_right_past_trusted_hops_only(lockout, host):
    # What the stranger wrote into X-Forwarded-For themselves sits left of what the proxy added.
    for _ in range(5):
        log_in(host.username, "wrong", client="198.51.100.20, 203.0.113.7")
    assert log_in(host.username, "pw-for-tests", client="198.51.100.20") == 302


def test_without_the_proxy_trusted_its_header_is_ignored(lockout, host):
    lockout.TRUSTED_PROXIES = []
    # A client cannot name another address: it is counted as the peer it is.
    for _ in range(5):
        log_in(host.username, "wrong", client="198.51.100.20", proxy="203.0.113.7")
    assert log_in(host.username, "pw-for-tests", client="203.0.113.7", proxy=None) == 429
    assert log_in(host.username, "pw-for-tests", client="198.51.100.20", proxy=None) == 302


def test_an_untrusted_proxy_makes_every_client_the_proxy(lockout, host, caplog, monkeypatch):
    # Why the operator names the proxy (docs/operations.md): unnamed, everyone behind it is one
    # address, and the log says so, once.
    lockout.TRUSTED_PROXIES = []
    monkeypatch.setattr(shoebook_accounts, "_warned_untrusted", set())
    for _ in range(5):
        log_in(host.username, "wrong", client="203.0.113.7")
    assert log_in(host.username, "pw-for-tests", client="198.51.100.20") == 429
    warned = [r.getMessage() for r in caplog.records if "FORWARDED_ALLOW_IPS" in r.getMessage()]
    assert len(warned) == 1 and PROXY in warned[0]


def test_many_logins_guessed_from_one_address_lock_that_address(lockout, host):
    lockout.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    guesses = [log_in(f"someone-{n}", "wrong", client="203.0.113.7") for n in range(8)]
    assert guesses == [200] * 7 + [429]  # one wrong password each, eight logins
    assert log_in(host.username, "pw-for-tests", client="203.0.113.7") == 429
    assert log_in(host.username, "pw-for-tests", client="198.51.100.20") == 302


def test_hsts_and_secure_cookies_in_production():
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS"}}
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.SECURE_HSTS_SECONDS, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=env
        | {
            "DJANGO_SETTINGS_MODULE": "shoebook.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "bar.example",
        },
    )
    assert result.stdout.split() == ["31536000", "True", "True", "True"]
