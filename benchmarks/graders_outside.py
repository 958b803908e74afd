"""The graders against labels written outside the project, beside the plain baseline.

Every source is a set of real model outputs judged by people outside this project (for math:
a library's own test cases, a gold and a model-style prediction its authors labelled). None
is shipped with rlvr (no network at run time, and not every licence allows a copy): clone
the repository and pass its folder. Each source is split once, by question (math: by gold
and prediction), with a fixed seed, into `tune` (the only half a grader change may look at)
and `report`; both are printed.

QA (`qa`, answers judged right or wrong by people; beside it the main job's reward,
`selfaware` strict, reading each answer as one to an answerable question: paid = above 0):
  --evouna DIR   EVOUNA (Wang et al. 2023, github.com/wangcunxiang/QA-Eval, Apache-2.0): the
                 folder `EVOUNA/` with NQ.json and TQ.json. Long answers of GPT-3.5, ChatGPT,
                 GPT-4 and New Bing (`qa` contains) and short answers of FiD (`qa` exact) to
                 Natural Questions and TriviaQA questions; questions EVOUNA marks improper
                 are left out.
  --nq301 DIR    NQ301 (Kamalloo et al. 2023, github.com/ehsk/OpenQA-eval, MIT): the
                 repository folder (data/NQ301_human.tsv, golds from data/model_outputs/).
                 Answers of up to five words are judged in `exact` mode, longer ones in
                 `contains` mode.
Abstention (`abstention` detector, responses labelled as declining or answering):
  --falseqa DIR  FalseQA (Hu et al. 2023, github.com/thunlp/FalseQA; no licence stated, so
                 only read from a local copy): human rebuttals of a false premise (declines)
                 and human answers to true-premise questions (answers), dataset/*.csv.
  --xstest DIR   XSTest (Röttger et al. 2024, github.com/paul-rottger/exaggerated-safety,
                 CC-BY-4.0; the completions under their models' licences): five models'
                 completions, each labelled full compliance, full refusal or partial
                 refusal by two annotators (model_completions/). Safety refusals, read
                 apart from not-knowing.
  --cdna DIR     The Chinese Do-Not-Answer human evaluation (Wang et al. 2024; a copy in
                 github.com/mbzuai-nlp/Arabic_safety_evaluation, cdna/human_eval/; the
                 Do-Not-Answer data is CC BY-NC-SA 4.0, so only read from a local copy):
                 GPT-3.5's Chinese responses given a response type by people; "not willing
                 to answer" declines, "follows the instruction" answers. The only outside
                 labels found in a language other than English.
Math (`math`, a gold and a model-style prediction the library authors labelled equal or not):
  --math-verify DIR  Math-Verify's regression tests (Hugging Face,
                 github.com/huggingface/Math-Verify, Apache-2.0 per its LICENCE; the test
                 files carry an MIT header): a checkout, or its tests/ alone (`git archive
                 HEAD tests | tar -x -C DIR`). Every `@pytest.mark.parametrize` case of
                 tests/test_*.py naming gold, pred and expected, read with `ast` (nothing
                 of it is imported or run), with what the test passes to its
                 `compare_strings` helper (extraction, precision, strict...). About 250.
  --lighteval DIR  lighteval (github.com/huggingface/lighteval, MIT): a checkout, or
                 tests/unit/metrics/test_extractive_match.py alone; the same helper's cases
                 from before Math-Verify was split out of it (most repeat Math-Verify's; the
                 count is printed), English and LaTeX/expression ones only.
                 Both label the library's intended behaviour, not always equality: a few
                 pass only at the test's precision (`(0.6,2.6667]` for `(3/5,8/3]` at 2
                 digits), `1 - 1/e` against `1 + 1/e` is labelled equal, and 9 in inline
                 LaTeX broken across lines not equal to 9. The labels are kept as written.

    .venv/bin/python benchmarks/graders_outside.py --evouna DIR --nq301 DIR \
        --falseqa DIR --xstest DIR --math-verify DIR [--lighteval DIR] [--families]

For each grader and source: the share of labels it agrees with (95% Wilson interval), the
share of labelled-wrong answers it pays (for abstention: the answers it reads as declines)
and the share of labelled-right ones it refuses (declines it misses), beside the field's
plain baseline for the same job: SQuAD-normalised exact match and containment (as a
substring and on word boundaries, EVOUNA's `lexical_match.py`) for QA; the reference
project's 19 phrases as substrings (the `seed` detector) for abstention; Math-Verify alone
for math, both as the authors' test calls it and with its defaults (`verify(parse(gold),
parse(prediction))`), beside rlvr's `math` reward and, on the cases whose gold
`gsm8k_correctness` reads as one number, that reward too (with its fallback: the
predictions write no `####`); every grader reads the prediction exactly as the case writes
it. EVOUNA's two halves are also printed together, as its paper reports them. The QA
answers people judged right are read by the abstention detector too: an answer is no
decline, so each one read as declining is a false decline.

`--head` fits the learned decline reader (`rlvr.rewards.abstention_head`: a logistic
regression on the default model's hidden states, layer and C chosen by grouped 5-fold
cross-validation on `tune` alone, the reward's threshold on the same folds) on the `tune`
rows of every abstention source together, with EVOUNA's answers people judged right as
answers, and reads every `report` row drawn: the head alone, and the `abstention` reward
with it (the rules first, the head on their answers that speak to the question), beside
the rules; `--head-rows` caps the rows per source and half (a forward pass each),
`--head-out PATH` writes the head for the reward's `head` parameter.
`--learned` fits a bag-of-words classifier on each abstention source's `tune` and reads it
on every source's `report` and on the QA answers judged right: the learned design beside
the rules. `--families` prints, on `tune`, what each named rule does against the
word-boundary baseline where the two disagree: right answers it refuses and wrong ones it
blocks, right ones it pays and wrong ones it pays (a rule is credited on every row whose
`why` names it). `--categories` breaks each abstention source down by its label category
and counts each math source's cases per test function, with how many `math` agrees on.
"""

from __future__ import annotations

import argparse
import re
import time
from collections import Counter, defaultdict
from pathlib import Path

from outside_sources import (MATH_SOURCES, Row, cdna_rows, evouna_rows, falseqa_rows,
                             math_rows, nq301_rows, xstest_rows)


# ---------------------------------------------------------------------------- graders

def plain_words(row: Row) -> bool:
    """The field's plain baseline: a SQuAD-normalised alias inside the normalised answer on
    word boundaries (EVOUNA's `lexical_match.py`)."""
    from rlvr.rewards.qa import normalize_answer

    said = normalize_answer(row.output)
    return any(normalize_answer(g) and re.search(
        rf"(?<!\S){re.escape(normalize_answer(g))}(?!\S)", said) for g in row.golds)


def qa_graders():
    """name -> (kind it applies to, paid(row) -> bool, why(row) -> list of rule ids)."""
    from rlvr.rewards.qa import normalize_answer, qa_reward
    from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

    def plain_exact(row: Row) -> bool:
        said = normalize_answer(row.output)
        return any(normalize_answer(g) == said for g in row.golds)

    def plain_substring(row: Row) -> bool:
        said = normalize_answer(row.output)
        return any(normalize_answer(g) and normalize_answer(g) in said for g in row.golds)

    def rlvr(mode):
        return lambda row: qa_reward(row.output, aliases=list(row.golds), mode=mode).score == 1.0

    def selfaware(row: Row) -> bool:
        """The main job's reward (strict) on the answer as an answerable question's: paid
        when it scores above 0 (`correct`, or `hedged_correct` at +0.5)."""
        return selfaware_reward(row.output, expected_answer=list(row.golds),
                                is_unanswerable=False, prompt=row.question,
                                **STRICT_PRESET).score > 0

    return {
        "long": {"qa contains (rlvr)": rlvr("contains"),
                 "selfaware, strict (rlvr)": selfaware,
                 "plain containment (substring)": plain_substring,
                 "plain containment (word boundaries)": plain_words},
        "short": {"qa exact (rlvr)": rlvr("exact"), "selfaware, strict (rlvr)": selfaware,
                  "plain exact match": plain_exact,
                  "plain containment (word boundaries)": plain_words},
    }


def abstention_graders():
    """name -> declines(row) -> bool: rlvr's robust detector (told the question, a `hedge`
    counts as answering) beside the reference project's 19 phrases as substrings (SelfAware,
    Yin et al. 2023: the `seed` detector)."""
    from rlvr.rewards.abstention_detection.detector import detect_abstention, is_abstention

    return {"abstention detector (rlvr robust)": lambda row: detect_abstention(
                row.output, question=row.question).label == "abstain",
            "reference phrases (seed, substring)": lambda row: is_abstention(row.output)}


def math_graders() -> dict:
    """name -> paid(row) -> bool for the math rows: rlvr's `math` reward (gold as its
    `solution`; paid = its `correct` score, 1.0; `bad_gold` pays nothing), beside the plain
    baseline, Math-Verify alone, twice: as the authors' test calls it (`as tested`) and with
    its defaults, `verify(parse(gold), parse(prediction))`. The prediction is given to
    every grader exactly as the case writes it."""
    from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse, verify
    from rlvr.rewards.math import math_reward

    def as_tested(row: Row) -> bool:
        """Math-Verify's `compare_strings` test helper, rebuilt: its extraction configs
        (LaTeX with `boxed_match_priority=0`, expression), `float_rounding` = the test's
        precision, `strict` and `allow_set_relation_comp` as the test passes them; a test
        calling `verify(parse(gold), parse(pred))` is run so. Not mirrored: lighteval's
        helper runs lighteval's own extraction metric (`MultilingualExtractiveMatchMetric`,
        its gold read as a choice); here its cases go through Math-Verify with the default
        LaTeX config and the test's precision, the library that code was split into. The
        tests were written for the repository's version; the installed one may differ."""
        said = dict(row.setting)
        gold, pred = row.golds[0], row.output
        if said.get("call") == "verify":
            return bool(verify(parse(gold), parse(pred)))
        latex = LatexExtractionConfig(boxed_match_priority=0) \
            if row.source == "math-verify" else LatexExtractionConfig()
        configs = [latex if t == "latex" else ExprExtractionConfig()
                   for t in said.get("match_types", ("latex", "expr"))]
        return bool(verify(parse(gold, configs), parse(pred, configs),
                           float_rounding=said.get("precision", 6),
                           strict=said.get("strict", True),
                           allow_set_relation_comp=said.get("allow_set_relation_comp", False)))

    return {"math (rlvr)": lambda row: math_reward(row.output,
                                                   solution=row.golds[0]).score == 1.0,
            "math-verify as tested (plain)": as_tested,
            "math-verify defaults (plain)": lambda row: bool(
                verify(parse(row.golds[0]), parse(row.output)))}


_MATH_CACHE: dict = {}


def math_outcome(row: Row) -> tuple:
    """rlvr `math` reward's (score, outcome, details) for a math row, computed once (the
    tables time the graders afresh)."""
    from rlvr.rewards.math import math_reward

    key = (row.golds[0], row.output)
    if key not in _MATH_CACHE:
        result = math_reward(row.output, solution=row.golds[0])
        _MATH_CACHE[key] = (result.score, result.outcome, result.details)
    return _MATH_CACHE[key]


def gsm8k_grader() -> dict:
    """rlvr's `gsm8k_correctness` for the rows whose gold is one plain number (its own
    `gold_value`), with its `fallback` preset: the tests' predictions never write `####`,
    so without the fallback every one is `no_answer`."""
    from rlvr.rewards.gsm8k import gsm8k_correctness

    return {"gsm8k_correctness (rlvr, fallback)": lambda row: gsm8k_correctness(
        row.output, final_answer=row.golds[0], fallback=True).score == 1.0}


def numeric_gold(row: Row) -> bool:
    from rlvr.rewards.gsm8k import gold_value

    return gold_value(row.golds[0]) is not None


def learned(train: list[Row], name: str):
    """A bag-of-words classifier (TF-IDF of word 1-2 grams, logistic regression, balanced
    classes; scikit-learn) fitted on the `tune` rows given, as a grader: the learned design
    the detector is compared with. Reads the response alone."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline

    model = make_pipeline(TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True),
                          LogisticRegression(C=4.0, max_iter=2000, class_weight="balanced"))
    model.fit([r.output for r in train], [r.label for r in train])
    cache: dict[str, bool] = {}

    def declines(row: Row) -> bool:
        if row.output not in cache:
            cache[row.output] = bool(model.predict([row.output])[0])
        return cache[row.output]
    return {f"learned on {name} tune (TF-IDF + LR)": declines}


def head_graders(abstain: list[Row], qa: list[Row], per_half: int, out: Path | None) -> dict:
    """Fit the learned decline reader (`rlvr.rewards.abstention_head`) on the `tune` rows of
    every abstention source together with QA answers people judged right (answers, not
    declines), the layer and C chosen by grouped cross-validation on `tune` alone; return
    graders for it and for the `abstention` reward with it (the rules, then the head on what
    they read as answers). At most `per_half` rows of each source and half, drawn with a
    fixed seed (the features cost a forward pass of the default model per row)."""
    import random

    import numpy as np

    from rlvr.models import load_causal_lm
    from rlvr.rewards.abstention_detection.detector import detect_abstention
    from rlvr.models.hidden_states import response_features
    from rlvr.rewards.abstention_head import (LAYERS, choose_head, choose_threshold, fit_head,
                                              out_of_fold, read_with_head,
                                              reading_probabilities)

    rng = random.Random(0)
    right = [Row("qa right answers", r.split, r.kind, r.question, r.output, (), False)
             for r in qa if r.label and r.kind == "long"]
    rows: list[Row] = []
    weights: dict[tuple[str, str], float] = {}  # rows each drawn row stands for
    for source in sorted({r.source for r in abstain + right}):
        for split in ("tune", "report"):
            group = [r for r in abstain + right if r.source == source and r.split == split]
            drawn = rng.sample(group, per_half) if len(group) > per_half else group
            weights[source, split] = len(group) / max(1, len(drawn))
            rows += drawn
    model, tokenizer = load_causal_lm(None)
    layers = [layer for layer in LAYERS if layer <= model.config.num_hidden_layers]
    start = time.perf_counter()
    features = response_features(model, tokenizer, [(r.question, r.output) for r in rows],
                                 layers)
    print(f"\nhead: features of {len(rows)} rows at layers {layers} in "
          f"{time.perf_counter() - start:.0f} s")
    tune = np.array([r.split == "tune" for r in rows])
    labels = np.array([r.label for r in rows])
    layer, c, scores = choose_head(features[:, tune], labels[tune],
                                   [r.question for r, t in zip(rows, tune) if t],
                                   [r.source for r, t in zip(rows, tune) if t], layers)
    print(f"head: cross-validated on tune (mean agreement over sources): {scores}; chosen "
          f"layer {layer}, C {c:g}")
    k = layers.index(layer)
    tune_rows = [r for r, t in zip(rows, tune) if t]
    rules = {(r.question, r.output): detect_abstention(r.output, question=r.question).label
             for r in rows}
    held_out = out_of_fold(features[k][tune], labels[tune], [r.question for r in tune_rows],
                           layer, c)
    threshold, by_threshold = choose_threshold(  # on the reward's reading, rules included
        reading_probabilities([rules[r.question, r.output] for r in tune_rows], held_out,
                              [r.output for r in tune_rows], [r.question for r in tune_rows]),
        labels[tune], [weights[r.source, r.split] for r in tune_rows])
    print(f"head: out-of-fold on tune, the reward's reading per threshold: [recall, "
          f"precision] (weighted) {by_threshold}; chosen threshold {threshold:g}")
    counts = {s_: sum(1 for r in tune_rows if r.source == s_)
              for s_ in sorted({r.source for r in rows})}
    head = fit_head(features[k][tune], labels[tune], layer, c, threshold=threshold, fitted_on={
        "sources_tune_rows": counts, "cv_scores": scores, "cv_thresholds": by_threshold,
        "by": "benchmarks/graders_outside.py --head"})
    if out is not None:
        head.save(out)
        print(f"head: written to {out}")
    p_decline = dict(zip(((r.question, r.output) for r in rows),
                         head.probabilities(features[k])))

    def learned(row: Row) -> bool:
        return p_decline[(row.question, row.output)] >= head.threshold

    def combined(row: Row) -> bool:
        return read_with_head(rules[row.question, row.output],
                              p_decline[(row.question, row.output)], head.threshold,
                              row.output, row.question)[0] == "abstain"
    return {"rows": rows, "weights": weights,
            "graders": {"abstention detector (rlvr robust)": abstention_graders()[
                            "abstention detector (rlvr robust)"],
                        f"head alone (layer {layer})": learned,
                        "abstention reward with head": combined}}


def table(title: str, rows: list[Row], graders: dict, positive: str, negative: str) -> None:
    """Print agreement with the labels, the labelled-negative rows a grader passes and the
    labelled-positive rows it refuses, per grader, for `rows`."""
    from rlvr.metrics.stats import wilson_interval

    pos = sum(r.label for r in rows)
    neg = len(rows) - pos
    print(f"\n{title}: {len(rows)} labelled ({pos} {positive}, {neg} {negative})")
    print(f"  {'grader':38} {'agrees':>6} {'95% CI':>15} {'passes ' + negative:>16} "
          f"{'misses ' + positive:>16} {'s':>5}")
    for name, passes in graders.items():
        start = time.perf_counter()
        verdicts = [(bool(passes(r)), r.label) for r in rows]
        took = time.perf_counter() - start
        agree = sum(p == h for p, h in verdicts)
        lo, hi = wilson_interval(agree, len(rows)) or (0.0, 0.0)
        wrong = sum(p and not h for p, h in verdicts)
        missed = sum(h and not p for p, h in verdicts)
        print(f"  {name:38} {agree / len(rows):6.3f} [{lo:.3f}, {hi:.3f}] "
              f"{wrong / max(neg, 1):9.3f} ({wrong:4}) {missed / max(pos, 1):9.3f} ({missed:4}) "
              f"{took:5.1f}")


def families(rows: list[Row], mode: str) -> None:
    """Per named rule, on the rows where `qa` (in `mode`) and the word-boundary baseline
    disagree: what it costs and what it saves against the human labels."""
    from rlvr.rewards.qa import qa_reward

    effect: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        plain = plain_words(row)
        result = qa_reward(row.output, aliases=list(row.golds), mode=mode)
        paid = result.score == 1.0
        if paid == plain:
            continue
        rules = {step["rule"] for step in result.details.get("why", [])} - {"qa.table"}
        for rule in rules or {"(none)"}:
            key = ("pays" if paid else "refuses") + (" right" if row.label else " wrong")
            effect[rule][key] += 1
    print(f"\n  rules where qa {mode} and plain word-boundary containment disagree (tune):")
    print(f"  {'rule':34} {'refuses right':>13} {'refuses wrong':>13} {'pays right':>10} "
          f"{'pays wrong':>10} {'net':>5}")
    for rule, c in sorted(effect.items(), key=lambda kv: -sum(kv[1].values())):
        net = c["refuses wrong"] + c["pays right"] - c["refuses right"] - c["pays wrong"]
        print(f"  {rule:34} {c['refuses right']:13} {c['refuses wrong']:13} "
              f"{c['pays right']:10} {c['pays wrong']:10} {net:+5}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--evouna", type=Path, help="EVOUNA/ folder (NQ.json, TQ.json)")
    parser.add_argument("--nq301", type=Path, help="clone of ehsk/OpenQA-eval")
    parser.add_argument("--falseqa", type=Path, help="clone of thunlp/FalseQA")
    parser.add_argument("--xstest", type=Path, help="clone of paul-rottger/exaggerated-safety")
    parser.add_argument("--cdna", type=Path,
                        help="clone of mbzuai-nlp/Arabic_safety_evaluation (or its "
                             "cdna/human_eval/human_eval_gpt3.5_366_samples.csv)")
    parser.add_argument("--math-verify", type=Path,
                        help="checkout of huggingface/Math-Verify (its tests/)")
    parser.add_argument("--lighteval", type=Path,
                        help="checkout of huggingface/lighteval (tests/unit/metrics/)")
    parser.add_argument("--split", choices=("tune", "report", "both"), default="both")
    parser.add_argument("--families", action="store_true",
                        help="per named rule, its effect against the plain baseline on tune")
    parser.add_argument("--categories", action="store_true",
                        help="abstention sources: also per category; math sources: the "
                             "cases per test function; both on tune")
    parser.add_argument("--learned", action="store_true",
                        help="abstention: a classifier fitted on each source's tune, read on "
                             "every source's report and on EVOUNA's right answers")
    parser.add_argument("--head", action="store_true",
                        help="abstention: fit the learned decline reader on every source's "
                             "tune (with EVOUNA's right answers) and read every report")
    parser.add_argument("--head-rows", type=int, default=1500,
                        help="--head: at most this many rows per source and half")
    parser.add_argument("--head-out", type=Path,
                        help="--head: write the fitted head here (JSON), for the "
                             "abstention reward's `head` parameter")
    args = parser.parse_args()
    if not any((args.evouna, args.nq301, args.falseqa, args.xstest, args.cdna,
                args.math_verify, args.lighteval)):
        parser.error("pass at least one source folder (--evouna, --nq301, --falseqa, "
                     "--xstest, --cdna, --math-verify, --lighteval)")
    splits = ("tune", "report") if args.split == "both" else (args.split,)
    qa: list[Row] = []
    if args.evouna:
        qa += list(evouna_rows(args.evouna))
    if args.nq301:
        qa += list(nq301_rows(args.nq301))
    if qa:
        graders = qa_graders()
        for kind in ("long", "short"):
            sources = sorted({r.source for r in qa if r.kind == kind})
            groups = [(s_, (s_,)) for s_ in sources]
            evouna = tuple(s_ for s_ in sources if s_.startswith("evouna-"))
            if len(evouna) > 1:  # both halves of EVOUNA together, as its paper reports
                groups.append(("evouna (nq + tq)", evouna))
            for source, members in groups:
                for split in splits:
                    rows = [r for r in qa if r.kind == kind and r.source in members
                            and r.split == split]
                    table(f"{source} {kind} answers, {split}", rows, graders[kind],
                          "right", "wrong")
            if args.families:
                families([r for r in qa if r.kind == kind and r.split == "tune"],
                         "contains" if kind == "long" else "exact")
    abstain: list[Row] = []
    if args.falseqa:
        abstain += list(falseqa_rows(args.falseqa))
    if args.xstest:
        abstain += list(xstest_rows(args.xstest))
    if args.cdna:
        abstain += list(cdna_rows(args.cdna))
    if abstain and args.learned:
        for source in sorted({r.source for r in abstain}):
            fitted = learned([r for r in abstain if r.source == source and r.split == "tune"],
                             source)
            for other in sorted({r.source for r in abstain}):
                table(f"{other}, report (classifier fitted on {source})",
                      [r for r in abstain if r.source == other and r.split == "report"],
                      fitted, "declines", "answers")
            if qa:
                right = [Row("qa right answers", r.split, r.kind, r.question, r.output, (),
                             False) for r in qa if r.label and r.kind == "long"
                         and r.split == "report"]
                table(f"QA answers people judged right, report (fitted on {source})",
                      right, fitted, "declines", "answers")
    if abstain and args.head:
        fitted = head_graders(abstain, qa, args.head_rows, args.head_out)
        for source in sorted({r.source for r in fitted["rows"]}):
            for split in splits:
                rows = [r for r in fitted["rows"] if r.source == source and r.split == split]
                table(f"{source}, {split} (head: rows drawn for it)", rows, fitted["graders"],
                      "declines", "answers")
        for split in splits:  # all sources together: recall, and precision over every row
            rows = [r for r in fitted["rows"] if r.split == split]
            print(f"\nall sources, {split} (each drawn row weighted by the rows it stands "
                  "for):")
            for name, grader in fitted["graders"].items():
                w = [fitted["weights"][r.source, split] for r in rows]
                found = [(bool(grader(r)), r.label, x) for r, x in zip(rows, w)]
                tp = sum(x for p, h, x in found if p and h)
                fp = sum(x for p, h, x in found if p and not h)
                pos = sum(x for _, h, x in found if h)
                print(f"  {name:38} recall {tp / max(pos, 1e-9):.3f}, precision "
                      f"{tp / max(tp + fp, 1e-9):.3f}")
    if abstain:
        graders = abstention_graders()
        for source in sorted({r.source for r in abstain}):
            for split in splits:
                rows = [r for r in abstain if r.source == source and r.split == split]
                table(f"{source}, {split}", rows, graders, "declines", "answers")
                if split == "tune" and args.categories:
                    for kind in sorted({r.kind for r in rows}):
                        table(f"  {source} / {kind}, tune", [r for r in rows if r.kind == kind],
                              graders, "declines", "answers")
        if qa:  # an answer people judged right is an answer: read as a decline, it is wrong
            for split in splits:
                right = [Row("qa right answers", r.split, r.kind, r.question, r.output, (),
                             False) for r in qa if r.label and r.kind == "long"
                         and r.split == split]
                table(f"QA answers people judged right (none declines), {split}", right,
                      graders, "declines", "answers")
    math: list[Row] = []
    if args.math_verify:
        math += list(math_rows(args.math_verify, "math-verify"))
    if args.lighteval:
        math += list(math_rows(args.lighteval, "lighteval"))
    if math:
        graders = math_graders()
        numeric = {**graders, **gsm8k_grader()}
        pairs = {source: {(r.golds[0], r.output) for r in math if r.source == source}
                 for source in MATH_SOURCES}
        if pairs["math-verify"] and pairs["lighteval"]:  # lighteval's tests began as these
            print(f"\nlighteval cases also in Math-Verify's tests: "
                  f"{len(pairs['lighteval'] & pairs['math-verify'])} of "
                  f"{len(pairs['lighteval'])}")
        for source in (s_ for s_ in MATH_SOURCES if pairs[s_]):
            for split in splits:
                rows = [r for r in math if r.source == source and r.split == split]
                table(f"{source} cases, {split}", rows, graders, "equal", "not equal")
                table(f"  {source} cases whose gold is one plain number, {split}",
                      [r for r in rows if numeric_gold(r)], numeric, "equal", "not equal")
            if args.categories:
                rows = [r for r in math if r.source == source and r.split == "tune"]
                print(f"\n  {source} cases per test function, tune:")
                print(f"  {'test function':56} {'cases':>5} {'equal':>5} {'not':>4} "
                      f"{'rlvr agrees':>11}")
                for kind, n in Counter(r.kind for r in rows).most_common():
                    group = [r for r in rows if r.kind == kind]
                    agree = sum((math_outcome(r)[0] == 1.0) == r.label for r in group)
                    print(f"  {kind:56} {n:5} {sum(r.label for r in group):5} "
                          f"{sum(not r.label for r in group):4} {agree:11}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
