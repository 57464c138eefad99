"""What Yadokarick's two trick games share: the actions, the state, the turn and the houses.

The standard game (3 to 7 players, ``rules``) and the game against the NPC crab
(2 players, ``npc``) play the same tricks round the same table: a card from each
seat in play order, the cards won placed on the takers' houses, the bottom
card collapsing past 6. Who takes what, what the tricks score and what is said
between them is each game's own. Rule sheet: shared/rules/yadokarick.txt.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BeforeValidator, with_config

from scorekeeper.games.actions import ACTION_CONFIG, Ask, CardText
from scorekeeper.games.base import IllegalAction
from scorekeeper.games.cards import Card
from scorekeeper.games.history import HISTORY
from scorekeeper.games.house_sizes import PrintedSize, Sizes
from scorekeeper.games.words import all_of, counted, phrase
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yadokarick.said import OneOrSeveral, card_first

ALREADY_PLAYED = phrase(
    "yadokarick.already-played", "{card} was already played in trick {number} by {name}."
)
CLOSED_BY_ROOF_ONE = phrase(
    "yadokarick.closed-by-roof-one",
    "{name}'s house is closed by a roof: {cards} is discarded.",
)
CLOSED_BY_ROOF_SEVERAL = phrase(
    "yadokarick.closed-by-roof-several",
    "{name}'s house is closed by a roof: {cards} are discarded.",
)
CLOSED_BY_ROOF = OneOrSeveral(CLOSED_BY_ROOF_ONE, CLOSED_BY_ROOF_SEVERAL)
PLACES = phrase("yadokarick.places", "{name} places {cards} on the house.")
COLLAPSES_ONE = phrase(
    "yadokarick.collapses-one",
    "{name}'s house holds {held} cards, more than {limit}: {cards}, closest to the body, "
    "collapses face down.",
)
COLLAPSES_SEVERAL = phrase(
    "yadokarick.collapses-several",
    "{name}'s house holds {held} cards, more than {limit}: {cards}, closest to the body, "
    "collapse face down.",
)
COLLAPSES = OneOrSeveral(COLLAPSES_ONE, COLLAPSES_SEVERAL)
COLLAPSES_NOT_COUNTING_ONE = phrase(
    "yadokarick.collapses-not-counting-one",
    "{name}'s house holds {held} cards, more than {limit}: {cards}, closest to the body, "
    "collapses face down; collapsed cards do not count.",
)
COLLAPSES_NOT_COUNTING_SEVERAL = phrase(
    "yadokarick.collapses-not-counting-several",
    "{name}'s house holds {held} cards, more than {limit}: {cards}, closest to the body, "
    "collapse face down; collapsed cards do not count.",
)
COLLAPSES_NOT_COUNTING = OneOrSeveral(COLLAPSES_NOT_COUNTING_ONE, COLLAPSES_NOT_COUNTING_SEVERAL)
ROOF_CLOSES_ONE = phrase(
    "yadokarick.roof-closes-one",
    "{roofs} is a roof: {name}'s house is closed at size {size}.",
)
ROOF_CLOSES_SEVERAL = phrase(
    "yadokarick.roof-closes-several",
    "{roofs} are roofs: {name}'s house is closed at size {size}.",
)
ROOF_CLOSES = OneOrSeveral(ROOF_CLOSES_ONE, ROOF_CLOSES_SEVERAL)
HOUSE_NOW = counted(
    "yadokarick.house-now",
    "{name}'s house: {count} card, size {size}.",
    "{name}'s house: {count} cards, size {size}.",
)
MOVE_MARKER = phrase("yadokarick.move-left-right-stay", "Move the size marker left, right or stay.")
ASK_CARD_PLAYED = phrase("yadokarick.ask-card-played", "the card played")()
ASK_MARKER_MOVE = phrase("yadokarick.ask-marker-move", "the marker move: left, right or stay")()

TRICKS_PER_ROUND = 10
HOUSE_LIMIT = 6
ROOF_NUMBERS = (10, 20, 30)

Mode = Literal["standard", "npc"]
Step = Literal["play", "marker", "over"]
Move = Literal["left", "right", "stay"]
_MOVES: Mapping[str, Move] = MappingProxyType({"left": "left", "right": "right", "stay": "stay"})


# --- Actions -------------------------------------------------------------------


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Play:
    """The card of the seat whose turn it is (the NPC's: the top card of the draw deck).

    ``size`` is the size printed on it; None once the session knows it.
    """

    type: Literal["play"] = field(default="play", kw_only=True, repr=False)
    card: Annotated[
        CardText,
        Ask(ASK_CARD_PLAYED),
        BeforeValidator(lambda raw: YADOKARICK.parse(raw, "card")),
    ]
    size: PrintedSize = None


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class MarkerMove:
    """A mover's choice after a trick: the size marker one card left, right, or left alone."""

    type: Literal["marker"] = field(default="marker", kw_only=True, repr=False)
    move: Annotated[Move, Ask(ASK_MARKER_MOVE), BeforeValidator(_parse_move)]


Action = Play | MarkerMove


# --- State ---------------------------------------------------------------------


@dataclass(frozen=True)
class House:
    """A seat's hermit crab this round.

    ``cards`` are face up, the one closest to the body first; ``collapsed``
    the cards that fell face down, in the order they fell. ``size`` and
    ``collapsed_size`` are the sums of their printed sizes. ``roofed``: a roof
    card is placed, so the house takes no more cards (standard game only).
    """

    cards: tuple[Card, ...] = ()
    collapsed: tuple[Card, ...] = ()
    roofed: bool = False
    size: int = 0
    collapsed_size: int = 0


@dataclass(frozen=True)
class Trick:
    """A completed trick of the round in progress.

    ``plays`` are (seat, card) in play order from the lead. ``movers`` move
    the size marker, in that order (none in the NPC game). ``takes``: the
    cards each taking seat won by the trick rule, in play order.
    ``discarded``: the cards no one took; ``roofed_out``: cards won by a
    seat whose house already had a roof, so discarded too. ``next_lead``
    leads the next trick; ``explanation`` is the trick rule's sentence.
    """

    number: int
    plays: tuple[tuple[int, Card], ...]
    movers: tuple[int, ...]
    takes: tuple[tuple[int, tuple[Card, ...]], ...]
    discarded: tuple[Card, ...]
    roofed_out: tuple[Card, ...]
    next_lead: int
    explanation: str


@dataclass(frozen=True)
class SeatResult:
    """One seat's house at the end of a round, its points and the sentence that shows them.

    In the NPC game ``points`` is the closeness score (see ``npc.npc_score``);
    the NPC crab's own row scores 0: its house is the target.
    """

    seat: int
    house: tuple[Card, ...]
    house_size: int
    collapsed: tuple[Card, ...]
    collapsed_size: int
    points: int
    note: str


@dataclass(frozen=True)
class RoundRecord:
    """A scored round: its target size and one result per seat."""

    number: int
    target: int
    results: tuple[SeatResult, ...]


@dataclass(frozen=True)
class Now:
    """What the table needs of the scored rounds now: the newest one's result (None before
    the first is scored)."""

    last_round: RoundRecord | None


@dataclass(frozen=True)
class State:
    """A session. Seats count from 0 in table order; in the NPC game seat 2 is the NPC crab.

    ``play_order``: the seats clockwise, as a trick goes round (the NPC game
    puts the crab where ``npc_position`` says). ``colours`` and
    ``highest_number`` say which cards are in the game. ``size_row`` is the
    first and last size card, ``marker`` the card the size marker is on (both
    None in the NPC game). ``round`` is the round in progress (the last one
    once ``finished``); ``dealer`` deals it (None in the NPC game). ``lead``
    leads the trick in progress or the next one; ``current`` is that trick so
    far, as (seat, card). ``tricks`` are this round's completed tricks;
    ``movers`` the seats still to move the marker after the last one.
    ``discarded``: every card of this round gone to the discard, in order.
    ``records`` are the scored rounds and ``totals`` their sums per seat.
    """

    players: tuple[str, ...]
    mode: Mode
    play_order: tuple[int, ...]
    colours: tuple[str, ...]
    highest_number: int
    advanced: bool
    rounds_to_play: int
    first_dealer: int
    size_row: tuple[int, int] | None
    marker_start: int | None
    sizes: Sizes
    round: int
    dealer: int | None
    lead: int
    marker: int | None
    current: tuple[tuple[int, Card], ...]
    tricks: tuple[Trick, ...]
    movers: tuple[int, ...]
    houses: tuple[House, ...]
    discarded: tuple[Card, ...]
    records: tuple[RoundRecord, ...] = field(metadata=HISTORY)
    totals: tuple[int, ...]
    finished: bool
    last_ruling: str

    def now(self) -> Now:
        """What the table needs of ``records`` (history: see games.history)."""
        return Now(last_round=self.records[-1] if self.records else None)


# --- Queries --------------------------------------------------------------------------


def expected(state: State) -> Step:
    """What the table enters next: a card, a marker move, or nothing (game over)."""
    if state.finished:
        return "over"
    if state.movers:
        return "marker"
    return "play"


def turn_seat(state: State) -> int | None:
    """The seat to play the next card or to move the marker (2 is the NPC crab); None at the end."""
    step = expected(state)
    if step == "over":
        return None
    if step == "marker":
        return state.movers[0]
    order = trick_order(state, state.lead)
    return order[len(state.current)]


def trick_order(state: State, lead: int) -> tuple[int, ...]:
    """Every seat in the order they play a trick led by ``lead``."""
    start = state.play_order.index(lead)
    return state.play_order[start:] + state.play_order[:start]


def trick_number(state: State) -> int:
    """The number of the trick in progress, or of the next one."""
    return len(state.tricks) + 1


def trick_at_table(state: State) -> int:
    """The trick the table is on, as the board counts it: the one just played while
    its marker moves are pending, else the one in progress or next (at most the last)."""
    return len(state.tricks) if state.movers else min(trick_number(state), TRICKS_PER_ROUND)


def usable_cards(state: State) -> tuple[Card, ...]:
    """The house cards in this game, colour by colour, low to high."""
    return tuple(
        Card(colour, number)
        for colour in state.colours
        for number in range(1, state.highest_number + 1)
    )


def played_this_round(state: State) -> frozenset[Card]:
    """Every card played this round, the trick in progress included."""
    return frozenset(card for _, card, _ in _plays_this_round(state))


def is_roof(card: Card) -> bool:
    """Whether ``card`` is a roof card: the 10, 20 or 30 of either colour."""
    return card.number in ROOF_NUMBERS


# --- Checks ---------------------------------------------------------------------------


def _plays_this_round(state: State) -> list[tuple[int, Card, int]]:
    """(trick number, card, seat) of every card played this round, in play order."""
    played = [(trick.number, card, seat) for trick in state.tricks for seat, card in trick.plays]
    played.extend((trick_number(state), card, seat) for seat, card in state.current)
    return played


def check_not_played(state: State, card: Card) -> None:
    for number, other, seat in _plays_this_round(state):
        if other == card:
            raise IllegalAction(
                ALREADY_PLAYED(card=card, number=number, name=state.players[seat]), "card"
            )


# --- Houses ----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Placed:
    """A taker's house after a trick's winnings, what it could not take, and what was said."""

    house: House
    roofed_out: tuple[Card, ...]
    sentences: tuple[str, ...]


def _house(
    cards: tuple[Card, ...], collapsed: tuple[Card, ...], roofed: bool, sizes: Sizes
) -> House:
    return House(
        cards=cards,
        collapsed=collapsed,
        roofed=roofed,
        size=sum(sizes[card] for card in cards),
        collapsed_size=sum(sizes[card] for card in collapsed),
    )


def _place(
    house: House, won: Sequence[Card], sizes: Sizes, name: str, *, roofs_close: bool
) -> _Placed:
    """``won`` placed one by one on ``house``: roofs last, the bottom collapsing past 6 cards."""
    if house.roofed:
        cards = tuple(won)
        return _Placed(
            house,
            cards,
            (CLOSED_BY_ROOF(name=name, cards=all_of(cards), count=len(cards)),),
        )
    roofs = [card for card in won if roofs_close and is_roof(card)]
    ordered = [card for card in won if card not in roofs] + roofs
    stacked = (*house.cards, *ordered)
    # Placing one by one and collapsing the bottom card each time past the
    # limit leaves the same house as collapsing the bottom cards at the end.
    fallen = stacked[: max(0, len(stacked) - HOUSE_LIMIT)]
    placed = _house(stacked[len(fallen) :], (*house.collapsed, *fallen), bool(roofs), sizes)
    sentences: list[str] = [PLACES(name=name, cards=all_of(ordered))]
    if fallen:
        collapses = COLLAPSES if roofs_close else COLLAPSES_NOT_COUNTING
        sentences.append(
            collapses(
                name=name,
                held=len(stacked),
                limit=HOUSE_LIMIT,
                cards=all_of(fallen),
                count=len(fallen),
            )
        )
    if roofs:
        listed = all_of([card_first(roofs[0]), *roofs[1:]])
        sentences.append(ROOF_CLOSES(roofs=listed, name=name, size=placed.size, count=len(roofs)))
    else:
        sentences.append(HOUSE_NOW(name=name, count=len(placed.cards), size=placed.size))
    return _Placed(placed, (), tuple(sentences))


def place_winnings(
    state: State, takes: Sequence[tuple[int, tuple[Card, ...]]], *, roofs_close: bool
) -> tuple[tuple[House, ...], tuple[Card, ...], list[str]]:
    """Each taker's winnings placed: the houses after, the cards roofs kept out, the sentences."""
    houses = list(state.houses)
    roofed_out: list[Card] = []
    sentences: list[str] = []
    for seat, won in takes:
        placed = _place(
            houses[seat], won, state.sizes, state.players[seat], roofs_close=roofs_close
        )
        houses[seat] = placed.house
        roofed_out.extend(placed.roofed_out)
        sentences.extend(placed.sentences)
    return tuple(houses), tuple(roofed_out), sentences


# --- JSON ------------------------------------------------------------------------------


def _parse_move(raw: object) -> Move:
    move = _MOVES.get(raw.strip().lower()) if isinstance(raw, str) else None
    if move is None:
        raise IllegalAction(MOVE_MARKER(), "move")
    return move
