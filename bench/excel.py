"""Excel at season scale: `.venv/bin/python bench/excel.py [--events 100]`.

Builds a season (100 events × 6 shoes × 40 hands × 7 bets ≈ 168,000 bets) in a throwaway SQLite
file, then, side by side:
- exports the settlement workbook for the whole season in a fresh process, and times it;
- writes the same cells (already in Python lists) straight into a write-only workbook: the
  baseline the export is compared with (goal: within 1.5×, peak memory under 150 MB);
- exports each event's Hands as a CSV scoresheet and imports them all again (goal: ≥ 10,000
  rows per second).

Peak memory is taken in fresh processes only. Linux carries a process's peak resident size
(``ru_maxrss``) over fork and exec, so a child of this script — grown by building the season —
would report this script's peak, not its own. So a bare launcher interpreter (about 10 MB) starts
the export as its only child and reads ``getrusage(RUSAGE_CHILDREN)``: the export's own peak, or
the launcher's if that were larger (it never is). ``tests/test_benches.py`` checks the method
against a parent holding 300 MB.

The other goals (save, pages, odds, load; docs/operations.md) are measured by the other benches;
this one keeps its
own goals above."""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import date
from decimal import Decimal
from pathlib import Path

from throwaway import django_on_throwaway_sqlite

HERE = Path(__file__).resolve().parent


LAUNCHER = """
import json, resource, subprocess, sys
done = subprocess.run([sys.executable, "-c", sys.argv[1]], stdout=subprocess.PIPE, text=True,
                      check=True)
print(json.dumps({"stdout": done.stdout,
                  "peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
"""


def in_fresh_process(code: str) -> tuple[str, float]:
    """Run ``code`` as the only child of a bare launcher; returns its output and its peak memory
    in MB, which nothing this process holds can inflate (see the module's docstring)."""
    launched = subprocess.run(
        [sys.executable, "-c", LAUNCHER, code], capture_output=True, text=True, check=True
    )
    report = json.loads(launched.stdout.strip().splitlines()[-1])
    return str(report["stdout"]), float(report["peak_mb"])


def export_in_child(database_url: str, output: str) -> dict[str, float]:
    """Run the export alone in a fresh interpreter; returns its seconds and peak memory."""
    code = f"""
import os, sys, time
sys.path.insert(0, {str(HERE.parent)!r})
os.environ["DATABASE_URL"] = {database_url!r}
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
import django; django.setup()
from ledger.workbook.exports import events_between, settlement_workbook
start = time.perf_counter()
with open({output!r}, "wb") as out:
    settlement_workbook(events_between(None, None), out)
print(time.perf_counter() - start)
"""
    stdout, peak_mb = in_fresh_process(code)
    return {"seconds": float(stdout.strip().splitlines()[-1]), "peak_mb": peak_mb}


def baseline(output: str) -> tuple[float, int]:
    """The same cells (every sheet's), from lists already in memory, into a plain write-only
    workbook: no number formats, no text checks."""
    from openpyxl import Workbook

    from ledger.workbook.exports import Money, Total, events_between, workbook_sheets

    def plain(cell: object) -> object:
        """A total as its plain figure (the floor writes no formula), money as its number."""
        if isinstance(cell, Total):
            return cell.value
        return cell.amount if isinstance(cell, Money) else cell

    sheets = [
        (title, [[plain(c) for c in row] for row in rows])
        for title, _columns, rows in workbook_sheets(events_between(None, None))
    ]
    start = time.perf_counter()
    workbook = Workbook(write_only=True)
    for title, rows in sheets:
        sheet = workbook.create_sheet(title)
        for row in rows:
            sheet.append(row)
    workbook.save(output)
    return time.perf_counter() - start, sum(len(rows) for _title, rows in sheets)


def import_season(by: object) -> tuple[float, int]:
    from games.entry import TableRules
    from games.models import Event
    from games.payouts import STANDARD_RULES
    from ledger.workbook.exports import hands_rows
    from ledger.workbook.imports.night_writer import scoresheet_import
    from ledger.workbook.imports.punto_banco_sheet import COLUMNS, check_scoresheet

    sheets = []
    for event in Event.objects.order_by("date"):
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(COLUMNS)
        for row in hands_rows([event]):
            writer.writerow(["" if cell is None else cell for cell in row[1:12]])
        sheets.append((event, buffer.getvalue().encode()))
    rows = sum(content.count(b"\n") - 1 for _, content in sheets)
    start = time.perf_counter()
    table = TableRules(STANDARD_RULES, 8, Decimal(10), Decimal(1000))
    for number, (event, content) in enumerate(sheets):
        hands = check_scoresheet(f"{event.name}.csv", content, table)
        scoresheet_import(
            hands=hands, name=f"Imported {number}", on=date(2027, 1, 1), table=table, by=by
        )
    return time.perf_counter() - start, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--events", type=int, default=100)
    options = parser.parse_args()
    django_on_throwaway_sqlite("excel")
    from django.conf import settings
    from django.contrib.auth.models import User
    from results_pages import build_season

    from ledger.money import services as money_services

    started = time.perf_counter()
    build_season(options.events, 6, 40)
    money_services.results_rebuild()
    print(f"season built in {time.perf_counter() - started:.0f} s")
    name = settings.DATABASES["default"]["NAME"]
    workdir = tempfile.mkdtemp(prefix="shoebook-excel-")
    exported = export_in_child(f"sqlite:///{name}", os.path.join(workdir, "season.xlsx"))
    plain_seconds, rows = baseline(os.path.join(workdir, "plain.xlsx"))
    seconds, peak = exported["seconds"], exported["peak_mb"]
    print(f"export, whole workbook   {seconds:6.1f} s   peak {peak:.0f} MB   ({rows:,} rows)")
    print(f"baseline, lists → xlsx   {plain_seconds:6.1f} s   (the same cells, no styles)")
    print(f"ratio                    {exported['seconds'] / plain_seconds:6.2f}×")
    seconds, imported = import_season(User.objects.get(username="bench-host"))
    print(
        f"import                   {seconds:6.1f} s   {imported / seconds:,.0f} rows/s"
        f"   ({imported:,} rows)"
    )


if __name__ == "__main__":
    main()
