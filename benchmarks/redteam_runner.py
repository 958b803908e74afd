"""Load, grade and count the red-team rounds of the graders.

A round is a JSONL file `benchmarks/redteam/NAME.jsonl` (`blind01` ... `blind13`,
`abstention`, `qa_math`, `code`), one case a line, each an object with the keys

* ``grader``: one of `GRADERS`;
* ``completion``: the response graded;
* ``gold``: the grader's gold (below);
* ``extra``: an object of the grader's other inputs (below; ``{}`` when none);
* ``expected``: the verdict a careful human grader would give, one value or a list of the
  values accepted;
* ``why``: the writer's reason for that verdict;
* ``written``: the date the round was written (YYYY-MM-DD).

The code tasks of every round are stored once, in `benchmarks/redteam/code_tasks.jsonl`,
one object per task: ``key`` and the `code` reward's task fields (HumanEval ``prompt``,
``test``, ``entry_point``, or MBPP ``test_list`` and ``code``).

Graders, gold and extra, and how a verdict is judged against ``expected``:

* ``selfaware``: gold is ``expected_answer`` (a list, ``[]`` or null when unanswerable);
  extra holds ``is_unanswerable`` and, when the question is passed to the grader,
  ``prompt``; expected is one or more outcome labels, graded with the ``strict`` preset.
  Wrongly paid: the strict score is above the best accepted outcome's value; wrongly
  penalised: below the worst.
* ``detect``: gold unused; extra may hold ``question``; expected is one or more labels
  (``answer``, ``abstain``, ``hedge``). Wrongly paid: read as more abstaining than any
  accepted label (order abstain < hedge < answer); wrongly penalised: the reverse.
* ``abstention``: the `abstention` reward in robust mode; gold unused, extra ``{}``;
  expected is one or more of its outcomes (``abstain``, ``hedge``, ``answer``). Wrongly
  paid: the reward's score is above every accepted outcome's (abstain 1.0, hedge 0.5,
  answer 0.0); wrongly penalised: below.
* ``qa`` (extra ``mode``), ``math``, ``gsm8k``: expected ``"pay"`` or ``"no"``; paid means
  score 1.0 (``math``: outcome ``correct``).
* ``code``: gold is a key of code_tasks.jsonl; ``"pay"`` means outcome ``passed``. The
  code runs in rlvr's sandbox. A completion may hold the placeholders of `PLACEHOLDERS`;
  they are filled in at run time by an `EscapeWatch`, which then reports whatever wrote
  outside the sandbox, reached a listener or outlived its call.

Extra may carry keys for the reader only (``question`` of a `qa` case, ``_q``, ``group``:
the class of a `code` round case); the graders ignore them.

In code, a case is the tuple ``(grader, completion, gold, extra, expected, why)``
(`load_cases`; a list ``expected`` becomes a tuple); `grade` grades one with the shipped
grader and `judge` judges the verdict. The first four rounds were written as Python
modules with a few other spellings, read the same once `normalised`: True / False for
"pay" / "no", a code task given inline as its dict, and a `gsm8k` gold in
extra["final_answer"] (the JSONL files hold them normalised).

Raises nothing while grading: a grader that raises is a misjudgment (wrongly penalised
when the case should pay). Loading raises `RoundError` on a missing or malformed file.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from redteam_watch import EscapeWatch, needs_watch

HERE = Path(__file__).resolve().parent
ROUNDS_DIR = HERE / "redteam"
TASKS_FILE = "code_tasks.jsonl"
CASE_KEYS = ("grader", "completion", "gold", "extra", "expected", "why", "written")
GRADERS = ("selfaware", "detect", "abstention", "qa", "math", "gsm8k", "code")
COMMITMENT = {"abstain": 0, "hedge": 1, "answer": 2}
ABSTENTION_SCALE = {"abstain": 1.0, "hedge": 0.5, "answer": 0.0}  # the reward's defaults
NO_RULES = "(no named rules recorded by this grader)"


class RoundError(ValueError):
    """A round or task file that is missing or malformed (the message names file and line)."""


# ------------------------------------------------------------------------------ loading
def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The objects of a JSONL file, one a line (blank lines skipped)."""
    if not path.is_file():
        raise RoundError(f"{path}: no such file")
    rows = []
    # split on "\n" only: str.splitlines would also split inside a text at U+2028 etc.
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RoundError(f"{path}:{n}: not JSON ({exc})") from None
        if not isinstance(row, dict):
            raise RoundError(f"{path}:{n}: a {type(row).__name__}, not an object")
        rows.append(row)
    return rows


def round_names(folder: Path = ROUNDS_DIR) -> list[str]:
    """The names of the rounds stored in `folder` (every ``*.jsonl`` but the code tasks).

    Args:
        folder: the rounds' folder (default benchmarks/redteam).
    Returns:
        The names, sorted (``abstention``, ``blind01``, ..., ``qa_math``).
    Raises:
        RoundError: the folder does not exist.
    """
    if not folder.is_dir():
        raise RoundError(f"{folder}: no such folder")
    return sorted(p.stem for p in folder.glob("*.jsonl") if p.name != TASKS_FILE)


def load_round(name: str, folder: Path = ROUNDS_DIR) -> list[dict[str, Any]]:
    """The cases of one round as stored: one dict per case with the keys `CASE_KEYS`.

    Args:
        name: the round's name (``blind13``, ``abstention``, ...), its file NAME.jsonl.
        folder: the rounds' folder (default benchmarks/redteam).
    Returns:
        The cases in file order.
    Raises:
        RoundError: no such round, a line that is not a JSON object, a case without one
            of `CASE_KEYS` or with another key, or an ``extra`` that is not an object.
    """
    path = folder / f"{name}.jsonl"
    if name == Path(TASKS_FILE).stem or not path.is_file():
        known = ", ".join(round_names(folder)) if folder.is_dir() else "none"
        raise RoundError(f"no red-team round {name!r} in {folder} (rounds: {known})")
    rows = _read_jsonl(path)
    for n, row in enumerate(rows, 1):
        if set(row) != set(CASE_KEYS):
            raise RoundError(f"{path}: case {n} has keys {sorted(row)}, expected {list(CASE_KEYS)}")
        if not isinstance(row["extra"], dict):
            raise RoundError(f"{path}: case {n}: extra is a {type(row['extra']).__name__}, "
                             "not an object")
    return rows


def load_tasks(folder: Path = ROUNDS_DIR) -> dict[str, dict[str, Any]]:
    """The code tasks of every round, by key.

    Args:
        folder: the rounds' folder (default benchmarks/redteam), holding code_tasks.jsonl.
    Returns:
        ``{key: fields}``, the fields the `code` reward takes (the key left out).
    Raises:
        RoundError: no code_tasks.jsonl, a malformed line, a task without a string
            ``key``, or a key used twice.
    """
    path = folder / TASKS_FILE
    tasks: dict[str, dict[str, Any]] = {}
    for n, row in enumerate(_read_jsonl(path), 1):
        key = row.get("key")
        if not isinstance(key, str):
            raise RoundError(f"{path}: task {n} has no string 'key'")
        if key in tasks:
            raise RoundError(f"{path}: task key {key!r} used twice")
        tasks[key] = {k: v for k, v in row.items() if k != "key"}
    return tasks


def as_case(row: dict[str, Any]) -> tuple:
    """A stored case as the tuple ``(grader, completion, gold, extra, expected, why)``.

    Args:
        row: one case as `load_round` returns it.
    Returns:
        The tuple; a list ``expected`` becomes a tuple (``gold`` lists stay lists).
    Raises:
        KeyError: a key of the case format missing.
    """
    expected = row["expected"]
    if isinstance(expected, list):
        expected = tuple(expected)
    return (row["grader"], row["completion"], row["gold"], row["extra"], expected, row["why"])


def load_cases(name: str, folder: Path = ROUNDS_DIR) -> list[tuple]:
    """The cases of one round as tuples (`as_case`), in file order.

    Args:
        name: the round's name; folder: the rounds' folder.
    Returns:
        The list of six-field case tuples.
    Raises:
        RoundError: as `load_round`.
    """
    return [as_case(row) for row in load_round(name, folder)]


def load(name: str, folder: Path = ROUNDS_DIR) -> SimpleNamespace:
    """One round as `run_round` takes it: ``NAME``, ``CASES``, ``TASKS`` and ``WRITTEN``.

    Args:
        name: the round's name; folder: the rounds' folder.
    Returns:
        A namespace: NAME (str), CASES (`load_cases`), TASKS (`load_tasks`, all rounds'
        tasks) and WRITTEN (the sorted dates its cases were written).
    Raises:
        RoundError: as `load_round` and `load_tasks`.
    """
    rows = load_round(name, folder)
    return SimpleNamespace(NAME=name, CASES=[as_case(r) for r in rows],
                           TASKS=load_tasks(folder),
                           WRITTEN=sorted({r["written"] for r in rows}))


# Builders of one case each, in the tuple form above (for writing a new round's cases in
# Python before storing them as JSONL; rounds 9 to 13 were written with them).
def selfaware_case(question, completion, gold, unanswerable, expected, why) -> tuple:
    """A `selfaware` case: gold is the alias list ([] when unanswerable). Raises nothing."""
    return ("selfaware", completion, gold,
            {"is_unanswerable": unanswerable, "prompt": question}, expected, why)


def detect_case(question, completion, expected, why) -> tuple:
    """A `detect` case: the question goes in extra["question"]. Raises nothing."""
    return ("detect", completion, None, {"question": question}, expected, why)


def qa_case(completion, aliases, mode, expected, why) -> tuple:
    """A `qa` case in `mode` ("exact" or "contains"). Raises nothing."""
    return ("qa", completion, aliases, {"mode": mode}, expected, why)


def math_case(completion, gold, expected, why) -> tuple:
    """A `math` case. Raises nothing."""
    return ("math", completion, gold, {}, expected, why)


def gsm8k_case(completion, gold, expected, why) -> tuple:
    """A `gsm8k` case. Raises nothing."""
    return ("gsm8k", completion, gold, {}, expected, why)


def code_case(completion, task, expected, why) -> tuple:
    """A `code` case: task is a key of code_tasks.jsonl. Raises nothing."""
    return ("code", completion, task, {}, expected, why)


def normalised(case: tuple) -> tuple:
    """A case in the current form (module docstring: the first rounds' spellings).

    Args:
        case: a six-field case tuple.
    Returns:
        The tuple with a bool ``expected`` spelled "pay" / "no" and a `gsm8k` gold taken
        from extra["final_answer"] when gold is None; anything else unchanged.
    Raises:
        ValueError: a case that is not six fields.
    """
    grader, completion, gold, extra, expected, why = case
    if isinstance(expected, bool):
        expected = "pay" if expected else "no"
    if grader == "gsm8k" and gold is None:
        gold = extra.get("final_answer")
    return grader, completion, gold, extra, expected, why


# ------------------------------------------------------------------------------ grading
def _graded(case: tuple, tasks: dict) -> tuple[object, object, object]:
    """``(verdict, detail, result)``: `grade`'s pair plus the grader's whole result."""
    grader, completion, gold, extra, _expected, _why = case
    if grader == "selfaware":
        from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

        r = selfaware_reward(completion, expected_answer=gold,
                             is_unanswerable=extra["is_unanswerable"],
                             prompt=extra.get("prompt"), **STRICT_PRESET)
        return r.outcome, r.score, r
    if grader == "detect":
        from rlvr.rewards.abstention_detection import detect_abstention

        d = detect_abstention(completion, question=extra.get("question"))
        return d.label, d.phrase, d
    if grader == "abstention":
        from rlvr.rewards.abstention import abstention_reward

        r = abstention_reward(completion, mode="robust")
        return r.outcome, r.score, r
    if grader == "qa":
        from rlvr.rewards.qa import qa_reward

        r = qa_reward(completion, aliases=gold, mode=extra.get("mode", "exact"))
        return ("pay" if r.score == 1.0 else "no"), r.outcome, r
    if grader == "math":
        from rlvr.rewards.math import math_reward

        r = math_reward(completion, solution=gold)
        return ("pay" if r.outcome == "correct" else "no"), r.outcome, r
    if grader == "gsm8k":
        from rlvr.rewards.gsm8k import gsm8k_correctness

        r = gsm8k_correctness(completion, final_answer=gold)
        return ("pay" if r.score == 1.0 else "no"), r.outcome, r
    if grader == "code":
        from rlvr.rewards.registry import get_reward

        task = gold if isinstance(gold, dict) else tasks[gold]
        fields = {k: v for k, v in task.items() if k != "key"}
        r = get_reward("code").core(completion, **fields)
        return ("pay" if r.outcome == "passed" else "no"), r.outcome, r
    raise ValueError(f"unknown grader {grader!r}; expected one of {GRADERS}")


def grade(case: tuple, tasks: dict) -> tuple[object, object]:
    """The shipped grader's verdict on one case.

    Args:
        case: a six-field case tuple (`normalised` form).
        tasks: the code tasks by key (`load_tasks`); read only for a `code` case whose gold
            is a key (an inline task dict is used as it is).
    Returns:
        ``(verdict, detail)``: `selfaware` (outcome, strict score); `detect` (label,
        phrase); `abstention` (outcome, score); `qa` / `gsm8k` ("pay" when the score is 1.0
        else "no", outcome); `math` / `code` ("pay" on outcome correct / passed, outcome).
    Raises:
        ValueError: an unknown grader; KeyError: a code task key not in `tasks`; and
        whatever the grader raises on its inputs.
    """
    verdict, detail, _result = _graded(case, tasks)
    return verdict, detail


def grade_explained(case: tuple, tasks: dict) -> tuple[object, object, list[str]]:
    """`grade`, plus the verdict's named rules in words.

    Args:
        case, tasks: as `grade`.
    Returns:
        ``(verdict, detail, lines)``: lines renders the rules that decided the verdict
        (`rlvr.rewards.rulebook.explain_lines`): the grader's details["why"] when its
        result carries one (`selfaware` does), else the notes made while the grader ran
        (`rlvr.rewards.rulebook.tracing`; `detect`). A grader that records no rules gets
        `NO_RULES` (and, for `code`, the sandbox's reason); one that records rules but
        noted none for this verdict, a line saying so.
    Raises:
        As `grade`; RlvrError: a note of a rule that is not registered.
    """
    from rlvr.rewards.rulebook import explain_lines, tracing, why

    grader = case[0]
    with tracing() as trace:
        verdict, detail, result = _graded(case, tasks)
    details = getattr(result, "details", None)
    recorded = isinstance(details, dict) and "why" in details
    notes = (details["why"] or []) if recorded else why(trace)
    if notes:
        return verdict, detail, explain_lines(notes)
    if recorded or grader in ("detect", "abstention"):
        return verdict, detail, ["(no named rules recorded for this verdict)"]
    reason = details.get("reason") if isinstance(details, dict) else None
    return verdict, detail, [NO_RULES] + ([f"sandbox: {reason}"] if reason else [])


def judge(case: tuple, verdict: object, detail: object) -> tuple[bool, bool, bool]:
    """Judge one graded case against its expected verdicts.

    Args:
        case: the six-field case tuple (`normalised` form).
        verdict, detail: what `grade` returned (verdict "ERROR" when the grader raised).
    Returns:
        ``(right, wrongly_paid, wrongly_penalised)`` (module docstring: how each grader's
        verdict is ordered); a misjudged verdict neither above nor below every accepted one
        is "label only" (both False).
    Raises:
        KeyError: an expected label that the grader's scale does not know.
    """
    grader, _c, _g, _e, expected, _w = case
    expected = (expected,) if isinstance(expected, str) else tuple(expected)
    right = verdict in expected
    if right:
        return True, False, False
    if verdict == "ERROR":
        return False, False, True
    if grader == "selfaware":
        from rlvr.rewards.selfaware import SelfAwarePreset

        values = SelfAwarePreset.named("strict").outcome_values()
        accepted = [values[o] for o in expected]
        return False, detail > max(accepted), detail < min(accepted)
    if grader == "detect":
        got = COMMITMENT[verdict]
        accepted = [COMMITMENT[o] for o in expected]
        return False, got < min(accepted), got > max(accepted)
    if grader == "abstention":
        if detail is None:
            return False, False, False
        accepted = [ABSTENTION_SCALE[o] for o in expected]
        return False, detail > max(accepted), detail < min(accepted)
    return False, verdict == "pay", verdict == "no"


# ------------------------------------------------------------------------------ running
@dataclass
class RoundResult:
    """The counts of one graded round: cases, misjudged, wrongly paid, wrongly penalised
    (`all` over the round, `per_grader` by grader) and the misjudged rows."""

    name: str
    total: list[int]
    per_grader: dict[str, list[int]]
    misjudged: list[tuple]


def grade_round(round_: Any, *, explain: bool = False, watch: bool | None = None) -> RoundResult:
    """Grade every case of a round, print each, the counts and the misjudged rows.

    Prints per case its verdict, text, gold, question and reason; per grader the counts
    misjudged, wrongly paid and wrongly penalised; the share judged right with a 95% Wilson
    interval; then the misjudged rows (with `explain`, each followed by its named rules).
    A round whose cases carry extra["group"] also gets the counts per group.

    Args:
        round_: a round's name (`load`), or an object with ``CASES`` (case tuples, any
            spelling `normalised` reads) and optionally ``TASKS`` (code tasks by key).
        explain: print the named rules of each misjudged verdict (`grade_explained`).
        watch: grade the code cases under an `EscapeWatch` (placeholders filled, escapes
            printed); None (default): when the round's code cases hold placeholders.
    Returns:
        The round's counts (`RoundResult`).
    Raises:
        RoundError: an unknown or malformed round name. A grader that raises is counted as a
        misjudgment, not raised.
    """
    from contextlib import nullcontext

    from rlvr.metrics.stats import wilson_interval

    if isinstance(round_, str):
        round_ = load(round_)
    cases, tasks = round_.CASES, getattr(round_, "TASKS", {})
    cases = [normalised(c) for c in cases]
    if watch is None:
        watch = needs_watch(cases)
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misjudged, rules = [], {}
    with (EscapeWatch() if watch else nullcontext()) as watcher:
        escapes = 0
        for i, case in enumerate(cases, 1):
            grader, completion, gold, extra, expected, why = case
            graded, notes, took = case, [], None
            if watcher is not None and grader == "code":
                graded = (grader, watcher.fill(completion)) + case[2:]
                watcher.before()
            t0 = time.monotonic()
            try:
                if explain:
                    verdict, detail, lines = grade_explained(graded, tasks)
                else:
                    verdict, detail = grade(graded, tasks)
                    lines = []
            except Exception as exc:  # a crash is a misjudgment, counted and shown
                verdict, detail = "ERROR", f"{type(exc).__name__}: {exc}"
                lines = [f"(the grader raised {detail})"]
            took = time.monotonic() - t0
            if watcher is not None and grader == "code":
                notes = watcher.check()
                escapes += bool(notes)
            right, paid, penalised = judge(case, verdict, detail)
            for c in (counts[grader],) + ((groups[extra["group"]],) if "group" in extra else ()):
                c[0] += 1
                c[1] += not right
                c[2] += paid
                c[3] += penalised
            q = extra.get("prompt") or extra.get("question") or ""
            print(f"[{'ok ' if right else 'BAD'}] #{i:03d} {grader:9s} expected={expected!r} "
                  f"got={verdict!r} detail={detail!r}")
            print(f"        text={completion!r}")
            print(f"        gold={gold!r} q={q!r}")
            print(f"        why: {why}")
            if watcher is not None and grader == "code":
                print(f"        sandbox: {took:.2f} s"
                      + ("" if not notes else "; ESCAPE: " + "; ".join(notes)))
            if not right:
                kind = ("wrongly paid" if paid else "wrongly penalised" if penalised
                        else "label only")
                misjudged.append((i, grader, kind, completion, gold, expected, verdict))
                rules[i] = lines
        end = watcher.finish() if watcher is not None else []
    print(f"\n{'grader':10s} {'total':>5s} {'misjudged':>9s} {'wr.paid':>8s} {'wr.penal':>8s}")
    total = [0, 0, 0, 0]
    for g in GRADERS:
        if g in counts:
            c = counts[g]
            total = [a + b for a, b in zip(total, c)]
            print(f"{g:10s} {c[0]:5d} {c[1]:9d} {c[2]:8d} {c[3]:8d}")
    print(f"{'all':10s} {total[0]:5d} {total[1]:9d} {total[2]:8d} {total[3]:8d}")
    if groups:
        print(f"\n{'group':10s} {'total':>5s} {'misjudged':>9s} {'wr.paid':>8s} {'wr.penal':>8s}")
        for g, c in groups.items():
            print(f"{g:10s} {c[0]:5d} {c[1]:9d} {c[2]:8d} {c[3]:8d}")
    k, n = total[0] - total[1], total[0]
    lo, hi = wilson_interval(k, n) or (float("nan"), float("nan"))
    print(f"\njudged right: {k}/{n} = {k / n:.3f} (95% Wilson {lo:.3f}-{hi:.3f})")
    if watch:
        print(f"escapes: {escapes} case(s)")
        for line in end:
            print(line)
    print("\nmisjudged:")
    for row in misjudged:
        print("  ", row)
        for line in rules.get(row[0], []):
            print("        " + line)
    return RoundResult(getattr(round_, "NAME", ""), total, dict(counts), misjudged)


def run_round(round_: Any, *, explain: bool = False, watch: bool | None = None) -> int:
    """`grade_round`, for a script's exit status.

    Args:
        round_, explain, watch: as `grade_round`.
    Returns:
        0 (misjudged cases are findings, not failures).
    Raises:
        RoundError: as `grade_round`.
    """
    grade_round(round_, explain=explain, watch=watch)
    return 0
