"""Yokai Septet engine: the sheet's trick rules, leads, round ends, stars, revokes, replay."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction, OptionSpec
from scorekeeper.games.cards import Card
from scorekeeper.games.yokai_septet.cards import YOKAI_SEPTET
from scorekeeper.games.yokai_septet.rules import (
    GAME,
    HOWS,
    TARGET,
    Action,
    FirstLead,
    Pass,
    Play,
    ResolveRevoke,
    RevokeFlag,
    RoundResult,
    State,
    TrumpCard,
    can_pass,
    can_record_result,
    expected_actions,
    next_step,
    open_flags,
    played_cards,
    round_first_lead,
    stars,
    team_boss,
    team_label,
    team_of,
    team_tricks,
    turn_seat,
)

PLAYERS = ("Ann", "Bo", "Cy", "Di")
# The sheet's stars, written out here on their own so the engine is checked against them.
SHEET_STARS = {"green": 0, "purple": 0, "pink": 1, "yellow": 1, "black": 1, "red": 2, "blue": 2}
ALL_BOSS = tuple(f"{colour} 7" for colour in SHEET_STARS)


def c(text: str) -> Card:
    return YOKAI_SEPTET.parse(text, "card")


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(c(text) for text in texts)


def new_game(team_a: str = "", team_b: str = "") -> State:
    state: State = GAME.start(PLAYERS, {"team_a": team_a, "team_b": team_b})
    return state


def act(state: State, *actions: Action) -> State:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def plays(state: State, *texts: str) -> State:
    return act(state, *(Play(c(text)) for text in texts))


def refused(state: State, action: Action) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    return caught.value


def round_one(trump: str = "yellow 9", lead: int = 0) -> State:
    return act(new_game(), TrumpCard(c(trump)), FirstLead(lead))


def result(team: int, how: str, *boss: str) -> RoundResult:
    action = GAME.parse_action({"type": "result", "team": team, "how": how, "boss": list(boss)})
    assert isinstance(action, RoundResult)
    return action


def one_point_round(state: State) -> State:
    """A fast round (yellow 9 trump) team 0 wins with 1 star: pink 7; yellow 7 scores 0."""
    if next_step(state) == "trump":
        state = act(state, TrumpCard(c("yellow 9")))
    assert state.round.trump_card == c("yellow 9")
    return act(state, result(0, "four-boss", "green 7", "purple 7", "pink 7", "yellow 7"))


# --- Setup ----------------------------------------------------------------------------


def test_the_game_is_for_exactly_four_players() -> None:
    assert (GAME.min_players, GAME.max_players) == (4, 4)
    for players in (PLAYERS[:3], (*PLAYERS, "Ed")):
        with pytest.raises(IllegalAction) as caught:
            GAME.start(players, {})
        assert caught.value.field == "players"
        assert "exactly 4 players" in caught.value.message


def test_teams_are_partners_across_the_table() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_blank_team_names_show_the_partners_and_given_names_are_kept() -> None:
    assert new_game().team_names == ("Ann & Cy", "Bo & Di")
    named = new_game(team_a="Foxes", team_b="  Owls  ")
    assert (team_label(named, 0), team_label(named, 1)) == ("Foxes", "Owls")
    assert GAME.start(PLAYERS, {}).team_names == ("Ann & Cy", "Bo & Di")


def test_team_name_options_are_text_of_at_most_40_characters() -> None:
    specs = {spec.name: spec for spec in GAME.options}
    assert specs["team_a"] == OptionSpec(
        "team_a",
        "Team of seats 1 & 3",
        "text",
        "",
        help=specs["team_a"].help,
        maximum=40,
        summary="seats 1 & 3: {}",
        blank="their names",
    )
    assert specs["team_b"].label == "Team of seats 2 & 4"
    with pytest.raises(IllegalAction) as caught:
        GAME.start(PLAYERS, {"team_a": "x" * 41})
    assert caught.value.field == "options.team_a"


def test_a_new_game_asks_for_the_trump_card() -> None:
    state = new_game()
    assert GAME.ruling(state) == "Turn up the trump card to start round 1."
    assert next_step(state) == "trump"
    assert turn_seat(state) is None
    assert state.scores == (0, 0)
    assert (GAME.slug, GAME.title) == ("yokai-septet", "Yokai Septet")
    assert not GAME.is_finished(state)
    assert GAME.winners(state) == []


# --- Who takes a trick (through the engine) ----------------------------------------------


def test_the_green_1_takes_the_trick_even_against_trump() -> None:
    state = plays(round_one("red 9"), "green 5", "green 1", "red 12", "green 6")
    trick = state.round.tricks[0]
    assert trick.winner == 1
    assert trick.rule == "green-one"
    assert state.last_ruling.startswith("Trick 1: Bo takes it with green 1.")
    assert turn_seat(state) == 1


def test_trump_beats_the_led_suit() -> None:
    state = plays(round_one("red 9"), "blue 13", "blue 9", "red 6", "blue 12")
    trick = state.round.tricks[0]
    assert (trick.winner, trick.rule) == (2, "trump")
    assert state.last_ruling.startswith(
        "Trick 1: Cy takes it with red 6. Trump beats the led suit: red 6 (Cy) is the only trump."
    )
    assert "Ann & Cy: 1 trick, 0 Boss Yokai." in state.last_ruling


def test_the_highest_trump_wins_when_several_are_played() -> None:
    state = plays(round_one("red 9"), "blue 13", "red 6", "red 11", "red 8")
    assert state.round.tricks[0].winner == 2
    assert "red 11 (Cy) beats red 6 (Bo) and red 8 (Di)" in state.last_ruling


def test_without_trump_the_highest_card_of_the_led_suit_wins() -> None:
    # black 11 is the highest number, but black was not led.
    state = plays(round_one("red 9"), "pink 5", "pink 9", "black 11", "pink 3")
    trick = state.round.tricks[0]
    assert (trick.winner, trick.rule) == (1, "lead-suit")
    assert "highest card of the led suit (pink)" in trick.explanation


def test_a_trick_records_its_cards_leader_and_boss_yokai() -> None:
    state = plays(round_one(), "green 1", "green 2", "green 7", "green 3")
    trick = state.round.tricks[0]
    assert (trick.number, trick.leader, trick.winner) == (1, 0, 0)
    assert trick.cards == cards("green 1", "green 2", "green 7", "green 3")
    assert trick.boss == cards("green 7")
    assert team_tricks(state) == (1, 0)
    assert team_boss(state) == (cards("green 7"), ())
    assert "Ann & Cy capture green 7: 1 trick, 1 Boss Yokai. Ann leads trick 2." in (
        state.last_ruling
    )


# --- Leads and turns -----------------------------------------------------------------------


def test_round_one_needs_the_first_lead_before_any_card() -> None:
    state = act(new_game(), TrumpCard(c("yellow 9")))
    assert next_step(state) == "first-lead"
    assert "Who leads round 1? The holder of the green 1." in state.last_ruling
    error = refused(state, Play(c("green 1")))
    assert "the holder of the green 1" in error.message
    state = act(state, FirstLead(2))
    assert state.last_ruling == "Cy holds the green 1 and leads trick 1."
    assert (state.first_lead, round_first_lead(state), turn_seat(state)) == (2, 2, 2)
    assert next_step(state) == "play"


def test_the_blue_13_leads_when_the_green_1_is_the_trump_card() -> None:
    state = act(new_game(), TrumpCard(c("green 1")))
    assert "The holder of the blue 13 (the green 1 is the trump card)." in state.last_ruling
    assert "blue 13" in refused(state, Play(c("blue 13"))).message
    state = act(state, FirstLead(3))
    assert state.last_ruling == (
        "The green 1 is the trump card, so the blue 13 leads: Di holds it and leads trick 1."
    )
    assert turn_seat(state) == 3


def test_the_first_lead_is_only_entered_once_in_round_one() -> None:
    before_trump = refused(new_game(), FirstLead(0))
    assert "Turn up the trump card first" in before_trump.message
    state = round_one(lead=1)
    assert refused(state, FirstLead(2)).field == "seat"
    state = one_point_round(state)
    error = refused(act(state, TrumpCard(c("red 9"))), FirstLead(0))
    assert "Only round 1 needs a first lead" in error.message
    assert "Cy leads round 2" in error.message


def test_the_lead_moves_one_seat_clockwise_each_round() -> None:
    state = round_one(lead=2)
    leads = [turn_seat(state)]
    for number in range(2, 6):
        state = one_point_round(state)
        assert state.round.number == number
        assert next_step(state) == "trump"
        expected_name = PLAYERS[(2 + number - 1) % 4]
        assert state.last_ruling.endswith(
            f"Turn up the trump card to start round {number}; {expected_name} leads it."
        )
        state = act(state, TrumpCard(c("yellow 9")))
        assert "The lead moves one seat clockwise each round." in state.last_ruling
        leads.append(turn_seat(state))
    assert leads == [2, 3, 0, 1, 2]
    assert state.first_lead == 2


def test_play_goes_clockwise_and_the_trick_winner_leads_next() -> None:
    state = round_one(lead=2)
    seen = []
    for text in ("pink 3", "pink 9", "pink 4", "pink 5"):  # Cy, Di, Ann, Bo: Di takes it
        seen.append(turn_seat(state))
        state = plays(state, text)
    assert seen == [2, 3, 0, 1]
    assert state.round.tricks[0].winner == 3
    assert state.last_ruling.endswith("Di leads trick 2.")
    seen = []
    for text in ("black 5", "black 6", "black 11", "black 8"):  # Di, Ann, Bo, Cy: Bo takes it
        seen.append(turn_seat(state))
        state = plays(state, text)
    assert seen == [3, 0, 1, 2]
    assert (state.round.leader, turn_seat(state)) == (1, 1)


def test_each_play_says_who_plays_next_and_notes_a_void() -> None:
    state = plays(round_one(), "blue 9")
    assert state.last_ruling == "Ann plays blue 9. Bo plays next."
    state = plays(state, "red 6")
    assert state.last_ruling == "Bo plays red 6 and shows no blue. Cy plays next."
    assert state.round.voids == frozenset({(1, "blue")})


# --- Round ends -------------------------------------------------------------------------------

FOUR_BOSS = (
    ("green 1", "green 2", "green 7", "green 3"),  # Ann leads; the green 1 takes green 7
    ("purple 7", "purple 2", "purple 8", "purple 3"),  # Cy takes purple 7
    ("pink 9", "pink 3", "pink 7", "pink 4"),  # Cy leads, takes pink 7
    ("red 12", "red 6", "red 7", "red 8"),  # Cy takes red 7: the 4th
)


def test_a_team_with_four_boss_yokai_wins_the_round_at_once() -> None:
    state = round_one("yellow 9", lead=0)
    for trick in FOUR_BOSS[:3]:
        state = plays(state, *trick)
    assert team_boss(state)[0] == cards("green 7", "purple 7", "pink 7")
    state = plays(state, *FOUR_BOSS[3])
    record = state.rounds[0]
    assert (record.number, record.winner, record.how, record.fast) == (1, 0, "four-boss", False)
    assert record.boss == cards("green 7", "purple 7", "pink 7", "red 7")
    assert (record.points, record.tricks, record.trump_card) == (3, (4, 0), c("yellow 9"))
    assert state.scores == (3, 0)
    assert (
        "Ann & Cy capture their 4th Boss Yokai and win round 1: 3 stars "
        "(pink 7: 1, red 7: 2; green 7 and purple 7 have no stars). Score: Ann & Cy 3, Bo & Di 0."
    ) in state.last_ruling
    # The next action is round 2's trump card; Bo leads it.
    assert next_step(state) == "trump"
    assert (state.round.number, state.round.trump_card, state.round.tricks) == (2, None, ())
    assert played_cards(state) == frozenset()
    assert round_first_lead(state) == 1


SEVEN_TRICKS = (
    ("green 1", "green 2", "green 3", "green 4"),  # Bo leads and takes it
    ("blue 13", "blue 8", "blue 7", "blue 9"),  # Bo takes blue 7
    ("blue 12", "blue 10", "blue 11", "red 6"),  # Bo; Ann shows no blue
    ("black 11", "black 5", "black 6", "black 8"),  # Bo
    ("red 8", "red 9", "red 12", "red 7"),  # Di takes red 7
    ("purple 8", "purple 2", "purple 3", "purple 4"),  # Di
    ("pink 9", "pink 3", "pink 4", "pink 5"),  # Di: Bo & Di's 7th trick, with 2 Boss Yokai
)


@pytest.mark.parametrize(
    ("trump", "from_hands", "points"),
    [
        # yellow is trump: yellow 7 scores nothing; pink 7 and black 7 score 1 each.
        ("yellow 9", ("green 7", "purple 7", "pink 7", "yellow 7", "black 7"), 2),
        # The trump card black 7 is out of play: not in anyone's hand.
        ("black 7", ("green 7", "purple 7", "pink 7", "yellow 7"), 2),
    ],
)
def test_seven_tricks_with_three_or_fewer_boss_yokai_lose_and_the_winners_take_the_hands(
    trump: str, from_hands: tuple[str, ...], points: int
) -> None:
    state = round_one(trump, lead=1)
    for trick in SEVEN_TRICKS[:-1]:
        state = plays(state, *trick)
    assert team_tricks(state) == (0, 6)
    assert not state.rounds
    state = plays(state, *SEVEN_TRICKS[-1])
    record = state.rounds[0]
    assert (record.winner, record.how, record.tricks) == (0, "seven-tricks", (0, 7))
    assert record.boss == cards(*from_hands)
    assert state.scores == (points, 0)
    assert "Bo & Di take their 7th trick with only 2 Boss Yokai and lose round 1." in (
        state.last_ruling
    )
    assert "Ann & Cy take the Boss Yokai still in hand (" in state.last_ruling
    assert not state.flags


def test_a_fourth_boss_yokai_with_the_seventh_trick_wins_rather_than_loses() -> None:
    state = round_one("yellow 9", lead=1)
    for trick in SEVEN_TRICKS[:5]:
        state = plays(state, *trick)
    state = plays(state, "purple 8", "purple 7", "purple 3", "purple 4")  # Di takes purple 7
    state = plays(state, "pink 9", "pink 7", "pink 4", "pink 5")  # Di: 7th trick, 4th boss
    record = state.rounds[0]
    assert (record.winner, record.how) == (1, "four-boss")
    assert record.points == 5  # purple 0 + pink 1 + red 2 + blue 2
    assert state.scores == (0, 5)


# All 48 cards; blue 7 is the trump card. Tricks split 6-6, Boss Yokai 3-3; Cy takes the last.
LAST_TRICK = (
    ("green 1", "green 2", "green 7", "green 3"),  # Ann leads; Ann takes green 7
    ("purple 2", "purple 8", "purple 3", "purple 7"),  # Bo takes purple 7
    ("pink 3", "pink 9", "pink 4", "pink 7"),  # Cy takes pink 7
    ("yellow 4", "yellow 10", "yellow 5", "yellow 7"),  # Di takes yellow 7
    ("black 11", "black 5", "black 7", "black 6"),  # Di takes black 7
    ("red 6", "red 12", "red 8", "red 7"),  # Ann takes red 7
    ("blue 8", "blue 13", "blue 9", "blue 10"),  # Bo trumps
    ("green 4", "green 6", "green 5", "red 9"),  # Cy; Ann has no green left
    ("purple 4", "purple 6", "purple 5", "red 10"),  # Di; Bo has no purple left
    ("pink 8", "pink 5", "pink 6", "red 11"),  # Di; Cy has no pink left
    ("yellow 6", "yellow 9", "yellow 8", "black 8"),  # Ann; Cy has no yellow left
    ("black 9", "black 10", "blue 12", "blue 11"),  # Cy trumps the last trick
)


def test_after_twelve_tricks_the_last_tricks_winners_win_when_the_trump_card_is_a_7() -> None:
    state = act(new_game(), TrumpCard(c("blue 7")))
    assert "6 Boss Yokai are in play" in state.last_ruling
    state = act(state, FirstLead(0))
    for trick in LAST_TRICK[:-1]:
        state = plays(state, *trick)
    assert team_tricks(state) == (5, 6)
    assert tuple(len(boss) for boss in team_boss(state)) == (3, 3)
    state = plays(state, *LAST_TRICK[-1])
    record = state.rounds[0]
    assert (record.winner, record.how, record.tricks) == (0, "last-trick", (6, 6))
    assert record.boss == cards("green 7", "pink 7", "red 7")
    assert state.scores == (3, 0)
    assert "That was the last trick: Ann & Cy took it and win round 1: 3 stars" in (
        state.last_ruling
    )
    assert not state.flags


# --- Stars -----------------------------------------------------------------------------------

TRUMP_OF = {
    "green": "green 2",
    "purple": "purple 5",
    "pink": "pink 8",
    "yellow": "yellow 9",
    "black": "black 10",
    "red": "red 9",
    "blue": "blue 12",
}


@pytest.mark.parametrize("trump", list(SHEET_STARS))
def test_each_boss_yokai_scores_its_stars_except_the_trump_colours(trump: str) -> None:
    for colour, value in SHEET_STARS.items():
        expected = 0 if colour == trump else value
        assert stars(Card(colour, 7), trump) == expected
        assert stars(Card(colour, 8 if colour != "green" else 6), trump) == 0
    # A team that ends with all seven scores every star but the trump colour's.
    state = act(round_one(TRUMP_OF[trump]), result(1, "four-boss", *ALL_BOSS))
    assert state.scores == (0, 7 - SHEET_STARS[trump])
    assert state.rounds[0].points == 7 - SHEET_STARS[trump]
    assert "the trump colour's 7 scores nothing" in state.last_ruling


def test_with_a_7_as_trump_card_the_other_six_score() -> None:
    six = [boss for boss in ALL_BOSS if boss != "red 7"]
    state = act(round_one("red 7"), result(0, "four-boss", *six))
    assert state.scores == (5, 0)


# --- The end of the game ---------------------------------------------------------------------


def test_the_game_ends_when_a_team_reaches_seven_points() -> None:
    state = round_one("red 9")
    state = act(state, result(1, "four-boss", "blue 7", "black 7", "pink 7", "yellow 7"))
    assert state.scores == (0, 5) and not state.finished
    state = act(state, TrumpCard(c("green 3")), result(1, "four-boss", *ALL_BOSS[:4]))
    assert state.scores == (0, 7)
    assert GAME.is_finished(state) and next_step(state) == "over"
    assert GAME.winners(state) == [1, 3]
    assert "Game over: Bo & Di win with 7 points to 0." in state.last_ruling
    standings = GAME.standings(state)
    assert [(s.name, s.score, s.rank) for s in standings] == [
        ("Bo", 7, 1),
        ("Di", 7, 1),
        ("Ann", 0, 3),
        ("Cy", 0, 3),
    ]
    # The game is over: nothing more is recorded.
    for action in (TrumpCard(c("red 9")), Play(c("red 9")), Pass(), FirstLead(0)):
        assert refused(state, action).message == "The game is over."
    assert state.round.number == 2  # the last round played stays in view
    assert TARGET == 7


def test_a_game_ended_by_a_played_round_keeps_its_last_tricks() -> None:
    state = act(
        round_one("green 2"), result(0, "four-boss", "blue 7", "red 7", "pink 7", "black 7")
    )
    assert state.scores == (6, 0)
    state = act(state, TrumpCard(c("yellow 9")))  # Bo leads round 2
    for trick in (
        ("pink 3", "pink 9", "pink 4", "pink 7"),  # Cy takes pink 7 and leads on
        ("red 12", "red 6", "red 7", "red 8"),
        ("blue 13", "blue 8", "blue 7", "blue 9"),
        ("black 11", "black 5", "black 7", "black 6"),  # the 4th Boss Yokai
    ):
        state = plays(state, *trick)
    assert state.finished
    assert state.scores == (12, 0)
    assert state.last_ruling.endswith("Game over: Ann & Cy win with 12 points to 0.")
    assert (state.round.number, len(state.round.tricks)) == (2, 4)
    assert turn_seat(state) is None


# --- Refusals ------------------------------------------------------------------------------------


def test_a_card_cannot_be_played_twice_in_a_round() -> None:
    state = plays(round_one(), "blue 9", "blue 10", "blue 11", "blue 12")
    error = refused(state, Play(c("blue 9")))
    assert error.field == "card"
    assert error.message.startswith("blue 9 was played in trick 1 (by Ann)")
    in_this_trick = plays(state, "pink 3")
    assert "pink 3 was played in trick 2" in refused(in_this_trick, Play(c("pink 3"))).message


def test_the_trump_card_is_out_of_play() -> None:
    error = refused(round_one("red 9"), Play(c("red 9")))
    assert error.message == "red 9 is the face-up trump card: it is out of play."
    assert error.field == "card"


def test_a_card_may_be_played_again_in_the_next_round() -> None:
    state = round_one("red 9")
    state = plays(state, *FOUR_BOSS[0], *FOUR_BOSS[1], *FOUR_BOSS[2], *FOUR_BOSS[3])
    state = act(state, TrumpCard(c("blue 9")))
    state = plays(state, "green 1")
    assert state.round.current == cards("green 1")
    assert played_cards(state) == frozenset(cards("blue 9", "green 1"))


def test_cards_wait_for_the_trump_card_and_the_first_lead() -> None:
    error = refused(new_game(), Play(c("blue 9")))
    assert error.message == "Turn up the trump card of round 1 first."
    assert refused(new_game(), Pass()).field == "type"
    assert refused(new_game(), result(0, "four-boss", *ALL_BOSS)).field == "type"
    no_lead = act(new_game(), TrumpCard(c("red 9")))
    assert "Say who leads round 1 first" in refused(no_lead, Play(c("blue 9"))).message
    assert "Say who leads round 1 first" in refused(no_lead, Pass()).message


def test_after_a_round_ends_the_next_round_needs_its_trump_card() -> None:
    state = one_point_round(round_one())
    error = refused(state, Play(c("blue 9")))
    assert error.message == "Turn up the trump card of round 2 first: round 1 is over."
    assert not can_record_result(state) and not can_pass(state)


def test_the_trump_card_is_turned_up_once_a_round() -> None:
    state = round_one("red 9")
    error = refused(state, TrumpCard(c("blue 9")))
    assert "Round 1 already has its trump card (red 9)" in error.message
    assert error.field == "card"


def test_a_card_outside_the_deck_is_refused_even_when_built_directly() -> None:
    assert refused(round_one(), Play(Card("red", 99))).field == "card"
    assert refused(new_game(), TrumpCard(Card("gold", 7))).field == "card"
    assert refused(round_one(), FirstLead(7)).field == "seat"


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "type"),
        ({"type": "dance"}, "type"),
        ({"type": "play"}, "card"),
        ({"type": "play", "card": 9}, "card"),
        ({"type": "play", "card": "red 99"}, "card"),
        ({"type": "play", "card": "blue 9", "seat": 1}, "seat"),
        ({"type": "trump"}, "card"),
        ({"type": "trump", "card": "gold 3"}, "card"),
        ({"type": "first-lead"}, "seat"),
        ({"type": "first-lead", "seat": 4}, "seat"),
        ({"type": "first-lead", "seat": True}, "seat"),
        ({"type": "first-lead", "seat": "two"}, "seat"),
        ({"type": "pass", "cards": 3}, "cards"),
        ({"type": "result", "team": 2, "how": "four-boss", "boss": []}, "team"),
        ({"type": "result", "team": 0, "how": "luck", "boss": []}, "how"),
        ({"type": "result", "team": 0, "how": "four-boss", "boss": "red 7"}, "boss"),
        ({"type": "result", "team": 0, "how": "four-boss", "boss": ["red 77"]}, "boss"),
        ({"type": "result", "team": 0, "how": "four-boss"}, "boss"),
        ({"type": "revoke", "flag": 0}, "accept"),
        ({"type": "revoke", "flag": 0, "accept": "yes"}, "accept"),
        ({"type": "revoke", "flag": -1, "accept": True}, "flag"),
        ({"type": "revoke", "flag": 0, "accept": True, "penalty": 8}, "penalty"),
        ({"type": "revoke", "flag": 0, "accept": True, "penalty": -1}, "penalty"),
        ({"type": "revoke", "flag": 0, "accept": True, "why": "x"}, "why"),
    ],
)
def test_bad_action_shapes_are_refused_naming_the_field(
    data: dict[str, object], field: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    assert caught.value.field == field


def test_an_action_must_be_an_object() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(["pass"])  # type: ignore[arg-type]
    assert caught.value.field == "type"


# --- JSON ----------------------------------------------------------------------------------------

ACTIONS: list[Action] = [
    TrumpCard(c("red 9")),
    FirstLead(1),
    Pass(),
    Play(c("blue 9")),
    RoundResult(0, "four-boss", cards("red 7", "pink 7", "green 7", "purple 7")),
    RoundResult(1, "last-trick", cards("blue 7", "red 7", "pink 7")),
    ResolveRevoke(0, True, 2),
    ResolveRevoke(3, False),
]


@pytest.mark.parametrize("action", ACTIONS)
def test_actions_survive_a_json_round_trip(action: Action) -> None:
    data = GAME.action_to_json(action)
    assert GAME.parse_action(data) == action
    assert GAME.action_to_json(GAME.parse_action(data)) == data


def test_action_json_has_the_documented_shapes() -> None:
    assert GAME.action_to_json(TrumpCard(c("red 9"))) == {"type": "trump", "card": "red 9"}
    assert GAME.action_to_json(FirstLead(1)) == {"type": "first-lead", "seat": 1}
    assert GAME.action_to_json(Pass()) == {"type": "pass"}
    assert GAME.action_to_json(Play(c("blue 9"))) == {"type": "play", "card": "blue 9"}
    assert GAME.action_to_json(RoundResult(0, "four-boss", cards("red 7"))) == {
        "type": "result",
        "team": 0,
        "how": "four-boss",
        "boss": ["red 7"],
    }
    assert GAME.action_to_json(ResolveRevoke(0, True, 2)) == {
        "type": "revoke",
        "flag": 0,
        "accept": True,
        "penalty": 2,
    }
    assert GAME.parse_action({"type": "revoke", "flag": 0, "accept": False}) == ResolveRevoke(
        0, False, 0
    )
    assert GAME.parse_action({"type": "play", "card": " Blue  9 "}) == Play(c("blue 9"))


def test_describe_is_short_and_names_no_one() -> None:
    assert [GAME.describe(action) for action in ACTIONS] == [
        "trump card red 9",
        "first lead: seat 2",
        "pass",
        "play blue 9",
        "result: team 1 by four Boss Yokai",
        "result: team 2 by the last trick",
        "revoke flag 0 accepted, 2 points",
        "revoke flag 3 dismissed",
    ]


# --- Passing and the fast path ----------------------------------------------------------------


def test_the_pass_is_recorded_once_before_any_card() -> None:
    state = round_one(lead=1)
    assert can_pass(state) and can_record_result(state)
    state = act(state, Pass())
    assert state.round.passed
    assert state.last_ruling == "Partners passed 3 cards each. Bo leads trick 1."
    assert not can_pass(state)
    assert "already recorded" in refused(state, Pass()).message
    assert state.scores == (0, 0)
    state = plays(state, "blue 9")
    assert not can_record_result(state)


def test_no_pass_once_cards_are_played() -> None:
    state = plays(round_one(), "blue 9")
    assert not can_pass(state)
    assert "before the first card" in refused(state, Pass()).message


def test_a_round_result_can_be_entered_after_the_pass() -> None:
    state = act(round_one("red 9", lead=2), Pass())
    state = act(state, result(1, "four-boss", "blue 7", "pink 7", "red 7", "green 7"))
    record = state.rounds[0]
    assert (record.winner, record.how, record.fast, record.points) == (1, "four-boss", True, 3)
    assert record.tricks == (0, 0)
    assert state.scores == (0, 3)
    assert state.last_ruling.startswith(
        "Round 1 result: Bo & Di win with four or more Boss Yokai: 3 stars "
        "(pink 7: 1, blue 7: 2; green 7 has no stars; the trump colour's 7 scores nothing)."
    )
    assert round_first_lead(state) == 3


def test_a_seven_tricks_result_lists_the_boss_yokai_taken_from_the_hands() -> None:
    state = act(round_one("red 9"), result(0, "seven-tricks", *ALL_BOSS[:4]))
    assert state.scores == (0 + 0 + 1 + 1, 0)
    with_seven = act(round_one("red 7"), result(1, "seven-tricks", "green 7", "pink 7", "blue 7"))
    assert with_seven.scores == (0, 3)


def test_a_last_trick_result_needs_the_trump_card_to_be_a_7() -> None:
    state = act(round_one("black 7"), result(1, "last-trick", "red 7", "blue 7", "green 7"))
    assert state.scores == (0, 4)
    error = refused(round_one("black 8"), result(1, "last-trick", "red 7", "blue 7", "green 7"))
    assert error.field == "how"
    assert "before trick 12" in error.message


@pytest.mark.parametrize(
    ("trump", "action", "field", "words"),
    [
        ("red 9", result(0, "four-boss", "red 9", "pink 7", "green 7", "blue 7"), "boss", "7s"),
        ("red 9", result(0, "four-boss", "pink 7", "pink 7", "green 7", "blue 7"), "boss", "twice"),
        ("red 7", result(0, "four-boss", "red 7", "pink 7", "green 7", "blue 7"), "boss", "out"),
        ("red 9", result(0, "four-boss", "pink 7", "green 7", "blue 7"), "boss", "at least 4"),
        ("red 9", result(0, "seven-tricks", "pink 7", "green 7", "blue 7"), "boss", "at least 4"),
        ("red 7", result(0, "seven-tricks", "pink 7", "green 7"), "boss", "at least 3"),
        ("red 9", result(0, "last-trick", "pink 7", "green 7", "blue 7"), "how", "not a 7"),
        ("red 7", result(0, "last-trick", *ALL_BOSS[:4]), "boss", "3 Boss Yokai"),
        ("red 9", RoundResult(2, "four-boss", cards(*ALL_BOSS)), "team", "no team 2"),
    ],
)
def test_a_round_result_must_be_consistent(
    trump: str, action: RoundResult, field: str, words: str
) -> None:
    state = round_one(trump)
    error = refused(state, action)
    assert (error.field, words in error.message) == (field, True), error.message
    assert refused(state, action).message == error.message  # nothing changed


def test_no_round_result_once_cards_are_played() -> None:
    state = plays(round_one("red 9"), "blue 9")
    error = refused(state, result(0, "four-boss", *ALL_BOSS))
    assert "before any card" in error.message


# --- Revokes ------------------------------------------------------------------------------------


def revoke_round() -> State:
    """Bo shows no black in trick 1, then plays black 7 in trick 2 (and no pink there)."""
    state = round_one("yellow 9", lead=0)
    state = plays(state, "black 11", "blue 8", "black 5", "black 6")  # Bo: no black
    return plays(state, "pink 9", "black 7", "pink 3", "pink 4")  # Bo plays black after all


def test_a_card_of_a_colour_shown_void_raises_a_revoke_flag() -> None:
    state = plays(round_one("yellow 9", lead=0), "black 11", "blue 8", "black 5", "black 6")
    state = plays(state, "pink 9", "black 7")
    assert state.last_ruling.startswith(
        "Revoke? Bo did not follow black in trick 1 but now plays black 7. The play counts; "
        "revoke flag 0 is open"
    )
    assert state.last_ruling.endswith("Bo shows no pink. Cy plays next.")
    state = plays(state, "pink 3", "pink 4")
    assert state.last_ruling.startswith("Trick 2: Ann takes it with pink 9.")
    assert state == revoke_round()
    assert state.flags == (RevokeFlag(1, 1, "black", 1, 2, c("black 7"), "open", 0),)
    assert open_flags(state) == [(0, state.flags[0])]
    # The play counts: Ann & Cy captured black 7.
    assert team_boss(state) == (cards("black 7"), ())
    assert state.round.voids == frozenset({(1, "pink")})


def test_a_revoke_is_flagged_once_and_a_new_one_again() -> None:
    state = revoke_round()
    state = plays(state, "green 6", "black 8", "green 5", "green 4")  # black again: same revoke
    assert len(state.flags) == 1
    state = plays(state, "purple 8", "pink 5", "purple 3", "purple 4")  # pink after no pink
    assert [(flag.colour, flag.failed_trick, flag.trick) for flag in state.flags] == [
        ("black", 1, 2),
        ("pink", 2, 4),
    ]


def test_a_seat_that_leads_a_colour_it_showed_void_in_is_flagged() -> None:
    state = round_one("yellow 9", lead=1)
    state = plays(state, "red 8", "red 9", "red 12", "blue 8")  # Ann: no red; Di takes it
    state = plays(state, "purple 8", "purple 2", "purple 3", "purple 4")  # Di takes it
    state = plays(state, "pink 3", "pink 9", "pink 4", "pink 5")  # Ann takes it, leads next
    state = plays(state, "red 6")
    assert [(flag.seat, flag.colour, flag.trick) for flag in state.flags] == [(0, "red", 4)]
    assert state.last_ruling.startswith("Revoke? Ann did not follow red in trick 1")


def test_an_accepted_revoke_gives_its_penalty_to_the_other_team() -> None:
    state = act(revoke_round(), ResolveRevoke(0, True, 2))
    assert state.scores == (2, 0)
    assert state.flags[0].status == "accepted"
    assert state.flags[0].penalty == 2
    assert open_flags(state) == []
    assert state.last_ruling == (
        "Revoke by Bo (black, round 1, trick 2) accepted: 2 penalty points to Ann & Cy. "
        "Score: Ann & Cy 2, Bo & Di 0. Ann leads trick 3."
    )
    rows = GAME.score_rows(state)
    assert [(row.round, row.name, row.points, row.total) for row in rows] == [
        (1, "Ann", 2, 2),
        (1, "Bo", 0, 0),
        (1, "Cy", 2, 2),
        (1, "Di", 0, 0),
    ]
    assert rows[0].note == "revoke penalty +2 (Bo revoked)"
    assert rows[1].note == "Bo revoked: 2 to the other team"


def test_a_dismissed_revoke_scores_nothing_and_cannot_carry_a_penalty() -> None:
    state = revoke_round()
    assert refused(state, ResolveRevoke(0, False, 1)).field == "penalty"
    state = act(state, ResolveRevoke(0, False))
    assert (state.flags[0].status, state.scores) == ("dismissed", (0, 0))
    assert state.last_ruling.startswith("Revoke by Bo (black, round 1, trick 2) dismissed")
    assert GAME.score_rows(state) == []


def test_a_settled_revoke_cannot_be_settled_again() -> None:
    state = act(revoke_round(), ResolveRevoke(0, True, 1))
    for again in (ResolveRevoke(0, True, 1), ResolveRevoke(0, False)):
        error = refused(state, again)
        assert error.field == "flag"
        assert "already accepted" in error.message
    missing = refused(state, ResolveRevoke(5, False))
    assert "There is no revoke flag 5" in missing.message
    assert refused(new_game(), ResolveRevoke(0, False)).field == "flag"


def test_a_revoke_can_be_settled_after_its_round_ended_and_counts_there() -> None:
    state = round_one("yellow 9", lead=0)
    state = plays(state, *FOUR_BOSS[0])
    state = plays(state, "purple 7", "purple 2", "purple 8", "green 4")  # Di: no purple
    state = plays(state, "pink 9", "purple 3", "pink 7", "pink 4")  # Di plays purple: flag
    state = plays(state, *FOUR_BOSS[3])
    assert state.rounds[0].how == "four-boss"
    assert [(i, flag.seat, flag.colour) for i, flag in open_flags(state)] == [(0, 3, "purple")]
    state = act(state, ResolveRevoke(0, True, 3))
    assert state.scores == (6, 0)
    assert state.flags[0].settled_in == 1
    rows = [row for row in GAME.score_rows(state) if row.seat == 0]
    assert [(row.round, row.points, row.total) for row in rows] == [(1, 6, 6)]
    assert rows[0].note == "won by four Boss Yokai; revoke penalty +3 (Di revoked)"
    assert state.last_ruling.endswith("Turn up the trump card to start round 2; Bo leads it.")


def test_an_accepted_penalty_can_end_the_game() -> None:
    state = act(
        round_one("green 2"), result(0, "four-boss", "blue 7", "red 7", "pink 7", "black 7")
    )
    state = act(state, TrumpCard(c("red 9")))  # Bo leads round 2
    state = plays(state, "blue 9", "pink 3", "blue 10", "blue 11")  # Cy: no blue
    state = plays(state, "green 4", "green 5", "blue 12")  # Cy plays blue: flag
    assert open_flags(state)
    state = act(state, ResolveRevoke(0, True, 7))
    assert state.finished
    assert state.scores == (6, 7)
    assert GAME.winners(state) == [1, 3]
    assert "Game over: Bo & Di win with 7 points to 6." in state.last_ruling
    rows = GAME.score_rows(state)
    assert [(row.round, row.points, row.total) for row in rows if row.seat == 1] == [
        (1, 0, 0),
        (2, 7, 7),
    ]
    assert refused(state, Play(c("green 6"))).message == "The game is over."


def test_score_rows_give_each_seat_its_teams_points_per_round() -> None:
    state = round_one("red 9")
    state = act(state, result(1, "four-boss", "blue 7", "pink 7", "green 7", "purple 7"))
    state = one_point_round(state)
    rows = GAME.score_rows(state)
    assert len(rows) == 8
    assert [(row.round, row.seat, row.points, row.total, row.note) for row in rows[:4]] == [
        (1, 0, 0, 0, "lost"),
        (1, 1, 3, 3, "won by four Boss Yokai (entered as a result)"),
        (1, 2, 0, 0, "lost"),
        (1, 3, 3, 3, "won by four Boss Yokai (entered as a result)"),
    ]
    assert [(row.points, row.total) for row in rows[4:]] == [(1, 1), (0, 3), (1, 1), (0, 3)]
    assert [s.score for s in GAME.standings(state)] == [3, 3, 1, 1]


# --- Replay from a seeded deal ---------------------------------------------------------------


def deal(rng: random.Random) -> tuple[Card, list[list[Card]]]:
    deck = list(YOKAI_SEPTET.cards())
    rng.shuffle(deck)
    return deck[48], [deck[index * 12 : (index + 1) * 12] for index in range(4)]


def legal(hand: Sequence[Card], led: str | None) -> list[Card]:
    following = [card for card in hand if card.colour == led]
    return following or list(hand)


def start_dealt_round(state: State, rng: random.Random) -> tuple[State, list[list[Card]]]:
    trump_card, hands = deal(rng)
    state = act(state, TrumpCard(trump_card))
    if state.round.number == 1:
        holds = Card("blue", 13) if trump_card == Card("green", 1) else Card("green", 1)
        state = act(state, FirstLead(next(i for i, hand in enumerate(hands) if holds in hand)))
    return state, hands


def check_round_so_far(state: State) -> None:
    rnd = state.round
    in_tricks = [card for trick in rnd.tricks for card in trick.cards]
    all_played = [*in_tricks, *rnd.current]
    assert len(all_played) == len(set(all_played)), "a card was played twice"
    assert rnd.trump_card not in all_played
    assert sum(team_tricks(state)) == len(rnd.tricks) <= 12
    assert all(len(trick.cards) == 4 for trick in rnd.tricks)


@pytest.mark.parametrize("seed", [1, 7, 2024])
def test_a_seeded_game_of_random_legal_plays(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game()
    scores = [state.scores]
    while not state.finished:
        assert state.round.number <= 40, "the game should end"
        state, hands = start_dealt_round(state, rng)
        number = state.round.number
        while len(state.rounds) < number:
            seat = turn_seat(state)
            assert seat is not None
            led = state.round.current[0].colour if state.round.current else None
            card = rng.choice(legal(hands[seat], led))
            hands[seat].remove(card)
            before = state
            state = act(state, Play(card))
            if len(state.rounds) < number or state.finished:
                check_round_so_far(state)
            else:
                check_round_so_far(before)
            scores.append(state.scores)
        assert not state.flags, "legal play never raises a revoke flag"
        record = state.rounds[-1]
        assert record.number == number and record.winner in (0, 1)
        assert record.points == sum(
            SHEET_STARS[card.colour]
            for card in record.boss
            if card.colour != record.trump_card.colour
        )
        assert len(set(record.boss)) == len(record.boss)
        assert all(card.number == 7 and card != record.trump_card for card in record.boss)
        if record.how == "four-boss":
            assert len(record.boss) >= 4
        elif record.how == "seven-tricks":
            assert record.tricks[1 - record.winner] == 7
        else:
            assert sum(record.tricks) == 12 and record.trump_card.number == 7
    assert [record.number for record in state.rounds] == list(range(1, len(state.rounds) + 1))
    assert all(
        later[team] >= earlier[team] for earlier, later in pairwise(scores) for team in (0, 1)
    )
    assert max(state.scores) >= 7
    assert state.scores == (
        sum(r.points for r in state.rounds if r.winner == 0),
        sum(r.points for r in state.rounds if r.winner == 1),
    )
    winners = GAME.winners(state)
    assert winners in ([0, 2], [1, 3])
    assert state.scores[team_of(winners[0])] >= 7
    rows = GAME.score_rows(state)
    assert len(rows) == 4 * len(state.rounds)
    assert {row.total for row in rows[-4:]} == set(state.scores)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3))
def test_a_seat_that_revokes_raises_exactly_one_flag(seed: int, revoker: int) -> None:
    """The revoker plays off-colour once though it could follow, then plays that colour again."""
    rng = random.Random(seed)
    state, hands = start_dealt_round(new_game(), rng)
    revoked: tuple[str, int] | None = None  # the colour and the trick it failed to follow
    played_it_again = False
    while not state.rounds:
        seat = turn_seat(state)
        assert seat is not None
        hand = hands[seat]
        led = state.round.current[0].colour if state.round.current else None
        choices = legal(hand, led)
        if seat == revoker and revoked is None and led is not None:
            others = [card for card in hand if card.colour != led]
            if len(choices) < len(hand) and others:  # could follow, plays another colour
                choices = others
                revoked = (led, state.round.trick_number)
        elif seat == revoker and revoked is not None:
            again = [card for card in hand if card.colour == revoked[0]]
            following = [card for card in hand if card.colour == led]
            if again and (led is None or led == revoked[0] or not following):
                choices = again
                played_it_again = True
        card = rng.choice(choices)
        hand.remove(card)
        state = act(state, Play(card))
    flags = state.flags
    if revoked is None or not played_it_again:
        assert flags == ()
    else:
        assert len(flags) == 1
        flag = flags[0]
        assert (flag.seat, flag.colour, flag.failed_trick) == (revoker, *revoked)
        assert flag.trick > flag.failed_trick
        assert flag.status == "open"


# --- What comes next -------------------------------------------------------------------------

DECK = tuple(str(card) for card in YOKAI_SEPTET.cards())


def in_play(*out: str) -> tuple[str, ...]:
    """The deck's cards, as written, but those out of play (the trump card, cards played)."""
    return tuple(card for card in DECK if card not in out)


def play_turn(state: State, *out: str, pass_too: bool = False) -> tuple[Accepts, ...]:
    """What a seat may do at a card: any card still in play (and, before the first card,
    the pass and the result naming any Boss Yokai but the trump card)."""
    trump = str(state.round.trump_card)
    actions = [Accepts("play", cards=in_play(trump, *out))]
    if pass_too:
        actions.append(Accepts("pass"))
    if not out:
        # The last trick is reached only when a 7 is the trump card.
        hows = HOWS if trump in ALL_BOSS else ("four-boss", "seven-tricks")
        boss = tuple(b for b in ALL_BOSS if b != trump)
        actions.append(Accepts("result", cards=boss, choices=hows))
    return tuple(actions)


def test_a_new_game_expects_the_tables_trump_card_from_the_whole_deck() -> None:
    expected = GAME.expected(new_game())
    assert expected == Expected(None, (Accepts("trump", cards=DECK),))
    assert len(DECK) == 49 and DECK[0] == "green 1" and DECK[-1] == "blue 13"
    assert expected_actions(new_game()) == expected


def test_round_one_expects_the_table_to_say_who_leads() -> None:
    state = act(new_game(), TrumpCard(c("yellow 9")))
    assert GAME.expected(state) == Expected(None, (Accepts("first-lead", choices=(0, 1, 2, 3)),))


def test_the_first_lead_may_play_any_card_but_the_trump_card_pass_or_enter_the_result() -> None:
    state = round_one("yellow 9", lead=2)
    expected = GAME.expected(state)
    assert expected == Expected(2, play_turn(state, pass_too=True))
    assert expected.accepts("result") == Accepts(
        "result", cards=ALL_BOSS, choices=("four-boss", "seven-tricks")
    )
    assert expected.to_json()["actions"][1:] == [
        {"type": "pass"},
        {"type": "result", "cards": list(ALL_BOSS), "choices": ["four-boss", "seven-tricks"]},
    ]


def test_the_result_does_not_offer_the_trump_card_when_it_is_a_boss_yokai() -> None:
    state = round_one("red 7", lead=0)
    result_accepts = GAME.expected(state).accepts("result")
    assert result_accepts == Accepts(
        "result",
        cards=("green 7", "purple 7", "pink 7", "yellow 7", "black 7", "blue 7"),
        # Six Boss Yokai in play: the round may reach the last trick.
        choices=("four-boss", "seven-tricks", "last-trick"),
    )


def test_after_the_pass_the_pass_is_no_longer_expected() -> None:
    state = act(round_one("yellow 9", lead=1), Pass())
    assert GAME.expected(state) == Expected(1, play_turn(state))


def test_each_card_played_leaves_the_list_and_the_next_seat_is_expected() -> None:
    state = plays(round_one("yellow 9", lead=0), "blue 9")
    assert GAME.expected(state) == Expected(
        1, (Accepts("play", cards=in_play("yellow 9", "blue 9")),)
    )
    state = plays(state, "blue 10", "blue 11", "blue 12")  # Di takes trick 1
    played = ("blue 9", "blue 10", "blue 11", "blue 12")
    assert GAME.expected(state) == Expected(
        3, (Accepts("play", cards=in_play("yellow 9", *played)),)
    )


def test_an_open_revoke_flag_is_the_tables_to_settle_beside_the_next_card() -> None:
    state = revoke_round()
    out = ("yellow 9", "black 11", "blue 8", "black 5", "black 6", "pink 9", "black 7", "pink 3")
    assert GAME.expected(state) == Expected(
        0,
        (
            Accepts("play", cards=in_play(*out, "pink 4")),
            Accepts("revoke", choices=(0,)),
        ),
    )
    settled = act(state, ResolveRevoke(0, False))
    assert GAME.expected(settled).types == {"play"}


def test_a_new_round_expects_its_trump_card_from_the_whole_deck_again() -> None:
    state = round_one("yellow 9", lead=0)
    state = plays(state, *FOUR_BOSS[0], *FOUR_BOSS[1], *FOUR_BOSS[2], *FOUR_BOSS[3])
    assert state.rounds
    assert GAME.expected(state) == Expected(None, (Accepts("trump", cards=DECK),))
    state = act(state, TrumpCard(c("blue 9")))  # round 2: Bo leads, no first lead asked
    assert GAME.expected(state) == Expected(1, play_turn(state, pass_too=True))


def test_a_revoke_left_open_at_round_end_is_expected_beside_the_next_trump_card() -> None:
    state = round_one("yellow 9", lead=0)
    state = plays(state, *FOUR_BOSS[0])
    state = plays(state, "purple 7", "purple 2", "purple 8", "green 4")  # Di: no purple
    state = plays(state, "pink 9", "purple 3", "pink 7", "pink 4")  # Di plays purple: flag
    state = plays(state, *FOUR_BOSS[3])
    assert GAME.expected(state) == Expected(
        None, (Accepts("trump", cards=DECK), Accepts("revoke", choices=(0,)))
    )


def test_a_finished_game_expects_nothing() -> None:
    state = round_one("red 9")
    state = act(state, result(1, "four-boss", "blue 7", "black 7", "pink 7", "yellow 7"))
    state = act(state, TrumpCard(c("green 3")), result(1, "four-boss", *ALL_BOSS[:4]))
    assert state.finished
    assert GAME.expected(state) == NOTHING_EXPECTED
    assert GAME.expected(state).to_json() == {"seat": None, "actions": []}


def game_won_with_a_revoke_open() -> State:
    """Round 2: Cy revokes blue in trick 2, then Ann & Cy take a 4th Boss Yokai and reach 9."""
    state = act(
        round_one("green 2"), result(0, "four-boss", "blue 7", "red 7", "pink 7", "black 7")
    )
    state = act(state, TrumpCard(c("red 9")))  # Bo leads round 2
    state = plays(state, "blue 9", "pink 3", "blue 10", "blue 11")  # Cy: no blue; Ann takes it
    state = plays(state, "green 7", "green 5", "blue 12", "green 2")  # Cy plays blue: flag
    state = plays(state, "pink 7", "pink 4", "pink 9", "pink 5")
    state = plays(state, "black 7", "black 5", "black 11", "black 6")
    return plays(state, "yellow 7", "yellow 4", "yellow 10", "yellow 5")  # the 4th Boss Yokai


def test_a_revoke_open_when_the_game_ends_is_still_expected_then_nothing() -> None:
    state = game_won_with_a_revoke_open()
    assert state.finished and state.scores == (9, 0)
    assert GAME.expected(state) == Expected(None, (Accepts("revoke", choices=(0,)),))
    assert GAME.expected(act(state, ResolveRevoke(0, False))) == NOTHING_EXPECTED


def test_a_penalty_settled_after_the_game_is_over_does_not_reopen_it() -> None:
    state = act(game_won_with_a_revoke_open(), ResolveRevoke(0, True, 2))
    assert state.scores == (9, 2)
    assert state.finished
    assert next_step(state) == "over"
    assert GAME.winners(state) == [0, 2]
    assert state.last_ruling == (
        "Revoke by Cy (blue, round 2, trick 2) accepted: 2 penalty points to Bo & Di. "
        "Score: Ann & Cy 9, Bo & Di 2. Game over: Ann & Cy win with 9 points to 2."
    )
    assert refused(state, Play(c("red 12"))).message == "The game is over."
    assert GAME.expected(state) == NOTHING_EXPECTED


# The property: at every state of seeded random games, ``expected`` lists exactly what
# ``apply`` accepts. Each type is tried with values built from the lists, each type not
# listed with the values that could be accepted at some point.


def accepted(state: State, action: Action) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalAction:
        return False
    return True


def listed_values(expected: Expected, kind: str, field: str) -> list[object]:
    """The values ``expected`` lists for ``kind`` in ``field`` (none: the type is not listed)."""
    accepts = expected.accepts(kind)
    return [] if accepts is None else list(getattr(accepts, field) or ())


def check_expected(state: State) -> Expected:
    expected = GAME.expected(state)
    flags = [index for index, _ in open_flags(state)]
    assert (expected.actions == ()) == (state.finished and not flags)
    assert len(expected.types) == len(expected.actions), "one entry per type"
    # Cards, seats and flags: exactly the values listed are accepted, in the listed order.
    trumps = [card for card in DECK if accepted(state, TrumpCard(c(card)))]
    assert trumps == listed_values(expected, "trump", "cards")
    cards_played = [card for card in DECK if accepted(state, Play(c(card)))]
    assert cards_played == listed_values(expected, "play", "cards")
    seats = [seat for seat in range(4) if accepted(state, FirstLead(seat))]
    assert seats == listed_values(expected, "first-lead", "choices")
    dismissed = [i for i in range(len(state.flags) + 1) if accepted(state, ResolveRevoke(i, False))]
    assert dismissed == listed_values(expected, "revoke", "choices") == flags
    assert accepted(state, Pass()) == ("pass" in expected.types)
    # Every Boss Yokai listed at once (at least 4 of them): a win by four Boss Yokai.
    boss = listed_values(expected, "result", "cards") or [
        card for card in ALL_BOSS if c(card) != state.round.trump_card
    ]
    fast = RoundResult(0, "four-boss", cards(*map(str, boss)))
    assert accepted(state, fast) == ("result" in expected.types)
    # The ways of winning listed are those accepted (the last trick takes 3 Boss Yokai).
    hows = [
        how
        for how in HOWS
        if any(accepted(state, RoundResult(0, how, cards(*map(str, boss[:n])))) for n in (3, 4))
    ]
    assert hows == listed_values(expected, "result", "choices")
    return expected


def wild_attempt(rng: random.Random, state: State) -> Action:
    """Any action with any value: most are refused, those accepted must have been listed."""
    boss = cards(*rng.sample(ALL_BOSS, rng.randint(3, 7)))
    how = rng.choice(HOWS)
    penalty = rng.randint(0, 1)
    actions: list[Action] = [
        TrumpCard(rng.choice(YOKAI_SEPTET.cards())),
        FirstLead(rng.randrange(4)),
        Pass(),
        Play(rng.choice(YOKAI_SEPTET.cards())),
        RoundResult(rng.randrange(2), how, boss),
        ResolveRevoke(rng.randrange(len(state.flags) + 1), rng.random() < 0.5, penalty),
    ]
    return rng.choice(actions)


def table_attempt(
    rng: random.Random, state: State, trump_card: Card, hands: list[list[Card]]
) -> Action:
    """A move a table makes: the dealt trump card, the lead, a pass or a fast result now and
    then, a settled revoke, a card that follows the led colour (or, now and then, revokes)."""
    rnd = state.round
    flags = open_flags(state)
    if flags and (state.finished or rng.random() < 0.1):
        accept = rng.random() < 0.5
        return ResolveRevoke(flags[0][0], accept, rng.randint(0, 1) if accept else 0)
    if rnd.trump_card is None:
        return TrumpCard(trump_card)
    if rnd.leader is None:
        holds = Card("blue", 13) if rnd.trump_card == Card("green", 1) else Card("green", 1)
        return FirstLead(next(seat for seat, hand in enumerate(hands) if holds in hand))
    if not rnd.tricks and not rnd.current and rng.random() < 0.2:
        if rng.random() < 0.5:
            return Pass()
        boss = [card for card in ALL_BOSS if c(card) != rnd.trump_card]
        return RoundResult(rng.randrange(2), "four-boss", cards(*rng.sample(boss, 4)))
    seat = turn_seat(state)
    assert seat is not None
    led = rnd.current[0].colour if rnd.current else None
    choices = list(hands[seat]) if rng.random() < 0.2 else legal(hands[seat], led)
    return Play(rng.choice(choices))


def swap_into(hands: list[list[Card]], card: Card, given: Card) -> None:
    """``card`` leaves the hand holding it (if any), which takes ``given`` in its place."""
    for hand in hands:
        if card in hand:
            hand.remove(card)
            hand.append(given)


def check_listed(expected: Expected, action: Action) -> str:
    """The accepted ``action``'s type, checked against what ``expected`` listed: its type
    and its card, seat, Boss Yokai or revoke flag."""
    kind = str(GAME.action_to_json(action)["type"])
    listed = expected.accepts(kind)
    assert listed is not None, (action, expected)
    if isinstance(action, TrumpCard | Play):
        assert str(action.card) in (listed.cards or ())
    if isinstance(action, FirstLead):
        assert action.seat in (listed.choices or ())
    if isinstance(action, RoundResult):
        assert {str(card) for card in action.boss} <= set(listed.cards or ())
    if isinstance(action, ResolveRevoke):
        assert action.flag in (listed.choices or ())
    return kind


def random_expected_game(seed: int) -> set[str]:
    """A seeded game of table moves and wild attempts, ``expected`` checked at every state;
    returns the types of the actions accepted ("revoke after the game" apart)."""
    rng = random.Random(seed)
    state = new_game()
    expected = check_expected(state)
    trump_card, hands = deal(rng)
    dealt_for = 1
    accepted_kinds: set[str] = set()
    for _ in range(3_000):
        if state.finished and not open_flags(state):
            break
        if state.round.number != dealt_for:
            trump_card, hands = deal(rng)
            dealt_for = state.round.number
        if rng.random() < 0.15:
            action = wild_attempt(rng, state)
        else:
            action = table_attempt(rng, state, trump_card, hands)
        try:
            after = GAME.apply(state, action)
        except IllegalAction:
            continue
        kind = check_listed(expected, action)
        accepted_kinds.add(f"{kind} after the game" if state.finished else kind)
        if isinstance(action, TrumpCard):  # the hand holding a wild trump card takes the dealt one
            swap_into(hands, action.card, trump_card)
            trump_card = action.card
        if isinstance(action, Play):  # a wild card comes from the hand holding it, in exchange
            seat = turn_seat(state)
            assert seat is not None
            if action.card in hands[seat]:
                hands[seat].remove(action.card)
            else:
                swap_into(hands, action.card, hands[seat].pop(rng.randrange(len(hands[seat]))))
        state = after
        expected = check_expected(state)
    assert state.finished
    assert expected == NOTHING_EXPECTED
    return accepted_kinds


def test_expected_lists_exactly_what_apply_accepts_in_seeded_random_games() -> None:
    accepted_kinds: set[str] = set()
    for seed in range(8):
        accepted_kinds |= random_expected_game(seed)
    assert accepted_kinds == {
        "trump",
        "first-lead",
        "pass",
        "play",
        "result",
        "revoke",
        "revoke after the game",
    }
