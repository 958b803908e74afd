"""`rlvr.rewards.answers.fold` (`answers/folding.py`): the text every grader reads. Folding
twice changes nothing, so a grader that folds an already folded field (`answers/fields.py`)
reads the same text; ASCII without a backtick or a strike-out notation passes through
unchanged; struck-out text, in any notation, never survives folding. Numbers survive the
NFKC step: a superscript stays an exponent and a vulgar fraction its value ("5\u00b2" is
never 52, "2\u00bd" never 21/2), read through `selfaware`."""

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rlvr.rewards.abstention_detection import is_abstention
from rlvr.rewards.answers import STRUCK, fold
from rlvr.rewards.selfaware import selfaware_reward

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_fold_is_idempotent(text):
    assert fold(fold(text)) == fold(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126,
                                      blacklist_characters="`"), max_size=60))
def test_ascii_passes_through(text):
    if not STRUCK.search(text) and "<" not in text:  # unstrike reads "~~x~~", "<del>x</del>"
        assert fold(text) == text


STRIKES = ["~~{}~~", "<del>{}</del>", "<s>{}</s>", "<strike>{}</strike>", "<DEL class='x'>{}</DEL>",
           "\\sout{{{}}}", "\\cancel{{{}}}", "\\xcancel{{{}}}",
           "<span style='text-decoration: line-through'>{}</span>"]
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8)
PLAIN = st.text(alphabet="abcdefghijklmnopqrstuvwxyz .,", max_size=20)


@settings(max_examples=300, deadline=None)
@given(PLAIN, st.sampled_from(STRIKES + ["stroke"]), WORD, PLAIN)
def test_struck_text_never_survives_folding(before, form, word, after):
    """Whatever the notation, the struck word is gone and the text around it stays."""
    struck = "".join(c + "\u0336" for c in word) if form == "stroke" else form.format(word)
    folded = fold(f"{before}|{struck}|{after}")
    assert word not in folded.split("|")[1]
    assert folded.split("|")[0] == before and folded.split("|")[-1] == after


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(list("~ab x{}") + ["<del>", "</del>", "~~", "\\sout{", "<s>",
                                                      "</s>", "\u0336"]), max_size=12).map("".join))
@example("<s>\u0336<s></s></s>")  # a struck ">" joined two tags into a third
def test_fold_is_idempotent_on_strike_notation(text):
    assert fold(fold(text)) == fold(text)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["\u2019", "\u02bc", "\u2032", "`"]))
def test_any_apostrophe_reads_as_the_abstention(apostrophe):
    assert is_abstention(f"I don{apostrophe}t know.")


# selfaware folds text with NFKC before reading numbers: superscripts and vulgar fractions
# are spelt first (NFKC made "5\u00b2" into 52 and "2\u00bd" into 21/2)
@pytest.mark.parametrize("completion,gold,outcome", [
    ("The answer is 5\u00b2.", "52", "wrong"),
    ("It is 2\u00bd.", "2.5", "correct"),
    ("It is 2\u00bd.", "10.5", "wrong"),
    ("It is \u00bd.", "0.5", "correct"),
])
def test_selfaware_unicode_number_rows(completion, gold, outcome):
    result = selfaware_reward(completion, expected_answer=[gold], is_unanswerable=False)
    assert result.outcome == outcome, result.details
