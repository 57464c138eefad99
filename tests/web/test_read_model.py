"""The read model: the end of each finished session (its rounds played, whether lower is
better, each seat's score, place and win) kept in its rows by the write that changes it,
equal at every step to what a replay of its log works out; the pages across sessions
read those rows and replay nothing; migration 15 fills them for existing sessions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
import stats_reference
from conftest import (
    POSTGRES_URL,
    Statements,
    empty_postgres,
    finished_session,
    make_app,
    played_to_the_end,
    start,
    start_session,
)
from flask import Flask
from flask.testing import FlaskClient
from page_player import WALKS
from test_app import EVERY_MIGRATION, migrated_up_to
from test_group_stats import LOWEST_WINS, TARGET_10, finish
from test_groups import make_group, player_ids
from test_store_cache import history_edit, redo_or, yardkle_action

from scorekeeper import session_log, session_views, store
from scorekeeper.db import database, is_sqlite
from scorekeeper.migrations import SchemaMigration
from scorekeeper.models import GameSession, Seat
from scorekeeper.read_model import outcome_of
from scorekeeper.recent import Recent
from scorekeeper.session_views import SessionView

# What the read model says of a session: finished, rounds played, lower is better, and
# each seat's (score, place, won), in seat order; all None but finished while in play.
End = tuple[bool, int | None, bool | None, tuple[tuple[int | None, int | None, bool | None], ...]]

UNRANKED = (None, None, None)
ENDED_AT = datetime(2026, 11, 28, 20, 0)


def kept_end(session_id: str) -> End:
    """The read model's rows of the session, as stored."""
    with database.connection_context():
        row = GameSession.get_by_id(session_id)
        seats = Seat.select().where(Seat.session == session_id).order_by(Seat.position)
        return (
            row.finished,
            row.rounds_played,
            row.lower_is_better,
            tuple((seat.score, seat.place, seat.won) for seat in seats),
        )


def replayed_end(session_id: str, worker: Recent[str, SessionView] | None = None) -> End:
    """What a worker works out by replaying the session's log: the end ``result_of``
    counts, with each seat's place and the rounds played. A worker that kept nothing
    (``worker`` None) replays the log from its newest snapshot; one that keeps its views in
    ``worker`` applies the events appended since it last read the session to the view it
    kept, and replays the log after an undo, a redo or a correction, as the app's workers
    do."""
    with database.connection_context(), pytest.MonkeyPatch.context() as patched:
        patched.setattr(session_views, "_views", Recent(256) if worker is None else worker)
        view = session_views.load(session_id)
    if not view.finished:
        return (False, None, None, tuple(UNRANKED for _ in view.seats))
    outcome = outcome_of(view.game, view.state)
    counted = stats_reference.result_of(
        view, [str(seat) for seat in range(len(view.seats))], ENDED_AT
    )
    seats = []
    for position in range(len(view.seats)):
        if str(position) not in counted.players:
            seats.append(UNRANKED)
            continue
        index = counted.players.index(str(position))
        seats.append(
            (counted.scores[index], outcome.seats[position].place, index in counted.winners)
        )
    return (True, outcome.rounds_played, counted.lower_is_better, tuple(seats))


def assert_kept(
    session_id: str, step: object = None, worker: Recent[str, SessionView] | None = None
) -> None:
    assert kept_end(session_id) == replayed_end(session_id, worker), step


# --- Every write keeps the rows a replay gives ------------------------------------------


def walked(
    client: FlaskClient, game: str, rng: random.Random, worker: Recent[str, SessionView]
) -> str:
    """A session of ``game`` (a page_player walk) tapped through its pages at random to its
    end, its read model checked after each tap against what ``worker`` replays; its id."""
    return played_to_the_end(
        client,
        game,
        rng=rng,
        tapped=lambda session_id, tap: assert_kept(session_id, (game, tap), worker),
    )


def edited_beyond_the_end(
    session_id: str, rng: random.Random, worker: Recent[str, SessionView]
) -> None:
    """Undo, redo, corrections and appends at random (some refused), after the end and
    back, the read model checked after each against what ``worker`` replays."""

    def a_live_action(view: session_views.SessionView, rng: random.Random) -> dict[str, Any]:
        return dict(rng.choice([event.action for event in view.events if not event.undone]))

    for step in range(25):
        with database.connection_context():
            history_edit(session_id, rng, redo_or(a_live_action))
        assert_kept(session_id, step, worker)


@pytest.mark.parametrize("game", sorted(WALKS))
def test_every_write_keeps_the_end_a_replay_gives(client: FlaskClient, game: str) -> None:
    rng = random.Random(f"read model {game}")
    # The replay each step is checked against: a worker of its own, which applies each
    # step's new events to the view it replayed before (replaying the whole log after each
    # step cost the square of the walk's length) and replays the log after an edit.
    worker: Recent[str, SessionView] = Recent(256)
    session_id = walked(client, game, rng, worker)
    assert kept_end(session_id)[0], "the walk ends the game"
    edited_beyond_the_end(session_id, rng, worker)
    assert_kept(session_id, "replayed whole")
    exported = client.get(f"/s/{session_id}/export.json").get_json()
    imported = client.post("/api/v1/sessions/import", json=exported)
    assert imported.status_code == 201
    assert kept_end(imported.get_json()["id"]) == kept_end(session_id)
    assert_kept(imported.get_json()["id"])


def test_a_group_import_keeps_the_end_of_each_session(client: FlaskClient, app: Flask) -> None:
    group_id = make_group(client, "Friday", ("Ann", "Bo", "Cy"))
    ids = player_ids(app, group_id)
    finish(client, app, group_id, [ids["Ann"], ids["Bo"]], [10, 3], 10, **TARGET_10)
    finish(client, app, group_id, [ids["Bo"], ids["Cy"]], [25, 4], 12, **LOWEST_WINS)
    exported = client.get(f"/api/v1/groups/{group_id}/export").get_json()
    response = client.post("/api/v1/groups/import", json=exported)
    assert response.status_code == 201, response.get_json()
    sessions = [s["id"] for s in response.get_json()["sessions"]]
    assert len(sessions) == 2
    ends = sorted(kept_end(session_id) for session_id in sessions)
    assert ends == [
        (True, 1, False, ((10, 1, True), (3, 2, False))),
        (True, 1, True, ((25, 2, False), (4, 1, True))),
    ]
    for session_id in sessions:
        assert_kept(session_id)


def test_an_undo_of_the_last_round_clears_the_end_and_a_redo_writes_it_again(
    client: FlaskClient,
) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="10")
    table.act(type="round", **{"points-0": "4", "points-1": "10"})
    assert kept_end(table.id) == (True, 1, False, ((4, 2, False), (10, 1, True)))
    table.post("/undo", {})
    assert kept_end(table.id) == (False, None, None, (UNRANKED, UNRANKED))
    table.post("/redo", {})
    assert kept_end(table.id) == (True, 1, False, ((4, 2, False), (10, 1, True)))


def test_a_correction_of_a_finished_session_writes_its_new_end(client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo"], option_target="10")
    table.act(type="round", **{"points-0": "4", "points-1": "12"})
    with database.connection_context():
        store.correct(table.id, 1, {"type": "round", "points": [10, 10]}, 1)
    assert kept_end(table.id) == (True, 1, False, ((10, 1, True), (10, 1, True)))
    assert_kept(table.id)


def test_an_append_without_a_key_that_ends_the_game_writes_its_end_in_the_locked_write(
    client: FlaskClient, statements: Statements
) -> None:
    """On PostgreSQL an append without a key is one statement, but not the one that ends
    the game: that one is the locked write, which records the end (once a game)."""
    table = start_session(client, ["Ann", "Bo"], winning_score="1000")
    rng = random.Random(6)
    at_once: list[bool] = []
    with database.connection_context():
        while not (view := session_views.load(table.id)).finished:
            statements.sql.clear()
            store.append(table.id, yardkle_action(view.state, rng), view.version)
            at_once.append(any(sql.startswith("WITH written AS") for sql in statements.sql))
            assert_kept(table.id, view.version)
    ending = statements.sql
    assert len(at_once) > 2 and not at_once[-1]
    assert any(at_once[:-1]) == (not is_sqlite())
    assert [sql for sql in ending if sql.startswith('UPDATE "seat"')]
    assert kept_end(table.id)[0]


# --- The pages across sessions replay nothing --------------------------------------------


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every session a read loads, and every log replayed (whole or its newest events)."""
    calls: list[str] = []
    for module, name in (
        (session_views, "load"),
        (session_log, "replay"),
        (session_log, "replay_one"),
    ):
        original = getattr(module, name)

        def counted(*args: Any, _original: Any = original, _name: str = name) -> Any:
            calls.append(_name)
            return _original(*args)

        monkeypatch.setattr(module, name, counted)
    yield calls


def group_pages(group_id: str) -> list[str]:
    return [
        f"/g/{group_id}",
        f"/g/{group_id}/stats",
        f"/api/v1/groups/{group_id}",
        f"/api/v1/groups/{group_id}/stats",
        "/",
    ]


def test_the_pages_across_sessions_load_and_replay_no_session_and_read_as_many_rows_at_any_size(
    client: FlaskClient, app: Flask, replays: list[str], statements: Statements
) -> None:
    group_id = make_group(client, "Friday", ("Ann", "Bo", "Cy"))
    ids = player_ids(app, group_id)
    ann, bo, cy = ids["Ann"], ids["Bo"], ids["Cy"]
    finish(client, app, group_id, [ann, bo], [10, 3], 10, **TARGET_10)
    finish(client, app, group_id, [bo, cy], [25, 4], 11, **LOWEST_WINS)
    statements_at: list[list[int]] = []
    for more in range(2):
        # Another worker, or a restart: no session's view is kept.
        session_views.forget()
        replays.clear()
        counts = []
        for path in group_pages(group_id):
            statements.sql.clear()
            response = client.get(path)
            assert response.status_code == 200, path
            counts.append(len([sql for sql in statements.sql if sql.startswith("SELECT")]))
        assert replays == []
        statements_at.append(counts)
        finish(client, app, group_id, [ann, cy], [10, 10], 12 + more, **TARGET_10)
        finish(client, app, group_id, [ann, bo, cy], [1, 2, 10], 14 + more, **TARGET_10)
    # Four finished sessions more cost no query more: each list is read at once.
    assert statements_at[0] == statements_at[1]
    stats = client.get(f"/api/v1/groups/{group_id}/stats").get_json()
    assert stats["played"] == 6


def test_the_home_page_shows_the_winners_the_write_recorded(client: FlaskClient) -> None:
    table = start(client, "score-sheet", ["Ann", "Bo", "Cy"], option_target="10")
    table.act(type="round", **{"points-0": "10", "points-1": "3", "points-2": "10"})
    session_views.forget()
    html = client.get("/").get_data(as_text=True)
    assert "Ann &amp; Cy win" in html


# --- Migration 15 fills the rows of existing sessions --------------------------------


# Migration 14's columns of the rows copied from one database to the other.
SESSION_COLUMNS = (
    "id, game, options, edit_key, version, rewritten_at, finished, imported, created_at, "
    "updated_at, finished_at"
)
SEAT_COLUMNS = "session_id, position, name"
EVENT_COLUMNS = "session_id, seq, action, undone, redoable, created_at"


def rows_of(table: str, columns: str) -> list[tuple[Any, ...]]:
    cursor = database.execute_sql(f"SELECT {columns} FROM {table} ORDER BY 1, 2")
    return [tuple(row) for row in cursor.fetchall()]


def insert(table: str, columns: str, rows: list[tuple[Any, ...]]) -> None:
    marks = ", ".join([database.param] * len(columns.split(", ")))
    for row in rows:
        database.execute_sql(f"INSERT INTO {table} ({columns}) VALUES ({marks})", row)


@dataclass(frozen=True)
class Played:
    """Rows of sessions made on a database of their own, by table, as migration 14 has
    them (booleans as booleans, for PostgreSQL), with the ids of some of them."""

    rows: dict[str, list[tuple[Any, ...]]]
    in_play: list[str]
    lowest_wins: str


def as_booleans(rows: list[tuple[Any, ...]], *columns: int) -> list[tuple[Any, ...]]:
    return [
        tuple(bool(value) if index in columns else value for index, value in enumerate(row))
        for row in rows
    ]


def sessions_of_every_game(tmp_path: Path) -> Played:
    """A session of each game and mode played to its end, a score sheet won by the lowest
    score, and sessions in play (one reopened by an undo of its last round), made on a
    database of their own."""
    app = make_app(f"sqlite:///{tmp_path}/played.sqlite3")
    client = app.test_client()
    finished = [finished_session(client, game) for game in sorted(WALKS)]
    sheet = start(client, "score-sheet", ["Ann", "Bo"], option_target="10", option_winner="lowest")
    sheet.act(type="round", **{"points-0": "4", "points-1": "12"})
    in_play = start(client, "score-sheet", ["Ann", "Bo"], option_target="50")
    in_play.act(type="round", **{"points-0": "4", "points-1": "12"})
    undone = start(client, "score-sheet", ["Ann", "Bo"], option_target="10")
    undone.act(type="round", **{"points-0": "4", "points-1": "12"})
    undone.post("/undo", {})
    yardkle = start(client, "yardkle", ["Ann", "Bo"])
    yardkle.roll(1, 1, 1, 5, 2, 3)
    assert len(finished) == len(WALKS)
    with database.connection_context():
        copied = {
            "game_session": as_booleans(rows_of("game_session", SESSION_COLUMNS), 6, 7),
            "seat": rows_of("seat", SEAT_COLUMNS),
            "event": as_booleans(rows_of("event", EVENT_COLUMNS), 3, 4),
        }
    database.close_all()
    return Played(copied, [in_play.id, undone.id, yardkle.id], sheet.id)


def test_migration_15_fills_the_end_of_every_finished_session_from_its_log(
    database_url: str, tmp_path: Path
) -> None:
    played = sessions_of_every_game(tmp_path)
    if database_url == POSTGRES_URL:
        empty_postgres(database_url)
    migrated_up_to(database_url, 14)
    with database.connection_context():
        for table, columns in (
            ("game_session", SESSION_COLUMNS),
            ("seat", SEAT_COLUMNS),
            ("event", EVENT_COLUMNS),
        ):
            insert(table, columns, played.rows[table])
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == EVERY_MIGRATION
    session_views.forget()
    ended = [row[0] for row in played.rows["game_session"] if row[0] not in played.in_play]
    assert len(ended) == len(WALKS) + 1
    for session_id in ended:
        end = kept_end(session_id)
        assert end[0] and end[1] is not None and end[1] >= 1, session_id
        assert end == replayed_end(session_id)
    for session_id in played.in_play:
        assert kept_end(session_id) == replayed_end(session_id)
        assert kept_end(session_id)[1:3] == (None, None)
    # Ann's 4 wins the score sheet played to "lowest wins".
    assert kept_end(played.lowest_wins) == (True, 1, True, ((4, 1, True), (12, 2, False)))
