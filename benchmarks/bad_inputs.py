"""Run every bad input the CLI must refuse before any model loads through the real `rlvr` CLI, timed.

    .venv/bin/python benchmarks/bad_inputs.py            # listed cases + new-user cases
    .venv/bin/python benchmarks/bad_inputs.py --listed   # only the listed cases
    .venv/bin/python benchmarks/bad_inputs.py -k eval    # cases whose name contains "eval"

Each case is one subprocess `.venv/bin/rlvr ...` (files it needs are written into a temp
folder) and is judged PASS when all of these hold:

- exit code: 2 for a refused input (or the case's documented code; 0 for the inputs that
  must be accepted, such as `eval_tasks: gsm8k`, one task rather than its letters);
- stderr: exactly one `rlvr [<cmd>]: error: ...` line and nothing else (Python warning lines
  are ignored but counted in the `warn` column); the line matches the case's expectation;
  no traceback. An accepted case has no error line;
- time: under 5 s wall;
- no model loaded, checked three ways: `RLVR_CACHE_DIR` is an empty temp folder, so
  loading the default model would first convert its GGUF into it (slow, and the folder
  would not stay empty); no model-loading log line on stdout/stderr; and a
  `sitecustomize` hook (on `PYTHONPATH`) records which heavy modules the process
  imported: a model needs `transformers`, so `transformers` must not be imported (the
  `heavy` column lists torch/transformers/trl/peft/datasets when imported; importing
  torch alone is allowed but costs seconds).

Controls: the shipped configs and a valid `rlvr eval` must pass every check and reach the
model import, where the hook stops them (exit 97), so the checks refuse nothing valid.

`HF_HUB_OFFLINE=1` keeps any hub lookup local. Prints the machine's fp32 matmul throughput
first (context for the times) and the slowest case last; exits 1 if any case fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from machine import matmul_gflops

ROOT = Path(__file__).resolve().parents[1]
RLVR = ROOT / ".venv" / "bin" / "rlvr"
DATA = ROOT.parent / "shared" / "data"
LIMIT_S = 5.0
HEAVY = ("torch", "transformers", "trl", "peft", "datasets")
BLOCKED = ("transformers", "trl", "peft")
BLOCKED_EXIT = 97  # the hook's exit code: the process got past every check to a model import
MODEL_LOG = re.compile(r"converting .* \(once\)|Loading checkpoint|loading weights|"
                       r"from_pretrained|Generating|safetensors", re.I)
WARNING_LINE = re.compile(r"(Warning|warnings\.warn)\b")
SITECUSTOMIZE = """\
import atexit, importlib.machinery, os, sys

HEAVY, BLOCKED = %r, %r
REPORT = os.environ["RLVR_BENCH_IMPORTS"]


def _block(name):
    with open(REPORT, "w") as f:
        f.write(",".join([m for m in HEAVY if m in sys.modules] + [name]))
    sys.stderr.write("BENCH: blocked import of %%s (a model load)\\n" %% name)
    sys.stderr.flush()
    os._exit(97)


class _Loader:
    def __init__(self, name):
        self.name = name

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        _block(self.name)


class _Block:
    # importing (not merely finding: find_spec probes still work) a model library ends
    # the process at once with exit 97: no case can load a model or start training,
    # however it gets past validation
    def find_spec(self, name, path=None, target=None):
        if name not in BLOCKED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is not None:
            spec.loader = _Loader(name)
        return spec


def _report():
    with open(REPORT, "w") as f:
        f.write(",".join(m for m in HEAVY if m in sys.modules))


sys.meta_path.insert(0, _Block())
atexit.register(_report)
""" % (HEAVY, BLOCKED)


@dataclass
class Case:
    """One CLI invocation and what it must print.

    Attributes:
        name: short label for the table.
        argv: arguments after `rlvr` ({tmp} is replaced by the temp folder).
        expect: regex the error line must match (refused cases), or the stdout for
            accepted ones.
        code: expected exit code (2 = refused usage error).
        forbid: regex the error line must NOT match (e.g. an accepted setting must not be
            what is complained about).
        listed: True for the listed cases (the bad inputs the one validation pass before
            any model was specified with), False for new-user cases, None for
            valid inputs (controls: code BLOCKED_EXIT, no error line).
    """

    name: str
    argv: list[str]
    expect: str
    code: int = 2
    forbid: str | None = None
    listed: bool | None = True


def make_files(tmp: Path) -> None:
    """Write the input files the cases read into `tmp`."""
    def jsonl(name: str, rows: list) -> None:
        (tmp / name).write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")

    ok = {"completion": "Paris", "expected_answer": "Paris", "is_unanswerable": False}
    jsonl("null_completion.jsonl", [ok, {**ok, "completion": None}])
    jsonl("numeric_completion.jsonl", [{**ok, "completion": 5}])
    jsonl("numeric_expected.jsonl", [{**ok, "completion": "42", "expected_answer": 42}])
    jsonl("maybe.jsonl", [{**ok, "is_unanswerable": "maybe"}])
    jsonl("ok.jsonl", [ok])
    (tmp / "latin1.jsonl").write_bytes(b'{"completion": "caf\xe9", "expected_answer": "x", '
                                       b'"is_unanswerable": false}\n')
    (tmp / "empty_dir").mkdir()
    (tmp / "a_file").write_text("x\n")
    (tmp / "empty.jsonl").write_text("")
    (tmp / "blank.jsonl").write_text("\n\n  \n")
    (tmp / "empty.yaml").write_text("")
    (tmp / "list.yaml").write_text("- beta: 0.1\n- lora_r: 8\n")
    (tmp / "scalar.yaml").write_text("selfaware\n")
    (tmp / "eval_tasks_str.yaml").write_text("eval_tasks: gsm8k\ndata: /nonexistent.jsonl\n")
    (tmp / "unicode_key.yaml").write_text("bêta: 0.1\n", encoding="utf-8")
    (tmp / "latin1.yaml").write_bytes(b"run_name: caf\xe9\n")
    (tmp / "dup_key.yaml").write_text("beta: 0.1\nbeta: 0.2\n")
    (tmp / "bad_yaml.yaml").write_text("beta: 0.1\nreward_params: {wrong: -1\n")
    (tmp / "dup_tasks.yaml").write_text("eval_tasks: [gsm8k, triviaqa, gsm8k]\n")
    msg = lambda q, a, unans: {"messages": [  # noqa: E731
        {"role": "user", "content": q}, {"role": "assistant", "content": a}],
        "is_unanswerable": unans}
    jsonl("maybe_data.jsonl", [msg("What is the capital of France?", "Paris", False),
                               msg("Who will win in 2090?", "I don't know.", "maybe")])
    jsonl("one_row.jsonl", [msg("What is the capital of France?", "Paris", False)])
    jsonl("not_messages.jsonl", [[1, 2], [3]])
    (tmp / "not_a_model").mkdir()


def cases(tmp: str) -> list[Case]:
    """The listed cases (the specified bad inputs) and the new-user cases (found by trying)."""
    t, bad_out = tmp, f"{tmp}/a_file/run"
    nodata = ["--data", "/nonexistent.jsonl"]  # a later failure, so an accepted setting
    score = ["score", "--reward", "selfaware"]  # shows it passed validation
    listed = [
        Case("unknown reward", ["train", "--set", "reward=selfawre"],
             r"unknown reward 'selfawre'.*did you mean 'selfaware'|unknown reward 'selfawre'"),
        Case("unknown preset", ["train", "--set", "reward_preset=strcit"],
             r"no preset 'strcit'"),
        Case("unknown eval_tasks entry", ["train", "--set", "eval_tasks=[gsm8k,trivia]"],
             r"eval_tasks: unknown task 'trivia'"),
        Case("num_generations !| batch", ["train", "--set", "num_generations=3"],
             r"must be divisible by num_generations \(3\).*set per_device_train_batch_size"),
        Case("lora_r: 0", ["train", "--set", "lora_r=0"], r"lora_r must be > 0"),
        Case("temperature < 0", ["train", "--set", "temperature=-1"], r"temperature must be > 0"),
        Case("beta < 0", ["train", "--set", "beta=-0.1"], r"beta must be >= 0"),
        Case("bad scale_rewards", ["train", "--set", "scale_rewards=grup"],
             r"scale_rewards must be group, batch or none"),
        Case("reward_params a string", ["train", "--set", "reward_params=wrong=-2"],
             r"reward_params must be a mapping such as \{wrong: -1\.0\}"),
        Case("reward_params out of range", ["train", "--set", "reward_params={wrong: -2}"],
             r"'wrong' = -2 is outside"),
        Case("score --param out of range", [*score, "--input", f"{t}/ok.jsonl",
                                            "--param", "wrong=-2"], r"'wrong' = -2 is outside"),
        Case("eval --adapter empty dir", ["eval", "--tasks", "gsm8k", "--adapter",
                                          f"{t}/empty_dir"], r"no adapter_config\.json"),
        Case("eval --adapter missing", ["eval", "--tasks", "gsm8k", "--adapter",
                                        f"{t}/missing"], r"--adapter .*missing"),
        Case("score null completion", [*score, "--input", f"{t}/null_completion.jsonl"],
             r"null_completion\.jsonl:2: .*completion"),
        Case("score numeric completion", [*score, "--input", f"{t}/numeric_completion.jsonl"],
             r"numeric_completion\.jsonl:1: .*completion"),
        Case("score numeric expected_answer (accepted)",
             [*score, "--input", f"{t}/numeric_expected.jsonl"], r"correct\s+1", code=0),
        Case("score unknown --param", [*score, "--input", f"{t}/ok.jsonl", "--param",
                                       "wrongg=1"], r"no parameter 'wrongg'"),
        Case("score ill-typed --param", [*score, "--input", f"{t}/ok.jsonl", "--param",
                                         "mode=3"], r"parameter 'mode' must be str"),
        Case("score non-UTF-8 file", [*score, "--input", f"{t}/latin1.jsonl"],
             r"latin1\.jsonl:1: not UTF-8"),
        Case("score --output is a folder", [*score, "--input", f"{t}/ok.jsonl", "--output", t],
             r"--output .* is a folder"),
        Case("eval --num-samples 0", ["eval", "--tasks", "gsm8k", "--num-samples", "0"],
             r"--num-samples must be >= 1"),
        Case("eval: every task skipped", ["eval", "--tasks", "exploretom", "--data-dir",
                                          f"{t}/empty_dir", "--output-dir", f"{t}/ev"],
             r"every task was skipped.*exploretom"),
        Case("eval_tasks: gsm8k string (accepted)", ["train", "--set", "eval_tasks=gsm8k",
                                                     "--set", f"eval_data_dir={DATA}", *nodata],
             r"data path does not exist", forbid=r"eval_tasks"),
        Case("eval_tasks: gsm8k in YAML (accepted)",
             ["train", "--config", f"{t}/eval_tasks_str.yaml"], r"data path does not exist",
             forbid=r"eval_tasks"),
        Case("score is_unanswerable maybe", [*score, "--input", f"{t}/maybe.jsonl"],
             r"maybe\.jsonl:1: 'is_unanswerable' must be true or false"),
        Case("data is_unanswerable maybe", ["train", "--data", f"{t}/maybe_data.jsonl"],
             r"maybe_data\.jsonl:2: .*is_unanswerable"),
        Case("reward_funcs mapping (accepted)", ["train", "--set",
                                                 "reward_funcs={name: selfaware}", *nodata],
             r"data path does not exist", forbid=r"reward_funcs"),
        Case("report_to=tensorbord", ["train", "--set", "report_to=tensorbord"],
             r"unknown tracker 'tensorbord'.*did you mean 'tensorboard'"),
        Case("unwritable --output-dir", ["train", "--output-dir", bad_out],
             r"output_dir .* is not writable"),
    ]
    extra = [
        Case("empty config file", ["train", "--config", f"{t}/empty.yaml", *nodata],
             r"empty\.yaml: the config file is empty"),
        Case("config is a YAML list", ["train", "--config", f"{t}/list.yaml"],
             r"list\.yaml: expected a mapping"),
        Case("config is a YAML scalar", ["train", "--config", f"{t}/scalar.yaml"],
             r"scalar\.yaml: expected a mapping"),
        Case("config missing", ["train", "--config", f"{t}/nope.yaml"],
             r"config file .*nope\.yaml not found"),
        Case("config is a folder", ["train", "--config", f"{t}/empty_dir"],
             r"empty_dir.*folder"),
        Case("config not UTF-8", ["train", "--config", f"{t}/latin1.yaml"],
             r"latin1\.yaml.*UTF-8"),
        Case("config duplicate key", ["train", "--config", f"{t}/dup_key.yaml"],
             r"dup_key\.yaml:2: key 'beta' is given twice"),
        Case("--set max_steps=abc", ["train", "--set", "max_steps=abc"],
             r"max_steps must be an integer such as -1, got 'abc'"),
        Case("--set lora_target_modules=5", ["train", "--set", "lora_target_modules=5"],
             r"lora_target_modules must be text or a list such as \[q_proj, v_proj\]"),
        Case("--set learning_rate=[1]", ["train", "--set", "learning_rate=[1]"],
             r"learning_rate must be a number such as 5e-05, got \[1\]"),
        Case("--set beta=true", ["train", "--set", "beta=true"], r"beta must be a number such as 0\.1, got True"),
        Case("--set lora_r=2.5", ["train", "--set", "lora_r=2.5"], r"lora_r must be an integer such as 8, got 2\.5"),
        Case("--set seed=nan", ["train", "--set", "seed=.nan"], r"seed must be an integer such as 42, got nan"),
        Case("--set temperature=.inf", ["train", "--set", "temperature=.inf"],
             r"temperature must be a finite number such as 0\.7, got inf"),
        Case("--set no '='", ["train", "--set", "beta"], r"--set expects key=value"),
        Case("Unicode key (--set)", ["train", "--set", "bêta=0.1"],
             r"unknown key 'bêta'.*did you mean 'beta'"),
        Case("Unicode key (YAML)", ["train", "--config", f"{t}/unicode_key.yaml"],
             r"unknown key 'bêta'.*did you mean 'beta'"),
        Case("Unicode value (reward)", ["train", "--set", "reward=sélfaware"],
             r"unknown reward 'sélfaware'"),
        Case("Unicode value (run_name) (accepted)", ["train", "--set", "run_name=прогон-✓",
                                                     *nodata], r"data path does not exist"),
        Case("max_completion_length=10**12", ["train", "--set",
                                              "max_completion_length=1000000000000"],
             r"max_completion_length"),
        Case("num_generations=100000", ["train", "--set", "num_generations=100000"],
             r"num_generations"),
        Case("per_device_train_batch_size=10**9", ["train", "--set",
                                                   "per_device_train_batch_size=1000000000"],
             r"per_device_train_batch_size"),
        Case("learning_rate=1e9", ["train", "--set", "learning_rate=1e9"], r"learning_rate"),
        Case("--data missing", ["train", "--data", f"{t}/nope.jsonl"],
             r"nope\.jsonl: data path does not exist"),
        Case("--data empty file", ["train", "--data", f"{t}/empty.jsonl"],
             r"empty\.jsonl: .*(empty|no rows|at least 2 rows)"),
        Case("--data blank lines only", ["train", "--data", f"{t}/blank.jsonl"],
             r"blank\.jsonl: .*(empty|no rows|at least 2 rows)"),
        Case("--data one row", ["train", "--data", f"{t}/one_row.jsonl"],
             r"one_row\.jsonl: need at least 2 rows"),
        Case("--data rows not objects", ["train", "--data", f"{t}/not_messages.jsonl"],
             r"not_messages\.jsonl:1: "),
        Case("--data dir without splits", ["train", "--data", f"{t}/empty_dir"],
             r"empty_dir: folder has no train\.jsonl"),
        Case("--model missing path", ["train", "--model", f"{t}/nope_model"],
             r"model path .*nope_model.* does not exist"),
        Case("--model folder not a model", ["train", "--model", f"{t}/not_a_model"],
             r"not_a_model.* no config\.json"),
        Case("eval --model missing path", ["eval", "--tasks", "gsm8k", "--model",
                                           f"{t}/nope_model"],
             r"model path .*nope_model.* does not exist"),
        Case("eval --tasks ''", ["eval", "--tasks", ""], r"--tasks"),
        Case("eval --tasks ','", ["eval", "--tasks", ","], r"--tasks"),
        Case("eval --limit -1", ["eval", "--tasks", "gsm8k", "--limit", "-1"],
             r"--limit must be >= 1"),
        Case("eval --data-dir missing", ["eval", "--tasks", "gsm8k", "--data-dir",
                                         f"{t}/nope_dir"], r"--data-dir .*nope_dir"),
        Case("eval --data-dir is a file", ["eval", "--tasks", "gsm8k", "--data-dir",
                                           f"{t}/a_file"], r"--data-dir .*a_file"),
        Case("eval duplicate tasks", ["eval", "--tasks", "gsm8k,gsm8k"],
             r"gsm8k.*(twice|more than once|duplicate)"),
        Case("eval --batch-size 0", ["eval", "--tasks", "gsm8k", "--batch-size", "0"],
             r"--batch-size must be >= 1"),
        Case("eval --max-new-tokens 0", ["eval", "--tasks", "gsm8k", "--max-new-tokens", "0"],
             r"--max-new-tokens must be >= 1"),
        Case("eval --task-path missing file", ["eval", "--tasks", "gsm8k", "--task-path",
                                               f"gsm8k={t}/nope.jsonl"],
             r"--task-path gsm8k=.*nope\.jsonl: file not found"),
        Case("eval --task-path unknown task", ["eval", "--tasks", "gsm8k", "--task-path",
                                               f"gsm8kk={t}/ok.jsonl"],
             r"--task-path .*gsm8kk"),
        Case("eval unwritable --output-dir", ["eval", "--tasks", "gsm8k", "--output-dir",
                                              bad_out], r"output_dir .*a_file/run.* is not writable .*--output-dir"),
        Case("eval --rescore missing", ["eval", "--rescore", f"{t}/empty_dir"],
             r"results\.json not found"),
        Case("config invalid YAML", ["train", "--config", f"{t}/bad_yaml.yaml"],
             r"bad_yaml\.yaml:\d+: invalid YAML"),
        Case("--set seed=10**12", ["train", "--set", "seed=1000000000000"], r"seed must be in"),
        Case("--set seed=-1", ["train", "--set", "seed=-1"], r"seed must be in"),
        Case("--set eval_limit=-1", ["train", "--set", "eval_limit=-1"],
             r"eval_limit must be >= 1"),
        Case("--set lora_target_modules=[]", ["train", "--set", "lora_target_modules=[]"],
             r"lora_target_modules must be"),
        Case("--set run_name=2024-01-01 (a date)", ["train", "--set", "run_name=2024-01-01"],
             r"run_name must be text or null \(quote a value"),
        Case("--output-dir ''", ["train", "--output-dir", ""], r"output_dir is empty"),
        Case("--data ''", ["train", "--data", ""], r"data is empty"),
        Case("--max-steps 1.5 (argparse)", ["train", "--max-steps", "1.5"],
             r"argument --max-steps: invalid int value"),
        Case("unknown command", ["trian"], r"invalid choice: 'trian'"),
        Case("preflight refuses reward_preset: seed", ["train", "--set", "reward_preset=seed"],
             r"preflight refused the run: .*always_hedge"),
        Case("eval_tasks twice (YAML)", ["train", "--config", f"{t}/dup_tasks.yaml"],
             r"eval_tasks names 'gsm8k' more than once"),
        Case("eval_data_dir missing", ["train", "--set", "eval_tasks=[gsm8k]", "--set",
                                       f"eval_data_dir={t}/nope_dir"],
             r"eval_data_dir .*nope_dir is not a folder"),
        Case("eval_tasks: exploretom (no file)", ["train", "--set", "eval_tasks=exploretom"],
             r"exploretom has no bundled data file"),
        Case("eval --temperature nan", ["eval", "--tasks", "gsm8k", "--temperature", "nan"],
             r"--temperature must be >= 0 and finite"),
        Case("eval --num-samples 100000", ["eval", "--tasks", "gsm8k", "--num-samples",
                                           "100000"], r"--num-samples 100000 is above"),
        Case("eval --output-dir ''", ["eval", "--tasks", "gsm8k", "--output-dir", ""],
             r"--output-dir is empty"),
    ]
    for case in extra:
        case.listed = False
    cfgs = ROOT / "configs"
    controls = [  # valid inputs: every check passes and the run reaches the model import
        Case(f"valid: {name}", ["train", "--config", str(cfgs / name), "--output-dir",
                                f"{t}/run_{i}", *extra_args], "", code=BLOCKED_EXIT)
        for i, (name, extra_args) in enumerate([
            ("selfaware_grpo_cpu.yaml", []),
            ("selfaware_mix_cpu.yaml", ["--data", str(DATA / "selfaware" / "SelfAware.json")]),
            ("selfaware_grpo.yaml", ["--data", str(DATA / "selfaware" / "SelfAware.json")])])]
    controls.append(Case("valid: eval_tasks=[gsm8k], no data folder", [
        "train", "--set", "eval_tasks=[gsm8k]", "--output-dir", f"{t}/run_et"], "",
        code=BLOCKED_EXIT))  # found later (packaged subset) or skipped with the reason
    controls.append(Case("valid: eval gsm8k,triviaqa", [
        "eval", "--tasks", "gsm8k,triviaqa", "--limit", "2", "--data-dir", str(DATA),
        "--output-dir", f"{t}/ev_ok"], "", code=BLOCKED_EXIT))
    for case in controls:
        case.listed = None
    return listed + extra + controls


def run_case(case: Case, tmp: Path, hook_dir: Path) -> dict:
    """Run one case in a fresh, empty model cache; return what the table shows."""
    cache = Path(tempfile.mkdtemp(prefix="cache.", dir=tmp))
    imports = tmp / "imports.txt"
    imports.unlink(missing_ok=True)
    env = {**os.environ, "RLVR_CACHE_DIR": str(cache), "HF_HUB_OFFLINE": "1",
           "RLVR_BENCH_IMPORTS": str(imports),
           "PYTHONPATH": os.pathsep.join([str(hook_dir), os.environ.get("PYTHONPATH", "")])}
    env.pop("RLVR_DATA_DIR", None)
    argv = [a.replace("{tmp}", str(tmp)) for a in case.argv]
    start = time.perf_counter()
    proc = subprocess.run([str(RLVR), *argv], capture_output=True, text=True, env=env,
                          cwd=tmp, timeout=120)
    seconds = time.perf_counter() - start
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    warnings = [x for x in lines if WARNING_LINE.search(x)]
    others = [x for x in lines if x not in warnings]
    errors = [x for x in others if re.match(r"rlvr( \w+)*: error: ", x)]
    heavy = imports.read_text().split(",") if imports.is_file() and imports.read_text() else []
    model_loaded = (any(cache.iterdir()) or "transformers" in heavy
                    or bool(MODEL_LOG.search(proc.stdout + proc.stderr)))
    why, seconds_limit = [], LIMIT_S
    if proc.returncode != case.code:
        why.append(f"exit {proc.returncode} != {case.code}")
    if case.code == BLOCKED_EXIT:  # a valid input: no error, stopped only by the hook
        if errors:
            why.append("refused a valid input")
        model_loaded = False  # the hook stopped the import on purpose; no time limit
        seconds_limit = float("inf")
    elif case.code == 0:
        if others:
            why.append("stderr not empty")
        if not re.search(case.expect, proc.stdout):
            why.append("stdout does not match")
    else:
        if len(errors) != 1 or len(others) != 1:
            why.append(f"{len(others)} stderr lines")
        if errors and not re.search(case.expect, errors[0]):
            why.append("message does not match")
        if errors and case.forbid and re.search(case.forbid, errors[0]):
            why.append("complains about an accepted setting")
    if "Traceback" in proc.stderr:
        why.append("traceback")
    if seconds >= (seconds_limit if case.code == BLOCKED_EXIT else LIMIT_S):
        why.append(f">= {LIMIT_S:g} s")
    if model_loaded:
        why.append("model loaded")
    shown = errors[0] if errors else (others[0] if others else proc.stdout.strip().split("\n")[-1])
    return {"case": case.name, "code": proc.returncode, "seconds": seconds,
            "line": shown.replace(str(tmp), "$T"), "warnings": len(warnings),
            "heavy": "+".join(heavy) or "-", "ok": not why, "why": "; ".join(why),
            "stderr": proc.stderr}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--listed", action="store_true", help="only the listed cases")
    parser.add_argument("-k", default="", help="only cases whose name contains this")
    parser.add_argument("--width", type=int, default=110, help="error-line column width")
    parser.add_argument("--verbose", action="store_true", help="print stderr of failures")
    args = parser.parse_args()

    print(f"machine: {os.cpu_count()} CPUs; fp32 1024x1024 matmul: "
          f"{matmul_gflops():.1f} GFLOP/s (torch default threads)")
    with tempfile.TemporaryDirectory(prefix="rlvr-bad-inputs.") as name:
        tmp = Path(name)
        make_files(tmp)
        hook_dir = tmp / "hook"
        hook_dir.mkdir()
        (hook_dir / "sitecustomize.py").write_text(SITECUSTOMIZE)
        chosen = [c for c in cases(str(tmp)) if (c.listed is True or not args.listed)
                  and args.k.lower() in c.name.lower()]
        rows = []
        header = f"{'case':42} {'exit':>4} {'sec':>5} {'warn':>4} {'heavy':10} result  error line"
        titles = {True: "listed (specified bad inputs)", False: "found by trying (new user)",
                  None: f"valid inputs (control): pass every check, reach the model import "
                        f"(the hook stops it: exit {BLOCKED_EXIT}; no time limit)"}
        for listed, title in titles.items():
            group = [c for c in chosen if c.listed is listed]
            if not group:
                continue
            print(f"\n{title}:")
            print(header)
            for case in group:
                r = run_case(case, tmp, hook_dir)
                rows.append(r)
                line = r["line"] if len(r["line"]) <= args.width else r["line"][:args.width - 3] + "..."
                print(f"{r['case'][:42]:42} {r['code']:>4} {r['seconds']:5.2f} {r['warnings']:>4} "
                      f"{r['heavy'][:10]:10} {'PASS' if r['ok'] else 'FAIL'}    {line}")
                if not r["ok"]:
                    print(f"{'':42}   -> {r['why']}")
                    if args.verbose:
                        print("\n".join("      | " + x for x in r["stderr"].splitlines()[-15:]))
    timed = [r for r in rows if r["code"] != BLOCKED_EXIT] or rows
    slowest = max(timed, key=lambda r: r["seconds"])
    failed = [r for r in rows if not r["ok"]]
    print(f"\n{len(rows) - len(failed)}/{len(rows)} PASS; max time of a refused input "
          f"{slowest['seconds']:.2f} s ({slowest['case']}); limit {LIMIT_S:g} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
