"""Guests accepting their invitation with a login that reads like one already there (a host's):
another alphabet's letters, full-width or styled letters that NFKC folds, capitals, digits or
letters for look-alike letters (0 for o, 1 and I for l, rn for m), invisible characters. Each is
refused with a 400 and makes no login; a name unlike any login (ASCII, Japanese, Cyrillic, accented)
is taken, kept as its NFKC form.
"""

from __future__ import annotations

import unicodedata
import uuid
from collections.abc import Callable, Iterator

from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from ledger.guests import services as guest_services
from shoebook.base.roles import HOSTS
from tests.adversary.ground import Case, Night, expect

# Latin letters with a Cyrillic double, and the doubles: a login spelled in them alone is in
# one script (no mixing to catch) and reads exactly as the Latin one.
LATIN_TWINS, CYRILLIC_TWINS = "aceopxysijh", "асеорхуѕіјһ"
TO_CYRILLIC = str.maketrans(LATIN_TWINS, CYRILLIC_TWINS)
HAN_DIGITS = "零一二三四五六七八九甲乙丙丁戊己"


def _fullwidth(text: str) -> str:
    return "".join(chr(ord(char) + 0xFEE0) if "!" <= char <= "~" else char for char in text)


def _bold(text: str) -> str:
    """Mathematical bold small letters (NFKC reads them as the letters)."""
    return "".join(chr(0x1D41A + ord(char) - ord("a")) if "a" <= char <= "z" else char
                   for char in text)  # fmt: skip


def homoglyph_cases(night: Night, tag: str) -> Iterator[Case]:
    """Guests accepting their invitation with a login that reads like one already there (a
    host's): another alphabet's letters, full-width or styled letters that NFKC folds, digits
    for letters, invisible characters. Each is refused; a name unlike any login is taken."""
    mark = "".join(LATIN_TWINS[int(char, 16) % len(LATIN_TWINS)] for char in tag)
    hostess, chess, lily, mike = (f"{word}{mark}" for word in ("hostess", "chess", "lily", "mike"))
    for login in (hostess, chess, lily, mike):
        User.objects.create_user(login).groups.add(Group.objects.get_or_create(name=HOSTS)[0])
    tail = mark  # after each look-alike, as after each login it reads like
    attempts = [
        ("Cyrillic о", "h\u043estess" + tail, "refused"),
        ("Greek ο", "h\u03bfstess" + tail, "refused"),
        ("Cyrillic е and ѕ", "hostе\u0455s" + tail, "refused"),
        ("the whole login in Cyrillic", chess.translate(TO_CYRILLIC), "refused"),
        ("full-width", _fullwidth(hostess), "refused"),
        ("capitals", hostess.upper(), "refused"),
        ("one capital (case only)", hostess.capitalize(), "refused"),
        ("capital Rn for m", "Rnike" + tail, "refused"),
        ("mathematical bold", _bold(hostess), "refused"),
        ("long s (ſ)", "hoſtess" + tail, "refused"),
        ("script small h (ℎ)", "ℎostess" + tail, "refused"),
        ("digit zero for o", "h0stess" + tail, "refused"),
        ("digit one for l", "1ily" + tail, "refused"),
        ("capital I for l", "IiIy" + tail, "refused"),
        ("rn for m", "rnike" + tail, "refused"),
        ("zero-width space", "host\u200bess" + tail, "refused"),
        ("zero-width joiner", "hostess\u200d" + tail, "refused"),
        ("soft hyphen", "hos\u00adtess" + tail, "refused"),
        ("a new ASCII name", f"kenji{tail}", "accepted"),
        ("a new Japanese name", "田中" + "".join(HAN_DIGITS[int(c, 16)] for c in tag), "accepted"),
        ("a new Cyrillic name", "Зоя" + tail.translate(TO_CYRILLIC), "accepted"),
        ("a new accented name", f"zoë{tail}", "accepted"),
    ]

    def accept(name: str, should: str) -> Callable[[], str]:
        def run() -> str:
            guest = guest_services.guest_create(name=f"Invitee {uuid.uuid4().hex[:8]}")
            token = guest_services.guest_invitation_issue(guest=guest, by=night.host)
            password = f"Adv {uuid.uuid4().hex}!"
            logins = User.objects.count()
            response = Client(raise_request_exception=False).post(
                reverse("ledger:invitation_accept", args=[token]),
                {"username": name, "password1": password, "password2": password},
            )
            guest.refresh_from_db()
            made = User.objects.count() - logins
            if response.status_code >= 500:
                return "crashed"
            if guest.user is not None and made == 1:
                if guest.user.username != unicodedata.normalize("NFKC", name):
                    return f"wrong: the login was made as {guest.user.username!r}"
                return expect("accepted", should)
            if made or response.status_code != 400:
                return f"wrong: answered {response.status_code} and made {made} login(s)"
            return expect("refused", should)

        return run

    for label, name, should in attempts:
        yield Case("homoglyphs", f"{label}: {name!r}", accept(name, should))
