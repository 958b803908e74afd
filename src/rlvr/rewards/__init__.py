"""Rewards: the reward contract, the registry, and the built-in rewards.

Importing this package registers the built-in rewards, one module each, listed once in
`rlvr.rewards.registry.BUILTIN_REWARD_MODULES` (import order does not matter):

| module | registers |
|---|---|
| `selfaware` | `selfaware`: the calibration table (answer what is answerable, abstain otherwise) |
| `selfaware_structured` | the `selfaware` verdict on a structured response (boxed / `Answer:` field) |
| `abstention` | `abstention`: how much a response abstains |
| `gsm8k` | `gsm8k_correctness`, `gsm8k_format`: the `#### N` answer and format |
| `math` | `math`: mathematical equivalence through math-verify |
| `qa` | `qa`: SQuAD-style match against any gold alias |
| `think_format` | `think_format`: one reasoning block, then one answer block |
| `code` | `code`: the response's program against the task's tests, in the sandbox |
| `llm_judge` | `llm_judge`: a score read from an LLM judge's reply |
| `length` | `soft_overlong`, `repetition_penalty`, `cosine_scaled`: guards added next to a task reward |

A user's own function (`module:function` or `file.py:function`, `rlvr.rewards.user`) is
registered by `register_user_rewards`, or by `get_reward` when given such a reference; so is
a reward model (`reward_model: PATH_OR_ID`, `rlvr.rewards.model_reward`). Use
`get_reward(name)` for the spec, `make_trl_reward(name)` (or `make_trl_rewards` for several,
weighted) for TRL reward functions and `score_rows` for offline scoring; the preflight
(`rlvr.rewards.preflight`) checks a reward against degenerate policies before training.

The contract's types are `rlvr.rewards.contract`, the registry and adapters
`rlvr.rewards.registry`. Three packages hold what the rewards share, each behind one entry
point: `rlvr.rewards.answers` (reading and comparing answers: numbers, fields, gold matching,
math), `rlvr.rewards.abstention_detection` (does a response abstain or hedge) and
`rlvr.rewards.judge` (an LLM judge as a grader).
"""

from rlvr.rewards.contract import RewardContractError, RewardResult, RewardSpec
from rlvr.rewards.registry import (
    BUILTIN_REWARD_MODULES,
    REWARDS,
    completion_text,
    get_reward,
    load_builtin_rewards,
    make_trl_reward,
    make_trl_rewards,
    register_reward,
    register_user_rewards,
    score_rows,
)

load_builtin_rewards()

__all__ = [
    "BUILTIN_REWARD_MODULES",
    "REWARDS",
    "RewardContractError",
    "RewardResult",
    "RewardSpec",
    "completion_text",
    "get_reward",
    "make_trl_reward",
    "make_trl_rewards",
    "register_reward",
    "register_user_rewards",
    "score_rows",
]
