"""No page shows Python's None: an absent value leaves its attribute or text out. Each game
(and Yadokarick mode) is walked to its end through what its pages offer, every page of
the way read, with its history, results and share pages."""

from __future__ import annotations

import random
import re

import pytest
from conftest import start
from flask.testing import FlaskClient
from page_player import WALKS, submissions

# An attribute's value or an element's whole text that is None.
NONE_SHOWN = re.compile(r'="None"|>\s*None\s*<')
STEPS = 400


def shown_none(html: str) -> list[str]:
    """Each place the page shows None, with some of the text before it."""
    return [html[max(0, found.start() - 60) : found.end()] for found in NONE_SHOWN.finditer(html)]


@pytest.mark.parametrize("game", list(WALKS))
def test_no_page_of_a_whole_game_shows_none(client: FlaskClient, game: str) -> None:
    slug, seats, fields = WALKS[game]
    table = start(client, slug, seats, **fields)
    rng = random.Random(game)
    url, shown = table.url, []
    for _ in range(STEPS):
        page = client.get(url).get_data(as_text=True)
        shown += shown_none(page)
        offered = submissions(page, rng)
        if not offered:
            break
        version = client.get(f"/api/v1/sessions/{table.id}/version").get_json()["version"]
        sent = rng.choice(offered)
        answer = client.post(sent.action, data=sent.data(version))
        # A move may ask something first (its question's page is read next) or be refused
        # (a typed number out of range): the walk goes on from the session page.
        url = answer.location if answer.status_code == 303 and "?" in answer.location else table.url
    assert client.get(f"/api/v1/sessions/{table.id}").get_json()["finished"]
    for extra in ("history", "results", "share"):
        shown += shown_none(client.get(f"{table.url}/{extra}").get_data(as_text=True))
    assert shown == []
