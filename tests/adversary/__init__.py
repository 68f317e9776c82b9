"""An adversary at the door: hundreds of bad and odd inputs — names, amounts, files, URLs, races —
sent through the real views, import and export, each with what must happen. Then the paths past
fixed defects, each through the real views or management commands: forms in other charsets
(``charsets``), idempotency keys sent again (``keys``), look-alike logins (``homoglyphs``), the
count's forms (``counts``), a night's expenses (``expenses``), coups and guest-banked nights
(``coups``), amounts that add up past the ledger's maximum (``bounds``), undoing or correcting a
hand a rebuy stood on (``rebuy``), strangers at the login and the password reset behind the proxy
(``logins``), uploads sent again (``uploads``), a night's currency and rate (``currency``), nights
read by the rules they were played under (``rules``), the dealers' tips and the tab (``tips``),
devices racing into the same locks (``deadlocks``), ways to pay and handles typed to send a link
elsewhere (``payways``) and into one night's lock (``night races``: the count-only switch, counts,
adjustments, the close, a round's close with rebuys and add-ons), pairs of the race matrix
(``matrix``), a backup taken under load (``backups``) and backups edited by hand (``restore``).

Each group is a module of this package, saying what it attacks and what must happen: ``inputs``
(names, amounts, files, URLs), ``races`` (races and deadlocks), ``charsets``, ``keys``,
``homoglyphs``, ``counts``, ``expenses``, ``coups``, ``bounds``, ``rebuys``, ``logins``,
``uploads``, ``tips``, ``backups`` (backups under load and restores), ``payways`` (handles, link
templates and ways to pay). They stand on ``ground`` (``Case``, ``Night``, how an outcome is
judged, clients) and the bounds and rebuys on ``tournament_helpers``.

``attack(size)`` runs them against the current database and returns a tally per kind of input:
tried, refused with a reason, accepted, crashed, wrong (accepted what must be refused, refused
what must be accepted, money on the wrong guest, or text kept other than typed). The backups and
the restores replace the whole database, so they run last. ``bench/adversarial.py`` prints the
table; ``tests/test_adversarial.py`` runs a smaller set and requires no crash and nothing wrong.
"""

from __future__ import annotations

import random
import uuid
from collections import Counter

from tests.adversary.backups import backup_cases, restore_cases
from tests.adversary.bounds import bound_cases
from tests.adversary.charsets import charset_cases
from tests.adversary.counts import count_cases
from tests.adversary.coups import coup_cases
from tests.adversary.currencies import currency_cases
from tests.adversary.expenses import expense_cases
from tests.adversary.ground import Night
from tests.adversary.homoglyphs import homoglyph_cases
from tests.adversary.inputs import amount_cases, file_cases, name_cases, url_cases
from tests.adversary.keys import key_cases
from tests.adversary.logins import login_cases
from tests.adversary.payways import payway_cases
from tests.adversary.races import deadlock_cases, matrix_cases, night_lock_cases, race_cases
from tests.adversary.rebuys import rebuy_cases
from tests.adversary.tips import tip_cases
from tests.adversary.uploads import rule_cases, upload_cases

__all__ = ["OUTCOMES", "attack"]

OUTCOMES = ("tried", "refused", "accepted", "crashed", "wrong")


def attack(size: int = 100, seed: int = 11, *, threads: bool = True) -> dict[str, Counter[str]]:
    """Run every case (``size`` of each kind of input, a tenth as many races, a fixed set of
    each kind that follows a path through) and tally the outcomes per kind. ``threads``: also
    the cases that need a database taking concurrent writers (a file, or PostgreSQL). The
    backups and the restores replace the whole database: they run last."""
    rng = random.Random(seed)
    tag = uuid.uuid4().hex[:8]
    night = Night(tag)
    cases = [*name_cases(night, rng, size), *amount_cases(night, rng, size),
             *file_cases(night, rng, size // 2), *url_cases(night, rng, size // 2),
             *race_cases(night, max(4, size // 10), threads=threads),
             *charset_cases(Night(f"{tag}c"), size), *key_cases(tag),
             *homoglyph_cases(night, tag), *bound_cases(night, tag),
             *rebuy_cases(tag, night.host), *count_cases(Night(f"{tag}n"), rng, size),
             *expense_cases(Night(f"{tag}e"), tag),
             *login_cases(tag), *coup_cases(tag, night.host),
             *upload_cases(night, tag, threads=threads),
             *rule_cases(Night(f"{tag}w"), tag), *currency_cases(night, tag),
             *payway_cases(Night(f"{tag}p"), tag),
             *tip_cases(Night(f"{tag}t"), rng, size, tag)]  # fmt: skip
    if threads:
        cases += [*deadlock_cases(tag, max(2, size // 20)),
                  *night_lock_cases(tag, max(1, size // 50)),
                  *matrix_cases(max(4, size // 5)),
                  *backup_cases(tag, max(1, size // 50))]  # fmt: skip
    cases += restore_cases(tag)
    tally: dict[str, Counter[str]] = {}
    wrongs: list[str] = []
    for case in cases:
        try:
            outcome = case.run()
        except Exception as error:  # an exception escaping the app is a crash
            outcome = f"crashed: {error!r}"[:200]
        counts = tally.setdefault(case.kind, Counter())
        counts["tried"] += 1
        key = outcome.split(":")[0]
        counts[key] += 1
        if key in ("wrong", "crashed"):
            wrongs.append(f"{case.kind} · {case.label[:60]!r}: {outcome}")
    tally["_details"] = Counter(wrongs)
    return tally
