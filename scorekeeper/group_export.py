"""A whole group as JSON or CSV, and reading such a file back as a new group.

The JSON holds the group's name, its players in their order, its decks (the
sizes printed on its physical decks) and each of its sessions as a session
export (``export.session_json``) whose seats also name the group player who
sat there, by the player's place in the file's list (a database id would mean
nothing to another database), and which names the group's deck it played with
the same way. The CSV carries the same: a row for the group, one per player,
one per deck and one per session with that session's JSON, so an import of
either rebuilds the group exactly. A file of before decks were a group's has
none: each of its sessions brings its own copy of its deck, as a session file
does.

Both carry the players' ratings (scorekeeper/ratings.py) for reading only: the JSON each
player's latest, over all games and in each game; the CSV, in columns of its own, each
player's after each rated session. An import reads none of them: it rates the sessions
it makes, in the order they ended, to the same figures.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from peewee import IntegrityError

from scorekeeper import (
    decks,
    export_texts,
    groups,
    keys,
    lifecycle,
    ratings,
    session_views,
    store,
)
from scorekeeper.db import Statement, database, fetched_as_bytes, is_sqlite, write_transaction
from scorekeeper.export import (
    ENTRY_OF,
    LIST_OF,
    NOT_A_LIST,
    NOT_AN_OBJECT,
    SEAT_FIELDS,
    read_export,
    session_json,
)
from scorekeeper.games import get_game
from scorekeeper.games.base import (
    FIELD_LABEL,
    IllegalAction,
    check_known_fields,
    is_digits,
    json_error_text,
)
from scorekeeper.games.words import Text, phrase
from scorekeeper.models import (
    GroupPlayer,
    PlayerGroup,
    RequestKey,
)

FORMAT = "tabletop-scorekeeper/group"
FORMAT_VERSION = 1
# The properties of a group file, of its players and of its sessions' seats, as group_json
# writes them: an import refuses any other, naming it.
FILE_FIELDS = frozenset({"format", "format_version", "name", "players", "decks", "sessions"})
PLAYER_FIELDS = frozenset({"number", "name", "colour", "emoji", "rating", "game_ratings"})
DECK_FIELDS = frozenset({"number", "game", "name", "sizes"})
# A player's rating (over all games, or in one game of ``game_ratings``) as the file has it.
RATING_FIELDS = frozenset({"rating", "moved", "mu", "sigma"})
GAME_RATING_FIELDS = frozenset({"game", "lower_is_better", "rating"})
SEATED_FIELDS = SEAT_FIELDS | {"player"}
CSV_COLUMNS = ("kind", "number", "name", "colour", "emoji", "session")
# The ratings after each session, which the CSV writes after those columns (over all games,
# then in the session's game): an import reads files with or without them, and ignores them.
EXPORTED_COLUMNS = CSV_COLUMNS + ratings.COLUMNS
# How the group file is indented (``json.dumps``), and so each session's part in its list.
FILE_INDENT = 1
_IN_LIST = "\n" + " " * 2 * FILE_INDENT
_NO_SESSIONS = '"sessions": []\n}'
_EMPTY_LIST_CLOSED = "[]\n}"
# How large a group file an import takes (README: Limits): a group holds many sessions.
FILE_MAX_BYTES = 128 * 1024 * 1024
# A CSV row carries a whole session's export in one cell, longer than the csv module's
# 131,072 characters by default. No cell can be longer than the file, so the limit the
# request takes bounds every cell instead; the setting is the process's, never lowered.
csv.field_size_limit(max(csv.field_size_limit(), FILE_MAX_BYTES))
# The one-time keys of group imports: none of them names a session.
IMPORT_SCOPE = "group-import"
# Text a spreadsheet would run as a formula starts with one of these; the CSV writes a
# quote before it, and before a quote the text itself starts with, so reading strips one.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "'")


@dataclass(frozen=True)
class ImportedPlayer:
    name: str
    colour: str
    emoji: str


@dataclass(frozen=True)
class ImportedDeck:
    game: str
    # Checked when the deck is made (``decks.insert``), as a session file's deck is.
    name: object
    sizes: object


@dataclass(frozen=True)
class ImportedGroupSession:
    session: lifecycle.ImportedSession
    # The place in the file's players of the player in each seat (None: no group player).
    players: tuple[int | None, ...]
    # The place in the file's decks of the group's deck it played with (None: its own).
    deck: int | None = None


@dataclass(frozen=True)
class ImportedGroup:
    name: str
    players: tuple[ImportedPlayer, ...]
    sessions: tuple[ImportedGroupSession, ...]
    decks: tuple[ImportedDeck, ...] = ()


class AlreadyImported(Exception):
    """This import was sent before (a double tap, a retry): the group it made."""

    def __init__(self, group_id: str) -> None:
        super().__init__("This import was already made once.")
        self.group_id = group_id


class _Listed(NamedTuple):
    """A session of the group as its export reads it, with its kept text's stamps and text
    as the database holds them, in UTF-8 (all four None if it has none)."""

    id: str
    game: str
    version: int
    finished: bool
    deck: str | None  # the id of the deck profile it plays with
    # Each seat's position and the id of its group player (blank: none), as "0:7,1:,2:9".
    seats: str
    kept_version: int | None
    kept_fingerprint: bytes | None
    kept_context: bytes | None
    kept_text: bytes | None


def _listed_sql() -> str:
    # Each session's seats in one text: its first seat's id (the order it was recorded in),
    # then each seat's position and the id of its player (``_Listed.seats``).
    if is_sqlite():
        # SQLite reads a session's seats by the index on (session, position): in order.
        seat = "t.position || ':' || coalesce(t.player_id, '')"
        listed = f"group_concat({seat}, ',')"
    else:
        seat = "t.position || ':' || coalesce(t.player_id::text, '')"
        listed = f"string_agg({seat}, ',' ORDER BY t.position)"
    seats = f"SELECT min(t.id) || '|' || {listed} FROM seat t WHERE t.session_id = s.id"
    # Not sorted by the database: its sort would copy the kept texts (it doubled the time).
    return (
        f"SELECT s.created_at, ({seats}), s.id, s.game, s.version, s.finished, d.profile_id, "
        "k.version, k.fingerprint, k.context, k.text FROM game_session s "
        "LEFT JOIN session_deck d ON d.session_id = s.id "
        "LEFT JOIN export_text k ON k.session_id = s.id "
        f"WHERE s.group_id = {database.param}"
    )


# The group's sessions, each with the moment it was played, its seats, the deck profile it
# plays with and its kept text: one row a session (a row a seat cost more to read than the
# kept texts at 1,000 sessions).
_LISTED = Statement(_listed_sql)


def _listed(group_id: str) -> list[_Listed]:
    """The group's sessions in the order they were played, then recorded (their first
    seats' order); one without seats has no part in the file."""
    ordered = []
    # Read as the driver's tuples, each made one _Listed: at 1,000 sessions an object more
    # a session cost a tenth of the export. Its texts read as bytes: the kept texts go into
    # the file as they are read.
    for (
        played,
        seated,
        session_id,
        game,
        version,
        finished,
        deck,
        kept_version,
        kept_fingerprint,
        kept_context,
        kept_text,
    ) in fetched_as_bytes(_LISTED, group_id):
        if seated is None:
            continue
        first_seat, _, seats = seated.partition(b"|")
        session = _Listed(
            session_id.decode(),
            game.decode(),
            version,
            bool(finished),
            None if deck is None else deck.decode(),
            seats.decode(),
            kept_version,
            kept_fingerprint,
            kept_context,
            kept_text,
        )
        ordered.append((played, int(first_seat), session))
    # By (played, first seat), a session's own: the sessions themselves are never compared.
    ordered.sort(key=itemgetter(0, 1))
    return [entry[2] for entry in ordered]


def _seated(seats: str, place: dict[int, int]) -> dict[int, int | None]:
    """The number in the file (``place``: by player id) of the group player in each seat
    of ``seats`` (``_Listed.seats``) that had one, by position."""
    seated: dict[int, int | None] = {}
    for seat in seats.split(","):
        position, _, player = seat.partition(":")
        if player:
            seated[int(position)] = place.get(int(player))
    return seated


# A session's part of the group file: its text as the file writes it, in UTF-8 (kept, or
# made for a finished session), or what a session in play exports, made now.
Part = bytes | dict[str, Any]


def _as_data(part: Part) -> dict[str, Any]:
    if isinstance(part, dict):
        return part
    read: dict[str, Any] = json.loads(part)
    return read


def _as_bytes(part: Part) -> bytes:
    return part if isinstance(part, bytes) else part_text(part).encode()


def part_text(part: dict[str, Any]) -> str:
    """A session's part as the group file writes it in its list of sessions: each line
    after the first indented by ``_IN_LIST`` (JSON text holds no line break but its
    indentation's: a string writes "\\n")."""
    return json.dumps(part, ensure_ascii=False, indent=FILE_INDENT).replace("\n", _IN_LIST)


def _seat_players(seats: str) -> list[int]:
    """The ids of the group players of ``seats`` (``_Listed.seats``), in their seats' order."""
    return [int(player) for seat in seats.split(",") if (player := seat.partition(":")[2])]


def _deck_hash(profile: decks.Profile) -> str:
    """The hash of what a part says of its deck profile (``export.session_json``)."""
    said = json.dumps([profile.name, dict(profile.sizes)], ensure_ascii=False)
    return hashlib.sha256(said.encode()).hexdigest()


def _context(seats: str, players: str, deck: int | None, profile: str | None) -> str:
    """What a session's part takes from outside its log: its seats' players
    (``_Listed.seats``) and the group's players' ids in the file's order (so each seat's
    player's number there), its deck's number there and its deck profile's ``_deck_hash``."""
    return seats + _context_after_seats(players, deck, profile)


def _context_after_seats(players: str, deck: int | None, profile: str | None) -> str:
    """A part's ``_context`` after its seats'."""
    return f"|{players}|{deck}|{profile}"


def _parts(group: groups.Group) -> tuple[list[decks.Profile], list[_Listed], list[Part]]:
    """The group's decks in the file's order, its sessions in order, and each session's
    part: a finished one's kept text while it holds (``scorekeeper/export_texts.py``),
    else made, and a finished one's text kept."""
    place = {player.id: index for index, player in enumerate(group.players)}
    players = ",".join(str(player.id) for player in group.players)
    listed = _listed(group.id)
    played_with = [session.deck for session in listed]
    group_decks = _in_file_order(decks.of_group(group.id), played_with)
    deck_place = {profile.id: index for index, profile in enumerate(group_decks)}
    deck_hashes = {
        profile.id: _deck_hash(profile)
        for profile in decks.find(sorted({deck for deck in played_with if deck is not None}))
    }
    # A part's context after its seats, by the deck profile its session plays with: the
    # same for every session of a deck, worked out once (in UTF-8, as kept ones are read).
    context_tails = {
        deck: _context_after_seats(
            players,
            None if deck is None else deck_place.get(deck),
            None if deck is None else deck_hashes.get(deck),
        ).encode()
        for deck in set(played_with)
    }
    fingerprints = {
        game: export_texts.fingerprint(get_game(game)).encode() for game in {s.game for s in listed}
    }
    parts: list[Part] = []
    made: list[export_texts.Kept] = []
    for session in listed:
        if (
            session.kept_text is not None
            and session.finished
            and session.kept_version == session.version
            and session.kept_fingerprint == fingerprints[session.game]
            and session.kept_context == session.seats.encode() + context_tails[session.deck]
        ):
            parts.append(session.kept_text)
            continue
        view = session_views.load(session.id)
        exported = session_json(view)
        seated = _seated(session.seats, place)
        exported["seats"] = [
            {**seat, "player": seated.get(seat["position"])} for seat in exported["seats"]
        ]
        made_deck = None if view.deck is None else deck_place.get(view.deck.id)
        if made_deck is not None:
            exported["deck"] = made_deck
        if not view.finished:
            parts.append(exported)
            continue
        text = part_text(exported)
        parts.append(text.encode())
        made_context = _context(
            session.seats, players, made_deck, None if view.deck is None else _deck_hash(view.deck)
        )
        made.append(
            export_texts.Kept(
                session.id, view.version, export_texts.fingerprint(view.game), made_context, text
            )
        )
    if made:
        export_texts.keep(made)
    return group_decks, listed, parts


def _file(
    group: groups.Group, group_decks: list[decks.Profile], sessions: list[dict[str, Any]]
) -> dict[str, Any]:
    board = ratings.kept_of(group.id)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "name": group.name,
        "players": [
            {
                "number": index,
                "name": p.name,
                "colour": p.colour,
                "emoji": p.emoji,
                **_latest_ratings(board, str(p.id)),
            }
            for index, p in enumerate(group.players)
        ],
        "decks": [
            {"number": index, "game": p.game, "name": p.name, "sizes": dict(p.sizes)}
            for index, p in enumerate(group_decks)
        ],
        "sessions": sessions,
    }


def group_json(group: groups.Group) -> dict[str, Any]:
    group_decks, _listed_sessions, parts = _parts(group)
    return _file(group, group_decks, [_as_data(part) for part in parts])


def group_json_file(group: groups.Group) -> bytes:
    """The group file in UTF-8 (``json.dumps`` of ``group_json``, non-ASCII as it is,
    indented by ``FILE_INDENT``), each session's part written as its text: a kept one is
    not read and written again, nor decoded and encoded."""
    group_decks, _listed_sessions, parts = _parts(group)
    head = json.dumps(_file(group, group_decks, []), ensure_ascii=False, indent=FILE_INDENT)
    if not parts:
        return head.encode()
    # The sessions come last: the head ends with their empty list, then the file's brace.
    assert head.endswith(_NO_SESSIONS)
    # Joined once: the file is as long as its sessions' texts together.
    texts = [_as_bytes(part) for part in parts]
    texts[0] = f"{head.removesuffix(_EMPTY_LIST_CLOSED)}[{_IN_LIST}".encode() + texts[0]
    texts[-1] += f"\n{' ' * FILE_INDENT}]\n}}".encode()
    return f",{_IN_LIST}".encode().join(texts)


def _rating_json(skill: ratings.Skill) -> dict[str, float]:
    return {"rating": skill.rating, "moved": skill.moved, "mu": skill.mu, "sigma": skill.sigma}


def _latest_ratings(board: ratings.Board, player: str) -> dict[str, Any]:
    """A player's latest ratings as the JSON writes them: ``rating`` over all games (None
    before their first finished game), ``game_ratings`` in each game they played."""
    overall = board.get(ratings.ALL_GAMES, {}).get(player)
    in_games = [
        {"game": game, "lower_is_better": lower, "rating": _rating_json(rated[player])}
        for (game, lower), rated in sorted(board.items())
        if (game, lower) != ratings.ALL_GAMES and player in rated
    ]
    return {
        "rating": None if overall is None else _rating_json(overall),
        "game_ratings": in_games,
    }


def _in_file_order(
    group_decks: list[decks.Profile], played_with: list[str | None]
) -> list[decks.Profile]:
    """The group's decks in the order its sessions (playing with the decks ``played_with``)
    first played with them, then those not played yet by name: an imported group exports
    the same file."""
    first_played: dict[str, int] = {}
    for index, deck in enumerate(played_with):
        if deck is not None:
            first_played.setdefault(deck, index)
    return sorted(
        group_decks, key=lambda p: (first_played.get(p.id, len(played_with)), p.name, p.id)
    )


def _cell(text: str) -> str:
    return "'" + text if text.startswith(_FORMULA_STARTS) else text


def _uncell(text: str) -> str:
    return text[1:] if text.startswith("'") else text


def group_csv(group: groups.Group) -> str:
    """A "group" row (its name and the file's format version), a "player" row per player
    in order, a "session" row per session with its export (as in the JSON) in "session";
    then a "rating" row per player per rated session, in the order of the sessions and
    their seats: the session's number, the player's name and their ratings after it, as
    the pages show them (``ratings.COLUMNS``)."""
    group_decks, listed, parts = _parts(group)
    exported = _file(group, group_decks, [_as_data(part) for part in parts])
    blank = [""] * len(ratings.COLUMNS)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(EXPORTED_COLUMNS)
    writer.writerow(["group", FORMAT_VERSION, _cell(group.name), "", "", "", *blank])
    for player in exported["players"]:
        cells = (player["name"], player["colour"], player["emoji"])
        writer.writerow(["player", player["number"], *map(_cell, cells), "", *blank])
    for deck in exported["decks"]:
        # A deck's game and sizes are no cells of their own: its row carries them as JSON.
        text = json.dumps(
            {"game": deck["game"], "sizes": deck["sizes"]},
            ensure_ascii=False,
            separators=(",", ":"),
        )
        writer.writerow(["deck", deck["number"], _cell(deck["name"]), "", "", text, *blank])
    for number, session in enumerate(exported["sessions"]):
        text = json.dumps(session, ensure_ascii=False, separators=(",", ":"))
        writer.writerow(["session", number, "", "", "", text, *blank])
    names = {player.id: player.name for player in group.players}
    after = ratings.after_each_session(group.id)
    for number, session in enumerate(listed):
        rated = after.get(session.id, {})
        for player_id in _seat_players(session.seats):
            if player_id in rated and player_id in names:
                figures = rated[player_id].figures()
                writer.writerow(["rating", number, _cell(names[player_id]), "", "", "", *figures])
    return out.getvalue()


# What reading a group CSV refuses (a row by its number, as a spreadsheet counts them).
CSV_LINE_BREAK = phrase(
    "group-csv.line-break",
    "Line {line} of the file cannot be read as CSV: a cell holding a line break must be in quotes.",
)
NOT_A_GROUP_CSV = phrase(
    "group-csv.not-a-group-csv", "This is not a group CSV file: its first row must be {columns}."
)
ROW_COLUMNS = phrase("group-csv.row-columns", "Row {row} has {count} columns; each row has {each}.")
ONE_GROUP_ROW = phrase("group-csv.one-group-row", "Row {row}: a file holds one group row.")
DECK_NOT_AN_OBJECT = phrase(
    "group-csv.deck-not-an-object",
    "Row {row}, column session must hold a deck's game and sizes as a JSON object.",
)
UNKNOWN_KIND = phrase(
    "group-csv.unknown-kind",
    "Row {row}, column kind must be group, player, deck, session or rating, not {kind}.",
)
NO_GROUP_ROW = phrase("group-csv.no-group-row", "The file has no group row: its name is missing.")
CELL_NESTS_TOO_DEEPLY = phrase(
    "group-csv.nests-too-deeply", "Row {row}, column session nests too deeply to be {what}."
)
CELL_NOT_JSON = phrase("group-csv.not-json", "Row {row}, column session is not {what} ({problem}).")
A_DECK = phrase("group-csv.a-deck", "a deck's game and sizes")
A_SESSION = phrase("group-csv.a-session", "a session's JSON")


def csv_as_json(text: str) -> dict[str, Any]:
    """A group CSV as the JSON file it carries; a bad row is named by its number and column."""
    reader = csv.reader(io.StringIO(text))
    try:
        rows = list(reader)
    except csv.Error:
        # What is left to refuse once the text is checked (no NUL) and no cell can pass the
        # field limit: a carriage return alone in a cell without quotes. The reader counts
        # lines, not rows (a quoted cell may hold line breaks).
        raise IllegalAction(CSV_LINE_BREAK(line=reader.line_num), "file") from None
    # A file of before the ratings were exported has none of their columns.
    if not rows or tuple(rows[0]) not in (EXPORTED_COLUMNS, CSV_COLUMNS):
        # The columns as the file writes them (not words to translate).
        raise IllegalAction(NOT_A_GROUP_CSV(columns=",".join(EXPORTED_COLUMNS)), "row 1")
    columns = tuple(rows[0])
    data: dict[str, Any] = {"format": FORMAT, "players": [], "decks": [], "sessions": []}
    for number, row in enumerate(rows[1:], start=2):
        if not any(row):
            continue
        if len(row) != len(columns):
            raise IllegalAction(
                ROW_COLUMNS(row=number, count=len(row), each=len(columns)), f"row {number}"
            )
        cells = dict(zip(columns, row, strict=True))
        kind = cells["kind"]
        if kind == "group":
            if "name" in data:
                raise IllegalAction(ONE_GROUP_ROW(row=number), f"row {number}")
            version = cells["number"]
            # Read as a number when it is one int() reads: not "²" (a digit to isdigit), nor
            # thousands of digits. Any other text stays text, which read_group refuses.
            short = is_digits(version) and len(version) <= 9
            data["format_version"] = int(version) if short else version
            data["name"] = _uncell(cells["name"])
        elif kind == "player":
            data["players"].append(
                {column: _uncell(cells[column]) for column in ("name", "colour", "emoji")}
            )
        elif kind == "deck":
            deck = _cell_json(cells["session"], number, A_DECK())
            if not isinstance(deck, dict):
                raise IllegalAction(DECK_NOT_AN_OBJECT(row=number), f"row {number}, column session")
            data["decks"].append({**deck, "name": _uncell(cells["name"])})
        elif kind == "session":
            data["sessions"].append(_cell_json(cells["session"], number, A_SESSION()))
        elif kind != "rating":  # ratings are rated again from the sessions
            raise IllegalAction(
                UNKNOWN_KIND(row=number, kind=repr(kind)), f"row {number}, column kind"
            )
    if "name" not in data:
        raise IllegalAction(NO_GROUP_ROW(), "name")
    return data


def _cell_json(text: str, number: int, what: Text) -> object:
    """The JSON in row ``number``'s session column, which holds ``what``."""
    try:
        return json.loads(text)
    except RecursionError:
        raise IllegalAction(
            CELL_NESTS_TOO_DEEPLY(row=number, what=what), f"row {number}, column session"
        ) from None
    except ValueError as error:
        raise IllegalAction(
            CELL_NOT_JSON(row=number, what=what, problem=json_error_text(error)),
            f"row {number}, column session",
        ) from None


# What reading a group file refuses, beside what a session file's check says of its sessions
# (scorekeeper.export), each named by the session it is in.
NOT_A_GROUP_FILE = phrase(
    "export.group.not-a-group-file", "This is not a group file exported by Tabletop Scorekeeper."
)
GROUP_FORMAT_VERSION = phrase(
    "export.group.format-version",
    "This file has format version {version}; this app reads version {readable}.",
)
SESSIONS_NOT_A_LIST = phrase(
    "export.group.sessions-not-a-list", "“sessions” must be a list of session exports."
)
DECK_REFUSED = phrase("export.group.deck-refused", "Deck {number}: {refusal}")
TOO_MANY_PLAYERS = phrase("export.group.too-many-players", "A group has at most {most} players.")
SAME_NAME = phrase(
    "export.group.same-name", "Two players are called {name}; each player has their own name."
)
NOT_NUMBERS = phrase("export.group.not-numbers", "“{field}” must be an object of numbers.")
NOT_A_NUMBER = phrase("export.group.not-a-number", "“{field}” must be a number.")
NOT_A_DECK = phrase(
    "export.group.not-a-deck",
    "{session}: “deck” must be the number of one of the file's {game} decks, or null.",
)
NOT_A_PLAYER = phrase(
    "export.group.not-a-player",
    "{session}, seat {seat}: “player” must be the number of one of the file's {players} "
    "players (0 to {highest}), or null.",
)
SEATED_TWICE = phrase(
    "export.group.seated-twice",
    "{session}, seat {seat}: player {player} already sits in this session; each player "
    "takes one seat.",
)
SESSION_REFUSED = phrase("export.group.session-refused", "{session}: {refusal}")
SESSION_NUMBER = phrase("export.group.session", "Session {number}")
A_GROUP_FILE = phrase("export.group.label-file", "A group file")


def read_group(data: object) -> ImportedGroup:
    """The parts of an exported group file an import needs, checked for shape."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise IllegalAction(NOT_A_GROUP_FILE(), "format")
    version = data.get("format_version")
    if isinstance(version, bool) or version != FORMAT_VERSION:
        raise IllegalAction(
            GROUP_FORMAT_VERSION(version=repr(version), readable=FORMAT_VERSION), "format_version"
        )
    check_known_fields(data, FILE_FIELDS, A_GROUP_FILE(), "")
    name = groups.check_group_name(data.get("name"))
    players = _read_players(data.get("players"))
    group_decks = _read_decks(data.get("decks", []))
    listed = data.get("sessions")
    if not isinstance(listed, list):
        raise IllegalAction(SESSIONS_NOT_A_LIST(), "sessions")
    sessions = tuple(
        _read_session(session, len(players), group_decks, f"sessions.{index}")
        for index, session in enumerate(listed)
    )
    return ImportedGroup(name, players, sessions, group_decks)


def _read_decks(listed: object) -> tuple[ImportedDeck, ...]:
    if not isinstance(listed, list) or not all(isinstance(d, dict) for d in listed):
        raise IllegalAction(LIST_OF(field="decks", shape="{game, name, sizes}"), "decks")
    read = []
    for index, deck in enumerate(listed):
        field = f"decks.{index}"
        check_known_fields(deck, DECK_FIELDS, ENTRY_OF(index=index, name="decks"), field)
        try:
            game = get_game(deck.get("game"))
            decks.sized_cards(game.slug)
        except IllegalAction as refused:
            refusal = DECK_REFUSED(number=index + 1, refusal=refused.said)
            raise IllegalAction(refusal, f"{field}.game") from None
        read.append(ImportedDeck(game.slug, deck.get("name"), deck.get("sizes", {})))
    return tuple(read)


def _read_players(listed: object) -> tuple[ImportedPlayer, ...]:
    if not isinstance(listed, list) or not all(isinstance(p, dict) for p in listed):
        raise IllegalAction(LIST_OF(field="players", shape="{name, colour, emoji}"), "players")
    if len(listed) > groups.MAX_PLAYERS:
        raise IllegalAction(TOO_MANY_PLAYERS(most=groups.MAX_PLAYERS), "players")
    players: list[ImportedPlayer] = []
    for index, player in enumerate(listed):
        field = f"players.{index}"
        check_known_fields(player, PLAYER_FIELDS, ENTRY_OF(index=index, name="players"), field)
        _check_ratings(player, field)
        read = ImportedPlayer(
            groups.check_player_name(player.get("name"), f"{field}.name"),
            groups.check_colour(player.get("colour", ""), f"{field}.colour"),
            groups.check_emoji(player.get("emoji", ""), f"{field}.emoji"),
        )
        if any(other.name.casefold() == read.name.casefold() for other in players):
            raise IllegalAction(SAME_NAME(name=read.name), f"{field}.name")
        players.append(read)
    return tuple(players)


def _check_ratings(player: Mapping[str, object], field: str) -> None:
    """A player's ratings as the file writes them (``_latest_ratings``), or IllegalAction
    naming what is wrong: the import reads nothing of them (it rates the sessions again),
    but takes no file the export could not have written."""
    _check_rating(player.get("rating"), f"{field}.rating", nullable=True)
    in_games = player.get("game_ratings", [])
    if not isinstance(in_games, list):
        at = f"{field}.game_ratings"
        raise IllegalAction(NOT_A_LIST(field=at), at)
    for index, in_game in enumerate(in_games):
        at = f"{field}.game_ratings.{index}"
        if not isinstance(in_game, dict):
            raise IllegalAction(NOT_AN_OBJECT(field=at), at)
        check_known_fields(in_game, GAME_RATING_FIELDS, FIELD_LABEL(field=at), at)
        _check_rating(in_game.get("rating"), f"{at}.rating", nullable=False)


def _check_rating(rating: object, field: str, nullable: bool) -> None:
    if rating is None and nullable:
        return
    if not isinstance(rating, dict):
        raise IllegalAction(NOT_NUMBERS(field=field), field)
    check_known_fields(rating, RATING_FIELDS, FIELD_LABEL(field=field), field)
    for name, figure in rating.items():
        if isinstance(figure, bool) or not isinstance(figure, int | float):
            raise IllegalAction(NOT_A_NUMBER(field=f"{field}.{name}"), f"{field}.{name}")


def _read_session(
    data: object, players: int, group_decks: tuple[ImportedDeck, ...], field: str
) -> ImportedGroupSession:
    # The group's deck it played with is the group file's part of the session, as its seats'
    # players are: the rest is a session export.
    exported = {k: v for k, v in data.items() if k != "deck"} if isinstance(data, dict) else data
    try:
        session = read_export(exported, SEATED_FIELDS)
    except IllegalAction as refused:
        raise _in_session(refused, field) from None
    assert isinstance(data, dict)  # read_export refused anything else
    deck = data.get("deck")
    if deck is not None and not (
        isinstance(deck, int)
        and not isinstance(deck, bool)
        and 0 <= deck < len(group_decks)
        and group_decks[deck].game == session.game
    ):
        raise IllegalAction(NOT_A_DECK(session=_title(field), game=session.game), f"{field}.deck")
    seated: list[int | None] = []
    for position, seat in enumerate(data["seats"]):
        where = f"{field}.seats.{position}.player"
        player = seat.get("player")
        if player is not None and not (
            isinstance(player, int) and not isinstance(player, bool) and 0 <= player < players
        ):
            refusal = NOT_A_PLAYER(
                session=_title(field), seat=position + 1, players=players, highest=players - 1
            )
            raise IllegalAction(refusal, where)
        if player is not None and player in seated:
            refusal = SEATED_TWICE(session=_title(field), seat=position + 1, player=player)
            raise IllegalAction(refusal, where)
        seated.append(player)
    return ImportedGroupSession(session, tuple(seated), deck)


def _title(field: str) -> Text:
    """A session's field ("sessions.2") as a person counts it ("Session 3")."""
    return SESSION_NUMBER(number=int(field.rsplit(".", 1)[1]) + 1)


def _in_session(refused: IllegalAction, field: str) -> IllegalAction:
    inner = f"{field}.{refused.field}" if refused.field else field
    return IllegalAction(SESSION_REFUSED(session=_title(field), refusal=refused.said), inner)


def import_group(imported: ImportedGroup, once: store.OneTimeKey | None = None) -> groups.Group:
    """A new group identical to an exported one, its sessions imported (marked so) and
    each seat linked to its new player; nothing is written if any part is refused."""
    group_id = keys.new_id()
    try:
        with write_transaction():
            store.claim_key(once, IMPORT_SCOPE)
            PlayerGroup.create(id=group_id, edit_key=keys.new_key(), name=imported.name)
            player_ids = [
                GroupPlayer.create(group=group_id, **vars(player)).id for player in imported.players
            ]
            deck_ids = [
                decks.insert(
                    get_game(deck.game),
                    deck.name,
                    deck.sizes,
                    f"decks.{index}.name",
                    f"decks.{index}.sizes",
                    group=group_id,
                ).id
                for index, deck in enumerate(imported.decks)
            ]
            for index, entry in enumerate(imported.sessions):
                deck_id = None if entry.deck is None else deck_ids[entry.deck]
                try:
                    session_id, _key = lifecycle.import_session(entry.session, deck=deck_id)
                except IllegalAction as refused:
                    raise _in_session(refused, f"sessions.{index}") from None
                groups.link_seats(
                    session_id,
                    group_id,
                    [None if place is None else player_ids[place] for place in entry.players],
                )
            ratings.rate_group(group_id)
            if once is not None:
                RequestKey.update(answer={"group": group_id}).where(
                    (RequestKey.scope == IMPORT_SCOPE) & (RequestKey.key == once.key)
                ).execute()
    except store.AlreadyRecorded as repeated:
        raise AlreadyImported(str(repeated.answer["group"])) from None
    except IntegrityError:
        # The same key at the same moment from a double tap: the other import won.
        row = RequestKey.get_or_none(scope=IMPORT_SCOPE, key=once.key) if once else None
        if row is None or not isinstance(row.answer, dict):
            raise
        raise AlreadyImported(str(row.answer["group"])) from None
    return groups.load(group_id)
