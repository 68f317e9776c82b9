"""The receipt's PDF renders on any reader (ledger.workbook.pdf): every font it uses is embedded
(a subset of IPAex Gothic), in English and in Japanese, with the ledger's minus sign and yen."""

from __future__ import annotations

from io import BytesIO

import pytest
from django.utils import translation
from pypdf import PdfReader

from ledger.guests.receipts import guest_receipt
from ledger.models import Guest
from ledger.workbook.pdf import receipt_pdf


def fonts_of(content: bytes) -> dict[str, bool]:
    """Each font the PDF's pages use, by its base name: whether its program is in the file."""
    found = {}
    for page in PdfReader(BytesIO(content)).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            described = font
            if font["/Subtype"] == "/Type0":
                described = font["/DescendantFonts"][0].get_object()
            descriptor = described.get("/FontDescriptor")
            descriptor = descriptor.get_object() if descriptor is not None else {}
            embedded = any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
            found[str(font["/BaseFont"])] = embedded
    return found


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_font_of_a_receipt_is_embedded(demo_night, language):
    guest = Guest.objects.get(name="田中")
    with translation.override(language):
        content = receipt_pdf(guest_receipt(guest, demo_night))
    fonts = fonts_of(content)
    assert fonts and all(fonts.values()), fonts
    assert all("IPAexGothic" in name for name in fonts)  # one font, for every script
    assert len(content) < 150_000  # a subset, not the 6 MB font


def test_a_receipt_writes_the_ledger_s_minus_sign_beside_its_figure(demo_night):
    loser = next(
        guest for guest in Guest.objects.filter(events=demo_night)
        if guest_receipt(guest, demo_night).balance < 0
    )  # fmt: skip
    receipt = guest_receipt(loser, demo_night)
    with translation.override("en"):
        text = PdfReader(BytesIO(receipt_pdf(receipt))).pages[0].extract_text()
    assert "−$" in text and "−¥" in text
