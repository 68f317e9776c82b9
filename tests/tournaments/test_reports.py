"""A tournament's results: final standings, the workbook, the season's points and the house's cut,
each checked against figures worked out here from how the hands were played."""

from __future__ import annotations

import io
import zipfile
from collections import defaultdict
from datetime import date
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from games.models import Event
from games.tournament import table_sizes
from ledger.models import Guest
from tests.conftest import bet
from tests.ledger.workbook.sheets import only_our_totals
from tournaments import services
from tournaments.exports import tournament_workbook_bytes
from tournaments.models import Entrant, Tournament
from tournaments.results import event_pools, season_standings, tournament_report

pytestmark = pytest.mark.django_db

STACK = Decimal(1000)
# play_round: seat n stakes n × 10 on Banker, and Banker wins, paying 0.95: +9.5 n a hand.
GAIN_PER_HAND = Decimal("9.5")
SIX_PLAYERS = ["Aki", "Ben", "Cho", "Dee", "Eri", "Fum"]


@pytest.fixture
def finished(make_tournament, add_round, host, play_round):
    """A tournament played to the end through the services: ``heats`` heats (one player per
    table goes out of each), then a final table of everyone left."""

    def build(players=SIX_PLAYERS, *, heats=1, hands=2, final_hands=2, finish=True, **settings):
        tournament = make_tournament(players=players, **settings)
        left = len(players)
        for _ in range(heats):
            per_table = min(table_sizes(left)) - 1
            round_ = add_round(tournament, hands=hands, per_table=per_table)
            services.round_draw(round_=round_, by=host, seed=round_.number)
            round_ = services.round_start(round_=round_, by=host)
            play_round(round_)
            services.round_close(round_=round_, by=host)
            left = tournament.entrants.filter(out_after_round__isnull=True).count()
        final = add_round(tournament, hands=final_hands, is_final=True)
        if finish:
            services.round_draw(round_=final, by=host, seed=99)
            final = services.round_start(round_=final, by=host)
            play_round(final)
            services.round_close(round_=final, by=host)
        tournament.refresh_from_db()
        return tournament

    return build


def expected_stack(brought: Decimal, seat: int, hands: int = 2) -> Decimal:
    return brought + GAIN_PER_HAND * seat * hands


def seat_of(tournament: Tournament, round_number: int) -> dict[int, int]:
    """Entrant id -> seat in a round."""
    round_ = tournament.rounds.get(number=round_number)
    return dict(round_.seats.values_list("entrant_id", "seat"))


# --- the final standings --------------------------------------------------------------------


def test_final_standings_have_places_prizes_and_every_rounds_stack(finished):
    # One hand, then seven at the final: 9.5 × heat seat + 66.5 × final seat never ties.
    tournament = finished(stacks="carried", hands=1, final_hands=7)
    report = tournament_report(tournament)
    heat, final = seat_of(tournament, 1), seat_of(tournament, 2)
    # Six players at one table: seat 6 goes out; the other five carry their stacks.
    assert [line.place for line in report.lines] == [1, 2, 3, 4, 5, None]
    for line in report.lines:
        after_heat = expected_stack(STACK, heat[line.entrant_id], hands=1)
        assert line.stacks[0] == after_heat
        if line.entrant_id in final:
            assert line.stacks[1] == expected_stack(after_heat, final[line.entrant_id], hands=7)
        else:
            assert line.stacks[1] is None and line.out_after_round == 1
        assert line.paid_in == Decimal(50) and line.net == line.prize - Decimal(50)
    finalists = [line for line in report.lines if line.entrant_id in final]
    by_stack = sorted(finalists, key=lambda line: -line.stacks[1])
    assert [line.entrant_id for line in by_stack] == [line.entrant_id for line in finalists]
    # 6 × 50 paid in, 10% to the house: 270 paid by 50%, 30%, 20%.
    assert report.pool.cut == Decimal("30.00") and report.pool.pool == Decimal("270.00")
    assert [line.prize for line in report.lines[:4]] == [
        Decimal("135.00"),
        Decimal("81.00"),
        Decimal("54.00"),
        Decimal("0.00"),
    ]
    assert report.pool.house_net == Decimal("30.00")


def test_standings_so_far_say_who_went_out_after_which_round(finished):
    tournament = finished([*SIX_PLAYERS, "Gen", "Hal"], finish=False)  # two tables of four
    report = tournament_report(tournament)
    still_in = [line for line in report.lines if line.out_after_round is None]
    out = [line for line in report.lines if line.out_after_round == 1]
    assert len(still_in) == 6 and len(out) == 2
    assert report.lines[:6] == still_in  # those still in come first, biggest stack first
    assert [line.last_stack for line in still_in] == sorted(
        (line.last_stack for line in still_in), reverse=True
    )
    assert all(line.place is None and line.prize == 0 for line in report.lines)
    assert all(seat.went_on is (seat.name not in {o.name for o in out}) for seat in report.seats)


def test_rebuys_and_add_ons_are_counted_with_what_each_paid_in(
    make_tournament, add_round, host, play
):
    tournament = make_tournament(
        players=["Aki", "Ben"],
        rebuy_price=Decimal(40),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=1,
        add_on_price=Decimal(20),
        add_on_chips=Decimal(500),
        add_on_round=1,
    )
    round_ = add_round(tournament, hands=2)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = Entrant.objects.get(tournament=tournament, guest__name="Aki")
    aki_seat = table.seats.get(entrant=aki).seat
    play(table, "P", {aki_seat: ("banker", 1000)})
    services.rebuy(entrant=aki, by=host)
    services.add_on(entrant=aki, by=host)
    report = tournament_report(tournament)
    lines = {line.name: line for line in report.lines}
    assert (lines["Aki"].rebuys, lines["Aki"].add_ons) == (1, 1)
    assert lines["Aki"].paid_in == Decimal(110) and lines["Ben"].paid_in == Decimal(50)
    assert lines["Aki"].stacks == [Decimal(1500)]
    assert report.pool.paid_in == Decimal(160)


def test_the_pools_agree_with_the_services_for_several_tournaments(finished):
    plain = finished()
    fixed = finished(["Ivy", "Jun", "Kai"], cut_percent=Decimal("12.5"), cut_fixed=Decimal(5))
    pools = event_pools([plain.event_id, fixed.event_id])
    for tournament in (plain, fixed):
        pool = pools[tournament.event_id]
        assert (pool.cut, pool.pool) == services.tournament_pool(tournament)
    assert pools[fixed.event_id].configured_cut == "12.5% + 5 per entry"
    assert pools[plain.event_id].configured_cut == "10%"


def test_the_standings_page_for_staff_only_in_constant_queries(
    client, host, dealer, outsider, finished, django_assert_max_num_queries
):
    small = finished()
    big = finished([f"Big {n:02d}" for n in range(1, 15)], heats=3, add_on_round=0)
    url = reverse("tournament_reports:standings", args=[small.pk])
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(dealer)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    assert "Final standings" in page and "out after round 1" in page
    assert "<td>135</td>" in page  # first place's prize
    assert "workbook" not in page  # the download is the host's
    with django_assert_max_num_queries(len(queries)):
        page = client.get(reverse("tournament_reports:standings", args=[big.pk]))
    assert page.content.decode().count("<tr>") == 1 + 14
    assert len(queries) <= 12
    client.force_login(host)
    page = client.get(url).content.decode()
    assert reverse("tournament_reports:workbook", args=[small.pk]) in page
    assert client.get(reverse("tournament_reports:standings", args=[999999])).status_code == 404


# --- the workbook ---------------------------------------------------------------------------


def sheet(workbook, name):
    return list(workbook[name].iter_rows(min_row=2, values_only=True))


def test_the_workbook_sheets_add_up(finished):
    tournament = finished([*SIX_PLAYERS, "Gen", "Hal"], stacks="carried")
    content = tournament_workbook_bytes(tournament)
    workbook = load_workbook(io.BytesIO(content), data_only=True)  # the totals' cached values
    assert workbook.sheetnames == ["Event", "Rounds", "Tables", "Hands", "Prizes"]
    formulas = list(load_workbook(io.BytesIO(content))["Prizes"].iter_rows(values_only=True))
    total_row = next(row for row in formulas if row[1] == "Total")
    assert total_row[2:5] == ("=SUM(C2:C10)", "=SUM(D2:D10)", "=SUM(E2:E10)")  # 8 players, 1 blank
    rounds = sheet(workbook, "Rounds")
    assert [row[0] for row in rounds] == [1, 2]
    assert rounds[0][6:9] == (2, 8, 6)  # tables, players, went on
    assert len(rounds[0][9].split(", ")) == 6
    # Per table: the hands' net is how far the stacks moved from what was brought and bought.
    moved: dict[tuple[int, int], float] = defaultdict(float)
    for row in sheet(workbook, "Tables"):
        round_, table, brought, rebuy_chips, add_on_chips, final = (
            row[0], row[1], row[4], row[7], row[9], row[10],
        )  # fmt: skip
        moved[(round_, table)] += final - brought - rebuy_chips - add_on_chips
    netted: dict[tuple[int, int], float] = defaultdict(float)
    for row in sheet(workbook, "Hands"):
        assert isinstance(row[11], int | float)  # the stake, a number
        netted[(row[0], row[1])] += row[14]
    assert set(netted) == {(1, 1), (1, 2), (2, 1)}
    assert netted == pytest.approx(moved)
    hands_per_table = defaultdict(set)
    for row in sheet(workbook, "Hands"):
        hands_per_table[(row[0], row[1])].add(row[2])
    assert all(hands == {1, 2} for hands in hands_per_table.values())
    prizes = sheet(workbook, "Prizes")
    players = prizes[: prizes.index((None,) * 7)]  # a blank row, then the totals
    assert len(players) == 8 and {row[3] for row in players} == {50}
    cut, pool = services.tournament_pool(tournament)
    assert sum(row[2] for row in players) == pytest.approx(float(pool))
    labelled = {row[1]: row for row in prizes if row[0] is None and row[1]}
    assert labelled["Prize pool"][2] == pytest.approx(float(pool))
    assert labelled["House's cut"][2] == pytest.approx(float(cut))
    assert labelled["Total"][3] == pytest.approx(8 * 50)
    styles = workbook["Prizes"]
    assert styles["C2"].number_format == '"$"#,##0.00;[Red]-"$"#,##0.00'
    # In yen too, at the night's rate, each player's net and the total.
    rate = float(tournament.event.money_per_chip)
    assert all(row[5] == pytest.approx(row[4] * rate) for row in players)
    assert labelled["Total"][5] == pytest.approx(labelled["Total"][4] * rate)
    event = {row[0]: row for row in sheet(workbook, "Event")}
    assert event["Event"][3] == tournament.event.name
    assert event["Prize pool"][1:3] == pytest.approx((float(pool), float(pool) * rate))
    assert event["Paid in"][1] == pytest.approx(8 * 50)


def test_a_name_like_a_formula_stays_text(finished):
    tournament = finished(["=1+1", "+2", "@SUM(A1)", 'HYPERLINK("x")'])
    Guest.objects.filter(name='HYPERLINK("x")').update(name='=HYPERLINK("http://evil.example")')
    content = tournament_workbook_bytes(tournament)
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        sheets = [
            archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/")
        ]
    assert only_our_totals(sheets)  # no formula but the totals' SUMs of the sheet's own cells
    workbook = load_workbook(io.BytesIO(content))
    names = {row[3] for row in sheet(workbook, "Tables")}
    assert {"=1+1", "+2", "@SUM(A1)", '=HYPERLINK("http://evil.example")'} <= names
    cell = next(row[3] for row in workbook["Tables"].iter_rows(min_row=2) if row[3].value == "=1+1")
    assert cell.data_type == "s"
    assert {row[9] for row in sheet(workbook, "Hands")} >= {"=1+1"}


def test_the_workbook_is_the_hosts_in_constant_queries(
    client, host, dealer, finished, django_assert_max_num_queries
):
    small = finished()
    big = finished([f"Big {n:02d}" for n in range(1, 15)], heats=3)
    client.force_login(dealer)
    assert client.get(reverse("tournament_reports:workbook", args=[small.pk])).status_code == 403
    client.force_login(host)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("tournament_reports:workbook", args=[small.pk]))
        b"".join(response.streaming_content)
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    assert "Spring cup.xlsx" in response["Content-Disposition"]
    with django_assert_max_num_queries(len(queries)):
        response = client.get(reverse("tournament_reports:workbook", args=[big.pk]))
        content = b"".join(response.streaming_content)
    rounds = sheet(load_workbook(io.BytesIO(content)), "Rounds")
    assert len(rounds) == 4


# --- the season -----------------------------------------------------------------------------


def finish_on(build, day: date, players, **settings) -> Tournament:
    tournament = build(players, **settings)
    Event.objects.filter(pk=tournament.event_id).update(date=day)
    return tournament


def test_season_points_follow_each_tournaments_points_table(finished, seated, shoe, record):
    # A cash night: Aki wins 100 on Player, Chie loses 50 on Banker.
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(3, "banker", 50)])
    first = finish_on(finished, date(2026, 4, 1), SIX_PLAYERS, points_table="10, 6, 3")
    second = finish_on(finished, date(2026, 5, 1), SIX_PLAYERS[:4], points_table="5 4 3 2 1")
    finish_on(finished, date(2025, 1, 1), SIX_PLAYERS, points_table="100")  # out of range
    places = {t.pk: dict(t.entrants.values_list("guest__name", "place")) for t in (first, second)}
    expected_points: dict[str, int] = defaultdict(int)
    tables = {first.pk: [10, 6, 3], second.pk: [5, 4, 3, 2, 1]}
    for pk, by_name in places.items():
        for name, place in by_name.items():
            if place is not None and place <= len(tables[pk]):
                expected_points[name] += tables[pk][place - 1]
    events = Event.objects.nights().filter(date__gte=date(2026, 1, 1))
    lines = {line.name: line for line in season_standings(events)}
    for name in SIX_PLAYERS:
        assert lines[name].points == expected_points[name]
    assert lines["Aki"].played == 2 and lines["Eri"].played == 1
    best = {
        name: min(p for p in (places[first.pk].get(name), places[second.pk].get(name)) if p)
        for name in SIX_PLAYERS
        if places[first.pk].get(name) or places[second.pk].get(name)
    }
    assert {name: lines[name].best for name in best} == best
    money = {name: Decimal(-100) for name in SIX_PLAYERS[:4]} | {
        "Eri": Decimal(-50),
        "Fum": Decimal(-50),
    }
    money["Aki"] += 100
    for tournament in (first, second):
        for name, prize in tournament.entrants.values_list("guest__name", "prize"):
            money[name] += prize or 0
    assert {name: lines[name].net for name in SIX_PLAYERS} == money
    ordered = [line.points for line in season_standings(events)]
    assert ordered == sorted(ordered, reverse=True)
    chie = lines["Chie"]  # cash only
    assert (chie.net, chie.points, chie.played, chie.best) == (Decimal(-50), 0, 0, None)


def test_the_season_page_sorts_by_points_in_constant_queries(
    client, dealer, outsider, finished, django_assert_max_num_queries
):
    finish_on(finished, date(2026, 4, 1), SIX_PLAYERS)
    url = reverse("tournament_reports:season")
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(dealer)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    assert "Season standings" in page and "Points" in page
    for day in (date(2026, 5, 1), date(2026, 6, 1), date(2026, 7, 1)):
        finish_on(finished, day, [*SIX_PLAYERS[:3], "Lee", "Max"])
    with django_assert_max_num_queries(len(queries)):
        page = client.get(url, {"sort": "points"}).content.decode()
    rows = season_standings(Event.objects.nights())
    lowest = min(rows, key=lambda line: (line.points, -line.net))
    highest = max(rows, key=lambda line: line.points)
    assert page.index(f">{lowest.name}<") < page.index(f">{highest.name}<")
    by_points = client.get(url).content.decode()
    assert by_points.index(f">{highest.name}<") < by_points.index(f">{lowest.name}<")
    assert client.get(url, {"start": "nonsense"}).status_code == 200
    ledger = client.get(reverse("ledger:standings")).content.decode()
    assert url in ledger


# --- the house ------------------------------------------------------------------------------


def test_the_house_page_labels_a_tournament_with_its_cut_and_pool(
    client, host, finished, seated, shoe, record, django_assert_max_num_queries
):
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])
    tournament = finished(cut_fixed=Decimal(2))
    client.force_login(host)
    url = reverse("ledger:house")
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    # 6 × 50 = 300 paid in: 10% is 30, plus 2 an entry is 42; 258 left for the prizes.
    assert "house&#x27;s cut 42 (10% + 2 per entry) · prize pool 258" in page
    assert page.count('class="tag kind-tag">Tournament<') == 1
    assert reverse("tournament_reports:standings", args=[tournament.pk]) in page
    for _ in range(3):
        finished(["Ivy", "Jun", "Kai"])
    with django_assert_max_num_queries(len(queries)):
        page = client.get(url).content.decode()
    assert page.count('class="tag kind-tag">Tournament<') == 4
    assert page.count("prize pool 135 <a") == 3  # 3 × 50, less 10%
