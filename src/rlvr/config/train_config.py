"""Training configuration: a dataclass loaded from YAML, with CLI overrides.

Unknown keys are errors that name the closest valid key. `TrainConfig` fields mirror
TRL's `GRPOConfig` names where they mean the same thing (`num_generations`, `beta`,
`max_completion_length`, `loss_type`, ...), so a TRL user can read a config at a glance;
every other GRPOConfig option goes under `trl:` (`rlvr.config.trl_keys`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from rlvr.config.checks import check_config


def _f(default: Any, help: str) -> Any:  # noqa: A002 - mirrors TRL's `metadata={"help"}`
    if isinstance(default, (list, dict)):
        return field(default_factory=lambda: type(default)(default), metadata={"help": help})
    return field(default=default, metadata={"help": help})


@dataclass
class TrainConfig:
    """Everything `rlvr train` needs. Units are in the names or the help text."""

    # --- what to train on ---
    model: str | None = _f(None, "model spec: None/'default' (SmolLM2-135M-Instruct), a local "
                                 "HF folder, or a hub id")
    data: str | None = _f(None, "messages JSONL, a folder of splits (train/valid/test.jsonl), "
                                "SelfAware.json (split on the fly), or None for the built-in set")
    mix_builtin: bool = _f(False, "add the built-in dataset's train and test rows to the "
                                  "data's train and held-out rows: questions a small model "
                                  "can know next to the data's (tagged source: builtin)")
    selfaware_variant: str = _f("v3", "variant used when `data` is SelfAware.json (v1|v2|v3)")
    system_prompt: str | None = _f(None, "replace the data's system message in training and "
                                         "evaluation prompts; None = keep the data's")
    prompt_exemplars: list | None = _f(None, "in-context examples shown before every "
                                             "question (training and evaluation): "
                                             "[[question, answer], ...]")
    data_format: str = _f("auto", "row format of `data` JSONL files: auto (from the first "
                                  "row's keys) | messages | prompt (TRL prompt-only rows) | "
                                  "gsm8k | math | qa | mbpp | humaneval; every field a reward "
                                  "reads becomes a training column (rlvr.tasks.rows)")
    skip_bad_rows: bool = _f(False, "skip malformed data rows (counted) instead of failing")
    train_limit: int | None = _f(None, "use at most this many training rows of `data` (first "
                                       "N after a seeded shuffle, before mix_builtin adds "
                                       "the built-in rows); None = all")
    output_dir: str = _f("runs/selfaware", "run directory (adapter, reports, resolved config)")
    seed: int = _f(42, "seed for data order, sampling and initialisation")
    # --- reward ---
    reward: str = _f("selfaware", "registered reward name (see `rlvr score --help`), or your "
                                  "own function: module:function or path/to/file.py:function "
                                  "(a relative path is read from the config file's folder)")
    reward_preset: str | None = _f("strict", "reward preset: 'strict' (hedges and listed "
                                             "candidates never pay), 'ternary' (strict with "
                                             "abstaining on an answerable question at 0, "
                                             "TruthRL) or 'seed' (the reference table, which "
                                             "always-hedge games); None = seed")
    reward_params: dict = _f({}, "per-reward parameter overrides, e.g. {wrong: -1.0}")
    reward_funcs: list | None = _f(None, "train on several weighted rewards: a list of "
                                         "{name, preset, weight, params, log_name}, or for "
                                         "your own function {name, function: "
                                         "module:function or path/to/file.py:function, "
                                         "score_range, batch, weight, params}, or for a "
                                         "reward model {name, reward_model: folder or hub "
                                         "id, score_range, weight, params}; the LLM judge is "
                                         "{name: llm_judge, params: {judge: {base_url, "
                                         "model, ...}}}; None = [reward]. "
                                         "The report still scores with `reward`")
    # --- training method ---
    method: str = _f("grpo", "training method, one stage of the main job: grpo (TRL "
                             "GRPOTrainer on the reward) | sft (TRL SFTTrainer, R-Tuning "
                             "targets: known answerable -> gold, others -> \"I don't "
                             "know.\") | dpo (TRL DPOTrainer on pairs from the base "
                             "model's own samples, TruthRL style); same rows, prompt, LoRA "
                             "and sequences per optimizer step (docs/methods.md)")
    dpo_beta: float = _f(0.1, "DPO's beta (trl.DPOConfig.beta): strength of the implicit "
                              "KL penalty to the base model (Rafailov et al., 2023)")
    dpo_samples: int = _f(4, "base-model samples per training question that DPO pairs are "
                             "drawn from (at `temperature`)")
    # --- GRPO (names as in trl.GRPOConfig) ---
    backend: str = _f("trl", "training engine: trl (TRL GRPOTrainer + PEFT) | mlx (mlx-lm-lora "
                             "GRPO on MLX, `pip install -e '.[mlx]'`; see docs/mlx.md)")
    per_device_train_batch_size: int = _f(1, "prompts x generations per device per micro-step")
    gradient_accumulation_steps: int = _f(16, "micro-steps per optimizer step")
    num_train_epochs: float = _f(1.0, "passes over the training rows")
    max_steps: int = _f(-1, "optimizer steps; -1 = derived from num_train_epochs")
    learning_rate: float = _f(5e-5, "peak learning rate")
    lr_scheduler_type: str = _f("cosine", "transformers scheduler name")
    warmup_ratio: float = _f(0.05, "share of steps with linear warm-up")
    num_generations: int = _f(2, "completions per prompt (G, the group size)")
    max_completion_length: int = _f(128, "tokens generated per completion during training")
    beta: float = _f(0.1, "KL coefficient against the reference model (0 = no reference)")
    epsilon: float = _f(0.2, "PPO clip range (lower); see trl.GRPOConfig.epsilon")
    temperature: float = _f(0.7, "sampling temperature for training generations")
    top_p: float = _f(1.0, "nucleus sampling for training generations")
    loss_type: str = _f("dapo", "TRL's loss (trl.GRPOConfig.loss_type): dapo (token-mean "
                                "over the batch), grpo (sequence-mean), dr_grpo (constant "
                                "normaliser), bnpo (token-mean per device), cispo, sapo, "
                                "luspo, vespo (docs/training.md)")
    scale_rewards: str = _f("group", "advantage scaling: group | batch | none")
    mask_zero_std_groups: bool = _f(False, "drop groups whose rewards all tie (zero spread, "
                                           "every advantage 0) from the policy loss, the KL "
                                           "term and the token count (rlvr.train.zero_std_mask)")
    share_prompt_prefix: bool = _f(True, "compute the prompt tokens every row of a batch "
                                         "starts with (template, system prompt, exemplars) "
                                         "once per batch in the reference and policy passes: "
                                         "same log-probs, fewer FLOPs; used only when no "
                                         "dropout is active (rlvr.train.prefix_sharing)")
    advantage_baseline: str = _f("group", "baseline of a group's advantages: group (TRL's "
                                          "mean of all G rewards) | answers (the mean reward "
                                          "of the group's answered completions, so an "
                                          "abstention is measured against answering; "
                                          "calibration rewards only, "
                                          "rlvr.train.abstain_advantages)")
    gradient_checkpointing: bool = _f(False, "recompute activations to save memory (slower)")
    bf16: bool | None = _f(None, "bf16 mixed precision; None = on when a bf16 GPU is present")
    trl: dict = _f({}, "any other trl.GRPOConfig option, passed to it as it is after rlvr's "
                       "own settings, e.g. {importance_sampling_level: sequence} (GSPO) or "
                       "{epsilon_high: 0.28} (DAPO's clip-higher); names are checked "
                       "against the installed TRL before the model loads; options rlvr "
                       "sets (learning_rate, num_generations, ...) are refused with the "
                       "key to use; method grpo with backend trl only")
    # --- hardware (rlvr.hardware: CUDA-only options are refused on other machines) ---
    quantization: str = _f("none", "none | nf4: load the base model in 4-bit NF4 with double "
                                   "quantization (QLoRA; CUDA + bitsandbytes)")
    attn_implementation: str = _f("auto", "auto | sdpa | eager | flash_attention_2; auto = "
                                          "flash attention 2 when installed on CUDA with 16-bit "
                                          "weights, else sdpa")
    use_vllm: bool = _f(False, "generate the GRPO rollouts with vLLM through TRL (needs "
                               "vllm; see vllm_mode); without CUDA: vLLM's CPU build "
                               "(`bash scripts/install.sh --vllm`), colocate, float32, "
                               "weights synced by rlvr.train.vllm_cpu, TRL's "
                               "vllm_importance_sampling_correction off unless trl: sets it")
    vllm_mode: str = _f("colocate", "colocate (vLLM in the training process; one GPU, or "
                                    "the CPU build) | server (a separate `trl vllm-serve`; "
                                    "the trainer needs CUDA: weights go over NCCL)")
    vllm_server_host: str = _f("0.0.0.0", "vllm_mode server: host of `trl vllm-serve`")
    vllm_server_port: int = _f(8000, "vllm_mode server: port of `trl vllm-serve`")
    vllm_gpu_memory_utilization: float = _f(0.3, "vllm_mode colocate: share of GPU memory "
                                                 "vLLM may take, in (0, 1]")
    logging_steps: int = _f(1, "log every N optimizer steps")
    save_steps: int = _f(25, "checkpoint every N optimizer steps (for --resume); see also "
                             "save_minutes")
    save_minutes: float | None = _f(10.0, "also checkpoint when this many minutes of training "
                                          "passed since the last save; None = steps only")
    save_total_limit: int = _f(2, "complete checkpoints kept (older ones are deleted)")
    report_to: list | str = _f(["tensorboard"], "trackers for TRL's metrics: tensorboard "
                                               "(offline, RUN/tensorboard), wandb (offline "
                                               "unless WANDB_MODE), trackio, mlflow, ... or "
                                               "none; metrics.jsonl is always written")
    run_name: str | None = _f(None, "run name in the trackers; None = "
                                    "<reward>-grpo-<model>-<UTC time>")
    # --- LoRA (PEFT) ---
    lora_r: int = _f(8, "LoRA rank")
    lora_alpha: int = _f(8, "LoRA alpha (scale = alpha / r)")
    lora_dropout: float = _f(0.05, "LoRA dropout")
    lora_target_modules: str | list = _f("all-linear", "PEFT target_modules")
    # --- before/after evaluation ---
    eval_split: str = _f("test", "held-out split to evaluate on")
    heldout_fraction: float = _f(0.1, "share of a single data file held out for evaluation "
                                      "(seeded, the same rows for every run seed), in (0, 1)")
    out_of_template: str = _f("auto", "a second held-out set, written apart from the "
                                      "built-in templates (rlvr.data.out_of_template): test | "
                                      "validation (for choosing a recipe) | none | auto (test "
                                      "when a calibration reward trains on the built-in data, "
                                      "else none); the verdict is the worse of the two sets'")
    eval_limit: int | None = _f(None, "evaluate at most N held-out questions of each held-out "
                                      "set (in-distribution, out-of-template); None = all")
    eval_batch_size: int = _f(16, "prompts per generation batch during evaluation "
                                  "(eval_engine vllm: x samples = max_num_seqs)")
    eval_engine: str = _f("auto", "generation engine of every evaluation stage (held-out "
                                  "answers, knowledge labels, decision samples) and of the "
                                  "cross-task evaluation: auto (vllm when installed, else "
                                  "transformers) | transformers | vllm (vLLM's CPU build, "
                                  "`bash scripts/install.sh --vllm`; the trained weights "
                                  "loaded into it; greedy answers equal transformers float32)")
    eval_dtype: str = _f("float32", "weights of that evaluation: float32 (greedy answers "
                                    "agree across engines) | bfloat16 (answers differ; "
                                    "whether faster depends on the CPU)")
    eval_max_new_tokens: int | None = _f(None, "tokens per eval answer; None = "
                                               "max_completion_length")
    rollout_log: str | None = _f("jsonl", "every training step's prompts, completions, "
                                          "rewards, outcomes and advantages: jsonl "
                                          "(RUN/rollouts.jsonl), gzip (rollouts.jsonl.gz) "
                                          "or none (rlvr.train.rollouts)")
    eval_steps: int | None = _f(None, "every N optimizer steps, score the first "
                                      "eval_steps_limit held-out rows as the final report "
                                      "does (metrics.jsonl event step_eval, trackers eval/*); "
                                      "None = only before and after")
    eval_steps_limit: int = _f(40, "held-out rows scored at each eval_steps evaluation")
    keep_best: str | None = _f(None, "with eval_steps: keep the adapter of the step with the "
                                     "best value of this metric (honesty, known_retention, "
                                     "mean_reward; a task run: reward, accuracy/<reward>, "
                                     "...) for the final adapter and report")
    eval_num_samples: int = _f(1, "task runs: answers per held-out row (1 = greedy; more are "
                                  "sampled at `temperature` and give pass@k, k = 2, 4, ... "
                                  "up to it)")
    bootstrap_samples: int = _f(2000, "resamples for the paired 95% bootstrap interval")
    eval_tasks: list | None = _f(None, "cross-task evaluation after training (base and "
                                       "adapter), e.g. [gsm8k, triviaqa]; see `rlvr eval --list`")
    eval_tasks_limit: int | None = _f(20, "questions per cross-eval task; None = all")
    eval_data_dir: str | None = _f(None, "folder with eval task files in the layout "
                                         "gsm8k/test.jsonl, ... (see docs/eval_data.md); default: "
                                         "$RLVR_DATA_DIR, else the Hugging Face Hub, else the "
                                         "subsets packaged with rlvr")
    cross_check: list | None = _f(["gsm8k", "triviaqa", "humaneval", "mbpp"],
                                  "after training, the mean per-token log-likelihood of these "
                                  "tasks' gold answers under base and trained, with the paired "
                                  "95% CI of the difference (rlvr.eval.cross_check; seconds, "
                                  "not minutes); none or [] = off")
    cross_check_limit: int | dict = _f(10, "rows per cross_check task (seeded draw, the same "
                                           "rows for base and trained), or a mapping per task "
                                           "({default: 10, triviaqa: 50}; a task it does not "
                                           "name: 10); cost per row: "
                                           "docs/measured.md (benchmarks/cross_check.py)")
    cross_check_budget: float | str | None = _f("auto", "the cross-check may take this share "
                                                "of the training time: rows per task are "
                                                "sized to it by a 2-row probe, tasks it "
                                                "cannot afford 5 rows of are skipped with the "
                                                "reason; auto = 0.25 for a task run, no limit "
                                                "for a calibration run; null = no limit")
    cross_check_distractors: int | dict = _f({"triviaqa": 4}, "knowledge or willingness: the "
                                             "gold answer ranked among this many other rows' "
                                             "gold answers, per task (a mapping, tasks not "
                                             "named: its 'default' entry, else 0) or for all "
                                             "(a number); 0 = no ranking")
    skip_eval: bool = _f(False, "train only; no before/after report")
    trained_model: str | None = _f(None, "a full checkpoint (a transformers folder an engine "
                                         "wrote, or a merged model: `rlvr export --merge`) "
                                         "evaluated as this run's trained model against "
                                         "`model`, with no training: the same held-out "
                                         "rows, prompt, knowledge labels, cross-task check "
                                         "and verdict (`rlvr eval --trained`); None = train")
    kshot_eval: list | None = _f(None, "GSM8K rewards: after training, evaluate base and "
                                       "trained on the GSM8K test split with these numbers "
                                       "of exemplars from the train split, e.g. [0, 2, 4, 8] "
                                       "(kshot.json, kshot.png; rlvr.eval.kshot); None = off")
    kshot_limit: int | None = _f(20, "GSM8K test questions per shot count in kshot_eval "
                                     "(sized for CPU); None = every row of the source")
    # --- knowledge-aware evaluation (rlvr.eval.knowledge) ---
    knowledge_samples: int = _f(1, "K: base-model answers per held-out answerable question "
                                   "used to decide whether the base model knows it; 1 with "
                                   "knowledge_temperature 0 = its greedy answer")
    knowledge_temperature: float = _f(0.0, "sampling temperature of those K answers (0 = "
                                           "greedy, only with K = 1)")
    knowledge_threshold: float = _f(0.5, "known when correct answers / K >= this, in (0, 1]")
    train_knowledge_samples: int | None = _f(None, "K for the answerable training rows' labels "
                                                  "(train_answerable: known|label), apart "
                                                  "from the held-out ones the verdict is "
                                                  "judged on; None = knowledge_samples")
    train_knowledge_temperature: float | None = _f(None, "sampling temperature of those K "
                                                         "answers (> 0 when K > 1); None = "
                                                         "knowledge_temperature")
    label_cache: bool = _f(True, "keep the base model's answers to the training rows (with "
                                 "train_answerable: known|label) in $RLVR_CACHE_DIR/knowledge, "
                                 "keyed by weights, prompts and sampling settings, so another "
                                 "run or seed reuses them (rlvr.eval.label_cache)")
    max_known_retention_drop: float = _f(0.15, "the verdict's bound: training `improved` the "
                                               "model only if known retention (correct "
                                               "answers on questions the base model knew) "
                                               "fell by at most this share, in [0, 1]; a "
                                               "larger fall with more abstention is `traded` "
                                               "(0.15: base 1.0 under greedy labels -> 0.85)")
    decision_samples: int = _f(1, "answer-forced samples per answerable held-out question "
                                  "that estimate P(correct) for the decision-rule check "
                                  "(report.md: is each greedy action the one the reward "
                                  "prefers?); 1 with decision_temperature 0 = one greedy "
                                  "forced answer; 0 = no check")
    decision_temperature: float = _f(0.0, "sampling temperature of those samples (0 = greedy; "
                                          "a 135M model's sampled answers are much worse "
                                          "than its greedy ones)")
    train_answerable: str = _f("all", "all | known | label: train on every answerable "
                                      "question; only on those the base model answers "
                                      "correctly (labelled like the held-out ones, before "
                                      "training); or on all with a `known` column for the "
                                      "reward's abstain_known")
    max_unanswerable_share: float | None = _f(None, "cap the share of unanswerable training "
                                                    "rows (seeded subsample, after "
                                                    "train_answerable); None = keep all")
    # --- preflight (rlvr.rewards.preflight) on the training rows, before the model loads ---
    preflight: str = _f("refuse", "refuse | warn | off: what to do when a degenerate policy "
                                  "(always abstain, always hedge, list candidates, repeat the "
                                  "question, ...) scores within preflight_margin of gold")
    preflight_margin: float = _f(0.1, "closeness to gold, as a fraction of the score range")
    # --- live diagnostics and alarms (rlvr.train.diagnostics) ---
    diagnostics: bool = _f(True, "log calibration/* metrics per step and check the alarms")
    alarm_over_abstention: float = _f(0.9, "collapse alarm: abstained / answerable completions "
                                           "above this")
    alarm_hedge_rate: float = _f(0.5, "hedging alarm: hedged / scored completions above this")
    alarm_zero_std: float = _f(0.95, "saturation alarm: share of groups with zero reward "
                                     "spread at or above this")
    alarm_truncation: float = _f(0.9, "length alarm: share of completions cut at "
                                      "max_completion_length above this")
    alarm_patience: int = _f(3, "consecutive logged steps a condition must hold to fire")
    stop_on_alarm: bool = _f(False, "stop training cleanly at the first alarm (adapter saved, "
                                    "report written)")
    # --- curriculum (rlvr.train.curriculum.history) ---
    curriculum: bool = _f(False, "retire prompts whose last curriculum_window groups were all "
                                 "solved (zero spread, no learning signal) and draw the others; "
                                 "retired prompts go to RUN/curriculum_retired.json")
    curriculum_window: int = _f(2, "groups per prompt that must all be solved (or failed) before "
                                   "it retires")
    curriculum_solved_reward: float | None = _f(None, "a completion is solved at this total "
                                                      "(weighted) reward or above; None = the top "
                                                      "of the rewards' declared score ranges")
    curriculum_retire_failed: bool = _f(False, "also retire prompts whose last "
                                               "curriculum_window groups all failed")
    curriculum_failed_reward: float | None = _f(None, "a completion failed at this total reward "
                                                      "or below; None = the bottom of the "
                                                      "rewards' declared score ranges")
    num_threads: int | None = _f(None, "torch CPU threads; None = torch's default")
    profile_steps: bool = _f(False, "time each training step's parts (generate, reward, "
                                    "ref_forward, policy_forward, backward, optimizer, other) "
                                    "into metrics.jsonl as event 'profile' "
                                    "(rlvr.train.profiling)")

    def __post_init__(self) -> None:
        check_config(self)

    def to_dict(self) -> dict[str, Any]:
        """Return the config as a plain dict (what `resolved_config.yaml` holds)."""
        return dataclasses.asdict(self)
