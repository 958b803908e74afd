"""`rlvr handoff` against the engines themselves: verl 0.9.1 and OpenRLHF 0.11.2, installed in
their own environment (.venv-verl, built by `scripts/install_engines.sh`, which the README's
test command runs).

For the main job's config and a GSM8K config, the files are written here and read there by
the engines' own code (tests/engines/verl_check.py, tests/engines/openrlhf_check.py): the
launch script's options through verl's Hydra config and OpenRLHF's argument parser, the
data through `RLHFDataset` and `PromptDataset`, and 100 responses per config through both of
verl's reward paths and OpenRLHF's reward-function executor. Every score must equal what
`rlvr score` (`rlvr.rewards.score_rows`) gives the same row here, summed with the config's
weights.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rlvr.cli import main
from rlvr.rewards import score_rows

ROOT = Path(__file__).resolve().parents[1]
ENGINES_PYTHON = ROOT / ".venv-verl" / "bin" / "python"
CHECKS = Path(__file__).resolve().parent / "engines"
CASES = 100
RESPONSES = ["I don't know.", "Lisbon.", "#### 5", "The answer is 42.\n#### 42", "Paris",
             "I'm not sure, but it may be 7.", ""]


@pytest.fixture(scope="module")
def engines_python() -> Path:
    if not ENGINES_PYTHON.is_file():
        pytest.fail(f"{ENGINES_PYTHON} is missing: run `bash scripts/install_engines.sh` "
                    "(the README's test command does)")
    return ENGINES_PYTHON


@pytest.fixture(scope="module")
def tokenizer_dir() -> str:
    from rlvr.models import resolve_model

    return resolve_model(None)  # the default model's folder (converted on first use)


def _expected(entries: list[dict], response: str, fields: dict) -> float:
    total = 0.0
    for entry in entries:
        result = score_rows(entry["name"], [{**fields, "completion": response}],
                            entry.get("preset"), **(entry.get("params") or {}))[0]
        total += entry.get("weight", 1.0) * (result.score or 0.0)
    return total


def _cases(labels: list[str], entries: list[dict]) -> list[dict]:
    """CASES responses over rows spread through the file: the fixed ones and the row's
    own gold answer (so that correct answers are among them)."""
    cases = []
    step = max(1, len(labels) * (len(RESPONSES) + 1) // CASES)
    for index in range(0, len(labels), step):
        fields = json.loads(labels[index])
        gold = fields.get("final_answer") or fields.get("expected_answer")
        gold = gold[0] if isinstance(gold, list) and gold else gold
        for response in RESPONSES + [f"The answer is {gold}.\n#### {gold}" if gold else "."]:
            cases.append({"index": index, "response": response,
                          "expected": _expected(entries, response, fields)})
    return cases[:CASES]


def _check(engines_python: Path, script: str, out: Path, cases: list[dict],
           tokenizer_dir: str) -> dict:
    cases_file = out / "cases.jsonl"
    cases_file.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    proc = subprocess.run([str(engines_python), str(CHECKS / script), str(out),
                           str(cases_file), tokenizer_dir],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    assert proc.returncode == 0 and lines, proc.stdout[-3000:] + proc.stderr[-3000:]
    return json.loads(lines[-1])


def _run_failing(engines_python: Path, script: str, out: Path,
                 tokenizer_dir: str) -> subprocess.CompletedProcess:
    """Run a check on a hand-off folder the test broke (one dummy case; the check is
    expected to stop before scoring)."""
    cases_file = out / "cases.jsonl"
    cases_file.write_text(json.dumps({"index": 0, "response": "", "expected": 0.0}) + "\n")
    return subprocess.run([str(engines_python), str(CHECKS / script), str(out),
                           str(cases_file), tokenizer_dir], capture_output=True, text=True,
                          timeout=600, cwd=ROOT)


@pytest.mark.parametrize("config", ["configs/selfaware_grpo_cpu.yaml",
                                    "configs/gsm8k_grpo_cpu.yaml"])
def test_verl_loads_the_files_and_scores_as_rlvr(tmp_path, config, engines_python,
                                                 tokenizer_dir):
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "verl"
    assert main(["handoff", "verl", "--config", config, "--output-dir", str(out)]) == 0
    train = datasets.Dataset.from_parquet(str(out / "train.parquet"))
    entries = json.loads((out / "rlvr_rewards.json").read_text())["rewards"]
    cases = _cases([row["reward_model"]["ground_truth"] for row in train], entries)
    report = _check(engines_python, "verl_check.py", out, cases, tokenizer_dir)
    assert report["cases"] == CASES
    assert report["legacy_equal"] == report["loop_equal"] == CASES, report
    assert report["rows"] == len(train)


@pytest.mark.parametrize("config", ["configs/selfaware_grpo_cpu.yaml",
                                    "configs/gsm8k_grpo_cpu.yaml"])
def test_openrlhf_loads_the_files_and_scores_as_rlvr(tmp_path, config, engines_python,
                                                     tokenizer_dir):
    out = tmp_path / "openrlhf"
    assert main(["handoff", "openrlhf", "--config", config, "--output-dir", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    entries = json.loads((out / "rlvr_rewards.json").read_text())["rewards"]
    cases = _cases([row["label"] for row in rows], entries)
    report = _check(engines_python, "openrlhf_check.py", out, cases, tokenizer_dir)
    assert report == {**report, "cases": CASES, "equal": CASES, "rows": len(rows)}, report
    assert report["checks"] >= 10  # OpenRLHF's own checks after parsing ran


@pytest.mark.parametrize("engine, script, bad", [
    ("verl", "run_verl.sh", "actor_rollout_ref.rollout.num_samples=4"),
    ("openrlhf", "run_openrlhf.sh", "--remote_rm_url x.py"),
])
def test_an_option_the_engine_does_not_know_fails_the_check(tmp_path, engine, script, bad,
                                                            engines_python, tokenizer_dir):
    """The checks read option names with the engines' own parsers: a name from an older
    release (OpenRLHF's `--remote_rm_url` before 0.11) or a made-up one is caught."""
    out = tmp_path / engine
    assert main(["handoff", engine, "--config", "configs/gsm8k_grpo_cpu.yaml",
                 "--output-dir", str(out)]) == 0
    path = out / script
    path.write_text(path.read_text().replace("ARGS=(\n", f"ARGS=(\n  {bad}\n", 1))
    proc = _run_failing(engines_python, f"{engine}_check.py", out, tokenizer_dir)
    assert proc.returncode != 0
    assert bad.split("=")[0].split()[0].lstrip("-") in proc.stderr, proc.stderr[-2000:]



def test_verl_batch_sizes_it_refuses_fail_the_check(tmp_path, engines_python, tokenizer_dir):
    """verl's own `validate_config` reads the script's batch sizes: a mini-batch of more
    prompts than a step holds (verl's default, 256, against rlvr's 8) is refused."""
    out = tmp_path / "verl"
    assert main(["handoff", "verl", "--config", "configs/selfaware_grpo_cpu.yaml",
                 "--output-dir", str(out)]) == 0
    path = out / "run_verl.sh"
    text = path.read_text()
    path.write_text(text.replace("\n)\n", "\n  actor_rollout_ref.actor.ppo_mini_batch_size=256\n)\n"))
    proc = _run_failing(engines_python, "verl_check.py", out, tokenizer_dir)
    assert proc.returncode != 0 and "ppo_mini_batch_size" in proc.stderr, proc.stderr[-2000:]


def test_openrlhf_checks_after_parsing_run_in_the_check(tmp_path, engines_python,
                                                        tokenizer_dir):
    """OpenRLHF's `__main__` checks the parsed options before it launches (e.g. a micro-batch
    must divide into the actor's GPUs' share of a step); those checks run in the check: a
    script whose step holds fewer samples than the actors' GPUs is refused."""
    out = tmp_path / "openrlhf"
    assert main(["handoff", "openrlhf", "--config", "configs/selfaware_grpo_cpu.yaml",
                 "--output-dir", str(out)]) == 0
    path = out / "run_openrlhf.sh"
    path.write_text(path.read_text().replace(
        "ARGS=(\n", "ARGS=(\n  --actor.num_gpus_per_node 1024\n", 1))
    proc = _run_failing(engines_python, "openrlhf_check.py", out, tokenizer_dir)
    assert proc.returncode != 0 and "AssertionError" in proc.stderr, proc.stderr[-2000:]
