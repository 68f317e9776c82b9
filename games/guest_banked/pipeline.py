"""A coup of a guest-banked game, from what was entered to what is stored: the pipeline's
branch for Chemin de fer and Baccara banque (Punto Banco's is :func:`games.entry.settle_hand`).

The entry is a :class:`games.entry.HandEntry` whose ``coup`` says who banks and how much, the
choices taken and what the banker did next; its bets are the pontes' stakes — a cover of a kind
(Chemin de fer: ``ordinary``, ``banco_solo``, ``banco_a_deux``, ``avec_la_table``, ``suivi``) or a
tableau (Baccara banque: ``tableau_1``, ``tableau_2``). The ledger adds who sits where and the
previous coup of the shoe (:class:`terms.PreviousCoup`): a bank kept plays on as it stands, a
bank passed goes to the right, a suite to whoever took it. The answer is every stake settled —
the pontes' and the bank's, the house's cut as the bank's commission, so guests' nets and the
house's sum to zero — and the coup's record (:class:`terms.SettledCoup`), or every problem at
once.

The table charge per shoe (Chemin de fer, when the event chooses it over the 5% taxe) is paid by
the banker of the shoe's first coup; Baccara banque's taxe on capital by each banker bringing a
bank in (the first coup of his bank). Each shoe starts a new bank. Each game's rules are in
:mod:`chemin_coup` and :mod:`banque_coup`, what they share in :mod:`terms`, :mod:`reading` and
:mod:`bank`; this module is the way in. Plain Python, no Django.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from games.entry import EntryRejected, Field, HandEntry, Problem, SettledHand
from games.guest_banked.bank import read_bank
from games.guest_banked.banque_coup import settle_banque
from games.guest_banked.chemin_coup import settle_chemin
from games.guest_banked.reading import Reading
from games.guest_banked.terms import BankRules, PreviousCoup
from games.kinds import Game
from games.messages import RuleError, gettext_noop

MSG_NOT_GUEST_BANKED = gettext_noop("Punto Banco has no banker among the guests: no coup here.")
MSG_COUP_MISSING = gettext_noop("Say who holds the bank and how much it is.")


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
