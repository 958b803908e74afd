"""Answer-forced P(correct) and the decision report (`rlvr.eval.decision_rule`), without a real
model: a scripted generator for the numbers, the tiny random Llama for the real path."""

from __future__ import annotations

import pytest

from tiny_models import tiny_chat_llama

from rlvr.eval.decision_rule import (ANSWER_PREFIX, answer_forced_p_correct, answer_forced_records,
                                decision_report, decision_table, forced_prompts,
                                p_correct_from_records, task_values)
from rlvr.tasks.heldout import run_task

SYSTEM = {"role": "system", "content": "Answer briefly."}
ROWS = [
    {"id": "q1", "question": "What is the capital of France?", "expected_answer": ["Paris"],
     "is_unanswerable": False,
     "chat_prompt": [SYSTEM, {"role": "user", "content": "What is the capital of France?"}]},
    {"id": "q2", "question": "What is the capital of Italy?", "expected_answer": ["Rome"],
     "is_unanswerable": False,
     "chat_prompt": [SYSTEM, {"role": "user", "content": "What is the capital of Italy?"}]},
    {"id": "q3", "question": "Who will win in 2031?", "expected_answer": None,
     "is_unanswerable": True,
     "chat_prompt": [SYSTEM, {"role": "user", "content": "Who will win in 2031?"}]},
]


class ScriptedLM:
    """Stands in for a causal LM: `generate` returns the prompt followed by the scripted
    answers, the j-th returned sequence of each prompt getting ANSWERS[j % len]."""

    ANSWERS = [" Paris.", " Lyon.", " Paris.", " I don't know."]

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.prompts: list[str] = []

    def generate(self, input_ids, attention_mask, max_new_tokens, num_return_sequences,
                 pad_token_id, eos_token_id, **kwargs):
        import torch

        self.prompts += self.tokenizer.batch_decode(input_ids, skip_special_tokens=False)
        rows = []
        for prompt in input_ids.tolist():
            for j in range(num_return_sequences):
                text = self.ANSWERS[j % len(self.ANSWERS)]
                new = self.tokenizer(text, add_special_tokens=False)["input_ids"][:max_new_tokens]
                rows.append(prompt + new + [eos_token_id])
        width = max(map(len, rows))
        return torch.tensor([r + [pad_token_id] * (width - len(r)) for r in rows])


@pytest.fixture(scope="module")
def tiny():
    return tiny_chat_llama()


def test_forced_prompts_prefill_the_assistant_turn(tiny):
    _, tokenizer = tiny
    task = run_task("selfaware", "ternary")
    text = forced_prompts(tokenizer, task, ROWS[:1])[0]
    assert text == ("<|system|>Answer briefly.<eos><|user|>What is the capital of France?<eos>"
                    "<|assistant|>The answer is")


def test_p_correct_counts_correct_samples(tiny):
    _, tokenizer = tiny
    model = ScriptedLM(tokenizer)
    task = run_task("selfaware", "ternary", max_new_tokens=16)
    records = answer_forced_records(model, tokenizer, task, ROWS, num_samples=4, batch_size=2)
    # the unanswerable question is never sampled; every prompt ends with the prefix
    assert len(model.prompts) == 2 and all(p.endswith(ANSWER_PREFIX) for p in model.prompts)
    assert [r["completion"] for r in records[:4]] == [
        "The answer is Paris.", "The answer is Lyon.", "The answer is Paris.",
        "The answer is I don't know."]
    assert [r["outcome"] for r in records[:4]] == ["correct", "wrong", "correct", "abstained"]
    # q1 (Paris): 2 correct of 4 = 0.5; q2 (Rome): 0 of 4; q3 unanswerable: 0 by definition
    assert p_correct_from_records(ROWS, records) == {"q1": 0.5, "q2": 0.0, "q3": 0.0}
    # an id with no scored sample is left out
    unscored = [{**r, "reward": None} if r["id"] == "q2" else r for r in records]
    assert p_correct_from_records(ROWS, unscored) == {"q1": 0.5, "q3": 0.0}
    assert answer_forced_p_correct(ScriptedLM(tokenizer), tokenizer, task, ROWS,
                                   num_samples=4) == {"q1": 0.5, "q2": 0.0, "q3": 0.0}


def test_answer_forced_with_a_real_model_is_seeded(tiny):
    model, tokenizer = tiny
    model.eval()
    task = run_task("selfaware", "strict", max_new_tokens=4)
    first = answer_forced_records(model, tokenizer, task, ROWS, num_samples=2, seed=3)
    again = answer_forced_records(model, tokenizer, task, ROWS, num_samples=2, seed=3)
    other = answer_forced_records(model, tokenizer, task, ROWS, num_samples=2, seed=4)
    texts = [r["completion"] for r in first]
    assert len(first) == 4 and texts == [r["completion"] for r in again]
    assert texts != [r["completion"] for r in other]
    assert all(t.startswith(ANSWER_PREFIX) and r["num_tokens"] <= 4
               for t, r in zip(texts, first))
    p = answer_forced_p_correct(model, tokenizer, task, ROWS, num_samples=2, seed=3,
                                max_new_tokens=4)
    assert set(p) == {"q1", "q2", "q3"} and p["q3"] == 0.0
    assert all(v in (0.0, 0.5, 1.0) for v in p.values())
    with pytest.raises(ValueError, match="sampling"):
        answer_forced_records(model, tokenizer, task, ROWS, num_samples=2, temperature=0.0)


def _records(outcomes):
    return [{"id": qid, "sample": 0, "outcome": o, "reward": None if o == "no_gold" else 0.0}
            for qid, o in outcomes.items()]


def test_decision_report_and_table():
    task = run_task("selfaware", "ternary")
    values = task_values(task)
    rows = [{"id": f"q{i}", "is_unanswerable": i >= 4} for i in range(6)]
    p_base = {"q0": 0.75, "q1": 0.25, "q2": 0.5, "q3": 0.9, "q4": 0.0, "q5": 0.0}
    p_trained = {"q0": 0.75, "q1": 0.25, "q2": 0.5, "q3": 0.9, "q4": 0.0, "q5": 0.0}
    base = _records({"q0": "correct", "q1": "wrong", "q2": "abstained", "q3": "no_gold",
                     "q4": "answered_unanswerable", "q5": "abstained_unanswerable"})
    trained = _records({"q0": "correct", "q1": "abstained", "q2": "abstained",
                        "q3": "correct", "q4": "abstained_unanswerable",
                        "q5": "abstained_unanswerable"})
    report = decision_report(rows, base, trained, p_base, p_trained, values,
                             settings={"preset": "ternary", "num_samples": 4,
                                       "temperature": 1.0, "prefix": ANSWER_PREFIX})
    # ternary, p* = 0.5. base (q3 unscored, left out): q0 answer at 0.75 agrees; q1 answers
    # at 0.25 (regret 0 - -0.5 = 0.5); q2 abstains at 0.5 (tie: agrees); q4 answers an
    # unanswerable question (regret 1 - -1 = 2); q5 abstains: 3 of 5, regret 2.5 / 5 = 0.5
    assert report["p_star"] == 0.5 and report["unanswerable_preferred"] == "abstain"
    assert (report["base"]["n"], report["base"]["agree"]) == (5, 3)
    assert report["base"]["regret"] == pytest.approx(0.5)
    assert (report["base"]["answerable"]["agree"], report["base"]["answerable"]["n"]) == (2, 3)
    # trained: all 6 agree (q3 answers at 0.9: 0.8 > 0), regret 0
    assert (report["trained"]["n"], report["trained"]["agree"]) == (6, 6)
    assert report["trained"]["regret"] == 0.0
    # paired on the 5 questions both are judged on: agreement 3/5 -> 5/5 = +0.4, regret
    # 0.5 -> 0 = -0.5
    assert report["paired"]["n"] == 5
    assert report["paired"]["agreement"]["mean_difference"] == pytest.approx(0.4)
    assert report["paired"]["regret"]["mean_difference"] == pytest.approx(-0.5)
    assert report["questions"][1]["base_regret"] == pytest.approx(0.5)
    table = decision_table(report)
    assert "p* = 0.500" in table and "preset `ternary`" in table and "4 answer-forced" in table
    assert "| base | 5 | 0.600 (3/5) |" in table
    assert "| trained | 6 | 1.000 (6/6) |" in table
    assert "| trained - base (paired) | 5 | +0.400 |" in table
    import json

    json.dumps(report)  # JSON-ready for the run directory
