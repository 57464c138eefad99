"""Yokai Septet sessions through the web pages: tricks, rounds, the game to 7."""

from __future__ import annotations

import json
import re
from typing import Any

import conftest
from conftest import Table, act, expected_actions, page_error, page_offers
from flask.testing import FlaskClient

SEATS = ["Ann", "Bo", "Cy", "Di"]


def start(client: FlaskClient, team_a: str = "", team_b: str = "") -> Table:
    return conftest.start(client, "yokai-septet", SEATS, option_team_a=team_a, option_team_b=team_b)


def play(table: Table, *cards: str) -> None:
    for card in cards:
        act(table, type="play", card=card)


def game_state(table: Table) -> dict[str, Any]:
    return table.state()["state"]


FOUR_BOSS_ROUND = (
    ("red 12", "red 7", "red 6", "red 8"),  # Ann leads and takes red 7
    ("blue 13", "blue 7", "blue 8", "blue 9"),  # Ann takes blue 7
    ("pink 9", "pink 7", "pink 3", "pink 4"),  # Ann takes pink 7
    ("black 11", "black 7", "black 5", "black 6"),  # Ann takes black 7: the 4th
)


def test_a_four_seat_game_says_four_players_not_four_to_four(client: FlaskClient) -> None:
    games = client.get("/new").get_data(as_text=True)
    assert re.search(r"Yokai Septet</strong><br>\s*<span[^>]*>4 players</span>", games)
    assert re.search(r"Cryptruck</strong><br>\s*<span[^>]*>3 to 5 players</span>", games)
    assert "4 to 4" not in games and "4\u20134" not in games
    new = client.get("/new/yokai-septet").get_data(as_text=True)
    assert "Name 4 players.</p>" in new
    response = client.post("/api/v1/sessions", json={"game": "yokai-septet", "seats": SEATS[:3]})
    assert response.get_json()["error"] == "Yokai Septet needs 4 seats; you named 3."


def test_a_whole_game_to_seven_points_through_the_pages(client: FlaskClient) -> None:
    table = start(client, team_a="Foxes")
    assert "Round 1: tap the face-up trump card" in table.page()
    table.act(type="trump", card="yellow 4")
    assert "Who holds the green 1?" in table.page()
    table.act(type="first-lead", seat="0")
    assert "Ann plays: tap the card" in table.page()

    play(table, *FOUR_BOSS_ROUND[0])
    ruling = table.state()["ruling"]
    assert ruling.startswith("Trick 1: Ann takes it with red 12.")
    page = table.page()
    assert re.search(r"<strong>Foxes</strong>\s*<span>0 pts · 1 trick</span>", page)
    assert re.search(r'value="red 12"[^>]*disabled', page)  # played cards are greyed out
    assert re.search(r'value="yellow 4"[^>]*disabled', page)  # the trump card is out of play
    for trick in FOUR_BOSS_ROUND[1:]:
        play(table, *trick)
    state = game_state(table)
    assert state["scores"] == [6, 0]  # red 2 + blue 2 + pink 1 + black 1
    assert table.records()["rounds"][0]["how"] == "four-boss"
    assert "Foxes" in table.state()["ruling"]

    # Round 2: the lead moves one seat clockwise, to Bo.
    table.act(type="trump", card="green 2")
    assert "Bo plays: tap the card" in table.page()
    play(
        table,
        "red 6",
        "red 12",
        "red 7",
        "red 8",  # Cy takes red 7
        "blue 13",
        "blue 7",
        "blue 8",
        "blue 9",  # Cy leads and takes blue 7
        "pink 9",
        "pink 7",
        "pink 3",
        "pink 4",
        "black 11",
        "black 7",
        "black 5",
        "black 6",  # Cy: the 4th Boss Yokai
    )
    final = table.state()
    assert final["finished"] is True
    assert final["state"]["scores"] == [12, 0]
    assert final["winners"] == [0, 2]
    page = table.page()
    assert re.search(r'class="alert ok winner"[^>]*>\s*Foxes: Ann &amp; Cy win!', page)
    refused = table.act(type="trump", card="red 9")
    assert refused.status_code == 422


def test_a_revoke_is_flagged_and_a_penalty_can_be_accepted(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "blue 8", "red 6", "red 8")  # Bo shows no red
    play(table, "red 11", "red 7")  # ...then plays red
    assert "Revoke?" in table.state()["ruling"]
    in_play = " ".join(re.sub(r"<[^>]+>", " ", table.page()).split())
    assert "Trick 2 so far: red 11 Ann red 7 Bo" in in_play
    page = table.page()
    assert "did not follow red in trick 1 of round 1" in page
    # The board links to the flag, which comes after the card picker: the picker keeps its place.
    assert '<a href="#flag-0">Revoke? 1 flag to settle: see below</a>' in page
    assert page.index('name="card"') < page.index('id="flag-0"')
    table.act(type="revoke", flag="0", decision="accept", penalty="2")
    state = game_state(table)
    assert state["scores"] == [2, 0]  # the other team than Bo's
    assert table.records()["flags"][0]["status"] == "accepted"
    assert "Revoke?" not in table.page()


def test_a_revoke_flag_can_be_dismissed(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "blue 8", "red 6", "red 8", "red 11", "red 7")
    table.act(type="revoke", flag="0", decision="dismiss")
    assert table.records()["flags"][0]["status"] == "dismissed"
    assert game_state(table)["scores"] == [0, 0]


def event_seq(table: Table, card: str) -> int:
    page = table.page()
    match = re.search(
        rf'href="/s/{table.id}/events/(\d+)/correct" aria-label="correct {card}"', page
    )
    assert match, f"no fix link for {card}"
    return int(match.group(1))


def test_correcting_a_mistyped_card_rules_the_later_tricks_again(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "red 7", "red 6", "red 8")  # Ann takes it
    seq = event_seq(table, "red 6")
    form = client.get(f"{table.url}/events/{seq}/correct").get_data(as_text=True)
    assert "Tap the card that was really played" in form
    response = table.post(f"/events/{seq}/correct", {"card": "yellow 5"})  # Cy trumped it
    assert response.status_code == 303
    trick = game_state(table)["round"]["tricks"][0]
    assert trick["winner"] == 2
    assert trick["cards"] == ["red 12", "red 7", "yellow 5", "red 8"]
    assert "Cy plays" in table.page() or "Cy" in table.state()["ruling"]


def test_a_correction_that_would_break_a_later_trick_is_refused(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "red 7", "red 6", "red 8", "blue 13")
    seq = event_seq(table, "red 6")
    before = table.state()["version"]
    response = table.post(f"/events/{seq}/correct", {"card": "blue 13"})
    assert response.status_code == 422
    message = page_error(response.get_data(as_text=True))
    assert "This correction cannot be made" in message
    assert "play blue 13" in message
    assert table.state()["version"] == before


def test_a_round_result_can_be_entered_instead_of_every_card(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="red 9")
    table.act(type="first-lead", seat="2")
    refused = table.act(type="result", team="1", how="four-boss", boss=["blue 7", "pink 7"])
    assert refused.status_code == 422
    assert table.state()["version"] == 2
    response = table.act(
        type="result", team="1", how="four-boss", boss=["blue 7", "pink 7", "red 7", "green 7"]
    )
    assert response.status_code == 303
    state = game_state(table)
    assert state["scores"] == [0, 3]  # blue 2 + pink 1; red is trump, green has no star
    assert table.records()["rounds"][0]["fast"] is True
    assert "entered as a result" in table.page()


def test_export_and_import_carry_every_trick(client: FlaskClient) -> None:
    table = start(client, team_b="Owls")
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, *FOUR_BOSS_ROUND[0], *FOUR_BOSS_ROUND[1])
    exported = client.get(f"{table.url}/export.json").get_json()
    plays = [e["action"]["card"] for e in exported["events"] if e["action"]["type"] == "play"]
    assert plays == [*FOUR_BOSS_ROUND[0], *FOUR_BOSS_ROUND[1]]
    response = client.post(
        "/api/v1/sessions/import", data=json.dumps(exported), content_type="application/json"
    )
    assert response.status_code == 201
    again = client.get(f"/api/v1/sessions/{response.get_json()['id']}/export").get_json()
    assert again == exported
    assert response.get_json()["state"]["round"]["tricks"][1]["winner"] == 0


def test_a_card_of_an_earlier_round_can_be_corrected_from_the_history(
    client: FlaskClient,
) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    for trick in FOUR_BOSS_ROUND:
        play(table, *trick)
    table.act(type="trump", card="green 2")  # round 2 has begun
    history = client.get(f"{table.url}/history").get_data(as_text=True)
    seq = 5  # trump, first lead, then red 12, red 7, red 6: event 5
    assert f'href="/s/{table.id}/events/{seq}/correct"' in history
    assert table.post(f"/events/{seq}/correct", {"card": "red 9"}).status_code == 303
    record = table.records()["rounds"][0]
    assert record["how"] == "four-boss"
    assert game_state(table)["scores"] == [6, 0]


def test_a_watching_phone_sees_no_correction_links(app: Any, client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, *FOUR_BOSS_ROUND[0])
    watcher = app.test_client()
    assert "/correct" not in watcher.get(f"{table.url}/history").get_data(as_text=True)
    assert "/correct" not in watcher.get(table.url).get_data(as_text=True)
    response = watcher.post(f"{table.url}/events/5/correct", data={"card": "red 9"})
    assert response.status_code == 403


def test_a_revoke_in_the_last_round_can_be_settled_after_the_game_ends(
    client: FlaskClient,
) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    table.act(
        type="result", team="0", how="four-boss", boss=["red 7", "blue 7", "pink 7", "black 7"]
    )
    table.act(type="trump", card="yellow 4")  # round 2: Bo leads
    play(
        table,
        "red 6",
        "red 12",
        "blue 8",
        "red 8",  # Di shows no red; Cy takes it
        "red 11",
        "red 7",
        "red 9",
        "red 10",  # Di plays red: a revoke flag
        "blue 13",
        "blue 7",
        "blue 9",
        "blue 10",
        "pink 9",
        "pink 7",
        "pink 3",
        "pink 4",
        "black 11",
        "black 7",
        "black 5",
        "black 6",  # Cy's team: the 4th Boss Yokai
    )
    assert table.state()["finished"] is True
    assert game_state(table)["scores"] == [12, 0]
    page = table.page()
    assert "Ann &amp; Cy win!" in page  # a team without a name shows as its players
    assert "Revoke?" in page and "Di did not follow red" in page
    response = table.act(type="revoke", flag="0", decision="accept", penalty="3")
    assert response.status_code == 303
    assert game_state(table)["scores"] == [15, 0]
    assert "Revoke?" not in table.page()


# --- The page offers what the engine expects -------------------------------------


def expected(table: Table) -> dict[str, Any]:
    return table.state()["expected"]


def listed(table: Table, kind: str, field: str) -> list[Any]:
    """The values ``expected`` lists for action ``kind`` in ``field``."""
    return list(expected_actions(table)[kind][field])


def test_the_trump_picker_offers_every_card_expected(client: FlaskClient) -> None:
    table = start(client)
    assert expected(table)["seat"] is None
    offers = page_offers(table.page())
    assert set(offers) == {"trump"}
    enabled = offers["trump"].offered("card")
    assert enabled == listed(table, "trump", "cards")
    assert len(enabled) == 49 and offers["trump"].greyed("card") == []


def test_the_first_lead_question_offers_the_seats_expected(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    page = table.page()
    offers = page_offers(page)
    assert set(offers) == {"first-lead"}  # no card picker until the question is answered
    assert offers["first-lead"].offered("seat") == ["0", "1", "2", "3"]
    seats = re.findall(
        r'<button type="submit" name="seat" value="(\d+)" class="secondary">(\w+)<', page
    )
    assert seats == [("0", "Ann"), ("1", "Bo"), ("2", "Cy"), ("3", "Di")]
    assert [int(seat) for seat, _ in seats] == listed(table, "first-lead", "choices")


def test_before_the_first_card_the_page_offers_play_pass_and_result(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="red 7")  # a Boss Yokai turned up: six are in play
    table.act(type="first-lead", seat="1")
    assert expected(table)["seat"] == 1
    page = table.page()
    offers = page_offers(page)
    assert set(offers) == {"play", "pass", "result"}
    assert "Bo plays: tap the card" in page
    assert offers["play"].offered("card") == listed(table, "play", "cards")
    assert offers["play"].greyed("card") == ["red 7"]
    boss = offers["result"].boxes["boss"]
    assert boss == listed(table, "result", "cards")
    assert boss == ["green 7", "purple 7", "pink 7", "yellow 7", "black 7", "blue 7"]
    # With the trump card a 7, a round can reach the last trick.
    hows = offers["result"].radios["how"]
    assert hows == [("four-boss", True), ("seven-tricks", True), ("last-trick", True)]
    assert 'id="no-last-trick"' not in page


def test_the_last_trick_is_disabled_with_its_reason_when_the_trump_card_is_no_7(
    client: FlaskClient,
) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    page = table.page()
    result = page_offers(page)["result"]
    hows = result.radios["how"]
    assert hows == [("four-boss", True), ("seven-tricks", True), ("last-trick", False)]
    reason = re.search(r'<p class="help" id="no-last-trick">(.*?)</p>', page, re.S)
    assert reason is not None
    assert reason.group(1) == (
        "Not the last trick this round: the trump card is no 7, so all seven Boss Yokai are "
        "in play and a team captures its 4th before trick 12."
    )
    assert result.boxes["boss"] == listed(table, "result", "cards")
    assert len(result.boxes["boss"]) == 7
    # The engine refuses what the page disables.
    refused = table.act(
        type="result", team="0", how="last-trick", boss=["red 7", "blue 7", "pink 7"]
    )
    assert refused.status_code == 422
    assert "cannot reach the last trick" in page_error(refused.get_data(as_text=True))


def test_once_a_card_is_played_only_the_next_card_is_offered(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "red 7")
    assert expected(table)["seat"] == 2
    page = table.page()
    offers = page_offers(page)
    assert set(offers) == {"play"}
    assert "Cy plays: tap the card" in page
    assert offers["play"].offered("card") == listed(table, "play", "cards")
    assert offers["play"].greyed("card") == ["yellow 4", "red 7", "red 12"]


def test_the_revoke_flags_offered_are_those_expected(client: FlaskClient) -> None:
    table = start(client)
    table.act(type="trump", card="yellow 4")
    table.act(type="first-lead", seat="0")
    play(table, "red 12", "blue 8", "red 6", "red 8", "red 11", "red 7")  # Bo revoked
    offers = page_offers(table.page())
    assert set(offers) == {"play", "revoke"}
    flags = offers["revoke"].fixed("flag")
    assert [int(flag) for flag in flags] == listed(table, "revoke", "choices") == [0]
    table.act(type="revoke", flag="0", decision="dismiss")
    page = table.page()
    assert set(page_offers(page)) == {"play"}
    assert 'name="flag"' not in page
