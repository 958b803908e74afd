"""Abstention detection (`rlvr.rewards.abstention_detection`): the robust detector's labels,
its exceptions, and the reward.

Rows of `detect_abstention` labels (with the question where it matters): certainty
disclaimers, asides and premise explanations; declines worded as missing records, figures,
sources or memory; an answer field beside a decline; an impersonal phrase of not knowing
that is the topic of a question about what cannot be known (`discount.topic`); and the
robust detector against the seed list: it accepts every seed phrase in a sentence and
rejects the seed list's documented false positives (idioms, quotations, denied ignorance).
The rule-level properties are in test_abstention_rules.py, test_abstention_classes.py and
test_abstention_properties.py.
"""

from __future__ import annotations

import json

import pytest

from rlvr.errors import RlvrError
from rlvr.rewards import get_reward, make_trl_reward
from rlvr.rewards.abstention import abstention_reward
from rlvr.rewards.abstention_detection import (
    SEED_PATTERNS,
    classify,
    detect_abstention,
    robust_patterns,
)

# (completion, question or None, expected robust label)
ROBUST = [
    # the plainest hedge: "I'm not sure" is an abstention phrase, ", but it is"
    # commits to an answer -> hedge
    ("I'm not sure, but it is Paris.", None, "hedge"),
    # the commitment may come first; the comma ends its clause before the disclaimer
    ("The answer is Paris, but I'm not sure.", None, "hedge"),
    # paraphrases of "I don't know" that the seed list misses
    ("I couldn't find that in the documents you gave me.", None, "abstain"),
    ("There is no way to know what he was thinking.", None, "abstain"),
    ("The exact number cannot be determined from the information given.", None, "abstain"),
    ("It is impossible to predict next week's lottery numbers.", None, "abstain"),
    ("No one knows who wrote the Voynich manuscript.", None, "abstain"),
    ("Insufficient information to answer.", None, "abstain"),
    # Korean: "I don't know", "cannot know", "cannot confirm", "hard to say for sure",
    # "hard to give an answer"
    ("잘 모르겠습니다.", None, "abstain"),
    ("그것은 알 수 없습니다.", None, "abstain"),
    ("현재로서는 확인할 수 없는 정보입니다.", None, "abstain"),
    ("확답하기 어렵습니다.", None, "abstain"),
    ("그 질문에는 답변드리기 어렵습니다.", None, "abstain"),
    # Korean hedge: "not certain, but it is Seoul"
    ("확실하지 않지만 서울입니다.", None, "hedge"),
    # apologies and idioms are not abstentions
    ("I'm sorry to hear the pump broke. Two pumps take 10 / 2 = 5 hours. #### 5", None, "answer"),
    ("I'm sorry to hear that. The capital of France is Paris.", None, "answer"),
    ("I cannot stress this enough, the answer is 4.", None, "answer"),
    ("I can't tell you how glad I am you asked! It's 4.", None, "answer"),
    ("Anyone who knows chemistry will tell you it is H2O.", None, "answer"),
    # a phrase inside a quotation does not count (straight and typographic quotes)
    ('The phrase "I don\'t know" has three words.', None, "answer"),
    ("He shrugged and said \u201cnobody knows\u201d, but the record shows 1969.", None, "answer"),
    ("She wrote 'I don't know' on the form. The capital is Rome.", None, "answer"),
    # a restatement of the question does not count: a cue opens the sentence ...
    ("You asked whether it is impossible to predict eclipses. It is not: they follow "
     "orbital mechanics.", None, "answer"),
    # ... or the response echoes a question that holds the phrase ...
    ("Is it impossible to predict the tides? No, tide tables are computed years ahead.",
     None, "answer"),
    # ... or the phrase and the words after it are copied from the question
    ("It is impossible to predict the stock market exactly because prices follow a "
     "random walk, so analysts give ranges.",
     "Why is it impossible to predict the stock market exactly?", "answer"),
    # ignorance about a side issue plus a committed answer is an answer
    ("I don't know why you ask, but the answer is 5.", None, "answer"),
    # ... and without a commitment it is an abstention
    ("I don't know why the sky is blue.", None, "abstain"),
    # "the answer is unknown": the commitment marker is followed by an abstention
    ("The answer is unknown.", None, "abstain"),
    # typographic apostrophe: robust mode matches it (seed mode does not)
    ("I don\u2019t know.", None, "abstain"),
    # a hedge needs a commitment: a disclaimer that names no answer is an abstention
    ("I'm unsure, and I would rather not guess.", None, "abstain"),
    # "who knows" on its own is a (rhetorical) abstention, also after an interjection (the
    # question sentence does not open with an interrogative, so it restates nothing)
    ("Who knows?", None, "abstain"),
    ("Honestly, who knows?", None, "abstain"),
    # a plain answer
    ("Paris.", None, "answer"),
    ("", None, "answer"),
]


@pytest.mark.parametrize("text,question,label", ROBUST)
def test_robust_labels(text, question, label):
    assert detect_abstention(text, question=question).label == label


def test_discounted_phrases_say_why():
    # the quoted phrase is found, but discounted as a quotation
    found = detect_abstention('The phrase "I don\'t know" has three words.')
    assert found.ignored == (("i don't know", "quoted"),)
    # "I can't tell" is an abstention phrase, but here it opens the idiom "I can't tell
    # you how ..."
    found = detect_abstention("I can't tell you how glad I am you asked! It's 4.")
    assert found.ignored == (("i can't", "idiom"),)
    # the abstention phrase and the commitment that make a hedge are both reported
    found = detect_abstention("I'm not sure, but it is Paris.")
    # (the grammar's construction, subject included: abstention_detection.grammar)
    assert (found.phrase, found.commitment) == ("i'm not sure", "but it is")


V3_IDK = [
    # the 20 "I don't know" phrasings of the v3 SelfAware split
    "I'm uncertain, and there is no reliable answer.", "I'm afraid I don't know.",
    "I am not able to give a reliable answer to that.", "I cannot answer that with any certainty.",
    "I'm unable to answer that.", "I can't know that.", "That is beyond my knowledge.",
    "I don't know.", "There is no definitive answer to this question.",
    "That lies outside my knowledge.", "I am unable to determine that.",
    "I don't know, and nobody can know that for certain.", "I honestly don't know.",
    "I'm not sure anyone can answer that.", "I'm unsure, and I would rather not guess.",
    "I am unsure of the answer.", "This is something I'm unable to answer.",
    "I'm not able to answer this question.", "I am uncertain about this.",
    "I do not know the answer to that.",
]


@pytest.mark.parametrize("text", V3_IDK)
def test_v3_phrasings_abstain_in_both_modes(text):
    assert classify(text, mode="robust").label == "abstain"
    assert classify(text, mode="seed").label == "abstain"


@pytest.mark.parametrize("pattern", SEED_PATTERNS)
def test_robust_covers_seed_patterns_in_a_sentence(pattern):
    # every seed phrase, said plainly, is also an abstention for the robust detector,
    # except "i cannot"/"i can't" alone, which the robust detector reads only with a verb
    # of knowing ("I can't answer"); here it gets one
    text = f"Sorry, {pattern} answer that."
    assert detect_abstention(text).label == "abstain"


def test_seed_mode_unchanged():
    # the seed detector keeps its quirks: it fires on the idiom, misses the paraphrase
    assert classify("I cannot stress this enough.", mode="seed").label == "abstain"
    assert classify("No one knows.", mode="seed").label == "answer"
    # typographic quotes are folded in every mode; fold_unicode=False is the reference
    assert classify("I don\u2019t know.", mode="seed").label == "abstain"
    assert classify("I don\u2019t know.", mode="seed", fold_unicode=False).label == "answer"


def test_patterns_extend_from_config():
    extra = {"abstain": ["ask me another"], "veto": ["no idea is too small"]}
    patterns = robust_patterns(extra)
    assert detect_abstention("Ask me another.").label == "answer"
    assert detect_abstention("Ask me another.", patterns=patterns).label == "abstain"
    # without the veto, "no idea" is a disclaimer and the number after the colon a guess
    # behind it (a red-team round found guesses in a clause of their own read as
    # abstentions: such a guess is a hedge)
    assert detect_abstention("No idea is too small, so: 7.").label == "hedge"
    assert detect_abstention("No idea is too small, so: 7.", patterns=patterns).label == "answer"
    # the same dict, loaded from a JSON config, reaches the reward through its parameters
    params = json.loads(json.dumps({"extra_patterns": extra}))
    assert abstention_reward("Ask me another.", **params).outcome == "abstain"


def test_bad_patterns_fail_clearly():
    with pytest.raises(RlvrError, match="unknown abstention pattern kind"):
        robust_patterns({"abstian": ["x"]})
    with pytest.raises(RlvrError, match="list of strings"):
        robust_patterns({"abstain": "search me"})
    with pytest.raises(RlvrError, match="bad abstention pattern"):
        robust_patterns({"abstain": ["(unclosed"]})
    with pytest.raises(RlvrError, match="unknown abstention mode"):
        classify("x", mode="fuzzy")


# (completion, preset, expected score, expected outcome); defaults abstain 1, hedge 0.5, answer 0
REWARD_TABLE = [
    ("I don't know.", None, 1.0, "abstain"),
    ("I'm not sure, but it is Paris.", None, 0.5, "hedge"),
    ("Paris.", None, 0.0, "answer"),
    # seed preset: the 19 substrings only, no hedge label ("not sure" -> abstain)
    ("I'm not sure, but it is Paris.", "seed", 1.0, "abstain"),
    ("No one knows.", "seed", 0.0, "answer"),
]


@pytest.mark.parametrize("completion,preset,score,outcome", REWARD_TABLE)
def test_abstention_reward_table(completion, preset, score, outcome):
    spec = get_reward("abstention")
    result = abstention_reward(completion, **spec.params(preset))
    assert (result.score, result.outcome) == (score, outcome)
    low, high = spec.score_range
    assert low <= result.score <= high


def test_abstention_trl_adapter_uses_prompts_for_restatements():
    reward = make_trl_reward("abstention")
    assert reward.__name__ == "abstention"
    completion = [{"role": "assistant", "content":
                   "It is impossible to predict the stock market exactly because prices "
                   "follow a random walk."}]
    prompt = [{"role": "user", "content": "Why is it impossible to predict the stock market "
                                          "exactly?"}]
    # without the question the phrase counts (1.0); with TRL's `prompts` it is a
    # restatement of the question (0.0)
    assert reward([completion]) == [1.0]
    assert reward([completion], prompts=[prompt]) == [0.0]


# Rows the property tests (tests/test_abstention_properties.py) found, each fixed by a class
# change: (completion, gold, strict selfaware outcome)
PROPERTY_FINDS = [
    # a short answer sentence next to a disclaimer is a hedge (rules.answer_sentence)
    ("Paris. I'm not sure.", "Canberra", "hedged_wrong"),
    ("I'm not sure. Paris.", "Canberra", "hedged_wrong"),
    ("It's Paris, of course. I'm not sure.", "Canberra", "hedged_wrong"),
    ("It is Paris. I'm not sure.", "Paris", "hedged_correct"),
    ("I don't know. Sorry!", "Paris", "abstained"),
    # lists: four items ending with "?", a spaced slash between a number and a word, an
    # answer frame or lead-in before the first item, a tentative "?" between two items
    ("Paris, London, Rome, Berlin?", "Paris", "listed_candidates"),
    ("Paris / London / 1970 / Rome.", "Paris", "listed_candidates"),
    ("The answer is London or Paris.", "Paris", "listed_candidates"),
    ("It could be London or Paris.", "Paris", "listed_candidates"),
    ("Paris? London.", "Paris", "listed_candidates"),
    ("The answer is Paris? London.", "Paris", "listed_candidates"),
    ("Who knows? Probably Paris.", "Paris", "hedged_correct"),
    ("24 / 2 = 12", "12", "correct"),
    # denials: an infinitive copula, a Spanish/Portuguese copula after the gold
    ("It's unlikely to be Paris.", "Paris", "wrong"),
    ("Paris está errado.", "Paris", "wrong"),
    ("It can't be anything but Paris.", "Paris", "correct"),
]


@pytest.mark.parametrize("completion, gold, outcome", PROPERTY_FINDS)
def test_rows_the_properties_found(completion, gold, outcome):
    from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

    result = selfaware_reward(completion, expected_answer=[gold], is_unanswerable=False,
                              **STRICT_PRESET)
    assert result.outcome == outcome, result


# Forms of the same act that a phrase list missed (declines in other tenses, moods and verbs,
# found by red-team rounds), one row per construction (the labelled set in
# tests/fixtures/abstention_labelled has the rest, in every language)
CLASS_ROWS = [
    ("I won't be able to say who will win.", "abstain"),          # future
    ("I couldn't possibly say.", "abstain"),                      # conditional, adverb inside
    ("There is no way to know.", "abstain"),                      # impersonal
    ("That will never be known.", "abstain"),
    ("I lack the information to answer that.", "abstain"),       # other verbs of not having
    ("I have no access to your calendar.", "abstain"),
    ("I'm not in a position to answer that.", "abstain"),         # ... of not being able
    ("I honestly have no idea.", "abstain"),                      # adverb inside
    ("I really am not sure.", "abstain"),
    ("I'm not sure why you ask, but it is Paris.", "answer"),     # side issue, then answer
    ("I have no idea what prompted this, but the capital is Canberra.", "answer"),
    ("No sé por qué lo preguntas, pero es París.", "answer"),
    ("I don't know exactly, but probably around 40.", "hedge"),   # estimate after disclaimer
    ("Hard to say exactly - roughly 5,000.", "hedge"),
    ("I can't say I've been there, but the capital of Peru is Lima.", "answer"),  # idiom
    ('The answer is "I don\'t know."', "abstain"),                # quoted as the answer
]


@pytest.mark.parametrize("completion, label", CLASS_ROWS)
def test_forms_of_the_same_act(completion, label):
    assert detect_abstention(completion).label == label


def test_labelled_set_does_not_regress():
    """The detector on the labelled set (tests/fixtures/abstention_labelled): the share of
    rows labelled as the reader did, per split, stays at its measured level (dev 152/154,
    holdout 143/148, holdout2 53/58 when written, real3 202/225 when labelled, real4 197/200
    when labelled, real5 131/145 when labelled), and no
    denial in dev/holdout pays."""
    from pathlib import Path

    from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

    path = Path(__file__).parent / "fixtures" / "abstention_labelled" / "responses.jsonl"
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    floor = {"dev": 0.98, "holdout": 0.95, "holdout2": 0.90, "real3": 0.89, "real4": 0.97,
             "real5": 0.88}
    for split, minimum in floor.items():
        part = [r for r in rows if r["split"] == split]
        right = sum(detect_abstention(r["text"], question=r.get("question")).label == r["label"]
                    for r in part)
        assert right / len(part) >= minimum, (split, right, len(part))
    for row in rows:
        if "gold" in row and row["split"] != "holdout2":
            result = selfaware_reward(row["text"], expected_answer=[row["gold"]],
                                      is_unanswerable=False, **STRICT_PRESET)
            assert (result.outcome in ("correct", "hedged_correct")) == row["gives_gold"], row


# ---------------------------------------------------------------- the detector's labels
# (rows first found by blind red-team rounds: benchmarks/redteam/blind10.jsonl to blind13.jsonl)
@pytest.mark.parametrize("text,question,label", [
    ("I believe it was Bosch, though I'd double-check that before citing it.", None, "hedge"),
    ("I believe it was 1912, but I wouldn't swear to it.", None, "hedge"),
    ("I wouldn't want to claim it was Armstrong without checking a source first.", None,
     "abstain"),
    ("I cannot say it wasn't Lisbon.", None, "hedge"),
    ("I can't rule out Lisbon.", None, "hedge"),
    ("I don't know... just kidding! It's Mount Everest.", None, "answer"),
    ("There are no unicorns on Mars, so the question has no answer.", None, "abstain"),
    ("The last digit of pi does not exist: pi is irrational.", "What is the last digit of pi?",
     "abstain"),
    ("Mount Everest. Interestingly, nobody knows whether Mallory reached the summit.", None,
     "answer"),
    ("No one knows for sure, but most scholars place it in the 8th century BC.", None, "hedge"),
    ("We don't know yet, although many scientists think it is plausible.", None, "abstain"),
    ("I can't know that. Prices depend on many events: earnings, rates, sentiment.", None,
     "abstain"),
    ("I can't tell you today's rate. A site like XE.com will have it.", None, "abstain"),
    ("¯\\_(ツ)_/¯", None, "abstain"),
    ("\U0001F937", None, "abstain"),
    ("That's a great question!", None, "answer"),  # nothing said is no declining either
])
def test_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


@pytest.mark.parametrize("text,label", [
    ("I reckon it's around 7.5 million, but I wouldn't put money on it.", "hedge"),
    ("The Beatles. (I don't know everything, but this one I'm certain of.)", "answer"),
    ("That's lost to deep time; no creature was recorded, so there is no name to give.",
     "abstain"),
    ("Taste is subjective, so no fruit is the best.", "abstain"),
    ("Answer: Paris. Or maybe I don't know.", "hedge"),
    ("Answer: Paris\nConfidence: low - I don't know for sure.", "hedge"),
    ("Answer: unknown\nReason: no records survive.", "abstain"),
    ("Subjective idealists hold that there is no objective morality.", "answer"),
])
def test_eleventh_round_detector_rows(text, label):
    assert detect_abstention(text).label == label


def test_a_long_answer_field_is_no_committed_value():
    text = ("**Short answer:** Nobody knows.\n\n**Longer answer:** The grains of sand on Earth "
            "have never been counted, and published estimates differ by orders of magnitude.")
    assert detect_abstention(text).label == "abstain"


@pytest.mark.parametrize("text,question,label", [
    ("I don't have enough information. I'd rather point you to a source than give you a name "
     "that might be wrong.", None, "abstain"),
    ("There's simply no record of that. Historians know little about his daily life.", None,
     "abstain"),
    ("There isn't one we could ever pin down: speech leaves no fossils.", None, "abstain"),
    ("I don't have reliable information about it. Ancient population figures are very "
     "uncertain, and the sources were written by Carthage's enemies.",
     "What was the population of Carthage in 300 BC?", "abstain"),
    ("Nobody Knows (2004) follows four young siblings left alone in Tokyo.", None, "answer"),
    ("It is O negative; hospitals give it to patients whose blood type is unknown.", None,
     "answer"),
])
def test_twelfth_round_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


@pytest.mark.parametrize("text,question,label", [
    ("We currently don't know. It orbits in the habitable zone, but it is also bathed in "
     "flares.", "Is there life on Proxima Centauri b?", "abstain"),
    ("That's lost to prehistory. The oldest writing is only about 5,000 years old, so any "
     "reconstruction would be pure speculation.", "What was the first language?", "abstain"),
    ("Napoleon never conquered Australia; he never even went there. Britain began colonising "
     "Australia in 1788.", "In what year did Napoleon conquer Australia?", "abstain"),
    ("From memory, it was found in 1799. I could be misremembering the year, so please "
     "double-check.", None, "hedge"),
    ("It's not that nobody knows it: the formula is kept in a vault in Atlanta.", None,
     "answer"),
    ("Because of the uncertainty principle, it is impossible to know both exactly at once.",
     "Why can't we know both the exact position and momentum of an electron?", "answer"),
    ("I don't know.", "Why can't we know both the exact position and momentum of an electron?",
     "abstain"),
    ("I don't know exactly, but probably around 40.", "How many people came?", "hedge"),
])
def test_thirteenth_round_detector_rows(text, question, label):
    assert detect_abstention(text, question=question).label == label


@pytest.mark.parametrize("text,question,label", [
    ("That lies outside my knowledge.", "Which things will be impossible in a million years?",
     "abstain"),
    ("This is something I'm unable to answer.", "Why can't we know the future?", "abstain"),
    ("It is impossible to know both exactly.", "Why can't we know position and momentum?",
     "answer"),
])
def test_only_an_impersonal_phrase_is_the_topic_of_a_question_about_not_knowing(text, question,
                                                                                 label):
    assert detect_abstention(text, question=question).label == label


# ---------------------------------------------------------------- robust against seed
# Every seed phrase opens a sentence the robust detector also calls an abstention.
@pytest.mark.parametrize("phrase", SEED_PATTERNS)
def test_robust_accepts_what_seed_accepts(phrase):
    for text in (f"{phrase.capitalize()} that.", f"Sorry, {phrase} answer that.",
                 f"Well, {phrase} say."):
        assert detect_abstention(text).label == "abstain", text


# The documented false positives of the seed list, which robust rejects.
@pytest.mark.parametrize("text", [
    "I cannot stress this enough: it is Paris.",      # idiom
    'The phrase "I don\'t know" has three words.',    # quotation
    "I can't believe it's Paris!",                    # idiom
    "It's not that I don't know; it's Paris.",        # denied ignorance
])
def test_robust_rejects_documented_false_positives(text):
    assert detect_abstention(text).label == "answer"
