"""Where things live, enforced: dependencies point one way.

``ledger`` uses ``games``, never the reverse; ``tournaments`` uses both and neither uses it;
the rules core imports nothing from Django; inside an app, models ← services/selectors ← forms
← views; a view never imports another view, and nothing but a URL conf imports a view.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "ledger", "tournaments", "shoebook")
RULES_CORE = (
    "cards",
    "rules",
    "guest_banked",
    "settle",
    "payouts",
    "kinds",
    "entry",
    "messages",
    "odds",
    "shoe",
    "roads",
    "tournament",
)

# The layer of a module, by the first part of its name inside its app. A module may import
# from its own layer or the layers below it.
LAYERS = {
    **dict.fromkeys(RULES_CORE, 0),
    **dict.fromkeys(
        ("models", "chips", "money", "clearing", "names", "migrations", "env", "converters"), 0
    ),
    **dict.fromkeys(
        (
            "services",
            "transfers",
            "hot_reads",
            "coups",
            "selectors",
            "results",
            "integrity",
            "imports",
            "exports",
            "demo",
            "demo_banked",
            "charts",
            "sharing",
            "pdf",
            "scoreboard",
            "roles",
            "play",
            "webapp",
        ),
        1,
    ),
    **dict.fromkeys(
        (
            "forms",
            "coup_forms",
            "transfer_forms",
            "tables",
            "report_tables",
            "filters",
            "templatetags",
            "context_processors",
            "audit",
        ),
        2,
    ),
    **dict.fromkeys(("views", "report_views", "table_views", "admin", "management", "apps"), 3),
    **dict.fromkeys(("urls", "report_urls", "table_urls", "settings", "wsgi", "asgi"), 4),
}


def modules() -> list[tuple[str, Path]]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(part for part in parts if part != "__init__")
            found.append((name, path))
    return found


def imports_of(path: Path, *, ours_only: bool = True) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in names if not ours_only or name.split(".")[0] in PACKAGES}


def layer(name: str) -> int | None:
    parts = name.split(".")
    if len(parts) == 1:
        return None  # a package itself
    return LAYERS.get(parts[1])


ALL = modules()
MODULE_NAMES = {name for name, _path in ALL}


def violations(name: str, imported: set[str]) -> list[str]:
    """What is wrong with module ``name`` importing ``imported`` (modules of ours only)."""
    found = []
    own = layer(name)
    for other in sorted(imported & MODULE_NAMES):
        if name.startswith("games") and other.startswith("ledger"):
            found.append(f"{name} imports {other}: games never imports ledger")
        if name.startswith(("games", "ledger")) and other.startswith("tournaments"):
            found.append(f"{name} imports {other}: tournaments sit above games and ledger")
        theirs = layer(other)
        if own is not None and theirs is not None and theirs > own:
            found.append(f"{name} (layer {own}) imports {other} (layer {theirs})")
        if ".views" in other and ".views" in name and other != name:
            found.append(f"{name} imports another view module, {other}")
    return found


@pytest.mark.parametrize(("name", "path"), ALL, ids=[name for name, _ in ALL])
def test_each_module_imports_only_downward(name, path):
    assert layer(name) is not None or name in PACKAGES, f"{name}: give it a layer in LAYERS"
    assert violations(name, imports_of(path)) == []


@pytest.mark.parametrize(
    ("name", "imported"),
    [
        ("games.models", "ledger.money"),  # games never uses ledger
        ("ledger.services", "tournaments.models"),  # tournaments use the ledger, not the reverse
        ("ledger.selectors", "ledger.forms"),  # a read reaching up to a form
        ("ledger.forms", "ledger.views.table"),
        ("ledger.views.table", "ledger.views.hands"),  # views never import each other
        ("shoebook.roles", "ledger.views.events"),  # nothing shared imports a view
    ],
)
def test_an_upward_import_is_caught(name, imported):
    assert violations(name, {imported})


PATHS = dict(ALL)
# The rules core's modules, the guest-banked package's included: plain Python.
PURE = sorted(
    name for name in MODULE_NAMES if name.startswith("games.") and name.split(".")[1] in RULES_CORE
)
GUEST_BANKED = [name for name in PURE if name.startswith("games.guest_banked")]


@pytest.mark.parametrize("name", [*PURE, "ledger.clearing"])
def test_the_rules_core_imports_nothing_from_django(name):
    outside = {module.split(".")[0] for module in imports_of(PATHS[name], ours_only=False)}
    assert not outside & {"django", "ledger", "shoebook"}, outside


@pytest.mark.parametrize("name", GUEST_BANKED)
def test_the_guest_banked_games_use_only_the_rules_core(name):
    """``games.guest_banked`` builds on the pure modules of ``games`` (cards, rules, payouts, the
    pipeline's types…), never on its Django side (models, chips, services)."""
    ours = imports_of(PATHS[name]) & MODULE_NAMES
    assert {other for other in ours if other.startswith("games")} <= set(PURE), ours - set(PURE)


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle in ``graph`` (module → the modules it imports), as the modules round it,
    or ``None``."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return [*path[path.index(name) :], name]
        if name in done:
            return None
        for other in sorted(graph.get(name, ())):
            found = visit(other, [*path, name])
            if found:
                return found
        done.add(name)
        return None

    return next((found for name in sorted(graph) if (found := visit(name, []))), None)


def imports_among(names: list[str]) -> dict[str, set[str]]:
    """Who imports whom among ``names``, imports for type checking and inside functions too."""
    return {name: (imports_of(PATHS[name]) & set(names)) - {name} for name in names}


def test_the_rules_core_has_no_import_cycle():
    assert cycle(imports_among(PURE)) is None


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for other in graph[todo.pop()] - seen:
            seen.add(other)
            todo.append(other)
    return seen


def test_the_pipeline_and_the_guest_banked_games_do_not_import_each_other():
    """``games.entry`` names a coup's data (``games.guest_banked.terms``), and the guest-banked
    modules read entries with ``games.entry``: the data sits below both, so nothing ``games.entry``
    imports imports it back, not even for type checking."""
    graph = imports_among(PURE)
    below = reachable(graph, "games.entry")
    assert "games.entry" not in below, cycle(graph)
    assert below & set(GUEST_BANKED)  # it does use the coup's data


def test_an_import_cycle_is_caught():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
