"""Every reward reads the final answer after a reasoning block (rlvr.rewards.answers.reasoning).

The class this closes: a completion with a reasoning block (`<think>...</think>`, the R1
format) was read whole, so doubt voiced while reasoning made a committed final answer a
hedge, and a guess made while reasoning before a final abstention made it a hedged or
answered response. One rule in one place (`RewardSpec.score_batch`) cuts the final answer
out for every reward; `think_format` and the length rewards still see the whole completion.

The table holds instances; the properties generate the class: any reasoning text before any
final answer scores exactly what the final answer alone scores, for every reward that reads
answers, and an unclosed block scores what an empty response scores.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rlvr.rewards  # noqa: F401  (registers the built-in rewards)
from rlvr.errors import RlvrError
from rlvr.rewards.answers import DEFAULT_REASONING_TAGS, final_answer, reasoning_tags
from rlvr.rewards.registry import REWARDS, get_reward, make_trl_reward, score_rows

FAST = settings(max_examples=150, deadline=None)

# (completion, final answer the rewards read); None = no answer (an unclosed block)
FINAL_ANSWER_ROWS = [
    ("Paris.", "Paris."),                                            # no block: the whole text
    ("<think>Rome? no.</think> Paris.", " Paris."),                  # after the block
    ("<think>a</think>x<think>b</think> Paris.", " Paris."),         # after the LAST block
    ("Rome? no.</think> Paris.", " Paris."),                         # opened by the prompt
    ("<THINK>maybe Rome</Think>Paris", "Paris"),                     # tags in any case
    ("<think>Paris, I suppose", None),                               # never closed
    ("<think>a</think> Paris <think>hmm", None),                     # a new block left open
    ("<think></think>", ""),                                         # empty answer
    ("I don't know. <think>", None),                                 # opened after an answer
]


@pytest.mark.parametrize("completion,expected", FINAL_ANSWER_ROWS)
def test_final_answer_table(completion, expected):
    assert final_answer(completion) == expected


def test_custom_and_no_tags():
    text = "<reasoning>maybe Rome</reasoning> Paris <think>x</think>"
    assert final_answer(text, ("<reasoning>", "</reasoning>")) == " Paris <think>x</think>"
    assert final_answer(text, None) == text


@pytest.mark.parametrize("bad", [["<think>"], ["<a>", "<a>"], ["", "</t>"], "<think>", [1, 2],
                                 ["<T>", "<t>"]])
def test_bad_tags_refused(bad):
    with pytest.raises(ValueError, match="reasoning_tags"):
        reasoning_tags(bad)
    with pytest.raises(RlvrError, match="reasoning_tags"):
        get_reward("selfaware").params("strict", reasoning_tags=bad)


# --- the rule as every reward applies it ------------------------------------------------------

DOUBTS = ["Maybe it is {o}? I'm not sure.", "Hmm, {o} or {g}... I don't know yet.",
          "Possibly {o}. Perhaps {g}. Let me think.", "I have no idea at first. {o}?",
          "Not sure, but my guess would be {g}.", "It could be {o}, I cannot be certain."]
FINALS = ["{g}.", "The answer is {g}.", "I don't know.", "{o}.", "I'm not sure, maybe {g}.",
          "It is {g}, not {o}."]
GOLDS = ["Paris", "Canberra", "Jupiter", "1969", "Lisbon"]
OTHERS = ["Rome", "Sydney", "Mars", "1970", "Madrid"]


def _rows(completion, gold, unanswerable):
    return [{"completion": completion, "expected_answer": None if unanswerable else [gold],
             "is_unanswerable": unanswerable}]


@FAST
@given(st.lists(st.sampled_from(DOUBTS), min_size=1, max_size=3), st.sampled_from(FINALS),
       st.sampled_from(GOLDS), st.sampled_from(OTHERS), st.booleans(),
       st.sampled_from(["strict", "seed", "ternary"]),
       st.sampled_from(["\n", " ", "", "\n\n"]))
def test_reasoning_never_changes_the_verdict_on_the_final_answer(doubts, final, gold, other,
                                                                 unanswerable, preset, gap):
    """Doubt, guesses and abstentions inside the block never move the selfaware verdict:
    the whole completion scores what its final answer alone scores."""
    reasoning = " ".join(d.format(g=gold, o=other) for d in doubts)
    answer = final.format(g=gold, o=other)
    whole = score_rows("selfaware", _rows(f"<think>{reasoning}</think>{gap}{answer}", gold,
                                          unanswerable), preset)[0]
    alone = score_rows("selfaware", _rows(f"{gap}{answer}", gold, unanswerable), preset)[0]
    assert (whole.score, whole.outcome) == (alone.score, alone.outcome)


@FAST
@given(st.lists(st.sampled_from(DOUBTS), min_size=1, max_size=3), st.sampled_from(GOLDS),
       st.sampled_from(OTHERS), st.booleans())
def test_unclosed_block_is_no_answer(doubts, gold, other, unanswerable):
    """A block opened and never closed is no answer, however right the text inside it: it
    scores what an empty response scores (never the gold's +1)."""
    reasoning = " ".join(d.format(g=gold, o=other) for d in doubts) + f" So: {gold}."
    cut = score_rows("selfaware", _rows(f"<think>{reasoning}", gold, unanswerable), "strict")[0]
    empty = score_rows("selfaware", _rows("", gold, unanswerable), "strict")[0]
    assert (cut.score, cut.outcome) == (empty.score, empty.outcome)
    assert cut.score < 1.0


# one row per reward that reads answers: (reward, preset, row fields, a completion with a
# reasoning block, the final answer the reward must read in it). Each row is chosen so that
# reading the block would change the verdict (checked with the rule switched off).
ANSWER_READERS = [
    ("selfaware", "strict", {"expected_answer": ["Paris"], "is_unanswerable": False},
     "<think>I don't know, maybe Rome?</think>\nParis.", "\nParis."),
    ("abstention", None, {"is_unanswerable": True},
     "<think>It is Paris, I think.</think>\nI don't know.", "\nI don't know."),
    ("qa", None, {"aliases": ["Paris"]}, "<think>Rome or Berlin? Not Paris?</think>\nParis",
     "\nParis"),
    # a `####` line written only while reasoning is no answer line
    ("gsm8k_correctness", None, {"final_answer": "42"},
     "<think>6 * 7 = 42\n#### 42</think>\nI am not sure.", "\nI am not sure."),
    # a block never closed holds no answer, however well formatted
    ("gsm8k_format", None, {}, "<think>6 * 7 = 42\n#### 42", ""),
    ("math", None, {"solution": "42"}, "<think>\\boxed{41} hmm</think>\n\\boxed{42}",
     "\n\\boxed{42}"),
]


@pytest.mark.parametrize("name,preset,fields,completion,final", ANSWER_READERS)
def test_every_answer_reader_reads_the_final_answer(name, preset, fields, completion, final):
    whole = score_rows(name, [{"completion": completion, **fields}], preset)[0]
    alone = score_rows(name, [{"completion": final, **fields}], preset)[0]
    assert (whole.score, whole.outcome) == (alone.score, alone.outcome)
    # with the rule switched off the block is read and the verdict moves: the row tests it
    read_all = score_rows(name, [{"completion": completion, **fields}], preset,
                          reasoning_tags=None)[0]
    assert (read_all.score, read_all.outcome) != (alone.score, alone.outcome)


def test_the_readers_table_covers_every_builtin_answer_reader():
    """A new built-in reward is either in the table above or declared whole_completion (or
    needs what a unit test cannot give: a sandbox, a judge or a model)."""
    needs_more = {"code", "llm_judge"}
    covered = {row[0] for row in ANSWER_READERS}
    whole = {n for n, s in REWARDS.items() if s.whole_completion}
    assert whole == {"think_format", "soft_overlong", "repetition_penalty", "cosine_scaled"}
    builtin = {n for n, s in REWARDS.items() if not s.source}
    assert builtin - whole - covered - needs_more == set()


def test_think_format_still_judges_the_block():
    """think_format reads the whole completion: the rule must not hide its subject."""
    row = {"completion": "<think>work</think><answer>Paris</answer>"}
    assert score_rows("think_format", [row])[0].score == 1.0
    assert score_rows("think_format", [{"completion": "<answer>Paris</answer>"}])[0].score == 0.0


def test_trl_adapter_and_custom_tags():
    """The TRL reward function applies the same rule, with the reward's own tags."""
    func = make_trl_reward("selfaware", "strict")
    done = ["<think>maybe Rome</think> Paris.", "<think>Paris?"]
    assert func(done, expected_answer=[["Paris"]] * 2, is_unanswerable=[False] * 2) == [1.0, -1.0]
    tagged = make_trl_reward("selfaware", "strict",
                             reasoning_tags=["<reasoning>", "</reasoning>"])
    assert tagged(["<reasoning>I don't know</reasoning> Paris."],
                  expected_answer=[["Paris"]], is_unanswerable=[False]) == [1.0]


@pytest.mark.usefixtures("keep_rewards")  # the user reward leaves the registry afterwards
def test_user_reward_gets_the_final_answer(tmp_path):
    """A user's per-sample function reads the final answer too, and never sees the
    `reasoning_tags` parameter."""
    from rlvr.rewards.registry import register_user_rewards

    path = tmp_path / "mine.py"
    path.write_text("def exact(completion, **fields):\n"
                    "    assert 'reasoning_tags' not in fields\n"
                    "    return 1.0 if completion.strip() == 'Paris.' else 0.0\n")
    [entry] = register_user_rewards([f"{path}:exact"])
    name = entry if isinstance(entry, str) else entry["name"]
    assert score_rows(name, [{"completion": "<think>Rome?</think> Paris."}])[0].score == 1.0
    assert DEFAULT_REASONING_TAGS == ("<think>", "</think>")


def _public(name):
    """The module-level function a user imports for a built-in reward."""
    import importlib

    from rlvr.rewards.registry import BUILTIN_REWARD_MODULES
    core = REWARDS[name].core
    for module in BUILTIN_REWARD_MODULES:
        function = getattr(importlib.import_module(module), core.__name__, None)
        if function is not None and function is not core and function.__dict__ is core.__dict__:
            return function
    raise AssertionError(f"no public function for {name}")


@pytest.mark.parametrize("name,preset,fields,completion,final", ANSWER_READERS)
def test_a_direct_call_reads_the_final_answer_too(name, preset, fields, completion, final):
    """Calling a reward's function directly judges what training judges: the final answer
    (and `reasoning_tags=None` reads the whole text, as the reward parameter does)."""
    function = _public(name)
    params = get_reward(name).params(preset) if preset else {}
    fields = get_reward(name).row_fields(fields)
    whole = function(completion, **fields, **params)
    alone = function(final, **fields, **params)
    assert (whole.score, whole.outcome) == (alone.score, alone.outcome)
    read_all = function(completion, **fields, **params, reasoning_tags=None)
    assert (read_all.score, read_all.outcome) != (alone.score, alone.outcome)


def test_the_detector_reads_the_final_answer():
    from rlvr.rewards.abstention_detection import detect_abstention

    text = "<think>Hmm, I'm not sure at first. 17 is odd.</think>\nYes, 17 is a prime number."
    assert detect_abstention(text).label == "answer"
    assert detect_abstention(text, reasoning_tags=None).label != "answer"
    assert detect_abstention("<think>It is Paris.</think> I don't know.").label == "abstain"
