from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import RANKS, SUITS
from games.rules import validate_hand
from games.shoe import Shoe, ShoeExhausted


def test_a_seeded_shoe_deals_the_same_hands_every_time():
    first = [str(hand) for hand in Shoe(8, seed="night-1").hands()]
    again = [str(hand) for hand in Shoe(8, seed="night-1").hands()]
    other = [str(hand) for hand in Shoe(8, seed="night-2").hands()]
    assert first == again
    assert first != other


@pytest.mark.parametrize("decks", [1, 6, 8])
def test_a_shoe_holds_every_card_decks_times(decks):
    shoe = Shoe(decks, seed=3, burn=False)
    dealt = [shoe.deal() for _ in range(52 * decks)]
    assert Counter((c.rank, c.suit) for c in dealt) == {(r, s): decks for r in RANKS for s in SUITS}
    with pytest.raises(ShoeExhausted):
        shoe.deal()


def test_the_burn_shows_one_card_and_burns_its_value():
    shoe = Shoe(8, seed=11)
    first, *burned = shoe.burned
    assert len(burned) == (first.value or 10)
    assert shoe.remaining == 416 - len(shoe.burned)


def test_after_the_cut_card_one_more_hand_is_dealt():
    shoe = Shoe(8, seed=5, cut_from_end=16)
    hands = list(shoe.hands())
    # The cut card came out during the second-to-last hand, not earlier.
    assert 16 >= shoe.remaining >= 0
    assert 60 <= len(hands) <= 90
    replay = Shoe(8, seed=5, cut_from_end=16)
    cut_seen_at = None
    for number, _ in enumerate(replay.hands(), start=1):
        if replay.cut_card_out and cut_seen_at is None:
            cut_seen_at = number
    assert cut_seen_at == len(hands) - 1


def test_a_limit_stops_the_shoe_early():
    assert len(list(Shoe(8, seed=1).hands(limit=40))) == 40


@pytest.mark.parametrize("bad", [{"decks": 0}, {"decks": 9}, {"decks": 1, "cut_from_end": 3}])
def test_impossible_shoes_are_refused(bad):
    with pytest.raises(ValueError):  # noqa: PT011
        Shoe(**bad)


@settings(max_examples=60)
@given(st.integers(1, 8), st.integers(0, 2**32))
def test_every_hand_dealt_from_a_random_shoe_validates(decks, seed):
    shoe = Shoe(decks, seed=seed)
    for hand in shoe.hands():
        validate_hand(hand.player, hand.banker)
