"""``flask backup FILE`` copies the SQLite database while the app serves, and ``flask
restore FILE`` puts a backup back, refusing (and changing nothing) a file that is no
Scorekeeper database of a migration this version knows, or a database still in use."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import Result
from conftest import POSTGRES_URL, ApiSession, empty_postgres, make_app
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import lifecycle, migrations
from scorekeeper.backups import USE_PG_DUMP, USE_PG_RESTORE
from scorekeeper.db import database
from scorekeeper.migrations import MIGRATIONS


@pytest.fixture
def live(tmp_path: Path) -> Path:
    return tmp_path / "instance" / "scorekeeper.sqlite3"


@pytest.fixture
def sqlite_app(live: Path) -> Flask:
    live.parent.mkdir()
    return make_app(f"sqlite:///{live}")


def new_session(client: FlaskClient) -> ApiSession:
    response = client.post("/api/v1/sessions", json={"game": "yardkle", "seats": ["Ann", "Bo"]})
    assert response.status_code == 201, response.get_json()
    return ApiSession(client, response.get_json())


def run(app: Flask, *args: str, answer: str | None = None) -> Result:
    return app.test_cli_runner().invoke(args=list(args), input=answer)


def sessions_in(path: Path) -> dict[str, int]:
    """Each session of the database file at ``path`` with its version."""
    with closing(sqlite3.connect(path)) as opened:
        return dict(opened.execute("SELECT id, version FROM game_session"))


def stop_the_server() -> None:
    """What stopping the server does to the database: its pooled connections close."""
    database.close_all()


def test_a_backup_taken_while_another_connection_writes_is_consistent_and_restores(
    sqlite_app: Flask, tmp_path: Path, live: Path
) -> None:
    client = sqlite_app.test_client()
    session = new_session(client)
    writing = threading.Event()
    stop = threading.Event()
    written: list[int] = []  # the version after each append
    failures: list[BaseException] = []

    def write_until_stopped() -> None:
        try:
            while not stop.is_set():
                version = len(written)
                answer = session.act({"type": "total", "points": 0}, version=version)
                assert answer.status_code == 201, answer.get_json()
                written.append(version + 1)
                writing.set()
        except BaseException as failure:  # handed to the test's thread
            failures.append(failure)
            writing.set()

    writer = threading.Thread(target=write_until_stopped)
    writer.start()
    try:
        assert writing.wait(10)
        before = len(written)
        backups = [tmp_path / f"backup-{number}.sqlite3" for number in range(3)]
        for backup in backups:
            result = run(sqlite_app, "backup", str(backup))
            assert result.exit_code == 0, result.output
            assert result.output == (
                f"Backed up 1 session (migration {len(MIGRATIONS)}) to {backup}.\n"
            )
        during = len(written) - before
    finally:
        stop.set()
        writer.join()
    assert not failures
    assert during > 0, "the writer wrote nothing while the backups were taken"
    for backup in backups:
        with closing(sqlite3.connect(backup)) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            # Each append writes its event and the session's version in one transaction:
            # a copy of one moment has as many events as the version says.
            ((version, events),) = copy.execute(
                "SELECT version, (SELECT COUNT(*) FROM event) FROM game_session"
            )
            assert version == events
        assert not Path(f"{backup}-wal").exists()
    assert sessions_in(backups[-1])[session.id] < session.version

    stop_the_server()
    restored = run(sqlite_app, "restore", "--yes", str(backups[-1]))
    assert restored.exit_code == 0, restored.output
    assert sessions_in(live) == sessions_in(backups[-1])
    restored_version = sessions_in(backups[-1])[session.id]
    assert session.version == restored_version
    exported = client.get(f"{session.url}/export").get_json()
    assert len(exported["events"]) == restored_version


def test_a_round_trip_keeps_the_sessions_as_they_were_at_the_backup(
    sqlite_app: Flask, tmp_path: Path, live: Path
) -> None:
    client = sqlite_app.test_client()
    kept, other = new_session(client), new_session(client)
    kept.ok({"type": "total", "points": 600})
    at_backup = kept.read()
    backup = tmp_path / "friday.sqlite3"
    assert run(sqlite_app, "backup", str(backup)).exit_code == 0
    kept.ok({"type": "total", "points": 650})
    later = new_session(client)

    stop_the_server()
    result = run(sqlite_app, "restore", str(backup), answer="y\n")
    assert result.exit_code == 0, result.output
    assert f"Replace the 3 sessions in {live} with the 2 sessions of {backup}? [y/N]" in (
        result.output
    )
    assert f"Restored 2 sessions from {backup} (migration {len(MIGRATIONS)}) into {live}." in (
        result.output
    )
    assert kept.read() == at_backup
    assert other.read()["version"] == 0
    assert client.get(later.url).status_code == 404


def test_a_backup_of_an_older_migration_is_restored_then_migrated(
    tmp_path: Path, live: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    newest = len(MIGRATIONS)
    # The database an app one migration older made, holding a session (made by the store
    # alone: this version's pages and API read what the newest migration adds).
    older = tmp_path / "older.sqlite3"
    monkeypatch.setattr(migrations, "MIGRATIONS", MIGRATIONS[:-1])
    with make_app(f"sqlite:///{older}").app_context(), database.connection_context():
        session_id, _key = lifecycle.create("yardkle", ["Ann", "Bo"], {})
    stop_the_server()
    monkeypatch.undo()
    live.parent.mkdir()
    app = make_app(f"sqlite:///{live}")
    stop_the_server()

    result = run(app, "restore", "--yes", str(older))
    assert result.exit_code == 0, result.output
    assert f"(migration {newest - 1})" in result.output
    assert f"applied migrations [{newest}]" in result.output
    with closing(sqlite3.connect(live)) as restored:
        assert restored.execute("SELECT MAX(number) FROM schema_migration").fetchone() == (newest,)
    assert app.test_client().get(f"/api/v1/sessions/{session_id}").get_json()["version"] == 0


# Makes the file offered to restore, with the app whose backup it may start from.
MakeFile = Callable[[Flask, Path], object]


def empty_sqlite_database(path: Path) -> None:
    with closing(sqlite3.connect(path)) as made:
        made.execute("PRAGMA user_version = 1")  # a header, no table


def newer_scorekeeper_backup(app: Flask, path: Path) -> None:
    assert run(app, "backup", str(path)).exit_code == 0
    with closing(sqlite3.connect(path)) as newer:
        newer.execute(
            "INSERT INTO schema_migration (number, applied_at) VALUES (?, 0)",
            (len(MIGRATIONS) + 1,),
        )
        newer.commit()


def unknown_migrations_backup(app: Flask, path: Path) -> None:
    assert run(app, "backup", str(path)).exit_code == 0
    with closing(sqlite3.connect(path)) as unknown:
        unknown.execute("DELETE FROM schema_migration WHERE number = 3")
        unknown.commit()


@pytest.mark.parametrize(
    ("make", "refusal"),
    [
        (
            lambda app, path: path.write_bytes(os.urandom(4096)),
            "{file} is not a SQLite database, so not a Scorekeeper backup.",
        ),
        (
            lambda app, path: path.write_bytes(b""),
            "{file} is empty, so not a Scorekeeper backup.",
        ),
        (
            lambda app, path: empty_sqlite_database(path),
            "{file} is a SQLite database but not a Scorekeeper one: it has no "
            "game_session and schema_migration tables.",
        ),
        (
            newer_scorekeeper_backup,
            "{file} comes from a newer Scorekeeper: its database is at migration "
            f"{len(MIGRATIONS) + 1} and this version knows migrations 1 to {len(MIGRATIONS)}. "
            "Upgrade Scorekeeper, then restore it.",
        ),
        (
            unknown_migrations_backup,
            "{file} is not a Scorekeeper backup this version knows: it records the migrations "
            f"{[n for n in range(1, len(MIGRATIONS) + 1) if n != 3]}, where a Scorekeeper "
            f"database has 1 to at most {len(MIGRATIONS)}.",
        ),
    ],
    ids=["random bytes", "empty file", "empty database", "newer migration", "unknown migrations"],
)
def test_restore_refuses_what_is_no_backup_it_knows_and_changes_nothing(
    sqlite_app: Flask, tmp_path: Path, live: Path, make: MakeFile, refusal: str
) -> None:
    new_session(sqlite_app.test_client())
    file = tmp_path / "candidate"
    make(sqlite_app, file)
    before = sessions_in(live)
    stop_the_server()
    result = run(sqlite_app, "restore", "--yes", str(file))
    assert result.exit_code == 1
    assert result.output == f"Error: {refusal.format(file=file)}\n"
    assert sessions_in(live) == before
    assert sorted(path.name for path in live.parent.iterdir() if "draft" in path.name) == []


def test_restore_refuses_while_the_database_is_in_use_and_changes_nothing(
    sqlite_app: Flask, tmp_path: Path, live: Path
) -> None:
    client = sqlite_app.test_client()
    backup = tmp_path / "backup.sqlite3"
    assert run(sqlite_app, "backup", str(backup)).exit_code == 0
    new_session(client)  # the server's pool keeps its connection open
    before = sessions_in(live)
    result = run(sqlite_app, "restore", "--yes", str(backup))
    assert result.exit_code == 1
    assert result.output == (
        f"Error: The database at {live} is in use: stop the server (and any other flask "
        "command using it), then restore again. Nothing was changed.\n"
    )
    assert sessions_in(live) == before
    assert len(before) == 1


def test_restore_changes_nothing_when_the_user_says_no(
    sqlite_app: Flask, tmp_path: Path, live: Path
) -> None:
    backup = tmp_path / "backup.sqlite3"
    assert run(sqlite_app, "backup", str(backup)).exit_code == 0
    new_session(sqlite_app.test_client())
    stop_the_server()
    result = run(sqlite_app, "restore", str(backup), answer="n\n")
    assert result.exit_code == 1
    assert "Aborted" in result.output
    assert len(sessions_in(live)) == 1


def test_backup_refuses_a_folder_it_may_not_write_to(
    sqlite_app: Flask, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The tests may run as root, whom no folder's permissions stop: the check is asked.
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != tmp_path)
    result = run(sqlite_app, "backup", str(tmp_path / "backup.sqlite3"))
    assert (result.exit_code, result.output) == (
        1,
        f"Error: {tmp_path} may not be written to: back up to a folder you own.\n",
    )
    assert not (tmp_path / "backup.sqlite3").exists()


@pytest.mark.parametrize(
    ("target", "refusal"),
    [
        (
            "missing/backup.sqlite3",
            "{folder}/missing is no folder: make it first, or back up elsewhere.",
        ),
        (
            "instance/scorekeeper.sqlite3",
            "{folder}/instance/scorekeeper.sqlite3 is the database itself: back it up to "
            "another file.",
        ),
    ],
    ids=["no such folder", "the database itself"],
)
def test_backup_refuses_a_target_it_cannot_write_with_a_sentence(
    sqlite_app: Flask, tmp_path: Path, target: str, refusal: str
) -> None:
    result = run(sqlite_app, "backup", str(tmp_path / target))
    assert result.exit_code == 1
    assert result.output == f"Error: {refusal.format(folder=tmp_path)}\n"


@pytest.mark.skipif(not POSTGRES_URL, reason="needs TEST_DATABASE_URL (PostgreSQL)")
def test_on_postgresql_backup_and_restore_say_to_use_pg_dump_and_pg_restore(
    tmp_path: Path,
) -> None:
    assert POSTGRES_URL
    empty_postgres(POSTGRES_URL)
    app = make_app(POSTGRES_URL)
    backup = tmp_path / "scorekeeper.dump"
    dumped = run(app, "backup", str(backup))
    assert (dumped.exit_code, dumped.output) == (1, f"Error: {USE_PG_DUMP}\n")
    assert not backup.exists()
    backup.write_bytes(b"a pg_dump file")
    restored = run(app, "restore", "--yes", str(backup))
    assert (restored.exit_code, restored.output) == (1, f"Error: {USE_PG_RESTORE}\n")
