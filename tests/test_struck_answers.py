"""A struck-out answer is taken back, in every notation and every reader.

The class: HTML deletion and strike tags (`<del>`, `<s>`, `<strike>`) were read as markup,
so `#### <del>42</del>` paid 42, while the Markdown and LaTeX forms were refused; the free-text
readers (`selfaware`, `qa`) paid a struck-out gold in every notation, and `math` paid a
number overlaid with combining strokes. Now the readers remove struck-out text
(`rlvr.rewards.answers.unstrike`; `math` drops stroked characters and refuses a struck
part of its answer segment), and `read_whole` never reads a number out of struck text.

Properties generate (notation x value x reader); the table holds instances.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rlvr.rewards  # noqa: F401  (registers the built-in rewards)
from rlvr.rewards.answers import read_whole, unstrike
from rlvr.rewards.registry import score_rows

FAST = settings(max_examples=150, deadline=None)

STRIKES = ["~~{}~~", "<del>{}</del>", "<s>{}</s>", "<strike>{}</strike>", "<DEL>{}</DEL>",
           '<del datetime="2025-01-01">{}</del>', "<s >{}</s >", "\\sout{{{}}}",
           "\\st{{{}}}", "\\cancel{{{}}}", "\\xcancel{{{}}}",
           '<span style="text-decoration: line-through">{}</span>', "<del>{}"]
NUMBERS = ["42", "7", "1969", "3.5", "1/2"]
WORDS = ["Paris", "Canberra", "Jupiter", "Mount Everest"]
OTHERS = ["Rome", "Sydney", "Mars", "K2"]


def _stroke(text: str) -> str:
    return "".join(ch + "\u0336" for ch in text)


def _struck(form: str, value: str) -> str:
    return _stroke(value) if form == "stroke" else form.format(value)


FORMS = STRIKES + ["stroke"]


def _top(name, completion, fields, preset=None):
    return score_rows(name, [{"completion": completion, **fields}], preset)[0]


@FAST
@given(st.sampled_from(FORMS), st.sampled_from(NUMBERS))
def test_a_struck_number_is_never_the_answer(form, gold):
    text = _struck(form, gold)
    assert read_whole(" " + text) is None
    assert _top("gsm8k_correctness", f"#### {text}", {"final_answer": gold}).score == 0.0
    assert _top("math", f"The answer is ${text}$.", {"solution": gold}).score == 0.0
    assert _top("qa", text, {"aliases": [gold]}).score == 0.0
    assert _top("selfaware", f"It is {text}.", {"expected_answer": [gold],
                                                "is_unanswerable": False}, "strict").score < 1.0


@FAST
@given(st.sampled_from(FORMS), st.sampled_from(WORDS), st.sampled_from(["qa", "selfaware"]))
def test_a_struck_gold_in_free_text_never_pays(form, gold, reward):
    text = _struck(form, gold)
    if reward == "qa":
        assert _top("qa", text, {"aliases": [gold]}).score == 0.0
        assert _top("qa", f"It is {text}.", {"aliases": [gold]}, "contains").score == 0.0
    else:
        result = _top("selfaware", f"It is {text}.", {"expected_answer": [gold],
                                                      "is_unanswerable": False}, "strict")
        assert result.score < 1.0


@FAST
@given(st.sampled_from([f for f in FORMS if f != "<del>{}"]), st.sampled_from(WORDS),
       st.sampled_from(OTHERS))
def test_a_struck_guess_before_the_gold_reads_the_gold(form, gold, other):
    """Striking a wrong guess and writing the gold is a correction: what is left is read."""
    text = f"It is {_struck(form, other)} {gold}."
    assert _top("selfaware", text, {"expected_answer": [gold], "is_unanswerable": False},
                "strict").outcome == "correct"
    assert _top("qa", text, {"aliases": [gold]}, "contains").score == 1.0


@pytest.mark.parametrize("completion,gold,expected", [
    ("#### ~~41~~ 42", "42", 1.0),               # corrected: 42 is what is left
    ("#### <del>41</del> 42", "42", 1.0),
    ("#### <s>42</s>", "42", 0.0),               # nothing left
    ("#### 42", "42", 1.0),
    ("#### <b>42</b>", "42", 1.0),               # other markup is still punctuation
    ("#### <ins>42</ins>", "42", 1.0),
    ("x = ~~y is not strike-through~~ \n#### 42", "42", 1.0),
])
def test_gsm8k_strike_rows(completion, gold, expected):
    assert _top("gsm8k_correctness", completion, {"final_answer": gold}).score == expected


@pytest.mark.parametrize("text,expected", [
    ("It is ~~Paris~~ Rome.", "It is   Rome."),
    ("a ~~~ b", "a ~~~ b"),                        # not a GFM strike
    ("x = ~~y", "x = ~~y"),                        # unclosed Markdown: left as written
    ("<del>open to the end", " "),                 # unclosed HTML: struck to the end
    ("\\sout{4{2}} 5", " 5"),                      # braces balanced
    ("\\cancelto{0}{x} y", " y"),                  # both arguments
    ("4\u03362\u0336 7", " 7"),
    ("plain text", "plain text"),
])
def test_unstrike_rows(text, expected):
    assert unstrike(text) == expected


def test_abstention_struck_out_is_not_an_abstention():
    """'I ~~don't~~ know' struck its own negation: it is not read as an abstention."""
    result = _top("selfaware", "I ~~don't know~~ think it is Paris.",
                  {"expected_answer": ["Paris"], "is_unanswerable": False}, "strict")
    assert result.outcome == "correct"
    result = _top("selfaware", "~~I don't know.~~ Paris.",
                  {"expected_answer": None, "is_unanswerable": True}, "strict")
    assert result.outcome == "answered_unanswerable"
