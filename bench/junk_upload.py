"""How fast a junk workbook is refused, against openpyxl reading it the plain way.

    .venv/bin/python bench/junk_upload.py [--rows 2000000]

Builds two junk workbooks of ``--rows`` short rows and of as many rows as fit under the import's
unpacked-size bound, both without a declared size (as openpyxl's write-only mode and many tools
write them), and times ``check_scoresheet`` refusing each, beside the floor: openpyxl opening
the same file read-only and reading its first 20,000 rows. Goal: refused in under 2 s.
"""

from __future__ import annotations

import argparse
import io
import time
from itertools import islice

from throwaway import django_on_throwaway_sqlite


def junk(rows: int) -> bytes:
    from openpyxl import Workbook

    from ledger.workbook.imports.punto_banco_sheet import COLUMNS

    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(list(COLUMNS))
    for n in range(rows):
        sheet.append(["x", n])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def timed(work) -> tuple[float, str]:
    start = time.perf_counter()
    try:
        result = work()
    except Exception as error:  # the refusal is the point
        result = str(error)
    return time.perf_counter() - start, str(result)[:70]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=2_000_000)
    options = parser.parse_args()
    django_on_throwaway_sqlite("junk")
    from decimal import Decimal

    from openpyxl import load_workbook

    from games.entry import TableRules
    from games.payouts import STANDARD_RULES
    from ledger.workbook import reading
    from ledger.workbook.imports import punto_banco_sheet

    table = TableRules(STANDARD_RULES, 8, Decimal(10), Decimal(1000))
    under_bound = min(options.rows, reading.MAX_UNPACKED_BYTES // 110)
    print(f"{'workbook':<60}{'refused in':>12}{'floor':>10}  answer")
    for label, rows in (("junk", options.rows), ("junk, just under the size bound", under_bound)):
        content = junk(rows)

        def floor(content: bytes = content) -> int:
            sheet = load_workbook(io.BytesIO(content), read_only=True).worksheets[0]
            return sum(1 for _ in islice(sheet.iter_rows(values_only=True), reading.MAX_ROWS))

        seconds, answer = timed(
            lambda c=content: punto_banco_sheet.check_scoresheet("junk.xlsx", c, table)
        )
        floor_seconds, _ = timed(floor)
        name = f"{label} ({rows:,} rows, {len(content) / 1e6:.1f} MB)"
        print(f"{name:<60}{seconds:>11.2f}s{floor_seconds:>9.2f}s  {answer}")


if __name__ == "__main__":
    main()
