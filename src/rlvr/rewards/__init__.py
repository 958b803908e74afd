"""Reward registry and the built-in rewards.

Importing this package registers the built-in rewards: `selfaware`, `abstention`,
`gsm8k_correctness`, `gsm8k_format`, `math`, `qa`, `think_format`, `code` and `llm_judge`
(an LLM judge behind an OpenAI-compatible endpoint, `rlvr.rewards.llm_judge`), and the
length and repetition guards of `rlvr.rewards.length` (`soft_overlong`,
`repetition_penalty`, `cosine_scaled`), added next to a task reward in `reward_funcs`. Use
`get_reward(name)` for the spec, `make_trl_reward(name)` (or `make_trl_rewards` for
several, weighted) for TRL reward functions and `score_rows` for offline scoring. A user's
own function (`module:function` or `file.py:function`, `rlvr.rewards.user`) is registered
by `register_user_rewards`, or by `get_reward` when given such a reference; so is a reward
model (`reward_model: PATH_OR_ID`, `rlvr.rewards.model_reward`).
"""

from rlvr.rewards import (  # noqa: F401  (each module registers its rewards)
    abstention,
    code,
    gsm8k,
    llm_judge,
    math,
    qa,
    selfaware,
    think_format,
)
from rlvr.rewards import length  # noqa: F401  (last: cosine_scaled reads the fields above)
from rlvr.rewards.contract import RewardContractError, RewardResult, RewardSpec
from rlvr.rewards.registry import (
    REWARDS,
    completion_text,
    get_reward,
    make_trl_reward,
    make_trl_rewards,
    register_reward,
    register_user_rewards,
    score_rows,
)

__all__ = [
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
