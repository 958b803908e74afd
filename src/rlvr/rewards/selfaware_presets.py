"""The `selfaware` reward's table: its outcomes, the values of each preset (`seed`,
`strict`, `ternary`, ...) and `SelfAwarePreset`, the dataclass whose fields are the
reward's parameters (checked when a config loads). How a response is read into an outcome
is `rlvr.rewards.selfaware`; the tables are described in its docstring.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.abstention_detection import SEED_PATTERNS
from rlvr.rewards.answers import ABSTAIN_VALUE, ANSWER_FORMATS
from rlvr.rewards.judge import DECISIONS
from rlvr.rewards.registry import get_reward

STRICT_PRESET = {
    "mode": "robust",
    "match": "word",
    "hedge_correct": 0.5,
    "hedge_wrong": -1.0,
    "hedge_unanswerable": -0.5,
    "list_candidates": -1.0,
}

# Outcome groups, for metrics that count answerable/unanswerable questions and abstentions.
ANSWERABLE_OUTCOMES = ("correct", "wrong", "abstained", "hedged_correct", "hedged_wrong",
                       "listed_candidates", "no_answer")
UNANSWERABLE_OUTCOMES = ("abstained_unanswerable", "answered_unanswerable", "hedged_unanswerable",
                         "no_answer_unanswerable")
ABSTAINED_OUTCOMES = ("abstained", "abstained_unanswerable")
HEDGED_OUTCOMES = ("hedged_correct", "hedged_wrong", "hedged_unanswerable")

SEED_VALUES = {
    "correct": 1.0,
    "abstain_answerable": -0.5,
    "wrong": -1.0,
    "abstain_unanswerable": 1.0,
    "answer_unanswerable": -1.0,
}


REFERENCE_PRESET = {"match": "substring", "fold_unicode": False}
TERNARY_PRESET = {**STRICT_PRESET, **SEED_VALUES, "abstain_answerable": 0.0}
# the registered presets: each a set of overrides of `SelfAwarePreset`'s defaults
# "default" is `strict` everywhere (training's default too); `seed` is the reference table
PRESETS = {"default": STRICT_PRESET, "seed": {}, "strict": STRICT_PRESET,
           "ternary": TERNARY_PRESET, "reference": REFERENCE_PRESET}


@dataclass(frozen=True)
class SelfAwarePreset:
    """One `selfaware` configuration: the values of the calibration table and the rules that
    read a response. The defaults are the `seed` table (the reference project's).

    Every field is a key of the reward's parameters (`reward_params` in a config, `--param`
    on `rlvr score`, `params` of a `reward_funcs` entry); `named(preset, **params)` builds
    one from a preset name plus those overrides. The registry reads the fields as the
    reward's parameters (`rlvr.rewards.contract.check_params`): an unknown key, a value of
    the wrong type, a reward value outside [-1, 1] or a choice not in `PARAM_CHOICES` is
    refused with one message that names the key and the fix, when the config loads.

    Attributes:
        correct, abstain_answerable, wrong, abstain_unanswerable, answer_unanswerable:
            the reward of each cell of the seed table (module docstring).
        hedge_correct, hedge_wrong, hedge_unanswerable: rewards of hedged responses
            (robust mode only; defaults: the strict table's).
        list_candidates: reward of an answer offered among several candidates (outcome
            `listed_candidates`; not in `substring` matching).
        abstain_known: the reward of abstaining on an answerable question the base model
            answers correctly (the row's `known` flag, `rlvr.eval.knowledge`), instead of
            `abstain_answerable` (over-conservativeness, Yang et al., 2024); None (default):
            no knowledge-aware value.
        mode: "seed" (the seed table: the 19 `patterns`) or "robust" (the strict table:
            the robust detector's answer / abstain / hedge labels; `patterns` unused).
        patterns: abstention phrases of seed mode (default: the 19 seed patterns).
        extra_patterns: patterns added to the robust detector (see
            `rlvr.rewards.abstention_detection.robust_patterns`).
        match: "word" (default: word boundaries, numbers by value, lists of candidates
            detected; `rlvr.rewards.answers.match`) or "substring" (the reference
            project's plain containment).
        fold_unicode: fold typographic quotes and Unicode compatibility forms before
            matching (default True). The `reference` preset (`match="substring"`,
            `fold_unicode=False`, seed mode) reproduces the reference project's matcher
            bit for bit, e.g. "I don\u2019t know" is not an abstention there.
        answer_format: "free" (default: the tables of the module docstring), "boxed" (the
            last `\\boxed{...}` is the answer) or "answer_line" (the last `Answer: ...`
            line): in a structured format nothing is matched against phrase lists,
            abstention is exactly `abstain_text` in the field, a response without the
            field is `no_answer` (scored `wrong`) or `no_answer_unanswerable` (scored
            `answer_unanswerable`, never an abstention); `mode` and the hedge values are
            unused (`score_structured` has the table).
        abstain_text: the abstention value of the structured formats (default "I don't
            know"; compared after `rlvr.rewards.answers.normalise_value`).
        decision: "rules" (default) or "judge": the LLM judge of `judge` labels the response
            (seed mode: abstain or hedge = a phrase) and with `correctness: judge` grades it
            (`rlvr.rewards.judge`; outcomes `judge_unparsed`, `judge_error`).
        judge: the judge's settings, with `decision: judge` (`rlvr.rewards.judge`).
    """

    correct: float = SEED_VALUES["correct"]
    abstain_answerable: float = SEED_VALUES["abstain_answerable"]
    wrong: float = SEED_VALUES["wrong"]
    abstain_unanswerable: float = SEED_VALUES["abstain_unanswerable"]
    answer_unanswerable: float = SEED_VALUES["answer_unanswerable"]
    hedge_correct: float = STRICT_PRESET["hedge_correct"]
    hedge_wrong: float = STRICT_PRESET["hedge_wrong"]
    hedge_unanswerable: float = STRICT_PRESET["hedge_unanswerable"]
    list_candidates: float = STRICT_PRESET["list_candidates"]
    abstain_known: float | None = None
    mode: str = "seed"
    patterns: tuple[str, ...] = SEED_PATTERNS
    extra_patterns: dict[str, Any] | None = None
    match: str = "word"
    fold_unicode: bool = True
    answer_format: str = "free"
    abstain_text: str = ABSTAIN_VALUE
    decision: str = "rules"
    judge: dict[str, Any] | None = None

    @classmethod
    def named(cls, preset: str | None = None, **params: Any) -> SelfAwarePreset:
        """The registered preset `preset` (None = "default"; `PRESETS`) with `params`
        applied, checked as the registry checks a config's `reward_params`.

        Raises:
            RlvrError: an unknown preset (the known ones listed) or a bad parameter (the
                message names the key and the fix; `rlvr.rewards.contract.check_params`).
        """
        return cls(**get_reward("selfaware").params(preset, **params))

    def outcome_values(self) -> dict[str, float]:
        """The score of each free-text outcome under this configuration ({"correct": ...,
        "answered_unanswerable": ...}; `abstained` is `abstain_answerable`, as for a row
        without a `known` flag): what a table of expected outcomes compares by reward."""
        return {"correct": self.correct, "wrong": self.wrong,
                "abstained": self.abstain_answerable, "hedged_correct": self.hedge_correct,
                "hedged_wrong": self.hedge_wrong, "listed_candidates": self.list_candidates,
                "abstained_unanswerable": self.abstain_unanswerable,
                "hedged_unanswerable": self.hedge_unanswerable,
                "answered_unanswerable": self.answer_unanswerable}

    def abstain_value(self, known: Any) -> float:
        """The reward of abstaining on an answerable question: `abstain_known` when it is set
        and the row's `known` flag is true, else `abstain_answerable`.

        Raises:
            RlvrError: a `known` flag that is not a boolean (see `_as_bool`).
        """
        if self.abstain_known is not None and known is not None and as_bool(known):
            return self.abstain_known
        return self.abstain_answerable


# text parameters and their allowed values (refused at configuration time otherwise)
PARAM_CHOICES = {"answer_format": ANSWER_FORMATS, "mode": ("seed", "robust"),
                 "match": ("word", "substring"), "decision": DECISIONS}


_TRUE, _FALSE = ("1", "true", "yes"), ("0", "false", "no", "")


def as_bool(value) -> bool:
    """A flag from data: bools, 0/1, or the strings true/false/yes/no/1/0.

    Raises:
        RlvrError: anything else ("maybe" is not read as false).
    """
    if isinstance(value, bool) or value is None:
        return bool(value)
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise RlvrError(f"'is_unanswerable' must be true or false, got {value!r}")
