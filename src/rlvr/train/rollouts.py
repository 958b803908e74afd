"""RUN/rollouts.jsonl: what the policy generated at every training step, as it trained on it.

One JSON line per completion: `step` (the optimizer step whose log it came with),
`prompt` (the last prompt message's text), `completion` (text), `rewards` {reward log name:
score, None when the reward left the sample out}, `outcomes` {reward log name: outcome
label, for rlvr's rewards}, `why` {reward log name: the rule ids that decided the verdict,
"decline.phrase > selfaware.table"; `rlvr.rewards.rulebook`, for rewards that name them},
`advantage` (the group-relative advantage TRL trained with), `truncated` (true when the
completion reached `max_completion_length` without an end-of-sequence token: no EOS token
in its ids, TRL's own rule for `completions/clipped_ratio`) and `masked` (true when no token
of it entered the loss: `mask_truncated_completions`, `mask_zero_std_groups`); these two
are null when the batch's tensors were not seen (`rollout_flags_trainer`).
The rows come from the table TRL keeps for its `log_completions` option (the last
generation batch's prompts, completions, per-reward scores, advantages and the columns
reward functions log with `log_extra`, which rlvr's rewards use for their outcome labels),
read at each log event on the main process; a batch already written is not written twice
(steps that reuse one generation batch, `num_iterations` > 1 or gradient accumulation over
several logs): with `num_iterations: N > 1` TRL generates once per N optimizer steps, so
only the steps that generated have rows. `rollout_log: gzip` appends gzip members to `rollouts.jsonl.gz` instead
(`zcat` or `gzip.open` reads it whole); `none` turns it off.

Read step N: `jq -c 'select(.step == N)' RUN/rollouts.jsonl`, or in Python
`[r for r in map(json.loads, open(path)) if r["step"] == N]`.
"""

from __future__ import annotations

import gzip
import json
import logging
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

logger = logging.getLogger(__name__)

ROLLOUT_FILES = {"jsonl": "rollouts.jsonl", "gzip": "rollouts.jsonl.gz"}


def _text(value: Any) -> str:
    """A prompt or completion as text: a string, or the last chat message's content."""
    if isinstance(value, list) and value and isinstance(value[-1], dict):
        return str(value[-1].get("content", ""))
    return str(value)


def _number(value: Any) -> float | None:
    """A score as a float, NaN (TRL's "left out") as None."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else number


def batch_flags(completion_ids, loss_mask, eos_token_ids) -> list[dict[str, bool]]:
    """Per completion of one batch: `truncated` (no token of `eos_token_ids` in its ids,
    so it ran to the length cap; TRL counts those in `completions/clipped_ratio`) and
    `masked` (its loss mask is all 0).

    Shapes: completion_ids (B, T) int tensor, loss_mask (B, T) -> B dicts.
    Source: TRL 1.16 GRPOTrainer (`eos_token_ids`, the loss mask = completion_mask x tool_mask).
    """
    import torch

    eos = torch.tensor(list(eos_token_ids), device=completion_ids.device)
    ended = torch.isin(completion_ids, eos).any(dim=1)
    kept = loss_mask.sum(dim=1) > 0
    return [{"truncated": not bool(e), "masked": not bool(k)}
            for e, k in zip(ended.tolist(), kept.tolist())]


def _record_flags(trainer: Any, output: dict[str, Any]) -> dict[str, Any]:
    """`batch_hook_trainer` hook: keep the batch's `batch_flags`, gathered over processes in
    the order of TRL's completion table, as `trainer.rollout_flags`."""
    from accelerate.utils import gather_object

    mask = output["completion_mask"]
    if output.get("tool_mask") is not None:
        mask = mask * output["tool_mask"]
    flags = batch_flags(output["completion_ids"], mask, trainer.eos_token_ids)
    trainer.rollout_flags = gather_object(flags)
    return output


def rollout_flags_trainer(base_class: type) -> type:
    """`base_class` (a GRPOTrainer class) whose training batches record the per-completion
    `truncated` / `masked` flags the rollout log writes (`batch_flags`). Wrap it outermost,
    so the masks it reads are the final ones."""
    from rlvr.train.batch_hook import batch_hook_trainer

    return batch_hook_trainer(base_class, _record_flags, "RolloutFlags")


def rollout_rows(logs: dict[str, Any], step: int,
                 flags: list[dict[str, bool]] | None = None) -> list[dict[str, Any]]:
    """The rows of TRL's completion table (`GRPOTrainer._logs`): prompt, completion, the
    per-reward scores, the advantages, the `outcome/<name>` extra columns and, when the
    rewards log them, the rule ids of each verdict (`why/<name>`, as `why`).

    `flags` (`batch_flags` of the same batch, in the table's order) adds `truncated` and
    `masked`; without them, or when their count differs from the table's, both are None.
    Raises:
        KeyError: the table lacks `prompt`, `completion` or `advantages` (another TRL).
    """
    prompts, completions = list(logs["prompt"]), list(logs["completion"])
    advantages = list(logs["advantages"])
    rewards = {name: list(values) for name, values in (logs.get("rewards") or {}).items()}
    extra = {name.split("/", 1)[1]: list(values) for name, values in
             (logs.get("extra") or {}).items() if name.startswith("outcome/")}
    whys = {name.split("/", 1)[1]: list(values) for name, values in
            (logs.get("extra") or {}).items() if name.startswith("why/")}
    if flags is None or len(flags) != len(completions):
        flags = [{"truncated": None, "masked": None}] * len(completions)
    rows = []
    for i, (prompt, completion) in enumerate(zip(prompts, completions)):
        rows.append({
            "step": step, "prompt": _text(prompt), "completion": _text(completion),
            "rewards": {n: _number(v[i]) if i < len(v) else None for n, v in rewards.items()},
            "outcomes": {n: v[i] if i < len(v) else None for n, v in extra.items()},
            **({"why": {n: v[i] if i < len(v) else None for n, v in whys.items()}}
               if whys else {}),
            "advantage": _number(advantages[i]) if i < len(advantages) else None,
            **flags[i]})
    return rows


class RolloutLog(TrainerCallback):
    """Appends each new generation batch to RUN/rollouts.jsonl[.gz] at every log event
    (module docstring); `trainer` is set by the training stage after the trainer exists.
    A TRL without the completion table only warns once."""

    def __init__(self, run_dir: str | Path, kind: str = "jsonl"):
        if kind not in ROLLOUT_FILES:
            raise ValueError(f"rollout_log must be one of {', '.join(ROLLOUT_FILES)} or none, "
                             f"got {kind!r}")
        self.path = Path(run_dir) / ROLLOUT_FILES[kind]
        self.kind = kind
        self.trainer = None
        self._last: tuple | None = None
        self._warned = False

    def on_log(self, args, state, control, logs=None, **kwargs):
        if not state.is_world_process_zero or self.trainer is None:
            return
        table = getattr(self.trainer, "_logs", None)
        try:
            rows = rollout_rows(table, state.global_step,
                                getattr(self.trainer, "rollout_flags", None)) \
                if table is not None else None
        except (KeyError, TypeError) as exc:
            rows = None
            if not self._warned:
                logger.warning("rollout log off: this TRL keeps no completion table (%s)", exc)
        if rows is None:
            self._warned = True
            return
        key = tuple((r["prompt"], r["completion"], r["advantage"]) for r in rows)
        if not rows or key == self._last:
            return
        self._last = key
        lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.kind == "gzip":
            with gzip.open(self.path, "at", encoding="utf-8") as handle:
                handle.write(lines)
        else:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(lines)
                handle.flush()
