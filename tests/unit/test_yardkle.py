"""Yardkle rules engine: the scorecard, the sheet's examples, NOTES readings, turns."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction
from scorekeeper.games.yardkle.rules import (
    GAME,
    Bank,
    BankKeep,
    Combo,
    Keep,
    QuickTurn,
    Roll,
    State,
    Turn,
    TurnRecord,
    best_bank_keep,
    best_keep,
    can_bank,
    can_enter_total,
    dice_to_roll,
    expected_actions,
    forced_keep,
    next_step,
    score_keep,
    score_roll,
    suggested_keep,
)


def new_game(
    players: Sequence[str] = ("Ann", "Bo", "Cy"), threshold: int = 500, winning: int = 10000
) -> State:
    state: State = GAME.start(players, {"entry_threshold": threshold, "winning_score": winning})
    return state


def play(state: State, *actions: Roll | Keep | Bank | QuickTurn) -> State:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def refused(state: State, action: Roll | Keep | Bank | QuickTurn) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, action)
    return caught.value


def points(*dice: int) -> int:
    return score_roll(dice).points


# --- The scorecard, row by row -------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "name", "value"),
    [
        ((1,), "single 1", 100),
        ((5,), "single 5", 50),
        ((1, 1, 1), "three 1s", 1000),
        ((2, 2, 2), "three 2s", 200),
        ((3, 3, 3), "three 3s", 300),
        ((4, 4, 4), "three 4s", 400),
        ((5, 5, 5), "three 5s", 500),
        ((6, 6, 6), "three 6s", 600),
        ((2, 2, 4, 4, 6, 6), "three pairs", 1500),
        ((1, 2, 3, 4, 5, 6), "1-2-3-4-5-6", 1500),
        ((3, 3, 3, 5, 5, 5), "two triplets", 2500),
        ((6, 6, 6, 6, 2, 2), "four of a kind with a pair", 3000),
        ((4, 4, 4, 4, 4, 4), "six of a kind", 3000),
    ],
)
def test_each_scorecard_row_scores_its_points_as_one_named_combo(
    dice: tuple[int, ...], name: str, value: int
) -> None:
    score = score_roll(dice)
    assert score.points == value
    assert score.combos == (Combo(name, tuple(sorted(dice)), value),)
    assert score.yardkle is False


def test_sheet_examples_three_2s_is_200_and_three_5s_is_500() -> None:
    assert points(2, 2, 2) == 200
    assert points(5, 5, 5) == 500


def test_sheet_example_two_triplets_3_3_3_5_5_5_is_2500() -> None:
    assert points(3, 3, 3, 5, 5, 5) == 2500


def test_sheet_example_four_of_a_kind_with_a_pair_6_6_6_6_2_2_is_3000() -> None:
    assert points(6, 6, 6, 6, 2, 2) == 3000


def test_dice_order_does_not_matter_and_combo_dice_are_sorted() -> None:
    score = score_roll([6, 2, 6, 2, 6, 6])
    assert score.points == 3000
    assert score.combos[0].dice == (2, 2, 6, 6, 6, 6)


def test_straight_is_1500_in_any_order() -> None:
    assert points(6, 4, 2, 1, 3, 5) == 1500


# --- NOTES readings --------------------------------------------------------------


def test_four_2s_score_200_the_fourth_2_scores_nothing() -> None:
    score = score_roll([2, 2, 2, 2])
    assert score.points == 200
    assert [combo.name for combo in score.combos] == ["three 2s"]


def test_five_5s_score_600_as_a_triple_and_two_singles() -> None:
    score = score_roll([5, 5, 5, 5, 5])
    assert score.points == 600
    assert [combo.name for combo in score.combos] == ["three 5s", "single 5", "single 5"]


def test_four_1s_score_1100() -> None:
    assert points(1, 1, 1, 1) == 1100


def test_five_1s_score_1200() -> None:
    assert points(1, 1, 1, 1, 1) == 1200


def test_four_of_a_kind_with_a_pair_is_3000_not_three_pairs_1500() -> None:
    score = score_roll([3, 3, 3, 3, 4, 4])
    assert score.points == 3000
    assert score.combos[0].name == "four of a kind with a pair"


def test_six_of_a_kind_is_3000_not_three_pairs_or_two_triplets() -> None:
    score = score_roll([1, 1, 1, 1, 1, 1])
    assert score.points == 3000
    assert [combo.name for combo in score.combos] == ["six of a kind"]


def test_six_dice_combos_need_all_six_dice() -> None:
    assert points(2, 2, 3, 3, 4) == 0
    assert points(1, 2, 3, 4, 5) == 150
    assert points(3, 3, 3, 5, 5) == 400


def test_three_pairs_with_1s_and_5s_beats_their_singles() -> None:
    assert points(1, 1, 5, 5, 3, 3) == 1500


def test_leftover_dice_are_allowed_in_a_roll() -> None:
    assert points(1, 2, 3, 4, 6, 6) == 100


# --- The example roll and the JSON shape ----------------------------------------


def test_example_roll_1_1_1_5_2_3_scores_1050_with_three_1s_and_single_5() -> None:
    score = score_roll([1, 1, 1, 5, 2, 3])
    assert score.points == 1050
    assert score.combos == (
        Combo("three 1s", (1, 1, 1), 1000),
        Combo("single 5", (5,), 50),
    )
    assert score.to_json() == {
        "points": 1050,
        "combos": [
            {"name": "three 1s", "dice": [1, 1, 1], "points": 1000},
            {"name": "single 5", "dice": [5], "points": 50},
        ],
        "yardkle": False,
    }


def test_a_roll_without_scoring_dice_is_a_yardkle_worth_0() -> None:
    score = score_roll([2, 3, 4, 6, 4, 2])
    assert score.points == 0
    assert score.combos == ()
    assert score.yardkle is True


def test_best_keep_suggests_the_dice_of_the_best_split_sorted() -> None:
    assert best_keep([3, 1, 1, 5, 1, 2]) == (1, 1, 1, 5)
    assert best_keep([2, 3, 4, 6, 4, 2]) == ()


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([], "A roll has 1 to 6 dice; you entered 0."),
        ([1, 2, 3, 4, 5, 6, 1], "A roll has 1 to 6 dice; you entered 7."),
        ([1, 2, 9], "Die 3 is 9: a die shows 1 to 6."),
        ([0], "Die 1 is 0: a die shows 1 to 6."),
        ([True], "Die 1 is True: a die shows 1 to 6."),
        ([2.0], "Die 1 is 2.0: a die shows 1 to 6."),
    ],
)
def test_score_roll_refuses_bad_dice_on_the_dice_field(dice: list[object], message: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        score_roll(dice)
    assert caught.value.message == message
    assert caught.value.field == "dice"


def test_score_roll_refuses_a_string_instead_of_a_list() -> None:
    with pytest.raises(IllegalAction) as caught:
        score_roll("111")
    assert caught.value.field == "dice"


# --- Setting dice aside ----------------------------------------------------------


def test_score_keep_scores_exactly_the_kept_dice() -> None:
    assert score_keep([1, 1, 1, 5, 2, 3], [1, 1, 1]).points == 1000
    assert score_keep([1, 1, 1, 5, 2, 3], [5]).points == 50
    assert score_keep([1, 1, 1, 5, 2, 3], [1, 5]).points == 150


def test_score_keep_allows_a_six_dice_combo_when_all_six_are_kept() -> None:
    assert score_keep([2, 2, 3, 3, 4, 4], [2, 2, 3, 3, 4, 4]).points == 1500


@pytest.mark.parametrize(
    ("roll", "keep", "message"),
    [
        ([1, 2, 3, 4, 6, 6], [1, 2], "A 2 on its own scores nothing."),
        (
            [2, 2, 2, 2, 3, 4],
            [2, 2, 2, 2],
            "The fourth 2 scores nothing: three 2s score, the fourth does not.",
        ),
        ([1, 4, 2], [4, 4], "The roll has only one 4."),
        ([1, 4, 4, 2], [4, 4, 4], "The roll has only two 4s."),
        ([1, 4, 2], [6], "There is no 6 in the roll."),
        ([1, 4, 2], [], "Set aside at least one scoring die."),
        ([1, 4, 2], [1, 7], "Kept die 2 is 7: a die shows 1 to 6."),
    ],
)
def test_score_keep_refusals_say_which_die_is_wrong(
    roll: list[int], keep: list[object], message: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        score_keep(roll, keep)
    assert caught.value.message == message
    assert caught.value.field == "keep"


def test_keeping_part_of_three_pairs_explains_all_six_are_needed() -> None:
    with pytest.raises(IllegalAction) as caught:
        score_keep([2, 2, 3, 3, 4, 4], [2, 2])
    assert "two 2s score nothing" in caught.value.message.lower()
    assert "three pairs" in caught.value.message


# --- Turns -----------------------------------------------------------------------


def test_start_seat_0_rolls_first_with_the_options() -> None:
    state = new_game()
    assert state.current == 0
    assert state.scores == (0, 0, 0)
    assert state.turn.dice_left == 6
    assert state.entry_threshold == 500
    assert state.winning_score == 10000
    assert GAME.ruling(state) == "Ann rolls first."
    assert next_step(state) == "roll"


def test_start_uses_the_default_options_when_none_are_given() -> None:
    state: State = GAME.start(["Ann"], {})
    assert (state.entry_threshold, state.winning_score) == (500, 10000)


def test_start_refuses_too_many_players() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.start([f"P{i}" for i in range(9)], {})
    assert caught.value.field == "players"


def test_roll_names_the_combos_and_waits_for_a_set_aside() -> None:
    state = play(new_game(), Roll((1, 1, 1, 5, 2, 3)))
    assert state.turn.pending_roll == (1, 1, 1, 5, 2, 3)
    assert state.turn.rolls == 1
    assert next_step(state) == "keep"
    assert suggested_keep(state) == (1, 1, 1, 5)
    assert GAME.ruling(state) == (
        "Ann rolled 1 1 1 5 2 3: three 1s (1000) and single 5 (50) can score up to 1050."
    )


def test_keep_adds_to_the_turn_total_and_leaves_fewer_dice() -> None:
    state = play(new_game(), Roll((1, 1, 1, 5, 2, 3)), Keep((1, 1, 1)))
    assert state.turn.total == 1000
    assert state.turn.dice_left == 3
    assert state.turn.pending_roll is None
    assert GAME.ruling(state) == "Ann set aside three 1s for 1000: turn total 1000, 3 dice to roll."


def test_rolling_again_before_setting_aside_is_refused() -> None:
    # A single 1 or both 1s: the set-aside is the player's to choose.
    error = refused(play(new_game(), Roll((1, 1, 2, 3, 4, 6))), Roll((1, 1, 2, 3, 4, 6)))
    assert error.message.startswith("Set aside dice from the last roll first")
    assert error.field == "dice"


def test_roll_must_have_as_many_dice_as_are_left() -> None:
    state = play(new_game(), Roll((1, 5, 2, 3, 4, 6)), Keep((1, 5)))
    error = refused(state, Roll((1, 2, 3, 4, 5, 6)))
    assert error.message == "Ann rolls 4 dice now (2 are set aside): enter 4 dice, not 6."
    assert error.field == "dice"


def test_keep_without_a_roll_is_refused() -> None:
    assert refused(new_game(), Keep((1,))).field == "keep"


@pytest.mark.parametrize(
    ("keep", "clause"),
    [
        ((1, 2), "a 2 on its own scores nothing"),
        ((6,), "there is no 6 in the roll"),
        ((4, 4), "the roll has only one 4"),
    ],
)
def test_keep_refusals_name_the_player_and_the_die(keep: tuple[int, ...], clause: str) -> None:
    state = play(new_game(), Roll((1, 2, 3, 4, 5, 5)))
    error = refused(state, Keep(keep))
    assert error.message.startswith("Ann cannot set aside")
    assert clause in error.message
    assert error.field == "keep"


def test_keeping_the_fourth_2_is_refused_in_play() -> None:
    state = play(new_game(), Roll((2, 2, 2, 2, 3, 4)))
    error = refused(state, Keep((2, 2, 2, 2)))
    assert "the fourth 2 scores nothing: three 2s score, the fourth does not" in error.message


def test_empty_keep_is_refused() -> None:
    state = play(new_game(), Roll((1, 2, 3, 4, 5, 5)))
    error = refused(state, Keep(()))
    assert error.message == "Ann must set aside at least one scoring die."


def test_yardkle_loses_the_turn_total_and_passes_play_to_the_left() -> None:
    state = play(
        new_game(),
        Roll((1, 1, 1, 5, 2, 3)),
        Keep((1, 1, 1)),
        Roll((2, 3, 4)),
    )
    assert state.scores == (0, 0, 0)
    assert state.current == 1
    assert state.turn.total == 0
    assert state.turn.dice_left == 6
    assert state.turns == (TurnRecord(1, 0, 0, "yardkle", lost=1000),)
    assert GAME.ruling(state).startswith(
        "Yardkle! Ann rolled 2 3 4: no scoring die; the 1000 of this turn is lost."
    )


def test_a_yardkle_keeps_the_turn_total_it_lost_on_the_turns_record() -> None:
    # Bo's first roll busts (nothing lost); Cy's forced set-aside of the lone 5 (150 and
    # 50 cannot enter) counts in what the next roll loses; a bank and a total lose nothing.
    state = play(
        new_game(),
        Roll((1, 1, 1, 5, 2, 3)),
        Keep((1, 1, 1, 5), bank=True),
        Roll((2, 3, 4, 6, 4, 2)),
        Roll((1, 5, 2, 3, 4, 6)),
        Keep((1, 5)),
        Roll((5, 2, 3, 4)),
        Roll((2, 3, 4)),
        QuickTurn(300),
    )
    assert [(record.result, record.points, record.lost) for record in state.turns] == [
        ("banked", 1050, 0),
        ("yardkle", 0, 0),
        ("yardkle", 0, 200),
        ("quick", 300, 0),
    ]


def test_yardkle_example_sentence_names_the_lost_total() -> None:
    state = new_game()
    state = play(state, QuickTurn(0))  # Bo's turn
    state = play(state, Roll((1, 5, 5, 2, 3, 4)), Keep((1, 5, 5)), Roll((5, 5, 1)), Keep((5, 5, 1)))
    assert state.turn.hot_dice
    state = play(state, Roll((2, 3, 4, 6, 4, 2)))
    assert GAME.ruling(state).startswith(
        "Yardkle! Bo rolled 2 3 4 6 4 2: no scoring die; the 400 of this turn is lost."
    )


def test_play_wraps_from_the_last_seat_to_seat_0() -> None:
    state = play(new_game(), QuickTurn(0), QuickTurn(0), QuickTurn(0))
    assert state.current == 0
    assert state.round_number == 2


def test_hot_dice_force_a_roll_of_six_before_banking_then_banking_works() -> None:
    state = play(
        new_game(threshold=0),
        Roll((1, 5, 2, 3, 4, 6)),
        Keep((1, 5)),
        Roll((1, 1, 1, 5)),
        Keep((1, 1, 1, 5)),
    )
    assert state.turn.hot_dice is True
    assert state.turn.dice_left == 6
    assert state.turn.total == 1200
    assert "Hot dice! All six scored: Ann must roll all six again before stopping." in (
        GAME.ruling(state)
    )
    assert not can_bank(state)
    error = refused(state, Bank())
    assert error.message == "All six dice scored: Ann must roll all six again before stopping."
    assert refused(state, Roll((1, 5))).message.startswith("Ann rolls all six dice again")
    state = play(state, Roll((5, 2, 3, 4, 6, 6)))
    assert state.turn.hot_dice is False
    state = play(state, Keep((5,)), Bank())
    assert state.scores == (1250, 0, 0)
    assert state.turns == (TurnRecord(1, 0, 1250, "banked"),)


def test_keep_and_bank_is_refused_whole_when_it_makes_hot_dice() -> None:
    state = play(new_game(threshold=0), Roll((1, 2, 3, 4, 5, 6)))
    error = refused(state, Keep((1, 2, 3, 4, 5, 6), bank=True))
    assert "must roll all six again" in error.message


def test_keep_and_bank_sets_aside_and_banks_in_one_action() -> None:
    state = play(new_game(threshold=0), Roll((1, 5, 2, 3, 4, 6)), Keep((1, 5), bank=True))
    assert state.scores == (150, 0, 0)
    assert state.current == 1
    assert GAME.ruling(state) == (
        "Ann set aside single 1 and single 5 for 150: turn total 150, 4 dice to roll. "
        "Ann banks 150: total 150. Bo rolls next."
    )


def test_bank_with_nothing_this_turn_is_refused() -> None:
    assert refused(new_game(threshold=0), Bank()).message.startswith("Nothing to bank yet")


def test_bank_with_a_roll_waiting_is_refused() -> None:
    state = play(new_game(threshold=0), Roll((1, 2, 3, 4, 6, 6)))
    assert "set aside" in refused(state, Bank()).message


def test_entry_threshold_refuses_a_bank_below_500_for_a_new_player() -> None:
    state = play(new_game(), Roll((1, 1, 5, 5, 2, 3)), Keep((1, 1, 5, 5)))
    assert state.turn.total == 300
    error = refused(state, Bank())
    assert error.message == (
        "Ann needs 500 in one turn to get on the scorecard; this turn has 300: roll on."
    )
    assert not can_bank(state)


def test_entry_threshold_keep_and_bank_refused_whole() -> None:
    state = play(new_game(), Roll((1, 1, 5, 5, 2, 3)))
    with pytest.raises(IllegalAction):
        GAME.apply(state, Keep((1, 1, 5, 5), bank=True))


def test_entry_threshold_met_puts_the_player_on_the_scorecard() -> None:
    state = play(new_game(), Roll((5, 5, 5, 2, 3, 4)), Keep((5, 5, 5)))
    assert can_bank(state)
    state = play(state, Bank())
    assert state.scores == (500, 0, 0)
    assert state.entered == (True, False, False)


def test_once_entered_a_player_may_bank_less_than_the_threshold() -> None:
    state = play(new_game(), QuickTurn(500), QuickTurn(0), QuickTurn(0))
    state = play(state, Roll((5, 2, 3, 4, 6, 6)), Keep((5,)), Bank())
    assert state.scores == (550, 0, 0)


def test_entry_threshold_0_lets_anyone_bank_any_total() -> None:
    state = play(new_game(threshold=0), Roll((5, 2, 3, 4, 6, 6)), Keep((5,)), Bank())
    assert state.scores == (50, 0, 0)


# --- Turns entered as a total ------------------------------------------------------


def test_quick_turn_banks_its_points() -> None:
    state = play(new_game(), QuickTurn(650))
    assert state.scores == (650, 0, 0)
    assert state.entered[0]
    assert state.turns == (TurnRecord(1, 0, 650, "quick"),)


def test_quick_turn_of_0_is_a_scoreless_turn() -> None:
    state = play(new_game(), QuickTurn(0))
    assert state.scores == (0, 0, 0)
    assert state.current == 1
    assert state.turns == (TurnRecord(1, 0, 0, "quick"),)
    assert not state.entered[0]


@pytest.mark.parametrize("value", [355, -50, 1_000_050])
def test_quick_turn_refuses_totals_that_cannot_be(value: int) -> None:
    assert refused(new_game(), QuickTurn(value)).field == "points"


def test_quick_turn_must_be_a_multiple_of_50() -> None:
    assert refused(new_game(), QuickTurn(355)).message == (
        "A turn total is a multiple of 50; 355 is not."
    )


def test_quick_turn_below_the_threshold_is_refused_for_a_new_player() -> None:
    error = refused(new_game(), QuickTurn(350))
    assert error.message == "Ann is not on the scorecard yet: a turn must bank at least 500."
    assert error.field == "points"


def test_quick_turn_mid_turn_is_refused() -> None:
    state = play(new_game(), Roll((1, 2, 3, 4, 6, 6)), Keep((1,)))
    assert not can_enter_total(state)
    error = refused(state, QuickTurn(500))
    assert error.message.startswith("Finish or undo the turn in progress first")
    assert error.field == "points"


# --- Final round -----------------------------------------------------------------


def test_final_round_gives_every_other_player_exactly_one_more_turn() -> None:
    state = play(new_game(("Ann", "Bo", "Cy", "Dee")), QuickTurn(600))
    state = play(state, QuickTurn(10150))  # Bo triggers the final round
    assert state.final_round_by == 1
    assert "Bo reached 10,150: final round, everyone else has one more turn." in (
        GAME.ruling(state)
    )
    state = play(state, QuickTurn(0), QuickTurn(0))  # Cy, Dee
    assert not state.finished
    assert state.current == 0
    state = play(state, QuickTurn(500))  # Ann, the last one
    assert state.finished
    assert GAME.is_finished(state)
    assert GAME.winners(state) == [1]
    assert GAME.ruling(state).endswith("Game over: Bo wins with 10,150.")
    assert [record.seat for record in state.turns] == [0, 1, 2, 3, 0]


def test_the_trigger_does_not_play_again() -> None:
    state = play(new_game(("Ann", "Bo")), QuickTurn(10000), QuickTurn(0))
    assert state.finished
    assert refused(state, QuickTurn(0)).message == "The game is over."


def test_a_later_player_can_overtake_in_the_final_round() -> None:
    state = play(new_game(("Ann", "Bo")), QuickTurn(10000), QuickTurn(10400))
    assert state.finished
    assert state.final_round_by == 0
    assert GAME.winners(state) == [1]
    assert GAME.ruling(state).endswith("Game over: Bo wins with 10,400.")


def test_a_yardkle_counts_as_the_final_turn() -> None:
    state = play(new_game(("Ann", "Bo")), QuickTurn(10000), Roll((2, 3, 4, 6, 4, 2)))
    assert state.finished
    assert GAME.winners(state) == [0]


def test_ties_share_the_win() -> None:
    state = play(new_game(("Ann", "Bo", "Cy")), QuickTurn(10000), QuickTurn(10000), QuickTurn(0))
    assert state.finished
    assert GAME.winners(state) == [0, 1]
    assert GAME.ruling(state).endswith("Game over: Ann and Bo share the win with 10,000.")
    ranks = [(s.seat, s.rank) for s in GAME.standings(state)]
    assert ranks == [(0, 1), (1, 1), (2, 3)]


def test_one_player_game_finishes_as_soon_as_the_score_is_reached() -> None:
    state = play(new_game(("Ann",), winning=1000), QuickTurn(600))
    assert not state.finished
    assert state.current == 0
    state = play(state, QuickTurn(400))
    assert state.finished
    assert GAME.winners(state) == [0]
    assert (
        GAME.ruling(state)
        == "Ann entered a turn of 400: total 1000. Game over: Ann wins with 1000."
    )


def test_winners_is_empty_before_the_game_is_over() -> None:
    assert GAME.winners(play(new_game(), QuickTurn(500))) == []


@pytest.mark.parametrize("action", [Roll((1, 2, 3, 4, 5, 6)), Keep((1,)), Bank(), QuickTurn(0)])
def test_every_action_after_the_game_is_over_is_refused(
    action: Roll | Keep | Bank | QuickTurn,
) -> None:
    state = play(new_game(("Ann",), winning=500), QuickTurn(500))
    assert state.finished
    assert refused(state, action).message == "The game is over."


def test_apply_never_mutates_the_state() -> None:
    state = new_game()
    before = repr(state)
    play(state, Roll((1, 1, 1, 5, 2, 3)), Keep((1, 1, 1)), Roll((5, 5, 5)))
    assert repr(state) == before


# --- Score rows and history lines --------------------------------------------------


def test_score_rows_carry_running_totals_and_notes() -> None:
    state = play(
        new_game(("Ann", "Bo")),
        QuickTurn(500),
        Roll((2, 3, 4, 6, 4, 2)),
        Roll((5, 5, 5, 2, 3, 4)),
        Keep((5, 5, 5), bank=True),
    )
    rows = GAME.score_rows(state)
    assert [(r.round, r.seat, r.name, r.points, r.total, r.note) for r in rows] == [
        (1, 0, "Ann", 500, 500, "entered as a total"),
        (1, 1, "Bo", 0, 0, "Yardkle"),
        (2, 0, "Ann", 500, 1000, "banked"),
    ]


def test_describe_gives_short_history_lines() -> None:
    assert GAME.describe(Roll((1, 1, 1, 5, 2, 3))) == "roll 1 1 1 5 2 3"
    assert GAME.describe(Keep((1, 1, 1))) == "set aside 1 1 1"
    assert GAME.describe(Keep((5,), bank=True)) == "set aside 5 and bank"
    assert GAME.describe(Bank()) == "bank"
    assert GAME.describe(QuickTurn(350)) == "turn total 350"


# --- JSON actions ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "action"),
    [
        ({"type": "roll", "dice": [1, 1, 1, 5, 2, 3]}, Roll((1, 1, 1, 5, 2, 3))),
        ({"type": "keep", "dice": [1, 5], "bank": False}, Keep((1, 5))),
        ({"type": "keep", "dice": [5], "bank": True}, Keep((5,), bank=True)),
        ({"type": "bank"}, Bank()),
        ({"type": "total", "points": 350}, QuickTurn(350)),
    ],
)
def test_parse_action_and_action_to_json_are_inverses(
    data: dict[str, object], action: Roll | Keep | Bank | QuickTurn
) -> None:
    assert GAME.parse_action(data) == action
    assert GAME.action_to_json(action) == data
    assert GAME.parse_action(GAME.action_to_json(action)) == action


def test_parse_action_accepts_form_strings_and_a_missing_bank() -> None:
    assert GAME.parse_action({"type": "roll", "dice": ["1", "2", " 3"]}) == Roll((1, 2, 3))
    assert GAME.parse_action({"type": "keep", "dice": ["1"]}) == Keep((1,))
    assert GAME.parse_action({"type": "total", "points": "350"}) == QuickTurn(350)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"type": "jump"}, "type"),
        ({}, "type"),
        ({"type": 3}, "type"),
        ({"type": "roll"}, "dice"),
        ({"type": "roll", "dice": [1, 7]}, "dice"),
        ({"type": "roll", "dice": ["12"]}, "dice"),
        ({"type": "roll", "dice": [True]}, "dice"),
        ({"type": "roll", "dice": "123"}, "dice"),
        ({"type": "roll", "dice": [1, 2, 3, 4, 5, 6, 1]}, "dice"),
        ({"type": "keep", "dice": [1], "bank": "yes"}, "bank"),
        ({"type": "total", "points": "lots"}, "points"),
        ({"type": "total", "points": True}, "points"),
        ({"type": "total"}, "points"),
    ],
)
def test_parse_action_refuses_bad_input_on_the_right_field(
    data: dict[str, object], field: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    assert caught.value.field == field


def test_parse_action_names_unknown_keys() -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action({"type": "bank", "points": 5, "extra": 1})
    assert "'extra'" in caught.value.message
    assert "'points'" in caught.value.message


# --- Properties -------------------------------------------------------------------

rolls = st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=6)


@given(rolls)
def test_best_keep_scores_as_much_as_the_roll(roll: list[int]) -> None:
    score = score_roll(roll)
    assert score.points % 50 == 0
    assert score.yardkle == (score.points == 0)
    keep = best_keep(roll)
    assert (len(keep) == 0) == score.yardkle
    if keep:
        assert score_keep(roll, keep).points == score.points


@given(rolls)
def test_combo_dice_come_from_the_roll_and_points_add_up(roll: list[int]) -> None:
    score = score_roll(roll)
    assert sum(combo.points for combo in score.combos) == score.points
    used = sorted(die for combo in score.combos for die in combo.dice)
    for face in range(1, 7):
        assert used.count(face) <= roll.count(face)
    assert [c.points for c in score.combos] == sorted(
        (c.points for c in score.combos), reverse=True
    )


def random_play(seed: int, players: int) -> None:
    rng = random.Random(seed)
    state = new_game(tuple(f"P{i}" for i in range(players)), threshold=500, winning=3000)
    turns_after_trigger: int | None = None
    for _ in range(20_000):
        if state.finished:
            break
        before = state
        if state.turn.pending_roll is None:
            if can_bank(state) and rng.random() < 0.4:
                action: Roll | Keep | Bank | QuickTurn = Bank()
            else:
                action = Roll(tuple(rng.randint(1, 6) for _ in range(state.turn.dice_left)))
        else:
            action = Keep(best_keep(state.turn.pending_roll))
        state = GAME.apply(state, action)
        changed = [s for s in range(players) if state.scores[s] != before.scores[s]]
        assert changed in ([], [before.current])
        assert all(a >= b for a, b in zip(state.scores, before.scores, strict=True))
        for seat in range(players):
            recorded = sum(r.points for r in state.turns if r.seat == seat)
            assert recorded == state.scores[seat]
        if state.final_round_by is not None:
            if turns_after_trigger is None:
                turns_after_trigger = len(state.turns)
            assert len(state.turns) - turns_after_trigger <= players - 1
    assert state.finished
    assert turns_after_trigger is not None
    assert len(state.turns) - turns_after_trigger == players - 1
    assert GAME.winners(state)
    top = max(state.scores)
    assert all(state.scores[seat] == top for seat in GAME.winners(state))


@pytest.mark.parametrize("seed", range(40))
def test_seeded_random_play_keeps_the_invariants_and_finishes(seed: int) -> None:
    random_play(seed, players=1 + seed % 8)


# --- What comes next -------------------------------------------------------------------

ROLL, BANK, TOTAL = Accepts("roll"), Accepts("bank"), Accepts("total")


def keep_accepts(*bank: bool) -> Accepts:
    return Accepts("keep", choices=bank)


def test_a_new_game_expects_the_first_players_roll_or_turn_total() -> None:
    expected = GAME.expected(new_game())
    assert expected == Expected(0, (ROLL, TOTAL))
    assert expected_actions(new_game()) == expected
    assert expected.to_json() == {"seat": 0, "actions": [{"type": "roll"}, {"type": "total"}]}


def test_a_waiting_roll_expects_only_a_set_aside() -> None:
    state = play(new_game(threshold=0), Roll((1, 5, 2, 3, 4, 6)))
    assert GAME.expected(state) == Expected(0, (keep_accepts(False, True),))
    assert GAME.expected(state).to_json()["actions"] == [{"type": "keep", "choices": [False, True]}]


def test_set_aside_and_bank_is_not_offered_below_the_entry_threshold() -> None:
    # The best set-aside, 1 1 5 5, makes 300: under 500, so the turn cannot stop.
    state = play(new_game(), Roll((1, 1, 5, 5, 2, 3)))
    assert GAME.expected(state) == Expected(0, (keep_accepts(False),))


def test_set_aside_and_bank_is_not_offered_when_only_hot_dice_reach_the_threshold() -> None:
    # 1-2-3-4-5-6 makes 1500 only with all six set aside (hot dice: roll again);
    # the 1 and the 5 alone make 150, under the 500 to get on the scorecard.
    state = play(new_game(), Roll((1, 2, 3, 4, 5, 6)))
    assert GAME.expected(state) == Expected(0, (keep_accepts(False),))
    # Three pairs score only with every die set aside: even with no threshold, no stop;
    # and nothing else to set aside, so the next roll (all six) may come at once.
    state = play(new_game(threshold=0), Roll((2, 2, 4, 4, 6, 6)))
    assert GAME.expected(state) == Expected(0, (keep_accepts(False), ROLL))


def test_set_aside_and_bank_is_offered_when_part_of_the_roll_reaches_the_threshold() -> None:
    # Three 5s (500) leave three dice to roll: the turn may stop there.
    state = play(new_game(), Roll((5, 5, 5, 2, 3, 4)))
    assert GAME.expected(state) == Expected(0, (keep_accepts(False, True),))


def test_the_set_aside_to_bank_with_is_the_best_one_not_hot_dice() -> None:
    # Ann has 1000 set aside and three dice left: 5 5 1 all score (1150 in all), but
    # setting aside all three is hot dice; 1 and 5 (150) is the best that lets her stop.
    state = play(new_game(), Roll((1, 1, 1, 2, 3, 4)), Keep((1, 1, 1)), Roll((5, 5, 1)))
    assert suggested_keep(state) == (1, 5, 5)
    assert best_bank_keep(state) == BankKeep((1, 5), 1150)
    assert GAME.apply(state, Keep((1, 5), bank=True)).scores == (1150, 0, 0)
    assert "roll all six again" in refused(state, Keep((1, 5, 5), bank=True)).message


def test_the_set_aside_to_bank_with_reaches_the_entry_threshold() -> None:
    # Three 5s make the 500 to get on the scorecard; the 1 and the other 5 make 650.
    assert best_bank_keep(play(new_game(), Roll((5, 5, 5, 2, 3, 4)))) == BankKeep((5, 5, 5), 500)
    assert best_bank_keep(play(new_game(), Roll((1, 5, 5, 5, 5, 3)))) == BankKeep(
        (1, 5, 5, 5, 5), 650
    )


def test_no_set_aside_to_bank_with_under_the_threshold_on_hot_dice_or_with_no_roll() -> None:
    assert best_bank_keep(play(new_game(), Roll((1, 1, 5, 5, 2, 3)))) is None
    assert best_bank_keep(play(new_game(threshold=0), Roll((2, 2, 4, 4, 6, 6)))) is None
    assert best_bank_keep(new_game()) is None


def test_after_a_set_aside_the_player_rolls_on_or_banks_but_enters_no_total() -> None:
    enough = play(new_game(), Roll((5, 5, 5, 2, 3, 4)), Keep((5, 5, 5)))
    assert GAME.expected(enough) == Expected(0, (ROLL, BANK))
    short = play(new_game(), Roll((1, 1, 5, 5, 2, 3)), Keep((1, 1, 5, 5)))
    assert GAME.expected(short) == Expected(0, (ROLL,))


def test_hot_dice_expect_only_a_roll() -> None:
    state = play(new_game(threshold=0), Roll((1, 5, 2, 3, 4, 6)), Keep((1, 5)), Roll((1, 1, 1, 5)))
    state = play(state, Keep((1, 1, 1, 5)))
    assert state.turn.hot_dice
    assert GAME.expected(state) == Expected(0, (ROLL,))


def test_a_roll_with_one_possible_set_aside_and_no_stop_lets_the_next_roll_come_at_once() -> None:
    # Only the 5 scores, and 50 is under the 500 to get on the scorecard: nothing to choose.
    state = play(new_game(), Roll((5, 2, 3, 4, 6, 6)))
    assert forced_keep(state) == (5,)
    assert dice_to_roll(state) == 5
    assert GAME.expected(state) == Expected(0, (keep_accepts(False), ROLL))
    rolled = play(state, Roll((1, 1, 1, 2, 3)))
    assert (rolled.turn.total, rolled.turn.pending_roll) == (50, (1, 1, 1, 2, 3))
    assert GAME.ruling(rolled) == (
        "Ann set aside single 5 for 50: turn total 50, 5 dice to roll. "
        "Ann rolled 1 1 1 2 3: three 1s (1000) can score up to 1000."
    )
    # The explicit set-aside is still accepted (an API client, an older log).
    assert play(state, Keep((5,))).turn == Turn(50, 5, None, False, 1)
    assert refused(state, Roll((1, 1, 1, 2, 3, 4))).message == (
        "Ann rolls 5 dice now (1 is set aside): enter 5 dice, not 6."
    )


def test_a_forced_set_aside_of_the_last_die_makes_the_next_roll_all_six() -> None:
    state = play(new_game(), Roll((1, 1, 1, 5, 5, 2)), Keep((1, 1, 1, 5, 5)), Roll((5,)))
    assert forced_keep(state) == (5,)
    assert dice_to_roll(state) == 6
    rolled = play(state, Roll((2, 3, 4, 6, 4, 2)))
    assert GAME.ruling(rolled).startswith(
        "Ann set aside single 5 for 50: turn total 1150. Hot dice!"
    )
    assert "Yardkle! Ann rolled 2 3 4 6 4 2" in GAME.ruling(rolled)
    assert rolled.scores[0] == 0 and rolled.current == 1


def test_a_set_aside_with_a_choice_or_a_stop_is_not_forced() -> None:
    assert forced_keep(play(new_game(), Roll((1, 1, 2, 3, 4, 6)))) is None  # one 1 or both
    entered = play(new_game(threshold=0), Roll((5, 2, 3, 4, 6, 6)))
    assert forced_keep(entered) is None  # the 5 alone, but the turn may stop after it
    assert forced_keep(new_game()) is None  # no roll waits


def test_after_a_turn_the_next_seat_is_expected() -> None:
    after_yardkle = play(new_game(), Roll((2, 3, 4, 6, 4, 2)))
    assert GAME.expected(after_yardkle) == Expected(1, (ROLL, TOTAL))
    after_bank = play(new_game(), Roll((5, 5, 5, 2, 3, 4)), Keep((5, 5, 5), bank=True))
    assert GAME.expected(after_bank) == Expected(1, (ROLL, TOTAL))
    # Once on the scorecard, Ann may stop below the threshold on her next turn.
    back = play(after_bank, QuickTurn(0), QuickTurn(0), Roll((5, 2, 3, 4, 6, 6)), Keep((5,)))
    assert GAME.expected(back) == Expected(0, (ROLL, BANK))


def test_the_final_round_expects_the_last_players_then_nothing() -> None:
    state = play(new_game(("Ann", "Bo", "Cy")), QuickTurn(600), QuickTurn(10000))
    assert GAME.expected(state) == Expected(2, (ROLL, TOTAL))
    state = play(state, QuickTurn(0))
    assert GAME.expected(state) == Expected(0, (ROLL, TOTAL))
    state = play(state, QuickTurn(0))
    assert state.finished
    assert GAME.expected(state) == NOTHING_EXPECTED
    assert GAME.expected(state).to_json() == {"seat": None, "actions": []}


def keeps_of(roll: Sequence[int]) -> set[tuple[int, ...]]:
    """Every non-empty choice of dice from ``roll``, sorted, each once."""
    return {
        tuple(sorted(chosen))
        for size in range(1, len(roll) + 1)
        for chosen in combinations(roll, size)
    }


def accepted(state: State, action: Roll | Keep | Bank | QuickTurn) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalAction:
        return False
    return True


def candidates(state: State) -> dict[tuple[str, object], list[Roll | Keep | Bank | QuickTurn]]:
    """Actions of every type (and every bank flag of a set-aside) that could be accepted now."""
    roll = state.turn.pending_roll or (1, 5)
    return {
        ("roll", None): [Roll((5,) * count) for count in range(1, 7)],
        ("keep", False): [Keep(kept) for kept in keeps_of(roll)],
        ("keep", True): [Keep(kept, bank=True) for kept in keeps_of(roll)],
        ("bank", None): [Bank()],
        ("total", None): [QuickTurn(0)],
    }


def check_expected(state: State) -> Expected:
    """Each type (and bank flag) listed is accepted for some value; each one not listed never."""
    expected = GAME.expected(state)
    assert (expected.actions == ()) == state.finished
    assert expected.seat == (None if state.finished else state.current)
    for (kind, bank), actions in candidates(state).items():
        listed = expected.accepts(kind)
        offered = listed is not None and (bank is None or bank in (listed.choices or ()))
        assert any(accepted(state, action) for action in actions) == offered, (kind, bank)
    # The set-aside a page offers to bank with is accepted with the bank, and listed.
    to_bank = best_bank_keep(state)
    keep = expected.accepts("keep")
    assert (to_bank is not None) == (keep is not None and True in (keep.choices or ()))
    if to_bank is not None:
        assert GAME.apply(state, Keep(to_bank.dice, bank=True)).turns[-1].points == to_bank.total
    return expected


def random_attempt(rng: random.Random, state: State) -> Roll | Keep | Bank | QuickTurn:
    """Any action, often a wrong one: a bad dice count, a keep that cannot score, a bad total.

    Half the set-asides are the app's suggestion, so turns go on past their first roll.
    """
    kind = rng.choice(["roll", "roll", "keep", "keep", "bank", "total"])
    if kind == "roll":
        count = state.turn.dice_left if rng.random() < 0.8 else rng.randint(1, 6)
        return Roll(tuple(rng.randint(1, 6) for _ in range(count)))
    if kind == "keep":
        roll = state.turn.pending_roll or (1, 5, 5)
        if rng.random() < 0.5:
            kept = best_keep(roll)
        else:
            kept = tuple(die for die in roll if rng.random() < 0.6)
        return Keep(kept, bank=rng.random() < 0.4)
    if kind == "bank":
        return Bank()
    return QuickTurn(rng.choice([0, 0, 350, 355, 500, 650, 1000]))


def random_expected_game(seed: int) -> set[str]:
    """A seeded game of random attempts, ``expected`` checked at every state.

    Every attempt ``apply`` accepts was listed, with its bank flag among the
    choices; returns the kinds of action accepted ("keep and bank" apart).
    """
    rng = random.Random(seed)
    players = tuple(f"P{i}" for i in range(1 + seed % 4))
    state = new_game(players, threshold=rng.choice([0, 500]), winning=2000)
    expected = check_expected(state)
    accepted_kinds: set[str] = set()
    for _ in range(5_000):
        if state.finished:
            break
        action = random_attempt(rng, state)
        try:
            after = GAME.apply(state, action)
        except IllegalAction:
            continue
        kind = str(GAME.action_to_json(action)["type"])
        listed = expected.accepts(kind)
        assert listed is not None, (action, expected)
        if isinstance(action, Keep):
            assert listed.choices is not None and action.bank in listed.choices
            kind += " and bank" if action.bank else ""
        accepted_kinds.add(kind)
        state = after
        expected = check_expected(state)
    assert state.finished
    assert expected == NOTHING_EXPECTED
    return accepted_kinds


def test_expected_lists_exactly_what_apply_accepts_in_seeded_random_games() -> None:
    accepted_kinds: set[str] = set()
    for seed in range(40):
        accepted_kinds |= random_expected_game(seed)
    assert accepted_kinds == {"roll", "keep", "keep and bank", "bank", "total"}
