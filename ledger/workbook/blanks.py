"""The blank scoresheets a host downloads: a game's header and a short example night (or a
count's guests), as a CSV or as an .xlsx workbook whose cells offer what the import reads (lists
for results, bet kinds, pairs, moves, choices and how chips were paid; whole numbers for shoes,
hands and seats; amounts of chips), so that a typo is caught in the spreadsheet program before
the upload refuses it. The workbook's numbers are number cells, as a host would type them.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation

from games.guest_banked.banque_coup import TABLEAU_BETS
from games.guest_banked.terms import MOVES
from games.kinds import TABLE_SEATS, CoverKind, Game
from games.payouts import BetType
from ledger.models import ChipMove
from ledger.workbook.count_imports import COUNT_TEMPLATE
from ledger.workbook.imports.coup_sheet import COUP_SHEET_COLUMNS
from ledger.workbook.imports.punto_banco_sheet import COLUMNS

TEMPLATE_ROWS = (
    COLUMNS,
    ("1", "1", "9 7", "J J 10", "P", "", "", "1", "Aki", "player", "100"),
    ("1", "1", "9 7", "J J 10", "P", "", "", "2", "Ben", "banker", "50"),
    ("1", "2", "", "", "B", "no", "yes", "1", "Aki", "banker_pair", "10"),
    ("1", "2", "", "", "B", "no", "yes", "2", "Ben", "banker", "50"),
)


# A short night of each guest-banked game, every column filled where the coup has it.
COUP_TEMPLATES: dict[Game, tuple[dict[str, str], ...]] = {
    Game.CHEMIN_DE_FER: (
        # Aki banks 100; Ben and Chie cover it; the bank wins and Aki keeps it.
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "1", "bank": "100",
         "seat": "2", "guest": "Ben", "stake": "60", "result": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "1", "bank": "100",
         "seat": "3", "guest": "Chie", "stake": "40", "result": "B"},
        # Ben calls banco solo; standing on 5 he wins: the bank passes to his seat.
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "1", "bank": "195",
         "seat": "2", "guest": "Ben", "stake_kind": "banco_solo", "stake": "195",
         "ponte_cards": "3 2", "banker_cards": "10 4 K", "result": "P",
         "ponte_choice": "stand"},
        # Ben banks 50, wins and gives a suite, which Daisuke takes.
        {"shoe": "1", "coup": "3", "banker": "Ben", "banker_seat": "2", "bank": "50",
         "seat": "3", "guest": "Chie", "stake": "30", "result": "B", "move": "suite",
         "suite_taker": "Daisuke", "suite_seat": "4"},
        {"shoe": "1", "coup": "3", "banker": "Ben", "banker_seat": "2", "bank": "50",
         "seat": "4", "guest": "Daisuke", "stake": "20", "result": "B", "move": "suite",
         "suite_taker": "Daisuke", "suite_seat": "4"},
        # An égalité, then Daisuke retires with the bank.
        {"shoe": "1", "coup": "4", "banker": "Daisuke", "banker_seat": "4", "bank": "97.50",
         "seat": "1", "guest": "Aki", "stake": "50", "result": "T", "move": "retire"},
        {"shoe": "1", "coup": "4", "banker": "Daisuke", "banker_seat": "4", "bank": "97.50",
         "seat": "3", "guest": "Chie", "stake": "47.50", "result": "T", "move": "retire"},
    ),
    Game.BACCARA_BANQUE: (
        # Aki banks 500 in seat 4: seats 1–3 play tableau 1, seats 5–7 tableau 2.
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "3", "guest": "Ben", "stake_kind": "tableau_1", "stake": "100",
         "result": "P", "result_2": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "2", "guest": "Daisuke", "stake_kind": "tableau_1", "stake": "50",
         "result": "P", "result_2": "B"},
        {"shoe": "1", "coup": "1", "banker": "Aki", "banker_seat": "4", "bank": "500",
         "seat": "5", "guest": "Chie", "stake_kind": "tableau_2", "stake": "100",
         "result": "P", "result_2": "B"},
        # With the cards: tableau 1 wins on a natural 9, tableau 2 loses; Aki retires.
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "4", "bank": "450",
         "seat": "3", "guest": "Ben", "stake_kind": "tableau_1", "stake": "100",
         "ponte_cards": "9 K", "tableau_2_cards": "3 3", "banker_cards": "8 K",
         "result": "P", "result_2": "B", "move": "retire"},
        {"shoe": "1", "coup": "2", "banker": "Aki", "banker_seat": "4", "bank": "450",
         "seat": "5", "guest": "Chie", "stake_kind": "tableau_2", "stake": "200",
         "ponte_cards": "9 K", "tableau_2_cards": "3 3", "banker_cards": "8 K",
         "result": "P", "result_2": "B", "move": "retire"},
    ),
}  # fmt: skip


def template_rows(game: Game) -> list[list[str]]:
    """The template's header and example rows."""
    if game is Game.PUNTO_BANCO:
        return [list(row) for row in TEMPLATE_ROWS]
    examples = [
        [row.get(column, "") for column in COUP_SHEET_COLUMNS] for row in COUP_TEMPLATES[game]
    ]
    return [list(COUP_SHEET_COLUMNS), *examples]


def template_csv(game: Game = Game.PUNTO_BANCO) -> str:
    """The downloadable template of a game's scoresheet: its header and a short night."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(template_rows(game))
    return buffer.getvalue()


RESULTS = ("P", "B", "T")
YES_NO = ("yes", "no")
CHOICES = ("draw", "stand")
STAKE_KINDS = {
    Game.CHEMIN_DE_FER: tuple(kind.value for kind in CoverKind),
    Game.BACCARA_BANQUE: tuple(bet.value for bet in TABLEAU_BETS),
}
TEMPLATE_ROWS_OFFERED = 2000  # the rows the checks cover: a long night and then some


def _lists(game: Game) -> dict[str, tuple[str, ...]]:
    """The columns that take one of a few words, and the words."""
    if game is Game.PUNTO_BANCO:
        return {"result": RESULTS, "player_pair": YES_NO, "banker_pair": YES_NO,
                "bet": tuple(bet.value for bet in BetType)}  # fmt: skip
    moves = tuple(move.value for move in MOVES[game])
    return {"stake_kind": STAKE_KINDS[game], "result": RESULTS, "result_2": RESULTS,
            "ponte_choice": CHOICES, "banker_choice": CHOICES, "choice_2": CHOICES,
            "move": moves}  # fmt: skip


PAID_BY = tuple(source.value for source in ChipMove.Source)
WHOLE_NUMBERS = {"shoe": (1, 999), "hand": (1, 999), "coup": (1, 999),
                 "seat": (1, TABLE_SEATS),  # a scoresheet is a cash night's
                 "banker_seat": (1, TABLE_SEATS),
                 "co_banker_seat": (1, TABLE_SEATS),
                 "suite_seat": (1, TABLE_SEATS)}  # fmt: skip
AMOUNTS = ("stake", "bank", "suite_amount")
COUNT_AMOUNTS = ("bought", "cashed_out")  # 0 is a count's amount: nothing bought, or cashed


def template_xlsx(game: Game = Game.PUNTO_BANCO) -> bytes:
    """The template as a workbook: the same header and rows, each column's cells checked as the
    import reads them."""
    return _workbook(template_rows(game), _lists(game))


def count_template_rows() -> list[list[str]]:
    """The count template's header and example guests, as its CSV has them."""
    return [row.split(",") for row in COUNT_TEMPLATE.splitlines()]


def count_template_xlsx() -> bytes:
    """The count template (``guest, bought, cashed_out, paid_by``) as a workbook."""
    return _workbook(count_template_rows(), {"paid_by": PAID_BY})


def _value(column: str, text: str) -> str | int | Decimal:
    """A template cell as a host types it: a number where the column holds one."""
    if text and column in WHOLE_NUMBERS:
        return int(text)
    if text and column in (*AMOUNTS, *COUNT_AMOUNTS):
        return Decimal(text)
    return text


def _workbook(rows: list[list[str]], lists: dict[str, tuple[str, ...]]) -> bytes:
    book = Workbook()
    sheet = book.active
    assert sheet is not None  # a new workbook has its sheet
    sheet.title = _("Scoresheet")
    header = rows[0]
    sheet.append(header)
    for row in rows[1:]:
        sheet.append([_value(column, text) for column, text in zip(header, row, strict=True)])
    last = TEMPLATE_ROWS_OFFERED + 1
    for index, column in enumerate(header, start=1):
        letter = get_column_letter(index)
        cells = f"{letter}2:{letter}{last}"
        sheet.column_dimensions[letter].width = max(10, len(column) + 2)
        check = _check(column, lists.get(column))
        if check is not None:
            sheet.add_data_validation(check)
            check.add(cells)
    sheet.freeze_panes = "A2"
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(header))}{len(rows)}"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _check(column: str, words: tuple[str, ...] | None) -> DataValidation | None:
    if words is not None:
        check = DataValidation(type="list", formula1='"' + ",".join(words) + '"')
        message = _("One of: {words}.").format(words=", ".join(words))
    elif column in WHOLE_NUMBERS:
        low, high = WHOLE_NUMBERS[column]
        check = DataValidation(type="whole", operator="between", formula1=str(low),
                               formula2=str(high))  # fmt: skip
        message = _("A whole number from {low} to {high}.").format(low=low, high=high)
    elif column in AMOUNTS:
        check = DataValidation(type="decimal", operator="greaterThan", formula1="0")
        message = _("An amount over 0, in chips.")
    elif column in COUNT_AMOUNTS:
        check = DataValidation(type="decimal", operator="greaterThanOrEqual", formula1="0")
        message = _("An amount of chips, 0 or more.")
    else:
        return None
    check.allow_blank = True
    check.showErrorMessage = True
    check.errorTitle = column
    check.error = message
    check.showInputMessage = True
    check.promptTitle = column
    check.prompt = message
    return check
