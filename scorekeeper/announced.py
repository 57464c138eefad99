"""PostgreSQL only: each session's version as its writes announce it, held in the worker.

A trigger (migration 12) sends ``NOTIFY session_version, '<id> <version>'`` with every
change of a session's version; PostgreSQL delivers it, once the write commits, to every
connection listening on the channel. One thread per worker process listens, so the
refresh check, asked every 1.5 s by every open page, answers an unchanged session from
memory instead of a round trip to the database. A version a request read from the
database is kept too, so a session is known from its first check on.

A plain API append, one statement (``store._appended_at_once``), also announces the
event it logged: ``'<id> <version> <seq> <action>'``. A worker whose view of the session
is a few versions behind, each of them such an append, catches up from what it heard
instead of reading the new events from the database; any version it did not hear so
(another kind of write, or an announcement still on its way) makes it read them.

Nothing is known until the listener is connected, listening, and has heard its own
announcement come back (through a pooler in transaction mode it never would: then the
worker reads every version, and tries again a minute later), and all is forgotten when
its connection is lost: a write announced meanwhile would be missed, and so is a
version read or written before the listener is back. A worker knows its own writes
once they commit, and takes in what has reached its listener's
socket before each answer, whatever its thread is doing; what is left is the time
PostgreSQL takes to pass an announcement on, a fraction of a millisecond, during which
another worker's check may still answer the version before. Pages and the API read
the database as before.
"""

from __future__ import annotations

import logging
import os
import secrets
import select
import threading
import time
from collections import OrderedDict

import psycopg2
import psycopg2.extensions
from flask import Flask

from scorekeeper.db import database, database_url, is_sqlite

# The channel migration 12's trigger announces on.
CHANNEL = "session_version"
# How the listeners' connections show in pg_stat_activity.
APPLICATION_NAME = "scorekeeper announced versions"
# How long the listener waits for news before making sure its connection still answers.
QUIET_SECONDS = 30.0
# How often a stopped watch's thread notices, and how long a lost connection waits to retry.
STOP_CHECK_SECONDS = 0.5
RETRY_SECONDS = 1.0
# How long the listener lets announcements gather before it takes them in.
GATHER_SECONDS = 0.02
# How many of a session's latest appends, announced with their event, are kept.
APPENDS_KEPT = 16
# How long a new listener waits to hear its own announcement, and how long one that did
# not (a pooler that does not pass LISTEN on) waits before it tries again.
PROBE_SECONDS = 2.0
UNHEARD_RETRY_SECONDS = 60.0

log = logging.getLogger(__name__)

# The app's watch on PostgreSQL; None on SQLite.
current: AnnouncedVersions | None = None


def init_app(app: Flask) -> None:
    """Watch the announcements of the app's database, once ``db.init_app`` has opened it,
    if it is PostgreSQL (one app per process)."""
    global current
    if current is not None:
        current.stop()
    current = None if is_sqlite() else AnnouncedVersions(database_url(app))


# What a session's deletion announces in place of a version (``announce_removal``): no
# version is kept for it since its row is gone, and a check reads the database (a 404).
REMOVED = "removed"


def announce_removal(session_id: str) -> None:
    """Announce, when the transaction deleting a session commits, that its version is
    known no more: a worker that heard it would otherwise answer its refresh check from
    memory. SQLite announces nothing."""
    if not is_sqlite():
        database.execute_sql("SELECT pg_notify(%s, %s)", (CHANNEL, f"{session_id} {REMOVED}"))


# PostgreSQL's limit on a notification's payload, in bytes (it must be shorter).
PAYLOAD_LIMIT = 8000


def appended_payload(session_id: str, version: int, seq: int, action: str) -> str | None:
    """What a one-statement append announces with its event (its action as stored), or
    None if that would not fit in a notification: then it is not announced so."""
    payload = f"{session_id} {version} {seq} {action}"
    return payload if len(payload.encode()) < PAYLOAD_LIMIT else None


class AnnouncedVersions:
    """The versions the sessions' writes announced, as far as this process heard them."""

    def __init__(self, url: str, size: int = 65_536) -> None:
        self.url = url
        self.connect = psycopg2.connect  # how the listener connects (a test's pooler)
        self.size = size
        self._known: OrderedDict[str, int] = OrderedDict()
        # The events one-statement appends announced, by session and the version each made.
        self._appended: OrderedDict[str, dict[int, tuple[int, str]]] = OrderedDict()
        self._lock = threading.Lock()
        # Which connection of the listener a version read from the database belongs to:
        # a read begun before the listener (re)connected may miss a write announced to
        # no one, and is not kept.
        self._generation = 0
        self._listening = False
        self._connection: psycopg2.extensions.connection | None = None
        self._stopped = threading.Event()
        self._process: int | None = None  # the process whose thread listens

    def version(self, session_id: str) -> int | None:
        """The session's version as announced, or None: then read the database."""
        self._start_in_this_process()
        with self._lock:
            return self._known.get(session_id) if self._listening_now() else None

    def appended(self, session_id: str, after: int, upto: int) -> list[tuple[int, str]] | None:
        """The seq and action text of the event each version after ``after`` up to ``upto``
        appended, as their one-statement appends announced them; None unless every one
        of those versions was such an append, heard: then read the database."""
        self._start_in_this_process()
        versions = range(after + 1, upto + 1)
        with self._lock:
            heard = self._appended.get(session_id, {}) if self._listening_now() else {}
            if not all(version in heard for version in versions):
                return None
            return [heard[version] for version in versions]

    def _listening_now(self) -> bool:
        """Whether what was heard holds, once what has reached the socket is taken in
        (holding the lock): it counts at once, as the listener's thread may be waiting
        meanwhile. False if not listening, or the connection is found lost."""
        if not self._listening:
            return False
        try:
            self._take_in()
        except psycopg2.Error:
            # Known no more until the listener, whose connection this closes, listens again.
            self._deaf()
            assert self._connection is not None
            self._connection.close()
            return False
        return True

    def generation(self) -> int | None:
        """Taken before reading a version from the database, to give ``learn``."""
        with self._lock:
            return self._generation if self._listening else None

    def learn(self, session_id: str, version: int, generation: int | None) -> None:
        """Keep a version read from the database, or written by this process (known without
        waiting for its announcement, which says the same), if the listener heard every
        write since: it has listened on one connection since ``generation`` was taken,
        before the read or the write's commit."""
        with self._lock:
            if generation is not None and generation == self._generation and self._listening:
                self._keep(session_id, version)

    def stop(self) -> None:
        """End the listener (an app replaced by another in the same process: a test's)."""
        self._stopped.set()
        with self._lock:
            self._deaf()

    def _deaf(self) -> None:
        """Listen no more, and forget all that was heard (holding the lock): a write may be
        announced while no one listens, so nothing heard before can be trusted after."""
        self._listening = False
        self._known.clear()
        self._appended.clear()

    def _keep(self, session_id: str, version: int) -> None:
        # Versions only rise: an announcement and a read may arrive in either order.
        if self._known.get(session_id, -1) < version:
            self._known[session_id] = version
        self._known.move_to_end(session_id)
        if len(self._known) > self.size:
            self._known.popitem(last=False)

    def _start_in_this_process(self) -> None:
        # A forked worker has no thread of its parent's: each process starts its own.
        if self._process == os.getpid() or self._stopped.is_set():
            return
        with self._lock:
            if self._process == os.getpid():
                return
            self._process = os.getpid()
            self._deaf()
        threading.Thread(target=self._listen, name="announced-versions", daemon=True).start()

    def _listen(self) -> None:
        while not self._stopped.is_set():
            connection = None
            try:
                connection = self.connect(self.url, application_name=APPLICATION_NAME)
                connection.autocommit = True
                connection.cursor().execute(f"LISTEN {CHANNEL}")
                if not self._hears_itself(connection):
                    log.warning(
                        "This connection does not hear its own announcement (a pooler in "
                        "transaction mode?): session versions are read from the database."
                    )
                    connection.close()
                    self._stopped.wait(UNHEARD_RETRY_SECONDS)
                    continue
                with self._lock:  # nothing is known while deaf: it starts afresh
                    self._generation += 1
                    self._connection = connection
                    self._listening = True
                self._hear(connection)
            except (psycopg2.Error, OSError, ValueError) as lost:
                log.warning("Not hearing session versions (%s); reading them instead.", lost)
            finally:
                with self._lock:
                    self._deaf()
                    self._connection = None
                if connection is not None:
                    connection.close()
            self._stopped.wait(RETRY_SECONDS)

    def _hears_itself(self, connection: psycopg2.extensions.connection) -> bool:
        """Whether an announcement sent on the connection comes back to it: a pooler in
        transaction mode runs LISTEN on one server connection and hands the next
        statement to another, and what is announced then never arrives."""
        probe = f"probe {secrets.token_hex(8)}"
        connection.cursor().execute("SELECT pg_notify(%s, %s)", (CHANNEL, probe))
        deadline = time.monotonic() + PROBE_SECONDS
        while (left := deadline - time.monotonic()) > 0:
            connection.poll()
            # What else arrives meanwhile is let go: nothing is known until it listens.
            if any(notice.payload == probe for notice in connection.notifies):
                connection.notifies.clear()
                return True
            connection.notifies.clear()
            select.select([connection], [], [], left)
        return False

    def _hear(self, connection: psycopg2.extensions.connection) -> None:
        quiet = 0.0
        while not self._stopped.is_set():
            readable, _, _ = select.select([connection], [], [], STOP_CHECK_SECONDS)
            quiet = 0.0 if readable else quiet + STOP_CHECK_SECONDS
            with self._lock:
                if quiet >= QUIET_SECONDS:
                    # A connection cut without a word would leave the versions known stale.
                    connection.cursor().execute("SELECT 1")
                    quiet = 0.0
                self._take_in()
            if readable:
                # Every answer takes in what has arrived first: this thread only keeps the
                # socket drained, in batches, rather than waking for each write: every
                # append would wake every worker's listener.
                self._stopped.wait(GATHER_SECONDS)

    def _take_in(self) -> None:
        """Keep every announcement that has reached the connection (holding the lock)."""
        assert self._connection is not None
        self._connection.poll()
        for notice in self._connection.notifies:
            session_id, _, announced = notice.payload.partition(" ")
            if announced == REMOVED:
                self._known.pop(session_id, None)
                self._appended.pop(session_id, None)
                continue
            version, _, event = announced.partition(" ")
            seq, _, action = event.partition(" ")
            # Another listener's probe, or anything that is no version, is none of ours.
            if not (version.isascii() and version.isdigit()):
                continue
            self._keep(session_id, int(version))
            if seq.isascii() and seq.isdigit() and action:
                self._keep_appended(session_id, int(version), int(seq), action)
        self._connection.notifies.clear()

    def _keep_appended(self, session_id: str, version: int, seq: int, action: str) -> None:
        heard = self._appended.setdefault(session_id, {})
        heard[version] = (seq, action)
        # A view further behind reads the database. Versions are announced in the order
        # they commit, so the first kept is the oldest.
        if len(heard) > APPENDS_KEPT:
            del heard[next(iter(heard))]
        self._appended.move_to_end(session_id)
        if len(self._appended) > self.size // APPENDS_KEPT:
            self._appended.popitem(last=False)
