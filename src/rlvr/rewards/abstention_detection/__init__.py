"""Abstention detection: does a response decline to answer, hedge, or answer?

One entry point for the rest of rlvr (the `abstention` and `selfaware` rewards, the data
builders, the cross-check): `detect_abstention` (the robust detector: `answer`, `abstain`
or `hedge`, with the phrase that decided it), `classify` (either detector by mode),
`is_abstention` / `seed_abstention_match` (the reference project's 19 phrases) and the
pattern sets a config can extend (`robust_patterns`). Inside the package:

| module | what it is |
|---|---|
| `detector` | the seed and robust detectors, and the `Detection` they return |
| `patterns` | the robust detector's pattern data (English) and its fast matcher |
| `grammar` | the English grammar of declining that the abstain patterns are built from |
| `languages` | the other languages' patterns, data in `abstention_languages.json` |
| `rules` | rules that read the text around a phrase (side issues, estimates, answer sentences) |
| `compiler` | how pattern data becomes one fast regular expression per kind |

Standard library only.
"""

from rlvr.rewards.abstention_detection.detector import (
    SEED_PATTERNS,
    Detection,
    classify,
    detect_abstention,
    is_abstention,
    question_text,
    seed_abstention_match,
)
from rlvr.rewards.abstention_detection.patterns import (
    ROBUST_PATTERNS,
    AbstentionPatterns,
    robust_patterns,
)

__all__ = ["SEED_PATTERNS", "ROBUST_PATTERNS", "AbstentionPatterns", "Detection", "classify",
           "detect_abstention", "is_abstention", "question_text", "robust_patterns",
           "seed_abstention_match"]
