"""Score sheet: the paper pad beside any game the app has no rules for.

Each round the table types one number per player (negative allowed). The sheet
keeps the totals; the highest total wins, or the lowest (golf, Hearts). A
target ends the game when a round leaves any total at or past it (Hearts ends
when someone reaches 100, and then the lowest wins); without a target, or
earlier, the table ends the game by hand. The engine rules on nothing else:
every number it is given stands.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, with_config

from scorekeeper.games.actions import ACTION_CONFIG, ActionSet, Ask
from scorekeeper.games.base import (
    MINUS,
    NOTHING_EXPECTED,
    Accepts,
    Expected,
    IllegalAction,
    OptionSpec,
    OptionValue,
    ScoreRow,
    Standing,
    capitalised,
    int_option,
    is_digits,
    rank_by_score,
)
from scorekeeper.games.engine import Engine, on
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve
from scorekeeper.games.words import (
    Grouped,
    Listing,
    Signed,
    Text,
    all_of,
    counted,
    each_of,
    in_turn,
    phrase,
)

# Bigger than any game's round; a typo of a few extra digits is refused, not added up.
MAX_ROUND_POINTS = 1_000_000
# One to twelve seats: a solo game still keeps a sheet; twelve seats a big party game and
# keeps a round's form (a row per seat) to about one phone screen.
MIN_PLAYERS, MAX_PLAYERS = 1, 12
GAME_NAME_MAX_LENGTH = 40
# The signs a player may type before a negative number: the hyphen of a keyboard and the
# minus sign the sheet itself writes (pasted from the sheet, MINUS and "4" is minus four).
_MINUS_SIGNS = ("-", MINUS)


# --- What the sheet says ------------------------------------------------------
#
# Every sentence is one of these phrases, said with its values: the players' names as
# typed, the numbers as the sheet writes them, or another phrase.

TITLE = phrase("score-sheet.title", "Score sheet")
# A number as the sheet writes it (digit groups from five digits on, as the reader's
# language groups them), and a negative one with its minus sign.
NUMBER = phrase("score-sheet.number", "{number}")
NEGATIVE_NUMBER = phrase("score-sheet.negative-number", "\u2212{number}")

HAS = phrase("score-sheet.has", "{name} has {total}.")
ALL_TIED = phrase("score-sheet.all-tied", "All tied on {total}.")
LEADS = phrase("score-sheet.leads", "{name} leads with {total}.")
SHARE_THE_LEAD = phrase("score-sheet.share-the-lead", "{names} share the lead with {total}.")
FINISHES = phrase("score-sheet.game-over.finishes", "Game over: {name} finishes with {total}.")
WINS = phrase("score-sheet.game-over.wins", "Game over: {name} wins with {total}.")
WINS_LOWEST = phrase(
    "score-sheet.game-over.wins-lowest", "Game over: {name} wins with {total} (lowest wins)."
)
SHARE_THE_WIN = phrase(
    "score-sheet.game-over.share-the-win", "Game over: {names} share the win with {total}."
)
SHARE_THE_WIN_LOWEST = phrase(
    "score-sheet.game-over.share-the-win-lowest",
    "Game over: {names} share the win with {total} (lowest wins).",
)
PLAYER_POINTS = phrase("score-sheet.player-points", "{name} {points}")
ROUND = phrase("score-sheet.round", "Round {number}: {points}.")
PLAYER_TOTAL = phrase("score-sheet.player-total", "{name} ({total})")
REACHED_THE_TARGET = phrase(
    "score-sheet.reached-the-target", "{names} reached the target of {target}."
)
ONE_NUMBER_PER_PLAYER = phrase(
    "score-sheet.one-number-per-player",
    "Enter one number per player: {count} for {names}, not {given}.",
)
TOO_MANY_POINTS = phrase(
    "score-sheet.too-many-points",
    "{name}'s {points} is more than a round can score here: at most {most} either way.",
)
NOTHING_TO_FINISH = phrase(
    "score-sheet.nothing-to-finish", "Nothing to finish: enter a round first."
)
TABLE_STOPPED = counted(
    "score-sheet.table-stopped",
    "The table stopped after {count} round.",
    "The table stopped after {count} rounds.",
)
POINTS_NOT_A_LIST = phrase(
    "score-sheet.points-not-a-list", "Enter the points as a list: one whole number per player."
)
TOO_MANY_NUMBERS = phrase(
    "score-sheet.too-many-numbers",
    "A score sheet has at most {most} players; you entered {count} numbers.",
)
# A seat with no name given (the API's round of numbers alone), inside a sentence and
# opening one.
SEAT = phrase("score-sheet.seat", "seat {number}")
SEAT_OPENING = phrase("score-sheet.seat.opening", "Seat {number}")
ENTER_POINTS = phrase(
    "score-sheet.enter-points", "Enter {name}'s points for this round (0 if none)."
)
POINTS_NOT_WHOLE = phrase(
    "score-sheet.points-not-whole",
    "{name}'s points must be a whole number, like 12 or {example}; {given} is not.",
)
START_HIGHEST_TARGET = phrase(
    "score-sheet.start.highest-wins-target",
    "Enter round 1: one number per player. The highest total wins; a round that takes "
    "anyone to {target} ends the game.",
)
START_LOWEST_TARGET = phrase(
    "score-sheet.start.lowest-wins-target",
    "Enter round 1: one number per player. The lowest total wins; a round that takes "
    "anyone to {target} ends the game.",
)
START_HIGHEST = phrase(
    "score-sheet.start.highest-wins",
    "Enter round 1: one number per player. The highest total wins; finish the game when "
    "the table stops.",
)
START_LOWEST = phrase(
    "score-sheet.start.lowest-wins",
    "Enter round 1: one number per player. The lowest total wins; finish the game when "
    "the table stops.",
)
# What a player is asked for when a round leaves its points out ("Enter each player's points.").
ASK_POINTS = phrase("score-sheet.ask.points", "each player's points")
DESCRIBE_ROUND = phrase("score-sheet.history.round", "round: {points}")
DESCRIBE_FINISH = phrase("score-sheet.history.finish", "finish")

GAME_PLAYED = phrase("score-sheet.option.game-played", "Game played")
GAME_PLAYED_HELP = phrase(
    "score-sheet.option.game-played.help",
    "What the table is playing, shown on the sheet (optional).",
)
# A summary's value is written where the words say "{}" (OptionSpec.summary).
GAME_PLAYED_SUMMARY = phrase("score-sheet.option.game-played.summary", "game: {value}")
UNNAMED = phrase("score-sheet.option.game-played.blank", "unnamed")
WHO_WINS = phrase("score-sheet.option.who-wins", "Who wins")
WHO_WINS_HELP = phrase(
    "score-sheet.option.who-wins.help", "The highest total wins, or the lowest (golf, Hearts)."
)
HIGHEST_TOTAL = phrase("score-sheet.option.who-wins.highest", "Highest total")
LOWEST_TOTAL = phrase("score-sheet.option.who-wins.lowest", "Lowest total")
WHO_WINS_SUMMARY = phrase("score-sheet.option.who-wins.summary", "{value} wins")
TARGET = phrase("score-sheet.option.target", "Target score")
TARGET_HELP = phrase(
    "score-sheet.option.target.help",
    "A round that leaves anyone at or past this total ends the game "
    "(0 = no target: end it by hand).",
)
TARGET_SUMMARY = phrase("score-sheet.option.target.summary", "target {value}")


_RoundPoints = Annotated[
    int, Field(json_schema_extra={"minimum": -MAX_ROUND_POINTS, "maximum": MAX_ROUND_POINTS})
]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Round:
    """One round's points, one number per seat in seat order."""

    type: Literal["round"] = field(default="round", kw_only=True, repr=False)
    # The bounds are the rules' (checked with the players' names when the round is applied).
    points: Annotated[
        tuple[_RoundPoints, ...],
        Field(json_schema_extra={"minItems": MIN_PLAYERS, "maxItems": MAX_PLAYERS}),
        Ask(ASK_POINTS()),
        BeforeValidator(lambda raw: parse_points(raw)),
    ]


@with_config(ACTION_CONFIG)
@dataclass(frozen=True)
class Finish:
    """The table stops here: the best total wins."""

    type: Literal["finish"] = field(default="finish", kw_only=True, repr=False)


Action = Round | Finish


@dataclass(frozen=True)
class Now:
    """What the table needs of the rounds now: how many were played, and the newest one's
    points per seat (None before the first)."""

    rounds_played: int
    last_round: tuple[int, ...] | None


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    game_name: str
    # "highest" or "lowest": which total wins.
    winner: str
    # 0 = no target: the table ends the game with a finish.
    target: int
    # Shared with the state before (GrowingTuple): a round adds its points without a copy.
    rounds: GrowingTuple[tuple[int, ...]] = field(metadata=HISTORY)
    totals: tuple[int, ...]
    finished: bool
    last_ruling: str

    def now(self) -> Now:
        """What the table needs of ``rounds`` (history: see games.history)."""
        return Now(
            rounds_played=len(self.rounds), last_round=self.rounds[-1] if self.rounds else None
        )

    @property
    def lowest_wins(self) -> bool:
        return self.winner == "lowest"


# A Text is never changed once said: one for each number in use serves every note and
# ruling (a long sheet's replay says the same numbers hundreds of thousands of times).
@functools.lru_cache(maxsize=4096)
def number_text(number: int) -> Text:
    """A number as the sheet writes it: digit groups only from five digits on ("4350",
    "10,150"), MINUS before a negative."""
    if number < 0:
        return NEGATIVE_NUMBER(number=Grouped(-number, grouped_from=10_000))
    return NUMBER(number=Grouped(number, grouped_from=10_000))


def best_seats(state: State) -> list[int]:
    """The seats with the best total (ties all), whether the game is over or not."""
    best = min(state.totals) if state.lowest_wins else max(state.totals)
    return [seat for seat, total in enumerate(state.totals) if total == best]


def leaders(state: State) -> list[int]:
    """The seats in the lead once a round is recorded; none before (everyone has 0)."""
    return best_seats(state) if state.rounds else []


def _who_leads(state: State) -> Text:
    seats = best_seats(state)
    total = number_text(state.totals[seats[0]])
    if len(state.players) == 1:
        return HAS(name=state.players[seats[0]], total=total)
    if len(seats) == len(state.players):
        return ALL_TIED(total=total)
    if len(seats) == 1:
        return LEADS(name=state.players[seats[0]], total=total)
    return SHARE_THE_LEAD(names=all_of(state.players[seat] for seat in seats), total=total)


def _who_wins(state: State) -> Text:
    seats = best_seats(state)
    total = number_text(state.totals[seats[0]])
    if len(state.players) == 1:
        return FINISHES(name=state.players[0], total=total)
    if len(seats) == 1:
        wins = WINS_LOWEST if state.lowest_wins else WINS
        return wins(name=state.players[seats[0]], total=total)
    share = SHARE_THE_WIN_LOWEST if state.lowest_wins else SHARE_THE_WIN
    return share(names=all_of(state.players[seat] for seat in seats), total=total)


def _round_text(players: Sequence[str], points: Sequence[int]) -> Listing:
    """Each player's points of a round, in seat order: "Ann 12, Bo 4"."""
    pairs = zip(players, points, strict=True)
    return each_of(PLAYER_POINTS(name=name, points=number_text(value)) for name, value in pairs)


def _describe_round(scored: Round) -> Text:
    # A round of no points is refused, but an imported file's log may hold one: its
    # refusal names the event as it was written.
    return DESCRIBE_ROUND(points=each_of(number_text(value) for value in scored.points))


def _reached_target(state: State) -> list[int]:
    """The seats at or past the target (none when there is no target)."""
    if not state.target:
        return []
    return [seat for seat, total in enumerate(state.totals) if total >= state.target]


def _apply_round(state: State, action: Round) -> State:
    players = state.players
    if len(action.points) != len(players):
        raise IllegalAction(
            ONE_NUMBER_PER_PLAYER(
                count=len(players), names=all_of(players), given=len(action.points)
            ),
            "points",
        )
    for seat, value in enumerate(action.points):
        if abs(value) > MAX_ROUND_POINTS:
            raise IllegalAction(
                TOO_MANY_POINTS(
                    name=players[seat],
                    points=number_text(value),
                    most=number_text(MAX_ROUND_POINTS),
                ),
                f"points.{seat}",
            )
    totals = tuple(total + value for total, value in zip(state.totals, action.points, strict=True))
    played = evolve(state, rounds=state.rounds.plus(action.points), totals=totals)
    number = len(played.rounds)
    head = ROUND(number=number, points=_round_text(players, action.points))
    reached = _reached_target(played)
    if not reached:
        return evolve(played, last_ruling=in_turn(head, _who_leads(played)))
    names = all_of(
        PLAYER_TOTAL(name=players[seat], total=number_text(totals[seat])) for seat in reached
    )
    over = evolve(played, finished=True)
    target = REACHED_THE_TARGET(names=names, target=number_text(state.target))
    return evolve(over, last_ruling=in_turn(head, target, _who_wins(over)))


def _apply_finish(state: State) -> State:
    if not state.rounds:
        raise IllegalAction(NOTHING_TO_FINISH(), "type")
    over = evolve(state, finished=True)
    stopped = TABLE_STOPPED(count=len(state.rounds))
    return evolve(over, last_ruling=in_turn(stopped, _who_wins(over)))


def expected_actions(state: State) -> Expected:
    """Anyone's round while the game is on; a finish once a round is recorded (the table
    may stop early even with a target); nothing once the game is over."""
    if state.finished:
        return NOTHING_EXPECTED
    if not state.rounds:
        return Expected(None, (Accepts("round"),))
    return Expected(None, (Accepts("round"), Accepts("finish")))


def parse_points(raw: object, players: Sequence[str] = ()) -> tuple[int, ...]:
    """The round's numbers from JSON (integers) or a form (text such as "12" or "-4";
    MINUS may stand for the hyphen).

    A refusal names the seat's field (``points.0`` is the first seat) and, when the
    ``players`` are given (a form knows them), the player.
    """
    if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
        raise IllegalAction(POINTS_NOT_A_LIST(), "points")
    if len(raw) > MAX_PLAYERS:
        raise IllegalAction(TOO_MANY_NUMBERS(most=MAX_PLAYERS, count=len(raw)), "points")
    return tuple(
        _parse_point(item, seat, players[seat] if seat < len(players) else None)
        for seat, item in enumerate(raw)
    )


def _parse_point(raw: object, seat: int, name: str | None) -> int:
    """A seat's points; a refusal names the player, or the seat (``name`` None)."""
    field = f"points.{seat}"
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            who = SEAT(number=seat + 1) if name is None else name
            raise IllegalAction(ENTER_POINTS(name=who), field)
        digits = text[1:] if text.startswith(_MINUS_SIGNS) else text
        # Seven digits hold the largest round; longer text is refused before int() reads it.
        if is_digits(digits) and len(digits) <= 7:
            return -int(digits) if digits != text else int(digits)
    opening = SEAT_OPENING(number=seat + 1) if name is None else capitalised(name)
    raise IllegalAction(
        POINTS_NOT_WHOLE(name=opening, example=Signed(-4), given=repr(raw)[:20]), field
    )


ACTIONS: ActionSet[Action] = ActionSet(Action)


PLAYERS_NEEDED = phrase(
    "score-sheet.players-needed", "A score sheet is for {fewest} to {most} players"
)


class ScoreSheet(Engine[State, Action]):
    """The game object the app registers (see engine.Engine).

    A score sheet knows no first player and has no turns: Play again keeps the options
    and the seats in order.
    """

    slug = "score-sheet"
    title = TITLE()
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "game_name",
            GAME_PLAYED(),
            "text",
            "",
            help=GAME_PLAYED_HELP(),
            maximum=GAME_NAME_MAX_LENGTH,
            summary=GAME_PLAYED_SUMMARY(value="{}"),
            blank=UNNAMED(),
        ),
        OptionSpec(
            "winner",
            WHO_WINS(),
            "choice",
            "highest",
            help=WHO_WINS_HELP(),
            choices=(("highest", HIGHEST_TOTAL()), ("lowest", LOWEST_TOTAL())),
            summary=WHO_WINS_SUMMARY(value="{}"),
        ),
        OptionSpec(
            "target",
            TARGET(),
            "int",
            0,
            help=TARGET_HELP(),
            minimum=0,
            maximum=MAX_ROUND_POINTS,
            summary=TARGET_SUMMARY(value="{}"),
        ),
    )
    actions = ACTIONS
    handlers = (
        on(
            Round,
            _apply_round,
            _describe_round,
        ),
        on(Finish, lambda state, _finish: _apply_finish(state), lambda _finish: DESCRIBE_FINISH()),
    )
    over_at_the_end = True
    expected_actions = staticmethod(expected_actions)

    def players_needed(self) -> Text:
        return PLAYERS_NEEDED(fewest=MIN_PLAYERS, most=MAX_PLAYERS)

    def first_state(self, players: tuple[str, ...], options: Mapping[str, OptionValue]) -> State:
        target = int_option(options, "target")
        state = State(
            players=players,
            game_name=str(options["game_name"]),
            winner=str(options["winner"]),
            target=target,
            rounds=GrowingTuple(),
            totals=(0,) * len(players),
            finished=False,
            last_ruling="",
        )
        if target:
            start = START_LOWEST_TARGET if state.lowest_wins else START_HIGHEST_TARGET
            return evolve(state, last_ruling=start(target=number_text(target)))
        start = START_LOWEST if state.lowest_wins else START_HIGHEST
        return evolve(state, last_ruling=start())

    def standings(self, state: State) -> list[Standing]:
        # Where the lowest total wins, ranking the negated totals puts the lowest first.
        ranked = [-total for total in state.totals] if state.lowest_wins else state.totals
        return rank_by_score(state.players, state.totals, ranked_by=ranked)

    def score_rows(self, state: State) -> list[ScoreRow]:
        totals = [0] * len(state.players)
        rows: list[ScoreRow] = []
        for number, points in enumerate(state.rounds, start=1):
            for seat, value in enumerate(points):
                totals[seat] += value
                rows.append(ScoreRow(number, seat, state.players[seat], value, totals[seat], ""))
        return rows


GAME = ScoreSheet()
