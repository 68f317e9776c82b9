from __future__ import annotations

import re
import uuid
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from games.kinds import Game
from games.rules import Winner
from ledger.count import services as count_services
from ledger.expenses import services as expense_services
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import AuditEntry, StaffInvitation
from ledger.money import services as money_services
from ledger.nights import services as night_services
from ledger.payways import services as payway_services
from ledger.people import services as people_services
from ledger.series import services as series_services
from ledger.tips import services as tip_services
from ledger.workbook.blanks import template_csv
from tests.conftest import bet, entry
from tests.ledger.banked import coup_entry, make_banked, record_coup, rotating_coups

pytestmark = pytest.mark.django_db


def test_every_change_to_money_records_is_in_the_audit_log(seated, shoe, record, host, dealer):
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)], by=dealer)
    hand_services.hand_correct(
        hand=hand, entry=entry("9 7", "J J 10", [bet(1, "player", 50)]), reason="misread", by=host
    )
    record(shoe, "8 K", "9 K", [bet(2, "banker", 40)])
    hand_services.hand_undo(shoe=shoe, by=host)
    money_services.settlement_record(
        guest=seated[1], event=shoe.event, amount=Decimal("-50"), method="cash", by=host
    )
    entries = list(AuditEntry.objects.order_by("at", "id"))
    assert [(e.action, e.by) for e in entries] == [
        ("hand_logged", dealer),
        ("hand_corrected", host),
        ("hand_logged", host),
        ("hand_undone", host),
        ("settlement", host),
    ]
    logged, corrected, _, undone, settled = entries
    assert logged.before is None and logged.after["bets"][0]["net"] == "100.00"
    assert corrected.before["bets"][0]["stake"] == "100.00"
    assert corrected.after["bets"][0]["stake"] == "50.00"
    assert undone.before["banker_cards"] == "9 K" and undone.after is None
    assert settled.after["amount"] == "-50.00"


def test_the_host_reads_the_audit_log_and_nobody_changes_it(
    client, admin_client, host, dealer, seated, shoe, record
):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    hand_services.record_hand(shoe=shoe, entry=entry(result=Winner.TIE), number=2, by=host)
    client.force_login(host)
    page = client.get(reverse("ledger:audit_log")).content.decode()
    assert "Hand logged" in page and "Seat 1 · Aki · Player 100 → 100" in page
    assert (
        client.get(reverse("ledger:audit_log"), {"event": "999"})
        .content.decode()
        .count("Hand logged")
        == 0
    )
    client.force_login(dealer)
    assert client.get(reverse("ledger:audit_log")).status_code == 403
    admin = admin_client.get(reverse("admin:ledger_auditentry_changelist"))
    assert admin.status_code == 200
    logged = AuditEntry.objects.first()
    delete = reverse("admin:ledger_auditentry_delete", args=[logged.pk])
    assert admin_client.post(delete).status_code == 403  # not even a superuser
    assert AuditEntry.objects.filter(pk=logged.pk).exists()


def test_the_audit_log_shows_every_kind_of_entry(
    client, host, dealer, seated, shoe, record, tmp_path
):
    """A hand, an undo, a correction, a settlement, an event edit, an import, a shoe and an
    event closed and reopened, and the count's rows, on one page."""
    hand = record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    hand_services.hand_correct(hand=hand, entry=entry(result=Winner.TIE), reason="misread", by=host)
    record(shoe, "8 K", "9 K")
    hand_services.hand_undo(shoe=shoe, by=host)
    settlement = money_services.settlement_record(
        guest=seated[1], event=shoe.event, amount=Decimal("-50"), method="cash", by=host
    )
    money_services.settlement_void(settlement=settlement, reason="typed twice", by=host)
    night_services.event_edit(event=shoe.event, by=host, venue="Bar K")
    night_services.shoe_close(shoe=shoe, by=host)
    night_services.event_close(event=shoe.event, by=host)
    night_services.event_reopen(event=shoe.event, by=host)
    night_services.shoe_reopen(shoe=shoe, by=host)
    count_services.count_setup_save(event=shoe.event, by=host, opening_float=Decimal(100))
    chips = count_services.chips_record(
        event=shoe.event, guest=seated[1], kind="buy_in", chips=Decimal(50), source="cash", by=host
    )
    count_services.chips_void(move=chips, reason="typed twice", by=host)
    adjustment = count_services.adjustment_record(
        event=shoe.event, guest=seated[1], amount=Decimal(5), reason="a lost bet", by=host
    )
    count_services.adjustment_void(adjustment=adjustment, reason="found it", by=host)
    expense = expense_services.expense_record(
        event=shoe.event, what="Pizza", amount=Decimal(30), paid_by=None,
        sharers=[(seated[1], 1)], by=host,
    )  # fmt: skip
    expense_services.expense_void(expense=expense, reason="wrong night", by=host)
    tip = tip_services.tip_record(
        event=shoe.event, guest=seated[1], amount=Decimal(2), source="money", by=host
    )
    tip_services.tip_void(tip=tip, reason="typed twice", by=host)
    tip_services.tip_sharing_set(event=shoe.event, way="equal", by=host)
    tip_services.shift_start(event=shoe.event, dealer=dealer, by=host)
    sheet = tmp_path / "night.csv"
    sheet.write_text(template_csv())
    call_command(
        "import_scoresheet",
        str(sheet),
        "--event-name",
        "Paper night",
        "--date",
        "2026-11-21",
        "--by",
        host.username,
        stdout=StringIO(),
    )
    waiting = guest_services.event_guest_add(event=shoe.event, name="Hana", by=host)
    guest_services.guest_rename(guest=waiting, name="Hanako", by=host)
    alias = guest_services.guest_alias_add(guest=waiting, name="Hana-chan", by=host)
    guest_services.guest_alias_remove(alias=alias, by=host)
    guest_services.guest_invitation_issue(guest=waiting, by=host)
    guest_services.guest_invitation_revoke(guest=waiting, by=host)
    token = guest_services.guest_invitation_issue(guest=waiting, by=host)
    guest_services.guest_invitation_accept(token=token, username="hanako", password="Long-pw-2026!")
    guest_services.guest_merge(
        guest=waiting, other=guest_services.guest_create(name="Hanako Y"), by=host
    )
    guest_services.guest_credit_limit_set(guest=waiting, credit_limit=Decimal(500), by=host)
    way = payway_services.way_add(name="Bizum", kind="details", by=host)
    payway_services.pay_handle_save(guest=waiting, way=way, handle="+34 600", by=host)
    series = series_services.series_from_night(
        event=shoe.event, by=host, name="Fridays", recurrence="weekly"
    )
    series_services.series_next_night(series=series, by=host, idempotency_key=uuid.uuid4())
    series_services.series_feed_link_issue(series=series, by=host)
    series_services.series_feed_link_revoke(series=series, by=host)
    series_services.series_calendar_link_issue(series=series, guest=seated[1], by=host)
    series_services.series_calendar_link_revoke(series=series, guest=seated[1], by=host)
    people_services.staff_invitation_issue(role="dealer", note="Mika", by=host)
    people_services.staff_invitation_withdraw(invitation=StaffInvitation.objects.get(), by=host)
    token = people_services.staff_invitation_issue(role="dealer", by=host)
    mika = people_services.staff_invitation_accept(
        token=token, username="mika", password="Long-pw-2026!"
    )
    people_services.role_change(user=mika, role="host", by=host)
    people_services.access_revoke(user=mika, by=host)
    client.force_login(host)
    page = client.get(reverse("ledger:audit_log")).content.decode()
    assert "role: Dealer" in page and "invited by: hostess" in page
    rows = re.findall(r"<tr\b.*?</tr>", page, re.S)
    calendar = [row for row in rows if "Calendar link" in row]
    whose = escape(f"guest: {seated[1].name}")
    assert [whose in row for row in calendar] == [True, True, False, False]  # newest first
    for action in AuditEntry.Action:
        assert escape(str(action.label)) in page, action


def test_every_close_and_reopen_is_in_the_audit_log_with_who_and_when(
    client, seated, shoe, record, host, dealer
):
    event = shoe.event
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(shoe, "8 K", "9 K")
    night_services.shoe_close(shoe=shoe, by=host)
    night_services.event_close(event=event, by=host)
    night_services.event_reopen(event=event, by=dealer)  # (reopening is a host's act in the pages)
    night_services.shoe_reopen(shoe=shoe, by=host)
    kinds = AuditEntry.Action
    rows = list(AuditEntry.objects.exclude(action=kinds.HAND_LOGGED).order_by("at", "id"))
    assert [(row.action, row.by, row.summary, row.after) for row in rows] == [
        (kinds.SHOE_CLOSED, host, "Friday night · shoe 1", {"hands": 2}),
        (kinds.EVENT_CLOSED, host, "Friday night (2026-11-20)", {"hands": 2}),
        (kinds.EVENT_REOPENED, dealer, "Friday night (2026-11-20)", {"hands": 2}),
        (kinds.SHOE_REOPENED, host, "Friday night · shoe 1", {"hands": 2}),
    ]
    assert all(row.event_id == event.pk and row.at is not None for row in rows)
    client.force_login(host)
    page = client.get(reverse("ledger:audit_log")).content.decode()
    for label in ("Shoe closed", "Event closed", "Event reopened", "Shoe reopened"):
        assert label in page
    assert "hands: 2" in page


def test_a_refused_close_or_reopen_leaves_no_audit_row(shoe, host):
    for attempt in (
        lambda: night_services.event_close(event=shoe.event, by=host),  # its shoe is open
        lambda: night_services.shoe_reopen(shoe=shoe, by=host),  # open already
        lambda: night_services.event_reopen(event=shoe.event, by=host),  # open already
    ):
        with pytest.raises(ValidationError):
            attempt()
    assert not AuditEntry.objects.exists()


AUDIT_PAGE_QUERIES = 8


def test_a_coup_in_the_audit_log_reads_its_bank_and_stakes_by_kind(
    client, host, event, seated, shoe, django_assert_max_num_queries
):
    make_banked(event, Game.CHEMIN_DE_FER)
    record_coup(
        shoe,
        host,
        coup_entry([(2, "", 60), (3, "", 40)], result="B", banker_seat=1, bank=Decimal(100)),
    )
    record_coup(
        shoe,
        host,
        coup_entry(
            [(2, "banco_solo", 195)],
            result="P",
            banker_seat=1,
            bank=Decimal(195),
            co_banker_seat=None,
        ),
    )
    client.force_login(host)
    url = reverse("ledger:audit_log")
    with django_assert_max_num_queries(AUDIT_PAGE_QUERIES):
        page = client.get(url).content.decode()
    assert "Aki banks 100 · Keeps the bank" in page
    assert "Seat 1 · Aki · Bank 100 → 95" in page  # the house's 5% of the bank's win
    assert "Seat 2 · Ben · Cover 60 → −60" in page
    assert "Aki banks 195 · Loses the bank" in page
    assert "Seat 2 · Ben · Banco solo 195 → 195" in page
    rotating_coups(shoe, host, 30)
    with django_assert_max_num_queries(AUDIT_PAGE_QUERIES):
        assert client.get(url).status_code == 200
