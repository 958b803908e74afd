"""Checks `rlvr train` runs on the training rows before any model loads.

`reward_preflight` scores the gold answers and the degenerate policies of
`rlvr.rewards.preflight` (always abstain, always hedge, list candidates, empty, repeat the
question, tags only) with every training reward (length and repetition guards only get
their parameters checked: a penalty scores every short answer alike). When one comes within
`preflight_margin` of gold, the policy could earn as much as learning the task, so the run
is refused (`preflight: refuse`, the default), or only warned about (`preflight: warn`).
"""

from __future__ import annotations

import logging
from typing import Any, Sequence

from rlvr.config import TrainConfig
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


def reward_entries(cfg: TrainConfig) -> list[dict[str, Any]]:
    """The config's rewards as `make_trl_rewards` entries (`reward_funcs`, else `reward`)."""
    return list(cfg.reward_funcs or [
        {"name": cfg.reward, "preset": cfg.reward_preset, "params": cfg.reward_params}])


def reward_preflight(cfg: TrainConfig, train: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Run the preflight of every training reward on the training rows.

    Args:
        cfg: the run's config (`preflight`, `preflight_margin` and the rewards).
        train: parsed training examples (`question`, `expected_answer`, `is_unanswerable`,
            optionally `answers`); each is scored against its `gold_answers` list.
    Returns:
        one dict per reward: `reward`, `preset`, `table` (the printed preflight table),
        `policies` ({policy: mean}) and `warnings`.
    Raises:
        ConfigError: with `preflight: refuse`, when a degenerate policy comes within the
            margin of gold (the message has the table and both fixes), or when a reward
            cannot score the training rows (a missing field).
    """
    from rlvr.rewards.preflight import format_preflight, preflight

    if cfg.preflight == "off" or not train:
        return []
    from rlvr.data.messages import gold_answers

    # the rows as training scores them: every accepted answer, not only the assistant text
    rows = [{**r, "expected_answer": gold_answers(r)} for r in train]
    results = []
    for entry in reward_entries(cfg):
        if entry["name"] in GUARDS:
            _check_guard(entry, rows[0])
            continue
        try:
            report = preflight(entry["name"], [dict(r) for r in rows], entry.get("preset"),
                               margin=cfg.preflight_margin, **(entry.get("params") or {}))
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
            raise ConfigError(
                "preflight refused the run: a degenerate policy scores about as well as the "
                f"gold answers on the training rows, so training may learn it instead of the "
                f"task.\n{table}\nFix: choose a reward without this loophole (for the "
                "calibration reward: reward_preset: strict), or set preflight: warn to train "
                "anyway.")
        for warning in warnings:
            logger.warning("preflight: %s", warning)
    return results
