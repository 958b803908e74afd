"""Shared test fixtures: paths to the shared data and a per-session model cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
SELFAWARE_JSON = SHARED_DATA / "selfaware" / "SelfAware.json"


@pytest.fixture(scope="session")
def selfaware_json() -> Path:
    if not SELFAWARE_JSON.is_file():
        pytest.fail(f"shared data missing: {SELFAWARE_JSON} (tests read ../shared/data)")
    return SELFAWARE_JSON


@pytest.fixture()
def keep_rewards():
    """Leave the reward registry as the test found it (user functions and reward models
    register themselves; other tests list the registry)."""
    from rlvr.rewards import REWARDS

    saved = dict(REWARDS)
    yield
    REWARDS.clear()
    REWARDS.update(saved)


# `eval_engine: auto` / `--engine auto` means transformers in this test session (runs and
# their subprocesses alike); the tests of vLLM name it, or unset this to test the default
os.environ.setdefault("RLVR_EVAL_ENGINE", "transformers")


@pytest.fixture(scope="session", autouse=True)
def _model_cache(tmp_path_factory):
    """Keep converted models in RLVR_CACHE_DIR if set, else in one temp dir per session."""
    if "RLVR_CACHE_DIR" not in os.environ:
        os.environ["RLVR_CACHE_DIR"] = str(tmp_path_factory.mktemp("rlvr-cache"))
    yield
