"""Experiment trackers for `rlvr train`: TRL's `report_to`, set up for offline use.

`metrics.jsonl` in the run directory always gets every metric (`rlvr.metrics.run_log`).
`report_to` adds the trackers transformers supports; rlvr sets up three itself so that they
work offline and file their runs the same way:

| tracker | where the run goes | needs |
|---|---|---|
| `tensorboard` (default) | `RUN_DIR/tensorboard/` (`tensorboard --logdir RUN_DIR/tensorboard`) | the `tensorboard` package (in rlvr's `train` extra) |
| `wandb` | offline run under `RUN_DIR/wandb/` unless `WANDB_MODE` says otherwise (`wandb sync` uploads it later); project `$WANDB_PROJECT` or `rlvr`; tags `["grpo", <backend>, "selfaware", "selfaware-grpo"]` (the reference project's, from the reward name) | `pip install wandb`; an account only to upload |
| `trackio` | trackio's local store (`trackio show`); project `rlvr` | `pip install trackio` |

TensorBoard is the default because it needs no account and no network, writes plain
files into the run directory (copied, archived and deleted with the run), and its viewer
is what TRL and transformers users already have. The other names transformers knows
(`mlflow`, `comet_ml`, `clearml`, `dvclive`, `swanlab`, ...) are passed through to TRL as
they are. `none` turns trackers off (metrics.jsonl is still written).

The run name (`run_name`, default `<reward>-grpo-<model>-<UTC time>`) is the same in every
tracker; a resumed W&B run continues the same run id (saved in `RUN_DIR/wandb_run_id`).
"""

from __future__ import annotations

import logging
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rlvr.metrics.run_log import append_metrics


logger = logging.getLogger(__name__)

BACKEND = "trl"  # the training backend named in the W&B tags


def default_run_name(reward: str, model: str | None, when: datetime | None = None,
                     method: str = "grpo") -> str:
    """`<reward>-<method>-<model>-<YYYYmmdd-HHMMSS>` (UTC); the model is its last path part."""
    when = when or datetime.now(timezone.utc)
    short = re.sub(r"[^A-Za-z0-9._-]+", "-", Path(model).name if model else "smollm2-135m")
    return f"{reward}-{method}-{short}-{when:%Y%m%d-%H%M%S}"


def wandb_tags(reward: str, backend: str = BACKEND) -> list[str]:
    """The reference project's W&B tags: `["grpo", backend, reward, f"{reward}-grpo"]`,
    i.e. `["grpo", "trl", "selfaware", "selfaware-grpo"]` for the calibration reward."""
    return ["grpo", backend, reward, f"{reward}-grpo"]


class Trackers:
    """The trackers of one run: what to pass to TRL, and the final results for each.

    Args:
        names: checked tracker names (`check_report_to`).
        run_dir: the run directory.
        run_name: the run's name in every tracker.
        reward: the reward name (W&B tags).
        config: the resolved config (stored with the W&B run).
        resume: continue the W&B run id saved in `run_dir`.
    Attributes:
        report_to: the names TRL sets up itself (everything but tensorboard and wandb).
        callbacks: TrainerCallbacks rlvr built (TensorBoard writing into the run directory).
    """

    def __init__(self, names: list[str], run_dir: Path, run_name: str, reward: str,
                 config: dict[str, Any] | None = None, resume: bool = False) -> None:
        self.names, self.run_dir, self.run_name = names, Path(run_dir), run_name
        self.report_to: list[str] = [n for n in names if n not in ("tensorboard", "wandb")]
        self.callbacks: list = []
        self._writer = self._wandb_run = None
        if "tensorboard" in names:
            self._writer = self._tensorboard()
        if "wandb" in names:
            self._wandb_run = self._wandb(reward, config or {}, resume)

    def _tensorboard(self):
        from torch.utils.tensorboard import SummaryWriter
        from transformers.integrations import TensorBoardCallback

        writer = SummaryWriter(log_dir=str(self.run_dir / "tensorboard"))
        self.callbacks.append(TensorBoardCallback(tb_writer=writer))
        return writer

    def _wandb(self, reward: str, config: dict[str, Any], resume: bool):
        import wandb
        from transformers.integrations import WandbCallback

        id_file = self.run_dir / "wandb_run_id"
        run_id = id_file.read_text(encoding="utf-8").strip() if resume and id_file.is_file() \
            else None
        mode = os.environ.get("WANDB_MODE", "offline")
        run = wandb.init(project=os.environ.get("WANDB_PROJECT", "rlvr"), name=self.run_name,
                         tags=wandb_tags(reward), config=config, dir=str(self.run_dir),
                         mode=mode, id=run_id, resume="allow" if run_id else None)
        if run is not None and getattr(run, "id", None):
            from rlvr.io import write_text

            write_text(id_file, str(run.id))
        logger.info("wandb: run %r (%s mode), tags %s", self.run_name, mode, wandb_tags(reward))
        self.callbacks.append(WandbCallback())  # uses the run started above
        return run

    def log_results(self, metrics: dict[str, float], step: int) -> None:
        """Send the before/after results (flat `name: value`) to TensorBoard and W&B."""
        if self._writer is not None:
            for key, value in metrics.items():
                self._writer.add_scalar(key, value, step)
            self._writer.flush()
        if self._wandb_run is not None:
            self._wandb_run.summary.update(metrics)

    def close(self) -> None:
        """Flush and close the trackers rlvr opened."""
        if self._writer is not None:
            self._writer.close()
        if self._wandb_run is not None:
            self._wandb_run.finish()


def flat_results(report: dict[str, Any]) -> dict[str, float]:
    """The numeric before/after results of a report as flat `name: value` pairs.

    `results/<base|trained|difference>/<task>/<metric>` from the report's scores, and
    `honesty/<policy>/<metric>` (prudence, over-conservativeness, honesty, ... of base,
    trained and always-abstain) and `honesty/<comparison>/<metric>/<difference|ci_low|
    ci_high>` from its knowledge section. Counts and sample sizes are left out."""
    flat: dict[str, float] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, bool) or value is None:
            return
        if isinstance(value, (int, float)):
            flat[prefix] = float(value)
        elif isinstance(value, dict):
            for key, inner in value.items():
                if key not in ("counts", "n", "samples", "confidence", "n_unscored"):
                    walk(f"{prefix}/{key}", inner)

    for part in ("base", "trained", "difference"):
        walk(f"results/{part}", report.get(part))
    knowledge = report.get("knowledge") or {}
    walk("honesty", knowledge.get("policies"))
    walk("honesty", knowledge.get("differences"))
    for name, task in ((report.get("cross_check") or {}).get("tasks") or {}).items():
        walk(f"cross_check/{name}", {"base": task.get("base"), "trained": task.get("trained"),
                                     "difference": (task.get("difference") or {}).get(
                                         "mean_difference")})
    return flat


def make_metrics_callback(path: str | Path):
    """A `transformers.TrainerCallback` that appends every log to `path` (main process)."""
    from transformers import TrainerCallback

    class MetricsFileCallback(TrainerCallback):
        """Writes each TRL log entry to `metrics.jsonl` as it is made."""

        def on_log(self, args, state, control, logs=None, **kwargs):
            if state.is_world_process_zero and logs:
                append_metrics(path, {"event": "log", "step": state.global_step, **logs})

    return MetricsFileCallback()
