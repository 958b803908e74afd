"""Abstention ("I don't know") detection: the `seed` and `robust` detectors.

`seed` mode is the reference project's rule: a response abstains when its stripped,
lower-cased text contains any of 19 fixed phrases. It is deliberately simple (it fires
on "I cannot stress this enough" and misses "no one knows"); the calibration reward's
`seed` preset uses it, with typographic quotes folded first (`fold_unicode=False` is the
reference matcher bit for bit).

`robust` mode (`detect_abstention`) labels a response `answer`, `abstain` or `hedge` (an
abstention phrase plus a committed answer, "I'm not sure, but it is Paris"). Its English
phrases come from a grammar of declining (`grammar`: negated modal + verb of knowing, not
having the information, not being able, impersonal "no way to know", with adverb slots),
the other twelve languages' from data (`abstention_languages.json`, read by `languages`);
rules that read the context (`rules`) make a side issue ("I don't know why you ask, but
...") an answer and a guess behind a disclaimer (an estimate, a short answer sentence) a
hedge. It ignores idioms, quotations, denied ignorance and restatements of the question,
and takes its patterns from data that a config can extend (`patterns.robust_patterns`).
The `abstention` and `selfaware` rewards (`rlvr.rewards.abstention`,
`rlvr.rewards.selfaware`) use both modes; their structured formats
(`rlvr.rewards.answers.fields`) need no phrase list at all.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rlvr.errors import RlvrError
from rlvr.rewards.abstention_detection.patterns import (
    ROBUST_PATTERNS,
    AbstentionPatterns,
    first_match,
    iter_matches,
)
from rlvr.rewards.abstention_detection.premises import (names_new, not_theirs,
                                                        premise_contradicted, premise_denied,
                                                        premise_rejected)
from rlvr.rewards.abstention_detection.rules import (CONTRAST, answer_quote, answer_sentence,
                                                     bracketed, conceded, refusal, taken_back,
                                                     TENTATIVE, TENTATIVE_PHRASE,
                                                     apostrophes, claim_about, estimate,
                                                     off_question, other_statement, side_issue)
from rlvr.rewards.answers import fold
from rlvr.rewards.answers import DEFAULT_REASONING_TAGS, final_answer
from rlvr.rewards.answers import plain_shape
from rlvr.rewards.rulebook import note
from rlvr.rewards.abstention_detection.detector_rules import (
    COMMIT_BRACKETED,
    COMMIT_CLAIM,
    COMMIT_ESTIMATE,
    COMMIT_MARKER,
    COMMIT_SENTENCE,
    DECLINE_NONE,
    DECLINE_PHRASE,
    DECLINE_REFUSAL,
    DECLINE_TAKEN_BACK,
    DISCOUNT_RULES,
    GUESS_PHRASE,
    PREMISE_ANSWERED,
    PREMISE_CONTRADICTED,
    PREMISE_DENIED,
    PREMISE_NOT_THEIRS,
    PREMISE_REJECTED,
    SIDE_ISSUE_ANSWERED,
    SIDE_ISSUE_COMPLEMENT,
    SIDE_ISSUE_CONCEDED,
    SIDE_ISSUE_OFF_QUESTION,
    SIDE_ISSUE_PHRASE,
    TENTATIVE_QUESTION,
)
from rlvr.rewards.vocabulary import OPENS_QUESTION

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


def seed_abstention_match(text: str, patterns: tuple[str, ...] = SEED_PATTERNS,
                          fold_unicode: bool = True) -> str | None:
    """Return the first seed pattern found in `text`, or None.

    Matching is a case-insensitive substring test on the stripped text, as in the
    reference project. With `fold_unicode` (default) typographic quotes and Unicode
    compatibility forms are folded first (`rlvr.rewards.answers.fold`), so
    "I don\u2019t know" matches; `fold_unicode=False` is the reference project's matcher
    bit for bit (there the typographic apostrophe does not match).
    """
    lowered = (fold(text) if fold_unicode else text).strip().lower()
    for pattern in patterns:
        if pattern in lowered:
            return pattern
    return None


def is_abstention(text: str, patterns: tuple[str, ...] = SEED_PATTERNS,
                  fold_unicode: bool = True) -> bool:
    """True when `text` abstains under the seed rule (see `seed_abstention_match`)."""
    return seed_abstention_match(text, patterns, fold_unicode) is not None


# --------------------------------------------------------------------------------------
# robust mode (patterns and matcher: `patterns`)
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Detection:
    """What the detector found in one response.

    Attributes:
        label: "answer", "abstain" or "hedge" (an abstention phrase plus a committed answer,
            or a guess).
        phrase: the abstention phrase (or the guess) that decided the label (None for
            "answer").
        commitment: the committed-answer marker found (None when there is none).
        ignored: phrases found but discounted, as (phrase, reason) pairs, reason one of
            "title", "idiom", "quoted", "restatement", "topic" (an impersonal phrase
            of not knowing, to a question about what cannot be known), "side_issue".
    """

    label: str
    phrase: str | None = None
    commitment: str | None = None
    ignored: tuple[tuple[str, str], ...] = ()


_QUOTE_RE = re.compile(r"\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d|\u2018[^\u2019\n]*\u2019"
                       r"|(?<![\w'])'(?:[^'\n]|(?<=\w)'(?=\w))*'(?!\w)")
_SENTENCE_END = re.compile(r"[.!?\n]")
_CLAUSE_BREAK = re.compile(r"[,;:.!?\n]|\bbut\b|\bthough\b|\balthough\b")


def question_text(prompt: Any) -> str:
    """The question inside a prompt: a str as is, or the user turns of a message list."""
    if prompt is None:
        return ""
    if isinstance(prompt, str):
        return prompt
    if isinstance(prompt, list):
        return "\n".join(str(m.get("content", "")) for m in prompt
                         if isinstance(m, dict) and m.get("role", "user") == "user")
    return str(prompt)


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    """Span of the sentence around text[start:end], its end punctuation included."""
    left = max(text.rfind(ch, 0, start) for ch in ".!?\n") + 1
    found = _SENTENCE_END.search(text, end)
    return left, (found.end() if found else len(text))


def _title(cased: str | None, start: int, end: int) -> bool:
    """Whether the phrase at `cased[start:end]` (the response with its case) is written as a
    title: two or more words, each capitalised and none all upper-case, after the start of
    its sentence ("The answer is Nobody Knows, a 1996 song", "directed Nobody Knows
    (2004)"). Shouting ("I DON'T KNOW") is no title, nor is a phrase that opens its
    sentence ("I Don't Know.", German "Keine Ahnung, ehrlich gesagt": nouns are capitalised
    there) unless the title-cased run goes on into a predicate about it ("Who Knows Where
    the Time Goes? is her best-known song") or a year in brackets ("Nobody Knows (2004)
    follows ...")."""
    if cased is None:
        return False
    words = re.findall(r"[^\W\d_][\w']*", cased[start:end])
    if len(words) < 2 or not all(w[0].isupper() and not (len(w) > 1 and w.isupper())
                                 for w in words if w != "I"):
        return False
    left, _ = _sentence(cased, start, end)
    if re.search(r"[^\W_]", cased[left:start]):
        return True  # inside a sentence
    # where a sentence starts, only when the title-cased run goes on into a predicate about
    # it: "Who Knows Where the Time Goes? is her best-known song", "Nobody Knows was a hit"
    return bool(_TITLE_THEN_PREDICATE.match(cased, end) or _TITLE_THEN_YEAR.match(cased, end))


_MINOR = r"(?:the|a|an|of|in|on|and|to|for|at|by|with|or|from|is)"
_TITLE_THEN_PREDICATE = re.compile(
    rf"(?:\s+(?:[A-Z][\w']*|{_MINOR}))*?(?:\s+[A-Z][\w']*)?[?!]?"
    r"(?:,[^,.!?\n]{1,40},)?\s+"  # an appositive: "Nobody Knows, released in 1995, was ..."
    r"(?:is|was|are|were|by|became|remains|has|had|topped|reached|won)\s+\w")


# a title-cased run with a year in brackets after it is a work: "Nobody Knows (2004) follows ..."
_TITLE_THEN_YEAR = re.compile(r"(?:\s+[A-Z][\w']*)*[?!]?\s*\((?:1[5-9]|20)\d\d\)")


# a question that asks for a number or a date: only there is an estimate a guess at the
# answer ("the oldest writing is about 5,000 years old" guesses nothing about "What was the
# first language?")
_ASKS_NUMBER = re.compile(r"\b(?:how (?:many|much|long|old|far|big|tall|high|deep|fast|often|large|"
                          r"heavy|wide|hot|cold)|when|what (?:year|date|time|age|percentage|"
                          r"fraction|proportion)|which year|in what year|what (?:is|was|will be|"
                          r"were|are) the (?:\w+ )?(?:population|number|age|date|size|height|length|"
                          r"distance|speed|temperature|cost|price|weight|percentage|value|amount|"
                          r"rate|score|count|total|year|mass|volume|area|depth|duration|salary))\b")
# a question about what cannot be known: an impersonal phrase of not knowing is its topic
_ASKS_UNKNOWABLE = re.compile(r"\b(?:can't|cannot|can not|impossible to|never be)\s+(?:\w+\s+){0,2}?"
                              r"(?:know|known|determine|determined|measure|measured|predict|"
                              r"predicted|tell)\b|\bunknowable\b|\buncertainty principle\b|"
                              r"\bwhy (?:is|are|was|were|do|does)\b[^?]*\b(?:unknown|unclear|"
                              r"uncertain|a mystery)\b")


def _discount(text: str, match: re.Match, patterns: AbstentionPatterns, quotes: list,
              question: str, cased: str | None = None) -> tuple[str, str | None] | None:
    """Why an abstention match does not count: (a reason label, the id of the idiom or cue
    pattern that decided it, or None), or None when it counts."""
    compiled = patterns.compiled
    start, end = match.span()
    if _title(cased, start, end):
        return "title", None
    lo = max(0, start - 40)
    for veto in iter_matches(compiled["veto"], text, lo, end + 40):
        if veto.start() < end and start < veto.end():
            return "idiom", patterns.identify("veto", text, veto)
    if any(q0 <= start < q1 and not answer_quote(text, q0) for q0, q1 in quotes):
        return "quoted", None
    left, right = _sentence(text, start, end)
    sentence = text[left:right].strip()
    if sentence.endswith("?") and text[left:start].strip() and OPENS_QUESTION.match(sentence):
        return "restatement", None  # the response asks (echoes) a question with the phrase
    cue = compiled["cues"].match(sentence)
    if cue:
        return "restatement", patterns.identify("cues", sentence, cue)
    if question and _ASKS_UNKNOWABLE.search(question) \
            and not re.search(r"\b(?:i|i'm|i've|i'd|my|me)\b", match.group()):
        return "topic", None  # "Why can't we know both ...?" - "... impossible to know both"
    if question:
        window = " ".join(text[start:right].split()[: len(match.group().split()) + 3])
        if len(window.split()) > len(match.group().split()) and window.rstrip(".!?") in question:
            return "restatement", None  # the phrase and the words after it: the question's
    return None


def _scope(low: str, match: re.Match, compiled: dict, question: str) -> str | None:
    """The rule that makes a counted-looking phrase a side issue (ignorance of something
    the question does not ask), or None when the phrase declines the question."""
    if compiled["scoped"].match(low, match.start()):
        return SIDE_ISSUE_PHRASE  # "i don't know why", "i'm not sure if"
    if side_issue(low, *match.span()):
        return SIDE_ISSUE_COMPLEMENT  # "... about you", "... for what purpose"
    if conceded(low, match.start()):
        return SIDE_ISSUE_CONCEDED  # "it's true that nobody knows exactly ..., but"
    if off_question(low, match.end(), question):
        return SIDE_ISSUE_OFF_QUESTION  # "nobody knows for sure how they formed"
    return None


def _commitment_beside(low: str, cased: str | None, spans: list, quotes: list,
                       question: str) -> str | None:
    """An answer committed to beside a counted phrase (which makes the response a hedge):
    an estimate (only when the question asks for a number or a date), a short answer
    sentence, or a claim about the question's subject; None when there is none."""
    if not question or _ASKS_NUMBER.search(question):
        guessed = estimate(low, quotes)
        if guessed:
            note(COMMIT_ESTIMATE, guessed)
            return guessed
    stated = answer_sentence(low, spans)
    if stated:
        note(COMMIT_SENTENCE, stated)
        return stated
    claim = claim_about(low, cased, spans, question)
    if claim:
        note(COMMIT_CLAIM, claim)
    return claim


def _answer_beside(low: str, after: int, spans: list, quotes: list) -> str | None:
    """What answers the question beside a side issue: a contrasting clause after it ("...,
    but it's Canberra"), an estimate, an answer sentence or another statement; None."""
    contrast = CONTRAST.search(low, after)
    if contrast:  # the contrasting clause, to the end of its sentence
        found = _SENTENCE_END.search(low, contrast.end())
        return low[contrast.start():found.end() if found else len(low)]
    return estimate(low, quotes) or answer_sentence(low, spans) or other_statement(low, spans)


def detect_abstention(text: str, *, patterns: AbstentionPatterns = ROBUST_PATTERNS,
                      question: str | None = None,
                      reasoning_tags: tuple[str, str] | None = DEFAULT_REASONING_TAGS) -> Detection:
    """Label a response `answer`, `abstain` or `hedge` (the robust detector).

    Rules, in order: an abstention phrase does not count when it is written as a title
    (every word capitalised: "Nobody Knows, a 1996 song"), overlaps an idiom
    (`veto`, e.g. "I cannot stress this enough"), starts inside a quotation, or sits in a
    restatement of the question (a sentence that opens with a cue such as "You asked
    whether", a question such as "Is it impossible to ...?" that does not open with the
    phrase, or - when `question` is given - the phrase and the words after it copied
    from the question). A committed-answer marker (`commit`, e.g. "but it is", "the
    answer is", "#### 5") does not count when an abstention phrase starts inside it or
    within 25 characters after it in the same clause ("the answer is unknown", but not
    "the answer is Paris, but I'm not sure"). Then: counted abstention + commitment -> hedge;
    counted abstention -> abstain; only side-issue ignorance (`scoped`, "I don't know why
    ...", "I'm not sure why") -> answer when there is a commitment or a contrasting
    clause or an answer sentence/clause after it ("I'm not sure why, but the capital is
    Canberra", "Paris. Not sure if that helps!"), else abstain;
    a guess alone (`guess`: "My best guess is Paris", "Lisbon rings a bell") -> hedge;
    with a `question`, no phrase and no guess but a rejection of the question's premise
    (`premises.premise_rejected`: "Unicorns are not real, so ...") -> abstain, unless an
    answer is stated beside it; a premise denied outright ("He didn't: ...", or "I'm an AI,
    so I don't eat" to a question about the assistant: `premises.premise_denied`) -> abstain;
    a response that is only a short question naming a candidate ("Was it Chinua Achebe?":
    `rules.TENTATIVE`) -> hedge; nothing -> answer. Context rules (`rules`): a phrase followed
    by a complement about the asker or the reason (any language) is a side issue too; a
    commitment that overlaps a counted phrase is part of it ("couldn't possibly say");
    an estimate or a short answer sentence next to the phrase is a commitment (hedge); an
    abstention quoted as the answer counts.

    Args:
        text: the response.
        patterns: pattern sets (default: the built-in ones; see `robust_patterns`).
        question: the question text, used to recognise restatements and rejected premises.
        reasoning_tags: the reasoning block's tags: only the final answer after it is read
            (`rlvr.rewards.answers.final_answer`; a block never closed leaves no answer,
            labelled `answer`); None reads the whole text.
    The text is folded first (`rlvr.rewards.answers.fold`: typographic quotes,
    Unicode compatibility forms), so "I don\u2019t know" and "\uff29 don't know" match.

    Returns:
        a `Detection`. Cost: two regex scans (abstention phrases, guesses) for a response
        with neither; with a `question`, also the anchored premise and tentative-question
        tests, and a sentence scan for a rejected premise only when a negation or "myth",
        "fiction" is in the text.
    """
    text = plain_shape(final_answer(text, reasoning_tags) or "")  # JSON, tags, tables
    cased = fold(text)
    low = apostrophes(cased.lower())
    cased = cased if len(cased) == len(low) else None  # positions must agree for titles
    compiled = patterns.compiled
    abstain = compiled["abstain_ascii" if low.isascii() else "abstain"]
    first = first_match(abstain, low)
    if first is None and first_match(compiled["guess"], low) is None:
        asked = " ".join(fold(question).lower().split()) if question else ""
        denied = premise_denied(low, asked)
        # "my ...", "tomorrow": no premise of theirs to deny (read only once a rule fires)
        beyond = not_theirs(asked, low) if denied else None
        if beyond:
            note(PREMISE_NOT_THEIRS, beyond)
        elif denied:  # "He didn't: ...", "I'm an AI, so I don't eat breakfast."
            note(PREMISE_DENIED, denied)
            return Detection("abstain", denied)
        if TENTATIVE.fullmatch(low):  # "Was it Chinua Achebe?": the whole response a guess
            note(TENTATIVE_QUESTION, low)
            return Detection("hedge", TENTATIVE_PHRASE, low.strip())
        for rule, read in ((PREMISE_REJECTED, premise_rejected),
                           (PREMISE_CONTRADICTED, premise_contradicted)):
            if beyond:
                break
            rejected = read(low, asked)
            if not rejected:  # "Unicorns are not real, so ...": the question cannot be
                continue      # answered, unless an answer is stated beside the rejection
            beyond = not_theirs(asked, low)
            if beyond:        # "Your neighbor has no middle name.": invented, an answer
                note(PREMISE_NOT_THEIRS, beyond)
                break
            at = low.find(rejected)
            spans = [(at, at + len(rejected))]
            stated = answer_sentence(low, spans, clauses=False)
            if not ((stated and len(stated.split()) <= 5)  # facts that correct it are no answer
                    or names_new(cased, at if rule is PREMISE_CONTRADICTED
                                 else at + len(rejected), asked)):
                note(rule, rejected)
                return Detection("abstain", rejected)
            note(PREMISE_ANSWERED, rejected)
            break
        note(DECLINE_NONE)
        return _ANSWER  # the common case: two scans, no quotation parsed
    quotes = [m.span() for m in _QUOTE_RE.finditer(low)]
    if first is None:
        return _answer_or_guess(low, None, (), patterns, quotes)
    question = " ".join(fold(question).lower().split()) if question else ""
    counted, scoped, ignored = [], [], []
    for match in iter_matches(abstain, low, first.start()):
        discounted = _discount(low, match, patterns, quotes, question, cased)
        if discounted:
            reason, pattern_id = discounted
            ignored.append((match.group(), reason))
            note(DISCOUNT_RULES[reason], match.group(), pattern_id)
            continue
        scope = _scope(low, match, compiled, question)
        if scope:
            note(scope, match.group(), patterns.identify("scoped", low, compiled["scoped"].match(
                low, match.start())) if scope == SIDE_ISSUE_PHRASE else None)
            scoped.append(match)
        else:
            note(DECLINE_PHRASE, match.group(), patterns.identify("abstain", low, match))
            counted.append(match)
    starts = [m.start() for m in counted + scoped]
    commitment = None
    for commit in iter_matches(compiled["commit"], low):
        if not any(commit.start() <= s <= commit.end() + 25
                   and not _CLAUSE_BREAK.search(low, commit.end(), s) for s in starts) \
                and not any(m.start() < commit.end() and commit.start() < m.end() for m in counted):
            commitment = commit.group()  # a marker inside a phrase is part of the phrase
            note(COMMIT_MARKER, commitment, patterns.identify("commit", low, commit)
                 or patterns.identify("guess", low, commit))
            break
    if counted:
        spans = [m.span() for m in counted + scoped]
        phrases = [m.span() for m in counted]
        taken = taken_back(low, phrases)
        if taken:  # "Paris. Just kidding, I don't know."
            note(DECLINE_TAKEN_BACK, taken)
            return Detection("abstain", counted[0].group(), None, tuple(ignored))
        refused = refusal(low, phrases)
        if refused:  # "I cannot provide ...": whatever advice follows
            note(DECLINE_REFUSAL, refused)
            return Detection("abstain", counted[0].group(), None, tuple(ignored))
        if commitment is None:
            commitment = bracketed(low, phrases)
            if commitment is not None:
                note(COMMIT_BRACKETED, commitment)
        if commitment is None:
            commitment = _commitment_beside(low, cased, spans, quotes, question)
        label = "hedge" if commitment else "abstain"
        return Detection(label, counted[0].group(), commitment, tuple(ignored))
    if scoped and not commitment:
        side = tuple((m.group(), "side_issue") for m in scoped)
        spans = [m.span() for m in scoped]
        answered = _answer_beside(low, scoped[-1].end(), spans, quotes)
        if answered:  # "..., but it's Canberra"
            note(SIDE_ISSUE_ANSWERED, answered)
            return Detection("answer", None, None, tuple(ignored) + side)
        return Detection("abstain", scoped[0].group(), None, tuple(ignored))
    return _answer_or_guess(low, commitment, tuple(ignored), patterns, quotes)


def _answer_or_guess(low: str, commitment: str | None, ignored: tuple,
                     patterns: AbstentionPatterns, quotes: list) -> Detection:
    """A response with no counted abstention phrase: `hedge` when it commits through a
    guess (`guess` patterns: "My best guess is Paris", "Lisbon rings a bell"; not inside a
    quotation), else `answer`."""
    for guess in iter_matches(patterns.compiled["guess"], low):
        if not any(q0 <= guess.start() < q1 for q0, q1 in quotes):
            note(GUESS_PHRASE, guess.group(), patterns.identify("guess", low, guess))
            return Detection("hedge", guess.group(), guess.group(), ignored)
    note(DECLINE_NONE)
    return Detection("answer", None, commitment, ignored) if (commitment or ignored) \
        else _ANSWER


_ANSWER = Detection("answer")


def classify(text: str, *, mode: str = "robust", patterns: AbstentionPatterns | None = None,
             question: str | None = None, fold_unicode: bool = True) -> Detection:
    """Label a text with the `seed` or `robust` detector, read as given (the rewards that
    call it have already cut the final answer after a reasoning block).

    Args:
        mode: "robust" (answer/abstain/hedge) or "seed" (answer/abstain only, the 19
            reference substrings; `patterns` and `question` are ignored).
        fold_unicode: seed mode only: False gives the reference matcher bit for bit (no
            folding of typographic quotes); robust mode always folds.
    Raises:
        RlvrError: unknown mode.
    """
    if mode == "robust":
        return detect_abstention(text, patterns=patterns or ROBUST_PATTERNS, question=question,
                                reasoning_tags=None)
    if mode == "seed":
        phrase = seed_abstention_match(text, fold_unicode=fold_unicode)
        return Detection("abstain", phrase) if phrase else _ANSWER
    raise RlvrError(f"unknown abstention mode {mode!r}; known: robust, seed")
