"""PostgreSQL announces each session's new version (migration 12's trigger), and the
refresh check of each worker answers from what it heard, without a query; a lost
listener forgets everything and the check reads the database again."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

import psycopg2
import pytest
from conftest import POSTGRES_URL, api_session, empty_postgres, make_app
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import announced
from scorekeeper.announced import CHANNEL, AnnouncedVersions

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")


def eventually(condition: Callable[[], object], seconds: float = 2.0) -> None:
    """The condition holds within ``seconds`` (the issue's bound for another phone's news)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.01)


@pytest.fixture
def postgres_app() -> Iterator[Flask]:
    assert POSTGRES_URL
    empty_postgres(POSTGRES_URL)
    app = make_app(POSTGRES_URL)
    yield app
    assert announced.current is not None
    announced.current.stop()


@pytest.fixture
def watch(postgres_app: Flask) -> AnnouncedVersions:
    assert announced.current is not None
    return announced.current


class Queries(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.sql.append(str(record.msg))


@pytest.fixture
def queries() -> Iterator[Queries]:
    handler, logger = Queries(), logging.getLogger("peewee")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


def listening(client: FlaskClient, watch: AnnouncedVersions, path: str) -> None:
    """The first check starts this process's listener; wait until it listens."""
    client.get(path)
    eventually(lambda: watch.generation() is not None, seconds=5)


def terminate_listener() -> int:
    """Cut the listener's connection from the server's side, as a restart would."""
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as admin, admin.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND query LIKE %s",
            (f"LISTEN {CHANNEL}%",),
        )
        return cursor.rowcount


def test_a_write_is_heard_within_two_seconds_and_checked_without_a_query(
    postgres_app: Flask, watch: AnnouncedVersions, queries: Queries
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    check = f"{session.url}/version"
    listening(client, watch, check)

    session.ok({"type": "total", "points": 500})
    eventually(lambda: watch.version(session.id) == 1)
    queries.sql.clear()
    unchanged = client.get(check, headers={"If-None-Match": '"1"'})
    plain = client.get(check)

    assert unchanged.status_code == 304
    assert plain.get_json() == {"version": 1}
    assert plain.headers["ETag"] == '"1"'
    assert queries.sql == []


def test_a_version_read_once_is_kept_and_the_next_write_is_heard(
    postgres_app: Flask, watch: AnnouncedVersions
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    check = f"{session.url}/version"
    listening(client, watch, check)

    assert client.get(check).get_json() == {"version": 1}  # read, then kept
    assert watch.version(session.id) == 1
    session.ok({"type": "total", "points": 0})
    eventually(lambda: client.get(check).get_json() == {"version": 2})


def test_an_unknown_session_is_still_a_404(postgres_app: Flask, watch: AnnouncedVersions) -> None:
    client = postgres_app.test_client()
    listening(client, watch, "/api/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA/version")
    response = client.get("/api/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA/version")
    assert response.status_code == 404
    assert response.get_json()["field"] is None


def test_a_lost_listener_forgets_what_it_heard_and_the_check_reads_the_database(
    postgres_app: Flask, watch: AnnouncedVersions
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    check = f"{session.url}/version"
    listening(client, watch, check)
    session.ok({"type": "total", "points": 500})
    eventually(lambda: watch.version(session.id) == 1)
    before = watch.generation()

    assert terminate_listener() == 1
    # While it is cut off, a write is announced to no one.
    eventually(lambda: watch.generation() != before)
    session.ok({"type": "total", "points": 0})

    assert client.get(check).get_json() == {"version": 2}
    eventually(lambda: watch.generation() not in (None, before), seconds=5)
    assert client.get(check).get_json() == {"version": 2}
    session.ok({"type": "total", "points": 0})
    eventually(lambda: client.get(check).get_json() == {"version": 3})


def test_a_read_older_than_the_listeners_connection_is_not_kept(
    postgres_app: Flask, watch: AnnouncedVersions
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    listening(client, watch, f"{session.url}/version")
    generation = watch.generation()
    assert terminate_listener() == 1
    eventually(lambda: watch.generation() not in (None, generation), seconds=5)

    watch.learn(session.id, 0, generation)

    assert watch.version(session.id) is None


def test_a_stopped_watch_knows_nothing_and_closes_its_connection(
    postgres_app: Flask, watch: AnnouncedVersions
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    listening(client, watch, f"{session.url}/version")

    watch.stop()

    assert watch.version(session.id) is None
    eventually(lambda: terminate_listener() == 0)


def test_a_worker_knows_its_own_write_at_once(
    postgres_app: Flask, watch: AnnouncedVersions, queries: Queries
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    check = f"{session.url}/version"
    listening(client, watch, check)
    for version in range(1, 6):
        session.ok(
            {"type": "total", "points": 0} if version > 1 else {"type": "total", "points": 500}
        )
        queries.sql.clear()
        # No wait for the announcement: the write itself told this worker.
        assert client.get(check).get_json() == {"version": version}
        assert queries.sql == []


def test_a_client_that_knows_a_newer_version_than_announced_gets_it_from_the_database(
    postgres_app: Flask, watch: AnnouncedVersions
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    check = f"{session.url}/version"
    listening(client, watch, check)
    session.ok({"type": "total", "points": 500})
    assert watch.version(session.id) == 1
    # Another worker's write whose announcement is still on its way: none is sent here.
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        cursor.execute("ALTER TABLE game_session DISABLE TRIGGER game_session_announce_version")
        cursor.execute("UPDATE game_session SET version = 2 WHERE id = %s", (session.id,))
        cursor.execute("ALTER TABLE game_session ENABLE TRIGGER game_session_announce_version")
    assert watch.version(session.id) == 1

    # The phone that wrote it holds its ETag: the database answers it.
    answer = client.get(check, headers={"If-None-Match": '"2"'})

    assert answer.status_code == 304
    assert answer.headers["ETag"] == '"2"'


@pytest.mark.parametrize("etag", ['"9' + "9" * 5000 + '"', '"²"', "*", 'W/"x"', '"1", "x"'])
def test_an_odd_etag_never_breaks_the_check(
    postgres_app: Flask, watch: AnnouncedVersions, etag: str
) -> None:
    client = postgres_app.test_client()
    session = api_session(client)
    session.ok({"type": "total", "points": 500})
    check = f"{session.url}/version"
    listening(client, watch, check)
    client.get(check)  # read once listening, then kept
    assert watch.version(session.id) == 1

    answer = client.get(check, headers={"If-None-Match": etag})

    assert answer.status_code in (200, 304)
    assert answer.headers["ETag"] == '"1"'
