"""Data loaders (messages JSONL, SelfAware JSON), the split builder and the built-in set."""

from __future__ import annotations

import itertools
import json

import pytest

from rlvr.data.builtin import builtin_examples, builtin_splits
from rlvr.data.messages import LoadReport, load_messages_jsonl
from rlvr.tasks.resolve import resolve_data
from rlvr.data.selfaware import (IDK_PHRASINGS, SYSTEM_PROMPT, build_selfaware_splits,
                                 load_selfaware_json)
from rlvr.errors import DataError
from rlvr.rewards.abstention_detection import is_abstention


def row(user="What is 2 + 2?", assistant="4", system=SYSTEM_PROMPT, **extra):
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user},
                {"role": "assistant", "content": assistant}]
    return {"messages": messages, **extra}


def write(tmp_path, lines, name="data.jsonl"):
    path = tmp_path / name
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n")
    return path


# ---------- messages loader ----------

def test_messages_loader_fields(tmp_path):
    path = write(tmp_path, [row(), row("Who wins in 2050?", "I don't know."),
                            row("Q?", "Maybe", is_unanswerable=True)])
    ex = load_messages_jsonl(path)
    assert ex[0]["prompt"] == [{"role": "system", "content": SYSTEM_PROMPT},
                               {"role": "user", "content": "What is 2 + 2?"}]
    assert ex[0]["expected_answer"] == "4" and ex[0]["is_unanswerable"] is False
    assert ex[1]["is_unanswerable"] is True  # inferred from the abstention pattern
    assert ex[2]["is_unanswerable"] is True  # explicit field wins over the text


@pytest.mark.parametrize("bad,message", [
    ("{not json", "invalid JSON"),
    (json.dumps({"messages": [{"role": "user", "content": "Q?"}]}), "missing the 'assistant'"),
    (json.dumps({"messages": [{"role": "assistant", "content": "A"}]}), "missing the 'user'"),
    (json.dumps(row(user="   ")), "empty question"),
    (json.dumps(row(assistant="")), "empty answer"),
    (json.dumps({"text": "hi"}), "missing 'messages'"),
    (json.dumps(row(is_unanswerable="yes")), "must be true or false"),
    (json.dumps([1, 2]), "expected a JSON object"),
])
def test_messages_loader_bad_rows_name_file_and_line(tmp_path, bad, message):
    path = write(tmp_path, [row(), bad])
    with pytest.raises(DataError, match=message) as info:
        load_messages_jsonl(path)
    assert info.value.line == 2 and info.value.path == str(path)
    assert str(info.value).startswith(f"{path}:2: ")


def test_messages_loader_skips_bad_rows_with_count(tmp_path):
    path = write(tmp_path, [row(), "{oops", json.dumps(row(user="")), row("Q2?", "A2")])
    report = LoadReport(str(path))
    ex = load_messages_jsonl(path, skip_bad_rows=True, report=report)
    assert len(ex) == 2 and report.kept == 2 and len(report.skipped) == 2
    assert ":2:" in report.skipped[0] and ":3:" in report.skipped[1]


def test_messages_loader_missing_file(tmp_path):
    with pytest.raises(DataError, match="not found"):
        load_messages_jsonl(tmp_path / "nope.jsonl")


# ---------- SelfAware loader ----------

def test_selfaware_loader_real_file(selfaware_json):
    ex = load_selfaware_json(selfaware_json)
    assert len(ex) == 3369
    assert sum(e["is_unanswerable"] for e in ex) == 1032
    first = ex[0]
    assert first["answers"] == ["song"] and first["is_unanswerable"] is False


@pytest.mark.parametrize("bad,message", [
    ({"question": "", "answer": None, "answerable": False}, "empty or missing 'question'"),
    ({"question": "Q?", "answer": ["a"], "answerable": "yes"}, "'answerable' must be"),
    ({"question": "Q?", "answer": None, "answerable": True}, "answerable question with no answer"),
    ({"question": "Q?", "answer": ["a", 7], "answerable": True}, "'answer' must be a list of"),
    ({"question": "Q?", "answer": {"a": 1}, "answerable": True}, "'answer' must be a list of"),
])
def test_selfaware_loader_bad_rows(tmp_path, bad, message):
    good = {"question_id": 1, "question": "Q?", "answer": ["a"], "answerable": True}
    path = tmp_path / "sa.json"
    path.write_text(json.dumps({"example": [good, bad]}))
    with pytest.raises(DataError, match=message) as info:
        load_selfaware_json(path)
    assert "example #2" in str(info.value) and str(path) in str(info.value)


def test_selfaware_loader_wrong_shape(tmp_path):
    path = tmp_path / "sa.json"
    path.write_text("[1, 2]")
    with pytest.raises(DataError, match="'example' list"):
        load_selfaware_json(path)


# ---------- split builder ----------

@pytest.fixture(scope="module")
def selfaware_examples(selfaware_json):
    return load_selfaware_json(selfaware_json)


# (variant, {split: (rows, unanswerable)}); v2: round(2198 * 0.05) = 110 unanswerable,
# v3: round(2198 * 0.026) = 57. v1 test = 3369 - 3032 = 337 with 1032 - 944 = 88 unanswerable.
# v2 valid/test hold the 2337 - (2198 - 110) = 249 answerable left, split 125/124.
# v3: 2337 - (2198 - 57) = 196 answerable left, split 98/98.
SIZES = [
    ("v1", {"train": (3032, 944), "test": (337, 88)}),
    ("v2", {"train": (2198, 110), "valid": (337, 337 - 125), "test": (337, 337 - 124)}),
    ("v3", {"train": (2198, 57), "valid": (337, 337 - 98), "test": (337, 337 - 98)}),
]


@pytest.mark.parametrize("variant,sizes", SIZES)
def test_builder_counts_and_no_leakage(selfaware_examples, variant, sizes):
    splits = build_selfaware_splits(selfaware_examples, variant, seed=7)
    got = {k: (len(v), sum(r["is_unanswerable"] for r in v)) for k, v in splits.items()}
    assert got == sizes
    questions = {k: {" ".join(r["messages"][1]["content"].lower().split()) for r in v}
                 for k, v in splits.items()}
    for a, b in itertools.combinations(questions, 2):
        assert not questions[a] & questions[b], f"{a} and {b} share questions"
    for rows in splits.values():
        assert all(r["messages"][0]["content"] == SYSTEM_PROMPT for r in rows)


def test_builder_is_deterministic_and_seeded(selfaware_examples):
    a = build_selfaware_splits(selfaware_examples, "v3", seed=1)
    b = build_selfaware_splits(selfaware_examples, "v3", seed=1)
    c = build_selfaware_splits(selfaware_examples, "v3", seed=2)
    assert a == b
    assert [r["id"] for r in a["test"]] != [r["id"] for r in c["test"]]


def test_v3_uses_twenty_phrasings_all_detected(selfaware_examples):
    assert len(set(IDK_PHRASINGS)) == 20
    assert all(is_abstention(p) for p in IDK_PHRASINGS)
    train = build_selfaware_splits(selfaware_examples, "v3", seed=0)["train"]
    answers = {r["messages"][2]["content"] for r in train if r["is_unanswerable"]}
    assert answers == set(IDK_PHRASINGS)


def test_builder_cli_writes_files(selfaware_json, tmp_path, capsys):
    from rlvr.cli import main

    assert main(["data", "selfaware", "--source", str(selfaware_json), "--variant", "v2",
                 "--output-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "train.jsonl: 2198 rows, 110 unanswerable (5.0%)" in out
    assert len(load_messages_jsonl(tmp_path / "valid.jsonl")) == 337


# ---------- built-in dataset and data resolution ----------

def test_builtin_dataset():
    ex = builtin_examples()
    assert len(ex) >= 300
    assert len({e["question"] for e in ex}) == len(ex)
    n_unans = sum(e["is_unanswerable"] for e in ex)
    assert 100 <= n_unans <= len(ex) - 100
    splits = builtin_splits()
    assert builtin_splits() == splits
    assert not ({r["messages"][1]["content"] for r in splits["train"]}
                & {r["messages"][1]["content"] for r in splits["test"]})


def test_resolve_data_forms(tmp_path, selfaware_json):
    built_in = resolve_data(None)
    assert len(built_in.train) + len(built_in.heldout) >= 300
    sa = resolve_data(str(selfaware_json), variant="v3", seed=3)
    assert (len(sa.train), len(sa.heldout)) == (2198, 337)
    single = write(tmp_path, [row(f"Q{i}?", str(i)) for i in range(20)])
    one = resolve_data(str(single))
    assert (len(one.train), len(one.heldout)) == (18, 2)
    folder = tmp_path / "splits"
    folder.mkdir()
    write(folder, [row()], "train.jsonl")
    with pytest.raises(DataError, match="no test.jsonl"):
        resolve_data(str(folder))
    with pytest.raises(DataError, match="does not exist"):
        resolve_data(str(tmp_path / "missing.jsonl"))


def test_atomic_writes_use_normal_permissions(tmp_path):
    import os
    import stat

    from rlvr.io import umask_mode, write_jsonl

    path = write_jsonl(tmp_path / "out.jsonl", [{"a": 1}])
    # mkstemp alone would leave 0600; the file gets what open() would give (0644 under umask 022)
    assert stat.S_IMODE(os.stat(path).st_mode) == umask_mode()


@pytest.mark.parametrize("completion, gold, outcome", [
    # misjudged in a main-job run: the right answer in words, or in the plural
    ("A dog has four legs.", "4", "correct"),
    ("Caterpillars turn into butterflies.", "butterfly", "correct"),
    ("A bicycle has two wheels.", "2", "correct"),
    ("A dog has five legs.", "4", "wrong"),
    ("There are 206 bones.", "206", "correct"),  # no word form above twelve
])
def test_builtin_answer_aliases(completion, gold, outcome):
    from rlvr.data.builtin import answer_aliases
    from rlvr.rewards import score_rows

    row = {"completion": completion, "expected_answer": answer_aliases(gold),
           "is_unanswerable": False}
    assert score_rows("selfaware", [row], "strict")[0].outcome == outcome


def test_heldout_rows_score_against_all_aliases():
    from rlvr.tasks.resolve import resolve_data
    from rlvr.tasks.heldout import heldout_rows

    rows = heldout_rows(resolve_data(None).heldout)
    assert any(r["expected_answer"] and len(r["expected_answer"]) == 2 for r in rows)
    assert all(r["expected_answer"] is None for r in rows if r["is_unanswerable"])


# ---------- every gold answer counts ----------

def test_selfaware_loader_keeps_every_answer(selfaware_json):
    """Question 4 lists 16 answers in the file; all of them reach the parsed rows, the
    `rlvr data selfaware` rows and `gold_answers`, in the file's order."""
    from rlvr.data.messages import gold_answers, parse_messages_row

    raw = json.loads(selfaware_json.read_text(encoding="utf-8"))["example"]
    file_answers = next(r["answer"] for r in raw if r["question_id"] == 4)
    assert len(file_answers) == 16 and "cryptozoology" in file_answers
    examples = load_selfaware_json(selfaware_json)
    assert sum(len(e["answers"]) > 1 for e in examples) == 768
    by_id = {e["id"]: e for e in examples}
    assert by_id[4]["answers"] == [a.strip() for a in file_answers]
    row = next(r for rows in build_selfaware_splits(examples, "v3").values() for r in rows
               if r["id"] == 4)
    assert row["answers"] == by_id[4]["answers"]
    assert row["messages"][2]["content"] == file_answers[0]  # the assistant text: one answer
    parsed = parse_messages_row(json.loads(json.dumps(row)), "v3.jsonl", 1)
    assert gold_answers(parsed) == by_id[4]["answers"]


def test_split_folder_keeps_every_answer(tmp_path, selfaware_json):
    """Files written by `rlvr data selfaware` and loaded back as a folder keep the list."""
    from rlvr.tasks.heldout import heldout_rows
    from rlvr.io import write_jsonl

    splits = build_selfaware_splits(load_selfaware_json(selfaware_json), "v3")
    for name, rows in splits.items():
        write_jsonl(tmp_path / f"{name}.jsonl", rows)
    rows = {r["id"]: r for r in heldout_rows(resolve_data(str(tmp_path)).heldout)}
    assert rows[272]["expected_answer"] == ["particular skills", "educational"]
    assert all(r["expected_answer"] is None for r in rows.values() if r["is_unanswerable"])


def test_rows_without_answers_still_score_their_assistant_text(tmp_path):
    """Old messages rows (no `answers`) keep working: the gold is the assistant text."""
    from rlvr.data.messages import gold_answers
    from rlvr.rewards import score_rows

    path = write(tmp_path, [row("What is the capital of France?", "Paris"),
                            row("Capital of Italy?", "Rome", answers=None),
                            row("Capital of Peru?", "Lima", answers="Lima"),
                            row("Who wins in 2050?", "I don't know.")])
    ex = load_messages_jsonl(path)
    assert [gold_answers(e) for e in ex] == [["Paris"], ["Rome"], ["Lima"], None]
    assert "answers" not in ex[0] and "answers" not in ex[1] and ex[2]["answers"] == ["Lima"]
    scored = score_rows("selfaware", [{**e, "completion": "Paris."} for e in ex[:1]], "strict")
    assert scored[0].outcome == "correct"


@pytest.mark.parametrize("answers", [[1, 2], {"a": "b"}, ["Paris", None]])
def test_messages_loader_rejects_bad_answers_field(tmp_path, answers):
    path = write(tmp_path, [row(), row(answers=answers)])
    with pytest.raises(DataError, match="'answers' must be a list of strings") as info:
        load_messages_jsonl(path)
    assert str(info.value).startswith(f"{path}:2: ") and "drop the field" in str(info.value)


def test_runs_of_different_seeds_share_their_held_out_rows(selfaware_json, tmp_path):
    """The split is the data's (`rlvr.data.selfaware.SPLIT_SEED`), not the run's: two seeds
    train on their own draws but answer the same held-out questions (a seed study compares
    them question by question), for SelfAware.json and for a single file's 10% held out."""
    import json as _json

    from rlvr.config import load_config
    from rlvr.train.data_prep import prepare_data

    single = tmp_path / "rows.jsonl"
    single.write_text("".join(_json.dumps({"question": f"What is {i} + 1?", "answer": str(i + 1)})
                              + "\n" for i in range(60)))
    for data in (str(selfaware_json), str(single)):
        held, trained = [], []
        for seed in (0, 1):
            cfg = load_config(None, {"data": data, "seed": seed, "train_limit": 30,
                                     "output_dir": str(tmp_path / f"run{seed}")})
            _, train, heldout = prepare_data(cfg)
            held.append([ex["question"] for ex in heldout])
            trained.append([ex["question"] for ex in train])
        assert held[0] == held[1], data
        assert trained[0] != trained[1], data  # the seed still draws the training rows
