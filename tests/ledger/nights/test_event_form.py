"""One form per game: the event form shows the chosen game's fields in its words, shows them
again (saving nothing) when the game changes, and saves each game's form with only its fields."""

from __future__ import annotations

import re
from decimal import Decimal
from html import escape

import pytest
from django.urls import reverse

from games.forms import MSG_PLAIN_DIGITS
from games.kinds import SuiteReturn
from games.models import MSG_UNKNOWN_CURRENCY, Event
from games.payouts import RuleSet
from ledger.nights.forms import MSG_RATE_DECIMALS, MSG_RATE_WHOLE
from tests.pages import HTMX, posted_form, text

pytestmark = pytest.mark.django_db

# The fields every game's form has.
NIGHT = {
    "name": "Friday night",
    "date": "2026-11-27",
    "venue": "",
    "decks": "6",
    "currency_symbol": "$",
    "money_per_chip": "100",
    "table_min": "2000",
    "hands_per_shoe": "60",
}
PUNTO_BANCO_ONLY = ("format", "no_commission", "commission", "tie_pays", "pair_pays")
GAME_FORMS = {
    "punto_banco": NIGHT
    | {
        "game": "punto_banco",
        "format": "big",
        "no_commission": "none",
        "commission": "4",
        "tie_pays": "9",
        "pair_pays": "11",
        "table_max": "5000",
    },
    "chemin_de_fer": NIGHT
    | {
        "game": "chemin_de_fer",
        "taxe": "per_shoe",
        "taxe_rate": "",
        "shoe_charge": "300",
        "suite_returns": "in_turn",
        "clearing": "house",
    },
    "baccara_banque": NIGHT
    | {"game": "baccara_banque", "taxe": "winnings", "banco": "ouverte", "clearing": "direct"},
}


def names_in(page: str) -> set[str]:
    """The fields the page's event form has (check boxes, ticked or not, by their name)."""
    return set(posted_form(page, "event-form")) | (
        {"side_bets"} if 'name="side_bets"' in page else set()
    )


@pytest.fixture
def as_host(client, host):
    client.force_login(host)
    return client


@pytest.mark.parametrize(
    ("game", "cut"), [("chemin_de_fer", "percent"), ("baccara_banque", "capital")]
)
@pytest.mark.parametrize("asked", ["show_game", "changed_then_saved"])
def test_another_game_posted_shows_that_games_fields_and_its_cut_and_saves_nothing(
    as_host, game, cut, asked
):
    # Chosen on a Punto Banco form: with the button (or the box's change, with a script), or
    # saved straight away without a script (the other game's fields were on the page).
    posted = {"game": game, "name": "Typed before", "shown_game": "punto_banco"}
    posted |= {"show_game": "1"} if asked == "show_game" else GAME_FORMS["punto_banco"] | posted
    response = as_host.post(reverse("ledger:event_create"), posted)
    page = text(response)
    assert response.status_code == 200 and not Event.objects.exists()
    shown = posted_form(page, "event-form")
    assert shown["game"] == game and shown["shown_game"] == game
    assert shown["taxe"] == cut and shown["name"] == "Typed before"
    assert not set(PUNTO_BANCO_ONLY) & names_in(page) and 'name="side_bets"' not in page
    assert "Minimum banco" in page and "Table minimum" not in page
    assert "Coups per shoe" in page and "errorlist" not in page
    assert ('name="banco"' in page) is (game == "baccara_banque")
    assert ('name="taxe_rate"' in page) is (game == "chemin_de_fer")
    # The cuts offered are this game's only.
    offered = {cut for cut in Event.Cut.values if f'<option value="{cut}"' in page}
    assert (
        offered == {"percent", "per_shoe"} if game == "chemin_de_fer" else {"capital", "winnings"}
    )


def test_back_to_punto_banco_shows_its_rules_and_none_of_the_banks(as_host):
    posted = GAME_FORMS["baccara_banque"] | {"game": "punto_banco", "show_game": "1"}
    page = text(as_host.post(reverse("ledger:event_create"), posted, **HTMX))
    shown = names_in(page)
    assert set(PUNTO_BANCO_ONLY) <= shown and "side_bets" in shown and "table_max" in shown
    assert not {"taxe", "taxe_rate", "shoe_charge", "banco", "clearing"} & shown
    assert "Table minimum" in page and "Minimum banco" not in page
    assert posted_form(page, "event-form")["table_min"] == "2000"  # what was typed stays
    assert not Event.objects.exists()


def test_the_new_event_form_is_punto_bancos_and_says_how_to_change_game(as_host):
    page = text(as_host.get(reverse("ledger:event_create")))
    assert posted_form(page, "event-form")["game"] == "punto_banco"
    assert set(PUNTO_BANCO_ONLY) <= names_in(page) and 'name="taxe"' not in page
    assert 'name="show_game"' in page and 'class="secondary without-script"' in page


@pytest.mark.parametrize("game", GAME_FORMS)
def test_each_games_form_saves_with_only_its_fields(as_host, game):
    response = as_host.post(reverse("ledger:event_create"), GAME_FORMS[game])
    assert response.status_code == 302, text(response)
    event = Event.objects.get()
    assert (event.game, event.table_min, event.hands_per_shoe) == (game, Decimal(2000), 60)
    if game == "punto_banco":
        assert (event.format, event.table_max) == ("big", Decimal(5000))
        assert event.rule_set == RuleSet(
            commission_rate=Decimal("0.04"), tie_pays=9, side_bets=frozenset()
        )
        return
    # No Punto Banco rule is kept for a guest-banked night: no pairs are offered there; the
    # table maximum nobody typed is no lower than the minimum banco.
    assert event.rule_set.side_bets == frozenset() and event.table_max >= event.table_min
    if game == "chemin_de_fer":
        assert (event.taxe, event.shoe_charge, event.clearing) == (
            "per_shoe",
            Decimal(300),
            "house",
        )
        assert event.taxe_rate == Decimal("0.05")
        assert event.bank_rules.suite_returns is SuiteReturn.IN_TURN
    else:
        assert (event.taxe, event.banco, event.clearing) == ("winnings", "ouverte", "direct")


def test_a_guest_banked_event_edited_keeps_what_its_form_leaves_out(as_host, event):
    event_url = reverse("ledger:event_edit", args=[event.pk])
    as_host.post(
        event_url, GAME_FORMS["chemin_de_fer"] | {"shown_game": "punto_banco", "show_game": "1"}
    )
    event.refresh_from_db()
    assert event.game == "punto_banco"  # shown again, not saved
    page = text(
        as_host.post(event_url, GAME_FORMS["chemin_de_fer"] | {"shown_game": "chemin_de_fer"})
    )
    event.refresh_from_db()
    assert event.game == "chemin_de_fer", page
    assert (event.format, event.rule_set) == ("mini", RuleSet())  # as they were
    page = text(as_host.get(event_url))
    assert posted_form(page, "event-form")["taxe"] == "per_shoe" and 'name="format"' not in page


def test_a_refusal_is_summed_up_above_the_form(as_host):
    posted = GAME_FORMS["chemin_de_fer"] | {"taxe_rate": "11", "shown_game": "chemin_de_fer"}
    page = text(as_host.post(reverse("ledger:event_create"), posted))
    summary = page[page.index("data-error-summary") : page.index('name="name"')]
    assert 'href="#id_taxe_rate"' in summary and "Taxe (%)" in summary
    assert not Event.objects.exists()


@pytest.mark.parametrize(("game", "asked"), [("chemin_de_fer", True), ("baccara_banque", False)])
def test_only_chemin_de_fer_asks_where_a_suite_of_a_suite_returns(as_host, game, asked):
    page = text(as_host.post(reverse("ledger:event_create"), {"game": game, "show_game": "1"}))
    assert ('name="suite_returns"' in page) is asked
    assert Event.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "typed"),
    [("hands_per_shoe", "𝟔𝟎"), ("hands_per_shoe", "٦٠"), ("money_per_chip", "𝟏𝟎𝟎"),
     ("table_min", "२०००"), ("commission", "𝟒")],
)  # fmt: skip
def test_a_number_box_takes_only_the_digits_0_to_9(as_host, field, typed):
    posted = GAME_FORMS["punto_banco"] | {field: typed}
    response = as_host.post(reverse("ledger:event_create"), posted)
    assert response.status_code == 200 and not Event.objects.exists()
    page = text(response)
    label = {"hands_per_shoe": "Hands per shoe", "money_per_chip": "Money per chip",
             "table_min": "Table minimum", "commission": "Commission (%)"}[field]  # fmt: skip
    assert str(MSG_PLAIN_DIGITS).format(field=label) in page


def test_a_number_box_reads_full_width_digits(as_host):
    posted = GAME_FORMS["punto_banco"] | {"hands_per_shoe": "６０", "table_min": "２０００"}
    response = as_host.post(reverse("ledger:event_create"), posted)
    assert response.status_code == 302, text(response)
    assert Event.objects.get().hands_per_shoe == 60


# --- the night's currency ----------------------------------------------------------------


@pytest.mark.parametrize(("language", "euro"), [("en", "EUR — Euro"), ("ja", "EUR — ユーロ")])
def test_the_form_offers_every_currency_by_code_and_name_the_common_ones_first(
    as_host, language, euro
):
    page = as_host.get(reverse("ledger:event_create"), HTTP_ACCEPT_LANGUAGE=language)
    codes = re.findall(r'<option value="([A-Z]{3})"', page.content.decode())
    assert codes[:6] == ["JPY", "EUR", "USD", "KRW", "GBP", "VND"]
    assert len(codes) > 150 and "KWD" in codes
    assert euro in page.content.decode()
    assert 'value="JPY" selected' in page.content.decode()  # a new night: yen, as before


@pytest.mark.parametrize(
    ("currency", "rate"), [("EUR", "0.85"), ("KRW", "1200"), ("KWD", "0.375"), ("JPY", "100")]
)
def test_a_night_is_saved_in_its_currency_at_a_rate_in_its_minor_units(as_host, currency, rate):
    form = GAME_FORMS["punto_banco"] | {"currency": currency, "money_per_chip": rate}
    response = as_host.post(reverse("ledger:event_create"), form)
    assert response.status_code == 302, text(response)
    assert Event.objects.values_list("currency", "money_per_chip").get() == (
        currency,
        Decimal(rate),
    )


@pytest.mark.parametrize(
    ("currency", "rate", "message"),
    [
        ("JPY", "0.5", MSG_RATE_WHOLE.format(currency="JPY")),
        ("KRW", "12.5", MSG_RATE_WHOLE.format(currency="KRW")),
        ("EUR", "0.005", MSG_RATE_DECIMALS.format(currency="EUR", digits=2)),
        ("KWD", "0.0005", MSG_RATE_DECIMALS.format(currency="KWD", digits=3)),
        ("eur", "1", str(MSG_UNKNOWN_CURRENCY)),
        ("XXQ", "1", str(MSG_UNKNOWN_CURRENCY)),
        # ISO codes no territory pays in: no currency, testing, withdrawn, offshore only.
        ("XXX", "1", str(MSG_UNKNOWN_CURRENCY)),
        ("XTS", "1", str(MSG_UNKNOWN_CURRENCY)),
        ("DEM", "1", str(MSG_UNKNOWN_CURRENCY)),
        ("CNH", "1", str(MSG_UNKNOWN_CURRENCY)),
    ],
)
def test_a_currency_or_a_rate_it_cannot_write_is_refused_in_words(as_host, currency, rate, message):
    form = GAME_FORMS["punto_banco"] | {"currency": currency, "money_per_chip": rate}
    response = as_host.post(reverse("ledger:event_create"), form)
    assert response.status_code == 200 and not Event.objects.exists()
    assert escape(message) in response.content.decode()


def test_a_night_recorded_before_keeps_its_yen_rate_with_decimals(as_host, make_event):
    """Nights made before currencies could have a rate of half a yen: edited, they keep it."""
    event = make_event(money_per_chip=Decimal("0.5"))
    assert event.currency == "JPY"
    form = GAME_FORMS["punto_banco"] | {"money_per_chip": "0.5", "venue": "Bar"}
    del form["currency_symbol"]
    form["currency_symbol"] = event.currency_symbol
    form.pop("currency", None)  # a page drawn before the box was there
    response = as_host.post(reverse("ledger:event_edit", args=[event.pk]), form)
    assert response.status_code == 302, text(response)
    event.refresh_from_db()
    assert (event.venue, event.currency, event.money_per_chip) == ("Bar", "JPY", Decimal("0.5"))
