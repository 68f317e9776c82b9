"""A coup of a guest-banked game, from what was entered to what is stored: the pipeline's
branch for Chemin de fer and Baccara banque (Punto Banco's is :func:`games.entry.settle_hand`).

The entry is a :class:`games.entry.HandEntry` whose ``coup`` says who banks and how much, the
choices taken and what the banker did next; its bets are the pontes' stakes — a cover of a kind
(Chemin de fer: ``ordinary``, ``banco_solo``, ``banco_a_deux``, ``avec_la_table``, ``suivi``) or a
tableau (Baccara banque: ``tableau_1``, ``tableau_2``). The ledger adds who sits where and the
previous coup of the shoe (:class:`PreviousCoup`): a bank kept plays on as it stands, a bank
passed goes to the right, a suite to whoever took it. The answer is every stake settled — the
pontes' and the bank's, the house's cut as the bank's commission, so guests' nets and the
house's sum to zero — and the coup's record (:class:`SettledCoup`), or every problem at once.

The table charge per shoe (Chemin de fer, when the event chooses it over the 5% taxe) is paid by
the banker of the shoe's first coup; Baccara banque's taxe on capital by each banker bringing a
bank in (the first coup of his bank). Each shoe starts a new bank. Each game's rules are in
:mod:`chemin_coup` and :mod:`banque_coup`, what they share in :mod:`terms`; this module is the way
in. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from games.entry import (
    EntryRejected,
    Field,
    HandEntry,
    Problem,
    SettledHand,
)
from games.guest_banked.banque_coup import holders, settle_banque, tableau_halves
from games.guest_banked.chemin_coup import settle_chemin
from games.guest_banked.terms import (
    LARGEST_AMOUNT,
    MOVES,
    MSG_BANK_STANDS_AT,
    MSG_CARDS_TYPED_ONLY,
    MSG_CHOICE_NOT_READ,
    MSG_CHOICE_WITHOUT_CARDS,
    MSG_CO_BANKER_CENTS,
    MSG_CO_BANKER_KEPT,
    MSG_COUP_MISSING,
    MSG_DOUBLE_AMOUNT,
    MSG_HELD_BY,
    MSG_MOVE_NOT_IN_GAME,
    MSG_NO_COVER,
    MSG_NOT_GUEST_BANKED,
    MSG_ONE_TABLEAU,
    MSG_PASSED_TO,
    MSG_STAKE_BANKER,
    MSG_SUITE_NEEDS_SUITE,
    MSG_SUITE_SEAT_IS_BANKER,
    MSG_SUITE_TAKER_MISSING,
    MSG_SUITE_TO,
    MSG_TAKEN_NOT_NUMBER,
    MSG_TAKES_ALL,
    MSG_TOO_LARGE,
    MSG_UNKNOWN_COVER,
    MSG_UNKNOWN_MOVE,
    TABLEAU_BETS,
    BankRules,
    CoupTerms,
    NextMove,
    PreviousCoup,
    Reading,
    SettledCoup,
    continuity_problem,
    read_bank,
)
from games.kinds import MOVE_LABELS, Game
from games.messages import RuleError

__all__ = [
    "LARGEST_AMOUNT",
    "MOVES",
    "MOVE_LABELS",
    "MSG_BANK_STANDS_AT",
    "MSG_CARDS_TYPED_ONLY",
    "MSG_CHOICE_NOT_READ",
    "MSG_CHOICE_WITHOUT_CARDS",
    "MSG_COUP_MISSING",
    "MSG_CO_BANKER_CENTS",
    "MSG_CO_BANKER_KEPT",
    "MSG_DOUBLE_AMOUNT",
    "MSG_HELD_BY",
    "MSG_MOVE_NOT_IN_GAME",
    "MSG_NOT_GUEST_BANKED",
    "MSG_NO_COVER",
    "MSG_ONE_TABLEAU",
    "MSG_PASSED_TO",
    "MSG_STAKE_BANKER",
    "MSG_SUITE_NEEDS_SUITE",
    "MSG_SUITE_SEAT_IS_BANKER",
    "MSG_SUITE_TAKER_MISSING",
    "MSG_SUITE_TO",
    "MSG_TAKEN_NOT_NUMBER",
    "MSG_TAKES_ALL",
    "MSG_TOO_LARGE",
    "MSG_UNKNOWN_COVER",
    "MSG_UNKNOWN_MOVE",
    "TABLEAU_BETS",
    "BankRules",
    "CoupTerms",
    "Game",
    "NextMove",
    "PreviousCoup",
    "SettledCoup",
    "continuity_problem",
    "holders",
    "settle_coup_entry",
    "tableau_halves",
]


def settle_coup_entry(
    entry: HandEntry,
    rules: BankRules,
    seated: Mapping[int, Hashable],
    *,
    previous: PreviousCoup | None = None,
) -> SettledHand:
    """Check a coup against the game's rules and the coup before, and settle every stake, or
    raise :class:`EntryRejected` listing every problem. ``seated``: each occupied seat's guest."""
    reading = Reading()
    terms = entry.coup
    if not rules.game.guest_banked:
        raise EntryRejected([Problem(Field.BANKER_SEAT, RuleError(MSG_NOT_GUEST_BANKED))])
    if terms is None:
        raise EntryRejected([Problem(Field.BANKER_SEAT, RuleError(MSG_COUP_MISSING))])
    bank = read_bank(terms, rules, seated, previous, reading)
    if rules.game is Game.CHEMIN_DE_FER:
        settled = settle_chemin(entry, terms, rules, seated, previous, bank, reading)
    else:
        settled = settle_banque(entry, terms, rules, seated, previous, bank, reading)
    if reading.problems:
        raise EntryRejected(reading.problems)
    assert settled is not None  # every way to lack it is a problem above
    return settled
