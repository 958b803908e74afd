"""User rewards: a function of the user's own, `module:function` or
`path/to/file.py:function`, per sample or TRL-style batch, registered like a built-in
reward; every problem one line that names the file and the fix, at config load (before any
model) or, for a bad return value, at the first scored batch."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from rlvr.cli import main
from rlvr.config import load_config
from rlvr.config.checks import reward_entries, reward_names
from rlvr.errors import ConfigError, RlvrError
from rlvr.rewards import (RewardContractError, get_reward, make_trl_rewards,
                          register_user_rewards, score_rows)

REWARD_FILE = '''\
from rlvr.rewards import RewardResult

THRESHOLD = 0.5


def exact(completion, answer, prompt=None, strict=False):
    """1.0 when the completion is the answer; None when the row has no answer."""
    if answer is None:
        return None
    if strict:
        return float(completion == str(answer))
    return float(completion.strip().lower() == str(answer).lower())


def labelled(completion, answer):
    ok = completion.strip() == str(answer)
    return RewardResult(1.0 if ok else 0.0, "correct" if ok else "wrong", {"seen": completion})


labelled.outcomes = ("correct", "wrong")  # declared: the eval report counts accuracy


def contains(completion, answer):
    return float(str(answer) in completion)


def by_length(completions, answer, prompts=None, **kwargs):
    """TRL style: one score per completion; -0.1 per character beyond the answer's."""
    return [-0.1 * max(0, len(c) - len(str(a))) for c, a in zip(completions, answer)]


def everything(completion, **fields):
    return float(sorted(fields) == ["answer", "extra"])


def says_yes(completion, answer):
    return "yes" if completion == "bad" else 1.0


def one_number(completions, answer):
    return 0.5


def too_few(completions, answer):
    return [1.0]


def two(completion):
    return 2.0
'''


pytestmark = pytest.mark.usefixtures("keep_rewards")  # other tests list the registry


@pytest.fixture()
def folder(tmp_path):
    """tmp_path/configs/rewards.py (the example file) and a helper writing configs there."""
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "rewards.py").write_text(REWARD_FILE, encoding="utf-8")
    return tmp_path


def _config(folder, text: str, overrides=None):
    path = folder / "configs" / "run.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_config(path, overrides)


def _funcs(folder, entries: str):
    return _config(folder, f"reward_funcs: {entries}\n")


# --- errors at config load: one line, the file, the fix -----------------------------------

ERRORS = [
    # (what, files {name: text}, function reference, expected message (regex))
    ("file missing", {}, "nope.py:exact",
     r"reward_funcs: reward function file \S*configs/nope\.py not found; fix the path "
     r"\(a relative path in a config file is read from the config file's folder"),
    ("a folder", {"pkg/x.txt": ""}, "pkg/:exact", r"pkg is a folder; name a \.py file in it"),
    ("module not importable", {}, "no_such_pkg_xyz.rewards:exact",
     r"cannot import module 'no_such_pkg_xyz\.rewards' for reward function "
     r"no_such_pkg_xyz\.rewards:exact \(No module named 'no_such_pkg_xyz'\); install its "
     r"package or add its folder to PYTHONPATH, or name a file: path/to/file\.py:exact"),
    ("syntax error", {"bad.py": "import math\n\ndef exact(completion:\n    return 1\n"},
     "bad.py:exact", r"configs/bad\.py:3: syntax error in reward function file \(.+\); fix "
                     r"that line"),
    ("import fails inside", {"dep.py": "import math\nimport numpyy_not_there\n"},
     "dep.py:exact", r"configs/dep\.py:2: importing reward function file \S+dep\.py raised "
                     r"ModuleNotFoundError: No module named 'numpyy_not_there'; install that "
                     r"package or fix the import"),
    ("top-level code raises", {"boom.py": "x = 1\nraise ValueError('boom')\n"},
     "boom.py:exact", r"configs/boom\.py:2: importing reward function file \S+ raised "
                      r"ValueError: boom; fix the file"),
    ("missing function", {}, "rewards.py:exct",
     r"reward function file \S+rewards\.py has no function 'exct' \(did you mean 'exact'\? "
     r"it defines by_length, contains, everything, exact, .*\); fix the name after ':'"),
    ("not callable", {}, "rewards.py:THRESHOLD",
     r"rewards\.py:THRESHOLD is a float \(0\.5\), not a function; point at a function such "
     r"as \S+rewards\.py:by_length"),
    ("wrong signature", {"sig.py": "def exact(text, answer):\n    return 1.0\n"},
     "sig.py:exact", r"reward function \S+sig\.py:exact has the signature exact\(text, "
                     r"answer\); its first parameter must be `completion` \(one sample -> a "
                     r"number, rlvr's convention\) or `completions` \(a batch -> a list, TRL's "
                     r"convention\): rename it, or declare batch: true or false"),
    ("no colon", {}, "rewards.py",
     r'reward entry 1: function must be "module:function" or "path/to/file\.py:function", '
     r"got 'rewards\.py'"),
]


@pytest.mark.parametrize("what,files,ref,message", ERRORS, ids=[e[0] for e in ERRORS])
def test_a_bad_function_fails_when_the_config_loads(folder, what, files, ref, message):
    for name, text in files.items():
        (folder / "configs" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "configs" / name).write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        _funcs(folder, f"[{{name: mine, function: '{ref}'}}]")
    assert "\n" not in str(info.value)


ENTRY_ERRORS = [
    ("{name: selfaware, function: rewards.py:exact}",
     r"reward entry 1: 'selfaware' is a built-in reward; give your function \S+ another "
     r"name, e.g. name: my_selfaware in its reward_funcs entry"),
    ("[{name: a, function: rewards.py:exact}, {name: a, function: rewards.py:contains}]",
     r"reward entries 1 and 2 are both named 'a'; give each function entry its own name"),
    ("{function: rewards.py:exact, score_range: [1, 0]}",
     r"score_range of reward 'exact' must be \[low, high\], two numbers with low < high"),
    ("{function: rewards.py:exact, batch: maybe}", r"batch of reward 'exact' must be true or "
                                                   r"false, got 'maybe'"),
    ("{function: rewards.py:exact, params: {strictt: true}}",
     r"reward function \S+ has no parameter 'strictt' for params \(its parameters: answer, "
     r"prompt, strict\)\. Did you mean 'strict'\?"),
    ("{function: rewards.py:exact, params: {strict: 3}}",
     r"reward 'exact' parameter 'strict' must be bool, got 3"),
    ("{function: rewards.py:exact, preset: strict}", r"reward 'exact' has no preset 'strict'"),
]


@pytest.mark.parametrize("entries,message", ENTRY_ERRORS)
def test_a_bad_entry_fails_when_the_config_loads(folder, entries, message):
    with pytest.raises(ConfigError, match=r"^reward_funcs: " + message):
        _funcs(folder, entries)


def test_reward_as_a_function_needs_no_builtin_preset_and_curriculum_needs_a_range(folder):
    with pytest.raises(ConfigError, match=r"^reward_preset 'strict' is a preset of the built-in "
                                          r"rewards; your function \S+rewards\.py:exact has "
                                          r"none: set reward_preset: null$"):
        _config(folder, "reward: rewards.py:exact\n")
    with pytest.raises(ConfigError, match=r"curriculum: reward 'exact' declares no score range"
                                          r".*add score_range: \[low, high\] to its "
                                          r"reward_funcs entry or set curriculum_solved_reward"):
        _config(folder, "reward_funcs: [{function: rewards.py:exact}]\ncurriculum: true\n")
    cfg = _config(folder, "reward_funcs: [{function: rewards.py:exact, score_range: [0, 1]}]\n"
                          "curriculum: true\n")
    assert get_reward("exact").score_range == (0.0, 1.0)
    assert cfg.curriculum


# --- a return value outside the contract: RlvrError naming the function and the row -------

def test_a_non_numeric_return_names_the_function_and_the_row(folder):
    rows = [{"completion": "fine", "answer": "x"}, {"completion": "bad", "answer": "x"}]
    ref = str(folder / "configs" / "rewards.py") + ":says_yes"
    with pytest.raises(RlvrError, match=rf"^row 2 was scored by reward function "
                                        rf"{ref}, which returned 'yes' \(a str\); a reward "
                                        r"function returns a number, None \(cannot score\) or "
                                        r"a RewardResult$"):
        score_rows(ref, rows)
    with pytest.raises(RlvrError, match="^row 2 was scored"):  # a bug, not a bad row
        score_rows(ref, rows, on_error="skip")
    funcs, _ = make_trl_rewards([{"function": ref}])
    with pytest.raises(RewardContractError, match=rf"^reward function {ref} returned 'yes' "
                                                  r"\(a str\) for sample 2 of the batch "
                                                  r"\(answer='x'\)"):
        funcs[0](["fine", "bad"], answer=["x", "x"])


@pytest.mark.parametrize("name,entry,message", [
    ("one_number", {}, r"returned 0\.5 \(a float\), not a list; a batch function \(first "
                       r"parameter `completions`\) returns one score per completion"),
    ("too_few", {}, r"returned 1 scores for 2 completions; a batch function returns one "
                    r"score per completion, in order"),
    ("two", {"score_range": [0, 1]}, r"returned 2, outside its score_range \[0, 1\] for "
                                     r"sample 1 of the batch; fix the function or the entry's "
                                     r"score_range"),
])
def test_batch_and_range_contract_errors(folder, name, entry, message):
    ref = str(folder / "configs" / "rewards.py") + f":{name}"
    funcs, _ = make_trl_rewards([{"function": ref, **entry}])
    with pytest.raises(RewardContractError, match=message):
        funcs[0](["a", "b"], answer=["a", "b"])


# --- end to end: load_config -> make_trl_rewards -> score_rows ----------------------------

def test_per_sample_function_end_to_end(folder, monkeypatch):
    monkeypatch.chdir(folder)  # the path is read from the config's folder, not from here
    cfg = _config(folder, """\
        reward_funcs:
          - {name: exact_match, function: rewards.py:exact, score_range: [0, 1], weight: 2.0}
          - {name: strict_match, function: rewards.py:exact, params: {strict: true}}
        """)
    path = str(folder / "configs" / "rewards.py")
    assert cfg.reward_funcs[0]["function"] == f"{path}:exact"  # stored absolute
    assert reward_names(cfg) == ["exact_match", "strict_match"]
    spec = get_reward("exact_match")
    assert spec.fields == ("answer",) and spec.optional_fields == ("prompt", "strict")
    assert spec.source == f"{path}:exact" and spec.score_range == (0.0, 1.0)
    assert get_reward("strict_match").optional_fields == ("prompt",)  # strict is fixed
    funcs, weights = make_trl_rewards(reward_entries(cfg))
    assert [f.__name__ for f in funcs] == ["exact_match", "strict_match"] and weights == [2.0, 1.0]
    # TRL's call: conversational completions, dataset columns, prompts, completion_ids
    completions = [[{"role": "assistant", "content": " Paris "}], "paris", "Rome"]
    kwargs = {"answer": ["Paris", "Paris", None], "prompts": ["q1", "q2", "q3"],
              "completion_ids": [[1], [2], [3]], "trainer_state": None}
    assert funcs[0](completions, **kwargs) == [1.0, 1.0, None]  # None: no answer
    assert funcs[1](completions, **kwargs) == [0.0, 0.0, None]  # strict: exact text only
    results = score_rows("exact_match", [{"completion": "PARIS", "answer": "paris"},
                                          {"completion": "x", "answer": None}])
    assert [(r.score, r.outcome) for r in results] == [(1.0, "scored"), (None, "unscored")]
    with pytest.raises(RlvrError, match=r"row 1 lacks field\(s\) \['answer'\] needed by "
                                        r"reward 'exact_match'"):
        score_rows("exact_match", [{"completion": "x"}])
    # a RewardResult keeps its own outcome and details
    labelled = score_rows(f"{path}:labelled", [{"completion": "4", "answer": 4}])[0]
    assert (labelled.score, labelled.outcome, labelled.details) == (1.0, "correct",
                                                                    {"seen": "4"})


def test_batch_function_end_to_end(folder):
    cfg = _config(folder, "reward_funcs: {function: rewards.py:by_length}\n")
    entry = reward_entries(cfg)[0]
    assert entry["name"] == "by_length"
    spec = get_reward("by_length")
    # `prompts` (TRL's name) is the rows' `prompt`; **kwargs: every column is passed
    assert spec.fields == ("answer",) and spec.optional_fields == ("prompt",) and spec.all_fields
    funcs, _ = make_trl_rewards([entry])
    # -0.1 x (len - len(answer)): "Paris!!" 7 - 5 = 2 -> -0.2; "Paris" -> 0; "x" -> 0
    scores = funcs[0](["Paris!!", "Paris", "x"], answer=["Paris"] * 3, prompts=["q"] * 3)
    assert scores == pytest.approx([-0.2, 0.0, 0.0])
    results = score_rows("by_length", [{"completion": "abcd", "answer": "ab", "other": 1}])
    assert results[0].score == pytest.approx(-0.2) and results[0].outcome == "scored"


def test_eval_report_and_training_columns_read_a_user_reward(folder):
    from rlvr.eval.task_heldout import has_accuracy, heldout_summary, score_with_entries
    from rlvr.train.data_prep import training_columns

    ref = str(folder / "configs" / "rewards.py")
    entries = [{"name": "em", "function": f"{ref}:exact", "weight": 1.0},
               {"function": f"{ref}:labelled", "weight": 0.5}]
    base = [{"id": i, "completion": "x", "answer": str(i)} for i in range(3)]
    trained = [{"id": i, "completion": str(i), "answer": str(i)} for i in range(3)]
    score_with_entries(base, entries)
    score_with_entries(trained, entries)
    # reward = 1.0 x exact + 0.5 x labelled = 1.5 per right answer, 0 per wrong one
    assert [r["reward"] for r in trained] == [1.5] * 3 and base[0]["outcome"] == "scored"
    assert base[0]["outcomes"] == {"em": "scored", "labelled": "wrong"}
    assert not has_accuracy({"name": "em"}) and has_accuracy({"name": "labelled"})
    summary = heldout_summary(base, trained, register_user_rewards(entries),
                              bootstrap_samples=50)
    assert summary["metrics"]["accuracy/labelled"]["base"] == 0.0
    assert summary["metrics"]["accuracy/labelled"]["trained"] == 1.0
    assert summary["metrics"]["reward/em"]["trained"] == 1.0
    make_trl_rewards([{"function": f"{ref}:everything"}])
    train = [{"prompt": "q", "question": "q", "expected_answer": ["Paris"],
              "is_unanswerable": False, "fields": {"answer": "Paris", "extra": 3}}]
    columns = training_columns(train, entries=[{"name": "everything"}])
    assert columns["extra"] == [3]  # **fields: every field of the rows is a column
    assert "extra" not in training_columns(train, entries=[{"name": "em"}])


def test_module_reference_and_reload_after_an_edit(folder, monkeypatch):
    monkeypatch.syspath_prepend(str(folder / "configs"))
    sys.modules.pop("rewards", None)
    try:
        cfg = load_config(None, {"reward": "rewards:contains", "reward_preset": None})
        assert reward_entries(cfg)[0]["name"] == "contains" and cfg.reward == "rewards:contains"
        assert score_rows("contains", [{"completion": "it is 4", "answer": 4}])[0].score == 1.0
    finally:
        sys.modules.pop("rewards", None)
    path = folder / "configs" / "mine.py"
    path.write_text("def f(completion):\n    return 1.0\n", encoding="utf-8")
    assert score_rows(f"{path}:f", [{"completion": "a"}])[0].score == 1.0
    path.write_text("def f(completion):\n    return 0.25\n\n", encoding="utf-8")  # new size
    assert score_rows(f"{path}:f", [{"completion": "a"}])[0].score == 0.25


# --- rlvr score --reward file.py:fn --------------------------------------------------------

def test_rlvr_score_with_a_file_function(folder, monkeypatch, capsys):
    monkeypatch.chdir(folder / "configs")  # outside a config: from the working directory
    rows = [{"completion": "Paris", "answer": "Paris"}, {"completion": "Rome", "answer": "Paris"},
            {"completion": "bad", "answer": "Paris"}]
    (folder / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:2]),
                                       encoding="utf-8")
    out = folder / "scored.jsonl"
    code = main(["score", "--reward", "rewards.py:exact", "--input", str(folder / "rows.jsonl"),
                 "--output", str(out)])
    printed = capsys.readouterr().out
    assert code == 0 and "2 rows scored with exact" in printed and "scored" in printed
    assert [json.loads(line)["reward"] for line in out.read_text().splitlines()] == [1.0, 0.0]
    (folder / "bad.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows),
                                      encoding="utf-8")
    code = main(["score", "--reward", "rewards.py:says_yes", "--input",
                 str(folder / "bad.jsonl")])
    err = capsys.readouterr().err
    assert code == 2 and f"{folder / 'bad.jsonl'}:3: was scored by reward function" in err
    assert "returned 'yes' (a str)" in err and "Traceback" not in err
    code = main(["score", "--reward", "rewards.py:nope", "--input", str(folder / "bad.jsonl")])
    assert code == 2 and "has no function 'nope'" in capsys.readouterr().err


# --- the preflight before any model loads -------------------------------------------------

QA = [{"question": f"Which number comes after {n}?", "answer": str(n + 1)} for n in range(1, 11)]


def test_preflight_scores_a_user_reward_and_refuses_its_loophole(folder):
    from rlvr.train.checks import reward_preflight
    from rlvr.train.data_prep import prepare_data

    data = folder / "qa.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in QA), encoding="utf-8")
    cfg = _config(folder, f"data: {data}\nreward_funcs: [{{function: rewards.py:exact, "
                          "score_range: [0, 1]}]\n")
    _, train, _ = prepare_data(cfg)
    [result] = reward_preflight(cfg, train)
    assert result["reward"] == "exact" and not result["warnings"]
    assert result["policies"]["gold"] == 1.0 and result["policies"]["list_candidates"] == 0.0
    assert "score range [0, 1]" in result["table"]
    # `contains` pays "London, 3 or Mars." as much as "3": refused before the model loads
    cfg = _config(folder, f"data: {data}\nreward_funcs: [{{function: rewards.py:contains}}]\n")
    with pytest.raises(ConfigError, match=r"preflight refused the run: .* reward 'contains' "
                                          r".*list_candidates \('1, 2 or 3\.'\) scores "
                                          r"\+1\.0000, as much as gold"):
        reward_preflight(cfg, train)
    # a field the rows lack is named with the fix
    bad = folder / "configs" / "needs.py"
    bad.write_text("def f(completion, level):\n    return 1.0\n", encoding="utf-8")
    cfg = _config(folder, f"data: {data}\nreward_funcs: [{{function: needs.py:f}}]\n")
    with pytest.raises(ConfigError, match=r"reward 'f' reads field\(s\) level, which the "
                                          r"training rows .* do not have .*add \"level\" to "
                                          r"every row"):
        reward_preflight(cfg, train)


# --- one real GRPO step (tiny random model): TRL calls both kinds ------------------------

def test_one_grpo_step_with_a_per_sample_and_a_batch_function(folder):
    pytest.importorskip("trl")
    from datasets import Dataset
    from tiny_models import tiny_chat_llama
    from trl import GRPOTrainer

    from rlvr.train.data_prep import prepare_data, training_columns
    from rlvr.train.grpo import grpo_args, reward_functions

    data = folder / "qa.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in QA), encoding="utf-8")
    cfg = _config(folder, f"""\
        data: {data}
        reward_funcs:
          - {{name: exact_match, function: rewards.py:exact, score_range: [0, 1]}}
          - {{function: rewards.py:by_length, weight: 0.1}}
        per_device_train_batch_size: 4
        num_generations: 2
        gradient_accumulation_steps: 1
        max_steps: 1
        max_completion_length: 8
        beta: 0.0
        report_to: none
        output_dir: {folder / "run"}
        """)
    _, train, _ = prepare_data(cfg)
    funcs, weights = reward_functions(cfg)
    seen = []

    def spy(completions, **kwargs):
        seen.append(sorted(kwargs))
        return funcs[1](completions, **kwargs)

    spy.__name__ = "by_length"
    model, tokenizer = tiny_chat_llama()
    trainer = GRPOTrainer(model=model, reward_funcs=[funcs[0], spy],
                          args=grpo_args(cfg, folder / "ckpt", weights),
                          train_dataset=Dataset.from_dict(training_columns(
                              train, entries=reward_entries(cfg))),
                          processing_class=tokenizer)
    trainer.train()
    logged = trainer.state.log_history[0]
    assert 0.0 <= logged["rewards/exact_match/mean"] <= 1.0  # logged under the entry's name
    assert logged["rewards/by_length/mean"] <= 0.0
    assert {"answer", "prompts", "completion_ids"} <= set(seen[0])


ENDS_WITH = '''
def ends_with(completion, answer):
    """1.0 when the completion ends with the answer (a loophole: an echo of a question that
    ends with its own answer is paid)."""
    return float(completion.strip().rstrip("?.").endswith(str(answer)))
'''


def test_preflight_flags_a_policy_paid_on_some_rows_and_shows_its_text(folder, caplog):
    from rlvr.train.checks import reward_preflight
    from rlvr.train.data_prep import prepare_data

    (folder / "configs" / "echo.py").write_text(ENDS_WITH, encoding="utf-8")
    rows = QA + [{"question": "Say 7", "answer": "7"}, {"question": "Repeat 12", "answer": "12"}]
    data = folder / "echo.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    cfg = _config(folder, f"data: {data}\nreward_funcs: [{{function: echo.py:ends_with, "
                          "score_range: [0, 1]}]\n")
    _, train, _ = prepare_data(cfg)
    with caplog.at_level("WARNING"):
        [result] = reward_preflight(cfg, train)  # not refused: on average it is far from gold
    assert not result["warnings"]
    n = len(train)
    (note,) = result["partial"]
    # its text is the echo that was paid, and the row it was paid on is named
    assert note.startswith(("repeat_question ('Say 7')", "repeat_question ('Repeat 12')"))
    assert "(e.g. the row 'Say 7')" in note or "(e.g. the row 'Repeat 12')" in note
    assert f"scores as much as gold on 2 of {n} rows" in note
    assert "WARNING (on some rows): repeat_question" in result["table"]
    assert "preflight: repeat_question" in caplog.text
