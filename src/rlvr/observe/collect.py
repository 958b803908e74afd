"""Collect real model responses for the observation report, recording failures honestly.

Each model gets the same raw prompt (no chat template), greedy decoding, 24 new tokens,
float32 and 2 CPU threads. Whatever goes wrong (torch missing, model missing, load or
generation error) is recorded as `collected: false` with the error and null outputs; no
output is ever filled in. torch and transformers are imported inside functions only.

A model spec is `MODEL` or `MODEL+ADAPTER_DIR`, where MODEL is `default` (the bundled
SmolLM2-135M-Instruct), a local model folder or a hub id.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import time
from pathlib import Path
from typing import Callable, Sequence

MAX_NEW_TOKENS = 24
NUM_THREADS = 2
DECODING = {"do_sample": False, "num_beams": 1, "max_new_tokens": MAX_NEW_TOKENS,
            "dtype": "float32", "num_threads": NUM_THREADS, "chat_template": False,
            "add_special_tokens": True}
_OUTPUT_FIELDS = ("output_text", "output_token_ids", "num_output_tokens", "hit_token_limit",
                  "collected_utc", "generation_seconds")


def sha256_text(text: str) -> str:
    """Hex sha256 of UTF-8 text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def parse_spec(spec: str) -> tuple[str, str | None]:
    """Split `MODEL+ADAPTER_DIR` into (model, adapter); the adapter part is optional."""
    model, _, adapter = spec.partition("+")
    return model, (adapter or None)


def weights_sha256(folder: str | Path | None, pattern: str = "*.safetensors") -> str | None:
    """sha256 over the weight files of a folder (sorted by name), or None if it has none."""
    if folder is None or not Path(folder).is_dir():
        return None
    files = sorted(Path(folder).glob(pattern))
    if not files:
        return None
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode("utf-8") + b"\0")
        with file.open("rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _empty_record(spec: str, prompt: str) -> dict:
    model, adapter = parse_spec(spec)
    record = {"spec": spec, "model": model, "adapter": adapter, "collected": False,
              "error": None, "model_id": None, "revision": None, "weights_sha256": None,
              "adapter_weights_sha256": None, "prompt": prompt, "prompt_sha256": sha256_text(prompt),
              "context_sha256": None, "context_num_tokens": None, "decoding": dict(DECODING)}
    record.update({field: None for field in _OUTPUT_FIELDS})
    return record


def collect_one(spec: str, *, prompt: str, load: Callable | None = None) -> dict:
    """Generate one greedy response to `prompt` with the model named by `spec`.

    Returns a record (see module docstring); on any exception `collected` is False,
    `error` holds "ExceptionType: message" and every output field is None.
    """
    record = _empty_record(spec, prompt)
    try:
        _generate(record, prompt, load)
        record["collected"] = True
    except Exception as exc:  # recorded, never hidden or replaced by example text
        record["error"] = f"{type(exc).__name__}: {exc}"
        record.update({field: None for field in _OUTPUT_FIELDS})
    return record


def _generate(record: dict, prompt: str, load: Callable | None) -> None:
    import torch

    if load is None:
        from rlvr.models import load_causal_lm as load
    torch.set_num_threads(NUM_THREADS)
    model_spec = None if record["model"] == "default" else record["model"]
    model, tokenizer = load(model_spec, adapter=record["adapter"])
    model.to(torch.float32)
    model.eval()
    folder = getattr(model.config, "_name_or_path", None) or None
    record["model_id"] = folder
    record["revision"] = getattr(model.config, "_commit_hash", None)
    record["weights_sha256"] = weights_sha256(folder)
    if record["adapter"]:
        record["adapter_weights_sha256"] = weights_sha256(record["adapter"])
    inputs = tokenizer(prompt, return_tensors="pt",
                       add_special_tokens=DECODING["add_special_tokens"]).to(model.device)
    context_ids = inputs["input_ids"][0].tolist()
    record["context_sha256"] = sha256_text(json.dumps(context_ids))
    record["context_num_tokens"] = len(context_ids)
    pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    start = time.perf_counter()
    with torch.no_grad():
        output = model.generate(**inputs, do_sample=False, num_beams=1,
                                max_new_tokens=MAX_NEW_TOKENS, pad_token_id=pad_id)
    seconds = time.perf_counter() - start
    new_ids = output[0, len(context_ids):].tolist()
    eos = tokenizer.eos_token_id
    record.update({
        "output_text": tokenizer.decode(new_ids, skip_special_tokens=False),
        "output_token_ids": new_ids, "num_output_tokens": len(new_ids),
        "hit_token_limit": len(new_ids) >= MAX_NEW_TOKENS and (not new_ids or new_ids[-1] != eos),
        "collected_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "generation_seconds": seconds,
    })


def collect_responses(specs: Sequence[str], *, prompt: str, load: Callable | None = None) -> dict:
    """Collect a response from each model spec; compare the first two.

    `full_pair_comparable` is True only when exactly two models were given, both were
    collected, and their prompt, tokenised context and decoding settings are identical.
    """
    models = [collect_one(spec, prompt=prompt, load=load) for spec in specs]
    comparable = len(models) == 2 and all(m["collected"] for m in models) and all(
        models[0][key] == models[1][key] for key in ("prompt_sha256", "context_sha256", "decoding"))
    return {"title": "Actual response collection", "requested": True, "prompt": prompt,
            "decoding": dict(DECODING), "models": models, "full_pair_comparable": comparable}


def not_requested(prompt: str) -> dict:
    """The collection section when no model was named: nothing collected, nothing invented."""
    return {"title": "Actual response collection", "requested": False, "prompt": prompt,
            "decoding": dict(DECODING), "models": [], "full_pair_comparable": False,
            "note": "not requested; run `rlvr observe --collect-responses MODEL MODEL`"}
