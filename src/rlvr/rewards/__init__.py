"""Reward registry and the built-in rewards.

Importing this package registers the built-in rewards. Use `get_reward(name)` for the
spec, `make_trl_reward(name)` for a TRL reward function and `score_rows` for offline
scoring.
"""

from rlvr.rewards import selfaware  # noqa: F401  (registers "selfaware")
from rlvr.rewards.base import (
    REWARDS,
    RewardResult,
    RewardSpec,
    completion_text,
    get_reward,
    make_trl_reward,
    register_reward,
    score_rows,
)

__all__ = [
    "REWARDS",
    "RewardResult",
    "RewardSpec",
    "completion_text",
    "get_reward",
    "make_trl_reward",
    "register_reward",
    "score_rows",
]
