"""What the stages of the main job hand each other (`rlvr.train.job`).

`RunState` holds what the stages before training produce: the resolved data, the run
directory, the base model with its tokenizer, the held-out rows and the base model's scored
answers and knowledge labels. `Trained` is what a training method returns (GRPO today,
`rlvr.train.grpo.train_grpo`): the trained model, the saved adapter and the facts of the run
that the report records. A new method (SFT, DPO) is one function `(RunState) -> Trained`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rlvr.config import TrainConfig
from rlvr.eval.settings import RunEvaluation


@dataclass
class RunState:
    """The main job's state before training.

    Attributes:
        cfg: the resolved configuration (read only).
        run_dir: the run directory (`cfg.output_dir`); resume: continue from a checkpoint.
        data: the `rlvr.tasks.resolve.ResolvedData` (its `source` and skipped rows).
        train, heldout: training and held-out examples (`source`-tagged).
        preflight: the reward preflight results (`rlvr.train.checks.reward_preflight`).
        task_run: a GSM8K/MATH/QA/code reward run (no knowledge labels, no honesty report).
        evaluation: every evaluation stage's settings (`rlvr.eval.settings.RunEvaluation`,
            built from `cfg` once, in `prepare`).
        timings: seconds per stage, by name (`eval_base_s`, `train_s`, ...).
        model_path, model, tokenizer: the base model once `load_base` ran.
        task: the held-out evaluation task (`rlvr.tasks.heldout.run_task`); rows: its rows.
        base_records: the base model's scored greedy answers to `rows` (None: not evaluated).
        labels: knowledge labels by question id (None without base evaluation).
        train_counts: answerable / known / unanswerable training rows (with
            `train_answerable: known|label`, else None).
        generator: the evaluation stages' engine (`rlvr.eval.run_engine.RunGenerator`,
            set by `load_base`).
        p_correct_base: the base model's answer-forced P(correct) per held-out question
            (`rlvr.eval.decision_rule`; None when `decision_samples` is 0 or not evaluated).
    """

    cfg: TrainConfig
    run_dir: Path
    resume: bool
    data: Any
    train: list[dict[str, Any]]
    heldout: list[dict[str, Any]]
    preflight: list[dict[str, Any]]
    task_run: bool
    evaluation: RunEvaluation
    timings: dict[str, float] = field(default_factory=dict)
    model_path: str | None = None
    model: Any = None
    tokenizer: Any = None
    task: Any = None
    rows: list[dict[str, Any]] = field(default_factory=list)
    base_records: list[dict[str, Any]] | None = None
    labels: dict[Any, dict] | None = None
    train_counts: dict[str, int] | None = None
    p_correct_base: dict[Any, float] | None = None
    generator: Any = None

    @property
    def metrics_path(self) -> Path:
        """RUN_DIR/metrics.jsonl (`rlvr.metrics.run_log`)."""
        return self.run_dir / "metrics.jsonl"


@dataclass
class Trained:
    """What a training method returns.

    Attributes:
        model: the trained model (a PEFT model; with the adapter disabled it is the base).
        adapter_dir: the saved adapter (None on a process that is not rank 0).
        steps: optimizer steps taken; training_loss: the trainer's mean loss.
        main: this process writes the run's files (rank 0; always True on one process).
        digests: SHA-256 of the trained weights on every process, rank order.
        interrupted: a stop signal ended training early (checkpoint and adapter saved).
        alarms: the diagnostics alarms that fired (dicts with `message`).
        curriculum: the curriculum summary (None when off).
        run_name, trackers: the trackers' run name and the open `Trackers` (closed by the
            job once the results are logged).
        method: the training method (`grpo`, `sft`, `dpo`).
        best: with `keep_best`, the step whose adapter was kept (`rlvr.train.step_eval`).
        prefix_sharing: what `share_prompt_prefix` did (`rlvr.train.prefix_sharing.summary`;
            None for methods without it).
    """

    model: Any
    adapter_dir: Path | None
    steps: int
    training_loss: float | None
    main: bool
    digests: list[str]
    interrupted: bool
    alarms: list[dict[str, Any]]
    curriculum: dict[str, Any] | None
    run_name: str
    trackers: Any
    method: str = "grpo"
    best: dict[str, Any] | None = None
    prefix_sharing: dict[str, Any] | None = None

    def rank_report(self) -> dict[str, Any]:
        """The report of a process that is not rank 0: its rank, steps and digests."""
        return {"meta": {"rank": int(os.environ.get("RANK", "0")), "optimizer_steps": self.steps,
                         "adapter_sha256_by_rank": self.digests}}
