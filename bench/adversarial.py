"""An adversary at the door: bad and odd inputs through the real views, import and export.

    .venv/bin/python bench/adversarial.py [--size 100]

Runs ``tests/adversary.py`` on a throwaway SQLite file (WAL, as in production): about
``2.5 × size`` inputs plus races, and prints per kind of input how many were tried, refused
with a reason, accepted, crashed, or wrong (accepted what must be refused, refused what must
be accepted, money on the wrong guest). It must read 0 crashed and 0 wrong.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time

from throwaway import ROOT, django_on_throwaway_sqlite


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100)
    options = parser.parse_args()
    django_on_throwaway_sqlite("adversary")
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.AXES_ENABLED = False
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]  # the test client's host
    sys.path.insert(0, str(ROOT))
    from tests.adversary import OUTCOMES, attack

    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # 404s and 400s are expected

    start = time.perf_counter()
    tally = attack(options.size)
    details = tally.pop("_details")
    print(f"{'input':<10}" + "".join(f"{name:>10}" for name in OUTCOMES))
    for kind, counts in tally.items():
        print(f"{kind:<10}" + "".join(f"{counts[name]:>10}" for name in OUTCOMES))
    total = {name: sum(counts[name] for counts in tally.values()) for name in OUTCOMES}
    print(f"{'all':<10}" + "".join(f"{total[name]:>10}" for name in OUTCOMES))
    print(f"({time.perf_counter() - start:.1f} s)")
    for line in details:
        print("  " + line)
    if total["crashed"] or total["wrong"]:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
