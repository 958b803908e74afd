"""Pattern data and the fast matcher of the robust abstention detector.

Patterns are data: regular expressions matched against the lower-cased response. A space
in a pattern matches any run of whitespace, an apostrophe also matches its typographic
forms, and the MACROS spell the usual contractions once. A pattern that starts with an
ASCII letter must start on a word boundary, and no ASCII letter may follow one that ends
in a letter or a group; patterns that start or end with other letters (Korean particles
attach to words, CJK has no spaces) carry their own boundaries where needed. English
patterns live here; the other languages are data in `abstention_languages.json`.
`robust_patterns({"abstain": [...], ...})` extends the built-in sets from a config.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.abstention_languages import language_patterns

MACROS: dict[str, str] = {
    "{dont}": "(?:do not|don't|dont)",
    "{cant}": "(?:cannot|can not|can't|cant)",
    "{couldnt}": "(?:could not|couldn't|couldnt|was unable to|wasn't able to|was not able to)",
    "{im}": "(?:i'm|i am|im)",
    "{verb}": ("(?:answer|say|tell|know|determine|predict|provide|give|confirm|verify|find|"
               "locate|identify|access|recall|remember|look up|browse|check|be sure|"
               "be certain|speak to|comment on|calculate|foresee|guarantee|pinpoint)"),
}

# An abstention phrase: the response declines to give an answer, or says none exists.
ABSTAIN: tuple[str, ...] = (
    r"i (?:really |honestly |genuinely |simply |just |truly |actually )?{dont} (?:really |actually )?know",
    r"i {dont} have (?:any |enough |sufficient |the |reliable |specific |real-time |current |access to |"
    r"that |this |such |precise |exact |up-to-date |much |that kind of |this kind of |an |a )*"
    r"(?:information|data|knowledge|details|context|way of knowing|means of knowing|answer|access|records?)",
    r"i have no (?:idea|clue|way of knowing|means of knowing|information|data|knowledge|access|record|"
    r"way to (?:know|tell))",
    r"no idea",
    r"{im} (?:uncertain|unsure)",
    r"not (?:entirely |completely |totally |quite |really |100% |absolutely )?(?:sure|certain)",
    r"{im} not aware of",
    # as broad as the seed list ("i cannot", "i'm unable to"): idioms are vetoed below
    r"{im} (?:not able|unable) to",
    r"i (?:{cant}|{couldnt})",
    r"(?:{cant}|{couldnt}|could never|can never) be (?:determined|known|predicted|answered|verified|"
    r"confirmed|calculated|ascertained|said|established|identified)",
    r"(?:impossible|not possible) (?:for (?:me|anyone|us|anybody) )?to {verb}",
    r"there(?:'s| is) no (?:way|means|reliable way) (?:to|of) (?:know|knowing|tell|telling|predict|"
    r"predicting|determine|determining|say|saying|be sure|answer|answering)",
    r"no(?: |)(?:one|body) (?:really |truly |actually |currently )?(?:knows|can know|can say|can tell|"
    r"can predict|can answer|is sure|is certain|has the answer)",
    r"(?:insufficient|not enough|inadequate) (?:information|data|context|details|evidence)",
    r"(?:there is|there's|there are) no (?:reliable |available |public |known |sufficient )?"
    r"(?:information|data|records?|evidence) (?:available|about|on|regarding)",
    r"no (?:definitive|definite|clear|certain|conclusive|known|reliable) answer",
    r"(?:beyond|outside) (?:of )?(?:my|the scope of my) (?:knowledge|training|expertise)",
    r"(?:is|are|remains?|still) (?:currently |still |largely |completely |simply )?(?:unknown|unknowable|"
    r"not known|a mystery|unclear|undetermined|unanswerable)",
    r"(?:hard|difficult) to (?:say|tell|know|predict|determine)",
    r"(?:my|the) (?:knowledge|training data)(?: cutoff)? (?:{dont}|does not|doesn't|{cant}) "
    r"(?:include|cover|contain|extend)",
    r"i would (?:only )?be (?:guessing|speculating)",
    r"i can only (?:guess|speculate)",
    r"who knows",
    r"we (?:{dont} (?:really )?know|(?:may|might|will|could) never know)",
    r"(?:is|are|was|were)(?:n't| not) (?:yet |currently )?known",
    r"(?:isn't|is not|there's not|there is not) enough (?:information|data|context|evidence)",
    r"not something (?:i|anyone|we) (?:can|could) (?:answer|know|say|tell|predict|determine)",
    r"anyone's guess",
    r"(?:it's|it is|that's|that is) a mystery",
    r"no clue",
    r"i (?:wouldn't|would not) know",
    r"{im} not familiar with",
    # an uncertainty word that ends a sentence: "Unknown.", "It's unclear." (literal first,
    # so the scan keeps its fast skip)
    r"(?:unknown|unknowable|uncertain|unclear|unsure|not known|undetermined)(?=\s*[.!]|\s*$)",
) + language_patterns("abstain")  # other languages: abstention_languages.json

# Ignorance about a side issue ("I don't know why you ask, but ..."): an abstention only
# when the response commits to nothing.
SCOPED: tuple[str, ...] = (
    r"i (?:really |honestly )?{dont} (?:really )?know (?:why|how come|how (?:you|they|he|she|it|this|that|we|"
    r"people|anyone)|where you got|what you mean)",
    r"not (?:entirely |really |quite )?(?:sure|certain) (?:why|how come|what you mean|where the name|"
    r"who (?:named|coined))",
    r"{im} (?:uncertain|unsure) (?:why|how come|what you mean)",
) + language_patterns("scoped")

# Idioms that contain an abstention phrase but say nothing about knowledge; a phrase that
# overlaps one of these does not count.
VETO: tuple[str, ...] = (
    r"i {cant} (?:stress|emphasi[sz]e|overstate|thank|wait|believe|imagine|tell you how|say enough|"
    r"help but|agree more|recommend|give up|see why|think of (?:any|another|anything|a |an ))",
    r"i {dont} know (?:about you|if you(?:'ve| have) (?:heard|noticed|seen)|what i(?:'d| would) do without)",
    r"(?:anyone|someone|somebody|everyone|people|person|those|one|experts?) who knows",
    # negated or denied ignorance: "it's not that i don't know", "i would never say i don't know"
    r"not that (?:i {dont} know|{im} (?:not sure|unsure|uncertain))",
    r"(?:never|not|{dont}|wouldn't|won't|will not|didn't|did not) (?:say|said|claim|claimed|pretend) "
    r"(?:that )?(?:i {dont} know|{im} (?:not sure|unsure|uncertain))",
) + language_patterns("veto")

# A committed answer. With an abstention phrase it makes a hedge.
COMMIT: tuple[str, ...] = (
    r"####\s*[-+$]?\d",
    r"\\boxed\{",
    r"<answer>\s*[^<\s]",
    r"(?:the |my )?(?:final |best |correct |likely |probable )?answer (?:is|would be|might be|could be|"
    r"should be|=|:)",
    r"(?:but|however|though|although|still|that said|nevertheless|yet),? (?:i (?:think|believe|suspect|"
    r"guess|would guess|would say|'d guess|'d say|reckon)|it(?: is|'s| was| might be| may be| could be|"
    r" would be| should be| seems| sounds| looks| must be)(?! (?:sure|a good idea|fun|interesting|"
    r"fascinating|important|worth|always|hard|difficult|impossible|possible|unclear|unknown|likely to|"
    r"an? (?:interesting|exciting|great|good|fun|fascinating|difficult|tough|hard|open|complex)))"
    r"|probably|likely|most likely|perhaps|maybe|possibly|my (?:best )?guess|if i had to guess|the answer)",
    r"my (?:best |educated )?guess (?:is|would be)",
    # a number after "but", or stated as "it is N": "I'm not sure, but 1850."
    r"(?:but|however|though|yet),? (?:(?:it(?:'s| is| was| might be| may be)|maybe|probably|perhaps|"
    r"i think|i guess) )?(?:about |around |roughly |approximately )?[-$]?\d[\d,.]*(?:\s+[\w%-]+){0,2}"
    r"(?=\s*[.!]|\s*$)",
    r"(?:it|that|this)(?:'s| is| was| would be) (?:about |around |roughly |approximately )?[-$]?\d",
    # a short answer first, then the doubt: "Paris, though I'm not certain."
    r"^(?!(?:well|so|honestly|sorry|hmm|oh|ok|okay|yes|no|it depends|that depends|good question|"
    r"great question|interesting question|apologies|unfortunately|sadly|regrettably|alas|thanks|"
    r"thank you|hello|hi|hey|frankly|truthfully|i see|i understand|of course|sure|certainly)\b)"
    r"(?:[\w-]+\s+){0,3}[\w-]+(?=,?\s+(?:though|although|but)\s)",
    # a short guess that ends its sentence: "Who knows? Probably Paris."
    r"(?:probably|most likely|perhaps|maybe|possibly) (?!not\b|never\b|nobody\b|none\b|check|ask|try|"
    r"consult|look|search|see|contact|visit|google|you\b|we\b|someone|somebody|they\b|someday|one day)"
    r"(?:[\w-]+\s+){0,2}[\w-]+(?=\s*[.!]|\s*$)",
    r"if i (?:had|have) to (?:guess|say|pick|choose)",
    r"i(?:'d| would) (?:guess|say|estimate) (?:it|that|the|around|about|approximately|roughly)",
    r"i (?:think|believe|suspect) (?:it(?:'s| is| was| would be| might be)|that it|the answer|that the)",
    r"(?:probably|most likely|likely|possibly|perhaps|maybe) (?:it(?:'s| is| was)|the answer|around|about|\d)",
) + language_patterns("commit")

# A sentence that opens with one of these restates the question rather than answering.
CUES: tuple[str, ...] = (
    r"(?:you(?:'re| are)? ask(?:ed|ing)?|the question (?:asks|(?:is|was) (?:whether|if|about|what|who|"
    r"how|when|where|why|which))|your question|you want to know|"
    r"as for (?:whether|if)|regarding (?:whether|if)|asking (?:whether|if)|q:|question:)",
)

_PATTERN_KINDS = ("abstain", "scoped", "veto", "commit", "cues")


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


def _compile(patterns: tuple[str, ...], ascii_only: bool = False) -> re.Pattern:
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


def iter_matches(regex: re.Pattern, text: str, pos: int = 0, endpos: int | None = None):
    """Matches of `regex` that start on a word boundary when they start with a letter."""
    endpos = len(text) if endpos is None else endpos
    while True:
        match = regex.search(text, pos, endpos)
        if match is None:
            return
        start = match.start()
        first = text[start:start + 1]
        if start and first.isascii() and first.isalpha() and (text[start - 1].isalnum()
                                                               or text[start - 1] == "_"):
            pos = start + 1
            continue
        yield match
        pos = match.end() if match.end() > start else start + 1


def first_match(regex: re.Pattern, text: str) -> re.Match | None:
    """The first match of `iter_matches` (a plain loop: this is the hot path)."""
    pos = 0
    while True:
        match = regex.search(text, pos)
        if match is None:
            return None
        start = match.start()
        if start and text[start].isascii() and text[start].isalpha() and (
                text[start - 1].isalnum() or text[start - 1] == "_"):
            pos = start + 1
            continue
        return match


@dataclass(frozen=True)
class AbstentionPatterns:
    """The robust detector's pattern sets (regex sources; see the module comments).

    Build one with `robust_patterns(extra)` to add phrases from a config file.
    """

    abstain: tuple[str, ...] = ABSTAIN
    scoped: tuple[str, ...] = SCOPED
    veto: tuple[str, ...] = VETO
    commit: tuple[str, ...] = COMMIT
    cues: tuple[str, ...] = CUES

    @functools.cached_property
    def compiled(self) -> dict[str, re.Pattern]:
        """Each kind compiled into one alternation (built once per instance), plus
        `abstain_ascii`: the abstain patterns that can match ASCII text."""
        compiled = {kind: _compile(getattr(self, kind)) for kind in _PATTERN_KINDS}
        compiled["abstain_ascii"] = _compile(self.abstain, ascii_only=True)
        return compiled


ROBUST_PATTERNS = AbstentionPatterns()


@functools.lru_cache(maxsize=64)
def _extended(extra: tuple[tuple[str, tuple[str, ...]], ...]) -> AbstentionPatterns:
    base = ROBUST_PATTERNS
    values = {kind: getattr(base, kind) + dict(extra).get(kind, ()) for kind in _PATTERN_KINDS}
    patterns = AbstentionPatterns(**values)
    patterns.compiled  # noqa: B018  (compile now, so bad regexes fail at configuration time)
    return patterns


def robust_patterns(extra: dict[str, Any] | None = None) -> AbstentionPatterns:
    """The default robust patterns, extended with `extra` (e.g. from a config file).

    Args:
        extra: {kind: [regex, ...]} with kind in abstain, scoped, veto, commit, cues; the
            patterns are added to the built-in ones. A space matches any whitespace and the
            MACROS ({dont}, {cant}, {couldnt}, {im}, {verb}) may be used.
    Raises:
        RlvrError: unknown kind, a value that is not a list of strings, or a bad regex.
    """
    if not extra:
        return ROBUST_PATTERNS
    unknown = sorted(set(extra) - set(_PATTERN_KINDS))
    if unknown:
        raise RlvrError(f"unknown abstention pattern kind(s) {unknown}; "
                        f"known: {list(_PATTERN_KINDS)}")
    frozen = []
    for kind in _PATTERN_KINDS:
        values = extra.get(kind) or ()
        if isinstance(values, str) or not all(isinstance(v, str) for v in values):
            raise RlvrError(f"abstention patterns {kind!r} must be a list of strings, "
                            f"got {values!r}")
        frozen.append((kind, tuple(values)))
    try:
        return _extended(tuple(frozen))
    except re.error as exc:
        raise RlvrError(f"bad abstention pattern: {exc}") from None
