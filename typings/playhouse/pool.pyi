from collections.abc import Callable
from typing import Any

from peewee import PostgresqlDatabase, SqliteDatabase

class PooledDatabase:
    # The key of a connection in the pool: its id().
    conn_key: Callable[[Any], int]
    def __init__(
        self,
        database: str | None,
        max_connections: int = 20,
        stale_timeout: float | None = None,
        timeout: float | None = None,
        **kwargs: Any,
    ) -> None: ...
    def close_all(self) -> None: ...
    def _is_closed(self, conn: Any) -> bool: ...
    def _close(self, conn: Any, close_conn: bool = False) -> None: ...

class PooledPostgresqlDatabase(PooledDatabase, PostgresqlDatabase): ...
class PooledSqliteDatabase(PooledDatabase, SqliteDatabase): ...
