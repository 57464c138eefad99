"""The database: SQLite in instance/ by default, PostgreSQL through DATABASE_URL.

One ``DatabaseProxy`` is bound at start-up, so the same models and queries run
on either back end. The database is a pool (playhouse.pool): each worker keeps
its connections open, a request takes one and gives it back at teardown. The
schema is created and upgraded by numbered migrations (``scorekeeper.migrations``),
applied at start-up and by ``flask init-db``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

from flask import Flask
from peewee import Database, DatabaseProxy, SqliteDatabase
from playhouse.pool import PooledDatabase, PooledPostgresqlDatabase, PooledSqliteDatabase

database = DatabaseProxy()

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 5000,
    "synchronous": "normal",
}

# Connections a worker keeps at most: one per thread serving requests at once.
# A request finding them all taken waits this many seconds for one to come back.
POOL_MAX_CONNECTIONS = 16
POOL_WAIT_SECONDS = 10
# A PostgreSQL connection idle this long is closed and replaced on its next use,
# so a server restart or a proxy's idle cut-off costs one reconnect, not an error.
POOL_STALE_SECONDS = 300


def open_database(url: str, max_connections: int = POOL_MAX_CONNECTIONS) -> Database:
    """A pooled peewee database for a ``sqlite:///path`` or ``postgresql://`` URL."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgres", "postgresql"):
        return PooledPostgresqlDatabase(
            parsed.path.lstrip("/"),
            user=parsed.username,
            password=parsed.password,
            host=parsed.hostname,
            port=parsed.port,
            max_connections=max_connections,
            stale_timeout=POOL_STALE_SECONDS,
            timeout=POOL_WAIT_SECONDS,
        )
    if parsed.scheme == "sqlite":
        path = url.removeprefix("sqlite:///")
        # The pragmas run on each new connection the pool opens. A pooled
        # connection serves one thread at a time, but not always the same one.
        return PooledSqliteDatabase(
            path,
            pragmas=SQLITE_PRAGMAS,
            check_same_thread=False,
            max_connections=max_connections,
            timeout=POOL_WAIT_SECONDS,
        )
    raise ValueError(f"DATABASE_URL must start with sqlite:/// or postgresql://, not {url!r}")


def is_sqlite() -> bool:
    return isinstance(database.obj, SqliteDatabase)


@contextmanager
def write_transaction() -> Iterator[None]:
    """One transaction for a write; on SQLite it takes the write lock at once.

    IMMEDIATE makes two phones writing at the same moment queue on the busy
    timeout instead of one failing with "database is locked" halfway through.
    PostgreSQL callers lock the session row themselves (SELECT … FOR UPDATE).
    """
    if is_sqlite():
        with database.atomic("IMMEDIATE"):
            yield
    else:
        with database.atomic():
            yield


def database_url(app: Flask) -> str:
    configured = app.config.get("DATABASE_URL")
    if configured:
        return str(configured)
    return "sqlite:///" + os.path.join(app.instance_path, "scorekeeper.sqlite3")


def init_app(app: Flask) -> None:
    """Open the app's database; ``migrations.init_app`` brings its schema up to date."""
    previous = database.obj
    if isinstance(previous, PooledDatabase):
        # One database per process: a new app (a test's) closes the old one's pool.
        previous.close_all()
    database.initialize(
        open_database(
            database_url(app),
            int(app.config.get("DATABASE_MAX_CONNECTIONS") or POOL_MAX_CONNECTIONS),
        )
    )

    @app.before_request
    def connect() -> None:
        database.connect(reuse_if_open=True)

    @app.teardown_appcontext
    def close(_exc: BaseException | None) -> None:
        # Gives the connection back to the pool; the pool keeps it open.
        if not database.is_closed():
            database.close()
