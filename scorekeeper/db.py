"""The database: SQLite in instance/ by default, PostgreSQL through DATABASE_URL.

One ``DatabaseProxy`` is bound at start-up, so the same models and queries run
on either back end. The schema is created and upgraded by numbered migrations
(``scorekeeper.migrations``), applied at start-up and by ``flask init-db``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlparse

from flask import Flask
from peewee import Database, DatabaseProxy, PostgresqlDatabase, SqliteDatabase

database = DatabaseProxy()

SQLITE_PRAGMAS = {
    "journal_mode": "wal",
    "foreign_keys": 1,
    "busy_timeout": 5000,
    "synchronous": "normal",
}


def open_database(url: str) -> Database:
    """A peewee database for a ``sqlite:///path`` or ``postgresql://`` URL."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgres", "postgresql"):
        return PostgresqlDatabase(
            parsed.path.lstrip("/"),
            user=parsed.username,
            password=parsed.password,
            host=parsed.hostname,
            port=parsed.port,
        )
    if parsed.scheme == "sqlite":
        path = url.removeprefix("sqlite:///")
        return SqliteDatabase(path, pragmas=SQLITE_PRAGMAS)
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
    database.initialize(open_database(database_url(app)))

    @app.before_request
    def connect() -> None:
        database.connect(reuse_if_open=True)

    @app.teardown_appcontext
    def close(_exc: BaseException | None) -> None:
        if not database.is_closed():
            database.close()
