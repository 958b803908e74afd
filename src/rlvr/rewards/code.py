"""`code` reward: run the response's program against the task's tests in the sandbox.

Two task formats:

* HumanEval (fields `prompt`, `test`, `entry_point`): when the response defines
  `def <entry_point>(`, the program is the prompt followed by the response's code (the
  prompt's imports and helpers stay available; the new definition replaces the stub);
  otherwise the response is taken as the body that continues the prompt. The test code
  defines `check(candidate)`, which the harness calls with the entry point. The prompt
  also goes to the sandbox as the trusted `reference`: the tests see the prompt's own
  helpers (HumanEval/50's `encode_shift`), not versions the response redefined.
* MBPP (fields `test_list`, `test_setup_code`): the program is the response's code; the
  tests are the setup code followed by the asserts.

Code inside Markdown fences is extracted (the last fenced block that defines the entry
point, else the last fenced block). The program never runs in this process: see
`rlvr.sandbox` for the isolation and for how the verdict is reached. Batches (the TRL
adapter, `rlvr score`) run in parallel workers.
"""

from __future__ import annotations

import re
from typing import Any

from rlvr.rewards.base import RewardResult, register_reward
from rlvr.sandbox import SandboxLimits, SandboxResult, run_many

_FENCE_RE = re.compile(r"```[ \t]*(?:python3?|py)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)


def extract_code(completion: str, entry_point: str | None = None) -> str:
    """The code in a response: a fenced block if there is one, else the whole text."""
    blocks = _FENCE_RE.findall(completion)
    if not blocks:
        return completion
    if entry_point:
        defining = [b for b in blocks if re.search(rf"\bdef\s+{re.escape(entry_point)}\s*\(", b)]
        if defining:
            return defining[-1]
    return blocks[-1]


def prompt_reference(prompt: str) -> str | None:
    """The task prompt as a module that compiles (a `pass` body added to a bare stub), or
    None when it does not compile either way (nothing is then restored for the tests)."""
    if not prompt.strip():
        return None
    for source in (prompt, f"{prompt}\n    pass\n"):
        try:
            compile(source, "<prompt>", "exec")
            return source
        except (SyntaxError, ValueError):
            continue
    return None


def build_job(completion: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The program, tests, entry point and prompt reference to run for one response.

    Returns:
        dict with `program`, `tests`, `entry_point` and `reference` (see
        `rlvr.sandbox.run_tests`; None for MBPP tasks, which have no prompt code).
    Raises:
        ValueError: the fields hold neither HumanEval `test` nor MBPP `test_list`.
    """
    entry_point = fields.get("entry_point")
    if fields.get("test"):
        prompt = fields.get("prompt") or ""
        code = extract_code(completion, entry_point)
        if entry_point and re.search(rf"\bdef\s+{re.escape(entry_point)}\s*\(", code):
            program = f"{prompt}\n    pass\n\n{code}\n" if prompt.rstrip().endswith(":") else \
                f"{prompt}\n\n{code}\n"
        else:
            program = prompt + completion
        return {"program": program, "tests": fields["test"], "entry_point": entry_point,
                "reference": prompt_reference(prompt)}
    tests = fields.get("test_list")
    if tests:
        if isinstance(tests, str):
            tests = [tests]
        setup = fields.get("test_setup_code") or ""
        return {"program": extract_code(completion, entry_point),
                "tests": setup + "\n" + "\n".join(tests) + "\n", "entry_point": None,
                "reference": None}
    raise ValueError("code reward needs HumanEval `test` (+ `entry_point`) or MBPP `test_list`")


def _result(res: SandboxResult, passed: float, failed: float) -> RewardResult:
    details = {"reason": res.reason, "duration_s": round(res.duration_s, 4)}
    return RewardResult(passed if res.passed else failed, res.status, details)


def code_batch(completions: list[str], rows: list[dict[str, Any]], *, timeout_s: float = 5.0,
               memory_mb: int = 1024, workers: int | None = None, passed: float = 1.0,
               failed: float = 0.0) -> list[RewardResult]:
    """Score a batch of responses in parallel sandboxed workers (see `code_reward`)."""
    limits = SandboxLimits(timeout_s=timeout_s, memory_mb=memory_mb)
    results: list[RewardResult | None] = [None] * len(completions)
    jobs, where = [], []
    for i, (completion, fields) in enumerate(zip(completions, rows)):
        if not (completion or "").strip():
            results[i] = RewardResult(failed, "no_code", {"reason": "empty response"})
            continue
        try:
            jobs.append(build_job(completion, fields))
        except ValueError as exc:
            results[i] = RewardResult(None, "bad_task", {"reason": str(exc)})
            continue
        where.append(i)
    for i, res in zip(where, run_many(jobs, workers=workers, limits=limits)):
        results[i] = _result(res, passed, failed)
    return results  # type: ignore[return-value]


@register_reward("code", fields=(), required_any=("test", "test_list"),
                 optional_fields=("prompt", "entry_point", "test_setup_code"),
                 score_range=(0.0, 1.0), batch_core=code_batch)
def code_reward(completion: str, *, timeout_s: float = 5.0, memory_mb: int = 1024,
                workers: int | None = None, passed: float = 1.0, failed: float = 0.0,
                **fields: Any) -> RewardResult:
    """1.0 when the response's program passes every test of its task, else 0.0.

    Args:
        completion: the response (code, possibly in Markdown fences).
        timeout_s: wall-clock seconds per program (CPU limit ceil(timeout_s) + 1 s).
        memory_mb: address-space limit per program, in MiB.
        workers: parallel programs in a batch (default: number of CPUs).
        passed, failed: the two scores (kept within [0, 1]).
        **fields: HumanEval `prompt`, `test`, `entry_point`, or MBPP `test_list`,
            `test_setup_code`.
    Returns:
        RewardResult with outcome `passed`, `failed`, `timeout`, `error` (the sandbox
        could not run), `no_code` (empty response) or `bad_task` (score None: no tests).
        Details: `reason` (the harness's note, untrusted), `duration_s`.
    Source: HumanEval (Chen et al., 2021) and MBPP (Austin et al., 2021) task formats;
        the verdict protocol is rlvr's (`rlvr.sandbox`).
    """
    return code_batch([completion], [fields], timeout_s=timeout_s, memory_mb=memory_mb,
                      workers=1, passed=passed, failed=failed)[0]
