"""rlvr: GRPO training on verifiable rewards, with calibration (self-awareness) first.

The pure parts (rewards, abstention detection, objectives math, metrics, data loaders)
import only the standard library; torch, transformers, TRL and PEFT are imported inside
the modules that drive models (`rlvr.models`, `rlvr.train`, `rlvr.eval.generate`).
"""

__version__ = "0.1.0"
