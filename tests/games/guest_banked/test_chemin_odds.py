from __future__ import annotations

from collections import Counter
from decimal import Decimal
from fractions import Fraction

import pytest

from games.guest_banked.chemin_drawing import Choice
from games.guest_banked.chemin_odds import BankerCell, chemin_game, chemin_odds
from games.odds import deal_counts, deal_denominator, fraction_to_decimal
from games.rules import Winner

F = Fraction
ALWAYS = F(1)


def draws_everywhere(game):
    return dict.fromkeys(game.choice_cells, ALWAYS)


# --- by hand ----------------------------------------------------------------------------------
# An infinite shoe: a card is worth 0 with chance 4/13 (ten and pictures), 1–9 with 1/13 each.
# Two cards total 0 with chance 25/169 (0+0 and the nine pairs summing to 10), any other total
# with 16/169 (0+t, t+0 and the eight pairs of 1–9 summing to t or t+10).
#
# Banker 3 (chance 16/169) against a third card 9 (1/13). The ponte drew on t = 0–4 (chance
# 25/169 for 0, 16/169 for the others) or on 5 (16/169, times p); he ends on t + 9, i.e. 9, 0, 1,
# 2, 3, 4. Standing on 3 the banker scores −1, +1, +1, +1, 0, −1 against those:
#     169·E[stand] = −25 + 48 − 16p.
# Drawing, he ends on 3 with chance 4/13 and on each other total with 1/13; against 9, 0, 1, 2,
# 3, 4 that scores −12/13, +12/13, +10/13, +8/13, +3/13, −2/13:
#     169·13·E[draw] = −300 + 16·33 − 32p = 228 − 32p.
# So 169·13·(E[draw] − E[stand]) = 176p − 71, and over all coups the gain of drawing is
# (176p − 71)·16 / 13⁶.
#
# Banker 5 (16/169) against a third card 4 (1/13): the ponte ends on 4, 5, 6, 7, 8, 9 (t = 0–5).
#     169·13·E[stand] = 13·(25 − 16·3 − 16p) = −299 − 208p
#     169·13·E[draw]  = 25·4 + 16·(−1 − 6 − 8 − 10) − 16p·12 = −300 − 192p
# So the gain of drawing is (16p − 1)·16 / 13⁶.


@pytest.mark.parametrize("p", [F(0), F(1, 2), F(71, 176), F(1)])
def test_the_gains_of_the_banker_choice_cells_worked_by_hand(p):
    game = chemin_game(None)
    assert game.cell_gain(BankerCell(3, 9), p) == (176 * p - 71) * 16 / F(13**6)
    assert game.cell_gain(BankerCell(5, 4), p) == (16 * p - 1) * 16 / F(13**6)


def test_the_naturals_and_their_counts_by_hand():
    """Both sides' two-card totals are independent in an infinite shoe: P(no natural) =
    (1 − 32/169)² = (137/169)²."""
    game = chemin_game(None)
    naturals = sum(game.deals.naturals)
    assert F(naturals, game.deals.denominator) == 1 - F(137, 169) ** 2


# --- the same count as Punto Banco's ------------------------------------------------------------


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
def test_drawing_at_every_choice_counts_the_punto_banco_deals_exactly(decks):
    """Every choice taken as "draw" is Punto Banco's tableau: the game's counts must be
    games.odds's, deal for deal."""
    game = chemin_game(decks, banker_sees_cards=False)
    by_winner: Counter[Winner] = Counter()
    for shape, count in deal_counts(decks).items():
        by_winner[shape.outcome().winner] += count
    expected = {winner: F(count, deal_denominator(decks)) for winner, count in by_winner.items()}
    assert game.outcomes(ALWAYS, draws_everywhere(game)) == expected


# --- best play under Chemin de fer's rules ------------------------------------------------------


def test_eight_decks_best_play_is_punto_banco_and_the_edge_is_its_banker_minus_player():
    solution = chemin_odds(8)
    assert solution.ponte_draws_on_five == 1
    assert set(solution.banker_draws.values()) == {1}
    # The published counts: 2,292,252,566,437,888 Banker wins, 2,230,518,282,592,256 Player wins.
    assert solution.banker_edge == F(
        2_292_252_566_437_888 - 2_230_518_282_592_256, 4_998_398_275_503_360
    )
    assert round(float(solution.banker_edge), 9) == 0.012350813


@pytest.mark.parametrize(("decks", "published"), [(6, "1.23741"), (8, "1.23508")])
def test_read_by_totals_the_banker_s_edge_is_the_published_player_bet_edge(decks, published):
    """A banker deciding on his total alone draws in both choice cells against a ponte who always
    draws on 5: Punto Banco. His house-free edge is then P(Banker) − P(Player), which is the
    Player bet's published house edge (docs/rules.md)."""
    solution = chemin_game(decks, banker_sees_cards=False).solve()
    assert solution.ponte_draws_on_five == 1
    assert fraction_to_decimal(solution.banker_edge * 100, 5) == Decimal(published)


def test_six_decks_the_banker_reads_his_cards_on_five_against_a_four():
    """With six decks, a banker on 5 made of 1+4 or 2+3 does better standing against a 4 (the
    shoe is short of the cards that would help him); every other choice cell draws."""
    solution = chemin_odds(6)
    assert solution.ponte_draws_on_five == 1
    stands = {cell for cell, draws in solution.banker_draws.items() if draws == 0}
    assert stands == {BankerCell(5, 4, (1, 4)), BankerCell(5, 4, (2, 3))}
    assert all(draws == 1 for draws in solution.banker_draws.values() if draws != 0)
    # Slightly better for the banker than Punto Banco's 0.0123741 (docs/rules.md: 0.458652719 −
    # 0.446278570). Computed here; pinned so a change to the count shows.
    assert round(float(solution.banker_edge), 9) == 0.012375656
    assert solution.banker_edge > F(458652719 - 446278570, 10**9)


@pytest.mark.parametrize("decks", [None, 6, 8])
def test_standing_on_five_only_costs_the_ponte(decks):
    game = chemin_game(decks)
    always_stand, always_draw = game.banker_best_edge(F(0)), game.banker_best_edge(F(1))
    assert always_stand > always_draw == chemin_odds(decks).banker_edge
    assert float(always_stand - always_draw) > 0.003  # about a third of a percent of all coups


def test_the_taxe_turns_the_banker_s_edge_negative():
    solution = chemin_odds(8)
    after = solution.banker_edge_after(F(5, 100))
    assert after == solution.banker_edge - F(5, 100) * solution.outcomes[Winner.BANKER]
    assert round(float(after), 6) == -0.010579


# --- the published solution --------------------------------------------------------------------


def test_kemeny_and_snell_s_solution_when_the_banker_may_choose_everywhere():
    """Kemeny, J. G. and Snell, J. L. (1957), "Game-theoretic solution of baccarat", American
    Mathematical Monthly 64(7), 465–469: cards dealt with replacement, each side sees its total
    only, the ponte chooses on 5 and the banker is free in every cell (a 2 × 2⁸⁸ matrix game; the
    model as Ethier and Gámez, "A game-theoretic analysis of baccara chemin de fer", Games 4
    (2013) 711–737, arXiv:1305.5468, describe it). The published solution: the ponte draws on 5
    with probability 9/11, and the banker's advantage is about 1.28%.

    Under Chemin de fer's table the banker must stand on 6 when the ponte stood, the one cell where
    this solution has him mix; so there the ponte draws on 5 every time and the edge falls to
    1.228% (test above)."""
    game = chemin_game(None, banker_rules=lambda banker_total, third: frozenset(Choice))
    solution = game.solve()
    assert solution.ponte_draws_on_five == F(9, 11)
    assert abs(float(solution.banker_edge) - 0.0128) < 0.00005
    assert solution.banker_edge == F(679_568, 53_094_899)  # 0.0127991…
    mixed = {cell: q for cell, q in solution.banker_draws.items() if 0 < q < 1}
    assert mixed == {BankerCell(6, None): F(859, 2288)}  # computed here, not a published figure
    assert solution.banker_draws[BankerCell(3, 9)] == solution.banker_draws[BankerCell(5, 4)] == 1
    # Every other cell of the free banker's best play is Chemin de fer's table.
    seed = chemin_game(None)
    for cell, draws in solution.banker_draws.items():
        if cell not in mixed and len(seed.options[cell]) == 1:
            assert seed.options[cell] == {Choice.DRAW if draws else Choice.STAND}, cell
    # And the mix keeps the ponte indifferent: at 9/11 he may draw or stand on 5 alike.
    outcomes_draw = game.outcomes(F(1), solution.banker_draws)
    outcomes_stand = game.outcomes(F(0), solution.banker_draws)
    edge = [o[Winner.BANKER] - o[Winner.PLAYER] for o in (outcomes_draw, outcomes_stand)]
    assert edge[0] == edge[1] == solution.banker_edge


def test_the_infinite_shoe_under_the_chemin_de_fer_table():
    solution = chemin_odds(None)
    assert solution.ponte_draws_on_five == 1
    assert solution.banker_draws == {BankerCell(3, 9): 1, BankerCell(5, 4): 1}
    assert round(float(solution.banker_edge), 9) == 0.012281406
