"""End-to-end smoke run on the default model: 2 GRPO steps, adapter, report (slow)."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


def small_run(run_dir, max_steps: int, *extra: str) -> list[str]:
    """`rlvr train` arguments for a tiny run: 4 completions per step, 4 held-out questions."""
    args = ["train", "--max-steps", str(max_steps), "--eval-limit", "4",
            "--output-dir", str(run_dir)]
    for setting in ("per_device_train_batch_size=4", "gradient_accumulation_steps=1",
                    "num_generations=2", "eval_batch_size=4", "bootstrap_samples=50",
                    "train_limit=16", *extra):
        args += ["--set", setting]
    return args


def test_train_two_steps_and_report(tmp_path, capsys):
    from rlvr.cli import main

    run_dir = tmp_path / "run"
    code = main(small_run(run_dir, 2, "max_completion_length=8"))
    assert code == 0
    assert (run_dir / "adapter" / "adapter_config.json").is_file()
    assert (run_dir / "adapter" / "adapter_model.safetensors").is_file()
    assert (run_dir / "resolved_config.yaml").is_file()
    report = json.loads((run_dir / "report.json").read_text())
    for side in ("base", "trained"):
        metrics = report[side]["selfaware"]
        assert metrics["n"] == 4
        for key in ("mean_reward", "answerable_accuracy", "answerable_abstention_rate",
                    "unanswerable_abstention_recall", "abstention_precision", "abstention_f1"):
            assert key in metrics
    diff = report["difference"]["mean_reward"]
    assert diff["ci_low"] <= diff["mean_difference"] <= diff["ci_high"]
    assert report["meta"]["optimizer_steps"] == 2
    base = [json.loads(x) for x in (run_dir / "generations_base.jsonl").read_text().splitlines()]
    trained = [json.loads(x) for x in
               (run_dir / "generations_trained.jsonl").read_text().splitlines()]
    # 4 in-distribution and 4 out-of-template questions (--eval-limit limits each set)
    assert [r["id"] for r in base] == [r["id"] for r in trained] and len(base) == 8
    assert report["out_of_template"]["trained"]["selfaware"]["n"] == 4
    assert all(r["num_tokens"] <= 8 for r in base + trained)
    out = capsys.readouterr().out
    assert "| mean reward |" in out and "Verdict: the trained model" in out
    md = (run_dir / "report.md").read_text()
    assert "| mean reward |" in md and md.splitlines()[2].startswith("**Verdict:")
    # knowledge-aware section: greedy labels (K=1) of the base model, reference policies
    knowledge = report["knowledge"]
    assert knowledge["n"] == 4 and set(knowledge["policies"]) == {"always_abstain", "base",
                                                                  "trained"}
    assert knowledge["policies"]["always_abstain"]["answer_rate"] == 0.0
    from rlvr.eval.knowledge import VERDICTS

    assert knowledge["verdict"]["verdict"] in VERDICTS
    labels = json.loads((run_dir / "knowledge_labels.json").read_text())["labels"]
    assert [x["id"] for x in labels] == [r["id"] for r in base]
    for label, rec in zip(labels, base):  # K = 1: known exactly when greedy was correct
        assert label["known"] == (rec["outcome"] == "correct")
    # live diagnostics went where TRL's metrics go
    log = [json.loads(x) for x in (run_dir / "train_log.jsonl").read_text().splitlines()]
    steps = [e for e in log if "calibration/over_abstention" in e or "calibration/n_correct" in e]
    assert len(steps) == 2 and "calibration/zero_std_group_share" in steps[0]
    assert (run_dir / "heldout.jsonl").is_file() and (run_dir / "train_questions.json").is_file()
    # the default tracker (TensorBoard) and the plots land in the run directory
    assert list((run_dir / "tensorboard").glob("events.out.tfevents.*"))
    from PIL import Image

    for name in ("rewards.png", "zero_spread.png", "calibration.png", "kl.png", "length.png",
                 "before_after.png"):
        with Image.open(run_dir / "plots" / name) as image:
            assert image.format == "PNG" and image.size[0] >= 960

    # resume: the run continues from its checkpoint and reuses the base generations
    code = main(small_run(run_dir, 3, "max_completion_length=8", "save_steps=1") + ["--resume"])
    assert code == 0
    report = json.loads((run_dir / "report.json").read_text())
    assert report["meta"]["optimizer_steps"] == 3
    assert "eval_base_s" not in report["meta"]["timings"]
    # metrics.jsonl: both runs appended (start, a log per step, the results), in order
    from rlvr.metrics.run_log import read_metrics

    metrics = read_metrics(run_dir / "metrics.jsonl")
    events = [m["event"] for m in metrics]
    assert events == ["start", "log", "log", "log", "train_end", "eval",
                      "start", "log", "log", "train_end", "eval"]
    assert [m["resume"] for m in metrics if m["event"] == "start"] == [False, True]
    logs = [m for m in metrics if m["event"] == "log" and "reward" in m]
    assert [m["step"] for m in logs] == [1, 2, 3]
    assert "calibration/zero_std_group_share" in logs[0] and "kl" in logs[0]
    assert metrics[-1]["trained"] == report["trained"]


def test_stop_on_alarm_stops_cleanly_and_still_reports(tmp_path, capsys):
    from rlvr.cli import main

    run_dir = tmp_path / "run"
    # a 4-token cap truncates nearly everything: the length alarm fires at step 1
    # and knowledge labels from K = 2 sampled answers per answerable question
    code = main(small_run(run_dir, 4, "max_completion_length=4", "alarm_truncation=0.0",
                          "alarm_patience=1", "stop_on_alarm=true", "knowledge_samples=2",
                          "knowledge_temperature=0.7"))
    assert code == 0
    report = json.loads((run_dir / "report.json").read_text())
    assert report["meta"]["optimizer_steps"] == 1 and report["meta"]["stopped_on_alarm"]
    assert "length" in [a["alarm"] for a in report["meta"]["alarms"]]
    assert (run_dir / "adapter" / "adapter_config.json").is_file()
    assert "ALARM: length alarm at step 1" in (run_dir / "report.md").read_text()
    log = [json.loads(x) for x in (run_dir / "train_log.jsonl").read_text().splitlines()]
    assert any("length" in e.get("alarms", []) for e in log)
    assert "ALARM:" in capsys.readouterr().out
    heldout = [json.loads(x) for x in (run_dir / "heldout.jsonl").read_text().splitlines()]
    samples = [json.loads(x) for x in
               (run_dir / "knowledge_samples_base.jsonl").read_text().splitlines()]
    answerable = [r["id"] for r in heldout if not r["is_unanswerable"]]
    assert [s["id"] for s in samples] == [i for i in answerable for _ in range(2)]
    labels = json.loads((run_dir / "knowledge_labels.json").read_text())["labels"]
    for label in labels:
        if label["is_unanswerable"]:
            assert label["known"] is False and label["expected_accuracy"] is None
        else:
            assert label["k"] == 2 and label["expected_accuracy"] in (0.0, 0.5, 1.0)
