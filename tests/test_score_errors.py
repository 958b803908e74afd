"""`rlvr score` and the reward layer on bad input: a clear one-line error with file:line and
exit code 2, or the row skipped when asked; never a traceback (a bad setting found only
after a model loaded, or a traceback, costs a user the run)."""

from __future__ import annotations

import json
import re

import pytest

from rlvr.cli import main
from rlvr.rewards import make_trl_reward, score_rows

ROWS = [
    {"completion": None, "expected_answer": "Paris", "is_unanswerable": False},      # line 1
    {"completion": 5, "expected_answer": "Paris", "is_unanswerable": False},         # line 2
    {"completion": "Paris", "expected_answer": 42, "is_unanswerable": False},        # line 3
    {"completion": "I don't know.", "expected_answer": None, "is_unanswerable": "maybe"},
    {"completion": "Paris", "expected_answer": "Paris", "is_unanswerable": False},    # line 5
    {"completion": "Paris", "is_unanswerable": False},                               # line 6
]


@pytest.fixture()
def bad_file(tmp_path):
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def _run(capsys, *argv):
    code = main(["score", "--reward", "selfaware", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_first_bad_row_stops_with_its_line(bad_file, capsys):
    code, _, err = _run(capsys, "--input", str(bad_file))
    assert code == 2 and f"{bad_file}:1:" in err and "must be text or chat messages" in err
    assert "Traceback" not in err


def test_skip_reports_every_bad_row_and_scores_the_rest(bad_file, capsys, tmp_path):
    out_file = tmp_path / "scored.jsonl"
    code, out, err = _run(capsys, "--input", str(bad_file), "--on-error", "skip",
                          "--output", str(out_file))
    assert code == 0
    for line in (1, 2, 4, 6):  # null and numeric completions, "maybe", a missing field
        assert f"{bad_file}:{line}: skipped" in err
    assert "'is_unanswerable' must be true or false, got 'maybe'" in err
    scored = [json.loads(x) for x in out_file.read_text().splitlines()]
    # a numeric expected_answer is read as text ("42"), so "Paris" is just wrong
    assert [r["outcome"] for r in scored] == ["bad_row", "bad_row", "wrong", "bad_row",
                                             "correct", "bad_row"]
    assert "bad_row                    4" in out
    assert "2 rows scored with selfaware, 4 rows skipped" in out  # the count says what ran
    assert all(r["error"] and r["line"] for r in scored if r["outcome"] == "bad_row")


@pytest.mark.parametrize("argv, message", [
    (["--param", "wrong=-2"], "'wrong' = -2 is outside the reward's score range"),
    (["--param", "wrongg=1"], "no parameter 'wrongg'.*Did you mean 'wrong'"),
    (["--param", "mode=3"], "parameter 'mode' must be str"),
    (["--param", "fold_unicode=maybe"], "parameter 'fold_unicode' must be bool"),
    (["--preset", "strcit"], "no preset 'strcit'.*Did you mean 'strict'"),
    (["--limit", "0"], "--limit must be >= 1"),
])
def test_bad_settings_are_refused_before_reading(bad_file, capsys, argv, message):
    code, _, err = _run(capsys, "--input", str(bad_file), *argv)
    assert code == 2 and "Traceback" not in err
    assert re.search(message, err), err


def test_a_folder_as_output_and_a_non_utf8_file(bad_file, capsys, tmp_path):
    code, _, err = _run(capsys, "--input", str(bad_file), "--output", str(tmp_path))
    assert code == 2 and "is a folder" in err
    code, _, err = _run(capsys, "--input", str(bad_file), "--output",
                        str(tmp_path / "missing" / "x.jsonl"))
    assert code == 2 and "does not exist" in err
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes(b'{"completion": "caf\xe9", "expected_answer": "x", '
                       b'"is_unanswerable": false}\n')
    code, _, err = _run(capsys, "--input", str(latin1))
    assert code == 2 and f"{latin1}:1: not UTF-8" in err


def test_score_rows_raise_names_the_row():
    with pytest.raises(Exception, match="row 2 'is_unanswerable' must be true or false"):
        score_rows("selfaware", ROWS[2:4])
    assert [r.outcome for r in score_rows("selfaware", ROWS, on_error="skip")][2:5] == [
        "wrong", "bad_row", "correct"]


def test_training_reward_scores_an_odd_sample_none_instead_of_crashing(caplog):
    reward = make_trl_reward("selfaware", "strict")
    scores = reward(["I don't know.", "Paris"], expected_answer=[None, "Paris"],
                    is_unanswerable=["maybe", False])
    assert scores == [None, 1.0]
    assert "could not score a sample" in caplog.text


@pytest.mark.parametrize("argv, message", [
    # `rlvr eval` refuses bad settings before any model loads (not after minutes of it)
    (["--tasks", "gsm8k", "--num-samples", "0"], "--num-samples must be >= 1"),
    (["--tasks", "gsm8k", "--limit", "-3"], "--limit must be >= 1"),
    (["--tasks", "gsm8k", "--temperature", "-1"], "--temperature must be >= 0"),
    (["--tasks", "gsm8k,trivia"], "unknown task 'trivia'"),
])
def test_eval_refuses_bad_settings_before_loading(capsys, argv, message):
    assert main(["eval", *argv]) == 2
    err = capsys.readouterr().err
    assert re.search(message, err) and "Traceback" not in err


def test_eval_refuses_a_folder_without_an_adapter(capsys, tmp_path):
    assert main(["eval", "--tasks", "gsm8k", "--adapter", str(tmp_path)]) == 2
    assert "no adapter_config.json" in capsys.readouterr().err


def test_score_help_lists_the_rewards(capsys):
    with pytest.raises(SystemExit):
        main(["score", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "registered reward name: abstention, code," in out and "selfaware" in out


def test_skip_also_skips_lines_that_are_no_json_object(tmp_path, capsys):
    """Under --on-error skip an unreadable line (not JSON, not an object, not UTF-8) is
    reported with its line, counted as `bad_row` and kept in its place in --output."""
    path = tmp_path / "rows.jsonl"
    good = json.dumps({"completion": "Paris", "expected_answer": "Paris",
                       "is_unanswerable": False})
    path.write_bytes(b"not json at all\n" + good.encode() + b"\n[1, 2]\n\xff\xfe\n"
                     + good.encode() + b"\n")
    out_file = tmp_path / "scored.jsonl"
    code, out, err = _run(capsys, "--input", str(path), "--on-error", "skip",
                          "--output", str(out_file))
    assert code == 0, err
    for line in (1, 3, 4):
        assert f"{path}:{line}: skipped" in err
    assert "bad_row                    3" in out and "correct                    2" in out
    scored = [json.loads(x) for x in out_file.read_text().splitlines()]
    assert [(r.get("line"), r["outcome"]) for r in scored] == [
        (1, "bad_row"), (None, "correct"), (3, "bad_row"), (4, "bad_row"), (None, "correct")]
    code, _, err = _run(capsys, "--input", str(path))  # the default still stops at line 1
    assert code == 2 and f"{path}:1: invalid JSON" in err


@pytest.mark.parametrize("content", [b"", b"\n\n  \n"], ids=["empty", "blank lines"])
def test_an_empty_input_is_an_error_not_zero_rows(tmp_path, capsys, content):
    """A file with no row scored "0 rows" and exit 0, so a pipeline went on with nothing."""
    path = tmp_path / "none.jsonl"
    path.write_bytes(content)
    code, out, err = _run(capsys, "--input", str(path))
    assert code == 2 and f"{path}: no rows: the file is empty" in err and "Traceback" not in err
    code, _, err = _run(capsys, "--input", str(path), "--on-error", "skip")
    assert code == 2 and "no rows" in err
    code, _, err = _run(capsys, "--preflight", "--data", str(path))
    assert code == 2 and "no rows" in err


def test_skip_with_every_row_bad_exits_2(tmp_path, capsys):
    """--on-error skip still exits 2 when not one row could be scored."""
    path = tmp_path / "rows.jsonl"
    path.write_text("not json\n" + json.dumps({"completion": "Paris"}) + "\n", encoding="utf-8")
    code, out, err = _run(capsys, "--input", str(path), "--on-error", "skip")
    assert code == 2 and "0 rows scored" in out and "no row could be scored" in err
