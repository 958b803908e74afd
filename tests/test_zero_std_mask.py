"""Zero-spread groups out of the loss (`rlvr.train.zero_std_mask`): which completions stay,
the masked batch counted by hand, and one real GRPO step whose loss sees the mask."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest

from rlvr.config import load_config
from rlvr.train.zero_std_mask import mask_batch, masked_trainer, zero_std_keep

# the user rewards these runs register are removed again (the registry is process-wide)
pytestmark = pytest.mark.usefixtures("keep_rewards")


@pytest.mark.parametrize("advantages, size, expected", [
    ([0.0, 0.0, 0.5, -0.5], 2, [False, False, True, True]),  # group 0 tied, group 1 not
    ([0.0, 0.0, 0.0, 0.0], 2, [False] * 4),  # every group tied
    ([0.0, 0.0, 0.0, 1e-3], 4, [True] * 4),  # one different advantage keeps the group
    ([2.98e-4, 2.98e-4], 2, [False, False]),  # tied in float32: equal, not zero
    ([0.0, 0.0, 0.0], 1, [False] * 3),  # G = 1: every group is tied
    ([], 2, []),
])
def test_zero_std_keep(advantages, size, expected):
    assert zero_std_keep(advantages, size) == expected


@pytest.mark.parametrize("size", [2, 3, 4, 8, 12, 16])
def test_every_tied_group_is_found_with_trls_float32_advantages(size):
    """TRL's formula in float32 (A = (r - mean) / (std + 1e-4), group scaling) on groups
    whose rewards all equal k/100 for k = 0..100, next to one group with spread: every
    tied group is masked, though its advantages are often about 1e-4, not 0."""
    import torch

    for k in range(101):
        rewards = torch.tensor([k / 100] * size + [0.0] * (size - 1) + [1.0], dtype=torch.float32)
        grouped = rewards.view(-1, size)
        mean = grouped.mean(dim=1).repeat_interleave(size)
        std = grouped.std(dim=1).repeat_interleave(size)
        advantages = (rewards - mean) / (std + 1e-4)
        assert zero_std_keep(advantages.tolist(), size) == [False] * size + [True] * size


@pytest.mark.parametrize("advantages, size", [([0.0] * 3, 2), ([0.0], 0)])
def test_zero_std_keep_refuses_a_ragged_batch(advantages, size):
    with pytest.raises(ValueError, match="groups of"):
        zero_std_keep(advantages, size)


class _Accelerator:
    """One process: gather is the identity (what accelerate does with one process)."""
    process_index = 0

    @staticmethod
    def gather(tensor):
        return tensor


def _fake_trainer(num_generations=2):
    from collections import defaultdict

    return SimpleNamespace(accelerator=_Accelerator(), num_generations=num_generations,
                           _metrics={"train": defaultdict(list)})


def test_mask_batch_by_hand():
    import torch

    trainer = _fake_trainer()
    # 2 groups of 2: group 0 tied (advantages 0, 0), group 1 not (+1, -1)
    completion_mask = torch.tensor([[1, 1, 1, 0], [1, 1, 0, 0], [1, 1, 1, 1], [1, 0, 0, 0]])
    output = {"advantages": torch.tensor([0.0, 0.0, 1.0, -1.0]),
              "completion_mask": completion_mask, "num_items_in_batch": torch.tensor(10)}
    mask_batch(trainer, output)
    assert output["tool_mask"].tolist() == [[0] * 4, [0] * 4, [1] * 4, [1] * 4]
    # loss tokens: rows 2 and 3 only = 4 + 1 = 5 (was 3 + 2 + 4 + 1 = 10)
    assert int(output["num_items_in_batch"]) == 5
    assert trainer._metrics["train"]["zero_std_masked_share"] == [0.5]  # 2 of 4 completions


def test_mask_batch_keeps_a_tool_mask():
    import torch

    trainer = _fake_trainer()
    output = {"advantages": torch.tensor([0.0, 0.0, 2.0, 0.0]),
              "completion_mask": torch.ones(4, 3, dtype=torch.long),
              "tool_mask": torch.tensor([[1, 0, 1]] * 4), "num_items_in_batch": torch.tensor(8)}
    mask_batch(trainer, output)
    # group 1 has a non-zero advantage, so both its rows keep their tool mask [1, 0, 1]
    assert output["tool_mask"].tolist() == [[0, 0, 0]] * 2 + [[1, 0, 1]] * 2
    assert int(output["num_items_in_batch"]) == 4  # 2 rows x 2 model tokens


def test_the_option_off_leaves_the_trainer_class_alone():
    class Base:
        pass

    assert masked_trainer(False, Base) is Base
    assert issubclass(masked_trainer(True, Base), Base)


REWARD = '''
def fixed(completions, **kwargs):
    """Group 0 of each batch ties (0.5, 0.5); group 1 does not (1.0, 0.0)."""
    return [[0.5, 0.5, 1.0, 0.0][i % 4] for i in range(len(completions))]
'''


def test_one_real_grpo_step_masks_the_tied_group(tmp_path, monkeypatch):
    from tiny_models import tiny_chat_llama, use_tiny_model

    from rlvr.train import grpo, job

    model, tokenizer = tiny_chat_llama()
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer, lambda: model)
    (tmp_path / "rewards.py").write_text(REWARD, encoding="utf-8")
    seen = []
    build = grpo.masked_trainer

    def recording(cfg, base):
        class Recording(build(cfg, base)):
            def compute_loss(self, model, inputs, *args, **kwargs):
                seen.append({k: inputs[k].clone() for k in
                             ("advantages", "completion_mask", "tool_mask", "num_items_in_batch")})
                return super().compute_loss(model, inputs, *args, **kwargs)
        return Recording

    monkeypatch.setattr(grpo, "masked_trainer", recording)
    run_dir = tmp_path / "run"
    cfg = load_config(None, {
        "output_dir": str(run_dir), "max_steps": 1, "max_completion_length": 4,
        "per_device_train_batch_size": 4, "num_generations": 2, "train_limit": 4,
        "gradient_accumulation_steps": 1, "skip_eval": True, "report_to": "none",
        "cross_check": "none", "diagnostics": False, "preflight": "off",
        "lora_target_modules": ["q_proj", "v_proj"], "mask_zero_std_groups": True,
        "reward_funcs": [{"name": "fixed", "function": f"{tmp_path / 'rewards.py'}:fixed"}]})
    report = job.run(cfg)
    assert report["meta"]["optimizer_steps"] == 1
    (inputs,) = seen
    rows_kept = inputs["tool_mask"].sum(dim=1) > 0
    tied = inputs["advantages"].abs() <= 1e-12
    assert rows_kept.tolist() == (~tied).tolist()  # rows are shuffled; the mask moved with them
    assert tied.sum() == 2  # the tied group: 2 completions
    kept_tokens = int((inputs["completion_mask"] * inputs["tool_mask"]).sum())
    assert int(inputs["num_items_in_batch"]) == kept_tokens
    logged = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert any(rec.get("zero_std_masked_share") == 0.5 for rec in logged)
