"""The host's tournament pages: setting one up, registering players, adding, drawing, starting
and closing rounds, the play-off's order, rebuys and add-ons, and what dealers and guests may
do; with query budgets on the tournament and round pages."""

from __future__ import annotations

import re
from decimal import Decimal
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.html import escape

from games.models import Event
from games.payouts import NoCommission, RuleSet, SideBet
from games.tournament import MSG_SHARES_SUM
from ledger.forms import MSG_CHIPS_AMOUNT
from ledger.models import Charge, Guest, StackRow
from ledger.money.amounts import format_chips
from tests.pages import HTMX, text
from tests.tournaments.pages import ROUND, SETUP, errors_of, message_texts, url
from tournaments import services
from tournaments.forms import MSG_RANK
from tournaments.models import Entrant, Round, TableSeat, Tournament
from tournaments.selectors import round_board
from tournaments.views import MSG_DRAWN, MSG_NOT_EDITABLE, MSG_PRIZES_PAID

pytestmark = pytest.mark.django_db


def seats_of(round_):
    return sorted(round_.seats.values_list("table__number", "seat", "entrant_id"))


@pytest.fixture
def guest_user(db):
    """A guest with a login of their own: they see their own page and nothing of the host's."""
    user = User.objects.create_user("aki-login", password="pw-for-tests")
    Guest.objects.create(name="Aki", user=user)
    return user


@pytest.fixture
def drawn(make_tournament, add_round, host):
    """Four players, round 1 started, round 2 (the final) added."""
    tournament = make_tournament(players=["Aki", "Ben", "Cho", "Dee"])
    round_ = add_round(tournament)
    add_round(tournament, is_final=True)
    services.round_draw(round_=round_, by=host, seed=3)
    return tournament, services.round_start(round_=round_, by=host)


def writes(tournament, round_):
    entrant = tournament.entrants.first()
    table = round_.tables.first()
    return [
        ("get", url("tournament_create")),
        ("post", url("tournament_create")),
        ("get", url("tournament_edit", tournament.pk)),
        ("post", url("entrant_add", tournament.pk)),
        ("post", url("round_add", tournament.pk)),
        ("post", url("round_draw", round_.pk)),
        ("post", url("round_start", round_.pk)),
        ("post", url("round_close", round_.pk)),
        ("post", url("entrant_rebuy", round_.pk, entrant.pk)),
        ("post", url("entrant_add_on", round_.pk, entrant.pk)),
        ("post", url("table_display_link", table.pk)),
    ]


def reads(tournament, round_):
    return [
        url("tournament_list"),
        url("tournament_detail", tournament.pk),
        url("tournament_for_event", tournament.event_id),
        url("round_detail", round_.pk),
        url("round_board", round_.pk),
    ]


@pytest.mark.parametrize("role", ["dealer", "outsider", "guest_user"])
def test_only_the_host_writes(client, drawn, role, request):
    tournament, round_ = drawn
    client.force_login(request.getfixturevalue(role))
    for method, address in writes(tournament, round_):
        response = getattr(client, method)(address, {"name": "Eve", "seed": "1"})
        assert response.status_code == 403, address
    assert tournament.entrants.count() == 4
    assert not tournament.rounds.filter(closed_at__isnull=False).exists()
    assert not StackRow.objects.filter(kind__in=["rebuy", "add_on"]).exists()
    assert not Event.objects.exclude(display_token="").exists()


def test_nobody_logged_out_gets_in(client, drawn):
    tournament, round_ = drawn
    login = reverse("login")
    for method, address in writes(tournament, round_):
        assert getattr(client, method)(address).url.startswith(login), address
    for address in reads(tournament, round_):
        assert client.get(address).url.startswith(login), address


def test_dealers_read_the_pages_guests_do_not(client, drawn, dealer, guest_user):
    tournament, round_ = drawn
    client.force_login(dealer)
    for address in reads(tournament, round_):
        assert client.get(address).status_code in (200, 302), address
    page = text(client.get(url("round_detail", round_.pk)))
    assert "Start round" not in page and "Draw again" not in page
    assert reverse("ledger:shoe_table", args=[round_.tables.get().event.shoes.get().pk]) in page
    client.force_login(guest_user)
    for address in reads(tournament, round_):
        assert client.get(address).status_code == 403, address


def test_the_tournament_page_links_its_standings_and_the_host_its_workbook(
    client, drawn, host, dealer
):
    tournament, _round = drawn
    standings = reverse("tournament_reports:standings", args=[tournament.pk])
    workbook = reverse("tournament_reports:workbook", args=[tournament.pk])
    client.force_login(host)
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert f'href="{standings}"' in page and f'href="{workbook}"' in page
    client.force_login(dealer)  # the standings are for staff, the workbook for the host
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert f'href="{standings}"' in page and f'href="{workbook}"' not in page


def test_the_host_sets_up_a_tournament_with_every_setting(client, host):
    client.force_login(host)
    blank = client.get(url("tournament_create")).context["form"]
    assert blank["starting_stack"].value() == Decimal(1000)  # the defaults, to start from
    assert blank["cut_fixed"].value() == Decimal(0)
    assert blank["short_stack"].value() == "all_in"  # a short stack bets all of it, unless set
    response = client.post(url("tournament_create"), SETUP)
    tournament = Tournament.objects.select_related("event").get()
    assert response.url == url("tournament_detail", tournament.pk)
    event = tournament.event
    assert (event.name, event.venue, event.kind) == ("Spring cup", "Bar K", Event.Kind.TOURNAMENT)
    assert event.rule_set == RuleSet(commission_rate=Decimal("0.04"))
    assert (tournament.entry_fee, tournament.cut_percent, tournament.cut_fixed) == (
        Decimal(50),
        Decimal(10),
        Decimal(5),
    )
    assert tournament.starting_stack == Decimal(1000)
    assert tournament.short_stack == "out"
    assert (tournament.stacks, tournament.tie_break, tournament.secret_bet) == (
        "carried",
        "playoff",
        "last",
    )
    assert (tournament.rebuy_chips, tournament.max_rebuys, tournament.add_on_round) == (
        Decimal(1000),
        2,
        1,
    )
    assert tournament.points_table == "10, 7, 5"
    page = text(client.get(response.url))
    assert "Spring cup" in page and "50%, 30%, 20%" in page


def test_the_seats_box_says_6_to_9_before_it_is_sent(client, host):
    client.force_login(host)
    page = text(client.get(url("tournament_create")))
    box = page[page.index('name="seats_per_table"') :]
    box = box[: box.index(">")]
    assert 'min="6"' in box and 'max="9"' in box


@pytest.mark.parametrize("seats", ["6", "8", "9"])
def test_the_form_takes_tables_of_6_to_9_seats(client, host, seats):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | {"seats_per_table": seats})
    assert response.status_code == 302
    assert Tournament.objects.get().seats_per_table == int(seats)
    assert f"{seats} seats a table" in text(client.get(response.url))


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"prize_table": "50%, 30%"}, "prize_table", MSG_SHARES_SUM.format(total="80")),
        ({"entry_fee": "fifty"}, "entry_fee", None),
        ({"cut_percent": "150"}, "cut_percent", None),
        ({"starting_stack": "0"}, "starting_stack", None),
        ({"name": ""}, "name", None),
        ({"money_per_chip": "0"}, "money_per_chip", None),
        ({"points_table": "5, 7"}, "points_table", None),
        ({"seats_per_table": "5"}, "seats_per_table", None),
        ({"seats_per_table": "10"}, "seats_per_table", None),
        ({"seats_per_table": "six"}, "seats_per_table", None),
        ({"final_overflow": "coin"}, "final_overflow", None),
    ],
)
def test_a_bad_setting_comes_back_on_its_field(client, host, changes, field, message):
    client.force_login(host)
    response = client.post(url("tournament_create"), SETUP | changes)
    assert response.status_code == 200
    assert not Tournament.objects.exists() and not Event.objects.exists()
    forms = response.context["night"], response.context["form"]
    form = next(form for form in forms if field in form.fields)
    assert list(form.errors) == [field]
    if message:
        assert form.errors[field] == [message]
        assert message in errors_of(text(response))
    if field == "entry_fee":
        assert form.errors[field] == [MSG_CHIPS_AMOUNT.format(maximum="99,999,999,999.99")]
    page = text(response)
    assert 'value="Spring cup"' in page or field == "name"  # what was typed stays


@pytest.mark.parametrize(
    ("rule", "said"),
    [
        ("playoff", "A play-off for the last seats: the final is one table"),
        ("second", "A second final table: places by stack across both"),
    ],
)
def test_the_finals_rule_is_stated_before_the_round_is_drawn(
    client, host, make_tournament, add_round, rule, said
):
    tournament = make_tournament(tie_break="split", final_overflow=rule, seats_per_table=6)
    round_ = add_round(tournament)
    client.force_login(host)
    for page in (url("round_detail", round_.pk), url("tournament_detail", tournament.pk)):
        shown = unescape(text(client.get(page)))
        assert f"More players than the final's seats: {said}" in shown
        assert "6 seats a table" in shown


def test_the_settings_change_until_a_round_starts(client, host, make_tournament, add_round):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host, seed=5)
    seats = seats_of(round_)
    client.force_login(host)
    form = client.get(url("tournament_edit", tournament.pk)).context["form"]
    assert form.initial["entry_fee"] == Decimal(50)
    response = client.post(
        url("tournament_edit", tournament.pk),
        SETUP | {"commission": "", "no_commission": "ez", "starting_stack": "2000"},
        follow=True,
    )
    assert response.redirect_chain == [(url("tournament_detail", tournament.pk), 302)]
    assert message_texts(response) == ["Spring cup is saved."]
    tournament.refresh_from_db()
    assert tournament.starting_stack == Decimal(2000)
    ez = RuleSet.from_options(
        commission_percent=None, no_commission=NoCommission.EZ, side_bets=[SideBet.PAIRS]
    )
    assert tournament.event.rule_set == ez
    # The drawn round keeps its seats, and its tables play the new rules.
    assert seats_of(round_) == seats
    assert {table.event.rule_set for table in round_.tables.all()} == {ez}
    services.round_start(round_=round_, by=host)
    response = client.get(url("tournament_edit", tournament.pk), follow=True)
    assert message_texts(response) == [str(MSG_NOT_EDITABLE)]
    response = client.post(url("tournament_edit", tournament.pk), SETUP | {"entry_fee": "1"})
    assert Tournament.objects.get().entry_fee == Decimal(50)


def test_players_register_by_name_once_and_before_the_start(client, host, make_tournament):
    tournament = make_tournament(players=["Aki"])
    client.force_login(host)
    response = client.post(url("entrant_add", tournament.pk), {"name": "Ben"})
    assert response.url.endswith("#players")
    assert list(tournament.entrants.values_list("guest__name", flat=True)) == ["Aki", "Ben"]
    response = client.post(url("entrant_add", tournament.pk), {"name": "aki"})
    assert response.status_code == 400
    message = str(services.MSG_ALREADY_REGISTERED).format(guest="Aki")
    assert response.context["entrant_form"].errors == {"__all__": [message]}
    assert message in text(response)
    response = client.post(url("entrant_add", tournament.pk), {"name": ""})
    assert response.status_code == 400 and response.context["entrant_form"].errors["name"]
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert page.count("$50") >= 2  # each player owes the entry fee


def test_a_round_is_added_and_refused_with_reasons(client, host, make_tournament):
    tournament = make_tournament(players=["Aki", "Ben"], advancement="by_stack")
    client.force_login(host)
    response = client.post(url("round_add", tournament.pk), ROUND)  # by stack: how many?
    assert response.status_code == 400
    assert response.context["round_form"].errors == {"keep": [str(services.MSG_KEEP_NEEDED)]}
    assert "per_table" not in response.context["round_form"].fields
    response = client.post(url("round_add", tournament.pk), ROUND | {"table_max": "5"})
    assert response.status_code == 400
    assert list(response.context["round_form"].errors) == ["table_max"]
    response = client.post(url("round_add", tournament.pk), ROUND | {"keep": "1"})
    round_ = Round.objects.get()
    assert response.url == url("round_detail", round_.pk)
    assert (round_.number, round_.hands, round_.keep, round_.is_final) == (1, 3, 1, False)
    client.post(url("round_add", tournament.pk), ROUND | {"is_final": "on"})
    response = client.post(url("round_add", tournament.pk), ROUND | {"keep": "1"})
    assert response.context["round_form"].errors == {
        "__all__": [str(services.MSG_ROUND_AFTER_FINAL)]
    }
    assert tournament.rounds.count() == 2


def test_the_host_draws_redraws_and_starts_a_round(client, host, make_tournament, add_round):
    tournament = make_tournament()  # 14 players: two tables
    round_ = add_round(tournament)
    client.force_login(host)
    response = client.post(url("round_draw", round_.pk), {"seed": "7"}, follow=True)
    assert message_texts(response) == [MSG_DRAWN.format(number=1, seed=7)]
    page = text(response)
    assert '<strong translate="no">7</strong>' in page
    with_seven = seats_of(round_)
    names = dict(Entrant.objects.values_list("pk", "guest__name"))
    board = page[page.index('class="board"') :]
    for _table, _seat, entrant in with_seven:
        assert escape(names[entrant]) in board
    client.post(url("round_draw", round_.pk), {"seed": ""})  # draw again: a new seed
    round_.refresh_from_db()
    assert round_.seed != 7 and seats_of(round_) != with_seven
    client.post(url("round_draw", round_.pk), {"seed": "7"})
    assert seats_of(round_) == with_seven
    response = client.post(url("round_draw", round_.pk), {"seed": "-1"})
    assert response.status_code == 400 and response.context["draw_form"].errors["seed"]
    response = client.post(url("round_start", round_.pk), follow=True)
    round_.refresh_from_db()
    assert round_.is_started
    page = text(response)
    for table in round_.tables.select_related("event"):
        shoe = table.event.shoes.get()
        assert reverse("ledger:shoe_table", args=[shoe.pk]) in page
    assert "0 of 3 hands · 3 left" in page
    assert "Draw again" not in page and "Start round" not in page
    response = client.post(url("round_draw", round_.pk), {"seed": "8"}, follow=True)
    assert message_texts(response) == [str(services.MSG_ROUND_STARTED).format(number=1)]
    assert seats_of(round_) == with_seven


def test_the_round_is_closed_after_every_table_and_leads_to_the_next(
    client, host, make_tournament, add_round, play_round, play
):
    tournament = make_tournament()
    heat = add_round(tournament, hands=2, per_table=2, wildcards=2)
    final = add_round(tournament, hands=2, is_final=True)
    services.round_draw(round_=heat, by=host, seed=1)
    heat = services.round_start(round_=heat, by=host)
    client.force_login(host)
    first = heat.tables.first()
    play(first, "B")
    response = client.post(url("round_close", heat.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_TABLES_PLAYING).format(number=1)]
    assert "Confirm and close round" not in text(response)
    heat.refresh_from_db()
    assert not heat.is_closed
    for table in heat.tables.all():  # finish: seat n stakes n × 10 on Banker, Banker wins
        seats = list(table.seats.values_list("seat", flat=True))
        while table.event.shoes.get().hands.count() < 2:
            play(table, "B", {seat: ("banker", seat * 10) for seat in seats})
    page = text(client.get(url("round_detail", heat.pk)))
    assert "Confirm and close round" in page and "6 go on:" in page
    assert "Every table has played its hands" in page
    assert page.count("· wildcard") == 2
    response = client.post(url("round_close", heat.pk), follow=True)
    heat.refresh_from_db()
    assert heat.is_closed
    assert tournament.entrants.filter(out_after_round=1).count() == 8
    page = text(response)
    assert url("round_detail", final.pk) in page and "Next: the final table (draw it)" in page
    assert 'hx-trigger="live-refresh"' not in page  # a closed round's board stays still
    assert "data-live-poll" not in page
    # The heat's page says the next step as it stands, long after.
    services.round_draw(round_=final, by=host)
    assert "Next: the final table (start it)" in text(client.get(url("round_detail", heat.pk)))
    services.round_start(round_=final, by=host)
    page = text(client.get(url("round_detail", heat.pk)))
    assert "The final table is being played" in page and "(draw it)" not in page


def test_the_final_shows_places_and_prizes_then_pays_them(
    client, host, make_tournament, add_round, play_round
):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"], prize_table="60%, 40%")
    heat = add_round(tournament, hands=1, per_table=3)
    final = add_round(tournament, hands=1, is_final=True)
    for round_ in (heat, final):
        services.round_draw(round_=round_, by=host, seed=2)
        round_ = services.round_start(round_=round_, by=host)
        play_round(round_)
        if not round_.is_final:
            services.round_close(round_=round_, by=host)
    heat.refresh_from_db()
    final.refresh_from_db()
    client.force_login(host)
    page = text(client.get(url("round_detail", final.pk)))
    _cut, pool = services.tournament_pool(tournament)
    assert pool == Decimal("135.00")
    board = round_board(final)
    best = max(board.lines, key=lambda line: line.stack)
    assert "Confirm and pay the prizes" in page
    assert "$81" in page and "$54" in page  # 60% and 40% of $135
    response = client.post(url("round_close", final.pk), follow=True)
    assert message_texts(response) == [str(MSG_PRIZES_PAID)]
    tournament.refresh_from_db()
    assert tournament.is_finished
    winner = tournament.entrants.get(place=1)
    assert winner.pk == best.entrant_id and winner.prize == Decimal("81.00")
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert "Final standings" in page
    standings = page[page.index('id="players"') : page.index('id="rounds"')]
    rows = re.findall(r"<tr>(.*?)</tr>", standings, re.S)
    first = rows[1]
    assert escape(winner.guest.name) in first and "$81" in first
    heat_stack = next(
        line.stack for line in round_board(heat).lines if line.entrant_id == winner.pk
    )
    assert format_chips(heat_stack) in first and format_chips(best.stack) in first


def test_split_ties_past_a_one_table_final_ask_for_a_playoff_on_the_round_page(
    client, host, make_tournament, add_round, play
):
    players = [f"Player {n}" for n in range(1, 9)]
    tournament = make_tournament(players=players, tie_break="split", final_overflow="playoff")
    heat = add_round(tournament, hands=1, per_table=3)  # 2 tables of 4: 6 go on, by the numbers
    add_round(tournament, hands=1, is_final=True)
    services.round_draw(round_=heat, by=host, seed=2)
    heat = services.round_start(round_=heat, by=host)
    first, second = heat.tables.all()
    play(first, "B", {1: ("banker", 100)})  # table 1: one ahead, three level at the cut
    play(second, "B")  # table 2: four level
    client.force_login(host)
    page = unescape(text(client.get(url("round_detail", heat.pk))))
    assert "Split ties here would send more on than the final seats: those tied play off." in page
    board = round_board(heat)
    assert sorted(len(group) for group in board.playoffs) == [3, 4]
    for group in board.playoffs:
        for entrant in group:
            assert f'name="rank_{entrant}"' in page
    ranks = {
        f"rank_{entrant}": str(rank)
        for group in board.playoffs
        for rank, entrant in enumerate(group, 1)
    }
    assert client.post(url("round_close", heat.pk), ranks).status_code == 302
    assert tournament.entrants.filter(out_after_round__isnull=True).count() == 6


def test_a_tie_across_the_cut_asks_the_playoff_order(
    client, host, make_tournament, add_round, play
):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"], tie_break="playoff")
    heat = add_round(tournament, hands=1, per_table=1)
    add_round(tournament, hands=1, is_final=True)
    services.round_draw(round_=heat, by=host)
    heat = services.round_start(round_=heat, by=host)
    play(heat.tables.get(), "B", {1: ("banker", 100), 2: ("banker", 100)})
    tied = [line.entrant_id for line in round_board(heat).lines if line.seat in (1, 2)]
    client.force_login(host)
    page = text(client.get(url("round_detail", heat.pk)))
    for entrant in tied:
        assert f'name="rank_{entrant}"' in page
    assert "Tied across the cut, a play-off decides:" in page
    response = client.post(url("round_close", heat.pk), {f"rank_{tied[0]}": "1"})
    assert response.status_code == 400
    assert response.context["playoff_form"].errors == {f"rank_{tied[1]}": [str(MSG_RANK)]}
    response = client.post(
        url("round_close", heat.pk), {f"rank_{tied[0]}": "1", f"rank_{tied[1]}": "3"}
    )
    assert response.status_code == 400  # a place past the group's size
    heat.refresh_from_db()
    assert not heat.is_closed
    client.post(url("round_close", heat.pk), {f"rank_{tied[1]}": "1", f"rank_{tied[0]}": "2"})
    heat.refresh_from_db()
    assert heat.is_closed
    going_on = tournament.entrants.filter(out_after_round__isnull=True)
    assert list(going_on.values_list("pk", flat=True)) == [tied[1]]


def test_rebuys_and_add_ons_from_the_round_page(client, host, make_tournament, add_round, play):
    tournament = make_tournament(
        players=["Aki", "Ben"],
        rebuy_price=Decimal(40),
        rebuy_chips=Decimal(1000),
        rebuy_rounds=1,
        add_on_price=Decimal(20),
        add_on_chips=Decimal(500),
        add_on_round=1,
    )
    round_ = add_round(tournament, hands=4)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    aki = tournament.entrants.get(guest__name="Aki")
    client.force_login(host)
    page = text(client.get(url("round_detail", round_.pk)))
    assert url("entrant_rebuy", round_.pk, aki.pk) in page
    assert url("entrant_add_on", round_.pk, aki.pk) in page
    response = client.post(url("entrant_rebuy", round_.pk, aki.pk), follow=True)
    stack = format_chips(Decimal(1000))  # the stack as the page writes chips
    assert message_texts(response) == [
        str(services.MSG_REBUY_STACK).format(guest="Aki", stack=stack)
    ]
    play(table, "P", {table.seats.get(entrant=aki).seat: ("banker", 1000)})  # Aki busts
    response = client.post(url("entrant_rebuy", round_.pk, aki.pk), follow=True)
    assert message_texts(response) == ["Aki rebought: 1,000 more chips, $40 owed."]
    response = client.post(url("entrant_add_on", round_.pk, aki.pk), follow=True)
    assert message_texts(response) == ["Aki took the add-on: 500 more chips, $20 owed."]
    response = client.post(url("entrant_add_on", round_.pk, aki.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_ADD_ON_USED).format(guest="Aki")]
    charges = Charge.objects.filter(guest=aki.guest).values_list("kind", "amount")
    assert sorted(charges) == [
        ("add_on", Decimal("-20.00")),
        ("entry", Decimal("-50.00")),
        ("rebuy", Decimal("-40.00")),
    ]
    line = next(line for line in round_board(round_).lines if line.entrant_id == aki.pk)
    assert line.stack == Decimal(1500) and stack
    page = text(client.get(url("tournament_detail", tournament.pk)))
    assert "$110" in page and "1 rebuy" in page


def test_no_rebuy_button_when_the_tournament_has_none(client, host, make_tournament, add_round):
    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    aki = tournament.entrants.get(guest__name="Aki")
    client.force_login(host)
    page = text(client.get(url("round_detail", round_.pk)))
    assert "entrant_rebuy" not in page and url("entrant_rebuy", round_.pk, aki.pk) not in page
    response = client.post(url("entrant_rebuy", round_.pk, aki.pk), follow=True)
    assert message_texts(response) == [str(services.MSG_NO_REBUYS)]
    other = make_tournament(players=["Cho", "Dee"])
    cho = other.entrants.get(guest__name="Cho")
    assert client.post(url("entrant_rebuy", round_.pk, cho.pk)).status_code == 404


def test_a_table_gets_its_display_link(client, host, drawn):
    _tournament, round_ = drawn
    table = round_.tables.get()
    client.force_login(host)
    response = client.post(url("table_display_link", table.pk))
    assert response.url == url("round_detail", round_.pk) + "#table-1"
    table.event.refresh_from_db()
    token = table.event.display_token
    assert token
    page = text(client.get(url("round_detail", round_.pk)))
    assert reverse("display:table_display", args=[table.event_id, token]) in page


def test_the_board_refreshes_itself_and_marks_who_goes_on(
    client, dealer, make_tournament, add_round, host, play
):
    tournament = make_tournament(players=["Aki", "Ben", "Cho"])
    round_ = add_round(tournament, hands=3, per_table=1)
    services.round_draw(round_=round_, by=host)
    round_ = services.round_start(round_=round_, by=host)
    table = round_.tables.get()
    play(table, "B", {1: ("banker", 200)})
    client.force_login(dealer)
    partial = text(client.get(url("round_board", round_.pk), **HTMX))
    assert partial.lstrip().startswith('<section class="board"')
    assert f'hx-get="{url("round_board", round_.pk)}"' in partial
    assert 'hx-trigger="live-refresh"' in partial and 'data-live-poll="5"' in partial
    assert "1 of 3 hands · 2 left" in partial
    rows = re.findall(r"<tr class=\"([^\"]*)\"[^>]*>(.*?)</tr>", partial, re.S)
    leader = [cells for classes, cells in rows if "qualifying" in classes]
    assert len(leader) == 1 and "1,190" in leader[0] and "goes on" in leader[0]
    page = text(client.get(url("round_detail", round_.pk)))
    assert partial.strip() in page


def test_the_board_marks_one_players_line(rf, make_tournament, add_round, host):
    from django.template.loader import render_to_string

    tournament = make_tournament(players=["Aki", "Ben"])
    round_ = add_round(tournament)
    services.round_draw(round_=round_, by=host)
    board = round_board(round_)
    aki = tournament.entrants.get(guest__name="Aki")
    html = render_to_string(
        "tournaments/_board.html",
        {"board": board, "highlight_guest_id": aki.guest_id, "board_url": "/elsewhere/"},
    )
    marked = re.findall(r'<tr class="[^"]*highlight[^"]*"[^>]*>(.*?)</tr>', html, re.S)
    assert len(marked) == 1 and "Aki" in marked[0]
    assert 'hx-get="/elsewhere/"' in html


def test_the_ledger_links_to_the_tournament_and_its_rounds(client, host, drawn):
    tournament, round_ = drawn
    client.force_login(host)
    events = text(client.get(reverse("ledger:event_list")))
    link = url("tournament_for_event", tournament.event_id)
    assert link in events
    assert client.get(link).url == url("tournament_detail", tournament.pk)
    night = text(client.get(reverse("ledger:event_detail", args=[tournament.event_id])))
    assert url("tournament_detail", tournament.pk) in night
    table = round_.tables.get()
    page = text(client.get(reverse("ledger:event_detail", args=[table.event_id])))
    assert url("round_detail", round_.pk) in page


def count_queries(client, address: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(address)
    assert response.status_code == 200
    return len(captured)


def build(make_tournament, add_round, host, play, players: int, rounds: int):
    """A tournament ``rounds`` rounds in (the last one started, with a hand at each table) and
    a rebuy; returns it and its last round."""
    names = [f"Player {n:02d}" for n in range(1, players + 1)]
    tournament = make_tournament(
        players=names,
        rebuy_chips=Decimal(500),
        rebuy_price=Decimal(10),
        rebuy_rounds=9,
        max_rebuys=9,
    )
    for number in range(1, rounds + 1):
        round_ = add_round(tournament, hands=2, per_table=5, wildcards=1)
        services.round_draw(round_=round_, by=host, seed=number)
        round_ = services.round_start(round_=round_, by=host)
        for table in round_.tables.all():
            seats = list(table.seats.values_list("seat", flat=True))
            play(table, "P", dict.fromkeys(seats, ("banker", 100)))
            if number < rounds:
                play(table, "B")
        first = TableSeat.objects.filter(round=round_).first()
        services.rebuy(entrant=first.entrant, by=host)
        if number < rounds:
            services.round_close(round_=round_, by=host)
    return tournament, round_


@pytest.mark.parametrize(
    "page", ["tournament_list", "tournament_detail", "round_detail", "round_board"]
)
def test_the_pages_run_constant_queries(
    client, host, make_tournament, add_round, play, page, django_assert_max_num_queries
):
    def address(tournament, round_):
        if page == "tournament_list":
            return url(page)
        return url(page, tournament.pk if page == "tournament_detail" else round_.pk)

    client.force_login(host)
    small, small_round = build(make_tournament, add_round, host, play, players=3, rounds=1)
    few = count_queries(client, address(small, small_round))
    big, big_round = build(make_tournament, add_round, host, play, players=20, rounds=3)
    assert big_round.tables.count() == 3 and small_round.tables.count() == 1
    with django_assert_max_num_queries(few):
        client.get(address(big, big_round))


def test_a_tournament_night_is_edited_with_its_tournament_not_in_the_ledger(client, drawn, host):
    tournament, _round = drawn
    client.force_login(host)
    edit = reverse("ledger:event_edit", args=[tournament.event_id])
    response = client.post(edit, {"name": "Renamed", "money_per_chip": "1"})
    assert response.status_code == 302
    assert response.url == reverse("tournaments:tournament_for_event", args=[tournament.event_id])
    tournament.event.refresh_from_db()
    assert (tournament.event.name, tournament.event.money_per_chip) == ("Spring cup", Decimal(100))
    page = client.get(reverse("ledger:event_detail", args=[tournament.event_id]))
    assert edit not in page.content.decode()
