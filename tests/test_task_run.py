"""The main job on a task reward (issue 12): `rlvr.train.job.run` with the GSM8K CPU recipe,
shrunk to one step of a tiny random model, trains on GSM8K rows, skips the self-awareness
steps and writes the k-shot report."""

from __future__ import annotations

import json
from pathlib import Path

from rlvr.config import load_config
from tiny_models import tiny_chat_llama, use_tiny_model

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "gsm8k_grpo_cpu.yaml"


def test_gsm8k_run_trains_and_writes_the_kshot_report(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the packaged GSM8K subsets
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    from rlvr.train import job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIG, {
        "output_dir": str(run_dir), "max_steps": 1, "max_completion_length": 4,
        "per_device_train_batch_size": 4, "num_generations": 2, "kshot_eval": [0, 1],
        "kshot_limit": 2, "eval_max_new_tokens": 3, "report_to": "none",
        "lora_target_modules": ["q_proj", "v_proj"], "bootstrap_samples": 20})
    report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1 and report["kshot"]["shots"] == [0, 1]
    assert set(report["kshot"]["metrics"]) == {"base", "trained"}
    for name in ("report.json", "report.md", "kshot.json", "kshot.md", "kshot.png",
                 "kshot_samples.jsonl", "adapter/adapter_config.json"):
        assert (run_dir / name).is_file(), name
    # no self-awareness steps: no held-out generations, no knowledge labels
    assert not (run_dir / "generations_base.jsonl").exists()
    assert not (run_dir / "knowledge_labels.json").exists()
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").open()]
    assert "rewards/gsm8k_correctness/mean" in log[0] and "rewards/gsm8k_format/mean" in log[0]
    events = [json.loads(line)["event"] for line in (run_dir / "metrics.jsonl").open()]
    assert "kshot" in events
    assert "GSM8K 1-shot accuracy (n=2)" in (run_dir / "report.md").read_text()
