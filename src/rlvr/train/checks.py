"""Checks `rlvr train` runs on the training rows before any model loads.

`reward_preflight` scores the gold answers and the degenerate policies of
`rlvr.rewards.preflight` (always abstain, always hedge, list candidates, empty, repeat the
question, tags only) with every training reward (length and repetition guards only get
their parameters checked: a penalty scores every short answer alike; a reward model or an
LLM judge only its settings, so no model loads and no request is sent before training). When one comes within
`preflight_margin` of gold, the policy could earn as much as learning the task, so the run
is refused (`preflight: refuse`, the default), or only warned about (`preflight: warn`).
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from rlvr.config import TrainConfig
from rlvr.config.checks import reward_entries
from rlvr.errors import ConfigError, RlvrError
from rlvr.rewards.length import GUARDS

logger = logging.getLogger(__name__)


def _check_guard(entry: dict[str, Any], row: dict[str, Any]) -> None:
    """Score one short answer with a length/repetition guard, so bad parameters fail now.

    Guards (`rlvr.rewards.length.GUARDS`) are not compared with degenerate policies: a
    penalty gives every short answer the same 0, gold included.

    Raises:
        ConfigError: the guard's parameters are refused.
    """
    from rlvr.rewards import get_reward

    spec = get_reward(entry["name"])
    row = {**row, "num_tokens": 1, "completion_ids": [0], "correct": True}
    try:
        spec.score_batch(["x"], [row], spec.params(entry.get("preset"),
                                                   **(entry.get("params") or {})))
    except RlvrError as exc:
        raise ConfigError(f"reward {entry['name']!r}: {exc}") from None
    logger.info("preflight: %s is a guard; its parameters are valid", entry["name"])


def _check_judge(entry: dict[str, Any]) -> bool:
    """For a reward scored by a model or an endpoint (a `reward_model` entry, `llm_judge`,
    `decision: judge`): check what can be checked without loading or asking it (a reward
    model's folder, or its hub id cached or reachable) and return True, so the degenerate
    policies are not sent to it before training (`rlvr score --preflight` does that);
    False for every other reward.

    Raises:
        ConfigError: the reward model cannot load.
    """
    if "reward_model" in entry:
        from rlvr.models.reward import check_reward_model

        try:
            check_reward_model(entry["reward_model"], hub=True)
        except RlvrError as exc:
            raise ConfigError(f"reward {entry['name']!r}: {exc}") from None
    elif entry["name"] != "llm_judge" and (entry.get("params") or {}).get("decision") != "judge":
        return False
    logger.info("preflight: %s is scored by a model or judge; its settings are valid (score "
                "the degenerate policies with `rlvr score --preflight`)", entry["name"])
    return True


# how to give the training rows a field a reward reads (`check_reward_fields`)
FIELD_FIXES = {
    "final_answer": "train on GSM8K rows (question + answer ending in '#### N'; data: gsm8k or "
                    "data_format: gsm8k) or add \"final_answer\" to every row",
    "solution": "train on MATH rows (problem + solution; data_format: math) or add "
                "\"solution\" to every row",
    "aliases|answer": "train on QA rows (question + answer or aliases; data_format: qa) or add "
                      "\"answer\" or \"aliases\" to every row",
    "test|test_list": "train on MBPP rows (text + test_list) or HumanEval rows (prompt + test + "
                      "entry_point), or add \"test_list\" to every row",
    "correct": "set params.base to the reward that decides correctness (e.g. base: math) or "
               "add \"correct\" to every row",
}
TRL_COLUMNS = ("prompt", "completion_ids")  # what TRL gives every reward besides the data


def check_reward_fields(cfg: TrainConfig, columns: dict[str, list]) -> None:
    """Refuse rewards whose required fields the training columns do not have, before any
    model loads (without this, TRL's first step fails in the reward function).

    Args:
        columns: `rlvr.train.data_prep.training_columns` of the training rows.
    Raises:
        ConfigError: one line naming the reward, the missing field(s), the columns the
            rows have and the fix (`FIELD_FIXES`).
    """
    from rlvr.rewards import get_reward

    available = set(columns) | set(TRL_COLUMNS)
    for entry in reward_entries(cfg):
        name = entry["name"]
        missing = get_reward(name).missing_fields(available)
        base = (entry.get("params") or {}).get("base")
        if name == "cosine_scaled":
            missing = (get_reward(base).missing_fields(available) if isinstance(base, str)
                       else [] if "correct" in available else ["correct"])
        if missing:
            fixes = "; ".join(FIELD_FIXES.get(m, f"add \"{m}\" to every row") for m in missing)
            data = cfg.data or "the built-in dataset"
            raise ConfigError(
                f"reward {name!r} reads field(s) {', '.join(missing)}, which the training rows "
                f"of {data} do not have (they have {', '.join(sorted(columns))}); {fixes}")


def _preflight_rows(train: Sequence[dict[str, Any]],
                    columns: dict[str, list]) -> list[dict[str, Any]]:
    """The rows as TRL's reward functions see them (the training columns), plus the
    question and the row's other fields for the gold policy (a reference program)."""
    return [{**(ex.get("fields") or {}), **{k: v[i] for k, v in columns.items()},
             "question": ex["question"]} for i, ex in enumerate(train)]


# policies that only mean something to a calibration reward: for a task reward, hedging
# with the right answer ("I'm not sure, but ... #### 72") is a right answer
CALIBRATION_ONLY = ("always_hedge",)
PREFLIGHT_SANDBOX_ROWS = 32  # `code` runs every policy's program: a seeded sample of rows


def reward_preflight(cfg: TrainConfig, train: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the preflight of every training reward on the training rows.

    Args:
        cfg: the run's config (`preflight`, `preflight_margin` and the rewards).
        train: parsed training examples (`question`, `expected_answer`, `is_unanswerable`,
            optionally `answers`); each is scored against its `gold_answers` list.
    Returns:
        one dict per reward: `reward`, `preset`, `table` (the printed preflight table),
        `policies` ({policy: mean}) and `warnings`.
    The training columns are checked first (`check_reward_fields`, also with
    `preflight: off`). Task rewards (not `CALIBRATION_REWARDS`) skip `always_hedge`; the
    `code` reward is checked on a seeded sample of `PREFLIGHT_SANDBOX_ROWS` rows.
    Raises:
        ConfigError: a reward reads a field the rows lack; with `preflight: refuse`, when
            a degenerate policy comes within the margin of gold (the message has the table
            and both fixes), or when a reward cannot score the training rows.
    """
    from rlvr.config.checks import CALIBRATION_REWARDS
    from rlvr.rewards.preflight import POLICIES, format_preflight, preflight
    from rlvr.train.data_prep import training_columns

    if not train:
        return []
    columns = training_columns(list(train), cfg.train_answerable == "label",
                               reward_entries(cfg))
    check_reward_fields(cfg, columns)
    if cfg.preflight == "off":
        return []
    # the rows as training scores them: every accepted answer, not only the assistant text
    rows = _preflight_rows(train, columns)
    results = []
    for entry in reward_entries(cfg):
        if entry["name"] in GUARDS:
            _check_guard(entry, rows[0])
            continue
        if _check_judge(entry):
            continue
        policies = POLICIES if entry["name"] in CALIBRATION_REWARDS else tuple(
            p for p in POLICIES if p not in CALIBRATION_ONLY)
        scored = rows
        if entry["name"] == "code" and len(rows) > PREFLIGHT_SANDBOX_ROWS:
            import random

            scored = random.Random(cfg.seed).sample(rows, PREFLIGHT_SANDBOX_ROWS)
        try:
            report = preflight(entry["name"], [dict(r) for r in scored], entry.get("preset"),
                               policies=policies, margin=cfg.preflight_margin,
                               **(entry.get("params") or {}))
        except RlvrError as exc:
            raise ConfigError(f"preflight of reward {entry['name']!r} on the training rows: "
                              f"{exc}") from None
        table = format_preflight(report)
        warnings = report.warnings()
        results.append({"reward": entry["name"], "preset": entry.get("preset"), "table": table,
                        "policies": {p.policy: p.mean for p in report.policies},
                        "warnings": warnings})
        logger.info("%s", table)
        if warnings and cfg.preflight == "refuse":
            # one line: the table is logged (INFO) above; `rlvr score --preflight` prints it
            strict = ("preset: strict in its reward_funcs entry" if cfg.reward_funcs
                      else "reward_preset: strict")
            raise ConfigError(
                f"preflight refused the run: on the {len(scored)} training rows with reward "
                f"{entry['name']!r} (preset {entry.get('preset') or 'default'}), "
                f"{'; '.join(warnings)}, so training may learn that instead of the task; "
                "choose a reward without this loophole (for the calibration reward: "
                f"{strict}), or set preflight: warn to train anyway")
        for warning in warnings + report.partial():
            logger.warning("preflight: %s", warning)
        results[-1]["partial"] = report.partial()
    return results


def check_before_model(cfg: TrainConfig) -> None:
    """Every check of `rlvr train` that reads files but needs no model, run before torch,
    transformers or TRL are imported, so a bad path or data file fails within a second:

    - the run directory can be created and written (`check_output_dir`);
    - a `model` path exists and is a Hugging Face model folder, or the default model is
      converted or installed (nothing is converted, hub ids are not looked up);
    - CUDA-only options (`rlvr.hardware.check_options`), only when one is set: the probe
      imports torch;
    - the data resolves (`prepare_data`: the path, split files, every row, exemplars, no
      held-out question among the training ones) and the reward preflight accepts the
      training rows (`reward_preflight`, which first checks that the rows carry every
      field the rewards read); with `kshot_eval`, the GSM8K rows and exemplars resolve and
      no test question is a training question (`rlvr.eval.task_run.check_kshot_data`);
    - `eval_data_dir` is a folder and every `eval_tasks` entry can get data without
      `--task-path` (`_check_eval_task_files`).

    `rlvr.train.job.run` prepares the data and runs the preflight again, with logging;
    here logging is silenced so each is logged once (the repeat takes well under a second
    on the shipped configs).

    Raises:
        RlvrError subclasses, each one line naming the setting or file and the fix.
    """
    from rlvr.models import check_model_path
    from rlvr.io import check_output_dir
    from rlvr.train.data_prep import prepare_data
    from rlvr.eval.settings import RunEvaluation
    from rlvr.eval.task_run import check_kshot_data

    check_output_dir(cfg.output_dir)
    check_model_path(cfg.model)
    if cfg.trained_model is not None:
        from rlvr.train.checkpoint_model import check_checkpoint

        check_checkpoint(cfg.trained_model)
    if (getattr(cfg, "quantization", "none") != "none" or getattr(cfg, "use_vllm", False)
            or cfg.bf16 or getattr(cfg, "attn_implementation", "auto") == "flash_attention_2"):
        from rlvr.hardware import check_options

        check_options(cfg)
    previous = logging.root.manager.disable
    logging.disable(logging.WARNING)
    try:
        _, train, heldout = prepare_data(cfg)
        reward_preflight(cfg, train)
        check_kshot_data(RunEvaluation.from_run(cfg).kshot, train, heldout)
    finally:
        logging.disable(previous)
    _check_eval_task_files(cfg)


def _check_eval_task_files(cfg: TrainConfig) -> None:
    """Refuse `eval_tasks` settings the cross-task evaluation after training could only
    find out then: an `eval_data_dir` that is not a folder (a typo), and a task without a
    data file of its own (exploretom needs `--task-path`, which `rlvr train` cannot pass).
    Tasks whose file is simply absent are not refused: `rlvr.eval.runner` falls back to
    other sources (`rlvr.tasks.sources`) or skips them with the reason in the report."""
    from pathlib import Path

    from rlvr.tasks.registry import get_task

    data_dir = cfg.eval_data_dir
    if data_dir is not None and cfg.eval_tasks and not Path(data_dir).expanduser().is_dir():
        raise ConfigError(f"eval_data_dir {data_dir} is not a folder; set it to the folder "
                          "holding the task files (gsm8k/test.jsonl, ...; see docs/eval_data.md), or "
                          "remove it to use the Hugging Face Hub or the packaged subsets")
    if getattr(cfg, "eval_engine", "auto") == "vllm":
        from rlvr.eval.vllm_engine import vllm_missing

        missing = vllm_missing()
        if missing:
            raise ConfigError(f"eval_engine: vllm: {missing}")
    for name in cfg.eval_tasks or []:
        if name != "selfaware" and get_task(name).data_file is None:
            raise ConfigError(f"eval_tasks: {name} has no bundled data file and rlvr train "
                              f"cannot pass one; remove it and run `rlvr eval --task-path "
                              f"{name}=FILE` after training")
