"""The one generation engine of a training run's evaluation stages.

`rlvr train` answers with the base model before training (held-out answers, sampled
knowledge labels, the training rows' labels, the decision rule's answer-forced samples) and
with the trained model after (held-out answers, decision samples). `RunGenerator` hands each
stage the object it generates with (`rlvr.eval.runner.generate_task_records` accepts both):

- engine "transformers": the run's loaded model (base, then trained);
- engine "vllm" (`eval_engine: auto` with vLLM installed, or `vllm`): one
  `rlvr.eval.vllm_engine.VllmEngine` on the base model folder, float32, built at the first
  stage that generates, closed before training (`close`: an engine alive in the training
  process slowed a forward and backward pass of the default model from 2.5-2.9 s to
  2.7-4.0 s, measured on 2 cores, docs/measured.md; a rebuild takes a few seconds), built
  again for the trained stages with the trained model's weights (LoRA merged) loaded into
  it, and closed when the run ends.
  Greedy answers equal transformers' float32 greedy answers (docs/measured.md); sampled
  answers (K > 1 knowledge labels, decision samples) come from the same distribution, not
  the same draws.

A multi-process run (`WORLD_SIZE` > 1) generates with the loaded model on every stage: one
engine per rank would multiply the memory. The engine holds the sequences
vLLM's scheduler allows (its default, 256 on CPU): as many answers in flight as fit, refilled
as each ends.
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
logger = logging.getLogger(__name__)


class RunGenerator:
    """The generator of each evaluation stage of one run (module docstring).

    Args:
        engine: "transformers" or "vllm" (resolved, as `EvalSettings.engine` holds it).
        model_path: the base model folder (`rlvr.models.resolve_model`).
        seed: the engine's seed (sampled stages also pass a per-request seed).
    Attributes:
        stages: {stage name: "vllm" | "transformers"}, filled as stages ask (the report's
            `meta.engines`); startup_s: seconds spent building the engine (every build),
            builds: how many times it was built, reload_s: loading the trained weights into
            it (None = not done).
    """

    def __init__(self, engine: str, model_path: str, seed: int = 0):
        distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1
        self.engine = "transformers" if distributed else engine
        self.model_path, self.seed = model_path, seed
        self.stages: dict[str, str] = {}
        self.startup_s: float | None = None
        self.reload_s: float | None = None
        self.builds = 0
        self._vllm = None
        self._weights = None  # the model whose weights the engine holds (None = base)

    def _built(self):
        if self._vllm is None:
            from rlvr.eval.vllm_engine import VllmEngine

            start = time.perf_counter()
            self._vllm = VllmEngine(self.model_path, "float32", seed=self.seed)
            self._vllm.llm  # noqa: B018 - build now, outside the stage's timing
            self.startup_s = (self.startup_s or 0.0) + time.perf_counter() - start
            self.builds += 1
            logger.info("vLLM engine built in %.1f s for the evaluation stages",
                        self.startup_s)
        return self._vllm

    def base(self, model, stage: str):
        """The generator of a base-model stage: the vLLM engine (the base weights it was
        built from), or `model`.
        Raises: RuntimeError: asked after a trained stage loaded other weights."""
        if self.engine != "vllm":
            self.stages[stage] = "transformers"
            return model
        engine = self._built()
        if self._weights is not None:
            raise RuntimeError("the engine holds the trained weights; base stages run first")
        self.stages[stage] = "vllm"
        return engine

    def trained(self, model, stage: str):
        """The generator of a trained-model stage: the vLLM engine with `model`'s weights
        (a PEFT model's LoRA merged into the base weights, `merged_weights`), loaded into
        the engine once by vLLM's layer-wise reload (`reload_engine_weights`, about 1 s
        for the default model), or `model` itself on the transformers engine.

        Why not the adapter as a LoRA request: measured on the default model and 147
        held-out questions, vLLM's CPU LoRA path took 134-156 s where the same engine
        without it took 25 s (docs/measured.md)."""
        if self.engine != "vllm":
            self.stages[stage] = "transformers"
            return model
        engine = self._built()
        if self._weights is not model:
            from rlvr.eval.vllm_engine import merged_weights, reload_engine_weights

            start = time.perf_counter()
            reload_engine_weights(engine.llm, merged_weights(model))
            self.reload_s = time.perf_counter() - start
            self._weights = model
        engine.adapter = None
        self.stages[stage] = "vllm"
        return engine

    def close(self) -> None:
        """Shut the engine down (frees its weights and KV cache); safe to call twice."""
        if self._vllm is not None:
            self._vllm.close()
            self._vllm = None
            import gc

            gc.collect()

