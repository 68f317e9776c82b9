"""A night in any currency: the same loss of 10.50 chips at nights in euros, won, dinars and yen,
written in each currency's minor units (EUR 2, KRW 0, KWD 3, JPY 0, rounded half-up once per
night) on the event page, the receipt (page and PDF) and the workbook, in English and Japanese;
and money of nights in two currencies is shown per currency, never added up."""

from __future__ import annotations

import io
from datetime import date
from decimal import Decimal

import pytest
from babel.numbers import format_currency
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from games import services as game_services
from games.messages import MINUS
from ledger.guests import services as guest_services
from ledger.guests.receipts import guest_receipt
from ledger.hands import services as hand_services
from ledger.money.amounts import format_money, format_money_each, to_money
from ledger.money.results import event_settlement, guest_history
from ledger.workbook.exports import workbook_bytes
from ledger.workbook.pdf import receipt_pdf
from tests.conftest import bet

pytestmark = pytest.mark.django_db
D = Decimal
LOSS = D("10.50")  # Aki's stake on the player, lost: 8 against the banker's 9

# currency, rate, Aki's loss in it (half-up, away from zero), as every reader sees it, the
# workbook's number format for it.
NIGHTS = {
    "EUR": (D("12.35"), D("-129.68"), "−€129.68", '"€"#,##0.00;[Red]-"€"#,##0.00'),
    "KRW": (D(1200), D(-12600), "−₩12,600", '"₩"#,##0;[Red]-"₩"#,##0'),
    "KWD": (D("0.375"), D("-3.938"), "−KWD3.938", '"KWD "#,##0.000;[Red]-"KWD "#,##0.000'),
    "JPY": (D(100), D(-1050), "−¥1,050", '"¥"#,##0;[Red]-"¥"#,##0'),
}


@pytest.fixture
def night_in(make_event, host, record):
    def build(currency: str, *, day: int = 20, guest: str = "Aki"):
        rate = NIGHTS[currency][0]
        event = make_event(
            name=f"{currency} night", date=date(2026, 11, day), currency=currency,
            money_per_chip=rate,
        )  # fmt: skip
        aki = guest_services.event_guest_add(event=event, name=guest, by=host)
        shoe = game_services.shoe_start(event=event, by=host)
        hand_services.seat_guest(shoe=shoe, seat=1, guest=aki, by=host)
        record(shoe, "8 K", "9 K", [bet(1, "player", LOSS)])
        game_services.mark_shoe_closed(shoe=shoe, by=host)
        return event, aki

    return build


@pytest.mark.parametrize("currency", list(NIGHTS))
def test_a_loss_is_rounded_to_the_currencys_minor_units(night_in, currency):
    event, aki = night_in(currency)
    rate, money, _shown, _format = NIGHTS[currency]
    assert to_money(-LOSS, rate, currency) == money
    [line] = event_settlement(event)
    assert line.after_money == {currency: money}
    assert guest_history(aki).balance_money == {currency: money}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("currency", list(NIGHTS))
def test_the_event_page_writes_the_nights_money_in_its_currency(
    night_in, client, host, currency, language
):
    event, _aki = night_in(currency)
    _rate, money, shown, _format = NIGHTS[currency]
    client.force_login(host)
    page = client.get(
        reverse("ledger:event_detail", args=[event.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    with translation.override(language):
        # The reader's language's pattern (CLDR), the ledger's minus and half-width yen sign.
        cldr = format_currency(money, currency, locale=language).replace("-", MINUS)
        assert cldr.replace("￥", "¥") == shown == format_money(money, currency)
        house = format_money(-money, currency)
    assert shown in page  # Aki's balance in the settlement list
    assert house in page  # the house's net in the shoes' table
    assert "¥" not in page or currency == "JPY"


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("currency", list(NIGHTS))
def test_the_receipt_page_and_pdf_write_the_money_in_the_nights_currency(
    night_in, client, host, currency, language
):
    event, aki = night_in(currency)
    _rate, _money, shown, _format = NIGHTS[currency]
    client.force_login(host)
    url = reverse("ledger:guest_receipt", args=[aki.pk, event.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert shown in page
    with translation.override(language):
        text = PdfReader(io.BytesIO(receipt_pdf(guest_receipt(aki, event)))).pages[0]
        words = text.extract_text().replace("\u00a0", " ")
    # The receipt's font has no ₩: the won are written by their code, never as a missing glyph.
    expected = shown.replace("₩", "KRW ")
    assert expected in words, words
    assert "₩" not in words


def test_the_receipts_font_draws_the_signs_it_writes_and_only_those():
    from ledger.workbook.pdf import drawable

    assert all(drawable(sign) for sign in "¥€$£−")
    assert not drawable("₩") and not drawable("₫")
    assert format_money(D(-120000), "KRW", drawable=drawable) == "−KRW\u00a0120,000"
    assert format_money(D(-120000), "VND", drawable=drawable) == "−VND\u00a0120,000"
    assert format_money(D("1234.5"), "EUR", drawable=drawable) == "€1,234.50"


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("currency", list(NIGHTS))
def test_the_workbooks_money_cells_have_their_currencys_format_and_value(
    night_in, currency, language
):
    event, _aki = night_in(currency)
    _rate, money, _shown, number_format = NIGHTS[currency]
    with translation.override(language):
        book = load_workbook(io.BytesIO(workbook_bytes([event])))
        from django.utils.translation import gettext

        guests = book[gettext("Guests")]
    header = [cell.value for cell in guests[1]]
    row = guests[2]
    sign = number_format.split('"')[1].strip()
    net = header.index(heading_in(language, "Net", sign))
    after = header.index(heading_in(language, "Balance after", sign))
    for cell in (row[net], row[after]):
        assert Decimal(str(cell.value)) == money
        assert cell.number_format == number_format


def heading_in(language: str, words: str, sign: str) -> str:
    """A money column's heading in the reader's language: "Net (€)", "純額（€）"."""
    from django.utils.translation import gettext

    from ledger.money.amounts import MSG_MONEY_HEADING

    with translation.override(language):
        return str(MSG_MONEY_HEADING).format(what=gettext(words), sign=sign)


def test_an_old_yen_night_keeps_the_reference_format(night_in):
    """The yen's cells keep the format every workbook wrote before nights had a currency."""
    event, _aki = night_in("JPY")
    assert event.currency == "JPY"
    summary = load_workbook(io.BytesIO(workbook_bytes([event])))["Summary"]
    header = [cell.value for cell in summary[1]]
    cells = [row[header.index("House net (¥)")] for row in summary.iter_rows(min_row=2)]
    assert {cell.number_format for cell in cells} == {'"¥"#,##0;[Red]-"¥"#,##0'}


def test_a_balance_across_nights_in_two_currencies_is_shown_per_currency(night_in, client, host):
    _yen, aki = night_in("JPY", day=20)
    euros, _same = night_in("EUR", day=21)
    balance = guest_history(aki).balance_money
    assert balance == {"JPY": D(-1050), "EUR": D("-129.68")}  # never one mixed sum
    [line] = event_settlement(euros)
    assert line.before_money == {"JPY": D(-1050)}
    assert line.after_money == balance
    client.force_login(host)
    page = client.get(reverse("ledger:guest_detail", args=[aki.pk])).content.decode()
    assert format_money_each(balance) == "−¥1,050 · −€129.68"
    assert "−¥1,050 · −€129.68" in page
    house = client.get(reverse("ledger:house")).content.decode()
    assert "¥1,050 · €129.68" in house  # the season's house net, per currency
    # The euro night's receipt carries the yen in: in yen.
    receipt = guest_receipt(aki, euros)
    assert receipt.carried_in_money == {"JPY": D(-1050)}
    assert receipt.balance_money == balance


def test_a_guest_s_first_night_in_euros_carries_in_nothing_in_euros(night_in, client, host):
    euros, aki = night_in("EUR")
    assert guest_receipt(aki, euros).carried_in_money == {"EUR": D(0)}
    client.force_login(host)
    page = client.get(reverse("ledger:guest_receipt", args=[aki.pk, euros.pk])).content.decode()
    carried = page[page.index("Carried in") :].split("</tr>")[0]
    assert "€0.00" in carried and "¥" not in carried


def test_the_season_workbook_adds_money_up_per_currency(night_in):
    yen, _aki = night_in("JPY", day=20)
    euros, _same = night_in("EUR", day=21)
    summary = load_workbook(io.BytesIO(workbook_bytes([yen, euros])))["Summary"]
    header = [cell.value for cell in summary[1]]
    money = header.index("House net (money)")
    totals = [row for row in summary.iter_rows(min_row=2) if row[5].value == "Season total"]
    assert [(Decimal(str(row[money].value)), row[money].number_format) for row in totals] == [
        (D(1050), '"¥"#,##0;[Red]-"¥"#,##0'),
        (D("129.68"), '"€"#,##0.00;[Red]-"€"#,##0.00'),
    ]
    guests = load_workbook(io.BytesIO(workbook_bytes([yen, euros])))["Guests"]
    header = [cell.value for cell in guests[1]]
    after = [row[header.index("Balance after (money)")].value for row in guests.iter_rows(2)]
    assert after == [-1050, "−¥1,050 · −€129.68"]
