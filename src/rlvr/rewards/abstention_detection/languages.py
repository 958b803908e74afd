"""Abstention phrasings in languages other than English, kept as package data.

`abstention_languages.json` maps a language code (ISO 639-1) to

    {"name": "Spanish",
     "abstain": [regex, ...],   # "I don't know", "nobody knows", "I can't predict that"
     "commit": [regex, ...],    # "pero creo que es": with an abstention it makes a hedge
     "scoped": [regex, ...],    # optional: ignorance about a side issue
     "veto": [regex, ...],      # optional: idioms that only look like an abstention
     "refuse": [regex, ...],    # optional: a verb of giving or helping right after a
                                # decline phrase ("提供" after "我无法"): a refusal of the
                                # request, which declines whatever advice follows
     "sources": ["where the phrasings come from", ...]}

The patterns follow the rules of `patterns` (this package): they are matched
against the lower-cased (and Unicode-folded) response, a space matches any whitespace,
and only ASCII letters get automatic word boundaries, so a pattern that starts or ends
with another letter (é, ß, Cyrillic, Persian) guards itself, e.g. `не(?<![^\\W\\d_]не)`
or a trailing `(?![^\\W\\d_])`. `language_patterns(kind)` gives all languages' patterns
of one kind; the default pattern sets add them to the English ones.

The languages are the ten most used content languages of websites in W3Techs' survey
(as quoted by Wikipedia's "Languages used on the Internet", November 2024: English,
Spanish, Russian, German, French, Japanese, Portuguese, Turkish, Italian, Persian;
English lives in patterns.py and grammar.py), plus Chinese, Korean and Arabic.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path
from typing import Any

from rlvr.errors import RlvrError

DATA_FILE = "abstention_languages.json"
PATTERN_KINDS = ("abstain", "commit", "guess", "scoped", "veto", "refuse")
REQUIRED_FIELDS = ("name", "abstain", "commit", "sources")
_FIELDS = ("name", *PATTERN_KINDS, "sources")
_CODE = re.compile(r"[a-z]{2,3}(?:-[a-z0-9]{2,8})*")


def _strings(where: str, field: str, value: Any, *, patterns: bool) -> list[str]:
    """`value` as a list of strings (compiled when `patterns`), or a clear error."""
    if not isinstance(value, list):
        raise RlvrError(f"{where}: {field!r} must be a list of strings, got {type(value).__name__}")
    for i, item in enumerate(value):
        if not isinstance(item, str) or not item:
            raise RlvrError(f"{where}: {field}[{i}] must be a non-empty string, got {item!r}")
        if patterns:
            try:
                re.compile(item)
            except re.error as exc:
                raise RlvrError(f"{where}: {field}[{i}] is not a valid regular expression "
                                f"({exc}): {item!r}") from None
    return list(value)


def parse_languages(data: Any, source: str = DATA_FILE) -> dict[str, dict[str, Any]]:
    """Validate parsed language data (the JSON object) and return it normalised.

    Every language gets all four pattern kinds (missing optional ones become []).

    Args:
        data: the decoded JSON.
        source: the file name used in error messages.
    Raises:
        RlvrError: naming `source`, the language and the bad entry, for a non-object,
            a bad language code, an unknown or missing field, a non-string entry or a
            regular expression that does not compile.
    """
    if not isinstance(data, dict):
        raise RlvrError(f"{source}: expected a JSON object of languages, got {type(data).__name__}")
    languages: dict[str, dict[str, Any]] = {}
    for code, entry in data.items():
        where = f"{source}: language {code!r}"
        if not _CODE.fullmatch(code):
            raise RlvrError(f"{where}: the key must be a lower-case ISO 639 code such as 'es'")
        if not isinstance(entry, dict):
            raise RlvrError(f"{where}: expected an object, got {type(entry).__name__}")
        unknown = sorted(set(entry) - set(_FIELDS))
        if unknown:
            raise RlvrError(f"{where}: unknown field(s) {unknown}; known: {list(_FIELDS)}")
        missing = [field for field in REQUIRED_FIELDS if field not in entry]
        if missing:
            raise RlvrError(f"{where}: missing field(s) {missing}")
        if not isinstance(entry["name"], str) or not entry["name"].strip():
            raise RlvrError(f"{where}: 'name' must be a non-empty string, got {entry['name']!r}")
        parsed: dict[str, Any] = {"name": entry["name"]}
        for kind in PATTERN_KINDS:
            parsed[kind] = _strings(where, kind, entry.get(kind, []), patterns=True)
        parsed["sources"] = _strings(where, "sources", entry["sources"], patterns=False)
        if not parsed["sources"]:
            raise RlvrError(f"{where}: 'sources' must name at least one source")
        languages[code] = parsed
    return languages


def load_languages(path: str | Path | None = None) -> dict[str, dict[str, Any]]:
    """Read and validate a language file (default: the packaged `abstention_languages.json`).

    Raises:
        RlvrError: the file is missing or not valid JSON, or its data is malformed
            (see `parse_languages`); the message names the file.
    """
    if path is None:
        source = DATA_FILE
        packaged = resources.files("rlvr.rewards.abstention_detection").joinpath(DATA_FILE)
        text = packaged.read_text(encoding="utf-8")
    else:
        source = str(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RlvrError(f"{source}: cannot read the abstention language file ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RlvrError(f"{source}: not valid JSON ({exc})") from None
    return parse_languages(data, source)


LANGUAGES: dict[str, dict[str, Any]] = load_languages()


def language_patterns(kind: str,
                      languages: dict[str, dict[str, Any]] | None = None) -> tuple[str, ...]:
    """All languages' patterns of one kind, in file order.

    Args:
        kind: "abstain", "commit", "guess", "scoped", "veto" or "refuse".
        languages: parsed language data (default: `LANGUAGES`).
    Raises:
        RlvrError: unknown kind.
    """
    if kind not in PATTERN_KINDS:
        raise RlvrError(f"unknown abstention pattern kind {kind!r} in {DATA_FILE}; "
                        f"known: {list(PATTERN_KINDS)}")
    languages = LANGUAGES if languages is None else languages
    return tuple(pattern for entry in languages.values() for pattern in entry.get(kind, ()))


def language_pattern_ids(kind: str,
                         languages: dict[str, dict[str, Any]] | None = None) -> tuple[str, ...]:
    """The ids of `language_patterns(kind)`, in the same order: "<kind>:<language code>#<n>",
    n counting from 1 within the language's list ("abstain:es#3": the third Spanish
    abstention pattern of the file).

    Raises:
        RlvrError: unknown kind.
    """
    language_patterns(kind, languages)  # the same check
    languages = LANGUAGES if languages is None else languages
    return tuple(f"{kind}:{code}#{n}" for code, entry in languages.items()
                 for n, _ in enumerate(entry.get(kind, ()), 1))
