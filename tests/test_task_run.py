"""The main job on a task reward: `rlvr.train.job.run` with the GSM8K CPU recipe,
shrunk to one step of a tiny random model, trains on GSM8K rows, skips the self-awareness
steps and writes the k-shot report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rlvr.config import load_config
from tiny_models import TINY_TASK_RUN, tiny_chat_llama, tiny_task_run

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "gsm8k_grpo_cpu.yaml"


def test_gsm8k_run_trains_and_writes_the_kshot_report(tmp_path, monkeypatch, capsys):
    job = tiny_task_run(monkeypatch, tmp_path)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIG, {**TINY_TASK_RUN, "output_dir": str(run_dir),
                               "kshot_eval": [0, 1], "kshot_limit": 2, "eval_limit": 3})
    report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1 and report["kshot"]["shots"] == [0, 1]
    assert set(report["kshot"]["metrics"]) == {"base", "trained"}
    for name in ("report.json", "report.md", "kshot.json", "kshot.md", "kshot.png",
                 "kshot_samples.jsonl", "adapter/adapter_config.json"):
        assert (run_dir / name).is_file(), name
    # no self-awareness steps: no knowledge labels; the held-out rows (eval_limit of them)
    # scored by both rewards, base and trained, paired
    assert not (run_dir / "knowledge_labels.json").exists()
    held = report["heldout"]
    assert held["n_rows"] == 3 and held["rewards"] == ["gsm8k_correctness", "gsm8k_format"]
    assert {"reward", "reward/gsm8k_correctness", "reward/gsm8k_format",
            "accuracy/gsm8k_correctness"} <= set(held["metrics"])
    for name in ("generations_base.jsonl", "generations_trained.jsonl"):
        rows = [json.loads(line) for line in (run_dir / name).open()]
        assert len(rows) == 3 and all(set(r["rewards"]) == set(held["rewards"]) for r in rows)
        # the weighted sum: 1.0 x correctness + 0.5 x format (the config's weights)
        assert all(r["reward"] == r["rewards"]["gsm8k_correctness"]
                   + 0.5 * r["rewards"]["gsm8k_format"] for r in rows)
    md = (run_dir / "report.md").read_text()
    assert "## Held-out rows: base vs trained" in md and "| accuracy/gsm8k_correctness | 3 |" in md
    assert md.count("Held-out accuracy/gsm8k_correctness (n=3)") == 1
    assert (run_dir / "plots" / "before_after.png").is_file()
    # `rlvr report` rebuilds it offline from the saved generations: the same numbers
    from rlvr.cli import main

    before = json.loads((run_dir / "report.json").read_text())["heldout"]
    assert main(["report", str(run_dir)]) == 0
    assert json.loads((run_dir / "report.json").read_text())["heldout"] == before
    # `rlvr eval --tasks heldout --adapter RUN/adapter`: the same rows, prompt and rewards,
    # base and adapter loaded afresh: the same greedy answers, the same table
    import rlvr.models

    monkeypatch.setattr(rlvr.models, "load_causal_lm", lambda spec, **kw: tiny_chat_llama())
    out = tmp_path / "eval"
    assert main(["eval", "--tasks", "heldout", "--adapter", str(run_dir / "adapter"),
                 "--output-dir", str(out)]) == 0
    again = json.loads((out / "heldout.json").read_text())
    # the run's seed and bootstrap settings: the same answers give the very same table
    assert again["metrics"] == before["metrics"] and again["outcomes"] == before["outcomes"]
    assert (out / "heldout.md").read_text().count("| accuracy/gsm8k_correctness | 3 |") == 1
    assert (out / "before_after.png").is_file()
    # --engine vllm: the same rows through an engine (a stand-in for VllmEngine answering
    # with the same tiny model), the adapter switched in for "trained": the same table
    _heldout_through_an_engine(monkeypatch, run_dir, tmp_path / "eval_engine", before)
    assert main(["eval", "--tasks", "heldout", "--adapter", str(run_dir / "adapter"),
                 "--num-samples", "4", "--output-dir", str(out)]) == 2
    assert "answers as the run's report did" in capsys.readouterr().err
    # a task run's adapter is not a self-awareness model: refused before any model loads
    monkeypatch.setattr(rlvr.models, "load_causal_lm", lambda *a, **kw: pytest.fail("loaded"))
    assert main(["eval", "--tasks", "selfaware", "--adapter", str(run_dir / "adapter"),
                 "--output-dir", str(out)]) == 2
    assert "comes from a task run" in capsys.readouterr().err
    log = [json.loads(line) for line in (run_dir / "train_log.jsonl").open()]
    assert "rewards/gsm8k_correctness/mean" in log[0] and "rewards/gsm8k_format/mean" in log[0]
    events = [json.loads(line) for line in (run_dir / "metrics.jsonl").open()]
    (results,) = [e for e in events if e["event"] == "eval"]  # a task run's results event
    assert results["kind"] == "task" and results["kshot"]
    assert "1-shot accuracy (n=2)" in (run_dir / "report.md").read_text()


def test_samples_per_heldout_row_give_pass_at_k(tmp_path, monkeypatch):
    job = tiny_task_run(monkeypatch, tmp_path)
    run_dir = tmp_path / "run"
    cfg = load_config(CONFIG, {**TINY_TASK_RUN, "output_dir": str(run_dir), "kshot_eval": None,
                               "eval_limit": 2, "eval_num_samples": 2, "cross_check": "none"})
    report = job.run(cfg)
    held = report["heldout"]
    assert held["n_rows"] == 2 and held["num_samples"] == 2
    assert "pass@2/gsm8k_correctness" in held["metrics"]
    rows = [json.loads(line) for line in (run_dir / "generations_base.jsonl").open()]
    assert len(rows) == 4 and sorted({r["sample"] for r in rows}) == [0, 1]


def test_resuming_a_run_that_finished_training_trains_no_more(tmp_path, monkeypatch):
    # a run that stopped after its last step (in the evaluation) resumes to evaluate only:
    # transformers' train() from checkpoint-N of an N-step run took step N + 1
    job = tiny_task_run(monkeypatch, tmp_path)
    run_dir = tmp_path / "run"
    overrides = {**TINY_TASK_RUN, "output_dir": str(run_dir), "kshot_eval": None,
                 "eval_limit": 2, "cross_check": "none", "save_steps": 1}
    first = job.run(load_config(CONFIG, overrides))
    weights = (run_dir / "adapter" / "adapter_model.safetensors").read_bytes()
    again = job.run(load_config(CONFIG, overrides), resume=True)
    assert first["meta"]["optimizer_steps"] == again["meta"]["optimizer_steps"] == 1
    assert not (run_dir / "checkpoints" / "checkpoint-2").exists()
    assert (run_dir / "adapter" / "adapter_model.safetensors").read_bytes() == weights
    assert again["heldout"]["metrics"] == first["heldout"]["metrics"]


def _heldout_through_an_engine(monkeypatch, run_dir, out, before):
    import rlvr.eval.runner
    from rlvr.cli import main
    from rlvr.eval import vllm_engine
    from rlvr.eval.generate import generate_completions
    from rlvr.models import apply_adapter

    calls = []

    class Engine:  # what rlvr.eval.vllm_engine.VllmEngine offers: load_adapter + generate
        adapter = None

        def __init__(self):
            self.model, self.tokenizer = tiny_chat_llama()

        def load_adapter(self, adapter):  # the real engine merges it into its weights
            self.adapter = adapter

        def generate_completions(self, tokenizer, prompts, **kwargs):
            calls.append(("generate", self.adapter))
            model = self.model if self.adapter is None else apply_adapter(self.model,
                                                                          self.adapter)
            return generate_completions(model, tokenizer, prompts, **kwargs)

        def close(self):
            calls.append(("close",))

    def load_generator(model, engine, dtype, adapter, seed, max_num_seqs):
        calls.append(("load", engine, dtype, Path(adapter).name, max_num_seqs))
        built = Engine()
        return built, built.tokenizer

    monkeypatch.setattr(vllm_engine, "vllm_missing", lambda: None)
    monkeypatch.setattr(rlvr.eval.runner, "load_generator", load_generator)
    adapter = str(run_dir / "adapter")
    assert main(["eval", "--tasks", "heldout", "--adapter", adapter, "--engine", "vllm",
                 "--batch-size", "5", "--output-dir", str(out)]) == 0
    # one engine (batch 5 x 1 sample in flight), base first, then the run's adapter; closed
    assert calls == [("load", "vllm", "float32", "adapter", 5), ("generate", None),
                     ("generate", adapter), ("close",)]
    again = json.loads((out / "heldout.json").read_text())
    assert again["metrics"] == before["metrics"] and again["outcomes"] == before["outcomes"]
    assert (again["meta"]["engine"], again["meta"]["dtype"]) == ("vllm", "float32")
