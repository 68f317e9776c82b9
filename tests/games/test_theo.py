"""games.theo checked by another way of counting, against published figures, and in play.

The independent count below deals the shoe card by card (P1 B1 P2 B2, then the third cards),
recursively, with the drawing rules written again from docs/rules.md's tableau and the payouts
from its table of bets: it calls neither games.rules, games.odds nor games.payouts.
"""

from __future__ import annotations

import math
from collections import Counter
from decimal import Decimal, localcontext
from fractions import Fraction
from functools import cache

import pytest

from games.guest_banked.banque_money import BanqueTaxe, BanqueTaxeKind
from games.guest_banked.banque_odds import priced
from games.guest_banked.chemin_money import Bank, Cover, Taxe, TaxeKind, settle_coup
from games.guest_banked.terms import BankRules
from games.kinds import BancoKind, CoverKind, Game
from games.payouts import BetType, NoCommission, RuleSet, SideBet
from games.shoe import Shoe
from games.theo import (
    SPLITS,
    Moments,
    NotPriced,
    count_splits,
    hand_moments,
    nearest_split,
    split_joint,
    stake_moments,
)

F = Fraction

# --- the independent count ----------------------------------------------------------------------

# docs/rules.md, "Drawing rules": the Banker's total -> the Player's third cards it draws against.
BANKER_DRAWS_AGAINST = {
    0: set(range(10)),
    1: set(range(10)),
    2: set(range(10)),
    3: set(range(10)) - {8},
    4: {2, 3, 4, 5, 6, 7},
    5: {4, 5, 6, 7},
    6: {6, 7},
    7: set(),
}


def total(cards):
    return sum(cards) % 10


def next_card(player, banker):
    """Who takes the next card: "P", "B" or None (the hand is over)."""
    if len(player) + len(banker) < 4:  # P1 B1 P2 B2
        return "P" if len(player) == len(banker) else "B"
    player_two, banker_two = total(player[:2]), total(banker[:2])
    if player_two >= 8 or banker_two >= 8:  # a natural: both stand
        return None
    if len(player) == 2 and player_two <= 5:
        return "P"
    if len(banker) == 3:
        return None
    if len(player) == 2:  # the Player stood: the Banker draws on 0-5
        return "B" if banker_two <= 5 else None
    return "B" if player[2] in BANKER_DRAWS_AGAINST[banker_two] else None


@cache
def independent_deals(decks):
    """Every hand from a fresh ``decks``-deck shoe: (Player total, Banker total, Player cards,
    Banker cards) -> its chance. A card is dealt in as many ways as cards of its value are left;
    a hand of k cards counts once for each way the shoe's next 6 − k cards could follow, so that
    every hand is counted over the same sequences of six cards."""
    shoe = [16 * decks] + [4 * decks] * 9  # tens and pictures count 0
    cards = 52 * decks
    follow = {k: math.perm(cards - k, 6 - k) for k in (4, 5, 6)}
    found: Counter[tuple[int, int, int, int]] = Counter()

    def deal(player, banker, ways):
        side = next_card(player, banker)
        if side is None:
            dealt = len(player) + len(banker)
            found[total(player), total(banker), len(player), len(banker)] += ways * follow[dealt]
            return
        for value in range(10):
            if shoe[value]:
                drawn = ways * shoe[value]
                shoe[value] -= 1
                if side == "P":
                    deal([*player, value], banker, drawn)
                else:
                    deal(player, [*banker, value], drawn)
                shoe[value] += 1

    deal([], [], 1)
    sequences = math.perm(cards, 6)
    return {hand: F(ways, sequences) for hand, ways in found.items()}


def independent_returns(rules, bet, hand):
    """What one unit on ``bet`` returns for a hand, docs/rules.md's table of bets."""
    player, banker, _player_cards, _banker_cards = hand
    if bet is BetType.TIE:
        return F(rules.tie_pays) if player == banker else F(-1)
    if player == banker:
        return F(0)
    if bet is BetType.PLAYER:
        return F(1) if player > banker else F(-1)
    if player > banker:
        return F(-1)
    if rules.no_commission is NoCommission.SUPER6:
        return F(1, 2) if banker == 6 else F(1)
    return 1 - F(rules.commission_rate)


def independent_moments(rules, bet, decks):
    chances: Counter[Fraction] = Counter()
    if bet in (BetType.PLAYER_PAIR, BetType.BANKER_PAIR):
        # 13 ranks of 4·decks cards each: the side's two cards are one rank or not.
        cards, per_rank = 52 * decks, 4 * decks
        paired = F(13 * per_rank * (per_rank - 1), cards * (cards - 1))
        chances = Counter({F(rules.pair_pays): paired, F(-1): 1 - paired})
    else:
        for hand, chance in independent_deals(decks).items():
            chances[independent_returns(rules, bet, hand)] += chance
    mean = sum(value * chance for value, chance in chances.items())
    square = sum(value * value * chance for value, chance in chances.items())
    return mean, square - mean * mean


STANDARD_8 = RuleSet()
TIE_9_TO_1 = RuleSet(tie_pays=9)
SUPER_6 = RuleSet(commission_rate=Decimal(0), no_commission=NoCommission.SUPER6, pair_pays=11)
RULE_SETS = [(STANDARD_8, 8), (TIE_9_TO_1, 6), (SUPER_6, 8)]
COUNTED_BETS = (BetType.BANKER, BetType.PLAYER, BetType.TIE, BetType.PLAYER_PAIR)


def test_the_independent_count_deals_every_hand_once():
    for decks in (6, 8):
        assert sum(independent_deals(decks).values()) == 1


@pytest.mark.parametrize(("rules", "decks"), RULE_SETS)
@pytest.mark.parametrize("bet", COUNTED_BETS)
def test_every_stake_s_moments_are_the_independent_count_s_exactly(rules, decks, bet):
    mean, variance = independent_moments(rules, bet, decks)
    assert stake_moments(Game.PUNTO_BANCO, rules, decks, bet) == Moments(-mean, mean, variance)


def percent(value: Fraction) -> Decimal:
    with localcontext() as context:
        context.prec = 40
        return (Decimal(value.numerator) / value.denominator * 100).quantize(Decimal("0.0001"))


def standard_deviation(moments: Moments) -> Decimal:
    with localcontext() as context:
        context.prec = 40
        variance = Decimal(moments.variance.numerator) / moments.variance.denominator
        return variance.sqrt().quantize(Decimal("0.0001"))


@pytest.mark.parametrize(
    ("rules", "decks", "bet", "edge", "sd"),
    [
        # Wizard of Odds, "Baccarat": eight decks, house edge and standard deviation per bet.
        (STANDARD_8, 8, BetType.BANKER, "1.0579", "0.9274"),
        (STANDARD_8, 8, BetType.PLAYER, "1.2351", "0.9512"),
        # The tie's exact SD is 9·√(p(1 − p)), p = 475,627,426,473,216 / 4,998,398,275,503,360:
        # 2.64088, so 2.6409; the 2.6411 quoted for it is 0.0002 off (below).
        (STANDARD_8, 8, BetType.TIE, "14.3596", "2.6409"),
        # Six decks: the outcome chances docs/rules.md quotes (Banker 0.458652719, Player
        # 0.446278570, so a tie 0.095068711) give these edges; a tie at 9:1 is 1 − 10·P(tie).
        (TIE_9_TO_1, 6, BetType.BANKER, "1.0558", None),
        (TIE_9_TO_1, 6, BetType.PLAYER, "1.2374", None),
        (TIE_9_TO_1, 6, BetType.TIE, "4.9313", None),
        # excelpunks.com, "Concepts 13: Baccarat vs non-commission baccarat" (eight decks, a
        # Banker win on 6 paying half): 0.014581045. Wizard of Odds: a pair at 11:1, 10.36%.
        (SUPER_6, 8, BetType.BANKER, "1.4581", None),
        (SUPER_6, 8, BetType.PLAYER_PAIR, "10.3614", None),
    ],
)
def test_the_published_edges_and_standard_deviations(rules, decks, bet, edge, sd):
    moments = stake_moments(Game.PUNTO_BANCO, rules, decks, bet)
    assert percent(moments.house_edge) == Decimal(edge)
    if sd is not None:
        assert standard_deviation(moments) == Decimal(sd)


def test_the_tie_s_standard_deviation_is_nine_times_a_coin_s():
    p = F(475_627_426_473_216, 4_998_398_275_503_360)
    tie = stake_moments(Game.PUNTO_BANCO, STANDARD_8, 8, BetType.TIE)
    assert tie.variance == 81 * p * (1 - p)
    assert abs(standard_deviation(tie) - Decimal("2.6411")) <= Decimal("0.0002")


# --- the guest-banked games ---------------------------------------------------------------------

CHEMIN = BankRules(Game.CHEMIN_DE_FER, minimum_banco=Decimal(100))
PER_SHOE = BankRules(
    Game.CHEMIN_DE_FER,
    minimum_banco=Decimal(100),
    taxe=Taxe(TaxeKind.FIXED_PER_SHOE),
    shoe_charge=Decimal(50),
)


def banque(kind=BanqueTaxeKind.WINNINGS, banco=BancoKind.LIMITEE):
    return BankRules(
        Game.BACCARA_BANQUE, minimum_banco=Decimal(100), banque_taxe=BanqueTaxe(kind, banco)
    )


def test_chemin_de_fer_at_eight_decks_is_the_independent_count_s_banker_and_player():
    """With eight decks best play is Punto Banco's tableau (docs/rules.md; Downton and
    Lockwood's finding for a long shoe): the bank under a 5% taxe is the Banker bet less 5%
    commission, a cover the Player bet, here by the independent count. The taxe the house
    expects is 5% of the coups the bank wins."""
    banker_mean, banker_variance = independent_moments(STANDARD_8, BetType.BANKER, 8)
    player_mean, player_variance = independent_moments(STANDARD_8, BetType.PLAYER, 8)
    bank_wins = sum(
        chance for (player, banker, *_), chance in independent_deals(8).items() if banker > player
    )
    bank = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 8, "bank", bank_rules=CHEMIN)
    assert bank == Moments(F(5, 100) * bank_wins, banker_mean, banker_variance)
    for kind in CoverKind:
        cover = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 8, "cover", kind, bank_rules=CHEMIN)
        assert cover == Moments(F(0), player_mean, player_variance)
    # The published figures: the banker's 1.0579% loss after the taxe, SD 0.9274; 1.2351% and
    # 0.9512 for the ponte.
    assert percent(-bank.mean) == Decimal("1.0579")
    assert standard_deviation(bank) == Decimal("0.9274")
    assert percent(-cover.mean) == Decimal("1.2351")
    assert standard_deviation(cover) == Decimal("0.9512")


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_a_chemin_de_fer_coup_sums_to_zero_between_the_guests_and_the_house(decks):
    bank = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, decks, "bank", bank_rules=CHEMIN)
    cover = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, decks, "cover", bank_rules=CHEMIN)
    assert bank.mean + bank.house_edge + cover.mean == 0
    assert bank.house_edge > 0 and cover.house_edge == 0


def test_a_table_charge_per_shoe_costs_the_bank_nothing_per_coup():
    bank = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 8, "bank", bank_rules=PER_SHOE)
    cover = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 8, "cover", bank_rules=PER_SHOE)
    assert bank.house_edge == 0
    assert bank.mean == -cover.mean and bank.variance == cover.variance
    assert percent(bank.mean) == Decimal("1.2351")


def test_the_six_deck_bank_reads_its_cards_and_does_a_little_better():
    """Six decks: the banker stands on 1+4 and 2+3 against a 4 (games.guest_banked.chemin_odds),
    a shade better than Punto Banco's Banker, whose edge with no taxe is 1.2374% (the Player
    bet's, docs/rules.md)."""
    bank = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 6, "bank", bank_rules=PER_SHOE)
    assert percent(bank.mean) == Decimal("1.2376")


@pytest.mark.parametrize("banco", list(BancoKind))
@pytest.mark.parametrize("stakes", [(Decimal(1), Decimal(1)), (Decimal(300), Decimal(100))])
def test_a_baccara_banque_coup_sums_to_zero_and_the_bank_is_its_two_tableaux(banco, stakes):
    rules = banque(banco=banco)
    first, second = map(F, stakes)
    bank = stake_moments(
        Game.BACCARA_BANQUE, STANDARD_8, 8, "bank", bank_rules=rules, tableau_stakes=stakes
    )
    one, two = (
        stake_moments(
            Game.BACCARA_BANQUE, STANDARD_8, 8, tableau, bank_rules=rules, tableau_stakes=stakes
        )
        for tableau in ("tableau_1", "tableau_2")
    )
    assert (first + second) * (
        bank.mean + bank.house_edge
    ) + first * one.mean + second * two.mean == 0
    assert one.house_edge == two.house_edge == 0 < bank.house_edge


def test_the_banque_bank_s_moments_worked_from_the_joint_results():
    """Equal stakes: the bank gains 1 per unit winning both tableaux, ½ winning one with an
    égalité on the other, 0 winning one and losing the other (or two égalités), −½, −1; the
    house takes 2% of the gains (banque limitée)."""
    joint = priced(8).best.joint  # index: tableau 1's result · 3 + tableau 2's (bank, ponte, =)
    gain = {0: F(1), 1: F(-1), 2: F(0)}
    mean = square = cut = F(0)
    for index, chance in enumerate(joint):
        gross = (gain[index // 3] + gain[index % 3]) / 2
        taxe = F(2, 100) * max(gross, F(0))
        mean += (gross - taxe) * chance
        square += (gross - taxe) ** 2 * chance
        cut += taxe * chance
    bank = stake_moments(Game.BACCARA_BANQUE, STANDARD_8, 8, "bank", bank_rules=banque())
    assert bank == Moments(cut, mean, square - mean * mean)
    assert bank.mean == priced(8).best.banker_edge_after(F(2, 100))


@pytest.mark.parametrize("decks", range(1, 9))
def test_equal_stakes_are_the_play_the_rules_page_prints(decks):
    assert split_joint(decks, SPLITS // 2) == priced(decks).best.joint
    tableau = stake_moments(Game.BACCARA_BANQUE, STANDARD_8, decks, "tableau_1")
    assert tableau.mean == priced(decks).best.ponte_edge(0)


def test_the_banker_answers_the_stakes_he_faces():
    """docs/rules.md: with three times as much on one tableau the bank keeps 0.962%, with
    everything on one 1.246%, and a small stake on the other tableau would be 0.30% ahead."""

    def moments(stake, first, second):
        return stake_moments(
            Game.BACCARA_BANQUE,
            STANDARD_8,
            8,
            stake,
            bank_rules=banque(kind=BanqueTaxeKind.CAPITAL),
            tableau_stakes=(Decimal(first), Decimal(second)),
        )

    assert percent(moments("bank", 300, 100).mean) == Decimal("0.9621")
    assert percent(moments("bank", 0, 500).mean) == Decimal("1.2460")
    assert percent(moments("bank", 500, 0).mean) == Decimal("1.2460")
    assert percent(moments("tableau_1", 1, 1000).mean) == Decimal("0.2997")
    # The nearest split of 21: 1 in 1,000 is tableau 1's share 0; 26% is 5/20; 27.5%, 6/20.
    assert nearest_split(F(1, 1000)) == 0
    assert nearest_split(F(26, 100)) == 5 and nearest_split(F(275, 1000)) == 6
    assert moments("tableau_1", 26, 74) == moments("tableau_1", 1, 3)


@pytest.mark.slow
def test_the_splits_written_are_a_fresh_count():
    denominator, joints = count_splits(6)
    assert [split_joint(6, k) for k in range(SPLITS + 1)] == [
        tuple(F(count, denominator) for count in joint) for joint in joints
    ]


def test_a_banque_taxed_on_its_capital_costs_nothing_per_coup():
    rules = banque(kind=BanqueTaxeKind.CAPITAL)
    bank = stake_moments(Game.BACCARA_BANQUE, STANDARD_8, 6, "bank", bank_rules=rules)
    assert bank.house_edge == 0
    assert bank.mean == priced(6).best.banker_edge
    # acanomas.com (six decks, stakes about equal): the bank's advantage about 0.85%.
    assert abs(bank.mean - F(85, 10000)) < F(5, 10000)


@pytest.mark.parametrize(
    ("game", "bet_type", "cover_kind"),
    [
        (Game.PUNTO_BANCO, "bank", ""),
        (Game.CHEMIN_DE_FER, "banker", ""),
        (Game.CHEMIN_DE_FER, "tableau_1", ""),
        (Game.CHEMIN_DE_FER, "bank", "banco_solo"),
        (Game.CHEMIN_DE_FER, "cover", "nonsense"),
        (Game.BACCARA_BANQUE, "cover", ""),
        ("bridge", "bank", ""),
    ],
)
def test_a_stake_the_game_does_not_have_is_not_priced(game, bet_type, cover_kind):
    with pytest.raises(NotPriced):
        stake_moments(game, STANDARD_8, 8, bet_type, cover_kind)


# --- many nights dealt ------------------------------------------------------------------------

# Two-sided normal tail: a correct implementation strays beyond K standard errors less than
# once in a million runs (2·(1 − Φ(4.9)) ≈ 9.6e-7). Hands of one shoe are not quite independent
# (each takes cards from the next), which moves the error by far less than this margin.
K = 4.9
NIGHTS = 250  # one 8-deck shoe a night, about 80 hands each
# The fixed pattern a guest bets every hand: one unit on Banker and one on Player. Its result is
# minus the commission on the hands Banker wins, so its spread is small and a wrong commission
# shows within a few thousand hands; each bet alone is checked too, with its own (wide) error.
PATTERN = {BetType.BANKER: F(1), BetType.PLAYER: F(1)}
ALONE = (BetType.BANKER, BetType.PLAYER, BetType.TIE, BetType.PLAYER_PAIR)
COUP = ("bank", "cover")


@cache
def dealt_nights():
    """Every hand of NIGHTS shoes, shuffled and dealt by games.shoe and games.rules, the
    cut card and the burn included; each hand's result per unit of every bet, settled by
    games.payouts at eight decks' standard rules."""
    from games.payouts import bet_return

    rules = RuleSet(side_bets=frozenset({SideBet.PAIRS}))
    results: dict[BetType | str, list[Fraction]] = {bet: [] for bet in (*ALONE, *COUP)}
    bank = Bank("banker", Decimal(100))
    covers = [Cover("ponte", Decimal(100), CoverKind.BANCO_SOLO)]
    for night in range(NIGHTS):
        for hand in Shoe(8, seed=f"theo night {night}").hands():
            outcome = hand.outcome()
            for bet in ALONE:
                unit = bet_return(rules, bet, outcome)
                results[bet].append(unit.win - unit.commission)
            # The same hand as a coup of Chemin de fer (at eight decks best play is the
            # tableau), a bank of 100 covered by a banco, paid by chemin_money.
            coup = settle_coup(bank, covers, outcome.winner, Taxe())
            results["bank"].append(F(coup.bank_net) / 100)
            results["cover"].append(F(coup.nets["ponte"]) / 100)
    return results


def strays(results, moments):
    """How many standard errors the results' mean per unit is from the stated mean."""
    n = len(results)
    mean = sum(results, F(0)) / n
    return abs(float(mean - moments.mean)) / math.sqrt(moments.variance / n)


def pattern_results(results):
    """The pattern's result per unit staked, hand by hand."""
    staked = sum(PATTERN.values())
    return [
        sum(PATTERN[bet] * results[bet][index] for bet in PATTERN) / staked
        for index in range(len(results[BetType.BANKER]))
    ]


@pytest.mark.slow
def test_many_nights_dealt_from_shuffled_shoes_come_within_the_stated_error():
    results = dealt_nights()
    assert len(results[BetType.BANKER]) > 19_000
    pattern = hand_moments(STANDARD_8, 8, PATTERN)
    # The pattern's spread: a commission of 5% on the hands Banker wins, about 0.0125 a unit.
    assert 0.012 < math.sqrt(pattern.variance) < 0.013
    assert strays(pattern_results(results), pattern) < K
    for bet in ALONE:
        assert strays(results[bet], stake_moments(Game.PUNTO_BANCO, STANDARD_8, 8, bet)) < K
    for stake in COUP:
        moments = stake_moments(Game.CHEMIN_DE_FER, STANDARD_8, 8, stake, bank_rules=CHEMIN)
        assert strays(results[stake], moments) < K


@pytest.mark.slow
def test_a_wrong_edge_is_caught_by_the_same_nights():
    """The theory of a 4% commission, against hands paid at 5%: far outside its error."""
    wrong = hand_moments(RuleSet(commission_rate=Decimal("0.04")), 8, PATTERN)
    assert strays(pattern_results(dealt_nights()), wrong) > 2 * K
