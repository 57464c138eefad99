"""Two app servers, each a gunicorn of two workers on its own port, sharing one PostgreSQL
database: a tap through one shows on the other within 2 s, and no worker of either
answers a read from what it kept of the session before the other server's write (an
append, an undo, a redo, a correction)."""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import subprocess
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from conftest import CHROMIUM, POSTGRES_URL, empty_postgres, start_gunicorn, wait_until_serving

pytestmark = [
    # The tests share the two servers: one xdist worker takes them all.
    pytest.mark.xdist_group("two-servers"),
    pytest.mark.skipif(
        not (POSTGRES_URL or "").startswith("postgres"),
        reason="two app servers share one database only on PostgreSQL: TEST_DATABASE_URL "
        "names none",
    ),
]

WORKERS = 2
# The product's promise: another phone's tap shows within this many seconds.
PROMISE_SECONDS = 2.0
# Reads of one address: at least this many, and on until each worker of the server has
# answered one (its access log names the worker), but never more than the last.
LEAST_READS, MOST_READS = 10, 240
# Reads sent at once: an answer takes a millisecond or two, so with only two at once one
# worker can take both in turn while the other is not scheduled (a busy CI machine).
AT_ONCE = 8


@dataclass(frozen=True)
class Server:
    """One gunicorn serving the app: its address, its workers' process ids, and its access
    log, which names the worker that answered each request."""

    url: str
    workers: frozenset[int]
    access_log: Path

    def answering_workers(self, path: str, since: int) -> set[int]:
        """The workers whose answers to a GET of ``path`` were logged after byte ``since``."""
        with self.access_log.open("rb") as log:
            log.seek(since)
            lines = log.read().decode().splitlines()
        return {
            int(worker.strip("<>"))
            for worker, method, logged in (line.split() for line in lines)
            if method == "GET" and logged == path
        }


def start_server(folder: Path) -> tuple[subprocess.Popen[bytes], Path]:
    """A gunicorn of two workers on a port the system chooses, as the README deploys it."""
    folder.mkdir()
    # One key for both, as the README asks of several servers: a phone's cookie and form
    # tokens hold on either.
    process = start_gunicorn(
        folder,
        str(POSTGRES_URL),
        "two-servers",
        WORKERS,
        *("--access-logfile", str(folder / "access.log")),
        *("--access-logformat", "%(p)s %(m)s %(U)s"),
    )
    return process, folder


def serving(folder: Path) -> Server:
    """The server once it answers and all its workers are up."""
    url = wait_until_serving(folder / "error.log")
    deadline = time.monotonic() + 30
    while True:
        booted = re.findall(r"Booting worker with pid: (\d+)", (folder / "error.log").read_text())
        if len(booted) >= WORKERS:
            return Server(url, frozenset(map(int, booted)), folder / "access.log")
        assert time.monotonic() < deadline, "the workers did not boot within 30 s"
        time.sleep(0.1)


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Server]]:
    """Servers A and B on one emptied PostgreSQL database (their workers migrate it, one
    at a time under the migrations' lock)."""
    assert POSTGRES_URL
    empty_postgres(POSTGRES_URL)
    folder = tmp_path_factory.mktemp("two-servers")
    started = [start_server(folder / name) for name in ("a", "b")]
    try:
        first, second = (serving(server_folder) for _, server_folder in started)
        assert first.url != second.url
        yield first, second
    finally:
        for process, _ in started:
            process.terminate()
        for process, _ in started:
            process.wait(timeout=10)


# --- Requests ----------------------------------------------------------------------------


def call(
    url: str, body: Any = None, key: str | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    """Status and body of a GET, or of a POST of ``body`` as JSON; an error status too."""
    sent = dict(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    if key:
        sent["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, data, sent, method="GET" if data is None else "POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def api(url: str, body: Any = None, key: str | None = None, status: int = 200) -> Any:
    answered, text = call(url, body, key)
    assert answered == status, text
    return json.loads(text)


def created(server: Server, game: str = "yardkle") -> dict[str, Any]:
    body = {"game": game, "seats": ["Ann", "Bo"]}
    return dict(api(f"{server.url}/api/v1/sessions", body, None, 201))


def appended(server: Server, session: dict[str, Any], version: int, action: Any) -> Any:
    """An event appended through the API."""
    events = f"{server.url}/api/v1/sessions/{session['id']}/events"
    return api(events, {"version": version, "action": action}, session["edit_key"], 201)


def entered(server: Server, session: dict[str, Any], version: int, points: int) -> Any:
    """A Yardkle turn's total appended through the API."""
    return appended(server, session, version, {"type": "total", "points": points})


def history_write(server: Server, session: dict[str, Any], what: str, version: int) -> Any:
    """An undo or a redo through the API."""
    return api(
        f"{server.url}/api/v1/sessions/{session['id']}/{what}",
        {"version": version},
        session["edit_key"],
    )


def state_on(server: Server, session_id: str) -> Any:
    return api(f"{server.url}/api/v1/sessions/{session_id}")


def until(read: Callable[[], Any], done: Callable[[Any], bool], what: str) -> Any:
    """What ``read`` gives once ``done`` holds of it, asked again and again: within the
    product's 2 s of the call."""
    began = time.monotonic()
    while True:
        seen = read()
        if done(seen):
            return seen
        assert time.monotonic() - began < PROMISE_SECONDS, f"{what}: still {seen!r} after 2 s"
        time.sleep(0.02)


class Phone:
    """A phone with a browser's cookies, sending the session page's forms: it joins by the
    session's "score with me" link, which lets it write."""

    def __init__(self, session: dict[str, Any]) -> None:
        self.session = session
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        with self.opener.open(session["links"]["join"], timeout=10) as page:
            assert page.status == 200

    def send(self, server: Server, path: str, version: int, **fields: str) -> str:
        """The page a form sent to ``server`` leads to (after its redirect), with the
        page's CSRF token, a fresh one-time key and the version the phone saw."""
        base = f"{server.url}/s/{self.session['id']}"
        with self.opener.open(base, timeout=10) as page:
            token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.read().decode())
        assert token, "the session page has no CSRF token"
        form = {
            **fields,
            "version": str(version),
            "form_key": secrets.token_urlsafe(8),
            "csrf_token": token[1],
        }
        sent = urllib.request.Request(base + path, urllib.parse.urlencode(form).encode())
        with self.opener.open(sent, timeout=10) as answer:
            assert answer.url == base
            return str(answer.read().decode())


# --- Reads on every worker -------------------------------------------------------------


def on_every_worker(
    server: Server, path: str, check: Callable[[int, bytes], None], **headers: str
) -> None:
    """GET ``path`` at least LEAST_READS times, AT_ONCE at a time (a worker busy with one
    leaves the others to another), until each worker of the server has answered; every
    answer passes ``check`` (status and body)."""
    since = server.access_log.stat().st_size if server.access_log.exists() else 0
    reads, answered = 0, set[int]()
    with ThreadPoolExecutor(AT_ONCE) as pool:
        while reads < LEAST_READS or answered != server.workers:
            assert reads < MOST_READS, f"{path}: only workers {answered} of {server.workers}"
            for status, body in pool.map(
                lambda _: call(server.url + path, headers=headers), range(AT_ONCE)
            ):
                check(status, body)
            reads += AT_ONCE
            answered = server.answering_workers(path, since)


def read_everywhere(server: Server, expected: dict[str, Any], seen_before: int) -> None:
    """Every read of the session on every worker of ``server`` shows ``expected`` (an
    API answer): its state, its page and its version check, asked with the ETag of the
    version a watching page had seen before (a stale worker would answer it 304)."""
    session_id, version = expected["id"], expected["version"]
    check_path = f"/api/v1/sessions/{session_id}/version"

    def state_check(status: int, body: bytes) -> None:
        assert status == 200
        read = json.loads(body)
        assert (read["version"], read["ruling"]) == (version, expected["ruling"])
        assert read["standings"] == expected["standings"]
        assert read["state"] == expected["state"]

    def page_check(status: int, body: bytes) -> None:
        assert status == 200
        page = unescape(body.decode())
        assert f'data-version="{version}"' in page
        assert expected["ruling"] in page

    def version_check(status: int, body: bytes) -> None:
        assert (status, json.loads(body)) == (200, {"version": version})

    stale_tag = {"If-None-Match": f'"{seen_before}"'}
    on_every_worker(server, f"/api/v1/sessions/{session_id}", state_check)
    on_every_worker(server, f"/s/{session_id}", page_check)
    # The check may answer the version before for as long as PostgreSQL takes to pass the
    # write's announcement on (announced.py), never once it has.
    until(
        lambda: call(server.url + check_path, headers=stale_tag)[0],
        lambda status: status == 200,
        "the version check",
    )
    on_every_worker(server, check_path, version_check, **stale_tag)


# --- The tests ---------------------------------------------------------------------------


def test_a_tap_on_one_server_shows_on_the_other_within_two_seconds(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    session = created(a)
    tapped = entered(a, session, 0, 500)
    shown = until(lambda: state_on(b, session["id"]), lambda s: s["version"] == 1, "B's state")
    assert (
        shown["ruling"]
        == tapped["ruling"]
        == "Ann entered a turn of 500: total 500. Bo rolls next."
    )
    assert shown["state"]["scores"] == [500, 0]

    page = Phone(session).send(a, "/action", 1, type="total", points="650")
    assert 'data-version="2"' in page
    shown = until(lambda: state_on(b, session["id"]), lambda s: s["version"] == 2, "B's state")
    assert shown["ruling"] == "Bo entered a turn of 650: total 650. Ann rolls next."
    assert shown["state"]["scores"] == [500, 650]


@pytest.mark.e2e
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}")
def test_a_phone_watching_the_other_server_shows_a_tap_within_two_seconds(
    servers: tuple[Server, Server], browser: Any
) -> None:
    from test_phone import phone

    a, b = servers
    session = created(a)
    scorer = Phone(session)
    with phone(browser, javascript=True) as watching:
        watching.goto(f"{b.url}/s/{session['id']}")
        watching.locator("body[data-version='0']").wait_for(state="attached")
        taps: tuple[Callable[[], object], ...] = (
            lambda: entered(a, session, 0, 500),
            lambda: scorer.send(a, "/action", 1, type="total", points="650"),
        )
        for version, tap in enumerate(taps, start=1):
            tapped = time.monotonic()
            tap()
            watching.locator(f"body[data-version='{version}']").wait_for(
                state="attached", timeout=PROMISE_SECONDS * 1000
            )
            assert time.monotonic() - tapped < PROMISE_SECONDS
        assert "Bo entered a turn of 650" in watching.locator("main").inner_text()


def test_reads_kept_before_the_other_servers_append_are_not_answered_after_it(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    session = created(a)
    first = entered(a, session, 0, 500)
    # Each of B's workers keeps the session at version 1: its view, its answer, its
    # version as announced.
    read_everywhere(b, first, seen_before=0)
    second = entered(a, session, 1, 650)
    assert second["version"] == 2
    read_everywhere(b, second, seen_before=1)
    third = Phone(session).send(a, "/action", 2, type="total", points="700")
    assert 'data-version="3"' in third
    now = state_on(a, session["id"])
    assert now["state"]["scores"] == [1200, 650]
    read_everywhere(b, now, seen_before=2)


def test_undo_redo_and_correction_on_one_server_are_never_answered_stale_by_the_other(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    # A score sheet: its rounds are corrected by typing them again.
    session = created(a, "score-sheet")
    appended(a, session, 0, {"type": "round", "points": [10, 5]})
    before = appended(a, session, 1, {"type": "round", "points": [3, 8]})
    read_everywhere(b, before, seen_before=1)

    undone = history_write(a, session, "undo", 2)
    assert (undone["version"], undone["state"]["totals"]) == (3, [10, 5])
    read_everywhere(b, undone, seen_before=2)

    redone = history_write(a, session, "redo", 3)
    assert (redone["version"], redone["state"]["totals"]) == (4, [13, 13])
    read_everywhere(b, redone, seen_before=3)

    Phone(session).send(
        a, "/events/2/correct", 4, type="round", **{"points-0": "4", "points-1": "20"}
    )
    corrected = state_on(a, session["id"])
    assert (corrected["version"], corrected["state"]["totals"]) == (5, [14, 25])
    read_everywhere(b, corrected, seen_before=4)


def test_a_write_on_the_other_server_after_an_undo_needs_the_version_the_undo_made(
    servers: tuple[Server, Server],
) -> None:
    a, b = servers
    session = created(a)
    entered(a, session, 0, 500)
    before = entered(a, session, 1, 650)
    read_everywhere(b, before, seen_before=1)
    undone = history_write(a, session, "undo", 2)
    assert undone["version"] == 3

    events = f"{b.url}/api/v1/sessions/{session['id']}/events"
    stale = {"version": 2, "action": {"type": "total", "points": 550}}
    refused = api(events, stale, session["edit_key"], 409)
    assert refused["error"] == ("The session changed (now at version 3): here is the new state.")
    assert (refused["version"], refused["field"]) == (3, "version")
    assert refused["state"] == undone["state"]

    current = {"version": 3, "action": {"type": "total", "points": 550}}
    accepted = api(events, current, session["edit_key"], 201)
    assert accepted["version"] == 4
    assert accepted["ruling"] == "Bo entered a turn of 550: total 550. Ann rolls next."
    assert state_on(a, session["id"])["state"]["scores"] == [500, 550]
