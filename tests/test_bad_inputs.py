"""Bad input to `rlvr train` and `rlvr eval`, tried as a new user would (issue: one
validation pass before any model): each is refused with ONE line that names the setting or
`file:line` and the fix, exit code 2, no traceback, and no model load. Valid inputs still
get through every check. `benchmarks/bad_inputs.py` runs the same cases as real
subprocesses and times them.

A model load or a training run is impossible here: `rlvr.train.job.run` and
`rlvr.models.load_causal_lm` are replaced by stand-ins that raise `Reached`, so a case that
passes validation by mistake fails fast instead of training.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import rlvr.models
import rlvr.train.job
from rlvr.cli import main
from rlvr.config import TrainConfig, load_config
from rlvr.errors import ConfigError, DataError
from rlvr.eval.runner import run_eval

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


class Reached(Exception):
    """Validation passed: the command got to training or to loading a model."""


@pytest.fixture(autouse=True)
def _no_model(monkeypatch, tmp_path):
    def reached(*args, **kwargs):
        raise Reached

    monkeypatch.setattr(rlvr.train.job, "run", reached)
    monkeypatch.setattr(rlvr.models, "load_causal_lm", reached)
    monkeypatch.setattr(rlvr.models, "convert_default_model", reached)
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user data_dir
    monkeypatch.chdir(tmp_path)  # default output_dir runs/selfaware lands here


@pytest.fixture()
def files(tmp_path):
    """Input files a new user might pass by mistake."""
    def jsonl(name, rows):
        (tmp_path / name).write_text("".join(json.dumps(r) + "\n" for r in rows),
                                     encoding="utf-8")

    def msg(question, answer, unanswerable):
        return {"messages": [{"role": "user", "content": question},
                             {"role": "assistant", "content": answer}],
                "is_unanswerable": unanswerable}

    (tmp_path / "empty.yaml").write_text("# nothing but a comment\n")
    (tmp_path / "list.yaml").write_text("- beta: 0.1\n- lora_r: 8\n")
    (tmp_path / "scalar.yaml").write_text("selfaware\n")
    (tmp_path / "zero.yaml").write_text("0\n")
    (tmp_path / "latin1.yaml").write_bytes(b"beta: 0.1\nrun_name: caf\xe9\n")
    (tmp_path / "dup.yaml").write_text("beta: 0.1\nlora_r: 8\nbeta: 0.2\n")
    (tmp_path / "dup_nested.yaml").write_text("reward_params:\n  wrong: -1\n  wrong: -0.5\n")
    (tmp_path / "bad.yaml").write_text("beta: 0.1\nreward_params: {wrong: -1\n")
    (tmp_path / "unicode_key.yaml").write_text("bêta: 0.1\n", encoding="utf-8")
    (tmp_path / "dup_tasks.yaml").write_text("eval_tasks: [gsm8k, triviaqa, gsm8k]\n")
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "blank.jsonl").write_text("\n  \n\n")
    (tmp_path / "a_file").write_text("x\n")
    (tmp_path / "empty_dir").mkdir()
    (tmp_path / "not_a_model").mkdir()
    jsonl("one_row.jsonl", [msg("What is the capital of France?", "Paris", False)])
    jsonl("not_objects.jsonl", [[1, 2], [3]])
    jsonl("maybe.jsonl", [msg("What is the capital of France?", "Paris", False),
                          msg("Who wins in 2090?", "I don't know.", "maybe")])
    return tmp_path


def _refused(capsys, argv: list[str], message: str) -> str:
    """Run `rlvr argv`; assert exit 2 and one stderr line `rlvr <cmd>: error: ...` matching
    `message`; return that line."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"rlvr {argv[0]}: error: "), lines[0]
    assert re.search(message, lines[0]), lines[0]
    return lines[0]


TRAIN_CASES = [
    # --- the config file ---
    (["--config", "{t}/empty.yaml"], r"empty\.yaml: the config file is empty; .*omit --config"),
    (["--config", "{t}/list.yaml"], r"list\.yaml: expected a mapping of keys to values.*got list"),
    (["--config", "{t}/scalar.yaml"], r"scalar\.yaml: expected a mapping.*got str"),
    (["--config", "{t}/zero.yaml"], r"zero\.yaml: expected a mapping.*got int"),  # was: defaults
    (["--config", "{t}/nope.yaml"], r"config file .*nope\.yaml not found"),
    (["--config", "{t}/empty_dir"], r"--config .*empty_dir is a folder; pass a YAML file"),
    (["--config", "{t}/latin1.yaml"], r"latin1\.yaml:2: not UTF-8 text; save the file as UTF-8"),
    (["--config", "{t}/dup.yaml"], r"dup\.yaml:3: key 'beta' is given twice \(also on line 1\)"),
    (["--config", "{t}/dup_nested.yaml"], r"dup_nested\.yaml:3: key 'wrong' is given twice"),
    (["--config", "{t}/bad.yaml"], r"bad\.yaml:\d: invalid YAML \(expected ',' or '\}'"),
    (["--config", "{t}/unicode_key.yaml"], r"unknown key 'bêta'; did you mean 'beta'"),
    # --- wrong types ---
    (["--set", "max_steps=abc"], r"max_steps must be an integer such as -1, got 'abc'"),
    (["--set", "lora_target_modules=5"], r"lora_target_modules must be text or a list such as "
                                         r"\[q_proj, v_proj\].*got 5"),
    (["--set", "lora_target_modules=[]"], r"lora_target_modules must be a module name"),
    (["--set", "learning_rate=[1]"], r"learning_rate must be a number such as 5e-05, got \[1\]"),
    (["--set", "beta=true"], r"beta must be a number such as 0\.1, got True"),
    (["--set", "lora_r=2.5"], r"lora_r must be an integer such as 8, got 2\.5"),
    (["--set", "seed=.nan"], r"seed must be an integer such as 42, got nan"),
    (["--set", "temperature=.inf"], r"temperature must be a finite number such as 0\.7, got inf"),
    (["--set", "skip_eval=maybe"], r"skip_eval must be true or false, got 'maybe'"),
    (["--set", "run_name=2024-01-01"], r"run_name must be text or null \(quote a value"),
    (["--set", "reward_funcs=5"], r"reward_funcs must be a list or null such as \[\{name"),
    (["--output-dir", ""], r"output_dir is empty text; set it, e.g. output_dir: runs/"),
    (["--data", ""], r"data is empty text; omit it"),
    (["--model", " "], r"model is empty text"),
    # --- Unicode ---
    (["--set", "bêta=0.1"], r"unknown key 'bêta'; did you mean 'beta'"),
    (["--set", "reward=sélfaware"], r"unknown reward 'sélfaware'"),
    # --- huge and out-of-range values ---
    (["--set", "max_completion_length=1000000000000"],
     r"max_completion_length = 1000000000000 is above 131,072"),
    (["--set", "num_generations=100000"], r"num_generations = 100000 is above 1,024"),
    (["--set", "per_device_train_batch_size=1000000000"],
     r"per_device_train_batch_size = 1000000000 is above"),
    (["--set", "learning_rate=1e9"], r"learning_rate = 1000000000\.0 is above 1\.0"),
    (["--set", "seed=1000000000000"], r"seed must be in \[0, 2\*\*32 - 1\]"),
    (["--set", "seed=-1"], r"seed must be in \[0, 2\*\*32 - 1\]"),
    (["--set", "eval_limit=-1"], r"eval_limit must be >= 1 or null, got -1"),
    (["--set", "train_limit=0"], r"train_limit must be >= 1 or null, got 0"),
    (["--set", "eval_max_new_tokens=0"], r"eval_max_new_tokens must be >= 1 or null"),
    (["--set", "num_train_epochs=0"], r"num_train_epochs must be > 0"),
    (["--set", "alarm_hedge_rate=5"], r"alarm_hedge_rate is a share and must be in \[0, 1\]"),
    # --- files and folders (checked before torch/TRL are imported) ---
    (["--data", "{t}/nope.jsonl"], r"nope\.jsonl: data path does not exist; pass --data"),
    (["--data", "{t}/empty.jsonl"], r"empty\.jsonl: no rows: the file is empty; write one JSON"),
    (["--data", "{t}/blank.jsonl"], r"blank\.jsonl: no rows: the file is empty"),
    (["--data", "{t}/one_row.jsonl"], r"one_row\.jsonl: need at least 2 rows"),
    (["--data", "{t}/not_objects.jsonl"], r"not_objects\.jsonl:1: expected a JSON object"),
    (["--data", "{t}/maybe.jsonl"], r"maybe\.jsonl:2: 'is_unanswerable' must be true or false"),
    (["--data", "{t}/empty_dir"], r"empty_dir: folder has no train\.jsonl; expected train\.jsonl"),
    (["--model", "{t}/nope_model"], r"model path '.*nope_model' does not exist"),
    (["--model", "{t}/not_a_model"], r"not_a_model' has no config\.json"),
    (["--output-dir", "{t}/a_file/run"], r"output_dir '.*a_file/run' is not writable"),
    (["--set", "reward_preset=seed"], r"preflight refused the run: on the \d+ training rows .*"
                                      r"always_hedge .*reward_preset: strict.*preflight: warn"),
    (["--set", "reward_funcs=[{name: selfaware, preset: seed}]"],  # the seed table
     r"preflight refused the run: .*preset: strict in its reward_funcs entry"),
    # --- TRL options: under trl:, never one rlvr sets ---
    (["--set", "epsilon_high=0.28"], r"unknown key 'epsilon_high'; it is a trl\.GRPOConfig "
                                     r"option: put it under trl: \(e\.g\. trl: \{epsilon_high: "
                                     r"0\.28\}, or --set trl\.epsilon_high=0\.28\)"),
    (["--set", "trl.learning_rate=0.0001"], r"trl: learning_rate: it is an rlvr key, passed to "
                                            r"trl\.GRPOConfig as it is; set it at the top level"),
    (["--set", "trl=epsilon_high"], r"trl must be a mapping such as \{epsilon_high: 0\.28\}"),
    # --- eval_tasks (cross-task evaluation after training) ---
    (["--config", "{t}/dup_tasks.yaml"], r"eval_tasks names 'gsm8k' more than once"),
    (["--set", "eval_tasks=[gsm8k]", "--set", "eval_data_dir={t}/nope"],
     r"eval_data_dir .*nope is not a folder"),
    (["--set", "eval_tasks=exploretom"], r"exploretom has no bundled data file.*--task-path"),
]


@pytest.mark.parametrize("argv, message", TRAIN_CASES,
                         ids=[" ".join(a).replace("{t}/", "") for a, _ in TRAIN_CASES])
def test_train_refuses_before_any_model(files, capsys, argv, message):
    _refused(capsys, ["train", *[a.replace("{t}", str(files)) for a in argv]], message)


EVAL_CASES = [
    (["--tasks", ""], r"--tasks is required"),
    (["--tasks", " , "], r"--tasks is required"),
    (["--tasks", "gsm8k,triviaqa,gsm8k"], r"--tasks names gsm8k more than once"),
    (["--tasks", "gsm8k", "--limit", "-1"], r"--limit must be >= 1, got -1"),
    (["--tasks", "gsm8k", "--batch-size", "0"], r"--batch-size must be >= 1"),
    (["--tasks", "gsm8k", "--max-new-tokens", "0"], r"--max-new-tokens must be >= 1"),
    (["--tasks", "gsm8k", "--max-new-tokens", "1000000000000"], r"--max-new-tokens .* is above"),
    (["--tasks", "gsm8k", "--num-samples", "100000"], r"--num-samples 100000 is above 1,024"),
    (["--tasks", "gsm8k", "--temperature", "nan"], r"--temperature must be >= 0 and finite"),
    (["--tasks", "gsm8k", "--data-dir", "{t}/nope"], r"--data-dir .*nope is not a folder"),
    (["--tasks", "gsm8k", "--data-dir", "{t}/a_file"], r"--data-dir .*a_file is not a folder"),
    (["--tasks", "gsm8k", "--task-path", "gsm8k={t}/nope.jsonl"],
     r"--task-path gsm8k=.*nope\.jsonl: file not found"),
    (["--tasks", "gsm8k", "--task-path", "gsm8kk={t}/one_row.jsonl"],
     r"--task-path gsm8kk=.*unknown task 'gsm8kk'.*Did you mean 'gsm8k'"),
    (["--tasks", "gsm8k", "--task-path", "gsm8k="], r"--task-path expects TASK=FILE"),
    (["--tasks", "gsm8k", "--output-dir", "{t}/a_file/ev"], r"output_dir .*a_file/ev' is not "
                                                            r"writable.*--output-dir"),
    (["--tasks", "gsm8k", "--output-dir", ""], r"--output-dir is empty"),
    (["--tasks", "gsm8k", "--model", "{t}/nope_model"], r"model path .*nope_model.* does not "
                                                        r"exist"),
    (["--tasks", "gsm8k", "--adapter", "{t}/nope"], r"--adapter .*nope does not exist"),
    # every task skipped (exploretom has data only from --task-path): one line with the
    # reason, exit 2, and no model loaded
    (["--tasks", "exploretom", "--data-dir", "{t}/empty_dir", "--output-dir", "{t}/ev"],
     r"every task was skipped, so nothing was evaluated: exploretom: .*--task-path"),
]


@pytest.mark.parametrize("argv, message", EVAL_CASES,
                         ids=[" ".join(a).replace("{t}/", "") for a, _ in EVAL_CASES])
def test_eval_refuses_before_any_model(files, capsys, argv, message):
    _refused(capsys, ["eval", *[a.replace("{t}", str(files)) for a in argv]], message)


@pytest.mark.parametrize("argv, message", [
    (["train", "--max-steps", "1.5"], r"^rlvr train: error: argument --max-steps: invalid int "
                                      r"value: '1\.5' \(see `rlvr train --help`\)$"),
    (["eval", "--limit", "abc"], r"^rlvr eval: error: argument --limit: invalid int value"),
    (["trian"], r"^rlvr: error: argument COMMAND: invalid choice: 'trian'"),
])
def test_argparse_errors_are_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2 and len(err.strip().splitlines()) == 1, err
    assert re.search(message, err.strip()), err


@pytest.mark.parametrize("argv", [
    # issue: `eval_tasks: gsm8k` is one task, not its letters; a single reward_funcs mapping
    ["--set", "eval_tasks=gsm8k", "--set", f"eval_data_dir={SHARED_DATA}"],
    ["--set", "eval_tasks=[gsm8k, selfaware]"],  # no data folder: a later fallback or skip
    ["--set", "reward_funcs={name: selfaware, preset: strict}"],
    ["--set", "trl={importance_sampling_level: sequence}", "--set", "trl.epsilon_high=0.28"],
    ["--set", "run_name=прогон-✓ «ünïcode»", "--set", "system_prompt=Réponds. 答えて."],
    ["--config", str(ROOT / "configs" / "selfaware_grpo_cpu.yaml")],
    ["--config", str(ROOT / "configs" / "selfaware_grpo.yaml")],  # preflight: warn
    ["--config", str(ROOT / "configs" / "selfaware_mix_cpu.yaml"),
     "--data", str(SHARED_DATA / "selfaware" / "SelfAware.json")],
])
def test_valid_train_inputs_pass_every_check(files, capsys, argv):
    with pytest.raises(Reached):
        main(["train", "--output-dir", str(files / "run"), *argv])
    assert "error" not in capsys.readouterr().err


def test_valid_eval_reaches_the_model(files, capsys):
    with pytest.raises(Reached):
        main(["eval", "--tasks", "gsm8k,triviaqa", "--limit", "2", "--data-dir",
              str(SHARED_DATA), "--output-dir", str(files / "ev")])


def test_run_eval_skips_the_model_when_every_task_is_skipped(tmp_path, caplog):
    # rlvr train's cross-task evaluation keeps its report: no error, no model loaded
    results = run_eval(None, ["exploretom"], data_dir=str(tmp_path),
                       output_dir=tmp_path / "ev")
    assert not results["tasks"] and "exploretom" in results["skipped"]
    assert "skipping task exploretom" in caplog.text
    with pytest.raises(DataError, match="every task was skipped"):
        run_eval(None, ["exploretom"], data_dir=str(tmp_path), output_dir=tmp_path / "ev",
                 require_tasks=True)


def test_types_are_checked_in_python_too():
    # TrainConfig(...) built in Python gets the same checks as a YAML file
    with pytest.raises(ConfigError, match="lora_r must be an integer such as 8, got '8'"):
        TrainConfig(lora_r="8")
    with pytest.raises(ConfigError, match="beta must be a number such as 0.1, got False"):
        TrainConfig(beta=False)
    cfg = TrainConfig(num_train_epochs=2, eval_tasks="gsm8k", reward_funcs={"name": "selfaware"})
    assert cfg.num_train_epochs == 2.0 and isinstance(cfg.num_train_epochs, float)
    assert cfg.eval_tasks == ["gsm8k"] and cfg.reward_funcs == [{"name": "selfaware"}]
    # YAML 1.1 reads 5e-5 as text: still converted, as before
    assert load_config(None, {"learning_rate": "5e-5"}).learning_rate == 5e-5
