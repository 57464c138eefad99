"""Each player's rating (scorekeeper/ratings.py): OpenSkill's own answer, kept in rows by the
writes that end, change, reopen or import sessions, and always equal to rating the group's
finished sessions from scratch in the order they ended."""

from __future__ import annotations

import itertools
import json
import random
from datetime import datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from openskill.models import PlackettLuce
from test_group_export import seated, write

from scorekeeper import group_export, groups, ratings, session_views, store
from scorekeeper.db import database, write_transaction
from scorekeeper.games import GAMES
from scorekeeper.migrations import (
    MIGRATIONS,
    SchemaMigration,
    keep_export_texts,
    migrate,
    rate_every_group,
    rate_partners_as_teams,
)
from scorekeeper.models import GameSession, Rating, Seat

TARGET_10 = {"target": 10}
LOWEST_WINS = {"target": 20, "winner": "lowest"}


def test_a_rating_is_openskills_own_after_each_game(app: Flask) -> None:
    with app.app_context():
        group = groups.create("Friday", ["Ann", "Bo", "Cy"])
        ann, bo, cy = (str(player.id) for player in group.players)
        first = seated(group.id, ["Ann", "Bo", "Cy"], "score-sheet", **TARGET_10)
        write(first, {"type": "round", "points": [12, 12, 5]})  # Ann and Bo share the win
        second = seated(group.id, ["Cy", "Ann"], "score-sheet", **TARGET_10)
        write(second, {"type": "round", "points": [10, 3]})
        kept = ratings.kept_of(group.id)
    model = PlackettLuce()
    # Three newcomers (three objects: OpenSkill answers one object seated thrice once).
    ann0, bo0, cy0 = model.rating(), model.rating(), model.rating()
    [[a1], [b1], [c1]] = model.rate([[ann0], [bo0], [cy0]], ranks=[1, 1, 3])
    [[c2], [a2]] = model.rate([[c1], [a1]], ranks=[1, 2])
    overall = kept[ratings.ALL_GAMES]
    assert (overall[ann].mu, overall[ann].sigma) == pytest.approx((a2.mu, a2.sigma))
    assert (overall[bo].mu, overall[bo].sigma) == pytest.approx((b1.mu, b1.sigma))
    assert (overall[cy].mu, overall[cy].sigma) == pytest.approx((c2.mu, c2.sigma))
    # The number shown is the ordinal; its movement the latest game's.
    assert overall[cy].rating == pytest.approx(c2.ordinal())
    assert overall[cy].moved == pytest.approx(c2.ordinal() - c1.ordinal())
    assert overall[bo].moved == pytest.approx(b1.ordinal())  # from a newcomer's 0
    assert (overall[ann].played, overall[ann].won, overall[ann].places) == (2, 1, 3)
    assert overall[ann].average_place == 1.5
    # The score sheet is the only game: its ratings are the same.
    assert kept[("score-sheet", False)] == overall


def test_a_shared_win_is_a_tie_and_one_seat_moves_no_rating(app: Flask) -> None:
    with app.app_context():
        group = groups.create("Friday", ["Ann", "Bo"])
        shared = seated(group.id, ["Ann", "Bo"], "score-sheet", **TARGET_10)
        write(shared, {"type": "round", "points": [10, 10]})
        kept = ratings.kept_of(group.id)[ratings.ALL_GAMES]
    ann, bo = kept.values()
    # Two players tied from the same start keep the same mu, and grow surer.
    assert ann.mu == pytest.approx(bo.mu) == pytest.approx(25.0)
    assert ann.sigma < ratings.NEWCOMER.sigma
    assert ratings.rate({}, [ended("x", 1, [(1, 1, True)])])[0].skill.mu == 25.0


def test_yokai_septet_partners_are_rated_as_one_team_of_two() -> None:
    # Seats 1 & 3 (Ann, Cy) beat seats 2 & 4 (Bo, Di), the partners sharing their place.
    seats = [(1, 1, True), (2, 2, False), (3, 1, True), (4, 2, False)]
    rated = ratings.rate({}, [ended("x", 1, seats, game="yokai-septet")])
    model = PlackettLuce()
    ann, bo, cy, di = (model.rating() for _ in range(4))
    [[ann1, cy1], [bo1, di1]] = model.rate([[ann, cy], [bo, di]], ranks=[1, 2])
    overall = {row.key[0]: row.skill for row in rated if row.key[1:] == ratings.ALL_GAMES}
    expected = {1: ann1, 2: bo1, 3: cy1, 4: di1}
    for player, team_rated in expected.items():
        assert (overall[player].mu, overall[player].sigma) == pytest.approx(
            (team_rated.mu, team_rated.sigma)
        )
    # A team of two moves less than four players each on their own, tied in pairs.
    [[alone], _, _, _] = model.rate([[ann], [bo], [cy], [di]], ranks=[1, 2, 1, 2])
    assert overall[1].mu != pytest.approx(alone.mu)
    # The other games' seats stay each on their own side.
    single = ratings.rate({}, [ended("y", 1, seats)])
    assert single[0].skill.mu == pytest.approx(alone.mu)


def ended(
    session: str, hour: int, seats: list[tuple[int | None, int, bool]], game: str = "score-sheet"
) -> ratings.Ended:
    return ratings.Ended(
        session,
        datetime(2026, 11, 1, hour),
        game,
        False,
        tuple(ratings.RankedSeat(*seat) for seat in seats),
    )


def from_scratch(group_id: str) -> list[tuple[Any, ...]]:
    """The group's rating rows, made by rating every finished session anew from the seats
    the writes kept, in the order they ended."""
    rows = (
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
        .where((GameSession.group == group_id) & GameSession.finished & Seat.place.is_null(False))
        .order_by(GameSession.finished_at, GameSession.id, Seat.position)
        .tuples()
    )
    made = ratings.rate({}, ratings.ended_sessions(rows))
    newest = {row.key: index for index, row in enumerate(made)}
    return sorted(
        (
            row.session,
            *row.key,
            round(row.skill.mu, 9),
            round(row.skill.sigma, 9),
            round(row.skill.moved, 9),
            row.skill.played,
            row.skill.won,
            row.skill.places,
            newest[row.key] == index,
        )
        for index, row in enumerate(made)
    )


def kept_rows(group_id: str) -> list[tuple[Any, ...]]:
    return sorted(
        (
            row.session_id,
            row.player_id,
            row.game,
            row.lower_is_better,
            round(row.mu, 9),
            round(row.sigma, 9),
            round(row.moved, 9),
            row.played,
            row.won,
            row.places,
            row.latest,
        )
        for row in Rating.select().where(Rating.group == group_id)
    )


def by_name(group: groups.Group) -> dict[tuple[str, bool], dict[str, tuple[float, ...]]]:
    names = {str(player.id): player.name for player in group.players}
    return {
        scope: {
            names[player]: (round(s.mu, 9), round(s.sigma, 9), s.played, s.won, s.places)
            for player, s in skills.items()
        }
        for scope, skills in ratings.kept_of(group.id).items()
    }


def points(chance: random.Random, seats: int, lowest: bool) -> list[int]:
    """One round that ends a score sheet (first to 10, or to 20 with the lowest winning),
    sometimes with a tie."""
    scores = [chance.randrange(0, 25 if lowest else 12) for _ in range(seats)]
    scores[chance.randrange(seats)] = chance.choice((20, 21)) if lowest else chance.choice((10, 11))
    if chance.random() < 0.3:
        scores[0] = scores[-1]
    return scores


@pytest.mark.parametrize("seed", range(4))
def test_kept_ratings_are_those_rated_from_scratch_after_random_ends_corrections_and_imports(
    app: Flask, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    chance = random.Random(seed)
    # A write a minute after the one before: files keep the second a session ended, so
    # an imported group's sessions end in the same order as the original's (in 2099: after
    # they started, by the real clock).
    minutes = itertools.count()
    monkeypatch.setattr(
        store, "utc_now", lambda: datetime(2099, 1, 1) + timedelta(minutes=next(minutes))
    )
    with app.app_context():
        group = groups.create("Club", ["Ann", "Bo", "Cy", "Dee", "Eve"])
        names = [player.name for player in group.players]
        finished: list[tuple[str, bool]] = []
        reopened: list[tuple[str, bool]] = []
        for _ in range(14):
            step = chance.random()
            if step < 0.55 or not finished:
                lowest = chance.random() < 0.3
                seats = chance.sample(names, chance.randrange(2, 5))
                session = seated(
                    group.id, seats, "score-sheet", **(LOWEST_WINS if lowest else TARGET_10)
                )
                write(session, {"type": "round", "points": points(chance, len(seats), lowest)})
                finished.append((session, lowest))
            elif step < 0.8:
                # A correction to an older finished session rates the later ones again.
                session, lowest = chance.choice(finished)
                seats = len(session_views.load(session).state.totals)
                store.correct(
                    session,
                    1,
                    {"type": "round", "points": points(chance, seats, lowest)},
                    session_views.load(session).version,
                )
            elif step < 0.92:
                # An undo reopens it; it ends again later, after the others.
                session, lowest = finished.pop(chance.randrange(len(finished)))
                store.undo(session, session_views.load(session).version)
                reopened.append((session, lowest))
            elif reopened:
                session, lowest = reopened.pop()
                seats = len(session_views.load(session).state.totals)
                write(session, {"type": "round", "points": points(chance, seats, lowest)})
                finished.append((session, lowest))
            assert kept_rows(group.id) == from_scratch(group.id)
        groups.remove_player(group.id, group.players[chance.randrange(5)].id)
        assert kept_rows(group.id) == from_scratch(group.id)
        exported = json.loads(json.dumps(group_export.group_json(groups.load(group.id))))
        copy = group_export.import_group(group_export.read_group(exported))
        assert kept_rows(copy.id) == from_scratch(copy.id)
        # The import reads no rating from the file: it rates the sessions it makes, which
        # end when the originals did, to the same ratings.
        assert by_name(copy) == by_name(groups.load(group.id))


def test_a_session_of_no_group_and_one_in_play_rate_no_one(app: Flask) -> None:
    with app.app_context():
        group = groups.create("Friday", ["Ann", "Bo"])
        in_play = seated(group.id, ["Ann", "Bo"], "score-sheet", **TARGET_10)
        write(in_play, {"type": "round", "points": [3, 4]})
        assert ratings.kept_of(group.id) == {}
        assert Rating.select().count() == 0


def test_the_migration_rates_every_group_from_the_sessions_already_ended(app: Flask) -> None:
    """A database at the migration before it: its groups' finished sessions, one with a
    seat of no player and one of a removed player, rated in the order they ended."""
    number = MIGRATIONS.index(rate_every_group) + 1
    # The latest but one, whose successor only makes a table of its own: with its table
    # dropped and its record deleted, the database is as it was before it.
    assert MIGRATIONS[number:] == (keep_export_texts, rate_partners_as_teams)
    with app.app_context():
        made = []
        for name in ("Friday", "Tuesday"):
            group = groups.create(name, ["Ann", "Bo", "Cy"])
            for order, round_points in (
                (["Ann", "Bo"], [10, 4]),
                (["Bo", "Cy", "Ann"], [11, 11, 2]),
                (["Cy", "Ann"], [3, 10]),
            ):
                session = seated(group.id, order, "score-sheet", **TARGET_10)
                write(session, {"type": "round", "points": round_points})
            groups.remove_player(group.id, group.players[2].id)
            made.append(group.id)
        kept = [kept_rows(group_id) for group_id in made]
        with write_transaction():
            database.execute_sql("DROP TABLE rating")
            SchemaMigration.delete().where(SchemaMigration.number == number).execute()
        assert migrate() == [number]
        assert [kept_rows(group_id) for group_id in made] == kept
        assert [from_scratch(group_id) for group_id in made] == kept
        assert len(kept[0]) == 2 * 5  # Ann and Bo's rows (all games, the score sheet)


def finished_yokai_septet(group_id: str, names: list[str]) -> str:
    """A Yokai Septet game of the group's players, its rounds entered as results: seats 1
    and 3 win both, 4 points each (all four Boss Yokai), to 8."""
    session = seated(group_id, names, "yokai-septet")
    for number in (1, 2):
        write(session, {"type": "trump", "card": "red 9"})
        if number == 1:
            write(session, {"type": "first-lead", "seat": 0})
        boss = ["blue 7", "pink 7", "green 7", "yellow 7"]
        write(session, {"type": "result", "team": 0, "how": "four-boss", "boss": boss})
    assert session_views.load(session).finished
    return session


def test_the_migration_rates_groups_that_played_partners_again_as_teams(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database whose Yokai Septet games were rated a seat a side (before migration 21):
    the group's rows, later games' included, become those rated with the teams."""
    number = MIGRATIONS.index(rate_partners_as_teams) + 1
    assert MIGRATIONS[number:] == ()
    with app.app_context():
        group = groups.create("Friday", ["Ann", "Bo", "Cy", "Di"])
        other = groups.create("Tuesday", ["Ann", "Bo"])
        with monkeypatch.context() as before:
            before.setattr(GAMES["yokai-septet"], "partners", ())
            finished_yokai_septet(group.id, ["Ann", "Bo", "Cy", "Di"])
            sheet = seated(group.id, ["Di", "Ann"], "score-sheet", **TARGET_10)
            write(sheet, {"type": "round", "points": [10, 4]})
            alone = seated(other.id, ["Ann", "Bo"], "score-sheet", **TARGET_10)
            write(alone, {"type": "round", "points": [2, 10]})
            rated_alone = kept_rows(group.id)
        others = kept_rows(other.id)
        with write_transaction():
            SchemaMigration.delete().where(SchemaMigration.number == number).execute()
        assert migrate() == [number]
        assert kept_rows(group.id) == from_scratch(group.id) != rated_alone
        assert kept_rows(other.id) == others
        overall = ratings.kept_of(group.id)[ratings.ALL_GAMES]
    _ann, bo, cy, _di = (overall[str(player.id)] for player in group.players)
    # Bo and Cy played only the Yokai Septet game: rated as OpenSkill rates two teams.
    model = PlackettLuce()
    start = [model.rating() for _ in range(4)]
    [[_, cy1], [bo1, _]] = model.rate([[start[0], start[2]], [start[1], start[3]]], ranks=[1, 3])
    assert (cy.mu, cy.sigma) == pytest.approx((cy1.mu, cy1.sigma))
    assert (bo.mu, bo.sigma) == pytest.approx((bo1.mu, bo1.sigma))
