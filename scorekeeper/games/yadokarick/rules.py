"""Yadokarick, the hermit crab trick game, for 1 to 7 seats.

One player plays the solo game (its rules live in ``solo``). 3 to 7
players play the standard game, whose rules are here: rounds of 10 tricks, a
size marker the lowest card moves, houses built from the cards won and scored
against the size under the marker. 2 players play against the NPC crab
(``npc``), whose cards come from the top of the draw deck and whose house is
the target. The two trick games share their actions, state, turns and houses
(``tricks``) and the play below, which calls ``npc`` where that game differs.
The table enters every card as it is played, with its printed size the first
time the session meets it (``house_sizes``); ``cards.yadokarick_trick`` rules
a standard trick. Rule sheet: shared/rules/yadokarick.txt and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, Literal

from scorekeeper.games.actions import ActionSet
from scorekeeper.games.base import (
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    check_seat_option,
    int_option,
    rank_by_score,
    resolve_options,
)
from scorekeeper.games.cards import Card, Deck, colour_words
from scorekeeper.games.engine import CARDS, Engine, Handler, Listed, on
from scorekeeper.games.house_sizes import NO_SIZES, SizedCards, learn_size, parse_size
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Listing, Signed, Text, all_of, counted, each_of, phrase
from scorekeeper.games.yadokarick import npc, solo
from scorekeeper.games.yadokarick.cards import YADOKARICK, yadokarick_trick
from scorekeeper.games.yadokarick.said import (
    TITLE,
    TRICK_EXPLAINED,
    OneOrSeveral,
    sentences,
)
from scorekeeper.games.yadokarick.tricks import (
    TRICKS_PER_ROUND,
    Action,
    House,
    MarkerMove,
    Mode,
    Move,
    Play,
    RoundRecord,
    SeatResult,
    State,
    Trick,
    check_not_played,
    expected,
    place_winnings,
    played_this_round,
    trick_number,
    turn_seat,
    usable_cards,
)

# The board templates read the game's queries from this module.
from scorekeeper.games.yadokarick.tricks import is_roof as is_roof
from scorekeeper.games.yadokarick.tricks import trick_at_table as trick_at_table

MIN_SEATS = 1
MAX_SEATS = 7
SOLO_PLAYERS = 1
# The standard game's seats: one seat is the solo game, two play with the NPC crab.
STANDARD_SEATS = (npc.NPC_PLAYERS + 1, MAX_SEATS)
EXACT_BONUS = 5
HIGHEST_NUMBER = 36
# Advanced mode: the highest number in play, by players (the sheet has none for 7).
ADVANCED_HIGHEST: Mapping[int, int] = MappingProxyType({3: 30, 4: 20, 5: 25, 6: 30})
COLOURS: tuple[str, ...] = ("green", "pink")

# How far each move takes the size marker along the row.
_MARKER_STEPS: Mapping[Move, int] = MappingProxyType({"left": -1, "stay": 0, "right": 1})


# --- Queries the app reads -------------------------------------------------------


def mode(state: State | solo.SoloState) -> Mode | Literal["solo"]:
    """ "standard" (3 to 7 players), "npc" (2 players and the NPC crab) or "solo"."""
    if isinstance(state, solo.SoloState):
        return "solo"
    return state.mode


def session_cards(state: State | solo.SoloState) -> tuple[Card, ...]:
    """Every card this session can meet, colour by colour, low to high."""
    if isinstance(state, solo.SoloState):
        return solo.SOLO_DECK
    return usable_cards(state)


def picker_deck(state: State | solo.SoloState) -> Deck:
    """The card picker's deck: only the cards of this session (no 30s solo, advanced ranges)."""
    in_play = session_cards(state)
    numbers = {
        colour: tuple(card.number for card in in_play if card.colour == colour)
        for colour in YADOKARICK.colours
    }
    return Deck(
        YADOKARICK.title,
        MappingProxyType({colour: found for colour, found in numbers.items() if found}),
        MappingProxyType({}),
        MappingProxyType({}),
    )


def played_cards(state: State | solo.SoloState) -> frozenset[Card]:
    """The cards a picker greys out: played this round, or drawn in the solo game."""
    if isinstance(state, solo.SoloState):
        return state.drawn
    return played_this_round(state)


def marker_moves(state: State) -> tuple[Move, ...]:
    """The moves the size marker can make now, as "left", "stay", "right": never off the row."""
    assert state.size_row is not None and state.marker is not None
    first, last = state.size_row
    return tuple(
        move for move, shift in _MARKER_STEPS.items() if first <= state.marker + shift <= last
    )


def expected_actions(state: State | solo.SoloState) -> Expected:
    """What the engine accepts now, and whose move it is (the solo game: see its module).

    The seat is ``turn_seat``'s: the one to play the next card or to move the
    marker. In the NPC game that is seat 2 when the crab's card is due: the
    table turns up the top of the draw deck for it, but the crab holds a seat
    in the play order, a house and a name, so the card is still its move.
    None once the game is over. A ``play`` may be any card of this game not
    played this round; ``sizes`` lists those whose size the session does not
    know yet, so the action must carry one. The marker's ``moves`` leave out
    a step off either end of the size row.
    """
    if isinstance(state, solo.SoloState):
        return solo.expected_actions(state)
    step = expected(state)
    if step == "over":
        return NOTHING_EXPECTED
    seat = turn_seat(state)
    if step == "marker":
        return Expected(seat, (Accepts("marker", moves=marker_moves(state)),))
    played = played_this_round(state)
    free = [card for card in usable_cards(state) if card not in played]
    play = Accepts(
        "play",
        cards=tuple(str(card) for card in free),
        sizes=tuple(str(card) for card in free if card not in state.sizes),
    )
    return Expected(seat, (play,))


def player_seats(state: State) -> tuple[int, ...]:
    """The seats of the people at the table (the NPC crab is not one)."""
    if state.mode == "npc":
        return npc.PLAYER_SEATS
    return tuple(range(len(state.players)))


def dealer_of(state: State, round_number: int) -> int | None:
    """The seat dealing round ``round_number``: the deal passes clockwise (None in the NPC game)."""
    if state.mode == "npc":
        return None
    return (state.first_dealer + round_number - 1) % len(state.players)


# A seat's round points as a sum (the score sheet's note).
UNDER_TARGET = phrase("yadokarick.note-under-target", "house {size} under target {target}: {size}")
ON_TARGET = phrase(
    "yadokarick.note-on-target", "house {size} = target {target}: {size} + {bonus} bonus"
)
OVER_TARGET = phrase(
    "yadokarick.note-over-target",
    "house {size} over target {target}: {target} \u2212 {size} = {points}",
)
WITH_COLLAPSED = phrase(
    "yadokarick.note-collapsed", "{note}; collapsed {collapsed}: \u2212{collapsed}"
)


def score_house(house_size: int, collapsed_size: int, target: int) -> tuple[int, Text]:
    """A standard game's round points and the sentence that shows the sum.

    At or under the target: the house size, 5 more when equal. Over it: the
    target less the house size. Always less the collapsed cards' sizes.
    """
    if house_size < target:
        points = house_size
        note = UNDER_TARGET(size=house_size, target=target)
    elif house_size == target:
        points = house_size + EXACT_BONUS
        note = ON_TARGET(size=house_size, target=target, bonus=EXACT_BONUS)
    else:
        points = target - house_size
        note = OVER_TARGET(size=house_size, target=target, points=Signed(points))
    if collapsed_size:
        points -= collapsed_size
        note = WITH_COLLAPSED(note=note, collapsed=collapsed_size)
    return points, note


# --- Sentences -------------------------------------------------------------------

PLAYS_NEXT = phrase("yadokarick.plays-next", "{name} plays next.")
LEADS_TRICK = phrase("yadokarick.leads-trick", "{name} leads trick {number}.")
MOVES_MARKER = phrase(
    "yadokarick.moves-marker", "{name} moves the size marker (on {marker}): left, right or stay."
)
THEN_MOVE_ONE = phrase(
    "yadokarick.then-move-one",
    "Then {names} moves it.",
)
THEN_MOVE_SEVERAL = phrase(
    "yadokarick.then-move-several",
    "Then {names} move it.",
)
THEN_MOVE = OneOrSeveral(THEN_MOVE_ONE, THEN_MOVE_SEVERAL)
AFTER_LEADS = phrase("yadokarick.after-that-leads", "After that, {name} leads trick {number}.")
AFTER_SCORED = phrase("yadokarick.after-that-scored", "After that, round {round} is scored.")
WINS_WITH = counted(
    "yadokarick.game-over-wins",
    "Game over: {name} wins with {count} point.",
    "Game over: {name} wins with {count} points.",
)
SHARE_WIN_WITH = counted(
    "yadokarick.game-over-share",
    "Game over: {names} share the win with {count} point.",
    "Game over: {names} share the win with {count} points.",
)
TOTALS = phrase("yadokarick.totals", "Totals: {totals}.")
NAME_SCORE = phrase("yadokarick.name-score", "{name} {points}")
ROUND_START = phrase(
    "yadokarick.round-start",
    "Round {round} of {rounds}: {dealer} deals; the size marker is on {marker}.",
)
NOT_IN_NPC_GAME = phrase(
    "yadokarick.card-not-in-npc-game",
    "{card} is not in this game: the game with the NPC crab uses {colour} only.",
)
NOT_IN_GAME = phrase(
    "yadokarick.card-not-in-game",
    "{card} is not in this game: the {players}-player game uses {colour} only.",
)
NOT_IN_ADVANCED = phrase(
    "yadokarick.card-not-in-advanced",
    "{card} is not in play: advanced mode with {players} players uses 1 to {highest}.",
)
GAME_IS_OVER = phrase(
    "yadokarick.game-is-over", "The game is over; nothing more can be entered. {over}"
)
MARKER_FIRST = phrase("yadokarick.marker-first", "{name} moves the size marker first.")
PLAYS_CARD = phrase("yadokarick.plays-card", "{name} plays {card} (size {size}).")
NO_MOVER = phrase("yadokarick.no-one-moves-marker", "No one moves the size marker now: {next}")
MARKER_AT_FIRST = phrase(
    "yadokarick.marker-at-first",
    "The size marker is on {marker}, the first size card: it cannot move further left.",
)
MARKER_AT_LAST = phrase(
    "yadokarick.marker-at-last",
    "The size marker is on {marker}, the last size card: it cannot move further right.",
)
LEAVES_MARKER = phrase("yadokarick.leaves-marker", "{name} leaves the size marker on {marker}.")
MOVES_MARKER_LEFT = phrase(
    "yadokarick.moves-marker-left", "{name} moves the size marker left to {marker}."
)
MOVES_MARKER_RIGHT = phrase(
    "yadokarick.moves-marker-right", "{name} moves the size marker right to {marker}."
)
ROUND_SCORES = phrase("yadokarick.round-scores", "Round {round} scores, target {target}: {scores}.")
SEAT_SCORE = phrase("yadokarick.seat-score", "{name} {points} ({note})")
SIZE_ROW_ORDER = phrase(
    "yadokarick.size-row-order",
    "The size row's last card ({last}) must be higher than its first card ({first}).",
)
MARKER_OFF_ROW = phrase(
    "yadokarick.marker-off-row",
    "The size marker must start on a card of the row, {first} to {last}; "
    "there is no size card {marker}.",
)
ADVANCED_SEATS = phrase(
    "yadokarick.advanced-seats", "Advanced mode is for 3 to 6 players; this game has {seats}."
)
SOLO_HAS_NO_TRICKS = phrase(
    "yadokarick.solo-has-no-tricks",
    "The solo game has no tricks: draw a card, take one onto a crab, "
    "take a bonus or give up a crab.",
)
SOLO_ACTIONS_ONLY = phrase(
    "yadokarick.solo-actions-only",
    "Draw, take, bonus and give-up belong to the solo game; "
    "this game plays cards and moves the size marker.",
)
LOG_PLAY = phrase("yadokarick.log-play", "play {card}")
LOG_PLAY_SIZED = phrase("yadokarick.log-play-sized", "play {card} (size {size})")
LOG_MARKER = {
    "left": phrase("yadokarick.log-marker-left", "marker left"),
    "right": phrase("yadokarick.log-marker-right", "marker right"),
    "stay": phrase("yadokarick.log-marker-stay", "marker stay"),
}


def _play_text(state: State, seat: int) -> Text:
    """ "Bo plays next." or "NPC crab plays next: ..."; "leads trick 3" for a trick's first card."""
    name = state.players[seat]
    crab = state.mode == "npc" and seat == npc.NPC_SEAT
    if state.current:
        return npc.CRAB_PLAYS_NEXT(name=name) if crab else PLAYS_NEXT(name=name)
    number = trick_number(state)
    if crab:
        return npc.CRAB_LEADS_TRICK(name=name, number=number)
    return LEADS_TRICK(name=name, number=number)


def _marker_text(state: State) -> str:
    players = state.players
    first, *rest = state.movers
    said: list[str] = [MOVES_MARKER(name=players[first], marker=state.marker)]
    if rest:
        names = [players[seat] for seat in rest]
        said.append(THEN_MOVE(names=all_of(names), count=len(names)))
    if len(state.tricks) < TRICKS_PER_ROUND:
        said.append(AFTER_LEADS(name=players[state.lead], number=trick_number(state)))
    else:
        said.append(AFTER_SCORED(round=state.round))
    return sentences(*said)


TAKES_CARDS = counted(
    "yadokarick.headline-takes", "{name} takes {count} card", "{name} takes {count} cards"
)
TAKES_MORE = phrase("yadokarick.headline-takes-more", "{name} takes {count}")
# Who played a card on the table, for a screen reader: "by Ann".
BY = phrase("yadokarick.played-by", "by {name}")


def trick_takes(state: State, trick: Trick) -> Listing:
    """The page's one line of a trick: "Ann takes 2 cards, Di takes 1"."""
    said = [
        (TAKES_CARDS if index == 0 else TAKES_MORE)(name=state.players[seat], count=len(taken))
        for index, (seat, taken) in enumerate(trick.takes)
    ]
    return each_of(said)


def _top_seats(state: State) -> list[int]:
    scores = _standing_scores(state)
    top = max(scores)
    return [seat for seat, score in zip(player_seats(state), scores, strict=True) if score == top]


def _game_over_text(state: State) -> Text:
    names = [state.players[seat] for seat in _top_seats(state)]
    if state.mode == "npc":
        return npc.game_over_text(names)
    top = max(state.totals)
    if len(names) == 1:
        return WINS_WITH(name=names[0], count=top)
    return SHARE_WIN_WITH(names=all_of(names), count=top)


def _next_text(state: State) -> str:
    """What happens next, as a sentence."""
    step = expected(state)
    if step == "over":
        return _game_over_text(state)
    if step == "marker":
        return _marker_text(state)
    seat = turn_seat(state)
    assert seat is not None
    return _play_text(state, seat)


def _totals_text(state: State) -> Text:
    listed = each_of(
        [
            NAME_SCORE(name=name, points=Signed(total))
            for name, total in zip(state.players, state.totals, strict=True)
        ]
    )
    return TOTALS(totals=listed)


def _round_start_text(state: State) -> str:
    assert state.dealer is not None
    start = ROUND_START(
        round=state.round,
        rounds=state.rounds_to_play,
        dealer=state.players[state.dealer],
        marker=state.marker,
    )
    return sentences(start, _next_text(state))


# --- Checks ----------------------------------------------------------------------------


def _check_usable(state: State, card: Card) -> None:
    if card.colour not in state.colours:
        colour = colour_words(state.colours[0])
        if state.mode == "npc":
            raise IllegalAction(NOT_IN_NPC_GAME(card=card, colour=colour), "card")
        raise IllegalAction(
            NOT_IN_GAME(card=card, players=len(state.players), colour=colour), "card"
        )
    if card.number > state.highest_number:
        raise IllegalAction(
            NOT_IN_ADVANCED(card=card, players=len(state.players), highest=state.highest_number),
            "card",
        )


def _check_not_over(state: State) -> None:
    if state.finished:
        raise IllegalAction(GAME_IS_OVER(over=_game_over_text(state)), "type")


# --- Rules -----------------------------------------------------------------------------


def _new_round(state: State, number: int) -> State:
    """``state`` at the start of standard round ``number``: a new dealer, marker and houses."""
    dealer = dealer_of(state, number)
    assert dealer is not None
    return evolve(
        state,
        round=number,
        dealer=dealer,
        lead=(dealer + 1) % len(state.players),
        marker=state.marker_start,
        current=(),
        tricks=(),
        movers=(),
        houses=(House(),) * len(state.players),
        discarded=(),
    )


def _apply_play(state: State, action: Play) -> State:
    _check_not_over(state)
    if state.movers:
        raise IllegalAction(MARKER_FIRST(name=state.players[state.movers[0]]), "type")
    card = action.card
    _check_usable(state, card)
    check_not_played(state, card)
    sizes = learn_size(state.sizes, card, parse_size(action.size, card, "size"), "size")
    seat = turn_seat(state)
    assert seat is not None
    played = evolve(state, sizes=sizes, current=(*state.current, (seat, card)))
    if state.mode == "npc" and seat == npc.NPC_SEAT:
        said = npc.crab_card_text(state.players[seat], card, sizes[card])
    else:
        said = PLAYS_CARD(name=state.players[seat], card=card, size=sizes[card])
    if len(played.current) < len(state.players):
        return evolve(played, last_ruling=sentences(said, _next_text(played)))
    if state.mode == "npc":
        done, told = npc.complete_trick(played)
        return evolve(done, last_ruling=sentences(said, *told, _next_text(done)))
    return _complete_trick(played, [said])


def _complete_trick(state: State, said: list[str]) -> State:
    order = [seat for seat, _ in state.current]
    ruled = yadokarick_trick(
        [{"card": str(card), "size": state.sizes[card]} for _, card in state.current],
        [state.players[seat] for seat in order],
    )
    takes = tuple((order[index], cards) for index, cards in ruled.takes.items())
    houses, roofed_out, placed = place_winnings(state, takes, roofs_close=True)
    trick = Trick(
        number=trick_number(state),
        plays=state.current,
        movers=tuple(order[index] for index in ruled.movers),
        takes=takes,
        discarded=ruled.discarded,
        roofed_out=roofed_out,
        next_lead=order[ruled.next_lead],
        explanation=ruled.explanation,
    )
    done = evolve(
        state,
        current=(),
        tricks=(*state.tricks, trick),
        movers=trick.movers,
        lead=trick.next_lead,
        houses=houses,
        discarded=(*state.discarded, *trick.discarded, *roofed_out),
    )
    explained = TRICK_EXPLAINED(number=trick.number, explanation=ruled.explanation)
    told = [*said, explained, *placed, _next_text(done)]
    return evolve(done, last_ruling=sentences(*told))


def _apply_marker(state: State, action: MarkerMove) -> State:
    _check_not_over(state)
    if state.mode == "npc":
        raise IllegalAction(npc.NO_SIZE_MARKER(), "type")
    if not state.movers:
        raise IllegalAction(NO_MOVER(next=_next_text(state)), "type")
    assert state.marker is not None
    name = state.players[state.movers[0]]
    if action.move not in marker_moves(state):
        at_end = MARKER_AT_FIRST if action.move == "left" else MARKER_AT_LAST
        raise IllegalAction(at_end(marker=state.marker), "move")
    marker = state.marker + _MARKER_STEPS[action.move]
    if action.move == "stay":
        said = LEAVES_MARKER(name=name, marker=marker)
    elif action.move == "left":
        said = MOVES_MARKER_LEFT(name=name, marker=marker)
    else:
        said = MOVES_MARKER_RIGHT(name=name, marker=marker)
    moved = evolve(state, marker=marker, movers=state.movers[1:])
    if moved.movers or len(moved.tricks) < TRICKS_PER_ROUND:
        return evolve(moved, last_ruling=sentences(said, _next_text(moved)))
    return _finish_round(moved, [said])


def _finish_round(state: State, told: list[str]) -> State:
    target = state.marker
    assert target is not None
    results: list[SeatResult] = []
    for seat, house in enumerate(state.houses):
        points, note = score_house(house.size, house.collapsed_size, target)
        results.append(
            SeatResult(
                seat, house.cards, house.size, house.collapsed, house.collapsed_size, points, note
            )
        )
    record = RoundRecord(state.round, target, tuple(results))
    totals = tuple(
        total + result.points for total, result in zip(state.totals, results, strict=True)
    )
    finished = state.round >= state.rounds_to_play
    ended = evolve(state, records=(*state.records, record), totals=totals, finished=finished)
    listed = each_of(
        [
            SEAT_SCORE(
                name=state.players[result.seat], points=Signed(result.points), note=result.note
            )
            for result in results
        ]
    )
    told.append(ROUND_SCORES(round=state.round, target=target, scores=listed))
    told.append(_totals_text(ended))
    if finished:
        told.append(_game_over_text(ended))
        return evolve(ended, last_ruling=sentences(*told))
    following = _new_round(ended, state.round + 1)
    told.append(_round_start_text(following))
    return evolve(following, last_ruling=sentences(*told))


# --- JSON ------------------------------------------------------------------------------


# One set for every mode: the solo game's types are parsed here too, so an unknown
# type is told every type there is.
ACTIONS: ActionSet[Action | solo.SoloAction] = ActionSet(Action | solo.SoloAction)


# --- The game --------------------------------------------------------------------------


def _check_options(resolved: Mapping[str, OptionValue], seats: int) -> None:
    """The checks across options and seats that no single option can make."""
    check_seat_option(
        int_option(resolved, "first_dealer"), seats, FIRST_DEALER_LABEL, "options.first_dealer"
    )
    first, last = int_option(resolved, "size_first"), int_option(resolved, "size_last")
    if last <= first:
        raise IllegalAction(SIZE_ROW_ORDER(last=last, first=first), "options.size_last")
    marker = int_option(resolved, "marker_start")
    if not first <= marker <= last:
        raise IllegalAction(
            MARKER_OFF_ROW(first=first, last=last, marker=marker), "options.marker_start"
        )
    if resolved["advanced"] == "on" and seats not in ADVANCED_HIGHEST:
        raise IllegalAction(ADVANCED_SEATS(seats=seats), "options.advanced")


# The house sizes printed on the cards: a card played (or drawn, solo) comes with its size.
SIZED_CARDS = SizedCards(YADOKARICK, frozenset({"play", "draw"}), lambda state: state.sizes)


def _in_trick_game(handler: Handler[State]) -> Handler[State | solo.SoloState]:
    """``handler``, refused in the solo game."""

    def apply(state: State | solo.SoloState, action: Any) -> State | solo.SoloState:
        if isinstance(state, solo.SoloState):
            raise IllegalAction(SOLO_HAS_NO_TRICKS(), "type")
        return handler.apply(state, action)

    return Handler(handler.action, apply, handler.describe)


def _in_solo_game(kind: type[solo.SoloAction]) -> Handler[State | solo.SoloState]:
    """The solo game's own rule for the actions of class ``kind``, refused in the trick
    games."""

    def apply(state: State | solo.SoloState, action: Any) -> State | solo.SoloState:
        if not isinstance(state, solo.SoloState):
            raise IllegalAction(SOLO_ACTIONS_ONLY(), "type")
        return solo.apply(state, action)

    return Handler(kind, apply, solo.describe)


def _describe_play(play: Play) -> Text:
    if play.size is None:
        return LOG_PLAY(card=play.card)
    return LOG_PLAY_SIZED(card=play.card, size=play.size)


# What the Yadokarick games list besides cards.
MOVES = Listed("moves", str, "The size marker's moves accepted (Yadokarick).")
CRABS = Listed("crabs", int, "The crabs a card may go onto (solo Yadokarick).")
SIZES = Listed(
    "sizes",
    str,
    "The cards among `cards` whose printed size the session does not know yet: playing one "
    "needs its `size` (Yadokarick).",
)


# The options as the new-session page words them; a summary's "{}" is the option's value.
ROUNDS_LABEL = phrase("yadokarick.rounds-option", "Rounds")()
ROUNDS_HELP = phrase(
    "yadokarick.rounds-help",
    "Standard game (3 to 7 players): rounds of 10 tricks. The game with the NPC crab is one round.",
)()
ROUNDS_SUMMARY = phrase("yadokarick.rounds-summary", "{{}} rounds")()
FIRST_DEALER_LABEL = phrase("yadokarick.first-dealer-option", "First dealer")()
FIRST_DEALER_HELP = phrase(
    "yadokarick.first-dealer-help",
    "Standard game: the seat that deals round 1; the deal passes clockwise and "
    "the seat after the dealer leads.",
)()
FIRST_DEALER_SUMMARY = phrase("yadokarick.first-dealer-summary", "{{}} deals first")()
SIZE_FIRST_LABEL = phrase("yadokarick.size-first-option", "Size row: first card")()
SIZE_FIRST_HELP = phrase(
    "yadokarick.size-first-help", "Standard game: the lowest size card of the row."
)()
SIZE_FIRST_SUMMARY = phrase("yadokarick.size-first-summary", "size row from {{}}")()
SIZE_LAST_LABEL = phrase("yadokarick.size-last-option", "Size row: last card")()
SIZE_LAST_HELP = phrase(
    "yadokarick.size-last-help", "Standard game: the highest size card of the row."
)()
SIZE_LAST_SUMMARY = phrase("yadokarick.size-last-summary", "to {{}}")()
MARKER_START_LABEL = phrase("yadokarick.marker-start-option", "Size marker starts on")()
MARKER_START_HELP = phrase(
    "yadokarick.marker-start-help",
    "Standard game: the size card the marker is put on at the start of every round.",
)()
MARKER_START_SUMMARY = phrase("yadokarick.marker-start-summary", "marker on {{}}")()
ADVANCED_LABEL = phrase("yadokarick.advanced-option", "Advanced mode")()
ADVANCED_HELP = phrase(
    "yadokarick.advanced-help",
    "Standard game with 3 to 6 players: fewer cards (3 players 1 to 30, "
    "4 players 1 to 20, 5 players 1 to 25, 6 players 1 to 30).",
)()
ADVANCED_OFF = phrase("yadokarick.advanced-off", "off")()
ADVANCED_ON = phrase("yadokarick.advanced-on", "on")()
ADVANCED_SUMMARY = phrase("yadokarick.advanced-summary", "advanced mode {{}}")()
COLOUR_LABEL = phrase("yadokarick.colour-option", "Colour")()
COLOUR_HELP = phrase(
    "yadokarick.colour-help",
    "The one colour of house cards in the 3-player game and in the game "
    "with the NPC crab; 4 to 7 players use both.",
)()
COLOUR_SUMMARY = phrase("yadokarick.colour-summary", "{{}} cards")()
NPC_POSITION_LABEL = phrase(
    "yadokarick.npc-position-option", "NPC crab's place in the play order"
)()
NPC_POSITION_HELP = phrase(
    "yadokarick.npc-position-help",
    "2-player game: where the NPC crab plays (1 = first); "
    "the two players take the other places in seat order.",
)()
NPC_POSITION_SUMMARY = phrase("yadokarick.npc-position-summary", "NPC crab plays {{}}")()


class Yadokarick(Engine[State | solo.SoloState, Action | solo.SoloAction]):
    """The game object the app registers (see engine.Engine).

    Log lines have no names: "play green 25 (size 3)", "marker left". Play again keeps
    the seats in order: the options move the first dealer on (standard game).
    """

    slug = "yadokarick"
    title = TITLE
    min_players = MIN_SEATS
    max_players = MAX_SEATS
    sized_cards = SIZED_CARDS
    options = (
        OptionSpec(
            "rounds",
            ROUNDS_LABEL,
            "int",
            3,
            help=ROUNDS_HELP,
            minimum=1,
            maximum=20,
            summary=ROUNDS_SUMMARY,
            seats=STANDARD_SEATS,
        ),
        OptionSpec(
            "first_dealer",
            FIRST_DEALER_LABEL,
            "seat",
            0,
            help=FIRST_DEALER_HELP,
            maximum=MAX_SEATS - 1,
            summary=FIRST_DEALER_SUMMARY,
            seats=STANDARD_SEATS,
        ),
        OptionSpec(
            "size_first",
            SIZE_FIRST_LABEL,
            "int",
            1,
            help=SIZE_FIRST_HELP,
            minimum=1,
            maximum=98,
            summary=SIZE_FIRST_SUMMARY,
            seats=STANDARD_SEATS,
        ),
        OptionSpec(
            "size_last",
            SIZE_LAST_LABEL,
            "int",
            20,
            help=SIZE_LAST_HELP,
            minimum=2,
            maximum=99,
            summary=SIZE_LAST_SUMMARY,
            seats=STANDARD_SEATS,
        ),
        OptionSpec(
            "marker_start",
            MARKER_START_LABEL,
            "int",
            11,
            help=MARKER_START_HELP,
            minimum=1,
            maximum=99,
            summary=MARKER_START_SUMMARY,
            seats=STANDARD_SEATS,
        ),
        OptionSpec(
            "advanced",
            ADVANCED_LABEL,
            "choice",
            "off",
            help=ADVANCED_HELP,
            choices=(("off", ADVANCED_OFF), ("on", ADVANCED_ON)),
            summary=ADVANCED_SUMMARY,
            seats=(STANDARD_SEATS[0], max(ADVANCED_HIGHEST)),
        ),
        OptionSpec(
            "colour",
            COLOUR_LABEL,
            "choice",
            "green",
            help=COLOUR_HELP,
            choices=(("green", colour_words("green")), ("pink", colour_words("pink"))),
            summary=COLOUR_SUMMARY,
            seats=(npc.NPC_PLAYERS, 3),
        ),
        OptionSpec(
            "npc_position",
            NPC_POSITION_LABEL,
            "int",
            2,
            help=NPC_POSITION_HELP,
            minimum=1,
            maximum=3,
            summary=NPC_POSITION_SUMMARY,
            seats=(npc.NPC_PLAYERS, npc.NPC_PLAYERS),
        ),
    )
    actions = ACTIONS
    handlers = (
        _in_trick_game(on(Play, _apply_play, _describe_play)),
        _in_trick_game(on(MarkerMove, _apply_marker, lambda marker: LOG_MARKER[marker.move]())),
        *(_in_solo_game(kind) for kind in solo.ACTIONS.declarations),
    )
    listed = (CARDS, MOVES, CRABS, SIZES)
    expected_actions = staticmethod(expected_actions)

    def first_state(
        self, players: tuple[str, ...], options: Mapping[str, OptionValue]
    ) -> State | solo.SoloState:
        seats = len(players)
        _check_options(options, seats)
        if seats == SOLO_PLAYERS:
            return solo.start(players[0])
        advanced = options["advanced"] == "on"
        highest = ADVANCED_HIGHEST[seats] if advanced else HIGHEST_NUMBER
        one_colour = (str(options["colour"]),)
        first, last = int_option(options, "size_first"), int_option(options, "size_last")
        marker = int_option(options, "marker_start")
        first_dealer = int_option(options, "first_dealer")
        if seats == npc.NPC_PLAYERS:
            state = npc.start(
                players,
                colours=one_colour,
                highest_number=highest,
                advanced=advanced,
                first_dealer=first_dealer,
                npc_position=int_option(options, "npc_position"),
            )
            return evolve(state, last_ruling=sentences(npc.start_text(state), _next_text(state)))
        state = State(
            players=players,
            mode="standard",
            play_order=tuple(range(seats)),
            colours=one_colour if seats == 3 else COLOURS,
            highest_number=highest,
            advanced=advanced,
            rounds_to_play=int_option(options, "rounds"),
            first_dealer=first_dealer,
            size_row=(first, last),
            marker_start=marker,
            sizes=NO_SIZES,
            round=1,
            dealer=first_dealer,
            lead=0,
            marker=marker,
            current=(),
            tricks=(),
            movers=(),
            houses=(),
            discarded=(),
            records=(),
            totals=(0,) * seats,
            finished=False,
            last_ruling="",
        )
        state = _new_round(state, 1)
        return evolve(state, last_ruling=_round_start_text(state))

    def winners(self, state: State | solo.SoloState) -> list[int]:
        """Once the game is over, the seats with the top total (ties share); none before.

        In the NPC game only the two players can win: the closer to the NPC
        crab's house without going over, else the smaller excess.
        """
        if not state.finished:
            return []
        if isinstance(state, solo.SoloState):
            return [0]
        return _top_seats(state)

    def standings(self, state: State | solo.SoloState) -> list[Standing]:
        """By total; in the NPC game the players only, by ``npc_score`` against the crab's house."""
        if isinstance(state, solo.SoloState):
            return rank_by_score([state.player], [solo.score(state)])
        seats = player_seats(state)
        return rank_by_score([state.players[seat] for seat in seats], _standing_scores(state))

    def rematch_options(
        self, options: Mapping[str, OptionValue], seats: Sequence[str]
    ) -> dict[str, OptionValue]:
        """Standard game: the deal passes clockwise, so the next game's first dealer sits
        left of the dealer of this game's last round. The solo game and the game with the
        NPC crab have no dealer: their options stay as they are."""
        resolved = resolve_options(self.options, options)
        if len(seats) in (SOLO_PLAYERS, npc.NPC_PLAYERS):
            return resolved
        dealer = (int_option(resolved, "first_dealer") + int_option(resolved, "rounds")) % len(
            seats
        )
        return {**resolved, "first_dealer": dealer}

    def score_rows(self, state: State | solo.SoloState) -> list[ScoreRow]:
        """One row per seat per scored round; in the NPC game one per player, the crab left out.

        The solo game has a row per house completed, bonus taken or crab given up.
        """
        if isinstance(state, solo.SoloState):
            return solo.score_rows(state)
        seats = player_seats(state)
        totals = [0] * len(state.players)
        rows: list[ScoreRow] = []
        for record in state.records:
            for seat in seats:
                result = record.results[seat]
                totals[seat] += result.points
                rows.append(
                    ScoreRow(
                        record.number,
                        seat,
                        state.players[seat],
                        result.points,
                        totals[seat],
                        result.note,
                    )
                )
        return rows


def _standing_scores(state: State) -> tuple[int, ...]:
    if state.mode == "npc":
        return npc.npc_scores(state)
    return state.totals


GAME = Yadokarick()
