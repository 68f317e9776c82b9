from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from games.cards import RANKS, Card, parse_cards
from games.guest_banked import chemin_drawing
from games.guest_banked.chemin_drawing import Choice, CoupError, Step, deal, next_step
from games.rules import MSG_NATURAL, MSG_TOO_FEW, MSG_TOO_MANY, HandError, Winner, banker_draws
from games.rules import play_out as punto_banco_play_out

D, S = Choice.DRAW, Choice.STAND
RANK_OF_VALUE = {0: "K", 1: "A", **{v: str(v) for v in range(2, 10)}}

# The ponte's rules ("Regeln für den Ponte"), written out: 0–4 he draws, on 5 he chooses, on 6–7 he
# stands ("Non Monsieur"), on 8–9 he shows a natural.
PONTE_TABLE = {
    0: "draws",
    1: "draws",
    2: "draws",
    3: "draws",
    4: "draws",
    5: "chooses",
    6: "stands",
    7: "stands",
    8: "natural",
    9: "natural",
}

# The banker's rules ("Regeln für den Bankhalter"), written out cell by cell. Columns: the ponte
# stood, then the ponte's third card 0 (a ten or a picture), 1, …, 9. D draws, S stands, C chooses.
BANKER_TABLE = {
    #    stood 0123456789
    0: ("D", "DDDDDDDDDD"),  # "Bei eigenen 0-2 Punkten zieht der Bankhalter immer"
    1: ("D", "DDDDDDDDDD"),
    2: ("D", "DDDDDDDDDD"),
    # no card when he gives an 8; free choice on a 9; "in allen anderen Fällen" he draws
    3: ("D", "DDDDDDDDSC"),
    # no card when he gives a 1, 8, 9, 10 or a picture; "in allen anderen Konstellationen" draws
    4: ("D", "SSDDDDDDSS"),
    # draws when he gave 5, 6, 7 or the ponte stood; free choice on a 4; stands on 1, 2, 3, 8,
    # 9, 10 and pictures
    5: ("D", "SSSSCDDDSS"),
    6: ("S", "SSSSSSDDSS"),  # draws only when he gave a 6 or 7
    7: ("S", "SSSSSSSSSS"),  # "auf keinen Fall eine dritte Karte"
}
ALLOWED = {"D": frozenset({D}), "S": frozenset({S}), "C": frozenset({D, S})}


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def two_cards(total: int) -> tuple[Card, ...]:
    return cards(f"10 {RANK_OF_VALUE[total]}")


def table_cell(banker_total: int, third: int | None) -> str:
    stood, thirds = BANKER_TABLE[banker_total]
    return stood if third is None else thirds[third]


def refused(template: str, *args, **kwargs) -> None:
    with pytest.raises(CoupError) as raised:
        deal(*args, **kwargs)
    assert raised.value.template == template, str(raised.value)


# --- the ponte --------------------------------------------------------------------------------


@pytest.mark.parametrize("ponte_total", range(10))
def test_every_cell_of_the_ponte_table(ponte_total):
    expected = PONTE_TABLE[ponte_total]
    player, banker = two_cards(ponte_total), cards("10 7")  # banker 7: no natural, stands
    with_third = player + cards("2")
    if expected == "natural":
        assert chemin_drawing.ponte_options(player) == {S}
        deal(player, banker)
        refused(MSG_NATURAL, with_third, banker)
        for choice in Choice:
            refused(chemin_drawing.MSG_NATURAL_NO_CHOICE, player, banker, ponte_choice=choice)
        return
    assert chemin_drawing.ponte_options(player) == chemin_drawing.ponte_choices(ponte_total)
    if expected == "draws":
        assert chemin_drawing.ponte_choices(ponte_total) == {D}
        assert deal(with_third, banker).ponte_choice is None
        refused(chemin_drawing.MSG_PONTE_MUST_DRAW, player, banker)
        for choice in Choice:
            refused(chemin_drawing.MSG_PONTE_MUST_DRAW, with_third, banker, ponte_choice=choice)
    elif expected == "stands":
        assert chemin_drawing.ponte_choices(ponte_total) == {S}
        assert deal(player, banker).ponte_choice is None
        refused(chemin_drawing.MSG_PONTE_MUST_STAND, with_third, banker)
        for choice in Choice:
            refused(chemin_drawing.MSG_PONTE_MUST_STAND, player, banker, ponte_choice=choice)
    else:
        assert chemin_drawing.ponte_choices(ponte_total) == {D, S}
        assert deal(with_third, banker, ponte_choice=D).ponte_choice is D
        assert deal(player, banker, ponte_choice=S).ponte_choice is S
        refused(chemin_drawing.MSG_PONTE_CHOOSES, player, banker)
        refused(chemin_drawing.MSG_PONTE_CHOOSES, with_third, banker)
        refused(chemin_drawing.MSG_PONTE_DREW, player, banker, ponte_choice=D)
        refused(chemin_drawing.MSG_PONTE_STOOD, with_third, banker, ponte_choice=S)


# --- the banker -------------------------------------------------------------------------------


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", [None, *range(10)])
def test_every_cell_of_the_banker_table(banker_total, third):
    cell = table_cell(banker_total, third)
    assert chemin_drawing.banker_choices(banker_total, third) == ALLOWED[cell]

    banker = two_cards(banker_total)
    with_third = banker + cards("2")
    if third is None:  # the ponte stood: forced on 6, or by choice on 5
        coups = [(two_cards(6), None), (two_cards(5), S)]
        must_draw, must_stand = (
            chemin_drawing.MSG_BANKER_MUST_DRAW_STOOD,
            chemin_drawing.MSG_BANKER_MUST_STAND_STOOD,
        )
    else:  # the ponte drew: forced on 3, or by choice on 5
        given = cards(RANK_OF_VALUE[third])
        coups = [(two_cards(3) + given, None), (two_cards(5) + given, D)]
        must_draw = chemin_drawing.MSG_BANKER_MUST_DRAW
        must_stand = chemin_drawing.MSG_BANKER_MUST_STAND

    for player, ponte in coups:
        assert chemin_drawing.banker_options(banker, player) == ALLOWED[cell]
        if cell == "D":
            assert deal(player, with_third, ponte_choice=ponte).banker_choice is None
            refused(must_draw, player, banker, ponte_choice=ponte)
            refused(must_draw, player, with_third, ponte_choice=ponte, banker_choice=D)
        elif cell == "S":
            assert deal(player, banker, ponte_choice=ponte).banker_choice is None
            refused(must_stand, player, with_third, ponte_choice=ponte)
            refused(must_stand, player, banker, ponte_choice=ponte, banker_choice=S)
        else:
            drew = deal(player, with_third, ponte_choice=ponte, banker_choice=D)
            stood = deal(player, banker, ponte_choice=ponte, banker_choice=S)
            assert (drew.banker_choice, stood.banker_choice) == (D, S)
            refused(chemin_drawing.MSG_BANKER_CHOOSES, player, banker, ponte_choice=ponte)
            refused(chemin_drawing.MSG_BANKER_CHOOSES, player, with_third, ponte_choice=ponte)
            refused(
                chemin_drawing.MSG_BANKER_DREW, player, banker, ponte_choice=ponte, banker_choice=D
            )
            refused(
                chemin_drawing.MSG_BANKER_STOOD,
                player,
                with_third,
                ponte_choice=ponte,
                banker_choice=S,
            )


@pytest.mark.parametrize("banker_total", range(8))
@pytest.mark.parametrize("third", [None, *range(10)])
def test_punto_banco_is_chemin_de_fer_with_every_choice_drawn(banker_total, third):
    """The rules' source on Punto Banco: the banker "muss bei einer 3 und Ausgabe einer 9 sowie bei
    5 Punkten und der Ausgabe einer 4 auf jeden Fall eine Karte kaufen"; elsewhere the tables
    agree."""
    allowed = chemin_drawing.banker_choices(banker_total, third)
    assert (D in allowed) is banker_draws(banker_total, third)


def test_the_choice_cells_are_the_three_the_seed_names():
    ponte = [total for total in range(8) if len(chemin_drawing.ponte_choices(total)) == 2]
    banker = [
        (total, third)
        for total in range(8)
        for third in [None, *range(10)]
        if len(chemin_drawing.banker_choices(total, third)) == 2
    ]
    assert (ponte, banker) == ([5], [(3, 9), (5, 4)])


@pytest.mark.parametrize(("banker_cards", "natural"), [("10 8", 8), ("4 5", 9)])
def test_a_banker_natural_refuses_the_ponte_his_card_and_his_choice(banker_cards, natural):
    """'Hat er 8 oder 9 Punkte, so wird dem Ponte, auch wenn er noch eine Karte gewünscht hat,
    die dritte Karte verweigert und sofort abgerechnet.'"""
    player, banker = cards("10 5"), cards(banker_cards)
    coup = deal(player, banker)
    assert (coup.outcome().winner, coup.outcome().banker_total) == (Winner.BANKER, natural)
    assert chemin_drawing.banker_options(banker, player) == {S}
    refused(MSG_NATURAL, player + cards("3"), banker, ponte_choice=D)
    refused(chemin_drawing.MSG_NATURAL_NO_CHOICE, player, banker, ponte_choice=S)
    refused(chemin_drawing.MSG_NATURAL_NO_CHOICE, cards("10 3"), banker, banker_choice=D)
    refused(MSG_NATURAL, cards("10 3"), banker + cards("A"))


# --- refusals and the order of play ------------------------------------------------------------


def test_missing_and_extra_cards_are_refused_with_the_rule():
    with pytest.raises(CoupError) as raised:
        deal(cards("10"), cards("10 7"))
    assert raised.value.template == MSG_TOO_FEW
    assert str(raised.value) == "Ponte needs two cards (has 1)."
    refused(MSG_TOO_FEW, cards("10 3"), cards("7"))
    refused(MSG_TOO_MANY, cards("A A A A"), cards("10 7"))
    refused(MSG_TOO_MANY, cards("10 6"), cards("A A A A"))
    # The banker's card or choice before the ponte's card: the ponte acts first.
    refused(chemin_drawing.MSG_BANKER_BEFORE_PONTE, cards("10 3"), cards("10 2 4"))
    refused(
        chemin_drawing.MSG_BANKER_BEFORE_PONTE,
        cards("10 5"),
        cards("10 3"),
        ponte_choice=D,
        banker_choice=S,
    )


def test_the_messages_read_as_sentences():
    with pytest.raises(CoupError) as raised:
        deal(cards("10 3 2"), cards("10 7"), ponte_choice=S)
    assert str(raised.value) == (
        "The ponte has no choice on 3: the ponte must draw (draws on 0–4, chooses on 5)."
    )
    with pytest.raises(CoupError) as raised:
        deal(cards("10 3 9"), cards("10 3"))
    assert str(raised.value) == (
        "The banker has 3 against a third card of 9 and may draw or stand: record which."
    )
    with pytest.raises(CoupError) as raised:
        deal(cards("10 6"), cards("10 6"), banker_choice=D)
    assert str(raised.value) == (
        "The banker has no choice on 6 when the ponte stood: the banker must stand."
    )


def test_a_card_the_shoe_cannot_hold_is_refused_with_decks():
    deal(cards("9h 9h"), cards("10 7"), decks=2)
    with pytest.raises(HandError, match="9h appears 2 times"):
        deal(cards("9h 9h"), cards("10 7"), decks=1)


def test_next_step_follows_a_coup_in_the_order_of_play():
    player, banker = cards("10 5"), cards("J 3")
    assert next_step(player[:1], banker[:1]) is Step.FIRST_CARDS
    assert next_step(player, banker) is Step.PONTE_CHOICE
    assert next_step(player, banker, ponte_choice=D) is Step.PONTE_CARD
    player += cards("9")
    assert next_step(player, banker, ponte_choice=D) is Step.BANKER_CHOICE
    assert next_step(player, banker, ponte_choice=D, banker_choice=D) is Step.BANKER_CARD
    banker += cards("4")
    assert next_step(player, banker, ponte_choice=D, banker_choice=D) is None
    coup = deal(player, banker, ponte_choice=D, banker_choice=D)
    assert (coup.ponte_choice, coup.banker_choice) == (D, D)
    outcome = coup.outcome()
    assert (outcome.winner, outcome.player_total, outcome.banker_total) == (Winner.BANKER, 4, 7)
    # A forced draw is a step too, with no choice asked.
    assert next_step(cards("10 6"), cards("10 4")) is Step.BANKER_CARD
    assert next_step(cards("10 6"), cards("10 6")) is None


def test_the_ponte_standing_on_five_lets_the_banker_draw_on_five():
    """'Bei 5 Punkten zieht der Bankhalter eine Karte, … wenn der Ponte bereits passt.'"""
    coup = deal(cards("10 5"), cards("10 5 3"), ponte_choice=S)
    outcome = coup.outcome()
    assert (outcome.winner, outcome.banker_total, outcome.player_card_count) == (
        Winner.BANKER,
        8,
        2,
    )


def test_the_tableau_offers_a_choice_only_where_there_is_one():
    table = chemin_drawing.tableau()
    assert table["ponte"][5] == ["draw", "stand"]
    assert table["ponte"][4] == ["draw"] and table["ponte"][6] == ["stand"]
    banker = table["banker"]
    assert banker["9"][3] == ["draw", "stand"] and banker["4"][5] == ["draw", "stand"]
    assert banker["none"][5] == ["draw"] and banker["none"][6] == ["stand"]
    assert banker["0"][4] == ["stand"] and banker["2"][4] == ["draw"]


# --- properties -------------------------------------------------------------------------------

ranks = st.builds(Card, st.sampled_from(RANKS))


@given(st.lists(ranks, min_size=6, max_size=6))
@example([Card("2"), Card("4"), Card("3"), Card("4"), Card("5"), Card("6")])  # 5 against a natural
def test_every_punto_banco_hand_is_a_coup_with_every_choice_drawn(deck):
    shoe = iter(deck)
    hand = punto_banco_play_out(lambda: next(shoe))
    first_four = (hand.player[:2], hand.banker[:2])
    ponte = D if next_step(*first_four, ponte_choice=None) is Step.PONTE_CHOICE else None
    banker = None
    if next_step(hand.player, hand.banker[:2], ponte_choice=ponte) is Step.BANKER_CHOICE:
        banker = D
    coup = deal(hand.player, hand.banker, ponte_choice=ponte, banker_choice=banker)
    assert coup.hand == hand


@given(st.lists(ranks, min_size=6, max_size=6), st.lists(st.sampled_from(Choice), min_size=2))
def test_a_coup_played_step_by_step_is_accepted_and_nothing_else_is(deck, choices):
    """Follow next_step, dealing cards and taking choices as asked: the result is a coup; one
    card more or one card fewer is refused."""
    shoe, asked = iter(deck), iter(choices)
    player, banker = [next(shoe)], [next(shoe)]
    player.append(next(shoe))
    banker.append(next(shoe))
    taken: dict[str, Choice | None] = {"ponte_choice": None, "banker_choice": None}
    while (step := next_step(tuple(player), tuple(banker), **taken)) is not None:
        if step is Step.PONTE_CHOICE:
            taken["ponte_choice"] = next(asked)
        elif step is Step.BANKER_CHOICE:
            taken["banker_choice"] = next(asked)
        elif step is Step.PONTE_CARD:
            player.append(next(shoe))
        else:
            assert step is Step.BANKER_CARD
            banker.append(next(shoe))
    coup = deal(tuple(player), tuple(banker), **taken)
    assert coup.hand.player == tuple(player) and coup.hand.banker == tuple(banker)
    with pytest.raises(CoupError):
        deal(tuple(player), (*banker, Card("A")), **taken)
    if len(player) == 3:
        with pytest.raises(CoupError):
            deal(tuple(player[:2]), tuple(banker[:2]), **taken)
