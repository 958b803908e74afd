"""The decision-rule stages of the main job: the base model's answer-forced P(correct)
(saved to `decision_base.json` and reused when its settings match) and, after training,
the check that each greedy action is the one the run's reward prefers
(`rlvr.eval.decision`)."""

from __future__ import annotations

import logging
import time
from typing import Any

from rlvr.train.evaluate import eval_cache_settings
from rlvr.train.state import RunState, Trained

logger = logging.getLogger(__name__)


def answer_forced(state: RunState, model, label: str) -> dict[Any, float] | None:
    """P(correct) per held-out question from `decision_samples` answer-forced answers of
    `model` (`rlvr.eval.decision`); None when `decision_samples` is 0."""
    cfg = state.cfg
    if not cfg.decision_samples:
        return None
    from rlvr.eval.decision import answer_forced_p_correct

    start = time.perf_counter()
    model.eval()
    p = answer_forced_p_correct(model, state.tokenizer, state.task, state.rows,
                                num_samples=cfg.decision_samples,
                                temperature=cfg.decision_temperature, seed=cfg.seed,
                                max_new_tokens=cfg.max_completion_length,
                                batch_size=cfg.eval_batch_size)
    state.timings[f"decision_{label}_s"] = time.perf_counter() - start
    return p


DECISION_BASE_FILE = "decision_base.json"


def base_decision(state: RunState) -> dict[Any, float] | None:
    """`answer_forced` on the base model, saved to `decision_base.json` with its settings
    and reused on `--resume` when they and the questions match (greedy answers do not
    depend on the seed, so `rlvr compare` shares them between seeds and arms)."""
    import json

    cfg, path = state.cfg, state.run_dir / DECISION_BASE_FILE
    import hashlib

    questions = "\n".join(str(r["question"]) for r in state.rows).encode("utf-8")
    settings = {**eval_cache_settings(cfg, state.task, False),  # model, prompt (its keys
                # num_samples, temperature, seed, max_new_tokens are the decision's here)
                "num_samples": cfg.decision_samples, "temperature": cfg.decision_temperature,
                "max_new_tokens": cfg.max_completion_length,
                "seed": cfg.seed if cfg.decision_temperature > 0 else None,
                "reward": state.task.reward, "reward_preset": state.task.reward_preset,
                "reward_params": state.task.reward_params,
                "questions_sha256": hashlib.sha256(questions).hexdigest(),
                "ids": [r["id"] for r in state.rows]}
    if state.resume and path.is_file():
        saved = json.loads(path.read_text(encoding="utf-8"))
        if saved.get("settings") == json.loads(json.dumps(settings)):
            logger.info("reusing the base model's answer-forced P(correct) from %s", path)
            return dict(zip(settings["ids"], saved["p_correct"]))
    p = answer_forced(state, state.model, "base")
    if p is not None:
        from rlvr.io import write_json

        write_json(path, {"settings": settings, "p_correct": [p.get(i) for i in settings["ids"]]})
    return p


def decision_rule(state: RunState, trained: Trained, trained_records: list[dict[str, Any]],
                  meta: dict[str, Any]) -> dict[str, Any]:
    """Stage 8b: does each greedy action (answer or abstain) follow the reward's own rule,
    for base and trained (`rlvr.eval.decision.decision_report`)? The seconds go to
    meta["timings"]["decision_trained_s"]."""
    from rlvr.eval.decision import decision_report, task_values

    cfg = state.cfg
    p_trained = answer_forced(state, trained.model, "trained")
    meta.setdefault("timings", {})["decision_trained_s"] = round(
        state.timings["decision_trained_s"], 3)
    return decision_report(state.rows, state.base_records, trained_records,
                           state.p_correct_base, p_trained, task_values(state.task),
                           settings={"preset": cfg.reward_preset,
                                     "num_samples": cfg.decision_samples,
                                     "temperature": cfg.decision_temperature})
