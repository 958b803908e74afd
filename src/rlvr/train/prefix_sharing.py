"""The prompt text every row of a batch starts with, run through the model once per batch.

A GRPO batch repeats each prompt `num_generations` times, and the prompts of a task often
open with the same tokens: the chat template's header, a system prompt, in-context
examples. On the main job 69 of the ~100 tokens of every row (system prompt and two
exemplars) are the same in all 32 rows, so the reference forward and the policy's forward
and backward passes spend about two thirds of their FLOPs recomputing one text 32 times.

`shared_prefix_logps` computes those leading tokens once, as a batch of one row, keeps
their keys and values (a transformers `DynamicCache`, expanded to the batch without a
copy), and runs only each row's remainder (the rest of its prompt and its completion)
against that cache. The remainder's tokens get position ids that continue the prefix
(P, P+1, ...), so every query sees the same keys at the same relative distances as in the
full pass (rotary embeddings depend only on those), and the log-probabilities and
gradients are the same function of the weights; only the order of floating-point sums
changes. Measured on the default model with a LoRA adapter, batch 32, 103 columns: largest
log-prob difference 2.9e-5, largest relative gradient difference 1.4e-5; reference forward
2.73 -> 0.96 s, policy forward + backward 6.84 -> 2.78 s (2 cores; numbers and script:
docs/measured.md, `benchmarks/prefix_sharing.py`). Gradients reach the prefix's weights
through the expanded cache (autograd sums the 32 copies' contributions).

Sharing is exact only when the forward pass is deterministic: with dropout active in
training (a LoRA `lora_dropout` > 0, or a model's own dropout) every row of the full pass
draws its own mask over the prefix, whereas a shared prefix would draw one for all rows.
So the shared pass is used only when no dropout is active (`stochastic_forward`), never
with gradient checkpointing (the cache would be written twice on recomputation), only for
text-only inputs, and only in one process (DDP, FSDP and DeepSpeed wrap the forward). The first batch of a run is also computed both ways and compared
(`PrefixSharing.check`); a model for which the two differ (by more than `TOLERANCE`) or
that does not take a cache keeps the full pass for the rest of the run, with a warning.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

logger = logging.getLogger(__name__)

MIN_PREFIX = 16  # shared tokens below which the extra pass is not worth it
TOLERANCE = 1e-3  # largest accepted |log-prob difference| of the first-batch check
GENERATION_AGREEMENT = 0.9  # least share of rows the first batch's two generations agree on


def common_prefix_length(input_ids, attention_mask, prompt_width: int) -> int:
    """How many leading prompt tokens are the same in every row of a batch.

    Rows are TRL's `prompt_completion_ids`: a left-padded prompt of `prompt_width` columns,
    then the completion columns. Only real tokens (mask 1) count, and at least one prompt
    token per row is left out of the prefix (its position predicts the first completion
    token).

    Args:
        input_ids: (B, L) token ids.
        attention_mask: (B, L), 1 for real tokens.
        prompt_width: number of prompt columns (L - completion columns).
    Returns:
        P >= 0; 0 when a row's prompt is not contiguous (a pad between real prompt tokens:
        then positions would differ from the full pass) or B < 2.
    """
    import torch

    mask = attention_mask[:, :prompt_width].bool()
    lengths = mask.sum(dim=1)
    rows = input_ids.size(0)
    if rows < 2 or int(lengths.min()) < 2:
        return 0
    # contiguous: the real tokens fill the last `length` prompt columns (left padding)
    starts = prompt_width - lengths
    columns = torch.arange(prompt_width, device=mask.device).unsqueeze(0)
    if not torch.equal(mask, columns >= starts.unsqueeze(1)):
        return 0
    limit = int(lengths.min()) - 1
    index = starts.unsqueeze(1) + torch.arange(limit, device=mask.device).unsqueeze(0)
    leading = torch.gather(input_ids[:, :prompt_width], 1, index)  # (B, limit)
    same = (leading == leading[:1]).all(dim=0)
    differs = (~same).nonzero()
    return int(differs[0]) if differs.numel() else limit


@dataclass
class Remainders:
    """Each row without its shared prefix, left-padded to one width S.

    Fields (tensors on the batch's device): `input_ids` (B, S); `attention_mask` (B, P + S),
    ones for the prefix then each row's own mask; `position_ids` (B, S), P + index within
    the row's remainder (pads: P); `prefix` (1, P) the shared tokens.
    """

    input_ids: Any
    attention_mask: Any
    position_ids: Any
    prefix: Any


def split_batch(input_ids, attention_mask, prompt_width: int, prefix_len: int,
                pad_token_id: int) -> Remainders:
    """Cut the first `prefix_len` real prompt tokens off every row (see `Remainders`).

    Args:
        input_ids, attention_mask: (B, L) as in `common_prefix_length`, whose checks hold.
        prompt_width: prompt columns; prefix_len: P from `common_prefix_length`.
        pad_token_id: id written into pad columns (masked, never scored).
    Returns:
        Remainders; each row's completion columns stay its last L - prompt_width columns.
    """
    import torch

    rows, width = input_ids.shape
    lengths = attention_mask[:, :prompt_width].sum(dim=1)
    keep = (lengths - prefix_len) + (width - prompt_width)  # remainder length per row
    span = int(keep.max())
    ids = input_ids.new_full((rows, span), pad_token_id)
    mask = attention_mask.new_zeros((rows, span))
    positions = input_ids.new_full((rows, span), prefix_len)
    for row in range(rows):
        n = int(keep[row])
        ids[row, span - n:] = input_ids[row, width - n:]
        mask[row, span - n:] = attention_mask[row, width - n:]
        positions[row, span - n:] = prefix_len + torch.arange(n, device=input_ids.device)
    start = prompt_width - int(lengths[0])
    prefix = input_ids[:1, start:start + prefix_len]
    full_mask = torch.cat([attention_mask.new_ones((rows, prefix_len)), mask], dim=1)
    return Remainders(ids, full_mask, positions, prefix)


def stochastic_forward(model) -> bool:
    """Whether a forward pass of `model` draws random numbers now (dropout in training).

    True when the model is in training mode and has a dropout module with p > 0 that
    applies (a PEFT LoRA dropout counts only while its adapter is active: TRL's reference
    pass disables the adapter) or a config `attention_dropout` / `hidden_dropout` > 0.
    """
    import torch

    if not model.training:
        return False
    config = getattr(model, "config", None)
    for key in ("attention_dropout", "hidden_dropout", "dropout"):
        value = getattr(config, key, 0) or 0
        if isinstance(value, (int, float)) and value > 0:
            return True
    lora_dropouts = set()
    for module in model.modules():
        dropouts = getattr(module, "lora_dropout", None)
        if isinstance(dropouts, torch.nn.ModuleDict):
            lora_dropouts.update(id(d) for d in dropouts.values())
            if getattr(module, "disable_adapters", False) or getattr(module, "merged", False):
                continue
            for name in getattr(module, "active_adapters", []):
                drop = dropouts[name] if name in dropouts else None
                if isinstance(drop, torch.nn.Dropout) and drop.p > 0 and drop.training:
                    return True
    return any(isinstance(m, torch.nn.Dropout) and m.p > 0 and m.training
               and id(m) not in lora_dropouts for m in model.modules())


def _cache_keyword(model) -> str:
    """The model's KV cache keyword (`rlvr.models.forward.cache_keyword`), `past_key_values`
    when the signature does not say."""
    from rlvr.models.forward import cache_keyword

    return cache_keyword(model) or "past_key_values"


def _prefix_layers(model, prefix):
    """Run `prefix` (1, P) once with a cache; its layers (keys and values per layer).

    Raises:
        TypeError: the model returned no layered KV cache (the caller falls back).
    """
    out = model(input_ids=prefix, use_cache=True, logits_to_keep=1)
    kv = getattr(out, "cache", None) or getattr(out, "past_key_values", None)
    if kv is None or not hasattr(kv, "layers"):
        raise TypeError("the model returned no layered KV cache")
    return kv.layers


def _expanded_cache(model, layers, rows: int):
    """A `DynamicCache` holding `layers` expanded to `rows` rows (views: autograd sums the
    rows' gradients into the prefix)."""
    from transformers.cache_utils import DynamicCache

    cache = DynamicCache(config=getattr(model, "config", None))
    for index, layer in enumerate(layers):
        cache.update(layer.keys.expand(rows, -1, -1, -1),
                     layer.values.expand(rows, -1, -1, -1), index)
    return cache


def shared_prefix_logps(model, input_ids, attention_mask, logits_to_keep: int,
                        prefix_len: int, pad_token_id: int, batch_size: int | None = None,
                        compute_entropy: bool = False):
    """Per-token log-probs (and entropies) of the completion columns, the shared prefix run
    once (module docstring).

    Args:
        model: a causal LM patched by TRL's `add_fused_lm_head` (so `fused_lm_head=True`
            returns `log_probs` and `entropy`), possibly PEFT-wrapped.
        input_ids, attention_mask: (B, L) prompt + completion columns (TRL's layout).
        logits_to_keep: T, the completion columns.
        prefix_len: P from `common_prefix_length` (> 0).
        pad_token_id: id for pad columns.
        batch_size: rows per forward of the remainders (TRL's chunking), None for all.
        compute_entropy: also return per-token entropies.
    Returns:
        (logps (B, T), entropies (B, T) or None), as TRL's
        `_get_per_token_logps_and_entropies` returns them.
    Raises:
        TypeError: the model takes or returns no cache (the caller falls back).
    """
    import torch

    rows = input_ids.size(0)
    prompt_width = input_ids.size(1) - logits_to_keep
    parts = split_batch(input_ids, attention_mask, prompt_width, prefix_len, pad_token_id)
    keyword = _cache_keyword(model)
    step = batch_size or rows
    logps, entropies = [], []
    layers = _prefix_layers(model, parts.prefix)
    for start in range(0, rows, step):
        end = min(start + step, rows)
        cache = _expanded_cache(model, layers, end - start)
        ids = parts.input_ids[start:end]
        mask = parts.attention_mask[start:end]
        labels = ids.masked_fill(mask[:, prefix_len:] == 0, -100)
        labels[:, :-logits_to_keep] = -100
        out = model(input_ids=ids, attention_mask=mask,
                    position_ids=parts.position_ids[start:end], labels=labels,
                    fused_lm_head=True, **{keyword: cache})
        logps.append(out.log_probs[:, -logits_to_keep:])
        if compute_entropy:
            entropies.append(out.entropy[:, -logits_to_keep:])
    return torch.cat(logps, dim=0), (torch.cat(entropies, dim=0) if compute_entropy else None)


def shared_prefix_generate(model, generate, input_ids, attention_mask, **kwargs):
    """`generate(input_ids=..., attention_mask=..., **kwargs)` with the batch's shared prompt
    prefix run once (module docstring), or as it is when fewer than `MIN_PREFIX` tokens are
    shared.

    Every row becomes [prefix | pads | the rest of its prompt], its mask [1 | 0 | 1], and the
    prefix's keys and values (one row's, expanded) are passed as the cache, so `generate`
    runs only the rest. transformers derives generation positions from the mask (its
    cumulative sum), which gives the rest P, P+1, ... as in the full pass. The width is
    unchanged, so the completion starts at the same column.

    Args:
        model: the model whose forward builds the prefix cache (the one `generate` belongs
            to); generate: its bound `generate`.
        input_ids, attention_mask: (B, W) left-padded prompts.
        kwargs: passed on (generation_config, ...).
    Returns:
        what `generate` returns: (B, W + new tokens) ids.
    """
    import torch

    width = input_ids.size(1)
    prefix_len = common_prefix_length(input_ids, attention_mask, width)
    if prefix_len < MIN_PREFIX:
        return generate(input_ids=input_ids, attention_mask=attention_mask, **kwargs)
    rows = input_ids.size(0)
    lengths = attention_mask.sum(dim=1)
    start = width - int(lengths[0])
    prefix = input_ids[:1, start:start + prefix_len]
    ids = input_ids.clone()
    mask = torch.zeros_like(attention_mask)
    ids[:, :prefix_len] = prefix
    mask[:, :prefix_len] = 1
    for row in range(rows):
        rest = int(lengths[row]) - prefix_len
        ids[row, prefix_len:width - rest] = input_ids[row, 0]  # a pad (masked)
        mask[row, width - rest:] = 1
    with torch.no_grad():
        cache = _expanded_cache(model, _prefix_layers(model, prefix), rows)
    return generate(input_ids=ids, attention_mask=mask, **{_cache_keyword(model): cache},
                    **kwargs)


@dataclass
class PrefixSharing:
    """Per-trainer state: whether sharing is still on, and what the first check found.

    `enabled` turns off for the rest of the run after a failed check or an error; `checked`
    is set after the first comparison; `max_difference` is its largest |log-prob
    difference| (masked completion positions); `batches` counts shared passes and
    `prefix_tokens` the last P. `generation` and its fields are the same for the rollouts'
    `generate` (`generation_identical`: the share of rows the first batch's two generations
    gave the same tokens; `generations` counts shared generations).
    """

    enabled: bool = True
    checked: bool = False
    max_difference: float | None = None
    batches: int = 0
    prefix_tokens: int = 0
    reasons: list[str] = field(default_factory=list)
    generation: bool = True
    generation_checked: bool = False
    generation_identical: float | None = None
    generations: int = 0

    def disable(self, reason: str) -> None:
        """Keep the full pass from now on, with one warning naming `reason`."""
        self.enabled = False
        self.reasons.append(reason)
        logger.warning("share_prompt_prefix: off for this run (%s); the full forward pass "
                       "is used", reason)

    def disable_generation(self, reason: str) -> None:
        """Keep TRL's own generation from now on, with one warning naming `reason`."""
        self.generation = False
        self.reasons.append(reason)
        logger.warning("share_prompt_prefix: rollouts generate without it for this run (%s)",
                       reason)


def _checkpointing(model) -> bool:
    """Whether activation (gradient) checkpointing is on (either name transformers uses)."""
    for name in ("is_activation_checkpointing", "is_gradient_checkpointing"):
        try:
            if name in dir(type(model)) or hasattr(model, name):
                return bool(getattr(model, name))
        except Exception:  # pragma: no cover - a model without the property
            continue
    return False


def summary(trainer) -> dict[str, Any] | None:
    """What `share_prompt_prefix` did in a run, for the report (None: the trainer class was
    not built with it).

    Returns:
        {"shared_passes": reference/policy passes that ran the prefix once,
        "shared_generations": rollout generations that did, "prefix_tokens": the last P,
        "first_batch_max_logprob_difference", "first_batch_identical_generations" (share of
        rows), "off_because": reasons it was turned off (empty when it was not)}.
    """
    if not hasattr(type(trainer), "_shared_prefix"):
        return None
    state = trainer.__dict__.get("prefix_sharing") or PrefixSharing()
    return {"shared_passes": state.batches, "shared_generations": state.generations,
            "prefix_tokens": state.prefix_tokens,
            "first_batch_max_logprob_difference": state.max_difference,
            "first_batch_identical_generations": state.generation_identical,
            "off_because": list(state.reasons)}


def _distributed(trainer) -> bool:
    """More than one process: DDP, FSDP and DeepSpeed wrap the model's forward (two calls
    per backward are not theirs to expect); those runs keep TRL's pass."""
    return getattr(getattr(trainer, "accelerator", None), "num_processes", 1) > 1


def prefix_sharing_trainer(enabled: bool, base_class: type) -> type:
    """The trainer class: `base_class` unchanged unless `enabled` (config key
    `share_prompt_prefix`), else a subclass whose `_get_per_token_logps_and_entropies`
    runs the batch's shared prompt prefix once (module docstring) when it is exact to do
    so, and TRL's own pass otherwise.

    Args:
        enabled: the option.
        base_class: `trl.GRPOTrainer` (1.16) or a subclass of it.
    Returns:
        the class; instances carry `prefix_sharing` (a `PrefixSharing`).
    Source: TRL 1.16 `GRPOTrainer._get_per_token_logps_and_entropies` (its inputs and
        outputs are kept; multimodal inputs and MoE aux losses go to TRL's pass).
    """
    if not enabled:
        return base_class

    class PrefixSharingTrainer(base_class):
        """`base_class` with the batch's shared prompt prefix computed once."""

        def _get_per_token_logps_and_entropies(self, model, input_ids, attention_mask,
                                               logits_to_keep, batch_size=None,
                                               compute_entropy=False, compute_aux_loss=False,
                                               **extra):
            state = self.__dict__.setdefault("prefix_sharing", PrefixSharing())
            full = super()._get_per_token_logps_and_entropies
            args = (model, input_ids, attention_mask, logits_to_keep)
            kwargs = dict(batch_size=batch_size, compute_entropy=compute_entropy,
                          compute_aux_loss=compute_aux_loss, **extra)
            prefix_len = self._shared_prefix(model, input_ids, attention_mask,
                                             logits_to_keep, compute_aux_loss, extra)
            if not prefix_len:
                return full(*args, **kwargs)
            pad = self.processing_class.pad_token_id if hasattr(
                self.processing_class, "pad_token_id") else None
            pad = 0 if pad is None else pad
            import torch

            if not state.checked:
                state.checked = True
                try:
                    with torch.no_grad(), self.accelerator.autocast():
                        shared, _ = shared_prefix_logps(model, input_ids, attention_mask,
                                                        logits_to_keep, prefix_len, pad,
                                                        batch_size)
                    with torch.no_grad():
                        reference, _, _ = full(*args, **kwargs)
                except Exception as error:  # a model that takes no cache: TRL's pass
                    state.disable(f"{type(error).__name__}: {error}")
                    return full(*args, **kwargs)
                completion = attention_mask[:, -logits_to_keep:].bool()
                gap = float((shared - reference).abs().masked_fill(~completion, 0).max())
                state.max_difference = gap
                if not gap <= TOLERANCE:
                    state.disable(f"first batch: log-probs differ by {gap:.2e} > "
                                  f"{TOLERANCE:g}")
                    return full(*args, **kwargs)
                logger.info("share_prompt_prefix: %d shared prompt tokens, first batch "
                            "within %.1e of the full pass", prefix_len, gap)
            with self.accelerator.autocast():
                logps, entropies = shared_prefix_logps(
                    model, input_ids, attention_mask, logits_to_keep, prefix_len, pad,
                    batch_size, compute_entropy)
            state.batches += 1
            state.prefix_tokens = prefix_len
            return logps, entropies, None

        def _generate_single_turn(self, prompt_ids, images=None, multimodal_fields=None,
                                  *args, **kwargs):
            """TRL's transformers generation with the shared prefix run once; the first
            batch generates both ways from the same random state and keeps TRL's tokens
            (sharing stays on when at least `GENERATION_AGREEMENT` of the rows agree)."""
            import torch

            state = self.__dict__.setdefault("prefix_sharing", PrefixSharing())

            def call():
                return super(PrefixSharingTrainer, self)._generate_single_turn(
                    prompt_ids, images, multimodal_fields, *args, **kwargs)

            config = getattr(self, "generation_config", None)
            if (not (state.enabled and state.generation) or images is not None
                    or _distributed(self)
                    or multimodal_fields or getattr(self, "use_vllm", False)
                    or getattr(self, "use_transformers_continuous_batching", False)
                    or (getattr(config, "num_beams", 1) or 1) > 1
                    or getattr(config, "cache_implementation", None)):
                return call()
            model = self.accelerator.unwrap_model(self.model_wrapped)
            if stochastic_forward(model):  # dropout while sampling: every row its own masks
                return call()
            original = model.generate

            def shared_call():
                model.generate = lambda **kw: shared_prefix_generate(model, original, **kw)
                try:
                    return call()
                finally:
                    del model.generate

            if state.generation_checked:
                state.generations += 1
                return shared_call()
            state.generation_checked = True
            before = torch.get_rng_state()
            full = call()
            after = torch.get_rng_state()
            torch.set_rng_state(before)
            try:
                shared = shared_call()
            except Exception as error:  # a model that takes no cache: TRL's generation
                state.disable_generation(f"{type(error).__name__}: {error}")
                return full
            finally:
                torch.set_rng_state(after)
            rows = list(zip(full[0], shared[0]))
            state.generation_identical = sum(a == b for a, b in rows) / max(len(rows), 1)
            if state.generation_identical < GENERATION_AGREEMENT:
                state.disable_generation(f"first batch: {state.generation_identical:.0%} of "
                                         f"rows generated the same tokens")
            else:
                logger.info("share_prompt_prefix: rollouts generate with the shared prefix "
                            "(first batch: %.0f%% of rows the same tokens)",
                            100 * state.generation_identical)
            return full

        def _shared_prefix(self, model, input_ids, attention_mask, logits_to_keep,
                           compute_aux_loss, extra) -> int:
            """P when the shared pass applies to this call, else 0."""
            state = self.__dict__.setdefault("prefix_sharing", PrefixSharing())
            if not state.enabled or compute_aux_loss or _distributed(self):
                return 0
            if any(value is not None for value in extra.values()):
                return 0  # images, token types: TRL's pass
            if _checkpointing(model):
                return 0
            if stochastic_forward(model):
                return 0
            prefix_len = common_prefix_length(input_ids, attention_mask,
                                              input_ids.size(1) - logits_to_keep)
            return prefix_len if prefix_len >= MIN_PREFIX else 0

    PrefixSharingTrainer.__name__ = f"PrefixSharing{base_class.__name__}"
    PrefixSharingTrainer.__qualname__ = PrefixSharingTrainer.__name__
    return PrefixSharingTrainer
