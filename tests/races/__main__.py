"""The race matrix: every write move against every other on one night, at once.

    .venv/bin/python -m tests.races [--runs 5]
    scripts/with-postgres .venv/bin/python -m tests.races [--runs 5]

Runs on a throwaway database: a new SQLite file (WAL, as in production), or, when
``DATABASE_URL`` names a PostgreSQL server, a new database on that server, dropped at exit. Each
pair of moves (``tests/races/moves.py``) is run ``--runs`` times, each time on a fresh night (two
moves that share no kind of night, a coup and a rebuy, each on a night of its own: "apart"); it
prints a line per pair that failed and the totals: runs, writes acknowledged and refused,
runs with a 5xx or an error, deadlocks left after the one retry (503s), retries, runs with a
write wrong (acknowledged but absent or twice, refused but present), runs after which
``check_ledger`` found a problem. Exit status 1 when any is not 0.

``--pairs "hand save/count-only switch,rebuy/round close"`` runs only those; ``--smoke`` a fixed
sample (what the test suite runs); ``--solo`` first runs each move alone, which must be
acknowledged and written once; ``--every-pair`` prints every pair's line; ``--json`` prints one
JSON line per pair instead of the table.
"""

from __future__ import annotations

import argparse
import atexit
import json
import os
import secrets
import sys
import time
from dataclasses import asdict
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent.parent

# A sample of pairs for the test suite: the ones the races named, one of each kind of
# night, and moves that belong to no one night against the night's writes.
SMOKE = (
    "hand save/count-only switch",
    "adjustment/count-only switch",
    "count/count-only switch",
    "count setup/adjustment",
    "count setup/hand save",
    "adjustment/night close",
    "count/night close",
    "rebuy/round close",
    "add-on/round close",
    "hand save/settlement",
    "coup/transfer",
    "undo/correction",
    "seat change/merge",
    "merge/merge",
    "settlement void/settlement void",
    "transfer void/transfer void",
    "chips void/adjustment void",
    "shoe close/hand save",
    "night reopen/settlement",
    "invitation accept/merge",
    "import/merge",
    "rebuy/undo",
    "count setup/count setup",
    "shoe reopen/shoe start",
    "merge/workbook import",
    "import resent/import resent",
    "bank rotation/coup",
)


def throwaway_database() -> str:
    """A new PostgreSQL database on the server ``DATABASE_URL`` names (dropped at exit), or a new
    SQLite file; Django set up on it and migrated. Returns what it is."""
    url = os.environ.get("DATABASE_URL", "")
    if urlsplit(url).scheme in ("postgres", "postgresql"):
        import psycopg

        name = f"shoebook_races_{secrets.token_hex(4)}"
        with psycopg.connect(url, autocommit=True) as server:
            server.execute(f'CREATE DATABASE "{name}"')
        atexit.register(_drop, url, name)
        os.environ["DATABASE_URL"] = urlsplit(url)._replace(path=f"/{name}").geturl()
        where = f"PostgreSQL database {name} (dropped at exit)"
    else:
        import tempfile

        if not url.startswith("sqlite:///"):
            folder = Path(tempfile.mkdtemp(prefix="shoebook-races-"))
            os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'races.sqlite3'}"
        where = f"SQLite file {os.environ['DATABASE_URL'].removeprefix('sqlite:///')}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "shoebook.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    settings.AXES_ENABLED = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return where


def _drop(url: str, name: str) -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(url, autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


COLUMNS = ("runs", "done", "refused", "errors", "deadlocks", "retried", "wrong", "ledger")


def solo(*, as_json: bool, one_kind: bool) -> bool:
    """Each move alone on each kind of night it is played on (``one_kind``: on the first): each
    must be acknowledged and written once (else the move, not the race, is wrong). True when all
    were."""
    from tests.races.moves import MOVES
    from tests.races.nights import KINDS
    from tests.races.runner import run_pair

    clean = True
    for move in MOVES:
        for kind in [kind for kind in KINDS if kind in move.kinds][: 1 if one_kind else None]:
            run = run_pair(move, None, kind)
            clean &= run.clean
            notes = [*run.errors, *run.wrong, *run.ledger][:3]
            if as_json:
                print(json.dumps({"solo": move.name, "kind": kind, "clean": run.clean,
                                  "notes": notes}), flush=True)  # fmt: skip
            else:
                print(f"{move.name:<20} {kind:<7} {'ok' if run.clean else 'FAILED'} {notes}")
    return clean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--pairs", default="", help='"a/b,c/d": only these pairs')
    parser.add_argument("--smoke", action="store_true", help="the test suite's sample of pairs")
    parser.add_argument("--every-pair", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--solo", action="store_true", help="each move alone: all acknowledged")
    options = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    where = throwaway_database()
    from django.db import connection

    from ledger.integrity import check_ledger
    from tests.races.moves import BY_NAME
    from tests.races.nights import KINDS
    from tests.races.runner import pairs, tally_pair, watching

    watching()
    alone = solo(as_json=options.json, one_kind=options.smoke) if options.solo else True
    if options.solo and not (options.smoke or options.pairs):
        raise SystemExit(0 if alone else 1)
    chosen = options.pairs or (",".join(SMOKE) if options.smoke else "")
    if chosen:
        wanted = [tuple(BY_NAME[name.strip()] for name in pair.split("/"))
                  for pair in chosen.split(",")]  # fmt: skip
        from tests.races.runner import kind_for

        todo = [(a, b, kind_for(a, b)) for a, b in wanted]
    else:
        todo = list(pairs())
    start = time.perf_counter()
    tallies = []
    for a, b, kind in todo:
        tally = tally_pair(a, b, kind, options.runs)
        tallies.append(tally)
        if options.json:
            print(json.dumps(asdict(tally)), flush=True)
    problems = [str(problem) for problem in check_ledger().problems]
    seconds = time.perf_counter() - start
    if options.json:
        print(json.dumps({"vendor": connection.vendor, "ledger": problems[:20],
                          "seconds": round(seconds, 1)}))  # fmt: skip
    # With --json, the table goes to stderr.
    out = sys.stderr if options.json else sys.stdout
    print(f"on a {where}: {len(tallies)} pairs × {options.runs} runs, {seconds:.0f} s", file=out)
    print(f"{'pair':<42} {'night':<7}" + "".join(f"{name:>10}" for name in COLUMNS), file=out)
    for tally in tallies:
        if options.every_pair or not tally.clean:
            row = [getattr(tally, name) for name in COLUMNS]
            print(f"{tally.a + ' / ' + tally.b:<42} {tally.kind:<7}"
                  + "".join(f"{value:>10}" for value in row), file=out)  # fmt: skip
    for kind in (*KINDS, "apart", None):
        these = [tally for tally in tallies if kind is None or tally.kind == kind]
        total = [sum(getattr(tally, name) for tally in these) for name in COLUMNS]
        label = f"all {len(these)} pairs" + (f" ({kind})" if kind else "")
        print(f"{label:<50}" + "".join(f"{value:>10}" for value in total), file=out)
    failed = [tally for tally in tallies if not tally.clean]
    print(f"pairs failing: {len(failed)} of {len(tallies)}; check_ledger on the whole database "
          f"after: {len(problems)} problems", file=out)  # fmt: skip
    for tally in failed:
        for note in tally.notes:
            print(f"  {tally.a} / {tally.b}: {note}", file=out)
    if problems or not alone or any(not tally.clean for tally in tallies):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
