"""How long rebuilding a session from its event log takes.

A worker that keeps no view of a session (just started, or the session not among
its busiest) replays its live events once. Goal: a 1000-event Yardkle session (a
long evening) replays in under 200 ms on a 2-core machine.

Run: .venv/bin/python bench/replay.py
"""

from __future__ import annotations

import statistics
import time

from yardkle_game import seeded_actions

from scorekeeper.games.base import resolve_options
from scorekeeper.games.yardkle import rules as yardkle
from scorekeeper.session_log import replay

GOAL_MS = 200.0
EVENTS = 1000
SEATS = ("Ann", "Bo", "Cy", "Di")
# High enough that no game ends before EVENTS events.
WINNING_SCORE = 100_000


def main() -> None:
    options = resolve_options(yardkle.GAME.options, {"winning_score": WINNING_SCORE})
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=EVENTS)
    log = [(seq, action, False, False) for seq, action in enumerate(actions, 1)]
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
