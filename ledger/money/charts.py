"""Charts as inline SVG, drawn on the server by hand (a few microseconds a point, where pygal
spent a tenth of a millisecond): nothing fetched from outside."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal

import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from ledger.money.amounts import ZERO, format_chips
from ledger.money.results import BalancePoint, Figures, GuestHistory

_WIDTH, _HEIGHT, _LEFT, _RIGHT, _TOP, _BOTTOM = 640, 300, 72, 12, 36, 40


def _frame(
    title: str, css_class: str, values: Sequence[Decimal]
) -> tuple[list[str], Callable[[Decimal], float]]:
    """An SVG's opening, title and horizontal lines at the lowest value, zero and the highest,
    and the function placing a value on the vertical axis."""
    low, high = min(min(values), ZERO), max(max(values), ZERO)
    scale = (_HEIGHT - _TOP - _BOTTOM) / float(high - low or Decimal(1))

    def y(value: Decimal) -> float:
        return _TOP + float(high - value) * scale

    parts = [
        f'<svg class="{css_class}" viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<text x="{_WIDTH // 2}" y="22" text-anchor="middle" class="title">{escape(title)}</text>',
    ]
    for tick in sorted({low, ZERO, high}):
        parts.append(
            f'<line x1="{_LEFT}" x2="{_WIDTH - _RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'class="{"zero" if tick == ZERO else "grid"}"/>'
            f'<text x="{_LEFT - 6}" y="{y(tick) + 5:.1f}" text-anchor="end">'
            f"{escape(format_chips(tick))}</text>"
        )
    return parts, y


def result_bars(title: str, labels: Sequence[str], values: Sequence[Decimal]) -> SafeString:
    """Bars above and below zero, e.g. the guests' result per shoe, drawn by hand like
    :func:`balance_line` (pygal spent about 4 ms on six bars), each bar titled with its
    label and value for a tooltip."""
    parts, y = _frame(title, "result-chart", values)
    slot = (_WIDTH - _LEFT - _RIGHT) / max(len(values), 1)
    bar = slot * 0.7
    for index, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = _LEFT + index * slot + (slot - bar) / 2
        upper, lower = sorted((y(value), y(ZERO)))
        parts.append(
            f'<rect x="{x:.1f}" y="{upper:.1f}" width="{bar:.1f}" height="{lower - upper:.1f}" '
            f'class="{"lost" if value < 0 else "won"}"><title>{escape(label)}: '
            f"{escape(format_chips(value, signed=True))}</title></rect>"
            f'<text x="{x + bar / 2:.1f}" y="{_HEIGHT - 12}" text-anchor="middle">'
            f"{escape(label)}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def balance_line(title: str, labels: Sequence[str], values: Sequence[Decimal]) -> SafeString:
    """A running balance over time, drawn by hand as one polyline (like the scoreboard): a few
    microseconds a point, where pygal spent about a tenth of a millisecond on each."""
    parts, y = _frame(title, "balance-chart", values)
    step = (_WIDTH - _LEFT - _RIGHT) / max(len(values) - 1, 1)
    line = " ".join(f"{_LEFT + i * step:.1f},{y(value):.1f}" for i, value in enumerate(values))
    parts.append(f'<polyline points="{line}" class="balance"/>')
    if labels:
        parts.append(
            f'<text x="{_LEFT}" y="{_HEIGHT - 12}">{escape(labels[0])}</text>'
            f'<text x="{_WIDTH - _RIGHT}" y="{_HEIGHT - 12}" text-anchor="end">'
            f"{escape(labels[-1])}</text>"
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped


def balance_steps(history: GuestHistory) -> tuple[list[str], list[Decimal]]:
    """The running balance after each shoe (and each event's settlements), from zero. An event
    whose shoes the history does not hold (an older one, summarised) is one step; so is a
    result without shoes (a tournament's charges)."""
    return balance_steps_of(history.points, history.shoes, from_first=True)


def balance_steps_of(
    points: Sequence[BalancePoint],
    shoes: Mapping[int, Sequence[tuple[int, Figures]]],
    *,
    from_first: bool,
) -> tuple[list[str], list[Decimal]]:
    """The steps of :func:`balance_steps` over some nights in a row: from zero when they are
    the guest's first ones (``from_first``), else from the balance carried in, labelled with
    the first night's date."""
    if not points:
        return [_("Start")], [ZERO]
    first = points[0]
    balance = first.balance - first.result - first.settled
    start = _("Start") if from_first else f"{first.event.date:%m/%d}"
    labels, values = [start], [balance]
    for point in points:
        rest = point.result
        for number, figures in shoes.get(point.event.pk, []):
            balance += figures.net
            rest -= figures.net
            labels.append(f"{point.event.date:%m/%d} #{number}")
            values.append(balance)
        if rest:
            balance += rest
            labels.append(f"{point.event.date:%m/%d}")
            values.append(balance)
        if point.settled:
            balance += point.settled
            labels.append(f"{point.event.date:%m/%d} {_('settled')}")
            values.append(balance)
    return labels, values


def qr_svg(link: str) -> SafeString:
    """A link as a QR code, inline SVG (segno: pure Python, nothing fetched)."""
    return mark_safe(segno.make(link, error="m").svg_inline(scale=4))  # segno's own markup


def band_line(
    title: str,
    labels: Sequence[str],
    expected: Sequence[Decimal],
    actual: Sequence[Decimal],
    spread: Sequence[Decimal],
    legend: tuple[str, str, str],
) -> SafeString:
    """What was expected beside what happened, step by step (e.g. the house's theoretical win
    and its actual result from a guest, added up night by night), the expected line in a band of
    one and two ``spread`` (standard deviations) either side: a point outside the outer band is
    unusual. ``legend``: the expected line's, the actual line's and the band's names."""
    outer = [e + 2 * s for e, s in zip(expected, spread, strict=True)]
    under = [e - 2 * s for e, s in zip(expected, spread, strict=True)]
    parts, y = _frame(title, "band-chart", [*outer, *under, *actual])
    step = (_WIDTH - _LEFT - _RIGHT) / max(len(expected) - 1, 1)

    def x(index: int) -> float:
        return _LEFT + index * step if len(expected) > 1 else (_LEFT + _WIDTH - _RIGHT) / 2

    def band(width: int, css: str) -> str:
        pairs = list(enumerate(zip(expected, spread, strict=True)))
        upper = [f"{x(i):.1f},{y(e + width * s):.1f}" for i, (e, s) in pairs]
        lower = [f"{x(i):.1f},{y(e - width * s):.1f}" for i, (e, s) in pairs]
        return f'<polygon points="{" ".join(upper + lower[::-1])}" class="{css}"/>'

    parts.append(band(2, "band2"))
    parts.append(band(1, "band1"))
    for values, css in ((expected, "expected"), (actual, "actual")):
        line = " ".join(f"{x(i):.1f},{y(value):.1f}" for i, value in enumerate(values))
        parts.append(f'<polyline points="{line}" class="{css}"/>')
    for index, (label, value) in enumerate(zip(labels, actual, strict=True)):
        parts.append(
            f'<circle cx="{x(index):.1f}" cy="{y(value):.1f}" r="4" class="actual">'
            f"<title>{escape(label)}: {escape(format_chips(value, signed=True))}</title></circle>"
        )
    if labels:
        parts.append(
            f'<text x="{_LEFT}" y="{_HEIGHT - 12}">{escape(labels[0])}</text>'
            f'<text x="{_WIDTH - _RIGHT}" y="{_HEIGHT - 12}" text-anchor="end">'
            f"{escape(labels[-1])}</text>"
        )
    names = zip(legend, ("expected", "actual", "band1"), strict=True)
    parts.append(
        '<text x="'
        + str(_LEFT)
        + f'" y="{_HEIGHT - 26}" class="legend">'
        + "".join(f'<tspan class="{css}">■ {escape(name)} </tspan>' for name, css in names)
        + "</text>"
    )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every text above is escaped
