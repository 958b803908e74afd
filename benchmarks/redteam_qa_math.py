"""A red-team round on the `qa` grader and the `math` grader's units (2026-12-05): 30 inputs
each, written fresh by a helper and kept mostly where the graders misjudged them at the time
(about 250 probed), with the outcome a careful grader would give. Prints each case and, per
grader, how many are misjudged, wrongly paid and wrongly penalised (figures before and after
that session's fixes: docs/measured.md, "Red-team round on `qa` and `math` units").

    .venv/bin/python benchmarks/redteam_qa_math.py

Each case: (grader, completion, gold_or_aliases, mode_or_None, expected, why); expected is
True (a careful grader pays it), False (it does not) or a specific outcome.
"""
import warnings

warnings.filterwarnings("ignore")

P = ["Paris"]
CASES = [
    # ------------------------------------------------------------------ qa (30)
    # a trailing one-letter name part is an article to SQuAD normalisation
    ("qa", "It's vitamin E.", ["Vitamin A", "A"], "contains", False,
     "'Vitamin A' normalises to 'vitamin'; any vitamin is paid"),
    ("qa", "Hepatitis", ["Hepatitis A"], "exact", False,
     "'Hepatitis A' normalises to 'hepatitis'; the bare disease family is paid"),
    ("qa", "The answer is Hepatitis B, which is spread through blood.", ["Hepatitis A"], "contains", False,
     "a different hepatitis contains the normalised alias 'hepatitis'"),
    ("qa", "It was Plan B all along.", ["Plan A"], "contains", False,
     "'Plan A' -> 'plan'; Plan B paid"),
    # contains mode: denials / retractions / questions not recognised
    ("qa", "Paris? Hmm, no \u2014 I'm thinking of Lyon.", P, "contains", False,
     "gold asked then rejected ('Hmm, no') and replaced by Lyon"),
    ("qa", "My first instinct was Paris, but after checking the dates, it's Lyon.", P, "contains", False,
     "first instinct explicitly superseded"),
    ("qa", "Paris would be the obvious guess; however, the correct answer is Lyon.", P, "contains", False,
     "gold named as a tempting guess, then contradicted"),
    ("qa", "Paris is a common wrong answer here; the real answer is Lyon.", P, "contains", False,
     "gold called 'a common wrong answer'"),
    ("qa", "It couldn't possibly be Paris, given the river clue.", P, "contains", False,
     "negation with 'possibly' between n't and the gold"),
    ("qa", "Paris is out of the question, since it lies on the Seine.", P, "contains", False,
     "gold denied by an idiom"),
    ("qa", "Paris can be ruled out; the answer is Lyon.", P, "contains", False,
     "'can be ruled out' (modal copula)"),
    ("qa", "Paris. Let me reconsider. The answer is Lyon.", P, "contains", False,
     "retraction by reconsidering, no listed marker"),
    ("qa", "Paris (I retract that; it's Lyon).", P, "contains", False,
     "explicit 'I retract that'"),
    ("qa", "Paris? Definitely not.", P, "contains", False,
     "question without auxiliary answered 'definitely not'"),
    ("qa", "Either Paris or Lyon \u2014 I can't decide.", P, "contains", False,
     "two candidate names offered (numbers would be listed_candidates)"),
    ("qa", "Sometime after 1969.", ["1969"], "contains", False,
     "'after 1969' excludes 1969 ('>1969' is not paid, the word form is)"),
    ("qa", "Paris is the answer? Not at all.", P, "contains", False,
     "self-question answered 'Not at all'"),
    # contains mode: affirmations read as denials
    ("qa", "Isn't it obviously Paris? Yes.", P, "contains", True,
     "rhetorical question confirmed with 'Yes'; read as n't-denial"),
    ("qa", "Could it be Paris? I think so.", P, "contains", True,
     "question confirmed by 'I think so'"),
    ("qa", "I wouldn't say anything other than Paris.", P, "contains", True,
     "double negative affirms"),
    ("qa", "The capital has never been anything but Paris.", P, "contains", True,
     "'never ... anything but' affirms"),
    ("qa", "Paris. Nope, not a trick question.", P, "contains", True,
     "'Nope' answers an imagined doubt, not a retraction"),
    # names made of articles / symbols / stylings
    ("qa", "The band is The The.", ["The The"], "contains", True,
     "'The The' named in a sentence, contains mode"),
    ("qa", "C\u266f", ["C#"], "exact", True,
     "Unicode sharp sign is the same name as C#"),
    ("qa", "\uff23\uff03", ["C#"], "exact", True,
     "fullwidth C# (NFKC-equal) is C#"),
    ("qa", "Catch-22", ["Catch 22"], "exact", True,
     "hyphen vs space: 'catch22' != 'catch 22'"),
    ("qa", "Spiders have eight legs.", ["8"], "contains", True,
     "number word for a numeric alias"),
    ("qa", "The last glaciation ended 12 000 years ago.", ["12000"], "contains", True,
     "SI-style space thousands separator"),
    # controls (grader expected right)
    ("qa", "It was written in C, not C++.", ["C++"], "contains", False,
     "control: C++ negated, C is different"),
    ("qa", "Matt Johnson fronted The Who.", ["The The"], "contains", False,
     "control: another article band"),

    # ---------------------------------------------------------------- math (30)
    # units: wrongly paid
    ("math", "Each sticker costs $\\boxed{\\$5}$.", "5\\text{ cents}", None, False,
     "'$' is not read as dollars: $5 paid against 5 cents (100x off)"),
    ("math", "**Answer:** 70 (kg)", "70\\text{ g}", None, False,
     "unit in brackets not read: 70 kg paid against 70 g"),
    ("math", "The truck carries $\\boxed{5\\text{ tonnes}}$.", "5\\text{ kg}", None, False,
     "unknown unit word -> bare compare: 5 t paid as 5 kg"),
    ("math", "The field covers $\\boxed{5\\text{ hectares}}$.", "5\\text{ m}^2", None, False,
     "5 ha = 50000 m^2, paid as 5 m^2"),
    ("math", "Its average speed is 5 km/h.", "5\\text{ km}", None, False,
     "compound unit dropped: a speed paid against a distance"),
    ("math", "Combining like terms, the expression simplifies to $\\boxed{3}$.", "3t", None, False,
     "trailing letter t of gold 3t dropped as a unit; bare 3 paid"),
    ("math", "$\\boxed{3s}$", "3t", None, False,
     "letters s,t (also c,d,g,h,l,m,o) after a number dropped: 3s paid for 3t"),
    # units: wrongly penalised
    ("math", "The total is $\\boxed{\\$5}$.", "500\\text{ cents}", None, True,
     "$5 = 500 cents; '$' not a money unit"),
    ("math", "Change received: $\\boxed{\\$0.50}$", "50\\text{ cents}", None, True,
     "$0.50 = 50 cents"),
    ("math", "So Janet makes \\$18 every day at the farmers' market.", "18", None, True,
     "escaped dollar in prose -> no_answer"),
    ("math", "$\\boxed{16 oz}$", "1\\text{ lb}", None, True,
     "oz without \\text read as o*z, conversion refused"),
    ("math", "The crate weighs $\\boxed{70\\,kg}$.", "70000\\text{ g}", None, True,
     "'70\\,kg' read as 70*g*k"),
    ("math", "The tank holds $\\boxed{1 m^3}$ of water.", "1000\\text{ L}", None, True,
     "1 m^3 = 1000 L; 'm^3' without \\text read as a symbol"),
    ("math", "The meeting lasts $\\boxed{0.5\\text{ h}}$.", "30\\text{ min}", None, True,
     "0.5 becomes \\frac{1}{2} inside math-verify; the unit is then 'dropped words' -> partial"),
    ("math", "It takes 2 hours 30 minutes.", "150\\text{ min}", None, True,
     "mixed-unit duration read as its last number, 30 min"),
    ("math", "$\\boxed{12\\text{ in.}}$", "1\\text{ ft}", None, True,
     "'in.' (inches) is partial_parse"),
    ("math", "The pool holds $\\boxed{3000\\text{ L}}$, i.e. $3\\text{ m}^3$.", "3000\\text{ L}", None, True,
     "a restatement after the box replaces the box's unit with 'm' (power lost)"),
    ("math", "That is $\\boxed{150\\text{ cm}}$; the question asks for metres, so $\\boxed{1.5\\text{ m}}$.",
     "1.5\\text{ m}", None, True, "two boxes, equal after conversion -> listed_candidates (boxes compared before conversion)"),
    ("math", "The rope is $150\\text{ cm} = 1.5\\text{ m}$.", "1.5\\text{ m}", None, True,
     "a unit conversion chain is partial_parse"),
    ("math", "$\\boxed{30\\text{ min}}$", "0.5\\text{ h}", None, True,
     "gold 0.5 h is bad_gold (the 1/2 rewrite again): item silently dropped"),
    ("math", "$\\boxed{70\\text{ g}}$", "70 grams", None, True,
     "plain gold '70 grams' read as 70*a*g*m*r*s: every answer wrong"),
    ("math", "$\\boxed{16\\text{ ounces}}$", "1\\text{ pound}", None, True,
     "'pound' not a unit -> bare 16 vs 1"),
    # retractions not seen (wrongly paid)
    ("math", "Adding the rows gives $\\boxed{12}$.\n\nHmm, that double-counts the corner tile. "
     "Subtracting it, the count is 11.", "12", None, False,
     "boxed value taken back in words, final count 11"),
    ("math", "$\\boxed{12}$\n\nScrap that; with distinct digits only 10 remain.", "12", None, False,
     "'Scrap that' retracts"),
    ("math", "The final answer is 12. Hmm, I ignored the restriction that digits are distinct; "
     "with it, we get 10.", "12", None, False, "final answer superseded by 10"),
    # retraction words that do not retract (wrongly penalised)
    ("math", "Each box holds $\\boxed{12}$ eggs, no more and no less.", "12", None, True,
     "'no' in the sentence is emphasis"),
    ("math", "$\\boxed{12}$. Actually, this matches the quick estimate from before, so I'm confident.",
     "12", None, True, "'Actually' confirms"),
    ("math", "$\\boxed{12}$. Sorry if the steps were long!", "12", None, True,
     "'Sorry' is politeness"),
    # controls
    ("math", "$\\boxed{1.5\\text{ km}}$", "1.5\\text{ m}", None, False,
     "control: km vs m, 1000x off"),
    ("math", "$\\boxed{3\\text{ yd}^2}$", "27\\text{ ft}^2", None, True,
     "control: 3 yd^2 = 27 ft^2"),
]


def run() -> None:
    from rlvr.rewards.math import math_reward
    from rlvr.rewards.qa import qa_reward

    stats = {g: {"total": 0, "mis": 0, "paid": 0, "pen": 0, "other": 0} for g in ("qa", "math")}
    for i, (grader, completion, gold, mode, expected, why) in enumerate(CASES, 1):
        if grader == "qa":
            res = qa_reward(completion, aliases=gold, mode=mode)
        else:
            res = math_reward(completion, solution=gold)
        paid = res.outcome == "correct"
        if isinstance(expected, bool):
            ok = paid == expected
        else:
            ok = res.outcome == expected
        exp_paid = expected if isinstance(expected, bool) else expected == "correct"
        s = stats[grader]
        s["total"] += 1
        kind = ""
        if not ok:
            s["mis"] += 1
            if paid and not exp_paid:
                kind, key = "WRONGLY PAID", "paid"
            elif exp_paid and res.score == 0.0:
                kind, key = "WRONGLY PENALISED", "pen"
            else:
                kind, key = "OTHER", "other"
            s[key] += 1
        exp = ("paid" if expected else "not paid") if isinstance(expected, bool) else expected
        print(f"{i:2d} {grader:4s} {mode or '':8s} expected={exp:8s} actual={res.outcome:17s} "
              f"{'ok' if ok else 'MISJUDGED: ' + kind}")
        print(f"     completion={completion!r}  gold={gold!r}")
        print(f"     why: {why}")
    print()
    for g, s in stats.items():
        print(f"{g}: total={s['total']} misjudged={s['mis']} wrongly_paid={s['paid']} "
              f"wrongly_penalised={s['pen']} other(no score)={s['other']}")


if __name__ == "__main__":
    run()
