"""Runs a pair of moves at once, each from a device of its own (a thread, a client, a host),
released together by a barrier, on a night built fresh for the run; then judges the run:

- no answer is a 5xx and nothing escapes the app (``errors``), a 503 after the middleware's one
  retry is a deadlock left (``deadlocks``);
- every acknowledged write is there exactly once and every refused one is absent (``wrong``);
- ``check_ledger`` finds nothing at the nights the run touched (``ledger``).

Needs a database that takes concurrent writers: PostgreSQL or a SQLite file, never the test
suite's in-memory SQLite.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.core.signals import got_request_exception
from django.db import connection
from django.http import HttpResponseBase
from django.test import Client

from games.models import Event
from ledger.integrity import check_ledger
from ledger.models import AuditEntry
from tests.races.moves import MOVES, Move, Play
from tests.races.nights import KINDS, Night


@dataclass
class Run:
    """What one run of a pair came to."""

    answers: list[str] = field(default_factory=list)  # per device: "done 302", "refused 400"…
    errors: list[str] = field(default_factory=list)  # 5xx other than 503, or an exception
    deadlocks: int = 0  # answered 503: the database stayed busy after the one retry
    retried: int = 0  # writes the middleware ran once more
    wrong: list[str] = field(default_factory=list)
    ledger: list[str] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not (self.errors or self.deadlocks or self.wrong or self.ledger)


class _Watch(logging.Handler):
    """Counts the middleware's retries and keeps what escaped a view, for the run going on."""

    def __init__(self) -> None:
        super().__init__()
        self.retried = 0
        self.escaped: list[str] = []
        self.guard = threading.Lock()  # not ``lock``: logging.Handler holds that one in emit

    def emit(self, record: logging.LogRecord) -> None:
        if "trying once more" in record.getMessage():
            with self.guard:
                self.retried += 1

    def exception(self, sender: object, request: object = None, **kwargs: object) -> None:
        error = sys.exc_info()[1]
        with self.guard:
            self.escaped.append(f"{type(error).__name__}: {str(error).splitlines()[0][:160]}")


WATCH = _Watch()


def watching() -> None:
    """Listen for retries and escaped errors; quiet the expected refusals' log lines."""
    middleware = logging.getLogger("shoebook.middleware")
    if WATCH not in middleware.handlers:
        middleware.addHandler(WATCH)
        got_request_exception.connect(WATCH.exception, weak=False)
    for name in ("django.request", "django.security", "shoebook.middleware"):
        logging.getLogger(name).setLevel(logging.CRITICAL if name != "shoebook.middleware"
                                         else logging.WARNING)  # fmt: skip
    middleware.propagate = False


def kind_for(a: Move, b: Move) -> str | None:
    """The kind of night both moves are played on, or None when they share none."""
    return next((kind for kind in KINDS if kind in a.kinds and kind in b.kinds), None)


def pairs(moves: tuple[Move, ...] = MOVES) -> Iterator[tuple[Move, Move, str | None]]:
    """Every pair of moves (each with itself too), with the kind of night they share."""
    for i, a in enumerate(moves):
        for b in moves[i:]:
            yield a, b, kind_for(a, b)


def acknowledged(response: HttpResponseBase) -> bool:
    """Done, as the person reads it: sent on to the next page, with no error message."""
    if not 300 <= response.status_code < 400:
        return False
    request = getattr(response, "wsgi_request", None)
    said = list(get_messages(request)) if request is not None else []
    return not any(message.level >= message_levels.ERROR for message in said)


def run_pair(a: Move, b: Move | None, kind: str | None) -> Run:
    """One run of ``a`` and ``b`` at once on a fresh night (``b`` None: ``a`` alone, which
    must be acknowledged; ``kind`` None: two moves that share no kind of night, each on a fresh
    night of its own first kind, at once)."""
    moves = [a] if b is None else [a, b]
    if kind is None:
        nights = [Night(next(k for k in KINDS if k in move.kinds)) for move in moves]
    else:
        nights = [Night(kind)] * len(moves)
    plays: list[Play | None] = [None] * len(moves)
    for slot, move in sorted(enumerate(moves), key=lambda item: item[1].stage):
        plays[slot] = move.prepare(nights[slot], slot)
    ready = [play for play in plays if play is not None]
    counters = {play.probe: play.count for play in ready}
    before = {probe: count() for probe, count in counters.items()}
    last_event = Event.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    clients = [Client(raise_request_exception=False) if play.anonymous
               else nights[slot].client(slot) for slot, play in enumerate(ready)]  # fmt: skip
    with WATCH.guard:
        WATCH.retried, WATCH.escaped = 0, []
    answers = _race([(play, client) for play, client in zip(ready, clients, strict=True)])
    run = Run(retried=WATCH.retried, errors=list(WATCH.escaped))
    done = []
    for move, answer in zip(moves, answers, strict=True):
        if isinstance(answer, str):
            run.errors.append(f"{move.name}: {answer}")
            done.append(False)
            continue
        code = answer.status_code
        if code == 503:
            run.deadlocks += 1
        elif code >= 500:
            run.errors.append(f"{move.name}: {code}")
        ok = acknowledged(answer)
        done.append(ok)
        run.answers.append(f"{'done' if ok else 'refused'} {code}")
    for probe, count in counters.items():
        sharing = [(ok, play) for ok, play in zip(done, ready, strict=True) if play.probe == probe]
        expected = sum(ok for ok, _ in sharing)
        if sharing[0][1].state:  # a state set twice is there once
            expected = min(expected, 1)
        found = count() - before[probe]
        if found != expected:
            names = [m.name for m, p in zip(moves, ready, strict=True) if p.probe == probe]
            run.wrong.append(f"{' + '.join(names)}: {expected} acknowledged, {found} written")
    if b is None and not done[0]:
        run.wrong.append(f"{a.name}: refused alone ({run.answers[0] if run.answers else ''})")
    touched = [night.event for night in set(nights)]
    touched += [*Event.objects.filter(pk__gt=last_event)]
    touched += [night.round.tournament.event for night in set(nights) if night.round is not None]
    for event in touched:
        run.ledger += [str(problem) for problem in check_ledger(event).problems]
        run.wrong += written_after_close(event)
    return run


# What only an open night takes (a settlement or a transfer may come after the close).
OPEN_NIGHT_ONLY = (
    AuditEntry.Action.HAND_LOGGED, AuditEntry.Action.HAND_UNDONE, AuditEntry.Action.HAND_CORRECTED,
    AuditEntry.Action.CHIPS, AuditEntry.Action.CHIPS_VOIDED, AuditEntry.Action.ADJUSTMENT,
    AuditEntry.Action.ADJUSTMENT_VOIDED, AuditEntry.Action.COUNT_SETUP,
    AuditEntry.Action.SHOE_REOPENED, AuditEntry.Action.EXPENSE, AuditEntry.Action.EXPENSE_VOIDED,
)  # fmt: skip


def written_after_close(event: Event) -> list[str]:
    """At a closed night, what only an open night takes, written after its close: an audit entry
    (every such write has one) later than the close's. Either the write waited for the close and
    was refused, or the close waited for it: a later entry is a write that saw the night open
    while it was closing."""
    event.refresh_from_db()
    if event.closed_at is None:
        return []
    entries = AuditEntry.objects.filter(event=event)
    closed = entries.filter(action=AuditEntry.Action.EVENT_CLOSED).order_by("-pk").first()
    if closed is None:
        return []
    later = entries.filter(pk__gt=closed.pk, action__in=OPEN_NIGHT_ONLY)
    return [f"written at the closed night after its close: {entry}" for entry in later]


def _race(plays: list[tuple[Play, Client]]) -> list[HttpResponseBase | str]:
    barrier = threading.Barrier(len(plays))
    answers: list[HttpResponseBase | str] = ["not run"] * len(plays)

    def send(index: int, play: Play, client: Client) -> None:
        try:
            barrier.wait()
            answers[index] = play.send(client)
        except Exception as error:  # what escaped the app and the middleware
            answers[index] = f"{type(error).__name__}: {error}"[:200]
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i, play, client))
               for i, (play, client) in enumerate(plays)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@dataclass
class PairTally:
    """A pair's runs added up."""

    a: str
    b: str
    kind: str
    runs: int = 0
    done: int = 0  # acknowledged writes
    refused: int = 0
    errors: int = 0
    deadlocks: int = 0
    retried: int = 0
    wrong: int = 0
    ledger: int = 0  # runs after which check_ledger found a problem
    notes: list[str] = field(default_factory=list)

    def add(self, run: Run) -> None:
        self.runs += 1
        self.done += sum(answer.startswith("done") for answer in run.answers)
        self.refused += sum(answer.startswith("refused") for answer in run.answers)
        self.errors += bool(run.errors)
        self.deadlocks += run.deadlocks
        self.retried += run.retried
        self.wrong += bool(run.wrong)
        self.ledger += bool(run.ledger)
        for note in [*run.errors, *run.wrong, *run.ledger[:2]]:
            if note not in self.notes and len(self.notes) < 4:
                self.notes.append(note)

    @property
    def clean(self) -> bool:
        return not (self.errors or self.deadlocks or self.wrong or self.ledger)


def tally_pair(a: Move, b: Move, kind: str | None, runs: int) -> PairTally:
    tally = PairTally(a.name, b.name, kind or "apart")
    for _ in range(runs):
        try:
            tally.add(run_pair(a, b, kind))
        except Exception as error:  # the preparation or the judging failed: say so, go on
            tally.add(Run(errors=[f"run: {type(error).__name__}: {error}"[:200]]))
    return tally
