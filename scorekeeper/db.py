"""The database: SQLite in instance/ by default, PostgreSQL through DATABASE_URL.

One ``DatabaseProxy`` is bound at start-up, so the same models and queries run
on either back end. The database is a pool (playhouse.pool): each worker keeps
its connections open, a request takes one and gives it back at teardown. The
schema is created and upgraded by numbered migrations (``scorekeeper.migrations``),
applied at start-up and by ``flask init-db``.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar
from urllib.parse import urlparse

import psycopg2.errors
import psycopg2.extensions
from flask import Flask
from peewee import (
    Database,
    DatabaseProxy,
    Field,
    OperationalError,
    PeeweeException,
    ProgrammingError,
    Query,
    SqliteDatabase,
)
from playhouse.pool import PooledDatabase, PooledPostgresqlDatabase, PooledSqliteDatabase
from psycopg2.extensions import TRANSACTION_STATUS_IDLE

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

database = DatabaseProxy()
log = logging.getLogger(__name__)

FieldValue = TypeVar("FieldValue")

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
# A PostgreSQL connection open this long is closed and replaced on its next use,
# so a server restart or a proxy's idle cut-off costs one reconnect, not an error.
POOL_STALE_SECONDS = 300
# A PostgreSQL connection given back longer ago than this is asked whether it still
# answers before it is used again (HikariCP's default bypass window).
POOL_CHECK_AFTER_SECONDS = 0.5


def open_database(url: str, max_connections: int = POOL_MAX_CONNECTIONS) -> Database:
    """A pooled peewee database for a ``sqlite:///path`` or ``postgresql://`` URL."""
    parsed = urlparse(url)
    if parsed.scheme in ("postgres", "postgresql"):
        return CheckedWhenIdlePostgresqlDatabase(
            parsed.path.lstrip("/"),
            user=parsed.username,
            password=parsed.password,
            host=parsed.hostname,
            port=parsed.port,
            max_connections=max_connections,
            stale_timeout=POOL_STALE_SECONDS,
            timeout=POOL_WAIT_SECONDS,
            # Text read as bytes (``fetched_as_bytes``) is UTF-8 whatever the server's
            # encoding, as SQLite's is.
            client_encoding="UTF8",
        )
    if parsed.scheme == "sqlite":
        path = url.removeprefix("sqlite:///")
        # The pragmas run on each new connection the pool opens. A pooled
        # connection serves one thread at a time, but not always the same one.
        return QueuedSqliteDatabase(
            path,
            pragmas=SQLITE_PRAGMAS,
            check_same_thread=False,
            max_connections=max_connections,
            timeout=POOL_WAIT_SECONDS,
        )
    raise ValueError(f"DATABASE_URL must start with sqlite:/// or postgresql://, not {url!r}")


class PreparingConnection(psycopg2.extensions.connection):
    """A PostgreSQL connection that remembers which statements it has prepared."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prepared: set[str] = set()


class CheckedWhenIdlePostgresqlDatabase(PooledPostgresqlDatabase):
    """peewee's PostgreSQL pool, asking a connection whether it still answers only if it
    has been idle for a while, and running the store's frequent statements prepared.

    peewee's pool sends ``SELECT 1`` each time it hands a connection out: a round trip
    to the server on every request, as long as the request's own read. A connection
    given back a moment ago has just answered; one idle for longer may have been cut
    (a server restart, a proxy's idle timeout) and is checked, and replaced if dead.

    A ``Statement`` run outside a transaction is prepared on each connection the first
    time it runs there, then only executed: the server parses and plans it once instead of
    on every request. A pooler in transaction mode hands each statement to any server
    connection, where the statement may not be prepared: the first time one is found
    missing, the process sends every statement whole from then on.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, connection_factory=PreparingConnection, **kwargs)
        self._given_back: dict[int, float] = {}
        self.prepares = True

    def _is_closed(self, conn: Any) -> bool:
        given_back = self._given_back.pop(self.conn_key(conn), None)
        just_used = (
            given_back is not None
            and time.monotonic() - given_back <= POOL_CHECK_AFTER_SECONDS
            and not conn.closed
            and conn.get_transaction_status() == TRANSACTION_STATUS_IDLE
        )
        # peewee's check: closed, left in a transaction (rolled back), or asks the server.
        return False if just_used else bool(super()._is_closed(conn))

    def _close(self, conn: Any, close_conn: bool = False) -> None:
        if not close_conn:
            self._given_back[self.conn_key(conn)] = time.monotonic()
        super()._close(conn, close_conn)

    def execute_prepared(self, statement: Statement, values: Sequence[object]) -> Any:
        """Run ``statement`` prepared on this thread's connection (outside a transaction:
        a statement found missing there fails alone, and is sent whole instead)."""
        # Unannotated in peewee's stubs; the connection is made by our connection_factory.
        connection: PreparingConnection = self.connection()  # type: ignore[no-untyped-call]
        name = statement.prepared_name
        try:
            if name not in connection.prepared:
                self._prepare(statement.prepared)
                connection.prepared.add(name)
            return run_sql(self, statement.executed, values)
        except OperationalError as failed:
            if not isinstance(driver_error(failed), psycopg2.errors.InvalidSqlStatementName):
                raise
        log.warning(
            "A prepared statement went missing (a pooler in transaction mode?): "
            "statements are sent whole from now on."
        )
        self.prepares = False
        return run_sql(self, statement.sql, values)

    def _prepare(self, prepare: str) -> None:
        try:
            run_sql(self, prepare)
        except ProgrammingError as failed:
            # Through a pooler, a server connection another client prepared it on: the
            # name is the statement's text's, so it is the same statement.
            if not isinstance(driver_error(failed), psycopg2.errors.DuplicatePreparedStatement):
                raise


# peewee's parameters in PostgreSQL's SQL, and a percent sign written twice.
PARAMETER = re.compile("%%|%s")


class WriterQueue:
    """The writers of one SQLite file, in every worker, take turns at a lock file first.

    SQLite's busy timeout makes a writer that finds the file locked sleep (1, 2, 5 … up
    to 100 ms) and try again, so under load most of a write's time was spent asleep after
    the lock was free. A writer waiting here wakes the moment the one before it is done.
    """

    def __init__(self, database_path: str) -> None:
        self.path = database_path + "-writers"
        self._threads = threading.Lock()
        self._file: tuple[int, int] | None = None  # (process id, descriptor)

    @contextmanager
    def turn(self) -> Iterator[None]:
        with self._threads:
            if fcntl is None:  # no flock (Windows): SQLite's busy timeout alone queues
                yield
                return
            descriptor = self._descriptor()
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(descriptor, fcntl.LOCK_UN)

    def _descriptor(self) -> int:
        # Each process opens its own: a descriptor inherited through fork (gunicorn
        # --preload) would share one lock between the workers instead of queueing them.
        if self._file is None or self._file[0] != os.getpid():
            self._file = (os.getpid(), os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600))
        return self._file[1]


class QueuedSqliteDatabase(PooledSqliteDatabase):
    """A pooled SQLite database whose write transactions queue (``WriterQueue``)."""

    def __init__(self, path: str, **kwargs: Any) -> None:
        super().__init__(path, **kwargs)
        self.writers = WriterQueue(path)


class Statement:
    """A query the store runs on every request, compiled by peewee once per back end.

    Building a query's SQL cost peewee more than the database took to run it. ``build``
    makes the query (or its SQL, for one peewee cannot express) with stand-in values;
    each run sends its own values, in the order the SQL takes them (``in_model_order``
    for the fields of an insert or an update). On PostgreSQL, outside a transaction, it
    runs prepared (``CheckedWhenIdlePostgresqlDatabase.execute_prepared``).
    """

    def __init__(self, build: Callable[[], Query | str]) -> None:
        self.build = build
        self._sql: dict[type, str] = {}

    @property
    def sql(self) -> str:
        backend = type(database.obj)
        sql = self._sql.get(backend)
        if sql is None:
            built = self.build()
            sql = self._sql[backend] = built if isinstance(built, str) else str(built.sql()[0])
        return sql

    # PostgreSQL's forms of it (only PostgreSQL prepares), each worked out once.

    @functools.cached_property
    def prepared_name(self) -> str:
        """Its name as a prepared statement: named by its text, so that a name always
        means the same statement, whichever version of the app prepared it."""
        return "scorekeeper_" + hashlib.sha256(self.sql.encode()).hexdigest()[:16]

    @functools.cached_property
    def prepared(self) -> str:
        """The SQL that prepares it: peewee's parameters numbered as PostgreSQL's."""
        numbers = itertools.count(1)
        numbered = PARAMETER.sub(lambda m: "%" if m[0] == "%%" else f"${next(numbers)}", self.sql)
        return f"PREPARE {self.prepared_name} AS {numbered}"

    @functools.cached_property
    def executed(self) -> str:
        """The SQL that runs it once prepared, its values in the same order."""
        count = sum(1 for found in PARAMETER.finditer(self.sql) if found[0] == "%s")
        return f"EXECUTE {self.prepared_name}({', '.join(['%s'] * count)})"

    def execute(self, *values: object) -> Any:
        backend = database.obj
        if (
            isinstance(backend, CheckedWhenIdlePostgresqlDatabase)
            and backend.prepares
            and not backend.in_transaction()
        ):
            return backend.execute_prepared(self, values)
        return database.execute_sql(self.sql, values)


def fetched_as_bytes(statement: Statement, *values: object) -> list[tuple[Any, ...]]:
    """The rows of ``statement`` run with ``values``, each text column as the UTF-8 bytes
    the driver reads rather than as str: a long text handed on as it is read (a kept part
    of a group's export) is then neither decoded nor encoded again."""
    # Unannotated in peewee's stubs: sqlite3's or psycopg2's connection.
    connection: Any = database.connection()
    if is_sqlite():
        # sqlite3 makes each value as it fetches the row.
        connection.text_factory = bytes
        try:
            return list(statement.execute(*values).fetchall())
        finally:
            connection.text_factory = str
    # psycopg2 picks each column's caster as the statement runs.
    psycopg2.extensions.register_type(psycopg2.extensions.BYTES, connection)
    try:
        return list(statement.execute(*values).fetchall())
    finally:
        psycopg2.extensions.register_type(psycopg2.extensions.UNICODE, connection)


def any_of(column: str) -> str:
    """SQL that is true where ``column`` is one of a list passed as one value (``as_list``):
    a ``Statement``'s text is then the same for a list of any length."""
    if is_sqlite():
        return f"{column} IN (SELECT value FROM json_each({database.param}))"
    return f"{column} = ANY({database.param})"


def as_list(values: Sequence[str]) -> object:
    """``values`` as the one value ``any_of`` takes: a JSON array for SQLite's json_each,
    a list (an array) for PostgreSQL."""
    return json.dumps(list(values)) if is_sqlite() else list(values)


def in_model_order(values: Mapping[Field[Any], object]) -> list[object]:
    """The values as peewee's SQL takes them: in their fields' order in the model, each as
    its field stores it."""
    ordered = sorted(values.items(), key=lambda item: model_order(item[0]))
    return [to_column(field, value) for field, value in ordered]


# Typed ways into the parts of peewee its stubs leave unannotated (or do not declare): the
# app goes through these, so that mypy checks what it passes and gets.


def run_sql(backend: Database, sql: str, values: Sequence[object] = ()) -> Any:
    """``backend.execute_sql``: the cursor of ``sql`` run with ``values``."""
    return backend.execute_sql(sql, values)  # type: ignore[no-untyped-call]


def to_column(field: Field[Any], value: object) -> object:
    """``value`` as ``field`` stores it in its column."""
    return field.db_value(value)  # type: ignore[no-untyped-call]


def from_column(field: Field[FieldValue], stored: object) -> FieldValue:
    """A value read from ``field``'s column as the model holds it."""
    value: FieldValue = field.python_value(stored)  # type: ignore[no-untyped-call]
    return value


def model_order(field: Field[Any]) -> tuple[int, int]:
    """Where ``field`` comes in its model: the order peewee writes the columns of an insert
    or an update in (a field's sort key needs no query context)."""
    key: tuple[int, int] = field.get_sort_key(None)
    return key


def as_dicts(query: Query) -> Iterator[dict[str, Any]]:
    """The rows of ``query``, each a dict by the names it selects (peewee's ``dicts()``,
    whose stubs type a model's query's rows as the model's all the same)."""
    rows: Iterator[dict[str, Any]] = iter(query.dicts())
    return rows


def driver_error(failed: PeeweeException) -> object:
    """The database driver's exception that peewee wrapped in ``failed`` (None if none)."""
    return getattr(failed, "orig", None)


def is_sqlite() -> bool:
    return isinstance(database.obj, SqliteDatabase)


@contextmanager
def write_transaction() -> Iterator[None]:
    """One transaction for a write; on SQLite it takes the write lock at once.

    IMMEDIATE makes two phones writing at the same moment queue instead of one
    failing with "database is locked" halfway through; a write inside another
    one is a savepoint of it. PostgreSQL callers lock the session row themselves
    (SELECT … FOR UPDATE).
    """
    if is_sqlite() and not database.in_transaction():
        # Every SQLite database open_database gives is a QueuedSqliteDatabase.
        with database.obj.writers.turn(), database.atomic("IMMEDIATE"):
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

    # Each request's hooks use the database itself: each use of peewee's proxy raises and
    # formats an AttributeError before it passes the name on.
    @app.before_request
    def connect() -> None:
        database.obj.connect(reuse_if_open=True)

    @app.teardown_appcontext
    def close(_exc: BaseException | None) -> None:
        # Gives the connection back to the pool; the pool keeps it open.
        backend = database.obj
        if not backend.is_closed():
            backend.close()
