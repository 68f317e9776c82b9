"""Forms in another charset than UTF-8, or in bytes no charset reads, posted to the forms a host and
a stranger reach (a guest added, a settlement, a hand saved, a login): UTF-16, Shift_JIS, EUC-JP and
Latin-1, declared or not; a real charset under a name Python does not know (Windows-31J), or a
made-up one; raw bytes not %-encoded; multipart forms in those charsets. A charset the site knows
that is not UTF-8 gets the middleware's 400, and so do fields that are not UTF-8 under no charset or
a charset no codec knows; any other form must be refused, or kept exactly as typed: never a 5xx,
never text read wrongly and kept.
"""

from __future__ import annotations

import codecs
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from urllib.parse import unquote_to_bytes, urlencode

from django.contrib.auth.models import User
from django.db import models
from django.urls import reverse

from games.messages import plain
from ledger.guests.names import clean_name
from ledger.models import Bet, Guest, Settlement
from tests.adversary.ground import CSRF_SECRET, Case, Night, user_client

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data; boundary=adversary"


@dataclass(frozen=True)
class Body:
    """A form as a client sends it: its Content-Type, the text typed (``meant``), and how the
    fields become bytes (what the site must do with it: ``_not_read_as_utf8``)."""

    label: str
    content_type: str
    meant: str
    encode: Callable[[dict[str, str]], bytes]


def _percent(codec: str) -> Callable[[dict[str, str]], bytes]:
    """Fields %-encoded from ``codec``'s bytes (what a browser on a page in that charset sends)."""
    return lambda fields: urlencode(fields, encoding=codec).encode("ascii")


def _whole(codec: str) -> Callable[[dict[str, str]], bytes]:
    """The whole urlencoded text in ``codec`` (a UTF-16 client's body)."""
    return lambda fields: urlencode(fields).encode(codec)


def _raw(codec: str) -> Callable[[dict[str, str]], bytes]:
    """Values as ``codec``'s bytes, not %-encoded at all."""
    return lambda fields: b"&".join(
        name.encode() + b"=" + value.encode(codec) for name, value in fields.items()
    )


def _parts(codec: str) -> Callable[[dict[str, str]], bytes]:
    """A multipart form whose values are ``codec``'s bytes."""

    def encode(fields: dict[str, str]) -> bytes:
        parts = [
            b'--adversary\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n'
            % (name.encode(), value.encode(codec))
            for name, value in fields.items()
        ]
        return b"".join(parts) + b"--adversary--\r\n"

    return encode


JAPANESE, LATIN = "田中 ケン", "Zoë Brontë"
# What the site reads: a charset it knows that is not UTF-8 gets the middleware's 400; bytes
# that are not UTF-8 under no charset, or a charset no codec knows, get it too.
BODIES = [
    Body("UTF-16 form", f"{FORM}; charset=utf-16", JAPANESE, _whole("utf-16")),
    Body("UTF-16LE label, ASCII bytes", f"{FORM}; charset=UTF-16LE", "Ken", _percent("utf-8")),
    Body("Shift_JIS form", f"{FORM}; charset=Shift_JIS", JAPANESE, _percent("shift_jis")),
    Body("EUC-JP form", f"{FORM}; charset=euc-jp", JAPANESE, _percent("euc_jp")),
    Body("Latin-1 form", f"{FORM}; charset=ISO-8859-1", LATIN, _percent("latin-1")),
    Body("Windows-31J label (unknown to Python)", f"{FORM}; charset=Windows-31J", JAPANESE,
         _percent("cp932")),
    Body("made-up charset", f"{FORM}; charset=x-klingon", JAPANESE, _percent("shift_jis")),
    Body("undeclared Shift_JIS bytes", FORM, JAPANESE, _percent("shift_jis")),
    Body("undeclared Latin-1 bytes", FORM, LATIN, _percent("latin-1")),
    Body("raw bytes, not %-encoded", FORM, JAPANESE, _raw("cp932")),
    Body("multipart in UTF-16", f"{MULTIPART}; charset=utf-16", JAPANESE, _parts("utf-16")),
    Body("multipart in Shift_JIS, declared", f"{MULTIPART}; charset=Shift_JIS", JAPANESE,
         _parts("shift_jis")),
    Body("multipart, made-up charset", f"{MULTIPART}; charset=x-klingon", JAPANESE,
         _parts("shift_jis")),
    Body("multipart, no boundary", "multipart/form-data; charset=utf-16", JAPANESE,
         _percent("utf-16")),
]  # fmt: skip


@dataclass(frozen=True)
class Target:
    """A form the adversary posts to: its fields, with the text typed (``meant``) in them; what
    it must keep of them if it records the form; and a reader, made before the post, of what it
    kept (None: nothing)."""

    label: str
    url: str
    fields: Callable[[str], dict[str, str]]
    kept_as_typed: Callable[[dict[str, str]], str]
    reader: Callable[[], Callable[[], str | None]]


def _newest(model: type[models.Model], field: str) -> Callable[[], Callable[[], str | None]]:
    """A reader of ``field`` on the first row of ``model`` made after it."""

    def reader() -> Callable[[], str | None]:
        last = model._default_manager.order_by("-pk").values_list("pk", flat=True).first()
        new = model._default_manager.filter(pk__gt=last or 0).values_list(field, flat=True)
        return lambda: None if (value := new.first()) is None else str(value)

    return reader


def _charset_targets(night: Night, login: User) -> list[Target]:
    guest = night.guests[2]

    def logged_in() -> Callable[[], str | None]:
        before = User.objects.get(pk=login.pk).last_login
        return lambda: (
            None if User.objects.get(pk=login.pk).last_login == before else login.username
        )

    def hand(meant: str) -> dict[str, str]:
        # The stake in full-width digits when the charset has them (read as 10), else 10.
        return night.hand_data(result="tie", stake_3_tie="１０" if meant == JAPANESE else "10")

    def settlement(meant: str) -> dict[str, str]:
        return {"guest": str(guest.pk), "direction": "guest_paid", "amount": "10",
                "method": "cash", "note": meant, "confirm": "on",
                "idempotency_key": str(uuid.uuid4())}  # fmt: skip

    return [
        Target("guest add", reverse("ledger:event_guest_add", args=[night.event.pk]),
               lambda meant: {"name": f"{meant} {uuid.uuid4().hex[:6]}"},
               lambda fields: clean_name(fields["name"]), _newest(Guest, "name")),
        Target("settlement", reverse("ledger:settlement_record", args=[night.event.pk]),
               settlement, lambda fields: fields["note"], _newest(Settlement, "note")),
        Target("hand save", reverse("ledger:hand_record", args=[night.shoe.pk]), hand,
               lambda fields: f"{Decimal(plain(fields['stake_3_tie'])):.2f}",
               _newest(Bet, "stake")),
        Target("login", reverse("login"),
               lambda meant: {"username": login.username, "password": f"pw {meant}"},
               lambda fields: login.username, logged_in),
    ]  # fmt: skip


def _not_read_as_utf8(content_type: str, sent: bytes) -> bool:
    """Whether the site's rule is a 400 for this body: a form naming a charset other than UTF-8
    or one no codec knows, or whose fields are not UTF-8 whatever it names; a multipart form
    naming a charset no codec knows (one it knows is read in it)."""
    kind, _, params = content_type.partition(";")
    charset = dict(
        part.strip().partition("=")[::2] for part in params.split(";") if "=" in part
    ).get("charset")
    try:
        known = charset is None or codecs.lookup(charset) is not None
        utf8 = charset is None or codecs.lookup(charset).name == "utf-8"
    except LookupError:
        return True
    if kind.strip() != FORM:
        return not known
    if not utf8:
        return True
    try:
        unquote_to_bytes(sent.replace(b"+", b" ")).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def charset_cases(night: Night, count: int) -> Iterator[Case]:
    """Forms in another charset than UTF-8, or in bytes no charset reads, to the forms a host
    and a stranger reach. A charset the site knows gets the middleware's 400; any other must be
    refused, or kept as typed: never a 5xx, never text read wrongly and kept."""
    login = User.objects.create_user(f"charset-{uuid.uuid4().hex[:8]}")
    targets = _charset_targets(night, login)

    def post(body: Body, target: Target, who: User | None) -> Callable[[], str]:
        def run() -> str:
            login.set_password(f"pw {body.meant}")  # the login form's password, as typed
            login.save(update_fields=["password"])
            fields = target.fields(body.meant)
            headers = {"X-CSRFToken": CSRF_SECRET} if who else {}
            if who is None:  # a stranger's token is in the form: the CSRF check reads the form
                fields["csrfmiddlewaretoken"] = CSRF_SECRET
            kept = target.reader()
            sent = body.encode(fields)
            response = user_client(who, csrf=True).generic(
                "POST", target.url, sent, content_type=body.content_type, headers=headers
            )
            code, value = response.status_code, kept()
            if code >= 500:
                return "crashed"
            if _not_read_as_utf8(body.content_type, sent) and (code != 400 or value is not None):
                return f"wrong: answered {code} (kept {value!r}) where the site's rule is a 400"
            if value is None:
                return "refused"
            if value != target.kept_as_typed(fields):
                return f"wrong: kept {value!r} where {target.kept_as_typed(fields)!r} was typed"
            return "accepted"

        return run

    senders = [(target, who) for target in targets for who in (night.host, None)]
    # Every body first, then every body to every form from each sender, as far as ``count``.
    for n in range(min(max(count, len(BODIES)), len(BODIES) * len(senders))):
        body = BODIES[n % len(BODIES)]
        target, who = senders[(n // len(BODIES) + n) % len(senders)]
        label = f"{body.label} → {target.label}, {'host' if who else 'stranger'}"
        yield Case("charsets", label, post(body, target, who))
