"""Outcome labels in the reward contract, and the check a judge's label must pass.

A judge model used as a reward (issue 17; TruthRL, Wei et al. 2025, Table 8: a
string-match verifier collapsed training into abstention where an LLM judge did not) must
answer with one of the outcome labels the reward declares, so its verdict enters the same
tables, metrics and diagnostics as the string graders'. Each reward declares its labels
with `register_reward(..., outcomes=(...))` (every built-in reward does; a test checks
the declarations against what the cores return). `validate_outcome(reward, label)`
accepts a declared label and refuses anything else with one message that lists the known
labels.
"""

from __future__ import annotations

import difflib
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.base import RewardSpec, get_reward

def validate_outcome(reward: str | RewardSpec, label: Any, *, judge: bool = True) -> str:
    """Check an outcome label (for example a judge model's verdict) against a reward's
    declared outcomes and return it.

    Args:
        reward: a registered reward name or its spec.
        label: the label; surrounding whitespace and case are ignored ("Correct " ->
            "correct").
        judge: True (default): only the reward's own labels are accepted (a judge does not
            produce the registry's `reward_error` / `bad_row`); False: those count too.
    Returns:
        the label as declared.
    Raises:
        RlvrError: the label is not a string or not declared (one message listing the
            known labels and the closest one), or the reward declares no labels.
    """
    spec = reward if isinstance(reward, RewardSpec) else get_reward(reward)
    known = spec.declared_outcomes(with_registry=not judge)
    if not known:
        raise RlvrError(f"reward {spec.name!r} declares no outcome labels; register it with "
                        "outcomes=(...) to check labels against them")
    cleaned = label.strip().lower() if isinstance(label, str) else None
    if cleaned in known:
        return cleaned
    close = difflib.get_close_matches(cleaned or "", known, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise RlvrError(f"reward {spec.name!r} has no outcome label {label!r}; known: "
                    f"{', '.join(known)}.{hint}")
