"""A guest-banked night's workbook (its Coups and Transfers sheets) and its scoresheet import."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils.html import escape
from openpyxl import load_workbook
from pypdf import PdfReader

from games.entry import TableRules
from games.guest_banked.chemin_drawing import MSG_PONTE_MUST_DRAW
from games.guest_banked.chemin_money import (
    MSG_BANKER_AGAINST_HIMSELF,
    MSG_NO_MONEY_OUT,
    MSG_STAKE_EXCEEDS,
)
from games.kinds import Game
from games.messages import RuleError
from games.models import Event, Hand
from games.payouts import RuleSet
from games.services import MSG_CUT_OF_OTHER_GAME
from ledger.integrity import ledger_problems
from ledger.models import Bet, Coup, Guest, GuestEventResult, Seating
from ledger.money.transfers import transfer_record
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.imports.coup_sheet import BankedGame, check_coup_sheet
from ledger.workbook.imports.night_writer import coup_sheet_import
from ledger.workbook.reading import ScoresheetInvalid, SheetProblem
from tests.ledger.banked import (
    CHEMIN_NIGHT_HOUSE,
    CHEMIN_NIGHT_NETS,
    chemin_night,
    coup_entry,
    make_banked,
    record_coup,
    rotating_coups,
)
from tests.ledger.workbook.sheets import only_our_totals

D = Decimal
pytestmark = pytest.mark.django_db
TABLE = TableRules(RuleSet(), 8, D(10), D(1000))
CHEMIN = BankedGame(Game.CHEMIN_DE_FER)
BANQUE = BankedGame(Game.BACCARA_BANQUE, taxe=Event.Cut.CAPITAL)


def sheet(content: bytes, title: str) -> list[dict[str, object]]:
    rows = list(load_workbook(io.BytesIO(content))[title].iter_rows(values_only=True))
    return [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]


# --- the workbook -------------------------------------------------------------------------------


@pytest.fixture
def chemin(event, shoe, seated, host):
    make_banked(event, Game.CHEMIN_DE_FER)
    chemin_night(shoe, host)
    return event


def test_the_coups_sheet_has_a_row_per_stake_with_its_coup(chemin):
    content = workbook_bytes([chemin])
    # Its coups are in the Coups sheet, in its words: no Hands sheet of Player and Banker.
    assert load_workbook(io.BytesIO(content)).sheetnames == [
        "Summary",
        "Guests",
        "Coups",
        "Transfers",
        "Ratings",  # its stakes, each coup's (ledger.ratings)
        "Settlements",
        "Rules",  # the night's terms, for an import (no Chips and settlements: it has none)
    ]
    coups = sheet(content, "Coups")
    assert [(row["coup"], row["guest"]) for row in coups] == [
        (1, "Ben"),
        (1, "Chie"),
        (2, "Ben"),
        (3, "Chie"),
        (4, "Chie"),
        (5, "Fumio"),
        (5, "Goro"),
    ]
    first = coups[0]
    assert (first["banker"], first["bank"], first["stake_kind"], first["stake"]) == (
        "Aki",
        100,
        "ordinary",
        60,
    )
    # The house's 5% of the 100 won; the bank plays on with the rest.
    assert (first["result"], first["move"], first["house_cut"], first["banker_net"]) == (
        "B",
        "keep",
        5,
        95,
    )
    assert (first["net"], first["card_holder"], first["bank_after"]) == (-60, "Ben", 195)
    solo = coups[2]
    assert (solo["ponte_cards"], solo["banker_cards"], solo["ponte_choice"]) == (
        "3 2",
        "10 4 K",
        "stand",
    )
    assert (solo["result"], solo["net"], solo["move"], solo["bank_after"]) == ("P", 195, "pass", 0)
    suivi = coups[4]
    assert (suivi["co_banker"], suivi["co_banker_seat"], suivi["stake_kind"]) == (
        "Daisuke",
        4,
        "suivi",
    )
    half = float((D(390) - D("19.50")) / 2)  # the shared bank's result, less the taxe, halved
    assert (suivi["house_cut"], suivi["banker_net"], suivi["co_banker_net"]) == (
        19.5,
        half,
        half,
    )
    assert (suivi["move"], suivi["suite_taker"], suivi["suite_seat"], suivi["suite_amount"]) == (
        "suite",
        "Emi",
        5,
        760.5,
    )
    tie = coups[5]
    assert (tie["result"], tie["net"], tie["covered"], tie["move"], tie["taken"]) == (
        "T",
        0,
        500,
        "retire",
        500,
    )


def transfers(content: bytes) -> list[tuple[object, ...]]:
    return [(row["Pays"], row["To"], D(str(row["Amount"]))) for row in sheet(content, "Transfers")]


def settles(plan: list[tuple[object, ...]], balances: dict[str, Decimal]) -> bool:
    left = dict(balances)
    for payer, payee, amount in plan:
        left[payer] += amount  # type: ignore[index, operator]
        left[payee] -= amount  # type: ignore[index, operator]
    return all(amount == 0 for amount in left.values())


def test_the_transfers_sheet_proposes_the_fewest_or_each_with_the_house(chemin):
    balances = {**CHEMIN_NIGHT_NETS, "The house": CHEMIN_NIGHT_HOUSE}
    assert sum(balances.values()) == 0
    plan = transfers(workbook_bytes([chemin]))
    # Nobody's debt matches a creditor or a group of them: one group, one transfer fewer.
    assert len(plan) == len(balances) - 1 and settles(plan, balances)
    assert {row["Transfer"] for row in sheet(workbook_bytes([chemin]), "Transfers")} == {"Proposed"}
    Event.objects.filter(pk=chemin.pk).update(clearing=Event.Clearing.HOUSE)
    chemin.refresh_from_db()
    plan = transfers(workbook_bytes([chemin]))
    assert sorted(plan) == sorted(
        (name, "The house", -net) if net < 0 else ("The house", name, net)
        for name, net in CHEMIN_NIGHT_NETS.items()
    )


def test_the_transfers_sheet_lists_what_was_recorded_and_proposes_only_the_rest(chemin, host):
    before = transfers(workbook_bytes([chemin]))
    payer, payee, amount = before[0]
    guests = {guest.name: guest for guest in Guest.objects.all()}
    transfer_record(
        event=chemin, payer=guests.get(payer), payee=guests.get(payee), amount=amount, by=host
    )
    rows = sheet(workbook_bytes([chemin]), "Transfers")
    recorded = [row for row in rows if row["Transfer"] == "Recorded"]
    assert [(row["Pays"], row["To"], D(str(row["Amount"]))) for row in recorded] == [before[0]]
    still = [(r["Pays"], r["To"], D(str(r["Amount"]))) for r in rows if r["Transfer"] == "Proposed"]
    assert before[0] not in still and len(still) == len(before) - 1


def test_a_guests_own_workbook_shows_their_stakes_banks_and_transfers(chemin):
    daisuke = Guest.objects.get(name="Daisuke")
    content = workbook_bytes([chemin], guest=daisuke)
    coups = sheet(content, "Coups")
    # Daisuke never staked: the one coup he shared the bank of, without anyone's stake.
    assert [(row["coup"], row["guest"], row["co_banker_net"]) for row in coups] == [
        (4, None, float(CHEMIN_NIGHT_NETS["Daisuke"]))
    ]
    assert coups[0]["banker_net"] is None  # Ben's, not his
    assert all("Daisuke" in (payer, payee) for payer, payee, _ in transfers(content))
    chie = Guest.objects.get(name="Chie")
    assert {row["guest"] for row in sheet(workbook_bytes([chemin], guest=chie), "Coups")} == {
        "Chie"
    }


@pytest.mark.parametrize("name", ['=HYPERLINK("http://evil.example","x")', "+1+2", "@SUM(A1)"])
def test_a_name_in_the_coups_and_transfers_sheets_never_becomes_a_formula(chemin, name):
    Guest.objects.filter(name__in=["Aki", "Chie"]).update(name=name)
    content = workbook_bytes([chemin])
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        xml = [archive.read(n).decode() for n in archive.namelist() if "worksheets/" in n]
    assert only_our_totals(xml)  # no formula but the totals' SUMs of the sheet's own cells
    assert sheet(content, "Coups")[0]["banker"] == name
    assert name in {row["Pays"] for row in sheet(content, "Transfers")}


# The session and the user, the four usual sheets, then the Coups and Transfers sheets (what
# is still open, and what was recorded); whether there are expenses, and the figures' expenses;
# the tips (and what each guest tipped, for the Guests sheet).
WORKBOOK_QUERIES = (
    38  # a constant: every sheet's reads (the Ratings sheet's four), the figures read once for all
)


def test_the_workbook_reads_the_same_few_queries_for_3_or_30_coups(
    client, host, event, shoe, seated, django_assert_max_num_queries
):
    make_banked(event, Game.CHEMIN_DE_FER)
    client.force_login(host)
    url = reverse("ledger:event_workbook", args=[event.pk])

    def coup_rows() -> int:
        with django_assert_max_num_queries(WORKBOOK_QUERIES):
            response = client.get(url)
            content = b"".join(response.streaming_content)
        return len(sheet(content, "Coups"))

    rotating_coups(shoe, host, 3)
    assert coup_rows() == 6
    rotating_coups(shoe, host, 27)
    assert coup_rows() == 60


# --- the import ---------------------------------------------------------------------------------

# A Chemin de fer night in two shoes, with its columns in another order and those it does not
# use left out. Seats: Aki 1, Ben 2, Chie 3, Daisuke 4, Emi 5.
CHEMIN_HEADER = (
    "shoe,coup,seat,guest,stake_kind,stake,banker,banker_seat,bank,co_banker,co_banker_seat,"
    "ponte_cards,banker_cards,result,ponte_choice,banker_choice,move,taken,suite_taker,"
    "suite_seat,suite_amount"
)
CHEMIN_ROWS = [
    # Aki banks 100; Ben and Chie cover; the bank wins, is taxed 5 and kept at 195.
    "1,1,2,Ben,,60,Aki,1,100,,,,,B,,,,,,,",
    "1,1,3,Chie,,40,Aki,1,100,,,,,B,,,,,,,",
    # Ben's banco solo standing on 5 beats the banker's 4: the bank passes to Ben.
    "1,2,2,Ben,banco_solo,195,Aki,1,195,,,3 2,10 4 K,P,stand,,,,,,",
    # Ben banks 100; Chie's banco solo loses.
    "1,3,3,Chie,banco_solo,100,Ben,2,100,,,,,B,,,,,,,",
    # Chie's suivi loses again (taxe 9.75); Ben gives a suite and Emi takes it.
    "1,4,3,Chie,suivi,195,Ben,2,195,,,,,B,,,suite,,Emi,5,",
    # Emi banks 380.25; Aki and Ben cover 300; an égalité; Emi retires with the 300 covered.
    "1,5,1,Aki,,200,Emi,5,380.25,,,,,T,,,retire,,,,",
    "1,5,2,Ben,,100,Emi,5,380.25,,,,,T,,,retire,,,,",
    # A new shoe, a new bank: Chie and Daisuke share 200; the ponte's 7 beats the banker's 6.
    "2,1,5,Emi,,120,Chie,3,200,Daisuke,4,7 K,4 2,P,,,,,,,",
    "2,1,1,Aki,,80,Chie,3,200,Daisuke,4,7 K,4 2,P,,,,,,,",
    # The bank passes to Daisuke; Emi's banco solo: 4 draws a 9, the banker draws on 3 and wins.
    "2,2,5,Emi,banco_solo,100,Daisuke,4,100,,,2 2 9,A 2 5,B,,draw,retire,,,,",
]
# Each guest's net, from the rules: pontes win 1:1, the bank takes 5% of what it wins, an
# égalité is void, a shared bank's result is halved.
CHEMIN_NETS = {
    "Aki": (D(100) - D(5)) - D(195) + 0 + D(80),
    "Ben": -D(60) + D(195) + (D(100) - D(5)) + (D(195) - D("9.75")) + 0,
    "Chie": -D(40) - D(100) - D(195) - D(200) / 2,
    "Daisuke": -D(200) / 2 + (D(100) - D(5)),
    "Emi": 0 + D(120) - D(100),
}
CHEMIN_HOUSE = D(5) + D(5) + D("9.75") + D(5)

# A Baccara banque night at 5% of the capital: Aki banks 1000 in seat 4; seats 1–3 stake on
# tableau 1, seats 5–7 on tableau 2.
BANQUE_HEADER = (
    "shoe,coup,banker,banker_seat,bank,seat,guest,stake_kind,stake,ponte_cards,banker_cards,"
    "result,tableau_2_cards,result_2,move"
)
BANQUE_ROWS = [
    "1,1,Aki,4,1000,3,Ben,tableau_1,200,,,P,,B,",
    "1,1,Aki,4,1000,2,Chie,tableau_1,100,,,P,,B,",
    "1,1,Aki,4,1000,5,Daisuke,tableau_2,300,,,P,,B,",
    # Tableau 1's natural 9 beats the banker's natural 8, which beats tableau 2's 6.
    "1,2,Aki,4,1000,3,Ben,tableau_1,100,9 K,8 K,P,3 3,B,",
    "1,2,Aki,4,1000,6,Emi,tableau_2,200,9 K,8 K,P,3 3,B,",
    "1,3,Aki,4,1100,3,Ben,tableau_1,500,,,B,,T,retire",
    "1,3,Aki,4,1100,5,Daisuke,tableau_2,500,,,B,,T,retire",
]
BANQUE_NETS = {
    "Aki": -D(1000) * D("0.05") + (-D(300) + D(300)) + (-D(100) + D(200)) + D(500),
    "Ben": D(200) + D(100) - D(500),
    "Chie": D(100),
    "Daisuke": -D(300) + 0,
    "Emi": -D(200),
}
BANQUE_HOUSE = D(1000) * D("0.05")


def csv_of(header: str, rows: list[str]) -> bytes:
    return (header + "\n" + "\n".join(rows) + "\n").encode()


@pytest.mark.parametrize(
    ("game", "content", "nets", "house", "coups"),
    [
        (CHEMIN, csv_of(CHEMIN_HEADER, CHEMIN_ROWS), CHEMIN_NETS, CHEMIN_HOUSE, 7),
        (BANQUE, csv_of(BANQUE_HEADER, BANQUE_ROWS), BANQUE_NETS, BANQUE_HOUSE, 3),
    ],
    ids=["chemin", "banque"],
)
def test_a_good_sheet_imports_with_the_totals_the_rules_give(
    host, game, content, nets, house, coups
):
    assert sum(nets.values()) + house == 0
    checked = check_coup_sheet("night.csv", content, TABLE, game)
    imported = coup_sheet_import(
        coups=checked, name="Paper", on=date(2026, 11, 21), table=TABLE, game=game, by=host
    )
    event = imported.event
    assert (event.game, imported.hands, imported.created_guests) == (
        game.game.value,
        coups,
        sorted(nets),
    )
    results = GuestEventResult.objects.filter(event=event)
    assert {row.guest.name: row.net for row in results} == nets
    assert Coup.objects.filter(event=event).count() == Hand.objects.count() == coups
    assert sum(Coup.objects.values_list("house_cut", flat=True)) == house
    assert ledger_problems() == []


def test_a_chemin_sheet_keeps_each_coup_and_who_sat_where(host):
    checked = check_coup_sheet("night.csv", csv_of(CHEMIN_HEADER, CHEMIN_ROWS), TABLE, CHEMIN)
    coup_sheet_import(
        coups=checked, name="Paper", on=date(2026, 11, 21), table=TABLE, game=CHEMIN, by=host
    )
    suite = Coup.objects.get(hand__shoe__number=1, hand__number=4)
    assert (suite.move, suite.suite_seat, suite.suite_amount, suite.suivi_seat) == (
        "suite",
        5,
        D("380.25"),
        3,
    )
    assert Bet.objects.get(hand=suite.hand, seat=3).cover_kind == "suivi"
    shared = Coup.objects.get(hand__shoe__number=2, hand__number=1)
    assert (shared.banker.name, shared.co_banker.name, shared.holder_seat) == ("Chie", "Daisuke", 5)
    drew = Coup.objects.get(hand__shoe__number=2, hand__number=2)
    assert (drew.banker_choice, drew.banker_cards, drew.move, drew.taken) == (
        "draw",
        "A 2 5",
        "retire",
        D(195),
    )
    # Emi is named from coup 4 (the suite) of shoe 1, Daisuke only in shoe 2.
    seatings = Seating.objects.filter(shoe__number=1).order_by("seat")
    assert list(seatings.values_list("guest__name", "seat", "from_hand", "to_hand")) == [
        ("Aki", 1, 1, 5),
        ("Ben", 2, 1, 5),
        ("Chie", 3, 1, 4),
        ("Emi", 5, 4, 5),
    ]


def problem(row: int, column: str, template: str, **params: object) -> str:
    return str(SheetProblem(row, row + 1, column, str(RuleError(template, **params))))


BAD = [
    # A cover larger than the bank.
    ({0: "1,1,2,Ben,,160,Aki,1,100,,,,,B,,,,,,,"},
     problem(1, "stake", MSG_STAKE_EXCEEDS, guest="Ben", amount=D(160), left=D(100))),
    # The banker staking against himself.
    ({1: "1,1,1,Aki,,40,Aki,1,100,,,,,B,,,,,,,"},
     problem(2, "stake", MSG_BANKER_AGAINST_HIMSELF, guest="Aki")),
    # A choice where the rules give none: the ponte has 3 and must draw.
    ({2: "1,2,2,Ben,banco_solo,195,Aki,1,195,,,3 K 2,10 4 K,P,stand,,,,,,"},
     problem(3, "ponte_cards/banker_cards", MSG_PONTE_MUST_DRAW, total=3)),
    # Money taken out while keeping the bank.
    ({0: "1,1,2,Ben,,60,Aki,1,100,,,,,B,,,keep,50,,,",
      1: "1,1,3,Chie,,40,Aki,1,100,,,,,B,,,keep,50,,,"},
     problem(1, "taken", MSG_NO_MONEY_OUT, amount=D(50))),
]  # fmt: skip


@pytest.mark.parametrize(("changes", "expected"), BAD)
def test_a_bad_row_is_refused_by_row_and_column_and_nothing_is_stored(
    client, host, changes, expected
):
    rows = [changes.get(index, row) for index, row in enumerate(CHEMIN_ROWS)]
    with pytest.raises(ScoresheetInvalid) as raised:
        check_coup_sheet("night.csv", csv_of(CHEMIN_HEADER, rows), TABLE, CHEMIN)
    assert expected in [str(found) for found in raised.value.problems]
    client.force_login(host)
    response = client.post(
        reverse("ledger:scoresheet_upload"), upload_fields(csv_of(CHEMIN_HEADER, rows))
    )
    assert response.status_code == 400
    assert escape(expected) in response.content.decode()
    assert not Event.objects.exists() and not Guest.objects.exists() and not Bet.objects.exists()


def test_a_coups_columns_differing_between_its_rows_are_named():
    rows = [CHEMIN_ROWS[0], CHEMIN_ROWS[1].replace("Aki,1,100", "Aki,1,120"), *CHEMIN_ROWS[2:]]
    with pytest.raises(ScoresheetInvalid) as raised:
        check_coup_sheet("night.csv", csv_of(CHEMIN_HEADER, rows), TABLE, CHEMIN)
    assert "Row 2 (line 3), bank: not the same as in row 1 of the same coup." in [
        str(found) for found in raised.value.problems
    ]


def upload_fields(content: bytes, game: str = "chemin_de_fer", **changes: str) -> dict:
    upload = io.BytesIO(content)
    upload.name = "night.csv"
    return {
        "file": upload,
        "event_name": "Uploaded",
        "date": "2026-11-21",
        "money_per_chip": "100",
        "table_min": "10",
        "table_max": "1000",
        "decks": "8",
        "no_commission": "none",
        "tie_pays": "8",
        "pair_pays": "11",
        "game": game,
        "taxe": "percent",
        "taxe_rate": "0.05",
        "shoe_charge": "0",
        "banco": "limitee",
        "clearing": "direct",
    } | changes


UPLOAD_PAGE_QUERIES = 3
IMPORT_QUERIES = 81  # the night's event, guests, shoes, hands, bets, coups, seats, totals, audit


def test_the_upload_page_imports_a_banked_night_in_the_same_queries_for_3_or_30_coups(
    client, host, django_assert_max_num_queries
):
    client.force_login(host)
    url = reverse("ledger:scoresheet_upload")
    with django_assert_max_num_queries(UPLOAD_PAGE_QUERIES):
        assert client.get(url).status_code == 200

    def upload(coups: int, name: str) -> None:
        # Each bank loses to the one ponte at its right and passes to him.
        seats = [(n, (n - 1) % 7 + 1, n % 7 + 1) for n in range(1, coups + 1)]
        rows = [
            f"1,{n},{ponte},G{ponte},,100,G{banker},{banker},100,,,,,P,,,,,,,"
            for n, banker, ponte in seats
        ]
        with django_assert_max_num_queries(IMPORT_QUERIES):
            response = client.post(url, upload_fields(csv_of(CHEMIN_HEADER, rows), event_name=name))
        event = Event.objects.get(name=name)
        assert response.url == reverse("ledger:event_detail", args=[event.pk])
        assert Coup.objects.filter(event=event).count() == coups

    upload(3, "Three")
    upload(30, "Thirty")
    assert ledger_problems() == []


def test_the_upload_page_refuses_a_cut_of_the_other_game(client, host):
    client.force_login(host)
    response = client.post(
        reverse("ledger:scoresheet_upload"),
        upload_fields(csv_of(CHEMIN_HEADER, CHEMIN_ROWS), taxe="capital"),
    )
    assert response.status_code == 200
    labels = dict(Event.Cut.choices)
    expected = MSG_CUT_OF_OTHER_GAME.format(
        game="Chemin de fer",
        cut=labels["capital"],
        first=labels["percent"],
        second=labels["per_shoe"],
    )
    assert escape(expected) in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize("game", [Game.CHEMIN_DE_FER, Game.BACCARA_BANQUE])
def test_each_games_template_downloads_and_imports(client, host, dealer, game):
    client.force_login(host)
    url = reverse("ledger:scoresheet_template")
    response = client.get(url, {"game": game.value})
    assert response["Content-Disposition"].endswith(f'-{game.value.replace("_", "-")}.csv"')
    content = response.content
    header = next(csv.reader(io.StringIO(content.decode())))
    assert header[:4] == ["shoe", "coup", "banker", "banker_seat"]
    taxe = Event.Cut.PERCENT if game is Game.CHEMIN_DE_FER else Event.Cut.CAPITAL
    response = client.post(
        reverse("ledger:scoresheet_upload"), upload_fields(content, game=game.value, taxe=taxe)
    )
    assert response.status_code == 302
    assert Event.objects.get().game == game.value
    assert ledger_problems() == []
    assert client.get(url, {"game": "roulette"}).status_code == 404
    client.force_login(dealer)
    assert client.get(url, {"game": game.value}).status_code == 403


def test_the_coups_sheet_imports_back_as_the_same_night(chemin, host):
    before = {row.guest.name: row.net for row in GuestEventResult.objects.filter(event=chemin)}
    content = workbook_bytes([chemin])
    checked = check_coup_sheet("night.xlsx", content, TABLE, CHEMIN)
    again = coup_sheet_import(
        coups=checked, name="Again", on=date(2026, 11, 21), table=TABLE, game=CHEMIN, by=host
    ).event
    after = {row.guest.name: row.net for row in GuestEventResult.objects.filter(event=again)}
    assert after == before
    fields = ("banker_seat", "bank", "covered", "move", "taken", "bank_after", "suite_seat")
    assert list(Coup.objects.filter(event=again).values_list(*fields)) == list(
        Coup.objects.filter(event=chemin).values_list(*fields)
    )
    assert ledger_problems() == []


def test_a_coup_recorded_at_the_table_with_a_co_banker_exports_both_halves(
    event, shoe, seated, host
):
    make_banked(event, Game.CHEMIN_DE_FER)
    record_coup(
        shoe,
        host,
        coup_entry([(3, "", 100)], result="P", banker_seat=1, bank=D(200), co_banker_seat=2),
    )
    row = sheet(workbook_bytes([event]), "Coups")[0]
    assert (row["banker_net"], row["co_banker_net"], row["net"]) == (-50, -50, 100)


@pytest.mark.parametrize(
    ("options", "content", "nets"),
    [
        (["--game", "chemin_de_fer"], csv_of(CHEMIN_HEADER, CHEMIN_ROWS), CHEMIN_NETS),
        (["--game", "baccara_banque", "--taxe", "capital"], csv_of(BANQUE_HEADER, BANQUE_ROWS),
         BANQUE_NETS),
    ],
    ids=["chemin", "banque"],
)  # fmt: skip
def test_the_import_command_takes_guest_banked_nights(tmp_path, host, options, content, nets):
    path = tmp_path / "night.csv"
    path.write_bytes(content)
    call_command(
        "import_scoresheet",
        str(path),
        "--event-name",
        "Paper",
        "--date",
        "2026-11-21",
        *options,
        stdout=StringIO(),
    )
    event = Event.objects.get()
    assert event.game == options[1]
    assert {row.guest.name: row.net for row in GuestEventResult.objects.all()} == nets
    assert ledger_problems() == []


def test_the_import_command_refuses_a_cut_of_the_other_game(tmp_path, host):
    path = tmp_path / "night.csv"
    path.write_bytes(csv_of(CHEMIN_HEADER, CHEMIN_ROWS))
    with pytest.raises(CommandError, match="does not take"):
        call_command(
            "import_scoresheet",
            str(path),
            "--event-name",
            "Paper",
            "--date",
            "2026-11-21",
            "--game",
            "chemin_de_fer",
            "--taxe",
            "capital",
        )
    assert not Event.objects.exists()


def test_a_baccara_banque_night_imports_with_the_events_default_settings(tmp_path, client, host):
    # No cut named: the game's usual one (5% of the capital), not Chemin de fer's percent.
    path = tmp_path / "night.csv"
    path.write_bytes(csv_of(BANQUE_HEADER, BANQUE_ROWS))
    call_command(
        "import_scoresheet", str(path), "--event-name", "Paper", "--date", "2026-11-21",
        "--game", "baccara_banque", stdout=StringIO(),
    )  # fmt: skip
    assert Event.objects.get().taxe == Event.Cut.CAPITAL
    assert {row.guest.name: row.net for row in GuestEventResult.objects.all()} == BANQUE_NETS
    # The upload page posts what it offers untouched: its cut box says "the game's usual cut".
    client.force_login(host)
    page = client.get(reverse("ledger:scoresheet_upload")).content.decode()
    taxe_box = page[page.index('name="taxe"') : page.index("</select>", page.index('name="taxe"'))]
    assert '<option value="" selected>' in taxe_box
    fields = upload_fields(csv_of(BANQUE_HEADER, BANQUE_ROWS), game="baccara_banque", taxe="")
    response = client.post(reverse("ledger:scoresheet_upload"), fields | {"event_name": "Web"})
    assert response.status_code == 302, response.content.decode()
    assert Event.objects.get(name="Web").taxe == Event.Cut.CAPITAL
    assert ledger_problems() == []


def test_a_guest_banked_nights_results_receipts_and_workbook_call_its_cut_the_taxe(
    client, host, chemin
):
    client.force_login(host)
    guest = Guest.objects.filter(events=chemin).first()
    pages = {
        name: client.get(reverse(name, args=args)).content.decode()
        for name, args in (
            ("ledger:event_detail", [chemin.pk]),
            ("ledger:event_guest_results", [chemin.pk]),
            ("ledger:event_share", [chemin.pk]),
            ("ledger:guest_receipt", [guest.pk, chemin.pk]),
        )
    }
    for name, page in pages.items():
        assert ">Taxe<" in page and ">Commission<" not in page, name
    assert "before the taxe; taxe" in pages["ledger:event_detail"]
    assert ">Taxe (¥)<" in pages["ledger:guest_receipt"]
    receipt = client.get(reverse("ledger:guest_receipt_pdf", args=[guest.pk, chemin.pk]))
    words = "".join(
        page.extract_text()
        for page in PdfReader(io.BytesIO(b"".join(receipt.streaming_content))).pages
    )
    assert "Taxe (¥)" in words and "Commission" not in words
    content = workbook_bytes([chemin])
    for title in ("Summary", "Guests"):
        assert "Taxe" in sheet(content, title)[0] and "Commission" not in sheet(content, title)[0]


def test_a_workbook_of_both_kinds_of_night_names_both_cuts(chemin, host):
    punto_banco = Event.objects.create(name="Punto Banco night", date=date(2026, 11, 28))
    content = workbook_bytes([chemin, punto_banco])
    assert "Commission or taxe" in sheet(content, "Summary")[0]
