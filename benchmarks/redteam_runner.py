"""Grade and count a blind red-team round of the graders.

A round is a module with a list ``CASES`` (and, for code cases, a dict ``TASKS``); this
module grades each case once with the shipped graders, judges the verdict against the
case's accepted verdicts, and prints per grader the count misjudged, wrongly paid and
wrongly penalised, with a 95% Wilson interval on the share judged right.

A case is ``(grader, completion, gold, extra, expected, why)``:

* ``selfaware``: gold is ``expected_answer`` (a list, ``[]`` when unanswerable); extra
  holds ``is_unanswerable`` and ``prompt`` (the question, passed to the grader); expected
  is a tuple of acceptable outcome labels, graded with the ``strict`` preset. Wrongly
  paid: the strict score is above the best accepted outcome's value; wrongly penalised:
  below the worst.
* ``detect``: gold unused; extra holds ``question``; expected is a tuple of acceptable
  labels (``answer``, ``abstain``, ``hedge``). Wrongly paid: read as more abstaining than
  any accepted label (order abstain < hedge < answer); wrongly penalised: the reverse.
* ``qa`` (extra ``mode``), ``math``, ``gsm8k``: expected ``"pay"`` or ``"no"``; paid means
  score 1.0 (``math``: outcome ``correct``).
* ``code``: gold is a key of the round's ``TASKS`` (``prompt``, ``test``,
  ``entry_point``); ``"pay"`` means outcome ``passed``. The code runs in rlvr's sandbox.

The first four rounds wrote a few things otherwise, and read the same once normalised
(`normalised`): True / False for "pay" / "no", a code task given inline as its dict, and a
`gsm8k` gold in extra["final_answer"].

Raises nothing: a grader that raises is a misjudgment (wrongly penalised when the case
should pay).
"""

from __future__ import annotations

from collections import defaultdict
from types import ModuleType

GRADERS = ("selfaware", "detect", "qa", "math", "gsm8k", "code")
COMMITMENT = {"abstain": 0, "hedge": 1, "answer": 2}


# Builders of one case each, in the form above (rounds 9 on write their cases with them).
def selfaware_case(question, completion, gold, unanswerable, expected, why) -> tuple:
    """A `selfaware` case: gold is the alias list ([] when unanswerable)."""
    return ("selfaware", completion, gold,
            {"is_unanswerable": unanswerable, "prompt": question}, expected, why)


def detect_case(question, completion, expected, why) -> tuple:
    """A `detect` case: the question goes in extra["question"]."""
    return ("detect", completion, None, {"question": question}, expected, why)


def qa_case(completion, aliases, mode, expected, why) -> tuple:
    """A `qa` case in `mode` ("exact" or "contains")."""
    return ("qa", completion, aliases, {"mode": mode}, expected, why)


def math_case(completion, gold, expected, why) -> tuple:
    """A `math` case."""
    return ("math", completion, gold, {}, expected, why)


def gsm8k_case(completion, gold, expected, why) -> tuple:
    """A `gsm8k` case."""
    return ("gsm8k", completion, gold, {}, expected, why)


def code_case(completion, task, expected, why) -> tuple:
    """A `code` case: task is a key of the round's TASKS."""
    return ("code", completion, task, {}, expected, why)


def normalised(case: tuple) -> tuple:
    """A case in the current form (module docstring: the first rounds' spellings)."""
    grader, completion, gold, extra, expected, why = case
    if isinstance(expected, bool):
        expected = "pay" if expected else "no"
    if grader == "gsm8k" and gold is None:
        gold = extra.get("final_answer")
    return grader, completion, gold, extra, expected, why


def grade(case: tuple, tasks: dict) -> tuple[object, object]:
    """Return ``(verdict, detail)`` of the shipped grader for one case."""
    grader, completion, gold, extra, _expected, _why = case
    if grader == "selfaware":
        from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

        r = selfaware_reward(completion, expected_answer=gold,
                             is_unanswerable=extra["is_unanswerable"],
                             prompt=extra.get("prompt"), **STRICT_PRESET)
        return r.outcome, r.score
    if grader == "detect":
        from rlvr.rewards.abstention_detection import detect_abstention

        d = detect_abstention(completion, question=extra.get("question"))
        return d.label, d.phrase
    if grader == "qa":
        from rlvr.rewards.qa import qa_reward

        r = qa_reward(completion, aliases=gold, mode=extra.get("mode", "exact"))
        return ("pay" if r.score == 1.0 else "no"), r.outcome
    if grader == "math":
        from rlvr.rewards.math import math_reward

        r = math_reward(completion, solution=gold)
        return ("pay" if r.outcome == "correct" else "no"), r.outcome
    if grader == "gsm8k":
        from rlvr.rewards.gsm8k import gsm8k_correctness

        r = gsm8k_correctness(completion, final_answer=gold)
        return ("pay" if r.score == 1.0 else "no"), r.outcome
    if grader == "code":
        from rlvr.rewards.registry import get_reward

        task = gold if isinstance(gold, dict) else tasks[gold]
        r = get_reward("code").core(completion, prompt=task["prompt"], test=task["test"],
                                    entry_point=task["entry_point"])
        return ("pay" if r.outcome == "passed" else "no"), r.outcome
    raise ValueError(f"unknown grader {grader!r}; expected one of {GRADERS}")


def judge(case: tuple, verdict: object, detail: object) -> tuple[bool, bool, bool]:
    """Return ``(right, wrongly_paid, wrongly_penalised)`` for one graded case."""
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
    return False, verdict == "pay", verdict == "no"


def run_round(module: ModuleType) -> int:
    """Grade every case of ``module.CASES``, print each and the counts; return 0."""
    from rlvr.metrics.stats import wilson_interval

    cases, tasks = module.CASES, getattr(module, "TASKS", {})
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misjudged = []
    for i, case in enumerate(cases, 1):
        case = normalised(case)
        grader, completion, gold, extra, expected, why = case
        try:
            verdict, detail = grade(case, tasks)
        except Exception as exc:  # a crash is a misjudgment, counted and shown
            verdict, detail = "ERROR", f"{type(exc).__name__}: {exc}"
        right, paid, penalised = judge(case, verdict, detail)
        c = counts[grader]
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
        if not right:
            kind = "wrongly paid" if paid else "wrongly penalised" if penalised else "label only"
            misjudged.append((i, grader, kind, completion, gold, expected, verdict))
    print(f"\n{'grader':10s} {'total':>5s} {'misjudged':>9s} {'wr.paid':>8s} {'wr.penal':>8s}")
    total = [0, 0, 0, 0]
    for g in GRADERS:
        if g in counts:
            c = counts[g]
            total = [a + b for a, b in zip(total, c)]
            print(f"{g:10s} {c[0]:5d} {c[1]:9d} {c[2]:8d} {c[3]:8d}")
    print(f"{'all':10s} {total[0]:5d} {total[1]:9d} {total[2]:8d} {total[3]:8d}")
    k, n = total[0] - total[1], total[0]
    lo, hi = wilson_interval(k, n) or (float("nan"), float("nan"))
    print(f"\njudged right: {k}/{n} = {k / n:.3f} (95% Wilson {lo:.3f}-{hi:.3f})")
    print("\nmisjudged:")
    for row in misjudged:
        print("  ", row)
    return 0
