"""`rlvr handoff`: a run handed to verl or OpenRLHF, with rlvr's rewards inside.

From any rlvr config, after the checks `rlvr train` runs before a model loads (paths, data,
reward fields, preflight: `check_before_model`), it writes into one folder:

* the engine's data: verl, `train.parquet` and `validation.parquet` (`data_source`,
  `prompt` as chat messages, `ability`, `reward_model.ground_truth`, `extra_info`);
  OpenRLHF, `train.jsonl` and `validation.jsonl` (`prompt`, `label`). A row's reward fields
  travel as one JSON text (`ground_truth` / `label`), because parquet gives every row the
  union of all rows' keys;
* the reward file (`verl_reward.py` / `openrlhf_reward.py`): a few lines that import
  `rlvr.rewards.external` from the installed rlvr and read the spec beside it
  (`rlvr_rewards.json`: the run's reward entries, user functions by absolute path);
* a launch script (`run_verl.sh` / `run_openrlhf.sh`) whose every hyper-parameter comes
  from the config, each line commented with the rlvr key it came from (`PARAMETER_MAP`),
  and the keys with no equivalent listed at its top.

What differs from `rlvr train`: `train_answerable: known|label` needs the base model's
answers to the training rows, which rlvr does not compute here; every answerable row is
written and the script says so. The held-out report stays rlvr's: `rlvr eval --trained
CHECKPOINT --config FILE` judges the checkpoint the engine writes against the base model
(`rlvr.train.checkpoint_model`).

Sources: verl 0.9's data and custom-reward contract (`RLHFDataset`, `custom_reward_function`)
and OpenRLHF 0.11's `--reward.remote_url` Python reward function, as read from their
released wheels. The launch scripts' option names are checked against the engines' own
parsers, and both reward paths of verl and OpenRLHF's loader score the written files, in
the engines' own environment (`scripts/install_engines.sh`, tests/test_handoff_engines.py).
Not run here: either engine's training (no GPU).
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

from rlvr.config import TrainConfig
from rlvr.errors import ConfigError
from rlvr.io import check_output_dir, write_jsonl, write_json, write_text
from rlvr.rewards.external import SPEC_FILE

ENGINES = ("verl", "openrlhf")

# rlvr key -> (verl 0.9.1 option, OpenRLHF 0.11.2 option); None where the engine has no
# equivalent. Both columns are checked against the engines' own parsers (verl: Hydra compose
# of its ppo_trainer config; OpenRLHF: the argparse of `openrlhf.cli.train_ppo_ray`) by
# tests/test_handoff_engines.py.
PARAMETER_MAP: dict[str, tuple[str | None, str | None]] = {
    "model": ("actor_rollout_ref.model.path", "--actor.model_name_or_path"),
    "num_generations": ("actor_rollout_ref.rollout.n", "--rollout.n_samples_per_prompt"),
    "beta": ("actor_rollout_ref.actor.kl_loss_coef", "--algo.kl.init_coef"),
    "learning_rate": ("actor_rollout_ref.actor.optim.lr", "--actor.adam.lr"),
    "lr_scheduler_type": ("actor_rollout_ref.actor.optim.warmup_style", "--actor.lr_scheduler"),
    "warmup_ratio": ("actor_rollout_ref.actor.optim.lr_warmup_steps_ratio",
                     "--actor.lr_warmup_ratio"),
    "lora_r": ("actor_rollout_ref.model.lora_rank", "--ds.lora.rank"),
    "lora_alpha": ("actor_rollout_ref.model.lora_alpha", "--ds.lora.alpha"),
    "lora_target_modules": ("actor_rollout_ref.model.target_modules", "--ds.lora.target_modules"),
    "max_completion_length": ("data.max_response_length", "--rollout.max_new_tokens"),
    "temperature": ("actor_rollout_ref.rollout.temperature", "--rollout.temperature"),
    "top_p": ("actor_rollout_ref.rollout.top_p", "--rollout.top_p"),
    "epsilon": ("actor_rollout_ref.actor.clip_ratio", "--actor.eps_clip"),
    "loss_type": ("actor_rollout_ref.actor.loss_agg_mode", "--actor.loss_agg_mode"),
    "scale_rewards": ("algorithm.norm_adv_by_std_in_grpo", "--algo.advantage.no_std_norm"),
    "max_steps": ("trainer.total_training_steps", None),
    "per_device_train_batch_size": ("data.train_batch_size", "--rollout.batch_size"),
    "seed": ("data.seed", "--train.seed"),
    "eval_steps": ("trainer.test_freq", "--eval.steps"),
}
# TRL's loss_type -> verl's loss aggregation (DAPO token-mean; GRPO's per-sequence mean;
# Dr. GRPO's constant normaliser); OpenRLHF has the first two only
_LOSS_AGG = {"dapo": "token-mean", "bnpo": "token-mean", "grpo": "seq-mean-token-mean",
             "dr_grpo": "seq-mean-token-sum-norm"}
_OPENRLHF_LOSS_AGG = ("token-mean", "seq-mean-token-mean")


def handoff(cfg: TrainConfig, engine: str, out_dir: str | Path,
            config_path: str | None = None) -> dict[str, Any]:
    """Check the config as `rlvr train` does, then write the engine's data, reward file,
    reward spec and launch script into `out_dir`.

    Args:
        cfg: the resolved config.
        engine: "verl" or "openrlhf".
        out_dir: the folder to write (created; files in it are replaced atomically).
        config_path: the config file, named in the launch script's header.
    Returns:
        {"files": [paths written], "train_rows": n, "validation_rows": n,
         "notes": [what differs from `rlvr train`]}.
    Raises:
        ConfigError: an unknown engine; everything `check_before_model` raises (a bad path,
            bad data, a reward field the rows lack, a preflight refusal).
    """
    if engine not in ENGINES:
        raise ConfigError(f"unknown engine {engine!r}; known: {', '.join(ENGINES)}")
    from rlvr.config.reward_setup import reward_entries
    from rlvr.train.checks import check_before_model
    from rlvr.train.data_prep import prepare_data, training_columns

    check_output_dir(out_dir)  # a file, an unwritable folder: one line, before the data
    check_before_model(cfg)
    _, train, heldout = prepare_data(cfg)
    entries = reward_entries(cfg)
    out = Path(out_dir)
    notes = []
    if cfg.train_answerable != "all":
        notes.append(f"train_answerable: {cfg.train_answerable} keeps the training rows the "
                     "base model answers right; that needs the base model, so every "
                     "answerable row is written (rlvr train would keep fewer)")
    splits = {"train": _rows(training_columns(train, False, entries)),
              "validation": _rows(training_columns(heldout, False, entries)) if heldout else []}
    files = [write_json(out / SPEC_FILE, {"rewards": [_portable(e) for e in entries],
                                          "config": config_path})]
    reward_name = entries[0].get("log_name") or entries[0]["name"]
    for split, rows in splits.items():
        if engine == "verl":
            files.append(_write_parquet(out / f"{split}.parquet", [
                {"data_source": f"rlvr/{reward_name}", "prompt": _chat(prompt),
                 "ability": reward_name,
                 "reward_model": {"style": "rule", "ground_truth": _label(fields)},
                 "extra_info": {"index": i, "split": split}}
                for i, (prompt, fields) in enumerate(rows)]))
        else:
            files.append(write_jsonl(out / f"{split}.jsonl", [
                {"prompt": _chat(prompt), "label": _label(fields)} for prompt, fields in rows]))
    reward_file = out / ("verl_reward.py" if engine == "verl" else "openrlhf_reward.py")
    files.append(write_text(reward_file, VERL_REWARD if engine == "verl" else OPENRLHF_REWARD))
    script = out / f"run_{engine}.sh"
    files.append(write_text(script, launch_script(cfg, engine, out, config_path, notes)))
    script.chmod(0o755)
    return {"files": [str(f) for f in files], "train_rows": len(splits["train"]),
            "validation_rows": len(splits["validation"]), "notes": notes}


def _rows(columns: dict[str, list]) -> list[tuple[Any, dict[str, Any]]]:
    """(prompt, reward fields) per row of `training_columns`' output."""
    names = [k for k in columns if k != "prompt"]
    return [(prompt, {k: columns[k][i] for k in names})
            for i, prompt in enumerate(columns["prompt"])]


def _chat(prompt: Any) -> list[dict[str, str]]:
    """A prompt as chat messages (a text prompt becomes one user turn)."""
    return [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)


def _label(fields: dict[str, Any]) -> str:
    """A row's reward fields as JSON text (values JSON cannot hold are written as text)."""
    return json.dumps(fields, ensure_ascii=False, default=str, sort_keys=True)


def _portable(entry: dict[str, Any]) -> dict[str, Any]:
    """A reward entry with a user function's file path made absolute (the engine's workers
    start elsewhere)."""
    function = entry.get("function")
    if isinstance(function, str) and ".py:" in function:
        path, _, name = function.rpartition(":")
        entry = {**entry, "function": f"{Path(path).resolve()}:{name}"}
    return {k: v for k, v in entry.items() if isinstance(v, (str, int, float, bool, list, dict))
            or v is None}


def _write_parquet(path: Path, records: list[dict[str, Any]]) -> Path:
    """`records` as a parquet file, written to a temporary name and moved into place (no
    progress bar: the command prints what it wrote)."""
    import datasets
    from datasets.utils import logging as datasets_logging

    tmp = path.with_name(path.name + ".tmp")
    shown = datasets_logging.is_progress_bar_enabled()
    datasets_logging.disable_progress_bar()
    try:
        datasets.Dataset.from_list(records).to_parquet(str(tmp))
    finally:
        if shown:
            datasets_logging.enable_progress_bar()
    tmp.replace(path)
    return path


def launch_script(cfg: TrainConfig, engine: str, out: Path, config_path: str | None,
                  notes: list[str]) -> str:
    """The engine's launch command, one option per line, each commented with the rlvr key
    it came from; rlvr keys the engine has no option for are listed in the header.

    Returns:
        a bash script (text).
    """
    from rlvr.models import resolve_model

    values = {key: getattr(cfg, key, None) for key in PARAMETER_MAP}
    values["model"] = resolve_model(cfg.model)
    values["loss_type"] = _LOSS_AGG.get(str(cfg.loss_type), cfg.loss_type)
    values["scale_rewards"] = str(cfg.scale_rewards) not in ("none", "False", "false")
    if values["max_steps"] is None or values["max_steps"] < 0:
        values["max_steps"] = None
    # TRL counts completions per device step; both engines count prompts per step
    values["per_device_train_batch_size"] = max(1, cfg.per_device_train_batch_size
                                                * cfg.gradient_accumulation_steps
                                                // max(1, cfg.num_generations))
    prompts = values["per_device_train_batch_size"]
    micro = max(1, cfg.per_device_train_batch_size)  # completions per forward pass, as TRL
    column = 0 if engine == "verl" else 1
    missing = [key for key, names in PARAMETER_MAP.items() if names[column] is None]
    notes_missing: list[str] = []  # filled while the options are written (OpenRLHF)
    if engine == "verl":
        lines = [("algorithm.adv_estimator=grpo", "GRPO (rlvr's method)"),
                 ('data.train_files="$HERE/train.parquet"', "written by rlvr handoff"),
                 ('data.val_files="$HERE/validation.parquet"', "written by rlvr handoff"),
                 ("actor_rollout_ref.actor.use_kl_loss=True", "beta is a KL term in the loss, "
                                                              "as in TRL"),
                 ("actor_rollout_ref.actor.kl_loss_type=low_var_kl", "TRL's k3 KL estimator"),
                 ('reward.custom_reward_function.path="$HERE/verl_reward.py"', "rlvr's rewards"),
                 ("reward.custom_reward_function.name=compute_score", "rlvr's rewards"),
                 # one policy update per batch of prompts, as TRL's GRPO with
                 # num_iterations 1 (verl's default mini-batch, 256 prompts, exceeds a small
                 # batch and fails its config check)
                 ("actor_rollout_ref.rollout.name=vllm", "verl's rollout engine (a value "
                                                         "verl requires; sglang also works)"),
                 (f"actor_rollout_ref.actor.ppo_mini_batch_size={prompts}", "mini_batch"),
                 (f"actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu={micro}", "micro"),
                 (f"actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu={micro}",
                  "micro"),
                 (f"actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu={micro}", "micro")]
        for key, (option, _) in PARAMETER_MAP.items():
            if option is not None and values[key] is not None:
                lines.append((f"{option}={shlex.quote(_hydra(values[key]))}", key))
        command = "python3 -m verl.trainer.main_ppo"
    else:
        lines = [("--algo.advantage.estimator group_norm", "GRPO (rlvr's method)"),
                 ("--algo.kl.use_loss", "beta is a KL term in the loss, as in TRL"),
                 ("--algo.kl.estimator k3", "TRL's k3 KL estimator"),
                 ('--data.prompt_dataset "$HERE/train.jsonl"', "written by rlvr handoff"),
                 ("--data.input_key prompt", "written by rlvr handoff"),
                 ("--data.label_key label", "written by rlvr handoff"),
                 ("--data.apply_chat_template", "the prompts are chat messages"),
                 ('--reward.remote_url "$HERE/openrlhf_reward.py"', "rlvr's rewards")]
        if (out / "validation.jsonl").is_file():  # scored every eval_steps (never when unset)
            lines.append(('--eval.dataset "$HERE/validation.jsonl"', "written by rlvr handoff"))
        for key, (_, option) in PARAMETER_MAP.items():
            value = values[key]
            if option is None or value is None:
                continue
            if key == "scale_rewards":  # a flag that turns the std division off
                lines.append((option if not value else f"# {option} not set: dividing by the "
                              "std is OpenRLHF's default", key))
                continue
            if key == "loss_type" and value not in _OPENRLHF_LOSS_AGG:
                notes_missing.append(f"loss_type {cfg.loss_type} (OpenRLHF aggregates by "
                                     "token-mean or seq-mean-token-mean only)")
                continue
            if isinstance(value, list):  # nargs="*": one shell word per item
                lines.append((f"{option} " + " ".join(shlex.quote(str(v)) for v in value), key))
            else:
                lines.append((f"{option} {shlex.quote(str(value))}", key))
        command = "python3 -m openrlhf.cli.train_ppo_ray"
    head = [
        "#!/usr/bin/env bash",
        f"# Written by `rlvr handoff {engine}` from {config_path or 'the default config'}.",
        "# Every option below comes from the rlvr config (the key is in its comment).",
        f"# No {engine} option for: {', '.join(missing + notes_missing) or 'none'}.",
        *[f"# Note: {n}" for n in notes],
        "set -euo pipefail",
        'HERE="$(cd "$(dirname "$0")" && pwd)"',
    ]
    # a bash array: each option on its own line with the rlvr key it came from above it
    body = ["ARGS=("]
    for option, why in lines:
        why = _WHY.get(why, f"from rlvr `{why}`" if why in PARAMETER_MAP else why)
        body += [f"  # {why}", f"  {option}"]
    body += [")", f'{command} "${{ARGS[@]}}" "$@"']
    return "\n".join(head + body) + "\n"


_WHY = {"mini_batch": "prompts per policy update = prompts per step (one update per batch, "
                      "as TRL's GRPO)",
        "micro": "from rlvr `per_device_train_batch_size` (completions per forward pass)",
        "per_device_train_batch_size": "from rlvr `per_device_train_batch_size` x "
                                       "`gradient_accumulation_steps` / `num_generations` "
                                       "(prompts per step; TRL counts completions)",
        "loss_type": "from rlvr `loss_type` (dapo: token-mean, grpo: per-sequence mean, "
                     "dr_grpo: constant normaliser)",
        "model": "from rlvr `model` (resolved to the local folder; the engine's machine "
                 "needs the same model)"}


def _hydra(value: Any) -> str:
    """A value as a Hydra override writes it."""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(str(v) for v in value) + "]"
    return str(value)


VERL_REWARD = '''"""rlvr's rewards for verl (written by `rlvr handoff verl`; imports the installed rlvr)."""
from pathlib import Path

from rlvr.rewards.external import SPEC_FILE, ExternalReward, fields_of

_REWARD = ExternalReward.from_file(Path(__file__).with_name(SPEC_FILE))


def compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs):
    """verl's custom reward: the weighted sum as `score`, each reward and outcome as metrics."""
    return _REWARD.score(solution_str, fields_of(ground_truth))
'''

OPENRLHF_REWARD = '''"""rlvr's rewards for OpenRLHF (written by `rlvr handoff openrlhf`; imports the installed rlvr)."""
from pathlib import Path

import torch

from rlvr.rewards.external import SPEC_FILE, ExternalReward, fields_of, response_of

_REWARD = ExternalReward.from_file(Path(__file__).with_name(SPEC_FILE))


def reward_func(queries, prompts, labels):
    """OpenRLHF's reward function: one score per query (prompt + response, decoded)."""
    scored = [_REWARD.score(response_of(q, p), fields_of(label))
              for q, p, label in zip(queries, prompts, labels)]
    rewards = torch.tensor([s["score"] for s in scored], dtype=torch.float)
    logs = {k: torch.tensor([s[k] for s in scored], dtype=torch.float)
            for k in scored[0] if k != "score"} if scored else {}
    return {"rewards": rewards, "scores": rewards, "extra_logs": logs}
'''
