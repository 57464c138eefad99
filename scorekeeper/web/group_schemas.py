"""The groups part of the API: its answers built from pydantic models, and its OpenAPI part.

The answers are made by these models (``GroupAnswer(...).model_dump()``) and the
document's schemas are generated from the same models, so neither can drift
from the other.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import models_json_schema

from scorekeeper.decks import sized_games
from scorekeeper.group_export import FILE_MAX_BYTES
from scorekeeper.groups import EMOJI_MAX_LENGTH
from scorekeeper.models import NAME_MAX_LENGTH
from scorekeeper.stats import MOST_WIN_POINTS, WinStep
from scorekeeper.web.openapi_parts import (
    Schema,
    body,
    error_response,
    file_too_large,
    ok,
    schema_of,
    standard_errors,
    untitled,
)
from scorekeeper.web.uploads import size_text

Name = Field(min_length=1, max_length=NAME_MAX_LENGTH)
COLOUR_PATTERN = "^(#[0-9a-fA-F]{6})?$"


def uri(description: str) -> Any:
    return Field(description=description, json_schema_extra={"format": "uri"})


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlayerAnswer(Closed):
    id: int = Field(description="The player's id: what `players` names when starting a session.")
    name: str
    colour: str = Field(description="`#rrggbb`, or empty for none.")
    emoji: str = Field(description="One emoji, or empty for none.")


class GroupSessionLinks(Closed):
    view: str = Field(
        description="The session's scoreboard page.", json_schema_extra={"format": "uri"}
    )
    api: str = Field(description="The session in this API.", json_schema_extra={"format": "uri"})


class GroupSession(Closed):
    id: str
    game: str
    seats: list[str] = Field(description="The names the seats were played under, in table order.")
    finished: bool
    winners: list[str] = Field(description="The winners' names once finished; empty before.")
    links: GroupSessionLinks


class GroupDeck(Closed):
    id: str = Field(
        description="The deck profile's id: `deck_profile` of a session of the group, which "
        "plays with it on the group's key alone."
    )
    game: str = Field(description="The game whose cards it describes.")
    name: str
    sizes: dict[str, int] = Field(
        description="Card (“green 25”) → its printed size; only the cards whose size is known."
    )


class GroupLinks(Closed):
    view: str = Field(
        description="The group's page (read only for a phone that is no member).",
        json_schema_extra={"format": "uri"},
    )
    stats: str = uri("The group's statistics in this API.")
    newer: str | None = uri("The page of newer sessions; null on page 1.")
    older: str | None = uri("The page of older sessions; null on the last page.")


class GroupAnswer(Closed):
    id: str = Field(description="The group id: whoever has it sees the group.")
    name: str
    players: list[PlayerAnswer] = Field(description="In the order they joined the group.")
    decks: list[GroupDeck] = Field(
        description="The group's deck profiles (the sizes printed on its physical decks), "
        "the latest changed first: every member's to play with and change."
    )
    sessions: list[GroupSession] = Field(
        description="A page of the group's sessions, the newest first: page 1 the newest "
        "`page_size`, each next page older ones."
    )
    sessions_count: int = Field(ge=0, description="How many sessions the group played.")
    page: int = Field(ge=1, description="This page of the sessions: 1 holds the newest.")
    pages: int = Field(ge=1, description="How many pages there are (no session: one).")
    page_size: int = Field(ge=1, description="The most sessions a page holds.")
    links: GroupLinks


class CreatedGroupLinks(GroupLinks):
    join: str = Field(
        description="Opening it makes a browser a member: it may change the group.",
        json_schema_extra={"format": "uri"},
    )


class CreatedGroup(GroupAnswer):
    edit_key: str = Field(
        description="The group's key (returned only this once): send it as "
        "`Authorization: Bearer <edit_key>` to change the group or start its sessions."
    )
    links: CreatedGroupLinks


class RatingFigures(Closed):
    """A player's OpenSkill (Plackett-Luce) rating after their latest game: rated in the
    order the group's games ended, each seat ranked by its place (a shared win a tie)."""

    rating: float = Field(
        description="OpenSkill's ordinal, mu - 3 sigma: a cautious estimate of skill, 0 for "
        "a newcomer (the page shows it to one decimal)."
    )
    moved: float = Field(description="How much the rating moved with the player's latest game.")
    mu: float = Field(description="The estimated skill.")
    sigma: float = Field(gt=0, description="How uncertain that estimate is.")


class PlayerFigures(Closed):
    player: int = Field(description="The player's id in the group.")
    name: str = Field(description="The player's name now.")
    played: int = Field(description="Finished games the player had a seat in.")
    won: int = Field(description="Games the player won, a shared win counting for each winner.")
    win_rate: float = Field(ge=0, le=1, description="Won over played.")
    average_place: float = Field(ge=1, description="The player's average place, 1 the best.")
    rating: RatingFigures
    last_played: str = Field(
        description="When the player's latest finished game ended (UTC).",
        json_schema_extra={"format": "date-time"},
    )


class GamePlayerFigures(PlayerFigures):
    average: float = Field(description="The player's average final score in this game.")
    best: int = Field(description="The player's best final score (the lowest where lower wins).")


class GameFigures(Closed):
    game: str = Field(description="The game's slug.")
    title: str = Field(description="The game's title; a score sheet where the lowest wins apart.")
    lower_is_better: bool
    played: int = Field(description="Finished games of it the group played.")
    last_played: str = Field(json_schema_extra={"format": "date-time"})
    players: list[GamePlayerFigures] = Field(
        description="Most wins first; each rating is the player's in this game alone."
    )


class WinsOnDay(Closed):
    day: str = Field(
        description="A day a game ended (UTC): the last such day of its step.",
        json_schema_extra={"format": "date"},
    )
    wins: int = Field(description="The player's wins up to and including that day.")


class WinsOverTime(Closed):
    player: int
    name: str
    days: list[WinsOnDay] = Field(
        description="In order, every day any game of the group ended, or, by "
        "`wins_over_time_step`, the last such day of each week, month or year: at most "
        f"{MOST_WIN_POINTS} points."
    )


class HeadToHeadFigures(Closed):
    first: int = Field(description="The first player's id.")
    second: int = Field(description="The second player's id.")
    first_name: str
    second_name: str
    played: int = Field(description="Finished games both played.")
    first_won: int = Field(description="Won by the first and not the second.")
    second_won: int = Field(description="Won by the second and not the first.")
    shared: int = Field(description="Won by both (a shared win).")
    neither: int = Field(description="Won by someone else.")


class StatsLinks(Closed):
    view: str = uri("The group's statistics page, with the head to head asked for.")
    group: str = uri("The group in this API.")


class StatsAnswer(Closed):
    group: str = Field(description="The group id.")
    played: int = Field(description="The group's finished games: only these count.")
    players: list[PlayerFigures] = Field(
        description="The leaderboard: each player over every game, most wins first (the page "
        "sorts it by any column). Seats of a player removed from the group count for no one."
    )
    games: list[GameFigures] = Field(description="Each game played, the most played first.")
    wins_over_time: list[WinsOverTime]
    wins_over_time_step: WinStep = Field(
        description=f"Each point of `wins_over_time`: a day while the group's games ended on "
        f"at most {MOST_WIN_POINTS} days, else the last of each week (from Monday), month "
        f"or year a game ended in, the finest with at most {MOST_WIN_POINTS} of them. "
        "Added 2026-11-28 (before, always a day)."
    )
    head_to_head: HeadToHeadFigures | None = Field(
        description="The two players asked for with `first` and `second`; null when not asked."
    )
    links: StatsLinks


class NewGroup(Closed):
    name: str = Name
    players: list[str] = Field(
        default=[],
        description="The first players' names, each unique (ignoring case); more can be added.",
    )


class NewPlayer(Closed):
    name: str = Name
    colour: str = Field(default="", pattern=COLOUR_PATTERN, description="`#rrggbb`, or empty.")
    emoji: str = Field(default="", max_length=EMOJI_MAX_LENGTH, description="One emoji, or empty.")


class PlayerChange(Closed):
    """What to change of a player; a field left out stays as it is."""

    name: str | None = Field(default=None, min_length=1, max_length=NAME_MAX_LENGTH)
    colour: str | None = Field(
        default=None, pattern=COLOUR_PATTERN, description="`#rrggbb`, or empty for none."
    )
    emoji: str | None = Field(
        default=None, max_length=EMOJI_MAX_LENGTH, description="One emoji, or empty for none."
    )


class ExportedGameRating(Closed):
    game: str = Field(description="The game's slug.")
    lower_is_better: bool = Field(description="A score sheet where the lowest wins apart.")
    rating: RatingFigures


class ExportedPlayer(Closed):
    number: int = Field(ge=0, description="The player's place in the list, from 0.")
    name: str = Name
    colour: str = Field(pattern=COLOUR_PATTERN, description="`#rrggbb`, or empty.")
    emoji: str = Field(max_length=EMOJI_MAX_LENGTH, description="One emoji, or empty.")
    rating: RatingFigures | None = Field(
        default=None,
        description="For reading only (an import ignores it and rates the sessions it "
        "makes): the player's rating over all games after their latest finished game; "
        "null before their first.",
    )
    game_ratings: list[ExportedGameRating] = Field(
        default=[],
        description="For reading only, as `rating`: the player's rating in each game they "
        "finished, by slug.",
    )


class ExportedDeck(Closed):
    number: int = Field(ge=0, description="The deck's place in the list, from 0.")
    game: str = Field(
        json_schema_extra={"enum": [game.slug for game in sized_games()]},
        description="The game whose cards it describes.",
    )
    name: str = Name
    sizes: dict[str, Annotated[int, Field(ge=1, le=99)]] = Field(
        description="Card (“green 25”) → its printed size; only the cards whose size is known."
    )


class GroupExport(Closed):
    """A whole group: what ``POST /groups/import`` reads back as a new group."""

    format: Literal["tabletop-scorekeeper/group"]
    format_version: Literal[1]
    name: str = Name
    players: list[ExportedPlayer] = Field(description="In the group's order.")
    decks: list[ExportedDeck] = Field(
        default=[],
        description="The group's deck profiles (the sizes printed on its physical decks), "
        "each made once on import; a session names the one it played with as `deck`. A file "
        "without it: each session brings its own copy of its `deck_profile`.",
    )
    sessions: list[dict[str, Any]] = Field(
        description="The group's sessions in the order they were played.",
        json_schema_extra={"items": {"$ref": "#/components/schemas/GroupSessionExport"}},
    )


class GroupImport(GroupExport):
    request_key: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Optional: an import retried with the same key makes the group once.",
    )


MODELS: tuple[type[BaseModel], ...] = (
    ExportedGameRating,
    ExportedPlayer,
    ExportedDeck,
    GroupExport,
    GroupImport,
    PlayerAnswer,
    GroupAnswer,
    CreatedGroup,
    NewGroup,
    NewPlayer,
    PlayerChange,
    StatsAnswer,
)


def group_schemas() -> dict[str, Schema]:
    """Every component schema of the groups part, generated from the models."""
    _, generated = models_json_schema(
        [(model, "serialization") for model in MODELS],
        ref_template="#/components/schemas/{model}",
    )
    return {name: untitled(schema) for name, schema in generated["$defs"].items()}


# --- Examples ------------------------------------------------------------------

_GROUP_ID = "Zk3pQ8vT1xLw0aYc5nR2sA"
_GROUP_KEY = "c7Hq2Wm9Xe4Lr1Tb8Vn3Kp6Zs0Jd5Fy2"
_BASE = "https://scores.example"
_GROUP_EXAMPLE: Schema = {
    "id": _GROUP_ID,
    "name": "Friday night",
    "players": [
        {"id": 1, "name": "Ana", "colour": "#1f77b4", "emoji": "🦊"},
        {"id": 2, "name": "Bo", "colour": "", "emoji": ""},
    ],
    "decks": [
        {
            "id": "Hn4sQ1wE8rT5yU2iO7pA3d",
            "game": "yadokarick",
            "name": "Green tin",
            "sizes": {"green 25": 3, "pink 8": 5},
        }
    ],
    "sessions": [
        {
            "id": "q2Xv7cN0mTg8bY1uK3sWfA",
            "game": "yardkle",
            "seats": ["Ana", "Bo"],
            "finished": True,
            "winners": ["Bo"],
            "links": {
                "view": f"{_BASE}/s/q2Xv7cN0mTg8bY1uK3sWfA",
                "api": f"{_BASE}/api/v1/sessions/q2Xv7cN0mTg8bY1uK3sWfA",
            },
        }
    ],
    "sessions_count": 1,
    "page": 1,
    "pages": 1,
    "page_size": 30,
    "links": {
        "view": f"{_BASE}/g/{_GROUP_ID}",
        "stats": f"{_BASE}/api/v1/groups/{_GROUP_ID}/stats",
        "newer": None,
        "older": None,
    },
}
_CREATED_EXAMPLE: Schema = {
    **_GROUP_EXAMPLE,
    "decks": [],
    "sessions": [],
    "sessions_count": 0,
    "edit_key": _GROUP_KEY,
    "links": {
        **_GROUP_EXAMPLE["links"],
        "join": f"{_BASE}/g/{_GROUP_ID}/join/{_GROUP_KEY}",
    },
}
_ENDED = "2026-11-20T22:05:00Z"
# OpenSkill's answer for two newcomers, Bo ahead of Ana.
_BO_RATED = {
    "rating": 3.437685252509457,
    "moved": 3.437685252509457,
    "mu": 27.635389493140497,
    "sigma": 8.06590141354368,
}
_ANA_RATED = {
    "rating": -1.8330937337715376,
    "moved": -1.8330937337715376,
    "mu": 22.364610506859503,
    "sigma": 8.06590141354368,
}
_STATS_EXAMPLE: Schema = {
    "group": _GROUP_ID,
    "played": 1,
    "players": [
        {
            "player": 2,
            "name": "Bo",
            "played": 1,
            "won": 1,
            "win_rate": 1.0,
            "average_place": 1.0,
            "rating": _BO_RATED,
            "last_played": _ENDED,
        },
        {
            "player": 1,
            "name": "Ana",
            "played": 1,
            "won": 0,
            "win_rate": 0.0,
            "average_place": 2.0,
            "rating": _ANA_RATED,
            "last_played": _ENDED,
        },
    ],
    "games": [
        {
            "game": "yardkle",
            "title": "Yardkle",
            "lower_is_better": False,
            "played": 1,
            "last_played": _ENDED,
            "players": [
                {
                    "player": 2,
                    "name": "Bo",
                    "played": 1,
                    "won": 1,
                    "win_rate": 1.0,
                    "average_place": 1.0,
                    "rating": _BO_RATED,
                    "last_played": _ENDED,
                    "average": 10250.0,
                    "best": 10250,
                },
                {
                    "player": 1,
                    "name": "Ana",
                    "played": 1,
                    "won": 0,
                    "win_rate": 0.0,
                    "average_place": 2.0,
                    "rating": _ANA_RATED,
                    "last_played": _ENDED,
                    "average": 7400.0,
                    "best": 7400,
                },
            ],
        }
    ],
    "wins_over_time": [
        {"player": 2, "name": "Bo", "days": [{"day": "2026-11-20", "wins": 1}]},
        {"player": 1, "name": "Ana", "days": [{"day": "2026-11-20", "wins": 0}]},
    ],
    "wins_over_time_step": "day",
    "head_to_head": {
        "first": 1,
        "second": 2,
        "first_name": "Ana",
        "second_name": "Bo",
        "played": 1,
        "first_won": 0,
        "second_won": 1,
        "shared": 0,
        "neither": 0,
    },
    "links": {
        "view": f"{_BASE}/g/{_GROUP_ID}/stats?first=1&second=2",
        "group": f"{_BASE}/api/v1/groups/{_GROUP_ID}",
    },
}


_EXPORT_EXAMPLE: Schema = {
    "format": "tabletop-scorekeeper/group",
    "format_version": 1,
    "name": "Friday night",
    "players": [
        {
            "number": 0,
            "name": "Ana",
            "colour": "#1f77b4",
            "emoji": "🦊",
            "rating": _ANA_RATED,
            "game_ratings": [{"game": "yardkle", "lower_is_better": False, "rating": _ANA_RATED}],
        },
        {
            "number": 1,
            "name": "Bo",
            "colour": "",
            "emoji": "",
            "rating": _BO_RATED,
            "game_ratings": [{"game": "yardkle", "lower_is_better": False, "rating": _BO_RATED}],
        },
    ],
    "decks": [
        {"number": 0, "game": "yadokarick", "name": "Green tin", "sizes": {"green 25": 3}},
    ],
    # The ratings are after a Yardkle game Bo won, whose export is left out here.
    "sessions": [],
}
_CSV_EXAMPLE = (
    "kind,number,name,colour,emoji,session,rating,rating_change,game_rating,game_rating_change\r\n"
    "group,1,Friday night,,,,,,,\r\n"
    "player,0,Ana,#1f77b4,🦊,,,,,\r\n"
    "player,1,Bo,,,,,,,\r\n"
    'deck,0,Green tin,,,"{""game"":""yadokarick"",""sizes"":{""green 25"":3}}",,,,\r\n'
    # The session row of a Yardkle game Bo won (its JSON) left out here.
    "rating,0,Ana,,,,-1.8,-1.8,-1.8,-1.8\r\n"
    "rating,0,Bo,,,,3.4,3.4,3.4,3.4\r\n"
)


# A new group's answer (POST /groups, POST /groups/import), and what any such post may get.
_CREATED: Schema = {
    "201": ok(
        "The new group, with its key (returned only this once).", "CreatedGroup", _CREATED_EXAMPLE
    ),
    **standard_errors(400, 413),
}


def _group_write(
    operation_id: str,
    summary: str,
    description: str,
    parameters: list[Schema],
    request: Schema | None,
    code: int,
) -> Schema:
    """A Bearer-protected change of a group's players, answered with the group."""
    operation: Schema = {
        "operationId": operation_id,
        "tags": ["groups"],
        "summary": summary,
        "description": description + " Needs the group's key as a Bearer token.",
        "security": [{"groupKey": []}],
        "parameters": parameters,
        "responses": {
            str(code): ok("The group as it is now.", "GroupAnswer", _GROUP_EXAMPLE),
            **standard_errors(400, 401, 403, 404, 413),
            "422": error_response(
                "A bad name, colour or emoji, a name the group has already, or a player "
                "of another group.",
                "The group already has a player called Ana; give each player their own name.",
                "name",
            ),
        },
    }
    if request is not None:
        operation["requestBody"] = request
    return operation


def group_paths() -> Schema:
    group = [{"$ref": "#/components/parameters/GroupId"}]
    player = [*group, {"$ref": "#/components/parameters/PlayerId"}]
    return {
        "/groups": {
            "post": {
                "operationId": "createGroup",
                "tags": ["groups"],
                "summary": "Make a group",
                "description": "A group of players who play together. No key needed.",
                "requestBody": body(
                    "The group's name and its first players.",
                    "NewGroup",
                    {"name": "Friday night", "players": ["Ana", "Bo"]},
                ),
                "responses": {
                    **_CREATED,
                    "422": error_response(
                        "A missing or bad name, or the same player twice.",
                        "The group already has a player called Ana; give each player their "
                        "own name.",
                        "players.1",
                    ),
                },
            }
        },
        "/groups/{group_id}": {
            "get": {
                "operationId": "readGroup",
                "tags": ["groups"],
                "summary": "Read a group",
                "description": "Its players and a page of the sessions it played, the "
                "newest first (`links` name the newer and older pages). No key needed.",
                "parameters": [
                    *group,
                    {
                        "name": "page",
                        "in": "query",
                        "required": False,
                        "description": "The page of sessions: 1 (the newest, unless asked) "
                        "to `pages`.",
                        "schema": {"type": "integer", "minimum": 1},
                    },
                ],
                "responses": {
                    "200": ok("The group.", "GroupAnswer", _GROUP_EXAMPLE),
                    "400": error_response(
                        "`page` is not a whole number from 1, or the request was sent to a "
                        "host name the server does not answer to (its `TRUSTED_HOSTS` setting).",
                        "“page” must be a whole number from 1.",
                        "page",
                    ),
                    "404": error_response(
                        "No group has this id (`field` null), or the page is past the last "
                        "(`field`: `page`).",
                        "This group's list of sessions has pages 1 to 3.",
                        "page",
                    ),
                },
            }
        },
        "/groups/{group_id}/stats": {
            "get": {
                "operationId": "readGroupStats",
                "tags": ["groups"],
                "summary": "Read a group's statistics",
                "description": "Counted from the group's finished sessions: per player over all "
                "games and per game, wins over time, and with `first` and `second` a head to "
                "head. A shared win counts for each winner. No key needed.",
                "parameters": [
                    *group,
                    {"$ref": "#/components/parameters/FirstPlayer"},
                    {"$ref": "#/components/parameters/SecondPlayer"},
                ],
                "responses": {
                    "200": ok("The group's statistics.", "StatsAnswer", _STATS_EXAMPLE),
                    **standard_errors(404),
                    "422": error_response(
                        "A head to head of a player who is unknown, of another group, chosen "
                        "twice, missing or without a finished game.",
                        "Choose two different players to compare.",
                        "second",
                    ),
                },
            }
        },
        "/groups/{group_id}/export": {
            "get": {
                "operationId": "exportGroup",
                "tags": ["export"],
                "summary": "Export a whole group as JSON",
                "description": "The file `POST /groups/import` reads back. No key needed.",
                "parameters": group,
                "responses": {
                    "200": ok("The group's export.", "GroupExport", _EXPORT_EXAMPLE),
                    **standard_errors(404),
                },
            }
        },
        "/groups/{group_id}/export.csv": {
            "get": {
                "operationId": "exportGroupCsv",
                "tags": ["export"],
                "summary": "Export a whole group as CSV",
                "description": (
                    "The columns kind, number, name, colour, emoji, session, rating, "
                    "rating_change, game_rating, game_rating_change: one `group` row "
                    "(number: the format version; name), a `player` row per player in order "
                    "(number from 0, name, colour, emoji), a `deck` row per deck (number from "
                    "0, name; session: its game and sizes as JSON), a `session` row per "
                    "session (number from 0; session: its JSON as in `GroupExport`); then a "
                    "`rating` row per player per rated session (number: the session's; name: "
                    "the player's) with the columns rating, rating_change (over all games) "
                    "and game_rating, game_rating_change (in that game): the player's rating "
                    "after it and how much that session moved it, to one decimal as the "
                    "pages show them; an import ignores them (and reads files without those "
                    "columns) and rates the sessions it makes. Text starting "
                    "with =, +, -, @ or ' is prefixed with ' (an import strips it). "
                    "No key needed."
                ),
                "parameters": group,
                "responses": {
                    "200": {
                        "description": "The CSV file, with a header row.",
                        "content": {
                            "text/csv": {"schema": schema_of(str), "example": _CSV_EXAMPLE}
                        },
                    },
                    **standard_errors(404),
                },
            }
        },
        "/groups/import": {
            "post": {
                "operationId": "importGroup",
                "tags": ["groups"],
                "summary": "Rebuild a group from its export",
                "description": (
                    "Makes a new group identical to an exported one (JSON, or the CSV sent as "
                    "`text/csv` with an optional `request_key` query parameter), with a new id "
                    "and key; its sessions are imported, each event replayed and checked, and "
                    "each seat linked to its new player. All or nothing. No key needed."
                ),
                "parameters": [
                    {
                        "name": "request_key",
                        "in": "query",
                        "required": False,
                        "description": "For a CSV body: an import retried with the same key "
                        "makes the group once.",
                        "schema": schema_of(Annotated[str, Field(min_length=1, max_length=64)]),
                    }
                ],
                "requestBody": {
                    "required": True,
                    "description": "A group file from the JSON or CSV export.",
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/GroupImport"},
                            "example": _EXPORT_EXAMPLE,
                        },
                        "text/csv": {"schema": schema_of(str), "example": _CSV_EXAMPLE},
                    },
                },
                "responses": {
                    **_CREATED,
                    "413": file_too_large(
                        "a group file", size_text(FILE_MAX_BYTES), size_text(FILE_MAX_BYTES + 1)
                    ),
                    "422": error_response(
                        "Not a group export of this app, another format version, a bad player, "
                        "a seat's player missing or seated twice, or a session refused.",
                        "Session 3, seat 2: “player” must be the number of one of the file's "
                        "2 players (0 to 1), or null.",
                        "sessions.2.seats.1.player",
                    ),
                },
            }
        },
        "/groups/{group_id}/players": {
            "post": _group_write(
                "addPlayer",
                "Add a player",
                "Adds a player to the group (find their id by name in the answer).",
                group,
                body("The new player.", "NewPlayer", {"name": "Cy", "emoji": "🐢"}),
                201,
            ),
        },
        "/groups/{group_id}/players/{player_id}": {
            "patch": _group_write(
                "changePlayer",
                "Rename, recolour or change a player's emoji",
                "Changes the fields sent. The player's past sessions keep the name they "
                "were played under.",
                player,
                body("What to change.", "PlayerChange", {"colour": "#d62728"}),
                200,
            ),
            "delete": _group_write(
                "removePlayer",
                "Remove a player",
                "Takes the player out of the group. Their past sessions stay as they were, "
                "under the name they had.",
                player,
                None,
                200,
            ),
        },
    }


PARAMETERS: Schema = {
    "GroupId": {
        "name": "group_id",
        "in": "path",
        "required": True,
        "description": "The group id (unguessable; it is also the group's link).",
        "schema": schema_of(Annotated[str, Field(max_length=32)]),
    },
    "FirstPlayer": {
        "name": "first",
        "in": "query",
        "required": False,
        "description": "With `second`: the id of the head to head's first player.",
        "schema": schema_of(Annotated[int, Field(ge=1)]),
    },
    "SecondPlayer": {
        "name": "second",
        "in": "query",
        "required": False,
        "description": "With `first`: the id of the head to head's second player.",
        "schema": schema_of(Annotated[int, Field(ge=1)]),
    },
    "PlayerId": {
        "name": "player_id",
        "in": "path",
        "required": True,
        "description": "A player's id, as the group lists it.",
        "schema": schema_of(Annotated[int, Field(ge=1)]),
    },
}

SECURITY: Schema = {
    "groupKey": {
        "type": "http",
        "scheme": "bearer",
        "description": "The group's key, returned once as `edit_key` when it was made.",
    }
}
