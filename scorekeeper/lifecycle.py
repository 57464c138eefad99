"""A session's life beside its writes: started new, imported from a file, played again.

Each makes the session in one transaction, from a log whose replay the rules accept
(an import's), with its seats, deck profile and group; nothing is stored if any of it is
refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from peewee import IntegrityError, chunked

from scorekeeper import announced, decks, groups, keys, read_model, session_log, snapshots
from scorekeeper.db import (
    write_transaction,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    IllegalAction,
    OptionValue,
    parse_name,
    resolve_options,
)
from scorekeeper.games.engine import Game
from scorekeeper.games.words import Grouped, phrase
from scorekeeper.models import (
    NAME_MAX_LENGTH,
    BaseModel,
    Correction,
    Event,
    GameSession,
    RequestKey,
    Seat,
    utc_now,
)
from scorekeeper.session_log import Logged
from scorekeeper.session_views import edit_key, load, locked_session
from scorekeeper.store import (
    MAX_CORRECTIONS,
    MAX_EVENTS,
    NEW_SESSION_SCOPE,
    AlreadyRecorded,
    OneTimeKey,
    claim_key,
    one_time_key,
    repeat,
    used_key,
)

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


# What a new, removed or imported session's refusals say.
NEEDS_SEATS = phrase("session.needs-seats", "{game} needs {count} seats; you named {named}.")
NEEDS_SEATS_RANGE = phrase(
    "session.needs-seats-range", "{game} needs {fewest} to {most} seats; you named {named}."
)
SEAT_NAME = phrase("session.seat-name-label", "Seat {position}'s name")
SEAT_NEEDS_NAME = phrase("session.seat-needs-name", "Seat {position} needs a name.")
SAME_SEAT_NAME = phrase(
    "session.same-seat-name", "Two seats are called {name}; give each seat its own name."
)
NO_DECK_PROFILE = phrase("session.no-deck-profile", "{game} is not played with a deck profile.")
STARTED = phrase(
    "session.started-not-removed",
    "This game has started: only a game with nothing recorded yet can be removed.",
)
STILL_IN_PLAY = phrase(
    "session.still-in-play",
    "This {game} session is still in play: play again once it is finished.",
)
TOO_MANY_EVENTS = phrase(
    "session.file-too-many-events",
    "The file holds {count} events; a session keeps at most {most}.",
)
TOO_MANY_CORRECTIONS = phrase(
    "session.file-too-many-corrections",
    "The file holds {count} corrections; a session keeps at most {most}.",
)
REPLACED_NOT_VALID = phrase(
    "session.replaced-action-not-valid",
    "Event {seq}: the action a correction replaced is not valid: {refusal}",
)


def check_seat_names(game: Game, names: Sequence[object]) -> tuple[str, ...]:
    if not game.min_players <= len(names) <= game.max_players:
        fewest, most = game.min_players, game.max_players
        raise IllegalAction(
            NEEDS_SEATS(game=game.title, count=fewest, named=len(names))
            if fewest == most
            else NEEDS_SEATS_RANGE(game=game.title, fewest=fewest, most=most, named=len(names)),
            "seats",
        )
    cleaned: list[str] = []
    for index, raw in enumerate(names):
        position, field = index + 1, f"seats.{index}"
        name = (
            parse_name(raw, SEAT_NAME(position=position), field, NAME_MAX_LENGTH)
            if isinstance(raw, str)
            else ""
        )
        if not name:
            raise IllegalAction(SEAT_NEEDS_NAME(position=position), field)
        if name.casefold() in (taken.casefold() for taken in cleaned):
            raise IllegalAction(SAME_SEAT_NAME(name=name), field)
        cleaned.append(name)
    return tuple(cleaned)


def _check_deck_game(game: Game, deck_given: bool) -> None:
    if deck_given and game.sized_cards is None:
        raise IllegalAction(NO_DECK_PROFILE(game=game.title), "deck_profile")


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
        # The deck first: seating a group's players makes the deck the group's.
        if game.sized_cards is not None:
            name = new_deck_name or str(decks.default_name(game))
            profile_id = deck_profile or decks.insert(game, name, field="new_deck_name").id
            decks.link(session, profile_id)
        if seating is not None:
            groups.seat(session, seating)

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
        played = locked_session(session_id)
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


def remove_unstarted(session_id: str) -> None:
    """Delete a session nobody has played yet (no event ever logged), such as a
    "Play again" the table did not take up. Its seats, device rights, one-time keys and
    deck link go with its row (each references it ON DELETE CASCADE), so no list or
    statistic reads a trace of it; the finished session it was the rematch of has no next
    game again, and its "Play again" starts a new one. A session with an event, even one
    undone since, is the table's record and is refused (422)."""
    with write_transaction():
        locked_session(session_id)
        # Undo and correction keep every event row: none means nothing was ever recorded
        # (an import's events have rows too, though it starts at version 0).
        if Event.select().where(Event.session == session_id).exists():
            raise IllegalAction(STARTED(), "session")
        GameSession.delete().where(GameSession.id == session_id).execute()
        announced.announce_removal(session_id)


def next_session(session_id: str) -> str | None:
    """The id of the rematch of a session ("next game →"), if any."""
    row = GameSession.select(GameSession.id).where(GameSession.rematch_of == session_id).first()
    return None if row is None else str(row.id)


def _refuse_unless_finished(game: Game, finished: bool) -> None:
    if not finished:
        raise IllegalAction(STILL_IN_PLAY(game=game.title), "session")


def import_session(
    imported: ImportedSession, form_key: str | OneTimeKey | None = None, deck: str | None = None
) -> tuple[str, str]:
    """A new session identical to an exported one (read by ``export.read_export``), played
    with the deck profile ``deck`` when given (a group's, imported with its group)."""
    game = get_game(imported.game)
    for listed, most, too_many in (
        (imported.events, MAX_EVENTS, TOO_MANY_EVENTS),
        (imported.corrections, MAX_CORRECTIONS, TOO_MANY_CORRECTIONS),
    ):
        if len(listed) > most:
            raise IllegalAction(
                too_many(count=Grouped(len(listed), 0), most=Grouped(most, 0)), "events"
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
        if deck is not None:
            decks.link(session, deck)
        # The importer gets a profile of their own: the file's sizes under the file's name.
        elif imported.deck_profile is not None:
            name, sizes = imported.deck_profile
            profile = decks.insert(game, name, sizes, "deck_profile.name", "deck_profile.sizes")
            decks.link(session, profile.id)
        elif game.sized_cards is not None:
            decks.link(session, decks.insert(game, str(decks.default_name(game))).id)
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
                REPLACED_NOT_VALID(seq=seq, refusal=refused.said), f"{where}.action"
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
        used = used_key(once, NEW_SESSION_SCOPE)
        if once is None or used is None:
            raise  # not the key's: the caller knows what its columns may clash with
        raise repeat(once, used) from None
    return session_id, key


def _insert_in_batches(model: type[BaseModel], rows: Iterable[dict[str, Any]]) -> None:
    """Many rows a statement: an imported log of 20,000 events is 20 writes, not 20,000."""
    for batch in chunked(rows, ROWS_PER_INSERT):
        model.insert_many(batch).execute()
