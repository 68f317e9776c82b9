"""The live table (ledger/hands/views/table.py): saving hands, refusals, the keypad, seats, undo,
and a constant number of queries however long the shoe."""

from __future__ import annotations

import json
import re
import uuid
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from games import services as game_services
from games.cards import format_cards
from games.entry import (
    MSG_EMPTY_SEAT,
    MSG_NO_RESULT,
    MSG_NOT_A_NUMBER,
    MSG_OVER_MAXIMUM,
    MSG_THIRD_CARD_EARLY,
    MSG_UNDER_MINIMUM,
    read_taps,
)
from games.models import Hand
from games.payouts import MSG_STAKE_NOT_POSITIVE
from ledger.hands import services as hand_services
from ledger.hands.forms import MSG_SEATING_UNREADABLE, MSG_STAKE_BOX_GONE
from ledger.hands.services import MSG_SEAT_CHANGED
from ledger.hands.views.table import (
    MSG_HAND_UNDONE,
    MSG_REFILL_SEAT_CHANGED,
    MSG_REFILL_SEAT_EMPTY,
    MSG_REFILL_STALE,
    MSG_SHOE_CLOSED,
    MSG_SHOE_REOPENED,
    MSG_UNDO_KEY_UNREADABLE,
)
from ledger.models import AuditEntry, Bet, HandRevision
from tests.conftest import bet, entry, on_seat
from tests.pages import HTMX, form_data, hand_data, save, table_url, text

D = Decimal
pytestmark = pytest.mark.django_db


def test_without_javascript_saving_redirects_back_to_the_table(client, host, seated, shoe):
    client.force_login(host)
    response = save(
        client, shoe, htmx=False, player_cards="8 K", banker_cards="9 K", stake_2_banker="50"
    )
    assert response.status_code == 302
    assert response.url == table_url(shoe)
    page = text(client.get(response.url))
    assert "Hand 1 saved: Banker wins 9–8 (natural)." in page  # the winner's total first
    assert 'data-seat-result="2">+47.50<' in page


def test_the_table_page_is_a_full_page_and_htmx_gets_the_partial(client, host, seated, shoe):
    client.force_login(host)
    assert "<html" in text(client.get(table_url(shoe)))
    partial = text(client.get(table_url(shoe), **HTMX))
    assert "<html" not in partial
    assert partial.startswith('\n<section id="table"') or '<section id="table"' in partial[:200]


def test_a_double_tap_records_the_hand_once(client, host, seated, shoe):
    client.force_login(host)
    data = hand_data(shoe, player_cards="9 7", banker_cards="J J 10", stake_1_player="10")
    url = reverse("ledger:hand_record", args=[shoe.pk])
    first, second = client.post(url, data, **HTMX), client.post(url, data, **HTMX)
    assert "Hand 1 saved" in text(first) and "Hand 1 saved" in text(second)
    assert Hand.objects.count() == 1 and Bet.objects.count() == 1


def test_a_second_device_is_told_and_its_entry_kept_for_the_next_hand(
    client, host, dealer, seated, shoe
):
    client.force_login(dealer)
    stale = hand_data(shoe, result="banker", stake_3_banker="40")
    hand_services.record_hand(shoe=shoe, entry=entry("9 7", "J J 10"), number=1, by=host)
    page = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), stale, **HTMX))
    assert "Hand 1 was already recorded by hostess" in page
    assert 'name="number" value="2"' in page
    assert 'name="stake_3_banker" value="40"' in page
    assert Hand.objects.count() == 1


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"result": "banker", "stake_1_player": "abc"},
            on_seat(1, "Player", MSG_NOT_A_NUMBER, text="abc"),
        ),
        (
            {"result": "banker", "stake_1_player": "-10"},
            on_seat(1, "Player", MSG_STAKE_NOT_POSITIVE, stake="−10"),
        ),
        (
            {"result": "banker", "stake_1_player": "0"},
            on_seat(1, "Player", MSG_STAKE_NOT_POSITIVE, stake="0"),
        ),
        (
            {"result": "banker", "stake_1_player": "5"},
            on_seat(1, "Player", MSG_UNDER_MINIMUM, stake="5", minimum="10"),
        ),
        (
            {"result": "banker", "stake_1_player": "2000"},
            on_seat(1, "Player", MSG_OVER_MAXIMUM, stake="2,000", maximum="1,000"),
        ),
        ({"player_cards": "10 5", "banker_cards": "10 7"}, "Player has 5 and must draw"),
        (
            {"player_cards": "9 7", "banker_cards": "J J 10", "result": "banker"},
            "The cards say Player (6–0), not Banker.",
        ),
        ({"player_cards": "9 Z", "banker_cards": "J J 10"}, "Unknown card &#x27;Z&#x27;"),
        ({}, MSG_NO_RESULT),
    ],
)
def test_bad_input_re_renders_the_table_with_the_reason_and_saves_nothing(
    client, host, seated, shoe, fields, message
):
    client.force_login(host)
    response = save(client, shoe, **fields)
    assert response.status_code == 200
    message = str(message)
    assert message.replace("'", "&#x27;") in text(response) or message in text(response)
    assert not Hand.objects.exists()


def test_a_bet_on_an_empty_seat_is_refused_in_the_page(client, host, shoe, guests):
    client.force_login(host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[0], by=host)
    page = text(save(client, shoe, result="player", stake_4_player="10"))
    assert on_seat(4, "Player", MSG_EMPTY_SEAT) in page
    assert not Hand.objects.exists()


def test_repeat_last_bets_fills_the_form_for_guests_still_seated(
    client, host, seated, shoe, guests, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    hand_services.seat_guest(shoe=shoe, seat=2, guest=guests[7], by=host)  # Ben leaves seat 2
    page = text(client.get(table_url(shoe) + "?repeat=1", **HTMX))
    assert 'name="stake_1_player" value="100"' in page  # typed back as the host types it
    assert 'name="stake_2_banker" value' not in page
    cleared = text(client.get(table_url(shoe), **HTMX))
    assert 'name="stake_1_player" value' not in cleared


def test_undo_from_the_page(client, host, seated, shoe, record):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    page = text(client.post(undo_url(shoe), **HTMX))
    assert MSG_HAND_UNDONE.format(number=1) in page
    assert not Hand.objects.exists()
    # The entry holds the undone hand now: a second undo has nothing to take back.
    refused = text(client.post(undo_url(shoe), **HTMX))
    assert str(hand_services.MSG_NOTHING_TO_UNDO) in refused


@pytest.mark.parametrize(
    ("params", "status", "cards"),
    [
        (
            {"player_cards": "", "banker_cards": "", "add": "9"},
            "Next: Banker&#x27;s first card.",
            ("9", ""),
        ),
        (
            {"player_cards": "9", "banker_cards": "J", "add": "7"},
            "Next: Banker&#x27;s second card.",
            ("9 7", "J"),
        ),
        (
            {"player_cards": "9 7", "banker_cards": "J J", "add": "10"},
            "Player wins 6–0.",
            ("9 7", "J J 10"),
        ),
        (
            {"player_cards": "2 3", "banker_cards": "J J", "add": "4"},
            "Banker draws a third card.",
            ("2 3 4", "J J"),
        ),
        (
            {"player_cards": "8 K", "banker_cards": "9 K", "add": "4"},
            "The hand is complete",
            ("8 K", "9 K"),
        ),
        (
            {"player_cards": "9 7", "banker_cards": "J J 10", "back": "1"},
            "Banker draws a third card.",
            ("9 7", "J J"),
        ),
    ],
)
def test_the_card_keypad_deals_in_order_and_says_what_is_due(
    client, dealer, shoe, params, status, cards
):
    client.force_login(dealer)
    page = text(client.get(reverse("ledger:deal_helper", args=[shoe.pk]), params))
    assert status in page
    assert re.findall(r'name="(?:player|banker)_cards" value="([^"]*)"', page) == list(cards)


def record_hands(shoe, count, by):
    for _ in range(count):
        hand_services.record_hand(
            shoe=shoe,
            entry=entry("9 7", "J J 10", [bet(seat, "banker", 10) for seat in range(1, 8)]),
            number=hand_services.next_hand_number(shoe),
            by=by,
        )


def queries_for(client, shoe, action) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = action(client, shoe)
    assert response.status_code in (200, 302)
    return len(captured)


SEVEN_BETS = {f"stake_{seat}_player": "20" for seat in range(1, 8)}


@pytest.mark.parametrize(
    "action",
    [
        pytest.param(
            lambda c, s: save(c, s, player_cards="8 K", banker_cards="9 K", **SEVEN_BETS), id="save"
        ),
        pytest.param(lambda c, s: c.get(table_url(s)), id="table page"),
        pytest.param(lambda c, s: c.get(table_url(s) + "?repeat=1", **HTMX), id="repeat"),
    ],
)
def test_the_table_runs_the_same_queries_with_1_or_40_hands(
    client, host, seated, shoe, action, django_assert_max_num_queries
):
    client.force_login(host)
    record_hands(shoe, 1, host)
    small = queries_for(client, shoe, action)
    record_hands(shoe, 39, host)
    with django_assert_max_num_queries(small):
        large = queries_for(client, shoe, action)
    assert large == small
    assert small <= 30


# A save of 7 bets from the host's phone: session, user with roles, the shoe, its event (4); the
# service's transaction: the shoe read afresh with its last number and any repeat, its event, the
# seats, the hand, its bets, the guests' totals, the journal (9 with BEGIN and COMMIT); the
# answer, only what the hand changed, reads each seat's total over the shoe (one sum). PostgreSQL
# locks the shoe in a statement of its own (ledger.hands.services._locked_shoe) and holds the
# seated guests against a merge (ledger.locks.hold_guests): two more there.
SAVE_QUERIES = 14


def postgresql_notify() -> int:
    """The one query a save's change adds on PostgreSQL (shoebook.base.live: its pg_notify)."""
    return int(connection.vendor == "postgresql")


def test_a_save_makes_the_same_few_queries_with_1_or_200_hands(
    client, host, seated, shoe, django_assert_max_num_queries
):
    client.force_login(host)
    url = reverse("ledger:hand_record", args=[shoe.pk])
    for hands in (1, 200):
        record_hands(shoe, hands - Hand.objects.filter(shoe=shoe).count(), host)
        data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", **SEVEN_BETS)
        with django_assert_max_num_queries(  # on PostgreSQL the locks, and its pg_notify
            SAVE_QUERIES + 3 * connection.features.has_select_for_update + postgresql_notify()
        ):
            response = client.post(url, data, **HTMX)
        assert response["Shoebook-Hand-Saved"] == str(hands + 1)


def top_level_ids(html: str) -> list[str]:
    """The ids of a reply's outermost elements: the parts the table's script puts in place."""
    reader = _OutermostIds()
    reader.feed(html)
    return reader.ids


class _OutermostIds(HTMLParser):
    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def __init__(self) -> None:
        super().__init__()
        self.depth, self.ids = 0, []

    def handle_starttag(self, tag, attrs):
        if self.depth == 0 and dict(attrs).get("id"):
            self.ids.append(dict(attrs)["id"])
        if tag not in self.VOID:
            self.depth += 1

    def handle_endtag(self, tag):
        self.depth -= 1


def test_a_save_answers_with_only_what_the_hand_changed(client, host, seated, shoe):
    client.force_login(host)
    record_hands(shoe, 30, host)
    reply = save(client, shoe, player_cards="8 K", banker_cards="9 K", stake_1_player="20")
    assert reply["Shoebook-Table-Part"] == "saved"
    answer = text(reply)
    assert 'data-saved-hand="31" data-next-hand="32"' in answer
    assert "Hand 31 saved: Banker wins 9–8 (natural)." in answer
    assert 'data-seat-result="1">−20<' in answer
    # Each seat's total over the shoe moves with the hand saved, as the board then has it.
    board = text(client.get(table_url(shoe) + "?part=board", **HTMX))
    total = re.search(r'data-seat-total="1">([^<]*)<', board)[1]
    assert f'data-seat-total="1">{total}<' in answer
    # Nothing that grows with the shoe, and not the entry: the page keeps its own.
    assert "scoreboard" not in answer and "hand-index" not in answer and "<tr" not in answer
    assert 'class="stake"' not in answer and 'id="hand-form"' not in answer
    assert 'name="number" value="31"' in answer  # the undo button, for this hand
    # Each part takes the place of the part of the page with its id.
    ids = top_level_ids(answer)
    assert {"repeat-stakes", "table-reminders", "table-last", "table-undo"} <= set(ids)
    assert {f"seat-guest-{seat}" for seat in range(1, 8)} <= set(ids)
    assert {f"seat-last-{seat}" for seat in range(1, 8)} <= set(ids)
    assert {f"seat-total-{seat}" for seat in range(1, 8)} <= set(ids)
    page = text(client.get(table_url(shoe), **HTMX))
    assert all(f'id="{part}"' in page for part in ids)
    assert json.loads(re.search(r'id="repeat-stakes"[^>]*>(.*?)<', answer)[1]) == {
        "stake_1_player": "20"
    }


def test_the_board_follows_a_save_in_a_request_of_its_own(client, host, seated, shoe):
    client.force_login(host)
    record_hands(shoe, 3, host)
    board = text(client.get(table_url(shoe) + "?part=board", **HTMX))
    totals = [f"seat-total-{seat}" for seat in range(1, 8)]
    facts = ["table-facts", "board-repeat-stakes"]  # read by the script, not placed
    assert top_level_ids(board) == [
        f"scoreboard-{shoe.pk}",
        "table-recent",
        "hand-index",
        *totals,
        *facts,
    ]
    assert 'data-seat-total="1">−30<' in board  # three hands of 10 on the Banker, lost
    for hand in Hand.objects.filter(shoe=shoe):
        assert f'href="{reverse("ledger:hand_detail", args=[hand.pk])}"' in board
    assert "<html" not in board and 'id="hand-form"' not in board
    recent = board[board.index('id="table-recent"') : board.index('id="hand-index"')]
    assert "Undo hand 3" in recent and recent.count("<tr>") == 1 + 3
    page = text(client.get(table_url(shoe), **HTMX))
    parts = [part for part in top_level_ids(board) if part not in facts]
    assert all(f'id="{part}"' in page for part in parts)


def test_a_save_from_a_page_drawn_before_a_seat_changed_redraws_the_table(
    client, host, seated, shoe, guests
):
    client.force_login(host)
    hand_services.seat_clear(shoe=shoe, seat=7, by=host)
    data = hand_data(shoe, result="player", stake_1_player="10")  # the page: seat 7 empty
    hand_services.seat_guest(shoe=shoe, seat=7, guest=guests[7], by=host)  # another device
    reply = client.post(reverse("ledger:hand_record", args=[shoe.pk]), data, **HTMX)
    assert reply["Shoebook-Hand-Saved"] == "1"
    assert not reply.has_header("Shoebook-Table-Part")  # the whole table, seat 7's boxes too
    assert 'name="stake_7_player"' in text(reply) and 'id="hand-form"' in text(reply)


def test_an_undo_from_a_page_drawn_before_another_hand_undoes_nothing(client, host, seated, shoe):
    client.force_login(host)
    record_hands(shoe, 2, host)
    undo = reverse("ledger:hand_undo", args=[shoe.pk])
    record_hands(shoe, 1, host)  # another device logs hand 3 meanwhile
    refused = text(client.post(undo, {"number": "2"}, **HTMX))
    assert str(hand_services.MSG_UNDO_NOT_LAST).format(number=2, last=3) in refused
    assert Hand.objects.filter(shoe=shoe).count() == 3
    assert "data-saved-hand" not in refused and "refill" not in refused
    client.post(undo, {"number": "3"}, **HTMX)
    assert Hand.objects.filter(shoe=shoe).count() == 2


@pytest.mark.parametrize("number", ["abc", "-1", "9" * 30, "1.0"])
def test_an_undo_naming_a_hand_that_cannot_be_read_undoes_nothing(
    client, host, seated, shoe, number
):
    # Read as "no number", it would take back whatever hand is last, unchecked.
    client.force_login(host)
    record_hands(shoe, 2, host)
    url = reverse("ledger:hand_undo", args=[shoe.pk])
    refused = text(client.post(url, {"number": number}, **HTMX))
    assert escape(str(MSG_UNDO_KEY_UNREADABLE)) in refused
    assert Hand.objects.filter(shoe=shoe).count() == 2


@pytest.mark.parametrize(
    ("seating", "said"),
    [("a:b", MSG_SEATING_UNREADABLE), ("1:18:5", MSG_SEATING_UNREADABLE),
     ("1:2 " * 51, "at most 200 characters")],
)  # fmt: skip
def test_a_hand_whose_seating_cannot_be_read_says_so_and_saves_nothing(
    client, host, seated, shoe, seating, said
):
    client.force_login(host)
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_2_banker="40")
    url = reverse("ledger:hand_record", args=[shoe.pk])
    refused = text(client.post(url, data | {"seating": seating}, **HTMX))
    summary = re.search(r'<ul class="errorlist summary" role="alert">(.*?)</ul>', refused, re.S)
    assert summary and escape(str(said)) in summary.group(1)
    assert not Hand.objects.filter(shoe=shoe).exists()


def test_a_cash_night_has_seven_seats_and_refuses_a_bet_or_a_guest_on_seat_8(
    client, host, seated, shoe, guests
):
    client.force_login(host)
    page = text(client.get(table_url(shoe)))
    assert 'name="stake_7_player"' in page and 'name="stake_8_player"' not in page
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_8_player="40")
    refused = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), data, **HTMX))
    assert escape("There is no seat 8: seats run 1–7.") in refused
    assert not Hand.objects.filter(shoe=shoe).exists()
    url = reverse("ledger:seat_change", args=[shoe.pk])
    refused = text(client.post(url, {"seat": "8", "guest": guests[7].pk}, **HTMX))
    assert escape("There is no seat 8: seats run 1–7.") in refused
    assert not shoe.seatings.filter(seat=8).exists()


def test_a_stake_in_a_box_the_table_no_longer_has_is_refused_by_name(client, host, seated, shoe):
    # The page was drawn while the table still offered Dragon 7 (and a box no table has).
    client.force_login(host)
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_2_banker="40")
    url = reverse("ledger:hand_record", args=[shoe.pk])
    gone = {"stake_1_dragon_7": "10", "stake_10_player": "5", "stake_3_panda_8": ""}
    refused = text(client.post(url, data | gone, **HTMX))
    said = MSG_STAKE_BOX_GONE.format(boxes="Seat 1 · Dragon 7, stake_10_player")
    assert escape(said) in refused
    assert not Hand.objects.filter(shoe=shoe).exists()
    saved = client.post(url, data | {"stake_3_panda_8": ""}, **HTMX)  # an empty old box is no bet
    assert saved["Shoebook-Hand-Saved"] == "1"


def test_a_repeated_save_answers_with_the_table_as_it_stands(client, host, seated, shoe):
    client.force_login(host)
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_2_banker="40")
    url = reverse("ledger:hand_record", args=[shoe.pk])
    client.post(url, data, **HTMX)
    record_hands(shoe, 2, host)  # meanwhile, from another device
    again = client.post(url, data, **HTMX)
    assert again["Shoebook-Hand-Saved"] == "1"
    assert 'data-next-hand="4"' in text(again)
    assert Hand.objects.filter(shoe=shoe).count() == 3


def test_seating_works_without_javascript(client, host, shoe, guests):
    client.force_login(host)
    url = reverse("ledger:seat_change", args=[shoe.pk])
    response = client.post(url, {"seat": "3", "guest": str(guests[2].pk)})
    assert response.status_code == 302
    assert "Chie sits in seat 3." in text(client.get(response.url))
    response = client.post(url, {"seat": "3", "guest": ""})
    assert "Seat 3 is free." in text(client.get(response.url))


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("hand_record", {"number": "x", "idempotency_key": "y", "stake_1_player": "1e9999"}),
        ("hand_record", {"number": "1", "idempotency_key": str(uuid.uuid4()), "result": "dragon"}),
        ("hand_record", {"number": "99999999999", "idempotency_key": str(uuid.uuid4())}),
        (
            "hand_record",
            {
                "number": "1",
                "idempotency_key": str(uuid.uuid4()),
                "player_cards": "9" * 500,
                "banker_cards": "♠",
            },
        ),
        ("seat_change", {"seat": "x", "guest": "1"}),
        ("seat_change", {"seat": "9", "guest": "1"}),
        ("seat_change", {"seat": "1", "guest": "abc"}),
        ("hand_undo", {"anything": "at all"}),
    ],
)
def test_garbage_never_causes_a_server_error_or_a_write(client, host, seated, shoe, name, data):
    client.force_login(host)
    for headers in ({}, HTMX):
        response = client.post(reverse(f"ledger:{name}", args=[shoe.pk]), data, **headers)
        assert response.status_code < 500
    assert not Hand.objects.exists()


def test_a_tampered_hand_number_is_reported(client, host, seated, shoe):
    client.force_login(host)
    page = text(
        client.post(
            reverse("ledger:hand_record", args=[shoe.pk]),
            {"number": "x", "idempotency_key": str(uuid.uuid4()), "result": "tie"},
            **HTMX,
        )
    )
    assert "Hand number: Enter a whole number." in page


@pytest.mark.parametrize(
    ("taps", "action", "cards", "kept"),
    [
        ("9 J 7 J", {"add": "10"}, ("9 7", "J J 10"), "9 J 7 J 10"),
        ("9 J 7 J 10", {"back": "1"}, ("9 7", "J J"), "9 J 7 J"),
        ("8 9 K K", {"add": "4"}, ("8 K", "9 K"), "8 9 K K"),  # complete: the tap is refused
    ],
)
def test_the_keypad_keeps_the_taps_and_the_core_reads_them(
    client, dealer, shoe, taps, action, cards, kept
):
    client.force_login(dealer)
    reading = read_taps(taps.split())
    params = {
        "taps": taps,
        "player_cards": format_cards(reading.player),
        "banker_cards": format_cards(reading.banker),
    } | action
    page = text(client.get(reverse("ledger:deal_helper", args=[shoe.pk]), params))
    assert re.findall(r'name="(?:player|banker)_cards" value="([^"]*)"', page) == list(cards)
    assert f'name="taps" value="{kept}"' in page


def test_a_tap_after_typing_continues_from_the_typed_cards(client, dealer, shoe):
    client.force_login(dealer)
    params = {"taps": "9 J", "player_cards": "9 7", "banker_cards": "J J", "add": "10"}
    page = text(client.get(reverse("ledger:deal_helper", args=[shoe.pk]), params))
    assert re.findall(r'name="(?:player|banker)_cards" value="([^"]*)"', page) == ["9 7", "J J 10"]


def test_the_keypad_refuses_a_card_the_shoe_cannot_hold(client, dealer, make_event, host):
    one_deck = game_services.shoe_start(event=make_event(decks=1), by=host)
    client.force_login(dealer)
    params = {"taps": "K K K K", "player_cards": "K K", "banker_cards": "K K", "add": "K"}
    page = text(client.get(reverse("ledger:deal_helper", args=[one_deck.pk]), params))
    assert "a 1-deck shoe holds only 4" in page
    assert 'name="taps" value="K K K K"' in page


def test_a_tap_never_moves_a_typed_card_to_the_other_side(client, dealer, shoe):
    client.force_login(dealer)
    params = {"taps": "2 5", "player_cards": "2 3 4", "banker_cards": "5", "add": "K"}
    page = text(client.get(reverse("ledger:deal_helper", args=[shoe.pk]), params))
    assert re.findall(r'name="(?:player|banker)_cards" value="([^"]*)"', page) == ["2 3 4", "5"]
    assert MSG_THIRD_CARD_EARLY.format(side="Player") in page.replace("&#x27;", "'")


@pytest.mark.parametrize(("player", "banker"), [("K K K K", "K J"), ("2 3 4", "5"), ("9 X", "")])
def test_saving_impossible_cards_re_renders_the_table(client, host, seated, shoe, player, banker):
    client.force_login(host)
    response = save(client, shoe, player_cards=player, banker_cards=banker)
    assert response.status_code == 200
    assert 'class="errorlist' in text(response)
    assert not Hand.objects.exists()


def test_a_bet_typed_on_a_stale_page_never_goes_to_the_new_guest(
    client, dealer, host, seated, shoe, guests
):
    """The dealer sees Aki in seat 1; the host seats Hana there; the dealer saves."""
    client.force_login(dealer)
    stale = hand_data(shoe, result="player", stake_1_player="100", stake_2_banker="50")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)
    page = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), stale, **HTMX))
    assert MSG_SEAT_CHANGED.format(seat=1, guest="Hana") in page
    assert not Hand.objects.exists()
    assert 'name="stake_1_player" value="100"' in page  # the entry is kept
    seating = re.search(r'name="seating" value="([^"]*)"', page).group(1)
    again = stale | {"seating": seating}
    url = reverse("ledger:hand_record", args=[shoe.pk])
    again_page = text(client.post(url, again, **HTMX))  # as it stands: asked again, not saved
    assert 'data-seat-changed="1"' in again_page
    assert not Hand.objects.exists()
    chosen = again | {"seat_choice_1": f"move:{guests[7].pk}"}
    assert client.post(url, chosen, **HTMX).status_code == 200
    assert Bet.objects.get(seat=1).guest == guests[7]  # saved deliberately, for Hana


def attributes(page: str, marker: str) -> dict[str, str]:
    """The attributes of the first element of ``page`` carrying ``marker``."""
    tag = re.search(r"<[a-z]+ [^>]*" + re.escape(marker) + r"[^>]*>", page)
    assert tag, marker
    return dict(re.findall(r'([\w-]+)="([^"]*)"', tag.group(0)))


def test_a_refusal_for_a_changed_seat_says_the_bet_who_made_it_and_who_sits_there_now(
    client, dealer, host, seated, shoe, guests
):
    """Phone A saw Aki in seat 1 and bet 100 on Player; phone B seats Hana there."""
    client.force_login(dealer)
    stale = hand_data(shoe, result="player", stake_1_player="100", stake_2_banker="50")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)
    page = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), stale, **HTMX))
    seat = attributes(page, 'data-seat-changed="1"')
    assert (seat["data-was"], seat["data-was-id"]) == ("Aki", str(seated[1].pk))
    assert (seat["data-now"], seat["data-now-id"]) == ("Hana", str(guests[7].pk))
    placed = attributes(page, "data-seat-bet=")
    assert placed["data-seat-bet"] == "stake_1_player"
    assert (placed["data-kind"], placed["data-stake"]) == ("Player", "100")
    assert "Player 100 was bet by Aki." in page  # and in words
    assert 'data-seat-changed="2"' not in page  # seat 2 kept its guest
    assert f'name="seat_choice_1" value="move:{guests[7].pk}"' in page
    assert 'name="seat_choice_1" value="drop"' in page
    # The form keeps the seats the bets were made with, not the seats as they are now.
    seating = re.search(r'name="seating" value="([^"]*)"', page).group(1)
    assert f"1:{seated[1].pk}" in seating.split()


def test_a_dropped_seat_saves_the_hand_without_its_bet(client, dealer, host, seated, shoe, guests):
    client.force_login(dealer)
    stale = hand_data(shoe, result="player", stake_1_player="100", stake_2_banker="50")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)
    url = reverse("ledger:hand_record", args=[shoe.pk])
    client.post(url, stale, **HTMX)
    response = client.post(url, stale | {"seat_choice_1": "drop"}, **HTMX)
    assert response["Shoebook-Hand-Saved"] == "1"
    assert list(Bet.objects.values_list("seat", "guest")) == [(2, seated[2].pk)]


def test_a_bet_given_to_a_guest_who_left_meanwhile_is_refused_again(
    client, dealer, host, seated, shoe, guests
):
    """The host chose "Hana's", but by then Kei sits in seat 1: asked again, about Kei."""
    client.force_login(dealer)
    stale = hand_data(shoe, result="player", stake_1_player="100")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[6], by=host)
    url = reverse("ledger:hand_record", args=[shoe.pk])
    page = text(client.post(url, stale | {"seat_choice_1": f"move:{guests[7].pk}"}, **HTMX))
    assert attributes(page, 'data-seat-changed="1"')["data-now"] == guests[6].name
    assert not Hand.objects.exists()


def test_a_hand_refused_as_taken_shows_the_hand_recorded_under_its_number(
    client, host, dealer, seated, shoe
):
    client.force_login(dealer)
    stale = hand_data(shoe, result="banker", stake_3_banker="40")
    hand_services.record_hand(
        shoe=shoe, entry=entry("9 7", "J J 10", [bet(1, "player", 10)]), number=1, by=host
    )
    page = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), stale, **HTMX))
    taken = re.search(r'data-taken-hand="1">(.*?)</li>', page, re.S).group(1)
    assert "Player wins" in taken and "9 7" in taken and "J J 10" in taken
    assert "Seat 1 Player 10 (Aki)" in " ".join(taken.split())


def test_the_table_and_a_saved_answer_carry_when_their_facts_were_read(client, host, seated, shoe):
    client.force_login(host)
    drawn = int(attributes(text(client.get(table_url(shoe))), 'id="table"')["data-facts-at"])
    answer = text(save(client, shoe, result="banker", stake_2_banker="50"))
    saved = int(attributes(answer, "data-saved-hand=")["data-facts-at"])
    assert saved > drawn > 0


def test_a_seat_that_changed_without_a_bet_does_not_stop_the_save(
    client, dealer, host, seated, shoe, guests
):
    client.force_login(dealer)
    stale = hand_data(shoe, result="player", stake_2_banker="50")
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)
    client.post(reverse("ledger:hand_record", args=[shoe.pk]), stale, **HTMX)
    assert Bet.objects.get().guest == seated[2]


def test_a_closed_shoe_says_how_many_hands_it_had_not_the_next_one(
    client, host, seated, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", "12.50")])
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    page = text(client.get(table_url(shoe)))
    assert "1 hand" in page and "/ 40" not in page
    assert 'rel="icon"' in page  # a favicon on every page


def test_repeated_stakes_keep_their_cents_only_when_they_have_some(
    client, host, seated, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", "12.50"), bet(2, "player", "20.00")])
    page = text(client.get(table_url(shoe) + "?repeat=1", **HTMX))
    assert 'name="stake_1_player" value="12.50"' in page
    assert 'name="stake_2_player" value="20"' in page


# --- undo puts the hand back into the entry ------------------------------------------------


def undo_url(shoe) -> str:
    return reverse("ledger:hand_undo", args=[shoe.pk])


def money_of(shoe) -> list[tuple[int, int, str, D, D, D]]:
    return sorted(
        Bet.objects.filter(hand__shoe=shoe).values_list(
            "hand__number", "seat", "bet_type", "stake", "commission", "net"
        )
    )


def test_undo_puts_the_cards_and_bets_back_and_saving_records_the_same_hand(
    client, dealer, seated, shoe, record
):
    client.force_login(dealer)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(
        shoe,
        "2 3 4",
        "J J 5",
        [bet(1, "player", 100), bet(2, "banker", "12.50"), bet(3, "tie", 10)],
    )
    key, money = Hand.objects.get(number=2).idempotency_key, money_of(shoe)
    page = text(client.post(undo_url(shoe), **HTMX))
    assert "<html" not in page  # the partial, in place
    assert MSG_HAND_UNDONE.format(number=2) in page
    refilled = form_data(page)
    assert refilled["number"] == "2" and refilled["idempotency_key"] != str(key)
    assert (refilled["player_cards"], refilled["banker_cards"]) == ("2 3 4", "J J 5")
    assert refilled["taps"] == "2 J 3 J 4 5"  # the keypad's taps, in deal order
    assert "result" not in refilled  # the cards say who won
    stakes = {name: value for name, value in refilled.items() if name.startswith("stake_")}
    assert {name: value for name, value in stakes.items() if value} == {
        "stake_1_player": "100",
        "stake_2_banker": "12.50",
        "stake_3_tie": "10",
    }
    assert "Save hand 2" in page
    saved = text(client.post(reverse("ledger:hand_record", args=[shoe.pk]), refilled, **HTMX))
    assert "Hand 2 saved" in saved
    assert money_of(shoe) == money
    assert Hand.objects.get(number=2).idempotency_key == uuid.UUID(refilled["idempotency_key"])


def test_an_undo_posted_again_with_its_key_puts_back_the_same_hand_and_undoes_no_other(
    client, dealer, seated, shoe, record
):
    client.force_login(dealer)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    record(shoe, "8 K", "9 K", [bet(2, "banker", 40)])
    posted = {"number": "2", "idempotency_key": str(uuid.uuid4())}
    first = form_data(text(client.post(undo_url(shoe), posted, **HTMX)))
    again = form_data(text(client.post(undo_url(shoe), posted, **HTMX)))  # the answer was lost
    assert (again["player_cards"], again["stake_2_banker"]) == ("8 K", "40")
    assert again["player_cards"] == first["player_cards"]
    assert list(shoe.hands.values_list("number", flat=True)) == [1]
    unreadable = text(client.post(undo_url(shoe), {"number": "1", "idempotency_key": "x"}, **HTMX))
    assert escape(str(MSG_UNDO_KEY_UNREADABLE)) in unreadable
    assert list(shoe.hands.values_list("number", flat=True)) == [1]


def test_without_javascript_undo_redirects_to_the_refilled_entry(
    client, host, seated, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10")
    record(
        shoe,
        bets=[bet(4, "banker", 40), bet(5, "player_pair", 10)],
        result="banker",
        player_pair=True,
        banker_pair=False,
    )
    money = money_of(shoe)
    response = client.post(undo_url(shoe))
    revision = HandRevision.objects.get(kind=HandRevision.Kind.UNDO)
    assert response.status_code == 302
    assert response.url == f"{table_url(shoe)}?refill={revision.pk}"
    page = text(client.get(response.url))
    assert "<html" in page and MSG_HAND_UNDONE.format(number=2) in page
    refilled = form_data(page)
    assert refilled["number"] == "2"
    assert (refilled["player_cards"], refilled["banker_cards"], refilled["taps"]) == ("", "", "")
    assert refilled["result"] == "banker" and refilled["player_pair"] == "on"
    assert "banker_pair" not in refilled
    assert (refilled["stake_4_banker"], refilled["stake_5_player_pair"]) == ("40", "10")
    saved = client.post(reverse("ledger:hand_record", args=[shoe.pk]), refilled, follow=True)
    assert "Hand 2 saved" in text(saved)
    hand = Hand.objects.get(number=2)
    assert (hand.winner, hand.player_pair, hand.banker_pair) == ("banker", True, False)
    assert money_of(shoe) == money


def test_a_bet_goes_back_to_its_seat_and_the_notice_says_who_sits_there_now(
    client, host, seated, guests, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 50)])
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[7], by=host)  # Hana, from hand 2
    hand_services.seat_clear(shoe=shoe, seat=2, by=host)
    page = text(client.post(undo_url(shoe), **HTMX))
    assert MSG_REFILL_SEAT_CHANGED.format(seat=1, guest="Hana", was="Aki") in page
    assert MSG_REFILL_SEAT_EMPTY.format(seat=2, was="Ben") in page
    refilled = form_data(page)
    assert refilled["stake_1_player"] == "100"  # in seat 1's box, for whoever sits there now
    assert "stake_2_banker" not in refilled  # an empty seat has no box


def test_a_refill_is_for_this_shoe_and_only_while_its_hand_is_next(
    client, host, seated, shoe, record, make_event
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    hand_services.hand_undo(shoe=shoe, by=host)
    revision = HandRevision.objects.get()
    other = game_services.shoe_start(event=make_event(name="Other night"), by=host)
    assert client.get(f"{table_url(other)}?refill={revision.pk}").status_code == 404
    for garbage in ("x", "", "99999999999999999999999", str(revision.pk + 1)):
        assert client.get(f"{table_url(shoe)}?refill={garbage}").status_code == 404
    record(shoe, "8 K", "9 K")  # hand 1 logged again: the undone one is history
    page = text(client.get(f"{table_url(shoe)}?refill={revision.pk}"))
    assert MSG_REFILL_STALE.format(number=1) in page
    assert form_data(page)["number"] == "2" and not form_data(page)["stake_1_player"]


# --- closing and reopening a shoe -----------------------------------------------------------


def close_url(shoe) -> str:
    return reverse("ledger:shoe_close", args=[shoe.pk])


def test_closing_a_shoe_asks_first_and_names_what_is_still_going_on(
    client, host, seated, shoe, record
):
    client.force_login(host)
    record(shoe, "9 7", "J J 10")
    record(shoe, "8 K", "9 K")
    table = text(client.get(table_url(shoe)))
    assert f'<a class="button secondary" href="{close_url(shoe)}">Close shoe</a>' in table
    assert f'action="{close_url(shoe)}"' not in table  # a link to the question, not a close
    page = text(client.get(close_url(shoe)))
    assert "Close shoe 1?" in page
    assert "Shoe 1 has 2 of 40 planned hands." in page
    assert "7 guests are still seated: Aki, Ben, Chie, Daisuke, Emi, Fumio, Goro." in page
    assert f'<form method="post" action="{close_url(shoe)}"' in page
    assert f'href="{table_url(shoe)}">Cancel</a>' in page
    shoe.refresh_from_db()
    assert shoe.is_open  # asking closes nothing
    response = client.post(close_url(shoe))
    assert response.url == reverse("ledger:event_detail", args=[shoe.event_id])
    shoe.refresh_from_db()
    assert not shoe.is_open
    assert MSG_SHOE_CLOSED.format(number=1) in text(client.get(response.url))
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SHOE_CLOSED, by=host).count() == 1
    assert client.get(close_url(shoe)).url == table_url(shoe)  # nothing left to ask


def test_the_reminder_at_the_planned_hands_links_to_the_question(
    client, host, seated, make_event, record
):
    client.force_login(host)
    shoe = game_services.shoe_start(event=make_event(hands_per_shoe=1), by=host)
    page = text(client.get(close_url(shoe)))
    assert "Shoe 1 has 0 of 1 planned hand." in page and "Nobody is seated." in page
    record(shoe, "9 7", "J J 10")
    table = text(client.get(table_url(shoe)))
    assert f'<a class="button secondary" href="{close_url(shoe)}">Close shoe 1</a>' in table


def test_the_host_reopens_a_closed_shoe_from_its_table(client, host, seated, shoe, record):
    client.force_login(host)
    record(shoe, "9 7", "J J 10")
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    reopen = reverse("ledger:shoe_reopen", args=[shoe.pk])
    page = text(client.get(table_url(shoe)))
    assert f'action="{reopen}"' in page and "Reopen shoe 1" in page
    response = client.post(reopen, follow=True)
    assert MSG_SHOE_REOPENED.format(number=1) in text(response)
    assert "Save hand 2" in text(response)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.SHOE_REOPENED, by=host).exists()
    refused = text(client.post(reopen, follow=True))
    assert game_services.MSG_SHOE_NOT_CLOSED.format(number=1) in refused


def test_reopening_a_shoe_of_a_closed_event_asks_for_the_event_first(client, host, shoe):
    client.force_login(host)
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    game_services.mark_event_closed(event=shoe.event, by=host)
    reopen = reverse("ledger:shoe_reopen", args=[shoe.pk])
    assert f'action="{reopen}"' not in text(client.get(table_url(shoe)))
    refused = text(client.post(reopen, follow=True))
    assert game_services.MSG_REOPEN_EVENT_FIRST.format(number=1) in refused
    shoe.refresh_from_db()
    assert not shoe.is_open


def test_only_a_host_asks_closes_or_reopens_a_shoe(client, dealer, outsider, host, shoe):
    reopen = reverse("ledger:shoe_reopen", args=[shoe.pk])
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.get(close_url(shoe)).status_code == 403
        assert client.post(close_url(shoe)).status_code == 403
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    client.force_login(dealer)
    assert f'action="{reopen}"' not in text(client.get(table_url(shoe)))
    for user in (dealer, outsider):
        client.force_login(user)
        assert client.post(reopen).status_code == 403
    shoe.refresh_from_db()
    assert not shoe.is_open
    assert not AuditEntry.objects.exists()


def test_closing_a_shoe_played_past_its_plan_says_how_far_past(client, host, seated, shoe, record):
    # Not "Shoe 1 has 3 of 2 planned hands".
    type(shoe.event).objects.filter(pk=shoe.event_id).update(hands_per_shoe=2)
    for _ in range(3):
        record(shoe, "9 7", "J J 10", [])
    client.force_login(host)
    page = client.get(reverse("ledger:shoe_close", args=[shoe.pk])).content.decode()
    assert "Shoe 1 has 3 hands: 1 past the 2 planned." in page
    assert "of 2 planned" not in page


def _keypad_rules(page: str) -> dict:
    return json.loads(re.search(r'id="keypad-rules"[^>]*>(.*?)</script>', page, re.S)[1])


def test_the_page_gives_the_phone_the_limits_in_the_servers_words(client, host, seated, shoe):
    """What the phone checks before Save moves a hand on: the limits, and the messages the
    server refuses with, filled in but for the stake (static/js/table_state.js fills it)."""
    client.force_login(host)
    limits = _keypad_rules(text(client.get(table_url(shoe))))["limits"]
    bounds = (limits["min"], limits["max"], limits["unit"], limits["stacks"])
    assert bounds == (1000, 100000, None, None)  # in cents; a cash table: no unit, no stacks
    texts = limits["texts"]
    refused = save(client, shoe, result="banker", stake_2_banker="1500")
    server_says = on_seat(2, "Banker", MSG_OVER_MAXIMUM, stake="1,500", maximum="1,000")
    assert escape(server_says) in text(refused)
    phone_says = texts["on_seat"].format(
        seat=2, bet=limits["bets"]["banker"], problem=texts["over_maximum"].format(stake="1,500")
    )
    assert phone_says == server_says
    assert texts["under_minimum"] == MSG_UNDER_MINIMUM.format(stake="{stake}", minimum="10")
    assert set(limits["bets"]) == {bet.value for bet in shoe.event.rule_set.offered_bets}


def test_the_board_says_how_the_table_stands_for_a_phone_told_of_another_phones_hand(
    client, host, dealer, seated, shoe, guests
):
    """A push (another phone's hand, seat change) makes the page ask for the board: it carries
    the next hand, the seats and what Repeat fills in, with when they were read."""
    hand_services.record_hand(
        shoe=shoe,
        entry=entry("9 7", "J J 10", [bet(1, "player", 10), bet(2, "banker", 25)]),
        number=1,
        by=host,
    )
    hand_services.seat_guest(shoe=shoe, seat=2, guest=guests[7], by=host)  # Bo leaves
    client.force_login(dealer)
    board = text(client.get(table_url(shoe) + "?part=board", **HTMX))
    facts = attributes(board, 'id="table-facts"')
    assert (facts["data-next-hand"], facts["data-last-hand"]) == ("2", "1")
    assert f"1:{seated[1].pk}" in facts["data-seating"].split()
    assert f"2:{guests[7].pk}" in facts["data-seating"].split()
    assert int(facts["data-facts-at"]) > 0
    repeat = json.loads(re.search(r'id="board-repeat-stakes"[^>]*>(.*?)</script>', board).group(1))
    assert repeat == {"stake_1_player": "10"}  # Bo's bet does not go to Hana


@pytest.mark.parametrize("box", ["stake_8_player", "stake_9_banker"])
def test_a_stake_on_a_seat_nobody_sits_at_is_refused_not_dropped(client, host, seated, shoe, box):
    client.force_login(host)
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_2_banker="40")
    response = client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), data | {box: "10"}, **HTMX
    )
    assert response.status_code < 500 and "Shoebook-Hand-Saved" not in response
    assert not Hand.objects.filter(shoe=shoe).exists() and not Bet.objects.exists()


@pytest.mark.parametrize(
    "choice",
    [{"seat_choice_①": "move:5"}, {"seat_choice_𝟏": "drop"}, {"seat_choice_1": "move:①"},
     {"seat_choice_1": "move:𝟓"}, {"seat_choice_²": "move:2"}, {"stake_①_player": "10"},
     {"stake_²_banker": "10"}, {"stake_𝟑_tie": "10"}],
)  # fmt: skip
def test_a_seat_choice_in_other_digits_is_refused_not_a_500(client, host, seated, shoe, choice):
    client.force_login(host)
    data = hand_data(shoe, player_cards="8 K", banker_cards="9 K", stake_2_banker="40")
    url = reverse("ledger:hand_record", args=[shoe.pk])
    response = client.post(url, data | choice, **HTMX)
    assert response.status_code < 500
    assert Bet.objects.filter(hand__shoe=shoe).count() <= 1  # saved as typed, or refused
    if Hand.objects.filter(shoe=shoe).exists():
        assert Bet.objects.get(hand__shoe=shoe).guest == seated[2]
