"""GSM8K k-shot evaluation of base and trained: hand-made records and
rows, a tiny random model for the generation path."""

from __future__ import annotations

import json

import pytest

from rlvr.errors import DataError
from rlvr.eval.kshot import exemplar_order, kshot_markdown, kshot_summary
from tiny_models import tiny_chat_llama

POOL = [{"id": f"train-{i}", "question": f"Pool question {i}?",
         "solution": f"It is {i}.\n#### {i}", "final_answer": str(i)} for i in range(10)]
ROWS = [{"id": f"test-{i}", "question": f"Test question {i}?",
         "solution": f"So {i}.\n#### {i}", "final_answer": str(i)} for i in range(3)]


def rec(qid, correct, reward=True):
    return {"id": qid, "reward": (1.0 if correct else 0.0) if reward else None,
            "outcome": "correct" if correct else "wrong",
            "extra": {"gsm8k_format": {"score": 0.5 if correct else 0.0}}}


def test_summary_accuracy_and_paired_difference_by_hand():
    records = {"base": {0: [rec("a", True), rec("b", False), rec("c", False), rec("d", False)]},
               "trained": {0: [rec("a", True), rec("b", True), rec("c", True),
                               rec("d", False)]}}
    out = kshot_summary(records, bootstrap_samples=500, seed=1)
    base, trained = out["metrics"]["base"]["0"], out["metrics"]["trained"]["0"]
    # base 1/4 = 0.25, trained 3/4 = 0.75
    assert base["accuracy"]["value"] == 0.25 and trained["accuracy"]["count"] == 3
    # Wilson 95% for 1/4: centre (0.25 + 1.9208/4) / (1 + 3.8415/4) = 0.3725, half 0.3413
    assert base["accuracy"]["ci95"] == pytest.approx([0.0456, 0.6994], abs=1e-3)
    diff = out["difference"]["0"]
    # per-question differences [0, 1, 1, 0]: mean 0.5; bootstrap means lie in [0, 1]
    assert diff["mean_difference"] == 0.5 and diff["n"] == 4
    assert 0.0 <= diff["ci_low"] <= 0.5 <= diff["ci_high"] <= 1.0
    assert kshot_summary(records, 500, 1) == out  # seeded: the same interval again
    # a question one model could not be scored on leaves the pair
    records["trained"][0][3] = rec("d", False, reward=False)
    assert kshot_summary(records, 500, 1)["difference"]["0"]["n"] == 3


def test_markdown_row_states_accuracy_ci_and_difference():
    result = {"shots": [0], "n_questions": 4, "bootstrap_samples": 10,
              "metrics": {"base": {"0": {"accuracy": {"value": 0.25, "count": 1, "n": 4,
                                                      "ci95": [0.05, 0.7]},
                                         "format_rate": {"value": 0.5, "count": 2, "n": 4}}},
                          "trained": {"0": {"accuracy": {"value": 0.75, "count": 3, "n": 4,
                                                         "ci95": [0.3, 0.95]},
                                            "format_rate": {"value": 1.0, "count": 4,
                                                            "n": 4}}}},
              "difference": {"0": {"mean_difference": 0.5, "ci_low": 0.0, "ci_high": 1.0}}}
    table = kshot_markdown(result)
    # accuracy with CI per model, the difference, then '####' format rate per model
    assert "| 0 | 25.0% (1/4) [5.0, 70.0] | 75.0% (3/4) [30.0, 95.0] | +50.0 [+0.0, +100.0] " \
        "| 50% (2/4) | 100% (4/4) |" in table
    assert "base '####' format rate | trained '####' format rate |" in table


def test_exemplars_are_nested_train_rows_never_test_questions():
    order = exemplar_order(POOL, 8, seed=3)
    assert len(order) == 8 and exemplar_order(POOL, 4, seed=3) == order[:4]
    clash = [{"question": POOL[i]["question"]} for i in range(10)]
    with pytest.raises(DataError, match="8-shot needs 8 GSM8K train exemplars, but the pool "
                                        "has 2"):
        exemplar_order(POOL, 8, seed=3, rows=clash[:8])


def test_kshot_eval_runs_base_and_trained_and_writes_its_files(tmp_path, monkeypatch):
    from peft import LoraConfig, get_peft_model

    import rlvr.eval.runner as runner
    from rlvr.eval.kshot import kshot_eval

    shown = []
    real = runner.generate_task_records

    def spy(model, tokenizer, task, rows, exemplars, settings, label):
        shown.append((label, [e["id"] for e in exemplars]))
        return real(model, tokenizer, task, rows, exemplars, settings, label)

    monkeypatch.setattr(runner, "generate_task_records", spy)
    model, tokenizer = tiny_chat_llama()
    model = get_peft_model(model, LoraConfig(r=2, lora_alpha=2, target_modules=["q_proj"]))
    result = kshot_eval(model, tokenizer, shots=[2, 0], limit=2, output_dir=tmp_path, seed=0,
                        max_new_tokens=3, bootstrap_samples=50, rows=ROWS, pool=POOL)
    ids = result["fewshot_ids"]
    assert [s[0] for s in shown] == ["base 0-shot", "base 2-shot", "trained 0-shot",
                                     "trained 2-shot"]
    assert shown[0][1] == [] and shown[1][1] == ids[:2] == shown[3][1]
    assert result["shots"] == [0, 2] and result["n_questions"] == 2
    assert set(result["metrics"]) == {"base", "trained"} and set(result["difference"]) == {
        "0", "2"}
    assert result["metrics"]["trained"]["2"]["n"] == 2
    saved = json.loads((tmp_path / "kshot.json").read_text())
    assert saved["metrics"] == result["metrics"]
    samples = [json.loads(line) for line in (tmp_path / "kshot_samples.jsonl").open()]
    assert len(samples) == 2 * 2 * 2 and {s["shots"] for s in samples} == {0, 2}
    assert (tmp_path / "kshot.md").read_text().startswith("| shots | base accuracy")
    assert (tmp_path / "kshot.png").read_bytes()[:4] == b"\x89PNG"


def test_task_report_writes_report_and_verdict(tmp_path, monkeypatch):
    from peft import LoraConfig, get_peft_model

    import rlvr.eval.cross_check as cross_check
    import rlvr.eval.kshot as kshot
    from rlvr.config import load_config
    from rlvr.eval.settings import RunEvaluation
    from rlvr.eval.task_run import task_flat_results, task_report

    sources = {"data_source": "hand-made", "fewshot_source": "hand-made pool"}
    monkeypatch.setattr(kshot, "kshot_data", lambda limit, data_dir=None, *a, **k:
                        (ROWS[:limit], POOL, sources))
    checks = []  # the likelihood cross-check runs in task runs too (it was skipped before)

    def fake_check(base, trained, tokenizer, tasks, **kwargs):
        checks.append((base, trained, list(tasks), kwargs["limit"], kwargs["rows_file"]))
        return {"meta": {}, "tasks": {}, "skipped": {"gsm8k": "stub reason"}}

    monkeypatch.setattr(cross_check, "likelihood_check", fake_check)
    cfg = load_config(None, {"reward": "gsm8k_correctness", "reward_preset": None,
                             "reward_funcs": [{"name": "gsm8k_correctness"}],
                             "kshot_eval": [0, 1], "kshot_limit": 2, "eval_max_new_tokens": 2,
                             "bootstrap_samples": 20})
    model, tokenizer = tiny_chat_llama()
    model = get_peft_model(model, LoraConfig(r=2, lora_alpha=2, target_modules=["q_proj"]))
    meta = {"reward": "gsm8k_correctness", "timings": {}}
    train = [{"question": "Pool question 1?"}]
    report = task_report(RunEvaluation.from_run(cfg), model, tokenizer, tmp_path, meta, train)
    assert report["kshot"]["data_source"] == "hand-made" and "kshot_s" in meta["timings"]
    md = (tmp_path / "report.md").read_text()
    assert "1-shot accuracy (n=2): base " in md and "kshot.png" in md
    # the config's default cross_check: base = the same model with the adapter off (None)
    assert checks == [(None, model, ["gsm8k", "triviaqa", "humaneval", "mbpp"], 10,
                       tmp_path / "cross_check_rows.jsonl")]
    assert "| gsm8k | - | skipped: stub reason |" in md and "cross_check_s" in meta["timings"]
    assert json.loads((tmp_path / "report.json").read_text())["cross_check"]["skipped"]
    assert json.loads((tmp_path / "report.json").read_text())["kshot"]["shots"] == [0, 1]
    flat = task_flat_results(report)
    assert {"kshot/base/0shot/accuracy", "kshot/trained/1shot/accuracy",
            "kshot/difference/1shot/ci_low"} <= set(flat)
    # a k-shot test question that is also a training question is refused
    with pytest.raises(DataError, match="1 of 2 evaluation questions are training questions"):
        task_report(RunEvaluation.from_run(cfg), model, tokenizer, tmp_path, meta,
                    [{"question": "Test question 0?"}])


def test_kshot_data_comes_from_test_and_train_offline(monkeypatch):
    from rlvr.eval.kshot import kshot_data

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    rows, pool, sources = kshot_data(5, data_dir="/nonexistent")
    assert len(rows) == 5 and len(pool) == 100  # the packaged subsets
    assert "test split" in sources["data_source"] and "train split" in sources["fewshot_source"]
    assert all(r["id"].startswith("test") for r in rows)
    assert all(p["id"].startswith("train") for p in pool)


def test_the_chart_takes_an_accuracy_at_its_wilson_bound(tmp_path):
    # accuracy 1.0 with an upper bound a rounding error below it drew a negative error bar
    # (matplotlib refuses those) and ended a finished run before its report was written
    from rlvr.eval.kshot import kshot_chart

    result = {"shots": [0], "n_questions": 5, "metrics": {
        "base": {"0": {"accuracy": {"value": 1.0, "ci95": [0.57, 0.9999999999999999]}}},
        "trained": {"0": {"accuracy": {"value": 0.0, "ci95": [1e-17, 0.43]}}}}}
    assert kshot_chart(result, tmp_path / "k.png").is_file()
