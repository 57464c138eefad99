"""The engine base: its defaults, its dispatch of each action to its handler, and the
values a game declares it lists, proved on a tiny game defined here and on the registry."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import pytest
from pydantic import with_config

from scorekeeper.games import GAMES, listed_values, merge_listed
from scorekeeper.games.actions import ACTION_CONFIG, ActionSet
from scorekeeper.games.base import (
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    int_option,
    rank_by_score,
)
from scorekeeper.games.engine import CARDS, CHOICES, Engine, Handler, Handlers, Listed, on
from scorekeeper.games.records import evolve

# --- A coin-flip game: the first to throw ``target`` heads wins ------------------------


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Flip:
    type: Literal["flip"] = field(default="flip", kw_only=True, repr=False)
    heads: bool


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Shrug:
    """Declared, so it parses, but handled by nobody: applying it is refused."""

    type: Literal["shrug"] = field(default="shrug", kw_only=True, repr=False)


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Cheat:
    type: Literal["cheat"] = field(default="cheat", kw_only=True, repr=False)


@dataclass(frozen=True)
class CoinState:
    players: tuple[str, ...]
    target: int
    heads: tuple[int, ...]
    turn: int
    finished: bool
    last_ruling: str


def apply_flip(state: CoinState, flip: Flip) -> CoinState:
    name = state.players[state.turn]
    if not flip.heads:
        turn = (state.turn + 1) % len(state.players)
        return evolve(state, turn=turn, last_ruling=f"Tails: {state.players[turn]} flips.")
    heads = tuple(count + (seat == state.turn) for seat, count in enumerate(state.heads))
    won = heads[state.turn] >= state.target
    ruling = f"{name} wins." if won else f"Heads: {name} flips again."
    return evolve(state, heads=heads, finished=won, last_ruling=ruling)


COIN_ACTIONS: ActionSet[Flip | Shrug] = ActionSet(Flip | Shrug)


class CoinFlip(Engine[CoinState, Flip | Shrug]):
    slug = "coin-flip"
    title = "Coin flip"
    min_players = 2
    max_players = 3
    options = (OptionSpec("target", "Heads to win", "int", 2, minimum=1, maximum=5),)
    actions = COIN_ACTIONS
    handlers = (on(Flip, apply_flip, lambda flip: "heads" if flip.heads else "tails"),)
    listed = (CHOICES,)

    def first_state(
        self, players: tuple[str, ...], options: Mapping[str, OptionValue]
    ) -> CoinState:
        zeros = (0,) * len(players)
        return CoinState(players, int_option(options, "target"), zeros, 0, False, "Flip.")

    def expected_actions(self, state: CoinState) -> Expected:
        if state.finished:
            return NOTHING_EXPECTED
        return Expected(state.turn, (Accepts("flip", choices=(True, False)),))

    def standings(self, state: CoinState) -> list[Standing]:
        return rank_by_score(state.players, state.heads)

    def score_rows(self, state: CoinState) -> list[ScoreRow]:
        return []


COIN = CoinFlip()


def flips(*sides: bool, players: tuple[str, ...] = ("Ann", "Bo")) -> CoinState:
    state = COIN.start(players, {})
    for heads in sides:
        state = COIN.apply(state, Flip(heads))
    return state


# --- Dispatch ----------------------------------------------------------------------------


def test_each_action_goes_to_the_handler_of_its_class_for_applying_and_describing() -> None:
    state = flips(True, False)
    assert (state.heads, state.turn, COIN.ruling(state)) == ((1, 0), 1, "Tails: Bo flips.")
    assert [COIN.describe(Flip(True)), COIN.describe(Flip(False))] == ["heads", "tails"]


def test_an_action_with_no_handler_is_refused_naming_the_types_handled() -> None:
    state = flips()
    shrug = COIN.parse_action({"type": "shrug"})
    for refused in (lambda: COIN.apply(state, shrug), lambda: COIN.describe(shrug)):
        with pytest.raises(IllegalAction) as error:
            refused()
        assert (error.value.message, error.value.field) == (
            "Unknown action: the type is flip.",
            "type",
        )


def test_a_handler_for_an_undeclared_action_or_a_second_handler_is_a_declaration_error() -> None:
    flip: Handler[CoinState] = on(Flip, apply_flip, lambda _flip: "flip")
    with pytest.raises(TypeError, match="Cheat has a handler but is not one of the declared"):
        Handlers([flip, on(Cheat, lambda state, _cheat: state, lambda _cheat: "")], COIN_ACTIONS)
    with pytest.raises(TypeError, match="Flip has two handlers"):
        Handlers([flip, flip], COIN_ACTIONS)


def test_every_registered_game_handles_every_action_it_declares() -> None:
    for game in GAMES.values():
        handled = {handler.action for handler in game.handlers}
        assert handled == set(game.actions.declarations), game.slug


# --- Defaults ----------------------------------------------------------------------------


def test_start_refuses_a_number_of_players_the_game_does_not_take_in_a_sentence() -> None:
    for players in (["Ann"], ["Ann", "Bo", "Cy", "Di"]):
        with pytest.raises(IllegalAction) as error:
            COIN.start(players, {})
        assert (error.value.message, error.value.field) == (
            f"Coin flip is for 2 to 3 players; you entered {len(players)}.",
            "players",
        )


def test_start_hands_the_first_state_every_option_checked() -> None:
    assert COIN.start(["Ann", "Bo", "Cy"], {"target": "4"}).target == 4
    assert COIN.start(["Ann", "Bo"], {}).target == 2
    with pytest.raises(IllegalAction) as error:
        COIN.start(["Ann", "Bo"], {"target": 9})
    assert (error.value.message, error.value.field) == (
        "Heads to win must be at most 5.",
        "options.target",
    )


def test_actions_are_parsed_and_written_through_the_games_action_set() -> None:
    assert COIN.parse_action({"type": "flip", "heads": True}) == Flip(True)
    assert COIN.action_to_json(Flip(False)) == {"type": "flip", "heads": False}


def test_the_ruling_and_the_end_are_read_off_the_state() -> None:
    playing, won = flips(True), flips(True, True)
    assert (COIN.ruling(playing), COIN.is_finished(playing)) == ("Heads: Ann flips again.", False)
    assert (COIN.ruling(won), COIN.is_finished(won)) == ("Ann wins.", True)


def test_the_winners_are_the_seats_ranked_first_once_the_game_is_over_and_none_before() -> None:
    assert COIN.winners(flips(False, True)) == []
    assert COIN.winners(flips(False, True, True)) == [1]
    tied = evolve(flips(), heads=(2, 2), finished=True)
    assert COIN.winners(tied) == [0, 1]


def test_a_game_over_at_the_end_refuses_any_action_after_it_before_its_handler() -> None:
    won = flips(True, True)
    # The coin flip's handler would count another head for the winner...
    assert COIN.apply(won, Flip(True)).heads == (3, 0)

    class CoinFlipOverAtTheEnd(CoinFlip):
        over_at_the_end = True

    game = CoinFlipOverAtTheEnd()
    # ...a game over at the end refuses it in one sentence, and leaves play before it alone.
    with pytest.raises(IllegalAction) as error:
        game.apply(won, Flip(True))
    assert (error.value.message, error.value.field) == ("The game is over.", None)
    assert game.apply(flips(True), Flip(True)) == won


def test_play_again_keeps_the_options_and_the_seats_in_order_by_default() -> None:
    assert COIN.rematch_options({"target": "3"}, ["Ann", "Bo"]) == {"target": 3}
    assert COIN.rematch_options({}, ["Ann", "Bo"]) == {"target": 2}
    assert COIN.rematch_first_seat(flips(True, True)) == 0


# --- Listed values -----------------------------------------------------------------------


def test_expected_passes_the_lists_the_game_declares() -> None:
    assert COIN.expected(flips()) == Expected(0, (Accepts("flip", choices=(True, False)),))
    assert COIN.expected(flips(True, True)) == NOTHING_EXPECTED


def test_expected_refuses_a_list_the_game_did_not_declare(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    cards = Expected(0, (Accepts("flip", cards=("heads",)),))
    monkeypatch.setattr(COIN, "expected_actions", lambda _state: cards)
    with pytest.raises(TypeError, match="coin-flip lists 'cards', which it does not declare"):
        COIN.expected(flips())


def test_the_listed_values_merge_every_games_declarations_in_registry_order() -> None:
    merged = listed_values()
    assert list(merged) == ["choices", "cards", "moves", "crabs", "sizes", "ranks"]
    assert merged["cards"] is CARDS and merged["choices"] is CHOICES
    assert merged["crabs"].item is int
    declared = {kind.name for game in GAMES.values() for kind in game.listed}
    assert declared == set(merged)


def test_one_name_declared_otherwise_by_two_games_is_an_error() -> None:
    numbered = Listed("cards", int, "The cards, by number.")

    class NumberedCoins(CoinFlip):
        slug = "numbered-coins"
        listed = (numbered,)

    assert merge_listed([COIN, NumberedCoins()]) == {"choices": CHOICES, "cards": numbered}
    with pytest.raises(TypeError, match="numbered-coins declares the listed values 'cards'"):
        merge_listed([GAMES["yokai-septet"], NumberedCoins()])


def test_a_list_is_named_as_a_keyword_that_is_not_a_field_of_accepts() -> None:
    for name in ("type", "lists", "give-up", ""):
        with pytest.raises(ValueError, match="cannot name a list of accepted values"):
            Listed(name, str, "")


# --- Accepts -----------------------------------------------------------------------------


def test_accepts_lists_its_values_in_the_order_given_and_leaves_none_out() -> None:
    accepts = Accepts("play", cards=("red 1", "blue 2"), sizes=None, choices=(True, False))
    assert accepts.lists == (("cards", ("red 1", "blue 2")), ("choices", (True, False)))
    assert accepts.to_json() == {
        "type": "play",
        "cards": ["red 1", "blue 2"],
        "choices": [True, False],
    }
    assert list(Accepts("play", choices=(1,), cards=("red 1",)).to_json()) == [
        "type",
        "choices",
        "cards",
    ]


def test_a_list_is_read_by_its_name_and_is_none_when_not_listed() -> None:
    accepts = Accepts("take", cards=("green 3",), crabs=(1, 4))
    assert (accepts.cards, accepts.crabs, accepts.listed("crabs")) == (("green 3",), (1, 4), (1, 4))
    assert (accepts.sizes, accepts.listed("choices")) == (None, None)
    with pytest.raises(AttributeError):
        accepts._private  # noqa: B018
    assert copy.deepcopy(accepts) == accepts
    assert hash(accepts) == hash(Accepts("take", cards=("green 3",), crabs=(1, 4)))
