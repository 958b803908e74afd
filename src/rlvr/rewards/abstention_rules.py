"""Rules of the robust abstention detector that read the text around a phrase.

Each rule closes a class of issue 18, in every supported language at once:

* `side_issue`: ignorance about something other than the question ("I have no idea what
  prompted this", "No sé por qué lo preguntas", "なぜ聞くのかわかりません") is a side
  issue: the phrase is followed by a complement about the asker or the reason (why, what
  you mean, what prompted, por qué, pourquoi, warum, perché, зачем, چرا, 为什么), or, in
  head-final languages (Turkish, Japanese, Korean), preceded by the interrogative in the
  same clause (neden, なぜ, 왜).
* `CONTRAST`: a contrasting clause that goes on to say something (but, pero, mais, aber,
  ma, mas, но, ama, اما, 但是, けど, 지만 ...): after a side issue it makes the response an
  answer.
* `estimate`: a number with an approximator next to it (around 40, roughly 5,000, unos
  40, environ 40, etwa 40, circa 40, около 40, 40 civarı, حدود ۴۰, 40くらい, 大约40,
  40정도) is a guess: with a counted abstention the response is a hedge, not an
  abstention ("I don't know exactly, but probably around 40").
* `answer_sentence`: a short statement in a sentence of its own next to the disclaimer
  ("Rome. I'm not sure.", "I'm not sure. It's Rome.") is a committed answer: the
  response is a hedge. Without this, adding the disclaimer to a wrong answer would turn
  it into an abstention and raise its reward. Only space-separated scripts (a CJK
  sentence has no word count to judge by).
* `answer_quote`: an abstention quoted as the answer ('The answer is "I don't know."')
  counts; other quotations do not.
"""

from __future__ import annotations

import re

_WH_AFTER = re.compile(
    r"[\s,]*(?:(?:really|exactly|quite|entirely|for sure|even)\s+)*"
    r"(?:why|how come|what (?:you|prompted|made|motivated|led|the point|this has to do|it has to do)|"
    r"where you|who (?:told|asked) you|whether you|if you(?:'re| are) (?:asking|joking|serious)|"
    r"por ?qu[ée]|pourquoi|warum|wieso|weshalb|perch[ée]|porque|зачем|почему|چرا|"
    r"你?为什么|你?為什麼|为何|為何)")
_WH_BEFORE = re.compile(r"(?:\b(?:neden|niçin|niye)\b|なぜ|どうして|なんで|왜)[^.!?;,\n。、،]*$")
_CLAUSE_START = re.compile(r"[.!?;\n。]")

CONTRAST = re.compile(
    r"(?:\b(?:but|however|though|still|anyway|that said|pero|sin embargo|mais|cependant|aber|doch|"
    r"jedoch|ma|però|tuttavia|mas|porém|contudo|но|однако|ama|fakat|ancak)\b|اما|ولی|但是?|不过|"
    r"不過|可是|ませんが|ないが|けど|けれど|지만)[,;:\s\u3001\uff0c]*[^\W_]")

_NUMBER = r"[-+$€£]?\d[\d,.]*(?:\s*(?:%|percent|million|billion|thousand|hundred))?"
_ESTIMATE = re.compile(
    r"(?:\b(?:around|roughly|approximately|approx\.?|circa|ca\.|nearly|almost|close to|some|in the "
    r"region of|on the order of|unos|unas|alrededor de|aproximadamente|cerca de|más o menos|"
    r"uns|umas|por volta de|mais ou menos|environ|vers|autour de|à peu près|près de|etwa|ungefähr|"
    r"rund|um die|gegen|intorno a(?:l|i|lle)?|all'incirca|più o meno|около|примерно|"
    r"приблизительно|порядка|yaklaşık|aşağı yukarı)\s+|~\s*|حدود\s*|تقریب[اً]*\s*|約|およそ|"
    r"大约|大概|约|差不多|약\s*|대략\s*)" + _NUMBER +
    r"|" + _NUMBER + r"(?:\s*(?:years?|people|km|kg|m|年|人)?)\s*(?:\b(?:civarı|civarında|"
    r"or so|ish)\b|くらい|ぐらい|ごろ|頃|前後|程度|ほど|左右|上下|정도|쯤|가량|내외)")
_ANSWER_MARKER = re.compile(r"(?:\banswer(?:\s+(?:is|would be|was))?|\banswer)\s*:?\s*$")


def side_issue(text: str, start: int, end: int) -> bool:
    """True when the abstention phrase text[start:end] is about a side issue (module
    docstring): a wh-complement follows it, or a head-final interrogative precedes it in
    its clause."""
    if _WH_AFTER.match(text, end):
        return True
    clause = max((m.end() for m in _CLAUSE_START.finditer(text, max(0, start - 80), start)),
                 default=max(0, start - 80))
    return bool(_WH_BEFORE.search(text, clause, start))


def estimate(text: str, quotes: list[tuple[int, int]]) -> str | None:
    """The first estimate (an approximator next to a number) outside quotations, or None."""
    for found in _ESTIMATE.finditer(text):
        if not any(q0 <= found.start() < q1 for q0, q1 in quotes):
            return found.group()
    return None


def answer_quote(text: str, quote_start: int) -> bool:
    """True when the quotation opening at `quote_start` is given as the answer ('The
    answer is "I don't know."', 'Answer: "unknown"')."""
    return bool(_ANSWER_MARKER.search(text, max(0, quote_start - 30), quote_start))


_SENTENCE = re.compile(r"[^.!?\n]+[.!?]*")
_WORD = re.compile(r"[^\W_][\w'-]*")
_NO_SPACES = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# words a short non-answer sentence opens with: pleasantries, apologies, advice, pronouns
_OPENERS = frozenset("""sorry thanks thank nobody none nothing maybe perhaps possibly probably
try ask check consult see contact please you i i'm i'd i'll i've we we're they he she who what
why how unknown unclear uncertain unsure impossible hard difficult good great nice tough tricky
interesting hope that that's this depends cheers regards apologies unfortunately sadly not
never hmm hm well so ok okay anyway just only let let's fair honestly frankly oh ah um uh er huh
wow oops alright hello hi hey alas pass nope dunno sure certainly of no-one there there's
question answer""".split())
_NOT_AFTER_ITS = frozenset("""a an the not hard difficult tough tricky unclear impossible unknown
possible complicated complex interesting uncertain anyone's private personal confidential
classified subjective beyond outside up unknowable debatable depends""".split())


def answer_sentence(text: str, spans: list[tuple[int, int]]) -> str | None:
    """A short statement (1-5 words) in a sentence of its own that holds none of the
    abstention phrases at `spans`, is not a question and does not open with a
    pleasantry, an apology, advice or a pronoun (`_OPENERS`); None when there is none.
    "Rome. I'm not sure." -> "rome."; "I don't know. Sorry!" -> None."""
    for found in _SENTENCE.finditer(text):
        sentence = found.group().strip()
        if not sentence or sentence.endswith("?") or _NO_SPACES.search(sentence):
            continue
        if any(a < found.end() and found.start() < b for a, b in spans):
            continue
        words = _WORD.findall(sentence)
        if not 1 <= len(words) <= 5 or words[0] in _OPENERS or (
                words[0] in ("it's", "it") and len(words) > 1
                and (words[1] in _NOT_AFTER_ITS or words[1] == "is" and len(words) > 2
                     and words[2] in _NOT_AFTER_ITS)):
            continue
        return sentence
    return None
