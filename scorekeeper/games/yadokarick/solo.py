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
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    ScoreRow,
    parse_whole_number,
)
from scorekeeper.games.cards import Card, colour_words
from scorekeeper.games.engine import Handlers, on
from scorekeeper.games.history import HISTORY
from scorekeeper.games.house_sizes import NO_SIZES, PrintedSize, Sizes, learn_size
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Signed, Text, all_of, counted, one_of, phrase
from scorekeeper.games.yadokarick.cards import YADOKARICK
from scorekeeper.games.yadokarick.said import OneOrSeveral, chained, sentences

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

# --- What the solo game says ------------------------------------------------------

CRAB_LABEL = phrase("yadokarick.solo-crab-label", "The crab")()
ASK_CRAB = phrase("yadokarick.solo-ask-crab", "the crab, 1 to {highest} from the left")
ASK_CARD_DRAWN = phrase("yadokarick.solo-ask-card-drawn", "the card drawn")()
ASK_CARD_TAKEN = phrase("yadokarick.solo-ask-card-taken", "the card taken from the row")()
ASK_BONUS_CARD = phrase("yadokarick.solo-ask-bonus-card", "the card taken as the bonus")()
COLOUR_ONLY = phrase(
    "yadokarick.solo-colour-only", "Crab {crab} takes {colour} cards only; {card} is {card_colour}."
)
ALTERNATES_ON = phrase(
    "yadokarick.solo-alternates-on",
    "Crab {crab} alternates colours: {card} would go on {neighbour}, so the card must be {colour}.",
)
ALTERNATES_UNDER = phrase(
    "yadokarick.solo-alternates-under",
    "Crab {crab} alternates colours: {card} would go under the roof, next to {neighbour}, "
    "so the card must be {colour}.",
)
ROOF_NOT_HIGHER = phrase(
    "yadokarick.solo-roof-not-higher",
    "Crab {crab} has a roof: a new card goes underneath, next to the body, "
    "and must be higher than {neighbour} there; {card} is not.",
)
TOO_HIGH = phrase(
    "yadokarick.solo-too-high",
    "{card} is higher than {neighbour}, the top card of crab {crab}: "
    "a card on top must be the same number or lower.",
)
TAKES_COLOUR_ANY = phrase("yadokarick.solo-takes-colour-any", "{colour}, any number")
TAKES_ANY = phrase("yadokarick.solo-takes-any", "any card")
TAKES_NOTHING = phrase(
    "yadokarick.solo-takes-nothing", "nothing: no card is above {highest} (under the roof)"
)
TAKES_ABOVE = phrase("yadokarick.solo-takes-above", "{colour}, above {number} (under the roof)")
TAKES_AT_MOST = phrase("yadokarick.solo-takes-at-most", "{colour}, {number} or lower")
SCORE_NOTE = phrase("yadokarick.solo-score-note", "face up {up} \u2212 face down {down} = {score}")
REFILL_EITHER = phrase(
    "yadokarick.solo-refill-either",
    "Refill the row to {length}: draw from the green or the pink deck.",
)
REFILL_ONE = phrase(
    "yadokarick.solo-refill-one",
    "Refill the row to {length}: draw from the {colour} deck (the {empty} deck is empty).",
)
FINAL_SCORE = phrase("yadokarick.solo-final-score", "Game over. Final score: {note}.")
LAY_OUT = phrase(
    "yadokarick.solo-lay-out",
    "Lay out the opening row: draw card {number} of {length} from either deck.",
)
PLACE_FROM_ROW = phrase(
    "yadokarick.solo-place-from-row",
    "The decks are empty: place a card from the row on a crab; "
    "the game ends when no crab can reach 7 cards with what is left in the row.",
)
PLACE_FROM_ROW_OR_GIVE_UP = phrase(
    "yadokarick.solo-place-from-row-or-give-up",
    "The decks are empty: place a card from the row on a crab or give up a crab; "
    "the game ends when no crab can reach 7 cards with what is left in the row.",
)
TAKE_FROM_ROW = phrase("yadokarick.solo-take-from-row", "Take a card from the row onto a crab.")
TAKE_FROM_ROW_OR_GIVE_UP = phrase(
    "yadokarick.solo-take-from-row-or-give-up",
    "Take a card from the row onto a crab or give up a crab.",
)
BONUS_ON_OFFER = phrase(
    "yadokarick.solo-bonus-on-offer",
    "Bonus on offer: {cards} may go face up; any other move passes it up.",
)
IN_ROW = phrase("yadokarick.solo-where-row", "in the row")
ON_CRAB = phrase("yadokarick.solo-where-crab", "on crab {crab}")
IN_SCORE = phrase("yadokarick.solo-where-score", "face up in your score")
IN_PENALTY = phrase("yadokarick.solo-where-penalty", "face down in your penalty")
OUT_OF_PLAY = phrase("yadokarick.solo-where-out", "out of play")
IN_DECK = phrase("yadokarick.solo-where-deck", "still in the {colour} deck")
POINTS = counted("yadokarick.points", "{count} point", "{count} points")
POINTS_ADDED = phrase("yadokarick.solo-points-added", "{points} ({sizes})")
PLUS = phrase("yadokarick.solo-plus", "{first} + {second}")
NOT_HOUSE_CARD = phrase("yadokarick.solo-not-house-card", "{card} is not a Yadokarick house card.")
NO_THIRTIES = phrase(
    "yadokarick.solo-no-thirties",
    "{card} is not in the solo game: the 30s are taken out of both decks.",
)
NO_SUCH_CRAB = phrase(
    "yadokarick.solo-no-such-crab",
    "There is no crab {crab}: the crabs are numbered 1 to {crabs} from the left.",
)
LAY_OUT_FIRST = phrase(
    "yadokarick.solo-lay-out-first",
    "Lay out the opening row first: {drawn} of {length} cards drawn.",
)
REFILL_FIRST = counted(
    "yadokarick.solo-refill-first",
    "The row has {count} card: draw to refill it to {length} before {doing}.",
    "The row has {count} cards: draw to refill it to {length} before {doing}.",
)
TAKING = phrase("yadokarick.solo-taking", "taking a card")
GIVING_UP = phrase("yadokarick.solo-giving-up", "giving up a crab")
OVER = phrase(
    "yadokarick.solo-over",
    "The game is over (final score {score}): nothing more can be entered.",
)
GAME_ENDS = phrase(
    "yadokarick.solo-game-ends",
    "Both decks are empty and no crab can reach 7 cards with what is left in the row: "
    "game over. Cards left on the crabs and in the row do not count. Final score: {note}.",
)
ROW_FULL = phrase(
    "yadokarick.solo-row-full",
    "The row already has {length} cards: take one onto a crab before drawing.",
)
NOTHING_TO_DRAW = phrase(
    "yadokarick.solo-nothing-to-draw", "Both decks are empty: there is nothing left to draw."
)
DECK_EMPTY = phrase(
    "yadokarick.solo-deck-empty", "The {colour} deck is empty: draw from the {other} deck."
)
DRAWN_ALREADY = phrase(
    "yadokarick.solo-drawn-already",
    "{card} was drawn already (it is {where}): each card comes up once.",
)
LAID_OUT = phrase(
    "yadokarick.solo-laid-out",
    "{card} (size {size}) is laid out in the row ({number} of {length}).",
)
REFILLS = counted(
    "yadokarick.solo-refills",
    "{card} (size {size}) refills the row ({count} card left in the {colour} deck).",
    "{card} (size {size}) refills the row ({count} cards left in the {colour} deck).",
)
RUN_BONUS = phrase(
    "yadokarick.solo-run-bonus",
    "Consecutive number bonus: {card} is next to {others}, so one of {run} may go face up now.",
)
STARTS_EITHER = phrase(
    "yadokarick.solo-starts-either",
    "{card} starts crab {crab}: an empty crab takes either colour.",
)
STARTS_ONLY = phrase("yadokarick.solo-starts-only", "{card} starts crab {crab} ({colour} only).")
FOLLOWS = phrase("yadokarick.solo-colour-follows", "{colour} follows {other}")
ONLY = phrase("yadokarick.solo-colour-only-part", "{colour} only")
UNDER_ROOF = phrase(
    "yadokarick.solo-under-roof",
    "{card} goes under crab {crab}'s roof, next to the body: {colours}, "
    "and {number} is higher than {neighbour}.",
)
ON_TOP_SAME = phrase(
    "yadokarick.solo-on-top-same",
    "{card} goes on top of crab {crab}, on {neighbour}: {colours}, "
    "and {number} is the same as {other}.",
)
ON_TOP_LOWER = phrase(
    "yadokarick.solo-on-top-lower",
    "{card} goes on top of crab {crab}, on {neighbour}: {colours}, "
    "and {number} is lower than {other}.",
)
PASSED_UP = phrase("yadokarick.solo-passed-up", "The bonus ({cards}) is passed up.")
NOT_IN_ROW = phrase("yadokarick.solo-not-in-row", "{card} is not in the row: it is {where}.")
ROOF_CARD = phrase(
    "yadokarick.solo-roof-card",
    "{card} is a roof card: from now on new cards on crab {crab} go underneath, "
    "next to the body, and must be higher than {body} there.",
)
COMPLETE = phrase(
    "yadokarick.solo-complete",
    "Crab {crab} is complete with {length} cards: {cards} go face up for {points}, "
    "and the crab is empty again.",
)
# Counted for the languages whose words change with the number (English's do not).
CRAB_HOLDS = counted(
    "yadokarick.solo-crab-holds",
    "Crab {crab} has {count} of {length} cards.",
    "Crab {crab} has {count} of {length} cards.",
)
SCORE = phrase("yadokarick.solo-score", "Score: {score}.")
NO_BONUS = phrase(
    "yadokarick.solo-no-bonus",
    "No bonus on offer: a bonus comes right after a refill draw that puts out a card "
    "next in number to a card of its colour in the row.",
)
NOT_IN_RUN = phrase(
    "yadokarick.solo-not-in-run", "{card} is not in the run: the bonus is one of {cards}."
)
BONUS_FACE_UP = phrase("yadokarick.solo-bonus-face-up", "Bonus: {card} goes face up for {points}.")
NOTHING_TO_GIVE_UP = phrase(
    "yadokarick.solo-nothing-to-give-up", "Crab {crab} has no cards to give up."
)
GIVEN_UP_ONE = phrase(
    "yadokarick.solo-given-up-one",
    "Crab {crab} is given up: {cards} goes face down, a penalty of {points}.",
)
GIVEN_UP_SEVERAL = phrase(
    "yadokarick.solo-given-up-several",
    "Crab {crab} is given up: {cards} go face down, a penalty of {points}.",
)
GIVEN_UP = OneOrSeveral(GIVEN_UP_ONE, GIVEN_UP_SEVERAL)
LOG_DRAW = phrase("yadokarick.log-draw", "draw {card}")
LOG_DRAW_SIZED = phrase("yadokarick.log-draw-sized", "draw {card} (size {size})")
LOG_TAKE = phrase("yadokarick.log-take", "{card} onto crab {crab}")
LOG_BONUS = phrase("yadokarick.log-bonus", "bonus {card}")
LOG_GIVE_UP = phrase("yadokarick.log-give-up", "give up crab {crab}")
NOTE_HOUSE = phrase("yadokarick.solo-note-house", "house on crab {crab}: {cards}")
NOTE_BONUS = phrase("yadokarick.solo-note-bonus", "bonus {card}")
NOTE_GIVE_UP = phrase("yadokarick.solo-note-give-up", "crab {crab} given up: {cards}")
ALTERNATE = phrase("yadokarick.solo-alternate", "alternate")
NO_CRAB_TAKES = phrase("yadokarick.solo-no-crab-takes", "No crab takes {cards} now.")
OR = phrase("yadokarick.solo-or", "{first} or {second}")


# --- Actions -------------------------------------------------------------------


def _solo_card(raw: object) -> Card:
    return _check_card(YADOKARICK.parse(raw, "card"))


def _crab(raw: object) -> int:
    return _check_crab(parse_whole_number(raw, CRAB_LABEL, "crab"))


Crab = Annotated[
    int,
    Field(ge=1, le=CRABS, description="Crab 1 is the leftmost."),
    Ask(ASK_CRAB(highest=CRABS)),
    BeforeValidator(_crab),
]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Draw:
    """A card turned face up from its deck into the row; ``size`` may be left out once known."""

    type: Literal["draw"] = field(default="draw", kw_only=True, repr=False)
    card: Annotated[CardText, Ask(ASK_CARD_DRAWN), BeforeValidator(_solo_card)]
    size: PrintedSize = None


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Take:
    """A row card placed on crab ``crab`` (1 to 4 from the left)."""

    type: Literal["take"] = field(default="take", kw_only=True, repr=False)
    card: Annotated[CardText, Ask(ASK_CARD_TAKEN), BeforeValidator(_solo_card)]
    crab: Crab


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Bonus:
    """One card of a consecutive run, taken face up right after the draw that made the run."""

    type: Literal["bonus"] = field(default="bonus", kw_only=True, repr=False)
    card: Annotated[CardText, Ask(ASK_BONUS_CARD), BeforeValidator(_solo_card)]


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


def refusal(crab: int, stack: Sequence[Card], card: Card) -> Text | None:
    """Why ``card`` may not go on crab ``crab`` holding ``stack`` (None: it may)."""
    rule = COLOUR_RULES[crab]
    if rule != "alternate" and card.colour != rule:
        return COLOUR_ONLY(
            crab=crab, colour=colour_words(rule), card=card, card_colour=colour_words(card.colour)
        )
    neighbour = _neighbour(stack)
    if neighbour is None:
        return None
    roofed = _roofed(stack)
    if rule == "alternate" and card.colour == neighbour.colour:
        alternates = ALTERNATES_UNDER if roofed else ALTERNATES_ON
        return alternates(
            crab=crab, card=card, neighbour=neighbour, colour=colour_words(_other(card.colour))
        )
    if roofed and card.number <= neighbour.number:
        return ROOF_NOT_HIGHER(crab=crab, neighbour=neighbour, card=card)
    if not roofed and card.number > neighbour.number:
        return TOO_HIGH(card=card, neighbour=neighbour, crab=crab)
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


def colour_rule_words(crab: int) -> Text | str:
    """Crab ``crab``'s colour rule as the page names it: "green", "alternate", "pink"."""
    rule = COLOUR_RULES[crab]
    return ALTERNATE() if rule == "alternate" else colour_words(rule)


def no_crab_takes(cards: Sequence[str]) -> Text:
    """ "No crab takes green 3 or pink 9 now.": the row cards no crab takes (as written)."""
    said = [YADOKARICK.parse(card, "card") for card in cards]
    return NO_CRAB_TAKES(cards=chained(said, OR))


def crab_rules(state: SoloState) -> tuple[Text, ...]:
    """For each crab, from the left, what it accepts now ("pink, 17 or lower")."""
    rules: list[Text] = []
    for crab, stack in enumerate(state.crabs, start=1):
        needed = _colour_needed(crab, stack)
        colour = colour_words(needed) if needed else None
        neighbour = _neighbour(stack)
        if neighbour is None:
            rules.append(TAKES_COLOUR_ANY(colour=colour) if colour else TAKES_ANY())
        elif _roofed(stack) and neighbour.number >= HIGHEST:
            rules.append(TAKES_NOTHING(highest=HIGHEST))
        elif _roofed(stack):
            rules.append(TAKES_ABOVE(colour=colour, number=neighbour.number))
        else:
            rules.append(TAKES_AT_MOST(colour=colour, number=neighbour.number))
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


def score_note(state: SoloState) -> Text:
    """The score as a sum: "face up 60 - face down 12 = 48", with a minus sign."""
    up, down = _total(state, state.scored), _total(state, state.penalty)
    return SCORE_NOTE(up=up, down=down, score=Signed(up - down))


def _step(state: SoloState) -> Step:
    if state.finished:
        return "over"
    if len(state.row) < ROW_LENGTH and not decks_empty(state):
        return "layout" if len(state.drawn) < ROW_LENGTH else "refill"
    return "play"


def _refill_text(state: SoloState) -> Text:
    left = deck_left(state)
    open_decks = [colour for colour in COLOURS if left[colour]]
    if len(open_decks) == len(COLOURS):
        return REFILL_EITHER(length=ROW_LENGTH)
    empty = [colour for colour in COLOURS if not left[colour]]
    return REFILL_ONE(
        length=ROW_LENGTH, colour=colour_words(open_decks[0]), empty=colour_words(empty[0])
    )


def expected(state: SoloState) -> str:
    """What the player enters next, as a sentence."""
    step = state.step
    if step == "over":
        return FINAL_SCORE(note=score_note(state))
    if step == "layout":
        return LAY_OUT(number=len(state.row) + 1, length=ROW_LENGTH)
    if step == "refill":
        return _refill_text(state)
    give_up = any(state.crabs)
    if decks_empty(state):
        move = PLACE_FROM_ROW_OR_GIVE_UP() if give_up else PLACE_FROM_ROW()
    else:
        move = TAKE_FROM_ROW_OR_GIVE_UP() if give_up else TAKE_FROM_ROW()
    if state.offer:
        return sentences(BONUS_ON_OFFER(cards=one_of(state.offer)), move)
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


def _where(state: SoloState, card: Card) -> Text:
    """Where a card is now, as the end of "it is ..."."""
    if card in state.row:
        return IN_ROW()
    for crab, stack in enumerate(state.crabs, start=1):
        if card in stack:
            return ON_CRAB(crab=crab)
    if card in state.scored:
        return IN_SCORE()
    if card in state.penalty:
        return IN_PENALTY()
    if card in state.drawn:
        return OUT_OF_PLAY()
    return IN_DECK(colour=colour_words(card.colour))


def _points_text(state: SoloState, cards: Sequence[Card]) -> Text:
    """ "3 points" for one card, "7 points (2 + 3 + 2)" for several: the sizes added."""
    points = POINTS(count=_total(state, cards))
    if len(cards) == 1:
        return points
    return POINTS_ADDED(points=points, sizes=chained([_size(state, card) for card in cards], PLUS))


# --- Rules ---------------------------------------------------------------------


def _check_card(card: Card, field: str = "card") -> Card:
    if card.colour not in COLOURS or YADOKARICK.copies_of(card) == 0:
        raise IllegalAction(NOT_HOUSE_CARD(card=card), field)
    if card.number == LEFT_OUT:
        raise IllegalAction(NO_THIRTIES(card=card), field)
    return card


def _check_crab(crab: int) -> int:
    if not isinstance(crab, int) or isinstance(crab, bool) or not 1 <= crab <= CRABS:
        raise IllegalAction(NO_SUCH_CRAB(crab=crab, crabs=CRABS), "crab")
    return crab


def _not_now(state: SoloState, doing: Text) -> IllegalAction:
    """Why a take, bonus or give-up cannot happen at this step."""
    if state.step == "layout":
        return IllegalAction(LAY_OUT_FIRST(drawn=len(state.row), length=ROW_LENGTH), "type")
    return IllegalAction(REFILL_FIRST(count=len(state.row), length=ROW_LENGTH, doing=doing), "type")


def _game_over(state: SoloState) -> IllegalAction:
    return IllegalAction(OVER(score=Signed(score(state))), "type")


def _settle(state: SoloState, told: list[str]) -> SoloState:
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
        told.append(GAME_ENDS(note=score_note(ended)))
        return evolve(ended, last_ruling=sentences(*told))
    settled = evolve(state, step=_step(state))
    told.append(expected(settled))
    return evolve(settled, last_ruling=sentences(*told))


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
            raise IllegalAction(ROW_FULL(length=ROW_LENGTH), "type")
        raise IllegalAction(NOTHING_TO_DRAW(), "type")
    if not deck_left(state)[card.colour]:
        raise IllegalAction(
            DECK_EMPTY(colour=colour_words(card.colour), other=colour_words(_other(card.colour))),
            "card",
        )
    if card in state.drawn:
        raise IllegalAction(DRAWN_ALREADY(card=card, where=_where(state, card)), "card")
    sizes = learn_size(state.sizes, card, action.size, "size")
    refill = state.step == "refill"
    row = (*state.row, card)
    drawn = evolve(state, sizes=sizes, row=row, drawn=state.drawn | {card}, offer=())
    size = sizes[card]
    if not refill:
        laid = LAID_OUT(card=card, size=size, number=len(row), length=ROW_LENGTH)
        return _settle(drawn, [laid])
    left = deck_left(drawn)[card.colour]
    told: list[str] = [REFILLS(card=card, size=size, count=left, colour=colour_words(card.colour))]
    run = _run(row, card)
    if len(run) > 1:
        others = all_of(other for other in run if other != card)
        told.append(RUN_BONUS(card=card, others=others, run=one_of(run)))
        drawn = evolve(drawn, offer=run)
    return _settle(drawn, told)


def _placement_text(crab: int, stack: tuple[Card, ...], card: Card) -> Text:
    """Where the card went and why the rules allow it."""
    rule = COLOUR_RULES[crab]
    neighbour = _neighbour(stack)
    if neighbour is None:
        if rule == "alternate":
            return STARTS_EITHER(card=card, crab=crab)
        return STARTS_ONLY(card=card, crab=crab, colour=colour_words(rule))
    if rule == "alternate":
        colours = FOLLOWS(colour=colour_words(card.colour), other=colour_words(neighbour.colour))
    else:
        colours = ONLY(colour=colour_words(rule))
    if _roofed(stack):
        return UNDER_ROOF(
            card=card, crab=crab, colours=colours, number=card.number, neighbour=neighbour
        )
    compared = ON_TOP_SAME if card.number == neighbour.number else ON_TOP_LOWER
    return compared(
        card=card,
        crab=crab,
        neighbour=neighbour,
        colours=colours,
        number=card.number,
        other=neighbour.number,
    )


def _passed_up(state: SoloState) -> list[str]:
    if not state.offer:
        return []
    return [PASSED_UP(cards=one_of(state.offer))]


def _apply_take(state: SoloState, action: Take) -> SoloState:
    card = _check_card(action.card)
    crab = _check_crab(action.crab)
    if state.step != "play":
        raise _not_now(state, TAKING())
    if card not in state.row:
        raise IllegalAction(NOT_IN_ROW(card=card, where=_where(state, card)), "card")
    stack = state.crabs[crab - 1]
    why_not = refusal(crab, stack, card)
    if why_not is not None:
        raise IllegalAction(why_not, "crab")
    told = [*_passed_up(state), _placement_text(crab, stack, card)]
    placed = _placed(stack, card)
    if is_roof(card) and not _roofed(stack):
        told.append(ROOF_CARD(card=card, crab=crab, body=placed[0]))
    row = tuple(other for other in state.row if other != card)
    scored, events = state.scored, state.events
    if len(placed) == HOUSE_CARDS:
        points = _total(state, placed)
        told.append(
            COMPLETE(
                crab=crab,
                length=HOUSE_CARDS,
                cards=all_of(placed),
                points=_points_text(state, placed),
            )
        )
        scored = (*scored, *placed)
        events = (*events, Scoring("house", crab, placed, points))
        placed = ()
    else:
        told.append(CRAB_HOLDS(crab=crab, count=len(placed), length=HOUSE_CARDS))
    crabs = tuple(placed if index == crab - 1 else other for index, other in enumerate(state.crabs))
    taken = evolve(state, row=row, crabs=crabs, scored=scored, events=events, offer=())
    told.append(SCORE(score=Signed(score(taken))))
    return _settle(taken, told)


def _apply_bonus(state: SoloState, action: Bonus) -> SoloState:
    card = _check_card(action.card)
    if state.step != "play" or not state.offer:
        raise IllegalAction(NO_BONUS(), "card")
    if card not in state.offer:
        raise IllegalAction(NOT_IN_RUN(card=card, cards=one_of(state.offer)), "card")
    points = _size(state, card)
    row = tuple(other for other in state.row if other != card)
    taken = evolve(
        state,
        row=row,
        scored=(*state.scored, card),
        events=(*state.events, Scoring("bonus", None, (card,), points)),
        offer=(),
    )
    told: list[str] = [
        BONUS_FACE_UP(card=card, points=POINTS(count=points)),
        SCORE(score=Signed(score(taken))),
    ]
    return _settle(taken, told)


def _apply_give_up(state: SoloState, action: GiveUp) -> SoloState:
    crab = _check_crab(action.crab)
    if state.step != "play":
        raise _not_now(state, GIVING_UP())
    stack = state.crabs[crab - 1]
    if not stack:
        raise IllegalAction(NOTHING_TO_GIVE_UP(crab=crab), "crab")
    points = _total(state, stack)
    crabs = tuple(() if index == crab - 1 else other for index, other in enumerate(state.crabs))
    given = evolve(
        state,
        crabs=crabs,
        penalty=(*state.penalty, *stack),
        events=(*state.events, Scoring("give-up", crab, stack, -points)),
        offer=(),
    )
    told = [
        *_passed_up(state),
        GIVEN_UP(
            crab=crab,
            cards=all_of(stack),
            points=_points_text(state, stack),
            count=len(stack),
        ),
        SCORE(score=Signed(score(given))),
    ]
    return _settle(given, told)


def _describe_draw(draw: Draw) -> Text:
    if draw.size is None:
        return LOG_DRAW(card=draw.card)
    return LOG_DRAW_SIZED(card=draw.card, size=draw.size)


def score_rows(state: SoloState) -> list[ScoreRow]:
    """One row per change of the score (house, bonus, give-up), with the running total."""
    rows: list[ScoreRow] = []
    total = 0
    for number, event in enumerate(state.events, start=1):
        total += event.points
        if event.kind == "house":
            note = NOTE_HOUSE(crab=event.crab, cards=all_of(event.cards))
        elif event.kind == "bonus":
            note = NOTE_BONUS(card=event.cards[0])
        else:
            note = NOTE_GIVE_UP(crab=event.crab, cards=all_of(event.cards))
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
        on(Take, _apply_take, lambda take: LOG_TAKE(card=take.card, crab=take.crab)),
        on(Bonus, _apply_bonus, lambda bonus: LOG_BONUS(card=bonus.card)),
        on(GiveUp, _apply_give_up, lambda give_up: LOG_GIVE_UP(crab=give_up.crab)),
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
