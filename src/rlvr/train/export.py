"""`rlvr export`: a run's LoRA adapter merged into its base model, saved as a plain
transformers model folder that `AutoModelForCausalLM` / `AutoTokenizer` load without PEFT.

    rlvr export RUN_DIR --merge OUT_DIR [--dtype float32|bfloat16|float16] [--force]
    rlvr export --adapter DIR [--model SPEC] --merge OUT_DIR

Two steps, so that a bad path fails in a second and not after a model load:
`plan_export` checks everything without torch (run folder, adapter files, base model path,
OUT_DIR, free disk) and `export_merged` loads the base model in float32, applies the adapter,
merges it (PEFT `merge_and_unload`, W' = W + (alpha / r) B A per wrapped Linear), casts to
the chosen dtype and writes the weights (safetensors), config, generation config, tokenizer,
chat template and `rlvr_export.json` into a temporary sibling folder that is then renamed
to OUT_DIR (`rlvr.io.write_folder`): an interrupted export never leaves a half model there.
"""

from __future__ import annotations

import hashlib
import logging
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from rlvr.errors import ModelNotFoundError, RlvrError
from rlvr.io import write_folder, write_json
from rlvr.models import DEFAULT_MODEL, DEFAULT_MODEL_ALIASES, check_model_path, \
    default_model_dir, resolve_model

logger = logging.getLogger(__name__)

DTYPES = ("float32", "bfloat16", "float16")
EXPORT_INFO = "rlvr_export.json"
ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"
RUN_CONFIG = "resolved_config.yaml"
# SmolLM2-135M-Instruct in float32 (134.5M parameters x 4 bytes), for the disk check
# before the default model has been converted
DEFAULT_MODEL_BYTES = 538_000_000
DISK_FACTOR = 2  # free space asked for: 2x the base model's weights


@dataclass(frozen=True)
class ExportPlan:
    """What `export_merged` will do, every path already checked by `plan_export`.

    Attributes:
        adapter: the PEFT adapter folder (holds adapter_config.json and
            adapter_model.safetensors).
        model: the base model spec (None = the default model), as `rlvr.models.resolve_model`
            takes it.
        out_dir: the folder the merged model goes to.
        dtype: "float32", "bfloat16" or "float16".
        run_dir: the `rlvr train` run the adapter belongs to, or None.
        needed_bytes: free disk space asked for (None: a hub model of unknown size).
    """

    adapter: Path
    model: str | None
    out_dir: Path
    dtype: str
    run_dir: Path | None
    needed_bytes: int | None


def plan_export(run_dir: str | None, out_dir: str, *, adapter: str | None = None,
                model: str | None = None, dtype: str = "float32",
                force: bool = False) -> ExportPlan:
    """Check an export without loading a model or importing torch.

    Args:
        run_dir: an `rlvr train` run folder (adapter in RUN_DIR/adapter, base model named by
            `model` in RUN_DIR/resolved_config.yaml, None meaning the default model); or
            None when `adapter` is given.
        out_dir: where the merged model goes.
        adapter: a PEFT adapter folder, instead of `run_dir`; its base model is `model`,
            else the run the adapter sits in (RUN/adapter or RUN/checkpoints/checkpoint-N),
            else the default model.
        model: base model spec; overrides the run's.
        dtype: the saved weights' dtype, one of `DTYPES`.
        force: replace an existing non-empty OUT_DIR (only a model folder, never one that
            holds the adapter or the base model).
    Returns:
        An `ExportPlan`.
    Raises:
        RlvrError: one line naming the path and the fix: both or neither of run_dir and
            adapter, an unknown dtype, a missing run folder / resolved_config.yaml /
            adapter folder / adapter_config.json / adapter_model.safetensors, an OUT_DIR
            that is a file, non-empty without `force`, not a model folder or holding the
            inputs, not writable, or a disk with less than 2x the base model's weights free.
        ModelNotFoundError: the base model path does not resolve (`check_model_path`).
    """
    if (run_dir is None) == (adapter is None):
        raise RlvrError("pass a run folder (rlvr export RUN_DIR --merge OUT_DIR) or an adapter "
                        "(--adapter DIR [--model SPEC]), not both and not neither")
    if dtype not in DTYPES:
        raise RlvrError(f"--dtype {dtype!r} is not one of {', '.join(DTYPES)}")
    if not str(out_dir).strip():
        raise RlvrError("--merge OUT_DIR is empty; pass a folder, e.g. --merge merged")
    if run_dir is not None:
        run = Path(run_dir).expanduser()
        _check_run(run)
        adapter_dir = run / "adapter"
        if not adapter_dir.is_dir():
            raise RlvrError(f"{adapter_dir} is missing: the run has not saved its adapter yet; "
                            "finish it (rlvr train ... --resume), or export a checkpoint with "
                            "--adapter RUN/checkpoints/checkpoint-N")
    else:
        adapter_dir = Path(adapter).expanduser()
        run = _run_of(adapter_dir)
    _check_adapter(adapter_dir)
    from_run = model is None and run is not None
    spec = _run_model(run) if from_run else model
    try:
        check_model_path(spec)
    except ModelNotFoundError as exc:
        if from_run:
            raise ModelNotFoundError(f"the run's base model ({run / RUN_CONFIG}: model: {spec}): "
                                     f"{exc}; or pass the base model with --model") from None
        raise
    out = Path(out_dir).expanduser()
    _check_out_dir(out, force, [adapter_dir, run, _local_model(spec)])
    needed = _weights_bytes(spec)
    needed = None if needed is None else DISK_FACTOR * needed
    _check_writable(out, needed)
    return ExportPlan(adapter=adapter_dir, model=spec, out_dir=out, dtype=dtype, run_dir=run,
                      needed_bytes=needed)


def export_merged(plan: ExportPlan) -> dict:
    """Merge the adapter into the base model and write OUT_DIR atomically.

    The base model is loaded in float32 on the CPU, wrapped by the adapter
    (`rlvr.models.apply_adapter`, PEFT `PeftModel.from_pretrained`) and merged with PEFT
    `merge_and_unload(safe_merge=True)` (each LoRA Linear becomes W + (alpha / r) B A; a NaN
    in the merged weights is refused), then cast to `plan.dtype`. The tokenizer (with its
    chat template) is the one the run saved with its adapter, else the base model's; the
    generation config is the base model's.

    Args:
        plan: from `plan_export`.
    Returns:
        The dict written to OUT_DIR/rlvr_export.json: source_run, adapter,
        adapter_sha256 (of adapter_model.safetensors), base_model, base_model_path, dtype,
        tokenizer_from, rlvr_version, peft_version, merge.
    Raises:
        RlvrError: the adapter does not fit the base model, or its merged weights hold NaN.
        OSError: writing failed (OUT_DIR is left as it was; the temporary folder is removed).
    """
    import peft
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr import __version__
    from rlvr.models import apply_adapter

    path = resolve_model(plan.model)  # converts the default model once
    base = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32)
    try:
        wrapped = apply_adapter(base, str(plan.adapter))
    except (RuntimeError, ValueError, KeyError) as exc:
        raise RlvrError(f"adapter {plan.adapter} does not fit the base model {path} "
                        f"({_first_line(exc)}); pass the model it was trained on with --model"
                        ) from None
    try:
        merged = wrapped.merge_and_unload(safe_merge=True)
    except ValueError as exc:
        raise RlvrError(f"adapter {plan.adapter} cannot be merged ({_first_line(exc)}); "
                        "export an earlier checkpoint with --adapter") from None
    merged = merged.to(getattr(torch, plan.dtype))
    has_tokenizer = (plan.adapter / "tokenizer_config.json").is_file()
    tokenizer_from = str(plan.adapter) if has_tokenizer else path
    tokenizer = AutoTokenizer.from_pretrained(tokenizer_from)
    info = {
        "source_run": str(plan.run_dir.resolve()) if plan.run_dir else None,
        "adapter": str(plan.adapter.resolve()),
        "adapter_sha256": sha256_file(plan.adapter / ADAPTER_WEIGHTS),
        "base_model": plan.model or DEFAULT_MODEL,
        "base_model_path": path,
        "dtype": plan.dtype,
        "tokenizer_from": tokenizer_from,
        "rlvr_version": __version__,
        "peft_version": peft.__version__,
        "merge": "peft merge_and_unload(safe_merge=True), in float32",
    }

    def fill(tmp: Path) -> None:
        merged.save_pretrained(tmp)  # safetensors, config.json, generation_config.json
        tokenizer.save_pretrained(tmp)  # tokenizer files and chat_template.jinja
        write_json(tmp / EXPORT_INFO, info)

    write_folder(plan.out_dir, fill)
    logger.info("merged %s into %s (%s) -> %s", plan.adapter, path, plan.dtype, plan.out_dir)
    return info


def sha256_file(path: str | Path) -> str:
    """SHA-256 hex digest of a file, read in 1 MB blocks.

    Raises:
        OSError: the file cannot be read.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _first_line(exc: BaseException) -> str:
    """The error's first line (with the next one when the first only announces a list, as
    torch's "Error(s) in loading state_dict for ...:"), at most 300 characters."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    if not lines:
        return type(exc).__name__
    text = " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]
    return text[:300]


def _check_run(run: Path) -> None:
    if not run.exists():
        raise RlvrError(f"run folder {run} does not exist; pass the --output-dir of an "
                        "`rlvr train` run")
    if not run.is_dir():
        raise RlvrError(f"{run} is a file, not a run folder; pass the --output-dir of an "
                        "`rlvr train` run")
    if not (run / RUN_CONFIG).is_file():
        raise RlvrError(f"{run} has no {RUN_CONFIG}, so it is not an `rlvr train` run folder; "
                        "pass one, or name the adapter and its base: --adapter DIR --model SPEC")


def _run_of(adapter: Path) -> Path | None:
    """The run folder an adapter sits in: RUN/adapter or RUN/checkpoints/checkpoint-N."""
    for folder in (adapter.parent, adapter.parent.parent):
        if (folder / RUN_CONFIG).is_file():
            return folder
    return None


def _run_model(run: Path) -> str | None:
    import yaml

    try:
        cfg = yaml.safe_load((run / RUN_CONFIG).read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise RlvrError(f"{run / RUN_CONFIG} cannot be read ({_first_line(exc)}); pass the "
                        "base model with --model") from None
    model = cfg.get("model") if isinstance(cfg, dict) else None
    return None if model is None else str(model)


def _check_adapter(adapter: Path) -> None:
    if not adapter.is_dir():
        raise RlvrError(f"adapter folder {adapter} does not exist; pass the folder a training "
                        "run wrote (RUN_DIR/adapter)")
    if not (adapter / ADAPTER_CONFIG).is_file():
        raise RlvrError(f"{adapter} has no {ADAPTER_CONFIG}, so it is not a PEFT adapter; pass "
                        "the folder a training run wrote (RUN_DIR/adapter)")
    if not (adapter / ADAPTER_WEIGHTS).is_file():
        raise RlvrError(f"{adapter} has no {ADAPTER_WEIGHTS} (the adapter's weights); pass a "
                        "complete adapter folder (RUN_DIR/adapter)")


def _local_model(spec: str | None) -> Path | None:
    """The local folder a model spec names (the default model's cache folder), else None."""
    if spec is None or spec in DEFAULT_MODEL_ALIASES:
        return default_model_dir()
    path = Path(spec).expanduser()
    return path if path.is_dir() else None


def _weights_bytes(spec: str | None) -> int | None:
    """Size of the base model's weight files; the default model's known size before its
    conversion; None for a hub id (not downloaded yet, size unknown)."""
    folder = _local_model(spec)
    if folder is None:
        return None
    sizes = [p.stat().st_size for p in folder.glob("*.safetensors")] or \
            [p.stat().st_size for p in folder.glob("*.bin")]
    if sizes:
        return sum(sizes)
    return DEFAULT_MODEL_BYTES if spec is None or spec in DEFAULT_MODEL_ALIASES else None


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


def _check_out_dir(out: Path, force: bool, inputs: list[Path | None]) -> None:
    if out.exists() and not out.is_dir():
        raise RlvrError(f"--merge {out} is a file; pass a folder path for the merged model")
    if not out.is_dir() or not any(out.iterdir()):
        return
    if not force:
        raise RlvrError(f"--merge {out} already exists and is not empty; pass --force to "
                        "replace it, or choose another OUT_DIR")
    for item in inputs:
        if item is not None and _inside(item, out):
            raise RlvrError(f"--merge {out} holds the export's own input {item}; --force would "
                            "delete it: choose another OUT_DIR")
    if not ((out / EXPORT_INFO).is_file() or (out / "config.json").is_file()):
        raise RlvrError(f"--merge {out} is not a model folder (no config.json or {EXPORT_INFO}); "
                        "--force replaces only an earlier export: choose another OUT_DIR")


def _check_writable(out: Path, needed: int | None) -> None:
    """OUT_DIR's nearest existing parent folder accepts a file and has `needed` bytes free
    (the temporary sibling folder is written there)."""
    parent = out.absolute().parent
    while not parent.exists():
        parent = parent.parent
    if not parent.is_dir():
        raise RlvrError(f"--merge {out}: {parent} is a file, not a folder; choose another "
                        "OUT_DIR")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".write-test."):
            pass
    except OSError as exc:
        raise RlvrError(f"--merge {out}: {parent} is not writable ({exc.strerror or exc}); "
                        "choose another OUT_DIR") from None
    free = shutil.disk_usage(parent).free
    if needed is not None and free < needed:
        raise RlvrError(f"not enough disk space in {parent}: {free / 1e6:.0f} MB free, the "
                        f"merged model needs about {needed / 1e6:.0f} MB (2x the base model's "
                        "weights); free space or choose another OUT_DIR")
