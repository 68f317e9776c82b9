"""A night's currency under attack, through the night's form: codes that are no ISO 4217 currency
(unknown, lowercase, too long, a symbol, markup), rates with more decimals than the currency
writes (a cent of yen, a tenth of a cent of euro), rates huge, zero, negative or not numbers, and
a night already played in yen whose currency is changed. Each must be refused with its reason and
no night made or changed, or accepted with the currency and rate as typed."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal

from django.urls import reverse

from games.entry import BetEntry, HandEntry
from games.models import MSG_UNKNOWN_CURRENCY, Event
from ledger.hands import services as hand_services
from ledger.nights.forms import MSG_RATE_DECIMALS, MSG_RATE_WHOLE
from tests.adversary.ground import Case, Night, page_text

NIGHT = {
    "name": "Currency night", "date": "2026-11-27", "venue": "", "decks": "8",
    "currency_symbol": "$", "table_min": "10", "table_max": "1000", "hands_per_shoe": "40",
    "game": "punto_banco", "format": "mini", "no_commission": "none", "commission": "5",
    "tie_pays": "8", "pair_pays": "11",
}  # fmt: skip

# currency, rate, whether it must be accepted, what a refusal says.
CODES: list[tuple[str, str, bool, object]] = [
    ("XXQ", "100", False, MSG_UNKNOWN_CURRENCY),
    ("eur", "1", False, MSG_UNKNOWN_CURRENCY),
    ("Eur", "1", False, MSG_UNKNOWN_CURRENCY),
    ("EURO", "1", False, MSG_UNKNOWN_CURRENCY),
    ("€", "1", False, MSG_UNKNOWN_CURRENCY),
    ("<b>EUR</b>", "1", False, MSG_UNKNOWN_CURRENCY),
    ("ＥＵＲ", "1", False, MSG_UNKNOWN_CURRENCY),  # full-width letters
    (" EUR", "1", False, MSG_UNKNOWN_CURRENCY),  # a choice is the code itself
    ("EUR", "0.85", True, ""),
    ("KWD", "0.375", True, ""),
    ("KRW", "1200", True, ""),
    ("EUR", "0.001", False, MSG_RATE_DECIMALS),
    ("KWD", "0.0005", False, MSG_RATE_DECIMALS),
    ("JPY", "0.5", False, MSG_RATE_WHOLE),
    ("KRW", "1200.5", False, MSG_RATE_WHOLE),
    ("EUR", "99999999999", False, "Ensure this value"),
    ("EUR", "1e12", False, ""),
    ("EUR", "0", False, ""),
    ("EUR", "-1", False, ""),
    ("EUR", "NaN", False, ""),
    ("EUR", "Infinity", False, ""),
]


def currency_cases(night: Night, tag: str) -> Iterator[Case]:
    for number, (code, rate, good, said) in enumerate(CODES):
        data = NIGHT | {"name": f"Currency {tag} {number}", "currency": code,
                        "money_per_chip": rate}  # fmt: skip
        yield Case("currency", f"{code!r} at {rate!r}", _made(night, data, good, said))
    yield Case("currency", "a played yen night changed to euros", _played(Night(f"{tag}y")))


def _made(night: Night, data: dict[str, str], good: bool, said: object) -> Callable[[], str]:
    def run() -> str:
        response = night.client.post(reverse("ledger:event_create"), data)
        if response.status_code >= 500:
            return "crashed"
        made = Event.objects.filter(name=data["name"]).first()
        if good:
            if made is None:
                return f"wrong: refused {data['currency']!r} at {data['money_per_chip']!r}"
            typed = (data["currency"].strip(), Decimal(data["money_per_chip"]))
            if (made.currency, made.money_per_chip) != typed:
                return f"wrong: kept {made.currency} {made.money_per_chip}, typed {typed}"
            return "accepted"
        if made is not None:
            return f"wrong: made a night in {made.currency!r} at {made.money_per_chip}"
        page = page_text(response)
        opening = str(said).split("{")[0]
        if "errorlist" not in page or (opening and opening not in page):
            return f"wrong: refused without saying {opening[:50]!r}"
        return "refused"

    return run


def _played(night: Night) -> Callable[[], str]:
    """A night with a hand played in yen: its currency no longer changes (the hand's money
    would change with it)."""

    def run() -> str:
        event = night.event
        hand_services.record_hand(
            shoe=night.shoe,
            number=hand_services.next_hand_number(night.shoe),
            entry=HandEntry(result="player", bets=(BetEntry(1, "player", Decimal(10)),)),
            by=night.host,
        )
        data = NIGHT | {"name": event.name, "date": f"{event.date:%Y-%m-%d}", "currency": "EUR",
                        "money_per_chip": "100"}  # fmt: skip
        response = night.client.post(reverse("ledger:event_edit", args=[event.pk]), data)
        if response.status_code >= 500:
            return "crashed"
        event.refresh_from_db()
        if event.currency != "JPY":
            return f"wrong: a night played in yen went to {event.currency}"
        # The box is shut once a hand is logged, as every field that prices a hand: what a page
        # opened before posts is kept as the night has it, or refused in words.
        return "refused" if "errorlist" in page_text(response) else "accepted"

    return run
