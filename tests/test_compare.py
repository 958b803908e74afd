"""`rlvr compare`: the per-arm summary over seeds against hand-computed values,
arm parsing, and a tiny end-to-end comparison that reuses the base model's answers."""

from __future__ import annotations

import re

import json
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.config import load_config
from rlvr.errors import ConfigError
from rlvr.eval.method_stats import (answer_sentence, best_at_retention, compare_arms,
                               compare_markdown)
from rlvr.train.compare_arms import arm_configs, arm_overrides

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "selfaware_grpo_cpu.yaml"
KNOWN = [True, True, False, False]
A = [["correct", "correct", "abstain", "abstain"]]
B = [["abstain", "correct", "answer", "abstain"], ["correct", "correct", "answer", "answer"]]


def test_arm_means_over_seeds_match_hand_computed_values():
    summary = compare_arms(KNOWN, {"a": A, "b": B}, reference="a", samples=200)
    b = {m: v["mean"] for m, v in summary["metrics"]["b"].items()}
    # seed 1: prudence 1/2 (one of two unknown abstained), over-conservativeness 1/2,
    #   honesty (1/2 + 1 - 1/2) / 2 = 1/2, known retention 1/2, answer rate 2/4,
    #   selective accuracy 1/2 (one correct of two answered)
    # seed 2: prudence 0, over-conservativeness 0, honesty (0 + 1) / 2 = 1/2, known
    #   retention 2/2, answer rate 4/4, selective accuracy 2/4
    assert b == pytest.approx({"honesty": 0.5, "prudence": 0.25, "over_conservativeness": 0.25,
                               "known_retention": 0.75, "answer_rate": 0.75,
                               "selective_accuracy": 0.5})
    assert summary["metrics"]["b"]["honesty"]["per_seed"] == [0.5, 0.5]
    # arm a: abstains on exactly the unknown questions, answers the known ones correctly
    assert summary["metrics"]["a"]["honesty"]["mean"] == 1.0
    diff = summary["vs_reference"]["b"]["honesty"]
    assert diff["difference"] == pytest.approx(-0.5)  # 0.5 - 1.0
    assert diff["ci_low"] <= -0.5 <= diff["ci_high"] <= 0
    assert "a" not in summary["vs_reference"] and summary["seeds"] == {"a": 1, "b": 2}


def test_an_arm_that_behaves_the_same_on_every_question_has_a_point_interval():
    # every resample keeps two known and two unknown questions (stratified), and arm a
    # does the same thing on all questions of a stratum: honesty is 1.0 on every resample
    summary = compare_arms(KNOWN, {"a": A}, samples=100)
    honesty = summary["metrics"]["a"]["honesty"]
    assert (honesty["ci_low"], honesty["mean"], honesty["ci_high"]) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("arms, reference, message", [
    ({"a": []}, None, "every seed"),
    ({"a": [["correct"]]}, None, "every seed"),
    ({"a": A}, "b", "reference arm"),
])
def test_compare_refuses_inconsistent_input(arms, reference, message):
    with pytest.raises(ValueError, match=message):
        compare_arms(KNOWN, arms, reference)


def test_markdown_shows_every_arm_and_the_paired_table():
    text = compare_markdown(compare_arms(KNOWN, {"a": A, "b": B}, reference="a", samples=50))
    assert "| a | 1 | 1.000" in text and "| b | 2 | 0.500" in text
    assert "Each arm minus `a`" in text and "| b | -0.500" in text


def test_the_answer_is_the_most_honest_arm_that_keeps_known_questions():
    # c: always abstains: honesty (1 + 1 - 1) / 2 = 0.5, known-retention 0
    C = [["abstain"] * 4]
    arms = {"base": [["correct", "correct", "answer", "answer"]], "a": A, "b": B, "c": C}
    summary = compare_arms(KNOWN, arms, samples=100)
    # retention: a 1.0, b 0.75 (seeds 1/2 and 2/2), c 0.0; at floor 0.85 only a qualifies;
    # at 0.7 a and b, and a (honesty 1.0) beats b (0.5) by 0.5
    answer = best_at_retention(KNOWN, arms, summary, floor=0.7, samples=100)
    assert answer["qualified"] == ["a", "b"] and answer["winner"] == "a"
    assert answer["honesty"]["mean"] == 1.0
    assert answer["vs"]["b"]["difference"] == pytest.approx(0.5)  # 1.0 - 0.5
    assert answer["vs"]["b"]["ci_low"] <= 0.5 <= answer["vs"]["b"]["ci_high"]
    assert answer["vs"]["c"]["difference"] == pytest.approx(0.5)  # 1.0 - 0.5
    assert set(answer["vs"]) == {"base", "b", "c"}
    sentence = answer_sentence(answer, summary)
    assert sentence.startswith("At known-retention >= 0.70 (2 of 3 trained arms qualify), a")
    assert "+0.500 [" in sentence and "over b" in sentence
    # no arm reaches the floor: the sentence says so and names the closest
    none = best_at_retention(KNOWN, {"base": arms["base"], "b": B, "c": C},
                             summary, floor=0.9, samples=50)
    assert none["winner"] is None and none["closest"] == "b"
    assert answer_sentence(none, summary).startswith(
        "No trained arm kept known-retention >= 0.90; the closest was b at 0.750")
    summary["answer"] = answer
    assert compare_markdown(summary).startswith("**Answer:** At known-retention >= 0.70")


def test_arm_names_map_to_config_overrides():
    cfg = load_config(CONFIG)  # strict, with reward_params {abstain_answerable: -1.0}
    assert arm_overrides("sft", cfg) == {"method": "sft"}
    assert arm_overrides("grpo-strict", cfg) == {"method": "grpo", "reward_preset": "strict"}
    # another preset: the config's overrides of the strict table do not carry over
    assert arm_overrides("grpo-ternary", cfg) == {"method": "grpo", "reward_preset": "ternary",
                                                  "reward_params": {}}
    with pytest.raises(ConfigError, match="unknown arm"):
        arm_overrides("ppo", cfg)


@pytest.mark.parametrize("arm, expected", [
    ("grpo-strict+mask_zero_std_groups",
     {"method": "grpo", "reward_preset": "strict", "mask_zero_std_groups": True}),
    ("grpo+beta=0+loss_type=grpo", {"method": "grpo", "beta": 0, "loss_type": "grpo"}),
    ("sft+learning_rate=0.0001", {"method": "sft", "learning_rate": 0.0001}),
    # one entry of a mapping: merged into the config's reward_params (abstain_answerable -1)
    ("grpo-strict+reward_params.wrong=-0.5",
     {"method": "grpo", "reward_preset": "strict",
      "reward_params": {"abstain_answerable": -1.0, "wrong": -0.5}}),
    # another preset drops the config's reward_params first, then takes the entry
    ("grpo-ternary+reward_params.wrong=-0.5",
     {"method": "grpo", "reward_preset": "ternary", "reward_params": {"wrong": -0.5}}),
])
def test_arm_settings_after_plus(arm, expected):
    assert arm_overrides(arm, load_config(CONFIG)) == expected


def test_a_dotted_arm_setting_needs_a_mapping_key():
    with pytest.raises(ConfigError, match="'beta' is not one"):
        arm_overrides("grpo+beta.x=1", load_config(CONFIG))


def test_arm_settings_convert_as_config_keys_do(tmp_path):
    # YAML reads 1e-4 as text; the config loader turns it into the field's float
    (cfg,) = arm_configs(CONFIG, ["sft+learning_rate=1e-4"], [0], {}, tmp_path).values()
    assert cfg.learning_rate == 0.0001 and cfg.method == "sft"
    assert cfg.output_dir == str(tmp_path / "sft+learning_rate=1e-4" / "seed0")


@pytest.mark.parametrize("arm, message", [
    ("grpo+", "empty setting after '+'"),
    ("grpo+beta=[", "is not a YAML value"),
    ("ppo+beta=0", "unknown arm"),
    ("grpo+seed=3", "seed is set by the comparison"),
    ("grpo+output_dir=x", "output_dir is set by the comparison"),
    ("grpo+data=a/b.jsonl", "cannot hold '/'"),
    ("grpo+data=..", "cannot hold"),
])
def test_bad_arm_settings_are_refused(arm, message):
    with pytest.raises(ConfigError, match=re.escape(message)):
        arm_overrides(arm, load_config(CONFIG))


def test_an_unknown_arm_key_fails_when_the_configs_load(tmp_path):
    with pytest.raises(ConfigError, match="mask_zero_std_group"):
        arm_configs(CONFIG, ["grpo-strict+mask_zero_std_group"], [0], {}, tmp_path)


@pytest.mark.parametrize("argv, message", [
    (["--arms", "grpo-strict,sft,sft"], "must not repeat"),
    (["--arms", "grpo-nosuch"], "no preset 'nosuch'"),
    (["--seeds", "0,x"], "--seeds must be integers"),
])
def test_bad_arms_fail_before_any_model_loads(argv, message, capsys, tmp_path):
    code = main(["compare", "--config", str(CONFIG), "--output-dir", str(tmp_path), *argv])
    assert code == 2 and message in capsys.readouterr().err


@pytest.mark.slow
def test_compare_runs_arms_on_one_base_evaluation_and_resumes(tmp_path, monkeypatch):
    from rlvr.train import job
    from tiny_models import tiny_chat_llama, use_tiny_model

    model, tokenizer = tiny_chat_llama()
    loads = []
    use_tiny_model(monkeypatch, job, tmp_path, tokenizer,
                   lambda: loads.append(1) or tiny_chat_llama()[0])
    def count_computed(name, into):
        """Wrap job.<name> (returns (value, seconds); seconds None = reused from the run
        folder) so that each computation, not each reuse, appends "base" to `into`."""
        original = getattr(job, name)

        def wrapped(*a, **k):
            value, seconds = original(*a, **k)
            if seconds is not None:
                into.append("base")
            return value, seconds

        monkeypatch.setattr(job, name, wrapped)

    evaluated, forced = [], []
    count_computed("base_answers", evaluated)  # generations_base.jsonl
    count_computed("base_decision", forced)  # decision_base.json
    original, original_check = job.evaluate_heldout, job.decision_check
    monkeypatch.setattr(job, "evaluate_heldout", lambda *a, **k: evaluated.append(a[5]) or
                        original(*a, **k))
    monkeypatch.setattr(job, "decision_check", lambda *a, **k: forced.append("trained") or
                        original_check(*a, **k))
    out = tmp_path / "cmp"
    import rlvr.eval.runner as runner

    sampled, original_generate = [], runner.generate_task_records
    monkeypatch.setattr(runner, "generate_task_records", lambda *a, **k: sampled.append(a[-1])
                        or original_generate(*a, **k))
    argv = ["compare", "--config", str(CONFIG), "--arms", "grpo-strict,sft,dpo", "--seeds", "0,1",
            "--max-steps", "1", "--eval-limit", "4", "--output-dir", str(out),
            "--set", "max_completion_length=3", "--set", "report_to=none",
            "--set", "cross_check=none", "--set", "train_answerable=all",
            "--set", "per_device_train_batch_size=4", "--set", "bootstrap_samples=20",
            "--set", "lora_target_modules=[q_proj, v_proj]"]
    assert main(argv) == 0
    # the base model answered the held-out rows once; each of the 6 runs answered them trained
    assert evaluated.count("base") == 1 and evaluated.count("trained") == 6
    # and its answer-forced P(correct) was computed once too (greedy: the same for every seed)
    assert forced.count("base") == 1 and forced.count("trained") == 6
    # DPO's base samples were drawn once, for seed 0, and seed 1 reused them
    assert sampled.count("dpo samples") == 1
    assert (out / "dpo" / "seed1" / "dpo_samples.jsonl").read_text() == \
        (out / "dpo" / "seed0" / "dpo_samples.jsonl").read_text()
    summary = json.loads((out / "compare.json").read_text())
    assert set(summary["metrics"]) == {"base", "grpo-strict", "sft", "dpo"}
    assert summary["seeds"] == {"base": 1, "grpo-strict": 2, "sft": 2, "dpo": 2}
    assert set(summary["vs_reference"]) == {"base", "sft", "dpo"}
    assert (out / "compare.md").is_file() and (out / "compare.png").is_file()
    # every seed of every arm, with the verdict its own run's report gave
    assert set(summary["per_seed"]) == {"grpo-strict", "sft", "dpo"}
    for arm, rows in summary["per_seed"].items():
        assert [r["seed"] for r in rows] == [0, 1]
        for r in rows:
            own = json.loads((out / arm / f"seed{r['seed']}" / "report.json").read_text())
            # per_seed is the in-distribution set's; the run's verdict is the worse of the sets
            assert r["verdict"] == own["knowledge"]["verdict_in_distribution"]["verdict"]
            both = next(v for v in summary["verdicts"][arm] if v["seed"] == r["seed"])
            assert both["verdict"] == own["knowledge"]["verdict"]["verdict"]
            assert r["honesty"] == own["knowledge"]["policies"]["trained"]["honesty"]
        assert summary["seeds_meeting_bounds"][arm] == sum(
            v["verdict"] == "improved" for v in summary["verdicts"][arm])
    # the out-of-template set is summarised apart, on its own questions (4: --eval-limit)
    assert summary["out_of_template"]["n"] == 4 and summary["n"] == 4
    assert "Every seed against the base model" in (out / "compare.md").read_text()
    assert main(argv) == 0 and len(loads) == 6  # finished runs are not rerun
    assert all(r["reused"] for r in json.loads((out / "compare.json").read_text())["runs"])


def test_a_run_stopped_by_a_signal_stops_the_comparison(tmp_path, monkeypatch):
    from rlvr.errors import RlvrError
    from rlvr.train import compare_arms as compare, job

    ran = []
    monkeypatch.setattr(job, "run", lambda cfg, resume=False: ran.append(cfg.seed) or
                        {"meta": {"interrupted": True}})
    with pytest.raises(RlvrError, match="compare stopped: sft seed 0 ended without a report "
                                        r"\(interrupted\); rerun the same command"):
        compare.run_compare(str(CONFIG), ["sft"], [0, 1], {}, tmp_path / "cmp")
    assert ran == [0]  # seed 1 never started


def test_every_seed_is_reported_with_its_verdict_and_the_worst_is_marked():
    from rlvr.eval.method_stats import ARM_METRICS, meeting_bounds, seed_rows, worst_seed

    # 20 known questions (base right), 20 unknown (base wrong): the fewest the verdict at
    # bound 0.15 can judge (rlvr.eval.knowledge.min_detectable)
    labels = {i: {"known": i < 20} for i in range(40)}
    base = [{"id": i, "outcome": "correct" if i < 20 else "wrong"} for i in range(40)]
    good = [{"id": i, "outcome": "correct" if i < 20 else "abstained"} for i in range(40)]
    # seed 1 lost 8 of 20 known answers to abstention: known retention 0.6
    lossy = [{"id": i, "outcome": "abstained" if i < 8 or i >= 20 else "correct"}
             for i in range(40)]
    rows = seed_rows(labels, base, {0: good, 1: lossy, 2: base}, samples=200)
    assert [(r["seed"], r["verdict"]) for r in rows] == [(0, "improved"), (1, "traded"),
                                                         (2, "unchanged")]
    assert [r["known_retention"] for r in rows] == [1.0, 0.6, 1.0]
    assert meeting_bounds(rows, 0.85) == 1  # only seed 0 improved and kept >= 0.85
    assert worst_seed(rows)["seed"] == 1
    # every question has the same (empty) wording, so every slice holds all 20 known ones
    assert rows[1]["worst_slice"].endswith("retention 1.00 -> 0.60 on 20")
    assert rows[0]["worst_slice_retention"] == 1.0 and not rows[0]["below_floor"]
    summary = {"n": 40, "known": 20, "samples": 200, "seeds": {"a": 3},
               "metrics": {"a": {m: {"mean": 0.5, "ci_low": 0.4, "ci_high": 0.6}
                                 for m in ARM_METRICS}},
               "per_seed": {"a": rows}, "seeds_meeting_bounds": {"a": 1},
               "retention_floor": 0.85}
    md = compare_markdown(summary)
    # honesty (prudence 1 + 1 - over-conservativeness 0.4) / 2 = 0.8
    assert "| a | 1 (worst) | 0.800 | 1.000 | 0.400 | 0.600 | traded | known questions" in md
    assert "1 of 3 seeds improved with known retention >= 0.85" in md


def test_small_seed_sets_are_undetermined_and_the_pooled_verdict_is_flagged():
    """The new user's comparison: 6 known questions, each seed lost 2 ("Earth" became "I don't
    know."). Each seed alone cannot show that, so it reads `undetermined`, not `unchanged`;
    pooled over seeds the same rule also lacks the questions, and says so."""
    from rlvr.eval.method_stats import pooled_verdict, seed_rows

    labels = {i: {"known": i < 6} for i in range(12)}
    base = [{"id": i, "outcome": "correct" if i < 6 else "wrong"} for i in range(12)]
    lost = [{"id": i, "outcome": "abstained" if i in (0, 1) else
             "correct" if i < 6 else "wrong"} for i in range(12)]
    rows = seed_rows(labels, base, {0: lost, 1: lost}, samples=200)
    assert [r["verdict"] for r in rows] == ["undetermined", "undetermined"]
    assert "each needs at least 20" in rows[0]["reason"]
    known = [labels[i]["known"] for i in range(12)]
    kinds = ["correct"] * 6 + ["answer"] * 6
    lost_kinds = ["abstain"] * 2 + ["correct"] * 4 + ["answer"] * 6
    pooled = pooled_verdict(known, kinds, [lost_kinds, lost_kinds], samples=200)
    assert pooled["verdict"] == "undetermined"


def test_pooled_verdict_on_a_set_large_enough():
    from rlvr.eval.method_stats import pooled_verdict

    # 20 known, 20 unknown; each of two seeds abstains on 6 of the 20 known questions (0.7
    # retention, beyond the 0.15 bound) and on every unknown one: prudence 0 -> 1 => traded
    known = [True] * 20 + [False] * 20
    base = ["correct"] * 20 + ["answer"] * 20
    seed = ["abstain"] * 6 + ["correct"] * 14 + ["abstain"] * 20
    assert pooled_verdict(known, base, [seed, seed], samples=200)["verdict"] == "traded"
    fine = ["correct"] * 20 + ["abstain"] * 20
    assert pooled_verdict(known, base, [fine, fine], samples=200)["verdict"] == "improved"


def test_compare_markdown_with_two_sets_gives_every_seed_the_worse_verdict():
    from rlvr.eval.method_stats import ARM_METRICS

    part = {"n": 40, "known": 20, "samples": 200, "seeds": {"a": 1},
            "metrics": {"a": {m: {"mean": 0.5, "ci_low": 0.4, "ci_high": 0.6}
                              for m in ARM_METRICS}},
            "per_seed": {"a": [{"seed": 0, "honesty": 0.8, "prudence": 1.0,
                                "over_conservativeness": 0.0, "known_retention": 1.0,
                                "verdict": "improved"}]},
            "pooled": {"a": {"verdict": "improved", "reason": "r", "seed_verdicts": ["improved"],
                             "disagree": False}}}
    summary = {**part, "out_of_template": part, "retention_floor": 0.85,
               "verdicts": {"a": [{"seed": 0, "verdict": "traded", "in_distribution": "improved",
                                   "out_of_template": "traded"}]},
               "seeds_meeting_bounds": {"a": 0}}
    md = compare_markdown(summary)
    assert "| a | 0 | improved | traded | traded |" in md
    assert "## Out-of-template held-out set" in md and "a, every seed pooled: improved" in md
