"""A workbook's sheets read back as rows, for the tests."""

from __future__ import annotations

import io
import re
from collections.abc import Iterable

from openpyxl import load_workbook


def sheet_rows(content: bytes, title: str) -> list[tuple]:
    return list(
        load_workbook(io.BytesIO(content), data_only=True)[title].iter_rows(values_only=True)
    )


SUM_OF_CELLS = re.compile(r"SUM\([A-Z]+[0-9]+:[A-Z]+[0-9]+\)")


def only_our_totals(sheets_xml: Iterable[str]) -> bool:
    """Whether the only formulas in these sheets' XML are the totals' SUMs over their cells:
    nothing a guest typed ever became one."""
    formulas = [f for xml in sheets_xml for f in re.findall(r"<f(?: [^>]*)?>([^<]*)</f>", xml)]
    return all(SUM_OF_CELLS.fullmatch(formula) for formula in formulas)
