"""A guest's receipt for one night as a PDF, in the page's language.

reportlab draws it in pure Python, with no system package: the font is IPAex Gothic
(``ledger/fonts``, IPA Font License, shipped with the package), a TrueType font with
Japanese, Latin and the signs the ledger writes (−, ¥), embedded as the subset of glyphs the
receipt uses, so any reader, with a Japanese font or not, shows the same page. Text reaches the
PDF two ways only: table cells, drawn as plain strings, and paragraphs, whose markup is escaped
here, so a guest's name is only ever text.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from io import BytesIO
from typing import Any
from xml.sax.saxutils import escape

import segno
from django.utils.translation import gettext as _
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from ledger.fonts import IPAEX_GOTHIC
from ledger.guests.receipts import Receipt, ReceiptRow, StatementLine
from ledger.guests.sharing import plain_text
from ledger.money.amounts import (
    MoneyByCurrency,
    format_chips,
    format_money,
    format_money_each,
    format_rate,
    money_sign,
)
from ledger.payways.selectors import PayRequest

FONT = "IPAexGothic"
FONT_FILE = IPAEX_GOTHIC


@cache
def _font() -> str:
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE)))
    return FONT


def drawable(char: str) -> bool:
    """Whether the receipt's font has the character (IPAex Gothic has ¥, €, $ and £; not ₩ nor
    ₫, which a receipt writes as KRW and VND)."""
    font: Any = pdfmetrics.getFont(_font())  # a TTFont: reportlab's stubs know only Font
    return ord(char) in font.face.charToGlyph


def _money(amount: Decimal, currency: str) -> str:
    return format_money(amount, currency, drawable=drawable)


def _money_each(amounts: MoneyByCurrency) -> str:
    return format_money_each(amounts, drawable=drawable)


def _styles() -> tuple[ParagraphStyle, ParagraphStyle, ParagraphStyle]:
    font = _font()
    title = ParagraphStyle("title", fontName=font, fontSize=16, leading=20, spaceAfter=4)
    heading = ParagraphStyle("heading", fontName=font, fontSize=11, leading=14, spaceBefore=8)
    body = ParagraphStyle("body", fontName=font, fontSize=9, leading=12)
    return title, heading, body


def _text(text: str, style: ParagraphStyle) -> Paragraph:
    """A paragraph of plain text: reportlab reads a paragraph as markup, so it is escaped."""
    return Paragraph(escape(plain_text(text)), style)


def _table(rows: Sequence[Sequence[str]], *, total: bool = False) -> Table:
    table = Table([list(row) for row in rows], hAlign="LEFT", repeatRows=1)
    style: list[Any] = [
        ("FONTNAME", (0, 0), (-1, -1), _font()),
        ("FONTSIZE", (0, 0), (-1, -1), 8.5),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("LINEBELOW", (0, 0), (-1, 0), 0.6, colors.black),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f2f2ee")]),
    ]
    if total:
        style += [("LINEABOVE", (0, -1), (-1, -1), 0.6, colors.black)]
    table.setStyle(TableStyle(style))
    return table


def _shoe_cells(row: ReceiptRow, symbol: str) -> list[str]:
    figures = row.figures
    label = _("All shoes") if row.number is None else str(row.number)
    return [
        label,
        format_chips(figures.gross, symbol),
        format_chips(figures.commission, symbol),
        format_chips(figures.net, symbol),
        _money(row.gross_money, row.currency),
        _money(row.commission_money, row.currency),
        _money(row.net_money, row.currency),
    ]


def receipt_pdf(receipt: Receipt) -> bytes:
    event, symbol = receipt.event, receipt.event.currency_symbol
    title, heading, body = _styles()
    # The rate as the event page writes it: every decimal it has, none it has not (¥0.5, ¥100).
    rate = f"{symbol}1 = {format_rate(event.money_per_chip, event.currency, drawable=drawable)}"
    sign = money_sign(event.currency, drawable=drawable)
    net, gross = _("Net"), _("Gross")
    when = f"{event.date:%Y-%m-%d}"  # as the page writes it
    story: list[Flowable] = [
        _text(_("Receipt: {guest}").format(guest=receipt.name), title),
        _text(" · ".join(part for part in (event.name, when, event.venue, rate) if part), body),
    ]
    if event.rounding_rule:
        story.append(_text(event.rounding_rule, body))
    header = [
        _("Shoe"), _("Gross"), event.cut_name, _("Net"),
        f"{gross} ({sign})", f"{event.cut_name} ({sign})", f"{net} ({sign})",
    ]  # fmt: skip
    if receipt.shoes:
        rows = [_shoe_cells(row, symbol) for row in [*receipt.shoes, receipt.total]]
        story += [_text(_("Per shoe"), heading), Spacer(1, 2 * mm)]
        story.append(_table([header, *rows], total=True))
    story += [_text(_("Statement"), heading), Spacer(1, 2 * mm)]
    statement = [
        [_("Entry"), symbol, sign],
        [_("Carried in"), format_chips(receipt.carried_in, symbol, signed=True),
         _money_each(receipt.carried_in_money)],
        *[
            [_line_words(line), format_chips(line.amount, symbol, signed=True),
             _money(line.money, event.currency)]
            for line in receipt.lines
        ],
        [_("Balance carried"), format_chips(receipt.balance, symbol, signed=True),
         _money_each(receipt.balance_money)],
    ]  # fmt: skip
    story.append(_table(statement, total=True))
    if receipt.chips is not None:
        counted = receipt.chips.counted
        handed = _("not counted yet") if counted is None else format_chips(counted, symbol)
        taken = format_chips(receipt.chips.taken, symbol)
        chips = f"{_('Chips taken')} {taken} · {_('handed back')} {handed}"
        story += [Spacer(1, 2 * mm), _text(chips, body)]
    story += [Spacer(1, 4 * mm), _text(receipt.balance_words, body)]
    if receipt.pay is not None:
        story += _pay_request(receipt.pay, heading, body)
    buffer = BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=15 * mm,
        bottomMargin=15 * mm,
        title=plain_text(_("Receipt: {guest}").format(guest=receipt.name)),
        initialFontName=_font(),  # not reportlab's Helvetica, which no PDF embeds
        author="Shoebook",
    )
    document.build(story)
    return buffer.getvalue()


def _line_words(line: StatementLine) -> str:
    mark = _("voided") if line.mark == "voided" else ""  # a void's words say "Void of …"
    words = " · ".join(part for part in (line.words, line.note) if part)
    return plain_text(f"{mark} {words}" if mark else words)


def qr_drawing(link: str, size: float = 30 * mm) -> Drawing:
    """The link's QR code (segno's matrix, the page's error level) as squares of a drawing:
    vector, nothing but the code."""
    matrix = segno.make(link, error="m").matrix
    quiet = 4  # modules of white around the code, as the specification asks
    cells = len(matrix) + 2 * quiet
    step = size / cells
    drawing = Drawing(size, size)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                top = size - (y + quiet + 1) * step
                rect = Rect((x + quiet) * step, top, step, step)
                rect.fillColor, rect.strokeColor = colors.black, None
                drawing.add(rect)
    return drawing


def _pay_request(request: PayRequest, heading: ParagraphStyle, body: ParagraphStyle) -> list[Any]:
    """How to pay: each way a line (a link also tappable, with its QR code)."""
    story: list[Any] = [_text(request.heading_drawn(drawable), heading), Spacer(1, 2 * mm)]
    for option in request.options:
        if option.link:
            href = escape(option.link, {'"': "&quot;"})
            words = escape(plain_text(option.way))
            story.append(Paragraph(f'{words}: <a href="{href}">{escape(option.link)}</a>', body))
            story.append(qr_drawing(option.link))
        else:
            story.append(_text(option.words, body))
    return story
