"""Yadokarick solo: a row of five cards, four hermit crabs, houses of seven.

The player turns real cards from two decks (green and pink, 1 to 36 without
the 30s) and enters each one as it comes up, with its printed size the first
time the session meets it. The engine keeps the row, the four crabs, the
cards face up (completed houses and bonuses) and face down (given-up crabs),
checks every placement and ends the game when the decks are empty and no crab
can be finished. Crabs are numbered 1 to 4 from the left, in JSON too.
Rule sheet: shared/rules/yadokarick.txt ("Solo Game Rules") and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import permutations
from types import MappingProxyType
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, with_config

from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask, CardText
from scorekeeper.games.base import (
    MINUS,
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    ScoreRow,
    and_list,
    or_list,
    parse_whole_number,
    plural,
    signed,
)
from scorekeeper.games.cards import Card
from scorekeeper.games.engine import Handlers, on
from scorekeeper.games.history import HISTORY
from scorekeeper.games.house_sizes import NO_SIZES, PrintedSize, Sizes, learn_size
from scorekeeper.games.records import evolve
from scorekeeper.games.yadokarick.cards import YADOKARICK

COLOURS: tuple[str, ...] = ("green", "pink")
LEFT_OUT = 30
ROOF_NUMBERS = (10, 20)
CRABS = 4
ROW_LENGTH = 5
HOUSE_CARDS = 7

SOLO_DECK: tuple[Card, ...] = tuple(
    card for card in YADOKARICK.cards() if card.colour in COLOURS and card.number != LEFT_OUT
)
HIGHEST = max(card.number for card in SOLO_DECK)
DECK_SIZE: Mapping[str, int] = MappingProxyType(
    {colour: sum(1 for card in SOLO_DECK if card.colour == colour) for colour in COLOURS}
)

ColourRule = Literal["green", "pink", "alternate"]
COLOUR_RULES: Mapping[int, ColourRule] = MappingProxyType(
    {1: "green", 2: "alternate", 3: "alternate", 4: "pink"}
)
"""Each crab's colour rule, by crab number (1 = leftmost): a colour, or alternating colours."""

Step = Literal["layout", "refill", "play", "over"]
"""layout: the opening row is being drawn; refill: a draw is due; play: take, give up or bonus."""


# --- Actions -------------------------------------------------------------------


def _solo_card(raw: object) -> Card:
    return _check_card(YADOKARICK.parse(raw, "card"))


def _crab(raw: object) -> int:
    return _check_crab(parse_whole_number(raw, "The crab", "crab"))


Crab = Annotated[
    int,
    Field(ge=1, le=CRABS, description="Crab 1 is the leftmost."),
    Ask(f"the crab, 1 to {CRABS} from the left"),
    BeforeValidator(_crab),
]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Draw:
    """A card turned face up from its deck into the row; ``size`` may be left out once known."""

    type: Literal["draw"] = field(default="draw", kw_only=True, repr=False)
    card: Annotated[CardText, Ask("the card drawn"), BeforeValidator(_solo_card)]
    size: PrintedSize = None


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Take:
    """A row card placed on crab ``crab`` (1 to 4 from the left)."""

    type: Literal["take"] = field(default="take", kw_only=True, repr=False)
    card: Annotated[CardText, Ask("the card taken from the row"), BeforeValidator(_solo_card)]
    crab: Crab


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Bonus:
    """One card of a consecutive run, taken face up right after the draw that made the run."""

    type: Literal["bonus"] = field(default="bonus", kw_only=True, repr=False)
    card: Annotated[CardText, Ask("the card taken as the bonus"), BeforeValidator(_solo_card)]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class GiveUp:
    """All cards of crab ``crab`` (1 to 4) go face down as a penalty."""

    type: Literal["give-up"] = field(default="give-up", kw_only=True, repr=False)
    crab: Crab


SoloAction = Draw | Take | Bonus | GiveUp


# --- State ---------------------------------------------------------------------


@dataclass(frozen=True)
class Scoring:
    """A moment the score moved: a house completed, a bonus, or a crab given up.

    ``points`` is signed (negative for a give-up); ``crab`` is None for a bonus.
    """

    kind: Literal["house", "bonus", "give-up"]
    crab: int | None
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True)
class SoloNow:
    """What the table needs of the scorings now: the newest one (None before the first)."""

    last_scoring: Scoring | None


@dataclass(frozen=True)
class SoloState:
    """A solo game.

    ``row``: the face-up cards on the table, in the order they were laid.
    ``crabs``: the four crabs from the left, each from the card closest to the
    body to the top card. ``scored``: face up (houses and bonuses);
    ``penalty``: face down (given-up crabs). ``drawn``: every card turned so
    far, so what is left in each deck is known. ``offer``: the cards that may
    be taken as a bonus now (empty when none). ``events``: each change of
    the score, in order.
    """

    player: str
    sizes: Sizes
    row: tuple[Card, ...]
    crabs: tuple[tuple[Card, ...], ...]
    scored: tuple[Card, ...]
    penalty: tuple[Card, ...]
    drawn: frozenset[Card]
    offer: tuple[Card, ...]
    events: tuple[Scoring, ...] = field(metadata=HISTORY)
    step: Step
    finished: bool
    last_ruling: str

    def now(self) -> SoloNow:
        """What the table needs of ``events`` (history: see games.history)."""
        return SoloNow(last_scoring=self.events[-1] if self.events else None)


def start(player: str) -> SoloState:
    """A new solo game: empty row and crabs, both decks full."""
    state = SoloState(
        player=player,
        sizes=NO_SIZES,
        row=(),
        crabs=((),) * CRABS,
        scored=(),
        penalty=(),
        drawn=frozenset(),
        offer=(),
        events=(),
        step="layout",
        finished=False,
        last_ruling="",
    )
    return evolve(state, last_ruling=expected(state))


# --- Placement -----------------------------------------------------------------


def is_roof(card: Card) -> bool:
    """The 10s and 20s: a crab with one of them takes new cards underneath (the 30s are out)."""
    return card.number in ROOF_NUMBERS


def _roofed(stack: Sequence[Card]) -> bool:
    return any(is_roof(card) for card in stack)


def _neighbour(stack: Sequence[Card]) -> Card | None:
    """The card a new card would touch: the top card, or under a roof the one nearest the body."""
    if not stack:
        return None
    return stack[0] if _roofed(stack) else stack[-1]


def _other(colour: str) -> str:
    return COLOURS[1] if colour == COLOURS[0] else COLOURS[0]


def _colour_needed(crab: int, stack: Sequence[Card]) -> str | None:
    """The colour crab ``crab`` takes now, or None when either colour will do."""
    rule = COLOUR_RULES[crab]
    if rule != "alternate":
        return rule
    neighbour = _neighbour(stack)
    return None if neighbour is None else _other(neighbour.colour)


def refusal(crab: int, stack: Sequence[Card], card: Card) -> str | None:
    """Why ``card`` may not go on crab ``crab`` holding ``stack`` (None: it may)."""
    rule = COLOUR_RULES[crab]
    if rule != "alternate" and card.colour != rule:
        return f"Crab {crab} takes {rule} cards only; {card} is {card.colour}."
    neighbour = _neighbour(stack)
    if neighbour is None:
        return None
    roofed = _roofed(stack)
    if rule == "alternate" and card.colour == neighbour.colour:
        where = "under the roof, next to" if roofed else "on"
        return (
            f"Crab {crab} alternates colours: {card} would go {where} {neighbour}, "
            f"so the card must be {_other(card.colour)}."
        )
    if roofed and card.number <= neighbour.number:
        return (
            f"Crab {crab} has a roof: a new card goes underneath, next to the body, "
            f"and must be higher than {neighbour} there; {card} is not."
        )
    if not roofed and card.number > neighbour.number:
        return (
            f"{card} is higher than {neighbour}, the top card of crab {crab}: "
            "a card on top must be the same number or lower."
        )
    return None


def _placed(stack: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return (card, *stack) if _roofed(stack) else (*stack, card)


def _completable(crab: int, stack: tuple[Card, ...], row: Sequence[Card]) -> bool:
    """Whether some of ``row``, in some order, can bring the crab to 7 cards."""
    needed = HOUSE_CARDS - len(stack)
    if needed > len(row):
        return False
    for order in permutations(row, needed):
        current = stack
        for card in order:
            if refusal(crab, current, card) is not None:
                break
            current = _placed(current, card)
        else:
            return True
    return False


def crab_rules(state: SoloState) -> tuple[str, ...]:
    """For each crab, from the left, what it accepts now ("pink, 17 or lower")."""
    rules: list[str] = []
    for crab, stack in enumerate(state.crabs, start=1):
        colour = _colour_needed(crab, stack)
        neighbour = _neighbour(stack)
        if neighbour is None:
            rules.append(f"{colour}, any number" if colour else "any card")
        elif _roofed(stack) and neighbour.number >= HIGHEST:
            rules.append(f"nothing: no card is above {HIGHEST} (under the roof)")
        elif _roofed(stack):
            rules.append(f"{colour}, above {neighbour.number} (under the roof)")
        else:
            rules.append(f"{colour}, {neighbour.number} or lower")
    return tuple(rules)


# --- Queries the page needs ----------------------------------------------------


def deck_left(state: SoloState) -> dict[str, int]:
    """Cards still face down in each deck."""
    return {
        colour: DECK_SIZE[colour] - sum(1 for card in state.drawn if card.colour == colour)
        for colour in COLOURS
    }


def decks_empty(state: SoloState) -> bool:
    return not any(deck_left(state).values())


def bonus_choices(state: SoloState) -> tuple[Card, ...]:
    """The cards that may be taken face up as the bonus now (empty when none)."""
    return state.offer


def _size(state: SoloState, card: Card) -> int:
    return state.sizes[card]


def _total(state: SoloState, cards: Sequence[Card]) -> int:
    return sum(_size(state, card) for card in cards)


def score(state: SoloState) -> int:
    """Sizes of the cards face up less the sizes of the cards face down."""
    return _total(state, state.scored) - _total(state, state.penalty)


def score_note(state: SoloState) -> str:
    """The score as a sum: "face up 60 - face down 12 = 48", with a minus sign."""
    up, down = _total(state, state.scored), _total(state, state.penalty)
    return f"face up {up} {MINUS} face down {down} = {signed(up - down)}"


def _step(state: SoloState) -> Step:
    if state.finished:
        return "over"
    if len(state.row) < ROW_LENGTH and not decks_empty(state):
        return "layout" if len(state.drawn) < ROW_LENGTH else "refill"
    return "play"


def _decks_to_draw(state: SoloState) -> str:
    left = deck_left(state)
    open_decks = [colour for colour in COLOURS if left[colour]]
    if len(open_decks) == len(COLOURS):
        return "the green or the pink deck"
    empty = [colour for colour in COLOURS if not left[colour]]
    return f"the {open_decks[0]} deck (the {empty[0]} deck is empty)"


def expected(state: SoloState) -> str:
    """What the player enters next, as a sentence."""
    step = state.step
    if step == "over":
        return f"Game over. Final score: {score_note(state)}."
    if step == "layout":
        return (
            f"Lay out the opening row: draw card {len(state.row) + 1} of {ROW_LENGTH} "
            "from either deck."
        )
    if step == "refill":
        return f"Refill the row to {ROW_LENGTH}: draw from {_decks_to_draw(state)}."
    give_up = " or give up a crab" if any(state.crabs) else ""
    if decks_empty(state):
        move = (
            f"The decks are empty: place a card from the row on a crab{give_up}; "
            "the game ends when no crab can reach 7 cards with what is left in the row."
        )
    else:
        move = f"Take a card from the row onto a crab{give_up}."
    if state.offer:
        return (
            f"Bonus on offer: {or_list([str(card) for card in state.offer])} may go face up; "
            f"any other move passes it up. {move}"
        )
    return move


def crabs_for(state: SoloState, card: Card) -> tuple[int, ...]:
    """The crabs (1 to 4) a take of ``card`` may go onto now.

    No crab unless a take is due and ``card`` is in the row; then the crabs
    whose colour rule and top card (under a roof, the card next to the body)
    let it on, as ``refusal`` rules a take.
    """
    if state.step != "play" or card not in state.row:
        return ()
    return tuple(
        crab
        for crab, stack in enumerate(state.crabs, start=1)
        if refusal(crab, stack, card) is None
    )


def _texts(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def expected_actions(state: SoloState) -> Expected:
    """What the engine accepts now: the player's move (seat 0) until the game is over.

    Laying out or refilling the row, a ``draw`` of any card still in a deck,
    each listed in ``sizes`` until the session knows its size. Then a ``take``
    of a row card that fits some crab: ``cards`` are those row cards and
    ``crabs`` every crab one of them fits (which crabs a given card fits:
    ``crabs_for``); a ``bonus`` of a card of the run on offer; a ``give-up``
    of a crab holding cards. Every card is drawn by the one player, so the
    seat is never None before the end.
    """
    if state.finished:
        return NOTHING_EXPECTED
    if state.step != "play":
        undrawn = [card for card in SOLO_DECK if card not in state.drawn]
        unsized = [card for card in undrawn if card not in state.sizes]
        return Expected(0, (Accepts("draw", cards=_texts(undrawn), sizes=_texts(unsized)),))
    actions: list[Accepts] = []
    fits = {card: crabs_for(state, card) for card in state.row}
    takeable = [card for card, crabs in fits.items() if crabs]
    if takeable:
        crabs = sorted({crab for card in takeable for crab in fits[card]})
        actions.append(Accepts("take", cards=_texts(takeable), crabs=tuple(crabs)))
    if state.offer:
        actions.append(Accepts("bonus", cards=_texts(state.offer)))
    holding = tuple(crab for crab, stack in enumerate(state.crabs, start=1) if stack)
    if holding:
        actions.append(Accepts("give-up", crabs=holding))
    return Expected(0, tuple(actions))


def _where(state: SoloState, card: Card) -> str:
    """Where a card is now, as the end of "it is ..."."""
    if card in state.row:
        return "in the row"
    for crab, stack in enumerate(state.crabs, start=1):
        if card in stack:
            return f"on crab {crab}"
    if card in state.scored:
        return "face up in your score"
    if card in state.penalty:
        return "face down in your penalty"
    if card in state.drawn:
        return "out of play"
    return f"still in the {card.colour} deck"


def _points_text(state: SoloState, cards: Sequence[Card]) -> str:
    """ "3 points" for one card, "7 points (2 + 3 + 2)" for several: the sizes added."""
    points = plural(_total(state, cards), "point")
    if len(cards) == 1:
        return points
    return f"{points} ({' + '.join(str(_size(state, card)) for card in cards)})"


# --- Rules ---------------------------------------------------------------------


def _check_card(card: Card, field: str = "card") -> Card:
    if card.colour not in COLOURS or YADOKARICK.copies_of(card) == 0:
        raise IllegalAction(f"{card} is not a Yadokarick house card.", field)
    if card.number == LEFT_OUT:
        raise IllegalAction(
            f"{card} is not in the solo game: the 30s are taken out of both decks.", field
        )
    return card


def _check_crab(crab: int) -> int:
    if not isinstance(crab, int) or isinstance(crab, bool) or not 1 <= crab <= CRABS:
        raise IllegalAction(
            f"There is no crab {crab}: the crabs are numbered 1 to {CRABS} from the left.", "crab"
        )
    return crab


def _not_now(state: SoloState, doing: str) -> IllegalAction:
    """Why a take, bonus or give-up cannot happen at this step."""
    if state.step == "layout":
        return IllegalAction(
            f"Lay out the opening row first: {len(state.row)} of {ROW_LENGTH} cards drawn.", "type"
        )
    return IllegalAction(
        f"The row has {plural(len(state.row), 'card')}: draw to refill it to {ROW_LENGTH} "
        f"before {doing}.",
        "type",
    )


def _game_over(state: SoloState) -> IllegalAction:
    return IllegalAction(
        f"The game is over (final score {signed(score(state))}): nothing more can be entered.",
        "type",
    )


def _settle(state: SoloState, sentences: list[str]) -> SoloState:
    """The state with its step, the end of the game if it has come, and its ruling."""
    # A bonus on offer holds the end back: the player may still take it, and any
    # other move passes it up before the end is judged.
    if (
        decks_empty(state)
        and not state.offer
        and not any(
            _completable(crab, stack, state.row) for crab, stack in enumerate(state.crabs, start=1)
        )
    ):
        ended = evolve(state, finished=True, step="over")
        sentences.append(
            "Both decks are empty and no crab can reach 7 cards with what is left in the row: "
            "game over. Cards left on the crabs and in the row do not count. "
            f"Final score: {score_note(ended)}."
        )
        return evolve(ended, last_ruling=" ".join(sentences))
    settled = evolve(state, step=_step(state))
    sentences.append(expected(settled))
    return evolve(settled, last_ruling=" ".join(sentences))


def _run(row: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """The consecutive numbers of ``card``'s colour in the row that include ``card``."""
    numbers = {other.number for other in row if other.colour == card.colour}
    low = high = card.number
    while low - 1 in numbers:
        low -= 1
    while high + 1 in numbers:
        high += 1
    return tuple(Card(card.colour, number) for number in range(low, high + 1))


def _apply_draw(state: SoloState, action: Draw) -> SoloState:
    card = _check_card(action.card)
    if state.step == "play":
        if len(state.row) >= ROW_LENGTH:
            raise IllegalAction(
                f"The row already has {ROW_LENGTH} cards: take one onto a crab before drawing.",
                "type",
            )
        raise IllegalAction("Both decks are empty: there is nothing left to draw.", "type")
    if not deck_left(state)[card.colour]:
        raise IllegalAction(
            f"The {card.colour} deck is empty: draw from the {_other(card.colour)} deck.", "card"
        )
    if card in state.drawn:
        raise IllegalAction(
            f"{card} was drawn already (it is {_where(state, card)}): each card comes up once.",
            "card",
        )
    sizes = learn_size(state.sizes, card, action.size, "size")
    refill = state.step == "refill"
    row = (*state.row, card)
    drawn = evolve(state, sizes=sizes, row=row, drawn=state.drawn | {card}, offer=())
    shown = f"{card} (size {sizes[card]})"
    if not refill:
        sentences = [f"{shown} is laid out in the row ({len(row)} of {ROW_LENGTH})."]
        return _settle(drawn, sentences)
    left = deck_left(drawn)[card.colour]
    sentences = [
        f"{shown} refills the row ({plural(left, 'card')} left in the {card.colour} deck)."
    ]
    run = _run(row, card)
    if len(run) > 1:
        others = and_list([other for other in run if other != card])
        sentences.append(
            f"Consecutive number bonus: {card} is next to {others}, so one of "
            f"{or_list([str(other) for other in run])} may go face up now."
        )
        drawn = evolve(drawn, offer=run)
    return _settle(drawn, sentences)


def _placement_text(crab: int, stack: tuple[Card, ...], card: Card) -> str:
    """Where the card went and why the rules allow it."""
    rule = COLOUR_RULES[crab]
    neighbour = _neighbour(stack)
    if neighbour is None:
        if rule == "alternate":
            return f"{card} starts crab {crab}: an empty crab takes either colour."
        return f"{card} starts crab {crab} ({rule} only)."
    colours = f"{card.colour} follows {neighbour.colour}" if rule == "alternate" else f"{rule} only"
    if _roofed(stack):
        return (
            f"{card} goes under crab {crab}'s roof, next to the body: {colours}, "
            f"and {card.number} is higher than {neighbour}."
        )
    compared = "the same as" if card.number == neighbour.number else "lower than"
    return (
        f"{card} goes on top of crab {crab}, on {neighbour}: {colours}, "
        f"and {card.number} is {compared} {neighbour.number}."
    )


def _passed_up(state: SoloState) -> list[str]:
    if not state.offer:
        return []
    return [f"The bonus ({or_list([str(card) for card in state.offer])}) is passed up."]


def _apply_take(state: SoloState, action: Take) -> SoloState:
    card = _check_card(action.card)
    crab = _check_crab(action.crab)
    if state.step != "play":
        raise _not_now(state, "taking a card")
    if card not in state.row:
        raise IllegalAction(f"{card} is not in the row: it is {_where(state, card)}.", "card")
    stack = state.crabs[crab - 1]
    why_not = refusal(crab, stack, card)
    if why_not is not None:
        raise IllegalAction(why_not, "crab")
    sentences = [*_passed_up(state), _placement_text(crab, stack, card)]
    placed = _placed(stack, card)
    if is_roof(card) and not _roofed(stack):
        sentences.append(
            f"{card} is a roof card: from now on new cards on crab {crab} go underneath, "
            f"next to the body, and must be higher than {placed[0]} there."
        )
    row = tuple(other for other in state.row if other != card)
    scored, events = state.scored, state.events
    if len(placed) == HOUSE_CARDS:
        points = _total(state, placed)
        sentences.append(
            f"Crab {crab} is complete with {HOUSE_CARDS} cards: {and_list(placed)} go face up "
            f"for {_points_text(state, placed)}, and the crab is empty again."
        )
        scored = (*scored, *placed)
        events = (*events, Scoring("house", crab, placed, points))
        placed = ()
    else:
        sentences.append(f"Crab {crab} has {len(placed)} of {HOUSE_CARDS} cards.")
    crabs = tuple(placed if index == crab - 1 else other for index, other in enumerate(state.crabs))
    taken = evolve(state, row=row, crabs=crabs, scored=scored, events=events, offer=())
    sentences.append(f"Score: {signed(score(taken))}.")
    return _settle(taken, sentences)


def _apply_bonus(state: SoloState, action: Bonus) -> SoloState:
    card = _check_card(action.card)
    if state.step != "play" or not state.offer:
        raise IllegalAction(
            "No bonus on offer: a bonus comes right after a refill draw that puts out a card "
            "next in number to a card of its colour in the row.",
            "card",
        )
    if card not in state.offer:
        raise IllegalAction(
            f"{card} is not in the run: the bonus is one of "
            f"{or_list([str(other) for other in state.offer])}.",
            "card",
        )
    points = _size(state, card)
    row = tuple(other for other in state.row if other != card)
    taken = evolve(
        state,
        row=row,
        scored=(*state.scored, card),
        events=(*state.events, Scoring("bonus", None, (card,), points)),
        offer=(),
    )
    sentences = [
        f"Bonus: {card} goes face up for {plural(points, 'point')}.",
        f"Score: {signed(score(taken))}.",
    ]
    return _settle(taken, sentences)


def _apply_give_up(state: SoloState, action: GiveUp) -> SoloState:
    crab = _check_crab(action.crab)
    if state.step != "play":
        raise _not_now(state, "giving up a crab")
    stack = state.crabs[crab - 1]
    if not stack:
        raise IllegalAction(f"Crab {crab} has no cards to give up.", "crab")
    points = _total(state, stack)
    crabs = tuple(() if index == crab - 1 else other for index, other in enumerate(state.crabs))
    given = evolve(
        state,
        crabs=crabs,
        penalty=(*state.penalty, *stack),
        events=(*state.events, Scoring("give-up", crab, stack, -points)),
        offer=(),
    )
    sentences = [
        *_passed_up(state),
        f"Crab {crab} is given up: {and_list(stack)} "
        f"{'goes' if len(stack) == 1 else 'go'} face down, "
        f"a penalty of {_points_text(state, stack)}.",
        f"Score: {signed(score(given))}.",
    ]
    return _settle(given, sentences)


def _describe_draw(draw: Draw) -> str:
    size = "" if draw.size is None else f" (size {draw.size})"
    return f"draw {draw.card}{size}"


def score_rows(state: SoloState) -> list[ScoreRow]:
    """One row per change of the score (house, bonus, give-up), with the running total."""
    rows: list[ScoreRow] = []
    total = 0
    for number, event in enumerate(state.events, start=1):
        total += event.points
        if event.kind == "house":
            note = f"house on crab {event.crab}: {and_list(event.cards)}"
        elif event.kind == "bonus":
            note = f"bonus {event.cards[0]}"
        else:
            note = f"crab {event.crab} given up: {and_list(event.cards)}"
        rows.append(ScoreRow(number, 0, state.player, event.points, total, note))
    return rows


# --- JSON ------------------------------------------------------------------------

ACTIONS: ActionSet[SoloAction] = ActionSet(SoloAction)


def parse_action(data: Mapping[str, object]) -> SoloAction:
    """An action from JSON or a form, or IllegalAction naming the wrong field."""
    return ACTIONS.parse(data)


def action_to_json(action: SoloAction) -> dict[str, object]:
    """The action as stored; crabs are numbered 1 to 4 from the left."""
    return ACTIONS.to_json(action)


# --- The game: each action by its handler ---------------------------------------

RULES: Handlers[SoloState] = Handlers(
    (
        on(Draw, _apply_draw, _describe_draw),
        on(Take, _apply_take, lambda take: f"{take.card} onto crab {take.crab}"),
        on(Bonus, _apply_bonus, lambda bonus: f"bonus {bonus.card}"),
        on(GiveUp, _apply_give_up, lambda give_up: f"give up crab {give_up.crab}"),
    ),
    ACTIONS,
)


def apply(state: SoloState, action: SoloAction) -> SoloState:
    """The state after ``action``, or IllegalAction (the state is untouched)."""
    if state.finished:
        raise _game_over(state)
    return RULES.apply(state, action)


def describe(action: SoloAction) -> str:
    """A short log line: "draw pink 18 (size 2)", "green 25 onto crab 2"."""
    return RULES.describe(action)
