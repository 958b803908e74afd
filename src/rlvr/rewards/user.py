"""User rewards: a function of your own, named `module:function` or `path/to/file.py:function`,
registered as a `RewardSpec` so the preflight, `rlvr score`, the eval report and
`make_trl_rewards` use it as they use a built-in reward.

Two kinds of function, told apart by the first parameter's name (or by `batch: true|false`
in the `reward_funcs` entry, which then takes the first positional parameter whatever its
name):

| kind | signature | returns |
|---|---|---|
| per sample (rlvr's own reward cores) | `(completion: str, **fields)` | a number, None (cannot score) or a `RewardResult` |
| batch (TRL's `GRPOTrainer(reward_funcs=...)` convention) | `(completions: list[str], **kwargs)` | a list with one of those per completion |

Every other named parameter is a dataset field: one without a default is required (a row
without it is refused, before any model loads), one with a default is passed when the row
has it; a batch function gets each as a list, one value per completion, as TRL passes its
dataset columns. `prompt` (per sample) / `prompts` (batch, TRL's name) is the prompt. A
function with `**kwargs` gets every column of the row. Completions arrive as text (chat
completions joined to their assistant text, as for the built-in rewards). Parameters named
in the entry's `params` are passed with those values instead of being read from the rows.
A plain number's outcome is `scored` (None: `unscored`); return a `RewardResult` for labels
of your own, and declare them as `function.outcomes = ("correct", "wrong")` so the eval
report counts accuracy (and pass@k) from `correct`. bool counts as 1.0 / 0.0 and NaN as
None (TRL's "no reward").

The score range is optional (`score_range: [low, high]` in the entry): when declared, a score
outside it stops scoring, and the preflight judges "close to gold" as a share of it; when
not, the range is (-inf, inf) and the preflight flags only policies that score as much as
gold.

Paths: `load_config` resolves a relative `file.py` path against the config file's folder;
anywhere else (`--set`, `rlvr score --reward`, a TrainConfig built in Python) it is read from
the working directory (`absolute_ref`). A module is imported as Python imports it: an
installed package or a folder on PYTHONPATH.

Loading runs the file's code: it is the user's own code on their own machine (like a
`conftest.py`), not model-generated code, so it is imported normally, not in
`rlvr.sandbox`. Only model completions are untrusted, and a reward function must treat them
as data. Every problem with the reference or the function is one `RlvrError` line naming
the file (and the line of a syntax error) and the fix, raised when the config loads; a
return value outside the contract raises `RewardContractError` at the first scored batch.
"""

from __future__ import annotations

import difflib
import hashlib
import importlib
import importlib.util
import inspect
import math
import numbers
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable

from rlvr.errors import RlvrError
from rlvr.rewards.contract import RewardContractError, RewardResult, RewardSpec

RETURN_FIX = "a reward function returns a number, None (cannot score) or a RewardResult"
OUTCOMES = ("scored", "unscored")  # the outcome of a returned number / None
FORM = '"module:function" or "path/to/file.py:function"'
_MODULES: dict[tuple[str, int, int], Any] = {}  # (file, mtime_ns, size) -> module: run once
_SPECS: dict[tuple, tuple[Callable, RewardSpec]] = {}  # (..., id(function), ...) -> spec
_P = inspect.Parameter


def is_function_ref(value: Any) -> bool:
    """Whether a reward name is a function reference: registry names never hold ':'."""
    return isinstance(value, str) and ":" in value


def split_ref(ref: Any) -> tuple[str, str, bool]:
    """`(target, function, is_file)` of `module:function` or `path/file.py:function`; a
    target ending in `.py` or holding a path separator is a file.

    Raises:
        RlvrError: not that form (no ':', an empty part, a function part that is not a
            Python name, a module part that is not a dotted name).
    """
    if not is_function_ref(ref):
        raise RlvrError(f"a reward function is named {FORM}, got {ref!r}")
    target, _, attr = ref.strip().rpartition(":")
    is_file = target.endswith(".py") or "/" in target or "\\" in target
    if not target or not attr.isidentifier():
        raise RlvrError(f"a reward function is named {FORM}, got {ref!r}: the part after the "
                        "last ':' must be the function's name")
    if not is_file and not all(p.isidentifier() for p in target.split(".")):
        raise RlvrError(f"{target!r} in {ref!r} is not a module name (dotted Python names); "
                        "for a file give its path ending in .py")
    return target, attr, is_file


def ref_name(ref: str) -> str:
    """The function part of a reference (`rewards.py:exact` -> `exact`): the name a user
    reward is registered and logged under unless its entry gives a `name`."""
    return ref.strip().rpartition(":")[2]


def absolute_ref(ref: Any, base_dir: str | Path | None = None) -> Any:
    """A file reference with its path made absolute against `base_dir` (None = the working
    directory), `~` expanded; module references, registry names and malformed references
    are returned unchanged (the latter fail in `load_function`)."""
    if not is_function_ref(ref):
        return ref
    try:
        target, attr, is_file = split_ref(ref)
    except RlvrError:
        return ref
    if not is_file:
        return ref.strip()
    path = Path(target).expanduser()
    if not path.is_absolute():
        path = Path(base_dir if base_dir is not None else os.getcwd()) / path
    return f"{os.path.normpath(path)}:{attr}"


def _failure(where: str, exc: BaseException, path: str | None = None) -> RlvrError:
    """One line for code that raised while importing: the file line it raised at."""
    frames = [f for f in _frames(exc.__traceback__) if not f[0].startswith("<")]
    mine = [f for f in frames if path is None
            or os.path.abspath(f[0]) == os.path.abspath(path)] or frames
    at = f"{mine[-1][0]}:{mine[-1][1]}: " if mine else ""
    text = str(exc).splitlines()[0] if str(exc) else ""
    fix = ("install that package or fix the import" if isinstance(exc, ModuleNotFoundError)
           else "fix the file: its top-level code runs when the config loads")
    return RlvrError(f"{at}importing {where} raised {type(exc).__name__}: {text}; {fix}")


def _frames(tb) -> list[tuple[str, int]]:
    out = []
    while tb is not None:
        out.append((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    return out


def _syntax(exc: SyntaxError, path: str) -> RlvrError:
    return RlvrError(f"{exc.filename or path}:{exc.lineno}: syntax error in reward function "
                     f"file ({exc.msg}); fix that line")


def _import_file(target: str) -> Any:
    """Import a .py file once per version (path, mtime, size) under a private module name."""
    path = Path(target)
    if path.is_dir():
        raise RlvrError(f"reward function file {path} is a folder; name a .py file in it, "
                        f"e.g. {path / 'rewards.py'}:function")
    if not path.is_file():
        raise RlvrError(f"reward function file {path} not found; fix the path (a relative "
                        "path in a config file is read from the config file's folder, "
                        "elsewhere from the working directory)")
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key in _MODULES:
        return _MODULES[key]
    stem = re.sub(r"\W", "_", path.stem)
    name = f"rlvr_user_reward_{stem}_{hashlib.sha1(str(path).encode()).hexdigest()[:8]}"
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # dataclasses and pickle look a class's module up here
    try:
        module_spec.loader.exec_module(module)
    except SyntaxError as exc:
        sys.modules.pop(name, None)
        raise _syntax(exc, str(path)) from None
    except Exception as exc:  # noqa: BLE001  (the user's top-level code)
        sys.modules.pop(name, None)
        raise _failure(f"reward function file {path}", exc, str(path)) from None
    _MODULES[key] = module
    return module


def _import_module(target: str, attr: str) -> Any:
    try:
        return importlib.import_module(target)
    except SyntaxError as exc:
        raise _syntax(exc, target) from None
    except ModuleNotFoundError as exc:
        if exc.name and (target == exc.name or target.startswith(exc.name + ".")):
            raise RlvrError(f"cannot import module {target!r} for reward function "
                            f"{target}:{attr} ({exc}); install its package or add its folder "
                            f"to PYTHONPATH, or name a file: path/to/file.py:{attr}") from None
        raise _failure(f"module {target}", exc) from None
    except Exception as exc:  # noqa: BLE001  (the user's top-level code)
        raise _failure(f"module {target}", exc) from None


def load_function(ref: str) -> Callable[..., Any]:
    """Import the module or file of `ref` and return its function (see the module
    docstring for what importing runs).

    Raises:
        RlvrError: malformed reference; file missing (or a folder); module not importable;
            a syntax error (`file:line`); the file's code raised (`file:line`); no such
            function (with the closest name and the functions it defines); not callable.
    """
    target, attr, is_file = split_ref(ref)
    module = _import_file(target) if is_file else _import_module(target, attr)
    where = f"reward function file {target}" if is_file else f"module {target}"
    defined = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                     and getattr(v, "__module__", None) == module.__name__)
    if not hasattr(module, attr):
        close = difflib.get_close_matches(attr, defined, n=1)
        hint = f"did you mean {close[0]!r}? " if close else ""
        listing = f"it defines {', '.join(defined)}" if defined else "it defines no function"
        raise RlvrError(f"{where} has no function {attr!r} ({hint}{listing}); fix the name "
                        f"after ':' in {ref}")
    func = getattr(module, attr)
    if not callable(func):
        example = f" such as {target}:{defined[0]}" if defined else ""
        raise RlvrError(f"{ref} is a {type(func).__name__} ({func!r:.40}), not a function; "
                        f"point at a function{example}")
    return func


def read_signature(func: Callable, ref: str, batch: bool | None = None) -> dict[str, Any]:
    """How to call `func`: {"batch", "first", "required", "optional", "open_ended",
    "named"} (module docstring).

    Args:
        batch: the entry's declaration; None = judge by the first parameter's name.
    Raises:
        RlvrError: no `completion` / `completions` first parameter (nor a declaration), or
            a required positional-only parameter rlvr cannot pass by name.
    """
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        raise RlvrError(f"cannot read the parameters of {ref}; wrap it in a def "
                        "(completion, **fields) -> float") from None
    params = list(signature.parameters.values())
    positional = [p for p in params if p.kind in (_P.POSITIONAL_ONLY, _P.POSITIONAL_OR_KEYWORD)]
    first = positional[0] if positional else None
    if batch is None and (first is None or first.name not in ("completion", "completions")):
        raise RlvrError(f"reward function {ref} has the signature {ref_name(ref)}{signature}; "
                        "its first parameter must be `completion` (one sample -> a number, "
                        "rlvr's convention) or `completions` (a batch -> a list, TRL's "
                        "convention): rename it, or declare batch: true or false in its "
                        "reward_funcs entry")
    if first is None:
        raise RlvrError(f"reward function {ref}{signature} takes no positional parameter for "
                        "the completion(s); give it one first: (completion, **fields)")
    rest = [p for p in params if p is not first]
    for p in rest:
        if p.kind is _P.POSITIONAL_ONLY and p.default is _P.empty:
            raise RlvrError(f"reward function {ref}{signature}: parameter {p.name!r} is "
                            "positional-only, but rlvr passes fields by name; remove the '/'")
    named = [p for p in rest if p.kind in (_P.POSITIONAL_OR_KEYWORD, _P.KEYWORD_ONLY)]
    return {"batch": first.name == "completions" if batch is None else bool(batch),
            "first": first.name, "named": named,
            "required": [p.name for p in named if p.default is _P.empty],
            "optional": [p.name for p in named if p.default is not _P.empty],
            "open_ended": any(p.kind is _P.VAR_KEYWORD for p in params)}


def score_range_of(name: str, value: Any, key: str = "score_range") -> tuple[float, float]:
    """An entry's `score_range` (or another [low, high] setting named `key`) as (low,
    high); None = (-inf, inf).

    Raises:
        RlvrError: not [low, high], two finite numbers with low < high.
    """
    if value is None:
        return (-math.inf, math.inf)
    ok = (isinstance(value, (list, tuple)) and len(value) == 2
          and all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                  for v in value) and value[0] < value[1])
    if not ok:
        raise RlvrError(f"{key} of reward {name!r} must be [low, high], two numbers with "
                        f"low < high such as [0, 1], got {value!r}")
    return (float(value[0]), float(value[1]))


def _result(value: Any, ref: str, index: int, row: dict | None, low: float, high: float,
            batch: bool) -> RewardResult:
    """One returned value as a RewardResult (module docstring), or RewardContractError."""
    result = value if isinstance(value, RewardResult) else None
    score = result.score if result is not None else value
    if score is None or (isinstance(score, float) and math.isnan(score)):
        return RewardResult(None, result.outcome if result else OUTCOMES[1],
                            dict(result.details) if result else {})
    if not isinstance(score, numbers.Real):
        fix = RETURN_FIX + ("" if batch or not isinstance(score, (list, tuple)) else
                            " (a function that scores a batch names its first parameter "
                            "`completions`)")
        raise RewardContractError(ref, f"returned {score!r:.60} (a {type(score).__name__})",
                                  fix, index, row)
    number = float(score)
    if not low <= number <= high:
        raise RewardContractError(ref, f"returned {number:g}, outside its score_range "
                                       f"[{low:g}, {high:g}]", "fix the function or the "
                                  "entry's score_range", index, row)
    return RewardResult(number, result.outcome if result else OUTCOMES[0],
                        dict(result.details) if result else {})


def user_spec(name: str, ref: str, *, params: dict[str, Any] | None = None,
              score_range: Any = None, batch: Any = None) -> RewardSpec:
    """The `RewardSpec` of a user function (module docstring), built once per function
    version and entry settings.

    Args:
        name: the registry and logged name.
        ref: `module:function` or `/abs/path/file.py:function` (see `absolute_ref`).
        params: the entry's fixed keyword arguments (not read from rows).
        score_range: [low, high] or None (undeclared: (-inf, inf)).
        batch: True / False declares the kind; None reads it from the first parameter.
    Returns:
        a spec whose `batch_core(completions, rows, **params) -> list[RewardResult]` calls
        the function (per sample or once per batch); `source` is `ref`.
    Raises:
        RlvrError: as `load_function` and `read_signature`; `batch` not a bool; a `params`
            key the function does not take; a malformed `score_range`.
    """
    if batch is not None and not isinstance(batch, bool):
        raise RlvrError(f"batch of reward {name!r} must be true or false, got {batch!r}")
    if params is not None and not isinstance(params, dict):
        raise RlvrError(f"params of reward {name!r} must be a mapping such as {{strict: true}}, "
                        f"got {params!r}")
    func = load_function(ref)
    fixed = tuple(sorted(params or {}))
    key = (name, ref, id(func), fixed, repr(score_range), batch)
    if key in _SPECS and _SPECS[key][0] is func:
        return _SPECS[key][1]
    sig = read_signature(func, ref, batch)
    names = [p.name for p in sig["named"]]
    unknown = [k for k in fixed if k not in names]
    if unknown and not sig["open_ended"]:
        close = difflib.get_close_matches(unknown[0], names, n=1)
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise RlvrError(f"reward function {ref} has no parameter {unknown[0]!r} for params "
                        f"(its parameters: {', '.join(names) or 'none'}).{hint}")
    low, high = score_range_of(name, score_range)
    own = getattr(func, "outcomes", ())
    if not (isinstance(own, (list, tuple)) and all(isinstance(o, str) for o in own)):
        raise RlvrError(f"{ref}.outcomes must be a tuple of labels such as "
                        f"(\"correct\", \"wrong\"), got {own!r}")
    is_batch = sig["batch"]
    # a batch function's `prompts` is the rows' `prompt` (TRL's plural name)
    column = {"prompts": "prompt"} if is_batch else {}
    required = tuple(column.get(n, n) for n in sig["required"] if n not in fixed)
    optional = tuple(column.get(n, n) for n in sig["optional"] if n not in fixed)
    arg = {v: k for k, v in column.items()}

    def batch_core(completions: list[str], rows: list[dict[str, Any]],
                   **kwargs: Any) -> list[RewardResult]:
        if not is_batch:
            return [_result(func(text, **{**row, **kwargs}), ref, i, row, low, high, False)
                    for i, (text, row) in enumerate(zip(completions, rows))]
        keys = dict.fromkeys(k for row in rows for k in row)
        columns = {arg.get(k, k): [row.get(k) for row in rows] for k in keys}
        values = func(list(completions), **{**columns, **kwargs})
        if hasattr(values, "tolist") and not isinstance(values, (list, tuple)):
            values = values.tolist()  # a numpy array or tensor
        if not isinstance(values, (list, tuple)):
            raise RewardContractError(ref, f"returned {values!r:.60} (a "
                                      f"{type(values).__name__}), not a list", "a batch "
                                      "function (first parameter `completions`) returns one "
                                      "score per completion, TRL's convention; to score one "
                                      "sample at a time name the first parameter `completion`")
        if len(values) != len(completions):
            raise RewardContractError(ref, f"returned {len(values)} scores for "
                                      f"{len(completions)} completions", "a batch function "
                                      "returns one score per completion, in order")
        return [_result(v, ref, i, rows[i], low, high, True) for i, v in enumerate(values)]

    def core(completion: str, **fields: Any) -> RewardResult:
        rows = [{k: v for k, v in fields.items() if k not in fixed}]
        return batch_core([completion], rows, **{k: fields[k] for k in fixed if k in fields})

    # what `RewardSpec.check_params` reads: the fixed parameters are keyword-only
    core.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [_P("completion", _P.POSITIONAL_OR_KEYWORD)]
        + [_P(p.name, _P.KEYWORD_ONLY, default=p.default) for p in sig["named"]]
        + ([_P("fields", _P.VAR_KEYWORD)] if sig["open_ended"] else []))
    core.__doc__ = getattr(func, "__doc__", None)
    spec = RewardSpec(name, core, required, (low, high), {"default": {}}, optional, (),
                      batch_core, tuple(dict.fromkeys(tuple(own) + OUTCOMES)),
                      sig["open_ended"], ref)
    _SPECS[key] = (func, spec)  # the function kept alive: its id stays its own
    return spec
