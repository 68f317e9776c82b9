"""A Chemin de fer coup played on a small phone: the bank as the table page offers it, a banco
solo, the cards typed, the ponte's choice offered on 5 (and only then), the banker's move —
and the page never wider than the phone."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from games import services as game_services
from games.entry import BetEntry, HandEntry
from games.guest_banked.terms import CoupTerms
from games.models import Event
from games.payouts import RuleSet
from ledger.guests import services as guest_services
from ledger.hands import services as hand_services
from ledger.models import Bet, Coup
from tests.browser.conftest import NAMES, log_in, new_page, open_table
from tests.browser.look import problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FITS = "document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def chemin_table(host, live_server):
    """A Chemin de fer night's open shoe, five guests seated in seats 1–5."""
    event = game_services.event_create(
        name="Chemin de fer night",
        date=date(2026, 11, 27),
        rules=RuleSet(),
        by=host,
        game="chemin_de_fer",
        taxe="percent",
        taxe_rate=Decimal("0.05"),
    )
    shoe = game_services.shoe_start(event=event, by=host)
    for seat, name in enumerate(NAMES[:5], start=1):
        guest = guest_services.event_guest_add(event=event, name=name, by=host)
        hand_services.seat_guest(shoe=shoe, seat=seat, guest=guest, by=host)
    return live_server.url, shoe


def test_a_chemin_coup_on_a_360_px_phone(phone, host, chemin_table):
    base_url, shoe = chemin_table
    open_table(phone, base_url, shoe, host)
    form = phone.locator("#coup-form")
    assert form.locator("[name=banker_seat]").input_value() == "1"  # the croupier's right
    assert phone.evaluate(FITS)

    form.locator("[name=bank]").fill("200")
    form.locator("[name=stake_2]").fill("200")
    form.locator("[name=kind_2]").select_option("banco_solo")
    form.locator("[name=player_cards]").fill("2 3")
    form.locator("[name=banker_cards]").fill("10 6")
    # The ponte has 5: the page asks, and only now.
    choice = form.locator("#coup-step [name=ponte_choice][value=stand]")
    choice.wait_for(state="attached")
    assert phone.evaluate(FITS)
    assert form.locator("#coup-step [name=banker_choice]").count() == 0
    form.locator("#coup-step label:has([name=ponte_choice][value=stand])").tap()
    phone.locator("#coup-step .deal-status", has_text="Banker wins 6–5.").wait_for()
    form.locator("label:has([name=move][value=suite])").tap()
    form.locator("[name=suite_seat]").select_option("3")
    assert phone.evaluate(FITS)
    form.locator("button.save").tap()
    phone.get_by_text("Coup 1 saved: Bank wins 6–5.").wait_for()

    coup = Coup.objects.get()
    assert (coup.ponte_choice, coup.move, coup.suite_seat) == ("stand", "suite", 3)
    assert (coup.bank_after, coup.house_cut) == (Decimal(390), Decimal(10))
    assert sorted(Bet.objects.values_list("seat", "net")) == [(1, 190), (2, -200)]
    # The next coup's bank: the suite's taker, at what the bank held.
    nxt = phone.locator("#coup-form")
    assert nxt.locator("[name=banker_seat]").input_value() == "3"
    assert nxt.locator("[name=bank]").input_value() == "390"
    assert phone.evaluate(FITS)


def test_a_refused_coup_says_why_beside_the_stake_on_the_phone(phone, host, chemin_table):
    base_url, shoe = chemin_table
    open_table(phone, base_url, shoe, host)
    form = phone.locator("#coup-form")
    form.locator("[name=bank]").fill("100")
    form.locator("[name=stake_2]").fill("150")
    form.locator("label.outcome:has([value=banker])").tap()
    form.locator("button.save").tap()
    # Held in a box of its own, the server's reason beside it; the entry is the next coup's.
    held = phone.locator("[data-held]")
    expect(held).to_contain_text("Coup 1 from this phone was refused")
    expect(held).to_contain_text("more than the 100 of the bank")
    expect(form.locator("[name=stake_2]")).to_have_value("")
    assert phone.evaluate(FITS)
    assert not Coup.objects.exists()
    # Fix in the entry: the coup comes back to fix, the reason still in sight.
    held.get_by_role("button", name="Fix in the entry").tap()
    expect(form.locator("[name=stake_2]")).to_have_value("150")
    expect(form.locator("[data-answer]")).to_contain_text("more than the 100 of the bank")
    expect(held).to_have_count(0)
    form.locator("[name=stake_2]").fill("100")
    form.locator("button.save").tap()
    phone.get_by_text("Coup 1 saved").wait_for()
    assert Coup.objects.get().bank == Decimal(100)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_coup_table_and_a_coup_s_page_pass_axe_with_44_pixel_targets(
    browser, host, chemin_table, scheme
):
    base_url, shoe = chemin_table
    hand_services.record_hand(
        shoe=shoe,
        number=1,
        by=host,
        entry=HandEntry(
            result="banker",
            bets=(BetEntry(2, "banco_solo", "100"),),
            coup=CoupTerms(banker_seat=1, bank="100"),
        ),
    )
    page = new_page(browser, 360, 740, has_touch=True, color_scheme=scheme)
    open_table(page, base_url, shoe, host)
    page.locator("#coup-form [name=player_cards]").fill("2 3")
    page.locator("#coup-form [name=banker_cards]").fill("10 6")
    page.locator("#coup-step [name=ponte_choice]").first.wait_for(state="attached")
    assert problems(page) == []
    small = page.eval_on_selector_all(
        "#coup-form button, #coup-form select, #coup-form input:not([type=hidden], "
        ".outcome input, .choice-button input, .move-choice input), #coup-form .outcome, "
        "#coup-form .choice-button, #coup-form .move-choice",
        """(controls) => controls.filter((control) => control.checkVisibility())
            .map((control) => [control.outerHTML.slice(0, 60), control.getBoundingClientRect()])
            .filter(([html, box]) => box.height < 44 || box.width < 44)
            .map(([html, box]) => `${html} ${Math.round(box.width)}×${Math.round(box.height)}`)""",
    )
    assert small == []
    page.goto(f"{base_url}/hands/{Coup.objects.get().hand_id}/")
    assert problems(page) == []
    assert page.evaluate(FITS)
    page.context.close()


# The fields only some games' forms have (Punto Banco's rules; the banks' terms).
GAME_FIELDS = {
    "punto_banco": ("format", "no_commission", "tie_pays", "side_bets", "table_max"),
    "chemin_de_fer": ("taxe", "taxe_rate", "shoe_charge", "clearing"),
    "baccara_banque": ("taxe", "banco", "clearing"),
}


def shown_fields(page) -> set[str]:
    names = {name for fields in GAME_FIELDS.values() for name in fields}
    return {name for name in names if page.locator(f"[name={name}]").first.is_visible()}


def test_the_event_form_shows_each_game_its_own_fields_and_cut_on_a_phone(phone, host, live_server):
    from playwright.sync_api import expect

    log_in(phone, live_server.url, host.username)
    phone.goto(f"{live_server.url}/events/new/")
    expect(phone.get_by_role("button", name="Show this game's fields")).to_be_hidden()
    phone.fill("[name=name]", "Chemin night")
    assert shown_fields(phone) == set(GAME_FIELDS["punto_banco"])
    for game, cut in (("baccara_banque", "capital"), ("chemin_de_fer", "percent")):
        phone.select_option("[name=game]", game)
        expect(phone.locator("#event-form")).to_have_attribute("data-game", game)
        assert shown_fields(phone) == set(GAME_FIELDS[game])
        expect(phone.locator("[name=taxe]")).to_have_value(cut)
        expect(phone.get_by_label("Minimum banco")).to_be_visible()
    expect(phone.locator("[name=name]")).to_have_value("Chemin night")  # typed, kept
    assert phone.evaluate(FITS)
    phone.get_by_role("button", name="Create event").click()
    phone.wait_for_url(f"{live_server.url}/events/*/")
    event = Event.objects.get()
    assert (event.name, event.game, event.taxe) == ("Chemin night", "chemin_de_fer", "percent")


def test_without_scripts_the_form_shows_the_chosen_games_fields_with_a_button(
    browser, host, live_server
):
    from playwright.sync_api import expect

    page = new_page(browser, 360, 740, java_script_enabled=False)
    log_in(page, live_server.url, host.username)
    page.goto(f"{live_server.url}/events/new/")
    page.select_option("[name=game]", "baccara_banque")
    assert shown_fields(page) == set(GAME_FIELDS["punto_banco"])  # nothing runs on the change
    page.get_by_role("button", name="Show this game's fields").click()
    expect(page.locator("#event-form")).to_have_attribute("data-game", "baccara_banque")
    assert shown_fields(page) == set(GAME_FIELDS["baccara_banque"])
    expect(page.locator("[name=taxe]")).to_have_value("capital")
    assert not Event.objects.exists()
    page.context.close()


def test_the_table_fits_a_360_px_phone_with_coups_played(phone, host, chemin_table):
    """The recent coups' table, with banks grown to five figures, still fits the phone's width."""
    base_url, shoe = chemin_table
    bank = Decimal("12500.50")
    for number, seat in enumerate([2, 3, 4, 5], start=1):
        entry = HandEntry(
            result="B",
            bets=(BetEntry(seat, "banco_solo", bank),),
            coup=CoupTerms(banker_seat=1, bank=bank),
        )
        hand_services.record_hand(shoe=shoe, number=number, entry=entry, by=host)
        bank = Coup.objects.get(hand__number=number).bank_after
    open_table(phone, base_url, shoe, host)
    assert phone.locator("section.recent tbody tr").count() == 4
    assert phone.evaluate(FITS)
