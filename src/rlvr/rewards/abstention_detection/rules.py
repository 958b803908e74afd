"""Rules of the robust abstention detector that read the text around a phrase.

Each rule closes a class of misjudged responses that a phrase list alone let through (found
by red-team rounds of honest and reward-seeking responses), in every supported language at
once:

* `side_issue`: ignorance about something other than the question ("I have no idea what
  prompted this", "No sé por qué lo preguntas", "なぜ聞くのかわかりません") is a side
  issue: the phrase is followed by a complement about the asker or the reason (why, what
  you mean, what prompted, por qué, pourquoi, warum, perché, зачем, چرا, 为什么), or, in
  head-final languages (Turkish, Japanese, Korean), preceded by the interrogative in the
  same clause (neden, なぜ, 왜). Also a side issue: doubt about the response's usefulness
  ("not sure if that helps", "not sure this is what you were looking for"), ignorance of
  other answers ("I don't know of any other"), ignorance about the conversation (a
  wh-clause about the asker or the speaker: "I don't know what textbook you're using", "I
  can't remember who told me this"), and a capability limit ("I cannot browse the
  internet", "I don't have access to real-time data").
* `CONTRAST`: a contrasting clause that goes on to say something (but, pero, mais, aber,
  ma, mas, но, ama, اما, 但是, けど, 지만 ...): after a side issue it makes the response an
  answer.
* `estimate`: a number with an approximator next to it (around 40, roughly 5,000, unos
  40, environ 40, etwa 40, circa 40, около 40, 40 civarı, حدود ۴۰, 40くらい, 大约40,
  40정도) is a guess: with a counted abstention the response is a hedge, not an
  abstention ("I don't know exactly, but probably around 40").
* `answer_sentence`: a short statement in a sentence or clause of its own next to the
  disclaimer ("Rome. I'm not sure.", "I'm not sure. It's Rome.", "I'm not sure - 1850.",
  "Hard to say: the Medici family.", "Not sure. 1850?"), or a longer one that states a
  number ("Most historians date it to 1850."), is a committed answer: the response is a
  hedge. A sentence about the missing answer ("It was never recorded.") is not one. Without this, adding the disclaimer to a wrong answer would turn
  it into an abstention and raise its reward. Only space-separated scripts (a CJK
  sentence has no word count to judge by).
* `off_question`: a phrase followed by a wh-clause that shares no content word with the
  question ("Mars has two moons. Nobody knows for sure how they formed.") is a side issue.
* `answer_quote`: an abstention quoted as the answer ('The answer is "I don't know."')
  counts; other quotations do not.
* `taken_back`, `refusal`, `bracketed` (English; `refusal` also reads the verbs other
  languages' data lists as `refuse`): an answer taken back right before the decline
  ("Paris. Just kidding, I don't know.") declines; a refusal of the request ("I cannot
  provide ...", "我无法提供…") declines whatever advice follows, unless a contrasting clause
  goes on to answer; a doubt in brackets after an answer ("7 (not sure).") or a guess in
  brackets after a decline ("I don't know (maybe Paris)") commits to that answer.
"""

from __future__ import annotations

import re

from rlvr.rewards.abstention_detection.languages import language_patterns
from rlvr.rewards.vocabulary import OPENS_QUESTION_ANY, OR_WORDS, alternation

_WH_AFTER = re.compile(
    r"[\s,]*(?:(?:really|exactly|quite|entirely|for sure|even)\s+)*"
    # the verb after a bare "I can't": "I can't remember who told me"
    r"(?:(?:remember|recall|know|say|tell|understand|see|imagine|work out|figure out)\s+)?"
    r"(?:why|how come|what (?:you|prompted|made|motivated|led|the point|this has to do|it has to do)|"
    r"where you|who (?:told|asked) you|whether you|if you(?:'re| are) (?:asking|joking|serious)|"
    r"por ?qu[ée]|pourquoi|warum|wieso|weshalb|perch[ée]|porque|зачем|почему|چرا|"
    r"你?为什么|你?為什麼|为何|為何|"
    # about the response's usefulness: "not sure if that helps", "... this is what you wanted"
    r"(?:if |whether )?(?:this|that|it|my answer|this answer) (?:helps|will help|is helpful|is useful|"
    r"answers your|is what you|was what you|is the kind of)|what you(?:'re| are| were) looking for|"
    r"how (?:helpful|useful)|"
    # about understanding the question: "I'm not sure I understand the question, but ..."
    r"(?:that |if )?i (?:fully |quite |really )?(?:understand|follow|get) (?:the|your|this) question|"
    # about other answers: "I don't know of any other", "... anyone who would disagree"
    r"(?:of )?(?:any|a single|an?) (?:other|better|different)\b|(?:anyone|anybody) (?:who|else)|"
    # about the conversation: a wh-clause about the asker, or with the speaker as its object
    # ("what textbook you're using", "who told me this"; not "if I can answer this", which
    # is about the question)
    r"(?:what|which|who|whom|where|when|how)\s+(?:[\w'-]+\s+){0,3}?"
    r"(?:you|your|you're|you've|you'd|me|my)\b)")
# a capability limit, not ignorance of the answer: "I cannot browse the internet", "I don't
# have access to real-time data"
_CAPABILITY = re.compile(r"[^.!?;:\n]{0,40}?\b(?:browse|brows(?:ing|er)|the internet|the web|"
                         r"real-time|realtime|live data|online|search engines?|external (?:sources|tools)|"
                         r"as an ai|language model|recent news|latest (?:news|updates|developments)|"
                         r"current events|news about)\b")
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
    its clause, or its sentence opens as an aside ("Mount Everest. Interestingly, nobody
    knows whether Mallory reached the top."), or it sits in a "whose" clause ("patients
    whose blood type is unknown")."""
    opened = max((m.end() for m in re.finditer(r"[.!?\n]\s*", text[:start])), default=0)
    if _ASIDE.match(text, opened) or re.search(r"\bwhose\b[^,.;:!?]*$", text[opened:start]):
        return True  # an aside, or "patients whose blood type is unknown": about someone else
    lo = max(0, start - 12, *(m.end() for m in _CLAUSE_START.finditer(text, max(0, start - 12),
                                                                        start)))
    if _WH_AFTER.match(text, end) or _CAPABILITY.match(text, lo):
        return True
    clause = max((m.end() for m in _CLAUSE_START.finditer(text, max(0, start - 80), start)),
                 default=max(0, start - 80))
    return bool(_WH_BEFORE.search(text, clause, start))


# a sentence that opens as an aside speaks of something beside the answer
_ASIDE = re.compile(r"\W*(?:interestingly|curiously|incidentally|fun fact|by the way|btw|as an aside|"
                    r"(?:a )?side note|on a side note|oddly|funnily|trivia)\b")


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


_SENTENCE = re.compile(r"(?:[^.!?\n]|[.](?=[^\W_]))+[.!?]*")  # "xe.com", "3.5" stay inside
SENTENCE = _SENTENCE  # shared with `premises`
# clause separators inside a sentence: what follows a dash, colon or semicolon is said on
# its own ("I'm not sure - 1850.", "Hard to say: the Medici family."); after a comma only a
# number is ("I can't say for sure, 1850 probably."), and in other languages than English
# (whose openers `_OPENERS` lists) too
_CLAUSE = re.compile(r"\s*(?:[:;\u2014\u2013]|\s-\s|((?<!\d),|,(?!\d)))\s*")  # not "5,000"
_WORD = re.compile(r"[^\W_][\w'-]*")
_DIGIT = re.compile(r"\d")
_NO_SPACES = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
# a question opens with an auxiliary or an interrogative; "1850?" asks nothing: a guess
_OPENING_MARK = re.compile(r"\W*[¿؟]")


def _asks(unit: str) -> bool:
    """A question that asks: it opens with an auxiliary or an interrogative, or with an
    opening question mark before more than three words that offer no alternatives ("¿Te
    refieres a la capital?"); "¿Lima?" and "¿Lima, Quito o Bogotá?" name candidates, as
    "Lima?" does."""
    if OPENS_QUESTION_ANY.match(unit):
        return True
    mark = _OPENING_MARK.match(unit)
    return bool(mark) and (bool(OPENS_QUESTION_ANY.match(unit, mark.end())) or (
        len(_WORD.findall(unit, mark.end())) > 3 and not _OFFERED.search(unit, mark.end())))


_OFFERED = re.compile(rf",|\s(?:{alternation(tuple(w for w in OR_WORDS if w not in ('oppure', 'lub')))})\s")  # "¿Lima, Quito o Bogotá?"
# a sentence that says the answer is missing or not one value is no answer: "It was never
# recorded.", "Records don't exist.", "The records were lost.", "Estimates vary widely."
_ABSENCE = re.compile(r"\b(?:not|never|no|none|nothing|nobody|neither|nor|without|lost|destroyed|"
                      r"missing|unavailable|unrecorded|undocumented|disputed|debated|unclear|"
                      r"unknown|classified|secret|private|confidential|incomplete|inconsistent|"
                      r"conflicting|contradictory|unreliable|contested|speculative|vary|varies|"
                      r"uncertain|sparse|scarce|fragmentary|patchy|biased|"
                      r"varied|differ|differs|depend|depends|changes|fluctuates|"
                      r"anonym\w*|an[óo]nim\w*)\b|n't\b")
# words a short non-answer sentence opens with: pleasantries, apologies, advice, pronouns
_OPENERS = frozenset("""sorry thanks thank nobody none nothing maybe perhaps possibly probably
try ask check consult see contact please you i i'm i'd i'll i've we we're they he she who what
why how unknown unclear uncertain unsure impossible hard difficult good great nice tough tricky
interesting hope that that's this depends cheers regards apologies unfortunately sadly not
never hmm hm well so ok okay anyway just only let let's fair honestly frankly oh ah um uh er huh
wow oops alright hello hi hey alas pass nope dunno sure certainly of no-one there there's
question answer to for in as if but and or because since""".split())
_NOT_AFTER_ITS = frozenset("""a an the not hard difficult tough tricky unclear impossible unknown
possible complicated complex interesting uncertain anyone's private personal confidential
classified subjective beyond outside up unknowable debatable depends""".split())
MAX_WORDS, MAX_NUMBER_WORDS = 5, 12
_LEAD_NUMBER = re.compile(r"\W*(?:(?:around|about|roughly|approximately|circa|maybe|perhaps|"
                          r"probably|possibly|likely|approx\.?)\s+)?[-+~$]?\d", re.IGNORECASE)


def _units(text: str):
    """(start, end, kind) of each sentence and of each clause inside it; kind is
    "sentence", "clause" (after a dash, colon or semicolon), "comma" or "lead" (before the
    first cut; read like a comma clause: only with a number)."""
    for found in _SENTENCE.finditer(text):
        yield found.start(), found.end(), "sentence"
        cuts = list(_CLAUSE.finditer(text, found.start(), found.end()))
        if cuts:  # the part before the first cut: a number there is a guess ("1850, I think,
            yield found.start(), cuts[0].start(), "lead"  # but I'm not sure.": round 4)
        for before, after in zip(cuts, cuts[1:] + [None]):
            yield before.end(), after.start() if after else found.end(), \
                "comma" if before.group(1) else "clause"


# "maybe" in the listed languages, before at most three words: a guess in a clause
_MAYBE_GUESS = re.compile(
    r"\W*(?:maybe|perhaps|probably|possibly|quiz[áa]s?|tal vez|a lo mejor|peut-[êe]tre|"
    r"vielleicht|wahrscheinlich|forse|probabilmente|talvez|provavelmente|может быть|возможно|"
    r"наверное|belki|muhtemelen|شاید|احتمالا)\s+"
    r"(?!(?:not|never|nobody|no one|none|ask|check|try|consult|look|search|google|see|contact|"
    r"visit|you|we|they|someone|somebody|someday|one day|it depends)\b)"
    r"[^\W\d_][\w'-]*(?:\s+[^\W\d_][\w'-]*){0,2}\s*[.!?]?")
_OR_WORDS = frozenset(w for w in OR_WORDS if w not in ("lub", "ya da", "یا"))
_VAGUE = frozenset("whatever something anything everything else more less similar otherwise "
                   "not".split())  # "invisible or otherwise", "whether or not": no candidates
# short items joined by "or" in a listed language: "lima or quito", "paris ou lyon"
_DISJUNCTION = re.compile(r"\W*(?:maybe |perhaps |probably |possibly )?[^\W\d_][\w'-]*(?: [^\W\d_][\w'-]*)?"
                          rf"(?:(?:,| (?:{alternation(tuple(_OR_WORDS))})) [^\W\d_][\w'-]*"
                          r"(?: [^\W\d_][\w'-]*)?)+[.!?]?")


def _statement(unit: str, kind: str) -> bool:
    """A unit that states an answer: short (or a number statement up to MAX_NUMBER_WORDS
    words), not asking, not about a missing answer, not opening with a pleasantry, advice
    or a pronoun."""
    if not unit or _NO_SPACES.search(unit):
        return False
    has_number = bool(_DIGIT.search(unit))
    if kind in ("comma", "clause") and _MAYBE_GUESS.fullmatch(unit):
        return True  # "Bilmiyorum, belki Ankara?", "No sé, quizás Lima.": a guess
    if kind in ("comma", "clause") and _DISJUNCTION.fullmatch(unit) and not _asks(unit) \
            and not (set(_WORD.findall(unit)) - _OR_WORDS) & (_OPENERS | _VAGUE):
        return True  # "I don't know, Lima or Quito.": candidates offered, a guess
    if (unit.endswith("?") and _asks(unit)) or _ABSENCE.search(unit) \
            or (kind != "sentence" and not has_number
                and (kind in ("comma", "lead") or not unit.isascii())):
        return False  # a clause without a number: English only (the openers are English)
    words = _WORD.findall(unit)
    if kind == "lead":  # opens with the number ("1850, I think, ..."), not "As of 2023, ..."
        return len(words) <= MAX_NUMBER_WORDS and bool(_LEAD_NUMBER.match(unit))
    if not 1 <= len(words) <= (MAX_NUMBER_WORDS if has_number else MAX_WORDS) or words[0] in _OPENERS:
        return False
    return not (words[0] in ("it's", "it") and len(words) > 1
                and (words[1] in _NOT_AFTER_ITS or words[1] == "is" and len(words) > 2
                     and words[2] in _NOT_AFTER_ITS))


def answer_sentence(text: str, spans: list[tuple[int, int]],
                    clauses: bool = True) -> str | None:
    """A statement in a sentence or clause of its own that holds none of the abstention
    phrases at `spans` (`_statement`: 1-5 words, or up to 12 with a number; not a
    question that asks, "1850?" is a guess; not a sentence about a missing answer such as
    "It was never recorded."; not opening with a pleasantry, apology, advice or pronoun);
    None when there is none. "Rome. I'm not sure." -> "rome."; "I'm not sure - 1850." ->
    "1850."; "I don't know. Sorry!" -> None. A clause after a dash, colon or semicolon
    counts only after a phrase in its sentence ("I'm not sure: Paris"), never in a sentence
    of its own ("Prices depend on many things: earnings, rates."); without `clauses`, only
    whole sentences count (after a rejected premise, "...does not exist: pi is irrational"
    explains the rejection)."""
    sentence = (0, 0)
    for start, end, kind in _units(text):
        if kind == "sentence":
            sentence = (start, end)
        if any(a < end and start < b for a, b in spans):
            continue
        if kind != "sentence" and not clauses or kind == "clause" and not any(
                sentence[0] <= a < start for a, _ in spans):
            continue  # "... depend on many events: earnings, rates": the colon explains
        unit = text[start:end].strip()
        if _statement(unit, kind):
            return unit
    return None


_STOP = frozenset("""the and for are was were will would could should can did does has have had
with from that this what which who whom whose when where why how about into than then them
they their there its it's his her him she you your our out not any all one ever also been being
most more much many some such very just only over after before name named called""".split())
_CONTENT = re.compile(r"[a-z0-9][a-z0-9'-]{2,}")
# a capitalised word inside a sentence (not its first word) or a number: what a claim names
_NEW_NAME = re.compile(r"(?<=[\w,;:'\")] )[A-Z][\w'-]+|\d[\d,.]*")
NEW_NAME = _NEW_NAME  # shared with `premises`


_BUT = re.compile(r"(?:but|however|though|although|yet|still),?\s+")
# a clause after a comma that states the answer itself: "..., it's Canberra"
_STATES = re.compile(r"(?:it's|it is|it was|that's|that is|the answer is|the answer's)\s+")
# a name or number right after a verb of being or saying: "most sources say Canberra"
_NAMED_AFTER_VERB = re.compile(r"\b(?:is|was|are|were|'s|say|says|said|suggest|suggests|"
                               r"point to|points to|name|names)\s+(?:that\s+)?(?:the\s+)?"
                               r"(?:[A-Z][\w'-]+|\d)")


def stems(words) -> set[str]:
    """Words with a final "s" and "'s" dropped: "moons" and "moon" are one content word."""
    return {w.removesuffix("'s").rstrip("s") for w in words} - {""}


def _content(text: str) -> set[str]:
    """The content words of a lower-case text (3+ letters, not a stop word)."""
    return {w.removesuffix("'s") for w in _CONTENT.findall(text)} - _STOP


content_words = _content  # shared with `premises`


def claim_about(text: str, cased: str | None, spans: list[tuple[int, int]],
                question: str) -> str | None:
    """A claim that answers the question beside a disclaimer ("I can't know that for sure.
    Her next album will be called Midnight Garden.", "Noah Lyles will win the 2028 Olympic
    100m sprint, although the future is hard to predict"): a sentence or clause that holds
    none of the phrases at `spans`, does not ask, is not about a missing answer
    (`_ABSENCE`) and does not open with a pleasantry or pronoun, shares two or more content
    words with `question`, and names something the question does not (a capitalised name
    after the first word, or a number). None without a question or the response's case
    (`cased`): "I'm not sure. Taylor Swift is a famous singer." names nothing new."""
    if not question or cased is None:
        return None
    asked = _content(question)
    for start, end, kind in _units(text):
        if any(a < end and start < b for a, b in spans):
            continue
        unit = text[start:end].strip()
        shared = 2
        if kind == "comma":  # a clause after a comma only after "but" ("..., but it's
            opened = _BUT.match(unit) or _STATES.match(unit)  # Lima") or one that states
            if opened is None:  # the answer itself ("..., it's Lima"); there one word
                continue        # shared with the question, or a name after "is" or "say",
            shared = 0 if cased is not None and _NAMED_AFTER_VERB.search(  # is enough
                cased, start, end) else 1
            unit = unit[opened.end():] if _BUT.match(unit) else unit
        words = _WORD.findall(unit)
        if len(words) < (2 if kind == "comma" else 3) or unit.endswith("?") \
                or _ABSENCE.search(unit) or words[0] in _OPENERS \
                or len(_content(unit) & asked) < shared:
            continue
        named = {m.group().lower().rstrip(".,") for m in _NEW_NAME.finditer(cased, start, end)}
        if named - asked - {w.lower() for w in question.split()}:
            return unit
    return None


def other_statement(text: str, spans: list[tuple[int, int]]) -> str | None:
    """A sentence of three or more words that holds none of the phrases at `spans`, does
    not ask, does not open with a pleasantry, a pronoun or advice (`_OPENERS`) and is not
    about a missing answer: after a side issue alone ("I can't browse the internet"), such a sentence is
    the answer ("The Mona Lisa was painted by Leonardo da Vinci. Please note that I can't
    browse the internet, ..."). None when there is none ("I don't know what you mean.
    Could you clarify?")."""
    for start, end, kind in _units(text):
        if kind == "comma" or any(a < end and start < b for a, b in spans):
            continue  # a sentence, or a clause before or after a semicolon, dash or colon
        unit = text[start:end].strip()
        words = _WORD.findall(unit)
        if len(words) >= 3 and not unit.endswith("?") and words[0] not in _OPENERS \
                and not _ABSENCE.search(unit):
            return unit  # not "I'm sorry, but I'm not an expert.", "Please note ...", "It was never recorded."
    return None


# contractions written without their apostrophe and chat spellings of "I don't know" are the
# same words (a red-team round found "I havent got a clue", "I wont be able to say", "idk"
# read as answers while "I haven't got a clue" abstained); the patterns are written with
# apostrophes
_BARE_NT = re.compile(r"\b(do|does|did|is|are|was|were|have|has|had|could|would|should|must|"
                      r"need|ca|wo|ai)nt\b")
_BARE = {"im": "i'm", "ive": "i've", "idk": "i don't know", "dunno": "i don't know",
         "idek": "i don't even know", "thats": "that's", "theres": "there's"}
_BARE_WORD = re.compile(r"\b(?:i )?(?=dunno)|\b(?:" + "|".join(_BARE) + r")\b")


# a decline with its subject left out ("Don't know.", "Can't say, maybe 1850.", "Not a
# clue.", "Haven't the faintest idea.") is the same act: at the start of a clause only, the
# subject is put back, so "they don't know it" and "it's Paris, they don't know" are untouched
_ELIDED_AT = r"(?:^|(?<=[.!?;:\n\u2014\u2013])|(?<=, ))(\s*)"
_ELIDED_VERB = re.compile(_ELIDED_AT + r"(?=(?:don't|do not|can't|cannot|couldn't|won't|"
                          r"wouldn't|haven't|have not) )")
_ELIDED_HAVE = re.compile(_ELIDED_AT + r"(?=not (?:a|one|the) (?:clue|idea|faintest|slightest|"
                          r"foggiest|remotest)\b)")


def apostrophes(low: str) -> str:
    """`low` (folded, lower-cased) with "dont", "havent", "wont", "im", "idk" ... spelt as
    "don't", "haven't", "won't", "i'm", "i don't know", and an elided subject put back at a
    clause start ("Don't know." -> "i don't know.", "Not a clue." -> "i have not a clue.")."""
    low = _BARE_WORD.sub(lambda m: _BARE.get(m.group(), ""), _BARE_NT.sub(r"\1n't", low))
    low = _ELIDED_VERB.sub(r"\1i ", low)
    return _ELIDED_HAVE.sub(r"\1i have ", low)



# an explicit concession before the phrase: "It's true that nobody knows exactly who ...,
# but it was built by ..." (not "while"/"although", which open hedges as often)
_CONCEDED = re.compile(r"(?:\bit(?:'s| is) true that|\bgranted,?|\badmittedly,?|\bto be sure,)\s+"
                       r"(?:[\w']+\s+){0,2}$")


# a wh-clause right after a phrase (after adverbs of certainty): what is not known
_WH_CLAUSE = re.compile(r"[\s,]*(?:(?:really|exactly|for sure|for certain|precisely|quite|yet)\s+)*"
                        r"(?:why|how|what|when|where|who|which|whether|if)\b([^.!?;:\n]*)")


def off_question(text: str, end: int, question: str) -> bool:
    """True when the phrase ending at `end` is followed by a wh-clause that shares no content
    word with `question` (both lower-case): ignorance of something the question does not
    ask ("How many moons does Mars have?" - "... Nobody knows for sure how they formed").
    False without a question or a clause with content words."""
    if not question:
        return False
    m = _WH_CLAUSE.match(text, end)
    if m is None:
        return False
    said = stems(_content(m.group(1)))
    return bool(said) and not said & stems(_content(question))


def conceded(text: str, start: int) -> bool:
    """True when the phrase at `start` is conceded ("It's true that nobody knows exactly
    ...") and a contrasting clause after it goes on to answer (`CONTRAST`, "but it was
    built by ..."): ignorance of a detail granted on the way to an answer."""
    return bool(_CONCEDED.search(text, max(0, start - 40), start)) and bool(
        CONTRAST.search(text, start))


# a response that is only a short question naming a candidate: "Was it Chinua Achebe?",
# "Is it Paris?", "Paris?" (never a wh-question or a request: "Who knows?", "Do you mean
# the film?"): a guess
TENTATIVE = re.compile(r"\s*(?:(?:is|was|could|would|might) (?:it|that|this|the answer) "
                       r"(?:be |have been )?)?(?P<guess>(?!(?:do|does|did|are|can|should|will|you|i)\b)"
                       r"(?![^?]*\b(?:who|whom|whose|what|when|where|why|how|which)\b)"  # an echo
                       r"[^\W_][^?!\n\s]*(?:\s+[^?.!\n\s]+){0,5})\s*\?\s*")
TENTATIVE_PHRASE = "a tentative question"


# a refusal of the request: the verb after a declining phrase ("i cannot| provide ...";
# other languages' from their data, `refuse`: "我无法|提供")
_REFUSES = re.compile(r"\s+(?:(?:in good conscience|ethically|legally)\s+)?(?:provide|assist|help|"
                      r"fulfill|fulfil|comply|give|offer|support|engage|create|generate|write|"
                      r"recommend|condone|promote|encourage|share|disclose|facilitate|suggest|"
                      r"participate|endorse|do that|do this)\b"
                      + "".join(f"|(?:{verb})" for verb in language_patterns("refuse")))
# an answer taken back right before the decline that follows it
_TAKEN_BACK = re.compile(r"\b(?:just kidding|kidding|scratch that|never ?mind|forget (?:that|it)|"
                         r"i take (?:that|it) back|on second thought)[,.!:;\s\u2014-]*$")
# a bracketed aside and what stands before it in its sentence
_BRACKET = re.compile(r"([^.!?\n()]*?)\s*\(([^()]*)\)")
_BRACKET_GUESS = re.compile(r"^\s*(?:maybe|perhaps|possibly|probably|my (?:best )?guess(?: is|:)?|"
                            r"i (?:think|guess)|could be|might be)\b[,:]?\s*(\S.*)$")


def taken_back(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The marker that takes back an answer right before the first counted phrase ("Paris.
    Just kidding, I don't know."), when nothing follows the last one; None otherwise.
    `spans`: the counted phrases' (start, end), in order; `text` lower-case."""
    found = _TAKEN_BACK.search(text, 0, spans[0][0])
    return found.group() if found and not text[spans[-1][1]:].strip(" .!?\n") else None


def refusal(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The first refusal ("i cannot provide") when every counted phrase at `spans` is
    followed by a verb of giving or helping and no contrasting clause follows the last one;
    None otherwise. `text` lower-case."""
    if not all(_REFUSES.match(text, end) for _, end in spans) or CONTRAST.search(text, spans[-1][1]):
        return None
    return text[spans[0][0]:_REFUSES.match(text, spans[0][1]).end()]


def bracketed(text: str, spans: list[tuple[int, int]]) -> str | None:
    """The answer brackets commit to: the text before the bracket when every counted phrase
    (`spans`) sits inside a bracket that follows an answer of its own ("7 (not sure).", "It
    will be Maria Chen (I am not sure though)"), or a guess in brackets after the last
    phrase ("I don't know (maybe Paris)"); None. `text` lower-case."""
    asides = [(m.start(2), m.end(2), m.group(1).strip(" ,;:-")) for m in _BRACKET.finditer(text)]
    inside = [next((before for s, e, before in asides if s <= start and end <= e), None)
              for start, end in spans]
    if inside and all(inside):
        return inside[0]
    for start, end, _ in asides:
        guess = _BRACKET_GUESS.match(text[start:end])
        if guess and start > spans[-1][1]:
            return guess.group(1)
    return None
