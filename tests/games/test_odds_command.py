from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def run(*args: str) -> str:
    out = StringIO()
    call_command("baccarat_odds", *args, stdout=out)
    return out.getvalue()


def test_json_has_outcomes_with_exact_fractions_and_an_edge_per_bet_type():
    data = json.loads(run("--decks", "8", "--json"))
    assert data["decks"] == 8
    assert set(data["outcomes"]) == {"banker", "player", "tie"}
    banker = data["outcomes"]["banker"]
    numerator, denominator = (int(n) for n in banker["exact"].split("/"))
    assert round(numerator / denominator, 9) == 0.458597423
    assert round(banker["p"], 9) == 0.458597423
    assert set(data["house_edge"]) == {
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
        "dragon_bonus_player",
        "dragon_bonus_banker",
        "dragon_7",
        "panda_8",
    }
    assert round(data["house_edge"]["banker"] * 100, 5) == 1.05791


@pytest.mark.parametrize(
    ("args", "bet", "percent"),
    [
        (["--commission", "4"], "banker", 0.59931),
        (["--tie-pays", "9"], "tie", 4.84403),
        (["--pair-pays", "12"], "player_pair", 2.89157),
        (["--no-commission", "ez"], "banker", 1.01830),
        (["--no-commission", "super6"], "banker", 1.45810),
    ],
)
def test_options_choose_the_rule_set(args, bet, percent):
    data = json.loads(run("--decks", "8", "--json", *args))
    assert round(data["house_edge"][bet] * 100, 5) == percent


def test_the_table_is_readable():
    text = run("--decks", "6")
    assert text.startswith("6 decks — Banker 1:1 less 5% commission")
    assert "Banker                     0.458652719" in text
    assert "Tie                     8:1" in text and "14.43816%" in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--decks", "9"], "--decks"),
        (["--commission", "11"], "--commission"),
        (["--commission", "abc"], "--commission: Enter a number"),
        (["--commission", "4", "--no-commission", "ez"], "no-commission game"),
    ],
)
def test_bad_options_are_a_command_error_that_says_why(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
