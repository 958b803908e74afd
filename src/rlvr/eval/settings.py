"""The settings of every evaluation stage, each a frozen value checked when it is built.

`EvalSettings` is how answers are generated (token cap, samples, temperature, seed, batch
size, engine, dtype, question limit). `rlvr eval`, `rlvr.api.evaluate`, the main job and
evaluation during training all build one, and its construction holds the checks the
command line runs (one line naming the flag and the fix, before any model loads).

`RunEvaluation.from_run(cfg)` is the one place a training run's config (a `TrainConfig`, or
the plain dict of a saved `resolved_config.yaml`) becomes evaluation settings: the
held-out generation, the knowledge labels, the decision rule, the likelihood cross-check,
the k-shot evaluation and the cross-task evaluation each get the narrow settings object
they use, never the whole config. The rules written here once:

- the evaluation token cap is `eval_max_new_tokens`, else the training cap
  `max_completion_length` (answers are judged at the length they were trained to give);
- a calibration run is judged on greedy answers; a task run on `eval_num_samples` answers
  per row, sampled at the run's `temperature` when more than one.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Mapping

from rlvr.config.checks import UPPER_LIMITS
from rlvr.config.reward_setup import is_task_run, reward_entries
from rlvr.errors import RlvrError

ENGINES = ("auto", "transformers", "vllm")
DTYPES = ("float32", "bfloat16")
SAMPLED_TEMPERATURE = 0.8  # `rlvr eval --num-samples K` without --temperature samples at this
RUN_TEMPERATURE = 0.7  # TrainConfig's `temperature` default, for a saved config without one

# field -> (command-line flag, upper limit or None); the messages name the flag
_LIMITS = {"num_samples": ("--num-samples", UPPER_LIMITS["num_generations"]),
           "limit": ("--limit", None),
           "batch_size": ("--batch-size", UPPER_LIMITS["eval_batch_size"]),
           "max_new_tokens": ("--max-new-tokens", UPPER_LIMITS["eval_max_new_tokens"])}


@dataclass(frozen=True)
class EvalSettings:
    """How a model answers an evaluation's questions.

    Attributes:
        max_new_tokens: tokens per answer; None = each task's own cap.
        num_samples: answers per question (K; pass@k for code tasks).
        temperature: sampling temperature; None = greedy (0.0) for one answer and
            `SAMPLED_TEMPERATURE` for several (`rlvr eval`'s default). Resolved on
            construction, so the attribute is always a float.
        seed: sampling seed; batch_size: prompts per generation batch (vLLM: batch size x
            samples = sequences in flight).
        engine: "auto" (vLLM when installed, else transformers:
            `rlvr.eval.vllm_engine.resolve_engine`; resolved on construction, so the
            attribute is always "transformers" or "vllm"), "transformers" or "vllm";
            dtype: "float32" or "bfloat16" weights.
        limit: first N questions per task; None = all.
        endpoint: an OpenAI-compatible server's URL (`rlvr.eval.endpoint`) that answers
            instead of a model loaded here; `engine` is then "endpoint". endpoint_model:
            the served model's name (None = the first the server lists).
    Raises:
        RlvrError: a count below 1 or absurdly large, a negative or non-finite
            temperature, an unknown engine or dtype, or engine "vllm" without vLLM
            installed (`rlvr.eval.vllm_engine.check_engine`: the install line).
    """

    max_new_tokens: int | None = None
    num_samples: int = 1
    temperature: float | None = None
    seed: int = 0
    batch_size: int = 16
    engine: str = "auto"
    dtype: str = "float32"
    limit: int | None = None
    endpoint: str | None = None
    endpoint_model: str | None = None

    def __post_init__(self) -> None:
        for name, (flag, upper) in _LIMITS.items():
            value = getattr(self, name)
            if value is not None and value < 1:
                raise RlvrError(f"{flag} must be >= 1, got {value}")
            if value is not None and upper is not None and value > upper:
                raise RlvrError(f"{flag} {value} is above {upper:,}, far more than any real "
                                "evaluation uses (a typo?); pass a smaller value")
        if self.engine not in ENGINES:
            raise RlvrError(f"--engine must be one of {', '.join(ENGINES)}, got {self.engine!r}")
        if self.dtype not in DTYPES:
            raise RlvrError(f"--dtype must be one of {', '.join(DTYPES)}, got {self.dtype!r}")
        if self.endpoint_model is not None and self.endpoint is None:
            raise RlvrError("--endpoint-model names the model an --endpoint serves; pass "
                            "--endpoint URL too")
        if self.endpoint is not None and self.engine != "auto":
            raise RlvrError(f"--engine {self.engine} generates here; with --endpoint the "
                            "server generates: drop one of them")
        if self.endpoint is not None:  # the server answers: no engine here
            from rlvr.eval.endpoint import check_endpoint_url

            object.__setattr__(self, "endpoint", check_endpoint_url(self.endpoint))
            object.__setattr__(self, "engine", "endpoint")
        else:
            from rlvr.eval.vllm_engine import check_engine, resolve_engine

            object.__setattr__(self, "engine", resolve_engine(self.engine))
            check_engine(self.engine, self.dtype)  # vllm missing: the install line, now
        temperature = self.temperature
        if temperature is not None and not (math.isfinite(temperature) and temperature >= 0):
            raise RlvrError(f"--temperature must be >= 0 and finite, got {temperature}")
        if temperature is None:
            temperature = SAMPLED_TEMPERATURE if self.num_samples > 1 else 0.0
        object.__setattr__(self, "temperature", float(temperature))

    def replace(self, **changes: Any) -> "EvalSettings":
        """A copy with `changes` (checked again)."""
        return dataclasses.replace(self, **changes)

    def generation(self) -> dict[str, Any]:
        """The keys `rlvr.eval.runner.generate_task_records` reads: batch_size, num_samples,
        temperature, seed, max_new_tokens."""
        return {"batch_size": self.batch_size, "num_samples": self.num_samples,
                "temperature": self.temperature, "seed": self.seed,
                "max_new_tokens": self.max_new_tokens}

    @property
    def max_num_seqs(self) -> int:
        """Sequences a vLLM engine holds in flight: batch size x samples per prompt."""
        return self.batch_size * self.num_samples


@dataclass(frozen=True)
class KnowledgeSettings:
    """Which questions the base model knows (`rlvr.eval.labelling`): `samples` answers per
    answerable question at `temperature` (1 at 0 = its greedy answer), known when the
    share correct is >= `threshold`; `cache`: the training rows' answers are taken from and
    kept in the label cache across runs."""

    samples: int = 1
    temperature: float = 0.0
    threshold: float = 0.5
    cache: bool = False  # training rows' answers kept across runs (rlvr.eval.label_cache)

    @property
    def reuses_greedy(self) -> bool:
        """One greedy answer: the held-out evaluation's own answers are the samples."""
        return self.samples == 1 and self.temperature == 0

    def as_dict(self) -> dict[str, Any]:
        """{"knowledge_samples", "knowledge_temperature", "knowledge_threshold"}: saved with
        the labels so a resumed run reuses them only when they match."""
        return {"knowledge_samples": self.samples, "knowledge_temperature": self.temperature,
                "knowledge_threshold": self.threshold}


@dataclass(frozen=True)
class DecisionSettings:
    """The decision-rule check (`rlvr.eval.decision_rule`): `samples` answer-forced answers
    per answerable question at `temperature`, capped at the training length
    `max_new_tokens` (the decision is about the answers training shaped); `preset` names
    the reward preset in the report. `samples` 0 = off."""

    samples: int = 1
    temperature: float = 0.0
    max_new_tokens: int = 64
    preset: str | None = None


@dataclass(frozen=True)
class CrossCheckSettings:
    """The likelihood cross-task check (`rlvr.eval.cross_check`): `tasks` (empty = off),
    rows per task `limit` (an int or {task: rows, "default": rows}), `distractors` per
    task, the bootstrap resamples and seed, the data folder, and the share of training
    time it may take (`budget_share`, None = no limit)."""

    tasks: tuple[str, ...] = ()
    limit: Any = 10
    distractors: Any = None
    bootstrap_samples: int = 2000
    seed: int = 0
    data_dir: str | None = None
    budget_share: float | None = None


@dataclass(frozen=True)
class KshotSettings:
    """The k-shot GSM8K evaluation of a task run (`rlvr.eval.kshot`): the shot counts,
    questions per count, exemplar seed, the run's data (`data`, to take its own rows when
    they are GSM8K-format rows other than GSM8K), the data folder, and the generation
    (`batch_size`, `max_new_tokens`; None = the task's cap), `bootstrap_samples`."""

    shots: tuple[int, ...]
    limit: int | None
    seed: int
    data: str | None
    data_dir: str | None
    batch_size: int
    max_new_tokens: int | None
    bootstrap_samples: int


@dataclass(frozen=True)
class CrossEvalSettings:
    """`rlvr eval` of base and adapter on other tasks after training: the model, the task
    names, and how they are answered (`generation`: its `limit` is per task)."""

    model: str | None
    tasks: tuple[str, ...]
    data_dir: str | None
    generation: EvalSettings


# a task run's cross-check may take this share of its training time (`cross_check_budget`)
TASK_RUN_BUDGET = 0.25


@dataclass(frozen=True)
class RunEvaluation:
    """Everything evaluation reads from a training run's config, stage by stage.

    Attributes:
        task_run: a run of task rewards (GSM8K, MATH, QA, code): no knowledge labels or
            honesty report; its held-out rows are scored by every reward entry.
        entries: the run's reward entries (`rlvr.config.reward_setup.reward_entries`).
        heldout: the held-out answers (greedy for a calibration run, `eval_num_samples`
            for a task run), also used by evaluation during training; its `engine`
            (`eval_engine`) generates every evaluation stage of the job
            (`rlvr.eval.run_engine.RunGenerator`) and the cross-task evaluation.
        cache_key: what the base model's held-out answers depend on besides the questions
            (model, prompt, token cap, samples; temperature and seed when sampled); a
            saved answer file is reused only when it matches.
        knowledge, decision, cross_check: the stages' settings; kshot, cross_eval: None
            when off. train_knowledge: the training rows' labels (`train_answerable:
            known|label`), `train_knowledge_samples` at `train_knowledge_temperature`,
            each falling back to the held-out setting when unset. bootstrap_samples,
            seed: of every paired interval.
        step_eval_limit: held-out rows scored at each `eval_steps` evaluation.
    """

    task_run: bool
    entries: tuple[dict[str, Any], ...]
    heldout: EvalSettings
    cache_key: Mapping[str, Any]
    knowledge: KnowledgeSettings
    train_knowledge: KnowledgeSettings
    decision: DecisionSettings
    cross_check: CrossCheckSettings
    kshot: KshotSettings | None
    cross_eval: CrossEvalSettings | None
    bootstrap_samples: int
    seed: int
    step_eval_limit: int

    @classmethod
    def from_run(cls, cfg: Any) -> "RunEvaluation":
        """The evaluation settings of a run: `cfg` is a `TrainConfig` or the dict of a
        saved `resolved_config.yaml` (a key it lacks takes TrainConfig's default).

        Raises:
            RlvrError: settings `EvalSettings` refuses (a hand-edited saved config).
        """
        get = _getter(cfg)
        names = _Namespace(get)
        task_run = is_task_run(names)
        seed = int(get("seed"))
        heldout = heldout_settings(cfg, task_run)
        tokens, k = heldout.max_new_tokens, heldout.num_samples
        cache_key = {"model": get("model"), "system_prompt": get("system_prompt"),
                     "prompt_exemplars": get("prompt_exemplars"),
                     "max_new_tokens": tokens, "num_samples": k,
                     "temperature": heldout.temperature, "seed": seed if k > 1 else None}
        share = get("cross_check_budget")
        if share == "auto":
            share = TASK_RUN_BUDGET if task_run else None
        bootstrap = int(get("bootstrap_samples"))
        knowledge = KnowledgeSettings(int(get("knowledge_samples")),
                                      float(get("knowledge_temperature")),
                                      float(get("knowledge_threshold")), bool(get("label_cache")))
        data_dir, kshot, eval_tasks = get("eval_data_dir"), get("kshot_eval"), get("eval_tasks")
        return cls(
            task_run=task_run, entries=tuple(reward_entries(names)), heldout=heldout,
            cache_key=cache_key,
            knowledge=knowledge,
            train_knowledge=KnowledgeSettings(
                knowledge.samples if get("train_knowledge_samples") is None
                else int(get("train_knowledge_samples")),
                knowledge.temperature if get("train_knowledge_temperature") is None
                else float(get("train_knowledge_temperature")),
                knowledge.threshold, knowledge.cache),
            decision=DecisionSettings(int(get("decision_samples")),
                                      float(get("decision_temperature")),
                                      int(get("max_completion_length")), get("reward_preset")),
            cross_check=CrossCheckSettings(tuple(get("cross_check") or ()),
                                           get("cross_check_limit"),
                                           get("cross_check_distractors"), bootstrap, seed,
                                           data_dir, None if share is None else float(share)),
            kshot=KshotSettings(tuple(kshot), get("kshot_limit"), seed, get("data"), data_dir,
                                heldout.batch_size, get("eval_max_new_tokens"),
                                bootstrap) if kshot else None,
            cross_eval=CrossEvalSettings(
                get("model"), tuple(eval_tasks), data_dir,
                EvalSettings(seed=seed, batch_size=heldout.batch_size,
                             engine=get("eval_engine"), dtype=get("eval_dtype"),
                             limit=get("eval_tasks_limit"))) if eval_tasks else None,
            bootstrap_samples=bootstrap, seed=seed,
            step_eval_limit=int(get("eval_steps_limit")))


def heldout_settings(cfg: Any, task_run: bool) -> EvalSettings:
    """How a run's held-out rows are answered: at `eval_token_cap`, greedy for a calibration
    run, `eval_num_samples` per row for a task run (at the run's `temperature` when more
    than one), the run's seed, `eval_batch_size`, `eval_engine` (resolved: "auto" is vLLM
    when installed) and `eval_limit`."""
    get = _getter(cfg)
    k = int(get("eval_num_samples")) if task_run else 1
    return EvalSettings(max_new_tokens=eval_token_cap(cfg), num_samples=k,
                        temperature=float(get("temperature")) if k > 1 else 0.0,
                        seed=int(get("seed")), batch_size=int(get("eval_batch_size")),
                        engine=get("eval_engine"), limit=get("eval_limit"))


def eval_token_cap(cfg: Any) -> int | None:
    """The evaluation token cap of a run (`TrainConfig` or saved dict): `eval_max_new_tokens`,
    else `max_completion_length` (tokens)."""
    get = _getter(cfg)
    return get("eval_max_new_tokens") or get("max_completion_length")


def run_value(cfg: Any, key: str) -> Any:
    """One setting of a run: `cfg` a `TrainConfig`, or a saved `resolved_config.yaml` dict
    (TrainConfig's default when the key is missing, e.g. a run from an older rlvr)."""
    return _getter(cfg)(key)


def _defaults() -> dict[str, Any]:
    """TrainConfig's default for every key."""
    from rlvr.config import TrainConfig

    out = {}
    for f in dataclasses.fields(TrainConfig):
        out[f.name] = f.default if f.default is not dataclasses.MISSING else f.default_factory()
    return out


def _getter(cfg: Any):
    """`key -> value` over a TrainConfig, or over a saved config dict with defaults."""
    if isinstance(cfg, Mapping):
        defaults = _defaults()
        return lambda key: cfg[key] if key in cfg else defaults[key]
    return lambda key: getattr(cfg, key)


class _Namespace:
    """Attribute access over `_getter`, for the config helpers that read `cfg.reward`."""

    def __init__(self, get):
        self._get = get

    def __getattr__(self, key: str) -> Any:
        return self._get(key)
