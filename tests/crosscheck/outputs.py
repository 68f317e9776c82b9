"""Every output of the ledger read back as figures, for the cross-output test.

Each extractor reads one output as a person (or their spreadsheet) would — a page parsed with
lxml, a workbook read with openpyxl, a receipt's PDF read with pypdf — and answers the figures
it shows, each keyed by ``(night, what, whom)``: ``("Reference night", "net", "Kenji")``,
``("Reference night", "house_net", "night")``, ``("season", "net", "Kenji")``. The words of a
column (its header) say *what*; its row says *whom*: a guest's name, ``"night"`` for a night's
total, ``"shoe 3"``, ``"Kenji · shoe 3"``, ``"tray"``, ``"A → B"`` for a transfer. A figure an
output shows only as a sum of its rows (the Guests sheet's gross of the night) is answered by
that output under ``"… (summed)"`` so that the report says where it came from.
"""

from __future__ import annotations

import io
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import lxml.html  # type: ignore[import-untyped]
import pypdf
from openpyxl import load_workbook

Key = tuple[str, str, str]  # (night, what, whom)
SEASON = "season"
NIGHT = "night"

# A column's words -> what its figures are. One vocabulary for pages, sheets and PDFs.
WHAT: dict[str, str] = {
    "hands": "hands",
    "wagered": "wagered",
    "handle": "wagered",
    "guests' gross": "gross",
    "gross": "gross",
    "commission": "commission",
    "taxe": "commission",
    "commission or taxe": "commission",
    "house's cut": "commission",
    "guests' net": "net",
    "net": "net",
    "tonight": "net",
    "house net": "house_net",
    "house net (¥)": "house_net_money",
    "net (¥)": "net_money",
    "gross (¥)": "gross_money",
    "commission (¥)": "commission_money",
    "taxe (¥)": "commission_money",
    "balance": "balance_after",
    "balance after": "balance_after",
    "balance carried": "balance_after",
    "¥": "balance_after_money",
    "balance after (¥)": "balance_after_money",
    "carried in": "balance_before",
    "balance before": "balance_before",
    "settled": "settled",
    "settlements": "settled",
    "drop": "drop",
    "chips taken": "chips_taken",
    "result": "count_result",
    "adjustments": "adjustments",
    "expected": "expected",
    "counted": "counted",
    "difference": "difference",
    "amount": "amount",
    "amount (¥)": "amount_money",
    # A rating (ledger.ratings): the guest's page, the House page, the Ratings sheet.
    "hours": "hours",
    "average bet": "average_bet",
    "handle not priced": "unpriced",
    "theoretical win": "theo",
    "theoretical win (¥)": "theo_money",
    "actual": "house_actual",
    "actual (¥)": "house_actual_money",
    "sd": "sd",
    "z": "z",
    "theoretical hold": "theo_hold",
    "actual hold": "actual_hold",
}
RATINGS_TOTAL = "All these nights"
HOUSE = "The house"
# A money column is headed with its night's currency sign (Net (€)), or "(money)" where the
# nights' currencies differ; a lone sign heads the settlement list's balance in money.
_MONEY_HEADER = re.compile(r"\((?!%\))[^()]{1,5}\)$")
_SIGNS = frozenset("¥€₩₫£")


def what_of(header: object) -> str | None:
    """What a column's figures are, by its words; a money column whatever its currency."""
    said = words(str(header))
    if said in _SIGNS:
        return WHAT["¥"]
    return WHAT.get(_MONEY_HEADER.sub("(¥)", said))


MINUS = "−"  # U+2212, as the pages write a negative amount
NUMBER = re.compile(r"[0-9][0-9,]*(?:\.[0-9]+)?")


def amount(text: str) -> Decimal | None:
    """An amount as a page writes it ("−$1,040", "¥−65,400", "+92.50", "$0") or None."""
    found = NUMBER.search(text)
    if found is None:
        return None
    head = text[: found.start()]
    value = Decimal(found.group().replace(",", ""))
    return -value if (MINUS in head or "-" in head) else value


def words(text: str) -> str:
    return " ".join(text.split()).strip().casefold()


@dataclass
class Seen:
    """The figures each output showed: ``by_output[output][key] = value``."""

    by_output: dict[str, dict[Key, Decimal]] = field(default_factory=lambda: defaultdict(dict))

    def add(self, output: str, key: Key, value: Decimal | float | int | None) -> None:
        if value is None:
            return
        value = Decimal(str(value))
        shown = self.by_output[output]
        if key in shown and shown[key] != value:
            # One output showing two values for one figure disagrees with itself.
            self.by_output[f"{output} (again)"][key] = value
            return
        shown[key] = value

    def figures(self) -> dict[Key, dict[str, Decimal]]:
        """Each figure and what every output that shows it says."""
        by_key: dict[Key, dict[str, Decimal]] = defaultdict(dict)
        for output, shown in self.by_output.items():
            for key, value in shown.items():
                by_key[key][output] = value
        return by_key

    def mismatches(self) -> list[str]:
        lines = []
        for key, values in sorted(self.figures().items()):
            if len(set(values.values())) > 1:
                said = "; ".join(f"{output}: {value}" for output, value in sorted(values.items()))
                lines.append(f"{key[0]} · {key[1]} · {key[2]}: {said}")
        return lines

    def keep_only(self, nights: set[str]) -> None:
        """Forget the figures of other nights (a guest's statement holds all of theirs)."""
        for shown in self.by_output.values():
            for key in [key for key in shown if key[0] not in nights and key[0] != SEASON]:
                del shown[key]

    def drop_season(self) -> None:
        """Forget the season's figures: the nights held are not the whole season."""
        for shown in self.by_output.values():
            for key in [key for key in shown if key[0] == SEASON]:
                del shown[key]

    def compared(self) -> tuple[int, int]:
        """(figures shown by two outputs or more, pairs of outputs compared on them)."""
        shared = [len(values) for values in self.figures().values() if len(values) > 1]
        return len(shared), sum(n * (n - 1) // 2 for n in shared)

    def compared_by_night(self) -> dict[str, tuple[int, int]]:
        """:meth:`compared`, night by night (and the season's own figures)."""
        by_night: dict[str, list[int]] = defaultdict(list)
        for key, values in self.figures().items():
            if len(values) > 1:
                by_night[key[0]].append(len(values))
        return {
            night: (len(shared), sum(n * (n - 1) // 2 for n in shared))
            for night, shared in by_night.items()
        }


# --- pages -------------------------------------------------------------------------------


def page(content: bytes | str) -> Any:
    return lxml.html.fromstring(content)


def cell_text(cell: Any) -> str:
    return " ".join(cell.text_content().split())


def table_rows(table: Any) -> Iterator[tuple[list[str], list[str]]]:
    """(headers, cells) of each body row of a table, headers from its first row of <th>."""
    headers: list[str] = []
    for row in table.iter("tr"):
        cells = [cell for cell in row if cell.tag in ("td", "th")]
        if not headers:
            headers = [cell_text(cell) for cell in cells]
            continue
        yield headers, [cell_text(cell) for cell in cells]


def read_table(
    seen: Seen,
    output: str,
    night: str,
    table: Any,
    whom_of: Callable[[str], str | None],
    *,
    renames: dict[str, str] | None = None,
) -> list[str]:
    """Each figure of the table: its row's first cell gives whom (``whom_of``), its column's
    header what. Answers whom its rows were about."""
    rows: list[str] = []
    for headers, cells in table_rows(table):
        if len(cells) != len(headers):
            continue  # "No bets at this event." and the like
        whom = whom_of(cells[0])
        if whom is None:
            continue
        rows.append(whom)
        for header, text in zip(headers[1:], cells[1:], strict=True):
            what = (renames or {}).get(words(header)) or what_of(header)
            if what is not None:
                seen.add(output, (night, what, whom), amount(text))
    return rows


def shoe_or_total(label: str) -> str | None:
    if label.isdigit():
        return f"shoe {label}"
    return NIGHT if words(label) == "total" else None


def table_after(doc: Any, heading: str) -> Any:
    """The first table after the heading with these words."""
    for element in doc.iter("h2", "h3"):
        if words(cell_text(element)).startswith(words(heading)):
            following = element.getnext()
            while following is not None:
                found = following if following.tag == "table" else following.find(".//table")
                if found is not None:
                    return found
                if following.tag in ("h2", "h3"):
                    return None
                following = following.getnext()
    return None


def event_page(seen: Seen, night: str, content: bytes) -> None:
    doc = page(content)
    output = "event page"
    shoes = table_after(doc, "Results per shoe")
    if shoes is not None:
        read_table(seen, output, night, shoes, shoe_or_total)
    settlement = table_after(doc, "Settlement (as it stands)")
    if settlement is not None:
        listed = read_table(seen, output, night, settlement, lambda name: name)
        count_guests(seen, output, night, listed, on_the_list=True)
    bankers = table_after(doc, "Each banker")
    if bankers is not None:
        read_table(seen, f"{output} · each banker", night, bankers, lambda name: name)
    for heading in doc.iter("h2"):
        found = re.fullmatch(r"Guests \((\d+)\)", cell_text(heading))
        if found:
            seen.add(output, (night, "guests on the list", NIGHT), int(found.group(1)))
    for line in doc.find_class("clearing-line"):
        names = [cell_text(strong) for strong in line.iter("strong")]
        seen.add(output, (night, "proposed", " → ".join(names)), amount(line.text_content()))


def count_guests(
    seen: Seen, output: str, night: str, listed: list[str], *, on_the_list: bool = False
) -> None:
    """How many guests a list names (``on_the_list``: every guest of the night; otherwise the
    guests with a result), and how many of them have a result other than zero."""
    counted = f"{output} (counted)"
    seen.add(counted, (night, "guests on the list" if on_the_list else "guests listed", NIGHT),
             len(listed))  # fmt: skip
    shown = seen.by_output[output]
    with_result = sum(1 for whom in listed if shown.get((night, "net", whom), 0) != 0)
    seen.add(counted, (night, "guests with a result", NIGHT), with_result)


def results_page(seen: Seen, night: str, content: bytes) -> None:
    doc = page(content)
    output = "results page"
    guests = table_after(doc, "Results per guest")
    if guests is None:  # the heading is the page's h1
        tables = doc.findall(".//table")
        guests = tables[0] if tables else None
    if guests is not None:
        listed = read_table(seen, output, night, guests, lambda name: name)
        count_guests(seen, output, night, listed)
    grid = table_after(doc, "Guests × shoes")
    if grid is not None:
        for headers, cells in table_rows(grid):
            for header, text in zip(headers[1:], cells[1:], strict=False):
                if header.startswith("Shoe "):
                    shoe = header.removeprefix("Shoe ")
                    seen.add(output, (night, "net", f"{cells[0]} · shoe {shoe}"), amount(text))


def shared_page(seen: Seen, night: str, content: bytes) -> None:
    """The shared results: the page (names shown), its og:description."""
    doc = page(content)
    output = "shared results"
    shoes = table_after(doc, "Results per shoe")
    if shoes is not None:
        read_table(seen, output, night, shoes, shoe_or_total)
    guests = table_after(doc, "Guests")
    listed = read_table(seen, output, night, guests, lambda n: n) if guests is not None else []
    count_guests(seen, output, night, listed)
    for meta in doc.iter("meta"):
        if meta.get("property") == "og:description":
            og_description(seen, night, meta.get("content") or "")


def og_description(seen: Seen, night: str, text: str) -> None:
    """ "The house: −$654 (¥−65,400) · 15 guests"."""
    output = "shared results og:description"
    found = re.fullmatch(r".*?: (.+?) \((.+?)\) · (\d+) .*", text)
    assert found, f"og:description {text!r}"
    seen.add(output, (night, "house_net", NIGHT), amount(found.group(1)))
    seen.add(output, (night, "house_net_money", NIGHT), amount(found.group(2)))
    seen.add(output, (night, "guests listed", NIGHT), int(found.group(3)))


def preview_source(seen: Seen, night: str, texts: Iterable[str]) -> None:
    """The preview picture's words as they are drawn (its PNG is pixels)."""
    output = "shared results preview"
    _name, house, line = texts
    seen.add(output, (night, "house_net", NIGHT), amount(house))
    seen.add(output, (night, "house_net_money", NIGHT), amount(line.rsplit(":", 1)[-1]))


def house_page(seen: Seen, nights: set[str], content: bytes) -> None:
    """The House page: a row per night (its Event cell starts with the night's name, its
    tournament's cut and prize pool after it) and the season's line."""
    doc = page(content)
    output = "House page"
    table = doc.find(".//table")
    for headers, cells in table_rows(table):
        if len(cells) != len(headers):
            continue
        label = cells[headers.index("Event")]
        night = next((n for n in sorted(nights, key=len, reverse=True) if label.startswith(n)), "")
        if not night:
            continue  # a night of the season outside those held
        for header, text in zip(headers, cells, strict=True):
            what = what_of(header)
            if what is not None:
                seen.add(output, (night, what, NIGHT), amount(text))
        cut = re.search(r"house's cut ([0-9,.]+)", label)
        if cut:
            seen.add(output, (night, "tournament_cut", NIGHT), amount(cut.group(1)))
        pool = re.search(r"prize pool ([0-9,.]+)", label)
        if pool:
            seen.add(output, (night, "prize_pool", NIGHT), amount(pool.group(1)))
    line = cell_text(doc.find_class("summary-line")[0])
    found = re.search(r"House net (\S+) \((\S+)\) · commission (\S+) · drop (\S+)", line)
    assert found, line
    for what, text in zip(
        ("house_net", "house_net_money", "commission", "drop"), found.groups(), strict=True
    ):
        seen.add(output, (SEASON, what, NIGHT), amount(text))
    hands = re.search(r"([0-9,]+) hands?\b", line)
    if hands:
        seen.add(output, (SEASON, "hands", NIGHT), amount(hands.group(1)))
    holds = doc.get_element_by_id("house-holds", None)
    if holds is not None:  # the house's rating per night
        for headers, cells in table_rows(holds):
            if len(cells) == len(headers) and cells[headers.index("Event")] in nights:
                night = cells[headers.index("Event")]
                for header, text in zip(headers, cells, strict=True):
                    what = what_of(header)
                    if what is not None:
                        seen.add(output, (night, what, NIGHT), amount(text))
    rated = doc.get_element_by_id("house-ratings", None)
    if rated is not None:  # each guest's rating over the nights shown
        for headers, cells in table_rows(rated):
            if len(cells) == len(headers):
                whom = cells[headers.index("Guest")]
                for header, text in zip(headers, cells, strict=True):
                    what = what_of(header)
                    if what is not None and not what.endswith("_money"):
                        seen.add(output, (SEASON, what, whom), amount(text))


def standings_page(seen: Seen, content: bytes) -> None:
    doc = page(content)
    for table in doc.iter("table"):
        for headers, cells in table_rows(table):
            if len(cells) != len(headers) or "Guest" not in headers:
                continue
            whom = cells[headers.index("Guest")]
            for header, text in zip(headers, cells, strict=True):
                what = what_of(header)
                if what is not None:
                    seen.add("standings", (SEASON, what, whom), amount(text))


def guest_page(seen: Seen, output: str, name: str, nights: set[str], content: bytes) -> None:
    """A guest's page (the host's or the private link's): the balance; per night its result,
    what was settled and the balance after, the chips, and the night's shoes."""
    doc = page(content)
    balance = next((cell_text(p) for p in doc.iter("p") if cell_text(p).startswith("Balance ")), "")
    found = re.fullmatch(r"Balance (\S+) · (\S+) .*", balance)
    if found:
        seen.add(output, (SEASON, "balance_after", name), amount(found.group(1)))
    for details in doc.find_class("event-history"):
        summary = cell_text(details.find("summary"))
        head = re.fullmatch(r"\d{4}-\d\d-\d\d · (.+): (\S+)(?: · settled (\S+))? → balance (\S+)",
                            summary)  # fmt: skip
        assert head, summary
        night = head.group(1)
        if night not in nights:
            continue
        seen.add(output, (night, "net", name), amount(head.group(2)))
        if head.group(3):
            seen.add(output, (night, "settled", name), amount(head.group(3)))
        seen.add(output, (night, "balance_after", name), amount(head.group(4)))
        chips_line(seen, output, night, name, cell_text(details))
        table = details.find(".//table")
        if table is not None:
            read_table(seen, output, night, table, lambda shoe: shoe_of(name, shoe))
    for row in doc.find_class("rating-night"):  # the guest's rating at each latest night
        table = row.getparent().getparent()
        headers = [cell_text(cell) for cell in table.find(".//thead").iter("th")]
        cells = [cell_text(cell) for cell in row if cell.tag in ("td", "th")]
        night = cells[0][len("2026-01-01 ") :]
        if night not in nights:
            continue
        for header, text in zip(headers, cells, strict=True):
            what = what_of(header)
            if what is not None:
                seen.add(output, (night, what, name), amount(text))


def shoe_of(name: str, shoe: str) -> str | None:
    return f"{name} · shoe {shoe}" if shoe.isdigit() else None


def chips_line(seen: Seen, output: str, night: str, name: str, text: str) -> None:
    found = re.search(r"Chips taken (\S+) · handed back (\S+)", text)
    if found:
        seen.add(output, (night, "chips_taken", name), amount(found.group(1)))
        seen.add(output, (night, "counted", name), amount(found.group(2)))


def receipt_page(seen: Seen, night: str, name: str, content: bytes) -> None:
    doc = page(content)
    output = "receipt"
    per_shoe = table_after(doc, "Per shoe")
    if per_shoe is not None:
        # The per-shoe table is the hands' alone; its foot, all shoes, is the guest's hands.
        read_table(
            seen,
            output,
            night,
            per_shoe,
            lambda shoe: f"{name} · shoe {shoe}" if shoe.isdigit() else f"{name} · hands",
        )
    statement = table_after(doc, "Statement")
    if statement is not None:
        statement_lines(seen, output, night, name, table_rows(statement))
    chips_line(seen, output, night, name, cell_text(doc))


def statement_lines(
    seen: Seen,
    output: str,
    night: str,
    name: str,
    rows: Iterable[tuple[list[str], list[str]]],
) -> None:
    """A receipt's statement: carried in, its lines, the balance carried (in chips and yen)."""
    for _headers, cells in rows:
        label = words(cells[0])
        what = {"carried in": "balance_before", "balance carried": "balance_after"}.get(label)
        if what is None:
            continue
        seen.add(output, (night, what, name), amount(cells[1]))
        seen.add(output, (night, f"{what}_yen", name), amount(cells[2]))


def receipt_pdf(seen: Seen, night: str, name: str, content: bytes) -> None:
    """The receipt's PDF read back: its text, one cell a line, in the page's order."""
    reader = pypdf.PdfReader(io.BytesIO(content))
    lines = [
        line.strip() for pdf_page in reader.pages for line in pdf_page.extract_text().splitlines()
    ]
    output = "receipt PDF"
    if "Per shoe" in lines:
        start = lines.index("Per shoe") + 1
        headers = lines[start : start + 7]
        cells = lines[start + 7 :]
        while cells and (cells[0].isdigit() or cells[0] == "All shoes"):
            row, cells = cells[:7], cells[7:]
            whom = f"{name} · shoe {row[0]}" if row[0].isdigit() else f"{name} · hands"
            for header, text in zip(headers[1:], row[1:], strict=True):
                what = what_of(header)
                if what is not None:
                    seen.add(output, (night, what, whom), amount(text))
    if "Statement" in lines:
        start = lines.index("Statement") + 4  # "Entry", the chips' and the yen's columns
        rows: list[tuple[list[str], list[str]]] = [
            ([], lines[i : i + 3]) for i in range(start, len(lines) - 2, 3)
        ]
        statement_lines(seen, output, night, name, rows)
    chips_line(seen, output, night, name, " ".join(lines))


def tournament_page(seen: Seen, night: str, content: bytes) -> None:
    """A tournament's page: the pool and the house's cut; per player what they paid in and
    the prize, so their result (prize less paid in) and the house's (paid in less prizes)."""
    doc = page(content)
    output = "tournament page"
    pool = doc.find_class("tournament-pool")
    if pool:
        found = re.search(r"Pool (\S+) · the house's cut (\S+)", cell_text(pool[0]))
        assert found, cell_text(pool[0])
        seen.add(output, (night, "prize_pool", NIGHT), amount(found.group(1)))
        seen.add(output, (night, "tournament_cut", NIGHT), amount(found.group(2)))
    house = Decimal(0)
    for table in doc.find_class("standings-table"):
        for headers, cells in table_rows(table):
            if len(cells) != len(headers):
                continue
            player = re.sub(r" out after round \d+$", "", cells[headers.index("Player")])
            paid = amount(cells[headers.index("Buy-ins")]) or Decimal(0)
            prize = amount(cells[headers.index("Prize")]) or Decimal(0)
            seen.add(f"{output} (prize less paid in)", (night, "net", player), prize - paid)
            house += paid - prize
        seen.add(f"{output} (summed)", (night, "house_net", NIGHT), house)


def count_page(seen: Seen, night: str, content: bytes) -> None:
    """The count: per guest (and the table's row) what was taken, expected, counted and the
    difference; the tray's figures; a count-only night's commission."""
    doc = page(content)
    output = "count page"
    for table in doc.find_class("count-table"):
        read_table(seen, output, night, table, count_whom, renames={"taken": "chips_taken"})
    tray = doc.get_element_by_id("tray")
    terms = [words(cell_text(dt)) for dt in tray.iter("dt")]
    for term, dd in zip(terms, tray.iter("dd"), strict=True):
        what = TRAY.get(term) or ("count_result" if term.startswith("the house's") else None)
        if what is not None:
            seen.add(output, (night, what, "tray"), amount(cell_text(dd)))
    note = re.search(r"Of the house's result, commission: (\S+)\.", cell_text(tray))
    if note:
        seen.add(output, (night, "commission", NIGHT), amount(note.group(1)))


TRAY = {
    "at the open": "chips_taken",
    "adjustments, the house's side": "adjustments",
    "expected": "expected",
    "counted": "counted",
    "difference": "difference",
}


def count_whom(label: str) -> str:
    if words(label) == "the house's tray":
        return "tray"
    if words(label) == "table":
        return "table"
    return label


# --- workbooks ---------------------------------------------------------------------------


def sheets(content: bytes) -> dict[str, list[tuple[Any, ...]]]:
    book = load_workbook(io.BytesIO(content), data_only=True)
    return {sheet.title: list(sheet.iter_rows(values_only=True)) for sheet in book.worksheets}


def number(value: Any) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float | Decimal):
        return Decimal(str(value))
    if isinstance(value, str) and value.startswith("="):
        raise AssertionError(f"a formula without its value: {value}")
    return None


def workbook(seen: Seen, output: str, content: bytes, *, scope: str = SEASON) -> None:
    """A settlement workbook read back: a night's (``scope="night"``; it names its night in
    each row's Event column, as a season's does), the season's, or a guest's statement
    (``"guest"``: its sums are the guest's own, never a night's)."""
    book = sheets(content)
    sums: dict[str, dict[Key, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    if "Summary" in book:
        summary_sheet(seen, output, book["Summary"], sums)
    if "Guests" in book:
        headers, *rows = book["Guests"]
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            event, guest = str(cells["Event"]), str(cells["Guest"])
            sums["Guests"][(event, "guests on the list", NIGHT)] += 1
            if number(cells["Net"]):
                sums["Guests"][(event, "guests with a result", NIGHT)] += 1
            for header, value in cells.items():
                what = what_of(header)
                if what is None or number(value) is None:
                    continue
                seen.add(output, (event, what, guest), number(value))
                if what in ("gross", "commission", "net", "wagered"):
                    sums["Guests"][(event, what, NIGHT)] += number(value) or 0
                if what in ("gross", "commission", "net", "wagered", "hands"):
                    sums["Guests"][(SEASON, what, guest)] += number(value) or 0
            balance = number(cells["Balance after"]) or Decimal(0)
            sums["Guests"][(SEASON, "balance_after", guest)] = balance
    if "Hands" in book:
        headers, *rows = book["Hands"]
        hands: dict[tuple[str, str], set[tuple[Any, Any]]] = defaultdict(set)
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            event, guest = str(cells["Event"]), str(cells["guest"])
            hands[(event, guest)].add((cells["shoe"], cells["hand"]))
            for column, what in (("stake", "wagered"), ("gross", "gross"),
                                 ("commission", "commission"), ("net", "net")):  # fmt: skip
                value = number(cells[column]) or Decimal(0)
                shoe = f"shoe {cells['shoe']}"
                # A guest's hands alone: their night's figures add the count's adjustments.
                for whom in (f"{guest} · {shoe}", f"{guest} · hands", shoe):
                    sums["Hands"][(event, what, whom)] += value
        for (event, guest), played in hands.items():
            sums["Hands"][(event, "hands", guest)] = Decimal(len(played))
    if "Coups" in book and scope != "guest":  # a guest's has only the coups they played
        headers, *rows = book["Coups"]
        coups = {}
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            coups[(cells["Event"], cells["shoe"], cells["coup"])] = cells
        for (event, _shoe, _coup), cells in coups.items():
            cut = number(cells["house_cut"]) or Decimal(0)
            sums["Coups"][(str(event), "commission", NIGHT)] += cut
            sums["Coups"][(str(event), "commission", str(cells["banker"]))] += cut
    if "Count" in book:
        headers, *rows = book["Count"]
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            event, whom = str(cells["Event"]), count_whom(str(cells["Guest"]))
            for header, value in cells.items():
                what = what_of(header)
                if what is not None:
                    seen.add(output, (event, what, whom), number(value))
            if whom != "tray":  # the drop is what guests bought; the tray's float is the house's
                sums["Count"][(event, "drop", NIGHT)] += number(cells["Chips taken"]) or 0
            # The table's row adds every column over the guests and the tray.
            for column, what in (
                ("Chips taken", "chips_taken"),
                ("Counted", "counted"),
                ("Difference", "difference"),
            ):
                sums["Count"][(event, what, "table")] += number(cells[column]) or 0
    if "Ratings" in book:
        headers, *rows = book["Ratings"]
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            event = SEASON if cells["Event"] == RATINGS_TOTAL else str(cells["Event"])
            whom = NIGHT if cells["Guest"] == HOUSE else str(cells["Guest"])
            for header, value in cells.items():
                what = what_of(header)
                if what is None:
                    continue
                if what == "hands" and whom == NIGHT:
                    what = "guests' hands"  # a hand once per guest who staked on it
                seen.add(output, (event, what, whom), number(value))
    if "Transfers" in book:
        headers, *rows = book["Transfers"]
        for row in rows:
            cells = dict(zip(headers, row, strict=True))
            if cells["Transfer"] == "Proposed":
                whom = f"{cells['Pays']} → {cells['To']}"
                seen.add(output, (str(cells["Event"]), "proposed", whom), number(cells["Amount"]))
    for sheet, summed in sums.items():
        for key, value in summed.items():
            if scope == NIGHT and key[0] == SEASON:
                continue
            if scope == "guest" and (key[2] in (NIGHT, "table") or key[2].startswith("shoe ")):
                continue
            seen.add(f"{output} ({sheet} summed)", key, value)


def summary_sheet(
    seen: Seen, output: str, rows: list[tuple[Any, ...]], sums: dict[str, dict[Key, Decimal]]
) -> None:
    headers, *body = rows
    for row in body:
        cells = dict(zip(headers, row, strict=True))
        event, shoe = str(cells["Event"]), cells["Shoe"]
        if words(str(shoe)) == "season total":  # the House page's season figures
            for header, value in cells.items():
                what = what_of(header)
                if what is not None and number(value) is not None:
                    seen.add(output, (SEASON, what, NIGHT), number(value))
            continue
        if isinstance(shoe, int):
            whom = f"shoe {shoe}"
        elif words(str(shoe)) == "total":
            whom = NIGHT
        else:  # "The count", "Adjustments": a row of the night's own
            whom = words(str(shoe))
        for header, value in cells.items():
            what = what_of(header)
            if what is not None and number(value) is not None:
                seen.add(output, (event, what, whom), number(value))
                if whom == NIGHT and what in ("house_net", "house_net_money", "commission",
                                              "wagered", "hands"):  # fmt: skip
                    sums["Summary"][(SEASON, what, NIGHT)] += number(value) or 0
