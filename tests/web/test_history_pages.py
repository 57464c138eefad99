"""A session's history comes in pages of the newest events, so a long game's history
page stays small; older and newer links walk through it."""

from __future__ import annotations

import re

from conftest import api_session
from flask.testing import FlaskClient

from scorekeeper.db import database
from scorekeeper.models import Event, GameSession
from scorekeeper.web.sessions import HISTORY_PAGE_SIZE

EVENTS = 1500
TOTAL = {"type": "total", "points": 0}


def long_session(client: FlaskClient) -> str:
    """A Yardkle session of 1,500 turns entered as totals (the first through the API,
    the rest inserted straight into the log: the page is under test, not the writes)."""
    session = api_session(client)
    session.ok(TOTAL)
    with database.connection_context(), database.atomic():
        Event.insert_many(
            [{"session": session.id, "seq": seq, "action": TOTAL} for seq in range(2, EVENTS + 1)]
        ).execute()
        GameSession.update(version=EVENTS).where(GameSession.id == session.id).execute()
    return session.id


def seqs_shown(page: str) -> list[int]:
    return [int(number) for number in re.findall(r"<strong>(\d+)\.</strong>", page)]


def test_a_1500_event_history_page_stays_under_100_kb_and_shows_the_newest(
    client: FlaskClient,
) -> None:
    session_id = long_session(client)

    response = client.get(f"/s/{session_id}/history")

    assert response.status_code == 200
    assert len(response.data) < 100 * 1024
    page = response.get_data(as_text=True)
    assert seqs_shown(page) == list(range(EVENTS, EVENTS - HISTORY_PAGE_SIZE, -1))
    assert "Page 1 of 15, the newest first: events 1500 to 1401." in page
    assert f'href="/s/{session_id}/history?page=2">Older events' in page
    assert "Newer events" not in page


def test_the_older_and_newer_links_walk_the_whole_log_once(client: FlaskClient) -> None:
    session_id = long_session(client)
    seen: list[int] = []
    url: str | None = f"/s/{session_id}/history"
    while url is not None:
        page = client.get(url).get_data(as_text=True)
        seen += seqs_shown(page)
        older = re.search(r'href="([^"]+)">Older events', page)
        url = older and older.group(1).replace("&amp;", "&")

    assert seen == list(range(EVENTS, 0, -1))
    last = client.get(f"/s/{session_id}/history?page=15").get_data(as_text=True)
    assert seqs_shown(last) == list(range(HISTORY_PAGE_SIZE, 0, -1))
    assert f'href="/s/{session_id}/history?page=14">Newer events' in last


def test_a_short_history_is_one_page_without_links(client: FlaskClient) -> None:
    session = api_session(client)
    session.ok({"type": "total", "points": 500})

    page = client.get(f"/s/{session.id}/history").get_data(as_text=True)

    assert seqs_shown(page) == [1]
    assert "Older events" not in page and "Page 1 of" not in page
    assert "The newest first." in page


def test_a_page_that_does_not_exist_is_a_clean_404(client: FlaskClient) -> None:
    session_id = long_session(client)

    for page in ("0", "16", "-1", "two", "1.5", "99999999999999999999", ""):
        response = client.get(f"/s/{session_id}/history", query_string={"page": page})
        assert response.status_code == 404, page
        assert "This history has pages 1 to 15." in response.get_data(as_text=True)
