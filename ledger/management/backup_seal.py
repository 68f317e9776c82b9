"""A backup's seal: an HMAC-SHA256 of the file, keyed by the site's SECRET_KEY, written beside it
(``shoebook.json.gz.sig``). ``restore`` opens only a sealed file whose seal matches: a file
edited since it was written (a settlement's amount, a rebuy row, a bet and its totals made to
agree) is refused before anything of it is read, whatever the books would say of it. A backup
taken to a site with another SECRET_KEY, or one written before seals, is restored only when the
operator vouches for it (``--unsigned``); the books are checked either way.
"""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

from django.conf import settings

PREFIX = "shoebook-backup hmac-sha256 "
MSG_NO_SEAL = (
    "The backup has no seal ({seal} is missing): restore only a backup you trust, with --unsigned."
)
MSG_BROKEN_SEAL = (
    "The backup does not match its seal: it was changed since it was written, or written by a"
    " site with another SECRET_KEY. Nothing was restored (with --unsigned, if you trust it)."
)


def seal_of(path: Path) -> Path:
    return path.with_name(path.name + ".sig")


def _mac(path: Path) -> str:
    key = hashlib.sha256(b"shoebook.backup" + str(settings.SECRET_KEY).encode()).digest()
    mac = hmac.new(key, digestmod="sha256")
    with path.open("rb") as file:
        while chunk := file.read(1 << 20):
            mac.update(chunk)
    return mac.hexdigest()


def seal(path: Path) -> Path:
    """Write the backup's seal beside it; return the seal's path."""
    sealed = seal_of(path)
    sealed.write_text(PREFIX + _mac(path) + "\n")
    return sealed


def seal_problem(path: Path) -> str | None:
    """Why the backup's seal does not vouch for it, or None when it does."""
    sealed = seal_of(path)
    if not sealed.is_file():
        return MSG_NO_SEAL.format(seal=sealed.name)
    written = sealed.read_text(errors="replace").strip()
    expected = PREFIX + _mac(path)
    return None if hmac.compare_digest(written.encode(), expected.encode()) else MSG_BROKEN_SEAL
