"""A night and a season for other tools, as CSV and JSON: they parse back, every figure in them
is the workbook's, their ids hold across exports and a backup restored, and nothing a guest
typed becomes a formula."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections import Counter, defaultdict
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Event
from ledger.count.services import adjustment_record, adjustment_void
from ledger.guests import services as guest_services
from ledger.models import AuditEntry, Guest, Settlement
from ledger.money import services as money_services
from ledger.money.results import house_rows
from ledger.money.transfers import proposed_transfers, transfer_record, transfer_void
from ledger.workbook.exports import workbook_sheets
from ledger.workbook.open_data import (
    BETS,
    COUNT,
    FORMAT,
    GUESTS,
    HANDS,
    MONEY,
    NIGHTS,
    RESULTS,
    TABLE_NAMES,
    VERSION,
)
from tests.conftest import bet, insert_as_made

pytestmark = pytest.mark.django_db
D = Decimal
COLUMNS = {"nights": NIGHTS, "guests": GUESTS, "results": RESULTS, "hands": HANDS,
           "bets": BETS, "money": MONEY, "count": COUNT}  # fmt: skip


def get_json(client, url: str) -> dict:
    response = client.get(url)
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return json.loads(b"".join(response.streaming_content))


def get_zip(client, url: str) -> dict[str, list[dict[str, str]]]:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == sorted(f"{name}.csv" for name in TABLE_NAMES)
    return {
        name: list(csv.DictReader(io.StringIO(archive.read(f"{name}.csv").decode("utf-8-sig"))))
        for name in TABLE_NAMES
    }


def as_csv_text(value) -> str:
    """A JSON value as the CSV writes it (text that reads as a formula behind a quote)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        value = json.dumps(value, sort_keys=True)
    text = str(value)
    return (
        "'" + text
        if text.startswith(("=", "+", "-", "@", "\t", "\r")) and not _number(text)
        else text
    )


def _number(text: str) -> bool:
    try:
        Decimal(text)
    except ArithmeticError:
        return False
    return True


@pytest.fixture
def season(db, season_rows):
    """The reference night (counted), a Chemin de fer night (coups), a night kept by its count
    alone and a tournament (charges), as the demos load them; then money on top: settlements
    and a void, transfers and a void, adjustments and a void."""
    insert_as_made(season_rows)
    demo_night = Event.objects.get(name="Reference night")
    host = User.objects.get(username="host")
    loser = Guest.objects.filter(event_results__event=demo_night, event_results__net__lt=0).first()
    paid = money_services.settlement_record(
        guest=loser, event=demo_night, amount=D("50"), method="cash", by=host
    )
    money_services.settlement_void(settlement=paid, reason="counted twice", by=host)
    money_services.settlement_record(
        guest=loser, event=demo_night, amount=D("40"), method="other", note="+bank", by=host
    )
    chemin = Event.objects.get(game="chemin_de_fer")
    proposal = proposed_transfers(chemin)[0]
    payer, payee = (
        Guest.objects.filter(pk=party.guest_id).first()
        for party in (proposal.payer, proposal.payee)
    )
    done = transfer_record(event=chemin, payer=payer, payee=payee, amount=proposal.amount, by=host)
    transfer_void(transfer=done, reason="wrong guest", by=host)
    transfer_record(event=chemin, payer=payer, payee=payee, amount=D("1"), by=host)
    night = demo_night  # counted at the close; a count-only night takes no adjustment
    guest = night.guests.order_by("pk").first()
    made = adjustment_record(event=night, guest=guest, amount=D("12.50"), reason="a chip", by=host)
    adjustment_void(adjustment=made, reason="found it", by=host)
    adjustment_record(event=night, guest=guest, amount=D("-5"), reason="short", by=host)
    return list(Event.objects.nights().order_by("date", "id"))


@pytest.fixture
def host_client(client):
    """Logged in as the demos' host."""
    client.force_login(User.objects.get(username="host"))
    return client


def test_a_night_as_json_has_the_documented_shape(demo_night, host_client):
    data = get_json(host_client, reverse("ledger:event_export_json", args=[demo_night.pk]))
    assert (data["format"], data["version"]) == (FORMAT, VERSION)
    assert data["scope"] == {"kind": "night", "night_id": demo_night.pk}
    assert list(data) == ["format", "version", "exported_at", "scope", *TABLE_NAMES]
    for name in TABLE_NAMES:
        assert data[name], name
        assert all(list(record) == list(COLUMNS[name]) for record in data[name]), name
    assert [night["night_id"] for night in data["nights"]] == [demo_night.pk]
    # Amounts are decimal strings: exact, never a float.
    assert all(isinstance(row["net"], str) for row in data["bets"])
    assert len(data["guests"]) == 15 and len(data["hands"]) == 240


def test_the_csv_files_parse_back_to_the_json_tables(season, host_client):
    query = "?start=2000-01-01"
    tables = get_zip(host_client, reverse("ledger:season_export_csv") + query)
    data = get_json(host_client, reverse("ledger:season_export_json") + query)
    assert data["scope"] == {"kind": "season", "start": "2000-01-01", "end": None}
    for name in TABLE_NAMES:
        assert list(tables[name][0]) == list(COLUMNS[name]), name
        expected = [{key: as_csv_text(value) for key, value in row.items()} for row in data[name]]
        assert tables[name] == expected, name
    # One table alone, as CSV text.
    response = host_client.get(reverse("ledger:season_export_csv") + query + "&table=bets")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    assert list(csv.DictReader(io.StringIO(text))) == tables["bets"]


def _sheet(sheets, title):
    for name, columns, rows in sheets:
        if name == title:
            return [column.header for column in columns], [list(row) for row in rows]
    raise AssertionError(title)


def known(amount: str | None) -> Decimal | None:
    """An amount of the export; None where the figure is not known (a count-only guest's gross)."""
    return None if amount is None else D(amount)


def test_each_figure_of_a_season_is_the_workbook_s(season, host_client):
    data = get_json(host_client, reverse("ledger:season_export_json"))
    assert {night["night_id"] for night in data["nights"]} == {event.pk for event in season}
    kinds = {(night["kind"], night["game"], night["count_only"]) for night in data["nights"]}
    assert len(kinds) == 4  # a cash night, a guest-banked one, a count-only one, a tournament
    names = {night["night_id"]: night["name"] for night in data["nights"]}
    sheets = workbook_sheets(season)
    compared = 0

    # Guests: each guest's totals at each night, and what the night moved on their balance.
    _, guests = _sheet(sheets, "Guests")
    results = {(names[r["night_id"]], r["guest"]): r for r in data["results"]}
    moved: dict[tuple[str, str], dict[str, Decimal]] = defaultdict(lambda: defaultdict(D))
    for row in data["money"]:
        if row["in_balance"]:
            kind = "result" if row["kind"] == "result" else "settled"
            moved[(names[row["night_id"]], row["guest"])][kind] += D(row["amount"])
    for event, guest, hands, wagered, gross, cut, net, _yen, _before, settled, *_rest in guests:
        result = results.get((event, guest))
        figures = (
            (result["hands"], D(result["wagered"]), known(result["gross"]),
             known(result["commission"]), D(result["net"]))
            if result else (0, D(0), D(0), D(0), D(0))
        )  # fmt: skip
        assert figures == (hands, wagered, gross, cut, net), (event, guest)
        assert moved[(event, guest)]["result"] == net, (event, guest)
        assert moved[(event, guest)]["settled"] == settled, (event, guest)
        compared += 6

    # Hands: every bet of the house-banked nights, its hand's cards and result.
    header, hand_rows = _sheet(sheets, "Hands")
    hands = {row["hand_id"]: row for row in data["hands"]}
    banked = {n["night_id"] for n in data["nights"] if n["game"] != "punto_banco"}
    exported = Counter(
        (names[b["night_id"]], b["shoe"], b["hand"], hands[b["hand_id"]]["player_cards"],
         hands[b["hand_id"]]["result"][0].upper(), b["seat"], b["guest"], b["bet"],
         D(b["stake"]), D(b["gross"]), D(b["commission"]), D(b["net"]))
        for b in data["bets"] if b["night_id"] not in banked
    )  # fmt: skip
    sheet = Counter(
        (r[0], r[1], r[2], r[3], r[5], r[8], r[9], r[10], r[11], r[12], r[13], r[14])
        for r in hand_rows if r[8] is not None
    )  # fmt: skip
    assert exported == sheet
    compared += 4 * sum(sheet.values())

    # Coups: each stake's net at the guest-banked night.
    header, coup_rows = _sheet(sheets, "Coups")
    net_at = header.index("net")
    sheet_nets = sorted(r[net_at] for r in coup_rows if r[net_at] is not None)
    exported_nets = sorted(
        D(b["net"]) for b in data["bets"] if b["night_id"] in banked and b["bet"] != "bank"
    )
    assert exported_nets == sheet_nets
    compared += len(sheet_nets)

    # Settlements and transfers, row by row, voids named.
    _, settlement_rows = _sheet(sheets, "Settlements")
    settlements = {
        int(r["row_id"].split("-")[1]): r for r in data["money"] if r["kind"] == "settlement"
    }
    assert len(settlements) == len(settlement_rows) > 0
    for _at, event, guest, amount, _how, _note, number, voids, _dated in settlement_rows:
        row = settlements[number]
        assert (names[row["night_id"]], row["guest"], D(row["amount"])) == (event, guest, amount)
        assert row["voids"] == (f"settlement-{voids}" if voids else None)
        compared += 3
    _, transfer_rows = _sheet(sheets, "Transfers")
    recorded = sorted(r[4] for r in transfer_rows if r[1] in ("Recorded", "Void"))
    payers = sorted(D(r["amount"]) for r in data["money"] if r["row_id"].endswith("-payer"))
    payees_only = sorted(
        -D(r["amount"])
        for r in data["money"]
        if r["row_id"].endswith("-payee")
        and f"{r['row_id'].rsplit('-', 1)[0]}-payer" not in {m["row_id"] for m in data["money"]}
    )
    assert sorted(payers + payees_only) == recorded and recorded
    compared += len(recorded)

    # The count, guest by guest and the tray.
    _, count_rows = _sheet(sheets, "Count")
    exported_count = [
        [names[r["night_id"]], r["guest"] or "The house's tray", D(r["taken"]), r["paid_by"],
         D(r["result"]), D(r["adjustments"]), D(r["expected"]),
         None if r["counted"] is None else D(r["counted"]),
         None if r["difference"] is None else D(r["difference"])]
        for r in data["count"]
    ]  # fmt: skip
    assert exported_count == [row[:9] for row in count_rows] and count_rows
    compared += 6 * len(count_rows)

    # The house's side of each night: minus its guests' results, as the House page has it and
    # the Summary's Total rows (a tournament's there is the figures' part of the issue: its
    # house cut reads 0).
    guests_net: dict[int, Decimal] = defaultdict(D)
    for r in data["results"]:
        guests_net[r["night_id"]] += D(r["net"])
    for row in house_rows(Event.objects.nights()):
        assert -guests_net[row.event.pk] == row.figures.house_net, row.event.name
        compared += 1
    _, summary = _sheet(sheets, "Summary")
    tournaments = {n["name"] for n in data["nights"] if n["kind"] == "tournament"}
    by_name = {names[pk]: net for pk, net in guests_net.items()}
    for row in summary:
        if row[5] == "Total" and row[0] not in tournaments:
            total = row[11].value if hasattr(row[11], "value") else row[11]
            assert -by_name[row[0]] == total, row[0]
            compared += 1
    assert compared > 5000


def test_ids_hold_across_two_exports_and_a_rename(demo_night, host_client):
    url = reverse("ledger:event_export_json", args=[demo_night.pk])
    first = get_json(host_client, url)
    guest = Guest.objects.get(pk=first["guests"][0]["guest_id"])
    guest_services.guest_rename(
        guest=guest, name="Zed Renamed", by=User.objects.get(username="host")
    )
    second = get_json(host_client, url)
    for data in (first, second):
        del data["exported_at"]
    renamed = {g["guest_id"]: g["name"] for g in second["guests"]}
    assert renamed[guest.pk] == "Zed Renamed"
    assert [g["guest_id"] for g in first["guests"]] != [] and set(renamed) == {
        g["guest_id"] for g in first["guests"]
    }

    # Every row as it was, ids and all, but the name (rows by name come in the new order).
    def unnamed(rows: list[dict]) -> list[str]:
        return sorted(json.dumps({k: v for k, v in row.items() if k != "guest"}) for row in rows)

    for name in ("hands", "bets", "results", "money", "count"):
        assert unnamed(first[name]) == unnamed(second[name]), name
    assert first["nights"] == second["nights"]


@pytest.mark.django_db(transaction=True)
def test_ids_survive_a_backup_restored(tmp_path, client, host):
    call_command("load_demo", stdout=StringIO())
    event = Event.objects.get()
    client.force_login(User.objects.get(username="host"))
    url = reverse("ledger:event_export_json", args=[event.pk])
    before = get_json(client, url)
    backup = tmp_path / "shoebook.json.gz"
    call_command("backup", "--output", str(backup), stdout=StringIO())
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(backup), "--with-users", stdout=StringIO())
    client.force_login(User.objects.get(username="host"))
    after = get_json(client, url)
    for data in (before, after):
        del data["exported_at"]
    assert after == before
    assert before["money"] and before["bets"]


@pytest.mark.parametrize(
    "name", ['=HYPERLINK("http://evil.example","click")', "+1+2", "@SUM(A1:A9)", "\tTab", "-3+4"]
)
def test_what_a_guest_typed_never_becomes_a_formula_in_the_csv(
    seated, shoe, record, host, client, name
):
    Guest.objects.filter(pk=seated[1].pk).update(name=name)
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    paid = money_services.settlement_record(
        guest=seated[2], event=shoe.event, amount=D("-5"), method="cash", by=host
    )
    Settlement.objects.filter(pk=paid.pk).update(note=name)  # an old row: notes refuse a tab now
    client.force_login(host)
    tables = get_zip(client, reverse("ledger:event_export_csv", args=[shoe.event_id]))
    assert "'" + name in {row["name"] for row in tables["guests"]}
    placed = next(row for row in tables["bets"] if row["seat"] == "1")
    assert (placed["guest"], placed["stake"]) == ("'" + name, "100.00")  # a number stays one
    settlement = next(row for row in tables["money"] if row["kind"] == "settlement")
    assert (settlement["note"], settlement["amount"]) == ("'" + name, "-5.00")
    starts = ("=", "+", "@", "\t", "\r")
    assert not any(
        cell.startswith(starts) for rows in tables.values() for row in rows for cell in row.values()
    )
    # JSON is no spreadsheet: the name as it is.
    data = get_json(client, reverse("ledger:event_export_json", args=[shoe.event_id]))
    assert name in {guest["name"] for guest in data["guests"]}


def test_the_audit_log_as_csv(demo_night, host_client):
    response = host_client.get(reverse("ledger:audit_export_csv") + f"?event={demo_night.pk}")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(
        csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig")))
    )
    entries = AuditEntry.objects.filter(event=demo_night).order_by("at", "id")
    assert [int(row["entry_id"]) for row in rows] == [entry.pk for entry in entries]
    first, entry = rows[0], entries[0]
    assert (first["action"], first["night_id"], first["by"]) == (
        entry.action, str(demo_night.pk), entry.by.username,
    )  # fmt: skip
    assert json.loads(first["after_data"]) == entry.after
    assert first["after"]  # worded as the page words it


def test_unknown_table_and_bad_dates_are_refused_by_name(demo_night, host_client):
    response = host_client.get(
        reverse("ledger:event_export_csv", args=[demo_night.pk]) + "?table=chairs"
    )
    assert response.status_code == 400
    assert "chairs" in response.content.decode() and "bets" in response.content.decode()
    response = host_client.get(reverse("ledger:season_export_json") + "?start=yesterday")
    assert response.status_code == 400
    assert "yesterday" in response.content.decode()


def test_the_exports_are_linked_for_the_host_only(demo_night, host_client, client):
    page = host_client.get(reverse("ledger:event_detail", args=[demo_night.pk])).content.decode()
    for name in ("ledger:event_export_csv", "ledger:event_export_json"):
        assert reverse(name, args=[demo_night.pk]) in page
    assert reverse("ledger:audit_export_csv") + f"?event={demo_night.pk}" in page
    house = host_client.get(reverse("ledger:house") + "?start=2026-01-01").content.decode()
    assert reverse("ledger:season_export_json") + "?start=2026-01-01&amp;end=" in house
    assert reverse("ledger:season_export_csv") + "?start=2026-01-01&amp;end=" in house
    audit = host_client.get(reverse("ledger:audit_log")).content.decode()
    assert reverse("ledger:audit_export_csv") in audit
    # A night kept by its count alone has no results per shoe, and its exports all the same.
    call_command("load_demo_count", stdout=StringIO())
    counted = Event.objects.get(name="Count-only night")
    page = host_client.get(reverse("ledger:event_detail", args=[counted.pk])).content.decode()
    assert reverse("ledger:event_export_json", args=[counted.pk]) in page
    # The dealer sees the night's page, and no export on it.
    client.force_login(User.objects.get(username="dealer"))
    page = client.get(reverse("ledger:event_detail", args=[demo_night.pk])).content.decode()
    assert "/export/" not in page


def test_a_night_s_name_in_any_language_names_its_files(make_event, host, client):
    night = make_event(name="金曜の夜")
    client.force_login(host)
    response = client.get(reverse("ledger:event_export_json", args=[night.pk]))
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="2026-11-20 ????.json"')
    assert "filename*=UTF-8''2026-11-20%20%E9%87%91%E6%9B%9C%E3%81%AE%E5%A4%9C.json" in disposition
    response = client.get(reverse("ledger:event_export_csv", args=[night.pk]))
    assert "%28csv%29.zip" in response["Content-Disposition"]


def test_an_export_reads_a_fixed_number_of_queries(
    demo_night, host_client, django_assert_max_num_queries
):
    # The reference night: 240 hands, 15 guests, every table (the figures' expenses: one; the
    # tips: one).
    with django_assert_max_num_queries(31):
        get_json(host_client, reverse("ledger:event_export_json", args=[demo_night.pk]))
    with django_assert_max_num_queries(31):
        get_zip(host_client, reverse("ledger:event_export_csv", args=[demo_night.pk]))
    with django_assert_max_num_queries(4):
        response = host_client.get(reverse("ledger:audit_export_csv"))
        assert len(b"".join(response.streaming_content).splitlines()) > 240


def test_a_season_reads_the_same_queries_whatever_its_hands_and_nights(
    season, host_client, make_event
):
    """A season's export reads a fixed number of queries, and the count's per night that
    counted its chips (the count page's own reads): more hands, guests or nights add none."""

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            get_json(host_client, reverse("ledger:season_export_json"))
        return len(captured)

    before = queries()
    night = make_event(name="Another night", date=season[-1].date)
    guest_services.event_guest_add(event=night, name="Newcomer", by=night.created_by)
    assert queries() == before <= 39  # the figures' expenses: one; the tips' lines: two


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "99999999999999999999"])
def test_the_audit_export_refuses_an_event_that_is_no_id_by_name(demo_night, host_client, value):
    response = host_client.get(reverse("ledger:audit_export_csv"), {"event": value})
    assert response.status_code == 400
    assert "event" in response.content.decode() and value in response.content.decode()


SEASON_ANSWERS = ("ledger:season_workbook", "ledger:season_export_csv", "ledger:season_export_json")


@pytest.mark.parametrize(
    ("start", "status"), [(" 2026-01-01", 200), ("2026-01-01 ", 200), ("yesterday", 400)]
)
def test_the_season_answers_read_their_dates_one_way(demo_night, host_client, start, status):
    for name in SEASON_ANSWERS:
        response = host_client.get(reverse(name), {"start": start, "end": ""})
        assert response.status_code == status, name
        if status == 400:
            assert "yesterday" in response.content.decode(), name


def _file_name(response) -> str:
    from urllib.parse import unquote

    return unquote(response["Content-Disposition"].split("filename*=UTF-8''")[1])


def test_the_exports_file_names_are_in_the_readers_language(demo_night, host_client):
    season = {"start": "2026-01-01", "end": "2026-12-31"}
    answers = {
        "シーズン 2026-01-01から 2026-12-31まで（CSV）.zip": ("ledger:season_export_csv", season),
        "シーズン 2026-01-01から 2026-12-31まで.json": ("ledger:season_export_json", season),
        "シーズン.json": ("ledger:season_export_json", {}),
        "監査ログ.csv": ("ledger:audit_export_csv", {}),
        f"監査ログ イベント{demo_night.pk}.csv": (
            "ledger:audit_export_csv",
            {"event": demo_night.pk},
        ),
    }
    for expected, (name, query) in answers.items():
        response = host_client.get(reverse(name), query, HTTP_ACCEPT_LANGUAGE="ja")
        assert _file_name(response) == expected
    night = host_client.get(
        reverse("ledger:event_export_csv", args=[demo_night.pk]), HTTP_ACCEPT_LANGUAGE="ja"
    )
    assert _file_name(night) == f"{demo_night.date:%Y-%m-%d} {demo_night.name}（CSV）.zip"
    english = host_client.get(reverse("ledger:season_export_json"), season)
    assert _file_name(english) == "season from 2026-01-01 to 2026-12-31.json"


def test_every_download_keeps_a_nights_date_and_whole_name(make_event, host, client):
    from urllib.parse import unquote

    name = '=cmd|"/c calc"!A1'
    night = make_event(name=name)
    client.force_login(host)
    kept = '2026-11-20 =cmd|"_c calc"!A1'
    workbook = client.get(reverse("ledger:event_workbook", args=[night.pk]))
    disposition = unquote(workbook["Content-Disposition"])
    assert f"{kept}.xlsx" in disposition or kept.replace('"', '\\"') + ".xlsx" in disposition
    for url, suffix in (
        (reverse("ledger:event_export_csv", args=[night.pk]), " (csv).zip"),
        (reverse("ledger:event_export_json", args=[night.pk]), ".json"),
    ):
        assert _file_name(client.get(url)) == kept + suffix
