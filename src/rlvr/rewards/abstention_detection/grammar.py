"""A small grammar of declining to answer (English), from which abstention patterns are built.

A phrase list misses the other forms of the same act (red-team rounds found declines in
other tenses, moods and verbs misread as answers): "I don't know" is listed,
"I won't be able to say", "nobody will ever know", "I lack the information" and "I
honestly have no idea" are not. Here the act is described once, as constructions over word
classes, and every combination is a pattern:

    DECLINE   = SUBJECT ADV* NEGATED-MODAL ADV* ABILITY? ADV* KNOW-VERB
                ("I won't be able to say", "we will never know", "one cannot tell")
              | NEG-SUBJECT ADV* MODAL? ADV* ABILITY? KNOW-VERB(s)
                ("nobody will ever know", "no one could say", "none of us can tell")
    LACK      = SUBJECT ADV* (lack | have no | don't have | don't possess | have no access
                to | ...) ADJ* KNOWLEDGE-NOUN     ("I lack the information", "I have no means")
              | KNOWLEDGE-NOUN (is|are) not (available|accessible|known) to me
    UNABLE    = SUBJECT ADV* be ADV* (not able | unable | not in a position | not equipped |
                incapable | in no position) (to | of)   ("I'm not in a position to answer")
    NO-WAY    = there is no (way|telling|knowing|means|saying) | no way (to|of) KNOW-VERB
              | (impossible | not possible) (for X)? to KNOW-VERB
              | (can|could|will|may) (not|never) be (known|determined|...)  (impersonal)
    IGNORANCE = SUBJECT ADV* don't ADV* know | SUBJECT ADV* have ADV* no ADV* (idea|clue)
                | SUBJECT ADV* be ADV* not ADV* (sure|certain|positive|confident)
                | be ADV* (unsure|uncertain) | be (hazy|fuzzy|rusty) on
                ("I honestly have no idea", "I'm really not sure", "I'm not 100% positive")
    GENERIC   = you NEGATED-MODAL ADV* ABILITY? KNOW-VERB, with nothing after the verb but
                the clause's end or an embedded question ("You can't know.", "you'd never
                know who"; not "you can't tell anyone", "you can't say no to pizza")
              | not something ANYONE MODAL ADV* KNOW-VERB ("not something anybody could know")
    LATER     = will only be PARTICIPLE (later | in time | when ...) | only time will tell
              | time will tell | remains to be seen          (known only in the future)
    IDIOM     = the fixed idioms of not knowing: beats me, search me, your guess is as good
                as mine, haven't the foggiest, drawing a blank, no earthly idea, ... (idioms
                are lexical: a closed list is the right form for them)

ADV is any run of the adverbs people put inside these phrases (really, honestly, truly,
genuinely, simply, just, actually, frankly, possibly, ever, even, quite, entirely, ...).
The patterns are regex sources in the dialect of `patterns` (this package)
(a space matches any whitespace, MACROS such as {dont} expand there). Other languages keep
their constructions as data in `abstention_languages.json`.
"""

from __future__ import annotations

ADV = (r"(?:(?:really|honestly|truly|genuinely|simply|just|actually|frankly|sincerely|absolutely|"
       r"completely|entirely|totally|quite|even|ever|possibly|exactly|still|currently|"
       r"unfortunately|sadly|personally|definitely|certainly|necessarily|reliably|accurately|"
       r"precisely|yet|also|then|now|here|right now|at (?:this|the) (?:point|moment)|"
       r"at all|for sure|for certain|with (?:any )?(?:certainty|confidence))(?:,)? )*")
SUBJECT = r"(?:i|we|one)"
# SUBJECT + be, adverbs allowed before the verb: "I'm", "I really am", "we honestly are"
BE = (r"(?:i'm|im|we're|(?:i|we) (?:(?:really|honestly|truly|genuinely|simply|just|actually|"
      r"frankly|sincerely|unfortunately|sadly|currently|still) )*(?:am|are))")
NEG_SUBJECT = r"(?:no ?one|no-one|nobody|none of us|no human|no person|no living person|no expert)"
NEG_MODAL = (r"(?:{cant}|{couldnt}|won't|will not|wouldn't|would not|shan't|shall not|"
             r"may not|might not|(?:will|would|could|can|may|might|shall) (?:never|not ever)|"
             r"(?:won't|will not) ever|have no way to|{dont} have (?:any )?way to)")
MODAL = r"(?:will|would|could|can|may|might|shall|is going to|is able to|has (?:any )?way to)"
ABILITY = r"(?:(?:be|ever be) (?:able|in a position|equipped) to |(?:get|manage|hope) to )?"
KNOW_VERB = (r"(?:know|tell|say|answer|determine|predict|confirm|verify|ascertain|establish|"
             r"figure out|find out|work out|pin down|pinpoint|guess|judge|assess|estimate|"
             r"calculate|foresee|be sure|be certain|speak to|comment on|recall|remember|"
             r"identify|give (?:you )?(?:an? |the |that |this )?(?:answer|figure|number|name|date))")
KNOW_VERB_3RD = (r"(?:knows|can tell|can say|can answer|can predict|can determine|can know|"
                 r"can be sure|is sure|is certain|has the answer|has any idea)")
LACK_VERB = (r"(?:lack|am lacking|'m lacking|have no|'ve no|{dont} have|{dont} possess|do not hold|"
             r"{dont} hold|have not got|haven't got|possess no|have zero|{cant} access|"
             r"{dont} have access to|have no access to|{cant} see|{dont} have visibility into|"
             r"have no visibility into|{dont} have insight into|have no insight into)")
KNOWLEDGE_ADJ = (r"(?:any |the |enough |sufficient |reliable |specific |real-time |current |"
                 r"precise |exact |up-to-date |much |such |that |this |relevant |necessary |"
                 r"needed |required |personal |private |direct |way of |means of |an |a )*")
KNOWLEDGE_NOUN = (r"(?:information|info|data|knowledge|details|context|records?|evidence|facts|"
                  r"access|visibility|insight|means|way|ability|capability|answer|clue|idea|"
                  r"crystal ball)")
UNABLE = (r"(?:not able|unable|not in a position|in no position|not equipped|not capable|"
          r"incapable|not qualified|not positioned)")
PARTICIPLE = (r"(?:known|determined|predicted|answered|verified|confirmed|calculated|ascertained|"
              r"said|established|identified|foreseen|told|settled|resolved)")


def grammar_patterns() -> tuple[str, ...]:
    """The abstention patterns of the English grammar (module docstring), as regex sources
    for `patterns` (macros unexpanded)."""
    return (
        # DECLINE: negated modal + (ability) + verb of knowing/saying
        rf"{SUBJECT} {ADV}{NEG_MODAL} {ADV}{ABILITY}{ADV}{KNOW_VERB}",
        rf"{SUBJECT}(?:'ll|'d| will| would) {ADV}(?:never|not) {ADV}{ABILITY}{ADV}{KNOW_VERB}",
        rf"{BE} {ADV}not {ADV}going to {ADV}{ABILITY}{ADV}{KNOW_VERB}",
        rf"{NEG_SUBJECT} {ADV}(?:{MODAL} {ADV})?{ABILITY}{ADV}(?:{KNOW_VERB_3RD}|{KNOW_VERB})",
        # LACK: not having the information / access / means
        rf"{SUBJECT}(?:'d|'ll| would| will| still| also)? {ADV}{LACK_VERB} {KNOWLEDGE_ADJ}{KNOWLEDGE_NOUN}",
        rf"{SUBJECT} {ADV}(?:{{dont}} have|have no|lack) (?:any |direct |real-time |the )?"
        rf"(?:access|visibility|insight) (?:to|into)",
        rf"(?:that|this|such|the) (?:information|data|knowledge|record|detail)s? (?:is|are)(?:n't| not) "
        rf"(?:available|accessible|known|something i have)(?: to (?:me|us))?",
        # UNABLE: not able / not in a position
        rf"{BE} {ADV}{UNABLE} (?:to|of)",
        # NO-WAY / NO-ANSWER / impersonal
        r"there(?:'s| is| was|'ll be| will be) (?:simply |really |just |absolutely )?"
        r"no (?:telling|knowing|saying)",
        rf"no (?:way|means|reliable way|possible way|method) (?:to|of|for (?:me|us|anyone|anybody) to) "
        rf"(?:{KNOW_VERB}|knowing|telling|saying|predicting|determining)",
        rf"(?:impossible|not possible) (?:for (?:me|anyone|us|anybody|one) )?to {ADV}"
        rf"(?:{KNOW_VERB}|be {PARTICIPLE})",
        rf"(?:{{cant}}|{{couldnt}}|won't|will not|may not|might not|(?:can|could|will|may|might) never) "
        rf"(?:ever |really |yet |possibly )?be {PARTICIPLE}",
        rf"(?:beyond|outside) (?:of )?(?:what|anything) (?:i|anyone|we|one) (?:can |could )?"
        rf"{ADV}(?:{KNOW_VERB}|knows?|am aware of|have (?:information|data|records?) (?:on|about))",
        # the record is silent: "historical records don't go into that level of detail",
        # "no records survive", "nobody has ever counted them"
        r"(?:(?:the |historical |existing |surviving |available |written )?(?:records?|sources?|"
        r"documents?|archives?|evidence|history|data)) (?:simply |just )?(?:{dont}|do not|does not|"
        r"doesn't|did not|didn't) (?:go into|record|cover|include|mention|tell us|say|show|"
        r"preserve|survive|exist)",
        r"no (?:records?|sources?|documents?|accounts?|data) (?:of (?:it|this|that) )?(?:survives?|"
        r"exists?|remains?|(?:has|have) survived|(?:is|are) available)",
        r"no(?:body| one|-one) (?:has |had )?(?:ever )?(?:counted|measured|recorded|documented|"
        r"written down|kept track of|tracked|verified)",
        # "No one can count them exactly", "nobody could ever measure it precisely"
        r"no(?:body| one|-one) (?:can|could|will|would|is able to)(?: ever| really| possibly)? "
        r"(?:count|measure|calculate|determine|verify|pin down|say|tell|know)"
        r"(?: (?:them|it|that|this|those|these|all of them))?"
        r"(?= (?:exactly|precisely|for sure|for certain|with certainty|accurately)\b|\s*[.,;!]|\s*$)",
        # a third party that does not know, before a wh-complement or the end: "Scientists
        # still don't know what dark matter is made of" (not "people don't know that ...")
        rf"(?:scientists|researchers|experts|historians|astronomers|physicists|doctors|"
        rf"archaeologists|scholars|economists) {ADV}(?:{{dont}}|do not|cannot|can't) {ADV}"
        rf"(?:know|understand|tell|say|explain)"
        rf"(?=\s*(?:[.!;,]|$|(?:what|why|how|when|where|who|whether|if|exactly|for sure|on)\b))",
        # an open problem: "is still an open problem", "no one has proven or disproven it",
        # "there's no single best language"
        r"(?:is|remains|are|remain) (?:still |currently |as yet )?(?:an? )?(?:open|unsolved|"
        r"unanswered|unresolved) (?:problem|question|issue|mystery)s?",
        r"no(?:body| one|-one) (?:has |have )?(?:ever |yet )?(?:proven|proved|solved|"
        r"determined|established|demonstrated|figured out|found out)",
        r"there(?:'s| is| exists) no (?:single |one |universal |objective |definitive )"
        r"(?:best|right|correct|true|perfect) [a-z]+",
        # a false premise declined: "so there is no such year", "the premise is false"
        r"there (?:is|was|are|were|'s) no such (?:thing|year|date|person|place|event|number|"
        r"name|record|answer|day|time|height|size|amount)s?(?=\s*[.!;,]|\s*$)",  # not "no such thing as X"
        r"(?:the|your|this|that|its) (?:question's |question |)premise (?:is|was) (?:false|wrong|"
        r"flawed|mistaken|incorrect|untrue)|false premise",
        r"(?:that|this|it) never (?:happened|took place|existed)",
        # a disclaimer of one's own answer: "I could be wrong", "don't hold me to that"
        rf"{SUBJECT} (?:could|might|may) (?:well |possibly |very well )?be (?:wrong|mistaken)",
        r"(?:{dont}|do not) hold me to (?:it|that|this)",
        r"(?:take|with) (?:it|this|that)? ?with a (?:grain|pinch) of salt",
        r"correct me if (?:i'm|i am) wrong",
        # declining to guess: "I'd rather not guess", "I prefer not to speculate"
        rf"{SUBJECT}(?:'d| would) rather not {ADV}(?:{KNOW_VERB}|speculate|comment)",
        rf"{SUBJECT} {ADV}(?:prefer|choose|want|wish) not to {ADV}(?:{KNOW_VERB}|speculate|comment)",
        r"(?:there is|there's|there are|has|have) no (?:(?:single|specific|simple|straightforward|"
        r"universal|definitive|definite|clear|certain|conclusive|known|reliable|correct|right|one|"
        r"easy|clear-cut|agreed|accepted|universally accepted),? )+answers?",
        # IGNORANCE with adverbs inside
        rf"{SUBJECT} {ADV}{{dont}} {ADV}(?:know|recall|remember)",
        rf"{SUBJECT} {ADV}(?:have|'ve) {ADV}no {ADV}(?:idea|clue)",
        rf"{SUBJECT} {ADV}(?:have not|haven't|'ve not) (?:got )?(?:a|any|one|the (?:faintest|"
        rf"slightest|foggiest|remotest|least)) (?:clue|idea)",
        rf"{BE} {ADV}not {ADV}(?:100% |one hundred percent |a hundred percent )?"
        rf"(?:sure|certain|positive|confident)",
        rf"{BE} {ADV}(?:unsure|uncertain)",

        rf"{BE} {ADV}(?:a (?:bit|little) )?(?:hazy|fuzzy|rusty|shaky|foggy) (?:on|about)",
        # GENERIC: the impersonal "you", only where the verb has no object
        rf"you(?:'(?:ll|d) never| {ADV}(?:{NEG_MODAL}|will never|would never)) {ADV}{ABILITY}{ADV}"
        rf"(?:know|tell|say|be sure|be certain|predict)"
        rf"(?=\s*(?:[.!?;,\u2014]|$|for (?:sure|certain)|(?:that|what|who|whom|when|where|"
        rf"whether|if|how|which|why|yet)\b))",
        rf"not (?:something|anything|a thing) (?:that )?(?:i|we|one|you|anyone|anybody|"
        rf"people|humans?|science) {ADV}(?:{MODAL}) {ADV}(?:ever )?{ABILITY}{ADV}{KNOW_VERB}",
        # LATER: known only in the future
        rf"(?:will|can|could|would) only (?:ever )?be {PARTICIPLE}",
        r"(?:only )?time (?:will|can|could|alone will) tell",
        r"remains? to be seen",
        # IDIOM: fixed idioms of not knowing
        r"(?:(?<!\w)beats|search) me(?![\w'])",
        r"your guess is as good as mine",
        rf"{SUBJECT} {ADV}(?:have not|haven't|'ve not|have|'ve) (?:got )?(?:the )?"
        rf"(?:foggiest|faintest|slightest|remotest)(?: (?:idea|clue|notion))?",
        rf"{BE} {ADV}(?:drawing|coming up with) (?:a )?blank",
        r"no (?:earthly|earthy) idea",
        r"(?:you've|you have) got me(?: there)?(?=\s*[.!,;]|\s*$)",
        r"(?:i've|i have|i) got nothing(?: (?:on|for) (?:this|that|it|you))?(?=\s*[.!,;]|\s*$)",
        # declines: "I can't assist with ...", "I won't help with that"
        rf"{SUBJECT} {ADV}(?:{{cant}}|cannot|can not|won't|will not|am not able to|'m not able to) "
        r"(?:assist|help) (?:you )?with (?:that|this|it|such|(?:[\w-]+ ){0,3}(?:questions?|requests?))",
        # a stated lack of certainty with "fully", "entirely": "I'm not fully certain"
        rf"{BE} not (?:fully|entirely|completely|totally|quite|100%) (?:sure|certain|confident)",
        # typos and run-together forms: "Idon'tknow", "i dont no", "I do not knowe"
        r"(?<![\w'])idon'?tknow|\bi (?:dont|don't|do not) (?:no|kno|knw|knwo|knoe)\b",
        # "It depends" opening the response: no single answer is given
        r"^\W*(?:well,?\s+)?it (?:all |really )?depends\b",
        # no agreed answer: "a question without a definitive, agreed-upon answer"
        r"(?:without|with no|lacks?|lacking|has no|have no) (?:a |any )?(?:(?:single|definitive|"
        r"definite|clear|agreed[- ]upon|universally accepted|objective|simple|settled|known|"
        r"conclusive|consensus)[, ]+(?:and |or )?)+answers?",
        # no record of it: "There's no historical record of that"
        r"there(?:'s| is| are) no (?:historical |written |surviving |reliable |known |such )?"
        r"(?:records?|evidence|accounts?|documentation) (?:of|about|for) (?:that|this|it|them)\b",
        # a whole response that says there is no answer: "N/A", "n/a", "None known"
        r"^\W*(?:n/a|n\.a\.|not applicable|no answer|none known)\W*$",
        # the record is silent about a detail: "No records of the builders survive"
        r"no (?:records?|sources?|documents?|accounts?) (?:of|about|on) [^.!?;]{1,40}?"
        r"(?:survives?|exists?|remains?|(?:has|have) survived)",
        r"(?:outside|beyond) (?:of )?what (?:i|we) can (?:vouch for|confirm|verify|stand behind)",
        r"(?:{cant}|cannot|can not) (?:really )?vouch for",
        # a forecast nobody can make: "nobody can call a race that hasn't been run"
        r"no(?:body| one|-one) (?:can|could) (?:ever )?(?:predict|foresee|forecast|call (?:a|the|this|"
        r"that) (?:race|game|match|election|outcome|result|winner|fight|contest))",
        # declining to share: "I'd rather not share that", "it's a private matter"
        rf"{SUBJECT}(?:'d| would) rather not {ADV}(?:share|say|disclose|discuss|answer|get into|"
        r"go into|reveal)",
        r"(?:that's|that is|it's|it is) (?:a )?(?:private|personal|confidential) (?:matter|"
        r"information|question)(?=\s*[.!,;]|\s*$)",
        # a question back instead of an answer: "Which one do you mean: ...?", "Could you clarify?"
        r"(?:which (?:one|of them|of these)|what exactly) do you mean(?:[^.!?\n]*\?)?",
        r"(?:could|can|would) you (?:please )?(?:clarify|specify|be more specific|elaborate on "
        r"what you mean)",
        r"(?:are you|were you) (?:asking|referring) (?:about|to)",
    )
