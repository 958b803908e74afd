"""Where eval task data comes from: local files, the Hugging Face Hub (simulated: the hub is
not reachable here), the packaged subsets, and the script that builds them (no model)."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import time
import types
import urllib.error
from pathlib import Path

import pytest

import rlvr.io as rlvr_io
import rlvr.tasks.hub as hub
import rlvr.tasks.sources as sources
from rlvr.errors import DataError, RlvrError
from rlvr.data import loaders
from rlvr.eval.runner import fewshot_exemplars, load_task_rows, user_data_dir
from rlvr.tasks.sources import SUBSETS_DIR, DataResolver, load_packaged, packaged_manifest
from rlvr.tasks.registry import get_task

from conftest import ROOT, SHARED_DATA

HUB_TASKS = ("gsm8k", "humaneval", "mbpp", "triviaqa")


@pytest.fixture(autouse=True)
def _no_network(monkeypatch, tmp_path):
    """No test here may reach the network: an empty Hugging Face cache, no offline flags
    (tests set them), and a reachability check that fails the test if it is called."""
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "HF_HUB_CACHE", "HF_DATASETS_CACHE",
                 "HUGGINGFACE_HUB_CACHE", "RLVR_DATA_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))  # no user data_dir

    def unexpected(timeout_s):
        raise AssertionError("the hub reachability check ran; this test must not need it")

    monkeypatch.setattr(sources, "endpoint_unreachable", unexpected)


def unreachable(monkeypatch, calls=None):
    """Simulate a machine without network: the check answers 'not reachable' at once."""
    def probe(timeout_s):
        if calls is not None:
            calls.append(timeout_s)
        return "https://huggingface.co not reachable (simulated)"
    monkeypatch.setattr(sources, "endpoint_unreachable", probe)


# --- the packaged subsets ---------------------------------------------------------------------

EXPECTED = {  # task: (rows, of, fields)
    "gsm8k": (500, 1319, {"id", "question", "solution", "final_answer"}),
    "humaneval": (164, 164, {"id", "prompt", "test", "entry_point", "canonical_solution"}),
    "mbpp": (300, 500, {"id", "text", "test_list", "test_setup_code", "code"}),
    "triviaqa": (500, 3000, {"id", "question", "answer", "aliases"}),
}


@pytest.mark.parametrize("name", HUB_TASKS)
def test_packaged_subset_loads_with_counts_fields_and_license(name):
    rows_expected, of, fields = EXPECTED[name]
    data = load_packaged(get_task(name))
    assert data.kind == "packaged" and len(data.rows) == rows_expected
    assert data.source == (f"packaged subset ({rows_expected:,} of {of:,} rows of "
                           f"{packaged_manifest()[name]['eval']['split']})")
    assert all(set(r) == fields for r in data.rows)
    assert len({str(r["id"]) for r in data.rows}) == rows_expected  # ids unique
    folder = SUBSETS_DIR / name
    assert (folder / "LICENSE").is_file() and (folder / "SOURCE.md").is_file()
    assert packaged_manifest()[name]["license"] in (folder / "SOURCE.md").read_text()


def test_packaged_rows_equal_the_full_files_rows():
    """A packaged row is the full file's row with the same id, unchanged."""
    full = {"gsm8k": loaders.load_gsm8k(SHARED_DATA / "gsm8k" / "test.jsonl"),
            "humaneval": loaders.load_humaneval(SHARED_DATA / "humaneval" / "HumanEval.jsonl.gz"),
            "mbpp": loaders.load_mbpp(SHARED_DATA / "mbpp" / "mbpp.jsonl"),
            "triviaqa": loaders.load_triviaqa(SHARED_DATA / "triviaqa" / "triviaqa_sm_sub.jsonl")}
    for name, rows in full.items():
        by_id = {r["id"]: r for r in rows}
        for row in load_packaged(get_task(name)).rows:
            assert row == by_id[row["id"]], (name, row["id"])
    assert all(11 <= r["id"] <= 510 for r in load_packaged(get_task("mbpp")).rows)
    shots = load_packaged(get_task("gsm8k"), "fewshot").rows
    assert len(shots) == 100 and all(s["id"].startswith("train-") for s in shots)


def test_selfaware_is_not_packaged():
    assert not (SUBSETS_DIR / "selfaware").exists()
    assert set(packaged_manifest()) == set(HUB_TASKS)
    rows, skipped, _ = load_task_rows(["selfaware"], None, {}, limit=None)
    assert "CC-BY-SA and not packaged" in skipped["selfaware"] and "--data-dir" in skipped["selfaware"]


# --- offline: fail fast, fall back to the packaged subset -------------------------------------

def test_offline_flag_falls_back_at_once_without_probing(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # the autouse fixture fails if the probe runs
    start = time.perf_counter()
    rows, skipped, srcs = load_task_rows(list(HUB_TASKS), None, {}, limit=2)
    assert time.perf_counter() - start < 2.0 and not skipped
    for name in HUB_TASKS:
        assert len(rows[name]) == 2 and srcs[name]["data_kind"] == "packaged"
        assert "HF_HUB_OFFLINE=1" in srcs[name]["data_note"]
        assert "not in the Hugging Face cache" in srcs[name]["data_note"]
    # HF_DATASETS_OFFLINE, when set, decides (as in `datasets`): 0 means online
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "0")
    assert hub.offline_mode() is None
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "true")
    assert hub.offline_mode() == "HF_DATASETS_OFFLINE=true"


def test_unreachable_hub_falls_back_and_is_probed_once(monkeypatch):
    calls = []
    unreachable(monkeypatch, calls)
    resolver = DataResolver()
    rows, skipped, srcs = load_task_rows(list(HUB_TASKS), None, {}, limit=None, resolver=resolver)
    shots = fewshot_exemplars(get_task("gsm8k"), 8, None, seed=0, resolver=resolver)
    assert calls == [3.0]  # one check for the whole run, with the 3 s deadline
    assert len(shots) == 8 and all(s["id"].startswith("train-") for s in shots)
    for name in HUB_TASKS:
        assert srcs[name]["data_kind"] == "packaged"
        assert "not reachable (simulated)" in srcs[name]["data_note"]
    assert len(rows["gsm8k"]) == 500


def test_hub_only_mode_fails_fast_with_the_fix(monkeypatch):
    unreachable(monkeypatch)
    rows, skipped, _ = load_task_rows(["gsm8k"], None, {}, limit=None, data_source="hub")
    assert not rows and "not reachable" in skipped["gsm8k"]
    assert "--data-source auto" in skipped["gsm8k"] and "\n" not in skipped["gsm8k"]
    rows, _, srcs = load_task_rows(["mbpp"], None, {}, limit=None, data_source="packaged")
    assert srcs["mbpp"]["data_kind"] == "packaged" and srcs["mbpp"]["data_note"] is None
    with pytest.raises(RlvrError, match="data source must be one of"):
        DataResolver("web")


def test_reachability_check_never_waits_past_its_deadline(monkeypatch):
    def hang(request, timeout):
        time.sleep(5)

    monkeypatch.setattr(rlvr_io.urllib.request, "urlopen", hang)
    start = time.perf_counter()
    reason = rlvr_io.endpoint_unreachable(timeout_s=0.3)
    assert time.perf_counter() - start < 1.5
    assert reason == "https://huggingface.co did not answer within 0.3 s"

    def refuse(request, timeout):
        raise urllib.error.URLError("Name or service not known")

    monkeypatch.setattr(rlvr_io.urllib.request, "urlopen", refuse)
    monkeypatch.setenv("HF_ENDPOINT", "https://mirror.example/")
    assert rlvr_io.endpoint_unreachable(0.5) == ("https://mirror.example not reachable "
                                             "(Name or service not known)")

    def forbidden(request, timeout):  # any HTTP answer means the hub is there
        raise urllib.error.HTTPError(request.full_url, 403, "Forbidden", {}, None)

    monkeypatch.setattr(rlvr_io.urllib.request, "urlopen", forbidden)
    assert rlvr_io.endpoint_unreachable(0.5) is None

    def intercepted(request, timeout):  # a proxy or captive portal that is not the hub
        raise urllib.error.HTTPError(request.full_url, 404, "Not Found", {}, None)

    monkeypatch.setattr(rlvr_io.urllib.request, "urlopen", intercepted)
    assert rlvr_io.endpoint_unreachable(0.5) == "https://mirror.example not reachable (HTTP 404)"


# --- the hub path, with a stand-in `datasets` -------------------------------------------------

# rows shaped like the hub datasets' rows (fields and nesting as their dataset cards give them)
HUB_ROWS = {
    "gsm8k": [{"question": "Tom has 3 apples and buys 2. How many?",
               "answer": "3 + 2 = <<3+2=5>>5\n#### 5"}],
    "humaneval": [{"task_id": "HumanEval/0", "prompt": "def f(x):\n", "entry_point": "f",
                   "canonical_solution": "    return x\n", "test": "def check(c):\n    pass\n"}],
    "mbpp": [{"task_id": 11, "text": "Write a function to add.", "code": "def add(a, b): return a + b",
              "test_list": ["assert add(1, 2) == 3"], "test_setup_code": "",
              "challenge_test_list": []}],
    "triviaqa": [{"question": "Which planet is the Red Planet? ", "question_id": "tc_1",
                  "question_source": "http://www.example.com/", "entity_pages": {}, "search_results": {},
                  "answer": {"value": "Mars", "aliases": ["Mars", "Planet Mars"],
                             "normalized_aliases": ["mars", "planet mars"], "normalized_value": "mars",
                             "matched_wiki_entity_name": "", "type": "WikipediaEntity",
                             "normalized_matched_wiki_entity_name": ""}}],
}


def test_hub_rows_map_to_the_local_loaders_rows(tmp_path):
    task = get_task("gsm8k")
    row = task.hub.to_row(HUB_ROWS["gsm8k"][0], 0, "test")
    path = tmp_path / "test.jsonl"
    path.write_text(json.dumps(HUB_ROWS["gsm8k"][0]) + "\n")
    assert row == loaders.load_gsm8k(path)[0] == {
        "id": "test-1", "question": "Tom has 3 apples and buys 2. How many?",
        "solution": "3 + 2 = <<3+2=5>>5\n#### 5", "final_answer": "5"}
    assert get_task("humaneval").hub.to_row(HUB_ROWS["humaneval"][0], 0, "test") == {
        "id": "HumanEval/0", "prompt": "def f(x):\n", "test": "def check(c):\n    pass\n",
        "entry_point": "f", "canonical_solution": "    return x\n"}
    path = tmp_path / "mbpp.jsonl"
    path.write_text(json.dumps(HUB_ROWS["mbpp"][0]) + "\n")
    assert get_task("mbpp").hub.to_row(HUB_ROWS["mbpp"][0], 0, "test") == loaders.load_mbpp(path)[0]
    assert get_task("triviaqa").hub.to_row(HUB_ROWS["triviaqa"][0], 0, "validation") == {
        "id": "tc_1", "question": "Which planet is the Red Planet?", "answer": "Mars",
        "aliases": ["Mars", "Planet Mars"]}
    specs = {n: (get_task(n).hub.path, get_task(n).hub.name, get_task(n).hub.split) for n in HUB_TASKS}
    assert specs == {"gsm8k": ("openai/gsm8k", "main", "test"),
                     "humaneval": ("openai/openai_humaneval", None, "test"),
                     "mbpp": ("google-research-datasets/mbpp", "full", "test"),
                     "triviaqa": ("mandarjoshi/trivia_qa", "rc.nocontext", "validation")}


def fake_datasets(monkeypatch, fail: Exception | None = None):
    """Install a stand-in `datasets` module whose load_dataset returns HUB_ROWS."""
    calls = []

    def load_dataset(path, name=None, split=None):
        calls.append((path, name, split))
        if fail is not None:
            raise fail
        task = next(n for n in HUB_TASKS if get_task(n).hub.path == path)
        return list(HUB_ROWS[task])

    monkeypatch.setitem(sys.modules, "datasets", types.SimpleNamespace(load_dataset=load_dataset))
    return calls


def test_reachable_hub_is_used_and_stated(monkeypatch):
    monkeypatch.setattr(sources, "endpoint_unreachable", lambda timeout_s: None)
    calls = fake_datasets(monkeypatch)
    rows, skipped, srcs = load_task_rows(list(HUB_TASKS), None, {}, limit=None)
    assert not skipped and ("openai/gsm8k", "main", "test") in calls
    assert srcs["gsm8k"]["data_source"] == "hub openai/gsm8k, config main, split test"
    assert srcs["humaneval"]["data_source"] == "hub openai/openai_humaneval, split test"
    assert srcs["triviaqa"]["data_kind"] == "hub" and rows["triviaqa"][0]["id"] == "tc_1"
    shots = DataResolver().fewshot(get_task("gsm8k"))
    assert shots.source == "hub openai/gsm8k, config main, split train"


def test_hub_failure_falls_back_with_its_reason(monkeypatch):
    monkeypatch.setattr(sources, "endpoint_unreachable", lambda timeout_s: None)
    fake_datasets(monkeypatch, fail=ConnectionError("Couldn't reach 'openai/gsm8k' on the Hub\nmore"))
    _, _, srcs = load_task_rows(["gsm8k"], None, {}, limit=None)
    assert srcs["gsm8k"]["data_kind"] == "packaged"
    assert srcs["gsm8k"]["data_note"] == ("hub openai/gsm8k, config main, split test: "
                                          "Couldn't reach 'openai/gsm8k' on the Hub")


def test_offline_with_a_cached_copy_tries_the_hub(monkeypatch, tmp_path):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    (tmp_path / "hf" / "datasets" / "openai___gsm8k").mkdir(parents=True)
    calls = fake_datasets(monkeypatch)
    _, _, srcs = load_task_rows(["gsm8k"], None, {}, limit=None)
    assert calls == [("openai/gsm8k", "main", "test")] and srcs["gsm8k"]["data_kind"] == "hub"


def test_hub_row_of_another_shape_is_a_one_line_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "datasets", types.SimpleNamespace(
        load_dataset=lambda path, name=None, split=None: [{"problem": "x"}]))
    with pytest.raises(DataError, match=r"hub openai/gsm8k, config main, split test, row 0: "
                                        r"unexpected row \(KeyError"):
        hub.load_hub_rows(get_task("gsm8k").hub, "test")


# --- local files: --task-path, --data-dir, $RLVR_DATA_DIR -------------------------------------

def test_task_path_wins_in_every_mode():
    path = str(SHARED_DATA / "gsm8k" / "test.jsonl")
    for mode in ("auto", "local", "hub", "packaged"):
        rows, _, srcs = load_task_rows(["gsm8k"], None, {"gsm8k": path}, limit=None, data_source=mode)
        assert len(rows["gsm8k"]) == 1319 and srcs["gsm8k"] == {
            "data_source": path, "data_kind": "file", "data_note": None}


def test_data_dir_and_env_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("RLVR_DATA_DIR", str(SHARED_DATA))
    assert user_data_dir() == str(SHARED_DATA)
    rows, _, srcs = load_task_rows(list(HUB_TASKS), user_data_dir(), {}, limit=None)
    assert [len(rows[n]) for n in HUB_TASKS] == [1319, 164, 500, 3000]
    assert all(srcs[n]["data_kind"] == "file" for n in HUB_TASKS)
    shots = fewshot_exemplars(get_task("gsm8k"), 2, str(SHARED_DATA), seed=0)
    assert all(s["id"].startswith("train-") for s in shots)
    # a folder without the task's file: auto passes on to the hub, then the packaged subset
    unreachable(monkeypatch)
    _, _, srcs = load_task_rows(["gsm8k"], str(tmp_path), {}, limit=None)
    assert srcs["gsm8k"]["data_kind"] == "packaged"
    assert srcs["gsm8k"]["data_note"].startswith(f"{tmp_path / 'gsm8k' / 'test.jsonl'} not found")


def test_broken_user_file_is_an_error_not_replaced(tmp_path):
    (tmp_path / "gsm8k").mkdir()
    (tmp_path / "gsm8k" / "test.jsonl").write_text('{"question": "q"}\n')
    _, skipped, _ = load_task_rows(["gsm8k"], str(tmp_path), {}, limit=None)
    assert "test.jsonl:1: missing field(s) ['answer']" in skipped["gsm8k"]


@pytest.mark.parametrize("value, message", [
    ("nope=x.jsonl", r"--task-path nope=x.jsonl: unknown task 'nope'"),
    ("gsm8k=missing.jsonl", r"--task-path gsm8k=missing.jsonl: file not found"),
    ("gsm8k", r"--task-path expects TASK=FILE, got 'gsm8k'"),
    ("=x.jsonl", r"--task-path expects TASK=FILE"),
])
def test_bad_task_path_is_a_one_line_error(value, message, capsys, tmp_path, monkeypatch):
    from rlvr.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["eval", "--tasks", "gsm8k", "--task-path", value]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and re.search(message, err), err


def test_a_broken_task_path_file_fails_even_beside_good_tasks(capsys, tmp_path, monkeypatch):
    # found by a new-user trial: with a second task listed, the broken file used to be
    # skipped with a warning, the model loaded and the run exited 0
    import rlvr.models
    from rlvr.cli import main

    monkeypatch.chdir(tmp_path)
    unreachable(monkeypatch)
    loads = []
    monkeypatch.setattr(rlvr.models, "load_causal_lm", lambda spec, **kw: loads.append(spec))
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"question": "q", "answer": "a\\n#### 1"}\n{not json\n')
    assert main(["eval", "--tasks", "gsm8k,triviaqa", "--task-path", f"gsm8k={bad}",
                 "--limit", "2"]) == 2
    err = capsys.readouterr().err
    assert "bad.jsonl:2" in err and "--task-path" in err and not loads, err


def _offline_stub_model(monkeypatch, tmp_path, completion: str) -> None:
    """No network, the working folder `tmp_path`, and a stub model that answers every
    question with `completion` (scored by the task's own reward)."""
    import rlvr.eval.runner as runner
    import rlvr.models

    monkeypatch.chdir(tmp_path)
    unreachable(monkeypatch)
    monkeypatch.setattr(rlvr.models, "load_causal_lm", lambda spec, **kw: ("model", "tokenizer"))

    def answer(model, tokenizer, task, rows, exemplars, settings, label):
        prompts = [task.build_prompt(r, exemplars) for r in rows]
        return runner.score_records(task, rows, [{"completion": completion} for _ in rows],
                                    1, prompts)

    monkeypatch.setattr(runner, "generate_task_records", answer)


def test_eval_cli_on_a_fresh_machine_uses_the_packaged_subsets(monkeypatch, tmp_path, capsys):
    """`rlvr eval --tasks gsm8k,humaneval,mbpp,triviaqa` without any data folder or network:
    every task runs on its packaged subset and says so (the model is stubbed out)."""
    from rlvr.cli import main

    _offline_stub_model(monkeypatch, tmp_path, "I don't know.")
    out = tmp_path / "ev"
    assert main(["eval", "--tasks", ",".join(HUB_TASKS), "--limit", "2",
                 "--output-dir", str(out)]) == 0
    printed = capsys.readouterr().out
    results = json.loads((out / "results.json").read_text())
    for name in HUB_TASKS:
        entry = results["tasks"][name]
        assert entry["data_kind"] == "packaged" and "not reachable" in entry["data_note"]
        assert f"note: {name} was evaluated on rlvr's packaged subset (" in printed
        assert len((out / f"samples_base_{name}.jsonl").read_text().splitlines()) == 2
    assert "- data: packaged subset (500 of 1,319 rows" in (out / "results.md").read_text()


# --- the build script ------------------------------------------------------------------------

def _build_module():
    spec = importlib.util.spec_from_file_location("build_eval_subsets",
                                                  ROOT / "scripts" / "build_eval_subsets.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def test_build_script_is_deterministic_and_matches_the_package(tmp_path):
    build = _build_module()
    build.main(["--source", str(SHARED_DATA), "--output", str(tmp_path / "a")])
    build.main(["--source", str(SHARED_DATA), "--output", str(tmp_path / "b")])
    first, second = _files(tmp_path / "a"), _files(tmp_path / "b")
    assert first == second
    assert first == _files(SUBSETS_DIR)  # the packaged files are what the script builds
    assert sum(len(b) for b in first.values()) < 1_500_000
    with pytest.raises(SystemExit, match="not found; pass --source"):
        build.main(["--source", str(tmp_path / "nowhere"), "--output", str(tmp_path / "c")])


def test_a_task_asked_for_and_skipped_is_an_error_unless_accepted(monkeypatch, tmp_path, capsys):
    """`rlvr eval --tasks gsm8k,selfaware` without SelfAware's data evaluates gsm8k, then
    exits 1 naming the skipped task; `--skip-missing` accepts the partial evaluation."""
    from rlvr.cli import main

    _offline_stub_model(monkeypatch, tmp_path, "#### 1")
    (tmp_path / "empty").mkdir()
    argv = ["eval", "--tasks", "gsm8k,selfaware", "--limit", "2", "--data-dir",
            str(tmp_path / "empty"), "--output-dir", str(tmp_path / "ev")]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "(selfaware)" in err and "--skip-missing" in err
    assert main(argv + ["--skip-missing"]) == 0
    assert "skipped selfaware:" in capsys.readouterr().out
