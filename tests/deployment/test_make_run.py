"""`make run`, the command a newcomer serves the table with, serves it with gunicorn, the
production server the README deploys, not Flask's development server."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from conftest import wait_until_serving

from scorekeeper import PROJECT_ROOT
from scorekeeper.certificate import Files

# The environment these tests run in: `make test` runs them from the Makefile's own.
VENV = Path(sys.prefix)


def make(*arguments: str) -> list[str]:
    """make with this environment, never installing into it again (run in the checkout)."""
    return ["make", "-o", f"{VENV}/.installed", f"VENV={VENV}", *arguments]


def make_environment(folder: Path) -> dict[str, str]:
    """Nothing the checkout's instance/ holds: a database and a key of the test's own.
    Without the calling make's flags: these commands are a make of their own."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    }
    env["DATABASE_URL"] = f"sqlite:///{folder}/make-run.sqlite3"
    env["SCOREKEEPER_SECRET_KEY"] = "make-run-test"
    # Gunicorn's control socket goes here, not into $HOME.
    env["XDG_RUNTIME_DIR"] = str(folder)
    return env


@contextmanager
def make_run(folder: Path) -> Iterator[str]:
    """`make run` on a port the system chooses; its address once it answers."""
    output = folder / "make-run.log"
    with output.open("wb") as log:
        process = subprocess.Popen(
            make("run", "HOST=127.0.0.1", "PORT=0"),
            cwd=PROJECT_ROOT,
            env=make_environment(folder),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield wait_until_serving(output)
    finally:
        # Gunicorn's arbiter stops its workers and make ends with it; without one (the
        # server never started) the whole process group goes.
        arbiter = re.search(r"Listening at: \S+ \((\d+)\)", output.read_text())
        if arbiter:
            os.kill(int(arbiter.group(1)), signal.SIGTERM)
        else:
            os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=15)


def test_make_run_serves_the_table_with_gunicorn(tmp_path: Path) -> None:
    with make_run(tmp_path) as url, urllib.request.urlopen(url, timeout=5) as answer:
        assert answer.status == 200
        assert answer.headers["Server"] == "gunicorn"
        assert "Tabletop Scorekeeper" in answer.read().decode()
    output = (tmp_path / "make-run.log").read_text()
    assert "development server" not in output


def test_make_run_with_https_serves_the_certificate_https_cert_makes(tmp_path: Path) -> None:
    planned = subprocess.run(
        make("--dry-run", "run", "HTTPS=1"),
        cwd=PROJECT_ROOT,
        env=make_environment(tmp_path),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    commands = [shlex.split(line) for line in planned.replace("\\\n", " ").splitlines()]
    assert commands[1][1:] == ["--app", "scorekeeper", "https-cert"]
    served = commands[-1]
    assert Path(served[0]).name == "gunicorn"
    made = Files(Path("instance"))
    assert served[served.index("--certfile") + 1] == str(made.server)
    assert served[served.index("--keyfile") + 1] == str(made.server_key)
    # Phones on the network reach it unless HOST says otherwise.
    assert served[served.index("--bind") + 1] == "0.0.0.0:5000"
