"""``check_ledger`` recomputes every invariant from the rows and names each row that breaks one;
``rebuild_results`` recomputes the guests' totals, all or nothing.

Each tampering test breaks one row with raw SQL (money columns hold whole cents), as a bad
migration, a hand-edited database or a bug in a service would, and reads the command's output.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from games import services as game_services
from games.kinds import Game
from games.models import Event, Hand
from games.payouts import RuleSet
from games.rules import Winner
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.integrity import (
    MSG_BET_COMMISSION,
    MSG_BET_COMMISSION_NEGATIVE,
    MSG_BET_EVENT,
    MSG_BET_GROSS,
    MSG_BET_NET,
    MSG_BET_NET_ARITHMETIC,
    MSG_BET_NOT_OFFERED,
    MSG_BET_NOT_SEATED,
    MSG_BET_SEAT,
    MSG_BET_STAKE,
    MSG_BET_TYPE,
    MSG_BET_UNSETTLED,
    MSG_COUP_BET,
    MSG_COUP_BET_EXTRA,
    MSG_COUP_MISSING,
    MSG_COUP_RECORD,
    MSG_COUP_UNSETTLED,
    MSG_EVENT_NOT_ZERO_SUM,
    MSG_GUEST_BALANCE,
    MSG_HAND_BANKER_PAIR,
    MSG_HAND_CARDS,
    MSG_HAND_PLAYER_PAIR,
    MSG_HAND_RESULT,
    MSG_HAND_WINNER,
    MSG_NOT_ON_LIST,
    MSG_RESULT_EXTRA,
    MSG_RESULT_MISSING,
    MSG_RESULT_TOTALS,
    MSG_SEATING_GUEST_OVERLAP,
    MSG_SEATING_SEAT_OVERLAP,
    MSG_SETTLEMENT_LINE,
    BetRow,
    LedgerProblem,
    bet_arithmetic_problems,
    check_ledger,
    missing_result_key,
)
from ledger.models import Bet, Coup, Guest, GuestEventResult, Seating
from ledger.money import services as money_services
from ledger.money.amounts import money_sum
from tests.conftest import bet, entry
from tests.ledger.banked import chemin_night, make_banked, rotating_coups

pytestmark = pytest.mark.django_db

D = Decimal

# Reading the rows in bulk: the same few queries for one hand or a season.
# With the charges (entry fees, prizes) of tournaments, and the coups; balances: one; a
# tournament's rebuys and add-ons (tournaments.integrity, registered): one when there are none.
# The house's net as the pages report it is read from the one source of figures
# (ledger.money.figures: eight queries, six more than its own sums did).
# Four are the tips' and the tab's (ledger.tips.integrity: the tips, the lists they name, the
# settlements; the balances' tips), and three more when a night has tips (their pools).
# Expenses: three for their own checks (the expenses, their shares, the lists they name), two for
# the balances.
QUERIES = 38  # six of them the count's (its rows, the lists they name, count-only nights' hands)
QUERIES_ONE_EVENT = 46  # with the event's settlement list (its settlements and transfers: one sum)
# and its guests' results without hands at other nights (chips and adjustments: two)


@pytest.fixture
def night(event, shoe, seated, guests, record, host):
    """Four hands (one from the result alone), a seat cleared and one taken over, a correction,
    an undo and two settlements: everything that writes money, through the services."""
    aki, ben = guests[0], guests[1]
    first = record(
        shoe,
        "9 7",
        "J J 10",
        [bet(1, "player", 100), bet(2, "banker", 50), bet(3, "banker_pair", 10), bet(4, "tie", 10)],
    )
    record(
        shoe,
        "5 2",
        "K 8",
        [bet(1, "banker", 100), bet(2, "player", 20), bet(5, "banker", 35), bet(7, "banker", 10)],
    )
    hand_services.seat_clear(shoe=shoe, seat=7, by=host)
    hand_services.seat_guest(shoe=shoe, seat=2, guest=guests[7], by=host)  # Hana takes Ben's seat
    record(
        shoe,
        bets=[bet(1, "player", 10), bet(2, "tie", 20), bet(3, "player_pair", 10)],
        result=Winner.TIE,
        player_pair=True,
    )
    record(shoe, "2 3 K", "5 5 9", [bet(1, "banker", 40), bet(2, "player", 30)])
    record(shoe, "K 9", "8 Q", [bet(1, "player", 10)])
    hand_services.hand_undo(shoe=shoe, by=host)
    hand_services.hand_correct(
        hand=first,
        entry=entry(
            "9 7",
            "J J 10",
            [
                bet(1, "player", 200),
                bet(2, "banker", 50),
                bet(3, "banker_pair", 10),
                bet(4, "tie", 10),
            ],
        ),
        reason="Aki had two chips down",
        by=host,
    )
    money_services.settlement_record(guest=aki, event=event, amount=D(-150), method="cash", by=host)
    money_services.settlement_record(guest=ben, event=event, amount=D(20), method="tab", by=host)
    return shoe


def run(*args: str) -> tuple[str, CommandError | None]:
    """``check_ledger``'s output, and its error (``None`` when it exited 0)."""
    out = StringIO()
    try:
        call_command("check_ledger", *args, stdout=out)
    except CommandError as error:
        return out.getvalue(), error
    return out.getvalue(), None


def assert_names(output: str, model: str, pk: object, message: str) -> None:
    lines = output.splitlines()
    assert any(line.startswith(f"{model} {pk}: {message}") for line in lines), output


def assert_broken(*names: tuple[str, object, str], args: tuple[str, ...] = ()) -> str:
    output, error = run(*args)
    assert error is not None, output
    assert error.returncode == 1
    count = len(output.splitlines())
    assert str(error) == (f"{count} problems found." if count > 1 else "1 problem found.")
    for model, pk, message in names:
        assert_names(output, model, pk, message)
    return output


def tamper(sql: str, params: list[object]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def bet_pk(number: int, seat: int, bet_type: str) -> int:
    return Bet.objects.get(hand__number=number, seat=seat, bet_type=bet_type).pk


# --- a clean ledger ---------------------------------------------------------------------------


@pytest.mark.parametrize("one_event", [False, True])
def test_a_night_written_by_the_services_is_clean(night, event, one_event):
    output, error = run(*(["--event", str(event.pk)] if one_event else []))
    assert error is None, output
    assert output == "Ledger OK: 13 bets, 4 hands, 8 guests checked.\n"


def test_the_reference_night_is_clean_in_a_few_queries(demo_night):
    with CaptureQueriesContext(connection) as queries:
        checked = check_ledger()
    assert checked.problems == []
    assert (checked.bets, checked.hands, checked.guests) == (2010, 240, 15)
    assert len(queries) == QUERIES
    output, error = run("--event", str(Event.objects.get().pk))
    assert error is None
    assert output == "Ledger OK: 2010 bets, 240 hands, 15 guests checked.\n"


def test_the_queries_do_not_grow_with_hands_shoes_or_events(
    night, event, guests, host, make_event, record
):
    def count(scope=None) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert check_ledger(scope).ok
        return len(queries)

    assert (count(), count(event)) == (QUERIES, QUERIES_ONE_EVENT)
    game_services.mark_shoe_closed(shoe=night, by=host)
    shoe = game_services.shoe_start(event=event, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[0], by=host)
    for _ in range(5):
        record(shoe, "5 2", "K 8", [bet(1, "banker", 30)])
    saturday = make_event(name="Saturday", date=date(2026, 11, 21))
    guest_services.event_guest_add(event=saturday, name="Aki", by=host)
    other = game_services.shoe_start(event=saturday, by=host)
    hand_services.seat_guest(shoe=other, seat=3, guest=guests[0], by=host)
    record(other, "K 9", "8 Q", [bet(3, "player", 10)])
    money_services.settlement_record(
        guest=guests[0], event=saturday, amount=D(5), method="cash", by=host
    )
    assert (count(), count(event), count(saturday)) == (
        QUERIES,
        QUERIES_ONE_EVENT,
        QUERIES_ONE_EVENT,
    )


def test_an_unknown_event_is_refused(db):
    with pytest.raises(CommandError, match="No event with the id 999"):
        call_command("check_ledger", "--event", "999", stdout=StringIO())


# --- 1. bets against the rules and their hands; hands against the drawing rules -----------


@pytest.mark.parametrize(
    ("number", "seat", "bet_type", "change", "messages"),
    [
        (1, 1, "player", "gross = gross + 500, net = net + 500", [MSG_BET_GROSS, MSG_BET_NET]),
        (2, 1, "banker", "gross = gross + 100, commission = commission + 100",
         [MSG_BET_GROSS, MSG_BET_COMMISSION]),
        (2, 2, "player", "bet_type = 'dragon_7'", [MSG_BET_NOT_OFFERED]),
        (2, 2, "player", "bet_type = 'martingale'", [MSG_BET_TYPE]),
        (2, 2, "player", "stake = 500000", [MSG_BET_STAKE]),
        (2, 2, "player", "stake = 500, gross = -500, net = -500", [MSG_BET_STAKE]),
        (1, 1, "player", "seat = 6", [MSG_BET_NOT_SEATED]),  # Fumio's seat
        (4, 2, "player", "guest_id = (SELECT id FROM ledger_guest WHERE name = 'Ben')",
         [MSG_BET_NOT_SEATED]),  # Ben left seat 2 after hand 2
        (3, 2, "tie", "seat = 7", [MSG_BET_NOT_SEATED]),  # seat 7 was cleared after hand 2
        (1, 1, "player", "seat = 8", [MSG_BET_SEAT, MSG_BET_NOT_SEATED]),  # a cash table has 7
    ],
)  # fmt: skip
def test_a_bet_that_breaks_the_rules_is_named(night, number, seat, bet_type, change, messages):
    pk = bet_pk(number, seat, bet_type)
    tamper(f"UPDATE ledger_bet SET {change} WHERE id = %s", [pk])
    assert_broken(*(("Bet", pk, message) for message in messages))


def test_a_bet_names_its_expected_and_found_figures(night):
    pk = bet_pk(2, 1, "banker")  # $100 on a Banker win: +100, 5% commission
    tamper("UPDATE ledger_bet SET gross = 9000, net = 8500 WHERE id = %s", [pk])
    output = assert_broken()
    assert f"Bet {pk}: {MSG_BET_GROSS} (expected 100.00; found 90.00)" in output.splitlines()
    assert f"Bet {pk}: {MSG_BET_NET} (expected 95.00; found 85.00)" in output.splitlines()


def test_a_bet_filed_under_another_event_is_named(night, make_event):
    saturday = make_event(name="Saturday", date=date(2026, 11, 21))
    pk = bet_pk(1, 2, "banker")
    tamper("UPDATE ledger_bet SET event_id = %s WHERE id = %s", [saturday.pk, pk])
    output = assert_broken(("Bet", pk, MSG_BET_EVENT))
    assert f"(expected event {night.event_id}; found event {saturday.pk})" in output


def test_a_bettor_not_on_the_guest_list_is_named(night):
    stranger = Guest.objects.create(name="Stranger", name_key="stranger")
    pk = bet_pk(1, 1, "player")
    tamper("UPDATE ledger_bet SET guest_id = %s WHERE id = %s", [stranger.pk, pk])
    assert_broken(("Bet", pk, MSG_NOT_ON_LIST), ("Bet", pk, MSG_BET_NOT_SEATED))


def test_a_bet_its_hand_cannot_settle_is_named(make_event, host, record):
    every_side_bet = make_event(name="Dragon night", rules=RuleSet.from_options())
    aki = guest_services.event_guest_add(event=every_side_bet, name="Aki", by=host)
    shoe = game_services.shoe_start(event=every_side_bet, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
    record(shoe, bets=[bet(1, "banker", 10)], result=Winner.BANKER)
    assert run()[1] is None
    pk = Bet.objects.get().pk
    tamper("UPDATE ledger_bet SET bet_type = 'dragon_7' WHERE id = %s", [pk])  # needs cards
    assert_broken(("Bet", pk, MSG_BET_UNSETTLED))


@pytest.mark.parametrize(
    ("number", "change", "params", "message"),
    [
        (1, "banker_cards = 'J J'", [], MSG_HAND_CARDS),  # Banker must draw on 0
        (1, "player_cards = '9 7 X'", [], MSG_HAND_CARDS),  # not a card
        (1, "winner = 'banker'", [], MSG_HAND_WINNER),
        (2, "player_pair = %s", [True], MSG_HAND_PLAYER_PAIR),
        (1, "banker_pair = %s", [False], MSG_HAND_BANKER_PAIR),  # J J is a pair
        (3, "winner = 'dragon'", [], MSG_HAND_RESULT),  # recorded without cards
    ],
)
def test_a_hand_that_breaks_the_drawing_rules_is_named(night, number, change, params, message):
    hand = Hand.objects.get(number=number)
    tamper(f"UPDATE games_hand SET {change} WHERE id = %s", [*params, hand.pk])
    assert_broken(("Hand", hand.pk, message))


def test_a_hand_is_checked_against_the_events_decks(night, record):
    hand = record(night, "9s 9s", "K Q")  # two nines of spades: fine in an 8-deck shoe
    assert run()[1] is None
    tamper("UPDATE games_event SET decks = 1 WHERE id = %s", [night.event_id])
    output = assert_broken(("Hand", hand.pk, MSG_HAND_CARDS))
    assert "9s appears 2 times, but a 1-deck shoe holds only 1" in output


def test_a_hand_with_broken_cards_still_has_its_bets_types_checked(night):
    hand = Hand.objects.get(number=1)
    tamper("UPDATE games_hand SET banker_cards = 'J J' WHERE id = %s", [hand.pk])
    pk = bet_pk(1, 4, "tie")
    tamper("UPDATE ledger_bet SET bet_type = 'panda_8' WHERE id = %s", [pk])
    output = assert_broken(("Hand", hand.pk, MSG_HAND_CARDS), ("Bet", pk, MSG_BET_NOT_OFFERED))
    assert len(output.splitlines()) == 2  # no payout to check the other bets against


def test_a_hand_whose_result_changed_settles_its_bets_the_new_way(night):
    # Hand 3 was recorded from the result alone: a tie, so $10 on Player pushed.
    hand = Hand.objects.get(number=3)
    tamper("UPDATE games_hand SET winner = 'player' WHERE id = %s", [hand.pk])
    pk = bet_pk(3, 1, "player")
    output = assert_broken(("Bet", pk, MSG_BET_GROSS), ("Bet", pk, MSG_BET_NET))
    assert f"Bet {pk}: {MSG_BET_NET} (expected 10.00; found 0.00)" in output


# --- 2. net = gross − commission, commission ≥ 0 ---------------------------------------------


def test_the_database_refuses_a_net_that_is_not_gross_less_commission(night):
    pk = bet_pk(2, 1, "banker")
    for change in ("net = net + 1", "commission = -100, net = gross + 100"):
        with pytest.raises(IntegrityError), transaction.atomic():
            tamper(f"UPDATE ledger_bet SET {change} WHERE id = %s", [pk])


def row(**changes: object) -> BetRow:
    figures = {"stake": D(100), "gross": D(100), "commission": D(5), "net": D(95)}
    fields = {"pk": 7, "hand_id": 1, "event_id": 1, "seat": 1, "guest_id": 1,
              "bet_type": "banker"}  # fmt: skip
    return BetRow(**(fields | figures | changes))


@pytest.mark.parametrize(
    ("bet_row", "problems"),
    [
        (row(), []),
        (row(net=D(100)), [LedgerProblem("Bet", 7, MSG_BET_NET_ARITHMETIC, "95.00", "100.00")]),
        (row(commission=D(-5), net=D(105)),
         [LedgerProblem("Bet", 7, MSG_BET_COMMISSION_NEGATIVE, "0.00 or more", "-5.00")]),
        (row(commission=D(-5)),
         [LedgerProblem("Bet", 7, MSG_BET_NET_ARITHMETIC, "105.00", "95.00"),
          LedgerProblem("Bet", 7, MSG_BET_COMMISSION_NEGATIVE, "0.00 or more", "-5.00")]),
    ],
)  # fmt: skip
def test_a_bets_own_arithmetic(bet_row, problems):
    # The database's check constraints keep these rows out (above), so the check is read alone.
    assert bet_arithmetic_problems(bet_row) == problems


# --- 3, 4, 5. totals per guest and event, zero-sum, balances ---------------------------------


def aki_result(guests) -> GuestEventResult:
    return GuestEventResult.objects.get(guest=guests[0])


def test_totals_that_are_not_the_bets_sums_are_named_with_the_zero_sum_and_the_balance(
    night, event, guests
):
    result = aki_result(guests)
    tamper(
        "UPDATE ledger_guesteventresult SET gross = gross + 500, net = net + 500 WHERE id = %s",
        [result.pk],
    )
    guests_net = Bet.objects.aggregate(net=money_sum("net"))["net"]
    balance = result.net + D(-150)  # Aki's bets, and what the house paid him
    output = assert_broken(
        ("GuestEventResult", result.pk, MSG_RESULT_TOTALS),
        ("Event", event.pk, MSG_EVENT_NOT_ZERO_SUM),
        ("Guest", guests[0].pk, MSG_GUEST_BALANCE),
    )
    lines = output.splitlines()
    assert len(lines) == 3
    assert (
        f"Event {event.pk}: {MSG_EVENT_NOT_ZERO_SUM} (expected house net {-guests_net:.2f} "
        f"against the guests' {guests_net:.2f}; found house net {-guests_net - 5:.2f})"
    ) in lines
    assert (
        f"Guest {guests[0].pk}: {MSG_GUEST_BALANCE} (expected {balance:.2f}; "
        f"found {balance + 5:.2f})"
    ) in lines
    # One event: its settlement list is read too.
    assert_broken(
        ("GuestEventResult", result.pk, MSG_RESULT_TOTALS),
        ("Event", event.pk, MSG_EVENT_NOT_ZERO_SUM),
        ("Guest", guests[0].pk, MSG_GUEST_BALANCE),
        ("Guest", guests[0].pk, MSG_SETTLEMENT_LINE),
        args=("--event", str(event.pk)),
    )


@pytest.mark.parametrize("change", ["hands = hands + 1", "stake = stake + 1000"])
def test_a_wrong_count_or_wager_is_named_alone(night, guests, change):
    result = aki_result(guests)
    tamper(f"UPDATE ledger_guesteventresult SET {change} WHERE id = %s", [result.pk])
    output = assert_broken(("GuestEventResult", result.pk, MSG_RESULT_TOTALS))
    assert len(output.splitlines()) == 1


def test_a_missing_totals_row_is_named(night, event, guests):
    tamper("DELETE FROM ledger_guesteventresult WHERE id = %s", [aki_result(guests).pk])
    key = missing_result_key(guests[0].pk, event.pk)
    assert_broken(
        ("GuestEventResult", key, MSG_RESULT_MISSING),
        ("Event", event.pk, MSG_EVENT_NOT_ZERO_SUM),
        ("Guest", guests[0].pk, MSG_GUEST_BALANCE),
    )


def test_an_extra_totals_row_is_named(night, event, guests):
    fumio = guests[5]  # seated, never bet
    tamper(
        "INSERT INTO ledger_guesteventresult (guest_id, event_id, hands, stake, gross, commission,"
        " net) VALUES (%s, %s, 0, 0, 0, 0, 0)",
        [fumio.pk, event.pk],
    )
    extra = GuestEventResult.objects.get(guest=fumio)
    output = assert_broken(("GuestEventResult", extra.pk, MSG_RESULT_EXTRA))
    assert len(output.splitlines()) == 1


# --- 6. seatings ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "guest_index", "from_hand", "to_hand", "messages"),
    [
        (3, 1, 3, 3, [MSG_SEATING_SEAT_OVERLAP]),  # Ben (free from hand 3) in Chie's seat
        (7, 0, 3, 4, [MSG_SEATING_GUEST_OVERLAP]),  # Aki, still in seat 1, in the free seat 7
        (7, 1, 2, None, [MSG_SEATING_SEAT_OVERLAP, MSG_SEATING_GUEST_OVERLAP]),  # Goro's, Ben's
    ],
)
def test_overlapping_seatings_are_named(
    night, guests, host, seat, guest_index, from_hand, to_hand, messages
):
    # Not through the services, which end one seating where the next begins.
    extra = Seating.objects.create(
        shoe=night,
        seat=seat,
        guest=guests[guest_index],
        from_hand=from_hand,
        to_hand=to_hand,
        seated_by=host,
    )
    output = assert_broken(*(("Seating", extra.pk, message) for message in messages))
    assert len(output.splitlines()) == len(messages)


def test_a_seated_guest_not_on_the_list_is_named(night, host):
    stranger = Guest.objects.create(name="Stranger", name_key="stranger")
    extra = Seating.objects.create(
        shoe=night, seat=7, guest=stranger, from_hand=4, to_hand=4, seated_by=host
    )
    assert_broken(("Seating", extra.pk, MSG_NOT_ON_LIST))


def test_one_event_is_checked_alone(night, event, guests, make_event, host, record):
    saturday = make_event(name="Saturday", date=date(2026, 11, 21))
    guest_services.event_guest_add(event=saturday, name="Aki", by=host)
    shoe = game_services.shoe_start(event=saturday, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guests[0], by=host)
    record(shoe, "K 9", "8 Q", [bet(1, "player", 10)])
    friday_hand = Hand.objects.get(shoe=night, number=1)
    tamper("UPDATE games_hand SET winner = 'banker' WHERE id = %s", [friday_hand.pk])
    output, error = run("--event", str(saturday.pk))
    assert error is None
    assert output == "Ledger OK: 1 bets, 1 hands, 1 guests checked.\n"
    assert_broken(("Hand", friday_hand.pk, MSG_HAND_WINNER), args=("--event", str(event.pk)))
    assert_broken(("Hand", friday_hand.pk, MSG_HAND_WINNER))


# --- rebuild_results --------------------------------------------------------------------------


def test_rebuilding_the_results_mends_wrong_totals(night, guests):
    tamper(
        "UPDATE ledger_guesteventresult SET gross = gross + 500, net = net + 500 WHERE id = %s",
        [aki_result(guests).pk],
    )
    tamper("DELETE FROM ledger_guesteventresult WHERE guest_id = %s", [guests[1].pk])
    assert run()[1] is not None
    out = StringIO()
    call_command("rebuild_results", stdout=out)
    bettors = Bet.objects.values("guest_id").distinct().count()
    assert out.getvalue() == f"Rebuilt the guests' results from the bets: {bettors} rows written.\n"
    assert GuestEventResult.objects.count() == bettors == 7
    output, error = run()
    assert error is None, output


def test_a_rebuild_that_fails_half_way_changes_nothing(night, monkeypatch):
    before = list(GuestEventResult.objects.order_by("pk").values())
    assert before

    def fail(*args, **kwargs):
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(GuestEventResult.objects, "bulk_create", fail)
    with pytest.raises(RuntimeError, match="the disk is full"):
        call_command("rebuild_results", stdout=StringIO())
    monkeypatch.undo()
    assert list(GuestEventResult.objects.order_by("pk").values()) == before


# --- 7. coups settled again from what is stored -----------------------------------------------


@pytest.fixture
def chemin(event, shoe, seated, host):
    """:func:`tests.ledger.banked.chemin_night`: a bank kept, passed, shared, given as a suite
    and retired; a banco solo, a suivi, a choice, an égalité."""
    make_banked(event, Game.CHEMIN_DE_FER)
    chemin_night(shoe, host)
    return shoe


def test_a_clean_chemin_night_passes(chemin, event):
    checked = check_ledger()
    assert checked.problems == []
    assert (checked.bets, checked.hands) == (13, 5)
    assert check_ledger(event).ok


def test_a_tampered_cover_net_is_found(chemin):
    cover = bet_pk(2, 2, "cover")  # Ben's banco solo of 195, won
    tamper("UPDATE ledger_bet SET gross = gross - 1000, net = net - 1000 WHERE id = %s", [cover])
    output = assert_broken(("Bet", cover, MSG_COUP_BET))
    assert "expected Ben (guest" in output and "net 195.00" in output


def test_a_tampered_bank_is_found_on_its_coup_and_its_bank_bet(chemin):
    coup = Coup.objects.get(hand__number=3)  # Ben's bank of 100, won
    tamper("UPDATE ledger_coup SET bank_after = 100000 WHERE id = %s", [coup.pk])
    assert_broken(("Coup", coup.pk, MSG_COUP_RECORD))
    bank = bet_pk(3, 2, "bank")
    tamper("UPDATE ledger_bet SET commission = 0, net = gross WHERE id = %s", [bank])
    assert_broken(("Bet", bank, MSG_COUP_BET))


def test_a_coup_that_no_longer_follows_the_rules_is_found(chemin):
    hand = Hand.objects.get(shoe=chemin, number=2)
    # The ponte stood on 5 as recorded; 3 4 is a 7, and a choice there is none of his.
    tamper("UPDATE games_hand SET player_cards = '3 4' WHERE id = %s", [hand.pk])
    assert_broken(("Hand", hand.pk, MSG_COUP_UNSETTLED))


def test_a_stake_the_coup_never_took_and_a_hand_without_its_coup_are_found(chemin, seated):
    extra = Bet.objects.get(pk=bet_pk(1, 1, "bank"))  # a second bank, in Fumio's seat
    extra.pk, extra.seat, extra.guest = None, 6, seated[6]
    extra.save()
    coup = Coup.objects.get(hand__number=5)
    coup.delete()
    assert_broken(("Bet", extra.pk, MSG_COUP_BET_EXTRA), ("Hand", coup.hand_id, MSG_COUP_MISSING))


def test_the_queries_do_not_grow_with_coups(event, shoe, seated, host):
    make_banked(event, Game.CHEMIN_DE_FER)
    rotating_coups(shoe, host, 3)

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert check_ledger(event).ok
        return len(queries)

    few = count()
    rotating_coups(shoe, host, 27)
    assert count() == few == QUERIES_ONE_EVENT
