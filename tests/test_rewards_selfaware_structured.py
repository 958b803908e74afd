"""The structured-answer formats of `selfaware` and `abstention` (rlvr.rewards.answers.fields),
and the outcome labels every reward declares (rlvr.rewards.registry.validate_outcome)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from rlvr.errors import RlvrError
from rlvr.rewards import REWARDS, get_reward, score_rows
from rlvr.rewards.abstention import abstention_reward
from rlvr.rewards.registry import validate_outcome
from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward
from rlvr.rewards.answers import answer_line_values, boxed_values, normalise_value, read_field

ROOT = Path(__file__).resolve().parents[1]


def boxed(text, gold="Lisbon", unanswerable=False, **params):
    return selfaware_reward(text, expected_answer=None if unanswerable else [gold],
                            is_unanswerable=unanswerable,
                            **{**STRICT_PRESET, "answer_format": "boxed", **params})


@pytest.mark.parametrize("text, gold, unanswerable, score, outcome", [
    # the exemplars of configs/selfaware_boxed_cpu.yaml
    (r"\boxed{Lisbon}", "Lisbon", False, 1.0, "correct"),
    (r"\boxed{I don't know}", None, True, 1.0, "abstained_unanswerable"),
    (r"\boxed{I don't know}", "Lisbon", False, -0.5, "abstained"),
    # apostrophe, case, punctuation and \text{} variants of the one abstention value
    (r"\boxed{I don’t know.}", None, True, 1.0, "abstained_unanswerable"),
    (r"\boxed{\text{i dont know}}", None, True, 1.0, "abstained_unanswerable"),
    # any other wording inside the box is an answer: nothing is matched against phrases
    (r"\boxed{I do not know}", None, True, -1.0, "answered_unanswerable"),
    (r"\boxed{unknown}", "Lisbon", False, -1.0, "wrong"),
    # no box: no_answer, scored wrong; on an unanswerable question it is not an abstention
    ("Lisbon", "Lisbon", False, -1.0, "no_answer"),
    ("I don't know.", None, True, -1.0, "no_answer_unanswerable"),
    (r"\boxed{Lisbon", "Lisbon", False, -1.0, "no_answer"),   # unclosed
    (r"\boxed{}", "Lisbon", False, -1.0, "no_answer"),        # empty
    # the LAST box counts for answer vs abstention; the text outside does not
    (r"I don't know, maybe \boxed{Lisbon}", "Lisbon", False, 1.0, "correct"),
    (r"Lisbon, I'm sure. \boxed{I don't know}", None, True, 1.0, "abstained_unanswerable"),
    (r"\boxed{I don't know} ... actually \boxed{Lisbon}", "Lisbon", False, 1.0, "correct"),
    # distinct answers in several boxes, or several items in the box: listed_candidates
    (r"\boxed{Porto} or \boxed{Lisbon}", "Lisbon", False, -1.0, "listed_candidates"),
    (r"\boxed{Lisbon or Porto}", "Lisbon", False, -1.0, "listed_candidates"),
    (r"\boxed{Lisbon, Porto}", "Lisbon", False, -1.0, "listed_candidates"),
    (r"\boxed{Lisbon} \boxed{lisbon.}", "Lisbon", False, 1.0, "correct"),  # same value twice
    # the box content goes through the free-text matcher: word boundaries, denials, numbers
    (r"\boxed{not Lisbon}", "Lisbon", False, -1.0, "wrong"),
    (r"\boxed{Lisbonne}", "Lisbon", False, -1.0, "wrong"),
    (r"\boxed{1,000}", "1000", False, 1.0, "correct"),
    (r"\boxed{\frac{1}{2}}", "0.5", False, 1.0, "correct"),
    (r"\boxed{Bosnia and Herzegovina}", "Bosnia and Herzegovina", False, 1.0, "correct"),
])
def test_boxed_table(text, gold, unanswerable, score, outcome):
    result = boxed(text, gold or "x", unanswerable)
    assert (result.score, result.outcome) == (score, outcome), result


@pytest.mark.parametrize("text, outcome", [
    ("Let me think.\nAnswer: Lisbon", "correct"),
    ("**Answer:** Lisbon", "correct"),
    ("Final answer: I don't know", "abstained"),
    ("Answer:\n\nLisbon", "correct"),
    ("The answer: Lisbon", "no_answer"),   # the marker must open its line
    ("Answer: Porto\nAnswer: Lisbon", "listed_candidates"),
    ("Lisbon.", "no_answer"),
])
def test_answer_line_table(text, outcome):
    result = selfaware_reward(text, expected_answer=["Lisbon"], is_unanswerable=False,
                              answer_format="answer_line")
    assert result.outcome == outcome, result


def test_field_readers():
    assert boxed_values(r"x \boxed{\frac{1}{2}} y \boxed{a{b}c}") == [r"\frac{1}{2}", "a{b}c"]
    # an unclosed box before the real one does not swallow it
    assert boxed_values(r"\boxed{ oops \boxed{Paris}") == ["Paris"]
    assert answer_line_values("Answer: 4\n> Final answer: 5") == ["4", "5"]
    assert normalise_value("  \\text{I Don\u2019t know.} ") == "i dont know"
    assert read_field("no field", "boxed").found is False
    with pytest.raises(RlvrError, match="known: free, boxed, answer_line"):
        read_field("x", "xml")


def test_abstention_reward_structured():
    assert abstention_reward(r"\boxed{I don't know}", answer_format="boxed").outcome == "abstain"
    result = abstention_reward("I don't know.", answer_format="boxed")
    assert (result.score, result.outcome) == (0.0, "no_answer")
    assert abstention_reward(r"\boxed{Paris}", answer_format="boxed").outcome == "answer"


def test_answer_format_reaches_score_rows_and_is_checked():
    rows = [{"completion": r"\boxed{I don't know}", "expected_answer": None, "is_unanswerable": True},
            {"completion": "I don't know", "expected_answer": None, "is_unanswerable": True}]
    got = score_rows("selfaware", rows, "strict", answer_format="boxed")
    assert [r.outcome for r in got] == ["abstained_unanswerable", "no_answer_unanswerable"]
    with pytest.raises(RlvrError, match="Did you mean 'boxed'"):
        get_reward("selfaware").params("strict", answer_format="boxd")


def test_boxed_config_loads():
    from rlvr.config import load_config
    from rlvr.config.checks import check_config

    cfg = load_config(ROOT / "configs" / "selfaware_boxed_cpu.yaml")
    check_config(cfg)
    assert cfg.reward_params["answer_format"] == "boxed"
    assert cfg.output_dir == "runs/selfaware_boxed_cpu"
    assert [a for _, a in cfg.prompt_exemplars] == [r"\boxed{Lisbon}", r"\boxed{I don't know}"]


def test_boxed_config_is_the_main_recipe_but_the_format():
    """A boxed-versus-free-text comparison must compare the format, not two recipes: the
    boxed config differs from the main job's only in the format's own settings."""
    from rlvr.config import load_config

    main = load_config(ROOT / "configs" / "selfaware_grpo_cpu.yaml").to_dict()
    boxed = load_config(ROOT / "configs" / "selfaware_boxed_cpu.yaml").to_dict()
    differ = {k for k in main if main[k] != boxed[k]}
    assert differ == {"output_dir", "reward_params", "system_prompt", "prompt_exemplars",
                      "max_completion_length", "eval_max_new_tokens"}
    assert {k: v for k, v in boxed["reward_params"].items() if k != "answer_format"} == \
        main["reward_params"]


# --- outcome labels in the contract -------------------------------------------------------

def test_every_reward_declares_its_outcomes():
    for name, spec in REWARDS.items():
        assert spec.declared_outcomes(), name
        assert {"reward_error", "bad_row"} <= set(spec.declared_outcomes()), name


def _literal_outcomes(path: Path) -> set[str]:
    """String constants passed as the outcome (2nd argument) of RewardResult(...) in a
    module, through conditional expressions ("a" if x else "b")."""
    found: set[str] = set()

    def collect(node):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found.add(node.value)
        elif isinstance(node, ast.IfExp):
            collect(node.body)
            collect(node.orelse)
        elif isinstance(node, ast.BinOp):  # "correct" + suffix: the head alone is one outcome
            collect(node.left)

    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "RewardResult" \
                and len(node.args) >= 2:
            collect(node.args[1])
    return found


def test_every_literal_outcome_a_reward_module_returns_is_declared():
    modules = ROOT / "src" / "rlvr" / "rewards"
    declared = {o for spec in REWARDS.values() for o in spec.declared_outcomes()}
    for path in sorted(modules.glob("*.py")):
        missing = _literal_outcomes(path) - declared
        assert not missing, (path.name, missing)


def test_every_outcome_the_free_text_and_structured_rewards_return_is_declared():
    rows = [json.loads(line) for line in
            (ROOT / "tests" / "fixtures" / "abstention_labelled" / "responses.jsonl").open()]
    texts = [r["text"] for r in rows] + [r"\boxed{x}", r"\boxed{I don't know}", "Answer: x", ""]
    for name, params in [("selfaware", {}), ("selfaware", STRICT_PRESET),
                         ("selfaware", {"answer_format": "boxed"}),
                         ("selfaware", {"answer_format": "answer_line"}), ("abstention", {}),
                         ("abstention", {"answer_format": "boxed"})]:
        spec = get_reward(name)
        for text in texts:
            for unanswerable in (False, True):
                fields = {"expected_answer": ["x"], "is_unanswerable": unanswerable} \
                    if name == "selfaware" else {}
                outcome = spec.core(text, **fields, **params).outcome
                assert outcome in spec.declared_outcomes(), (name, params, text, outcome)


def test_a_judge_label_is_checked_against_the_declared_ones():
    assert validate_outcome("selfaware", " Abstained_Unanswerable ") == "abstained_unanswerable"
    with pytest.raises(RlvrError) as err:
        validate_outcome("selfaware", "abstain")
    message = str(err.value)
    assert "known: correct, wrong, abstained" in message and "Did you mean 'abstained'" in message
    with pytest.raises(RlvrError, match="no outcome label 'reward_error'"):
        validate_outcome("selfaware", "reward_error")   # the registry's, not a judge's
    assert validate_outcome("selfaware", "reward_error", judge=False) == "reward_error"
    with pytest.raises(RlvrError, match="no outcome label None"):
        validate_outcome("abstention", None)
