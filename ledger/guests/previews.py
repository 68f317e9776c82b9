"""What a chat app shows for a shared link (OpenGraph and Twitter-card tags): a title, a line
of description and a picture — for a guest's private page, the balance line the host would send;
for a night's shared results, the night's result. The picture is a PNG drawn here with Pillow
(reportlab's dependency) in IPAex Gothic, the receipts' font, so a Japanese name draws too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

from ledger.fonts import IPAEX_GOTHIC

SIZE = (1200, 630)  # what chat apps show large
INK, PAPER, GREEN, RED = "#102a1e", "#f6f4ee", "#1b6b3a", "#a3262a"


@dataclass(frozen=True)
class Preview:
    title: str
    description: str
    image_url: str  # absolute: a chat app fetches it from elsewhere


@cache
def _font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(IPAEX_GOTHIC), size)


def preview_png(title: str, figure: str, caption: str, *, negative: bool = False) -> bytes:
    """A card: the title, the figure large (red when it is owed to the house, green else),
    and a caption under it."""
    image = Image.new("RGB", SIZE, PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, SIZE[0], 24), fill=INK)
    draw.text((72, 96), _fitted(title, _font(64), SIZE[0] - 144), font=_font(64), fill=INK)
    draw.text((72, 240), figure, font=_font(140), fill=RED if negative else GREEN)
    draw.text((72, 460), _fitted(caption, _font(44), SIZE[0] - 144), font=_font(44), fill=INK)
    draw.text((72, 548), "Shoebook", font=_font(32), fill="#5b6b60")
    out = BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue()


def _fitted(text: str, font: ImageFont.FreeTypeFont, width: int) -> str:
    """``text``, cut with an ellipsis where it would run past ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"
