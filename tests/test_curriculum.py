"""GRPO curriculum: prompt history, retire rule, sampler (rlvr.train.curriculum.history) and the
TRL hook (rlvr.train.curriculum.trainer)."""

from __future__ import annotations

import itertools
import json
import math

import pytest

from rlvr.errors import ConfigError, RlvrError
from rlvr.train.curriculum.history import CurriculumSampler, PromptHistory, group_outcome
from tiny_models import tiny_llama

SOLVED, MIXED, FAILED = [1.0, 1.0], [1.0, -1.0], [-1.0, -1.0]


def history(n=6, **kw) -> PromptHistory:
    kw = {"window": 2, "solved_reward": 1.0, "failed_reward": -1.0, "min_active": 2, **kw}
    return PromptHistory(n, **kw)


# --- group outcomes -----------------------------------------------------------------------

def test_group_outcome_hand_computed():
    o = group_outcome([1.0, 1.0], 3, solved_reward=1.0, failed_reward=-1.0)
    assert (o.step, o.mean, o.spread, o.solved, o.failed) == (3, 1.0, False, True, False)
    # [1, -1]: mean 0, sample std sqrt((1 + 1) / 1) = 1.414 > 0
    o = group_outcome(MIXED, 1, 1.0, -1.0)
    assert (o.mean, o.spread, o.solved, o.failed) == (0.0, True, False, False)
    o = group_outcome(FAILED, 1, 1.0, -1.0)
    assert (o.mean, o.spread, o.solved, o.failed) == (-1.0, False, False, True)
    # an unscorable completion (None or NaN) is left out: [1.0] alone is solved, no spread
    o = group_outcome([None, 1.0], 1, 1.0)
    assert (o.mean, o.spread, o.solved, o.failed) == (1.0, False, True, False)
    o = group_outcome([math.nan, None], 1, 1.0, -1.0)
    assert (o.mean, o.spread, o.solved, o.failed) == (None, False, False, False)
    # weighted sums are floats: 0.1 + 0.2 = 0.30000000000000004 reaches 0.3; 0.29 does not
    assert group_outcome([0.1 + 0.2] * 2, 1, 0.3).solved
    assert not group_outcome([0.3, 0.29], 1, 0.3).solved
    # std of [0.5, 0.5 + 1e-9] is 7.1e-10 <= 1e-8: zero spread, as torch.isclose in TRL
    assert not group_outcome([0.5, 0.5 + 1e-9], 1, 1.0).spread


# --- retire rule --------------------------------------------------------------------------

def test_retires_after_window_solved_groups():
    h = history()
    assert h.record(0, SOLVED, step=1) == []          # 1 of 2 groups
    assert h.record(0, SOLVED, step=2) == [("retired", 0)]
    assert h.retired == [{"id": 0, "step": 2, "reason": "solved"}]
    assert h.num_active == 5 and not h.is_active(0) and h.is_active(1)
    assert h.groups_seen(0) == 2 and [o.step for o in h.recent(0)] == [1, 2]


def test_a_mixed_group_in_the_window_prevents_retirement():
    h = history()
    assert h.record(1, SOLVED, 1) == []
    assert h.record(1, MIXED, 2) == []     # window [solved, mixed]
    assert h.record(1, SOLVED, 3) == []    # window [mixed, solved]
    assert h.record(1, SOLVED, 4) == [("retired", 1)]
    assert h.retired == [{"id": 1, "step": 4, "reason": "solved"}]


def test_failed_prompts_retire_only_when_enabled():
    off, on = history(), history(retire_failed=True)
    for step in (1, 2):
        off.record(2, FAILED, step)
        on.record(2, FAILED, step)
    assert off.retired == [] and off.num_active == 6
    assert on.retired == [{"id": 2, "step": 2, "reason": "failed"}]
    with pytest.raises(ConfigError, match="failed threshold"):
        PromptHistory(4, solved_reward=1.0, retire_failed=True)


def test_floor_reinstates_the_prompt_retired_first():
    h = history(n=3, window=1, min_active=2)
    assert h.record(0, SOLVED, 1) == [("retired", 0)]            # 3 -> 2 active
    # retiring 1 would leave 1 < 2 active: 0 (retired first) comes back, window cleared
    assert h.record(1, SOLVED, 2) == [("reinstated", 0), ("retired", 1)]
    assert h.num_active == 2 and h.is_active(0) and h.recent(0) == []
    assert h.record(2, SOLVED, 3) == [("reinstated", 1), ("retired", 2)]
    assert [r["id"] for r in h.retired] == [2] and h.reinstated == 2
    # with nothing retired and num_prompts == floor, a solved prompt stays active
    flat = history(n=2, window=1, min_active=2)
    assert flat.record(0, SOLVED, 1) == [] and flat.num_active == 2
    with pytest.raises(ConfigError, match="at least 3 training prompts"):
        history(n=2, min_active=3)


def test_groups_of_a_retired_prompt_change_nothing_and_bad_batches_fail():
    h = history(window=1)
    h.record(0, SOLVED, 1)
    assert h.record(0, MIXED, 2) == [] and not h.is_active(0) and h.groups_seen(0) == 2
    # record_batch: prompt-major groups of G = 2 -> prompt 3 mixed, prompt 4 solved
    assert h.record_batch([3, 3, 4, 4], [1.0, 0.0, 1.0, 1.0], 2, 3) == [("retired", 4)]
    with pytest.raises(RlvrError, match="several prompt ids"):
        h.record_batch([1, 2], [1.0, 1.0], 2, 4)
    with pytest.raises(RlvrError, match="groups of num_generations=2"):
        h.record_batch([1, 1, 2], [1.0] * 3, 2, 4)
    with pytest.raises(RlvrError, match="outside 0..5"):
        h.record(6, SOLVED, 4)


def test_history_state_round_trips_through_json():
    h = history(retire_failed=True)
    for step, (pid, rewards) in enumerate([(0, SOLVED), (1, MIXED), (0, SOLVED), (2, FAILED),
                                           (2, [None, -1.0]), (3, SOLVED)], start=1):
        h.record(pid, rewards, step)
    state = json.loads(json.dumps(h.state_dict()))
    assert state["retired"] == [{"id": 0, "step": 3, "reason": "solved"},
                                {"id": 2, "step": 5, "reason": "failed"}]
    assert state["recent"]["1"] == [[2, 0.0, True, False, False]]
    copy = history(retire_failed=True)
    copy.load_state_dict(state)
    assert copy.state_dict() == h.state_dict()
    # both continue alike: prompt 3 retires at its second solved group
    assert copy.record(3, SOLVED, 7) == h.record(3, SOLVED, 7) == [("retired", 3)]
    with pytest.raises(RlvrError, match="for 6 prompts"):
        history(n=7).load_state_dict(state)
    with pytest.raises(RlvrError, match="malformed"):
        history().load_state_dict({**state, "retired": [{"id": 1}]})


# --- sampler ------------------------------------------------------------------------------

def chunks(stream, size):
    """Split an index list into consecutive lists of `size`."""
    return [stream[i:i + size] for i in range(0, len(stream), size)]


def test_sampler_contract_repeats_and_batch_shape():
    # RepeatSampler's example: 7 prompts, G = 2, 3 prompts per chunk, chunk repeated 4x
    sampler = CurriculumSampler(history(n=7, min_active=3), mini_repeat_count=2,
                                batch_size=3, repeat_count=4, seed=1)
    stream = list(sampler)
    assert len(stream) == len(sampler) == (7 // 3) * 3 * 2 * 4 == 48
    drawn = []
    for chunk in chunks(stream, 24):                      # one chunk: 3 x 2 x 4 indices
        copies = chunks(chunk, 6)
        assert all(c == copies[0] for c in copies)        # repeated repeat_count times
        pairs = chunks(copies[0], 2)
        assert all(a == b for a, b in pairs)              # each index G times in a row
        drawn.append([a for a, _ in pairs])
        assert len(set(drawn[-1])) == 3                   # distinct prompts
    assert len(set(drawn[0] + drawn[1])) == 6             # one pass: no prompt twice


def test_sampler_passes_in_order_without_shuffle():
    sampler = CurriculumSampler(history(n=7, min_active=3), mini_repeat_count=1,
                                batch_size=3, shuffle=False)
    assert list(sampler) == [0, 1, 2, 3, 4, 5]
    # epoch 1: pass 0 has 6 left; pass 1 = 0..6 with 6 (already in the chunk) moved last
    assert list(sampler) == [6, 0, 1, 2, 3, 4]
    assert list(sampler) == [5, 6, 0, 1, 2, 3]


def test_sampler_draws_only_active_prompts_and_sees_retirements_at_the_next_draw():
    h = history(n=6, window=1)
    h.record(1, SOLVED, 1)
    sampler = CurriculumSampler(h, mini_repeat_count=1, batch_size=2, shuffle=False)
    # pass 0 = [0, 2, 3, 4, 5] (1 retired); the third chunk opens pass 1 = [0, 2, 3, 4, 5]
    # with 5 deferred -> [5, 0]
    assert list(sampler) == [0, 2, 3, 4, 5, 0]
    h2 = history(n=6, window=1)
    it = iter(CurriculumSampler(h2, mini_repeat_count=1, batch_size=2, shuffle=False))
    assert [next(it), next(it)] == [0, 1]
    h2.record(2, SOLVED, 1)                 # retired before the next chunk is drawn
    assert list(it) == [3, 4, 5, 0]         # pass 0 rest [2, 3, 4, 5] minus 2; pass 1


def test_sampler_is_seeded():
    def first_epoch(seed):
        return list(CurriculumSampler(history(n=12), mini_repeat_count=1, batch_size=2, seed=seed))
    assert first_epoch(3) == first_epoch(3)
    assert first_epoch(3) != first_epoch(4)
    assert sorted(first_epoch(3)) == list(range(12))      # one full pass per epoch here
    with pytest.raises(ConfigError, match="below the 3 prompts"):
        CurriculumSampler(history(min_active=2), mini_repeat_count=2, batch_size=3)


# The reward rule of the simulated runs: prompts 0 and 3 are always solved; prompt 5 from
# step 5 on; the others are mixed.
def outcome(prompt_id, step):
    return SOLVED if prompt_id in (0, 3) or (prompt_id == 5 and step >= 5) else MIXED


def lookahead(batches):
    """accelerate's DataLoaderShard: yield each batch after reading the next one."""
    it = iter(batches)
    current = next(it, None)
    for following in it:
        yield current
        current = following
    if current is not None:
        yield current


def simulate(sampler, hist, last_step, start_step=1, save_at=None):
    """Drive the sampler like HF Trainer + accelerate (G = 2, one chunk per step, one batch
    read ahead, resumed epochs set by set_epoch and skipped batch by batch); returns the
    trained chunk per step and the states saved after step `save_at`."""
    trained, saved = {}, None
    per_epoch = sampler.chunks_per_epoch
    step = start_step
    epoch, skip = divmod(start_step - 1, per_epoch)
    while step <= last_step:
        sampler.set_epoch(epoch)
        stream = iter(sampler)
        batches = (b for i, b in enumerate(iter(lambda: list(itertools.islice(stream, 4)), []))
                   if i >= skip)
        for batch in lookahead(batches):                  # 2 prompts x G = 2
            hist.record_batch(batch, [r for p in batch[::2] for r in outcome(p, step)], 2, step)
            trained[step] = batch[::2]
            if step == save_at:
                saved = json.loads(json.dumps({"history": hist.state_dict(),
                                               "sampler": sampler.state_dict()}))
            step += 1
            if step > last_step:
                break
        epoch, skip = epoch + 1, 0
    return trained, saved


@pytest.mark.parametrize("save_at", [2, 3, 4, 7])
def test_resume_reproduces_the_uninterrupted_draws(save_at):
    def fresh():
        h = PromptHistory(6, window=2, solved_reward=1.0, min_active=2)
        return h, CurriculumSampler(h, mini_repeat_count=2, batch_size=2, seed=5)

    h, s = fresh()
    full, saved = simulate(s, h, last_step=12, save_at=save_at)
    # a prompt retired at step t is in no chunk drawn after that (from step t + 2 on)
    for r in h.retired:
        assert all(r["id"] not in full[t] for t in range(r["step"] + 2, 13))
    assert {r["id"] for r in h.retired} >= {0, 3}
    h2, s2 = fresh()
    h2.load_state_dict(saved["history"])
    s2.load_state_dict(saved["sampler"])
    resumed, _ = simulate(s2, h2, last_step=12, start_step=save_at + 1)
    assert resumed == {t: full[t] for t in range(save_at + 1, 13)}
    assert h2.state_dict() == h.state_dict()


def test_sampler_state_refuses_other_settings():
    h = history()
    state = CurriculumSampler(h, mini_repeat_count=2, batch_size=2, seed=1).state_dict()
    with pytest.raises(RlvrError, match="seed=1"):
        CurriculumSampler(h, mini_repeat_count=2, batch_size=2, seed=2).load_state_dict(state)


# --- thresholds and the TRL hook ------------------------------------------------------------

def test_curriculum_modules_do_not_import_torch():
    import subprocess
    import sys

    code = ("import sys, rlvr.train.curriculum.history, rlvr.train.curriculum.trainer; "
            "print(sorted(m for m in ('torch', 'transformers', 'trl') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_reward_bounds_hand_computed():
    from rlvr.train.curriculum.trainer import question_text, reward_bounds

    # selfaware (-1, 1) x 1 + gsm8k_format (0, 0.5) x 2 = (-1 + 0, 1 + 1.0)
    assert reward_bounds([{"name": "selfaware"}, {"name": "gsm8k_format", "weight": 2.0}]) \
        == (-1.0, 2.0)
    # a negative weight swaps the ends: cosine_scaled (-1, 1) x -0.5 -> (-0.5, 0.5)
    assert reward_bounds([{"name": "cosine_scaled", "weight": -0.5}]) == (-0.5, 0.5)
    prompt = [{"role": "system", "content": "s"}, {"role": "user", "content": "Capital?"},
              {"role": "assistant", "content": "Lisbon."}, {"role": "user", "content": "Q?"}]
    assert question_text(prompt) == "Q?" and question_text("w1 w2") == "w1 w2"


def test_thresholds_and_config_checks():
    from rlvr.config import TrainConfig
    from rlvr.train.curriculum.trainer import curriculum_thresholds

    # selfaware alone: its declared score range (-1, 1)
    assert curriculum_thresholds(TrainConfig(curriculum=True)) == (1.0, -1.0)
    assert curriculum_thresholds(TrainConfig(curriculum_solved_reward=0.5,
                                             curriculum_failed_reward=-0.5)) == (0.5, -0.5)
    with pytest.raises(ConfigError, match="curriculum_window must be >= 1"):
        TrainConfig(curriculum_window=0)
    with pytest.raises(ConfigError, match="must be below curriculum_solved_reward"):
        TrainConfig(curriculum_solved_reward=0.0, curriculum_failed_reward=0.0)


def test_trl_curriculum_retires_saves_and_resumes(tmp_path):
    pytest.importorskip("trl")
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from rlvr.config import TrainConfig
    from rlvr.train.curriculum.trainer import (STATE_FILE, CurriculumSettings,
                                               curriculum_trainer, write_curriculum_retired)

    assert CurriculumSettings.from_config(TrainConfig()) is None  # off
    assert curriculum_trainer(None, GRPOTrainer) is GRPOTrainer   # off: unchanged
    cfg = TrainConfig(curriculum=True, curriculum_window=2, curriculum_solved_reward=1.0)
    trainer_class = curriculum_trainer(CurriculumSettings.from_config(cfg), GRPOTrainer)
    prompts = [f"w{2 * i} w{2 * i + 1}" for i in range(6)]

    def run(out, resume=None):
        seen, saves = {}, {}

        def reward(completions, prompts, curriculum_id, trainer_state, **kwargs):
            # prompt 0 always scores 1.0 (solved), the others 0.0
            seen[trainer_state.global_step + 1] = sorted(set(curriculum_id))
            return [1.0 if i == 0 else 0.0 for i in curriculum_id]

        class MarkerCallback(TrainerCallback):
            """Like rlvr's checkpoint-complete marker: its on_save must see curriculum.json."""

            def on_save(self, args, state, control, **kwargs):
                folder = out / f"checkpoint-{state.global_step}"
                saves[state.global_step] = (folder / STATE_FILE).is_file()

        model, tokenizer = tiny_llama(12)
        args = GRPOConfig(output_dir=str(out), num_generations=2, per_device_train_batch_size=4,
                          max_completion_length=2, max_steps=9, save_steps=4, logging_steps=1,
                          beta=0.0, learning_rate=1e-3, report_to="none", use_cpu=True,
                          seed=0, disable_tqdm=True)
        trainer = trainer_class(model=model, reward_funcs=[reward], args=args,
                                processing_class=tokenizer, callbacks=[MarkerCallback()],
                                train_dataset=Dataset.from_dict({"prompt": prompts}))
        trainer.train(resume_from_checkpoint=resume)
        assert saves and all(saves.values())
        return trainer, seen

    trainer, seen = run(tmp_path / "a")
    assert sorted(seen) == list(range(1, 10)) and all(len(ids) == 2 for ids in seen.values())
    with_zero = [s for s in sorted(seen) if 0 in seen[s]]
    retired = trainer.curriculum_history.retired
    # prompt 0 retires at its second (solved) group; 6 prompts / 2 per step = a pass per 3
    # steps, so that is by step 6; from two steps later it is never drawn again
    assert retired == [{"id": 0, "step": with_zero[1], "reason": "solved"}]
    assert with_zero[1] <= 6 and all(s <= with_zero[1] + 1 for s in with_zero)
    logged = [e["curriculum/active_prompts"] for e in trainer.state.log_history
              if "curriculum/active_prompts" in e]
    assert len(logged) == 9 and logged[-1] == 5.0 and logged[0] == 6.0
    # curriculum.json in every checkpoint; at step 4: 4 steps x 2 prompts = 8 groups
    state4 = json.loads((tmp_path / "a" / "checkpoint-4" / STATE_FILE).read_text())
    assert sum(state4["history"]["groups_seen"].values()) == 8
    state8 = json.loads((tmp_path / "a" / "checkpoint-8" / STATE_FILE).read_text())
    assert [r["id"] for r in state8["history"]["retired"]] == [0]
    summary = write_curriculum_retired(trainer, tmp_path)
    saved = json.loads((tmp_path / "curriculum_retired.json").read_text())
    assert saved == summary and saved["retired_prompts"] == 1 and saved["active_prompts"] == 5
    assert saved["retired"][0]["question"] == "w0 w1" and saved["retired"][0]["groups_seen"] >= 2
    assert write_curriculum_retired(object(), tmp_path / "none") is None

    # resume from step 4: the curriculum state is restored and the draws are the same
    resumed, seen_resumed = run(tmp_path / "b", resume=str(tmp_path / "a" / "checkpoint-4"))
    assert seen_resumed == {s: seen[s] for s in range(5, 10)}
    assert resumed.curriculum_history.state_dict() == trainer.curriculum_history.state_dict()
    # a checkpoint of other training rows is refused; one without the file starts afresh
    model, tokenizer = tiny_llama(12)
    other = trainer_class(model=model, reward_funcs=[lambda completions, **kw: [0.0] * 4],
                          args=GRPOConfig(output_dir=str(tmp_path / "c"), num_generations=2,
                                          per_device_train_batch_size=4, report_to="none",
                                          use_cpu=True),
                          processing_class=tokenizer,
                          train_dataset=Dataset.from_dict({"prompt": prompts[::-1]}))
    with pytest.raises(RlvrError, match="other training rows"):
        other.load_curriculum(tmp_path / "a" / "checkpoint-4")
    assert other.load_curriculum(tmp_path) is False
