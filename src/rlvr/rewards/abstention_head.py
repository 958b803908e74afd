"""A learned decline reader: a logistic-regression head on a language model's hidden states.

The rule-based detector (`rlvr.rewards.abstention_detection`) reads declines by their
wording; people decline in wordings it lacks and reject false premises without any
("Broccoli is green." to "Why is broccoli purple?"). This head reads a model's
representation of the pair instead of its words: the question and the response are framed
as "Question: <question>\nResponse: <response>" (`rlvr.models.hidden_states`) and passed
through a causal LM (the default SmolLM2-135M-Instruct unless the head names another); the
hidden states of one layer are averaged over the response's tokens (a vector of the model's
hidden size) and a standardised logistic regression gives P(decline). This is
the linear-probe design (Alain & Bengio 2016, "Understanding intermediate layers using
linear classifier probes"), fitted on labelled responses (`fit_head`).

No head is shipped: the labels it is measured on (benchmarks/graders_outside.py --head)
include FalseQA's, which carry no licence, so `benchmarks/graders_outside.py --head-out
PATH` fits one from the user's local copies and writes it as JSON
(`AbstentionHead.save`) for the `abstention` reward's `head` parameter. Figures and
limits: docs/rewards_abstention.md.

numpy and scikit-learn for the head; the features come from the model stack
(`rlvr.models.hidden_states.response_features`, imported when a head reads).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Sequence

from rlvr.errors import RlvrError
from rlvr.rewards.abstention_detection.rules import content_words, stems

FORMAT = "rlvr-abstention-head/1"
LAYERS = (8, 16, 24, 30)   # candidate layers `choose_head` tries (clipped to the model's)
C_VALUES = (0.003, 0.01, 0.03, 0.1)  # candidate inverse regularisation strengths
THRESHOLDS = tuple(round(0.05 * k, 2) for k in range(1, 20))  # 0.05 ... 0.95
RECALL_GOAL, PRECISION_GOAL = 0.85, 0.90  # the outside yardstick's goals for decline reading


@dataclass
class AbstentionHead:
    """A fitted head: P(decline) = sigmoid(coef . (h - mean) / scale + intercept), h the
    response's mean hidden state at `layer` of `model`.

    Attributes:
        model: the model spec whose hidden states it reads (`rlvr.models.resolve_model`;
            None = the default model).
        layer: hidden-state index; threshold: P(decline) at or above which it declines.
        mean, scale, coef: vectors of the model's hidden size; intercept: a number.
        fitted_on: what it was fitted on (sources, rows, the cross-validated choice).
    """

    model: str | None
    layer: int
    mean: list[float]
    scale: list[float]
    coef: list[float]
    intercept: float
    threshold: float = 0.5
    fitted_on: dict[str, Any] = field(default_factory=dict)

    def probabilities(self, features):
        """P(decline) for features of shape (n, hidden_size) at `self.layer`."""
        import numpy as np

        z = (np.asarray(features, dtype=np.float64) - np.asarray(self.mean)) \
            / np.asarray(self.scale)
        return 1.0 / (1.0 + np.exp(-(z @ np.asarray(self.coef) + self.intercept)))

    def save(self, path: str | Path) -> None:
        """Write the head as JSON, atomically (`rlvr.io.write_json`)."""
        from rlvr.io import write_json

        write_json(path, {"format": FORMAT, **asdict(self)})

    @classmethod
    def load(cls, path: str | Path) -> "AbstentionHead":
        """Read a head `save` wrote.

        Raises:
            RlvrError: the file is missing, not JSON, not a head, or its vectors disagree
                in length.
        """
        path = Path(path)
        if not path.is_file():
            raise RlvrError(f"abstention head {path}: no such file; write one with "
                            "benchmarks/graders_outside.py --head-out PATH")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RlvrError(f"abstention head {path}: not readable JSON ({exc})") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RlvrError(f"abstention head {path}: not a head (its 'format' is not "
                            f"{FORMAT!r}); write one with benchmarks/graders_outside.py "
                            "--head-out PATH")
        data.pop("format")
        try:
            head = cls(**data)
        except TypeError as exc:
            raise RlvrError(f"abstention head {path}: {exc}") from None
        if not len(head.mean) == len(head.scale) == len(head.coef) > 0:
            raise RlvrError(f"abstention head {path}: mean, scale and coef differ in length")
        return head


def fit_head(features, labels: Sequence[bool], layer: int, c: float, model: str | None = None,
             fitted_on: dict[str, Any] | None = None, threshold: float = 0.5) -> AbstentionHead:
    """Fit a head on features of shape (n, hidden_size) (one layer of `response_features`)
    and labels (True = the response declines): standardised features, L2 logistic
    regression with inverse strength `c` and balanced class weights (scikit-learn);
    `threshold` is stored with it (`choose_threshold` picks one).

    Raises:
        RlvrError: fewer than two labels of either class.
    """
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    y = np.asarray(labels, dtype=bool)
    if min(int(y.sum()), int((~y).sum())) < 2:
        raise RlvrError(f"abstention head: need at least two declines and two answers to fit, "
                        f"got {int(y.sum())} and {int((~y).sum())}")
    x = np.asarray(features, dtype=np.float64)
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    fitted = LogisticRegression(C=c, max_iter=5000, class_weight="balanced")
    fitted.fit((x - mean) / scale, y)
    return AbstentionHead(model, int(layer), mean.tolist(), scale.tolist(),
                          fitted.coef_[0].tolist(), float(fitted.intercept_[0]),
                          threshold=float(threshold), fitted_on=dict(fitted_on or {}))


def out_of_fold(features, labels: Sequence[bool], groups: Sequence[str], layer: int, c: float,
                folds: int = 5):
    """P(decline) of every row from a head fitted on the other folds (grouped k-fold: every
    answer to one question lands in one fold), a float array of shape (n,); `features` of
    shape (n, hidden_size) as `fit_head` takes them."""
    import numpy as np
    from sklearn.model_selection import GroupKFold

    x, y = np.asarray(features), np.asarray(labels, dtype=bool)
    p = np.zeros(len(y))
    for train, test in GroupKFold(folds).split(x, y, np.asarray(groups)):
        p[test] = fit_head(x[train], y[train], layer, c).probabilities(x[test])
    return p


def choose_head(features, labels: Sequence[bool], groups: Sequence[str],
                strata: Sequence[str], layers: Sequence[int], folds: int = 5,
                c_values: Sequence[float] = C_VALUES) -> tuple[int, float, dict]:
    """Choose the layer and `c` by grouped k-fold cross-validation on the fitting rows alone.

    Args:
        features: shape (len(layers), n, hidden_size),
            `rlvr.models.hidden_states.response_features` of the rows.
        labels: True = declines; groups: the question of each row (its folds keep every
            answer to one question together); strata: each row's source, so the score is the
            mean over sources of the agreement at P(decline) >= 0.5 within each (a large
            source does not drown a small one).
    Returns:
        (layer, c, {"layer|c": mean cross-validated score}).
    """
    import numpy as np

    y, strata = np.asarray(labels, dtype=bool), np.asarray(strata)
    scores: dict[str, float] = {}
    best = None
    for k, layer in enumerate(layers):
        for c in c_values:
            hit = (out_of_fold(features[k], y, groups, layer, c, folds) >= 0.5) == y
            score = float(np.mean([hit[strata == s].mean() for s in np.unique(strata)]))
            scores[f"{layer}|{c:g}"] = round(score, 4)
            if best is None or score > best[0]:
                best = (score, layer, c)
    return best[1], best[2], scores


def choose_threshold(p_decline, labels: Sequence[bool], weights=None,
                     recall_goal: float = RECALL_GOAL, precision_goal: float = PRECISION_GOAL,
                     thresholds: Sequence[float] = THRESHOLDS) -> tuple[float, dict]:
    """The threshold on P(decline) whose smaller margin to the two goals is largest:
    max over `thresholds` of min(recall - recall_goal, precision - precision_goal), recall
    and precision of "declines" weighted by `weights` (rows each row stands for; None = 1).
    Read on out-of-fold probabilities (`out_of_fold`) so the rows that fit the head do not
    choose its threshold; ties go to the lower threshold.

    Args:
        p_decline: shape (n,); labels: True = declines; weights: shape (n,) or None.
    Returns:
        (threshold, {"threshold": [recall, precision]}).
    Raises:
        RlvrError: no labelled decline to measure recall on.
    """
    import numpy as np

    p, y = np.asarray(p_decline, dtype=np.float64), np.asarray(labels, dtype=bool)
    w = np.ones(len(y)) if weights is None else np.asarray(weights, dtype=np.float64)
    if not (w * y).sum() > 0:
        raise RlvrError("abstention head: no decline among the rows to choose a threshold on")
    table: dict[str, list[float]] = {}
    best = None
    for t in thresholds:
        read = p >= t
        recall = float((w * (read & y)).sum() / (w * y).sum())
        precision = float((w * (read & y)).sum() / (w * read).sum()) if read.any() else 1.0
        table[f"{t:g}"] = [round(recall, 4), round(precision, 4)]
        margin = min(recall - recall_goal, precision - precision_goal)
        if best is None or margin > best[0]:
            best = (margin, float(t))
    return best[1], table


_NEGATIONS = frozenset({"never", "none", "nobody", "nothing", "nope", "neither"})


def speaks_to(response: str, question: str) -> bool:
    """Whether `response` shares a content word with `question` (3+ letters, not a stop
    word or a negation, a final "s" dropped: `abstention_detection.rules.content_words`).
    A rebuttal corrects what the question names and a refusal names what it refuses; a
    response that names nothing of the question ("Never ever.", "No, no, no, it is
    not.", "Sorry, it's Paris.") can be said to any question, so the head does not read it."""
    said = stems(content_words(response.lower()) - _NEGATIONS)
    return bool(said & stems(content_words(question.lower())))


def read_with_head(rules_label: str, p_decline: float, threshold: float, response: str = "",
                   question: str = "") -> tuple[str, str | None]:
    """The label of a response read by the rules and a head: the rules' `abstain` and
    `hedge` stand (their declines in other languages, clarification requests and terse
    "No idea." included; a guess behind a disclaimer stays a hedge); a response they read
    as an answer declines when the head's P(decline) reaches `threshold` and the response
    speaks to the question (`speaks_to`).

    Returns (label, the rule that decided: "head.decline" where the head turned an answer
    into a decline, "head.off_question" where it would have but the response shares no
    content word with the question, else None). Source (docs/rewards_abstention.md): the
    rules come first since an attack showed the head overturning their terse, non-English
    and clarifying declines; the guard since one fixed string ("Never ever.") was read as
    a decline to every question; the threshold by `choose_threshold` on out-of-fold
    probabilities of the outside labels' `tune` halves."""
    if rules_label != "answer" or p_decline < threshold:
        return rules_label, None
    if not speaks_to(response, question):
        return "answer", "head.off_question"
    return "abstain", "head.decline"


def reading_probabilities(rules_labels: Sequence[str], p_decline, responses: Sequence[str],
                          questions: Sequence[str]):
    """What `read_with_head` compares with its threshold, per row, shape (n,): 1 for the
    rules' abstentions, 0 for their hedges and for answers the head does not read
    (`speaks_to`), else P(decline). `choose_threshold` on these picks the threshold of the
    reward's own reading, not of the head alone."""
    import numpy as np

    return np.array([1.0 if label == "abstain" else
                     float(p) if label == "answer" and speaks_to(r, q) else 0.0
                     for label, p, r, q in zip(rules_labels, p_decline, responses, questions)])


class HeadReader:
    """P(decline) of (question, response) pairs under a head, with its model loaded once.

    Args:
        head: the head, or a path to its JSON (`AbstentionHead.load`).
        model, tokenizer: the loaded model to read with (tests); None = load `head.model`
            (`rlvr.models.load_causal_lm`, float32, eval mode).
    """

    def __init__(self, head: AbstentionHead | str | Path, model=None, tokenizer=None):
        self.head = head if isinstance(head, AbstentionHead) else AbstentionHead.load(head)
        if model is None:
            from rlvr.models import load_causal_lm

            model, tokenizer = load_causal_lm(self.head.model)
        self.model, self.tokenizer = model.eval(), tokenizer

    def probabilities(self, pairs: Sequence[tuple[str, str]]):
        """P(decline) per pair, a float array of shape (len(pairs),)."""
        from rlvr.models.hidden_states import response_features

        features = response_features(self.model, self.tokenizer, pairs, [self.head.layer])
        return self.head.probabilities(features[0])

    def declines(self, question: str, response: str) -> tuple[bool, float]:
        """(declines, P(decline)) for one pair."""
        p = float(self.probabilities([(question, response)])[0])
        return p >= self.head.threshold, p


_READERS: dict[str, HeadReader] = {}


def head_reader(path: str | Path) -> HeadReader:
    """The `HeadReader` of the head at `path`, loaded on first use and kept for the process
    (a reward calls it once per completion).

    Raises:
        RlvrError: as `AbstentionHead.load`.
    """
    key = str(Path(path).resolve())
    if key not in _READERS:
        _READERS[key] = HeadReader(key)
    return _READERS[key]
