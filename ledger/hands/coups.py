"""A guest-banked game's coups as the ledger keeps them: the coup before (what the next bank
follows from), the coup's row beside its hand, its snapshot for the journal."""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal
from typing import Any, NoReturn

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.entry import BetEntry, EntryRejected, HandEntry, SettledHand
from games.guest_banked.terms import CoupTerms, PreviousCoup, SettledCoup
from games.kinds import BankerMove, SuiteWay
from games.models import Event, Hand, Shoe
from games.payouts import BankedBet
from games.rules import Winner
from games.settle import GuestBankedTable, settle
from ledger.models import Bet, Coup, Guest, Seating

MSG_NEXT_COUP_BREAKS = _(
    "Coup {number} follows from this one and would no longer hold: {problem} "
    "Undo back to it instead."
)
MSG_SETTLES_DIFFERENTLY = _("it would settle differently than it was recorded.")


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
        suite_way=SuiteWay(coup.suite_way) if coup.suite_way else None,
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


def stored_entry(hand: Hand, coup: Coup, bets: Iterable[Bet]) -> HandEntry:
    """The entry a stored coup was recorded from, as the pipeline reads it: settling it again
    after the coup before gives the same stakes and the same record."""
    has_cards = bool(hand.player_cards)
    next_in_turn = coup.suite_way == SuiteWay.NEXT_IN_TURN
    return HandEntry(
        player_cards=hand.player_cards,
        banker_cards=coup.banker_cards if has_cards else "",
        result=None if has_cards else hand.winner,
        bets=tuple(
            BetEntry(bet.seat, bet.cover_kind or bet.bet_type, bet.stake)
            for bet in sorted(bets, key=lambda bet: bet.pk)
            if bet.bet_type != BankedBet.BANK
        ),
        coup=CoupTerms(
            banker_seat=coup.banker_seat,
            bank=coup.bank,
            co_banker_seat=coup.co_banker_seat,
            ponte_choice=coup.ponte_choice or None,
            banker_choice=coup.banker_choice or None,
            second_cards=coup.second_cards,
            second_result=None if has_cards else (coup.second_winner or None),
            second_choice=coup.second_choice or None,
            move=coup.move,
            taken=coup.taken,
            suite_seat=None if next_in_turn else coup.suite_seat,
            suite_amount=coup.suite_amount
            if coup.suite_amount is not None and not next_in_turn
            else "",
        ),
    )


def check_later_coups(shoe: Shoe, number: int) -> None:
    """After a correction of coup ``number``: every later coup of the shoe, settled again after
    the corrected one, must come out as it was recorded (its bank following on, its stakes, its
    cut, who may call suivi, where the bank passes) — else the correction is refused. Reads the
    shoe's coups, bets and seats once."""
    coups = list(
        Coup.objects.filter(hand__shoe=shoe, hand__number__gte=number)
        .select_related("hand", "banker", "co_banker")
        .prefetch_related("hand__bets")
        .order_by("hand__number")
    )
    if len(coups) < 2:
        return
    seatings = list(Seating.objects.filter(shoe=shoe).select_related("guest"))
    rules = shoe.event.bank_rules
    previous = coup_state(coups[0])
    for later in coups[1:]:
        seated = _seated(seatings, later.hand.number)
        bets = list(later.hand.bets.all())
        try:
            settled = settle(
                stored_entry(later.hand, later, bets), GuestBankedTable(rules, seated, previous)
            )
        except EntryRejected as rejected:
            _refuse_break(later.hand.number, rejected.problems[0].message(gettext))
        assert settled.coup is not None
        again = coup_row(later.hand, shoe.event, settled.coup, seated)
        if coup_snapshot(again) != coup_snapshot(later) or _money(settled) != _stored(bets):
            _refuse_break(later.hand.number, str(MSG_SETTLES_DIFFERENTLY))
        previous = settled.coup.next_state


def _seated(seatings: list[Seating], number: int) -> dict[int, Guest]:
    return {
        seating.seat: seating.guest
        for seating in seatings
        if seating.from_hand <= number and (seating.to_hand is None or seating.to_hand >= number)
    }


def _money(settled: SettledHand) -> list[tuple[int, str, Decimal, Decimal, Decimal]]:
    return sorted(
        (bet.seat, bet.bet_type.value, bet.stake, bet.result.gross, bet.result.net)
        for bet in settled.bets
    )


def _stored(bets: list[Bet]) -> list[tuple[int, str, Decimal, Decimal, Decimal]]:
    return sorted((bet.seat, bet.bet_type, bet.stake, bet.gross, bet.net) for bet in bets)


def _refuse_break(number: int, reason: str) -> NoReturn:
    message = MSG_NEXT_COUP_BREAKS.format(number=number, problem=reason)
    raise ValidationError({NON_FIELD_ERRORS: message})
