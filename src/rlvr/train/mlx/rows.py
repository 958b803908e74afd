"""rlvr training rows and rewards in mlx-lm-lora's GRPO formats (pure: no mlx import).

mlx-lm-lora 5.10's GRPO trainer reads rows as tuples
`(prompt_tokens, answer_tokens, prompt_text, answer_text, type)` and calls each reward as
`reward(prompts=, completions=, answer=, types=) -> list[float | None]`, one entry per
completion, with the row's five fields repeated G times in a row (prompt-major groups; see
`mlx_lm_lora.trainer.grpo_trainer.generate_grpo` and `_rollout_rewards`). The `type` element
is passed through untouched to the rewards and read by nothing else, so rlvr puts the row's
reward columns there (`RowInfo`): the rewards see exactly the columns TRL would give them.

| mlx-lm-lora field | from the rlvr column(s)                                             |
|-------------------|---------------------------------------------------------------------|
| prompt_tokens     | `prompt` (chat messages) through the chat template with the        |
|                   | generation prompt, encoded without special tokens (as TRL / eval)  |
| answer_tokens     | `answer_text` encoded (unused by the GRPO loss)                     |
| prompt_text       | the rendered prompt (what the model reads)                          |
| answer_text       | `expected_answer` joined with " | ", "" for an unanswerable row     |
| type              | dict: every column (`prompt`, `expected_answer`, `is_unanswerable`, |
|                   | [`known`], the rewards' other fields) and `_type` ("answerable" /  |
|                   | "unanswerable", the reference project's label)                     |

Unscorable samples (reward None): mlx-lm-lora counts None as 0 in the weighted sum and stops
training when every reward of a completion is None. rlvr's convention is "left out of the
group mean, advantage 0", so `mlx_reward` gives a None the mean of the scored rewards of
its group (that reward's group mean is then unchanged and the sample's share of the
advantage is 0), or 0.0 when no completion of the group was scored (zero spread: all
advantages 0). The group std then includes the filled-in values, which only rescales the
group's advantages by a constant.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from rlvr.errors import RlvrError

LABEL = "_type"  # the reference project's answerable / unanswerable label (not a column)


def answer_text(expected: Sequence[str] | None) -> str:
    """Readable gold answers: "Paris | City of Light", or "" when there is none."""
    return " | ".join(str(a) for a in expected) if expected else ""


def mlx_rows(columns: dict[str, list], render: Callable[[Any], str],
             encode: Callable[[str], list[int]]) -> list[tuple]:
    """Turn rlvr's training columns into mlx-lm-lora GRPO rows.

    Args:
        columns: `rlvr.train.data_prep.training_columns` output: `prompt` (chat message
            lists or strings), `expected_answer` (list or None), `is_unanswerable` (bool),
            optionally `known` and the rewards' other fields; one value per row.
        render: prompt -> text (`rlvr.eval.generate.render_prompts` for one prompt).
        encode: text -> token ids, without special tokens.
    Returns:
        one 5-tuple per row (see the module table); the 5th element is a dict with the
        row's columns and `_type`.
    Raises:
        RlvrError: columns of different lengths, or an empty prompt.
    """
    sizes = {c: len(v) for c, v in columns.items()}
    if len(set(sizes.values())) > 1:
        raise RlvrError(f"training columns differ in length: {sizes}")
    rows = []
    for i in range(sizes.get("prompt", 0)):
        info = {c: columns[c][i] for c in columns}
        info[LABEL] = "unanswerable" if info.get("is_unanswerable") else "answerable"
        text = render(info["prompt"])
        tokens = list(encode(text))
        if not tokens:
            raise RlvrError(f"training row {i + 1} has an empty prompt")
        gold = answer_text(info.get("expected_answer"))
        rows.append((tokens, list(encode(gold)) if gold else [], text, gold, info))
    return rows


def fill_unscored(scores: Sequence[float | None], group_size: int) -> list[float]:
    """Replace None scores by the mean of the scored ones in the same group (0.0 when none
    of the group is scored); groups are consecutive runs of `group_size`.

    E.g. group_size 3, [1.0, None, -0.5] -> [1.0, 0.25, -0.5]: (1.0 - 0.5) / 2 = 0.25, the
    group mean stays 0.25 and the filled sample's advantage is 0.
    Raises:
        RlvrError: the number of scores is not a multiple of group_size.
    """
    if group_size < 1 or len(scores) % group_size:
        raise RlvrError(f"{len(scores)} rewards do not split into groups of {group_size}")
    out: list[float] = []
    for start in range(0, len(scores), group_size):
        group = scores[start:start + group_size]
        scored = [float(s) for s in group if s is not None and s == s]  # s == s: not NaN
        fill = sum(scored) / len(scored) if scored else 0.0
        out.extend(float(s) if s is not None and s == s else fill for s in group)
    return out


def mlx_reward(trl_reward: Callable[..., list], group_size: int,
               encode: Callable[[str], list[int]] | None = None,
               log_metric: Callable[[str, float], None] | None = None) -> Callable[..., list]:
    """Wrap an rlvr TRL-style reward (`rlvr.rewards.make_trl_rewards`) for mlx-lm-lora.

    Args:
        trl_reward: `(completions, **columns) -> list[float | None]`.
        group_size: G (completions per prompt), for `fill_unscored`.
        encode: optional text -> ids; gives the reward (and the diagnostics observer)
            `completion_ids`, re-encoded from the completion text (mlx-lm-lora hands
            rewards text only; the EOS token is not part of it).
        log_metric: optional sink `(name, value)` passed on as TRL's `log_metric`, so the
            calibration observer can log.
    Returns:
        `reward(prompts, completions, answer, types) -> list[float]`, named like
        `trl_reward` (mlx-lm-lora logs `<name>_mean`); None scores are filled as the module
        docstring says.
    Raises:
        RlvrError (when called): `types` lacks the row columns (rows not built by
        `mlx_rows`), or a group's rows are not one row repeated G times.
    """

    def reward(prompts, completions, answer, types=None):
        if not types or not all(isinstance(t, dict) and "prompt" in t for t in types):
            raise RlvrError("mlx rewards need rows built by rlvr.train.mlx.rows.mlx_rows "
                            "(the row columns travel in the 'type' field)")
        for start in range(0, len(types), group_size):
            if any(t is not types[start] for t in types[start:start + group_size]):
                raise RlvrError("mlx-lm-lora no longer orders completions in groups of "
                                f"{group_size} per prompt; rlvr's reward adapter needs updating")
        names = [c for c in types[0] if c not in ("prompt", LABEL)]
        kwargs: dict[str, Any] = {c: [t[c] for t in types] for c in names}
        kwargs["prompts"] = [t["prompt"] for t in types]
        if encode is not None:
            kwargs["completion_ids"] = [list(encode(c)) for c in completions]
        if log_metric is not None:
            kwargs["log_metric"] = log_metric
        return fill_unscored(trl_reward(list(completions), **kwargs), group_size)

    reward.__name__ = reward.__qualname__ = getattr(trl_reward, "__name__", "reward")
    return reward
