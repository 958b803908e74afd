"""A reward model as a reward: a `reward_funcs` entry with `reward_model: PATH_OR_ID`.

```yaml
reward_funcs:
  - {name: rm, reward_model: ./my-reward-model, params: {batch_size: 8}}
  - {name: rm_hub, reward_model: OpenAssistant/reward-model-deberta-v3-large, weight: 0.5}
```

The model is a Hugging Face sequence-classification model with one label; its logit for
(prompt, completion) is the score (unbounded unless the entry declares `score_range:
[low, high]`), outcome `scored` (`rlvr.models.reward` renders and scores the pairs). The
entry is registered under its `name` (default `reward_model`) as a user reward is, so
`rlvr score`, the eval report and TRL use it like any other; params: `batch_size` (pairs
per forward pass, default 8) and `max_length` (tokens kept per pair, default all).

A relative folder is read from the config file's folder (`load_config`), else from the
working directory. When the config loads, a local folder must exist and hold a one-label
sequence-classification config (nothing is loaded); the training preflight also checks that
a hub id is cached or reachable. The model loads on first use, once per process, on the CPU.
"""

from __future__ import annotations

import math
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.contract import RewardResult, RewardSpec
from rlvr.rewards.user import OUTCOMES  # ("scored", "unscored"), as a user function's number

DEFAULT_NAME = "reward_model"


def reward_model_batch(completions: list[str], rows: list[dict[str, Any]], *, model: str = "",
                       batch_size: int = 8, max_length: int | None = None,
                       ) -> list[RewardResult]:
    """Score a batch with the reward model `model` (`rlvr.models.reward.score_pairs`): the
    logit per completion, outcome `scored`; a non-finite logit scores None (`unscored`).

    Raises:
        RlvrError: batch_size below 1, max_length not None nor a positive integer; the
            model cannot load (`rlvr.models.reward.check_reward_model`).
    """
    from rlvr.models.reward import score_pairs

    if isinstance(batch_size, bool) or batch_size < 1:
        raise RlvrError(f"reward model batch_size must be at least 1, got {batch_size!r}")
    if max_length is not None and (not isinstance(max_length, int) or max_length < 1):
        raise RlvrError(f"reward model max_length must be a positive number of tokens or "
                        f"null, got {max_length!r}")
    scores = score_pairs(model, [row.get("prompt") for row in rows], list(completions),
                         batch_size=batch_size, max_length=max_length)
    return [RewardResult(s, OUTCOMES[0]) if math.isfinite(s) else RewardResult(None, OUTCOMES[1])
            for s in scores]


def reward_model_reward(completion: str, *, prompt: Any = None, model: str = "",
                        batch_size: int = 8, max_length: int | None = None) -> RewardResult:
    """One (prompt, completion) pair's reward-model score: `reward_model_batch` on one row."""
    return reward_model_batch([completion], [{"prompt": prompt}], model=model,
                              batch_size=batch_size, max_length=max_length)[0]


def reward_model_spec(name: str, model: Any, *, params: Any = None,
                      score_range: tuple[float, float] = (-math.inf, math.inf)) -> RewardSpec:
    """The `RewardSpec` of a `reward_model` entry; its `source` is the model spec.

    Args:
        name: the registry and logged name.
        model: a local folder or a hub id (checked offline: `check_reward_model`).
        params: the entry's params, checked here for `model` (fixed by the entry).
        score_range: the entry's declared range (default unbounded).
    Raises:
        RlvrError: the model spec is refused; params set `model`.
    """
    from rlvr.models.reward import check_reward_model

    model = check_reward_model(model)
    if isinstance(params, dict) and "model" in params:
        raise RlvrError(f"reward {name!r}: the model is the entry's reward_model, not a "
                        "param; remove params.model")
    return RewardSpec(name, reward_model_reward, (), score_range, {"default": {"model": model}},
                      ("prompt",), (), reward_model_batch, OUTCOMES, False, model)
