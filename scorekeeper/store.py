"""The session store: the only code that writes sessions and events.

A session's state is the replay of its live events through its game's engine.
Every write is one transaction that first checks the one-time form key and
the version the client saw, then validates by applying the action, and only
then writes: an illegal action leaves nothing behind.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from peewee import JOIN, Field, IntegrityError, Query, chunked

from scorekeeper import announced, decks, groups, keys, read_model, session_log, snapshots
from scorekeeper.db import (
    Statement,
    database,
    from_column,
    in_model_order,
    is_sqlite,
    model_order,
    write_transaction,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    Expected,
    IllegalAction,
    OptionValue,
    number_range,
    or_list,
    parse_name,
    resolve_options,
)
from scorekeeper.games.engine import Game
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.records import evolve
from scorekeeper.models import (
    NAME_MAX_LENGTH,
    BaseModel,
    Correction,
    Event,
    GameSession,
    RequestKey,
    Seat,
    json_text,
    utc_now,
)
from scorekeeper.recent import Recent
from scorekeeper.session_log import Logged, SessionLog
from scorekeeper.session_log import LoggedEvent as LoggedEvent

# The events a session logs at most (undone ones too), and the corrections it keeps at
# most, so that its export fits the file an import takes (export.FILE_MAX_BYTES, README:
# Limits): a score sheet of twelve seats named in 40 letters, 20,000 rounds each
# corrected once, exports 61.9 MB. Twice the 10,000 events of the longest benchmark.
MAX_EVENTS = MAX_CORRECTIONS = 20_000
# The rows an import writes in one statement: a few values each, well under the 32,766
# parameters a statement that SQLite allows by default.
ROWS_PER_INSERT = 1_000


@dataclass(frozen=True)
class ImportedSession:
    """An exported session as an import needs it, its shape checked (``export.read_export``)."""

    game: str
    options: dict[str, object]
    seats: list[object]
    events: list[tuple[int, dict[str, object], bool, bool]]
    # (name, sizes) of the deck profile the session played with, unchecked.
    deck_profile: tuple[object, object] | None = None
    # What corrections replaced, oldest first.
    corrections: list[ImportedCorrection] = field(default_factory=list)
    # When the exported session started and ended (None: the file does not say).
    started_at: datetime | None = None
    finished_at: datetime | None = None


# What one correction replaced, as read from a file: (seq, action, when, the file's field).
ImportedCorrection = tuple[int, dict[str, object], datetime, str]


class SessionNotFound(LookupError):
    pass


class StaleVersion(Exception):
    """The client saw an older version of the session than the stored one."""

    def __init__(self, current: int) -> None:
        super().__init__(f"The session changed (now at version {current}): here is the new state.")
        self.current = current


class AlreadyRecorded(Exception):
    """This write was sent before (a double tap, a retry): nothing new was recorded.

    ``answer`` is what the API answered the first time (None for a form).
    """

    def __init__(self, session_id: str | None, answer: Any = None) -> None:
        super().__init__("This form was already submitted; it was recorded once.")
        self.session_id = session_id
        self.answer = answer


@dataclass(frozen=True)
class OneTimeKey:
    """A write's one-time key: a form's hidden key, or the API's ``request_key``.

    ``fingerprint`` identifies the request sent under an API key, so the same
    key with another request is refused; ``answer`` makes the reply that a
    retry gets again, computed from the session as the write left it.
    """

    key: str
    field: str = "form_key"
    fingerprint: str = ""
    answer: Callable[[SessionView], Any] | None = None


def one_time_key(key: str | OneTimeKey | None) -> OneTimeKey | None:
    return OneTimeKey(key) if isinstance(key, str) and key else key or None


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


def _known(view: SessionView, **facts: bool) -> SessionView:
    """The view with some of its worked-out properties given by the write that made it."""
    vars(view).update(facts)
    return view


def _same_log(view: SessionView, **changes: Any) -> SessionView:
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


def check_seat_names(game: Game, names: Sequence[object]) -> tuple[str, ...]:
    if not game.min_players <= len(names) <= game.max_players:
        raise IllegalAction(
            f"{game.title} needs {number_range(game.min_players, game.max_players)} seats; "
            f"you named {len(names)}.",
            "seats",
        )
    cleaned: list[str] = []
    for index, raw in enumerate(names):
        position, field = index + 1, f"seats.{index}"
        name = (
            parse_name(raw, f"Seat {position}'s name", field, NAME_MAX_LENGTH)
            if isinstance(raw, str)
            else ""
        )
        if not name:
            raise IllegalAction(f"Seat {position} needs a name.", field)
        if name.casefold() in (taken.casefold() for taken in cleaned):
            raise IllegalAction(f"Two seats are called {name}; give each seat its own name.", field)
        cleaned.append(name)
    return tuple(cleaned)


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
    replayed = session_log.replay_from(game, game.start(seats, options), logged)
    return replayed.state, GrowingTuple(replayed.events)


# The newest view this worker built of each of its busiest sessions, kept without its deck
# profile (which changes on its own). A view is only trusted for the version it was built
# at: every read compares it with the session row first.
_views: Recent[str, SessionView] = Recent(256)


def forget_views() -> None:
    """Drop every kept view and key: the next read of each session starts from its newest
    snapshot, as a restarted worker's does."""
    _views.clear()
    _edit_keys.clear()
    session_log.forget()


def load(session_id: str) -> SessionView:
    kept = _views.get(session_id)
    # The kept view of an unchanged session is answered after reading the version alone.
    if kept is not None and kept.version == stored_version(session_id):
        return _with_deck(kept)
    session = GameSession.get_or_none(GameSession.id == session_id)
    if session is None:
        raise SessionNotFound(session_id)
    view = _brought_up_to_date(session, kept)
    # The row and the events are separate queries: keep the view only if no write committed
    # between them, that is if the version is still the one it was built for.
    if stored_version(session_id) == session.version:
        _views.put(session.id, view)
    return _with_deck(view)


def _brought_up_to_date(session: GameSession, kept: SessionView | None) -> SessionView:
    """The view of ``session`` at its version, without its deck: the kept view, the kept
    view with only the events appended since applied to it, or the view restored from
    the session's newest snapshot."""
    if kept is not None and kept.version == session.version:
        return kept
    if kept is not None and _only_appends_since(kept, session.version, session.rewritten_at):
        rows = session_log.EVENTS_AFTER.execute(session.id, kept.events.newest_seq)
        return _caught_up(kept, session.version, session.finished_at, rows)
    return _restored(session)


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
    return _known(caught_up, can_undo=True, can_redo=False)


def _seats(session: GameSession) -> tuple[str, ...]:
    return tuple(seat.name for seat in session.seats.order_by(Seat.position))


def _restored(session: GameSession) -> SessionView:
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


def _with_deck(view: SessionView) -> SessionView:
    """The view with the session's deck profile as it is now (a game with sized cards)."""
    if view.game.sized_cards is None:
        return view
    return _same_log(view, deck=decks.of_session(view.id))


def _check_deck_game(game: Game, deck_given: bool) -> None:
    if deck_given and game.sized_cards is None:
        raise IllegalAction(f"{game.title} is not played with a deck profile.", "deck_profile")


def create(
    game_slug: object,
    names: Sequence[object],
    options: Mapping[str, object],
    form_key: str | OneTimeKey | None = None,
    deck_profile: str | None = None,
    new_deck_name: str | None = None,
    seating: groups.Seating | None = None,
) -> tuple[str, str]:
    """A new session; returns its id (the view link) and its edit key.

    A game played with a deck profile links the profile ``deck_profile``
    (its id) or, when none is given, a new one named ``new_deck_name``. A
    session started from a group (``seating``) is the group's, its seats its
    players, named as they are (``names`` is ignored).
    """
    game = get_game(game_slug)
    seats = check_seat_names(game, seating.names if seating is not None else names)
    resolved = resolve_options(game.options, options)
    _check_deck_game(game, bool(deck_profile or new_deck_name))

    def link_deck_and_group(session: GameSession) -> None:
        if seating is not None:
            groups.seat(session, seating)
        if game.sized_cards is None:
            return
        name = new_deck_name or decks.default_name(game)
        profile_id = deck_profile or decks.insert(game, name, field="new_deck_name").id
        decks.link(session, profile_id)

    return _insert_session(game, seats, resolved, [], form_key, link_deck_and_group)


@dataclass(frozen=True)
class NextGame:
    """The next game at a finished session's table, as "Play again" finds or starts it."""

    id: str
    edit_key: str
    # True: an earlier tap or request started it, and this one lands on it.
    already_started: bool


def rematch(session_id: str, form_key: str | OneTimeKey | None = None) -> NextGame:
    """The next game at the table of a finished session ("Play again"): the same seats
    and deck profile, the options its game moves on (the first player or dealer). The
    new session names the finished one. A finished session has one next game: once it is
    started, every later tap lands on it (the table does not split)."""
    view = load(session_id)
    game = view.game
    _refuse_unless_finished(game, view.finished)
    options = resolve_options(game.options, game.rematch_options(view.options, view.seats))
    # The table keeps its order around, starting at the seat the game moves first on to:
    # the finished session's seat of each new seat.
    first = game.rematch_first_seat(view.state)
    order = [(first + position) % len(view.seats) for position in range(len(view.seats))]

    def carry_over(session: GameSession) -> None:
        """What the new session takes from the finished one beside its seats and options:
        its deck profile, and its group with each seat's player."""
        if view.deck is not None:
            decks.link(session, view.deck.id)
        groups.seat_again(session_id, session, order)

    seats = [view.seats[seat] for seat in order]
    with write_transaction():
        # Locked before the new row names it: the row's foreign key takes a share lock on
        # the finished one, and two rematches that each held one and then asked for this
        # lock waited for each other (PostgreSQL). Locked first, they queue here.
        played = _locked_session(session_id)
        # An undo on another phone may have reopened the game since it was read.
        _refuse_unless_finished(game, played.finished)
        try:
            next_id, key = _insert_session(
                game, seats, options, [], form_key, carry_over, rematch_of=view.id
            )
        except AlreadyRecorded as repeated:
            # The tap or request that started it, sent again: it answers as it did.
            assert repeated.session_id is not None  # a new session's key names it
            return NextGame(
                repeated.session_id, edit_key(repeated.session_id), already_started=False
            )
        except IntegrityError:
            # The unique index on rematch_of: a tap that came first started the next game.
            started = next_session(session_id)
            if started is None:
                raise
            return NextGame(started, edit_key(started), already_started=True)
    return NextGame(next_id, key, already_started=False)


def next_session(session_id: str) -> str | None:
    """The id of the rematch of a session ("next game →"), if any."""
    row = GameSession.select(GameSession.id).where(GameSession.rematch_of == session_id).first()
    return None if row is None else str(row.id)


def _refuse_unless_finished(game: Game, finished: bool) -> None:
    if not finished:
        raise IllegalAction(
            f"This {game.title} session is still in play: play again once it is finished.",
            "session",
        )


def import_session(
    imported: ImportedSession, form_key: str | OneTimeKey | None = None
) -> tuple[str, str]:
    """A new session identical to an exported one (read by ``export.read_export``)."""
    game = get_game(imported.game)
    for listed, most, what in (
        (imported.events, MAX_EVENTS, "events"),
        (imported.corrections, MAX_CORRECTIONS, "corrections"),
    ):
        if len(listed) > most:
            raise IllegalAction(
                f"The file holds {len(listed):,} {what}; a session keeps at most {most:,}.",
                "events",
            )
    _check_deck_game(game, imported.deck_profile is not None)
    seats = check_seat_names(game, imported.seats)
    options = resolve_options(game.options, imported.options)
    logged = [
        (seq, game.action_to_json(game.parse_action(action)), undone, redoable)
        for seq, action, undone, redoable in imported.events
    ]

    replaced = _imported_corrections(game, imported.corrections)

    def copy_deck_and_corrections(session: GameSession) -> None:
        # The importer gets a profile of their own: the file's sizes under the file's name.
        if imported.deck_profile is not None:
            name, sizes = imported.deck_profile
            profile = decks.insert(game, name, sizes, "deck_profile.name", "deck_profile.sizes")
            decks.link(session, profile.id)
        elif game.sized_cards is not None:
            decks.link(session, decks.insert(game, decks.default_name(game)).id)
        if replaced:
            _insert_in_batches(
                Correction, ({"session": session, **correction} for correction in replaced)
            )

    timing = {"created_at": imported.started_at, "finished_at": imported.finished_at}
    return _insert_session(
        game,
        seats,
        options,
        logged,
        form_key,
        copy_deck_and_corrections,
        imported=True,
        **{column: moment for column, moment in timing.items() if moment is not None},
    )


def _imported_corrections(
    game: Game, corrections: Sequence[ImportedCorrection]
) -> list[dict[str, Any]]:
    """The rows of an import's corrections, each action checked by the game."""
    rows = []
    for seq, action, corrected_at, where in corrections:
        try:
            replaced = game.action_to_json(game.parse_action(action))
        except IllegalAction as refused:
            raise IllegalAction(
                f"Event {seq}: the action a correction replaced is not valid: {refused.message}",
                f"{where}.action",
            ) from None
        rows.append({"seq": seq, "action": replaced, "corrected_at": corrected_at})
    return rows


def _insert_session(
    game: Game,
    seats: Sequence[str],
    options: Mapping[str, OptionValue],
    logged: Sequence[Logged],
    form_key: str | OneTimeKey | None,
    also: Callable[[GameSession], None],
    **columns: Any,
) -> tuple[str, str]:
    """Store a new session whose log replays without a refusal; else store nothing.

    ``also`` writes what else belongs to the session, in the same transaction;
    ``columns`` are the session row's own values beside the defaults (``imported``,
    ``rematch_of``, an import's ``created_at`` and ``finished_at``).
    """
    session_id = keys.new_id()
    key = keys.new_key()
    once = one_time_key(form_key)
    try:
        with write_transaction():
            claim_key(once, NEW_SESSION_SCOPE)
            replayed = session_log.replay_from(game, game.start(seats, options), logged)
            finished = game.is_finished(replayed.state)
            # A finished session ends when it is made, unless its file says otherwise; one
            # in play has not ended, whatever its file says.
            said = columns.pop("finished_at", None)
            ended = (said or utc_now()) if finished else None
            # How a finished one ended, as lists and statistics read it; one in play leaves
            # those columns to their default (NULL).
            outcome = read_model.outcome_of(game, replayed.state) if finished else None
            session = GameSession.create(
                id=session_id,
                game=game.slug,
                options=dict(options),
                edit_key=key,
                finished=finished,
                finished_at=ended,
                **({} if outcome is None else read_model.session_columns(outcome)),
                **columns,
            )
            Seat.insert_many(
                [
                    {"session": session, "position": i, "name": n}
                    | ({} if outcome is None else read_model.seat_columns(outcome, i))
                    for i, n in enumerate(seats)
                ]
            ).execute()
            _insert_in_batches(
                Event,
                (
                    {"session": session, "seq": s, "action": a, "undone": u, "redoable": r}
                    for s, a, u, r in logged
                ),
            )
            snapshots.save(session_id, game, replayed.passed)
            also(session)
            if once is not None:
                RequestKey.update(session=session).where(
                    (RequestKey.scope == NEW_SESSION_SCOPE) & (RequestKey.key == once.key)
                ).execute()
    except IntegrityError:
        used = _used_key(once, NEW_SESSION_SCOPE)
        if once is None or used is None:
            raise  # not the key's: the caller knows what its columns may clash with
        raise _repeat(once, used) from None
    return session_id, key


def _insert_in_batches(model: type[BaseModel], rows: Iterable[dict[str, Any]]) -> None:
    """Many rows a statement: an imported log of 20,000 events is 20 writes, not 20,000."""
    for batch in chunked(rows, ROWS_PER_INSERT):
        model.insert_many(batch).execute()


# The scope of the keys of writes that create a session (a new session, an import).
NEW_SESSION_SCOPE = ""


def claim_key(once: OneTimeKey | None, scope: str) -> None:
    """Take ``once`` for this write, or raise what a repeat of it means; the key names
    the session when its scope is one (a new session names it once made)."""
    if once is None:
        return
    if len(once.key) > 64:
        what = "form key" if once.field == "form_key" else f"“{once.field}”"
        raise IllegalAction(f"The {what} is longer than 64 characters.", once.field)
    used = _used_key(once, scope)
    if used is not None:
        raise _repeat(once, used)
    RequestKey.create(
        scope=scope,
        key=once.key,
        fingerprint=once.fingerprint,
        session=scope if keys.is_id(scope) else None,
    )


def _used_key(once: OneTimeKey | None, scope: str) -> RequestKey | None:
    """The record of the write that took ``once`` in ``scope`` first, if one did."""
    return None if once is None else RequestKey.get_or_none(scope=scope, key=once.key)


def _repeat(once: OneTimeKey, used: RequestKey) -> Exception:
    """AlreadyRecorded for a repeat of the request the key was first used for;
    IllegalAction for another request under a used key."""
    if used.fingerprint != once.fingerprint:
        return IllegalAction(
            f"The {once.field} {once.key[:64]!r} was already used {_first_use(used.scope)}; "
            "send a new key with each new write.",
            once.field,
        )
    return AlreadyRecorded(used.session_id, used.answer)


def _first_use(scope: str) -> str:
    """What the first write under a key of ``scope`` did, as a refusal of its reuse says."""
    if keys.is_id(scope):
        return "in this session for another request, which was recorded"
    if scope == NEW_SESSION_SCOPE:
        return "by another request, which started another session"
    return "by another request, which was recorded"


def _locked_session(session_id: str) -> GameSession:
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
_EVENT_ADDED = Statement(
    lambda: Event.insert(
        {field: None for field in Event._meta.sorted_fields if field is not Event.id}
    )
)
_SESSION_WRITTEN = Statement(
    lambda: GameSession.update({field: None for field in CHANGED_BY_WRITES}).where(
        GameSession.id == ""
    )
)
# A write that ends the game, reopens it or changes it once ended changes its end too:
# when it ended, and the read model's columns of the session row.
ENDING: tuple[Field[Any], ...] = (GameSession.finished_at, *read_model.SESSION_FIELDS)
_SESSION_ENDED_OR_REOPENED = Statement(
    lambda: GameSession.update({field: None for field in (*CHANGED_BY_WRITES, *ENDING)}).where(
        GameSession.id == ""
    )
)


def _add_event(session: GameSession, seq: int, action: Mapping[str, Any]) -> None:
    values: dict[Field[Any], object] = {
        Event.session: session.id,
        Event.seq: seq,
        Event.action: action,
        Event.undone: False,
        Event.redoable: False,
        Event.created_at: utc_now(),
    }
    _EVENT_ADDED.execute(*in_model_order(values))


CHANGED_BY_WRITES: tuple[Field[Any], ...] = (
    GameSession.version,
    GameSession.updated_at,
    GameSession.finished,
    GameSession.rewritten_at,
)


# A write: checks and records one change of the session, and returns the session's view
# after it (at the version before the write, without its deck).
Write = Callable[[GameSession], SessionView]


def _change(
    session_id: str, version: int, form_key: str | OneTimeKey | None, write: Write
) -> SessionView:
    """Run ``write(session)`` as one checked transaction; returns the new view."""
    once = one_time_key(form_key)
    generation = _listeners_generation()
    try:
        with write_transaction():
            session = _locked_session(session_id)
            claim_key(once, session_id)
            if version != session.version:
                raise StaleVersion(session.version)
            written = write(session)
            session.version += 1
            session.updated_at = utc_now()
            ends_or_reopens = written.finished != session.finished
            if ends_or_reopens:
                # The game ends with this write, or an undo or a correction reopens it.
                session.finished_at = session.updated_at if written.finished else None
            session.finished = written.finished
            # How the game ended, as lists and statistics read it: written by a write that
            # ends it or changes it once ended, cleared by one that reopens it.
            writes_end = written.finished or ends_or_reopens
            ended = read_model.outcome_of(written.game, written.state) if written.finished else None
            if writes_end:
                for name, value in read_model.session_columns(ended).items():
                    setattr(session, name, value)
            # Only what a write changes: the row's other columns are never rewritten.
            statement, columns = (
                (_SESSION_ENDED_OR_REOPENED, (*CHANGED_BY_WRITES, *ENDING))
                if writes_end
                else (_SESSION_WRITTEN, CHANGED_BY_WRITES)
            )
            changed = {field: getattr(session, field.name) for field in columns}
            statement.execute(*in_model_order(changed), session.id)
            if writes_end:
                read_model.record_seats(session.id, ended)
            written = _same_log(written, version=session.version, finished_at=session.finished_at)
            view = _with_deck(written)
            if once is not None and once.answer is not None:
                RequestKey.update(answer=once.answer(view)).where(
                    (RequestKey.scope == session_id) & (RequestKey.key == once.key)
                ).execute()
    except IntegrityError:
        used = _used_key(once, session_id)
        if once is None or used is None:
            raise  # a genuine conflict, no repeat a player could be told of
        raise _repeat(once, used) from None
    # Kept only once committed: a write refused or rolled back leaves the kept view as it was.
    _committed(written, generation)
    return view


def _listeners_generation() -> int | None:
    """Taken before a write, to give ``_committed``: ``announced.AnnouncedVersions.generation``."""
    return None if announced.current is None else announced.current.generation()


def _committed(view: SessionView, generation: int | None) -> None:
    """A write's view once committed: kept for the next request, and its version known to
    the refresh check of this process at once (PostgreSQL announces it to the others),
    unless the listener reconnected since ``generation`` was taken: another server's write
    announced while it was away may be newer."""
    _views.put(view.id, view)
    # A write inside another one is not committed yet: its version may never be.
    if announced.current is not None and not database.obj.in_transaction():
        announced.current.learn(view.id, view.version, generation)


def _current(session: GameSession) -> SessionView:
    """The session's view before a write (its row is locked), with its deck."""
    return _with_deck(_brought_up_to_date(session, _views.get(session.id)))


def _rewrites_history(session: GameSession) -> None:
    """Record that the write under way changes events already logged: a view kept from
    before it cannot catch up by applying the newer events only."""
    session.rewritten_at = session.version + 1


Sent = Mapping[str, object] | Callable[[SessionView], Mapping[str, object]]


def append(
    session_id: str,
    data: Sent,
    version: int,
    form_key: str | OneTimeKey | None = None,
) -> SessionView:
    """Record one action, if the rules allow it at this point of the game.

    ``data`` may be a function of the current state, read once the page is known
    to be fresh and not a double tap (a form whose reading depends on the game).
    """
    at_once = _appended_at_once(session_id, data, version, one_time_key(form_key))
    if at_once is not None:
        return at_once

    def write(session: GameSession) -> SessionView:
        view = _current(session)
        state, recorded, action = _checked_action(view, data)
        events = view.events
        if view.can_redo:
            # A new action ends the redo trail: what was undone stays undone.
            Event.update(redoable=False).where(
                (Event.session == session) & (Event.redoable == True)  # noqa: E712 (peewee)
            ).execute()
            _rewrites_history(session)
            events = events.without_redo_trail()
        appended = _with_event(view, events, state, recorded, action)
        seq = appended.events.newest_seq
        _add_event(session, seq, recorded)
        if snapshots.is_boundary(len(appended.events)):
            passed = snapshots.Passed(seq, len(appended.events), True, state)
            snapshots.save(session_id, view.game, [passed])
        _learn_size(view, recorded)
        return appended

    return _change(session_id, version, form_key, write)


def _checked_action(view: SessionView, data: Sent) -> tuple[Any, Mapping[str, Any], Any]:
    """The state after the action, the action as recorded, and the engine's action: what
    the rules make of ``data`` at ``view`` (IllegalAction if they refuse it)."""
    if len(view.events) >= MAX_EVENTS:
        raise IllegalAction(
            f"This session has logged {MAX_EVENTS:,} events, the most a session keeps (its "
            "exported file must fit an import): play on in a new session.",
            "action",
        )
    game = view.game
    sent = data(view) if callable(data) else data
    if view.deck is not None:
        sent = decks.with_known_size(view.deck, view.deck.sized_cards.known(view.state), sent)
    action = game.parse_action(sent)
    state = game.apply(view.state, action)
    recorded = game.action_to_json(action)
    _check_expected(view, recorded)
    return state, recorded, action


def _with_event(
    view: SessionView,
    events: SessionLog,
    state: Any,
    recorded: Mapping[str, Any],
    action: Any,
    **changes: Any,
) -> SessionView:
    """The view after logging ``recorded`` next after ``events``, with ``changes`` (its
    version and its end time, where the write knows them already)."""
    game = view.game
    seq = events.newest_seq + 1
    ruled = game.ruling(state)
    added = LoggedEvent(seq, dict(recorded), False, False, game.describe(action), ruled)
    appended = evolve(view, state=state, events=events.plus(added), deck=None, **changes)
    # Known without a look at the log (which the next append would make, at 5,000
    # events a third of its time): the new event can be undone; no trail is left.
    return _known(appended, can_undo=True, can_redo=False)


def _appended_at_once(
    session_id: str, data: Sent, version: int, once: OneTimeKey | None
) -> SessionView | None:
    """PostgreSQL: the append as one statement, checked against the view this worker keeps
    at the version the client saw; None when the locked write must do it.

    The statement writes only if the session is still at that version, so it needs no
    lock, and costs one round trip to the server instead of five (begin, lock, insert,
    update, commit). Anything out of the plain case (a request key to claim, a redo
    trail to end, a deck profile to teach, a refusal, another write first, an action
    that leaves the game finished, whose end the read model records) is left to the
    locked write, which answers it as always: once a game at most.
    """
    if is_sqlite() or once is not None:
        return None
    kept = _kept_at(session_id, version)
    if (
        kept is None
        or kept.game.sized_cards is not None
        or kept.can_redo
        or snapshots.is_boundary(len(kept.events) + 1)
    ):
        return None
    try:
        state, recorded, action = _checked_action(kept, data)
    except IllegalAction:
        return None  # refused by a view another write may have made old: asked again
    if kept.game.is_finished(state):
        return None  # the locked write records how the game ended
    now = utc_now()
    # The view as the statement makes it, kept only if it writes.
    appended = _with_event(kept, kept.events, state, recorded, action, version=version + 1)
    changed: dict[Field, object] = {
        GameSession.version: version + 1,
        GameSession.updated_at: now,
        GameSession.finished: appended.finished,
    }
    seq, action_text = appended.events.newest_seq, json_text(recorded)
    values = [*in_model_order(changed), session_id, version, seq, action_text, now]
    if payload := announced.appended_payload(session_id, version + 1, seq, action_text):
        statement, values = _APPENDED_ANNOUNCED, [*values, payload]
    else:
        statement = _APPENDED  # too long to announce: announced by its version alone
    generation = _listeners_generation()
    written = statement.execute(*values)
    if written.rowcount != 1:
        return None  # another write came first, or no such session
    _committed(appended, generation)
    return appended


def _kept_at(session_id: str, version: int) -> SessionView | None:
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


def _appended_at_once_sql(*columns: Field, announcing: bool = False) -> str:
    """PostgreSQL's statement for ``_appended_at_once``: the session's new ``columns``, if it
    is still at the version given, and its new event (a data-modifying WITH: one statement,
    so all or nothing); ``announcing``: and the announcement of that event, sent on commit
    (``announced.appended_payload``, the last value)."""
    ordered = sorted(columns, key=model_order)  # as in_model_order
    changes = ", ".join(f'"{column.column_name}" = %s' for column in ordered)
    written = (
        f'WITH written AS (UPDATE "game_session" SET {changes} '
        'WHERE "id" = %s AND "version" = %s RETURNING "id") '
    )
    logged = (
        'INSERT INTO "event" ("session_id", "seq", "action", "undone", "redoable", '
        '"created_at") SELECT "id", %s, %s, false, false, %s FROM written'
    )
    if not announcing:
        return written + logged
    return (
        f'{written}, logged AS ({logged} RETURNING "session_id") '
        f"SELECT pg_notify('{announced.CHANNEL}', %s) FROM logged"
    )


_APPENDED = Statement(
    lambda: _appended_at_once_sql(GameSession.version, GameSession.updated_at, GameSession.finished)
)
_APPENDED_ANNOUNCED = Statement(
    lambda: _appended_at_once_sql(
        GameSession.version, GameSession.updated_at, GameSession.finished, announcing=True
    )
)


def _update_event(session: GameSession, seq: int, **changes: Any) -> None:
    """Change one logged event (an undo, a redo, a correction): history is rewritten, and
    the snapshots from it on are wrong."""
    Event.update(**changes).where((Event.session == session) & (Event.seq == seq)).execute()
    snapshots.forget_from(session.id, seq)
    _rewrites_history(session)


def _check_expected(view: SessionView, action: Mapping[str, Any]) -> None:
    """Refuse an action whose type the engine does not list as expected now.

    The engine has accepted it already, with its own reasons for a refusal; this
    holds every engine to what it tells the pages and the API it expects.
    """
    expected = view.expected
    if action["type"] not in expected.types:
        listed = or_list(sorted(expected.types)) or "nothing: the game is over"
        raise IllegalAction(
            f"A {action['type']} is not expected now; the game expects {listed}.", "type"
        )


def _learn_size(view: SessionView, action: Mapping[str, Any]) -> None:
    """A card's size the table just entered goes into the session's deck profile."""
    if view.deck is not None and "card" in action and action.get("size") is not None:
        decks.learn(view.deck.id, {str(action["card"]): int(action["size"])})


def undo(session_id: str, version: int, form_key: str | OneTimeKey | None = None) -> SessionView:
    """Mark the newest live event undone; it stays in the history, struck through."""

    def write(session: GameSession) -> SessionView:
        newest = _NEWEST_LIVE.execute(session.id, 1).fetchone()
        if newest is None:
            raise IllegalAction("Nothing to undo: no event is recorded yet.")
        _update_event(session, newest[0], undone=True, redoable=True)
        # Every event after the undone one is undone already: the state is the one before
        # it, which the newest snapshot before it gives with the events since replayed.
        return _restored(session)

    return _change(session_id, version, form_key, write)


# The newest live event, an undo's: read back from the newest (an index's order).
_NEWEST_LIVE = Statement(
    lambda: (
        Event.select(Event.seq)
        .where((Event.session == "") & ~Event.undone)
        .order_by(Event.seq.desc())
        .limit(1)
    )
)


def redo(session_id: str, version: int, form_key: str | OneTimeKey | None = None) -> SessionView:
    """Restore the most recently undone event, checked by the rules again."""

    def write(session: GameSession) -> SessionView:
        view = _current(session)
        target = view.events.first_redoable()
        if target is None:
            raise IllegalAction("Nothing to redo.")
        state = view.game.apply(view.state, view.game.parse_action(target.action))
        _update_event(session, target.seq, undone=False, redoable=False)
        # Every event after the restored one is undone (undo takes the newest live event, an
        # append ends the redo trail, an import refuses a live event after a redoable one):
        # the current state is the one it applies to in a replay.
        restored = evolve(target, undone=False, redoable=False, ruling=view.game.ruling(state))
        events = view.events.replacing({target.seq: restored})
        return evolve(view, state=state, events=events, deck=None)

    return _change(session_id, version, form_key, write)


@dataclass(frozen=True)
class SessionSummary:
    id: str
    game_title: str
    seats: tuple[str, ...]
    finished: bool
    updated_at: Any
    imported: bool
    # The engine's winners of a finished session, by name; empty while in play.
    winners: tuple[str, ...]
    # The game's slug.
    game: str


def summaries(session_ids: Sequence[str]) -> list[SessionSummary]:
    """The sessions with these ids that still exist, the latest changed first."""
    if not session_ids:
        return []
    return _summaries(
        GameSession.id.in_(session_ids), GameSession.updated_at.desc(), GameSession.id
    )


def group_summaries(group_id: str) -> list[SessionSummary]:
    """The sessions a group played, the newest first: whoever sees the group sees them."""
    return _summaries(GameSession.group == group_id, GameSession.created_at.desc(), GameSession.id)


def _summaries(where: Any, *order: Any) -> list[SessionSummary]:
    """The sessions ``where`` finds in ``order``, read with their seats and winners in one
    query (the winners as the write that ended each session recorded them: no replay)."""
    listed = (
        Seat.select(
            GameSession.id,
            GameSession.game,
            GameSession.finished,
            GameSession.updated_at,
            GameSession.imported,
            Seat.name,
            Seat.won,
        )
        .join(GameSession)
        .where(where)
        .order_by(*order, Seat.position)
    )
    found = []
    # The raw rows, a few per session: model instances would cost more than the query.
    for (session_id, slug, finished, updated_at, imported), seats in itertools.groupby(
        database.execute(listed), lambda row: row[:5]
    ):
        names = [(name, won) for *_, name, won in seats]
        found.append(
            SessionSummary(
                session_id,
                get_game(slug).title,
                tuple(name for name, _ in names),
                bool(finished),
                from_column(GameSession.updated_at, updated_at),
                bool(imported),
                tuple(name for name, won in names if won),
                slug,
            )
        )
    return found


@dataclass(frozen=True)
class Replaced:
    """What an event said before one correction, and when the correction was made."""

    action: dict[str, Any]
    text: str
    corrected_at: datetime


def corrections(
    view: SessionView, numbered: tuple[int, int] | None = None
) -> dict[int, tuple[Replaced, ...]]:
    """The corrected events (those numbered from ``numbered[0]`` to ``numbered[1]``): what
    each said before each of its corrections, oldest first (its action after the last one
    is the event's own)."""
    where = Correction.session == view.id
    if numbered is not None:
        where &= Correction.seq.between(*numbered)
    rows = Correction.select().where(where).order_by(Correction.id)
    replaced: dict[int, list[Replaced]] = {}
    for row in rows:
        text = view.game.describe(view.game.parse_action(row.action))
        replaced.setdefault(row.seq, []).append(Replaced(row.action, text, row.corrected_at))
    return {seq: tuple(earlier) for seq, earlier in replaced.items()}


def correct(
    session_id: str,
    seq: int,
    data: Mapping[str, object],
    version: int,
    form_key: str | OneTimeKey | None = None,
) -> SessionView:
    """Replace live event ``seq`` (a mistyped card) and replay everything after it.

    If the replacement, or any later event, no longer applies, nothing is
    written and the refusal names the event that would break.
    """

    def write(session: GameSession) -> SessionView:
        game = get_game(session.game)
        was = (
            Event.select(Event.action)
            .where((Event.session == session) & (Event.seq == seq) & (Event.undone == False))  # noqa: E712
            .scalar()
        )
        if was is None:
            raise IllegalAction(f"There is no recorded event {seq} to correct.", "seq")
        action = game.action_to_json(game.parse_action(data))
        _update_event(session, seq, action=action)
        # Replayed from the newest snapshot before the event: a refusal rolls it all back.
        try:
            corrected = _restored(session)
        except IllegalAction as refused:
            raise IllegalAction(
                f"This correction cannot be made: {refused.message}", refused.field
            ) from None
        if action != was:
            if Correction.select().where(Correction.session == session).count() >= MAX_CORRECTIONS:
                raise IllegalAction(
                    f"This session has kept {MAX_CORRECTIONS:,} corrections, the most a "
                    "session keeps (its exported file must fit an import).",
                    "seq",
                )
            # The event now holds the replacement; the history keeps what it replaced.
            Correction.create(session=session, seq=seq, action=was)
        _learn_size(_with_deck(corrected), action)
        return corrected

    return _change(session_id, version, form_key, write)


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
