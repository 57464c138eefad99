"""JSON API v1: sessions, events, undo/redo, export/import, and the games' own endpoints.

Errors are ``{"error": "<sentence>", "field": "<where>" | null}``, a refusal's with its
``code`` and ``values`` beside them. Sentences are in the language the client asks for
(``Accept-Language``, or the language cookie), each with its code and values. Writes to a
session need its edit key as ``Authorization: Bearer <key>``.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any, NoReturn

from flask import Blueprint, Response, abort, current_app, jsonify, request
from werkzeug.routing import BaseConverter, Map

from scorekeeper import (
    decks,
    group_export,
    group_figures,
    groups,
    keys,
    lifecycle,
    ratings,
    read_model,
    session_log,
    session_views,
    stats,
    store,
)
from scorekeeper.export import (
    event_json,
    read_export,
    row_json,
    session_csv,
    session_grid_csv,
    session_json,
    utc_text,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    FIELD_LABEL,
    Expected,
    IllegalAction,
    is_digits,
    parse_whole_number,
)
from scorekeeper.games.history import history_of
from scorekeeper.games.web_interface import TrickJudge, json_body, only_fields
from scorekeeper.games.words import Phrase, Reader, Text, phrase
from scorekeeper.web import access, addresses, state_json
from scorekeeper.web.adapters import adapters
from scorekeeper.web.asked_language import (
    asked_language,
    asked_reader,
    code_and_values,
    language_headers,
    language_named,
    said_code,
    say_language_of,
    spoken,
)
from scorekeeper.web.errors import error_answer
from scorekeeper.web.group_schemas import (
    CreatedGroup,
    CreatedGroupLinks,
    GameFigures,
    GamePlayerFigures,
    GroupAnswer,
    GroupDeck,
    GroupLinks,
    GroupSession,
    GroupSessionLinks,
    HeadToHeadFigures,
    PlayerAnswer,
    PlayerFigures,
    RatingFigures,
    StatsAnswer,
    StatsLinks,
    WinsOnDay,
    WinsOverTime,
)
from scorekeeper.web.groups import read_group_file
from scorekeeper.web.language import DEFAULT_LANGUAGE
from scorekeeper.web.openapi import openapi_document
from scorekeeper.web.refresh import version_answer
from scorekeeper.web.sessions import (
    HISTORY_PAGE_SIZE,
    load_or_404,
    page_bounds,
    pages_of,
)

bp = Blueprint("api", __name__, url_prefix="/api/v1")

# What the API itself refuses, each said once (its code is what an error's ``code`` says).
PLAYERS_WITHOUT_GROUP = phrase(
    "api.players-without-group", "“players” seats a group's players: send its “group” too."
)
SEATS_WITH_GROUP = phrase(
    "api.seats-with-group",
    "A session of a group seats its “players”, named as in the group: send no “seats”.",
)
NOT_A_GROUP_ID = phrase("api.not-a-group-id", "“group” must be the id of a group.")
# The words of groups.NO_SUCH_GROUP and sessions.NOT_FOUND, which pages say.
NO_SUCH_GROUP = phrase(
    "api.no-such-group", "No group has this link. Check the address, or make a new group."
)
NO_SUCH_SESSION = phrase(
    "api.no-such-session", "No session has this link. Check the address, or start a new session."
)
# Said once: every write names it, in case its session is not found.
NO_SUCH_SESSION_SAID = NO_SUCH_SESSION()
SEATS_NOT_A_LIST = phrase("api.seats-not-a-list", "“seats” must be a list of names in table order.")
OPTIONS_NOT_AN_OBJECT = phrase("api.options-not-an-object", "“options” must be an object.")
NOT_A_STRING = phrase("api.not-a-string", "“{name}” must be a string.")
DECK_KEY_WITHOUT_PROFILE = phrase(
    "api.deck-key-without-profile",
    "“deck_key” is the key of the deck profile named in “deck_profile”: "
    "send “deck_profile” with it, or no “deck_key”.",
)
PROFILE_AND_NEW_NAME = phrase(
    "api.deck-profile-and-new-deck-name",
    "“new_deck_name” names the new deck profile made for a session without "
    "“deck_profile”: send one of the two.",
)
BAD_PAGE = phrase("api.not-a-page", "“page” must be a whole number from 1.")
HISTORY_PAGES = phrase("api.history-pages", "This history has pages 1 to {pages}.")
ROUNDS_PAGES = phrase("api.rounds-pages", "This list of rounds has pages 1 to {pages}.")
GROUP_SESSIONS_PAGES = phrase(
    "api.group-sessions-pages", "This group's list of sessions has pages 1 to {pages}."
)
BAD_REQUEST_KEY = phrase(
    "api.bad-request-key", "“request_key” must be a string of 1 to 64 characters."
)
ACTION_NOT_AN_OBJECT = phrase(
    "api.action-not-an-object", "“action” must be an object with a “type”."
)
PLAYS_NOT_A_LIST = phrase(
    "api.plays-not-a-list", "“plays” must be a list of the cards in playing order."
)
STALE_VERSION = phrase(
    "api.stale-version", "The session changed (now at version {version}): here is the new state."
)


class OtherThan(BaseConverter):
    """A path segment but the words given (``<other_than(import):session_id>``): where
    ``/sessions/import`` has a rule of its own, ``/sessions/<session_id>`` must not match
    it too, or its methods would answer there (and be listed in the Allow of OPTIONS and
    405) beside the import's."""

    def __init__(self, url_map: Map, *words: str) -> None:
        super().__init__(url_map)
        # Any segment, unless it is one of the words from its start to its end.
        self.regex = f"(?!(?:{'|'.join(map(re.escape, words))})(?![^/]))[^/]+"


# --- The asked language -------------------------------------------------------------
#
# Sentences in the language the client asks for, each with its code and values for a
# client naming one (scorekeeper.web.asked_language); errors too (scorekeeper.web.errors).


@bp.after_app_request
def say_the_language(response: Response) -> Response:
    """Every answer under /api/ says its language (those of no endpoint too)."""
    if not request.environ.get("PATH_INFO", "").startswith("/api/"):
        return response
    if "Content-Language" in response.headers:
        return response  # given up front (a write's answer, an error)
    return say_language_of(response)


def in_words(data: Any) -> Any:
    """JSON data whose sentences (an event's text and ruling, a score row's note) are read
    in the asked language; English data as it is. (No code beside them: their fields are
    the export file's, which is English.)"""
    reader = asked_reader()
    return data if reader is None else _read_all(data, reader)


def _read_all(data: Any, reader: Reader) -> Any:
    if isinstance(data, Text):
        return reader.read(data)
    if isinstance(data, dict):
        return {name: _read_all(value, reader) for name, value in data.items()}
    if isinstance(data, list | tuple):
        return [_read_all(item, reader) for item in data]
    return data


@bp.errorhandler(IllegalAction)
def illegal(refused: IllegalAction) -> Response:
    # A refusal no single input is to blame for is about the whole move.
    return error_answer(422, refused.said, refused.field or "action")


@bp.errorhandler(store.StaleVersion)
def stale(error: store.StaleVersion) -> Response:
    """The current state, where a 2xx carries it, with the error beside it."""
    minimal = minimal_wanted()
    body = write_answer(session_views.load(request.view_args["session_id"]), minimal)  # type: ignore[index]
    # The store's words (str(error)), which a test holds equal to the phrase's English.
    said = STALE_VERSION(version=error.current)
    refusal: dict[str, object] = {"error": spoken(said, asked_reader()), "field": "version"}
    if language_named():
        refusal |= code_and_values(said)
    return json_answer({**body, **refusal}, 409, minimal)


def session_fields(view: session_views.SessionView) -> dict[str, Any]:
    """A session's answer but its state: everything a client reads beside the state, its
    ruling in the asked language (with its code and values for a client naming one)."""
    ruling = view.game.ruling(view.state)
    said: dict[str, Any] = {"ruling": spoken(ruling, asked_reader())}
    if language_named():
        said["ruling_code"] = said_code(ruling)
    return {**_lasting_fields(view), **_version_fields(view), **said}


def _lasting_fields(view: session_views.SessionView) -> dict[str, Any]:
    """The fields no write changes, but the deck profile (which another session may teach)."""
    return {
        "id": view.id,
        "game": view.game.slug,
        "seats": list(view.seats),
        "options": view.options,
        "started_at": utc_text(view.started_at),
        "rematch_of": view.rematch_of,
        **(
            {
                "deck_profile": {
                    "id": view.deck.id,
                    "name": view.deck.name,
                    "sizes": dict(view.deck.sizes),
                }
            }
            if view.deck is not None
            else {}
        ),
        "links": session_links(view.id),
    }


def _version_fields(view: session_views.SessionView) -> dict[str, Any]:
    """The fields each version of the session has its own of."""
    return dict(json.loads(_version_fields_text(view)))


def _version_fields_text(
    view: session_views.SessionView, said: bool = False, reader: Reader | None = None
) -> str:
    """The fields each version of the session has its own of, as compact JSON text with
    sorted keys. Written here rather than by json.dumps: every write's answer makes it.
    Standings are records a game shares between versions (``rank_by_score``), whose text
    state_json keeps; what is expected is written once per value. ``said``: with the
    ruling's code and values (``ruling_code``), the ruling in ``reader``'s words."""
    game, state, text = view.game, view.state, state_json.text
    finished_at = None if view.finished_at is None else utc_text(view.finished_at)
    winners = game.winners(state) if view.finished else []
    ruling = game.ruling(state)
    ruled = f'"ruling":{text(spoken(ruling, reader))}'
    if said:
        code = state_json.compact(ruling.to_json()) if isinstance(ruling, Text) else "null"
        ruled += f',"ruling_code":{code}'
    return (
        f'{{"can_redo":{text(view.can_redo)},"can_undo":{text(view.can_undo)},'
        f'"expected":{_expected_text(game.slug, view.expected)},'
        f'"finished":{text(view.finished)},"finished_at":{text(finished_at)},'
        f'{ruled},"standings":{text(game.standings(state))},'
        f'"version":{text(view.version)},"winners":{text(winners)}}}'
    )


@functools.lru_cache(maxsize=1024)
def _expected_text(_game: str, expected: Expected) -> str:
    # Most versions of a session expect what one of its earlier versions did. By game:
    # Python holds True equal to 1, JSON does not, and within one game an action's
    # choices are always of one kind.
    return state_json.compact(expected.to_json())


def session_fields_text(view: session_views.SessionView) -> str:
    """``session_fields(view)`` as compact JSON text. The text of its lasting fields is made
    once per deck profile and address its links name: every answer to a write carries
    them, and making them was a fifth of a minimal answer's time."""
    lasting = session_views.made_once(
        view,
        "api-lasting-fields",
        (addresses.public_base(), view.deck),
        lambda: state_json.compact(_lasting_fields(view)),
        lasting=True,
    )
    fields = _version_fields_text(view, language_named(), asked_reader())
    return f"{lasting[:-1]},{fields[1:]}"


def session_links(session_id: str) -> dict[str, str]:
    # Built with the lasting fields, whose text a write's answer reuses (session_fields_text).
    return {
        "view": addresses.external_url("sessions.session_page", session_id=session_id),
        "export": addresses.external_url("api.export_session", session_id=session_id),
        "history": addresses.external_url("api.session_history", session_id=session_id),
        "rounds": addresses.external_url("api.session_rounds", session_id=session_id),
    }


def session_state(view: session_views.SessionView) -> dict[str, Any]:
    with state_json.read_by(asked_reader()):
        state = state_json.answer_plain(view.state)
    return {**session_fields(view), "state": state}


def minimal_wanted() -> bool:
    """Whether the client sent ``Prefer: return=minimal`` (RFC 7240): a write's answer then
    leaves out ``state``."""
    prefer = request.headers.get("Prefer")
    if not prefer:
        return False
    # Preferences are separated by commas, their parameters by semicolons; names and the
    # values of return are case-insensitive, and "=" may have spaces around it.
    return any(
        preference.split(";", 1)[0].replace(" ", "").replace("\t", "") == "return=minimal"
        for preference in prefer.lower().split(",")
    )


def write_answer(view: session_views.SessionView, minimal: bool) -> dict[str, Any]:
    """A write's answer as a dict: the whole session, or without its state if asked so."""
    return session_fields(view) if minimal else session_state(view)


# A JSON answer's headers (a write's add to them: write_headers).
JSON_HEADERS = (("Content-Type", "application/json"),)


def json_answer(body: dict[str, Any] | str, status: int, minimal: bool) -> Response:
    """A write's answer (a dict, or its JSON text), saying whether ``Prefer: return=minimal``
    was honoured."""
    text = body if isinstance(body, str) else state_json.compact(body)
    return current_app.response_class(text + "\n", status, write_headers(minimal))


def write_headers(minimal: bool) -> tuple[tuple[str, str], ...]:
    """A write's answer's headers, given to the answer as it is made: every write answers
    with them, and werkzeug sets headers given up front in one step, not one by one."""
    environ = request.environ
    if "HTTP_ACCEPT_LANGUAGE" not in environ and "HTTP_COOKIE" not in environ:
        return _ENGLISH_WRITE_HEADERS[minimal]  # nothing asked: made once
    return _write_headers(minimal, language_headers())


def _write_headers(
    minimal: bool, said_in: tuple[tuple[str, str], ...]
) -> tuple[tuple[str, str], ...]:
    preference = (("Preference-Applied", "return=minimal"),) if minimal else ()
    language_given, *chosen_by = said_in
    # Accept-Encoding named already: Flask-Compress adds it to any Vary that lacks it, and
    # would otherwise rewrite the header on every write.
    vary = ", ".join(["Prefer", *(name for _, name in chosen_by), "Accept-Encoding"])
    return (*JSON_HEADERS, ("Vary", vary), language_given, *preference)


# A write's headers when the request names no language (Content-Language: en).
_ENGLISH_WRITE_HEADERS = {
    minimal: _write_headers(minimal, (("Content-Language", DEFAULT_LANGUAGE),))
    for minimal in (False, True)
}


def session_answer(
    view: session_views.SessionView,
    status: int = 200,
    headers: Sequence[tuple[str, str]] = JSON_HEADERS,
) -> Response:
    """``session_state(view)`` as a JSON answer, its text made once per version (and deck
    profile, which another session may teach, and address the links name)."""

    reader = asked_reader()
    named = language_named()

    def text() -> str:
        fields = session_fields_text(view)
        # The state's text joins its records' texts, each made once (state_json).
        with state_json.read_by(reader):
            state = state_json.answer_text(view.state)
        return f'{fields[:-1]},"state":{state}}}\n'

    key = (addresses.public_base(), view.deck)
    # Kept apart for each language its words are in.
    kind = "api-session-answer" if not named else f"api-session-answer.{asked_language()}"
    answer = session_views.made_once(view, kind, key, text)
    return current_app.response_class(answer, status, headers)


def created(session_id: str, key: str) -> tuple[Response, int]:
    return jsonify(created_body(session_id, key)), 201


def created_body(session_id: str, key: str) -> dict[str, Any]:
    """A session's state with its edit key and its "score with me" link."""
    view = session_views.load(session_id)
    body = session_state(view)
    body["edit_key"] = key
    if view.deck is not None:
        # The session's edit key carries the right to change its deck profile.
        body["deck_profile"]["edit_key"] = view.deck.edit_key
    body["links"]["join"] = addresses.external_url("sessions.join", session_id=session_id, key=key)
    return body


def group_seating(body: dict[str, Any]) -> groups.Seating | None:
    """The players of a session started from a group (None: seats named by hand)."""
    if "group" not in body:
        if "players" in body:
            raise IllegalAction(PLAYERS_WITHOUT_GROUP(), "group")
        return None
    if "seats" in body:
        raise IllegalAction(SEATS_WITH_GROUP(), "seats")
    group_id = body["group"]
    if not isinstance(group_id, str) or not keys.is_id(group_id):
        raise IllegalAction(NOT_A_GROUP_ID(), "group")
    try:
        group = groups.load(group_id)
    except groups.GroupNotFound:
        raise IllegalAction(NO_SUCH_GROUP(), "group") from None
    access.require_bearer_group_edit(group_id)
    return groups.seating(group, body.get("players"), get_game(body.get("game")))


@bp.post("/sessions")
def create_session() -> tuple[Response, int]:
    body = json_body()
    only_fields(
        body,
        "game",
        "seats",
        "group",
        "players",
        "options",
        "deck_profile",
        "deck_key",
        "new_deck_name",
    )
    seating = group_seating(body)
    seats = body.get("seats") if seating is None else list(seating.names)
    if not isinstance(seats, list):
        raise IllegalAction(SEATS_NOT_A_LIST(), "seats")
    options = body.get("options", {})
    if not isinstance(options, dict):
        raise IllegalAction(OPTIONS_NOT_AN_OBJECT(), "options")
    deck = deck_choice(body, None if seating is None else seating.group_id)
    return created(
        *lifecycle.create(body.get("game"), seats, options, None, **deck, seating=seating)
    )


def deck_choice(body: dict[str, Any], group: str | None = None) -> dict[str, str]:
    """The deck profile a new session asks for: ``deck_profile`` (its key checked, unless
    it is the deck of ``group``, the group whose key was checked) or ``new_deck_name``, as
    ``lifecycle.create`` takes them."""
    for name in ("deck_profile", "deck_key", "new_deck_name"):
        if name in body and not isinstance(body[name], str):
            raise IllegalAction(NOT_A_STRING(name=name), name)
    if "deck_key" in body and "deck_profile" not in body:
        raise IllegalAction(DECK_KEY_WITHOUT_PROFILE(), "deck_key")
    if "deck_profile" in body and "new_deck_name" in body:
        raise IllegalAction(PROFILE_AND_NEW_NAME(), "new_deck_name")
    if "deck_profile" in body:
        decks.check_key(body["deck_profile"], body.get("deck_key"), group)
    return {name: body[name] for name in ("deck_profile", "new_deck_name") if name in body}


@bp.post("/sessions/import")
def import_session() -> tuple[Response, int]:
    return created(*lifecycle.import_session(read_export(json_body())))


@bp.get("/sessions/<other_than(import):session_id>")
def read_session(session_id: str) -> Response:
    return session_answer(load_or_404(session_id))


def asked_page(pages: int, past_the_last: Phrase) -> int:
    """The page the query's ``page`` asks for (1 unless asked): 400 for what is no page
    number, 404 for a page past the last (``past_the_last`` says which pages there are),
    each naming the field ``page``."""
    asked = request.args.get("page", "1")
    page = int(asked) if is_digits(asked) and len(asked) < 10 else 0
    if page < 1:
        refuse(400, BAD_PAGE(), "page")
    if page > pages:
        refuse(404, past_the_last(pages=pages), "page")
    return page


def refuse(status: int, said: Text, field: str | None) -> NoReturn:
    abort(error_answer(status, said, field))


def page_links(endpoint: str, session_id: str, page: int, pages: int) -> dict[str, str | None]:
    """The session's address and those of the newer and older pages (None: there is none)."""
    return {
        "session": addresses.external_url("api.read_session", session_id=session_id),
        "newer": None
        if page == 1
        else addresses.external_url(endpoint, session_id=session_id, page=page - 1),
        "older": None
        if page == pages
        else addresses.external_url(endpoint, session_id=session_id, page=page + 1),
    }


@bp.get("/sessions/<session_id>/history")
def session_history(session_id: str) -> Response:
    """A page of the session's log, as the history page pages it: page 1 holds the newest
    events, each next page older ones. Oldest first within a page (the history page lists
    them newest first): the pages joined from the last are the log."""
    view = load_or_404(session_id)
    count = len(view.events)
    pages = pages_of(count)
    page = asked_page(pages, HISTORY_PAGES)
    events = view.events[page_bounds(count, page)]
    replaced = (
        session_log.corrections(view.id, view.game, (events[0].seq, events[-1].seq))
        if events
        else {}
    )
    return jsonify(
        {
            "id": view.id,
            "version": view.version,
            "page": page,
            "pages": pages,
            "page_size": HISTORY_PAGE_SIZE,
            "events_count": count,
            "events": in_words([event_json(event, replaced) for event in events]),
            "links": page_links("api.session_history", view.id, page, pages),
        }
    )


def _records_page(records: dict[str, Any], page: int) -> dict[str, Any]:
    """A page of each of the history lists, as JSON data in the asked language."""
    with state_json.read_by(asked_reader()):
        return {
            name: state_json.plain(items[page_bounds(len(items), page)])
            for name, items in records.items()
        }


@bp.get("/sessions/<session_id>/rounds")
def session_rounds(session_id: str) -> Response:
    """A page of the session's past rounds (or turns): the score rows, as the export's
    ``rounds``, and the records its game keeps of them (the state's history fields), each
    list paged by itself as the history is: page 1 holds the newest of each."""
    view = load_or_404(session_id)
    rows = view.game.score_rows(view.state)
    records = history_of(view.state)
    pages = max(pages_of(len(items)) for items in (rows, *records.values()))
    page = asked_page(pages, ROUNDS_PAGES)
    return jsonify(
        {
            "id": view.id,
            "game": view.game.slug,
            "version": view.version,
            "page": page,
            "pages": pages,
            "page_size": HISTORY_PAGE_SIZE,
            "rounds_count": len(rows),
            "rounds": in_words([row_json(row) for row in rows[page_bounds(len(rows), page)]]),
            "records_count": {name: len(items) for name, items in records.items()},
            "records": _records_page(records, page),
            "links": page_links("api.session_rounds", view.id, page, pages),
        }
    )


@bp.get("/sessions/<session_id>/version")
def session_version(session_id: str) -> Response:
    """The live-refresh check (``refresh.RefreshCheck`` answers most of them first)."""
    try:
        version = session_views.current_version(session_id)
    except session_views.SessionNotFound:
        refuse(404, NO_SUCH_SESSION_SAID, None)
    status, headers, body = version_answer(version, request.if_none_match)
    return Response(body, status, headers)


Write = Callable[[dict[str, Any], int, store.OneTimeKey | None], session_views.SessionView]


def checked_write(session_id: str, status: int, fields: tuple[str, ...], write: Write) -> Response:
    """An edit-key-checked write with the body's version and optional request key.

    A retry under the same ``request_key`` records nothing and gets the first
    answer again (without its state, if this retry prefers it minimal), whatever
    version it carries; another request under a used key is refused.
    """
    access.require_bearer_edit(session_id, NO_SUCH_SESSION_SAID)
    body = json_body()
    only_fields(body, "version", "request_key", *fields)
    version = parse_whole_number(body.get("version"), FIELD_LABEL(field="version"), "version")
    once = request_key(body, session_state)
    minimal = minimal_wanted()
    try:
        view = write(body, version, once)
    except store.AlreadyRecorded as repeated:
        if repeated.answer is None:
            return json_answer(
                write_answer(session_views.load(session_id), minimal), status, minimal
            )
        first: dict[str, Any] = repeated.answer
        if minimal:
            first = {name: value for name, value in first.items() if name != "state"}
        return json_answer(first, status, minimal)
    if minimal:
        return json_answer(session_fields_text(view), status, minimal)
    return session_answer(view, status, write_headers(minimal))


def request_key(
    body: dict[str, Any],
    answer: Callable[[session_views.SessionView], Any] | None,
    *about: str,
) -> store.OneTimeKey | None:
    """The body's optional ``request_key``, with the fingerprint of the request sent under
    it (its endpoint, ``about`` and its body but its ``version``) and how to make the answer
    a retry gets."""
    if "request_key" not in body:
        return None
    key = body["request_key"]
    if not isinstance(key, str) or not 1 <= len(key) <= 64:
        raise IllegalAction(BAD_REQUEST_KEY(), "request_key")
    # The version the client saw is no part of what it asks: a client that timed out reads
    # the state again, which may hold its write already, and resends the write with the
    # newer version. That is the same write, answered as the first time.
    asked = {name: value for name, value in body.items() if name != "version"}
    sent = json.dumps([request.endpoint, *about, asked], sort_keys=True, ensure_ascii=True)
    return store.OneTimeKey(key, "request_key", hashlib.sha256(sent.encode()).hexdigest(), answer)


@bp.post("/sessions/<session_id>/rematch")
def rematch(session_id: str) -> tuple[Response, int]:
    """The next game at a finished session's table, with its own edit key: 201 when this
    request starts it, 200 when an earlier one did (``already_started`` says which)."""
    access.require_bearer_edit(session_id, NO_SUCH_SESSION_SAID)
    body = json_body()
    only_fields(body, "request_key")
    # The keys of new sessions share one scope: the fingerprint names the finished session.
    once = request_key(body, None, session_id)
    next_game = lifecycle.rematch(session_id, once)
    answer = {
        **created_body(next_game.id, next_game.edit_key),
        "already_started": next_game.already_started,
    }
    return jsonify(answer), 200 if next_game.already_started else 201


@bp.post("/sessions/<session_id>/events")
def append_event(session_id: str) -> Response:
    def write(
        body: dict[str, Any], version: int, once: store.OneTimeKey | None
    ) -> session_views.SessionView:
        action = body.get("action")
        if not isinstance(action, dict):
            raise IllegalAction(ACTION_NOT_AN_OBJECT(), "action")
        return store.append(session_id, action, version, once)

    return checked_write(session_id, 201, ("action",), write)


@bp.post("/sessions/<session_id>/undo")
def undo(session_id: str) -> Response:
    return checked_write(session_id, 200, (), lambda _b, v, k: store.undo(session_id, v, k))


@bp.post("/sessions/<session_id>/redo")
def redo(session_id: str) -> Response:
    return checked_write(session_id, 200, (), lambda _b, v, k: store.redo(session_id, v, k))


@bp.get("/sessions/<session_id>/export")
def export_session(session_id: str) -> Response:
    return jsonify(session_json(load_or_404(session_id)))


@bp.get("/sessions/<session_id>/export.csv")
def export_session_csv(session_id: str) -> Response:
    return Response(session_csv(load_or_404(session_id)), mimetype="text/csv")


@bp.get("/sessions/<session_id>/export-grid.csv")
def export_session_grid_csv(session_id: str) -> Response:
    return Response(session_grid_csv(load_or_404(session_id)), mimetype="text/csv")


def plays_of(body: dict[str, Any]) -> list[Any]:
    plays = body.get("plays")
    if not isinstance(plays, list):
        raise IllegalAction(PLAYS_NOT_A_LIST(), "plays")
    return plays


def worded(answer: Any, reader: Reader | None, coded: bool) -> Any:
    """A judge's or a calculator's answer as JSON data, what it says in ``reader``'s words
    (English without one). ``coded`` (a client that names a language): each phrase said
    has its code and values beside it, as ``<name>_code``, and an ``explanation`` that is
    no phrase yet a null one; a ``name`` keeps its English words (the contract's: a
    combo's name) and adds ``label``, its words in the asked language, and ``label_code``.
    Without, the answer has the contract's fields alone, as it always had."""
    if isinstance(answer, list | tuple):
        return [worded(item, reader, coded) for item in answer]
    if not isinstance(answer, dict):
        return answer
    made: dict[str, Any] = {}
    for name, value in answer.items():
        if isinstance(value, Text):
            if name == "name":
                made[name] = str.__str__(value)
                if coded:
                    made |= {"label": spoken(value, reader), "label_code": value.to_json()}
            else:
                made[name] = spoken(value, reader)
                if coded:
                    made[f"{name}_code"] = value.to_json()
        elif name == "explanation" and coded:
            made |= {name: value, "explanation_code": None}
        else:
            made[name] = worded(value, reader, coded)
    return made


def trick_ruling(judge: TrickJudge) -> Callable[[], Response]:
    """The endpoint ruling a trick of ``judge``'s game, with the reason (no session)."""

    def rule() -> Response:
        body = json_body()
        if judge.trumps:
            only_fields(body, "trump", "plays")
            ruled = judge.rule(body.get("trump"), plays_of(body))
        else:
            only_fields(body, "plays")
            ruled = judge.rule(plays_of(body))
        return jsonify(worded(ruled.to_json(), asked_reader(), language_named()))

    return rule


def game_endpoint(view: Callable[[], dict[str, object]]) -> Callable[[], Response]:
    """A game's own endpoint: the answer it gives as JSON data, written with its words in
    the asked language (``worded``), as a judge's is."""

    @functools.wraps(view)
    def answer() -> Response:
        return jsonify(worded(view(), asked_reader(), language_named()))

    return answer


def add_game_routes() -> None:
    """Each game's trick judge, and the endpoints a game adds of its own."""
    for slug, game in adapters().items():
        if game.judge is not None:
            endpoint = "judge_" + slug.replace("-", "_")
            bp.add_url_rule(f"/judge/{slug}", endpoint, trick_ruling(game.judge), methods=["POST"])
        for route in game.api_routes:
            bp.add_url_rule(route.rule, route.endpoint, game_endpoint(route.view), methods=["POST"])


add_game_routes()


def group_answer(group: groups.Group, paged_by_query: bool = False) -> GroupAnswer:
    """The group with a page of its sessions: the one the query's ``page`` asks for when
    ``paged_by_query`` (a read), else the first (a write's answer)."""
    counts = group_figures.session_counts(group.id)
    pages = pages_of(counts.played, access.LIST_PAGE_SIZE)
    page = asked_page(pages, GROUP_SESSIONS_PAGES) if paged_by_query else 1
    return GroupAnswer(
        id=group.id,
        name=group.name,
        players=[
            PlayerAnswer(id=p.id, name=p.name, colour=p.colour, emoji=p.emoji)
            for p in group.players
        ],
        decks=[
            GroupDeck(id=p.id, game=p.game, name=p.name, sizes=dict(p.sizes))
            for p in decks.of_group(group.id)
        ],
        sessions=[
            GroupSession(
                id=s.id,
                game=s.game,
                seats=list(s.seats),
                finished=s.finished,
                winners=list(s.winners),
                links=GroupSessionLinks(
                    view=addresses.external_url("sessions.session_page", session_id=s.id),
                    api=addresses.external_url("api.read_session", session_id=s.id),
                ),
            )
            for s in read_model.group_summaries(group.id, page, access.LIST_PAGE_SIZE)
        ],
        sessions_count=counts.played,
        page=page,
        pages=pages,
        page_size=access.LIST_PAGE_SIZE,
        links=GroupLinks(
            view=addresses.external_url("groups.group_page", group_id=group.id),
            stats=addresses.external_url("api.read_group_stats", group_id=group.id),
            newer=None
            if page == 1
            else addresses.external_url("api.read_group", group_id=group.id, page=page - 1),
            older=None
            if page == pages
            else addresses.external_url("api.read_group", group_id=group.id, page=page + 1),
        ),
    )


def load_group_or_404(group_id: str) -> groups.Group:
    try:
        return groups.load(group_id)
    except groups.GroupNotFound:
        refuse(404, NO_SUCH_GROUP(), None)


@bp.post("/groups")
def create_group() -> tuple[Response, int]:
    body = json_body()
    only_fields(body, "name", "players")
    return created_group(groups.create(body.get("name"), body.get("players", [])))


def created_group(group: groups.Group) -> tuple[Response, int]:
    """A new group's answer: the group, its edit key and its "join this group" link."""
    answer = group_answer(group)
    join = addresses.external_url("groups.join", group_id=group.id, key=group.edit_key)
    created = CreatedGroup(
        **{name: value for name, value in answer if name != "links"},
        edit_key=group.edit_key,
        links=CreatedGroupLinks(**answer.links.model_dump(), join=join),
    )
    return jsonify(created.model_dump(mode="json")), 201


@bp.get("/groups/<other_than(import):group_id>")
def read_group(group_id: str) -> Response:
    group = load_group_or_404(group_id)
    return jsonify(group_answer(group, paged_by_query=True).model_dump(mode="json"))


def figures(record: stats.PlayerRecord, skill: ratings.Skill) -> dict[str, Any]:
    """A player's figures, with their kept rating (in one game, or over all)."""
    return {
        "player": int(record.player),
        "name": record.name,
        "played": record.played,
        "won": record.won,
        "win_rate": record.win_rate,
        "average_place": skill.average_place,
        "rating": RatingFigures(
            rating=skill.rating, moved=skill.moved, mu=skill.mu, sigma=skill.sigma
        ),
        "last_played": utc_text(record.last_played),
    }


def stats_answer(
    group: groups.Group,
    counted: stats.Stats,
    rated: ratings.Board,
    duel: stats.HeadToHead | None,
) -> StatsAnswer:
    # The chart's lines are named after the players, whose names are unique in a group.
    player_named = {record.name: int(record.player) for record in counted.players}
    asked = {"first": duel.first, "second": duel.second} if duel else {}
    return StatsAnswer(
        group=group.id,
        played=counted.played,
        players=[
            PlayerFigures(**figures(record, rated[ratings.ALL_GAMES][record.player]))
            for record in counted.players
        ],
        games=[
            GameFigures(
                game=game.game,
                title=game.title,
                lower_is_better=game.lower_is_better,
                played=game.played,
                last_played=utc_text(game.last_played),
                players=[
                    GamePlayerFigures(
                        **figures(r, rated[(game.game, game.lower_is_better)][r.player]),
                        average=r.average,
                        best=r.best,
                    )
                    for r in game.players
                ],
            )
            for game in counted.games
        ],
        wins_over_time=[
            WinsOverTime(
                player=player_named[line.name],
                name=line.name,
                days=[
                    WinsOnDay(day=date.fromordinal(round(day)).isoformat(), wins=round(wins))
                    for day, wins in line.points
                ],
            )
            for line in counted.wins_over_time
        ],
        wins_over_time_step=counted.wins_step,
        head_to_head=None
        if duel is None
        else HeadToHeadFigures(
            first=int(duel.first),
            second=int(duel.second),
            first_name=duel.first_name,
            second_name=duel.second_name,
            played=duel.played,
            first_won=duel.first_won,
            second_won=duel.second_won,
            shared=duel.shared,
            neither=duel.neither,
        ),
        links=StatsLinks(
            view=addresses.external_url("groups.group_stats", group_id=group.id, **asked),
            group=addresses.external_url("api.read_group", group_id=group.id),
        ),
    )


@bp.get("/groups/<group_id>/stats")
def read_group_stats(group_id: str) -> Response:
    group = load_group_or_404(group_id)
    counted = group_figures.compute(group)
    duel = group_figures.duel(group, counted, request.args.get("first"), request.args.get("second"))
    rated = ratings.kept_of(group.id)
    return jsonify(stats_answer(group, counted, rated, duel).model_dump(mode="json"))


@bp.get("/groups/<group_id>/export")
def export_group(group_id: str) -> Response:
    return jsonify(group_export.group_json(load_group_or_404(group_id)))


@bp.get("/groups/<group_id>/export.csv")
def export_group_csv(group_id: str) -> Response:
    group = load_group_or_404(group_id)
    return Response(group_export.group_csv(group), mimetype="text/csv")


@bp.post("/groups/import")
def import_group() -> tuple[Response, int]:
    """A group file as exported: a JSON body (with an optional ``request_key`` beside the
    file's fields), or a CSV body sent as text/csv (its ``request_key`` in the query)."""
    if request.mimetype == "text/csv":
        raw = request.get_data()
        sent = {"csv": raw.decode("utf-8", errors="replace"), **request.args}
        imported = read_group_file(raw)
    else:
        sent = json_body()
        imported = group_export.read_group(
            {name: value for name, value in sent.items() if name != "request_key"}
        )
    try:
        group = group_export.import_group(imported, request_key(sent, None))
    except group_export.AlreadyImported as repeated:
        group = groups.load(repeated.group_id)
    return created_group(group)


def group_write(group_id: str) -> dict[str, Any]:
    """The body of a Bearer-checked change of a group's players."""
    load_group_or_404(group_id)
    access.require_bearer_group_edit(group_id)
    return json_body()


@bp.post("/groups/<group_id>/players")
def add_player(group_id: str) -> tuple[Response, int]:
    body = group_write(group_id)
    only_fields(body, "name", "colour", "emoji")
    groups.add_player(group_id, body.get("name"), body.get("colour", ""), body.get("emoji", ""))
    return jsonify(group_answer(groups.load(group_id)).model_dump(mode="json")), 201


@bp.patch("/groups/<group_id>/players/<player_id>")
def change_player(group_id: str, player_id: str) -> Response:
    body = group_write(group_id)
    only_fields(body, "name", "colour", "emoji")
    groups.change_player(
        group_id,
        groups.player_id_as_sent(player_id),
        body.get("name"),
        body.get("colour"),
        body.get("emoji"),
    )
    return jsonify(group_answer(groups.load(group_id)).model_dump(mode="json"))


@bp.delete("/groups/<group_id>/players/<player_id>")
def remove_player(group_id: str, player_id: str) -> Response:
    load_group_or_404(group_id)
    access.require_bearer_group_edit(group_id)
    groups.remove_player(group_id, groups.player_id_as_sent(player_id))
    return jsonify(group_answer(groups.load(group_id)).model_dump(mode="json"))


@bp.get("/openapi.json")
def openapi() -> Response:
    return jsonify(openapi_document())
