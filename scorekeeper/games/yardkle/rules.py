"""Yardkle, a Farkle variant: dice scoring and the turn-by-turn rules.

Players roll real dice and type them in; the engine scores each roll, checks
what a player sets aside, and keeps the turn totals, the entry threshold, hot
dice and the final round. Rule sheet: shared/rules/yardkle.txt and NOTES.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import product
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, with_config

from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask
from scorekeeper.games.base import (
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    int_option,
    is_digits,
    parse_whole_number,
    rank_by_score,
)
from scorekeeper.games.engine import CHOICES, GAME_OVER, Engine, on
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve
from scorekeeper.games.words import (
    THEN,
    Grouped,
    Listing,
    Phrase,
    Text,
    all_of,
    counted,
    in_turn,
    phrase,
)

FACES = (1, 2, 3, 4, 5, 6)
ALL_DICE = 6
MAX_TURN_POINTS = 1_000_000
POINT_STEP = 50

# --- What the game says ------------------------------------------------------
#
# Every sentence the engine says is one of these phrases, said with its values: a player's
# name, the dice as typed ("1 1 5"), a number, a combo's name, or another phrase.

TITLE = phrase("yardkle.title", "Yardkle")

# How many of a face or of a combo, as a sentence says it ("only two 3s", "two single 1s").
NUMBER_WORDS = (
    phrase("yardkle.number-none", "no"),
    phrase("yardkle.number-one", "one"),
    phrase("yardkle.number-two", "two"),
    phrase("yardkle.number-three", "three"),
    phrase("yardkle.number-four", "four"),
    phrase("yardkle.number-five", "five"),
    phrase("yardkle.number-six", "six"),
)

# The scorecard's combos.
SINGLE = phrase("yardkle.combo.single", "single {face}")
SINGLES = phrase("yardkle.combo.singles", "single {face}s")
THREE_OF_A_KIND = phrase("yardkle.combo.three-of-a-kind", "three {face}s")
SIX_OF_A_KIND = phrase("yardkle.combo.six-of-a-kind", "six of a kind")
FOUR_WITH_A_PAIR = phrase("yardkle.combo.four-of-a-kind-with-a-pair", "four of a kind with a pair")
TWO_TRIPLETS = phrase("yardkle.combo.two-triplets", "two triplets")
THREE_PAIRS = phrase("yardkle.combo.three-pairs", "three pairs")
STRAIGHT = phrase("yardkle.combo.straight", "1-2-3-4-5-6")
# A combo scored more than once in one set-aside ("two single 1s"); a single's name for
# more than one is its own (SINGLES), any other one's COMBOS (no best split repeats one).
COMBO_REPEATED = phrase("yardkle.combo-repeated", "{number} {combo}")
COMBOS = phrase("yardkle.combos", "{combo}s")
COMBO_POINTS = phrase("yardkle.combo-points", "{combo} ({points})")

DICE = counted("yardkle.dice", "{count} die", "{count} dice")
# Two sentences (or clauses) said one after the other.

# Refusals of dice as typed.
DICE_NOT_A_LIST = phrase(
    "yardkle.dice-not-a-list", "Enter the dice as a list of numbers from 1 to 6."
)
DIE_NOT_A_FACE = phrase("yardkle.die-not-a-face", "Die {position} is {given}: a die shows 1 to 6.")
KEPT_DIE_NOT_A_FACE = phrase(
    "yardkle.kept-die-not-a-face", "Kept die {position} is {given}: a die shows 1 to 6."
)
ROLL_SIZE = phrase("yardkle.roll-size", "A roll has 1 to 6 dice; you entered {count}.")
KEEP_SIZE = phrase("yardkle.keep-size", "At most 6 dice can be set aside; you entered {count}.")
BANK_NOT_A_FLAG = phrase("yardkle.bank-not-true-or-false", "bank must be true or false.")
KEEP_SOMETHING = phrase("yardkle.keep-something", "Set aside at least one scoring die.")
TURN_TOTAL_LABEL = phrase("yardkle.turn-total-label", "The turn total")
# What a player is asked for when an action leaves it out ("Enter the dice rolled.").
ASK_DICE_ROLLED = phrase("yardkle.ask.dice-rolled", "the dice rolled")
ASK_DICE_SET_ASIDE = phrase("yardkle.ask.dice-set-aside", "the dice set aside")
ASK_TURN_TOTAL = phrase("yardkle.ask.turn-total", "the turn total")

# Why kept dice cannot all score: a clause ("{name} cannot set aside 2 2: ..."), or, said
# on its own (the dice calculator), a sentence whose first clause opens with a capital.
NO_SUCH_FACE = phrase("yardkle.keep.no-such-face", "there is no {face} in the roll")
NO_SUCH_FACE_OPENING = phrase("yardkle.keep.no-such-face.opening", "There is no {face} in the roll")
ONLY_ONE_OF_A_FACE = phrase("yardkle.keep.only-one-of-a-face", "the roll has only one {face}")
ONLY_ONE_OF_A_FACE_OPENING = phrase(
    "yardkle.keep.only-one-of-a-face.opening", "The roll has only one {face}"
)
TOO_FEW_OF_A_FACE = phrase("yardkle.keep.too-few-of-a-face", "the roll has only {number} {face}s")
TOO_FEW_OF_A_FACE_OPENING = phrase(
    "yardkle.keep.too-few-of-a-face.opening", "The roll has only {number} {face}s"
)
LONE_DIE = phrase("yardkle.keep.lone-die", "a {face} on its own scores nothing")
LONE_DIE_OPENING = phrase("yardkle.keep.lone-die.opening", "A {face} on its own scores nothing")
PAIR = phrase(
    "yardkle.keep.pair", "two {face}s score nothing: {face}s score only as three of a kind"
)
PAIR_OPENING = phrase(
    "yardkle.keep.pair.opening", "Two {face}s score nothing: {face}s score only as three of a kind"
)
FOURTH_DIE = phrase(
    "yardkle.keep.fourth-die",
    "the fourth {face} scores nothing: three {face}s score, the fourth does not",
)
FOURTH_DIE_OPENING = phrase(
    "yardkle.keep.fourth-die.opening",
    "The fourth {face} scores nothing: three {face}s score, the fourth does not",
)
FOURTH_AND_FIFTH_DICE = phrase(
    "yardkle.keep.fourth-and-fifth-dice",
    "the fourth and fifth {face}s score nothing: three {face}s score, the other two do not",
)
FOURTH_AND_FIFTH_DICE_OPENING = phrase(
    "yardkle.keep.fourth-and-fifth-dice.opening",
    "The fourth and fifth {face}s score nothing: three {face}s score, the other two do not",
)
SOME_SCORE_NOTHING = phrase("yardkle.keep.some-score-nothing", "some of these dice score nothing")
SOME_SCORE_NOTHING_OPENING = phrase(
    "yardkle.keep.some-score-nothing.opening", "Some of these dice score nothing"
)
MORE_REASONS = phrase("yardkle.keep.more-reasons", "{first}; {second}")
WHOLE_ROLL = phrase(
    "yardkle.keep.whole-roll", "{reasons} (to score the {combo}, set aside all six dice)"
)
KEEP_REFUSED = phrase("yardkle.keep.refused", "{reasons}.")

# The turn, roll by roll.
FIRST_PLAYER = phrase("yardkle.rolls-first", "{name} rolls first.")
NEXT_PLAYER = phrase("yardkle.rolls-next", "{name} rolls next.")
LAST_TURN = phrase("yardkle.rolls-next-last-turn", "{name} rolls next, for a last turn.")
FINAL_ROUND = phrase(
    "yardkle.final-round", "{name} reached {total}: final round, everyone else has one more turn."
)
WINS = phrase("yardkle.game-over.wins", "Game over: {name} wins with {points}.")
SHARE_THE_WIN = phrase(
    "yardkle.game-over.share-the-win", "Game over: {names} share the win with {points}."
)
HOT_DICE_COUNT = phrase(
    "yardkle.hot-dice-count",
    "{name} rolls all six dice again (hot dice): enter 6 dice, not {entered}.",
)
SIX_DICE_COUNT = phrase(
    "yardkle.six-dice-count", "{name} rolls 6 dice now: enter 6 dice, not {entered}."
)
DICE_LEFT_COUNT = counted(
    "yardkle.dice-left-count",
    "{name} rolls {left} now ({count} is set aside): enter {left}, not {entered}.",
    "{name} rolls {left} now ({count} are set aside): enter {left}, not {entered}.",
)
SET_ASIDE_FIRST = phrase(
    "yardkle.set-aside-first", "Set aside dice from the last roll first: {name} rolled {dice}."
)
YARDKLE = phrase("yardkle.yardkle", "Yardkle! {name} rolled {dice}: no scoring die; {lost}.")
TURN_TOTAL_LOST = phrase("yardkle.turn-total-lost", "the {points} of this turn is lost")
TURN_SCORES_NOTHING = phrase("yardkle.turn-scores-nothing", "the turn scores nothing")
ROLLED = phrase("yardkle.rolled", "{name} rolled {dice}: {combos} can score up to {points}.")
NO_ROLL_TO_KEEP_FROM = phrase(
    "yardkle.no-roll-to-keep-from", "{name} has no roll to set dice aside from: roll first."
)
MUST_KEEP_SOMETHING = phrase(
    "yardkle.must-keep-something", "{name} must set aside at least one scoring die."
)
CANNOT_KEEP = phrase("yardkle.cannot-keep", "{name} cannot set aside {dice}: {reasons}.")
KEPT = phrase(
    "yardkle.kept", "{name} set aside {combos} for {points}: turn total {total}, {left} to roll."
)
# All six dice set aside: the set-aside, then the hot dice (two sentences).
KEPT_ALL_SIX = phrase(
    "yardkle.kept-all-six", "{name} set aside {combos} for {points}: turn total {total}."
)
HOT_DICE = phrase(
    "yardkle.hot-dice",
    "Hot dice! All six scored: {name} must roll all six again before stopping.",
)
BANKS = phrase("yardkle.banks", "{name} banks {points}: total {total}.")
BANKS_AND_ENTERS = phrase(
    "yardkle.banks-and-enters", "{name} banks {points} and is on the scorecard: total {total}."
)
TOTAL_NOT_WHOLE = phrase("yardkle.turn-total-not-whole", "The turn total must be a whole number.")
TOTAL_NEGATIVE = phrase(
    "yardkle.turn-total-negative", "A turn total cannot be negative; you entered {points}."
)
TOTAL_TOO_HIGH = phrase(
    "yardkle.turn-total-too-high", "A turn total is at most {most}; you entered {points}."
)
TOTAL_NOT_A_STEP = phrase(
    "yardkle.turn-total-not-a-step", "A turn total is a multiple of 50; {points} is not."
)
TURN_UNDER_WAY = phrase(
    "yardkle.turn-under-way",
    "Finish or undo the turn in progress first: {name} has already rolled this turn.",
)
NOT_ON_THE_SCORECARD = phrase(
    "yardkle.not-on-the-scorecard",
    "{name} is not on the scorecard yet: a turn must bank at least {threshold}.",
)
ENTERED_A_TURN = phrase(
    "yardkle.entered-a-turn", "{name} entered a turn of {points}: total {total}."
)
ENTERED_NOTHING = phrase(
    "yardkle.entered-a-scoreless-turn", "{name} entered a scoreless turn: total {total}."
)
KEEP_BEFORE_STOPPING = phrase(
    "yardkle.keep-before-stopping",
    "{name} must set aside scoring dice from the last roll before stopping.",
)
NOTHING_TO_BANK = phrase(
    "yardkle.nothing-to-bank", "Nothing to bank yet: {name} has no points this turn."
)
HOT_DICE_ROLL_ON = phrase(
    "yardkle.hot-dice-roll-on",
    "All six dice scored: {name} must roll all six again before stopping.",
)
UNDER_THE_THRESHOLD = phrase(
    "yardkle.under-the-threshold",
    "{name} needs {threshold} in one turn to get on the scorecard; "
    "this turn has {points}: roll on.",
)

# The history's short lines.
DESCRIBE_ROLL = phrase("yardkle.history.roll", "roll {dice}")
DESCRIBE_KEEP = phrase("yardkle.history.keep", "set aside {dice}")
DESCRIBE_KEEP_AND_BANK = phrase("yardkle.history.keep-and-bank", "set aside {dice} and bank")
DESCRIBE_BANK = phrase("yardkle.history.bank", "bank")
DESCRIBE_TOTAL = phrase("yardkle.history.total", "turn total {points}")

# The score sheet's note of each turn.
NOTE_BANKED = phrase("yardkle.note.banked", "banked")
NOTE_YARDKLE = phrase("yardkle.note.yardkle", "Yardkle")
NOTE_QUICK = phrase("yardkle.note.entered-as-a-total", "entered as a total")

# The options.
ENTRY_THRESHOLD = phrase("yardkle.option.entry-threshold", "Entry threshold")
ENTRY_THRESHOLD_HELP = phrase(
    "yardkle.option.entry-threshold.help",
    "Points a player must make in one turn to get on the scorecard (0 = none).",
)
# A summary's value is written where the words say "{}" (OptionSpec.summary).
ENTRY_THRESHOLD_SUMMARY = phrase(
    "yardkle.option.entry-threshold.summary", "entry threshold {value}"
)
WINNING_SCORE = phrase("yardkle.option.final-round-score", "Final-round score")
WINNING_SCORE_HELP = phrase(
    "yardkle.option.final-round-score.help",
    "A player who banks this many points starts the final round.",
)
WINNING_SCORE_SUMMARY = phrase("yardkle.option.final-round-score.summary", "final round at {value}")


# --- Scoring -----------------------------------------------------------------


@dataclass(frozen=True)
class Combo:
    """One scoring combination of the scorecard, with its dice sorted; its name is what
    the table says, which the API gives in English as ``name`` and in the asked language
    as ``label`` (scorekeeper.web.api.worded)."""

    name: Text
    dice: tuple[int, ...]
    points: int

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "dice": list(self.dice), "points": self.points}


@dataclass(frozen=True)
class DiceScore:
    """The best split of some dice into combos; combos highest points first."""

    points: int
    combos: tuple[Combo, ...]
    yardkle: bool

    @property
    def dice(self) -> tuple[int, ...]:
        """Every die the combos use, sorted."""
        return tuple(sorted(die for combo in self.combos for die in combo.dice))

    def to_json(self) -> dict[str, object]:
        return {
            "points": self.points,
            "combos": [combo.to_json() for combo in self.combos],
            "yardkle": self.yardkle,
        }


Counts = tuple[int, ...]
Split = tuple[Combo, ...]

_SINGLES = {
    1: Combo(SINGLE(face=1), (1,), 100),
    5: Combo(SINGLE(face=5), (5,), 50),
}


def _triple(face: int) -> Combo:
    return Combo(THREE_OF_A_KIND(face=face), (face,) * 3, 1000 if face == 1 else face * 100)


def _counts(dice: Sequence[int]) -> Counts:
    return tuple(list(dice).count(face) for face in FACES)


def _without(counts: Counts, face: int, number: int) -> Counts:
    return tuple(count - number if i == face - 1 else count for i, count in enumerate(counts))


def _dice_of(counts: Counts) -> tuple[int, ...]:
    return tuple(face for face in FACES for _ in range(counts[face - 1]))


_SIX_DICE_TABLE = {
    (6,): (SIX_OF_A_KIND(), 3000),
    (4, 2): (FOUR_WITH_A_PAIR(), 3000),
    (3, 3): (TWO_TRIPLETS(), 2500),
    (2, 2, 2): (THREE_PAIRS(), 1500),
    (1, 1, 1, 1, 1, 1): (STRAIGHT(), 1500),
}


def _six_dice_combos(counts: Counts) -> list[Combo]:
    """The combos that need all six dice of one roll and match these six dice."""
    shape = sorted((count for count in counts if count), reverse=True)
    dice = _dice_of(counts)
    found = _SIX_DICE_TABLE.get(tuple(shape))
    return [Combo(found[0], dice, found[1])] if found else []


def _points(split: Split) -> int:
    return sum(combo.points for combo in split)


@cache
def _best_full(counts: Counts) -> Split | None:
    """The best split that uses every die, or None when some die cannot score."""
    if not any(counts):
        return ()
    options: list[Split] = []
    # Six dice in hand means the whole roll: a roll never has more than six.
    if sum(counts) == ALL_DICE:
        options.extend((combo,) for combo in _six_dice_combos(counts))
    # The lowest die must belong to a triple or be a single; that covers every split.
    face = next(face for face in FACES if counts[face - 1])
    if counts[face - 1] >= 3:
        rest = _best_full(_without(counts, face, 3))
        if rest is not None:
            options.append((_triple(face), *rest))
    if face in _SINGLES:
        rest = _best_full(_without(counts, face, 1))
        if rest is not None:
            options.append((_SINGLES[face], *rest))
    return max(options, key=_points, default=None)


@cache
def _best_any(counts: Counts) -> Split:
    """The best split of some of these dice; the others are left over."""
    best = _best_full(counts)
    candidates = [] if best is None else [best]
    for face in FACES:
        if counts[face - 1]:
            candidates.append(_best_any(_without(counts, face, 1)))
    # Strictly more points only: an equal split that uses more dice stays ahead.
    result: Split = ()
    for split in candidates:
        if _points(split) > _points(result):
            result = split
    return result


def _dice_score(split: Split) -> DiceScore:
    combos = tuple(sorted(split, key=lambda combo: (-combo.points, combo.dice)))
    return DiceScore(_points(combos), combos, yardkle=not combos)


# --- Dice input --------------------------------------------------------------


def _parse_die(raw: object) -> int | None:
    if isinstance(raw, bool):
        return None
    if isinstance(raw, int):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        if len(text) == 1 and is_digits(text):
            return int(text)
    return None


def _dice_list(raw: object, field: str) -> list[object]:
    if isinstance(raw, (str, bytes)) or not isinstance(raw, Sequence):
        raise IllegalAction(DICE_NOT_A_LIST(), field)
    return list(raw)


def _parse_dice(items: list[object], field: str, refusal: Phrase) -> tuple[int, ...]:
    """The dice as numbers; ``refusal`` says which die is not one (a die rolled or kept)."""
    dice: list[int] = []
    for position, item in enumerate(items, start=1):
        value = _parse_die(item)
        if value is None:
            raise IllegalAction(refusal(position=position, given=repr(item)[:20]), field)
        if not 1 <= value <= 6:
            raise IllegalAction(refusal(position=position, given=value), field)
        dice.append(value)
    return tuple(dice)


def _parse_roll(raw: object, field: str = "dice") -> tuple[int, ...]:
    items = _dice_list(raw, field)
    if not 1 <= len(items) <= ALL_DICE:
        raise IllegalAction(ROLL_SIZE(count=len(items)), field)
    return _parse_dice(items, field, DIE_NOT_A_FACE)


def _parse_kept(raw: object, field: str = "keep") -> tuple[int, ...]:
    items = _dice_list(raw, field)
    if len(items) > ALL_DICE:
        raise IllegalAction(KEEP_SIZE(count=len(items)), field)
    return _parse_dice(items, field, KEPT_DIE_NOT_A_FACE)


def _missing_die(roll: tuple[int, ...], kept: tuple[int, ...], opening: bool) -> Text | None:
    for face in FACES:
        have = roll.count(face)
        if kept.count(face) > have:
            if have == 0:
                return (NO_SUCH_FACE_OPENING if opening else NO_SUCH_FACE)(face=face)
            if have == 1:
                return (ONLY_ONE_OF_A_FACE_OPENING if opening else ONLY_ONE_OF_A_FACE)(face=face)
            too_few = TOO_FEW_OF_A_FACE_OPENING if opening else TOO_FEW_OF_A_FACE
            return too_few(number=NUMBER_WORDS[have](), face=face)
    return None


def _leftover_reason(face: int, number: int, opening: bool) -> Text:
    if number == 1:
        return (LONE_DIE_OPENING if opening else LONE_DIE)(face=face)
    if number == 2:
        return (PAIR_OPENING if opening else PAIR)(face=face)
    if number == 4:
        return (FOURTH_DIE_OPENING if opening else FOURTH_DIE)(face=face)
    return (FOURTH_AND_FIFTH_DICE_OPENING if opening else FOURTH_AND_FIFTH_DICE)(face=face)


def _keep_refusal(
    roll: tuple[int, ...], kept: tuple[int, ...], opening: bool = False
) -> Text | None:
    """Why these kept dice cannot all score (a clause, or with ``opening`` one that opens
    a sentence), or None when they can."""
    missing = _missing_die(roll, kept, opening)
    if missing:
        return missing
    counts = _counts(kept)
    if _best_full(counts) is not None:
        return None
    # Only 1s and 5s score alone; any other face scores only in threes (or in a
    # six-dice combo, which needs the whole roll set aside).
    leftover = [face for face in FACES if face not in _SINGLES and counts[face - 1] % 3]
    if leftover:
        first, *others = leftover
        text = _leftover_reason(first, counts[first - 1], opening)
        for face in others:
            text = MORE_REASONS(first=text, second=_leftover_reason(face, counts[face - 1], False))
    else:
        text = (SOME_SCORE_NOTHING_OPENING if opening else SOME_SCORE_NOTHING)()
    whole = _six_dice_combos(_counts(roll)) if len(roll) == ALL_DICE else []
    if whole:
        text = WHOLE_ROLL(reasons=text, combo=whole[0].name)
    return text


def score_roll(dice: Sequence[object]) -> DiceScore:
    """The best score of one roll of 1 to 6 dice; dice that score nothing may be left."""
    return _dice_score(_best_any(_counts(_parse_roll(dice))))


def score_keep(roll: Sequence[int], keep: Sequence[object]) -> DiceScore:
    """The points of exactly the kept dice, every one of which must score."""
    rolled = _parse_roll(roll)
    kept = _parse_kept(keep)
    if not kept:
        raise IllegalAction(KEEP_SOMETHING(), "keep")
    refusal = _keep_refusal(rolled, kept, opening=True)
    if refusal:
        raise IllegalAction(KEEP_REFUSED(reasons=refusal), "keep")
    return _dice_score(_best_full(_counts(kept)) or ())


def best_keep(roll: Sequence[int]) -> tuple[int, ...]:
    """The dice of the roll's best split, sorted: the app's suggestion."""
    return score_roll(roll).dice


# --- Actions and state -------------------------------------------------------


Die = Annotated[int, Field(ge=1, le=6)]


def _check_bank(raw: object) -> bool:
    if not isinstance(raw, bool):
        raise IllegalAction(BANK_NOT_A_FLAG(), "bank")
    return raw


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Roll:
    """The dice a player just rolled, as they fell."""

    type: Literal["roll"] = field(default="roll", kw_only=True, repr=False)
    dice: Annotated[
        tuple[Die, ...],
        Field(min_length=1, max_length=ALL_DICE),
        Ask(ASK_DICE_ROLLED()),
        BeforeValidator(_parse_roll),
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Keep:
    """Scoring dice set aside from the waiting roll; bank=True stops right after."""

    type: Literal["keep"] = field(default="keep", kw_only=True, repr=False)
    dice: Annotated[
        tuple[Die, ...],
        Field(max_length=ALL_DICE),
        Ask(ASK_DICE_SET_ASIDE()),
        BeforeValidator(lambda raw: _parse_kept(raw, "dice")),
    ]
    bank: Annotated[bool, BeforeValidator(_check_bank)] = False


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Bank:
    """Stop and record the turn total."""

    type: Literal["bank"] = field(default="bank", kw_only=True, repr=False)


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class QuickTurn:
    """A whole turn entered as its total (the table kept track of the dice)."""

    type: Literal["total"] = field(default="total", kw_only=True, repr=False)
    # The bounds are the rules' (see _check_turn_points, applied with the turn).
    points: Annotated[
        int,
        Ask(ASK_TURN_TOTAL()),
        BeforeValidator(lambda raw: parse_whole_number(raw, TURN_TOTAL_LABEL(), "points")),
        Field(
            json_schema_extra={"minimum": 0, "maximum": MAX_TURN_POINTS, "multipleOf": POINT_STEP}
        ),
    ]


Action = Roll | Keep | Bank | QuickTurn

TurnResult = Literal["banked", "yardkle", "quick"]


@dataclass(frozen=True)
class Turn:
    """The turn in progress: points so far, dice still to roll, a roll waiting."""

    total: int
    dice_left: int
    pending_roll: tuple[int, ...] | None
    hot_dice: bool
    rolls: int


NEW_TURN = Turn(total=0, dice_left=ALL_DICE, pending_roll=None, hot_dice=False, rolls=0)


@dataclass(frozen=True)
class TurnRecord:
    """One finished turn: quick = entered as a total (0 = a scoreless turn); a Yardkle's
    ``lost`` is the turn's total that the roll lost (0 for every other turn)."""

    round: int
    seat: int
    points: int
    result: TurnResult
    lost: int = 0


@dataclass(frozen=True)
class Now:
    """The turns a table shows now: the round in progress (the last one once the game is
    over), its turns so far in playing order, and the newest turn (of the round before,
    when this one has none yet)."""

    round: int
    round_turns: tuple[TurnRecord, ...]
    last_turn: TurnRecord | None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    entry_threshold: int
    winning_score: int
    scores: tuple[int, ...]
    entered: tuple[bool, ...]
    current: int
    turn: Turn
    # Shared with the state before (GrowingTuple): a turn adds its record without a copy.
    turns: GrowingTuple[TurnRecord] = field(metadata=HISTORY)
    final_round_by: int | None
    finished: bool
    last_ruling: str

    def now(self) -> Now:
        """What the table needs of ``turns`` (history: see games.history)."""
        round_number = self.round_number
        return Now(
            round=round_number,
            round_turns=self.turns[(round_number - 1) * len(self.players) :],
            last_turn=self.turns[-1] if self.turns else None,
        )

    @property
    def round_number(self) -> int:
        """The round of the turn in progress (or of the last turn, once finished)."""
        played = len(self.turns) - (1 if self.finished else 0)
        return played // len(self.players) + 1

    @property
    def current_player(self) -> str:
        return self.players[self.current]

    @property
    def final_round(self) -> bool:
        return self.final_round_by is not None


def _num(number: int) -> Grouped:
    # House style: digit groups only from five digits on ("4350", "10,150").
    return Grouped(number, grouped_from=10_000)


def _dice_text(dice: Sequence[int]) -> str:
    # The dice as typed, the same in every language ("1 1 5").
    return " ".join(str(die) for die in dice)


def _dice_count(number: int) -> Text:
    return DICE(count=number)


def _combo_name(combo: Combo, times: int) -> str:
    """A combo's name, said ``times`` times ("two single 1s")."""
    if times == 1:
        return combo.name
    names = SINGLES(face=combo.dice[0]) if len(combo.dice) == 1 else COMBOS(combo=combo.name)
    return COMBO_REPEATED(number=NUMBER_WORDS[times](), combo=names)


def _combo_list(combos: Sequence[Combo], with_points: bool) -> Listing:
    phrases: list[object] = []
    for combo in dict.fromkeys(combos):
        times = combos.count(combo)
        name = _combo_name(combo, times)
        phrases.append(
            COMBO_POINTS(combo=name, points=combo.points * times) if with_points else name
        )
    return all_of(phrases)


def bank_refusal(state: State) -> Text | None:
    """Why the current player cannot stop now (a sentence), or None when they can."""
    name, turn = state.current_player, state.turn
    if state.finished:
        return GAME_OVER()
    if turn.pending_roll is not None:
        return KEEP_BEFORE_STOPPING(name=name)
    if turn.total == 0:
        return NOTHING_TO_BANK(name=name)
    if turn.hot_dice:
        return HOT_DICE_ROLL_ON(name=name)
    if not state.entered[state.current] and turn.total < state.entry_threshold:
        return UNDER_THE_THRESHOLD(
            name=name, threshold=_num(state.entry_threshold), points=_num(turn.total)
        )
    return None


def can_bank(state: State) -> bool:
    """Whether the current player may stop and record the turn total now."""
    return bank_refusal(state) is None


def can_enter_total(state: State) -> bool:
    """Whether a whole turn may be entered as a total (QuickTurn): nothing rolled yet."""
    return not state.finished and state.turn.rolls == 0


def suggested_keep(state: State) -> tuple[int, ...] | None:
    """The best dice to set aside from the waiting roll, or None when no roll waits."""
    pending = state.turn.pending_roll
    return None if pending is None else best_keep(pending)


def next_step(state: State) -> Literal["roll", "keep", "over"]:
    """What the app asks for next: a roll, a set-aside from the waiting roll, or nothing."""
    if state.finished:
        return "over"
    return "roll" if state.turn.pending_roll is None else "keep"


def _scoring_keeps(roll: tuple[int, ...]) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every set-aside the rules allow from ``roll``: (its points, its dice), each once."""
    for counts in product(*(range(count + 1) for count in _counts(roll))):
        split = _best_full(counts) if any(counts) else None
        if split is not None:
            yield _points(split), _dice_of(counts)


@dataclass(frozen=True)
class BankKeep:
    """A set-aside to stop with, and the turn total it banks."""

    dice: tuple[int, ...]
    total: int


def best_bank_keep(state: State) -> BankKeep | None:
    """The set-aside from the waiting roll to stop with, or None when none lets the turn stop.

    Setting aside and banking in one action is refused whole when the bank would
    be (hot dice, under the entry threshold). Among the set-asides that leave a
    turn that may stop, the one scoring most is the only one worth banking: more
    points never make a bank illegal, and which dice stay on the table does not
    matter once the turn stops. Ties go to the fewest dice, then the lowest.
    """
    turn, roll = state.turn, state.turn.pending_roll
    if roll is None:
        return None
    stoppable = [
        (points, dice)
        for points, dice in _scoring_keeps(roll)
        if bank_refusal(evolve(state, turn=_turn_after_keep(turn, points, len(dice)))) is None
    ]
    if not stoppable:
        return None
    points, dice = min(stoppable, key=lambda keep: (-keep[0], len(keep[1]), keep[1]))
    return BankKeep(dice, turn.total + points)


def _keep_bank_choices(state: State) -> tuple[bool, ...]:
    """The ``bank`` values a set-aside from the waiting roll can carry now: True only
    when some allowed set-aside leaves a turn that may stop (``best_bank_keep``)."""
    return (False,) if best_bank_keep(state) is None else (False, True)


def forced_keep(state: State) -> tuple[int, ...] | None:
    """The set-aside the rules leave the player, when the waiting roll allows exactly one
    and the turn cannot stop after it; None when the player has a choice (or no roll
    waits). The next roll may then come at once: it sets these dice aside first."""
    roll = state.turn.pending_roll
    if roll is None or _keep_bank_choices(state) != (False,):
        return None
    keeps = [dice for _points, dice in _scoring_keeps(roll)]
    return keeps[0] if len(keeps) == 1 else None


def dice_to_roll(state: State) -> int:
    """How many dice the next roll has: those left, after the forced set-aside if any."""
    forced = forced_keep(state)
    if forced is None:
        return state.turn.dice_left
    return _turn_after_keep(state.turn, 0, len(forced)).dice_left


def expected_actions(state: State) -> Expected:
    """What the engine accepts now, and whose move it is.

    The seat is always the player whose turn it is (the dice, the set-aside and
    the stop are theirs), None once the game is over. With no roll waiting:
    ``roll``, ``bank`` when the player may stop (``can_bank``) and ``total``
    while nothing is rolled this turn; with a roll waiting: ``keep``, whose
    ``choices`` are the values of its ``bank`` flag that some set-aside makes
    acceptable, and ``roll`` too when the set-aside is forced (``forced_keep``):
    nothing is left to choose, so the next roll sets it aside first. Dice and
    points are not listed: any roll of the dice left is accepted, and any
    multiple of 50 the entry threshold allows as a total.
    """
    step = next_step(state)
    if step == "over":
        return Expected(None, ())
    if step == "keep":
        keep = Accepts("keep", choices=_keep_bank_choices(state))
        if forced_keep(state) is not None:
            return Expected(state.current, (keep, ROLL))
        return Expected(state.current, (keep,))
    actions = [ROLL]
    if can_bank(state):
        actions.append(BANK)
    if can_enter_total(state):
        actions.append(TOTAL)
    return Expected(state.current, tuple(actions))


# The actions accepted with no roll waiting, made once: every answer lists them.
ROLL, BANK, TOTAL = Accepts("roll"), Accepts("bank"), Accepts("total")


def winning_seats(state: State) -> list[int]:
    """Every seat with the top score (ties share the win), whether finished or not."""
    top = max(state.scores)
    return [seat for seat, score in enumerate(state.scores) if score == top]


# --- Rules -------------------------------------------------------------------


def _game_over(state: State) -> Text:
    seats = winning_seats(state)
    top = _num(state.scores[seats[0]])
    if len(seats) == 1:
        return WINS(name=state.players[seats[0]], points=top)
    return SHARE_THE_WIN(names=all_of(state.players[s] for s in seats), points=top)


def _end_turn(state: State, points: int, result: TurnResult, ruling: Text, lost: int = 0) -> State:
    """Record the turn (``lost``: a Yardkle's lost total), start the final round or end
    the game, and pass the dice on."""
    seat, name = state.current, state.current_player
    scores = list(state.scores)
    scores[seat] += points
    entered = list(state.entered)
    entered[seat] = entered[seat] or points > 0
    sentences = [ruling]
    final_by = state.final_round_by
    if final_by is None and scores[seat] >= state.winning_score:
        final_by = seat
        if len(state.players) > 1:
            sentences.append(FINAL_ROUND(name=name, total=_num(scores[seat])))
    following = (seat + 1) % len(state.players)
    finished = final_by is not None and following == final_by
    turns = state.turns.plus(TurnRecord(state.round_number, seat, points, result, lost))

    def ended(ruling: str) -> State:
        return evolve(
            state,
            scores=tuple(scores),
            entered=tuple(entered),
            current=following,
            turn=NEW_TURN,
            turns=turns,
            final_round_by=final_by,
            finished=finished,
            last_ruling=ruling,
        )

    if finished:
        # The sentence of the game's end reads the final scores off the ended state.
        over = ended("")
        return evolve(over, last_ruling=in_turn(*sentences, _game_over(over)))
    if final_by is not None:
        sentences.append(LAST_TURN(name=state.players[following]))
    else:
        sentences.append(NEXT_PLAYER(name=state.players[following]))
    # One copy of the state, its ruling with it: every turn ends here, and each worker
    # applies every event of a session it keeps, its own and those it catches up on.
    return ended(in_turn(*sentences))


def _wrong_dice_count(state: State, entered: int) -> Text:
    name, left = state.current_player, state.turn.dice_left
    if state.turn.hot_dice:
        return HOT_DICE_COUNT(name=name, entered=entered)
    if left == ALL_DICE:
        return SIX_DICE_COUNT(name=name, entered=entered)
    aside = ALL_DICE - left
    return DICE_LEFT_COUNT(name=name, left=_dice_count(left), count=aside, entered=entered)


def _apply_roll(state: State, action: Roll) -> State:
    name, turn = state.current_player, state.turn
    if turn.pending_roll is not None:
        forced = forced_keep(state)
        if forced is None:
            raise IllegalAction(
                SET_ASIDE_FIRST(name=name, dice=_dice_text(turn.pending_roll)), "dice"
            )
        kept = _apply_keep(state, Keep(forced))
        rolled = _apply_roll(kept, action)
        return evolve(rolled, last_ruling=THEN(first=kept.last_ruling, second=rolled.last_ruling))
    dice = _parse_dice(_dice_list(action.dice, "dice"), "dice", DIE_NOT_A_FACE)
    if len(dice) != turn.dice_left:
        raise IllegalAction(_wrong_dice_count(state, len(dice)), "dice")
    score = _dice_score(_best_any(_counts(dice)))
    if score.yardkle:
        lost = TURN_TOTAL_LOST(points=_num(turn.total)) if turn.total else TURN_SCORES_NOTHING()
        ruling = YARDKLE(name=name, dice=_dice_text(dice), lost=lost)
        return _end_turn(state, 0, "yardkle", ruling, lost=turn.total)
    ruling = ROLLED(
        name=name,
        dice=_dice_text(dice),
        combos=_combo_list(score.combos, with_points=True),
        points=_num(score.points),
    )
    waiting = evolve(turn, pending_roll=dice, rolls=turn.rolls + 1, hot_dice=False)
    return evolve(state, turn=waiting, last_ruling=ruling)


def _turn_after_keep(turn: Turn, points: int, kept: int) -> Turn:
    """The turn once ``kept`` dice scoring ``points`` are set aside from the waiting roll."""
    left = turn.dice_left - kept
    hot = left == 0
    return Turn(turn.total + points, ALL_DICE if hot else left, None, hot, turn.rolls)


def _apply_keep(state: State, action: Keep) -> State:
    name, turn = state.current_player, state.turn
    if turn.pending_roll is None:
        raise IllegalAction(NO_ROLL_TO_KEEP_FROM(name=name), "keep")
    kept = _parse_kept(action.dice)
    if not kept:
        raise IllegalAction(MUST_KEEP_SOMETHING(name=name), "keep")
    refusal = _keep_refusal(turn.pending_roll, kept)
    if refusal:
        raise IllegalAction(CANNOT_KEEP(name=name, dice=_dice_text(kept), reasons=refusal), "keep")
    score = _dice_score(_best_full(_counts(kept)) or ())
    after = _turn_after_keep(turn, score.points, len(kept))
    total, left = after.total, turn.dice_left - len(kept)
    combos = _combo_list(score.combos, with_points=False)
    if after.hot_dice:
        kept_all = KEPT_ALL_SIX(
            name=name, combos=combos, points=_num(score.points), total=_num(total)
        )
        ruling = THEN(first=kept_all, second=HOT_DICE(name=name))
    else:
        ruling = KEPT(
            name=name,
            combos=combos,
            points=_num(score.points),
            total=_num(total),
            left=_dice_count(left),
        )
    kept_state = evolve(state, turn=after, last_ruling=ruling)
    return _apply_bank(kept_state, prefix=ruling) if action.bank else kept_state


def _apply_bank(state: State, prefix: Text | None = None) -> State:
    refusal = bank_refusal(state)
    if refusal:
        raise IllegalAction(refusal)
    name, total = state.current_player, state.turn.total
    new_score = state.scores[state.current] + total
    banks = BANKS
    if not state.entered[state.current] and state.entry_threshold:
        banks = BANKS_AND_ENTERS
    ruling = banks(name=name, points=_num(total), total=_num(new_score))
    if prefix is not None:
        ruling = THEN(first=prefix, second=ruling)
    return _end_turn(state, total, "banked", ruling)


def _check_turn_points(points: object) -> int:
    if isinstance(points, bool) or not isinstance(points, int):
        raise IllegalAction(TOTAL_NOT_WHOLE(), "points")
    if points < 0:
        raise IllegalAction(TOTAL_NEGATIVE(points=points), "points")
    if points > MAX_TURN_POINTS:
        raise IllegalAction(
            TOTAL_TOO_HIGH(most=_num(MAX_TURN_POINTS), points=_num(points)), "points"
        )
    if points % POINT_STEP:
        raise IllegalAction(TOTAL_NOT_A_STEP(points=points), "points")
    return points


def _apply_quick(state: State, action: QuickTurn) -> State:
    name = state.current_player
    if not can_enter_total(state):
        raise IllegalAction(TURN_UNDER_WAY(name=name), "points")
    points = _check_turn_points(action.points)
    if not state.entered[state.current] and 0 < points < state.entry_threshold:
        raise IllegalAction(
            NOT_ON_THE_SCORECARD(name=name, threshold=_num(state.entry_threshold)), "points"
        )
    new_score = state.scores[state.current] + points
    if points:
        ruling = ENTERED_A_TURN(name=name, points=_num(points), total=_num(new_score))
    else:
        ruling = ENTERED_NOTHING(name=name, total=_num(new_score))
    return _end_turn(state, points, "quick", ruling)


ACTIONS: ActionSet[Action] = ActionSet(Action)


def _describe_keep(keep: Keep) -> Text:
    return (DESCRIBE_KEEP_AND_BANK if keep.bank else DESCRIBE_KEEP)(dice=_dice_text(keep.dice))


class Yardkle(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    The sheet's first player is seat 1, with no choice to move on: Play again keeps the
    options (and starts the table's order at the next seat, ``rematch_first_seat``).
    """

    slug = "yardkle"
    title = TITLE()
    min_players = 1
    max_players = 8
    options = (
        OptionSpec(
            "entry_threshold",
            ENTRY_THRESHOLD(),
            "int",
            500,
            help=ENTRY_THRESHOLD_HELP(),
            minimum=0,
            maximum=10000,
            step=50,
            summary=ENTRY_THRESHOLD_SUMMARY(value="{}"),
        ),
        OptionSpec(
            "winning_score",
            WINNING_SCORE(),
            "int",
            10000,
            help=WINNING_SCORE_HELP(),
            minimum=500,
            maximum=100000,
            step=50,
            summary=WINNING_SCORE_SUMMARY(value="{}"),
        ),
    )
    actions = ACTIONS
    handlers = (
        on(Roll, _apply_roll, lambda roll: DESCRIBE_ROLL(dice=_dice_text(roll.dice))),
        on(Keep, _apply_keep, _describe_keep),
        on(Bank, lambda state, _bank: _apply_bank(state), lambda _bank: DESCRIBE_BANK()),
        on(QuickTurn, _apply_quick, lambda total: DESCRIBE_TOTAL(points=_num(total.points))),
    )
    listed = (CHOICES,)
    over_at_the_end = True
    expected_actions = staticmethod(expected_actions)

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        threshold = int_option(options, "entry_threshold")
        return State(
            players=players,
            entry_threshold=threshold,
            winning_score=int_option(options, "winning_score"),
            scores=(0,) * len(players),
            entered=(threshold == 0,) * len(players),
            current=0,
            turn=NEW_TURN,
            turns=GrowingTuple(),
            final_round_by=None,
            finished=False,
            last_ruling=FIRST_PLAYER(name=players[0]),
        )

    def standings(self, state: State) -> list[Standing]:
        return rank_by_score(state.players, state.scores)

    def rematch_first_seat(self, state: State) -> int:
        """Seat 1 started this game: the next game starts with the player after them, as a
        table passes the dice on (a first player moves on by one, as in the other games)."""
        return 1 % len(state.players)

    def score_rows(self, state: State) -> list[ScoreRow]:
        notes = {"banked": NOTE_BANKED(), "yardkle": NOTE_YARDKLE(), "quick": NOTE_QUICK()}
        totals = [0] * len(state.players)
        rows: list[ScoreRow] = []
        for record in state.turns:
            totals[record.seat] += record.points
            name = state.players[record.seat]
            rows.append(
                ScoreRow(
                    record.round,
                    record.seat,
                    name,
                    record.points,
                    totals[record.seat],
                    notes[record.result],
                )
            )
        return rows


GAME = Yardkle()
