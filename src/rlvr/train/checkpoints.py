"""Checkpoints you can resume from: complete-only, on a step or time interval, on Ctrl-C.

A run saves a checkpoint (LoRA weights, optimizer, scheduler, RNG states, trainer state with
the data position; TRL's `Trainer._save_checkpoint`) every `save_steps` optimizer steps or
every `save_minutes` minutes of training, whichever comes first, keeping the newest
`save_total_limit`. transformers writes a checkpoint's files one by one into
`checkpoints/checkpoint-<step>/`, so a run killed while saving leaves a half-written folder.
rlvr therefore writes `rlvr_complete.json` into the folder (atomically) only after
transformers has written every file and called `on_save`; `--resume` takes the newest
checkpoint with that marker and removes the folders without it.

Ctrl-C (SIGINT) or SIGTERM during training asks for a stop: the step in progress finishes,
a checkpoint and the adapter are saved, and `rlvr train` exits with code 130 telling how
to resume. A second Ctrl-C aborts at once.

Before training, `rlvr.io.check_output_dir` refuses a run directory that cannot be written and
`check_disk_space` one whose disk cannot hold the checkpoints (estimated from the LoRA
shapes), so neither is found out at the first save.
"""

from __future__ import annotations

import logging
import shutil
import signal
import time
from datetime import datetime, timezone
from pathlib import Path

from rlvr.errors import ConfigError

logger = logging.getLogger(__name__)

COMPLETE_MARKER = "rlvr_complete.json"


def _step(path: Path) -> int:
    try:
        return int(path.name.rsplit("-", 1)[-1])
    except ValueError:
        return -1


def complete_checkpoints(directory: str | Path) -> list[Path]:
    """The `checkpoint-<step>` folders that carry the completion marker, oldest step first."""
    found = [p for p in Path(directory).glob("checkpoint-*")
             if _step(p) >= 0 and (p / COMPLETE_MARKER).is_file()]
    return sorted(found, key=_step)


def last_checkpoint(directory: str | Path) -> str | None:
    """The newest complete checkpoint folder, or None."""
    found = complete_checkpoints(directory)
    return str(found[-1]) if found else None


def remove_incomplete(directory: str | Path) -> list[Path]:
    """Delete `checkpoint-*` folders without the completion marker (a save cut off by a
    crash); return what was removed."""
    removed = []
    for path in Path(directory).glob("checkpoint-*"):
        if path.is_dir() and _step(path) >= 0 and not (path / COMPLETE_MARKER).is_file():
            logger.warning("removing %s: a checkpoint cut off while saving (no %s)", path,
                           COMPLETE_MARKER)
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def lora_parameter_count(model, target_modules, r: int) -> int:
    """Trainable LoRA parameters: sum of r x (in + out) over the Linear layers PEFT would
    wrap (`target_modules` a list of module-name suffixes, or "all-linear": every Linear
    except the output head). Used only to size the disk check."""
    import torch

    count = 0
    output = model.get_output_embeddings() if hasattr(model, "get_output_embeddings") else None
    for name, module in model.named_modules():
        if not isinstance(module, torch.nn.Linear) or module is output:
            continue
        if target_modules == "all-linear" or name.rsplit(".", 1)[-1] in set(target_modules):
            count += r * (module.in_features + module.out_features)
    return count


def checkpoint_bytes(lora_params: int, tokenizer_bytes: int) -> int:
    """Estimated size of one checkpoint: fp32 LoRA weights (4 bytes) plus the two Adam
    moments (8 bytes) per parameter, the tokenizer files, and 1 MB of states.
    E.g. 1,843,200 parameters and 3.5 MB of tokenizer: 12 x 1,843,200 + 3.5 MB + 1 MB
    = 26.6 MB."""
    return 12 * lora_params + tokenizer_bytes + 1_000_000


def check_disk_space(run_dir: str | Path, needed_bytes: int) -> None:
    """Raise ConfigError when the disk of `run_dir` has less than `needed_bytes` free."""
    free = shutil.disk_usage(run_dir).free
    if free < needed_bytes:
        raise ConfigError(
            f"not enough disk space in {str(run_dir)!r}: {free / 1e6:.0f} MB free, the "
            f"checkpoints and adapter need about {needed_bytes / 1e6:.0f} MB; free space, "
            "choose another --output-dir or lower save_total_limit")


class StopRequest:
    """Turns the first SIGINT/SIGTERM during training into a clean-stop request.

    Use as a context manager around `trainer.train()`; `requested` is True once a signal
    arrived. A second SIGINT raises KeyboardInterrupt (abort). Outside the main thread
    (where Python cannot install handlers) it does nothing.
    """

    def __init__(self) -> None:
        self.requested = False
        self._previous: dict[int, object] = {}

    def _handle(self, signum, frame) -> None:
        if self.requested and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.requested = True
        logger.warning("%s: stopping after this step with a checkpoint and the adapter saved "
                       "(Ctrl-C again aborts at once)", signal.Signals(signum).name)

    def __enter__(self) -> "StopRequest":
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                self._previous[signum] = signal.signal(signum, self._handle)
            except ValueError:  # not the main thread
                pass
        return self

    def __exit__(self, *exc) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)


def make_checkpoint_callback(save_minutes: float | None, stop: StopRequest | None = None):
    """A `transformers.TrainerCallback` that (1) writes the completion marker after every
    save, (2) asks for a save when `save_minutes` have passed since the last one, and
    (3) saves and stops when `stop.requested`."""
    from transformers import TrainerCallback

    from rlvr.io import write_json

    class CheckpointCallback(TrainerCallback):
        """Completion marker, time-based saves and the clean stop (see the module)."""

        def __init__(self) -> None:
            self.last_save = time.monotonic()

        def on_step_end(self, args, state, control, **kwargs):
            if save_minutes and time.monotonic() - self.last_save >= 60 * save_minutes:
                control.should_save = True
            if stop is not None and stop.requested:
                control.should_save = True
                control.should_training_stop = True
            return control

        def on_save(self, args, state, control, **kwargs):
            self.last_save = time.monotonic()
            folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            if state.is_world_process_zero and folder.is_dir():
                write_json(folder / COMPLETE_MARKER, {
                    "step": state.global_step,
                    "utc": datetime.now(timezone.utc).isoformat(timespec="seconds")})
            return control

    return CheckpointCallback()
