"""Join keys never reach a log: flask run's request lines, gunicorn's logs, the app's errors."""

from __future__ import annotations

import json
import logging
import os
import secrets
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from conftest import create_session, make_app, open_join_link, wait_until_serving
from flask import Flask, request
from werkzeug.serving import make_server

from scorekeeper import PROJECT_ROOT
from scorekeeper.logs import redact

GUNICORN = Path(sys.executable).with_name("gunicorn")


@pytest.mark.parametrize(
    ("text", "redacted"),
    [
        ("GET /s/abc/join/Xy-_9z HTTP/1.1", "GET /s/abc/join/[key] HTTP/1.1"),
        ("/s/abc/join/Xy-_9z?from=qr#top", "/s/abc/join/[key]?from=qr#top"),
        ("/s/abc/join/Xy-_9z/", "/s/abc/join/[key]/"),
        ("/decks/p1/join/Dk3y", "/decks/p1/join/[key]"),
        (
            '"https://h/s/a/join/K1" "https://h/decks/b/join/K2"',
            '"https://h/s/a/join/[key]" "https://h/decks/b/join/[key]"',
        ),
        ("GET /s/abc/share HTTP/1.1", "GET /s/abc/share HTTP/1.1"),
        ("Unhandled error on /judge/yadokarick", "Unhandled error on /judge/yadokarick"),
    ],
)
def test_redact_replaces_only_what_follows_join(text: str, redacted: str) -> None:
    assert redact(text) == redacted


@pytest.fixture
def served(database_url: str) -> Iterator[str]:
    """The app behind werkzeug's development server, the one ``flask run`` starts."""
    server = make_server("127.0.0.1", 0, make_app(database_url))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def test_flask_run_logs_the_join_request_without_its_key(
    served: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="werkzeug")
    created = create_session(served)
    open_join_link(created)

    join_lines = [
        record.getMessage()
        for record in caplog.records
        if record.name == "werkzeug" and "/join/" in record.getMessage()
    ]
    assert len(join_lines) == 1
    assert f"GET /s/{created['id']}/join/[key] HTTP/1.1" in join_lines[0]
    assert '" 303 -' in join_lines[0]
    assert all(created["edit_key"] not in record.getMessage() for record in caplog.records)
    assert created["edit_key"] not in caplog.text


def test_flask_run_logs_a_groups_join_link_without_its_key(
    served: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="werkzeug")
    sent = urllib.request.Request(
        f"{served}/api/v1/groups",
        data=json.dumps({"name": "Friday", "players": ["Ann"]}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(sent, timeout=5) as response:
        created = json.load(response)
    with urllib.request.urlopen(created["links"]["join"], timeout=5) as response:
        assert response.url.endswith(f"/g/{created['id']}")

    assert f"GET /g/{created['id']}/join/[key] HTTP/1.1" in caplog.text
    assert created["edit_key"] not in caplog.text


def test_an_unhandled_error_on_a_join_link_is_logged_without_the_key(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    app: Flask = make_app(database_url)

    # A view that fails on a key-bearing address, and whose exception quotes the address.
    def failing(session_id: str, key: str) -> str:
        raise RuntimeError(f"could not answer {request.path}")

    app.add_url_rule("/s/<session_id>/join/<key>", "failing_join", failing, methods=["POST"])
    # Shaped as the app makes them, so that the request reaches the view.
    session_id, key = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
    response = app.test_client().post(f"/s/{session_id}/join/{key}")

    assert response.status_code == 500
    assert key not in response.get_data(as_text=True)
    [record] = [r for r in caplog.records if r.name == app.logger.name]
    assert record.getMessage() == f"Unhandled error on /s/{session_id}/join/[key]"
    assert f"RuntimeError: could not answer /s/{session_id}/join/[key]" in caplog.text
    assert key not in caplog.text


@contextmanager
def running_gunicorn(access_log: Path, error_log: Path) -> Iterator[str]:
    """Gunicorn as the README deploys it, with this repository's gunicorn.conf.py; its URL.

    Gunicorn logs a request after answering it: the logs are complete once it stopped.
    """
    folder = access_log.parent
    database = f"sqlite:///{folder}/live.sqlite3"
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SCOREKEEPER_DATABASE_URL": database,
        "SCOREKEEPER_SECRET_KEY": "gunicorn-test",
        # Gunicorn's control socket goes here, not beside a real server's in $HOME.
        "XDG_RUNTIME_DIR": str(folder),
    }
    # The path, the referrer and the environ's raw URI hold the key too: all are redacted.
    access_format = '"%(r)s" %(s)s %(U)s "%(f)s" %({raw_uri}e)s'
    command = [
        str(GUNICORN),
        "--workers=1",
        "--bind=127.0.0.1:0",
        f"--access-logfile={access_log}",
        f"--access-logformat={access_format}",
        f"--error-logfile={error_log}",
        # At debug level the error log names every request's path.
        "--log-level=debug",
        "scorekeeper:create_app()",
    ]
    # cwd: gunicorn reads ./gunicorn.conf.py by default.
    process = subprocess.Popen(
        command, cwd=PROJECT_ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        yield wait_until_serving(error_log)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_gunicorn_logs_the_join_request_without_its_key(tmp_path: Path) -> None:
    access_log, error_log = tmp_path / "access.log", tmp_path / "error.log"
    with running_gunicorn(access_log, error_log) as url:
        created = create_session(url)
        open_join_link(created, Referer=created["links"]["join"])

    lines = access_log.read_text().splitlines()
    join_path = f"/s/{created['id']}/join/[key]"
    assert f'"GET {join_path} HTTP/1.1" 303 {join_path} "{url}{join_path}" {join_path}' in lines
    assert all(created["edit_key"] not in line for line in lines)
    errors = error_log.read_text()
    assert f"[DEBUG] GET {join_path}\n" in errors
    assert created["edit_key"] not in errors
