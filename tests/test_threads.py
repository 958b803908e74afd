"""Process thread settings: the cores rlvr counts, and the OpenMP spin count importing rlvr
sets (benchmarks/thread_contention.py measures why)."""

import os
import subprocess
import sys

from rlvr.hardware import available_cores


def test_available_cores_reads_affinity_and_quota(tmp_path):
    quota = tmp_path / "cpu.max"
    assert available_cores({0, 1, 2, 3}, str(tmp_path / "missing")) == 4
    quota.write_text("max 100000\n")
    assert available_cores({0, 1, 2, 3}, str(quota)) == 4
    quota.write_text("150000 100000\n")  # 1.5 cores of quota -> 2 (rounded up)
    assert available_cores({0, 1, 2, 3}, str(quota)) == 2
    quota.write_text("50000 100000\n")  # half a core -> 1
    assert available_cores({0, 1, 2, 3}, str(quota)) == 1
    quota.write_text("garbage\n")  # unreadable: the mask alone
    assert available_cores({0, 1}, str(quota)) == 2
    assert available_cores(set(), str(quota)) == 1  # never 0


def _spincount(env):
    code = "import os, rlvr; print(os.environ.get('GOMP_SPINCOUNT'))"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True).stdout.strip()


def test_import_sets_spincount_only_when_the_user_did_not():
    env = {k: v for k, v in os.environ.items()
           if k not in ("GOMP_SPINCOUNT", "OMP_WAIT_POLICY")}
    assert _spincount(env) == "1000"
    assert _spincount({**env, "GOMP_SPINCOUNT": "5"}) == "5"
    assert _spincount({**env, "OMP_WAIT_POLICY": "ACTIVE"}) == "None"
