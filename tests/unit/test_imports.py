"""The modules of the app import one another without cycles, even inside functions or for
types only."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import scorekeeper
from scorekeeper.games import PACKAGES

ROOT = Path(scorekeeper.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_imports(path: Path, modules: set[str]) -> set[str]:
    """The app's modules ``path`` imports, at its top, inside a function or for a type
    checker only (``if TYPE_CHECKING``): an import deferred into a function or hidden from
    the interpreter to dodge a cycle is still a cycle, as a reader follows it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekeeper"):
            for alias in node.names:
                submodule = f"{node.module}.{alias.name}"
                found.add(submodule if submodule in modules else str(node.module))
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("scorekeeper"))
    return found & modules


def cycle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A chain of imports from ``start`` back to ``start``, or None."""
    path: list[str] = []
    seen: set[str] = set()

    def walk(module: str) -> list[str] | None:
        if module == start and path:
            return [*path, module]
        if module in seen:
            return None
        seen.add(module)
        path.append(module)
        for imported in sorted(graph[module]):
            found = walk(imported)
            if found:
                return found
        path.pop()
        return None

    return walk(start)


def test_no_module_of_the_app_imports_itself_back_through_others_even_for_types() -> None:
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    modules = set(paths)
    graph = {name: module_imports(path, modules) - {name} for name, path in paths.items()}
    assert {"scorekeeper.db", "scorekeeper.store", "scorekeeper.export"} <= modules
    assert "scorekeeper.migrations" not in graph["scorekeeper.db"]
    assert "scorekeeper.export" not in graph["scorekeeper.store"]
    cycles = [cycle for name in sorted(graph) if (cycle := cycle_from(name, graph))]
    assert cycles == []


def test_an_import_for_a_type_checker_only_counts_as_an_import(tmp_path: Path) -> None:
    typed = tmp_path / "typed.py"
    typed.write_text(
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from scorekeeper import store\n    import scorekeeper.db\n"
    )
    modules = {"scorekeeper.store", "scorekeeper.db", "scorekeeper.export"}
    assert module_imports(typed, modules) == {"scorekeeper.store", "scorekeeper.db"}


def test_a_games_web_side_stands_on_its_package_the_pure_games_modules_and_the_interface() -> None:
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    games = ROOT / "games"
    # The games floor: the registry and the modules beside it, the web interface apart.
    pure = {module_name(path) for path in games.glob("*.py")} - {"scorekeeper.games.web_interface"}
    web_modules = sorted(games.glob("*/web.py"))
    assert len(web_modules) >= 6
    for path in web_modules:
        package = module_name(path.parent)
        imported = module_imports(path, set(paths))
        foreign = {
            name
            for name in imported - pure - {"scorekeeper.games.web_interface"}
            if name != package and not name.startswith(package + ".")
        }
        assert foreign == set(), f"{package}.web imports {sorted(foreign)}"
        assert "scorekeeper.games.web_interface" in imported, package


def test_the_games_web_interface_imports_nothing_of_the_web_package() -> None:
    path = ROOT / "games" / "web_interface.py"
    modules = {module_name(path) for path in ROOT.rglob("*.py")}
    imported = module_imports(path, modules)
    assert not any(name.startswith("scorekeeper.web") for name in imported), sorted(imported)


def test_importing_every_games_web_module_loads_nothing_but_the_games_floor() -> None:
    """Not the web package, nor the store, the database or the files beneath it."""
    imports = "; ".join(f"import scorekeeper.games.{package}.web" for package in PACKAGES)
    loaded = (
        "print(sorted(m for m in sys.modules if m.startswith('scorekeeper.')"
        " and not m.startswith('scorekeeper.games')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; {imports}; {loaded}"],
        cwd=ROOT.parent,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "[]"
