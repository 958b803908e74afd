"""The graders against labels written outside the project, beside the plain baseline.

Every source is a set of real model outputs judged by people outside this project. None is
shipped with rlvr (no network at run time, and not every licence allows a copy): clone the
repository and pass its folder. Each source is split once, by question, with a fixed seed,
into `tune` (the only half a grader change may look at) and `report`; both are printed.

QA (`qa`, answers judged right or wrong by people):
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

    .venv/bin/python benchmarks/graders_outside.py --evouna DIR --nq301 DIR \
        --falseqa DIR --xstest DIR [--families]

For each grader and source: the share of labels it agrees with (95% Wilson interval), the
share of labelled-wrong answers it pays (for abstention: the answers it reads as declines)
and the share of labelled-right ones it refuses (declines it misses), beside the field's
plain baseline for the same job: SQuAD-normalised exact match and containment (as a
substring and on word boundaries, EVOUNA's `lexical_match.py`) for QA; the reference
project's 19 phrases as substrings (the `seed` detector) for abstention. EVOUNA's two
halves are also printed together, as its paper reports them. The QA answers people judged
right are read by the abstention detector too: an answer is no decline, so each one read
as declining is a false decline.

`--learned` fits a bag-of-words classifier on each abstention source's `tune` and reads it
on every source's `report` and on the QA answers judged right: the learned design beside
the rules. `--families` prints, on `tune`, what each named rule does against the
word-boundary baseline where the two disagree: right answers it refuses and wrong ones it
blocks, right ones it pays and wrong ones it pays (a rule is credited on every row whose
`why` names it). `--categories` breaks each abstention source down by its label category.
"""

from __future__ import annotations

import argparse
import ast
import csv
import hashlib
import json
import re
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

SEED = "rlvr-outside-0"
CHAT_MODELS = ("gpt35", "chatgpt", "gpt4", "newbing")


@dataclass(frozen=True)
class Row:
    """One labelled output: `label` True when the people judged the answer right (QA) or
    the response a decline (abstention)."""
    source: str
    split: str
    kind: str            # "long" / "short" (QA), the category (abstention)
    question: str
    output: str
    golds: tuple[str, ...]
    label: bool


def split_of(source: str, question: str) -> str:
    """`tune` or `report`, fixed by a hash of the seed, the source and the question (every
    answer to one question falls in the same half)."""
    digest = hashlib.sha256(f"{SEED}|{source}|{question.strip().lower()}".encode()).digest()
    return "tune" if digest[0] % 2 == 0 else "report"


def _need(path: Path, what: str) -> Path:
    if not path.is_file():
        sys.exit(f"{path}: not found; {what}")
    return path


def evouna_rows(folder: Path):
    """EVOUNA's judged answers: the four chat models' as `long`, FiD's as `short` (its
    aliases are one string split with "/"); improper questions left out."""
    for name in ("NQ.json", "TQ.json"):
        path = _need(folder / name, "pass --evouna with the folder holding EVOUNA's NQ.json "
                     "and TQ.json (github.com/wangcunxiang/QA-Eval, EVOUNA/)")
        source = f"evouna-{name[:2].lower()}"
        for item in json.loads(path.read_text(encoding="utf-8")):
            if item.get("improper"):
                continue
            golds = tuple(g.strip() for g in item["golden_answer"].split("/") if g.strip())
            split = split_of(source, item["question"])
            for model in CHAT_MODELS + ("fid",):
                judged, answer = item.get(f"judge_{model}"), item.get(f"answer_{model}")
                if isinstance(judged, bool) and isinstance(answer, str):
                    yield Row(source, split, "short" if model == "fid" else "long",
                              item["question"], answer, golds, judged)


def nq301_rows(folder: Path):
    """NQ301's human judgements ("Acceptable?" Yes/No); the golds are the `answer` lists
    of the model-output files, matched by question."""
    human = _need(folder / "data" / "NQ301_human.tsv", "pass --nq301 with a clone of "
                  "github.com/ehsk/OpenQA-eval")
    golds: dict[str, tuple[str, ...]] = {}
    for path in sorted((folder / "data" / "model_outputs").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                golds.setdefault(item["question"].strip().lower(), tuple(item["answer"]))
    with human.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            question = row["Question"].strip()
            gold = golds.get(question.lower())
            if gold and row["Acceptable?"] in ("Yes", "No"):
                answer = row["Model answer"]
                yield Row("nq301", split_of("nq301", question),
                          "short" if len(answer.split()) <= 5 else "long", question, answer,
                          gold, row["Acceptable?"] == "Yes")


def falseqa_rows(folder: Path):
    """FalseQA: each human answer of a false-premise question (label 1) rebuts the premise:
    a decline; each human answer of a true-premise question (label 0) answers it."""
    for name in ("train.csv", "valid.csv", "test.csv"):
        path = _need(folder / "dataset" / name, "pass --falseqa with a clone of "
                     "github.com/thunlp/FalseQA")
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                try:
                    answers = ast.literal_eval(row["answer"])
                except (ValueError, SyntaxError):
                    answers = [row["answer"]]
                premise_false = row["label"].strip() == "1"
                for answer in answers if isinstance(answers, list) else [answers]:
                    if isinstance(answer, str) and answer.strip():
                        yield Row("falseqa", split_of("falseqa", row["question"]),
                                  "false premise" if premise_false else "true premise",
                                  row["question"], answer, (), premise_false)


def xstest_rows(folder: Path):
    """XSTest's human-labelled completions (two annotators and a final label per completion):
    a full or partial refusal declines, full compliance answers. These are refusals for
    safety, not for not knowing; they show whether the detector reads a decline written in
    a model's own words."""
    paths = sorted((folder / "model_completions").glob("xstest_v2_completions_*.csv"))
    if not paths:
        sys.exit(f"{folder}/model_completions: no xstest_v2_completions_*.csv; pass --xstest "
                 "with a clone of github.com/paul-rottger/exaggerated-safety")
    for path in paths:
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                label, answer = row.get("final_label", ""), row.get("completion", "")
                if answer.strip() and label[:1] in "123":
                    yield Row("xstest", split_of("xstest", row["prompt"]),
                              label.split("_", 1)[1], row["prompt"], answer.strip(), (),
                              label[:1] in "23")


# ---------------------------------------------------------------------------- graders

def qa_graders():
    """name -> (kind it applies to, paid(row) -> bool, why(row) -> list of rule ids)."""
    from rlvr.rewards.qa import normalize_answer, qa_reward

    def plain_exact(row: Row) -> bool:
        said = normalize_answer(row.output)
        return any(normalize_answer(g) == said for g in row.golds)

    def plain_substring(row: Row) -> bool:
        said = normalize_answer(row.output)
        return any(normalize_answer(g) and normalize_answer(g) in said for g in row.golds)

    def plain_words(row: Row) -> bool:
        said = normalize_answer(row.output)
        return any(normalize_answer(g) and re.search(
            rf"(?<!\S){re.escape(normalize_answer(g))}(?!\S)", said) for g in row.golds)

    def rlvr(mode):
        return lambda row: qa_reward(row.output, aliases=list(row.golds), mode=mode).score == 1.0

    return {
        "long": {"qa contains (rlvr)": rlvr("contains"),
                 "plain containment (substring)": plain_substring,
                 "plain containment (word boundaries)": plain_words},
        "short": {"qa exact (rlvr)": rlvr("exact"), "plain exact match": plain_exact,
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
    from rlvr.rewards.qa import normalize_answer, qa_reward

    effect: dict[str, Counter] = defaultdict(Counter)
    for row in rows:
        said = normalize_answer(row.output)
        plain = any(normalize_answer(g) and re.search(
            rf"(?<!\S){re.escape(normalize_answer(g))}(?!\S)", said) for g in row.golds)
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
    parser.add_argument("--split", choices=("tune", "report", "both"), default="both")
    parser.add_argument("--families", action="store_true",
                        help="per named rule, its effect against the plain baseline on tune")
    parser.add_argument("--categories", action="store_true",
                        help="abstention sources: also per category, on tune")
    parser.add_argument("--learned", action="store_true",
                        help="abstention: a classifier fitted on each source's tune, read on "
                             "every source's report and on EVOUNA's right answers")
    args = parser.parse_args()
    if not any((args.evouna, args.nq301, args.falseqa, args.xstest)):
        parser.error("pass at least one source folder (--evouna, --nq301, --falseqa, --xstest)")
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
