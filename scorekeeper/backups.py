"""Backups of the SQLite database: ``flask backup FILE`` and ``flask restore FILE``.

A backup is taken with SQLite's online backup API while the app serves: it reads
the database in one read transaction, which in WAL mode holds no writer up, so
the copy is the database as one commit left it. It is written as a single file
(no ``-wal`` beside it) under a temporary name, then put in place at once.

A restore checks the file first (a SQLite database, undamaged, a Scorekeeper one
of a migration this version knows), refuses while anything has the database
open, then replaces it at once and applies the migrations the backup is missing.
Every refusal changes nothing. PostgreSQL has its own tools (pg_dump and
pg_restore, README's Deployment): these commands say so.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

import click
from flask import Flask

from scorekeeper.db import database, database_url
from scorekeeper.games.base import plural
from scorekeeper.migrations import MIGRATIONS, migrate

SQLITE_HEADER = b"SQLite format 3\x00"

USE_PG_DUMP = (
    "This app's database is PostgreSQL: back it up with PostgreSQL's own tool, "
    'pg_dump --format=custom --file=scorekeeper.dump "$DATABASE_URL" '
    "(the README's Deployment says more)."
)
USE_PG_RESTORE = (
    "This app's database is PostgreSQL: stop the app servers, then restore a pg_dump backup "
    "with PostgreSQL's own tool, pg_restore --clean --if-exists --no-owner "
    '--single-transaction --dbname="$DATABASE_URL" scorekeeper.dump '
    "(the README's Deployment says more)."
)


class Refused(click.ClickException):
    """A backup or restore that cannot be done, with the sentence that says why; nothing
    was changed. Click shows it as ``Error: …`` and exits with status 1."""


@dataclass(frozen=True)
class Contents:
    """What a Scorekeeper database holds: its sessions and the newest migration applied."""

    sessions: int
    migration: int


def sqlite_file(app: Flask) -> Path | None:
    """The app's SQLite file, or None when its database is PostgreSQL."""
    url = database_url(app)
    return Path(url.removeprefix("sqlite:///")) if urlparse(url).scheme == "sqlite" else None


def contents(connection: sqlite3.Connection) -> Contents:
    sessions = connection.execute("SELECT COUNT(*) FROM game_session").fetchone()[0]
    migration = connection.execute("SELECT MAX(number) FROM schema_migration").fetchone()[0]
    return Contents(int(sessions), int(migration))


def synced(path: Path) -> None:
    """Flush ``path`` (a file or a folder's entries) to the disk."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def put_in_place(draft: Path, target: Path) -> None:
    """Replace ``target`` with the complete ``draft`` at once: whoever opens ``target``
    finds either the old file or the new one, never half of one, even after a crash."""
    synced(draft)
    os.replace(draft, target)
    if os.name == "posix":  # Windows opens no folder to flush it
        synced(target.parent)


def draft_beside(target: Path) -> Path:
    """A temporary name in ``target``'s folder (``os.replace`` stays within one disk)."""
    return target.with_name(f".{target.name}.{os.getpid()}.draft")


def back_up(live: Path, target: Path) -> Contents:
    """Copy the database at ``live`` to ``target``, safely while the app writes to it."""
    if not target.parent.is_dir():
        raise Refused(f"{target.parent} is no folder: make it first, or back up elsewhere.")
    if not os.access(target.parent, os.W_OK):
        raise Refused(f"{target.parent} may not be written to: back up to a folder you own.")
    if target.exists() and target.samefile(live):
        raise Refused(f"{target} is the database itself: back it up to another file.")
    draft = draft_beside(target)
    try:
        with (
            closing(sqlite3.connect(live, timeout=5)) as source,
            closing(sqlite3.connect(draft)) as copy,
        ):
            # Every page in one step: one read transaction, so one consistent moment.
            source.backup(copy)
            # A single file to keep or send on: no -wal beside it.
            copy.execute("PRAGMA journal_mode=DELETE")
            copied = contents(copy)
        put_in_place(draft, target)
    finally:
        draft.unlink(missing_ok=True)
    return copied


def checked_backup(file: Path, draft: Path) -> Contents:
    """Copy ``file`` to ``draft`` and check the copy is a Scorekeeper database this version
    can take (``file`` itself is only read). Raises ``Refused`` saying what it is instead."""
    with file.open("rb") as opened:
        header = opened.read(len(SQLITE_HEADER))
    if not header:
        raise Refused(f"{file} is empty, so not a Scorekeeper backup.")
    if header != SQLITE_HEADER:
        raise Refused(f"{file} is not a SQLite database, so not a Scorekeeper backup.")
    shutil.copyfile(file, draft)
    # A database copied while in use may keep its newest commits in its -wal: opening the
    # copy with it applies them.
    wal = file.with_name(file.name + "-wal")
    if wal.exists():
        shutil.copyfile(wal, draft.with_name(draft.name + "-wal"))
    try:
        with closing(sqlite3.connect(draft)) as copy:
            damage = copy.execute("PRAGMA quick_check").fetchone()[0]
            if damage != "ok":
                raise Refused(f"{file} is damaged (SQLite's check says: {damage}).")
            tables = {row[0] for row in copy.execute("SELECT name FROM sqlite_master")}
            missing = sorted({"game_session", "schema_migration"} - tables)
            if missing:
                named = " and ".join(missing) + (" tables" if len(missing) > 1 else " table")
                raise Refused(
                    f"{file} is a SQLite database but not a Scorekeeper one: it has no {named}."
                )
            applied = sorted(row[0] for row in copy.execute("SELECT number FROM schema_migration"))
            known = len(MIGRATIONS)
            if applied and applied[-1] > known:
                raise Refused(
                    f"{file} comes from a newer Scorekeeper: its database is at migration "
                    f"{applied[-1]} and this version knows migrations 1 to {known}. Upgrade "
                    "Scorekeeper, then restore it."
                )
            if not applied or applied != list(range(1, len(applied) + 1)):
                recorded = f"the migrations {applied}" if applied else "no migration"
                raise Refused(
                    f"{file} is not a Scorekeeper backup this version knows: it records "
                    f"{recorded}, where a Scorekeeper database has 1 to at most {known}."
                )
            # One file again (the copy's -wal, if any, is applied and removed).
            copy.execute("PRAGMA journal_mode=DELETE")
            return contents(copy)
    except sqlite3.DatabaseError as unreadable:
        raise Refused(f"{file} cannot be read as a SQLite database ({unreadable}).") from None


def claim_unused(live: Path) -> None:
    """Refuse unless nothing has the database open; leave it as one file (no -wal).

    Leaving WAL mode needs the database to itself: it fails while any connection is open,
    as a running server's pool keeps its connections open even when idle.
    """
    try:
        with closing(sqlite3.connect(live, timeout=1)) as only:
            mode = only.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    except sqlite3.OperationalError:
        mode = None
    if mode != "delete":
        raise Refused(
            f"The database at {live} is in use: stop the server (and any other flask "
            "command using it), then restore again. Nothing was changed."
        )


def restore(
    live: Path, file: Path, confirm: Callable[[Contents, Contents], None]
) -> tuple[Contents, list[int]]:
    """Replace the database at ``live`` with the backup ``file``, once ``confirm`` (given
    what each holds) returns, then migrate it; returns what the backup held and the
    migrations applied to it."""
    if file.samefile(live):
        raise Refused(f"{file} is the database itself: restore a backup of it instead.")
    draft = draft_beside(live)
    try:
        restored = checked_backup(file, draft)
        with closing(sqlite3.connect(live, timeout=5)) as current:
            confirm(contents(current), restored)
        claim_unused(live)
        put_in_place(draft, live)
    finally:
        for leftover in (draft, draft.with_name(draft.name + "-wal")):
            leftover.unlink(missing_ok=True)
    # The pool opens the restored file, turns it back to WAL and brings its schema up.
    with database.connection_context():
        applied = migrate()
    return restored, applied


def init_app(app: Flask) -> None:
    """Add the ``backup`` and ``restore`` commands."""

    @app.cli.command("backup")
    @click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
    def backup_command(file: Path) -> None:
        """Copy the SQLite database to FILE (replacing it, if it exists), safely while
        the app serves."""
        live = sqlite_file(app)
        if live is None:
            raise Refused(USE_PG_DUMP)
        copied = back_up(live, file)
        click.echo(
            f"Backed up {plural(copied.sessions, 'session')} (migration {copied.migration}) "
            f"to {file}."
        )

    @app.cli.command("restore")
    @click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
    @click.option("--yes", is_flag=True, help="Replace the database without asking first.")
    def restore_command(file: Path, yes: bool) -> None:
        """Replace the SQLite database with the backup FILE, then bring its schema up to
        date. Stop the server first."""
        live = sqlite_file(app)
        if live is None:
            raise Refused(USE_PG_RESTORE)

        def confirm(current: Contents, restored: Contents) -> None:
            if not yes:
                click.confirm(
                    f"Replace the {plural(current.sessions, 'session')} in {live} with the "
                    f"{plural(restored.sessions, 'session')} of {file}?",
                    abort=True,
                )

        restored, applied = restore(live, file, confirm)
        migrated = f"; applied migrations {applied}" if applied else ""
        click.echo(
            f"Restored {plural(restored.sessions, 'session')} from {file} (migration "
            f"{restored.migration}) into {live}{migrated}. The server may start again."
        )
