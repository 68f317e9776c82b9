"""A night that rounds to its smallest chip: chosen on the night's form before its first hand,
settled so at the table, in a correction and an import, checked so by ``check_ledger``, stated
and shown alike on the event page, the receipt and the workbook; the nights recorded before the
rule keep their figures to the cent."""

from __future__ import annotations

import io
from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from games.models import Event
from games.payouts import Rounding
from games.services import MSG_FROZEN_AFTER_FIRST_HAND
from ledger.guests.receipts import guest_receipt
from ledger.hands import services as hand_services
from ledger.integrity import check_ledger, ledger_problems
from ledger.integrity.hands import MSG_BET_COMMISSION
from ledger.models import AuditEntry, Bet
from ledger.money.amounts import money_sum
from ledger.nights import services as night_services
from ledger.workbook.exports import RULES_COLUMNS, workbook_bytes
from ledger.workbook.imports.night_workbook import (
    check_night_workbook,
    night_workbook_import,
    read_night_workbook,
)
from ledger.workbook.pdf import receipt_pdf
from tests.conftest import bet, entry

D = Decimal
pytestmark = pytest.mark.django_db
HALF_UP_RULE = "payouts and commission rounded to the smallest chip (0.50), half a chip up"


@pytest.fixture
def rounded(make_event):
    return make_event(name="Chips of 50 cents", rounding="half_up", smallest_chip=D("0.50"))


def banker_wins_10_20(record, shoe):
    # 5% of $10.20 is $0.51: not owed at a table whose smallest chip is $0.50.
    return record(shoe, "9 7", "J J 8", [bet(1, "banker", "10.20"), bet(2, "player", "10.20")])


def test_a_rounded_nights_hand_is_settled_in_chips_and_its_books_are_clean(rounded, host, record):
    shoe = _seated_shoe(rounded, host)
    hand = banker_wins_10_20(record, shoe)
    figures = {b.bet_type: (b.gross, b.commission, b.net) for b in hand.bets.all()}
    assert figures == {
        "banker": (D("10.00"), D("0.50"), D("9.50")),
        "player": (D("-10.20"), D(0), D("-10.20")),  # a lost stake, as it was on the table
    }
    assert check_ledger(rounded).problems == []
    # Read to the cent, the same rows are wrong: check_ledger reads the night's own rounding.
    Event.objects.filter(pk=rounded.pk).update(rounding=Rounding.EXACT.value)
    found = check_ledger(rounded).problems
    assert {problem.message for problem in found} >= {MSG_BET_COMMISSION}


def test_a_correction_settles_again_in_the_nights_rounding(rounded, host, record):
    shoe = _seated_shoe(rounded, host)
    hand = banker_wins_10_20(record, shoe)
    hand_services.hand_correct(
        hand=hand,
        entry=entry("9 7", "J J 8", [bet(1, "banker", "15")]),
        reason="the stake was 15",
        by=host,
        version=hand.version,
    )
    (corrected,) = Bet.objects.filter(hand=hand)
    # $0.75 is a chip and a half: half up, two chips.
    assert (corrected.gross, corrected.commission, corrected.net) == (D(15), D(1), D(14))
    assert check_ledger(rounded).problems == []


def test_the_event_page_the_receipt_and_the_workbook_show_the_rounded_figures_alike(
    client, rounded, host, record
):
    shoe = _seated_shoe(rounded, host)
    banker_wins_10_20(record, shoe)
    client.force_login(host)
    page = client.get(reverse("ledger:event_detail", args=[rounded.pk])).content.decode()
    assert HALF_UP_RULE in page
    assert "$0.50" in page and "$0.51" not in page  # the night's commission
    aki = Bet.objects.get(seat=1).guest
    receipt_url = reverse("ledger:guest_receipt", args=[aki.pk, rounded.pk])
    receipt = client.get(receipt_url).content.decode()
    assert "Payouts and commission rounded to the smallest chip (0.50)" in receipt
    assert "<td>$10</td><td>$0.50</td><td>$9.50</td>" in receipt
    pdf = client.get(receipt_url + "receipt.pdf")
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"

    sheets = load_workbook(io.BytesIO(workbook_bytes([rounded])), data_only=True)
    row = next(sheets["Rules"].iter_rows(min_row=2, values_only=True))
    rules = dict(zip(RULES_COLUMNS, row, strict=True))
    assert (rules["rounding"], D(str(rules["smallest_chip"]))) == ("half_up", D("0.50"))
    summary = [
        row for row in sheets["Summary"].iter_rows(values_only=True) if row[0] == rounded.name
    ]
    assert any(HALF_UP_RULE in str(cell) for cell in summary[0])
    # The Hands sheet: the event's name, then HANDS_COLUMNS (… bet, stake, gross, commission,
    # net), the banker's bet among them as it was settled.
    hands = [row[-5:] for row in sheets["Hands"].iter_rows(min_row=2, values_only=True)]
    figures = [[D(str(cell)) for cell in row[1:]] for row in hands if row[0] == "banker"]
    assert figures == [[D("10.2"), D(10), D("0.5"), D("9.5")]]


def test_the_receipts_pdf_states_the_rule_beside_the_rounded_figures(rounded, host, record):
    shoe = _seated_shoe(rounded, host)
    banker_wins_10_20(record, shoe)
    receipt = guest_receipt(Bet.objects.get(seat=1).guest, rounded)
    words = " ".join(
        page.extract_text() for page in PdfReader(io.BytesIO(receipt_pdf(receipt))).pages
    )
    assert rounded.rounding_rule in " ".join(words.split())
    assert "$0.50" in words and "$9.50" in words


def test_the_rounding_cannot_change_once_a_hand_is_logged(client, rounded, host, record):
    shoe = _seated_shoe(rounded, host)
    banker_wins_10_20(record, shoe)
    with pytest.raises(ValidationError) as raised:
        night_services.event_edit(event=rounded, by=host, rounding=Rounding.HOUSE.value)
    assert str(MSG_FROZEN_AFTER_FIRST_HAND.format(field="Rounding")) in str(raised.value)
    with pytest.raises(ValidationError) as raised:
        night_services.event_edit(event=rounded, by=host, smallest_chip=D(1))
    assert str(MSG_FROZEN_AFTER_FIRST_HAND.format(field="Smallest chip")) in str(raised.value)
    # A page opened before the first hand still sends the boxes: refused in words, not dropped.
    client.force_login(host)
    edit_url = reverse("ledger:event_edit", args=[rounded.pk])
    form = _form_fields(rounded) | {"rounding": "house", "name": "Renamed"}
    response = client.post(edit_url, form)
    assert response.status_code == 200
    assert str(MSG_FROZEN_AFTER_FIRST_HAND.format(field="Rounding")) in response.content.decode()
    rounded.refresh_from_db()
    assert (rounded.rounding, rounded.smallest_chip, rounded.name) == (
        "half_up",
        D("0.50"),
        "Chips of 50 cents",
    )
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.EVENT_EDITED).exists()


def test_the_host_chooses_the_rounding_on_the_night_form_before_its_first_hand(client, host, event):
    client.force_login(host)
    page = client.get(reverse("ledger:event_edit", args=[event.pk])).content.decode()
    assert 'name="rounding"' in page and 'name="smallest_chip"' in page
    form = _form_fields(event) | {"rounding": "house", "smallest_chip": "0.50"}
    response = client.post(reverse("ledger:event_edit", args=[event.pk]), form)
    assert response.status_code == 302, response.content.decode()
    event.refresh_from_db()
    assert (event.rounding, event.smallest_chip) == ("house", D("0.50"))
    audit = AuditEntry.objects.get(action=AuditEntry.Action.EVENT_EDITED)
    assert audit.after["rounding"] == "house" and audit.before["rounding"] == "exact"


def test_a_smallest_chip_under_a_cent_or_of_nothing_is_refused_under_its_box(client, host, event):
    client.force_login(host)
    for typed in ("0", "0.005"):
        form = _form_fields(event) | {"rounding": "half_up", "smallest_chip": typed}
        response = client.post(reverse("ledger:event_edit", args=[event.pk]), form)
        assert response.status_code == 200
        assert 'id="id_smallest_chip"' in response.content.decode()
        assert "errorlist" in response.content.decode()
    event.refresh_from_db()
    assert (event.rounding, event.smallest_chip) == ("exact", D("0.01"))


def test_the_rounding_comes_back_from_the_nights_workbook(rounded, host, record):
    shoe = _seated_shoe(rounded, host)
    banker_wins_10_20(record, shoe)
    content = workbook_bytes([rounded])
    Event.objects.filter(pk=rounded.pk).update(name="Kept aside")
    nights = read_night_workbook("night.xlsx", content)
    assert nights is not None
    (again,) = night_workbook_import(nights=check_night_workbook(nights), by=host).events
    assert (again.rounding, again.smallest_chip) == ("half_up", D("0.50"))
    banker = Bet.objects.get(hand__shoe__event=again, bet_type="banker")
    assert (banker.gross, banker.commission, banker.net) == (D(10), D("0.50"), D("9.50"))
    assert ledger_problems() == []


def test_the_rules_page_states_the_rounding_in_english_and_japanese(client):
    page = client.get(reverse("games:rules_and_odds")).content.decode()
    assert 'id="rounding"' in page and "Rounding to the smallest chip" in page
    with translation.override("ja"):
        page = client.get(
            reverse("games:rules_and_odds"), HTTP_ACCEPT_LANGUAGE="ja"
        ).content.decode()
    assert "最小チップ" in page


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_the_reference_night_keeps_its_figures_through_the_migration():
    """Recorded before the rule existed (the migration undone, then applied again): the night
    reads "exact" and keeps its $386 commission and the owner's −$654 (−¥65,400)."""
    call_command("load_demo", stdout=StringIO())
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0015_event_bank_rotation")])
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    event = Event.objects.get()
    assert (event.rounding, event.smallest_chip) == ("exact", D("0.01"))
    totals = Bet.objects.aggregate(commission=money_sum("commission"), net=money_sum("net"))
    assert totals == {"commission": D("386.00"), "net": D("654.00")}
    assert -totals["net"] * event.money_per_chip == D(-65400)
    assert check_ledger(event).problems == []
    # Read by a rounding it was not played under ($1 chips), the same rows would be wrong.
    Event.objects.filter(pk=event.pk).update(rounding="half_up", smallest_chip=D(1))
    assert any(p.message == MSG_BET_COMMISSION for p in check_ledger(event).problems)


# --- helpers ---------------------------------------------------------------------------------


def _seated_shoe(event, host):
    from games import services as game_services
    from ledger.guests import services as guest_services

    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in ((1, "Aki"), (2, "Ben")):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return shoe


def _form_fields(event) -> dict[str, object]:
    return {
        "name": event.name,
        "date": f"{event.date:%Y-%m-%d}",
        "venue": "",
        "format": event.format,
        "game": "punto_banco",
        "decks": "8",
        "no_commission": "none",
        "commission": "",
        "tie_pays": "8",
        "pair_pays": "11",
        "side_bets": ["pairs"],
        "currency_symbol": "$",
        "money_per_chip": "100",
        "table_min": "10",
        "table_max": "1000",
        "hands_per_shoe": "40",
    }


@pytest.mark.django_db(transaction=True)
def test_a_backup_restores_a_rounded_night_read_by_its_own_rounding(tmp_path, make_event, host):
    import json

    from django.core.management.base import CommandError

    rounded = make_event(name="Chips of 50 cents", rounding="half_up", smallest_chip=D("0.50"))
    shoe = _seated_shoe(rounded, host)
    hand_services.record_hand(
        shoe=shoe,
        number=1,
        entry=entry("9 7", "J J 8", [bet(1, "banker", "10.20")]),
        by=host,
        idempotency_key=None,
    )
    backup = tmp_path / "b.json"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), "--with-users", stdout=StringIO())
    restored = Event.objects.get()
    assert (restored.rounding, restored.smallest_chip) == ("half_up", D("0.50"))
    assert Bet.objects.get().commission == D("0.50")
    assert ledger_problems() == []

    # The same rows said to be counted to the cent (a backup that does not say its rounding
    # reads so) do not add up: the restore refuses them rather than keep a night mispriced.
    rows = json.loads(backup.read_text())
    night = next(row for row in rows if row["model"] == "games.event")
    del night["fields"]["rounding"], night["fields"]["smallest_chip"]
    backup.write_text(json.dumps(rows))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(backup), "--unsigned", "--with-users", stdout=StringIO())
    assert "The file's books do not add up" in str(refused.value)
    assert not Event.objects.exists()
