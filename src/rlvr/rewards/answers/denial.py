"""Is an occurrence of the gold answer denied? ("not Paris", "Paris is wrong", "I doubt it's Paris")

A response that names the gold only to deny it does not give it (a check for "not"/"never"
right before the gold let every other denial verb through: "I doubt it's Paris" was paid as
Paris). Instead of a list of denial sentences, a denial is a small grammar around the
occurrence, in the supported languages:

* before the gold (`_BEFORE`, within 48 characters, in the same clause; any "-ly" adverb
  counts as filler: "couldn't possibly be Paris"): a NEGATOR (not,
  never, n't, no, nor; nicht/kein, pas/non/jamais, non/mai, não/nunca, no/nunca, не/ни,
  不/不是/并非, ...) or a DENIAL PREDICATE (doubt, unlikely, hardly, anything but, other
  than, except, rather than, instead of, as opposed to, rule out, refuse to say, wouldn't
  say, don't think/believe it is), followed only by FILLER: intensifiers (certainly,
  definitely, surely, sicher, sicuramente, точно, 肯定, ...), articles, a subject pronoun
  and a copula (is, was, be, es, est, ist, è, é, это, 是, ...).
* after the gold (`_AFTER`, right after it, or after an opening bracket or "which", "that",
  "this": "Paris (wrong)", "Paris, which is false", "Paris. That's incorrect"): a copula
  (modal ones too: "Paris can be ruled out") or none, then a DENIAL PREDICATE (also "out of
  the question", "a common wrong answer"):
  wrong, incorrect, false, not (right / correct / it / the answer), ruled out, a myth, a
  misconception; falso, faux, falsch, sbagliato, errado, неверно, yanlış, değil, غلط,
  نیست, 错, 不对, 間違い, ではない, 違う, ...
* a hypothesis ("if it were Paris", "assuming the answer is 1969", "suppose it's Paris")
  does not give the gold; nor does a belief attributed to others, or a first thought or
  tempting guess of the response's own, that the response then contradicts ("Many people
  think it's Paris, but it's Lyon", "A common misconception is that it's Paris; in fact
  ...", "My first instinct was Paris, but ... it's Lyon", "Paris would be the obvious
  guess; however, ..."). Without the contradiction the attribution stands.
* a denial that is itself negated affirms ("it can't be anything but Paris", "none other
  than Paris", "no doubt it is Paris", "I can't deny it's Paris", "I don't doubt it's
  Paris"): `_AFFIRM` wins.

Known limits: a denial further away than one clause ("Paris? No, that is not what I
mean") and sarcasm are not recognised; head-final languages whose particles attach to
the gold (Korean "파리는", Japanese "パリは") do not reach this check, because the gold is
not on a word boundary there (`match.word_starts`).
"""

from __future__ import annotations

import re

# a negator that negates its clause; a comma after it ends the denial ("No, it's Paris")
_NEGATOR = (r"(?:not|never|nor|nicht|kein(?:e|en|er|es)?|nie|niemals|pas|non|jamais|mai|n[aã]o|"
            r"nunca|tampoco|не|ни|değil|不是|不|并非|並非|絕不是|绝不是|没有|沒有)")
# a negator that is also a whole answer ("no"): only an article or a copula may follow it
_WEAK = r"(?:no|none|нет)(?:\s+(?:the|a|an|exactly|quite|es|era|sea|est|ist|è|é|это))?"
_PREDICATE = (r"(?:doubt|doubtful|unlikely|hardly|scarcely|barely|anything but|other than|except(?: for)?|"
              r"rather than|instead of|as opposed to|rule out|ruled out|can rule out|deny|denies|"
              r"(?:{dont}|doesn't|does not|didn't|did not) (?:think|believe|suppose|reckon)|"
              r"(?:refuse|refused|decline|declined) to (?:say|answer|guess|accept|go with)|"
              r"(?:wouldn't|would not|would never) (?:say|go with)|"
              r"dudo|difícilmente|je doute|doute|bezweifle|kaum|auf keinen fall|keinesfalls|dubito|duvido|"
              r"сомневаюсь|вряд ли)")
_FILLER = (r"(?:[a-z]+ly|certainly|definitely|surely|absolutely|really|exactly|quite|actually|clearly|obviously|"
           r"necessarily|just|simply|at all|that|the answer|the|a|an|it's|that's|it|this|he|she|they|"
           r"is|was|were|are|be|would be|could be|will be|to be|to|s|'s|'re|"
           r"in|on|at|by|during|from|since|until|until|for|of|"  # "not in 1989"
           r"es|era|sea|fue|est|était|soit|c'est|ce|ist|war|sei|es ist|das|è|sia|é|seja|foi|"
           r"это|был[аои]?|是|为|sicher|bestimmt|gewiss|sicuramente|di sicuro|certo|"
           r"definitivamente|seguro que|seguramente|com certeza|certamente|certainement|sûrement|"
           r"точно|явно|конечно|kesinlikle|asla|肯定|绝对|絕對|一定|قطعاً|قطعا|مسلماً)")
_DONT = r"(?:do not|don't|dont)"

# a letter of a spaced script: a negator glued to one is part of a longer word; glued to a
# Chinese, Japanese or Korean character it is a word of its own ("肯定不是巴黎")
_SPACED_LETTER = r"[A-Za-z0-9_\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff\u0600-\u06ff]"
_BEFORE = re.compile(
    rf"(?:(?:(?<!{_SPACED_LETTER})(?:{_NEGATOR}|{_PREDICATE.replace('{dont}', _DONT)})|n't)"
    rf"(?:\s+(?:{_FILLER}))*|(?<![\w]){_WEAK})\s*$")
# "Canberra is not the capital", "Paris isn't the one": the gold denied the role the question
# asks about; "not the only ..." and "not the same ..." add to the gold, they do not deny it
_THE_ROLE = r"the (?!only\b|same\b|first and\b)[^\W\d_]+"
_AFTER = re.compile(  # round 4: also through a bracket or a pronoun, "Paris (wrong)", "Paris,
    r"\s*(?:\(\s*|[,.;:\u2014\u2013-]?\s*(?:which|that|this)\b\s*)?"  # which is wrong", "Paris. That's false"
    r"\s*(?:(?:is|was|(?:would|will|must|can|could|may|might|should) (?:\w+ly )?be|'s|es|está|era|sería|est|était|serait|ist|war|wäre|"
    r"è|sarebbe|é|seria|это|是|بود|است|は|では|じゃ|이|가|는|은)\s*)?"
    r"(?:definitely |certainly |clearly |simply |just )?"
    r"(?:wrong|incorrect|false|mistaken|not (?:right|correct|it|true|{the_role})|"
    r"isn't (?:right|correct|it|true|{the_role})|ruled out|out of the question|"
    r"a (?:common |frequent |popular |typical )?(?:wrong answer|wrong guess|mistake|error|"
    r"misconception|myth)|falso|falsa|faux|fausse|falsch|sbagliat[oa]|errad[oa]|"
    r"equivocad[oa]|incorrect[oa]|erróne[oa]|неверн\w*|неправильн\w*|ошибочн\w*|yanlış|değil|"
    r"غلط|نیست|نادرست|错|錯|不对|不對|不正确|間違い|ではない|じゃない|ない|違う|違います|"
    r"아닙니다|아니다|아니에요|아니야|아님|틀렸\w*|틀린|틀립니다)"
    rf"(?!{_SPACED_LETTER})".replace("{the_role}", _THE_ROLE))
_AFFIRM = re.compile(
    r"(?:not (?:only|just|merely)|(?:n't|not|never|cannot|no one can|nobody can) (?:really )?"
    r"(?:deny|doubt|dispute|question|rule out)(?: (?:that|it))?|(?:n't|not|never|cannot|can't|couldn't)"
    r"(?: (?:be|been|say|pick|choose|accept|answer|call it|go with|consider|give))? "
    r"(?:anything|anyone|anywhere|any other \w+) (?:but|other than|else than|"
    r"except)|nothing but|none other than|no other than|no doubt(?: (?:that|it(?:'s| is)))?|"
    r"without (?:a )?doubt|no other (?:answer|city|place|person|one) than)[\s,]*(?:(?:it|that|the answer)"
    r"(?:'s| is| was))?[\s,]*$")
_CLAUSE = re.compile(r"[.;:!?\n]|,\s*(?:but|and|so|then)\b")
# the gold in a hypothesis: "if it were Paris", "assuming the answer is 1969", "suppose it's X"
_HYPOTHESIS = re.compile(
    rf"(?<![\w])(?:if|even if|unless|assuming|supposing|suppose|whether)(?: that)?"
    rf"(?:\s+(?:{_FILLER}|equals?))*\s+$")
# the gold as what others believe, then contradicted: "many think it's Paris, but it's Lyon"
_ATTRIBUTED = re.compile(
    r"(?:(?:many|some|most|a lot of)(?: \w+)? (?:think|believe|assume|say|guess|claim|answer)s?|"
    r"(?:people|everyone|everybody|tourists|students) (?:often |usually |commonly )?"
    r"(?:think|believe|assume|say|guess|answer)|(?:misconception|myth|mistake|trap) (?:is )?that|"
    r"(?:often|commonly|widely|wrongly|mistakenly) (?:said|believed|thought|assumed|given)|"
    rf"(?:tempting|easy) to (?:say|think|guess|answer))(?:\s+(?:{_FILLER}))*\s*$")
# the gold named as a first thought or a tempting guess, before it is contradicted: "My first
# instinct was Paris, but ... it's Lyon", "Paris would be the obvious guess; however, ..."
_FIRST_THOUGHT = re.compile(
    r"(?:my (?:first|initial|gut|immediate) (?:instinct|guess|thought|answer|reaction|impulse)|"
    r"at first(?: glance| sight)?,? (?:i (?:thought|guessed|said)|it (?:seems|looks|seemed|looked))"
    r"(?: like)?|one (?:might|could|would) (?:think|say|guess)|you (?:might|could) (?:think|guess))"
    r"(?: (?:was|is|would be|that|it(?:'s| is| was)))*\s*$")
_TEMPTING_AFTER = re.compile(
    r"\s*(?:would be|is|seems|looks like|might seem)(?: like)? (?:the |an? )?(?:obvious|tempting|"
    r"natural|intuitive|easy|first|quick|naive|common) (?:guess|answer|choice|pick|thought|reply)")
_CONTRADICTED = re.compile(r"[^.!?\n]{0,60}?(?:\bbut\b|\bhowever\b|\bin fact\b|\bactually\b|"
                           r"\bin reality\b|\bwhereas\b|\bthe truth is\b)|[.;]\s*(?:in fact|actually|"
                           r"in reality|the (?:real|correct|right) answer)\b")


def denied(text: str, start: int, end: int) -> bool:
    """True when the occurrence text[start:end] of the gold is denied (module docstring).

    Args:
        text: the response, folded and lower-cased.
        start, end: the occurrence's span (characters).
    """
    left = max(0, start - 48)
    breaks = [m.end() for m in _CLAUSE.finditer(text, left, start)]
    window = text[breaks[-1] if breaks else left:start]
    if _AFFIRM.search(window):
        return False
    if _HYPOTHESIS.search(window):
        return True
    if (_ATTRIBUTED.search(text[max(0, start - 60):start])
            or _FIRST_THOUGHT.search(text[max(0, start - 60):start])
            or _TEMPTING_AFTER.match(text, end)) and _CONTRADICTED.match(text, end):
        return True
    return bool(_BEFORE.search(window) or _AFTER.match(text, end))
