"""Who starts the next game at the same table ("Play again"): each game's rule sheet, as
its engine's ``rematch_options`` reads it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.games import GAMES
from scorekeeper.games.base import resolve_options

FOUR = ("Ann", "Bo", "Cy", "Di")


def rematch(slug: str, seats: tuple[str, ...], **given: object) -> dict[str, object]:
    game = GAMES[slug]
    return dict(game.rematch_options(resolve_options(game.options, given), seats))


@pytest.mark.parametrize(
    ("seats", "first_dealer", "next_dealer"),
    [
        # Three rounds, the deal passing clockwise: the next game's first dealer sits left of
        # the dealer of round 3.
        (FOUR, 0, 3),
        (FOUR, 1, 0),
        (FOUR[:3], 2, 2),  # three players, three rounds: each dealt once, the deal comes back
        ((*FOUR, "Ed"), 4, 2),
    ],
)
def test_cryptruck_deals_on_from_the_dealer_of_the_last_round(
    seats: tuple[str, ...], first_dealer: int, next_dealer: int
) -> None:
    colours = ["red", "yellow", "green", "blue", "purple"][: len(seats)]
    options = rematch("cryptruck", seats, first_dealer=first_dealer, colours=colours)
    assert options["first_dealer"] == next_dealer
    assert options["colours"] == tuple(colours)


@pytest.mark.parametrize(
    ("seats", "rounds", "first_dealer", "next_dealer"),
    [
        (FOUR, 1, 0, 1),
        (FOUR, 3, 2, 1),
        (FOUR[:3], 4, 1, 2),
        ((*FOUR, "Ed", "Flo", "Gus"), 10, 6, 2),
    ],
)
def test_yadokarick_deals_on_from_the_dealer_of_the_last_round(
    seats: tuple[str, ...], rounds: int, first_dealer: int, next_dealer: int
) -> None:
    options = rematch("yadokarick", seats, rounds=rounds, first_dealer=first_dealer)
    assert (options["first_dealer"], options["rounds"]) == (next_dealer, rounds)


@pytest.mark.parametrize("seats", [("Ann",), ("Ann", "Bo")], ids=["solo", "npc crab"])
def test_yadokarick_without_a_dealer_keeps_its_options(seats: tuple[str, ...]) -> None:
    given = {"rounds": 1, "npc_position": 2, "colour": "pink"}
    game = GAMES["yadokarick"]
    assert rematch("yadokarick", seats, **given) == resolve_options(game.options, given)


@pytest.mark.parametrize(
    ("slug", "seats", "given"),
    [
        ("yardkle", FOUR[:2], {"entry_threshold": 350, "winning_score": 5000}),
        ("yellow-dwarf", FOUR[:3], {"starting_chips": 30, "payout": "points"}),
        ("yokai-septet", FOUR, {"team_a": "Foxes", "team_b": ""}),
        ("score-sheet", FOUR[:2], {"game_name": "Hearts", "winner": "lowest", "target": 100}),
    ],
)
def test_a_game_whose_sheet_moves_no_first_player_keeps_its_options(
    slug: str, seats: tuple[str, ...], given: dict[str, object]
) -> None:
    game = GAMES[slug]
    assert rematch(slug, seats, **given) == resolve_options(game.options, given)


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_rematchs_options_are_every_option_of_the_game_as_checked(slug: str) -> None:
    game = GAMES[slug]
    seats = FOUR[: max(game.min_players, min(4, game.max_players))]
    options = game.rematch_options(resolve_options(game.options, {}), seats)
    assert resolve_options(game.options, options) == options
    assert game.start(seats, options).players[: len(seats)] == seats


def first_seat(slug: str, seats: tuple[str, ...], **changed: object) -> int:
    """Who sits first in the next game after a state of ``slug`` (``changed`` set in it)."""
    game = GAMES[slug]
    state = game.start(seats, resolve_options(game.options, {}))
    return game.rematch_first_seat(replace(state, **changed))


@pytest.mark.parametrize(("seats", "first"), [(FOUR, 1), (FOUR[:2], 1), (FOUR[:1], 0)])
def test_yardkle_passes_the_first_turn_to_the_player_after_this_games_first(
    seats: tuple[str, ...], first: int
) -> None:
    assert first_seat("yardkle", seats) == first


@pytest.mark.parametrize(("last_round_first", "first"), [(0, 1), (2, 3), (3, 0)])
def test_yellow_dwarf_goes_on_from_the_seat_after_the_last_rounds_first_player(
    last_round_first: int, first: int
) -> None:
    assert first_seat("yellow-dwarf", FOUR, first=last_round_first) == first


@pytest.mark.parametrize(
    ("slug", "seats"),
    [
        ("cryptruck", FOUR),  # the options move the dealer on
        ("yadokarick", FOUR),
        ("yokai-septet", FOUR),  # the green 1 leads, wherever it is
        ("score-sheet", FOUR[:2]),
    ],
)
def test_a_game_that_starts_by_its_options_or_its_cards_keeps_the_seats_in_order(
    slug: str, seats: tuple[str, ...]
) -> None:
    assert first_seat(slug, seats) == 0
