"""What a stored row names: the game, the bank's kind, a cover, the banker's move, how a suite went,
a seat. Plain enums, quick to import: the models take their choices from here, so starting Django
(every command, every worker) does not load the rules of the guest-banked games, whose modules
build some forty dataclasses. The rules live beside them: ``games.guest_banked.terms`` (the
game), ``games.guest_banked.banque_money`` (the bank's kind), ``games.guest_banked.chemin_money``
(covers, moves, suites) and ``games.entry`` (seats).

Plain Python, no Django.
"""

from __future__ import annotations

from enum import StrEnum

from games.messages import Label, gettext_noop

# Every seat a table may have: a tournament's tables seat 6 to 9 (its seats per table).
SEATS = range(1, 10)
# A cash night's tables, every game's: seats 1 to 7.
TABLE_SEATS = 7


def seats_of(count: int) -> range:
    """The seats of a table of ``count`` seats: 1 to ``count``."""
    return range(1, count + 1)


class Game(StrEnum):
    PUNTO_BANCO = "punto_banco"
    CHEMIN_DE_FER = "chemin_de_fer"
    BACCARA_BANQUE = "baccara_banque"

    @property
    def label(self) -> Label:
        return Label(_GAME_LABELS[self])

    @property
    def guest_banked(self) -> bool:
        return self is not Game.PUNTO_BANCO


_GAME_LABELS = {
    Game.PUNTO_BANCO: gettext_noop("Punto Banco"),
    Game.CHEMIN_DE_FER: gettext_noop("Chemin de fer"),
    Game.BACCARA_BANQUE: gettext_noop("Baccara banque"),
}


class BancoKind(StrEnum):
    LIMITEE = "limitee"  # stakes on both tableaux together at most the bank
    OUVERTE = "ouverte"  # any stakes; the holder answers beyond the bank


class CoverKind(StrEnum):
    SUIVI = "suivi"  # banco again by the ponte who lost the last one: first of all
    BANCO_SOLO = "banco_solo"  # the whole bank, alone
    BANCO_A_DEUX = "banco_a_deux"  # the whole bank, two pontes together
    AVEC_LA_TABLE = "avec_la_table"  # half the bank; the table covers up to the other half
    ORDINARY = "ordinary"  # a stake in seat order

    @property
    def is_banco(self) -> bool:
        return self is not CoverKind.ORDINARY

    @property
    def label(self) -> Label:
        return Label(_COVER_LABELS[self])


_COVER_LABELS = {
    CoverKind.SUIVI: gettext_noop("Suivi"),
    CoverKind.BANCO_SOLO: gettext_noop("Banco solo"),
    CoverKind.BANCO_A_DEUX: gettext_noop("Banco à deux"),
    CoverKind.AVEC_LA_TABLE: gettext_noop("Banco avec la table"),
    CoverKind.ORDINARY: gettext_noop("Cover"),
}


class BankerMove(StrEnum):
    """What the banker does after a coup, for the ledger to keep."""

    KEEP = "keep"  # he won (or égalité) and plays on with all that is on the table
    SUITE = "suite"  # he won (or égalité) and passes the bank: a suite offered round the table
    PASS = "pass"  # the bank lost: the shoe passes to the right (after a win: a suite)
    RETIRE = "retire"  # the game ends (the shoe is done): he takes what is on the table


class SuiteWay(StrEnum):
    TAKEN = "taken"  # a guest took it at the current amount
    AUCTIONED = "auctioned"  # the highest bid
    NEXT_IN_TURN = "next_in_turn"  # nobody bid: the next in turn, at the minimum banco


class SuiteReturn(StrEnum):
    """Whose right a bank taken out of turn returns to when it loses. A suite's giver, by seed
    002: "Sobald die Suite verliert, erhält der Spieler, welcher an der rechten Seite des
    bisherigen Bankiers sitzt, den Schlitten." The two readings differ only for a suite of a
    suite: the banker it came from last, or the banker who held it in turn before the suites."""

    GIVER = "giver"
    IN_TURN = "in_turn"


SUITE_RETURN_LABELS = {
    SuiteReturn.GIVER: Label(gettext_noop("To the right of the banker who gave it")),
    SuiteReturn.IN_TURN: Label(gettext_noop("To the right of the last banker who held it in turn")),
}


class BankRotation(StrEnum):
    """How Chemin de fer's bank goes round, as each release of Shoebook read it: a rule a night
    keeps from when it was played (``Event.bank_rotation``), so that an upgrade never reads an
    earlier night by a later rule (docs/rules.md, "How the bank goes round").

    ``ORIGINAL``, the first release's: a lost bank passes to the seat at the right of its
    rotation seat — back to the banker who lost it when he sits there (a suite taken by the seat
    at its giver's right, lost); a bank taken as a suite returns to its giver's right, even one
    that nobody took and went to the next in turn, which is the seat at the giver's right.
    ``SKIPS_LOSER``, since: a lost bank never goes back to the banker who lost it; a bank that
    came in turn continues from its holder."""

    ORIGINAL = "original"
    SKIPS_LOSER = "skips_loser"


BANK_ROTATION_LABELS = {
    BankRotation.ORIGINAL: Label(
        gettext_noop("As first recorded: a lost bank may go back to the banker who lost it")
    ),
    BankRotation.SKIPS_LOSER: Label(
        gettext_noop("A lost bank never goes back to the banker who lost it")
    ),
}


MOVE_LABELS = {
    BankerMove.KEEP: Label(gettext_noop("Keeps the bank")),
    BankerMove.SUITE: Label(gettext_noop("Passes the bank (suite)")),
    BankerMove.PASS: Label(gettext_noop("Loses the bank")),
    BankerMove.RETIRE: Label(gettext_noop("Retires")),
}


class ShortStack(StrEnum):
    """A tournament player whose stack is under the table minimum (docs/rules.md)."""

    ALL_IN = "all_in"  # may bet the whole stack, alone, under the minimum
    OUT = "out"  # is out: no bet is taken

    @property
    def label(self) -> Label:
        return Label(_SHORT_STACK_LABELS[self])


_SHORT_STACK_LABELS = {
    ShortStack.ALL_IN: gettext_noop("A stack under the table minimum may be bet whole (all-in)"),
    ShortStack.OUT: gettext_noop("A stack under the table minimum is out"),
}
