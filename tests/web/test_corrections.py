"""Correcting a recorded card, in every game: the page works, or it says why it cannot."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from conftest import Table, act, page_error, start, start_session
from flask.testing import FlaskClient

# Cards sent to every event's correction: the game's own, another game's, and no card.
SENT_CARDS = ("forgot:x", "", "green 3", "white 3", "10D", "red 1", "green 25")


def yadokarick(client: FlaskClient, names: list[str]) -> Table:
    """A Yadokarick session with the default options (what a bare new-session form gets)."""
    return start(client, "yadokarick", names, deck="new", new_deck_name="Blue box")


def yardkle_session(client: FlaskClient) -> Table:
    table = start_session(client, ["Ann", "Bo"])
    act(table, type="total", points="500")
    return table


def yokai_septet_session(client: FlaskClient) -> Table:
    table = start(client, "yokai-septet", ["Ann", "Bo", "Cy", "Di"])
    act(table, type="trump", card="yellow 4")
    act(table, type="first-lead", seat="0")
    for card in ("red 12", "blue 8", "red 6", "red 8", "red 11", "red 7"):
        act(table, type="play", card=card)  # Bo revokes: a flag, then a penalty
    act(table, type="revoke", flag="0", decision="accept", penalty="2")
    act(table, type="play", card="red 9")
    assert table.post("/undo", {}).status_code == 303  # an undone card
    return table


def cryptruck_session(client: FlaskClient) -> Table:
    table = start(client, "cryptruck", ["Ann", "Bo", "Cy"], option_first_dealer="0")
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    act(table, type="bid", want="1")
    act(table, type="bid", want="0")
    act(table, type="give", card="yellow 1")
    act(table, type="play", card="red 6")
    act(table, type="play", card="white 3")
    return table


def yadokarick_session(client: FlaskClient) -> Table:
    table = yadokarick(client, ["Ann", "Bo", "Cy", "Di"])
    for card, size in (("green 25", "3"), ("pink 8", "2"), ("green 17", "3"), ("pink 29", "4")):
        act(table, type="play", card=card, size=size)
    act(table, type="marker", move="stay")
    return table


def yadokarick_solo_session(client: FlaskClient) -> Table:
    table = yadokarick(client, ["Sol"])
    for card in ("green 5", "green 6", "green 7", "pink 5", "pink 6"):
        act(table, type="draw", card=card, size="3")
    act(table, type="take", card="green 5", crab="1")
    return table


def yellow_dwarf_session(client: FlaskClient) -> Table:
    table = start(
        client,
        "yellow-dwarf",
        ["Ann", "Bo", "Cy"],
        option_starting_chips="50",
        option_payout="cards",
        option_game_end="first-broke",
    )
    act(table, type="play", card="8D")
    act(table, type="play", card="9D")
    act(table, type="play", card="10D", called="1")
    act(table, type="without")
    return table


def sentence(response: Any) -> str:
    """The sentence a refusal shows: a session page's error, or an error page's."""
    found = re.search(r'class="alert error" role="alert"[^>]*>([^<]*)</div>', response.text)
    assert found, response.text
    return html.unescape(found.group(1)).strip()


@pytest.mark.parametrize(
    "session",
    [
        yardkle_session,
        yokai_septet_session,
        cryptruck_session,
        yadokarick_session,
        yadokarick_solo_session,
        yellow_dwarf_session,
    ],
)
def test_every_event_of_every_game_answers_its_correction_with_a_page_never_a_500(
    client: FlaskClient, session: Callable[[FlaskClient], Table]
) -> None:
    table = session(client)
    logged = client.get(f"/api/v1/sessions/{table.id}/export").get_json()["events"]
    # Every event, the seq before the first and seqs beyond the log.
    for seq in range(len(logged) + 3):
        form = client.get(f"{table.url}/events/{seq}/correct")
        assert form.status_code in (200, 404), (seq, form.status_code)
        if form.status_code == 404:
            assert len(sentence(form)) > 20
        for card in SENT_CARDS:
            response = table.post(f"/events/{seq}/correct", {"card": card})
            assert response.status_code in (303, 404, 422), (seq, card, response.status_code)
            if response.status_code != 303:
                assert len(sentence(response)) > 20


def test_a_yadokarick_correction_that_is_not_a_card_is_refused_with_a_sentence(
    client: FlaskClient,
) -> None:
    table = yadokarick_session(client)
    before = table.state()
    response = table.post("/events/1/correct", {"card": "forgot:x"})
    assert response.status_code == 422
    assert html.unescape(page_error(response.text)) == (
        "“forgot:x”: not a card; write it like “green 36” (colour, then number)."
    )
    assert table.state() == before


def test_a_yellow_dwarf_card_is_corrected_with_undo_and_the_page_says_so(
    client: FlaskClient,
) -> None:
    table = yellow_dwarf_session(client)
    before = table.state()
    why = (
        "A Yellow Dwarf card cannot be swapped on its own: each card sets the rank due next "
        "and may take a tray. Tap Undo until the mistyped card is gone, then lay it and the "
        "cards after it again."
    )
    for seq in (1, 3):  # a card, and a taker card that took its tray
        form = client.get(f"{table.url}/events/{seq}/correct")
        assert form.status_code == 404
        assert sentence(form) == why
        response = table.post(f"/events/{seq}/correct", {"card": "8H"})
        assert response.status_code == 404
        assert sentence(response) == why
    assert table.state() == before


def test_a_solo_take_is_corrected_to_another_card_of_the_row(client: FlaskClient) -> None:
    table = yadokarick_solo_session(client)
    take = 6  # after the five cards drawn
    form = client.get(f"{table.url}/events/{take}/correct").text
    assert 'name="size"' not in form  # a card of the row has its size already
    offered = re.findall(r'name="card" value="([^"]+)"[^>]*?(disabled)?>', form)
    enabled = sorted(card for card, disabled in offered if not disabled)
    assert enabled == ["green 5", "green 6", "green 7", "pink 5", "pink 6"]  # the cards drawn
    response = table.post(f"/events/{take}/correct", {"card": "green 6"})
    assert response.status_code == 303, page_error(response.text)
    state = table.state()["state"]
    assert state["crabs"][0] == ["green 6"]
    assert state["row"] == ["green 5", "green 7", "pink 5", "pink 6"]
