"""Shared test fixtures: paths to the shared data and a per-session model cache; and the
helpers several grader and sandbox test files share (imported as `from conftest import
...`: pytest puts tests/ on sys.path)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

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


# ---------------------------------------------------------------- grader property tests
# example budgets (answers.forms, .denial, .words, .match, .candidates, .math_compare,
# .numbers, the qa, gsm8k and math rewards, abstention_detection.rules)
FAST = settings(max_examples=80, deadline=None)
FEW = settings(max_examples=25, deadline=None)
GOLDS = ["Paris", "Canberra", "Jupiter", "Lisbon", "Armstrong"]
OTHERS = ["Lyon", "Sydney", "Mars", "Porto", "Aldrin"]


def contains(text: str, gold: str) -> float:
    from rlvr.rewards.qa import qa_reward

    return qa_reward(text, aliases=[gold], mode="contains").score


def selfaware(text: str, gold: str) -> str:
    from rlvr.rewards.selfaware import STRICT_PRESET, selfaware_reward

    return selfaware_reward(text, expected_answer=[gold], is_unanswerable=False,
                            **STRICT_PRESET).outcome


# ---------------------------------------------------------------- sandbox tests
# (tests/test_sandbox_attacks.py, test_sandbox_protocol.py, test_sandbox_properties.py)
SLOW = settings(max_examples=12, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow])
# run in the trusted process if the program reaches an `exec` there: prints the nonce
STEAL = ("import sys, os\nf = sys._getframe()\nwhile f is not None:\n"
         "    p = f.f_locals.get('payload')\n    if type(p) is dict and 'nonce' in p:\n"
         "        sys.stdout.flush()\n        os.write(1, ('\\n' + p['nonce'] + '\\n').encode())\n"
         "        os._exit(0)\n    f = f.f_back\n")


def check(*asserts: str) -> str:
    return "def check(candidate):\n" + "".join(f"    {a}\n" for a in asserts)


def _job(program, tests, entry_point, names, classes):
    return {"program": program, "tests": tests, "entry_point": entry_point,
            "program_names": names, "program_classes": classes}
