"""Coups for the tests, entered as the table enters them and recorded through the one pipeline."""

from __future__ import annotations

import uuid

from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from ledger.hands import services as hand_services


def coup_entry(*bets, result="B", player="", banker="", **terms):
    terms.setdefault("banker_seat", 1)
    terms.setdefault("bank", "200")
    return HandEntry(
        player_cards=player,
        banker_cards=banker,
        result=result if not player else None,
        bets=tuple(BetEntry(*bet) for bet in bets),
        coup=CoupTerms(**terms),
    )


def play(shoe, host, *bets, **terms):
    return hand_services.record_hand(
        shoe=shoe,
        number=hand_services.next_hand_number(shoe),
        entry=coup_entry(*bets, **terms),
        by=host,
        idempotency_key=uuid.uuid4(),
    ).hand
