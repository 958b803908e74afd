"""Rules of the robust abstention detector that read the question's premise.

* `premise_rejected`: a sentence saying that what the question names does not exist, is
  fiction or never happened ("Unicorns are not real", "The Eiffel Tower was never moved to
  London") declines the question, when the question assumes it (not "Is Bigfoot real?")
  and no answer is stated beside it (`names_new`). English only.
* `premise_denied`: the premise denied outright at the start of the response ("He didn't:
  ..."), or a question about the assistant answered that it is an AI that does not do so.
* `premise_contradicted`: the response opens by negating what a wh-question assumes, in
  the question's own words ("Jackrabbits have no wings." to "How many wings does a
  jackrabbit have to fly?"). Measured on FalseQA's human rebuttals (benchmarks/
  graders_outside.py): it reads about half of them, where the two rules above read 3%.
* `not_theirs`: none of the three reads a question about the asker's own affairs or a
  named time to come ("What is my neighbor's middle name?", "What will I eat tomorrow?"):
  the responder cannot know that premise false, so a denial there is an invented claim.
"""

from __future__ import annotations

import re

from rlvr.rewards.abstention_detection.rules import (CONTRAST, NEW_NAME, SENTENCE,
                                                     content_words, stems)
from rlvr.rewards.vocabulary import OPENS_QUESTION_ANY

_SENTENCE_END = re.compile(r"[.!?\n](?=\s|$)")


# The question's premise rejected: what it asks about does not exist, is fiction, or never
# happened ("Unicorns are not real, so ...", "There is no such thing as a dragon", "The
# Eiffel Tower was never moved to London"). English only.
_SUBJECT = r"(?P<subject>(?:[\w'-]+ ){0,3}?[\w'-]+)"
_UNREAL = tuple(re.compile(p) for p in (
    rf"{_SUBJECT} (?:is|are|was|were|'s|'re) (?:just |only |purely |entirely |simply )?"
    r"(?:not (?:real|a real\b)|n't (?:real|a real\b)|fictional|fictitious|imaginary|mythical|"
    r"mythological|made[- ]up|an? (?:myth|legend|fiction)\b|legendary creatures?)",
    rf"{_SUBJECT} (?:do|does|did)(?: not|n't) (?:really |actually |even )?exist",
    rf"{_SUBJECT} never (?:really |actually )?existed",
    r"there (?:is|are|was|were|'s) no (?:such (?:thing|person|place|creature|animal|event) "
    rf"(?:as|called) )?(?:an? |the )?{_SUBJECT}(?= (?:in|on|at|of|who|that|which)\b|[.,;!]|$)"))
_NEVER = re.compile(rf"{_SUBJECT} (?:never|did not|didn't|has never|have never|had never|"
                    r"was never|were never) (?P<predicate>[^.!?;,\n]+)")
# a question about existence or truth itself: a denial there is its answer
_ASKS_EXISTENCE = re.compile(r"\b(?:real|really|exists?|existed|existence|myths?|fictional|"
                             r"legends?|legendary|true|actually|ever)\b|\b(?:is|are|was|were) there\b")


# every premise rejection holds one of these: the cheap test before the sentence scan
_DENIAL_CUE = re.compile(r"\bnot\b|n't\b|\bnever\b|\bno\b|fiction|myth|imaginary|made[- ]up|"
                         r"legend")


# what only the asker or time can settle: the asker's own affairs, a named time to come
_NOT_THEIRS = re.compile(r"\b(?:my|mine|tomorrow|tonight|next (?:year|week|month|decade|century)|"
                         r"in the future)\b")


# a judgement of the request, not a claim about the asker's affairs: a refusal ("It is not
# appropriate to access your coworker's history")
_JUDGES = re.compile(r"\b(?:not|never|n't) (?:\w+ )?(?:appropriate|ethical|legal|safe|acceptable|"
                     r"advisable|okay|ok|responsible|allowed|permitted|justified|right to)\b|"
                     r"\b(?:unethical|illegal|inappropriate|unsafe|unacceptable)\b")


def not_theirs(question: str, text: str = "") -> str | None:
    """The words of a lower-case question that put its premise beyond the responder
    ("my", "tomorrow", "next year", "in the future"), unless the lower-case response
    judges the request instead ("It is not appropriate ...": a refusal); None otherwise. A
    denial of such a premise ("Your neighbor has no middle name." to "What is my
    neighbor's middle name?", "You will not eat pasta; you will eat sushi." to "What will I
    eat tomorrow?") is a claim the responder invented, not a rejected premise. On the
    outside labels' `tune` halves this guard takes 1 of FalseQA's 735 rebuttals the rules
    read ("When will my brother grow breast?") and none of XSTest's refusals."""
    found = _NOT_THEIRS.search(question)
    return found.group() if found and not _JUDGES.search(text) else None


def premise_rejected(text: str, question: str) -> str | None:
    """A sentence that rejects the question's premise: it says that a thing the question
    names (a content word shared with the question) does not exist, is fiction (`_UNREAL`:
    "unicorns are not real", "there is no such thing as a dragon", "Atlantis never
    existed") or that the event asked about never happened (`_NEVER`, sharing a content
    word of what follows too: "The Eiffel Tower was never moved to London"), with no
    contrasting clause after it that goes on to answer ("..., but in the legend it is
    white"). None without a question, and for a question that asks about existence or
    truth itself ("Is Bigfoot real?", "Did Einstein ever win ...?") or asks yes or no:
    there the denial is the answer."""
    if not question or not _DENIAL_CUE.search(text) or OPENS_QUESTION_ANY.match(question) and not re.match(
            r"\W*(?:who|what|when|where|why|how|which|whose|whom)\b", question) \
            or _ASKS_EXISTENCE.search(question):
        return None
    asked = stems(content_words(question))
    for sentence in SENTENCE.finditer(text):
        unit = sentence.group()
        for pattern in (*_UNREAL, _NEVER):
            for m in pattern.finditer(unit):
                subject = stems(content_words(m.group("subject")))
                if not subject & asked:
                    continue
                if pattern is _NEVER and not stems(content_words(m.group("predicate"))) & asked:
                    continue
                if CONTRAST.search(text, sentence.start() + m.end()):
                    return None
                return m.group().strip()
    return None


def names_new(cased: str | None, start: int, question: str) -> bool:
    """True when the rest of the sentence from `start` names something the question does
    not (a capitalised name or a number: "Sherlock Holmes is fictional, created by Arthur
    Conan Doyle"): an answer beside a rejected premise. False without the cased text."""
    if cased is None:
        return False
    end = _SENTENCE_END.search(cased, start)
    asked = set(question.split()) | content_words(question)
    return any(m.group().lower().rstrip(".,") not in asked
               for m in NEW_NAME.finditer(cased, start, end.start() if end else len(cased)))


# the premise denied outright at the start: "He didn't: his Nobel Prize was for ...", "It
# never happened." (a wh-question that presupposes an event); or, to a question about the
# assistant, "I'm an AI, so I don't eat breakfast."
_DENIED_OUTRIGHT = re.compile(
    r"\W*(?:no[,.!]?\s+)?(?:he|she|it|they|that|this|which)\s+(?:didn't|did not|never did|"
    r"wasn't|was not|weren't|were not|isn't|is not|doesn't|does not|hasn't|has not|"
    r"never (?:did|was|were|happened|existed))(?=\s*[.:;,!\u2014-]|\s*$)")
_PRESUPPOSES = re.compile(r"\W*(?:why|when|where|how|what|which|who)\b[^?]*\b(?:did|does|do|was|"
                          r"were|is|are|has|have)\b")
_ASSISTANT = re.compile(r"\b(?:i'm|i am|as) (?:just |only |merely )?an? (?:ai|artificial "
                        r"intelligence|language model|ai (?:assistant|model|language model)|chatbot|"
                        r"virtual assistant|computer program)\b[^.!?\n]*\b(?:don't|do not|can't|cannot|"
                        r"never|didn't|did not|haven't|have no|am not|'m not|doesn't|lack)\b")


def premise_denied(text: str, question: str) -> str | None:
    """The question's premise denied outright (`_DENIED_OUTRIGHT` opening the response, to a
    wh-question that presupposes an event: "He didn't: his 1921 Nobel Prize was for the
    photoelectric effect"), or a question about the assistant ("What did you have for
    breakfast?") answered that it is an AI that does not do so (`_ASSISTANT`). What follows
    the denial is its correction, not an answer. None otherwise."""
    if not question:
        return None
    m = _DENIED_OUTRIGHT.match(text)
    if m and _PRESUPPOSES.match(question):
        return m.group().strip()
    if re.search(r"\byou(?:r|rs|rself)?\b", question):
        m = _ASSISTANT.search(text)
        if m:
            return m.group()
    return None


_NEGATES = re.compile(r"\b(?:not|no|never|cannot|neither|nor|none|nothing|nobody|impossible|"
                      r"only)\b|n't\b")
_ENDS = re.compile(r"[\s\"'.!?]*$")
_CONCLUDES = re.compile(r"\b(?:so|therefore|thus|hence|which means)\b[^.!?]*\b(?:is|are|was|"
                        r"were|equals?)\s+\S")
_WH = re.compile(r"\W*(?:who|what|when|where|why|how|which|whose|whom)\b")
# the options of a choice question ("..., Shakespeare or Marlowe?") and the words a
# negation falls on ("not Shakespeare")
_CHOICE = re.compile(r"((?:[\w'-]+[ ,]+){1,3}?)or\s+((?:[\w'-]+\s*){1,3})\??\s*$")
_NEGATED_WORDS = re.compile(r"(?:\bnot|\bno|\bnever|n't)\s+((?:[\w'-]+\s*){1,3})")


def premise_contradicted(text: str, question: str) -> str | None:
    """The first sentence of the response negates (`_NEGATES`) something a wh-question
    assumes, sharing a content word with it ("Jackrabbits have no wings." to "How many
    wings does a jackrabbit have to fly?", "Horses are not hybrids of two animals."); None
    for a question that itself holds a negation ("Why can't ...?": the response echoes it),
    a yes/no question (there "no" answers it), a negation word that ends the sentence
    ("The opposite of always is never."), a negation that falls on an option the
    question offers ("Marlowe wrote it, not Shakespeare" to "..., Shakespeare or
    Marlowe?": a choice), a question about existence or truth, or a
    contrasting clause that goes on to answer ("..., but in the legend it is white")."""
    if not question or not _WH.match(question) or _NEGATES.search(question) \
            or _ASKS_EXISTENCE.search(question):
        return None
    first = next(SENTENCE.finditer(text), None)
    if first is None or not any(not _ENDS.match(first.group(), m.end())
                                for m in _NEGATES.finditer(first.group())):
        return None  # no negation, or only one that is itself the answer ("... is never.")
    offered = _CHOICE.search(question)
    if offered:  # the negation falls on an option offered: a choice, not a rejection
        options = stems(content_words(offered.group(1)) | content_words(offered.group(2)))
        if any(stems(content_words(m.group(1))) & options
               for m in _NEGATED_WORDS.finditer(first.group())):
            return None
    if CONTRAST.search(text, first.end() - 1 if first.group().endswith((".", "!", "?"))
                       else first.end()) or CONTRAST.search(first.group()):
        return None  # "..., but in the legend it is white": it goes on to answer
    if _CONCLUDES.search(first.group()):  # "... no people on Mars, so its population is
        return None                        # zero": the negation leads to an answer
    if stems(content_words(first.group())) & stems(content_words(question)):
        return first.group().strip()
    return None
