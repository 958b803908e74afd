"""Eval task registry, loaders, prompt rendering, metrics, rescoring (no model)."""

from __future__ import annotations

import json

import pytest

from rlvr.errors import DataError, RlvrError
from rlvr.data import loaders
from rlvr.eval.results import finish_results
from rlvr.eval.runner import fewshot_exemplars, load_task_rows, rescore
from rlvr.metrics.task_metrics import code_metrics, gsm8k_metrics, qa_metrics
from rlvr.tasks.registry import TASKS, get_task
from rlvr.io import write_json, write_jsonl

from conftest import SHARED_DATA


def test_registry_lists_tasks_and_rejects_unknown():
    assert {"selfaware", "gsm8k", "triviaqa", "humaneval", "mbpp", "exploretom"} <= set(TASKS)
    for task in TASKS.values():
        assert task.version >= 1 and task.reward
    with pytest.raises(RlvrError, match="known tasks: .*Did you mean 'gsm8k'"):
        get_task("gsm8")


def test_loaders_on_shared_data():
    gsm = loaders.load_gsm8k(SHARED_DATA / "gsm8k" / "test.jsonl")
    assert len(gsm) == 1319 and gsm[0]["final_answer"] == "18"
    tqa = loaders.load_triviaqa(SHARED_DATA / "triviaqa" / "triviaqa_sm_sub.jsonl")
    assert tqa[0]["question"].startswith("Brunswick") and "Onion" in tqa[0]["aliases"]
    he = loaders.load_humaneval(SHARED_DATA / "humaneval" / "HumanEval.jsonl.gz")
    assert len(he) == 164 and he[0]["entry_point"] == "has_close_elements"
    mbpp = loaders.load_mbpp(SHARED_DATA / "mbpp" / "mbpp.jsonl")
    assert len(mbpp) == 500 and mbpp[0]["id"] == 11 and mbpp[-1]["id"] == 510
    sa = loaders.load_selfaware_heldout(SHARED_DATA / "selfaware" / "SelfAware.json")
    assert len(sa) == 337


def test_selfaware_task_rows_carry_every_answer():
    """The eval task's v3 test rows hold the file's whole answer list (version 3 on)."""
    path = SHARED_DATA / "selfaware" / "SelfAware.json"
    raw = {r["question_id"]: r for r in json.loads(path.read_text(encoding="utf-8"))["example"]}
    rows = loaders.load_selfaware_heldout(path)
    assert get_task("selfaware").version == 3
    for r in rows:
        if r["is_unanswerable"]:
            assert r["expected_answer"] is None
        else:
            assert r["expected_answer"] == [a.strip() for a in raw[r["id"]]["answer"]]
    by_id = {r["id"]: r for r in rows}
    assert by_id[272]["expected_answer"] == ["particular skills", "educational"]
    assert sum(len(r["expected_answer"] or []) > 1 for r in rows) == 28


def test_gsm8k_loader_bad_row(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_text('{"question": "q", "answer": "x #### 1"}\n{"question": "q", "answer": "no"}\n')
    with pytest.raises(DataError, match=r"g.jsonl:2: .*####"):
        loaders.load_gsm8k(path)


EXPLORETOM_CSV = (
    "infilled_story,question,expected_answer,qprop=nth_order\n"
    '"Anna puts the key in the drawer. She leaves. Ben moves the key to the box.",'
    '"Where will Anna look for the key?",drawer,1\n'
    '"Carl paints the fence blue while Dana is away.","Does Dana know the fence is blue?",no,1\n'
)


def test_exploretom_loader(tmp_path):
    path = tmp_path / "etom.csv"
    path.write_text(EXPLORETOM_CSV)
    rows = loaders.load_exploretom(path)
    assert [r["answer"] for r in rows] == ["drawer", "no"]
    assert rows[0]["story"].startswith("Anna") and rows[0]["id"] == "exploretom-2"
    with pytest.raises(DataError, match="--task-path exploretom="):
        loaders.load_exploretom(None)
    bad = tmp_path / "bad.csv"
    bad.write_text("story,question\nx,y\n")
    with pytest.raises(DataError, match="missing column"):
        loaders.load_exploretom(bad)


def test_exploretom_errors_name_the_csv_line_not_the_record(tmp_path):
    # a story spanning three lines moves every later record down; the error for
    # the empty answer must name line 5 (where that record starts), not record 3
    path = tmp_path / "multi.csv"
    path.write_text("infilled_story,question,expected_answer\n"
                    '"Anna puts the key in the drawer.\nShe leaves.\nBen moves it.",'
                    '"Where will Anna look?",drawer\n'
                    '"Carl paints the fence.","Is it blue?",\n')
    with pytest.raises(DataError, match=r"multi\.csv:5: empty question or expected_answer"):
        loaders.load_exploretom(path)
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes(b"infilled_story,question,expected_answer\ncaf\xe9,q,a\n")
    with pytest.raises(DataError, match="not UTF-8"):
        loaders.load_exploretom(latin1)


def test_missing_task_data_is_skipped_with_reason(tmp_path):
    rows, skipped, sources = load_task_rows(["gsm8k", "exploretom"], str(SHARED_DATA), {}, limit=3)
    assert len(rows["gsm8k"]) == 3
    assert sources["gsm8k"]["data_source"] == str(SHARED_DATA / "gsm8k" / "test.jsonl")
    assert "exploretom" in skipped and "--task-path" in skipped["exploretom"]
    # --data-source local: no hub, no packaged fallback; the reason names the missing file
    rows, skipped, _ = load_task_rows(["gsm8k"], str(tmp_path), {}, limit=None,
                                      data_source="local")
    assert not rows and str(tmp_path / "gsm8k" / "test.jsonl") in skipped["gsm8k"]
    rows, skipped, _ = load_task_rows(["gsm8k"], None, {}, limit=None, data_source="local")
    assert "--data-dir" in skipped["gsm8k"]


def test_fewshot_exemplars_come_from_train_only():
    task = get_task("gsm8k")
    shots = fewshot_exemplars(task, 4, str(SHARED_DATA), seed=0)
    assert len(shots) == 4 and all(s["id"].startswith("train-") for s in shots)
    test_questions = {r["question"] for r in loaders.load_gsm8k(SHARED_DATA / "gsm8k" / "test.jsonl")}
    assert not test_questions & {s["question"] for s in shots}
    row = {"question": "What is 2 + 3?"}
    messages = task.build_prompt(row, shots)
    # system, 4 x (user, assistant), final user
    assert [m["role"] for m in messages] == ["system"] + ["user", "assistant"] * 4 + ["user"]
    assert messages[2]["content"].rstrip().split("####")[-1].strip() == shots[0]["final_answer"]
    assert messages[-1]["content"] == "What is 2 + 3?"


def test_raw_prompt_for_humaneval():
    task = get_task("humaneval")
    assert task.build_prompt({"prompt": "def f(x):\n"}) == "def f(x):\n"


def rec(id_, reward, outcome="x", sample=0, extra=None):
    return {"id": id_, "sample": sample, "reward": reward, "outcome": outcome, "extra": extra or {}}


def test_code_metrics_pass_at_k_hand_computed():
    # problem a: 1 of 4 correct; b: 2 of 4; c: 0 of 4
    records = ([rec("a", 1.0), rec("a", 0.0, sample=1), rec("a", 0.0, sample=2), rec("a", 0.0, sample=3)]
               + [rec("b", 1.0), rec("b", 1.0, sample=1), rec("b", 0.0, sample=2), rec("b", 0.0, sample=3)]
               + [rec("c", 0.0, sample=s) for s in range(4)])
    m = code_metrics(records, num_samples=4)
    # pass@1 = mean(c/n) = (1/4 + 2/4 + 0) / 3 = 0.25
    assert m["pass@1"]["value"] == pytest.approx(0.25)
    # pass@2: a: 1 - C(3,2)/C(4,2) = 1 - 3/6 = 0.5; b: 1 - C(2,2)/C(4,2) = 1 - 1/6 = 5/6; c: 0
    assert m["pass@2"]["value"] == pytest.approx((0.5 + 5 / 6 + 0) / 3)
    # pass@4: a: 1, b: 1, c: 0 -> 2/3
    assert m["pass@4"]["value"] == pytest.approx(2 / 3)
    assert m["n_problems"] == 3


def test_gsm8k_and_qa_metrics():
    records = [rec(1, 1.0, "correct", extra={"gsm8k_format": {"score": 0.5}}),
               rec(2, 0.0, "wrong", extra={"gsm8k_format": {"score": 0.5}}),
               rec(3, 0.0, "no_answer", extra={"gsm8k_format": {"score": 0.0}}),
               rec(4, None, "bad_gold")]
    m = gsm8k_metrics(records)
    # 3 scored: 1 correct -> 1/3; 2 formatted -> 2/3; 1 no_answer -> 1/3
    assert (m["accuracy"]["value"], m["format_rate"]["value"], m["no_answer_rate"]["value"]) == \
        pytest.approx((1 / 3, 2 / 3, 1 / 3))
    assert m["n_unscored"] == 1
    low, high = m["accuracy"]["ci95"]
    assert 0 < low < 1 / 3 < high < 1
    q = qa_metrics([rec(1, 1.0, extra={"abstention": {"outcome": "answer"}}),
                    rec(2, 0.0, extra={"abstention": {"outcome": "abstain"}})])
    assert q["accuracy"]["value"] == 0.5 and q["abstention_rate"]["value"] == 0.5


def test_rescore_recomputes_from_samples(tmp_path, capsys):
    from rlvr.cli import main

    samples = [{"id": "g1", "sample": 0, "task": "gsm8k", "final_answer": "18",
                "completion": "So 9 * 2 = 18.\n#### 18", "reward": -5, "outcome": "stale"},
               {"id": "g2", "sample": 0, "task": "gsm8k", "final_answer": "3",
                "completion": "The answer is 4.", "reward": 1.0, "outcome": "stale"}]
    write_jsonl(tmp_path / "samples_base_gsm8k.jsonl", samples)
    meta = {"model": "m", "adapter": None, "runs": ["base"], "settings": {"num_samples": 1}}
    finish_results(tmp_path, meta, ["gsm8k"], {})
    results = rescore(tmp_path)
    m = results["metrics"]["base"]["gsm8k"]
    assert m["accuracy"]["value"] == 0.5 and m["format_rate"]["value"] == 0.5
    assert m["no_answer_rate"]["value"] == 0.5
    assert results["tracker"] == {"cross_eval/base_on_gsm8k": 0.5}
    assert main(["eval", "--rescore", str(tmp_path)]) == 0
    assert "| gsm8k | accuracy | 0.500" in capsys.readouterr().out
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["tasks"]["gsm8k"]["version"] == 1


def test_paired_results_table(tmp_path):
    base = [{"id": i, "sample": 0, "expected_answer": "x", "is_unanswerable": False,
             "completion": "no", "reward": None, "outcome": ""} for i in range(4)]
    trained = [{**r, "completion": "x"} for r in base]
    write_jsonl(tmp_path / "samples_base_selfaware.jsonl", base)
    write_jsonl(tmp_path / "samples_run_selfaware.jsonl", trained)
    write_json(tmp_path / "results.json", {"meta": {"model": "m", "adapter": "a",
               "runs": ["base", "run"], "settings": {"num_samples": 1}},
               "tasks": {"selfaware": {}}, "skipped": {}})
    results = rescore(tmp_path)
    d = results["differences"]["selfaware"]
    # every answer goes from wrong (-1) to correct (+1): difference 2 on each question
    assert d["reward"]["mean_difference"] == 2.0 and d["primary_difference"] == 2.0
    assert results["tracker"]["cross_eval/run_on_selfaware"] == 1.0
    assert (tmp_path / "results.md").read_text().count("| selfaware |") == 1


def test_eval_cli_errors(capsys):
    from rlvr.cli import main

    assert main(["eval", "--tasks", "nope"]) == 2
    assert "unknown task 'nope'" in capsys.readouterr().err
    assert main(["eval"]) == 2
    assert main(["eval", "--tasks", "gsm8k", "--num-fewshot", "3"]) == 2
