"""Coups tapped as fast as the table goes: at a 300 ms round trip, straight on to the next coup
without waiting for the last save's answer, every coup is stored as tapped — its banker, its
bank, its covers, its result — the bank's boxes the host left alone filled as the coup before
left the bank; covers typed while a save is on its way stay; a refused coup stays on the phone.

All against the production server (gunicorn, DEBUG off, WhiteNoise) on a 360 px phone, through a
loopback proxy that adds the round trip (tests/browser/network.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.models import Hand
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Bet, Coup
from tests.browser.conftest import (
    NAMES,
    UNTIL_THE_OUTBOX_IS_EMPTY,
    UNTIL_THE_PAGE_IS_KEPT,
    new_page,
    open_table,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SEATS = 5


@dataclass(frozen=True)
class Tapped:
    """One coup as the host taps it: the bank's boxes only where the host touches them."""

    covers: tuple[tuple[int, str], ...]
    result: str
    second_result: str = ""
    banker: int | None = None
    bank: str = ""
    kinds: dict[int, str] = field(default_factory=dict)


def banked_night(host, game: str, **terms: object):
    event = game_services.event_create(
        name="Banked night", date=date(2026, 11, 28), rules=RuleSet(), by=host, game=game, **terms
    )
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES[:SEATS], start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return shoe


@pytest.fixture
def slow(production_server, network_proxy) -> str:
    """The production server behind a 300 ms round trip."""
    return network_proxy(production_server.url, latency_ms=300).url


def right_of(seat: int) -> int:
    """Seat n + 1 sits at the right of seat n, round the table (docs/rules.md)."""
    return seat % SEATS + 1


# Chemin de fer: the bank wins (B) or loses to the pontes (P). After a win the bank is kept with
# all it holds (what was covered, and won): the host leaves its boxes alone. After a loss it
# passes to the right and its new holder sets it: the host types its amount and leaves the
# banker's box alone.
CHEMIN_RESULTS = "BBPBPPBBBPBPBBPBBBPB"


def chemin_coups() -> list[tuple[Tapped, int]]:
    """Twenty coups and who banks each (by the rules, worked out here)."""
    coups, banker, lost = [], 1, True
    for number, result in enumerate(CHEMIN_RESULTS, start=1):
        # At most 75 a coup: a bank kept holds what was covered and won (97.50 after 50 at 5%).
        covers = [(right_of(banker), "50" if number % 2 else "40")]
        if number % 3 == 0:
            covers.append((right_of(right_of(banker)), "25"))
        winner = "banker" if result == "B" else "player"
        coups.append((Tapped(tuple(covers), winner, bank="200" if lost else ""), banker))
        lost = result == "P"
        if lost:
            banker = right_of(banker)
    return coups


def tap_coup(page, coup: Tapped) -> None:
    form = page.locator("#coup-form")
    if coup.banker is not None:
        form.locator("[name=banker_seat]").select_option(str(coup.banker))
    if coup.bank:
        form.locator("[name=bank]").fill(coup.bank)
    for seat, stake in coup.covers:
        form.locator(f"[name=stake_{seat}]").fill(stake)
        if seat in coup.kinds:
            form.locator(f"[name=kind_{seat}]").select_option(coup.kinds[seat])
    form.locator(f"label:has([name=result][value={coup.result}])").tap()
    if coup.second_result:
        form.locator(f"label:has([name=second_result][value={coup.second_result}])").tap()
    form.locator("button.save").tap()


def all_sent(page) -> None:
    page.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    state = page.evaluate("() => window.shoebookTableState()")
    assert state["held"] == [], state["held"]


def stored_covers(hand: Hand) -> list[tuple[int, Decimal]]:
    bets = Bet.objects.filter(hand=hand).exclude(bet_type="bank").order_by("seat")
    return [(bet.seat, bet.stake) for bet in bets]


def test_twenty_chemin_coups_at_300_ms_with_no_pause_are_stored_as_tapped(phone, host, slow):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    coups = chemin_coups()
    for tapped, _banker in coups:
        tap_coup(phone, tapped)  # straight on: no wait for the answer
    expect(phone.locator("[data-hand-number]")).to_have_text("21")
    all_sent(phone)
    stored = list(
        Coup.objects.filter(hand__shoe=shoe).select_related("hand").order_by("hand__number")
    )
    assert [coup.hand.number for coup in stored] == list(range(1, 21))
    previous = None
    for coup, (tapped, banker) in zip(stored, coups, strict=True):
        assert coup.banker_seat == banker, coup.hand.number
        # A bank set by its holder: as typed; a bank kept: all it held after the coup before.
        expected = Decimal(tapped.bank) if tapped.bank else previous.bank_after
        assert coup.bank == expected, coup.hand.number
        covers = sorted((seat, Decimal(stake)) for seat, stake in tapped.covers)
        assert stored_covers(coup.hand) == covers, coup.hand.number
        assert coup.hand.winner == tapped.result, coup.hand.number
        previous = coup
    assert Hand.objects.filter(shoe=shoe).count() == 20


def banque_coups() -> list[Tapped]:
    """Ten Baccara banque coups: seat 3 banks 1000 (the host says so on the first: the bank is
    auctioned), then keeps it; seats 1–2 play tableau 1, seats 4–5 tableau 2."""
    results = ["player", "banker"]
    coups = []
    for number in range(1, 11):
        low, high = (1, 4) if number % 2 else (2, 5)
        coups.append(
            Tapped(
                ((low, "50"), (high, "40" if number % 3 else "30")),
                results[number % 2],
                results[(number // 2) % 2],
                banker=3 if number == 1 else None,
                bank="1000" if number == 1 else "",
            )
        )
    return coups


def test_ten_baccara_banque_coups_at_300_ms_with_no_pause_are_stored_as_tapped(phone, host, slow):
    shoe = banked_night(host, "baccara_banque", taxe="capital")
    open_table(phone, slow, shoe, host)
    coups = banque_coups()
    for tapped in coups:
        tap_coup(phone, tapped)
    expect(phone.locator("[data-hand-number]")).to_have_text("11")
    all_sent(phone)
    stored = list(
        Coup.objects.filter(hand__shoe=shoe).select_related("hand").order_by("hand__number")
    )
    assert [coup.hand.number for coup in stored] == list(range(1, 11))
    previous = None
    for coup, tapped in zip(stored, coups, strict=True):
        assert coup.banker_seat == 3
        assert coup.bank == (Decimal(tapped.bank) if tapped.bank else previous.bank_after)
        assert stored_covers(coup.hand) == [(seat, Decimal(stake)) for seat, stake in tapped.covers]
        kinds = dict(Bet.objects.filter(hand=coup.hand).values_list("seat", "bet_type"))
        assert [kinds[seat] for seat, _stake in tapped.covers] == ["tableau_1", "tableau_2"]
        assert (coup.hand.winner, coup.second_winner) == (tapped.result, tapped.second_result)
        previous = coup


def test_covers_typed_while_the_last_coup_is_on_its_way_are_kept(phone, host, slow):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    tap_coup(phone, Tapped(((2, "100"),), "banker", bank="200"))
    form = phone.locator("#coup-form")
    form.locator("[name=stake_3]").fill("60")
    form.locator("[name=stake_4]").fill("40")
    # Typed while coup 1's answer is still on its way (the page's own state says so).
    assert phone.evaluate("() => window.shoebookTableState().flight !== null")
    phone.get_by_text("Coup 1 saved").wait_for()
    expect(form.locator("[name=stake_3]")).to_have_value("60")
    expect(form.locator("[name=stake_4]")).to_have_value("40")
    # The bank the host left alone is now the one coup 1 left: kept, with all it holds.
    first = Coup.objects.get(hand__number=1)
    expect(form.locator("[name=bank]")).to_have_value(f"{first.bank_after.normalize():f}")
    expect(form.locator("[name=banker_seat]")).to_have_value("1")
    form.locator("label:has([name=result][value=player])").tap()
    form.locator("button.save").tap()
    all_sent(phone)
    second = Coup.objects.get(hand__number=2)
    assert (second.banker_seat, second.bank) == (1, first.bank_after)
    assert stored_covers(second.hand) == [(3, Decimal(60)), (4, Decimal(40))]


def test_a_refused_coup_stays_on_the_phone_beside_the_next_one(phone, host, slow):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    # More than the bank: refused by the server once sent.
    tap_coup(phone, Tapped(((2, "150"),), "banker", bank="100"))
    form = phone.locator("#coup-form")
    form.locator("[name=stake_2]").fill("80")
    assert phone.evaluate("() => window.shoebookTableState().flight !== null")  # begun before
    held = phone.locator("[data-held]")
    expect(held).to_contain_text("Coup 1 from this phone was refused")
    expect(held).to_contain_text("more than the 100 of the bank")
    expect(form.locator("[name=stake_2]")).to_have_value("80")  # the entry is the host's
    assert not Coup.objects.exists()
    # Fixed in the entry: the refused coup comes back, the coup begun waits, parked.
    held.get_by_role("button", name="Fix in the entry").tap()
    expect(form.locator("[name=stake_2]")).to_have_value("150")
    form.locator("[name=stake_2]").fill("100")
    form.locator("button.save").tap()
    expect(form.locator("[name=stake_2]")).to_have_value("80")  # the parked coup is back
    form.locator("label:has([name=result][value=player])").tap()
    form.locator("button.save").tap()
    all_sent(phone)
    coups = list(Coup.objects.select_related("hand").order_by("hand__number"))
    assert [(coup.bank, stored_covers(coup.hand)) for coup in coups] == [
        (Decimal(100), [(2, Decimal(100))]),
        (coups[0].bank_after, [(2, Decimal(80))]),
    ]


def test_coups_tapped_offline_wait_on_the_phone_across_a_reload_and_go_in_order(
    phone, host, bar_wifi
):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, bar_wifi.url, shoe, host)
    phone.evaluate(UNTIL_THE_PAGE_IS_KEPT)
    bar_wifi.drop(phone)
    coups = [
        Tapped(((2, "100"),), "banker", bank="200"),
        Tapped(((2, "50"), (3, "40")), "player"),  # the bank kept: known once coup 1 is in
        Tapped(((3, "60"),), "banker", bank="300"),  # lost: seat 2 banks, sets 300
    ]
    for tapped in coups:
        tap_coup(phone, tapped)
    waiting = phone.locator("[data-outbox-list] li")
    expect(waiting).to_have_text([f"Coup {number}: waiting to send." for number in (1, 2, 3)])
    phone.reload()  # offline: the page the worker kept, the coups this device kept
    expect(waiting).to_have_count(3)
    expect(phone.locator("[data-hand-number]")).to_have_text("4")
    assert not Coup.objects.exists()
    bar_wifi.restore(phone)
    all_sent(phone)
    stored = list(Coup.objects.select_related("hand").order_by("hand__number"))
    assert [(coup.banker_seat, coup.bank) for coup in stored] == [
        (1, Decimal(200)),
        (1, stored[0].bank_after),
        (2, Decimal(300)),
    ]
    assert [stored_covers(coup.hand) for coup in stored] == [
        [(2, Decimal(100))],
        [(2, Decimal(50)), (3, Decimal(40))],
        [(3, Decimal(60))],
    ]
    assert [coup.hand.winner for coup in stored] == ["banker", "player", "banker"]


def test_undo_puts_the_coup_back_in_the_entry_to_save_again(phone, host, slow):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    tap_coup(phone, Tapped(((2, "100"), (3, "50")), "banker", bank="200"))
    phone.get_by_text("Coup 1 saved").wait_for()
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.locator("#table-undo button", has_text="Undo coup 1").tap()
    form = phone.locator("#coup-form")
    expect(form.locator("[name=stake_2]")).to_have_value("100")
    expect(form.locator("[name=stake_3]")).to_have_value("50")
    expect(form.locator("[name=bank]")).to_have_value("200")
    expect(phone.locator("[data-hand-number]")).to_have_text("1")
    assert not Coup.objects.exists()
    form.locator("[name=stake_3]").fill("")
    form.locator("label:has([name=result][value=player])").tap()
    form.locator("button.save").tap()
    all_sent(phone)
    coup = Coup.objects.select_related("hand").get()
    assert (coup.bank, coup.hand.winner) == (Decimal(200), "player")
    assert stored_covers(coup.hand) == [(2, Decimal(100))]


# Until the table's state holds the server's prefill for coup ``next``.
UNTIL_THE_PREFILL_IS_FOR = """(next) => new Promise((resolve, reject) => {
  const started = Date.now();
  (function look() {
    const prefill = window.shoebookTableState().server.prefill;
    if (prefill && prefill.next === next) return resolve(prefill);
    if (Date.now() - started > 10000) return reject(new Error("no prefill for coup " + next));
    setTimeout(look, 50);
  })();
})"""


def test_a_coup_saved_on_another_screen_brings_the_next_coup_s_bank_when_pushed(phone, host, slow):
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    entry = HandEntry(
        result="banker",
        bets=(BetEntry(2, "ordinary", "100"),),
        coup=CoupTerms(banker_seat=1, bank="200"),
    )
    hand_services.record_hand(shoe=shoe, number=1, entry=entry, by=host)
    # What static/js/live.js dispatches for the table's stream (the live contract).
    phone.evaluate(
        """(shoe) => document.dispatchEvent(new CustomEvent("shoebook:live",
            {detail: {topic: "shoe:" + shoe, what: "hand", shoe, next: 2, last: 1}}))""",
        shoe.pk,
    )
    prefill = phone.evaluate(UNTIL_THE_PREFILL_IS_FOR, 2)
    assert (prefill["banker_seat"], prefill["bank"]) == ("1", "195")


def test_a_coup_whose_seat_changed_hands_meanwhile_is_resolved_by_the_host(
    phone, browser, host, production_server, bar_wifi
):
    """Phone A, offline, taps coup 2 with seat 2 (Aki) covering 50; page B seats Farouk in seat 2
    and saves coup 2. A comes back: its coup is held (taken, then for the seat), never stuck:
    fixed in the entry it is saved with the seats as they are now, as the host chose."""
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    farouk = guest_services.event_guest_add(event=shoe.event, name=NAMES[7], by=host)
    first = HandEntry(
        result="banker",
        bets=(BetEntry(2, "ordinary", "100"),),
        coup=CoupTerms(banker_seat=1, bank="200"),
    )
    hand_services.record_hand(shoe=shoe, number=1, entry=first, by=host)
    open_table(phone, bar_wifi.url, shoe, host)
    form = phone.locator("#coup-form")
    expect(form.locator("[name=banker_seat]")).to_have_value("1")  # coup 2's bank: kept
    bar_wifi.drop(phone)
    tap_coup(phone, Tapped(((2, "50"),), "player"))
    expect(phone.locator("[data-outbox-list] li")).to_have_text(["Coup 2: waiting to send."])

    other = new_page(browser, 360, 740, has_touch=True)
    open_table(other, production_server.url, shoe, host)
    other.locator("summary", has_text="Seats").tap()
    other.locator(".seat-choice:has(input[value='2'])").tap()
    other.locator(f".guest-choice:text-is('{NAMES[7]}')").tap()
    other.get_by_text(f"{NAMES[7]} sits in seat 2").wait_for()
    tap_coup(other, Tapped(((3, "60"),), "banker"))
    other.get_by_text("Coup 2 saved").wait_for()
    other.context.close()

    bar_wifi.restore(phone)
    held = phone.locator("[data-held]")
    expect(held).to_contain_text("Coup 2 was already recorded")
    held.get_by_role("button", name="Save mine as coup 3").tap()
    expect(held).to_contain_text(f"Seat 2 is now {NAMES[7]}")
    assert Coup.objects.count() == 2  # nothing stored for Farouk unasked
    # Saved again as it was: refused again, still held, never lost.
    held.get_by_role("button", name="Save again as coup 3").tap()
    expect(held.get_by_role("button", name="Fix in the entry")).to_be_visible()
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    expect(held).to_contain_text(f"Seat 2 is now {NAMES[7]}")
    # The host fixes it: the cover goes to seat 3 (Ben) instead.
    held.get_by_role("button", name="Fix in the entry").tap()
    expect(form.locator("[name=stake_2]")).to_have_value("50")
    expect(form.locator("tr[data-seat='2']")).to_contain_text(NAMES[7])  # who sits there now
    form.locator("[name=stake_2]").fill("")
    form.locator("[name=stake_3]").fill("50")
    form.locator("button.save").tap()
    all_sent(phone)
    third = Coup.objects.select_related("hand").get(hand__number=3)
    assert stored_covers(third.hand) == [(3, Decimal(50))]
    assert third.hand.winner == "player"
    assert not Bet.objects.filter(hand=third.hand, guest=farouk).exists()


def test_a_coup_saved_before_the_pushed_bank_arrives_waits_for_it(phone, host, slow):
    """Another screen saved coup 1; the push says so before the next coup's bank is known here.
    A coup 2 saved in that gap, its bank's boxes left alone, waits for the bank, then goes."""
    shoe = banked_night(host, "chemin_de_fer", taxe="percent", taxe_rate=Decimal("0.05"))
    open_table(phone, slow, shoe, host)
    entry = HandEntry(
        result="banker",
        bets=(BetEntry(2, "ordinary", "100"),),
        coup=CoupTerms(banker_seat=1, bank="200"),
    )
    hand_services.record_hand(shoe=shoe, number=1, entry=entry, by=host)
    phone.evaluate(
        """(shoe) => document.dispatchEvent(new CustomEvent("shoebook:live",
            {detail: {topic: "shoe:" + shoe, what: "hand", shoe, next: 2, last: 1}}))""",
        shoe.pk,
    )
    expect(phone.locator("[data-hand-number]")).to_have_text("2")
    tap_coup(phone, Tapped(((2, "50"),), "player"))  # at once: the bank is not known yet
    all_sent(phone)
    first = Coup.objects.get(hand__number=1)
    second = Coup.objects.select_related("hand").get(hand__number=2)
    assert (second.banker_seat, second.bank) == (1, first.bank_after)
    assert stored_covers(second.hand) == [(2, Decimal(50))]
    assert Coup.objects.count() == 2
