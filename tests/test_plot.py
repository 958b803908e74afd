"""`rlvr plot`: training plots from metrics.jsonl, or train_log.jsonl + report.json."""

from __future__ import annotations

import json
import logging
import sys

import pytest

from rlvr import cli
from rlvr.errors import RlvrError
from rlvr.plots.training_data import (latest_eval, load_run_metrics, merge_steps, resume_steps,
                                   series)

pytest.importorskip("matplotlib")
Image = pytest.importorskip("PIL.Image")

from rlvr.plots.training import PNG_SIZES, write_training_plots  # noqa: E402

ALL = ["rewards.png", "zero_spread.png", "calibration.png", "kl.png", "length.png",
       "before_after.png"]


def _log(step: int, reward: float, **extra) -> dict:
    """One full log record, as TRL + rlvr's diagnostics write it."""
    return {"step": step, "reward": reward, "reward_std": 0.5,
            "rewards/selfaware/mean": reward, "rewards/selfaware/std": 0.5,
            "rewards/selfaware_length/mean": -0.1 * step,
            "frac_reward_zero_std": 0.25, "kl": 0.01 * step, "entropy": 0.8, "loss": 0.02,
            "completions/mean_length": 8.0 + step, "completions/clipped_ratio": 0.25,
            "calibration/n_correct": 5.0, "calibration/n_abstained": 1.0,
            "calibration/n_hedged": 1.0, "calibration/n_hedged_correct": 1.0,
            "calibration/n_hedged_wrong": 0.0, "calibration/n_wrong": 3.0,
            "calibration/n_listed_candidates": 1.0,
            "calibration/n_abstained_unanswerable": 3.0,
            "calibration/n_hedged_unanswerable": 0.0,
            "calibration/n_answered_unanswerable": 2.0,
            "calibration/over_abstention": 0.1, "calibration/hedge_rate": 0.06,
            "calibration/zero_std_group_share": 0.25, "calibration/truncation_rate": 0.25,
            "calibration/completion_length": 8.0 + step, "epoch": 0.1 * step, **extra}


def _diff(value: float) -> dict:
    return {"difference": value, "ci_low": value - 0.1, "ci_high": value + 0.1,
            "confidence": 0.95, "samples": 200, "n": 20}


def _policy(prudence: float, over: float, retention: float) -> dict:
    return {"prudence": prudence, "over_conservativeness": over,
            "honesty": (prudence + 1 - over) / 2, "known_retention": retention,
            "answer_rate": 0.7, "selective_accuracy": None}


def _calibration(reward: float, accuracy: float) -> dict:
    return {"selfaware": {"n": 20, "mean_reward": reward, "answerable_accuracy": accuracy,
                          "answerable_abstention_rate": 0.0,
                          "unanswerable_abstention_recall": 0.5,
                          "abstention_precision": None, "abstention_f1": 0.6,
                          "counts": {"answerable": 12, "unanswerable": 8}}}


EVALUATION = {
    "base": _calibration(-0.1, 0.4),
    "trained": _calibration(0.2, 0.5),
    "difference": {"mean_reward": {"mean_difference": 0.3, "ci_low": 0.1, "ci_high": 0.5,
                                   "confidence": 0.95, "samples": 200, "n": 20}},
    "knowledge": {"n": 20, "known": 8, "unknown": 12,
                  "policies": {"always_abstain": _policy(1.0, 1.0, 0.0),
                               "base": _policy(0.25, 0.0, 1.0),
                               "trained": _policy(0.5, 0.125, 0.875)},
                  "differences": {"trained_vs_base": {m: _diff(0.1) for m in (
                      "prudence", "over_conservativeness", "honesty", "known_retention")}}},
}


def _write_jsonl(path, records) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


@pytest.fixture
def run_dir(tmp_path):
    """A resumed run: steps 1-4, crash, resume from step 2 (steps 3-4 logged again), eval."""
    run = tmp_path / "my_run"
    run.mkdir()
    records = [{"event": "start", "utc": "2025-01-01T00:00:00+00:00", "resume": False}]
    records += [{"event": "log", **_log(s, 0.1 * s)} for s in (1, 2, 3, 4)]
    records += [{"event": "start", "utc": "2025-01-01T01:00:00+00:00", "resume": True}]
    records += [{"event": "log", **_log(s, 0.2 * s)} for s in (3, 4, 5, 6)]
    records += [{"event": "eval", **EVALUATION}]
    _write_jsonl(run / "metrics.jsonl", records)
    return run


def _check_png(path) -> None:
    with Image.open(path) as image:
        image.verify()
    with Image.open(path) as image:
        assert image.size == PNG_SIZES[path.name]
        extrema = image.convert("RGB").getextrema()
        assert any(low != high for low, high in extrema), f"{path.name} is blank"


def test_all_plots_written_with_fixed_size(run_dir):
    paths = write_training_plots(run_dir)
    assert [p.name for p in paths] == ALL
    assert all(p.parent == run_dir / "plots" for p in paths)
    for path in paths:
        _check_png(path)
    assert PNG_SIZES["rewards.png"] == (960, 540)  # 8 x 4.5 inches at 120 dpi


def test_output_dir_option(run_dir, tmp_path):
    paths = write_training_plots(run_dir, tmp_path / "elsewhere")
    assert {p.parent for p in paths} == {tmp_path / "elsewhere"}
    assert not (run_dir / "plots").exists()


def test_newest_value_wins_for_a_repeated_step():
    records = [{"event": "start"},
               {"event": "log", "step": 1, "reward": 0.1, "kl": 0.5},
               {"event": "log", "step": 2, "reward": 0.2, "kl": 0.6, "alarms": ["collapse"]},
               {"event": "start", "resume": True},
               {"event": "log", "step": 2, "reward": 0.9, "kl": None},  # NaN when logged
               {"event": "log", "step": 3, "reward": 0.3, "loss": float("nan")},
               {"event": "eval", "base": {"old": 1}},
               {"event": "eval", "base": {"new": 1}}]
    steps = merge_steps(records)
    assert steps == {1: {"reward": 0.1, "kl": 0.5}, 2: {"reward": 0.9}, 3: {"reward": 0.3}}
    assert series(steps, "reward") == ([1, 2, 3], [0.1, 0.9, 0.3])
    assert series(steps, "kl") == ([1], [0.5])
    assert resume_steps(records) == [2]
    assert latest_eval(records) == {"base": {"new": 1}}


def test_fixture_resume_is_merged(run_dir):
    run = load_run_metrics(run_dir)
    assert run.source == "metrics.jsonl" and run.eval_source == "metrics.jsonl"
    # steps 3 and 4 were logged before and after the resume: the resumed values (0.2 x step)
    assert series(run.steps, "reward") == ([1, 2, 3, 4, 5, 6],
                                           pytest.approx([0.1, 0.2, 0.6, 0.8, 1.0, 1.2]))
    assert run.resumed_at == [3]
    assert run.evaluation["knowledge"]["n"] == 20


def test_cli_prints_the_written_paths(run_dir, tmp_path, capsys):
    out_dir = tmp_path / "cli_plots"
    assert cli.main(["plot", str(run_dir), "--output-dir", str(out_dir)]) == 0
    printed = capsys.readouterr().out.splitlines()
    assert printed == [f"wrote {out_dir / name}" for name in ALL]
    assert cli.main(["plot", str(run_dir)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(ALL)
    assert sorted(p.name for p in (run_dir / "plots").iterdir()) == sorted(ALL)


def test_fallback_to_train_log_and_report(tmp_path):
    run = tmp_path / "old_run"
    run.mkdir()
    logs = [_log(s, 0.1 * s) for s in (1, 2, 3)]
    logs.append({"train_runtime": 10.0, "train_loss": 0.01, "epoch": 0.3, "step": 3})
    _write_jsonl(run / "train_log.jsonl", logs)
    (run / "report.json").write_text(json.dumps({"meta": {}, **EVALUATION}), encoding="utf-8")
    data = load_run_metrics(run)
    assert data.source == "train_log.jsonl" and data.eval_source == "report.json"
    assert data.steps[3]["reward"] == pytest.approx(0.3)  # the summary line keeps step 3
    paths = write_training_plots(run)
    assert [p.name for p in paths] == ALL
    for path in paths:
        _check_png(path)


def test_missing_keys_skip_their_plots(tmp_path, caplog):
    run = tmp_path / "sparse_run"
    run.mkdir()
    keep = ("step", "reward", "rewards/selfaware/mean", "completions/mean_length")
    logs = [{"event": "log", **{k: v for k, v in _log(s, 0.5).items() if k in keep},
             "kl": None} for s in (1, 2)]  # beta 0: kl logged as NaN -> null
    _write_jsonl(run / "metrics.jsonl", [{"event": "start"}, *logs])
    with caplog.at_level(logging.INFO, logger="rlvr.plots.training"):
        paths = write_training_plots(run)
    assert [p.name for p in paths] == ["rewards.png", "length.png"]
    for path in paths:
        _check_png(path)
    for name in ("zero_spread.png", "calibration.png", "kl.png", "before_after.png"):
        assert f"skipped {name}" in caplog.text


def test_before_after_without_knowledge_is_one_panel(tmp_path):
    run = tmp_path / "no_knowledge"
    run.mkdir()
    evaluation = {k: EVALUATION[k] for k in ("base", "trained", "difference")}
    _write_jsonl(run / "metrics.jsonl", [{"event": "log", **_log(1, 0.0)},
                                         {"event": "eval", **evaluation}])
    paths = write_training_plots(run)
    assert paths[-1].name == "before_after.png"
    _check_png(paths[-1])


def test_run_without_logs_writes_nothing(tmp_path, capsys):
    run = tmp_path / "just_started"
    run.mkdir()
    _write_jsonl(run / "metrics.jsonl", [{"event": "start"}])
    with (run / "metrics.jsonl").open("a") as handle:
        handle.write('{"event": "log", "st')  # cut off by a crash
    assert write_training_plots(run) == []
    assert cli.main(["plot", str(run)]) == 0
    assert "no plots written" in capsys.readouterr().out


def test_missing_or_empty_folder_is_a_user_error(tmp_path, capsys):
    with pytest.raises(RlvrError, match="no such directory"):
        write_training_plots(tmp_path / "nope")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RlvrError, match="no metrics.jsonl or train_log.jsonl") as info:
        write_training_plots(empty)
    assert str(empty) in str(info.value) and "\n" not in str(info.value)
    assert cli.main(["plot", str(empty)]) == 2
    assert "rlvr plot: error:" in capsys.readouterr().err


def test_missing_matplotlib_says_how_to_install(run_dir, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert cli.main(["plot", str(run_dir)]) == 2
    assert "pip install matplotlib" in capsys.readouterr().err
