"""A tournament table in the browser (static/js/tournament.js): "No bet" fills the minimum as if
typed, "Secret" hides a seat's stakes at once — offline too — until the hand is saved; and the
leaderboard fits the table display on a TV and on a phone."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from games import services as game_services
from ledger.guests import services as guest_services
from ledger.models import Bet
from tests.browser.conftest import UNTIL_THE_OUTBOX_IS_EMPTY, new_page, open_table
from tests.browser.look import WCAG_AA, problems
from tests.tournaments.conftest import open_shoe
from tournaments import services
from tournaments.models import TableSeat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SECRET_ROW = "tr[data-seat='{seat}'].secret"


def start_round(host, players, **settings):
    tournament = services.tournament_create(
        name="Browser cup",
        date=date(2026, 11, 22),
        by=host,
        entry_fee=Decimal(50),
        starting_stack=Decimal(1000),
        **settings,
    )
    for number in range(1, players + 1):
        services.entrant_add(tournament=tournament, name=f"Player {number:02d}", by=host)
    round_ = services.round_add(
        tournament=tournament,
        by=host,
        hands=3,
        table_min=Decimal(10),
        table_max=Decimal(1000),
        bet_unit=Decimal(10),
    )
    services.round_draw(round_=round_, by=host, seed=1)
    return services.round_start(round_=round_, by=host)


@pytest.fixture
def tournament_table(host, live_server):
    round_ = start_round(host, 3, secret_bet="any", mandatory_side="banker")
    table = round_.tables.get()
    return live_server.url, table.event.shoes.get(), table


def secret_hand(table, seat):
    return TableSeat.objects.get(table=table, seat=seat).secret_hand


def test_no_bet_and_secret_at_the_table(phone, host, tournament_table):
    base_url, shoe, table = tournament_table
    open_table(phone, base_url, shoe, host)
    expect(phone.locator(".tournament-bar")).to_contain_text("Hand 1 of 3")
    expect(phone.locator("[data-first-bet='1']")).to_be_visible()

    page_url = phone.url
    phone.tap("[data-fill='stake_2_banker']")
    expect(phone.locator("input[name=stake_2_banker]")).to_have_value("10")
    assert phone.url == page_url  # filled in the page, nothing sent

    phone.tap("[data-secret-seat='1']")
    expect(phone.locator(SECRET_ROW.format(seat=1))).to_have_count(1)
    expect(phone.locator("[data-secret-seat='1']")).to_have_attribute("aria-pressed", "true")
    masked = phone.eval_on_selector(
        "input[name=stake_1_player]", "(box) => getComputedStyle(box).webkitTextSecurity"
    )
    assert masked == "disc"
    phone.wait_for_function("() => document.querySelector('[data-answer]').textContent")
    assert secret_hand(table, 1) == 1

    # Enter on a tool presses it (it does not save the hand); pressed again, it is taken back.
    phone.focus("[data-secret-seat='3']")
    phone.keyboard.press("Enter")
    expect(phone.locator(SECRET_ROW.format(seat=3))).to_have_count(1)
    phone.tap("[data-secret-seat='3']")
    expect(phone.locator(SECRET_ROW.format(seat=3))).to_have_count(0)

    phone.fill("input[name=stake_1_player]", "50")
    phone.tap(".outcome-banker")
    phone.tap("button.save")
    expect(phone.locator("[data-first-bet='2']")).to_be_visible()
    expect(phone.locator(SECRET_ROW.format(seat=1))).to_have_count(0)
    expect(phone.locator("[data-secret-seat='1']")).to_have_count(0)  # used this round
    bets = sorted(Bet.objects.values_list("seat", "bet_type", "stake"))
    assert bets == [(1, "player", Decimal(50)), (2, "banker", Decimal(10))]
    assert secret_hand(table, 1) == 1 and secret_hand(table, 3) is None

    small = phone.eval_on_selector_all(
        ".t-tools a, .t-tools button",
        """(tools) => tools.map((tool) => tool.getBoundingClientRect())
            .filter((box) => box.height < 44 || box.width < 44).length""",
    )
    assert small == 0
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_a_secret_stays_hidden_offline(phone, host, tournament_table, wifi):
    base_url, shoe, table = tournament_table
    open_table(phone, base_url, shoe, host)
    wifi.drop(phone)
    phone.tap("[data-secret-seat='2']")
    expect(phone.locator(SECRET_ROW.format(seat=2))).to_have_count(1)
    phone.fill("input[name=stake_2_banker]", "20")
    phone.wait_for_timeout(300)
    expect(phone.locator(SECRET_ROW.format(seat=2))).to_have_count(1)
    wifi.restore(phone)
    assert secret_hand(table, 2) is None  # the server never heard: the mask is this device's


def test_a_hand_saved_offline_moves_the_first_bet_marker_at_once(phone, host, live_server, wifi):
    round_ = start_round(host, 3)
    table = round_.tables.get()
    open_table(phone, live_server.url, table.event.shoes.get(), host)
    expect(phone.locator("[data-first-bet='1']")).to_be_visible()
    wifi.drop(phone)
    phone.tap(".outcome-banker")
    phone.tap("button.save")
    expect(phone.locator("[data-first-bet='2']")).to_be_visible()
    expect(phone.locator("[data-first-bet]")).to_have_count(1)
    phone.tap(".outcome-player")
    phone.tap("button.save")
    expect(phone.locator("[data-first-bet='3']")).to_be_visible()
    assert not table.event.shoes.get().hands.exists()  # both hands wait on the device
    wifi.restore(phone)
    # Back online, both go; the test ends only once they are in (a request still on its way
    # when the database is emptied for the next test deadlocks PostgreSQL's TRUNCATE).
    phone.evaluate(UNTIL_THE_OUTBOX_IS_EMPTY)
    assert table.event.shoes.get().hands.count() == 2


def test_a_refused_secret_shows_the_stake_again_and_says_why(phone, host, tournament_table):
    base_url, shoe, table = tournament_table
    open_table(phone, base_url, shoe, host)
    TableSeat.objects.filter(table=table, seat=2).update(secret_hand=99)  # used elsewhere
    phone.tap("[data-secret-seat='2']")
    expect(phone.locator("[data-answer]")).to_contain_text("secret bet this round")
    expect(phone.locator(SECRET_ROW.format(seat=2))).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), [(1280, 720), (1920, 1080), (360, 740)])
def test_the_leaderboard_fits_the_display(browser, host, live_server, width, height):
    round_ = start_round(host, 14)
    event = round_.tables.first().event
    token = game_services.event_display_link_issue(event=event)
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{live_server.url}/display/{event.pk}/{token}/")
    board = page.locator(".leaderboard")
    expect(board.locator("table")).to_have_count(2)
    expect(board.locator("tbody tr")).to_have_count(14)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    box = board.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    if width > height:  # a TV: the roads and the leaderboard side by side, all on the screen
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight")
        roads = page.locator(".scoreboard").bounding_box()
        assert roads["x"] + roads["width"] <= box["x"]
    page.goto("about:blank")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_the_display_and_a_players_page_pass_axe(browser, host, live_server, scheme):

    round_ = start_round(host, 14, secret_bet="any")
    table = round_.tables.first()
    shoe = open_shoe(table)
    page = new_page(browser, 360, 740, has_touch=True, color_scheme=scheme)
    open_table(page, live_server.url, shoe, host)
    page.tap("[data-secret-seat='2']")
    expect(page.locator(SECRET_ROW.format(seat=2))).to_have_count(1)
    assert problems(page) == []
    token = game_services.event_display_link_issue(event=table.event)
    page.goto(f"{live_server.url}/display/{table.event_id}/{token}/")
    # The leaderboard only: the roads' own colours on the display are another matter.
    found = Axe().run(page, context=".leaderboard", options=WCAG_AA).response["violations"]
    assert [(problem["id"], len(problem["nodes"])) for problem in found] == []
    guest = table.seats.get(seat=1).entrant.guest
    link = guest_services.guest_link_issue(guest=guest)
    page.goto(f"{live_server.url}/g/{guest.pk}/{link}/")
    expect(page.locator(".tournament-now")).to_be_visible()
    assert problems(page) == []
    page.goto("about:blank")
    page.context.close()


@pytest.mark.parametrize("seats", [7, 9])
def test_no_bet_is_compact_so_a_phone_shows_the_seats_above_the_entry(
    phone, host, live_server, seats
):
    """A full table of the tournament's seats (9 too) at 360 px: every seat a row, each row's
    stake boxes within the screen, nothing wider than it."""
    round_ = start_round(host, seats, seats_per_table=seats)
    open_table(phone, live_server.url, round_.tables.get().event.shoes.get(), host)
    seen = phone.evaluate(
        """() => {
        const entry = document.querySelector('.entry-bar').getBoundingClientRect().top;
        const trs = [...document.querySelectorAll('table.bets tbody tr')];
        const rows = trs.map((row) => row.getBoundingClientRect());
        const boxes = [...document.querySelectorAll('table.bets input.stake')]
          .map((box) => box.getBoundingClientRect());
        const tool = document.querySelector('[data-fill]').getBoundingClientRect();
        return {above: rows.filter((row) => row.bottom <= entry).length,
                seats: trs.map((row) => Number(row.dataset.seat)),
                named: trs.filter((row) => /Player \\d\\d/.test(row.textContent)).length,
                outside: boxes.filter((box) => box.left < 0 || box.right > innerWidth).length,
                tallest: Math.max(...rows.map((row) => row.height)),
                tool: [tool.width, tool.height]};
      }"""
    )
    assert seen["seats"] == list(range(1, seats + 1))
    assert seen["named"] == seats and seen["outside"] == 0
    tap = 44
    assert seen["tallest"] <= tap + 1  # a row is one tap high: the tool stands beside the name
    assert seen["above"] >= 5
    assert min(seen["tool"]) >= tap
    assert phone.evaluate("document.documentElement.scrollWidth <= innerWidth")
