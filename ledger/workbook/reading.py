"""Reading a scoresheet as spreadsheet programs save it: rows of text cells under a header.

A CSV in UTF-8 (with or without the byte-order mark Excel writes), UTF-16 (Excel's "Unicode
text"), Shift_JIS (cp932: Japanese Excel's plain "CSV") or Windows-1252 (German or French
Excel's plain "CSV"), separated by commas, semicolons (Excel
where the decimal mark is a comma) or tabs; an .xlsx workbook (openpyxl, read as a stream); an .ods
spreadsheet (LibreOffice's own; python-calamine). A file past :data:`MAX_ROWS` rows or
:data:`MAX_UNPACKED_BYTES` unpacked is refused before it is read through.

Amounts are read as the file's convention writes them (:func:`read_amounts`): a number cell of a
workbook is a number; a text cell is read with babel in the file's convention (a semicolon CSV
writes a decimal comma, a comma CSV a decimal point, a tab file or a workbook's text cells show
theirs by the cells that read only one way), currency signs and grouping taken, and a cell that
reads two ways is refused, never read a thousand times smaller.
"""

from __future__ import annotations

import csv
import enum
import functools
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from babel.numbers import NumberFormatError, parse_decimal
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.messages import plain

if TYPE_CHECKING:
    from openpyxl import Workbook

# A night is at most a few tens of thousands of bets; a file past these is refused, unread.
MAX_ROWS = 20_000
MAX_COLUMNS = 40
MAX_UNPACKED_BYTES = 100_000_000  # a workbook's parts, unpacked: past this it is refused unread


class ScoresheetUnreadable(Exception):
    """The file is not a scoresheet this site can read at all (encoding, format)."""


@dataclass(frozen=True)
class SheetProblem:
    row: int  # data row, 1 = the first row under the header; 0 = the file itself
    line: int  # line of the CSV file / row of the sheet
    column: str
    reason: str
    sheet: str = ""  # a workbook's sheet, named as the file names it

    def __str__(self) -> str:
        if self.sheet and self.row:
            return _("{sheet}, row {row} (line {line}), {column}: {reason}").format(
                sheet=self.sheet, row=self.row, line=self.line, column=self.column,
                reason=self.reason,
            )  # fmt: skip
        if self.row == 0:
            return _("{column}: {reason}").format(column=self.column, reason=self.reason)
        return _("Row {row} (line {line}), {column}: {reason}").format(
            row=self.row, line=self.line, column=self.column, reason=self.reason
        )


class ScoresheetInvalid(Exception):
    def __init__(self, problems: list[SheetProblem]) -> None:
        self.problems = problems
        super().__init__(f"{len(problems)} problem(s)")


# --- reading --------------------------------------------------------------------------------


# Every column of an imported sheet that holds an amount of chips (Punto Banco's and the coups'
# stakes, a coup's bank, suite and money taken, a count's chips).
AMOUNT_COLUMNS = ("stake", "bank", "suite_amount", "taken", "bought", "cashed_out")

# A row as read: its line, its cells as text, and the columns whose cell was a number cell.
_Row = tuple[int, dict[str, str], frozenset[str]]


def read_rows(
    name: str,
    content: bytes,
    required: tuple[str, ...],
    amounts: tuple[str, ...] = AMOUNT_COLUMNS,
) -> Iterator[tuple[int, dict[str, str]]]:
    """(file line, {column: text}) for every data row of a scoresheet (.csv, .xlsx or .ods)
    whose header has the ``required`` columns (Punto Banco's, or a guest-banked game's). The
    ``amounts`` columns come as plain decimals (``1000``, ``387.5``), read as the file writes
    them (:func:`read_amounts`); a cell no convention reads is left as written, for the
    checker's own words. ``ScoresheetInvalid`` names every cell that reads two ways."""
    suffix = name.lower().rsplit(".", 1)[-1]
    rows: Iterator[_Row]
    if suffix == "xlsx":
        rows, convention = _xlsx_rows(content, required), None
    elif suffix == "ods":
        rows, convention = _ods_rows(content, required), None
    else:
        text, encoding = decoded(content)
        delimiter = separator(text.split("\n", 1)[0])
        rows, convention = _csv_rows(text, encoding, delimiter, required), CONVENTIONS[delimiter]
    if not amounts:
        yield from ((line, cells) for line, cells, _numbers in rows)
        return
    yield from read_amounts(list(rows), amounts, convention)


# Byte-order marks, then the encodings a spreadsheet program's CSV comes in without one, in the
# order tried: strict decoding of one fails on the other's text (Shift_JIS's lead bytes are not
# UTF-8), so the first that reads the whole file is the file's — except that Windows-1252 reads
# almost any bytes, and Shift_JIS some of its text (Clément's "é" and "m" are a kanji): a file
# is Shift_JIS only if it reads as Japanese (:func:`_reads_as_japanese`), else Windows-1252.
BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
ENCODINGS = ("utf-8", "cp932", "cp1252")
MSG_NOT_TEXT = _(
    "The file could not be read as text: tried UTF-8, UTF-16, Shift_JIS (cp932) and"
    " Windows-1252. Save it as CSV (UTF-8) or as an .xlsx or .ods workbook."
)
MSG_NOT_IN_ITS_ENCODING = _(
    "The file starts as {encoding} text but is not {encoding} throughout ({error}). Save it"
    " again as CSV (UTF-8)."
)
SEPARATORS = ",;\t"


ENCODING_NAMES = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-8": "UTF-8",
                  "cp932": "Shift_JIS (cp932)", "cp1252": "Windows-1252"}  # fmt: skip
MSG_NO_COLUMNS = _(
    "The first line holds none of a scoresheet's columns (read as {encoding} text, separated by"
    " {separator}): is this the scoresheet, saved as CSV, .xlsx or .ods?"
)
SEPARATOR_NAMES = {",": _("commas"), ";": _("semicolons"), "\t": _("tabs")}


def decoded(content: bytes) -> tuple[str, str]:
    """The file's text, and the name of the encoding it was saved in."""
    for mark, encoding in BOMS:
        if content.startswith(mark):
            try:
                return content.decode(encoding), ENCODING_NAMES[encoding]
            except UnicodeDecodeError as error:
                name = ENCODING_NAMES[encoding]
                reason = f"byte {error.start + 1}"
                raise ScoresheetUnreadable(
                    MSG_NOT_IN_ITS_ENCODING.format(encoding=name, error=reason)
                ) from error
    read = {}
    for encoding in ENCODINGS:
        try:
            read[encoding] = content.decode(encoding)
        except UnicodeDecodeError:
            continue
        if encoding != "cp932" or _reads_as_japanese(read[encoding]):
            return read[encoding], ENCODING_NAMES[encoding]
    if "cp932" in read:
        return read["cp932"], ENCODING_NAMES["cp932"]
    raise ScoresheetUnreadable(MSG_NOT_TEXT)


# What Windows-1252 text read as Shift_JIS turns into: user-defined characters (lead bytes
# Japanese text does not use), or characters inside a Latin word ("Cl駑ent", "PEﾑA").
_NOT_JAPANESE = re.compile(r"[\ue000-\uf8ff]|[A-Za-z][^\x00-\x7f]+[A-Za-z]")


def _reads_as_japanese(text: str) -> bool:
    return _NOT_JAPANESE.search(text) is None


def separator(header_line: str) -> str:
    """The separator the header is written with: whichever of comma, semicolon and tab it
    holds most of (a header has at least two columns; a tie is a comma)."""
    return max(SEPARATORS, key=header_line.count)


def _csv_rows(
    text: str, encoding: str, delimiter: str, required: tuple[str, ...]
) -> Iterator[_Row]:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    header = next(reader, None)
    if header is None:
        raise ScoresheetUnreadable(_("The file is empty."))
    names = [column.strip().lower() for column in header[:MAX_COLUMNS]]
    if not set(names) & set(required):
        raise ScoresheetUnreadable(
            MSG_NO_COLUMNS.format(encoding=encoding, separator=SEPARATOR_NAMES[delimiter])
        )
    _check_columns(names, required)
    for count, row in enumerate(reader, start=1):
        _check_size(count)
        if not any(cell.strip() for cell in row):
            continue
        cells = dict(zip(names, (cell.strip() for cell in row), strict=False))
        yield reader.line_num, cells, frozenset()


def _ods_rows(content: bytes, required: tuple[str, ...]) -> Iterator[_Row]:
    """The rows of the first sheet of an .ods spreadsheet with the scoresheet's columns, else of
    its first sheet; bounded as an .xlsx workbook is before anything is parsed."""
    from python_calamine import CalamineWorkbook

    unreadable = _("The file is not a readable .ods spreadsheet.")
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as source:
            unpacked = sum(part.file_size for part in source.infolist())
    except zipfile.BadZipFile as error:
        raise ScoresheetUnreadable(unreadable) from error
    if unpacked > MAX_UNPACKED_BYTES:
        _too_big_unpacked()
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(content))
        sheets = [
            workbook.get_sheet_by_index(index).to_python(skip_empty_area=False)
            for index in range(len(workbook.sheet_names))
        ]
    except Exception as error:  # whatever the parser trips on: never a server error
        raise ScoresheetUnreadable(unreadable) from error
    if not sheets or not sheets[0]:
        raise ScoresheetUnreadable(_("The file is empty."))
    rows = next(
        (sheet for sheet in sheets if sheet and set(required) <= set(_header(tuple(sheet[0])))),
        sheets[0],
    )
    names = _header(tuple(rows[0][:MAX_COLUMNS]))
    _check_columns(names, required)
    for line, row in enumerate(rows[1:], start=2):
        _check_size(line - 1)
        found = _cells(names, row[:MAX_COLUMNS])
        if found is not None:
            yield line, *found


def _too_big_unpacked() -> None:
    raise ScoresheetUnreadable(
        _("The file unpacks to more than {megabytes:,} MB, far more than a night holds.").format(
            megabytes=MAX_UNPACKED_BYTES // 1_000_000
        )
    )


def _check_size(rows_read: int) -> None:
    if rows_read > MAX_ROWS:
        raise ScoresheetUnreadable(
            _("The file has more than {rows:,} rows: import one night at a time.").format(
                rows=MAX_ROWS
            )
        )


def _xlsx_rows(content: bytes, required: tuple[str, ...]) -> Iterator[_Row]:
    """The rows of the first sheet with the scoresheet's columns (in a workbook exported by
    Shoebook, Summary comes first), else of the first sheet. Read as a stream, and no further
    than :data:`MAX_ROWS` rows of :data:`MAX_COLUMNS` cells: a junk file is refused early."""
    from openpyxl import load_workbook

    # A workbook comes from outside: whatever its parser trips on (a broken zip, bad XML, a
    # missing part) means the file is unreadable, never a server error.
    unreadable = _("The file is not a readable .xlsx workbook.")
    try:
        sized = _with_declared_sizes(content)
        workbook = load_workbook(io.BytesIO(sized), read_only=True, data_only=True)
    except ScoresheetUnreadable:
        raise
    except Exception as error:
        raise ScoresheetUnreadable(unreadable) from error
    try:
        names, rows = _scoresheet_in(workbook, required)
        _check_columns(names, required)
        for line, row in enumerate(rows, start=2):
            _check_size(line - 1)
            found = _cells(names, row)
            if found is not None:
                yield line, *found
    except (ScoresheetUnreadable, ScoresheetInvalid):
        raise
    except Exception as error:
        raise ScoresheetUnreadable(unreadable) from error
    finally:
        workbook.close()


def _with_declared_sizes(content: bytes) -> bytes:
    """The workbook, each sheet declaring a size. openpyxl reads a whole sheet that declares
    none (our own exports, many tools) before its first row, however large; a declared size,
    even a wrong one, lets it start at once — and the rows are then read whatever was declared
    (``reset_dimensions``), up to :data:`MAX_ROWS`."""
    source = zipfile.ZipFile(io.BytesIO(content))
    if sum(part.file_size for part in source.infolist()) > MAX_UNPACKED_BYTES:
        _too_big_unpacked()
    sheets = [part for part in source.infolist() if part.filename.startswith("xl/worksheets/")]
    undeclared = [part for part in sheets if not _declares_size(source, part)]
    if not undeclared:
        return content
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as sized:
        for part in source.infolist():
            data = source.read(part)
            if part in undeclared:
                data = data.replace(b"<sheetData", b'<dimension ref="A1"/><sheetData', 1)
            sized.writestr(part, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=1)
    return out.getvalue()


def _declares_size(source: zipfile.ZipFile, part: zipfile.ZipInfo) -> bool:
    with source.open(part) as stream:
        head = stream.read(65536)
    return b"<dimension" in head.split(b"<sheetData", 1)[0]


def _scoresheet_in(
    workbook: Workbook, required: tuple[str, ...]
) -> tuple[list[str], Iterator[tuple[object, ...]]]:
    """The header and the rows still to read of the sheet that holds the scoresheet."""
    for sheet in workbook.worksheets:
        _check_size((sheet.max_row or 1) - 1)  # the size the file declares, if it does
        sheet.reset_dimensions()  # then read every row there is, whatever was declared
        rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
        names = _header(next(rows, None))
        if all(column in names for column in required):
            return names, rows
    rows = workbook.worksheets[0].iter_rows(values_only=True, max_col=MAX_COLUMNS)
    header = next(rows, None)
    if header is None:
        raise ScoresheetUnreadable(_("The file is empty."))
    return _header(header), rows


def _header(cells: tuple[object, ...] | None) -> list[str]:
    return [str(cell or "").strip().lower() for cell in cells or ()]


def _cells(names: list[str], row: Iterable[object]) -> tuple[dict[str, str], frozenset[str]] | None:
    """A workbook row's cells as text and the columns holding a number cell (``None``: the row
    is empty)."""
    row = list(row)
    if not any("" if value is None else _as_text(value) for value in row):
        return None
    values = list(zip(names, row, strict=False))
    cells = {name: "" if value is None else _as_text(value) for name, value in values}
    numbers = frozenset(
        name for name, value in values if isinstance(value, int | float | Decimal)
        and not isinstance(value, bool)
    )  # fmt: skip
    return cells, numbers


def _as_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, float):
        return str(Decimal(repr(value)))  # the shortest decimal the float is, never 1e-05
    return str(value).strip()


def _check_columns(names: list[str], required: tuple[str, ...]) -> None:
    missing = [column for column in required if column not in names]
    if missing:
        raise ScoresheetInvalid(
            [SheetProblem(0, 1, column, _("missing column")) for column in missing]
        )


# --- amounts --------------------------------------------------------------------------------


class Convention(enum.Enum):
    """How a file writes its numbers: the decimal mark, and so what groups the thousands."""

    POINT = "en"  # 1,000.50 (and Japanese: ¥1,000)
    COMMA = "de"  # 1.000,50; with spaces for groups (1 000,50), the French way


# A semicolon is the list separator where the decimal mark is a comma (Excel and LibreOffice
# save CSV with it there); a comma file writes a decimal point. A tab file says neither.
CONVENTIONS = {";": Convention.COMMA, ",": Convention.POINT, "\t": None}
CONVENTION_NAMES = {
    Convention.POINT: gettext_lazy("with a decimal point"),
    Convention.COMMA: gettext_lazy("with a decimal comma"),
}
MSG_AMOUNT_TWO_WAYS = gettext_lazy(
    "“{text}” reads two ways: {first} ({first_way}) or {second} ({second_way}). Write it"
    " without a thousands separator ({first} or {second})."
)

# A currency sign before or after the number, a sign on either side of it: ¥1,000, 1.000 €,
# -¥1,000, ￥1,000, 1,000円, and the backslash Japanese Excel's CSV writes for its yen sign
# (Shift_JIS's 0x5C, which is a backslash in Unicode).
_YEN = r"[¥￥\\]|円|JPY"
_SIGNS = rf"(?:US\$|\$US|[$€]|EUR|USD|{_YEN})"
_CELL = re.compile(
    rf"(?P<lead>[+-]?)\s*(?P<before>{_SIGNS}?)\s*(?P<sign>[+-]?)\s*"
    rf"(?P<number>[0-9][0-9.,\s]*?)\s*(?P<after>{_SIGNS}?)",
    re.IGNORECASE,
)
_YEN_SIGN = re.compile(_YEN, re.IGNORECASE)
_SPACES = re.compile(r"(?<=[0-9])[ \u00a0\u202f](?=[0-9])")  # a group as French Excel writes it
_GROUP_SYMBOL = {Convention.POINT: ",", Convention.COMMA: "."}


@dataclass(frozen=True)
class TwoWays:
    """A cell the file's convention does not settle: what it reads in each convention."""

    text: str
    readings: dict[Convention, Decimal]

    def reason(self) -> str:
        (first_way, first), (second_way, second) = sorted(
            self.readings.items(), key=lambda item: item[1]
        )
        return str(MSG_AMOUNT_TWO_WAYS).format(
            text=self.text,
            first=plain_decimal(first),
            first_way=CONVENTION_NAMES[first_way],
            second=plain_decimal(second),
            second_way=CONVENTION_NAMES[second_way],
        )


_DIGITS = re.compile(r"[0-9]{1,15}")
MAX_AMOUNT_PROBLEMS = 200  # as many as the checkers list: a whole column wrong is said soon


def readings(text: str) -> dict[Convention, Decimal]:
    """What a cell reads as in each convention that reads it (see :func:`_readings`)."""
    if _DIGITS.fullmatch(text):  # most cells: read alike everywhere, babel not needed
        return dict.fromkeys(Convention, Decimal(text))
    return dict(_readings(text))


@functools.lru_cache(maxsize=4096)  # a night's stakes are few amounts, many times over
def _readings(text: str) -> tuple[tuple[Convention, Decimal], ...]:
    """What a cell reads as in each convention that reads it (babel's strict parsing: groups
    where the convention puts them), its currency sign set aside. Yen have no decimals: a yen
    amount that reads as a whole number in one convention is that number."""
    found = _CELL.fullmatch(plain(text).replace("\u2212", "-"))
    if found is None or (found["lead"] and found["sign"]) or (found["before"] and found["after"]):
        return ()
    sign = found["lead"] or found["sign"]
    out = {}
    for convention in Convention:
        number = _SPACES.sub(_GROUP_SYMBOL[convention], found["number"])
        try:
            out[convention] = parse_decimal(sign + number, locale=convention.value, strict=True)
        except NumberFormatError:
            continue
    whole = [value for value in out.values() if value.as_tuple().exponent == 0]
    if _YEN_SIGN.fullmatch(found["before"] or found["after"]) and whole:
        return tuple(dict.fromkeys(Convention, max(whole)).items())
    return tuple(out.items())


def plain_decimal(amount: Decimal) -> str:
    """An amount as plain digits, with no trailing zeros after its point: 1000, 387.5."""
    text = f"{amount:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def read_cell(text: str, convention: Convention | None) -> Decimal | TwoWays | None:
    """A text cell's amount in the file's ``convention`` (``None``: not known, then in the one
    convention that reads it), a :class:`TwoWays` if the other convention reads it a thousand
    times larger, ``None`` if the convention does not read it (the cell is then left as written,
    for the checker to refuse in its own words: "1,5" in a decimal-point file, as at the table).
    "1,000" in a decimal-comma file is 1 or a thousand, and is refused."""
    found = readings(text)
    values = set(found.values())
    if convention is None:
        if len(values) <= 1:
            return values.pop() if values else None
        return TwoWays(text, found)
    if convention not in found:
        return None
    mine = found[convention]
    return mine if mine == max(values) else TwoWays(text, found)


def content_convention(texts: Iterable[str]) -> Convention | None:
    """The convention a file's amount cells show: the one that alone reads some of its cells
    (387,5 or 1.000,00: a decimal comma; 387.5 or 1,000.50: a point), if the cells show one."""
    shown = set()
    for text in texts:
        found = readings(text)
        if len(found) == 1:
            shown |= set(found)
    return shown.pop() if len(shown) == 1 else None


def read_amounts(
    rows: list[_Row], amounts: tuple[str, ...], convention: Convention | None
) -> list[tuple[int, dict[str, str]]]:
    """The rows with each ``amounts`` cell as a plain decimal: a number cell as it is; a text
    cell in the file's ``convention`` (``None``: as the file's text amounts show it, else each
    cell on its own). Raises ``ScoresheetInvalid`` naming every cell that reads two ways."""
    texts = [
        (index, line, column, cells[column])
        for index, (line, cells, numbers) in enumerate(rows, start=1)
        for column in amounts
        if cells.get(column) and column not in numbers
    ]
    if convention is None:
        convention = content_convention(text for *_where, text in texts)
    problems: list[SheetProblem] = []
    for index, line, column, text in texts:
        amount = read_cell(text, convention)
        if isinstance(amount, TwoWays):
            if len(problems) < MAX_AMOUNT_PROBLEMS:
                problems.append(SheetProblem(index, line, column, amount.reason()))
        elif amount is not None:
            rows[index - 1][1][column] = plain_decimal(amount)
    if problems:
        raise ScoresheetInvalid(problems)
    return [(line, cells) for line, cells, _numbers in rows]
