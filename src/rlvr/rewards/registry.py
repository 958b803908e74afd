"""The reward registry and the adapters that call rewards.

A reward is a pure per-sample core `(completion: str, **fields) -> RewardResult` plus a
declared score range and the dataset fields it reads (`rlvr.rewards.contract`), registered
under its name in `REWARDS` by `register_reward`; the built-in ones by importing the modules
of `BUILTIN_REWARD_MODULES` (`load_builtin_rewards`, which `import rlvr.rewards` runs).
`make_trl_reward` wraps a core as a TRL reward function `(completions, **dataset_columns) ->
list[float | None]`, named so TRL logs it as `rewards/<name>/mean`; `make_trl_rewards`
builds several, with weights, for `GRPOTrainer(reward_funcs=...,
args=GRPOConfig(reward_weights=...))`; `score_rows` scores JSONL rows (`rlvr score`).

Fields come in three kinds: required `fields` (every row must have them), `optional_fields`
(passed when the row or batch has them; `prompt` is also filled from TRL's `prompts`
argument) and `required_any` (at least one of them must be present, e.g. `aliases` or
`answer`). A reward whose work is expensive per sample (the sandboxed `code` reward) also
registers a `batch_core` that scores a whole batch at once, in parallel.

Outcome labels are part of the contract: each reward declares the labels its verdicts
carry (`RewardSpec.outcomes`; every built-in reward does, and a test checks the
declarations against what the cores return), so a judge model used as a reward must answer
with one of them and its verdict enters the same tables, metrics and diagnostics as the
string graders' (TruthRL, Wei et al. 2025, Table 8: a string-match verifier collapsed
training into abstention where an LLM judge did not). `validate_outcome(reward, label)`
accepts a declared label and refuses anything else with one message that lists the known
labels.

A user's own function plugs in as `module:function` or `path/to/file.py:function`: as a
`reward_funcs` entry's `function` (`register_user_rewards`), or wherever a reward name is
taken (`get_reward("rewards.py:exact")`, `rlvr score --reward rewards.py:exact`); see
`rlvr.rewards.user` for the two kinds of function and their errors.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import inspect
import logging
from pathlib import Path
from typing import Any, Callable

from rlvr.errors import RlvrError
from rlvr.rewards.answers import DEFAULT_REASONING_TAGS, final_answers, reasoning_tags
from rlvr.rewards.answers import REASONING_PARAM
from rlvr.rewards.contract import RewardContractError, RewardResult, RewardSpec

logger = logging.getLogger(__name__)


REWARDS: dict[str, RewardSpec] = {}


def register_reward(name: str, *, fields: tuple[str, ...], score_range: tuple[float, float],
                    presets: dict[str, dict[str, Any]] | None = None,
                    optional_fields: tuple[str, ...] = (), required_any: tuple[str, ...] = (),
                    batch_core: Callable[..., list[RewardResult]] | None = None,
                    outcomes: tuple[str, ...] = (), all_fields: bool = False,
                    whole_completion: bool = False):
    """Decorator that registers a per-sample reward core under `name`.

    See `RewardSpec` for the arguments. Registering a name twice replaces the entry. What
    is registered depends on the arguments alone, never on what else is registered: the
    built-in modules may be imported in any order (`BUILTIN_REWARD_MODULES`).
    """

    def decorate(core: Callable[..., RewardResult]) -> Callable[..., RewardResult]:
        REWARDS[name] = RewardSpec(name, core, tuple(fields), score_range,
                                   dict(presets or {"default": {}}), tuple(optional_fields),
                                   tuple(required_any), batch_core, tuple(outcomes), all_fields,
                                   whole_completion=whole_completion)
        return core if whole_completion else _reading_final_answer(core)

    return decorate


def _reading_final_answer(core: Callable[..., RewardResult]) -> Callable[..., RewardResult]:
    """The public function of a reward: `core` reading the completion's final answer, by the
    rule training uses (`answers.final_answers`, with its `reasoning_tags` keyword), so a
    direct call `selfaware_reward("<think>...</think> I don't know.", ...)` judges what
    `RewardSpec.score_batch` would. The registry keeps the bare core (it cuts the text once,
    for a whole batch)."""
    @functools.wraps(core)
    def reward(completion: Any, *args: Any, **kwargs: Any) -> RewardResult:
        tags = reasoning_tags(kwargs.pop(REASONING_PARAM, DEFAULT_REASONING_TAGS))
        if isinstance(completion, str):
            completion = final_answers([completion], tags)[0]
        return core(completion, *args, **kwargs)

    # one attribute dict: what a module sets later (`param_choices`) reaches the spec's core;
    # the signature shown is the core's (no `__wrapped__`, which would then point at itself)
    reward.__dict__ = core.__dict__
    core.__signature__ = inspect.signature(core)
    return reward


# The modules whose import registers the built-in rewards. Each registers its own rewards and
# reads no other reward at import time, so the order does not matter (a test imports them in
# shuffled orders, each in a fresh interpreter, and compares the registries).
BUILTIN_REWARD_MODULES = (
    "rlvr.rewards.abstention",    # abstention
    "rlvr.rewards.code",          # code
    "rlvr.rewards.gsm8k",         # gsm8k_correctness, gsm8k_format
    "rlvr.rewards.length",        # soft_overlong, repetition_penalty, cosine_scaled
    "rlvr.rewards.llm_judge",     # llm_judge
    "rlvr.rewards.math",          # math
    "rlvr.rewards.qa",            # qa
    "rlvr.rewards.selfaware",     # selfaware
    "rlvr.rewards.think_format",  # think_format
)


def load_builtin_rewards() -> None:
    """Import every module of `BUILTIN_REWARD_MODULES` (each registers its rewards once;
    importing again does nothing). `import rlvr.rewards` calls it."""
    for module in BUILTIN_REWARD_MODULES:
        importlib.import_module(module)


def get_reward(name: str) -> RewardSpec:
    """Look up a registered reward, or load a user function named `module:function` or
    `file.py:function` (a relative path read from the working directory; registered under
    the function's name, see `register_user_rewards`).

    Raises:
        RlvrError: unknown name; the message lists the known names and the closest one; a
            user function that cannot be loaded (`rlvr.rewards.user.load_function`).
    """
    if name in REWARDS:
        return REWARDS[name]
    if isinstance(name, str) and ":" in name:
        return REWARDS[register_user_rewards([{"function": name}])[0]["name"]]
    close = difflib.get_close_matches(name, REWARDS, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise RlvrError(f"unknown reward {name!r}; known rewards: {', '.join(sorted(REWARDS))}.{hint}")


def completion_text(completion: Any) -> str:
    """Return the text of a completion, plain or conversational.

    Args:
        completion: a str, or a list of chat messages `[{"role": ..., "content": ...}]`
            (TRL's conversational format), whose assistant contents are joined.
    Raises:
        TypeError: any other type.
    """
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, list):
        parts = []
        for message in completion:
            content = message.get("content", "") if isinstance(message, dict) else message
            if isinstance(content, list):  # multimodal content blocks
                content = "".join(b.get("text", "") for b in content if isinstance(b, dict))
            if message.get("role", "assistant") == "assistant":
                parts.append(str(content))
        return "\n".join(parts)
    raise TypeError(f"completion must be str or a list of messages, got {type(completion).__name__}")


def make_trl_reward(name: str, preset: str | None = None, observer: Callable | None = None,
                    explain: bool = False, **overrides: Any) -> Callable[..., list]:
    """Wrap a registered reward as a TRL reward function.

    The returned callable has the signature `(completions, **kwargs) -> list[float | None]`
    that `trl.GRPOTrainer(reward_funcs=...)` expects: `kwargs` holds the dataset columns,
    one list entry per completion (TRL also passes `prompts`, `completion_ids` and
    `trainer_state`; unknown keys are ignored, `prompts` feeds an optional `prompt` field).
    Its `__name__` is the reward name, so TRL logs `rewards/<name>/mean`. A None score
    becomes NaN in TRL: that reward is left out for that sample (see `make_trl_rewards`).
    `observer`, when given, is called after each batch as `observer(results, kwargs)` with
    the `RewardResult`s and TRL's keyword arguments (e.g. `completion_ids`, `log_metric`),
    so diagnostics read the outcomes without scoring twice
    (`rlvr.train.diagnostics.CalibrationObserver`). When TRL passes `log_extra`, the
    outcome labels go to its completion table as column `outcome/<name>` (the rollout log,
    `rlvr.train.rollouts`); with `explain`, the rule ids of each verdict's `why`
    (`rlvr.rewards.rulebook`; "decline.phrase > selfaware.table") go there too, as column
    `why/<name>` ("" for a reward whose verdicts carry none). A sample the reward raises on (an
    ill-formed row) scores None with outcome `reward_error` and a logged warning.

    Raises:
        RlvrError: unknown reward or preset; a needed dataset column is missing from the
            batch (the message names it and the columns the batch has).
    """
    spec = get_reward(name)
    name = spec.name
    params = spec.params(preset, **overrides)
    reads_prompt = spec.all_fields or "prompt" in spec.fields + spec.optional_fields

    def reward_func(completions: list, **kwargs: Any) -> list[float | None]:
        if reads_prompt and "prompt" not in kwargs and "prompts" in kwargs:
            kwargs["prompt"] = kwargs["prompts"]
        missing = spec.missing_fields(kwargs)
        if missing:
            raise RlvrError(
                f"reward {name!r} needs dataset column(s) {missing}; the batch has "
                f"{sorted(k for k in kwargs if not k.startswith('_'))}"
            )
        wanted = [f for f in spec.fields + spec.optional_fields + spec.required_any if f in kwargs]
        if spec.all_fields:  # `**fields`: every per-sample column TRL passes
            wanted = [k for k, v in kwargs.items() if k != "prompts" and isinstance(v, list)
                      and len(v) == len(completions)]
        rows = [{f: kwargs[f][i] for f in wanted} for i in range(len(completions))]
        texts = [completion_text(c) for c in completions]
        results = _score_isolated(spec, texts, rows, params)
        if observer is not None:
            observer(results, kwargs)
        if callable(kwargs.get("log_extra")):  # TRL >= 1.x: a column of its completion table
            kwargs["log_extra"](f"outcome/{reward_func.__name__}", [r.outcome for r in results])
            if explain:
                kwargs["log_extra"](f"why/{reward_func.__name__}", [why_ids(r) for r in results])
        return [r.score for r in results]

    functools.update_wrapper(reward_func, spec.core)
    reward_func.__name__ = name
    reward_func.__qualname__ = name
    return reward_func


def _score_isolated(spec: RewardSpec, texts: list[str], rows: list[dict[str, Any]],
                    params: dict[str, Any],
                    on_failure: Callable[[int, Exception], RewardResult] | None = None,
                    ) -> list[RewardResult]:
    """Score a batch; when it raises, score one sample at a time and give each failing
    sample `on_failure(index, exc)` (default: score None, outcome `reward_error`, logged),
    so one odd row or completion cannot end a run that has already paid for generation.
    A `RewardContractError` (a user function returned a string, ...) is a bug in the
    function, not in a row: it is raised, with the sample's index in `texts`."""
    try:
        return spec.score_batch(texts, rows, params)
    except RewardContractError:
        raise
    except Exception:  # noqa: BLE001  (isolate the failing samples)
        results = []
        for i, (text, row) in enumerate(zip(texts, rows)):
            try:
                results.append(spec.score_batch([text], [row], params)[0])
            except RewardContractError as exc:
                raise exc.at(i) from None
            except Exception as exc:  # noqa: BLE001
                results.append(on_failure(i, exc) if on_failure else _reward_error(spec, exc))
        return results


def _reward_error(spec: RewardSpec, exc: Exception) -> RewardResult:
    logger.warning("reward %s could not score a sample (scored None): %s: %s",
                   spec.name, type(exc).__name__, exc)
    return RewardResult(None, "reward_error", {"error": str(exc)[:200]})


def make_trl_rewards(
    entries: list[dict[str, Any]], observer: Callable | None = None, explain: bool = False,
) -> tuple[list[Callable[..., list]], list[float]]:
    """Build several TRL reward functions and their weights from config entries.

    Args:
        entries: one dict per reward: `name` (a registered reward, or the name of a user
            function), optional `function` (a user function, `module:function` or
            `file.py:function`, with optional `score_range: [low, high]` and `batch: true|
            false`; see `register_user_rewards`), `preset`, `params` (overrides dict),
            `weight` (float, default 1.0) and `log_name` (the name TRL logs as
            `rewards/<log_name>/mean`; needed when one reward appears twice, e.g. with two
            presets).
    Returns:
        (reward_funcs, reward_weights): pass them as `GRPOTrainer(reward_funcs=...)` and
        `GRPOConfig(reward_weights=...)`. TRL sums the weighted rewards per sample
        (`sum_then_normalize`); a None from one reward counts as 0 in that sum, and a
        sample where every reward is None gets advantage 0. `observer` (see
        `make_trl_reward`) is attached to the first `selfaware` entry, if any; `explain`
        logs each verdict's rule ids (`make_trl_reward`).
    Raises:
        RlvrError: an entry without `name` or `function`, an unknown key, reward or preset,
            two entries with the same logged name, a user function that cannot be loaded
            (`register_user_rewards`).
    """
    known = {"name", "preset", "params", "weight", "log_name"} | USER_KEYS
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not {"name", "function", "reward_model"} & set(entry):
            raise RlvrError(f"reward entry {i + 1} needs a 'name' key (a registered reward), "
                            "a 'function' key (your own: module:function or "
                            "file.py:function) or a 'reward_model' key (a model folder or "
                            f"hub id), got {entry!r}")
        unknown = sorted(set(entry) - known)
        if unknown:
            raise RlvrError(f"reward entry {i + 1} has unknown key(s) {unknown}; "
                            f"known: {sorted(known)}")
    entries = register_user_rewards(entries)
    funcs, weights, seen = [], [], set()
    for entry in entries:
        watch = observer if entry["name"] == "selfaware" and observer is not None else None
        if watch is not None:
            observer = None  # only the first selfaware entry is observed
        func = make_trl_reward(entry["name"], entry.get("preset"), watch, explain,
                               **(entry.get("params") or {}))
        log_name = entry.get("log_name") or entry["name"]
        if log_name in seen:
            raise RlvrError(f"two rewards would both log as rewards/{log_name}/mean; give one "
                            "of them a distinct 'log_name'")
        seen.add(log_name)
        func.__name__ = func.__qualname__ = log_name
        funcs.append(func)
        weights.append(float(entry.get("weight", 1.0)))
    return funcs, weights


def why_ids(result: RewardResult) -> str:
    """The rule ids of a verdict's `why`, in order, joined by " > " ("" when it has none)."""
    found = result.details.get("why") if isinstance(result.details, dict) else None
    return " > ".join(item["rule"] for item in found or ())


def score_rows(name: str, rows: list[dict[str, Any]], preset: str | None = None,
               on_error: str = "raise", **overrides: Any) -> list[RewardResult]:
    """Score rows that hold a `completion` plus the reward's fields (for `rlvr score`).

    Args:
        on_error: "raise" (default): the first bad row raises; "skip": a bad row gets
            score None and outcome `bad_row` with the reason in `details["error"]`, and
            the other rows are scored. A row is bad when it lacks `completion` or a needed
            field, its completion is not text or chat messages, or the reward raises on it
            (e.g. `is_unanswerable: "maybe"`).
    Raises:
        RlvrError: with on_error "raise", a bad row (the message starts "row N", N from 1);
            with either, a user function's return value outside the contract ("row N was
            scored by reward function ..., which returned 'yes' (a str); ..."); an unknown
            reward, preset or parameter; an unknown on_error value.
    """
    if on_error not in ("raise", "skip"):
        raise RlvrError(f"on_error must be 'raise' or 'skip', not {on_error!r}")
    spec = get_reward(name)
    name = spec.name
    params = spec.params(preset, **overrides)
    results: list[RewardResult | None] = [None] * len(rows)
    good, texts = [], []
    for i, row in enumerate(rows):
        try:
            missing = ((["completion"] if "completion" not in row else [])
                       + spec.missing_fields(row))
            if missing:
                raise RlvrError(f"lacks field(s) {missing} needed by reward {name!r}")
            texts.append(_row_text(row["completion"]))
            good.append(i)
        except (RlvrError, TypeError) as exc:
            results[i] = _bad_row(i, exc, on_error)
    try:
        scored = _score_isolated(spec, texts, [rows[i] for i in good], params,
                                 lambda k, exc: _bad_row(good[k], exc, on_error))
    except RewardContractError as exc:  # a bug in the function: stops even with "skip"
        if exc.index is None:
            raise
        raise RlvrError(f"row {good[exc.index] + 1} was scored by reward function "
                        f"{exc.function}, which {exc.problem}; {exc.fix}") from None
    for i, result in zip(good, scored):
        results[i] = result
    return results  # type: ignore[return-value]


def _row_text(completion: Any) -> str:
    if completion is None or isinstance(completion, (int, float, bool)):
        raise RlvrError(f"'completion' must be text or chat messages, got {completion!r}")
    return completion_text(completion)


def _bad_row(index: int, exc: Exception, on_error: str) -> RewardResult:
    message = str(exc) if isinstance(exc, RlvrError) else f"{type(exc).__name__}: {exc}"
    if on_error == "raise":
        raise RlvrError(f"row {index + 1} {message}") from None
    return RewardResult(None, "bad_row", {"error": message})


USER_KEYS = {"function", "score_range", "batch", "reward_model"}  # user / reward-model entries


def register_user_rewards(entries: list[Any], base_dir: str | Path | None = None) -> list[Any]:
    """Load and register the user functions among reward entries (`rlvr.rewards.user`).

    An entry with a `reward_model` key (a model folder or hub id; name default
    `reward_model`) is registered the same way (`rlvr.rewards.model_reward`). An entry with a
    `function` key (`module:function` or `path/to/file.py:function`, a
    relative path read from `base_dir`, None = the working directory) is registered as a
    `RewardSpec` under its `name` (default: the function's name), which TRL logs as
    `rewards/<name>/mean`; `score_range: [low, high]` and `batch: true|false` are optional.
    The function is per sample, `(completion: str, **fields) -> float | None |
    RewardResult` (rlvr's core convention), or a batch, `(completions: list[str], **kwargs)
    -> list` (TRL's `GRPOTrainer(reward_funcs=...)` convention), told apart by its first
    parameter. Loading runs the file's code: the user's own, imported normally (not
    sandboxed).
    Registering again (each config load, each `reward_entries` call) reuses the loaded
    function unless its file changed.

    Args:
        entries: `make_trl_rewards` entries; others than dicts with `function` pass as they are.
    Returns:
        the entries, each user entry with `name` filled in and a file path made absolute.
    Raises:
        RlvrError: one line, naming the file and the fix: a malformed reference, missing
            file, unimportable module, syntax error (file:line), missing function (the
            closest name), not callable, no `completion(s)` parameter, a bad `params` key,
            `score_range` or `batch`; a name that is a built-in reward or is given to two
            entries.
    """
    from rlvr.rewards.user import absolute_ref, ref_name, user_spec

    out, owners = [], {}
    for i, entry in enumerate(entries):
        if not isinstance(entry, dict) or not {"function", "reward_model"} & set(entry):
            out.append(entry)
            continue
        if "function" in entry and "reward_model" in entry:
            raise RlvrError(f"reward entry {i + 1} has both function and reward_model; give "
                            "each its own entry")
        if "reward_model" in entry:
            ref, default = entry["reward_model"], "reward_model"
        else:
            ref = absolute_ref(entry["function"], base_dir)
            if not isinstance(ref, str) or ":" not in ref:
                raise RlvrError(f"reward entry {i + 1}: function must be \"module:function\" "
                                f"or \"path/to/file.py:function\", got {ref!r}")
            default = ref_name(ref)
        name = entry.get("name") or default
        if not isinstance(name, str) or not name.strip() or ":" in name:
            raise RlvrError(f"reward entry {i + 1}: name must be a word such as exact (the "
                            f"logged name), got {name!r}")
        registered = REWARDS.get(name)
        if registered is not None and not registered.source:
            raise RlvrError(f"reward entry {i + 1}: {name!r} is a built-in reward; give your "
                            f"function {ref} another name, e.g. name: my_{name} in its "
                            "reward_funcs entry")
        if name in owners:
            raise RlvrError(f"reward entries {owners[name]} and {i + 1} are both named "
                            f"{name!r}; give each function entry its own name")
        owners[name] = i + 1
        if "reward_model" in entry:
            REWARDS[name] = _model_spec(name, ref, entry, i)
            out.append({**entry, "name": name, "reward_model": REWARDS[name].source})
            continue
        REWARDS[name] = user_spec(name, ref, params=entry.get("params"),
                                  score_range=entry.get("score_range"), batch=entry.get("batch"))
        out.append({**entry, "name": name, "function": ref})
    return out


def _model_spec(name: str, model: Any, entry: dict[str, Any], index: int) -> RewardSpec:
    """The spec of a `reward_model` entry (`rlvr.rewards.model_reward`)."""
    from rlvr.rewards.model_reward import reward_model_spec
    from rlvr.rewards.user import score_range_of

    if "batch" in entry:
        raise RlvrError(f"reward entry {index + 1}: batch is for a function; a reward model "
                        "always scores a batch (params: {batch_size: N})")
    return reward_model_spec(name, model, params=entry.get("params"),
                             score_range=score_range_of(name, entry.get("score_range")))


def validate_outcome(reward: str | RewardSpec, label: Any, *, judge: bool = True) -> str:
    """Check an outcome label (for example a judge model's verdict) against a reward's
    declared outcomes and return it.

    Args:
        reward: a registered reward name or its spec.
        label: the label; surrounding whitespace and case are ignored ("Correct " ->
            "correct").
        judge: True (default): only the reward's own labels are accepted (a judge does not
            produce the registry's `reward_error` / `bad_row`); False: those count too.
    Returns:
        the label as declared.
    Raises:
        RlvrError: the label is not a string or not declared (one message listing the
            known labels and the closest one), or the reward declares no labels.
    """
    spec = reward if isinstance(reward, RewardSpec) else get_reward(reward)
    known = spec.declared_outcomes(with_registry=not judge)
    if not known:
        raise RlvrError(f"reward {spec.name!r} declares no outcome labels; register it with "
                        "outcomes=(...) to check labels against them")
    cleaned = label.strip().lower() if isinstance(label, str) else None
    if cleaned in known:
        return cleaned
    close = difflib.get_close_matches(cleaned or "", known, n=1)
    hint = f" Did you mean {close[0]!r}?" if close else ""
    raise RlvrError(f"reward {spec.name!r} has no outcome label {label!r}; known: "
                    f"{', '.join(known)}.{hint}")
