"""Pay links: each seeded format with its amount in the currency's minor units, and handles and
templates an attacker types, which never make a link that goes anywhere else."""

from __future__ import annotations

import re
from decimal import Decimal
from importlib import import_module

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from ledger.payways.links import (
    MSG_HANDLE_CHARACTER,
    MSG_HANDLE_LINK,
    MSG_TEMPLATE,
    check_template,
    clean_handle,
    pay_amount,
    pay_link,
)

SEEDED = {name: template for name, _kind, template, _method
          in import_module("ledger.migrations.0025_pay_ways_seeded").WAYS if template}  # fmt: skip
PAYPAL, VENMO = SEEDED["PayPal"], SEEDED["Venmo"]


@pytest.mark.parametrize(
    ("way", "handle", "amount", "currency", "wanted"),
    [
        ("PayPal", "AkiKobayashi", "5000", "JPY", "https://paypal.me/AkiKobayashi/5000JPY"),
        ("PayPal", "aki", "12.5", "EUR", "https://paypal.me/aki/12.50EUR"),
        ("PayPal", "aki", "1234.5", "JPY", "https://paypal.me/aki/1235JPY"),  # half up, no sen
        ("PayPal", "aki", "20000", "KRW", "https://paypal.me/aki/20000KRW"),  # won: no minor
        ("Venmo", "@aki-k", "12.5", "USD", "https://venmo.com/aki-k?txn=pay&amount=12.50"),
        ("Venmo", "aki_k", "0.01", "USD", "https://venmo.com/aki_k?txn=pay&amount=0.01"),
        ("Revolut", "aki", "99", "EUR", "https://revolut.me/aki"),
        ("Cash App", "$aki", "10", "USD", "https://cash.app/$aki"),
    ],
)
def test_each_way_s_link_has_its_handle_and_amount(way, handle, amount, currency, wanted):
    assert pay_link(SEEDED[way], handle, Decimal(amount), currency) == wanted


def test_the_amount_is_written_in_the_currency_s_minor_units():
    assert pay_amount(Decimal("-5000"), "JPY") == "5000"  # owed: the size, never a sign
    assert pay_amount(Decimal("12.345"), "EUR") == "12.35"
    assert pay_amount(Decimal("7"), "USD") == "7.00"
    assert pay_amount(Decimal("1000000"), "JPY") == "1000000"  # no grouping


HOSTILE = [
    "javascript:alert(1)",
    "../../evil",
    "a/b",
    "a?txn=charge",
    "a#frag",
    "a&amount=1",
    "a b",
    "evil.com\\@paypal.me",
    "ａｋｉ",  # full-width letters
    "a%2Fb",
    "'><script>alert(1)</script>",
    "x" * 65,
    "@",
    "a\u202eb",
]


@pytest.mark.parametrize("handle", HOSTILE)
def test_a_hostile_handle_is_refused_and_makes_no_link(handle):
    with pytest.raises(ValidationError) as refused:
        clean_handle("link", handle)
    messages = refused.value.message_dict["handle"]
    assert messages[0] in (str(MSG_HANDLE_LINK).format(maximum=64),
                           str(MSG_HANDLE_CHARACTER).format(code="U+202E"))  # fmt: skip
    assert pay_link(PAYPAL, handle, Decimal(10), "JPY") == ""


def test_details_keep_text_but_no_control_characters():
    assert clean_handle("details", "  MUFG 001 1234567 コバヤシ ") == "MUFG 001 1234567 コバヤシ"
    with pytest.raises(ValidationError):
        clean_handle("details", "IBAN\nDE00")
    with pytest.raises(ValidationError):
        clean_handle("details", "x" * 301)


@given(st.text(max_size=80))
def test_no_handle_leaves_its_place_in_the_link(handle):
    link = pay_link(VENMO, handle, Decimal("10"), "USD")
    assert link == "" or re.fullmatch(
        r"https://venmo\.com/[A-Za-z0-9._-]{1,64}\?txn=pay&amount=10\.00", link
    )


@pytest.mark.parametrize(
    "template",
    [
        "javascript:{handle}",
        "http://paypal.me/{handle}",
        "https://{handle}.evil.com/",
        "https://paypal.me/{handle}/{amount}{cur}",
        "https://paypal.me/",
        "https://user@paypal.me/{handle}",
        "https://paypal.me:8443/{handle}",
        "https://paypal.me/{handle} x",
        "https://paypal.me/{handle}/{0.__class__}",
        "//paypal.me/{handle}",
    ],
)
def test_a_template_that_could_go_elsewhere_is_refused(template):
    with pytest.raises(ValidationError) as refused:
        check_template(template)
    assert refused.value.message_dict["link_template"] == [str(MSG_TEMPLATE)]
    assert pay_link(template, "aki", Decimal(1), "JPY") == ""


def test_the_seeded_templates_are_valid():
    assert set(SEEDED) == {"PayPal", "Venmo", "Revolut", "Cash App"}
    for template in SEEDED.values():
        assert check_template(template) == template


def test_a_currency_that_is_not_a_code_makes_no_link():
    assert pay_link(PAYPAL, "aki", Decimal(1), "jpy/../x") == ""
