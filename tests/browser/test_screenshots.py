"""The pages the docs picture, on a 360 × 740 phone: a Chemin de fer table a few coups in (the
note over the coup form naming whose right the bank passed to) and a hand's correction form with
every bet column on. Each must fit the phone; its picture is written to ``SHOEBOOK_SCREENSHOTS``
(``docs/screenshots`` to refresh the docs' pictures) or the test's own directory.

    SHOEBOOK_SCREENSHOTS=docs/screenshots .venv/bin/python -m pytest -m browser \\
        tests/browser/test_screenshots.py
"""

from __future__ import annotations

import os
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from django.urls import reverse

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.payouts import BetType, RuleSet, SideBet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from tests.browser.conftest import NAMES, log_in, open_table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TOO_WIDE = """[...document.querySelectorAll('main *')].filter(element => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.right > innerWidth + 0.5 && !element.closest('.bets-scroll');
}).map(element => element.tagName + '.' + element.className)"""


def picture(page, tmp_path: Path, name: str) -> Path:
    folder = Path(os.environ.get("SHOEBOOK_SCREENSHOTS") or tmp_path)
    path = folder / name
    page.screenshot(path=str(path), full_page=True)
    return path


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_chemin_de_fer_table_a_few_coups_in(phone, host, live_server, tmp_path):
    event = game_services.event_create(
        name="Chemin de fer night", date=date(2026, 11, 27), rules=RuleSet(), by=host,
        game="chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"), table_min=Decimal(100),
    )  # fmt: skip
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES[:6], start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    coups = [  # (banker, bank, covers, result, move, suite taker)
        (1, "200", [(2, "100"), (3, "100")], "banker", "", None),
        (1, "390", [(2, "390")], "banker", "suite", 4),  # a suite seat 4 takes at 760.50
        (4, "760.50", [(5, "400"), (6, "360.50")], "player", "", None),  # back right of seat 1
    ]
    for number, (banker, bank, covers, result, move, taker) in enumerate(coups, start=1):
        hand_services.record_hand(
            shoe=shoe,
            number=number,
            entry=HandEntry(
                result=result,
                bets=tuple(BetEntry(seat, "ordinary", stake) for seat, stake in covers),
                coup=CoupTerms(banker_seat=banker, bank=bank, move=move, suite_seat=taker),
            ),
            by=host,
        )
    open_table(phone, live_server.url, shoe, host)
    note = phone.locator("#coup-form").get_by_text("to the right of seat 1")
    note.wait_for()
    assert "The bank of seat 4 lost the last coup: it passes to seat 2" in note.inner_text()
    assert phone.locator("#coup-form [name=banker_seat]").input_value() == "2"
    assert fits(phone) and phone.evaluate(TOO_WIDE) == []
    assert picture(phone, tmp_path, "chemin-table-360x740.png").stat().st_size > 10_000


def test_a_correction_form_with_every_bet_column(phone, host, live_server, tmp_path, seated_night):
    _shoe, hand = seated_night
    log_in(phone, live_server.url, host.username)
    phone.goto(live_server.url + reverse("ledger:hand_detail", args=[hand.pk]))
    form = phone.locator("form.correction")
    form.wait_for()
    assert form.locator("thead th").count() == 1 + len(BetType)  # the seat and nine bets
    assert fits(phone) and phone.evaluate(TOO_WIDE) == []
    stake = form.locator("input.stake").first
    box = stake.bounding_box()
    assert box is not None and box["width"] >= 44  # a stake box shows "1,000", not "1("
    assert picture(phone, tmp_path, "correction-form-360x740.png").stat().st_size > 10_000


@pytest.fixture
def seated_night(host):
    widest = RuleSet(tie_pays=9, pair_pays=12, side_bets=frozenset(SideBet))
    event = game_services.event_create(
        name="Year-end party", date=date(2026, 11, 20), rules=widest, by=host
    )
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES[:7], start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    bets = tuple(
        BetEntry(seat, bet_type, Decimal(100 * seat))
        for seat, bet_type in zip(range(1, 8), BetType, strict=False)
    )
    hand = hand_services.record_hand(
        shoe=shoe,
        number=1,
        entry=HandEntry(player_cards="9 7", banker_cards="J J 10", bets=bets),
        by=host,
    ).hand
    return shoe, hand


def test_a_table_with_every_bet_column_keeps_its_headings_apart(
    phone, host, live_server, seated_night
):
    shoe, _hand = seated_night
    open_table(phone, live_server.url, shoe, host)
    headings = phone.locator("table.bets thead th")
    headings.first.wait_for()
    overflowing = phone.evaluate(
        """[...document.querySelectorAll('table.bets thead th')]
            .filter(th => th.scrollWidth > th.clientWidth + 0.5).map(th => th.textContent)"""
    )
    assert overflowing == []
    assert fits(phone)
