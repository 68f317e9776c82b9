from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import rules
from games.cards import RANKS, Card, parse_cards
from games.rules import CardsDue, Hand, HandError, Outcome, Winner, cards_due, validate_hand

# The tableau as published (docs/rules.md, "Drawing rules"), written out:
# Banker's total -> Player third cards it draws on.
BANKER_DRAWS_ON = {
    0: "0123456789",
    1: "0123456789",
    2: "0123456789",
    3: "012345679",
    4: "234567",
    5: "4567",
    6: "67",
    7: "",
}
RANK_OF_VALUE = {0: "K", 1: "A", **{v: str(v) for v in range(2, 10)}}


def banker_two_cards(banker_total: int) -> str:
    return f"10 {RANK_OF_VALUE[banker_total]}"


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("player_third", [None, *range(10)])
def test_every_cell_of_the_banker_table(banker_total, player_third):
    if player_third is None:
        player = parse_cards("10 6")  # Player 6 stands
        draws = banker_total <= 5
    else:
        player = parse_cards(f"10 5 {RANK_OF_VALUE[player_third]}")  # Player 5 drew
        draws = str(player_third) in BANKER_DRAWS_ON[banker_total]
    banker = parse_cards(banker_two_cards(banker_total))

    assert cards_due(player, banker) == CardsDue(player=False, banker=draws)
    with_third = banker + parse_cards("2")
    if draws:
        validate_hand(player, with_third)
        with pytest.raises(HandError, match="must draw"):
            validate_hand(player, banker)
    else:
        validate_hand(player, banker)
        with pytest.raises(HandError, match="must stand"):
            validate_hand(player, with_third)


@pytest.mark.parametrize("player_total", range(10))
def test_player_draws_on_0_to_5_and_stands_on_6_7(player_total):
    player = parse_cards(f"10 {RANK_OF_VALUE[player_total]}")
    banker = parse_cards("10 7")  # Banker 7: never a natural, never draws
    due = cards_due(player, banker)
    if player_total >= 8:
        assert due == CardsDue(player=False, banker=False)  # a Player natural
    elif player_total >= 6:
        assert due == CardsDue(player=False, banker=False)
    else:
        assert due == CardsDue(player=True, banker=None)


def test_worked_hand_player_6_against_banker_zero_drawing_zero(hand_from):
    hand = hand_from("9 7", "J J 10")
    outcome = hand.outcome()
    assert (outcome.winner, outcome.player_total, outcome.banker_total) == (Winner.PLAYER, 6, 0)
    assert outcome.margin == 6


def test_worked_hand_naturals_banker_9_beats_player_8(hand_from):
    outcome = hand_from("8 10", "9 J").outcome()
    assert (outcome.winner, outcome.player_total, outcome.banker_total) == (Winner.BANKER, 8, 9)
    assert outcome.natural and outcome.player_natural and outcome.banker_natural


def test_worked_hand_banker_4_draws_against_a_3_and_reaches_8(hand_from):
    outcome = hand_from("A 2 3", "4 10 4").outcome()
    assert (outcome.winner, outcome.player_total, outcome.banker_total) == (Winner.BANKER, 6, 8)
    assert outcome.natural is False


@pytest.mark.parametrize(
    ("player", "banker", "message"),
    [
        ("10 5", "10 7", rules.MSG_PLAYER_MUST_DRAW.format(total=5)),
        ("10 6 2", "10 7", rules.MSG_PLAYER_MUST_STAND.format(total=6)),
        ("10 2", "10 6 3", rules.MSG_BANKER_BEFORE_PLAYER.format(total=2)),
        ("10 6", "10 6 A", rules.MSG_BANKER_MUST_STAND_STOOD.format(total=6, third=None)),
        ("10 6", "10 5", rules.MSG_BANKER_MUST_DRAW_STOOD.format(total=5, third=None)),
        ("10 8 2", "10 3", rules.MSG_NATURAL.format(side="Player", total=8)),
        ("10 2 2", "9 K", rules.MSG_NATURAL.format(side="Banker", total=9)),
        ("10 7", "10 6 2 3", rules.MSG_TOO_MANY.format(side="Banker", count=4)),
        ("10 2 3 4", "10 7", rules.MSG_TOO_MANY.format(side="Player", count=4)),
        ("10", "10 7", rules.MSG_TOO_FEW.format(side="Player", count=1)),
        ("10 7", "", rules.MSG_TOO_FEW.format(side="Banker", count=0)),
        ("10 5 8", "10 3 4", rules.MSG_BANKER_MUST_STAND.format(total=3, third=8)),
        ("10 5 4", "10 5", rules.MSG_BANKER_MUST_DRAW.format(total=5, third=4)),
    ],
)
def test_invalid_hands_are_rejected_with_the_rule_they_break(player, banker, message):
    with pytest.raises(HandError) as raised:
        validate_hand(parse_cards(player), parse_cards(banker))
    assert str(raised.value) == message


def test_a_single_deck_cannot_hold_a_suited_card_twice_or_five_of_a_rank():
    with pytest.raises(HandError, match="9h appears 2 times"):
        Hand.from_cards(parse_cards("9h 9h"), parse_cards("10 7"), decks=1)
    Hand.from_cards(parse_cards("9h 9h"), parse_cards("10 7"), decks=2)
    with pytest.raises(HandError, match="A appears 5 times"):
        Hand.from_cards(parse_cards("A A A"), parse_cards("A A 10"), decks=1)


@pytest.mark.parametrize(
    ("first_four", "expected"),
    [
        ("9 8 K K", CardsDue(player=False, banker=False)),  # naturals: nothing more
        ("2 3 3 4", CardsDue(player=True, banker=None)),  # Player 5 draws; Banker waits
        ("6 2 K 3", CardsDue(player=False, banker=True)),  # Player 6 stands; Banker 5 draws
        ("6 6 K K", CardsDue(player=False, banker=False)),  # Player 6 stands; Banker 6 stands
        ("7 2 K 3", CardsDue(player=False, banker=True)),  # Player 7 stands; Banker 5 draws
    ],
)
def test_third_cards_due_from_the_first_four_cards_in_deal_order(first_four, expected):
    p1, b1, p2, b2 = parse_cards(first_four)
    assert cards_due((p1, p2), (b1, b2)) == expected


def test_cards_due_follows_a_hand_card_by_card():
    player, banker = parse_cards("2 3"), parse_cards("3 K")
    assert cards_due(player, banker) == CardsDue(player=True, banker=None)
    assert cards_due((*player, Card("6")), banker) == CardsDue(player=False, banker=True)
    assert cards_due((*player, Card("8")), banker).complete  # Banker 3 stands against an 8
    assert cards_due(parse_cards("2"), ()) == CardsDue(player=True, banker=True)


def test_pairs_three_card_seven_and_three_card_eight(hand_from):
    dragon = hand_from("K K 3", "4 J 3").outcome()  # Player 3 vs Banker three-card 7
    assert dragon.player_pair and not dragon.banker_pair
    assert dragon.banker_three_card_seven and not dragon.player_three_card_eight
    panda = hand_from("2 2 4", "5 Q 9").outcome()  # Player three-card 8 vs Banker 4
    assert panda.player_three_card_eight and panda.player_pair
    assert hand_from("5 2", "K 7").outcome().banker_three_card_seven is False  # two-card 7 tie


def test_an_outcome_without_cards_knows_only_winner_and_pairs():
    outcome = Outcome(Winner.BANKER, banker_pair=True)
    assert not outcome.has_cards
    assert outcome.natural is None and outcome.margin is None
    assert outcome.banker_three_card_seven is None


@pytest.mark.parametrize(
    "kwargs",
    [
        {"player_total": 5},  # card facts are all given or none
        {"player_total": 5, "banker_total": 3, "player_card_count": 2, "banker_card_count": 2},
        {"player_total": 10, "banker_total": 3, "player_card_count": 2, "banker_card_count": 2},
        {"player_total": 1, "banker_total": 3, "player_card_count": 4, "banker_card_count": 2},
    ],
)
def test_an_outcome_contradicting_its_own_totals_is_refused(kwargs):
    with pytest.raises(ValueError):  # noqa: PT011 - every case has its own message
        Outcome(Winner.TIE, **kwargs)


cards = st.builds(Card, st.sampled_from(RANKS), st.sampled_from(["s", "h", "d", "c", None]))


@given(st.lists(cards, min_size=4, max_size=6))
def test_any_deal_played_out_by_the_rules_validates(deck):
    remaining = list(deck) + [Card("5")] * 2  # room for both third cards

    hand = rules.play_out(lambda: remaining.pop(0))
    validate_hand(hand.player, hand.banker)
    assert Hand.from_cards(hand.player, hand.banker).outcome().winner in set(Winner)


@given(st.lists(cards, min_size=2, max_size=3), st.lists(cards, min_size=2, max_size=3))
def test_a_hand_validates_exactly_when_no_card_is_still_due(player, banker):
    player, banker = tuple(player), tuple(banker)
    try:
        due = cards_due(player, banker)
    except HandError:
        due = None
    if due is not None and due.complete:
        validate_hand(player, banker)
    else:
        with pytest.raises(HandError):
            validate_hand(player, banker)
