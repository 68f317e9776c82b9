"""A workbook's sheets read back as rows, for the tests."""

from __future__ import annotations

import io

from openpyxl import load_workbook


def sheet_rows(content: bytes, title: str) -> list[tuple]:
    return list(load_workbook(io.BytesIO(content))[title].iter_rows(values_only=True))
