"""A group's totals (scorekeeper/group_totals.py), kept by the writes: after seeded random
writes (games ended, corrected, reopened by an undo and ended again, imported alone or in
a group's file, a player removed) they are what tests/stats_reference.py counts from the
group's results; migration 17 fills them for the sessions already played."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import stats_reference
from conftest import POSTGRES_URL, empty_postgres, make_app
from flask import Flask
from test_app import EVERY_MIGRATION, migrated_up_to
from test_read_model import EVENT_COLUMNS, SEAT_COLUMNS, SESSION_COLUMNS, insert, rows_of

from scorekeeper import (
    export,
    group_export,
    group_figures,
    groups,
    lifecycle,
    session_views,
    store,
)
from scorekeeper.db import database
from scorekeeper.games import get_game
from scorekeeper.games.base import IllegalAction
from scorekeeper.group_totals import buckets
from scorekeeper.migrations import SchemaMigration
from scorekeeper.models import GroupDay, GroupGame, GroupPlayerDay, GroupPlayerGame

Totals = dict[str, dict[Any, Any]]
SHEET = get_game("score-sheet")


def kept(group_id: str) -> Totals:
    """The group's totals as the writes kept them."""
    return {
        "games": {
            (row.game, row.lower_is_better): (row.played, row.last_ended)
            for row in GroupGame.select().where(GroupGame.group == group_id)
        },
        "players": {
            (row.player_id, row.game, row.lower_is_better): (
                row.played,
                row.won,
                row.score_sum,
                row.score_min,
                row.score_max,
                row.last_ended,
            )
            for row in GroupPlayerGame.select().where(GroupPlayerGame.group == group_id)
        },
        "days": {
            row.day: (row.played, row.week, row.month, row.year)
            for row in GroupDay.select().where(GroupDay.group == group_id)
        },
        "wins": {
            (row.player_id, row.day): row.won
            for row in GroupPlayerDay.select().where(GroupPlayerDay.group == group_id)
        },
    }


def counted(group: groups.Group) -> Totals:
    """The same totals counted in Python from the group's results (stats_reference)."""
    totals: Totals = {"games": {}, "players": {}, "days": {}, "wins": {}}
    for result in stats_reference.group_results(group):
        ended = result.ended_at
        game = (result.game, result.lower_is_better)
        played, last = totals["games"].get(game, (0, ended))
        totals["games"][game] = (played + 1, max(last, ended))
        on = buckets(ended.date())
        day = totals["days"].get(on["day"], (0,))
        totals["days"][on["day"]] = (day[0] + 1, on["week"], on["month"], on["year"])
        for seat, player in enumerate(result.players):
            if not player:
                continue
            score, won = result.scores[seat], seat in result.winners
            key = (int(player), *game)
            was = totals["players"].get(key, (0, 0, 0, score, score, ended))
            totals["players"][key] = (
                was[0] + 1,
                was[1] + won,
                was[2] + score,
                min(was[3], score),
                max(was[4], score),
                max(was[5], ended),
            )
            if won:
                wins = (int(player), on["day"])
                totals["wins"][wins] = totals["wins"].get(wins, 0) + 1
    return totals


def assert_counted(group_id: str, step: object) -> None:
    group = groups.load(group_id)
    assert kept(group_id) == counted(group), step
    results = stats_reference.group_results(group)
    assert group_figures.compute(group) == stats_reference.compute(results), step


class Table:
    """Seeded random writes to a group's score sheets, at a clock the test moves on."""

    def __init__(self, chance: random.Random, clock: list[datetime]) -> None:
        self.chance = chance
        self.clock = clock
        self.group = groups.create("Friday", ["Ann", "Bo", "Cy", "Dee", "Eve"])
        self.sessions: list[str] = []

    def later(self) -> None:
        hours = self.chance.choice((0, 1, 3, 20, 24 * 5, 24 * 40))
        self.clock[0] += timedelta(hours=hours)

    def start(self) -> None:
        group = groups.load(self.group.id)
        players = self.chance.sample(
            [player.id for player in group.players],
            self.chance.randrange(2, min(4, len(group.players)) + 1),
        )
        options = {"target": 20, "winner": self.chance.choice(("highest", "lowest"))}
        seating = groups.seating(group, players, SHEET)
        session_id, _key = lifecycle.create(SHEET.slug, [], options, seating=seating)
        self.sessions.append(session_id)

    def points(self, view: session_views.SessionView) -> dict[str, Any]:
        # A seat may reach the target, several together (a shared win), or none.
        return {
            "type": "round",
            "points": [self.chance.choice((0, 4, 9, 20)) for _ in view.seats],
        }

    def write(self) -> str:
        """One write at random; what it was."""
        if not self.sessions or self.chance.random() < 0.15:
            self.start()
            return "start"
        session_id = self.chance.choice(self.sessions)
        view = session_views.load(session_id)
        live = [event for event in view.events if not event.undone]
        can = {
            "round": not view.finished,
            "correct": bool(live),
            "undo": bool(live),
            "redo": view.can_redo,
            "rematch": view.finished,
        }
        what = self.chance.choice([write for write, possible in can.items() if possible])
        try:
            if what == "round":
                store.append(session_id, self.points(view), view.version)
            elif what == "correct":
                seq = self.chance.choice(live).seq
                store.correct(session_id, seq, self.points(view), view.version)
            elif what == "undo":
                store.undo(session_id, view.version)
            elif what == "redo":
                store.redo(session_id, view.version)
            else:
                following = lifecycle.rematch(session_id)
                if not following.already_started:
                    self.sessions.append(following.id)
        except IllegalAction:
            return f"{what} refused"
        if session_views.load(session_id).finished != view.finished:
            return "end" if view.finished is False else f"{what} reopens"
        return what


@pytest.mark.parametrize("seed", range(4))
def test_the_totals_the_writes_keep_are_those_counted_from_the_groups_results(
    app: Flask, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    chance = random.Random(seed)
    clock = [datetime(2026, 10, 30, 20, 0)]
    monkeypatch.setattr(store, "utc_now", lambda: clock[0])
    with app.app_context():
        table = Table(chance, clock)
        done = []
        for step in range(70):
            table.later()
            done.append(table.write())
            if step == 40:
                # A player leaves: their seats count for no one, their totals go.
                groups.remove_player(table.group.id, groups.load(table.group.id).players[-1].id)
                done.append("remove")
            assert_counted(table.group.id, (step, done[-1]))
        wrote = {"end", "correct", "undo reopens", "redo", "rematch", "remove"}
        assert wrote <= set(done), done
        totals = kept(table.group.id)
        assert totals["games"] and totals["players"] and totals["wins"]
        # A session imported alone is of no group: no group's totals change.
        finished = [s for s in table.sessions if session_views.load(s).finished]
        before = kept(table.group.id)
        lifecycle.import_session(
            export.read_export(export.session_json(session_views.load(finished[0])))
        )
        assert kept(table.group.id) == before
        # A group's file imported: its sessions count in the new group's totals.
        exported = group_export.group_json(groups.load(table.group.id))
        copy = group_export.import_group(group_export.read_group(exported))
        assert_counted(copy.id, "group import")
        assert sum(played for played, _ in kept(copy.id)["games"].values()) == len(finished)


# --- Migration 17 fills the totals of the sessions already played ------------------------


def _boolean(stored: object) -> bool | None:
    # SQLite's 0 and 1 as PostgreSQL's booleans; NULL stays.
    return None if stored is None else bool(stored)


def test_migration_17_fills_each_groups_totals_from_its_finished_sessions(
    database_url: str, tmp_path: Path
) -> None:
    # Sessions played on a database of their own: the seeded writes above, a group's.
    app = make_app(f"sqlite:///{tmp_path}/played.sqlite3")
    with app.app_context(), pytest.MonkeyPatch.context() as patch:
        clock = [datetime(2026, 10, 30, 20, 0)]
        patch.setattr(store, "utc_now", lambda: clock[0])
        table = Table(random.Random(7), clock)
        for _ in range(50):
            table.later()
            table.write()
        group = groups.load(table.group.id)
        played = counted(group)
        copied = {
            "player_group": rows_of("player_group", "id, edit_key, name, created_at, updated_at"),
            "group_player": rows_of(
                "group_player", "id, group_id, name, colour, emoji, created_at"
            ),
            "game_session": [
                (*row[:6], bool(row[6]), bool(row[7]), *row[8:13], _boolean(row[13]))
                for row in rows_of(
                    "game_session",
                    f"{SESSION_COLUMNS}, group_id, rounds_played, lower_is_better",
                )
            ],
            "seat": [
                (*row[:-1], _boolean(row[-1]))
                for row in rows_of("seat", f"{SEAT_COLUMNS}, player_id, score, place, won")
            ],
            "event": [
                (*row[:3], bool(row[3]), bool(row[4]), row[5])
                for row in rows_of("event", EVENT_COLUMNS)
            ],
        }
    database.close_all()
    assert played["games"] and played["wins"]
    if database_url == POSTGRES_URL:
        empty_postgres(database_url)
    migrated_up_to(database_url, 16)
    with database.connection_context():
        for table_name, columns in (
            ("player_group", "id, edit_key, name, created_at, updated_at"),
            ("group_player", "id, group_id, name, colour, emoji, created_at"),
            ("game_session", f"{SESSION_COLUMNS}, group_id, rounds_played, lower_is_better"),
            ("seat", f"{SEAT_COLUMNS}, player_id, score, place, won"),
            ("event", EVENT_COLUMNS),
        ):
            insert(table_name, columns, copied[table_name])
    make_app(database_url)
    with database.connection_context():
        assert [row.number for row in SchemaMigration.select()] == EVERY_MIGRATION
        assert kept(group.id) == played
        assert group_figures.compute(groups.load(group.id)) == stats_reference.compute(
            stats_reference.group_results(groups.load(group.id))
        )
