"""The Hugging Face Hub as a data source for evaluation tasks (through `datasets`).

A task names its standard dataset with `HubDataset` (the id, config and splits that
lm-evaluation-harness uses); `load_hub_rows` loads one split with `datasets.load_dataset`
(downloaded once and cached as `datasets` caches, under `$HF_HOME`) and maps every hub
row into the row dict the task's local loader produces, so prompts and rewards cannot
tell the sources apart.

Without network `datasets` retries each file for about 25 s before failing. So that an
offline machine never waits, `hub_unavailable` answers first, in at most `timeout_s`:

- `HF_DATASETS_OFFLINE` (or, when that is unset, `HF_HUB_OFFLINE`) is true, as
  `datasets` reads them: no network; the hub is tried only when the dataset is in the
  local Hugging Face cache (`datasets` then loads the cached copy without network);
- otherwise one HEAD request to `$HF_ENDPOINT` (default https://huggingface.co), in a
  daemon thread abandoned after `timeout_s` (3 s by default; a DNS failure answers at
  once). Proxies from the environment are honoured, as `huggingface_hub` honours them.

Only `load_hub_rows` imports `datasets` (the `train` extra installs it).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rlvr.errors import DataError
from rlvr.io import TRUE_VALUES, hf_home
from rlvr.data import loaders



@dataclass(frozen=True)
class HubDataset:
    """A task's dataset on the Hugging Face Hub.

    Attributes:
        path, name: `datasets.load_dataset(path, name)` (name: the config, or None).
        split: the split evaluated; fewshot_split: where few-shot exemplars come from
            (None: the task has none).
        to_row: `(hub_row, index, split) -> row` with the fields the task's local loader
            gives (index is 0-based within the split).
    """

    path: str
    name: str | None
    split: str
    to_row: Callable[[dict[str, Any], int, str], dict[str, Any]]
    fewshot_split: str | None = None

    def describe(self, split: str) -> str:
        """`hub <id>, config <name>, split <split>`: the data source as results state it."""
        config = f", config {self.name}" if self.name else ""
        return f"hub {self.path}{config}, split {split}"


# --- hub rows -> task rows ------------------------------------------------------------------

def gsm8k_hub_row(obj: dict[str, Any], index: int, split: str) -> dict[str, Any]:
    """openai/gsm8k (config main) row `{question, answer}` -> the `load_gsm8k` row.

    The id is `<split>-<index + 1>`, the local loader's `<file stem>-<line>` numbering
    (the hub's rows are in the upstream file order as far as checked: the first test row
    is the upstream first, "Janet's ducks", final answer 18; not verified row by row here,
    where the hub is not reachable). Raises ValueError when the answer has no `#### N`."""
    return loaders.gsm8k_row(obj["question"], obj["answer"], f"{split}-{index + 1}")


def humaneval_hub_row(obj: dict[str, Any], index: int, split: str) -> dict[str, Any]:
    """openai/openai_humaneval row `{task_id, prompt, canonical_solution, test,
    entry_point}` -> the `load_humaneval` row (id = task_id)."""
    row = {"id": obj["task_id"], "prompt": obj["prompt"], "test": obj["test"],
           "entry_point": obj["entry_point"]}
    if obj.get("canonical_solution"):
        row["canonical_solution"] = obj["canonical_solution"]
    return row


def mbpp_hub_row(obj: dict[str, Any], index: int, split: str) -> dict[str, Any]:
    """google-research-datasets/mbpp (config full) row `{task_id, text, code, test_list,
    test_setup_code, challenge_test_list}` -> the `load_mbpp` row (id = task_id; the hub's
    test split is task ids 11-510, as the local loader selects)."""
    row = {"id": obj["task_id"], "text": obj["text"], "test_list": list(obj["test_list"]),
           "test_setup_code": obj.get("test_setup_code") or ""}
    if obj.get("code"):
        row["code"] = obj["code"]
    return row


def triviaqa_hub_row(obj: dict[str, Any], index: int, split: str) -> dict[str, Any]:
    """mandarjoshi/trivia_qa (config rc.nocontext) row `{question, question_id, answer:
    {value, aliases, normalized_aliases, ...}, ...}` -> the `load_triviaqa` row
    (id = question_id; `aliases` = answer.aliases, lm-evaluation-harness's targets)."""
    answer = obj["answer"]
    aliases = list(answer.get("aliases") or []) or [answer["value"]]
    return {"id": obj["question_id"], "question": obj["question"].strip(),
            "answer": answer["value"], "aliases": aliases}


# --- can the hub be tried? -------------------------------------------------------------------

def offline_mode() -> str | None:
    """The variable that puts `datasets` offline (`HF_DATASETS_OFFLINE=1`, or
    `HF_HUB_OFFLINE=1` when HF_DATASETS_OFFLINE is unset), or None when online."""
    for name in ("HF_DATASETS_OFFLINE", "HF_HUB_OFFLINE"):
        value = os.environ.get(name)
        if value is not None:
            return f"{name}={value}" if value.strip().upper() in TRUE_VALUES else None
    return None


def in_hf_cache(path: str) -> bool:
    """Whether the local Hugging Face caches hold anything of dataset `path` ("org/name"):
    the hub download cache (`$HF_HUB_CACHE`, default `$HF_HOME/hub`,
    `datasets--org--name`) or the `datasets` cache (`$HF_DATASETS_CACHE`, default
    `$HF_HOME/datasets`, `org___name`)."""
    hub = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    hub_dir = Path(hub).expanduser() if hub else hf_home() / "hub"
    ds = os.environ.get("HF_DATASETS_CACHE")
    ds_dir = Path(ds).expanduser() if ds else hf_home() / "datasets"
    return ((hub_dir / ("datasets--" + path.replace("/", "--"))).is_dir()
            or (ds_dir / path.replace("/", "___")).is_dir())


def hub_unavailable(dataset: HubDataset, probe: Callable[[], str | None]) -> str | None:
    """Why `dataset` cannot come from the hub now (one line), or None to try it.

    Args:
        probe: the reachability check, `() -> reason or None` (`endpoint_unreachable`,
            memoised by the caller so a run probes at most once).
    """
    offline = offline_mode()
    if offline:
        return None if in_hf_cache(dataset.path) else \
            f"{offline} and {dataset.path} is not in the Hugging Face cache"
    reason = probe()
    if reason and in_hf_cache(dataset.path):
        reason += f"; a cached copy of {dataset.path} exists: set HF_DATASETS_OFFLINE=1 to use it"
    return reason


def load_hub_rows(dataset: HubDataset, split: str) -> list[dict[str, Any]]:
    """Load one split through `datasets.load_dataset` and map its rows (`to_row`).

    Raises:
        DataError: `datasets` is not installed, the load failed (one line: the hub
            id, config, split and `datasets`' reason), or a row lacks a field.
    """
    try:
        import datasets
    except ImportError:
        raise DataError("the Hugging Face Hub source needs the `datasets` package: "
                        "pip install datasets (part of rlvr[train])") from None
    where = dataset.describe(split)
    try:
        rows = datasets.load_dataset(dataset.path, dataset.name, split=split)
    except Exception as exc:  # datasets raises many types (ConnectionError, DatasetNotFound...)
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DataError(f"{where}: {reason[:300]}") from None
    out = []
    for index, obj in enumerate(rows):
        try:
            out.append(dataset.to_row(dict(obj), index, split))
        except (KeyError, TypeError, ValueError) as exc:
            raise DataError(f"{where}, row {index}: unexpected row ({type(exc).__name__}: "
                            f"{exc}); the hub dataset may have changed its format") from None
    return out
