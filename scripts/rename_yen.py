#!/usr/bin/env python3
"""The code's rename from yen to the night's currency, run over a tree as often as wanted.

    python scripts/rename_yen.py [--check] [ROOT]

Renames, in python, templates, JS, docs and the Japanese translations (never in migrations,
which keep the history as it was, nor in this script): ``Event.yen_per_chip`` to
``money_per_chip``, the ``…_yen`` figures to ``…_money``, ``to_yen``/``format_yen`` to
``to_money``/``format_money`` (which take the currency too: a call the script cannot complete
is listed, for a person to give it ``event.currency``), the ``yen`` template filter to ``money``
with the night's currency, and the ``{yen}`` placeholder of messages to ``{money}``. Each rule
matches only the old spelling, so a second run changes nothing; a line marked
``rename_yen: keep`` (the import's alias of the old column) is left as it is. ``--check``
changes nothing and exits 1 when a file would change. What is left for a person is printed at
the end.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SUFFIXES = (".py", ".html", ".js", ".md", ".txt")
SKIP_DIRS = {".venv", "node_modules", ".git", "migrations", "__pycache__", "bench_runs"}
HERE = Path(__file__).resolve()

# A call's argument: anything without a comma at its top level, one level of parentheses deep.
_ARG = r"(?:[^(),]|\([^()]*\))+?"

RULES: list[tuple[str, str]] = [
    # to_yen(x, e.yen_per_chip) → to_money(x, e.money_per_chip, e.currency)
    (
        rf"\bto_yen\(({_ARG}),\s*((?:[A-Za-z_][\w]*\.)*)yen_per_chip\)",
        r"to_money(\1, \2money_per_chip, \2currency)",
    ),
    # a message's placeholder filled in: .format(yen="¥10,000"), yen=format_yen(…)
    (r"\byen=(?=[\"']|format_|to_)", "money="),
    (r"\{yen\}", "{money}"),
    (r"(?<![A-Za-z0-9])yen_per_chip(?=\b|__)", "money_per_chip"),  # event__yen_per_chip__gt too
    (r"\bcut_name_yen\b", "cut_name_money"),
    (r"\bCUT_NAMES_YEN\b", "CUT_NAMES_MONEY"),
    (r"\bto_yen\b", "to_money"),
    (r"\bformat_yen\b", "format_money"),
    (r"\byen_of\b", "money_of"),
    (r"\byen_before\b", "money_before"),
    (r"\bInYen\b", "InMoney"),
    (r"\bYenColumn\b", "MoneyColumn"),
    # the figures: net_yen, house_net_yen, balance_yen, after_yen, carried_in_yen, …
    (r"\b([a-z][a-z0-9_]*?)_yen\b", r"\1_money"),
]
TEMPLATE_RULES: list[tuple[str, str]] = [
    (r"\|yen\b(?!:)", "|money:event.currency"),
]
# What no rule can finish: a person reads each line listed.
LEFT = [
    (re.compile(r"\bto_money\((?:[^()]|\([^()]*\))*\)"), 2, "to_money without its currency"),
    (
        re.compile(r"\bformat_money\((?:[^()]|\([^()]*\))*\)"),
        1,
        "format_money without its currency",
    ),
    # words a reader sees: a translatable text that still says yen
    (re.compile(r"""_\(\s*["'][^"']*(?:¥|\b[Yy]en\b)"""), 0, "a text that says yen or ¥"),
]


def files(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        if path == HERE or not path.is_file() or path.suffix not in SUFFIXES:
            continue
        if SKIP_DIRS & set(path.relative_to(root).parts):
            continue
        found.append(path)
    return sorted(found)


KEEP = "rename_yen: keep"  # a line that names the old spelling on purpose (an alias)


def renamed(text: str, template: bool) -> str:
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if KEEP in line:
            continue
        for pattern, replacement in RULES + (TEMPLATE_RULES if template else []):
            line = re.sub(pattern, replacement, line)
        lines[index] = line
    return "".join(lines)


def _commas(call: str) -> int:
    depth, commas = 0, 0
    for char in call:
        depth += char in "([{"
        depth -= char in ")]}"
        commas += char == "," and depth == 1
    return commas


def leftovers(path: Path, text: str) -> list[str]:
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        for pattern, commas, what in LEFT:
            for match in pattern.finditer(line):
                if commas and _commas(match.group()) >= commas:
                    continue
                found.append(f"{path}:{number}: {what}: {line.strip()[:100]}")
                break
    return found


def main(argv: list[str]) -> int:
    check = "--check" in argv
    args = [arg for arg in argv if not arg.startswith("--")]
    root = Path(args[0] if args else ".").resolve()
    changed, left = [], []
    for path in files(root):
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a test's file in another encoding holds no code
        new = renamed(text, template=path.suffix == ".html")
        if new != text:
            changed.append(path)
            if not check:
                path.write_text(new, encoding="utf-8")
        if path.suffix == ".py" and "tests" not in path.relative_to(root).parts[:1]:
            left += leftovers(path.relative_to(root), new)
    for path in changed:
        print(("would change " if check else "changed ") + str(path.relative_to(root)))
    if left:
        print("\nFor a person to read (the rename cannot finish these):")
        print("\n".join(left))
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
