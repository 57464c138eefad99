"""How many tables one server holds: the largest number of tables playing at once whose
requests are answered with a p99 under 100 ms and none failed.

A table is five phones on a session (an 8-seat Yardkle game). Four watch: each checks
the session's version every 1.5 s as the page does (static/app.js, RETRY_MS; the
issue's 2 s was the interval before it was shortened), with the ETag it last got in
If-None-Match, and the first check after each tap, which sees the new version, is
followed by the page loaded again, as the page reloads itself. One scores: every 6 s
it taps, posting the page's total form (its version, one-time form key and CSRF token,
a scoreless total, always legal) with the cookie a "score with me" link gave it, then
loads the page the 303 sends it to, whose form it posts next.

The load is an open loop: each request is sent at its planned time whatever the answers'
speed (a closed loop such as wrk slows down with the server and hides overload), on
the phone's own HTTP/1.1 connection (asyncio, one per phone, opened again when the
server closes it); a phone still waiting for an answer sends its next request once it
has it, and each request's latency is counted from its planned time (a page loaded
after an answer, from that answer), so a late send counts as latency. The tables' phases
are random (seeded), so the load is smooth. A run plays N tables for a few seconds not
counted, then BENCH_SECONDS; it holds if the p99 of every counted request is under
100 ms and none failed (an answer other than 200, 303 or 304, a tap answered other than
303 or not found recorded afterwards, a connection error, a request unanswered 5 s after
the run).

N grows by doubling from BENCH_TABLES until a run does not hold, then is bisected until
the held and the failed N are within 10% of each other, as long as each server's search
fits in BENCH_BUDGET seconds. The same search runs against the anchor
(bench/anchor_app.py under the same gunicorn settings), which answers the same requests
with the app's answers captured just before: a watcher's page, the version check's 200
and 304, the scorer's "score with me" link, its page and a tap's 303. Both run as the
README deploys the app (gunicorn, 3 workers, in the repository folder), as in
bench/http_load.py, whose server and capture code this uses.

The generator runs on the same machine as the server: beside each run it prints the CPU
it spent per request, the server's workers' and, on PostgreSQL, a local server's, and
its own delay (how late its event loop wakes a 10 ms timer, a delay every latency holds
too), so a reader can tell when the generator, not the server, was the limit.

Run: .venv/bin/python bench/capacity.py [postgresql://user@host/db ...]
(SQLite in a temporary directory always; each URL given is measured too. BENCH_SECONDS:
a run's counted length, 20; BENCH_WARM_UP: its uncounted start, 4; BENCH_TABLES: the
first N, 16; BENCH_BUDGET: seconds each server's search may take, 150.)
"""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
import re
import resource
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from http_load import (
    WINNING_SCORE,
    Server,
    anchor_answer,
    cpu_now,
    free_port,
    recorded_events,
    start_server,
)
from yardkle_game import NewSession, open_app, sessions_deleted_afterwards

from scorekeeper.db import database

CHECK_EVERY = 1.5  # static/app.js, RETRY_MS
TAP_EVERY = 6.0
WATCHERS = 4
P99_LIMIT_MS = 100.0
SECONDS = float(os.environ.get("BENCH_SECONDS", "20"))
WARM_UP = float(os.environ.get("BENCH_WARM_UP", "4"))
FIRST_TABLES = int(os.environ.get("BENCH_TABLES", "16"))
BUDGET = float(os.environ.get("BENCH_BUDGET", "150"))
# A request still unanswered this long after the run's last planned time has failed.
GRACE = 5.0
# After a run not held, the server still works off the requests queued in its backlog:
# the next run waits until it answers a probe at once again (or this long at most), so
# that it is not measured on the last one's queue.
DRAINED_MS, DRAIN_LIMIT_SECONDS = 20.0, 120.0
# The search stops once the first N that failed is within this ratio of the last held.
PRECISION = 1.1
TAP_FIELDS = {"type": "total", "points": "0"}  # a scoreless turn: always legal

CHECK, CHECK_THEN_PAGE, TAP = "check", "check, then the page", "tap"


@dataclass(frozen=True)
class Planned:
    """What a phone does at ``at`` seconds from the start of a run."""

    at: float
    kind: str  # CHECK, CHECK_THEN_PAGE or TAP


def every(phase: float, interval: float, seconds: float) -> list[float]:
    return [phase + interval * k for k in range(math.ceil((seconds - phase) / interval))]


def table_plan(rng: random.Random, seconds: float) -> list[list[Planned]]:
    """A table's phones for ``seconds``: its watchers, then its scorer."""
    taps = every(rng.uniform(0, TAP_EVERY), TAP_EVERY, seconds)
    phones = []
    for _ in range(WATCHERS):
        checks = every(rng.uniform(0, CHECK_EVERY), CHECK_EVERY, seconds)
        # The first check after a tap finds a new version: the page loads itself again.
        reloading = {next((c for c in checks if c > tap), None) for tap in taps}
        phones.append([Planned(c, CHECK_THEN_PAGE if c in reloading else CHECK) for c in checks])
    phones.append([Planned(tap, TAP) for tap in taps])
    return phones


def schedule(tables: int, seconds: float, seed: int) -> list[list[list[Planned]]]:
    """Each table's phones' plans, phases drawn from ``seed``."""
    rng = random.Random(seed)
    return [table_plan(rng, seconds) for _ in range(tables)]


async def play(
    plan: list[Planned],
    start: float,
    act: Callable[[Planned, float], Awaitable[None]],
    clock: Callable[[], float],
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> None:
    """Do each planned thing at its time, or at once when the last one ended late; ``act``
    is given the planned time, from which it counts latency."""
    for planned in plan:
        due = start + planned.at
        if (wait := due - clock()) > 0:
            await sleep(wait)
        await act(planned, due)


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]  # by lower-case name
    body: bytes

    def header(self, name: str) -> str | None:
        return self.headers.get(name.lower())

    def anchor(self) -> dict[str, object]:
        return anchor_answer(self.status, self.header, self.body)


@dataclass(frozen=True)
class Sample:
    kind: str
    due: float
    answered: float
    ok: bool

    @property
    def latency_ms(self) -> float:
        return (self.answered - self.due) * 1000


TOTAL_FORM = re.compile(r'<form method="post" action="[^"]*" id="total-form">(.*?)</form>', re.S)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')


class Phone:
    """A phone's HTTP/1.1 connection to the server, and what it keeps: its cookie, the
    ETag of the last version it got and, a scorer, the fields of its page's total form."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie: str | None = None
        self.etag: str | None = None
        self.form: dict[str, str] = {}
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def send(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> Answer:
        try:
            return await self.exchange(method, path, headers, body)
        except BaseException:
            self.close()
            raise

    async def exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> Answer:
        if self.streams is None:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if self.cookie:
            lines.append(f"Cookie: session={self.cookie}")
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded"]
            lines += [f"Content-Length: {len(body)}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        answer_headers = {}
        for line in head[1:-2]:
            name, value = line.split(":", 1)
            answer_headers[name.lower()] = value.strip()
            if name.lower() == "set-cookie" and value.strip().startswith("session="):
                self.cookie = value.strip().split(";", 1)[0].removeprefix("session=")
        if "content-length" in answer_headers:
            content = await reader.readexactly(int(answer_headers["content-length"]))
        elif status in (204, 304):
            content = b""
        else:
            content = await reader.read()  # the body ends with the connection
        if answer_headers.get("connection", "").lower() == "close" or reader.at_eof():
            self.close()
        return Answer(status, answer_headers, content)

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None

    async def check(self, path: str) -> Answer:
        headers = {"Accept": "application/json"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        answer = await self.send("GET", path, headers)
        self.etag = answer.header("ETag") or self.etag
        return answer

    async def page(self, path: str) -> Answer:
        answer = await self.send("GET", path, {"Accept": "text/html"})
        self.keep_form(answer)
        return answer

    async def tap(self, path: str) -> Answer:
        fields = {**self.form, **TAP_FIELDS}
        body = urllib.parse.urlencode(fields).encode()
        answer = await self.send("POST", path, {"Accept": "text/html"}, body)
        self.keep_form(answer)  # a refusal shows the page again, with a fresh form
        return answer

    def keep_form(self, answer: Answer) -> None:
        if form := TOTAL_FORM.search(answer.body.decode()):
            self.form = dict(HIDDEN.findall(form.group(1)))


@dataclass(frozen=True)
class Paths:
    page: str
    version: str
    join: str
    action: str


def session_paths(session_id: str, key: str) -> Paths:
    page = f"/s/{session_id}"
    return Paths(
        page, f"/api/v1/sessions/{session_id}/version", f"{page}/join/{key}", f"{page}/action"
    )


@dataclass
class Table:
    """A session's phones: the watchers watch ``watched``, the scorer scores ``scored``
    (the same session on the app; on the anchor, the paths its answers were captured
    for)."""

    watched: Paths
    scored: Paths
    watchers: list[Phone]
    scorer: Phone

    @staticmethod
    def at(port: int, watched: Paths, scored: Paths) -> Table:
        return Table(watched, scored, [Phone(port) for _ in range(WATCHERS)], Phone(port))

    async def open(self) -> None:
        """As phones come to a table: a watcher opens the view link (its second visit
        makes its device) and checks the version once; the scorer opens its "score
        with me" link, which sends it to the page."""
        for watcher in self.watchers:
            for _ in range(2):
                expect(await watcher.page(self.watched.page), 200)
            expect(await watcher.check(self.watched.version), 200)
        expect(await self.scorer.send("GET", self.scored.join, {}), 303)
        expect(await self.scorer.page(self.scored.page), 200)


def expect(answer: Answer, status: int) -> None:
    if answer.status != status:
        raise RuntimeError(f"expected {status}, got {answer.status}: {answer.body[:300]!r}")


@dataclass
class Tally:
    """What a run's phones saw: the counted samples, failures, all requests answered."""

    counted_from: float
    samples: list[Sample] = field(default_factory=list)
    failures: dict[str, int] = field(default_factory=dict)
    answered: int = 0
    finished: int = 0  # counted planned things done, answered or failed
    taps_posted: int = 0  # counted taps answered 303

    def fail(self, why: str) -> None:
        self.failures[why] = self.failures.get(why, 0) + 1

    async def timed(
        self, kind: str, due: float, request: Awaitable[Answer], statuses: tuple[int, ...]
    ) -> Answer | None:
        """The answer to ``request``, noted as a sample of ``kind`` due at ``due``."""
        counted = due >= self.counted_from
        try:
            answer = await request
        except (OSError, asyncio.IncompleteReadError, ValueError) as error:
            if counted:
                self.fail(f"{kind}: {type(error).__name__}")
            return None
        self.answered += 1
        ok = answer.status in statuses
        if counted:
            self.samples.append(Sample(kind, due, asyncio.get_running_loop().time(), ok))
            if not ok:
                self.fail(f"{kind}: {answer.status}")
        return answer

    def watcher(self, table: Table, phone: Phone) -> Callable[[Planned, float], Awaitable[None]]:
        async def act(planned: Planned, due: float) -> None:
            paths = table.watched
            checked = await self.timed("check", due, phone.check(paths.version), (200, 304))
            if checked and planned.kind == CHECK_THEN_PAGE:
                now = asyncio.get_running_loop().time()
                await self.timed("page", now, phone.page(paths.page), (200,))
            self.finished += due >= self.counted_from

        return act

    def scorer(self, table: Table) -> Callable[[Planned, float], Awaitable[None]]:
        async def act(planned: Planned, due: float) -> None:
            phone, paths = table.scorer, table.scored
            tapped = await self.timed("tap", due, phone.tap(paths.action), (303,))
            if tapped and tapped.status == 303:
                if due >= self.counted_from:
                    self.taps_posted += 1
                now = asyncio.get_running_loop().time()
                await self.timed("page after a tap", now, phone.page(paths.page), (200,))
            self.finished += due >= self.counted_from

        return act


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)] if ordered else math.inf


@dataclass(frozen=True)
class Outcome:
    tables: int
    counted: int
    p50_ms: float
    p99_ms: float
    p99_by_kind: dict[str, float]
    failures: dict[str, int]
    generator_ms: float  # CPU per answered request
    workers_ms: float
    database_ms: float | None  # None: SQLite, whose work is the workers'
    lag_p99_ms: float  # the generator's own delay, in every latency

    @property
    def held(self) -> bool:
        return self.counted > 0 and not self.failures and self.p99_ms < P99_LIMIT_MS

    def line(self) -> str:
        failed = ", ".join(f"{why}: {count}" for why, count in sorted(self.failures.items()))
        return (
            f"{self.tables:>5} tables: {self.counted / SECONDS:>6.0f} req/s, "
            f"p50 {self.p50_ms:>7.1f} ms, p99 {self.p99_ms:>8.1f} ms; CPU ms per request: "
            f"workers {self.workers_ms:.2f}, "
            + ("" if self.database_ms is None else f"PostgreSQL {self.database_ms:.2f}, ")
            + f"generator {self.generator_ms:.2f}; "
            f"generator's delay p99 {self.lag_p99_ms:.1f} ms; p99 by request: "
            + ", ".join(f"{kind} {p99:.0f}" for kind, p99 in self.p99_by_kind.items())
            + " ms; "
            f"{'held' if self.held else 'NOT held'}{f' ({failed})' if failed else ''}"
        )


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def loop_delays(since: float, until: float) -> list[float]:
    """How late, in ms, the generator's event loop wakes a timer set every 10 ms: a delay
    every request's latency holds too, so a large one means the generator (or what else
    runs on the machine) was the limit, not the server."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, since - loop.time()))
    delays = []
    while (due := loop.time() + 0.01) < until:
        await asyncio.sleep(0.01)
        delays.append((loop.time() - due) * 1000)
    return delays


async def play_tables(
    tables: list[Table], server: Server, recorded: Callable[[], int] | None, postgresql: bool
) -> Outcome:
    """One run of ``tables``: WARM_UP seconds not counted, then SECONDS counted."""
    loop = asyncio.get_running_loop()
    plans = schedule(len(tables), WARM_UP + SECONDS, seed=len(tables))
    start = loop.time() + 0.2
    tally = Tally(counted_from=start + WARM_UP)
    events_before = recorded() if recorded else 0
    cpu_before, generator_before = cpu_now(server), own_cpu()
    tasks = []
    for table, phones in zip(tables, plans, strict=True):
        acts = [tally.watcher(table, watcher) for watcher in table.watchers]
        acts.append(tally.scorer(table))
        tasks += [
            asyncio.create_task(play(plan, start, act, loop.time))
            for plan, act in zip(phones, acts, strict=True)
        ]
    delays = asyncio.create_task(loop_delays(tally.counted_from, start + WARM_UP + SECONDS))
    _done, late = await asyncio.wait(tasks, timeout=start + WARM_UP + SECONDS + GRACE - loop.time())
    for task in late:
        task.cancel()
    await asyncio.gather(*late, return_exceptions=True)
    server_cpu, generator = cpu_now(server) - cpu_before, own_cpu() - generator_before
    for table in tables:
        for phone in (*table.watchers, table.scorer):
            phone.close()
    planned = sum(p.at >= WARM_UP for phones in plans for plan in phones for p in plan)
    if unanswered := planned - tally.finished:
        tally.failures[f"unanswered {GRACE:.0f} s after the run"] = unanswered
    if recorded and (lost := tally.taps_posted - (recorded() - events_before)) > 0:
        tally.failures["taps answered 303 but not recorded"] = lost
    latencies = [sample.latency_ms for sample in tally.samples]
    answered = max(tally.answered, 1)
    return Outcome(
        len(tables),
        len(latencies),
        percentile(latencies, 0.50),
        percentile(latencies, 0.99),
        {
            kind: percentile([s.latency_ms for s in tally.samples if s.kind == kind], 0.99)
            for kind in ("check", "page", "tap", "page after a tap")
        },
        tally.failures,
        generator * 1000 / answered,
        server_cpu.workers * 1000 / answered,
        server_cpu.database * 1000 / answered if postgresql else None,
        percentile(await delays, 0.99),
    )


class Tables:
    """The tables a search plays, opened as more are needed and kept between runs."""

    def __init__(self, port: int, paths: Callable[[int], tuple[Paths, Paths]]) -> None:
        self.port = port
        self.paths = paths
        self.opened: list[Table] = []

    async def first(self, count: int) -> list[Table]:
        new = [Table.at(self.port, *self.paths(n)) for n in range(len(self.opened), count)]
        opening = asyncio.Semaphore(8)

        async def open_one(table: Table) -> None:
            async with opening:
                await table.open()

        await asyncio.gather(*(open_one(table) for table in new))
        self.opened += new
        return self.opened[:count]


async def largest_held(
    label: str,
    tables: Tables,
    server: Server,
    first: int,
    recorded: Callable[[], int] | None,
    postgresql: bool,
) -> tuple[int, int | None]:
    """The largest N held, and the smallest found not held (None: none was, in the
    budget)."""
    print(f"\n{label}")
    deadline = time.monotonic() + BUDGET
    held, failed, count = 0, None, first
    while count > 0:
        started = time.monotonic()
        outcome = await play_tables(await tables.first(count), server, recorded, postgresql)
        print(outcome.line(), flush=True)
        if outcome.held:
            held = count
        else:
            failed = count
            await drained(server.port)
        if failed is None:
            count *= 2
        elif held == 0:
            count //= 2
        else:
            if failed <= held * PRECISION or failed - held <= 1:
                break
            count = round(math.sqrt(held * failed))
        if time.monotonic() + (time.monotonic() - started) > deadline:
            print(f"(the search's budget, {BUDGET:.0f} s, is spent)")
            break
    return held, failed


async def drained(port: int) -> None:
    """Until three probes in a row (a request on a new connection) are answered within
    DRAINED_MS, or DRAIN_LIMIT_SECONDS have passed."""
    loop = asyncio.get_running_loop()
    deadline, prompt = loop.time() + DRAIN_LIMIT_SECONDS, 0
    while prompt < 3 and loop.time() < deadline:
        sent = loop.time()
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            await reader.read()
            writer.close()
            answered = (loop.time() - sent) * 1000 < DRAINED_MS
        except OSError:
            answered = False
        prompt = prompt + 1 if answered else 0
        await asyncio.sleep(0.2)


def bounds(held: int, failed: int | None) -> str:
    if failed is None:
        return f"{held} (the most tried)"
    return f"{held} (not {failed})" if held else f"fewer than {failed}"


async def measure_app(
    database_url: str, label: str, directory: str, new_session: NewSession
) -> tuple[int, int]:
    env = {
        "DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "bench",
        "ANCHOR_ANSWERS": os.path.join(directory, "answers.json"),
    }
    made: list[str] = []

    def app_paths(_n: int) -> tuple[Paths, Paths]:
        with database.connection_context():
            session_id, key = new_session(WINNING_SCORE)
        made.append(session_id)
        return (session_paths(session_id, key),) * 2

    def recorded() -> int:
        return recorded_events(made)

    app_port, anchor_port = free_port(), free_port()
    app_process = start_server("scorekeeper:create_app()", app_port, env)
    try:
        app = Server(app_process, app_port)
        app_tables = Tables(app_port, app_paths)
        watched, scored = (await app_tables.first(2))[:2]
        Path(env["ANCHOR_ANSWERS"]).write_text(json.dumps(await captured(watched, scored)))
        held, failed = await largest_held(
            f"{label}, the app",
            app_tables,
            app,
            FIRST_TABLES,
            recorded,
            postgresql=database_url.startswith("postgresql"),
        )
    finally:
        app_process.terminate()
        app_process.wait()
    anchor_process = start_server("anchor_app:create_app()", anchor_port, env)
    try:
        anchor = Server(anchor_process, anchor_port)
        anchor_tables = Tables(anchor_port, lambda _n: (watched.watched, scored.scored))
        anchor_held, anchor_failed = await largest_held(
            f"{label}, the anchor",
            anchor_tables,
            anchor,
            max(held, FIRST_TABLES),
            None,
            postgresql=False,  # the anchor has no database
        )
    finally:
        anchor_process.terminate()
        anchor_process.wait()
    ratio = f"{held / anchor_held:.0%}" if anchor_held else "-"
    print(
        f"\n{label}: the app holds {bounds(held, failed)} tables with p99 under "
        f"{P99_LIMIT_MS:.0f} ms, its anchor {bounds(anchor_held, anchor_failed)}: {ratio}"
    )
    return held, anchor_held


async def captured(watched: Table, scored: Table) -> dict[str, dict[str, object]]:
    """The app's answers the anchor serves: a watcher's version check (200 without an
    ETag, 304 with) and page, and the scorer's link, a tap's 303 and its page."""
    watcher, scorer = watched.watchers[0], scored.scorer
    watcher.etag = None
    plain = await watcher.check(watched.watched.version)
    expect(plain, 200)
    unchanged = await watcher.check(watched.watched.version)
    expect(unchanged, 304)
    page = await watcher.page(watched.watched.page)
    join = await scorer.send("GET", scored.scored.join, {})
    tap = await scorer.tap(scored.scored.action)
    expect(tap, 303)
    scorer_page = await scorer.page(scored.scored.page)
    for phone in (watcher, scorer):
        phone.close()
    return {
        watched.watched.version: unchanged.anchor() | {"plain": plain.anchor()},
        watched.watched.page: page.anchor(),
        scored.scored.join: join.anchor(),
        scored.scored.page: scorer_page.anchor(),
        "POST": tap.anchor(),
    }


def measure(database_url: str, label: str, directory: str) -> None:
    open_app(database_url)
    with sessions_deleted_afterwards() as new_session:
        asyncio.run(measure_app(database_url, label, directory, new_session))


def main() -> None:
    print(
        f"Each table: {WATCHERS} phones check the version every {CHECK_EVERY} s, one taps "
        f"every {TAP_EVERY:.0f} s; runs of {WARM_UP:.0f} s not counted, then {SECONDS:.0f} s; "
        f"held: p99 under {P99_LIMIT_MS:.0f} ms and nothing failed"
    )
    with tempfile.TemporaryDirectory() as directory:
        measure(f"sqlite:///{directory}/bench.sqlite3", "SQLite", directory)
        for url in sys.argv[1:]:
            measure(url, "PostgreSQL", directory)


if __name__ == "__main__":
    main()
