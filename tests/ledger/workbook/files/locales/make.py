"""Writes the German, French and Japanese files of each kind (Punto Banco, coups, count) as
those programs save them: ``python tests/ledger/workbook/files/locales/make.py``. The CSVs are
written byte by byte as Excel saves them (German: cp1252, semicolons, "1.000" and "387,5";
French: UTF-8 with its byte-order mark, semicolons, "1 000,00 €" with a no-break space; Japanese:
Shift_JIS, commas, "\\1,000" where the yen sign is Shift_JIS's 0x5C); the .xlsx as Excel keeps
a yen cell (a number with a currency format); the .ods by LibreOffice itself, from the German
CSV read in the German locale (``soffice --headless --infilter=CSV:59,34,1,1,,1031``)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).parent
PB = ("shoe", "hand", "player_cards", "banker_cards", "result", "player_pair", "banker_pair",
      "seat", "guest", "bet", "stake")  # fmt: skip
COUPS = (
    "shoe",
    "coup",
    "banker",
    "banker_seat",
    "bank",
    "seat",
    "guest",
    "stake_kind",
    "stake",
    "result",
)
COUNT = ("guest", "bought", "cashed_out", "paid_by")


def pb_rows(a: str, b: str, c: str, d: str, aki: str, ben: str) -> list[tuple[str, ...]]:
    # Hand 1: the Player wins; hand 2: the Banker wins with a Banker pair.
    return [
        PB,
        ("1", "1", "9 7", "J J 10", "P", "", "", "1", aki, "player", a),
        ("1", "1", "9 7", "J J 10", "P", "", "", "2", ben, "banker", b),
        ("1", "2", "", "", "B", "no", "yes", "1", aki, "banker_pair", c),
        ("1", "2", "", "", "B", "no", "yes", "2", ben, "banker", d),
    ]


def coup_rows(
    bank: str, s1: str, s2: str, bank2: str, s3: str, s4: str, names: tuple[str, str, str]
) -> list[tuple[str, ...]]:
    # Coup 1: the bank wins both covers; coup 2: the bank, kept, loses to both.
    banker, ben, chie = names
    return [
        COUPS,
        ("1", "1", banker, "1", bank, "2", ben, "", s1, "B"),
        ("1", "1", banker, "1", bank, "3", chie, "", s2, "B"),
        ("1", "2", banker, "1", bank2, "2", ben, "", s3, "P"),
        ("1", "2", banker, "1", bank2, "3", chie, "", s4, "P"),
    ]


GERMAN = {
    "punto-banco": pb_rows("1.000", "387,5", "10", "1.200", "Aki", "Jürgen"),
    "coups": coup_rows("1.000", "600", "400", "1.950", "975,5", "974,5", ("Aki", "Jürgen", "Chie")),
    "count": [
        COUNT,
        ("Tanaka", "1.000", "1.430", "marker"),
        ("Müller", "1.200,50", "0", "cash"),
        ("Schmidt", "387,5", "500", ""),
    ],
}
NBSP = "\u00a0"
FRENCH = {
    "punto-banco": pb_rows(
        f"1{NBSP}000,00 €", "387,50 €", "10,00 €", f"1{NBSP}200,00 €", "Aki", "Gaëlle"
    ),
    "coups": coup_rows(
        f"1{NBSP}000,00 €",
        "600,00 €",
        "400,00 €",
        f"1{NBSP}950,00 €",
        "975,50 €",
        "974,50 €",
        ("Aki", "Gaëlle", "Chie"),
    ),
    "count": [
        COUNT,
        ("Éloïse", f"1{NBSP}000,00 €", f"1{NBSP}430,00 €", "marker"),
        ("Gaëlle", "387,50 €", "500,00 €", "cash"),
    ],
}
YEN = "\\"  # Shift_JIS 0x5C: Japanese Excel's yen sign in a CSV
JAPANESE = {
    "punto-banco": pb_rows(f"{YEN}1,000", f"{YEN}400", f"{YEN}10", f"{YEN}1,200", "田中", "鈴木"),
    "coups": coup_rows(
        f"{YEN}1,000",
        f"{YEN}600",
        f"{YEN}400",
        f"{YEN}1,950",
        f"{YEN}975",
        f"{YEN}975",
        ("田中", "鈴木", "佐藤"),
    ),
    "count": [
        COUNT,
        ("田中", f"{YEN}1,000", f"{YEN}1,430", "marker"),
        ("鈴木", f"{YEN}400", f"{YEN}0", "cash"),
    ],
}
# Japanese Excel's yen format, as it stores it for a cell formatted 通貨 (¥).
YEN_FORMAT = '"¥"#,##0;[Red]"¥"\\-#,##0'
AMOUNTS = {"stake", "bank", "bought", "cashed_out"}


def cell(text: str) -> str:
    return f'"{text}"' if any(char in text for char in ',;"') else text


def csv_bytes(rows: list[tuple[str, ...]], separator: str, encoding: str) -> bytes:
    lines = [separator.join(cell(text) for text in row) for row in rows]
    return "".join(line + "\r\n" for line in lines).encode(encoding)


def yen_number(text: str) -> int | str:
    return int(text.removeprefix(YEN).replace(",", "")) if text.startswith(YEN) else text


def xlsx(rows: list[tuple[str, ...]], path: Path) -> None:
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    header = rows[0]
    sheet.append(header)
    for row in rows[1:]:
        sheet.append(
            [
                yen_number(text) if column in AMOUNTS else (int(text) if text.isdigit() else text)
                for column, text in zip(header, row, strict=True)
            ]
        )
    for column, name in enumerate(header, start=1):
        if name in AMOUNTS:
            for line in range(2, len(rows) + 1):
                sheet.cell(line, column).number_format = YEN_FORMAT
    book.save(path)


def ods_from(csv_path: Path, out: Path, charset: int, language: int) -> None:
    """The CSV opened by LibreOffice as its locale reads it (semicolons, ``charset`` and
    ``language`` in its CSV filter's numbering) and saved as .ods."""
    soffice = shutil.which("soffice")
    if soffice is None:
        return
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(  # soffice, found on the PATH, on our own files
            [
                soffice,
                f"-env:UserInstallation=file://{work}/profile",
                "--headless",
                f"--infilter=CSV:59,34,{charset},1,,{language}",
                *("--convert-to", "ods", "--outdir", work, str(csv_path)),
            ],
            check=True,
            capture_output=True,
        )
        (Path(work) / (csv_path.stem + ".ods")).replace(out)


def main() -> None:
    for kind, rows in GERMAN.items():
        path = HERE / f"de-{kind}.csv"
        path.write_bytes(csv_bytes(rows, ";", "cp1252"))
        ods_from(path, HERE / f"de-{kind}.ods", charset=1, language=1031)  # cp1252, de-DE
    for kind, rows in FRENCH.items():
        path = HERE / f"fr-{kind}.csv"
        path.write_bytes(csv_bytes(rows, ";", "utf-8-sig"))
        ods_from(path, HERE / f"fr-{kind}.ods", charset=76, language=1036)  # UTF-8, fr-FR
    # German Excel's "Unicode text": UTF-16 with its byte-order mark, tabs, the decimal comma.
    (HERE / "de-count.txt").write_bytes(csv_bytes(GERMAN["count"], "\t", "utf-16"))
    for kind, rows in JAPANESE.items():
        (HERE / f"ja-{kind}.csv").write_bytes(csv_bytes(rows, ",", "cp932"))
        xlsx(rows, HERE / f"ja-{kind}.xlsx")


if __name__ == "__main__":
    main()
