"""The built-in rewards register the same registry whatever order their modules are imported in.

`rlvr.rewards.registry.BUILTIN_REWARD_MODULES` lists them once. Each module is imported in a
fresh interpreter, in a shuffled order and with the package's `__init__` kept out of the way
(a bare package object stands in for it, so importing one module does not import the
others first); every order must give what `import rlvr.rewards` gives: the same names, and
for each the same score range, fields, presets and outcome labels. Before the list, one
reward (`cosine_scaled`) read the fields of the rewards registered before it at import
time, and the package had to import its module last.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import rlvr
from rlvr.rewards import BUILTIN_REWARD_MODULES, REWARDS

SRC = Path(rlvr.__file__).resolve().parents[1]

# prints the registry as JSON: imported through the package, or module by module (argv[1:])
_CHILD = r"""
import importlib, json, sys, types
from pathlib import Path
import rlvr
order = sys.argv[1:]
if order:  # a bare package: its __init__ (which loads every built-in module) never runs
    package = types.ModuleType("rlvr.rewards")
    package.__path__ = [str(Path(rlvr.__file__).parent / "rewards")]
    sys.modules["rlvr.rewards"] = package
    for name in order:
        importlib.import_module(name)
else:
    importlib.import_module("rlvr.rewards")
from rlvr.rewards.registry import REWARDS
print(json.dumps({name: [list(s.score_range), list(s.fields), list(s.optional_fields),
                         list(s.required_any), sorted(s.presets), list(s.outcomes), s.all_fields,
                         s.core.__module__]
                  for name, s in sorted(REWARDS.items())}))
"""


def _registry(order: list[str]) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])}
    done = subprocess.run([sys.executable, "-c", _CHILD, *order], capture_output=True,
                          text=True, timeout=300, env=env, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_builtin_list_names_every_module_that_registers_a_builtin_reward():
    builtin = {name for name, spec in REWARDS.items() if not spec.source}
    modules = {REWARDS[name].core.__module__ for name in builtin}
    assert modules == set(BUILTIN_REWARD_MODULES)
    assert len(BUILTIN_REWARD_MODULES) == len(set(BUILTIN_REWARD_MODULES))


def test_the_registry_is_the_same_in_any_import_order():
    through_package = _registry([])
    assert set(through_package) >= {"selfaware", "abstention", "math", "cosine_scaled"}
    orders = [list(BUILTIN_REWARD_MODULES), list(reversed(BUILTIN_REWARD_MODULES))]
    shuffle = random.Random(20260425)
    for _ in range(2):
        orders.append(shuffle.sample(BUILTIN_REWARD_MODULES, len(BUILTIN_REWARD_MODULES)))
    orders.append(["rlvr.rewards.length"])  # the length guards alone still register all three
    for order in orders[:-1]:
        assert _registry(order) == through_package, order
    alone = _registry(orders[-1])
    assert {k: v for k, v in through_package.items() if v[-1] == "rlvr.rewards.length"} == alone
