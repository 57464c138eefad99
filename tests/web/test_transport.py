"""How answers travel: pooled database connections kept across requests, and pages,
JSON and CSV compressed for a client that accepts it."""

from __future__ import annotations

import gzip
import sqlite3
from collections import Counter
from typing import Any

import psycopg2
import pytest
from conftest import API, POSTGRES_URL, ApiSession, Statements, api_session, make_app
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.wrappers import Response

from scorekeeper import db, session_views, store
from scorekeeper.db import database, is_sqlite


@pytest.fixture
def app(database_url: str) -> Flask:
    """An app of this test's own: these tests hook into its requests, which Flask allows
    only before an app's first request."""
    return make_app(database_url)


def connections_of_requests(app: Flask) -> list[Any]:
    """The raw connection each following request of ``app`` ran on."""
    used: list[Any] = []

    @app.after_request
    def note(response: Response) -> Response:
        used.append(database.connection())
        return response

    return used


def is_open(connection: Any) -> bool:
    if not is_sqlite():
        return bool(connection.closed == 0)
    try:
        connection.execute("SELECT 1")
    except sqlite3.ProgrammingError:  # "Cannot operate on a closed database."
        return False
    return True


def test_a_second_request_reuses_the_first_ones_connection(app: Flask) -> None:
    used = connections_of_requests(app)
    client = app.test_client()
    session = api_session(client)

    client.get(session.url)
    client.get(f"/s/{session.id}")

    assert len(used) >= 3
    assert all(connection is used[0] for connection in used)
    assert database.is_closed()  # given back to the pool at the end of the request…
    assert is_open(used[0])  # …which keeps it open for the next one


def test_every_pooled_sqlite_connection_has_the_apps_pragmas(app: Flask) -> None:
    if not is_sqlite():
        return
    used = connections_of_requests(app)
    app.test_client().get("/")

    [connection] = used
    pragma = {
        name: connection.execute(f"PRAGMA {name}").fetchone()[0]
        for name in ("journal_mode", "foreign_keys", "busy_timeout", "synchronous")
    }
    assert pragma == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "busy_timeout": 5000,
        "synchronous": 1,  # normal
    }


@pytest.fixture
def pings(app: Flask, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The connections PostgreSQL's pool asked whether they still answer (SELECT 1)."""
    if is_sqlite():
        pytest.skip("SQLite's connections are files in this process: nothing to ask")
    asked: list[Any] = []
    adapter = database.obj._adapter
    real = adapter.is_connection_closed

    def counted(connection: Any) -> bool:
        asked.append(connection)
        return bool(real(connection))

    monkeypatch.setattr(adapter, "is_connection_closed", counted)
    return asked


def test_a_connection_given_back_a_moment_ago_is_used_again_without_a_round_trip(
    app: Flask, pings: list[Any]
) -> None:
    client = app.test_client()
    session = api_session(client)
    for _ in range(5):
        assert client.get(session.url).status_code == 200
    assert pings == []


def test_a_connection_idle_for_a_while_is_asked_first_and_replaced_if_cut(
    app: Flask, pings: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    used = connections_of_requests(app)
    client = app.test_client()
    session = api_session(client)
    monkeypatch.setattr(db, "POOL_CHECK_AFTER_SECONDS", 0.0)
    # The server ends it while it idles in the pool (a restart, a proxy's timeout).
    assert POSTGRES_URL
    with psycopg2.connect(POSTGRES_URL) as admin, admin.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", (used[0].get_backend_pid(),))

    assert client.get(session.url).status_code == 200

    assert used[0] in pings
    assert used[-1] is not used[0]
    assert is_open(used[-1])


GZIP = {"Accept-Encoding": "gzip"}


def assert_gzipped_alike(packed: Any, plain: Any) -> None:
    assert packed.status_code == plain.status_code == 200
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert "Content-Encoding" not in plain.headers
    assert gzip.decompress(packed.data) == plain.data
    assert len(packed.data) < len(plain.data)


def test_a_page_json_and_csv_come_compressed_only_when_the_client_accepts_it(
    client: FlaskClient,
) -> None:
    session = api_session(client, ["Ann", "Bo", "Cy"])
    for points in [500, 650, 0, 1000] * 5:
        session.ok({"type": "total", "points": points})

    for url in (
        f"/s/{session.id}",
        session.url,
        f"{session.url}/export.csv",
        f"/s/{session.id}/export.csv",
    ):
        assert_gzipped_alike(client.get(url, headers=GZIP), client.get(url))


def test_brotli_is_chosen_when_the_client_takes_it(client: FlaskClient) -> None:
    response = client.get("/", headers={"Accept-Encoding": "br, gzip"})

    assert response.headers["Content-Encoding"] == "br"


def test_a_304_stays_empty_when_the_client_accepts_compression(client: FlaskClient) -> None:
    session = api_session(client)
    etag = client.get(f"{session.url}/version").headers["ETag"]

    response = client.get(f"{session.url}/version", headers={"If-None-Match": etag, **GZIP})

    assert response.status_code == 304
    assert response.data == b""
    assert "Content-Encoding" not in response.headers


def test_the_api_document_is_compressed_too(client: FlaskClient) -> None:
    response = client.get(f"{API}/openapi.json", headers=GZIP)

    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.data).startswith(b"{")


def test_on_postgresql_the_stores_frequent_statements_are_prepared_once_per_connection(
    app: Flask, statements: Statements
) -> None:
    if is_sqlite():
        return
    used = connections_of_requests(app)
    client = app.test_client()
    session = api_session(client)
    for version in range(4):
        assert session.act({"type": "total", "points": 0}, version).status_code == 201
        assert client.get(session.url).status_code == 200

    assert all(connection is used[0] for connection in used)
    prepares = [sql for sql in statements.sql if sql.startswith("PREPARE ")]
    assert len(prepares) == len(set(prepares)) == len(used[0].prepared) >= 2
    # Every append was one EXECUTE of the one-statement append; every read's version too.
    names = Counter(sql.removeprefix("EXECUTE ").partition("(")[0] for sql in statements.executed)
    assert names[store._APPENDED_ANNOUNCED.prepared_name] == 4
    assert names[session_views._COLUMN_READS["version"].prepared_name] >= 4
    with used[0].cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        assert {row[0] for row in cursor} == used[0].prepared


def one_append(app: Flask) -> tuple[list[Any], ApiSession]:
    """A new session with one append, and the connections its requests ran on."""
    used = connections_of_requests(app)
    session = api_session(app.test_client())
    assert session.act({"type": "total", "points": 0}, 0).status_code == 201
    return used, session


def test_on_postgresql_a_statement_prepared_by_another_client_of_the_connection_is_used(
    app: Flask,
) -> None:
    if is_sqlite():
        return
    used, session = one_append(app)
    # Through a pooler the server connection may hold it already, under the same name.
    used[0].prepared.clear()

    assert session.act({"type": "total", "points": 0}, 1).status_code == 201
    assert session.version == 2
    assert database.obj.prepares


def test_on_postgresql_a_prepared_statement_gone_missing_is_sent_whole_from_then_on(
    app: Flask, statements: Statements, caplog: pytest.LogCaptureFixture
) -> None:
    if is_sqlite():
        return
    used, session = one_append(app)
    # What a pooler in transaction mode does: the next statement reaches a server
    # connection where nothing was prepared.
    with used[0].cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")
    statements.sql.clear()
    statements.executed.clear()

    assert session.act({"type": "total", "points": 0}, 1).status_code == 201
    assert session.version == 2

    assert not database.obj.prepares
    assert "prepared statement went missing" in caplog.text
    # The append's EXECUTE failed before anything ran; it was sent whole, and so was
    # every statement after it.
    [failed] = statements.executed
    assert statements.sql[0] == statements.sql[1] != failed
    assert statements.sql[0].startswith("WITH written AS")
    assert statements.sql.count(statements.sql[0]) == 2
