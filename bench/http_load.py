"""The app under load, each endpoint against a bare Flask route returning its bytes.

Both servers run as the README deploys the app (gunicorn, 3 workers, started in
the repository folder so gunicorn.conf.py is read); wrk drives each at 16
connections. The anchor (bench/anchor_app.py) answers every path with the status,
headers and body the app gave for it, captured just before, so each ratio compares
the app's work against serving the same bytes. Each endpoint and its anchor are
measured back to back, ROUNDS times, and the ratio is taken on the summed figures, once
both have served it for a second (not counted): the steady state of a running server.

Goals (issue 13), each a ratio of requests per second to the anchor's:
- the state GET of a mid-game session (8-seat Yardkle, 300 events): at least 50%;
- its session page /s/<id>, loaded again by a phone that has seen it: at least 30%;
- the refresh check /version, unchanged (If-None-Match, 304) and plain: at least 80%;
and the p99 latency of each of these reads at most 3 times the anchor's;
- an append through the API (POST events, Bearer key, ``Prefer: return=minimal``, whose
  answer keeps its size however long the session): at least 25%.
The same append answered with the whole state is measured too, without a goal: its
anchor serves the first append's answer (the state carries the round in progress, not the
past turns, so the app's answers are about that size too; until 2026-11-28 they grew by
a turn with every append).

Beside each rate it prints where the machine's CPU went per request (Linux, from /proc):
the server's workers, the app's and the anchor's alike, the database server's processes
(PostgreSQL on this machine; SQLite's work is the workers') and wrk. Under these loads
the machine is busy throughout, so the app's and the anchor's CPU per request stand in
the ratio their rates do, and the parts show which one to work on.

Appends: each wrk connection has its own thread and its own session, and reads the
version from each answer to send the next, so every request can record. Only events
really recorded (counted in the database afterwards) count as appends.

Run: .venv/bin/python bench/http_load.py [postgresql://user@host/db ...]
(SQLite in a temporary directory always; each URL given is measured too. Needs wrk.
BENCH_ONLY=append measures only the endpoints whose label starts so; BENCH_SECONDS and
BENCH_ROUNDS set each run's length and how many runs are summed.)
"""

from __future__ import annotations

import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from flask import Flask
from yardkle_game import SEATS, NewSession, open_app, seeded_actions, sessions_deleted_afterwards

from scorekeeper import session_views, store
from scorekeeper.db import database
from scorekeeper.models import Event

REPO = Path(__file__).resolve().parent.parent
GUNICORN = [str(REPO / ".venv" / "bin" / "gunicorn"), "--workers", "3"]
CONNECTIONS = 16
# Short runs, alternating app and anchor: on a shared machine, load that comes and goes
# then falls on both alike.
SECONDS = int(os.environ.get("BENCH_SECONDS", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "4"))
MID_GAME_EVENTS = 300
WINNING_SCORE = 10_000
# A scoreless turn entered as a total is always legal and never ends the game.
APPEND_ACTION = {"type": "total", "points": 0}
P99_GOAL = 3.0
MINIMAL = "Prefer: return=minimal"


@dataclass(frozen=True)
class Target:
    label: str
    path: str
    goal: float | None  # None: measured, no goal
    headers: tuple[str, ...] = ()
    writers: tuple[tuple[str, str], ...] = ()  # an append's sessions, one per connection

    @property
    def append(self) -> bool:
        return bool(self.writers)

    @property
    def p99_judged(self) -> bool:
        """The p99 goal is the reads' (issue 13)."""
        return self.goal is not None and not self.append


@dataclass(frozen=True)
class Server:
    process: subprocess.Popen[bytes]
    port: int


@dataclass(frozen=True)
class Cpu:
    """CPU seconds spent during a run: the server's workers, the database's processes and
    wrk."""

    workers: float = 0.0
    database: float = 0.0
    wrk: float = 0.0

    def __add__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.workers + other.workers, self.database + other.database, self.wrk + other.wrk
        )

    def __sub__(self, other: Cpu) -> Cpu:
        return Cpu(
            self.workers - other.workers, self.database - other.database, self.wrk - other.wrk
        )

    @property
    def total(self) -> float:
        return self.workers + self.database + self.wrk

    def per_request_ms(self, requests: int) -> Cpu:
        scale = 1000 / max(requests, 1)
        return Cpu(self.workers * scale, self.database * scale, self.wrk * scale)


@dataclass(frozen=True)
class Run:
    requests_per_second: float
    p99_ms: float
    requests: int
    seconds: float
    cpu: Cpu = Cpu()


TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def stat_fields(process: Path) -> list[str]:
    """A process's /proc stat fields after its command's name (which may hold spaces):
    its state first, then its parent's id; its user and system time are the 12th and
    13th."""
    return (process / "stat").read_text().rsplit(")", 1)[1].split()


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system, all threads) a process has spent; 0 once it is gone."""
    try:
        fields = stat_fields(Path(f"/proc/{pid}"))
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS_PER_SECOND


def processes(matches: Callable[[Path], bool]) -> list[int]:
    """The ids of the processes whose /proc folder ``matches`` (those gone meanwhile left
    out)."""
    found = []
    for process in Path("/proc").glob("[0-9]*"):
        try:
            if matches(process):
                found.append(int(process.name))
        except OSError:
            continue
    return found


def cpu_now(server: Server) -> Cpu:
    """The CPU the server's workers, the database's processes (a local PostgreSQL's) and
    the finished wrk runs have spent so far."""
    if not Path("/proc/self/stat").exists():
        return Cpu()
    parent = str(server.process.pid)
    workers = sum(process_cpu(pid) for pid in processes(lambda p: stat_fields(p)[1] == parent))
    # A PostgreSQL server's processes each name themselves "postgres: …".
    postgres = processes(lambda p: (p / "cmdline").read_bytes().startswith(b"postgres"))
    database = sum(process_cpu(pid) for pid in postgres)
    finished = resource.getrusage(resource.RUSAGE_CHILDREN)  # the wrk runs waited for
    return Cpu(workers, database, finished.ru_utime + finished.ru_stime)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(app: str, port: int, env: dict[str, str]) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [*GUNICORN, "--bind", f"127.0.0.1:{port}", "--pythonpath", str(REPO / "bench"), app],
        cwd=REPO,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1)
            return server
        except urllib.error.HTTPError:
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise RuntimeError(f"{app} did not answer on port {port}")


def capture(port: int, target: Target, body: bytes | None, key: str) -> dict[str, object]:
    """The app's answer to one request of ``target``: what the anchor will serve."""
    headers = dict(header.split(": ", 1) for header in target.headers)
    if body is not None:
        headers |= {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{target.path}", data=body, headers=headers
    )
    try:
        with urllib.request.urlopen(request) as answer:
            status, answer_headers, content = answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as refused:  # a 304 comes back as an "error"
        status, answer_headers, content = refused.code, refused.headers, refused.read()
    return anchor_answer(status, answer_headers.get, content)


def anchor_answer(
    status: int, header: Callable[[str], str | None], content: bytes
) -> dict[str, object]:
    """What the anchor serves for an answer of the app: its status, the headers that say
    what it is and where it leads (``header`` reads one by name, or None), and its body."""
    kept = {
        name: value
        for name in ("Content-Type", "ETag", "Cache-Control", "Location")
        if (value := header(name))
    }
    return {"status": status, "headers": kept, "body": content.decode()}


def append_script(directory: str, target: Target) -> str:
    """A wrk script: thread n appends to session n, sending the version each answer
    gives back."""
    sessions = session_versions(target.writers)
    rows = ",\n".join(f'  {{"{sid}", "{key}", {version}}}' for sid, key, version in sessions)
    action = json.dumps(APPEND_ACTION)
    extra = "".join(
        f', ["{name}"] = "{value}"' for name, value in (h.split(": ", 1) for h in target.headers)
    )
    script = f"""
local sessions = {{
{rows}
}}
local count = 0
local threads = {{}}
function setup(thread)
  count = count + 1
  table.insert(threads, thread)
  thread:set("sid", sessions[count][1])
  thread:set("key", sessions[count][2])
  thread:set("version", sessions[count][3])
end
function init(args)
  refused = ""
  path = "/api/v1/sessions/" .. sid .. "/events"
  headers = {{["Authorization"] = "Bearer " .. key, ["Content-Type"] = "application/json"{extra}}}
end
function request()
  return wrk.format("POST", path, headers,
    '{{"version": ' .. version .. ', "action": {action}}}')
end
function response(status, headers, body)
  if status ~= 201 then refused = refused .. " " .. status end
  local seen = body:match('"version":%s*(%d+)')
  if seen then version = tonumber(seen) end
end
function done(summary, latency, requests)
  for _, thread in ipairs(threads) do
    local statuses = thread:get("refused")
    if statuses ~= "" then io.write("not recorded:" .. statuses .. "\\n") end
  end
end
"""
    path = os.path.join(directory, f"append-{time.monotonic_ns()}.lua")
    Path(path).write_text(script)
    return path


DURATION = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk(server: Server, target: Target, script: str | None, seconds: int = SECONDS) -> Run:
    before = cpu_now(server)
    command = ["wrk", "--latency", "-t", str(CONNECTIONS), "-c", str(CONNECTIONS)]
    command += ["-d", f"{seconds}s"]
    for header in target.headers:
        command += ["-H", header]
    if script:
        command += ["-s", script]
    output = subprocess.run(
        [*command, f"http://127.0.0.1:{server.port}{target.path}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spent = cpu_now(server) - before
    if "not recorded" in output:
        print("\n".join(line for line in output.splitlines() if "not recorded" in line))
    p99 = re.search(r"^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M)
    total = re.search(r"(\d+) requests in ([\d.]+)(us|ms|s|m)", output)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    assert p99 and total and rate, output
    return Run(
        requests_per_second=float(rate.group(1)),
        p99_ms=float(p99.group(1)) * DURATION[p99.group(2)],
        requests=int(total.group(1)),
        seconds=float(total.group(2)) * DURATION[total.group(3)] / 1000,
        cpu=spent,
    )


def recorded_events(session_ids: list[str]) -> int:
    with database.connection_context():
        return Event.select().where(Event.session.in_(session_ids)).count()


def session_versions(sessions: tuple[tuple[str, str], ...]) -> list[tuple[str, str, int]]:
    with database.connection_context():
        return [(sid, key, session_views.current_version(sid)) for sid, key in sessions]


def measure(database_url: str, label: str, directory: str) -> bool:
    here = open_app(database_url)
    with sessions_deleted_afterwards() as new_session:
        return measure_app(database_url, here, new_session, label, directory)


def measure_app(
    database_url: str, here: Flask, new_session: NewSession, label: str, directory: str
) -> bool:
    """The app on ``database_url`` served by gunicorn against its anchor, on sessions made
    with ``new_session``; ``here``, the same app in this process, gives the page's cookie."""
    actions = seeded_actions(SEATS, WINNING_SCORE, seed=1, limit=MID_GAME_EVENTS)
    with database.connection_context():
        session_id, _key = new_session(WINNING_SCORE)
        for version, action in enumerate(actions):
            store.append(session_id, action, version)
        capture_writer = new_session(WINNING_SCORE)
        # Each append target writes to sessions of its own, each starting empty.
        minimal_writers, whole_writers = (
            tuple(new_session(WINNING_SCORE) for _ in range(CONNECTIONS)) for _ in range(2)
        )
        version = session_views.current_version(session_id)
    # The page as a phone at the table loads it again (live refresh, a reload): with the
    # cookie that names its device (signed with the same secret key as the server's). Its
    # first visit notes the session in the cookie, its second makes the device.
    phone = here.test_client()
    for _ in range(2):
        phone.get(f"/s/{session_id}")
    cookie = phone.get_cookie("session")
    assert cookie is not None
    api = f"/api/v1/sessions/{session_id}"
    appends = f"/api/v1/sessions/{capture_writer[0]}/events"
    targets = [
        Target("state GET", api, 0.50),
        Target("session page", f"/s/{session_id}", 0.30, (f"Cookie: session={cookie.value}",)),
        Target("version, 304", f"{api}/version", 0.80, (f'If-None-Match: "{version}"',)),
        Target("version, 200", f"{api}/version", 0.80),
        Target("append, minimal", appends, 0.25, (MINIMAL,), minimal_writers),
        Target("append, whole", appends, None, (), whole_writers),
    ]
    env = {
        "DATABASE_URL": database_url,
        "SCOREKEEPER_SECRET_KEY": "bench",
        "ANCHOR_ANSWERS": os.path.join(directory, "answers.json"),
    }
    app_port, anchor_port = free_port(), free_port()
    app_server = start_server("scorekeeper:create_app()", app_port, env)
    try:
        answers: dict[str, dict[str, object]] = {
            target.path: capture(app_port, target, None, "")
            for target in targets
            if not target.append and target.label != "version, 200"
        }
        # The plain /version answer is the same path without If-None-Match: the anchor
        # answers by path, so it serves the 200 when no ETag is sent.
        plain = capture(app_port, targets[3], None, "")
        answers[targets[2].path] |= {"plain": plain}
        # Each wrk thread appends to its own session: the anchor answers every POST alike,
        # minimal when asked so. The first append of a session gives each answer.
        for name, target, version in (("POST minimal", targets[4], 0), ("POST", targets[5], 1)):
            sent = json.dumps({"version": version, "action": APPEND_ACTION}).encode()
            answers[name] = capture(app_port, target, sent, capture_writer[1])
        Path(env["ANCHOR_ANSWERS"]).write_text(json.dumps(answers))
        anchor_server = start_server("anchor_app:create_app()", anchor_port, env)
        try:
            app, anchor = Server(app_server, app_port), Server(anchor_server, anchor_port)
            return report(label, run_all(targets, app, anchor, directory))
        finally:
            anchor_server.terminate()
            anchor_server.wait()
    finally:
        app_server.terminate()
        app_server.wait()


def run_all(
    targets: list[Target], app: Server, anchor: Server, directory: str
) -> list[tuple[Target, Run, Run]]:
    results = []
    only = os.environ.get("BENCH_ONLY")
    for target in targets:
        if only and not target.label.startswith(only):
            continue
        writer_ids = [sid for sid, _ in target.writers]
        # Not counted: each worker's first request of a kind compiles its templates and
        # reads its session: a start-up cost that would weigh on the first round's p99 alone.
        for server in (anchor, app):
            script = append_script(directory, target) if target.append else None
            wrk(server, target, script, 1)
        app_runs, anchor_runs = [], []
        for _ in range(ROUNDS):
            script = None
            if target.append:
                script = append_script(directory, target)
            anchor_runs.append(wrk(anchor, target, script))
            if target.append:
                # Read just before the run: the last run's unfinished requests have landed.
                script = append_script(directory, target)
            before = recorded_events(writer_ids) if target.append else 0
            run = wrk(app, target, script)
            if target.append:
                # Count what was recorded, not what was answered: a refusal is no append.
                recorded = recorded_events(writer_ids) - before
                print(f"append: {recorded} recorded of {run.requests} answered")
                run = Run(recorded / run.seconds, run.p99_ms, recorded, run.seconds, run.cpu)
            app_runs.append(run)
        results.append((target, combined(app_runs), combined(anchor_runs)))
    return results


def combined(runs: list[Run]) -> Run:
    """Requests per second over all rounds; the worst round's p99; the CPU of all."""
    requests, seconds = sum(r.requests for r in runs), sum(r.seconds for r in runs)
    cpu = sum((r.cpu for r in runs), Cpu())
    return Run(requests / seconds, max(r.p99_ms for r in runs), requests, seconds, cpu)


def report(label: str, results: list[tuple[Target, Run, Run]]) -> bool:
    print(f"\n{label}: wrk -c {CONNECTIONS}, {ROUNDS} x {SECONDS} s each, gunicorn 3 workers")
    head = ("endpoint", "req/s", "p99 ms", "anchor req/s", "anchor p99", "ratio", "goal", "")
    print("{:<16} {:>8} {:>8} {:>12} {:>10} {:>6} {:>5}  {}".format(*head))
    met = True
    for target, run, anchor in results:
        ratio = run.requests_per_second / anchor.requests_per_second
        p99_ratio = run.p99_ms / anchor.p99_ms
        p99_over = target.p99_judged and p99_ratio > P99_GOAL
        passed = target.goal is None or (ratio >= target.goal and not p99_over)
        met = met and passed
        verdict = "no goal" if target.goal is None else "pass" if passed else "FAIL"
        if p99_over:
            verdict += f" (p99 {p99_ratio:.1f}x the anchor's)"
        print(
            f"{target.label:<16} {run.requests_per_second:>8.0f} {run.p99_ms:>8.2f} "
            f"{anchor.requests_per_second:>12.0f} {anchor.p99_ms:>10.2f} {ratio:>6.0%} "
            f"{'-' if target.goal is None else f'{target.goal:.0%}':>5}  {verdict}"
        )
    print("\nCPU ms per request (an append: per event recorded), app against anchor")
    parts = ("endpoint", "workers", "database", "wrk", "all", "anchor workers", "all")
    print("{:<16} {:>8} {:>8} {:>6} {:>6} {:>15} {:>6}".format(*parts))
    for target, run, anchor in results:
        mine, theirs = (
            run.cpu.per_request_ms(run.requests),
            anchor.cpu.per_request_ms(anchor.requests),
        )
        print(
            f"{target.label:<16} {mine.workers:>8.3f} {mine.database:>8.3f} {mine.wrk:>6.3f} "
            f"{mine.total:>6.3f} {theirs.workers:>15.3f} {theirs.total:>6.3f}"
        )
    return met


def main() -> None:
    with tempfile.TemporaryDirectory() as directory:
        met = [measure(f"sqlite:///{directory}/bench.sqlite3", "SQLite", directory)]
        for url in sys.argv[1:]:
            met.append(measure(url, "PostgreSQL", directory))
    sys.exit(0 if all(met) else 1)


if __name__ == "__main__":
    main()
