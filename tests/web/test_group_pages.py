"""A group's sessions a page at a time, on its page and in the API: 30 a page, the newest
first, with links to the newer and older pages, as the home page pages its own."""

from __future__ import annotations

from datetime import datetime, timedelta
from html import unescape

import pytest
from conftest import API, assert_error
from flask import Flask
from flask.testing import FlaskClient
from test_groups import make_group, player_ids

from scorekeeper import groups, lifecycle
from scorekeeper.games import get_game
from scorekeeper.models import GameSession

PLAYED = 31


@pytest.fixture
def sessions(client: FlaskClient, app: Flask) -> tuple[str, list[str]]:
    """A group that played 31 score sheets (the first 16 finished, by the rows alone): its
    id, and the sessions' ids, the newest first."""
    group_id = make_group(client, "Club", ("Ann", "Bo"))
    ids = list(player_ids(app, group_id).values())
    made = []
    with app.app_context():
        group = groups.load(group_id)
        game = get_game("score-sheet")
        for number in range(PLAYED):
            seating = groups.seating(group, ids, game)
            session_id, _key = lifecycle.create(game.slug, [], {"target": 100}, seating=seating)
            started = datetime(2026, 11, 1) + timedelta(hours=number)
            GameSession.update(created_at=started, finished=number < 16).where(
                GameSession.id == session_id
            ).execute()
            made.append(session_id)
    return group_id, made[::-1]


def listed(html: str) -> list[str]:
    """The sessions a group page lists, by id, in its order (their pages' links: not the
    link that removes one ready to start, /s/<id>/remove)."""
    games = html[html.index('id="sessions"') :]
    links = [part.split('"', 1)[0] for part in games.split('href="/s/')[1:]]
    return [link for link in links if "/" not in link]


def test_the_group_page_lists_the_newest_30_sessions_and_links_the_older_ones(
    client: FlaskClient, sessions: tuple[str, list[str]]
) -> None:
    group_id, newest_first = sessions
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert listed(page) == newest_first[:30]
    assert f'rel="next" href="/g/{group_id}?page=2#sessions">Older sessions</a>' in page
    assert "Newer sessions" not in page
    # The statistics' summary counts every finished game, not those of the page.
    assert "16 finished games counted" in page


def test_the_group_pages_last_page_holds_the_oldest_and_links_back(
    client: FlaskClient, sessions: tuple[str, list[str]]
) -> None:
    group_id, newest_first = sessions
    page = client.get(f"/g/{group_id}?page=2").get_data(as_text=True)
    assert listed(page) == newest_first[30:]
    assert f'rel="prev" href="/g/{group_id}#sessions">Newer sessions</a>' in page
    assert "Older sessions" not in page
    assert "16 finished games counted" in page


@pytest.mark.parametrize(
    ("asked", "says"),
    [
        ("0", "This list has no such page: its first page is 1."),
        ("two", "This list has no such page: its first page is 1."),
        ("-1", "This list has no such page: its first page is 1."),
        ("3", "This group's list of sessions has pages 1 to 2."),
    ],
)
def test_a_group_page_number_that_is_none_is_a_404_page_saying_so(
    client: FlaskClient, sessions: tuple[str, list[str]], asked: str, says: str
) -> None:
    group_id, _ = sessions
    response = client.get(f"/g/{group_id}?page={asked}")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert says in unescape(response.get_data(as_text=True))


def test_a_group_with_no_session_has_one_page(client: FlaskClient) -> None:
    group_id = make_group(client, "New")
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert "None yet. Games started from this group show up here" in page
    assert client.get(f"/g/{group_id}?page=2").status_code == 404


def test_the_api_pages_a_groups_sessions_the_newest_first(
    client: FlaskClient, sessions: tuple[str, list[str]]
) -> None:
    group_id, newest_first = sessions
    first = client.get(f"{API}/groups/{group_id}").get_json()
    assert [s["id"] for s in first["sessions"]] == newest_first[:30]
    assert (first["sessions_count"], first["page"], first["pages"], first["page_size"]) == (
        PLAYED,
        1,
        2,
        30,
    )
    assert first["links"]["newer"] is None
    assert first["links"]["older"] == f"http://localhost{API}/groups/{group_id}?page=2"
    second = client.get(first["links"]["older"]).get_json()
    assert [s["id"] for s in second["sessions"]] == newest_first[30:]
    assert second["page"] == 2
    assert second["links"]["newer"] == f"http://localhost{API}/groups/{group_id}?page=1"
    assert second["links"]["older"] is None


def test_the_api_refuses_a_group_page_that_is_none_naming_the_field(
    client: FlaskClient, sessions: tuple[str, list[str]]
) -> None:
    group_id, _ = sessions
    said = assert_error(client.get(f"{API}/groups/{group_id}?page=0"), 400, "page")
    assert said == "“page” must be a whole number from 1."
    said = assert_error(client.get(f"{API}/groups/{group_id}?page=3"), 404, "page")
    assert said == "This group's list of sessions has pages 1 to 2."
