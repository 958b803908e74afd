"""A training run's held-out self-awareness evaluation, shared by `rlvr train` and `rlvr eval`.

`rlvr train` writes two files into the run directory before it trains:
- `heldout.jsonl`: the held-out rows exactly as evaluated (`id`, `question`,
  `expected_answer` = every accepted answer as a list (`rlvr.data.messages.gold_answers`;
  null when unanswerable), `is_unanswerable`, `chat_prompt` = the training prompt with
  the run's system prompt); files of earlier runs may hold one answer as a string, which
  the reward still accepts;
- `train_questions.json`: the training questions (normalised text).

`rlvr eval --tasks selfaware --adapter RUN/adapter` finds them next to the adapter
(`rlvr.eval.saved_run.find_run`) and evaluates on the run's own held-out rows with the run's prompt and reward settings, through
the same runner (`rlvr.eval.runner.generate_task_records`). Any evaluation whose questions
overlap the run's training questions is refused with the count.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from pathlib import Path
from typing import Any, Iterable, Sequence

from rlvr.data.messages import gold_answers  # noqa: F401 (re-exported; was defined here)
from rlvr.errors import DataError
from rlvr.tasks.registry import EvalTask, get_task
from rlvr.io import write_json, write_jsonl

HELDOUT_FILE = "heldout.jsonl"
TRAIN_QUESTIONS_FILE = "train_questions.json"


def normalise_question(text: str) -> str:
    """Question text for overlap checks: NFKC, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text or "").casefold().split())


def run_task(reward: str = "selfaware", preset: str | None = None,
             params: dict | None = None, max_new_tokens: int | None = None,
             name: str | None = None) -> EvalTask:
    """The eval task of a run's held-out rows: the `selfaware` task's prompt rendering
    with the run's reward settings and token cap, named `name` (the run's task, e.g. a
    user's data name; default `selfaware`), so progress bars and records say what ran."""
    base = get_task("selfaware")
    return dataclasses.replace(base, name=name or base.name, reward=reward,
                               reward_preset=preset, reward_params=dict(params or {}),
                               max_new_tokens=max_new_tokens or base.max_new_tokens)


def heldout_rows(examples: Sequence[dict[str, Any]],
                 with_fields: bool = False) -> list[dict[str, Any]]:
    """Eval rows from parsed training examples (see `rlvr.data.messages`), prompts kept;
    `expected_answer` is the example's `gold_answers` list (None when unanswerable). With
    `with_fields` (a task run), each row also carries the example's reward fields
    (`fields`: final_answer, solution, test_list, ...), which its rewards read."""
    return [{**(dict(ex.get("fields") or {}) if with_fields else {}),
             "id": ex.get("id", i), "question": ex["question"],
             "expected_answer": gold_answers(ex),
             "is_unanswerable": ex["is_unanswerable"], "chat_prompt": ex["prompt"],
             **({"source": ex["source"]} if "source" in ex else {}),
             **({"kind": ex["fields"]["kind"]} if "kind" in (ex.get("fields") or {}) else {})}
            for i, ex in enumerate(examples)]


EVAL_OVERLAP_FIX = ("evaluate on the run's held-out rows (omit --task-path selfaware=...) or on "
                    "data the run did not train on")


def check_overlap(rows: Iterable[dict[str, Any]], train_questions: set[str], source: str,
                  fix: str = EVAL_OVERLAP_FIX) -> None:
    """Refuse an evaluation that asks questions the run trained on.

    Args:
        fix: what the user should do, ending the message (default: the `rlvr eval` fix).
    Raises:
        DataError: naming how many of the evaluation questions are training questions.
    """
    rows = list(rows)
    shared = [r for r in rows if normalise_question(r.get("question", "")) in train_questions]
    if shared:
        raise DataError(
            f"{len(shared)} of {len(rows)} evaluation questions are training questions of the "
            f"run (e.g. {shared[0].get('question')!r}); {fix}", source)


def write_run_data(run_dir: str | Path, train: Sequence[dict], heldout: Sequence[dict],
                   with_fields: bool = False) -> None:
    """Write `heldout.jsonl` (`heldout_rows`, reward fields kept `with_fields`) and
    `train_questions.json` into a run directory."""
    run_dir = Path(run_dir)
    write_jsonl(run_dir / HELDOUT_FILE, heldout_rows(heldout, with_fields))
    write_json(run_dir / TRAIN_QUESTIONS_FILE,
               sorted({normalise_question(ex["question"]) for ex in train}))


