"""The OpenAPI 3.1 document of the JSON API v1, served at ``/api/v1/openapi.json``.

It describes exactly the endpoints of ``scorekeeper.web.api``: sessions (create,
import, read, events, undo, redo, rematch, export), and with each game's part of it (its
adapter's ``api_actions`` and ``api_operations``, its options' specs) the games' options,
actions, trick judges and calculators. Every schema is generated: the bodies from the
pydantic models below and the games' declarations, the states from the engines' State
classes (``state_schemas``), the groups part from its models (``group_schemas``).
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, create_model
from werkzeug.exceptions import InternalServerError

from scorekeeper.export import FILE_MAX_BYTES, FORMAT_VERSION, READABLE_VERSIONS
from scorekeeper.games import GAMES, listed_values
from scorekeeper.games.base import and_list, resolve_options
from scorekeeper.games.history import history_names
from scorekeeper.games.web_interface import ApiModel, may_be_left_out
from scorekeeper.games.words import Text
from scorekeeper.models import NAME_MAX_LENGTH
from scorekeeper.web.adapters import adapters
from scorekeeper.web.asked_language import REFUSED
from scorekeeper.web.group_schemas import PARAMETERS, SECURITY, group_paths, group_schemas
from scorekeeper.web.hosts import UNTRUSTED_HOST
from scorekeeper.web.language import LANGUAGES
from scorekeeper.web.openapi_parts import (
    Schema,
    body,
    components,
    declared_phrases,
    error_response,
    file_too_large,
    game_actions,
    game_operation,
    json_content,
    ok,
    operation_models,
    options_model,
    ref,
    refs_to,
    said_beside,
    schema_name,
    schema_of,
    standard_errors,
    without_type,
)
from scorekeeper.web.state_schemas import state_schemas, state_type
from scorekeeper.web.uploads import size_text

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.0.0"

# The games played with a deck profile (printed card sizes), as the prose names them.
_SIZED_GAMES = and_list([game.title for game in GAMES.values() if game.sized_cards is not None])


def _history_fields() -> str:
    """Each game's history fields, as the prose names them ("`turns` of Yardkle")."""
    named: dict[str, list[str]] = {}
    for slug, game in GAMES.items():
        for cls in typing.get_args(state_type(slug)) or (state_type(slug),):
            for name in history_names(cls):
                titles = named.setdefault(f"`{name}`", [])
                if game.title not in titles:
                    titles.append(game.title)
    return and_list([f"{name} of {and_list(titles)}" for name, titles in named.items()])


_HISTORY_FIELDS = _history_fields()

DESCRIPTION = (
    (
        f"Keep score of sessions of {and_list([game.title for game in GAMES.values()])}, rule on "
        "disputed tricks and use each game's calculators, from any client.\n\n"
    )
    + """\
**Errors** are always JSON: `{"error": "<a sentence a player can read>", "field": "<name>" | null}`.
`field` names the input that is wrong (`"seats.2"`, `"options.winning_score"`, `"dice"`),
`"action"` when the rules refuse the whole move, or null for an error about no input (a missing
key, an unknown session). A path this document does not list answers 404, a method it does
not list for a path 405 (with `Allow`), both with this error body. `OPTIONS` on a path answers
200 with no body and the path's methods in `Allow`. To a request that names a language, every
error (of an endpoint, or of none: a path or a method not listed, a body too large, a host not
served, a crash) also carries `code` and `values`: what its sentence says, as data (see
Languages).

**Languages.** Sentences (the `ruling`, a judge's `explanation`, an error's `error`, the
sentences in a state and a history) are in the language the request asks for by
`Accept-Language`, or by the `language` cookie the pages' language switch sets (which comes
first, as on the pages): English (`en`), French (`fr`) or Japanese (`ja`); English when it names
none of them. Every answer says which in `Content-Language` (the refresh check's `…/version`
too; `en` for an error in the HTTP library's own English words, which the app never says
itself); one to a request that sent either header names it in `Vary`. A request that names a
language (`Accept-Language: en` for English) also gets, beside each sentence, what it says as
data, so that a client never reads the words: an error's `code` and `values`, a session's
`ruling_code`, a judge's `explanation_code` (Yellow Dwarf's settlement's too), and beside a
Yardkle combo's English `name` its `label` (its words in that language) and `label_code` (each
`{"code", "values"}`: see `Said`; null for a sentence said in English words alone, no phrase
yet). Every refusal the app makes is a phrase; an error in the HTTP library's own words has the
code `refused` and no values. A code names what is said, for good (`PhraseCode` lists them all);
each value is a name or text as given, a whole number, a card as written (`green 7`), a list, or
a part of the sentence as its own code and values. A request that names no language is answered
exactly as before languages came: in English, without these fields. Names (players, cards as
written, a combo's `name`) are never translated.

**What comes next.** Every answer carrying a session's state includes `expected`: the 0-based
seat whose move it is and every action type the game accepts now, with the accepted values
where they are few. An action whose type is not listed is refused.

**Edit key.** Whoever has a session's id may read it. Writes to a session (events, undo, redo,
rematch) need its edit key as `Authorization: Bearer <edit_key>`. The key is returned once, as
`edit_key`, when the session is created or imported: keep it. No key gets 401, a wrong key 403.

**Versions.** Every write carries the `version` of the session the client last saw. If the
session changed since (another phone at the table recorded something), the write is refused
with 409 and the current state of the session in `state`: show it, then try again.

**Retries.** A write may carry an optional `request_key`: a fresh random string (a UUID, say)
of up to 64 characters for each new write. Keys are scoped to this session. Sending the same
request again with the same key records nothing new and answers exactly what the first answer
said, whatever `version` it carries: a client that timed out, read the session again (which may
hold its write already) and resends the write with the newer version gets the first answer, and
the write is recorded once. The same key with a different request is refused with 422 (`field`:
`request_key`), and nothing is recorded. Never reuse a key for another write.

**What the state carries, and where the history is.** A session's `state` carries what the
table needs now: the round in progress, its turns or tricks so far, the totals, and the newest
scored round or turn; its size stays the same from the first move to the last. Past rounds and
turns are not in it: `GET /sessions/{session_id}/rounds?page=N` pages them (each round's or
turn's score rows, and the records the game keeps of them), and `GET
/sessions/{session_id}/history?page=N` pages the event log, as the history page does: page 1
holds the newest, each next page older ones. (Until 2026-11-28 the state carried every past
round or turn: """
    + _HISTORY_FIELDS
    + """; they are now the `records` of the rounds pages.)

**Lean answers.** A write (events, undo, redo) answers the whole session, its `state` included.
A client that keeps its own view, or needs only the new version, whose move it is and the
standings, sends `Prefer: return=minimal` (RFC 7240): the answer, a 409 included, then leaves
`state` out and says `Preference-Applied: return=minimal`; `GET /sessions/{session_id}` gives
the state whenever it is wanted.

**Deck profiles.** A session of a game whose cards carry a printed size plays with a deck
profile (the sizes printed on a physical deck). Anyone may read a session's `deck_profile`
(its id, name and sizes); changing it takes a key. Creating or importing a session answers
with the profile's `edit_key` once; send it as `deck_key` to start a later session with the
same deck. A group's session plays with a deck that is no group's yet makes it the group's:
a later session of the group plays with it on the group's key alone.

**Groups.** A group holds the players who play together and the sessions they played: anyone
with its id may read it; changing its players, and starting a session of it (`group` and its
`players` in seat order instead of `seats`), takes its key as `Authorization: Bearer <key>`,
returned once as `edit_key` when the group is made. Its statistics, counted from its finished
sessions, are read with its id alone.

**Text.** Names and other text must not contain control characters or unpaired surrogates
(422 naming the field). Unknown properties of a request body are refused with 422.
"""
)


def _session_write(
    operation_id: str,
    summary: str,
    description: str,
    body: Schema,
    success_code: int,
    success_description: str,
    refusal: Schema,
) -> Schema:
    """A Bearer-protected, version-checked write to one session."""
    success = {
        "description": success_description,
        "headers": {
            "Preference-Applied": {
                "description": "`return=minimal` when the answer leaves out the state.",
                "schema": schema_of(
                    Annotated[str, Field(json_schema_extra={"enum": ["return=minimal"]})]
                ),
            }
        },
        "content": json_content({"oneOf": [ref(SessionState), ref(SessionFields)]}),
    }
    responses: Schema = {
        str(success_code): success,
        **standard_errors(400, 401, 403, 404, 409, 413),
        "422": refusal,
    }
    return {
        "post": {
            "operationId": operation_id,
            "tags": ["sessions"],
            "summary": summary,
            "description": description,
            "security": [{"editKey": []}],
            "parameters": [
                {"$ref": "#/components/parameters/SessionId"},
                {
                    "name": "Prefer",
                    "in": "header",
                    "required": False,
                    "description": (
                        "`return=minimal`: answer without `state` (RFC 7240), at the same "
                        "size however long the session."
                    ),
                    "schema": schema_of(Annotated[str, Field(examples=["return=minimal"])]),
                },
            ],
            "requestBody": body,
            "responses": dict(sorted(responses.items())),
        }
    }


# --- Examples ------------------------------------------------------------------

_SESSION_ID = "q2Xv7cN0mTg8bY1uK3sWfA"
_EDIT_KEY = "v9Lk2PzQx4RtY7uWc1bN3mHs8dFa6gJe"
_BASE = "https://scores.example"

_YARDKLE_STATE_EXAMPLE: Schema = {
    "players": ["Ana", "Bo"],
    "entry_threshold": 500,
    "winning_score": 10000,
    "scores": [0, 0],
    "entered": [False, False],
    "current": 0,
    "turn": {"total": 0, "dice_left": 6, "pending_roll": None, "hot_dice": False, "rolls": 0},
    "final_round_by": None,
    "finished": False,
    "last_ruling": "Ana rolls first.",
    "round": 1,
    "round_turns": [],
    "last_turn": None,
}


def _first_ruling_code() -> Any:
    """The code and values of the example's ruling, as its engine says it."""
    yardkle = GAMES["yardkle"]
    ruling = yardkle.ruling(yardkle.start(["Ana", "Bo"], resolve_options(yardkle.options, {})))
    return ruling.to_json() if isinstance(ruling, Text) else None


_SESSION_STATE_EXAMPLE: Schema = {
    "id": _SESSION_ID,
    "game": "yardkle",
    "version": 0,
    "seats": ["Ana", "Bo"],
    "options": {"entry_threshold": 500, "winning_score": 10000},
    "ruling": "Ana rolls first.",
    "ruling_code": _first_ruling_code(),
    "finished": False,
    "winners": [],
    "started_at": "2026-11-24T20:15:00Z",
    "finished_at": None,
    "rematch_of": None,
    "standings": [
        {"seat": 0, "name": "Ana", "score": 0, "rank": 1},
        {"seat": 1, "name": "Bo", "score": 0, "rank": 1},
    ],
    "can_undo": False,
    "can_redo": False,
    "expected": {"seat": 0, "actions": [{"type": "roll"}, {"type": "total"}]},
    "state": _YARDKLE_STATE_EXAMPLE,
    "links": {
        "view": f"{_BASE}/s/{_SESSION_ID}",
        "export": f"{_BASE}/api/v1/sessions/{_SESSION_ID}/export",
        "history": f"{_BASE}/api/v1/sessions/{_SESSION_ID}/history",
        "rounds": f"{_BASE}/api/v1/sessions/{_SESSION_ID}/rounds",
    },
}

_CREATED_EXAMPLE: Schema = {
    **_SESSION_STATE_EXAMPLE,
    "edit_key": _EDIT_KEY,
    "links": {
        **_SESSION_STATE_EXAMPLE["links"],
        "join": f"{_BASE}/s/{_SESSION_ID}/join/{_EDIT_KEY}",
    },
}

_REMATCH_EXAMPLE: Schema = {**_CREATED_EXAMPLE, "rematch_of": "h7Tb2Wq9Lm4Xc0Zr8Ns1Pd"}

_EXPORT_EXAMPLE: Schema = {
    "format": "tabletop-scorekeeper/session",
    "format_version": FORMAT_VERSION,
    "game": "yardkle",
    "options": {"entry_threshold": 500, "winning_score": 10000},
    "seats": [{"position": 0, "name": "Ana"}, {"position": 1, "name": "Bo"}],
    "events": [
        {
            "seq": 1,
            "action": {"type": "total", "points": 650},
            "undone": False,
            "redoable": False,
            "text": "turn total 650",
            "ruling": "Ana entered a turn of 650: total 650.",
        }
    ],
    "rounds": [
        {
            "round": 1,
            "seat": 0,
            "player": "Ana",
            "points": 650,
            "running_total": 650,
            "note": "entered as a total",
        }
    ],
    "standings": [
        {"rank": 1, "seat": 0, "player": "Ana", "score": 650},
        {"rank": 2, "seat": 1, "player": "Bo", "score": 0},
    ],
    "finished": False,
    "winners": [],
    "started_at": "2026-11-24T20:15:00Z",
    "finished_at": None,
}

_TURN_EXAMPLE: Schema = {"round": 1, "seat": 0, "points": 650, "result": "quick", "lost": 0}
_PAGE_LINKS_EXAMPLE: Schema = {
    "session": f"{_BASE}/api/v1/sessions/{_SESSION_ID}",
    "newer": None,
    "older": None,
}

_HISTORY_EXAMPLE: Schema = {
    "id": _SESSION_ID,
    "version": 1,
    "page": 1,
    "pages": 1,
    "page_size": 100,
    "events_count": 1,
    "events": _EXPORT_EXAMPLE["events"],
    "links": _PAGE_LINKS_EXAMPLE,
}

_ROUNDS_EXAMPLE: Schema = {
    "id": _SESSION_ID,
    "game": "yardkle",
    "version": 1,
    "page": 1,
    "pages": 1,
    "page_size": 100,
    "rounds_count": 1,
    "rounds": _EXPORT_EXAMPLE["rounds"],
    "records_count": {"turns": 1},
    "records": {"turns": [_TURN_EXAMPLE]},
    "links": _PAGE_LINKS_EXAMPLE,
}

_CSV_EXAMPLE = (
    "game,round,seat,player,points,running_total,note,place,winner,started_at,finished_at\r\n"
    "Yardkle,1,0,Ana,650,650,entered as a total,1,yes,2026-11-24T20:15:00Z,"
    "2026-11-24T21:02:00Z\r\n"
    "Yardkle,1,1,Bo,0,0,Yardkle,2,no,,\r\n"
)
_GRID_EXAMPLE = "round,Ana,Bo\r\n1,650,0\r\n2,,300\r\ntotal,650,300\r\nplace,1,2\r\n"


# --- Schemas -------------------------------------------------------------------

GAME_SLUGS = list(GAMES)
GameSlug = Annotated[str, Field(json_schema_extra={"enum": GAME_SLUGS})]
Name = Annotated[str, Field(min_length=1, max_length=NAME_MAX_LENGTH)]
DeckSizes = Annotated[
    dict[str, Annotated[int, Field(ge=1, le=99)]],
    Field(description="Card (“green 25”) → its printed size; only the cards whose size is known."),
]
Version = Annotated[
    int, Field(ge=0, description="The session version the client last saw (SessionState.version).")
]
RequestKey = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description=(
            "Optional: a fresh random string for each new write, scoped to this session. The "
            "identical request sent again with the same key records nothing new and gets the "
            "first answer again; the same key with a different request is refused with 422."
        ),
    ),
]
Uri = Annotated[str, Field(json_schema_extra={"format": "uri"})]
Moment = Annotated[str, Field(json_schema_extra={"format": "date-time"})]
ReadOnly = Field(json_schema_extra={"readOnly": True})


def _game_schema_names(kind: str) -> list[str]:
    """Every game's schema of a kind ("Options", "Action")."""
    return [schema_name(slug, kind) for slug in GAME_SLUGS]


OPTIONS_MODELS = tuple(
    options_model(slug, game, adapters()[slug].options_description) for slug, game in GAMES.items()
)
# Any game's options (the session's `game` says which).
AnyOptions = Union[OPTIONS_MODELS]  # type: ignore[valid-type]  # noqa: UP007


def _phrase_code(schema: dict[str, Any]) -> None:
    """(A code's ``json_schema_extra``.) The one list of the phrases' codes."""
    schema.pop("type", None)
    # Inside allOf: pydantic would look a $ref up among the schemas it makes.
    schema["allOf"] = [{"$ref": "#/components/schemas/PhraseCode"}]


def _error_codes(schema: dict[str, Any]) -> None:
    """(An error's code's ``json_schema_extra``.) A phrase's code, or ``refused``
    (scorekeeper.web.asked_language.REFUSED)."""
    schema.pop("type", None)
    schema["anyOf"] = [{"const": REFUSED}, {"$ref": "#/components/schemas/PhraseCode"}]


def phrase_code_schema() -> Schema:
    """Every code of the app's phrases, listed when the document is made: from the phrases
    the modules declare."""
    return {
        "type": "string",
        "description": (
            "What a sentence says, for good: `<game>.<what>` for a game's phrase; `trick.`, "
            "`option.`, `card.`, `colour.`, `game.` and the like for shared ones; `api.` for "
            "the API's own refusals, `export.` for an imported file's, `deck.` for a deck "
            "profile's, `web.` for the app's own errors (a path not served, a body too large)."
        ),
        "enum": list(declared_phrases()),
    }


_VALUES = (
    "The phrase's values by name: a name or text as given, a whole number, a card as "
    "written (`green 7`), a list of them, or a part of the sentence as its own code and "
    "values."
)
# How deep the document describes a sentence's parts: a part's values may hold parts, to
# any depth (sentences chained two by two nest as deep as there are sentences); those
# deeper than this are values as any other, not described further.
PART_DEPTH = 4
_DEEPER = (
    "A value of a part nested deeper than the document describes: as any other value (a "
    "name or text, a whole number, a card as written, a list, or a part: `{code, values}`)."
)


def _said_models() -> list[type[ApiModel]]:
    """``Said`` and the parts its values may hold (``SaidPart1``…), innermost first: each
    depth a schema of its own, for no schema of the document refers to itself (its objects
    are closed, and a check inlines every reference)."""
    made: list[type[ApiModel]] = []
    for level in range(PART_DEPTH, -1, -1):
        part: Any = made[-1] if made else None
        value: Any = (
            Annotated[Any, Field(description=_DEEPER)]
            if part is None
            else Union[str, int, list[Union[str, int, part]], part]  # noqa: UP007  # at run time
        )
        code: Any = (
            Field(json_schema_extra=_phrase_code)
            if level == 0
            else Field(description="The part's phrase's code (one of `PhraseCode`).")
        )
        made.append(
            create_model(
                "Said" if level == 0 else f"SaidPart{level}",
                __base__=ApiModel,
                __doc__=(
                    "What a sentence says, as data: its phrase's code and values. The words "
                    "are the phrase's in the asked language; the code and values are the same "
                    "in every language."
                    if level == 0
                    else "A part of a sentence, said by a phrase of its own."
                ),
                code=(str, code),
                values=(dict[str, value], Field(description=_VALUES)),
            )
        )
    return made


SAID_MODELS = _said_models()
Said = SAID_MODELS[-1]
# A value of a sentence's phrase (as ``Said.values`` holds them).
SaidValue = Union[str, int, list[Union[str, int, SAID_MODELS[-2]]], SAID_MODELS[-2]]  # type: ignore[valid-type]  # noqa: UP007


class Error(ApiModel):
    """Every error of this API."""

    error: str = Field(description="A sentence a player can read, in the asked language.")
    field: str | None = Field(
        description=(
            'The input that is wrong (e.g. "seats.2", "dice"); "action" for a refusal of the '
            "whole move; null for an error that is no refusal of an input (a missing key, an "
            "unknown session)."
        )
    )
    code: str = may_be_left_out(
        description=(
            "Only for a request that names a language: what the error says, for good: its "
            "phrase's code, or `refused` for an error in the HTTP library's own English "
            "words, which the app never says itself."
        ),
        json_schema_extra=_error_codes,
    )
    values: dict[str, SaidValue] = may_be_left_out(
        description="With `code`. " + _VALUES + " Empty for `refused`."
    )


def _listed_values() -> dict[str, tuple[Any, str]]:
    """The values an accepted action may list, by name: the type of each listed value and
    what the list holds, as the games declare them."""
    return {name: (kind.item, kind.description) for name, kind in listed_values().items()}


def _listed(item: Any, description: str) -> tuple[Any, Any]:
    """A list of values of type ``item``, as a field a body may leave out."""
    return list[item], may_be_left_out(description=description)


_EXPECTED_ACTION_FIELDS: dict[str, Any] = {
    "type": (str, Field(description="The action's `type`.")),
    **{name: _listed(item, text) for name, (item, text) in _listed_values().items()},
}
ExpectedAction = create_model(
    "ExpectedAction",
    __base__=ApiModel,
    __doc__=(
        "One action type accepted now. A list present names every value accepted now; a "
        "list left out means any value the rules allow (dice, points)."
    ),
    **_EXPECTED_ACTION_FIELDS,
)


class Expected(ApiModel):
    """What the game accepts now, as its engine says: an action whose type is not listed is
    refused."""

    seat: int | None = Field(
        ge=0,
        description=(
            "The 0-based seat whose move it is; null when the entry is the table's (a trump "
            "card turned up) or the game is over."
        ),
    )
    actions: list[ExpectedAction] = Field(  # type: ignore[valid-type]
        description=(
            "Every action type accepted now; empty once the game is over (but for a revoke "
            "flag still open after the last trick)."
        )
    )


class Standing(ApiModel):
    """One seat's place: rank 1 leads; tied seats share a rank (1, 1, 3)."""

    seat: int = Field(ge=0, description="The seat's index in `seats` (0 is the first seat).")
    name: str
    score: int
    rank: int = Field(ge=1)


class DeckProfile(ApiModel):
    id: str
    name: Name
    sizes: DeckSizes


class CreatedDeckProfile(DeckProfile):
    edit_key: str = Field(
        description="Send it as `deck_key` to play a later session with this deck."
    )


class SessionLinks(ApiModel):
    view: Uri = Field(description="The scoreboard page.")
    export: Uri = Field(description="This session's JSON export.")
    history: Uri = Field(description="The first page of the session's event log.")
    rounds: Uri = Field(description="The first page of the session's past rounds or turns.")


class CreatedSessionLinks(SessionLinks):
    join: Uri = Field(description="Opening it lets a browser record too.")


_DECK_PROFILE = (
    f"{_SIZED_GAMES} only: the deck profile the session plays with. Its id shows its page "
    "(read only); changing it takes its key."
)
_STATE = (
    "The game's own state, as the table needs it now: every field of the engine's state but "
    "its history (the past rounds or turns, paged by `GET /sessions/{session_id}/rounds`), "
    "with what the table needs of them now (the round's turns so far, the newest round's "
    "result); cards as text (`blue 9`, `10D`), sets as sorted lists, seats as indexes from 0. "
    "Its size does not grow with the session. Its schema is the one of the session's `game`."
)


def _each_game(state: bool) -> Callable[[dict[str, Any]], None]:
    """(A session model's ``json_schema_extra``.) The options and, with ``state``, the
    state's schema of the session's `game`, one branch per game."""

    def add(schema: dict[str, Any]) -> None:
        states, _, _ = state_schemas()
        schema["oneOf"] = [
            {
                "title": slug,
                "properties": {
                    "game": {"const": slug},
                    "options": ref(schema_name(slug, "Options")),
                    **({"state": states[slug]} if state else {}),
                },
            }
            for slug in GAME_SLUGS
        ]

    return add


class _Session(ApiModel):
    """(What every answer carrying a session holds, beside its state and links.)"""

    id: str = Field(description="The session id: whoever has it can watch the session.")
    game: GameSlug
    version: int = Field(
        ge=0, description="Rises by one with every write; send it back with the next."
    )
    seats: list[str]
    options: Any = Field(description="Every option of the game, with the given or default value.")
    ruling: str = Field(
        description="The game's latest ruling, as a sentence in the asked language."
    )
    ruling_code: Said | None = may_be_left_out(  # type: ignore[valid-type]
        description=(
            "Only for a request that names a language: the ruling's code and values; null "
            "for a ruling said in English words alone (no phrase yet)."
        )
    )
    finished: bool
    winners: list[Annotated[int, Field(ge=0)]] = Field(
        description="Seat indexes of the winners once finished; empty before."
    )
    started_at: Moment = Field(description="When the session was started (UTC).")
    finished_at: Moment | None = Field(
        description=(
            "When a write made the session finished (UTC); null while in play (an undo of "
            "the last move makes it null again)."
        )
    )
    rematch_of: str | None = Field(
        description="The id of the finished session this one is the rematch of."
    )
    standings: list[Standing]
    can_undo: bool
    can_redo: bool
    expected: Expected
    deck_profile: DeckProfile = may_be_left_out(description=_DECK_PROFILE)


class SessionFields(_Session):
    """A write's answer when it sent `Prefer: return=minimal`: the session as it stands
    after the write, without the game's state."""

    model_config = ConfigDict(json_schema_extra=_each_game(state=False))

    links: SessionLinks


class SessionState(_Session):
    """A session as it stands after replaying its live events."""

    model_config = ConfigDict(json_schema_extra=_each_game(state=True))

    state: Any = Field(description=_STATE)
    links: SessionLinks


class StaleVersion(_Session):
    """A write with an old version: the session's current state, at the same place as in a
    2xx answer, with the error beside it."""

    model_config = ConfigDict(json_schema_extra=_each_game(state=True))

    state: Any = may_be_left_out(
        description=_STATE + " Left out when the write sent `Prefer: return=minimal`."
    )
    links: SessionLinks
    error: str = Field(description="A sentence a player can read, in the asked language.")
    field: Literal["version"] = Field(json_schema_extra=without_type)
    code: str = may_be_left_out(
        description="Only for a request that names a language: `api.stale-version`.",
        json_schema_extra=_error_codes,
    )
    values: dict[str, SaidValue] = may_be_left_out(description="With `code`: `version`, now.")


class CreatedSession(SessionState):
    """A new session: its state, the edit key (shown only this once) and a “score with me”
    link that hands the key to another phone."""

    deck_profile: CreatedDeckProfile = may_be_left_out(description=_DECK_PROFILE)
    links: CreatedSessionLinks
    edit_key: str = Field(description="Send as `Authorization: Bearer <edit_key>`.")


class NextGame(SessionState):
    """The next game at a finished session's table, with its edit key and “score with me”
    link: a finished session has one next game."""

    deck_profile: CreatedDeckProfile = may_be_left_out(description=_DECK_PROFILE)
    links: CreatedSessionLinks
    already_started: bool = Field(
        description=(
            "False when this request started the next game (201); true when an earlier "
            "request or tap had, from any phone, and this one lands on it (200)."
        )
    )
    edit_key: str = Field(description="Send as `Authorization: Bearer <edit_key>`.")


class NewSession(ApiModel):
    """Seats named in `seats`, or a group's `players` (with `group`, and the group's key as
    a Bearer token)."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [{"required": ["seats"]}, {"required": ["group", "players"]}],
            "dependentRequired": {"deck_key": ["deck_profile"]},
            # A group's session plays with the group's deck on the group's key alone.
            "if": {"required": ["deck_profile"], "not": {"required": ["group"]}},
            "then": {"required": ["deck_key"]},
            "not": {"required": ["deck_profile", "new_deck_name"]},
        }
    )

    game: GameSlug
    group: str = may_be_left_out(
        description=(
            "The id of the group whose players sit down: the session is the group's. Needs "
            "the group's key as `Authorization: Bearer <key>`."
        )
    )
    players: list[Annotated[int, Field(ge=1)]] = may_be_left_out(
        min_length=1,
        description=(
            "With `group`: the ids of its players in seat order, each once. The seats take "
            "the players' names."
        ),
    )
    seats: list[Name] = may_be_left_out(
        min_length=1,
        max_length=max(game.max_players for game in GAMES.values()),
        description=(
            "Player names in table order, each unique (ignoring case), at most 40 characters "
            "as sent, no control characters; runs of spaces are then squeezed to one."
        ),
    )
    options: AnyOptions = Field(
        default={}, description="The game's options; each one left out takes its default."
    )
    deck_profile: str = may_be_left_out(
        description=(
            f"{_SIZED_GAMES} only: the id of the deck profile (the sizes printed on your "
            "physical deck) to play with; needs `deck_key`, unless it is the deck of the "
            "session's `group`."
        )
    )
    deck_key: str = may_be_left_out(
        description=(
            "With `deck_profile`: the profile's key (`deck_profile.edit_key` of the answer "
            "that created a session with it). Playing with a deck teaches it sizes, so it "
            "takes the key."
        )
    )
    new_deck_name: str = may_be_left_out(
        max_length=40,
        description=(
            f"{_SIZED_GAMES} only, without `deck_profile`: the name of the new deck profile "
            "made for this session (default “My <game> deck”)."
        ),
    )


class EventRequest(ApiModel):
    version: Version
    action: Any = refs_to(_game_schema_names("Action"))
    request_key: RequestKey = may_be_left_out()


class SessionVersion(ApiModel):
    version: int = Field(ge=0, description="The session's current version; every write adds one.")


class VersionRequest(ApiModel):
    version: Version
    request_key: RequestKey = may_be_left_out()


class RematchRequest(ApiModel):
    request_key: RequestKey = may_be_left_out(
        description=(
            "Optional: a fresh random string for each new rematch. The identical request sent "
            "again with the same key answers as it did the first time; the same key with a "
            "different request (a rematch of another session, say) is refused with 422."
        )
    )


class ExportedDeckProfile(ApiModel):
    name: Name
    sizes: DeckSizes


class ExportedSeat(ApiModel):
    position: int = may_be_left_out(
        ge=0,
        description="The seat's index (0 is the first seat); an import reads the seats in "
        "their order.",
    )
    name: Name


class Correction(ApiModel):
    action: Any = refs_to(
        _game_schema_names("Action"), description="The action before this correction."
    )
    text: str = may_be_left_out(json_schema_extra={"readOnly": True})
    corrected_at: Moment = Field(
        description="When the correction was made (UTC; an import takes a time without a "
        "zone as UTC)."
    )


class ExportedEvent(ApiModel):
    seq: int = Field(description="Rises from one event to the next.")
    action: Any = refs_to(
        _game_schema_names("Action"), description="The game's action, as in EventRequest."
    )
    # Written in every export, and read as false when left out of a file.
    undone: bool = Field(json_schema_extra={"default": False})
    redoable: bool = Field(
        description="Undone and still restorable by redo.", json_schema_extra={"default": False}
    )
    text: str = ReadOnly
    ruling: str | None = Field(
        description="The ruling when applied; null if undone.",
        json_schema_extra={"readOnly": True},
    )
    corrections: list[Correction] = may_be_left_out(
        description=(
            "Only on a corrected event: what each correction replaced, oldest first (the "
            "event's action is what the newest one made it). An import keeps them for its "
            "history."
        )
    )


class ExportedRow(ApiModel):
    round: int = Field(ge=1)
    seat: int = Field(ge=0, description="The seat's index (0 is the first seat).")
    player: str
    points: int
    running_total: int
    note: str


class ExportedStanding(ApiModel):
    rank: int = Field(ge=1)
    seat: int = Field(ge=0)
    player: str
    score: int


_SESSION_EXPORT = (
    "Everything needed to rebuild an identical session. The read-only parts (rounds, "
    "standings, finished, winners, each event's text and ruling) are for readers of the "
    "file: an import ignores them and recomputes them by replay."
)


class SessionExport(ApiModel):
    model_config = ConfigDict(json_schema_extra={"description": _SESSION_EXPORT})

    deck_profile: ExportedDeckProfile = may_be_left_out(
        description=(
            f"{_SIZED_GAMES} only: the name and known sizes of the deck profile; an import "
            "makes the importer a profile of their own from it."
        )
    )
    format: Literal["tabletop-scorekeeper/session"] = Field(json_schema_extra=without_type)
    format_version: Literal[READABLE_VERSIONS] = Field(  # type: ignore[valid-type]
        description=(
            f"{FORMAT_VERSION} in every export. An import reads versions 1 and 2 too (a "
            "version 1 file counted the seat an option names from 1, and is converted)."
        ),
        json_schema_extra=without_type,
    )
    game: GameSlug
    options: AnyOptions
    seats: list[ExportedSeat]
    events: list[ExportedEvent] = Field(description="Every event in log order, undone ones too.")
    rounds: list[ExportedRow] = Field(
        description="One row per seat per round (or turn), as in the CSV export.",
        json_schema_extra={"readOnly": True},
    )
    standings: list[ExportedStanding] = ReadOnly
    finished: bool = ReadOnly
    winners: list[str] = Field(
        description="The winners' names once finished; empty before.",
        json_schema_extra={"readOnly": True},
    )
    started_at: Moment | None = may_be_left_out(
        description="When the session was started (UTC). An import keeps it; a file without "
        "it starts the imported session at the import."
    )
    finished_at: Moment | None = may_be_left_out(
        description="When the session ended (UTC, not before `started_at`); null while in "
        "play. An import of a finished session keeps it; without it the session ends at the "
        "import."
    )


PageNumber = Annotated[int, Field(ge=1)]


class PageLinks(ApiModel):
    session: Uri = Field(description="The session's state.")
    newer: Uri | None = Field(description="The page of newer items; null on page 1.")
    older: Uri | None = Field(description="The page of older items; null on the last page.")


class _Page(ApiModel):
    """(What every page of a session's past holds.)"""

    id: str = Field(description="The session id.")
    version: int = Field(ge=0, description="The session's version this page was read at.")
    page: PageNumber = Field(description="This page: 1 holds the newest items.")
    pages: PageNumber = Field(description="How many pages there are (an empty list has one).")
    page_size: PageNumber = Field(description="The most items of each list a page holds.")
    links: PageLinks


class HistoryPage(_Page):
    """A page of a session's event log, as the history page pages it: page 1 holds the
    newest events, each next page older ones; oldest first within a page (the history
    page lists them newest first)."""

    events_count: int = Field(ge=0, description="How many events the log holds, undone ones too.")
    events: list[ExportedEvent] = Field(description="This page's events, as the export has them.")


def _each_games_history(schema: dict[str, Any]) -> None:
    """(RoundsPage's ``json_schema_extra``.) The history records of the session's `game`,
    one branch per game."""
    _, histories, _ = state_schemas()
    schema["oneOf"] = [
        {"title": slug, "properties": {"game": {"const": slug}, "records": histories[slug]}}
        for slug in GAME_SLUGS
    ]


class RoundsPage(_Page):
    """A page of a session's past rounds (or turns): its score rows, as the export's
    `rounds`, and the records its game keeps of them, the history fields the state leaves
    out. Each list is paged by itself as the event log is: page 1 holds the newest
    `page_size` of each, each next page older ones, oldest first within a page; `pages`
    is the longest list's."""

    model_config = ConfigDict(json_schema_extra=_each_games_history)

    game: GameSlug
    rounds_count: int = Field(ge=0, description="How many score rows there are in all.")
    rounds: list[ExportedRow] = Field(
        description="This page's score rows: one per seat per round (or turn), as in the CSV "
        "export."
    )
    records_count: dict[str, Annotated[int, Field(ge=0)]] = Field(
        description="How many records each of the game's history lists holds in all."
    )
    records: Any = Field(
        description="This page of each of the game's history lists, by name, as the state "
        "carried them until 2026-11-28. Its schema is the one of the session's `game`."
    )


class GroupSeat(ExportedSeat):
    player: int | None = may_be_left_out(
        ge=0,
        description="The `number` of the group's player who sat there, or null for a seat of "
        "no player of the group.",
    )


class GroupSessionExport(SessionExport):
    model_config = ConfigDict(
        json_schema_extra={
            "description": "A session export (`SessionExport`) whose seats also carry "
            "`player`. " + _SESSION_EXPORT
        }
    )

    # A group's export narrows the seats of a session's (pydantic takes it, mypy cannot).
    seats: list[GroupSeat]  # type: ignore[assignment]
    deck: int | None = may_be_left_out(
        ge=0,
        description="The `number` of the group's deck it played with (its `deck_profile` "
        "then says the same); left out or null: a deck of no group's, copied on import.",
    )


MODELS: tuple[type[BaseModel], ...] = (
    *SAID_MODELS,
    Error,
    Expected,
    ExpectedAction,
    Standing,
    SessionState,
    SessionFields,
    StaleVersion,
    CreatedSession,
    NextGame,
    NewSession,
    EventRequest,
    SessionVersion,
    VersionRequest,
    RematchRequest,
    SessionExport,
    GroupSessionExport,
    HistoryPage,
    RoundsPage,
    *OPTIONS_MODELS,
)


def _responses() -> Schema:
    return {
        "BadRequest": error_response(
            "The body is not a JSON object (or nests too deeply, or holds a number too long to "
            "read), or the request was sent to a host name the server does not answer to (its "
            "`TRUSTED_HOSTS` setting).",
            "The request body must be a JSON object (Content-Type: application/json).",
        ),
        "Unauthorized": error_response(
            "No edit key was sent.",
            "Send the session's edit key as “Authorization: Bearer <key>”.",
        ),
        "Forbidden": error_response(
            "The edit key is not this session's.",
            "That edit key does not belong to this session.",
        ),
        "NotFound": error_response(
            "No session has this id.",
            "No session has this link. Check the address, or start a new session.",
        ),
        "StaleVersion": {
            "description": (
                "The session changed since the client's version: nothing was recorded; the "
                "answer is the current state, as a 2xx would carry it, with `error` and `field`."
            ),
            "content": json_content(
                ref(StaleVersion),
                {
                    **_SESSION_STATE_EXAMPLE,
                    "version": 1,
                    "error": "The session changed (now at version 1): here is the new state.",
                    "field": "version",
                },
            ),
        },
        "BadText": error_response(
            "A query argument with a control character or an unpaired surrogate.",
            "“q” contains a control character; remove it.",
            "q",
        ),
        "UntrustedHost": error_response(
            "The request was sent to a host name the server does not answer to (its "
            "`TRUSTED_HOSTS` setting), or its Host header names no host a web address can "
            "hold.",
            UNTRUSTED_HOST,
        ),
        "ServerError": error_response(
            "An unexpected error on the server.", InternalServerError.description or ""
        ),
        "TooLarge": error_response(
            "The request body is larger than the server takes: its `MAX_CONTENT_LENGTH`, "
            "512 KiB unless set otherwise (an imported file has a limit of its own).",
            "The request is 601 KiB; a request may be at most 512 KiB.",
            "body",
        ),
    }


# --- Paths ---------------------------------------------------------------------


def _paths() -> Schema:
    session_param = [{"$ref": "#/components/parameters/SessionId"}]
    write_note = (
        "Needs the edit key as a Bearer token and the version the client last saw. "
        "The same request sent again with the same `request_key`, whatever its `version`, "
        "records nothing new and answers what the first answer said; the same key with "
        "another request is refused."
    )
    return {
        "/sessions": {
            "post": {
                "operationId": "createSession",
                "tags": ["sessions"],
                "summary": "Start a session",
                "description": (
                    "Creates a session with its seats and options. No key needed, but for a "
                    "session of a group: its key as `Authorization: Bearer <key>`."
                ),
                "requestBody": body(
                    "The game, the seats in table order and the options.",
                    NewSession,
                    {"game": "yardkle", "seats": ["Ana", "Bo"], "options": {}},
                ),
                "responses": {
                    "201": ok(
                        "The new session, with its edit key (returned only this once).",
                        CreatedSession,
                        _CREATED_EXAMPLE,
                    ),
                    **standard_errors(400, 413),
                    "401": error_response(
                        "A session of a group, without the group's key.",
                        "Send the group's edit key as “Authorization: Bearer <key>”.",
                    ),
                    "403": error_response(
                        "A session of a group, with a key that is not the group's.",
                        "That edit key does not belong to this group.",
                    ),
                    "422": error_response(
                        "An unknown game, bad seats, a bad option, an unknown group, or a "
                        "player who is unknown, of another group or chosen twice.",
                        "Two seats are called Ana; give each seat its own name.",
                        "seats.2",
                    ),
                },
            }
        },
        "/sessions/import": {
            "post": {
                "operationId": "importSession",
                "tags": ["sessions"],
                "summary": "Rebuild a session from an export",
                "description": (
                    "Creates a new session identical to an exported one (see "
                    "`GET /sessions/{session_id}/export`), with a new id and a new edit key. "
                    "Every event is replayed and checked by the rules."
                ),
                "requestBody": body("A file from the JSON export.", SessionExport, _EXPORT_EXAMPLE),
                "responses": {
                    "201": ok(
                        "The new session, with its edit key (returned only this once).",
                        CreatedSession,
                        _CREATED_EXAMPLE,
                    ),
                    **standard_errors(400),
                    "413": file_too_large(
                        "a session file", size_text(FILE_MAX_BYTES), size_text(FILE_MAX_BYTES + 1)
                    ),
                    "422": error_response(
                        "Not an export of this app, another format version, bad seats or "
                        "options, or an event the rules refuse.",
                        "This is not a session file exported by Tabletop Scorekeeper.",
                        "format",
                    ),
                },
            }
        },
        "/sessions/{session_id}": {
            "get": {
                "operationId": "readSession",
                "tags": ["sessions"],
                "summary": "Read a session",
                "parameters": session_param,
                "responses": {
                    "200": ok("The session's current state.", SessionState, _SESSION_STATE_EXAMPLE),
                    **standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/history": _page_path(
            "readSessionHistory",
            "Read a page of a session's event log",
            "The events as the history page pages them: page 1 holds the newest 100, each "
            "next page older ones, oldest first within a page (the history page lists them "
            "newest first; the pages joined from the last are the log), each with "
            "its text, its ruling, whether it is undone or redoable and, if corrected, what "
            "each correction replaced (as in the export).",
            HistoryPage,
            _HISTORY_EXAMPLE,
            "This history has pages 1 to 3.",
        ),
        "/sessions/{session_id}/rounds": _page_path(
            "readSessionRounds",
            "Read a page of a session's past rounds",
            "What the state leaves out: each past round's (or turn's) score rows, and the "
            "records the game keeps of its rounds, turns or scorings, a page at a time "
            "(page 1 holds the newest 100 of each list).",
            RoundsPage,
            _ROUNDS_EXAMPLE,
            "This list of rounds has pages 1 to 2.",
        ),
        "/sessions/{session_id}/version": {
            "get": {
                "operationId": "readSessionVersion",
                "tags": ["sessions"],
                "summary": "Check whether a session changed",
                "description": (
                    "The session's version alone, without computing its state: the cheap "
                    "check a page polls to learn that another phone recorded something. The "
                    "answer carries an `ETag`; sent back as `If-None-Match`, an unchanged "
                    "session answers 304 with no body. On PostgreSQL a server of several "
                    "workers may answer the version before a write for the fraction of a "
                    "millisecond the news of it takes to reach them; a write's own answer "
                    "carries its version, and an `If-None-Match` naming a newer version "
                    "than one heard of is checked against the database."
                ),
                "parameters": [
                    *session_param,
                    {
                        "name": "If-None-Match",
                        "in": "header",
                        "required": False,
                        "description": "The `ETag` of the previous answer.",
                        "schema": schema_of(str),
                    },
                ],
                "responses": {
                    "200": {
                        **ok("The session's version.", SessionVersion, {"version": 12}),
                        "headers": {
                            "ETag": {
                                "description": "The version, as an entity tag.",
                                "schema": schema_of(str),
                            }
                        },
                    },
                    "304": {"description": "The session is still at the version of the ETag."},
                    **standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/events": _session_write(
            "appendEvent",
            "Record an action",
            "Records one action, if the rules allow it at this point of the game; a refused "
            "action records nothing. A new action ends the redo trail. " + write_note,
            body(
                "The version the client saw and the action.",
                EventRequest,
                {
                    "version": 0,
                    "action": {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]},
                    "request_key": "7d0f3c52-9b1e-4a8e-bd2f-0c6e21a4f9d1",
                },
            ),
            201,
            "The action was recorded (or had been, for a retried `request_key`): the new state.",
            error_response(
                "The rules refuse the action, or a field is malformed.",
                "Die 1 is 7: a die shows 1 to 6.",
                "dice",
            ),
        ),
        "/sessions/{session_id}/undo": _session_write(
            "undo",
            "Undo the newest event",
            "Marks the newest live event undone: it stays in the history, struck through, "
            "and redo can restore it. " + write_note,
            body(
                "The version the client saw.",
                VersionRequest,
                {"version": 1, "request_key": "e3a91b07-5c44-4f0b-9d7a-2b8f6c1e0a35"},
            ),
            200,
            "The state after the undo.",
            error_response(
                "Nothing to undo, or a malformed version or request key.",
                "Nothing to undo: no event is recorded yet.",
            ),
        ),
        "/sessions/{session_id}/redo": _session_write(
            "redo",
            "Redo the most recently undone event",
            "Restores the most recently undone event, checked by the rules again. " + write_note,
            body(
                "The version the client saw.",
                VersionRequest,
                {"version": 2, "request_key": "0b6d7e21-8f3a-4c95-a1e4-7d2c9f5b3e60"},
            ),
            200,
            "The state after the redo.",
            error_response(
                "Nothing to redo, the rules refuse the event now, or a malformed version or "
                "request key.",
                "Nothing to redo.",
            ),
        ),
        "/sessions/{session_id}/rematch": {
            "post": {
                "operationId": "rematchSession",
                "tags": ["sessions"],
                "summary": "Play again",
                "description": (
                    "Starts the next game at a finished session's table: the same seats, "
                    "options and deck profile, with the first player or dealer moved on as "
                    "the game's rules have it. The new session has its own id and edit key "
                    "and names the finished one in `rematch_of`. A finished session has one "
                    "next game: once a request (or a tap on the page) has started it, every "
                    "later rematch of the session, with a new `request_key` or none, answers "
                    "it with 200 and `already_started: true`. Needs the finished session's "
                    "edit key as a Bearer token. The identical request sent again with the "
                    "same `request_key` answers as it did the first time."
                ),
                "security": [{"editKey": []}],
                "parameters": session_param,
                "requestBody": body(
                    "An empty object, or an optional request key.",
                    RematchRequest,
                    {"request_key": "5f1c9a2e-3b7d-4e60-8a14-c2d9e7b0f3a6"},
                ),
                "responses": {
                    "200": ok(
                        "The next game an earlier request or tap started, with its edit key.",
                        NextGame,
                        {**_REMATCH_EXAMPLE, "already_started": True},
                    ),
                    "201": ok(
                        "The next game this request started, with its edit key.",
                        NextGame,
                        {**_REMATCH_EXAMPLE, "already_started": False},
                    ),
                    **standard_errors(400, 401, 403, 404, 413),
                    "422": error_response(
                        "The session is still in play, or a malformed request key, or one "
                        "another request used.",
                        "This Yardkle session is still in play: play again once it is finished.",
                        "session",
                    ),
                },
            }
        },
        "/sessions/{session_id}/export": {
            "get": {
                "operationId": "exportSession",
                "tags": ["export"],
                "summary": "Export a session as JSON",
                "description": "The file `POST /sessions/import` reads back.",
                "parameters": session_param,
                "responses": {
                    "200": {
                        "description": "The session's export.",
                        "content": json_content(
                            {
                                "allOf": [ref(SessionExport)],
                                "properties": {
                                    "format_version": schema_of(
                                        Annotated[
                                            Literal[FORMAT_VERSION],
                                            Field(json_schema_extra=without_type),
                                        ]
                                    )
                                },
                            },
                            _EXPORT_EXAMPLE,
                        ),
                    },
                    **standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/export.csv": {
            "get": {
                "operationId": "exportSessionCsv",
                "tags": ["export"],
                "summary": "Export a session's results as CSV",
                "description": (
                    "One row per seat per round (or turn) with the columns game, round, "
                    "seat, player, points, running_total, note, place, winner, rating, "
                    "rating_change, game_rating, game_rating_change, started_at, "
                    "finished_at. game is the game played (a score sheet's own name for it, "
                    "else the game's title); seat is the seat's index (0 is the first "
                    "seat); note is as the pages show it (cards with suit symbols: J♣); "
                    "place (1 first, ties share) and winner (yes or no) are the seat's at "
                    "the end, blank while in play; rating and rating_change (over all the "
                    "group's games), game_rating and game_rating_change (in this game) are "
                    "the seat's group player's rating after the session and how much it moved "
                    "it, to one decimal as the statistics page shows them (blank for a seat "
                    "of no group player, and while in play); started_at and finished_at (UTC; "
                    "finished_at blank while in play) are on the first row only. Lines end "
                    "in CRLF; text starting with =, +, -, @ is prefixed with ' so "
                    "spreadsheets keep it as text."
                ),
                "parameters": session_param,
                "responses": {
                    "200": {
                        "description": "The CSV file, with a header row.",
                        "content": {
                            "text/csv": {
                                "schema": schema_of(str),
                                "example": _CSV_EXAMPLE,
                            }
                        },
                    },
                    **standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/export-grid.csv": {
            "get": {
                "operationId": "exportSessionGridCsv",
                "tags": ["export"],
                "summary": "Export a session as a score sheet's grid (CSV)",
                "description": (
                    "The rounds-by-players grid of a paper score sheet: a first row of "
                    "round and each player's name in seat order; a row per round (or turn) "
                    "with each seat's points in it (blank for a seat with none); a total "
                    "row; once the session is finished, a place row (1 first, ties share). "
                    "Lines end in CRLF; text starting with =, +, -, @ is prefixed with '."
                ),
                "parameters": session_param,
                "responses": {
                    "200": {
                        "description": "The CSV grid, a row per round and a column per player.",
                        "content": {
                            "text/csv": {
                                "schema": schema_of(str),
                                "example": _GRID_EXAMPLE,
                            }
                        },
                    },
                    **standard_errors(404),
                },
            }
        },
        "/openapi.json": {
            "get": {
                "operationId": "openapiDocument",
                "tags": ["meta"],
                "summary": "This document",
                "responses": {
                    "200": {
                        "description": "The OpenAPI 3.1 document of this API.",
                        "content": json_content(schema_of(dict[str, Any])),
                    }
                },
            }
        },
    }


def _page_path(
    operation_id: str,
    summary: str,
    description: str,
    model: type[BaseModel],
    example: Schema,
    past_the_last: str,
) -> Schema:
    """A paged read of a session's past: anyone with the session's id may read it."""
    return {
        "get": {
            "operationId": operation_id,
            "tags": ["sessions"],
            "summary": summary,
            "description": description,
            "parameters": [
                {"$ref": "#/components/parameters/SessionId"},
                {
                    "name": "page",
                    "in": "query",
                    "required": False,
                    "description": "The page: 1 (the newest, unless asked) to `pages`.",
                    "schema": schema_of(PageNumber),
                },
            ],
            "responses": {
                "200": ok("The page.", model, example),
                "400": error_response(
                    "`page` is not a whole number from 1, or the request was sent to a host "
                    "name the server does not answer to (its `TRUSTED_HOSTS` setting).",
                    "“page” must be a whole number from 1.",
                    "page",
                ),
                "404": {
                    "description": "No session has this id (`field` null), or the page is "
                    "past the last (`field`: `page`).",
                    "content": json_content(
                        ref("Error"), {"error": past_the_last, "field": "page"}
                    ),
                },
            },
        }
    }


def _game_components() -> dict[str, Schema]:
    """Every game's own schemas: its actions and what its endpoints take and answer."""
    schemas: dict[str, Schema] = {}
    for slug, game in adapters().items():
        schemas |= game_actions(schema_name(slug, ""), GAMES[slug], game.api_actions)
    operations = [operation for game in adapters().values() for operation in game.api_operations]
    made = components(operation_models(operations))
    for operation in operations:
        said_beside(made[operation.answer.__name__], ref(Said))
    return schemas | made


def _game_paths() -> Schema:
    """The endpoints the games add of their own: trick judges and calculators."""
    return {
        operation.path: game_operation(operation)
        for game in adapters().values()
        for operation in game.api_operations
    }


_ACCEPT_LANGUAGE: Schema = {"$ref": "#/components/parameters/AcceptLanguage"}
_LANGUAGES: list[Any] = list(LANGUAGES)


def _says_its_language(response: Schema) -> Schema:
    """(A response, changed in place.) With its `Content-Language` header."""
    response["headers"] = {
        **response.get("headers", {}),
        "Content-Language": {"$ref": "#/components/headers/ContentLanguage"},
    }
    return response


def _answered_everywhere(paths: Schema) -> Schema:
    """Every operation with the answers any request can get: a crash (500) and, checked
    before any endpoint reads the request, a host the server does not answer to (400) and
    query text that is no text (422)."""
    for item in paths.values():
        for operation in item.values():
            operation["parameters"] = [*operation.get("parameters", ()), _ACCEPT_LANGUAGE]
            responses = operation["responses"]
            for response in responses.values():
                if "$ref" not in response:
                    _says_its_language(response)
            responses.setdefault("400", {"$ref": "#/components/responses/UntrustedHost"})
            responses.setdefault("422", {"$ref": "#/components/responses/BadText"})
            responses["500"] = {"$ref": "#/components/responses/ServerError"}
            operation["responses"] = dict(sorted(responses.items()))
    return paths


@functools.cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1.0 document of the JSON API v1 (made once, generating its schemas
    takes a while: callers must not change it)."""
    return {
        "openapi": OPENAPI_VERSION,
        "info": {
            "title": "Tabletop Scorekeeper API",
            "version": API_VERSION,
            "description": DESCRIPTION,
        },
        "servers": [{"url": "/api/v1"}],
        "tags": [
            {"name": "sessions", "description": "Scorekeeping sessions and their event log."},
            {"name": "export", "description": "A session's results as JSON or CSV."},
            {"name": "groups", "description": "Friends who play together, and their sessions."},
            {"name": "judge", "description": "Stateless rulings: no session, no key."},
            {"name": "meta", "description": "About this API."},
        ],
        "paths": _answered_everywhere({**_paths(), **group_paths(), **_game_paths()}),
        "components": {
            "schemas": {
                **components(MODELS),
                **_game_components(),
                **group_schemas(),
                **state_schemas()[2],
                "PhraseCode": phrase_code_schema(),
            },
            "responses": {
                name: _says_its_language(response) for name, response in _responses().items()
            },
            "headers": {
                "ContentLanguage": {
                    "description": (
                        "The language of the answer's sentences: the one asked for, or `en`."
                    ),
                    "schema": schema_of(
                        Annotated[str, Field(json_schema_extra={"enum": _LANGUAGES})]
                    ),
                }
            },
            "parameters": {
                "SessionId": {
                    "name": "session_id",
                    "in": "path",
                    "required": True,
                    "description": "The session id (unguessable; it is also the view link).",
                    "schema": schema_of(Annotated[str, Field(max_length=32)]),
                },
                **PARAMETERS,
                "AcceptLanguage": {
                    "name": "Accept-Language",
                    "in": "header",
                    "required": False,
                    "description": (
                        "The languages the client reads, best first (RFC 9110): the answer's "
                        f"sentences are in the best of {and_list(_LANGUAGES)} it names, "
                        "English if none. A browser's language cookie (the pages' switch) "
                        "comes first."
                    ),
                    "schema": schema_of(Annotated[str, Field(examples=["fr-FR, fr;q=0.9"])]),
                },
            },
            "securitySchemes": {
                **SECURITY,
                "editKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The session's edit key, returned once as `edit_key`.",
                },
            },
        },
    }
