"""Properties of the abstention and self-awareness graders, over generated inputs (a grader is
judged by inputs nobody has shown it: a property closes a class, a row one instance).

Each property generates a whole class of responses, not one row:

* a hedge or disclaimer added to an answer never raises its reward (answerable questions;
  on an unanswerable one the strict table pays flagged uncertainty -0.5 against -1.0 for a
  flat answer, by design, still below an abstention);
* a list of candidates that contains the gold never scores +1 (free text and boxed);
* the gold inside a denial never scores +1 (negators, denial predicates before and after
  the gold, in several languages; free text and boxed);
* in the boxed format, text outside the last box never changes abstention vs answer;
* the free-text detector's grammar: a decline in any tense or mood, with adverbs inside,
  is an abstention; an estimate after a disclaimer is a hedge, never an abstention.
* round 3 (tests/test_rewards_selfaware_strict.py has the instances): an answer taken back, or
  the gold only asked, supposed or attributed and contradicted, never scores +1; look-alike
  letters never hide a denial; the gold without accents or hyphens, or a number in words,
  scores as written; a guess in a clause after a disclaimer is never an abstention; a
  sentence about the missing answer keeps an abstention; a polite remark or a capability
  disclaimer never lowers a correct answer; a nested box among candidates never scores +1;
  LaTeX forms of the abstention value abstain; `selfaware` and `abstention` read the same
  field; distinct answer fields in free text are candidates; a denied other number is no
  rival.

Word lists here are written independently of the detector's patterns. Every failure a
property found became a fixed row in tests/test_rewards_abstention.py and a class fix.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rlvr.rewards.abstention_detection import detect_abstention
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

FAST = settings(max_examples=120, deadline=None)

GOLDS = ["Paris", "Canberra", "Mount Everest", "Jupiter", "Shakespeare", "1969", "42", "Lisbon"]
OTHERS = ["London", "Rome", "Berlin", "Madrid", "Mars", "Sydney", "1970", "41", "Tokyo", "K2"]


def strict(text: str, gold: str, unanswerable: bool = False, **params):
    return selfaware_reward(text, expected_answer=[gold], is_unanswerable=unanswerable,
                            **{**STRICT_PRESET, **params})


# punctuated answers: a run-on "Paris I'm not sure" (no stop between answer and disclaimer)
# is read as an answer slot filled by the disclaimer, like "the answer is unknown"
answers = st.sampled_from(["{g}.", "It is {g}.", "The answer is {g}.", "{g}!", "It's {g}, of course.",
                           "I believe the answer is {g}."])
disclaimers = st.sampled_from([
    "I'm not sure.", "I don't know for sure.", "But I might be wrong.", "Though I could be mistaken.",
    "I'm not certain, though.", "Don't quote me on that.", "Maybe.", "Or maybe not.", "Who knows?",
    "I honestly have no idea.", "I can't be certain.", "Probably.", "That's my best guess.",
    "No se seguro.", "Je ne suis pas sûr.", "Ich bin mir nicht sicher.", "不太确定。"])
# the `seed` table (the reference project's, kept bit for bit) pays "Rome. I'm not sure."
# -0.5 against -1.0 for "Rome.": it is the loophole the strict preset closes, not tested here
presets = st.sampled_from([STRICT_PRESET, {"mode": "robust"}, {**STRICT_PRESET, "abstain_answerable": -1.0}])


@FAST
@given(st.sampled_from(GOLDS + OTHERS), st.sampled_from(GOLDS), answers, disclaimers,
       st.booleans(), presets)
def test_a_disclaimer_never_raises_the_reward_of_an_answer(said, gold, frame, disclaimer,
                                                           before, preset):
    answer = frame.format(g=said)
    hedged = f"{disclaimer} {answer}" if before else f"{answer} {disclaimer}"
    plain = selfaware_reward(answer, expected_answer=[gold], is_unanswerable=False, **preset)
    more = selfaware_reward(hedged, expected_answer=[gold], is_unanswerable=False, **preset)
    assert more.score <= plain.score, (answer, hedged, plain, more)


# the design's lists (answer_match.lists_candidates): two items joined by an alternative
# marker, or three or more by any separator; "Paris, France" (two items, a comma) is read
# as an apposition in free text (the boxed field is stricter: see structured.field_lists)
alternatives = st.sampled_from([" or ", " / ", ", or ", "? ", " vs "])
separators = st.sampled_from([", ", "; ", " or ", ", or ", " / "])
list_frames = st.sampled_from(["{l}.", "It's {l}.", "Maybe {l}.", "Either {l}.", "{l}?",
                               "The answer is {l}.", "Possibly {l}.", "It could be {l}."])


@FAST
@given(st.sampled_from(GOLDS), st.lists(st.sampled_from(OTHERS), min_size=1, max_size=3, unique=True),
       st.integers(0, 3), alternatives, separators, list_frames, st.booleans())
def test_a_list_of_candidates_with_the_gold_never_scores_one(gold, others, at, alt, sep, frame,
                                                             boxed):
    items = list(others)
    items.insert(at % (len(items) + 1), gold)
    listed = alt.join(items) if len(items) == 2 else sep.join(items)
    text = f"\\boxed{{{listed}}}" if boxed else frame.format(l=listed)
    params = {"answer_format": "boxed"} if boxed else {}
    result = strict(text, gold, **params)
    assert result.score < 1.0, (text, result)


DENIALS = [
    "Not {g}.", "It is not {g}.", "It certainly isn't {g}.", "Definitely not {g}.",
    "It's surely not {g}.", "I doubt it's {g}.", "I don't think it is {g}.", "Anything but {g}.",
    "It's unlikely to be {g}.", "{g} is wrong.", "{g} is incorrect.", "{g} would be wrong.",
    "{g} is not the answer.", "{g} is not correct.", "The answer isn't {g}.", "Certainly not {g}.",
    "Rather than {g}, it is something else.", "Other than {g}.", "It was never {g}.",
    "No es {g}.", "Definitivamente no es {g}.", "Ce n'est pas {g}.", "Es ist nicht {g}.",
    "Non è {g}.", "Não é {g}.", "{g} es incorrecto.", "{g} est faux.", "{g} ist falsch.",
    "{g} è sbagliato.", "{g} está errado.", "Auf keinen Fall {g}.", "Это не {g}.", "{g} değil.",
]


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(DENIALS), st.booleans(),
       st.sampled_from(["", "Hmm. ", "Well, "]))
def test_the_gold_inside_a_denial_never_scores_one(gold, denial, boxed, lead):
    text = lead + denial.format(g=gold)
    if boxed:
        text = f"\\boxed{{{denial.format(g=gold).rstrip('.')}}}"
    result = strict(text, gold, **({"answer_format": "boxed"} if boxed else {}))
    assert result.outcome not in ("correct", "hedged_correct"), (text, result)


idk_variants = st.sampled_from(["I don't know", "I don\u2019t know", "i dont know", "I DON'T KNOW.",
                                "\\text{I don't know}", " I don't know! "])
box_answers = st.sampled_from(["Paris", "Rome", "42", "I do not know", "unknown", "Paris or Rome"])
# text around the box; a reasoning tag is left out: an unclosed "<think>" makes all that
# follows reasoning, so there is no final answer at all (`answers.reasoning`)
outside = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60).filter(
    lambda t: "<think" not in t.lower() and "</think" not in t.lower())


@settings(max_examples=200, deadline=None)
@given(outside, outside, st.one_of(idk_variants, box_answers), st.booleans())
def test_text_outside_the_last_box_never_changes_abstention_vs_answer(before, after, value,
                                                                        unanswerable):
    assume("\\boxed" not in before + after)
    # a reasoning tag is the reasoning rule's: an unclosed "<think>" leaves no answer at all
    assume("think>" not in (before + after).lower())
    box = f"\\boxed{{{value}}}"
    alone = strict(box, "Paris", unanswerable, answer_format="boxed")
    framed = strict(before + box + after, "Paris", unanswerable, answer_format="boxed")
    abstained = ("abstained", "abstained_unanswerable")
    assert (alone.outcome in abstained) == (framed.outcome in abstained), (before, after, value)


@FAST
@given(outside, st.sampled_from(["Paris", "I don't know", "Rome"]))
def test_a_box_before_the_last_never_changes_abstention_vs_answer(earlier, last):
    assume("\\boxed" not in earlier)
    first = f"\\boxed{{{earlier}}} then " if earlier.count("{") == earlier.count("}") else ""
    text = f"{first}\\boxed{{{last}}}"
    alone = strict(f"\\boxed{{{last}}}", "Paris", answer_format="boxed")
    assert (alone.outcome == "abstained") == (strict(text, "Paris", answer_format="boxed").outcome
                                              == "abstained")


# --- the free-text detector's grammar ------------------------------------------------------

subjects = st.sampled_from(["I", "We"])
declines = st.sampled_from([
    "won't be able to {v}", "will never {v}", "wouldn't be able to {v}", "couldn't {v}",
    "can't {v}", "cannot {v}", "may never {v}", "am not able to {v}", "am unable to {v}",
    "would not be able to {v}", "will not be able to {v}", "could never {v}"])
verbs = st.sampled_from(["know", "say", "tell you", "determine that", "predict it", "confirm it",
                         "answer that", "say for sure"])
adverbs = st.sampled_from(["", "really ", "honestly ", "truly ", "genuinely ", "simply ",
                           "frankly ", "actually "])
tails = st.sampled_from([".", "!", ", sorry.", " at this point.", ""])


@FAST
@given(subjects, adverbs, declines, verbs, tails)
def test_a_decline_in_any_tense_or_mood_is_an_abstention(subject, adverb, decline, verb, tail):
    phrase = decline.format(v=verb)
    if subject == "We":
        phrase = phrase.replace("am ", "are ")
    text = f"{subject} {adverb}{phrase}{tail}"
    assert detect_abstention(text).label == "abstain", text


ignorance = st.sampled_from(["I {a}don't know", "I {a}do not know", "I {a}have no idea",
                             "I'm {a}not sure", "I {a}have no clue", "I'm {a}unsure"])


@FAST
@given(ignorance, adverbs, tails)
def test_an_adverb_inside_a_fixed_phrase_keeps_it_an_abstention(phrase, adverb, tail):
    text = phrase.format(a=adverb) + tail
    assert detect_abstention(text).label == "abstain", text


approximators = st.sampled_from(["around {n}", "roughly {n}", "approximately {n}", "about {n} or so",
                                 "somewhere around {n}", "circa {n}", "~{n}", "nearly {n}"])
disclaimer_heads = st.sampled_from(["I don't know exactly, but", "I'm not sure -", "No idea;",
                                    "I can't say for certain, but", "Hard to say:",
                                    "I don't know for sure, though it's probably"])


@FAST
@given(disclaimer_heads, approximators, st.integers(2, 99999), st.sampled_from(["", " people", " years"]))
def test_an_estimate_after_a_disclaimer_is_a_hedge_not_an_abstention(head, approx, number, unit):
    text = f"{head} {approx.format(n=number)}{unit}."
    assert detect_abstention(text).label == "hedge", text


# --- a red-team round: classes found by attacking the rebuilt graders ----------------------
# (the instances are rows of tests/test_rewards_selfaware_strict.py)

def _correct(text, gold, **params):
    return strict(text, gold, **params).outcome in ("correct", "hedged_correct")


retractions = st.sampled_from(["Wait, no - {o}.", "Wait, actually {o}.", "Scratch that, {o}.",
                               "Just kidding, it's {o}.", "On second thought, {o}.", "No. {o}.",
                               "Correction: {o}.", "Never mind, {o}.", "Or rather {o}."])


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), answers, retractions)
def test_an_answer_taken_back_never_scores_one(gold, other, frame, retraction):
    text = f"{frame.format(g=gold)} {retraction.format(o=other)}"
    assert not _correct(text, gold), text
    # saying the gold again after the retraction gives it
    assert _correct(f"{frame.format(g=other)} {retraction.format(o=gold)}", gold)


not_given = st.sampled_from([
    "Is it {g}? No, it's {o}.", "Could it be {g}? I'd say {o}.", "Was it {g}? Not really; {o}.",
    "If it were {g}, the dates would differ; it is {o}.", "Assuming the answer is {g}, nothing fits. It's {o}.",
    "Suppose it's {g}: that fails. So {o}.", "Many people think it's {g}, but it's actually {o}.",
    "A common misconception is that it is {g}; in fact it is {o}.",
    "It's tempting to say {g}, but the answer is {o}.", "Most people answer {g}, however it is {o}."])


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), not_given)
def test_the_gold_asked_supposed_or_attributed_and_contradicted_never_scores_one(gold, other, form):
    text = form.format(g=gold, o=other)
    assert not _correct(text, gold), text


LOOK_ALIKES = {"o": "\u043e", "a": "\u0430", "e": "\u0435", "p": "\u0440", "c": "\u0441",
               "i": "\u0456", "x": "\u0445", "y": "\u0443"}


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(DENIALS[:20]), st.data())
def test_look_alike_letters_never_hide_a_denial(gold, denial, data):
    text = denial.format(g="\x00")
    positions = [i for i, ch in enumerate(text) if ch in LOOK_ALIKES]
    assume(positions)
    chosen = data.draw(st.sets(st.sampled_from(positions), min_size=1))
    text = "".join(LOOK_ALIKES[ch] if i in chosen else ch for i, ch in enumerate(text))
    text = text.replace("\x00", gold)
    assert not _correct(text, gold), text


ACCENTED = ["S\u00e3o Paulo", "Z\u00fcrich", "Beyonc\u00e9", "Bogot\u00e1", "Jean-Paul Sartre",
            "Fran\u00e7ois Mitterrand", "Gda\u0144sk", "Malm\u00f6", "Coca-Cola", "Jos\u00e9 Mart\u00ed"]


@FAST
@given(st.sampled_from(ACCENTED), st.sampled_from(["{g}.", "It is {g}.", "The answer is {g}."]),
       st.booleans(), st.booleans())
def test_the_gold_without_accents_or_hyphens_scores_one(gold, frame, plain_response, boxed):
    from rlvr.rewards.answers import loosen

    said, expected = (loosen(gold), gold) if plain_response else (gold, loosen(gold))
    text = f"\\boxed{{{said}}}" if boxed else frame.format(g=said)
    result = strict(text, expected, **({"answer_format": "boxed"} if boxed else {}))
    assert result.outcome == "correct", (text, expected, result)


WORDS = {2: "two", 3: "three", 7: "seven", 8: "eight", 12: "twelve", 21: "twenty-one",
         40: "forty", 64: "sixty-four", 99: "ninety-nine", 300: "three hundred"}


@FAST
@given(st.sampled_from(sorted(WORDS)), st.booleans(), st.sampled_from(["It has {n} legs.", "{n}.",
                                                                        "The answer is {n}."]))
def test_a_number_in_words_or_digits_scores_the_same(number, words_in_response, frame):
    said, gold = (WORDS[number], str(number)) if words_in_response else (str(number), WORDS[number])
    assert strict(frame.format(n=said), gold).outcome == "correct", (said, gold)


clause_guesses = st.sampled_from(["{n}", "about {n}", "{n} probably", "the year {n}", "{n}?",
                                  "the Medici family", "Rome", "Napoleon"])
clause_seps = st.sampled_from([" - ", ": ", "; ", " \u2014 ", ". "])
plain_disclaimers = st.sampled_from(["I'm not sure", "I don't know", "Hard to say", "No idea",
                                     "I can't say for sure", "Nobody knows for certain",
                                     "It's unknown", "I don't know, but if I had to bet"])


@FAST
@given(plain_disclaimers, clause_seps, clause_guesses, st.integers(1000, 2020))
def test_a_guess_in_a_clause_after_a_disclaimer_is_never_an_abstention(disclaimer, sep, guess, n):
    text = f"{disclaimer}{sep}{guess.format(n=n)}"
    if not text.endswith("?"):
        text += "."
    assert detect_abstention(text).label == "hedge", text
    assert strict(text, "x", unanswerable=True).score < 1.0, text


explanations = st.sampled_from(["It was never recorded.", "Records don't exist.",
                                "The tomb was never found.", "No records survive.",
                                "The archives were lost.", "Nothing was written down.",
                                "That data is not public.", "The sources are disputed."])


@FAST
@given(plain_disclaimers.filter(lambda d: "bet" not in d), explanations)
def test_a_sentence_about_the_missing_answer_keeps_an_abstention(disclaimer, explanation):
    text = f"{disclaimer}. {explanation}"
    assert detect_abstention(text).label == "abstain", text


remarks = st.sampled_from([
    "I couldn't be happier to help!", "I can't be more certain.", "I can't get over how easy this is.",
    "I can't wait to hear what you think.", "Not sure if that helps!",
    "I'm not sure this is what you were looking for.", "Hope this helps!",
    "Let me know if you need more.", "I couldn't have put it better myself."])
closing_golds = st.sampled_from(["Paris", "Canberra", "Jupiter", "1969"])


@FAST
@given(closing_golds, answers, remarks, st.booleans())
def test_a_polite_remark_never_lowers_a_correct_answer(gold, frame, remark, before):
    answer = frame.format(g=gold)
    text = f"{remark} {answer}" if before and not remark.startswith(("Hope", "Let")) \
        else f"{answer} {remark}"
    assert strict(answer, gold).outcome == "correct"
    assert strict(text, gold).outcome == "correct", text


capabilities = st.sampled_from([
    "As an AI, I cannot browse the internet, but", "I don't have access to real-time data, but",
    "I can't access the web right now, but", "I'm unable to browse, but"])


@FAST
@given(closing_golds, capabilities, st.sampled_from(["the answer is {g}.", "it is {g}."]))
def test_a_capability_disclaimer_before_a_committed_answer_is_an_answer(gold, disclaimer, frame):
    text = f"{disclaimer} {frame.format(g=gold)}"
    assert strict(text, gold).outcome == "correct", text
    assert detect_abstention(disclaimer.rsplit(",", 1)[0] + ".").label == "abstain"


@FAST
@given(st.sampled_from(GOLDS), st.lists(st.sampled_from(OTHERS), min_size=1, max_size=2, unique=True),
       st.booleans())
def test_a_box_nested_among_other_candidates_never_scores_one(gold, others, inner_first):
    inner = f"\\boxed{{{gold}}}"
    content = f"{inner} {', '.join(others)}" if inner_first else f"{', '.join(others)} {inner}"
    assert strict(f"\\boxed{{{content}}}", gold, answer_format="boxed").score < 1.0, content


idk_latex = st.sampled_from(["\\text{I don't know}.", "I\\ don't\\ know", "\\textsf{I don't know}",
                             "\\text{I}~\\text{don't know}", "\\mathrm{I\\ don't\\ know}",
                             "\\boxed{I don't know}", "\\textbf{\\text{I don't know}}",
                             "\\text{I don't}\\,\\text{know}"])


@FAST
@given(idk_latex, st.sampled_from(["", "$", "Final: "]))
def test_latex_forms_of_the_abstention_value_abstain(value, frame):
    text = f"{frame}\\boxed{{{value}}}{'$' if frame == '$' else ''}"
    assert strict(text, "x", unanswerable=True, answer_format="boxed").outcome == \
        "abstained_unanswerable", text


WIDE = {ch: chr(ord(ch) + 0xFEE0) for ch in "\\{}:AnswerIdontkbx"}


@FAST
@given(st.sampled_from(["\\boxed{I don't know}", "Answer: I don't know", "\\boxed{Paris}",
                        "Answer: Paris"]), st.data())
def test_selfaware_and_abstention_read_the_same_field(text, data):
    from rlvr.rewards.abstention import abstention_reward

    fmt = "boxed" if "boxed" in text else "answer_line"
    chosen = data.draw(st.sets(st.sampled_from(range(len(text)))))
    wide = "".join(WIDE.get(ch, ch) if i in chosen else ch for i, ch in enumerate(text))
    mine = strict(wide, "x", unanswerable=True, answer_format=fmt).outcome
    theirs = abstention_reward(wide, answer_format=fmt).outcome
    assert (mine == "abstained_unanswerable") == (theirs == "abstain"), (wide, mine, theirs)
    assert (mine == "no_answer_unanswerable") == (theirs == "no_answer"), (wide, mine, theirs)


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.sampled_from(["Answer: {v}", "\\boxed{{{v}}}"]),
       st.booleans())
def test_distinct_answer_fields_in_free_text_are_candidates(gold, other, field, gold_last):
    first, last = (other, gold) if gold_last else (gold, other)
    text = f"{field.format(v=first)}\nHmm.\n{field.format(v=last)}"
    assert not _correct(text, gold), text


@FAST
@given(st.integers(2, 500), st.integers(-3, 3), st.sampled_from([
    "There are {n} of them, not {m}.", "It is {n}, not {m}.", "{n}. Not {m}.", "It's {n}; {m} is wrong."]))
def test_a_denied_other_number_never_lowers_a_correct_answer(n, delta, frame):
    m = n + delta
    assume(m != n and m > 0)
    text = frame.format(n=n, m=m)
    assert strict(text, str(n)).outcome == "correct", text


# The denial grammar's classes of 2026-12-05: any "-ly" adverb between a negator and the
# gold is filler; a modal copula before a denial predicate after the gold; "out of the
# question" and "a common wrong answer" deny. The same adverbs in an affirmation keep it one.
ADVERBS = st.sampled_from(["possibly", "really", "honestly", "seriously", "likely", "truly",
                           "conceivably", "reasonably"])
MODALS = st.sampled_from(["can", "could", "may", "might", "must", "should", "would"])


@FAST
@given(st.sampled_from(GOLDS), ADVERBS, MODALS, st.sampled_from([
    "It couldn't {a} be {g}.", "It can't {a} be {g}, given the clue.", "It is not {a} {g}.",
    "{g} {m} be ruled out.", "{g} {m} {a} be ruled out; it is something else.",
    "{g} is out of the question.", "{g} is a common wrong answer here."]))
def test_the_gold_behind_an_adverb_or_a_modal_denial_never_scores_one(gold, adverb, modal,
                                                                      form):
    text = form.format(g=gold, a=adverb, m=modal)
    assert strict(text, gold).outcome not in ("correct", "hedged_correct"), text


@FAST
@given(st.sampled_from(GOLDS), st.sampled_from(["really", "honestly", "clearly", "surely"]),
       st.sampled_from(["It is {a} {g}.", "It {a} is {g}.", "The answer is {a} {g}."]))
def test_an_adverb_in_an_affirmation_keeps_the_gold(gold, adverb, form):
    text = form.format(g=gold, a=adverb)
    assert strict(text, gold).outcome == "correct", text


# Chinese refusals of the request (decline.refusal with the language data's `refuse`
# verbs): a refusal declines whatever advice follows; a condition or a contrast that goes
# on to answer does not.
_ZH_SORRY = st.sampled_from(["", "抱歉，", "很抱歉，", "对不起，", "非常抱歉，但"])
_ZH_CANNOT = st.sampled_from(["无法", "不能", "不会", "无法为您", "不能帮你"])
_ZH_VERB = st.sampled_from(["提供", "帮助", "协助", "透露", "分享", "讨论"])
_ZH_THING = st.sampled_from(["这方面的信息", "任何建议", "他人的隐私", "具体的方法"])
_ZH_ADVICE = st.sampled_from(["", "如果您有其他问题，请随时告诉我。", "这可能会造成伤害，建议咨询专业人士。",
                              "您可以直接询问本人。"])


@FAST
@given(sorry=_ZH_SORRY, cannot=_ZH_CANNOT, verb=_ZH_VERB, thing=_ZH_THING, advice=_ZH_ADVICE)
def test_a_chinese_refusal_declines_whatever_advice_follows(sorry, cannot, verb, thing, advice):
    refusal = f"{sorry}我{cannot}{verb}{thing}。"
    assert detect_abstention(refusal + advice).label == "abstain"
    # a condition is no refusal, and a contrast that goes on to answer is none either
    assert detect_abstention(f"如果我{cannot}{verb}{thing}，事情就会变糟。").label == "answer"
    assert detect_abstention(f"我{cannot}{verb}{thing}，但是大约是两千人。").label != "abstain"
