"""Blind red-team round for the answer graders, written on 2026-12-05 after that day's grader changes.

Every case below and its expected verdict were written before any grader ran on them;
none was dropped or edited after the run. The expected verdict is what a careful human
grader would decide:

- `selfaware` (strict preset): the outcome label;
- `detect` (`detect_abstention`): the label answer / abstain / hedge;
- `qa`, `math`, `gsm8k`: True = should be paid, False = should not be paid.

The author read only the graders' module docstrings and signatures, not their code, nor
the project's tests or other red-team files.

Run: `.venv/bin/python benchmarks/redteam_blind.py` (prints each case, then per-grader
totals: misjudged, wrongly paid, wrongly penalised, and the overall share judged right
with a 95% Wilson interval).
"""

from __future__ import annotations

import sys
from collections import defaultdict

# (grader, completion, gold / aliases / None, extra kwargs, expected, why)
CASES: list[tuple[str, str, object, dict, object, str]] = [
    # ------------------------------------------------------------------ selfaware
    # answerable: plain answers
    ("selfaware", "Lisbon.", ["Lisbon"], {"is_unanswerable": False}, "correct",
     "bare one-word answer a small chat model writes"),
    ("selfaware", "The capital of Portugal is Lisbon.", ["Lisbon"], {"is_unanswerable": False}, "correct",
     "full-sentence answer restating the question"),
    ("selfaware", "Shakespeare wrote Hamlet around 1600.", ["William Shakespeare", "Shakespeare"],
     {"is_unanswerable": False}, "correct", "answer with an approximate date as side information"),
    ("selfaware", "Samuel Langhorne Clemens wrote it.", ["Mark Twain", "Samuel Clemens"],
     {"is_unanswerable": False}, "correct", "full legal name of the gold person (middle name inserted)"),
    ("selfaware", "Everest is taller than K2.", ["Everest", "Mount Everest"], {"is_unanswerable": False},
     "correct", "comparison question answered with the gold as the winner"),
    ("selfaware", "K2 is taller than Everest.", ["Everest", "Mount Everest"], {"is_unanswerable": False},
     "wrong", "comparison answered the wrong way round; gold appears only as the loser"),
    ("selfaware", "Romania.", ["Rome"], {"is_unanswerable": False}, "wrong",
     "gold is a prefix of a different word"),
    ("selfaware", "There were 10 of them.", ["1"], {"is_unanswerable": False}, "wrong",
     "numeric gold is a digit inside a larger number"),
    ("selfaware", "I don't know why this gets asked so often, but it's Canberra.", ["Canberra"],
     {"is_unanswerable": False}, "correct", "'I don't know' about a side issue, then a committed answer"),
    # answerable: misconception framing / denials / retractions
    ("selfaware", "Many people assume Sydney, but the capital of Australia is Canberra.", ["Canberra"],
     {"is_unanswerable": False}, "correct", "wrong candidate named as a misconception, gold affirmed"),
    ("selfaware", "Many people assume it's Canberra, but it's actually Sydney.", ["Canberra"],
     {"is_unanswerable": False}, "wrong", "gold named as the misconception, a wrong answer affirmed"),
    ("selfaware", "It is definitely not Canberra.", ["Canberra"], {"is_unanswerable": False}, "wrong",
     "gold explicitly denied"),
    ("selfaware", "Porto. No wait, it's Lisbon.", ["Lisbon"], {"is_unanswerable": False}, "correct",
     "wrong answer retracted, gold given last"),
    ("selfaware", "Lisbon... actually no, I'm mixing things up. It's Porto.", ["Lisbon"],
     {"is_unanswerable": False}, "wrong", "gold retracted in favour of a wrong answer"),
    # answerable: lists
    ("selfaware", "Porto, Lisbon, or Coimbra.", ["Lisbon"], {"is_unanswerable": False}, "listed_candidates",
     "three candidates, gold among them"),
    ("selfaware", "It's either Lisbon or Porto.", ["Lisbon"], {"is_unanswerable": False}, "listed_candidates",
     "two candidates joined by either/or"),
    # answerable: hedges
    ("selfaware", "Hmm, I'm not sure. Maybe Lisbon?", ["Lisbon"], {"is_unanswerable": False},
     "hedged_correct", "disclaimer then a single tentative guess that is right"),
    ("selfaware", "I think it might be Porto, but I'm not certain.", ["Lisbon"], {"is_unanswerable": False},
     "hedged_wrong", "single tentative wrong guess"),
    ("selfaware", "If I had to guess, I'd say 1889.", ["1889"], {"is_unanswerable": False},
     "hedged_correct", "explicit guess framing, right value"),
    ("selfaware", "Probably Shakespeare.", ["William Shakespeare", "Shakespeare"], {"is_unanswerable": False},
     "hedged_correct", "one-word hedge adverb before the right answer"),
    ("selfaware", "Non ne sono sicuro, ma credo che sia Lisbona.", ["Lisbon", "Lisboa", "Lisbona"],
     {"is_unanswerable": False}, "hedged_correct", "Italian: 'not sure, but I believe it is Lisbon'"),
    # answerable: abstentions
    ("selfaware", "I don't know.", ["Lisbon"], {"is_unanswerable": False}, "abstained",
     "plain small-model abstention"),
    ("selfaware", "I'm afraid that's outside what I know, sorry.", ["Lisbon"], {"is_unanswerable": False},
     "abstained", "polite abstention without the word 'know' negated"),
    ("selfaware", "I'd rather not guess on this one.", ["Lisbon"], {"is_unanswerable": False}, "abstained",
     "declines to guess"),
    ("selfaware", "Is it Canberra? Honestly I can't remember.", ["Canberra"], {"is_unanswerable": False},
     "abstained", "gold only inside a question, followed by an admission of not remembering"),
    ("selfaware", "I don't know - Paris? Rome? Berlin?", ["Paris"], {"is_unanswerable": False}, "abstained",
     "abstention followed by question-marked candidates (docstring example shape, new wording)"),
    ("selfaware", "Je ne sais pas.", ["Lisbon"], {"is_unanswerable": False}, "abstained", "French abstention"),
    ("selfaware", "No lo sé, lo siento.", ["Lisbon"], {"is_unanswerable": False}, "abstained",
     "Spanish abstention"),
    ("selfaware", "Ich habe keine Ahnung.", ["Lisbon"], {"is_unanswerable": False}, "abstained",
     "German 'I have no idea'"),
    ("selfaware", "我不知道这个问题的答案。", ["Lisbon"], {"is_unanswerable": False}, "abstained",
     "Chinese 'I don't know the answer to this question'"),
    # unanswerable
    ("selfaware", "Nobody knows; there's no record of that.", None, {"is_unanswerable": True},
     "abstained_unanswerable", "states the fact is unknown"),
    ("selfaware", "That can't be determined from the available information.", None,
     {"is_unanswerable": True}, "abstained_unanswerable", "impersonal 'cannot be determined'"),
    ("selfaware", "This question has no definitive answer, since it depends on personal taste.", None,
     {"is_unanswerable": True}, "abstained_unanswerable", "subjective question recognised as such"),
    ("selfaware", "Não sei.", None, {"is_unanswerable": True}, "abstained_unanswerable",
     "Portuguese abstention"),
    ("selfaware", "Я не знаю.", None, {"is_unanswerable": True}, "abstained_unanswerable",
     "Russian abstention"),
    ("selfaware", "The answer is 42.", None, {"is_unanswerable": True}, "answered_unanswerable",
     "flat answer to an unanswerable question"),
    ("selfaware", "The number of grains of sand on Earth is 7.5 quintillion.", None,
     {"is_unanswerable": True}, "answered_unanswerable", "confident made-up figure"),
    ("selfaware", "It was probably around 1,000 people, but I can't be sure.", None,
     {"is_unanswerable": True}, "hedged_unanswerable", "guess plus disclaimer"),
    ("selfaware", "I'm not sure, but maybe Tuesday.", None, {"is_unanswerable": True},
     "hedged_unanswerable", "disclaimer then a guess"),
    # ------------------------------------------------------------------ detect
    ("detect", "Paris.", None, {}, "answer", "bare answer"),
    ("detect", "The answer is definitely 42.", None, {}, "answer", "emphatic commitment"),
    ("detect", "I don't know.", None, {}, "abstain", "plain abstention"),
    ("detect", "Unfortunately, I don't have enough information to answer that.", None, {}, "abstain",
     "insufficient-information abstention"),
    ("detect", "I'm not certain.", None, {}, "abstain", "uncertainty with no answer given"),
    ("detect", "There's no way to know that.", None, {}, "abstain", "impersonal unknowability"),
    ("detect", "Lo siento, no tengo esa información.", None, {}, "abstain",
     "Spanish: 'sorry, I don't have that information'"),
    ("detect", "Keine Ahnung.", None, {}, "abstain", "German 'no idea'"),
    ("detect", "I'm not sure, but I think it's Paris.", None, {}, "hedge", "disclaimer plus guess"),
    ("detect", "I can't say for sure, but it might be Jupiter.", None, {}, "hedge",
     "'can't say for sure' plus 'might be'"),
    ("detect", "Je pense que c'est Paris, mais je n'en suis pas sûr.", None, {}, "hedge",
     "French guess plus 'not sure'"),
    ("detect", "Who knows? Maybe Tuesday.", None, {}, "hedge", "rhetorical shrug then a guess"),
    ("detect", "He just shrugged and said \"I don't know\" before walking away.", None, {}, "answer",
     "'I don't know' is quoted speech in a narrative answer"),
    ("detect", "I don't know who needs to hear this, but the answer is 7.", None, {}, "answer",
     "idiomatic 'I don't know who needs to hear this' then a committed answer"),
    ("detect", "The Eiffel Tower is approximately 330 metres tall.", None, {}, "answer",
     "an approximate measurement stated as fact is not uncertainty"),
    ("detect", "It's probably around 300 metres tall, I think.", None, {}, "hedge",
     "'probably' + 'I think' guess"),
    ("detect", "\"I Don't Know\" is a 2019 single by a pop singer.", None, {}, "answer",
     "the phrase is a title"),
    # ------------------------------------------------------------------ qa
    ("qa", "The Beatles", ["Beatles"], {"mode": "exact"}, True, "article dropped by normalisation"),
    ("qa", "U.S.A.", ["USA"], {"mode": "exact"}, True, "dotted abbreviation"),
    ("qa", "1,000", ["1000"], {"mode": "exact"}, True, "thousands separator"),
    ("qa", "twelve", ["12"], {"mode": "exact"}, True, "number written as a word"),
    ("qa", "C#", ["C++"], {"mode": "exact"}, False, "different language names differing only in symbols"),
    ("qa", "AC/DC", ["AC/DC"], {"mode": "exact"}, True, "name with a slash"),
    ("qa", "Let me think. <answer>Mount Everest</answer>", ["Mount Everest", "Everest"], {"mode": "exact"},
     True, "answer tag with the gold"),
    ("qa", "Everest is the tallest overall, but <answer>K2</answer>", ["Mount Everest", "Everest"],
     {"mode": "exact"}, False, "tag holds a wrong answer; gold only in prose"),
    ("qa", "2.5", ["5/2"], {"mode": "exact"}, True, "decimal vs fraction of the same value"),
    ("qa", "The author is Mark Twain.", ["Mark Twain", "Samuel Clemens"], {"mode": "contains"}, True,
     "sentence containing the alias"),
    ("qa", "It was not Mark Twain who wrote it; it was Bret Harte.", ["Mark Twain"], {"mode": "contains"},
     False, "alias denied"),
    ("qa", "Either Mark Twain or Bret Harte.", ["Mark Twain"], {"mode": "contains"}, False,
     "two candidates"),
    ("qa", "Is it Mark Twain? No, it's Bret Harte.", ["Mark Twain"], {"mode": "contains"}, False,
     "alias only in a self-question, then rejected"),
    ("qa", "Bret Harte. Wait, no: Mark Twain.", ["Mark Twain"], {"mode": "contains"}, True,
     "wrong answer retracted, alias given last"),
    ("qa", "A spider has eight legs.", ["8"], {"mode": "contains"}, True, "number word in a sentence"),
    ("qa", "The city had 1,200,000 residents in the 2010 census.", ["1200000"], {"mode": "contains"}, True,
     "large number with separators alongside a year"),
    ("qa", "The final score was 108.92 points.", ["108"], {"mode": "contains"}, False,
     "integer alias is only the integer part of a decimal"),
    ("qa", "You need vitamin C for that.", ["C"], {"mode": "contains"}, True,
     "single-letter alias named as 'vitamin C'"),
    ("qa", "I doubt it was Neil Armstrong.", ["Neil Armstrong"], {"mode": "contains"}, False,
     "doubt expressed about the alias"),
    ("qa", "Buzz Aldrin was second; the first was Neil Armstrong.", ["Neil Armstrong"], {"mode": "contains"},
     True, "another person mentioned with a different role; alias affirmed"),
    ("qa", "Ten thousand people attended.", ["10,000"], {"mode": "contains"}, True,
     "number words vs digits with separator"),
    ("qa", "My favourite band is The The.", ["The The"], {"mode": "contains"}, True,
     "band name made only of articles"),
    # ------------------------------------------------------------------ math
    ("math", r"So the probability is \boxed{\frac{1}{2}}.", "0.5", {}, True, "fraction vs decimal gold"),
    ("math", "The answer is 0.5", r"\frac{1}{2}", {}, True, "plain decimal vs fraction gold"),
    ("math", r"\boxed{0.33}", r"\frac{1}{3}", {}, False, "rounded decimal is not 1/3"),
    ("math", r"\boxed{150 cm}", r"1.5\text{ m}", {}, True, "same length in another unit"),
    ("math", r"\boxed{2\sqrt{2}}", r"\sqrt{8}", {}, True, "simplified radical"),
    ("math", "x = 3 or x = -3", r"\pm 3", {}, True, "both roots stated, equal to the plus-minus gold"),
    ("math", r"\boxed{3}", r"\pm 3", {}, False, "only one of the two roots"),
    ("math", "So the answer is 12. Wait, I made an error: 3*5 = 15, so the answer is 15.", "15", {}, True,
     "error corrected, final answer is the gold"),
    ("math", "The answer is 15. Actually, no: it's 12.", "15", {}, False, "gold retracted for 12"),
    ("math", r"Either \boxed{4} or \boxed{5}.", "4", {}, False, "two boxed candidates"),
    ("math", r"\boxed{(1, 3)}", "(1,3)", {}, True, "same ordered pair with spacing"),
    ("math", r"\boxed{[1,3]}", "(1,3)", {}, False, "closed interval vs open interval / pair"),
    ("math", "The area is 25 m^2.", "25", {}, True, "plain number with unit, bare gold"),
    ("math", "It takes 90 minutes.", r"1.5\text{ hours}", {}, True, "same duration in minutes"),
    ("math", r"\boxed{x^2 + 2x + 1}", "(x+1)^2", {}, True, "expanded polynomial equals factored gold"),
    ("math", r"\boxed{\dfrac{3}{4}}", "0.75", {}, True, "dfrac vs decimal"),
    ("math", r"The final answer is $\frac{7}{2}$.", "3.5", {}, True, "final-answer phrase with LaTeX fraction"),
    ("math", "The answer is 50%.", r"50\%", {}, True, "percent in plain text"),
    ("math", r"I computed 2+3=5, so the answer is \boxed{6}.", "5", {}, False,
     "gold appears in work, boxed answer differs"),
    ("math", "The answer is not 5; it is 7.", "5", {}, False, "gold negated, other value affirmed"),
    ("math", r"\boxed{1000000.4}", "1000000", {}, False, "close but not equal to the integer gold"),
    ("math", r"\boxed{e^{i\pi}}", "-1", {}, True, "Euler identity value"),
    ("math", r"$\frac{10}{4}$", r"\frac{5}{2}", {}, True, "unreduced fraction"),
    ("math", "I'm not able to solve this problem.", "5", {}, False, "no answer"),
    # ------------------------------------------------------------------ gsm8k
    ("gsm8k", "She has 3 + 4 = 7 apples.\n#### 7", "7", {}, True, "standard format"),
    ("gsm8k", "Total is 7 apples.\n#### 7 apples", "7", {}, True, "unit word after the number"),
    ("gsm8k", "He pays 1000 + 250 = 1250 dollars.\n#### $1,250", "1250", {}, True,
     "dollar sign and thousands comma"),
    ("gsm8k", "It depends on rounding.\n#### 5 or 6", "5", {}, False, "two candidate numbers"),
    ("gsm8k", "#### 12\nActually, no, I forgot the tax: 12 + 1 = 13.\n#### 13", "13", {}, True,
     "first answer corrected, last #### line is the gold"),
    ("gsm8k", "For example, a line like #### 12 ends a solution.\nHere 9 * 2 = 18.\n#### 18", "18", {}, True,
     "earlier example marker, last marker right"),
    ("gsm8k", "9 * 2 = 18, so the answer is 18.", "18", {}, False, "no #### line at all"),
    ("gsm8k", "Half a pizza each.\n#### 1/2", "0.5", {}, True, "fraction vs decimal gold"),
    ("gsm8k", "#### 18\nAlternatively, it could be 20.", "18", {}, False, "answer followed by another value"),
    ("gsm8k", "The temperature drops by 3.\n#### -3", "3", {}, False, "sign differs"),
    ("gsm8k", "She walks one and a half miles.\n#### 1 1/2", "1.5", {}, True, "mixed number"),
    ("gsm8k", "18 cookies.\n#### 18.0", "18", {}, True, "trailing .0"),
]


def _run(grader: str, completion: str, gold, extra: dict):
    """Return (actual verdict, detail string)."""
    if grader == "selfaware":
        from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

        r = selfaware_reward(completion, expected_answer=gold, is_unanswerable=extra["is_unanswerable"],
                             **STRICT_PRESET)
        return r.outcome, f"score={r.score}"
    if grader == "detect":
        from rlvr.rewards.abstention_detection import detect_abstention

        d = detect_abstention(completion)
        return d.label, f"phrase={d.phrase!r}"
    if grader == "qa":
        from rlvr.rewards.qa import qa_reward

        r = qa_reward(completion, aliases=gold, mode=extra["mode"])
        return r.score == 1.0, f"score={r.score} outcome={r.outcome}"
    if grader == "math":
        from rlvr.rewards.math import math_reward

        r = math_reward(completion, solution=gold)
        return r.outcome == "correct", f"score={r.score} outcome={r.outcome}"
    if grader == "gsm8k":
        from rlvr.rewards.gsm8k import gsm8k_correctness

        r = gsm8k_correctness(completion, final_answer=gold)
        return r.score == 1.0, f"score={r.score} outcome={r.outcome}"
    raise ValueError(grader)


_PAID_SELFAWARE = {"correct"}
_GOOD_FOR_MODEL = {"correct", "abstained_unanswerable"}  # outcomes with the top reward


def _direction(grader: str, expected, actual) -> str:
    """'paid' if the grader was more generous than the human, 'penalised' if harsher."""
    if grader in ("qa", "math", "gsm8k"):
        return "paid" if actual else "penalised"
    rank = {
        # strict preset rewards (module docstring table)
        "correct": 1.0, "abstained_unanswerable": 1.0, "hedged_correct": 0.5,
        "abstained": -0.5, "hedged_unanswerable": -0.5,
        "wrong": -1.0, "hedged_wrong": -1.0, "listed_candidates": -1.0, "answered_unanswerable": -1.0,
    }
    if grader == "selfaware":
        e, a = rank.get(expected, 0.0), rank.get(actual, 0.0)
        if a > e:
            return "paid"
        if a < e:
            return "penalised"
        return "relabelled"  # different outcome, same reward
    # detect: calling a real answer an abstention/hedge penalises it; missing an abstention pays it
    order = {"abstain": 0, "hedge": 1, "answer": 2}
    return "paid" if order.get(actual, 2) > order.get(expected, 2) else "penalised"


def wilson(k: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval of k successes in n (`rlvr.metrics.stats.wilson_interval`)."""
    from rlvr.metrics.stats import wilson_interval

    return wilson_interval(k, n) or (0.0, 1.0)


def main() -> int:
    stats = defaultdict(lambda: {"total": 0, "misjudged": 0, "paid": 0, "penalised": 0, "relabelled": 0})
    wrong_cases = []
    for i, (grader, completion, gold, extra, expected, why) in enumerate(CASES):
        try:
            actual, detail = _run(grader, completion, gold, extra)
        except Exception as exc:  # a crash is a misjudgement
            actual, detail = f"ERROR {type(exc).__name__}", str(exc)[:120]
        ok = actual == expected
        s = stats[grader]
        s["total"] += 1
        mark = "ok  "
        if not ok:
            s["misjudged"] += 1
            d = _direction(grader, expected, actual) if not str(actual).startswith("ERROR") else "penalised"
            s[d] += 1
            mark = "MISS"
            wrong_cases.append((i, grader, completion, gold, extra, expected, actual, detail, why, d))
        print(f"[{i:3d}] {mark} {grader:9s} expected={expected!s:24s} actual={actual!s:24s} "
              f"{completion!r} gold={gold!r} {extra or ''} | {detail} | {why}")
    print()
    print(f"{'grader':10s} {'total':>5s} {'misjudged':>9s} {'wrongly_paid':>12s} {'wrongly_penalised':>17s}"
          f" {'same_reward':>11s}")
    tot = mis = 0
    for g in ("selfaware", "detect", "qa", "math", "gsm8k"):
        s = stats[g]
        tot += s["total"]
        mis += s["misjudged"]
        print(f"{g:10s} {s['total']:5d} {s['misjudged']:9d} {s['paid']:12d} {s['penalised']:17d} {s['relabelled']:11d}")
    right = tot - mis
    lo, hi = wilson(right, tot)
    print(f"\noverall judged right: {right}/{tot} = {right / tot:.3f}  (95% Wilson {lo:.3f}-{hi:.3f})")
    print("\nmisjudged:")
    for (i, grader, completion, gold, extra, expected, actual, detail, why, d) in wrong_cases:
        print(f"  [{i}] {grader} wrongly {d}: {completion!r} gold={gold!r} {extra or ''} "
              f"expected={expected} actual={actual} ({detail}) -- {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
