"""The house has floors: no module of kata's imports one that imports it back (lazily or not), and the
floors the light commands stand on import neither torch nor numpy."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("checker",)


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    modules["cli"] = ROOT / "cli.py"
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):  # lazy imports inside functions too
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            else:
                continue
            edges |= {t for t in targets if t in modules and t != name}
        graph[name] = edges
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_module_imports_one_that_imports_it_back():
    graph = _graph()
    for package in ("checker", "checker.render", "checker.specs"):  # a package's __init__ is its floor plan
        graph.pop(package, None)
        for edges in graph.values():
            edges.discard(package)
    cycle = _cycle(graph)
    assert cycle is None, "import circle: " + " -> ".join(cycle)


@pytest.mark.parametrize("module", ["checker.catalog", "checker.commands", "checker.views", "checker.practice", "checker.drills", "checker.drilling",
                                    "checker.content", "checker.i18n", "checker.static", "checker.state", "cli"])
def test_the_light_floors_import_neither_torch_nor_numpy(module):
    probe = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); import {module}; "
             "heavy = {'torch', 'numpy'} & set(sys.modules); print(sorted(heavy))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout + done.stderr
