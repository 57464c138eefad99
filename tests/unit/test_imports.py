"""The modules of the app import one another without cycles, even inside functions."""

from __future__ import annotations

import ast
from pathlib import Path

import scorekeeper

ROOT = Path(scorekeeper.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_nodes(tree: ast.Module) -> list[ast.AST]:
    """Every node of the module but those only a type checker reads (``if TYPE_CHECKING``)."""
    skipped = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    return [node for node in ast.walk(tree) if id(node) not in skipped]


def module_imports(path: Path, modules: set[str]) -> set[str]:
    """The app's modules ``path`` imports, at its top or inside a function: an import
    deferred into a function to dodge a cycle is still a cycle."""
    found: set[str] = set()
    for node in runtime_nodes(ast.parse(path.read_text())):
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


def test_no_module_of_the_app_imports_itself_back_through_others() -> None:
    paths = {module_name(path): path for path in ROOT.rglob("*.py")}
    modules = set(paths)
    graph = {name: module_imports(path, modules) - {name} for name, path in paths.items()}
    assert {"scorekeeper.db", "scorekeeper.store", "scorekeeper.export"} <= modules
    assert "scorekeeper.migrations" not in graph["scorekeeper.db"]
    assert "scorekeeper.export" not in graph["scorekeeper.store"]
    cycles = [cycle for name in sorted(graph) if (cycle := cycle_from(name, graph))]
    assert cycles == []
