"""The word lists the graders' rules share, in one place.

"Does this sentence ask something?" is read by the abstention detector (a restatement of
the question, a short question that names a candidate), by the answer matcher (a gold said
only inside a question) and by the candidate lists (an echoed question is no list). Each
reads the words below, so a word added here reaches every rule that asks the question.
Regular-expression fragments, lower case; standard library only.
"""

from __future__ import annotations

import re

# English auxiliaries that open a yes/no question ("Is it Paris?", "Could it be Rome?")
AUXILIARIES = ("is", "are", "was", "were", "can", "could", "do", "does", "did", "will",
               "would", "should", "might", "may", "has", "have", "had")
# their negated forms ("Isn't it Paris?")
NEGATED_AUXILIARIES = ("isn't", "aren't", "wasn't", "doesn't", "don't")
# titles and ranks written before a name ("Sir", "Gen.", "President"); each reader adds
# its own (`qa_normalize.HONORIFIC`, `answers.aliases`)
TITLES = ("sir", "dame", "dr", "doctor", "mr", "mrs", "ms", "miss", "prof", "professor",
          "president", "general", "gen", "king", "queen", "lord", "lady", "captain", "capt",
          "colonel", "col", "admiral", "adm", "rev", "reverend", "pope", "emperor", "empress",
          "prince", "princess")
# English interrogatives
WH_WORDS = ("who", "whom", "whose", "what", "which", "where", "when", "why", "how")
# a question that offers the answer as an option ("What about Paris?")
OPTION_QUESTIONS = ("what about", "how about")
# interrogatives of the other languages the abstention grammar reads (Spanish, French,
# German, Italian, Portuguese, Russian, Turkish)
OTHER_LANGUAGE_QUESTION_WORDS = (
    "qu[ée]", "qui[ée]n", "cu[áa]ndo", "d[óo]nde", "c[óo]mo", "cu[áa]l", "por qu[ée]", "qui",
    "quand", "o[ùu]", "comment", "pourquoi", "est-ce", "was", "wer", "wann", "wo", "wie",
    "warum", "welche[rsnm]?", "che", "chi", "quando", "dove", "come", "perch[ée]", "quem",
    "onde", "что", "кто", "когда", "где", "как", "почему", "зачем", "ne", "kim", "nerede",
    "neden", "nas[ıi]l")


def alternation(*groups: tuple[str, ...]) -> str:
    """One regex alternation of the fragments of `groups`, longest first (so "wasn't" is
    tried before "was"), without repeats."""
    words = dict.fromkeys(w for group in groups for w in group)
    return "|".join(sorted(words, key=lambda w: (-len(w), w)))


# "or" in the languages the abstention grammar reads ("Lima, Quito o Bogotá", "Paris ou
# Lyon", "Berlin oder Bonn", "Москва или Киев", Polish "lub", Turkish "veya" / "ya da",
# Persian "یا")
OR_WORDS = ("or", "o", "u", "ou", "oder", "oppure", "или", "lub", "veya", "ya da", "یا")
# words that offer the next item as an alternative, beside "or": "either", the tentative
# adverbs
ALTERNATIVE_WORDS = ("or", "either", "maybe", "perhaps", "possibly", "alternatively")
# a disjunction word anywhere: two values joined by one are candidates, not one answer
DISJUNCTION = re.compile(rf"\b(?:{alternation(ALTERNATIVE_WORDS)})\b", re.IGNORECASE)

_ENGLISH = (AUXILIARIES, NEGATED_AUXILIARIES, WH_WORDS, OPTION_QUESTIONS)
# a sentence that opens as an English question (after any punctuation): match it at the
# sentence's start
OPENS_QUESTION = re.compile(rf"\W*(?:{alternation(*_ENGLISH)})\b")
# the same in every language the abstention grammar reads
OPENS_QUESTION_ANY = re.compile(
    rf"\W*(?:{alternation(*_ENGLISH, OTHER_LANGUAGE_QUESTION_WORDS)})\b")
