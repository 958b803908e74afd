"""Shortcut check: can the question's wording alone tell answerable from unanswerable rows?

If a bag of words predicts `is_unanswerable` from the question text, a policy trained on the
rows can earn the calibration reward by reading the wording ("abstain when a year is named")
instead of judging what it knows, and a held-out split cut from the same templates will not
show it. `shortcut_check` fits two small classifiers with scikit-learn and reports their
cross-validated balanced accuracy (the mean of the recall on each class; 0.5 is chance,
whatever the class shares):

* `words`: logistic regression on a binary bag of words (unigrams and bigrams, lower case,
  numbers kept as tokens), with the words that carry it most in each direction;
* `features`: logistic regression on the named cheap features of `rlvr.data.features`
  (mentions a year, a number, the future tense, the question word, a person, the length),
  with the share of unanswerable rows for each feature value.

It warns when either balanced accuracy exceeds `threshold`. Some signal is legitimate ("my"
marks private facts, which the model cannot know), so the words are there to be read: a
warning says "look", not "wrong". scikit-learn is imported inside `shortcut_check` (the
`train` extra installs it); the rest of the module is standard library.
Source: the classifier probes of dataset artefacts (Gururangan et al., 2018, "Annotation
Artifacts in Natural Language Inference Data": a hypothesis-only classifier).
"""

from __future__ import annotations

from typing import Any, Sequence

from rlvr.data.features import FEATURES, question_features
from rlvr.errors import DataError

DEFAULT_THRESHOLD = 0.85
FOLDS = 5
TOP_WORDS = 10
# a feature value is listed as skewed when it holds at least this many rows and its share of
# unanswerable rows differs from the whole set's by at least MIN_SKEW
MIN_VALUE_ROWS = 10
MIN_SKEW = 0.25


def shortcut_check(questions: Sequence[str], unanswerable: Sequence[bool],
                   threshold: float = DEFAULT_THRESHOLD, seed: int = 0) -> dict[str, Any]:
    """Cross-validated balanced accuracy of predicting `unanswerable` from `questions`.

    Args:
        questions: question texts (no chat template), one per row.
        unanswerable: the rows' labels, same order.
        threshold: warn above this balanced accuracy, in (0.5, 1].
        seed: the folds' shuffle.
    Returns:
        {"n", "unanswerable", "base_rate": share of unanswerable rows, "threshold",
        "words": {"balanced_accuracy", "folds", "unanswerable_words": [(word, weight)],
        "answerable_words": [...]}, "features": {"balanced_accuracy", "folds", "skewed":
        [{"feature", "value", "rows", "unanswerable_share"}]}, "warnings": [str]}.
        Balanced accuracy is the mean over `FOLDS` stratified folds (fewer when a class has
        fewer rows; None with fewer than 2 rows of either class).
    Raises:
        DataError: the lengths differ, or scikit-learn is not installed (the fix names the
            extra).
    """
    if len(questions) != len(unanswerable):
        raise DataError(f"{len(questions)} questions but {len(unanswerable)} labels")
    try:
        from sklearn.feature_extraction import DictVectorizer
        from sklearn.feature_extraction.text import CountVectorizer
    except ImportError:
        raise DataError("the shortcut check needs scikit-learn; install it with "
                        "pip install 'rlvr[train]' (or pip install scikit-learn)") from None
    labels = [bool(u) for u in unanswerable]
    n_un = sum(labels)
    out: dict[str, Any] = {"n": len(labels), "unanswerable": n_un,
                           "base_rate": n_un / len(labels) if labels else None,
                           "threshold": threshold, "warnings": []}
    words = CountVectorizer(binary=True, lowercase=True, ngram_range=(1, 2),
                            token_pattern=r"(?u)\b\w+\b")
    feats = [question_features(q) for q in questions]
    for name, vectorizer, inputs in (("words", words, list(questions)),
                                     ("features", DictVectorizer(), feats)):
        out[name] = _fit(vectorizer, inputs, labels, seed)
    coef = out["words"].pop("coef", None)
    out["features"].pop("coef", None)
    if coef is not None:
        weights = sorted(zip(coef, words.get_feature_names_out()))
        out["words"]["unanswerable_words"] = [(w, round(c, 3)) for c, w in
                                              reversed(weights[-TOP_WORDS:]) if c > 0]
        out["words"]["answerable_words"] = [(w, round(c, 3)) for c, w in weights[:TOP_WORDS]
                                            if c < 0]
    out["features"]["skewed"] = skewed_values(feats, labels)
    for name, label in (("words", "a bag of words"), ("features", "the named features")):
        acc = out[name]["balanced_accuracy"]
        if acc is not None and acc > threshold:
            out["warnings"].append(
                f"{label} predicts which questions are unanswerable from their wording alone "
                f"(balanced accuracy {acc:.3f} > {threshold:g}): a policy can learn the "
                "wording instead of what it knows")
    return out


def _fit(vectorizer: Any, inputs: list[Any], labels: list[bool], seed: int) -> dict[str, Any]:
    """Cross-validated balanced accuracy of a logistic regression on `vectorizer`'s
    features, and the coefficients of one fit on every row (`coef`, by feature index)."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score

    smaller = min(sum(labels), len(labels) - sum(labels))
    if smaller < 2:
        return {"balanced_accuracy": None, "folds": 0}
    folds = min(FOLDS, smaller)
    x = vectorizer.fit_transform(inputs)
    model = LogisticRegression(max_iter=2000)
    split = StratifiedKFold(n_splits=folds, shuffle=True, random_state=seed)
    scores = cross_val_score(model, x, labels, cv=split, scoring="balanced_accuracy")
    model.fit(x, labels)
    return {"balanced_accuracy": round(float(scores.mean()), 4), "folds": folds,
            "coef": [float(c) for c in model.coef_[0]]}


def skewed_values(feats: Sequence[dict[str, str]], labels: Sequence[bool]) -> list[dict[str, Any]]:
    """Feature values (`rlvr.data.features`) whose rows' share of unanswerable questions is
    at least `MIN_SKEW` away from the whole set's, among values with at least
    `MIN_VALUE_ROWS` rows; most skewed first."""
    if not labels:
        return []
    base = sum(labels) / len(labels)
    out = []
    for feature in FEATURES:
        values: dict[str, list[bool]] = {}
        for f, label in zip(feats, labels):
            values.setdefault(f[feature], []).append(label)
        for value, items in values.items():
            share = sum(items) / len(items)
            if len(items) >= MIN_VALUE_ROWS and abs(share - base) >= MIN_SKEW:
                out.append({"feature": feature, "value": value, "rows": len(items),
                            "unanswerable_share": round(share, 3)})
    return sorted(out, key=lambda v: -abs(v["unanswerable_share"] - base))


def shortcut_lines(result: dict[str, Any]) -> list[str]:
    """The check as printable lines (the command prints them; `rlvr train` logs them)."""
    def acc(section: dict[str, Any]) -> str:
        value = section["balanced_accuracy"]
        return "n/a (a class has fewer than 2 rows)" if value is None else f"{value:.3f}"

    lines = [f"{result['n']} rows, {result['unanswerable']} unanswerable "
             f"(base rate {result['base_rate']:.3f}); balanced accuracy of predicting "
             "unanswerable from the question alone (0.5 = chance):",
             f"  bag of words:     {acc(result['words'])}",
             f"  named features:   {acc(result['features'])}"]
    words = result["words"]
    if words.get("unanswerable_words"):
        lines.append("  words that point to unanswerable: "
                     + ", ".join(w for w, _ in words["unanswerable_words"]))
        lines.append("  words that point to answerable:   "
                     + ", ".join(w for w, _ in words["answerable_words"]))
    for v in result["features"]["skewed"]:
        lines.append(f"  skewed: {v['feature']} = {v['value']}: {v['unanswerable_share']:.0%} "
                     f"unanswerable of {v['rows']} rows")
    lines += [f"WARNING: {w}" for w in result["warnings"]]
    return lines

