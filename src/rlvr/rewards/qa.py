"""`qa` reward: SQuAD-style normalised match against any gold alias.

Both sides are normalised the way the SQuAD v1.1 evaluation script does it (lower-case,
punctuation removed, the articles "a", "an", "the" removed, whitespace collapsed); the
answer scores 1.0 when it equals any normalised alias (`exact` mode). `contains` mode
also accepts an alias found inside the answer on word boundaries ("10" does not contain
"1"), unless a negation word comes right before it ("not Mark Twain"). Contains mode is
easier to satisfy by listing several candidates; prefer `exact` for training.

When the response has `<answer>...</answer>` tags, only the last tag's content is read
(an empty tag is an empty answer, not a fallback to the whole text).
"""

from __future__ import annotations

import functools
import re
import string
import unicodedata
from typing import Any

from rlvr.rewards.base import RewardResult, register_reward

_ARTICLES_RE = re.compile(r"\b(?:a|an|the)\b")
_ANSWER_TAG_RE = re.compile(r"<answer>(.*?)</answer>", re.DOTALL)
_NEGATIONS = frozenset({"not", "no", "never", "isnt", "wasnt", "arent", "nor", "neither"})
_PUNCT_TABLE = {ord(c): None for c in string.punctuation}


@functools.lru_cache(maxsize=65536)  # gold aliases repeat: once per generation in GRPO
def normalize_answer(text: str) -> str:
    """SQuAD normalisation: lower-case, drop punctuation (ASCII and Unicode), drop the
    articles a/an/the, collapse whitespace.

    Source: the official SQuAD v1.1 evaluation script (`normalize_answer`); Unicode
    punctuation (curly quotes, dashes) is dropped too, which the original leaves in.
    """
    text = text.lower().translate(_PUNCT_TABLE)
    if not text.isascii():
        text = "".join(ch for ch in text if not unicodedata.category(ch).startswith("P"))
    return " ".join(_ARTICLES_RE.sub(" ", text).split())


def gold_aliases(aliases: Any = None, answer: Any = None) -> list[str]:
    """Normalised, non-empty gold strings from an `aliases` list and/or an `answer` str."""
    values: list[Any] = []
    for item in (aliases, answer):
        if isinstance(item, str):
            values.append(item)
        elif isinstance(item, (list, tuple)):
            values.extend(item)
    normalised = (normalize_answer(v) for v in values if isinstance(v, str))
    return list(dict.fromkeys(n for n in normalised if n))


def extract_response_answer(text: str) -> str:
    """The content of the last `<answer>` tag when there is one, else the whole text."""
    tags = _ANSWER_TAG_RE.findall(text)
    return tags[-1] if tags else text


def _contains(prediction: str, alias: str) -> bool:
    words, target = prediction.split(), alias.split()
    n = len(target)
    for i in range(len(words) - n + 1):
        if words[i:i + n] == target and (i == 0 or words[i - 1] not in _NEGATIONS):
            return True
    return False


@register_reward("qa", fields=(), required_any=("aliases", "answer"), score_range=(0.0, 1.0),
                 presets={"default": {}, "contains": {"mode": "contains"}})
def qa_reward(completion: str, *, aliases: Any = None, answer: Any = None, mode: str = "exact",
              correct: float = 1.0, wrong: float = 0.0) -> RewardResult:
    """1.0 when the normalised answer matches a normalised gold alias.

    Args:
        completion: the response (the last `<answer>` tag's content when present).
        aliases: list of acceptable gold strings (e.g. TriviaQA's `aliases`).
        answer: a single gold string; used with or instead of `aliases`.
        mode: "exact" (normalised equality) or "contains" (alias inside the answer on
            word boundaries, not right after a negation).
        correct, wrong: the two scores (kept within [0, 1]).
    Returns:
        RewardResult with outcome `correct`, `wrong`, `empty_answer` (nothing left after
        normalisation) or `no_gold` (score None: no usable alias). Details: `prediction`
        (normalised), `matched`.
    Raises:
        ValueError: unknown mode.
    Source: Rajpurkar et al. (2016), SQuAD evaluation script; TriviaQA uses the same
        normalisation over aliases (Joshi et al., 2017).
    """
    if mode not in ("exact", "contains"):
        raise ValueError(f"qa mode must be 'exact' or 'contains', got {mode!r}")
    golds = gold_aliases(aliases, answer)
    if not golds:
        return RewardResult(None, "no_gold", {"error": "no non-empty alias"})
    prediction = normalize_answer(extract_response_answer(completion or ""))
    details: dict[str, Any] = {"prediction": prediction}
    if not prediction:
        return RewardResult(wrong, "empty_answer", details)
    if mode == "exact":
        hit = prediction if prediction in golds else None
    else:
        hit = next((g for g in golds if _contains(prediction, g)), None)
    if hit is None:
        return RewardResult(wrong, "wrong", details)
    return RewardResult(correct, "correct", {**details, "matched": hit})
