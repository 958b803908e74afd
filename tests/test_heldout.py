"""One evaluation path: a run's held-out rows, overlap refusal, and the train-side preflight."""

from __future__ import annotations

import json

import pytest

from rlvr.config import load_config
from rlvr.data.builtin import builtin_splits
from rlvr.tasks.resolve import resolve_data, with_system_prompt
from rlvr.errors import ConfigError, DataError
from rlvr.eval.saved_run import find_run
from rlvr.tasks.heldout import (check_overlap, heldout_rows, normalise_question, run_task,
                               write_run_data)
from rlvr.train.checks import reward_preflight


def _builtin():
    data = resolve_data(None)
    return list(data.train), list(data.heldout)


def test_heldout_rows_keep_the_training_prompt():
    train, heldout = _builtin()
    heldout = with_system_prompt(heldout, "Be brief.")
    rows = heldout_rows(heldout)
    task = run_task("selfaware", "strict", {"wrong": -1.0}, 24)
    prompt = task.build_prompt(rows[0])
    assert prompt == heldout[0]["prompt"]
    assert prompt[0] == {"role": "system", "content": "Be brief."}
    assert task.reward_preset == "strict" and task.reward_params == {"wrong": -1.0}
    assert task.max_new_tokens == 24
    assert all(r["expected_answer"] is None for r in rows if r["is_unanswerable"])


def test_overlap_is_refused_with_the_count():
    rows = [{"question": "What is the capital of France?"}, {"question": "Who am I?"}]
    train = {normalise_question("what is  the CAPITAL of France?")}
    with pytest.raises(DataError, match="1 of 2 evaluation questions are training questions"):
        check_overlap(rows, train, "x.jsonl")
    check_overlap(rows[1:], train, "x.jsonl")  # no overlap: no error


def test_builtin_split_has_no_overlap():
    train, heldout = _builtin()
    check_overlap(heldout_rows(heldout), {normalise_question(e["question"]) for e in train},
                  "builtin")


def test_find_run_reads_the_run_files(tmp_path):
    train, heldout = _builtin()
    (tmp_path / "adapter").mkdir()
    (tmp_path / "resolved_config.yaml").write_text(
        "reward: selfaware\nreward_preset: strict\nmax_completion_length: 24\n")
    write_run_data(tmp_path, train, heldout)
    run = find_run(tmp_path / "adapter")
    assert run is not None and len(run.rows) == len(heldout)
    assert run.task.reward_preset == "strict" and run.task.max_new_tokens == 24
    assert normalise_question(train[0]["question"]) in run.train_questions
    # a folder that is not inside a run: no run
    assert find_run(tmp_path / "elsewhere" / "adapter") is None
    saved = json.loads((tmp_path / "train_questions.json").read_text())
    assert len(saved) == len({normalise_question(e["question"]) for e in train})


def test_eval_refuses_the_default_split_after_training_on_another_seed(tmp_path, selfaware_json):
    """A reported case: a run trained on the v3 split built with seed 7; the selfaware
    task's default test split (v3, seed 42) holds 101 of its training questions."""
    from rlvr.eval.runner import run_eval

    data = resolve_data(str(selfaware_json), "test", "v3", seed=7)
    run_dir = tmp_path / "run"
    (run_dir / "adapter").mkdir(parents=True)
    (run_dir / "resolved_config.yaml").write_text("reward_preset: strict\n")
    write_run_data(run_dir, data.train, data.heldout)
    with pytest.raises(DataError, match="101 of 337 evaluation questions are training"):
        run_eval(None, ["selfaware"], adapter=str(run_dir / "adapter"),
                 output_dir=tmp_path / "out", task_paths={"selfaware": str(selfaware_json)},
                 loaded_model=(None, None))


def test_train_preflight_refuses_the_seed_preset_and_warns_on_request():
    train, _ = _builtin()
    with pytest.raises(ConfigError, match="always_hedge .*as much as gold"):
        reward_preflight(load_config(None, {"reward_preset": "seed"}), train)
    out = reward_preflight(load_config(None, {"reward_preset": "seed", "preflight": "warn"}), train)
    assert out[0]["warnings"] and out[0]["policies"]["always_hedge"] == 1.0
    assert reward_preflight(load_config(None, {"preflight": "off"}), train) == []
    strict = reward_preflight(load_config(None, {}), train)  # default preset: strict
    assert strict[0]["warnings"] == [] and strict[0]["policies"]["list_candidates"] == -1.0


def test_train_preflight_names_a_reward_that_cannot_score_the_rows():
    train, _ = _builtin()
    cfg = load_config(None, {"reward_funcs": [{"name": "gsm8k_correctness"}]})
    # the training columns are checked before the preflight, also with preflight: off
    with pytest.raises(ConfigError, match=r"reward 'gsm8k_correctness' reads field\(s\) "
                                          r"final_answer, which the training rows"):
        reward_preflight(cfg, train)
    with pytest.raises(ConfigError, match="final_answer"):
        reward_preflight(load_config(None, {"reward_funcs": [{"name": "gsm8k_correctness"}],
                                            "preflight": "off"}), train)


def test_builtin_splits_are_stable():
    # 73 held-out questions in rlvr 0.2; a second batch added (74 more held out) so
    # that at least 50 held-out questions are known to the default model; a third (28 more)
    # so that a year, "will" or "my" no longer predicts an unanswerable question
    assert len(builtin_splits()["test"]) == 175


# ---------- every gold answer counts ----------

def _second_answer_rows(rows, by_id):
    """The rows of questions the file lists several answers for, answered with the second."""
    return [{**r, "completion": by_id[r["id"]]["answers"][1]} for r in rows
            if len(by_id[r["id"]]["answers"]) > 1]


@pytest.mark.parametrize("preset", ["seed", "strict"])
def test_v3_test_second_answers_score_correct_on_every_path(selfaware_json, preset):
    """A reported case: in the v3 test split, 28 questions list a second answer; giving it
    used to score `wrong` for 27 of them in the `selfaware` eval task. Each path is checked
    as it scores: the eval task's loader, a training run's held-out rows and the TRL
    training reward over the dataset columns."""
    import dataclasses

    from datasets import Dataset

    from rlvr.data.selfaware import load_selfaware_json
    from rlvr.data.loaders import load_selfaware_heldout
    from rlvr.eval.runner import score_records
    from rlvr.tasks.registry import get_task
    from rlvr.rewards.registry import make_trl_reward
    from rlvr.train.data_prep import training_columns

    by_id = {e["id"]: e for e in load_selfaware_json(selfaware_json)}
    task = dataclasses.replace(get_task("selfaware"), reward_preset=preset)
    # 1. `rlvr eval --tasks selfaware` (no run): the task's own v3 test split
    rows = _second_answer_rows(load_selfaware_heldout(selfaware_json), by_id)
    assert len(rows) == 28
    records = score_records(task, rows, [{"completion": r["completion"]} for r in rows], 1)
    assert [r["outcome"] for r in records] == ["correct"] * 28
    # 2. `rlvr train --data SelfAware.json`: the held-out rows written to heldout.jsonl
    heldout = resolve_data(str(selfaware_json), "test", "v3").heldout
    rows = _second_answer_rows(heldout_rows(heldout), by_id)
    records = score_records(run_task("selfaware", preset), rows,
                            [{"completion": r["completion"]} for r in rows], 1)
    assert len(records) == 28 and {r["outcome"] for r in records} == {"correct"}
    # 3. training: the TRL dataset columns, passed to the reward as GRPOTrainer does
    examples = [ex for ex in heldout if len(by_id[ex["id"]]["answers"]) > 1]
    dataset = Dataset.from_dict(training_columns(examples))
    seen = []
    reward = make_trl_reward("selfaware", preset, observer=lambda results, kw: seen.extend(results))
    batch = dataset[:]
    scores = reward([by_id[ex["id"]]["answers"][1] for ex in examples],
                    prompts=batch["prompt"], expected_answer=batch["expected_answer"],
                    is_unanswerable=batch["is_unanswerable"])
    assert scores == [1.0] * 28 and {r.outcome for r in seen} == {"correct"}


def test_old_heldout_file_with_string_answers_still_loads(tmp_path):
    """A run directory written before answers became lists (one string per row) still
    evaluates: the rows load as saved and the reward accepts the string."""
    from rlvr.eval.runner import score_records

    (tmp_path / "adapter").mkdir()
    (tmp_path / "resolved_config.yaml").write_text("reward: selfaware\nreward_preset: strict\n")
    (tmp_path / "train_questions.json").write_text('["what is 2 + 2?"]')
    prompt = [{"role": "user", "content": "What is the capital of France?"}]
    old = [{"id": 1, "question": "What is the capital of France?", "expected_answer": "Paris",
            "is_unanswerable": False, "chat_prompt": prompt},
           {"id": 2, "question": "Who wins in 2050?", "expected_answer": None,
            "is_unanswerable": True, "chat_prompt": prompt}]
    (tmp_path / "heldout.jsonl").write_text("".join(json.dumps(r) + "\n" for r in old))
    run = find_run(tmp_path / "adapter")
    assert run is not None and run.rows[0]["expected_answer"] == "Paris"
    records = score_records(run.task, run.rows, [{"completion": "It is Paris."},
                                                 {"completion": "I don't know."}], 1)
    assert [r["outcome"] for r in records] == ["correct", "abstained_unanswerable"]


def test_train_preflight_checks_guards_without_refusing():
    train, _ = _builtin()
    guards = [{"name": "selfaware", "preset": "strict"},
              {"name": "soft_overlong", "params": {"max_length": 24, "cache_length": 8}},
              {"name": "repetition_penalty", "weight": 0.5}]
    out = reward_preflight(load_config(None, {"reward_funcs": guards}), train)
    # only the task reward gets a policy table; the guards pass their parameter check
    assert [r["reward"] for r in out] == ["selfaware"] and out[0]["warnings"] == []
    bad = guards[:1] + [{"name": "soft_overlong", "params": {"max_length": 24}}]
    with pytest.raises(ConfigError, match="soft_overlong"):
        reward_preflight(load_config(None, {"reward_funcs": bad}), train)


def test_resume_compares_settings_only_when_a_checkpoint_exists(tmp_path):
    # a run that failed before training left resolved_config.yaml; --resume must
    # not hold the fixed config against it (here the run then stops at the preflight)
    from rlvr.train.job import run

    (tmp_path / "resolved_config.yaml").write_text("lora_r: 64\n", encoding="utf-8")
    cfg = load_config(None, {"output_dir": str(tmp_path), "reward_preset": "seed"})
    with pytest.raises(ConfigError, match="preflight refused"):
        run(cfg, resume=True)
    (tmp_path / "checkpoints" / "checkpoint-5").mkdir(parents=True)
    # a checkpoint folder without the completion marker was cut off while saving: no run yet
    with pytest.raises(ConfigError, match="preflight refused"):
        run(cfg, resume=True)
    (tmp_path / "checkpoints" / "checkpoint-5" / "rlvr_complete.json").write_text("{}")
    with pytest.raises(ConfigError, match="--resume: lora_r differ"):
        run(cfg, resume=True)
