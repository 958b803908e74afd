"""rlvr: GRPO training on verifiable rewards, with calibration (self-awareness) first.

The pure parts (rewards, abstention detection, objectives math, metrics, data loaders)
import only the standard library; torch, transformers, TRL and PEFT are imported inside
the modules that drive models (`rlvr.models`, `rlvr.train`, `rlvr.eval.generate`).

Importing rlvr sets one process default, only when the user has set neither it nor
`OMP_WAIT_POLICY`: `GOMP_SPINCOUNT=1000`, read by the OpenMP runtime torch's CPU build uses
(GNU libgomp) when torch is first imported. An idle OpenMP thread then spins about a
thousand times before it sleeps, instead of libgomp's default 300,000. Measured on 2 cores
(`benchmarks/thread_contention.py`, docs/measured.md): two processes of 2 threads each on
the same cores did 0.30x the work of one process alone with libgomp's default, and 1.14x with
this setting, while one process alone ran as fast as with the default (4.6 s per pass
against 4.4-5.3 s).
"""

import os as _os

if "OMP_WAIT_POLICY" not in _os.environ:
    _os.environ.setdefault("GOMP_SPINCOUNT", "1000")

__version__ = "0.1.0"
