"""Direct preference optimisation as a training method of the main job (`method: dpo`).

Pairs are built TruthRL style (Wei et al., "TruthRL", ICML 2026, offline DPO baseline) from
the base model's own samples: `dpo_samples` answers per training question at
`temperature`, scored by the run's reward (`rlvr.eval.runner.generate_task_records`):

| question                         | chosen                     | rejected                     |
|----------------------------------|----------------------------|------------------------------|
| answerable and known             | a correct sample           | a wrong sample, else an abstention |
| answerable, not known; unanswerable | an abstention sample    | an answer sample             |

When no sample of the chosen kind exists, the chosen side is written (the gold answer, or
"I don't know.", in the reward's answer format: `rlvr.train.sft.formatted`); when no
sample of the rejected kind exists, a known question's rejected side is the written
abstention, and any other question gives no pair (counted in `skipped`). Every count is
in the run's metrics (`event: dpo_pairs`).

Loss: TRL's sigmoid DPO loss (Rafailov et al., 2023, Eq. 7) with `dpo_beta`; the reference
model is the base model (the LoRA adapter disabled). Budget: the same optimizer steps and
sequences per step as GRPO; a pair is two sequences, so a step takes
`per_device_train_batch_size` / 2 pairs (x `gradient_accumulation_steps`).
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import Any, Sequence

from rlvr.data.messages import gold_answers
from rlvr.io import write_jsonl
from rlvr.metrics.run_log import append_metrics
from rlvr.rewards.selfaware import ABSTAINED_OUTCOMES
from rlvr.tasks.heldout import heldout_rows
from rlvr.train.fit import fit, lora_config, shared_args
from rlvr.train.sft import answer_format_of, formatted
from rlvr.train.state import RunState, Trained

logger = logging.getLogger(__name__)


def _kind(outcome: str | None) -> str | None:
    """`correct`, `abstain` or `answer` (any other scored outcome); None when unscored."""
    if outcome is None or outcome in ("no_gold", "no_answer"):
        return None
    if outcome in ABSTAINED_OUTCOMES:
        return "abstain"
    return "correct" if outcome == "correct" else "answer"


def dpo_pairs(train: Sequence[dict[str, Any]], samples: Sequence[Sequence[dict[str, Any]]],
              answer_format: str = "free", seed: int = 0) -> tuple[list[dict], dict[str, int]]:
    """Build one preference pair per training row (see the module docstring).

    Args:
        train: the training rows (`prompt`, `is_unanswerable`, gold fields, optional `known`).
        samples: per row, its scored base-model samples (`completion`, `outcome`).
        answer_format: the reward's answer format, for written sides.
        seed: picks among samples of the same kind (seeded, reproducible).
    Returns:
        (pairs, counts): pairs as {"prompt", "chosen", "rejected"} (chat prompts get
        one-message assistant turns), counts of `pairs`, `skipped`, `chosen_written`,
        `rejected_written`.
    Raises:
        ValueError: `samples` and `train` differ in length.
    """
    if len(samples) != len(train):
        raise ValueError(f"{len(samples)} sample lists for {len(train)} training rows")
    rng = random.Random(seed)
    counts: Counter = Counter()
    pairs = []
    for row, row_samples in zip(train, samples):
        by_kind: dict[str, list[str]] = {}
        for s in row_samples:
            kind = _kind(s.get("outcome"))
            if kind is not None and s.get("completion", "").strip():
                by_kind.setdefault(kind, []).append(s["completion"])
        gold = gold_answers(row)
        known = gold is not None and row.get("known") is not False
        chosen_kind, rejected_kinds = ("correct", ("answer", "abstain")) if known \
            else ("abstain", ("answer", "correct"))
        chosen = rng.choice(by_kind[chosen_kind]) if by_kind.get(chosen_kind) else None
        if chosen is None:
            chosen = formatted(gold[0] if known else None, answer_format)
            counts["chosen_written"] += 1
        pool = next((by_kind[k] for k in rejected_kinds if by_kind.get(k)), None)
        rejected = rng.choice(pool) if pool else None
        if rejected is None and known:
            rejected = formatted(None, answer_format)
            counts["rejected_written"] += 1
        if rejected is None or rejected.strip() == chosen.strip():
            counts["skipped"] += 1
            continue
        prompt = row["prompt"]
        turn = (lambda text: text) if isinstance(prompt, str) else (
            lambda text: [{"role": "assistant", "content": text}])
        pairs.append({"prompt": prompt, "chosen": turn(chosen), "rejected": turn(rejected)})
    counts["pairs"] = len(pairs)
    return pairs, {k: counts[k] for k in ("pairs", "skipped", "chosen_written",
                                          "rejected_written")}


SAMPLES_FILE = "dpo_samples.jsonl"
SAMPLING_SEED = 0  # the base model's samples are data, like its knowledge labels: one set


def base_samples(state: RunState) -> list[list[dict[str, Any]]]:
    """`dpo_samples` scored answers of the base model per training row, at `temperature`
    (the GRPO sampling temperature) and `max_completion_length` tokens, sampled with
    `SAMPLING_SEED` (not the run's seed, which picks the pairs and drives training), so
    seeds share one set of base samples; saved to RUN/dpo_samples.jsonl with their settings
    and reused (rescored with the run's reward) when they match (`--resume`, and `rlvr
    compare` copies them between seeds); row order kept."""
    from rlvr.eval.runner import generate_task_records, rescore_records
    from rlvr.eval.heldout_answers import cached_base_records, write_cache_settings

    cfg = state.cfg
    rows = heldout_rows([{**ex, "id": i} for i, ex in enumerate(state.train)])
    # model and prompt from the run's cache key; samples, temperature, seed and cap its own
    settings = {**state.evaluation.cache_key, "num_samples": cfg.dpo_samples,
                "temperature": cfg.temperature, "seed": SAMPLING_SEED,
                "max_new_tokens": cfg.max_completion_length}
    path = state.run_dir / SAMPLES_FILE
    records = cached_base_records(path, rows, settings) if state.resume else None
    if records is not None:
        rescore_records(state.task, records)
    else:
        state.model.eval()
        records = generate_task_records(
            state.model, state.tokenizer, state.task, rows, [],
            {"batch_size": cfg.eval_batch_size, "num_samples": cfg.dpo_samples,
             "temperature": cfg.temperature, "seed": SAMPLING_SEED,
             "max_new_tokens": cfg.max_completion_length}, "dpo samples")
        write_jsonl(path, records)
        write_cache_settings(path, settings)
    k = cfg.dpo_samples
    return [records[i * k:(i + 1) * k] for i in range(len(rows))]


def train_dpo(state: RunState) -> Trained:
    """Train a LoRA adapter with DPO on pairs from the base model's samples (the method
    stage; see the module docstring).
    Raises:
        RlvrError: no pair could be built (every row skipped).
    """
    from datasets import Dataset
    from trl import DPOConfig, DPOTrainer

    from rlvr.errors import RlvrError

    cfg = state.cfg
    pairs, counts = dpo_pairs(state.train, base_samples(state), answer_format_of(cfg), cfg.seed)
    logger.info("dpo pairs: %s", counts)
    append_metrics(state.metrics_path, {"event": "dpo_pairs", **counts})
    if not pairs:
        raise RlvrError("dpo: no preference pair could be built from the base model's "
                        "samples; raise dpo_samples or use method: sft")
    dataset = Dataset.from_list(pairs)

    def build(callbacks, output_dir, report_to, run_name):
        args = shared_args(cfg, output_dir, report_to, run_name)
        args["per_device_train_batch_size"] = max(1, cfg.per_device_train_batch_size // 2)
        return DPOTrainer(model=state.model, args=DPOConfig(**args, beta=cfg.dpo_beta,
                                                            max_length=None),
                          train_dataset=dataset, processing_class=state.tokenizer,
                          peft_config=lora_config(cfg), callbacks=callbacks)

    _, trained = fit(state, build, "dpo")
    return trained
