"""How the robust abstention detector's pattern data becomes fast regular expressions.

Patterns are written in a small dialect (see `patterns`, this package): MACROS
spell the usual contractions once, a space matches any run of whitespace and an apostrophe
also matches its typographic forms. `compile_kind` turns one kind's patterns into one
alternation, rewritten so every branch opens with a literal and grouped like a trie: the
scan of a response without any abstention stays at several hundred thousand responses per
second (`benchmarks/rewards.py`).
"""

from __future__ import annotations

import re

MACROS: dict[str, str] = {
    "{dont}": "(?:do not|don't|dont)",
    "{cant}": "(?:cannot|can not|can't|cant)",
    "{couldnt}": "(?:could not|couldn't|couldnt|was unable to|wasn't able to|was not able to)",
    "{im}": "(?:i'm|i am|im)",
    "{verb}": ("(?:answer|say|tell|know|determine|predict|provide|give|confirm|verify|find|"
               "locate|identify|access|recall|remember|look up|browse|check|be sure|"
               "be certain|speak to|comment on|calculate|foresee|guarantee|pinpoint)"),
}


def _closing(pattern: str, open_at: int) -> int:
    """Index of the ")" that closes the group opening at `open_at` (-1 if unbalanced)."""
    depth, i = 0, open_at
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = pattern.find("]", i + 2)
            if i < 0:
                return -1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_top(body: str) -> list[str]:
    """Split a group body on its top-level "|"."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(body[start:i])
            start = i + 1
        i += 1
    return parts + [body[start:]]


def _literal_first(pattern: str, depth: int = 0) -> list[str]:
    """Rewrite a pattern that opens with a (?:a|b) group (optionally `?`) into branches
    that each open with a literal character.

    Python's regex engine skips quickly over positions whose character cannot start any
    branch only when every branch opens with a literal; this keeps the no-abstention scan
    at several hundred thousand responses per second. Patterns it cannot rewrite are kept
    as they are (still correct, only slower).
    """
    if depth > 4 or not pattern.startswith("(?:"):
        return [pattern]
    end = _closing(pattern, 0)
    if end < 0:
        return [pattern]
    rest = pattern[end + 1:]
    optional = rest.startswith("?") and not rest.startswith("??")
    if optional:
        rest = rest[1:]
    elif rest[:1] in ("*", "+", "{"):
        return [pattern]
    branches = [alt + rest for alt in _split_top(pattern[3:end])] + ([rest] if optional else [])
    return [b for branch in branches for b in _literal_first(branch, depth + 1)]


def _first_unit(branch: str) -> int:
    """Length of the literal that opens `branch` (0 when it does not open with one)."""
    if branch[:1] == "\\":
        return 2 if branch[1:2] in "\\#{}()[].*+?|$^-" and branch[1:2] else 0
    return 1 if branch[:1] and branch[:1] not in "()[].*+?|$^{" else 0


def _requires(items) -> bool:
    """True when every match of a parsed regex sequence contains a non-ASCII character."""
    from re import _constants as c  # the parser's opcodes (standard library)

    for op, arg in items:
        if op is c.LITERAL and arg > 127:
            return True
        if op is c.IN and arg and all(o is c.LITERAL and a > 127 for o, a in arg):
            return True
        if op is c.SUBPATTERN and _requires(arg[-1]):
            return True
        if op is c.BRANCH and all(_requires(alt) for alt in arg[1]):
            return True
        if op in (c.MAX_REPEAT, c.MIN_REPEAT) and arg[0] > 0 and _requires(arg[2]):
            return True
    return False


def _needs_non_ascii(pattern: str) -> bool:
    """True when `pattern` cannot match ASCII-only text (it requires a non-ASCII literal).

    Decided on the standard library's regex parse tree; a pattern it cannot analyse is
    kept (False), which is only slower, never wrong.
    """
    try:
        from re import _parser

        return _requires(_parser.parse(pattern))
    except Exception:  # noqa: BLE001  (private API: fall back to keeping the pattern)
        return False


def compile_kind(patterns: tuple[str, ...], ascii_only: bool = False) -> re.Pattern:
    """One regex for a pattern kind.

    Macros are expanded, a space matches any whitespace, an apostrophe also matches its
    typographic forms, and no ASCII letter may follow a pattern that ends in a letter or a
    group (start boundaries are checked by `iter_matches`). Branches are grouped by their
    opening literals (`_factor`), so the engine tries one group per position.
    With `ascii_only`, branches that require a non-ASCII character are left out: they
    cannot match ASCII text, and skipping their groups keeps the scan of English text as
    fast as before other languages were added.
    """
    branches: list[str] = []
    for pattern in patterns:
        for macro, value in MACROS.items():
            pattern = pattern.replace(macro, value)
        pattern = pattern.replace(" ", r"\s+").replace("'", "['\u2019\u2018\u02bc]")
        if len(_split_top(pattern)) > 1:
            pattern = f"(?:{pattern})"  # a top-level "a|b" stays one unit below
        if pattern[-1:] == ")" or (pattern[-1:].isascii() and pattern[-1:].isalpha()):
            pattern += r"(?![a-z])"
        for branch in _literal_first(pattern):
            if ascii_only and not branch.isascii() and _needs_non_ascii(branch):
                continue
            branches.append(branch)
    return re.compile(_factor(branches, 3) or r"(?!x)x")


def _factor(branches: list[str], depth: int) -> str:
    """Join branches into one alternation, grouped by their opening literals like a trie
    (`n(?:o(?: idea|t ...)|...)`) down to `depth` levels, so that at each position the
    engine tries only the branches that can still match."""
    if depth == 0 or len(branches) < 2:
        return "|".join(branches)
    groups: dict[str, list[str]] = {}
    plain: list[str] = []
    for branch in branches:
        unit = _first_unit(branch)
        if unit and branch[unit:unit + 1] not in ("*", "+", "?", "{"):
            groups.setdefault(branch[:unit], []).append(branch[unit:])
        else:
            plain.append(branch)
    parts = [key + rests[0] if len(rests) == 1 else f"{key}(?:{_factor(rests, depth - 1)})"
             for key, rests in groups.items()]
    return "|".join(parts + plain)
