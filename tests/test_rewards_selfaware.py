"""The self-awareness calibration reward: the full table, seed patterns, TRL adapter."""

from __future__ import annotations

import json

import pytest

from rlvr.cli import main
from rlvr.errors import RlvrError
from rlvr.rewards import get_reward, make_trl_reward, score_rows
from rlvr.rewards.abstention_detection import SEED_PATTERNS, is_abstention
from rlvr.rewards.selfaware import selfaware_reward

# (completion, expected_answer, is_unanswerable, expected reward, expected outcome)
TABLE = [
    # answerable, contains the answer (lower-cased substring): +1.0
    ("The capital of France is Paris.", "Paris", False, 1.0, "correct"),
    ("PARIS", "paris", False, 1.0, "correct"),
    # correctness is checked before abstention: +1.0, not -0.5
    ("I'm not sure, but I think it is Paris.", "Paris", False, 1.0, "correct"),
    # answerable, abstains: -0.5
    ("I don't know.", "Paris", False, -0.5, "abstained"),
    ("Honestly, that is beyond my knowledge.", "Paris", False, -0.5, "abstained"),
    # answerable, anything else: -1.0
    ("The capital of France is Lyon.", "Paris", False, -1.0, "wrong"),
    ("", "Paris", False, -1.0, "wrong"),
    # unanswerable, abstains: +1.0
    ("I don't know who will win.", None, True, 1.0, "abstained_unanswerable"),
    ("  I AM UNSURE.  ", "I don't know.", True, 1.0, "abstained_unanswerable"),
    # unanswerable, anything else: -1.0 (even when it contains the "expected" IDK text's words)
    ("Brazil will win the 2031 World Cup.", None, True, -1.0, "answered_unanswerable"),
    ("", None, True, -1.0, "answered_unanswerable"),
    # the seed rule is a plain substring test: these quirks are the reference behaviour
    ("I cannot stress this enough: it is Lyon.", "Paris", False, -0.5, "abstained"),
    ("No one knows.", None, True, -1.0, "answered_unanswerable"),
    # a typographic apostrophe is folded to "'" before matching (it once scored -1 on the
    # preset the main job trains with), so this is an
    # abstention (+1); the `reference` preset keeps the old -1 (see test_reference_preset)
    ("I don\u2019t know.", None, True, 1.0, "abstained_unanswerable"),
    ("Sorry, I don\u2019t know.", None, True, 1.0, "abstained_unanswerable"),
    ("\uff29 \uff44\uff4f\uff4e't know.", None, True, 1.0, "abstained_unanswerable"),  # full-width
    # any alias of a list matches
    ("It is the Big Apple.", ["New York", "big apple"], False, 1.0, "correct"),
]


@pytest.mark.parametrize("completion,gold,unanswerable,reward,outcome", TABLE)
def test_table(completion, gold, unanswerable, reward, outcome):
    result = selfaware_reward(completion, expected_answer=gold, is_unanswerable=unanswerable)
    assert result.score == reward
    assert result.outcome == outcome
    low, high = get_reward("selfaware").score_range
    assert low <= result.score <= high


@pytest.mark.parametrize("pattern", SEED_PATTERNS)
def test_each_seed_pattern_abstains(pattern):
    assert len(SEED_PATTERNS) == 19
    assert is_abstention(f"Well, {pattern.upper()} about that.")
    assert selfaware_reward(pattern, expected_answer=None, is_unanswerable=True).score == 1.0


def test_values_are_configurable():
    r = selfaware_reward("I don't know.", expected_answer="Paris", is_unanswerable=False,
                         abstain_answerable=0.25)
    assert r.score == 0.25
    r = selfaware_reward("Lyon", expected_answer="Paris", is_unanswerable=False, wrong=-2.0)
    assert r.score == -2.0


def test_empty_gold_for_answerable_is_unscorable():
    r = selfaware_reward("anything", expected_answer="  ", is_unanswerable=False)
    assert r.score is None and r.outcome == "no_gold"


def test_trl_adapter_plain_and_conversational():
    reward = make_trl_reward("selfaware")
    assert reward.__name__ == "selfaware"
    plain = ["Paris.", "I don't know.", "Lyon", "I do not know."]
    conversational = [[{"role": "assistant", "content": c}] for c in plain]
    kwargs = {"expected_answer": ["Paris", "Paris", "Paris", "I don't know."],
              "is_unanswerable": [False, False, False, True], "prompts": ["q"] * 4}
    expected = [1.0, -0.5, -1.0, 1.0]
    assert reward(plain, **kwargs) == expected
    assert reward(conversational, **kwargs) == expected


def test_trl_adapter_missing_column():
    reward = make_trl_reward("selfaware")
    with pytest.raises(RlvrError, match="is_unanswerable"):
        reward(["x"], expected_answer=["x"])


def test_unknown_reward_lists_known():
    with pytest.raises(RlvrError, match="known rewards: .*selfaware.*Did you mean 'selfaware'"):
        get_reward("selfawre")


def test_score_rows_needs_fields():
    with pytest.raises(RlvrError, match="row 1 lacks"):
        score_rows("selfaware", [{"completion": "x"}])


def test_score_cli(tmp_path, capsys):
    rows = [{"completion": "Paris", "expected_answer": "Paris", "is_unanswerable": False},
            {"completion": "I don't know", "expected_answer": None, "is_unanswerable": True},
            {"completion": "42", "expected_answer": None, "is_unanswerable": True}]
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    assert main(["score", "--reward", "selfaware", "--input", str(src), "--output", str(out)]) == 0
    scored = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["reward"] for r in scored] == [1.0, 1.0, -1.0]
    assert [r["outcome"] for r in scored] == ["correct", "abstained_unanswerable",
                                              "answered_unanswerable"]
    text = capsys.readouterr().out
    # mean of [1, 1, -1] = 1/3
    assert "3 rows scored" in text and "+0.3333" in text


def test_score_cli_bad_line_names_file_and_line(tmp_path, capsys):
    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "a", "expected_answer": "a", "is_unanswerable": false}\n'
                   '{"completion": "b"}\n')
    assert main(["score", "--reward", "selfaware", "--input", str(src)]) == 2
    err = capsys.readouterr().err
    assert f"{src}:2:" in err and "expected_answer" in err


def test_score_cli_does_not_import_torch(tmp_path):
    import subprocess
    import sys

    src = tmp_path / "in.jsonl"
    src.write_text('{"completion": "a", "expected_answer": "a", "is_unanswerable": false}\n')
    code = ("import sys; from rlvr.cli import main; main(['score','--reward','selfaware',"
            f"'--input',{str(src)!r}]); assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("preset", ["seed", "strict"])
@pytest.mark.parametrize("known, abstain_known, expected", [
    (True, -1.0, -1.0),    # abstaining on a question the base model knows: over-conservative
    (False, -1.0, -0.5),   # on one it does not know: the usual abstain_answerable
    (None, -1.0, -0.5),    # no label: the usual value
    (True, None, -0.5),    # no knowledge-aware value configured: the usual value
    ("true", -1.0, -1.0),  # CSV-like strings are read as flags
])
def test_knowledge_aware_abstention_value(preset, known, abstain_known, expected):
    from rlvr.rewards import score_rows

    params = {} if abstain_known is None else {"abstain_known": abstain_known}
    row = {"completion": "I don't know.", "expected_answer": "Paris",
           "is_unanswerable": False, "known": known}
    result = score_rows("selfaware", [row], preset, **params)[0]
    assert (result.score, result.outcome) == (expected, "abstained")
    # answers and unanswerable questions are unaffected by `known`
    right = score_rows("selfaware", [{**row, "completion": "Paris."}], preset, **params)[0]
    assert right.score == 1.0
