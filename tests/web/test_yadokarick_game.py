"""Yadokarick sessions through the web pages: the size step, tricks, the marker,
corrections, full standard, NPC and solo games, advanced mode, viewers, and pages
that offer exactly what the engine expects."""

from __future__ import annotations

import json
import random
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import conftest
import pytest
from conftest import (
    Table,
    expected_actions,
    page_error,
    page_forms,
    page_offers,
    refused,
)
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import decks
from scorekeeper.games.yadokarick import solo
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yadokarick.rules import GAME

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus"]
FOUR = NAMES[:4]
THREE = NAMES[:3]
MINUS = "\u2212"
# Every option, sent explicitly (a missing field keeps the form's default).
DEFAULTS = {
    "rounds": "3",
    "first_dealer": "0",
    "size_first": "1",
    "size_last": "20",
    "marker_start": "11",
    "advanced": "off",
    "colour": "green",
    "npc_position": "2",
}
# The sheet's 4-player example trick, with sizes of our choosing: both greens
# share the largest green size, pink 29 is the larger pink.
SHEET_TRICK = (("green 25", 3), ("pink 8", 2), ("green 17", 3), ("pink 29", 4))


def start(
    client: FlaskClient,
    names: list[str],
    deck: str = "new",
    deck_name: str = "Blue box",
    **options: str,
) -> Table:
    fields = {f"option_{name}": value for name, value in (DEFAULTS | options).items()}
    return conftest.start(client, "yadokarick", names, deck=deck, new_deck_name=deck_name, **fields)


def ok(response: Any) -> None:
    """Recorded: back to the session page, no size asked."""
    assert response.status_code == 303, page_error(response.get_data(as_text=True))
    assert "size_for" not in response.location, response.location


def game(table: Table) -> dict[str, Any]:
    return table.state()["state"]


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def send(table: Table, version: int, **data: str) -> int:
    """Post one action with a known version (saves a state read); the next version."""
    ok(table.post("/action", data, version=version))
    return version + 1


def play_sheet_trick(table: Table, sizes: tuple[tuple[str, int], ...] = SHEET_TRICK) -> None:
    for card, size in sizes:
        ok(table.act(type="play", card=card, size=str(size)))


def winner_banner(page: str) -> str:
    match = re.search(r'<div class="alert ok winner" role="status">(.*?)</div>', page, re.S)
    assert match, "no winner banner"
    return text_of(match.group(1))


def expected_banner(names: list[str]) -> str:
    if len(names) == 1:
        return f"{names[0]} wins!"
    return f"{', '.join(names[:-1])} & {names[-1]} win!"


# --- 1. The size step and the deck profile ---------------------------------------------


def test_an_unknown_card_asks_its_size_first_and_the_deck_remembers_it(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3")
    before = table.state()
    asked = table.act(type="play", card="green 25")
    assert asked.status_code == 303
    location = urlsplit(asked.location)
    assert location.path == table.url
    assert parse_qs(location.query) == {"size_for": ["green 25"], "size_type": ["play"]}
    after = table.state()
    assert after["version"] == before["version"]
    assert after["state"]["current"] == [] and after["state"]["sizes"] == {}

    page = client.get(asked.location).get_data(as_text=True)
    assert "What size is printed on it?" in page
    assert '<input type="hidden" name="card" value="green 25">' in page
    assert '<input type="hidden" name="type" value="play">' in page
    assert '<button type="submit" name="size" value="3" aria-label="size 3">3</button>' in page
    assert "Blue box" in page  # the deck profile that will remember it
    assert 'aria-label="green 26"' not in page  # the picker waits for the size

    # A size button sends its value and the empty "another size" field.
    ok(table.act(type="play", card="green 25", size=["3", ""]))
    # The typed field alone, as "Use this size" sends it.
    ok(table.act(type="play", card="pink 8", size="12"))
    state = game(table)
    assert state["current"] == [[0, "green 25"], [1, "pink 8"]]
    assert state["sizes"] == {"green 25": 3, "pink 8": 12}
    deck = table.state()["deck_profile"]
    with client.application.app_context():
        assert decks.load(deck["id"]).sizes == {"green 25": 3, "pink 8": 12}

    # A second session on this phone with the same deck is not asked again.
    second = start(client, FOUR, deck=deck["id"], first_dealer="3")
    assert second.state()["deck_profile"] == deck
    ok(second.act(type="play", card="green 25"))
    ok(second.act(type="play", card="pink 8"))
    body = second.state()
    assert body["state"]["sizes"] == {"green 25": 3, "pink 8": 12}
    assert body["ruling"].startswith("Bo plays pink 8 (size 12).")
    assert "What size is printed on it?" not in second.page()

    # A session with a new deck profile knows nothing yet and asks again.
    third = start(client, FOUR, deck="new", deck_name="Red box", first_dealer="3")
    again = third.act(type="play", card="green 25")
    assert "size_for=green+25" in again.location
    assert third.state()["version"] == 0


def test_a_missing_option_field_takes_its_default_and_an_empty_one_is_refused(
    client: FlaskClient,
) -> None:
    body = conftest.start(client, "yadokarick", THREE).state()
    assert body["options"] == {
        "rounds": 3,
        "first_dealer": 0,
        "size_first": 1,
        "size_last": 20,
        "marker_start": 11,
        "advanced": "off",
        "colour": "green",
        "npc_position": 2,
    }
    assert body["deck_profile"]["name"] == "My Yadokarick deck"
    names = {f"seats-{i}": name for i, name in enumerate(THREE)}
    emptied = client.post(
        "/new/yadokarick", data={**names, "option_marker_start": "", "form_key": "empty"}
    )
    assert emptied.status_code == 422
    assert "Size marker starts on must be a whole number." in emptied.get_data(as_text=True)


# --- 2. The sheet's 4-player example -------------------------------------------------


def test_the_sheets_four_player_trick_takes_builds_houses_and_asks_for_the_marker(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3", size_first="5", size_last="12", marker_start="5")
    assert "Ann plays: tap the card" in table.page()  # Di deals, Ann leads
    play_sheet_trick(table)
    state = game(table)
    trick = state["tricks"][0]
    assert trick["plays"] == [[0, "green 25"], [1, "pink 8"], [2, "green 17"], [3, "pink 29"]]
    # Green: 25 is the highest and takes both greens of size 3; pink: 29 takes itself.
    assert trick["takes"] == [[0, ["green 25", "green 17"]], [3, ["pink 29"]]]
    assert trick["discarded"] == ["pink 8"]
    # Pink 8 is the lowest: Bo moves the marker and leads trick 2.
    assert trick["movers"] == [1] and state["movers"] == [1]
    assert trick["next_lead"] == 1 and state["lead"] == 1
    assert [house["size"] for house in state["houses"]] == [6, 0, 0, 4]
    assert state["houses"][0]["cards"] == ["green 25", "green 17"]
    assert trick["explanation"] == (
        "Pink 8 (Bo) is the lowest: it moves the size marker and leads next. "
        "Green: green 25 (Ann) is highest and takes green 25 and green 17, "
        "the largest greens (size 3). "
        "Pink: pink 29 (Di) is highest and takes pink 29, the largest pink (size 4). "
        "Discarded: pink 8."
    )

    page = table.page()
    houses = [
        text_of(block) for block in re.findall(r'class="house-card[^"]*">(.*?)</div>', page, re.S)
    ]
    assert houses == [
        "Ann · 0 pts green 17 ·3 green 25 ·3 house size 6",
        "▶ Bo · 0 pts house size 0",
        "Cy · 0 pts house size 0",
        "Di · 0 pts pink 29 ·4 house size 4",
    ]
    assert trick["explanation"] in text_of(page)
    assert "Bo moves the size marker" in page
    assert "Trick 1 of 10 ·" in page  # trick 1 is not over until the move
    assert re.search(r'name="move" value="left" disabled>\u2190 4</button>', page)
    assert re.search(r'name="move" value="stay" class="secondary">Stay on 5</button>', page)
    assert re.search(r'name="move" value="right">6 \u2192</button>', page)

    version = table.state()["version"]
    assert refused(table.act(type="marker", move="left")) == (
        "The size marker is on 5, the first size card: it cannot move further left."
    )
    assert refused(table.act(type="play", card="green 1", size="1")) == (
        "Bo moves the size marker first."
    )
    body = table.state()
    assert body["version"] == version
    assert (body["state"]["marker"], body["state"]["movers"]) == (5, [1])

    ok(table.act(type="marker", move="right"))
    state = game(table)
    assert (state["marker"], state["movers"], state["lead"]) == (6, [], 1)
    page = table.page()
    assert "Bo plays: tap the card" in page
    assert "Target size 6" in page
    assert "Trick 2 of 10 ·" in page


def test_the_marker_cannot_pass_the_last_size_card(client: FlaskClient) -> None:
    table = start(client, FOUR, first_dealer="3", size_first="5", size_last="12", marker_start="12")
    play_sheet_trick(table)
    page = table.page()
    assert re.search(r'name="move" value="left">\u2190 11</button>', page)
    assert re.search(r'name="move" value="right" disabled>13 \u2192</button>', page)
    assert refused(table.act(type="marker", move="right")) == (
        "The size marker is on 12, the last size card: it cannot move further right."
    )
    ok(table.act(type="marker", move="left"))
    assert game(table)["marker"] == 11


# --- 3. Sizes refused ----------------------------------------------------------------------


def size_of(number: int) -> int:
    return number % 4 + 1


def three_player_round(client: FlaskClient) -> Table:
    """A 3-player green game with round 1 played: green 1 to 30, three a trick, each
    trick led by its lowest card, the marker left on 11. Green n has size n % 4 + 1."""
    table = start(client, THREE, rounds="2")
    version = 0
    for trick in range(10):
        for number in range(3 * trick + 1, 3 * trick + 4):
            version = send(
                table, version, type="play", card=f"green {number}", size=str(size_of(number))
            )
        version = send(table, version, type="marker", move="stay")
    state = game(table)
    target = table.records()["records"][0]["target"]
    assert (state["round"], target, state["current"]) == (2, 11, [])
    return table


def test_a_size_that_contradicts_or_is_not_a_size_is_refused_and_nothing_recorded(
    client: FlaskClient,
) -> None:
    table = three_player_round(client)
    before = table.state()
    assert before["state"]["sizes"]["green 5"] == 2
    assert refused(table.act(type="play", card="green 5", size="4")) == (
        "green 5 has size 2 in this session; you entered 4. "
        "Correct the event where it was first entered to change it."
    )
    assert refused(table.act(type="play", card="green 5", size="0")) == (
        "The size printed on green 5 must be 1 to 99; you entered 0."
    )
    assert refused(table.act(type="play", card="green 31", size="big")) == (
        "The size printed on green 31 must be a whole number."
    )
    assert refused(table.act(type="play", card="green 31", size="100")) == (
        "The size printed on green 31 must be 1 to 99; you entered 100."
    )
    after = table.state()
    assert after["version"] == before["version"]
    assert after["state"] == before["state"]
    # The same size as known, or none at all, is fine.
    ok(table.act(type="play", card="green 5", size="2"))
    ok(table.act(type="play", card="green 6"))
    assert game(table)["current"] == [[2, "green 5"], [0, "green 6"]]  # Bo deals round 2


# --- 4. Corrections ------------------------------------------------------------------------


def test_correcting_a_mistyped_size_rules_the_trick_again(client: FlaskClient) -> None:
    table = start(client, FOUR, first_dealer="3")
    play_sheet_trick(table)  # green 25 entered as size 3; it is really 1
    assert game(table)["tricks"][0]["takes"][0] == [0, ["green 25", "green 17"]]
    page = table.page()
    match = re.search(
        rf'href="/s/{table.id}/events/(\d+)/correct" '
        r'aria-label="correct green 25·3">green 25·3</a>',
        page,
    )
    assert match
    path = f"/events/{match.group(1)}/correct"
    form = client.get(table.url + path).get_data(as_text=True)
    assert "Recorded with size 3." in form and 'name="size"' in form

    ok(table.post(path, {"card": "green 25", "size": "1"}))
    state = game(table)
    assert state["sizes"]["green 25"] == 1
    trick = state["tricks"][0]
    # Green 25 is still the highest green, but green 17 is now the only largest.
    assert trick["takes"] == [[0, ["green 17"]], [3, ["pink 29"]]]
    assert trick["discarded"] == ["green 25", "pink 8"]
    assert [house["size"] for house in state["houses"]] == [3, 0, 0, 4]
    assert "takes green 17, the largest green (size 3)" in trick["explanation"]
    assert "green 25·1</a>" in table.page()
    deck = table.state()["deck_profile"]["id"]
    with client.application.app_context():
        assert decks.load(deck).sizes["green 25"] == 1


def test_a_correction_that_breaks_a_later_event_is_refused_naming_it(
    client: FlaskClient,
) -> None:
    table = three_player_round(client)
    ok(table.act(type="play", card="green 5", size="2"))  # round 2, the size typed again
    events = client.get(f"/api/v1/sessions/{table.id}/export").get_json()["events"]
    first = next(e["seq"] for e in events if e["action"].get("card") == "green 5")
    later = events[-1]["seq"]
    assert events[-1]["action"] == {"type": "play", "card": "green 5", "size": 2}
    before = table.state()
    message = refused(table.post(f"/events/{first}/correct", {"card": "green 5", "size": "3"}))
    assert message == (
        f"This correction cannot be made: Event {later} (play green 5 (size 2)): "
        "green 5 has size 3 in this session; you entered 2. "
        "Correct the event where it was first entered to change it."
    )
    after = table.state()
    assert (after["version"], after["state"]) == (before["version"], before["state"])


def test_a_card_corrected_into_one_played_later_in_the_trick_is_refused(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3")
    play_sheet_trick(table)
    before = table.state()
    events = client.get(f"/api/v1/sessions/{table.id}/export").get_json()["events"]
    seqs = {e["action"]["card"]: e["seq"] for e in events}
    path = f"/events/{seqs['green 17']}/correct"
    message = refused(table.post(path, {"card": "pink 29", "size": "4"}))
    assert message == (
        f"This correction cannot be made: Event {seqs['pink 29']} (play pink 29 (size 4)): "
        "pink 29 was already played in trick 1 by Cy."
    )
    after = table.state()
    assert (after["version"], after["state"]) == (before["version"], before["state"])


# --- 5. Full standard games ------------------------------------------------------------


def legal_moves(marker: int, size_row: list[int]) -> list[str]:
    first, last = size_row
    return ["stay"] + (["left"] if marker > first else []) + (["right"] if marker < last else [])


def played_this_round(state: dict[str, Any]) -> set[str]:
    played = {card for trick in state["tricks"] for _, card in trick["plays"]}
    return played | {card for _, card in state["current"]}


# --- 6. The NPC game -------------------------------------------------------------------


def npc_score(house: int, target: int) -> int:
    return house - target if house <= target else -house


def test_a_two_player_game_against_the_npc_crab(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo"], npc_position="2")
    state = game(table)
    assert state["mode"] == "npc" and state["play_order"] == [0, 2, 1]
    assert state["players"] == ["Ann", "Bo", "NPC crab"]
    assert "Ann plays: tap the card" in table.page()
    rng = random.Random(2)
    sizes: dict[str, int] = {}
    stacks: list[list[str]] = [[], [], []]
    npc_turns = 0
    for number in range(1, 11):
        for place in range(3):
            body = table.state()
            state = body["state"]
            order = state["play_order"]
            lead = order.index(state["lead"])
            seat = (order[lead:] + order[:lead])[place]
            page = table.page()
            if seat == 2:
                assert "NPC crab: turn the top card of the draw deck and tap it" in page
                does = "plays next" if place else f"leads trick {number}"
                assert body["ruling"].endswith(
                    f"NPC crab {does}: enter the top card of the draw deck."
                )
            else:
                assert f"{state['players'][seat]} plays: tap the card" in page
                assert "NPC crab: turn the top card" not in page
            played = played_this_round(state)
            card = rng.choice([f"green {n}" for n in range(1, 37) if f"green {n}" not in played])
            size = sizes.setdefault(card, rng.randint(1, 6))
            send(table, body["version"], type="play", card=card, size=str(size))
            if seat == 2:
                npc_turns += 1
                ruling = table.state()["ruling"]
                assert ruling.startswith(f"NPC crab turns up {card} (size {size}).")
        trick = game(table)["tricks"][number - 1]
        # The highest number takes every card of the largest size; the next seat leads.
        taker, _ = max(trick["plays"], key=lambda play: int(play[1].split()[1]))
        largest = max(sizes[card] for _, card in trick["plays"])
        taken = [card for _, card in trick["plays"] if sizes[card] == largest]
        assert trick["takes"] == [[taker, taken]]
        assert trick["next_lead"] == order[(order.index(taker) + 1) % 3]
        stacks[taker].extend(taken)
    assert npc_turns == 10
    body = table.state()
    state = body["state"]
    assert body["finished"] is True and len(state["tricks"]) == 10
    # Six cards at most stay up; the collapsed ones do not count in this game.
    houses = [sum(sizes[card] for card in stack[-6:]) for stack in stacks]
    assert [house["size"] for house in state["houses"]] == houses
    target = houses[2]
    scores = [npc_score(houses[seat], target) for seat in (0, 1)]
    winners = [seat for seat in (0, 1) if scores[seat] == max(scores)]
    assert body["winners"] == winners
    assert [(s["name"], s["score"]) for s in body["standings"]] == sorted(
        [("Ann", scores[0]), ("Bo", scores[1])], key=lambda pair: -pair[1]
    )
    assert table.records()["records"][0]["target"] == target
    assert f"The NPC crab's house is size {target}: that is the target." in body["ruling"]

    page = table.page()
    assert winner_banner(page) == expected_banner([["Ann", "Bo"][seat] for seat in winners])
    assert "<h2>Result</h2>" in page
    assert f"Target {target}</strong>" in page
    for seat, name in enumerate(["Ann", "Bo"]):
        house = houses[seat]
        if house == target:
            note = f"house {house} = target {target}: exact"
        elif house < target:
            note = f"house {house}, target {target}: {target - house} under"
        else:
            note = f"house {house}, target {target}: {house - target} over, bust"
        assert f"<li>{name}: {note}</li>" in page
    results = client.get(f"{table.url}/results").get_data(as_text=True)
    assert "NPC crab" not in results
    assert all(name in results for name in ("Ann", "Bo"))
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    assert [(r["player"], r["points"]) for r in exported["rounds"]] == [
        ("Ann", scores[0]),
        ("Bo", scores[1]),
    ]


# --- 7. The solo game ------------------------------------------------------------------


# --- 8. Advanced mode ------------------------------------------------------------------


def test_advanced_mode_keeps_cards_outside_the_range_out(client: FlaskClient) -> None:
    table = start(client, NAMES[:5], advanced="on")
    state = game(table)
    assert (state["advanced"], state["highest_number"]) == (True, 25)
    page = table.page()
    assert 'value="green 25"' in page and 'value="pink 25"' in page
    assert 'value="green 26"' not in page and 'value="pink 27"' not in page
    assert refused(table.act(type="play", card="green 27", size="2")) == (
        "green 27 is not in play: advanced mode with 5 players uses 1 to 25."
    )
    assert table.state()["version"] == 0
    ok(table.act(type="play", card="green 25", size="2"))
    assert game(table)["current"] == [[1, "green 25"]]


def test_advanced_mode_is_refused_for_seven_players(client: FlaskClient) -> None:
    data = {f"seats-{i}": name for i, name in enumerate(NAMES)}
    data |= {f"option_{name}": value for name, value in DEFAULTS.items()}
    data |= {"option_advanced": "on", "deck": "new", "new_deck_name": "Box", "form_key": "k7"}
    response = client.post("/new/yadokarick", data=data)
    assert response.status_code == 422
    assert "Advanced mode is for 3 to 6 players; this game has 7." in response.get_data(
        as_text=True
    )


def test_a_card_outside_the_range_is_refused_before_its_size_is_asked(
    client: FlaskClient,
) -> None:
    table = start(client, NAMES[:5], advanced="on")
    response = table.act(type="play", card="green 27")
    assert response.status_code == 422, response.location
    assert page_error(response.get_data(as_text=True)) == (
        "green 27 is not in play: advanced mode with 5 players uses 1 to 25."
    )


# --- 9. Viewers ------------------------------------------------------------------------


def test_a_viewer_cannot_record_or_correct(client: FlaskClient, app: Flask) -> None:
    table = start(client, FOUR, first_dealer="3")
    play_sheet_trick(table)
    before = table.state()
    viewer = app.test_client()
    page = viewer.get(table.url).get_data(as_text=True)
    assert "You are watching." in page and 'name="move"' not in page
    watching = Table(viewer, table.id)
    assert watching.act(type="marker", move="left").status_code == 403
    assert watching.act(type="play", card="green 1", size="1").status_code == 403
    assert viewer.get(f"{table.url}/events/1/correct").status_code == 403
    assert watching.post("/events/1/correct", {"card": "green 24", "size": "1"}).status_code == 403
    assert watching.post("/undo", {}).status_code == 403
    after = table.state()
    assert (after["version"], after["state"]) == (before["version"], before["state"])


# --- Corrections: sizes the session learned later, sessions without a deck -----------


def test_a_card_corrected_into_one_met_later_takes_its_known_size(client: FlaskClient) -> None:
    table = three_player_round(client)
    ok(table.act(type="play", card="green 36", size="2"))  # round 2 meets green 36
    # Event 1 recorded green 1; it was green 36. Left blank, the size is the known one.
    ok(table.post("/events/1/correct", {"card": "green 36"}))
    state = game(table)
    assert state["sizes"]["green 36"] == 2 and "green 1" not in state["sizes"]


def test_a_file_without_a_deck_profile_imports_with_a_new_one_and_corrects_sizes(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3")
    play_sheet_trick(table)
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    del exported["deck_profile"]  # a file without a deck profile is a valid import
    response = client.post("/import", data={"text": json.dumps(exported), "form_key": "imp"})
    assert response.status_code == 303
    copy = Table(client, response.location.rsplit("/", 1)[1])
    # The importer gets a deck profile of their own, empty: the file brought none.
    assert copy.state()["deck_profile"]["name"] == "My Yadokarick deck"
    ok(copy.post("/events/1/correct", {"card": "green 24", "size": "1"}))
    assert game(copy)["sizes"].get("green 24") == 1


@pytest.mark.parametrize(
    ("seats", "kind", "card", "message"),
    [
        (3, "play", "pink 7", "pink 7 is not in this game"),
        (1, "draw", "green 30", "green 30 is not in the solo game"),
    ],
)
def test_a_card_outside_the_game_is_refused_without_asking_its_size(
    client: FlaskClient, seats: int, kind: str, card: str, message: str
) -> None:
    table = start(client, NAMES[:seats])
    response = table.act(type=kind, card=card)
    assert response.status_code == 422
    assert page_error(response.get_data(as_text=True)).startswith(message)
    assert table.state()["version"] == 0


# --- 10. The page offers what the engine expects ---------------------------------------


def test_the_trick_pages_offer_exactly_the_cards_and_marker_moves_expected(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3", size_first="5", size_last="12", marker_start="5")
    every = [f"{colour} {number}" for colour in ("green", "pink") for number in range(1, 37)]
    assert expected_actions(table)["play"]["cards"] == every
    forms = page_offers(table.page())
    assert list(forms) == ["play"]
    assert forms["play"].offered("card") == every

    play_sheet_trick(table, SHEET_TRICK[:2])
    expected = expected_actions(table)
    assert list(expected) == ["play"]
    free = [card for card in every if card not in ("green 25", "pink 8")]
    assert expected["play"]["cards"] == free
    picker = page_offers(table.page())["play"]
    assert picker.offered("card") == free
    assert picker.greyed("card") == ["green 25", "pink 8"]

    play_sheet_trick(table, SHEET_TRICK[2:])  # Bo moves the marker, on 5, the first size card
    expected = expected_actions(table)
    assert list(expected) == ["marker"] and expected["marker"]["moves"] == ["stay", "right"]
    page = table.page()
    forms = page_offers(page)
    assert list(forms) == ["marker"]
    assert forms["marker"].offered("move") == ["stay", "right"]
    assert forms["marker"].greyed("move") == ["left"]
    reason = re.search(r'<p class="help" id="marker-end">(.*?)</p>', page)
    assert reason and reason.group(1) == (
        "5 is the first size card: the marker cannot move further left."
    )
    assert 'aria-describedby="marker-end" name="move" value="left" disabled>' in page
    assert 'name="card"' not in page  # no card can be played before the marker moves


def test_a_card_sent_while_the_marker_is_due_is_refused_without_asking_its_size(
    client: FlaskClient,
) -> None:
    table = start(client, FOUR, first_dealer="3", size_first="5", size_last="12", marker_start="5")
    play_sheet_trick(table)
    version = table.state()["version"]
    # green 1 is new to the session, but no card is expected now: nothing to ask.
    assert refused(table.act(type="play", card="green 1")) == "Bo moves the size marker first."
    assert table.state()["version"] == version


def test_a_solo_draw_sent_while_a_take_is_due_is_refused_without_asking_its_size(
    client: FlaskClient,
) -> None:
    table = solo_table(client, *LAYOUT)
    assert refused(table.act(type="draw", card="green 1")) == (
        "The row already has 5 cards: take one onto a crab before drawing."
    )
    assert table.state()["version"] == 5


def test_a_size_link_for_a_card_played_since_shows_the_picker(client: FlaskClient) -> None:
    table = start(client, FOUR, first_dealer="3")
    asked = table.act(type="play", card="green 25")
    ok(table.act(type="play", card="green 25", size="3"))  # entered on this or another phone
    page = client.get(asked.location).get_data(as_text=True)
    assert "What size is printed on it?" not in page
    assert "Bo plays: tap the card" in page
    assert "green 25" in page_offers(page)["play"].greyed("card")


# The sheet's placement figure (tests/unit/test_yadokarick_solo.py): a roof on crab 1,
# green 17 on crab 2, crab 3 empty, six pinks on crab 4; the row green 25, green 22,
# pink 27, pink 16, green 19.
LAYOUT = ("green 21", "green 20", "pink 18", "green 17", "pink 36")
SHEET_MOVES = (
    ("green 21", 1, "pink 35"),
    ("green 20", 1, "pink 34"),
    ("pink 18", 2, "pink 33"),
    ("green 17", 2, "pink 32"),
    ("pink 36", 4, "pink 31"),
    ("pink 35", 4, "green 25"),
    ("pink 34", 4, "green 22"),
    ("pink 33", 4, "pink 27"),
    ("pink 32", 4, "pink 16"),
    ("pink 31", 4, "green 19"),
)


def solo_table(
    client: FlaskClient, *draws: str, moves: tuple[tuple[str, int, str], ...] = ()
) -> Table:
    """A solo session with ``draws`` laid out, then each move: a take and its refill draw.
    Every card has size 2."""
    table = start(client, ["Sol"])
    version = 0
    for card in draws:
        version = send(table, version, type="draw", card=card, size="2")
    for taken, crab, drawn in moves:
        version = send(table, version, type="take", card=taken, crab=str(crab))
        version = send(table, version, type="draw", card=drawn, size="2")
    return table


def solo_state(table: Table) -> solo.SoloState:
    """The session's state rebuilt by the engine from its exported events."""
    exported = table.client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    state = GAME.start(["Sol"], {})
    for event in exported["events"]:
        state = GAME.apply(state, GAME.parse_action(event["action"]))
    assert isinstance(state, solo.SoloState)
    return state


def take_offers(table: Table) -> dict[str, list[str]]:
    """The solo take as the page offers it, one tap a move: each row card that fits a
    crab (its form's fixed card) → the crabs it may go onto (the form's buttons)."""
    forms = [form for form in page_forms(table.page()) if form.kind == "take"]
    return {form.fixed("card")[0]: form.offered("crab") for form in forms}


def test_a_solo_take_offers_each_row_card_only_the_crabs_it_fits(client: FlaskClient) -> None:
    table = solo_table(client, *LAYOUT, moves=SHEET_MOVES)
    row = ["green 25", "green 22", "pink 27", "pink 16", "green 19"]
    expected = expected_actions(table)
    assert expected == {
        "take": {"type": "take", "cards": row, "crabs": [1, 2, 3, 4]},
        "give-up": {"type": "give-up", "crabs": [1, 2, 4]},  # crab 3 is empty
    }
    forms = page_offers(table.page())
    assert set(forms) == {"take", "give-up"}
    assert forms["give-up"].offered("crab") == ["1", "2", "4"]

    # Every row card with the buttons of the crabs it fits: one tap records the move.
    fits = {
        "green 25": ["1", "3"],  # above green 21 under crab 1's roof, or the empty crab 3
        "green 22": ["1", "3"],
        "pink 27": ["3", "4"],  # higher than green 17 on crab 2
        "pink 16": ["2", "3", "4"],
        "green 19": ["3"],  # not above 21 under the roof; green on green 17 on crab 2
    }
    assert take_offers(table) == fits
    state = solo_state(table)
    for card, crab_numbers in fits.items():
        listed = solo.crabs_for(state, YADOKARICK.parse(card, "card"))
        assert crab_numbers == [str(crab) for crab in listed]

    ok(table.act(type="take", card="pink 16", crab="2"))
    assert [str(card) for card in solo_state(table).crabs[1]] == ["pink 18", "green 17", "pink 16"]


def test_a_row_card_that_fits_no_crab_is_shown_without_crabs_and_the_reason(
    client: FlaskClient,
) -> None:
    moves = (*SHEET_MOVES, ("green 25", 3, "pink 2"))
    table = solo_table(client, *LAYOUT, moves=moves)
    assert expected_actions(table)["take"]["cards"] == ["green 22", "pink 27", "pink 16", "pink 2"]
    offers = take_offers(table)
    assert list(offers) == ["green 22", "pink 27", "pink 16", "pink 2"]
    assert (offers["green 22"], offers["pink 27"], offers["pink 2"]) == (
        ["1"],
        ["4"],
        ["2", "3", "4"],
    )
    page = table.page()
    moves_list = re.search(r'<ul class="moves">(.*?)</ul>', page, re.S)
    assert moves_list is not None
    lines = [text_of(line) for line in re.findall(r"<li>(.*?)</li>", moves_list.group(1), re.S)]
    # The row as it lies, green 19 with no crab to go onto.
    assert [line.split(" ·")[0] for line in lines] == [
        "green 22",
        "pink 27",
        "pink 16",
        "green 19",
        "pink 2",
    ]
    assert lines[3] == "green 19 ·2 no crab"
    assert '<p class="help" id="take-none">No crab takes green 19 now.</p>' in page


def test_the_solo_draw_and_bonus_offer_exactly_the_cards_expected(client: FlaskClient) -> None:
    # The sheet's bonus: pink 18 comes up next to pink 17 and pink 19.
    table = solo_table(client, "pink 17", "pink 19", "green 3", "green 8", "green 12")
    send(table, 5, type="take", card="green 12", crab="1")
    expected = expected_actions(table)
    assert list(expected) == ["draw"]
    drawn = ["green 3", "green 8", "green 12", "pink 17", "pink 19"]
    undrawn = [card for card in map(str, solo.SOLO_DECK) if card not in drawn]
    assert expected["draw"]["cards"] == undrawn
    forms = page_offers(table.page())
    assert list(forms) == ["draw"]
    assert forms["draw"].offered("card") == undrawn
    assert sorted(forms["draw"].greyed("card")) == sorted(drawn)

    send(table, 6, type="draw", card="pink 18", size="2")
    expected = expected_actions(table)
    assert expected["bonus"]["cards"] == ["pink 17", "pink 18", "pink 19"]
    assert expected["give-up"]["crabs"] == [1]
    forms = page_offers(table.page())
    assert set(forms) == {"bonus", "take", "give-up"}
    assert forms["bonus"].offered("card") == ["pink 17", "pink 18", "pink 19"]
    assert forms["give-up"].offered("crab") == ["1"]


def test_when_no_row_card_fits_a_crab_only_the_give_up_is_offered(client: FlaskClient) -> None:
    # Crab 1 takes green 3 or lower, crab 2 pink 1, crab 3 green 1, crab 4 pink 2 or
    # lower: none of the high cards in the row.
    moves = (("green 3", 1, "pink 33"), ("green 1", 2, "green 31"))
    moves += (("pink 1", 3, "pink 27"), ("pink 2", 4, "green 25"))
    table = solo_table(client, "green 3", "green 1", "pink 1", "pink 2", "green 36", moves=moves)
    assert expected_actions(table) == {"give-up": {"type": "give-up", "crabs": [1, 2, 3, 4]}}
    page = table.page()
    forms = page_offers(page)
    assert list(forms) == ["give-up"]
    assert forms["give-up"].offered("crab") == ["1", "2", "3", "4"]
    assert 'name="take"' not in page and "Take a card onto a crab" not in page
    assert "No card of the row fits a crab now: give up a crab." in page
    assert '<details class="card" id="give-up" open>' in page  # the only move is not folded away
