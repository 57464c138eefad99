"""Each group player's rating, in each game and over all the group's games, by OpenSkill's
Plackett-Luce model (it rates games of any number of players, ties included).

How it rates:

- Sessions count in the order they ended (``finished_at``, then their ids), each once its
  seats are ranked (scorekeeper/read_model.py): each ranked seat is one side, ranked by
  its place, except in a game of partners (the engine's ``partners``: Yokai Septet's two
  teams), where each team is one side of two players, who win and lose together. Sides
  that share a place tie: a shared win the rules let stand is a tie for first.
- A seat with no group player takes part at a newcomer's rating, and keeps nothing.
- A game with one ranked seat moves no rating (it still counts as played).
- The rating shown is OpenSkill's ordinal, mu - 3 sigma: a cautious estimate, 0 for a
  newcomer, that rises with wins (over strong players most) and as the model grows sure.

The rows (models.Rating) are written by the transaction that changes a session's end
(``session_changed``), or that remakes a whole group's (``rate_group``): a read takes
each player's latest row and never rates anything.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, TypeVar

from openskill.models import PlackettLuce

from scorekeeper.games import GAMES, get_game
from scorekeeper.models import GameSession, Rating, Seat

MODEL = PlackettLuce()
# The scope of the rating over every game: no game's slug is empty.
ALL_GAMES = ("", False)


@dataclass(frozen=True)
class Skill:
    """A player's rating in one scope (a game, or all games) after some sessions."""

    mu: float
    sigma: float
    played: int = 0
    won: int = 0
    places: int = 0  # the sum of the player's places, 1 the best
    moved: float = 0.0  # how much ``rating`` moved with the latest session

    @property
    def rating(self) -> float:
        """The number shown: OpenSkill's ordinal, mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def average_place(self) -> float:
        return self.places / self.played


NEWCOMER = Skill(MODEL.mu, MODEL.sigma)


@dataclass(frozen=True)
class RankedSeat:
    player: int | None  # the group player's id; None: no one's
    place: int
    won: bool


@dataclass(frozen=True)
class Ended:
    """A finished session as it is rated."""

    session: str
    ended_at: datetime
    game: str
    lower_is_better: bool
    seats: tuple[RankedSeat, ...]


# A player's skill in a scope: (player id, game slug or "", lower is better).
Key = tuple[int, str, bool]


@dataclass(frozen=True)
class Rated:
    """A player's skill in one scope after one session: one row."""

    key: Key
    session: str
    ended_at: datetime
    skill: Skill


def rate(kept: dict[Key, Skill], sessions: Iterable[Ended]) -> list[Rated]:
    """Rate ``sessions`` in order, from the skills in ``kept`` (updated in place): the
    rows they make, each player's rows in each scope in order."""
    rows = []
    for ended in sessions:
        for game, lower in ((ended.game, ended.lower_is_better), ALL_GAMES):
            keys = [None if s.player is None else (s.player, game, lower) for s in ended.seats]
            before = [NEWCOMER if key is None else kept.get(key, NEWCOMER) for key in keys]
            after = before
            sides = _sides(ended)
            if len(sides) > 1:
                teams = MODEL.rate(
                    [
                        [MODEL.rating(mu=before[s].mu, sigma=before[s].sigma) for s in side]
                        for side in sides
                    ],
                    ranks=[float(ended.seats[side[0]].place) for side in sides],
                )
                rated = {
                    seat: member
                    for side, team in zip(sides, teams, strict=True)
                    for seat, member in zip(side, team, strict=True)
                }
                after = [
                    replace(old, mu=rated[seat].mu, sigma=rated[seat].sigma)
                    for seat, old in enumerate(before)
                ]
            for key, seat, old, new in zip(keys, ended.seats, before, after, strict=True):
                if key is None:
                    continue
                skill = replace(
                    new,
                    played=old.played + 1,
                    won=old.won + seat.won,
                    places=old.places + seat.place,
                    moved=new.rating - old.rating,
                )
                kept[key] = skill
                rows.append(Rated(key, ended.session, ended.ended_at, skill))
    return rows


def _sides(ended: Ended) -> list[tuple[int, ...]]:
    """The sides of a session as rated, each a tuple of indexes into its seats: its game's
    partners, one side each, when every seat was ranked (a team's seats share a place);
    otherwise each seat alone."""
    partners = get_game(ended.game).partners if ended.game in GAMES else ()
    seated = sorted(seat for side in partners for seat in side)
    if partners and seated == list(range(len(ended.seats))):
        return list(partners)
    return [(seat,) for seat in range(len(ended.seats))]


def ended_sessions(rows: Iterable[Sequence[Any]]) -> Iterator[Ended]:
    """Sessions from rows of (session, ended_at, game, lower_is_better, player, place,
    won), in order, a row per ranked seat."""
    for (session, ended_at, game, lower), seats in itertools.groupby(rows, lambda row: row[:4]):
        ranked = tuple(RankedSeat(player, place, bool(won)) for *_, player, place, won in seats)
        yield Ended(session, ended_at, game, bool(lower), ranked)


# --- Kept in the database --------------------------------------------------------------


def _from(since: tuple[datetime, str] | None, at: Any, session: Any) -> Any:
    """Sessions that ended at ``since`` or after (the same moment: ids from its on)."""
    if since is None:
        return True
    moment, session_id = since
    return (at > moment) | ((at == moment) & (session >= session_id))


def _to_rate(group_id: str, since: tuple[datetime, str] | None) -> Iterator[Ended]:
    seats = (
        Seat.select(
            GameSession.id,
            GameSession.finished_at,
            GameSession.game,
            GameSession.lower_is_better,
            Seat.player,
            Seat.place,
            Seat.won,
        )
        .join(GameSession)
        .where(
            (GameSession.group == group_id)
            & GameSession.finished
            & Seat.place.is_null(False)
            & _from(since, GameSession.finished_at, GameSession.id)
        )
        .order_by(GameSession.finished_at, GameSession.id, Seat.position)
    )
    return ended_sessions(seats.tuples())  # type: ignore[arg-type]


def _skill(row: Rating) -> Skill:
    return Skill(row.mu, row.sigma, row.played, row.won, row.places, row.moved)


def _rerate(group_id: str, since: tuple[datetime, str] | None) -> None:
    """Rate the group's sessions that ended at ``since`` or after (None: all) again, from
    the ratings before them, in the caller's transaction, which holds the group's row
    locked (group_totals.lock, or a write to the row): two sessions of a group that end
    at once are rated one after the other."""
    in_group = Rating.group == group_id
    later = in_group & _from(since, Rating.ended_at, Rating.session)
    latest: dict[Key, Rating] = {}
    if Rating.select(Rating.id).where(later).exists():
        # A session before others changed (a correction, an undo, an import): the rows
        # from it on go, and the latest of each player is the latest left.
        Rating.delete().where(later).execute()
        for row in Rating.select().where(in_group).order_by(Rating.ended_at, Rating.session):
            latest[(row.player_id, row.game, row.lower_is_better)] = row
        Rating.update(latest=Rating.id.in_([row.id for row in latest.values()])).where(
            in_group
        ).execute()
    else:
        # The usual write: a session ends after every other.
        for row in Rating.select().where(in_group & Rating.latest):
            latest[(row.player_id, row.game, row.lower_is_better)] = row
    kept = {key: _skill(row) for key, row in latest.items()}
    rows = rate(kept, _to_rate(group_id, since))
    if not rows:
        return
    newest = {row.key: index for index, row in enumerate(rows)}
    replaced = [latest[key].id for key in newest if key in latest]
    if replaced:
        Rating.update(latest=False).where(Rating.id.in_(replaced)).execute()
    Rating.insert_many(
        [
            {
                "group": group_id,
                "session": row.session,
                "ended_at": row.ended_at,
                "player": row.key[0],
                "game": row.key[1],
                "lower_is_better": row.key[2],
                "mu": row.skill.mu,
                "sigma": row.skill.sigma,
                "moved": row.skill.moved,
                "played": row.skill.played,
                "won": row.skill.won,
                "places": row.skill.places,
                "latest": newest[row.key] == index,
            }
            for index, row in enumerate(rows)
        ]
    ).execute()


def session_changed(session_id: str, group_id: str | None, ended_at: datetime | None) -> None:
    """A write ended the session, changed its end or reopened it (``ended_at`` None): its
    group's ratings from where it was, or is now, in the order of ends, are rated again."""
    if group_id is None:
        return
    rated = Rating.select(Rating.ended_at).where(Rating.session == session_id).limit(1)
    points = [(row.ended_at, session_id) for row in rated]
    if ended_at is not None:
        points.append((ended_at, session_id))
    if points:
        _rerate(group_id, min(points))


def rate_group(group_id: str) -> None:
    """Every rating of the group made anew (an imported group, a player removed)."""
    _rerate(group_id, None)


# What a statistics read takes: each player's latest skill in each scope.
Board = dict[tuple[str, bool], dict[str, Skill]]


def kept_of(group_id: str) -> Board:
    """Each player's (by id, as text) latest skill in each scope of the group; the rating
    over all games under ``ALL_GAMES``."""
    board: Board = {}
    latest = Rating.select().where((Rating.group == group_id) & Rating.latest)
    for row in latest:
        board.setdefault((row.game, row.lower_is_better), {})[str(row.player_id)] = _skill(row)
    return board


K = TypeVar("K")

# The exports' columns of a player's ratings after a session (``AfterGame.figures``).
COLUMNS = ("rating", "rating_change", "game_rating", "game_rating_change")


@dataclass(frozen=True)
class AfterGame:
    """A player's ratings after one session: over all the group's games, and in its game."""

    overall: Skill
    in_game: Skill

    def figures(self) -> tuple[float, ...]:
        """The ratings and their moves as the pages show them, in ``COLUMNS``' order."""
        return tuple(
            shown(figure)
            for skill in (self.overall, self.in_game)
            for figure in (skill.rating, skill.moved)
        )


def _after_games(rows: Iterable[Rating], key: Callable[[Rating], K | None]) -> dict[K, AfterGame]:
    """The ratings ``rows`` hold, over all games and in a game, paired by ``key`` (a row
    whose key is None is left out)."""
    scopes: dict[K, dict[bool, Skill]] = {}
    for row in rows:
        found = key(row)
        if found is not None:
            scopes.setdefault(found, {})[(row.game, row.lower_is_better) == ALL_GAMES] = _skill(row)
    return {found: AfterGame(both[True], both[False]) for found, both in scopes.items()}


def after_each_session(group_id: str) -> dict[str, dict[int, AfterGame]]:
    """Each rated session of the group (by id): each of its players' (by id) ratings
    after it, as the exports write them."""
    rows = Rating.select().where(Rating.group == group_id)
    after: dict[str, dict[int, AfterGame]] = {}
    for (session, player), rated in _after_games(
        rows, lambda row: (row.session_id, row.player_id)
    ).items():
        after.setdefault(session, {})[player] = rated
    return after


def after_session(session_id: str) -> dict[int, AfterGame]:
    """The ratings after a session of its seats (by position) that had a group player;
    none for a session of no group, nor for one not rated (in play)."""
    seats = Seat.select(Seat.position, Seat.player).where(
        (Seat.session == session_id) & Seat.player.is_null(False)
    )
    position = {seat.player_id: seat.position for seat in seats}
    rows = Rating.select().where(Rating.session == session_id)
    return _after_games(rows, lambda row: position.get(row.player_id))


def shown(figure: float) -> float:
    """A rating, or its movement, as the pages show it: to one decimal, never -0.0."""
    return round(figure, 1) + 0.0
