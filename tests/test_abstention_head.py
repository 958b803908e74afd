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
                                          choose_threshold, fit_head, out_of_fold,
                                          read_with_head, reading_probabilities, speaks_to)


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


def test_the_head_reads_only_the_rules_answers_that_speak_to_the_question(tiny, tmp_path,
                                                                         monkeypatch):
    size = tiny[0].config.hidden_size
    declining = reward_with(head(10.0, size=size), tiny, tmp_path, monkeypatch)
    read = declining("The sky is blue because of sunlight.")   # the rules: an answer
    assert read.outcome == "abstain" and read.score == 1.0
    assert [w["rule"] for w in read.details["why"]] == ["decline.none", "head.decline"]
    assert read.details["head_p_decline"] == pytest.approx(1 / (1 + math.exp(-10)), abs=1e-4)
    hedge = declining("Blue, but I'm not sure.")        # the rules' hedge stands
    assert hedge.outcome == "hedge" and "head_p_decline" not in hedge.details
    off = declining("Never ever.")                      # names nothing the question asks
    assert off.outcome == "answer" and [w["rule"] for w in off.details["why"]][-1] == \
        "head.off_question"
    answering = reward_with(head(-10.0, size=size), tiny, tmp_path, monkeypatch)
    kept = answering("The sky is blue because of sunlight.")
    assert kept.outcome == "answer" and kept.details["head_p_decline"] < 1e-3
    stands = answering("I don't know.")                 # the rules' abstention stands
    assert stands.outcome == "abstain" and "head_p_decline" not in stands.details
    assert answering("No sé.").outcome == "abstain"     # and so do their other languages


def test_read_with_head_lets_the_head_decide_only_answers_that_speak_to_the_question():
    q = "Why is the sky green?"
    assert read_with_head("hedge", 0.99, 0.5, "Blue, I think.", q) == ("hedge", None)
    assert read_with_head("abstain", 0.01, 0.5, "I don't know.", q) == ("abstain", None)
    assert read_with_head("answer", 0.7, 0.7, "The sky is blue.", q) == \
        ("abstain", "head.decline")                     # reaching the threshold declines
    assert read_with_head("answer", 0.69, 0.7, "The sky is blue.", q) == ("answer", None)
    # shares no content word with the question ("sky", "green"):
    assert read_with_head("answer", 0.99, 0.7, "Never ever.", q) == \
        ("answer", "head.off_question")
    assert read_with_head("answer", 0.99, 0.7, "No, no, no, it is not.", q) == \
        ("answer", "head.off_question")
    assert read_with_head("answer", 0.99, 0.7, "Green skies are rare.", q) == \
        ("abstain", "head.decline")                     # "green"
    assert read_with_head("answer", 0.99, 0.7, "The sky is blue.", "") == \
        ("answer", "head.off_question")                 # no question: nothing to speak to


def test_speaks_to_and_the_reading_probabilities():
    assert speaks_to("Broccoli is green.", "Why is broccoli purple?")
    assert speaks_to("Whales are mammals, not fish.", "Which fish is a whale?")  # fish
    assert not speaks_to("Nothing, never, none.", "What is never none nothing?")  # negations
    assert not speaks_to("It is not.", "Is it Paris?")  # stop words only
    # per row: the rules' abstention 1, hedge 0, an answer off the question 0, else P
    got = reading_probabilities(["abstain", "hedge", "answer", "answer"], [0.2, 0.9, 0.9, 0.6],
                                ["I don't know.", "Paris, I think.", "Never ever.",
                                 "Paris is in France."], ["What is the capital of France?"] * 4)
    assert got.tolist() == [1.0, 0.0, 0.0, 0.6]


def test_the_threshold_is_the_one_with_the_largest_margin_to_both_goals():
    # 4 declines (p .9 .8 .6 .3) and 4 answers (p .7 .2 .1 .1), weights 1:
    #   t .3: reads .9 .8 .6 .3 .7 -> recall 4/4 = 1, precision 4/5 = .8;
    #         margins (1 - .85, .8 - .9) -> min -.1
    #   t .7: reads .9 .8 .7 -> recall 2/4 = .5, precision 2/3; min(.5 - .85, .667 - .9) = -.35
    #   t .5: reads .9 .8 .6 .7 -> recall 3/4 = .75, precision 3/4; min(-.1, -.15) = -.15
    # so .3 (the best of the three) is chosen
    p = [0.9, 0.8, 0.6, 0.3, 0.7, 0.2, 0.1, 0.1]
    y = [True] * 4 + [False] * 4
    t, table = choose_threshold(p, y, thresholds=(0.3, 0.5, 0.7))
    assert t == 0.3 and table == {"0.3": [1.0, 0.8], "0.5": [0.75, 0.75],
                                  "0.7": [0.5, 0.6667]}
    # the answer at .7 weighted 0: t .3: recall 1, precision 4/4 = 1, min(.15, .1) = .1;
    # t .5: recall 3/4 = .75, precision 3/3 = 1, min(-.1, .1) = -.1 -> .3
    t, table = choose_threshold(p, y, weights=[1, 1, 1, 1, 0, 1, 1, 1], thresholds=(0.3, 0.5))
    assert t == 0.3 and table["0.3"] == [1.0, 1.0] and table["0.5"] == [0.75, 1.0]
    with pytest.raises(RlvrError, match="no decline"):
        choose_threshold([0.5, 0.5], [False, False])


def test_out_of_fold_probabilities_never_come_from_a_head_that_saw_the_row():
    rng = np.random.default_rng(1)
    n = 40
    labels = np.arange(n) % 2 == 0
    x = rng.normal(size=(n, 3))
    x[:, 0] += np.where(labels, 2.0, -2.0)
    groups = [f"q{i // 4}" for i in range(n)]
    p = out_of_fold(x, labels, groups, 1, 1.0, folds=5)
    assert p.shape == (n,) and ((p >= 0.5) == labels).mean() > 0.85
    # move row 0 far to the decline side: its own estimate follows its features, the rows
    # of its question (rows 1-3, the same group, so the same fold) keep theirs exactly (the
    # head that reads them never saw row 0), and rows of other folds move (theirs did)
    x2 = x.copy()
    x2[0] = [50.0, 0.0, 0.0]
    p2 = out_of_fold(x2, labels, groups, 1, 1.0, folds=5)
    assert p2[0] > 0.99
    assert np.array_equal(p2[1:4], p[1:4])
    assert (np.abs(p2 - p) > 1e-9).sum() > 4


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
              "Canberra, I think.", "The answer is 42.", "No, no, no.", "Never ever.",
              "The sky is blue.", "Green skies are rare.", "No sé."]


@pytest.fixture(scope="module")
def head_path(tmp_path_factory, tiny):
    path = tmp_path_factory.mktemp("head") / "head.json"
    return path, tiny


@settings(max_examples=40, deadline=None)
@given(intercept=st.floats(-6.0, 6.0), coef=st.floats(-3.0, 3.0),
       response=st.sampled_from(_RESPONSES) | st.text(max_size=40),
       threshold=st.floats(0.05, 0.95))
def test_with_any_head_the_rules_declines_stand_and_answers_follow_the_head(
        head_path, intercept, coef, response, threshold):
    """Whatever head is given, the rules' abstentions and hedges stand and are never read by
    it; a response they read as an answer abstains exactly when P(decline) reaches the
    threshold and the response shares a content word with the question, and `why` names
    `head.decline` exactly then (`head.off_question` where only the second clause kept it)."""
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
    rules_why = [w["rule"] for w in read.details["why"]]
    if rules.outcome != "answer":
        assert read.outcome == rules.outcome and "head_p_decline" not in read.details
        return
    p = read.details["head_p_decline"]
    if abs(p - threshold) > 1e-4:   # the stored probability is rounded to 4 places
        declines = p > threshold and speaks_to(response, question)
        assert read.outcome == ("abstain" if declines else "answer")
        assert ("head.off_question" in rules_why) == \
            (p > threshold and not speaks_to(response, question))
    assert ("head.decline" in rules_why) == (read.outcome == "abstain")
