"""PostgreSQL announces each session's new version (migration 12's trigger), and the
refresh check of each worker answers from what it heard, without a query; a lost
listener forgets everything and the check reads the database again."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import psycopg2
import pytest
from conftest import POSTGRES_URL, ApiSession, Statements, api_session, empty_postgres, make_app
from flask.testing import FlaskClient
from test_refresh_check import ODD_IF_NONE_MATCH
from test_store_cache import replayed, snapshot

from scorekeeper import announced, lifecycle, session_views, store
from scorekeeper.announced import (
    APPENDS_KEPT,
    APPLICATION_NAME,
    CHANNEL,
    AnnouncedVersions,
    appended_payload,
)
from scorekeeper.db import database
from scorekeeper.recent import Recent

pytestmark = pytest.mark.skipif(POSTGRES_URL is None, reason="needs TEST_DATABASE_URL")


def eventually(condition: Callable[[], object], seconds: float = 2.0) -> None:
    """The condition holds within ``seconds`` (the issue's bound for another phone's news)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not within the time allowed"
        time.sleep(0.01)


@dataclass
class Table:
    """A session on PostgreSQL, its refresh check, and the worker's watch, listening."""

    client: FlaskClient
    session: ApiSession
    watch: AnnouncedVersions

    @property
    def check(self) -> str:
        return f"{self.session.url}/version"

    def checked(self, etag: str | None = None) -> tuple[int, str, object]:
        """Status, ETag and body of the refresh check."""
        answer = self.client.get(self.check, headers={"If-None-Match": etag} if etag else {})
        return answer.status_code, answer.headers["ETag"], answer.get_json(silent=True)

    def write(self, points: int = 0) -> None:
        self.session.ok({"type": "total", "points": points})


@pytest.fixture
def table() -> Iterator[Table]:
    assert POSTGRES_URL
    empty_postgres(POSTGRES_URL)
    client = make_app(POSTGRES_URL).test_client()
    watch = announced.current
    assert watch is not None
    session = api_session(client)
    # The first check starts this process's listener.
    client.get(f"{session.url}/version")
    eventually(lambda: watch.generation() is not None, seconds=5)
    yield Table(client, session, watch)
    watch.stop()


def cut_off_the_listener() -> int:
    """Cut the listener's connection from the server's side, as a restart would. Only this
    database's: another app served from the same PostgreSQL keeps its own listeners."""
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as admin, admin.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE pid <> pg_backend_pid() AND application_name = %s "
            "AND datname = current_database()",
            (APPLICATION_NAME,),
        )
        return cursor.rowcount


def another_workers_write(session_id: str, version: int, announced: bool = True) -> None:
    """The session's version moved on by another server; ``announced=False``: its
    announcement has not arrived yet (none is sent)."""
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        if not announced:
            cursor.execute("ALTER TABLE game_session DISABLE TRIGGER game_session_announce_version")
        cursor.execute("UPDATE game_session SET version = %s WHERE id = %s", (version, session_id))
        cursor.execute("ALTER TABLE game_session ENABLE TRIGGER game_session_announce_version")


def test_a_write_is_heard_within_two_seconds_and_checked_without_a_query(
    table: Table, statements: Statements
) -> None:
    # Another worker's write, announced: this worker hears it.
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(announced, "current", None)
        table.write(500)
    eventually(lambda: table.watch.version(table.session.id) == 1)
    statements.sql.clear()

    assert table.checked('"1"')[:2] == (304, '"1"')
    assert table.checked() == (200, '"1"', {"version": 1})
    assert statements.sql == []


def test_a_worker_knows_its_own_write_at_once(table: Table, statements: Statements) -> None:
    table.write(500)
    for version in range(2, 6):
        table.write()
        statements.sql.clear()
        # No wait for the announcement: the write itself told this worker.
        assert table.checked() == (200, f'"{version}"', {"version": version})
        assert statements.sql == []


def test_a_version_read_once_is_kept_and_the_next_write_is_heard(
    table: Table, statements: Statements
) -> None:
    another_workers_write(table.session.id, 7, announced=False)

    assert table.checked()[2] == {"version": 7}  # read from the database, then kept
    statements.sql.clear()
    assert table.checked()[2] == {"version": 7}
    assert statements.sql == []
    another_workers_write(table.session.id, 8)
    eventually(lambda: table.checked()[2] == {"version": 8})


def test_a_check_takes_in_what_arrived_while_the_listeners_thread_waits_between_batches(
    table: Table, statements: Statements, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The thread takes in the first announcement, then waits far longer than the test.
    monkeypatch.setattr(announced, "GATHER_SECONDS", 60.0)
    another_workers_write(table.session.id, 1)
    eventually(lambda: table.watch.version(table.session.id) == 1)
    another_workers_write(table.session.id, 2)
    statements.sql.clear()

    eventually(lambda: table.checked()[2] == {"version": 2})
    assert statements.sql == []


def test_a_client_that_knows_a_newer_version_than_announced_gets_it_from_the_database(
    table: Table,
) -> None:
    table.write(500)
    another_workers_write(table.session.id, 2, announced=False)
    assert table.watch.version(table.session.id) == 1

    # The phone that wrote it holds its ETag: the database answers it.
    assert table.checked('"2"')[:2] == (304, '"2"')


@pytest.mark.parametrize(("etag", "status"), ODD_IF_NONE_MATCH)
def test_an_odd_etag_never_breaks_the_check(table: Table, etag: str, status: int) -> None:
    table.write(500)

    assert table.checked(etag)[:2] == (status, '"1"')


def test_an_unknown_session_is_still_a_404(table: Table) -> None:
    response = table.client.get("/api/v1/sessions/AAAAAAAAAAAAAAAAAAAAAA/version")
    assert response.status_code == 404
    assert response.get_json()["field"] is None


def test_a_removed_sessions_check_is_a_404_once_its_removal_is_heard(table: Table) -> None:
    assert table.checked()[2] == {"version": 0}  # read once, then kept
    with pytest.MonkeyPatch.context() as other_worker, table.client.application.app_context():
        other_worker.setattr(announced, "current", None)
        with database.connection_context():
            lifecycle.remove_unstarted(table.session.id)
    eventually(lambda: table.watch.version(table.session.id) is None)

    response = table.client.get(table.check)
    assert response.status_code == 404
    assert response.get_json()["field"] is None


def test_a_lost_listener_forgets_what_it_heard_and_the_check_reads_the_database(
    table: Table,
) -> None:
    table.write(500)
    assert table.watch.version(table.session.id) == 1
    before = table.watch.generation()

    assert cut_off_the_listener() == 1
    eventually(lambda: table.watch.generation() != before)
    # While it is cut off, a write is announced to no one.
    another_workers_write(table.session.id, 2, announced=False)

    assert table.checked()[2] == {"version": 2}
    eventually(lambda: table.watch.generation() not in (None, before), seconds=5)
    assert table.checked()[2] == {"version": 2}


def test_a_read_older_than_the_listeners_connection_is_not_kept(table: Table) -> None:
    generation = table.watch.generation()
    assert cut_off_the_listener() == 1
    eventually(lambda: table.watch.generation() not in (None, generation), seconds=5)

    table.watch.learn(table.session.id, 0, generation)

    assert table.watch.version(table.session.id) is None


def test_a_stopped_watch_knows_nothing_and_closes_its_connection(table: Table) -> None:
    table.write(500)

    table.watch.stop()

    assert table.watch.version(table.session.id) is None
    eventually(lambda: cut_off_the_listener() == 0)


class PooledElsewhere:
    """A connection through a pooler in transaction mode: each statement may run on
    another server connection, so what LISTEN asked for arrives on one this client
    never reads. Here every statement runs on one, and arrivals are read from another."""

    def __init__(self, url: str, **parameters: Any) -> None:
        self.statements = REAL_CONNECT(url, **parameters)
        self.arrivals = REAL_CONNECT(url, **parameters)
        self.statements.autocommit = self.arrivals.autocommit = True

    def cursor(self) -> Any:
        return self.statements.cursor()

    def poll(self) -> Any:
        return self.arrivals.poll()

    @property
    def notifies(self) -> list[Any]:
        return list(self.arrivals.notifies)

    def fileno(self) -> int:
        return int(self.arrivals.fileno())

    def close(self) -> None:
        self.statements.close()
        self.arrivals.close()


REAL_CONNECT = psycopg2.connect


def test_a_listener_that_does_not_hear_itself_never_answers_from_memory(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    assert POSTGRES_URL
    empty_postgres(POSTGRES_URL)
    monkeypatch.setattr(announced, "PROBE_SECONDS", 0.2)
    monkeypatch.setattr(announced, "UNHEARD_RETRY_SECONDS", 0.2)
    client = make_app(POSTGRES_URL).test_client()
    watch = announced.current
    assert watch is not None
    watch.connect = PooledElsewhere
    session = api_session(client)
    check = f"{session.url}/version"
    try:
        client.get(check)  # starts the listener, which probes in vain, again and again
        eventually(lambda: "does not hear its own announcement" in caplog.text)
        for points in (500, 0):
            with pytest.MonkeyPatch.context() as other_worker:
                other_worker.setattr(announced, "current", None)
                session.ok({"type": "total", "points": points})
            # Every answer comes from the database: never the version before.
            assert client.get(check).get_json() == {"version": session.version}
            assert watch.generation() is None
    finally:
        watch.stop()


def test_another_listeners_probe_is_no_version(table: Table) -> None:
    table.write(500)
    generation = table.watch.generation()
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, "probe 5f3a9c"))
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{table.session.id} x"))
    table.write()

    eventually(lambda: table.watch.version(table.session.id) == 2)
    assert table.watch.generation() == generation  # still the same connection, listening
    assert table.checked()[2] == {"version": 2}


def test_an_announcement_with_a_malformed_event_still_says_its_version_and_no_event(
    table: Table,
) -> None:
    assert POSTGRES_URL
    sid = table.session.id
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{sid} 1 x {{}}"))
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{sid} 2 2"))

    eventually(lambda: table.watch.version(sid) == 2)
    assert table.watch.appended(sid, 0, 1) is None
    assert table.watch.appended(sid, 1, 2) is None


def test_the_newest_appends_announced_with_their_event_are_kept_and_older_ones_forgotten(
    table: Table,
) -> None:
    assert POSTGRES_URL
    sid, newest = table.session.id, APPENDS_KEPT + 5
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        for version in range(1, newest + 1):
            payload = appended_payload(sid, version, version, '{"type":"total","points":0}')
            cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))

    eventually(lambda: table.watch.version(sid) == newest)
    oldest_kept = newest - APPENDS_KEPT + 1
    heard = table.watch.appended(sid, oldest_kept - 1, newest)
    assert heard == [(v, '{"type":"total","points":0}') for v in range(oldest_kept, newest + 1)]
    assert table.watch.appended(sid, oldest_kept - 2, newest) is None


def test_an_event_too_long_to_announce_is_not_announced_with_its_version() -> None:
    assert appended_payload("abc", 7, 6, '{"type":"total"}') == 'abc 7 6 {"type":"total"}'
    longest = appended_payload("abc", 7, 6, "e" * 7991)  # 7,999 bytes
    assert longest is not None
    # PostgreSQL refuses a payload of 8000 bytes or more: such an append is announced by
    # its version alone.
    assert appended_payload("abc", 7, 6, "é" * 3996) is None
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as other, other.cursor() as cursor:
        cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, longest))
        with pytest.raises(psycopg2.errors.InvalidParameterValue):
            cursor.execute("SELECT pg_notify(%s, %s)", (CHANNEL, longest + "e"))


TOTAL = {"type": "total", "points": 0}


def another_workers_appends(session_id: str, count: int, **write: Any) -> None:
    """Appends by a worker that keeps its own view (so each is one statement, announced
    with its event unless ``write`` asks for more, as a request key does)."""
    with pytest.MonkeyPatch.context() as other_worker:
        other_worker.setattr(session_views, "_views", Recent(256))
        other_worker.setattr(announced, "current", None)
        for _ in range(count):
            view = session_views.load(session_id)
            store.append(session_id, TOTAL, view.version, **write)


def test_an_append_after_another_workers_announced_appends_reads_no_event(
    table: Table, statements: Statements
) -> None:
    sid = table.session.id
    with table.client.application.app_context(), database.connection_context():
        seen = session_views.load(sid)  # this worker keeps the session at version 0
        another_workers_appends(sid, 3)
        eventually(lambda: table.watch.appended(sid, 0, 3) is not None)
        statements.sql.clear()

        written = store.append(sid, TOTAL, 3)

        # Caught up from what it heard: the append is its one statement, nothing read.
        [statement] = statements.sql
        assert statement.startswith("WITH written AS (UPDATE")
        assert [event.seq for event in written.events] == [1, 2, 3, 4]
        assert (written.version, written.can_undo, written.can_redo) == (4, True, False)
        assert snapshot(written) == snapshot(session_views.load(sid)) == replayed(sid)
        assert seen.version == 0


def test_a_version_not_announced_with_its_event_makes_the_worker_read_the_events(
    table: Table, statements: Statements
) -> None:
    sid = table.session.id
    with table.client.application.app_context(), database.connection_context():
        session_views.load(sid)
        another_workers_appends(sid, 1)
        # A request key makes an append a locked write, announced by its version alone.
        another_workers_appends(sid, 1, form_key="retry-safe")
        eventually(lambda: table.watch.version(sid) == 2)
        assert table.watch.appended(sid, 0, 2) is None
        statements.sql.clear()

        written = store.append(sid, TOTAL, 2)

        # The catch-up is prepared first, the first time on this connection.
        caught_up, appended = [s for s in statements.sql if not s.startswith("PREPARE ")]
        assert caught_up.startswith('SELECT "t1"."version", "t1"."rewritten_at"')
        assert appended.startswith("WITH written AS (UPDATE")
        assert snapshot(written) == snapshot(session_views.load(sid)) == replayed(sid)


def test_a_write_committed_before_the_listener_reconnected_is_not_kept(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    table.write(500)
    keep_view = session_views._views.put
    paused: list[bool] = []

    def paused_between_commit_and_watch(session_id: str, view: session_views.SessionView) -> None:
        """The worker, its write committed, pauses before it tells its watch; meanwhile the
        listener loses its connection, another server writes, and the listener is back."""
        keep_view(session_id, view)
        if paused:
            return
        paused.append(True)
        before = table.watch.generation()
        assert cut_off_the_listener() == 1
        eventually(lambda: table.watch.generation() != before)
        another_workers_write(table.session.id, 3)  # announced while no one listens
        eventually(lambda: table.watch.generation() not in (None, before), seconds=5)

    monkeypatch.setattr(session_views._views, "put", paused_between_commit_and_watch)
    table.write(650)

    assert paused
    assert table.checked()[2] == {"version": 3}
