"""Run inside verl's own environment (`scripts/install_engines.sh` builds .venv-verl): do the
files `rlvr handoff verl` wrote load in verl and score as `rlvr score` does?

    .venv-verl/bin/python tests/engines/verl_check.py HANDOFF_DIR CASES.jsonl TOKENIZER_DIR

1. The launch script's options (`ARGS=(...)` in run_verl.sh) are composed onto verl's own
   `ppo_trainer` config with Hydra, as `python -m verl.trainer.main_ppo` does, and checked
   by verl's `validate_config` (on one GPU): an option name verl does not know, or batch
   sizes it refuses, fail here.
2. `train.parquet` is read with verl's `RLHFDataset` under that config's `data` section;
   each row's `raw_prompt` is rendered with the tokenizer's chat template (verl's agent
   loop does the same before generating).
3. Each case (`index` into the parquet, `response`, `expected` = rlvr's score of it) is
   scored through both of verl's reward paths, built from the composed config's `reward`
   section: the legacy `NaiveRewardManager` on a batch (the reward sits on the last
   response token) and the reward-loop `NaiveRewardManager.run_single` (0.9's default,
   loaded by `load_reward_manager`).

Prints one JSON line {"cases", "legacy_equal", "loop_equal", "mismatches", "rows",
"options"} and exits 1 when a score differs from `expected` (1e-6) or nothing loads.
Standard library plus what verl's environment has; rlvr is imported only by the reward
file the handoff wrote.
"""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import sys
from pathlib import Path


def launch_options(script: Path) -> list[str]:
    """The Hydra overrides of the `ARGS=( ... )` array in a launch script, `$HERE` read as
    the script's folder, shell quoting removed, comments dropped."""
    text = script.read_text(encoding="utf-8")
    body = re.search(r"^ARGS=\(\n(.*?)^\)", text, re.S | re.M)
    if body is None:
        raise SystemExit(f"{script}: no ARGS=( ... ) array")
    here = str(script.parent)
    options = []
    for line in body.group(1).splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            options.extend(shlex.split(line.replace("$HERE", here)))
    return options


def composed(options: list[str]):
    """verl's ppo_trainer config with the launch options applied (Hydra compose), checked
    by verl's own `validate_config` on one GPU (batch sizes against each other: what
    `main_ppo` checks before it starts the workers)."""
    import verl
    from hydra import compose, initialize_config_dir
    from verl.utils.config import validate_config

    folder = Path(verl.__file__).parent / "trainer" / "config"
    with initialize_config_dir(config_dir=str(folder), version_base=None):
        config = compose(config_name="ppo_trainer", overrides=options)
        checked = compose(config_name="ppo_trainer",
                          overrides=options + ["trainer.n_gpus_per_node=1"])
    _vllm_rank_check_without_vllm()
    validate_config(checked, use_reference_policy=True, use_critic=False)
    return config


def _vllm_rank_check_without_vllm() -> None:
    """`validate_config`'s last check (the LoRA rank vLLM can serve) imports verl's vLLM
    rollout modules, which import vLLM itself (not installed here: GPU builds). verl's own
    `get_vllm_max_lora_rank` is read from its file with `ast` and registered under its
    module name, so the check runs as written (vLLM's allowed ranks then come from verl's
    fallback list in that function)."""
    import ast
    import types
    from typing import Literal, get_args

    import verl

    package = "verl.workers.rollout.vllm_rollout"
    if f"{package}.utils" in sys.modules:
        return
    folder = Path(verl.__file__).parent / "workers" / "rollout" / "vllm_rollout"
    tree = ast.parse((folder / "utils.py").read_text(encoding="utf-8"))
    function = next(node for node in tree.body if isinstance(node, ast.FunctionDef)
                    and node.name == "get_vllm_max_lora_rank")
    module = types.ModuleType(f"{package}.utils")
    module.__dict__.update(Literal=Literal, get_args=get_args)
    exec(compile(ast.Module(body=[function], type_ignores=[]), str(folder / "utils.py"),
                 "exec"), module.__dict__)
    stub = types.ModuleType(package)
    stub.__path__ = [str(folder)]
    stub.utils = module
    sys.modules[package] = stub
    sys.modules[f"{package}.utils"] = module


def batch_of(tokenizer, prompt_ids: list[int], response: str, item: dict):
    """A one-sample DataProto as verl's rollout leaves it: left-padded prompt, right-padded
    response, one attention mask over both."""
    import numpy as np
    import torch
    from verl import DataProto

    response_ids = tokenizer(response, add_special_tokens=False)["input_ids"]
    response_ids = response_ids + [tokenizer.eos_token_id]  # the turn ends, as a rollout's does
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
    prompt = torch.tensor([[pad] * 2 + prompt_ids])
    responses = torch.tensor([response_ids + [pad] * 3])
    mask = torch.tensor([[0] * 2 + [1] * len(prompt_ids) + [1] * len(response_ids) + [0] * 3])
    extra = dict(item.get("extra_info") or {})
    return DataProto.from_dict(
        tensors={"prompts": prompt, "responses": responses, "attention_mask": mask,
                 "input_ids": torch.cat([prompt, responses], dim=1)},
        non_tensors={"data_source": np.array([item["data_source"]], dtype=object),
                     "reward_model": np.array([item["reward_model"]], dtype=object),
                     "extra_info": np.array([extra], dtype=object)})


def main() -> int:
    handoff, cases_file, tokenizer_dir = (Path(a) for a in sys.argv[1:4])
    from transformers import AutoTokenizer
    from verl.trainer.ppo.reward import get_custom_reward_fn, load_reward_manager
    from verl.utils.dataset.rl_dataset import RLHFDataset
    from verl.workers.reward_manager.naive import NaiveRewardManager

    options = launch_options(handoff / "run_verl.sh")
    config = composed(options)
    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    dataset = RLHFDataset(data_files=config.data.train_files, tokenizer=tokenizer,
                          config=config.data)
    cases = [json.loads(line) for line in cases_file.read_text().splitlines() if line.strip()]
    legacy = NaiveRewardManager(tokenizer, num_examine=0,
                                compute_score=get_custom_reward_fn(config))
    mismatches, legacy_equal, loop_equal = [], 0, 0

    async def reward_loop_scores() -> list[float]:
        manager = load_reward_manager(config, tokenizer)  # binds the running event loop
        out = []
        for case, batch in zip(cases, batches):
            result = await manager.run_single(batch)
            out.append(float(result["reward_score"]))
        return out

    batches = []
    for case in cases:
        item = dataset[case["index"]]
        prompt_ids = tokenizer.apply_chat_template(item["raw_prompt"], add_generation_prompt=True,
                                                   tokenize=True)
        if not isinstance(prompt_ids, list):  # transformers may return a BatchEncoding
            prompt_ids = list(prompt_ids["input_ids"])
        batches.append(batch_of(tokenizer, prompt_ids, case["response"], item))
    for case, batch in zip(cases, batches):
        rewards = legacy(batch, return_dict=True)["reward_tensor"]
        got = float(rewards.sum())
        if abs(got - case["expected"]) <= 1e-6:
            legacy_equal += 1
        else:
            mismatches.append({"path": "legacy", **case, "got": got})
    for case, got in zip(cases, asyncio.run(reward_loop_scores())):
        if abs(got - case["expected"]) <= 1e-6:
            loop_equal += 1
        else:
            mismatches.append({"path": "reward_loop", **case, "got": got})
    print(json.dumps({"cases": len(cases), "legacy_equal": legacy_equal,
                      "loop_equal": loop_equal, "mismatches": mismatches[:10],
                      "rows": len(dataset), "options": len(options)}))
    return 0 if cases and not mismatches else 1


if __name__ == "__main__":
    sys.exit(main())
