"""Yellow Dwarf: the judge contract's settle, and the session game that is the table's bank."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction, OptionValue
from scorekeeper.games.cards import STANDARD_52, PlayingCard, parse_playing_card
from scorekeeper.games.yellow_dwarf.rules import (
    GAME,
    Action,
    Kept,
    Play,
    Reveal,
    RoundSummary,
    State,
    Without,
    active_seats,
    dealt,
    expected,
    expected_actions,
    forced_action,
    hand_counts,
    is_grand_opera,
    played_this_round,
    required_rank,
    summary_allowed,
    turn_seat,
    unplayed_taker_cards,
)
from scorekeeper.games.yellow_dwarf.settlement import (
    TAKER_CARDS,
    TRAY_STAKES,
    card_points,
    deal_size,
    is_taker,
    rank_name,
    settle,
)

TRAYS = {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20}


def test_the_contract_example_settles_exactly() -> None:
    result = settle(
        0,
        TRAYS,
        [[], ["3H", "KH"], ["QS", "2C"], ["AC"]],
        [{"player": 1, "card": "JC"}],
        False,
        "cards",
    )
    assert result.chips == (5, -26, -14, -1)
    assert result.trays == {"10D": 4, "JC": 16, "QS": 24, "KH": 32, "7D": 20}
    assert "player 1 pays 2 (2 cards)" in result.explanation
    assert "Player 1 kept KH: pays the King of Hearts tray what it holds, 16." in result.explanation


def test_cards_left_alone_pay_the_winner_a_chip_each() -> None:
    result = settle(2, TRAYS, [["3H", "4H"], ["9S"], []])
    assert result.chips == (-2, -1, 3)
    assert result.trays == TRAYS


def test_the_points_variant_counts_ace_one_and_faces_ten() -> None:
    result = settle(0, TRAYS, [[], ["AH", "9S", "QC"], ["JD", "2S"]], payout="points")
    assert result.chips == (1 + 9 + 10 + 10 + 2, -20, -12)
    assert "player 1 pays 20 (20 points in hand)" in result.explanation


def test_a_kept_taker_card_doubles_its_tray() -> None:
    result = settle(0, TRAYS, [[], ["7D"], ["2C"]])
    assert result.chips == (2, -1 - 20, -1)
    assert result.trays["7D"] == 40


def test_an_uncalled_taker_card_doubles_its_tray_even_for_the_winner() -> None:
    result = settle(0, TRAYS, [[], ["2C"], ["3C"]], [{"player": 0, "card": "10d"}])
    assert result.chips == (2 - 4, -1, -1)
    assert result.trays["10D"] == 8


def test_every_penalty_together_in_the_contract_order() -> None:
    result = settle(
        1,
        TRAYS,
        [["KH", "QS", "10D"], [], ["7D"]],
        [{"player": 2, "card": "JC"}],
    )
    assert result.chips == (-3 - 16 - 12 - 4, 4, -1 - 20 - 8)
    assert result.trays == {"10D": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}


def test_a_grand_opera_empties_every_tray_to_the_winner_first() -> None:
    result = settle(0, TRAYS, [[], ["KH", "2C"], ["3C"]], grand_opera=True)
    # The trays are empty by the time the kept king of hearts pays: it pays 0.
    assert result.chips == (60 + 3, -2, -1)
    assert result.trays == dict.fromkeys(TRAY_STAKES, 0)
    assert result.explanation.startswith("Grand Opera: player 0 takes all five trays (60 chips).")


def test_card_points_follow_the_variant() -> None:
    points = {str(card): card_points(card) for card in STANDARD_52}
    assert (points["AS"], points["7D"], points["10H"], points["JC"], points["KD"]) == (
        1,
        7,
        10,
        10,
        10,
    )


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ((0, TRAYS, [["2C"], [], ["3C"]]), "hands.0"),
        ((5, TRAYS, [[], ["2C"], ["3C"]]), "winner"),
        ((0, TRAYS, [[], ["2C"]]), "hands"),
        ((0, TRAYS, [[], ["2C"], ["2C"]]), "hands.2.0"),
        ((0, TRAYS, [[], ["2X"], ["3C"]]), "hands.1.0"),
        ((0, {**TRAYS, "AS": 3}, [[], ["2C"], ["3C"]]), "trays.AS"),
        ((0, {"10D": 1}, [[], ["2C"], ["3C"]]), "trays.JC"),
        ((0, {**TRAYS, "QS": -1}, [[], ["2C"], ["3C"]]), "trays.QS"),
        ((0, TRAYS, [[], ["2C"], ["3C"]], [{"player": 1, "card": "2D"}]), "forgot.0.card"),
        ((0, TRAYS, [[], ["2C"], ["3C"]], [{"player": 9, "card": "JC"}]), "forgot.0.player"),
        ((0, TRAYS, [[], ["JC"], ["3C"]], [{"player": 1, "card": "JC"}]), "forgot.0.card"),
        ((0, TRAYS, [[], ["2C"], ["3C"]], [], "yes"), "grand_opera"),
        ((0, TRAYS, [[], ["2C"], ["3C"]], [], False, "gold"), "payout"),
    ],
)
def test_bad_input_is_refused_naming_the_field(args: tuple[object, ...], field: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        settle(*args)
    assert refused.value.field == field
    assert len(refused.value.message) > 10


@given(st.integers(min_value=3, max_value=8), st.randoms(use_true_random=False), st.booleans())
def test_chips_are_conserved_whatever_the_round(
    players: int, rng: random.Random, grand_opera: bool
) -> None:
    deck = list(STANDARD_52)
    rng.shuffle(deck)
    winner = rng.randrange(players)
    hands = [[str(c) for c in deck[i * 6 : i * 6 + rng.randrange(7)]] for i in range(players)]
    hands[winner] = []
    in_hands = {card for hand in hands for card in hand}
    forgot = [
        {"player": rng.randrange(players), "card": name}
        for name in TRAY_STAKES
        if name not in in_hands and rng.random() < 0.3
    ]
    trays = {name: rng.randrange(40) for name in TRAY_STAKES}
    result = settle(winner, trays, hands, forgot, grand_opera, rng.choice(["cards", "points"]))
    gained_by_trays = sum(result.trays.values()) - sum(trays.values())
    assert sum(result.chips) + gained_by_trays == 0
    assert result.chips[winner] >= 0 or any(f["player"] == winner for f in forgot)


# --- The session game ------------------------------------------------------------------

FOUR = ("Ann", "Bo", "Cy", "Di")
MINUS = "\u2212"  # score-row notes use the minus sign, not a hyphen
THREE = ("Ann", "Bo", "Cy")


def act(state: State, **data: object) -> State:
    """Apply one action as the store does: from JSON, through parse_action."""
    after = GAME.apply(state, GAME.parse_action(data))
    assert_conserved(after)
    return after


def refusal(state: State, **data: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(state, GAME.parse_action(data))
    return refused.value


def parse_refusal(**data: object) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        GAME.parse_action(data)
    return refused.value


def assert_conserved(state: State) -> None:
    assert sum(state.chips) + sum(state.trays.values()) == state.start_total
    assert min(state.chips) >= 0


def card(text: str) -> PlayingCard:
    return parse_playing_card(text, "card")


def play(state: State, *cards: str, called: bool | None = None) -> State:
    """Lay cards one after another; taker cards are called unless ``called`` says otherwise."""
    for text in cards:
        data: dict[str, object] = {"type": "play", "card": text}
        if is_taker(card(text)):
            data["called"] = True if called is None else called
        state = act(state, **data)
    return state


def test_the_deal_table_uses_the_whole_deck() -> None:
    for players in range(3, 9):
        each, aside = deal_size(players)
        assert each * players + aside == 52
    assert [deal_size(n) for n in range(3, 9)] == [
        (15, 7),
        (12, 4),
        (9, 7),
        (8, 4),
        (7, 3),
        (6, 4),
    ]
    with pytest.raises(IllegalAction):
        deal_size(2)
    assert [rank_name(rank) for rank in (1, 2, 10, 11, 12, 13)] == ["A", "2", "10", "J", "Q", "K"]


def test_the_options_have_defaults_bounds_and_help() -> None:
    specs = {spec.name: spec for spec in GAME.options}
    assert (specs["starting_chips"].default, specs["starting_chips"].minimum) == (50, 15)
    assert specs["starting_chips"].maximum == 10000
    assert specs["payout"].default == "cards"
    assert specs["game_end"].default == "first-broke"
    assert [value for value, _ in specs["game_end"].choices] == ["first-broke", "last-standing"]
    assert "only 2 can pay" in specs["game_end"].help
    assert all(spec.help for spec in GAME.options)
    with pytest.raises(IllegalAction) as refused:
        GAME.start(FOUR, {"starting_chips": 14})
    assert refused.value.message == "Chips each at the start must be at least 15."
    with pytest.raises(IllegalAction) as refused:
        GAME.start(FOUR[:2], {})
    assert refused.value.message == "Yellow Dwarf is for 3 to 8 players; you entered 2."
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == (
        "yellow-dwarf",
        "Yellow Dwarf",
        3,
        8,
    )


def test_start_takes_every_stake_and_seat_0_starts_freely() -> None:
    state = GAME.start(FOUR, {})
    assert state.chips == (35, 35, 35, 35)
    assert state.trays == {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20}
    assert list(state.trays) == list(TRAY_STAKES)
    assert (state.round, state.first, turn_seat(state), required_rank(state)) == (1, 0, 0, None)
    assert expected(state) == "play"
    assert summary_allowed(state)
    assert hand_counts(state) == (12, 12, 12, 12)
    assert state.start_total == 200
    assert GAME.ruling(state) == (
        "Round 1: everyone stakes 15 chips; the trays hold 10D 4, JC 8, QS 12, KH 16, 7D 20. "
        "Deal 12 cards each and set 4 aside. Ann starts the round with any card."
    )


def test_a_player_goes_on_up_the_ranks_and_a_king_gives_a_free_restart() -> None:
    state = play(GAME.start(FOUR, {}), "9C")
    assert (turn_seat(state), required_rank(state)) == (0, 10)
    assert GAME.ruling(state) == "Ann lays 9C. Ann: lay a 10 or say “without 10”."
    state = play(state, "10C", "JD", "QD", "KC")
    assert (turn_seat(state), required_rank(state)) == (0, None)
    assert GAME.ruling(state) == "Ann lays KC. After a king, Ann starts again with any card."
    state = play(state, "3H")
    assert (turn_seat(state), required_rank(state)) == (0, 4)
    assert hand_counts(state) == (6, 12, 12, 12)
    assert played_this_round(state) == {card(c) for c in ("9C", "10C", "JD", "QD", "KC", "3H")}
    assert not summary_allowed(state)


def test_without_passes_the_turn_and_everyone_without_lets_the_last_player_go_on() -> None:
    state = play(GAME.start(FOUR, {}), "5H")
    state = act(state, type="without")  # Ann herself has no 6
    assert GAME.ruling(state) == "Ann: without 6. Bo: lay a 6 or say “without 6”."
    assert (turn_seat(state), required_rank(state)) == (1, 6)
    state = act(state, type="without", rank="6")
    state = act(state, type="without")
    assert turn_seat(state) == 3
    state = act(state, type="without")
    assert (turn_seat(state), required_rank(state)) == (0, 7)
    assert GAME.ruling(state) == (
        "Di: without 6. Nobody else could lay a 6: Ann, who laid the last card, goes on at 7. "
        "Ann: lay a 7 or say “without 7”."
    )
    # Bo takes over when he holds the rank, and plays on from there.
    state = act(state, type="without")
    state = play(state, "7S", "8S")
    assert (turn_seat(state), required_rank(state)) == (1, 9)


def test_everyone_without_a_king_gives_the_last_player_a_free_start() -> None:
    state = play(GAME.start(THREE, {}), "QH")
    for _ in range(3):
        state = act(state, type="without")
    assert (turn_seat(state), required_rank(state)) == (0, None)
    assert GAME.ruling(state) == (
        "Cy: without K. Nobody else could lay a K: Ann, who laid the last card, starts again "
        "with any card, as there is no rank after K."
    )


def test_without_is_refused_on_a_free_start_and_for_the_wrong_rank() -> None:
    state = GAME.start(FOUR, {})
    assert refusal(state, type="without").message == (
        "Ann has a free start and may lay any card: there is no rank to be without."
    )
    state = play(state, "5H")
    wrong = refusal(state, type="without", rank="7")
    assert (wrong.message, wrong.field) == (
        "The rank due is 6, not 7: Ann may say “without 6”.",
        "rank",
    )


def test_card_refusals_name_the_card_and_the_rule() -> None:
    state = play(GAME.start(FOUR, {}), "5H", "6H")
    wrong = refusal(state, type="play", card="8H")
    assert (wrong.message, wrong.field) == (
        "Ann must lay a 7 or say “without 7”: 8H is not a 7.",
        "card",
    )
    state = act(state, type="without")
    state = play(state, "7C", "8C", "9C", "10C", "JC", "QC", "KC")
    again = refusal(state, type="play", card="5h")
    assert (again.message, again.field) == ("5H was already laid this round, by Ann.", "card")
    ace = refusal(play(state, "AS"), type="play", card="3S")
    assert ace.message == "Bo must lay a 2 or say “without 2”: 3S is not a 2."


def test_called_is_asked_only_of_a_taker_card_that_can_be_laid() -> None:
    state = play(GAME.start(FOUR, {}), "8H")
    wrong_rank = refusal(state, type="play", card="QS")
    assert (wrong_rank.message, wrong_rank.field) == (
        "Ann must lay a 9 or say “without 9”: QS is not a 9.",
        "card",
    )
    state = act(play(state, "9S", "10D"), type="without", rank="J")
    laid_before = refusal(state, type="play", card="10D")
    assert (laid_before.message, laid_before.field) == (
        "10D was already laid this round, by Ann.",
        "card",
    )
    can_be_laid = refusal(state, type="play", card="JC")
    assert can_be_laid.field == "called"


def test_no_hand_gives_more_cards_than_were_dealt() -> None:
    # Going out on the last card makes this unreachable in play; the guard still says why.
    state = replace(GAME.start(FOUR, {}), laid_counts=(12, 0, 0, 0))
    assert (
        refusal(state, type="play", card="5H").message == "Ann has already laid all 12 cards dealt."
    )


def test_called_is_required_for_taker_cards_and_refused_for_others() -> None:
    missing = refusal(GAME.start(FOUR, {}), type="play", card="QS")
    assert (missing.message, missing.field) == (
        "QS is a taker card: say whether “who takes” was called (called true or false).",
        "called",
    )
    extra = parse_refusal(type="play", card="QH", called=True)
    assert (extra.message, extra.field) == (
        "“called” is only for the taker cards (10D, JC, QS, KH and 7D); QH is not one.",
        "called",
    )
    assert parse_refusal(type="play", card="QS", called="yes").message == (
        "“called” must be true or false."
    )
    # An action built in code is checked the same way.
    with pytest.raises(IllegalAction) as refused:
        GAME.apply(GAME.start(FOUR, {}), Play(card("7D")))
    assert refused.value.field == "called"


def test_a_called_taker_card_collects_its_tray_at_once() -> None:
    state = play(GAME.start(FOUR, {}), "5D", "6D", "7D")
    assert state.chips == (55, 35, 35, 35)
    assert state.trays["7D"] == 0
    assert GAME.ruling(state) == (
        "Ann lays 7D and calls “who takes”: Ann takes the 7 of Diamonds (the Yellow Dwarf) "
        "tray, 20 chips. Ann: lay an 8 or say “without 8”."
    )
    assert unplayed_taker_cards(state) == tuple(c for c in TAKER_CARDS if str(c) != "7D")


def test_an_uncalled_taker_card_doubles_its_tray_when_the_round_is_settled() -> None:
    state = GAME.start(FOUR, {})
    state = play(state, "9C", "10D", called=False)
    assert state.chips == (35, 35, 35, 35)
    assert GAME.ruling(state).startswith(
        "Ann lays 10D without calling “who takes”: the 10 of Diamonds tray stays, and when "
        "the round is settled Ann pays into it what it holds."
    )
    state = act(state, type="without")
    state = play(state, "JH", "QH", "KH")  # Bo calls the King of Hearts: 16 chips
    assert state.chips == (35, 51, 35, 35)
    # Bo plays out the rest of his 12 cards: the round ends, not a Grand Opera.
    state = play(state, "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")
    assert expected(state) == "reveal"
    assert state.went_out == 1
    assert not is_grand_opera(state)
    assert hand_counts(state) == (10, 0, 12, 12)
    state = act(state, type="reveal", kept=[])
    record = state.rounds[-1]
    assert record.left == (10, 0, 12, 12)
    # Ann pays 10 to Bo, then the 10D tray's 4 into the tray.
    assert record.settled == (-10 - 4, 34, -12, -12)
    assert record.trays == {"10D": 8, "JC": 8, "QS": 12, "KH": 0, "7D": 20}
    assert record.explanation == (
        "Bo went out: Ann pays 10 (10 cards), Cy pays 12 (12 cards) and Di pays 12 (12 cards). "
        "Ann played without calling 10D: pays the 10 of Diamonds tray what it holds, 4."
    )
    assert record.changes == (-15 - 14, -15 + 16 + 34, -15 - 12, -15 - 12)


def test_a_kept_taker_card_in_a_session_doubles_its_tray() -> None:
    state = GAME.start(FOUR, {})
    state = act(
        state, type="round", winner=2, left=[3, 5, 0, 1], kept=[{"player": 1, "card": "KH"}]
    )
    record = state.rounds[0]
    assert record.settled == (-3, -5 - 16, 9, -1)
    assert record.trays == {"10D": 4, "JC": 8, "QS": 12, "KH": 32, "7D": 20}
    assert record.explanation == (
        "Cy went out: Ann pays 3 (3 cards), Bo pays 5 (5 cards) and Di pays 1 (1 card). "
        "Bo kept KH: pays the King of Hearts tray what it holds, 16."
    )


def test_kept_and_uncalled_and_called_cards_together_in_a_summary() -> None:
    state = GAME.start(FOUR, {})
    state = act(
        state,
        type="round",
        winner=2,
        left=[3, 4, 0, 1],
        kept=[{"player": 1, "card": "KH"}, {"player": 0, "card": "7D"}],
        played=[
            {"player": 0, "card": "10D", "called": True},
            {"player": 3, "card": "JC", "called": False},
            {"player": 2, "card": "QS", "called": True},
        ],
    )
    record = state.rounds[0]
    # Collected first: Ann 10D (4), Cy QS (12). Then the hands pay Cy; then Ann's kept
    # 7D (20), Bo's kept KH (16) and Di's uncalled JC (8) pay what their trays hold.
    assert record.takings[0].chips == 4 and record.takings[1].chips == 12
    assert record.settled == (-3 - 20, -4 - 16, 8, -1 - 8)
    assert record.changes == (-15 + 4 - 23, -15 - 20, -15 + 12 + 8, -15 - 9)
    assert record.trays == {"10D": 0, "JC": 16, "QS": 0, "KH": 32, "7D": 40}
    assert record.explanation == (
        "Ann called 10D “who takes” and took the 10 of Diamonds tray, 4 chips. "
        "Cy called QS “who takes” and took the Queen of Spades tray, 12 chips. "
        "Cy went out: Ann pays 3 (3 cards), Bo pays 4 (4 cards) and Di pays 1 (1 card). "
        "Ann kept 7D: pays the 7 of Diamonds (the Yellow Dwarf) tray what it holds, 20. "
        "Bo kept KH: pays the King of Hearts tray what it holds, 16. "
        "Di played without calling JC: pays the Jack of Clubs tray what it holds, 8."
    )
    rows = [row for row in GAME.score_rows(state) if row.round == 1]
    assert [(row.points, row.total) for row in rows] == [(-34, 16), (-35, 15), (5, 55), (-24, 26)]
    assert rows[0].note == (
        f"{MINUS}15 stake; +4 10D tray; {MINUS}3 to Cy (3 cards); "
        f"{MINUS}20 to the 7D tray (kept 7D)"
    )
    assert rows[2].note == f"{MINUS}15 stake; +12 QS tray; +8 went out"


def test_a_grand_opera_card_by_card_is_found_and_empties_every_tray() -> None:
    names = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")
    state = GAME.start(names, {})
    assert state.trays == {"10D": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}
    state = play(state, "9C", "10D", "JC")
    state = play(state, "QS", called=False)
    state = play(state, "KH")  # Ann has laid 5 of her 6 cards and starts again
    assert state.chips[0] == 35 + 8 + 16 + 32
    state = play(state, "2C")
    assert expected(state) == "reveal"
    assert is_grand_opera(state)
    assert GAME.ruling(state) == (
        "Ann lays 2C. Ann has laid every card and goes out: a Grand Opera, as nobody else laid "
        "a card. Ann is out: enter the taker cards still in a hand to settle the round."
    )
    kept_played = refusal(state, type="reveal", kept=[{"player": 1, "card": "QS"}])
    assert (kept_played.message, kept_played.field) == (
        "QS was laid this round, by Ann, so it is in no hand.",
        "kept.0.card",
    )
    state = act(state, type="reveal", kept=[{"player": 1, "card": "7D"}])
    record = state.rounds[0]
    assert record.grand_opera
    # The trays left (QS 24, 7D 40) go to Ann first; the kept 7D and the uncalled QS then
    # pay into empty trays: nothing.
    assert record.settled == (24 + 40 + 7 * 6, -6, -6, -6, -6, -6, -6, -6)
    assert record.chips == (197, 29, 29, 29, 29, 29, 29, 29)
    assert record.trays == dict.fromkeys(TRAY_STAKES, 0)
    assert record.explanation.startswith("Grand Opera: Ann takes all five trays (64 chips).")
    # Round 2 starts at once: the trays hold the new stakes, Bo starts.
    assert (state.round, state.first, turn_seat(state)) == (2, 1, 1)
    assert state.trays == {"10D": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}


def test_a_grand_opera_summary_lets_only_the_winner_lay_cards() -> None:
    state = GAME.start(THREE, {})
    other = refusal(
        state,
        type="round",
        winner=0,
        left=[0, 15, 15],
        played=[{"player": 1, "card": "10D", "called": True}],
        grand_opera=True,
    )
    assert (other.message, other.field) == (
        "In a Grand Opera only Ann lays cards; 10D is listed as laid by Bo.",
        "played.0.player",
    )
    short = refusal(state, type="round", winner=0, left=[0, 14, 15], grand_opera=True)
    assert (short.message, short.field) == (
        "In a Grand Opera nobody else lays a card, so Bo still holds all 15 cards; 14 entered.",
        "left.1",
    )
    state = act(
        state,
        type="round",
        winner=0,
        left=[0, 15, 15],
        played=[{"player": 0, "card": "10D", "called": True}],
        kept=[{"player": 2, "card": "QS"}],
        grand_opera=True,
    )
    record = state.rounds[0]
    assert record.grand_opera and record.summary
    # Ann: +3 (10D called), +42 (the other trays), +30 (two hands of 15); QS pays 0.
    assert record.changes == (-15 + 3 + 42 + 30, -30, -30)
    assert (
        GAME.describe(
            GAME.parse_action(GAME.action_to_json(RoundSummary(0, (0, 15, 15), grand_opera=True)))
        )
        == "round summary: seat 1 went out, Grand Opera"
    )


def test_the_points_payout_by_reveal_and_by_summary() -> None:
    state = GAME.start(THREE, {"payout": "points", "starting_chips": 200})
    # Ann lays her 15 cards in three runs (the others say without each time).
    state = play(state, "AC", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC")
    state = play(state, "QC", "KC", "AD", "2D")
    assert expected(state) == "reveal"
    need = refusal(state, type="reveal", kept=[])
    assert (need.message, need.field) == (
        "Enter each player's points left in hand, in seat order.",
        "left",
    )
    low = refusal(state, type="reveal", left=[0, 14, 20], kept=[])
    assert (low.message, low.field) == (
        "Bo has 15 cards left, worth 15 to 150 points; 14 entered.",
        "left.1",
    )
    with_kept = refusal(
        state,
        type="reveal",
        left=[0, 20, 20],
        kept=[{"player": 1, "card": "KH"}, {"player": 1, "card": "QS"}],
    )
    assert with_kept.message == (
        "Bo has 15 cards left, KH and QS among them, worth 33 to 150 points; 20 entered."
    )
    winner_points = refusal(state, type="reveal", left=[2, 20, 20], kept=[])
    assert winner_points.message == "Ann went out and has no points left; 2 entered."
    state = act(state, type="reveal", left=[0, 40, 71], kept=[{"player": 1, "card": "KH"}])
    record = state.rounds[0]
    # Nobody else laid a card: a Grand Opera, so the kept KH pays into an emptied tray.
    assert record.grand_opera
    assert record.settled == (3 + 9 + 12 + 15 + 40 + 71, -40, -71)
    assert "Ann went out: Bo pays 40 (40 points in hand) and Cy pays 71 (71 points in hand)." in (
        record.explanation
    )
    # A summary in points: each seat 1 to 10 x the deal, at least what the kept cards are worth.
    over = refusal(state, type="round", winner=1, left=[151, 0, 5])
    assert (over.message, over.field) == (
        "Ann did not go out, so has 1 to 150 points left (15 cards dealt); 151 entered.",
        "left.0",
    )
    cheap = refusal(
        state, type="round", winner=1, left=[9, 0, 5], kept=[{"player": 0, "card": "QS"}]
    )
    assert cheap.message == "Ann keeps QS, worth 10 points, but has only 9 points left."
    state = act(state, type="round", winner=1, left=[12, 0, 1])
    assert state.rounds[1].settled == (-12, 13, -1)
    assert "Cy pays 1 (1 point in hand)" in state.rounds[1].explanation


def test_the_trays_carry_over_from_round_to_round() -> None:
    state = GAME.start(FOUR, {"starting_chips": 200})
    state = act(state, type="round", winner=0, left=[0, 1, 1, 1])
    assert state.rounds[0].trays == {"10D": 4, "JC": 8, "QS": 12, "KH": 16, "7D": 20}
    assert state.trays == {"10D": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}
    state = act(
        state, type="round", winner=0, left=[0, 1, 1, 1], kept=[{"player": 3, "card": "7D"}]
    )
    assert state.rounds[1].trays["7D"] == 80
    assert state.trays == {"10D": 12, "JC": 24, "QS": 36, "KH": 48, "7D": 100}
    assert GAME.ruling(state).endswith(
        "Round 3: everyone stakes 15 chips; the trays hold 10D 12, JC 24, QS 36, KH 48, 7D 100. "
        "Deal 12 cards each and set 4 aside. Cy starts the round with any card."
    )
    state = play(state, "4D", "5D", "6D", "7D")
    assert state.chips[2] == state.rounds[1].chips[2] - 15 + 100


def test_a_stake_nobody_can_pay_ends_the_game_first_broke() -> None:
    state = GAME.start(THREE, {"starting_chips": 20})
    state = act(
        state,
        type="round",
        winner=0,
        left=[0, 7, 2],
        played=[{"player": 0, "card": "7D", "called": True}],
    )
    assert state.finished
    assert expected(state) == "over"
    assert state.chips == (27, 0, 3)
    assert GAME.winners(state) == [0]
    assert GAME.ruling(state) == (
        "Ann called 7D “who takes” and took the 7 of Diamonds (the Yellow Dwarf) tray, 15 chips. "
        "Ann went out: Bo can pay only 5 of 7 (7 cards) and Cy pays 2 (2 cards). "
        "Bo (0 chips) and Cy (3 chips) cannot pay the 15-chip stake for round 2. "
        "Game over: Ann wins with 27 chips."
    )
    assert [row.note for row in GAME.score_rows(state)][1] == (
        f"{MINUS}15 stake; {MINUS}5 of 7 owed to Ann (7 cards)"
    )
    assert [(s.name, s.score, s.rank) for s in GAME.standings(state)] == [
        ("Ann", 27, 1),
        ("Cy", 3, 2),
        ("Bo", 0, 3),
    ]
    for data in (
        {"type": "play", "card": "5H"},
        {"type": "without"},
        {"type": "reveal"},
        {"type": "round", "winner": 0, "left": [0, 1, 1]},
    ):
        assert refusal(state, **data).message == "The game is over."


def test_tied_chips_share_the_win() -> None:
    state = GAME.start(THREE, {"starting_chips": 15})
    # Everyone has 0 after the stakes; nobody can pay, so nobody pays.
    state = act(state, type="round", winner=1, left=[4, 0, 2])
    assert state.chips == (0, 0, 0)
    assert GAME.winners(state) == [0, 1, 2]
    assert GAME.ruling(state).endswith("Game over: Ann, Bo and Cy share the win with 0 chips each.")


def test_a_penalty_a_player_cannot_pay_in_full_is_capped_at_what_they_hold() -> None:
    state = GAME.start(THREE, {"starting_chips": 20})
    state = act(state, type="round", winner=0, left=[0, 3, 1], kept=[{"player": 1, "card": "7D"}])
    assert state.rounds[0].settled == (4, -5, -1)
    assert state.rounds[0].explanation.endswith(
        "Bo kept 7D: owes the 7 of Diamonds (the Yellow Dwarf) tray what it holds, 15, "
        "but can pay only 2."
    )


def test_last_standing_drops_players_out_until_one_can_pay() -> None:
    names = ("Ann", "Bo", "Cy", "Di", "Ed")
    state = GAME.start(names, {"starting_chips": 20, "game_end": "last-standing"})
    state = act(
        state,
        type="round",
        winner=1,
        left=[1, 0, 1, 1, 9],
        played=[
            {"player": 0, "card": "7D", "called": True},
            {"player": 1, "card": "KH", "called": True},
            {"player": 2, "card": "QS", "called": True},
            {"player": 3, "card": "JC", "called": True},
        ],
    )
    assert not state.finished
    assert state.active == (True, True, True, False, False)
    assert active_seats(state) == (0, 1, 2)
    # Di and Ed keep their chips; only three stake; three deal 15 cards each; Bo starts.
    assert state.chips == (29 - 15, 33 - 15, 19 - 15, 14, 0)
    assert state.trays == {"10D": 8, "JC": 6, "QS": 9, "KH": 12, "7D": 15}
    assert (dealt(state), state.first, turn_seat(state)) == (15, 1, 1)
    assert hand_counts(state) == (15, 15, 15, 0, 0)
    assert (
        "Di (14 chips) and Ed (0 chips) cannot pay the 15-chip stake and drop out, keeping their "
        "chips. Round 2: Ann, Bo and Cy each stake 15 chips;"
    ) in GAME.ruling(state)
    dropped = refusal(state, type="round", winner=1, left=[3, 0, 2, 1, 0])
    assert (dropped.message, dropped.field) == (
        "Di is out of the game and has no cards left; 1 entered.",
        "left.3",
    )
    gone = refusal(state, type="round", winner=4, left=[3, 2, 2, 0, 0])
    assert (gone.message, gone.field) == ("Ed is out of the game and cannot go out.", "winner")
    state = act(state, type="round", winner=1, left=[3, 0, 2, 0, 0])
    assert state.finished
    assert GAME.winners(state) == [1]
    assert GAME.ruling(state) == (
        "Bo went out: Ann pays 3 (3 cards) and Cy pays 2 (2 cards). Ann (11 chips) and Cy "
        "(2 chips) cannot pay the 15-chip stake and drop out, keeping their chips. Bo is the "
        "last player who can pay the stake. Game over: Bo wins with 23 chips."
    )
    assert [(s.name, s.score) for s in GAME.standings(state)] == [
        ("Bo", 23),
        ("Di", 14),
        ("Ann", 11),
        ("Cy", 2),
        ("Ed", 0),
    ]
    assert GAME.score_rows(state)[-1].note == "out of the game"


def test_last_standing_ends_when_two_can_pay_and_more_chips_wins() -> None:
    state = GAME.start(FOUR, {"starting_chips": 20, "game_end": "last-standing"})
    state = act(
        state,
        type="round",
        winner=0,
        left=[0, 1, 1, 5],
        played=[
            {"player": 0, "card": "7D", "called": True},
            {"player": 0, "card": "KH", "called": True},
            {"player": 1, "card": "QS", "called": True},
            {"player": 2, "card": "JC", "called": True},
        ],
    )
    assert state.finished
    assert state.chips == (48, 16, 12, 0)
    assert GAME.winners(state) == [0]
    assert GAME.ruling(state).endswith(
        "Cy (12 chips) and Di (0 chips) cannot pay the 15-chip stake and drop out, keeping their "
        "chips. Only Ann and Bo can still pay, and a deal needs 3 players: the one with more "
        "chips wins. Game over: Ann wins with 48 chips."
    )


def test_the_first_player_moves_one_seat_each_round() -> None:
    state = GAME.start(THREE, {"starting_chips": 200})
    firsts = []
    for _ in range(4):
        firsts.append(state.first)
        winner = state.first
        left = [0 if seat == winner else 1 for seat in range(3)]
        state = act(state, type="round", winner=winner, left=left)
    assert firsts == [0, 1, 2, 0]


def test_summary_refusals() -> None:
    state = GAME.start(FOUR, {})
    cases: list[tuple[dict[str, object], str, str]] = [
        (
            {"winner": 0, "left": [2, 1, 1, 1]},
            "Ann went out and has no cards left; 2 entered.",
            "left.0",
        ),
        (
            {"winner": 0, "left": [0, 1, 1]},
            "“left” lists the cards left of each of the 4 seats, in seat order; 3 given.",
            "left",
        ),
        (
            {"winner": 0, "left": [0, 0, 1, 1]},
            "Bo did not go out, so has 1 to 12 cards left (12 cards dealt); 0 entered.",
            "left.1",
        ),
        (
            {"winner": 0, "left": [0, 13, 1, 1]},
            "Bo did not go out, so has 1 to 12 cards left (12 cards dealt); 13 entered.",
            "left.1",
        ),
        (
            {
                "winner": 0,
                "left": [0, 11, 1, 1],
                "played": [
                    {"player": 1, "card": "QS", "called": True},
                    {"player": 1, "card": "KH", "called": False},
                ],
            },
            "Bo would have held more than the 12 cards dealt: 11 cards left and 2 taker cards "
            "laid.",
            "left.1",
        ),
        (
            {
                "winner": 0,
                "left": [0, 1, 1, 1],
                "kept": [{"player": 1, "card": "QS"}, {"player": 1, "card": "KH"}],
            },
            "Bo keeps 2 taker cards but has only 1 card left.",
            "left.1",
        ),
        (
            {
                "winner": 0,
                "left": [0, 2, 1, 1],
                "kept": [{"player": 1, "card": "QS"}],
                "played": [{"player": 2, "card": "QS", "called": True}],
            },
            "QS is listed both in “played” and in “kept”.",
            "kept.0.card",
        ),
        (
            {"winner": 0, "left": [0, 2, 1, 1], "kept": [{"player": 0, "card": "QS"}]},
            "Ann went out and holds no cards, so cannot keep QS.",
            "kept.0.player",
        ),
        (
            {"winner": 9, "left": [0, 2, 1, 1]},
            "There is no player 9: players are 0 to 3.",
            "winner",
        ),
    ]
    for data, message, field in cases:
        refused = refusal(state, type="round", **data)
        assert (refused.message, refused.field) == (message, field)
    not_taker = parse_refusal(
        type="round", winner=0, left=[0, 1, 1, 1], kept=[{"player": 1, "card": "QH"}]
    )
    assert (not_taker.message, not_taker.field) == (
        "QH is not a taker card: only 10D, JC, QS, KH and 7D have a tray.",
        "kept.0.card",
    )
    no_called = parse_refusal(
        type="round", winner=0, left=[0, 1, 1, 1], played=[{"player": 1, "card": "QS"}]
    )
    assert no_called.field == "played.0.called"
    started = play(state, "5H")
    late = refusal(started, type="round", winner=0, left=[0, 1, 1, 1])
    assert (late.message, late.field) == (
        "A round summary comes instead of the round's cards, so before the first one; "
        "round 1 already has 1 card laid.",
        "type",
    )


def test_reveal_refusals_check_the_known_hands() -> None:
    state = play(GAME.start(("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"), {}), "5H")
    for _ in range(8):  # everyone is without a 6: Ann goes on at 7
        state = act(state, type="without")
    state = play(state, "7H", "8H", "9H", "10H", "JH")
    assert expected(state) == "reveal"
    # The others only said "without": nobody else laid a card, so this is a Grand Opera too.
    assert is_grand_opera(state)
    early = refusal(state, type="play", card="QH")
    assert early.message == "Ann went out: enter the hands (reveal) to settle the round first."
    wrong = refusal(state, type="reveal", left=[0, 6, 6, 5, 6, 6, 6, 6], kept=[])
    assert (wrong.message, wrong.field) == (
        "Di has 6 cards left (6 dealt, 0 laid); 5 entered.",
        "left.3",
    )
    twice = refusal(
        state, type="reveal", kept=[{"player": 1, "card": "QS"}, {"player": 2, "card": "QS"}]
    )
    assert (twice.message, twice.field) == ("QS is listed twice in “kept”.", "kept.1.card")
    state = act(state, type="reveal", left=[0, 6, 6, 6, 6, 6, 6, 6])
    assert state.rounds[0].left == (0, 6, 6, 6, 6, 6, 6, 6)
    assert state.rounds[0].grand_opera
    summary = refusal(state, type="reveal", kept=[])
    assert summary.message.startswith("Nobody has gone out yet.")


# --- Seeded games: real deals, conservation after every action, replay from JSON -------


def record_step(
    state: State, data: Mapping[str, object], log: list[dict[str, object]], states: list[State]
) -> State:
    """Apply ``data`` and keep the action's JSON as the store logs it, with the state."""
    action = GAME.parse_action(data)
    state = GAME.apply(state, action)
    assert_conserved(state)
    log.append(GAME.action_to_json(action))
    states.append(state)
    return state


def assert_replays(
    players: Sequence[str],
    options: Mapping[str, OptionValue],
    log: Sequence[dict[str, object]],
    states: Sequence[State],
) -> None:
    """Replaying the logged JSON from the start rebuilds every state exactly."""
    state = GAME.start(players, options)
    for data, logged in zip(log, states, strict=True):
        state = GAME.apply(state, GAME.parse_action(data))
        assert state == logged
    assert GAME.ruling(state) == GAME.ruling(states[-1])


def deal(rng: random.Random, players: int) -> list[list[PlayingCard]]:
    deck = list(STANDARD_52)
    rng.shuffle(deck)
    each, _ = deal_size(players)
    return [deck[seat * each : (seat + 1) * each] for seat in range(players)]


@pytest.mark.parametrize("seed", range(12))
def test_a_seeded_round_card_by_card_settles_as_the_judge_does(seed: int) -> None:
    rng = random.Random(seed)
    seats = 3 + seed % 6
    names = [f"P{seat}" for seat in range(seats)]
    options: dict[str, OptionValue] = {
        "starting_chips": 10000,  # enough that nobody's payment is capped
        "payout": "points" if seed % 2 else "cards",
    }
    state = GAME.start(names, options)
    log: list[dict[str, object]] = []
    states: list[State] = []
    hands = deal(rng, seats)
    withouts = 0
    while expected(state) == "play":
        seat = turn_seat(state)
        assert seat is not None
        due = required_rank(state)
        choices = [c for c in hands[seat] if due is None or c.rank == due]
        if not choices:
            state = record_step(state, {"type": "without"}, log, states)
            withouts += 1
            continue
        laid = rng.choice(choices)
        data: dict[str, object] = {"type": "play", "card": str(laid)}
        if is_taker(laid):
            data["called"] = rng.random() < 0.6
        hands[seat].remove(laid)
        state = record_step(state, data, log, states)
        assert hand_counts(state) == tuple(len(hand) for hand in hands) or expected(state) == (
            "reveal"
        )
    assert expected(state) == "reveal"
    winner = state.went_out
    assert winner is not None and hands[winner] == []
    assert withouts > 0
    trays_before, chips_before = dict(state.trays), state.chips
    uncalled = [
        {"player": laid.seat, "card": str(laid.card)} for laid in state.laid if laid.called is False
    ]
    grand = is_grand_opera(state)
    kept = [
        {"player": seat, "card": str(c)}
        for seat, hand in enumerate(hands)
        for c in hand
        if is_taker(c)
    ]
    reveal: dict[str, object] = {"type": "reveal", "kept": kept}
    if options["payout"] == "points":
        reveal["left"] = [sum(card_points(c) for c in hand) for hand in hands]
    state = record_step(state, reveal, log, states)
    record = state.rounds[0]
    judged = settle(
        winner,
        trays_before,
        [[str(c) for c in hand] for hand in hands],
        uncalled,
        grand,
        options["payout"],
    )
    assert record.settled == judged.chips
    assert record.trays == judged.trays
    assert record.chips == tuple(
        held + change for held, change in zip(chips_before, judged.chips, strict=True)
    )
    assert record.left == tuple(
        len(hand) if options["payout"] == "cards" else sum(card_points(c) for c in hand)
        for hand in hands
    )
    assert state.round == 2 and expected(state) == "play"
    assert_replays(names, options, log, states)


def random_summary(state: State, rng: random.Random) -> dict[str, object]:
    """A legal round summary for the seats still in the game."""
    seats = active_seats(state)
    each = dealt(state)
    points = state.options.payout == "points"
    winner = rng.choice(seats)
    others = [seat for seat in seats if seat != winner]
    grand = rng.random() < 0.1
    played: list[dict[str, object]] = []
    kept: list[dict[str, object]] = []
    for taker in rng.sample([str(c) for c in TAKER_CARDS], len(TAKER_CARDS)):
        roll = rng.random()
        if roll < 0.4:
            player = winner if grand else rng.choice(seats)
            played.append({"player": player, "card": taker, "called": rng.random() < 0.6})
        elif roll < 0.7:
            kept.append({"player": rng.choice(others), "card": taker})
    left = []
    for seat in range(len(state.players)):
        if seat not in others:
            left.append(0)
            continue
        mine = [card(str(entry["card"])) for entry in kept if entry["player"] == seat]
        laid = sum(1 for entry in played if entry["player"] == seat)
        # Mostly small hands, so that a game lasts several rounds.
        if points:
            lowest = max(each if grand else 1, sum(card_points(c) for c in mine))
            left.append(rng.randint(lowest, min(10 * each, lowest + 12)))
        elif grand:
            left.append(each)
        else:
            fewest = max(1, len(mine))
            left.append(rng.randint(fewest, min(each - laid, fewest + 3)))
    return {
        "type": "round",
        "winner": winner,
        "left": left,
        "kept": kept,
        "played": played,
        "grand_opera": grand,
    }


@pytest.mark.parametrize("seed", range(16))
def test_a_seeded_game_of_round_summaries_plays_to_the_end(seed: int) -> None:
    rng = random.Random(seed)
    seats = 3 + seed % 6
    names = [f"P{seat}" for seat in range(seats)]
    options: dict[str, OptionValue] = {
        "starting_chips": rng.choice([15, 60, 150, 1000]),
        "payout": rng.choice(["cards", "points"]),
        "game_end": "last-standing" if seed % 2 else "first-broke",
    }
    state = GAME.start(names, options)
    log: list[dict[str, object]] = []
    states: list[State] = []
    while not GAME.is_finished(state):
        assert summary_allowed(state)
        stakers = sum(1 for stake in state.stakes if stake)
        assert stakers == len(active_seats(state)) >= 3
        state = record_step(state, random_summary(state, rng), log, states)
        assert len(state.rounds) < 500
    winners = GAME.winners(state)
    assert winners
    top = max(state.chips[seat] for seat in winners)
    assert all(state.chips[seat] == top for seat in winners)
    if options["game_end"] == "first-broke":
        assert state.chips[winners[0]] == max(state.chips)
        assert all(state.active)
    else:
        assert len(active_seats(state)) < 3
        assert set(winners) <= set(active_seats(state)) or not active_seats(state)
    # The score rows add up: each seat's changes sum to its chips at the end.
    for seat in range(seats):
        rows = [row for row in GAME.score_rows(state) if row.seat == seat]
        start = state.options.starting_chips
        assert start + sum(row.points for row in rows) == state.chips[seat]
        assert rows[-1].total == state.chips[seat]
    assert expected(state) == "over"
    assert_replays(names, options, log, states)


def test_actions_round_trip_through_json_and_describe_themselves() -> None:
    actions: list[Action] = [
        Play(card("10D"), True),
        Play(card("JC"), False),
        Play(card("5H")),
        Without(),
        Without(12),
        Reveal(None, (Kept(1, card("KH")),)),
        Reveal((0, 3, 4), ()),
        RoundSummary(2, (1, 3, 0), (Kept(0, card("7D")),), (), False),
    ]
    for action in actions:
        assert GAME.parse_action(GAME.action_to_json(action)) == action
    assert [GAME.describe(action) for action in actions] == [
        "10D, called",
        "JC, not called",
        "5H",
        "without",
        "without Q",
        "reveal",
        "reveal",
        "round summary: seat 3 went out",
    ]
    assert GAME.action_to_json(Without(12)) == {"type": "without", "rank": "Q"}
    unknown = parse_refusal(type="pass")
    assert unknown.field == "type"


# --- What comes next: the engine's Expected -------------------------------------------

TAKER_NAMES = ("10D", "JC", "QS", "KH", "7D")
EVERY_CARD = tuple(str(c) for c in STANDARD_52)


def every_card_but(*laid: str) -> tuple[str, ...]:
    return tuple(name for name in EVERY_CARD if name not in laid)


def test_at_the_start_the_first_seat_lays_any_card_or_the_table_enters_the_round() -> None:
    state = GAME.start(FOUR, {})
    assert GAME.expected(state) == expected_actions(state)
    assert expected_actions(state) == Expected(
        0,
        (
            Accepts("play", cards=EVERY_CARD, choices=(True, False)),
            Accepts("round", cards=TAKER_NAMES),
        ),
    )
    assert EVERY_CARD[:3] == ("AS", "2S", "3S") and len(EVERY_CARD) == 52


def test_a_rank_due_lists_its_cards_and_without_and_asks_called_only_with_a_taker() -> None:
    state = play(GAME.start(FOUR, {}), "5H")
    sixes = Expected(
        0, (Accepts("play", cards=("6S", "6H", "6D", "6C")), Accepts("without", ranks=("6",)))
    )
    assert expected_actions(state) == sixes
    state = act(state, type="without")
    assert expected_actions(state) == replace(sixes, seat=1)
    for _ in range(3):
        state = act(state, type="without")
    # Everyone was without a 6: Ann goes on at 7, and the 7D asks "who takes".
    assert expected_actions(state) == Expected(
        0,
        (
            Accepts("play", cards=("7S", "7H", "7D", "7C"), choices=(True, False)),
            Accepts("without", ranks=("7",)),
        ),
    )


def test_after_a_king_any_card_not_laid_is_listed_and_no_without_nor_summary() -> None:
    laid = ("9C", "10C", "JD", "QD", "KC")
    state = play(GAME.start(FOUR, {}), *laid)
    assert expected_actions(state) == Expected(
        0, (Accepts("play", cards=every_card_but(*laid), choices=(True, False)),)
    )
    # The last taker card laid: "called" is no longer asked.
    takers_laid = ("8D", "9D", "10D", "JH", "QS", "KH", "5D", "6D", "7D", "8C", "9C", "10C")
    state = play(GAME.start(THREE, {}), *takers_laid)
    state = act(state, type="without")
    state = play(state, "JC", "QC", "KC")
    assert expected_actions(state) == Expected(
        1, (Accepts("play", cards=every_card_but(*takers_laid, "JC", "QC", "KC")),)
    )


def test_when_every_card_of_the_rank_due_is_laid_only_without_is_listed() -> None:
    state = GAME.start(THREE, {})
    for five in ("5H", "5S", "5C", "5D"):
        state = play(state, five)
        while required_rank(state) is not None:
            state = act(state, type="without")
    state = play(state, "4H")
    assert expected_actions(state) == Expected(0, (Accepts("without", ranks=("5",)),))
    assert (
        refusal(state, type="play", card="5S").message == "5S was already laid this round, by Ann."
    )


def test_when_every_card_of_the_rank_due_is_laid_the_ruling_offers_only_without() -> None:
    state = play(GAME.start(FOUR, {}), "KS", "KH", "KD", "KC", "QD")
    assert expected_actions(state) == Expected(0, (Accepts("without", ranks=("K",)),))
    assert GAME.ruling(state) == "Ann lays QD. Ann: every K is laid this round, so say “without K”."
    state = act(state, type="without")
    assert GAME.ruling(state) == (
        "Ann: without K. Bo: every K is laid this round, so say “without K”."
    )
    wrong = refusal(state, type="play", card="3C")
    assert (wrong.message, wrong.field) == (
        "Every K is laid this round, so Bo can only say “without K”: 3C cannot be laid.",
        "card",
    )


def test_going_out_leaves_the_reveal_to_the_table_then_the_next_seat_starts() -> None:
    players = [f"P{seat}" for seat in range(8)]  # 6 cards each
    state = play(GAME.start(players, {}), "8C", "9C", "10C", "JC", "QC", "KC")
    assert expected_actions(state) == Expected(
        None, (Accepts("reveal", cards=("10D", "QS", "KH", "7D")),)
    )
    state = act(state, type="reveal", kept=[{"player": 3, "card": "KH"}])
    assert expected_actions(state) == Expected(
        1,
        (
            Accepts("play", cards=EVERY_CARD, choices=(True, False)),
            Accepts("round", cards=TAKER_NAMES),
        ),
    )


def test_a_game_over_expects_nothing_and_refuses_every_type() -> None:
    state = act(GAME.start(THREE, {"starting_chips": 15}), type="round", winner=0, left=[0, 1, 1])
    assert GAME.is_finished(state)
    assert expected_actions(state) == NOTHING_EXPECTED
    for data in (
        {"type": "play", "card": "5H"},
        {"type": "without"},
        {"type": "reveal"},
        {"type": "round", "winner": 0, "left": [0, 1, 1]},
    ):
        assert refusal(state, **data).message == "The game is over."


def is_accepted(state: State, data: Mapping[str, object]) -> bool:
    try:
        GAME.apply(state, GAME.parse_action(data))
    except IllegalAction:
        return False
    return True


def assert_listed(listed: Expected, data: Mapping[str, object]) -> None:
    """An action ``apply`` accepted is listed: its type, and its card, rank or answer."""
    offered = listed.accepts(str(data["type"]))
    assert offered is not None, data
    if offered.type == "play":
        assert offered.cards is not None and data["card"] in offered.cards, data
        if "called" in data:
            assert offered.choices is not None and data["called"] in offered.choices, data
    elif offered.type == "without":
        assert offered.ranks is not None
        assert data.get("rank") is None or data["rank"] in offered.ranks, data
    else:
        named = {
            entry["card"]
            for key in ("kept", "played")
            for entry in cast("list[dict[str, object]]", data.get(key) or [])
        }
        assert offered.cards is not None and named <= set(offered.cards), data


def reveal_keeping(state: State, taker: str | None) -> dict[str, object]:
    """A reveal of the hands as the engine counts them, one hand keeping ``taker`` if given."""
    left = list(hand_counts(state))
    if taker is None:
        return {"type": "reveal", "left": left, "kept": []}
    holder = next(seat for seat in active_seats(state) if seat != state.went_out)
    if state.options.payout == "points":
        # Its other cards count 1 point each, the least they can be worth.
        left[holder] += card_points(card(taker)) - 1
    return {"type": "reveal", "left": left, "kept": [{"player": holder, "card": taker}]}


def summary_naming(state: State, taker: str | None = None, laid: bool = False) -> dict[str, object]:
    """A round summary the first seat in wins: ``taker``, if given, kept by the next seat
    in, or laid (and called) by the winner when ``laid``."""
    winner, holder, *_ = active_seats(state)
    each = 10 if state.options.payout == "points" else 1
    left = [0 if seat == winner or not active else each for seat, active in enumerate(state.active)]
    data: dict[str, object] = {"type": "round", "winner": winner, "left": left}
    if taker is not None and laid:
        data["played"] = [{"player": winner, "card": taker, "called": True}]
    elif taker is not None:
        data["kept"] = [{"player": holder, "card": taker}]
    return data


def built_from_the_lists(state: State, listed: Expected) -> list[dict[str, object]]:
    """One action per listed value, built from the lists alone: each listed card (a taker
    card with each answer listed in ``choices``), each rank and none, each card a reveal
    or a summary may name."""
    built: list[dict[str, object]] = []
    for offered in listed.actions:
        names = offered.cards or ()
        if offered.type == "play":
            for name in names:
                if is_taker(card(name)):
                    assert offered.choices is not None
                    built += [{"type": "play", "card": name, "called": a} for a in offered.choices]
                else:
                    built.append({"type": "play", "card": name})
        elif offered.type == "without":
            ranks = [*(offered.ranks or ()), None]
            built += [{"type": "without", "rank": rank} for rank in ranks]
        elif offered.type == "reveal":
            built += [reveal_keeping(state, name) for name in (*names, None)]
        else:
            built += [summary_naming(state, name, laid) for name in names for laid in (False, True)]
            built.append(summary_naming(state))
    return built


def stray_tries(state: State, rng: random.Random) -> list[dict[str, object]]:
    """Actions of every type, legal or not in this state."""
    laid = rng.choice(STANDARD_52)
    stray_play: dict[str, object] = {"type": "play", "card": str(laid)}
    if is_taker(laid):
        stray_play["called"] = rng.random() < 0.5
    tries: list[dict[str, object]] = [
        stray_play,
        {"type": "without"},
        {"type": "without", "rank": rank_name(rng.randint(1, 13))},
        {"type": "reveal", "left": list(hand_counts(state)), "kept": []},
    ]
    if not GAME.is_finished(state):
        tries.append(random_summary(state, rng))
    return tries


def deal_round(state: State, rng: random.Random) -> list[list[PlayingCard]]:
    """The hands of a new round: the seats still in get a deal, the others nothing."""
    hands: list[list[PlayingCard]] = [[] for _ in state.players]
    seats = active_seats(state)
    for seat, hand in zip(seats, deal(rng, len(seats)), strict=True):
        hands[seat] = hand
    return hands


def next_move(
    state: State, hands: list[list[PlayingCard]], rng: random.Random
) -> dict[str, object]:
    """A legal move for the real hands: mostly card by card, now and then a round summary."""
    if expected(state) == "reveal":
        kept = [
            {"player": seat, "card": str(c)}
            for seat, hand in enumerate(hands)
            for c in hand
            if is_taker(c)
        ]
        data: dict[str, object] = {"type": "reveal", "kept": kept}
        if state.options.payout == "points":
            data["left"] = [sum(card_points(c) for c in hand) for hand in hands]
        return data
    if not state.laid and rng.random() < 0.15:
        return random_summary(state, rng)
    seat = turn_seat(state)
    assert seat is not None
    due = required_rank(state)
    choices = [c for c in hands[seat] if due is None or c.rank == due]
    # Now and then a player who could lay the rank says without all the same.
    if due is not None and (not choices or rng.random() < 0.1):
        return {"type": "without", "rank": rank_name(due) if rng.random() < 0.5 else None}
    laid = rng.choice(choices)
    hands[seat].remove(laid)
    move: dict[str, object] = {"type": "play", "card": str(laid)}
    if is_taker(laid):
        move["called"] = rng.random() < 0.6
    return move


@pytest.mark.parametrize("seed", range(16))
def test_expected_lists_exactly_what_apply_accepts_through_seeded_whole_games(seed: int) -> None:
    rng = random.Random(seed)
    seats = 3 + seed % 6
    names = [f"P{seat}" for seat in range(seats)]
    options: dict[str, OptionValue] = {
        # Few chips, so that a game lasts two or three rounds.
        "starting_chips": rng.choice([30, 45, 60]),
        "payout": rng.choice(["cards", "points"]),
        "game_end": "last-standing" if seed % 2 else "first-broke",
    }
    state = GAME.start(names, options)
    hands = deal_round(state, rng)
    steps = 0
    while True:
        listed = GAME.expected(state)
        assert (not listed.actions) == GAME.is_finished(state)
        assert listed.seat == turn_seat(state)
        for data in built_from_the_lists(state, listed):
            assert is_accepted(state, data), data
        for data in stray_tries(state, rng):
            if is_accepted(state, data):
                assert_listed(listed, data)
        if GAME.is_finished(state):
            break
        rounds = len(state.rounds)
        move = next_move(state, hands, rng)
        assert_listed(listed, move)
        state = act(state, **move)
        if len(state.rounds) > rounds and not GAME.is_finished(state):
            hands = deal_round(state, rng)
        steps += 1
        assert steps < 5000
    assert GAME.winners(state)


def test_the_rules_force_a_without_only_when_every_card_of_the_rank_due_is_laid() -> None:
    one_left = play(GAME.start(FOUR, {}), "KS", "KH", "KD", "QS")
    assert forced_action(one_left) is None  # the KC may be in Ann's hand
    state = play(GAME.start(FOUR, {}), "KS", "KH", "KD", "KC", "QD")
    assert forced_action(state) == {"type": "without", "rank": "K"}
    for _ in range(4):  # Ann, Bo, Cy and Di in turn: nobody can lay a king
        forced = forced_action(state)
        assert forced == {"type": "without", "rank": "K"}
        state = act(state, **forced)
    assert (state.turn, state.required, forced_action(state)) == (0, None, None)


def test_the_reveal_is_forced_only_when_it_asks_nothing() -> None:
    eight = [f"P{seat}" for seat in range(8)]
    out = play(GAME.start(eight, {}), "9H", "10D", "JC", "QS", "KH", "7D")  # Ann goes out
    assert forced_action(out) == {"type": "reveal", "kept": []}
    by_points = play(GAME.start(eight, {"payout": "points"}), "9H", "10D", "JC", "QS", "KH", "7D")
    assert forced_action(by_points) is None  # the points left in each hand are asked
    kept = play(GAME.start(eight, {}), "8C", "9C", "10C", "JC", "QC", "KC")
    assert forced_action(kept) is None  # a hand may have kept 10D, QS, KH or 7D
