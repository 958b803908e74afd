"""Length and repetition guards: `soft_overlong`, `repetition_penalty`, `cosine_scaled`.

Guards are meant to be added next to a task reward in `reward_funcs` (TRL sums the weighted
rewards per sample), as TRL (`trl.rewards`) and open-r1 (`src/open_r1/rewards.py`) ship them:

- `soft_overlong`, range [-1, 0]: DAPO (Yu et al., 2025), Eq. (13): 0 up to
  L_max - L_cache, then linear down to -1 at L_max, -1 beyond.
- `repetition_penalty`, range [-1, 0]: Yeo et al. (2025), "Demystifying Long
  Chain-of-Thought Reasoning in LLMs", Appendix C.2: (1 - unique/total n-grams) * p.
- `cosine_scaled`, range [-1, 1]: Yeo et al. (2025), Appendix C.1: a cosine in the length
  between two values, one pair for correct answers (short is best) and one for wrong ones
  (short is worst).

One module, not three: the three are one concept, a guard on the shape of a response that
rides next to a task reward and never judges its answer by itself (so the preflight skips
them all, `GUARDS`); they share what a guard is made of: a completion counted in a declared
unit (token ids, `num_tokens`, words or characters; `no_token_ids` when a row has no ids),
parameter checks that refuse a value outside the declared range instead of clipping it,
and the caveats below. Three modules would each repeat those or import them from a fourth.

Length. Every length is counted in `unit`: `tokens` (the default) is `len(completion_ids)`,
the token ids TRL's `GRPOTrainer._calculate_rewards` passes to every reward function (with
transformers generation: the generated ids up to and including the first EOS, so a
completion cut at `max_completion_length` has exactly that many); rows without ids may
carry `num_tokens` (the generated-token count `rlvr eval` stores in its records, also
counting the EOS). A row with neither cannot be measured in tokens: it scores None (outcome
`no_token_ids`), which `rlvr score` counts and TRL leaves out of the sum; offline text can
be measured with `unit: words` (whitespace-separated) or `unit: chars` instead. During
training TRL always passes the ids.

Correctness for `cosine_scaled`. Either `base` names another registered reward, scored on
the same completion (with `base_preset` and `base_params`), and the answer is correct when
its score is at least `threshold` (default: the base reward's maximum, e.g. 1.0 for `math`
or `selfaware`); or, without `base`, every row carries a boolean `correct` column (a row
without it is an error). A None from the base reward, or `correct: null`, makes the cosine
score None. `cosine_scaled` is given every column of the row (`all_fields`) and the base
reward picks its own fields when it scores, so any registered reward, a user's included,
can be the base, whatever was registered first.

Score ranges. The declared ranges hold for any accepted parameters: values outside them are
refused (RlvrError) rather than clipped. To use a larger scale (the authors' released
script for their Sec. 4.2 run uses cosine values -10/0/+1/+2), divide the values by the
largest magnitude and put that factor in the entry's `weight`: TRL multiplies each reward by
its weight before summing.

Caveats. (1) `cosine_scaled` pays a wrong answer more the longer it is (from
min_value_wrong at length 0 up to max_value_wrong at L_max), which favours rambling when
the model cannot answer; set min_value_wrong = max_value_wrong for a flat wrong value, or
pair it with `soft_overlong`. (2) `rlvr train`'s preflight compares degenerate policies
with gold per reward; a penalty-only guard gives all short answers the same 0, so the
preflight only checks the guards' parameters (`GUARDS`) and judges the task rewards.
Parameter errors surface when the reward first scores (the preflight, before the model
loads, or the first batch).
"""

from __future__ import annotations

import math
from typing import Any, Sequence

from rlvr.errors import RlvrError
from rlvr.rewards.contract import RewardResult
from rlvr.rewards.registry import get_reward, register_reward

GUARDS = ("soft_overlong", "repetition_penalty", "cosine_scaled")  # no preflight table
UNITS = ("tokens", "words", "chars")
REPETITION_UNITS = ("words", "tokens")
_TOKEN_FIELDS = ("completion_ids", "num_tokens")


# --- pure math --------------------------------------------------------------------------------

def overlong_penalty(length: int, max_length: int, cache_length: int) -> float:
    """DAPO's soft overlong punishment of one response length.

    Source: Yu et al. (2025), "DAPO: An Open-Source LLM Reinforcement Learning System at
    Scale", Eq. (13); implemented as `trl.rewards.get_soft_overlong_punishment`:

        R(L) = 0                                   if L <= L_max - L_cache
             = ((L_max - L_cache) - L) / L_cache   if L_max - L_cache < L <= L_max
             = -1                                  if L > L_max

    Args:
        length: L (tokens, words or characters; >= 0); max_length: L_max (same unit, >= 1).
        cache_length: L_cache, the width of the linear zone (0 <= L_cache <= L_max); with 0
            the middle case is empty: 0 up to L_max and -1 beyond.
    Returns: a float in [-1, 0].
    """
    start = max_length - cache_length
    if length <= start:
        return 0.0
    if length <= max_length:
        return (start - length) / cache_length
    return -1.0


def repeated_ngram_fraction(units: Sequence[Any], ngram_size: int) -> float:
    """Share of a sequence's n-grams that repeat an earlier one: 1 - unique / total.

    Source: Yeo et al. (2025), "Demystifying Long Chain-of-Thought Reasoning in LLMs",
    Appendix C.2 (the repetition penalty is this fraction times the maximum penalty); the
    same quantity as open-r1's and TRL's `get_repetition_penalty_reward`.

    Args:
        units: the sequence (words or token ids; hashable items); ngram_size: n (>= 1).
    Returns: a float in [0, 1); 0.0 when the sequence has fewer than n items (no n-gram).
    """
    total = len(units) - ngram_size + 1
    if total < 1:
        return 0.0
    if ngram_size == 1:
        unique = len(set(units))
    else:
        unique = len(set(zip(*(units[i:] for i in range(ngram_size)))))
    return 1.0 - unique / total


def cosine_value(length: int, max_length: int, correct: bool, *, min_value_wrong: float,
                 max_value_wrong: float, min_value_correct: float,
                 max_value_correct: float) -> float:
    """The cosine length-scaled reward of one response.

    Source: Yeo et al. (2025), "Demystifying Long Chain-of-Thought Reasoning in LLMs",
    Appendix C.1, as implemented by TRL's `get_cosine_scaled_reward`:

        R = v_lo + 0.5 (v_hi - v_lo) (1 + cos(pi * min(L / L_max, 1)))

    with (v_lo, v_hi) = (min_value_correct, max_value_correct) for a correct response, so
    the reward falls from max_value_correct at L = 0 to min_value_correct at L_max, and
    (v_lo, v_hi) = (max_value_wrong, min_value_wrong) for a wrong one, so it rises from
    min_value_wrong at L = 0 to max_value_wrong at L_max (a long wrong answer is punished
    less). The progress is clamped at 1 as in TRL: lengths past L_max keep the L_max value
    (open-r1's version does not clamp, so its cosine climbs back after L_max).

    Args:
        length: L (>= 0), in any unit; max_length: L_max (> 0), same unit.
        correct: whether the response is correct.
    Returns: a float between the chosen pair of values.
    """
    progress = min(length / max_length, 1.0)
    low, high = ((min_value_correct, max_value_correct) if correct
                 else (max_value_wrong, min_value_wrong))
    return low + 0.5 * (high - low) * (1.0 + math.cos(progress * math.pi))


# --- shared helpers ---------------------------------------------------------------------------

def completion_length(completion: str, unit: str, completion_ids: Sequence[int] | None = None,
                      num_tokens: int | None = None) -> int | None:
    """Length of a completion in `unit`.

    Args:
        completion: the response text.
        unit: `tokens` (len(completion_ids), else `num_tokens`, else None), `words`
            (whitespace-separated pieces) or `chars` (Unicode code points).
        completion_ids: the generated token ids (TRL's `completion_ids` entry), or None.
        num_tokens: the generated-token count, used when there are no ids, or None.
    Returns:
        the length (int >= 0), or None for `tokens` with neither ids nor count.
    Raises:
        RlvrError: unknown unit.
    """
    if unit == "tokens":
        if completion_ids is not None:
            return len(completion_ids)
        return None if num_tokens is None else int(num_tokens)
    if unit == "words":
        return len(completion.split())
    if unit == "chars":
        return len(completion)
    raise RlvrError(f"unknown length unit {unit!r}; use one of {', '.join(UNITS)}")


def _need_int(reward: str, name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        hint = " (set it to the run's max_completion_length)" if name == "max_length" else ""
        raise RlvrError(f"reward {reward!r} needs parameter {name} as an integer >= {low}, "
                        f"got {value!r}{hint}")
    return value


def _need_value(reward: str, name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise RlvrError(f"reward {reward!r}: {name} must be a number in [{low:g}, {high:g}] "
                        f"(its declared score range), got {value!r}; scale with the entry's "
                        "`weight` instead")
    return float(value)


def _no_ids(unit: str) -> RewardResult:
    return RewardResult(None, "no_token_ids", {
        "unit": unit, "error": "no completion_ids or num_tokens to count tokens; TRL passes "
                               "completion_ids, offline use unit: words or chars"})


# --- soft_overlong ----------------------------------------------------------------------------

@register_reward("soft_overlong", whole_completion=True, fields=(),
                 optional_fields=_TOKEN_FIELDS,
                 score_range=(-1.0, 0.0), outcomes=("short", "in_cache", "over_max", "no_token_ids"))
def soft_overlong(completion: str, *, max_length: int | None = None,
                  cache_length: int | None = None, unit: str = "tokens",
                  completion_ids: Sequence[int] | None = None,
                  num_tokens: int | None = None) -> RewardResult:
    """DAPO soft overlong punishment (see `overlong_penalty`): 0 for short responses, a
    linear penalty over the last `cache_length` units before `max_length`, -1 beyond.

    Args:
        completion: the response text.
        max_length: L_max (required, no default, as in TRL's `max_completion_len`): for
            `unit: tokens`, normally the run's `max_completion_length`, so a response cut
            at the cap scores -1.
        cache_length: L_cache (required, as TRL's `soft_punish_cache`), 0..max_length.
        unit: `tokens` (default), `words` or `chars` (see `completion_length`).
        completion_ids, num_tokens: the row's token ids / count (fields, optional).
    Returns:
        RewardResult with outcome `short` (score 0), `in_cache` (L_max - L_cache < L <=
        L_max) or `over_max` (L > L_max, -1), or `no_token_ids` (score None). Details:
        `length`, `unit`.
    Raises:
        RlvrError: max_length missing or < 1, cache_length missing or outside
            0..max_length, unknown unit.
    """
    max_length = _need_int("soft_overlong", "max_length", max_length, 1)
    cache_length = _need_int("soft_overlong", "cache_length", cache_length, 0)
    if cache_length > max_length:
        raise RlvrError(f"reward 'soft_overlong': cache_length {cache_length} exceeds "
                        f"max_length {max_length}")
    length = completion_length(completion, unit, completion_ids, num_tokens)
    if length is None:
        return _no_ids(unit)
    score = overlong_penalty(length, max_length, cache_length)
    outcome = ("short" if length <= max_length - cache_length
               else "in_cache" if length <= max_length else "over_max")
    return RewardResult(score, outcome, {"length": length, "unit": unit})


# --- repetition_penalty -----------------------------------------------------------------------

@register_reward("repetition_penalty", whole_completion=True, fields=(),
                 optional_fields=("completion_ids",),
                 score_range=(-1.0, 0.0), presets={"default": {}, "tokens": {"unit": "tokens"}},
                 outcomes=("no_repeats", "repeated", "too_short", "no_token_ids"))
def repetition_penalty(completion: str, *, ngram_size: int = 3, max_penalty: float = -1.0,
                       unit: str = "words",
                       completion_ids: Sequence[int] | None = None) -> RewardResult:
    """N-gram repetition penalty: `repeated_ngram_fraction(units, ngram_size) * max_penalty`.

    Source: Yeo et al. (2025), Appendix C.2, as open-r1's `get_repetition_penalty_reward`
    (defaults `repetition_n_grams` 3, `repetition_max_penalty` -1.0; n-grams of the
    lower-cased whitespace-separated words). Preset `tokens` counts n-grams of the token
    ids instead, as TRL 1.16's `get_repetition_penalty_reward` does.

    Args:
        completion: the response text.
        ngram_size: n (>= 1; default 3).
        max_penalty: the score of a response made only of repeats (in [-1, 0]; default -1).
        unit: `words` (default: lower-cased `str.split()` pieces, punctuation kept, so
            "know," and "know." differ) or `tokens` (`completion_ids`).
        completion_ids: the row's token ids (field, optional; needed for `tokens`).
    Returns:
        RewardResult with outcome `no_repeats` (0.0), `repeated` (< 0), `too_short` (fewer
        than n units: 0.0) or `no_token_ids` (None). Details: `units` (the count),
        `repeated_fraction`.
    Raises:
        RlvrError: ngram_size < 1, max_penalty outside [-1, 0], unknown unit.
    """
    ngram_size = _need_int("repetition_penalty", "ngram_size", ngram_size, 1)
    max_penalty = _need_value("repetition_penalty", "max_penalty", max_penalty, -1.0, 0.0)
    if unit == "words":
        units = completion.lower().split()
    elif unit == "tokens":
        if completion_ids is None:
            return _no_ids(unit)
        units = completion_ids.tolist() if hasattr(completion_ids, "tolist") else completion_ids
    else:
        raise RlvrError(f"reward 'repetition_penalty': unknown unit {unit!r}; use one of "
                        f"{', '.join(REPETITION_UNITS)}")
    if len(units) < ngram_size:
        return RewardResult(0.0, "too_short", {"units": len(units), "repeated_fraction": 0.0})
    fraction = repeated_ngram_fraction(units, ngram_size)
    score = fraction * max_penalty if fraction else 0.0
    return RewardResult(score, "repeated" if score else "no_repeats",
                        {"units": len(units), "repeated_fraction": fraction})


# --- cosine_scaled ----------------------------------------------------------------------------

_TRUE = ("1", "true", "yes", "correct")
_FALSE = ("0", "false", "no", "wrong")


def _as_correct(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        raise RlvrError(f"reward 'cosine_scaled': cannot read correct={value!r} as a boolean")
    return bool(value)


def cosine_scaled_batch(completions: list[str], rows: list[dict[str, Any]], *,
                        max_length: int | None = None, base: str | None = None,
                        base_preset: str | None = None,
                        base_params: dict[str, Any] | None = None,
                        threshold: float | None = None, unit: str = "tokens",
                        min_value_wrong: float = -1.0, max_value_wrong: float = -0.5,
                        min_value_correct: float = 0.5,
                        max_value_correct: float = 1.0) -> list[RewardResult]:
    """Score a batch with the cosine length-scaled reward (see `cosine_value`).

    Correctness comes from the `base` reward (its batch scorer, so `code` still runs in
    parallel) or, without `base`, from each row's `correct` field.

    Args:
        completions: response texts; rows: one dict of fields per completion
            (`completion_ids` / `num_tokens`, `correct`, and the base reward's fields).
        max_length: L_max of the cosine schedule (required; open-r1's default 1000 counts
            characters, TRL has none and counts tokens).
        base, base_preset, base_params: the reward that decides correctness.
        threshold: the base score at or above which a response is correct (default: the
            base reward's maximum score).
        unit: `tokens` (default), `words` or `chars`.
        min_value_wrong, max_value_wrong, min_value_correct, max_value_correct: rewards of a
            wrong answer at length 0 / L_max and of a correct one at L_max / 0 (defaults
            -1.0, -0.5, 0.5, 1.0, as open-r1's and TRL's functions; open-r1's training
            script defaults `cosine_min_value_wrong` to 0.0). Each in [-1, 1].
    Returns:
        one RewardResult per completion: outcome `correct` or `wrong`, `unscored` (base
        score None or `correct` None; score None) or `no_token_ids` (None). Details:
        `length`, `unit`, and `base_outcome`, `base_score` with a base reward.
    Raises:
        RlvrError: max_length missing or < 1, a value outside [-1, 1], unknown unit, unknown
            base reward or preset, a row without the base reward's fields, neither `base`
            nor a `correct` field, an unreadable `correct` value.
    """
    name = "cosine_scaled"
    max_length = _need_int(name, "max_length", max_length, 1)
    values = {k: _need_value(name, k, v, -1.0, 1.0) for k, v in (
        ("min_value_wrong", min_value_wrong), ("max_value_wrong", max_value_wrong),
        ("min_value_correct", min_value_correct), ("max_value_correct", max_value_correct))}
    if unit not in UNITS:
        raise RlvrError(f"unknown length unit {unit!r}; use one of {', '.join(UNITS)}")
    if base is not None:
        if base == name:
            raise RlvrError("reward 'cosine_scaled' cannot be its own base")
        spec = get_reward(base)
        params = spec.params(base_preset, **(base_params or {}))
        cut = spec.score_range[1] if threshold is None else float(threshold)
        for i, row in enumerate(rows):
            missing = spec.missing_fields(row)
            if missing:
                raise RlvrError(f"reward 'cosine_scaled' (base {base!r}): row {i + 1} lacks "
                                f"field(s) {missing}")
        verdicts = spec.score_batch(completions, rows, params)
        correct = [None if v.score is None else v.score >= cut for v in verdicts]
    else:
        if any("correct" not in row for row in rows):
            raise RlvrError("reward 'cosine_scaled' needs correctness: set params.base to a "
                            "registered reward (e.g. math) or give every row a `correct` field")
        verdicts = None
        correct = [_as_correct(row["correct"]) for row in rows]
    results = []
    for i, (text, row) in enumerate(zip(completions, rows)):
        length = completion_length(text, unit, row.get("completion_ids"), row.get("num_tokens"))
        if length is None:
            results.append(_no_ids(unit))
            continue
        details: dict[str, Any] = {"length": length, "unit": unit}
        if verdicts is not None:
            details.update(base_outcome=verdicts[i].outcome, base_score=verdicts[i].score)
        if correct[i] is None:
            results.append(RewardResult(None, "unscored", details))
            continue
        score = cosine_value(length, max_length, correct[i], **values)
        results.append(RewardResult(score, "correct" if correct[i] else "wrong", details))
    return results


_PARAMS = ("max_length", "base", "base_preset", "base_params", "threshold", "unit",
           "min_value_wrong", "max_value_wrong", "min_value_correct", "max_value_correct")


@register_reward("cosine_scaled", whole_completion=True,  # its base reads the final answer
                 fields=(), all_fields=True,  # the base picks its fields
                 score_range=(-1.0, 1.0), batch_core=cosine_scaled_batch,
                 outcomes=("correct", "wrong", "unscored", "no_token_ids"))
def cosine_scaled(completion: str, **fields_and_params: Any) -> RewardResult:
    """Cosine length-scaled reward of one response: `cosine_scaled_batch` on one row.

    Args:
        completion: the response text.
        fields_and_params: the row's fields (`completion_ids`, `num_tokens`, `correct`, the
            base reward's fields) and the parameters of `cosine_scaled_batch`.
    Returns / Raises: as `cosine_scaled_batch`.
    """
    params = {k: fields_and_params.pop(k) for k in _PARAMS if k in fields_and_params}
    return cosine_scaled_batch([completion], [fields_and_params], **params)[0]

