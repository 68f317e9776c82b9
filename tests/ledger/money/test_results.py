from __future__ import annotations

import io
import re
import uuid
from datetime import date, timedelta
from decimal import Decimal
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from games import services as game_services
from games.models import Event, Hand
from games.rules import Winner
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Settlement
from ledger.money import services as money_services
from ledger.money.results import (
    event_guest_results,
    event_settlement,
    event_shoe_rows,
    guest_balances,
    guest_history,
    house_rows,
    standings,
)
from ledger.workbook.exports import workbook_bytes
from tests.conftest import bet, entry

D = Decimal
pytestmark = pytest.mark.django_db


def test_the_demo_event_page_reads_like_the_reference_table(client, demo_night):
    assert client.login(username="host", password="shoebook-demo")
    page = client.get(reverse("ledger:event_detail", args=[demo_night.pk])).content.decode()
    for gross, commission in [
        ("$280", "$59.50"),
        ("−$680", "$64"),
        ("$480", "$75"),
        ("$840", "$59.50"),
        ("−$320", "$55.50"),
        ("$440", "$72.50"),
    ]:
        assert f"<td>{gross}</td><td>{commission}</td>" in page
    assert "<th>$1,040</th><th>$386</th>" in page
    assert "the house −$654 = <strong>−¥65,400</strong>" in page
    assert "Guests +$1,040 (¥104,000) before commission;" in page
    assert "commission $386 (¥38,600)" in page
    assert "<svg" in page  # the per-shoe chart, drawn on the server


@pytest.fixture
def night(seated, shoe, record, host):
    """Two shoes: Aki wins 100 then loses 50; Ben's Banker bets win twice (5% commission)."""
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100), bet(2, "banker", 40)])
    record(shoe, "8 K", "9 K", [bet(1, "player", 50), bet(2, "banker", 60)])
    game_services.mark_shoe_closed(shoe=shoe, by=host)
    second = game_services.shoe_start(event=shoe.event, by=host)
    hand_services.seat_guest(shoe=second, seat=2, guest=seated[2], by=host)
    record(second, "8 K", "9 K", [bet(2, "banker", 200)])
    return shoe.event


def test_per_shoe_rows_and_totals_in_chips_and_money(night):
    rows, totals = event_shoe_rows(night)
    assert [
        (r.number, r.hands, r.figures.wagered, r.figures.gross, r.figures.commission, r.figures.net)
        for r in rows
    ] == [
        (1, 2, D("250.00"), D("70.00"), D("3.00"), D("67.00")),
        (2, 1, D("200.00"), D("200.00"), D("10.00"), D("190.00")),
    ]
    assert (totals.hands, totals.figures.net, totals.figures.house_net) == (
        3,
        D("257.00"),
        D("-257.00"),
    )
    assert totals.house_net_money == D("-25700")  # ¥100 per chip


def test_per_guest_results_with_shoes_hands_and_extremes(night):
    aki, ben = event_guest_results(night)
    assert (aki.name, aki.hands, aki.figures.net, aki.biggest_win, aki.biggest_loss) == (
        "Aki",
        2,
        D("50.00"),
        D("100.00"),
        D("-50.00"),
    )
    assert (ben.hands, ben.figures.commission, ben.figures.net) == (3, D("13.00"), D("207.00"))
    assert {n: f.net for n, f in ben.by_shoe.items()} == {1: D("17.00"), 2: D("190.00")}


def test_the_guest_results_page_is_sortable(client, host, night):
    client.force_login(host)
    url = reverse("ledger:event_guest_results", args=[night.pk])
    by_net = client.get(url, {"sort": "-net"}).content.decode()
    assert by_net.index("Ben") < by_net.index("Aki")
    by_name = client.get(url, {"sort": "name"}).content.decode()
    assert by_name.index(">Aki<") < by_name.index(">Ben<")
    assert "+190" in by_name  # Ben's second shoe in the matrix


def test_settlement_carries_over_with_partial_payments(night, make_event, host, guests):
    aki, ben = guests[0], guests[1]
    money_services.settlement_record(
        guest=ben, event=night, amount=D("-150"), method="cash", by=host
    )
    lines = {line.name: line for line in event_settlement(night)}
    assert (lines["Ben"].result, lines["Ben"].settled, lines["Ben"].after) == (
        D("207.00"),
        D("-150.00"),
        D("57.00"),
    )
    assert lines["Ben"].after_money == {"JPY": D("5700")}
    assert lines["Chie"].after == 0

    next_week = make_event(name="Next week", date=night.date + timedelta(days=7))
    for guest in (aki, ben):
        guest_services.event_guest_add(event=next_week, name=guest.name, by=host)
    money_services.settlement_record(
        guest=ben, event=next_week, amount=D("-57"), method="tab", by=host
    )
    carried = {line.name: line for line in event_settlement(next_week)}
    assert (carried["Ben"].before, carried["Ben"].after) == (D("57.00"), D("0.00"))
    assert carried["Aki"].before == D("50.00")
    assert guest_balances()[ben.pk] == D("0.00")


def test_settlements_are_checked(night, host, guests):
    with pytest.raises(Exception, match="other than zero"):
        money_services.settlement_record(
            guest=guests[0], event=night, amount=D(0), method="cash", by=host
        )
    with pytest.raises(Exception, match="what “other” was"):
        money_services.settlement_record(
            guest=guests[0], event=night, amount=D(5), method="other", by=host
        )
    assert not Settlement.objects.exists()


def test_the_host_records_a_settlement_from_the_event_page(client, host, night, guests):
    client.force_login(host)
    response = client.post(
        reverse("ledger:settlement_record", args=[night.pk]),
        {
            "guest": guests[1].pk,
            "direction": "house_paid",
            "amount": "100",
            "method": "credit",
            "note": "next bill",
            "idempotency_key": str(uuid.uuid4()),
        },
    )
    assert response.status_code == 302
    settlement = Settlement.objects.get()
    assert (settlement.amount, settlement.method, settlement.recorded_by) == (
        D("-100.00"),
        "credit",
        host,
    )
    refused = client.post(
        reverse("ledger:settlement_record", args=[night.pk]),
        {
            "guest": guests[1].pk,
            "direction": "house_paid",
            "amount": "-5",
            "method": "cash",
            "idempotency_key": str(uuid.uuid4()),
        },
        follow=True,
    )
    assert "Type an amount in chips, such as 298.50" in refused.content.decode()
    assert Settlement.objects.count() == 1


def test_a_guests_history_is_the_sum_of_their_rows(night, host, guests, make_event):
    ben = guests[1]
    money_services.settlement_record(guest=ben, event=night, amount=D("-7"), method="cash", by=host)
    history = guest_history(ben)
    assert [point.balance for point in history.points] == [D("200.00")]
    assert history.balance_money == {"JPY": D("20000")}
    assert [number for number, _ in history.shoes[night.pk]] == [1, 2]


def test_standings_and_the_house_over_a_date_range(night, make_event, host):
    old = make_event(name="Long ago", date=date(2020, 1, 1))
    guest = guest_services.event_guest_add(event=old, name="Zed", by=host)
    shoe = game_services.shoe_start(event=old, by=host)
    hand_services.seat_guest(shoe=shoe, seat=1, guest=guest, by=host)
    hand_services.record_hand(
        shoe=shoe,
        entry=entry("", "", [bet(1, "player", 500)], result=Winner.PLAYER),
        number=1,
        by=host,
    )
    everything = standings(Event.objects.all())
    assert [(s.name, s.net) for s in everything] == [
        ("Zed", D("500.00")),
        ("Ben", D("207.00")),
        ("Aki", D("50.00")),
    ]
    recent = standings(Event.objects.filter(date__gte=date(2026, 1, 1)))
    assert [s.name for s in recent] == ["Ben", "Aki"]
    (row,) = house_rows(Event.objects.filter(pk=night.pk))
    assert (row.figures.house_net, row.figures.commission, row.figures.wagered) == (
        D("-257.00"),
        D("13.00"),
        D("450.00"),
    )
    assert (
        row.hold is None
    )  # nothing bought in was recorded: no drop, no hold (never of the handle)
    Hand.objects.filter(shoe__event=night).update(logged_at=timezone.now())
    first = Hand.objects.filter(shoe__event=night).order_by("pk").first()
    Hand.objects.filter(pk=first.pk).update(logged_at=timezone.now() - timedelta(minutes=2))
    (row,) = house_rows(Event.objects.filter(pk=night.pk))
    assert row.hands_per_hour == D("60.0")  # 2 hands after the first, in 2 minutes


def test_the_standings_and_house_pages_filter_by_date(client, host, night):
    client.force_login(host)
    page = client.get(reverse("ledger:standings"), {"start": "2026-01-01"}).content.decode()
    assert "Ben" in page and "+207" in page
    empty = client.get(reverse("ledger:standings"), {"end": "2000-01-01"}).content.decode()
    assert "Ben" not in empty
    house = client.get(reverse("ledger:house")).content.decode()
    assert "House net <strong>−257</strong>" in house
    bad = client.get(reverse("ledger:standings"), {"start": "not a date"})
    assert bad.status_code == 200
    assert "Enter a valid date." in bad.content.decode()


def test_one_balance_has_one_yen_figure_whatever_the_rates(make_event, host, record):
    """Each event's chips at that event's rate: the guest's page and the settlement list agree."""
    high = make_event(name="Yen night", money_per_chip=D(100))
    low = make_event(name="Cheap night", date=date(2026, 11, 21), money_per_chip=D(1))
    aki = guest_services.event_guest_add(event=high, name="Aki", by=host)
    guest_services.event_guest_add(event=low, name="Aki", by=host)
    for event, cards in ((high, ("8 K", "9 K")), (low, ("9 K", "8 K"))):
        shoe = game_services.shoe_start(event=event, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        record(shoe, *cards, [bet(1, "player", 100)])  # loses 100 at ¥100, then wins 100 at ¥1
        game_services.mark_shoe_closed(shoe=shoe, by=host)
    money_services.settlement_record(guest=aki, event=low, amount=D(20), method="cash", by=host)
    expected = {"JPY": D(-100 * 100 + 100 * 1 + 20 * 1)}
    assert guest_history(aki).balance_money == expected
    [line] = event_settlement(low)
    assert (line.after, line.after_money) == (D(20), expected)


def test_the_workbook_shows_the_same_yen_balance(demo_night, host):
    guest = demo_night.guests.first()
    money_services.settlement_record(
        guest=guest, event=demo_night, amount=D(10), method="cash", by=host
    )
    rows = load_workbook(io.BytesIO(workbook_bytes([demo_night])))["Guests"]
    header, *lines = list(rows.iter_rows(values_only=True))
    line = next(line for line in event_settlement(demo_night) if line.guest_id == guest.pk)
    row = next(row for row in lines if row[1] == guest.name)
    assert row[header.index("Balance after (¥)")] == line.after_money["JPY"]
    assert line.after_money == guest_history(guest).balance_money


@pytest.mark.parametrize(
    "rates", [(D(100), D(200)), (D(100), D("0.5")), (D(150), D(150)), (D("0.01"), D(300))]
)
def test_the_yen_carried_in_is_rounded_night_by_night_whatever_the_rates(
    make_event, host, record, rates
):
    """Whole yen per cent: summed per rate; any other rate: night by night. The same figure."""
    nights = [
        make_event(name=f"Night {n}", date=date(2026, 11, 1 + n), money_per_chip=rate)
        for n, rate in enumerate((*rates, D(100)))
    ]
    aki = guest_services.event_guest_add(event=nights[0], name="Aki", by=host)
    for night, stake in zip(nights, ("10.05", "20.15", "15"), strict=True):
        guest_services.event_guest_add(event=night, name="Aki", by=host)
        shoe = game_services.shoe_start(event=night, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        record(shoe, "8 K", "9 K", [bet(1, "banker", stake)])  # a banker win: commission
        game_services.mark_shoe_closed(shoe=shoe, by=host)
        money_services.settlement_record(
            guest=aki, event=night, amount=D("0.03"), method="cash", by=host
        )
    [line] = event_settlement(nights[-1])
    assert line.after_money == guest_history(aki).balance_money


def test_a_count_only_nights_summary_line_is_worded_as_every_nights(client, demo_night):
    call_command("load_demo_count", stdout=StringIO())
    event = Event.objects.get(name="Count-only night")
    client.force_login(User.objects.get(username="host"))
    page = client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    line = re.search(r'<p class="summary-line">(.*?)</p>', page, re.S)
    assert line is not None
    assert "before the commission" not in line[1]
    assert re.search(r"Guests \S+ \(−?¥[\d,]+\) before commission; commission \S+ \(¥", line[1])
