"""Negative yen is written one way, the locale's (CLDR through babel: the sign before the yen
sign), on the pages, in the PDFs and the docs alike; the ledger's own minus sign is kept."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import translation

from ledger.money.amounts import format_money

DOCS = Path(__file__).resolve().parents[3] / "docs"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_negative_yen_puts_the_sign_before_the_yen_sign(language):
    with translation.override(language):
        assert format_money(Decimal(-65400), "JPY") == "−¥65,400"
        assert format_money(Decimal(65400), "JPY") == "¥65,400"
        assert format_money(Decimal("-0.4"), "JPY") == "¥0"
        shown = Template('{% load money %}{{ amount|money:"JPY" }}').render(
            Context({"amount": Decimal(-45200)})
        )
        assert shown == "−¥45,200"


def test_the_docs_write_negative_yen_as_the_pages_do():
    for page in DOCS.glob("*.md"):
        text = page.read_text()
        assert "¥−" not in text and "¥-" not in text, page.name
