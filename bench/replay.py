"""How long rebuilding a session from its event log takes.

Every page and every write replays the session's live events, so this is the
app's main cost per request. Goal: a 1000-event Yardkle session (a long
evening) replays in under 200 ms on a 2-core machine.

Run: .venv/bin/python bench/replay.py
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from scorekeeper.games.base import resolve_options
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.store import replay

GOAL_MS = 200.0
EVENTS = 1000
SEATS = ("Ann", "Bo", "Cy", "Di")


def seeded_log(seed: int) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any], bool, bool]]]:
    """A legal log of EVENTS actions: random rolls, the best set-aside, banks now and then."""
    game, rng = yardkle.GAME, random.Random(seed)
    options = resolve_options(game.options, {"winning_score": 100_000})
    state = game.start(SEATS, options)
    log: list[tuple[int, dict[str, Any], bool, bool]] = []
    while len(log) < EVENTS:
        if state.turn.pending_roll is None:
            dice = [rng.randint(1, 6) for _ in range(state.turn.dice_left)]
            action: dict[str, Any] = {"type": "roll", "dice": dice}
        else:
            keep = list(yardkle.best_keep(state.turn.pending_roll))
            action = {"type": "keep", "dice": keep, "bank": False}
            after = game.apply(state, game.parse_action(action))
            action["bank"] = yardkle.can_bank(after) and rng.random() < 0.4
        state = game.apply(state, game.parse_action(action))
        log.append((len(log) + 1, action, False, False))
    return options, log


def main() -> None:
    options, log = seeded_log(1)
    timings = []
    for _ in range(10):
        start = time.perf_counter()
        replay(yardkle.GAME, SEATS, options, log)
        timings.append((time.perf_counter() - start) * 1000)
    median = statistics.median(timings)
    verdict = "meets" if median < GOAL_MS else "MISSES"
    print(f"{EVENTS} events replayed in {median:.1f} ms ({verdict} the {GOAL_MS:.0f} ms goal)")


if __name__ == "__main__":
    main()
