"""Knowledge lost or willingness lost: the gold's rank among other rows' gold
answers and the abstention's preference, per model, with paired intervals. Hand-computed
ranks, shares and intervals on made-up scores (no model); the shared-prefix scorer against
full passes on a tiny random Llama; the whole check end to end on `tiny_chat_llama`."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from rlvr.eval import cross_check
from rlvr.eval.cross_check import (ABSTENTION, choice_figures, pick_candidates, read_group,
                                   share_summary)
from rlvr.eval.cross_check_table import READING_RULE, SIZE_NOTE, cross_check_table
from rlvr.eval.likelihood import gold_rank
from rlvr.tasks.registry import get_task
from rlvr.tasks.sources import DataResolver

sys.path.insert(0, str(Path(__file__).resolve().parent))

PACKAGED = DataResolver("packaged")


# --- pure arithmetic ---------------------------------------------------------------------------

def test_gold_rank_counts_higher_scores_and_earlier_ties():
    scores = [-1.0, -0.5, -2.0]
    assert gold_rank(scores, 1) == 1  # -0.5 is the highest
    assert gold_rank(scores, 0) == 2  # -0.5 above -1.0
    assert gold_rank(scores, 2) == 3  # both above -2.0
    # a tie goes to the earlier choice, as np.argmax: [-1, -1] ranks index 0 first
    assert gold_rank([-1.0, -1.0], 0) == 1 and gold_rank([-1.0, -1.0], 1) == 2
    assert gold_rank([-1.0, -3.0, -1.0], 2) == 2  # the tied earlier one, not the lower one
    with pytest.raises(IndexError, match="gold index 3 outside 3 choices"):
        gold_rank(scores, 3)


def test_share_summary_and_its_paired_interval():
    # base 1, 1, 0, 0 -> 0.5; trained 1, 0, 0, 0 -> 0.25; differences 0, -1, 0, 0: -0.25.
    # A resample of 4 rows averages -k/4, k ~ Binomial(4, 1/4) rows of -1:
    # P(k = 0) = (3/4)^4 = 0.316 > 2.5%, so the upper bound is 0;
    # P(k >= 3) = 4 (1/4)^3 (3/4) + (1/4)^4 = 0.047 + 0.004 = 0.051 > 2.5% and
    # P(k = 4) = 0.004 < 2.5%, so the lower bound is -3/4
    out = share_summary([True, True, False, False], [True, False, False, False], 2000, 0)
    assert (out["n"], out["base"], out["trained"]) == (4, 0.5, 0.25)
    d = out["difference"]
    assert d["mean_difference"] == -0.25
    assert (d["ci_low"], d["ci_high"]) == (-0.75, 0.0)
    with pytest.raises(ValueError, match="no questions"):
        share_summary([], [], 100, 0)


def _row(rank, candidates, score, abstention):
    return {"rank": rank, "candidates": candidates, "score": score, "abstention": abstention,
            "gold": {}}


def test_choice_figures_from_made_up_rows():
    # ranks base 1, 2, 1, 3 (2 of 4 first: 0.5), trained 2, 2, 1, 3 (1 of 4: 0.25): -0.25;
    # mean rank base (1+2+1+3)/4 = 1.75, trained (2+2+1+3)/4 = 2.0; candidates 5, 5, 5, 3:
    # chance (1/5 + 1/5 + 1/5 + 1/3) / 4 = (0.6 + 0.3333) / 4 = 0.23333
    # abstention above the gold (strictly): base (-1, -2) no, (-3, -1) yes, (-2, -2) tie = no,
    # (-0.5, -4) no: 1/4; trained (-1.5, -1) yes, (-3.5, -0.9) yes, (-2, -2.5) no,
    # (-0.6, -3) no: 2/4; +0.25. Margins abstention - gold: base -1, +2, 0, -3.5, mean
    # -2.5/4 = -0.625; trained +0.5, +2.6, -0.5, -2.4, mean 0.2/4 = 0.05; difference +0.675
    base = [_row(1, 5, -1.0, -2.0), _row(2, 5, -3.0, -1.0), _row(1, 5, -2.0, -2.0),
            _row(3, 3, -0.5, -4.0)]
    trained = [_row(2, 5, -1.5, -1.0), _row(2, 5, -3.5, -0.9), _row(1, 5, -2.0, -2.5),
               _row(3, 3, -0.6, -3.0)]
    out = choice_figures(base, trained, 500, 0, ABSTENTION)
    r = out["ranking"]
    assert (r["n"], r["base"], r["trained"], r["candidates"]) == (4, 0.5, 0.25, 5)
    assert r["difference"]["mean_difference"] == -0.25
    assert r["chance"] == pytest.approx(0.233333, abs=1e-6)
    assert r["mean_rank"] == {"base": 1.75, "trained": 2.0}
    a = out["abstention"]
    assert (a["continuation"], a["base"], a["trained"]) == (ABSTENTION, 0.25, 0.5)
    assert a["difference"]["mean_difference"] == 0.25
    assert a["margin"]["base"] == pytest.approx(-0.625)
    assert a["margin"]["trained"] == pytest.approx(0.05)
    assert a["margin"]["difference"]["mean_difference"] == pytest.approx(0.675)
    # rows without distractors are left out of the ranking; no abstention text, no figure
    lone = [_row(None, 1, -1.0, None)]
    assert choice_figures(lone, lone, 100, 0, None) == {"ranking": None, "abstention": None}


def test_read_group_ranks_the_gold_and_compares_the_abstention():
    # candidates "a", "bb", "ccc" (gold at index 1), then the abstention. Per token:
    # -1.0, -0.5, -0.7 -> the gold -0.5 is first; the abstention -0.4 > -0.5: above the gold.
    # Summed (tokens 1, 4, 2, 5): -1.0, -2.0, -1.4, -2.0 -> the gold is 3rd of 3, and the
    # abstention's -2.0 is not strictly above the gold's -2.0
    def rec(mean, tokens):
        return {"mean_logprob": mean, "sum_logprob": mean * tokens, "num_tokens": tokens}

    group = {"candidates": ["a", "bb", "ccc"], "gold": 1,
             "continuations": ["a", "bb", "ccc", ABSTENTION]}
    records = [rec(-1.0, 1), rec(-0.5, 4), rec(-0.7, 2), rec(-0.4, 5)]
    by_token = read_group(group, records, "token")
    assert (by_token["rank"], by_token["candidates"], by_token["score"]) == (1, 3, -0.5)
    assert by_token["abstention"] == -0.4 and by_token["gold"] is records[1]
    by_sum = read_group(group, records, "none")
    assert (by_sum["rank"], by_sum["score"], by_sum["abstention"]) == (3, -2.0, -2.0)
    alone = read_group({"candidates": ["a"], "gold": 0, "continuations": ["a"]}, records[:1],
                       "token")
    assert alone["rank"] is None and alone["abstention"] is None


def test_candidates_never_repeat_the_gold_or_its_aliases_and_are_seeded():
    pool = ["Paris", "Lyon", "Hat", "Nice", "Titfer", "Rome", "Oslo"]
    seen_positions = set()
    for i in range(40):
        candidates, at = pick_candidates("hat ", pool, 4, f"0:triviaqa:{i}", ["Titfer"])
        assert len(candidates) == 5 and candidates[at] == "hat "
        others = candidates[:at] + candidates[at + 1:]
        assert not {"Hat", "Titfer"} & set(others) and len(set(others)) == 4
        assert (candidates, at) == pick_candidates("hat ", pool, 4, f"0:triviaqa:{i}",
                                                   ["Titfer"])
        seen_positions.add(at)
    assert seen_positions == {0, 1, 2, 3, 4}  # the gold is not always in one place
    # a short pool gives fewer candidates; no distractors asked, the gold alone
    assert len(pick_candidates("Hat", pool, 10, "k", ["Titfer"])[0]) == 6
    assert pick_candidates("Hat", pool, 0, "k") == (["Hat"], 0)


def test_per_task_settings_take_the_task_then_default_then_fallback():
    assert cross_check.per_task(7, "gsm8k", 0) == 7
    assert cross_check.per_task(None, "gsm8k", 10) is None
    assert cross_check.per_task({"triviaqa": 4}, "triviaqa", 0) == 4
    assert cross_check.per_task({"triviaqa": 4}, "gsm8k", 0) == 0
    assert cross_check.per_task({"triviaqa": 4, "default": 2}, "mbpp", 0) == 2


def test_the_abstention_text_is_what_the_reward_counts_as_abstaining():
    from rlvr.rewards.abstention_detection import is_abstention

    assert is_abstention(ABSTENTION)


def test_table_shows_rank_and_abstention_with_the_reading_rule():
    diff = {"mean_difference": -0.1, "ci_low": -0.3, "ci_high": 0.1}
    check = {"meta": {"ranking": {"normalise": "token"}}, "skipped": {}, "tasks": {"triviaqa": {
        "n": 10, "continuation": "the first gold answer", "base": -2.5, "trained": -2.66,
        "difference": {"mean_difference": -0.16, "ci_low": -0.22, "ci_high": -0.1},
        "ranking": {"candidates": 5, "base": 0.6, "trained": 0.5, "difference": diff},
        "abstention": {"continuation": ABSTENTION, "base": 0.2, "trained": 0.7,
                       "difference": {"mean_difference": 0.5, "ci_low": 0.2, "ci_high": 0.8},
                       "margin": {"base": 1.5, "trained": 2.0, "difference": {
                           "mean_difference": 0.5, "ci_low": 0.25, "ci_high": 0.75}}}}}}
    lines = cross_check_table(check).splitlines()
    # the size of the change: exp(-0.16) = 0.852, each gold token 15% less likely
    assert lines[2] == ("| triviaqa | 10 | the first gold answer | -2.5000 | -2.6600 | -0.1600 "
                        "[-0.2200, -0.1000] | 0.852 |")
    assert lines[4] == SIZE_NOTE
    lines = lines[2:]  # the note and its blank line come before the ranking table
    assert lines[6].startswith("| task | n | candidates | gold ranked 1st: base |")
    assert lines[8] == ("| triviaqa | 10 | 5 | 0.600 | 0.500 | -0.100 [-0.300, +0.100] | "
                        "0.200 | 0.700 | +0.500 [+0.200, +0.800] | +0.500 [+0.250, +0.750] |")
    assert lines[6].count("|") == lines[7].count("|") == lines[8].count("|") == 11
    assert lines[-1] == READING_RULE and "willingness lost, not knowledge" in READING_RULE
    check["tasks"]["triviaqa"]["ranking"] = None  # no distractors: dashes, the rest stays
    assert "| triviaqa | 10 | - | - | - | - | 0.200 |" in cross_check_table(check)


# --- the shared-prefix scorer on a real (tiny, random) model -----------------------------------

def test_shared_prefix_equals_full_passes_and_reads_fewer_tokens():
    from rlvr.eval.likelihood import score_groups
    from tiny_models import tiny_llama

    model, tok = tiny_llama()
    groups = [("w1 w2 w3 w4 w5 w6", [" w7", " w8 w9 w10", " w11 w12", " w7 w7 w7 w7"]),
              ("w3 w3", [" w1"]), ("w9 w8 w7", [" w1 w2", " w3"])]
    read = []
    hook = model.register_forward_pre_hook(
        lambda _, args, kwargs: read.append(kwargs["input_ids"].numel()), with_kwargs=True)
    shared = score_groups(model, tok, groups, batch_size=3)
    shared_tokens, read[:] = sum(read), []
    full = score_groups(model, tok, groups, batch_size=3, share_prefix=False)
    hook.remove()
    assert shared_tokens < sum(read)  # the 6-token context went through once, not 4 times
    for s_recs, f_recs in zip(shared, full):
        assert [r["num_tokens"] for r in s_recs] == [r["num_tokens"] for r in f_recs]
        for s, f in zip(s_recs, f_recs):
            assert s["sum_logprob"] == pytest.approx(f["sum_logprob"], abs=1e-5)
            assert math.isfinite(s["sum_logprob"]) and s["sum_logprob"] < 0
    assert [len(r) for r in shared] == [4, 1, 2]
    # a length limit of 8 cuts the 6-token context from the left by 0, 1, 0, 2 tokens for
    # continuations of 1, 3, 2, 4 tokens: three different prefixes, still exact
    cut = score_groups(model, tok, groups[:1], max_length=8)
    cut_full = score_groups(model, tok, groups[:1], max_length=8, share_prefix=False)
    assert [r["truncated_tokens"] for r in cut[0]] == [0, 1, 0, 2]
    assert [r["sum_logprob"] for r in cut[0]] == pytest.approx(
        [r["sum_logprob"] for r in cut_full[0]], abs=1e-5)


def test_end_to_end_on_a_tiny_chat_model_identity_then_moved_adapter(tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model

    from rlvr.eval.likelihood import continuation_logprobs
    from tiny_models import tiny_chat_llama

    model, tok = tiny_chat_llama()
    peft = get_peft_model(model, LoraConfig(r=2, lora_alpha=2, target_modules=["q_proj",
                                                                              "v_proj"]))
    check = cross_check.likelihood_check(None, peft, tok, ["triviaqa", "gsm8k"], limit=3,
                                         seed=0, bootstrap_samples=200, resolver=PACKAGED,
                                         rows_file=tmp_path / "rows.jsonl",
                                         distractors={"default": 4})
    assert not check["skipped"]
    assert check["meta"]["ranking"] == {"distractors": {"triviaqa": 4, "gsm8k": 4},
                                        "abstention": ABSTENTION, "normalise": "token"}
    for r in check["tasks"].values():  # LoRA B = 0: trained is the base, exactly
        assert r["ranking"]["n"] == 3 and r["ranking"]["candidates"] == 5
        assert r["ranking"]["chance"] == pytest.approx(0.2)
        assert r["ranking"]["base"] == r["ranking"]["trained"]
        assert r["ranking"]["difference"]["mean_difference"] == 0.0
        assert r["abstention"]["base"] == r["abstention"]["trained"]
        assert r["abstention"]["difference"]["mean_difference"] == 0.0
    rows = [json.loads(line) for line in (tmp_path / "rows.jsonl").read_text().splitlines()]
    assert len(rows) == 6 and all(1 <= row["base_rank"] <= 5 for row in rows)
    assert all(row["candidates"] == 5 and row["base_abstention"] < 0 for row in rows)
    # the gold figure is the one a full pass of the gold alone gives
    loaded, _, _, _ = cross_check.load_check_rows(["triviaqa"], 3, 0, PACKAGED)
    alone = continuation_logprobs(peft.get_base_model(), tok, [
        (get_task("triviaqa").build_prompt(row), row["answer"])
        for row in loaded["triviaqa"]])
    assert [row["base_mean_logprob"] for row in rows if row["task"] == "triviaqa"] == \
        pytest.approx([a["mean_logprob"] for a in alone], abs=1e-5)
    table = cross_check_table(check)
    assert "| triviaqa | 3 | 5 |" in table and table.endswith(READING_RULE)
    with torch.no_grad():
        for name, param in peft.named_parameters():
            if "lora_B" in name:
                param.normal_(0, 1.0, generator=torch.Generator().manual_seed(0))
    moved = cross_check.likelihood_check(None, peft, tok, ["triviaqa"], limit=3, seed=0,
                                         bootstrap_samples=200, resolver=PACKAGED)
    t = moved["tasks"]["triviaqa"]
    assert t["ranking"]["base"] == check["tasks"]["triviaqa"]["ranking"]["base"]
    assert t["abstention"]["margin"]["trained"] != pytest.approx(
        t["abstention"]["margin"]["base"], abs=1e-4)
    assert t["abstention"]["margin"]["difference"]["mean_difference"] == pytest.approx(
        t["abstention"]["margin"]["trained"] - t["abstention"]["margin"]["base"])
    off = cross_check.likelihood_check(None, peft, tok, ["triviaqa"], limit=3, seed=0,
                                       bootstrap_samples=200, resolver=PACKAGED,
                                       distractors=0, abstention=None)
    assert off["tasks"]["triviaqa"]["ranking"] is None
    assert off["tasks"]["triviaqa"]["abstention"] is None
    assert off["tasks"]["triviaqa"]["base"] == pytest.approx(t["base"], abs=1e-5)
    # the default ranks TriviaQA only; a per-task limit draws that many rows of that task
    default = cross_check.likelihood_check(None, peft, tok, ["triviaqa", "gsm8k"],
                                           limit={"default": 2, "triviaqa": 3}, seed=0,
                                           bootstrap_samples=200, resolver=PACKAGED)
    assert default["meta"]["ranking"]["distractors"] == {"triviaqa": 4, "gsm8k": 0}
    assert default["meta"]["limit"] == {"triviaqa": 3, "gsm8k": 2}
    assert default["tasks"]["gsm8k"]["ranking"] is None and default["tasks"]["gsm8k"]["n"] == 2
    assert default["tasks"]["triviaqa"]["ranking"]["base"] == \
        check["tasks"]["triviaqa"]["ranking"]["base"]
    with pytest.raises(ValueError, match="normalise must be one of"):
        cross_check.likelihood_check(None, peft, tok, ["triviaqa"], limit=1,
                                     resolver=PACKAGED, normalise="words")


def test_shared_prefix_batches_bound_their_padding():
    from rlvr.eval.likelihood import EncodedPair, _batches

    pairs = [EncodedPair([0] * n, 0) for n in (10, 9, 3, 2)]
    # longest first: [10] + 9 pads to 2 x 10 = 20 for 19 real tokens (1 padding <= 4), + 3
    # would pad to 30 for 22 (8 > 4): a new pass; [3] + 2 pads to 6 for 5 (1): together
    assert list(_batches(pairs, 8, 1000, pad_slack=4)) == [[0, 1], [2, 3]]
    assert list(_batches(pairs, 8, 1000)) == [[0, 1, 2, 3]]  # no bound: one pass of 40
    assert list(_batches(pairs, 8, 25)) == [[0, 1], [2, 3]]  # 3 x 10 = 30 > 25 tokens
