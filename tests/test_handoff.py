"""`rlvr handoff`: the engine's files carry rlvr's rewards, and they score as `rlvr score`
does.

The reward files are imported the way the engines load them (a file path, a function
name) and fed what each engine passes: verl the decoded response and the row's
`ground_truth`; OpenRLHF the decoded prompt + response with an end-of-turn marker. The
reference is `rlvr.rewards.score_rows` (`rlvr score`) on the same row, summed with the
config's weights. Neither engine is installed here: what their loaders read (parquet
columns, JSONL keys) is checked against the contracts in `rlvr.train.handoff`.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess

import pytest

from rlvr.cli import main
from rlvr.rewards import score_rows

RESPONSES = ["I don't know.", "Lisbon.", "#### 5", "The answer is 42.\n#### 42", "Paris",
             "I'm not sure, but it may be 7.", ""]


def _load(path, name):
    spec = importlib.util.spec_from_file_location(f"handoff_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, name)


def _expected(entries, response, fields):
    total = 0.0
    for entry in entries:
        row = {**fields, "completion": response}
        result = score_rows(entry["name"], [row], entry.get("preset"),
                            **(entry.get("params") or {}))[0]
        total += entry.get("weight", 1.0) * (result.score or 0.0)
    return total


@pytest.mark.parametrize("config", ["configs/selfaware_grpo_cpu.yaml",
                                    "configs/gsm8k_grpo_cpu.yaml"])
def test_verl_files_score_as_rlvr_score(tmp_path, config, capsys):
    datasets = pytest.importorskip("datasets")
    out = tmp_path / "verl"
    assert main(["handoff", "verl", "--config", config, "--output-dir", str(out)]) == 0
    assert "training rows" in capsys.readouterr().out
    train = datasets.Dataset.from_parquet(str(out / "train.parquet"))
    assert set(train.column_names) == {"data_source", "prompt", "ability", "reward_model",
                                       "extra_info"}
    row = train[0]
    assert isinstance(row["prompt"], list) and row["prompt"][-1]["role"] == "user"
    compute_score = _load(out / "verl_reward.py", "compute_score")
    entries = json.loads((out / "rlvr_rewards.json").read_text())["rewards"]
    for i in range(0, len(train), max(1, len(train) // 25)):
        item = train[i]
        fields = json.loads(item["reward_model"]["ground_truth"])
        for response in RESPONSES:
            got = compute_score(item["data_source"], response,
                                item["reward_model"]["ground_truth"], item["extra_info"])
            assert got["score"] == pytest.approx(_expected(entries, response, fields)), \
                (i, response)
            # every sample carries the same metric keys: one per reward and outcome
            assert all(isinstance(v, float) for v in got.values())


def test_openrlhf_files_score_as_rlvr_score(tmp_path):
    torch = pytest.importorskip("torch")
    out = tmp_path / "openrlhf"
    assert main(["handoff", "openrlhf", "--config", "configs/gsm8k_grpo_cpu.yaml",
                 "--output-dir", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "train.jsonl").read_text().splitlines()]
    reward_func = _load(out / "openrlhf_reward.py", "reward_func")
    entries = json.loads((out / "rlvr_rewards.json").read_text())["rewards"]
    assert [e.get("weight") for e in entries] == [1.0, 0.5]  # both weighted rewards
    prompts, queries, labels, expected = [], [], [], []
    for row in rows[:20]:
        prompt = "<|im_start|>user\n" + row["prompt"][-1]["content"] + "<|im_end|>\n"
        for response in RESPONSES:
            prompts.append(prompt)
            queries.append(prompt + response + "<|im_end|>")
            labels.append(row["label"])
            expected.append(_expected(entries, response, json.loads(row["label"])))
    got = reward_func(queries, prompts, labels)
    assert torch.allclose(got["rewards"], torch.tensor(expected, dtype=torch.float))
    assert set(got["extra_logs"]) >= {"gsm8k_correctness", "gsm8k_format"}


@pytest.mark.parametrize("engine", ["verl", "openrlhf"])
def test_launch_script_maps_every_key_it_can(tmp_path, engine):
    from rlvr.train.handoff import PARAMETER_MAP

    out = tmp_path / engine
    assert main(["handoff", engine, "--config", "configs/selfaware_grpo_cpu.yaml",
                 "--output-dir", str(out), "--set", "eval_steps=5"]) == 0
    script = (out / f"run_{engine}.sh").read_text()
    subprocess.run(["bash", "-n", str(out / f"run_{engine}.sh")], check=True)
    # the held-out rows are the engine's validation set, scored every eval_steps
    assert ('data.val_files="$HERE/validation.parquet"' if engine == "verl"
            else '--eval.dataset "$HERE/validation.jsonl"') in script
    column = 0 if engine == "verl" else 1
    for key, names in PARAMETER_MAP.items():
        if names[column] is None:
            assert key in script.splitlines()[3], key  # listed as having no equivalent
        else:
            assert names[column] in script and f"`{key}`" in script, key
    # 32 completions a step in 4 generations are 8 prompts a step
    assert ("data.train_batch_size=8" if engine == "verl" else "--rollout.batch_size 8") in script
    assert "train_answerable: known" in script  # what differs from rlvr train is said


def test_handoff_refuses_what_train_refuses_before_writing(tmp_path, capsys):
    out = tmp_path / "verl"
    assert main(["handoff", "verl", "--output-dir", str(out), "--set",
                 f"data={tmp_path / 'missing.jsonl'}"]) != 0
    assert "missing.jsonl: data path does not exist" in capsys.readouterr().err
    assert not (out / "train.parquet").exists()
