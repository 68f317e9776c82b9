"""The tournament pages under attack: what a careless or hostile host, a dealer or a stale tab
sends. Every answer is a clear one (the form again with its message, a message on the page, or
a 4xx) and nothing is half written: the database is checked after each."""

from __future__ import annotations

import uuid
from decimal import Decimal
from io import BytesIO

import pytest
from django.urls import reverse
from django.utils.html import escape
from openpyxl import load_workbook

from games import services as game_services
from games.models import Event, Hand, Shoe
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.hands.selectors import seating_of
from ledger.models import Bet, Charge, Guest, StackRow
from ledger.nights import services as night_services
from tests.ledger.workbook.sheets import SUM_OF_CELLS
from tests.pages import HTMX, hand_data, text
from tests.tournaments.conftest import open_shoe
from tests.tournaments.pages import ROUND, SETUP, errors_of, message_texts, url
from tournaments import services
from tournaments.models import Entrant, Round, TableSeat, Tournament, TournamentTable

pytestmark = pytest.mark.django_db


def counts() -> dict[str, int]:
    """How many rows of each kind a refused request must leave as they were."""
    models = (Event, Tournament, Round, TournamentTable, TableSeat, Entrant, Shoe, Hand, Bet)
    return {model.__name__: model.objects.count() for model in models} | {
        "StackRow": StackRow.objects.count(),
        "Charge": Charge.objects.count(),
        "Guest": Guest.objects.count(),
    }


# --- the setup form -------------------------------------------------------------------------

MONEY = ["entry_fee", "cut_fixed", "starting_stack", "rebuy_price", "rebuy_chips"]
WHOLE = ["rebuy_rounds", "rebuy_until_hand", "max_rebuys", "add_on_round", "decks"]
NOT_AMOUNTS = ["1e30", "-5", "NaN", "12.345", "Infinity", "100000000000", "1_000", "0x10"]
NOT_COUNTS = ["1e30", "-5", "NaN", "12.5", "40000", "99999999999999999999", "Infinity"]


@pytest.mark.parametrize(
    ("field", "value"),
    [(field, value) for field in MONEY for value in NOT_AMOUNTS]
    + [(field, value) for field in WHOLE for value in NOT_COUNTS]
    + [(field, "") for field in [*MONEY, *WHOLE, "cut_percent"]]
    + [("cut_percent", value) for value in ["100.001", "-5", "NaN", "1e30", "12.345", "101"]]
    + [("starting_stack", "0"), ("money_per_chip", "1e30"), ("money_per_chip", "NaN")]
    + [("stacks", "kept"), ("advancement", ""), ("tie_break", "coin"), ("secret_bet", "1")]
    + [("mandatory_side", "tie"), ("short_stack", "maybe"), ("prize_table", "1%" * 201)]
    + [("points_table", "10, 7, x")]
    + [("points_table", "=1+1"), ("date", "2026-02-30"), ("currency_symbol", "\x00")],
)
def test_a_setting_no_one_could_mean_comes_back_on_its_field(client, host, field, value):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | {field: value})
    assert response.status_code == 200
    forms = response.context["night"], response.context["form"]
    form = next(form for form in forms if field in form.fields)
    assert list(form.errors) == [field], form.errors
    assert errors_of(text(response))
    assert counts() == dict.fromkeys(counts(), 0) | {"Guest": 0}


@pytest.mark.parametrize(
    ("field", "typed", "stored"),
    [
        ("starting_stack", "１０００", Decimal(1000)),  # full-width digits, as a phone may type
        ("entry_fee", "１，０００", Decimal(1000)),
        ("entry_fee", " 50 ", Decimal(50)),
        ("cut_percent", "100", Decimal(100)),
        ("cut_percent", "12.34", Decimal("12.34")),
        ("max_rebuys", "１", 1),
    ],
)
def test_what_a_host_may_type_is_read(client, host, field, typed, stored):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | {field: typed})
    assert response.status_code == 302, response.context and [
        f.errors for f in (response.context["night"], response.context["form"])
    ]
    assert getattr(Tournament.objects.get(), field) == stored


@pytest.mark.parametrize(
    ("prizes", "ok"),
    [
        ("100%", True),
        ("50%,50%", True),
        ("0%", False),
        ("100.001%", False),
        (", ".join(["2%"] * 50), True),
        (", ".join(["2%"] * 50 + ["0%"]), False),  # 51 places, the last paying nothing
        (", ".join(["1.96%"] * 51) + ", 0.04%", False),
        ("-50%, 150%", False),
        ("NaN%", False),
        ("1e30", False),
        ("50%, 30", False),  # percentages and amounts mixed
        ("", False),
        ("=cmd|' /C calc'!A0", False),
    ],
)
def test_a_prize_table_is_read_or_refused_on_its_field(client, host, prizes, ok):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | {"prize_table": prizes})
    if ok:
        assert response.status_code == 302
        assert Tournament.objects.get().prize_table == prizes
        page = text(client.get(response.url))
        assert page.count("<td") >= 1
        return
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["prize_table"]
    assert not Event.objects.exists()


def test_fifty_places_pay_out_the_pool_to_the_cent(
    client, host, make_tournament, add_round, play_round
):
    """Fifty places (the most a prize table pays) for three players: every cent is paid."""
    shares = ", ".join(["2%"] * 50)
    tournament = make_tournament(players=[f"P{n}" for n in range(3)], prize_table=shares)
    client.force_login(host)
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert "Spring cup" in page
    final = add_round(tournament, is_final=True)
    services.round_draw(round_=final, by=host, seed=1)
    services.round_start(round_=final, by=host)
    play_round(final)
    client.post(url("round_close", final.pk))
    pool = services.tournament_pool(tournament)[1]
    paid = Charge.objects.filter(kind=Charge.Kind.PRIZE)
    assert sum(charge.amount for charge in paid) == pool
    assert paid.count() == 3


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("hands", "0"),
        ("hands", "100"),
        ("hands", "40000"),
        ("hands", "-5"),
        ("hands", "NaN"),
        ("hands", "1e30"),
        ("hands", "12.5"),
        ("hands", ""),
        ("table_min", "0"),
        ("table_min", "-5"),
        ("table_min", "12.345"),
        ("table_min", "NaN"),
        ("table_min", "1e30"),
        ("table_max", ""),
        ("table_max", "5"),  # under the minimum
        ("bet_unit", "0"),
        ("bet_unit", "0.001"),
        ("bet_unit", "Infinity"),
        ("per_table", "8"),
        ("per_table", "40000"),
        ("per_table", "-1"),
        ("wildcards", "40000"),
        ("wildcards", "99999999999999999999"),
        ("wildcards", "-1"),
    ],
)
def test_a_round_no_one_could_mean_comes_back_on_its_field(
    client, host, make_tournament, field, value
):
    tournament = make_tournament(players=["Aki", "Ben"])
    before = counts()
    client.force_login(host)
    response = client.post(url("round_add", tournament.pk), ROUND | {field: value})
    assert response.status_code == 400
    assert list(response.context["round_form"].errors) == [field]
    assert errors_of(text(response))
    assert counts() == before


@pytest.mark.parametrize("keep", ["40000", "-1", "NaN", "1e30", "0"])
def test_how_many_go_on_by_stack_is_a_number_that_fits(client, host, make_tournament, keep):
    tournament = make_tournament(players=["Aki", "Ben"], advancement="by_stack")
    client.force_login(host)
    response = client.post(url("round_add", tournament.pk), ROUND | {"keep": keep})
    assert response.status_code == 400
    assert list(response.context["round_form"].errors) == ["keep"]
    assert not Round.objects.exists()


def test_a_heat_from_which_nobody_goes_on_is_refused(client, host, make_tournament):
    tournament = make_tournament(players=["Aki", "Ben"])
    client.force_login(host)
    response = client.post(
        url("round_add", tournament.pk), ROUND | {"per_table": "0", "wildcards": "0"}
    )
    assert response.status_code == 400
    assert list(response.context["round_form"].errors) == ["per_table"]
    assert str(services.MSG_NOBODY_GOES_ON) in errors_of(text(response))
    assert not Round.objects.exists()
    response = client.post(
        url("round_add", tournament.pk), ROUND | {"per_table": "0", "wildcards": "2"}
    )
    assert response.status_code == 302  # wildcards alone go on


def test_a_minimum_bet_the_unit_cannot_make_is_refused(client, host, make_tournament):
    """The mandatory minimum is placed for a player who does not bet: it must be a stake the
    table takes."""
    tournament = make_tournament(players=["Aki", "Ben"])
    client.force_login(host)
    response = client.post(
        url("round_add", tournament.pk), ROUND | {"table_min": "15", "bet_unit": "10"}
    )
    assert response.status_code == 400
    assert list(response.context["round_form"].errors) == ["table_min"]
    assert not Round.objects.exists()
    response = client.post(
        url("round_add", tournament.pk), ROUND | {"table_min": "20", "bet_unit": "10"}
    )
    assert response.status_code == 302


# --- names ----------------------------------------------------------------------------------

FORMULA = "=cmd|' /C calc'!A0"


@pytest.mark.parametrize(
    "name",
    ["Aki\x00", "Aki\x07Ben", "\u202eikA", "Aki\u200f", "A" * 200, "", "   ", "\n"],
)
def test_a_player_name_no_one_could_mean_is_refused(client, host, make_tournament, name):
    tournament = make_tournament(players=["Ben"])
    before = counts()
    client.force_login(host)
    response = client.post(url("entrant_add", tournament.pk), {"name": name})
    assert response.status_code == 400
    assert response.context["entrant_form"].errors
    assert errors_of(text(response))
    assert counts() == before


@pytest.mark.parametrize("name", ["Cup\x00", "Cup\u202e", "C" * 200, "\x1b[31mCup"])
def test_a_tournament_name_no_one_could_mean_is_refused(client, host, name):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | {"name": name})
    assert response.status_code == 200
    assert list(response.context["night"].errors) == ["name"]
    assert not Event.objects.exists()


def test_a_formula_for_a_name_stays_text_in_the_workbook(
    client, host, make_tournament, add_round, play_round
):
    tournament = make_tournament(players=[FORMULA, "+1+1", "@SUM(A1)", "-2+3"])
    services.tournament_update(tournament=tournament, by=host, prize_table="100%")
    night_services.event_edit(event=tournament.event, by=host, name='=HYPERLINK("x")')
    final = add_round(tournament, is_final=True)
    services.round_draw(round_=final, by=host, seed=1)
    services.round_start(round_=final, by=host)
    play_round(final)
    services.round_close(round_=final, by=host)
    client.force_login(host)
    response = client.get(reverse("tournament_reports:workbook", args=[tournament.pk]))
    assert response.status_code == 200
    book = load_workbook(BytesIO(b"".join(response.streaming_content)))
    seen = set()
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":  # only the totals' SUMs of the sheet's own cells
                    assert SUM_OF_CELLS.fullmatch(cell.value[1:]), (sheet.title, cell.value)
                elif isinstance(cell.value, str) and cell.value[:1] in "=+-@":
                    assert cell.data_type == "s", (sheet.title, cell.coordinate, cell.value)
                    seen.add(cell.value)
    assert FORMULA in seen or f"'{FORMULA}" in seen or any(FORMULA in value for value in seen)
    standings = text(client.get(reverse("tournament_reports:standings", args=[tournament.pk])))
    assert "=cmd|&#x27; /C calc&#x27;!A0" in standings


# --- state races and stale tabs -------------------------------------------------------------


@pytest.fixture
def heat(make_tournament, add_round, host):
    """Four players with rebuys open in round 1; round 1 (3 hands) started, the final added."""
    tournament = make_tournament(
        players=["Aki", "Ben", "Cho", "Dee"],
        rebuy_price=Decimal(40),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=1,
        max_rebuys=2,
    )
    round_ = add_round(tournament, per_table=2)
    final = add_round(tournament, is_final=True)
    services.round_draw(round_=round_, by=host, seed=3)
    services.round_start(round_=round_, by=host)
    round_.refresh_from_db()
    return tournament, round_, final


def test_registering_after_the_start_is_refused(client, host, heat):
    tournament, _round, _final = heat
    before = counts()
    client.force_login(host)
    response = client.post(url("entrant_add", tournament.pk), {"name": "Late"})
    assert response.status_code == 400
    assert response.context["entrant_form"].errors == {
        "__all__": [str(services.MSG_REGISTRATION_CLOSED)]
    }
    assert message_texts(response) == [str(services.MSG_REGISTRATION_CLOSED)]  # no form now
    assert counts() == before


def test_a_stale_draw_start_or_second_start_changes_nothing(client, host, heat):
    _tournament, round_, _final = heat
    seats = sorted(round_.seats.values_list("table_id", "seat", "entrant_id"))
    before = counts()
    client.force_login(host)
    response = client.post(url("round_draw", round_.pk), {"seed": "9"}, follow=True)
    assert message_texts(response) == [str(services.MSG_ROUND_STARTED).format(number=1)]
    response = client.post(url("round_start", round_.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_ROUND_STARTED).format(number=1)]
    assert counts() == before
    assert sorted(round_.seats.values_list("table_id", "seat", "entrant_id")) == seats


def test_round_two_waits_for_round_one(client, host, heat):
    _tournament, _round, final = heat
    before = counts()
    client.force_login(host)
    expected = str(services.MSG_ROUND_NOT_NEXT).format(number=2, previous=1)
    for action in ("round_draw", "round_start"):
        response = client.post(url(action, final.pk), {"seed": ""}, follow=True)
        assert response.status_code == 200
        assert message_texts(response) in ([expected], [str(services.MSG_NOT_DRAWN)])
    assert counts() == before


def test_closing_before_the_tables_are_done_then_twice(client, host, heat, play_round):
    _tournament, round_, _final = heat
    before = counts()
    client.force_login(host)
    response = client.post(url("round_close", round_.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_TABLES_PLAYING).format(number=1)]
    assert counts() == before
    play_round(round_)
    assert client.post(url("round_close", round_.pk)).status_code == 302
    closed = Round.objects.get(pk=round_.pk)
    out = list(Entrant.objects.filter(out_after_round=1).values_list("pk", flat=True))
    response = client.post(url("round_close", round_.pk), follow=True)
    assert message_texts(response)[-1] == str(services.MSG_ROUND_CLOSED).format(number=1)
    again = Round.objects.get(pk=round_.pk)
    assert (again.closed_at, again.closed_by_id) == (closed.closed_at, closed.closed_by_id)
    assert list(Entrant.objects.filter(out_after_round=1).values_list("pk", flat=True)) == out


def test_closing_an_unstarted_round_says_why(client, host, heat):
    _tournament, _round, final = heat
    client.force_login(host)
    response = client.post(url("round_close", final.pk), follow=True)
    assert response.status_code == 200
    assert message_texts(response) == [str(services.MSG_NOT_DRAWN)]
    assert not Round.objects.filter(closed_at__isnull=False).exists()


def test_a_rebuy_for_a_player_out_or_in_a_closed_round_is_refused(client, host, heat, play_round):
    _tournament, round_, final = heat
    play_round(round_)  # seats 1 and 2 finish lowest: only 2 go on from the table
    client.force_login(host)
    client.post(url("round_close", round_.pk))
    out = Entrant.objects.filter(out_after_round=1).select_related("guest").first()
    stay = Entrant.objects.filter(out_after_round__isnull=True).select_related("guest").first()
    closed = str(services.MSG_ROUND_CLOSED).format(number=1)
    before = counts()
    for entrant in (out, stay):  # the closed round's page, left open
        response = client.post(url("entrant_rebuy", round_.pk, entrant.pk), follow=True)
        assert message_texts(response)[-1] == closed
    assert counts() == before
    services.round_draw(round_=final, by=host, seed=1)
    services.round_start(round_=final, by=host)
    before = counts()
    # The final is under way: rebuys were for round 1 only, and the one who went out is out.
    for entrant, refusal in (
        (out, str(services.MSG_NOT_PLAYING).format(guest=out.guest)),
        (stay, str(services.MSG_NO_REBUYS)),
    ):
        response = client.post(url("entrant_rebuy", round_.pk, entrant.pk), follow=True)
        assert message_texts(response) == [closed]
        response = client.post(url("entrant_rebuy", final.pk, entrant.pk), follow=True)
        assert message_texts(response) == [refusal]
    assert counts() == before


def test_a_stale_round_page_never_buys_chips_in_another_round(
    client, host, make_tournament, add_round, play_round, play
):
    """Rebuys open through round 2: the rebuy button of round 1's page, left open after round 1
    closed, is refused rather than taken in round 2 behind the host's back."""
    tournament = make_tournament(
        players=["Aki", "Ben", "Cho", "Dee"],
        rebuy_price=Decimal(40),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=2,
    )
    first = add_round(tournament, per_table=3)
    second = add_round(tournament, per_table=2)
    services.round_draw(round_=first, by=host, seed=3)
    services.round_start(round_=first, by=host)
    play_round(first)
    services.round_close(round_=first, by=host)
    services.round_draw(round_=second, by=host, seed=3)
    services.round_start(round_=second, by=host)
    place = second.seats.select_related("table", "entrant").first()
    entrant = place.entrant
    play(place.table, "P", {place.seat: ("banker", 1000)})  # under the starting stack
    before = counts()
    client.force_login(host)
    response = client.post(url("entrant_rebuy", first.pk, entrant.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_ROUND_CLOSED).format(number=1)]
    response = client.post(url("entrant_add_on", first.pk, entrant.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_ROUND_CLOSED).format(number=1)]
    assert counts() == before
    response = client.post(url("entrant_rebuy", second.pk, entrant.pk), follow=True)
    assert "rebought" in message_texts(response)[0]  # the page of the round being played


def test_a_rebuy_over_the_limit_or_for_a_full_stack_is_refused(client, host, heat, play):
    _tournament, round_, _final = heat
    table = round_.tables.get()
    place = table.seats.select_related("entrant__guest").get(seat=1)
    guest = place.entrant.guest
    address = url("entrant_rebuy", round_.pk, place.entrant_id)
    client.force_login(host)
    before = counts()
    response = client.post(address, follow=True)
    assert message_texts(response) == [
        str(services.MSG_REBUY_STACK).format(guest=guest, stack="1,000")
    ]
    assert counts() == before
    for _ in range(2):  # out, and back with a rebuy: twice, the most there is
        play(table, "P", {1: ("banker", 1000)})
        response = client.post(address, follow=True)
        assert message_texts(response) == [f"{guest} rebought: 1,000 more chips, $40 owed."]
    before = counts()
    play(table, "P", {1: ("banker", 1000)})
    response = client.post(address, follow=True)
    assert message_texts(response) == [str(services.MSG_REBUYS_USED).format(guest=guest, count=2)]
    assert counts() == before | {"Hand": before["Hand"] + 1, "Bet": before["Bet"] + 1}
    rows = StackRow.objects.filter(kind=StackRow.Kind.REBUY, guest=guest).count()
    charges = Charge.objects.filter(kind=Charge.Kind.REBUY, guest=guest).count()
    assert rows == charges == 2


def test_a_round_after_the_final_is_refused(client, host, heat, play_round):
    tournament, round_, final = heat
    before = counts()
    client.force_login(host)
    response = client.post(url("round_add", tournament.pk), ROUND)
    assert response.status_code == 400
    assert response.context["round_form"].errors == {
        "__all__": [str(services.MSG_ROUND_AFTER_FINAL)]
    }
    assert message_texts(response) == [str(services.MSG_ROUND_AFTER_FINAL)]  # no form now
    assert counts() == before
    play_round(round_)
    services.round_close(round_=round_, by=host)
    services.round_draw(round_=final, by=host, seed=1)
    services.round_start(round_=final, by=host)
    play_round(final)
    client.post(url("round_close", final.pk))
    before = counts()
    response = client.post(url("round_add", tournament.pk), ROUND | {"is_final": "on"})
    assert response.status_code == 400
    assert response.context["round_form"].errors == {"__all__": [str(services.MSG_FINISHED)]}
    assert message_texts(response)[-1] == str(services.MSG_FINISHED)
    assert counts() == before


def test_settings_changed_to_by_stack_after_a_round_was_added_are_refused(
    client, host, make_tournament, add_round
):
    """A heat added under "by table" has no "how many go on": switching the tournament to
    "by stack" would put every player out of it."""
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    add_round(tournament)
    client.force_login(host)
    response = client.post(
        url("tournament_edit", tournament.pk), SETUP | {"advancement": "by_stack"}
    )
    assert response.status_code == 200
    assert list(response.context["form"].errors) == ["advancement"]
    assert Tournament.objects.get().advancement == "by_table"


def test_every_post_only_address_refuses_a_get(client, host, heat):
    tournament, round_, _final = heat
    entrant = tournament.entrants.first()
    table = round_.tables.get()
    client.force_login(host)
    for address in (
        url("entrant_add", tournament.pk),
        url("round_add", tournament.pk),
        url("round_draw", round_.pk),
        url("round_start", round_.pk),
        url("round_close", round_.pk),
        url("entrant_rebuy", round_.pk, entrant.pk),
        url("entrant_add_on", round_.pk, entrant.pk),
        url("table_display_link", table.pk),
        reverse("tournament_table:secret_bet", args=[table.event_id]),
    ):
        assert client.get(address).status_code == 405, address


def test_addresses_of_nothing_are_404(client, host, heat):
    tournament, round_, _final = heat
    other = Entrant.objects.exclude(tournament=tournament)
    assert not other.exists()
    client.force_login(host)
    for address in (
        url("round_detail", 999999),
        url("tournament_detail", 999999),
        reverse("tournament_reports:standings", args=[999999]),
        reverse("tournament_reports:workbook", args=[999999]),
    ):
        assert client.get(address).status_code == 404, address
    for address in (
        url("entrant_rebuy", round_.pk, 999999),
        url("round_close", 999999),
        url("table_display_link", 999999),
    ):
        assert client.post(address).status_code == 404, address


def test_a_rebuy_for_another_tournaments_player_is_404(client, host, heat, make_tournament):
    _tournament, round_, _final = heat
    stranger = make_tournament(players=["Zed"]).entrants.get()
    client.force_login(host)
    assert client.post(url("entrant_rebuy", round_.pk, stranger.pk)).status_code == 404


def test_a_dealer_is_refused_every_host_post(client, dealer, heat):
    tournament, round_, _final = heat
    entrant = tournament.entrants.first()
    before = counts()
    client.force_login(dealer)
    for address, data in (
        (url("tournament_create"), SETUP),
        (url("tournament_edit", tournament.pk), SETUP),
        (url("entrant_add", tournament.pk), {"name": "Eve"}),
        (url("round_add", tournament.pk), ROUND),
        (url("round_draw", round_.pk), {"seed": "1"}),
        (url("round_start", round_.pk), {}),
        (url("round_close", round_.pk), {}),
        (url("entrant_rebuy", round_.pk, entrant.pk), {}),
        (url("entrant_add_on", round_.pk, entrant.pk), {}),
        (reverse("tournament_reports:workbook", args=[tournament.pk]), None),
    ):
        response = client.post(address, data) if data is not None else client.get(address)
        assert response.status_code == 403, address
    assert counts() == before


# --- the secret bet -------------------------------------------------------------------------


@pytest.fixture
def two_tables(make_tournament, add_round, host):
    tournament = make_tournament(secret_bet="any")  # 14 players: two tables of 7
    round_ = add_round(tournament, hands=3)
    services.round_draw(round_=round_, by=host, seed=1)
    return services.round_start(round_=round_, by=host)


def secret(client, event_id, **data):
    return client.post(reverse("tournament_table:secret_bet", args=[event_id]), data, **HTMX)


@pytest.mark.parametrize(
    "data",
    [
        {"mark": "8", "number": "1"},
        {"mark": "0", "number": "1"},
        {"mark": "-1", "number": "1"},
        {"mark": "1", "number": "2"},
        {"mark": "1", "number": "0"},
        {"mark": "1", "number": "99999999999999999999"},
        {"mark": "1", "number": "NaN"},
        {"mark": "1"},
        {"number": "1"},
        {},
    ],
)
def test_a_secret_bet_that_names_no_seat_or_hand_is_refused(client, dealer, two_tables, data):
    table = two_tables.tables.first()
    client.force_login(dealer)
    response = secret(client, table.event_id, **data)
    assert response.status_code == 400
    assert response.json()["message"]
    assert not TableSeat.objects.filter(secret_hand__isnull=False).exists()


def test_a_secret_bet_on_a_table_that_is_not_a_tournaments(client, dealer, two_tables, event):
    client.force_login(dealer)
    response = secret(client, event.pk, mark="1", number="1")
    assert response.status_code == 400
    assert response.json()["message"] == str(services.MSG_NOT_A_TABLE)
    assert secret(client, 999999, mark="1", number="1").status_code == 404
    night = two_tables.tournament.event_id
    assert secret(client, night, mark="1", number="1").status_code == 400


def test_a_secret_bet_marks_only_the_seat_of_the_table_posted_to(client, dealer, two_tables):
    first, second = two_tables.tables.all()
    client.force_login(dealer)
    assert secret(client, first.event_id, mark="3", number="1").status_code == 200
    marked = TableSeat.objects.filter(secret_hand__isnull=False)
    assert list(marked.values_list("table_id", "seat")) == [(first.pk, 3)]
    assert secret(client, second.event_id, unmark="3", number="1").status_code == 200
    assert list(marked.values_list("table_id", "seat")) == [(first.pk, 3)]


def test_a_secret_bet_after_the_round_is_refused(client, host, two_tables, play_round):
    play_round(two_tables)
    table = two_tables.tables.first()
    client.force_login(host)
    response = secret(client, table.event_id, mark="1", number="4")
    assert response.status_code == 400
    services.round_close(round_=two_tables, by=host)
    response = secret(client, table.event_id, mark="1", number="4")
    assert response.status_code == 400
    assert not TableSeat.objects.filter(secret_hand__isnull=False).exists()


# --- at a tournament table ------------------------------------------------------------------


@pytest.fixture
def table(heat):
    return heat[1].tables.select_related("event").get()


def post_hand(client, shoe, **fields):
    return client.post(
        reverse("ledger:hand_record", args=[shoe.pk]), hand_data(shoe, **fields), **HTMX
    )


def test_a_bet_off_the_unit_or_over_the_stack_is_refused_beside_its_box(client, dealer, table):
    shoe = open_shoe(table)
    client.force_login(dealer)
    for stake in ("15", "10.5", "1010", "1e3", "NaN", "-10", "１０.５"):
        response = post_hand(client, shoe, result="banker", stake_1_banker=stake)
        assert response.status_code == 200
        assert response.context["form"].errors, stake
        assert not Hand.objects.exists(), stake
    response = post_hand(client, shoe, result="banker", stake_1_banker="600", stake_1_player="500")
    assert response.context["form"].errors
    assert not Hand.objects.exists()


def test_a_bet_over_the_stack_after_a_rebuy_is_refused(client, host, heat, table, play):
    _tournament, round_, _final = heat
    shoe = open_shoe(table)
    place = table.seats.get(seat=1)
    play(table, "P", {1: ("banker", 1000)})  # out
    client.force_login(host)
    client.post(url("entrant_rebuy", round_.pk, place.entrant_id))
    assert StackRow.objects.filter(kind=StackRow.Kind.REBUY).count() == 1
    response = post_hand(client, shoe, result="banker", stake_1_banker="1010")
    assert response.context["form"].errors
    assert Hand.objects.count() == 1
    response = post_hand(client, shoe, result="banker", stake_1_banker="1000")
    assert "Shoebook-Hand-Saved" in response
    assert Hand.objects.count() == 2


def test_hands_beyond_the_round_are_refused(client, dealer, table, play):
    shoe = open_shoe(table)
    for _ in range(3):
        play(table, "B", {1: ("banker", 10)})
    client.force_login(dealer)
    response = post_hand(client, shoe, result="banker", stake_1_banker="10")
    assert response.status_code == 200
    assert not response.has_header("Shoebook-Hand-Saved")
    message = str(hand_services.MSG_ROUND_OVER).format(hands=3)
    assert message in text(response)
    forged = hand_data(shoe, result="banker") | {"number": "4"}
    client.post(reverse("ledger:hand_record", args=[shoe.pk]), forged, **HTMX)
    forged |= {"number": "99", "idempotency_key": str(uuid.uuid4())}
    client.post(reverse("ledger:hand_record", args=[shoe.pk]), forged, **HTMX)
    assert Hand.objects.count() == 3


def test_an_undo_at_a_tournament_table_gives_the_chips_back(client, dealer, table, play):
    shoe = open_shoe(table)
    play(table, "P", {1: ("banker", 1000)})
    client.force_login(dealer)
    response = client.post(reverse("ledger:hand_undo", args=[shoe.pk]), **HTMX)
    assert response.status_code == 200
    assert not Hand.objects.exists() and not Bet.objects.exists()
    assert hand_services.table_stacks(table.event, before_hand=1)[
        table.seats.get(seat=1).entrant.guest_id
    ] == Decimal(1000)
    response = client.post(reverse("ledger:hand_undo", args=[shoe.pk]), **HTMX)
    assert response.status_code == 200  # nothing to undo: said on the page
    assert response.context["refusal"]


def test_no_undo_or_new_hand_once_the_round_is_closed(client, host, heat, table, play_round):
    _tournament, round_, _final = heat
    play_round(round_)
    services.round_close(round_=round_, by=host)
    shoe = open_shoe(table)
    before = counts()
    client.force_login(host)
    response = client.post(reverse("ledger:hand_undo", args=[shoe.pk]), **HTMX)
    assert response.status_code == 200 and response.context["refusal"]
    response = post_hand(client, shoe, result="banker")
    assert not response.has_header("Shoebook-Hand-Saved")
    assert counts() == before


def correction(hand, **fields):
    return {"version": str(hand.version), "reason": "typo", "result": "player", **fields}


def test_a_correction_after_the_round_closed_is_refused(client, host, heat, table, play_round):
    _tournament, round_, _final = heat
    play_round(round_)
    services.round_close(round_=round_, by=host)
    hand = Hand.objects.filter(shoe__event=table.event).order_by("number").first()
    stacks = hand_services.table_stacks(table.event, before_hand=99)
    client.force_login(host)
    address = reverse("ledger:hand_detail", args=[hand.pk])
    response = client.post(address, correction(hand, stake_1_banker="10"))
    assert response.status_code == 200
    assert response.context["form"].errors
    assert hand_services.table_stacks(table.event, before_hand=99) == stacks
    # Nor by reopening the table's night (or its shoe) from the ledger's pages.
    response = client.post(reverse("ledger:event_reopen", args=[table.event_id]), follow=True)
    assert Event.objects.get(pk=table.event_id).closed_at is not None
    assert message_texts(response) == [str(game_services.MSG_TABLE_STAYS_CLOSED)]
    shoe = open_shoe(table)
    client.post(reverse("ledger:shoe_reopen", args=[shoe.pk]))
    assert Shoe.objects.get(pk=shoe.pk).closed_at is not None


def test_a_correction_that_leaves_a_later_bet_over_the_stack_is_refused(client, host, table, play):
    play(table, "B", {1: ("banker", 500)})  # seat 1: 1,475
    play(table, "B", {1: ("banker", 1000)})  # staked on the 1,475
    first = Hand.objects.get(number=1)
    client.force_login(host)
    response = client.post(
        reverse("ledger:hand_detail", args=[first.pk]),
        correction(first, stake_1_banker="500"),  # Player won: 500 left, under hand 2's 1,000
    )
    assert response.status_code == 200
    assert escape(str(hand_services.MSG_LATER_OVER_STACK).format(number=2)) in text(response)
    first.refresh_from_db()
    assert (first.version, first.winner) == (1, "banker")


def test_the_draw_is_the_only_seating_at_a_tournament_table(client, host, table):
    """Seats at a tournament table are the round's draw: nobody is seated, moved or cleared
    from the table page (the board, the secret bet and the stacks follow the draw)."""
    shoe = open_shoe(table)
    stranger = guest_services.event_guest_add(event=table.event, name="Zed", by=host)
    aki = table.seats.select_related("entrant__guest").get(seat=1).entrant.guest
    before = counts()
    client.force_login(host)
    address = reverse("ledger:seat_change", args=[shoe.pk])
    for data in (
        {"seat": "5", "guest": str(stranger.pk)},
        {"seat": "6", "guest": str(aki.pk)},
        {"seat": "2", "guest": str(aki.pk)},
        {"seat": "1"},
    ):
        response = client.post(address, data, **HTMX)
        assert response.status_code == 200
        assert response.context["refusal"], data
    assert counts() == before
    assert seating_of(shoe, 1) == {
        place.seat: place.entrant.guest_id for place in table.seats.select_related("entrant")
    }


EVENT = {
    "name": "Spring cup · round 1 · table 1",
    "date": "2026-04-01",
    "venue": "",
    "format": "mini",
    "decks": "8",
    "no_commission": "none",
    "commission": "5",
    "tie_pays": "8",
    "pair_pays": "11",
    "side_bets": ["pairs"],
    "currency_symbol": "T",
    "money_per_chip": "100",
    "table_min": "10",
    "table_max": "1000",
    "hands_per_shoe": "3",
}


def heat_night(table):
    return table.round.tournament.event_id


def test_the_table_night_keeps_its_rounds_settings(client, host, table):
    """A tournament table's limits, unit and length are its round's: the ledger's event form
    does not change them behind the round's back."""
    client.force_login(host)
    edit = reverse("ledger:event_edit", args=[table.event_id])
    page = text(client.get(reverse("ledger:event_detail", args=[table.event_id])))
    assert edit not in page
    assert reverse("ledger:event_close", args=[table.event_id]) not in page
    for changes in ({"hands_per_shoe": "99"}, {"table_min": "1"}, {"commission": "1"}):
        response = client.post(edit, EVENT | changes)
        assert response.status_code == 200
        assert escape(str(game_services.MSG_TABLE_PLAYS_ITS_ROUND)) in text(response)
    event = Event.objects.get(pk=table.event_id)
    assert (event.hands_per_shoe, event.table_min) == (3, Decimal(10))
    assert event.rule_set == Event.objects.get(pk=heat_night(table)).rule_set


def test_the_tournament_night_takes_no_shoe_and_no_hand(client, host, heat):
    tournament, _round, _final = heat
    before = counts()
    client.force_login(host)
    response = client.post(reverse("ledger:shoe_start", args=[tournament.event_id]), follow=True)
    assert response.status_code == 200
    assert message_texts(response)
    assert counts() == before


# --- a player's own link --------------------------------------------------------------------


def test_a_revoked_link_shows_nothing_any_more(client, host, heat):
    tournament, _round, _final = heat
    guest = tournament.entrants.first().guest
    token = guest_services.guest_link_issue(guest=guest)
    address = reverse("tournament_table:guest_standings", args=[guest.pk, token])
    assert client.get(address).status_code == 200
    guest_services.guest_link_revoke(guest=guest)
    assert client.get(address).status_code == 404
    assert client.get(address.replace(token, "x" * 43)).status_code == 404


def test_a_merged_players_link_shows_the_guest_they_became(
    client, host, make_tournament, add_round
):
    tournament = make_tournament(players=["Aki", "Ben"])
    aki = tournament.entrants.get(guest__name="Aki").guest
    other = Guest.objects.create(name="Aki T")
    token = guest_services.guest_link_issue(guest=other)
    guest_services.guest_merge(guest=aki, other=other, by=host)
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host, seed=1)
    services.round_start(round_=round_, by=host)
    response = client.get(reverse("tournament_table:guest_standings", args=[other.pk, token]))
    assert response.status_code == 200
    assert "Aki" in text(response) and "Ben" in text(response)


def test_merging_a_tournament_player_away_says_why_not(client, host, make_tournament):
    """A player's entry, stacks and charges belong to the guest who played: merging them into
    another guest is refused with the reason, and nothing moves."""
    tournament = make_tournament(players=["Aki", "Ben"])
    aki = tournament.entrants.get(guest__name="Aki").guest
    other = Guest.objects.create(name="Aki T")
    before = counts()
    client.force_login(host)
    response = client.post(
        reverse("ledger:guest_merge", args=[other.pk]), {"other": aki.pk}, follow=True
    )
    assert response.status_code == 200
    assert message_texts(response) == [
        str(guest_services.MSG_MERGE_TOURNAMENT_PLAYER).format(guest="Aki T", other="Aki")
    ]
    assert counts() == before
    # The other way round, the player keeps their entry and takes the other's name as an alias.
    response = client.post(reverse("ledger:guest_merge", args=[aki.pk]), {"other": other.pk})
    assert response.status_code == 302
    assert not Guest.objects.filter(pk=other.pk).exists()
    assert tournament.entrants.filter(guest=aki).exists()


def test_a_player_registered_after_the_draw_is_not_left_out_of_it(
    client, host, make_tournament, add_round
):
    """Registration stays open until the first round starts; a player registered after its draw
    would sit out round 1 and turn up in round 2: the start asks for the draw again."""
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host, seed=5)
    client.force_login(host)
    client.post(url("entrant_add", tournament.pk), {"name": "Dee"})
    before = counts()
    response = client.post(url("round_start", round_.pk), follow=True)
    assert message_texts(response)[-1] == str(services.MSG_DRAW_STALE).format(names="Dee")
    assert counts() == before
    assert not Round.objects.get(pk=round_.pk).is_started
    client.post(url("round_draw", round_.pk), {"seed": "5"})
    response = client.post(url("round_start", round_.pk), follow=True)
    assert Round.objects.get(pk=round_.pk).is_started
    seated = set(round_.seats.values_list("entrant__guest__name", flat=True))
    assert seated == {"Aki", "Ben", "Cho", "Dee"}


def test_a_play_off_order_no_one_could_mean_is_refused(client, host, make_tournament, add_round):
    """Four equal stacks (nobody bet), two go on, play-off tie-break: every tied player needs
    a place in the play-off, 1 to 4."""
    tournament = make_tournament(players=["Aki", "Ben", "Cho", "Dee"], tie_break="playoff")
    round_ = add_round(tournament, hands=1, per_table=2)
    add_round(tournament, is_final=True)
    services.round_draw(round_=round_, by=host, seed=1)
    services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    shoe = open_shoe(table)
    hand_services.record_hand(
        shoe=shoe, number=1, entry=_result_only("banker"), by=host, idempotency_key=uuid.uuid4()
    )
    ids = list(tournament.entrants.values_list("pk", flat=True))
    client.force_login(host)
    for ranks in (
        {},
        dict.fromkeys(ids, "0"),
        dict.fromkeys(ids, "5"),
        dict.fromkeys(ids, "NaN"),
        dict.fromkeys(ids, "1e3"),
        {ids[0]: "1", ids[1]: "2", ids[2]: "3"},
    ):
        data = {f"rank_{entrant}": rank for entrant, rank in ranks.items()}
        response = client.post(url("round_close", round_.pk), data)
        assert response.status_code == 400, ranks
        assert response.context["playoff_form"].errors
        assert not Round.objects.get(pk=round_.pk).is_closed
        assert not Entrant.objects.filter(out_after_round__isnull=False).exists()
    # Two share 2nd place: still tied across the cut, the close is refused with the names.
    data = {f"rank_{entrant}": rank for entrant, rank in zip(ids, "1223", strict=True)}
    response = client.post(url("round_close", round_.pk), data, follow=True)
    assert message_texts(response)[-1].startswith("Stacks are tied across the cut")
    assert not Round.objects.get(pk=round_.pk).is_closed
    data = {f"rank_{entrant}": rank for entrant, rank in zip(ids, "1234", strict=True)}
    data[f"rank_{999999}"] = "1"  # a stranger's rank is not read
    client.post(url("round_close", round_.pk), data)
    assert Round.objects.get(pk=round_.pk).is_closed
    assert set(Entrant.objects.filter(out_after_round=1).values_list("pk", flat=True)) == set(
        ids[2:]
    )


def _result_only(result):
    from tests.conftest import entry

    return entry(result=result)


def test_the_final_closed_twice_pays_once(client, host, heat, play_round):
    _tournament, round_, final = heat
    play_round(round_)
    services.round_close(round_=round_, by=host)
    services.round_draw(round_=final, by=host, seed=1)
    services.round_start(round_=final, by=host)
    play_round(final)
    client.force_login(host)
    client.post(url("round_close", final.pk))
    prizes = list(Charge.objects.filter(kind=Charge.Kind.PRIZE).values_list("guest_id", "amount"))
    assert prizes
    response = client.post(url("round_close", final.pk), follow=True)
    assert message_texts(response)[-1] == str(services.MSG_ROUND_CLOSED).format(number=2)
    again = Charge.objects.filter(kind=Charge.Kind.PRIZE).values_list("guest_id", "amount")
    assert list(again) == prizes
    for action in ("round_draw", "round_start"):
        response = client.post(url(action, final.pk), {"seed": ""}, follow=True)
        assert response.status_code == 200 and message_texts(response)
    assert list(again) == prizes


def test_an_add_on_outside_its_round_or_twice_is_refused(client, host, make_tournament, add_round):
    tournament = make_tournament(
        players=["Aki", "Ben", "Cho"],
        add_on_price=Decimal(20),
        add_on_chips=Decimal(500),
        add_on_round=2,
    )
    round_ = add_round(tournament, per_table=3)
    second = add_round(tournament, per_table=2)
    services.round_draw(round_=round_, by=host, seed=1)
    services.round_start(round_=round_, by=host)
    entrant = tournament.entrants.first()
    client.force_login(host)
    before = counts()
    response = client.post(url("entrant_add_on", round_.pk, entrant.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_NO_ADD_ON)]
    assert counts() == before
    for table in round_.tables.all():
        for number in range(1, 4):
            hand_services.record_hand(
                shoe=open_shoe(table),
                number=number,
                entry=_result_only("banker"),
                by=host,
                idempotency_key=uuid.uuid4(),
            )
    services.round_close(round_=round_, by=host)
    services.round_draw(round_=second, by=host, seed=1)
    services.round_start(round_=second, by=host)
    response = client.post(url("entrant_add_on", second.pk, entrant.pk), follow=True)
    assert "add-on" in message_texts(response)[-1]
    before = counts()
    response = client.post(url("entrant_add_on", second.pk, entrant.pk), follow=True)
    assert message_texts(response)[-1] == str(services.MSG_ADD_ON_USED).format(guest=entrant.guest)
    assert counts() == before
    rows = StackRow.objects.filter(kind=StackRow.Kind.ADD_ON).count()
    assert rows == Charge.objects.filter(kind=Charge.Kind.ADD_ON).count() == 1


@pytest.mark.parametrize("seed", ["2147483648", "1e3", "NaN", "-1", "12.5", "９"])
def test_a_seed_no_one_could_mean_is_refused(client, host, make_tournament, add_round, seed):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament)
    client.force_login(host)
    response = client.post(url("round_draw", round_.pk), {"seed": seed})
    if seed == "９":  # a full-width 9 is a 9
        assert Round.objects.get(pk=round_.pk).seed == 9
        return
    assert response.status_code == 400
    assert response.context["draw_form"].errors["seed"]
    assert not TableSeat.objects.exists() and Event.objects.count() == 1


@pytest.mark.parametrize(
    "query",
    ["start=garbage", "start=2026-13-45&end=x", "end=99999-01-01", "page=-1", "page=NaN",
     "sort=points'--", "start=\x00"],
)  # fmt: skip
def test_the_season_page_reads_any_query(client, host, query):
    client.force_login(host)
    response = client.get(reverse("tournament_reports:season") + "?" + query)
    assert response.status_code in (200, 404)


def test_the_reports_of_a_tournament_with_no_round_yet(client, host, make_tournament):
    tournament = make_tournament(players=[FORMULA])
    client.force_login(host)
    for name in ("standings", "workbook"):
        response = client.get(reverse(f"tournament_reports:{name}", args=[tournament.pk]))
        assert response.status_code == 200, name
