"""The count on a 360 px phone at a 300 ms round trip: the host enters buy-ins for seven guests,
a shoe is played (one bet, Ben's, never reached the log), the host counts seven stacks by
denomination, sees the one difference, finds the hand from Ben's bets, corrects it, counts the
tray and the night reconciles to zero. The taps are counted."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

import pytest
from django.urls import reverse

from games.cards import parse_cards
from games.entry import BetEntry, HandEntry
from games.payouts import BetType, RuleSet, resolve_bet
from games.rules import Hand as DealtHand
from ledger.count.selectors import night_count
from ledger.hands import services as hand_services
from ledger.models import Guest
from tests.browser.conftest import NAMES, log_in, slow_network

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= innerWidth"
# Each amount of the tray's figures on one line (a long label once squeezed them a glyph a line).
AMOUNTS_ON_ONE_LINE = """() => Array.from(document.querySelectorAll("#tray .figures dd"))
  .filter((dd) => { const text = document.createRange(); text.selectNodeContents(dd);
    return new Set(Array.from(text.getClientRects(), (box) => Math.round(box.top))).size > 1; })
  .map((dd) => dd.textContent)"""
# Each chip's label on the line of its own box (a label beside the box of the next chip would
# have a host type 3 × $25 for 3 × $100).
LABELS_BESIDE_THEIR_BOXES = """[...document.querySelectorAll('.chip-box')].every(label => {
    const text = label.querySelector('span').getBoundingClientRect();
    const box = label.querySelector('input').getBoundingClientRect();
    const middle = text.top + text.height / 2;
    return middle > box.top && middle < box.bottom && text.right <= box.left + 1;
})"""
CHIPS = (Decimal(100), Decimal(25), Decimal(5), Decimal(1))
BUY_IN = Decimal(500)
# Five hands: (player's cards, banker's cards, [(seat, bet, stake)]). Ben (seat 3) also put 40 on
# Player in hand 4, which Player won, and the dealer never logged it.
HANDS = [
    ("9 7", "J J 10", [(1, "player", 100), (2, "banker", 40), (3, "banker", 60), (4, "tie", 20)]),
    ("K 8", "2 3", [(5, "player", 80), (6, "banker", 100), (7, "player", 20)]),
    ("4 4", "5 3", [(1, "banker", 40), (2, "player", 60), (3, "player", 20)]),
    ("2 7", "3 3", [(4, "player", 60), (5, "banker", 40), (6, "player", 100)]),
    ("6 2", "Q K", [(7, "banker", 60), (1, "player", 40), (2, "tie", 20)]),
]
UNLOGGED = (4, 3, "player", 40)  # hand, seat, bet, stake


def chips_of(amount: Decimal) -> dict[Decimal, int]:
    numbers: dict[Decimal, int] = {}
    for chip in CHIPS:
        numbers[chip], amount = divmod(amount, chip)
    assert amount == 0
    return {chip: int(count) for chip, count in numbers.items() if count}


def box(value: Decimal) -> str:
    return "n_" + f"{value.normalize():f}".replace(".", "_")


class Taps:
    def __init__(self, page):
        self.page, self.count = page, 0

    def tap(self, locator):
        locator.tap()
        self.count += 1

    def type(self, locator, text: str):
        self.tap(locator)
        locator.fill(text)


def test_a_night_counted_on_a_phone_finds_the_bet_the_log_missed(phone, host, full_table):
    base_url, shoe = full_table
    event = shoe.event
    seated = {seat: Guest.objects.get(name=name) for seat, name in enumerate(NAMES[:7], start=1)}
    log_in(phone, base_url, host.username)
    slow_network(phone, 300)
    taps = Taps(phone)

    # The tray's float, set on the count page.
    phone.goto(base_url + reverse("ledger:count_page", args=[event.pk]))
    taps.tap(phone.locator("#count-setup summary"))
    taps.type(phone.locator("[name=opening_float]"), "2,000")
    taps.tap(phone.locator("#count-setup").get_by_role("button", name="Save"))
    phone.get_by_text("The count's settings are saved.").wait_for()

    # Buy-ins: five $100 chips each, on a marker.
    before_buy_ins = taps.count
    for guest in seated.values():
        phone.goto(base_url + reverse("ledger:count_guest", args=[event.pk, guest.pk]))
        take = phone.locator("#take form")
        assert phone.evaluate(LABELS_BESIDE_THEIR_BOXES)
        taps.tap(take.locator("label:has([name=source][value=marker])"))
        taps.type(take.locator("[name=n_100]"), "5")
        taps.tap(take.get_by_role("button"))
        phone.get_by_text(f"{guest.name}: a buy-in of $500").wait_for()
        assert phone.evaluate(FITS)
    buy_in_taps = taps.count - before_buy_ins

    # The shoe is played; every bet moves chips, but one never reaches the log.
    held: dict[int, Decimal] = defaultdict(lambda: BUY_IN)
    for number, (player, banker, bets) in enumerate(HANDS, start=1):
        outcome = DealtHand.from_cards(parse_cards(player), parse_cards(banker)).outcome()
        played = list(bets) + ([UNLOGGED[1:]] if number == UNLOGGED[0] else [])
        for seat, bet, stake in played:
            held[seat] += resolve_bet(RuleSet(), BetType(bet), Decimal(stake), outcome).net
        hand_services.record_hand(
            shoe=shoe,
            number=number,
            entry=HandEntry(
                player_cards=player,
                banker_cards=banker,
                bets=tuple(BetEntry(seat, bet, Decimal(stake)) for seat, bet, stake in bets),
            ),
            by=host,
        )

    # Seven stacks counted by denomination, round the table: each save opens the next stack.
    by_name = sorted(seated.items(), key=lambda item: item[1].name.casefold())
    phone.goto(base_url + reverse("ledger:count_guest", args=[event.pk, by_name[0][1].pk]))
    for seat, guest in by_name:
        phone.wait_for_url(f"**{reverse('ledger:count_guest', args=[event.pk, guest.pk])}")
        count = phone.locator("#count form")
        for chip, number in chips_of(held[seat]).items():
            taps.type(count.locator(f"[name={box(chip)}]"), str(number))
        taps.tap(count.get_by_role("button"))
        counted = f"${held[seat]:,f}".removesuffix(".00")
        phone.get_by_text(f"{guest.name}: {counted} counted").wait_for()
    count_taps = taps.count - before_buy_ins - buy_in_taps

    # One difference, at Ben's: the 40 he won on Player.
    phone.goto(base_url + reverse("ledger:count_page", args=[event.pk]))
    assert phone.evaluate(FITS)
    assert phone.evaluate(AMOUNTS_ON_ONE_LINE) == []
    status = phone.locator(".count-status").inner_text()
    assert "1 difference" in status
    ben = seated[3]
    taps.tap(phone.locator(f"#guest-{ben.pk}").get_by_role("link", name="+$40"))
    phone.locator("#explain").wait_for()
    taps.tap(phone.locator("#explain").get_by_role("link", name="1·4"))
    correction = phone.locator("form.correction")
    correction.wait_for()
    taps.type(correction.locator("[name=stake_3_player]"), "40")
    taps.type(correction.locator("[name=reason]"), "Ben's 40 on Player, found by the count")
    taps.tap(correction.get_by_role("button", name="Save correction"))
    phone.get_by_text("Hand 4 corrected.").wait_for()

    # The tray, then the night reconciles.
    phone.goto(base_url + reverse("ledger:count_page", args=[event.pk]))
    tray = night_count(event).reconciliation.tray
    taps.tap(phone.locator("#tray summary"))
    form = phone.locator("#tray form")
    for chip, number in chips_of(tray.expected).items():
        taps.type(form.locator(f"[name={box(chip)}]"), str(number))
    taps.tap(form.get_by_role("button"))
    phone.get_by_text("The night reconciles").wait_for()
    assert night_count(event).reconciliation.reconciled
    assert phone.evaluate(FITS)
    print(
        f"\ntaps: {buy_in_taps} for 7 buy-ins ({buy_in_taps / 7:.1f} each), {count_taps} for 7 "
        f"counts ({count_taps / 7:.1f} each), {taps.count} in all"
    )
