"""The labelled sources of benchmarks/graders_outside.py: each read from a local copy of its
repository into `Row`s, split once by question into `tune` and `report`.

What each source is, its licence and how to get it: the docstring of graders_outside.py
and docs/rewards.md ("Judged by labels written outside the project").
"""

from __future__ import annotations

import ast
import csv
import hashlib
import json
import re
import sys
from collections import defaultdict
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
    setting: tuple = ()  # math: (name, value) pairs of the test's own call (`math_rows`)


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


CDNA_FILE = "cdna/human_eval/human_eval_gpt3.5_366_samples.csv"
CDNA_ACTIONS = {"0": "refuses", "5": "follows the instruction"}  # the labels read (see below)


def cdna_rows(folder: Path):
    """The Chinese Do-Not-Answer human evaluation (Wang et al. 2024, "A Chinese Dataset for
    Evaluating the Safeguards in Large Language Models"): GPT-3.5's Chinese responses to 366
    risky or risky-looking questions, each given a response type by people (`action_label`,
    the Do-Not-Answer scheme). Type 0 (not willing to answer) declines, type 5 (directly
    follows the instruction) answers; types 1-4 (refutes the question's opinion, both sides,
    a disclaimer, "cannot answer because of my limits or unsure", whose rows mostly go on to
    answer) are left out, as no one label of ours is theirs."""
    path = folder / CDNA_FILE if folder.is_dir() else folder
    _need(path, "pass --cdna with a clone of github.com/mbzuai-nlp/Arabic_safety_evaluation "
          f"(its {CDNA_FILE})")
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            action, question = row.get("action_label", "").strip(), row.get("question_zh", "")
            answer = row.get("response_zh", "").strip()
            if action in CDNA_ACTIONS and answer and question.strip():
                yield Row("cdna-zh", split_of("cdna-zh", question), CDNA_ACTIONS[action],
                          question.strip(), answer, (), action == "0")


MATH_SOURCES = {  # source -> (test files under the folder, how to get the folder)
    "math-verify": ("tests/test_*.py", "pass --math-verify with a checkout of "
                    "github.com/huggingface/Math-Verify (its tests/ folder)"),
    "lighteval": ("tests/unit/metrics/test_extractive_match.py", "pass --lighteval with a "
                  "checkout of github.com/huggingface/lighteval (tests/unit/metrics/)"),
}
_SETTINGS = ("match_types", "precision", "strict", "allow_set_relation_comp", "language")


def _value(node, case: dict):
    """A call argument's value: a test parameter by name, a literal, a dotted name
    (`Language.ENGLISH`) as its text; ValueError otherwise (an f-string, a call)."""
    if isinstance(node, ast.Name) and node.id in case:
        return case[node.id]
    if isinstance(node, ast.Attribute):
        return ast.unparse(node)
    return ast.literal_eval(node)


def _helper_params(trees: list) -> list[str]:
    """The parameter names of the tests' `compare_strings` helper (defined in the file or
    in test_all.py, which the other files import it from)."""
    for tree in trees:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name == "compare_strings":
                return [a.arg for a in node.args.args]
    return ["gold", "pred"]


def _math_cases(path: Path, helper: list[str]):
    """(test function, gold, prediction, expected, setting, comment) for each case of each
    `@pytest.mark.parametrize` whose names include gold, pred and expected (or result),
    read with `ast` (nothing is imported or run). `setting` is what the test passes to
    `compare_strings` (match types, precision, strict, ...) or ("call", "verify") for a
    test calling `verify(parse(gold), parse(pred))`; `comment` is the nearest `#` line
    above the case in the list (the authors' category), or ""."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    for func in ast.walk(ast.parse(text)):
        if not isinstance(func, ast.FunctionDef):
            continue
        call = next((n for n in ast.walk(func) if isinstance(n, ast.Call) and
                     isinstance(n.func, ast.Name) and n.func.id in ("compare_strings",
                                                                     "verify")), None)
        for deco in func.decorator_list:
            if not (isinstance(deco, ast.Call) and ast.unparse(deco.func).endswith(
                    "mark.parametrize") and len(deco.args) >= 2 and call is not None):
                continue
            try:
                names = [n.strip() for n in ast.literal_eval(deco.args[0]).split(",")]
            except (ValueError, SyntaxError, AttributeError):
                continue
            said = "expected" if "expected" in names else "result"
            if not {"gold", "pred", said} <= set(names) or not isinstance(
                    deco.args[1], (ast.List, ast.Tuple)):
                continue
            for element in deco.args[1].elts:
                try:
                    values = [_value(e, {}) for e in element.elts]
                    case = dict(zip(names, values, strict=True))
                    if call.func.id == "verify":
                        setting = (("call", "verify"),)
                    else:
                        bound = {**dict(zip(helper, call.args)),
                                 **{k.arg: k.value for k in call.keywords}}
                        setting = (("call", "compare_strings"),) + tuple(
                            (k, _value(bound[k], case)) for k in _SETTINGS if k in bound)
                        setting = tuple((k, tuple(v) if isinstance(v, list) else v)
                                        for k, v in setting)
                except (ValueError, SyntaxError, TypeError, AttributeError, KeyError):
                    continue  # an f-string or a computed value: not a literal case
                comment = ""
                for line in reversed(lines[deco.args[1].lineno:element.lineno - 1]):
                    if line.strip().startswith("#") and not re.match(  # a case commented
                            r"#\s*[()\"']", line.strip()):  # out is no heading
                        comment = line.strip().lstrip("#").strip()
                        break
                main = path.name in ("test_all.py", "test_extractive_match.py")
                yield (func.name if main else f"{path.stem}::{func.name}", case["gold"],
                       case["pred"], case[said], setting, comment)


def math_rows(folder: Path, source: str = "math-verify"):
    """The library authors' own regression cases (`_math_cases`): gold, a model-style
    prediction and whether the two must be judged equal, `label` True for equal. Kept: gold
    and prediction strings, expected a bool or 0/1; lighteval's only in English and with
    LaTeX/expression extraction (its letter-choice cases are no math). A (gold, prediction)
    pair the tests label both ways under different settings (`strict`,
    `allow_set_relation_comp`) is left out: its answer depends on a switch, not on the
    math. `kind` is the test function; the authors' comment above the case is in
    `setting` as ("comment", ...)."""
    pattern, how = MATH_SOURCES[source]
    paths = sorted(folder.glob(pattern))
    if not paths:
        sys.exit(f"{folder}/{pattern}: not found; {how}")
    trees = [ast.parse(p.read_text(encoding="utf-8")) for p in paths]
    helper = _helper_params(trees)
    cases, labels = [], defaultdict(set)
    for path in paths:
        for func, gold, pred, expected, setting, comment in _math_cases(path, helper):
            given = dict(setting)
            if not (isinstance(gold, str) and isinstance(pred, str) and
                    isinstance(expected, (bool, int)) and expected in (0, 1)):
                continue
            if str(given.get("language", "Language.ENGLISH")) != "Language.ENGLISH" or \
                    not set(given.get("match_types", ("latex",))) <= {"latex", "expr"}:
                continue
            cases.append((func, gold, pred, bool(expected), setting + (("comment", comment),
                                                                       ("file", path.name))))
            labels[gold, pred].add(bool(expected))
    seen = set()
    for func, gold, pred, expected, setting in cases:
        if len(labels[gold, pred]) > 1 or (gold, pred) in seen:
            continue
        seen.add((gold, pred))
        # split under Math-Verify's name for both sources: a case lighteval repeats falls
        # in the same half as Math-Verify's
        yield Row(source, split_of("math-verify", gold + "|" + pred), func, "", pred,
                  (gold,), expected, setting)
