"""The session store: the only code that writes sessions and events.

A session's state is the replay of its live events through its game's engine.
Every write is one transaction that first checks the one-time form key and
the version the client saw, then validates by applying the action, and only
then writes: an illegal action leaves nothing behind.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from peewee import IntegrityError

from scorekeeper import decks, keys
from scorekeeper.db import is_sqlite, write_transaction
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    Expected,
    Game,
    IllegalAction,
    OptionValue,
    or_list,
    parse_name,
    resolve_options,
)
from scorekeeper.models import NAME_MAX_LENGTH, Event, GameSession, RequestKey, Seat, utc_now


@dataclass(frozen=True)
class ImportedSession:
    """An exported session as an import needs it, its shape checked (``export.read_export``)."""

    game: str
    options: dict[str, object]
    seats: list[object]
    events: list[tuple[int, dict[str, object], bool, bool]]
    # (name, sizes) of the deck profile the session played with, unchecked.
    deck_profile: tuple[object, object] | None = None


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
class LoggedEvent:
    seq: int
    action: dict[str, Any]
    undone: bool
    redoable: bool
    text: str
    # The sentence the engine ruled when this event was applied (live events only).
    ruling: str | None


@dataclass(frozen=True)
class SessionView:
    """Everything a page or the API reads about one session."""

    id: str
    game: Game
    options: dict[str, OptionValue]
    seats: tuple[str, ...]
    version: int
    state: Any
    events: tuple[LoggedEvent, ...]
    # The deck profile the session plays with (a game with sized cards), if any.
    deck: decks.Profile | None = None

    @property
    def can_undo(self) -> bool:
        return any(not event.undone for event in self.events)

    @property
    def can_redo(self) -> bool:
        return any(event.redoable for event in self.events)

    @property
    def finished(self) -> bool:
        return self.game.is_finished(self.state)

    @property
    def expected(self) -> Expected:
        """What the engine accepts next, from this state."""
        return self.game.expected(self.state)


def edit_key_matches(session_id: str, key: object) -> bool:
    session = (
        GameSession.get_or_none(GameSession.id == session_id) if keys.is_id(session_id) else None
    )
    return session is not None and keys.same_key(str(session.edit_key), key)


def edit_key(session_id: str) -> str:
    session = GameSession.get_or_none(GameSession.id == session_id)
    if session is None:
        raise SessionNotFound(session_id)
    return str(session.edit_key)


def check_seat_names(game: Game, names: Sequence[object]) -> tuple[str, ...]:
    if not game.min_players <= len(names) <= game.max_players:
        raise IllegalAction(
            f"{game.title} needs {game.min_players} to {game.max_players} seats; "
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
    logged: Sequence[tuple[int, Mapping[str, Any], bool, bool]],
) -> tuple[Any, tuple[LoggedEvent, ...]]:
    """The state after the live events, and each event with its ruling.

    ``logged`` holds (seq, action JSON, undone, redoable) in log order. An
    event that no longer applies raises IllegalAction naming its number.
    """
    state = game.start(seats, options)
    events: list[LoggedEvent] = []
    for seq, data, undone, redoable in logged:
        action = game.parse_action(data)
        ruling = None
        if not undone:
            try:
                state = game.apply(state, action)
            except IllegalAction as refused:
                raise IllegalAction(
                    f"Event {seq} ({game.describe(action)}): {refused.message}"
                ) from None
            ruling = game.ruling(state)
        events.append(LoggedEvent(seq, dict(data), undone, redoable, game.describe(action), ruling))
    return state, tuple(events)


def load(session_id: str) -> SessionView:
    session = GameSession.get_or_none(GameSession.id == session_id)
    if session is None:
        raise SessionNotFound(session_id)
    return _view(session)


def _view(session: GameSession) -> SessionView:
    game = get_game(session.game)
    seats = tuple(seat.name for seat in session.seats.order_by(Seat.position))
    rows = session.events.order_by(Event.seq)
    logged = [(row.seq, row.action, row.undone, row.redoable) for row in rows]
    state, events = replay(game, seats, session.options, logged)
    return SessionView(
        session.id,
        game,
        session.options,
        seats,
        session.version,
        state,
        events,
        decks.of_session(session.id) if game.sized_cards is not None else None,
    )


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
) -> tuple[str, str]:
    """A new session; returns its id (the view link) and its edit key.

    A game played with a deck profile links the profile ``deck_profile``
    (its id) or, when none is given, a new one named ``new_deck_name``.
    """
    game = get_game(game_slug)
    seats = check_seat_names(game, names)
    resolved = resolve_options(game.options, options)
    _check_deck_game(game, bool(deck_profile or new_deck_name))

    def link_deck(session: GameSession) -> None:
        if game.sized_cards is None:
            return
        name = new_deck_name or decks.default_name(game)
        profile_id = deck_profile or decks.insert(game, name, field="new_deck_name").id
        decks.link(session, profile_id)

    return _insert_session(game, seats, resolved, [], form_key, link_deck)


def import_session(
    imported: ImportedSession, form_key: str | OneTimeKey | None = None
) -> tuple[str, str]:
    """A new session identical to an exported one (read by ``export.read_export``)."""
    game = get_game(imported.game)
    _check_deck_game(game, imported.deck_profile is not None)
    seats = check_seat_names(game, imported.seats)
    options = resolve_options(game.options, imported.options)
    logged = [
        (seq, game.action_to_json(game.parse_action(action)), undone, redoable)
        for seq, action, undone, redoable in imported.events
    ]

    def copy_deck(session: GameSession) -> None:
        # The importer gets a profile of their own: the file's sizes under the file's name.
        if imported.deck_profile is not None:
            name, sizes = imported.deck_profile
            profile = decks.insert(game, name, sizes, "deck_profile.name", "deck_profile.sizes")
            decks.link(session, profile.id)
        elif game.sized_cards is not None:
            decks.link(session, decks.insert(game, decks.default_name(game)).id)

    return _insert_session(game, seats, options, logged, form_key, copy_deck)


def _insert_session(
    game: Game,
    seats: Sequence[str],
    options: Mapping[str, OptionValue],
    logged: Sequence[tuple[int, Mapping[str, Any], bool, bool]],
    form_key: str | OneTimeKey | None,
    also: Callable[[GameSession], None],
) -> tuple[str, str]:
    """Store a new session whose log replays without a refusal; else store nothing.

    ``also`` writes what else belongs to the session, in the same transaction.
    """
    session_id = keys.new_id()
    key = keys.new_key()
    once = one_time_key(form_key)
    try:
        with write_transaction():
            _claim(once, NEW_SESSION_SCOPE)
            state, _ = replay(game, seats, options, logged)
            session = GameSession.create(
                id=session_id,
                game=game.slug,
                options=dict(options),
                edit_key=key,
                finished=game.is_finished(state),
            )
            Seat.insert_many(
                [{"session": session, "position": i, "name": n} for i, n in enumerate(seats)]
            ).execute()
            for seq, action, undone, redoable in logged:
                Event.create(
                    session=session, seq=seq, action=action, undone=undone, redoable=redoable
                )
            also(session)
            if once is not None:
                RequestKey.update(session=session).where(
                    (RequestKey.scope == NEW_SESSION_SCOPE) & (RequestKey.key == once.key)
                ).execute()
    except IntegrityError:
        raise _repeated(once, NEW_SESSION_SCOPE) from None
    return session_id, key


# The scope of the keys of writes that create a session (a new session, an import).
NEW_SESSION_SCOPE = ""


def _claim(once: OneTimeKey | None, scope: str) -> None:
    """Take ``once`` for this write, or raise what a repeat of it means."""
    if once is None:
        return
    if len(once.key) > 64:
        what = "form key" if once.field == "form_key" else f"“{once.field}”"
        raise IllegalAction(f"The {what} is longer than 64 characters.", once.field)
    if RequestKey.get_or_none(scope=scope, key=once.key) is not None:
        raise _repeated(once, scope)
    RequestKey.create(
        scope=scope,
        key=once.key,
        fingerprint=once.fingerprint,
        session=scope or None,
    )


def _repeated(once: OneTimeKey | None, scope: str) -> Exception:
    """AlreadyRecorded for a repeat of the request the key was first used for;
    IllegalAction for another request under a used key."""
    row = RequestKey.get_or_none(scope=scope, key=once.key) if once is not None else None
    if once is None or row is None:
        # Not a repeat: a genuine conflict we cannot explain to a player.
        return RuntimeError("integrity error without a repeated one-time key")
    if row.fingerprint != once.fingerprint:
        return IllegalAction(
            f"The {once.field} {once.key[:64]!r} was already used in this session for "
            "another request, which was recorded; send a new key with each new write.",
            once.field,
        )
    return AlreadyRecorded(row.session_id, row.answer)


def _locked_session(session_id: str) -> GameSession:
    query = GameSession.select().where(GameSession.id == session_id)
    if not is_sqlite():
        query = query.for_update()
    session = query.first()
    if session is None:
        raise SessionNotFound(session_id)
    return session


Write = Callable[[GameSession, SessionView], None]


def _change(
    session_id: str, version: int, form_key: str | OneTimeKey | None, write: Write
) -> SessionView:
    """Run ``write(session, view)`` as one checked transaction; returns the new view."""
    once = one_time_key(form_key)
    try:
        with write_transaction():
            session = _locked_session(session_id)
            _claim(once, session_id)
            if version != session.version:
                raise StaleVersion(session.version)
            write(session, _view(session))
            session.version += 1
            session.updated_at = utc_now()
            view = _view(session)
            session.finished = view.finished
            session.save()
            if once is not None and once.answer is not None:
                RequestKey.update(answer=once.answer(view)).where(
                    (RequestKey.scope == session_id) & (RequestKey.key == once.key)
                ).execute()
    except IntegrityError:
        raise _repeated(once, session_id) from None
    return view


def append(
    session_id: str,
    data: Mapping[str, object] | Callable[[SessionView], Mapping[str, object]],
    version: int,
    form_key: str | OneTimeKey | None = None,
) -> SessionView:
    """Record one action, if the rules allow it at this point of the game.

    ``data`` may be a function of the current state, read once the page is known
    to be fresh and not a double tap (a form whose reading depends on the game).
    """

    def write(session: GameSession, view: SessionView) -> None:
        sent = data(view) if callable(data) else data
        if view.deck is not None:
            sent = decks.with_known_size(view.deck, view.deck.sized_cards.known(view.state), sent)
        action = view.game.parse_action(sent)
        view.game.apply(view.state, action)
        _check_expected(view, view.game.action_to_json(action))
        last = session.events.order_by(Event.seq.desc()).first()
        # A new action ends the redo trail: what was undone stays undone.
        Event.update(redoable=False).where(Event.session == session).execute()
        recorded = view.game.action_to_json(action)
        Event.create(session=session, seq=(last.seq if last else 0) + 1, action=recorded)
        _learn_size(view, recorded)

    return _change(session_id, version, form_key, write)


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

    def write(session: GameSession, _view: SessionView) -> None:
        newest = (
            session.events.where(Event.undone == False)  # noqa: E712 (peewee expression)
            .order_by(Event.seq.desc())
            .first()
        )
        if newest is None:
            raise IllegalAction("Nothing to undo: no event is recorded yet.")
        newest.undone = True
        newest.redoable = True
        newest.save()

    return _change(session_id, version, form_key, write)


def redo(session_id: str, version: int, form_key: str | OneTimeKey | None = None) -> SessionView:
    """Restore the most recently undone event, checked by the rules again."""

    def write(session: GameSession, view: SessionView) -> None:
        target = (
            session.events.where(Event.redoable == True)  # noqa: E712 (peewee expression)
            .order_by(Event.seq)
            .first()
        )
        if target is None:
            raise IllegalAction("Nothing to redo.")
        view.game.apply(view.state, view.game.parse_action(target.action))
        target.undone = False
        target.redoable = False
        target.save()

    return _change(session_id, version, form_key, write)


@dataclass(frozen=True)
class SessionSummary:
    id: str
    game_title: str
    seats: tuple[str, ...]
    finished: bool
    updated_at: Any


def summaries(session_ids: Sequence[str]) -> list[SessionSummary]:
    """The sessions with these ids that still exist, in the order given."""
    if not session_ids:
        return []
    rows = {row.id: row for row in GameSession.select().where(GameSession.id.in_(session_ids))}
    seats: dict[str, list[str]] = {}
    for seat in Seat.select().where(Seat.session.in_(list(rows))).order_by(Seat.position):
        seats.setdefault(seat.session_id, []).append(seat.name)
    return [
        SessionSummary(
            row.id,
            get_game(row.game).title,
            tuple(seats.get(row.id, ())),
            row.finished,
            row.updated_at,
        )
        for session_id in session_ids
        if (row := rows.get(session_id)) is not None
    ]


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

    def write(session: GameSession, view: SessionView) -> None:
        target = session.events.where(Event.seq == seq).first()
        if target is None or target.undone:
            raise IllegalAction(f"There is no recorded event {seq} to correct.", "seq")
        action = view.game.action_to_json(view.game.parse_action(data))
        logged = [
            (event.seq, action if event.seq == seq else event.action, event.undone, event.redoable)
            for event in view.events
        ]
        try:
            replay(view.game, view.seats, view.options, logged)
        except IllegalAction as refused:
            raise IllegalAction(
                f"This correction cannot be made: {refused.message}", refused.field
            ) from None
        target.action = action
        target.save()
        _learn_size(view, action)

    return _change(session_id, version, form_key, write)


def current_version(session_id: str) -> int:
    """The session's version alone, read by its primary key: no events, no replay."""
    version = GameSession.select(GameSession.version).where(GameSession.id == session_id).scalar()
    if version is None:
        raise SessionNotFound(session_id)
    return int(version)
