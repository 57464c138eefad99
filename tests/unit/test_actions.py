"""Every game's actions, declared once: JSON round trips and the refusals players read."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Annotated, Any, Literal

import pytest
from pydantic import BeforeValidator, with_config

from scorekeeper.games import GAMES
from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask
from scorekeeper.games.base import IllegalAction

# Every action type of every game, as stored in an event log (optional fields both ways).
STORED: dict[str, list[dict[str, Any]]] = {
    "yardkle": [
        {"type": "roll", "dice": [1, 5, 5, 2, 3, 4]},
        {"type": "keep", "dice": [1, 5], "bank": False},
        {"type": "keep", "dice": [5], "bank": True},
        {"type": "bank"},
        {"type": "total", "points": 350},
    ],
    "yokai-septet": [
        {"type": "trump", "card": "blue 9"},
        {"type": "first-lead", "seat": 2},
        {"type": "pass"},
        {"type": "play", "card": "green 1"},
        {
            "type": "result",
            "team": 1,
            "how": "four-boss",
            "boss": ["red 7", "blue 7", "pink 7", "green 7"],
        },
        {"type": "revoke", "flag": 0, "accept": True, "penalty": 2},
    ],
    "cryptruck": [
        {"type": "reveal", "card": "white 3"},
        {"type": "dealer-card", "card": "red 5"},
        {"type": "bid", "want": True},
        {"type": "give", "card": "green 1"},
        {"type": "give"},
        {"type": "play", "card": "red 4"},
        {"type": "won", "cards": [["red 3", "white 3"], [], ["blue 4"]]},
        {"type": "revoke", "flag": 1, "accept": False, "penalty": 0},
    ],
    "yadokarick": [
        {"type": "play", "card": "green 25", "size": 3},
        {"type": "play", "card": "green 25"},
        {"type": "marker", "move": "left"},
        {"type": "draw", "card": "pink 18", "size": 2},
        {"type": "draw", "card": "pink 18"},
        {"type": "take", "card": "green 25", "crab": 2},
        {"type": "bonus", "card": "pink 18"},
        {"type": "give-up", "crab": 1},
    ],
    "yellow-dwarf": [
        {"type": "play", "card": "10D", "called": True},
        {"type": "play", "card": "3H"},
        {"type": "without", "rank": "Q"},
        {"type": "without"},
        {"type": "reveal", "left": [0, 3, 2], "kept": [{"player": 1, "card": "JC"}]},
        {"type": "reveal", "kept": []},
        {
            "type": "round",
            "winner": 0,
            "left": [0, 2, 5],
            "kept": [{"player": 2, "card": "QS"}],
            "played": [{"player": 1, "card": "KH", "called": True}],
            "grand_opera": False,
        },
    ],
    "score-sheet": [
        {"type": "round", "points": [12, -4, 0]},
        {"type": "finish"},
    ],
}


def test_every_action_type_of_every_game_has_a_stored_example() -> None:
    assert set(STORED) == set(GAMES)
    for slug, game in GAMES.items():
        assert {data["type"] for data in STORED[slug]} == set(game.actions.types), slug


@pytest.mark.parametrize(
    ("slug", "data"),
    [(slug, data) for slug, stored in STORED.items() for data in stored],
    ids=lambda value: value if isinstance(value, str) else value["type"],
)
def test_a_stored_action_round_trips_to_the_same_json_and_the_same_action(
    slug: str, data: dict[str, Any]
) -> None:
    game = GAMES[slug]
    action = game.parse_action(data)
    written = game.action_to_json(action)
    assert written == data
    # Key order too: "type" first, then the fields in their declared order, as stored today.
    assert list(written) == list(data)
    assert game.parse_action(written) == action


def test_input_is_written_back_in_its_stored_form() -> None:
    yadokarick, dwarf = GAMES["yadokarick"], GAMES["yellow-dwarf"]
    take = yadokarick.parse_action({"type": "take", "card": "Green-25", "crab": "2"})
    assert yadokarick.action_to_json(take) == {"type": "take", "card": "green 25", "crab": 2}
    without = dwarf.parse_action({"type": "without", "rank": 12})
    assert dwarf.action_to_json(without) == {"type": "without", "rank": "Q"}
    give = GAMES["cryptruck"].parse_action({"type": "give", "card": " "})
    assert GAMES["cryptruck"].action_to_json(give) == {"type": "give"}


def refusal(slug: str, data: object) -> tuple[str, str | None]:
    with pytest.raises(IllegalAction) as caught:
        GAMES[slug].parse_action(data)  # type: ignore[arg-type]
    return caught.value.message, caught.value.field


YARDKLE_TYPES = "the type is roll, keep, bank or total."


@pytest.mark.parametrize(
    ("slug", "data", "message", "where"),
    [
        # An unknown type, no type, not an object.
        ("yardkle", {"type": "jump"}, f"Unknown action (type 'jump'): {YARDKLE_TYPES}", "type"),
        ("yardkle", {}, f"Unknown action (no type): {YARDKLE_TYPES}", "type"),
        ("yardkle", {"type": 5}, f"Unknown action (type 5): {YARDKLE_TYPES}", "type"),
        ("yardkle", ["roll"], "An action is an object with a type.", "type"),
        (
            "cryptruck",
            {"type": "trump"},
            "Unknown action (type 'trump'): the type is reveal, dealer-card, bid, give, play, "
            "won or revoke.",
            "type",
        ),
        # A field the type does not have: every one is named, the first is the field.
        ("yardkle", {"type": "bank", "dice": [1]}, "A bank action has no field 'dice'.", "dice"),
        (
            "yardkle",
            {"type": "roll", "dice": [1], "zz": 1, "aa": 2},
            "A roll action has no field 'aa' and 'zz'.",
            "aa",
        ),
        (
            "yadokarick",
            {"type": "give-up", "crab": 1, "card": "green 25"},
            "A give-up action has no field 'card'.",
            "card",
        ),
        # A required field missing: the sentence asks for it.
        ("yardkle", {"type": "roll"}, "Enter the dice rolled.", "dice"),
        ("yardkle", {"type": "total"}, "Enter the turn total.", "points"),
        (
            "yokai-septet",
            {"type": "result", "team": 0, "how": "four-boss"},
            "Enter the winners' Boss Yokai.",
            "boss",
        ),
        (
            "cryptruck",
            {"type": "revoke", "flag": 0},
            "Enter whether the revoke is accepted.",
            "accept",
        ),
        ("cryptruck", {"type": "play"}, "Enter the card played.", "card"),
        (
            "yadokarick",
            {"type": "take", "card": "green 25"},
            "Enter the crab, 1 to 4 from the left.",
            "crab",
        ),
        ("yellow-dwarf", {"type": "round", "winner": 0}, "Enter what each seat has left.", "left"),
        # A value of the wrong type: the engine's own sentence.
        (
            "yardkle",
            {"type": "keep", "dice": [1], "bank": "yes"},
            "bank must be true or false.",
            "bank",
        ),
        (
            "cryptruck",
            {"type": "bid", "want": "yes"},
            "want must be true (wants the card) or false (passes).",
            "want",
        ),
        (
            "yellow-dwarf",
            {"type": "round", "winner": 0, "left": [0], "grand_opera": "no"},
            "“grand_opera” must be true or false.",
            "grand_opera",
        ),
        (
            "yokai-septet",
            {"type": "first-lead", "seat": 4},
            "Seats are numbered 0 to 3 in table order; there is no seat 4.",
            "seat",
        ),
        (
            "yokai-septet",
            {"type": "revoke", "flag": 0, "accept": True, "penalty": 8},
            "A revoke penalty is 0 to 7 points; you entered 8.",
            "penalty",
        ),
        (
            "yellow-dwarf",
            {"type": "reveal", "kept": [{"player": 1, "card": "JC", "x": 1}]},
            "Entry 0 of “kept” has no field 'x'.",
            "kept.0.x",
        ),
    ],
)
def test_a_refused_action_keeps_its_sentence_and_field(
    slug: str, data: object, message: str, where: str
) -> None:
    assert refusal(slug, data) == (message, where)


def test_a_shared_declaration_reads_its_games_deck() -> None:
    # The play action is declared once (trickplay.Play); the deck is the game's.
    assert str(GAMES["yokai-septet"].parse_action({"type": "play", "card": "black 5"}).card) == (
        "black 5"
    )
    message, where = refusal("cryptruck", {"type": "play", "card": "black 5"})
    assert where == "card"
    assert "Cryptruck has no black cards" in message


# A declaration made here, to prove what ActionSet draws from one.


def _name(raw: object) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise IllegalAction("Name the ghost.", "name")
    return raw.strip()


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Haunt:
    """A ghost haunts a seat."""

    type: Literal["haunt"] = field(default="haunt", kw_only=True, repr=False)
    name: Annotated[str, Ask("the ghost's name"), BeforeValidator(_name)]
    seat: int = 0


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Vanish:
    type: Literal["vanish"] = field(default="vanish", kw_only=True, repr=False)


GHOSTS: ActionSet[Haunt | Vanish] = ActionSet(Haunt | Vanish)


def test_an_action_set_takes_parsing_json_and_schema_from_the_declarations() -> None:
    assert GHOSTS.types == ("haunt", "vanish")
    assert GHOSTS.parse({"type": "haunt", "name": " Oiwa "}) == Haunt("Oiwa")
    assert GHOSTS.to_json(Haunt("Oiwa", 2)) == {"type": "haunt", "name": "Oiwa", "seat": 2}
    with pytest.raises(IllegalAction) as caught:
        GHOSTS.parse({"type": "haunt"})
    assert (caught.value.message, caught.value.field) == ("Enter the ghost's name.", "name")
    # A field declared without a parser of its own is refused in pydantic's words.
    with pytest.raises(IllegalAction) as caught:
        GHOSTS.parse({"type": "haunt", "name": "Oiwa", "seat": "many"})
    assert (caught.value.message, caught.value.field) == (
        "seat: Input should be a valid integer, unable to parse string as an integer.",
        "seat",
    )
    # Any mapping is an object, as JSON and form input are.
    assert GHOSTS.parse(MappingProxyType({"type": "vanish"})) == Vanish()
    schema = GHOSTS.json_schema("#/$defs/{model}")
    haunt = schema["$defs"]["Haunt"]
    assert haunt["title"] == "haunt"
    assert list(haunt["properties"]) == [each.name for each in fields(Haunt)]
    assert haunt["properties"]["type"] == {"const": "haunt"}
    assert haunt["required"] == ["type", "name"]
    assert haunt["additionalProperties"] is False
    assert schema["$defs"]["Vanish"]["required"] == ["type"]
