"""Fixtures: the app on a fresh database, SQLite always, PostgreSQL when
TEST_DATABASE_URL names one (CI sets it), and a scorer's client.

Building an app is slow beside a test (Werkzeug compiles its URL rules, the migrations
make the schema). So each process (xdist worker) builds one app per backend and every
test that takes ``app`` (or ``client``) shares it. Before each such test the shared app
is as a new one would be: its configuration as made, on a database of its own that is
empty at the latest schema (SQLite: a copy of a file migrated once; PostgreSQL: its
tables emptied), the process's database and announced versions pointed back at it (a
test's own ``make_app`` points them at its app).
"""

from __future__ import annotations

import atexit
import contextlib
import copy
import functools
import json
import logging
import os
import random
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import psycopg2
import pytest
import stats_reference
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import settings
from openapi_check import CheckedClient
from page_player import WALKS, submissions
from psycopg2 import sql

from scorekeeper import (
    PROJECT_ROOT,
    announced,
    create_app,
    devices,
    group_export,
    group_figures,
    group_totals,
    read_model,
    session_log,
    session_views,
    snapshots,
    store,
)
from scorekeeper.announced import AnnouncedVersions
from scorekeeper.db import Statement, database, open_database
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.migrations import MIGRATIONS, migrate

# The property tests prove rules, not speed (bench/ measures that): on a shared, busy
# machine a slow example is no failure.
settings.register_profile("scorekeeper", deadline=None)
settings.load_profile("scorekeeper")


def worker_database(url: str | None) -> str | None:
    """Under pytest-xdist, each worker's own database beside TEST_DATABASE_URL's
    (``<name>_gw0``, ...), made if missing: workers never drop each other's tables."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not worker:
        return url
    parts = urlsplit(url)
    name = f"{parts.path.lstrip('/') or 'postgres'}_{worker}"
    # The server's own database answers even before the given one exists.
    for admin_path in ("/postgres", parts.path):
        try:
            admin = psycopg2.connect(urlunsplit(parts._replace(path=admin_path)))
        except psycopg2.OperationalError:
            continue
        try:
            admin.autocommit = True
            with admin.cursor() as cursor:
                cursor.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
                if cursor.fetchone() is None:
                    cursor.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        finally:
            admin.close()
        break
    return urlunsplit(parts._replace(path=f"/{name}"))


POSTGRES_URL = worker_database(os.environ.get("TEST_DATABASE_URL"))
if POSTGRES_URL:
    # Servers a test starts, and tests that read the variable, use the worker's database.
    os.environ["TEST_DATABASE_URL"] = POSTGRES_URL
BACKENDS = ["sqlite"] + (["postgresql"] if POSTGRES_URL else [])
TABLES = (
    "device_session",
    "rating",
    "device_group",
    "device_deck",
    "device",
    "session_deck",
    "group_player_day",
    "group_day",
    "group_player_game",
    "group_game",
    "group_player",
    "player_group",
    "deck_profile",
    "request_key",
    "form_key",
    "export_text",
    "snapshot",
    "correction",
    "event",
    "seat",
    "game_session",
    "schema_migration",
)


def empty_postgres(url: str) -> None:
    database = open_database(url)
    with database.connection_context():
        database.execute_sql(f"DROP TABLE IF EXISTS {', '.join(TABLES)} CASCADE")
    database.close_all()  # the pool's connection too: the app opens its own


def make_app(database_url: str, **config: Any) -> Flask:
    app = create_app(
        {
            "TESTING": True,
            "DATABASE_URL": database_url,
            "SECRET_KEY": "test-secret",
            "WTF_CSRF_ENABLED": False,
            **config,
        }
    )
    # Every answer of the API the suite receives is checked against the served document.
    app.test_client_class = CheckedClient
    return app


@dataclass
class SharedApp:
    """The app the tests of one backend share in this process, and what it was made with."""

    app: Flask
    config: dict[str, Any]
    watch: AnnouncedVersions | None  # its announced versions (PostgreSQL)


SHARED_APPS: dict[str, SharedApp] = {}


def shared_app(backend: str, tmp_path_factory: pytest.TempPathFactory) -> SharedApp:
    if backend not in SHARED_APPS:
        if backend == "postgresql":
            assert POSTGRES_URL
            empty_postgres(POSTGRES_URL)
            url = POSTGRES_URL
        else:
            # The file the app migrates is the one each test's database is copied from.
            url = f"sqlite:///{tmp_path_factory.mktemp('shared-app')}/migrated.sqlite3"
        made = make_app(url)
        SHARED_APPS[backend] = SharedApp(made, copy.deepcopy(dict(made.config)), announced.current)
    return SHARED_APPS[backend]


class MigratedPostgres:
    """The tables and sequences the migrations make on PostgreSQL, and how to empty them
    as a new database would be: rows deleted, sequences restarted (on tables this small,
    quicker than TRUNCATE, or than dropping them and migrating again)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.connection = self.connect()
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            self.tables = {name for (name,) in cursor}
            cursor.execute(
                "SELECT sequence_name FROM information_schema.sequences "
                "WHERE sequence_schema = 'public'"
            )
            self.sequences = sorted(name for (name,) in cursor)
        emptied = self.tables - {"schema_migration"}
        self.emptying = ";".join(
            [
                "BEGIN",
                # Sessions first: what points at them goes with them (ON DELETE CASCADE), and
                # no row is left pointing at a group or a player to be set NULL.
                *(f"DELETE FROM {table}" for table in reversed(TABLES) if table in emptied),
                *(f"ALTER SEQUENCE {sequence} RESTART" for sequence in self.sequences),
                "COMMIT",
            ]
        )

    def connect(self) -> Any:
        connection = psycopg2.connect(self.url)
        connection.autocommit = True
        return connection

    def empty(self) -> None:
        """Its tables emptied if its schema is the latest; else (a test of the migrations
        left an older one) dropped and migrated again."""
        try:
            latest = self.empty_if_latest()
        except psycopg2.OperationalError:  # a test ended the connection: once more
            self.connection = self.connect()
            latest = self.empty_if_latest()
        if not latest:
            empty_postgres(self.url)
            database.initialize(open_database(self.url))
            with database.connection_context():
                migrate()
            database.close_all()

    def empty_if_latest(self) -> bool:
        with self.connection.cursor() as cursor:
            cursor.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
            if {name for (name,) in cursor} != self.tables:
                return False
            cursor.execute("SELECT count(*) FROM schema_migration")
            if cursor.fetchone() != (len(MIGRATIONS),):
                return False
            cursor.execute(self.emptying)
            return True


MIGRATED_POSTGRES: list[MigratedPostgres] = []  # made once the shared app has migrated


# Where the system keeps a folder in memory: every write of a test's requests commits to its
# SQLite file, and on a disk busy with other work each commit's I/O waited behind it.
MEMORY_FOLDER = Path("/dev/shm")


@functools.cache
def sqlite_folder() -> Path | None:
    """This process's folder in memory for the tests' SQLite files, removed when it exits;
    None where the system has none (the tests' own folders hold them then)."""
    if not (MEMORY_FOLDER.is_dir() and os.access(MEMORY_FOLDER, os.W_OK)):
        return None
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-tests-", dir=MEMORY_FOLDER))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@pytest.fixture(params=BACKENDS)
def database_url(
    request: pytest.FixtureRequest, tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    # A test that takes an app (the shared one or a module's own) starts where that app's
    # migrations would leave a new database: at the latest schema, empty. Others get
    # nothing at all (a file not made yet, no tables), to make what they test.
    takes_an_app = "app" in request.fixturenames
    if request.param == "postgresql":
        assert POSTGRES_URL
        if not takes_an_app:
            empty_postgres(POSTGRES_URL)
        else:
            if not MIGRATED_POSTGRES:
                shared_app("postgresql", tmp_path_factory)
                MIGRATED_POSTGRES.append(MigratedPostgres(POSTGRES_URL))
            MIGRATED_POSTGRES[0].empty()
        yield POSTGRES_URL
        return
    in_memory = sqlite_folder()
    folder = tmp_path if in_memory is None else Path(tempfile.mkdtemp(dir=in_memory))
    path = folder / "test.sqlite3"
    if takes_an_app:
        migrated = str(shared_app("sqlite", tmp_path_factory).config["DATABASE_URL"])
        shutil.copyfile(migrated.removeprefix("sqlite:///"), path)
    yield f"sqlite:///{path}"
    if in_memory is not None:
        # Its files go with the test (memory is no place to keep thousands), once the
        # connections the test left open to them are closed.
        if database.obj is not None:
            database.obj.close_all()
        shutil.rmtree(folder, ignore_errors=True)


# For a test of pages or rules that uses the store only as the tests beside it do, on both
# backends: which one holds its session changes nothing it checks, and a PostgreSQL copy
# would only double its time.
SQLITE_ONLY = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


@pytest.fixture
def app(database_url: str) -> Flask:
    backend = "postgresql" if database_url == POSTGRES_URL else "sqlite"
    shared = SHARED_APPS[backend]
    shared.app.config.clear()
    shared.app.config.update(copy.deepcopy(shared.config), DATABASE_URL=database_url)
    # What db.init_app and announced.init_app do for a new app, on the database prepared:
    # a test's own app, or the other backend's, pointed them elsewhere, and stopped the
    # watch it replaced (one listener per process, as tests of the listeners count).
    database.obj.close_all()
    database.initialize(open_database(database_url))
    if announced.current is not shared.watch:
        if announced.current is not None:
            announced.current.stop()
        shared.watch = AnnouncedVersions(database_url) if backend == "postgresql" else None
        announced.current = shared.watch
    return shared.app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def applied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Every action Yardkle's engine applies, in order."""
    calls: list[Any] = []
    original = yardkle.GAME.apply

    def counted(state: Any, action: Any) -> Any:
        calls.append(action)
        return original(state, action)

    monkeypatch.setattr(yardkle.GAME, "apply", counted)
    yield calls


class Table:
    """A scorer's phone: posts forms with the session's current version and a fresh key."""

    def __init__(self, client: FlaskClient, session_id: str) -> None:
        self.client = client
        self.id = session_id

    @property
    def url(self) -> str:
        return f"/s/{self.id}"

    def state(self) -> dict[str, Any]:
        response = self.client.get(f"/api/v1/sessions/{self.id}")
        assert response.status_code == 200
        return response.get_json()

    def records(self) -> dict[str, list[Any]]:
        return past_records(self.client, self.id)

    def post(self, path: str, data: dict[str, Any], version: int | None = None) -> Any:
        form = {
            "version": self.state()["version"] if version is None else version,
            "form_key": secrets.token_urlsafe(8),
            **data,
        }
        return self.client.post(self.url + path, data=form)

    def act(self, **data: Any) -> Any:
        return self.post("/action", data)

    def roll(self, *dice: int) -> Any:
        fields = {f"die{index}": str(die) for index, die in enumerate(dice, start=1)}
        return self.act(type="roll", dice_count=str(len(dice)), **fields)

    def keep(self, *dice: int, bank: bool = False) -> Any:
        return self.act(type="keep", keep=[str(d) for d in dice], then="bank" if bank else "roll")

    def page(self) -> str:
        return self.client.get(self.url).get_data(as_text=True)


def page_error(html: str) -> str:
    """The refusal sentence a page shows."""
    match = re.search(r'id="error">(.*?)</div>', html, re.S)
    assert match, "the page shows no error"
    return match.group(1).strip()


def expected_actions(table: Table) -> dict[str, dict[str, Any]]:
    """What the engine accepts now, by action type, as the API's ``expected`` lists it."""
    return {action["type"]: action for action in table.state()["expected"]["actions"]}


# --- What a page's forms let a scorer send ----------------------------------------------

# Hidden fields every action form carries, whatever it records.
FORM_PLUMBING = {"csrf_token", "version", "form_key", "type"}


@dataclass
class Form:
    """One form of a page, or every form that records one action type."""

    method: str = "get"
    kind: str | None = None  # the action type it records; None for undo, redo, a chooser
    buttons: list[tuple[str, str, bool]] = field(default_factory=list)  # name, value, enabled
    boxes: dict[str, list[str]] = field(default_factory=dict)  # checkbox name: values
    radios: dict[str, list[tuple[str, bool]]] = field(default_factory=dict)  # value, enabled
    hidden: list[tuple[str, str]] = field(default_factory=list)  # name, value; no plumbing
    selects: list[str] = field(default_factory=list)  # their names

    def offered(self, name: str) -> list[str]:
        """The values of the enabled submit buttons called ``name``."""
        return [value for called, value, enabled in self.buttons if called == name and enabled]

    def greyed(self, name: str) -> list[str]:
        """The values of the disabled submit buttons called ``name``."""
        return [value for called, value, enabled in self.buttons if called == name and not enabled]

    def fixed(self, name: str) -> list[str]:
        """The values of the hidden fields called ``name``."""
        return [value for called, value in self.hidden if called == name]

    def merge(self, other: Form) -> None:
        self.buttons += other.buttons
        self.hidden += other.hidden
        self.selects += other.selects
        for name, values in other.boxes.items():
            self.boxes.setdefault(name, []).extend(values)
        for name, choices in other.radios.items():
            self.radios.setdefault(name, []).extend(choices)


class PageForms(HTMLParser):
    """Every form of a page, in order, with the fields and buttons it sends."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self.inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "form":
            self.forms.append(Form(found.get("method", "get").lower()))
            self.inside = True
            return
        if not self.inside:
            return
        form = self.forms[-1]
        name, value = found.get("name", ""), found.get("value", "")
        enabled = "disabled" not in found
        kind = found.get("type", "text")
        if tag == "button":
            form.buttons.append((name, value, enabled))
        elif tag == "select":
            form.selects.append(name)
        elif tag != "input":
            return
        elif kind == "hidden" and name == "type":
            form.kind = value
        elif kind == "hidden" and name not in FORM_PLUMBING:
            form.hidden.append((name, value))
        elif kind == "checkbox":
            form.boxes.setdefault(name, []).append(value)
        elif kind == "radio":
            form.radios.setdefault(name, []).append((value, enabled))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False


def page_forms(html: str) -> list[Form]:
    parser = PageForms()
    parser.feed(html)
    return parser.forms


def page_offers(html: str) -> dict[str, Form]:
    """The page's forms that record an action, by the action type they send, in page order;
    the forms of one type (a revoke form for each flag, say) merged into one."""
    offers: dict[str, Form] = {}
    for form in page_forms(html):
        if form.kind is None:
            continue
        if form.kind in offers:
            offers[form.kind].merge(form)
        else:
            offers[form.kind] = form
    return offers


def start(client: FlaskClient, slug: str, names: list[str], **fields: Any) -> Table:
    """A session of game ``slug`` made on the new-session page; ``fields`` are the page's
    other fields as posted (``option_<name>``, ``deck``, ...)."""
    data: dict[str, Any] = {f"seats-{i}": name for i, name in enumerate(names)}
    data |= {"form_key": secrets.token_urlsafe(8), **fields}
    response = client.post(f"/new/{slug}", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return Table(client, response.location.rsplit("/", 1)[1])


def played_to_the_end(
    client: FlaskClient,
    game: str,
    read: Callable[[str], object] = lambda _html: None,
    rng: random.Random | None = None,
    tapped: Callable[[str, int], object] = lambda _id, _tap: None,
) -> str:
    """A session of ``game`` (one of page_player's WALKS) tapped through its pages to the
    end at random (``rng``, seeded by the game's name if none), each page's HTML given to
    ``read`` on the way, and the session's id and the tap's number to ``tapped`` after
    each tap; its id."""
    slug, seats, fields = WALKS[game]
    table = start(client, slug, seats, **fields)
    rng = rng or random.Random(game)
    # A page may redirect to a question of its own (a card's size): the walk follows it.
    url = table.url
    for tap in range(600):
        html = client.get(url).get_data(as_text=True)
        read(html)
        offered = submissions(html, rng)
        if not offered:
            return table.id
        by_type: dict[str, list[Any]] = {}
        for sub in offered:
            by_type.setdefault(dict(sub.fields).get("type", ""), []).append(sub)
        chosen = rng.choice(by_type[rng.choice(sorted(by_type))])
        answer = client.post(chosen.action, data=chosen.data())
        url = answer.location if answer.status_code == 303 else table.url
        tapped(table.id, tap)
    pytest.fail(f"{game} did not end within 600 taps")


@dataclass(frozen=True)
class Walk:
    """A walk of played_to_the_end (its choices seeded by the game's name), as recorded:
    the HTML of each page it read, in order, and the export of the session it finished."""

    pages: list[str]
    exported: bytes


# Each game's walk, once it has been tapped through in this run: the walk is the same
# every time (its choices are seeded by the game's name, read from the pages in order), so
# the tests that read a whole game share one walk. Kept in this process and in WALK_FOLDER,
# which the run's xdist workers share (two may walk a game at once: each writes the same).
_WALKED: dict[str, Walk] = {}
WALK_FOLDER: list[Path] = []


@pytest.fixture(autouse=True)
def no_view_kept_for_the_next_test() -> Iterator[None]:
    """Each test's sessions leave the worker's kept views with it: a 20,000-event view
    kept for the tests after it would have every collection of the garbage collector walk
    its millions of objects, in every later test of that worker."""
    yield
    session_views.forget()


@pytest.fixture(scope="session", autouse=True)
def walk_folder(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The folder the run's workers keep their walks in: beside each worker's own."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    WALK_FOLDER[:] = [shared / "walks"]


def walked_once(client: FlaskClient, game: str) -> tuple[Walk, str | None]:
    """The walk of ``game`` in this run, with the id of the session it left on this
    client's database when it was walked just now (None when it was walked before: a test
    that needs a session imports its export)."""
    if game in _WALKED:
        return _WALKED[game], None
    kept = WALK_FOLDER[0] / f"{game}.json" if WALK_FOLDER else None
    if kept is not None and kept.exists():
        recorded = json.loads(kept.read_text())
        _WALKED[game] = Walk(recorded["pages"], recorded["exported"].encode())
        return _WALKED[game], None
    pages: list[str] = []
    session_id = played_to_the_end(client, game, pages.append)
    exported = client.get(f"/s/{session_id}/export.json").get_data()
    _WALKED[game] = Walk(pages, exported)
    if kept is not None:
        kept.parent.mkdir(exist_ok=True)
        # Written whole under a name of its own, then renamed: a worker reads all or nothing.
        writing = kept.with_name(f"{game}.{os.getpid()}.writing")
        writing.write_text(json.dumps({"pages": pages, "exported": exported.decode()}))
        writing.replace(kept)
    return _WALKED[game], session_id


def finished_session(client: FlaskClient, game: str) -> str:
    """A session of ``game`` as played_to_the_end leaves it, for a test that reads only
    the finished game: walked through the pages once a run, then imported from that walk's
    export (the tests that read the pages on the way read the walk's, or walk their own)."""
    walk, session_id = walked_once(client, game)
    if session_id is not None:
        return session_id
    response = client.post(
        "/api/v1/sessions/import", data=walk.exported, content_type="application/json"
    )
    assert response.status_code == 201, response.get_data(as_text=True)
    return str(response.get_json()["id"])


def ok(response: Any) -> None:
    """Recorded: the post redirects back; otherwise the failure shows the page's refusal."""
    assert response.status_code == 303, page_error(response.get_data(as_text=True))


def refused(response: Any) -> str:
    """A post the page refused: nothing recorded (422), and the sentence it shows."""
    assert response.status_code == 422, response.status_code
    return unescape(page_error(response.get_data(as_text=True)))


def act(table: Table, **data: Any) -> None:
    """Records one action through the session page's form."""
    ok(table.act(**data))


def start_session(client: FlaskClient, names: list[str], **options: str) -> Table:
    """A Yardkle session with the sheet's entry threshold and winning score by default."""
    options = {"entry_threshold": "500", "winning_score": "10000", **options}
    fields = {f"option_{name}": value for name, value in options.items()}
    return start(client, "yardkle", names, **fields)


@pytest.fixture
def table(client: FlaskClient) -> Table:
    return start_session(client, ["Ann", "Bo", "Cy"])


# --- The JSON API ---------------------------------------------------------------

API = "/api/v1"


def past_records(client: FlaskClient, session_id: str) -> dict[str, list[Any]]:
    """Every record of a session's history (the state's history fields), in log order: the
    API's pages of rounds, the oldest first, joined."""
    url = f"{API}/sessions/{session_id}/rounds"
    first = client.get(url).get_json()
    joined: dict[str, list[Any]] = {name: [] for name in first["records"]}
    for page in range(first["pages"], 0, -1):
        answer = first if page == 1 else client.get(url, query_string={"page": page}).get_json()
        for name, records in answer["records"].items():
            joined[name].extend(records)
    for name, records in joined.items():
        assert len(records) == first["records_count"][name]
    return joined


class ApiSession:
    """A session created through the API, with its edit key."""

    def __init__(self, client: FlaskClient, created: dict[str, Any]) -> None:
        self.client = client
        self.created = created
        self.id: str = created["id"]
        self.key: str = created["edit_key"]

    @property
    def url(self) -> str:
        return f"{API}/sessions/{self.id}"

    def read(self) -> dict[str, Any]:
        response = self.client.get(self.url)
        assert response.status_code == 200
        return response.get_json()

    def records(self) -> dict[str, list[Any]]:
        return past_records(self.client, self.id)

    @property
    def version(self) -> int:
        return int(self.read()["version"])

    def post(
        self, path: str, body: Any, key: str | None = "own", headers: dict[str, str] | None = None
    ) -> Any:
        headers = dict(headers or {})
        if key == "own":
            headers["Authorization"] = f"Bearer {self.key}"
        elif key is not None:
            headers["Authorization"] = key
        return self.client.post(self.url + path, json=body, headers=headers)

    def act(self, action: dict[str, Any], version: int | None = None, **extra: Any) -> Any:
        body = {"version": self.version if version is None else version, "action": action}
        return self.post("/events", body | extra)

    def ok(self, action: dict[str, Any]) -> dict[str, Any]:
        response = self.act(action)
        assert response.status_code == 201, response.get_json()
        return response.get_json()


def api_session(client: FlaskClient, seats: list[str] | None = None, **options: Any) -> ApiSession:
    body: dict[str, Any] = {"game": "yardkle", "seats": seats or ["Ann", "Bo"]}
    if options:
        body["options"] = options
    response = client.post(f"{API}/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    return ApiSession(client, response.get_json())


def assert_error(response: Any, status: int, field: str | None) -> str:
    """The response is a JSON error with this status and field; returns its sentence."""
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert set(body) >= {"error", "field"}
    assert body["field"] == field, body
    assert isinstance(body["error"], str)
    assert len(body["error"]) > 10
    assert "Traceback" not in body["error"]
    return str(body["error"])


# The browser tests (tests/e2e) drive Debian's Chromium (Playwright's own download cannot
# work here): its headless shell, the same engine at about half the CPU a page (no window
# compositing), for every page; the full browser where the shell lacks an API (the Wake
# Lock).
CHROMIUM = "/usr/bin/chromium-headless-shell"
FULL_CHROMIUM = "/usr/bin/chromium"
# A name for 127.0.0.1 that Chromium does not count as this computer: pages served under
# it are no secure context, as on a phone that opens the laptop's Wi-Fi address.
WIFI_NAME = "scorer.test"


def chromium(playwright: Any, executable: str = CHROMIUM) -> Any:
    """Chromium as root in a container, making no calls out (the network is closed)."""
    return playwright.chromium.launch(
        executable_path=executable,
        args=[
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--no-first-run",
            f"--host-resolver-rules=MAP {WIFI_NAME} 127.0.0.1",
        ],
    )


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, one per xdist worker (a process may run only one)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as running:
        yield running


@pytest.fixture(scope="session")
def browser(playwright: Any) -> Iterator[Any]:
    """One Chromium for the whole run (of each xdist worker): starting one costs seconds.
    Each test opens its own context, so no cookie (no device, no deck) passes between
    tests."""
    opened = chromium(playwright)
    yield opened
    opened.close()


@pytest.fixture
def full_browser(playwright: Any) -> Iterator[Any]:
    """The full Chromium, for the one test of an API its headless shell lacks."""
    if not os.path.exists(FULL_CHROMIUM):
        pytest.skip(f"no Chromium at {FULL_CHROMIUM} (apt-get install chromium)")
    opened = chromium(playwright, FULL_CHROMIUM)
    yield opened
    opened.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_listening(port: int) -> None:
    """Until a server answers on ``port`` of 127.0.0.1; at most 30 s (a busy machine
    starts a server slowly)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"no server answered on port {port} within 30 s")


@contextlib.contextmanager
def live_server(folder: Path, *run_options: str) -> Iterator[int]:
    """`flask run` on a free port of 127.0.0.1 and a fresh database in ``folder``
    (``run_options`` such as ``--cert``); yields the port once it answers."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{folder}/live.sqlite3",
        "SCOREKEEPER_SECRET_KEY": "e2e",
    }
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "flask", "--app", "scorekeeper"),
            *("run", "--port", str(port), *run_options),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_until_listening(port)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The live app the browser tests share (one per xdist worker): a test's own context
    is a phone of its own, and sees only its own sessions, groups and decks."""
    with live_server(tmp_path_factory.mktemp("live")) as port:
        yield f"http://127.0.0.1:{port}"


# --- Statistics -------------------------------------------------------------------------


def finished_result(
    session: str,
    day: int,
    game: str,
    seats: dict[str, int],
    winners: set[str],
    *,
    lower_is_better: bool = False,
) -> stats_reference.Result:
    """A session of ``game`` that ended on 2026-11-<day> at 21:30 UTC: each seat's score
    by group player key, the player named after the key ("ann" plays as "Ann")."""
    keys = tuple(seats)
    return stats_reference.Result(
        session_id=session,
        game=game,
        game_title=game.title(),
        lower_is_better=lower_is_better,
        ended_at=datetime(2026, 11, day, 21, 30, tzinfo=UTC),
        players=keys,
        names=tuple(key.title() for key in keys),
        scores=tuple(seats.values()),
        winners=frozenset(keys.index(key) for key in winners),
    )


# --- The SQL a test's requests send -----------------------------------------------


class Statements(logging.Handler):
    """The SQL statements peewee sends, a prepared one's EXECUTE as the SQL it runs."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.sql: list[str] = []
        self.executed: list[str] = []  # the EXECUTEs among them, as sent

    def emit(self, record: logging.LogRecord) -> None:
        sql = record.msg[0] if isinstance(record.msg, tuple) else str(record.msg)
        if sql.startswith("EXECUTE "):
            self.executed.append(sql)
            sql = prepared_sql()[sql.removeprefix("EXECUTE ").partition("(")[0]]
        self.sql.append(sql)


def prepared_sql() -> dict[str, str]:
    """The SQL of each of the store's (and the devices', the statistics' and the lists')
    statements by its name as a prepared one."""
    made = [
        statement
        for module in (
            store,
            session_views,
            session_log,
            snapshots,
            group_figures,
            group_totals,
            read_model,
            group_export,
        )
        for value in vars(module).values()
        # A module's statements, alone or by key (one per step of the wins chart).
        for statement in (value.values() if isinstance(value, dict) else (value,))
        if isinstance(statement, Statement)
    ]
    statements = [*made, *session_views._COLUMN_READS.values(), *devices.STATEMENTS]
    return {s.prepared_name: s.sql for s in statements}


@pytest.fixture
def statements() -> Iterator[Statements]:
    handler, logger = Statements(), logging.getLogger("peewee")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield handler
    logger.removeHandler(handler)
    logger.setLevel(level)


# --- Servers started as people start them ------------------------------------------------


def wait_until_serving(error_log: Path) -> str:
    """The address gunicorn chose (it logs it), once a worker answers; at most 30 s (a
    busy machine loads the app slowly)."""
    deadline = time.monotonic() + 30
    url = None
    while time.monotonic() < deadline:
        if url is None and error_log.exists():
            listening = re.search(r"Listening at: (http://\S+)", error_log.read_text())
            url = listening.group(1) if listening else None
        if url is not None:
            try:
                with urllib.request.urlopen(url, timeout=1):
                    return url
            except urllib.error.HTTPError:
                # An error page is an answer: the test that asked says what was wrong.
                return url
            except OSError:
                pass
        time.sleep(0.1)
    log = error_log.read_text() if error_log.exists() else "no error log"
    raise AssertionError(f"gunicorn did not answer within 30 s:\n{log}")


def start_gunicorn(
    folder: Path, database_url: str, secret_key: str, workers: int, *options: str
) -> subprocess.Popen[bytes]:
    """Gunicorn serving the checkout's app as the README deploys it, on a port the system
    chooses (``wait_until_serving`` reads it from ``folder``/error.log), with ``options``
    (its access log, say). Its control socket goes in ``folder``, not beside another
    test's gunicorn in $HOME."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": secret_key,
        "XDG_RUNTIME_DIR": str(folder),
    }
    return subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "--workers", str(workers)),
            *("--bind", "127.0.0.1:0", "--error-logfile", str(folder / "error.log")),
            *options,
            "scorekeeper:create_app()",
        ],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def create_session(base_url: str) -> dict[str, Any]:
    """A Yardkle session made through a live server's API: the API's answer."""
    body = {"game": "yardkle", "seats": ["Ann", "Bo"]}
    sent = urllib.request.Request(
        f"{base_url}/api/v1/sessions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(sent, timeout=5) as response:
        assert response.status == 201
        return dict(json.load(response))


def open_join_link(created: dict[str, Any], **headers: str) -> None:
    sent = urllib.request.Request(created["links"]["join"], headers=headers)
    # The join link redirects to the session page, which a watcher may open.
    with urllib.request.urlopen(sent, timeout=5) as response:
        assert response.status == 200
        assert response.url.endswith(f"/s/{created['id']}")
