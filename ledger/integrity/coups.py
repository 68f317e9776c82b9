"""Invariant 7: each coup of a guest-banked game settled again from what is stored."""

from __future__ import annotations

from decimal import Decimal

from games.entry import EntryRejected, SettledHand
from games.guest_banked.terms import BankRules
from games.models import Event, Hand
from games.settle import GuestBankedTable, settle
from ledger.hands.coups import COUP_FIELDS, coup_row, coup_state, stored_entry
from ledger.integrity.report import money_text, totals_text
from ledger.integrity.seating import SeatingChecks
from ledger.integrity.state import BetRow
from ledger.models import Bet, Coup, Guest

MSG_COUP_UNSETTLED = "its coup cannot be settled again from what is stored"
MSG_COUP_MISSING = "it is a hand of a guest-banked game with no coup beside it"
MSG_COUP_HAND = "its cards or winner are not what its coup settles"
MSG_COUP_RECORD = "it is not what its hand and stakes settle"
MSG_COUP_BET = "it is not what its coup settles"
MSG_COUP_BET_EXTRA = "its coup settles no such stake"
MSG_COUP_BET_MISSING = "its coup settles a stake that is not stored"


class CoupChecks(SeatingChecks):
    """Coups, with who sat where for each."""

    def _load_coups(self) -> None:
        coups = Coup.objects.select_related("hand").order_by("hand__shoe_id", "hand__number")
        if self.scope is not None:
            coups = coups.filter(hand__in=Hand.objects.filter(self._hand_scope()))
        self.coups = {coup.hand_id: coup for coup in coups.iterator(chunk_size=2000)}

    def _check_coups(self) -> None:
        """Invariant 7: each coup settled again, the coup before it as stored."""
        previous: Coup | None = None
        for coup in self.coups.values():  # in shoe and number order
            hand = coup.hand
            if previous is not None and previous.hand.shoe_id != hand.shoe_id:
                previous = None
            rules = self.events[self.shoe_event[hand.shoe_id]].bank_rules
            if rules is not None:
                self._check_coup(coup, previous, rules)
            previous = coup

    def _check_coup(self, coup: Coup, previous: Coup | None, rules: BankRules) -> None:
        hand = coup.hand
        by_id = self._seated(hand.shoe_id, hand.number)
        seated = {seat: self.guest(guest_id) for seat, guest_id in by_id.items()}
        bets = sorted(self.coup_bets.get(hand.pk, ()), key=lambda bet: (bet.seat, bet.pk))
        before = coup_state(previous) if previous is not None else None
        try:
            entry = stored_entry(hand, coup, [_bet(row) for row in bets])
            settled = settle(entry, GuestBankedTable(rules, seated, before))
        except EntryRejected as rejected:
            found = "; ".join(problem.message() for problem in rejected.problems)
            self.problem("Hand", hand.pk, MSG_COUP_UNSETTLED, "a coup the rules settle", found)
            return
        self._compare_hand(hand, settled)
        self._compare_bets(hand, bets, settled, by_id)
        assert settled.coup is not None  # a coup's settlement
        guests = {seat: Guest(pk=guest_id) for seat, guest_id in by_id.items()}
        again = coup_row(hand, Event(pk=coup.event_id), settled.coup, guests)
        for name in ("banker_id", "co_banker_id", *COUP_FIELDS):
            expected, found = getattr(again, name), getattr(coup, name)
            if expected != found:
                self.problem(
                    "Coup", coup.pk, MSG_COUP_RECORD, f"{name} {expected}", f"{name} {found}"
                )

    def _compare_hand(self, hand: Hand, settled: SettledHand) -> None:
        expected = (settled.player_cards, settled.banker_cards, settled.outcome.winner.value)
        found = (hand.player_cards, hand.banker_cards, hand.winner)
        if expected != found:
            self.problem("Hand", hand.pk, MSG_COUP_HAND, _hand_text(*expected), _hand_text(*found))

    def _compare_bets(
        self, hand: Hand, bets: list[BetRow], settled: SettledHand, seated: dict[int, int]
    ) -> None:
        expected = {(bet.seat, bet.bet_type.value): bet for bet in settled.bets}
        for bet in bets:
            again = expected.pop((bet.seat, bet.bet_type), None)
            if again is None:
                found = f"{bet.bet_type} {money_text(bet.stake)} in seat {bet.seat}"
                self.problem("Bet", bet.pk, MSG_COUP_BET_EXTRA, "no such stake", found)
                continue
            result = again.result
            settles = (seated.get(again.seat), again.kind, again.stake, result.gross,
                       result.commission, result.net)  # fmt: skip
            stored = (bet.guest_id, bet.cover_kind, bet.stake, bet.gross, bet.commission, bet.net)
            if settles != stored:
                self.problem(
                    "Bet", bet.pk, MSG_COUP_BET, self._bet_text(*settles), self._bet_text(*stored)
                )
        for (seat, bet_type), again in expected.items():
            what = f"{bet_type} {money_text(again.stake)} in seat {seat}"
            self.problem("Hand", hand.pk, MSG_COUP_BET_MISSING, what, "no such bet")

    def _bet_text(
        self,
        guest_id: int | None,
        kind: str,
        stake: Decimal,
        gross: Decimal,
        commission: Decimal,
        net: Decimal,
    ) -> str:
        who = self.guest(guest_id) if guest_id is not None else "nobody"
        kind = f" {kind}" if kind else ""
        return f"{who}{kind}, " + totals_text(1, stake, gross, commission, net).split(", ", 1)[1]


def _bet(row: BetRow) -> Bet:
    """A bet row as the model, in memory (what ``ledger.hands.coups.stored_entry`` reads)."""
    return Bet(
        pk=row.pk, seat=row.seat, bet_type=row.bet_type, cover_kind=row.cover_kind, stake=row.stake
    )


def _hand_text(player_cards: str, banker_cards: str, winner: str) -> str:
    cards = f"P {player_cards} / B {banker_cards}, " if player_cards else ""
    return f"{cards}{winner}"
