"""A guest-banked game's coups as the ledger keeps them: the coup before (what the next bank
follows from), the coup's row beside its hand, its snapshot for the journal."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.banked import PreviousCoup, SettledCoup, continuity_problem
from games.chemin_bank import BankerMove
from games.models import Event, Hand, Shoe
from games.rules import Winner
from ledger.models import Coup, Guest, Seating

MSG_NEXT_COUP_BREAKS = _(
    "Coup {number} follows from this one and would no longer hold: {problem} "
    "Undo back to it instead."
)


def previous_coup(shoe: Shoe, number: int) -> PreviousCoup | None:
    """The coup before coup ``number`` of the shoe, as the next bank follows from it."""
    coup = (
        Coup.objects.filter(hand__shoe=shoe, hand__number__lt=number)
        .select_related("hand")
        .order_by("-hand__number")
        .first()
    )
    return None if coup is None else coup_state(coup)


def coup_state(coup: Coup) -> PreviousCoup:
    winners = [Winner(coup.hand.winner)]
    if coup.second_winner:
        winners.append(Winner(coup.second_winner))
    return PreviousCoup(
        banker_seat=coup.banker_seat,
        co_banker_seat=coup.co_banker_seat,
        bank_after=coup.bank_after,
        move=BankerMove(coup.move),
        rotation_seat=coup.rotation_seat,
        suite_seat=coup.suite_seat,
        suite_amount=coup.suite_amount,
        suivi_seat=coup.suivi_seat,
        holder_seats=(coup.holder_seat, coup.second_holder_seat),
        winners=tuple(winners),
    )


def coup_row(hand: Hand, event: Event, settled: SettledCoup, seated: dict[int, Guest]) -> Coup:
    return Coup(
        hand=hand,
        event=event,
        game=settled.game.value,
        banker=seated[settled.banker_seat],
        banker_seat=settled.banker_seat,
        co_banker=seated[settled.co_banker_seat] if settled.co_banker_seat else None,
        co_banker_seat=settled.co_banker_seat,
        bank=settled.bank,
        covered=settled.covered,
        holder_seat=settled.holder_seats[0],
        second_holder_seat=settled.holder_seats[1],
        ponte_choice=settled.ponte_choice or "",
        banker_choice=settled.banker_choice or "",
        second_choice=settled.second_choice or "",
        second_cards=settled.second_cards,
        second_winner=settled.second_winner.value if settled.second_winner else "",
        banker_cards=settled.banker_cards,
        house_cut=settled.house_cut,
        move=settled.move.value,
        taken=settled.taken,
        bank_after=settled.bank_after,
        rotation_seat=settled.rotation_seat,
        suite_seat=settled.suite_seat,
        suite_amount=settled.suite_amount,  # type: ignore[misc]  # the column takes None
        suite_way=settled.suite_way.value if settled.suite_way else "",
        suivi_seat=settled.suivi_seat,
    )


COUP_FIELDS = (
    "banker_seat", "co_banker_seat", "bank", "covered", "holder_seat", "second_holder_seat",
    "ponte_choice", "banker_choice", "second_choice", "second_cards", "second_winner",
    "banker_cards", "house_cut", "move", "taken", "bank_after", "rotation_seat", "suite_seat",
    "suite_amount", "suite_way", "suivi_seat",
)  # fmt: skip


def coup_snapshot(coup: Coup | None) -> dict[str, Any] | None:
    """A coup as plain JSON for the journal (amounts as text: JSON has no decimals)."""
    if coup is None:
        return None
    snapshot: dict[str, Any] = {"banker": str(coup.banker), "banker_id": coup.banker_id}
    if coup.co_banker_id is not None:
        snapshot |= {"co_banker": str(coup.co_banker), "co_banker_id": coup.co_banker_id}
    for name in COUP_FIELDS:
        value = getattr(coup, name)
        snapshot[name] = value if value is None or isinstance(value, int | str) else f"{value:.2f}"
    return snapshot


def coup_of(hand: Hand) -> Coup | None:
    return Coup.objects.filter(hand=hand).select_related("banker", "co_banker").first()


def check_next_coup(shoe: Shoe, number: int) -> None:
    """After a correction: the next coup's bank still follows from the corrected one (a bank
    kept at what it held, passed to the right, given to the suite's taker), else refused."""
    coup = Coup.objects.filter(hand__shoe=shoe, hand__number=number).select_related("hand").first()
    later = (
        Coup.objects.filter(hand__shoe=shoe, hand__number__gt=number)
        .select_related("hand")
        .order_by("hand__number")
        .first()
    )
    if coup is None or later is None:
        return
    seats = _seats_at(shoe, later.hand.number)
    problem = continuity_problem(
        coup_state(coup), later.banker_seat, later.co_banker_seat, later.bank, seats
    )
    if problem is not None:
        message = MSG_NEXT_COUP_BREAKS.format(
            number=later.hand.number, problem=problem.message(gettext)
        )
        raise ValidationError({NON_FIELD_ERRORS: message})


def _seats_at(shoe: Shoe, number: int) -> set[int]:
    return set(Seating.objects.at(shoe, number).values_list("seat", flat=True))
