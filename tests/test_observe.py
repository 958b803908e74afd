"""The observation report: every exhibit number, metadata, honest response collection."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import rlvr
from rlvr import cli
from rlvr.observe import collect as observe_collect, exhibits as observe

TOL = 5e-7


def approx(x):
    return pytest.approx(x, abs=TOL)


@pytest.fixture(scope="module")
def report():
    return observe.build_report(now=dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.timezone.utc))


def _src_env() -> dict:
    return {**os.environ, "PYTHONPATH": str(Path(rlvr.__file__).parents[1])}


def test_metadata(report):
    meta = report["metadata"]
    assert meta["rlvr_version"] == rlvr.__version__
    assert meta["created_utc"] == "2026-01-02T03:04:05+00:00"
    assert meta["std_convention"] == "sample" and "G - 1" in meta["std_convention_detail"]


def test_sft_exhibit(report):
    out = report["exhibits"]["sft_cross_entropy"]["outputs"]
    # -ln 0.5, -ln 0.25, -ln 0.8 and their mean ln(10)/3
    assert out["per_token"] == [approx(0.693147), approx(1.386294), approx(0.223144)]
    assert out["mean"] == approx(0.767528)
    assert out["preset_mean"] == approx(0.223144)  # all 0.8: -ln 0.8


def test_bradley_terry_exhibit(report):
    ex = report["exhibits"]["bradley_terry"]
    rows = ex["outputs"]["rows"]
    # sigma(0), sigma(2), sigma(-2) and -ln of each
    assert [r["prob_v_preferred"] for r in rows] == [approx(0.5), approx(0.880797), approx(0.119203)]
    assert [r["loss_label_v_preferred"] for r in rows] == [approx(0.693147), approx(0.126928),
                                                           approx(2.126928)]
    assert ex["inputs"]["shift_added_to_both"] == 10
    assert ex["outputs"]["shift_changes_nothing"] is True
    assert all(r["prob_after_shift"] == approx(r["prob_v_preferred"]) for r in rows)


def test_ppo_exhibit(report):
    rows = report["exhibits"]["ppo_clip"]["outputs"]["rows"]
    # r = 0.3/0.2 = 1.5 and 0.1/0.2 = 0.5; A = +1 then -1
    assert [r["ratio"] for r in rows] == [approx(1.5), approx(0.5)] * 2
    assert [r["unclipped"] for r in rows] == [approx(1.5), approx(0.5), approx(-1.5), approx(-0.5)]
    assert [r["clipped"] for r in rows] == [approx(1.2), approx(0.8), approx(-1.2), approx(-0.8)]
    # min of each pair: 1.2, 0.5, -1.5, -0.8
    assert [r["objective"] for r in rows] == [approx(1.2), approx(0.5), approx(-1.5), approx(-0.8)]


def test_dpo_exhibit(report):
    rows = report["exhibits"]["dpo"]["outputs"]["rows"]
    favours_v, equal, favours_u = rows
    # ln(0.2/0.1) = ln 2, ln(0.1/0.2) = -ln 2, difference 2 ln 2, margin 0.5 * 2 ln 2 = ln 2
    assert (favours_v["log_ratio_v"], favours_v["log_ratio_u"]) == (approx(0.693147), approx(-0.693147))
    assert favours_v["log_ratio_difference"] == approx(1.386294)
    assert favours_v["margin"] == approx(0.693147)
    assert favours_v["preference_prob"] == approx(0.666667)  # 2/3
    assert favours_v["loss"] == approx(0.405465)  # ln 1.5
    assert equal["loss"] == approx(0.693147)  # ln 2
    # ln(0.05/0.1) - ln(0.4/0.2) = -2 ln 2; margin -ln 2; P = 1/3; loss ln 3
    assert favours_u["margin"] == approx(-0.693147)
    assert favours_u["preference_prob"] == approx(0.333333)
    assert favours_u["loss"] == approx(1.098612)


def test_grpo_exhibit(report):
    ex = report["exhibits"]["grpo_advantages"]
    cases = {c["label"]: c for c in ex["outputs"]["cases"]}
    mixed = cases["mixed group"]["outputs"]
    # mean (0+0+1+1)/4 = 0.5; sample variance 1/3; std 0.577350; A = +-0.5/0.577350
    assert mixed["mean"] == 0.5 and mixed["variance"] == pytest.approx(1 / 3)
    assert mixed["std"] == approx(0.577350)
    assert mixed["advantages"] == [approx(-0.866025)] * 2 + [approx(0.866025)] * 2
    assert [len(row) for row in mixed["per_token_advantages"]] == [2, 4, 6, 8]
    assert all(set(row) == {a} for row, a in zip(mixed["per_token_advantages"], mixed["advantages"]))
    # population std sqrt(1/4) = 0.5: A = +-1
    assert cases["mixed group, population std"]["outputs"]["advantages"] == [-1.0, -1.0, 1.0, 1.0]
    longer = cases["mixed group, last response 16 tokens"]["outputs"]
    assert longer["per_token_advantages"][3] == [mixed["advantages"][3]] * 16
    assert ex["outputs"]["length_change_changes_no_token_advantage"] is True
    one = cases["one success in four"]["outputs"]
    # mean 1/4; sample variance 0.75/3 = 0.25; std 0.5; A = -0.25/0.5, 0.75/0.5
    assert (one["mean"], one["std"]) == (0.25, approx(0.5))
    assert one["advantages"] == [approx(-0.5)] * 3 + [approx(1.5)]
    for label, rate in (("all solved", 1.0), ("none solved", 0.0)):
        out = cases[label]["outputs"]
        assert out["advantages"] == [0.0] * 4 and out["zero_variance"] is True
        assert out["success_rate"] == rate


def test_aggregation_exhibit(report):
    modes = {m["aggregation"]: m for m in report["exhibits"]["aggregation"]["outputs"]["modes"]}
    # (1/2)(2*1/2 - 8/8) = 0 ; (2 - 8)/10 = -0.6 ; (2 - 8)/(2*8) = -0.375
    assert modes["sequence-mean"]["loss"] == approx(0.0)
    assert modes["token-mean"]["loss"] == approx(-0.6)
    assert modes["dr-grpo"]["loss"] == approx(-0.375)
    assert modes["sequence-mean"]["token_weights"] == [[0.25] * 2, [0.0625] * 8]
    assert modes["token-mean"]["token_weights"] == [[0.1] * 2, [0.1] * 8]
    # the 8-token response carries half the weight under sequence-mean, 8/10 under token-mean
    assert modes["sequence-mean"]["response_weight_totals"] == [approx(0.5), approx(0.5)]
    assert modes["token-mean"]["response_weight_totals"] == [approx(0.2), approx(0.8)]
    assert {n: m["trl_loss_type"] for n, m in modes.items()} == {
        "sequence-mean": "grpo", "token-mean": "dapo", "dr-grpo": "dr_grpo"}


def test_safety_weighted_choice_exhibit(report):
    ex = report["exhibits"]["safety_weighted_choice"]
    assert "illustrative" in ex["inputs"]["values_are"]
    rows = ex["outputs"]["rows"]
    # w=0: 1.0 vs 0.5; w=1: 1 - 0.3 = 0.7 vs 0.5 - 0.05 = 0.45; w=3: 0.1 vs 0.35
    assert [r["risk_weight"] for r in rows] == [0.0, 1.0, 3.0]
    assert [r["scores"]["confident_unchecked"] for r in rows] == [approx(1.0), approx(0.7), approx(0.1)]
    assert [r["scores"]["check_official_notice"] for r in rows] == [approx(0.5), approx(0.45),
                                                                    approx(0.35)]
    assert [r["best"] for r in rows] == ["confident_unchecked"] * 2 + ["check_official_notice"]
    assert ex["outputs"]["flip_weight"] == approx(2.0)  # 0.5 / 0.25


def test_response_comparison_is_labelled_authored(report):
    rc = report["exhibits"]["response_comparison"]
    assert rc["responses"] and all("authored" in r["source"] and "not model output" in r["source"]
                                   for r in rc["responses"])


def test_collection_not_requested_invents_nothing(report):
    col = report["exhibits"]["actual_response_collection"]
    assert col["requested"] is False and col["models"] == []
    assert col["full_pair_comparable"] is False


def _assert_not_collected(record):
    assert record["collected"] is False and record["error"]
    for field in ("output_text", "output_token_ids", "num_output_tokens", "hit_token_limit",
                  "collected_utc", "generation_seconds"):
        assert record[field] is None, field


def test_missing_model_is_recorded_as_not_collected(tmp_path, capsys):
    missing = str(tmp_path / "no-such-model")
    out_file = tmp_path / "report.json"
    assert cli.main(["observe", "--output", str(out_file),
                     "--collect-responses", missing, missing + "+" + str(tmp_path / "adapter")]) == 0
    col = json.loads(out_file.read_text())["exhibits"]["actual_response_collection"]
    assert col["requested"] is True and col["full_pair_comparable"] is False
    for record in col["models"]:
        _assert_not_collected(record)
        assert "does not exist" in record["error"] or "No module named" in record["error"]
    assert col["models"][1]["adapter"] == str(tmp_path / "adapter")
    assert "NOT collected" in capsys.readouterr().out


def test_missing_torch_is_recorded_as_not_collected(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    col = observe_collect.collect_responses(["default", "default"], prompt=observe.PROMPT)
    for record in col["models"]:
        _assert_not_collected(record)
        assert record["error"].startswith(("ImportError", "ModuleNotFoundError"))
    assert col["full_pair_comparable"] is False


def test_generation_error_is_recorded_not_filled_in():
    pytest.importorskip("torch")

    def broken_loader(spec, adapter=None):
        raise RuntimeError("weights are corrupt")

    record = observe_collect.collect_one("default", prompt="hi", load=broken_loader)
    _assert_not_collected(record)
    assert record["error"] == "RuntimeError: weights are corrupt"


def test_observe_runs_without_torch_installed(tmp_path):
    # A meta-path finder that refuses torch and transformers stands in for "not installed".
    code = f"""
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split('.')[0] in ('torch', 'transformers'):
            raise ModuleNotFoundError(f"No module named {{name!r}}")
sys.meta_path.insert(0, Block())
from rlvr import cli
sys.exit(cli.main(['observe', '--output', {str(tmp_path / 'r.json')!r},
                   '--collect-responses', 'default', 'default']))
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_src_env(), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    col = report["exhibits"]["actual_response_collection"]
    for record in col["models"]:
        _assert_not_collected(record)
        assert "No module named 'torch'" in record["error"]
    assert report["exhibits"]["grpo_advantages"]["outputs"]["cases"][0]["outputs"]["std"] > 0


def test_command_modules_do_not_import_torch():
    code = ("import sys, rlvr.commands.calc, rlvr.commands.observe, rlvr.observe.exhibits, "
            "rlvr.observe.collect, rlvr.plots.observe; print('torch' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=_src_env(), check=True)
    assert done.stdout.strip() == "False"


def _tiny_model_dir(path: Path) -> Path:
    """Save a tiny random Llama and a word-level tokenizer as a local model folder."""
    torch = pytest.importorskip("torch")
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import LlamaConfig, LlamaForCausalLM, PreTrainedTokenizerFast

    words = "Our town issued a boil-water notice yesterday . Is the tap water safe to drink today ?"
    vocab = {"<pad>": 0, "<eos>": 1, "<unk>": 2, **{w: i + 3 for i, w in enumerate(dict.fromkeys(words.split()))}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>",
                            unk_token="<unk>").save_pretrained(path)
    torch.manual_seed(0)
    LlamaForCausalLM(LlamaConfig(vocab_size=len(vocab), hidden_size=16, intermediate_size=32,
                                 num_hidden_layers=1, num_attention_heads=2, num_key_value_heads=2,
                                 pad_token_id=0, eos_token_id=99, bos_token_id=1)).save_pretrained(path)
    return path


def test_collection_from_local_model_records_real_outputs(tmp_path):
    folder = str(_tiny_model_dir(tmp_path / "tiny"))
    col = observe_collect.collect_responses([folder, folder], prompt=observe.PROMPT)
    first, second = col["models"]
    for record in col["models"]:
        assert record["collected"] is True and record["error"] is None
        assert record["model_id"] == folder
        assert len(record["weights_sha256"]) == 64
        assert record["decoding"]["max_new_tokens"] == 24 and record["decoding"]["do_sample"] is False
        # eos id 99 is outside the vocabulary, so greedy decoding runs to the token limit
        assert record["num_output_tokens"] == 24 and record["hit_token_limit"] is True
        assert len(record["output_token_ids"]) == 24 and record["generation_seconds"] > 0
        assert record["output_text"] is not None
    # same model, same input, greedy: identical outputs, and the pair is comparable
    assert first["output_token_ids"] == second["output_token_ids"]
    assert first["context_sha256"] == second["context_sha256"]
    assert col["full_pair_comparable"] is True


def test_pair_with_one_failure_is_not_comparable(tmp_path):
    folder = str(_tiny_model_dir(tmp_path / "tiny"))
    col = observe_collect.collect_responses([folder, str(tmp_path / "missing")], prompt="Is the water safe ?")
    assert col["models"][0]["collected"] is True
    _assert_not_collected(col["models"][1])
    assert col["full_pair_comparable"] is False


def test_weights_hash_depends_on_content(tmp_path):
    (tmp_path / "a.safetensors").write_bytes(b"one")
    first = observe_collect.weights_sha256(tmp_path)
    (tmp_path / "a.safetensors").write_bytes(b"two")
    assert observe_collect.weights_sha256(tmp_path) != first
    assert observe_collect.weights_sha256(tmp_path / "empty") is None


def test_write_report_is_atomic(tmp_path, report):
    path = tmp_path / "obs.json"
    observe.write_report(report, path)
    before = path.read_text()
    assert json.loads(before)["metadata"]["schema"] == observe.REPORT_SCHEMA
    with pytest.raises(TypeError):  # not JSON-serialisable: fails half-way through writing
        observe.write_report({"metadata": report["metadata"], "bad": object()}, path)
    assert path.read_text() == before  # the old report is intact
    assert [p.name for p in tmp_path.iterdir()] == ["obs.json"]  # no temp file left behind


def test_observe_prints_tables_and_uses_default_name(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["observe"]) == 0
    printed = capsys.readouterr().out
    assert (tmp_path / observe.DEFAULT_OUTPUT).is_file()
    for text in ("0.767528", "2.126928", "-0.800000", "1.098612", "-0.866025", "-0.600000",
                 "check_official_notice", "not requested"):
        assert text in printed


def test_plot_without_matplotlib_says_how_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code = cli.main(["observe", "--output", str(tmp_path / "r.json"), "--plot", str(tmp_path / "p")])
    assert code == 2
    assert "pip install matplotlib" in capsys.readouterr().err


def test_plot_writes_pngs(tmp_path, report):
    pytest.importorskip("matplotlib")
    from rlvr.plots.observe import write_plots

    paths = write_plots(report, tmp_path / "plots")
    assert [p.name for p in paths] == ["advantage_broadcast.png", "aggregation_weights.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in paths)


@pytest.mark.slow
def test_collect_default_model_records_real_outputs(tmp_path):
    pytest.importorskip("torch")
    report = observe.build_report(collect_specs=["default", "default"])
    col = report["exhibits"]["actual_response_collection"]
    for record in col["models"]:
        if not record["collected"]:
            pytest.fail(f"default model not collected: {record['error']}")
        assert record["output_token_ids"] and record["weights_sha256"]
        assert 0 < record["num_output_tokens"] <= 24
    assert col["models"][0]["output_text"] == col["models"][1]["output_text"]  # greedy
    assert col["full_pair_comparable"] is True
