"""The original SelfAware file (Yin et al., 2023) and the v1/v2/v3 training splits.

`SelfAware.json` holds 3,369 questions under the key `example`; each row has
`question_id`, `question`, `answer` (a list of strings, or null) and `answerable` (bool).

Variants (sizes follow the reference self-awareness project):

| variant | train                          | valid | test | unanswerable answer          |
|---------|--------------------------------|-------|------|------------------------------|
| v1      | 3,032 (944 unanswerable)       | -     | 337  | "I don't know."              |
| v2      | 2,198 (5.0% = 110 unanswerable)| 337   | 337  | "I don't know."              |
| v3      | 2,198 (2.6% = 57 unanswerable) | 337   | 337  | 20 different IDK phrasings   |

v1's test split is every question not in train (249 answerable, 88 unanswerable). v2 and v3 put most
answerable questions into train, so their valid/test splits hold the answerable rest
(split evenly) topped up with unanswerable questions to 337 rows. Questions that appear
twice in the file (same text after case and space folding) always land in one split.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

from rlvr.errors import DataError

SYSTEM_PROMPT = "You are a helpful assistant. Read the following carefully and provide your answer."
IDK_ANSWER = "I don't know."
# v3 answer phrasings; each contains one of the seed abstention patterns, so a loader
# that infers `is_unanswerable` from the answer text gets them right (tested).
IDK_PHRASINGS = (
    "I don't know.",
    "I do not know the answer to that.",
    "I cannot answer that with any certainty.",
    "I can't know that.",
    "I'm not able to answer this question.",
    "I am not able to give a reliable answer to that.",
    "I'm unable to answer that.",
    "I am unable to determine that.",
    "I'm uncertain, and there is no reliable answer.",
    "I am uncertain about this.",
    "I'm unsure, and I would rather not guess.",
    "I am unsure of the answer.",
    "I honestly don't know.",
    "I'm afraid I don't know.",
    "This is something I'm unable to answer.",
    "I'm not sure anyone can answer that.",
    "There is no definitive answer to this question.",
    "That is beyond my knowledge.",
    "That lies outside my knowledge.",
    "I don't know, and nobody can know that for certain.",
)
VARIANTS = {
    # name: (train size, unanswerable questions in train, eval split size or None when
    # the test split is simply every question left over, as in v1)
    "v1": (3032, 944, None),
    "v2": (2198, round(2198 * 0.050), 337),  # 110
    "v3": (2198, round(2198 * 0.026), 337),  # 57
}


def load_selfaware_json(path: str | Path) -> list[dict[str, Any]]:
    """Load the SelfAware rows.

    Returns:
        list of dicts with `id` (question_id), `question` (stripped), `answers` (every
        non-blank answer the row lists, stripped, in order; empty for unanswerable) and
        `is_unanswerable` (bool).
    Raises:
        DataError: missing file, invalid JSON, no `example` list, or a row without a
            question, with a non-bool `answerable`, with an `answer` that is not a list
            of strings or null, or answerable with no answer; the
            message names the file and the row's position (1-based) in `example`.
    """
    path = Path(path)
    if not path.is_file():
        raise DataError("SelfAware file not found; pass --source/--data with the path to "
                        "the SelfAware.json of the SelfAware repository (its `example` "
                        "list), or leave `data` unset to use the rows packaged with rlvr",
                        str(path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DataError(f"invalid JSON ({exc.msg})", str(path), exc.lineno) from None
    rows = data.get("example") if isinstance(data, dict) else None
    if not isinstance(rows, list):
        raise DataError("expected an object with an 'example' list of questions", str(path))
    out = []
    for index, row in enumerate(rows, start=1):
        where = f"{path} example #{index}"
        if not isinstance(row, dict):
            raise DataError(f"{where}: expected an object")
        question = str(row.get("question") or "").strip()
        if not question:
            raise DataError(f"{where}: empty or missing 'question'")
        answerable = row.get("answerable")
        if not isinstance(answerable, bool):
            raise DataError(f"{where}: 'answerable' must be true or false, got {answerable!r}")
        answers = row.get("answer") or []
        if isinstance(answers, str):
            answers = [answers]
        if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
            raise DataError(f"{where}: 'answer' must be a list of strings (every accepted "
                            f"answer) or null, got {row.get('answer')!r}; fix that row")
        answers = [a.strip() for a in answers if a.strip()]  # all kept, in the file's order
        if answerable and not answers:
            raise DataError(f"{where}: answerable question with no answer")
        out.append({"id": row.get("question_id", index), "question": question,
                    "answers": answers if answerable else [], "is_unanswerable": not answerable})
    return out


def to_messages_row(example: dict[str, Any], answer_text: str) -> dict[str, Any]:
    """Render one example in the seed messages format (system, user, assistant).

    The assistant message is `answer_text` (one answer); `answers` keeps every accepted
    answer of the example, which `rlvr.data.messages.gold_answers` hands to the reward."""
    return {
        "id": example["id"],
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": example["question"]},
            {"role": "assistant", "content": answer_text},
        ],
        "is_unanswerable": example["is_unanswerable"],
        "answers": example["answers"],
    }


def _groups(examples: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    by_text: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for ex in examples:
        by_text[" ".join(ex["question"].lower().split())].append(ex)
    return list(by_text.values())


def _take(groups: list[list[dict]], count: int) -> tuple[list[dict], list[list[dict]]]:
    """Take whole groups, in order, until exactly `count` rows; return (taken, rest)."""
    taken: list[dict] = []
    rest: list[list[dict]] = []
    for group in groups:
        if len(taken) + len(group) <= count:
            taken.extend(group)
        else:
            rest.append(group)
    if len(taken) != count:
        raise DataError(f"cannot take {count} questions: only {len(taken)} fit")
    return taken, rest


# The seed of the data splits every run uses, whatever its training seed (SelfAware's
# splits, the 10% held out of a single file): the split is the dataset's, not the run's
# (runs of several seeds must share held-out questions, and `rlvr eval --tasks selfaware`
# must not test on a run's training questions)
SPLIT_SEED = 42


def build_selfaware_splits(examples: list[dict[str, Any]], variant: str = "v3",
                           seed: int = SPLIT_SEED) -> dict[str, list[dict[str, Any]]]:
    """Split SelfAware examples into a variant's train/valid/test messages rows.

    Args:
        examples: rows from `load_selfaware_json`.
        variant: "v1", "v2" or "v3" (see module docstring).
        seed: shuffling seed; the same seed and input give the same splits.
    Returns:
        {"train": [...], "test": [...]} for v1, plus "valid" for v2/v3; rows in the
        messages format of `to_messages_row`.
    Raises:
        DataError: unknown variant, or too few questions for the variant's sizes.
    """
    if variant not in VARIANTS:
        raise DataError(f"unknown variant {variant!r}; choose one of {sorted(VARIANTS)}")
    train_size, train_unans, eval_size = VARIANTS[variant]
    rng = random.Random(seed)
    ans = _groups([e for e in examples if not e["is_unanswerable"]])
    unans = _groups([e for e in examples if e["is_unanswerable"]])
    rng.shuffle(ans)
    rng.shuffle(unans)
    train_u, unans = _take(unans, train_unans)
    train_a, ans = _take(ans, train_size - train_unans)
    splits = {"train": train_a + train_u}
    if eval_size is None:
        splits["test"] = [e for g in ans + unans for e in g]
    else:
        rest_ans = sum(map(len, ans))
        for name, n_a in (("valid", (rest_ans + 1) // 2), ("test", rest_ans // 2)):
            part_a, ans = _take(ans, min(n_a, eval_size))
            part_u, unans = _take(unans, eval_size - len(part_a))
            splits[name] = part_a + part_u
    phrasings = list(IDK_PHRASINGS)
    random.Random(seed + 1).shuffle(phrasings)
    used = 0
    out = {}
    for name, rows in splits.items():
        rows = sorted(rows, key=lambda e: str(e["id"]))
        random.Random(f"{seed}-{name}").shuffle(rows)
        rendered = []
        for ex in rows:
            if not ex["is_unanswerable"]:
                text = ex["answers"][0]
            elif variant == "v3":  # round-robin, so every phrasing is used
                text = phrasings[used % len(phrasings)]
                used += 1
            else:
                text = IDK_ANSWER
            rendered.append(to_messages_row(ex, text))
        out[name] = rendered
    return out
