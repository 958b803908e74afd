"""The GRPO curriculum (`rlvr.train.curriculum.history`) inside `trl.GRPOTrainer`.

`curriculum_trainer(CurriculumSettings.from_config(cfg), GRPOTrainer)` returns the trainer class to build: GRPOTrainer
itself when `cfg.curriculum` is off, else a subclass that

* adds a `curriculum_id` column (the row index) to the training dataset; rlvr's reward
  functions ignore columns they do not declare;
* trains with `CurriculumSampler` (TRL's `RepeatSampler` contract, active prompts only);
* after TRL scores each generation batch (`_calculate_rewards`), records every group's
  total weighted reward (TRL's logged `reward`: the weighted sum, an all-None completion
  unscorable) under its prompt id, and logs `curriculum/active_prompts` and
  `curriculum/retired_prompts` through TRL's metrics;
* writes `curriculum.json` into every checkpoint folder (atomically, in an `on_save` that
  runs before the other callbacks', so a checkpoint marked complete by
  `rlvr.train.checkpoints` holds it) and restores it in `train(resume_from_checkpoint=...)`.

`write_curriculum_retired(trainer, run_dir)` writes `curriculum_retired.json` at the end
(a no-op returning None for a plain trainer). torch, transformers, accelerate and TRL are
imported inside the functions, so `reward_bounds` and `curriculum_thresholds` stay light.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from rlvr.errors import ConfigError, RlvrError
from rlvr.io import write_json, write_text
from rlvr.train.curriculum.history import STATE_VERSION, CurriculumSampler, PromptHistory

logger = logging.getLogger(__name__)

ID_COLUMN = "curriculum_id"
STATE_FILE = "curriculum.json"
RETIRED_FILE = "curriculum_retired.json"


def reward_bounds(entries: Sequence[dict[str, Any]]) -> tuple[float, float]:
    """The lowest and highest total reward the weighted rewards can declare.

    Args:
        entries: `make_trl_rewards` entries (`name`, optional `weight`, default 1.0).
    Returns:
        (low, high) = sum over entries of weight x (score_range low, high), the ends
        swapped for a negative weight; e.g. selfaware (-1, 1) x 1.0 plus gsm8k_format
        (0, 0.5) x 2.0 -> (-1 + 0, 1 + 1.0) = (-1.0, 2.0). It is the declared range: when
        `reward_params` lower the top value (e.g. correct: 0.8), set the threshold.
    Raises:
        RlvrError: an unknown reward name.
    Source: TRL sums the weighted rewards per completion (`sum_then_normalize`).
    """
    from rlvr.rewards import get_reward

    low = high = 0.0
    for entry in entries:
        weight = float(entry.get("weight", 1.0))
        lo, hi = get_reward(entry["name"]).score_range
        low += weight * (lo if weight >= 0 else hi)
        high += weight * (hi if weight >= 0 else lo)
    return low, high


def curriculum_thresholds(cfg) -> tuple[float, float]:
    """(solved, failed) total-reward thresholds of a config: `curriculum_solved_reward`
    and `curriculum_failed_reward`, each None -> the top / bottom of `reward_bounds` of the
    config's rewards (selfaware alone: 1.0 and -1.0)."""
    from rlvr.config.checks import reward_entries

    low, high = reward_bounds(reward_entries(cfg))
    solved = getattr(cfg, "curriculum_solved_reward", None)
    failed = getattr(cfg, "curriculum_failed_reward", None)
    return (high if solved is None else float(solved)), (low if failed is None else float(failed))


@dataclass(frozen=True)
class CurriculumSettings:
    """What the curriculum trainer reads (module docstring): a prompt is solved when its
    mean total reward over the last `window` steps it was drawn in is >= `solved_reward`
    (retired from sampling), failed when <= `failed_reward` (retired too with
    `retire_failed`)."""

    window: int = 2
    solved_reward: float = 1.0
    failed_reward: float = -1.0
    retire_failed: bool = False

    @classmethod
    def from_config(cls, cfg) -> "CurriculumSettings | None":
        """The settings of a `TrainConfig` (`curriculum_*` keys; thresholds by
        `curriculum_thresholds`), or None when `curriculum` is off."""
        if not getattr(cfg, "curriculum", False):
            return None
        solved, failed = curriculum_thresholds(cfg)
        return cls(int(getattr(cfg, "curriculum_window", 2)), solved, failed,
                   bool(getattr(cfg, "curriculum_retire_failed", False)))


def question_text(prompt: Any) -> str:
    """The question of a training prompt: the last user turn of a chat prompt (after any
    in-context examples), or the prompt itself when it is text."""
    if isinstance(prompt, list):
        users = [m.get("content", "") for m in prompt if isinstance(m, dict)
                 and m.get("role") == "user"]
        return str(users[-1]) if users else json.dumps(prompt, ensure_ascii=False)
    return str(prompt)


def prompts_fingerprint(prompts: Sequence[Any]) -> str:
    """sha256 (hex) of the prompt column as JSON: a resumed run checks it is training
    on the same rows in the same order before it trusts saved prompt ids."""
    text = json.dumps(list(prompts), ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def curriculum_trainer(settings: CurriculumSettings | None, base_class=None):
    """The GRPOTrainer class: `base_class` unchanged when the curriculum is off
    (`settings` None), else a curriculum subclass of it (module docstring).

    Args:
        settings: `CurriculumSettings.from_config(cfg)`.
        base_class: `trl.GRPOTrainer` or a subclass; None = `trl.GRPOTrainer`.
    Returns:
        a class built like GRPOTrainer (`train_dataset` passed by keyword, a map-style
        `datasets.Dataset`). The floor of active prompts is the distinct prompts of one
        generation batch (generation_batch_size // num_generations). The instance holds
        `curriculum_history` and `curriculum_sampler`.
    Raises:
        ConfigError: on construction: an iterable dataset, a training set smaller than
            one generation batch, or a `curriculum_id` column that is not the row index.
        RlvrError: on `train(resume_from_checkpoint=...)`: a `curriculum.json` that is
            unreadable or was written for other training rows or sampler settings.
    """
    if base_class is None:
        from trl import GRPOTrainer as base_class
    if settings is None:
        return base_class
    solved, failed = settings.solved_reward, settings.failed_reward
    window, retire_failed = settings.window, settings.retire_failed

    class CurriculumGRPOTrainer(base_class):
        """`base_class` with the rlvr curriculum (see `curriculum_trainer`)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["train_dataset"] = _with_ids(kwargs.get("train_dataset"))
            super().__init__(*args, **kwargs)
            batch = self.args.generation_batch_size // self.num_generations
            self.curriculum_fingerprint = prompts_fingerprint(self.train_dataset["prompt"])
            self.curriculum_history = PromptHistory(
                len(self.train_dataset), window=window, solved_reward=solved,
                failed_reward=failed, retire_failed=retire_failed, min_active=batch)
            self.curriculum_sampler = CurriculumSampler(
                self.curriculum_history, mini_repeat_count=self.num_generations,
                batch_size=batch, repeat_count=self.num_iterations * self.args.steps_per_generation,
                shuffle=bool(self.shuffle_dataset), seed=self.args.seed)
            # first, so other callbacks' on_save (rlvr's checkpoint-complete marker) see it
            self.callback_handler.callbacks.insert(0, _save_callback(self))
            logger.info("curriculum: %d prompts, floor %d, window %d, solved >= %g%s",
                        len(self.train_dataset), batch, window, solved,
                        f", failed <= {failed:g} retired too" if retire_failed else "")

        def _get_train_sampler(self, dataset=None):
            return self.curriculum_sampler  # only the training dataloader asks for it

        def _calculate_rewards(self, inputs, prompts, completions, completion_ids_list):
            rewards_per_func = super()._calculate_rewards(inputs, prompts, completions,
                                                          completion_ids_list)
            if self.model.training:
                self._record_curriculum(inputs, rewards_per_func)
            return rewards_per_func

        def _record_curriculum(self, inputs, rewards_per_func) -> None:
            """Record the batch's groups (all processes, so every sampler agrees)."""
            import torch
            from accelerate.utils import gather_object

            weights = self.reward_weights.to(rewards_per_func.device).unsqueeze(0)
            total = (rewards_per_func * weights).nansum(dim=1)
            total[torch.isnan(rewards_per_func).all(dim=1)] = float("nan")
            if ID_COLUMN not in inputs[0]:
                raise RlvrError(f"curriculum: the batch has no {ID_COLUMN!r} column; keep "
                                "GRPOConfig(remove_unused_columns=False)")
            ids = gather_object([int(row[ID_COLUMN]) for row in inputs])
            step = self.state.global_step + 1
            for change, prompt_id in self.curriculum_history.record_batch(
                    ids, total.tolist(), self.num_generations, step):
                logger.info("curriculum: %s prompt %d at step %d", change, prompt_id, step)
            history = self.curriculum_history
            self._metrics["train"]["curriculum/active_prompts"].append(float(history.num_active))
            self._metrics["train"]["curriculum/retired_prompts"].append(
                float(history.num_prompts - history.num_active))

        def curriculum_state(self) -> dict[str, Any]:
            """What `curriculum.json` holds: version, fingerprint, history, sampler."""
            return {"version": STATE_VERSION, "fingerprint": self.curriculum_fingerprint,
                    "history": self.curriculum_history.state_dict(),
                    "sampler": self.curriculum_sampler.state_dict()}

        def load_curriculum(self, checkpoint: str | Path) -> bool:
            """Restore `curriculum.json` from a checkpoint folder; False (and a warning)
            when it has none, e.g. a checkpoint of a run without the curriculum."""
            path = Path(checkpoint) / STATE_FILE
            if not path.is_file():
                logger.warning("curriculum: %s not found; the curriculum starts afresh", path)
                return False
            try:
                state = json.loads(path.read_text(encoding="utf-8"))
                if state.get("fingerprint") != self.curriculum_fingerprint:
                    raise RlvrError("it was written for other training rows (or another "
                                    "order); resume with the run's original config")
                self.curriculum_history.load_state_dict(state["history"])
                self.curriculum_sampler.load_state_dict(state["sampler"])
            except (OSError, ValueError, KeyError, AttributeError, RlvrError) as exc:
                raise RlvrError(f"{path}: cannot restore the curriculum: {exc}") from None
            logger.info("curriculum restored from %s: %d active, %d retired", path,
                        self.curriculum_history.num_active, len(self.curriculum_history.retired))
            return True

        def train(self, resume_from_checkpoint=None, *args: Any, **kwargs: Any):
            checkpoint = resume_from_checkpoint
            if isinstance(checkpoint, bool):
                from transformers.trainer_utils import get_last_checkpoint

                checkpoint = get_last_checkpoint(self.args.output_dir) if checkpoint else None
            if checkpoint:
                self.load_curriculum(checkpoint)
            return super().train(resume_from_checkpoint, *args, **kwargs)

    return CurriculumGRPOTrainer


def _with_ids(dataset):
    """The training dataset with `curriculum_id` = row index (added when missing)."""
    from datasets import Dataset

    if not isinstance(dataset, Dataset):
        raise ConfigError("curriculum: the training dataset must be a map-style datasets."
                          f"Dataset passed as train_dataset=, got {type(dataset).__name__}")
    ids = list(range(len(dataset)))
    if ID_COLUMN in dataset.column_names:
        if list(dataset[ID_COLUMN]) != ids:
            raise ConfigError(f"curriculum: the dataset's {ID_COLUMN!r} column must be the row "
                              "index 0..n-1; drop it and rlvr adds it")
        return dataset
    return dataset.add_column(ID_COLUMN, ids)


def _save_callback(trainer):
    """A TrainerCallback that writes `trainer.curriculum_state()` into each checkpoint."""
    from transformers import TrainerCallback
    from transformers.trainer_utils import PREFIX_CHECKPOINT_DIR

    class CurriculumSaveCallback(TrainerCallback):
        """Writes `curriculum.json` into the checkpoint folder just saved."""

        def on_save(self, args, state, control, **kwargs):
            folder = Path(args.output_dir) / f"{PREFIX_CHECKPOINT_DIR}-{state.global_step}"
            if args.should_save and folder.is_dir():
                write_text(folder / STATE_FILE, json.dumps(trainer.curriculum_state()) + "\n")
            return control

    return CurriculumSaveCallback()


def write_curriculum_retired(trainer, run_dir: str | Path) -> dict[str, Any] | None:
    """Write `RUN_DIR/curriculum_retired.json` and return what it holds.

    Args:
        trainer: the trainer after training; one without a curriculum -> None, no file.
        run_dir: the run directory.
    Returns:
        {"num_prompts", "active_prompts", "retired_prompts", "reinstated", "settings",
        "retired": [{"id", "step", "reason", "question", "groups_seen",
        "recent_mean_rewards"}, ...]} in retirement order (step = optimizer step of the
        deciding group; question = `question_text` of the row's prompt).
    """
    history = getattr(trainer, "curriculum_history", None)
    if history is None:
        return None
    retired = [{**r, "question": question_text(trainer.train_dataset[r["id"]]["prompt"]),
                "groups_seen": history.groups_seen(r["id"]),
                "recent_mean_rewards": [o.mean for o in history.recent(r["id"])]}
               for r in history.retired]
    summary = {"num_prompts": history.num_prompts, "active_prompts": history.num_active,
               "retired_prompts": len(retired), "reinstated": history.reinstated,
               "settings": {"window": history.window, "solved_reward": history.solved_reward,
                            "failed_reward": history.failed_reward,
                            "retire_failed": history.retire_failed,
                            "min_active": history.min_active},
               "retired": retired}
    write_json(Path(run_dir) / RETIRED_FILE, summary)
    return summary
