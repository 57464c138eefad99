"""Settling a Yellow Dwarf round: the judge contract's order and chip conservation."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import STANDARD_52
from scorekeeper.games.yellow_dwarf import TRAY_STAKES, card_points, settle

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
