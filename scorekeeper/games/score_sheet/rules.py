"""Score sheet: the paper pad beside any game the app has no rules for.

Each round the table types one number per player (negative allowed). The sheet
keeps the totals; the highest total wins, or the lowest (golf, Hearts). A
target ends the game when a round leaves any total at or past it (Hearts ends
when someone reaches 100, and then the lowest wins); without a target, or
earlier, the table ends the game by hand. The engine rules on nothing else:
every number it is given stands.
"""

from __future__ import annotations

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
    and_list,
    capitalised,
    int_option,
    is_digits,
    rank_by_score,
    signed,
)
from scorekeeper.games.engine import Engine, on
from scorekeeper.games.growing import GrowingTuple
from scorekeeper.games.history import HISTORY
from scorekeeper.games.records import evolve
from scorekeeper.games.words import Text, phrase

# Bigger than any game's round; a typo of a few extra digits is refused, not added up.
MAX_ROUND_POINTS = 1_000_000
# One to twelve seats: a solo game still keeps a sheet; twelve seats a big party game and
# keeps a round's form (a row per seat) to about one phone screen.
MIN_PLAYERS, MAX_PLAYERS = 1, 12
GAME_NAME_MAX_LENGTH = 40
# The signs a player may type before a negative number: the hyphen of a keyboard and the
# minus sign the sheet itself writes (pasted from the sheet, MINUS and "4" is minus four).
_MINUS_SIGNS = ("-", MINUS)


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
        Ask("each player's points"),
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


def number_text(number: int) -> str:
    """A number as the sheet writes it: digit groups only from five digits on ("4350",
    "10,150"), MINUS before a negative."""
    text = f"{abs(number):,}" if abs(number) >= 10_000 else str(abs(number))
    return f"{MINUS}{text}" if number < 0 else text


def best_seats(state: State) -> list[int]:
    """The seats with the best total (ties all), whether the game is over or not."""
    best = min(state.totals) if state.lowest_wins else max(state.totals)
    return [seat for seat, total in enumerate(state.totals) if total == best]


def leaders(state: State) -> list[int]:
    """The seats in the lead once a round is recorded; none before (everyone has 0)."""
    return best_seats(state) if state.rounds else []


def _who_leads(state: State) -> str:
    seats = best_seats(state)
    names = and_list([state.players[seat] for seat in seats])
    total = number_text(state.totals[seats[0]])
    if len(state.players) == 1:
        return f"{names} has {total}."
    if len(seats) == len(state.players):
        return f"All tied on {total}."
    verb = "leads" if len(seats) == 1 else "share the lead"
    return f"{names} {verb} with {total}."


def _who_wins(state: State) -> str:
    seats = best_seats(state)
    total = number_text(state.totals[seats[0]])
    if len(state.players) == 1:
        return f"Game over: {state.players[0]} finishes with {total}."
    names = and_list([state.players[seat] for seat in seats])
    least = " (lowest wins)" if state.lowest_wins else ""
    if len(seats) == 1:
        return f"Game over: {names} wins with {total}{least}."
    return f"Game over: {names} share the win with {total}{least}."


def _round_text(players: Sequence[str], points: Sequence[int]) -> str:
    pairs = zip(players, points, strict=True)
    return ", ".join(f"{name} {number_text(value)}" for name, value in pairs)


def _reached_target(state: State) -> list[int]:
    """The seats at or past the target (none when there is no target)."""
    if not state.target:
        return []
    return [seat for seat, total in enumerate(state.totals) if total >= state.target]


def _apply_round(state: State, action: Round) -> State:
    players = state.players
    if len(action.points) != len(players):
        raise IllegalAction(
            f"Enter one number per player: {len(players)} for "
            f"{and_list(list(players))}, not {len(action.points)}.",
            "points",
        )
    for seat, value in enumerate(action.points):
        if abs(value) > MAX_ROUND_POINTS:
            raise IllegalAction(
                f"{players[seat]}'s {number_text(value)} is more than a round can score here: "
                f"at most {number_text(MAX_ROUND_POINTS)} either way.",
                f"points.{seat}",
            )
    totals = tuple(total + value for total, value in zip(state.totals, action.points, strict=True))
    played = evolve(state, rounds=state.rounds.plus(action.points), totals=totals)
    number = len(played.rounds)
    head = f"Round {number}: {_round_text(players, action.points)}."
    reached = _reached_target(played)
    if not reached:
        return evolve(played, last_ruling=f"{head} {_who_leads(played)}")
    names = and_list([f"{players[seat]} ({number_text(totals[seat])})" for seat in reached])
    over = evolve(played, finished=True)
    return evolve(
        over,
        last_ruling=f"{head} {names} reached the target of {number_text(state.target)}. "
        f"{_who_wins(over)}",
    )


def _apply_finish(state: State) -> State:
    if not state.rounds:
        raise IllegalAction("Nothing to finish: enter a round first.", "type")
    over = evolve(state, finished=True)
    rounds = "1 round" if len(state.rounds) == 1 else f"{len(state.rounds)} rounds"
    return evolve(over, last_ruling=f"The table stopped after {rounds}. {_who_wins(over)}")


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
        raise IllegalAction("Enter the points as a list: one whole number per player.", "points")
    if len(raw) > MAX_PLAYERS:
        raise IllegalAction(
            f"A score sheet has at most {MAX_PLAYERS} players; you entered {len(raw)} numbers.",
            "points",
        )
    return tuple(
        _parse_point(item, seat, players[seat] if seat < len(players) else f"seat {seat + 1}")
        for seat, item in enumerate(raw)
    )


def _parse_point(raw: object, seat: int, who: str) -> int:
    field = f"points.{seat}"
    if isinstance(raw, int) and not isinstance(raw, bool):
        return raw
    if isinstance(raw, str):
        text = raw.strip()
        if not text:
            raise IllegalAction(f"Enter {who}'s points for this round (0 if none).", field)
        digits = text[1:] if text.startswith(_MINUS_SIGNS) else text
        # Seven digits hold the largest round; longer text is refused before int() reads it.
        if is_digits(digits) and len(digits) <= 7:
            return -int(digits) if digits != text else int(digits)
    shown = repr(raw)[:20]
    raise IllegalAction(
        f"{capitalised(who)}'s points must be a whole number, like 12 or {signed(-4)}; "
        f"{shown} is not.",
        field,
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
    title = "Score sheet"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "game_name",
            "Game played",
            "text",
            "",
            help="What the table is playing, shown on the sheet (optional).",
            maximum=GAME_NAME_MAX_LENGTH,
            summary="game: {}",
            blank="unnamed",
        ),
        OptionSpec(
            "winner",
            "Who wins",
            "choice",
            "highest",
            help="The highest total wins, or the lowest (golf, Hearts).",
            choices=(("highest", "Highest total"), ("lowest", "Lowest total")),
            summary="{} wins",
        ),
        OptionSpec(
            "target",
            "Target score",
            "int",
            0,
            help="A round that leaves anyone at or past this total ends the game "
            "(0 = no target: end it by hand).",
            minimum=0,
            maximum=MAX_ROUND_POINTS,
            summary="target {}",
        ),
    )
    actions = ACTIONS
    handlers = (
        on(
            Round,
            _apply_round,
            lambda scored: "round: " + ", ".join(number_text(value) for value in scored.points),
        ),
        on(Finish, lambda state, _finish: _apply_finish(state), lambda _finish: "finish"),
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
        goal = "lowest" if state.lowest_wins else "highest"
        end = (
            f"a round that takes anyone to {number_text(target)} ends the game"
            if target
            else "finish the game when the table stops"
        )
        return evolve(
            state,
            last_ruling=f"Enter round 1: one number per player. The {goal} total wins; {end}.",
        )

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
