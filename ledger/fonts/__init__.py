"""The fonts the ledger draws with, shipped with the package: IPAex Gothic (``ipaexg.ttf``, IPA
Font License, ``IPA_Font_License.txt``), for receipts' PDFs and link previews' pictures."""

from pathlib import Path

IPAEX_GOTHIC = Path(__file__).resolve().parent / "ipaexg.ttf"
