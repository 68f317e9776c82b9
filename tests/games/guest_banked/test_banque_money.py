"""Baccara banque's money (games/guest_banked/banque_money.py): the money of a coup with each
taxe, every refusal with its message, who holds each tableau's cards; hypothesis: every coup is
zero-sum among guests and the house.

The source's wording each rule follows is quoted in the module's docstring."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.guest_banked import banque_drawing, banque_money, chemin_money
from games.guest_banked.banque_money import (
    BanqueTaxe,
    BanqueTaxeKind,
    cards_next,
    settle_banque_coup,
)
from games.guest_banked.chemin_money import Bank, BankError, Cover, bank_open
from games.kinds import BancoKind
from games.rules import Winner

D = Decimal
P, B, T = Winner.PLAYER, Winner.BANKER, Winner.TIE
LIMITEE_WINNINGS = BanqueTaxe(BanqueTaxeKind.WINNINGS, BancoKind.LIMITEE)
OUVERTE_WINNINGS = BanqueTaxe(BanqueTaxeKind.WINNINGS, BancoKind.OUVERTE)


def bank_error(template: str, call, *args, **kwargs) -> BankError:
    with pytest.raises(BankError) as raised:
        call(*args, **kwargs)
    assert raised.value.template == template, str(raised.value)
    return raised.value


def stakes(*tableaux: dict[str, str]) -> list[list[Cover]]:
    return [[Cover(guest, D(amount)) for guest, amount in tableau.items()] for tableau in tableaux]


# --- money: worked coups -------------------------------------------------------------------------


def test_capital_taxe_is_paid_once_on_the_bank_brought_in():
    # The bank won at auction is brought in as a new bank: at least the minimum banco, in cents.
    assert bank_open("Cy", D("800"), minimum_banco=D("200")) == Bank("Cy", D("800"))
    # "einmalig 5 % des eingebrachten Kapitals"
    assert BanqueTaxe().on_capital(D("800")) == D("40.00")
    assert LIMITEE_WINNINGS.on_capital(D("500")) == D("0.00")
    bank_error(
        chemin_money.MSG_BANK_BELOW_MINIMUM, bank_open, "Bob", D("100"), minimum_banco=D("200")
    )
    bank_error(chemin_money.MSG_BANK_CENTS, bank_open, "Bob", D("100.005"))


def test_a_coup_under_the_capital_taxe_costs_nothing_more():
    money = settle_banque_coup(
        Bank("Ann", D("1000")), stakes({"Bob": "200", "Cy": "100"}, {"Di": "300"}), (B, P)
    )
    assert money.ponte_nets == (("Bob", D("-200")), ("Cy", D("-100")), ("Di", D("300")))
    assert money.tableau_nets == (D("300"), D("-300"))
    assert money.banker_net == D("0") and money.house_cut == D("0.00")
    assert money.bank_after == D("1000")


def test_winnings_are_the_difference_between_the_tableaux():
    # "gegen das höher gesetzte Tableau gewinnt, das nächste jedoch verliert, so beträgt der
    # Gewinn den Unterschied zwischen den beiden Tableaus": 400 won, 100 lost, taxed on 300.
    money = settle_banque_coup(
        Bank("Ann", D("1000")), stakes({"Bob": "400"}, {"Cy": "100"}), (B, P), LIMITEE_WINNINGS
    )
    assert money.tableau_nets == (D("400"), D("-100"))
    assert money.house_cut == D("6.00")  # 2% of 300, banque limitée
    assert money.banker_net == D("294.00")
    assert money.bank_after == D("1294.00")


def test_a_banque_ouverte_pays_1_25_percent_and_takes_stakes_beyond_the_bank():
    won = settle_banque_coup(
        Bank("Ann", D("500")), stakes({"Bob": "333"}, {"Cy": "300"}), (B, T), OUVERTE_WINNINGS
    )
    assert won.ponte_nets == (("Bob", D("-333")), ("Cy", D("0")))  # égalité: void on tableau 2
    assert won.house_cut == D("4.16")  # 1.25% of 333 = 4.1625
    assert won.banker_net == D("328.84")
    lost = settle_banque_coup(
        Bank("Ann", D("500")), stakes({"Bob": "400"}, {"Cy": "300"}), (P, P), OUVERTE_WINNINGS
    )
    assert lost.banker_net == D("-700") and lost.house_cut == D("0.00")
    assert lost.bank_after == D("-200")  # what Ann pays beyond the bank
    error = bank_error(
        banque_money.MSG_STAKES_EXCEED_BANQUE,
        settle_banque_coup,
        Bank("Ann", D("500")),
        stakes({"Bob": "400"}, {"Cy": "300"}),
        (P, P),
        LIMITEE_WINNINGS,
    )
    assert str(error) == (
        "The stakes on both tableaux (700) are more than the bank of 500: "
        "a banque limitée answers only for what it holds."
    )


def test_the_bank_stays_after_a_loss_and_nothing_comes_out():
    # Keeping it (after a loss too) and spending it are the coup's: test_pipeline.py.
    money = settle_banque_coup(Bank("Ann", D("1000")), stakes({"Bob": "200"}, {}), (P, T))
    assert money.banker_net == D("-200") and money.bank_after == D("800")
    spent = settle_banque_coup(Bank("Ann", D("300")), stakes({"Bob": "200"}, {"Cy": "100"}), (P, P))
    assert spent.bank_after == D("0")


def test_a_co_banker_shares_the_bank_as_in_chemin_de_fer():
    money = settle_banque_coup(
        Bank("Ann", D("1000"), co_banker="Eve"),
        stakes({"Bob": "301"}, {}),
        (B, T),
        LIMITEE_WINNINGS,
    )
    assert money.house_cut == D("6.02")
    assert (money.banker_net, money.co_banker_net) == (D("147.49"), D("147.49"))
    assert sum(money.nets.values()) + money.house_cut == 0


@pytest.mark.parametrize(
    ("tableaux", "template"),
    [
        (({"Ann": "100"}, {}), chemin_money.MSG_BANKER_AGAINST_HIMSELF),
        (({}, {"Eve": "100"}), chemin_money.MSG_CO_BANKER_AGAINST_HIMSELF),
        (({"Bob": "100"}, {"Bob": "50"}), chemin_money.MSG_ONE_STAKE_EACH),
        (({"Bob": "0"}, {}), chemin_money.MSG_STAKE_NOT_POSITIVE),
        (({"Bob": "-5"}, {}), chemin_money.MSG_STAKE_NOT_POSITIVE),
        (({"Bob": "10.001"}, {}), chemin_money.MSG_STAKE_CENTS),
        (({"Bob": "600"}, {"Cy": "401"}), banque_money.MSG_STAKES_EXCEED_BANQUE),
    ],
)
def test_stakes_the_bank_refuses(tableaux, template):
    bank = Bank("Ann", D("1000"), co_banker="Eve")
    bank_error(template, settle_banque_coup, bank, stakes(*tableaux), (P, B))


def test_two_tableaux_and_two_results():
    bank = Bank("Ann", D("1000"))
    bank_error(banque_drawing.MSG_TWO_TABLEAUX, settle_banque_coup, bank, stakes({}), (P, B))
    bank_error(banque_drawing.MSG_TWO_TABLEAUX, settle_banque_coup, bank, stakes({}, {}), (P,))


# --- the cards of a tableau ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("holder", "winner", "half", "next_holder"),
    [
        (1, P, {1, 2, 3}, 1),  # "Gewinnt ein Ponteur, so bekommt er auch im nächsten Spiel"
        (1, T, {1, 2, 3}, 1),  # an égalité is no loss
        (1, B, {1, 2, 3}, 2),  # "Verliert er jedoch, so bekommt sein Nachbar die Karten"
        (3, B, {1, 2, 3}, 1),  # round within the half
        (9, B, {8, 9, 10, 11}, 10),
        (11, B, {8, 9, 10, 11}, 8),
        (2, B, {1, 3}, 3),  # the holder left: the next seat up
        (2, B, {2}, 2),  # alone in his half: he keeps them
    ],
)
def test_the_cards_pass_within_the_half_after_a_loss(holder, winner, half, next_holder):
    assert cards_next(holder, winner, half) == next_holder


# --- zero-sum ------------------------------------------------------------------------------------

amounts = st.integers(1, 100_000).map(lambda cents: D(cents) / 100)


@given(
    bank_cents=st.integers(1, 1_000_000),
    tableaux=st.lists(st.lists(amounts, max_size=5), min_size=2, max_size=2),
    winners=st.lists(st.sampled_from([P, B, T]), min_size=2, max_size=2),
    kind=st.sampled_from(list(BanqueTaxeKind)),
    banco=st.sampled_from(list(BancoKind)),
    co_banker=st.booleans(),
)
def test_every_coup_is_zero_sum_among_guests_and_the_house(
    bank_cents, tableaux, winners, kind, banco, co_banker
):
    taxe = BanqueTaxe(kind, banco)
    bank = Bank("Ann", D(bank_cents) / 100, "Eve" if co_banker else None)
    guests = iter(range(100))
    tableau_stakes = [[Cover(next(guests), amount) for amount in tableau] for tableau in tableaux]
    staked = sum((amount for tableau in tableaux for amount in tableau), D(0))
    if banco is BancoKind.LIMITEE and staked > bank.amount:
        bank_error(
            banque_money.MSG_STAKES_EXCEED_BANQUE,
            settle_banque_coup,
            bank,
            tableau_stakes,
            winners,
            taxe,
        )
        return
    money = settle_banque_coup(bank, tableau_stakes, winners, taxe)
    assert sum(money.nets.values()) + money.house_cut == 0
    assert money.bank_after == bank.amount + money.bank_net
    assert money.house_cut >= 0
    if banco is BancoKind.LIMITEE:
        assert money.bank_after >= 0
    if kind is BanqueTaxeKind.CAPITAL:
        assert money.house_cut == 0
