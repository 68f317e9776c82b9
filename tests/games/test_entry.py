"""The one pipeline from what a person entered to a settled hand (games.entry)."""

from __future__ import annotations

import random
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import MSG_UNKNOWN_CARD, parse_cards
from games.entry import (
    MSG_BANKER_DRAWS,
    MSG_CARDS_TWICE,
    MSG_DUPLICATE_BET,
    MSG_EMPTY_SEAT,
    MSG_NO_RESULT,
    MSG_NO_SUCH_SEAT,
    MSG_NOT_A_NUMBER,
    MSG_NOT_YES_NO,
    MSG_OVER_MAXIMUM,
    MSG_PAIR_CONTRADICTS,
    MSG_PAIR_MISSED,
    MSG_PAIR_NOT_NOTED,
    MSG_PLAYER_DRAWS,
    MSG_RESULT_CONTRADICTS,
    MSG_SEAT_MISSING,
    MSG_TAP_NEXT,
    MSG_TAP_START,
    MSG_THIRD_CARD_EARLY,
    MSG_UNDER_MINIMUM,
    MSG_UNKNOWN_BET,
    MSG_UNKNOWN_RESULT,
    MSG_WINS,
    MSG_WINS_NATURAL,
    BetEntry,
    EntryRejected,
    Field,
    HandEntry,
    TableRules,
    press,
    read_amount,
    read_count,
    read_taps,
    read_typed,
    result_text,
    settle_hand,
)
from games.payouts import (
    MSG_BET_NOT_OFFERED,
    MSG_NEEDS_CARDS,
    MSG_STAKE_CENTS,
    MSG_STAKE_NOT_POSITIVE,
    STANDARD_RULES,
    BetType,
    RuleSet,
    SideBet,
)
from games.rules import (
    MSG_BANKER_MUST_DRAW,
    MSG_BANKER_MUST_DRAW_STOOD,
    MSG_HAND_COMPLETE,
    MSG_PLAYER_MUST_DRAW,
    MSG_TOO_MANY_COPIES,
    Hand,
    Outcome,
    Winner,
    play_out,
)
from games.shoe import Shoe

D = Decimal
TABLE = TableRules(STANDARD_RULES, 8, D(10), D(1000))
ONE_DECK = TableRules(STANDARD_RULES, 1, D(10), D(1000))


def rejected(entry: HandEntry, table: TableRules = TABLE, **kwargs) -> list[tuple]:
    with pytest.raises(EntryRejected) as raised:
        settle_hand(entry, table, **kwargs)
    return [(p.field, p.bet, p.template, p.error.params) for p in raised.value.problems]


def templates(entry: HandEntry, table: TableRules = TABLE, **kwargs) -> list[str]:
    return [template for _field, _bet, template, _params in rejected(entry, table, **kwargs)]


# --- a hand from its cards ---------------------------------------------------------------


def test_cards_and_bets_come_out_settled_in_one_spelling():
    entry = HandEntry(
        "t, 9h",
        "k♠ Q",
        bets=(BetEntry("1", "banker", "100"), BetEntry(2, BetType.PLAYER, D(50))),
    )
    hand = settle_hand(entry, TABLE)
    assert (hand.player_cards, hand.banker_cards) == ("10 9h", "Ks Q")
    assert hand.outcome.winner is Winner.PLAYER
    assert [(b.seat, b.bet_type, b.result.net) for b in hand.bets] == [
        (1, BetType.BANKER, D("-100.00")),
        (2, BetType.PLAYER, D("50.00")),
    ]


def test_a_banker_win_pays_less_commission_at_the_events_rate():
    table = TableRules(RuleSet(commission_rate=D("0.04")), 8, D(10), D(1000))
    hand = settle_hand(HandEntry("9 7", "J J 8", bets=(BetEntry(1, "banker", "50"),)), table)
    assert (hand.bets[0].result.gross, hand.bets[0].result.commission) == (D(50), D(2))


@pytest.mark.parametrize(
    ("player", "banker", "field", "template"),
    [
        ("10 5", "10 7", Field.CARDS, MSG_PLAYER_MUST_DRAW),
        ("9 7", "J J", Field.CARDS, MSG_BANKER_MUST_DRAW_STOOD),
        ("10 5 9", "3 J", Field.CARDS, MSG_BANKER_MUST_DRAW),
        ("9 X", "J J 10", Field.PLAYER_CARDS, MSG_UNKNOWN_CARD),
        ("9 7", "J J Z", Field.BANKER_CARDS, MSG_UNKNOWN_CARD),
    ],
)
def test_cards_that_break_a_rule_name_the_rule_and_the_field(player, banker, field, template):
    assert rejected(HandEntry(player, banker))[0][:3] == (field, None, template)


@pytest.mark.parametrize(
    ("player", "banker", "card"),
    [("K K K", "K K K", "K"), ("9s 7", "9s J", "9s"), ("A A A", "A A A", "A")],
)
def test_a_one_deck_shoe_holds_four_of_a_rank_and_one_of_a_card(player, banker, card):
    problems = rejected(HandEntry(player, banker), ONE_DECK)
    assert problems[0][2] == MSG_TOO_MANY_COPIES
    assert problems[0][3]["card"] == card
    assert settle_hand(HandEntry(player, banker), TABLE).has_cards  # eight decks hold them


def test_a_given_result_and_pairs_must_agree_with_the_cards():
    problems = rejected(HandEntry("9 9", "J Q", result="b", player_pair="no", banker_pair=True))
    assert [(field, template) for field, _bet, template, _params in problems] == [
        (Field.RESULT, MSG_RESULT_CONTRADICTS),
        (Field.PLAYER_PAIR, MSG_PAIR_MISSED),
        (Field.BANKER_PAIR, MSG_PAIR_CONTRADICTS),
    ]
    agreed = HandEntry("9 9", "J Q", result="PLAYER", player_pair="yes", banker_pair="")
    assert settle_hand(agreed, TABLE).outcome.player_pair


# --- a hand from its result ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "winner"),
    [
        ("P", Winner.PLAYER),
        (" banker ", Winner.BANKER),
        ("t", Winner.TIE),
        (Winner.TIE, Winner.TIE),
    ],
)
def test_the_result_alone_decides_when_the_cards_were_not_noted(text, winner):
    assert settle_hand(HandEntry(result=text), TABLE).outcome.winner is winner


@pytest.mark.parametrize(
    ("entry", "field", "template"),
    [
        (HandEntry(), Field.RESULT, MSG_NO_RESULT),
        (HandEntry(result="draw"), Field.RESULT, MSG_UNKNOWN_RESULT),
        (HandEntry(result="p", banker_pair="perhaps"), Field.BANKER_PAIR, MSG_NOT_YES_NO),
        (HandEntry(result="p", bets=(BetEntry(1, "player_pair", "10"),)), Field.PLAYER_PAIR,
         MSG_PAIR_NOT_NOTED),
        (HandEntry("9 7", "J J 10", taps=("9",)), Field.CARDS, MSG_CARDS_TWICE),
    ],
)  # fmt: skip
def test_what_the_result_cannot_say_is_refused(entry, field, template):
    assert rejected(entry)[0][0::2] == (field, template)


def test_a_pair_bet_without_cards_is_settled_by_the_noted_pair():
    pair_bets = (BetEntry(1, "player_pair", "10"), BetEntry(2, "banker_pair", "10"))
    entry = HandEntry(result="b", player_pair="no", banker_pair="yes", bets=pair_bets)
    assert [b.result.net for b in settle_hand(entry, TABLE).bets] == [D(-10), D(110)]


def test_a_side_bet_settled_from_the_cards_needs_them():
    table = TableRules(RuleSet(side_bets=frozenset(SideBet)), 8, D(10), D(1000))
    entry = HandEntry(result="b", bets=(BetEntry(1, "dragon_7", "10"),))
    assert rejected(entry, table) == [
        (Field.BET, 0, MSG_NEEDS_CARDS, {"bet": BetType.DRAGON_7.label})
    ]


# --- bets ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bet", "field", "template"),
    [
        (BetEntry(8, "player", "10"), Field.SEAT, MSG_NO_SUCH_SEAT),
        (BetEntry("x", "player", "10"), Field.SEAT, MSG_NO_SUCH_SEAT),
        (BetEntry("٣", "player", "10"), Field.SEAT, MSG_NO_SUCH_SEAT),  # an Arabic-Indic three
        (BetEntry(1, "roulette", "10"), Field.BET, MSG_UNKNOWN_BET),
        (BetEntry(1, "dragon_7", "10"), Field.BET, MSG_BET_NOT_OFFERED),
        (BetEntry(1, "player", "lots"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "NaN"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "Infinity"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "1,5"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "0"), Field.STAKE, MSG_STAKE_NOT_POSITIVE),
        (BetEntry(1, "player", "-10"), Field.STAKE, MSG_STAKE_NOT_POSITIVE),
        (BetEntry(1, "player", "10.005"), Field.STAKE, MSG_STAKE_CENTS),
        (BetEntry(1, "player", "5"), Field.STAKE, MSG_UNDER_MINIMUM),
        (BetEntry(1, "player", "1e30"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "1e3"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "1_000"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "⑩"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "0x10"), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "9" * 16), Field.STAKE, MSG_NOT_A_NUMBER),
        (BetEntry(1, "player", "9" * 15), Field.STAKE, MSG_OVER_MAXIMUM),
        (BetEntry(1, "player", "10.0000000000000000000000000001"), Field.STAKE, MSG_STAKE_CENTS),
        (BetEntry("", "player", "10"), Field.SEAT, MSG_SEAT_MISSING),
        (BetEntry(1, "player", "1,000.01"), Field.STAKE, MSG_OVER_MAXIMUM),
    ],
)
def test_a_bad_bet_is_refused_on_its_field_with_its_index(bet, field, template):
    entry = HandEntry("9 7", "J J 10", bets=(BetEntry(2, "banker", "10"), bet))
    assert rejected(entry) == [(field, 1, template, rejected(entry)[0][3])]


def test_a_table_takes_the_seats_it_has_and_names_them_when_refusing_one():
    nine = replace(TABLE, seats=9)
    hand = settle_hand(HandEntry("9 7", "J J 10", bets=(BetEntry(9, "player", "10"),)), nine)
    assert [(bet.seat, bet.result.net) for bet in hand.bets] == [(9, D(10))]
    for table, seat in ((TABLE, 8), (nine, 10)):
        entry = HandEntry("9 7", "J J 10", bets=(BetEntry(seat, "player", "10"),))
        [(field, _bet, template, params)] = rejected(entry, table)
        assert (field, template, params["last"]) == (Field.SEAT, MSG_NO_SUCH_SEAT, table.seats)
    assert TABLE.seats == 7  # a cash table
    assert "seats run 1–7" in rejected_message(
        HandEntry("9 7", "J J 10", bets=(BetEntry(8, "player", "10"),))
    )


@pytest.mark.parametrize(("text", "amount"), [("1,000", D(1000)), ("１００", D(100)),
                                              (" 12.50 ", D("12.50")), ("+20", D(20)),
                                              ("１，０００．５", D("1000.5"))])  # fmt: skip
def test_amounts_read_as_a_person_writes_them(text, amount):
    assert read_amount(text) == amount


def test_every_problem_is_listed_at_once_and_nothing_is_settled_half_way():
    entry = HandEntry(
        "9 7",
        "J J 10",
        bets=(
            BetEntry(1, "player", "5"),
            BetEntry(1, "player", "20"),
            BetEntry(4, "tie", "10"),
            BetEntry(2, "banker", "5000"),
        ),
    )
    assert [(bet, template) for _f, bet, template, _p in rejected(entry, occupied={1, 2})] == [
        (0, MSG_UNDER_MINIMUM),
        (1, MSG_DUPLICATE_BET),
        (2, MSG_EMPTY_SEAT),
        (3, MSG_OVER_MAXIMUM),
    ]


# --- the keypad: taps in deal order --------------------------------------------------------


def test_taps_in_deal_order_make_the_two_hands():
    reading = read_taps(["9", "J", "7", "J", "10"])  # P 9 7 stands on 6, B J J draws
    assert (str(reading.player[0]), len(reading.player), len(reading.banker)) == ("9", 2, 3)
    assert reading.complete and reading.problem is None
    assert reading.status().template == MSG_WINS
    assert reading.taps == ("9", "J", "7", "J", "10")


def test_each_tap_says_what_is_due_next():
    statuses = [read_taps(["2", "3", "A", "A", "5", "9"][:n]).status() for n in range(7)]
    assert [status.template for status in statuses] == [
        MSG_TAP_START,
        MSG_TAP_NEXT,
        MSG_TAP_NEXT,
        MSG_TAP_NEXT,
        MSG_PLAYER_DRAWS,  # P 3
        MSG_BANKER_DRAWS,  # B 4 against a 5
        MSG_WINS,
    ]
    assert read_taps(["8", "9", "K", "K"]).status().template == MSG_WINS_NATURAL


@pytest.mark.parametrize(
    ("taps", "decks", "template", "taken"),
    [
        (["9", "J", "7", "J", "10", "K"], None, MSG_HAND_COMPLETE, 5),
        (["9", "Z"], None, MSG_UNKNOWN_CARD, 1),
        (["K", "K", "K", "K", "K"], 1, MSG_TOO_MANY_COPIES, 4),
        (["9s", "9s"], 1, MSG_TOO_MANY_COPIES, 1),
    ],
)
def test_a_tap_that_cannot_be_taken_is_refused_and_the_rest_kept(taps, decks, template, taken):
    reading = read_taps(taps, decks=decks)
    assert reading.problem.template == template
    assert reading.taps_read == taken == len(reading.taps)


@given(seed=st.integers(0, 10_000), decks=st.integers(1, 8))
def test_any_dealt_hand_tapped_in_deal_order_reads_back_as_dealt(seed, decks):
    shoe = Shoe(decks, seed=seed)
    cards = []

    def next_card():
        cards.append(shoe.deal())
        return cards[-1]

    hand = play_out(next_card)
    taps = [str(card) for card in cards]
    for count in range(len(taps)):
        partial = read_taps(taps[:count], decks=decks)
        assert partial.problem is None and not partial.complete
    reading = read_taps(taps, decks=decks)
    assert (reading.player, reading.banker, reading.complete) == (hand.player, hand.banker, True)
    settled = settle_hand(
        HandEntry(taps=tuple(taps)), TableRules(STANDARD_RULES, decks, D(1), D(9))
    )
    assert settled.outcome == hand.outcome()


def test_typed_cards_read_like_taps():
    assert read_typed("9 7", "J J").status().template == MSG_BANKER_DRAWS
    assert read_typed("9 7", "J J 10").taps == ("9", "J", "7", "J", "10")
    assert read_typed("10 6", "10 6 A").problem is not None
    assert read_typed("9 Q", "").status().template == MSG_TAP_NEXT


def test_random_entries_never_escape_the_pipeline_with_anything_but_a_rejection():
    rng = random.Random(7)
    tokens = ["9", "K", "A", "10", "X", "", "9s", "♠", "1e3", "-1", "yes", "p", "tie", " "]
    for _ in range(2000):
        entry = HandEntry(
            player_cards=" ".join(rng.choices(tokens, k=rng.randint(0, 4))),
            banker_cards=" ".join(rng.choices(tokens, k=rng.randint(0, 4))),
            result=rng.choice([None, "", "p", "b", "t", "x"]),
            player_pair=rng.choice([None, True, False, "yes", "maybe"]),
            bets=tuple(
                BetEntry(rng.choice(tokens), rng.choice(["player", "tie", "x"]), rng.choice(tokens))
                for _ in range(rng.randint(0, 3))
            ),
        )
        try:
            settle_hand(entry, ONE_DECK, occupied={1, 2, 3})
        except EntryRejected as refusal:
            problems = refusal.problems
            assert problems
            assert all(problem.message() for problem in problems)


def test_full_width_text_reads_as_a_japanese_keyboard_types_it():
    entry = HandEntry(
        "９　７", "Ｊ，Ｊ，１０", result="Ｐ", bets=(BetEntry("１", "ＰＬＡＹＥＲ", "１００"),)
    )
    hand = settle_hand(entry, TABLE)
    assert (hand.player_cards, hand.banker_cards, hand.bets[0].stake) == ("9 7", "J J 10", D(100))


def test_an_amount_that_is_not_whole_cents_is_quoted_as_typed():
    entry = HandEntry("9 7", "J J 10", bets=(BetEntry(1, "player", "10.005"),))
    assert MSG_STAKE_CENTS.format(stake="10.005") in rejected_message(entry)  # not "got 10"


def rejected_message(entry: HandEntry) -> str:
    with pytest.raises(EntryRejected) as raised:
        settle_hand(entry, TABLE)
    return str(raised.value)


def test_a_third_card_typed_before_both_sides_have_two_is_named():
    reading = read_typed("2 3 4", "5")
    assert reading.problem.template == MSG_THIRD_CARD_EARLY
    assert reading.status().template == MSG_THIRD_CARD_EARLY


def test_the_keypad_refuses_a_key_while_the_typed_cards_are_out_of_deal_order():
    kept = press(["2", "5", "3"], "2 3 4", "5", add="K")
    assert (len(kept.player), len(kept.banker)) == (3, 1)  # nothing moved to the other side
    assert kept.problem.template == MSG_THIRD_CARD_EARLY
    out_of_order = press([], "9 7", "J J 10 K", add="5")
    assert out_of_order.problem is not None


def test_the_keypad_continues_from_typed_cards_in_deal_order():
    reading = press(["9", "J"], "9 7", "J J", add="10")
    assert reading.taps == ("9", "J", "7", "J", "10") and reading.complete


@given(
    player=st.lists(st.sampled_from(["9", "K", "A", "5", "3", "Z", "9s"]), max_size=5),
    banker=st.lists(st.sampled_from(["9", "K", "A", "5", "3", "Z", "9s"]), max_size=5),
    taps=st.lists(st.sampled_from(["9", "K", "A", "5", "3", "Z"]), max_size=8),
    key=st.sampled_from(["", "K", "4", "back"]),
    decks=st.sampled_from([None, 1, 8]),
)
def test_the_keypad_always_answers_with_a_status_never_an_error(player, banker, taps, key, decks):
    reading = press(
        taps,
        " ".join(player),
        " ".join(banker),
        add="" if key == "back" else key,
        back=key == "back",
        decks=decks,
    )
    assert reading.status().message()
    assert len(reading.player) <= 5 and len(reading.banker) <= 5


@pytest.mark.parametrize(
    ("outcome", "said"),
    [
        (Hand.from_cards(parse_cards("2 3"), parse_cards("8 K")).outcome(),
         "Banker wins 8–5 (natural)."),
        (Hand.from_cards(parse_cards("9 7"), parse_cards("J J 10")).outcome(), "Player wins 6–0."),
        (Hand.from_cards(parse_cards("8 K"), parse_cards("8 Q")).outcome(), "Tie 8–8 (natural)."),
        (Outcome(Winner.BANKER), "Banker wins."),
        (Outcome(Winner.TIE), "Tie."),
    ],
)  # fmt: skip
def test_a_result_reads_winner_first(outcome, said):
    assert result_text(outcome).message() == said


@pytest.mark.parametrize(
    ("typed", "read"),
    [("12", 12), (" 7 ", 7), ("0", 0), ("１２", 12), ("０７", 7), ("①", None), ("¹²", None),
     ("₃", None), ("𝟗", None), ("⑩", None), ("𝟓", None), ("٣", None), ("३", None), ("-1", None),
     ("1.5", None), ("1e3", None), ("", None), ("1 000", None), ("1234567890", None)],
)  # fmt: skip
def test_a_count_is_read_from_the_digits_0_to_9_alone(typed, read):
    # int() and str.isdigit() take every one of these; a person counting chips types 0-9 (or a
    # Japanese phone's full-width 0-9).
    assert read_count(typed) == read
