"""The app factory, its configuration, the database and its migrations."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from conftest import make_app
from flask import Flask
from peewee import IntegrityError

from scorekeeper import create_app, instance_secret_key, lifecycle, store
from scorekeeper.db import database, is_sqlite, open_database
from scorekeeper.migrations import (
    MIGRATIONS,
    SchemaMigration,
    keep_one_next_game_per_session,
    migrate,
)
from scorekeeper.models import (
    Correction,
    DeckProfile,
    Event,
    GameSession,
    GroupPlayer,
    PlayerGroup,
    RequestKey,
    Seat,
    SessionDeck,
)


def test_secret_key_is_generated_once_into_the_instance_folder(tmp_path: Path) -> None:
    first = instance_secret_key(tmp_path)
    assert len(first) == 64
    assert instance_secret_key(tmp_path) == first
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_configuration_layers_defaults_instance_file_then_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text("MAX_CONTENT_LENGTH = 1000\nSECRET_KEY = 'from-file'\n")
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path}/env.sqlite3")
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(instance))
    app = create_app()
    assert app.config["MAX_CONTENT_LENGTH"] == 1000  # instance/config.py
    assert app.config["SECRET_KEY"] == "from-env"  # the environment wins
    assert app.config["DATABASE_URL"] == f"sqlite:///{tmp_path}/env.sqlite3"
    assert (tmp_path / "env.sqlite3").exists()


def test_default_database_is_sqlite_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(tmp_path))
    create_app()
    assert (tmp_path / "scorekeeper.sqlite3").exists()
    assert (tmp_path / "secret_key").exists()


def test_sqlite_runs_with_wal_foreign_keys_and_a_busy_timeout(tmp_path: Path) -> None:
    make_app(f"sqlite:///{tmp_path}/p.sqlite3")
    with database.connection_context():
        assert database.execute_sql("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert database.execute_sql("PRAGMA foreign_keys").fetchone()[0] == 1
        assert database.execute_sql("PRAGMA busy_timeout").fetchone()[0] == 5000


def test_schema_is_created_on_first_start_and_migrations_run_once(app: Flask) -> None:
    with database.connection_context():
        numbers = [row.number for row in SchemaMigration.select().order_by(SchemaMigration.number)]
        assert numbers == list(range(1, len(MIGRATIONS) + 1))
        assert migrate() == []
        assert set(database.get_tables()) >= {
            "game_session",
            "seat",
            "event",
            "request_key",
            "schema_migration",
            "deck_profile",
            "session_deck",
            "player_group",
            "group_player",
        }


EVERY_MIGRATION = list(range(1, len(MIGRATIONS) + 1))


def migrated_up_to(database_url: str, last: int) -> None:
    """An empty database as the migrations up to number ``last`` left it."""
    database.initialize(open_database(database_url))
    with database.connection_context():
        database.create_tables([SchemaMigration])
        for number, migration in enumerate(MIGRATIONS[:last], start=1):
            migration()
            SchemaMigration.create(number=number, applied_at=0)


def test_a_database_at_migration_2_upgrades_keeping_its_data(database_url: str) -> None:
    """Form keys become request keys scoped to their session; each deck profile gets a key;
    the first dealer is counted from 0."""
    migrated_up_to(database_url, 2)
    with database.connection_context():
        p = database.param
        for sql, params in (
            [
                (
                    "INSERT INTO game_session (id, game, options, edit_key, version, "
                    "finished, created_at, updated_at) "
                    f"VALUES ({p}, 'yardkle', '{{}}', {p}, 1, {p}, {p}, {p})",
                    ("s" * 22, "k" * 32, False, "2026-01-01", "2026-01-01"),
                ),
                (
                    "INSERT INTO game_session (id, game, options, edit_key, version, "
                    "finished, created_at, updated_at) "
                    f"VALUES ({p}, 'cryptruck', {p}, {p}, 0, {p}, {p}, {p})",
                    (
                        "c" * 22,
                        '{"colours":"red,blue,green","first_dealer":3}',
                        "k" * 32,
                        False,
                        "2026-01-01",
                        "2026-01-01",
                    ),
                ),
                (
                    f"INSERT INTO event (session_id, seq, action, undone, redoable, created_at) "
                    f'VALUES ({p}, 1, \'{{"type": "bank"}}\', {p}, {p}, {p})',
                    ("s" * 22, False, False, "2026-01-01"),
                ),
                (
                    f"INSERT INTO form_key (key, session_id, created_at) VALUES ({p}, {p}, {p})",
                    ("tap-1", "s" * 22, "2026-01-01"),
                ),
                (
                    f"INSERT INTO form_key (key, session_id, created_at) VALUES ({p}, NULL, {p})",
                    ("new-1", "2026-01-01"),
                ),
            ]
            + [
                (
                    f"INSERT INTO deck_profile (id, name, sizes, created_at, updated_at) "
                    f"VALUES ({p}, 'Box', '{{\"green 5\": 2}}', {p}, {p})",
                    (profile_id, "2026-01-01", "2026-01-01"),
                )
                for profile_id in ("a" * 22, "b" * 22)
            ]
            + [
                (
                    f"INSERT INTO session_deck (session_id, profile_id) VALUES ({p}, {p})",
                    ("s" * 22, "a" * 22),
                )
            ]
        ):
            database.execute_sql(sql, params)
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == list(
            range(1, len(MIGRATIONS) + 1)
        )
        assert "form_key" not in database.get_tables()
        keys = {(row.scope, row.key, row.session_id) for row in RequestKey.select()}
        assert keys == {("s" * 22, "tap-1", "s" * 22), ("", "new-1", None)}
        profiles = {row.id: row for row in DeckProfile.select()}
        assert {row.sizes["green 5"] for row in profiles.values()} == {2}
        assert {row.game for row in profiles.values()} == {"yadokarick"}
        # Adding columns to deck_profile must not drop the sessions' links to it.
        assert [(row.session_id, row.profile_id) for row in SessionDeck.select()] == [
            ("s" * 22, "a" * 22)
        ]
        edit_keys = [row.edit_key for row in profiles.values()]
        assert all(len(key) == 32 for key in edit_keys) and len(set(edit_keys)) == 2
        assert Event.get().action == {"type": "bank"}
        assert GameSession.get_by_id("s" * 22).version == 1
        assert GameSession.get_by_id("s" * 22).rewritten_at == 0
        assert GameSession.get_by_id("s" * 22).imported is False
        assert GameSession.get_by_id("c" * 22).options == {
            "colours": ["red", "blue", "green"],
            "first_dealer": 2,
        }


def test_a_database_at_migration_7_upgrades_to_keep_corrections_and_mark_imports(
    database_url: str,
) -> None:
    """Its sessions and events stay as they were, none is taken as imported, and a
    correction made after the upgrade keeps the action it replaced."""
    migrated_up_to(database_url, 7)
    with database.connection_context():
        p = database.param
        database.execute_sql(
            "INSERT INTO game_session (id, game, options, edit_key, version, finished, "
            f"created_at, updated_at, rewritten_at) VALUES ({p}, 'yardkle', {p}, {p}, 1, {p}, "
            f"{p}, {p}, 0)",
            ("s" * 22, '{"entry_threshold":0}', "k" * 32, False, "2026-01-01", "2026-01-01"),
        )
        for position, name in enumerate(("Ann", "Bo")):
            database.execute_sql(
                f"INSERT INTO seat (session_id, position, name) VALUES ({p}, {p}, {p})",
                ("s" * 22, position, name),
            )
        database.execute_sql(
            "INSERT INTO event (session_id, seq, action, undone, redoable, created_at) "
            f"VALUES ({p}, 1, {p}, {p}, {p}, {p})",
            ("s" * 22, '{"type":"total","points":500}', False, False, "2026-01-01"),
        )
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == list(
            range(1, len(MIGRATIONS) + 1)
        )
        session = GameSession.get_by_id("s" * 22)
        assert (session.version, session.imported, session.options) == (
            1,
            False,
            {"entry_threshold": 0},
        )
        assert [row.action for row in Event.select()] == [{"type": "total", "points": 500}]
        assert Correction.select().count() == 0

        store.correct("s" * 22, 1, {"type": "total", "points": 550}, version=1)

        assert [row.action for row in Event.select()] == [{"type": "total", "points": 550}]
        assert [(row.seq, row.action) for row in Correction.select()] == [
            (1, {"type": "total", "points": 500})
        ]


def test_a_database_at_migration_9_upgrades_to_groups_keeping_its_sessions(
    database_url: str,
) -> None:
    """Existing sessions belong to no group and their seats to no player; a removed
    player leaves its seat's name, a deleted group leaves its sessions."""
    migrated_up_to(database_url, 9)
    with database.connection_context():
        p = database.param
        database.execute_sql(
            "INSERT INTO game_session (id, game, options, edit_key, version, finished, "
            f"created_at, updated_at, rewritten_at, imported) VALUES ({p}, 'yardkle', {p}, "
            f"{p}, 1, {p}, {p}, {p}, 0, {p})",
            ("s" * 22, '{"entry_threshold":0}', "k" * 32, True, "2026-01-01", "2026-01-01", False),
        )
        for position, name in enumerate(("Ann", "Bo")):
            database.execute_sql(
                f"INSERT INTO seat (session_id, position, name) VALUES ({p}, {p}, {p})",
                ("s" * 22, position, name),
            )
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == list(
            range(1, len(MIGRATIONS) + 1)
        )
        session = GameSession.get_by_id("s" * 22)
        assert (session.finished, session.group_id) == (True, None)
        seats = Seat.select().order_by(Seat.position)
        assert [(seat.name, seat.player_id) for seat in seats] == [("Ann", None), ("Bo", None)]

        group = PlayerGroup.create(id="g" * 22, edit_key="e" * 32, name="Friday")
        ann = GroupPlayer.create(group=group, name="Ann", colour="#aa0000")
        GameSession.update(group=group).execute()
        Seat.update(player=ann).where(Seat.name == "Ann").execute()
        ann.delete_instance()
        assert [(seat.name, seat.player_id) for seat in seats.clone()] == [
            ("Ann", None),
            ("Bo", None),
        ]
        group.delete_instance()
        assert GameSession.get_by_id("s" * 22).group_id is None


def test_init_db_command_reports_an_up_to_date_database(app: Flask) -> None:
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0
    assert "is up to date" in result.output


def test_the_backend_under_test_is_the_one_configured(app: Flask, database_url: str) -> None:
    assert is_sqlite() == database_url.startswith("sqlite")


def test_an_unknown_database_url_scheme_is_refused_with_its_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mysql://x"):
        make_app("mysql://x")


def test_an_unexpected_error_answers_a_clean_500_page_and_json(database_url: str) -> None:
    app = make_app(database_url)

    def broken() -> str:
        raise RuntimeError("secret internals")

    app.add_url_rule("/broken", view_func=broken)
    app.add_url_rule("/api/v1/broken", view_func=broken, endpoint="api_broken")
    client = app.test_client()
    page = client.get("/broken")
    assert page.status_code == 500
    html = page.get_data(as_text=True)
    assert "Something went wrong on our side" in html
    assert "Traceback" not in html and "secret internals" not in html
    api = client.get("/api/v1/broken")
    assert api.status_code == 500
    assert set(api.get_json()) == {"error", "field"}
    assert "secret internals" not in api.get_data(as_text=True)


def test_a_database_at_migration_9_upgrades_to_know_when_its_finished_sessions_ended(
    database_url: str,
) -> None:
    """A finished session ended with its newest live event (an undone later one does not
    count), or with its last change when it has none; one in play has not ended. Every
    session is the rematch of none."""
    migrated_up_to(database_url, 9)
    sessions = (
        ("f" * 22, True, "2026-01-01 20:00:00"),
        ("p" * 22, False, "2026-01-02 20:00:00"),
        ("e" * 22, True, "2026-01-03 20:00:00"),
    )
    events = (
        ("f" * 22, 1, False, "2026-01-01 20:10:00"),
        ("f" * 22, 2, False, "2026-01-01 21:25:00"),
        ("f" * 22, 3, True, "2026-01-01 21:40:00"),
        ("p" * 22, 1, False, "2026-01-02 20:30:00"),
    )
    with database.connection_context():
        p = database.param
        for session_id, finished, updated_at in sessions:
            database.execute_sql(
                "INSERT INTO game_session (id, game, options, edit_key, version, finished, "
                f"created_at, updated_at) VALUES ({p}, 'score-sheet', '{{}}', {p}, 3, {p}, "
                f"{p}, {p})",
                (session_id, "k" * 32, finished, "2026-01-01 19:00:00", updated_at),
            )
        for session_id, seq, undone, created_at in events:
            database.execute_sql(
                "INSERT INTO event (session_id, seq, action, undone, redoable, created_at) "
                f'VALUES ({p}, {p}, \'{{"type":"finish"}}\', {p}, {p}, {p})',
                (session_id, seq, undone, undone, created_at),
            )
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == EVERY_MIGRATION
        rows = {row.id: row for row in GameSession.select()}
        ended = {session_id: rows[session_id].finished_at for session_id, _, _ in sessions}
        assert ended == {
            "f" * 22: datetime(2026, 1, 1, 21, 25),
            "p" * 22: None,
            "e" * 22: datetime(2026, 1, 3, 20, 0),
        }
        assert {row.rematch_of_id for row in rows.values()} == {None}
        assert {(row.version, row.finished, row.created_at) for row in rows.values()} == {
            (3, True, datetime(2026, 1, 1, 19, 0)),
            (3, False, datetime(2026, 1, 1, 19, 0)),
        }
        assert Event.select().count() == 4
        # A rematch of an upgraded session links to it; deleting it unlinks the rematch.
        sheet = GameSession.get_by_id("p" * 22)
        GameSession.create(
            id="r" * 22, game="score-sheet", options={}, edit_key="k" * 32, rematch_of=sheet
        )
        assert GameSession.get_by_id("r" * 22).rematch_of_id == "p" * 22
        sheet.delete_instance()
        assert GameSession.get_by_id("r" * 22).rematch_of_id is None


def test_a_database_with_two_next_games_of_one_session_keeps_the_one_played_on(
    database_url: str,
) -> None:
    """Two phones could start two next games of one session before each session had one:
    the one the table went on playing stays its next game (the oldest, of two equally
    played), the others stay, with their seats and events, as sessions that follow none;
    then a second next game of a session cannot be stored."""
    migrated_up_to(database_url, MIGRATIONS.index(keep_one_next_game_per_session))
    # (id, version, created at, the session it is the rematch of)
    sessions = (
        ("a" * 22, 4, "2026-01-01 19:00:00", None),
        ("b" * 22, 0, "2026-01-01 20:00:00", "a" * 22),
        ("c" * 22, 3, "2026-01-01 20:00:01", "a" * 22),
        ("d" * 22, 2, "2026-01-02 19:00:00", None),
        ("e" * 22, 0, "2026-01-02 20:00:00", "d" * 22),
        ("f" * 22, 0, "2026-01-02 20:00:00", "d" * 22),
        ("g" * 22, 0, "2026-01-02 20:00:01", "d" * 22),
        ("h" * 22, 1, "2026-01-03 20:00:00", "c" * 22),
    )
    with database.connection_context():
        p = database.param
        for session_id, version, created_at, rematch_of in sessions:
            database.execute_sql(
                "INSERT INTO game_session (id, game, options, edit_key, version, finished, "
                f"created_at, updated_at, rematch_of_id) VALUES ({p}, 'score-sheet', '{{}}', "
                f"{p}, {p}, {p}, {p}, {p}, {p})",
                (session_id, "k" * 32, version, False, created_at, created_at, rematch_of),
            )
        for seq in (1, 2, 3):
            database.execute_sql(
                "INSERT INTO event (session_id, seq, action, undone, redoable, created_at) "
                f"VALUES ({p}, {p}, '{{\"type\":\"round\"}}', {p}, {p}, '2026-01-01 20:30:00')",
                ("c" * 22, seq, False, False),
            )
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == EVERY_MIGRATION
        follows = dict(GameSession.select(GameSession.id, GameSession.rematch_of).tuples())
        assert follows == {
            "a" * 22: None,
            "b" * 22: None,
            "c" * 22: "a" * 22,
            "d" * 22: None,
            "e" * 22: "d" * 22,
            "f" * 22: None,
            "g" * 22: None,
            "h" * 22: "c" * 22,
        }
        assert Event.select().where(Event.session == "c" * 22).count() == 3
        assert (lifecycle.next_session("a" * 22), lifecycle.next_session("d" * 22)) == (
            "c" * 22,
            "e" * 22,
        )
        with pytest.raises(IntegrityError), database.atomic():
            GameSession.create(
                id="z" * 22, game="score-sheet", options={}, edit_key="k" * 32, rematch_of="a" * 22
            )
        assert GameSession.select().count() == len(sessions)
