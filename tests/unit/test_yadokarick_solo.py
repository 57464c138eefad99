"""Yadokarick solo engine: the row, the four crabs, roofs, bonuses, give-ups, the end, replay."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise, permutations

import pytest

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yadokarick.rules import GAME, Action, MarkerMove, Play
from scorekeeper.games.yadokarick.solo import (
    COLOUR_RULES,
    SOLO_DECK,
    Bonus,
    Draw,
    GiveUp,
    SoloAction,
    SoloState,
    Take,
    action_to_json,
    apply,
    bonus_choices,
    crab_rules,
    crabs_for,
    deck_left,
    describe,
    expected,
    expected_actions,
    parse_action,
    score,
    score_note,
    score_rows,
    start,
)

MINUS = "\u2212"


def c(text: str) -> Card:
    return YADOKARICK.parse(text, "card")


def D(text: str, size: int | None = 2) -> Draw:
    return Draw(c(text), size)


def T(text: str, crab: int) -> Take:
    return Take(c(text), crab)


def act(state: SoloState, *actions: SoloAction) -> SoloState:
    for action in actions:
        state = apply(state, action)
    return state


def refused(state: SoloState, action: SoloAction) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    return caught.value


def parse_refused(data: Mapping[str, object]) -> IllegalAction:
    with pytest.raises(IllegalAction) as caught:
        parse_action(data)
    return caught.value


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(c(text) for text in texts)


LAYOUT = ("green 21", "green 20", "pink 18", "green 17", "pink 36")

# Sizes chosen so the pink house is the sheet's 60 face up and crab 2's four
# cards the sheet's 12 face down.
SIZES = {
    "pink 36": 9,
    "pink 35": 9,
    "pink 34": 9,
    "pink 33": 9,
    "pink 32": 8,
    "pink 31": 8,
    "pink 27": 8,
    "pink 18": 3,
    "green 17": 3,
    "pink 16": 3,
    "green 15": 3,
}


def sized(text: str) -> Draw:
    return D(text, SIZES.get(text, 2))


def sheet_example() -> SoloState:
    """The sheet's placement figure: a roof on crab 1, green 17 on crab 2, crab 3 empty,
    six pinks on crab 4; the row green 25, green 22, pink 27, pink 16, green 19."""
    state = act(start("Ann"), *(sized(text) for text in LAYOUT))
    moves = [
        ("green 21", 1, "pink 35"),
        ("green 20", 1, "pink 34"),
        ("pink 18", 2, "pink 33"),
        ("green 17", 2, "pink 32"),
        ("pink 36", 4, "pink 31"),
        ("pink 35", 4, "green 25"),
        ("pink 34", 4, "green 22"),
        ("pink 33", 4, "pink 27"),
        ("pink 32", 4, "pink 16"),
        ("pink 31", 4, "green 19"),
    ]
    for taken, crab, drawn in moves:
        state = act(state, T(taken, crab), sized(drawn))
    return state


# --- Setup and the opening row ----------------------------------------------------


def test_start_asks_for_the_opening_row() -> None:
    state = start("Ann")
    assert state.row == ()
    assert state.crabs == ((), (), (), ())
    assert state.step == "layout"
    assert not state.finished
    assert deck_left(state) == {"green": 35, "pink": 35}
    assert state.last_ruling == "Lay out the opening row: draw card 1 of 5 from either deck."
    assert crab_rules(state) == ("green, any number", "any card", "any card", "pink, any number")
    assert dict(COLOUR_RULES) == {1: "green", 2: "alternate", 3: "alternate", 4: "pink"}
    assert len(SOLO_DECK) == 70
    assert c("green 30") not in SOLO_DECK


def test_opening_row_takes_five_draws_of_either_colour_and_offers_no_bonus() -> None:
    state = act(start("Ann"), D("green 3", 1), D("pink 9", 4))
    assert state.row == cards("green 3", "pink 9")
    assert state.last_ruling == (
        "pink 9 (size 4) is laid out in the row (2 of 5). "
        "Lay out the opening row: draw card 3 of 5 from either deck."
    )
    state = act(state, D("green 5"), D("green 6"), D("green 4"))
    # green 4 joins green 3 and 5, but the bonus is for refills, not the opening row.
    assert bonus_choices(state) == ()
    assert state.step == "play"
    assert deck_left(state) == {"green": 31, "pink": 34}
    assert state.last_ruling == (
        "green 4 (size 2) is laid out in the row (5 of 5). Take a card from the row onto a crab."
    )


def test_a_card_is_drawn_with_its_size() -> None:
    state = start("Ann")
    error = refused(state, Draw(c("pink 18")))
    assert error.message == "Enter the size printed on pink 18."
    assert error.field == "size"
    state = act(state, D("pink 18", 2))
    assert state.sizes[c("pink 18")] == 2


# --- The sheet's placement example ---------------------------------------------


def test_sheet_placement_example_crab_rules() -> None:
    state = sheet_example()
    assert state.crabs == (
        cards("green 21", "green 20"),
        cards("pink 18", "green 17"),
        (),
        cards("pink 36", "pink 35", "pink 34", "pink 33", "pink 32", "pink 31"),
    )
    assert state.row == cards("green 25", "green 22", "pink 27", "pink 16", "green 19")
    assert crab_rules(state) == (
        "green, above 21 (under the roof)",
        "pink, 17 or lower",
        "any card",
        "pink, 31 or lower",
    )


def test_roofed_crab_takes_only_a_higher_green_and_puts_it_next_to_the_body() -> None:
    state = sheet_example()
    assert refused(state, T("green 19", 1)).message == (
        "Crab 1 has a roof: a new card goes underneath, next to the body, "
        "and must be higher than green 21 there; green 19 is not."
    )
    assert (
        refused(state, T("pink 27", 1)).message == "Crab 1 takes green cards only; pink 27 is pink."
    )
    after = apply(state, T("green 22", 1))
    assert after.crabs[0] == cards("green 22", "green 21", "green 20")
    assert after.last_ruling == (
        "green 22 goes under crab 1's roof, next to the body: green only, "
        "and 22 is higher than green 21. Crab 1 has 3 of 7 cards. Score: 0. "
        "Refill the row to 5: draw from the green or the pink deck."
    )
    assert crab_rules(after)[0] == "green, above 22 (under the roof)"


def test_second_crab_takes_only_pink_seventeen_or_lower() -> None:
    state = sheet_example()
    wrong_colour = refused(state, T("green 19", 2))
    assert wrong_colour.message == (
        "Crab 2 alternates colours: green 19 would go on green 17, so the card must be pink."
    )
    assert wrong_colour.field == "crab"
    assert refused(state, T("pink 27", 2)).message == (
        "pink 27 is higher than green 17, the top card of crab 2: "
        "a card on top must be the same number or lower."
    )
    after = apply(state, T("pink 16", 2))
    assert after.crabs[1] == cards("pink 18", "green 17", "pink 16")
    assert after.last_ruling.startswith(
        "pink 16 goes on top of crab 2, on green 17: pink follows green, and 16 is lower than 17. "
        "Crab 2 has 3 of 7 cards."
    )


def test_empty_middle_crab_takes_any_card() -> None:
    state = sheet_example()
    green = apply(state, T("green 25", 3))
    pink = apply(state, T("pink 27", 3))
    assert green.crabs[2] == cards("green 25")
    assert pink.crabs[2] == cards("pink 27")
    assert pink.last_ruling.startswith(
        "pink 27 starts crab 3: an empty crab takes either colour. Crab 3 has 1 of 7 cards."
    )


def test_rightmost_crab_completes_with_a_seventh_pink_and_scores() -> None:
    state = sheet_example()
    assert refused(state, T("green 19", 4)).message == (
        "Crab 4 takes pink cards only; green 19 is green."
    )
    after = apply(state, T("pink 27", 4))
    house = cards("pink 36", "pink 35", "pink 34", "pink 33", "pink 32", "pink 31", "pink 27")
    assert after.crabs[3] == ()
    assert after.scored == house
    assert score(after) == 60
    assert after.last_ruling == (
        "pink 27 goes on top of crab 4, on pink 31: pink only, and 27 is lower than 31. "
        "Crab 4 is complete with 7 cards: pink 36, pink 35, pink 34, pink 33, pink 32, "
        "pink 31 and pink 27 go face up for 60 points (9 + 9 + 9 + 9 + 8 + 8 + 8), "
        "and the crab is empty again. Score: 60. "
        "Refill the row to 5: draw from the green or the pink deck."
    )
    assert crab_rules(after)[3] == "pink, any number"


def test_roof_card_changes_the_crab_and_says_so() -> None:
    state = act(start("Ann"), D("green 21"), D("green 20"), D("pink 5"), D("pink 6"), D("pink 1"))
    state = act(state, T("green 21", 1), D("pink 2"), T("pink 1", 4))
    assert state.last_ruling.startswith("The bonus (pink 1 or pink 2) is passed up. ")
    state = act(state, D("green 5"), T("green 20", 1))
    assert state.last_ruling.startswith(
        "green 20 goes on top of crab 1, on green 21: green only, and 20 is lower than 21. "
        "green 20 is a roof card: from now on new cards on crab 1 go underneath, next to the "
        "body, and must be higher than green 21 there. Crab 1 has 2 of 7 cards."
    )


def test_roof_on_an_empty_middle_crab_alternates_against_the_card_next_to_the_body() -> None:
    state = act(start("Ann"), D("pink 10"), D("pink 12"), D("green 11"), D("green 14"), D("pink 4"))
    state = act(state, T("pink 10", 2), D("green 2"))
    assert crab_rules(state)[1] == "green, above 10 (under the roof)"
    assert refused(state, T("pink 12", 2)).message == (
        "Crab 2 alternates colours: pink 12 would go under the roof, next to pink 10, "
        "so the card must be green."
    )
    state = act(state, T("green 11", 2), D("green 3"))
    assert state.crabs[1] == cards("green 11", "pink 10")
    assert refused(state, T("green 14", 2)).message == (
        "Crab 2 alternates colours: green 14 would go under the roof, next to green 11, "
        "so the card must be pink."
    )
    state = act(state, T("pink 12", 2))
    assert state.crabs[1] == cards("pink 12", "green 11", "pink 10")
    assert crab_rules(state)[1] == "green, above 12 (under the roof)"


def test_a_roof_over_the_highest_card_closes_the_crab() -> None:
    state = act(start("Ann"), D("green 36"), D("green 20"), D("pink 4"), D("green 2"), D("pink 9"))
    state = act(state, T("green 36", 1), D("pink 12"), T("green 20", 1), D("green 33"))
    assert crab_rules(state)[0] == "nothing: no card is above 36 (under the roof)"
    assert refused(state, T("green 33", 1)).message.startswith("Crab 1 has a roof")


def test_under_a_roof_the_same_number_is_not_higher() -> None:
    state = act(start("Ann"), D("pink 10"), D("green 11"), D("pink 11"), D("green 4"), D("pink 4"))
    state = act(state, T("pink 10", 2), D("green 1"), T("green 11", 2), D("green 2"))
    assert refused(state, T("pink 11", 2)).message == (
        "Crab 2 has a roof: a new card goes underneath, next to the body, "
        "and must be higher than green 11 there; pink 11 is not."
    )


def test_same_number_other_colour_goes_on_top() -> None:
    state = act(start("Ann"), D("green 9"), D("pink 9"), D("pink 8"), D("green 12"), D("pink 13"))
    state = act(state, T("green 9", 2), D("green 1"), T("pink 9", 2))
    assert state.crabs[1] == cards("green 9", "pink 9")
    assert state.last_ruling.startswith(
        "pink 9 goes on top of crab 2, on green 9: pink follows green, and 9 is the same as 9."
    )


# --- Bonus ---------------------------------------------------------------------------


def bonus_state() -> SoloState:
    state = act(
        start("Ann"), D("pink 17", 2), D("pink 19", 3), D("green 3"), D("green 8"), D("green 12")
    )
    return act(state, T("green 12", 1), D("pink 18", 2))


def test_sheet_bonus_new_pink_18_with_17_and_19_in_the_row() -> None:
    state = bonus_state()
    assert bonus_choices(state) == cards("pink 17", "pink 18", "pink 19")
    assert state.last_ruling == (
        "pink 18 (size 2) refills the row (32 cards left in the pink deck). "
        "Consecutive number bonus: pink 18 is next to pink 17 and pink 19, so one of "
        "pink 17, pink 18 or pink 19 may go face up now. "
        "Bonus on offer: pink 17, pink 18 or pink 19 may go face up; any other move passes "
        "it up. Take a card from the row onto a crab or give up a crab."
    )
    for choice in ("pink 17", "pink 18", "pink 19"):
        taken = apply(state, Bonus(c(choice)))
        assert taken.scored == (c(choice),)
        assert c(choice) not in taken.row
        assert taken.step == "refill"
    after = apply(state, Bonus(c("pink 19")))
    assert score(after) == 3
    assert after.row == cards("pink 17", "green 3", "green 8", "pink 18")
    assert after.last_ruling == (
        "Bonus: pink 19 goes face up for 3 points. Score: 3. "
        "Refill the row to 5: draw from the green or the pink deck."
    )
    # One bonus per draw: the refill must come first, then a new run may earn another.
    assert refused(after, Bonus(c("pink 17"))).message == (
        "No bonus on offer: a bonus comes right after a refill draw that puts out a card "
        "next in number to a card of its colour in the row."
    )
    again = apply(after, D("pink 16", 1))
    assert bonus_choices(again) == cards("pink 16", "pink 17", "pink 18")


def test_bonus_must_be_in_the_run() -> None:
    state = bonus_state()
    wrong = refused(state, Bonus(c("green 3")))
    assert wrong.message == (
        "green 3 is not in the run: the bonus is one of pink 17, pink 18 or pink 19."
    )
    assert wrong.field == "card"


def test_a_take_passes_the_bonus_up() -> None:
    state = bonus_state()
    after = apply(state, T("pink 19", 2))
    assert after.last_ruling.startswith(
        "The bonus (pink 17, pink 18 or pink 19) is passed up. pink 19 starts crab 2"
    )
    assert bonus_choices(after) == ()
    after = apply(after, D("green 20"))
    assert refused(after, Bonus(c("pink 18"))).message.startswith("No bonus on offer")


def test_no_bonus_for_a_different_colour_or_a_gap() -> None:
    state = act(start("Ann"), D("pink 17"), D("green 19"), D("pink 20"), D("green 8"), D("pink 1"))
    state = act(state, T("pink 1", 4), D("green 18"))
    assert bonus_choices(state) == cards("green 18", "green 19")
    state = act(state, T("green 8", 1), D("pink 15"))
    assert bonus_choices(state) == ()


# --- Score -----------------------------------------------------------------------------


def test_sheet_score_example_face_up_60_face_down_12() -> None:
    state = act(sheet_example(), T("pink 27", 4), sized("green 15"), T("pink 16", 2))
    state = act(state, sized("green 14"), T("green 15", 2), sized("green 5"))
    assert state.crabs[1] == cards("pink 18", "green 17", "pink 16", "green 15")
    state = apply(state, GiveUp(2))
    assert state.penalty == cards("pink 18", "green 17", "pink 16", "green 15")
    assert state.crabs[1] == ()
    assert score(state) == 48
    assert score_note(state) == f"face up 60 {MINUS} face down 12 = 48"
    assert state.last_ruling == (
        "Crab 2 is given up: pink 18, green 17, pink 16 and green 15 go face down, "
        "a penalty of 12 points (3 + 3 + 3 + 3). Score: 48. "
        "Take a card from the row onto a crab or give up a crab."
    )
    rows = score_rows(state)
    assert [(row.round, row.points, row.total) for row in rows] == [(1, 60, 60), (2, -12, 48)]
    assert rows[1].note == "crab 2 given up: pink 18, green 17, pink 16 and green 15"


def test_negative_score_uses_a_minus_sign() -> None:
    state = act(start("Ann"), D("green 3", 4), D("pink 9"), D("pink 8"), D("green 12"), D("pink 7"))
    state = act(state, T("green 3", 1), D("pink 1"), GiveUp(1))
    assert score(state) == -4
    assert score_note(state) == f"face up 0 {MINUS} face down 4 = {MINUS}4"
    assert "green 3 goes face down, a penalty of 4 points. Score: \u22124." in state.last_ruling


# --- Refusals ------------------------------------------------------------------------------


def test_crab_out_of_range() -> None:
    state = sheet_example()
    for crab in (0, 5):
        error = refused(state, T("green 25", crab))
        assert error.message == (
            f"There is no crab {crab}: the crabs are numbered 1 to 4 from the left."
        )
        assert error.field == "crab"
    assert refused(state, GiveUp(7)).message == (
        "There is no crab 7: the crabs are numbered 1 to 4 from the left."
    )
    assert parse_refused({"type": "take", "card": "green 25", "crab": 5}).field == "crab"
    assert parse_refused({"type": "give-up", "crab": "two"}).message == (
        "The crab must be a whole number."
    )


def test_take_needs_a_full_row() -> None:
    state = act(start("Ann"), D("green 3"), D("pink 9"))
    error = refused(state, T("green 3", 1))
    assert error.message == "Lay out the opening row first: 2 of 5 cards drawn."
    state = act(state, D("pink 8"), D("green 12"), D("pink 7"), T("green 3", 1))
    assert state.step == "refill"
    assert refused(state, T("pink 9", 2)).message == (
        "The row has 4 cards: draw to refill it to 5 before taking a card."
    )
    assert refused(state, GiveUp(1)).message == (
        "The row has 4 cards: draw to refill it to 5 before giving up a crab."
    )


def test_draw_with_the_row_full() -> None:
    state = sheet_example()
    error = refused(state, D("green 1"))
    assert error.message == "The row already has 5 cards: take one onto a crab before drawing."
    assert error.field == "type"


def test_card_drawn_twice() -> None:
    state = sheet_example()
    state = apply(state, T("green 25", 3))
    error = refused(state, D("green 25"))
    assert error.message == "green 25 was drawn already (it is on crab 3): each card comes up once."
    assert error.field == "card"
    assert refused(state, D("pink 16")).message == (
        "pink 16 was drawn already (it is in the row): each card comes up once."
    )


def test_the_thirties_are_out() -> None:
    state = start("Ann")
    error = refused(state, D("pink 30"))
    assert error.message == "pink 30 is not in the solo game: the 30s are taken out of both decks."
    assert error.field == "card"
    parsed = parse_refused({"type": "draw", "card": "green 30", "size": 2})
    assert parsed.message == (
        "green 30 is not in the solo game: the 30s are taken out of both decks."
    )
    assert parsed.field == "card"
    above = parse_refused({"type": "draw", "card": "green 37", "size": 2})
    assert above.message == "“green 37”: green runs from 1 to 36 in Yadokarick."
    assert above.field == "card"
    assert refused(state, Draw(Card("green", 40), 2)).message == (
        "green 40 is not a Yadokarick house card."
    )


def test_take_of_a_card_not_in_the_row() -> None:
    state = sheet_example()
    assert refused(state, T("green 1", 3)).message == (
        "green 1 is not in the row: it is still in the green deck."
    )
    assert refused(state, T("pink 36", 3)).message == "pink 36 is not in the row: it is on crab 4."


def test_give_up_an_empty_crab() -> None:
    error = refused(sheet_example(), GiveUp(3))
    assert error.message == "Crab 3 has no cards to give up."
    assert error.field == "crab"


def exhaust_green(state: SoloState) -> SoloState:
    """Draws every green card, high to low, placing or giving up as the rules allow."""
    greens = [card for card in SOLO_DECK if card.colour == "green"][::-1]
    for card in greens:
        while state.step == "play":
            state = first_legal_move(state)
        state = apply(state, Draw(card, 2))
    return state


def first_legal_move(state: SoloState) -> SoloState:
    for card in state.row:
        for crab in range(1, 5):
            try:
                return apply(state, Take(card, crab))
            except IllegalAction:
                continue
    fullest = max(range(4), key=lambda index: len(state.crabs[index]))
    return apply(state, GiveUp(fullest + 1))


def test_empty_deck_is_refused() -> None:
    state = exhaust_green(start("Ann"))
    assert deck_left(state) == {"green": 0, "pink": 35}
    state = first_legal_move(state)
    assert state.step == "refill"
    assert (
        expected(state) == "Refill the row to 5: draw from the pink deck (the green deck is empty)."
    )
    error = refused(state, D("green 36"))
    assert error.message == "The green deck is empty: draw from the pink deck."
    assert error.field == "card"
    assert apply(state, D("pink 36")).row[-1] == c("pink 36")


# --- Parsing, JSON and log lines -----------------------------------------------------------


def test_actions_to_json_and_back() -> None:
    examples: list[tuple[dict[str, object], SoloAction, str]] = [
        ({"type": "draw", "card": "pink 18", "size": 2}, D("pink 18", 2), "draw pink 18 (size 2)"),
        ({"type": "draw", "card": "pink 18"}, D("pink 18", None), "draw pink 18"),
        ({"type": "take", "card": "green 25", "crab": 2}, T("green 25", 2), "green 25 onto crab 2"),
        ({"type": "bonus", "card": "pink 19"}, Bonus(c("pink 19")), "bonus pink 19"),
        ({"type": "give-up", "crab": 3}, GiveUp(3), "give up crab 3"),
    ]
    for data, action, line in examples:
        assert parse_action(data) == action
        assert action_to_json(action) == data
        assert describe(action) == line
    assert parse_action({"type": "take", "card": "Green-25", "crab": "2"}) == T("green 25", 2)
    assert parse_action({"type": "draw", "card": "pink 18", "size": ""}) == D("pink 18", None)


def test_parse_refusals_name_the_field() -> None:
    assert parse_refused({"type": "play"}).field == "type"
    extra = parse_refused({"type": "bonus", "card": "pink 19", "crab": 2})
    assert extra.message == "A bonus action has no field 'crab'."
    assert extra.field == "crab"
    missing = parse_refused({"type": "take", "crab": 2})
    assert missing.message == "Enter the card taken from the row."
    assert missing.field == "card"
    assert parse_refused({"type": "give-up"}).message == "Enter the crab, 1 to 4 from the left."
    size = parse_refused({"type": "draw", "card": "pink 18", "size": 0})
    assert size.message == "The size printed on pink 18 must be 1 to 99; you entered 0."
    assert size.field == "size"


# --- Random full games -----------------------------------------------------------------------


def reference_fits(crab: int, stack: Sequence[Card], card: Card) -> bool:
    """The placement rules written from the sheet, independently of the engine.

    A crab with a roof always has its first roof on top (later cards go
    underneath), so the top card tells whether the crab is roofed.
    """
    if crab == 1 and card.colour != "green":
        return False
    if crab == 4 and card.colour != "pink":
        return False
    if not stack:
        return True
    roofed = stack[-1].number in (10, 20)
    touching = stack[0] if roofed else stack[-1]
    if crab in (2, 3) and card.colour == touching.colour:
        return False
    return card.number > touching.number if roofed else card.number <= touching.number


def reference_place(stack: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    roofed = bool(stack) and stack[-1].number in (10, 20)
    return (card, *stack) if roofed else (*stack, card)


def reference_can_complete(state: SoloState) -> bool:
    for crab, stack in enumerate(state.crabs, start=1):
        needed = 7 - len(stack)
        for order in permutations(state.row, needed) if needed <= len(state.row) else ():
            current = stack
            for card in order:
                if not reference_fits(crab, current, card):
                    break
                current = reference_place(current, card)
            else:
                return True
    return False


def check_stack(crab: int, stack: Sequence[Card]) -> None:
    assert len(stack) < 7
    if crab == 1:
        assert all(card.colour == "green" for card in stack)
    if crab == 4:
        assert all(card.colour == "pink" for card in stack)
    if crab in (2, 3):
        assert all(low.colour != high.colour for low, high in pairwise(stack))
    # Normal placement goes lower on top, roofed placement higher underneath:
    # either way the numbers never rise from the body up.
    assert all(low.number >= high.number for low, high in pairwise(stack))
    if any(card.number in (10, 20) for card in stack):
        assert stack[-1].number in (10, 20)


def check_invariants(state: SoloState, sizes: Mapping[Card, int]) -> None:
    on_crabs = [card for stack in state.crabs for card in stack]
    everywhere = [*state.row, *on_crabs, *state.scored, *state.penalty]
    assert len(everywhere) == len(set(everywhere))
    assert set(everywhere) == state.drawn
    assert len(state.row) <= 5
    for crab, stack in enumerate(state.crabs, start=1):
        check_stack(crab, stack)
    expected_score = sum(sizes[card] for card in state.scored) - sum(
        sizes[card] for card in state.penalty
    )
    assert score(state) == expected_score
    assert sum(event.points for event in state.events) == expected_score
    assert deck_left(state) == {
        colour: 35 - sum(1 for card in state.drawn if card.colour == colour)
        for colour in ("green", "pink")
    }
    decks_empty = len(state.drawn) == 70
    end_holds = decks_empty and not state.offer and not reference_can_complete(state)
    assert state.finished == end_holds
    assert (state.step == "over") == state.finished
    for card in state.offer:
        assert card in state.row


def check_takes_match_reference(state: SoloState) -> None:
    for card in state.row:
        for crab in range(1, 5):
            legal = reference_fits(crab, state.crabs[crab - 1], card)
            try:
                apply(state, Take(card, crab))
            except IllegalAction:
                assert not legal, (card, crab, state.crabs[crab - 1])
            else:
                assert legal, (card, crab, state.crabs[crab - 1])


def gap(stack: Sequence[Card], card: Card) -> int:
    if not stack:
        return 36 - card.number
    roofed = stack[-1].number in (10, 20)
    return card.number - stack[0].number if roofed else stack[-1].number - card.number


def random_action(state: SoloState, rng: random.Random, sizes: Mapping[Card, int]) -> SoloAction:
    if state.step in ("layout", "refill"):
        left = deck_left(state)
        colour = rng.choice([colour for colour in ("green", "pink") if left[colour]])
        card = rng.choice(
            [card for card in SOLO_DECK if card.colour == colour and card not in state.drawn]
        )
        known = card in state.sizes
        return Draw(card, None if known and rng.random() < 0.5 else sizes[card])
    if state.offer and rng.random() < 0.5:
        return Bonus(rng.choice(state.offer))
    takes = [
        Take(card, crab)
        for card in state.row
        for crab in range(1, 5)
        if reference_fits(crab, state.crabs[crab - 1], card)
    ]
    give_ups = [GiveUp(crab) for crab in range(1, 5) if state.crabs[crab - 1]]
    if takes and rng.random() < 0.7:
        # Mostly a careful player (the smallest step in number), so houses get
        # built and the endgame is played out, not only given up.
        return min(takes, key=lambda take: gap(state.crabs[take.crab - 1], take.card))
    if takes and (not give_ups or rng.random() < 0.93):
        return rng.choice(takes)
    assert give_ups, "a game that is not over always has a move"
    return rng.choice(give_ups)


def play_random_game(
    seed: int, check: Callable[[SoloState, SoloAction], None] | None = None
) -> tuple[SoloState, list[SoloAction], dict[Card, int]]:
    """A whole game of random legal moves; ``check`` sees each state and the move made there."""
    rng = random.Random(seed)
    sizes = {card: rng.randint(1, 5) for card in SOLO_DECK}
    state = start("Ann")
    actions: list[SoloAction] = []
    for _ in range(1000):
        if state.finished:
            break
        if state.step == "play" and rng.random() < 0.1:
            check_takes_match_reference(state)
        action = random_action(state, rng, sizes)
        if check is not None:
            check(state, action)
        state = apply(state, action)
        actions.append(action)
        check_invariants(state, sizes)
        assert state.last_ruling
        assert describe(action)
    assert state.finished
    return state, actions, sizes


@pytest.mark.parametrize("seed", range(12))
def test_random_full_games(seed: int) -> None:
    state, actions, sizes = play_random_game(seed)
    assert state.step == "over"
    assert state.last_ruling.endswith(f"Final score: {score_note(state)}.")
    assert expected(state) == f"Game over. Final score: {score_note(state)}."
    replayed = start("Ann")
    for action in actions:
        replayed = apply(replayed, parse_action(action_to_json(action)))
    assert replayed == state
    rows = score_rows(state)
    assert (rows[-1].total if rows else 0) == score(state)
    for action in (Draw(c("green 1"), 1), Take(c("green 1"), 1), Bonus(c("green 1")), GiveUp(1)):
        error = refused(state, action)
        assert error.message == (
            f"The game is over (final score {score(state)}): nothing more can be entered."
            if score(state) >= 0
            else f"The game is over (final score {MINUS}{-score(state)}): "
            "nothing more can be entered."
        )
    assert all(sizes[card] == state.sizes[card] for card in state.drawn)


def test_random_games_reach_houses_bonuses_and_give_ups() -> None:
    kinds: set[str] = set()
    played_out = False
    for seed in range(12):
        state, _, _ = play_random_game(seed)
        kinds.update(event.kind for event in state.events)
        played_out = played_out or len(state.row) < 5
    assert kinds == {"house", "bonus", "give-up"}
    # Some game went on after the decks ran out, placing row cards until no crab could finish.
    assert played_out


# --- What comes next ---------------------------------------------------------------------------


def texts(cards: Sequence[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def test_the_opening_row_expects_a_draw_of_any_card_with_its_size() -> None:
    every = texts(SOLO_DECK)
    assert len(every) == 70 and "green 30" not in every
    state = start("Ann")
    assert expected_actions(state) == Expected(0, (Accepts("draw", cards=every, sizes=every),))
    assert GAME.expected(state) == expected_actions(state)
    state = act(state, D("pink 18"))
    rest = tuple(text for text in every if text != "pink 18")
    assert expected_actions(state) == Expected(0, (Accepts("draw", cards=rest, sizes=rest),))


def test_the_sheet_example_offers_each_row_card_only_onto_the_crabs_it_fits() -> None:
    state = sheet_example()
    fits = {str(card): crabs_for(state, card) for card in state.row}
    assert fits == {
        "green 25": (1, 3),  # above green 21 under crab 1's roof, or the empty crab 3
        "green 22": (1, 3),
        "pink 27": (3, 4),  # higher than green 17 on crab 2
        "pink 16": (2, 3, 4),
        "green 19": (3,),  # not above 21 under the roof; green on green 17 on crab 2
    }
    assert expected_actions(state) == Expected(
        0,
        (
            Accepts("take", cards=texts(state.row), crabs=(1, 2, 3, 4)),
            Accepts("give-up", crabs=(1, 2, 4)),
        ),
    )
    assert crabs_for(state, c("green 1")) == ()  # not in the row


def test_a_row_card_that_fits_no_crab_is_not_offered() -> None:
    state = act(sheet_example(), T("green 25", 3), D("pink 2", 1))
    assert crabs_for(state, c("green 19")) == ()
    assert expected_actions(state).to_json() == {
        "seat": 0,
        "actions": [
            {
                "type": "take",
                "cards": ["green 22", "pink 27", "pink 16", "pink 2"],
                "crabs": [1, 2, 3, 4],
            },
            {"type": "give-up", "crabs": [1, 2, 3, 4]},
        ],
    }
    assert {text: crabs_for(state, c(text)) for text in ("green 22", "pink 27", "pink 2")} == {
        "green 22": (1,),
        "pink 27": (4,),
        "pink 2": (2, 3, 4),
    }


def test_a_take_waits_for_the_refill_draw() -> None:
    state = apply(sheet_example(), T("pink 16", 2))
    assert state.step == "refill"
    assert crabs_for(state, c("green 25")) == ()
    assert expected_actions(state).types == frozenset({"draw"})


def test_a_bonus_on_offer_is_expected_with_the_cards_of_its_run() -> None:
    state = bonus_state()
    listed = expected_actions(state)
    assert listed.types == frozenset({"take", "bonus", "give-up"})
    assert listed.accepts("bonus") == Accepts("bonus", cards=("pink 17", "pink 18", "pink 19"))
    assert listed.accepts("give-up") == Accepts("give-up", crabs=(1,))
    assert "bonus" not in expected_actions(apply(state, T("pink 19", 2))).types


def test_a_game_over_expects_nothing() -> None:
    state, _, _ = play_random_game(0)
    assert expected_actions(state) == NOTHING_EXPECTED
    assert GAME.expected(state).to_json() == {"seat": None, "actions": []}


def solo_accepts(state: SoloState, action: SoloAction | Action) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalAction:
        return False
    return True


def solo_listed(listed: Expected, action: SoloAction) -> bool:
    """Whether ``action`` is among the values ``listed`` offers (sizeless draws only when known)."""
    if isinstance(action, Draw):
        draw = listed.accepts("draw")
        return (
            draw is not None
            and draw.cards is not None
            and draw.sizes is not None
            and str(action.card) in draw.cards
            and (action.size is not None or str(action.card) not in draw.sizes)
        )
    if isinstance(action, Take):
        take = listed.accepts("take")
        return (
            take is not None
            and take.cards is not None
            and take.crabs is not None
            and str(action.card) in take.cards
            and action.crab in take.crabs
        )
    if isinstance(action, Bonus):
        bonus = listed.accepts("bonus")
        return bonus is not None and bonus.cards is not None and str(action.card) in bonus.cards
    give_up = listed.accepts("give-up")
    return give_up is not None and give_up.crabs is not None and action.crab in give_up.crabs


def wild_solo_action(state: SoloState, rng: random.Random) -> SoloAction:
    """Any move, legal or not: a card of the row or of the whole deck, any crab."""
    card = rng.choice([*state.row, *state.row, *YADOKARICK.cards()])
    crab = rng.randint(1, 4)
    kind = rng.choice(("draw", "take", "take", "bonus", "give-up"))
    if kind == "draw":
        return Draw(card, rng.choice((None, state.sizes.get(card, 2))))
    if kind == "take":
        return Take(card, crab)
    if kind == "bonus":
        return Bonus(card)
    return GiveUp(crab)


# One move of each type the Yadokarick game object parses, trick games' included.
SOLO_SAMPLES: tuple[tuple[str, SoloAction | Action], ...] = (
    ("draw", Draw(c("green 1"), 1)),
    ("take", Take(c("green 1"), 1)),
    ("bonus", Bonus(c("green 1"))),
    ("give-up", GiveUp(1)),
    ("play", Play(c("green 1"), 1)),
    ("marker", MarkerMove("stay")),
)


def check_solo_expected(state: SoloState, tried: SoloAction, wild: SoloAction) -> None:
    """``expected_actions`` against what ``apply`` does from ``state``."""
    listed = expected_actions(state)
    assert listed == GAME.expected(state)
    assert (listed.actions == ()) == state.finished
    assert listed.seat == (None if state.finished else 0)
    assert solo_accepts(state, tried) and solo_listed(listed, tried)
    # Accepted means listed; the converse is checked value by value below (a take's cards
    # and crabs are listed apart, so not every pair of them is accepted).
    assert not solo_accepts(state, wild) or solo_listed(listed, wild), wild
    for kind, sample in SOLO_SAMPLES:
        if kind not in listed.types:
            with pytest.raises(IllegalAction):
                GAME.apply(state, sample)
    draw = listed.accepts("draw")
    if draw is not None:
        assert draw.cards is not None and draw.sizes is not None
        assert draw.cards == texts([card for card in SOLO_DECK if card not in state.drawn])
        assert set(draw.sizes) <= set(draw.cards)
        # Each listed card, as JSON writes it, with a size where one is asked and without
        # one where the session knows it; an asked size cannot be left out.
        for text in draw.cards:
            sized = {"type": "draw", "card": text, "size": state.sizes.get(c(text), 2)}
            assert solo_accepts(state, GAME.parse_action(sized))
            plain = GAME.parse_action({"type": "draw", "card": text})
            assert solo_accepts(state, plain) == (text not in draw.sizes)
    take = listed.accepts("take")
    takeable = [card for card in state.row if crabs_for(state, card)]
    assert (take is not None) == bool(takeable)
    if take is not None:
        assert take.cards == texts(takeable)
        assert take.crabs == tuple(
            sorted({crab for card in takeable for crab in crabs_for(state, card)})
        )
    for card in state.row:
        fits = crabs_for(state, card)
        assert fits == tuple(
            crab
            for crab in range(1, 5)
            if state.step == "play" and reference_fits(crab, state.crabs[crab - 1], card)
        )
        for crab in range(1, 5):
            move = {"type": "take", "card": str(card), "crab": crab}
            assert solo_accepts(state, GAME.parse_action(move)) == (crab in fits)
    bonus = listed.accepts("bonus")
    assert (bonus is not None) == bool(state.offer)
    if bonus is not None:
        assert bonus.cards == texts(state.offer)
        for text in bonus.cards:
            assert solo_accepts(state, GAME.parse_action({"type": "bonus", "card": text}))
    give_up = listed.accepts("give-up")
    if give_up is not None:
        assert give_up.crabs
        for crab in range(1, 5):
            move = GAME.parse_action({"type": "give-up", "crab": crab})
            assert solo_accepts(state, move) == (crab in give_up.crabs)


def test_random_games_expect_exactly_what_the_engine_accepts() -> None:
    rng = random.Random(7)
    seen: set[str] = set()
    stuck_rows = played_out = 0
    # Seeds 5, 37 and 38 play on after the decks run out.
    for seed in (5, 12, 37, 38):

        def check(state: SoloState, action: SoloAction) -> None:
            nonlocal stuck_rows, played_out
            check_solo_expected(state, action, wild_solo_action(state, rng))
            listed = expected_actions(state)
            seen.update(listed.types)
            stuck_rows += state.step == "play" and "take" not in listed.types
            played_out += state.step == "play" and not any(deck_left(state).values())

        state, _, _ = play_random_game(seed, check)
        assert expected_actions(state) == NOTHING_EXPECTED
    assert seen == {"draw", "take", "bonus", "give-up"}
    # The games met rows no crab could take from, and endgames with both decks empty.
    assert stuck_rows and played_out
