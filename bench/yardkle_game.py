"""What the store benchmarks share: a seeded Yardkle game and the app on a database."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from flask import Flask

from scorekeeper import create_app
from scorekeeper.games.base import resolve_options
from scorekeeper.games.yardkle import rules as yardkle


def seeded_actions(
    seats: Sequence[str], winning_score: int, seed: int, limit: int
) -> list[dict[str, Any]]:
    """Up to ``limit`` legal actions, as the table would record them: random rolls, the
    best set-aside, banks now and then; fewer if the game ends first."""
    game, rng = yardkle.GAME, random.Random(seed)
    state = game.start(seats, resolve_options(game.options, {"winning_score": winning_score}))
    actions: list[dict[str, Any]] = []
    while len(actions) < limit and not game.is_finished(state):
        if state.turn.pending_roll is None:
            dice = [rng.randint(1, 6) for _ in range(state.turn.dice_left)]
            action: dict[str, Any] = {"type": "roll", "dice": dice}
        else:
            keep = list(yardkle.best_keep(state.turn.pending_roll))
            action = {"type": "keep", "dice": keep, "bank": False}
            after = game.apply(state, game.parse_action(action))
            action["bank"] = yardkle.can_bank(after) and rng.random() < 0.4
        state = game.apply(state, game.parse_action(action))
        actions.append(action)
    return actions


def open_app(database_url: str) -> Flask:
    """The app on ``database_url`` (its schema brought up to date), as a worker runs it."""
    return create_app(
        {"DATABASE_URL": database_url, "SECRET_KEY": "bench", "WTF_CSRF_ENABLED": False}
    )
