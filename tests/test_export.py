"""`rlvr export RUN_DIR --merge OUT_DIR` (rlvr.train.export): the merged model loads with plain
transformers and computes what the PEFT model computes; every refusal is one line before any
model loads; an export cut off mid-save leaves no OUT_DIR."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
import yaml

from rlvr import cli
from rlvr.train import export

torch = pytest.importorskip("torch")
peft = pytest.importorskip("peft")

from tiny_models import tiny_chat_llama  # noqa: E402

PROMPTS = ["What is 2 + 2?", "Name a colour.", "Who wrote Hamlet?"]


def _lora(model, seed: int = 1):
    """LoRA r=4 on q_proj/v_proj with random nonzero B (PEFT initialises B to 0, which would
    make the adapter a no-op and the test vacuous)."""
    from peft import LoraConfig, get_peft_model

    wrapped = get_peft_model(model, LoraConfig(r=4, lora_alpha=8, target_modules=["q_proj",
                                                                                "v_proj"]))
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, param in wrapped.named_parameters():
            if "lora_B" in name:
                param.copy_(torch.randn(param.shape, generator=gen) * 0.5)
    return wrapped.eval()


def _make_run(root: Path, model_spec, base_folder: Path, tokenizer) -> Path:
    """A fake `rlvr train` run: resolved_config.yaml naming the base and RUN/adapter (adapter
    + tokenizer, as `rlvr.train.fit.save_adapter` writes it)."""
    from transformers import AutoModelForCausalLM

    run = root / "run"
    run.mkdir(parents=True)
    (run / "resolved_config.yaml").write_text(yaml.safe_dump({"model": model_spec,
                                                              "reward": "selfaware"}))
    wrapped = _lora(AutoModelForCausalLM.from_pretrained(base_folder))
    wrapped.save_pretrained(run / "adapter")
    tokenizer.save_pretrained(run / "adapter")
    return run


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """(base folder, run folder): the tiny chat Llama saved with save_pretrained, and a run
    whose resolved_config.yaml names that folder."""
    root = tmp_path_factory.mktemp("export")
    model, tokenizer = tiny_chat_llama()
    base = root / "base"
    model.save_pretrained(base)
    tokenizer.save_pretrained(base)
    return base, _make_run(root, str(base), base, tokenizer)


def _peft_model(base: Path, adapter: Path):
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    return PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(base), adapter).eval()


def _inputs(tokenizer):
    texts = [tokenizer.apply_chat_template([{"role": "user", "content": p}], tokenize=False,
                                           add_generation_prompt=True) for p in PROMPTS]
    tokenizer.padding_side = "left"
    return tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=False)


def _greedy(model, tokenizer, batch, n: int = 12):
    with torch.no_grad():
        out = model.generate(**batch, max_new_tokens=n, do_sample=False,
                             pad_token_id=tokenizer.pad_token_id)
    return tokenizer.batch_decode(out[:, batch["input_ids"].shape[1]:], skip_special_tokens=True)


def test_merged_model_loads_with_transformers_alone_and_matches_peft(tiny, tmp_path, capsys):
    from safetensors import safe_open
    from transformers import AutoModelForCausalLM, AutoTokenizer

    base, run = tiny
    out = tmp_path / "merged"
    assert cli.main(["export", str(run), "--merge", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"wrote {out}" in printed and "AutoModelForCausalLM.from_pretrained" in printed
    assert not (out / "adapter_config.json").exists()  # transformers would pull in PEFT
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".merged.")]

    merged = AutoModelForCausalLM.from_pretrained(out).eval()
    assert type(merged).__name__ == "LlamaForCausalLM"
    assert not any("lora" in name for name, _ in merged.named_parameters())
    tokenizer = AutoTokenizer.from_pretrained(out)
    reference = _peft_model(base, run / "adapter")
    plain = AutoModelForCausalLM.from_pretrained(base).eval()
    batch = _inputs(tokenizer)
    with torch.no_grad():
        got = merged(**batch).logits
        want = reference(**batch).logits
        before = plain(**batch).logits
    assert not torch.allclose(want, before, atol=1e-3)  # the adapter changes the model
    assert torch.allclose(got, want, atol=1e-5, rtol=1e-5)
    assert _greedy(merged, tokenizer, batch) == _greedy(reference, tokenizer, batch)

    assert tokenizer.chat_template == AutoTokenizer.from_pretrained(base).chat_template
    assert merged.generation_config.eos_token_id == plain.generation_config.eos_token_id
    with safe_open(str(out / "model.safetensors"), "pt") as weights:
        assert {weights.get_tensor(k).dtype for k in weights.keys()} == {torch.float32}
    info = json.loads((out / "rlvr_export.json").read_text())
    adapter_bytes = (run / "adapter" / "adapter_model.safetensors").read_bytes()
    assert info["adapter_sha256"] == hashlib.sha256(adapter_bytes).hexdigest()
    assert info["source_run"] == str(run.resolve())
    assert info["base_model"] == str(base) and info["dtype"] == "float32"
    from rlvr import __version__
    assert info["rlvr_version"] == __version__


def test_adapter_flag_default_model_and_bfloat16(tiny, tmp_path, monkeypatch):
    """--adapter of a run whose config names no model: the default model (monkeypatched to
    the tiny folder); --dtype bfloat16 saves bfloat16 weights."""
    from safetensors import safe_open
    from transformers import AutoModelForCausalLM, AutoTokenizer

    base, _ = tiny
    run = _make_run(tmp_path, None, base, AutoTokenizer.from_pretrained(base))
    monkeypatch.setattr(export, "check_model_path", lambda spec: None)
    monkeypatch.setattr(export, "default_model_dir", lambda: base)
    monkeypatch.setattr(export, "resolve_model", lambda spec: str(base) if spec is None
                        else pytest.fail(f"expected the default model, got {spec!r}"))
    out = tmp_path / "merged-bf16"
    assert cli.main(["export", "--adapter", str(run / "adapter"), "--merge", str(out),
                     "--dtype", "bfloat16"]) == 0
    info = json.loads((out / "rlvr_export.json").read_text())
    assert info["base_model"] == "smollm2-135m-instruct" and info["dtype"] == "bfloat16"
    assert info["source_run"] == str(run.resolve())  # found from the adapter's folder
    with safe_open(str(out / "model.safetensors"), "pt") as weights:
        assert {weights.get_tensor(k).dtype for k in weights.keys()} == {torch.bfloat16}
    merged = AutoModelForCausalLM.from_pretrained(out, dtype=torch.float32).eval()
    reference = _peft_model(base, run / "adapter")
    batch = _inputs(AutoTokenizer.from_pretrained(out))
    with torch.no_grad():
        assert torch.allclose(merged(**batch).logits, reference(**batch).logits, atol=0.1)


def test_force_replaces_an_earlier_export(tiny, tmp_path):
    base, run = tiny
    out = tmp_path / "merged"
    out.mkdir()
    (out / "rlvr_export.json").write_text("{}")
    (out / "stale.txt").write_text("old")
    assert cli.main(["export", str(run), "--merge", str(out), "--force"]) == 0
    assert not (out / "stale.txt").exists() and (out / "config.json").is_file()


def _refusal(argv, capsys, monkeypatch) -> str:
    monkeypatch.setattr(export, "export_merged",
                        lambda plan: pytest.fail("a model was loaded before the refusal"))
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("rlvr export: error: ") and "\n" not in err, err
    return err


def _setup(case: str, tmp_path: Path, run: Path, base: Path, monkeypatch) -> tuple[list, str]:
    """(argv, text the message must contain) for one refusal."""
    import shutil

    out = tmp_path / "out"
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    argv = ["export", str(copy), "--merge", str(out)]
    if case == "no run folder":
        argv[1] = str(tmp_path / "nope")
        return argv, f"{tmp_path / 'nope'} does not exist"
    if case == "no resolved_config.yaml":
        (copy / "resolved_config.yaml").unlink()
        return argv, "not an `rlvr train` run folder; pass one, or name the adapter"
    if case == "no adapter folder":
        shutil.rmtree(copy / "adapter")
        return argv, f"{copy / 'adapter'} is missing: the run has not saved its adapter"
    if case == "no adapter_config.json":
        (copy / "adapter" / "adapter_config.json").unlink()
        return argv, f"{copy / 'adapter'} has no adapter_config.json"
    if case == "no adapter weights":
        (copy / "adapter" / "adapter_model.safetensors").unlink()
        return argv, "has no adapter_model.safetensors"
    if case == "base model missing":
        (copy / "resolved_config.yaml").write_text(yaml.safe_dump({"model": str(tmp_path / "m")}))
        return argv, "the run's base model"
    if case == "out not empty":
        out.mkdir()
        (out / "x").write_text("x")
        return argv, f"--merge {out} already exists and is not empty; pass --force"
    if case == "out is a file":
        out.write_text("x")
        return argv, f"--merge {out} is a file"
    if case == "force on a non-model folder":
        out.mkdir()
        (out / "notes.txt").write_text("x")
        return argv + ["--force"], "not a model folder"
    if case == "force on the run itself":
        return (["export", str(copy), "--merge", str(copy), "--force"],
                "holds the export's own input")
    if case == "parent is a file":
        (tmp_path / "f").write_text("x")
        argv[3] = str(tmp_path / "f" / "out")
        return argv, "is a file, not a folder"
    if case == "not writable":
        def refuse(**kwargs):
            raise PermissionError(13, "Permission denied")
        monkeypatch.setattr(export.tempfile, "NamedTemporaryFile", refuse)
        return argv, f"{tmp_path} is not writable (Permission denied); choose another OUT_DIR"
    if case == "disk full":
        monkeypatch.setattr(export.shutil, "disk_usage", lambda p: shutil._ntuple_diskusage(
            10**9, 10**9 - 1000, 1000))
        return argv, "not enough disk space"
    if case == "run and --adapter":
        return argv + ["--adapter", str(copy / "adapter")], "not both and not neither"
    if case == "neither":
        return ["export", "--merge", str(out)], "not both and not neither"
    raise AssertionError(case)


CASES = ["no run folder", "no resolved_config.yaml", "no adapter folder",
         "no adapter_config.json", "no adapter weights", "base model missing", "out not empty",
         "out is a file", "force on a non-model folder", "force on the run itself",
         "parent is a file", "not writable", "disk full", "run and --adapter", "neither"]


@pytest.mark.parametrize("case", CASES)
def test_each_refusal_is_one_line_before_any_model_loads(case, tiny, tmp_path, capsys,
                                                         monkeypatch):
    base, run = tiny
    argv, expected = _setup(case, tmp_path, run, base, monkeypatch)
    assert expected in _refusal(argv, capsys, monkeypatch)


def test_disk_check_asks_twice_the_base_weights(tiny, tmp_path):
    base, run = tiny
    plan = export.plan_export(str(run), str(tmp_path / "out"))
    assert plan.needed_bytes == 2 * (base / "model.safetensors").stat().st_size


def test_command_offers_the_library_dtypes():
    from rlvr.commands import export as command

    assert command.DTYPES == export.DTYPES  # kept apart so the parser imports nothing heavy


def test_merge_flag_is_required(capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["export", "runs/x"])
    assert stop.value.code == 2 and "--merge" in capsys.readouterr().err


def test_adapter_for_another_model_is_refused(tiny, tmp_path, capsys):
    """A base model of other shapes: refused with one line naming both (after loading)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    base, run = tiny
    other = tmp_path / "other"
    LlamaForCausalLM(LlamaConfig(vocab_size=300, hidden_size=32, intermediate_size=32,
                                 num_hidden_layers=1, num_attention_heads=2,
                                 num_key_value_heads=2)).save_pretrained(other)
    out = tmp_path / "out"
    assert cli.main(["export", str(run), "--merge", str(out), "--model", str(other)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after transformers' progress bars
    assert err.startswith("rlvr export: error: adapter ") and "size mismatch" in err
    assert "does not fit the base model" in err and err.endswith("with --model")
    assert not out.exists()


def test_failure_mid_save_leaves_no_out_dir_and_keeps_an_earlier_one(tiny, tmp_path,
                                                                      monkeypatch):
    base, run = tiny

    def broken(path, obj):  # the weights and tokenizer are written, then the disk fills
        assert (Path(path).parent / "model.safetensors").is_file()
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(export, "write_json", broken)
    out = tmp_path / "merged"
    with pytest.raises(OSError, match="No space left"):
        export.export_merged(export.plan_export(str(run), str(out)))
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary sibling left either

    out.mkdir()
    (out / "rlvr_export.json").write_text('{"earlier": true}')
    with pytest.raises(OSError):
        export.export_merged(export.plan_export(str(run), str(out), force=True))
    assert json.loads((out / "rlvr_export.json").read_text()) == {"earlier": True}
    assert [p.name for p in tmp_path.iterdir()] == ["merged"]


@pytest.mark.slow
def test_default_model_merged_answers_like_the_adapter(tmp_path):
    """SmolLM2-135M-Instruct with a LoRA adapter of random B: the exported folder, loaded by
    transformers alone, gives the PEFT model's greedy answers on 3 prompts."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.models import load_tokenizer, resolve_model

    path = resolve_model(None)
    tokenizer = load_tokenizer(path)  # as `rlvr train` saves it with the adapter
    run = tmp_path / "run"
    run.mkdir()
    (run / "resolved_config.yaml").write_text(yaml.safe_dump({"model": None}))
    wrapped = _lora(AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32), seed=3)
    with torch.no_grad():  # small enough to keep the answers fluent, large enough to matter
        for name, param in wrapped.named_parameters():
            if "lora_B" in name:
                param.mul_(0.02)
    wrapped.save_pretrained(run / "adapter")
    tokenizer.save_pretrained(run / "adapter")
    out = tmp_path / "merged"
    assert cli.main(["export", str(run), "--merge", str(out)]) == 0

    merged = AutoModelForCausalLM.from_pretrained(out).eval()
    loaded = AutoTokenizer.from_pretrained(out)
    batch = _inputs(loaded)
    want = _greedy(wrapped, tokenizer, batch, n=24)
    assert _greedy(merged, loaded, batch, n=24) == want
    with torch.no_grad():
        assert torch.allclose(merged(**batch).logits, wrapped(**batch).logits, atol=1e-4)
        with wrapped.disable_adapter():
            assert not torch.allclose(wrapped(**batch).logits, merged(**batch).logits,
                                      atol=1e-3)
