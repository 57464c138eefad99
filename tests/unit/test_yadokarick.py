"""Yadokarick engine: tricks as played, houses, roofs, the marker, scoring, the NPC game, replay."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yadokarick.npc import NPC_SEAT, npc_score
from scorekeeper.games.yadokarick.rules import (
    GAME,
    Action,
    House,
    MarkerMove,
    Move,
    Play,
    State,
    dealer_of,
    expected,
    expected_actions,
    is_roof,
    mode,
    picker_deck,
    played_cards,
    played_this_round,
    player_seats,
    score_house,
    solo,
    trick_at_table,
    trick_number,
    turn_seat,
    usable_cards,
)

FOUR = ("Ann", "Bo", "Cy", "Di")
FIVE = ("Ann", "Bo", "Cy", "Di", "Ed")
SIX = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo")
TWO = ("Ann", "Bo")

Entry = tuple[str, int | None]


def shown(text: str) -> str:
    """A ruling as the engine writes it: the minus sign, not a hyphen."""
    return text.replace("-", "\u2212")


def c(text: str) -> Card:
    return YADOKARICK.parse(text, "card")


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(c(text) for text in texts)


def new_game(players: Sequence[str] = FOUR, **options: object) -> State:
    state: State = GAME.start(players, options)  # type: ignore[arg-type]
    return state


def act(state: State, *actions: Action) -> State:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def plays(state: State, *entries: Entry) -> State:
    """Cards in play order from whoever's turn it is, each with its size (None: known)."""
    return act(state, *(Play(c(card), size) for card, size in entries))


def moves(state: State, *chosen: Move) -> State:
    return act(state, *(MarkerMove(move) for move in chosen))


def trick(state: State, *entries: Entry, move: Move = "stay") -> State:
    """A whole trick, then every mover makes the same move."""
    state = plays(state, *entries)
    while expected(state) == "marker":
        state = moves(state, move)
    return state


def refused(state: State, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    return caught.value


def refused_start(players: Sequence[str], **options: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.start(players, options)  # type: ignore[arg-type]
    return caught.value


def seat_cards(state: State, seat: int) -> tuple[Card, ...]:
    return state.houses[seat].cards


# A 4-player round where Di deals, so Ann leads trick 1, and Ann plays the lowest card of
# every trick, so she leads them all and moves the marker: left three times (11 to 8), then
# she leaves it. At the end: Ann's house 4 (her lone pink 1), Bo's 8, Cy's 15 with 7
# collapsed, Di's 5 under a roof that makes her discard tricks 7 to 10.
ROUND: tuple[tuple[Entry, ...], ...] = (
    (("pink 1", 4), ("green 36", 4), ("green 2", 1), ("green 3", 1)),
    (("green 4", 1), ("green 35", 4), ("green 5", 1), ("green 6", 1)),
    (("green 7", 1), ("green 8", 1), ("green 34", 7), ("green 9", 1)),
    (("green 11", 1), ("green 12", 3), ("green 33", 3), ("green 13", 3)),
    (("green 14", 1), ("green 15", 2), ("green 32", 2), ("green 16", 2)),
    (("green 17", 1), ("green 18", 1), ("green 19", 1), ("green 30", 5)),
    (("green 21", 1), ("green 22", 1), ("green 23", 1), ("green 31", 1)),
    (("green 24", 1), ("green 25", 1), ("green 26", 1), ("green 29", 1)),
    (("pink 2", 1), ("pink 3", 1), ("pink 4", 1), ("pink 36", 1)),
    (("pink 5", 1), ("pink 6", 1), ("pink 7", 1), ("pink 35", 1)),
)
ROUND_MOVES: tuple[Move, ...] = ("left", "left", "left", *("stay",) * 7)


def scripted(state: State, tricks: int = len(ROUND)) -> State:
    for entries, move in zip(ROUND[:tricks], ROUND_MOVES[:tricks], strict=True):
        state = trick(state, *entries, move=move)
    return state


def scripted_game(rounds: int = 1) -> State:
    return new_game(FOUR, first_dealer=3, rounds=rounds)


# --- Setup and options -------------------------------------------------------------------


def test_the_game_is_for_one_to_seven_seats_and_one_seat_plays_solo() -> None:
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == (
        "yadokarick",
        "Yadokarick",
        1,
        7,
    )
    error = refused_start((*SIX, "Gus", "Hal"))
    assert (error.message, error.field) == (
        "Yadokarick is for 1 to 7 players; you entered 8.",
        "players",
    )
    alone = GAME.start(("Ann",), {})
    assert isinstance(alone, solo.SoloState) and alone.player == "Ann"
    assert mode(alone) == "solo"


def test_the_solo_game_plays_through_the_same_game_object() -> None:
    state = GAME.start(("Ann",), {})
    for number in (18, 17, 19, 5, 6):
        draw = {"type": "draw", "card": f"pink {number}", "size": 2}
        state = GAME.apply(state, GAME.parse_action(draw))
    state = GAME.apply(state, GAME.parse_action({"type": "take", "card": "pink 18", "crab": 4}))
    assert state.crabs[3] == (Card("pink", 18),)
    assert GAME.describe(GAME.parse_action({"type": "give-up", "crab": 4})) == "give up crab 4"
    refused_move = refused(state, GAME.parse_action({"type": "marker", "move": "left"}))
    assert refused_move.message.startswith("The solo game has no tricks")
    assert GAME.standings(state)[0].score == 0
    assert played_cards(state) == state.drawn
    assert picker_deck(state).numbers["green"][28:30] == (29, 31)


def test_solo_actions_are_refused_in_a_trick_game() -> None:
    state = GAME.start(FOUR, {})
    refused_draw = refused(state, GAME.parse_action({"type": "draw", "card": "pink 18", "size": 2}))
    assert refused_draw.message.startswith("Draw, take, bonus and give-up belong to the solo game")


def test_an_unknown_action_type_lists_every_type() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action({"type": "deal"})
    assert caught.value.message == (
        "Unknown action (type 'deal'): the type is play, marker, draw, take, bonus or give-up."
    )


def test_advanced_mode_is_refused_for_the_solo_game() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.start(("Ann",), {"advanced": "on"})
    assert caught.value.message == "Advanced mode is for 3 to 6 players; this game has 1."


def test_the_options_in_order_with_their_defaults() -> None:
    assert [(spec.name, spec.kind, spec.default) for spec in GAME.options] == [
        ("rounds", "int", 3),
        ("first_dealer", "seat", 0),
        ("size_first", "int", 1),
        ("size_last", "int", 20),
        ("marker_start", "int", 11),
        ("advanced", "choice", "off"),
        ("colour", "choice", "green"),
        ("npc_position", "int", 2),
    ]
    helps = {spec.name: spec.help for spec in GAME.options}
    assert helps["rounds"].startswith("Standard game")
    assert helps["npc_position"].startswith("2-player game")
    assert "NPC crab" in helps["colour"] and "3-player" in helps["colour"]


def test_a_standard_game_starts_with_the_dealer_the_marker_and_the_lead() -> None:
    state = new_game()
    assert GAME.ruling(state) == (
        "Round 1 of 3: Ann deals; the size marker is on 11. Bo leads trick 1."
    )
    assert mode(state) == "standard"
    assert (state.round, state.dealer, state.lead, state.marker) == (1, 0, 1, 11)
    assert state.size_row == (1, 20)
    assert state.houses == (House(),) * 4
    assert (expected(state), turn_seat(state), trick_number(state)) == ("play", 1, 1)
    assert state.totals == (0, 0, 0, 0)
    assert not GAME.is_finished(state) and GAME.winners(state) == []
    assert [standing.rank for standing in GAME.standings(state)] == [1, 1, 1, 1]


def test_the_last_seat_dealing_has_the_first_seat_lead() -> None:
    state = new_game(first_dealer=3)
    assert (state.dealer, state.lead, turn_seat(state)) == (3, 0, 0)
    assert [dealer_of(state, number) for number in (1, 2, 3, 4)] == [3, 0, 1, 2]


def test_the_size_row_and_marker_are_options() -> None:
    state = new_game(size_first=3, size_last=12, marker_start=5)
    assert (state.size_row, state.marker, state.marker_start) == ((3, 12), 5, 5)


@pytest.mark.parametrize(
    ("players", "options", "field", "message"),
    [
        (
            FOUR,
            {"first_dealer": 4},
            "options.first_dealer",
            "First dealer must be a seat from 0 to 3 in a 4-player game (seats count from 0); "
            "there is no seat 4.",
        ),
        (
            FOUR,
            {"size_first": 8, "size_last": 8},
            "options.size_last",
            "The size row's last card (8) must be higher than its first card (8).",
        ),
        (
            FOUR,
            {"size_first": 12, "size_last": 20},
            "options.marker_start",
            "The size marker must start on a card of the row, 12 to 20; there is no size card 11.",
        ),
        (
            FOUR,
            {"marker_start": 21},
            "options.marker_start",
            "The size marker must start on a card of the row, 1 to 20; there is no size card 21.",
        ),
        (
            (*SIX, "Gus"),
            {"advanced": "on"},
            "options.advanced",
            "Advanced mode is for 3 to 6 players; this game has 7.",
        ),
        (
            TWO,
            {"advanced": "on"},
            "options.advanced",
            "Advanced mode is for 3 to 6 players; this game has 2.",
        ),
        (FOUR, {"size_first": 0}, "options.size_first", "Size row: first card must be at least 1."),
        (FOUR, {"size_last": 100}, "options.size_last", "Size row: last card must be at most 99."),
        (FOUR, {"rounds": 0}, "options.rounds", "Rounds must be at least 1."),
        (FOUR, {"rounds": 21}, "options.rounds", "Rounds must be at most 20."),
        (FOUR, {"colour": "blue"}, "options.colour", "Colour must be one of: green, pink."),
        (FOUR, {"advanced": "yes"}, "options.advanced", "Advanced mode must be one of: off, on."),
        (
            TWO,
            {"npc_position": 4},
            "options.npc_position",
            "NPC crab's place in the play order must be at most 3.",
        ),
        (FOUR, {"trumps": 1}, "options.trumps", "This game has no option called 'trumps'."),
    ],
)
def test_bad_options_are_refused_with_a_sentence_naming_the_option(
    players: tuple[str, ...], options: dict[str, object], field: str, message: str
) -> None:
    error = refused_start(players, **options)
    assert (error.field, error.message) == (field, message)


@pytest.mark.parametrize(
    ("players", "options", "colours", "highest"),
    [
        (("Ann", "Bo", "Cy"), {}, ("green",), 36),
        (("Ann", "Bo", "Cy"), {"colour": "pink", "advanced": "on"}, ("pink",), 30),
        (FOUR, {}, ("green", "pink"), 36),
        (FOUR, {"advanced": "on"}, ("green", "pink"), 20),
        (FIVE, {"advanced": "on"}, ("green", "pink"), 25),
        (SIX, {"advanced": "on"}, ("green", "pink"), 30),
        ((*SIX, "Gus"), {}, ("green", "pink"), 36),
        (TWO, {"colour": "pink"}, ("pink",), 36),
    ],
)
def test_the_usable_cards_follow_the_seats_the_colour_and_advanced_mode(
    players: tuple[str, ...], options: dict[str, object], colours: tuple[str, ...], highest: int
) -> None:
    state = new_game(players, **options)
    usable = usable_cards(state)
    assert usable == tuple(
        Card(colour, number) for colour in colours for number in range(1, highest + 1)
    )


def test_roof_cards_are_the_10_20_and_30() -> None:
    roofs = [card for card in YADOKARICK.cards() if is_roof(card)]
    assert roofs == list(cards("green 10", "green 20", "green 30", "pink 10", "pink 20", "pink 30"))


# --- The sheet's example tricks, as played in a session ----------------------------------------


def test_the_four_player_example_trick() -> None:
    state = plays(
        new_game(first_dealer=3),
        ("green 25", 3),
        ("pink 8", 2),
        ("green 17", 1),
        ("pink 29", 4),
    )
    done = state.tricks[0]
    assert done.plays == (
        (0, c("green 25")),
        (1, c("pink 8")),
        (2, c("green 17")),
        (3, c("pink 29")),
    )
    assert done.movers == (1,) and done.next_lead == 1
    assert done.takes == ((0, cards("green 25")), (3, cards("pink 29")))
    assert done.discarded == cards("pink 8", "green 17")
    assert state.discarded == cards("pink 8", "green 17")
    assert seat_cards(state, 0) == cards("green 25") and state.houses[0].size == 3
    assert seat_cards(state, 3) == cards("pink 29") and state.houses[3].size == 4
    assert (expected(state), turn_seat(state), state.movers, state.lead) == ("marker", 1, (1,), 1)
    assert GAME.ruling(state) == (
        "Di plays pink 29 (size 4). "
        "Trick 1: Pink 8 (Bo) is the lowest: it moves the size marker and leads next. "
        "Green: green 25 (Ann) is highest and takes green 25, the largest green (size 3). "
        "Pink: pink 29 (Di) is highest and takes pink 29, the largest pink (size 4). "
        "Discarded: pink 8, green 17. "
        "Ann places green 25 on the house. Ann's house: 1 card, size 3. "
        "Di places pink 29 on the house. Di's house: 1 card, size 4. "
        "Bo moves the size marker (on 11): left, right or stay. After that, Bo leads trick 2."
    )
    moved = moves(state, "left")
    assert GAME.ruling(moved) == "Bo moves the size marker left to 10. Bo leads trick 2."
    assert (moved.marker, expected(moved), turn_seat(moved), trick_number(moved)) == (
        10,
        "play",
        1,
        2,
    )


def test_the_table_stays_on_a_trick_until_its_marker_moves_are_made() -> None:
    state = scripted_game()
    assert trick_at_table(state) == 1
    played = plays(state, *ROUND[0])  # Ann played the lowest card: she moves the marker
    assert played.movers == (0,)
    assert (trick_at_table(played), trick_number(played)) == (1, 2)
    assert trick_at_table(moves(played, "left")) == 2
    # The tenth trick's move ends the game of one round: its board shows trick 10.
    last = plays(scripted(state, 9), *ROUND[9])
    assert trick_at_table(last) == 10
    assert trick_at_table(moves(last, "stay")) == 10
    # In a longer game it starts the next round at trick 1.
    next_round = moves(plays(scripted(scripted_game(rounds=2), 9), *ROUND[9]), "stay")
    assert (next_round.round, trick_at_table(next_round)) == (2, 1)


def test_the_six_player_example_trick() -> None:
    # Pink 9 is lowest; pink 26 is the highest pink and takes the one pink of size 4
    # (pink 14); green 31 is the highest green and takes both greens of size 3.
    state = plays(
        new_game(SIX, first_dealer=5),
        ("green 31", 3),
        ("pink 9", 2),
        ("green 12", 3),
        ("pink 26", 1),
        ("pink 14", 4),
        ("green 20", 2),
    )
    done = state.tricks[0]
    assert done.movers == (1,)
    assert done.takes == ((0, cards("green 31", "green 12")), (3, cards("pink 14")))
    assert done.discarded == cards("pink 9", "pink 26", "green 20")
    assert seat_cards(state, 0) == cards("green 31", "green 12")
    assert state.houses[0].size == 6
    assert seat_cards(state, 3) == cards("pink 14")
    assert seat_cards(state, 5) == ()  # green 20 is a roof, but it was discarded
    assert not state.houses[5].roofed
    assert state.movers == (1,) and turn_seat(state) == 1
    assert "Bo moves the size marker (on 11)" in GAME.ruling(state)


def test_faq_a_lone_colour_that_is_lowest_takes_its_card_and_moves_the_marker() -> None:
    state = plays(
        new_game(first_dealer=3), ("pink 1", 4), ("green 36", 4), ("green 2", 1), ("green 3", 1)
    )
    assert state.tricks[0].takes == ((0, cards("pink 1")), (1, cards("green 36")))
    assert seat_cards(state, 0) == cards("pink 1")
    assert state.movers == (0,)
    assert (
        "Pink: pink 1 (Ann) is the only pink, so its player takes it and, as the lowest, "
        "also moves the size marker." in GAME.ruling(state)
    )


def test_faq_tied_lowest_in_both_colours_each_move_in_play_order_and_the_last_leads() -> None:
    state = plays(
        new_game(first_dealer=3), ("green 5", 1), ("pink 5", 1), ("green 22", 2), ("pink 12", 3)
    )
    assert state.movers == (0, 1) and state.lead == 1
    assert GAME.ruling(state).endswith(
        "Ann moves the size marker (on 11): left, right or stay. Then Bo moves it. "
        "After that, Bo leads trick 2."
    )
    assert turn_seat(state) == 0
    state = moves(state, "right")
    assert GAME.ruling(state) == (
        "Ann moves the size marker right to 12. "
        "Bo moves the size marker (on 12): left, right or stay. After that, Bo leads trick 2."
    )
    assert (expected(state), turn_seat(state)) == ("marker", 1)
    error = refused(state, Play(c("pink 20"), 1))
    assert (error.field, error.message) == ("type", "Bo moves the size marker first.")
    state = moves(state, "right")
    assert state.marker == 13
    assert GAME.ruling(state) == "Bo moves the size marker right to 13. Bo leads trick 2."
    assert (expected(state), turn_seat(state)) == ("play", 1)


def test_the_three_player_game_the_highest_takes_all_three() -> None:
    state = plays(new_game(("Ann", "Bo", "Cy")), ("green 4", 1), ("green 30", 2), ("green 12", 3))
    # Ann deals, so Bo leads: Bo, Cy, Ann.
    assert state.tricks[0].plays == ((1, c("green 4")), (2, c("green 30")), (0, c("green 12")))
    assert seat_cards(state, 2) == cards("green 4", "green 12", "green 30")
    assert state.houses[2].roofed and state.houses[2].size == 6
    assert state.movers == (1,)
    assert (
        "Cy places green 4, green 12 and green 30 on the house. "
        "Green 30 is a roof: Cy's house is closed at size 6." in GAME.ruling(state)
    )


# --- Houses: collapse and roofs -------------------------------------------------------------


def test_two_new_cards_on_a_six_card_house_collapse_the_two_closest_to_the_body() -> None:
    state = scripted(scripted_game(), tricks=4)
    assert seat_cards(state, 2) == cards("green 34", "green 12", "green 33", "green 13")
    state = plays(state, ("green 14", 1), ("green 15", 2), ("green 32", 2), ("green 16", 2))
    assert GAME.ruling(state).endswith(
        "Cy places green 15, green 32 and green 16 on the house. "
        "Cy's house holds 7 cards, more than 6: green 34, closest to the body, "
        "collapses face down. Cy's house: 6 cards, size 15. "
        "Ann moves the size marker (on 8): left, right or stay. After that, Ann leads trick 6."
    )
    house = state.houses[2]
    assert house.cards == cards(
        "green 12", "green 33", "green 13", "green 15", "green 32", "green 16"
    )
    assert (house.collapsed, house.size, house.collapsed_size) == (cards("green 34"), 15, 7)


def test_the_sheet_collapse_two_new_cards_on_six() -> None:
    state = new_game(first_dealer=3)
    state = trick(state, ("green 1", 1), ("green 36", 2), ("green 2", 2), ("green 3", 1))
    state = trick(state, ("green 4", 1), ("green 35", 2), ("green 5", 2), ("green 6", 1))
    state = trick(state, ("green 7", 1), ("green 34", 3), ("green 8", 3), ("green 9", 1))
    assert len(seat_cards(state, 1)) == 6 and state.houses[1].size == 14
    state = plays(state, ("green 11", 1), ("green 33", 2), ("green 12", 2), ("green 13", 1))
    house = state.houses[1]
    assert house.cards == cards(
        "green 35", "green 5", "green 34", "green 8", "green 33", "green 12"
    )
    assert house.collapsed == cards("green 36", "green 2")
    assert (house.size, house.collapsed_size) == (14, 4)
    assert (
        "Bo's house holds 8 cards, more than 6: green 36 and green 2, closest to the body, "
        "collapse face down. Bo's house: 6 cards, size 14." in GAME.ruling(state)
    )


def roofed_house() -> State:
    """Cy takes green 34 (size 3), then green 20 (a roof) and green 33 together: closed at 7."""
    state = new_game(first_dealer=3)
    state = trick(state, ("green 3", 1), ("green 4", 1), ("green 34", 3), ("green 5", 1))
    return plays(state, ("green 1", 1), ("green 20", 2), ("green 33", 2), ("green 2", 1))


def test_a_roof_won_with_a_house_card_is_placed_last_and_closes_the_house_at_size_7() -> None:
    state = roofed_house()
    assert state.tricks[-1].takes == ((2, cards("green 20", "green 33")),)
    house = state.houses[2]
    assert house.cards == cards("green 34", "green 33", "green 20")
    assert (house.roofed, house.size) == (True, 7)
    assert (
        "Cy places green 33 and green 20 on the house. "
        "Green 20 is a roof: Cy's house is closed at size 7." in GAME.ruling(state)
    )


def test_cards_won_after_a_roof_are_discarded() -> None:
    state = moves(roofed_house(), "stay")
    state = plays(state, ("green 6", 1), ("green 7", 1), ("green 32", 2), ("green 8", 1))
    done = state.tricks[-1]
    assert done.takes == ((2, cards("green 32")),)
    assert done.roofed_out == cards("green 32")
    assert done.discarded == cards("green 6", "green 7", "green 8")
    assert state.houses[2].cards == cards("green 34", "green 33", "green 20")
    assert state.houses[2].size == 7
    assert c("green 32") in state.discarded
    assert "Cy's house is closed by a roof: green 32 is discarded." in GAME.ruling(state)


def test_two_roofs_won_together_are_both_placed_on_top() -> None:
    state = plays(
        new_game(first_dealer=3), ("green 1", 1), ("green 10", 2), ("green 36", 2), ("green 20", 2)
    )
    house = state.houses[2]
    assert house.cards == cards("green 36", "green 10", "green 20")
    assert (house.roofed, house.size) == (True, 6)
    assert "Green 10 and green 20 are roofs: Cy's house is closed at size 6." in GAME.ruling(state)


# --- Scoring -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("house", "collapsed", "points", "note"),
    [
        (4, 0, 4, "house 4 under target 8: 4"),
        (8, 0, 13, "house 8 = target 8: 8 + 5 bonus"),
        (15, 7, -14, "house 15 over target 8: 8 - 15 = -7; collapsed 7: -7"),
        (8, 3, 10, "house 8 = target 8: 8 + 5 bonus; collapsed 3: -3"),
        (0, 0, 0, "house 0 under target 8: 0"),
    ],
)
def test_the_sheet_scoring_examples_with_target_8(
    house: int, collapsed: int, points: int, note: str
) -> None:
    assert score_house(house, collapsed, 8) == (points, shown(note))


def test_a_scripted_round_scores_the_three_sheet_examples() -> None:
    state = scripted(scripted_game())
    record = state.records[0]
    assert (record.number, record.target) == (1, 8)
    assert [(r.house_size, r.collapsed_size, r.points) for r in record.results] == [
        (4, 0, 4),
        (8, 0, 13),
        (15, 7, -14),
        (5, 0, 5),
    ]
    assert record.results[3].house == cards("green 30")
    assert state.totals == (4, 13, -14, 5)
    assert GAME.is_finished(state) and expected(state) == "over" and turn_seat(state) is None
    assert GAME.winners(state) == [1]
    assert GAME.ruling(state) == shown(
        "Ann leaves the size marker on 8. Round 1 scores, target 8: "
        "Ann 4 (house 4 under target 8: 4), Bo 13 (house 8 = target 8: 8 + 5 bonus), "
        "Cy -14 (house 15 over target 8: 8 - 15 = -7; collapsed 7: -7), "
        "Di 5 (house 5 under target 8: 5). "
        "Totals: Ann 4, Bo 13, Cy -14, Di 5. Game over: Bo wins with 13 points."
    )
    assert [(s.name, s.score, s.rank) for s in GAME.standings(state)] == [
        ("Bo", 13, 1),
        ("Di", 5, 2),
        ("Ann", 4, 3),
        ("Cy", -14, 4),
    ]
    rows = GAME.score_rows(state)
    assert [(row.round, row.seat, row.name, row.points, row.total) for row in rows] == [
        (1, 0, "Ann", 4, 4),
        (1, 1, "Bo", 13, 13),
        (1, 2, "Cy", -14, -14),
        (1, 3, "Di", 5, 5),
    ]
    assert rows[1].note == "house 8 = target 8: 8 + 5 bonus"


def test_the_scripted_round_says_why_in_each_trick() -> None:
    state = scripted(scripted_game(), tricks=6)
    assert GAME.ruling(state) == "Ann leaves the size marker on 8. Ann leads trick 7."
    state = plays(state, *ROUND[6])
    assert GAME.ruling(state).endswith(
        "Green: green 31 (Di) is highest and takes green 21, green 22, green 23 and green 31, "
        "the largest greens (size 1). Nothing is discarded. "
        "Di's house is closed by a roof: green 21, green 22, green 23 and green 31 are discarded. "
        "Ann moves the size marker (on 8): left, right or stay. After that, Ann leads trick 8."
    )


def test_after_the_tenth_trick_the_marker_moves_then_the_round_is_scored() -> None:
    state = scripted(scripted_game(rounds=2), tricks=9)
    state = plays(state, *ROUND[9])
    assert len(state.tricks) == 10 and expected(state) == "marker"
    assert GAME.ruling(state).endswith(
        "Ann moves the size marker (on 8): left, right or stay. After that, round 1 is scored."
    )
    assert state.records == ()
    state = moves(state, "right")
    assert state.records[0].target == 9
    assert state.totals == (4, 8, -13, 5)
    # Round 2: the deal passes to Ann, Bo leads, the marker and houses start again.
    assert (state.round, state.dealer, state.lead, state.marker) == (2, 0, 1, 11)
    assert state.houses == (House(),) * 4 and state.tricks == () and state.discarded == ()
    assert GAME.ruling(state).endswith(
        "Round 2 of 2: Ann deals; the size marker is on 11. Bo leads trick 1."
    )
    assert not GAME.is_finished(state)


def test_a_second_round_may_play_the_same_cards_with_their_known_sizes() -> None:
    state = scripted(scripted_game(rounds=2))
    assert played_this_round(state) == frozenset()
    state = plays(state, ("green 36", None))
    assert state.current == ((1, c("green 36")),)
    assert played_this_round(state) == frozenset(cards("green 36"))
    assert GAME.ruling(state) == "Bo plays green 36 (size 4). Cy plays next."


def test_totals_add_up_over_rounds_as_the_deal_passes() -> None:
    # Round 2: Ann deals and Bo leads, so the same cards go one seat further round.
    state = scripted(scripted_game(rounds=2))
    state = scripted(state)
    assert GAME.is_finished(state)
    assert [record.target for record in state.records] == [8, 8]
    assert [result.points for result in state.records[1].results] == [5, 4, 13, -14]
    assert state.totals == (9, 17, -1, -9)
    rows = GAME.score_rows(state)
    assert [(row.round, row.name, row.points, row.total) for row in rows if row.seat == 1] == [
        (1, "Bo", 13, 13),
        (2, "Bo", 4, 17),
    ]
    assert GAME.winners(state) == [1]


# --- Refusals ----------------------------------------------------------------------------------


def test_a_card_of_the_wrong_colour_is_refused_in_the_three_player_game() -> None:
    error = refused(new_game(("Ann", "Bo", "Cy")), Play(c("pink 7"), 2))
    assert (error.field, error.message) == (
        "card",
        "pink 7 is not in this game: the 3-player game uses green only.",
    )


def test_a_card_beyond_the_advanced_range_is_refused() -> None:
    error = refused(new_game(FIVE, advanced="on"), Play(c("green 27"), 2))
    assert (error.field, error.message) == (
        "card",
        "green 27 is not in play: advanced mode with 5 players uses 1 to 25.",
    )


def test_a_card_played_twice_in_a_round_is_refused_saying_where() -> None:
    state = scripted(scripted_game(), tricks=3)
    error = refused(state, Play(c("green 8"), 1))
    assert (error.field, error.message) == (
        "card",
        "green 8 was already played in trick 3 by Bo.",
    )
    state = plays(state, ("green 11", 1))
    error = refused(state, Play(c("green 11"), 1))
    assert error.message == "green 11 was already played in trick 4 by Ann."


def test_a_new_card_needs_its_size() -> None:
    error = refused(new_game(), Play(c("green 25")))
    assert (error.field, error.message) == ("size", "Enter the size printed on green 25.")


def test_a_size_contradicting_the_session_is_refused() -> None:
    state = scripted(scripted_game(rounds=2))
    error = refused(state, Play(c("green 36"), 5))
    assert (error.field, error.message) == (
        "size",
        "green 36 has size 4 in this session; you entered 5. "
        "Correct the event where it was first entered to change it.",
    )
    assert plays(state, ("green 36", 4)).sizes[c("green 36")] == 4


def test_a_size_out_of_range_is_refused() -> None:
    error = refused(new_game(), Play(c("green 25"), 0))
    assert (error.field, error.message) == (
        "size",
        "The size printed on green 25 must be 1 to 99; you entered 0.",
    )


def test_a_marker_move_when_a_card_is_due_is_refused() -> None:
    error = refused(new_game(), MarkerMove("left"))
    assert (error.field, error.message) == (
        "type",
        "No one moves the size marker now: Bo leads trick 1.",
    )


def test_a_card_when_the_marker_is_due_is_refused() -> None:
    state = plays(
        new_game(first_dealer=3), ("green 25", 3), ("pink 8", 2), ("green 17", 1), ("pink 29", 4)
    )
    error = refused(state, Play(c("green 1"), 1))
    assert (error.field, error.message) == ("type", "Bo moves the size marker first.")


def test_the_marker_cannot_leave_the_row() -> None:
    lowest = plays(
        new_game(first_dealer=3, marker_start=1),
        ("green 25", 3),
        ("pink 8", 2),
        ("green 17", 1),
        ("pink 29", 4),
    )
    error = refused(lowest, MarkerMove("left"))
    assert (error.field, error.message) == (
        "move",
        "The size marker is on 1, the first size card: it cannot move further left.",
    )
    assert moves(lowest, "right").marker == 2
    highest = plays(
        new_game(first_dealer=3, size_first=5, size_last=9, marker_start=9),
        ("green 25", 3),
        ("pink 8", 2),
        ("green 17", 1),
        ("pink 29", 4),
    )
    error = refused(highest, MarkerMove("right"))
    assert (error.field, error.message) == (
        "move",
        "The size marker is on 9, the last size card: it cannot move further right.",
    )
    assert moves(highest, "left").marker == 8


def test_nothing_is_entered_after_the_end() -> None:
    state = scripted(scripted_game())
    for action in (Play(c("green 1"), 1), MarkerMove("stay")):
        error = refused(state, action)
        assert (error.field, error.message) == (
            "type",
            "The game is over; nothing more can be entered. Game over: Bo wins with 13 points.",
        )


# --- JSON and log lines ----------------------------------------------------------------------


def test_actions_round_trip_through_json() -> None:
    assert GAME.parse_action({"type": "play", "card": "Green 25", "size": 3}) == Play(
        c("green 25"), 3
    )
    assert GAME.parse_action({"type": "play", "card": "green 25", "size": "3"}) == Play(
        c("green 25"), 3
    )
    assert GAME.parse_action({"type": "play", "card": "green 25", "size": ""}) == Play(
        c("green 25")
    )
    assert GAME.parse_action({"type": "marker", "move": "Left"}) == MarkerMove("left")
    assert GAME.action_to_json(Play(c("pink 7"), 2)) == {
        "type": "play",
        "card": "pink 7",
        "size": 2,
    }
    assert GAME.action_to_json(Play(c("pink 7"))) == {"type": "play", "card": "pink 7"}
    assert GAME.action_to_json(MarkerMove("stay")) == {"type": "marker", "move": "stay"}


def test_describe_gives_short_log_lines() -> None:
    assert GAME.describe(Play(c("green 25"), 3)) == "play green 25 (size 3)"
    assert GAME.describe(Play(c("green 25"))) == "play green 25"
    assert GAME.describe(MarkerMove("left")) == "marker left"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"type": "bid"},
            "type",
            "Unknown action (type 'bid'): the type is play, marker, draw, take, bonus or give-up.",
        ),
        ({"type": "play"}, "card", "Enter the card played."),
        (
            {"type": "play", "card": "green 25", "colour": "green"},
            "colour",
            "A play action has no field 'colour'.",
        ),
        (
            {"type": "play", "card": "green 25", "size": "big"},
            "size",
            "The size printed on green 25 must be a whole number.",
        ),
        (
            {"type": "play", "card": "blue 3"},
            "card",
            "“blue 3”: Yadokarick has no blue cards (its colours: green, pink).",
        ),
        ({"type": "marker"}, "move", "Enter the marker move: left, right or stay."),
        ({"type": "marker", "move": "up"}, "move", "Move the size marker left, right or stay."),
    ],
)
def test_bad_actions_are_refused_with_a_sentence(
    data: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    assert (caught.value.field, caught.value.message) == (field, message)


# --- The 2-player game with the NPC crab ------------------------------------------------------

# Ann, the NPC crab, then Bo. Each trick is listed in play order from its lead; the lead
# passes to the one after the taker. After trick 8: Ann's house 6 (three cards collapsed,
# not counted), Bo's 6, the NPC crab's 11.
NPC_TRICKS: tuple[tuple[Entry, ...], ...] = (
    (("green 5", 2), ("green 30", 2), ("green 7", 1)),  # Ann leads; the NPC takes two of size 2
    (("green 36", 3), ("green 1", 1), ("green 2", 1)),  # Bo leads; Bo takes green 36
    (("green 35", 2), ("green 3", 2), ("green 4", 2)),  # Ann leads and takes all three
    (("green 6", 1), ("green 34", 1), ("green 8", 1)),  # the NPC leads; Bo takes all three
    (("green 33", 1), ("green 9", 1), ("green 10", 1)),  # Ann leads and takes all three
    (("green 32", 2), ("green 11", 2), ("green 12", 1)),  # the NPC leads and takes two
    (("green 13", 1), ("green 31", 1), ("green 14", 1)),  # Bo leads; Ann takes three: collapse
    (("green 29", 3), ("green 15", 1), ("green 16", 1)),  # the NPC leads and takes green 29
)
NPC_LEADS = (0, 1, 0, 2, 0, 2, 1, 2)


def npc_game(*extra: tuple[Entry, ...], **options: object) -> State:
    state = new_game(TWO, **options)
    for entries in (*NPC_TRICKS, *extra):
        state = plays(state, *entries)
    return state


def test_the_npc_game_setup() -> None:
    state = new_game(TWO)
    assert mode(state) == "npc"
    assert state.players == ("Ann", "Bo", "NPC crab")
    assert state.play_order == (0, 2, 1)
    assert (state.marker, state.size_row, state.dealer, state.rounds_to_play) == (
        None,
        None,
        None,
        1,
    )
    assert player_seats(state) == (0, 1)
    assert GAME.ruling(state) == (
        "The NPC crab plays second: the order is Ann, NPC crab and Bo. "
        "Its house size will be the target. Ann leads trick 1."
    )
    first = new_game(TWO, npc_position=1)
    assert first.play_order == (2, 0, 1)
    assert (turn_seat(first), first.lead) == (2, 2)
    assert GAME.ruling(first).endswith(
        "NPC crab leads trick 1: enter the top card of the draw deck."
    )
    assert new_game(TWO, npc_position=3).play_order == (0, 1, 2)


def test_the_npc_turns_up_the_top_card_of_the_deck() -> None:
    state = plays(new_game(TWO), ("green 5", 2))
    assert turn_seat(state) == NPC_SEAT
    assert GAME.ruling(state) == (
        "Ann plays green 5 (size 2). NPC crab plays next: enter the top card of the draw deck."
    )
    state = plays(state, ("green 30", 2))
    assert GAME.ruling(state) == "NPC crab turns up green 30 (size 2). Bo plays next."


def test_the_npc_takes_the_largest_cards_and_the_one_after_it_leads() -> None:
    state = plays(new_game(TWO), *NPC_TRICKS[0])
    assert state.tricks[0].takes == ((NPC_SEAT, cards("green 5", "green 30")),)
    assert state.tricks[0].discarded == cards("green 7")
    assert state.houses[NPC_SEAT].cards == cards("green 5", "green 30")
    assert not state.houses[NPC_SEAT].roofed  # no roof rule in the NPC game
    assert (state.lead, turn_seat(state), expected(state)) == (1, 1, "play")
    assert GAME.ruling(state) == (
        "Bo plays green 7 (size 1). Trick 1: Green 30 (NPC crab) is the highest and takes "
        "green 5 (Ann) and green 30 (NPC crab), the cards of the largest size (2). "
        "Discarded: green 7. NPC crab places green 5 and green 30 on the house. "
        "NPC crab's house: 2 cards, size 4. Bo plays after the taker, NPC crab. "
        "Bo leads trick 2."
    )


def test_the_npc_game_leads_pass_to_the_one_after_the_taker() -> None:
    state = new_game(TWO)
    for number, entries in enumerate(NPC_TRICKS):
        assert state.lead == NPC_LEADS[number]
        state = plays(state, *entries)
        taker = state.tricks[-1].takes[0][0]
        after = state.play_order[(state.play_order.index(taker) + 1) % 3]
        assert state.lead == after == state.tricks[-1].next_lead
    assert state.lead == 1


def test_a_collapse_in_the_npc_game_is_no_penalty() -> None:
    state = npc_game()
    ann = state.houses[0]
    assert ann.cards == cards("green 33", "green 9", "green 10", "green 13", "green 31", "green 14")
    assert ann.collapsed == cards("green 35", "green 3", "green 4")
    assert (ann.size, ann.collapsed_size) == (6, 6)
    assert (state.houses[1].size, state.houses[NPC_SEAT].size) == (6, 11)
    assert expected(state) == "play" and trick_number(state) == 9
    seventh = new_game(TWO)
    for entries in NPC_TRICKS[:7]:
        seventh = plays(seventh, *entries)
    assert (
        "Ann's house holds 9 cards, more than 6: green 35, green 3 and green 4, closest to the "
        "body, collapse face down; collapsed cards do not count. Ann's house: 6 cards, size 6."
        in GAME.ruling(seventh)
    )


def test_the_npc_game_has_no_marker() -> None:
    error = refused(new_game(TWO), MarkerMove("stay"))
    assert (error.field, error.message) == (
        "type",
        "The game with the NPC crab has no size marker: enter the next card.",
    )


def test_the_closer_player_under_the_target_wins() -> None:
    state = npc_game(
        (("green 28", 2), ("green 17", 1), ("green 18", 1)),  # Bo leads and takes green 28
        (("green 19", 1), ("green 20", 1), ("green 27", 1)),  # Ann leads; Bo takes all: collapse
    )
    assert GAME.is_finished(state) and expected(state) == "over"
    bo = state.houses[1]
    assert bo.collapsed == cards("green 36", "green 6")
    assert bo.size == 7
    record = state.records[0]
    assert record.target == 11
    assert [result.points for result in record.results] == [-5, -4, 0]
    assert GAME.winners(state) == [1]
    assert [(s.name, s.score, s.rank) for s in GAME.standings(state)] == [
        ("Bo", -4, 1),
        ("Ann", -5, 2),
    ]
    rows = GAME.score_rows(state)
    assert [(row.round, row.seat, row.name, row.points, row.total, row.note) for row in rows] == [
        (1, 0, "Ann", -5, -5, "house 6, target 11: 5 under"),
        (1, 1, "Bo", -4, -4, "house 7, target 11: 4 under"),
    ]
    assert GAME.ruling(state).endswith(
        "The NPC crab's house is size 11: that is the target. "
        "Ann: house 6, target 11: 5 under; Bo: house 7, target 11: 4 under. Game over: Bo wins."
    )
    error = refused(state, Play(c("green 21"), 1))
    assert error.message.startswith("The game is over; nothing more can be entered.")


def test_when_both_players_bust_the_smaller_excess_wins() -> None:
    state = npc_game(
        (("green 17", 1), ("green 28", 20), ("green 18", 1)),  # Bo leads; Ann takes green 28
        (("green 19", 1), ("green 27", 10), ("green 21", 1)),  # the NPC leads; Bo takes green 27
    )
    assert (state.houses[0].size, state.houses[1].size, state.houses[NPC_SEAT].size) == (
        25,
        16,
        11,
    )
    assert GAME.winners(state) == [1]
    assert [(s.name, s.score, s.rank) for s in GAME.standings(state)] == [
        ("Bo", -16, 1),
        ("Ann", -25, 2),
    ]
    notes = [row.note for row in GAME.score_rows(state)]
    assert notes == ["house 25, target 11: 14 over, bust", "house 16, target 11: 5 over, bust"]


def test_equally_close_players_both_win() -> None:
    # The NPC takes both last tricks: its house collapses down to six cards of size 1.
    state = npc_game(
        (("green 17", 1), ("green 18", 1), ("green 28", 1)),
        (("green 19", 1), ("green 21", 1), ("green 27", 1)),
    )
    crab = state.houses[NPC_SEAT]
    assert crab.cards == cards(
        "green 17", "green 18", "green 28", "green 19", "green 21", "green 27"
    )
    assert crab.size == 6
    assert GAME.winners(state) == [0, 1]
    assert [(s.name, s.rank) for s in GAME.standings(state)] == [("Ann", 1), ("Bo", 1)]
    assert [row.note for row in GAME.score_rows(state)] == [
        "house 6 = target 6: exact",
        "house 6 = target 6: exact",
    ]
    assert GAME.ruling(state).endswith("Game over: Ann and Bo share the win.")


def test_a_card_outside_the_npc_colour_is_refused() -> None:
    error = refused(new_game(TWO), Play(c("pink 7"), 1))
    assert (error.field, error.message) == (
        "card",
        "pink 7 is not in this game: the game with the NPC crab uses green only.",
    )


@pytest.mark.parametrize(
    ("house", "target", "score"),
    [(11, 11, 0), (9, 11, -2), (0, 11, -11), (12, 11, -12), (20, 11, -20), (3, 0, -3)],
)
def test_npc_scores_rank_exact_then_under_then_bust_by_excess(
    house: int, target: int, score: int
) -> None:
    assert npc_score(house, target) == score


def test_every_player_under_the_target_ranks_above_every_bust_player() -> None:
    for target in range(0, 30):
        under = [npc_score(house, target) for house in range(target + 1)]
        over = [npc_score(house, target) for house in range(target + 1, target + 40)]
        assert min(under) > max(over)
        assert over == sorted(over, reverse=True)


# --- Seeded random games --------------------------------------------------------------------------


def legal_moves(state: State) -> list[Move]:
    assert state.size_row is not None and state.marker is not None
    first, last = state.size_row
    allowed: list[Move] = ["stay"]
    if state.marker > first:
        allowed.append("left")
    if state.marker < last:
        allowed.append("right")
    return allowed


def check_round_invariants(state: State) -> None:
    played = [card for done in state.tricks for _, card in done.plays]
    in_progress = [card for _, card in state.current]
    assert len(set(played + in_progress)) == len(played) + len(in_progress)
    assert played_this_round(state) == frozenset(played + in_progress)
    homes = Counter(
        [card for house in state.houses for card in (*house.cards, *house.collapsed)]
    ) + Counter(state.discarded)
    assert homes == Counter(played)
    for house in state.houses:
        assert len(house.cards) <= 6
        assert house.size == sum(state.sizes[card] for card in house.cards)
        roofs = [card for card in house.cards if is_roof(card)]
        if state.mode == "standard":
            assert house.roofed == bool(roofs)
            if roofs:  # roofs sit on top
                assert house.cards[-len(roofs) :] == tuple(roofs)


def random_game(
    players: Sequence[str],
    seed: int,
    check: Callable[[State, Action], None] | None = None,
    **options: object,
) -> tuple[State, list[Action]]:
    """A whole game of random legal entries; ``check`` sees each state and the entry made there."""
    rng = random.Random(seed)
    printed = {card: rng.randint(1, 5) for card in YADOKARICK.cards()}
    state = new_game(players, **options)
    actions: list[Action] = []
    while not GAME.is_finished(state):
        action: Action
        if expected(state) == "play":
            free = [card for card in usable_cards(state) if card not in played_this_round(state)]
            card = rng.choice(free)
            known = card in state.sizes
            action = Play(card, None if known and rng.random() < 0.7 else printed[card])
        else:
            action = MarkerMove(rng.choice(legal_moves(state)))
        if check is not None:
            check(state, action)
        state = GAME.apply(state, action)
        actions.append(action)
        check_round_invariants(state)
        assert GAME.ruling(state)
    return state, actions


@pytest.mark.parametrize(
    ("seats", "rounds", "seed"),
    [(3, 2, 1), (3, 3, 7), (5, 3, 2), (5, 1, 11), (7, 3, 3), (7, 2, 19), (4, 2, 5), (6, 1, 8)],
)
def test_random_standard_games_keep_the_invariants(seats: int, rounds: int, seed: int) -> None:
    players = [f"P{seat}" for seat in range(seats)]
    options: dict[str, object] = {"rounds": rounds, "first_dealer": seed % seats + 1}
    state, actions = random_game(players, seed, **options)
    assert len(state.records) == rounds
    assert [record.number for record in state.records] == list(range(1, rounds + 1))
    for seat in range(seats):
        assert state.totals[seat] == sum(record.results[seat].points for record in state.records)
        for record in state.records:
            result = record.results[seat]
            assert (result.points, result.note) == score_house(
                result.house_size, result.collapsed_size, record.target
            )
    assert sum(1 for action in actions if isinstance(action, Play)) == rounds * 10 * seats
    rows = GAME.score_rows(state)
    assert len(rows) == rounds * seats
    assert [row.total for row in rows[-seats:]] == list(state.totals)
    top = max(state.totals)
    assert GAME.winners(state) == [seat for seat in range(seats) if state.totals[seat] == top]
    replayed = new_game(players, **options)
    for action in actions:
        replayed = GAME.apply(replayed, GAME.parse_action(GAME.action_to_json(action)))
    assert replayed == state


@pytest.mark.parametrize("seed", [4, 12, 30])
def test_random_npc_games_keep_the_invariants(seed: int) -> None:
    options: dict[str, object] = {"npc_position": seed % 3 + 1, "colour": "pink"}
    state, actions = random_game(TWO, seed, **options)
    assert len(actions) == 30
    target = state.houses[NPC_SEAT].size
    scores = [npc_score(state.houses[seat].size, target) for seat in (0, 1)]
    assert [row.points for row in GAME.score_rows(state)] == scores
    assert GAME.winners(state) == [seat for seat in (0, 1) if scores[seat] == max(scores)]
    replayed = new_game(TWO, **options)
    for action in actions:
        replayed = GAME.apply(replayed, GAME.parse_action(GAME.action_to_json(action)))
    assert replayed == state


def test_advanced_random_game_uses_only_its_range() -> None:
    state, actions = random_game(("Ann", "Bo", "Cy", "Di"), 3, advanced="on", rounds=1)
    assert all(action.card.number <= 20 for action in actions if isinstance(action, Play))
    assert len(state.records) == 1


# --- What comes next ---------------------------------------------------------------------------


def card_texts(colours: Sequence[str] = ("green", "pink"), highest: int = 36) -> tuple[str, ...]:
    """Cards as the JSON actions write them, colour by colour, low to high."""
    return tuple(f"{colour} {number}" for colour in colours for number in range(1, highest + 1))


def without(texts: Sequence[str], *left_out: str) -> tuple[str, ...]:
    return tuple(text for text in texts if text not in left_out)


def any_card(seat: int, texts: Sequence[str], unsized: Sequence[str]) -> Expected:
    return Expected(seat, (Accepts("play", cards=tuple(texts), sizes=tuple(unsized)),))


def test_a_new_game_expects_the_lead_to_play_any_card_with_its_size() -> None:
    every = card_texts()
    state = new_game()  # Ann deals, Bo leads
    assert expected_actions(state) == any_card(1, every, every)
    assert GAME.expected(state) == expected_actions(state)
    state = plays(state, ("green 25", 3))
    assert expected_actions(state) == any_card(
        2, without(every, "green 25"), without(every, "green 25")
    )
    assert expected_actions(new_game(first_dealer=3)).seat == 0


def test_the_cards_offered_are_those_of_the_game() -> None:
    three = new_game(("Ann", "Bo", "Cy"), colour="pink")
    assert expected_actions(three) == any_card(1, card_texts(("pink",)), card_texts(("pink",)))
    advanced = expected_actions(new_game(FOUR, advanced="on"))
    assert advanced == any_card(1, card_texts(highest=20), card_texts(highest=20))


def test_after_a_trick_the_lowest_card_is_expected_to_move_the_marker() -> None:
    state = plays(scripted_game(), *ROUND[0])
    assert expected_actions(state) == Expected(
        0, (Accepts("marker", moves=("left", "stay", "right")),)
    )
    assert expected_actions(state).to_json() == {
        "seat": 0,
        "actions": [{"type": "marker", "moves": ["left", "stay", "right"]}],
    }
    # The marker moved, Ann leads trick 2: the first trick's cards are out, their sizes known.
    state = moves(state, "left")
    first_trick = ("pink 1", "green 36", "green 2", "green 3")
    assert expected_actions(state) == any_card(
        0, without(card_texts(), *first_trick), without(card_texts(), *first_trick)
    )


def test_tied_lowest_cards_are_expected_to_move_the_marker_in_play_order() -> None:
    state = plays(
        new_game(first_dealer=3), ("green 5", 1), ("pink 5", 1), ("green 22", 2), ("pink 12", 3)
    )
    assert expected_actions(state).seat == 0
    state = moves(state, "right")
    assert expected_actions(state).seat == 1
    assert expected_actions(state).types == frozenset({"marker"})
    assert expected_actions(moves(state, "right")).seat == 1  # Bo, the last mover, leads


@pytest.mark.parametrize(
    ("options", "listed"),
    [
        ({"marker_start": 1}, ("stay", "right")),
        ({"size_first": 5, "size_last": 9, "marker_start": 9}, ("left", "stay")),
    ],
)
def test_the_marker_moves_offered_stop_at_the_ends_of_the_row(
    options: dict[str, object], listed: tuple[str, ...]
) -> None:
    state = plays(
        new_game(first_dealer=3, **options),
        ("green 25", 3),
        ("pink 8", 2),
        ("green 17", 1),
        ("pink 29", 4),
    )
    assert expected_actions(state) == Expected(1, (Accepts("marker", moves=listed),))  # Bo: pink 8


def test_a_new_round_offers_every_card_again_and_asks_only_unknown_sizes() -> None:
    state = scripted(scripted_game(rounds=2))
    met = {str(card) for entries in ROUND for card, _ in entries}
    assert len(met) == 40
    every = card_texts()
    assert expected_actions(state) == any_card(
        1, every, tuple(text for text in every if text not in met)
    )


def test_the_end_of_the_game_expects_nothing() -> None:
    state = scripted(scripted_game())
    assert GAME.is_finished(state)
    assert expected_actions(state) == NOTHING_EXPECTED
    assert GAME.expected(state).to_json() == {"seat": None, "actions": []}


def test_the_npc_crabs_card_is_expected_from_its_seat() -> None:
    state = new_game(TWO, npc_position=1, colour="pink")
    pinks = card_texts(("pink",))
    assert expected_actions(state) == any_card(NPC_SEAT, pinks, pinks)
    state = plays(state, ("pink 30", 2))
    assert expected_actions(state) == any_card(
        0, without(pinks, "pink 30"), without(pinks, "pink 30")
    )
    assert "marker" not in expected_actions(plays(state, ("pink 4", 1), ("pink 5", 1))).types


def test_the_npc_game_expects_nothing_once_scored() -> None:
    state = npc_game(
        (("green 28", 2), ("green 17", 1), ("green 18", 1)),
        (("green 19", 1), ("green 20", 1), ("green 27", 1)),
    )
    assert GAME.is_finished(state)
    assert expected_actions(state) == NOTHING_EXPECTED


# Every type the Yadokarick game object parses, the solo game's included, with a value each.
EVERY_TYPE: tuple[tuple[str, Action | solo.SoloAction], ...] = (
    ("play", Play(Card("green", 1), 1)),
    ("marker", MarkerMove("stay")),
    ("draw", solo.Draw(Card("green", 1), 1)),
    ("take", solo.Take(Card("green", 1), 1)),
    ("bonus", solo.Bonus(Card("green", 1))),
    ("give-up", solo.GiveUp(1)),
)


def accepts(state: State, action: Action | solo.SoloAction) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalAction:
        return False
    return True


def is_listed(listed: Expected, action: Action) -> bool:
    """Whether ``action`` is among the values ``listed`` offers (sizeless only when known)."""
    if isinstance(action, MarkerMove):
        marker = listed.accepts("marker")
        return marker is not None and marker.moves is not None and action.move in marker.moves
    play = listed.accepts("play")
    if play is None or play.cards is None or play.sizes is None:
        return False
    text = str(action.card)
    return text in play.cards and (action.size is not None or text not in play.sizes)


def check_expected(state: State, tried: Action, wild: Action) -> None:
    """``expected_actions`` against what ``apply`` does from ``state``."""
    listed = expected_actions(state)
    assert listed == GAME.expected(state)
    assert (listed.actions == ()) == GAME.is_finished(state)
    assert listed.seat == turn_seat(state)
    assert accepts(state, tried) and is_listed(listed, tried)
    assert accepts(state, wild) == is_listed(listed, wild), (wild, listed)
    for kind, sample in EVERY_TYPE:
        if kind not in listed.types:
            with pytest.raises(IllegalAction):
                GAME.apply(state, sample)
    play = listed.accepts("play")
    if play is not None:
        assert play.cards is not None and play.sizes is not None
        assert set(play.sizes) <= set(play.cards)
        free = [card for card in usable_cards(state) if card not in played_this_round(state)]
        assert play.cards == tuple(str(card) for card in free)
        # Each listed card, as JSON writes it, with a size where one is asked and without
        # one where the session knows it; an asked size cannot be left out.
        for text in play.cards:
            sized = {"type": "play", "card": text, "size": state.sizes.get(c(text), 3)}
            assert accepts(state, GAME.parse_action(sized))
            assert accepts(state, GAME.parse_action({"type": "play", "card": text})) == (
                text not in play.sizes
            )
    marker = listed.accepts("marker")
    if marker is not None:
        assert marker.moves is not None
        assert set(marker.moves) == set(legal_moves(state))
        for move in marker.moves:
            assert accepts(state, GAME.parse_action({"type": "marker", "move": move}))


def wild_action(state: State, rng: random.Random) -> Action:
    """Any entry, legal or not: a card of the whole deck, with or without a size, or a move."""
    if rng.random() < 0.3:
        return MarkerMove(rng.choice(("left", "right", "stay")))
    card = rng.choice(YADOKARICK.cards())
    return Play(card, rng.choice((None, state.sizes.get(card, 2))))


@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        (("Ann", "Bo", "Cy"), 21, {"rounds": 2}),
        (FOUR, 22, {"rounds": 1, "marker_start": 2, "size_last": 4, "size_first": 1}),
        (FOUR, 23, {"rounds": 1, "advanced": "on"}),
        (FIVE, 24, {"rounds": 1, "first_dealer": 3}),
        ((*SIX, "Gus"), 25, {"rounds": 1}),
        (TWO, 26, {"npc_position": 1}),
        (TWO, 27, {"npc_position": 3, "colour": "pink"}),
    ],
)
def test_random_games_expect_exactly_what_the_engine_accepts(
    players: Sequence[str], seed: int, options: dict[str, object]
) -> None:
    rng = random.Random(seed * 7)
    visited: list[State] = []

    def check(state: State, action: Action) -> None:
        visited.append(state)
        check_expected(state, action, wild_action(state, rng))

    state, _ = random_game(players, seed, check, **options)
    assert expected_actions(state) == NOTHING_EXPECTED
    assert all(expected_actions(before).actions for before in visited)
