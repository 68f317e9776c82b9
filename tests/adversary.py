"""An adversary at the door: hundreds of bad and odd inputs — names, amounts, files, URLs,
races — sent through the real views, import and export, each with what must happen.

``attack(size)`` runs them against the current database and returns a tally per kind of input:
tried, refused with a reason, accepted, crashed, wrong (accepted what must be refused, refused
what must be accepted, or money on the wrong guest). ``bench/adversarial.py`` prints the table;
``tests/test_adversarial.py`` runs a smaller set and requires no crash and nothing wrong.
"""

from __future__ import annotations

import io
import random
import threading
import uuid
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from openpyxl import Workbook, load_workbook

from games import services as game_services
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.forms import seating_token
from ledger.hands.selectors import seating_of
from ledger.models import Bet, Guest
from shoebook.base.roles import HOSTS

OUTCOMES = ("tried", "refused", "accepted", "crashed", "wrong")
HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


@dataclass
class Case:
    kind: str  # names, amounts, files, urls, races
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
        number = hand_services.next_hand_number(self.shoe)
        return {
            "number": str(number),
            "idempotency_key": str(uuid.uuid4()),
            "seating": seating_token(seating_of(self.shoe, number)),
        } | fields

    def save(self, **fields: str) -> int:
        url = reverse("ledger:hand_record", args=[self.shoe.pk])
        return self.client.post(url, self.hand_data(**fields)).status_code


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


# --- the run -------------------------------------------------------------------------------


def attack(size: int = 100, seed: int = 11, *, threads: bool = True) -> dict[str, Counter[str]]:
    """Run every case (``size`` of each kind but races) and tally the outcomes per kind."""
    rng = random.Random(seed)
    night = Night(uuid.uuid4().hex[:8])
    cases = [*name_cases(night, rng, size), *amount_cases(night, rng, size),
             *file_cases(night, rng, size // 2), *url_cases(night, rng, size // 2),
             *race_cases(night, max(4, size // 10), threads=threads)]  # fmt: skip
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
