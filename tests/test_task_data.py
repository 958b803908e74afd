"""Training rows for the task rewards: formats, columns, the field check."""

from __future__ import annotations

import json
import re

import pytest

from rlvr.config import load_config
from rlvr.tasks.resolve import resolve_data, with_system_prompt
from rlvr.tasks.rows import detect_format, load_rows
from rlvr.errors import ConfigError, DataError
from rlvr.config.checks import reward_entries
from rlvr.train.checks import reward_preflight
from rlvr.train.data_prep import column_values, prepare_data, training_columns

GSM8K = [{"question": f"Tom has {n} apples and buys {n} more. How many now?",
          "answer": f"{n} + {n} = {2 * n}\n#### {2 * n}"} for n in range(1, 11)]
MATH = [{"problem": f"A box has three rows of {n} pens. How many pens are in the box?",
         "solution": f"Three rows: $3 \\cdot {n} = \\boxed{{{3 * n}}}$.", "answer": str(3 * n)}
        for n in range(1, 11)]
QA = [{"question": f"Which number comes after {n}?", "answer": str(n + 1),
       "aliases": [str(n + 1), f"number {n + 1}"]} for n in range(1, 11)]
MBPP = [{"task_id": 600 + n, "text": f"Write a function add{n}(a) that adds {n}.",
         "code": f"def add{n}(a):\n    return a + {n}\n",
         "test_list": [f"assert add{n}(1) == {n + 1}"], "test_setup_code": ""}
        for n in range(1, 11)]
HUMANEVAL = [{"task_id": f"T/{n}", "prompt": f"def inc{n}(x):\n    \"\"\"x + {n}\"\"\"\n",
              "canonical_solution": f"    return x + {n}\n", "entry_point": f"inc{n}",
              "test": f"def check(candidate):\n    assert candidate(1) == {n + 1}\n"}
             for n in range(1, 11)]


def write(tmp_path, name, rows):
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return str(path)


def test_formats_are_told_apart_by_their_keys():
    assert [detect_format(r[0]) for r in (GSM8K, MATH, QA, MBPP, HUMANEVAL)] == [
        "gsm8k", "math", "qa", "mbpp", "humaneval"]
    assert detect_format({"messages": [], "final_answer": "3"}) == "messages"
    assert detect_format({"prompt": [{"role": "user", "content": "hi"}], "x": 1}) == "prompt"
    # a QA question whose answer has no '####' is not GSM8K; TriviaQA's context rows are QA
    assert detect_format({"question": "q", "answer": "Paris"}) == "qa"
    assert detect_format({"context": "Question: q\nAnswer:", "answer": "a"}) == "qa"
    assert detect_format({"foo": 1}) is None


def test_each_adapter_carries_the_fields_its_reward_reads(tmp_path):
    gsm = load_rows(write(tmp_path, "g.jsonl", GSM8K))[0]
    assert gsm["fields"]["final_answer"] == "2" and gsm["fields"]["solution"].endswith("#### 2")
    assert gsm["prompt"][0]["role"] == "system" and "####" in gsm["prompt"][0]["content"]
    assert gsm["prompt"][-1]["content"] == GSM8K[0]["question"]
    # MATH: the short `answer` is the gold `solution` when given
    assert load_rows(write(tmp_path, "m.jsonl", MATH))[0]["fields"]["solution"] == "3"
    qa = load_rows(write(tmp_path, "q.jsonl", QA))[0]["fields"]
    assert qa["answer"] == "2" and qa["aliases"] == ["2", "number 2"]
    mbpp = load_rows(write(tmp_path, "b.jsonl", MBPP))[0]
    assert mbpp["fields"]["test_list"] == ["assert add1(1) == 2"] and mbpp["id"] == 601
    assert "Your code should pass this test:\nassert add1(1) == 2" in mbpp["prompt"][-1]["content"]
    he = load_rows(write(tmp_path, "h.jsonl", HUMANEVAL))[0]
    # HumanEval keeps the stub as a plain-text prompt: TRL hands it to the code reward
    assert he["prompt"] == HUMANEVAL[0]["prompt"] and he["fields"]["entry_point"] == "inc1"
    # messages rows keep their extra keys as fields
    row = {"messages": [{"role": "user", "content": "2+2?"}, {"role": "assistant",
                                                             "content": "4"}],
           "final_answer": "4"}
    assert load_rows(write(tmp_path, "x.jsonl", [row]))[0]["fields"] == {"final_answer": "4"}


def test_a_task_declares_its_training_rows_in_the_one_registry(tmp_path, monkeypatch):
    from rlvr.config.train_config import TrainConfig
    from rlvr.tasks import registry
    from rlvr.tasks.rows import RowFormat, formats, row_formats

    # the task formats come from the tasks that own them, the rest are generic
    owned = {t.train_rows.name: name for name, t in registry.TASKS.items() if t.train_rows}
    assert owned == {"gsm8k": "gsm8k", "qa": "triviaqa", "humaneval": "humaneval",
                     "mbpp": "mbpp"}
    assert formats() == ("auto", "messages", "prompt", "math", "gsm8k", "qa", "humaneval",
                         "mbpp")
    # the data_format help text names every format a user can set
    help_text = TrainConfig.__dataclass_fields__["data_format"].metadata["help"]
    assert set(formats()[1:]) <= set(re.findall(r"[a-z0-9]+", help_text))

    # a user's task brings its rows with it: detected, parsed, accepted by data_format
    def days_row(obj, path, line):
        return {"prompt": [{"role": "user", "content": obj["day_question"]}],
                "question": obj["day_question"], "expected_answer": obj["day"],
                "is_unanswerable": False, "fields": {"day": obj["day"]}}

    task = registry.EvalTask(
        name="days", version=1, description="days of the week", load=lambda p: [],
        data_file=None, render=lambda r: r["day_question"], reward="qa",
        metrics=lambda *a: {},
        train_rows=RowFormat("days", "day_question, day", ("day_question", "day"), days_row))
    monkeypatch.setitem(registry.TASKS, "days", task)
    assert row_formats()["days"] is task.train_rows and formats()[-1] == "days"
    path = write(tmp_path, "days.jsonl", [{"day_question": "Day after Monday?",
                                           "day": "Tuesday"}] * 3)
    assert detect_format({"day_question": "q", "day": "d"}) == "days"
    assert [r["format"] for r in load_rows(path)] == ["days"] * 3
    assert load_rows(path, "days")[0]["fields"] == {"day": "Tuesday"}
    load_config(overrides={"data_format": "days"})  # accepted: no ConfigError
    monkeypatch.delitem(registry.TASKS, "days")
    with pytest.raises(ConfigError, match="data_format must be one of auto, messages"):
        load_config(overrides={"data_format": "days"})


def test_a_row_of_another_format_names_file_line_and_fix(tmp_path):
    path = write(tmp_path, "g.jsonl", GSM8K[:2] + [{"question": "q", "answer": "no hash"}])
    # the file is GSM8K (its first row); a later row without '#### N' names its line
    with pytest.raises(DataError, match=r"g\.jsonl:3: GSM8K answer has no '#### N' line"):
        load_rows(path)
    from rlvr.data.messages import LoadReport

    report = LoadReport(path)
    assert len(load_rows(path, skip_bad_rows=True, report=report)) == 2
    assert report.kept == 2 and report.skipped[0].startswith(f"{path}:3: GSM8K answer")
    # named explicitly, the same rows are QA rows (question + answer)
    assert load_rows(path, "qa")[2]["fields"]["answer"] == "no hash"
    with pytest.raises(DataError, match=r"g\.jsonl:1: not a math row \(it needs problem, "
                                        r"solution; it has \['answer', 'question'\]\); .*"
                                        r"set data_format"):
        load_rows(path, "math")
    with pytest.raises(DataError, match="cannot tell the row format"):
        load_rows(write(tmp_path, "f.jsonl", [{"foo": 1}]))


def test_columns_have_one_arrow_type_each():
    from datasets import Dataset

    # 72 (a number) next to text becomes text; a lone alias string becomes a list
    assert column_values("final_answer", [72, "1,000", None]) == ["72", "1,000", None]
    assert column_values("aliases", ["a", ["b", 3], None]) == [["a"], ["b", "3"], None]
    assert column_values("correct", [True, None, False]) == [True, None, False]
    with pytest.raises(DataError, match="'aliases' holds dict and list"):
        column_values("aliases", [{"x": 1}, ["a"]])
    train = [{"prompt": [{"role": "user", "content": "q"}], "question": "q",
              "expected_answer": "1", "is_unanswerable": False,
              "fields": {"final_answer": 72 if i else "1,000", "unused": {"x": i}}}
             for i in range(3)]
    entries = [{"name": "gsm8k_correctness"}]
    columns = training_columns(train, entries=entries)
    assert columns["final_answer"] == ["1,000", "72", "72"] and "unused" not in columns
    features = Dataset.from_dict(columns).features
    assert features["final_answer"].dtype == "string"
    with pytest.raises(DataError, match="mix plain-text and chat prompts"):
        training_columns(train + [{**train[0], "prompt": "text"}], entries=entries)


def _cfg(data, **kw):
    return load_config(None, {"data": data, "reward_preset": None, **kw})


@pytest.mark.parametrize("rows,rewards", [
    (GSM8K, [{"name": "gsm8k_correctness"}, {"name": "gsm8k_format", "weight": 0.5}]),
    (MATH, [{"name": "math"}]), (QA, [{"name": "qa"}]), (MBPP, [{"name": "code"}]),
    (HUMANEVAL, [{"name": "code"}])])
def test_task_rows_pass_the_field_check_and_the_preflight(tmp_path, rows, rewards):
    cfg = _cfg(write(tmp_path, "rows.jsonl", rows), reward=rewards[0]["name"],
               reward_funcs=rewards)
    _, train, heldout = prepare_data(cfg)
    assert len(train) == 9 and len(heldout) == 1  # a seeded 10% held out
    results = reward_preflight(cfg, train)
    assert [r["reward"] for r in results] == [e["name"] for e in rewards]
    assert all(r["policies"]["gold"] == max(r["policies"].values()) for r in results)
    assert all(not r["warnings"] for r in results)
    columns = training_columns(train, entries=reward_entries(cfg))
    from rlvr.rewards import get_reward

    for entry in rewards:
        assert not get_reward(entry["name"]).missing_fields(set(columns) | {"prompt"})


@pytest.mark.parametrize("reward,missing", [
    ("gsm8k_correctness", "final_answer"), ("math", "solution"), ("qa", "aliases|answer"),
    ("code", "test|test_list")])
def test_a_reward_whose_fields_the_rows_lack_is_refused_before_the_model(reward, missing):
    cfg = load_config(None, {"reward_funcs": [{"name": reward}], "preflight": "off"})
    _, train, _ = prepare_data(cfg)  # the built-in self-awareness rows
    with pytest.raises(ConfigError, match=rf"reward '{reward}' reads field\(s\) "
                                          rf"{missing.replace('|', '[|]')}, which the "
                                          r"training rows of the built-in dataset do not "
                                          r"have \(they have expected_answer"):
        reward_preflight(cfg, train)


def test_cosine_scaled_needs_its_base_rewards_fields(tmp_path):
    entries = [{"name": "qa"}, {"name": "cosine_scaled",
                                "params": {"max_length": 8, "base": "math"}}]
    cfg = _cfg(write(tmp_path, "q.jsonl", QA), reward="qa", reward_funcs=entries)
    _, train, _ = prepare_data(cfg)
    with pytest.raises(ConfigError, match=r"reward 'cosine_scaled' reads field\(s\) solution"):
        reward_preflight(cfg, train)


def test_messages_rows_with_a_reward_field_train_that_reward(tmp_path):
    rows = [{"messages": [{"role": "user", "content": f"{n} + {n}?"},
                          {"role": "assistant", "content": str(2 * n)}],
             "answer": str(2 * n)} for n in range(1, 11)]
    cfg = _cfg(write(tmp_path, "m.jsonl", rows), reward="qa", reward_funcs=[{"name": "qa"}])
    _, train, _ = prepare_data(cfg)
    reward_preflight(cfg, train)
    assert training_columns(train, entries=reward_entries(cfg))["answer"][0] in {
        str(2 * n) for n in range(1, 11)}


def test_gsm8k_by_name_trains_on_train_and_holds_out_test(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("RLVR_DATA_DIR", raising=False)
    data = resolve_data("gsm8k", data_dir="/nonexistent")
    assert len(data.train) == 100 and len(data.heldout) == 500  # the packaged subsets
    assert "train" in data.source and "test" in data.source
    assert all(ex["fields"]["final_answer"] for ex in data.train)
    assert not {ex["question"] for ex in data.train} & {ex["question"] for ex in data.heldout}


def test_plain_text_prompts_refuse_a_system_prompt(tmp_path):
    examples = load_rows(write(tmp_path, "h.jsonl", HUMANEVAL))
    with pytest.raises(DataError, match="plain-text prompts"):
        with_system_prompt(examples, "Be brief.")


def test_config_refuses_settings_a_task_run_cannot_use():
    gsm8k = [{"name": "gsm8k_correctness"}]
    with pytest.raises(ConfigError, match="data_format must be one of auto, messages"):
        load_config(None, {"data_format": "csv"})
    with pytest.raises(ConfigError, match="kshot_eval evaluates on GSM8K and needs "
                                          "gsm8k_correctness"):
        load_config(None, {"kshot_eval": [0, 2]})
    with pytest.raises(ConfigError, match="kshot_eval must be a list of distinct"):
        load_config(None, {"kshot_eval": [0, 0], "reward_funcs": gsm8k, "reward_preset": None})
    with pytest.raises(ConfigError, match="train_answerable: known labels .* set "
                                          "train_answerable: all"):
        load_config(None, {"train_answerable": "known", "reward_funcs": gsm8k})
    cfg = load_config(None, {"kshot_eval": [0, 2, 4, 8], "reward_funcs": gsm8k})
    assert cfg.kshot_eval == [0, 2, 4, 8] and cfg.kshot_limit == 20


@pytest.mark.parametrize("flag", ["true", "yes", "false", 1, 0, "maybe", [True]])
@pytest.mark.parametrize("rows", [GSM8K, QA, MATH, MBPP], ids=["gsm8k", "qa", "math", "mbpp"])
def test_a_flag_written_as_text_is_refused_with_file_and_line(tmp_path, rows, flag):
    """`is_unanswerable` on a task row is a JSON boolean or absent: the string "true" was read
    as false, so an unanswerable row trained as answerable; now every non-boolean value
    names the file and line, as on messages rows."""
    bad = [dict(rows[0]), {**rows[0], "is_unanswerable": flag}]
    with pytest.raises(DataError, match=r"x\.jsonl:2: 'is_unanswerable' must be true or false"):
        load_rows(write(tmp_path, "x.jsonl", bad))
    good = load_rows(write(tmp_path, "y.jsonl", [{**rows[0], "is_unanswerable": True},
                                                 {**rows[0], "is_unanswerable": None}]))
    assert [r["is_unanswerable"] for r in good] == [True, False]
