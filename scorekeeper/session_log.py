"""A session's log as a view holds it: each event with its text and ruling.

A view built from a snapshot holds in memory only the events after it (replayed to
reach the current state anyway); the events the snapshot covers are read from the
database when a page asks for them, their rulings worked out by a replay from the newest
snapshot before them. A view's length, its newest event, and whether it can be undone
or redone are known without reading them.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, overload

from scorekeeper import snapshots
from scorekeeper.db import Statement, from_column
from scorekeeper.games.base import IllegalAction, OptionValue
from scorekeeper.games.engine import Game
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.records import evolve
from scorekeeper.games.words import phrase
from scorekeeper.models import Correction, Event
from scorekeeper.recent import Recent


@dataclass(frozen=True)
class LoggedEvent:
    seq: int
    action: dict[str, Any]
    undone: bool
    redoable: bool
    text: str
    # The sentence the engine ruled when this event was applied (live events only).
    ruling: str | None


# A replayed event the rules now refuse (after a correction of one before it): which, and why.
NO_LONGER_APPLIES = phrase(
    "web.history.event-no-longer-applies", "Event {number} ({event}): {reason}"
)

# An event as stored: (seq, action JSON, undone, redoable).
Logged = tuple[int, Mapping[str, Any], bool, bool]


def replay_one(
    game: Game, state: Any, seq: int, data: Mapping[str, Any], undone: bool, redoable: bool
) -> tuple[Any, LoggedEvent]:
    """The state after one more logged event (an undone one is listed, not applied)."""
    action = game.parse_action(data)
    ruling = None
    if not undone:
        try:
            state = game.apply(state, action)
        except IllegalAction as refused:
            raise IllegalAction(
                NO_LONGER_APPLIES(number=seq, event=game.describe(action), reason=refused.said)
            ) from None
        ruling = game.ruling(state)
    return state, LoggedEvent(seq, dict(data), undone, redoable, game.describe(action), ruling)


@dataclass(frozen=True)
class Replayed:
    state: Any
    events: list[LoggedEvent]
    # The states at the boundaries passed (``snapshots.is_boundary``), to be saved.
    passed: list[snapshots.Passed]


def replay_from(
    game: Game, state: Any, logged: Iterable[Logged], counted: int = 0, live: bool = False
) -> Replayed:
    """The state after ``logged``, applied to ``state``, which follows ``counted`` events
    (``live``: one of them is live). An event that no longer applies raises IllegalAction
    naming its number.

    No boundary from a redoable event on is passed: no snapshot covers a redoable event,
    so that a view finds the redo trail among the events it holds in memory.
    """
    events: list[LoggedEvent] = []
    passed: list[snapshots.Passed] = []
    trail = False
    with _collector_paused():
        for seq, data, undone, redoable in logged:
            state, event = replay_one(game, state, seq, data, undone, redoable)
            events.append(event)
            live, trail = live or not undone, trail or redoable
            if not trail and snapshots.is_boundary(counted + len(events)):
                passed.append(snapshots.Passed(seq, counted + len(events), live, state))
    return Replayed(state, events, passed)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a log is replayed: a replay makes no
    cycles, but a long one makes millions of objects (each ruling's words and values),
    and every collection they set off walks the whole heap, a large import's parsed
    file included (a 20,000-event import replayed in a third of the time)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def logged_rows(rows: Iterable[Sequence[Any]]) -> Iterator[Logged]:
    """Event rows of seq, action, undone and redoable, as the database gives them."""
    for seq, action, undone, redoable in rows:
        yield (
            seq,
            Event.action.python_value(action),
            from_column(Event.undone, undone),
            from_column(Event.redoable, redoable),
        )


# The events logged after a seq, and those between two (neither included).
EVENTS_AFTER = Statement(
    lambda: (
        Event.select(Event.seq, Event.action, Event.undone, Event.redoable)
        .where((Event.session == "") & (Event.seq > 0))
        .order_by(Event.seq)
    )
)
_EVENTS_BETWEEN = Statement(
    lambda: (
        Event.select(Event.seq, Event.action, Event.undone, Event.redoable)
        .where((Event.session == "") & (Event.seq > 0) & (Event.seq < 0))
        .order_by(Event.seq)
    )
)
# Some of the events up to a seq, by their place in the log.
_EVENTS_PLACED = Statement(
    lambda: (
        Event.select(Event.seq, Event.action, Event.undone, Event.redoable)
        .where((Event.session == "") & (Event.seq <= 0))
        .order_by(Event.seq)
        .limit(1)
        .offset(0)
    )
)


class OlderEvents:
    """The events a snapshot covers, read from the database when asked.

    They are those of the log while the snapshot's row exists (a rewrite of one of them
    deletes it): views built on the same snapshot share them, and what they read.
    """

    def __init__(
        self,
        session_id: str,
        game: Game,
        seats: Sequence[str],
        options: Mapping[str, OptionValue],
        base: snapshots.Passed,
    ) -> None:
        self.session_id, self.game, self.seats, self.options = session_id, game, seats, options
        self.seq, self.count, self.live = base.seq, base.count, base.live
        self._all: tuple[LoggedEvent, ...] | None = None

    def slice(self, start: int, stop: int) -> tuple[LoggedEvent, ...]:
        """The events from place ``start`` to ``stop`` (0 ≤ start ≤ stop ≤ count): their
        rulings from a replay of the events before them since the newest snapshot."""
        if self._all is not None or start >= stop:
            return self.all()[start:stop]
        rows = list(
            logged_rows(_EVENTS_PLACED.execute(self.session_id, self.seq, stop - start, start))
        )
        saved, _stale = snapshots.newest(self.session_id, self.game, before=rows[0][0])
        if saved is None:
            state, after = self.game.start(self.seats, self.options), 0
        else:
            state, after = saved.state, saved.seq
        between = _EVENTS_BETWEEN.execute(self.session_id, after, rows[0][0])
        before = replay_from(self.game, state, logged_rows(between))
        return tuple(replay_from(self.game, before.state, rows).events)

    def all(self) -> tuple[LoggedEvent, ...]:
        """Every event the snapshot covers (an export, a page listing the whole log)."""
        if self._all is None:
            rows = logged_rows(_EVENTS_BETWEEN.execute(self.session_id, 0, self.seq + 1))
            start = self.game.start(self.seats, self.options)
            self._all = tuple(replay_from(self.game, start, rows).events)
        return self._all


# The older events of the latest snapshots read, by session, the snapshot's seq and the
# version at which the session's history was last rewritten (a rewrite of an event up to
# that seq rewrites them): an undo's view, and every view caught up from it, shares those
# of the view before.
_older: Recent[tuple[str, int, int], OlderEvents] = Recent(256)


def older_events(
    session_id: str,
    rewritten_at: int,
    game: Game,
    seats: Sequence[str],
    options: Mapping[str, OptionValue],
    base: snapshots.Passed,
) -> OlderEvents:
    key = (session_id, base.seq, rewritten_at)
    kept = _older.get(key)
    if kept is None:
        kept = OlderEvents(session_id, game, seats, options, base)
        _older.put(key, kept)
    return kept


def forget() -> None:
    """Forget every snapshot's older events read (a restarted worker's)."""
    _older.clear()


class SessionLog(Sequence[LoggedEvent]):
    """A view's log: the events a snapshot covers (``older``, read when asked) followed by
    those after it, held (``newer``). Equal to any sequence of the same events; slices
    are tuples. Appending grows ``newer`` without a copy."""

    __slots__ = ("newer", "older")

    def __init__(self, older: OlderEvents | None, newer: GrowingTuple[LoggedEvent]) -> None:
        self.older = older
        self.newer = newer

    @property
    def _held_back(self) -> int:
        return 0 if self.older is None else self.older.count

    def __len__(self) -> int:
        return self._held_back + len(self.newer)

    @overload
    def __getitem__(self, index: int) -> LoggedEvent: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[LoggedEvent, ...]: ...

    def __getitem__(self, index: int | slice) -> LoggedEvent | tuple[LoggedEvent, ...]:
        held_back = self._held_back
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return tuple(self)[index]
            older = () if self.older is None else self.older.slice(start, min(stop, held_back))
            return older + self.newer[max(start - held_back, 0) : max(stop - held_back, 0)]
        place = index + len(self) if index < 0 else index
        if not 0 <= place < len(self):
            raise IndexError("SessionLog index out of range")
        if place >= held_back:
            return self.newer[place - held_back]
        assert self.older is not None
        return self.older.slice(place, place + 1)[0]

    def __iter__(self) -> Iterator[LoggedEvent]:
        if self.older is not None:
            yield from self.older.all()
        yield from self.newer

    def __reversed__(self) -> Iterator[LoggedEvent]:
        # The events held first: the older ones are read only if the reader goes on to them.
        yield from reversed(self.newer)
        if self.older is not None:
            yield from reversed(self.older.all())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SessionLog | GrowingTuple | tuple):
            return NotImplemented
        return len(other) == len(self) and all(
            mine == theirs for mine, theirs in zip(self, other, strict=True)
        )

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"SessionLog({list(self)!r})"

    def plus(self, *events: LoggedEvent) -> SessionLog:
        """This log followed by ``events``."""
        return SessionLog(self.older, self.newer.plus(*events))

    @property
    def newest_seq(self) -> int:
        """The seq of the newest event (0: none)."""
        if self.newer:
            return self.newer[-1].seq
        return 0 if self.older is None else self.older.seq

    @property
    def any_live(self) -> bool:
        """Whether an event is live (one an undo could take): looked for from the newest."""
        return any(not event.undone for event in reversed(self.newer)) or (
            self.older is not None and self.older.live
        )

    def first_redoable(self) -> LoggedEvent | None:
        """The event a redo restores: the oldest redoable one. The redoable events are
        undone ones after the newest live event, and no snapshot covers one: among the
        events held, from the newest back to the first live one."""
        first = None
        for event in reversed(self.newer):
            if not event.undone:
                break
            if event.redoable:
                first = event
        return first

    def replacing(self, changed: Mapping[int, LoggedEvent]) -> SessionLog:
        """This log with the held events of the seqs in ``changed`` replaced."""
        return SessionLog(
            self.older, GrowingTuple(changed.get(event.seq, event) for event in self.newer)
        )

    def without_redo_trail(self) -> SessionLog:
        """This log with no event redoable (an append ends the redo trail): they are held."""
        ended = {event.seq: evolve(event, redoable=False) for event in self.newer if event.redoable}
        return self.replacing(ended)


def replay(
    game: Game,
    seats: Sequence[str],
    options: Mapping[str, OptionValue],
    logged: Sequence[Logged],
) -> tuple[Any, GrowingTuple[LoggedEvent]]:
    """The state after the live events, and each event with its ruling.

    ``logged`` holds (seq, action JSON, undone, redoable) in log order. An
    event that no longer applies raises IllegalAction naming its number.
    """
    replayed = replay_from(game, game.start(seats, options), logged)
    return replayed.state, GrowingTuple(replayed.events)


@dataclass(frozen=True)
class Replaced:
    """What an event said before one correction, and when the correction was made."""

    action: dict[str, Any]
    text: str
    corrected_at: datetime


def corrections(
    session_id: str, game: Game, numbered: tuple[int, int] | None = None
) -> dict[int, tuple[Replaced, ...]]:
    """The corrected events (those numbered from ``numbered[0]`` to ``numbered[1]``): what
    each said before each of its corrections, oldest first (its action after the last one
    is the event's own)."""
    where = Correction.session == session_id
    if numbered is not None:
        where &= Correction.seq.between(*numbered)
    rows = Correction.select().where(where).order_by(Correction.id)
    replaced: dict[int, list[Replaced]] = {}
    for row in rows:
        text = game.describe(game.parse_action(row.action))
        replaced.setdefault(row.seq, []).append(Replaced(row.action, text, row.corrected_at))
    return {seq: tuple(earlier) for seq, earlier in replaced.items()}
