"""Numbered schema migrations: the only way the schema changes.

Each migration runs once, in order, inside one transaction with its record in
``schema_migration``. Add a new function to ``MIGRATIONS``; never edit one
that has shipped. A migration works on frozen copies of the tables as they
were when it shipped (below), never on the live models, whose shape moves on.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

import click
from flask import Flask
from peewee import (
    BigIntegerField,
    BlobField,
    BooleanField,
    CharField,
    CompositeKey,
    DateTimeField,
    DoubleField,
    ForeignKeyField,
    IntegerField,
    TextField,
    chunked,
)

from scorekeeper import keys, ratings, read_model, session_log
from scorekeeper.db import database, database_url, from_column, is_sqlite, write_transaction
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.models import BaseModel, utc_now


class SchemaMigration(BaseModel):
    number = IntegerField(primary_key=True)
    applied_at = IntegerField()

    class Meta:
        table_name = "schema_migration"


# --- Migration 1: sessions, seats, the event log, form keys ---------------------------


class _GameSession1(BaseModel):
    id = CharField(primary_key=True, max_length=32)
    game = CharField(max_length=32)
    options = TextField()
    edit_key = CharField(max_length=64)
    version = IntegerField(default=0)
    finished = BooleanField(default=False)
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "game_session"


class _Seat1(BaseModel):
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    position = IntegerField()
    name = CharField(max_length=40)

    class Meta:
        table_name = "seat"
        indexes = ((("session", "position"), True),)


class _Event1(BaseModel):
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    seq = IntegerField()
    action = TextField()
    undone = BooleanField(default=False)
    redoable = BooleanField(default=False)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "event"
        indexes = ((("session", "seq"), True),)


class _FormKey1(BaseModel):
    key = CharField(primary_key=True, max_length=64)
    session = ForeignKeyField(_GameSession1, null=True, on_delete="CASCADE")
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "form_key"


def create_initial_tables() -> None:
    database.create_tables([_GameSession1, _Seat1, _Event1, _FormKey1], safe=False)


# --- Migration 2: deck profiles ---------------------------------------------------------


class _DeckProfile2(BaseModel):
    id = CharField(primary_key=True, max_length=32)
    name = CharField(max_length=40)
    sizes = TextField(default="{}")
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "deck_profile"


class _SessionDeck2(BaseModel):
    session = ForeignKeyField(_GameSession1, primary_key=True, on_delete="CASCADE")
    profile = ForeignKeyField(_DeckProfile2, on_delete="CASCADE")

    class Meta:
        table_name = "session_deck"


def create_deck_profiles() -> None:
    database.create_tables([_DeckProfile2, _SessionDeck2], safe=False)


def _add_column(table: str, definition: str) -> None:
    """``ALTER TABLE … ADD COLUMN``, as SQLite and PostgreSQL both run it in place.

    playhouse's SQLite migrator adds a NOT NULL column by copying the table and
    dropping the old one, and dropping a table deletes, through ON DELETE
    CASCADE, the rows of every table that refers to it (a deck profile's
    sessions lost their link to it).
    """
    database.execute_sql(f"ALTER TABLE {table} ADD COLUMN {definition}")


# --- Migration 3: request keys scoped to their session; a key per deck profile ----------


class _RequestKey3(BaseModel):
    scope = CharField(max_length=32)
    key = CharField(max_length=64)
    fingerprint = CharField(max_length=64, default="")
    session = ForeignKeyField(_GameSession1, null=True, on_delete="CASCADE")
    answer = TextField(null=True)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "request_key"
        primary_key = CompositeKey("scope", "key")


def scope_request_keys_and_key_deck_profiles() -> None:
    database.create_tables([_RequestKey3], safe=False)
    # A form key of a session write becomes that session's; one of a new session stays
    # unscoped (its session is the one it created).
    database.execute_sql(
        "INSERT INTO request_key (scope, key, fingerprint, session_id, created_at) "
        "SELECT CASE WHEN f.session_id IS NULL THEN '' ELSE f.session_id END, f.key, '', "
        "f.session_id, f.created_at FROM form_key f"
    )
    database.drop_tables([_FormKey1])
    _add_column("deck_profile", "edit_key VARCHAR(64) NOT NULL DEFAULT ''")
    # Every existing profile gets a key of its own; until now its link was enough to edit.
    for row in _DeckProfile2.select(_DeckProfile2.id):
        database.execute_sql(
            f"UPDATE deck_profile SET edit_key = {database.param} WHERE id = {database.param}",
            (keys.new_key(), row.id),
        )


# --- Migration 4: seats counted from 0 in options too ------------------------------------

# The games whose options named the first dealer by a seat number counted from 1.
_FIRST_DEALER_GAMES = ("cryptruck", "yadokarick")


def count_first_dealer_from_0() -> None:
    cursor = database.execute_sql(
        f"SELECT id, options FROM game_session WHERE game IN ({database.param}, {database.param})",
        _FIRST_DEALER_GAMES,
    )
    for session_id, stored in cursor.fetchall():
        options = json.loads(stored)
        if "first_dealer" in options:
            options["first_dealer"] = int(options["first_dealer"]) - 1
            database.execute_sql(
                f"UPDATE game_session SET options = {database.param} WHERE id = {database.param}",
                (json.dumps(options, separators=(",", ":")), session_id),
            )


# --- Migration 5: options that pick several names are lists ------------------------------

# The "multi" options stored as names joined by commas, by game.
_MULTI_OPTIONS = {"cryptruck": ("colours",)}


def store_multi_options_as_lists() -> None:
    for game, names in _MULTI_OPTIONS.items():
        cursor = database.execute_sql(
            f"SELECT id, options FROM game_session WHERE game = {database.param}", (game,)
        )
        for session_id, stored in cursor.fetchall():
            options = json.loads(stored)
            for name in names:
                if isinstance(options.get(name), str):
                    options[name] = [picked for picked in options[name].split(",") if picked]
            database.execute_sql(
                f"UPDATE game_session SET options = {database.param} WHERE id = {database.param}",
                (json.dumps(options, separators=(",", ":")), session_id),
            )


# --- Migration 6: a deck profile names its game ------------------------------------------


def name_the_game_of_deck_profiles() -> None:
    # Until now only Yadokarick was played with deck profiles.
    _add_column("deck_profile", "game VARCHAR(32) NOT NULL DEFAULT 'yadokarick'")


# --- Migration 7: the version at which a session's log was last rewritten ----------------


def record_when_a_log_was_rewritten() -> None:
    # 0 for every existing session: a view built at any version may catch up, which is
    # sound as no worker holds a view built before this migration.
    _add_column("game_session", "rewritten_at INTEGER NOT NULL DEFAULT 0")


# --- Migration 8: corrections keep the action they replaced ------------------------------


class _Correction8(BaseModel):
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    seq = IntegerField()
    action = TextField()
    corrected_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "correction"
        indexes = ((("session", "seq"), False),)


def keep_what_corrections_replaced() -> None:
    # Corrections made before this migration overwrote their event: nothing to carry over.
    database.create_tables([_Correction8], safe=False)


# --- Migration 9: a session knows it came from an import ---------------------------------


def mark_imported_sessions() -> None:
    # Unknown for existing sessions: they are taken as not imported.
    _add_column("game_session", "imported BOOLEAN NOT NULL DEFAULT FALSE")


# --- Migration 10: groups of players --------------------------------------------------


class _PlayerGroup10(BaseModel):
    id = CharField(primary_key=True, max_length=32)
    edit_key = CharField(max_length=64)
    name = CharField(max_length=40)
    created_at = DateTimeField(default=utc_now)
    updated_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "player_group"


class _GroupPlayer10(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE")
    name = CharField(max_length=40)
    colour = CharField(max_length=7, default="")
    emoji = CharField(max_length=16, default="")
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "group_player"
        indexes = ((("group", "name"), True),)


def add_groups_and_players() -> None:
    database.create_tables([_PlayerGroup10, _GroupPlayer10], safe=False)
    # Existing sessions belong to no group and their seats to no player. Nullable columns
    # added in place (see _add_column), indexed as peewee indexes a foreign key.
    _add_column(
        "game_session",
        "group_id VARCHAR(32) REFERENCES player_group (id) ON DELETE SET NULL",
    )
    _add_column("seat", "player_id INTEGER REFERENCES group_player (id) ON DELETE SET NULL")
    database.execute_sql("CREATE INDEX game_session_group_id ON game_session (group_id)")
    database.execute_sql("CREATE INDEX seat_player_id ON seat (player_id)")


# --- Migration 11: when a session ended, and which session it is the rematch of ---------


def record_when_sessions_end() -> None:
    # The column type peewee gives a DateTimeField on each back end.
    timestamp = "DATETIME" if is_sqlite() else "TIMESTAMP"
    _add_column("game_session", f"finished_at {timestamp} NULL")
    _add_column(
        "game_session",
        "rematch_of_id VARCHAR(32) NULL REFERENCES game_session (id) ON DELETE SET NULL",
    )
    database.execute_sql("CREATE INDEX game_session_rematch_of_id ON game_session (rematch_of_id)")
    # A finished session ended with its newest live event (or, with none, its last change).
    database.execute_sql(
        "UPDATE game_session SET finished_at = COALESCE((SELECT MAX(e.created_at) FROM event e "
        f"WHERE e.session_id = game_session.id AND e.undone = {database.param}), updated_at) "
        f"WHERE finished = {database.param}",
        (False, True),
    )


# --- Migration 12: PostgreSQL announces every session's new version -----------------


def announce_session_versions() -> None:
    """On PostgreSQL, every change of a session's version is announced on a channel
    (``scorekeeper.announced``); SQLite has no such thing and needs none: its readers are
    in the same process or read the same file."""
    if is_sqlite():
        return
    database.execute_sql(
        "CREATE OR REPLACE FUNCTION announce_session_version() RETURNS trigger AS $$ "
        "BEGIN PERFORM pg_notify('session_version', NEW.id || ' ' || NEW.version); "
        "RETURN NULL; END $$ LANGUAGE plpgsql"
    )
    database.execute_sql(
        "CREATE TRIGGER game_session_announce_version "
        "AFTER INSERT OR UPDATE OF version ON game_session "
        "FOR EACH ROW EXECUTE FUNCTION announce_session_version()"
    )


# --- Migration 13: a finished session has one next game ---------------------------------


def keep_one_next_game_per_session() -> None:
    """A unique index on ``rematch_of``: a second rematch of a session cannot be stored.

    Before it, two phones tapping "Play again" at once could start two next games. Of
    those, the one the table went on playing (the most writes; the oldest of equals) stays
    the next game; the others stay as they are, seats, events and edit keys, as sessions
    that follow none, as when the session before is deleted. None is deleted: each may
    hold a game someone scored.
    """
    database.execute_sql(
        "UPDATE game_session SET rematch_of_id = NULL WHERE EXISTS (SELECT 1 FROM game_session "
        "kept WHERE kept.rematch_of_id = game_session.rematch_of_id AND (kept.version > "
        "game_session.version OR (kept.version = game_session.version AND (kept.created_at < "
        "game_session.created_at OR (kept.created_at = game_session.created_at AND kept.id < "
        "game_session.id)))))"
    )
    database.execute_sql("DROP INDEX game_session_rematch_of_id")
    database.execute_sql(
        "CREATE UNIQUE INDEX game_session_rematch_of_id ON game_session (rematch_of_id)"
    )


# --- Migration 14: the rights of each device, kept on the server ------------------------


class _Device14(BaseModel):
    id = CharField(primary_key=True, max_length=32)
    created_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device"


class _DeviceSession14(BaseModel):
    device = ForeignKeyField(_Device14, on_delete="CASCADE", index=False)
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    role = CharField(max_length=4)
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_session"
        primary_key = CompositeKey("device", "session")


class _DeviceGroup14(BaseModel):
    device = ForeignKeyField(_Device14, on_delete="CASCADE", index=False)
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE")
    role = CharField(max_length=4)
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_group"
        primary_key = CompositeKey("device", "group")


class _DeviceDeck14(BaseModel):
    device = ForeignKeyField(_Device14, on_delete="CASCADE", index=False)
    profile = ForeignKeyField(_DeckProfile2, on_delete="CASCADE")
    given_at = DateTimeField(default=utc_now)

    class Meta:
        table_name = "device_deck"
        primary_key = CompositeKey("device", "profile")


def keep_device_rights_on_the_server() -> None:
    # Rights still in cookies move here on each phone's next request (web.access).
    database.create_tables([_Device14, _DeviceSession14, _DeviceGroup14, _DeviceDeck14], safe=False)


# --- Migration 15: what lists and statistics read of a finished session -----------------


def keep_the_end_of_finished_sessions() -> None:
    """The columns of scorekeeper/read_model.py, filled for each finished session by
    replaying its log once (sessions in play have none until the write that ends them)."""
    for table, definition in (
        ("game_session", "rounds_played INTEGER NULL"),
        ("game_session", "lower_is_better BOOLEAN NULL"),
        ("seat", "score INTEGER NULL"),
        ("seat", "place INTEGER NULL"),
        ("seat", "won BOOLEAN NULL"),
    ):
        _add_column(table, definition)
    p = database.param
    finished = database.execute_sql(
        f"SELECT id, game, options FROM game_session WHERE finished = {p} ORDER BY id", (True,)
    ).fetchall()
    for session_id, slug, options in finished:
        seats = database.execute_sql(
            f"SELECT name FROM seat WHERE session_id = {p} ORDER BY position", (session_id,)
        )
        events = database.execute_sql(
            f"SELECT seq, action, undone, redoable FROM event WHERE session_id = {p} ORDER BY seq",
            (session_id,),
        )
        try:
            game = get_game(slug)
            state, _ = session_log.replay(
                game,
                [name for (name,) in seats],
                json.loads(options),
                [(seq, json.loads(action), bool(u), bool(r)) for seq, action, u, r in events],
            )
        except IllegalAction:
            # A log its game refuses now (no page could show it either): it keeps none,
            # and counts in no statistics, until a write to it replays.
            continue
        outcome = read_model.outcome_of(game, state)
        database.execute_sql(
            f"UPDATE game_session SET rounds_played = {p}, lower_is_better = {p} WHERE id = {p}",
            (outcome.rounds_played, outcome.lower_is_better, session_id),
        )
        for position, ended in outcome.seats.items():
            database.execute_sql(
                f"UPDATE seat SET score = {p}, place = {p}, won = {p} "
                f"WHERE session_id = {p} AND position = {p}",
                (ended.score, ended.place, ended.won, session_id, position),
            )


# --- Migration 16: each session's state saved every few hundred events -------------------


class _Snapshot16(BaseModel):
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    seq = IntegerField()
    count = IntegerField()
    live = BooleanField()
    fingerprint = CharField(max_length=64)
    # A pickled state, guarded by the engine's fingerprint (models.Snapshot).
    state = BlobField()

    class Meta:
        table_name = "snapshot"
        indexes = ((("session", "seq"), True),)


def snapshot_session_states() -> None:
    # Empty at first: a session's first read replays its log once and saves what it passed.
    database.create_tables([_Snapshot16], safe=False)


# --- Migration 17: a group's running totals, kept by the writes --------------------------


class _GroupGame17(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE", index=False)
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    played = IntegerField()
    last_ended = DateTimeField()

    class Meta:
        table_name = "group_game"
        primary_key = CompositeKey("group", "game", "lower_is_better")


class _GroupPlayerGame17(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE")
    player = ForeignKeyField(_GroupPlayer10, on_delete="CASCADE", index=False)
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    played = IntegerField()
    won = IntegerField()
    score_sum = BigIntegerField()
    score_min = IntegerField()
    score_max = IntegerField()
    last_ended = DateTimeField()

    class Meta:
        table_name = "group_player_game"
        primary_key = CompositeKey("player", "game", "lower_is_better")


class _GroupDay17(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE", index=False)
    day = IntegerField()
    week = IntegerField()
    month = IntegerField()
    year = IntegerField()
    played = IntegerField()

    class Meta:
        table_name = "group_day"
        primary_key = CompositeKey("group", "day")


class _GroupPlayerDay17(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE")
    player = ForeignKeyField(_GroupPlayer10, on_delete="CASCADE", index=False)
    day = IntegerField()
    week = IntegerField()
    month = IntegerField()
    year = IntegerField()
    won = IntegerField()

    class Meta:
        table_name = "group_player_day"
        primary_key = CompositeKey("player", "day")


def _days17(ended: datetime) -> dict[str, int]:
    # As scorekeeper/group_totals.buckets: the UTC day's ordinal, week from Monday, month, year.
    day = ended.date()
    ordinal = day.toordinal()
    return {
        "day": ordinal,
        "week": (ordinal - 1) // 7,
        "month": day.year * 12 + day.month - 1,
        "year": day.year,
    }


def keep_group_totals() -> None:
    """The tables of scorekeeper/group_totals.py, filled from the ends migration 15 and the
    writes since kept: one read of every counted seat, added up here."""
    tables = [_GroupGame17, _GroupPlayerGame17, _GroupDay17, _GroupPlayerDay17]
    database.create_tables(tables, safe=False)
    rows = database.execute_sql(
        "SELECT s.id, s.group_id, s.game, s.lower_is_better, "
        "COALESCE(s.finished_at, s.updated_at), seat.player_id, seat.score, seat.won "
        "FROM game_session s LEFT JOIN seat ON seat.session_id = s.id "
        "AND seat.player_id IS NOT NULL AND seat.score IS NOT NULL "
        f"WHERE s.finished = {database.param} AND s.group_id IS NOT NULL "
        "AND s.lower_is_better IS NOT NULL",
        (True,),
    ).fetchall()
    games: dict[tuple[str, str, bool], dict[str, Any]] = {}
    days: dict[tuple[str, int], dict[str, Any]] = {}
    players: dict[tuple[int, str, bool], dict[str, Any]] = {}
    wins: dict[tuple[int, int], dict[str, Any]] = {}
    sessions = set()
    for session_id, group, game, lower, stored, player, score, won in rows:
        ended = from_column(_GroupGame17.last_ended, stored)
        lower, on = bool(lower), _days17(ended)
        if session_id not in sessions:  # a session's first row (one per ranked seat)
            sessions.add(session_id)
            kept = games.setdefault(
                (group, game, lower),
                {"group": group, "game": game, "lower_is_better": lower, "played": 0},
            )
            kept["played"] += 1
            kept["last_ended"] = max(kept.get("last_ended", ended), ended)
            days.setdefault((group, on["day"]), {"group": group, "played": 0, **on})["played"] += 1
        if player is None:
            continue
        mine = players.setdefault(
            (player, game, lower),
            {
                "group": group,
                "player": player,
                "game": game,
                "lower_is_better": lower,
                "played": 0,
                "won": 0,
                "score_sum": 0,
                "score_min": score,
                "score_max": score,
                "last_ended": ended,
            },
        )
        mine["played"] += 1
        mine["won"] += bool(won)
        mine["score_sum"] += score
        mine["score_min"] = min(mine["score_min"], score)
        mine["score_max"] = max(mine["score_max"], score)
        mine["last_ended"] = max(mine["last_ended"], ended)
        if won:
            wins.setdefault(
                (player, on["day"]), {"group": group, "player": player, "won": 0, **on}
            )["won"] += 1
    filled: list[dict[Any, dict[str, Any]]] = [games, players, days, wins]
    for table, kept in zip(tables, filled, strict=True):
        for batch in chunked(kept.values(), 500):
            table.insert_many(batch).execute()


# --- Migration 18: a group's deck profiles ----------------------------------------------


def give_groups_their_decks() -> None:
    """A deck profile may be a group's: each profile a group's session played with, and
    that no group holds, becomes the group's of its earliest such session."""
    _add_column(
        "deck_profile", "group_id VARCHAR(32) REFERENCES player_group (id) ON DELETE SET NULL"
    )
    database.execute_sql("CREATE INDEX deck_profile_group_id ON deck_profile (group_id)")
    database.execute_sql(
        "UPDATE deck_profile SET group_id = (SELECT s.group_id FROM session_deck d "
        "JOIN game_session s ON s.id = d.session_id "
        "WHERE d.profile_id = deck_profile.id AND s.group_id IS NOT NULL "
        "ORDER BY s.created_at, s.id LIMIT 1)"
    )


# --- Migration 19: each player's rating after each finished session ---------------------


class _Rating19(BaseModel):
    group = ForeignKeyField(_PlayerGroup10, on_delete="CASCADE")
    session = ForeignKeyField(_GameSession1, on_delete="CASCADE")
    ended_at = DateTimeField()
    player = ForeignKeyField(_GroupPlayer10, on_delete="CASCADE")
    game = CharField(max_length=32)
    lower_is_better = BooleanField()
    mu = DoubleField()
    sigma = DoubleField()
    moved = DoubleField()
    played = IntegerField()
    won = IntegerField()
    places = IntegerField()
    latest = BooleanField()

    class Meta:
        table_name = "rating"
        indexes = (
            (("group", "latest"), False),
            (("group", "ended_at", "session"), False),
        )


def rate_every_group() -> None:
    """The ratings table (scorekeeper/ratings.py), filled by rating each group's finished
    sessions in the order they ended, from the seats migration 15 filled."""
    database.create_tables([_Rating19], safe=False)
    p = database.param
    rated = database.execute_sql(
        "SELECT DISTINCT group_id FROM game_session "
        f"WHERE group_id IS NOT NULL AND finished = {p} ORDER BY group_id",
        (True,),
    ).fetchall()
    for (group_id,) in rated:
        _rate_group(group_id)


def _rate_group(group_id: str) -> None:
    """Rate a group's finished sessions from none, in the order they ended, into rows of
    the rating table (which holds none of the group's)."""
    p = database.param
    seats = database.execute_sql(
        "SELECT s.id, s.finished_at, s.game, s.lower_is_better, t.player_id, t.place, t.won "
        "FROM seat t JOIN game_session s ON s.id = t.session_id "
        f"WHERE s.group_id = {p} AND s.finished = {p} AND t.place IS NOT NULL "
        "ORDER BY s.finished_at, s.id, t.position",
        (group_id, True),
    )
    rows = ratings.rate({}, ratings.ended_sessions(seats.fetchall()))
    newest = {row.key: index for index, row in enumerate(rows)}
    for index, row in enumerate(rows):
        skill = row.skill
        database.execute_sql(
            "INSERT INTO rating (group_id, session_id, ended_at, player_id, game, "
            "lower_is_better, mu, sigma, moved, played, won, places, latest) "
            f"VALUES ({', '.join([p] * 13)})",
            (
                group_id,
                row.session,
                row.ended_at,  # as the session's column holds it: they compare equal
                *row.key,
                skill.mu,
                skill.sigma,
                skill.moved,
                skill.played,
                skill.won,
                skill.places,
                newest[row.key] == index,
            ),
        )


# --- Migration 20: finished sessions' parts of their group's export, kept as text -----


class _ExportText20(BaseModel):
    session = ForeignKeyField(_GameSession1, primary_key=True, on_delete="CASCADE")
    version = IntegerField()
    fingerprint = CharField(max_length=64)
    context = TextField()
    text = TextField()

    class Meta:
        table_name = "export_text"


def keep_export_texts() -> None:
    """The table of the kept texts, empty: the next export of each group makes them."""
    database.create_tables([_ExportText20], safe=False)


# --- Migration 21: partners rated as one team ------------------------------------------


# The games of partners when this migration was written.
_PARTNER_GAMES = ("yokai-septet",)


def rate_partners_as_teams() -> None:
    """Each group that finished a game of partners (Yokai Septet) rated again from none:
    its teams are now one side each (scorekeeper/ratings.py), where every seat was its
    own; the ratings of every later session follow from them."""
    p = database.param
    partnered = _PARTNER_GAMES
    rated = database.execute_sql(
        "SELECT DISTINCT group_id FROM game_session WHERE group_id IS NOT NULL "
        f"AND finished = {p} AND game IN ({', '.join([p] * len(partnered))}) ORDER BY group_id",
        (True, *partnered),
    ).fetchall()
    for (group_id,) in rated:
        database.execute_sql(f"DELETE FROM rating WHERE group_id = {p}", (group_id,))
        _rate_group(group_id)


MIGRATIONS: tuple[Callable[[], None], ...] = (
    create_initial_tables,
    create_deck_profiles,
    scope_request_keys_and_key_deck_profiles,
    count_first_dealer_from_0,
    store_multi_options_as_lists,
    name_the_game_of_deck_profiles,
    record_when_a_log_was_rewritten,
    keep_what_corrections_replaced,
    mark_imported_sessions,
    add_groups_and_players,
    record_when_sessions_end,
    announce_session_versions,
    keep_one_next_game_per_session,
    keep_device_rights_on_the_server,
    keep_the_end_of_finished_sessions,
    snapshot_session_states,
    keep_group_totals,
    give_groups_their_decks,
    rate_every_group,
    keep_export_texts,
    rate_partners_as_teams,
)

# Any constant works: it only has to be the same for every app process.
_POSTGRES_LOCK_ID = 7_260_001


def migrate() -> list[int]:
    """Apply the migrations not yet applied; returns their numbers."""
    applied: list[int] = []
    with write_transaction():
        if not is_sqlite():
            # Two app processes starting at once must not both migrate.
            database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (_POSTGRES_LOCK_ID,))
        database.create_tables([SchemaMigration], safe=True)
        done = {row.number for row in SchemaMigration.select(SchemaMigration.number)}
        for number, migration in enumerate(MIGRATIONS, start=1):
            if number in done:
                continue
            migration()
            SchemaMigration.create(number=number, applied_at=int(utc_now().timestamp()))
            applied.append(number)
    return applied


def init_app(app: Flask) -> None:
    """Bring the schema up to date at start-up, and add the ``init-db`` command."""
    with database.connection_context():
        migrate()
    # The pool does not keep the start-up connection: a server that forks its workers
    # after loading the app (gunicorn --preload) must not hand them one shared socket.
    database.close_all()

    @app.cli.command("init-db")
    def init_db_command() -> None:
        """Create the database, or bring its schema up to date. Keeps all data."""
        with database.connection_context():
            applied = migrate()
        where = database_url(app)
        if applied:
            click.echo(f"Applied migrations {applied} to {where}.")
        else:
            click.echo(f"The database at {where} is up to date.")
