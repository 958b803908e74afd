"""Run inside the engines' environment (`scripts/install_engines.sh` builds .venv-verl, which
also holds OpenRLHF's wheel): do the files `rlvr handoff openrlhf` wrote load in OpenRLHF
0.11 and score as `rlvr score` does?

    .venv-verl/bin/python tests/engines/openrlhf_check.py HANDOFF_DIR CASES.jsonl TOKENIZER_DIR

1. The launch script's options (`ARGS=(...)` in run_openrlhf.sh) are parsed by OpenRLHF's own
   argument parser: the statements of `openrlhf/cli/train_ppo_ray.py`'s `__main__` block
   up to `parse_args` (read with `ast`, run without the module's heavy imports), then its
   `hierarchize`, then the block's own checks after it (`openrlhf_checks`: e.g. an eval
   dataset needs a reward URL). An option name OpenRLHF does not know, or a combination it
   refuses, fails here.
2. `train.jsonl` is read by OpenRLHF's `PromptDataset` with the parsed `data.*` options
   (chat template applied as OpenRLHF applies it).
3. Each case (`index` into the JSONL, `response`, `expected` = rlvr's score) goes through
   OpenRLHF's `SingleTurnAgentExecutor` built from the parsed `--reward.remote_url`: it loads
   the reward file, decodes prompt + response with special tokens, and calls
   `reward_func` one sample at a time. The generation engine is a stand-in that returns the
   case's response tokens and the end-of-turn token.

Prints one JSON line {"cases", "equal", "mismatches", "rows", "options", "checks"} and exits 1 when a
reward differs from `expected` (1e-6) or nothing loads.
"""

from __future__ import annotations

import argparse
import ast
import asyncio
import json
import sys
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))
from verl_check import launch_options  # noqa: E402


def _main_block() -> list[ast.stmt]:
    """The statements of `openrlhf/cli/train_ppo_ray.py`'s `__main__` block."""
    import openrlhf

    source = (Path(openrlhf.__file__).parent / "cli" / "train_ppo_ray.py").read_text()
    tree = ast.parse(source)
    return next(node for node in tree.body if isinstance(node, ast.If)
                and "__main__" in ast.unparse(node.test)).body


def _run(statements: list[ast.stmt], namespace: dict) -> dict:
    preamble = ast.parse("import argparse\nimport os\nfrom datetime import datetime").body
    exec(compile(ast.Module(body=preamble + statements, type_ignores=[]), "train_ppo_ray",
                 "exec"), namespace)
    return namespace


def openrlhf_parser() -> argparse.ArgumentParser:
    """OpenRLHF's `train_ppo_ray` parser, built by its own statements."""
    statements = []
    for node in _main_block():
        if "parse_args" in ast.unparse(node):
            break
        statements.append(node)
    return _run(statements, {})["parser"]


def openrlhf_checks(args) -> int:
    """OpenRLHF's own checks and completions of the parsed options: the `__main__` block's
    statements after `hierarchize` up to the launch (`train(args)`; the ModelScope patch
    before it is left out). A failed check raises its AssertionError. Returns how many
    statements ran."""
    block = _main_block()
    start = next(i for i, node in enumerate(block) if "hierarchize(args)" in ast.unparse(node)
                 and isinstance(node, ast.Assign)) + 1
    statements = [node for node in block[start:]
                  if "train(args)" not in ast.unparse(node) and "use_ms" not in ast.unparse(node)]
    _run(statements, {"args": args})
    return len(statements)


class Engine:
    """A generation engine that returns fixed token ids (the case's response)."""

    def __init__(self, token_ids: list[int]):
        self.token_ids = token_ids

    async def generate(self, prompt_token_ids, params, multi_modal_data=None):
        out = SimpleNamespace(token_ids=self.token_ids, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


def main() -> int:
    handoff, cases_file, tokenizer_dir = (Path(a) for a in sys.argv[1:4])
    from openrlhf.datasets.prompts_dataset import PromptDataset
    from openrlhf.utils.agent import SingleTurnAgentExecutor
    from openrlhf.utils.config import hierarchize
    from transformers import AutoTokenizer

    options = launch_options(handoff / "run_openrlhf.sh")
    args = hierarchize(openrlhf_parser().parse_args(options))  # unknown option: exit 2
    checks = openrlhf_checks(args)  # a refused combination: AssertionError
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    rows = [json.loads(line) for line in Path(args.data.prompt_dataset).read_text().splitlines()
            if line.strip()]
    strategy = SimpleNamespace(args=args, is_rank_0=lambda: False)
    dataset = PromptDataset(rows, tokenizer, strategy)
    executor = SingleTurnAgentExecutor(args.reward.remote_url)
    if executor.reward_func is None:
        raise SystemExit(f"OpenRLHF loaded no reward_func from {args.reward.remote_url}")
    cases = [json.loads(line) for line in cases_file.read_text().splitlines() if line.strip()]
    params = SimpleNamespace(max_tokens=64, logprobs=None)

    async def run() -> list:
        out = []
        for case in cases:
            _, prompt, label, _ = dataset[case["index"]]
            ids = tokenizer(case["response"], add_special_tokens=False)["input_ids"]
            engine = Engine(ids + [tokenizer.eos_token_id])
            result = await executor.execute(prompt, label, params, 4096, tokenizer, engine)
            out.append(result["reward"])
        return out

    mismatches, equal = [], 0
    for case, got in zip(cases, asyncio.run(run())):
        value = None if got is None else float(got)
        if value is not None and abs(value - case["expected"]) <= 1e-6:
            equal += 1
        else:
            mismatches.append({**case, "got": value})
    print(json.dumps({"cases": len(cases), "equal": equal, "mismatches": mismatches[:10],
                      "rows": len(dataset), "options": len(options), "checks": checks}))
    return 0 if cases and not mismatches else 1


if __name__ == "__main__":
    sys.exit(main())
