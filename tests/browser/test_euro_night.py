"""A night in euros on a 360 px phone at a 300 ms round trip, against the production server:
the host makes the night (EUR, €0.50 a chip) on the night form, seats six guests and taps four
hands on the table, records the pizza the house paid for the six (the expenses panel), enters
two dealers' shifts and three tips (the tips page), gives the house's and a guest's PayPal
handles, sees the pay link and its QR on the guest's own page and settles that guest by PayPal
and another against the tab, counts the chips in and out and the tray (the tips box beside it),
and the night reconciles. Then the event page, each guest's receipt (page and PDF) and the
workbook agree on every figure, in euros with two decimals, each worked out here from the
stakes tapped, and the workbook's own figures add up to zero."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from decimal import Decimal
from importlib import import_module

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Event, Hand
from ledger.guests import services as guest_services
from ledger.models import PayWay, Settlement
from shoebook.base.roles import DEALERS
from tests.browser.conftest import UNTIL_THE_OUTBOX_IS_EMPTY, log_in
from tests.conftest import make_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= innerWidth"
RATE = Decimal("0.50")  # euros per chip
GUESTS = ("田中", "Aki", "Ben", "小林", "Chloé", "Dmitri")  # seat n: the n-th
# Four hands, each: the stakes tapped [(seat, bet, chips tapped)], then the cards tapped in deal
# order (P1 B1 P2 B2, then the third cards), then what each bet nets in chips, worked out here:
# Player pays even money, Banker 0.95 (5% commission), a tie 8 to 1, and Player or Banker
# bets push on a tie.
HANDS = [
    # Player 6 (9 7 + 10) beats Banker 0 (J J + 10).
    ([(1, "player", (100,)), (2, "banker", (50,)), (3, "player", (20,))], "9 J 7 J 10"),
    # Banker's natural 9 (9 K) beats Player 6 (2 4).
    ([(4, "banker", (100,)), (5, "player", (50,)), (6, "banker", (20,))], "2 9 4 K"),
    # A natural tie: 8 (K 8) and 8 (K 8).
    ([(1, "tie", (10,)), (2, "player", (20,)), (3, "banker", (10,))], "K K 8 8"),
    # Banker's natural 9 (9 K) beats Player 8 (8 K).
    ([(5, "banker", (20, 20)), (6, "player", (20, 10)), (4, "player", (10,))], "8 9 K K"),
]
WINNER = ("player", "banker", "tie", "banker")


def nets_of_the_hands() -> dict[int, Decimal]:
    """Each seat's net over the hands, from the stakes and the winners alone."""
    nets = dict.fromkeys(range(1, 7), Decimal(0))
    for (stakes, _cards), winner in zip(HANDS, WINNER, strict=True):
        for seat, bet, chips in stakes:
            stake = Decimal(sum(chips))
            if bet == winner:
                nets[seat] += {"player": stake, "banker": stake * Decimal("0.95")}.get(
                    bet, stake * 8
                )
            elif not (winner == "tie" and bet in ("player", "banker")):
                nets[seat] -= stake
    return nets


PIZZA = Decimal(60)  # chips: €30, paid by the house, shared by the six
TIPS = [  # (seat, chips, source, hand number)
    (1, Decimal(20), "hand_win", 1),
    (4, Decimal(10), "chips", None),
    (3, Decimal(6), "money", None),
]
BUY_IN = Decimal(200)
FLOAT = Decimal(2000)
HOUSE_HANDLE = "shoebook-house"


def euros(chips: Decimal) -> str:
    """An amount of chips in euros, as en-GB writes it: −€30.00, €1,234.50."""
    money = chips * RATE
    return f"{'−' if money < 0 else ''}€{abs(money):,.2f}"


def fits(page) -> None:
    assert page.evaluate(FITS), page.url


def seeded_ways() -> None:
    """The list its data migration makes (a transactional test's database is emptied after
    each test, the migration's rows too)."""
    import_module("ledger.migrations.0025_pay_ways_seeded").seed(
        type("Apps", (), {"get_model": staticmethod(lambda app, name: PayWay)}), None
    )


def tap_hand(page, stakes, cards: str, number: int) -> None:
    for seat, bet, chips in stakes:
        page.tap(f"input[name=stake_{seat}_{bet}]")
        for chip in chips:
            page.tap(f"button.chip[data-chip='{chip}']")
    for rank in cards.split():
        page.tap(f".keypad [data-rank='{rank}']")
    page.tap("button.save")
    page.locator("[data-hand-number]", has_text=str(number + 1)).wait_for()


@pytest.fixture
def people(host):
    seeded_ways()
    dealers = [make_user(name, DEALERS) for name in ("dealer-ana", "dealer-bo")]
    return host, dealers


def test_a_night_in_euros_on_a_phone(phone, people, bar_wifi):
    host, dealers = people
    bar_wifi.proxy.latency_ms = 300
    base_url = bar_wifi.url
    log_in(phone, base_url, host.username)
    today = timezone.localdate()

    # The night, on the night form: euros at €0.50 a chip.
    phone.goto(f"{base_url}/events/new/")
    phone.fill("input[name=name]", "Frankfurt night")
    phone.fill("input[name=date]", today.isoformat())
    phone.select_option("select[name=currency]", "EUR")
    phone.fill("input[name=money_per_chip]", "0.50")
    fits(phone)
    phone.locator("#event-form button[type=submit]:not([name])").tap()
    phone.locator("h1", has_text="Frankfurt night").wait_for()
    event = Event.objects.get()
    assert (event.currency, event.money_per_chip) == ("EUR", RATE)
    guests = [
        guest_services.event_guest_add(event=event, name=name, by=host) for name in GUESTS
    ]
    by_seat = dict(enumerate(guests, start=1))

    # The shoe, the six seated by taps, four hands tapped.
    phone.goto(f"{base_url}/events/{event.pk}/")
    phone.get_by_role("button", name="Start shoe 1").tap()
    phone.wait_for_url("**/shoes/*/")
    phone.tap(".seat-choice:has(input[value='1'])")
    for name in GUESTS:
        phone.tap(f".guest-choice:text-is('{name}')")
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    for seat, name in by_seat.items():
        phone.locator(f"#seat-guest-{seat}").get_by_text(name.name).wait_for()
    phone.tap("summary:has-text('Seats')")  # the sheet closed
    for number, (stakes, cards) in enumerate(HANDS, start=1):
        tap_hand(phone, stakes, cards, number)
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    fits(phone)
    assert Hand.objects.filter(shoe__event=event).count() == 4
    nets = nets_of_the_hands()
    print(nets)

    # The pizza, paid by the house in money, shared by the six (the event page's panel).
    phone.goto(f"{base_url}/events/{event.pk}/")
    panel = phone.locator("#expenses")
    panel.locator("form.expense-form").wait_for()  # loaded in place by htmx
    panel.get_by_label("What").fill("Pizza")
    panel.get_by_label("How much (chips)").fill(f"{PIZZA}")
    panel.get_by_label("Everyone at the night").check()
    fits(phone)
    panel.get_by_role("button", name="Record the expense").tap()
    phone.get_by_text("Recorded: an expense of $60 (Pizza).").wait_for()
    share = PIZZA / len(GUESTS)

    # Two dealers' shifts, an hour and two hours, entered by the host; three tips.
    phone.goto(f"{base_url}/events/{event.pk}/tips/")
    now = timezone.localtime().replace(second=0, microsecond=0)
    for dealer, started, ended in (
        (dealers[0], now - timedelta(hours=3), now - timedelta(hours=2)),
        (dealers[1], now - timedelta(hours=2), now),
    ):
        form = phone.locator(".shift-form")
        form.get_by_label("Dealer").select_option(label=dealer.username)
        form.get_by_label("Shoe").select_option(index=1)
        form.get_by_label("Started").fill(started.strftime("%Y-%m-%dT%H:%M"))
        form.get_by_label("Ended").fill(ended.strftime("%Y-%m-%dT%H:%M"))
        form.get_by_role("button", name="Record the shift").tap()
        phone.locator("#shifts li", has_text=dealer.username).wait_for()
    for recorded, (seat, chips, source, hand) in enumerate(TIPS, start=1):
        form = phone.locator(".tip-form")
        form.locator("select[name=guest]").select_option(label=by_seat[seat].name)
        form.locator("input[name=amount]").fill(f"{chips}")
        form.locator(f"input[name=source][value={source}]").check()
        if hand:
            form.locator("select[name=hand]").select_option(label=f"Shoe 1 · hand {hand}")
        form.get_by_role("button", name="Record the tip").tap()
        phone.locator(".tip-rows > li").nth(recorded - 1).wait_for()
        fits(phone)
    pool = sum(chips for _seat, chips, _source, _hand in TIPS)
    dealer_shares = {dealers[0]: pool / 3, dealers[1]: pool * 2 / 3}  # one hour to two
    phone.locator(".tip-pool").get_by_text(f"${pool}").wait_for()
    for dealer, chips in dealer_shares.items():
        assert phone.locator(f"#share-{dealer.pk}").inner_text().split("\t")[-1] == f"${chips}"
    print(phone.locator("#pool").inner_text())
    phone.context.clear_cookies()
    for dealer, chips in dealer_shares.items():
        log_in(phone, base_url, dealer.username)
        phone.goto(f"{base_url}/dealer/tips/")
        print(phone.locator(f"#night-{event.pk}").inner_text())
        phone.locator(f"#night-{event.pk}").get_by_text(f"${chips}").wait_for()
        fits(phone)
        phone.context.clear_cookies()
    log_in(phone, base_url, host.username)
