"""vLLM's CPU build for real (skipped when vllm is not importable; slow: loads the default
model, builds vLLM engines in eager mode, ~20 s each on 2 cores).

- `rlvr.eval.vllm_engine.VllmEngine` with a tiny LoRA gives the same greedy answers as
  transformers + PEFT in float32 on built-in held-out questions (main job's prompt);
- after a weight sync with a changed LoRA, colocated rollouts change and match
  transformers + PEFT (tests/vllm_sync_check.py, in a process of its own);
- one GRPO step of `rlvr train` with `use_vllm: true` on CPU.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]


def _tiny_lora(folder: Path) -> str:
    import torch
    from peft import LoraConfig, get_peft_model

    from rlvr.models import load_causal_lm

    model, _ = load_causal_lm(None)
    peft_model = get_peft_model(model, LoraConfig(r=8, lora_alpha=16,
                                                  target_modules=["q_proj", "v_proj"]))
    torch.manual_seed(0)
    with torch.no_grad():
        for name, param in peft_model.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 0.02)
    peft_model.save_pretrained(folder)
    return str(folder)


def _heldout_case(n: int):
    """(the first `n` built-in held-out rows, the main job's task at 24 tokens, greedy
    settings at batch 8)."""
    from rlvr.config import load_config
    from rlvr.tasks.heldout import heldout_rows, run_task
    from rlvr.train.data_prep import prepare_data

    cfg = load_config(str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"))
    _, _, heldout = prepare_data(cfg)
    task = run_task(cfg.reward, cfg.reward_preset, cfg.reward_params, 24)
    return heldout_rows(heldout)[:n], task, {"batch_size": 8, "num_samples": 1,
                                              "temperature": 0.0, "seed": 0,
                                              "max_new_tokens": 24}


def test_vllm_eval_engine_with_lora_matches_transformers_fp32(tmp_path):
    pytest.importorskip("vllm")
    from rlvr.eval.runner import generate_task_records
    from rlvr.eval.vllm_engine import VllmEngine, lora_rank
    from rlvr.models import apply_adapter, load_causal_lm, resolve_model

    rows, task, settings = _heldout_case(8)
    adapter = _tiny_lora(tmp_path / "lora")
    model, tokenizer = load_causal_lm(None)
    hf_base = generate_task_records(model, tokenizer, task, rows, [], settings, "hf base")
    hf_lora = generate_task_records(apply_adapter(model, adapter), tokenizer, task, rows, [],
                                    settings, "hf lora")
    engine = VllmEngine(resolve_model(None), "float32", max_lora_rank=lora_rank(adapter))
    vllm_base = generate_task_records(engine, tokenizer, task, rows, [], settings, "vllm base")
    engine.adapter = adapter
    vllm_lora = generate_task_records(engine, tokenizer, task, rows, [], settings, "vllm lora")
    engine.close()
    fields = ("completion", "reward", "outcome", "num_tokens", "truncated")
    assert [[r[k] for k in fields] for r in vllm_base] == [[r[k] for k in fields] for r in hf_base]
    assert [[r[k] for k in fields] for r in vllm_lora] == [[r[k] for k in fields] for r in hf_lora]


def test_colocated_rollouts_follow_the_adapter_after_a_weight_sync():
    pytest.importorskip("vllm")
    proc = subprocess.run([sys.executable, str(ROOT / "tests" / "vllm_sync_check.py")],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (out["dtype"], out["enforce_eager"]) == ("torch.float32", True)  # TRL's LLM, patched
    assert out["vllm_1"] == out["hf_1"] and out["vllm_2"] == out["hf_2"]
    assert out["vllm_1"] != out["base"] and out["vllm_2"] != out["vllm_1"]


def test_one_grpo_step_with_use_vllm_on_cpu(tmp_path):
    pytest.importorskip("vllm")
    rlvr = Path(sys.executable).with_name("rlvr")
    sets = ["max_steps=1", "train_answerable=all", "skip_eval=true", "cross_check=none",
            "report_to=none", "per_device_train_batch_size=4", "use_vllm=true",
            "profile_steps=true", "save_minutes=null"]
    cmd = [str(rlvr), "train", "--config", str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"),
           "--output-dir", str(tmp_path / "run")]
    for item in sets:
        cmd += ["--set", item]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    events = [json.loads(line) for line in
              (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert any(e.get("event") == "profile" and e.get("step") == 1 for e in events)
    rollouts = (tmp_path / "run" / "rollouts.jsonl").read_text().splitlines()
    assert rollouts and json.loads(rollouts[0])


def test_the_run_generator_answers_base_and_trained_like_transformers(tmp_path):
    """The job's engine (`RunGenerator`): base stages on the engine's own weights, trained
    stages on the PEFT model's merged weights reloaded into the same engine; greedy answers
    equal transformers float32 (base) and transformers + PEFT (trained)."""
    pytest.importorskip("vllm")
    from rlvr.eval.run_engine import RunGenerator
    from rlvr.eval.runner import generate_task_records
    from rlvr.models import apply_adapter, load_causal_lm, resolve_model

    rows, task, settings = _heldout_case(12)
    model, tokenizer = load_causal_lm(None)
    hf_base = generate_task_records(model, tokenizer, task, rows, [], settings, "hf base")
    trained = apply_adapter(model, _tiny_lora(tmp_path / "lora"))
    hf_trained = generate_task_records(trained, tokenizer, task, rows, [], settings, "hf")
    gen = RunGenerator("vllm", resolve_model(None))
    try:
        v_base = generate_task_records(gen.base(model, "eval_base"), tokenizer, task, rows,
                                       [], settings, "vllm base")
        v_trained = generate_task_records(gen.trained(trained, "eval_trained"), tokenizer,
                                          task, rows, [], settings, "vllm trained")
        with pytest.raises(RuntimeError):
            gen.base(model, "late")  # the engine now holds the trained weights
    finally:
        gen.close()
    fields = ("completion", "reward", "outcome", "num_tokens", "truncated")
    assert [[r[k] for k in fields] for r in v_base] == [[r[k] for k in fields] for r in hf_base]
    assert [[r[k] for k in fields] for r in v_trained] == \
        [[r[k] for k in fields] for r in hf_trained]
    assert [r["completion"] for r in hf_trained] != [r["completion"] for r in hf_base]
    assert gen.stages == {"eval_base": "vllm", "eval_trained": "vllm"}
    # the PEFT model was unmerged again: its answers are unchanged
    again = generate_task_records(trained, tokenizer, task, rows, [], settings, "hf again")
    assert [r["completion"] for r in again] == [r["completion"] for r in hf_trained]


def test_a_run_with_the_default_engine_generates_every_stage_with_vllm(tmp_path):
    pytest.importorskip("vllm")
    import os

    rlvr = Path(sys.executable).with_name("rlvr")
    sets = ["max_steps=1", "train_answerable=known", "eval_limit=16", "cross_check=none",
            "report_to=none", "per_device_train_batch_size=4", "save_minutes=null",
            "label_cache=false"]
    cmd = [str(rlvr), "train", "--config", str(ROOT / "configs" / "selfaware_grpo_cpu.yaml"),
           "--output-dir", str(tmp_path / "run")]
    for item in sets:
        cmd += ["--set", item]
    env = {k: v for k, v in os.environ.items() if k != "RLVR_EVAL_ENGINE"}
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    meta = json.loads((tmp_path / "run" / "report.json").read_text())["meta"]
    assert meta["engines"]["stages"] == {
        "eval_base": "vllm", "knowledge": "vllm", "decision_base": "vllm",
        "train_knowledge": "vllm",
        "eval_trained": "vllm", "decision_trained": "vllm"}
    assert meta["engines"]["vllm_startup_s"] > 0 and meta["engines"]["vllm_reload_s"] > 0
    assert meta["engines"]["vllm_builds"] == 2  # closed for training, built again after


def test_sampling_with_seeds_over_more_prompt_tokens_than_one_scheduler_step():
    """Sampled answers with per-request seeds on prompts whose tokens exceed one scheduler
    step (4096): vLLM 0.30 on CPU crashed here ("CPU Generator does not use offset") when a
    prompt's prefill was split across steps; the engine now schedules whole prompts. Same
    seeds give the same answers again, and the K samples of one prompt are not all alike."""
    pytest.importorskip("vllm")
    from rlvr.eval.vllm_engine import STEP_TOKENS, VllmEngine
    from rlvr.models import load_tokenizer, resolve_model

    path = resolve_model(None)
    tokenizer = load_tokenizer(path)
    filler = "Here is some context about the weather and the sea. " * 12
    prompts = [[{"role": "user", "content": f"{filler} Question {i}: name a colour."}]
               for i in range(48)]
    tokens = sum(len(tokenizer(tokenizer.apply_chat_template(p, tokenize=False,
                                                             add_generation_prompt=True),
                               add_special_tokens=False)["input_ids"]) for p in prompts)
    assert tokens > STEP_TOKENS  # the prefill cannot fit in one step
    engine = VllmEngine(path)
    try:
        first = engine.generate_completions(tokenizer, prompts, 6, num_samples=4,
                                            temperature=1.0, seed=3, progress=False)
        again = engine.generate_completions(tokenizer, prompts, 6, num_samples=4,
                                            temperature=1.0, seed=3, progress=False)
    finally:
        engine.close()
    assert len(first) == 48 * 4
    assert [r["completion"] for r in first] == [r["completion"] for r in again]
    assert len({r["completion"] for r in first[:4 * 8]}) > 8
