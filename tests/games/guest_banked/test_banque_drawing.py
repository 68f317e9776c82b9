"""Baccara banque's drawing (games/guest_banked/banque_drawing.py): coups with two tableaux worked
by hand, every refusal with its message; hypothesis: a coup played by the rules is accepted, and two
tableaux alike are a coup of Chemin de fer.

The source's wording each rule follows is quoted in the module's docstring."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import RANKS, Card, parse_cards
from games.guest_banked import banque_drawing, chemin_drawing
from games.guest_banked.banque_drawing import (
    Waiting,
    banque_banker_choices,
    deal_banque,
    next_banque_step,
)
from games.guest_banked.chemin_drawing import (
    BOTH,
    DRAW,
    STAND,
    Choice,
    CoupError,
    Step,
    banker_choices,
)
from games.rules import MSG_NATURAL, MSG_TOO_FEW, MSG_TOO_MANY, HandError, Winner

D = Decimal
P, B, T = Winner.PLAYER, Winner.BANKER, Winner.TIE


def c(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def coup_error(template: str, call, *args, **kwargs) -> CoupError:
    with pytest.raises(CoupError) as raised:
        call(*args, **kwargs)
    assert raised.value.template == template, str(raised.value)
    return raised.value


# --- the banker's table against two tableaux -----------------------------------------------------


@pytest.mark.parametrize(
    ("banker_total", "thirds", "allowed"),
    [
        (5, [None, None], DRAW),  # both pontes stood: 5 draws against each
        (6, [None, None], STAND),
        (7, [6, 7], STAND),  # 7 stands against anything
        (2, [8, None], DRAW),  # 0–2 draws against anything
        (3, [9, 2], DRAW),  # a choice against the 9, a draw against the 2: drawing is the rule
        (3, [9, 8], STAND),  # a choice against the 9, a stand against the 8
        (3, [9, 9], BOTH),  # a choice against both
        (5, [4, 4], BOTH),
        (6, [6, None], BOTH),  # draws against the 6, stands against the stand: he chooses
        (4, [1, 5], BOTH),  # stands against the 1, draws against the 5
        (5, [7, 3], BOTH),
        (6, [6, 7], DRAW),
        (4, [0, 8], STAND),
        (5, [], STAND),  # both tableaux showed a natural: nobody is left to draw against
    ],
)
def test_the_banker_follows_chemin_de_fers_table_where_the_tableaux_agree(
    banker_total, thirds, allowed
):
    assert banque_banker_choices(banker_total, thirds) == allowed


@given(
    st.integers(0, 7),
    st.sampled_from([None, *range(10)]),
    st.sampled_from([None, *range(10)]),
)
def test_one_tableau_or_two_alike_is_chemin_de_fer(banker_total, first, second):
    assert banque_banker_choices(banker_total, [first]) == banker_choices(banker_total, first)
    assert banque_banker_choices(banker_total, [first, first]) == banker_choices(
        banker_total, first
    )
    both = banque_banker_choices(banker_total, [first, second])
    # never less free than against either tableau alone
    assert both >= banker_choices(banker_total, first) & banker_choices(banker_total, second)


# --- coups worked by hand ------------------------------------------------------------------------


def test_both_pontes_stand_and_the_banker_draws_on_5():
    coup = deal_banque([c("6 K"), c("7 K")], c("3 2 4"))
    assert coup.winners() == (B, B)  # 9 against 6 and 7
    assert coup.ponte_choices == (None, None) and coup.banker_choice is None


def test_the_tableaux_pull_apart_and_the_banker_chooses():
    # Tableau 1: 4, draws a 6 → 0. Tableau 2: 7, stands. Banker: 6 — against a given 6 he
    # draws, against a ponte who stood he stands: one hand cannot do both.
    pontes, banker = [c("2 2 6"), c("7 K")], c("4 2")
    assert next_banque_step(pontes, banker) == Waiting(Step.BANKER_CHOICE)
    error = coup_error(banque_drawing.MSG_BANQUE_BANKER_CHOOSES, deal_banque, pontes, banker)
    assert str(error) == (
        "The banker has 6 and may draw or stand against these tableaux: record which."
    )
    stood = deal_banque(pontes, banker, banker_choice=Choice.STAND)
    assert stood.winners() == (B, P)  # 6 beats 0; 7 beats 6
    assert stood.banker_choice is Choice.STAND
    coup_error(
        chemin_drawing.MSG_BANKER_DREW, deal_banque, pontes, banker, banker_choice=Choice.DRAW
    )
    drew = deal_banque(pontes, c("4 2 3"), banker_choice=Choice.DRAW)
    assert drew.winners() == (B, B)  # 9 beats both
    coup_error(
        chemin_drawing.MSG_BANKER_STOOD, deal_banque, pontes, c("4 2 3"), banker_choice=Choice.STAND
    )


def test_a_choice_where_the_tableaux_agree_is_refused():
    # Banker 3: chooses against the 9 of tableau 1, must draw against the 2 of tableau 2.
    pontes = [c("K A 9"), c("K 3 2")]
    error = coup_error(
        banque_drawing.MSG_BANQUE_BANKER_MUST_DRAW,
        deal_banque,
        pontes,
        c("A 2 5"),
        banker_choice=Choice.DRAW,
    )
    assert str(error) == (
        "The banker has no choice on 3 against these tableaux: the banker must draw."
    )
    coup = deal_banque(pontes, c("A 2 5"))
    assert coup.winners() == (B, B)  # the banker's 8 against 0 and 5
    coup_error(banque_drawing.MSG_BANQUE_BANKER_MUST_DRAW, deal_banque, pontes, c("A 2"))
    coup_error(
        banque_drawing.MSG_BANQUE_BANKER_MUST_STAND,
        deal_banque,
        [c("7 K"), c("6 K")],
        c("4 3"),
        banker_choice=Choice.STAND,
    )
    coup_error(
        banque_drawing.MSG_BANQUE_BANKER_MUST_STAND, deal_banque, [c("7 K"), c("6 K")], c("4 3 2")
    )


def test_each_ponte_chooses_on_5_and_only_there():
    pontes, banker = [c("2 3"), c("4 K 2")], c("K 7")
    assert next_banque_step(pontes, banker) == Waiting(Step.PONTE_CHOICE, 0)
    error = coup_error(banque_drawing.MSG_TABLEAU_CHOOSES, deal_banque, pontes, banker)
    assert str(error) == "The ponte of Tableau 1 has 5 and may draw or stand: record which."
    coup = deal_banque(pontes, banker, ponte_choices=(Choice.STAND, None))
    assert coup.winners() == (B, B) and coup.ponte_choices == (Choice.STAND, None)
    assert next_banque_step(
        [c("2 3"), c("4 K")], banker, ponte_choices=(Choice.STAND, None)
    ) == Waiting(Step.PONTE_CARD, 1)
    error = coup_error(
        banque_drawing.MSG_TABLEAU_MUST_DRAW,
        deal_banque,
        pontes,
        banker,
        ponte_choices=(Choice.STAND, Choice.DRAW),
    )
    assert str(error) == (
        "The ponte of Tableau 2 has no choice on 4: he must draw (draws on 0–4, chooses on 5)."
    )
    coup_error(
        banque_drawing.MSG_TABLEAU_MUST_STAND,
        deal_banque,
        [c("6 K"), c("7 K")],
        banker,
        ponte_choices=(Choice.STAND, None),
    )
    coup_error(
        banque_drawing.MSG_TABLEAU_STOOD,
        deal_banque,
        [c("2 3 4"), c("7 K")],
        banker,
        ponte_choices=(Choice.STAND, None),
    )
    coup_error(
        banque_drawing.MSG_TABLEAU_DREW,
        deal_banque,
        [c("2 3"), c("7 K")],
        banker,
        ponte_choices=(Choice.DRAW, None),
    )
    coup_error(banque_drawing.MSG_TABLEAU_MUST_STAND, deal_banque, [c("6 K 2"), c("7 K")], banker)
    coup_error(banque_drawing.MSG_TABLEAU_MUST_DRAW, deal_banque, [c("6 K"), c("4 K")], banker)


def test_a_ponte_natural_settles_his_tableau_against_the_bankers_first_two_cards():
    # Tableau 1 shows 9 at once; tableau 2 draws a 6; banker 6 draws against a given 6.
    coup = deal_banque([c("9 K"), c("2 2 6")], c("4 2 3"))
    first, second = coup.hands()
    assert first.banker == c("4 2") and second.banker == c("4 2 3")
    assert coup.winners() == (P, B)  # 9 beats 6; the banker's 9 beats 0
    error = coup_error(MSG_NATURAL, deal_banque, [c("9 K 2"), c("2 2 6")], c("4 2 3"))
    assert str(error).startswith("Tableau 1 has a natural 9")
    coup_error(
        chemin_drawing.MSG_NATURAL_NO_CHOICE,
        deal_banque,
        [c("2 3"), c("K 8")],
        c("K 7"),
        ponte_choices=(Choice.STAND, Choice.STAND),
    )
    # both tableaux natural: the banker has nobody to draw against
    assert deal_banque([c("9 K"), c("8 K")], c("K 7")).winners() == (P, P)
    coup_error(
        banque_drawing.MSG_BANQUE_BANKER_MUST_STAND, deal_banque, [c("9 K"), c("8 K")], c("K 2 7")
    )


def test_a_banker_natural_ends_the_coup_for_both_tableaux():
    coup = deal_banque([c("2 3"), c("9 K")], c("8 K"))
    assert coup.winners() == (B, P)
    error = coup_error(MSG_NATURAL, deal_banque, [c("2 3 4"), c("9 K")], c("8 K"))
    assert str(error).startswith("Banker has a natural 8")
    coup_error(
        chemin_drawing.MSG_NATURAL_NO_CHOICE,
        deal_banque,
        [c("2 3"), c("K K")],
        c("8 K"),
        ponte_choices=(Choice.DRAW, None),
    )
    coup_error(
        chemin_drawing.MSG_NATURAL_NO_CHOICE,
        deal_banque,
        [c("2 3"), c("K K")],
        c("8 K"),
        banker_choice=Choice.STAND,
    )


def test_cards_out_of_order_or_count_are_refused():
    coup_error(
        chemin_drawing.MSG_BANKER_BEFORE_PONTE, deal_banque, [c("6 K"), c("2 2")], c("2 2 3")
    )
    assert next_banque_step([c("6 K"), c("2")], c("2 2")) == Waiting(Step.FIRST_CARDS)
    error = coup_error(MSG_TOO_FEW, deal_banque, [c("6 K"), c("2")], c("2 2"))
    assert str(error) == "Tableau 2 needs two cards (has 1)."
    coup_error(MSG_TOO_MANY, deal_banque, [c("2 2 2 2"), c("6 K")], c("2 2"))
    coup_error(banque_drawing.MSG_TWO_TABLEAUX, deal_banque, [c("6 K")], c("2 2"))
    coup_error(
        banque_drawing.MSG_TWO_TABLEAUX,
        deal_banque,
        [c("6 K"), c("7 K"), c("7 K")],
        c("K 7"),
        ponte_choices=(None, None, None),
    )
    assert deal_banque([c("9 9"), c("9 9")], c("9 K"), decks=2).winners() == (B, B)
    with pytest.raises(HandError):  # five nines in one deck
        deal_banque([c("9 9"), c("9 9")], c("9 K"), decks=1)


# --- a coup played by the rules is accepted -----------------------------------------------------


@given(st.data())
def test_a_coup_played_by_the_rules_is_accepted(data):
    def card() -> Card:
        return Card(data.draw(st.sampled_from(RANKS)))

    pontes: list[tuple[Card, ...]] = [(card(), card()), (card(), card())]
    banker: tuple[Card, ...] = (card(), card())
    choices: list[Choice | None] = [None, None]
    banker_choice: Choice | None = None
    while (
        waiting := next_banque_step(
            pontes, banker, ponte_choices=choices, banker_choice=banker_choice
        )
    ) is not None:
        if waiting.step is Step.PONTE_CHOICE:
            assert waiting.tableau is not None
            choices[waiting.tableau] = data.draw(st.sampled_from(list(Choice)))
        elif waiting.step is Step.PONTE_CARD:
            assert waiting.tableau is not None
            pontes[waiting.tableau] += (card(),)
        elif waiting.step is Step.BANKER_CHOICE:
            banker_choice = data.draw(st.sampled_from(list(Choice)))
        else:
            assert waiting.step is Step.BANKER_CARD
            banker += (card(),)
    coup = deal_banque(pontes, banker, ponte_choices=choices, banker_choice=banker_choice)
    for ponte, hand in zip(pontes, coup.hands(), strict=True):
        assert hand.player == ponte
        # a ponte's natural is settled against the banker's first two cards, the rest against all
        natural = chemin_drawing.is_natural(ponte) and not chemin_drawing.is_natural(banker)
        assert hand.banker == (banker[:2] if natural else banker)
    if chemin_drawing.is_natural(banker):
        assert len(banker) == 2 and all(len(ponte) == 2 for ponte in pontes)


@given(st.data())
def test_two_tableaux_alike_are_a_coup_of_chemin_de_fer(data):
    def card() -> Card:
        return Card(data.draw(st.sampled_from(RANKS)))

    ponte: tuple[Card, ...] = (card(), card())
    banker: tuple[Card, ...] = (card(), card())
    choices: dict[str, Choice] = {}
    while (step := chemin_drawing.next_step(ponte, banker, **choices)) is not None:
        if step is Step.PONTE_CHOICE:
            choices["ponte_choice"] = data.draw(st.sampled_from(list(Choice)))
        elif step is Step.BANKER_CHOICE:
            choices["banker_choice"] = data.draw(st.sampled_from(list(Choice)))
        elif step is Step.PONTE_CARD:
            ponte += (card(),)
        else:
            banker += (card(),)
    alone = chemin_drawing.deal(ponte, banker, **choices)
    choice = choices.get("ponte_choice")
    coup = deal_banque(
        [ponte, ponte],
        banker,
        ponte_choices=(choice, choice),
        banker_choice=choices.get("banker_choice"),
    )
    assert coup.winners() == (alone.outcome().winner,) * 2
