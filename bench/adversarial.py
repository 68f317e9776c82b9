"""An adversary at the door: bad and odd inputs through the real views, import and export.

    .venv/bin/python bench/adversarial.py [--size 100]
    scripts/with-postgres .venv/bin/python bench/adversarial.py [--size 100]

Runs the adversary (the package ``tests/adversary/``) on a throwaway database: a new SQLite
file (WAL, as in production), or, when ``DATABASE_URL`` names a PostgreSQL server, a new database
on that server, dropped at exit (never the database it names: the backups and restores empty
every table). About ``5 × size`` inputs, races among devices, backups taken under load and
backups edited by hand; it prints per kind of input how many were tried, refused with a reason,
accepted, crashed, or wrong (accepted what must be refused, refused what must be accepted, money
on the wrong guest, text kept other than typed). It must read 0 crashed and 0 wrong: each crash
or wrong is listed under the table and fails the run (exit status 1).
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

from throwaway import ROOT, django_on_throwaway_database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100)
    options = parser.parse_args()
    database = django_on_throwaway_database("adversary")
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AXES_ENABLED = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    sys.path.insert(0, str(ROOT))
    from tests.adversary import OUTCOMES, attack

    # 4xx and 5xx answers, CSRF refusals and the retries of a busy database are expected here:
    # the table counts them.
    for name in (
        "django.request",
        "django.security",
        "shoebook.middleware",
        "shoebook.accounts",
        "axes",
    ):
        logging.getLogger(name).setLevel(logging.CRITICAL)

    start = time.perf_counter()
    tally = attack(options.size)
    details = tally.pop("_details")
    print(f"on a {database}")
    print(f"{'input':<11}" + "".join(f"{name:>10}" for name in OUTCOMES))
    for kind, counts in tally.items():
        print(f"{kind:<11}" + "".join(f"{counts[name]:>10}" for name in OUTCOMES))
    total = {name: sum(counts[name] for counts in tally.values()) for name in OUTCOMES}
    print(f"{'all':<11}" + "".join(f"{total[name]:>10}" for name in OUTCOMES))
    print(f"({time.perf_counter() - start:.1f} s)")
    for line, times in details.items():
        print(f"  {line}" + (f" (×{times})" if times > 1 else ""))
    if details:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
