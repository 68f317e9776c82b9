from __future__ import annotations

import re
from decimal import Decimal

from ledger.money.charts import result_bars

D = Decimal


def test_result_bars_draw_a_bar_per_label_above_or_below_zero_escaped():
    svg = result_bars("Gross <per> shoe", ["1", "2", "<3>"], [D("120"), D("-40.50"), D("0")])
    assert svg.startswith('<svg class="result-chart"') and svg.endswith("</svg>")
    assert svg.count('class="won"') == 2 and svg.count('class="lost"') == 1
    assert "<title>1: +120</title>" in svg and "<title>2: −40.50</title>" in svg
    assert "&lt;3&gt;" in svg and "<3>" not in svg and "Gross &lt;per&gt; shoe" in svg
    # The zero line splits the bars: the won one ends on it, the lost one starts on it.
    zero = float(re.search(r'y1="([\d.]+)"[^>]*class="zero"', svg)[1])
    rect = r'<rect x="[\d.]+" y="([\d.]+)" width="[\d.]+" height="([\d.]+)"'
    bars = [tuple(map(float, m)) for m in re.findall(rect, svg)]
    (won_y, won_height), (lost_y, _lost_height), (_, nothing) = bars
    assert round(won_y + won_height, 1) == zero and lost_y == zero and nothing == 0
