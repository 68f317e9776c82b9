"""A dealer taps as fast as the table goes: at a 300 ms round trip, straight on to the next hand
without waiting for the last save's answer, every tap lands in its own hand; seats tapped 100 ms
apart are all taken, in order; a hand refused when the outbox is sent stays on the device.

All against the production server (gunicorn, DEBUG off, WhiteNoise), through a loopback proxy
that adds the round trip or cuts the Wi-Fi (tests/browser/network.py)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games.entry import read_taps
from games.models import Hand
from ledger.models import Bet, EventGuest, Seating
from tests.browser.conftest import (
    NAMES,
    UNTIL_THE_OUTBOX_IS_EMPTY,
    UNTIL_THE_PAGE_IS_KEPT,
    new_page,
    open_night,
    open_table,
    seat_seven,
)
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Eight hands, each: (seat, bet, chips tapped), then the cards tapped in deal order (P1 B1 P2 B2,
# then the third cards the rules call for). The second is the one once stored with its winner
# flipped: P 2 4 / B 9 K.
HANDS = [
    ((1, "player", (10,)), ("9", "J", "7", "J", "10")),
    ((2, "banker", (20, 10)), ("2", "9", "4", "K")),
    ((3, "tie", (10,)), ("K", "K", "8", "8")),
    ((4, "banker", (50,)), ("8", "9", "K", "K")),
    ((5, "player", (10, 10, 10)), ("A", "2", "3", "4", "5")),
    ((6, "banker", (100,)), ("Q", "7", "J", "J", "2")),
    ((7, "player", (20,)), ("5", "5", "5", "5", "5", "5")),
    ((1, "banker", (10, 20)), ("3", "3", "3", "3")),
]


@pytest.fixture
def slow_night(host, production_server, network_proxy):
    """A new night's open shoe, nobody seated, behind a 300 ms round trip."""
    return network_proxy(production_server.url, latency_ms=300).url, open_night(host)


@pytest.fixture
def slow_table(slow_night, host):
    """The slow night with seven guests seated (seat n: the n-th name)."""
    seat_seven(slow_night[1], host)
    return slow_night


def tap_hand(page, stake, cards):
    seat, bet_type, chips = stake
    page.tap(f"input[name=stake_{seat}_{bet_type}]")
    for chip in chips:
        page.tap(f"button.chip[data-chip='{chip}']")
    for rank in cards:
        page.tap(f".keypad [data-rank='{rank}']")
    page.tap("button.save")


def test_hands_and_bets_stored_equal_those_tapped_at_300_ms_with_no_pause(phone, host, slow_table):
    base_url, shoe = slow_table
    open_table(phone, base_url, shoe, host)
    for stake, cards in HANDS:
        tap_hand(phone, stake, cards)  # straight on: no wait for the answer
    expect(phone.locator("[data-hand-number]")).to_have_text("9")
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    hands = list(Hand.objects.filter(shoe=shoe).order_by("number"))
    assert [hand.number for hand in hands] == list(range(1, 9))
    for hand, (_stake, cards) in zip(hands, HANDS, strict=True):
        reading = read_taps(cards, decks=shoe.event.decks)
        assert reading.problem is None and reading.taps_read == len(cards)
        assert (hand.player_cards, hand.banker_cards) == (
            " ".join(str(card) for card in reading.player),
            " ".join(str(card) for card in reading.banker),
        ), f"hand {hand.number}"
    bets = Bet.objects.filter(hand__shoe=shoe)
    stored = sorted(bets.values_list("hand__number", "seat", "bet_type", "stake"))
    tapped_bets = sorted(
        (number, seat, bet_type, Decimal(sum(chips)))
        for number, ((seat, bet_type, chips), _cards) in enumerate(HANDS, start=1)
    )
    assert stored == tapped_bets


def test_seven_guests_seated_by_taps_100_ms_apart_at_300_ms_are_all_seated_in_order(
    phone, host, slow_night
):
    base_url, shoe = slow_night
    open_table(phone, base_url, shoe, host)
    phone.tap(".seat-choice:has(input[value='1'])")
    for name in NAMES[:7]:
        phone.tap(f".guest-choice:text-is('{name}')")
        phone.wait_for_timeout(100)
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    seated = dict(Seating.objects.filter(shoe=shoe).values_list("seat", "guest__name"))
    assert seated == dict(enumerate(NAMES[:7], start=1))
    for seat, name in enumerate(NAMES[:7], start=1):
        expect(phone.locator(f"#seat-guest-{seat}")).to_have_text(name)


def test_a_save_with_unfinished_cards_is_refused_on_the_device_even_with_a_result(
    phone, host, slow_table
):
    base_url, shoe = slow_table
    open_table(phone, base_url, shoe, host)
    tap_hand(phone, (1, "banker", (10,)), [])  # a first hand with no result: refused here too
    for rank in ("3", "2", "2", "2", "4"):  # Player 3 2 4; Banker 2 2 must draw on a 4
        phone.tap(f".keypad [data-rank='{rank}']")
    phone.tap(".outcome-player")
    phone.tap("button.save")
    expect(phone.locator("#deal-status.problem")).to_have_text("Banker draws a third card.")
    expect(phone.locator("[data-hand-number]")).to_have_text("1")
    assert phone.input_value("input[name=stake_1_banker]") == "10"
    assert not Hand.objects.filter(shoe=shoe).exists()


def test_a_refused_seat_change_says_so_next_to_the_seat(phone, host, slow_night):
    base_url, shoe = slow_night
    open_table(phone, base_url, shoe, host)
    phone.tap(".seat-choice:has(input[value='2'])")
    EventGuest.objects.filter(event=shoe.event, guest__name="Ben").delete()  # meanwhile
    phone.tap(".guest-choice:text-is('Ben')")
    expect(phone.locator(".seat-choice:has(input[value='2']) .seat-note")).to_be_visible()
    assert not Seating.objects.filter(shoe=shoe).exists()


def test_a_hand_refused_when_sent_is_held_with_its_choices_and_the_next_waits(
    phone, host, record, bar_wifi
):
    shoe = open_night(host)
    seat_seven(shoe, host)
    base_url, wifi = bar_wifi.url, bar_wifi
    open_table(phone, base_url, shoe, host)
    wifi.drop(phone)
    tap_hand(phone, (1, "banker", (100,)), ("9", "J", "7", "J", "10"))
    tap_hand(phone, (2, "player", (10,)), ("8", "9", "K", "K"))
    expect(phone.locator("[data-outbox-list] li")).to_have_count(2)
    expect(phone.locator("#table-undo button")).to_have_text("Undo hand 2")
    record(shoe, "8 K", "9 K")  # meanwhile another device logs hand 1
    wifi.restore(phone)
    held = phone.locator("[data-held]")
    expect(held).to_contain_text("Hand 1 from this phone was refused")
    expect(held).to_contain_text("Hand 1 was already recorded")
    assert Hand.objects.filter(shoe=shoe).count() == 1  # hand 2 waits for the host's decision
    # Hand 2 keeps its number until the host decides; the other phone's hand 1 is shown.
    expect(phone.locator("[data-outbox-list] li")).to_have_text(["Hand 2: waiting to send."])
    expect(held.locator("[data-other-hand='1']")).to_contain_text("8 K")
    phone.get_by_role("button", name="Save mine as hand 2").tap()  # and hand 2 follows, as 3
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    hands = list(Hand.objects.filter(shoe=shoe).order_by("number"))
    assert [(h.number, h.player_cards) for h in hands] == [(1, "8 K"), (2, "9 7"), (3, "8 K")]
    nets = dict(Bet.objects.filter(hand__shoe=shoe).values_list("hand__number", "stake"))
    assert nets == {2: Decimal(100), 3: Decimal(10)}


def test_undo_of_a_hand_waiting_offline_puts_it_back_and_a_reload_keeps_it(phone, host, bar_wifi):
    shoe = open_night(host)
    seat_seven(shoe, host)
    base_url, wifi = bar_wifi.url, bar_wifi
    open_table(phone, base_url, shoe, host)
    phone.evaluate(UNTIL_THE_PAGE_IS_KEPT)
    wifi.drop(phone)
    tap_hand(phone, (3, "banker", (50,)), ("9", "J", "7", "J", "10"))
    expect(phone.locator("#table-undo button")).to_have_text("Undo hand 1")
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.tap("#table-undo button")
    expect(phone.locator("[data-outbox]")).to_be_hidden()
    assert phone.input_value("input[name=stake_3_banker]") == "50"
    assert phone.input_value("[name=player_cards]") == "9 7"
    phone.reload()  # offline: the page the worker kept, the entry this device kept
    expect(phone.locator("input[name=stake_3_banker]")).to_have_value("50")
    assert phone.input_value("[name=banker_cards]") == "J J 10"
    wifi.restore(phone)
    assert Hand.objects.count() == 0


def test_typing_in_a_stake_box_goes_on_in_it_when_a_seat_answer_redraws_the_table(
    phone, host, slow_night
):
    base_url, shoe = slow_night
    seat_seven(shoe, host)
    open_table(phone, base_url, shoe, host)
    held = []
    phone.route("**/seats/", lambda route: held.append(route))  # the answer waits for the test
    phone.tap("summary:has-text('Seats')")
    phone.tap(".seat-choice:has(input[value='7'])")
    phone.tap(f".guest-choice:text-is('{NAMES[7]}')")  # answered with the whole table
    phone.tap("summary:has-text('Seats')")
    phone.tap("input[name=stake_2_banker]")
    phone.tap("input[name=stake_2_banker]")  # a second tap types in it
    phone.keyboard.type("5")
    for _ in range(50):
        if held:
            break
        phone.wait_for_timeout(100)
    held[0].continue_()
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)  # the table redrawn
    phone.keyboard.type("0")
    expect(phone.locator("input[name=stake_2_banker]")).to_have_value("50")
    assert phone.input_value("input[name=taps]") == ""  # the "0" was not a ten on the keypad
    expect(phone.locator("#seat-guest-7")).to_have_text(NAMES[7])


def test_an_undo_answered_while_the_host_bets_the_next_hand_is_held_not_swapped_in(
    phone, host, slow_table, record
):
    base_url, shoe = slow_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    open_table(phone, base_url, shoe, host)
    phone.on("dialog", lambda dialog: dialog.accept())
    phone.tap("#table-undo button")  # 300 ms on its way
    phone.tap("input[name=stake_3_tie]")
    phone.tap("button.chip[data-chip='10']")
    held = phone.locator("[data-held]")
    expect(held).to_contain_text("Hand 1 was undone while the entry was in use")
    assert phone.input_value("input[name=stake_3_tie]") == "10"  # the bet being made stays
    assert Hand.objects.filter(shoe=shoe).count() == 0
    phone.get_by_role("button", name="Fix in the entry").tap()
    expect(phone.locator("input[name=stake_1_player]")).to_have_value("100")
    assert phone.input_value("[name=player_cards]") == "9 7"


def test_a_pasted_stake_that_is_not_an_amount_is_refused_not_read_as_another(
    phone, host, slow_table
):
    base_url, shoe = slow_table
    open_table(phone, base_url, shoe, host)
    phone.fill("input[name=stake_1_banker]", "1e30")
    phone.fill("input[name=stake_2_player]", "１２．５")
    phone.tap(".outcome-banker")
    phone.tap("button.save")
    expect(phone.locator("#deal-status.problem")).to_have_text("“1e30” is not an amount.")
    expect(phone.locator("input[name=stake_1_banker]")).to_have_attribute("aria-invalid", "true")
    phone.fill("input[name=stake_1_banker]", "30")
    phone.tap("button.save")
    # A first visit's answer may wait behind the worker keeping the page's files (300 ms each).
    expect(phone.locator("[data-answer]")).to_have_text(
        "Hand 1 saved: Banker wins.", timeout=20_000
    )
    bets = Bet.objects.filter(hand__shoe=shoe).values_list("seat", "stake")
    assert sorted(bets) == [(1, Decimal(30)), (2, Decimal("12.5"))]


def test_a_second_tab_on_the_same_table_waits_and_takes_over_when_the_first_closes(
    browser, host, slow_table
):
    base_url, shoe = slow_table
    phone = new_page(browser, 360, 740, has_touch=True)
    open_table(phone, base_url, shoe, host)
    second = phone.context.new_page()
    second.goto(f"{base_url}/shoes/{shoe.pk}/")
    expect(second.locator(".other-tab")).to_contain_text("open in another tab")
    assert second.evaluate("document.getElementById('hand-form').inert")
    tap_hand(phone, (1, "banker", (10,)), ("9", "J", "7", "J", "10"))
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    phone.close()  # the first tab goes: the second takes over the table
    expect(second.locator(".other-tab")).to_have_count(0)
    expect(second.locator("[data-hand-number]")).to_have_text("2")
    second.tap(".outcome-player")
    second.tap("button.save")
    second.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    assert list(Hand.objects.filter(shoe=shoe).values_list("number", "winner")) == [
        (1, "player"),
        (2, "player"),
    ]
    second.context.close()
