"""The training methods, by the names `method:` accepts.

A method is one stage `(RunState) -> Trained` (`rlvr.train.state`) in a module of its own:
GRPO (`rlvr.train.grpo.train_grpo`), SFT (`rlvr.train.sft.train_sft`) and DPO
(`rlvr.train.dpo.train_dpo`). Their names are declared once, in
`rlvr.config.checks.METHODS` (the config layer checks `method:` against them before anything
loads); this table maps each name to its stage and `tests/test_methods.py` keeps the two in
step. Adding a method: its module here, its name in `METHODS`, its entry below.
"""

from __future__ import annotations

from typing import Callable

from rlvr.config.checks import METHODS as METHOD_NAMES
from rlvr.train.dpo import train_dpo
from rlvr.train.grpo import train_grpo
from rlvr.train.sft import train_sft
from rlvr.train.state import RunState, Trained

METHODS: dict[str, Callable[[RunState], Trained]] = {
    "grpo": train_grpo, "sft": train_sft, "dpo": train_dpo}

if tuple(METHODS) != METHOD_NAMES:  # pragma: no cover - a definition error, not user input
    raise ImportError(f"rlvr.train.methods lists {tuple(METHODS)} but rlvr.config.checks."
                      f"METHODS declares {METHOD_NAMES}; list each method in both")
