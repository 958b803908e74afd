"""One run per folder (`rlvr.train.run_folder`): every row of the module's table through
`rlvr train` itself, refused before any model loads, and `--overwrite` emptying the folder."""

from __future__ import annotations

import json

import pytest

from rlvr.cli import main
from rlvr.errors import ConfigError
from rlvr.train.run_folder import check_run_folder, empty_run_folder, run_files


def _old_run(folder, checkpoint: bool = False):
    folder.mkdir(parents=True)
    (folder / "resolved_config.yaml").write_text("seed: 0\n")
    (folder / "metrics.jsonl").write_text(json.dumps({"event": "start"}) + "\n")
    (folder / "rollouts.jsonl").write_text("{}\n")
    if checkpoint:
        step = folder / "checkpoints" / "checkpoint-3"
        step.mkdir(parents=True)
        (step / "rlvr_complete.json").write_text("{}")
    return folder


@pytest.mark.parametrize("make, resume, overwrite, message", [
    # a folder holding a run: refused without a flag, with the ways on named
    (lambda p: _old_run(p, checkpoint=True), False, False, "already holds a run .*--resume"),
    # --resume where there is nothing to continue
    (lambda p: p, True, False, "nothing to continue .*holds no run"),
    (lambda p: _old_run(p), True, False, "no complete checkpoint"),
    # both flags
    (lambda p: _old_run(p, checkpoint=True), True, True, "pass one of them"),
])
def test_refused(tmp_path, make, resume, overwrite, message):
    folder = make(tmp_path / "run")
    with pytest.raises(ConfigError, match=message):
        check_run_folder(folder, resume, overwrite)


@pytest.mark.parametrize("make, resume, overwrite", [
    (lambda p: p, False, False),  # absent
    (lambda p: (p.mkdir(), p)[1], False, False),  # empty
    (lambda p: (p.mkdir(), (p / "notes.txt").write_text("x"), p)[2], False, False),  # no run
    (lambda p: _old_run(p, checkpoint=True), True, False),  # resumable
    (lambda p: _old_run(p), False, True),  # overwritten
])
def test_allowed(tmp_path, make, resume, overwrite):
    check_run_folder(make(tmp_path / "run"), resume, overwrite)


def test_overwrite_empties_a_run_folder_only(tmp_path):
    run = _old_run(tmp_path / "run", checkpoint=True)
    assert run_files(run) == ["resolved_config.yaml", "metrics.jsonl", "rollouts.jsonl",
                              "checkpoints"]
    assert empty_run_folder(run) == ["checkpoints", "metrics.jsonl", "resolved_config.yaml",
                                     "rollouts.jsonl"]
    assert list(run.iterdir()) == []
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    assert empty_run_folder(other) == [] and (other / "notes.txt").read_text() == "mine"


def test_rlvr_train_refuses_a_folder_with_a_run_before_any_model_loads(tmp_path, capsys,
                                                                        monkeypatch):
    import rlvr.train.job as job

    monkeypatch.setattr(job, "load_base", lambda state: pytest.fail("a model loaded"))
    run = _old_run(tmp_path / "run")
    assert main(["train", "--output-dir", str(run), "--max-steps", "1"]) == 2
    err = capsys.readouterr().err
    assert "already holds a run (resolved_config.yaml, metrics.jsonl, rollouts.jsonl)" in err
    assert "--overwrite" in err and len(err.strip().splitlines()) == 1
    assert main(["train", "--output-dir", str(run), "--resume"]) == 2
    assert "no complete checkpoint" in capsys.readouterr().err
    assert (run / "rollouts.jsonl").is_file()  # nothing was touched


def test_the_job_refuses_a_second_run_without_a_flag(tmp_path):
    from rlvr.config import load_config
    from rlvr.train.job import prepare

    run = _old_run(tmp_path / "run")
    with pytest.raises(ConfigError, match="already holds a run"):
        prepare(load_config(None, {"output_dir": str(run)}), resume=False)


def test_the_job_with_overwrite_starts_from_an_empty_folder(tmp_path):
    from rlvr.config import load_config
    from rlvr.train.job import prepare

    run = _old_run(tmp_path / "run", checkpoint=True)
    prepare(load_config(None, {"output_dir": str(run)}), resume=False, overwrite=True)
    assert not (run / "rollouts.jsonl").exists() and not (run / "checkpoints").exists()
    assert (run / "resolved_config.yaml").read_text() != "seed: 0\n"  # the new run's


def test_only_rank_0_checks_and_empties(tmp_path, monkeypatch):
    """Under accelerate launch rank 1 may start after rank 0 wrote the run's config: it must
    not refuse the folder, nor empty it."""
    run = _old_run(tmp_path / "run", checkpoint=True)
    monkeypatch.setenv("RANK", "1")
    check_run_folder(run)  # no refusal on rank 1
    assert empty_run_folder(run) == [] and (run / "rollouts.jsonl").is_file()
    monkeypatch.setenv("RANK", "0")
    with pytest.raises(ConfigError, match="already holds a run"):
        check_run_folder(run)
