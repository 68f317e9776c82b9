"""A tournament night through its pages: the host sets it up and registers eight players, a
round of two tables is logged from two devices at once (the host's and a dealer's), the host
confirms who goes on, the final table is played, the prizes paid, and the guests' balances
show entry fees and prizes."""

from __future__ import annotations

from decimal import Decimal

import pytest

from games.entry import MSG_OVER_STACK
from games.messages import RuleError, format_chips
from tests.browser.conftest import NAMES, log_in, touch_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENTRY_FEE = Decimal(50)
CUT_PERCENT = Decimal(10)
STARTING_STACK = Decimal(1000)
SHARES = (Decimal(60), Decimal(40))  # the prize table "60%, 40%"
COMMISSION = Decimal("0.05")
HANDS = 3
# Each table's results, hand by hand, tapped on the Player / Banker buttons.
ROUND_ONE = {1: ("player", "banker", "player"), 2: ("banker", "banker", "player")}
FINAL = ("banker", "player", "banker")


@pytest.fixture
def host_tablet(browser):
    yield from touch_screen(browser, 1024, 900)


@pytest.fixture
def dealer_tablet(browser):
    yield from touch_screen(browser, 1024, 900)


def planned_bet(table: int, hand: int, seat: int) -> tuple[str, Decimal]:
    """Odd seats bet Player, even seats Banker; each seat its own size, growing hand by hand."""
    return ("player" if seat % 2 else "banker"), Decimal(10 * (seat * (hand + table) + hand))


def net(side: str, stake: Decimal, result: str) -> Decimal:
    if side != result:
        return -stake
    return stake if side == "player" else stake * (1 - COMMISSION)


def stacks_after(table: int, seats: list[int], results: tuple[str, ...]) -> dict[int, Decimal]:
    stacks = dict.fromkeys(seats, STARTING_STACK)
    for hand, result in enumerate(results, start=1):
        for seat in seats:
            stacks[seat] += net(*planned_bet(table, hand, seat), result)
    return stacks


def amount(text: str) -> Decimal:
    """A figure as a page writes it (1,040 · −$50 · +166) as a Decimal."""
    cleaned = text.strip().replace(",", "").replace("$", "").replace("−", "-").replace("+", "")
    return Decimal(cleaned)


# --- the pages --------------------------------------------------------------------------------


def set_up(page):
    """Tournaments → New tournament, the setup form, eight players, round 1 and the final."""
    page.get_by_role("link", name="Tournaments", exact=True).click()
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name").fill("Browser cup")
    page.get_by_label("Commission (%)").fill(format_chips(COMMISSION * 100))
    page.get_by_label("Currency symbol").fill("$")
    page.get_by_label("Entry fee").fill(str(ENTRY_FEE))
    page.get_by_label("House cut (%)").fill(str(CUT_PERCENT))
    page.get_by_label("Starting stack").fill("1,000")
    page.get_by_label("Prizes").fill("60%, 40%")
    page.get_by_role("button", name="Create tournament").click()
    page.get_by_text("Browser cup is ready").wait_for()
    tournament_url = page.url

    for name in NAMES:
        page.get_by_label("Player's name").fill(name)
        page.get_by_role("button", name="Register").click()
        page.get_by_text(f"{name} is registered.").wait_for()
    assert page.locator("#players h2").inner_text() == "Players (8)"

    add_round(page, hands=HANDS, per_table=2, wildcards=0)
    page.get_by_text("Round 1 is added").wait_for()
    round_url = page.url
    page.goto(tournament_url)
    add_round(page, hands=HANDS, final=True)
    page.get_by_text("Round 2 is added").wait_for()
    final_url = page.url
    return tournament_url, round_url, final_url


def add_round(page, *, hands, per_table=None, wildcards=None, final=False):
    form = page.locator("details.round-add")
    form.locator("summary").click()
    form.get_by_label("Hands").fill(str(hands))
    if per_table is not None:
        form.get_by_label("Go on from each table").fill(str(per_table))
        form.get_by_label("Wildcards").fill(str(wildcards))
    if final:
        form.get_by_label("Final table").check()
    form.get_by_role("button", name="Add round").click()


def draw_and_start(page, number):
    page.get_by_role("button", name="Draw the seats").click()
    page.get_by_text(f"Round {number} is drawn with seed").wait_for()
    page.get_by_role("button", name="Start round").click()
    page.get_by_text(f"Round {number} has started").wait_for()


def open_live_table(page, number):
    page.locator(f"#table-{number}").get_by_role("link", name="Live table").click()
    page.locator("#hand-form").wait_for()


def seated(page) -> dict[int, str]:
    """Seat → name, as the live table's rows show them."""
    rows = page.locator("table.bets tbody tr:not(.empty)")
    seats = {}
    for row in rows.all():
        seat = int(row.locator(".seat-no").inner_text())
        seats[seat] = row.locator(".guest").inner_text().strip()
    return seats


def fill_hand(page, table, hand, seats, result, *, stakes=None):
    for seat in seats:
        side, stake = planned_bet(table, hand, seat)
        if stakes and seat in stakes:
            stake = stakes[seat]
        page.fill(f"input[name=stake_{seat}_{side}]", format_chips(stake))
    page.locator(f".outcome-{result}").click()


def save(page):
    page.locator("button.save").click()


def saved(page, hand):
    page.locator(f"#table[data-saved-hand='{hand}']").wait_for()
    assert page.locator("[data-answer]").inner_text().startswith(f"Hand {hand} saved")


def board_stacks(page, table) -> dict[int, tuple[str, Decimal]]:
    lines = {}
    for row in page.locator(f"#board-table-{table} table.board-lines tbody tr").all():
        cells = row.locator("td")
        seat = int(cells.nth(0).inner_text().split()[0])
        lines[seat] = (cells.nth(1).inner_text().strip(), amount(cells.nth(2).inner_text()))
    return lines


def top(stacks: dict[int, Decimal], count: int) -> list[int]:
    return sorted(stacks, key=stacks.__getitem__, reverse=True)[:count]


# --- the test ---------------------------------------------------------------------------------


def test_a_two_table_tournament_is_played_to_its_prizes_and_the_balances(
    host_tablet, dealer_tablet, host, dealer, live_server
):
    base_url = live_server.url
    host_page, dealer_page = host_tablet, dealer_tablet
    log_in(host_page, base_url, host.username)
    tournament_url, round_url, final_url = set_up(host_page)
    host_page.goto(round_url)
    draw_and_start(host_page, 1)

    # Two devices, one table each, both opened from the round page.
    log_in(dealer_page, base_url, dealer.username)
    dealer_page.get_by_role("link", name="Tournaments", exact=True).click()
    dealer_page.get_by_role("link", name="Browser cup").click()
    dealer_page.get_by_role("link", name="Round 1", exact=True).click()
    open_live_table(host_page, 1)
    open_live_table(dealer_page, 2)
    pages = {1: host_page, 2: dealer_page}
    names = {table: seated(page) for table, page in pages.items()}
    assert sorted(name for table in names.values() for name in table.values()) == sorted(NAMES)
    seats = {table: sorted(names[table]) for table in pages}
    expected = {table: stacks_after(table, seats[table], ROUND_ONE[table]) for table in pages}
    # The plan leaves no two stacks equal at a table: who goes on is never a tie-break.
    assert all(len(set(stacks.values())) == len(stacks) for stacks in expected.values())

    for hand in range(1, HANDS + 1):
        if hand == HANDS:  # a stake over what the seat has left is refused, on the phone
            stacks = stacks_after(1, seats[1], ROUND_ONE[1][: hand - 1])
            short = min(stacks, key=stacks.__getitem__)
            over = (stacks[short] // 10 + 1) * 10
            fill_hand(host_page, 1, hand, seats[1], ROUND_ONE[1][hand - 1], stakes={short: over})
            save(host_page)
            refusal = str(RuleError(MSG_OVER_STACK, total=over, stack=stacks[short]))
            # In the server's words, before Save moves the entry on: nothing is sent.
            host_page.locator("#deal-status", has_text=refusal).wait_for()
            assert host_page.evaluate("window.shoebookTableState().queue.length") == 0
            assert host_page.locator("[data-hand-number]").inner_text() == str(hand)
            host_page.locator("#hand-form [data-clear]").click()  # start the hand over
        for table, page in pages.items():  # both entries ready, then both saves at once
            fill_hand(page, table, hand, seats[table], ROUND_ONE[table][hand - 1])
        for page in pages.values():
            save(page)
        for page in pages.values():
            saved(page, hand)

    # The round page: every table done, the board's stacks, who goes on; the host confirms.
    host_page.goto(round_url)
    for table in pages:
        assert "done" in host_page.locator(f"#table-{table}").inner_text()
        assert "done" in host_page.locator(f"#board-table-{table} h3").inner_text()
        board = board_stacks(host_page, table)
        assert board == {seat: (names[table][seat], expected[table][seat]) for seat in seats[table]}
    going_on = {names[t][seat] for t in pages for seat in top(expected[t], 2)}
    confirm = host_page.locator("#confirm")
    tags = confirm.locator(".tag").all_inner_texts()
    assert {tag.split(" · ")[0] for tag in tags} == going_on
    assert "4 go on:" in confirm.inner_text()
    confirm.get_by_role("button", name="Confirm and close round").click()
    host_page.get_by_text("Round 1 is closed: 4 go on.").wait_for()

    # The final table: drawn, started and played on its own table page.
    host_page.get_by_role("link", name="Next: the final table (draw it)").click()
    assert host_page.url == final_url
    draw_and_start(host_page, 2)
    open_live_table(host_page, 1)
    final_names = seated(host_page)
    assert set(final_names.values()) == going_on
    final_seats = sorted(final_names)
    for hand, result in enumerate(FINAL, start=1):
        fill_hand(host_page, 1, hand, final_seats, result)
        save(host_page)
        saved(host_page, hand)
    final_stacks = stacks_after(1, final_seats, FINAL)
    assert len(set(final_stacks.values())) == len(final_stacks)  # the plan leaves no tie

    host_page.goto(final_url)
    host_page.get_by_role("button", name="Confirm and pay the prizes").click()
    host_page.get_by_text("The final table is closed: the places are settled").wait_for()

    # The final standings: places by the final stacks, prizes that add up to the pool.
    host_page.get_by_role("link", name="See the final standings").click()
    host_page.locator("main").get_by_role("link", name="Standings", exact=True).click()
    pool = len(NAMES) * ENTRY_FEE * (100 - CUT_PERCENT) / 100
    assert pool == Decimal(360)
    summary = host_page.locator(".summary-line").inner_text()
    assert f"prize pool {format_chips(pool)}" in summary
    assert f"prizes paid {format_chips(pool)}" in summary
    prizes, places = {}, {}
    for row in host_page.locator("table.tournament-standings tbody tr").all():
        cells = row.locator("td").all_inner_texts()
        name = cells[1].strip()
        prizes[name] = amount(cells[2])
        places[name] = int(cells[0]) if cells[0].strip().isdigit() else None
        assert amount(cells[3]) == ENTRY_FEE  # paid in
        assert amount(cells[4]) == prizes[name] - ENTRY_FEE  # net
    assert sorted(prizes) == sorted(NAMES)
    by_stack = [final_names[seat] for seat in top(final_stacks, len(final_seats))]
    assert [places[name] for name in by_stack] == [1, 2, 3, 4]  # the biggest final stack wins
    assert all(places[name] is None for name in NAMES if name not in going_on)
    assert [prizes[name] for name in by_stack] == [
        pool * SHARES[0] / 100,
        pool * SHARES[1] / 100,
        Decimal(0),
        Decimal(0),
    ]
    assert sum(prizes.values()) == pool

    # The guests' balances: the tournament night's settlement list and the Guests page.
    host_page.goto(tournament_url)
    host_page.get_by_role("link", name="Money: the night in the ledger").click()
    for name, prize in prizes.items():
        line = host_page.locator("table.settlement-list tbody tr", has_text=name)
        balance = line.locator("td").nth(1).inner_text()
        assert amount(balance) == prize - ENTRY_FEE, name
        assert balance == format_chips(prize - ENTRY_FEE, "$")
    host_page.get_by_role("link", name="Guests", exact=True).click()
    for name, prize in prizes.items():
        line = host_page.locator("table tbody tr", has_text=name)
        assert amount(line.locator("td").nth(1).inner_text()) == prize - ENTRY_FEE, name
