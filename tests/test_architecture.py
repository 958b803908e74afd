"""The shape of the code: the layer contracts hold with no exceptions list, no import circle
anywhere, few modules loose at the package root, modules of a readable size.

The size rule warns above `WARN_LINES` and fails above `MAX_LINES` rather than cutting at one
hard limit: a hard cap of 400 lines split modules by length instead of by concept (nine
modules sat at 380-400 lines, and one 53-line module existed only to keep another under the
cap). A module that grows past the warning is a prompt to look for a second concept in it,
not to move lines out.
"""

from __future__ import annotations

import subprocess
import sys
import warnings
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "rlvr"
# __init__, cli, errors, io, models, hardware: the small shared ground floor and the CLI
MAX_ROOT_MODULES = 6
WARN_LINES = 500  # a pytest warning lists the modules above this
MAX_LINES = 800  # and the test fails above this


def strongly_connected(graph) -> list[list[str]]:
    """Import circles: the strongly connected components of more than one module (Tarjan,
    iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


class _Graph:
    def __init__(self, edges: dict[str, set[str]]):
        self.modules = set(edges) | {m for targets in edges.values() for m in targets}
        self.edges = edges

    def find_modules_directly_imported_by(self, module: str) -> set[str]:
        return self.edges.get(module, set())


def test_circle_finder_finds_a_circle_and_only_a_circle():
    # a -> b -> c -> a is one circle; d -> a and c -> e hang off it and are not in it
    graph = _Graph({"a": {"b"}, "b": {"c"}, "c": {"a", "e"}, "d": {"a"}, "e": set()})
    assert strongly_connected(graph) == [["a", "b", "c"]]
    assert strongly_connected(_Graph({"a": {"b"}, "b": set()})) == []


def test_no_import_circle_anywhere():
    graph = grimp.build_graph("rlvr")  # every import, including those inside functions
    assert strongly_connected(graph) == []


def test_layer_contracts_hold_with_no_exceptions_list():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")  # no tomllib on 3.10
    section = pyproject[pyproject.index("[tool.importlinter]"):]
    assert 'type = "layers"' in section
    assert "ignore_imports" not in section and "unmatched_ignore" not in section
    lint = Path(sys.executable).with_name("lint-imports")
    if not lint.exists():
        pytest.fail(f"{lint} is missing: install the dev extra (pip install -e '.[dev]')")
    done = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:]


def test_few_modules_loose_at_the_package_root():
    loose = sorted(p.name for p in SRC.glob("*.py"))
    assert len(loose) <= MAX_ROOT_MODULES, loose


def test_every_module_is_of_a_readable_size():
    sizes = {str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines())
             for p in SRC.rglob("*.py")}
    long = {name: n for name, n in sorted(sizes.items()) if n > WARN_LINES}
    if long:
        warnings.warn(f"modules over {WARN_LINES} lines (does one hold two concepts?): "
                      + ", ".join(f"{name} ({n})" for name, n in long.items()), stacklevel=1)
    assert {name: n for name, n in long.items() if n > MAX_LINES} == {}
