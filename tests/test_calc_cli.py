"""`rlvr calc`: each formula prints its result and the formula with the numbers filled in."""

from __future__ import annotations

import json

import pytest

from rlvr import cli


def run(capsys, *argv):
    code = cli.main(["calc", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys, *argv):
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0
    return json.loads(out)


def test_advantages_text(capsys):
    code, out, _ = run(capsys, "advantages", "0", "0", "1", "1", "--lengths", "2", "4", "6", "8")
    assert code == 0
    assert "mean = (0 + 0 + 1 + 1) / 4 = 0.500000" in out
    # sqrt((4 * 0.25) / 3) = 0.577350
    assert "/ 3) = 0.577350" in out
    assert "A_1 = (0 - 0.500000) / 0.577350 = -0.866025" in out
    assert "advantages = [-0.866025, -0.866025, 0.866025, 0.866025]" in out
    assert "response 4 (8 tokens): [" + ", ".join(["0.866025"] * 8) + "]" in out


def test_advantages_json_population_and_none(capsys):
    data = run_json(capsys, "advantages", "0", "0", "1", "1", "--std", "population")
    assert data["formula"] == "advantages"
    assert data["result"]["advantages"] == [-1.0, -1.0, 1.0, 1.0]  # +-0.5 / 0.5
    data = run_json(capsys, "advantages", "0", "none", "1")
    # scored [0, 1]: mean 0.5, std sqrt(0.5); None gets 0
    assert data["result"]["advantages"] == [pytest.approx(-0.707107, abs=5e-7), 0.0,
                                            pytest.approx(0.707107, abs=5e-7)]
    assert data["result"]["num_unscored"] == 1


def test_advantages_zero_variance(capsys):
    code, out, _ = run(capsys, "advantages", "1", "1", "1", "1")
    assert code == 0 and "zero variance" in out
    assert "advantages = [0.000000, 0.000000, 0.000000, 0.000000]" in out


def test_ppo_rows(capsys):
    data = run_json(capsys, "ppo", "--old-prob", "0.2", "--new-prob", "0.3", "0.1",
                    "--advantage", "1", "-1")
    # min(1.5, 1.2), min(0.5, 0.8), min(-1.5, -1.2), min(-0.5, -0.8)
    assert [r["objective"] for r in data["result"]["rows"]] == pytest.approx([1.2, 0.5, -1.5, -0.8])
    assert [r["is_clipped"] for r in data["result"]["rows"]] == [True, False, False, True]
    code, out, _ = run(capsys, "ppo", "--ratio", "1.5", "--advantage", "1", "--epsilon-high", "0.28")
    # clip(1.5, 0.8, 1.28) * 1 = 1.28
    assert "clip(r, 1 - 0.2, 1 + 0.28)" in out and "J = min = 1.280000" in out


def test_dpo(capsys):
    code, out, _ = run(capsys, "dpo", "--policy-chosen", "0.2", "--policy-rejected", "0.1",
                       "--ref-chosen", "0.1", "--ref-rejected", "0.2", "--beta", "0.5")
    assert code == 0
    assert "log-ratio chosen = ln(0.2 / 0.1) = 0.693147" in out
    assert "margin = 0.5 * (0.693147 - (-0.693147)) = 0.5 * 1.386294 = 0.693147" in out
    assert "sigmoid(0.693147) = 0.666667" in out and "= 0.405465" in out
    # the same pair as log-probabilities: ln 0.05, ln 0.4, ln 0.1, ln 0.2 -> loss ln 3
    data = run_json(capsys, "dpo", "--logprobs", "--policy-chosen", "-2.995732",
                    "--policy-rejected", "-0.916291", "--ref-chosen", "-2.302585",
                    "--ref-rejected", "-1.609438", "--beta", "0.5")
    assert data["result"]["loss"] == pytest.approx(1.098612, abs=1e-5)


def test_bt(capsys):
    code, out, _ = run(capsys, "bt", "--score-chosen", "12", "--score-rejected", "10")
    # sigma(12 - 10) = sigma(2) = 0.880797 ; -ln 0.880797 = 0.126928
    assert "sigmoid(12 - 10) = sigmoid(2.000000) = 0.880797" in out
    assert "loss = -ln P = 0.126928" in out


def test_ce(capsys):
    code, out, _ = run(capsys, "ce", "0.5", "0.25", "0.8")
    assert "CE_2 = -ln 0.25 = 1.386294" in out
    assert "mean = (0.693147 + 1.386294 + 0.223144) / 3 = 0.767528" in out
    data = run_json(capsys, "ce", "--logits", "2", "1", "0.1", "--target-id", "0")
    # logsumexp(2, 1, 0.1) = ln(7.389056 + 2.718282 + 1.105171) = ln 11.212509 = 2.417030; - 2
    assert data["result"]["mean"] == pytest.approx(0.417030, abs=5e-7)


def test_aggregate(capsys):
    code, out, _ = run(capsys, "aggregate", "--lengths", "2", "8", "--values", "1", "-1")
    assert code == 0
    assert "= (1/2) * (2*1/2 + 8*(-1)/8) = 0.000000" in out
    assert "= (2*1 + 8*(-1)) / (2 + 8) = -0.600000" in out
    assert "= (2*1 + 8*(-1)) / (2 * 8) = -0.375000" in out
    assert "TRL loss_type 'grpo'" in out and "TRL loss_type 'dapo'" in out
    data = run_json(capsys, "aggregate", "--lengths", "2", "8", "--values", "1", "-1",
                    "--aggregation", "token-mean")
    (mode,) = data["result"]["modes"]
    assert mode["loss"] == pytest.approx(-0.6) and mode["token_weights"][0] == [0.1, 0.1]


def test_kl_and_passk(capsys):
    code, out, _ = run(capsys, "kl", "--policy-prob", "0.5", "--ref-prob", "0.25")
    # d = ln 0.25 - ln 0.5 = -0.693147 ; e^d - d - 1 = 0.5 + 0.693147 - 1 = 0.193147
    assert "d = ln 0.25 - ln 0.5 = -0.693147" in out and out.rstrip().endswith("0.193147")
    data = run_json(capsys, "passk", "-n", "10", "-c", "3", "-k", "1", "5")
    # 1 - 7/10 ; 1 - 21/252
    assert data["result"]["pass_at_k"] == {"1": pytest.approx(0.3), "5": pytest.approx(0.916667, abs=5e-7)}


@pytest.mark.parametrize("argv, message", [
    (["passk", "-n", "3", "-c", "5", "-k", "1"], "num_correct = 5 cannot exceed num_samples = 3"),
    (["ce", "0"], "target_probs[0] must be a probability"),
    (["aggregate", "--lengths", "2", "8", "--values", "1", "-1", "--aggregation", "tokenmean"],
     "did you mean 'token-mean'"),
    (["ppo", "--new-prob", "0.3", "--advantage", "1"], "--new-prob needs --old-prob"),
    (["advantages", "0", "nan"], "use None"),
])
def test_user_errors_exit_2_with_one_message(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("rlvr calc: error: ") and message in err and "Traceback" not in err
