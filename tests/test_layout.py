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
    "theo",
    "shoe",
    "roads",
    "tournament",
    "currencies",  # ISO 4217 through babel: no Django
)

# The layer of a module, by the first part of its name inside its app. A module may import
# from its own layer or the layers below it.
LAYERS = {
    **dict.fromkeys(RULES_CORE, 0),
    **dict.fromkeys(
        (
            "models",
            "chips",
            "amounts",
            "clearing",
            "reconciliation",
            "split",
            "shares",
            "names",
            "migrations",
            "env",
            "converters",
            "downloads",
            "fonts",
            "recurrence",
        ),
        0,
    ),
    **dict.fromkeys(
        (
            "services",
            "transfers",
            "hot_reads",
            "coups",
            "selectors",
            "results",
            "figures",
            "lines",
            "reversal",
            "recording",
            "locks",
            "links",
            "integrity",
            "imports",
            "count_imports",
            "reading",
            "blanks",
            "exports",
            "open_data",
            "demo",
            "demo_banked",
            "demo_count",
            "charts",
            "sharing",
            "receipts",
            "previews",
            "pdf",
            "scoreboard",
            "roles",
            "play",
            "webapp",
            "logs",
            "live",
            "calendar",
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
            "middleware",
            "outages",
            "accounts",
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


# The ledger is cut by what it is about; inside each concept, the layers as above.
CONCEPTS = (
    "nights",
    "hands",
    "guests",
    "money",
    "workbook",
    "count",
    "payways",
    "tips",
    "expenses",
    "series",
    "people",
    "ratings",
)


def concept_of(name: str) -> str | None:
    parts = name.split(".")
    return parts[1] if parts[0] == "ledger" and len(parts) > 1 and parts[1] in CONCEPTS else None


def layer(name: str) -> int | None:
    parts = name.split(".")
    if concept_of(name) or name.startswith("shoebook.base."):
        parts = parts[1:]
    if len(parts) == 1:
        return None  # a package itself
    return LAYERS.get(parts[1])


ALL = modules()
MODULE_NAMES = {name for name, _path in ALL}


def ground(name: str) -> bool:
    """Part of what every app may import: ``shoebook.base``."""
    return name == "shoebook.base" or name.startswith("shoebook.base.")


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
        apps = ("games", "ledger", "tournaments")
        if name.startswith(apps) and other.startswith("shoebook") and not ground(other):
            found.append(f"{name} imports {other}: an app stands on shoebook.base, not the roof")
        if ground(name) and not ground(other):
            found.append(f"{name} imports {other}: shoebook.base imports no app and no roof")
        if ".views" in other and ".views" in name and other != name:
            found.append(f"{name} imports another view module, {other}")
    return found


@pytest.mark.parametrize(("name", "path"), ALL, ids=[name for name, _ in ALL])
def test_each_module_imports_only_downward(name, path):
    packages = {*PACKAGES, "shoebook.base", *(f"ledger.{concept}" for concept in CONCEPTS)}
    package = name in packages
    assert layer(name) is not None or package, f"{name}: give it a layer in LAYERS"
    assert violations(name, imports_of(path)) == []


@pytest.mark.parametrize(
    ("name", "imported"),
    [
        ("games.models", "ledger.money.amounts"),  # games never uses ledger
        ("ledger.hands.services", "tournaments.models"),  # tournaments use the ledger
        ("ledger.hands.selectors", "ledger.hands.forms"),  # a read reaching up to a form
        ("ledger.money.services", "ledger.guests.forms"),  # nor another concept's form
        ("ledger.forms", "ledger.hands.views.table"),
        ("ledger.hands.views.table", "ledger.hands.views.hands"),  # views never import each other
        ("shoebook.base.roles", "ledger.nights.views"),  # nothing shared imports a view
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


@pytest.mark.parametrize(
    "name",
    [*PURE, "ledger.money.clearing", "ledger.count.reconciliation", "ledger.expenses.shares"],
)
def test_the_rules_core_imports_nothing_from_django(name):
    outside = {module.split(".")[0] for module in imports_of(PATHS[name], ours_only=False)}
    assert not outside & {"django", "ledger", "shoebook"}, outside


def concept_graph(lowest: int = 1) -> dict[str, set[str]]:
    """Which concept's models-facing modules (services, selectors and the like: layer ``lowest``
    or under) import which other concept's."""
    graph: dict[str, set[str]] = {concept: set() for concept in CONCEPTS}
    for name, path in ALL:
        mine, own = concept_of(name), layer(name)
        if mine is None or own is None or own > lowest:
            continue
        for other in imports_of(path) & MODULE_NAMES:
            theirs = concept_of(other)
            if theirs and theirs != mine:
                graph[mine].add(theirs)
    return graph


def cycle_in(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph as a path that comes back to its start, or [] if there is none."""
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> list[str]:
        state[node] = "open"
        for after in sorted(graph[node]):
            if state.get(after) == "open":
                return [*path, node, after]
            if after not in state and (found := visit(after, [*path, node])):
                return found
        state[node] = "done"
        return []

    for node in sorted(graph):
        if node not in state and (found := visit(node, [])):
            return found
    return []


def test_the_ledger_s_concepts_depend_on_each_other_one_way():
    # Pages may show any concept's panels; underneath, money knows nothing of the table, and a
    # guest nothing of a hand: what a write calls, a read never calls back.
    assert cycle_in(concept_graph()) == []


def test_a_cycle_between_concepts_is_caught():
    assert cycle_in({"hands": {"money"}, "money": {"guests"}, "guests": {"hands"}}) == [
        "guests",
        "hands",
        "money",
        "guests",
    ]
    assert cycle_in({"hands": {"money"}, "money": set()}) == []


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
