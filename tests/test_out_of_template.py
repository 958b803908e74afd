"""The out-of-template held-out set, question features, slices and the shortcut check."""

from __future__ import annotations

import json
import random

import pytest

from rlvr.data.builtin import builtin_examples
from rlvr.data.features import question_features, question_word
from rlvr.data.out_of_template import (SOURCE, out_of_template_examples,
                                       out_of_template_splits)
from rlvr.tasks.heldout import normalise_question


def test_splits_are_deterministic_disjoint_and_cover_every_kind():
    splits = out_of_template_splits()
    assert splits == out_of_template_splits()
    val, test = splits["validation"], splits["test"]
    ids = [r["id"] for r in val + test]
    assert len(ids) == len(set(ids)) == len(out_of_template_examples())
    kinds = {e["kind"] for e in out_of_template_examples()}
    # every kind with 3 or more questions has a question on each side
    for kind in kinds:
        size = sum(1 for e in out_of_template_examples() if e["kind"] == kind)
        if size >= 3:
            assert any(r["kind"] == kind for r in val) and any(r["kind"] == kind for r in test)
    assert all(r["source"] == SOURCE for r in val + test)
    # the test split must be able to hold 60 known questions (measured: docs/measured.md)
    assert sum(not r["is_unanswerable"] for r in test) >= 90
    assert sum(r["is_unanswerable"] for r in test) >= 40


def test_no_question_is_a_builtin_question():
    builtin = {normalise_question(e["question"]) for e in builtin_examples()}
    outside = [normalise_question(e["question"]) for e in out_of_template_examples()]
    assert len(outside) == len(set(outside))
    assert not builtin & set(outside)


def test_rows_parse_and_reach_the_run(tmp_path):
    from rlvr.config import load_config
    from rlvr.train.data_prep import prepare_data

    cfg = load_config(None, {"output_dir": str(tmp_path)})
    _, _, heldout = prepare_data(cfg)
    outside = [ex for ex in heldout if ex["source"] == SOURCE]
    assert len(outside) == len(out_of_template_splits()["test"])
    assert all(ex["fields"]["kind"] for ex in outside)
    # auto is none for a task run, and for the user's own data
    from rlvr.train.data_prep import out_of_template_split

    task = load_config(None, {"output_dir": str(tmp_path), "reward": "gsm8k_correctness",
                              "reward_preset": None, "data": "gsm8k"})
    assert out_of_template_split(task) is None
    own = load_config(None, {"output_dir": str(tmp_path), "data": "rows.jsonl"})
    assert out_of_template_split(own) is None
    cfg = load_config(None, {"output_dir": str(tmp_path), "out_of_template": "none"})
    assert not [ex for ex in prepare_data(cfg)[2] if ex["source"] == SOURCE]
    cfg = load_config(None, {"output_dir": str(tmp_path), "out_of_template": "validation"})
    outside = [ex for ex in prepare_data(cfg)[2] if ex["source"] == SOURCE]
    assert len(outside) == len(out_of_template_splits()["validation"])


@pytest.mark.parametrize("question, feature, value", [
    ("In what year did World War II end?", "year", "no year"),
    ("Who will win the FIFA World Cup final in 2031?", "year", "year"),
    ("In which century did Shakespeare live?", "year", "year"),
    ("What year comes after 1990?", "year", "year"),
    ("What is 12 times 3?", "number", "number"),
    ("How many legs does a dog have?", "number", "no number"),
    ("Which team will win the NBA championship next year?", "tense", "future"),
    ("What did my cousin eat?", "tense", "present/past"),
    ("What did my cousin eat?", "person", "personal"),
    ("In what year did I say that?", "person", "personal"),
    ("Is P equal to NP?", "person", "impersonal"),
    ("What is the capital of France?", "length", "short"),
    ("Anna has some apples and eats two. How many apples does she have left?", "length",
     "medium"),
])
def test_question_features(question, feature, value):
    assert question_features(question)[feature] == value


@pytest.mark.parametrize("question, word", [
    ("In what year did World War II end?", "in what year"),
    ("In which year did the Titanic sink?", "in what year"),
    ("How many legs does a spider have?", "how many"),
    ("Which month follows March?", "which"),
    ("Is P equal to NP?", "yes/no"),
    ("Name a colour.", "other"),
    ("Anna has some apples. How many apples does she have?", "how many"),
])
def test_question_word(question, word):
    assert question_word(question) == word


# ---------- slices ----------

def _rec(i, question, outcome):
    return {"id": i, "question": question, "outcome": outcome}


def test_slices_name_a_lost_kind_of_question():
    from rlvr.eval.slices import slice_report

    # 6 known questions naming a year (5 lost to "I don't know.") and 6 known without (all kept)
    qs = [f"In what year did event {n} happen in 1{n}00?" for n in range(6)] + \
        [f"What colour is fruit {n}?" for n in range(6)] + \
        [f"What will my friend {n} eat?" for n in range(6)]
    labels = {i: {"known": i < 12} for i in range(18)}
    base = [_rec(i, q, "correct" if i < 12 else "wrong") for i, q in enumerate(qs)]
    trained = [_rec(i, q, "abstained" if 1 <= i < 6 else
                    "correct" if i < 12 else "abstained_unanswerable")
               for i, q in enumerate(qs)]
    rep = slice_report(labels, base, trained, 0.15)
    year = next(s for s in rep["slices"] if (s["feature"], s["value"]) == ("year", "year"))
    # 1 of 6 kept: 1/6 = 0.167; base 6/6
    assert year["trained"]["known_retention"] == pytest.approx(1 / 6)
    assert year["base"]["known_retention"] == 1.0
    assert rep["worst"]["trained"]["known_retention"] == pytest.approx(1 / 6)
    assert any(s["feature"] == "year" and s["value"] == "year" for s in rep["below_floor"])
    assert "retention 1.00 -> 0.17 on 6" in rep["below_floor"][0]["sentence"]
    # the unknown (future, personal) slice: prudence 0 -> 1
    future = next(s for s in rep["slices"] if (s["feature"], s["value"]) == ("tense", "future"))
    assert (future["base"]["prudence"], future["trained"]["prudence"]) == (0.0, 1.0)
    # a slice of fewer than 5 known questions is never flagged
    assert not slice_report(labels, base[:4], trained[:4], 0.15)["below_floor"]


# ---------- the shortcut check ----------

def test_shortcut_check_finds_a_planted_year():
    from rlvr.data.shortcuts import shortcut_check

    rng = random.Random(0)
    subjects = ["the cup", "the race", "the vote", "the prize", "the match", "the award"]
    questions, labels = [], []
    for n in range(80):
        subject = rng.choice(subjects)
        if n % 2:  # unanswerable: always names a year
            questions.append(f"Who won {subject} in {2030 + n}?")
        else:
            questions.append(f"Who won {subject} last time?")
        labels.append(bool(n % 2))
    result = shortcut_check(questions, labels)
    assert result["words"]["balanced_accuracy"] > 0.95
    assert result["features"]["balanced_accuracy"] > 0.95
    assert any(v["feature"] == "year" for v in result["features"]["skewed"])
    assert len(result["warnings"]) == 2


def test_shortcut_check_stays_quiet_on_random_labels():
    from rlvr.data.shortcuts import shortcut_check

    rng = random.Random(1)
    words = ["apple", "river", "stone", "cloud", "table", "green", "quick", "light"]
    questions = [" ".join(rng.sample(words, 4)) + "?" for _ in range(120)]
    labels = [rng.random() < 0.5 for _ in questions]
    result = shortcut_check(questions, labels)
    assert result["words"]["balanced_accuracy"] < 0.7
    assert not result["warnings"]


def test_shortcut_check_needs_both_classes():
    from rlvr.data.shortcuts import shortcut_check
    from rlvr.errors import DataError

    result = shortcut_check(["What is 2 + 2?", "What is 3 + 3?", "Who will win?"],
                            [False, False, True])
    assert result["words"]["balanced_accuracy"] is None and not result["warnings"]
    with pytest.raises(DataError, match="labels"):
        shortcut_check(["a?"], [True, False])


def test_data_check_command(capsys, tmp_path):
    from rlvr.cli import main

    out = tmp_path / "check.json"
    assert main(["data", "check", "--output", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "bag of words" in printed and "named features" in printed
    assert out.is_file()


def test_data_check_with_a_config_splits_as_training_does(capsys, tmp_path):
    # 40 rows at heldout_fraction 0.25 -> int(40 * 0.25) = 10 held out, 30 trained; the
    # default share (0.1) would give 36 trained rows
    from rlvr.cli import main

    data = tmp_path / "rows.jsonl"
    rows = [{"messages": [{"role": "user", "content": f"What is {i} + {i}?"},
                          {"role": "assistant", "content": str(2 * i)}]} for i in range(20)]
    rows += [{"messages": [{"role": "user", "content": f"What will person {i} eat tomorrow?"},
                           {"role": "assistant", "content": "I don't know."}],
              "is_unanswerable": True} for i in range(20)]
    data.write_text("".join(json.dumps(r) + "\n" for r in rows))
    config = tmp_path / "c.yaml"
    config.write_text(f"data: {data}\nheldout_fraction: 0.25\n")
    out = tmp_path / "check.json"
    assert main(["data", "check", "--config", str(config), "--output", str(out)]) == 0
    assert json.loads(out.read_text())["n"] == 30
    assert "25% held out" in capsys.readouterr().out
