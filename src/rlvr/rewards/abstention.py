"""Abstention ("I don't know") detection.

`seed` mode is the reference project's rule: a response abstains when its stripped,
lower-cased text contains any of 19 fixed phrases. It is deliberately simple (it fires
on "I cannot stress this enough" and misses "no one knows"); it is kept unchanged as the
baseline that the calibration reward's `seed` preset uses.
"""

from __future__ import annotations

SEED_PATTERNS: tuple[str, ...] = (
    "i don't know",
    "i do not know",
    "i cannot",
    "i can't",
    "i'm not able to",
    "i am not able to",
    "i'm unable to",
    "i am unable to",
    "i'm uncertain",
    "i am uncertain",
    "i'm unsure",
    "i am unsure",
    "i honestly don't know",
    "i'm afraid i don't know",
    "this is something i'm unable to",
    "not sure",
    "no definitive answer",
    "beyond my knowledge",
    "outside my knowledge",
)


def seed_abstention_match(text: str, patterns: tuple[str, ...] = SEED_PATTERNS) -> str | None:
    """Return the first seed pattern found in `text`, or None.

    Matching is a case-insensitive substring test on the stripped text, as in the
    reference project. Typographic apostrophes ("I don\u2019t know") do not match, exactly
    as in the reference; the `robust` detector of the rewards library handles them.
    """
    lowered = text.strip().lower()
    for pattern in patterns:
        if pattern in lowered:
            return pattern
    return None


def is_abstention(text: str, patterns: tuple[str, ...] = SEED_PATTERNS) -> bool:
    """True when `text` abstains under the seed rule (see `seed_abstention_match`)."""
    return seed_abstention_match(text, patterns) is not None
