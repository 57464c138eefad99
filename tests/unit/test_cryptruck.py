"""Cryptruck engine: the dealer's card and bids, tricks, blocks, revokes, three rounds, replay."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from scorekeeper.games.base import NOTHING_EXPECTED, Accepts, Expected, IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.cryptruck.cards import CRYPTRUCK
from scorekeeper.games.cryptruck.rules import (
    COLOURS,
    GAME,
    ROUNDS,
    Action,
    Bid,
    DealerCard,
    Give,
    Play,
    ResolveRevoke,
    Reveal,
    RevokeFlag,
    State,
    WonCards,
    bidder,
    block_cards,
    can_enter_won,
    dealer_of,
    deck_cards,
    expected_actions,
    next_step,
    open_flags,
    played_cards,
    score_blocks,
    turn_seat,
)

THREE = ("Ann", "Bo", "Cy")
FOUR = ("Ann", "Bo", "Cy", "Di")
FIVE = ("Ann", "Bo", "Cy", "Di", "Ed")
WHITE_THREE = Card("white", 3)


def shown(text: str) -> str:
    """A ruling as the engine writes it: multiplication and minus signs, not x and -."""
    return text.replace(" x ", " \u00d7 ").replace("penalty -", "penalty \u2212")


def c(text: str) -> Card:
    return CRYPTRUCK.parse(text, "card")


def cards(*texts: str) -> tuple[Card, ...]:
    return tuple(c(text) for text in texts)


def new_game(players: Sequence[str] = THREE, **options: object) -> State:
    state: State = GAME.start(players, options)  # type: ignore[arg-type]
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


def won(*seats: Sequence[str]) -> WonCards:
    return WonCards(tuple(cards(*seat) for seat in seats))


def nobody_wants(revealed: str = "green 2", dealer_card: str = "red 5") -> State:
    """Three players, Ann deals; nobody wants her card, so she leads it and Bo plays next."""
    state = act(new_game(), Reveal(c(revealed)), DealerCard(c(dealer_card)))
    return act(state, Bid(False), Bid(False))


def fast_round(state: State, *seats: Sequence[str], revealed: str = "green 2") -> State:
    return act(state, Reveal(c(revealed)), won(*seats))


# --- Scoring the blocks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("won_cards", "points", "breakdown"),
    [
        ((), 5, "no blocks: 5"),
        (("red 1", "red 2", "red 6", "green 6"), 5, "no blocks: 5"),
        (("red 4",), 1, "1 block (red 4) in 1 colour: 1 x 1 = 1"),
        (("white 3",), 1, "1 block (white 3) in 1 colour: 1 x 1 = 1"),
        (("red 3", "red 5", "red 1"), 2, "2 blocks (red 3, red 5) in 1 colour: 2 x 1 = 2"),
        (("white 3", "red 3"), 4, "2 blocks (red 3, white 3) in 2 colours: 2 x 2 = 4"),
        (("white 3", "white 3"), 2, "2 blocks (white 3, white 3) in 1 colour: 2 x 1 = 2"),
        (
            ("red 3", "red 4", "blue 5"),
            6,
            "3 blocks (red 3, red 4, blue 5) in 2 colours: 3 x 2 = 6",
        ),
        (
            ("white 3", "yellow 4", "purple 5", "purple 6"),
            9,
            "3 blocks (yellow 4, purple 5, white 3) in 3 colours: 3 x 3 = 9",
        ),
        (("red 3", "yellow 4", "green 5", "white 3"), 4, "4 blocks: 4"),
        (("red 3", "red 4", "red 5", "blue 3", "blue 4", "white 3", "red 6"), 6, "6 blocks: 6"),
    ],
)
def test_blocks_score_five_for_none_blocks_times_colours_up_to_three_else_their_count(
    won_cards: tuple[str, ...], points: int, breakdown: str
) -> None:
    assert score_blocks(cards(*won_cards)) == (points, shown(breakdown))


def test_three_blocks_in_three_colours_beat_four_blocks() -> None:
    assert score_blocks(cards("red 3", "blue 4", "white 3"))[0] == 9
    assert score_blocks(cards("red 3", "blue 4", "white 3", "green 5"))[0] == 4


# --- Setup and options ---------------------------------------------------------------------


def test_the_game_is_for_three_to_five_players() -> None:
    assert (GAME.slug, GAME.title, GAME.min_players, GAME.max_players) == (
        "cryptruck",
        "Cryptruck",
        3,
        5,
    )
    for players in (("Ann", "Bo"), (*FIVE, "Flo")):
        with pytest.raises(IllegalAction) as caught:
            GAME.start(players, {})
        assert caught.value.field == "players"


def test_a_new_game_asks_the_first_dealer_for_the_revealed_card() -> None:
    state = new_game()
    assert GAME.ruling(state) == "Round 1: Ann deals. Turn up one of the two undealt cards."
    assert next_step(state) == "reveal"
    assert (state.round.number, state.round.dealer, state.first_dealer) == (1, 0, 0)
    assert state.totals == (0, 0, 0)
    assert turn_seat(state) is None and bidder(state) is None
    assert not GAME.is_finished(state) and GAME.winners(state) == []


@pytest.mark.parametrize(
    ("players", "colours"),
    [
        (THREE, ("red", "yellow", "green")),
        (FOUR, ("red", "yellow", "green", "blue")),
        (FIVE, ("red", "yellow", "green", "blue", "purple")),
    ],
)
def test_no_colours_ticked_means_the_first_ones_in_order(
    players: tuple[str, ...], colours: tuple[str, ...]
) -> None:
    state = new_game(players)
    assert state.colours == colours
    assert new_game(players, colours="").colours == colours
    assert len(deck_cards(state)) == 6 * len(players) + 1  # the white 3 listed once
    assert deck_cards(state)[-1] == WHITE_THREE


def test_ticked_colours_are_kept_in_the_options_order() -> None:
    state = new_game(colours="purple,red,blue")
    assert state.colours == ("red", "blue", "purple")
    assert new_game(colours=["blue", "green", "yellow"]).colours == ("yellow", "green", "blue")
    assert block_cards(state) == (
        *cards("red 3", "red 4", "red 5", "blue 3", "blue 4", "blue 5"),
        *cards("purple 3", "purple 4", "purple 5", "white 3"),
    )


def test_the_colour_count_must_match_the_players() -> None:
    with pytest.raises(IllegalAction) as caught:
        new_game(FOUR, colours="red,blue,green")
    assert caught.value.field == "options.colours"
    assert caught.value.message == "A 4-player game uses 4 colours; you ticked 3."


def test_an_unknown_colour_is_refused() -> None:
    with pytest.raises(IllegalAction) as caught:
        new_game(colours="red,gold,blue")
    assert caught.value.field == "options.colours"
    assert "'gold'" in caught.value.message


def test_the_colours_option_is_a_multi_choice_of_the_five_colours() -> None:
    specs = {spec.name: spec for spec in GAME.options}
    colours = specs["colours"]
    assert (colours.kind, colours.default, colours.label) == ("multi", (), "Colours in use")
    assert [value for value, _ in colours.choices] == ["red", "yellow", "green", "blue", "purple"]
    dealer = specs["first_dealer"]
    assert (dealer.kind, dealer.default, dealer.maximum) == ("seat", 0, 4)


def test_the_first_dealer_is_a_seat_of_this_table_counted_from_0() -> None:
    state = new_game(first_dealer=2)
    assert (state.first_dealer, state.round.dealer) == (2, 2)
    assert GAME.ruling(state).startswith("Round 1: Cy deals.")
    with pytest.raises(IllegalAction) as caught:
        new_game(first_dealer=3)
    assert caught.value.field == "options.first_dealer"
    assert "a seat from 0 to 2 in a 3-player game" in caught.value.message
    with pytest.raises(IllegalAction) as caught:
        new_game(first_dealer=-1)
    assert caught.value.field == "options.first_dealer"
    assert new_game(FIVE, first_dealer="4").round.dealer == 4


def test_the_deal_passes_clockwise_over_three_rounds() -> None:
    state = new_game(first_dealer=2)
    dealers = []
    for number in (1, 2, 3):
        assert state.round.number == number
        assert state.round.dealer == dealer_of(state, number)
        dealers.append(state.round.dealer)
        state = fast_round(state, [], [], [])
    assert dealers == [2, 0, 1]
    assert dealer_of(new_game(FOUR, first_dealer=3), 3) == 1


# --- The revealed card and trump -------------------------------------------------------------


def test_the_revealed_colour_is_trump_with_white() -> None:
    state = act(new_game(first_dealer=2), Reveal(c("green 2")))
    assert (state.round.trump, state.round.revealed) == ("green", c("green 2"))
    assert state.last_ruling == (
        "Round 1: Cy deals; the revealed card green 2 makes green trump, with white. "
        "Cy reveals a card from hand."
    )
    assert next_step(state) == "dealer-card" and can_enter_won(state)


def test_a_revealed_white_card_makes_white_the_only_trump() -> None:
    state = act(new_game(), Reveal(WHITE_THREE))
    assert state.round.trump == "white"
    assert "the revealed card white 3 makes white the only trump." in state.last_ruling
    # green is not trump now: the led red wins against a green 6.
    state = act(state, DealerCard(c("red 2")), Bid(False), Bid(False))
    state = plays(state, "green 6", "red 3")
    trick = state.round.tricks[0]
    assert (trick.winner, trick.rule) == (2, "lead-suit")
    # The other white 3 is still in play, and it is trump.
    state = plays(state, "yellow 1", "red 1", "white 3")  # Cy leads, Ann, Bo
    assert (state.round.tricks[1].winner, state.round.tricks[1].rule) == (1, "trump")


def test_the_revealed_card_is_out_of_play() -> None:
    state = nobody_wants("green 2")
    error = refused(state, Play(c("green 2")))
    assert error.message == "green 2 is the revealed card: it is out of play this round."
    assert error.field == "card"
    assert c("green 2") in played_cards(state)


def test_the_dealer_card_cannot_be_the_revealed_card() -> None:
    state = act(new_game(), Reveal(c("green 2")))
    assert "revealed card" in refused(state, DealerCard(c("green 2"))).message


# --- Want or pass ----------------------------------------------------------------------------


def test_when_nobody_wants_the_dealers_card_the_dealer_leads_it() -> None:
    state = act(new_game(FOUR), Reveal(c("green 2")), DealerCard(c("red 5")))
    assert state.last_ruling == "Ann reveals red 5. Bo: want red 5 or pass?"
    seen = []
    for _ in range(3):
        assert next_step(state) == "bid"
        seen.append(bidder(state))
        state = act(state, Bid(False))
    assert seen == [1, 2, 3]
    assert state.round.bids == (False, False, False)
    assert state.round.taker is None
    assert state.last_ruling == (
        "Di passes. Nobody wants red 5: Ann (the dealer) leads it. Bo plays next."
    )
    assert (state.round.leader, state.round.current, turn_seat(state)) == (0, cards("red 5"), 1)
    assert next_step(state) == "play"
    assert "Nobody wanted red 5" in refused(state, Give(None)).message


def test_one_seat_wanting_takes_the_card_and_leads_it() -> None:
    state = act(new_game(FOUR), Reveal(c("green 2")), DealerCard(c("red 5")))
    state = act(state, Bid(True))
    assert state.last_ruling == "Bo wants it. Cy: want red 5 or pass?"
    state = act(state, Bid(False), Bid(False))
    assert (state.round.taker, next_step(state)) == (1, "give")
    assert state.last_ruling == "Di passes. Bo takes red 5 and gives Ann a card."
    state = act(state, Give(None))
    assert state.last_ruling == "Bo takes red 5, gives Ann a card and leads red 5. Cy plays next."
    assert (state.round.given, state.round.leader, turn_seat(state)) == (None, 1, 2)
    assert state.round.current == cards("red 5")


def test_with_several_wanting_the_last_one_takes_it_and_may_record_the_card_given() -> None:
    state = act(new_game(FOUR), Reveal(c("green 2")), DealerCard(c("red 5")))
    state = act(state, Bid(True), Bid(False), Bid(True))
    assert state.round.bids == (True, False, True)
    assert state.round.taker == 3
    state = act(state, Give(c("green 1")))
    assert state.last_ruling == (
        "Di takes red 5, gives Ann green 1 and leads red 5. Ann plays next."
    )
    assert (state.round.given, state.round.leader, turn_seat(state)) == (c("green 1"), 3, 0)
    # The dealer may play the card given (a trump); the trick goes on clockwise from the taker.
    state = plays(state, "green 1", "red 1", "red 2")
    trick = state.round.tricks[0]
    assert (trick.leader, trick.winner, trick.rule) == (3, 0, "trump")
    assert trick.cards == cards("red 5", "green 1", "red 1", "red 2")


def test_bidding_starts_at_the_dealers_left() -> None:
    state = act(new_game(FOUR, first_dealer=2), Reveal(c("green 2")), DealerCard(c("red 5")))
    seen = []
    while next_step(state) == "bid":
        seen.append(bidder(state))
        state = act(state, Bid(seen[-1] == 0))
    assert seen == [3, 0, 1]
    assert state.round.taker == 0


def test_the_card_given_cannot_be_the_revealed_or_the_dealers_card() -> None:
    state = act(new_game(), Reveal(c("green 2")), DealerCard(c("red 5")), Bid(True), Bid(False))
    assert "revealed card" in refused(state, Give(c("green 2"))).message
    error = refused(state, Give(c("red 5")))
    assert error.message == "red 5 is the dealer's card: it leads trick 1; give another card."
    assert "purple is not in this game's colours" in refused(state, Give(c("purple 1"))).message


def test_the_bids_and_the_give_come_in_their_turn() -> None:
    state = act(new_game(), Reveal(c("green 2")))
    assert refused(state, Bid(True)).message == "Ann (the dealer) reveals a card from hand first."
    state = act(state, DealerCard(c("red 5")))
    error = refused(state, Give(None))
    assert error.message == "The bidding is not over: Bo says want or pass first."
    assert refused(state, Play(c("red 1"))).field == "card"
    state = act(state, Bid(True), Bid(False))
    assert "Bo takes red 5 and gives Ann a card first." in refused(state, Play(c("red 1"))).message
    assert refused(state, Bid(True)).message.startswith("The bidding is over.")
    assert "already revealed red 5" in refused(state, DealerCard(c("red 6"))).message


# --- Tricks ------------------------------------------------------------------------------------

# Ann deals (green 2 revealed, yellow 1 undealt); nobody wants her red 5.
# Ann: red 5, red 6, yellow 2, green 6, white 3, yellow 6
# Bo:  red 1, red 2, yellow 3, yellow 4, green 1, green 3
# Cy:  red 3, red 4, yellow 5, white 3, green 4, green 5
ROUND = (
    ("red 5", "red 1", "red 3"),  # Ann leads; Ann takes it
    ("red 6", "red 2", "red 4"),  # Ann
    ("yellow 2", "yellow 3", "yellow 5"),  # Cy
    ("green 4", "green 6", "green 1"),  # Cy leads trump; Ann
    ("white 3", "yellow 4", "white 3"),  # white led; Bo has none; the later white 3 wins: Cy
    ("green 5", "yellow 6", "green 3"),  # Cy
)
ROUND_WON = (
    cards("red 5", "red 1", "red 3", "red 6", "red 2", "red 4", "green 4", "green 6", "green 1"),
    (),
    cards("yellow 2", "yellow 3", "yellow 5", "white 3", "yellow 4", "white 3")
    + cards("green 5", "yellow 6", "green 3"),
)


def test_a_trick_follows_the_lead_and_the_winner_leads_next() -> None:
    state = nobody_wants()
    state = plays(state, "red 1")
    assert state.last_ruling == "Bo plays red 1. Cy plays next."
    state = plays(state, "red 3")
    trick = state.round.tricks[0]
    assert (trick.number, trick.leader, trick.cards) == (1, 0, cards("red 5", "red 1", "red 3"))
    assert (trick.winner, trick.rule) == (0, "lead-suit")
    assert state.last_ruling == (
        "Trick 1: Ann takes it with red 5. No trump was played, so the highest card of the "
        "led colour (red) wins: red 5 (Ann). Ann has 2 blocks this round. Ann leads trick 2."
    )
    assert state.round.won == (cards("red 5", "red 1", "red 3"), (), ())
    assert turn_seat(state) == 0


def test_a_whole_round_trick_by_trick_scores_each_seats_blocks() -> None:
    state = nobody_wants()
    state = plays(state, *ROUND[0][1:])
    for trick in ROUND[1:-1]:
        state = plays(state, *trick)
    assert [trick.winner for trick in state.round.tricks] == [0, 0, 2, 0, 2]
    assert state.round.voids == frozenset({(1, "white")})
    state = plays(state, *ROUND[-1])
    record = state.rounds[0]
    assert (record.number, record.dealer, record.trump, record.fast) == (1, 0, "green", False)
    assert record.won == ROUND_WON
    assert record.scores == (4, 5, 7)
    assert record.breakdown == ("4 blocks: 4", "no blocks: 5", "7 blocks: 7")
    assert record.penalties == (0, 0, 0)
    assert state.totals == (4, 5, 7)
    assert state.last_ruling.endswith(
        "Round 1 scores: Ann 4 (4 blocks: 4), Bo 5 (no blocks: 5), Cy 7 (7 blocks: 7). "
        "Totals: Ann 4, Bo 5, Cy 7. Round 2: Bo deals. Turn up one of the two undealt cards."
    )
    assert (state.round.number, state.round.dealer, next_step(state)) == (2, 1, "reveal")
    assert played_cards(state) == frozenset()
    assert not state.flags
    rows = GAME.score_rows(state)
    assert [(row.round, row.name, row.points, row.total, row.note) for row in rows] == [
        (1, "Ann", 4, 4, "4 blocks: 4"),
        (1, "Bo", 5, 5, "no blocks: 5"),
        (1, "Cy", 7, 7, "7 blocks: 7"),
    ]


def test_white_led_must_be_followed_with_white_and_equal_trumps_go_to_the_later_card() -> None:
    state = nobody_wants()
    for trick in (ROUND[0][1:], *ROUND[1:4]):
        state = plays(state, *trick)
    state = plays(state, "white 3", "yellow 4")
    assert state.last_ruling == "Bo plays yellow 4 and shows no white. Cy plays next."
    assert (1, "white") in state.round.voids
    state = plays(state, "white 3")
    trick = state.round.tricks[-1]
    assert (trick.winner, trick.rule) == (2, "trump")
    assert "white 3 (Ann) and white 3 (Cy) tie at 3: the later card wins." in trick.explanation


def test_a_trump_colour_card_and_a_white_3_tie_and_the_later_wins() -> None:
    state = plays(nobody_wants(), "white 3", "green 3")
    assert state.round.tricks[0].winner == 2
    assert "tie at 3" in state.round.tricks[0].explanation
    other_order = plays(nobody_wants(), "green 3", "white 3")
    assert other_order.round.tricks[0].winner == 2
    higher = plays(nobody_wants(), "green 4", "white 3")
    assert higher.round.tricks[0].winner == 1


def test_the_white_3_is_out_only_when_both_are() -> None:
    state = plays(nobody_wants(), "white 3")
    assert WHITE_THREE not in played_cards(state)
    state = plays(state, "white 3")
    assert WHITE_THREE in played_cards(state)
    error = refused(plays(state, "yellow 2"), Play(WHITE_THREE))
    assert error.message == (
        "Both white 3s are out this round: one was played in trick 1 (by Bo) "
        "and one was played in trick 1 (by Cy)."
    )
    revealed = act(new_game(), Reveal(WHITE_THREE), DealerCard(WHITE_THREE))
    assert "one is the revealed card and one is the dealer's card" in (
        refused(act(revealed, Bid(True), Bid(False)), Give(WHITE_THREE)).message
    )


# --- Refusals ------------------------------------------------------------------------------------


def test_a_card_cannot_be_played_twice_in_a_round() -> None:
    state = plays(nobody_wants(), "red 1", "red 3")
    error = refused(state, Play(c("red 1")))
    assert error.message == "red 1 was played in trick 1 (by Bo); each card is played once a round."
    assert error.field == "card"
    assert "red 5 was played in trick 1 (by Ann)" in refused(state, Play(c("red 5"))).message


def test_a_card_outside_the_games_colours_is_refused() -> None:
    state = nobody_wants()
    error = refused(state, Play(c("purple 4")))
    assert error.message == "purple 4: purple is not in this game's colours (red, yellow, green)."
    assert error.field == "card"
    assert refused(new_game(), Reveal(c("blue 1"))).field == "card"
    assert refused(state, Play(Card("red", 9))).field == "card"
    assert refused(state, Play(Card("white", 4))).field == "card"


def test_actions_out_of_turn_say_what_comes_first() -> None:
    state = new_game()
    assert refused(state, Play(c("red 1"))).message == "Turn up the revealed card of round 1 first."
    assert refused(state, DealerCard(c("red 1"))).field == "card"
    assert refused(state, won([], [], [])).field == "type"
    state = act(state, Reveal(c("green 2")))
    assert refused(state, Reveal(c("red 2"))).message.startswith(
        "Round 1 already has its revealed card (green 2)."
    )
    after = fast_round(new_game(), [], [], [])
    assert refused(after, Play(c("red 1"))).message == (
        "Turn up the revealed card of round 2 first: round 1 is over."
    )


# --- Revokes --------------------------------------------------------------------------------------

# The same deal as ROUND; Bo keeps back red in trick 1 (plays yellow 3) and plays red in trick 2.
REVOKE_ROUND = (
    ("red 5", "yellow 3", "red 3"),  # Ann takes it; Bo shows no red
    ("red 6", "red 1", "red 4"),  # Bo plays red: revoke flag 0
    ("yellow 2", "yellow 4", "yellow 5"),  # Cy
    ("green 4", "green 6", "green 1"),  # Ann
    ("white 3", "red 2", "white 3"),  # Cy
    ("green 5", "yellow 6", "green 3"),  # Cy
)


def revoke_state(tricks: int = 2) -> State:
    state = plays(nobody_wants(), *REVOKE_ROUND[0][1:])
    for trick in REVOKE_ROUND[1:tricks]:
        state = plays(state, *trick)
    return state


def test_playing_a_colour_shown_void_raises_an_open_revoke_flag() -> None:
    state = plays(revoke_state(1), "red 6", "red 1")
    assert state.last_ruling == (
        "Revoke? Bo did not follow red in trick 1 but now plays red 1. The play counts; "
        "revoke flag 0 is open for the table to accept (with a penalty) or dismiss. Cy plays next."
    )
    state = plays(state, "red 4")
    assert state.flags == (RevokeFlag(1, 1, "red", 1, 2, c("red 1"), "open", 0),)
    assert open_flags(state) == [(0, state.flags[0])]
    assert state.round.won[0] == cards("red 5", "yellow 3", "red 3", "red 6", "red 1", "red 4")


def test_an_accepted_revoke_takes_the_penalty_off_the_revokers_total() -> None:
    state = act(revoke_state(), ResolveRevoke(0, True, 2))
    assert state.totals == (0, -2, 0)
    assert (state.flags[0].status, state.flags[0].penalty, state.flags[0].settled_in) == (
        "accepted",
        2,
        1,
    )
    assert state.last_ruling == (
        "Revoke by Bo (red, round 1, trick 2) accepted: Bo loses 2 points in round 1. "
        "Totals: Ann 0, Bo -2, Cy 0. Ann leads trick 3."
    )
    assert open_flags(state) == []
    for trick in REVOKE_ROUND[2:]:
        state = plays(state, *trick)
    record = state.rounds[0]
    assert (record.scores, record.penalties) == ((5, 5, 6), (0, 2, 0))
    assert state.totals == (5, 3, 6)
    assert shown("Bo 3 (no blocks: 5; revoke penalty -2)") in state.last_ruling
    bo = [row for row in GAME.score_rows(state) if row.seat == 1]
    assert [(row.points, row.total, row.note) for row in bo] == [
        (3, 3, shown("no blocks: 5; revoke penalty -2"))
    ]


def test_a_revoke_settled_after_its_round_counts_in_that_round() -> None:
    state = revoke_state(len(REVOKE_ROUND))
    assert state.round.number == 2 and state.totals == (5, 5, 6)
    state = act(state, Reveal(c("yellow 2")), ResolveRevoke(0, True, 4))
    assert state.rounds[0].penalties == (0, 4, 0)
    assert state.totals == (5, 1, 6)
    assert state.flags[0].settled_in == 1
    assert state.last_ruling.endswith("Totals: Ann 5, Bo 1, Cy 6. Bo reveals a card from hand.")


def test_a_dismissed_revoke_costs_nothing_and_cannot_carry_a_penalty() -> None:
    state = revoke_state()
    assert refused(state, ResolveRevoke(0, False, 1)).field == "penalty"
    state = act(state, ResolveRevoke(0, False))
    assert (state.flags[0].status, state.totals) == ("dismissed", (0, 0, 0))
    assert state.last_ruling == (
        "Revoke by Bo (red, round 1, trick 2) dismissed: no penalty. Ann leads trick 3."
    )
    again = refused(state, ResolveRevoke(0, True, 1))
    assert (again.field, "already dismissed" in again.message) == ("flag", True)


def test_a_revoke_penalty_is_at_most_ten() -> None:
    assert refused(revoke_state(), ResolveRevoke(0, True, 11)).field == "penalty"
    assert act(revoke_state(), ResolveRevoke(0, True, 10)).totals == (0, -10, 0)
    assert refused(new_game(), ResolveRevoke(0, False)).field == "flag"


def test_a_revoke_on_white_is_flagged_too() -> None:
    # Bo holds a white 3 but plays yellow 4 to Ann's white lead, then plays the white 3.
    state = plays(nobody_wants(), "red 1", "red 3")  # Ann takes trick 1
    state = plays(state, "white 3", "yellow 4", "yellow 5")  # Ann takes it; Bo shows no white
    state = plays(state, "red 6", "white 3")
    assert [(flag.seat, flag.colour, flag.failed_trick, flag.trick) for flag in state.flags] == [
        (1, "white", 2, 3)
    ]


# --- The fast path ------------------------------------------------------------------------------


def test_the_cards_won_score_the_round_at_once() -> None:
    state = act(new_game(), Reveal(c("green 2")))
    state = act(state, won(["red 3", "white 3", "red 1"], [], ["yellow 4", "yellow 5"]))
    record = state.rounds[0]
    assert record.fast
    assert record.won == (cards("red 3", "white 3", "red 1"), (), cards("yellow 4", "yellow 5"))
    assert record.scores == (4, 5, 2)
    assert record.breakdown[0] == shown("2 blocks (red 3, white 3) in 2 colours: 2 x 2 = 4")
    assert state.totals == (4, 5, 2)
    assert state.last_ruling.startswith(
        shown(
            "Round 1 scores (entered as the cards won): Ann 4 (2 blocks (red 3, white 3) in "
            "2 colours: 2 x 2 = 4), Bo 5 (no blocks: 5), Cy 2"
        )
    )
    assert state.round.number == 2


def test_both_white_3s_may_be_won_unless_one_is_revealed() -> None:
    state = act(new_game(), Reveal(c("green 2")), won(["white 3", "white 3"], [], []))
    assert state.rounds[0].scores == (2, 5, 5)
    revealed = act(new_game(), Reveal(WHITE_THREE))
    error = refused(revealed, won(["white 3"], ["white 3"], []))
    assert error.field == "cards"
    assert "one white 3 is the revealed card" in error.message
    assert act(revealed, won(["white 3"], [], [])).rounds[0].scores == (1, 5, 5)


ALL_BUT_GREEN_2 = [
    text
    for text in (
        *(f"{colour} {number}" for colour in ("red", "yellow", "green") for number in range(1, 7)),
        "white 3",
        "white 3",
    )
    if text != "green 2"
]


@pytest.mark.parametrize(
    ("action", "words"),
    [
        (won([], []), "each of the 3 players"),
        (won(["red 3"], ["red 3"], []), "red 3 is listed twice; there is only one."),
        (won(["white 3", "white 3"], ["white 3"], []), "listed 3 times; there are only two"),
        (won(["green 2"], [], []), "green 2 is the revealed card"),
        (won(["blue 3"], [], []), "blue is not in this game's colours"),
        (won(ALL_BUT_GREEN_2, [], []), "At most 18 cards are won in a 3-player round"),
    ],
)
def test_the_cards_won_must_be_possible(action: WonCards, words: str) -> None:
    state = act(new_game(), Reveal(c("green 2")))
    error = refused(state, action)
    assert error.field == "cards"
    assert words in error.message, error.message


def test_the_cards_won_come_right_after_the_revealed_card() -> None:
    state = act(new_game(), Reveal(c("green 2")), DealerCard(c("red 5")))
    assert not can_enter_won(state)
    error = refused(state, won([], [], []))
    assert (error.field, "right after the revealed card" in error.message) == ("type", True)
    assert refused(new_game(), won([], [], [])).field == "type"


# --- The end of the game -------------------------------------------------------------------------


def test_after_three_rounds_the_top_total_wins_and_a_tie_shares() -> None:
    state = new_game()
    for _ in range(3):
        state = fast_round(state, [], [], ["red 3"])
    assert state.totals == (15, 15, 3)
    assert GAME.is_finished(state) and next_step(state) == "over"
    assert GAME.winners(state) == [0, 1]
    assert state.last_ruling.endswith("Game over: Ann and Bo share the win with 15 points.")
    standings = GAME.standings(state)
    assert [(s.name, s.score, s.rank) for s in standings] == [
        ("Ann", 15, 1),
        ("Bo", 15, 1),
        ("Cy", 3, 3),
    ]
    assert state.round.number == 3  # the last round stays in view
    for action in (Reveal(c("red 1")), Play(c("red 1")), Bid(True), won([], [], [])):
        assert refused(state, action).message == "The game is over."
    rows = GAME.score_rows(state)
    assert len(rows) == 9
    assert [(row.round, row.total) for row in rows if row.seat == 2] == [(1, 1), (2, 2), (3, 3)]


def test_a_single_top_total_wins_alone() -> None:
    state = new_game()
    for _ in range(3):
        state = fast_round(state, ["red 3"], [], ["red 4", "white 3"])
    assert GAME.winners(state) == [1]
    assert state.last_ruling.endswith("Game over: Bo wins with 15 points.")


def game_over_with_an_open_revoke() -> State:
    """Three players; in round 3 Ann revokes in trick 2, and the flag is still open at the end."""
    state = fast_round(fast_round(new_game(), [], [], []), [], [], [])
    assert state.round.dealer == 2
    state = act(state, Reveal(c("green 2")), DealerCard(c("red 5")), Bid(False), Bid(False))
    # Cy deals round 3 and leads red 5; Ann shows no red in trick 1, then plays red 4.
    for trick in (
        ("yellow 3", "red 1"),  # Cy takes it
        ("red 6", "red 4", "red 2"),  # Ann plays red: flag; Cy
        ("red 3", "yellow 4", "yellow 2"),  # Cy
        ("green 6", "green 1", "green 3"),  # Cy
        ("white 3", "yellow 5", "white 3"),  # Bo, with the later white 3
        ("green 5", "yellow 6", "green 4"),  # Bo leads; Bo
    ):
        state = plays(state, *trick)
    return state


def test_a_revoke_in_the_last_round_can_be_settled_after_the_game() -> None:
    state = game_over_with_an_open_revoke()
    assert state.finished and len(state.rounds) == 3
    assert state.rounds[2].scores == (5, 5, 6)
    assert state.totals == (15, 15, 16)
    assert [(flag.seat, flag.round, flag.trick) for flag in state.flags] == [(0, 3, 2)]
    assert state.last_ruling.endswith("Game over: Cy wins with 16 points.")
    state = act(state, ResolveRevoke(0, True, 10))
    assert (state.rounds[2].penalties, state.totals) == ((10, 0, 0), (5, 15, 16))
    assert state.last_ruling == (
        "Revoke by Ann (red, round 3, trick 2) accepted: Ann loses 10 points in round 3. "
        "Totals: Ann 5, Bo 15, Cy 16. Game over: Cy wins with 16 points."
    )
    assert [row.points for row in GAME.score_rows(state) if row.seat == 0] == [5, 5, -5]


# --- JSON ----------------------------------------------------------------------------------------

ACTIONS: list[Action] = [
    Reveal(c("blue 2")),
    Reveal(WHITE_THREE),
    DealerCard(c("red 5")),
    Bid(True),
    Bid(False),
    Give(c("green 1")),
    Give(None),
    Play(c("red 4")),
    WonCards((cards("red 3", "white 3"), (), cards("blue 4"))),
    ResolveRevoke(0, True, 2),
    ResolveRevoke(1, False),
]


@pytest.mark.parametrize("action", ACTIONS)
def test_actions_survive_a_json_round_trip(action: Action) -> None:
    data = GAME.action_to_json(action)
    assert GAME.parse_action(data) == action
    assert GAME.action_to_json(GAME.parse_action(data)) == data


def test_action_json_has_the_documented_shapes() -> None:
    assert [GAME.action_to_json(action) for action in ACTIONS] == [
        {"type": "reveal", "card": "blue 2"},
        {"type": "reveal", "card": "white 3"},
        {"type": "dealer-card", "card": "red 5"},
        {"type": "bid", "want": True},
        {"type": "bid", "want": False},
        {"type": "give", "card": "green 1"},
        {"type": "give"},
        {"type": "play", "card": "red 4"},
        {"type": "won", "cards": [["red 3", "white 3"], [], ["blue 4"]]},
        {"type": "revoke", "flag": 0, "accept": True, "penalty": 2},
        {"type": "revoke", "flag": 1, "accept": False, "penalty": 0},
    ]
    assert GAME.parse_action({"type": "give", "card": ""}) == Give(None)
    assert GAME.parse_action({"type": "play", "card": " Red  4 "}) == Play(c("red 4"))


def test_describe_is_short_and_names_no_one() -> None:
    assert [GAME.describe(action) for action in ACTIONS] == [
        "revealed card blue 2",
        "revealed card white 3",
        "dealer's card red 5",
        "want",
        "pass",
        "give green 1",
        "give a card",
        "play red 4",
        "cards won: 3 cards",
        "revoke flag 0 accepted, 2 points",
        "revoke flag 1 dismissed",
    ]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({}, "type"),
        ({"type": "deal"}, "type"),
        ({"type": "reveal"}, "card"),
        ({"type": "reveal", "card": "gold 3"}, "card"),
        ({"type": "dealer-card", "card": 5}, "card"),
        ({"type": "bid"}, "want"),
        ({"type": "bid", "want": "yes"}, "want"),
        ({"type": "bid", "want": True, "seat": 1}, "seat"),
        ({"type": "give", "card": "white 4"}, "card"),
        ({"type": "play"}, "card"),
        ({"type": "play", "card": "red 7"}, "card"),
        ({"type": "won"}, "cards"),
        ({"type": "won", "cards": "red 3"}, "cards"),
        ({"type": "won", "cards": ["red 3"]}, "cards"),
        ({"type": "won", "cards": [["red 9"]]}, "cards"),
        ({"type": "revoke", "flag": 0}, "accept"),
        ({"type": "revoke", "flag": 0, "accept": True, "penalty": 11}, "penalty"),
    ],
)
def test_bad_action_shapes_are_refused_naming_the_field(
    data: dict[str, object], field: str
) -> None:
    with pytest.raises(IllegalAction) as caught:
        GAME.parse_action(data)
    assert caught.value.field == field


# --- Seeded random games -------------------------------------------------------------------------


def legal(hand: Sequence[Card], led: str | None) -> list[Card]:
    following = [card for card in hand if card.colour == led]
    return following or list(hand)


# Called with each state a random game reaches and the action about to be applied to it.
Visit = Callable[[State, Action], None]


def ignore(state: State, action: Action) -> None:
    """A visit that checks nothing: the random games that only test the rules."""


def deal(state: State, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """A shuffled deal of the game's deck: 6 cards a seat, and the 2 undealt cards."""
    seats = len(state.players)
    deck = [*deck_cards(state), WHITE_THREE]
    assert len(deck) == 6 * seats + 2
    rng.shuffle(deck)
    hands = [deck[seat * 6 : (seat + 1) * 6] for seat in range(seats)]
    return hands, deck[6 * seats :]


def play_random_round(
    state: State, rng: random.Random, visit: Visit = ignore, stray: float = 0.0
) -> State:
    """Deal 6 each and 2 undealt, reveal one, bid, give, and play legal cards to the round's end.

    With chance ``stray`` a seat plays any card in hand instead of following (a revoke, maybe).
    """

    def apply(state: State, action: Action) -> State:
        visit(state, action)
        return act(state, action)

    seats = len(state.players)
    number = state.round.number
    hands, undealt = deal(state, rng)
    dealt = Counter(card for hand in hands for card in hand)
    state = apply(state, Reveal(undealt[0]))
    dealer = state.round.dealer
    dealer_card = rng.choice(hands[dealer])
    hands[dealer].remove(dealer_card)
    state = apply(state, DealerCard(dealer_card))
    while next_step(state) == "bid":
        state = apply(state, Bid(rng.random() < 0.3))
    if next_step(state) == "give":
        taker = state.round.taker
        assert taker is not None and taker != dealer
        assert state.round.bids[(taker - dealer - 1) % seats]
        assert not any(state.round.bids[(taker - dealer) % seats :])
        given = rng.choice(hands[taker])
        hands[taker].remove(given)
        hands[dealer].append(given)
        state = apply(state, Give(given if rng.random() < 0.5 else None))
    assert state.round.current == (dealer_card,)
    last = state
    while len(state.rounds) < number:
        seat = turn_seat(state)
        assert seat is not None
        led = state.round.current[0].colour if state.round.current else None
        card = rng.choice(hands[seat] if rng.random() < stray else legal(hands[seat], led))
        hands[seat].remove(card)
        last, state = state, apply(state, Play(card))
    # The round ended with the last play of its 6th trick.
    rnd = last.round
    assert len(rnd.tricks) == 5 and len(rnd.current) == seats - 1
    played = [card for trick in rnd.tricks for card in trick.cards] + [*rnd.current, card]
    assert len(played) == 6 * seats
    counts = Counter(played)
    assert all(times <= CRYPTRUCK.copies_of(card) for card, times in counts.items())
    assert undealt[0] not in played or undealt[0] == WHITE_THREE
    assert counts == dealt, "every dealt card is played once"
    record = state.rounds[-1]
    assert Counter(card for seat_won in record.won for card in seat_won) == counts
    assert sum(len(seat_won) for seat_won in record.won) == 6 * seats
    assert record.scores == tuple(score_blocks(seat_won)[0] for seat_won in record.won)
    assert all(not hand for hand in hands)
    return state


@pytest.mark.parametrize("players", [THREE, FOUR, FIVE])
@pytest.mark.parametrize("seed", [1, 7, 2024, 31337])
def test_a_seeded_game_of_random_legal_plays(players: tuple[str, ...], seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(players, first_dealer=rng.randrange(len(players)))
    dealers = []
    for number in (1, 2, 3):
        assert not state.finished and state.round.number == number
        dealers.append(state.round.dealer)
        state = play_random_round(state, rng)
    seats = len(players)
    assert dealers == [(state.first_dealer + offset) % seats for offset in range(3)]
    assert state.finished and next_step(state) == "over"
    assert len(state.rounds) == 3
    assert not state.flags, "legal play never raises a revoke flag"
    assert state.totals == tuple(
        sum(record.scores[seat] for record in state.rounds) for seat in range(seats)
    )
    top = max(state.totals)
    assert GAME.winners(state) == [seat for seat in range(seats) if state.totals[seat] == top]
    rows = GAME.score_rows(state)
    assert len(rows) == 3 * seats
    assert [row.total for row in rows[-seats:]] == list(state.totals)


# --- What comes next -----------------------------------------------------------------------------

# The cards of a 3-player game as the actions write them, in the order ``expected`` lists them.
THREE_DECK = (
    *(f"{colour} {number}" for colour in ("red", "yellow", "green") for number in range(1, 7)),
    "white 3",
)


def deck_but(*out: str) -> tuple[str, ...]:
    return tuple(card for card in THREE_DECK if card not in out)


def test_a_new_game_waits_for_the_table_to_turn_up_the_revealed_card() -> None:
    state = new_game()
    assert expected_actions(state) == Expected(None, (Accepts("reveal", cards=THREE_DECK),))
    assert GAME.expected(state) == expected_actions(state)
    assert len(THREE_DECK) == 19


def test_after_the_revealed_card_the_dealer_reveals_one_or_the_table_enters_the_cards_won() -> None:
    state = act(new_game(first_dealer=2), Reveal(c("green 2")))
    in_play = deck_but("green 2")
    assert expected_actions(state) == Expected(
        2, (Accepts("dealer-card", cards=in_play), Accepts("won", cards=in_play))
    )
    # One white 3 revealed leaves the other in play.
    white = act(new_game(), Reveal(WHITE_THREE))
    assert expected_actions(white).accepts("dealer-card") == Accepts(
        "dealer-card", cards=THREE_DECK
    )


def test_the_bids_are_asked_from_the_dealers_left_as_want_or_pass() -> None:
    state = act(new_game(FOUR, first_dealer=2), Reveal(c("green 2")), DealerCard(c("red 5")))
    assert expected_actions(state).to_json() == {
        "seat": 3,
        "actions": [{"type": "bid", "choices": [True, False]}],
    }
    seen = []
    while next_step(state) == "bid":
        expected = expected_actions(state)
        assert expected.actions == (Accepts("bid", choices=(True, False)),)
        seen.append(expected.seat)
        state = act(state, Bid(seen[-1] == 0))
    assert seen == [3, 0, 1]
    assert expected_actions(state).seat == 0  # Ann, the last to want it, gives a card


def test_the_taker_gives_any_card_but_the_revealed_and_the_dealers() -> None:
    state = act(new_game(), Reveal(c("green 2")), DealerCard(c("red 5")), Bid(True), Bid(False))
    assert expected_actions(state) == Expected(
        1, (Accepts("give", cards=deck_but("green 2", "red 5")),)
    )


def test_play_lists_every_card_still_in_play_and_the_trick_winner_leads_next() -> None:
    state = nobody_wants()
    assert expected_actions(state) == Expected(
        1, (Accepts("play", cards=deck_but("green 2", "red 5")),)
    )
    # Following is watched with revoke flags, not refused: Cy may play yellow to a red lead.
    state = plays(state, "red 1")
    assert expected_actions(state) == Expected(
        2, (Accepts("play", cards=deck_but("green 2", "red 5", "red 1")),)
    )
    state = plays(state, "red 3")  # Ann takes trick 1
    assert expected_actions(state) == Expected(
        0, (Accepts("play", cards=deck_but("green 2", "red 5", "red 1", "red 3")),)
    )


def test_the_white_3_leaves_the_list_once_both_are_out() -> None:
    state = plays(nobody_wants(), "white 3")
    listed = expected_actions(state).accepts("play")
    assert listed is not None and "white 3" in (listed.cards or ())
    state = plays(state, "white 3")
    listed = expected_actions(state).accepts("play")
    assert listed == Accepts("play", cards=deck_but("green 2", "red 5", "white 3"))


def test_an_open_revoke_flag_is_offered_by_its_index_until_settled() -> None:
    state = revoke_state()
    out = ("green 2", "red 5", "yellow 3", "red 3", "red 6", "red 1", "red 4")
    play = Accepts("play", cards=deck_but(*out))
    assert expected_actions(state) == Expected(0, (play, Accepts("revoke", choices=(0,))))
    assert expected_actions(act(state, ResolveRevoke(0, True, 2))) == Expected(0, (play,))


def test_at_round_end_the_next_dealer_waits_for_the_revealed_card() -> None:
    state = nobody_wants()
    state = plays(state, *ROUND[0][1:])
    for trick in ROUND[1:]:
        state = plays(state, *trick)
    assert state.round.number == 2
    assert expected_actions(state) == Expected(None, (Accepts("reveal", cards=THREE_DECK),))
    assert expected_actions(act(state, Reveal(c("red 2")))).seat == 1  # Bo deals round 2


def test_at_game_end_nothing_is_expected() -> None:
    state = new_game()
    for _ in range(ROUNDS):
        state = fast_round(state, [], [], ["red 3"])
    assert GAME.is_finished(state)
    assert expected_actions(state) == NOTHING_EXPECTED
    assert expected_actions(state).to_json() == {"seat": None, "actions": []}


def test_a_revoke_left_open_at_game_end_is_still_expected_until_settled() -> None:
    state = game_over_with_an_open_revoke()
    assert GAME.is_finished(state)
    assert expected_actions(state) == Expected(None, (Accepts("revoke", choices=(0,)),))
    assert expected_actions(act(state, ResolveRevoke(0, False))) == NOTHING_EXPECTED


# Every card the actions can name, in this game's colours or not.
ANY_CARD = (*(Card(colour, number) for colour in COLOURS for number in range(1, 7)), WHITE_THREE)


def random_actions(state: State, rng: random.Random) -> list[Action]:
    """One action of every type, with random values: most are refused, some accepted."""
    seats = len(state.players)
    return [
        Reveal(rng.choice(ANY_CARD)),
        DealerCard(rng.choice(ANY_CARD)),
        Bid(rng.random() < 0.5),
        Give(rng.choice((None, *ANY_CARD))),
        Play(rng.choice(ANY_CARD)),
        WonCards(tuple(tuple(rng.sample(ANY_CARD, rng.randint(0, 2))) for _ in range(seats))),
        ResolveRevoke(rng.randint(0, len(state.flags)), rng.random() < 0.5),
    ]


def is_accepted(state: State, action: Action) -> bool:
    try:
        GAME.apply(state, action)
    except IllegalAction:
        return False
    return True


def listed_values(action: Action) -> tuple[str, set[object]]:
    """The ``Accepts`` field that lists an action's values, and the values it carries."""
    if isinstance(action, Bid):
        return "choices", {action.want}
    if isinstance(action, ResolveRevoke):
        return "choices", {action.flag}
    if isinstance(action, WonCards):
        return "cards", {str(card) for seat in action.cards for card in seat}
    if isinstance(action, Give) and action.card is None:
        return "cards", set()
    return "cards", {str(action.card)}


def listed_actions(state: State, accepts: Accepts) -> list[dict[str, object]]:
    """An action as JSON for every value ``accepts`` lists (a won card goes to the first seat)."""
    others: list[list[str]] = [[] for _ in state.players[1:]]
    if accepts.type == "won":
        return [{"type": "won", "cards": [[card], *others]} for card in accepts.cards or ()]
    if accepts.type == "bid":
        return [{"type": "bid", "want": want} for want in accepts.choices or ()]
    if accepts.type == "revoke":
        return [{"type": "revoke", "flag": flag, "accept": False} for flag in accepts.choices or ()]
    return [{"type": accepts.type, "card": card} for card in accepts.cards or ()]


def check_expected(state: State, tried: Sequence[Action], rng: random.Random) -> Expected:
    """``expected`` against ``apply``: what it accepts is listed, and what is listed it accepts."""
    expected = GAME.expected(state)
    finished = GAME.is_finished(state)
    assert (not expected.actions) == (finished and not open_flags(state))
    if finished:
        assert expected.seat is None and expected.types <= {"revoke"}
    for action in (*tried, *random_actions(state, rng)):
        if not is_accepted(state, action):
            continue
        kind = str(GAME.action_to_json(action)["type"])
        accepts = expected.accepts(kind)
        assert accepts is not None, f"{action} is accepted but {kind} is not expected"
        field, values = listed_values(action)
        assert values <= set(getattr(accepts, field) or ()), (action, accepts)
    for accepts in expected.actions:
        examples = listed_actions(state, accepts)
        assert examples, accepts
        for data in examples:
            GAME.apply(state, GAME.parse_action(data))  # refused: IllegalAction fails the test
    return expected


@pytest.mark.parametrize("players", [THREE, FOUR, FIVE])
def test_expected_lists_exactly_what_apply_accepts_in_random_games(
    players: tuple[str, ...],
) -> None:
    rng = random.Random(len(players))
    listed: Counter[str] = Counter()

    def visit(state: State, action: Action) -> None:
        listed.update(check_expected(state, [action], rng).types)

    def apply(state: State, action: Action) -> State:
        visit(state, action)
        return act(state, action)

    seats = len(players)
    for _ in range(6):
        state = new_game(players, first_dealer=rng.randrange(seats))
        for _ in range(ROUNDS):
            if rng.random() < 0.25:
                hands, undealt = deal(state, rng)
                state = apply(state, Reveal(undealt[0]))
                won: list[list[Card]] = [[] for _ in players]
                for card in (card for hand in hands for card in hand):
                    won[rng.randrange(seats)].append(card)
                state = apply(state, WonCards(tuple(tuple(seat) for seat in won)))
            else:
                state = play_random_round(state, rng, visit, stray=0.2)
            for index, _ in open_flags(state):
                if rng.random() < 0.5:
                    state = apply(state, ResolveRevoke(index, True, rng.randint(0, 10)))
        assert GAME.is_finished(state)
        for index, _ in open_flags(state):
            state = apply(state, ResolveRevoke(index, False))
        assert check_expected(state, [], rng) == NOTHING_EXPECTED
    every_type = {"reveal", "dealer-card", "won", "bid", "give", "play", "revoke"}
    assert set(listed) == every_type, listed


def test_only_a_single_card_listed_alone_leaves_no_choice() -> None:
    last = Expected(2, (Accepts("play", cards=("white 3",)),))
    assert last.only_card() == {"type": "play", "card": "white 3"}
    assert Expected(2, (Accepts("play", cards=("white 3", "red 1")),)).only_card() is None
    flagged = (Accepts("play", cards=("white 3",)), Accepts("revoke", choices=(0,)))
    assert Expected(2, flagged).only_card() is None  # a revoke flag is the table's to settle
    asked = Accepts("play", cards=("10D",), choices=(True, False))
    assert Expected(0, (asked,)).only_card() is None  # "called?" is still a question
