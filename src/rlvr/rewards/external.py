"""rlvr's rewards inside another training engine (verl, OpenRLHF): one response scored at a
time, as those engines call a custom reward, with the weights, presets, params, user
functions and reasoning-block reading of the run's config.

`rlvr handoff` writes a reward file that imports this module from the installed rlvr (no
copy of rlvr's code) and a JSON spec beside it (`SPEC_FILE`: the run's reward entries).
The contracts served:

* verl (`reward.custom_reward_function.path`/`.name`, verl 0.9): `compute_score(
  data_source, solution_str, ground_truth, extra_info=None, **kwargs)` returns a dict with
  `score` (the weighted sum, as `rlvr train` sums rewards for TRL) and numeric extras that
  verl logs as metrics: `<reward>` (that reward's score) and `<reward>/<outcome>` (1.0 for
  the verdict's outcome, 0.0 for the reward's other outcomes, so every sample carries the
  same keys and their means are the outcome shares). `ground_truth` is the JSON text of
  the row's reward fields (written by `rlvr handoff`; JSON because parquet gives every row
  the union of all rows' keys).
* OpenRLHF 0.11 (`--reward.remote_url reward.py`): `reward_func(queries, prompts, labels)` returns
  `{"rewards", "scores", "extra_logs"}`; each query is the decoded prompt and response with
  special tokens, so the prompt and the end-of-turn markers are cut off first
  (`response_of`). Each label is the same JSON text.

A score that is None (a reward that does not score a sample, `RewardResult.score`) counts
as 0 in the weighted sum, as TRL counts it (`rlvr.rewards.make_trl_rewards`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError

SPEC_FILE = "rlvr_rewards.json"
# end-of-turn and padding markers of the common chat templates, cut off a decoded query
END_MARKERS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "</s>",
               "<end_of_turn>", "<|end|>", "<｜end▁of▁sentence｜>")


class ExternalReward:
    """The run's rewards for an engine that scores one response at a time.

    Args:
        entries: the reward entries of the run (`rlvr.config.reward_setup.reward_entries`:
            `name`, `preset`, `params`, `weight`, `log_name`, and `function` for a user's).
    Raises:
        RlvrError: an unknown reward or preset, a user function that cannot be loaded.
    Source: the weighted sum of TRL's `GRPOTrainer` (`reward_weights`), which `rlvr train`
        uses; the outcome labels of `rlvr.rewards.make_trl_reward`.
    """

    def __init__(self, entries: list[dict[str, Any]]):
        from rlvr.rewards import get_reward, make_trl_rewards

        self.funcs, self.weights = make_trl_rewards(entries)
        self.names = [f.__name__ for f in self.funcs]
        self.outcomes = {f.__name__: tuple(get_reward(f.__name__).outcomes or ())
                         for f in self.funcs}

    @classmethod
    def from_file(cls, path: str | Path) -> "ExternalReward":
        """Load the spec `rlvr handoff` wrote (`SPEC_FILE`).

        Raises:
            RlvrError: the file is missing or is not a spec.
        """
        path = Path(path)
        if not path.is_file():
            raise RlvrError(f"{path}: no reward spec; run `rlvr handoff` again to write it")
        spec = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(spec, dict) or not isinstance(spec.get("rewards"), list):
            raise RlvrError(f"{path}: not an rlvr reward spec (no 'rewards' list)")
        return cls(spec["rewards"])

    def score(self, response: str, fields: dict[str, Any], prompt: Any = None) -> dict[str, float]:
        """Score one response.

        Args:
            response: the decoded response only (no prompt, no end-of-turn marker).
            fields: the row's reward fields (`expected_answer`, `is_unanswerable`, ...).
            prompt: the row's prompt (chat messages or text), for rewards that read it.
        Returns:
            {"score": weighted sum, "<reward>": its score (0.0 when None),
             "<reward>/<outcome>": 1.0 or 0.0 for each outcome the reward declares}.
        """
        kwargs = {k: [v] for k, v in fields.items()}
        if prompt is not None:
            kwargs["prompts"] = [prompt]
        labels: dict[str, str] = {}
        kwargs["log_extra"] = lambda column, values: labels.__setitem__(column, values[0])
        out: dict[str, float] = {}
        total = 0.0
        for func, weight in zip(self.funcs, self.weights):
            value = func([response], **kwargs)[0]
            value = 0.0 if value is None else float(value)
            total += weight * value
            out[func.__name__] = value
            got = labels.get(f"outcome/{func.__name__}")
            for outcome in self.outcomes[func.__name__] or ((got,) if got else ()):
                out[f"{func.__name__}/{outcome}"] = 1.0 if outcome == got else 0.0
        return {"score": total, **out}


def fields_of(label: Any) -> dict[str, Any]:
    """A row's reward fields from the `ground_truth` / label `rlvr handoff` wrote (JSON
    text), or a dict given as it is.

    Raises:
        RlvrError: a label that is neither.
    """
    if isinstance(label, dict):
        return label
    try:
        value = json.loads(label)
    except (TypeError, ValueError):
        raise RlvrError(f"reward label is not the JSON text rlvr handoff writes: {label!r:.80}")
    if not isinstance(value, dict):
        raise RlvrError(f"reward label is not a JSON object: {label!r:.80}")
    return value


def response_of(query: str, prompt: str) -> str:
    """The response inside an OpenRLHF query (decoded prompt + response, with special
    tokens): the text after the prompt, cut at the first end-of-turn marker."""
    text = query[len(prompt):] if prompt and query.startswith(prompt) else query
    for marker in END_MARKERS:
        at = text.find(marker)
        if at >= 0:
            text = text[:at]
    return text
