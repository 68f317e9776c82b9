"""A new write service is not done until it is in the race matrix: every public function of the
apps' services that takes the actor (``by``) — and the other writes a request reaches, the
invitation's accept — is run by a move of ``tests/races/moves.py``, or is on the short list
below of services that write no night."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.races.moves import MOVES

ROOT = Path(__file__).resolve().parent.parent.parent
APPS = ("games", "ledger", "tournaments")
# Modules whose ``by`` functions are not services a request runs: demos, a tournament played
# through the services for the demo and the simulation.
NOT_SERVICES = {"ledger/demo.py", "ledger/demo_banked.py", "ledger/demo_count.py",
                "tournaments/demo.py", "tournaments/play.py"}  # fmt: skip

# Writes a request reaches that take no ``by`` (the guest making their login is nobody yet).
WITHOUT_ACTOR = {
    "ledger.guests.services.guest_invitation_accept",
    "ledger.people.services.staff_invitation_accept",
}

# Services that write no night: each says why it races nothing of one.
NOT_NIGHT_WRITES = {
    # A new night or tournament: nothing else writes it before it exists.
    "games.services.event_create": "makes a night",
    "tournaments.services.tournament_create": "makes a tournament and its night",
    # A tournament set up before its night is played: no table has hands until the round starts.
    "tournaments.services.tournament_update": "the tournament's terms, before its rounds",
    "tournaments.services.round_add": "a round added before it is drawn",
    "tournaments.services.entrant_add": "registration, closed once a round starts",
    "tournaments.services.round_draw": "the seats drawn before the round starts",
    "tournaments.services.round_start": "the round's tables opened, before any hand",
    # A guest's own row, at no night.
    "ledger.guests.services.guest_rename": "a guest's name",
    "ledger.guests.services.guest_alias_add": "a guest's other name",
    "ledger.guests.services.guest_alias_remove": "a guest's other name",
    "ledger.guests.services.guest_invitation_issue": "an invitation (the accept is a move)",
    "ledger.guests.services.guest_invitation_revoke": "an invitation (the accept is a move)",
    "ledger.guests.services.guest_credit_limit_set": "a guest's credit limit",
    # A series' own rows (its schedule, settings, usual guests, links): no night's. Its nights
    # are made and joined by moves ("series night", "series made").
    "ledger.series.services.series_edit": "a series' schedule",
    "ledger.series.services.series_settings_from": "the settings a series' next nights take",
    "ledger.series.services.series_guests_set": "a series' usual guests",
    "ledger.series.services.series_feed_link_issue": "a series' calendar link",
    "ledger.series.services.series_feed_link_revoke": "a series' calendar link",
    "ledger.series.services.series_calendar_link_issue": "a usual guest's calendar link",
    "ledger.series.services.series_calendar_link_revoke": "a usual guest's calendar link",
    # The people who may log in: no night's rows (the accept, the revoke and a role are moves).
    "ledger.people.services.staff_invitation_issue": "an invitation (the accept is a move)",
    "ledger.people.services.staff_invitation_withdraw": "an invitation (the accept is a move)",
}


def write_services() -> set[str]:
    """``module.function`` of every public function of the apps that takes ``by``."""
    found = set()
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "migrations" in relative or "management" in relative or relative in NOT_SERVICES:
                continue
            module = relative.removesuffix(".py").replace("/", ".")
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                    arguments = [a.arg for a in [*node.args.args, *node.args.kwonlyargs]]
                    if "by" in arguments:
                        found.add(f"{module}.{node.name}")
    return found | WITHOUT_ACTOR


def test_every_write_service_is_in_the_race_matrix():
    in_matrix = {service for move in MOVES for service in move.services}
    missing = write_services() - in_matrix - set(NOT_NIGHT_WRITES)
    assert not missing, (
        "write services in no move of tests/races/moves.py (add a move, or, if it writes no "
        f"night, say why in NOT_NIGHT_WRITES): {sorted(missing)}"
    )


def test_the_registry_names_only_services_that_exist():
    services = write_services()
    named = {service for move in MOVES for service in move.services}
    assert named <= services, sorted(named - services)
    assert set(NOT_NIGHT_WRITES) <= services, sorted(set(NOT_NIGHT_WRITES) - services)
    assert not named & set(NOT_NIGHT_WRITES), sorted(named & set(NOT_NIGHT_WRITES))


def test_the_registry_finds_a_new_service_left_out(tmp_path, monkeypatch):
    # A service written today and in no move is found: the check is not vacuous.
    services = write_services()
    assert "ledger.count.services.adjustment_record" in services
    assert "ledger.money.transfers.transfer_record" in services
    assert "tournaments.services.rebuy" in services
    assert len(services) > 40
