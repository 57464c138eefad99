"""The last ruling's one-line result on the session page: above the input, linking to the
whole ruling below; each game says it from its ruling's data (games/<slug>/headline.html)."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from conftest import API, ApiSession
from flask.testing import FlaskClient


def session(client: FlaskClient, game: str, seats: list[str], *actions: dict[str, Any]) -> str:
    response = client.post(f"{API}/sessions", json={"game": game, "seats": seats})
    assert response.status_code == 201, response.get_json()
    played = ApiSession(client, response.get_json())
    for action in actions:
        played.ok(action)
    return f"/s/{played.id}"


def ruling_line(client: FlaskClient, url: str) -> str | None:
    page = client.get(url).get_data(as_text=True)
    found = re.search(r'<p class="ruling-line" id="ruling-line">(.*?)</p>', page, re.S)
    if found is None:
        return None
    assert '<a href="#last-ruling">' in found.group(1)  # the whole ruling, a tap away
    assert 'id="last-ruling"' in page
    return " ".join(unescape(re.sub(r"<[^>]+>", "", found.group(1))).split())


def plays(*cards: str) -> list[dict[str, Any]]:
    return [{"type": "play", "card": card} for card in cards]


SEPTET = [{"type": "trump", "card": "yellow 4"}, {"type": "first-lead", "seat": 0}]


def test_before_the_first_event_there_is_no_ruling_line(client: FlaskClient) -> None:
    assert ruling_line(client, session(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])) is None


def test_a_yokai_septet_trick_says_who_takes_it_with_what_and_why(client: FlaskClient) -> None:
    seats = ["Ann", "Bo", "Cy", "Di"]
    led = session(client, "yokai-septet", seats, *SEPTET, *plays("red 12", "red 7", "red 6"))
    assert ruling_line(client, led) == "Cy plays red 6."
    trumped = session(
        client, "yokai-septet", seats, *SEPTET, *plays("red 12", "red 7", "red 6", "yellow 8")
    )
    assert ruling_line(client, trumped) == "Di takes trick 1: yellow 8, highest trump"
    followed = session(
        client, "yokai-septet", seats, *SEPTET, *plays("red 12", "red 7", "red 6", "red 8")
    )
    assert ruling_line(client, followed) == "Ann takes trick 1: red 12, highest red"


def test_a_cryptruck_trick_says_who_takes_it(client: FlaskClient) -> None:
    url = session(
        client,
        "cryptruck",
        ["Ann", "Bo", "Cy"],
        {"type": "reveal", "card": "yellow 1"},
        {"type": "dealer-card", "card": "red 2"},
        {"type": "bid", "want": False},
        {"type": "bid", "want": False},
        *plays("red 5", "red 4"),
    )
    assert ruling_line(client, url) == "Bo takes trick 1: red 5, highest red"


def test_a_yardkle_bust_and_a_bank_say_the_turns_result(client: FlaskClient) -> None:
    seats = ["Ann", "Bo"]
    first = [{"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}, {"type": "keep", "dice": [1, 1, 1, 5]}]
    banked = session(client, "yardkle", seats, *first[:1], {**first[1], "bank": True})
    assert ruling_line(client, banked) == "Ann banks 1,050: total 1,050"
    bust = session(client, "yardkle", seats, *first, {"type": "roll", "dice": [2, 3]})
    # The line says what the turn lost; the whole ruling below says which roll did it.
    assert ruling_line(client, bust) == "Yardkle! Ann loses 1,050"
    assert "Yardkle! Ann rolled 2 3: no scoring die; the 1050 of this turn is lost." in (
        client.get(bust).get_data(as_text=True)
    )
    first_roll = session(client, "yardkle", seats, {"type": "roll", "dice": [2, 3, 4, 6, 4, 2]})
    assert ruling_line(client, first_roll) == "Yardkle! Ann scores nothing"


def test_a_yadokarick_trick_says_who_takes_how_many(client: FlaskClient) -> None:
    cards = [("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4)]
    url = session(
        client,
        "yadokarick",
        ["Ann", "Bo", "Cy", "Di"],
        *({"type": "play", "card": card, "size": size} for card, size in cards),
    )
    line = ruling_line(client, url)
    assert line is not None and re.fullmatch(r"Trick 1: \w+ takes 1 card, \w+ takes 1", line)
