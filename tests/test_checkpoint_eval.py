"""A full checkpoint judged as a run's trained model (`trained_model:`, `rlvr eval --trained`):
the way back from an engine (verl, OpenRLHF) or from `rlvr export --merge`.

On a tiny chat model saved to folders: a GRPO run with an adapter, its merged export, and
the merged folder evaluated with the run's own config give the same held-out answers and
the same verdict; the checkpoint's report names it and says no steps were taken here; a
checkpoint equal to the base is reported as not trained; `rlvr report` recomputes the
verdict from the folder; every refusal is one line before a model loads.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from rlvr import cli
from rlvr.config import load_config
from rlvr.errors import ConfigError, ModelNotFoundError

torch = pytest.importorskip("torch")
pytest.importorskip("peft")

from tiny_models import tiny_chat_llama  # noqa: E402

CONFIG = Path(__file__).resolve().parents[1] / "configs" / "selfaware_grpo_cpu.yaml"
GSM8K = Path(__file__).resolve().parents[1] / "configs" / "gsm8k_grpo_cpu.yaml"
# two SFT steps at a large learning rate (cross-entropy always moves the adapter, where a
# random tiny model's GRPO groups score alike and take no step), six held-out questions,
# nothing else: seconds on the tiny model
TINY = {"method": "sft", "max_steps": 2, "max_completion_length": 4, "per_device_train_batch_size": 4,
        "num_generations": 2, "gradient_accumulation_steps": 1, "train_limit": 8,
        "eval_limit": 6, "eval_max_new_tokens": 4, "report_to": "none",
        "cross_check": "none", "decision_samples": 0, "preflight": "off",
        "train_answerable": "all", "lora_target_modules": ["q_proj", "v_proj"],
        "learning_rate": 0.5, "bootstrap_samples": 20, "eval_engine": "transformers",
        "label_cache": False, "out_of_template": "none"}


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    model, tokenizer = tiny_chat_llama()
    folder = tmp_path_factory.mktemp("checkpoint") / "base"
    model.save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def adapter_run(base, tmp_path_factory) -> Path:
    """A two-step SFT run of the main job on the tiny model (adapter + report) whose
    adapter changed the held-out answers."""
    from rlvr.train import job

    run = tmp_path_factory.mktemp("checkpoint") / "run"
    cfg = load_config(CONFIG, {**TINY, "model": str(base), "output_dir": str(run)})
    report = job.run(cfg)
    assert (run / "adapter" / "adapter_config.json").is_file()
    assert not report["meta"]["untrained"], report["meta"]["untrained"]
    return run


def _answers(run: Path) -> list[tuple[str, str]]:
    rows = [json.loads(line) for line in (run / "generations_trained.jsonl").open()]
    return [(r["id"], r["completion"]) for r in rows]


def test_a_merged_run_is_judged_as_its_run_was(adapter_run, base, tmp_path, capsys):
    merged = tmp_path / "merged"
    assert cli.main(["export", str(adapter_run), "--merge", str(merged)]) == 0
    out = tmp_path / "checkpoint_run"
    code = cli.main(["eval", "--trained", str(merged), "--config",
                     str(adapter_run / "resolved_config.yaml"), "--output-dir", str(out)])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert f"trained model: {merged}" in printed and "verdict" in printed.lower()
    # the same held-out rows, prompt and model: the same greedy answers and verdict
    assert _answers(out) == _answers(adapter_run)
    want = json.loads((adapter_run / "report.json").read_text())
    got = json.loads((out / "report.json").read_text())
    assert got["knowledge"]["verdict"]["verdict"] == want["knowledge"]["verdict"]["verdict"]
    assert got["trained"] == want["trained"] and got["base"] == want["base"]
    assert got["meta"]["trained_model"] == str(merged)
    assert got["meta"]["optimizer_steps"] is None  # the steps were taken elsewhere
    assert not (out / "adapter").exists()
    # `rlvr report` reads the folder as any run's
    assert cli.main(["report", str(out)]) == 0
    assert json.loads((out / "report.json").read_text())["knowledge"]["verdict"]["verdict"] \
        == got["knowledge"]["verdict"]["verdict"]


def test_a_checkpoint_equal_to_the_base_is_not_trained(base, tmp_path, capsys):
    out = tmp_path / "same"
    cfg = yaml.safe_dump({**TINY, "model": str(base)})
    (tmp_path / "c.yaml").write_text(cfg)
    code = cli.main(["eval", "--trained", str(base), "--config", str(tmp_path / "c.yaml"),
                     "--output-dir", str(out)])
    printed = capsys.readouterr().out
    assert code == 0
    report = json.loads((out / "report.json").read_text())
    assert "NOT TRAINED" in printed and report["meta"]["untrained"]
    assert report["knowledge"]["verdict"]["verdict"] in ("unchanged", "undetermined")


def test_the_cross_task_check_compares_the_two_models(base, adapter_run, tmp_path):
    """With a full checkpoint there is no adapter to switch off: the base model is the
    other side of the likelihood check."""
    pytest.importorskip("datasets")
    from rlvr.train import job

    merged = tmp_path / "merged"
    assert cli.main(["export", str(adapter_run), "--merge", str(merged)]) == 0
    cfg = load_config(CONFIG, {**TINY, "model": str(base), "trained_model": str(merged),
                               "output_dir": str(tmp_path / "cc"), "cross_check": ["gsm8k"],
                               "cross_check_limit": {"default": 5},
                               "cross_check_distractors": 0})
    report = job.run(cfg)
    task = report["cross_check"]["tasks"]["gsm8k"]
    assert task["n"] == 5 and task["base"] != task["trained"]


def test_refusals_are_one_line_before_a_model_loads(base, tmp_path, capsys):
    other = tmp_path / "other"
    model, tokenizer = tiny_chat_llama()
    model.resize_token_embeddings(model.config.vocab_size + 7)
    model.save_pretrained(other)
    tokenizer.save_pretrained(other)
    cases = [
        (["eval", "--trained", str(base), "--adapter", "x"], "--adapter"),
        (["eval", "--trained", str(base), "--tasks", "gsm8k"], "--tasks"),
        (["eval", "--config", str(CONFIG)], "--trained CHECKPOINT"),
        (["eval", "--trained", str(tmp_path / "missing")], "missing"),
        (["eval", "--trained", str(base), "--config", str(GSM8K)], "calibration report"),
    ]
    for argv, message in cases:
        assert cli.main(argv) == 2, argv
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err, (argv, err)
    with pytest.raises(ConfigError, match="drop them"):
        load_config(CONFIG, {"trained_model": str(base), "skip_eval": True})
    from rlvr.train import job

    cfg = load_config(CONFIG, {**TINY, "model": str(base), "trained_model": str(other),
                               "output_dir": str(tmp_path / "vocab")})
    with pytest.raises(ModelNotFoundError, match="vocabulary"):
        job.run(cfg)
