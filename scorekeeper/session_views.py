"""One home for what a worker keeps of its sessions, and the one rule that says when it
is stale.

A session's state is the replay of its live events through its game's engine, from its
newest snapshot (``snapshots``). Rebuilding it is what a worker avoids: it keeps the
view of each of its busiest sessions (``load``), the edit key of each it was asked
about, and what pages and answers make of a view once per version (``made_once``).

The one rule: anything kept of a session is trusted for the version it was made at, and
only while the session's row still holds that version. The version is the row's column
(``stored_version``); on PostgreSQL the writes also announce it (``announced``), so the
refresh check answers from memory (``checked_version``), and a view a few appends behind
catches up from what it heard (``kept_at``). Writes (``store``) hand their new view here
once committed (``committed``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from peewee import JOIN, Field, Query

from scorekeeper import announced, decks, keys, session_log, snapshots
from scorekeeper.db import (
    Statement,
    database,
    from_column,
    is_sqlite,
    write_transaction,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    Expected,
    OptionValue,
)
from scorekeeper.games.engine import Game
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.records import evolve
from scorekeeper.models import (
    Event,
    GameSession,
    Seat,
)
from scorekeeper.recent import Recent
from scorekeeper.session_log import SessionLog


class SessionNotFound(LookupError):
    pass


@dataclass(frozen=True)
class SessionView:
    """Everything a page or the API reads about one session."""

    id: str
    game: Game
    options: dict[str, OptionValue]
    seats: tuple[str, ...]
    version: int
    state: Any
    # Each version's log shares its events with the one it grew from (no copy per append);
    # those a snapshot covers are read when asked.
    events: SessionLog
    # When the session started, and when a write made it finished (None while in play).
    started_at: datetime
    finished_at: datetime | None
    # The finished session this one is the rematch of, if any.
    rematch_of: str | None
    # The deck profile the session plays with (a game with sized cards), if any.
    deck: decks.Profile | None = None
    # Made by an import of an exported file: its page and the lists mark it so.
    imported: bool = False

    @functools.cached_property
    def can_undo(self) -> bool:
        return self.events.any_live

    @functools.cached_property
    def can_redo(self) -> bool:
        return self.events.first_redoable() is not None

    @property
    def finished(self) -> bool:
        return self.game.is_finished(self.state)

    @functools.cached_property
    def expected(self) -> Expected:
        """What the engine accepts next, from this state (worked out once: views are kept
        per version, and every read of the page or the state asks it)."""
        return self.game.expected(self.state)


# What a view works out of its state and log once (functools.cached_property keeps each in
# the instance's __dict__).
WORKED_OUT = ("expected", "can_undo", "can_redo")


def known(view: SessionView, **facts: bool) -> SessionView:
    """The view with some of its worked-out properties given by the write that made it."""
    vars(view).update(facts)
    return view


def same_log(view: SessionView, **changes: Any) -> SessionView:
    """``view`` with ``changes`` that leave its state and log as they are
    (its version, its deck): what was worked out of them still holds."""
    changed = evolve(view, **changes)
    vars(changed).update({name: vars(view)[name] for name in WORKED_OUT if name in vars(view)})
    return changed


def edit_key_matches(session_id: str, key: object) -> bool:
    if not keys.is_id(session_id):
        return False
    try:
        return keys.same_key(edit_key(session_id), key)
    except SessionNotFound:
        return False


# The edit key of each session this worker was lately asked about: a session's key is made
# with it and never changes, so one read serves every write the worker checks after it.
_edit_keys: Recent[str, str] = Recent(1024)


def edit_key(session_id: str) -> str:
    kept = _edit_keys.get(session_id)
    if kept is not None:
        return kept
    stored = _stored_column(session_id, "edit_key")
    if stored is None:
        raise SessionNotFound(session_id)
    _edit_keys.put(session_id, str(stored))
    return str(stored)


# The newest view this worker built of each of its busiest sessions, kept without its deck
# profile (which changes on its own). A view is only trusted for the version it was built
# at: every read compares it with the session row first.
_views: Recent[str, SessionView] = Recent(256)


def forget() -> None:
    """Drop every kept view, key and made thing: the next read of each session starts from
    its newest snapshot, as a restarted worker's does."""
    _views.clear()
    _edit_keys.clear()
    _made.clear()
    session_log.forget()


# What pages and answers make of a session's view (the API's answer text, the page every
# watcher gets), by session: each made for the version it was made at, by kind, with the
# key of what else it depends on (the deck profile, the address its links are under).
# ``lasting`` ones hold no version's fields, and are kept from one version to the next.
@dataclass
class _Made:
    version: int
    at_version: dict[str, tuple[Hashable, object]]
    lasting: dict[str, tuple[Hashable, object]]


_made: Recent[str, _Made] = Recent(256)
Made = TypeVar("Made")


def made_once(
    view: SessionView, kind: str, key: Hashable, make: Callable[[], Made], lasting: bool = False
) -> Made:
    """What ``make()`` makes of ``view`` for ``kind``, made once per version and ``key``
    (``lasting``: once per ``key``, whatever the version), by the one rule of this module."""
    made = _made.get(view.id)
    # Versions only rise: a newer one drops what was made at the one before.
    if made is None or made.version < view.version:
        made = _Made(view.version, {}, {} if made is None else made.lasting)
        _made.put(view.id, made)
    kept = made.lasting if lasting else made.at_version
    if not lasting and made.version != view.version:
        return make()  # a request still reading an older view than another's
    found = kept.get(kind)
    if found is not None and found[0] == key:
        return found[1]  # type: ignore[return-value]
    thing = make()
    kept[kind] = (key, thing)
    return thing


def load(session_id: str, version_read: int | None = None) -> SessionView:
    """The session's view; ``version_read``: its version as the caller has just read it
    (with something else, in one statement), or None to read it here."""
    kept = _views.get(session_id)
    version = stored_version(session_id) if version_read is None else version_read
    # The kept view of an unchanged session is answered after reading the version alone.
    if kept is not None and kept.version == version:
        return with_deck(kept)
    # Behind by appends alone (another worker's): the new events, read in one statement, not
    # the row, the events and the version again.
    caught_up = None if version is None else kept_at(session_id, version)
    if caught_up is not None:
        return with_deck(caught_up)
    session = GameSession.get_or_none(GameSession.id == session_id)
    if session is None:
        raise SessionNotFound(session_id)
    view = _brought_up_to_date(session, kept)
    # The row and the events are separate queries: keep the view only if no write committed
    # between them, that is if the version is still the one it was built for.
    if stored_version(session_id) == session.version:
        _views.put(session.id, view)
    return with_deck(view)


def _brought_up_to_date(session: GameSession, kept: SessionView | None) -> SessionView:
    """The view of ``session`` at its version, without its deck: the kept view, the kept
    view with only the events appended since applied to it, or the view restored from
    the session's newest snapshot."""
    if kept is not None and kept.version == session.version:
        return kept
    if kept is not None and _only_appends_since(kept, session.version, session.rewritten_at):
        rows = session_log.EVENTS_AFTER.execute(session.id, kept.events.newest_seq)
        return _caught_up(kept, session.version, session.finished_at, rows)
    return restored(session)


def _only_appends_since(kept: SessionView, version: int, rewritten_at: int) -> bool:
    """Whether the session came to ``version`` from the kept view's by appends alone: the
    events logged then are unchanged, the new ones follow."""
    return rewritten_at <= kept.version < version


def _caught_up(
    kept: SessionView, version: int, finished_at: datetime | None, rows: Iterable[Sequence[Any]]
) -> SessionView:
    """The kept view with the events appended since applied to it: ``rows`` of seq,
    action, undone and redoable as the database gives them."""
    replayed = session_log.replay_from(kept.game, kept.state, session_log.logged_rows(rows))
    state, appended = replayed.state, replayed.events
    events = kept.events.plus(*appended) if appended else kept.events
    caught_up = evolve(kept, version=version, state=state, events=events, finished_at=finished_at)
    if not appended:
        return caught_up
    # Appended events are live and an append ends the redo trail (an undo or a redo
    # rewrites history): known without a look at the whole log.
    return known(caught_up, can_undo=True, can_redo=False)


def _seats(session: GameSession) -> tuple[str, ...]:
    return tuple(seat.name for seat in session.seats.order_by(Seat.position))


def restored(session: GameSession) -> SessionView:
    """The session's view at the version its row holds, without its deck: its newest
    snapshot with the events logged after it applied (the whole log replayed if it has
    none of its engine's). The snapshots the replay passed are saved: they were missing."""
    game, seats = get_game(session.game), _seats(session)
    saved, stale = snapshots.newest(session.id, game)
    if saved is None:
        state, after, counted, live = game.start(seats, session.options), 0, 0, False
    else:
        state, after, counted, live = saved.state, saved.seq, saved.count, saved.live
    rows = session_log.logged_rows(session_log.EVENTS_AFTER.execute(session.id, after))
    replayed = session_log.replay_from(game, state, rows, counted, live)
    if replayed.passed or stale:
        _save_snapshots(session, game, replayed.passed, stale)
    older = (
        None
        if saved is None
        else session_log.older_events(
            session.id, session.rewritten_at, game, seats, session.options, saved
        )
    )
    return SessionView(
        session.id,
        game,
        session.options,
        seats,
        session.version,
        replayed.state,
        SessionLog(older, GrowingTuple(replayed.events)),
        session.created_at,
        session.finished_at,
        session.rematch_of_id,
        imported=session.imported,
    )


def _save_snapshots(
    session: GameSession, game: Game, passed: Sequence[snapshots.Passed], stale: bool
) -> None:
    """Save what a replay of ``session`` at its version passed, if no other write came
    since (in the write under way, if any: a write that holds the row at that version)."""
    with write_transaction():
        row = _LOCKED_ROW.execute(session.id, 1).fetchone()
        if row is not None and row[_VERSION_COLUMN] == session.version:
            snapshots.save(session.id, game, passed, stale)


def with_deck(view: SessionView) -> SessionView:
    """The view with the session's deck profile as it is now (a game with sized cards)."""
    if view.game.sized_cards is None:
        return view
    return same_log(view, deck=decks.of_session(view.id))


def locked_session(session_id: str) -> GameSession:
    row = _LOCKED_ROW.execute(session_id, 1).fetchone()
    if row is None:
        raise SessionNotFound(session_id)
    # Built from the row's values directly: peewee's raw query resolves its columns to
    # fields anew each time, work every write would repeat for the same columns.
    fields = GameSession._meta.sorted_fields  # the columns select() lists, in its order
    return GameSession(**{f.name: f.python_value(v) for f, v in zip(fields, row, strict=True)})


def _locked_row_query() -> Query:
    query = GameSession.select().where(GameSession.id == "").limit(1)
    # SQLite's IMMEDIATE transaction has locked the whole file already.
    return query if is_sqlite() else query.for_update()


# Every write runs these three: its session row locked, its new event, its session row.
_LOCKED_ROW = Statement(_locked_row_query)


_VERSION_COLUMN = [field.name for field in GameSession._meta.sorted_fields].index("version")


def listeners_generation() -> int | None:
    """Taken before a write, to give ``committed``: ``announced.AnnouncedVersions.generation``."""
    return None if announced.current is None else announced.current.generation()


def committed(view: SessionView, generation: int | None) -> None:
    """A write's view once committed: kept for the next request, and its version known to
    the refresh check of this process at once (PostgreSQL announces it to the others),
    unless the listener reconnected since ``generation`` was taken: another server's write
    announced while it was away may be newer."""
    _views.put(view.id, view)
    # A write inside another one is not committed yet: its version may never be.
    if announced.current is not None and not database.obj.in_transaction():
        announced.current.learn(view.id, view.version, generation)


def locked_view(session: GameSession) -> SessionView:
    """The session's view before a write (its row is locked), with its deck."""
    return with_deck(_brought_up_to_date(session, _views.get(session.id)))


def kept_at(session_id: str, version: int) -> SessionView | None:
    """The view this worker keeps, brought up to ``version`` if the session is there and
    only appends came since (from their announcements, or by one query); None if it
    cannot be."""
    kept = _views.get(session_id)
    if kept is None or kept.version > version:
        return None
    if kept.version == version:
        return kept
    heard = (
        None
        if announced.current is None
        else announced.current.appended(session_id, kept.version, version)
    )
    if heard is not None:
        # Each version since was a one-statement append, heard with its event: the
        # session's row and log are known without reading them (no rewrite, no end).
        view = _caught_up(kept, version, kept.finished_at, [(*e, False, False) for e in heard])
        _views.put(session_id, view)
        return view
    rows = _CAUGHT_UP.execute(kept.events.newest_seq, session_id).fetchall()
    if not rows:
        return None  # no such session
    stored, rewritten_at, finished_at = rows[0][:3]
    if stored != version or not _only_appends_since(kept, version, rewritten_at):
        return None
    appended = [row[3:] for row in rows if row[3] is not None]
    view = _caught_up(kept, version, from_column(GameSession.finished_at, finished_at), appended)
    _views.put(session_id, view)
    return view


# The session's version, when its history was last rewritten and when it ended, with the
# events logged after a seq: one statement, so one snapshot of both tables.
_CAUGHT_UP = Statement(
    lambda: (
        GameSession.select(
            GameSession.version,
            GameSession.rewritten_at,
            GameSession.finished_at,
            Event.seq,
            Event.action,
            Event.undone,
            Event.redoable,
        )
        .join(Event, JOIN.LEFT_OUTER, on=(Event.session == GameSession.id) & (Event.seq > 0))
        .where(GameSession.id == "")
        .order_by(Event.seq)
    )
)


def checked_version(session_id: str, client_knows: int | None = None) -> int | None:
    """The session's version for a refresh check (None: no such session): as PostgreSQL
    announced it to this worker, unless the client knows a newer one (it wrote through
    another worker a moment ago, and the announcement is still on its way); else read
    from the column, and kept for the next check if the listener heard every write since.

    Pages and the API read the column itself (``load``): they cannot tell what the client
    saw, and must never answer older than a write it made through another worker."""
    watch = announced.current
    version = None if watch is None else watch.version(session_id)
    if version is not None and (client_knows is None or client_knows <= version):
        return version
    generation = None if watch is None else watch.generation()
    with database.connection_context():  # a pooled connection, given back at once
        version = stored_version(session_id)
    if watch is not None and version is not None:
        watch.learn(session_id, version, generation)
    return version


def stored_version(session_id: str) -> int | None:
    """The version column alone, read by the primary key (None: no such session)."""
    version = _stored_column(session_id, "version")
    return None if version is None else int(version)


def _stored_column(session_id: str, column: str) -> Any:
    """One column of a session's row, read by the primary key (None: no such session)."""
    row = _COLUMN_READS[column].execute(session_id).fetchone()
    return None if row is None else row[0]


def _column_read(field: Field[Any]) -> Statement:
    return Statement(lambda: GameSession.select(field).where(GameSession.id == ""))


# Every refresh check, read and API write reads one of these.
_COLUMN_READS = {
    column: _column_read(GameSession._meta.fields[column]) for column in ("version", "edit_key")
}


def current_version(session_id: str) -> int:
    """The session's version alone, read by its primary key: no events, no replay."""
    version = stored_version(session_id)
    if version is None:
        raise SessionNotFound(session_id)
    return version
