"""The host's screens for a guest-banked night (Chemin de fer, Baccara banque), end to end
through the test client: the event's game and cut, the table taking coups (the bank as the coup
before leaves it, covers, cards, choices only where the rules give one, the banker's move),
refusals in the page with nothing stored, undo, correction, and constant queries."""

from __future__ import annotations

import json
import re
import uuid
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.db.models import Sum
from django.urls import reverse

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.bank import MSG_HELD_BY, MSG_PASSED_TO, MSG_SUITE_IN_TURN, MSG_SUITE_TO
from games.guest_banked.chemin_drawing import MSG_PONTE_MUST_DRAW
from games.guest_banked.chemin_money import (
    MSG_BANKER_AGAINST_HIMSELF,
    MSG_NO_MONEY_OUT,
    MSG_STAKE_EXCEEDS,
)
from games.guest_banked.terms import CoupTerms
from games.messages import RuleError, Text
from games.models import Event, Hand
from games.payouts import RuleSet
from games.services import MSG_CUT_OF_OTHER_GAME, MSG_GAME_AFTER_FIRST_HAND
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.coup_forms import MSG_NEW_BANK
from ledger.hands.selectors import facts_stamp
from ledger.hands.services import MSG_SEAT_CHANGED
from ledger.hands.views.table import MSG_COUP_HELD_REFUSED, MSG_COUP_WAITING
from ledger.models import Bet, Coup
from tests.pages import HTMX, table_url, text

D = Decimal
pytestmark = pytest.mark.django_db

EVENT_FIELDS = {
    "name": "Chemin night",
    "date": "2026-11-27",
    "venue": "",
    "format": "mini",
    "decks": "6",
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
    "game": "chemin_de_fer",
    "taxe": "percent",
    "taxe_rate": "5",
    "shoe_charge": "0",
    "banco": "limitee",
    "clearing": "direct",
}
NAMES = ("Aki", "Ben", "Chie", "Daisuke")


class _CoupFormReader(HTMLParser):
    """A form's fields as a browser posts them: inputs, ticked radios, selects' chosen options."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.select, self.data = form_id, False, None, {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.inside = found.get("id") == self.form_id
        elif not self.inside:
            return
        elif tag == "input" and found.get("name"):
            if found.get("type", "text") not in ("radio", "checkbox"):
                self.data[found["name"]] = found.get("value", "")
            elif "checked" in found:
                self.data[found["name"]] = found.get("value", "on")
        elif tag == "select":
            self.select = found["name"]
            self.data[self.select] = None
        elif (
            tag == "option"
            and self.select
            and (self.data[self.select] is None or "selected" in found)
        ):
            self.data[self.select] = found.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = None


def form_data(page: str, form_id: str) -> dict[str, str]:
    reader = _CoupFormReader(form_id)
    reader.feed(page)
    return reader.data


def beside(page: str, name: str, message: str) -> bool:
    """Whether ``message`` is said beside the box named ``name``: after it, in its row of
    stakes or its part of the form."""
    start = page.index(f'name="{name}"')
    between = page[start : page.index(message, start)]
    return "<fieldset" not in between and "<tr data-seat" not in between


def said(template: str, **params: object) -> str:
    """A core message as the page says it (amounts formatted as the core formats them), with
    the apostrophes escaped as the template escapes them."""
    return RuleError(template, **params).message().replace("'", "&#x27;")


@pytest.fixture
def chemin(client, host):
    """A Chemin de fer night made through the event form, four guests in seats 1–4."""
    client.force_login(host)
    response = client.post(reverse("ledger:event_create"), EVENT_FIELDS)
    assert response.status_code == 302, text(response)
    event = Event.objects.get()
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES, start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return shoe


def page_form(client, shoe) -> dict[str, str]:
    """The coup form as the table page draws it (what a browser would post untouched)."""
    return form_data(text(client.get(table_url(shoe))), "coup-form")


def post_coup(client, shoe, **fields: str):
    """Post the next coup from the table page's own form, with ``fields`` typed in."""
    data = page_form(client, shoe) | fields
    return client.post(reverse("ledger:hand_record", args=[shoe.pk]), data, **HTMX)


def coup_nets(hand: Hand) -> Decimal:
    return Bet.objects.filter(hand=hand).aggregate(total=Sum("net"))["total"]


def test_the_event_form_takes_the_game_its_cut_and_the_rate_in_percent(chemin):
    event = chemin.event
    assert (event.game, event.taxe, event.taxe_rate) == ("chemin_de_fer", "percent", D("0.05"))
    assert (event.banco, event.clearing) == ("limitee", "direct")


def test_the_edit_form_shows_the_rate_in_percent(client, chemin):
    page = text(client.get(reverse("ledger:event_edit", args=[chemin.event_id])))
    assert 'name="taxe_rate" value="5"' in page
    assert '<option value="chemin_de_fer" selected>Chemin de fer</option>' in page


def test_a_cut_of_the_other_game_is_refused_in_words(client, host):
    client.force_login(host)
    fields = EVENT_FIELDS | {"game": "baccara_banque", "taxe": "percent"}
    page = text(client.post(reverse("ledger:event_create"), fields))
    labels = dict(Event.Cut.choices)
    message = MSG_CUT_OF_OTHER_GAME.format(
        game="Baccara banque",
        cut=labels["percent"],
        first=labels["capital"],
        second=labels["winnings"],
    )
    assert message.replace("'", "&#x27;") in page
    assert not Event.objects.exists()


def test_the_game_of_an_event_with_hands_is_refused_with_the_reason(client, host, chemin):
    post_coup(client, chemin, bank="100", stake_2="100", result="banker")
    assert Hand.objects.count() == 1
    url = reverse("ledger:event_edit", args=[chemin.event_id])
    page = text(client.post(url, EVENT_FIELDS | {"game": "punto_banco", "name": "Renamed"}))
    assert MSG_GAME_AFTER_FIRST_HAND.format(game="Chemin de fer") in page
    chemin.event.refresh_from_db()
    assert (chemin.event.game, chemin.event.name) == ("chemin_de_fer", "Chemin night")


def test_passing_a_winning_bank_offers_it_in_turn_and_a_loss_goes_on_from_its_holder(
    client, chemin
):
    page = text(client.get(table_url(chemin)))
    assert 'value="pass"' not in page  # a lost bank passes of itself
    assert "Passes the bank (suite)" in page
    # Seat 1 wins and passes the bank; nobody takes it: seat 2, next in turn, at the minimum.
    post_coup(client, chemin, bank="100", stake_2="100", result="banker", move="pass")
    first = Coup.objects.get(hand__number=1)
    assert (first.move, first.suite_way, first.suite_seat) == ("suite", "next_in_turn", 2)
    page = text(client.get(table_url(chemin)))
    assert said(MSG_SUITE_IN_TURN, giver=1, seat=2, amount=D(10)) in page
    assert "took the suite" not in page
    form = page_form(client, chemin)
    assert (form["banker_seat"], form["bank"]) == ("2", "10")
    # Seat 2's bank came in turn: it loses and goes on to seat 3, not back to seat 2.
    post_coup(client, chemin, stake_3="10", result="player")
    page = text(client.get(table_url(chemin)))
    assert said(MSG_PASSED_TO, banker=2, seat=3, rotation=2) in page
    assert page_form(client, chemin)["banker_seat"] == "3"


def test_a_chemin_night_banco_solo_then_a_suite_then_a_pass(client, chemin):
    # Coup 1: the first seat banks (at the croupier's right) and sets the bank; seat 2 calls
    # banco solo and loses to the banker's natural 9.
    form = page_form(client, chemin)
    assert form["banker_seat"] == "1" and form["bank"] == ""
    post_coup(
        client,
        chemin,
        bank="100",
        stake_2="100",
        kind_2="banco_solo",
        player_cards="10 6",
        banker_cards="9 K",
    )
    first = Coup.objects.get(hand__number=1)
    assert (first.banker_seat, first.bank, first.covered) == (1, D(100), D(100))
    assert (first.move, first.house_cut, first.bank_after) == ("keep", D(5), D(195))
    assert (first.holder_seat, first.suivi_seat) == (2, 2)
    cover = Bet.objects.get(hand=first.hand, bet_type="cover")
    assert (cover.seat, cover.cover_kind, cover.stake, cover.net) == (2, "banco_solo", 100, -100)
    bank = Bet.objects.get(hand=first.hand, bet_type="bank")
    assert (bank.seat, bank.stake, bank.commission, bank.net) == (1, D(100), D(5), D(95))
    assert coup_nets(first.hand) == -first.house_cut  # zero-sum with the house

    # Coup 2: the bank kept plays on with all it holds; seat 2 may call suivi, nobody else.
    page = text(client.get(table_url(chemin)))
    assert page.count('value="suivi"') == 1
    form = page_form(client, chemin)
    assert (form["banker_seat"], form["bank"]) == ("1", "195")
    # Two covers fill the bank; the ponte stands on 5; the banker wins and gives a suite,
    # taken by seat 3 at what the bank holds.
    post_coup(
        client,
        chemin,
        stake_3="95",
        stake_4="100",
        player_cards="2 3",
        ponte_choice="stand",
        banker_cards="10 7",
        move="suite",
        suite_seat="3",
    )
    second = Coup.objects.get(hand__number=2)
    assert (second.ponte_choice, second.holder_seat, second.covered) == ("stand", 4, D(195))
    assert (second.house_cut, second.bank_after) == (D("9.75"), D("380.25"))
    assert (second.move, second.suite_seat, second.suite_amount) == ("suite", 3, D("380.25"))
    assert coup_nets(second.hand) == D("-9.75")

    # Coup 3: the suite's taker banks at its amount; the pontes win and the bank passes.
    page = text(client.get(table_url(chemin)))
    assert Text(MSG_SUITE_TO, giver=1, seat=3, amount=D("380.25")).message() in page
    form = page_form(client, chemin)
    assert (form["banker_seat"], form["bank"]) == ("3", "380.25")
    post_coup(client, chemin, stake_4="100", stake_1="50", player_cards="9 K", banker_cards="2 3")
    third = Coup.objects.get(hand__number=3)
    assert (third.move, third.covered, third.bank_after, third.house_cut) == (
        "pass",
        D(150),
        D(0),
        D(0),
    )
    assert sorted(Bet.objects.filter(hand=third.hand).values_list("seat", "net")) == [
        (1, D(50)),
        (3, D(-150)),
        (4, D(100)),
    ]

    # The bank passes to the right of the banker who gave the suite (seat 1): seat 2.
    page = text(client.get(table_url(chemin)))
    assert Text(MSG_PASSED_TO, banker=3, seat=2, rotation=1).message() in page
    assert page_form(client, chemin)["banker_seat"] == "2"
    total = Bet.objects.filter(event=chemin.event).aggregate(total=Sum("net"))["total"]
    assert total == -Coup.objects.aggregate(cut=Sum("house_cut"))["cut"] == D("-14.75")


@pytest.mark.parametrize(
    ("fields", "where", "message"),
    [
        (
            {"bank": "100", "stake_2": "150", "result": "banker"},
            "stake_2",
            said(MSG_STAKE_EXCEEDS, guest="Ben", amount=D(150), left=D(100)),
        ),
        (
            {"bank": "100", "stake_1": "50", "stake_2": "50", "result": "banker"},
            "stake_1",
            said(MSG_BANKER_AGAINST_HIMSELF, guest="Aki"),
        ),
        (
            {
                "bank": "100",
                "stake_2": "100",
                "player_cards": "2 2",
                "banker_cards": "10 7",
                "ponte_choice": "draw",
            },
            "player_cards",
            said(MSG_PONTE_MUST_DRAW, total=4),
        ),
        (
            {"bank": "100", "stake_2": "100", "result": "banker", "move": "keep", "taken": "50"},
            "taken",
            said(MSG_NO_MONEY_OUT, amount=D(50)),
        ),
    ],
    ids=["cover-over-bank", "banker-stakes", "choice-without-one", "money-out-while-kept"],
)
def test_bad_input_is_refused_beside_its_box_and_nothing_is_stored(
    client, chemin, fields, where, message
):
    response = post_coup(client, chemin, **fields)
    assert response.status_code == 200
    page = text(response)
    assert beside(page, where, message)
    assert not Hand.objects.exists() and not Bet.objects.exists() and not Coup.objects.exists()
    assert form_data(page, "coup-form")["bank"] == "100"  # what was typed stays
    # Beside Save too, where the dealer looks on a phone: the coup was not saved, and why.
    bar = page[page.index('class="entry-bar"') :]
    assert "Not saved: " in bar[: bar.index("</p>")]


@pytest.mark.parametrize(
    ("cards", "offered"),
    [
        ({"player_cards": "2 3", "banker_cards": "10 7"}, ["ponte_choice"]),  # ponte on 5
        ({"player_cards": "2 2", "banker_cards": "10 7"}, []),  # ponte on 4 draws
        ({"player_cards": "2 2 9", "banker_cards": "2 A"}, ["banker_choice"]),  # 3 against a 9
        (
            {"player_cards": "2 3", "banker_cards": "2 3", "ponte_choice": "draw"},
            ["ponte_choice"],
        ),  # the banker's turn comes with the ponte's third card
        (
            {"player_cards": "2 3 4", "banker_cards": "2 3", "ponte_choice": "draw"},
            ["ponte_choice", "banker_choice"],
        ),  # 5 against a 4, after the ponte's choice
        ({"player_cards": "9 K", "banker_cards": "2 3"}, []),  # a natural ends it
    ],
)
def test_the_choice_buttons_appear_only_where_the_rules_give_one(client, chemin, cards, offered):
    page = text(client.get(reverse("ledger:coup_step", args=[chemin.pk]), cards, **HTMX))
    shown = [name for name in ("ponte_choice", "banker_choice") if f'name="{name}"' in page]
    assert shown == offered


def test_the_table_page_offers_the_choice_for_the_cards_typed(client, chemin):
    five = text(
        post_coup(
            client, chemin, bank="100", stake_2="100", player_cards="2 3", banker_cards="10 7"
        )
    )
    assert 'name="ponte_choice" value="draw"' in five and not Hand.objects.exists()
    four = text(
        post_coup(
            client, chemin, bank="100", stake_2="100", player_cards="2 2", banker_cards="10 7"
        )
    )
    assert 'name="ponte_choice"' not in four


def test_undo_puts_the_coup_back_in_the_entry(client, chemin):
    post_coup(
        client,
        chemin,
        bank="100",
        stake_2="40",
        stake_3="60",
        kind_3="ordinary",
        player_cards="2 3 4",
        ponte_choice="draw",
        banker_cards="10 7",
    )
    assert Hand.objects.count() == 1
    page = text(client.post(reverse("ledger:hand_undo", args=[chemin.pk]), **HTMX))
    assert not Hand.objects.exists() and not Coup.objects.exists()
    refilled = form_data(page, "coup-form")
    assert (refilled["banker_seat"], refilled["bank"]) == ("1", "100")
    assert (refilled["stake_2"], refilled["stake_3"]) == ("40", "60")
    assert (refilled["player_cards"], refilled["ponte_choice"]) == ("2 3 4", "draw")
    client.post(reverse("ledger:hand_record", args=[chemin.pk]), refilled, **HTMX)
    assert Coup.objects.get().ponte_choice == "draw"


def test_the_coup_s_page_shows_it_and_corrects_it(client, chemin):
    post_coup(
        client,
        chemin,
        bank="100",
        stake_2="100",
        kind_2="banco_solo",
        player_cards="10 6",
        banker_cards="9 K",
    )
    hand = Hand.objects.get()
    url = reverse("ledger:hand_detail", args=[hand.pk])
    page = text(client.get(url))
    assert "Seat 1 · Aki" in page and "Banco solo" in page
    assert "100 before the coup (100 covered), 195 after it" in page
    assert "Keeps the bank" in page
    boxes = form_data(page, "coup-correction")
    assert (boxes["banker_seat"], boxes["bank"], boxes["stake_2"], boxes["kind_2"]) == (
        "1",
        "100",
        "100",
        "banco_solo",
    )
    assert boxes["move"] == ""  # kept after a win: what the result alone makes it
    corrected = boxes | {"banker_cards": "3 K 2", "reason": "the banker had 3, not 9"}
    response = client.post(url, corrected)
    assert response.status_code == 302, text(response)
    coup = Coup.objects.get()
    hand.refresh_from_db()
    assert (coup.move, coup.bank_after, hand.winner, hand.version) == ("pass", D(0), "player", 2)
    assert sorted(Bet.objects.values_list("seat", "net")) == [(1, D(-100)), (2, D(100))]
    history = text(client.get(url))
    assert "Seat 1 · Aki banks 100 (195 after)." in history  # the version before
    assert "Ben: Cover · Banco solo 100 (−100)" in history


def test_a_dealer_sees_the_coup_but_does_not_correct_it(client, dealer, chemin):
    post_coup(
        client,
        chemin,
        bank="100",
        stake_2="60",
        stake_3="40",
        player_cards="2 3",
        ponte_choice="stand",
        banker_cards="10 7",
    )
    client.force_login(dealer)
    page = text(client.get(reverse("ledger:hand_detail", args=[Hand.objects.get().pk])))
    assert "The coup" in page and "Cards held by" in page and "Seat 2 · Ben" in page
    assert "Ponte: Stand." in page
    assert 'id="coup-correction"' not in page


def test_banco_double_shares_the_bank_and_stays_while_it_is_kept(client, chemin):
    post_coup(
        client,
        chemin,
        bank="200",
        co_banker_seat="2",
        stake_3="200",
        kind_3="banco_solo",
        result="banker",
    )
    coup = Coup.objects.get()
    assert (coup.banker_seat, coup.co_banker_seat, coup.bank_after) == (1, 2, D(390))
    assert sorted(Bet.objects.filter(bet_type="bank").values_list("seat", "net")) == [
        (1, D(95)),
        (2, D(95)),
    ]
    form = page_form(client, chemin)
    assert (form["banker_seat"], form["co_banker_seat"], form["bank"]) == ("1", "2", "390")


def test_a_banker_s_seat_taken_by_someone_else_meanwhile_is_refused(client, host, chemin):
    data = page_form(client, chemin) | {"bank": "100", "stake_2": "100", "result": "banker"}
    hana = guest_services.event_guest_add(event=chemin.event, name="Hana", by=host)
    hand_services.seat_guest(shoe=chemin, seat=1, guest=hana, by=host)  # Aki, the banker, leaves
    page = text(client.post(reverse("ledger:hand_record", args=[chemin.pk]), data, **HTMX))
    assert MSG_SEAT_CHANGED.format(seat=1, guest="Hana") in page
    assert not Hand.objects.exists()


def test_baccara_banque_asks_each_tableau_and_a_banker_pulled_apart(client, host, make_event):
    client.force_login(host)
    event = make_event(game="baccara_banque", taxe="capital")
    shoe = game_services.shoe_start(event=event, by=host)
    url = reverse("ledger:coup_step", args=[shoe.pk])
    five = text(
        client.get(url, {"player_cards": "2 3", "second_cards": "10 6", "banker_cards": "10 7"})
    )
    assert 'name="ponte_choice"' in five and 'name="second_choice"' not in five
    assert "Tableau 1 chooses:" in five
    apart = text(
        client.get(url, {"player_cards": "2 2 6", "second_cards": "10 7", "banker_cards": "10 6"})
    )
    assert 'name="banker_choice"' in apart and 'name="ponte_choice"' not in apart
    done = text(
        client.get(url, {"player_cards": "9 K", "second_cards": "10 7", "banker_cards": "10 6"})
    )
    assert "Tableau 1: Player wins 9–6 (natural)." in done
    assert "Tableau 2: Player wins 7–6." in done


def test_after_the_first_coup_the_clearing_changes_and_the_cut_does_not(client, chemin):
    post_coup(client, chemin, bank="100", stake_2="100", result="banker")
    url = reverse("ledger:event_edit", args=[chemin.event_id])
    client.post(url, EVENT_FIELDS | {"clearing": "house", "taxe": "per_shoe"})
    chemin.event.refresh_from_db()
    assert (chemin.event.clearing, chemin.event.taxe) == ("house", "percent")


def test_a_baccara_banque_coup_on_two_tableaux(client, host):
    client.force_login(host)
    fields = EVENT_FIELDS | {"game": "baccara_banque", "taxe": "capital"}
    client.post(reverse("ledger:event_create"), fields)
    event = Event.objects.get()
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES, start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    # The bank is auctioned: the host says who holds it; a stake without a tableau plays its
    # half of the table's (seat 3, above the banker's seat 2: tableau 2).
    assert page_form(client, shoe)["banker_seat"] == ""
    response = post_coup(
        client,
        shoe,
        banker_seat="2",
        bank="200",
        stake_1="50",
        kind_1="tableau_1",
        stake_3="30",
        kind_3="",
        stake_4="20",
        kind_4="tableau_2",
        result="player",
        second_result="banker",
    )
    assert response.status_code == 200
    coup = Coup.objects.get()
    assert (coup.banker_seat, coup.bank, coup.second_winner) == (2, D(200), "banker")
    assert sorted(Bet.objects.values_list("seat", "bet_type", "net")) == [
        (1, "tableau_1", D(50)),
        (2, "bank", D(-10)),
        (3, "tableau_2", D(-30)),
        (4, "tableau_2", D(-20)),
    ]
    assert coup.house_cut == D(10)  # 5% of the capital brought in
    assert coup_nets(coup.hand) == D(-10)
    again = page_form(client, shoe)
    # Kept, with all it holds: tableau 1's win paid by tableau 2's losses; the taxe on capital
    # is the banker's own.
    assert (again["banker_seat"], again["bank"]) == ("2", "200")
    assert (again["kind_1"], again["kind_3"], again["kind_4"]) == (
        "tableau_1",
        "tableau_2",
        "tableau_2",
    )


def record_coups(shoe, count: int, by) -> None:
    """``count`` coups, each lost by the bank to the seat at its right: the bank goes round."""
    for _ in range(count):
        number = hand_services.next_hand_number(shoe)
        banker = (number - 1) % 4 + 1
        ponte = banker % 4 + 1
        entry = HandEntry(
            result="player",
            bets=(BetEntry(ponte, "banco_solo", "100"),),
            coup=CoupTerms(banker_seat=banker, bank="100"),
        )
        hand_services.record_hand(
            shoe=shoe, number=number, entry=entry, by=by, idempotency_key=uuid.uuid4()
        )


def test_the_table_runs_the_same_queries_with_3_or_30_coups(
    client, host, chemin, django_assert_max_num_queries
):
    record_coups(chemin, 3, host)
    with django_assert_max_num_queries(40) as small:
        client.get(table_url(chemin), **HTMX)
    record_coups(chemin, 27, host)
    with django_assert_max_num_queries(len(small.captured_queries)):
        page = text(client.get(table_url(chemin), **HTMX))
    assert Hand.objects.count() == 30 and 'name="banker_seat"' in page


def test_the_coup_page_runs_the_same_queries_with_3_or_30_coups(
    client, host, chemin, django_assert_max_num_queries
):
    record_coups(chemin, 3, host)
    first = Hand.objects.get(number=2)
    with django_assert_max_num_queries(40) as small:
        client.get(reverse("ledger:hand_detail", args=[first.pk]))
    record_coups(chemin, 27, host)
    later = Hand.objects.get(number=29)
    with django_assert_max_num_queries(len(small.captured_queries)):
        client.get(reverse("ledger:hand_detail", args=[later.pk]))


def test_a_punto_banco_event_keeps_its_table(client, host, make_event):
    client.force_login(host)
    event = make_event(rules=RuleSet())
    shoe = game_services.shoe_start(event=event, by=host)
    page = text(client.get(table_url(shoe)))
    assert 'id="hand-form"' in page and 'id="coup-form"' not in page


def test_a_suite_taker_left_in_a_hidden_box_is_not_read_when_the_bank_passes(client, chemin):
    """The host chose Suite, picked a taker, then chose Passes: the hidden taker is ignored."""
    typed = {"bank": "200", "stake_2": "200", "kind_2": "banco_solo", "result": "player"}
    response = post_coup(client, chemin, **typed, move="pass", suite_seat="3", suite_amount="250")
    assert response.status_code == 200
    coup = Coup.objects.get()
    assert (coup.move, coup.suite_seat, coup.suite_amount) == ("pass", None, None)


# --- the table's script: coups through its outbox ---------------------------------------------


def json_in(page: str, element_id: str) -> object:
    found = re.search(rf'<script id="{element_id}" type="application/json">(.*?)</script>', page)
    assert found, f"no {element_id} in the page"
    return json.loads(found.group(1))


def test_the_coup_page_gives_the_script_the_bank_to_prefill_and_its_words(client, chemin):
    page = text(client.get(table_url(chemin)))
    assert json_in(page, "coup-prefill") == {
        "next": 1,
        "banker_seat": "1",
        "bank": "",
        "co_banker_seat": "",
        "note": str(MSG_NEW_BANK),
    }
    texts = json_in(page, "keypad-rules")["texts"]  # type: ignore[index]
    assert texts["waiting"] == str(MSG_COUP_WAITING)
    assert texts["held_refused"] == str(MSG_COUP_HELD_REFUSED)
    # The script owns the entry: no answer of htmx's redraws the form under the host's fingers.
    assert "hx-post" not in page.split('id="coup-form"')[1].split("</form>")[0]
    assert 'src="/static/js/table.js"' in page or "js/table." in page


def test_a_coup_s_answer_gives_the_next_coup_s_bank_as_data(client, chemin):
    response = post_coup(client, chemin, bank="100", stake_2="100", result="banker")
    assert response.headers["Shoebook-Hand-Saved"] == "1"
    first = Coup.objects.get(hand__number=1)
    assert json_in(text(response), "coup-prefill") == {
        "next": 2,
        "banker_seat": "1",
        "bank": "195",
        "co_banker_seat": "",
        "note": said(MSG_HELD_BY, seat=1),
    }
    assert first.bank_after == D(195)
    # The page's script sends the next coup with that bank, typed before the answer came.
    data = page_form(client, chemin) | {"bank": "", "banker_seat": ""}
    data |= {"banker_seat": "1", "bank": "195", "stake_3": "50", "result": "player"}
    data |= {"idempotency_key": str(uuid.uuid4()), "number": "2"}
    response = client.post(reverse("ledger:hand_record", args=[chemin.pk]), data, **HTMX)
    assert response.headers["Shoebook-Hand-Saved"] == "2"
    assert Coup.objects.get(hand__number=2).bank == D(195)


def test_the_prefill_alone_is_given_to_the_script_after_a_push(client, chemin):
    post_coup(client, chemin, bank="100", stake_2="100", result="player")
    before = facts_stamp()
    response = client.get(table_url(chemin), {"part": "prefill"})
    assert response.headers["Content-Type"] == "application/json"
    prefill = response.json()
    # When the server read it: the script weighs it against the facts a push gave it.
    assert before <= prefill.pop("at") <= facts_stamp()
    assert prefill == {
        "next": 2,
        "banker_seat": "2",
        "bank": "",
        "co_banker_seat": "",
        "note": said(MSG_PASSED_TO, banker=1, seat=2, rotation=1),
    }


def test_the_prefill_of_a_punto_banco_table_is_not_found(client, host, make_event):
    client.force_login(host)
    shoe = game_services.shoe_start(event=make_event(), by=host)
    assert client.get(table_url(shoe), {"part": "prefill"}).status_code == 404


def test_a_repeated_coup_key_is_answered_with_the_coup_recorded(client, chemin):
    data = page_form(client, chemin) | {"bank": "100", "stake_2": "100", "result": "banker"}
    url = reverse("ledger:hand_record", args=[chemin.pk])
    first = client.post(url, data, **HTMX)
    again = client.post(url, data, **HTMX)  # the answer was lost: the outbox sends it again
    assert again.headers["Shoebook-Hand-Saved"] == first.headers["Shoebook-Hand-Saved"] == "1"
    assert "Coup 1 saved" in text(again)
    assert Hand.objects.count() == 1
    # The same key with another coup is refused, nothing recorded.
    changed = client.post(url, data | {"stake_2": "50"}, **HTMX)
    assert "Shoebook-Hand-Saved" not in changed.headers
    assert Hand.objects.count() == 1


def test_a_coup_sent_with_no_bank_is_refused_in_words_and_nothing_is_stored(client, chemin):
    post_coup(client, chemin, bank="100", stake_2="100", result="banker")
    data = page_form(client, chemin) | {"banker_seat": "", "bank": "", "stake_3": "50"}
    response = client.post(
        reverse("ledger:hand_record", args=[chemin.pk]), data | {"result": "player"}, **HTMX
    )
    assert response.status_code == 200
    assert "Shoebook-Hand-Saved" not in response.headers
    assert 'class="errorlist"' in text(response)
    assert Hand.objects.count() == 1


def test_the_prefill_runs_the_same_queries_with_3_or_30_coups(
    client, host, chemin, django_assert_max_num_queries
):
    record_coups(chemin, 3, host)
    with django_assert_max_num_queries(20) as small:
        client.get(table_url(chemin), {"part": "prefill"})
    record_coups(chemin, 27, host)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert client.get(table_url(chemin), {"part": "prefill"}).json()["next"] == 31


@pytest.mark.parametrize(
    "fields",
    [{"stake_10": "50"}, {"stake_0": "50"}, {"kind_10": "ordinary"},
     {"stake_10": "50", "kind_10": "banco_solo"}, {"stake_8": "50"}, {"stake_2x": "50"}],
    ids=["stake-10", "stake-0", "kind-10", "both-10", "stake-8-empty-seat", "not-a-seat"],
)  # fmt: skip
def test_a_stake_for_a_seat_the_table_does_not_have_is_refused_not_dropped(client, chemin, fields):
    response = post_coup(client, chemin, bank="100", stake_2="50", result="banker", **fields)
    assert response.status_code in (200, 400)
    page = text(response)
    assert "Not saved: " in page
    assert not Hand.objects.exists() and not Bet.objects.exists() and not Coup.objects.exists()


def test_the_game_of_a_night_holding_a_transfer_is_refused_with_the_reason(client, host, chemin):
    from django.core.exceptions import ValidationError

    from ledger.models import Guest, Transfer
    from ledger.money import transfers
    from ledger.nights import services as night_services
    from ledger.nights.services import MSG_GAME_WITH_TRANSFERS

    # Ben lost a coup to Aki's bank and paid her; then the coup was undone (a wrong entry):
    # the night has no hand, its game box would open again, and the transfer stays.
    event = chemin.event
    post_coup(client, chemin, bank="100", stake_2="100", result="banker")
    aki, ben = (Guest.objects.get(name=name) for name in NAMES[:2])
    paid = transfers.transfer_record(event=event, payer=ben, payee=aki, amount=D(50), by=host)
    hand_services.hand_undo(shoe=chemin, by=host)
    assert not Hand.objects.exists()
    url = reverse("ledger:event_edit", args=[event.pk])
    page = text(client.get(url))
    assert 'name="game"' in page and "disabled" in page[page.index('name="game"') - 200 :][:400]
    said = MSG_GAME_WITH_TRANSFERS.format(game="Chemin de fer").replace("'", "&#x27;")
    page = text(client.post(url, EVENT_FIELDS | {"game": "punto_banco", "name": "Renamed"}))
    assert said in page
    event.refresh_from_db()
    assert (event.game, event.name) == ("chemin_de_fer", "Chemin night")
    with pytest.raises(ValidationError) as refused:  # the service refuses it too
        night_services.event_edit(event=event, by=host, game="punto_banco")
    assert "game" in refused.value.message_dict
    # The night stays a Chemin de fer night: its transfer is on its page and can be voided.
    assert reverse("ledger:transfer_void", args=[paid.pk]) in text(
        client.get(reverse("ledger:event_detail", args=[event.pk]))
    )
    transfers.transfer_void(transfer=paid, reason="typed twice", by=host)
    assert Transfer.objects.filter(voids=paid).exists()
    # Renaming it is still open.
    night_services.event_edit(event=event, by=host, name="Renamed")


def test_a_seat_the_table_does_not_have_is_named_once_for_its_stake_and_its_kind(client, chemin):
    response = post_coup(client, chemin, bank="100", stake_2="50", result="banker",
                         stake_10="50", kind_10="banco_solo")  # fmt: skip
    assert "(Seat 10)" in text(response)
    assert not Coup.objects.exists()
