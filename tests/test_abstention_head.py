"""The learned decline reader (rlvr.rewards.abstention_head) and the `abstention` reward's
`head` parameter: the head's arithmetic by hand, its file checks, features that do not
depend on batching, and the reward reading with it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlvr.errors import RlvrError
from rlvr.models.hidden_states import response_features
from rlvr.rewards.abstention_head import (_READERS, AbstentionHead, HeadReader, choose_head,
                                          fit_head)


@pytest.fixture(scope="module")
def tiny():
    from tiny_models import tiny_chat_llama

    return tiny_chat_llama()


def head(intercept: float, coef=(1.0, 0.0), size: int = 2) -> AbstentionHead:
    return AbstentionHead(None, 1, [0.0] * size, [1.0] * size, list(coef) + [0.0] * (size - 2),
                          intercept)


def test_probability_is_the_logistic_of_the_standardised_features():
    h = AbstentionHead(None, 1, mean=[1.0, 0.0], scale=[2.0, 1.0], coef=[1.0, -1.0],
                       intercept=0.5)
    # features (5, 1): z = ((5-1)/2, (1-0)/1) = (2, 1); logit = 2*1 + 1*(-1) + 0.5 = 1.5;
    # sigmoid(1.5) = 1 / (1 + e^-1.5) = 1 / 1.22313 = 0.81757
    assert h.probabilities([[5.0, 1.0]])[0] == pytest.approx(0.81757, abs=1e-5)
    # features (1, 0): z = (0, 0); logit 0.5; sigmoid = 0.62246
    assert h.probabilities([[1.0, 0.0]])[0] == pytest.approx(0.62246, abs=1e-5)


def test_a_saved_head_loads_back_and_bad_files_get_one_line(tmp_path):
    path = tmp_path / "head.json"
    h = head(0.25)
    h.fitted_on = {"sources": ["xstest"]}
    h.save(path)
    assert AbstentionHead.load(path) == h
    with pytest.raises(RlvrError, match="no such file"):
        AbstentionHead.load(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(RlvrError, match="not readable JSON"):
        AbstentionHead.load(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text(json.dumps({"layer": 1}), encoding="utf-8")
    with pytest.raises(RlvrError, match="not a head"):
        AbstentionHead.load(tmp_path / "other.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    (tmp_path / "short.json").write_text(json.dumps({**data, "coef": [1.0]}), encoding="utf-8")
    with pytest.raises(RlvrError, match="differ in length"):
        AbstentionHead.load(tmp_path / "short.json")
    (tmp_path / "extra.json").write_text(json.dumps({**data, "colour": 1}), encoding="utf-8")
    with pytest.raises(RlvrError, match="colour"):
        AbstentionHead.load(tmp_path / "extra.json")


def test_features_of_a_pair_do_not_depend_on_its_batch(tiny):
    model, tokenizer = tiny
    pairs = [("Why is the sky green?", "It is not green."),
             ("What is 2+2?", "4, as anyone who has counted apples on a table knows well."),
             ("", "I don't know.")]
    together = response_features(model, tokenizer, pairs, [0, 1], batch_size=3)
    alone = np.stack([response_features(model, tokenizer, [p], [0, 1])[:, 0] for p in pairs],
                     axis=1)
    assert together.shape == (2, 3, model.config.hidden_size)
    np.testing.assert_allclose(together, alone, atol=1e-5)
    # the response's tokens are read: another response, other features
    other = response_features(model, tokenizer, [("Why is the sky green?", "Blue.")], [1])
    assert not np.allclose(other[0, 0], together[1, 0])
    with pytest.raises(RlvrError, match="outside 0..1"):
        response_features(model, tokenizer, pairs, [2])


def test_fit_separates_and_the_cross_validation_picks_the_layer_that_carries_the_label():
    rng = np.random.default_rng(0)
    n = 80
    labels = np.arange(n) % 2 == 0
    noise = rng.normal(size=(n, 4))
    signal = noise.copy()
    signal[:, 0] += np.where(labels, 3.0, -3.0)      # layer 5 carries the label, layer 2 not
    features = np.stack([noise, signal])
    groups = [f"q{i // 2}" for i in range(n)]
    layer, c, scores = choose_head(features, labels, groups, ["s"] * n, [2, 5], folds=4,
                                   c_values=(0.1, 1.0))
    assert layer == 5 and scores["5|0.1"] > 0.9 > scores["2|0.1"]
    fitted = fit_head(signal, labels, layer, c)
    assert ((fitted.probabilities(signal) >= 0.5) == labels).mean() > 0.95
    with pytest.raises(RlvrError, match="at least two declines"):
        fit_head(signal[:3], [True, False, False], 5, 1.0)


def reward_with(head_obj, tiny, tmp_path, monkeypatch):
    from rlvr.rewards.abstention import abstention_reward

    path = tmp_path / "head.json"
    head_obj.layer = 1
    head_obj.save(path)
    model, tokenizer = tiny
    monkeypatch.setitem(_READERS, str(path.resolve()), HeadReader(head_obj, model, tokenizer))
    return lambda text: abstention_reward(text, prompt="Why is the sky green?", head=str(path))


def test_the_head_turns_only_the_rules_answers_into_abstentions(tiny, tmp_path, monkeypatch):
    size = tiny[0].config.hidden_size
    declining = reward_with(head(10.0, size=size), tiny, tmp_path, monkeypatch)
    read = declining("Because of the sunlight.")   # the rules: an answer
    assert read.outcome == "abstain" and read.score == 1.0
    assert [w["rule"] for w in read.details["why"]] == ["decline.none", "head.decline"]
    assert read.details["head_p_decline"] == pytest.approx(1 / (1 + math.exp(-10)), abs=1e-4)
    hedge = declining("Blue, but I'm not sure.")        # the rules' hedge stands
    assert hedge.outcome == "hedge" and "head_p_decline" not in hedge.details
    answering = reward_with(head(-10.0, size=size), tiny, tmp_path, monkeypatch)
    kept = answering("Because of the sunlight.")
    assert kept.outcome == "answer" and kept.details["head_p_decline"] < 1e-3
    assert answering("I don't know.").outcome == "abstain"  # the rules' abstention stands


def test_the_head_parameter_is_checked_before_any_model_loads(tmp_path):
    from rlvr.rewards.abstention import abstention_reward

    with pytest.raises(RlvrError, match="no such file"):
        abstention_reward.param_check({"head": str(tmp_path / "none.json")})
    head(0.0).save(tmp_path / "h.json")
    abstention_reward.param_check({"head": str(tmp_path / "h.json")})
    with pytest.raises(RlvrError, match="does not combine"):
        abstention_reward.param_check({"head": str(tmp_path / "h.json"),
                                       "answer_format": "boxed"})


_RESPONSES = ["I don't know.", "Paris.", "Blue, but I'm not sure.", "Nobody can know that yet.",
              "It is 7 (not sure).", "Because of the sunlight.", "I cannot help with that.",
              "Canberra, I think.", "The answer is 42."]


@pytest.fixture(scope="module")
def head_path(tmp_path_factory, tiny):
    path = tmp_path_factory.mktemp("head") / "head.json"
    return path, tiny


@settings(max_examples=40, deadline=None)
@given(intercept=st.floats(-6.0, 6.0), coef=st.floats(-3.0, 3.0),
       response=st.sampled_from(_RESPONSES) | st.text(max_size=40),
       threshold=st.floats(0.05, 0.95))
def test_with_any_head_the_rules_abstentions_and_hedges_stand_and_answers_follow_the_head(
        head_path, intercept, coef, response, threshold):
    """Whatever head is given, it only ever reads what the rules call an answer, and turns
    it into an abstention exactly when its P(decline) reaches its threshold."""
    from rlvr.rewards.abstention import abstention_reward

    path, (model, tokenizer) = head_path
    size = model.config.hidden_size
    h = AbstentionHead(None, 1, [0.0] * size, [1.0] * size, [coef] + [0.0] * (size - 1),
                       intercept, threshold)
    h.save(path)
    _READERS[str(path.resolve())] = HeadReader(h, model, tokenizer)
    question = "Why is the sky green?"
    rules = abstention_reward(response, prompt=question)
    read = abstention_reward(response, prompt=question, head=str(path))
    if rules.outcome != "answer":
        assert read.outcome == rules.outcome and "head_p_decline" not in read.details
    else:
        p = read.details["head_p_decline"]
        assert read.outcome == ("abstain" if p >= round(threshold, 4) else "answer") or \
            abs(p - threshold) < 1e-4
        assert ("head.decline" in [w["rule"] for w in read.details["why"]]) == \
            (read.outcome == "abstain")
