"""Hundreds of bad and odd inputs through the real forms and pages, each with what must happen.
Guest names with control or invisible characters, too long or blank are refused; odd but printable
ones (formulas, markup, other scripts and widths) are taken, and a name already there in another
case or width finds that guest instead of making one. Stakes and settlement amounts the form cannot
read as a sum of money, or outside the table's limits, are refused; those it can are recorded at the
amount typed, on the guest it was typed for. Scoresheets that are garbage, truncated, in a wrong
encoding or with a bad row are refused, good ones imported, and every event's workbook opens.
Addresses with ids no row has, or that are no number, are answered without a 5xx; nothing here may
be one.
"""

from __future__ import annotations

import io
import random
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal

from django.urls import reverse
from openpyxl import Workbook, load_workbook

from ledger.models import Bet, Guest
from tests.adversary.ground import Case, Night, expect, status, zipfile_bytes

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
            outcome = status(code, accepted=code == 302)
            if outcome == "accepted" and same_as is not None and added:
                return f"wrong: {name!r} made a new guest instead of finding {same_as!r}"
            return expect(outcome, should)

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
              "1_000", "0x10", "⑩", "5", "2000", "abc", "１２３４５", "1e3", "sNaN", "𝟗𝟎", "٣٠",
              "¹²", "₃₀", "-Infinity"]  # fmt: skip
GOOD_STAKES = {"10": Decimal(10), "1,000": Decimal(1000), "１００": Decimal(100),
               " 25 ": Decimal(25), "12.50": Decimal("12.50"), "+20": Decimal(20)}  # fmt: skip


def amount_cases(night: Night, rng: random.Random, count: int) -> Iterator[Case]:
    def stake(text: str, expected: Decimal | None) -> Callable[[], str]:
        def run() -> str:
            before = Bet.objects.count()
            code = night.save(result="tie", stake_1_tie=text)
            outcome = status(code, accepted=Bet.objects.count() > before)
            if outcome == "accepted" and expected is not None:
                bet = Bet.objects.latest("pk")
                if (bet.stake, bet.guest) != (expected, night.guests[0]):
                    return f"wrong: {text!r} recorded as {bet.stake} for {bet.guest}"
            return expect(outcome, "accepted" if expected is not None else "refused")

        return run

    def settle(text: str, should: str) -> Callable[[], str]:
        url = reverse("ledger:settlement_record", args=[night.event.pk])

        def run() -> str:
            before = night.guests[1].settlements.count()
            form = {"guest": night.guests[1].pk, "direction": "guest_paid", "amount": text,
                    "method": "cash", "idempotency_key": str(uuid.uuid4())}  # fmt: skip
            code = night.client.post(url, form).status_code
            return expect(
                status(code, accepted=night.guests[1].settlements.count() > before), should
            )

        return run

    def odd_seat(fields: dict[str, str]) -> Callable[[], str]:
        """A seat's box or a seat choice named in digits isdigit() takes and int() refuses."""

        def run() -> str:
            before = Bet.objects.count()
            url = reverse("ledger:hand_record", args=[night.shoe.pk])
            data = night.hand_data(result="tie", stake_2_tie="10") | fields
            code = night.client.post(url, data).status_code
            if code >= 500:
                return "crashed"
            added = Bet.objects.count() - before
            if added and Bet.objects.latest("pk").guest != night.guests[1]:
                return "wrong: the bet went to another seat"
            return "accepted" if added else "refused"

        return run

    for label, fields in (
        ("a stake box of seat ①", {"stake_①_tie": "10"}),
        ("a seat choice for seat ²", {"seat_choice_²": "move:1"}),
        ("a seat choice moving to guest ⑤", {"seat_choice_2": "move:⑤"}),
    ):
        yield Case("amounts", label, odd_seat(fields))  # fmt: skip

    goods = list(GOOD_STAKES.items())
    for n in range(count):
        if n % 3 == 0:
            text, value = goods[n // 3 % len(goods)]
            yield Case("amounts", f"stake {text!r}", stake(text, value))
        elif n % 3 == 1:
            text = BAD_STAKES[n // 3 % len(BAD_STAKES)]
            yield Case("amounts", f"stake {text[:20]!r}", stake(text, None))
        else:
            text = rng.choice(["1e30", "10.005", "-5", "0", "abc", "9" * 40, "1000000000000",
                               "sNaN", "NaN", "𝟓𝟎", "٥٠", "⑩"])  # fmt: skip
            yield Case("amounts", f"settlement {text[:20]!r}", settle(text, "refused"))


# --- files ---------------------------------------------------------------------------------

HEADER = "shoe,hand,player_cards,banker_cards,result,player_pair,banker_pair,seat,guest,bet,stake"


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
    fields = {"event_name": "Upload", "date": "2026-11-21", "money_per_chip": "100",
              "table_min": "10", "table_max": "1000", "decks": "8", "no_commission": "none",
              "tie_pays": "8", "pair_pays": "11"}  # fmt: skip
    good_row = "1,1,9 7,J J 10,,,,1,{name},player,10"
    sheets: list[tuple[str, str, bytes, str]] = [
        ("garbage", "x.csv", bytes(rng.randrange(256) for _ in range(2000)), "refused"),
        ("empty", "x.csv", b"", "refused"),
        ("header only", "x.csv", HEADER.encode(), "refused"),
        # German and French Excel save CSV in Windows-1252: read as such, never half-decoded.
        ("Windows-1252", "x.csv", (HEADER + "\n" + good_row.format(name="Zoë")).encode("cp1252"),
         "accepted"),
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

    def upload(name: str, content: bytes, should: str, n: int) -> Callable[[], str]:
        def run() -> str:
            upload = io.BytesIO(content)
            upload.name = name
            # Each upload a night of its own: a night sent again is refused by its name.
            own = {"event_name": f"Upload {n}", "file": upload}
            response = night.client.post(url, fields | own)
            return expect(
                status(response.status_code, accepted=response.status_code == 302), should
            )

        return run

    for n in range(count):
        label, name, content, should = sheets[n % len(sheets)]
        yield Case("files", label, upload(name, content, should, n))
    yield Case("files", "every event's workbook opens", lambda: _workbook_opens(night))


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
