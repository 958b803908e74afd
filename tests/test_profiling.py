"""rlvr.train.profiling: the FLOP count of a GRPO step (hand-computed) and the step
profiler on a stand-in trainer (no model)."""

import pytest

from rlvr.train.profiling import PARTS, StepProfiler, step_flops


def test_step_flops_by_hand():
    # N = 100, P = 3, C = 2 (T = 5), B = 4, L = 2, d = 10:
    # attention per sequence = 2 L d T^2 = 2 * 2 * 10 * 25 = 1000
    # one forward per sequence = 2 N T + 1000 = 1000 + 1000 = 2000; x B = 8000
    # generate = 8000; ref = 8000 (beta > 0); policy fwd + bwd = 2 x 8000 = 16000
    flops = step_flops(100, 3, 2, 4, beta=0.1, layers=2, hidden=10)
    assert flops == {"generate": 8000.0, "ref_forward": 8000.0, "policy_fwd_bwd": 16000.0,
                     "total": 32000.0}


def test_step_flops_without_reference_or_attention():
    # beta 0: no reference pass; L = d = 0: 2 N T B = 2 * 100 * 5 * 4 = 4000 per forward
    flops = step_flops(100, 3, 2, 4, beta=0.0)
    assert flops == {"generate": 4000.0, "ref_forward": 0.0, "policy_fwd_bwd": 8000.0,
                     "total": 12000.0}


def test_step_flops_refuses_negative_counts():
    with pytest.raises(ValueError):
        step_flops(100, -1, 2, 4, beta=0.0)


def test_step_profiler_splits_a_step():
    pytest.importorskip("transformers")
    import torch

    class Accelerator:
        def backward(self, loss):
            return None

    class FakeTrainer:
        """The methods StepProfiler wraps, and add_callback."""

        def __init__(self):
            self.accelerator = Accelerator()
            self.callbacks = []

        def _generate(self, prompts):
            return prompts

        def _calculate_rewards(self, *args):
            return [1.0]

        def _get_per_token_logps_and_entropies(self, *args):
            return None

        def add_callback(self, callback):
            self.callbacks.append(callback)

    class State:
        global_step = 0

    trainer, records = FakeTrainer(), []
    profiler = StepProfiler(records.append).attach(trainer)
    callback, state = trainer.callbacks[0], State()
    for _ in range(2):
        callback.on_step_begin(None, state, None)
        trainer._generate(["p"])
        trainer._calculate_rewards()
        with torch.no_grad():
            trainer._get_per_token_logps_and_entropies()
        trainer._get_per_token_logps_and_entropies()
        trainer.accelerator.backward(0.0)
        callback.on_pre_optimizer_step(None, state, None)
        callback.on_optimizer_step(None, state, None)
        state.global_step += 1
    callback.on_train_end(None, state, None)
    assert len(profiler.steps) == 2 and [r["step"] for r in records] == [1, 2]
    for step in profiler.steps:
        assert set(PARTS) <= set(step) and step["step"] >= 0
        # the parts and `other` add up to the step's wall time
        assert abs(sum(step[p] for p in PARTS) + step["other"] - step["step"]) < 1e-9


def test_compact_logprobs_turns_the_compact_path_on_for_cpus():
    pytest.importorskip("trl")
    import torch
    import trl.trainer.utils as trl_utils

    from rlvr.train.speedups import compact_logprobs

    assert compact_logprobs() and compact_logprobs()  # idempotent
    assert trl_utils._use_triton(torch.device("cpu")) is True
    assert trl_utils._use_triton.rlvr_compact
