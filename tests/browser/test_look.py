"""Readable in a dark bar: the dark theme (the device's, or the switch's), contrast checked by
axe-core (WCAG 2 AA), wins and losses coloured, and touch targets of at least 44 px."""

from __future__ import annotations

import pytest

from tests.browser.conftest import NAMES, log_in, new_page, open_table
from tests.browser.look import problems
from tests.conftest import bet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_table_and_the_event_pages_pass_axe_in_either_theme(
    browser, host, full_table, record, scheme
):
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10), bet(2, "banker", 10)])
    page = new_page(browser, 360, 740, has_touch=True, color_scheme=scheme)
    open_table(page, base_url, shoe, host)
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(14, 21, 18)") == (scheme == "dark")  # follows the device
    assert problems(page) == []
    page.goto(f"{base_url}/events/{shoe.event_id}/")
    assert problems(page) == []
    page.context.close()


def test_the_switch_chooses_a_theme_that_stays(phone, host, full_table):
    base_url, shoe = full_table
    open_table(phone, base_url, shoe, host)
    light = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    phone.tap("[data-theme-switch]")
    dark = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    assert dark != light
    phone.reload()
    assert phone.evaluate("getComputedStyle(document.body).backgroundColor") == dark
    assert problems(phone) == []


def test_wins_losses_and_chips_are_coloured_and_targets_are_44_pixels(
    phone, host, full_table, record
):
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 10), bet(2, "banker", 10)])
    open_table(phone, base_url, shoe, host)
    colour = "(selector) => getComputedStyle(document.querySelector(selector)).color"
    win = phone.evaluate(colour, "[data-seat-result='1']")
    loss = phone.evaluate(colour, "[data-seat-result='2']")
    plain = phone.evaluate(colour, "[data-seat-result='3']")
    assert len({win, loss, plain}) == 3
    chips = phone.eval_on_selector_all(
        "button.chip", "(chips) => chips.map((chip) => getComputedStyle(chip).backgroundColor)"
    )
    assert len(set(chips)) == len(chips) == 5  # one colour per denomination
    small = phone.eval_on_selector_all(
        "#hand-form button, #hand-form input:not([type=hidden], .outcome input), "
        "#hand-form .outcome, .table-head .button, summary, [data-theme-switch]",
        """(controls) => controls.filter((control) => control.checkVisibility())
            .map((control) => [control.outerHTML.slice(0, 60), control.getBoundingClientRect()])
            .filter(([html, box]) => box.height < 44 || box.width < 44)
            .map(([html, box]) => `${html} ${Math.round(box.width)}×${Math.round(box.height)}`)""",
    )
    assert small == []


def test_standings_and_house_show_names_left_and_the_house_net_in_view_on_a_phone(
    phone, host, full_table, record
):
    base_url, shoe = full_table
    record(shoe, "9 7", "J J 10", [bet(1, "player", 100)])  # 田中 +100: the house −100
    log_in(phone, base_url, host.username)
    for path, name, figure in (
        ("/standings/", NAMES[0], "+100"),
        ("/house/", "Browser night", "−100"),
    ):
        phone.goto(base_url + path)
        name_cell = phone.locator("tbody td", has_text=name).first
        assert name_cell.evaluate("cell => getComputedStyle(cell).textAlign") in ("left", "start")
        figure_cell = phone.locator("tbody td", has_text=figure).first
        box = figure_cell.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, (path, box)
