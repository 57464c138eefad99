"""The statistics' rules as plain Python over each finished session's record: the
reference the database's figures (scorekeeper/group_figures.py) are tested against.

``compute`` and ``head_to_head`` count by scorekeeper/stats.py's rules from ``Result``s;
``group_results`` reads a group's records from the rows the write that ended each session
kept, ``result_of`` works one out of a session's view by replay. The app counts in the
database; tests compare both over random groups, and pin the rules here by known answers.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from peewee import fn

from scorekeeper import charts, groups, ratings, read_model, session_views
from scorekeeper.db import database, from_column
from scorekeeper.games import get_game
from scorekeeper.models import GameSession, Seat
from scorekeeper.stats import (
    MOST_WIN_POINTS,
    WIN_STEPS,
    GamePlayerRecord,
    GameRecord,
    HeadToHead,
    PlayerRecord,
    Stats,
    WinStep,
    ranked,
)


@dataclass(frozen=True)
class Result:
    """One finished session, seat by seat."""

    session_id: str
    game: str  # the game's slug
    game_title: str
    lower_is_better: bool
    ended_at: datetime
    players: tuple[str, ...]  # per seat, the group player's key ("" for none)
    names: tuple[str, ...]  # per seat, the name played under
    scores: tuple[int, ...]  # per seat, the final score (a team's score for each partner)
    winners: frozenset[int]  # the winning seats (several when the win is shared)


@dataclass(frozen=True)
class _Seat:
    result: Result
    seat: int

    @property
    def score(self) -> int:
        return self.result.scores[self.seat]

    @property
    def won(self) -> bool:
        return self.seat in self.result.winners


def _seats_of(results: Iterable[Result]) -> dict[str, list[_Seat]]:
    """Each group player's seats, in the order the sessions ended."""
    seats: dict[str, list[_Seat]] = {}
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        for seat, player in enumerate(result.players):
            if player:
                seats.setdefault(player, []).append(_Seat(result, seat))
    return seats


def _record(player: str, seats: Sequence[_Seat]) -> PlayerRecord:
    last = seats[-1]
    return PlayerRecord(
        player=player,
        # The name of the player's latest game (a group player may have been renamed).
        name=last.result.names[last.seat],
        played=len(seats),
        won=sum(seat.won for seat in seats),
        last_played=last.result.ended_at,
    )


def _game_record(player: str, seats: Sequence[_Seat]) -> GamePlayerRecord:
    """The player's record in one game (``seats`` are all of that game)."""
    scores = [seat.score for seat in seats]
    return GamePlayerRecord(
        **vars(_record(player, seats)),
        average=sum(scores) / len(scores),
        best=min(scores) if seats[-1].result.lower_is_better else max(scores),
    )


def compute(results: Sequence[Result]) -> Stats:
    """Every figure of the group page from its finished sessions' results."""
    seats = _seats_of(results)
    games: dict[tuple[str, bool], list[Result]] = {}
    for result in results:
        games.setdefault((result.game, result.lower_is_better), []).append(result)
    game_records = []
    for (game, lower), played in games.items():
        by_player = _seats_of(played)
        title = played[0].game_title + (" (lowest wins)" if lower else "")
        game_records.append(
            GameRecord(
                game=game,
                title=title,
                lower_is_better=lower,
                played=len(played),
                last_played=max(result.ended_at for result in played),
                players=ranked(_game_record(player, mine) for player, mine in by_player.items()),
            )
        )
    step, lines = _wins_over_time(results, seats)
    return Stats(
        played=len(results),
        players=ranked(_record(player, mine) for player, mine in seats.items()),
        games=tuple(sorted(game_records, key=lambda g: (-g.played, g.title))),
        wins_over_time=lines,
        wins_step=step,
    )


def _step_of(day: date, step: str) -> tuple[int, ...]:
    """Which day, week (from Monday), month or year ``day`` is in."""
    if step == "day":
        return (day.toordinal(),)
    if step == "week":
        return ((day - timedelta(days=day.weekday())).toordinal(),)
    return (day.year, day.month) if step == "month" else (day.year,)


def _wins_over_time(
    results: Sequence[Result], seats: dict[str, list[_Seat]]
) -> tuple[WinStep, tuple[charts.Series, ...]]:
    """The finest step with at most MOST_WIN_POINTS of them, and each player's wins so far
    on the last day a game ended in each step."""
    days = sorted({result.ended_at.date() for result in results})
    step = next(
        (
            step
            for step in WIN_STEPS
            if len({_step_of(day, step) for day in days}) <= MOST_WIN_POINTS
        ),
        WIN_STEPS[-1],
    )
    last_days: dict[tuple[int, ...], date] = {}
    for day in days:
        last_days[_step_of(day, step)] = day  # days in order: the last one stays
    lines = []
    for mine in seats.values():
        won_by_step: dict[tuple[int, ...], int] = {}
        for seat in mine:
            at = _step_of(seat.result.ended_at.date(), step)
            won_by_step[at] = won_by_step.get(at, 0) + seat.won
        total = 0
        points = []
        for at, day in last_days.items():
            total += won_by_step.get(at, 0)
            points.append((float(day.toordinal()), float(total)))
        name = mine[-1].result.names[mine[-1].seat]
        lines.append(charts.Series(name, tuple(points)))
    return step, tuple(sorted(lines, key=lambda s: (-s.points[-1][1], s.name.casefold())))


def head_to_head(results: Sequence[Result], first: str, second: str) -> HeadToHead:
    """Two group players (by key) over the sessions where both had a seat; ValueError
    with the sentence to show when they are one player or one never played."""
    names: dict[str, str] = {}
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        names.update(zip(result.players, result.names, strict=True))
    for field, player in (("first", first), ("second", second)):
        if player not in names:
            raise ValueError(f"The {field} player has played no finished game in this group.")
    if first == second:
        raise ValueError("Choose two different players to compare.")
    counts = {"played": 0, "first_won": 0, "second_won": 0, "shared": 0, "neither": 0}
    for result in results:
        if first not in result.players or second not in result.players:
            continue
        a_won = result.players.index(first) in result.winners
        b_won = result.players.index(second) in result.winners
        counts["played"] += 1
        if a_won and b_won:
            counts["shared"] += 1
        elif a_won:
            counts["first_won"] += 1
        elif b_won:
            counts["second_won"] += 1
        else:
            counts["neither"] += 1
    return HeadToHead(first, second, names[first], names[second], **counts)


def result_of(
    view: session_views.SessionView, players: Sequence[str], ended_at: datetime
) -> Result:
    """What the statistics count of a finished session; ``players`` names the group player
    of each seat ("" for a seat without one). Each seat's score, whether it won and whether
    lower is better are those ``read_model.outcome_of`` works out (and the write that ends
    the session stores)."""
    if not view.finished:
        raise ValueError(f"session {view.id} is not finished: only finished sessions count")
    outcome = read_model.outcome_of(view.game, view.state)
    seats = [
        (players[seat], view.seats[seat], ended.score, ended.won)
        for seat, ended in sorted(outcome.seats.items())
    ]
    return _result(view.id, view.game.slug, outcome.lower_is_better, ended_at, seats)


def _result(
    session_id: str,
    slug: str,
    lower_is_better: bool,
    ended_at: datetime,
    seats: Sequence[tuple[str, str, int, bool]],
) -> Result:
    """A finished session's record from its ranked seats in order: each seat's group
    player, name, final score and whether it won."""
    return Result(
        session_id=session_id,
        game=slug,
        game_title=get_game(slug).title,
        lower_is_better=lower_is_better,
        ended_at=ended_at,
        players=tuple(player for player, _, _, _ in seats),
        names=tuple(name for _, name, _, _ in seats),
        scores=tuple(score for _, _, score, _ in seats),
        winners=frozenset(index for index, (_, _, _, won) in enumerate(seats) if won),
    )


def group_results(group: groups.Group) -> list[Result]:
    """What the statistics count of ``group``: its finished sessions, each seat keyed by
    its group player's id ("" for a seat whose player was removed since).

    One query reads every ranked seat of the group's finished sessions as the write that
    ended each recorded it (scorekeeper/read_model.py): no session is replayed. A seat of
    a current player is named as the player is now, so a renamed player is one line
    everywhere.
    """
    rows = (
        Seat.select(
            GameSession.id,
            GameSession.game,
            GameSession.lower_is_better,
            # finished_at is backfilled for every finished session; updated_at is a safe bound.
            fn.COALESCE(GameSession.finished_at, GameSession.updated_at),
            Seat.player,
            Seat.name,
            Seat.score,
            Seat.won,
        )
        .join(GameSession)
        .where((GameSession.group == group.id) & GameSession.finished & Seat.score.is_null(False))
        .order_by(GameSession.id, Seat.position)
    )
    current = {player.id: player.name for player in group.players}
    results = []
    # The raw rows: model instances cost more than the database's answer at 1,000 sessions.
    for (session_id, slug, lower, ended), seats in itertools.groupby(
        database.execute(rows), lambda row: row[:4]
    ):
        ranked = [
            ("" if player is None else str(player), current.get(player, name), score, bool(won))
            for *_, player, name, score, won in seats
        ]
        results.append(
            _result(
                session_id, slug, bool(lower), from_column(GameSession.updated_at, ended), ranked
            )
        )
    return results


def rated(results: Iterable[Result]) -> ratings.Board:
    """Each player's rating (scorekeeper/ratings.py) over ``results`` in the order they
    ended, a seat's place one more than the seats with a better score (ties share one)."""
    ended = []
    for result in sorted(results, key=lambda r: (r.ended_at, r.session_id)):
        sign = -1 if result.lower_is_better else 1
        ended.append(
            ratings.Ended(
                result.session_id,
                result.ended_at,
                result.game,
                result.lower_is_better,
                tuple(
                    ratings.RankedSeat(
                        player or None,  # type: ignore[arg-type]  # keys, not ids, here
                        1 + sum(sign * other > sign * score for other in result.scores),
                        seat in result.winners,
                    )
                    for seat, (player, score) in enumerate(
                        zip(result.players, result.scores, strict=True)
                    )
                ),
            )
        )
    board: ratings.Board = {}
    for row in ratings.rate({}, ended):
        player, game, lower = row.key
        board.setdefault((game, lower), {})[str(player)] = row.skill
    return board
