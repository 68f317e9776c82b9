"""Reading a scoresheet as spreadsheet programs save it: rows of text cells under a header.

A CSV in UTF-8 (with or without the byte-order mark Excel writes), UTF-16 (Excel's "Unicode
text") or Shift_JIS (cp932: Japanese Excel's plain "CSV"), separated by commas, semicolons (Excel
where the decimal mark is a comma) or tabs; an .xlsx workbook (openpyxl, read as a stream); an .ods
spreadsheet (LibreOffice's own; python-calamine). A file past :data:`MAX_ROWS` rows or
:data:`MAX_UNPACKED_BYTES` unpacked is refused before it is read through.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

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

    def __str__(self) -> str:
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


def read_rows(
    name: str, content: bytes, required: tuple[str, ...]
) -> Iterator[tuple[int, dict[str, str]]]:
    """(file line, {column: text}) for every data row of a scoresheet (.csv, .xlsx or .ods)
    whose header has the ``required`` columns (Punto Banco's, or a guest-banked game's)."""
    suffix = name.lower().rsplit(".", 1)[-1]
    if suffix == "xlsx":
        return _xlsx_rows(content, required)
    if suffix == "ods":
        return _ods_rows(content, required)
    return _csv_rows(content, required)


# Byte-order marks, then the encodings a spreadsheet program's CSV comes in without one, in the
# order tried: strict decoding of one fails on the other's text (Shift_JIS's lead bytes are not
# UTF-8), so the first that reads the whole file is the file's.
BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))
ENCODINGS = ("utf-8", "cp932")
MSG_NOT_TEXT = _(
    "The file could not be read as text: tried UTF-8, UTF-16 and Shift_JIS (cp932). Save it as"
    " CSV (UTF-8) or as an .xlsx or .ods workbook."
)
MSG_NOT_IN_ITS_ENCODING = _(
    "The file starts as {encoding} text but is not {encoding} throughout ({error}). Save it"
    " again as CSV (UTF-8)."
)
SEPARATORS = ",;\t"


ENCODING_NAMES = {"utf-8-sig": "UTF-8", "utf-16": "UTF-16", "utf-8": "UTF-8",
                  "cp932": "Shift_JIS (cp932)"}  # fmt: skip
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
    for encoding in ENCODINGS:
        try:
            return content.decode(encoding), ENCODING_NAMES[encoding]
        except UnicodeDecodeError:
            continue
    raise ScoresheetUnreadable(MSG_NOT_TEXT)


def separator(header_line: str) -> str:
    """The separator the header is written with: whichever of comma, semicolon and tab it
    holds most of (a header has at least two columns; a tie is a comma)."""
    return max(SEPARATORS, key=header_line.count)


def _csv_rows(content: bytes, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
    text, encoding = decoded(content)
    delimiter = separator(text.split("\n", 1)[0])
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
        yield reader.line_num, dict(zip(names, (cell.strip() for cell in row), strict=False))


def _ods_rows(content: bytes, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
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
        cells = ["" if cell is None else _as_text(cell) for cell in row[:MAX_COLUMNS]]
        if any(cells):
            yield line, dict(zip(names, cells, strict=False))


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


def _xlsx_rows(content: bytes, required: tuple[str, ...]) -> Iterator[tuple[int, dict[str, str]]]:
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
            cells = ["" if cell is None else _as_text(cell) for cell in row]
            if any(cells):
                yield line, dict(zip(names, cells, strict=False))
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


def _as_text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _check_columns(names: list[str], required: tuple[str, ...]) -> None:
    missing = [column for column in required if column not in names]
    if missing:
        raise ScoresheetInvalid(
            [SheetProblem(0, 1, column, _("missing column")) for column in missing]
        )
