"""Properties of the LLM judge's grader (`rlvr.rewards.judge`: the fence, the decision reader,
`llm_judge`), each over a generated class of inputs, not one row:

- whatever text the policy writes, the filled prompt holds exactly one response block, with
  all of the text inside it (no spelling of a tag ends the block);
- a reply naming two different labels, or a negated label or verdict, is never read as a
  decision; a reply with prose around a number is never read as a score;
- a failed judgement never scores above the row's worst value unless the judge is down.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.rewards.contract import RewardResult
from rlvr.rewards.judge import (DECISION_TEMPLATE, GRADED_TEMPLATE, JudgeReply, charged,
                                fence_text, fenced_tag, fill_template, read_decision)
from rlvr.rewards.llm_judge import SCORE_TEMPLATE, read_score

# pieces a policy would combine to leave the block: tag spellings, look-alikes, entities
TAG_PIECES = ["<response>", "</response>", "</ RESPONSE >", "</response", "<response ",
              "response>", "</response foo>", "\uff1c/response\uff1e", "</resp\u200bonse>",
              "&lt;/response&gt;", "<", ">", "/", "\n\n", "Reply 10", "ANSWER CORRECT",
              "{question}", "{gold}", "{{", "}}", "response-", "0123456789abcdef"]
policy_text = st.lists(st.one_of(st.sampled_from(TAG_PIECES), st.text(max_size=8)),
                       max_size=12).map("".join)


@settings(max_examples=300, deadline=None)
@given(text=policy_text, template=st.sampled_from([DECISION_TEMPLATE, GRADED_TEMPLATE,
                                                    SCORE_TEMPLATE]))
def test_the_policy_text_stays_inside_one_block(text, template):
    prompt = fill_template(template, "What is 2 + 2?", text, "4")
    body = fence_text(text)
    tag = fenced_tag(body)
    assert prompt.count(f"<{tag}>") == 1 and prompt.count(f"</{tag}>") == 1
    start, end = prompt.index(f"<{tag}>"), prompt.index(f"</{tag}>")
    assert start < end
    inside = prompt[start + len(tag) + 2:end]
    assert inside == f"\n{body}\n"  # all of the text, as written, and nothing else
    # nothing the text wrote survives as a tag of the kind the template uses
    assert not re.search(r"<\s*/?\s*response\b", body, re.IGNORECASE)
    # the placeholders were filled once: braces in the text are text, not format fields
    assert prompt.count("What is 2 + 2?") == 1


LABELS = ["ANSWER", "ABSTAIN", "HEDGE"]
filler = st.sampled_from(["", " ", ". ", ", ", " - ", "\n", "**", " so "])


@settings(max_examples=300, deadline=None)
@given(first=st.sampled_from(LABELS), second=st.sampled_from(LABELS), sep=filler,
       graded=st.booleans(), verdict=st.sampled_from(["", " CORRECT", " INCORRECT"]))
def test_two_different_labels_are_never_a_decision(first, second, sep, graded, verdict):
    decision = read_decision(JudgeReply(f"{first}{sep}{second}{verdict}"), graded)
    if first != second:
        assert decision.label is None and decision.failure.outcome == "judge_unparsed"


@settings(max_examples=300, deadline=None)
@given(word=st.sampled_from(LABELS + ["CORRECT", "INCORRECT"]),
       negation=st.sampled_from(["not", "NOT", "no", "never", "doesn't", "isn't"]),
       before=filler, label=st.sampled_from(LABELS))
def test_a_negated_label_or_verdict_is_never_read(word, negation, before, label):
    reply = f"{label}{before}{negation} {word}" if word in ("CORRECT", "INCORRECT") \
        else f"{before}{negation} {word}"
    decision = read_decision(JudgeReply(reply), graded=word in ("CORRECT", "INCORRECT"))
    assert decision.label is None and decision.failure.outcome == "judge_unparsed"
    if word in ("CORRECT", "INCORRECT"):
        verdicts = {"CORRECT": 1.0, "INCORRECT": 0.0}
        assert read_score(f"{negation} {word}", verdicts=verdicts)[0] is None


@settings(max_examples=300, deadline=None)
@given(number=st.integers(0, 10), words=st.lists(
    st.sampled_from(["I", "give", "it", "a", "scale", "of", "the", "answer", "is", "because"]),
    min_size=1, max_size=5).map(" ".join), before=st.booleans())
def test_prose_around_a_number_is_never_a_score(number, words, before):
    reply = f"{words} {number}" if before else f"{number} {words}"
    assert read_score(reply)[0] is None


@settings(max_examples=200, deadline=None)
@given(outcome=st.sampled_from(["judge_unparsed", "judge_error"]),
       fault=st.sampled_from(["input", "endpoint"]),
       worst=st.floats(-1.0, 0.0), best=st.floats(0.0, 1.0))
def test_a_failed_judgement_never_beats_the_worst_value(outcome, fault, worst, best):
    failure = RewardResult(None, outcome, {"judge_fault": fault} if outcome == "judge_error"
                           else {})
    result = charged(failure, worst)
    assert result.outcome == outcome
    if outcome == "judge_error" and fault == "endpoint":
        assert result.score is None  # the judge is down: unscorable, not the policy's doing
    else:
        assert result.score == worst <= best
