from __future__ import annotations

import pytest

from games.cards import Card, CardError, is_pair, parse_card, parse_cards, total


@pytest.mark.parametrize(
    ("token", "rank", "suit", "value"),
    [
        ("A", "A", None, 1),
        ("a", "A", None, 1),
        ("2", "2", None, 2),
        ("9", "9", None, 9),
        ("10", "10", None, 0),
        ("T", "10", None, 0),
        ("t", "10", None, 0),
        ("J", "J", None, 0),
        ("q", "Q", None, 0),
        ("K", "K", None, 0),
        ("9h", "9", "h", 9),
        ("9H", "9", "h", 9),
        ("K♠", "K", "s", 0),
        ("k♤", "K", "s", 0),
        ("10♦", "10", "d", 0),
        ("Tc", "10", "c", 0),
        ("a♥", "A", "h", 1),
        ("5♣", "5", "c", 5),
        (" 7 ", "7", None, 7),
    ],
)
def test_parse_card_reads_rank_and_optional_suit(token, rank, suit, value):
    card = parse_card(token)
    assert (card.rank, card.suit, card.value) == (rank, suit, value)


@pytest.mark.parametrize("token", ["", "1", "0", "11", "X", "9x", "♠", "10hh", "AK", "1O", "B"])
def test_parse_card_rejects_anything_else_naming_the_token(token):
    with pytest.raises(CardError) as raised:
        parse_card(token)
    assert raised.value.token == token
    assert repr(token) in str(raised.value)


def test_parse_cards_names_the_bad_token_in_a_list():
    with pytest.raises(CardError) as raised:
        parse_cards("9 7 Z 3")
    assert raised.value.token == "Z"


def test_parse_cards_accepts_spaces_commas_and_iterables():
    assert parse_cards("J J 10") == (Card("J"), Card("J"), Card("10"))
    assert parse_cards("9h, 7s") == (Card("9", "h"), Card("7", "s"))
    assert parse_cards(["A", "k"]) == (Card("A"), Card("K"))
    assert parse_cards("") == ()


@pytest.mark.parametrize(
    ("cards", "expected"),
    [("9 7", 6), ("J J 10", 0), ("A 2", 3), ("5 5", 0), ("9 9 9", 7), ("K 8", 8), ("4 5", 9)],
)
def test_total_is_last_digit_of_the_sum(cards, expected):
    assert total(parse_cards(cards)) == expected


@pytest.mark.parametrize(
    ("cards", "expected"),
    [("K K", True), ("10 K", False), ("10 T", True), ("9h 9s", True), ("A 2", False), ("5", False)],
)
def test_pairs_are_by_rank_not_value(cards, expected):
    assert is_pair(parse_cards(cards)) is expected


def test_card_rejects_a_bad_rank_or_suit_when_built_directly():
    with pytest.raises(CardError):
        Card("1")
    with pytest.raises(CardError):
        Card("9", "x")
