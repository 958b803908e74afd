"""`rlvr.rewards.answers.fold` (`answers/folding.py`): the text every grader reads. Folding
twice changes nothing, so a grader that folds an already folded field (`answers/fields.py`)
reads the same text; ASCII without a backtick passes through unchanged."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.rewards.abstention_detection import is_abstention
from rlvr.rewards.answers import fold

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_fold_is_idempotent(text):
    assert fold(fold(text)) == fold(text)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126,
                                      blacklist_characters="`"), max_size=60))
def test_ascii_passes_through(text):
    assert fold(text) == text


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["\u2019", "\u02bc", "\u2032", "`"]))
def test_any_apostrophe_reads_as_the_abstention(apostrophe):
    assert is_abstention(f"I don{apostrophe}t know.")
