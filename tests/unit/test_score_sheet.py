"""Score sheet engine: totals, who wins (highest or lowest), the target, finish, refusals."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from scorekeeper.games.base import (
    MINUS,
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    ScoreRow,
    Standing,
)
from scorekeeper.games.score_sheet import GAME
from scorekeeper.games.score_sheet.rules import (
    MAX_ROUND_POINTS,
    Finish,
    Round,
    State,
    expected_actions,
    leaders,
    parse_points,
)


def new_sheet(players: Sequence[str] = ("Ann", "Bob", "Cy"), **options: object) -> State:
    state: State = GAME.start(players, options)
    return state


def play(state: State, *rounds: Sequence[int]) -> State:
    for points in rounds:
        state = GAME.apply(state, Round(tuple(points)))
    return state


def refused_action(state: State, action: Round | Finish) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    return caught.value


def refused_parse(data: dict[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    return caught.value


# --- Start and options -------------------------------------------------------------


def test_a_new_sheet_has_everyone_at_0_and_asks_for_round_1() -> None:
    state = new_sheet()
    assert state.totals == (0, 0, 0)
    assert state.rounds == ()
    assert (state.winner, state.target, state.game_name) == ("highest", 0, "")
    assert GAME.ruling(state) == (
        "Enter round 1: one number per player. The highest total wins; "
        "finish the game when the table stops."
    )


def test_a_lowest_wins_sheet_with_a_target_says_so_from_the_start() -> None:
    state = new_sheet(winner="lowest", target=100, game_name="  Hearts  ")
    assert state.game_name == "Hearts"
    assert GAME.ruling(state) == (
        "Enter round 1: one number per player. The lowest total wins; "
        "a round that takes anyone to 100 ends the game."
    )


@pytest.mark.parametrize("count", [0, 13])
def test_a_sheet_is_for_1_to_12_players(count: int) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.start([f"P{i}" for i in range(count)], {})
    assert caught.value.message == (f"A score sheet is for 1 to 12 players; you entered {count}.")
    assert caught.value.field == "players"


@pytest.mark.parametrize(
    ("options", "field", "message"),
    [
        ({"winner": "most"}, "options.winner", "Who wins must be one of: highest, lowest."),
        ({"target": -5}, "options.target", "Target score must be at least 0."),
        ({"target": 1_000_001}, "options.target", "Target score must be at most 1000000."),
        ({"game_name": "x" * 41}, "options.game_name", "Game played is 41 characters long"),
        ({"rounds": 5}, "options.rounds", "This game has no option called 'rounds'."),
    ],
)
def test_bad_options_are_refused_naming_the_option(
    options: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.start(["Ann"], options)
    assert caught.value.field == field
    assert caught.value.message.startswith(message)


# --- Rounds and totals -------------------------------------------------------------


def test_rounds_add_up_per_seat_negative_numbers_included() -> None:
    state = play(new_sheet(), (12, -4, 0), (3, 10, -7))
    assert state.totals == (15, 6, -7)
    assert state.rounds == ((12, -4, 0), (3, 10, -7))


def test_the_ruling_names_each_players_points_and_the_leader() -> None:
    state = play(new_sheet(("Ann", "Bob")), (28, 12), (12, -4))
    assert GAME.ruling(state) == f"Round 2: Ann 12, Bob {MINUS}4. Ann leads with 40."


def test_the_ruling_of_a_shared_lead_names_every_leader() -> None:
    state = play(new_sheet(), (10, 10, 3))
    assert (
        GAME.ruling(state) == "Round 1: Ann 10, Bob 10, Cy 3. Ann and Bob share the lead with 10."
    )


def test_the_ruling_of_an_all_tied_table_says_so() -> None:
    state = play(new_sheet(), (5, 5, 5))
    assert GAME.ruling(state) == "Round 1: Ann 5, Bob 5, Cy 5. All tied on 5."


def test_when_the_lowest_wins_the_lowest_total_leads() -> None:
    state = play(new_sheet(winner="lowest"), (10, -2, 7))
    assert GAME.ruling(state) == f"Round 1: Ann 10, Bob {MINUS}2, Cy 7. Bob leads with {MINUS}2."
    assert leaders(state) == [1]


def test_a_solo_sheet_says_what_the_player_has() -> None:
    state = play(new_sheet(("Ann",)), (25,), (15,))
    assert GAME.ruling(state) == "Round 2: Ann 15. Ann has 40."


def test_big_numbers_are_written_with_digit_groups_from_five_digits() -> None:
    state = play(new_sheet(("Ann", "Bob")), (12_500, -4350))
    assert GAME.ruling(state) == f"Round 1: Ann 12,500, Bob {MINUS}4350. Ann leads with 12,500."


def test_nobody_leads_before_the_first_round() -> None:
    assert leaders(new_sheet()) == []


# --- Target and finish ------------------------------------------------------------


def test_reaching_the_target_ends_the_game_and_the_highest_total_wins() -> None:
    state = play(new_sheet(target=100), (60, 40, 20))
    assert not GAME.is_finished(state)
    state = play(state, (40, 30, 90))
    assert GAME.is_finished(state)
    assert GAME.winners(state) == [2]
    assert GAME.ruling(state) == (
        "Round 2: Ann 40, Bob 30, Cy 90. Ann (100) and Cy (110) reached the target of 100. "
        "Game over: Cy wins with 110."
    )


def test_when_the_lowest_wins_reaching_the_target_ends_the_game_too_like_hearts() -> None:
    state = play(new_sheet(("Ann", "Bob", "Cy", "Di"), winner="lowest", target=100), (26, 0, 0, 0))
    state = play(state, (80, 13, 0, 13))
    assert GAME.is_finished(state)
    assert GAME.winners(state) == [2]
    assert GAME.ruling(state).endswith(
        "Ann (106) reached the target of 100. Game over: Cy wins with 0 (lowest wins)."
    )


def test_a_total_just_below_the_target_does_not_end_the_game() -> None:
    state = play(new_sheet(target=100), (99, 0, 0))
    assert not GAME.is_finished(state)


def test_ties_share_the_win() -> None:
    state = play(new_sheet(target=50), (50, 50, 10))
    assert GAME.winners(state) == [0, 1]
    assert GAME.ruling(state).endswith("Game over: Ann and Bob share the win with 50.")


def test_finish_ends_the_game_by_hand_and_the_best_total_wins() -> None:
    state = play(new_sheet(), (3, 8, 1), (2, -1, 0))
    state = GAME.apply(state, Finish())
    assert GAME.is_finished(state)
    assert GAME.winners(state) == [1]
    assert GAME.ruling(state) == "The table stopped after 2 rounds. Game over: Bob wins with 7."


def test_finish_is_allowed_before_the_target_the_table_may_stop_early() -> None:
    state = GAME.apply(play(new_sheet(winner="lowest", target=100), (5, 9, 1)), Finish())
    assert GAME.winners(state) == [2]
    assert GAME.ruling(state) == (
        "The table stopped after 1 round. Game over: Cy wins with 1 (lowest wins)."
    )


def test_a_solo_game_over_gives_the_final_score() -> None:
    state = GAME.apply(play(new_sheet(("Ann",)), (7,)), Finish())
    assert GAME.ruling(state) == "The table stopped after 1 round. Game over: Ann finishes with 7."


def test_finish_before_any_round_is_refused() -> None:
    refusal = refused_action(new_sheet(), Finish())
    assert refusal.message == "Nothing to finish: enter a round first."


def test_nothing_is_accepted_once_the_game_is_over() -> None:
    state = GAME.apply(play(new_sheet(), (1, 2, 3)), Finish())
    assert refused_action(state, Round((1, 1, 1))).message == "The game is over."
    assert refused_action(state, Finish()).message == "The game is over."


# --- What comes next ------------------------------------------------------------


def test_expected_is_anyones_round_then_also_finish_then_nothing() -> None:
    state = new_sheet(target=10)
    assert expected_actions(state) == Expected(None, (Accepts("round"),))
    state = play(state, (1, 2, 3))
    assert expected_actions(state) == Expected(None, (Accepts("round"), Accepts("finish")))
    assert GAME.expected(play(state, (9, 0, 0))) == NOTHING_EXPECTED


# --- Refusals --------------------------------------------------------------------


def test_a_round_needs_one_number_per_player() -> None:
    refusal = refused_action(new_sheet(), Round((1, 2)))
    assert refusal.message == "Enter one number per player: 3 for Ann, Bob and Cy, not 2."
    assert refusal.field == "points"


def test_a_number_beyond_a_million_is_refused_naming_the_player_and_field() -> None:
    refusal = refused_action(new_sheet(), Round((1, -1_000_001, 3)))
    assert refusal.message == (
        f"Bob's {MINUS}1,000,001 is more than a round can score here: at most 1,000,000 either way."
    )
    assert refusal.field == "points.1"


def test_a_million_either_way_is_accepted() -> None:
    state = play(new_sheet(("Ann", "Bob")), (MAX_ROUND_POINTS, -MAX_ROUND_POINTS))
    assert state.totals == (1_000_000, -1_000_000)


@pytest.mark.parametrize(
    ("points", "field", "message"),
    [
        (5, "points", "Enter the points as a list: one whole number per player."),
        ("1,2", "points", "Enter the points as a list: one whole number per player."),
        (
            [1, True],
            "points.1",
            f"Seat 2's points must be a whole number, like 12 or {MINUS}4; True",
        ),
        ([1, 2.5], "points.1", f"Seat 2's points must be a whole number, like 12 or {MINUS}4; 2.5"),
        (
            ["abc"],
            "points.0",
            f"Seat 1's points must be a whole number, like 12 or {MINUS}4; 'abc'",
        ),
        (["1" * 8], "points.0", "Seat 1's points must be a whole number"),
        ([" "], "points.0", "Enter seat 1's points for this round (0 if none)."),
        ([0] * 13, "points", "A score sheet has at most 12 players; you entered 13 numbers."),
    ],
)
def test_points_that_are_not_whole_numbers_are_refused_naming_the_field(
    points: object, field: str, message: str
) -> None:
    refusal = refused_parse({"type": "round", "points": points})
    assert refusal.field == field
    assert refusal.message.startswith(message)


def test_a_form_names_the_player_whose_number_is_wrong() -> None:
    with pytest.raises(IllegalAction) as caught:
        parse_points(["3", "", "1"], ["Ann", "Bob", "Cy"])
    assert caught.value.message == "Enter Bob's points for this round (0 if none)."
    assert caught.value.field == "points.1"


def test_typed_numbers_may_carry_a_hyphen_or_the_minus_sign() -> None:
    assert parse_points(["12", " -4 ", f"{MINUS}7", "0"]) == (12, -4, -7, 0)


def test_a_round_needs_its_points_and_knows_no_other_field() -> None:
    assert refused_parse({"type": "round"}).message == "Enter each player's points."
    unknown = refused_parse({"type": "round", "points": [1], "seat": 0})
    assert (unknown.message, unknown.field) == ("A round action has no field 'seat'.", "seat")
    assert refused_parse({"type": "roll"}).message == (
        "Unknown action (type 'roll'): the type is round or finish."
    )


# --- Actions as JSON, history, standings, rows -----------------------------------


def test_actions_round_trip_through_json() -> None:
    for action in (Round((3, -4, 0)), Finish()):
        assert GAME.parse_action(GAME.action_to_json(action)) == action
    assert GAME.action_to_json(Round((3, -4))) == {"type": "round", "points": [3, -4]}


def test_describe_is_a_short_history_line() -> None:
    assert GAME.describe(Round((12, -4, 10_000))) == f"round: 12, {MINUS}4, 10,000"
    assert GAME.describe(Finish()) == "finish"


def test_a_round_of_no_points_is_described_as_an_empty_round() -> None:
    # An imported log may hold one; its refusal names the event by this line.
    assert GAME.describe(Round(())) == "round: "


def test_standings_put_the_highest_first_or_the_lowest_first_ties_sharing_a_rank() -> None:
    highest = play(new_sheet(), (5, 9, 5))
    assert GAME.standings(highest) == [
        Standing(1, "Bob", 9, 1),
        Standing(0, "Ann", 5, 2),
        Standing(2, "Cy", 5, 2),
    ]
    lowest = play(new_sheet(winner="lowest"), (5, 9, 5))
    assert GAME.standings(lowest) == [
        Standing(0, "Ann", 5, 1),
        Standing(2, "Cy", 5, 1),
        Standing(1, "Bob", 9, 3),
    ]


def test_score_rows_give_one_row_per_seat_per_round_with_running_totals() -> None:
    state = play(new_sheet(("Ann", "Bob")), (10, -3), (5, 4))
    assert GAME.score_rows(state) == [
        ScoreRow(1, 0, "Ann", 10, 10, ""),
        ScoreRow(1, 1, "Bob", -3, -3, ""),
        ScoreRow(2, 0, "Ann", 5, 15, ""),
        ScoreRow(2, 1, "Bob", 4, 1, ""),
    ]


def test_winners_are_empty_while_the_game_is_on() -> None:
    assert GAME.winners(play(new_sheet(), (1, 2, 3))) == []


# --- Seeded play-throughs ----------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_seeded_games_keep_totals_equal_to_the_sum_of_their_rounds(seed: int) -> None:
    rng = random.Random(seed)
    players = [f"P{i}" for i in range(rng.randint(1, 12))]
    winner = rng.choice(["highest", "lowest"])
    target = rng.choice([0, 50, 200])
    state = new_sheet(players, winner=winner, target=target)
    typed: list[tuple[int, ...]] = []
    while not GAME.is_finished(state) and len(typed) < 30:
        points = tuple(rng.randint(-30, 40) for _ in players)
        state = GAME.apply(state, GAME.parse_action({"type": "round", "points": list(points)}))
        typed.append(points)
    if not GAME.is_finished(state):
        state = GAME.apply(state, Finish())
    sums = tuple(sum(points[seat] for points in typed) for seat in range(len(players)))
    assert state.totals == sums
    assert [row.total for row in GAME.score_rows(state)[-len(players) :]] == list(sums)
    best = min(sums) if winner == "lowest" else max(sums)
    assert GAME.winners(state) == [seat for seat, total in enumerate(sums) if total == best]
    assert GAME.standings(state)[0].score == best
    if target and any(total >= target for total in sums):
        # The game ended on the first round that took anyone to the target.
        before = [sum(points[seat] for points in typed[:-1]) for seat in range(len(players))]
        assert all(total < target for total in before)
