"""Cryptruck sessions through the web pages: the bought lead, tricks, block scoring."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import conftest
import pytest
from conftest import Form, Table, act, expected_actions, ok, page_error, past_records
from flask.testing import FlaskClient

from scorekeeper.games.base import Accepts, Expected
from scorekeeper.games.cryptruck import rules as cryptruck

THREE = ["Ann", "Bo", "Cy"]


def start(
    client: FlaskClient, names: list[str], colours: list[str] | None = None, dealer: str = "0"
) -> Table:
    fields: dict[str, Any] = {"option_first_dealer": dealer}
    if colours:
        fields["option_colours"] = colours
    return conftest.start(client, "cryptruck", names, **fields)


def game(table: Table) -> dict[str, Any]:
    return table.state()["state"]


def test_the_want_pass_sequence_and_a_round_of_tricks(client: FlaskClient) -> None:
    table = start(client, THREE)
    assert "Round 1: Ann deals. Tap the revealed card" in table.page()
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    assert "Bo: want" in re.sub(r"<[^>]+>", "", table.page())
    act(table, type="bid", want="1")  # Bo wants it
    act(table, type="bid", want="0")  # Cy passes: Bo, the last to want, takes it
    assert "gives Ann a card" in table.page()
    act(table, type="give", card="yellow 1")
    current = game(table)["round"]
    assert current["taker"] == 1
    assert current["current"] == ["red 5"]  # Bo leads the revealed card
    in_play = " ".join(re.sub(r"<[^>]+>", " ", table.page()).split())
    assert "Trick 1 so far: red 5 Bo" in in_play
    assert "Cy plays: tap the card" in table.page()
    act(table, type="play", card="red 6")
    act(table, type="play", card="green 1")  # Ann trumps it
    trick = game(table)["round"]["tricks"][0]
    assert trick["winner"] == 0
    assert trick["rule"] == "trump"
    assert "Ann plays: tap the card" in table.page()


def test_when_nobody_wants_the_card_the_dealer_leads_it(client: FlaskClient) -> None:
    table = start(client, THREE, dealer="1")
    act(table, type="reveal", card="white 3")
    act(table, type="dealer-card", card="yellow 4")
    act(table, type="bid", want="0")
    act(table, type="bid", want="0")
    current = game(table)["round"]
    assert current["dealer"] == 1
    assert current["taker"] is None
    assert current["current"] == ["yellow 4"]
    assert current["leader"] == 1
    assert "Cy plays" in table.page()


def test_when_several_want_the_last_of_them_takes_it(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="reveal", card="blue 2")
    act(table, type="dealer-card", card="red 5")
    for want in ("1", "1", "0"):  # Bo, Cy want; Di passes
        act(table, type="bid", want=want)
    act(table, type="give")  # which card is not recorded
    current = game(table)["round"]
    assert current["taker"] == 2
    assert current["given"] is None
    assert current["leader"] == 2


def test_a_card_outside_the_colours_in_use_is_refused(client: FlaskClient) -> None:
    table = start(client, THREE, colours=["red", "blue", "purple"])
    page = table.page()
    assert re.search(r'value="purple 1"', page) and not re.search(r'value="green 1"', page)
    refused = table.act(type="reveal", card="green 2")
    assert refused.status_code == 422
    assert "green" in page_error(refused.get_data(as_text=True))


def test_a_colour_count_that_does_not_match_the_players_is_refused(client: FlaskClient) -> None:
    data = {f"seats-{i}": n for i, n in enumerate(THREE)}
    data |= {"option_colours": ["red", "blue"], "option_first_dealer": "0", "form_key": "k"}
    response = client.post("/new/cryptruck", data=data)
    assert response.status_code == 422
    assert "A 3-player game uses 3 colours" in response.get_data(as_text=True)


def test_the_cards_won_can_be_entered_instead_of_every_trick(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    act(
        table,
        type="won",
        **{
            "won-0": ["red 3", "white 3"],
            "won-1": ["red 4", "red 5", "yellow 3", "green 4"],
        },
    )
    record = table.records()["rounds"][0]
    assert record["scores"] == [4, 4, 5]  # 2 blocks in 2 colours: 4; 4 blocks: 4; none: 5
    assert record["fast"] is True
    assert "no blocks: 5" in record["breakdown"][2]
    refused = table.act(type="reveal", card="green 2")  # round 2 starts fine
    assert refused.status_code == 303


def test_a_revoke_costs_the_revoking_player_the_agreed_points(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    act(table, type="bid", want="0")
    act(table, type="bid", want="0")  # Ann leads red 5
    act(table, type="play", card="yellow 6")  # Bo shows no red
    act(table, type="play", card="red 1")
    act(table, type="play", card="red 2")  # Ann won trick 1 and leads red 2; Bo follows red
    act(table, type="play", card="red 3")
    assert "Revoke?" in table.state()["ruling"]
    assert "Points the revoking player loses" in table.page()
    act(table, type="revoke", flag="0", decision="accept", penalty="2")
    assert table.records()["flags"][0]["status"] == "accepted"


def test_a_mistyped_card_is_corrected_and_the_trick_ruled_again(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    act(table, type="bid", want="0")
    act(table, type="bid", want="0")
    act(table, type="play", card="red 6")
    act(table, type="play", card="red 1")
    assert game(table)["round"]["tricks"][0]["winner"] == 1
    match = re.search(
        rf'href="/s/{table.id}/events/(\d+)/correct" aria-label="correct red 1"', table.page()
    )
    assert match
    ok(table.post(f"/events/{match.group(1)}/correct", {"card": "green 3"}))
    trick = game(table)["round"]["tricks"][0]
    assert trick["cards"] == ["red 5", "red 6", "green 3"]
    assert trick["winner"] == 2


def deal(rng: random.Random, colours: list[str]) -> tuple[list[list[str]], list[str]]:
    deck = [f"{c} {n}" for c in colours for n in range(1, 7)] + ["white 3", "white 3"]
    rng.shuffle(deck)
    players = len(colours)
    return [deck[i * 6 : (i + 1) * 6] for i in range(players)], deck[players * 6 :]


def play_round(table: Table, rng: random.Random, colours: list[str], number: int) -> None:
    hands, undealt = deal(rng, colours)
    players = len(colours)
    act(table, type="reveal", card=undealt[0])
    dealer = game(table)["round"]["dealer"]
    shown = rng.choice(hands[dealer])
    hands[dealer].remove(shown)
    act(table, type="dealer-card", card=shown)
    wanted = []
    for offset in range(1, players):
        want = rng.random() < 0.4
        if want:
            wanted.append((dealer + offset) % players)
        act(table, type="bid", want="1" if want else "0")
    leader = dealer
    if wanted:
        leader = wanted[-1]
        given = rng.choice(hands[leader])
        hands[leader].remove(given)
        hands[dealer].append(given)
        act(table, type="give", card=given)
    assert game(table)["round"]["current"] == [shown]
    while len(table.records()["rounds"]) < number:
        state = game(table)
        current = state["round"]["current"]
        seat = (state["round"]["leader"] + len(current)) % players
        led = current[0].split()[0] if current else None
        following = [card for card in hands[seat] if card.split()[0] == led]
        card = rng.choice(following or hands[seat])
        hands[seat].remove(card)
        act(table, type="play", card=card)


def test_export_and_import_carry_every_trick(client: FlaskClient) -> None:
    table = start(client, THREE)
    play_round(table, random.Random(1), ["red", "yellow", "green"], 1)
    exported = client.get(f"{table.url}/export.json").get_json()
    response = client.post(
        "/api/v1/sessions/import", data=json.dumps(exported), content_type="application/json"
    )
    assert response.status_code == 201
    again = client.get(f"/api/v1/sessions/{response.get_json()['id']}/export").get_json()
    assert again == exported
    imported = past_records(client, response.get_json()["id"])
    assert len(imported["rounds"][0]["won"]) == 3
    csv = client.get(f"{table.url}/export.csv").get_data(as_text=True).splitlines()
    assert len(csv) == 1 + 3  # the header, then the round's row for each player


def test_one_player_can_be_credited_with_both_white_threes(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    page = table.page()
    assert len(re.findall(r'name="won-0" value="white 3"', page)) == 2
    act(table, type="won", **{"won-0": ["white 3", "white 3", "red 3"]})
    assert table.records()["rounds"][0]["scores"][0] == 6  # 3 blocks in 2 colours


def test_a_revealed_white_three_leaves_one_to_be_won(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="white 3")
    assert len(re.findall(r'name="won-0" value="white 3"', table.page())) == 1


def test_a_penalty_shows_in_its_round_and_the_total_alike(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 6")
    act(table, type="dealer-card", card="red 5")
    act(table, type="bid", want="0")
    act(table, type="bid", want="0")  # Ann leads red 5
    cards = ["yellow 1", "red 1"]  # Bo shows no red
    cards += ["red 2", "red 3", "red 4"]  # Bo plays red in trick 2: a revoke
    cards += [f"yellow {n}" for n in range(2, 7)] + [f"green {n}" for n in range(1, 6)]
    cards += ["white 3", "white 3"]
    for card in cards:
        act(table, type="play", card=card)
    state = game(table)
    assert len(table.records()["rounds"]) == 1
    flag = next(i for i, f in enumerate(table.records()["flags"]) if f["seat"] == 1)
    # The state carries the flags still to settle, each with the index a revoke names.
    assert flag in [open_flag["index"] for open_flag in state["open_flags"]]
    act(table, type="revoke", flag=str(flag), decision="accept", penalty="2")
    state = game(table)
    assert flag not in [open_flag["index"] for open_flag in state["open_flags"]]
    record = table.records()["rounds"][0]
    assert record["penalties"][1] == 2
    assert state["totals"][1] == record["scores"][1] - 2
    row = re.search(
        r'<tr><td>Bo</td><td class="num">(-?\d+)</td><td class="num"><strong>(-?\d+)</strong>',
        table.page(),
    )
    assert row and row.group(1) == row.group(2) == str(state["totals"][1])


def fix_links(table: Table, card: str) -> list[int]:
    """The events the session page's fix links of ``card`` name, newest trick first."""
    found = re.findall(
        rf'href="/s/{table.id}/events/(\d+)/correct" aria-label="correct {card}"', table.page()
    )
    return [int(seq) for seq in found]


def test_each_white_three_of_a_round_links_to_its_own_event(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")  # 1
    act(table, type="dealer-card", card="red 5")  # 2: Ann leads it
    act(table, type="bid", want="0")  # 3
    act(table, type="bid", want="0")  # 4
    act(table, type="play", card="white 3")  # 5: Bo trumps trick 1
    act(table, type="play", card="red 1")  # 6
    act(table, type="play", card="yellow 6")  # 7: Bo leads trick 2
    act(table, type="play", card="white 3")  # 8: Cy trumps it
    act(table, type="play", card="yellow 1")  # 9
    act(table, type="play", card="green 4")  # 10: Cy leads trick 3
    assert fix_links(table, "white 3") == [8, 5]  # trick 2, then trick 1
    assert fix_links(table, "red 5") == [2]  # the dealer's card, recorded as such
    form = client.get(f"{table.url}/events/5/correct").text
    assert "Event 5 recorded" in form
    ok(table.post("/events/5/correct", {"card": "red 6"}))  # Bo followed red after all
    tricks = game(table)["round"]["tricks"]
    assert tricks[0]["cards"] == ["red 5", "red 6", "red 1"]
    assert tricks[1]["cards"] == ["yellow 6", "white 3", "yellow 1"]
    assert [trick["winner"] for trick in tricks] == [1, 2]


def test_a_white_three_led_as_the_dealers_card_links_to_that_event(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")  # 1
    act(table, type="dealer-card", card="white 3")  # 2: Ann leads it
    act(table, type="bid", want="0")  # 3
    act(table, type="bid", want="0")  # 4
    for card in ("red 1", "red 2", "red 3", "white 3", "red 4"):  # 5 to 9
        act(table, type="play", card=card)  # Ann takes trick 1; Bo trumps trick 2
    assert fix_links(table, "white 3") == [8, 2]


# --- The page offers what the engine expects ---------------------------------------------------


def page_offers(table: Table) -> dict[str, Form]:
    return conftest.page_offers(table.page())


def block(card: str) -> bool:
    """Whether a card scores as a block (a 3, 4 or 5): the only cards the cards-won form asks."""
    return card.split()[1] in ("3", "4", "5")


def check_page_offers_expected(table: Table) -> dict[str, Form]:
    """The page has a form for each action type ``expected`` lists and none other, offering
    exactly the cards and answers listed: each card once in a picker, greyed when not listed."""
    expected = expected_actions(table)
    offers = page_offers(table)
    assert set(offers) == set(expected)
    for kind, action in expected.items():
        offer = offers[kind]
        if kind == "bid":
            wants = ["1" if want else "0" for want in action["choices"]]
            assert offer.offered("want") == wants
        elif kind == "revoke":
            assert [int(flag) for flag in offer.fixed("flag")] == action["choices"]
        elif kind == "won":
            blocks = {card for card in action["cards"] if block(card)}
            seats = len(game(table)["players"])
            assert set(offer.boxes) == {f"won-{seat}" for seat in range(seats)}
            assert all(set(values) == blocks for values in offer.boxes.values())
            assert offer.buttons == [("", "", True)]  # Score the round
        else:
            assert sorted(offer.offered("card")) == sorted(action["cards"])
            assert not set(offer.greyed("card")) & set(action["cards"])
    return offers


def test_each_step_offers_exactly_the_cards_and_answers_the_engine_expects(
    client: FlaskClient,
) -> None:
    table = start(client, THREE)
    offers = check_page_offers_expected(table)
    assert set(offers) == {"reveal"}
    assert len(offers["reveal"].offered("card")) == 19  # 3 colours and a white 3
    assert not offers["reveal"].greyed("card")
    act(table, type="reveal", card="green 2")
    offers = check_page_offers_expected(table)
    assert set(offers) == {"dealer-card", "won"}
    assert offers["dealer-card"].greyed("card") == ["green 2"]
    assert offers["won"].boxes["won-2"] == [
        *("red 3", "red 4", "red 5", "yellow 3", "yellow 4", "yellow 5"),
        *("green 3", "green 4", "green 5", "white 3", "white 3"),
    ]
    act(table, type="dealer-card", card="red 5")
    assert check_page_offers_expected(table)["bid"].offered("want") == ["1", "0"]
    act(table, type="bid", want="1")  # Bo wants it
    act(table, type="bid", want="0")
    offers = check_page_offers_expected(table)
    assert sorted(offers["give"].greyed("card")) == ["green 2", "red 5"]
    assert ("", "", True) in offers["give"].buttons  # the skip: a give that names no card
    act(table, type="give", card="yellow 1")  # Bo leads red 5
    act(table, type="play", card="yellow 6")  # Cy shows no red
    act(table, type="play", card="red 1")  # Bo takes trick 1 with red 5
    act(table, type="play", card="red 2")  # Bo leads red 2
    act(table, type="play", card="red 3")  # Cy follows red: a revoke flag
    offers = check_page_offers_expected(table)
    assert set(offers) == {"play", "revoke"}
    out = ["green 2", "red 1", "red 2", "red 3", "red 5", "yellow 6"]
    assert sorted(offers["play"].greyed("card")) == out
    assert offers["revoke"].hidden == [("flag", "0")]


def test_a_revealed_block_card_is_not_offered_among_the_cards_won(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="red 3")
    boxes = check_page_offers_expected(table)["won"].boxes
    assert "red 3" not in boxes["won-0"] and len(boxes["won-0"]) == 10


def test_a_greyed_card_is_refused_for_the_reason_the_page_gives(client: FlaskClient) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    act(table, type="bid", want="1")
    act(table, type="bid", want="0")
    page = table.page()
    assert "Greyed cards are already turned up or played this round." in page
    assert page_offers(table)["give"].greyed("card") == ["red 5", "green 2"]
    before = table.state()["version"]
    refused = table.act(type="give", card="red 5")
    assert refused.status_code == 422
    assert html.unescape(page_error(refused.get_data(as_text=True))) == (
        "red 5 is the dealer's card: it leads trick 1; give another card."
    )
    assert table.state()["version"] == before


def test_a_round_start_greys_nothing_and_gives_no_reason(client: FlaskClient) -> None:
    table = start(client, THREE)
    assert "Greyed cards" not in table.page()
    act(table, type="reveal", card="white 3")  # the other white 3 is still in play
    assert not page_offers(table)["dealer-card"].greyed("card")
    assert "Greyed cards" not in table.page()


def test_the_page_offers_what_the_engine_says_and_nothing_more(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start(client, THREE)
    act(table, type="reveal", card="green 2")
    act(table, type="dealer-card", card="red 5")
    # An engine that would take only a pass from Bo, and then only two cards from Cy.
    only_pass = Expected(1, (Accepts("bid", choices=(False,)),))
    monkeypatch.setattr(cryptruck.GAME, "expected", lambda state: only_pass)
    assert page_offers(table)["bid"].offered("want") == ["0"]
    act(table, type="bid", want="0")
    act(table, type="bid", want="0")  # Ann leads red 5
    two_cards = Expected(1, (Accepts("play", cards=("red 1", "white 3")),))
    monkeypatch.setattr(cryptruck.GAME, "expected", lambda state: two_cards)
    offers = page_offers(table)
    assert set(offers) == {"play"}
    assert offers["play"].offered("card") == ["red 1", "white 3"]
    assert len(offers["play"].greyed("card")) == 17


def test_a_finished_game_offers_no_action(client: FlaskClient) -> None:
    table = start(client, THREE)
    for _ in range(3):
        act(table, type="reveal", card="green 2")
        act(table, type="won", **{"won-0": ["red 3"]})
    assert table.state()["expected"] == {"seat": None, "actions": []}
    assert page_offers(table) == {}


@pytest.mark.parametrize("sent", [["purple", "red", "blue"], "purple,red,blue"])
def test_the_colours_option_comes_back_as_a_list_in_the_deck_order(
    client: FlaskClient, sent: object
) -> None:
    body = {"game": "cryptruck", "seats": THREE, "options": {"colours": sent}}
    created = client.post("/api/v1/sessions", json=body).get_json()
    assert created["options"] == {"colours": ["red", "blue", "purple"], "first_dealer": 0}
    assert created["state"]["colours"] == ["red", "blue", "purple"]
    exported = client.get(f"/api/v1/sessions/{created['id']}/export").get_json()
    assert exported["options"]["colours"] == ["red", "blue", "purple"]


def test_a_form_with_no_colour_ticked_stores_an_empty_list(client: FlaskClient) -> None:
    table = start(client, THREE)
    state = client.get(f"/api/v1/sessions/{table.id}").get_json()
    assert state["options"]["colours"] == []
    assert state["state"]["colours"] == ["red", "yellow", "green"]


def test_the_last_card_of_a_round_is_recorded_with_the_tap_before_it(
    client: FlaskClient,
) -> None:
    """Once a single card is left unplayed, its player has no choice: the tap before it
    records it too, and an undo takes both back."""
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="reveal", card="blue 1")
    act(table, type="dealer-card", card="red 2")
    for want in ("0", "0", "0"):  # nobody wants it: Ann leads it
        act(table, type="bid", want=want)
    taps = 0
    while game(table)["round"]["number"] == 1:
        offered = expected_actions(table)["play"]["cards"]
        current = game(table)["round"]["current"]
        led = [card for card in offered if current and card.split()[0] in current[0]]
        act(table, type="play", card=(led or offered)[0])
        taps += 1
    assert len(table.records()["rounds"]) == 1
    exported = client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    plays = [event for event in exported["events"] if event["action"]["type"] == "play"]
    assert len(plays) == taps + 1 == 23  # 24 cards in the hands, the first led by the bid
    assert plays[-1]["action"]["card"] == "white 3"
    ok(table.post("/undo", {}))
    assert table.records()["rounds"] == []
    assert len(expected_actions(table)["play"]["cards"]) == 2  # the tap before the last card
