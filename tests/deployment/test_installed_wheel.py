"""The wheel is the whole app: installed into a fresh virtual environment, away from the
checkout, it serves every game's pages and its static files under gunicorn, with the
gunicorn settings it carries."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import create_session, open_join_link, wait_until_serving

from scorekeeper import PROJECT_ROOT
from scorekeeper.games import GAMES

# Its tests share one installed wheel and its server: one worker takes them all.
pytestmark = [pytest.mark.packaging, pytest.mark.xdist_group("installed-wheel")]

# What a clean clone does not hold: version control, caches, build output, local data.
# The build runs on a copy, so that no build/ left in the checkout (setuptools never
# empties it) slips stale files into the wheel.
NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".hypothesis",
    "instance",
    "screenshots",
)
SERVED_FOLDERS = ("templates", "static")


@dataclass(frozen=True)
class Installed:
    wheel: Path
    python: Path
    url: str
    access_log: Path


def pip(*arguments: str | Path) -> None:
    """This environment's pip, with its usual index and cache."""
    subprocess.run([sys.executable, "-m", "pip", "--quiet", *map(str, arguments)], check=True)


def built_and_installed(folder: Path) -> tuple[Path, Path]:
    """The wheel built from a copy of the checkout into ``folder``, and the Python of a new
    virtual environment there that it is installed into."""
    source, wheels, venv = folder / "source", folder / "wheels", folder / "venv"
    shutil.copytree(PROJECT_ROOT, source, ignore=NOT_IN_A_CLONE)
    pip("wheel", "--no-deps", "--wheel-dir", wheels, source)
    [wheel] = wheels.glob("*.whl")
    # This environment's pip installs into the new one: no copy of pip to set up there.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
    python = venv / "bin" / "python"
    pip("--python", python, "install", "--no-deps", wheel)
    # The dependencies are this environment's, found after the new one's own packages:
    # installing them again waited some 10 s on the package index. pip check proves
    # they are all the wheel asks for.
    new_packages = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dependencies = Path(new_packages) / "dependencies.pth"
    dependencies.write_text(sysconfig.get_path("purelib") + "\n")
    pip("--python", python, "check")
    return wheel, python


def installed_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """``built_and_installed`` once a run, in a folder the run's xdist workers share: with
    pytest 9.2 and pytest-xdist 3.8 the xdist_group did not keep this file's tests on one
    worker, even under --dist loadgroup, and each worker built the same wheel."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "wheel"
    shared.mkdir(exist_ok=True)
    with (shared / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one builds; another waits for it, then reads
        made = shared / "made.json"
        if not made.exists():
            wheel, python = built_and_installed(shared)
            made.write_text(json.dumps([str(wheel), str(python)]))
        wheel_path, python_path = json.loads(made.read_text())
    return Path(wheel_path), Path(python_path)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    """The wheel built from a copy of the checkout, installed into a new virtual
    environment and served by gunicorn in that environment, from an empty folder."""
    wheel, python = installed_once(tmp_path_factory)
    folder = tmp_path_factory.mktemp("wheel-served")

    elsewhere = folder / "run"
    elsewhere.mkdir()
    error_log, access_log = folder / "error.log", folder / "access.log"
    # Nothing of this environment's: no PYTHONPATH or SCOREKEEPER_* finds the checkout.
    env = {
        "PATH": os.environ["PATH"],
        "DATABASE_URL": f"sqlite:///{folder}/installed.sqlite3",
        # Gunicorn's control socket goes here, not into $HOME.
        "XDG_RUNTIME_DIR": str(folder),
    }
    # The settings the package carries, as the README serves an installed app.
    command = [str(python), "-m", "gunicorn", "--config=python:scorekeeper.gunicorn_conf"]
    command += ["--workers=1", "--bind=127.0.0.1:0", f"--error-logfile={error_log}"]
    command += [f"--access-logfile={access_log}", "scorekeeper:create_app()"]
    server = subprocess.Popen(command, cwd=elsewhere, env=env)
    try:
        yield Installed(wheel, python, wait_until_serving(error_log), access_log)
    finally:
        server.terminate()
        server.wait(timeout=10)


def read(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read()


def test_the_wheel_carries_every_template_and_static_file(installed: Installed) -> None:
    for folder in SERVED_FOLDERS:
        in_checkout = {
            path.relative_to(PROJECT_ROOT).as_posix()
            for path in (PROJECT_ROOT / folder).rglob("*")
            if path.is_file()
        }
        with zipfile.ZipFile(installed.wheel) as wheel:
            in_wheel = {
                name.removeprefix("scorekeeper/")
                for name in wheel.namelist()
                if name.startswith(f"scorekeeper/{folder}/")
            }
        assert in_wheel == in_checkout


def test_the_server_imports_the_installed_package_not_the_checkout(
    installed: Installed,
) -> None:
    imported = subprocess.run(
        [installed.python, "-c", "import scorekeeper; print(scorekeeper.__file__)"],
        cwd=installed.python.parent,
        env={"PATH": os.environ["PATH"]},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(imported).is_relative_to(installed.python.parent.parent / "lib")


@pytest.mark.parametrize("slug", list(GAMES))
def test_the_installed_app_serves_each_games_new_session_page(
    installed: Installed, slug: str
) -> None:
    status, page = read(f"{installed.url}/new/{slug}")
    assert status == 200
    assert GAMES[slug].title in page.decode()


def test_the_installed_app_serves_its_static_files(installed: Installed) -> None:
    status, stylesheet = read(f"{installed.url}/static/app.css")
    assert status == 200
    assert stylesheet == (PROJECT_ROOT / "static" / "app.css").read_bytes()


def test_the_installed_apps_gunicorn_settings_keep_join_keys_out_of_the_access_log(
    installed: Installed,
) -> None:
    created = create_session(installed.url)
    open_join_link(created)
    join_path = f"/s/{created['id']}/join/"
    # Gunicorn writes the line just after its answer: wait for it, a few seconds at most.
    deadline = time.monotonic() + 5
    while join_path not in installed.access_log.read_text():
        assert time.monotonic() < deadline, "the join request was not logged"
        time.sleep(0.05)
    logged = installed.access_log.read_text()
    assert f"GET {join_path}[key] HTTP/1.1" in logged
    assert created["edit_key"] not in logged
