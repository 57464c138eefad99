"""Live refresh across workers: a phone watching a session page sees another phone's
entry within 2 s, under gunicorn with several workers (on PostgreSQL when
TEST_DATABASE_URL names one), and its idle checks send back the ETag (the server
answers them 304: tests/web/test_refresh_check.py)."""

from __future__ import annotations

import json
import os
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import start_gunicorn, wait_until_serving
from test_phone import CHROMIUM, phone

# Its tests share one gunicorn: one worker takes them all.
pytestmark = [
    pytest.mark.e2e,
    pytest.mark.xdist_group("gunicorn-workers"),
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"no Chromium at {CHROMIUM}"),
]


@pytest.fixture(scope="module")
def workers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Gunicorn with three workers, as the README deploys it; once a worker answers (the
    port is open before the workers have loaded the app)."""
    folder = tmp_path_factory.mktemp("workers")
    database = os.environ.get("TEST_DATABASE_URL") or f"sqlite:///{folder}/live.sqlite3"
    process = start_gunicorn(folder, database, "e2e", 3)
    try:
        yield wait_until_serving(folder / "error.log")
    finally:
        process.terminate()
        process.wait(timeout=10)


def post(url: str, body: Any, key: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=5) as answer:
        return json.load(answer)


def test_another_phones_entry_shows_within_two_seconds(workers: str, browser: Any) -> None:
    created = post(f"{workers}/api/v1/sessions", {"game": "yardkle", "seats": ["Ann", "Bo"]})
    events = f"{workers}/api/v1/sessions/{created['id']}/events"
    with phone(browser, javascript=True) as page:
        checks: list[Any] = []
        page.on(
            "requestfinished",
            lambda request: checks.append(request) if request.url.endswith("/version") else None,
        )
        page.goto(f"{workers}/s/{created['id']}")
        # Two idle checks first (one every 2 s): the session has not changed.
        deadline = time.monotonic() + 10
        while len(checks) < 2 and time.monotonic() < deadline:
            page.wait_for_timeout(100)
        assert len(checks) >= 2
        revalidated = [check.all_headers().get("if-none-match") for check in checks[1:]]
        assert revalidated and all(etag == '"0"' for etag in revalidated)

        for version, points in enumerate((500, 650)):
            written = time.monotonic()
            post(
                events,
                {"version": version, "action": {"type": "total", "points": points}},
                created["edit_key"],
            )
            page.locator(f"body[data-version='{version + 1}']").wait_for(
                state="attached", timeout=2000
            )
            assert time.monotonic() - written < 2.0
        assert "650" in page.locator("main").inner_text()
