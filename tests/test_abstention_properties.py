"""Properties of the abstention and self-awareness graders, over generated inputs (issue 18).

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

Word lists here are written independently of the detector's patterns. Every failure a
property found became a fixed row in tests/test_rewards_abstention.py and a class fix.
"""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rlvr.rewards.abstention import detect_abstention
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
outside = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60)


@settings(max_examples=200, deadline=None)
@given(outside, outside, st.one_of(idk_variants, box_answers), st.booleans())
def test_text_outside_the_last_box_never_changes_abstention_vs_answer(before, after, value,
                                                                        unanswerable):
    assume("\\boxed" not in before + after)
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
