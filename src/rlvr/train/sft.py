"""Supervised fine-tuning as a training method of the main job (`method: sft`), R-Tuning style.

R-Tuning (Zhang et al., "R-Tuning: Instructing Large Language Models to Say 'I Don't
Know'", NAACL 2024) splits the training questions by what the model knows and fine-tunes
on: known answerable question -> its gold answer; unknown and unanswerable question -> an
abstention. Here "known" is the main job's own label (`train_answerable: known` keeps only
known answerable rows; `label` keeps all of them with `known` set; with neither, every
answerable row counts as known). The targets are written in the reward's answer format
(`sft_target`), so the exemplars, the target and the reward read the same field.

Same rows, prompt (system prompt and exemplars), LoRA settings and optimizer steps as GRPO,
and the same number of sequences per optimizer step (`per_device_train_batch_size` x
`gradient_accumulation_steps`: GRPO's completions per step, SFT's target sequences per
step): the budget is optimizer steps x sequences. The loss is TRL's completion-only
cross-entropy (the prompt is masked).
"""

from __future__ import annotations

from typing import Any, Sequence

from rlvr.data.messages import gold_answers
from rlvr.train.fit import fit, lora_config, shared_args
from rlvr.train.state import RunState, Trained

ABSTAIN_TEXT = "I don't know."


def formatted(answer: str | None, answer_format: str = "free") -> str:
    """A final answer (None = abstain) written as the reward reads it.

    `free`: the answer with a closing full stop ("Lisbon." as the main job's exemplar;
    "I don't know." to abstain); `boxed`: `\\boxed{Lisbon}` / `\\boxed{I don't know}`;
    `answer_line`: `Answer: Lisbon` / `Answer: I don't know`.
    Raises:
        ValueError: an unknown answer format.
    """
    if answer_format == "free":
        if answer is None:
            return ABSTAIN_TEXT
        answer = answer.strip()
        return answer if answer[-1:] in ".!?" else answer + "."
    value = "I don't know" if answer is None else answer.strip()
    if answer_format == "boxed":
        return f"\\boxed{{{value}}}"
    if answer_format == "answer_line":
        return f"Answer: {value}"
    raise ValueError(f"unknown answer_format {answer_format!r}; known: free, boxed, answer_line")


def sft_target(row: dict[str, Any], answer_format: str = "free") -> str:
    """The R-Tuning target of one training row: its first gold answer when the question is
    answerable and known (`known` missing counts as known), else the abstention."""
    gold = gold_answers(row)
    if gold is None or row.get("known") is False:
        return formatted(None, answer_format)
    return formatted(gold[0], answer_format)


def sft_rows(train: Sequence[dict[str, Any]], answer_format: str = "free") -> dict[str, list]:
    """TRL prompt-completion columns: `prompt` (the row's chat messages, or its text) and
    `completion` (one assistant message with `sft_target`, or the target text for text
    prompts). Returns {"prompt": [...], "completion": [...]}, one entry per row."""
    prompts = [row["prompt"] for row in train]
    targets = [sft_target(row, answer_format) for row in train]
    completions = [t if isinstance(p, str) else [{"role": "assistant", "content": t}]
                   for p, t in zip(prompts, targets)]
    return {"prompt": prompts, "completion": completions}


def answer_format_of(cfg) -> str:
    """The selfaware reward's answer format in this run (`reward_params.answer_format`)."""
    return (cfg.reward_params or {}).get("answer_format", "free")


def train_sft(state: RunState) -> Trained:
    """Fine-tune a LoRA adapter on the R-Tuning targets of `state.train` (the method stage;
    see the module docstring). `max_length` is the longest prompt plus
    `max_completion_length` tokens, so no target is cut."""
    from datasets import Dataset
    from trl import SFTConfig, SFTTrainer

    cfg = state.cfg
    columns = sft_rows(state.train, answer_format_of(cfg))

    def build(callbacks, output_dir, report_to, run_name):
        args = SFTConfig(**shared_args(cfg, output_dir, report_to, run_name),
                         max_length=None, completion_only_loss=True)
        return SFTTrainer(model=state.model, args=args, train_dataset=Dataset.from_dict(columns),
                          processing_class=state.tokenizer, peft_config=lora_config(cfg),
                          callbacks=callbacks)

    _, trained = fit(state, build, "sft")
    return trained
