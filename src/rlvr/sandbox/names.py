"""Which names the tests take from the program, and which stay the trusted side's own.

The rule (stated in docs/rewards.md): a program cannot shadow a name the tests use unless
the task says that name is the program's (see `crossing_names`). Names are found in the
test source with `ast`; a name used only inside an `eval` or `exec` string is not found,
so such a test fails (NameError) rather than passes.
"""

from __future__ import annotations

import ast
import builtins
import sys
from typing import Sequence


def free_names(tests: str) -> set[str]:
    """Names the tests read and never bind (their own functions, loop variables excluded)."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError):
        return set()  # the trusted process reports it
    bound, loaded = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
    return loaded - bound


def crossing_names(tests: str, entry_point: str | None,
                   program_names: Sequence[str]) -> tuple[list[str], list[str]]:
    """(program names the tests get, standard modules the tests get from the trusted side).

    With an entry point (HumanEval) only it crosses. When the task names the program's
    names (`program_names`: what MBPP's reference `code` defines), those cross and nothing
    else, even builtins (MBPP 126's function is called `sum`). Otherwise every name the
    tests read and do not bind crosses, except builtins and standard-module names, which
    stay the trusted side's own. Standard modules the tests read without importing them
    (MBPP's `math`, `sys`) are imported on the trusted side.

    Args:
        tests: the test source (MBPP: setup code and asserts).
        entry_point: HumanEval's function name, or None.
        program_names: the task's own names for the program's functions and classes.
    Returns:
        (names to fetch from the program, standard modules to import), both sorted.
    """
    free = free_names(tests)
    if entry_point:
        return [entry_point], sorted(n for n in free if n in sys.stdlib_module_names)
    if program_names:
        own = set(program_names) & free
    else:
        own = {n for n in free if not hasattr(builtins, n) and n not in sys.stdlib_module_names}
    return sorted(own), sorted(n for n in free - own if n in sys.stdlib_module_names)


def kept_names(tests: str, names: Sequence[str]) -> list[str]:
    """Which of `names` the tests use as classes when the task gives no reference code: a
    name in CapWords (`Stack`, `Node`: PEP 8's class names), or one whose objects the tests
    link through attributes (`root.left = Node(2)`, or `root = node(1)` then
    `root.left = ...`) or change by a method call whose result they drop (`s = stack()`
    then the statement `s.push(1)`). A function whose result the tests only compare or
    ask about (`r = f(x)`, `assert r.startswith('a')`) is not one, so its result forwards
    no attributes. Sorted."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError):
        return []
    wanted, bound, linked = set(names), {}, set()

    def built(value):  # the class name when `value` is a call of one of `names`
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
                value.func.id in wanted:
            return value.func.id
        return None

    linked.update(n for n in wanted if n[:1].isupper() and "_" not in n)
    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign)]
    for node in assigns:
        for target in node.targets:
            if isinstance(target, ast.Name) and built(node.value):
                bound.setdefault(target.id, set()).add(built(node.value))
    for node in assigns:
        for target in node.targets:
            if isinstance(target, ast.Attribute):
                if built(node.value):
                    linked.add(built(node.value))
                base = target.value
                while isinstance(base, ast.Attribute):
                    base = base.value
                if isinstance(base, ast.Name):
                    linked.update(bound.get(base.id, ()))
    for node in ast.walk(tree):  # `s.push(1)` as a statement: an object used for its state
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and \
                isinstance(node.value.func, ast.Attribute) and \
                isinstance(node.value.func.value, ast.Name):
            linked.update(bound.get(node.value.func.value.id, ()))
    return sorted(linked & wanted)
