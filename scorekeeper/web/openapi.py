"""The OpenAPI 3.1 document of the JSON API v1, served at ``/api/v1/openapi.json``.

It describes exactly the endpoints of ``scorekeeper.web.api``: sessions (create,
import, read, events, undo, redo, export) and the stateless Yardkle scorer.
"""

from __future__ import annotations

from typing import Any

from werkzeug.exceptions import InternalServerError

from scorekeeper.export import FORMAT_VERSION, READABLE_VERSIONS
from scorekeeper.games import GAMES
from scorekeeper.games.base import Game, OptionSpec
from scorekeeper.games.cryptruck import rules as cryptruck
from scorekeeper.games.score_sheet import rules as score_sheet_rules
from scorekeeper.games.yadokarick import rules as yadokarick
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.games.yellow_dwarf import rules as yellow_dwarf
from scorekeeper.games.yokai_septet import rules as yokai_septet
from scorekeeper.web.state_schemas import state_schemas

Schema = dict[str, Any]

OPENAPI_VERSION = "3.1.0"
API_VERSION = "1.0.0"

DESCRIPTION = """\
Keep score of sessions of Yardkle, Yokai Septet, Cryptruck, Yadokarick, Yellow Dwarf and (on a
plain score sheet) any other game, rule on disputed tricks, settle Yellow Dwarf rounds and score
Yardkle rolls, from any client.

**Errors** are always JSON: `{"error": "<a sentence a player can read>", "field": "<name>" | null}`.
`field` names the input that is wrong (`"seats.2"`, `"options.winning_score"`, `"dice"`),
`"action"` when the rules refuse the whole move, or null for an error about no input (a missing
key, an unknown session). A path this document does not list answers 404, a method it does
not list for a path 405 (with `Allow`), both with this error body.

**What comes next.** Every answer carrying a session's state includes `expected`: the 0-based
seat whose move it is and every action type the game accepts now, with the accepted values
where they are few. An action whose type is not listed is refused.

**Edit key.** Whoever has a session's id may read it. Writes to a session (events, undo, redo)
need its edit key as `Authorization: Bearer <edit_key>`. The key is returned once, as
`edit_key`, when the session is created or imported: keep it. No key gets 401, a wrong key 403.

**Versions.** Every write carries the `version` of the session the client last saw. If the
session changed since (another phone at the table recorded something), the write is refused
with 409 and the current state of the session in `state`: show it, then try again.

**Retries.** A write may carry an optional `request_key`: a fresh random string (a UUID, say)
of up to 64 characters for each new write. Keys are scoped to this session. Sending the identical
request again with the same key records nothing new and answers exactly what the first answer
said; the same key with a different request is refused with 422 (`field`: `request_key`), and
nothing is recorded. Never reuse a key for another write.

**Deck profiles.** A Yadokarick session plays with a deck profile (the sizes printed on a
physical deck). Anyone may read a session's `deck_profile` (its id, name and sizes); changing
it takes a key. Creating or importing a session answers with the profile's `edit_key` once;
send it as `deck_key` to start a later session with the same deck.

**Text.** Names and other text must not contain control characters or unpaired surrogates
(422 naming the field). Unknown properties of a request body are refused with 422.
"""


def _ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: Schema, example: Any = None) -> Schema:
    """A JSON content map with a schema and, optionally, one example."""
    media: Schema = {"schema": schema}
    if example is not None:
        media["example"] = example
    return {"application/json": media}


def _error_example(message: str, field: str | None) -> Schema:
    return {"error": message, "field": field}


def _error(description: str, message: str, field: str | None = None) -> Schema:
    """A response whose body is the shared Error object."""
    return {
        "description": description,
        "content": _json(_ref("Error"), _error_example(message, field)),
    }


def _ok(description: str, schema_name: str, example: Any = None) -> Schema:
    return {"description": description, "content": _json(_ref(schema_name), example)}


def _body(description: str, schema_name: str, example: Any = None) -> Schema:
    return {
        "required": True,
        "description": description,
        "content": _json(_ref(schema_name), example),
    }


def _standard_errors(*codes: int) -> Schema:
    """References to the shared error responses, keyed by status code."""
    names = {
        400: "BadRequest",
        401: "Unauthorized",
        403: "Forbidden",
        404: "NotFound",
        409: "StaleVersion",
        413: "TooLarge",
    }
    return {str(code): {"$ref": f"#/components/responses/{names[code]}"} for code in codes}


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
    responses: Schema = {
        str(success_code): _ok(success_description, "SessionState"),
        **_standard_errors(400, 401, 403, 404, 409, 413),
        "422": refusal,
    }
    return {
        "post": {
            "operationId": operation_id,
            "tags": ["sessions"],
            "summary": summary,
            "description": description,
            "security": [{"editKey": []}],
            "parameters": [{"$ref": "#/components/parameters/SessionId"}],
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
    "turns": [],
    "final_round_by": None,
    "finished": False,
    "last_ruling": "Ana rolls first.",
}

_SESSION_STATE_EXAMPLE: Schema = {
    "id": _SESSION_ID,
    "game": "yardkle",
    "version": 0,
    "seats": ["Ana", "Bo"],
    "options": {"entry_threshold": 500, "winning_score": 10000},
    "ruling": "Ana rolls first.",
    "finished": False,
    "winners": [],
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
}

_CSV_EXAMPLE = (
    "round,seat,player,points,running_total,note\r\n1,1,Ana,650,650,entered as a total\r\n"
)

_SCORE_REQUEST_EXAMPLE: Schema = {"dice": [1, 1, 1, 5, 2, 3]}
_SCORE_EXAMPLE: Schema = {
    "points": 1050,
    "combos": [
        {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
        {"name": "single 5", "dice": [5], "points": 50},
    ],
    "yardkle": False,
}


# --- Schemas -------------------------------------------------------------------

_DIE: Schema = {"type": "integer", "minimum": 1, "maximum": 6}
_NAME: Schema = {"type": "string", "minLength": 1, "maxLength": 40}
_DECK_SIZES: Schema = {
    "type": "object",
    "description": "Card (“green 25”) → its printed size; only the cards whose size is known.",
    "additionalProperties": {"type": "integer", "minimum": 1, "maximum": 99},
}
_VERSION: Schema = {
    "type": "integer",
    "minimum": 0,
    "description": "The session version the client last saw (SessionState.version).",
}
_REQUEST_KEY: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": 64,
    "description": (
        "Optional: a fresh random string for each new write, scoped to this session. The "
        "identical request sent again with the same key records nothing new and gets the first "
        "answer again; the same key with a different request is refused with 422."
    ),
}


def _texts(description: str) -> Schema:
    return {"type": "array", "items": {"type": "string"}, "description": description}


def _schema_name(slug: str, kind: str) -> str:
    """``YokaiSeptetOptions`` for ("yokai-septet", "Options")."""
    return "".join(word.title() for word in slug.split("-")) + kind


def _game_refs(kind: str) -> list[Schema]:
    """A reference to every game's schema of a kind ("Options", "Action")."""
    return [_ref(_schema_name(slug, kind)) for slug in GAME_SLUGS]


def _session(description: str, *, created: bool, error: Schema | None = None) -> Schema:
    """A session's state as the API answers it; ``created``: with the keys and the join link
    of the answer that creates it; ``error``: with the error of a refused write beside it.

    The `game` picks which game's options and state the session carries.
    """
    deck_profile: Schema = {
        "type": "object",
        "description": (
            "Yadokarick only: the deck profile the session plays with. Its id "
            "shows its page (read only); changing it takes its key."
        ),
        "required": ["id", "name", "sizes", *(["edit_key"] if created else [])],
        "additionalProperties": False,
        "properties": {"id": {"type": "string"}, "name": _NAME, "sizes": _DECK_SIZES},
    }
    links: Schema = {
        "type": "object",
        "required": ["view", "export", *(["join"] if created else [])],
        "additionalProperties": False,
        "properties": {
            "view": {"type": "string", "format": "uri", "description": "The scoreboard page."},
            "export": {
                "type": "string",
                "format": "uri",
                "description": "This session's JSON export.",
            },
        },
    }
    extra: Schema = dict(error or {})
    if created:
        deck_profile["properties"]["edit_key"] = {
            "type": "string",
            "description": "Send it as `deck_key` to play a later session with this deck.",
        }
        links["properties"]["join"] = {
            "type": "string",
            "format": "uri",
            "description": "Opening it lets a browser record too.",
        }
        extra["edit_key"] = {
            "type": "string",
            "description": "Send as `Authorization: Bearer <edit_key>`.",
        }
    states, _ = state_schemas()
    return {
        "type": "object",
        "description": description,
        "required": [
            "id",
            "game",
            "version",
            "seats",
            "options",
            "ruling",
            "finished",
            "winners",
            "standings",
            "can_undo",
            "can_redo",
            "expected",
            "state",
            "links",
            *extra,
        ],
        "additionalProperties": False,
        "properties": {
            "id": {
                "type": "string",
                "description": "The session id: whoever has it can watch the session.",
            },
            "game": {"type": "string", "enum": GAME_SLUGS},
            "version": {
                "type": "integer",
                "minimum": 0,
                "description": "Rises by one with every write; send it back with the next.",
            },
            "seats": {"type": "array", "items": {"type": "string"}},
            "options": {
                "description": "Every option of the game, with the given or default value.",
            },
            "ruling": {
                "type": "string",
                "description": "The game's latest ruling, as a sentence.",
            },
            "finished": {"type": "boolean"},
            "winners": {
                "type": "array",
                "items": {"type": "integer", "minimum": 0},
                "description": "Seat indexes of the winners once finished; empty before.",
            },
            "standings": {"type": "array", "items": _ref("Standing")},
            "can_undo": {"type": "boolean"},
            "can_redo": {"type": "boolean"},
            "expected": _ref("Expected"),
            "deck_profile": deck_profile,
            "state": {
                "description": (
                    "The game's own state, every field of the engine's state: cards as text "
                    "(`blue 9`, `10D`), sets as sorted lists, seats as indexes from 0. Its "
                    "schema is the one of the session's `game`."
                ),
            },
            "links": links,
            **extra,
        },
        "oneOf": [
            {
                "title": slug,
                "properties": {
                    "game": {"const": slug},
                    "options": _ref(_schema_name(slug, "Options")),
                    "state": states[slug],
                },
            }
            for slug in GAME_SLUGS
        ],
    }


def _schemas() -> Schema:
    return {
        "Error": {
            "type": "object",
            "description": "Every error of this API.",
            "required": ["error", "field"],
            "additionalProperties": False,
            "properties": {
                "error": {"type": "string", "description": "A sentence a player can read."},
                "field": {
                    "type": ["string", "null"],
                    "description": (
                        'The input that is wrong (e.g. "seats.2", "dice"); "action" for a '
                        "refusal of the whole move; null for an error that is no refusal of "
                        "an input (a missing key, an unknown session)."
                    ),
                },
            },
        },
        "StaleVersion": _session(
            "A write with an old version: the session's current state, at the same place "
            "as in a 2xx answer, with the error beside it.",
            created=False,
            error={
                "error": {"type": "string", "description": "A sentence a player can read."},
                "field": {"const": "version"},
            },
        ),
        "Expected": {
            "type": "object",
            "description": (
                "What the game accepts now, as its engine says: an action whose type is not "
                "listed is refused."
            ),
            "required": ["seat", "actions"],
            "additionalProperties": False,
            "properties": {
                "seat": {
                    "type": ["integer", "null"],
                    "minimum": 0,
                    "description": (
                        "The 0-based seat whose move it is; null when the entry is the table's "
                        "(a trump card turned up) or the game is over."
                    ),
                },
                "actions": {
                    "type": "array",
                    "items": _ref("ExpectedAction"),
                    "description": (
                        "Every action type accepted now; empty once the game is over (but for "
                        "a revoke flag still open after the last trick)."
                    ),
                },
            },
        },
        "ExpectedAction": {
            "type": "object",
            "description": (
                "One action type accepted now. A list present names every value accepted now; "
                "a list left out means any value the rules allow (dice, points)."
            ),
            "required": ["type"],
            "additionalProperties": False,
            "properties": {
                "type": {"type": "string", "description": "The action's `type`."},
                "cards": _texts("The cards that may be played or tapped now, as written."),
                "ranks": _texts("The ranks accepted (Yellow Dwarf's “without”)."),
                "moves": _texts("The size marker's moves accepted (Yadokarick)."),
                "crabs": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "The crabs a card may go onto (solo Yadokarick).",
                },
                "sizes": _texts(
                    "The cards among `cards` whose printed size the session does not know "
                    "yet: playing one needs its `size` (Yadokarick)."
                ),
                "choices": {
                    "type": "array",
                    "items": {"type": ["string", "integer", "boolean"]},
                    "description": "The answers of a question (a bid, a revoke flag, “called?”).",
                },
            },
        },
        "Standing": {
            "type": "object",
            "description": "One seat's place: rank 1 leads; tied seats share a rank (1, 1, 3).",
            "required": ["seat", "name", "score", "rank"],
            "additionalProperties": False,
            "properties": {
                "seat": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "The seat's index in `seats` (0 is the first seat).",
                },
                "name": {"type": "string"},
                "score": {"type": "integer"},
                "rank": {"type": "integer", "minimum": 1},
            },
        },
        "SessionState": _session(
            "A session as it stands after replaying its live events.", created=False
        ),
        "CreatedSession": _session(
            "A new session: its state, the edit key (shown only this once) and a "
            "“score with me” link that hands the key to another phone.",
            created=True,
        ),
        "YardkleOptions": _options(
            yardkle.GAME, "Yardkle's options; each one left out takes its default."
        ),
        "NewSession": {
            "type": "object",
            "required": ["game", "seats"],
            "additionalProperties": False,
            "properties": {
                "game": {"type": "string", "enum": GAME_SLUGS},
                "seats": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": max(game.max_players for game in GAMES.values()),
                    "items": _NAME,
                    "description": (
                        "Player names in table order, each unique (ignoring case), at most 40 "
                        "characters as sent, no control characters; runs of spaces are then "
                        "squeezed to one."
                    ),
                },
                "options": {
                    "anyOf": [
                        _ref("YardkleOptions"),
                        _ref("YokaiSeptetOptions"),
                        _ref("CryptruckOptions"),
                        _ref("YadokarickOptions"),
                        _ref("YellowDwarfOptions"),
                        _ref("ScoreSheetOptions"),
                    ],
                    "default": {},
                    "description": "The game's options; each one left out takes its default.",
                },
                "deck_profile": {
                    "type": "string",
                    "description": (
                        "Yadokarick only: the id of the deck profile (the sizes printed on "
                        "your physical deck) to play with; needs `deck_key`."
                    ),
                },
                "deck_key": {
                    "type": "string",
                    "description": (
                        "With `deck_profile`: the profile's key (`deck_profile.edit_key` of "
                        "the answer that created a session with it). Playing with a deck "
                        "teaches it sizes, so it takes the key."
                    ),
                },
                "new_deck_name": {
                    "type": "string",
                    "maxLength": 40,
                    "description": (
                        "Yadokarick only, without `deck_profile`: the name of the new deck "
                        "profile made for this session (default “My Yadokarick deck”)."
                    ),
                },
            },
        },
        "EventRequest": {
            "type": "object",
            "required": ["version", "action"],
            "additionalProperties": False,
            "properties": {
                "version": _VERSION,
                "action": {
                    "anyOf": [
                        _ref("YardkleAction"),
                        _ref("YokaiSeptetAction"),
                        _ref("CryptruckAction"),
                        _ref("YadokarickAction"),
                        _ref("YellowDwarfAction"),
                        _ref("ScoreSheetAction"),
                    ]
                },
                "request_key": _REQUEST_KEY,
            },
        },
        "VersionRequest": {
            "type": "object",
            "required": ["version"],
            "additionalProperties": False,
            "properties": {"version": _VERSION, "request_key": _REQUEST_KEY},
        },
        "SessionExport": {
            "type": "object",
            "description": (
                "Everything needed to rebuild an identical session. The read-only parts "
                "(rounds, standings, finished, winners, each event's text and ruling) are "
                "for readers of the file: an import ignores them and recomputes them by replay."
            ),
            "required": [
                "format",
                "format_version",
                "game",
                "options",
                "seats",
                "events",
                "rounds",
                "standings",
                "finished",
                "winners",
            ],
            "additionalProperties": False,
            "properties": {
                "deck_profile": {
                    "type": "object",
                    "description": (
                        "Yadokarick only: the name and known sizes of the deck profile; an "
                        "import makes the importer a profile of their own from it."
                    ),
                    "required": ["name", "sizes"],
                    "additionalProperties": False,
                    "properties": {
                        "name": _NAME,
                        "sizes": _DECK_SIZES,
                    },
                },
                "format": {"const": "tabletop-scorekeeper/session"},
                "format_version": {
                    "enum": list(READABLE_VERSIONS),
                    "description": (
                        f"{FORMAT_VERSION} in every export. An import reads versions 1 and 2 "
                        "too (a version 1 file counted the seat an option names from 1, and "
                        "is converted)."
                    ),
                },
                "game": {"type": "string", "enum": GAME_SLUGS},
                "options": {"anyOf": _game_refs("Options")},
                "seats": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["name"],
                        "additionalProperties": False,
                        "properties": {
                            "position": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "The seat's index (0 is the first seat); an "
                                "import reads the seats in their order.",
                            },
                            "name": _NAME,
                        },
                    },
                },
                "events": {
                    "type": "array",
                    "description": "Every event in log order, undone ones too.",
                    "items": {
                        "type": "object",
                        "required": ["seq", "action", "undone", "redoable", "text", "ruling"],
                        "additionalProperties": False,
                        "properties": {
                            "seq": {
                                "type": "integer",
                                "description": "Rises from one event to the next.",
                            },
                            "action": {
                                "description": "The game's action, as in EventRequest.",
                                "anyOf": _game_refs("Action"),
                            },
                            "undone": {"type": "boolean", "default": False},
                            "redoable": {
                                "type": "boolean",
                                "default": False,
                                "description": "Undone and still restorable by redo.",
                            },
                            "text": {"type": "string", "readOnly": True},
                            "ruling": {
                                "type": ["string", "null"],
                                "readOnly": True,
                                "description": "The ruling when applied; null if undone.",
                            },
                        },
                    },
                },
                "rounds": {
                    "type": "array",
                    "readOnly": True,
                    "description": "One row per seat per round (or turn), as in the CSV export.",
                    "items": {
                        "type": "object",
                        "required": ["round", "seat", "player", "points", "running_total", "note"],
                        "additionalProperties": False,
                        "properties": {
                            "round": {"type": "integer", "minimum": 1},
                            "seat": {
                                "type": "integer",
                                "minimum": 0,
                                "description": "The seat's index (0 is the first seat).",
                            },
                            "player": {"type": "string"},
                            "points": {"type": "integer"},
                            "running_total": {"type": "integer"},
                            "note": {"type": "string"},
                        },
                    },
                },
                "standings": {
                    "type": "array",
                    "readOnly": True,
                    "items": {
                        "type": "object",
                        "required": ["rank", "seat", "player", "score"],
                        "additionalProperties": False,
                        "properties": {
                            "rank": {"type": "integer", "minimum": 1},
                            "seat": {"type": "integer", "minimum": 0},
                            "player": {"type": "string"},
                            "score": {"type": "integer"},
                        },
                    },
                },
                "finished": {"type": "boolean", "readOnly": True},
                "winners": {
                    "type": "array",
                    "readOnly": True,
                    "items": {"type": "string"},
                    "description": "The winners' names once finished; empty before.",
                },
            },
        },
        "YardkleScoreRequest": {
            "type": "object",
            "required": ["dice"],
            "additionalProperties": False,
            "properties": {
                "dice": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": _DIE,
                    "description": "One roll of 1 to 6 dice.",
                },
                "keep": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 6,
                    "items": _DIE,
                    "description": (
                        "Dice set aside from the roll: the answer scores exactly these, and "
                        "every one of them must be in the roll and score."
                    ),
                },
            },
        },
        "YardkleScore": {
            "type": "object",
            "required": ["points", "combos", "yardkle"],
            "additionalProperties": False,
            "properties": {
                "points": {"type": "integer", "minimum": 0},
                "combos": {
                    "type": "array",
                    "description": "The combos of the best split, highest points first.",
                    "items": {
                        "type": "object",
                        "required": ["name", "dice", "points"],
                        "additionalProperties": False,
                        "properties": {
                            "name": {"type": "string"},
                            "dice": {"type": "array", "items": _DIE},
                            "points": {"type": "integer"},
                        },
                    },
                },
                "yardkle": {
                    "type": "boolean",
                    "description": "True when no die scores: the turn is lost.",
                },
            },
        },
    }


def _responses() -> Schema:
    return {
        "BadRequest": _error(
            "The body is not a JSON object.",
            "The request body must be a JSON object (Content-Type: application/json).",
        ),
        "Unauthorized": _error(
            "No edit key was sent.",
            "Send the session's edit key as “Authorization: Bearer <key>”.",
        ),
        "Forbidden": _error(
            "The edit key is not this session's.",
            "That edit key does not belong to this session.",
        ),
        "NotFound": _error(
            "No session has this id.",
            "No session has this link. Check the address, or start a new session.",
        ),
        "StaleVersion": {
            "description": (
                "The session changed since the client's version: nothing was recorded; the "
                "answer is the current state, as a 2xx would carry it, with `error` and `field`."
            ),
            "content": _json(
                _ref("StaleVersion"),
                {
                    **_SESSION_STATE_EXAMPLE,
                    "version": 1,
                    "error": "The session changed (now at version 1): here is the new state.",
                    "field": "version",
                },
            ),
        },
        "BadText": _error(
            "A query argument with a control character or an unpaired surrogate.",
            "“q” contains a control character; remove it.",
            "q",
        ),
        "ServerError": _error(
            "An unexpected error on the server.", InternalServerError.description or ""
        ),
        "TooLarge": _error(
            "The request body is larger than the server accepts.",
            "The data value transmitted exceeds the capacity limit.",
        ),
    }


# --- Paths ---------------------------------------------------------------------


def _paths() -> Schema:
    session_param = [{"$ref": "#/components/parameters/SessionId"}]
    write_note = (
        "Needs the edit key as a Bearer token and the version the client last saw. "
        "The identical request sent again with the same `request_key` records nothing new and "
        "answers what the first answer said; the same key with another request is refused."
    )
    return {
        "/sessions": {
            "post": {
                "operationId": "createSession",
                "tags": ["sessions"],
                "summary": "Start a session",
                "description": "Creates a session with its seats and options. No key needed.",
                "requestBody": _body(
                    "The game, the seats in table order and the options.",
                    "NewSession",
                    {"game": "yardkle", "seats": ["Ana", "Bo"], "options": {}},
                ),
                "responses": {
                    "201": _ok(
                        "The new session, with its edit key (returned only this once).",
                        "CreatedSession",
                        _CREATED_EXAMPLE,
                    ),
                    **_standard_errors(400, 413),
                    "422": _error(
                        "An unknown game, bad seats or a bad option.",
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
                "requestBody": _body(
                    "A file from the JSON export.", "SessionExport", _EXPORT_EXAMPLE
                ),
                "responses": {
                    "201": _ok(
                        "The new session, with its edit key (returned only this once).",
                        "CreatedSession",
                        _CREATED_EXAMPLE,
                    ),
                    **_standard_errors(400, 413),
                    "422": _error(
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
                    "200": _ok(
                        "The session's current state.", "SessionState", _SESSION_STATE_EXAMPLE
                    ),
                    **_standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/events": _session_write(
            "appendEvent",
            "Record an action",
            "Records one action, if the rules allow it at this point of the game; a refused "
            "action records nothing. A new action ends the redo trail. " + write_note,
            _body(
                "The version the client saw and the action.",
                "EventRequest",
                {
                    "version": 0,
                    "action": {"type": "roll", "dice": [1, 1, 1, 5, 2, 3]},
                    "request_key": "7d0f3c52-9b1e-4a8e-bd2f-0c6e21a4f9d1",
                },
            ),
            201,
            "The action was recorded (or had been, for a retried `request_key`): the new state.",
            _error(
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
            _body(
                "The version the client saw.",
                "VersionRequest",
                {"version": 1, "request_key": "e3a91b07-5c44-4f0b-9d7a-2b8f6c1e0a35"},
            ),
            200,
            "The state after the undo.",
            _error(
                "Nothing to undo, or a malformed version or request key.",
                "Nothing to undo: no event is recorded yet.",
            ),
        ),
        "/sessions/{session_id}/redo": _session_write(
            "redo",
            "Redo the most recently undone event",
            "Restores the most recently undone event, checked by the rules again. " + write_note,
            _body(
                "The version the client saw.",
                "VersionRequest",
                {"version": 2, "request_key": "0b6d7e21-8f3a-4c95-a1e4-7d2c9f5b3e60"},
            ),
            200,
            "The state after the redo.",
            _error(
                "Nothing to redo, the rules refuse the event now, or a malformed version or "
                "request key.",
                "Nothing to redo.",
            ),
        ),
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
                        "content": _json(
                            {
                                "allOf": [_ref("SessionExport")],
                                "properties": {"format_version": {"const": FORMAT_VERSION}},
                            },
                            _EXPORT_EXAMPLE,
                        ),
                    },
                    **_standard_errors(404),
                },
            }
        },
        "/sessions/{session_id}/export.csv": {
            "get": {
                "operationId": "exportSessionCsv",
                "tags": ["export"],
                "summary": "Export a session's results as CSV",
                "description": (
                    "One row per seat per round (or turn) with the columns round, seat, "
                    "player, points, running_total, note; seat is the seat's index (0 is "
                    "the first seat). Lines end in CRLF; a name starting with =, +, -, @ is "
                    "prefixed with ' so spreadsheets keep it as text."
                ),
                "parameters": session_param,
                "responses": {
                    "200": {
                        "description": "The CSV file, with a header row.",
                        "content": {
                            "text/csv": {
                                "schema": {"type": "string"},
                                "example": _CSV_EXAMPLE,
                            }
                        },
                    },
                    **_standard_errors(404),
                },
            }
        },
        "/yardkle/score": {
            "post": {
                "operationId": "scoreYardkle",
                "tags": ["judge"],
                "summary": "Score a Yardkle roll",
                "description": (
                    "Stateless, no key. With `dice` only: the best score of the roll (dice "
                    "that score nothing may be left). With `keep`: the points of exactly those "
                    "dice, 422 if a kept die is not in the roll or scores nothing."
                ),
                "requestBody": _body(
                    "The roll and, optionally, the dice kept.",
                    "YardkleScoreRequest",
                    _SCORE_REQUEST_EXAMPLE,
                ),
                "responses": {
                    "200": _ok(
                        "The points and the combos that make them.", "YardkleScore", _SCORE_EXAMPLE
                    ),
                    **_standard_errors(400, 413),
                    "422": _error(
                        "Bad dice, an unknown field, or kept dice that do not all score.",
                        "A 2 on its own scores nothing.",
                        "keep",
                    ),
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
                        "content": _json({"type": "object"}),
                    }
                },
            }
        },
    }


_CARD = {
    "type": "string",
    "description": "A card as `<colour> <number>`, any case: `blue 13`, `white 3`.",
    "examples": ["blue 13"],
}


def _trick_request(trumps: list[str], min_plays: int, max_plays: int) -> Schema:
    return {
        "type": "object",
        "required": ["trump", "plays"],
        "additionalProperties": False,
        "properties": {
            "trump": {"type": "string", "enum": trumps},
            "plays": {
                "type": "array",
                "minItems": min_plays,
                "maxItems": max_plays,
                "items": _CARD,
                "description": "The cards in playing order; index 0 is the lead.",
            },
        },
    }


def _judge_schemas() -> Schema:
    return {
        "YokaiSeptetTrick": _trick_request(
            ["green", "purple", "pink", "yellow", "black", "red", "blue"], 3, 4
        ),
        "CryptruckTrick": _trick_request(
            ["red", "yellow", "green", "blue", "purple", "white"], 3, 5
        ),
        "TrickWinner": {
            "type": "object",
            "required": ["winner", "card", "rule", "explanation"],
            "additionalProperties": False,
            "properties": {
                "winner": {"type": "integer", "minimum": 0, "description": "Index into plays."},
                "card": _CARD,
                "rule": {"type": "string", "enum": ["green-one", "trump", "lead-suit"]},
                "explanation": {"type": "string"},
            },
        },
        "YadokarickTrick": {
            "type": "object",
            "required": ["plays"],
            "additionalProperties": False,
            "properties": {
                "plays": {
                    "type": "array",
                    "minItems": 3,
                    "maxItems": 7,
                    "description": (
                        "The cards in playing order with the house size printed on each; "
                        "3 plays is the one-colour game, where sizes may be left out."
                    ),
                    "items": {
                        "type": "object",
                        "required": ["card"],
                        "additionalProperties": False,
                        "properties": {
                            "card": _CARD,
                            "size": {"type": "integer", "minimum": 1},
                        },
                    },
                }
            },
        },
        "YadokarickRuling": {
            "type": "object",
            "required": ["movers", "next_lead", "takes", "discarded", "explanation"],
            "additionalProperties": False,
            "properties": {
                "movers": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "Who may move the size marker, in play order.",
                },
                "next_lead": {"type": "integer"},
                "takes": {
                    "type": "object",
                    "description": "Play index (as a string) → the cards that player takes.",
                    "additionalProperties": {"type": "array", "items": _CARD},
                },
                "discarded": {"type": "array", "items": _CARD},
                "explanation": {"type": "string"},
            },
        },
    }


def _judge_path(
    operation: str, summary: str, request: str, response: str, example: Any, answer: Any
) -> Schema:
    return {
        "post": {
            "operationId": operation,
            "tags": ["judge"],
            "summary": summary,
            "description": "Stateless, no key. Bad input answers 422 naming the field.",
            "requestBody": _body("The trick, in playing order.", request, example),
            "responses": {
                "200": _ok("The ruling and the rule that decided it.", response, answer),
                **_standard_errors(400, 413),
                "422": _error(
                    "An unknown or repeated card, a bad trump or the wrong number of plays.",
                    "“blue 9” is played twice (plays 0 and 2); there is only one.",
                    "plays.2",
                ),
            },
        }
    }


def _settle_schemas() -> Schema:
    taker = {"type": "string", "enum": ["10D", "JC", "QS", "KH", "7D"]}
    playing_card = {
        "type": "string",
        "description": "A card as `<rank><suit>`: `10D`, `QS`, `7♦`, `ac` (ace low).",
    }
    trays = {
        "type": "object",
        "required": ["10D", "JC", "QS", "KH", "7D"],
        "additionalProperties": False,
        "properties": {name: {"type": "integer", "minimum": 0} for name in taker["enum"]},
    }
    return {
        "YellowDwarfSettleRequest": {
            "type": "object",
            "required": ["winner", "trays", "hands"],
            "additionalProperties": False,
            "properties": {
                "winner": {"type": "integer", "minimum": 0, "description": "Who went out."},
                "trays": trays,
                "hands": {
                    "type": "array",
                    "minItems": 3,
                    "maxItems": 8,
                    "description": "Each player's cards left, in seat order; the winner's is [].",
                    "items": {"type": "array", "items": playing_card},
                },
                "forgot": {
                    "type": "array",
                    "default": [],
                    "description": "Taker cards played without calling “who takes”.",
                    "items": {
                        "type": "object",
                        "required": ["player", "card"],
                        "additionalProperties": False,
                        "properties": {"player": {"type": "integer", "minimum": 0}, "card": taker},
                    },
                },
                "grand_opera": {"type": "boolean", "default": False},
                "payout": {"type": "string", "enum": ["cards", "points"], "default": "cards"},
            },
        },
        "YellowDwarfSettlement": {
            "type": "object",
            "required": ["chips", "trays", "explanation"],
            "additionalProperties": False,
            "properties": {
                "chips": {
                    "type": "array",
                    "items": {"type": "integer"},
                    "description": "Each player's change in chips (with the trays' gain: 0).",
                },
                "trays": trays,
                "explanation": {"type": "string"},
            },
        },
    }


def _judge_paths() -> Schema:
    return {
        "/judge/yellow-dwarf/settle": _judge_path(
            "settleYellowDwarf",
            "Who pays whom at the end of a Yellow Dwarf round",
            "YellowDwarfSettleRequest",
            "YellowDwarfSettlement",
            {
                "winner": 0,
                "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
                "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
                "forgot": [{"player": 1, "card": "JC"}],
                "grand_opera": False,
                "payout": "cards",
            },
            {
                "chips": [5, -26, -14, -1],
                "trays": {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20},
                "explanation": "Player 0 went out: player 1 pays 2 (2 cards), …",
            },
        ),
        "/judge/yokai-septet": _judge_path(
            "judgeYokaiSeptet",
            "Who takes a Yokai Septet trick",
            "YokaiSeptetTrick",
            "TrickWinner",
            {"trump": "red", "plays": ["blue 9", "blue 12", "red 6", "green 1"]},
            {
                "winner": 3,
                "card": "green 1",
                "rule": "green-one",
                "explanation": "The green 1 takes every trick it is in, whatever the trump.",
            },
        ),
        "/judge/cryptruck": _judge_path(
            "judgeCryptruck",
            "Who takes a Cryptruck trick",
            "CryptruckTrick",
            "TrickWinner",
            {"trump": "blue", "plays": ["red 4", "white 3", "blue 3", "red 6"]},
            {
                "winner": 2,
                "card": "blue 3",
                "rule": "trump",
                "explanation": "White 3 and blue 3 tie at 3: the later card wins.",
            },
        ),
        "/judge/yadokarick": _judge_path(
            "judgeYadokarick",
            "Who takes what in a Yadokarick trick",
            "YadokarickTrick",
            "YadokarickRuling",
            {
                "plays": [
                    {"card": "green 25", "size": 3},
                    {"card": "pink 8", "size": 2},
                    {"card": "green 17", "size": 1},
                    {"card": "pink 29", "size": 4},
                ]
            },
            {
                "movers": [1],
                "next_lead": 1,
                "takes": {"3": ["pink 29"], "0": ["green 25"]},
                "discarded": ["pink 8", "green 17"],
                "explanation": "Pink 8 is the lowest: it moves the size marker and leads next.",
            },
        ),
    }


GAME_SLUGS = list(GAMES)


def _actions(
    name: str,
    game: Game,
    description: str,
    types: dict[str, str],
    fields: dict[str, Schema] | None = None,
) -> Schema:
    """The schemas of a game's actions, generated from the game's declarations of them.

    ``<name>Action`` is one of the game's action types, each described by ``types``; a
    nested declaration (an entry of a list) is its own component, ``<name><Declaration>``.
    ``fields`` adds what a declaration cannot say (descriptions, examples, the game's
    own bounds) to every property of that name; the type stays the declaration's.
    """
    actions = game.actions
    generated = actions.json_schema(ref_template=f"#/components/schemas/{name}{{model}}")
    nested = generated["$defs"]
    branches = [nested.pop(declaration.__name__) for declaration in actions.declarations]
    for kind, branch in zip(actions.types, branches, strict=True):
        branch["description"] = types[kind]
    for schema in [*branches, *nested.values()]:
        properties = schema.get("properties", {})
        for field, extra in (fields or {}).items():
            if field in properties:
                added = {key: value for key, value in extra.items() if key != "type"}
                properties[field] = {**properties[field], **added}
    return {
        f"{name}Action": {"description": description, "oneOf": branches},
        **{f"{name}{declaration}": schema for declaration, schema in nested.items()},
    }


def _yardkle_schemas() -> Schema:
    return _actions(
        "Yardkle",
        GAMES["yardkle"],
        "One thing that happened at the table, told by its `type`.",
        {
            "roll": "The dice the current player rolled, as they fell.",
            "keep": (
                "Scoring dice set aside from the waiting roll; `bank: true` stops right after "
                "and records the turn."
            ),
            "bank": "Stop and record the turn total.",
            "total": "A whole turn entered as its total (0 for a scoreless turn).",
        },
    )


def _yokai_septet_schemas() -> Schema:
    team_name = {"type": "string", "maxLength": 40, "default": ""}
    return {
        "YokaiSeptetOptions": {
            "type": "object",
            "description": "Team names; blank shows the partners' names (seats 1 & 3, 2 & 4).",
            "additionalProperties": False,
            "properties": {"team_a": team_name, "team_b": team_name},
        },
        **_actions(
            "YokaiSeptet",
            GAMES["yokai-septet"],
            "One thing that happened at a Yokai Septet table (4 seats; seats are 0-based).",
            {
                "trump": "The face-up card that starts a round.",
                "first-lead": (
                    "Round 1: who holds the green 1 (the blue 13 when the green 1 is the "
                    "trump card) and leads."
                ),
                "pass": "Partners passed 3 cards (optional; changes no score).",
                "play": "The next card of the trick, by the seat whose turn it is.",
                "result": (
                    "The fast path: a round's winning team, how, and its Boss Yokai at the end."
                ),
                "revoke": _REVOKE.format(penalty="penalty points go to the other team"),
            },
            {"card": _CARD, "penalty": {"maximum": yokai_septet.MAX_PENALTY}},
        ),
    }


_COLOURS = ["red", "yellow", "green", "blue", "purple"]


_REVOKE = "Settle a revoke flag: accept ({penalty}) or dismiss."


def _cryptruck_schemas() -> Schema:
    return {
        "CryptruckOptions": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "colours": {
                    "description": (
                        "The colours in use, as many as players; empty: the first ones of "
                        "red, yellow, green, blue, purple. Sent as a list (a comma-separated "
                        "string is read too), it always comes back as a list."
                    ),
                    "anyOf": [
                        {"type": "string"},
                        {"type": "array", "items": {"type": "string", "enum": _COLOURS}},
                    ],
                    "default": [],
                },
                "first_dealer": _option(_spec(GAMES["cryptruck"], "first_dealer")),
            },
        },
        **_actions(
            "Cryptruck",
            GAMES["cryptruck"],
            "One thing that happened at a Cryptruck table (seats are 0-based).",
            {
                "reveal": "Round start: the revealed undealt card (trump).",
                "dealer-card": "The card the dealer reveals from hand.",
                "bid": "The next player from the dealer's left says want (true) or pass.",
                "give": "The taker gives the dealer a card (the card may be left out).",
                "play": "The next card of the trick.",
                "won": "The fast path: each seat's cards won this round (block cards suffice).",
                "revoke": _REVOKE.format(penalty="the revoking player loses `penalty` points"),
            },
            {
                "card": _CARD,
                "cards": {"description": "Per seat, its cards won, each written like `blue 13`."},
                "penalty": {"maximum": cryptruck.MAX_PENALTY},
            },
        ),
    }


def _options(game: Game, description: str) -> Schema:
    """A game's options schema, from the same specs (default, bounds, choices) the app checks."""
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "properties": {spec.name: _option(spec) for spec in game.options},
    }


def _spec(game: Game, name: str) -> OptionSpec:
    return next(spec for spec in game.options if spec.name == name)


def _option(spec: OptionSpec) -> Schema:
    if spec.kind == "choice":
        values = [value for value, _ in spec.choices]
        return {"type": "string", "enum": values, "default": spec.default, "description": spec.help}
    assert spec.kind in ("int", "seat"), f"{spec.name}: a {spec.kind} option is described apart"
    seat = spec.kind == "seat"
    bounds = {
        "minimum": 0 if seat else spec.minimum,
        "maximum": spec.maximum,
        "multipleOf": spec.step,
    }
    return {
        "type": "integer",
        **{key: value for key, value in bounds.items() if value is not None},
        "default": spec.default,
        "description": spec.help + (" A seat index, counted from 0." if seat else ""),
    }


_HOUSE_CARD = {
    "type": "string",
    "description": "A Yadokarick house card, `green 1` to `pink 36`, any case.",
    "examples": ["green 25"],
}
_SIZE = {
    "description": (
        "The house size printed on the card: needed the first time the session meets the "
        "card, optional after that (a different size is refused)."
    ),
}


def _yadokarick_schemas() -> Schema:
    return {
        "YadokarickOptions": _options(
            yadokarick.GAME,
            (
                "1 seat plays the solo game, 2 the game with the NPC crab, 3 to 7 the standard "
                "game. Every option is checked; each mode uses the ones it needs."
            ),
        ),
        **_actions(
            "Yadokarick",
            yadokarick.GAME,
            (
                "One thing that happened at a Yadokarick table. Standard and NPC games: play, "
                "marker. Solo: draw, take, bonus, give-up."
            ),
            {
                "play": (
                    "The next card of the trick (in the NPC game, on the NPC's turn, the top "
                    "card of the draw deck)."
                ),
                "marker": (
                    "The lowest card's player moves the size marker (ties: each in play order)."
                ),
                "draw": "Solo: a card turned from a deck into the row.",
                "take": "Solo: a row card onto a crab.",
                "bonus": "Solo: a card of the consecutive run just made, scored face up.",
                "give-up": "Solo: a crab's cards go face down as a penalty.",
            },
            {"card": _HOUSE_CARD, "size": _SIZE},
        ),
    }


_PLAYING_CARD = {
    "type": "string",
    "description": "A card of the 52-card deck as `<rank><suit>`: `10D`, `QS`, `7♦`, `A♠`.",
    "examples": ["10D"],
}
_SEAT = {"description": "A seat index (0 is the first seat)."}
_COUNTS = {
    "description": "Per seat: cards left (payout by cards) or points left (payout by points).",
}


def _yellow_dwarf_schemas() -> Schema:
    return {
        "YellowDwarfOptions": _options(
            yellow_dwarf.GAME, "Yellow Dwarf's options; each one left out takes its default."
        ),
        **_actions(
            "YellowDwarf",
            yellow_dwarf.GAME,
            (
                "One thing that happened at a Yellow Dwarf table. Card by card: play, without, "
                "then reveal once someone goes out. Or a whole round at once: round."
            ),
            {
                "play": "The player whose turn it is lays a card.",
                "without": "The player says “without N” and play passes on.",
                "reveal": "After a player went out: the hands, to settle.",
                "round": "A whole round's result, before any card of it was laid.",
            },
            {
                "card": _PLAYING_CARD,
                "called": {
                    "description": (
                        "Taker cards only (and required for them in play): whether the player "
                        "called “who takes” and so collects the tray."
                    )
                },
                "rank": {"description": "The rank said (checked against the one due)."},
                "winner": _SEAT,
                "player": _SEAT,
                "left": _COUNTS,
                "kept": {
                    "description": "Taker cards still in a hand: each pays its tray what it holds."
                },
                "played": {"description": "Taker cards laid: by whom, and whether called."},
            },
        ),
    }


def _score_sheet_schemas() -> Schema:
    game = score_sheet_rules.GAME
    game_name = _spec(game, "game_name")
    return {
        "ScoreSheetOptions": {
            "type": "object",
            "description": "The score sheet's options; each one left out takes its default.",
            "additionalProperties": False,
            "properties": {
                "game_name": {
                    "type": "string",
                    "maxLength": game_name.maximum,
                    "default": game_name.default,
                    "description": game_name.help,
                },
                "winner": _option(_spec(game, "winner")),
                "target": _option(_spec(game, "target")),
            },
        },
        **_actions(
            "ScoreSheet",
            game,
            "One round of a score sheet, or the end of the game (any seat may enter it).",
            {
                "round": (
                    "One round's points: a whole number per seat, in seat order (negative "
                    "allowed). A refused number names its field as `points.<seat index>`."
                ),
                "finish": (
                    "The table stops after at least one round: the best total wins (ties "
                    "share). A round reaching the target ends the game without it."
                ),
            },
        ),
    }


def _answered_everywhere(paths: Schema) -> Schema:
    """Every operation with the answers any request can get: a crash (500) and, checked
    before any endpoint reads the request, query text that is no text (422)."""
    for item in paths.values():
        for operation in item.values():
            responses = operation["responses"]
            responses.setdefault("422", {"$ref": "#/components/responses/BadText"})
            responses["500"] = {"$ref": "#/components/responses/ServerError"}
            operation["responses"] = dict(sorted(responses.items()))
    return paths


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1.0 document of the JSON API v1."""
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
            {"name": "judge", "description": "Stateless rulings: no session, no key."},
            {"name": "meta", "description": "About this API."},
        ],
        "paths": _answered_everywhere({**_paths(), **_judge_paths()}),
        "components": {
            "schemas": {
                **_schemas(),
                **_yardkle_schemas(),
                **_judge_schemas(),
                **_settle_schemas(),
                **_yokai_septet_schemas(),
                **_cryptruck_schemas(),
                **_yadokarick_schemas(),
                **_yellow_dwarf_schemas(),
                **_score_sheet_schemas(),
                **state_schemas()[1],
            },
            "responses": _responses(),
            "parameters": {
                "SessionId": {
                    "name": "session_id",
                    "in": "path",
                    "required": True,
                    "description": "The session id (unguessable; it is also the view link).",
                    "schema": {"type": "string", "maxLength": 32},
                }
            },
            "securitySchemes": {
                "editKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The session's edit key, returned once as `edit_key`.",
                }
            },
        },
    }
