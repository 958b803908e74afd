"""The likelihood cross-task check: log-likelihood arithmetic on a stub model whose logits
are set by hand, the tokenizer boundary, padding invariance, the paired CI, multiple-choice
accuracy, per-task continuations and the config keys; one slow test on the default model."""

from __future__ import annotations

import math
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from rlvr.config import TrainConfig
from rlvr.errors import ConfigError, DataError
from rlvr.eval import cross_check
from rlvr.eval.cross_check import (CONTINUATIONS, gold_continuation, load_check_rows, select_rows,
                                   summarise, task_groups)
from rlvr.eval.cross_check_table import cross_check_table
from rlvr.eval.likelihood import encode_pair
from rlvr.tasks.sources import DataResolver

sys.path.insert(0, str(Path(__file__).resolve().parent))

# --- a greedy longest-match tokenizer and a bigram model with hand-set probabilities --------

VOCAB = {"<pad>": 0, "a": 1, "b": 2, "c": 3, "ab": 4}
# WEIGHTS[prev][next]: p(next | prev) = weight / 8 (every row sums to 8); logits = ln(weight)
WEIGHTS = [[1, 1, 1, 4, 1],   # after <pad>
           [1, 1, 4, 1, 1],   # after a:  p(b|a) = 4/8
           [1, 1, 1, 4, 1],   # after b:  p(c|b) = 4/8, p(a|b) = p(b|b) = 1/8
           [1, 2, 1, 1, 3],   # after c:  p(a|c) = 2/8, p(b|c) = p(c|c) = 1/8, p(ab|c) = 3/8
           [1, 1, 1, 4, 1]]   # after ab: p(c|ab) = 4/8


class GreedyTokenizer:
    """Longest match first over VOCAB ("ab" before "a"), so "a" + "b" merges into "ab"."""

    pad_token_id = 0

    def __call__(self, text, add_special_tokens=False):
        ids, i = [], 0
        while i < len(text):
            piece = text[i:i + 2] if text[i:i + 2] in VOCAB else text[i]
            ids.append(VOCAB[piece])
            i += len(piece)
        return {"input_ids": ids}


def bigram_model(keep: bool | str = True):
    """A stub causal LM: the logits at position t are ln WEIGHTS[token t]. With `keep` its
    forward takes `logits_to_keep` (as transformers models do), else not; "ignored": it
    takes the argument but returns every position (a wrapper that drops it)."""
    import torch

    table = torch.tensor(WEIGHTS, dtype=torch.float32).log()

    class Bigram(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.anchor = torch.nn.Parameter(torch.zeros(1))  # gives the model a device
            self.calls = []

        def _logits(self, input_ids, logits_to_keep=0):
            self.calls.append(tuple(input_ids.shape))
            logits = table[input_ids]
            if isinstance(logits_to_keep, torch.Tensor):
                logits = logits[:, logits_to_keep]
            return SimpleNamespace(logits=logits)

    class WithKeep(Bigram):
        def forward(self, input_ids, attention_mask=None, use_cache=None, logits_to_keep=0):
            return self._logits(input_ids, logits_to_keep)

    class WithoutKeep(Bigram):
        def forward(self, input_ids, attention_mask=None, **kwargs):
            assert "logits_to_keep" not in kwargs
            return self._logits(input_ids)

    class IgnoresKeep(Bigram):
        def forward(self, input_ids, attention_mask=None, use_cache=None, logits_to_keep=0):
            return self._logits(input_ids)

    return IgnoresKeep() if keep == "ignored" else WithKeep() if keep else WithoutKeep()


def score(rows, model=None, **kwargs):
    from rlvr.eval.likelihood import continuation_logprobs

    return continuation_logprobs(model or bigram_model(), GreedyTokenizer(), rows, **kwargs)


@pytest.mark.parametrize("keep", [True, False, "ignored"])
def test_log_likelihood_matches_hand_computed_nats(keep):
    # "cb" + "ca": context tokens [c, b], joint [c, b, c, a], scored [c, a]:
    # ln p(c|b) + ln p(a|c) = ln(4/8) + ln(2/8) = -0.693147 - 1.386294 = -2.079442 nats,
    # 2 tokens, mean -1.039721 nats/token
    # "c" + "cc": joint [c, c, c], scored [c, c]: 2 x ln(1/8) = -4.158883, mean -2.079442
    out = score([("cb", "ca"), ("c", "cc")], bigram_model(keep))
    assert out[0]["num_tokens"] == 2 and out[1]["num_tokens"] == 2
    assert out[0]["sum_logprob"] == pytest.approx(math.log(4 / 8) + math.log(2 / 8), abs=1e-6)
    assert out[0]["sum_logprob"] == pytest.approx(-2.079442, abs=1e-6)
    assert out[0]["mean_logprob"] == pytest.approx(-1.039721, abs=1e-6)
    assert out[1]["sum_logprob"] == pytest.approx(-4.158883, abs=1e-6)
    assert out[1]["mean_logprob"] == pytest.approx(-2.079442, abs=1e-6)
    assert not out[0]["boundary_merged"] and out[0]["truncated_tokens"] == 0


def test_logits_only_for_the_scored_positions():
    model = bigram_model(keep=True)
    score([("cb", "ca")], model)
    assert model.calls == [(1, 4)]  # one forward of the 4 joint tokens, logits sliced inside


def test_tokens_merged_across_the_boundary_are_scored_not_dropped():
    # context "ca" = [c, a]; "ca" + "bc" = "cabc" = [c, ab, c]: "a" and "b" merge. The common
    # prefix is [c], so [ab, c] are scored: ln p(ab|c) + ln p(c|ab) = ln(3/8) + ln(4/8)
    # = -0.980829 - 0.693147 = -1.673976. (Slicing the joint tokens at the context's length,
    # 2, would score only [c] and lose the "b" of the continuation.)
    pair = encode_pair(GreedyTokenizer(), "ca", "bc")
    assert pair.ids == [3, 4, 3] and pair.start == 1 and pair.boundary_merged
    out = score([("ca", "bc")])[0]
    assert out["num_tokens"] == 2 and out["boundary_merged"]
    assert out["sum_logprob"] == pytest.approx(-1.673976, abs=1e-6)


def test_boundary_refusals_and_left_truncation():
    tok = GreedyTokenizer()
    with pytest.raises(ValueError, match="first token already covers"):
        encode_pair(tok, "a", "bc")  # "abc" = [ab, c]: no context token of its own
    with pytest.raises(ValueError, match="continuation is empty"):
        encode_pair(tok, "c", "")
    with pytest.raises(ValueError, match="context is empty"):
        encode_pair(tok, "", "c")
    # "cccb" + "ca" = 6 tokens, limit 4: the first 2 context tokens go, 2 context tokens stay
    pair = encode_pair(tok, "cccb", "ca", max_length=4)
    assert pair.ids == [3, 2, 3, 1] and pair.start == 2 and pair.truncated == 2
    with pytest.raises(ValueError, match="more than the model's 2"):
        encode_pair(tok, "c", "cca", max_length=2)
    with pytest.raises(ValueError, match="row 2: "):
        score([("cb", "ca"), ("a", "bc")])


def test_batched_rows_of_different_lengths_equal_one_by_one():
    """A real (tiny, random) Llama: attention sees the padding mask, so this can fail."""
    from tiny_models import tiny_llama

    model, tok = tiny_llama()
    tok.padding_side = "left"  # what generation sets; scoring pads on the right itself
    rows = [("w1 w2 w3 w4 w5 w6 w7", " w8 w9"), ("w1", " w2 w3 w4 w5"), ("w3 w3", " w1"),
            ("w5 w6 w7 w8 w9 w10 w11 w12 w13", " w1 w1 w1")]
    from rlvr.eval.likelihood import continuation_logprobs

    batched = continuation_logprobs(model, tok, rows, batch_size=4)
    single = [continuation_logprobs(model, tok, [r], batch_size=1)[0] for r in rows]
    full = continuation_logprobs(NoKeep(model), tok, rows, batch_size=4)
    for b, s, f in zip(batched, single, full):
        assert b["num_tokens"] == s["num_tokens"] == f["num_tokens"]
        assert b["sum_logprob"] == pytest.approx(s["sum_logprob"], abs=1e-5)
        assert b["sum_logprob"] == pytest.approx(f["sum_logprob"], abs=1e-5)
        assert math.isfinite(b["sum_logprob"]) and b["sum_logprob"] < 0
    assert [r["num_tokens"] for r in batched] == [2, 4, 1, 3]


class NoKeep:
    """Hides `logits_to_keep` from a model's forward signature (the full-logits path)."""

    def __init__(self, model):
        self.model = model
        self.training = model.training
        self.config = model.config

    def parameters(self):
        return self.model.parameters()

    def eval(self):
        self.model.eval()

    def train(self, mode=True):
        self.model.train(mode)

    def forward(self, input_ids, attention_mask=None, **kwargs):
        return self.model(input_ids=input_ids, attention_mask=attention_mask, **kwargs)

    __call__ = forward


def test_eval_mode_for_the_call_and_restored_after():
    from tiny_models import tiny_llama

    model, tok = tiny_llama()
    model.train()
    from rlvr.eval.likelihood import continuation_logprobs

    continuation_logprobs(model, tok, [("w1 w2", " w3")])
    assert model.training


def test_multiple_choice_accuracy_by_normalised_log_likelihood():
    from rlvr.eval.likelihood import multiple_choice_accuracy

    rows = [
        # context "b": "a" = ln p(a|b) = ln(1/8) = -2.079 (1 token); "cc" = ln p(c|b) +
        # ln p(c|c) = ln(4/8) + ln(1/8) = -2.773 (2 tokens, -1.386 per token, per byte)
        {"context": "b", "choices": ["a", "cc"], "gold": 1},
        # context "c": "a" = ln(2/8) = -1.386; "ab" = one token, ln(3/8) = -0.981
        {"context": "c", "choices": ["a", "ab"], "gold": 1},
    ]
    model, tok = bigram_model(), GreedyTokenizer()
    by_token = multiple_choice_accuracy(model, tok, rows, normalise="token")
    assert by_token["predictions"] == [1, 1] and by_token["accuracy"] == 1.0
    assert by_token["ranks"] == [1, 1]
    assert by_token["scores"][0] == pytest.approx([-2.079442, -1.386294], abs=1e-6)
    by_sum = multiple_choice_accuracy(model, tok, rows, normalise="none")
    assert by_sum["predictions"] == [0, 1] and by_sum["accuracy"] == 0.5  # sums favour "a"
    assert by_sum["ranks"] == [2, 1]
    # per character (lm-evaluation-harness's acc_norm): row 1 "a" -2.079 / 1 char vs "cc"
    # -2.773 / 2 = -1.386: "cc"; row 2 "a" -1.386 / 1 vs "ab" -0.981 / 2 = -0.490: "ab"
    assert multiple_choice_accuracy(model, tok, rows, normalise="char")["ranks"] == [1, 1]
    by_byte = multiple_choice_accuracy(model, tok, rows, normalise="byte")
    assert by_byte["predictions"] == [1, 1]
    with pytest.raises(ValueError, match="two or more choices"):
        multiple_choice_accuracy(model, tok, [{"context": "c", "choices": ["a"], "gold": 0}])
    with pytest.raises(ValueError, match="normalise must be"):
        multiple_choice_accuracy(model, tok, rows, normalise="chars")


def test_summary_and_paired_ci_on_hand_made_rows():
    def recs(means, tokens=2):
        return [{"mean_logprob": m, "sum_logprob": m * tokens, "num_tokens": tokens,
                 "boundary_merged": False, "truncated_tokens": 0} for m in means]

    # differences trained - base = [0, -0.5, 0]: mean -1/6. A resample of 3 rows averages
    # 0, -1/6, -1/3 or -1/2; P(no -0.5 row) = (2/3)^3 = 0.30 > 2.5%, so the upper bound is 0;
    # P(three -0.5 rows) = (1/3)^3 = 0.037 > 2.5%, so the lower bound is -0.5
    out = summarise("gsm8k", recs([-1.0, -2.0, -3.0]), recs([-1.0, -2.5, -3.0]), 2000, 0)
    assert out["n"] == 3 and out["tokens"] == 6
    assert out["base"] == pytest.approx(-2.0) and out["trained"] == pytest.approx(-13 / 6)
    d = out["difference"]
    assert d["mean_difference"] == pytest.approx(-1 / 6)
    assert (d["ci_low"], d["ci_high"]) == (pytest.approx(-0.5), pytest.approx(0.0))
    # pooled: (-2 - 4 - 6) / 6 tokens = -2.0; trained (-2 - 5 - 6) / 6 = -2.1667
    assert out["pooled"] == {"base": pytest.approx(-2.0), "trained": pytest.approx(-13 / 6)}
    same = summarise("gsm8k", recs([-1.0, -2.0]), recs([-1.0, -2.0]), 500, 0)["difference"]
    assert (same["mean_difference"], same["ci_low"], same["ci_high"]) == (0.0, 0.0, 0.0)


# --- continuations and rows (packaged subsets, offline) ---------------------------------------

PACKAGED = DataResolver("packaged")


def test_continuations_of_the_packaged_rows():
    rows, skipped, sources, pools = load_check_rows(list(CONTINUATIONS), 5, 0, PACKAGED)
    assert not skipped and all(len(r) == 5 for r in rows.values())
    # the distractor pools: every row's gold, once (HumanEval has all 164 rows, all distinct)
    assert len(pools["humaneval"]) == 164
    assert len({" ".join(c.split()).casefold() for c in pools["triviaqa"]}) == len(
        pools["triviaqa"]) < 500  # 500 packaged TriviaQA rows share some answers
    assert all(s["data_source"].startswith("packaged subset") for s in sources.values())
    gsm = gold_continuation("gsm8k", rows["gsm8k"][0])
    assert "<<" not in gsm and ">>" not in gsm and "\n#### " in gsm
    assert "<<" in rows["gsm8k"][0]["solution"]  # the annotations were there before
    mbpp = gold_continuation("mbpp", rows["mbpp"][0])
    assert "\r" not in mbpp and mbpp.lstrip().startswith(("def ", "import ", "from ", "class "))
    he = task_groups("humaneval", rows["humaneval"][:1], pools["humaneval"], 4, 0, None)[0]
    assert isinstance(he["context"], str) and he["context"] == rows["humaneval"][0]["prompt"]
    assert he["continuations"][he["gold"]] == rows["humaneval"][0]["canonical_solution"]
    trivia = task_groups("triviaqa", rows["triviaqa"][:1], pools["triviaqa"], 4, 0,
                         "I don't know.")[0]
    assert trivia["context"][-1]["content"] == rows["triviaqa"][0]["question"]  # chat prompt
    assert trivia["candidates"][trivia["gold"]] == rows["triviaqa"][0]["answer"]
    assert len(trivia["candidates"]) == 5 and trivia["continuations"][-1] == "I don't know."


def test_row_selection_is_seeded_and_the_same_for_both_models():
    rows = [{"id": i} for i in range(100)]
    first = select_rows(rows, 10, 0, "gsm8k")
    assert first == select_rows(rows, 10, 0, "gsm8k")
    assert [r["id"] for r in first] == sorted(r["id"] for r in first)  # file order kept
    assert first != select_rows(rows, 10, 1, "gsm8k")
    assert select_rows(rows, 200, 0, "gsm8k") == rows


def test_rows_without_gold_are_skipped_with_the_reason(tmp_path):
    path = tmp_path / "he.jsonl"
    path.write_text('{"task_id": "T/0", "prompt": "def f():\\n", "test": "", '
                    '"entry_point": "f"}\n')
    resolver = DataResolver("packaged", task_paths={"humaneval": str(path)})
    rows, skipped, _, _ = load_check_rows(["humaneval", "triviaqa"], 2, 0, resolver)
    assert list(rows) == ["triviaqa"]
    assert "no 'canonical_solution' field" in skipped["humaneval"]
    with pytest.raises(DataError, match="canonical_solution"):
        gold_continuation("humaneval", {"prompt": "x"})


def tiny_chat_model():
    """The tiny random Llama with a character tokenizer (printable ASCII and newline; other
    characters -> <eos>) and a minimal chat template, so task text gets distinct tokens."""
    import string

    from tokenizers import Regex, Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    from tiny_models import tiny_llama

    chars = sorted(set(string.printable) - set("\t\r\x0b\x0c"))
    model, _ = tiny_llama(vocab_size=len(chars))
    vocab = {"<pad>": 0, "<eos>": 1, **{c: i + 2 for i, c in enumerate(chars)}}
    backend = Tokenizer(models.WordLevel(vocab, unk_token="<eos>"))
    backend.pre_tokenizer = pre_tokenizers.Split(Regex("[\\s\\S]"), behavior="isolated")
    tok = PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>",
                                  eos_token="<eos>")
    tok.chat_template = ("{% for m in messages %}<{{ m.role }}> {{ m.content }}\n{% endfor %}"
                         "{% if add_generation_prompt %}<assistant> {% endif %}")
    return model, tok


def test_likelihood_check_with_a_peft_model_zero_and_nonzero_adapter(tmp_path):
    import torch
    from peft import LoraConfig, get_peft_model

    model, tok = tiny_chat_model()
    peft = get_peft_model(model, LoraConfig(r=2, lora_alpha=2, target_modules=["q_proj",
                                                                              "v_proj"]))
    check = cross_check.likelihood_check(None, peft, tok, list(CONTINUATIONS), limit=2,
                                         seed=0, bootstrap_samples=200, resolver=PACKAGED,
                                         rows_file=tmp_path / "rows.jsonl")
    assert not check["skipped"] and set(check["tasks"]) == set(CONTINUATIONS)
    for r in check["tasks"].values():  # LoRA B = 0 at initialisation: the identity
        assert r["n"] == 2 and math.isfinite(r["base"]) and r["base"] < 0
        assert r["difference"]["mean_difference"] == 0.0 and r["trained"] == r["base"]
    assert len((tmp_path / "rows.jsonl").read_text().splitlines()) == 8
    with torch.no_grad():
        for name, param in peft.named_parameters():
            if "lora_B" in name:
                param.fill_(0.5)
    moved = cross_check.likelihood_check(None, peft, tok, ["gsm8k"], limit=2, seed=0,
                                         bootstrap_samples=200, resolver=PACKAGED)
    assert moved["tasks"]["gsm8k"]["base"] == pytest.approx(check["tasks"]["gsm8k"]["base"])
    assert moved["tasks"]["gsm8k"]["difference"]["mean_difference"] != 0.0
    table = cross_check_table(moved)
    assert table.splitlines()[2].startswith("| gsm8k | 2 | the gold worked solution")


def test_likelihood_check_needs_a_base_or_a_peft_model():
    from rlvr.errors import RlvrError

    model, tok = tiny_chat_model()
    with pytest.raises(RlvrError, match="pass base_model"):
        cross_check.likelihood_check(None, model, tok, ["triviaqa"], limit=1,
                                     resolver=PACKAGED)
    with pytest.raises(RlvrError, match="no gold continuation"):
        cross_check.likelihood_check(model, model, tok, ["selfaware"], resolver=PACKAGED)


def test_report_gets_a_cross_check_section(tmp_path):
    from rlvr.eval.honesty_report import write_report

    check = {"meta": {}, "skipped": {"mbpp": "no data"}, "tasks": {"gsm8k": {
        "n": 3, "continuation": "the gold worked solution", "base": -1.25, "trained": -1.5,
        "difference": {"mean_difference": -0.25, "ci_low": -0.4, "ci_high": -0.1}}}}
    report = {"meta": {}, "base": {}, "trained": {}, "cross_check": check}
    import rlvr.eval.honesty_report as report_module

    original = report_module.format_table
    report_module.format_table = lambda r: ""
    try:
        write_report(tmp_path, report, [], [])
    finally:
        report_module.format_table = original
    md = (tmp_path / "report.md").read_text()
    assert "## Cross-task check" in md
    assert ("| gsm8k | 3 | the gold worked solution | -1.2500 | -1.5000 | -0.2500 "
            "[-0.4000, -0.1000] |") in md
    assert "| mbpp | - | skipped: no data |" in md


def test_config_keys():
    assert TrainConfig().cross_check == ["gsm8k", "triviaqa", "humaneval", "mbpp"]
    assert TrainConfig().cross_check_limit == 10
    assert TrainConfig(cross_check="none").cross_check == []
    assert TrainConfig(cross_check=None).cross_check == []
    assert TrainConfig(cross_check="gsm8k, mbpp").cross_check == ["gsm8k", "mbpp"]
    with pytest.raises(ConfigError, match="cross_check: task 'selfaware' has no gold"):
        TrainConfig(cross_check=["selfaware"])
    with pytest.raises(ConfigError, match="Did you mean 'gsm8k'"):
        TrainConfig(cross_check=["gsmk8"])
    with pytest.raises(ConfigError, match="cross_check_limit must be an integer >= 1"):
        TrainConfig(cross_check_limit=0)
    assert TrainConfig().cross_check_distractors == {"triviaqa": 4}
    # per task; a task the run leaves out may be named (the default names triviaqa)
    cfg = TrainConfig(cross_check=["gsm8k"], cross_check_limit={"default": 5, "triviaqa": 50})
    assert cfg.cross_check_limit == {"default": 5, "triviaqa": 50}
    for bad, match in [
            ({"cross_check_limit": {"triviaqa": 0}}, r"cross_check_limit\.triviaqa must be an "
                                                     r"integer >= 1 .*got 0; e\.g\."),
            ({"cross_check_distractors": -1}, r"cross_check_distractors must be an integer >= 0"),
            ({"cross_check_distractors": {"triviaqa": 2.5}}, r"triviaqa must be an integer"),
            ({"cross_check_distractors": {"triviaqa": True}}, r"triviaqa must be an integer"),
            ({"cross_check_distractors": {"selfaware": 4}}, r"names 'selfaware', which has no "
                                                            r"gold continuation; use gsm8k"),
            ({"cross_check_limit": "ten"}, r"cross_check_limit must be")]:
        with pytest.raises(ConfigError, match=match):
            TrainConfig(**bad)
