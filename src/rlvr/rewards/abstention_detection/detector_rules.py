"""The abstention detector's named rules (`rlvr.rewards.rulebook`): what each decision of
`detector.detect_abstention` decides, with probes (completion, question, gold; gold None =
an unanswerable question) on which it must fire and must spare. The detector notes them
by these ids; `tests/test_rulebook.py` runs the probes.
"""

from __future__ import annotations

from rlvr.rewards.rulebook import register_rule

_CAPITAL = "What is the capital of Australia?"
_FUTURE = "Who will win the 2040 World Cup?"

DECLINE_PHRASE = register_rule(
    "decline.phrase", "a phrase that declines the question (the grammar of not knowing, or "
    "a declining phrase of another language) counts: the response abstains unless an "
    "answer is committed beside it",
    fires=[("I don't know.", _FUTURE, None), ("No one can know that yet.", _FUTURE, None),
           ("No lo sé.", _FUTURE, None)],
    spares=[("Brazil.", _FUTURE, None), ("I know it is Canberra.", _CAPITAL, "Canberra")])
DECLINE_NONE = register_rule(
    "decline.none", "no phrase that counts declines the question, and no guess, rejected "
    "premise or tentative question: the response is read as an answer",
    fires=[("Brazil.", _FUTURE, None), ("I cannot stress this enough: Canberra.", _CAPITAL,
                                        "Canberra")],
    spares=[("I don't know.", _FUTURE, None), ("My best guess is Canberra.", _CAPITAL,
                                               "Canberra")])
DISCOUNT_TITLE = register_rule(
    "discount.title", "a declining phrase written as a title inside a sentence (\"Nobody "
    "Knows\", a song) is no abstention",
    fires=[("The answer is Nobody Knows, a 1996 song.", "Which song did Lauryn Hill cover?",
            "Nobody Knows")],
    spares=[("Nobody knows.", _FUTURE, None), ("I DON'T KNOW.", _FUTURE, None)])
DISCOUNT_IDIOM = register_rule(
    "discount.idiom", "a declining phrase inside an idiom (\"I cannot stress this enough\", "
    "\"who knows\" as a tag) is no abstention",
    fires=[("I cannot stress this enough: it is Canberra.", _CAPITAL, "Canberra")],
    spares=[("I cannot say.", _CAPITAL, "Canberra")])
DISCOUNT_QUOTED = register_rule(
    "discount.quoted", "a declining phrase inside a quotation (a title, a line of a song, "
    "unless the quotation is given as the answer) is no abstention",
    fires=[('The song "I don\'t know" was a hit in 1998.', "When was the song a hit?",
            "1998")],
    spares=[("I don't know.", _FUTURE, None)])
DISCOUNT_RESTATEMENT = register_rule(
    "discount.restatement", "a declining phrase that restates the question (echoes it as a "
    "question, opens with a cue such as \"You asked whether\", or copies its words) is no "
    "abstention",
    fires=[("You asked whether nobody knows the capital. It is Canberra.", _CAPITAL,
            "Canberra")],
    spares=[("Nobody knows the capital.", _CAPITAL, "Canberra")])
DISCOUNT_TOPIC = register_rule(
    "discount.topic", "an impersonal phrase of not knowing, to a question about what cannot "
    "be known, is the topic of the answer, not a refusal to give it",
    fires=[("Because of the uncertainty principle, it is impossible to know both exactly.",
            "Why can't we know both the position and momentum of an electron?",
            "the uncertainty principle")],
    spares=[("It is impossible to know.", _FUTURE, None)])
DISCOUNT_RULES = {"title": DISCOUNT_TITLE, "idiom": DISCOUNT_IDIOM, "quoted": DISCOUNT_QUOTED,
                  "restatement": DISCOUNT_RESTATEMENT, "topic": DISCOUNT_TOPIC}
SIDE_ISSUE_PHRASE = register_rule(
    "side_issue.phrase", "ignorance scoped to something else (\"I don't know why\", \"I'm not "
    "sure if\") is a side issue: it declines only when nothing answers beside it",
    fires=[("I don't know why you ask. Canberra.", _CAPITAL, "Canberra")],
    spares=[("I'm not sure.", _CAPITAL, "Canberra")])
SIDE_ISSUE_COMPLEMENT = register_rule(
    "side_issue.complement", "a declining phrase followed by a complement about the asker, a "
    "reason or a capability (\"I cannot browse the internet\") is a side issue",
    fires=[("I cannot browse the internet. Canberra.", _CAPITAL, "Canberra")],
    spares=[("I don't know, but I think it is Canberra.", _CAPITAL, "Canberra")])
SIDE_ISSUE_CONCEDED = register_rule(
    "side_issue.conceded", "ignorance of a detail conceded on the way to an answer (\"It's "
    "true that nobody knows exactly ..., but\") is a side issue",
    fires=[("It's true that nobody knows exactly who designed it, but it was built in 1913.",
            "When was Canberra founded?", "1913")],
    spares=[("Nobody knows exactly who designed it.", "Who designed Canberra?",
             "Walter Burley Griffin")])
SIDE_ISSUE_OFF_QUESTION = register_rule(
    "side_issue.off_question", "ignorance of something the question does not ask (a "
    "wh-clause sharing no content word with it) is a side issue",
    fires=[("Two. Nobody knows for sure how they formed.", "How many moons does Mars have?",
            "2")],
    spares=[("Nobody knows for sure how many moons it has.", "How many moons does Mars have?",
             "2")])
SIDE_ISSUE_ANSWERED = register_rule(
    "side_issue.answered", "a side issue with an answer beside it (a contrasting clause, an "
    "estimate, an answer sentence or another statement) leaves the response an answer",
    fires=[("I don't know why you ask. Canberra.", _CAPITAL, "Canberra")],
    spares=[("I don't know why you ask.", _CAPITAL, "Canberra")])
COMMIT_MARKER = register_rule(
    "commit.marker", "a committed-answer marker (\"but it is\", \"the answer is\", \"#### 5\") "
    "that is not part of a declining phrase: a hedge when a phrase declines too",
    fires=[("I'm not sure, but it is Canberra.", _CAPITAL, "Canberra")],
    spares=[("The answer is unknown to me, I don't know.", _FUTURE, None)])
COMMIT_ESTIMATE = register_rule(
    "commit.estimate", "an estimate (an approximator next to a number) beside a declining "
    "phrase, to a question that asks for a number or a date, commits to a guess",
    fires=[("I don't know exactly, roughly 2,000.", "How many people live on the island?",
            None)],
    spares=[("I don't know exactly.", "How many people live on the island?", None)])
COMMIT_SENTENCE = register_rule(
    "commit.sentence", "a short answer sentence or clause of its own beside a declining "
    "phrase commits to an answer",
    fires=[("I can't be certain. Canberra.", _CAPITAL, "Canberra")],
    spares=[("I can't be certain. Sorry!", _CAPITAL, "Canberra")])
COMMIT_BRACKETED = register_rule(
    "commit.bracketed", "an answer followed by its doubt in brackets (\"7 (not sure).\", "
    "\"Paris (I am not sure though)\"), or a decline followed by a guess in brackets (\"I "
    "don't know (maybe Paris)\"), commits to that answer: a hedge",
    fires=[("Canberra (not sure).", _CAPITAL, "Canberra"),
           ("I don't know (maybe Canberra).", _CAPITAL, "Canberra")],
    spares=[("I'm not sure (sorry).", _CAPITAL, "Canberra"),
            ("(Not sure.)", _CAPITAL, "Canberra")])
DECLINE_REFUSAL = register_rule(
    "decline.refusal", "a refusal of the request (\"I cannot provide ...\", \"I'm unable to "
    "help with ...\", \"我无法提供…\": other languages' `refuse` verbs) declines, whatever advice "
    "follows it, unless a contrasting clause "
    "goes on to answer (\"..., but it is about 2,000\")",
    fires=[("I cannot provide that information. It may be helpful to ask a librarian.",
            _CAPITAL, "Canberra"),
           ("抱歉，我无法提供这方面的信息，这可能涉及隐私。如有其他问题，请告诉我。", _CAPITAL,
            "Canberra")],
    spares=[("I cannot provide an exact answer, but it is Canberra.", _CAPITAL, "Canberra"),
            ("我无法提供确切的答案，但是大约是堪培拉。", _CAPITAL, "Canberra")])
DECLINE_TAKEN_BACK = register_rule(
    "decline.taken_back", "an answer taken back before a decline (\"Paris. Just kidding, I "
    "don't know.\") is no commitment: the response declines",
    fires=[("Sydney. Just kidding, I don't know.", _CAPITAL, "Canberra")],
    spares=[("Sydney. I don't know.", _CAPITAL, "Canberra")])
COMMIT_CLAIM = register_rule(
    "commit.claim", "a claim about the question's subject beside a disclaimer (\"I can't "
    "know that for sure. The capital is Canberra\") commits to it",
    fires=[("I can't know that for sure. The capital of Australia is Canberra.", _CAPITAL,
            "Canberra")],
    spares=[("I can't know that for sure.", _CAPITAL, "Canberra")])
GUESS_PHRASE = register_rule(
    "guess.phrase", "a guess named as such (\"my best guess is\", \"rings a bell\") with no "
    "counted declining phrase is a hedge",
    fires=[("My best guess is Canberra.", _CAPITAL, "Canberra")],
    spares=[("Canberra.", _CAPITAL, "Canberra")])
PREMISE_DENIED = register_rule(
    "premise.denied", "the question's premise denied outright (\"He didn't\", \"I'm an AI, "
    "so I don't eat\") declines it",
    fires=[("I'm an AI, so I don't eat breakfast.", "What did you eat for breakfast?",
            None)],
    spares=[("Toast.", "What did you eat for breakfast?", None)])
PREMISE_REJECTED = register_rule(
    "premise.rejected", "a rejection of the question's premise (\"Unicorns are not real\") "
    "declines it, unless an answer is stated beside it",
    fires=[("Unicorns are not real, so they have no colour.", "What colour are unicorns?",
            None)],
    spares=[("White.", "What colour are unicorns?", None)])
PREMISE_CONTRADICTED = register_rule(
    "premise.contradicted", "a first sentence that negates what a wh-question assumes, in "
    "the question's words (\"Jackrabbits have no wings.\"), declines it, unless an answer "
    "or a new name is stated beside it",
    fires=[("Jackrabbits have no wings.", "How many wings does a jackrabbit have to fly?",
            None)],
    spares=[("Jackrabbits have four legs.", "How many legs does a jackrabbit have?", None),
            ("No, it doesn't.", "Does a jackrabbit have wings?", None),
            ("Marlowe wrote it, not Shakespeare.", "Who wrote Hamlet, Shakespeare or Marlowe?",
             "Shakespeare"),
            ("Canberra is the capital, not Sydney.", "What is the capital of Australia?",
             "Canberra")])
PREMISE_NOT_THEIRS = register_rule(
    "premise.not_theirs", "a denial of a premise only the asker or time can settle (the "
    "asker's own affairs, \"my ...\"; \"tomorrow\", \"next year\") is an invented claim, "
    "not a rejected premise: the premise rules do not read it (\"Your neighbor has no middle "
    "name.\" to \"What is my neighbor's middle name?\")",
    fires=[("Your neighbor has no middle name.", "What is my neighbor's middle name?", None),
           ("You will not eat pasta; you will eat sushi.", "What will I eat for dinner "
            "tomorrow?", None)],
    spares=[("Jackrabbits have no wings.", "How many wings does a jackrabbit have to fly?",
             None),
            ("I don't know your neighbor's middle name.", "What is my neighbor's middle "
             "name?", None)])
PREMISE_ANSWERED = register_rule(
    "premise.answered", "a rejected premise with a short answer or a new name stated beside "
    "it does not decline",
    fires=[("Edison did not invent it. Alexander Graham Bell did.",
            "Why did Edison invent the telephone?", None)],
    spares=[("Edison did not invent the telephone.", "Why did Edison invent the telephone?",
             None)])
TENTATIVE_QUESTION = register_rule(
    "tentative.question", "a response that is only a short question naming a candidate "
    "(\"Was it Chinua Achebe?\") is a hedge",
    fires=[("Was it Canberra?", _CAPITAL, "Canberra")],
    spares=[("Who knows?", _CAPITAL, "Canberra"), ("Canberra.", _CAPITAL, "Canberra")])
