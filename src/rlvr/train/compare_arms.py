"""`rlvr compare`: several training methods (arms) on the same data, seeds and held-out set.

    rlvr compare --config configs/selfaware_grpo_cpu.yaml --arms grpo-strict,grpo-ternary,sft,dpo \\
        --seeds 0,1,2 --output-dir runs/compare

Each arm and seed is one main job (`rlvr.train.job.run`) in OUT/<arm>/seed<N>, run one after
another. The base model's held-out answers, its knowledge labels and its answers to the
training questions are computed once (by the first run) and copied into every later run,
which reuses them (the `--resume` path checks that they cover the same questions), so
every arm is judged on one held-out set with one set of labels. A run with a `report.json`
is finished and not rerun; a run cut off mid-training resumes from its newest checkpoint.
The summary (`rlvr.eval.method_stats.compare_arms`) goes to OUT/compare.json, compare.md and
compare.png.

Arms: `grpo` (the config as it is), `grpo-<preset>` (GRPO with that preset of the reward;
the config's `reward_params` are kept only when the preset is the config's own, since they
are overrides of that table), `sft`, `dpo` (`rlvr.train.sft`, `rlvr.train.dpo`). Any arm
can carry config overrides after `+`: `grpo-strict+mask_zero_std_groups` (a bare key is
true), `grpo+beta=0`, `grpo-strict+beta=0.04+loss_type=grpo` (values read as YAML), and one
entry of a mapping key with a dot, merged into the config's mapping:
`grpo-strict+reward_params.wrong=-0.5` keeps the config's other `reward_params`; the arm's
folder keeps the whole name.
"""

from __future__ import annotations

import gc
import logging
import shutil
from pathlib import Path
from typing import Any, Sequence

import yaml

from rlvr.config import TrainConfig, load_config
from rlvr.config.checks import METHODS
from rlvr.errors import ConfigError, RlvrError
from rlvr.eval.knowledge import DEFAULT_RETENTION_DROP, LABELS_FILE, read_labels_file
from rlvr.eval.method_stats import (best_at_retention, compare_arms, compare_markdown,
                                    meeting_bounds, pooled_verdict, run_behaviour, seed_rows)
from rlvr.io import read_jsonl, write_json, write_text

logger = logging.getLogger(__name__)

# files of a finished run that hold the base model's answers and labels (seed-independent:
# greedy answers of the same base model to the same questions)
SHARED_FILES = ("generations_base.jsonl", "generations_base.settings.json", LABELS_FILE,
                "train_knowledge.jsonl", "decision_base.json", "dpo_samples.jsonl",
                "dpo_samples.settings.json")
REFERENCE = "grpo-strict"
# the question the comparison answers: the most honesty among arms that keep at least this
# share of the questions the base model knew (an arm that buys honesty by abstaining on
# what the model knew is not the answer to "teach it to know what it knows")
RETENTION_FLOOR = 0.85


def arm_overrides(arm: str, cfg: TrainConfig) -> dict[str, Any]:
    """The config overrides of one arm name, `+key=value` settings included (module
    docstring); the keys themselves are checked when the arm's config loads.
    Raises:
        ConfigError: an unknown arm name, an empty `+` setting, or a value that is not YAML.
    """
    if "/" in arm or "\\" in arm or ".." in arm:
        raise ConfigError(f"arm {arm!r}: an arm name becomes a folder under the output "
                          "directory, so it cannot hold '/', '\\' or '..'; set paths in the "
                          "config instead")
    method, *settings = arm.split("+")
    out = _method_overrides(method, cfg)
    for setting in settings:
        key, has_value, text = setting.partition("=")
        if not key.strip():
            raise ConfigError(f"arm {arm!r}: empty setting after '+'; write "
                              f"{method}+KEY or {method}+KEY=VALUE")
        if key.strip() in ("seed", "output_dir", "method"):
            raise ConfigError(f"arm {arm!r}: {key.strip()} is set by the comparison (--seeds, "
                              "--output-dir, the arm's method); it cannot be an arm setting")
        try:
            value = yaml.safe_load(text) if has_value else True
        except yaml.YAMLError as exc:
            raise ConfigError(f"arm {arm!r}: {key}={text!r} is not a YAML value "
                              f"({str(exc).splitlines()[0]})") from None
        parent, dot, child = key.strip().partition(".")
        if not dot:
            out[parent] = value
            continue
        current = out.get(parent, getattr(cfg, parent, None))
        if not isinstance(current, dict) or not child:
            raise ConfigError(f"arm {arm!r}: {key.strip()} sets one entry of a mapping key "
                              f"(e.g. reward_params.wrong=-0.5); {parent!r} is not one")
        out[parent] = {**current, child: value}
    return out


def _method_overrides(arm: str, cfg: TrainConfig) -> dict[str, Any]:
    """The overrides of an arm name without `+` settings."""
    if arm in METHODS:
        return {"method": arm}
    if arm.startswith("grpo-") and arm[5:]:
        preset = arm[5:]
        out: dict[str, Any] = {"method": "grpo", "reward_preset": preset}
        if preset != cfg.reward_preset:
            out["reward_params"] = {}
        return out
    raise ConfigError(f"unknown arm {arm!r}; arms are {', '.join(METHODS)} and grpo-<preset> "
                      "(e.g. grpo-strict, grpo-ternary)")


def arm_configs(config: str | None, arms: Sequence[str], seeds: Sequence[int],
                overrides: dict[str, Any], output_dir: str | Path) -> dict[tuple[str, int], TrainConfig]:
    """Every (arm, seed) config, all checked before any run starts (so a bad arm or preset
    fails in seconds, not after the first hour).
    Raises:
        ConfigError: a repeated arm or seed, an unknown arm, or a config the arm makes invalid.
    """
    if len(set(arms)) != len(arms) or len(set(seeds)) != len(seeds):
        raise ConfigError("--arms and --seeds must not repeat a name or a seed")
    base = load_config(config, overrides)
    out = {}
    for arm in arms:
        for seed in seeds:
            run_dir = Path(output_dir) / arm / f"seed{seed}"
            out[(arm, seed)] = load_config(config, {**overrides, **arm_overrides(arm, base),
                                                    "seed": seed, "output_dir": str(run_dir)})
    return out


def _share_base(sources: Sequence[Path], run_dir: Path) -> None:
    """Copy each shared base-model file (`SHARED_FILES`) into `run_dir` from the first
    finished run in `sources` that has it, when `run_dir` lacks it (DPO's base samples
    exist only in DPO runs, the held-out answers in every run)."""
    run_dir.mkdir(parents=True, exist_ok=True)
    for name in SHARED_FILES:
        source = next((d for d in sources if (d / name).is_file()), None)
        if source is not None and not (run_dir / name).exists():
            shutil.copyfile(source / name, run_dir / name)


def run_compare(config: str | None, arms: Sequence[str], seeds: Sequence[int],
                overrides: dict[str, Any], output_dir: str | Path,
                reference: str | None = REFERENCE) -> dict[str, Any]:
    """Run every arm and seed (resumable, see the module docstring) and write the summary.

    Returns:
        the summary dict also written to OUT/compare.json (`rlvr.eval.method_stats.compare_arms`
        plus `runs`: each run's directory and whether it was reused).
    Raises:
        ConfigError: as `arm_configs`; DataError/RlvrError from a run; RlvrError when a run
            ends without a report (stopped by a signal: the comparison stops there too,
            instead of going on to the next run).
    """
    from rlvr.train.job import run

    out = Path(output_dir)
    configs = arm_configs(config, arms, seeds, overrides, out)
    shared = [Path(c.output_dir) for c in configs.values()
              if (Path(c.output_dir) / "report.json").is_file()]
    runs = []
    for (arm, seed), cfg in configs.items():
        run_dir = Path(cfg.output_dir)
        finished = (run_dir / "report.json").is_file()
        if not finished:
            logger.info("compare: %s seed %d -> %s", arm, seed, run_dir)
            _share_base(shared, run_dir)
            report = run(cfg, resume=True)  # reuses the shared base files; resumes a cut-off run
            gc.collect()
            if not (run_dir / "report.json").is_file():  # stopped by a signal (or skip_eval)
                why = ("interrupted" if report.get("meta", {}).get("interrupted")
                       else "no evaluation")
                raise RlvrError(f"compare stopped: {arm} seed {seed} ended without a report "
                                f"({why}); rerun the same command to resume it and the runs "
                                "after it")
            shared.append(run_dir)
        runs.append({"arm": arm, "seed": seed, "run_dir": str(run_dir), "reused": finished})
    first = configs[(arms[0], seeds[0])]
    summary = summarise(out, arms, seeds, reference if reference in arms else None,
                        first.bootstrap_samples, first.max_known_retention_drop)
    summary["runs"] = runs
    write_outputs(out, summary)
    return summary


def summarise(out: Path, arms: Sequence[str], seeds: Sequence[int], reference: str | None,
              samples: int = 2000,
              max_known_retention_drop: float = DEFAULT_RETENTION_DROP) -> dict[str, Any]:
    """The comparison of the finished runs under `out` on each held-out set.

    The in-distribution questions give the summary's top level (`summarise_set`); when the
    runs also answered the out-of-template set (`rlvr.data.out_of_template`), the same
    summary of those questions is `out_of_template`, and `verdicts` holds, per arm and
    seed, the verdict on each set and the worse of the two (the main job's verdict), with
    `seeds_meeting_bounds` counting the seeds `improved` on both sets with known retention
    at least `RETENTION_FLOOR` on both.
    """
    from rlvr.data.out_of_template import SOURCE
    from rlvr.eval.knowledge import worse_verdict

    first = out / arms[0] / f"seed{seeds[0]}"
    _, labels = read_labels_file(first / LABELS_FILE)
    rows = read_jsonl(first / "heldout.jsonl") if (first / "heldout.jsonl").is_file() else []
    outside = {r["id"] for r in rows if r.get("source") == SOURCE}
    kinds = {r["id"]: r.get("kind") for r in rows}
    inside = {i: v for i, v in labels.items() if i not in outside}
    summary = summarise_set(out, arms, seeds, reference, inside, kinds, samples,
                            max_known_retention_drop)
    if not outside:
        return summary
    oot = summarise_set(out, arms, seeds, reference,
                        {i: v for i, v in labels.items() if i in outside}, kinds, samples,
                        max_known_retention_drop)
    summary["out_of_template"] = oot
    summary["verdicts"], summary["seeds_meeting_bounds"] = {}, {}
    for arm in arms:
        both = []
        for a, b in zip(summary["per_seed"][arm], oot["per_seed"][arm]):
            worst = worse_verdict(a, b)["verdict"]
            both.append({"seed": a["seed"], "verdict": worst, "in_distribution": a["verdict"],
                         "out_of_template": b["verdict"]})
        summary["verdicts"][arm] = both
        summary["seeds_meeting_bounds"][arm] = sum(
            1 for v, a, b in zip(both, summary["per_seed"][arm], oot["per_seed"][arm])
            if v["verdict"] == "improved" and min(a["known_retention"] or 0.0,
                                                  b["known_retention"] or 0.0) >= RETENTION_FLOOR)
    return summary


def summarise_set(out: Path, arms: Sequence[str], seeds: Sequence[int], reference: str | None,
                  labels: dict[Any, dict], kinds: dict[Any, str | None], samples: int = 2000,
                  max_known_retention_drop: float = DEFAULT_RETENTION_DROP) -> dict[str, Any]:
    """`compare_arms` over the finished runs under `out` on the questions `labels` labels
    (the first run's knowledge labels), with the base model as arm `base` (its one set of
    greedy answers), plus `answer`: `best_at_retention` at `RETENTION_FLOOR`, `per_seed`
    (every arm's every seed with the main job's verdict against the base model and its
    worst slice, `rlvr.eval.method_stats.seed_rows`), `pooled` (per arm, the verdict rule on
    the seeds pooled, `rlvr.eval.method_stats.pooled_verdict`, and whether the seeds'
    verdicts disagree with it) and `seeds_meeting_bounds` (per arm: seeds `improved` with
    known retention at least `RETENTION_FLOOR`)."""
    first = out / arms[0] / f"seed{seeds[0]}"
    known, base_kinds, ids = run_behaviour(first, labels, "generations_base.jsonl")
    kinds_by_arm: dict[str, list[list[str]]] = {"base": [base_kinds]}
    for arm in arms:
        kinds_by_arm[arm] = []
        for seed in seeds:
            _, arm_kinds, arm_ids = run_behaviour(out / arm / f"seed{seed}", labels)
            if arm_ids != ids:
                raise ConfigError(f"{out / arm / f'seed{seed}'} answered other held-out "
                                  "questions than the first run; rerun it in a fresh folder")
            kinds_by_arm[arm].append(arm_kinds)
    summary = compare_arms(known, kinds_by_arm, reference, samples=samples)
    summary["answer"] = best_at_retention(known, kinds_by_arm, summary, RETENTION_FLOOR,
                                          samples)
    base_records = read_jsonl(first / "generations_base.jsonl")
    summary["per_seed"] = {arm: seed_rows(labels, base_records, {
        seed: read_jsonl(out / arm / f"seed{seed}" / "generations_trained.jsonl")
        for seed in seeds}, samples, max_known_retention_drop, kinds) for arm in arms}
    summary["seeds_meeting_bounds"] = {arm: meeting_bounds(rows, RETENTION_FLOOR)
                                       for arm, rows in summary["per_seed"].items()}
    summary["pooled"] = {}
    for arm in arms:
        pooled = pooled_verdict(known, base_kinds, kinds_by_arm[arm], samples,
                                max_known_retention_drop)
        verdicts = sorted({r["verdict"] for r in summary["per_seed"][arm]})
        summary["pooled"][arm] = {"verdict": pooled["verdict"], "reason": pooled["reason"],
                                  "seed_verdicts": verdicts,
                                  "disagree": verdicts != [pooled["verdict"]]}
    summary["retention_floor"] = RETENTION_FLOOR
    return summary


def write_outputs(out: Path, summary: dict[str, Any]) -> None:
    """compare.json, compare.md and (with matplotlib) compare.png into `out`."""
    from rlvr.errors import RlvrError
    from rlvr.plots.methods import compare_chart

    write_json(out / "compare.json", summary)
    write_text(out / "compare.md", "# Methods compared on one held-out set\n\n"
               + compare_markdown(summary) + "\n![methods](compare.png)\n")
    try:
        compare_chart(summary, out / "compare.png")
    except (RlvrError, OSError) as exc:
        logger.warning("compare.png not drawn: %s", exc)
