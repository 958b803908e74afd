"""Evaluation during training (`eval_steps`) and the best adapter kept (`keep_best`).

Every `eval_steps` optimizer steps, the model answers the first `eval_steps_limit` held-out
rows with the runner, settings and scorer of the final report
(`rlvr.eval.heldout_answers.evaluate_heldout`), and the step's metrics
(`rlvr.eval.heldout_answers.step_metrics`) go to `metrics.jsonl` (event `step_eval`) and the
trackers (`eval/<metric>`):
- a calibration run: the knowledge-aware metrics against the base model's knowledge labels
  (`rlvr.eval.knowledge.honesty_metrics`: honesty, prudence, over_conservativeness,
  known_retention, answer_rate, selective_accuracy) and `mean_reward`;
- a task run: the mean over rows of each `rlvr.eval.task_heldout.row_values` metric
  (`reward`, `reward/<name>`, `accuracy/<name>`).
With `keep_best: METRIC` (higher is better, except `over_conservativeness`), the adapter of
the best step so far is saved to RUN/best_adapter; after training the final adapter and
the report use it (`restore_best`), and the report's meta names the step (`best`). Ties keep
the earlier step. Runs on the main process only; other processes wait at their next sync.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any, Callable

from transformers import TrainerCallback

logger = logging.getLogger(__name__)

LOWER_IS_BETTER = ("over_conservativeness",)
BEST_DIR = "best_adapter"


def better(metric: str, value: float, best: float | None) -> bool:
    """Whether `value` beats `best` for `metric` (strictly: a tie keeps the earlier step)."""
    if best is None:
        return True
    return value < best if metric in LOWER_IS_BETTER else value > best


class StepEval(TrainerCallback):
    """The `eval_steps` callback (module docstring).

    Args:
        evaluate: `(model, step) -> records`, the held-out answers of the model now.
        metrics: `records -> {metric: value}` (`rlvr.eval.heldout_answers.step_metrics`
            with the run's labels/entries).
        log: `(record) -> None`, where a `step_eval` record goes (metrics.jsonl, trackers).
        every: `eval_steps`; keep_best: the metric to keep the best adapter by, or None.
        run_dir: where `best_adapter/` is saved; save: `(model, folder) -> None`, how
            (`rlvr.train.fit.save_adapter` with the run's tokenizer).
    """

    def __init__(self, evaluate: Callable, metrics: Callable, log: Callable, every: int,
                 keep_best: str | None, run_dir: str | Path, save: Callable | None = None):
        self.evaluate, self.metrics, self.log = evaluate, metrics, log
        self.every, self.keep_best, self.save = every, keep_best, save
        self.best_dir = Path(run_dir) / BEST_DIR
        self.best: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []

    def on_step_end(self, args, state, control, model=None, **kwargs):
        step = state.global_step
        if not state.is_world_process_zero or model is None or step % self.every:
            return
        was_training = model.training
        model.eval()
        start = time.perf_counter()
        try:
            values = self.metrics(self.evaluate(model, step))
        finally:
            model.train(was_training)
        record = {"event": "step_eval", "step": step, **values,
                  "seconds": round(time.perf_counter() - start, 3)}
        self.history.append(record)
        metric = self.keep_best
        if metric is not None and metric not in values:
            logger.warning("keep_best: %s was not measured at step %d (measured: %s)", metric,
                           step, ", ".join(values))
        elif metric is not None:
            if better(metric, values[metric], None if self.best is None else
                      self.best["value"]):
                self.save(model, self.best_dir)
                self.best = {"metric": metric, "step": step, "value": values[metric]}
                record["best"] = True
        self.log(record)
        logger.info("step %d held-out: %s", step, ", ".join(
            f"{k} {v:.3f}" for k, v in values.items()))


def restore_best(model, callback: StepEval, final_step: int) -> dict[str, Any] | None:
    """Load the best step's adapter weights into `model` (the trained PEFT model) when
    that step is not the last; returns the report's `best` entry (metric, step, value,
    the last evaluation's value, and whether the weights were restored), or None without
    `keep_best` or an evaluation."""
    if callback is None or callback.best is None:
        return None
    best = dict(callback.best)
    last = callback.history[-1] if callback.history else {}
    best["last_step"], best["last_value"] = last.get("step"), last.get(best["metric"])
    best["restored"] = best["step"] != final_step
    if best["restored"]:
        from peft import set_peft_model_state_dict
        from safetensors.torch import load_file

        set_peft_model_state_dict(model, load_file(str(callback.best_dir /
                                                       "adapter_model.safetensors")))
    return best
