"""Numbered schema migrations: the only way the schema changes.

Each migration runs once, in order, inside one transaction with its record in
``schema_migration``. Add a new function to ``MIGRATIONS``; never edit one
that has shipped.
"""

from __future__ import annotations

from collections.abc import Callable

from peewee import IntegerField, Model

from scorekeeper.db import database, is_sqlite, write_transaction
from scorekeeper.models import INITIAL_MODELS, BaseModel, DeckProfile, SessionDeck, utc_now


class SchemaMigration(BaseModel):
    number = IntegerField(primary_key=True)
    applied_at = IntegerField()

    class Meta:
        table_name = "schema_migration"


def create_initial_tables() -> None:
    models: tuple[type[Model], ...] = INITIAL_MODELS
    database.create_tables(models, safe=False)


def create_deck_profiles() -> None:
    database.create_tables([DeckProfile, SessionDeck], safe=False)


MIGRATIONS: tuple[Callable[[], None], ...] = (create_initial_tables, create_deck_profiles)

# Any constant works: it only has to be the same for every app process.
_POSTGRES_LOCK_ID = 7_260_001


def migrate() -> list[int]:
    """Apply the migrations not yet applied; returns their numbers."""
    applied: list[int] = []
    with write_transaction():
        if not is_sqlite():
            # Two app processes starting at once must not both migrate.
            database.execute_sql("SELECT pg_advisory_xact_lock(%s)", (_POSTGRES_LOCK_ID,))
        database.create_tables([SchemaMigration], safe=True)
        done = {row.number for row in SchemaMigration.select(SchemaMigration.number)}
        for number, migration in enumerate(MIGRATIONS, start=1):
            if number in done:
                continue
            migration()
            SchemaMigration.create(number=number, applied_at=int(utc_now().timestamp()))
            applied.append(number)
    return applied
