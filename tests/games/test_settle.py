"""The one door into the rules (games/settle.py): it chooses by the table's game, and a hand or a
coup settles through it exactly as through its game's own pipeline."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from games.entry import (
    MSG_NO_COUP_HERE,
    BetEntry,
    EntryRejected,
    HandEntry,
    SettledHand,
    TableRules,
    settle_hand,
)
from games.guest_banked.pipeline import MSG_NOT_GUEST_BANKED, settle_coup_entry
from games.guest_banked.terms import BankRules, CoupTerms
from games.kinds import Game
from games.payouts import STANDARD_RULES
from games.settle import GuestBankedTable, PuntoBancoTable, settle

D = Decimal
RULES = TableRules(STANDARD_RULES, 8, D(10), D(1000))
CHEMIN = BankRules(Game.CHEMIN_DE_FER, minimum_banco=D(100))
BANQUE = BankRules(Game.BACCARA_BANQUE, minimum_banco=D(100))
SEATED = {1: "Aki", 2: "Ben", 3: "Chie", 4: "Dai", 5: "Emi"}


def coup(*bets, player="", banker="", result=None, **terms) -> HandEntry:
    terms.setdefault("banker_seat", 1)
    terms.setdefault("bank", "200")
    return HandEntry(
        player_cards=player,
        banker_cards=banker,
        result=result,
        bets=tuple(BetEntry(*bet) for bet in bets),
        coup=CoupTerms(**terms),
    )


def answer(call, *args, **kwargs) -> SettledHand | list[tuple]:
    """What a pipeline answers: the hand settled, or each problem as field, bet, template and
    parameters (errors compare by what they say)."""
    try:
        return call(*args, **kwargs)
    except EntryRejected as rejected:
        return [(p.field, p.bet, p.template, p.error.params) for p in rejected.problems]


# --- it chooses by game ----------------------------------------------------------------------


def test_each_table_says_its_game():
    assert PuntoBancoTable(RULES).game is Game.PUNTO_BANCO
    assert GuestBankedTable(CHEMIN, SEATED).game is Game.CHEMIN_DE_FER
    assert GuestBankedTable(BANQUE, SEATED).game is Game.BACCARA_BANQUE


def test_a_punto_banco_table_settles_through_settle_hand(monkeypatch):
    calls = []
    monkeypatch.setattr("games.settle.settle_hand", lambda *a, **k: calls.append(("hand", a, k)))
    monkeypatch.setattr(
        "games.settle.settle_coup_entry", lambda *a, **k: calls.append(("coup", a, k))
    )
    entry = HandEntry("9 7", "J J 10")
    settle(entry, PuntoBancoTable(RULES, occupied={1, 2}))
    assert calls == [("hand", (entry, RULES), {"occupied": {1, 2}})]


def test_a_guest_banked_table_settles_through_the_coup_pipeline(monkeypatch):
    calls = []
    monkeypatch.setattr("games.settle.settle_hand", lambda *a, **k: calls.append(("hand", a, k)))
    monkeypatch.setattr(
        "games.settle.settle_coup_entry", lambda *a, **k: calls.append(("coup", a, k))
    )
    entry = coup((2, "ordinary", "100"), result="B")
    before = settle_coup_entry(coup((2, "ordinary", "100"), result="B"), CHEMIN, SEATED).coup
    assert before is not None
    settle(entry, GuestBankedTable(CHEMIN, SEATED, before.next_state))
    assert calls == [("coup", (entry, CHEMIN, SEATED), {"previous": before.next_state})]


# --- exactly as the direct call --------------------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [
        HandEntry("9 7", "J J 10", bets=(BetEntry(1, "player", "100"), BetEntry(2, "tie", "10"))),
        HandEntry(result="b", bets=(BetEntry("3", "banker", "1,000"),)),
        HandEntry("10 5", "10 7"),  # the Player must draw: refused
        HandEntry(result="p", bets=(BetEntry(6, "banker", "50"),)),  # an empty seat
        HandEntry(result="t", bets=(BetEntry(1, "player", "5"),)),  # under the minimum
    ],
)
def test_a_punto_banco_hand_settles_as_settle_hand_settles_it(entry):
    direct = answer(settle_hand, entry, RULES, occupied={1, 2, 3})
    assert answer(settle, entry, PuntoBancoTable(RULES, occupied={1, 2, 3})) == direct
    vouched = answer(settle_hand, entry, RULES)
    assert answer(settle, entry, PuntoBancoTable(RULES)) == vouched


def test_random_punto_banco_entries_settle_as_settle_hand_settles_them():
    rng = random.Random(11)
    tokens = ["9", "K", "A", "10", "5", "X", "", "9s", "1e3", "-1", "yes", "p", "tie", "100"]
    for _ in range(500):
        entry = HandEntry(
            player_cards=" ".join(rng.choices(tokens, k=rng.randint(0, 3))),
            banker_cards=" ".join(rng.choices(tokens, k=rng.randint(0, 3))),
            result=rng.choice([None, "", "p", "b", "t", "x"]),
            bets=tuple(
                BetEntry(
                    rng.choice(["1", "2", "7", ""]),
                    rng.choice(["player", "banker", "x"]),
                    rng.choice(tokens),
                )
                for _ in range(rng.randint(0, 3))
            ),
        )
        table = PuntoBancoTable(RULES, occupied={1, 2})
        assert answer(settle, entry, table) == answer(settle_hand, entry, RULES, occupied={1, 2})


@pytest.mark.parametrize(
    "entry",
    [
        coup(
            (2, "ordinary", "60"),
            (3, "ordinary", "40"),
            player="5 K",
            banker="7 K",
            ponte_choice="stand",
        ),
        coup((2, "banco_solo", "200"), result="P"),
        coup((2, "ordinary", "200"), result="B", co_banker_seat=5),
        coup((2, "ordinary", "100"), result="B", move="suite", suite_seat=4, suite_amount="195"),
        coup((1, "ordinary", "50"), (6, "ordinary", "10"), result="X", bank="0"),  # refused
        coup((2, "ordinary", "100"), player="4 K", banker="7 K", ponte_choice="stand"),  # refused
    ],
)
def test_a_chemin_de_fer_coup_settles_as_settle_coup_entry_settles_it(entry):
    direct = answer(settle_coup_entry, entry, CHEMIN, SEATED)
    assert answer(settle, entry, GuestBankedTable(CHEMIN, SEATED)) == direct


def test_a_coup_after_another_settles_as_settle_coup_entry_settles_it():
    first = settle(coup((2, "banco_solo", "200"), result="B"), GuestBankedTable(CHEMIN, SEATED))
    assert first.coup is not None
    previous = first.coup.next_state
    for entry in (
        coup((2, "suivi", "390"), result="P", bank="390"),  # suivi after the lost banco
        coup((3, "ordinary", "100"), result="B", banker_seat=2, bank="390"),  # not his bank
        coup((2, "ordinary", "100"), result="B", bank="300"),  # money out of a kept bank
    ):
        direct = answer(settle_coup_entry, entry, CHEMIN, SEATED, previous=previous)
        through = answer(settle, entry, GuestBankedTable(CHEMIN, SEATED, previous))
        assert through == direct


def test_a_baccara_banque_coup_settles_as_settle_coup_entry_settles_it():
    table = {1: "Aki", 2: "Ben", 3: "Chie", 4: "Dai", 5: "Emi", 6: "Fumio"}
    entry = coup(
        (1, "tableau_1", "100"),
        (5, "tableau_2", "200"),
        player="4 K 3",
        banker="5 2",
        second_cards="9 K",
        banker_seat=4,
        bank="1000",
    )
    direct = answer(settle_coup_entry, entry, BANQUE, table)
    assert answer(settle, entry, GuestBankedTable(BANQUE, table)) == direct


def test_each_game_refuses_the_others_entry_as_its_own_pipeline_does():
    a_coup = coup((2, "ordinary", "100"), result="B")
    refused = answer(settle, a_coup, PuntoBancoTable(RULES))
    assert refused == answer(settle_hand, a_coup, RULES)
    assert MSG_NO_COUP_HERE in [template for _field, _bet, template, _params in refused]
    punto_banco = BankRules(Game.PUNTO_BANCO, minimum_banco=D(10))
    refused = answer(settle, a_coup, GuestBankedTable(punto_banco, SEATED))
    assert refused == answer(settle_coup_entry, a_coup, punto_banco, SEATED)
    assert [template for _field, _bet, template, _params in refused] == [MSG_NOT_GUEST_BANKED]
