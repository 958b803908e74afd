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
from rlvr.rewards.abstention_detection.compiler import MACROS, compile_kind
from rlvr.rewards.abstention_detection.grammar import grammar_patterns
from rlvr.rewards.abstention_detection.languages import language_pattern_ids, language_patterns

__all__ = ["MACROS", "ABSTAIN", "SCOPED", "VETO", "COMMIT", "GUESS", "CUES", "AbstentionPatterns",
           "ROBUST_PATTERNS", "first_match", "iter_matches", "robust_patterns"]

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
    r"(?:there is|there's|there are) (?:simply |really |absolutely |just )?no (?:reliable |available |"
    r"public |known |sufficient |surviving |historical )?(?:information|data|records?|evidence) "
    r"(?:available|about|on|regarding|of)",
    # no answer that anyone could find: "There isn't one we could ever pin down"
    r"there(?:'s| is)(?:n't| not| no)(?: one| a (?:single )?(?:date|day|year|number|answer|figure|name))? "
    r"(?:that )?(?:we|anyone|you|one|i|historians|scientists) (?:could|can|will|would) (?:ever )?"
    r"(?:pin (?:it )?down|know|determine|identify|name|pinpoint|establish)",
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
    r"{dont} quote me",  # a disclaimer of certainty: with a guess after it, a hedge
    r"_\(ツ\)_|\U0001F937",  # a shrug, as kaomoji or emoji
    r"i (?:wouldn't|would not) (?:swear (?:to|by|on)|bet (?:on it|my life|money|the farm)|put (?:my |any )?"
    r"money on)",
    # the answer lost or subjective: "That's lost to deep time", "so there is no name to
    # give", "Taste is subjective, so ..."
    r"lost to (?:deep |the mists of )?(?:time|history|prehistory)",
    r"(?:would|will) be (?:pure |mere |only |just )?(?:speculation|guesswork)",
    # a disclaimer of memory: "I could be misremembering the exact year, so please double-check"
    r"i (?:could|might|may) be (?:wrong|mistaken|misremembering|remembering (?:it )?wrong)",
    r"there(?:'s| is) no (?:\w+ )?to give",
    r"(?:is|are|it's|that's) (?:entirely |purely |highly |largely |very |deeply )?subjective",
    r"i(?:'d| would) (?:want to |need to |have to )?(?:double-check|double check|verify|confirm) "
    r"(?:that|this|it)\b",
    r"i (?:wouldn't|would not) (?:want to |like to |dare (?:to )?)?(?:claim|state|assert|commit to)",
    # the question itself has no answer: "..., so the question has no answer."
    r"(?:question|that|this|it) (?:has|have) no (?:meaningful |sensible |real |correct |valid |"
    r"single |right |true )?answer",
    r"{im} not familiar with",
    # an uncertainty word that ends a sentence: "Unknown.", "It's unclear." (literal first,
    # so the scan keeps its fast skip)
    r"(?:unknown|unknowable|uncertain|unclear|unsure|not known|undetermined)(?=\s*[.!;:\u2014\u2013]|\s+-\s|\s*$)",
    # a request for clarification instead of an answer: "Which match are you referring
    # to?", "I need more information to answer that."
    r"which (?:[^\W\d_]+ ){0,3}(?:are you referring to|did you mean|are you asking about)"
    r"(?:[^.!?\n]*\?)?",  # "which one do you mean: ...?" is the grammar's
    r"which (?!one\b|of them\b|of these\b)(?:[^\W\d_]+ ){1,3}do you mean\s*\?",
    r"what do you mean by",
    r"i (?:would )?need (?:a bit |some )?more (?:information|details|context) (?:to|before|in order to)",
    # saying what the question left out: "More information is needed.", "The problem
    # doesn't say how many apples she had.", "The question is missing the starting number."
    # (a request for more details, "Could you provide more context?", is not here: on
    # XSTest's labels it closes answers and premise rejections, labelled compliance)
    r"(?:more|additional|further) (?:information|details|context|data) (?:is|are|would be|will be) "
    r"(?:needed|required|necessary)",
    r"(?:question|problem) (?:does|do|did)(?: not|n't) (?:give|provide|include|contain|state|"
    r"specify|say|tell(?: us| me)?)(?: us| me)? (?:enough|any|how|what|which|who|when|where)\b",
    r"(?:question|problem)(?: is| seems)? (?:missing|lacks|lacking|incomplete)\b",
) + grammar_patterns() + language_patterns("abstain")  # the English grammar; other languages

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
    r"i {dont} know (?:about you|if you(?:'ve| have) (?:heard|noticed|seen)|what i(?:'d| would) do without|"
    r"who needs to hear this|how to (?:say|put) (?:this|it)|where to (?:start|begin))",
    # "I can't" / "I couldn't" idioms by structure, not one by one: a degree idiom (the
    # most of something: "couldn't be happier", "can't be more certain", "can't thank you
    # enough", "couldn't agree more", "couldn't have said it better") and verbs of feeling
    # or attitude ("can't wait", "can't get over", "can't help but", "can't deny")
    r"i (?:{cant}|{couldnt}) (?:have )?(?:be|been|feel|sound|look) (?:any |much )?(?:(?:more|less) [a-z]+|"
    r"[a-z]+(?:ier|er)\b)",
    r"i (?:{cant}|{couldnt}) (?:[a-z']+ ){1,4}enough\b",
    r"i (?:{cant}|{couldnt}) (?:agree|ask for) (?:anything )?more",
    r"i (?:{cant}|{couldnt}) (?:have )?(?:said|put|explained|written) (?:it|that|this) (?:any )?better",
    r"i (?:{cant}|{couldnt}) (?:wait|get over|help (?:but|it|myself)|stop (?:thinking|laughing|smiling|"
    r"talking)|stand|resist|bear|fathom|fault|complain|deny|disagree|argue with|see how)",
    r"(?:anyone|someone|somebody|everyone|people|person|those|one|experts?) who knows",
    # negated or denied ignorance: "it's not that i don't know", "i would never say i don't know"
    r"not that (?:i {dont} know|{im} (?:not sure|unsure|uncertain)|no(?:one|body| one) knows)",
    r"(?:never|not|{dont}|wouldn't|won't|will not|didn't|did not) (?:say|said|claim|claimed|pretend) "
    r"(?:that )?(?:i {dont} know|{im} (?:not sure|unsure|uncertain))",
    # an ignorance the response forbids or denies: "Don't tell me nobody knows: ...", "never
    # pretend you don't know"
    r"(?:{dont}|do not|never|stop) (?:tell(?:ing)? me|say(?:ing)?|pretend(?:ing)?|claim(?:ing)?|"
    r"act(?:ing)? like) (?:that )?(?:no(?:-|)(?:one|body)|no one|i|we|you|it(?:'s| is))",
    # "I can't say I've been there", "I wouldn't say it's wrong": a remark, not a decline
    r"i (?:{cant}|{couldnt}|wouldn't|would not) (?:honestly |really )?say (?:that )?(?:i(?:'ve|'m|'d| have| had| "
    r"was| am| agree| disagree| blame| like| love| mind)|it(?:'s| is| was)|that's|so\b|no\b|yes\b)",
    # a double negation suggests, it does not decline: "I cannot say it wasn't Lisbon" (a
    # guess: `GUESS`), "I can't rule out Lisbon"
    r"i (?:{cant}|{couldnt}) (?:say (?:that )?(?:it|he|she|they) (?:wasn't|isn't|weren't|aren't|was not|"
    r"is not|were not|are not)|rule out|exclude)\b",
    # modesty, not ignorance of the answer: "I don't know everything, but this one I'm sure of"
    r"(?:i {dont}|no(?:one|body| one)) knows? (?:everything|it all)",
    # an ignorance taken back at once: "I don't know... just kidding! It's Everest."
    r"(?:i {dont} know|no idea|{im} not sure|no clue)\W{0,6}(?:just |only )?(?:kidding|joking|jk)\b",
) + language_patterns("veto")

# A committed answer. With an abstention phrase it makes a hedge.
COMMIT: tuple[str, ...] = (
    r"####\s*[-+$]?\d",
    r"\\boxed\{",
    r"<answer>\s*[^<\s]",
    r"(?:the |my )?(?:final |best |correct |likely |probable )?answer (?:is|would be|might be|could be|"
    r"should be|=|:)",
    # a field "Answer: Paris" with a short value (a decline as its value, "Answer: unknown",
    # is none)
    r"answer(?:\*\*)?:(?:\*\*)?\s*(?!(?:unknown|unknowable|unclear|uncertain|unsure|none|null|n/a|"
    r"nan|not|no|nobody|i|idk|cannot|can't)\b)[-+$\u20ac\u00a3]?[^\W_][^\s!?]*(?:[^\S\n]+[^\s.!?]+){0,4}"
    r"(?=[.!?\n]|$)",  # a short value: "Longer answer: The grains ... were never counted" is none
    r"(?:but|however|though|although|still|that said|nevertheless|yet),? (?:i (?:think|believe|suspect|"
    r"guess|would guess|would say|'d guess|'d say|reckon)|it(?: is|'s| was| might be| may be| could be|"
    r" would be| should be| seems| sounds| looks| must be)(?! (?:sure|also|a good idea|fun|interesting|"
    r"fascinating|important|worth|always|hard|difficult|impossible|possible|unclear|unknown|likely to|"
    r"an? (?:interesting|exciting|great|good|fun|fascinating|difficult|tough|hard|open|complex)))"
    r"|probably|likely|most likely|perhaps|maybe|possibly|my (?:best )?guess|if i had to guess|the answer)",
    # a number after "but", or stated as "it is N": "I'm not sure, but 1850."
    r"(?:but|however|though|yet),? (?:(?:it(?:'s| is| was| might be| may be)|maybe|probably|perhaps|"
    r"i think|i guess|(?:it|that|this|they|the \w+) (?:could|might|may|will|would) (?:\w+ ){0,2}?\w+) )?"
    r"(?:about |around |roughly |approximately )?[-$]?\d[\d,.]*(?:\s+[\w%-]+){0,2}(?=\s*[.!]|\s*$)",
    r"(?:it|that|this)(?:'s| is| was| would be) (?:about |around |roughly |approximately )?[-$]?\d",
    # the consensus after an impersonal doubt, with a number it gives: "No one knows for
    # sure, but most scholars place it in the 8th century BC." ("..., although many
    # scientists think it is plausible" gives nothing)
    r"(?:but|however|though|although|yet),? (?=[^.!?\n]*\d)(?:most |many |the |some )?(?:scholars|historians|experts|"
    r"scientists|researchers|estimates|sources|records|consensus|evidence|tradition|studies|"
    r"accounts)\b(?: \w+){0,3}? (?:place|places|put|puts|date|dates|suggest|suggests|say|says|"
    r"believe|think|agree|estimate|indicate|indicates|point|points|is|are|show|shows)\b",
    # a short answer first, then the doubt: "Paris, though I'm not certain."
    r"^(?!(?:well|so|honestly|sorry|hmm|oh|ok|okay|yes|no|it depends|that depends|good question|"
    r"great question|interesting question|apologies|unfortunately|sadly|regrettably|alas|thanks|"
    r"thank you|hello|hi|hey|frankly|truthfully|i see|i understand|of course|sure|certainly)\b)"
    r"(?:[\w-]+\s+){0,3}[\w-]+(?=,?\s+(?:though|although|but)\s)",
    # a short guess that ends its sentence: "Who knows? Probably Paris."
    # ("couldn't possibly say": an adverb inside a negated modal is part of the decline)
    r"(?:probably|most likely|perhaps|maybe|possibly)(?<!n't\spossibly)(?<!not\spossibly) (?!not\b|never\b|nobody\b|none\b|check|ask|try|"
    r"consult|look|search|see|contact|visit|google|you\b|we\b|someone|somebody|they\b|someday|one day)"
    r"(?:[\w-]+\s+){0,2}[\w-]+(?=\s*[.!?]|\s*$)",
    # "I'd say Paris" states an answer (an opinion marker, not a guess: no hedge on its own)
    r"i(?:'d| would) say (?!(?:i|we|nobody|no one|noone|none|nothing|not|that (?:i|we|nobody|"
    r"no one)|it(?:'s| is) (?:impossible|unknown|hard|unclear))\b)[^\W_]",
    r"(?:but|though|however|although),? i (?:can |do )?(?:confirm|believe|recall|remember|"
    r"think|suspect|reckon|am fairly sure|'m fairly sure|'m pretty sure|am pretty sure) "
    r"(?!(?:i|we|nobody|no one|it(?:'s| is) (?:impossible|unknown|hard|unclear))\b)[^\W_]",
    r"i(?:'d| would) (?:guess|say|estimate) (?:it|that|the|around|about|approximately|roughly)",
    r"i (?:think|believe|suspect) (?:it(?:'s| is| was| would be| might be)|that it|the answer|that the)",
    r"(?:probably|most likely|likely|possibly|perhaps|maybe) (?:it(?:'s| is| was)|the answer|around|about|\d)",
    # a guess behind a disclaimer: "it could be Rome", "I'd put it at 2,000", "somewhere around 300"
    r"(?:it|that|this|the answer) (?:could|might|may) (?:well |possibly )?be (?!anything|any\b|many|several|"
    r"one of|either|hard|difficult|impossible|possible|true|the case|different|a number|more|less|"
    r"longer|shorter|years|decades|centuries|a while|some time|soon|now|misused|abused|harmful|"
    r"dangerous|unsafe|illegal|used to|wrong|right|correct|incorrect|inaccurate|mistaken|misleading|"
    r"outdated|unreliable|off\b)[^\W_]\S*",  # "a name that might be wrong" guesses nothing
    r"i(?:'d| would) (?:put it at|put it around|ballpark|estimate)",
    r"somewhere (?:around|between|near|in the (?:range|region|neighbou?rhood) of)",
) + language_patterns("commit")

# A guess: uncertainty and an answer in one phrase ("My best guess is Paris", "I'd go with
# Canberra", "Lisbon would be my pick", "Lisbon rings a bell", "if pressed, 1912"): a hedge
# on its own, and a commitment that makes an abstention phrase a hedge.
GUESS: tuple[str, ...] = (
    r"i (?:{cant}|{couldnt}) (?:say (?:that )?(?:it|he|she|they) (?:wasn't|isn't|weren't|aren't|was not|"
    r"is not|were not|are not)|rule out|exclude) [^\W_]",
    r"my (?:best |educated |honest |wild )?guess(?: is| would be|'s)",
    r"if i (?:had|have|were) to (?:guess|say|pick|choose|bet)",
    r"i(?:'d| would) (?:guess|go with|pick|choose|opt for|lean (?:towards?|to)|wager|"
    r"bet(?: on)?|put my money on|venture|hazard) (?!(?:i|we|nobody|no one|noone|none|nothing|"
    r"not|that (?:i|we|nobody|no one)|it(?:'s| is) (?:impossible|unknown|hard|unclear))\b)[^\W_]",
    r"my (?:bet|money|pick|vote|hunch|gut(?: feeling)?|instinct|inclination)(?:'s| is| would be| "
    r"says| goes| tells me| would go| would be on) (?!(?:that (?:i|we|nobody|no one)|nobody|"
    r"no one)\b)[^\W_]",
    r"(?:would be|is) my (?:pick|bet|guess|choice|best guess|hunch)",
    r"rings a bell",
    r"gut (?:feeling|instinct)?\s*(?:says|tells me|is)",
    r"if (?:pressed|forced|i must)",
    r"(?:a|my|the|our) (?:rough |best |ballpark |crude |wild |educated )?(?:estimate|guess)"
    r"(?: would be| is|'s| of| puts it at)",
    # a hedge adverb on a short answer or on its copula: "Probably Shakespeare.", "It's
    # probably Paris.", "..., I think." (not "Perhaps the answers lie in ...", "it was likely
    # founded by earlier sects like ...": a long sentence is a claim, not a guess)
    r"(?:^|(?<=[.!?]\s))(?:probably|most likely|possibly|perhaps|maybe)\s+(?!not\b|never\b|nobody\b|"
    r"no one\b|none\b|check|ask|try|consult|look|search|see\b|contact|visit|google|you\b|we\b|"
    r"someone|somebody|they\b|someday|one day|both\b|neither\b|either\b|it depends)"
    r"(?:[^\s.!?]+\s+){0,2}[^\s.!?]+(?=\s*[.!]|\s*$)",
    r"(?:it|that|this|he|she|they)(?:'s| is| was| were| are| would be) (?:probably|most likely|"
    r"likely|possibly|perhaps|maybe) (?!not\b|never\b|unknown|impossible|unclear|hard)"
    r"(?:[^\s.!?]+\s+){0,3}[^\s.!?]+(?=\s*[.!]|\s*$)",
    # any subject, the copula then a hedge adverb then a noun phrase: "Your mother's maiden
    # name is probably Smith" ("likely" only in the short form above: "it was likely founded
    # by ..." is a claim)
    r"(?:is|was|are|were|'s|would be|will be) (?:probably|most likely|possibly|perhaps|maybe) "
    r"(?!not\b|never\b|unknown|impossible|unclear|hard|the case|true|right|correct|wrong)"
    r"(?:the |a |an )?[A-Za-z0-9]",
    r",\s*i (?:think|guess|believe|suppose|reckon)(?=\s*[.!]?\s*$)",
    # a doubt in brackets after the answer: "Canberra (I think)", "1850 (not sure)"
    r"\(\s*(?:i think|i believe|i guess|probably|maybe|not sure|not certain|unsure|i'm not sure|"
    r"if i recall correctly|iirc)\s*[.!?]?\s*\)",
    # a hedged yes or no: "Probably yes, it often rains in July."
    r"(?:^|(?<=[.!?]\s))(?:probably|maybe|perhaps|likely|possibly) (?:yes|no|not)\b",
    # a guess list opening its sentence: "Maybe Rex, Spot, or Bella?"
    r"(?:^|(?<=[.!?]\s))(?:maybe|perhaps|possibly|probably) (?!(?:check|ask|try|consult|look|search|"
    r"see|contact|visit|google|you|we|someone|somebody|they|not|never)\b)[^\W\d_][\w-]*"
    r"(?:(?:,| or|, or) [^\W\d_][\w-]*){1,5}\s*[?.!]?\s*$",
    # a forecast stated as such: "my prediction is Brazil"
    r"my (?:prediction|forecast|projection|tip|estimate)(?:'s| is| would be| goes to) [^\W_]",
    # a stated low confidence beside an answer: "1492. Confidence: low", "Paris (low
    # confidence)", "my confidence is low"
    r"confidence(?: level)?\W{0,3}(?:is\W{1,3})?(?:very |quite |rather |fairly )?low\b",
    r"\(\s*(?:very |quite |rather |fairly )?low confidence",
    r"(?:with|at|on) (?:very |quite |rather |fairly )?low confidence",
) + language_patterns("guess")

# A sentence that opens with one of these restates the question rather than answering.
CUES: tuple[str, ...] = (
    r"(?:you(?:'re| are)? ask(?:ed|ing)?|the question (?:asks|(?:is|was) (?:whether|if|about|what|who|"
    r"how|when|where|why|which))|your question|you want to know|"
    r"as for (?:whether|if)|regarding (?:whether|if)|asking (?:whether|if)|q:|question:)",
)

_PATTERN_KINDS = ("abstain", "scoped", "veto", "commit", "guess", "cues")


def _ids(kind: str, own: int, grammar: int = 0) -> tuple[str, ...]:
    """Ids of a default pattern set: its `own` English patterns of this module
    ("abstain:en#1"), then `grammar` patterns of `grammar.py` ("abstain:grammar#1"), then the
    other languages' (`languages.language_pattern_ids`)."""
    ids = [f"{kind}:en#{n}" for n in range(1, own + 1)]
    ids += [f"{kind}:grammar#{n}" for n in range(1, grammar + 1)]
    return tuple(ids) + (language_pattern_ids(kind) if kind != "cues" else ())


# every default pattern's id, in the order of its set (`AbstentionPatterns.pattern_ids`)
_GRAMMAR = len(grammar_patterns())
DEFAULT_IDS: dict[str, tuple[str, ...]] = {
    kind: _ids(kind, len(values) - _GRAMMAR * (kind == "abstain")
               - (len(language_patterns(kind)) if kind != "cues" else 0),
               _GRAMMAR if kind == "abstain" else 0)
    for kind, values in (("abstain", ABSTAIN), ("scoped", SCOPED), ("veto", VETO),
                         ("commit", COMMIT), ("guess", GUESS), ("cues", CUES))}


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
    guess: tuple[str, ...] = GUESS
    cues: tuple[str, ...] = CUES

    @functools.cached_property
    def compiled(self) -> dict[str, re.Pattern]:
        """Each kind compiled into one alternation (built once per instance), plus
        `abstain_ascii`: the abstain patterns that can match ASCII text."""
        compiled = {kind: compile_kind(self.commit + self.guess if kind == "commit"  # a guess
                                       else getattr(self, kind))  # commits too
                    for kind in _PATTERN_KINDS}
        compiled["abstain_ascii"] = compile_kind(self.abstain, ascii_only=True)
        return compiled

    def pattern_ids(self, kind: str) -> tuple[str, ...]:
        """The id of each pattern of `kind`, in order: the defaults' (`DEFAULT_IDS`:
        "abstain:en#3", "abstain:grammar#12", "abstain:es#2"), then "<kind>:config#n" for
        patterns a config added (`robust_patterns`)."""
        own = DEFAULT_IDS[kind]
        values = getattr(self, kind)
        if values[:len(own)] != getattr(ROBUST_DEFAULTS, kind):
            return tuple(f"{kind}:set#{n}" for n in range(1, len(values) + 1))
        return own + tuple(f"{kind}:config#{n}" for n in range(1, len(values) - len(own) + 1))

    @functools.cached_property
    def _each(self) -> dict[str, tuple[tuple[str, re.Pattern], ...]]:
        """Each pattern compiled alone, with its id (built on the first identification)."""
        return {kind: tuple(zip(self.pattern_ids(kind),
                                (compile_kind((p,)) for p in getattr(self, kind))))
                for kind in _PATTERN_KINDS}

    def identify(self, kind: str, text: str, match: re.Match) -> str | None:
        """The id of the pattern of `kind` that matched `match` (a match of the kind's
        combined regex on `text`): the first pattern that matches the same span, else the
        first that matches at the same start; None when none does. Only called when a
        pattern has fired, so the scan of text that holds none stays one combined regex."""
        start, end = match.span()
        first = None
        for pattern_id, regex in self._each[kind]:
            found = regex.match(text, start)
            if found is not None:
                if found.end() == end:
                    return pattern_id
                first = first or pattern_id
        return first

    @functools.cached_property
    def _table(self) -> dict[str, str]:
        return {pattern_id: pattern for kind in _PATTERN_KINDS
                for pattern_id, pattern in zip(self.pattern_ids(kind), getattr(self, kind))}

    def pattern_table(self) -> dict[str, str]:
        """Every pattern by its id: {"abstain:en#1": "i (?:really |...)?{dont} ...", ...}
        (built once per instance; do not change the dict)."""
        return self._table


ROBUST_PATTERNS = AbstentionPatterns()
ROBUST_DEFAULTS = ROBUST_PATTERNS


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
        extra: {kind: [regex, ...]} with kind in abstain, scoped, veto, commit, guess, cues; the
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
