"""Curriculum for GRPO: retire prompts whose recent groups teach nothing, draw the others.

A GRPO group whose G completions all get the same reward has advantage 0 everywhere (TRL
counts it in `frac_reward_zero_std`): a full generation that moves nothing. Prompts the
policy solves every time produce such groups. `PromptHistory` keeps each prompt's last
`window` group outcomes and retires a prompt once all were solved (optionally: all
failed), never below a floor of active prompts; `CurriculumSampler` yields TRL
`RepeatSampler`'s index stream drawn only from the active prompts, and replays its logged
draws on resume. Standard library only; the TRL hook is `rlvr.train.curriculum.trainer`.
"""

from __future__ import annotations

import logging
import math
import random
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from rlvr.errors import ConfigError, RlvrError

logger = logging.getLogger(__name__)

STATE_VERSION = 1
# A reward within this of a threshold counts as reaching it (float sums of weighted rewards).
TOLERANCE = 1e-9
# TRL marks a group zero-spread when torch.isclose(std, 0): |std| <= atol = 1e-8.
ZERO_STD = 1e-8


@dataclass(frozen=True)
class GroupOutcome:
    """What one group of G completions of a prompt scored.

    Attributes:
        step: the optimizer step (1-based) the group was generated for.
        mean: mean total reward of the scored completions; None when none was scored.
        spread: the sample std of the scored rewards is > 1e-8 (TRL's zero-std test).
        solved: some completion was scored and every scored one reached the threshold.
        failed: some completion was scored and every scored one is at or below the failed
            threshold (False without a failed threshold).
    """

    step: int
    mean: float | None
    spread: bool
    solved: bool
    failed: bool

    def to_list(self) -> list:
        """`[step, mean, spread, solved, failed]` (the JSON form)."""
        return [self.step, self.mean, self.spread, self.solved, self.failed]


def group_outcome(rewards: Sequence[float | None], step: int, solved_reward: float,
                  failed_reward: float | None = None) -> GroupOutcome:
    """Summarise one group's total rewards.

    Args:
        rewards: the G total (weighted-sum) rewards of one prompt's group; None or NaN
            marks an unscorable completion, left out as in TRL's nanmean/nanstd.
        step: optimizer step (1-based).
        solved_reward: a completion is solved when its reward >= this (minus 1e-9).
        failed_reward: a completion failed when its reward <= this (plus 1e-9); None =
            never failed.
    Returns:
        the `GroupOutcome`; e.g. [1.0, 1.0] with solved 1.0 -> mean 1.0, no spread, solved.
    Source: rlvr; zero spread means advantage 0 for the whole group (Shao et al., 2024).
    """
    scored = [float(r) for r in rewards if r is not None and not math.isnan(r)]
    if not scored:
        return GroupOutcome(step, None, False, False, False)
    mean = sum(scored) / len(scored)
    std = (math.sqrt(sum((r - mean) ** 2 for r in scored) / (len(scored) - 1))
           if len(scored) > 1 else 0.0)
    solved = all(r >= solved_reward - TOLERANCE for r in scored)
    failed = failed_reward is not None and all(r <= failed_reward + TOLERANCE for r in scored)
    return GroupOutcome(step, mean, std > ZERO_STD, solved, failed)


class PromptHistory:
    """Per-prompt record of recent group outcomes and the retire rule.

    Prompts are ids 0..num_prompts-1 (dataset row indices). A prompt is retired when its
    last `window` recorded groups were all solved, or, with `retire_failed`, all failed.
    The active count never drops below `min_active`: a retirement that would cross it
    first reinstates the prompt retired longest ago (its window cleared); when nothing is
    retired (num_prompts == min_active) the prompt stays active. Groups of a prompt that is
    already retired (drawn before its retirement) are recorded but change nothing.

    Args:
        num_prompts: number of training prompts (>= min_active).
        window: groups that must agree before a prompt retires (>= 1).
        solved_reward, failed_reward: thresholds of `group_outcome` (total reward units).
        retire_failed: also retire prompts whose last `window` groups all failed.
        min_active: floor of active prompts, at least the distinct prompts of one
            generation batch so a batch can always be filled.
    Raises:
        ConfigError: window < 1, num_prompts < min_active (or < 1), or
            retire_failed without a failed threshold.
    """

    def __init__(self, num_prompts: int, *, window: int = 2, solved_reward: float,
                 failed_reward: float | None = None, retire_failed: bool = False,
                 min_active: int = 1) -> None:
        if window < 1:
            raise ConfigError(f"curriculum_window must be >= 1, got {window}")
        if num_prompts < max(min_active, 1):
            raise ConfigError(f"the curriculum needs at least {min_active} training prompts "
                              f"(one generation batch), the training set has {num_prompts}")
        if retire_failed and failed_reward is None:
            raise ConfigError("curriculum_retire_failed needs a failed threshold "
                              "(curriculum_failed_reward)")
        self.num_prompts = num_prompts
        self.window = window
        self.solved_reward = float(solved_reward)
        self.failed_reward = None if failed_reward is None else float(failed_reward)
        self.retire_failed = retire_failed
        self.min_active = min_active
        self._recent: dict[int, deque[GroupOutcome]] = {}
        self._groups_seen: dict[int, int] = {}
        self._retired: dict[int, dict[str, Any]] = {}  # insertion order = retirement order
        self.reinstated = 0

    def is_active(self, prompt_id: int) -> bool:
        """True when the prompt may be drawn."""
        return prompt_id not in self._retired

    @property
    def num_active(self) -> int:
        """Prompts that may be drawn."""
        return self.num_prompts - len(self._retired)

    @property
    def retired(self) -> list[dict[str, Any]]:
        """Retired prompts in retirement order: `{"id", "step", "reason"}` (reason
        "solved" or "failed"; step = the optimizer step of the deciding group)."""
        return [{"id": i, **info} for i, info in self._retired.items()]

    def recent(self, prompt_id: int) -> list[GroupOutcome]:
        """The prompt's last (up to `window`) group outcomes, oldest first."""
        return list(self._recent.get(prompt_id, ()))

    def groups_seen(self, prompt_id: int) -> int:
        """How many groups of the prompt were recorded in total."""
        return self._groups_seen.get(prompt_id, 0)

    def record(self, prompt_id: int, rewards: Sequence[float | None],
               step: int) -> list[tuple[str, int]]:
        """Record one group of `prompt_id` and apply the retire rule.

        Args:
            prompt_id: 0 <= id < num_prompts.
            rewards: the group's G total rewards (None/NaN = unscorable).
            step: optimizer step (1-based).
        Returns:
            the changes, in order: ("reinstated", id) and/or ("retired", id); empty
            when nothing changed.
        Raises:
            RlvrError: an id outside 0..num_prompts-1.
        """
        if not 0 <= prompt_id < self.num_prompts:
            raise RlvrError(f"curriculum: prompt id {prompt_id} is outside "
                            f"0..{self.num_prompts - 1}")
        outcome = group_outcome(rewards, step, self.solved_reward, self.failed_reward)
        recent = self._recent.setdefault(prompt_id, deque(maxlen=self.window))
        recent.append(outcome)
        self._groups_seen[prompt_id] = self._groups_seen.get(prompt_id, 0) + 1
        if prompt_id in self._retired or len(recent) < self.window:
            return []
        reason = ("solved" if all(o.solved for o in recent) else
                  "failed" if self.retire_failed and all(o.failed for o in recent) else None)
        if reason is None:
            return []
        changes: list[tuple[str, int]] = []
        if self.num_active - 1 < self.min_active:
            if not self._retired:
                return []
            oldest = next(iter(self._retired))
            del self._retired[oldest]
            self._recent.pop(oldest, None)
            self.reinstated += 1
            changes.append(("reinstated", oldest))
        self._retired[prompt_id] = {"step": step, "reason": reason}
        changes.append(("retired", prompt_id))
        return changes

    def record_batch(self, prompt_ids: Sequence[int], rewards: Sequence[float | None],
                     num_generations: int, step: int) -> list[tuple[str, int]]:
        """Record a generation batch laid out as TRL lays it out (prompt-major groups).

        Args:
            prompt_ids: per completion, its prompt id; shape (B * G,).
            rewards: per completion, its total reward (None/NaN = unscorable); (B * G,).
            num_generations: G.
            step: optimizer step (1-based).
        Returns:
            the changes of every group, in order (see `record`).
        Raises:
            RlvrError: lengths differ or are not a multiple of G, or a group mixes ids.
        """
        n = len(prompt_ids)
        if len(rewards) != n or num_generations < 1 or n % num_generations:
            raise RlvrError(f"curriculum: {n} prompt ids and {len(rewards)} rewards are not "
                            f"groups of num_generations={num_generations}")
        changes = []
        for start in range(0, n, num_generations):
            ids = set(prompt_ids[start:start + num_generations])
            if len(ids) != 1:
                raise RlvrError(f"curriculum: one group holds several prompt ids {sorted(ids)}")
            changes += self.record(int(prompt_ids[start]),
                                   rewards[start:start + num_generations], step)
        return changes

    def state_dict(self) -> dict[str, Any]:
        """JSON-able state: settings, windows (`[step, mean, spread, solved, failed]`
        lists keyed by str(id)), group counts, retired prompts in order, reinstatements."""
        return {
            "version": STATE_VERSION, "num_prompts": self.num_prompts, "window": self.window,
            "solved_reward": self.solved_reward, "failed_reward": self.failed_reward,
            "retire_failed": self.retire_failed, "min_active": self.min_active,
            "recent": {str(i): [o.to_list() for o in d] for i, d in sorted(self._recent.items())},
            "groups_seen": {str(i): n for i, n in sorted(self._groups_seen.items())},
            "retired": self.retired, "reinstated": self.reinstated,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore `state_dict()` output. The thresholds, window and floor stay this
        object's (a changed setting applies from now on; a shorter window keeps the
        newest groups).

        Raises:
            RlvrError: another state version or number of prompts, or a malformed state.
        """
        if state.get("version") != STATE_VERSION:
            raise RlvrError(f"curriculum state version {state.get('version')!r} is not "
                            f"{STATE_VERSION}")
        if state.get("num_prompts") != self.num_prompts:
            raise RlvrError(f"curriculum state is for {state.get('num_prompts')} prompts, the "
                            f"training set has {self.num_prompts}")
        try:
            self._recent = {int(i): deque((GroupOutcome(int(s), m, bool(sp), bool(so), bool(f))
                                           for s, m, sp, so, f in rows), maxlen=self.window)
                            for i, rows in state["recent"].items()}
            self._groups_seen = {int(i): int(n) for i, n in state["groups_seen"].items()}
            self._retired = {int(r["id"]): {"step": int(r["step"]), "reason": str(r["reason"])}
                             for r in state["retired"]}
            self.reinstated = int(state.get("reinstated", 0))
        except (KeyError, TypeError, ValueError) as exc:
            raise RlvrError(f"curriculum state is malformed: {type(exc).__name__}: {exc}") from None


class CurriculumSampler:
    """TRL `RepeatSampler`'s index stream, drawn from the active prompts of a history.

    Yields, per chunk of `batch_size` distinct active prompts, the chunk `repeat_count`
    times with every index repeated `mini_repeat_count` times in a row; an epoch is
    `num_prompts // batch_size` chunks (`len()` = that x batch_size x mini_repeat_count x
    repeat_count, as RepeatSampler's, so the Trainer's epoch arithmetic is unchanged).
    Prompts come in passes: pass p is a permutation (seeded by `seed` and p; ascending
    order without `shuffle`) of the prompts active when it starts; retired prompts are
    skipped when reached, reinstated ones join at the next pass. A chunk that straddles
    two passes takes the new pass's prompts that are not already in it.

    Draw time and prefetch: a chunk is chosen when its first index is requested, i.e.
    when the DataLoader builds that batch. accelerate's DataLoaderShard reads one batch
    ahead, so the chunk for optimizer step s+1 is usually drawn before step s's rewards
    are recorded: a retirement at step s shows from the chunk of step s+2 (more batches
    ahead with `dataloader_num_workers` > 0).

    Resume: the chunks drawn in the current epoch are kept in the state. The Trainer
    resumes by setting the epoch (accelerate calls `set_epoch`) and iterating this sampler
    past the batches already trained; a restored sampler re-yields the epoch's logged
    chunks (those skipped and those drawn ahead before the checkpoint), then draws from
    the restored pass: with the same recorded outcomes, the resumed run trains on exactly
    the uninterrupted run's chunks. With `ignore_data_skip` the resumed epoch restarts
    from its first logged chunk.

    Args:
        history: the `PromptHistory` consulted at draw time (its `min_active` must be
            >= batch_size).
        mini_repeat_count: G, consecutive copies of each index.
        batch_size: distinct prompts per chunk (generation batch // G).
        repeat_count: copies of each chunk (num_iterations x steps_per_generation).
        shuffle: seeded permutations (True) or ascending order per pass.
        seed: the run's seed.
    Raises:
        ConfigError: a count < 1, or a history floor below batch_size.
    """

    def __init__(self, history: PromptHistory, *, mini_repeat_count: int, batch_size: int = 1,
                 repeat_count: int = 1, shuffle: bool = True, seed: int = 0) -> None:
        if min(mini_repeat_count, batch_size, repeat_count) < 1:
            raise ConfigError("curriculum sampler: mini_repeat_count, batch_size and "
                              "repeat_count must be >= 1")
        if history.min_active < batch_size:
            raise ConfigError(f"curriculum floor ({history.min_active} active prompts) is below "
                              f"the {batch_size} prompts of one generation batch")
        self.history = history
        self.mini_repeat_count = mini_repeat_count
        self.batch_size = batch_size
        self.repeat_count = repeat_count
        self.shuffle = shuffle
        self.seed = seed
        self.chunks_per_epoch = history.num_prompts // batch_size
        self._pass = -1
        self._queue: deque[int] = deque()
        self._epoch = -1
        self._epoch_draws: list[list[int]] = []
        self._pending_epoch: int | None = None

    def __len__(self) -> int:
        return self.chunks_per_epoch * self.batch_size * self.mini_repeat_count * self.repeat_count

    def set_epoch(self, epoch: int) -> None:
        """Name the epoch the next iteration serves (called by accelerate/the Trainer);
        without it each iteration is the next epoch."""
        self._pending_epoch = int(epoch)

    def __iter__(self) -> Iterator[int]:
        epoch = self._pending_epoch if self._pending_epoch is not None else self._epoch + 1
        self._pending_epoch = None
        if epoch == self._epoch:
            replay = list(self._epoch_draws)
        else:
            if epoch < self._epoch:
                logger.warning("curriculum sampler: epoch %d requested after epoch %d; its "
                               "chunks are drawn anew", epoch, self._epoch)
            replay = []
            self._epoch, self._epoch_draws = epoch, []
        for k in range(self.chunks_per_epoch):
            if k < len(replay):
                chunk = replay[k]
            else:
                chunk = self._draw()
                self._epoch_draws.append(chunk)
            for _ in range(self.repeat_count):
                for index in chunk:
                    for _ in range(self.mini_repeat_count):
                        yield index

    def _new_pass(self, exclude: Sequence[int]) -> None:
        self._pass += 1
        order = [i for i in range(self.history.num_prompts) if self.history.is_active(i)]
        if self.shuffle:
            random.Random(f"rlvr-curriculum:{self.seed}:{self._pass}").shuffle(order)
        held = set(exclude)  # already in the chunk being filled: keep them for later
        self._queue = deque([i for i in order if i not in held] + [i for i in order if i in held])

    def _draw(self) -> list[int]:
        """The next chunk: `batch_size` distinct active prompt ids."""
        chunk: list[int] = []
        started = False
        while len(chunk) < self.batch_size:
            if not self._queue:
                if started:  # one new pass always suffices: the floor keeps enough active
                    raise RlvrError(f"curriculum: fewer than {self.batch_size} active prompts")
                self._new_pass(chunk)
                started = True
                continue
            candidate = self._queue.popleft()
            if self.history.is_active(candidate) and candidate not in chunk:
                chunk.append(candidate)
        return chunk

    def state_dict(self) -> dict[str, Any]:
        """JSON-able state: settings, pass number and remaining queue, the current epoch
        and the chunks drawn in it."""
        return {"version": STATE_VERSION, "seed": self.seed, "batch_size": self.batch_size,
                "shuffle": self.shuffle, "pass": self._pass, "queue": list(self._queue),
                "epoch": self._epoch, "epoch_draws": [list(c) for c in self._epoch_draws]}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Restore `state_dict()` output (see the class docstring for the replay).

        Raises:
            RlvrError: another version, seed, batch size or shuffle setting (the replayed
                chunks would not be this run's), or a malformed state.
        """
        if state.get("version") != STATE_VERSION:
            raise RlvrError(f"curriculum sampler state version {state.get('version')!r} is "
                            f"not {STATE_VERSION}")
        for key in ("seed", "batch_size", "shuffle"):
            if state.get(key) != getattr(self, key):
                raise RlvrError(f"curriculum sampler state has {key}={state.get(key)!r}, this "
                                f"run {getattr(self, key)!r}; resume with the run's settings")
        try:
            self._pass = int(state["pass"])
            self._queue = deque(int(i) for i in state["queue"])
            self._epoch = int(state["epoch"])
            self._epoch_draws = [[int(i) for i in c] for c in state["epoch_draws"]]
        except (KeyError, TypeError, ValueError) as exc:
            raise RlvrError(f"curriculum sampler state is malformed: {type(exc).__name__}: "
                            f"{exc}") from None
        self._pending_epoch = None

