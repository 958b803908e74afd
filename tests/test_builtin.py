"""The built-in self-awareness set (rlvr.data.builtin): its three batches and their split."""

from __future__ import annotations

import hashlib

import pytest

from rlvr.data.builtin import _operands, builtin_examples, builtin_splits
from rlvr.tasks.heldout import normalise_question

FIRST_BATCH = 367  # builtin-0 .. builtin-366: the set of rlvr 0.2
FIRST_TEST_IDS = "40cf6f6ba2707108"  # sha256 of the ids of rlvr 0.2's held-out split
SECOND_TEST_IDS = "c20674bb0c1602d8"  # sha256 of the ids before the change


def _digest(rows, first_batch_only=True):
    """sha256 of the sorted "id:question" lines of messages rows (first batch only)."""
    lines = sorted(f"{r['id']}:{r['messages'][1]['content']}" for r in rows
                   if not first_batch_only or int(r["id"].split("-")[1]) < FIRST_BATCH)
    return len(lines), hashlib.sha256("\n".join(lines).encode()).hexdigest()


def test_first_batch_keeps_its_ids_and_sides():
    """Growing the set must not move a question of the rlvr 0.2 set to the other side, or
    runs before and after could not be compared. The ids on each side are rlvr 0.2's
    (`builtin_splits()` at git 2931d11: 73 held-out and 294 training questions); since the
    third batch the 48 future events ask "in ten years" instead of naming a year (same
    places, so the same sides), which changed the text digests below."""
    splits = builtin_splits()
    test_ids = sorted(int(r["id"].split("-")[1]) for r in splits["test"])
    first = [i for i in test_ids if i < FIRST_BATCH]
    assert len(first) == 73
    assert hashlib.sha256(str(first).encode()).hexdigest()[:16] == FIRST_TEST_IDS
    assert _digest(splits["test"]) == (
        73, "0245a62ef1e92c2204db94dc3466c474c6c50a965ddc29a80aceae192dc9e986")
    assert _digest(splits["train"]) == (
        294, "5661e2939aac89f1d6fe9de3cb0b5457996eb072aae62eb9b32099a3056c0be4")


def test_counts_and_unanswerable_share():
    ex = builtin_examples()
    first, second, third = ex[:FIRST_BATCH], ex[FIRST_BATCH:739], ex[739:]
    # first batch: 240 answerable + 127 unanswerable; the second batch: 246 + 8 x 6 + 7 x 6 + 6 x 6
    assert (len(first), sum(e["is_unanswerable"] for e in first)) == (367, 127)
    assert (len(second), sum(e["is_unanswerable"] for e in second)) == (372, 126)
    # the third: 5 year templates x 10 years + 8 + 6 + 12 + 12 + 7 + 12 + 6 Olympics = 113
    # answerable, 6 events + 6 dinners + 6 animals + 6 lunches = 24 unanswerable
    assert (len(third), sum(e["is_unanswerable"] for e in third)) == (137, 24)
    # 127 + 126 + 24 = 277 of 739 + 137 = 876 (31.6%)
    assert sum(e["is_unanswerable"] for e in ex) / len(ex) == pytest.approx(277 / 876)
    assert [e["id"] for e in ex] == [f"builtin-{n}" for n in range(876)]
    splits = builtin_splits()
    # per batch, round(0.2 x group): 48 + 25 (first) + 49 + 25 (second) + 23 + 5 (third) = 175
    assert len(splits["test"]) == 175 and sum(r["is_unanswerable"] for r in splits["test"]) == 55
    assert len(splits["train"]) == 701


def test_second_batch_keeps_its_ids_and_sides():
    """The second batch's future events lost their years (same count, same ids), so every
    question kept its side: the ids on each side are those of the set before the change."""
    splits = builtin_splits()
    test_ids = sorted(int(r["id"].split("-")[1]) for r in splits["test"])
    second = [i for i in test_ids if FIRST_BATCH <= i < 739]
    assert len(second) == 74
    assert hashlib.sha256(str(second).encode()).hexdigest()[:16] == SECOND_TEST_IDS


def test_no_unanswerable_question_names_a_year():
    """The confound found on trained policies: 86 of 203 unanswerable training questions named
    a year and 5 of 389 answerable ones, and with `train_answerable: known` the default model
    answers almost no question that names a year, so only unanswerable ones stayed. Now no
    unanswerable question names a year, and answerable ones do."""
    from rlvr.data.features import question_features

    ex = builtin_examples()
    year = [e["is_unanswerable"] for e in ex if question_features(e["question"])["year"] == "year"]
    assert len(year) >= 50 and not any(year)


def test_no_question_twice_and_none_on_both_sides():
    ex = builtin_examples()
    # a sum or product counts once whatever the order of its operands ("3 + 4" = "4 + 3");
    # the first batch already held 4 such pairs (e.g. "4 times 5" and "5 times 4"), left
    # as they were so its split does not move; the second batch adds none
    first = [_operands(e["question"]) for e in ex[:FIRST_BATCH]]
    second = [_operands(e["question"]) for e in ex[FIRST_BATCH:]]
    assert len(set(second)) == len(second) and not set(second) & set(first)
    assert len(first) - len(set(first)) == 4
    splits = builtin_splits()
    sides = [{normalise_question(r["messages"][1]["content"]) for r in splits[s]}
             for s in ("train", "test")]
    assert not sides[0] & sides[1]


@pytest.mark.parametrize("question, expected", [
    ("What is 4 + 3?", ("+", 3, 4)), ("What is 12 times 2?", ("times", 2, 12)),
    ("What is 9 - 4?", "What is 9 - 4?"),   # differences are not reordered
    ("What is the opposite of big?", "What is the opposite of big?"),
])
def test_operands(question, expected):
    assert _operands(question) == expected


@pytest.mark.parametrize("completion, gold, outcome", [
    # the default model's answers when the second batch was measured
    ("Egypt is located on the African continent.", "Africa", "correct"),
    ("Poland is a European country.", "Europe", "correct"),
    ("Chile is located on the South American continent.", "South America", "correct"),
    ("The Chinese currency is the renminbi.", "yuan", "correct"),
    ("The official language of Iran is Farsi.", "Persian", "correct"),  # a trained model's
    ("Nigeria is a continent.", "Africa", "wrong"),
])
def test_other_names_of_an_answer(completion, gold, outcome):
    from rlvr.data.builtin import answer_aliases
    from rlvr.rewards import score_rows

    row = {"completion": completion, "expected_answer": answer_aliases(gold),
           "is_unanswerable": False}
    assert score_rows("selfaware", [row], "strict")[0].outcome == outcome
