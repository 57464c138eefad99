"""Session results as CSV (a row per seat per round, or the grid of a paper score sheet)
and JSON, and reading such JSON back for an import.

The JSON carries everything needed to rebuild an identical session: game,
options, seats and every event (undone ones too, and what each correction
replaced). Rounds and standings are included for readers of the file; an
import recomputes them by replay.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeGuard

from scorekeeper import ratings, read_model
from scorekeeper.games import GAMES
from scorekeeper.games.base import (
    FIELD_LABEL,
    IllegalAction,
    ScoreRow,
    check_known_fields,
    parse_whole_number,
)
from scorekeeper.games.cards import with_suit_symbols
from scorekeeper.games.words import ENGLISH, Phrase, Reader, Text, all_of, phrase
from scorekeeper.lifecycle import ImportedCorrection, ImportedSession
from scorekeeper.session_log import LoggedEvent, Replaced, corrections
from scorekeeper.session_views import SessionView

FORMAT = "tabletop-scorekeeper/session"
# Seats count from 0 as everywhere in the API: version 2 began with the seat an option
# names (version 1 counted first_dealer from 1), version 3 the seats' positions and the
# seat of each round and standing (an import reads seats in their order, so only the
# options of a version 1 file need converting). An event's "corrections", and the
# session's "started_at" and "finished_at", came later in version 3: optional, a file
# without them reads as before.
FORMAT_VERSION = 3
READABLE_VERSIONS = (1, 2, FORMAT_VERSION)
# The properties of a session file and of the objects in it, as session_json writes them:
# an import refuses any other, naming it, as every request does.
FILE_FIELDS = frozenset(
    {
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
        "started_at",
        "finished_at",
        "deck_profile",
    }
)
SEAT_FIELDS = frozenset({"position", "name"})
ENTRY_FIELDS = {
    "seats": SEAT_FIELDS,
    "events": frozenset({"seq", "action", "undone", "redoable", "text", "ruling", "corrections"}),
    "rounds": frozenset({"round", "seat", "player", "points", "running_total", "note"}),
    "standings": frozenset({"rank", "seat", "player", "score"}),
}
CORRECTION_FIELDS = frozenset({"action", "text", "corrected_at"})
DECK_FIELDS = frozenset({"name", "sizes"})

# Event numbers are stored in a 32-bit integer column.
MAX_SEQ = 2**31 - 1
# How large a session file an import takes (README: Limits): the export of the longest
# session the app records (store.MAX_EVENTS) fits, with twelve seats of 40-letter names.
FILE_MAX_BYTES = 64 * 1024 * 1024
# How the file writes a time (UTC), as the refusal of a bad one shows it.
EXAMPLE_TIME = "2026-11-24T20:15:00Z"

# What an import refuses of a file, naming the part at fault. A group file's checks say
# some of them too (scorekeeper.group_export).
NOT_A_SESSION_FILE = phrase(
    "export.not-a-session-file", "This is not a session file exported by Tabletop Scorekeeper."
)
FORMAT_VERSIONS = phrase(
    "export.format-versions",
    "This file has format version {version}; this app reads versions {versions}.",
)
NOT_AN_OBJECT = phrase("export.not-an-object", "“{field}” must be an object.")
NOT_A_LIST = phrase("export.not-a-list", "“{field}” must be a list.")
# ``shape``: the properties of each entry, as the file writes them ("{position, name}").
LIST_OF = phrase("export.list-of", "“{field}” must be a list of {shape}.")
DECK_NOT_AN_OBJECT = phrase(
    "export.deck-profile-not-an-object", "“deck_profile” must be an object: a name and sizes."
)
ENDS_BEFORE_START = phrase(
    "export.ends-before-start",
    "“finished_at” is before “started_at”: a session ends after it starts.",
)
NOT_A_TIME = phrase(
    "export.not-a-time", "“{name}” must be a date and time such as {example}, or null."
)
EVENT_WITHOUT_ACTION = phrase("export.event-without-action", "Event {number} has no action.")
EVENT_SEQ = phrase(
    "export.event-seq", "Event {number}: “seq” must be a rising whole number up to {most}."
)
EVENT_UNDONE_REDOABLE = phrase(
    "export.event-undone-redoable", "Event {number}: “undone”/“redoable” are not valid."
)
LIVE_AFTER_REDOABLE = phrase(
    "export.live-after-redoable",
    "Event {number} is live after a redoable event; only the newest undone events can be redoable.",
)
CORRECTIONS_NOT_A_LIST = phrase(
    "export.corrections-not-a-list", "Event {number}: “corrections” must be a list."
)
CORRECTION_WITHOUT_ACTION = phrase(
    "export.correction-without-action", "Event {number}: correction {correction} has no action."
)
CORRECTION_TIME = phrase(
    "export.correction-time",
    "Event {number}: correction {correction}'s “corrected_at” must be a date and time such "
    "as {example}.",
)
# What a refusal of an unknown property calls the object that has it.
A_SESSION_FILE = phrase("export.label-session-file", "A session file")
ENTRY_OF = phrase("export.label-entry", "Entry {index} of “{name}”")
A_CORRECTION = phrase("export.label-correction", "Event {number}: correction {correction}")
# The rows CSV: one row per seat per round (or turn). The game is on every row (files
# pasted into one sheet keep which game each row is), and a seat's final place and win on
# each of its rows (a filter on the winners keeps their rows whole); when the session
# started and ended is said once, on the first row. Each row is a dict of these names
# (``csv_table``): a column is one more name here and one more key there.
CSV_COLUMNS = (
    "game",
    "round",
    "seat",
    "player",
    "points",
    "running_total",
    "note",
    "place",
    "winner",
    # A seat's group player's ratings after the session, over all the group's games, then
    # in this game (scorekeeper/ratings.py), as the statistics page shows them.
    *ratings.COLUMNS,
    "started_at",
    "finished_at",
)
# The CSVs' headings and words in the language the file was asked in (English: the
# column names above, as the API writes them); the JSON export has no words to translate.
CSV_HEADINGS: dict[str, Phrase] = {
    "game": phrase("csv.game", "game"),
    "round": phrase("csv.round", "round"),
    "seat": phrase("csv.seat", "seat"),
    "player": phrase("csv.player", "player"),
    "points": phrase("csv.points", "points"),
    "running_total": phrase("csv.running-total", "running_total"),
    "note": phrase("csv.note", "note"),
    "place": phrase("csv.place", "place"),
    "winner": phrase("csv.winner", "winner"),
    "rating": phrase("csv.rating", "rating"),
    "rating_change": phrase("csv.rating-change", "rating_change"),
    "game_rating": phrase("csv.game-rating", "game_rating"),
    "game_rating_change": phrase("csv.game-rating-change", "game_rating_change"),
    "started_at": phrase("csv.started-at", "started_at"),
    "finished_at": phrase("csv.finished-at", "finished_at"),
    "total": phrase("csv.total", "total"),
}
WON = phrase("csv.won", "yes")
NOT_WON = phrase("csv.not-won", "no")


def heading(column: str, reader: Reader = ENGLISH) -> str:
    """A CSV column's heading in the reader's language (a seat's number stays as it is)."""
    said = CSV_HEADINGS.get(column)
    return column if said is None else reader.read(said())


def _read(text: str, reader: Reader) -> str:
    return reader.read(text) if isinstance(text, Text) else text


# The option in which a score sheet names the game it keeps ("Hearts"): the game of its
# files, else the game's title.
GAME_NAME_OPTION = "game_name"


def session_json(view: SessionView) -> dict[str, Any]:
    game = view.game
    replaced = corrections(view.id, view.game)
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.slug,
        "options": view.options,
        "seats": [{"position": i, "name": name} for i, name in enumerate(view.seats)],
        "events": [event_json(event, replaced) for event in view.events],
        "rounds": [row_json(row) for row in game.score_rows(view.state)],
        "standings": [
            {"rank": s.rank, "seat": s.seat, "player": s.name, "score": s.score}
            for s in game.standings(view.state)
        ],
        "finished": view.finished,
        "winners": [view.seats[seat] for seat in game.winners(view.state)] if view.finished else [],
        **session_times(view),
        **(
            {"deck_profile": {"name": view.deck.name, "sizes": dict(view.deck.sizes)}}
            if view.deck is not None
            else {}
        ),
    }


def event_json(event: LoggedEvent, replaced: Mapping[int, Sequence[Replaced]]) -> dict[str, Any]:
    """An event as the export writes it, with what its corrections replaced (``replaced``:
    ``session_log.corrections``) if any."""
    return {
        "seq": event.seq,
        "action": event.action,
        "undone": event.undone,
        "redoable": event.redoable,
        "text": event.text,
        "ruling": event.ruling,
        **(
            {
                "corrections": [
                    {
                        "action": earlier.action,
                        "text": earlier.text,
                        "corrected_at": utc_text(earlier.corrected_at),
                    }
                    for earlier in replaced[event.seq]
                ]
            }
            if event.seq in replaced
            else {}
        ),
    }


def row_json(row: ScoreRow) -> dict[str, Any]:
    """One seat's result in one round (or turn), as the export's ``rounds`` write it."""
    return {
        "round": row.round,
        "seat": row.seat,
        "player": row.name,
        "points": row.points,
        "running_total": row.total,
        "note": row.note,
    }


def session_times(view: SessionView) -> dict[str, str | None]:
    """When the session started and ended (None while in play), as UTC text."""
    ended = view.finished_at
    return {
        "started_at": utc_text(view.started_at),
        "finished_at": None if ended is None else utc_text(ended),
    }


def utc_text(moment: datetime) -> str:
    """A stored (UTC) time as ISO 8601 with its zone: 2026-11-24T20:15:00Z."""
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def game_played(view: SessionView) -> str:
    """The game a session's files name: a score sheet's own name for it, else the title."""
    named = view.options.get(GAME_NAME_OPTION)
    return named if isinstance(named, str) and named else view.game.title


def session_csv(view: SessionView, reader: Reader = ENGLISH) -> str:
    """One row per seat per round (or turn): the seat's points, running total and the
    round's note as the pages show it (cards with their suit symbols); once the session is
    finished each seat's place and whether it won (``yes``/``no``; blank while in play)
    and, for a seat of a group's player, the player's ratings after it and their changes;
    on the first row when the session started and ended (blank while in play). Its
    headings and words are ``reader``'s language's (English: as the API writes them)."""
    game = view.game
    outcome = read_model.outcome_of(game, view.state) if view.finished else None
    rated = ratings.after_session(view.id) if view.finished else {}
    times = session_times(view)
    rows = []
    for number, row in enumerate(game.score_rows(view.state)):
        seat = None if outcome is None else outcome.seats.get(row.seat)
        rows.append(
            {
                **_ratings_after(rated.get(row.seat)),
                "game": _read(game_played(view), reader),
                "round": row.round,
                "seat": row.seat,
                "player": row.name,
                "points": row.points,
                "running_total": row.total,
                "note": with_suit_symbols(_read(row.note, reader)),
                "place": "" if seat is None else seat.place,
                "winner": "" if seat is None else reader.read((WON if seat.won else NOT_WON)()),
                **(times if number == 0 else {}),
            }
        )
    return csv_table(CSV_COLUMNS, rows, headings=[heading(c, reader) for c in CSV_COLUMNS])


def _ratings_after(after: ratings.AfterGame | None) -> dict[str, float]:
    return {} if after is None else dict(zip(ratings.COLUMNS, after.figures(), strict=True))


def session_grid_csv(view: SessionView, reader: Reader = ENGLISH) -> str:
    """The rounds-by-players grid of a paper score sheet: a header row of the players'
    names, a row per round (or turn) with each seat's points in it (blank for a seat with
    none), then each seat's total and, once the session is finished, its place; its
    words in ``reader``'s language."""
    game = view.game
    seats = range(len(view.seats))
    by_round: dict[int, dict[int, int]] = {}
    totals: dict[int, int] = {}
    for row in game.score_rows(view.state):
        points = by_round.setdefault(row.round, {})
        points[row.seat] = points.get(row.seat, 0) + row.points
        totals[row.seat] = row.total
    header = ("round", *(str(seat) for seat in seats))
    names = {str(seat): name for seat, name in enumerate(view.seats)}
    grid: list[dict[str, object]] = [{"round": heading("round", reader), **names}]
    for number, points in by_round.items():
        grid.append({"round": number, **{str(seat): points.get(seat, "") for seat in seats}})
    grid.append(
        {"round": heading("total", reader), **{str(seat): totals.get(seat, "") for seat in seats}}
    )
    if view.finished:
        places = read_model.outcome_of(game, view.state).seats
        grid.append(
            {
                "round": heading("place", reader),
                **{str(s): places[s].place if s in places else "" for s in seats},
            }
        )
    return csv_table(header, grid, header_row=False)


def csv_table(
    columns: Sequence[str],
    rows: Sequence[Mapping[str, object]],
    header_row: bool = True,
    headings: Sequence[str] | None = None,
) -> str:
    """``rows`` as CSV in the order of ``columns`` (a missing one blank), after a header
    row of the column names (or of ``headings``) unless ``header_row`` is false; text is
    kept text in a spreadsheet (``_csv_safe``), numbers are written as numbers; lines end
    in CRLF."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    if header_row:
        writer.writerow(columns if headings is None else headings)
    for row in rows:
        cells = (row.get(column, "") for column in columns)
        writer.writerow([_csv_safe(cell) if isinstance(cell, str) else cell for cell in cells])
    return out.getvalue()


def _csv_safe(text: str) -> str:
    # Any text may start with a name ("=cmd()", or a note like "+1+1 revoked: …"): it must
    # stay text when the file is opened in a spreadsheet. Numbers are written as numbers.
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def seats_counted_from_zero(slug: object, options: dict[str, object]) -> dict[str, object]:
    """A version 1 file's options with each seat they name counted from 0, as version 2 does."""
    game = GAMES.get(slug) if isinstance(slug, str) else None
    if game is None:
        return options
    converted = dict(options)
    for spec in game.options:
        if spec.kind == "seat" and spec.name in options:
            field = f"options.{spec.name}"
            converted[spec.name] = parse_whole_number(options[spec.name], spec.label, field) - 1
    return converted


def read_export(data: object, seat_fields: frozenset[str] = SEAT_FIELDS) -> ImportedSession:
    """The parts of an exported file an import needs, checked for shape; ``seat_fields``:
    the properties a seat may have (a group's file seats its players too)."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise IllegalAction(NOT_A_SESSION_FILE(), "format")
    version = data.get("format_version")
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        raise IllegalAction(
            FORMAT_VERSIONS(version=repr(version), versions=all_of(READABLE_VERSIONS)),
            "format_version",
        )
    # Checked once the version is known to be one this app reads: another has other fields.
    _check_known_fields(data, seat_fields)
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise IllegalAction(NOT_AN_OBJECT(field="options"), "options")
    if version == 1:
        options = seats_counted_from_zero(data.get("game"), options)
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(seat, dict) for seat in seats):
        raise IllegalAction(LIST_OF(field="seats", shape="{position, name}"), "seats")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise IllegalAction(NOT_A_LIST(field="events"), "events")
    deck = data.get("deck_profile")
    if deck is not None and not isinstance(deck, dict):
        raise IllegalAction(DECK_NOT_AN_OBJECT(), "deck_profile")
    logged = _read_events(events)
    started_at, finished_at = (_read_time(data, name) for name in ("started_at", "finished_at"))
    if started_at is not None and finished_at is not None and finished_at < started_at:
        raise IllegalAction(ENDS_BEFORE_START(), "finished_at")
    return ImportedSession(
        game=str(data.get("game")),
        options=options,
        seats=[seat.get("name") for seat in seats],
        events=logged,
        deck_profile=None if deck is None else (deck.get("name"), deck.get("sizes", {})),
        corrections=_read_corrections(logged, events),
        started_at=started_at,
        finished_at=finished_at,
    )


def _check_known_fields(data: dict[str, Any], seat_fields: frozenset[str]) -> None:
    """Refuse a property the file's objects do not have, at any depth, naming it. The parts
    an import does not read (rounds, standings) are left alone if they are no list."""
    check_known_fields(data, FILE_FIELDS, A_SESSION_FILE(), "")
    for name, known in (ENTRY_FIELDS | {"seats": seat_fields}).items():
        listed = data.get(name)
        for index, entry in enumerate(listed if isinstance(listed, list) else []):
            if isinstance(entry, dict):
                label = ENTRY_OF(index=index, name=name)
                check_known_fields(entry, known, label, f"{name}.{index}")
    if isinstance(data.get("deck_profile"), dict):
        label = FIELD_LABEL(field="deck_profile")
        check_known_fields(data["deck_profile"], DECK_FIELDS, label, "deck_profile")


def _read_time(data: dict[str, Any], name: str) -> datetime | None:
    """The file's time called ``name`` (None: not given, or null)."""
    given = data.get(name)
    if given is None:
        return None
    moment = _utc_time(given)
    if moment is None:
        raise IllegalAction(NOT_A_TIME(name=name, example=EXAMPLE_TIME), name)
    return moment


def _is_seq(value: object) -> TypeGuard[int]:
    """Whether ``value`` can be an event's seq: a whole number from 1 to MAX_SEQ (JSON's
    true is none, though Python counts it as the int 1)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_SEQ


def _read_events(events: Sequence[object]) -> list[tuple[int, dict[str, object], bool, bool]]:
    read: list[tuple[int, dict[str, object], bool, bool]] = []
    # Whether an event read so far is redoable, kept as it goes: asking every event read so
    # far, at each event, took time growing with the square of the file's length.
    redo_trail = False
    for index, event in enumerate(events):
        number, field = index + 1, f"events.{index}"
        if not isinstance(event, dict) or not isinstance(event.get("action"), dict):
            raise IllegalAction(EVENT_WITHOUT_ACTION(number=number), field)
        seq = event.get("seq")
        if not _is_seq(seq) or (read and seq <= read[-1][0]):
            raise IllegalAction(EVENT_SEQ(number=number, most=MAX_SEQ), field)
        undone, redoable = event.get("undone", False), event.get("redoable", False)
        if (
            not isinstance(undone, bool)
            or not isinstance(redoable, bool)
            or (redoable and not undone)
        ):
            raise IllegalAction(EVENT_UNDONE_REDOABLE(number=number), field)
        # Only the newest undone events can be redone: a live event ends the redo trail.
        if not undone and redo_trail:
            raise IllegalAction(LIVE_AFTER_REDOABLE(number=number), field)
        redo_trail = redo_trail or redoable
        read.append((seq, event["action"], undone, redoable))
    return read


def _read_corrections(
    logged: Sequence[tuple[int, Any, bool, bool]], events: Sequence[object]
) -> list[ImportedCorrection]:
    """What the corrections of the events ``logged`` read from replaced, oldest first."""
    read: list[ImportedCorrection] = []
    for index, ((seq, *_), event) in enumerate(zip(logged, events, strict=True)):
        assert isinstance(event, dict)  # _read_events refused any other event
        listed = event.get("corrections", [])
        field = f"events.{index}.corrections"
        if not isinstance(listed, list):
            raise IllegalAction(CORRECTIONS_NOT_A_LIST(number=index + 1), field)
        for number, correction in enumerate(listed):
            where = f"{field}.{number}"
            which = {"number": index + 1, "correction": number + 1}
            if not isinstance(correction, dict) or not isinstance(correction.get("action"), dict):
                raise IllegalAction(CORRECTION_WITHOUT_ACTION(**which), where)
            check_known_fields(correction, CORRECTION_FIELDS, A_CORRECTION(**which), where)
            when = _utc_time(correction.get("corrected_at"))
            if when is None:
                raise IllegalAction(
                    CORRECTION_TIME(**which, example=EXAMPLE_TIME), f"{where}.corrected_at"
                )
            read.append((seq, correction["action"], when, where))
    return read


def _utc_time(text: object) -> datetime | None:
    """An ISO 8601 time as stored (UTC, no zone); one without a zone is taken as UTC."""
    if not isinstance(text, str) or len(text) > 40:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
