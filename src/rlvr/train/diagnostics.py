"""Live calibration diagnostics and alarms during GRPO training.

Two parts, both on by default in `rlvr train` (config key `diagnostics`):

1. `CalibrationObserver` watches the calibration reward while TRL calls it (see the
   `observer` argument of `rlvr.rewards.make_trl_reward`), so nothing is scored twice. Per
   generation batch it computes `batch_diagnostics` and hands every value to TRL's
   `log_metric`, which averages them over the logging step and sends them wherever TRL's
   metrics go (console, `train_log.jsonl`, trackers) as `calibration/<name>`.
2. `AlarmMonitor` reads each logged step and raises alarms (thresholds from the config);
   `make_alarm_callback` wraps it in a `transformers.TrainerCallback` that writes the alarms
   into the step's log entry and, with `stop_on_alarm`, stops training cleanly (the run
   still saves the adapter and writes the report).

| alarm      | fires when                                                                  |
|------------|-----------------------------------------------------------------------------|
| collapse   | over_abstention > `alarm_over_abstention` for `alarm_patience` logged steps |
| hedging    | hedge_rate > `alarm_hedge_rate` for `alarm_patience` logged steps           |
| saturation | zero_std_group_share >= `alarm_zero_std` for `alarm_patience` logged steps  |
| length     | truncation_rate > `alarm_truncation` for `alarm_patience` logged steps      |

Standard library only, except `make_alarm_callback` (imports transformers).
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from rlvr.rewards.selfaware import ANSWERABLE_OUTCOMES, HEDGED_OUTCOMES, UNANSWERABLE_OUTCOMES

logger = logging.getLogger(__name__)

PREFIX = "calibration/"
# The confusion cells logged as counts (hedges of every kind are summed into `hedged`).
CONFUSION = {"answerable": ANSWERABLE_OUTCOMES, "unanswerable": UNANSWERABLE_OUTCOMES}


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def batch_diagnostics(outcomes: Sequence[str | None], scores: Sequence[float | None],
                      lengths: Sequence[int], truncated: Sequence[bool],
                      num_generations: int) -> dict[str, float]:
    """Calibration diagnostics of one generation batch.

    Args:
        outcomes: per completion, the `selfaware` outcome label (None if unscored).
        scores: per completion, the reward (None if unscored).
        lengths: per completion, generated tokens.
        truncated: per completion, True when it hit the token cap without an end token.
        num_generations: G; completions come prompt-major in groups of G, as TRL orders them.
    Returns:
        `n_<outcome>` counts for every outcome of `CONFUSION` plus `n_hedged`;
        `over_abstention` = abstained / answerable completions; `hedge_rate` = hedged /
        scored completions; `zero_std_group_share` = groups whose scores are all equal /
        groups; `zero_std_token_share` = tokens generated in those groups / all tokens;
        `completion_length` (mean tokens) and `truncation_rate`. Ratios with an empty
        denominator are left out.
    Raises:
        ValueError: the sequences differ in length, or their length is not a multiple of G.
    Source: rlvr; a zero-spread group gets advantage 0 in GRPO (Shao et al., 2024), so its
        tokens carry no learning signal (DAPO, Yu et al., 2025, Sec. 3.2).
    """
    n = len(outcomes)
    if not (len(scores) == len(lengths) == len(truncated) == n):
        raise ValueError("outcomes, scores, lengths and truncated must have the same length")
    if num_generations < 1 or n % num_generations:
        raise ValueError(f"{n} completions are not groups of num_generations={num_generations}")
    counts = Counter(o for o in outcomes if o is not None)
    out: dict[str, float] = {f"n_{o}": float(counts[o]) for cells in CONFUSION.values()
                             for o in cells}
    hedged = sum(counts[o] for o in HEDGED_OUTCOMES)
    out["n_hedged"] = float(hedged)
    answerable = sum(counts[o] for o in ANSWERABLE_OUTCOMES)
    scored = answerable + sum(counts[o] for o in UNANSWERABLE_OUTCOMES)
    ratios = {"over_abstention": _ratio(counts["abstained"], answerable),
              "hedge_rate": _ratio(hedged, scored)}
    groups = [range(i, i + num_generations) for i in range(0, n, num_generations)]
    flat = [g for g in groups
            if len({scores[i] for i in g if scores[i] is not None}) <= 1]
    total_tokens = sum(lengths)
    ratios["zero_std_group_share"] = _ratio(len(flat), len(groups))
    ratios["zero_std_token_share"] = _ratio(sum(lengths[i] for g in flat for i in g),
                                            total_tokens)
    ratios["completion_length"] = _ratio(total_tokens, n)
    ratios["truncation_rate"] = _ratio(sum(1 for t in truncated if t), n)
    out.update({k: v for k, v in ratios.items() if v is not None})
    return out


class CalibrationObserver:
    """Observer for `make_trl_reward(..., observer=...)`: logs `batch_diagnostics` per batch.

    Args:
        num_generations: G of the run.
        max_completion_length: the token cap (a completion this long without an end token
            counts as truncated).
        end_token_ids: token ids that end a completion (EOS, pad).
    Attributes:
        last: the diagnostics of the latest batch (for tests and the CLI).
    """

    def __init__(self, num_generations: int, max_completion_length: int,
                 end_token_ids: Sequence[int] = ()) -> None:
        self.num_generations = num_generations
        self.max_completion_length = max_completion_length
        self.end_token_ids = set(end_token_ids)
        self.last: dict[str, float] = {}

    def __call__(self, results: Sequence[Any], kwargs: dict[str, Any]) -> None:
        ids = kwargs.get("completion_ids") or [[] for _ in results]
        lengths = [len(x) for x in ids]
        truncated = [len(x) >= self.max_completion_length and (not x or x[-1] not in self.end_token_ids)
                     for x in ids]
        try:
            self.last = batch_diagnostics([r.outcome for r in results], [r.score for r in results],
                                          lengths, truncated, self.num_generations)
        except ValueError as exc:  # a batch TRL shaped differently: skip, never break training
            logger.warning("calibration diagnostics skipped for one batch: %s", exc)
            return
        log_metric: Callable[[str, float], None] | None = kwargs.get("log_metric")
        if log_metric is not None:
            for key, value in self.last.items():
                log_metric(PREFIX + key, value)


@dataclass
class AlarmSettings:
    """Alarm thresholds (see the module table); `patience` counts consecutive logged steps."""

    over_abstention: float = 0.9
    hedge_rate: float = 0.5
    zero_std: float = 0.95
    truncation: float = 0.9
    patience: int = 3
    stop_on_alarm: bool = False


ALARMS: dict[str, tuple[str, str, str]] = {
    # name: (logged metric, comparison, AlarmSettings field)
    "collapse": ("over_abstention", ">", "over_abstention"),
    "hedging": ("hedge_rate", ">", "hedge_rate"),
    "saturation": ("zero_std_group_share", ">=", "zero_std"),
    "length": ("truncation_rate", ">", "truncation"),
}


@dataclass
class AlarmMonitor:
    """Checks each logged step against `AlarmSettings` (pure; no trainer needed).

    `update(logs, step)` returns the alarms that fire at this step: an alarm fires once
    when its condition has held for `patience` consecutive logged steps that carry the
    metric, and again only after the condition was broken. Fired alarms collect in `fired`.
    """

    settings: AlarmSettings = field(default_factory=AlarmSettings)
    streak: Counter = field(default_factory=Counter)
    fired: list[dict[str, Any]] = field(default_factory=list)

    def update(self, logs: dict[str, Any], step: int) -> list[dict[str, Any]]:
        """Feed one step's logged metrics; return the alarms fired at this step."""
        new = []
        for name, (metric, op, setting) in ALARMS.items():
            value = logs.get(PREFIX + metric)
            if value is None:
                continue
            threshold = getattr(self.settings, setting)
            hit = value >= threshold if op == ">=" else value > threshold
            self.streak[name] = self.streak[name] + 1 if hit else 0
            if self.streak[name] == self.settings.patience:
                alarm = {"alarm": name, "step": step, "metric": PREFIX + metric,
                         "value": value, "threshold": threshold,
                         "message": f"{name} alarm at step {step}: {metric} = {value:.3f} "
                                    f"{op} {threshold:g} for {self.settings.patience} "
                                    "consecutive logged steps"}
                new.append(alarm)
        self.fired.extend(new)
        return new


def make_alarm_callback(monitor: AlarmMonitor):
    """A `transformers.TrainerCallback` that runs `monitor` on every log.

    Fired alarms are logged as warnings, stored under `alarms` in the step's entry of
    `state.log_history` (so `train_log.jsonl` keeps them), and with
    `monitor.settings.stop_on_alarm` set `control.should_training_stop`: the trainer ends
    after this step, and `rlvr train` goes on to save the adapter and write the report.
    """
    from transformers import TrainerCallback

    class CalibrationAlarmCallback(TrainerCallback):
        """Runs an `AlarmMonitor` on each log (see `make_alarm_callback`)."""

        def __init__(self) -> None:
            self.monitor = monitor

        def on_log(self, args, state, control, logs=None, **kwargs):
            alarms = self.monitor.update(logs or {}, state.global_step)
            for alarm in alarms:
                logger.warning(alarm["message"])
            if alarms:
                if state.log_history:
                    state.log_history[-1]["alarms"] = [a["alarm"] for a in alarms]
                if self.monitor.settings.stop_on_alarm:
                    logger.warning("stop_on_alarm: stopping training after step %d",
                                   state.global_step)
                    control.should_training_stop = True
            return control

    return CalibrationAlarmCallback()
