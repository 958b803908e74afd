"""Evaluation tasks, declared as data.

A task names its dataset loader and default file (relative to the data directory), its
standard Hugging Face Hub dataset and whether rlvr packages a subset of it (where the
rows come from: `rlvr.tasks.sources`), how prompts are rendered (chat template with a system prompt, or raw text), few-shot
exemplars, generation settings, the registered reward that scores it (the same function
that trains on it), the metrics, the format of its training rows (`data_format`, parsed by
`rlvr.tasks.rows`), and a version that changes whenever the prompt or scoring changes. `TASKS` is the registry; `get_task` looks a name up.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from rlvr.errors import RlvrError
from rlvr.data import loaders
from rlvr.tasks.hub import (HubDataset, gsm8k_hub_row, humaneval_hub_row, mbpp_hub_row,
                           triviaqa_hub_row)
from rlvr.metrics.task_metrics import (code_metrics, gsm8k_metrics, qa_metrics,
                                    selfaware_metrics)
from rlvr.tasks.prompts import (CODE_SYSTEM, GSM8K_SYSTEM, QA_SYSTEM,  # noqa: F401
                               SELFAWARE_SYSTEM, mbpp_prompt)
from rlvr.tasks.row_parsers import (RowFormat, gsm8k_row, has_qa_keys, humaneval_row,
                                    looks_like_gsm8k, mbpp_row, qa_row)



@dataclass(frozen=True)
class EvalTask:
    """One evaluation task (see module docstring).

    Attributes:
        name, version, description: identity; bump `version` when prompt or scoring changes.
        load: `(path) -> rows`; each row has `id` and the reward's fields.
        data_file: default path under the data directory, or None (user must give one).
        hub: the standard Hugging Face Hub dataset (id, config, splits, row mapping), or None.
        packaged: whether a subset ships with rlvr (`rlvr/tasks/subsets/<name>/`).
        render: `(row) -> str`, the user message (chat style) or the whole prompt (raw).
        prompt_style: "chat" (tokenizer chat template with `system_prompt`) or "raw".
        reward, reward_preset, reward_params: the registered reward that gives each
            sample its score, its preset and parameter overrides.
        extra_rewards: further registered rewards recorded per sample (e.g. format).
        metrics: `(records, num_samples) -> dict` of metrics with counts and 95% CIs.
        max_new_tokens, stop: generation cap (tokens) and stop strings.
        fewshot_file, fewshot_answer, default_fewshot: exemplars (from a train split
            only), how an exemplar's answer is written, and the default count.
        train_rows: the training row format of this task's files (a `data_format` value,
            read with the same prompt as the task asks), or None: the task has none of its
            own (`rlvr.tasks.rows.row_formats` lists it with the generic formats).
    """

    name: str
    version: int
    description: str
    load: Callable[[Path], list[dict[str, Any]]]
    data_file: str | None
    render: Callable[[dict[str, Any]], str]
    reward: str
    metrics: Callable[..., dict[str, Any]]
    prompt_style: str = "chat"
    system_prompt: str | None = None
    reward_preset: str | None = None
    reward_params: dict = field(default_factory=dict, compare=False)
    extra_rewards: tuple[str, ...] = ()
    max_new_tokens: int = 256
    stop: tuple[str, ...] = ()
    hub: HubDataset | None = field(default=None, compare=False)
    packaged: bool = False
    fewshot_file: str | None = None
    fewshot_answer: Callable[[dict[str, Any]], str] | None = None
    default_fewshot: int = 0
    train_rows: RowFormat | None = field(default=None, compare=False)
    notes: str = field(default="", compare=False)

    def build_prompt(self, row: dict[str, Any], exemplars: list[dict[str, Any]] = ()) -> Any:
        """Return the model input: chat messages (system, exemplar turns, question) or raw
        text (exemplars then the question, separated by blank lines). A row that carries
        its own `chat_prompt` (a training run's held-out row, rendered exactly as in
        training) is used as it is when there are no exemplars."""
        if row.get("chat_prompt") and not exemplars:
            return list(row["chat_prompt"])
        if self.prompt_style == "raw":
            shots = [f"{self.render(e)}{self.fewshot_answer(e)}" for e in exemplars]
            return "\n\n".join([*shots, self.render(row)])
        messages = [{"role": "system", "content": self.system_prompt}] if self.system_prompt else []
        for e in exemplars:
            messages += [{"role": "user", "content": self.render(e)},
                         {"role": "assistant", "content": self.fewshot_answer(e)}]
        return messages + [{"role": "user", "content": self.render(row)}]


TASKS: dict[str, EvalTask] = {}


def register_task(task: EvalTask) -> EvalTask:
    """Add a task to the registry (a later registration of the same name replaces it)."""
    TASKS[task.name] = task
    return task


def get_task(name: str) -> EvalTask:
    """Look up a task. Raises RlvrError listing the known tasks and the closest name."""
    if name in TASKS:
        return TASKS[name]
    close = difflib.get_close_matches(name, TASKS, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise RlvrError(f"unknown task {name!r}; known tasks: {', '.join(TASKS)}.{hint}")


def _question(row: dict[str, Any]) -> str:
    return row["question"]


register_task(EvalTask(
    name="selfaware", version=3,  # 3: every listed answer counts, not only the first
    description="held-out SelfAware questions (v3 test split; with an adapter from "
                "`rlvr train`, that run's own held-out rows and prompt); calibration metrics",
    load=loaders.load_selfaware_heldout, data_file="selfaware/SelfAware.json",
    render=_question, system_prompt=SELFAWARE_SYSTEM, reward="selfaware",
    reward_preset="strict",
    metrics=selfaware_metrics, max_new_tokens=64,
))
register_task(EvalTask(
    name="gsm8k", version=1,
    description="GSM8K test split; accuracy, '#### N' format rate, no_answer share",
    load=loaders.load_gsm8k, data_file="gsm8k/test.jsonl",
    render=_question, system_prompt=GSM8K_SYSTEM, reward="gsm8k_correctness",
    extra_rewards=("gsm8k_format",), metrics=gsm8k_metrics, max_new_tokens=256,
    hub=HubDataset("openai/gsm8k", "main", "test", gsm8k_hub_row, fewshot_split="train"),
    packaged=True, fewshot_file="gsm8k/train.jsonl", fewshot_answer=lambda r: r["solution"],
    default_fewshot=0,
    train_rows=RowFormat("gsm8k", "question, answer ('... #### N')", ("question", "answer"),
                         gsm8k_row, detect=looks_like_gsm8k, detect_rank=30),
))
register_task(EvalTask(
    name="triviaqa", version=1,
    description="TriviaQA (rc.nocontext validation from the hub, or llm-foundry's subset "
                "from a file); normalised exact match over aliases, abstention rate",
    load=loaders.load_triviaqa, data_file="triviaqa/triviaqa_sm_sub.jsonl",
    # lm-evaluation-harness's triviaqa task evaluates this config's validation split
    hub=HubDataset("mandarjoshi/trivia_qa", "rc.nocontext", "validation", triviaqa_hub_row),
    packaged=True,
    render=_question, system_prompt=QA_SYSTEM, reward="qa", extra_rewards=("abstention",),
    metrics=qa_metrics, max_new_tokens=32, stop=("\n",),
    train_rows=RowFormat("qa", "question with answer or aliases (or TriviaQA's context, "
                         "answer)", None, qa_row, has_qa_keys, detect_rank=60),
))
register_task(EvalTask(
    name="humaneval", version=1,
    description="HumanEval; pass@1 (pass@k with --num-samples), code run in the sandbox",
    load=loaders.load_humaneval, data_file="humaneval/HumanEval.jsonl.gz",
    hub=HubDataset("openai/openai_humaneval", None, "test", humaneval_hub_row), packaged=True,
    render=lambda r: r["prompt"], prompt_style="raw", reward="code",
    metrics=code_metrics, max_new_tokens=256,
    stop=("\ndef ", "\nclass ", "\nif __name__", "\nprint(", "\n#"),
    train_rows=RowFormat("humaneval", "prompt, test, entry_point",
                         ("prompt", "test", "entry_point"), humaneval_row, detect_rank=10),
))
register_task(EvalTask(
    name="mbpp", version=1,
    description="MBPP test ids 11-510; pass@1 (pass@k with --num-samples), sandboxed",
    load=loaders.load_mbpp, data_file="mbpp/mbpp.jsonl",
    hub=HubDataset("google-research-datasets/mbpp", "full", "test", mbpp_hub_row), packaged=True,
    render=mbpp_prompt,
    system_prompt=CODE_SYSTEM, reward="code", metrics=code_metrics, max_new_tokens=256,
    train_rows=RowFormat("mbpp", "text, test_list", ("text", "test_list"), mbpp_row,
                         detect_rank=50),
))
register_task(EvalTask(
    name="exploretom", version=1,
    description="ExploreToM theory-of-mind questions from a user-given CSV; accuracy",
    load=loaders.load_exploretom, data_file=None,
    render=lambda r: f"{r['story']}\n\nQuestion: {r['question']}\nAnswer briefly.",
    system_prompt=QA_SYSTEM, reward="qa", metrics=qa_metrics, max_new_tokens=32,
    stop=("\n",),
))
