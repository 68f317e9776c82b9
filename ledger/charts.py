"""Charts as inline SVG, drawn on the server by pygal: nothing fetched from outside."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from decimal import Decimal

import pygal
import segno
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from pygal.style import Style

from ledger.money import ZERO, format_chips
from ledger.results import BalancePoint, Figures, GuestHistory

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#1b1b1b",
    foreground_strong="#1b1b1b",
    foreground_subtle="#999",
    colors=("#0a7a43", "#c62828", "#1565c0"),
    font_family="system-ui, sans-serif",
    label_font_size=14,
    major_label_font_size=14,
    value_font_size=13,
    title_font_size=16,
)
COMMON = {
    "style": STYLE,
    "js": [],  # pygal's default loads its tooltip script from a CDN
    "disable_xml_declaration": True,
    "show_legend": False,
    "width": 640,
    "height": 300,
    "explicit_size": False,
    "print_values": False,
}


_SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)


def _svg(chart: pygal.graph.graph.Graph) -> SafeString:
    # pygal escapes labels and values itself, so the SVG is safe to inline. Its inline config
    # script (for tooltips we do not load) is dropped: the pages run no inline scripts.
    return mark_safe(_SCRIPT.sub("", chart.render(is_unicode=True)))


def result_bars(title: str, labels: Sequence[str], values: Sequence[Decimal]) -> SafeString:
    """Bars above and below zero, e.g. the guests' result per shoe."""
    chart = pygal.Bar(
        title=title, value_formatter=lambda v: format_chips(Decimal(str(v))), **COMMON
    )
    chart.x_labels = list(labels)
    chart.add(title, [float(value) for value in values])
    return _svg(chart)


def balance_line(title: str, labels: Sequence[str], values: Sequence[Decimal]) -> SafeString:
    """A running balance over time, drawn by hand as one polyline (like the scoreboard): a few
    microseconds a point, where pygal spent about a tenth of a millisecond on each."""
    width, height, left, right, top, bottom = 640, 300, 72, 12, 36, 40
    low, high = min(min(values), ZERO), max(max(values), ZERO)
    span = high - low or Decimal(1)
    step = (width - left - right) / max(len(values) - 1, 1)
    scale = (height - top - bottom) / float(span)

    def y(value: Decimal) -> float:
        return top + float(high - value) * scale

    line = " ".join(f"{left + i * step:.1f},{y(value):.1f}" for i, value in enumerate(values))
    ticks = sorted({low, ZERO, high})
    parts = [
        f'<svg class="balance-chart" viewBox="0 0 {width} {height}" role="img" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{escape(title)}</title>',
        f'<text x="{width // 2}" y="22" text-anchor="middle" class="title">{escape(title)}</text>',
    ]
    for tick in ticks:
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" '
            f'class="{"zero" if tick == ZERO else "grid"}"/>'
            f'<text x="{left - 6}" y="{y(tick) + 5:.1f}" text-anchor="end">'
            f"{escape(format_chips(tick))}</text>"
        )
    parts.append(f'<polyline points="{line}" class="balance"/>')
    if labels:
        parts.append(
            f'<text x="{left}" y="{height - 12}">{escape(labels[0])}</text>'
            f'<text x="{width - right}" y="{height - 12}" text-anchor="end">'
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
