"""Guest-banked nights for the tests, played through the real services: an event's game set,
coups entered as the table enters them."""

from __future__ import annotations

import uuid
from decimal import Decimal

from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.kinds import Game
from games.models import Event, Hand, Shoe
from ledger.hands import services as hand_services
from ledger.models import Coup

D = Decimal


def make_banked(event: Event, game: Game, **fields: object) -> Event:
    """The event (new, no hand yet) playing ``game`` with these cut fields."""
    Event.objects.filter(pk=event.pk).update(game=game.value, **fields)
    event.refresh_from_db()
    return event


def coup_entry(
    bets: tuple[tuple[int, str, object], ...] | list[tuple[int, str, object]] = (),
    *,
    result: str | None = None,
    ponte: str = "",
    banker: str = "",
    **terms: object,
) -> HandEntry:
    """A coup as entered: ``coup_entry([(2, "banco_solo", 100)], result="B", banker_seat=1,
    bank=D(100))``."""
    return HandEntry(
        player_cards=ponte,
        banker_cards=banker,
        result=result,
        bets=tuple(BetEntry(seat, kind, D(str(stake))) for seat, kind, stake in bets),
        coup=CoupTerms(**terms),  # type: ignore[arg-type]
    )


def record_coup(shoe: Shoe, by: object, entry: HandEntry) -> Hand:
    return hand_services.record_hand(
        shoe=shoe,
        number=hand_services.next_hand_number(shoe),
        entry=entry,
        by=by,
        idempotency_key=uuid.uuid4(),
    ).hand


def rotating_coups(shoe: Shoe, by: object, count: int) -> None:
    """``count`` coups of Chemin de fer with guests in seats 1–7, each lost by the bank: it
    passes seat by seat round the table (from the seat at the right of the last coup's banker,
    whose bank must have passed), the two seats at the banker's right covering it."""
    last = Coup.objects.filter(hand__shoe=shoe).order_by("-hand__number").first()
    first = 1 if last is None else last.banker_seat % 7 + 1
    for index in range(first - 1, first - 1 + count):
        banker = index % 7 + 1
        right = [(banker + step - 1) % 7 + 1 for step in (1, 2)]
        entry = coup_entry(
            [(right[0], "", 60), (right[1], "", 40)], result="P", banker_seat=banker, bank=D(100)
        )
        record_coup(shoe, by, entry)


def chemin_night(shoe: Shoe, by: object) -> None:
    """Five coups with guests in seats 1–7 (Aki 1, Ben 2, Chie 3, Daisuke 4, Emi 5, Fumio 6,
    Goro 7), at the 5% taxe: a bank kept, a banco solo won standing on 5 (the bank passes), a
    banco solo lost and its suivi against a shared bank (banco double), a suite, an égalité
    and a retirement."""
    coups = [
        # Aki banks 100, Ben and Chie cover; the bank wins (95 after the taxe) and is kept.
        coup_entry([(2, "", 60), (3, "", 40)], result="B", banker_seat=1, bank=D(100)),
        # Ben's banco solo of 195, standing on 5, beats the banker's 4: the bank passes to Ben.
        coup_entry([(2, "banco_solo", 195)], ponte="3 2", banker="10 4 K", ponte_choice="stand",
                   banker_seat=1, bank=D(195)),
        # Ben banks 100; Chie's banco solo loses.
        coup_entry([(3, "banco_solo", 100)], result="B", banker_seat=2, bank=D(100)),
        # Daisuke joins the bank of 195 with as much (390); Chie's suivi loses; Ben gives a suite
        # that Emi takes at what the bank holds.
        coup_entry([(3, "suivi", 390)], result="B", banker_seat=2, bank=D(390),
                   co_banker_seat=4, move="suite", suite_seat=5),
        # Emi banks 760.50; Fumio and Goro cover 500; an égalité; Emi retires.
        coup_entry([(6, "", 300), (7, "", 200)], result="T", banker_seat=5, bank=D("760.50"),
                   move="retire"),
    ]  # fmt: skip
    for entry in coups:
        record_coup(shoe, by, entry)


# Each guest's net for :func:`chemin_night`, from the rules (pontes win 1:1, an égalité is void,
# the house takes 5% of a winning bank, a shared bank splits its result in halves).
CHEMIN_NIGHT_NETS = {
    "Aki": D(100) - D(5) - D(195),
    "Ben": -D(60) + D(195) + (D(100) - D(5)) + (D(390) - D("19.50")) / 2,
    "Chie": -D(40) - D(100) - D(390),
    "Daisuke": (D(390) - D("19.50")) / 2,
}
CHEMIN_NIGHT_HOUSE = D(5) + D(5) + D("19.50")
