"""Registry additions, weighted TRL rewards, `rlvr score --preflight` on the v3 split."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from rlvr.rewards.answers import contains_word

from rlvr.cli import main
from rlvr.errors import RlvrError
from rlvr.rewards import REWARDS, get_reward, make_trl_rewards, score_rows
from rlvr.rewards.preflight import format_preflight, preflight

BUILT_IN = ["abstention", "code", "cosine_scaled", "gsm8k_correctness", "gsm8k_format",
            "llm_judge", "math", "qa", "repetition_penalty", "selfaware", "soft_overlong",
            "think_format"]


def test_registry_lists_every_reward_and_its_range():
    assert sorted(REWARDS) == BUILT_IN
    for name in BUILT_IN:
        low, high = get_reward(name).score_range
        assert low < high
    with pytest.raises(RlvrError, match="known rewards: abstention, code, .*Did you mean 'math'"):
        get_reward("maths")


def test_make_trl_rewards_weights_and_log_names():
    funcs, weights = make_trl_rewards([
        {"name": "gsm8k_correctness", "weight": 1.0},
        {"name": "gsm8k_format", "weight": 0.5},
        {"name": "selfaware", "preset": "seed", "log_name": "selfaware_seed"},
        {"name": "selfaware", "preset": "strict", "params": {"hedge_correct": 0.25}},
    ])
    assert [f.__name__ for f in funcs] == ["gsm8k_correctness", "gsm8k_format",
                                          "selfaware_seed", "selfaware"]
    assert weights == [1.0, 0.5, 1.0, 1.0]
    # the params override reaches the core: a right hedge earns 0.25 instead of 0.5
    hedge = ["I'm not sure, but it is Paris."]
    assert funcs[3](hedge, expected_answer=["Paris"], is_unanswerable=[False]) == [0.25]
    assert funcs[2](hedge, expected_answer=["Paris"], is_unanswerable=[False]) == [1.0]


@pytest.mark.parametrize("entries,message", [
    ([{"preset": "seed"}], "needs a 'name'"),
    ([{"name": "qa", "wieght": 2}], "unknown key"),
    ([{"name": "selfaware"}, {"name": "selfaware", "preset": "strict"}], "distinct 'log_name'"),
])
def test_make_trl_rewards_errors(entries, message):
    with pytest.raises(RlvrError, match=message):
        make_trl_rewards(entries)


def test_required_any_field():
    # qa needs `aliases` or `answer`; the error names both
    with pytest.raises(RlvrError, match=r"aliases\|answer"):
        score_rows("qa", [{"completion": "x"}])
    assert score_rows("qa", [{"completion": "x", "answer": "x"}])[0].score == 1.0


@pytest.fixture(scope="module")
def v3_test(tmp_path_factory, selfaware_json):
    out = tmp_path_factory.mktemp("v3")
    assert main(["data", "selfaware", "--source", str(selfaware_json), "--variant", "v3",
                 "--output-dir", str(out)]) == 0
    return [json.loads(line) for line in (out / "test.jsonl").open()], out / "test.jsonl"


def test_preflight_seed_flags_the_hedge_loophole(v3_test):
    rows, _ = v3_test
    n_un = sum(r["is_unanswerable"] for r in rows)
    n_ans = len(rows) - n_un
    report = preflight("selfaware", rows, "seed")
    by_name = {p.policy: p for p in report.policies}
    # the gold answers reach the maximum on every row
    assert by_name["gold"].mean == 1.0 and by_name["gold"].at_max == len(rows)
    # hedging the gold answer everywhere scores the maximum too under seed
    assert by_name["always_hedge"].mean == 1.0
    assert any("always_hedge" in w for w in report.warnings())
    # empty responses: -1 on every row
    assert by_name["empty"].mean == -1.0
    # always abstain: +1 per unanswerable row, -0.5 per answerable row, except answers
    # found in "i don't know." on word boundaries (seed matches words), which count +1
    inside = sum(1 for r in rows if not r["is_unanswerable"]
                 and any(contains_word("i don't know.", a.lower()) for a in r["answers"]))
    expected = (n_un + inside - 0.5 * (n_ans - inside)) / len(rows)
    assert by_name["always_abstain"].mean == pytest.approx(expected)
    # the reference preset matches substrings, as the reference project does
    reference = {p.policy: p for p in preflight("selfaware", rows, "reference").policies}
    substr = sum(1 for r in rows if not r["is_unanswerable"]
                 and any(a.lower() in "i don't know." for a in r["answers"]))
    expected = (n_un + substr - 0.5 * (n_ans - substr)) / len(rows)
    assert reference["always_abstain"].mean == pytest.approx(expected)


def test_preflight_strict_separates_hedging(v3_test):
    rows, _ = v3_test
    n_un = sum(r["is_unanswerable"] for r in rows)
    report = preflight("selfaware", rows, "strict")
    by_name = {p.policy: p for p in report.policies}
    assert by_name["gold"].mean == 1.0 and by_name["gold"].at_max == len(rows)
    # always abstain: exactly +1 per unanswerable row and -0.5 per answerable row
    assert by_name["always_abstain"].mean == pytest.approx(
        (n_un - 0.5 * (len(rows) - n_un)) / len(rows))
    # a hedge earns at most 0.5 on answerable rows and -0.5 on unanswerable ones
    assert by_name["always_hedge"].mean <= (0.5 * (len(rows) - n_un) - 0.5 * n_un) / len(rows)
    assert report.warnings() == []
    assert "no degenerate policy comes within 0.2 of gold" in format_preflight(report)


def test_preflight_cli(v3_test, capsys):
    _, path = v3_test
    assert main(["score", "--preflight", "--reward", "selfaware", "--preset", "seed",
                 "--data", str(path)]) == 0
    out = capsys.readouterr().out
    assert "always_hedge" in out and "scores +1.0000" in out
    assert 'WARNING: always_hedge ("I\'m not sure, but I think it is' in out  # its text
    with pytest.raises(SystemExit):
        main(["score", "--preflight"])  # --reward is required
    assert main(["score", "--reward", "selfaware", "--preflight"]) == 2  # no --data


def test_score_cli_params_and_no_torch(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"completion": "It costs $29.00.", "final_answer": "29"}) + "\n")
    # the fallback switched on from the command line; neither command imports torch
    code = ("import sys; from rlvr.cli import main; "
            "main(['score', '--reward', 'gsm8k_correctness', '--param', 'fallback=true', "
            f"'--input', {str(src)!r}]); "
            f"main(['score', '--preflight', '--reward', 'gsm8k_format', '--data', {str(src)!r}]); "
            "assert 'torch' not in sys.modules, 'torch imported'")
    done = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    assert "correct_fallback" in done.stdout and "preflight: gsm8k_format" in done.stdout


def test_list_candidates_policy_is_caught_by_seed_and_strict_not_by_reference():
    from rlvr.rewards.preflight import preflight

    rows = [{"question": "What is the capital of France?", "expected_answer": "Paris",
             "is_unanswerable": False},
            {"question": "What is 2 + 2?", "expected_answer": "4", "is_unanswerable": False}]
    means = {preset: {p.policy: p.mean for p in preflight("selfaware", rows, preset).policies}
             for preset in ("reference", "seed", "strict")}
    # "London, Paris or Mars." and "3, 4 or 5." contain the gold: the reference matcher
    # pays +1 (= gold); seed and strict give -1 (a list is not an answer: listing candidates
    # was a way to be paid without answering)
    assert means["reference"]["list_candidates"] == 1.0
    assert means["seed"]["list_candidates"] == -1.0 and means["strict"]["list_candidates"] == -1.0


from hypothesis import given, settings
from hypothesis import strategies as st


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(-1, 0.5), st.integers(0, 20)), min_size=1, max_size=6))
def test_a_policy_paid_on_some_rows_is_flagged_apart_and_never_refused(others):
    """Every generated report: a policy below gold on average but matching gold on k > 0 rows
    is in `partial()` with k named, and only a mean near gold enters `warnings()` (the
    refusal); a policy with no matching rows is never in `partial()`."""
    from rlvr.rewards.preflight import PolicyScore, PreflightReport

    gold = PolicyScore("gold", 1.0, 20, 0, example="gold")
    policies = [PolicyScore(f"p{i}", mean, 20, 0, example=f"r{i}", matches=k,
                            match_example=f"q{i}") for i, (mean, k) in enumerate(others)]
    report = PreflightReport("r", None, 20, (-1.0, 1.0), 0.1, [gold, *policies])
    partial, warnings = report.partial(), report.warnings()
    for p in policies:
        flagged = [n for n in partial if n.startswith(f"{p.policy} (")]
        assert bool(flagged) == (p.matches > 0)
        if flagged:
            assert f"on {p.matches} of 20 rows (e.g. the row 'q" in flagged[0]
        # means here stay >= 0.5 below gold (1.0), outside the 0.2 margin: never refused
        assert not [w for w in warnings if w.startswith(f"{p.policy} (")]
