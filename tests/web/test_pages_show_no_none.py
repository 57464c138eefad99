"""No page shows Python's None: an absent value leaves its attribute or text out. Each game
(and Yadokarick mode) is walked to its end through what its pages offer, every page of
the way read (the run's one walk of the game, conftest.walked_once), with its history,
results and share pages."""

from __future__ import annotations

import re

import pytest
from conftest import SQLITE_ONLY, finished_session, walked_once
from flask.testing import FlaskClient
from page_player import WALKS

# An attribute's value or an element's whole text that is None.
NONE_SHOWN = re.compile(r'="None"|>\s*None\s*<')


def shown_none(html: str) -> list[str]:
    """Each place the page shows None, with some of the text before it."""
    return [html[max(0, found.start() - 60) : found.end()] for found in NONE_SHOWN.finditer(html)]


@SQLITE_ONLY
@pytest.mark.parametrize("game", list(WALKS))
def test_no_page_of_a_whole_game_shows_none(client: FlaskClient, game: str) -> None:
    session_id = finished_session(client, game)
    walk, _ = walked_once(client, game)
    shown = [found for page in walk.pages for found in shown_none(page)]
    assert client.get(f"/api/v1/sessions/{session_id}").get_json()["finished"]
    for extra in ("history", "results", "share"):
        shown += shown_none(client.get(f"/s/{session_id}/{extra}").get_data(as_text=True))
    assert shown == []
