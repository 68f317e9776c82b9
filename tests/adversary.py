"""An adversary at the door: hundreds of bad and odd inputs — names, amounts, files, URLs,
races — sent through the real views, import and export, each with what must happen. Then the
paths past fixed defects, each through the real views or management commands: forms in other
charsets (``charsets``), idempotency keys sent again (``keys``), look-alike logins
(``homoglyphs``), amounts that add up past the ledger's maximum (``bounds``), undoing or
correcting a hand a rebuy stood on (``rebuy``), devices racing into the same locks
(``deadlocks``), a backup taken under load (``backups``) and backups edited by hand
(``restore``).

``attack(size)`` runs them against the current database and returns a tally per kind of input:
tried, refused with a reason, accepted, crashed, wrong (accepted what must be refused, refused
what must be accepted, money on the wrong guest, or text kept other than typed). The backups and
the restores replace the whole database, so they run last. ``bench/adversarial.py`` prints the
table; ``tests/test_adversarial.py`` runs a smaller set and requires no crash and nothing wrong.
"""

from __future__ import annotations

import codecs
import gzip
import io
import json
import random
import tempfile
import threading
import unicodedata
import uuid
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import partial
from html import unescape
from pathlib import Path
from typing import Any
from urllib.parse import unquote_to_bytes, urlencode

from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command
from django.db import connection, models
from django.http import HttpResponse, HttpResponseBase
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from games import services as game_services
from games.chips import MAX_CHIPS, MAX_TABLE_LIMIT, MSG_TABLE_LIMIT
from games.entry import BetEntry, HandEntry
from games.messages import plain
from games.models import Event, Hand, Shoe
from games.payouts import BetType, RuleSet
from games.rules import Winner
from ledger.forms import MSG_CHIPS_AMOUNT
from ledger.guests import services as guest_services
from ledger.guests.names import clean_name
from ledger.hands import services as hand_services
from ledger.hands.forms import seating_token
from ledger.hands.selectors import seating_of
from ledger.integrity import check_ledger
from ledger.models import Bet, Charge, Guest, Seating, Settlement, StackRow, Transfer
from ledger.money import services as money_services
from ledger.money.amounts import money_sum
from ledger.money.results import guest_balances
from shoebook.base.roles import HOSTS
from tests.ledger.banked_nights import guest_banked, play_debts, seat_all
from tests.tournaments.pages import SETUP as TOURNAMENT_SETUP
from tournaments import services as tournament_services
from tournaments.models import Entrant, Round, Tournament, TournamentTable

OUTCOMES = ("tried", "refused", "accepted", "crashed", "wrong")
HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


@dataclass
class Case:
    kind: str  # names, amounts, files, urls, races, charsets, keys, ...
    label: str
    run: Callable[[], str]  # "refused", "accepted", or "wrong: why"


class Night:
    """A host, an event with seven guests seated, and a client logged in as the host."""

    def __init__(self, tag: str) -> None:
        self.host = User.objects.create_user(f"adversary-{tag}", password="x")
        self.host.groups.add(Group.objects.get_or_create(name=HOSTS)[0])
        self.event = game_services.event_create(
            name=f"Night {tag}",
            date=date(2026, 11, 20),
            rules=RuleSet(),
            by=self.host,
            table_min=Decimal(10),
            table_max=Decimal(1000),
        )
        self.shoe = game_services.shoe_start(event=self.event, by=self.host)
        self.guests = [
            guest_services.event_guest_add(event=self.event, name=f"G{n}-{tag}", by=self.host)
            for n in range(1, 8)
        ]
        for seat, guest in enumerate(self.guests, start=1):
            hand_services.seat_guest(shoe=self.shoe, seat=seat, guest=guest, by=self.host)
        self.client = Client(raise_request_exception=False)
        self.client.force_login(self.host)

    def hand_data(self, **fields: str) -> dict[str, str]:
        return hand_form(self.shoe, **fields)

    def save(self, **fields: str) -> int:
        url = reverse("ledger:hand_record", args=[self.shoe.pk])
        return self.client.post(url, self.hand_data(**fields)).status_code


def hand_form(shoe: Shoe, **fields: str) -> dict[str, str]:
    """What the table's form posts for the shoe's next hand."""
    number = hand_services.next_hand_number(shoe)
    return {
        "number": str(number),
        "idempotency_key": str(uuid.uuid4()),
        "seating": seating_token(seating_of(shoe, number)),
    } | fields


def _status(code: int, *, accepted: bool) -> str:
    if code >= 500:
        return "crashed"
    return "accepted" if accepted else "refused"


def _expect(outcome: str, should: str) -> str:
    if outcome == "crashed" or outcome == should:
        return outcome
    return f"wrong: {outcome} where it must be {should}"


# --- names ---------------------------------------------------------------------------------

REFUSED_CHARACTERS = ["\x00", "\x01", "\x07", "\x1b", "\u200b", "\u200d", "\u202e", "\u2066",
                      "\ufeff", "\ue000", "\U000e0001"]  # fmt: skip
ODD_BUT_FINE = ["田中", "Zoë", "O'Brien", "=HYPERLINK(\"x\")", "+1+2", "@SUM(A1)", "<script>",
                "Robert'); DROP TABLE guests;--", "🂡 Ace", "Ｋｅｎ", "ÉMILE", "Straße",
                "ǅ"]  # fmt: skip


def name_cases(night: Night, rng: random.Random, count: int) -> Iterator[Case]:
    url = reverse("ledger:event_guest_add", args=[night.event.pk])

    def add(name: str, should: str, same_as: str | None = None) -> Callable[[], str]:
        def run() -> str:
            before = Guest.objects.count()
            code = night.client.post(url, {"name": name}).status_code
            added = Guest.objects.count() - before
            outcome = _status(code, accepted=code == 302)
            if outcome == "accepted" and same_as is not None and added:
                return f"wrong: {name!r} made a new guest instead of finding {same_as!r}"
            return _expect(outcome, should)

        return run

    for n in range(count):
        base = f"Guest {n}"
        match n % 5:
            case 0:
                char = rng.choice(REFUSED_CHARACTERS)
                yield Case("names", f"{base} + U+{ord(char):04X}", add(base + char, "refused"))
            case 1:
                yield Case(
                    "names",
                    f"{base} too long",
                    add(base + "x" * rng.choice([80, 500, 100_000]), "refused"),
                )
            case 2:
                name = rng.choice(ODD_BUT_FINE) + f" {n}"
                yield Case("names", f"odd but fine {name!r}", add(name, "accepted"))
            case 3:  # a name already there, in another case or width: the same guest
                first = f"Kenji {n}"
                yield Case("names", "first spelling", add(first, "accepted"))
                other = rng.choice([first.upper(), f"ＫＥＮＪＩ {n}", f"  kenji   {n} "])
                yield Case("names", f"{other!r} is {first!r}", add(other, "accepted", first))
            case _:
                yield Case("names", "blank", add(rng.choice(["", "   ", "\u3000"]), "refused"))


# --- amounts -------------------------------------------------------------------------------

BAD_STAKES = ["1e30", "9" * 5000, "1e999999", "NaN", "Infinity", "-10", "0", "10.005", "1,5",
              "1_000", "0x10", "⑩", "5", "2000", "abc", "１２３４５", "1e3"]  # fmt: skip
GOOD_STAKES = {"10": Decimal(10), "1,000": Decimal(1000), "１００": Decimal(100),
               " 25 ": Decimal(25), "12.50": Decimal("12.50"), "+20": Decimal(20)}  # fmt: skip


def amount_cases(night: Night, rng: random.Random, count: int) -> Iterator[Case]:
    def stake(text: str, expected: Decimal | None) -> Callable[[], str]:
        def run() -> str:
            before = Bet.objects.count()
            code = night.save(result="tie", stake_1_tie=text)
            outcome = _status(code, accepted=Bet.objects.count() > before)
            if outcome == "accepted" and expected is not None:
                bet = Bet.objects.latest("pk")
                if (bet.stake, bet.guest) != (expected, night.guests[0]):
                    return f"wrong: {text!r} recorded as {bet.stake} for {bet.guest}"
            return _expect(outcome, "accepted" if expected is not None else "refused")

        return run

    def settle(text: str, should: str) -> Callable[[], str]:
        url = reverse("ledger:settlement_record", args=[night.event.pk])

        def run() -> str:
            before = night.guests[1].settlements.count()
            form = {"guest": night.guests[1].pk, "direction": "guest_paid", "amount": text,
                    "method": "cash", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
            code = night.client.post(url, form).status_code
            return _expect(
                _status(code, accepted=night.guests[1].settlements.count() > before), should
            )

        return run

    goods = list(GOOD_STAKES.items())
    for n in range(count):
        if n % 3 == 0:
            text, value = goods[n // 3 % len(goods)]
            yield Case("amounts", f"stake {text!r}", stake(text, value))
        elif n % 3 == 1:
            text = BAD_STAKES[n // 3 % len(BAD_STAKES)]
            yield Case("amounts", f"stake {text[:20]!r}", stake(text, None))
        else:
            text = rng.choice(["1e30", "10.005", "-5", "0", "abc", "9" * 40, "1000000000000"])
            yield Case("amounts", f"settlement {text[:20]!r}", settle(text, "refused"))


# --- files ---------------------------------------------------------------------------------


def xlsx_of(rows: list[list[object]]) -> bytes:
    """A workbook of these rows, as openpyxl's write-only mode (and many tools) write one."""
    book = Workbook(write_only=True)
    sheet = book.create_sheet()
    for row in rows:
        sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def file_cases(night: Night, rng: random.Random, count: int) -> Iterator[Case]:
    url = reverse("ledger:scoresheet_upload")
    fields = {"event_name": "Upload", "date": "2026-11-21", "yen_per_chip": "100",
              "table_min": "10", "table_max": "1000", "decks": "8", "no_commission": "none",
              "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
    good_row = "1,1,9 7,J J 10,,,,1,{name},player,10"
    sheets: list[tuple[str, str, bytes, str]] = [
        ("garbage", "x.csv", bytes(rng.randrange(256) for _ in range(2000)), "refused"),
        ("empty", "x.csv", b"", "refused"),
        ("header only", "x.csv", HEADER.encode(), "refused"),
        ("latin-1", "x.csv", (HEADER + "\n" + good_row.format(name="Zoë")).encode("latin-1"),
         "refused"),
        ("a zip that is no workbook", "x.xlsx", zipfile_bytes(), "refused"),
        ("half a workbook", "x.xlsx", xlsx_of([HEADER.split(",")])[:300], "refused"),
        ("control character in a name", "x.csv",
         (HEADER + "\n" + good_row.format(name="Ken\x01")).encode(), "refused"),
        ("a formula for a name", "x.csv",
         (HEADER + "\n" + good_row.format(name="=HYPERLINK(1)")).encode(), "accepted"),
        ("BOM and Japanese", "x.csv",
         ("\ufeff" + HEADER + "\n" + good_row.format(name="田中")).encode(), "accepted"),
        ("a workbook", "x.xlsx", xlsx_of([HEADER.split(","), ["1", "1", "9 7", "J J 10", "", "",
                                                          "", "1", "Aki", "player", "10"]]),
         "accepted"),
        ("1e17 stake", "x.csv", (HEADER + "\n1,1,9 7,J J 10,,,,1,Aki,player,1e17").encode(),
         "refused"),
        ("a 100,000-character name", "x.csv",
         (HEADER + "\n" + good_row.format(name="x" * 100_000)).encode(), "refused"),
    ]  # fmt: skip

    def upload(name: str, content: bytes, should: str) -> Callable[[], str]:
        def run() -> str:
            upload = io.BytesIO(content)
            upload.name = name
            response = night.client.post(url, fields | {"file": upload})
            return _expect(
                _status(response.status_code, accepted=response.status_code == 302), should
            )

        return run

    for n in range(count):
        label, name, content, should = sheets[n % len(sheets)]
        yield Case("files", label, upload(name, content, should))
    yield Case("files", "every event's workbook opens", lambda: _workbook_opens(night))


def zipfile_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    return buffer.getvalue()


def _workbook_opens(night: Night) -> str:
    response = night.client.get(reverse("ledger:event_workbook", args=[night.event.pk]))
    if response.status_code >= 500:
        return "crashed"
    load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    return "accepted"


# --- URLs ----------------------------------------------------------------------------------

PATHS = ["/events/{id}/", "/events/{id}/results/", "/shoes/{id}/", "/hands/{id}/",
         "/guests/{id}/", "/g/{id}/token/", "/display/{id}/token/", "/events/{id}/edit/",
         "/events/{id}/settlement.xlsx", "/audit/?event={id}"]  # fmt: skip
IDS = ["9" * 23, "0", "-1", "1.5", "%00", "abc", "1e3", "99999999999999999999"]


def url_cases(night: Night, rng: random.Random, count: int) -> Iterator[Case]:
    def get(path: str) -> Callable[[], str]:
        def run() -> str:
            code = night.client.get(path).status_code
            return "crashed" if code >= 500 else "refused" if code >= 400 else "accepted"

        return run

    for n in range(count):
        path = PATHS[n % len(PATHS)].format(id=IDS[n // len(PATHS) % len(IDS)])
        yield Case("urls", path, get(path))


# --- races ---------------------------------------------------------------------------------


def race_cases(night: Night, count: int, *, threads: bool) -> Iterator[Case]:
    """A stale page, and (``threads``: on a database that takes concurrent writers, not the
    test suite's in-memory SQLite) a double tap from two devices at once."""

    def stale_seat() -> str:
        """The dealer sees seat 1's guest; the host seats someone else; the dealer saves."""
        seen = night.hand_data(result="tie", stake_1_tie="10")
        newcomer = guest_services.event_guest_add(
            event=night.event, name=f"New {uuid.uuid4().hex[:6]}", by=night.host
        )
        hand_services.seat_guest(shoe=night.shoe, seat=1, guest=newcomer, by=night.host)
        before = Bet.objects.count()
        code = night.client.post(
            reverse("ledger:hand_record", args=[night.shoe.pk]), seen
        ).status_code
        if Bet.objects.count() > before:
            return f"wrong: the bet went to {Bet.objects.latest('pk').guest}"
        return _status(code, accepted=False)

    def double_save() -> str:
        data = night.hand_data(result="tie", stake_2_tie="10")
        url = reverse("ledger:hand_record", args=[night.shoe.pk])
        codes: list[int] = []
        threads = [
            threading.Thread(
                target=lambda: codes.append(_client(night).post(url, data).status_code)
            )
            for _ in range(2)
        ]
        before = Bet.objects.count()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if any(code >= 500 for code in codes):
            return "crashed"
        added = Bet.objects.count() - before
        return "accepted" if added == 1 else f"wrong: a double tap recorded {added} bets"

    for n in range(count):
        if threads and n % 2 == 0:
            yield Case("races", "double tap", double_save)
        else:
            yield Case("races", "stale seat", stale_seat)


def _client(night: Night) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(night.host)
    return client


# --- what a refusal said -------------------------------------------------------------------


def _text(response: HttpResponseBase) -> str:
    """The page an answer carries, unescaped (what a person reads on it)."""
    content: bytes = b"" if response.streaming else getattr(response, "content", b"")
    return unescape(content.decode(errors="replace"))


def _opening(message: object) -> str:
    """A message's words before its first blank to fill in: what any refusal of its kind says."""
    return str(message).split("{")[0]


def _ledger_problems() -> str:
    """The first of ``check_ledger``'s problems, or nothing."""
    problems = check_ledger().problems
    return f"check_ledger: {problems[0]}" if problems else ""


def _refused_saying(response: HttpResponseBase, *messages: object, changed: bool) -> str:
    """A request that must be refused: no 5xx, nothing written, and one of ``messages`` on the
    page."""
    if response.status_code >= 500:
        return "crashed"
    if changed:
        return f"wrong: recorded (answered {response.status_code})"
    page = _text(response)
    if not any(_opening(message) in page for message in messages):
        return f"wrong: refused without saying {_opening(messages[0])[:50]!r}"
    return "refused"


def _user_client(user: User | None, *, csrf: bool = False) -> Client:
    """A browser of its own, logged in as ``user`` (or no one); with ``csrf``, one that the
    CSRF check applies to, holding the cookie a page it opened would have set."""
    client = Client(raise_request_exception=False, enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    if csrf:
        client.cookies[settings.CSRF_COOKIE_NAME] = CSRF_SECRET
    return client


CSRF_SECRET = "adversary" * 3 + "csrfs"  # 32 characters, as Django's own secrets
HTMX = {"HX-Request": "true"}  # the table page's script asks for the part it replaces


# --- charsets ------------------------------------------------------------------------------

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
            response = _user_client(who, csrf=True).generic(
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


# --- idempotency keys ----------------------------------------------------------------------


def _banked_night(tag: str, host: User, names: list[str]) -> tuple[Event, dict[str, Guest]]:
    """A Chemin de fer night (no cut) with these guests seated, the first owing the second 50
    and the third owing the fourth 30, played as coups."""
    event = game_services.event_create(
        name=f"Chemin {tag}", date=date(2026, 11, 21), rules=RuleSet(), by=host,
        table_min=Decimal(1), table_max=Decimal(1000),
    )  # fmt: skip
    event = guest_banked(event, taxe_rate=Decimal(0))
    guests = [guest_services.event_guest_add(event=event, name=name, by=host) for name in names]
    shoe = game_services.shoe_start(event=event, by=host)
    seat_all(shoe, guests, host)
    seats = {name: seat for seat, name in enumerate(names, start=1)}
    play_debts(shoe, host, seats, [(names[0], names[1], "50.00"), (names[2], names[3], "30.00")])
    return event, dict(zip(names, guests, strict=True))


def _sent_twice(
    first: Callable[[], HttpResponseBase],
    again: Callable[[], HttpResponseBase],
    rows: Callable[[], int],
    refusal: object | None,
) -> Callable[[], str]:
    """A form recorded, then sent again under its key: with the same content (``refusal`` None)
    the first row answers and nothing more is recorded; with other content it is refused with
    ``refusal``'s words and nothing is recorded."""

    def run() -> str:
        before = rows()
        answer = first()
        if answer.status_code >= 500:
            return "crashed"
        if rows() != before + 1:
            return f"wrong: the first form was not recorded (answered {answer.status_code})"
        answer = again()
        added = rows() - before - 1
        if refusal is not None:
            return _refused_saying(answer, refusal, changed=bool(added))
        if answer.status_code >= 500:
            return "crashed"
        if added or answer.status_code >= 400:
            return f"wrong: sent again it answered {answer.status_code} and recorded {added} more"
        return "accepted"

    return run


def key_cases(tag: str) -> Iterator[Case]:
    """The same idempotency key sent again: the same form (a double tap, a resend) records
    nothing more; other content under it (another amount, guest, payer, event or shoe) is
    refused with what the key was used for, and records nothing."""
    night, other = Night(f"{tag}k"), Night(f"{tag}l")
    guest, stranger = night.guests[0], night.guests[1]
    guest_services.event_guest_add(event=other.event, name=guest.name, by=other.host)

    def settle(event: Event, key: uuid.UUID, **changes: object) -> Callable[[], HttpResponseBase]:
        form = {"guest": guest.pk, "direction": "guest_paid", "amount": "10", "method": "cash",
                "note": "", "confirm": "on", "idempotency_key": str(key)} | changes  # fmt: skip
        url = reverse("ledger:settlement_record", args=[event.pk])
        return lambda: night.client.post(url, form)

    def settlements() -> int:
        return Settlement.objects.count()

    said = money_services.MSG_KEY_USED_FOR
    sends: list[tuple[str, dict[str, object], Event, object]] = [
        ("settlement sent twice", {}, night.event, None),
        ("settlement sent twice, amount typed otherwise", {"amount": "１０.００"}, night.event,
         None),
        ("settlement key, another amount", {"amount": "11"}, night.event, said),
        ("settlement key, another guest", {"guest": stranger.pk}, night.event, said),
        ("settlement key, another way round", {"direction": "house_paid"}, night.event, said),
        ("settlement key, another method", {"method": "tab"}, night.event, said),
        ("settlement key, another event", {}, other.event, said),
    ]  # fmt: skip
    for label, changes, event, refusal in sends:
        key = uuid.uuid4()
        first, again = settle(night.event, key), settle(event, key, **changes)
        yield Case("keys", label, _sent_twice(first, again, settlements, refusal))
    yield from _transfer_key_cases(tag, night.host)
    yield from _hand_key_cases(night, other)


def _transfer_key_cases(tag: str, host: User) -> Iterator[Case]:
    names = [f"{letter}-{tag}" for letter in "ABCDEFG"]
    event, guests = _banked_night(f"{tag}t", host, names)
    elsewhere, _ = _banked_night(f"{tag}u", host, names)  # the same guests, another night
    client = _user_client(host)
    payer, payee = guests[names[0]], guests[names[1]]

    def transfer(at: Event, key: uuid.UUID, **changes: object) -> Callable[[], HttpResponseBase]:
        form = {"payer": payer.pk, "payee": payee.pk, "amount": "10", "note": "",
                "idempotency_key": str(key)} | changes  # fmt: skip
        url = reverse("ledger:transfer_record", args=[at.pk])
        return lambda: client.post(url, form)

    def transfers() -> int:
        return Transfer.objects.count()

    said = money_services.MSG_KEY_USED_FOR
    sends: list[tuple[str, dict[str, object], Event, object]] = [
        ("transfer sent twice", {}, event, None),
        ("transfer key, another amount", {"amount": "11"}, event, said),
        ("transfer key, another payer", {"payer": guests[names[2]].pk}, event, said),
        ("transfer key, another payee", {"payee": guests[names[3]].pk}, event, said),
        ("transfer key, another event", {}, elsewhere, said),
    ]
    for label, changes, at, refusal in sends:
        key = uuid.uuid4()
        first, again = transfer(event, key), transfer(at, key, **changes)
        yield Case("keys", label, _sent_twice(first, again, transfers, refusal))


def _hand_key_cases(night: Night, other: Night) -> Iterator[Case]:
    def hands() -> int:
        return Hand.objects.count()

    def post(shoe: Shoe, data: dict[str, str]) -> Callable[[], HttpResponseBase]:
        url = reverse("ledger:hand_record", args=[shoe.pk])
        return lambda: night.client.post(url, data)

    def case(
        refusal: object | None, *, other_shoe: bool = False, **changes: str
    ) -> Callable[[], str]:
        def run() -> str:
            sent = night.hand_data(result="tie", stake_1_tie="10")
            shoe, again = night.shoe, sent | changes
            if other_shoe:  # the key at another table, on that table's next hand
                shoe = other.shoe
                again = other.hand_data(result="tie", stake_1_tie="10")
                again["idempotency_key"] = sent["idempotency_key"]
            return _sent_twice(post(night.shoe, sent), post(shoe, again), hands, refusal)()

        return run

    reused = hand_services.MSG_KEY_REUSED
    yield Case("keys", "hand sent twice", case(None))
    yield Case("keys", "hand key, another stake", case(reused, stake_1_tie="20"))
    yield Case(
        "keys",
        "hand key, another result",
        case(reused, result="banker", stake_1_tie="", stake_1_banker="10"),
    )
    yield Case(
        "keys", "hand key, another number and bet", case(reused, number="99", stake_2_tie="10")
    )
    yield Case("keys", "hand key, another shoe",
               case(hand_services.MSG_KEY_OTHER_SHOE, other_shoe=True))  # fmt: skip


# --- homoglyphs ----------------------------------------------------------------------------

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
                return _expect("accepted", should)
            if made or response.status_code != 400:
                return f"wrong: answered {response.status_code} and made {made} login(s)"
            return _expect("refused", should)

        return run

    for label, name, should in attempts:
        yield Case("homoglyphs", f"{label}: {name!r}", accept(name, should))


# --- bounds --------------------------------------------------------------------------------

HALF_MAX = Decimal("49999999999.99")  # two of it fit in one ledger amount, three do not


def _registered(client: Client, cup: Tournament, name: str, should: str) -> Callable[[], str]:
    url = reverse("tournaments:entrant_add", args=[cup.pk])

    def run() -> str:
        before = cup.entrants.count()
        response = client.post(url, {"name": name})
        added = cup.entrants.count() > before
        if should == "refused":
            return _refused_saying(response, tournament_services.MSG_POOL_FULL, changed=added)
        return _expect(_status(response.status_code, accepted=added), should)

    return run


def _bought(
    client: Client, url: str, rows: Callable[[], int], refusal: object
) -> Callable[[], str]:
    """A rebuy or an add-on the pool has no room for: refused with ``refusal``'s words."""

    def run() -> str:
        before = rows()
        response = client.post(url, follow=True)
        return _refused_saying(response, refusal, changed=rows() > before)

    return run


def _full_cup(tag: str, host: User) -> tuple[Round, Entrant]:
    """A started tournament whose first player paid in all but 50 of the ledger's maximum (the
    second came free): a rebuy or an add-on of 100 would take the pool past it. The first player
    has lost a hand, so a rebuy is open to them."""
    cup = tournament_services.tournament_create(
        name=f"Full cup {tag}", date=date(2026, 11, 22), by=host, entry_fee=MAX_CHIPS - 50,
        cut_percent=Decimal(0), rebuy_price=Decimal(100), rebuy_chips=Decimal(1000),
        rebuy_rounds=1, add_on_price=Decimal(100), add_on_chips=Decimal(500), add_on_round=1,
    )  # fmt: skip
    first = tournament_services.entrant_add(tournament=cup, name=f"Aki {tag}", by=host)
    Tournament.objects.filter(pk=cup.pk).update(entry_fee=Decimal(0))
    cup.refresh_from_db()
    tournament_services.entrant_add(tournament=cup, name=f"Ben {tag}", by=host)
    round_ = _started_round(cup, host)
    table = round_.tables.get()
    _play(table, host, "player", {table.seats.get(entrant=first).seat: ("banker", "10")})
    return round_, first


def _started_round(cup: Tournament, host: User, hands: int = 6) -> Round:
    round_ = tournament_services.round_add(
        tournament=cup, by=host, hands=hands, table_min=Decimal(10), table_max=Decimal(1000),
        bet_unit=Decimal(10),
    )  # fmt: skip
    tournament_services.round_draw(round_=round_, by=host, seed=1)
    return tournament_services.round_start(round_=round_, by=host)


def _play(
    table: TournamentTable, host: User, result: str, bets: dict[int, tuple[str, str]]
) -> None:
    """A hand at a tournament table, for the setting up (the cases post theirs)."""
    shoe = table.event.shoes.get()
    hand_services.record_hand(
        shoe=shoe, number=hand_services.next_hand_number(shoe), by=host,
        entry=HandEntry(result=Winner(result), bets=tuple(
            BetEntry(seat, BetType(kind), Decimal(stake)) for seat, (kind, stake) in bets.items())),
    )  # fmt: skip


def bound_cases(night: Night, tag: str) -> Iterator[Case]:
    """Amounts each within the ledger's maximum (99,999,999,999.99) that add up past it: entry
    fees, rebuys and add-ons filling a tournament's pool, settlements, a bet at the table's
    maximum on the biggest payout. The form or the service refuses, with its message, what would
    take an amount past the maximum; what stays within it is recorded and every page of it
    opens."""
    client = night.client
    cup = tournament_services.tournament_create(
        name=f"Half cup {tag}", date=date(2026, 11, 22), by=night.host, entry_fee=HALF_MAX,
        cut_percent=Decimal(0),
    )  # fmt: skip
    yield Case(
        "bounds",
        "entry fee of half the maximum",
        _registered(client, cup, f"Ann {tag}", "accepted"),
    )
    yield Case("bounds", "a second one: the maximum less a cent",
               _registered(client, cup, f"Bea {tag}", "accepted"))  # fmt: skip
    yield Case("bounds", "a third one: past the maximum",
               _registered(client, cup, f"Cai {tag}", "refused"))  # fmt: skip
    round_, first = _full_cup(tag, night.host)
    charges = Charge.objects.filter(event=round_.tournament.event).count
    for kind, words in (("rebuy", "a rebuy"), ("add_on", "an add-on")):
        url = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, first.pk])
        yield Case("bounds", f"{words} the pool has no room for",
                   _bought(client, url, charges, tournament_services.MSG_POOL_FULL))  # fmt: skip
    yield from _tournament_form_cases(client, tag)
    yield from _settlement_bound_cases(night, tag)
    yield from _table_max_cases(night, tag)


def _tournament_form_cases(client: Client, tag: str) -> Iterator[Case]:
    def create(fee: str, should: str) -> Callable[[], str]:
        def run() -> str:
            before = Tournament.objects.count()
            form = TOURNAMENT_SETUP | {"name": f"Fee {fee} {tag}", "entry_fee": fee}
            response = client.post(reverse("tournaments:tournament_create"), form)
            made = Tournament.objects.count() > before
            return _expect(_status(response.status_code, accepted=made), should)

        return run

    yield Case(
        "bounds", "a tournament's fee at the maximum", create("99,999,999,999.99", "accepted")
    )
    yield Case("bounds", "a fee a cent past it", create("100000000000.00", "refused"))
    yield Case("bounds", "a fee of 1e11", create("1e11", "refused"))


def _settlement_bound_cases(night: Night, tag: str) -> Iterator[Case]:
    whale = guest_services.event_guest_add(event=night.event, name=f"Whale {tag}", by=night.host)
    url = reverse("ledger:settlement_record", args=[night.event.pk])

    def settle(amount: str, should: str) -> Callable[[], str]:
        def run() -> str:
            before = whale.settlements.count()
            response = night.client.post(url, {
                "guest": whale.pk, "direction": "house_paid", "amount": amount, "method": "cash",
                "confirm": "on", "idempotency_key": str(uuid.uuid4())})  # fmt: skip
            added = whale.settlements.count() > before
            if should == "refused":  # the form's words, or Django's, naming the maximum
                said = (MSG_CHIPS_AMOUNT, f"less than or equal to {MAX_CHIPS}")
                return _refused_saying(response, *said, changed=added)
            outcome = _expect(_status(response.status_code, accepted=added), should)
            return _ledger_problems() or outcome

        return run

    yield Case("bounds", "a settlement past the maximum", settle("100000000000", "refused"))
    yield Case("bounds", "a settlement past it by half a cent",
               settle("99999999999.995", "refused"))  # fmt: skip
    yield Case("bounds", "a settlement at the maximum", settle("99999999999.99", "accepted"))
    yield Case("bounds", "a second one, the balance past the maximum",
               settle("99999999999.99", "accepted"))  # fmt: skip


def _table_max_cases(night: Night, tag: str) -> Iterator[Case]:
    """A table limit past the largest (one hand at it could pass one ledger amount) is refused;
    a pair bet (11 to 1) and a tie bet at the largest, won, stay within one amount."""

    def too_big() -> str:
        try:
            game_services.event_create(
                name=f"Too big {tag}", date=date(2026, 11, 23), rules=RuleSet(), by=night.host,
                table_min=Decimal(10), table_max=MAX_TABLE_LIMIT + Decimal("0.01"),
            )  # fmt: skip
        except ValidationError as error:
            said = str(MSG_TABLE_LIMIT) in " ".join(error.messages)
            return "refused" if said else f"wrong: refused saying {error.messages}"
        return "wrong: a table limit past the largest was taken"

    yield Case("bounds", "a table maximum past the largest", too_big)
    big = game_services.event_create(
        name=f"Big table {tag}", date=date(2026, 11, 23), rules=RuleSet(), by=night.host,
        table_min=Decimal(10), table_max=MAX_TABLE_LIMIT,
    )  # fmt: skip
    big_shoe = game_services.shoe_start(event=big, by=night.host)
    guest = guest_services.event_guest_add(event=big, name=f"Big bettor {tag}", by=night.host)
    hand_services.seat_guest(shoe=big_shoe, seat=1, guest=guest, by=night.host)

    def won(shoe: Shoe, **fields: str) -> Callable[[], str]:
        def run() -> str:
            before = Bet.objects.count()
            response = night.client.post(
                reverse("ledger:hand_record", args=[shoe.pk]), hand_form(shoe, **fields)
            )
            outcome = _status(response.status_code, accepted=Bet.objects.count() > before)
            biggest = Bet.objects.filter(event=shoe.event).order_by("-net").first()
            if biggest is not None and biggest.net > MAX_CHIPS:
                return f"wrong: a bet won {biggest.net}, past one ledger amount"
            return _ledger_problems() or _expect(outcome, "accepted")

        return run

    # Player's natural 8 with a pair: the pair bet pays 11 to 1, the biggest payout.
    pair = {"player_cards": "9 9", "banker_cards": "J J"}

    def pages() -> str:
        addresses = [
            reverse("ledger:event_detail", args=[big.pk]),
            reverse("ledger:event_guest_results", args=[big.pk]),
            reverse("ledger:event_workbook", args=[big.pk]),
            reverse("ledger:guest_detail", args=[guest.pk]),
            reverse("ledger:guest_receipt_pdf", args=[guest.pk, big.pk]),
            reverse("ledger:standings"),
        ]
        codes = {address: night.client.get(address).status_code for address in addresses}
        failed = {address: code for address, code in codes.items() if code != 200}
        if any(code >= 500 for code in failed.values()):
            return f"crashed: {failed}"
        return f"wrong: {failed}" if failed else "accepted"

    yield Case(
        "bounds",
        "a pair bet of 1,000 at a 1,000 table, won",
        won(night.shoe, **pair, stake_1_player_pair="1000"),
    )
    yield Case(
        "bounds",
        "a pair bet at the largest table maximum, won",
        won(big_shoe, **pair, stake_1_player_pair=f"{MAX_TABLE_LIMIT}"),
    )
    yield Case("bounds", "a tie bet there, won",
               won(big_shoe, result="tie", stake_1_tie=f"{MAX_TABLE_LIMIT}"))  # fmt: skip
    yield Case("bounds", "every page of that night opens", pages)


# --- rebuys --------------------------------------------------------------------------------


def rebuy_cases(tag: str, host: User) -> Iterator[Case]:
    """At a tournament table, a rebuy is open only under the starting stack: the hand that left
    the player there (and every hand before the rebuy) cannot be undone or corrected while the
    rebuy stands; a hand after it can. An add-on stands on no stack."""
    cup = tournament_services.tournament_create(
        name=f"Rebuy cup {tag}", date=date(2026, 11, 24), by=host, entry_fee=Decimal(50),
        cut_percent=Decimal(0), rebuy_price=Decimal(40), rebuy_chips=Decimal(1000),
        rebuy_rounds=1, add_on_price=Decimal(20), add_on_chips=Decimal(500), add_on_round=1,
    )  # fmt: skip
    aki = tournament_services.entrant_add(tournament=cup, name=f"Aki {tag}", by=host)
    tournament_services.entrant_add(tournament=cup, name=f"Ben {tag}", by=host)
    round_ = _started_round(cup, host)
    table = round_.tables.get()
    shoe, seat = table.event.shoes.get(), table.seats.get(entrant=aki).seat
    client = _user_client(host)
    hands = Hand.objects.filter(shoe=shoe)

    def play(result: str) -> Callable[[], str]:
        def run() -> str:
            before = hands.count()
            data = hand_form(shoe, result=result, **{f"stake_{seat}_banker": "10"})
            response = client.post(reverse("ledger:hand_record", args=[shoe.pk]), data)
            return _expect(_status(response.status_code, accepted=hands.count() > before),
                           "accepted")  # fmt: skip

        return run

    def buy(kind: str) -> Callable[[], str]:
        def run() -> str:
            before = StackRow.objects.filter(event=table.event).count()
            url = reverse(f"tournaments:entrant_{kind}", args=[round_.pk, aki.pk])
            response = client.post(url, follow=True)
            added = StackRow.objects.filter(event=table.event).count() > before
            return _expect(_status(response.status_code, accepted=added), "accepted")

        return run

    def undo(number: int, refusal: object | None) -> Callable[[], str]:
        def run() -> str:
            before = hands.count()
            response = client.post(reverse("ledger:hand_undo", args=[shoe.pk]),
                                   {"number": str(number)}, headers=HTMX)  # fmt: skip
            undone = hands.count() < before
            if refusal is None:
                return _expect(_status(response.status_code, accepted=undone), "accepted")
            return _refused_saying(response, refusal, changed=undone)

        return run

    def correct(result: str, stake: str) -> Callable[[], str]:
        def run() -> str:
            hand = hands.get(number=1)
            response = client.post(reverse("ledger:hand_detail", args=[hand.pk]), {
                "version": str(hand.version), "reason": "misread", "result": result,
                f"stake_{seat}_banker": stake})  # fmt: skip
            changed = hands.get(number=1).version != hand.version
            return _refused_saying(response, hand_services.MSG_REBUY_RESTS_ON_HAND,
                                   changed=changed)  # fmt: skip

        return run

    rests = hand_services.MSG_REBUY_RESTS_ON_HAND
    yield Case("rebuy", "hand 1: the player loses 10 (990, under 1,000)", play("player"))
    yield Case("rebuy", "the rebuy after hand 1", buy("rebuy"))
    yield Case("rebuy", "undo hand 1, which the rebuy stood on", undo(1, rests))
    yield Case("rebuy", "correct hand 1: the player wins it", correct("banker", "10"))
    yield Case("rebuy", "correct hand 1: the same result, a bigger stake", correct("player", "20"))
    yield Case("rebuy", "hand 2", play("banker"))
    yield Case("rebuy", "undo hand 1 while hand 2 stands", undo(1, hand_services.MSG_UNDO_NOT_LAST))
    yield Case("rebuy", "undo hand 2: no rebuy after it", undo(2, None))
    yield Case("rebuy", "hand 2 again", play("banker"))
    yield Case("rebuy", "the add-on after hand 2", buy("add_on"))
    yield Case("rebuy", "undo hand 2: an add-on after it stands on no stack", undo(2, None))
    yield Case("rebuy", "undo hand 1 again", undo(1, rests))
    yield Case("rebuy", "the books add up", lambda: _ledger_problems() or "accepted")


# --- deadlocks -----------------------------------------------------------------------------


def _race(*requests: Callable[[], HttpResponseBase]) -> list[HttpResponseBase | str]:
    """Each request in a thread of its own, released at once; its answer, or the error that
    escaped it. Each thread's database connection is closed after."""
    barrier = threading.Barrier(len(requests))
    answers: list[HttpResponseBase | str] = ["not run"] * len(requests)

    def run(index: int, request: Callable[[], HttpResponseBase]) -> None:
        try:
            barrier.wait()
            answers[index] = request()
        except Exception as error:  # what escaped the app: counted as a crash
            answers[index] = f"{type(error).__name__}: {error}"
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def _race_outcome(
    answers: list[HttpResponseBase | str], went_through: list[bool], one: bool
) -> str:
    """No 5xx (a 503 too), nothing escaping; ``one``: exactly one of the racing writes went
    through, the other refused with something said; else each went through. Then the books
    must add up."""
    for answer in answers:
        if isinstance(answer, str):
            return f"crashed: {answer}"[:200]
        if answer.status_code >= 500:
            return f"crashed: {answer.status_code} {_text(answer)[:80]!r}"
    through = sum(went_through)
    refused = [a for a, done in zip(answers, went_through, strict=True) if not done]
    if any(not isinstance(a, str) and not _text(a).strip() for a in refused):
        return "wrong: refused with nothing said"
    if one and through != 1:
        return f"wrong: {through} of the {len(answers)} racing writes went through"
    problems = _ledger_problems()
    if problems:
        return f"wrong: {problems}"
    if one or through == len(answers):
        return "accepted"
    return "refused"


def deadlock_cases(tag: str, count: int) -> Iterator[Case]:
    """Two devices writing what locks the same rows, at once (a database that takes concurrent
    writers only): a hand and a settlement at one night; a guest seated while merged into
    another; one pair of guests merged both ways. No answer is a 5xx (a 503 is one), each is
    a write or a refusal that says why, and the books add up."""
    night = Night(f"{tag}d")
    guest, url = night.guests[0], reverse("ledger:settlement_record", args=[night.event.pk])

    def hand_and_settlement() -> str:
        hand, settle = _user_client(night.host), _user_client(night.host)
        data = night.hand_data(result="tie", stake_1_tie="10")
        form = {"guest": guest.pk, "direction": "guest_paid", "amount": "10", "method": "cash",
                "confirm": "on", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
        hands, settlements = Hand.objects.count(), guest.settlements.count()
        answers = _race(
            lambda: hand.post(reverse("ledger:hand_record", args=[night.shoe.pk]), data),
            lambda: settle.post(url, form),
        )
        done = [Hand.objects.count() > hands, guest.settlements.count() > settlements]
        return _race_outcome(answers, done, one=False)

    def pair() -> tuple[Guest, Guest]:
        """Two new guests on the night's list, seated nowhere: free to merge."""
        made = uuid.uuid4().hex[:6]

        def add(name: str) -> Guest:
            return guest_services.event_guest_add(
                event=night.event, name=f"{name} {made}", by=night.host
            )

        return add("Xavi"), add("Yuki")

    def merge(client: Client, into: Guest, other: Guest) -> Callable[[], HttpResponseBase]:
        url = reverse("ledger:guest_merge", args=[into.pk])
        return lambda: client.post(url, {"other": other.pk})

    def seat_while_merged(seat: int) -> Callable[[], str]:
        def run() -> str:
            x, y = pair()
            seating = reverse("ledger:seat_change", args=[night.shoe.pk])
            seater, merger = _user_client(night.host), _user_client(night.host)
            answers = _race(
                lambda: seater.post(seating, {"seat": str(seat), "guest": str(x.pk)}, headers=HTMX),
                merge(merger, y, x),
            )
            seated = Seating.objects.filter(shoe=night.shoe, guest=x, to_hand__isnull=True)
            done = [seated.exists(), not Guest.objects.filter(pk=x.pk).exists()]
            return _race_outcome(answers, done, one=True)

        return run

    def merged_both_ways() -> str:
        x, y = pair()
        answers = _race(merge(_user_client(night.host), y, x),
                        merge(_user_client(night.host), x, y))  # fmt: skip
        kept = Guest.objects.filter(pk__in=[x.pk, y.pk]).values_list("pk", flat=True)
        done = [list(kept) == [y.pk], list(kept) == [x.pk]]
        return _race_outcome(answers, done, one=True)

    for n in range(count):
        yield Case("deadlocks", "a hand and a settlement at once", hand_and_settlement)
        yield Case("deadlocks", "X seated while merged into Y", seat_while_merged(n % 7 + 1))
        yield Case("deadlocks", "X into Y and Y into X at once", merged_both_ways)


# --- a backup under load, and restores -------------------------------------------------------

BACKED_UP_APPS = ("games", "ledger", "tournaments")


def fingerprint() -> tuple[object, ...]:
    """What a refused restore leaves as it was, and a good one brings back: every backed-up
    table's count of rows, the logins and who of them is staff, the bets' net and every
    guest's balance."""
    counts = tuple(
        (model._meta.label, model._default_manager.count())
        for label in BACKED_UP_APPS
        for model in apps.get_app_config(label).get_models()
    )
    logins = tuple(User.objects.order_by("username").values_list("username", "is_staff",
                                                                 "is_superuser"))  # fmt: skip
    net = Bet.objects.aggregate(net=money_sum("net"))["net"]
    return counts, logins, Group.objects.count(), net, tuple(sorted(guest_balances().items()))


def empty_database() -> None:
    """Every table emptied, as ``restore`` wants its database (``flush``; inside a test's
    transaction on PostgreSQL, once the deferred foreign keys are checked: TRUNCATE refuses
    to run with their checks pending)."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        connection.check_constraints()
    call_command("flush", interactive=False, verbosity=0)


def _restored(path: Path, *options: str) -> str:
    """Restore ``path``: "restored"; "refused: " and the refusal (a ``CommandError``); or
    "crashed: " and any other exception that escaped the command (a traceback)."""
    try:
        call_command("restore", str(path), *options, stdout=io.StringIO())
    except CommandError as error:
        return f"refused: {error}"
    except Exception as error:
        return f"crashed: {type(error).__name__} escaped restore: {error}"[:200]
    return "restored"


def backup_cases(tag: str, count: int) -> Iterator[Case]:
    """A backup taken while another device saves hands (a database that takes concurrent
    writers only): it restores, the books add up, and it holds every hand whose bets it holds.
    Restoring replaces the whole database: this group runs after the others but ``restore``."""
    folder = tempfile.TemporaryDirectory(prefix="shoebook-adversary-")

    def under_load(n: int) -> str:
        night = Night(f"{tag}b{n}")
        path = Path(folder.name) / f"busy-{n}.json.gz"
        saver, url = _user_client(night.host), reverse("ledger:hand_record", args=[night.shoe.pk])

        def save_hands() -> HttpResponseBase:
            answer: HttpResponseBase = HttpResponse()
            for k in range(12):
                data = night.hand_data(result="tie", **{f"stake_{k % 7 + 1}_tie": "10"})
                answer = saver.post(url, data)
                if answer.status_code >= 400:
                    break
            return answer

        def back_up() -> HttpResponseBase:
            call_command("backup", "--output", str(path), stdout=io.StringIO())
            return HttpResponse("backed up")

        for answer in _race(save_hands, back_up):
            if isinstance(answer, str) or answer.status_code >= 500:
                return f"crashed: {answer if isinstance(answer, str) else answer.status_code}"
            if answer.status_code >= 400:
                return f"wrong: a hand saved during the backup was refused ({answer.status_code})"
        held = Counter(row["model"] for row in json.loads(gzip.decompress(path.read_bytes())))
        empty_database()
        outcome = _restored(path, "--with-users")
        if outcome != "restored":
            return f"wrong: the backup was not restored: {outcome}"
        if (Hand.objects.count(), Bet.objects.count()) != (held["games.hand"], held["ledger.bet"]):
            return (
                f"wrong: restored {Hand.objects.count()} hands, the file held {held['games.hand']}"
            )
        return _ledger_problems() or "accepted"

    for n in range(count):
        yield Case("backups", "a backup while hands are saved, restored", partial(under_load, n))


class Restores:
    """The restore group's ground, made when its first case runs (after every other group):
    a night of its own with hands and a settlement, the whole database backed up (``clean``),
    its fingerprint, then every table emptied, as a restore wants it."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.folder = tempfile.TemporaryDirectory(prefix="shoebook-adversary-")
        self.ready = False

    def prepare(self) -> None:
        if self.ready:
            return
        night = Night(f"{self.tag}r")
        for stake in ("10", "25", "100"):
            night.save(player_cards="9 7", banker_cards="J J 10", stake_1_banker=stake,
                       stake_2_player=stake)  # fmt: skip
        money_services.settlement_record(
            guest=night.guests[0], event=night.event, amount=Decimal("12.50"), method="cash",
            by=night.host,
        )  # fmt: skip
        self.bets = set(Bet.objects.filter(event=night.event).values_list("pk", flat=True))
        self.clean = Path(self.folder.name) / "clean.json"
        call_command("backup", "--output", str(self.clean), stdout=io.StringIO())
        self.before = fingerprint()
        empty_database()
        self.empty = fingerprint()
        self.ready = True

    def rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = json.loads(self.clean.read_text())
        return rows

    def bet(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        """The night's first bet in the rows (a banker bet that won)."""
        return next(row for row in rows if row["model"] == "ledger.bet" and row["pk"] in self.bets)


def _raise_a_bet(rows: list[dict[str, Any]], ground: Restores) -> None:
    bet = ground.bet(rows)["fields"]  # gross and net both: each bet alone still adds up
    for column in ("gross", "net"):
        bet[column] = str(Decimal(bet[column]) + 1000)


def _net_off(rows: list[dict[str, Any]], ground: Restores) -> None:
    bet = ground.bet(rows)["fields"]
    bet["net"] = str(Decimal(bet["net"]) + 1)


def _three_decimals(rows: list[dict[str, Any]], ground: Restores) -> None:
    ground.bet(rows)["fields"]["stake"] = "10.005"


def _another_guest(rows: list[dict[str, Any]], ground: Restores) -> None:
    guests = [row["pk"] for row in rows if row["model"] == "ledger.guest"]
    bet = ground.bet(rows)["fields"]
    bet["guest"] = next(pk for pk in guests if pk != bet["guest"])


def _no_bets(rows: list[dict[str, Any]], ground: Restores) -> None:
    rows[:] = [row for row in rows if row["model"] != "ledger.bet"]


def _administrator(rows: list[dict[str, Any]], ground: Restores) -> None:
    rows.insert(0, {"model": "auth.user", "fields": {
        "username": f"mallory-{ground.tag}", "password": "!", "is_superuser": True,
        "is_staff": True, "is_active": True, "date_joined": "2026-11-20T00:00:00Z",
        "groups": [], "user_permissions": [], "first_name": "", "last_name": "",
        "email": ""}})  # fmt: skip


def _invisible_name(rows: list[dict[str, Any]], ground: Restores) -> None:
    guest = next(row for row in rows if row["model"] == "ledger.guest")["fields"]
    guest["name"] += "\u200b"
    guest["name_key"] += "\u200b"


def restore_cases(tag: str) -> Iterator[Case]:
    """Backups edited by hand, then restored (``manage.py restore``): each is refused in one
    line (a ``CommandError``, never another exception) and the database is left as it was;
    the backup as written restores, every count and balance as before, and the books add up.
    Restoring replaces the whole database: this group runs last."""
    ground = Restores(tag)

    def tampered(
        change: Callable[[list[dict[str, Any]], Restores], None] | None,
        content: Callable[[Restores], bytes] | None = None,
        *,
        suffix: str = ".json",
        options: tuple[str, ...] = ("--with-users",),
    ) -> Callable[[], str]:
        def run() -> str:
            ground.prepare()
            path = Path(ground.folder.name) / f"{uuid.uuid4().hex}{suffix}"
            if content is not None:
                path.write_bytes(content(ground))
            else:
                rows = ground.rows()
                change(rows, ground)  # type: ignore[misc]  # one of the two is given
                path.write_text(json.dumps(rows))
            outcome = _restored(path, *options)
            if outcome == "restored":
                empty_database()  # to go on with the next case
                return "wrong: restored"
            if fingerprint() != ground.empty:
                return f"wrong: the database changed ({outcome[:80]})"
            if "\n" in outcome:
                return f"wrong: the refusal is not one line: {outcome[:100]!r}"
            return outcome.split(":")[0] if outcome.startswith("refused") else outcome

        return run

    def clean() -> str:
        ground.prepare()
        outcome = _restored(ground.clean, "--with-users")
        if outcome != "restored":
            return f"wrong: the backup as written was not restored: {outcome[:150]}"
        if fingerprint() != ground.before:
            return "wrong: the restored database differs from the one backed up"
        return _ledger_problems() or "accepted"

    def again() -> str:
        before = fingerprint()
        outcome = _restored(ground.clean, "--with-users")
        if not outcome.startswith("refused") or fingerprint() != before:
            return f"wrong: over a database that was not empty, {outcome[:100]}"
        return "refused"

    def half(data: bytes) -> bytes:
        return data[: len(data) // 2]

    def text(data: str | bytes, suffix: str = ".json") -> Callable[[], str]:
        data = data.encode() if isinstance(data, str) else data
        return tampered(None, lambda ground: data, suffix=suffix)

    for label, case in [
        ("a bet's gross and net both raised by 1,000", tampered(_raise_a_bet)),
        ("a bet's net not its gross less commission", tampered(_net_off)),
        ("a stake of 10.005", tampered(_three_decimals)),
        ("a bet moved to another guest", tampered(_another_guest)),
        ("every bet taken out", tampered(_no_bets)),
        ("a guest's name with a zero-width space", tampered(_invisible_name)),
        ("an administrator added, no --with-users", tampered(_administrator, options=())),
        ("truncated", tampered(None, lambda ground: half(ground.clean.read_bytes()))),
        ("gzip, truncated", tampered(None, lambda ground: half(gzip.compress(
            ground.clean.read_bytes())), suffix=".json.gz")),
        ("not JSON", text("this is not json")),
        ("JSON null", text("null")),
        ("JSON, not a backup", text('{"model": "auth.user"}')),
        ("not UTF-8", text('[{"model": "Zoë"}]'.encode("latin-1"))),
        ("a zip named .json.gz", text(zipfile_bytes(), ".json.gz")),
        ("an id past 64 bits", text(json.dumps([{"model": "ledger.guest", "pk": 10**22,
                                                  "fields": {"name": "A", "name_key": "a"}}]))),
        ("XML that is not XML", text("not xml", ".xml")),
        ("XML with an entity bomb", text(XML_BOMB, ".xml")),
        ("YAML", text("- model: auth.user", ".yaml")),
        ("the backup as written", clean),
        ("the backup again, over it", again),
    ]:  # fmt: skip
        yield Case("restore", label, case)


XML_BOMB = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]>'
    '<django-objects version="1.0">&lol2;</django-objects>'
)


# --- the run -------------------------------------------------------------------------------


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
             *rebuy_cases(tag, night.host)]  # fmt: skip
    if threads:
        cases += [*deadlock_cases(tag, max(2, size // 20)), *backup_cases(tag, max(1, size // 50))]
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
