"""TrainConfig -> TRL GRPOConfig / PEFT LoraConfig / reward functions (no model loaded)."""

from __future__ import annotations

import pytest

from rlvr.config import load_config
from rlvr.errors import ConfigError, RlvrError
from rlvr.train.grpo import grpo_args, lora_config, reward_functions


def test_grpo_args_carry_the_reference_settings(tmp_path):
    cfg = load_config(None)
    args = grpo_args(cfg, tmp_path, [1.0])
    assert (args.per_device_train_batch_size, args.gradient_accumulation_steps) == (1, 16)
    assert (args.num_generations, args.max_completion_length) == (2, 128)
    assert (args.beta, args.temperature, args.learning_rate) == (0.1, 0.7, 5e-5)
    assert args.warmup_steps == 0.05  # transformers 5 reads a float < 1 as a ratio
    assert args.bf16 is False  # no GPU here
    # TRL: one generation batch per optimizer step = 1 x 16 completions = 8 prompts x 2
    assert args.generation_batch_size == 16


def test_lora_config():
    lora = lora_config(load_config(None))
    assert (lora.r, lora.lora_alpha, lora.lora_dropout) == (8, 8, 0.05)
    assert lora.target_modules == "all-linear"


def test_reward_functions_single_and_weighted():
    funcs, weights = reward_functions(load_config(None))
    assert [f.__name__ for f in funcs] == ["selfaware"] and weights == [1.0]
    cfg = load_config(None, {"reward_funcs": [
        {"name": "selfaware", "weight": 2.0},
        {"name": "selfaware", "preset": "seed", "params": {"abstain_answerable": -1.0},
         "weight": 0.5, "log_name": "selfaware_harsh"}]})
    funcs, weights = reward_functions(cfg)
    assert weights == [2.0, 0.5]
    assert [f.__name__ for f in funcs] == ["selfaware", "selfaware_harsh"]
    kwargs = {"expected_answer": ["Paris"], "is_unanswerable": [False]}
    assert funcs[0](["I don't know."], **kwargs) == [-0.5]
    assert funcs[1](["I don't know."], **kwargs) == [-1.0]


@pytest.mark.parametrize("override, message", [
    # bad-input rows: checked when the config loads, before any model
    ({"reward_params": {"wrong": -2}}, "'wrong' = -2 is outside the reward's score range"),
    ({"reward_params": "wrong=-2"}, "reward_params must be a mapping"),
    ({"reward_params": {"wrongg": -1}}, "no parameter 'wrongg'.*Did you mean 'wrong'"),
    ({"reward_params": {"mode": 3}}, "parameter 'mode' must be str"),
    ({"reward_preset": "strcit"}, "no preset 'strcit'.*Did you mean 'strict'"),
    ({"reward": "selfawre"}, "unknown reward 'selfawre'.*Did you mean 'selfaware'"),
    ({"reward_funcs": "selfaware"}, "reward_funcs must be a list"),
])
def test_reward_settings_are_checked_when_the_config_loads(override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, override)


def test_a_single_reward_entry_given_as_a_mapping_is_one_entry():
    # `--set 'reward_funcs={name: selfaware}'` used to answer "needs a 'name' key, got 'name'"
    cfg = load_config(None, {"reward_funcs": {"name": "selfaware", "preset": "strict"}})
    assert cfg.reward_funcs == [{"name": "selfaware", "preset": "strict"}]


def test_reward_funcs_validation():
    with pytest.raises(ConfigError, match="reward_funcs: .*needs a 'name'"):
        load_config(None, {"reward_funcs": ["selfaware"]})
    with pytest.raises(ConfigError, match="unknown key"):
        load_config(None, {"reward_funcs": [{"name": "selfaware", "wieght": 1}]})
    with pytest.raises(ConfigError, match="unknown reward 'gsm8k'"):
        load_config(None, {"reward_funcs": [{"name": "gsm8k"}]})
    with pytest.raises(ConfigError, match="log_name"):
        load_config(None, {"reward_funcs": [{"name": "selfaware"}, {"name": "selfaware"}]})
    with pytest.raises(RlvrError, match="unknown reward"):
        reward_functions(load_config(None, {"reward": "nope"}))


@pytest.mark.parametrize("override, message", [
    ({"knowledge_samples": 0}, "knowledge_samples must be >= 1"),
    ({"knowledge_samples": 4}, "knowledge_temperature .* > 0 when knowledge_samples > 1"),
    ({"knowledge_temperature": -1.0}, "knowledge_temperature must be >= 0"),
    ({"knowledge_threshold": 0.0}, r"knowledge_threshold must be in \(0, 1\]"),
    ({"knowledge_threshold": 1.5}, r"knowledge_threshold must be in \(0, 1\]"),
    ({"preflight": "maybe"}, "preflight must be refuse, warn or off"),
    ({"train_answerable": "some"}, "train_answerable must be all, known or label"),
    ({"max_unanswerable_share": 1.0}, r"max_unanswerable_share must be in \(0, 1\)"),
    ({"alarm_patience": 0}, "alarm_patience must be >= 1"),
])
def test_new_settings_are_checked(override, message):
    with pytest.raises(ConfigError, match=message):
        load_config(None, override)


def test_default_preset_is_strict_and_diagnostics_on():
    cfg = load_config(None)
    assert cfg.reward_preset == "strict" and cfg.preflight == "refuse" and cfg.diagnostics
    assert (cfg.knowledge_samples, cfg.knowledge_temperature) == (1, 0.0)


def test_cap_unanswerable_hand_computed():
    from rlvr.train.data_prep import cap_unanswerable

    rows = [{"is_unanswerable": i % 3 != 0, "i": i} for i in range(30)]  # 10 answerable, 20 not
    kept = cap_unanswerable(rows, 0.4, seed=0)
    # at most floor(0.4 * 10 / 0.6) = floor(6.67) = 6 unanswerable rows next to 10 answerable
    assert sum(r["is_unanswerable"] for r in kept) == 6
    assert sum(not r["is_unanswerable"] for r in kept) == 10
    assert [r["i"] for r in kept] == sorted(r["i"] for r in kept)  # order kept
    assert cap_unanswerable(rows, 0.9, seed=0) == rows  # already under the cap
    assert cap_unanswerable(rows, 0.4, seed=0) == kept  # seeded


def test_prompt_exemplars_go_between_system_and_question():
    from rlvr.tasks.resolve import resolve_data, with_system_prompt
    from rlvr.errors import DataError

    ex = resolve_data(None).train[:1]
    out = with_system_prompt(ex, "Short.", [["Q1?", "A1."], {"question": "Q2?", "answer": "A2."}])
    roles = [m["role"] for m in out[0]["prompt"]]
    assert roles == ["system", "user", "assistant", "user", "assistant", "user"]
    assert out[0]["prompt"][1:5] == [{"role": "user", "content": "Q1?"},
                                     {"role": "assistant", "content": "A1."},
                                     {"role": "user", "content": "Q2?"},
                                     {"role": "assistant", "content": "A2."}]
    assert out[0]["prompt"][-1]["content"] == ex[0]["question"]
    with pytest.raises(DataError, match="prompt_exemplars entry 1"):
        with_system_prompt(ex, None, [["only a question"]])


def test_mix_builtin_adds_known_kinds_and_tags_sources(selfaware_json):
    from rlvr.train.data_prep import prepare_data

    cfg = load_config(None, {"data": str(selfaware_json), "selfaware_variant": "v1",
                             "train_limit": 50, "mix_builtin": True})
    data, train, heldout = prepare_data(cfg)
    sources = [ex["source"] for ex in train]
    # built-in: 294 + 73 in rlvr 0.2; 592 + 147 since the second batch grew the set, 701 + 175
    # since the third (tests/test_builtin.py); SelfAware data: no out-of-template set (auto)
    assert sources.count("selfaware") == 50 and sources.count("builtin") == 701
    assert [ex["source"] for ex in heldout].count("builtin") == 175
    assert "out_of_template" not in [ex["source"] for ex in heldout]
    assert [ex["source"] for ex in heldout].count("selfaware") == 337


def test_exemplar_questions_must_not_be_held_out():
    from rlvr.data.builtin import builtin_splits
    from rlvr.errors import DataError
    from rlvr.train.data_prep import prepare_data

    question = builtin_splits()["test"][0]["messages"][1]["content"]
    cfg = load_config(None, {"prompt_exemplars": [[question, "x"]]})
    # 73 -> 147 -> 175 built-in held-out questions, and the 228 out-of-template ones
    with pytest.raises(DataError, match="1 of 403 evaluation questions"):
        prepare_data(cfg)


def test_training_dataset_has_one_list_column_for_every_kind_of_row(selfaware_json, tmp_path):
    """SelfAware rows (several answers), built-in rows (aliases), old messages rows without
    `answers` (one string) and unanswerable rows (None) build one TRL dataset whose
    `expected_answer` column is a nullable list of strings."""
    import json

    from datasets import Dataset

    from rlvr.data.messages import load_messages_jsonl
    from rlvr.tasks.resolve import resolve_data
    from rlvr.train.data_prep import training_columns

    selfaware = resolve_data(str(selfaware_json), "test", "v3").train
    old = tmp_path / "old.jsonl"
    old.write_text(json.dumps({"messages": [{"role": "user", "content": "Capital of Peru?"},
                                            {"role": "assistant", "content": "Lima"}]}) + "\n")
    train = selfaware + resolve_data(None).train + load_messages_jsonl(old)
    train = [{**ex, "known": not ex["is_unanswerable"]} for ex in train]
    dataset = Dataset.from_dict(training_columns(train, with_known=True))
    assert len(dataset) == len(train) and dataset.column_names == [
        "prompt", "expected_answer", "is_unanswerable", "known"]
    assert dataset.features["expected_answer"].feature.dtype == "string"
    by_question = {q: (a, u) for q, a, u in zip(
        [ex["question"] for ex in train], dataset["expected_answer"], dataset["is_unanswerable"])}
    cryptozoology = next(ex for ex in selfaware if ex["id"] == 4)
    assert by_question[cryptozoology["question"]][0] == cryptozoology["answers"]
    assert len(cryptozoology["answers"]) == 16
    assert by_question["Capital of Peru?"] == (["Lima"], False)
    assert by_question["What is the capital of France?"][0] == ["Paris"]
    assert all(a is None for a, u in by_question.values() if u)
    assert all(a for a, u in by_question.values() if not u)


def test_reward_reads_an_empty_answer_list_like_none():
    """The list column's empty value: unanswerable rows score as with None; an answerable
    row with no answer is unscored (`no_gold`), never matched by every response."""
    from rlvr.rewards import score_rows

    rows = [{"completion": c, "expected_answer": gold, "is_unanswerable": u}
            for c in ("I don't know.", "Paris") for gold in ([], None) for u in (True, False)]
    for preset in ("seed", "strict"):
        out = [(r.score, r.outcome) for r in score_rows("selfaware", rows, preset)]
        # rows: (completion, gold, unanswerable) in the order of the loops above
        assert out[0] == out[2] == (1.0, "abstained_unanswerable")  # [] and None alike
        assert out[4] == out[6] == (-1.0, "answered_unanswerable")
        assert out[1] == out[3] == out[5] == out[7] == (None, "no_gold")
