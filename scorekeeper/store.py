"""The write path: the only code that changes a session once it exists.

Every write is one transaction that first checks the one-time form key and the version
the client saw, then validates by applying the action, and only then writes: an illegal
action leaves nothing behind. A session is made by ``lifecycle`` (new, imported, played
again); what is kept of it between requests lives in ``session_views``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from peewee import Field, IntegrityError

from scorekeeper import announced, decks, group_totals, keys, ratings, read_model, snapshots
from scorekeeper.db import (
    Statement,
    in_model_order,
    is_sqlite,
    model_order,
    write_transaction,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    IllegalAction,
)
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Grouped, Text, one_of, phrase
from scorekeeper.models import (
    Correction,
    Event,
    GameSession,
    RequestKey,
    json_text,
    utc_now,
)
from scorekeeper.session_log import LoggedEvent, SessionLog
from scorekeeper.session_views import (
    SessionView,
    committed,
    kept_at,
    known,
    listeners_generation,
    locked_session,
    locked_view,
    restored,
    same_log,
    with_deck,
)

# The events a session logs at most (undone ones too), and the corrections it keeps at
# most, so that its export fits the file an import takes (export.FILE_MAX_BYTES, README:
# Limits): a score sheet of twelve seats named in 40 letters, 20,000 rounds each
# corrected once, exports 61.9 MB. Twice the 10,000 events of the longest benchmark.
MAX_EVENTS = MAX_CORRECTIONS = 20_000


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


# What a write's refusals say.
MOST_EVENTS = phrase(
    "session.most-events",
    "This session has logged {most} events, the most a session keeps (its "
    "exported file must fit an import): play on in a new session.",
)
NOT_EXPECTED = phrase(
    "session.not-expected", "A {type} is not expected now; the game expects {expected}."
)
NOT_EXPECTED_OVER = phrase(
    "session.not-expected-game-over",
    "A {type} is not expected now; the game expects nothing: the game is over.",
)
NOTHING_TO_UNDO = phrase("session.nothing-to-undo", "Nothing to undo: no event is recorded yet.")
NOTHING_TO_REDO = phrase("session.nothing-to-redo", "Nothing to redo.")
NO_SUCH_EVENT = phrase(
    "session.no-event-to-correct", "There is no recorded event {seq} to correct."
)
MOST_CORRECTIONS = phrase(
    "session.most-corrections",
    "This session has kept {most} corrections, the most a "
    "session keeps (its exported file must fit an import).",
)
FORM_KEY_TOO_LONG = phrase(
    "session.form-key-too-long", "The form key is longer than 64 characters."
)
KEY_TOO_LONG = phrase("session.key-too-long", "The “{field}” is longer than 64 characters.")
KEY_USED = phrase(
    "session.key-used",
    "The {field} {key} was already used {first_use}; send a new key with each new write.",
)
USED_IN_SESSION = phrase(
    "session.key-used-in-session", "in this session for another request, which was recorded"
)
USED_TO_START = phrase(
    "session.key-used-to-start", "by another request, which started another session"
)
USED_ELSEWHERE = phrase("session.key-used-elsewhere", "by another request, which was recorded")
CORRECTION_REFUSED = phrase(
    "session.correction-refused", "This correction cannot be made: {refusal}"
)


def one_time_key(key: str | OneTimeKey | None) -> OneTimeKey | None:
    return OneTimeKey(key) if isinstance(key, str) and key else key or None


# The scope of the keys of writes that create a session (a new session, an import).
NEW_SESSION_SCOPE = ""


def claim_key(once: OneTimeKey | None, scope: str) -> None:
    """Take ``once`` for this write, or raise what a repeat of it means; the key names
    the session when its scope is one (a new session names it once made)."""
    if once is None:
        return
    if len(once.key) > 64:
        raise IllegalAction(
            FORM_KEY_TOO_LONG() if once.field == "form_key" else KEY_TOO_LONG(field=once.field),
            once.field,
        )
    used = used_key(once, scope)
    if used is not None:
        raise repeat(once, used)
    RequestKey.create(
        scope=scope,
        key=once.key,
        fingerprint=once.fingerprint,
        session=scope if keys.is_id(scope) else None,
    )


def used_key(once: OneTimeKey | None, scope: str) -> RequestKey | None:
    """The record of the write that took ``once`` in ``scope`` first, if one did."""
    return None if once is None else RequestKey.get_or_none(scope=scope, key=once.key)


def repeat(once: OneTimeKey, used: RequestKey) -> Exception:
    """AlreadyRecorded for a repeat of the request the key was first used for;
    IllegalAction for another request under a used key."""
    if used.fingerprint != once.fingerprint:
        return IllegalAction(
            KEY_USED(field=once.field, key=repr(once.key[:64]), first_use=_first_use(used.scope)),
            once.field,
        )
    return AlreadyRecorded(used.session_id, used.answer)


def _first_use(scope: str) -> Text:
    """What the first write under a key of ``scope`` did, as a refusal of its reuse says."""
    if keys.is_id(scope):
        return USED_IN_SESSION()
    if scope == NEW_SESSION_SCOPE:
        return USED_TO_START()
    return USED_ELSEWHERE()


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
    generation = listeners_generation()
    try:
        with write_transaction():
            session = locked_session(session_id)
            claim_key(once, session_id)
            if version != session.version:
                raise StaleVersion(session.version)
            written = write(session)
            session.version += 1
            session.updated_at = utc_now()
            ends_or_reopens = written.finished != session.finished
            # How the game ended, as lists and statistics read it: written by a write that
            # ends it or changes it once ended, cleared by one that reopens it.
            writes_end = written.finished or ends_or_reopens
            # A group's session: its totals count its end. Locked before the seats change,
            # its old end read while its rows still say it.
            in_group = writes_end and session.group_id is not None
            was = None
            if in_group:
                group_totals.lock(str(session.group_id))
                if session.finished:
                    was = group_totals.counted(session.id)
            if ends_or_reopens:
                # The game ends with this write, or an undo or a correction reopens it.
                session.finished_at = session.updated_at if written.finished else None
            session.finished = written.finished
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
                ratings.session_changed(session.id, session.group_id, session.finished_at)
            if in_group:
                group_totals.rewrite(session.id, was)
            written = same_log(written, version=session.version, finished_at=session.finished_at)
            view = with_deck(written)
            if once is not None and once.answer is not None:
                RequestKey.update(answer=once.answer(view)).where(
                    (RequestKey.scope == session_id) & (RequestKey.key == once.key)
                ).execute()
    except IntegrityError:
        used = used_key(once, session_id)
        if once is None or used is None:
            raise  # a genuine conflict, no repeat a player could be told of
        raise repeat(once, used) from None
    # Kept only once committed: a write refused or rolled back leaves the kept view as it was.
    committed(written, generation)
    return view


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
        view = locked_view(session)
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
        raise IllegalAction(MOST_EVENTS(most=Grouped(MAX_EVENTS, 0)), "action")
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
    # Known without a look at the log (which the next append would make, a scan that
    # grows with the log): the new event can be undone; no trail is left.
    return known(appended, can_undo=True, can_redo=False)


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
    kept = kept_at(session_id, version)
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
    generation = listeners_generation()
    written = statement.execute(*values)
    if written.rowcount != 1:
        return None  # another write came first, or no such session
    committed(appended, generation)
    return appended


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
        # The types as the API names them (not words to translate).
        raise IllegalAction(
            NOT_EXPECTED(type=action["type"], expected=one_of(sorted(expected.types)))
            if expected.types
            else NOT_EXPECTED_OVER(type=action["type"]),
            "type",
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
            raise IllegalAction(NOTHING_TO_UNDO())
        _update_event(session, newest[0], undone=True, redoable=True)
        # Every event after the undone one is undone already: the state is the one before
        # it, which the newest snapshot before it gives with the events since replayed.
        return restored(session)

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
        view = locked_view(session)
        target = view.events.first_redoable()
        if target is None:
            raise IllegalAction(NOTHING_TO_REDO())
        state = view.game.apply(view.state, view.game.parse_action(target.action))
        _update_event(session, target.seq, undone=False, redoable=False)
        # Every event after the restored one is undone (undo takes the newest live event, an
        # append ends the redo trail, an import refuses a live event after a redoable one):
        # the current state is the one it applies to in a replay.
        restored = evolve(target, undone=False, redoable=False, ruling=view.game.ruling(state))
        events = view.events.replacing({target.seq: restored})
        return evolve(view, state=state, events=events, deck=None)

    return _change(session_id, version, form_key, write)


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
            raise IllegalAction(NO_SUCH_EVENT(seq=seq), "seq")
        action = game.action_to_json(game.parse_action(data))
        # Counted before the replay: a session at the most refuses any new correction, and
        # replaying its log (up to MAX_EVENTS events) would only be thrown away.
        if (
            action != was
            and Correction.select().where(Correction.session == session).count() >= MAX_CORRECTIONS
        ):
            raise IllegalAction(MOST_CORRECTIONS(most=Grouped(MAX_CORRECTIONS, 0)), "seq")
        _update_event(session, seq, action=action)
        # Replayed from the newest snapshot before the event: a refusal rolls it all back.
        try:
            corrected = restored(session)
        except IllegalAction as refused:
            raise IllegalAction(CORRECTION_REFUSED(refusal=refused.said), refused.field) from None
        if action != was:
            # The event now holds the replacement; the history keeps what it replaced.
            Correction.create(session=session, seq=seq, action=was)
        _learn_size(with_deck(corrected), action)
        return corrected

    return _change(session_id, version, form_key, write)
