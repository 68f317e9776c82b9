"""Chemin de fer's money (games/guest_banked/chemin_money.py): worked coups written by hand, every
refusal with its message, and hypothesis: money is zero-sum with the house's cut and no cover
exceeds the bank.

The source's wording each rule follows is quoted in the module's docstring."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.guest_banked import chemin_money as cm
from games.guest_banked.chemin_money import (
    Bank,
    BankError,
    Cover,
    Suite,
    Taxe,
    TaxeKind,
    bank_kept,
    bank_open,
    check_passes,
    covers_accepted,
    in_seat_order,
    seat_order,
    seat_to_the_right,
    settle_coup,
    suite,
    suivi_for,
)
from games.kinds import BankerMove, CoverKind, SuiteWay
from games.rules import Winner

D = Decimal
SOLO, A_DEUX, AVEC, ORDINARY, SUIVI = (
    CoverKind.BANCO_SOLO,
    CoverKind.BANCO_A_DEUX,
    CoverKind.AVEC_LA_TABLE,
    CoverKind.ORDINARY,
    CoverKind.SUIVI,
)


def cover(guest: str, amount: str, kind: CoverKind = ORDINARY) -> Cover:
    return Cover(guest, D(amount), kind)


def refusals(result: cm.CoverResult) -> list[tuple[str, str]]:
    return [(refusal.cover.guest, refusal.error.template) for refusal in result.refused]


def raises(template: str, call, *args, **kwargs) -> BankError:
    with pytest.raises(BankError) as raised:
        call(*args, **kwargs)
    assert raised.value.template == template, str(raised.value)
    return raised.value


# --- covers: worked examples ---------------------------------------------------------------------


def test_banco_solo_takes_the_whole_bank_and_refuses_the_rest():
    bank = Bank("Ann", D("1000"))
    offers = [cover("Bob", "200"), cover("Cy", "1000", SOLO), cover("Di", "300")]
    result = covers_accepted(bank, offers)
    assert result.accepted == (offers[1],)
    assert refusals(result) == [
        ("Bob", cm.MSG_BANCO_SOLO_STANDS),
        ("Di", cm.MSG_BANCO_SOLO_STANDS),
    ]
    assert str(result.refused[0].error) == "Cy plays banco solo: every other stake is refused."
    assert result.uncovered == D("0") and result.covered == D("1000")
    assert result.card_holder == "Cy"


def test_of_two_bancos_the_nearer_the_bankers_right_comes_first():
    bank = Bank("Ann", D("500"))
    result = covers_accepted(bank, [cover("Bob", "500", SOLO), cover("Cy", "500", SOLO)])
    assert [c.guest for c in result.accepted] == ["Bob"]
    error = result.refused[0].error
    assert error.template == cm.MSG_PRIME
    assert str(error) == "Bob called banco nearer the banker's right and comes first."


def test_suivi_comes_before_a_banco_nearer_the_bankers_right():
    bank = Bank("Ann", D("400"))
    offers = [cover("Bob", "400", SOLO), cover("Cy", "400", SUIVI), cover("Di", "50")]
    result = covers_accepted(bank, offers, suivi="Cy")
    assert result.accepted == (offers[1],) and result.card_holder == "Cy"
    assert refusals(result) == [("Bob", cm.MSG_SUIVI_FIRST), ("Di", cm.MSG_BANCO_SOLO_STANDS)]


def test_suivi_is_only_for_the_ponte_who_lost_the_last_banco():
    bank = Bank("Ann", D("400"))
    result = covers_accepted(bank, [cover("Bob", "400", SUIVI)], suivi="Cy")
    assert result.accepted == () and result.card_holder is None
    assert refusals(result) == [("Bob", cm.MSG_SUIVI_NOT_ENTITLED)]
    result = covers_accepted(bank, [cover("Bob", "400", SUIVI)])
    assert refusals(result) == [("Bob", cm.MSG_SUIVI_NOT_ENTITLED)]


def test_who_may_call_suivi_after_a_coup():
    bank = Bank("Ann", D("400"))
    lost = settle_coup(bank, [cover("Cy", "400", SOLO)], Winner.BANKER)
    assert suivi_for(lost) == "Cy"
    assert suivi_for(settle_coup(bank, [cover("Cy", "400", SUIVI)], Winner.BANKER)) == "Cy"
    assert suivi_for(settle_coup(bank, [cover("Cy", "400", SOLO)], Winner.PLAYER)) is None
    assert suivi_for(settle_coup(bank, [cover("Cy", "400", SOLO)], Winner.TIE)) is None
    assert suivi_for(settle_coup(bank, [cover("Cy", "400")], Winner.BANKER)) is None
    # the suivi banco is the whole bank as it now stands: 400 + 400 − 20 taxe
    kept = bank_kept(lost)
    assert kept.amount == D("780")
    result = covers_accepted(kept, [cover("Cy", "780", SUIVI)], suivi=suivi_for(lost))
    assert result.card_holder == "Cy" and result.uncovered == 0


def test_banco_a_deux_shares_the_whole_bank_between_two_pontes():
    bank = Bank("Ann", D("1000"))
    offers = [
        cover("Bob", "100"),
        cover("Cy", "600", A_DEUX),
        cover("Di", "400", A_DEUX),
        cover("Ed", "500", AVEC),
        cover("Flo", "1", A_DEUX),
    ]
    result = covers_accepted(bank, offers)
    assert result.accepted == (offers[1], offers[2])
    assert result.card_holder == "Cy" and result.uncovered == 0
    assert refusals(result) == [
        ("Bob", cm.MSG_A_DEUX_STANDS),
        ("Ed", cm.MSG_A_DEUX_STANDS),
        ("Flo", cm.MSG_A_DEUX_TAKEN),
    ]


def test_banco_solo_beats_banco_a_deux():
    bank = Bank("Ann", D("1000"))
    offers = [cover("Cy", "500", A_DEUX), cover("Di", "500", A_DEUX), cover("Ed", "1000", SOLO)]
    result = covers_accepted(bank, offers)
    assert result.accepted == (offers[2],)
    assert refusals(result) == [("Cy", cm.MSG_BANCO_SOLO_STANDS), ("Di", cm.MSG_BANCO_SOLO_STANDS)]


def test_banco_a_deux_needs_two_and_the_whole_bank():
    bank = Bank("Ann", D("1000"))
    alone = covers_accepted(bank, [cover("Cy", "500", A_DEUX), cover("Di", "100")])
    assert refusals(alone) == [("Cy", cm.MSG_A_DEUX_ALONE)]
    assert alone.accepted == (cover("Di", "100"),) and alone.uncovered == D("900")
    short = covers_accepted(bank, [cover("Cy", "500", A_DEUX), cover("Di", "400", A_DEUX)])
    assert refusals(short) == [("Cy", cm.MSG_A_DEUX_WHOLE_BANK), ("Di", cm.MSG_A_DEUX_WHOLE_BANK)]
    assert str(short.refused[0].error) == (
        "Banco à deux: the two stakes together take the whole bank of 1,000, not 900."
    )


def test_banco_avec_la_table_takes_half_and_the_table_covers_the_other_half():
    bank = Bank("Ann", D("1000"))
    offers = [
        cover("Bob", "300"),
        cover("Cy", "500", AVEC),
        cover("Di", "250"),
        cover("Ed", "500", AVEC),
        cover("Flo", "100"),
    ]
    result = covers_accepted(bank, offers)
    assert [c.guest for c in result.accepted] == ["Bob", "Cy", "Flo"]
    assert result.uncovered == D("100") and result.card_holder == "Cy"
    assert refusals(result) == [("Di", cm.MSG_STAKE_EXCEEDS), ("Ed", cm.MSG_AVEC_TAKEN)]
    assert str(result.refused[0].error) == (
        "Di's stake of 250 is more than the 200 of the bank still to cover."
    )


def test_banco_avec_is_exactly_half_the_bank_the_odd_cent_by_round_money():
    bank = Bank("Ann", D("100.01"))
    wrong = covers_accepted(bank, [cover("Cy", "50", AVEC)])
    assert refusals(wrong) == [("Cy", cm.MSG_AVEC_HALF)]
    assert str(wrong.refused[0].error) == (
        "Banco avec la table takes half the bank, 50.01, not 50."
    )
    right = covers_accepted(bank, [cover("Cy", "50.01", AVEC), cover("Di", "50")])
    assert right.uncovered == 0 and right.card_holder == "Cy"


def test_ordinary_covers_in_seat_order_with_an_uncovered_remainder():
    # seats 1–7, Ann banks from seat 5: the order is 6, 7, 1, 2, 3, 4
    seat_of = {"Ann": 5, "Bob": 6, "Cy": 7, "Di": 1, "Ed": 2, "Flo": 3, "Gus": 4}
    assert seat_order(5, seat_of.values()) == [6, 7, 1, 2, 3, 4]
    bank = Bank("Ann", D("1000"))
    offers = in_seat_order(
        [
            cover("Gus", "50"),
            cover("Di", "500"),
            cover("Bob", "300"),
            cover("Cy", "100"),
            cover("Ed", "150"),
            cover("Flo", "80"),
        ],
        seat_of,
        banker_seat=5,
    )
    assert [c.guest for c in offers] == ["Bob", "Cy", "Di", "Ed", "Flo", "Gus"]
    result = covers_accepted(bank, offers)
    # 300 + 100 + 500 = 900; Ed's 150 is more than the 100 open; Flo's 80 fits; Gus's 50 does not
    assert [c.guest for c in result.accepted] == ["Bob", "Cy", "Di", "Flo"]
    assert refusals(result) == [("Ed", cm.MSG_STAKE_EXCEEDS), ("Gus", cm.MSG_STAKE_EXCEEDS)]
    assert result.uncovered == D("20") and result.covered == D("980")
    assert result.card_holder == "Di"  # the largest stake holds the cards

    money = settle_coup(bank, result.accepted, Winner.BANKER)
    assert money.returned == D("20")  # back to the banker, off the table
    assert money.house_cut == D("49.00") and money.banker_net == D("931.00")
    assert money.bank_after == D("1911.00")  # 980 played, 980 won, less 49


def test_once_the_bank_is_covered_every_later_stake_is_refused():
    result = covers_accepted(Bank("Ann", D("100")), [cover("Bob", "100"), cover("Cy", "5")])
    assert refusals(result) == [("Cy", cm.MSG_BANK_COVERED)]
    assert str(result.refused[0].error) == "The bank is covered: Cy's stake of 5 is refused."


def test_equal_stakes_the_nearer_the_bankers_right_holds_the_cards():
    result = covers_accepted(Bank("Ann", D("100")), [cover("Bob", "40"), cover("Cy", "40")])
    assert result.card_holder == "Bob"


# --- covers: every refusal -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("offer", "template", "text"),
    [
        (cover("Ann", "10"), cm.MSG_BANKER_AGAINST_HIMSELF, "Ann holds the bank and cannot stake"),
        (cover("Zoe", "10"), cm.MSG_CO_BANKER_AGAINST_HIMSELF, "Zoe shares the bank and cannot"),
        (cover("Bob", "0"), cm.MSG_STAKE_NOT_POSITIVE, "Bob's stake must be more than nothing"),
        (cover("Bob", "-5"), cm.MSG_STAKE_NOT_POSITIVE, "not −5."),
        (cover("Bob", "10.005"), cm.MSG_STAKE_CENTS, "Bob's stake of 10.005 is not a whole"),
        (cover("Bob", "9.99"), cm.MSG_STAKE_BELOW_MINIMUM, "minimum stake of 10 (10% of the"),
        (cover("Bob", "1001"), cm.MSG_STAKE_EXCEEDS, "more than the 1,000 of the bank"),
        (cover("Bob", "999", SOLO), cm.MSG_BANCO_WHOLE_BANK, "whole bank of 1,000, not 999"),
        (cover("Bob", "1000", SUIVI), cm.MSG_SUIVI_NOT_ENTITLED, "and Bob did not."),
        (cover("Bob", "400", AVEC), cm.MSG_AVEC_HALF, "half the bank, 500, not 400"),
        (cover("Bob", "500", A_DEUX), cm.MSG_A_DEUX_ALONE, "and Bob called it alone"),
    ],
)
def test_every_refused_offer_names_its_rule(offer, template, text):
    bank = Bank("Ann", D("1000"), co_banker="Zoe")
    result = covers_accepted(bank, [offer], minimum_banco=D("100"))
    assert result.accepted == () and result.uncovered == D("1000")
    assert refusals(result) == [(offer.guest, template)]
    assert text in str(result.refused[0].error)


def test_one_stake_each():
    result = covers_accepted(Bank("Ann", D("100")), [cover("Bob", "10"), cover("Bob", "20")])
    assert refusals(result) == [("Bob", cm.MSG_ONE_STAKE_EACH)]
    assert result.accepted == (cover("Bob", "10"),)


def test_an_offer_from_a_guest_not_seated_is_refused():
    error = raises(cm.MSG_NOT_SEATED, in_seat_order, [cover("Bob", "1")], {"Ann": 1}, 1)
    assert str(error) == "Bob has no seat at the table."


def test_the_bankers_own_offer_sorts_last_and_is_refused():
    seat_of = {"Ann": 2, "Bob": 1, "Cy": 3}
    offers = in_seat_order([cover("Ann", "5"), cover("Bob", "5"), cover("Cy", "5")], seat_of, 2)
    assert [c.guest for c in offers] == ["Cy", "Bob", "Ann"]
    result = covers_accepted(Bank("Ann", D("100")), offers)
    assert refusals(result) == [("Ann", cm.MSG_BANKER_AGAINST_HIMSELF)]


# --- the bank ------------------------------------------------------------------------------------


def test_a_bank_is_a_positive_amount_in_cents_at_least_the_minimum_banco():
    raises(cm.MSG_BANK_NOT_POSITIVE, Bank, "Ann", D("0"))
    raises(cm.MSG_BANK_CENTS, Bank, "Ann", D("10.001"))
    raises(cm.MSG_CO_BANKER_IS_BANKER, Bank, "Ann", D("10"), "Ann")
    error = raises(cm.MSG_BANK_BELOW_MINIMUM, bank_open, "Ann", D("99"), minimum_banco=D("100"))
    assert str(error) == "The bank of 99 is below the minimum banco of 100."
    assert bank_open("Ann", D("100"), minimum_banco=D("100")) == Bank("Ann", D("100"))


# --- a coup --------------------------------------------------------------------------------------


def test_the_banker_wins_and_pays_5_percent_of_his_winnings():
    bank = Bank("Ann", D("1000"))
    money = settle_coup(bank, [cover("Bob", "1000", SOLO)], Winner.BANKER)
    assert money.nets == {"Ann": D("950.00"), "Bob": D("-1000")}
    assert money.house_cut == D("50.00") and money.bank_after == D("1950.00")


def test_the_pontes_win_1_to_1_and_the_house_takes_nothing():
    bank = Bank("Ann", D("1000"))
    money = settle_coup(bank, [cover("Bob", "600"), cover("Cy", "300")], Winner.PLAYER)
    assert money.nets == {"Ann": D("-900"), "Bob": D("600"), "Cy": D("300")}
    assert money.house_cut == 0 and money.bank_after == 0 and money.returned == D("100")


def test_egalite_is_void_everyone_keeps_his_stake():
    bank = Bank("Ann", D("1000"), "Zoe")
    money = settle_coup(bank, [cover("Bob", "600"), cover("Cy", "300")], Winner.TIE)
    assert money.nets == {"Ann": 0, "Zoe": 0, "Bob": 0, "Cy": 0}
    assert money.house_cut == 0 and money.bank_after == D("900") and money.returned == D("100")
    assert bank_kept(money) == Bank("Ann", D("900"), "Zoe")


def test_the_taxe_is_rounded_half_up_to_the_cent():
    money = settle_coup(Bank("Ann", D("100")), [cover("Bob", "10.10")], Winner.BANKER)
    assert money.house_cut == D("0.51")  # 0.505 → 0.51
    assert money.banker_net == D("9.59")
    money = settle_coup(
        Bank("Ann", D("100")), [cover("Bob", "10.10")], Winner.BANKER, Taxe(rate=D("0.04"))
    )
    assert money.house_cut == D("0.40")  # 0.404


def test_a_fixed_taxe_per_shoe_costs_nothing_per_coup():
    taxe = Taxe(TaxeKind.FIXED_PER_SHOE)
    money = settle_coup(Bank("Ann", D("100")), [cover("Bob", "100")], Winner.BANKER, taxe)
    assert money.house_cut == 0 and money.banker_net == D("100")


def test_the_taxe_rate_is_between_0_and_10_percent():
    raises(cm.MSG_TAXE_RATE, Taxe, rate=D("0.11"))
    raises(cm.MSG_TAXE_RATE, Taxe, rate=D("-0.01"))
    assert Taxe(rate=D("0")).on_win(D("100")) == 0


def test_co_banker_shares_gain_and_loss_equally_the_odd_cent_is_his():
    bank = Bank("Ann", D("1000"), "Zoe")
    # won 10.10, taxe 0.51: the bank nets 9.59; Zoe's half 4.795 → 4.80, Ann 4.79
    money = settle_coup(bank, [cover("Bob", "10.10")], Winner.BANKER)
    assert (money.banker_net, money.co_banker_net) == (D("4.79"), D("4.80"))
    # lost 10.01: Zoe's half −5.005 → −5.01, Ann −5.00
    money = settle_coup(bank, [cover("Bob", "10.01")], Winner.PLAYER)
    assert (money.banker_net, money.co_banker_net) == (D("-5.00"), D("-5.01"))
    assert money.nets == {"Ann": D("-5.00"), "Zoe": D("-5.01"), "Bob": D("10.01")}


@pytest.mark.parametrize(
    ("covers", "template"),
    [
        ([cover("Bob", "60"), cover("Cy", "50")], cm.MSG_COVERS_EXCEED_BANK),
        ([cover("Ann", "10")], cm.MSG_BANKER_AGAINST_HIMSELF),
        ([cover("Zoe", "10")], cm.MSG_CO_BANKER_AGAINST_HIMSELF),
        ([cover("Bob", "0")], cm.MSG_STAKE_NOT_POSITIVE),
        ([cover("Bob", "1.001")], cm.MSG_STAKE_CENTS),
    ],
)
def test_a_coup_with_stakes_the_bank_could_not_hold_is_refused(covers, template):
    raises(template, settle_coup, Bank("Ann", D("100"), "Zoe"), covers, Winner.BANKER)


# --- the bank's next holder ----------------------------------------------------------------------


def test_a_winning_banker_keeps_all_of_it_and_takes_nothing_out():
    money = settle_coup(Bank("Ann", D("100")), [cover("Bob", "100")], Winner.BANKER)
    assert bank_kept(money) == Bank("Ann", D("195.00"))
    error = raises(cm.MSG_NO_MONEY_OUT, bank_kept, money, taken=D("95"))
    assert str(error) == "The banker may not take money out while holding the bank (95 asked)."
    raises(cm.MSG_NO_MONEY_OUT, cm.check_withdrawal, D("1"))
    cm.check_withdrawal(D("0"))


def test_a_losing_bank_passes_to_the_right():
    money = settle_coup(Bank("Ann", D("100")), [cover("Bob", "100")], Winner.PLAYER)
    raises(cm.MSG_BANK_LOST, bank_kept, money)
    check_passes(money)
    assert seat_to_the_right(3, [1, 3, 4, 6]) == 4
    assert seat_to_the_right(6, [1, 3, 4, 6]) == 1  # round the table
    raises(cm.MSG_NOBODY_TO_TAKE, seat_to_the_right, 3, [3])
    won = settle_coup(Bank("Ann", D("100")), [cover("Bob", "100")], Winner.BANKER)
    raises(cm.MSG_BANK_KEPT, check_passes, won)


SEATED = {1: "Di", 3: "Ann", 4: "Bob", 6: "Cy"}


def won_coup(amount: str = "100") -> cm.CoupMoney:
    return settle_coup(Bank("Ann", D(amount)), [cover("Bob", amount)], Winner.BANKER)


def test_a_suite_is_offered_round_the_table_at_the_current_amount():
    money = won_coup()  # 195 on the table
    taken = suite(money, banker_seat=3, seated=SEATED, takers={"Di", "Cy"}, minimum_banco=D("50"))
    # from Ann's right: seat 4 (Bob, declines), 6 (Cy, takes) before seat 1 (Di)
    assert taken == Suite(Bank("Cy", D("195.00")), SuiteWay.TAKEN, 6, rotation_seat=3)
    # when Cy's bank loses, the shoe goes to the right of Ann, who gave the suite: Bob
    lost = settle_coup(taken.bank, [cover("Di", "195")], Winner.PLAYER)
    check_passes(lost)
    assert seat_to_the_right(taken.rotation_seat, SEATED) == 4


def test_a_suite_nobody_takes_is_auctioned_then_given_at_the_minimum():
    money = won_coup()
    bids = {"Di": D("80"), "Cy": D("80"), "Bob": D("60")}
    auctioned = suite(money, banker_seat=3, seated=SEATED, bids=bids, minimum_banco=D("50"))
    assert auctioned == Suite(Bank("Cy", D("80")), SuiteWay.AUCTIONED, 6, 3)  # Cy nearer
    nobody = suite(money, banker_seat=3, seated=SEATED, minimum_banco=D("50"))
    assert nobody == Suite(Bank("Bob", D("50")), SuiteWay.NEXT_IN_TURN, 4, 3)
    low = {"Bob": D("49")}
    raises(
        cm.MSG_BID_TOO_LOW,
        suite,
        money,
        banker_seat=3,
        seated=SEATED,
        bids=low,
        minimum_banco=D("50"),
    )
    raises(
        cm.MSG_NOBODY_TO_TAKE, suite, money, banker_seat=3, seated={3: "Ann"}, minimum_banco=D("50")
    )
    lost = settle_coup(Bank("Ann", D("100")), [cover("Bob", "100")], Winner.PLAYER)
    raises(
        cm.MSG_SUITE_AFTER_LOSS, suite, lost, banker_seat=3, seated=SEATED, minimum_banco=D("50")
    )


def test_the_moves_the_ledger_records():
    assert {move.value for move in BankerMove} == {"keep", "suite", "pass", "retire"}


# --- properties ----------------------------------------------------------------------------------

GUESTS = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Zoe"]
cents = st.integers(min_value=1, max_value=500_000).map(lambda n: D(n) / 100)


@st.composite
def coups(draw):
    bank = Bank("Ann", draw(cents), draw(st.sampled_from([None, "Zoe"])))
    offers = []
    for guest in draw(st.lists(st.sampled_from(GUESTS), max_size=8)):
        kind = draw(st.sampled_from(list(CoverKind)))
        amount = draw(
            st.one_of(
                cents,
                st.just(bank.amount),
                st.just(cm.round_money(bank.amount / 2)),
                st.integers(-100, 0).map(D),
            )
        )
        offers.append(Cover(guest, amount, kind))
    suivi = draw(st.sampled_from([None, *GUESTS]))
    winner = draw(st.sampled_from(list(Winner)))
    taxe = Taxe(
        draw(st.sampled_from(list(TaxeKind))),
        draw(st.integers(0, 100).map(lambda n: D(n) / 1000)),
    )
    return bank, offers, suivi, winner, taxe


@given(coups())
def test_money_is_zero_sum_with_the_house_and_no_cover_exceeds_the_bank(coup):
    bank, offers, suivi, winner, taxe = coup
    result = covers_accepted(bank, offers, suivi=suivi)
    # every offer is held or refused with a reason, once
    assert sorted(map(id, result.accepted + tuple(r.cover for r in result.refused))) == sorted(
        map(id, offers)
    )
    assert all(0 < c.amount <= bank.amount for c in result.accepted)
    assert all(not bank.holds(c.guest) for c in result.accepted)
    assert len({c.guest for c in result.accepted}) == len(result.accepted)
    assert 0 <= result.uncovered <= bank.amount
    assert (result.card_holder is None) == (result.accepted == ())
    kinds = {c.kind for c in result.accepted}
    if kinds & {SOLO, SUIVI}:
        assert len(result.accepted) == 1 and result.uncovered == 0
    if A_DEUX in kinds:
        assert kinds == {A_DEUX} and len(result.accepted) == 2 and result.uncovered == 0

    money = settle_coup(bank, result.accepted, winner, taxe)
    assert sum(money.nets.values()) + money.house_cut == 0
    assert money.house_cut >= 0 and money.bank_after >= 0
    assert money.bank_after == result.covered + money.bank_net
    assert money.returned == result.uncovered
    if bank.co_banker is None:
        assert money.co_banker_net == 0
    else:  # equal shares, up to the odd cent
        assert abs(money.banker_net - money.co_banker_net) <= D("0.01")
    for amount in (*money.nets.values(), money.house_cut, money.bank_after):
        assert amount == cm.round_money(amount)
