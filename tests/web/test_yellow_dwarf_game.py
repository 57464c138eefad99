"""Yellow Dwarf sessions through the web pages: the trays, card by card, the bank's settling."""

from __future__ import annotations

import csv
import html
import io
import json
import re
from typing import Any

import conftest
import pytest
from conftest import Table, act, expected_actions, ok, page_offers, refused
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.games.cards import with_suit_symbols
from scorekeeper.games.yellow_dwarf import rules as yellow_dwarf

EIGHT = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
TAKERS = ("10D", "JC", "QS", "KH", "7D")
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = [rank + suit for suit in "SHDC" for rank in RANKS]
MINUS = "\u2212"  # score-row notes use the minus sign
DASH = "\u2013"  # the board's mark for no hand (out of the game, or the game over)
APOS = "\u2019"  # the typographic apostrophe of "round's"
DEALS = {3: (15, 7), 4: (12, 4), 5: (9, 7), 6: (8, 4), 7: (7, 3), 8: (6, 4)}


def start(
    client: FlaskClient,
    names: list[str],
    chips: int = 50,
    payout: str = "cards",
    game_end: str = "first-broke",
) -> Table:
    return conftest.start(
        client,
        "yellow-dwarf",
        names,
        option_starting_chips=str(chips),
        option_payout=payout,
        option_game_end=game_end,
    )


def game(table: Table) -> dict[str, Any]:
    return table.state()["state"]


def text(page: str) -> str:
    """The words a page shows, tags dropped and spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def conserved(table: Table) -> dict[str, Any]:
    """The state, after checking the bank neither made nor lost a chip."""
    state = game(table)
    assert sum(state["chips"]) + sum(state["trays"].values()) == state["start_total"]
    assert state["start_total"] == len(state["players"]) * state["options"]["starting_chips"]
    return state


def lay_taker(table: Table, card: str, called: bool) -> None:
    """Tap a taker card: the page asks whether "who takes" was called, then the answer."""
    before = table.state()["version"]
    asked = table.act(type="play", card=card)
    assert asked.status_code == 303
    assert asked.location.endswith(f"/s/{table.id}?called_for={card}")
    assert table.state()["version"] == before  # nothing recorded yet
    act(table, type="play", card=card, called="1" if called else "0")


def summary(
    table: Table,
    winner: int,
    left: list[int],
    takers: dict[str, str] | None = None,
    grand_opera: bool = False,
) -> Any:
    """A round entered as its result; ``takers``: each taker card's fate ("kept:1", "called:0",
    "forgot:2"; a card not listed was aside)."""
    data: dict[str, Any] = {"type": "round", "winner": str(winner)}
    data |= {f"left-{seat}": str(count) for seat, count in enumerate(left)}
    data |= {f"taker-{card}": fate for card, fate in (takers or {}).items()}
    if grand_opera:
        data["grand_opera"] = "1"
    return table.act(**data)


def board_trays(page: str) -> list[tuple[str, int]]:
    """The trays the board shows, in its order: (card, chips)."""
    return [
        (shown[:-1] + suit, int(chips))
        for suit, shown, chips in re.findall(
            r'<div class="tray">.*?class="chip pc suit-(\w)">([^<]+)</span>'
            r".*?<strong>(\d+)</strong>",
            page,
        )
    ]


def board_players(page: str) -> list[tuple[str, int, str]]:
    """The players of the board: (name, chips, cards in hand or the badge shown instead:
    "went out", "out")."""
    rows = re.findall(
        r'<span class="who">(.*?)</span>\s*<span class="held">'
        r'<strong class="chips">(-?\d+)</strong> chips'
        r'</span>\s*(?:<span class="badge[^"]*">(.*?)</span>'
        r'|<span class="small"><span class="cards">(.*?)</span>)',
        page,
    )
    return [
        (text(name).removeprefix("▶ "), int(chips), badge or cards)
        for name, chips, badge, cards in rows
    ]


def assert_offers_what_the_engine_expects(table: Table) -> dict[str, dict[str, Any]]:
    """The page has a form for each action type the engine lists and no other, and offers
    exactly the listed cards, ranks and taker cards; returns the listed actions by type."""
    listed = expected_actions(table)
    offers = page_offers(table.page())
    assert set(offers) == set(listed)
    if "play" in listed:
        assert offers["play"].offered("card") == listed["play"]["cards"]
    if "without" in listed:
        assert offers["without"].fixed("rank") == listed["without"]["ranks"]
    for kind in ("round", "reveal"):
        if kind in listed:
            assert offers[kind].selects == [f"taker-{card}" for card in listed[kind]["cards"]]
    return listed


# --- Setting up ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "deal", "trays"),
    [
        (
            ["Ann", "Bo", "Cy", "Di"],
            "12 cards each, 4 aside",
            {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
        ),
        (EIGHT, "6 cards each, 4 aside", {"10D": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}),
        (
            ["Ann", "Bo", "Cy"],
            "15 cards each, 7 aside",
            {"10D": 3, "JC": 6, "QS": 9, "KH": 12, "7D": 15},
        ),
    ],
)
def test_the_first_round_takes_the_stakes_and_shows_the_deal(
    client: FlaskClient, names: list[str], deal: str, trays: dict[str, int]
) -> None:
    table = start(client, names)
    chips = 50 - 15
    state = conserved(table)
    assert state["trays"] == trays
    assert state["chips"] == [chips] * len(names)
    assert state["stakes"] == [15] * len(names)
    assert state["turn"] == 0 and state["required"] is None
    page = table.page()
    shown = text(page)
    assert deal in shown
    assert board_trays(page) == list(trays.items())  # the five trays in board order
    each = DEALS[len(names)][0]
    assert board_players(page) == [(name, chips, str(each)) for name in names]
    assert f"Chips in play: {50 * len(names)}" in shown
    assert "starts a run at any rank" in shown


def test_missing_option_fields_start_with_the_defaults(client: FlaskClient) -> None:
    data = {"seats-0": "Ann", "seats-1": "Bo", "seats-2": "Cy", "form_key": "k1"}
    response = client.post("/new/yellow-dwarf", data=data)
    assert response.status_code == 303
    state = client.get(f"/api/v1/sessions/{response.location.rsplit('/', 1)[1]}").get_json()
    assert state["options"] == {
        "starting_chips": 50,
        "payout": "cards",
        "game_end": "first-broke",
    }
    assert state["state"]["chips"] == [35, 35, 35]


def test_fewer_starting_chips_than_one_stake_are_refused(client: FlaskClient) -> None:
    data = {f"seats-{i}": name for i, name in enumerate(["Ann", "Bo", "Cy"])}
    data |= {
        "option_starting_chips": "14",
        "option_payout": "cards",
        "option_game_end": "first-broke",
        "form_key": "k2",
    }
    response = client.post("/new/yellow-dwarf", data=data)
    assert response.status_code == 422
    assert "Chips each at the start must be at least 15." in response.get_data(as_text=True)


# --- The called step ----------------------------------------------------------------------


def test_a_taker_card_asks_whether_who_takes_was_called_before_recording(
    client: FlaskClient,
) -> None:
    table = start(client, EIGHT)
    before = table.state()
    response = table.act(type="play", card="10D")
    assert response.status_code == 303
    assert response.location.endswith(f"/s/{table.id}?called_for=10D")
    assert table.state() == before  # nothing recorded: no card, no chips moved
    step = client.get(response.location).get_data(as_text=True)
    form = re.search(r'<form[^>]*id="called-step".*?</form>', step, re.S)
    assert form
    assert "10♦ is a taker card: did Ann call “who takes”?" in text(form.group(0))
    assert re.search(r'name="card" value="10D"', form.group(0))
    assert re.search(r'name="called" value="1"', form.group(0))
    assert re.search(r'name="called" value="0"', form.group(0))
    assert 'name="card" value="8H"' not in step  # the card picker waits for the answer


def test_called_collects_the_tray_at_once(client: FlaskClient) -> None:
    table = start(client, EIGHT)
    lay_taker(table, "10D", called=True)
    state = conserved(table)
    assert state["chips"] == [43] + [35] * 7  # Ann takes the 8 chips of the 10D tray
    assert state["trays"] == {"10D": 0, "JC": 16, "QS": 24, "KH": 32, "7D": 40}
    assert state["takings"] == [{"seat": 0, "tray": "10D", "chips": 8}]
    assert state["laid"] == [{"seat": 0, "card": "10D", "called": True}]
    assert state["required"] == 11  # Ann goes on with a jack
    assert "Ann takes the 10 of Diamonds tray, 8 chips." in table.state()["ruling"]
    page = table.page()
    # The API's ruling writes the card as the API does; the page as its chips draw it.
    assert table.state()["ruling"].startswith("Ann lays 10D and calls")
    assert "Ann lays 10♦ and calls “who takes”" in text(page)
    assert "10D" not in text(page).split("Last ruling")[1]
    assert board_trays(page)[0] == ("10D", 0)
    assert board_players(page)[0] == ("Ann", 43, "5")


def test_forgot_leaves_the_tray_and_the_card_pays_it_at_settlement(client: FlaskClient) -> None:
    table = start(client, EIGHT)
    lay_taker(table, "10D", called=True)
    lay_taker(table, "JC", called=False)
    state = conserved(table)
    assert state["trays"]["JC"] == 16  # the tray stays
    assert state["chips"][0] == 43
    assert "the Jack of Clubs tray stays" in table.state()["ruling"]
    act(table, type="without", rank="Q")  # Bo goes on with the queen
    for card in ("QC", "KC", "AS", "2S", "3S", "4S"):  # Bo's six cards: Bo goes out
        act(table, type="play", card=card)
    state = conserved(table)
    assert state["went_out"] == 1
    assert "Bo is out: enter the taker cards still in a hand" in table.state()["ruling"]
    reveal = text(table.page())
    assert "Bo went out Each pays a chip a card" in reveal
    assert "Each pays a chip a card: Ann 4, Cy 6, Di 6, Ed 6, Flo 6, Gus 6, Hal 6." in reveal
    act(table, type="reveal", **{f"taker-{card}": "" for card in ("QS", "KH", "7D")})
    conserved(table)
    record = table.records()["rounds"][0]
    # Ann: 35 + 8 (10D) - 4 cards - 16 (pays the JC tray what it holds); Bo: 35 + 4 + 36.
    assert record["chips"] == [23, 75] + [29] * 6
    assert record["trays"] == {"10D": 0, "JC": 32, "QS": 24, "KH": 32, "7D": 40}
    assert record["uncalled"] == [{"seat": 0, "card": "JC", "called": False}]
    assert record["changes"] == [-27, 25] + [-21] * 6  # the 15-chip stake included
    explanation = (
        "Bo went out: Ann pays 4 (4 cards), Cy pays 6 (6 cards), Di pays 6 (6 cards), "
        "Ed pays 6 (6 cards), Flo pays 6 (6 cards), Gus pays 6 (6 cards) and Hal pays 6 "
        "(6 cards). Ann played without calling JC: pays the Jack of Clubs tray what it "
        "holds, 16."
    )
    assert record["explanation"] == explanation
    assert f"Round 1 : {with_suit_symbols(explanation)}" in text(table.page())


# --- The page offers what the engine expects ------------------------------------------------


def test_a_free_start_offers_every_card_and_the_round_result_but_no_without(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    listed = assert_offers_what_the_engine_expects(table)
    assert set(listed) == {"play", "round"}
    assert listed["play"]["cards"] == DECK
    assert listed["round"]["cards"] == list(TAKERS)
    for card in ("JD", "QD", "KD"):
        act(table, type="play", card=card)
    # After the king Ann starts again: every card but the three laid, no round result now.
    listed = assert_offers_what_the_engine_expects(table)
    assert set(listed) == {"play"}
    picker = page_offers(table.page())["play"]
    assert picker.offered("card") == [card for card in DECK if card not in ("JD", "QD", "KD")]
    assert picker.greyed("card") == ["JD", "QD", "KD"]


def test_a_rank_due_offers_its_cards_not_laid_and_without_that_rank(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="6D")
    for _ in range(4):
        act(table, type="without", rank="7")  # nobody has a 7: Ann goes on at 8
    act(table, type="play", card="8D")
    act(table, type="play", card="9D")
    listed = assert_offers_what_the_engine_expects(table)
    assert listed["play"] == {
        "type": "play",
        "cards": ["10S", "10H", "10D", "10C"],
        "choices": [True, False],
    }
    assert listed["without"] == {"type": "without", "ranks": ["10"]}
    page = table.page()
    assert "Ann lays a 10: tap it" in text(page)
    assert "Ann: “without 10”" in text(page)
    for card in ("10D", "JD", "QD", "KD", "5C"):  # a run of diamonds; the 6D was laid before
        if card == "10D":
            lay_taker(table, card, called=True)
        else:
            act(table, type="play", card=card)
    act(table, type="without", rank="6")
    act(table, type="without", rank="6")  # Cy must lay a 6, and the 6D is laid
    listed = assert_offers_what_the_engine_expects(table)
    assert "choices" not in listed["play"]  # no taker card among the sixes
    picker = page_offers(table.page())["play"]
    assert (picker.offered("card"), picker.greyed("card")) == (["6S", "6H", "6C"], ["6D"])


def live_log(table: Table) -> list[str]:
    """The live events of the session, each as its history line."""
    exported = table.client.get(f"/api/v1/sessions/{table.id}/export").get_json()
    return [event["text"] for event in exported["events"] if not event["undone"]]


def test_when_every_card_of_the_rank_due_is_laid_only_without_is_offered(
    client: FlaskClient,
) -> None:
    # Through the API, which records what it is sent and nothing more, up to the point where
    # a king is due and all four are laid; the scorer's phone joins then.
    created = client.post(
        "/api/v1/sessions", json={"game": "yellow-dwarf", "seats": ["Ann", "Bo", "Cy", "Di"]}
    ).get_json()
    api = conftest.ApiSession(client, created)
    for card in ("KS", "KD", "KC"):  # each king: Ann starts again with any card
        api.ok({"type": "play", "card": card})
    api.ok({"type": "play", "card": "KH", "called": True})
    api.ok({"type": "play", "card": "QD"})
    assert client.get(created["links"]["join"].removeprefix("http://localhost")).status_code == 303
    table = Table(client, created["id"])
    listed = assert_offers_what_the_engine_expects(table)
    assert listed == {"without": {"type": "without", "ranks": ["K"]}}
    page = table.page()
    assert 'name="card"' not in page  # no picker of cards that cannot be laid
    shown = text(page)
    assert "Ann cannot lay a K: all four are laid this round" in shown
    assert "Ann says “without K”: every K is laid this round." in shown
    assert "the next card must be a K" not in shown
    assert "Ann: “without K”" in shown
    # One tap: Bo, Cy and Di cannot lay a king either, so their "without" is recorded too.
    act(table, type="without", rank="K")
    state = game(table)
    assert (state["turn"], state["required"]) == (0, None)
    assert live_log(table)[-4:] == ["without K"] * 4
    assert "Ann, who laid the last card, starts again with any card" in table.state()["ruling"]


def test_a_card_that_leaves_no_card_of_the_rank_due_is_followed_by_every_without(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="KS")
    lay_taker(table, "KH", called=True)
    act(table, type="play", card="KD")
    act(table, type="play", card="KC")
    act(table, type="play", card="QD")  # a king is due, and all four are laid
    state = game(table)
    assert (state["turn"], state["required"]) == (0, None)  # Ann starts again at once
    assert live_log(table)[-5:] == ["QD"] + ["without K"] * 4
    assert "Ann lays any card: tap it" in text(table.page())
    # Undo takes the queen back with the withouts it forced; redo brings them all back.
    ok(table.post("/undo", {}))
    assert live_log(table)[-1] == "KC"
    assert (game(table)["turn"], game(table)["required"]) == (0, None)
    ok(table.post("/redo", {}))
    assert live_log(table)[-5:] == ["QD"] + ["without K"] * 4


def test_the_reveal_offers_only_the_hands_and_the_taker_cards_not_laid(
    client: FlaskClient,
) -> None:
    table = start(client, EIGHT)
    act(table, type="play", card="8C")
    act(table, type="play", card="9C")
    act(table, type="play", card="10C")
    lay_taker(table, "JC", called=True)
    act(table, type="play", card="QC")
    act(table, type="play", card="KC")  # Ann's sixth card: she goes out
    listed = assert_offers_what_the_engine_expects(table)
    assert listed == {"reveal": {"type": "reveal", "cards": ["10D", "QS", "KH", "7D"]}}
    assert 'name="card"' not in table.page()


def test_the_called_question_offers_exactly_the_listed_answers(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="9H")
    asked = table.act(type="play", card="10D")
    step = client.get(asked.location).get_data(as_text=True)
    assert expected_actions(table)["play"]["choices"] == [True, False]
    question = page_offers(step)["play"]
    assert question.offered("called") == ["1", "0"]
    answers = re.findall(r'<button[^>]*name="called" value="(\d)"[^>]*>(\w+)</button>', step)
    assert answers == [("1", "Called"), ("0", "Forgot")]
    # The picker waits for the answer.
    assert (question.offered("card"), question.greyed("card")) == ([], [])


def test_an_old_called_question_for_a_card_laid_since_shows_the_picker(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    asked = table.act(type="play", card="10D")
    lay_taker(table, "10D", called=False)  # answered on another phone
    page = client.get(asked.location).get_data(as_text=True)
    assert 'id="called-step"' not in page
    assert page_offers(page)["play"].offered("card") == ["JS", "JH", "JD", "JC"]
    # Nor is a card that is not a taker card asked about, even one the engine accepts.
    page = client.get(f"{table.url}?called_for=JS").get_data(as_text=True)
    assert 'id="called-step"' not in page


def test_tapping_a_taker_card_asks_called_without_trying_the_card_on_the_engine(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    version = table.state()["version"]
    applied: list[object] = []
    engine_apply = yellow_dwarf.YellowDwarf.apply

    def counted(game: yellow_dwarf.YellowDwarf, state: Any, action: Any) -> Any:
        applied.append(action)
        return engine_apply(game, state, action)

    monkeypatch.setattr(yellow_dwarf.YellowDwarf, "apply", counted)
    asked = table.post("/action", {"type": "play", "card": "10d"}, version)
    assert asked.location.endswith(f"/s/{table.id}?called_for=10D")
    assert applied == []  # the question comes from what the engine expects, not a trial
    assert table.state()["version"] == version  # nothing recorded yet
    ok(table.post("/action", {"type": "play", "card": "8H"}, version))
    assert game(table)["laid"] == [{"seat": 0, "card": "8H", "called": None}]
    # A taker card the engine does not accept now is not asked about: the engine says why.
    assert refused(table.act(type="play", card="JC")) == (
        "Ann must lay a 9 or say “without 9”: JC is not a 9."
    )


# --- Turns: without, the rank due, a king -------------------------------------------------


def test_without_passes_to_the_next_player_and_the_last_player_goes_on(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="5H")
    assert (game(table)["turn"], game(table)["required"]) == (0, 6)
    act(table, type="without", rank="6")  # Ann has no 6 either: Bo
    assert (game(table)["turn"], game(table)["required"]) == (1, 6)
    assert "Bo: lay a 6 or say “without 6”." in table.state()["ruling"]
    page = text(table.page())
    assert "Bo goes on: the next card must be a 6." in page
    assert "Bo: “without 6”" in page
    act(table, type="without", rank="6")
    act(table, type="without", rank="6")
    assert game(table)["turn"] == 3
    act(table, type="without", rank="6")  # nobody has a 6: Ann, who laid the 5, goes on at 7
    state = conserved(table)
    assert (state["turn"], state["required"]) == (0, 7)
    assert (
        "Nobody else could lay a 6: Ann, who laid the last card, goes on at 7."
        in (table.state()["ruling"])
    )
    assert state["laid"] == [{"seat": 0, "card": "5H", "called": None}]
    act(table, type="play", card="7H")
    act(table, type="without", rank="8")
    act(table, type="play", card="8C")  # Bo lays the 8 and holds the turn
    state = game(table)
    assert (state["turn"], state["required"]) == (1, 9)
    assert state["laid_counts"] == [2, 1, 0, 0]
    assert board_players(table.page())[:2] == [("Ann", 35, "10"), ("Bo", 35, "11")]


def test_after_a_king_the_same_player_starts_again_with_any_card(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    for card in ("JD", "QD", "KD"):
        act(table, type="play", card=card)
    state = game(table)
    assert (state["turn"], state["required"]) == (0, None)
    assert "After a king, Ann starts again with any card." in table.state()["ruling"]
    page = table.page()
    assert "Ann starts a run at any rank." in text(page)
    assert 'name="rank"' not in page  # no "without" on a free start
    no_rank = refused(table.act(type="without"))
    assert no_rank == ("Ann has a free start and may lay any card: there is no rank to be without.")
    act(table, type="play", card="2C")
    assert game(table)["required"] == 3


def test_when_nobody_has_a_king_the_last_player_starts_again(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="QH")
    for _ in range(4):
        act(table, type="without", rank="K")
    state = conserved(table)
    assert (state["turn"], state["required"]) == (0, None)
    assert table.state()["ruling"].endswith(
        "Nobody else could lay a K: Ann, who laid the last card, starts again with any card, "
        "as there is no rank after K."
    )


def test_a_wrong_rank_is_refused_with_a_sentence_and_nothing_recorded(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="5H")
    act(table, type="without", rank="6")
    before = table.state()
    assert refused(table.act(type="play", card="9C")) == (
        "Bo must lay a 6 or say “without 6”: 9C is not a 6."
    )
    assert refused(table.act(type="play", card="AS")) == (
        "Bo must lay a 6 or say “without 6”: AS is not a 6."
    )
    assert refused(table.act(type="without", rank="7")) == (
        "The rank due is 6, not 7: Bo may say “without 6”."
    )
    assert table.state() == before


def test_a_card_already_laid_this_round_is_refused(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="5H")
    for _ in range(4):
        act(table, type="without", rank="6")  # Ann goes on at 7
    act(table, type="play", card="7S")
    act(table, type="without", rank="8")
    act(table, type="play", card="8S")
    page = table.page()
    assert re.findall(r'name="card" value="(\w+)"', page) == ["9S", "9H", "9D", "9C"]
    before = table.state()
    assert refused(table.act(type="play", card="7S")) == "7S was already laid this round, by Ann."
    assert table.state() == before
    for card in ("9S", "10S", "JS", "QS"):
        if card == "QS":
            lay_taker(table, card, called=True)
        else:
            act(table, type="play", card=card)
    act(table, type="play", card="KS")  # free start: every laid card is greyed out
    page = table.page()
    for card in ("5H", "7S", "8S", "KS"):
        assert re.search(rf'value="{card}"[^>]*disabled', page), card
    assert re.search(r'value="5D"[^>]*disabled', page) is None


# --- A whole game in round summaries ------------------------------------------------------


def test_a_whole_game_of_round_summaries_until_a_player_cannot_pay(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy"], chips=45)
    start_state = conserved(table)
    assert start_state["chips"] == [30, 30, 30]
    assert start_state["trays"] == {"10D": 3, "JC": 6, "QS": 9, "KH": 12, "7D": 15}
    # The summary's words, tags apart (opened, it keeps its first four as its heading).
    assert f"Enter the round{APOS}s result instead of every card" in text(table.page())

    # Round 1: Bo goes out; Bo called 10D, Ann called 7D, Cy kept JC, Ann forgot QS.
    takers = {"10D": "called:1", "JC": "kept:2", "QS": "forgot:0", "KH": "", "7D": "called:0"}
    ok(summary(table, 1, [3, 0, 5], takers))
    state = conserved(table)
    record = table.records()["rounds"][0]
    # Bo 30 + 3 (10D) + 3 + 5; Ann 30 + 15 (7D) - 3 - 9 (QS tray); Cy 30 - 5 - 6 (JC tray).
    assert record["chips"] == [33, 41, 19]
    assert record["trays"] == {"10D": 0, "JC": 12, "QS": 18, "KH": 12, "7D": 0}
    assert record["changes"] == [-12, -4, -26]
    assert record["summary"] is True
    assert record["explanation"] == (
        "Bo called 10D “who takes” and took the 10 of Diamonds tray, 3 chips. "
        "Ann called 7D “who takes” and took the 7 of Diamonds (the Yellow Dwarf) tray, "
        "15 chips. Bo went out: Ann pays 3 (3 cards) and Cy pays 5 (5 cards). "
        "Cy kept JC: pays the Jack of Clubs tray what it holds, 6. "
        "Ann played without calling QS: pays the Queen of Spades tray what it holds, 9."
    )
    assert state["chips"] == [18, 26, 4]  # round 2's stakes taken
    assert state["trays"] == {"10D": 3, "JC": 18, "QS": 27, "KH": 24, "7D": 15}
    assert (state["round"], state["first"], state["turn"]) == (2, 1, 1)  # Bo starts round 2
    assert f"Round 1 : {with_suit_symbols(record['explanation'])}" in text(table.page())

    # Round 2: Cy goes out, called QS; Bo forgot 10D; the other taker cards were aside.
    ok(summary(table, 2, [2, 1, 0], {"QS": "called:2", "10D": "forgot:1"}))
    state = conserved(table)
    record = table.records()["rounds"][1]
    assert record["chips"] == [16, 22, 34]
    assert record["trays"] == {"10D": 6, "JC": 18, "QS": 0, "KH": 24, "7D": 15}
    assert state["chips"] == [1, 7, 19]
    assert state["trays"] == {"10D": 9, "JC": 24, "QS": 9, "KH": 36, "7D": 30}
    assert state["first"] == 2

    # A Grand Opera is only before the round's first card, and only the winner lays cards.
    assert (
        refused(summary(table, 0, [0, 15, 15], grand_opera=True, takers={"JC": "called:1"}))
        == "In a Grand Opera only Ann lays cards; JC is listed as laid by Bo."
    )
    assert refused(summary(table, 0, [0, 3, 15], grand_opera=True)) == (
        "In a Grand Opera nobody else lays a card, so Bo still holds all 15 cards; 3 entered."
    )
    # Round 3: Ann's Grand Opera; she called JC on the way; Bo kept KH.
    ok(
        summary(
            table,
            0,
            [0, 15, 15],
            grand_opera=True,
            takers={"JC": "called:0", "KH": "kept:1"},
        )
    )
    session = table.state()
    state = conserved(table)
    record = table.records()["rounds"][2]
    assert record["grand_opera"] is True
    # Ann 1 + 24 (JC) + 84 (every tray) + 7 (all Bo has of 15) + 15 (Cy); Bo's KH pays an
    # empty tray.
    assert record["chips"] == [131, 0, 4]
    assert record["trays"] == dict.fromkeys(TAKERS, 0)
    assert "Grand Opera: Ann takes all five trays (84 chips)." in record["explanation"]
    assert "Bo can pay only 7 of 15 (15 cards)" in record["explanation"]
    assert "Bo kept KH: pays the King of Hearts tray what it holds, 0." in record["explanation"]

    # Bo (0) and Cy (4) cannot pay round 4's stake: the game is over, Ann has the most chips.
    assert session["finished"] is True
    assert session["winners"] == [0]
    assert state["round"] == 3
    assert state["chips"] == [131, 0, 4]
    assert [(s["name"], s["score"], s["rank"]) for s in session["standings"]] == [
        ("Ann", 131, 1),
        ("Cy", 4, 2),
        ("Bo", 0, 3),
    ]
    assert session["ruling"].endswith(
        "Bo (0 chips) and Cy (4 chips) cannot pay the 15-chip stake for round 4. "
        "Game over: Ann wins with 131 chips."
    )
    page = table.page()
    assert re.search(r'<div class="alert ok winner" role="status">\s*Ann\s*wins!', page)
    assert f"Enter the round{APOS}s result" not in page  # nothing more to enter
    assert board_players(page) == [("Ann", 131, DASH), ("Bo", 0, DASH), ("Cy", 4, DASH)]
    results = text(client.get(f"{table.url}/results").get_data(as_text=True))
    assert "Ann" in results and "131" in results
    assert refused(summary(table, 1, [3, 0, 5])) == "The game is over."
    rows = client.get(f"{table.url}/export.csv").get_data(as_text=True).splitlines()[1:]
    assert [row.split(",")[1:6] for row in rows] == [
        ["1", "0", "Ann", "-12", "33"],
        ["1", "1", "Bo", "-4", "41"],
        ["1", "2", "Cy", "-26", "19"],
        ["2", "0", "Ann", "-17", "16"],
        ["2", "1", "Bo", "-19", "22"],
        ["2", "2", "Cy", "15", "34"],
        ["3", "0", "Ann", "115", "131"],
        ["3", "1", "Bo", "-22", "0"],
        ["3", "2", "Cy", "-30", "4"],
    ]


def test_the_session_settles_the_contract_example_as_the_judge_does(client: FlaskClient) -> None:
    """The judge's example is a 4-player round 1: the trays hold exactly its stakes."""
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    takers = {"JC": "forgot:1", "KH": "kept:1", "QS": "kept:2"}
    ok(summary(table, 0, [0, 2, 2, 1], takers))
    conserved(table)
    record = table.records()["rounds"][0]
    judged = client.post(
        "/api/v1/judge/yellow-dwarf/settle",
        json={
            "winner": 0,
            "trays": {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20},
            "hands": [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
            "forgot": [{"player": 1, "card": "JC"}],
            "grand_opera": False,
            "payout": "cards",
        },
    ).get_json()
    assert record["settled"] == judged["chips"] == [5, -26, -14, -1]
    assert record["trays"] == judged["trays"]
    assert record["chips"] == [40, 9, 21, 34]


# --- The variants ---------------------------------------------------------------------------


def test_the_points_payout_asks_each_hands_points_and_refuses_impossible_ones(
    client: FlaskClient,
) -> None:
    table = start(client, EIGHT, payout="points")
    assert "Payout: card points" in text(table.page())
    for card in ("AS", "2S", "3S", "4S", "5S"):
        act(table, type="play", card=card)
    act(table, type="without", rank="6")
    for card in ("6S", "7S", "8S", "9S", "10S", "JS"):  # Bo lays out the 6 cards dealt
        act(table, type="play", card=card)
    assert (
        "Bo is out: enter each player's points left in hand and the taker cards"
        in (table.state()["ruling"])
    )
    page = table.page()
    assert f"Points in hand: ace 1, 2{DASH}10 as marked, J/Q/K 10." in text(page)
    inputs = re.findall(r'<input type="text" id="left-(\d+)"', page)
    assert inputs == ["0", "2", "3", "4", "5", "6", "7"]  # everyone but Bo
    assert re.findall(r'<select id="taker-(\w+)"', page) == list(TAKERS)
    points = {"left-0": "10", "left-2": "15", "left-3": "20", "left-4": "6"}
    points |= {"left-5": "33", "left-6": "15", "left-7": "9", "taker-10D": "kept:2"}
    before = table.state()
    assert refused(table.act(type="reveal", **(points | {"left-0": "11"}))) == (
        "Ann has 1 card left, worth 1 to 10 points; 11 entered."
    )
    assert refused(table.act(type="reveal", **(points | {"left-2": "12"}))) == (
        "Cy has 6 cards left, 10D among them, worth 15 to 60 points; 12 entered."
    )
    assert refused(table.act(type="reveal", **(points | {"left-4": "61"}))) == (
        "Ed has 6 cards left, worth 6 to 60 points; 61 entered."
    )
    assert refused(table.act(type="reveal", **(points | {"left-7": ""}))) == (
        "Hal has 6 cards left, worth 6 to 60 points; 0 entered."
    )
    assert table.state() == before
    act(table, type="reveal", **points)
    session = table.state()
    conserved(table)
    record = table.records()["rounds"][0]
    assert record["left"] == [10, 0, 15, 20, 6, 33, 15, 9]
    # Bo: 35 + 108 points; Cy: 35 - 15 - 8 (pays the 10D tray what it holds).
    assert record["chips"] == [25, 143, 12, 15, 29, 2, 20, 26]
    assert record["trays"] == {"10D": 16, "JC": 16, "QS": 24, "KH": 32, "7D": 40}
    assert "Cy pays 15 (15 points in hand)" in record["explanation"]
    assert session["finished"] is True  # Cy (12) and Flo (2) cannot pay round 2's stake
    assert session["winners"] == [1]


def test_last_standing_a_player_who_cannot_pay_drops_out_and_the_game_goes_on(
    client: FlaskClient,
) -> None:
    names = ["Ann", "Bo", "Cy", "Di"]
    table = start(client, names, chips=30, game_end="last-standing")
    ok(summary(table, 0, [0, 1, 1, 5], {"7D": "called:1", "KH": "called:2"}))
    session = table.state()
    state = conserved(table)
    assert table.records()["rounds"][0]["chips"] == [22, 34, 30, 10]
    assert session["finished"] is False
    assert (
        "Di (10 chips) cannot pay the 15-chip stake and drops out, keeping their chips."
        in (session["ruling"])
    )
    assert state["active"] == [True, True, True, False]
    assert state["stakes"] == [15, 15, 15, 0]
    assert state["chips"] == [7, 19, 15, 10]
    assert state["trays"] == {"10D": 7, "JC": 14, "QS": 21, "KH": 12, "7D": 15}
    assert (state["round"], state["turn"]) == (2, 1)
    page = table.page()
    assert "15 cards each, 7 aside" in text(page)  # dealt to the 3 still in
    assert board_players(page) == [
        ("Ann", 7, "15"),
        ("Bo", 19, "15"),
        ("Cy", 15, "15"),
        ("Di", 10, "out"),
    ]
    assert 'name="winner" value="3"' not in page
    assert 'id="left-3"' not in page
    assert refused(summary(table, 3, [1, 1, 1, 0])) == "Di is out of the game and cannot go out."
    assert refused(summary(table, 1, [1, 0, 1, 2])) == (
        "Di is out of the game and has no cards left; 2 entered."
    )
    assert refused(summary(table, 1, [1, 0, 1], {"QS": "kept:3"})) == (
        "Di is out of the game and holds no cards."
    )

    # Card by card, the turn skips Di.
    act(table, type="play", card="5H")  # Bo
    act(table, type="without", rank="6")
    act(table, type="without", rank="6")  # Cy
    assert game(table)["turn"] == 0
    act(table, type="without", rank="6")  # Ann: back to Bo, at 7
    assert (game(table)["turn"], game(table)["required"]) == (1, 7)
    for _ in range(4):
        ok(table.post("/undo", {}))
    assert game(table)["laid"] == []

    ok(summary(table, 1, [8, 0, 1, 0]))
    session = table.state()
    state = conserved(table)
    rounds = table.records()["rounds"]
    assert rounds[1]["chips"] == [0, 27, 14, 10]
    assert "Ann can pay only 7 of 8 (8 cards)" in rounds[1]["explanation"]
    assert session["finished"] is True
    assert session["winners"] == [1]
    assert state["active"] == [False, True, False, False]
    assert session["ruling"].endswith(
        "Ann (0 chips) and Cy (14 chips) cannot pay the 15-chip stake and drop out, keeping "
        "their chips. Bo is the last player who can pay the stake. Game over: Bo wins with "
        "27 chips."
    )
    page = table.page()
    assert re.search(r"Bo\s*wins!", page)
    assert [(name, shown) for name, _, shown in board_players(page)] == [
        ("Ann", "out"),
        ("Bo", DASH),
        ("Cy", "out"),
        ("Di", "out"),
    ]


# --- History, undo, export ------------------------------------------------------------------


def test_undo_and_redo_restore_the_chips_and_the_trays(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    lay_taker(table, "10D", called=True)
    assert game(table)["chips"] == [39, 35, 35, 35]
    ok(table.post("/undo", {}))
    state = conserved(table)
    assert state["chips"] == [35] * 4
    assert state["trays"] == {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20}
    assert state["laid"] == [] and state["takings"] == []
    history = client.get(f"{table.url}/history").get_data(as_text=True)
    assert '<li class="undone">' in history
    assert "10♦, called" in history
    ok(table.post("/redo", {}))
    assert conserved(table)["chips"] == [39, 35, 35, 35]
    ok(table.post("/undo", {}))

    ok(summary(table, 2, [3, 4, 0, 5], {"7D": "called:0", "JC": "kept:3"}))
    settled = table.state()
    # Ann 35 + 20 (7D) - 3; Di 35 - 5 - 8 (pays the JC tray what it holds); Cy 35 + 12.
    assert table.records()["rounds"][0]["chips"] == [52, 31, 47, 22]
    assert settled["state"]["round"] == 2
    assert settled["state"]["chips"] == [37, 16, 32, 7]
    ok(table.post("/undo", {}))
    state = conserved(table)
    assert table.records()["rounds"] == [] and state["round"] == 1
    assert state["chips"] == [35] * 4
    assert state["trays"] == {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20}
    ok(table.post("/redo", {}))
    assert table.state()["state"] == settled["state"]


def test_export_import_and_csv_of_a_yellow_dwarf_session(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"], chips=60)
    ok(summary(table, 0, [0, 2, 2, 1], {"JC": "forgot:1", "KH": "kept:1", "QS": "kept:2"}))
    lay_taker(table, "10D", called=False)
    act(table, type="play", card="JD")
    ok(table.post("/undo", {}))  # an undone event travels too
    exported = client.get(f"{table.url}/export.json").get_json()
    assert exported["game"] == "yellow-dwarf"
    assert exported["options"] == {
        "starting_chips": 60,
        "payout": "cards",
        "game_end": "first-broke",
    }
    response = client.post(
        "/api/v1/sessions/import", data=json.dumps(exported), content_type="application/json"
    )
    assert response.status_code == 201
    imported = response.get_json()
    original = table.state()
    assert imported["state"] == original["state"]
    assert imported["can_redo"] is True
    again = client.get(f"/api/v1/sessions/{imported['id']}/export").get_json()
    assert again == exported

    rows = list(csv.DictReader(io.StringIO(client.get(f"{table.url}/export.csv").get_data(True))))
    assert len(rows) == 4  # one round settled: a row per seat
    assert [
        [row[key] for key in ("game", "round", "seat", "player", "points")] for row in rows
    ] == [
        ["Yellow Dwarf", "1", "0", "Ann", "-10"],
        ["Yellow Dwarf", "1", "1", "Bo", "-41"],
        ["Yellow Dwarf", "1", "2", "Cy", "-29"],
        ["Yellow Dwarf", "1", "3", "Di", "-16"],
    ]
    assert [row["running_total"] for row in rows] == ["50", "19", "31", "44"]
    # The notes write the cards as the pages draw them: the J♣ tray, not the JC tray.
    assert [row["note"].replace(MINUS, "-") for row in rows] == [
        "-15 stake; +5 went out",
        "-15 stake; -2 to Ann (2 cards); -16 to the K♥ tray (kept K♥); "
        "-8 to the J♣ tray (played without calling J♣)",
        "-15 stake; -2 to Ann (2 cards); -12 to the Q♠ tray (kept Q♠)",
        "-15 stake; -1 to Ann (1 card)",
    ]
    assert MINUS in rows[0]["note"]


def test_a_viewer_without_edit_rights_cannot_record(client: FlaskClient, app: Flask) -> None:
    table = start(client, ["Ann", "Bo", "Cy"])
    before = table.state()
    viewer = app.test_client()
    page = viewer.get(table.url).get_data(as_text=True)
    assert "You are watching" in page
    assert 'name="card"' not in page
    form = {"version": before["version"], "form_key": "v1"}
    assert (
        viewer.post(f"{table.url}/action", data=form | {"type": "play", "card": "8H"}).status_code
        == 403
    )
    assert (
        viewer.post(
            f"{table.url}/action", data=form | {"type": "play", "card": "10D", "called": "1"}
        ).status_code
        == 403
    )
    assert (
        viewer.post(f"{table.url}/action", data=form | {"type": "round", "winner": "0"}).status_code
        == 403
    )
    assert viewer.post(f"{table.url}/undo", data=form).status_code == 403
    assert table.state() == before


def test_a_grand_opera_laid_card_by_card_takes_every_tray(client: FlaskClient) -> None:
    table = start(client, EIGHT)
    act(table, type="play", card="9H")
    lay_taker(table, "10D", called=True)
    lay_taker(table, "JC", called=True)
    lay_taker(table, "QS", called=False)
    lay_taker(table, "KH", called=True)  # after the king Ann starts again: the Yellow Dwarf
    lay_taker(table, "7D", called=True)
    # Every taker card is laid and the payout is a chip a card: the reveal asks nothing, so
    # it is recorded with Ann's last card.
    assert live_log(table)[-2:] == ["7D, called", "reveal"]
    conserved(table)
    record = table.records()["rounds"][0]
    assert record["grand_opera"] is True
    # Ann takes the QS tray's 24 and 6 chips from each other hand; the forgotten QS then pays
    # its tray what it holds: nothing.
    assert record["chips"] == [197] + [29] * 7
    assert record["trays"] == dict.fromkeys(TAKERS, 0)
    assert record["explanation"].startswith(
        "Grand Opera: Ann takes all five trays (24 chips). Ann went out: Bo pays 6 (6 cards)"
    )
    assert record["explanation"].endswith(
        "Ann played without calling QS: pays the Queen of Spades tray what it holds, 0."
    )
    assert "Round 1 (Grand Opera): Grand Opera: Ann takes all five trays" in text(table.page())


# --- App bugs found while writing these tests (see the reasons) ------------------------------


def test_a_stale_tap_on_a_taker_card_is_caught_like_any_other_card(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy", "Di"])
    act(table, type="play", card="9H")
    stale = table.state()["version"]  # a second phone shows "Ann lays a 10"
    act(table, type="without", rank="10")  # the first phone: Ann has no 10, Bo's turn
    assert table.post("/action", {"type": "play", "card": "10S"}, stale).status_code == 409
    assert table.post("/action", {"type": "play", "card": "10D"}, stale).status_code == 409


def test_a_taker_card_tapped_after_a_player_went_out_is_refused_with_a_sentence(
    client: FlaskClient,
) -> None:
    table = start(client, EIGHT)
    for card in ("AS", "2S", "3S", "4S", "5S", "6S"):
        act(table, type="play", card=card)
    assert refused(table.act(type="play", card="8D")) == (
        "Ann went out: enter the hands (reveal) to settle the round first."
    )
    assert refused(table.act(type="play", card="10D")) == (
        "Ann went out: enter the hands (reveal) to settle the round first."
    )


def test_the_rank_due_is_written_with_its_article(client: FlaskClient) -> None:
    table = start(client, ["Ann", "Bo", "Cy"])
    act(table, type="play", card="7H")
    assert "Ann: lay an 8 or say “without 8”." in table.state()["ruling"]
    shown = text(table.page())
    assert "Ann goes on: the next card must be an 8." in shown
    assert "Ann lays an 8: tap it" in shown


def test_the_points_reveal_counts_one_card_in_the_singular(client: FlaskClient) -> None:
    table = start(client, EIGHT, payout="points")
    for card in ("AS", "2S", "3S", "4S", "5S"):
        act(table, type="play", card=card)
    act(table, type="without", rank="6")
    for card in ("6S", "7S", "8S", "9S", "10S", "JS"):
        act(table, type="play", card=card)
    shown = text(table.page())
    assert "Cy 6 cards" in shown
    assert "Ann 1 card " in shown


def test_a_refused_rounds_result_comes_back_with_its_taker_choices_and_grand_opera_kept(
    client: FlaskClient,
) -> None:
    table = start(client, ["Ann", "Bo", "Cy"])
    takers = {"10D": "called:1", "JC": "kept:2", "QS": "forgot:0"}
    response = summary(table, 1, [3, 2, 5], takers, grand_opera=True)
    assert refused(response) == "In a Grand Opera only Bo lays cards; QS is listed as laid by Ann."
    page = response.get_data(as_text=True)
    selects = {
        card: re.findall(r'<option value="([^"]*)" selected>', select)
        for card, select in re.findall(r'<select id="taker-(\w+)"[^>]*>(.*?)</select>', page, re.S)
    }
    chosen = {"10D": ["called:1"], "JC": ["kept:2"], "QS": ["forgot:0"], "KH": [], "7D": []}
    assert selects == chosen
    assert re.search(r'name="grand_opera" value="1" checked', page)
    assert table.state()["version"] == 0
