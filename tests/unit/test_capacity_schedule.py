"""bench/capacity.py's load: what each phone of a table sends in a window, and that a
late request's latency counts from the time it was planned for."""

from __future__ import annotations

import asyncio
import itertools
from concurrent.futures import ThreadPoolExecutor

from capacity import CHECK, CHECK_THEN_PAGE, TAP, Planned, play, schedule


def test_each_table_plans_a_check_every_1_5_s_per_watcher_and_a_tap_every_6_s() -> None:
    tables = schedule(tables=3, seconds=60, seed=7)

    assert len(tables) == 3
    for *watchers, scorer in tables:
        assert len(watchers) == 4
        taps = [planned.at for planned in scorer]
        assert {planned.kind for planned in scorer} == {TAP}
        assert len(taps) == 10
        assert all(abs(later - earlier - 6) < 1e-9 for earlier, later in itertools.pairwise(taps))
        assert 0 <= taps[0] < 6 and taps[-1] < 60
        for watcher in watchers:
            checks = [planned.at for planned in watcher]
            assert len(checks) == 40
            assert all(
                abs(later - earlier - 1.5) < 1e-9 for earlier, later in itertools.pairwise(checks)
            )
            assert 0 <= checks[0] < 1.5 and checks[-1] < 60
            # The page loads again after the first check following each tap, and only then.
            reloads = [planned.at for planned in watcher if planned.kind == CHECK_THEN_PAGE]
            first_after = [min(c for c in checks if c > tap) for tap in taps if tap < checks[-1]]
            assert reloads == first_after
            assert len(reloads) in (9, 10)
            assert {planned.kind for planned in watcher} == {CHECK, CHECK_THEN_PAGE}


def test_the_same_seed_plans_the_same_phases_and_tables_differ_in_phase() -> None:
    assert schedule(4, 30, seed=1) == schedule(4, 30, seed=1)
    first_taps = {scorer[0].at for *_watchers, scorer in schedule(4, 30, seed=1)}
    assert len(first_taps) == 4


def test_a_request_sent_late_behind_a_slow_answer_keeps_its_planned_time() -> None:
    now = [100.0]
    sent: list[tuple[float, float]] = []

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    async def slow_answer(planned: Planned, due: float) -> None:
        sent.append((due, now[0]))
        now[0] += 2.0  # each answer takes 2 s; the phone plans a request every 1.5 s

    plan = [Planned(at, CHECK) for at in (0.0, 1.5, 3.0, 10.0)]
    # On a thread of its own: a browser test in this process holds this thread's event
    # loop (Playwright's), and asyncio.run refuses to start another beside it.
    with ThreadPoolExecutor(1) as alone:
        alone.submit(asyncio.run, play(plan, 100.0, slow_answer, lambda: now[0], sleep)).result()

    # Planned at 100, 101.5, 103 and 110; the second and third wait for the answers before
    # them, and are handed their planned time, from which their latency is counted.
    assert sent == [(100.0, 100.0), (101.5, 102.0), (103.0, 104.0), (110.0, 110.0)]
