"""One source for every figure (ledger.money.figures): the demos' nights — the reference night
(Punto Banco, counted), the Chemin de fer night, the night kept by its count alone and the
tournament — read the same on the House page, the season workbook, the shared results and the
event's pages, each figure worked out from the rules (docs/rules.md, docs/glossary.md)."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from games.models import Event
from ledger.models import Charge, ChipMove, GuestEventResult
from ledger.money.figures import night_figures, season_figures
from ledger.templatetags.money import chips, in_chips, in_chips_signed, percent, signed
from ledger.workbook.exports import workbook_bytes
from tests.conftest import insert_as_made
from tests.ledger.workbook.sheets import sheet_rows

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

COUNT_ONLY_NET = Decimal("-554.50")  # 430 − 880 − 500 + 285.50 + 110, the guests' counts
COUNT_ONLY_COMMISSION = Decimal("64.50")
TOURNAMENT_ENTRANTS = 14
TOURNAMENT_HOUSE = Decimal("92.50")  # 925 paid in (entries, rebuys, add-ons) less 832.50 in prizes


@pytest.fixture
def season(db, season_rows):
    insert_as_made(season_rows)
    return User.objects.get(username="host")


def night(name: str) -> Event:
    return Event.objects.nights().get(name=name)


def count_only() -> Event:
    return Event.objects.nights().get(count_setup__count_only=True)


def tournament_night() -> Event:
    return Event.objects.get(kind=Event.Kind.TOURNAMENT)


def test_the_one_source_adds_up_every_kind_of_night(season):
    counted = night_figures(count_only())
    assert counted.net == COUNT_ONLY_NET
    assert counted.house_net == -COUNT_ONLY_NET
    assert counted.commission == COUNT_ONLY_COMMISSION
    assert counted.gross == Decimal("-490.00")
    assert counted.handle is None  # no hand logged: the amount wagered is not known
    assert counted.drop == Decimal(1000 + 1500 + 500 + 1000 + 800)
    assert len(counted.guests) == 5
    assert all(g.gross is None and g.commission is None for g in counted.guests)
    tournament = night_figures(tournament_night())
    paid = Charge.objects.filter(event=tournament.event)
    assert tournament.house_net == -sum((c.amount for c in paid), Decimal(0))
    assert len(tournament.guests) == TOURNAMENT_ENTRANTS
    assert tournament.drop == -sum((c.amount for c in paid if c.kind != "prize"), Decimal(0))
    assert tournament.handle is None  # its tables bet tournament chips, not money
    for figures in season_figures(Event.objects.nights()).nights:
        rows = GuestEventResult.objects.filter(event=figures.event)
        assert figures.net == sum((r.net for r in rows), Decimal(0))
        assert figures.gross - figures.commission == figures.net


def test_the_drop_is_what_was_bought_in_and_the_hold_is_over_it(season):
    reference = night_figures(night("Reference night"))
    taken = ChipMove.objects.filter(
        event=reference.event, kind__in=[ChipMove.Kind.BUY_IN, ChipMove.Kind.TOP_UP]
    )
    drop = sum((move.chips for move in taken), Decimal(0))
    assert reference.drop == drop
    assert reference.handle != drop  # the amount wagered is the handle, not the drop
    assert reference.hold == (reference.house_net * 100 / drop).quantize(Decimal("0.01"))
    chemin = night_figures(Event.objects.nights().get(game="chemin_de_fer"))
    assert chemin.drop is None and chemin.hold is None  # nothing bought in was recorded


def summary_totals(content: bytes) -> dict[str, tuple]:
    rows = sheet_rows(content, "Summary")
    head = rows[0]
    totals = {row[0]: row for row in rows[1:] if row[head.index("Shoe")] == "Total"}
    return {name: dict(zip(head, row, strict=True)) for name, row in totals.items()}


def test_the_season_workbook_gives_the_tournaments_house_result(season):
    events = list(Event.objects.nights().order_by("date", "id"))
    totals = summary_totals(workbook_bytes(events))
    name = tournament_night().name
    assert Decimal(str(totals[name]["House net"])) == TOURNAMENT_HOUSE
    assert Decimal(str(totals[name]["Guests' net"])) == -TOURNAMENT_HOUSE
    season_total = sum(Decimal(str(row["House net"])) for row in totals.values())
    assert season_total == season_figures(events).house_net


def test_the_house_page_and_the_season_workbook_agree_night_by_night(season, client):
    client.force_login(season)
    page = client.get(reverse("ledger:house")).content.decode()
    events = list(Event.objects.nights().order_by("date", "id"))
    totals = summary_totals(workbook_bytes(events))
    figures = season_figures(events)
    for night_ in figures.nights:
        row = totals[night_.event.name]
        assert Decimal(str(row["House net"])) == night_.house_net
        assert Decimal(str(row[cut(row)])) == night_.commission
    summary = re.search(r'class="summary-line">(.*?)</p>', page, re.S).group(1)
    assert f"<strong>{signed(figures.house_net)}</strong>" in summary
    assert f"commission {chips(figures.commission)}" in summary
    assert f"drop {chips(figures.drop)}" in summary
    assert f"handle {chips(figures.handle)}" in summary


def cut(row: dict) -> str:
    return next(key for key in row if key in ("Commission", "Taxe", "Commission or taxe"))


def test_a_count_only_nights_commission_is_the_one_entered_everywhere(season, client):
    client.force_login(season)
    event = count_only()
    page = client.get(reverse("ledger:house")).content.decode()
    row = re.search(rf"<tr[^>]*>(?:(?!</tr>).)*{re.escape(event.name)}.*?</tr>", page, re.S)
    assert f'<td class="num">{chips(COUNT_ONLY_COMMISSION)}</td>' in row.group(0)
    drop = Decimal(1000 + 1500 + 500 + 1000 + 800)  # what the five bought in
    assert f'<td class="num">{chips(drop)}</td>' in row.group(0)
    hold = (-COUNT_ONLY_NET * 100 / drop).quantize(Decimal("0.01"))  # of the drop, never the handle
    assert percent(hold) == "11.55%" and "11.55%" in row.group(0)
    content = workbook_bytes([event])
    total = summary_totals(content)[event.name]
    assert Decimal(str(total[cut(total)])) == COUNT_ONLY_COMMISSION
    assert Decimal(str(total["Guests' gross"])) == COUNT_ONLY_NET + COUNT_ONLY_COMMISSION
    guests = sheet_rows(content, "Guests")
    head = guests[0]
    nets = [row[head.index("Net")] for row in guests[1:]]
    assert sum(Decimal(str(n)) for n in nets) == Decimal(str(total["Guests' net"]))
    # Each guest's gross is not known (the commission was entered for the night): left blank,
    # never a figure that sums differently from the Summary's.
    assert [row[head.index("Gross")] for row in guests[1:]] == [None] * 5


@pytest.mark.parametrize(
    ("which", "house", "guests"),
    [(count_only, "+$554.50", 5), (tournament_night, "+$92.50", TOURNAMENT_ENTRANTS)],
)
def test_shared_results_say_the_house_and_the_guests(
    season, client, monkeypatch, which, house, guests
):
    from games import services as game_services
    from ledger.guests.views import sharing

    event = which()
    game_services.event_results_link_issue(event=event)
    event.refresh_from_db()
    url = reverse("ledger:shared_results", args=[event.pk, event.results_token])
    page = client.get(url).content.decode()
    description = re.search(r'property="og:description" content="([^"]*)"', page).group(1)
    assert description.startswith(f"The house: {house}")
    assert f"· {guests} guests" in description
    assert page.count("<tr><td><bdi>") == guests  # each guest's net, best first
    total = re.search(r"<tfoot>.*?</tfoot>", page, re.S).group(0)
    figures = night_figures(event)
    assert in_chips(figures.house_net, "$") in total and in_chips(figures.net, "$") in total
    drawn = {}
    monkeypatch.setattr(
        sharing,
        "preview_png",
        lambda title, figure, caption, **kw: drawn.update(figure=figure) or b"",
    )
    client.get(reverse("ledger:shared_results_preview", args=[event.pk, event.results_token]))
    assert drawn["figure"] == house


def test_a_count_only_night_has_its_results_its_workbook_and_its_share_link(season, client):
    client.force_login(season)
    event = count_only()
    page = client.get(reverse("ledger:event_detail", args=[event.pk])).content.decode()
    assert reverse("ledger:event_workbook", args=[event.pk]) in page
    assert reverse("ledger:event_share", args=[event.pk]) in page
    assert reverse("ledger:event_guest_results", args=[event.pk]) in page
    results = re.search(r'<section id="results">.*?</section>', page, re.S).group(0)
    for figure in (
        in_chips_signed(-COUNT_ONLY_NET, "$"),  # the house
        in_chips(COUNT_ONLY_COMMISSION, "$"),
        in_chips(COUNT_ONLY_NET + COUNT_ONLY_COMMISSION, "$"),  # the guests' gross
    ):
        assert figure in results
    guests = client.get(reverse("ledger:event_guest_results", args=[event.pk])).content.decode()
    figures = night_figures(event)
    assert len(figures.guests) == 5
    for guest in figures.guests:
        assert guest.name in guests
        assert signed(guest.net) in guests
    workbook = client.get(reverse("ledger:event_workbook", args=[event.pk]))
    assert workbook.status_code == 200
    assert summary_totals(b"".join(workbook.streaming_content))[event.name]["House net"] == 554.5


def test_the_season_workbook_is_on_the_house_page_in_the_readers_language(season, client):
    from django.utils import translation

    client.force_login(season)
    page = client.get(reverse("ledger:house"), {"start": "2008-01-01", "end": "2008-12-31"})
    link = re.search(r'href="([^"]*season\.xlsx[^"]*)"', page.content.decode()).group(1)
    assert "start=2008-01-01" in link and "end=2008-12-31" in link
    english = b"".join(client.get(link.replace("&amp;", "&")).streaming_content)
    events = list(Event.objects.nights().order_by("date", "id"))
    assert sheet_rows(english, "Summary") == sheet_rows(workbook_bytes(events), "Summary")
    totals = summary_totals(english)
    assert (
        sum(Decimal(str(r["House net"])) for r in totals.values())
        == season_figures(events).house_net
    )
    response = client.get(link.replace("&amp;", "&"), HTTP_ACCEPT_LANGUAGE="ja")
    import io

    from openpyxl import load_workbook

    japanese = load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    with translation.override("ja"):
        from django.utils.translation import gettext

        assert japanese.sheetnames[0] == gettext("Summary") != "Summary"
        assert japanese.worksheets[0]["L1"].value == gettext("House net") != "House net"


def test_the_season_workbook_refuses_dates_it_cannot_read(season, client):
    from ledger.workbook.views import MSG_BAD_DATE

    client.force_login(season)
    response = client.get(reverse("ledger:season_workbook"), {"start": "26/07/2008"})
    assert response.status_code == 400
    assert response.content.decode() == MSG_BAD_DATE.format(text="26/07/2008")


def test_the_standings_are_the_seasons_figures_per_guest(season, client):
    client.force_login(season)
    page = client.get(reverse("ledger:standings")).content.decode()
    figures = season_figures(Event.objects.nights().order_by("date", "id"))
    body = re.search(r"<tbody[^>]*>(.*?)</tbody>", page, re.S).group(1)
    rows = re.findall(r"<tr[^>]*>.*?</tr>", body, re.S)
    assert len(rows) == len(figures.guests)
    for row, guest in zip(rows, figures.guests, strict=True):  # best net first
        assert guest.name in row and f">{signed(guest.net)}<" in row
    # A guest of the count-only night: their commission there is not known, so neither is
    # their season's (never a figure that leaves it out).
    counted = {g.guest_id for g in night_figures(count_only()).guests}
    assert all(g.commission is None for g in figures.guests if g.guest_id in counted)


def test_a_guest_banked_nights_house_result_is_its_cut(season):
    from ledger.models import Coup, Guest
    from ledger.money import transfers

    chemin = night_figures(Event.objects.nights().get(game="chemin_de_fer"))
    cut = sum((coup.house_cut for coup in Coup.objects.filter(event=chemin.event)), Decimal(0))
    assert chemin.commission == cut > 0
    assert chemin.house_net == cut  # the guests play each other: the house keeps its cut
    assert chemin.gross == 0  # what one guest won another lost, before the cut
    owed = next(
        line
        for line in transfers.proposed_transfers(chemin.event)
        if line.payer.guest_id and line.payee.guest_id
    )
    payer, payee = (Guest.objects.get(pk=p.guest_id) for p in (owed.payer, owed.payee))
    transfers.transfer_record(
        event=chemin.event, payer=payer, payee=payee, amount=owed.amount, by=season
    )
    after = night_figures(chemin.event)
    assert after.guest(payer.pk).transfers == owed.amount  # as the balance reads a payment
    assert after.guest(payee.pk).transfers == -owed.amount
    assert after.guest(payer.pk).net == chemin.guest(payer.pk).net  # a transfer is no result
    assert after.house_net == chemin.house_net


def test_the_season_workbooks_total_row_is_the_house_pages_season(season, client):
    client.force_login(season)
    page = client.get(reverse("ledger:house")).content.decode()
    summary = re.search(r'class="summary-line">(.*?)</p>', page, re.S).group(1)
    link = re.search(r'href="([^"]*season\.xlsx[^"]*)"', page).group(1).replace("&amp;", "&")
    response = client.get(link)
    rows = sheet_rows(b"".join(response.streaming_content), "Summary")
    head = rows[0]
    totals = [dict(zip(head, row, strict=True)) for row in rows if row[5] == "Season total"]
    assert len(totals) == 1 and rows[-1][5] == "Season total"
    words = ("Event", "Date", "Venue", "Rules", "Money per chip", "Shoe")
    total = {key: None if value is None else Decimal(str(value)) for key, value in totals[0].items()
             if key not in words}  # fmt: skip
    figures = season_figures(Event.objects.nights().order_by("date", "id"))
    assert total["House net"] == figures.house_net != 0
    assert f"<strong>{signed(total['House net'])}</strong>" in summary
    assert f"commission {chips(total[cut(total)])}" in summary
    assert f"drop {chips(total['Drop'])}" in summary
    assert f"hold {percent(total['Hold % of drop'])}" in summary
    assert f"handle {chips(total['Wagered'])}" in summary
    assert total["Hands"] == figures.hands
