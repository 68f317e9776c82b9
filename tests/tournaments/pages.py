"""A tournament's pages for the tests: its setup, a round, and the messages a page says."""

from __future__ import annotations

import re
from html import unescape

from django.urls import reverse

SETUP = {
    "name": "Spring cup",
    "date": "2026-04-01",
    "venue": "Bar K",
    "decks": "8",
    "no_commission": "none",
    "commission": "4",
    "tie_pays": "8",
    "pair_pays": "11",
    "side_bets": ["pairs"],
    "currency_symbol": "$",
    "money_per_chip": "100",
    "entry_fee": "50",
    "cut_percent": "10",
    "cut_fixed": "5",
    "starting_stack": "1,000",
    "stacks": "carried",
    "advancement": "by_table",
    "tie_break": "playoff",
    "seats_per_table": "7",
    "final_overflow": "second",
    "secret_bet": "last",
    "mandatory_side": "player",
    "short_stack": "out",
    "rebuy_price": "40",
    "rebuy_chips": "1000",
    "rebuy_rounds": "1",
    "rebuy_until_hand": "5",
    "max_rebuys": "2",
    "add_on_price": "20",
    "add_on_chips": "500",
    "add_on_round": "1",
    "prize_table": "50%, 30%, 20%",
    "points_table": "10, 7, 5",
}


ROUND = {
    "hands": "3",
    "table_min": "10",
    "table_max": "1000",
    "bet_unit": "10",
    "per_table": "2",
    "wildcards": "0",
    "keep": "0",
}


def url(name, *args):
    return reverse(f"tournaments:{name}", args=args)


def errors_of(page: str) -> list[str]:
    """The texts of the page's error lists, unescaped."""
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page, re.S)
    return [unescape(item) for block in lists for item in re.findall(r"<li>(.*?)</li>", block)]


def message_texts(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]
