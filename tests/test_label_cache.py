"""The label cache (`rlvr.eval.label_cache`): what its key depends on, and a second
labelling of the same training rows that generates nothing."""

from __future__ import annotations

import pytest

from rlvr.eval import labelling
from rlvr.eval.label_cache import answers_key, cache_folder, weights_digest
from rlvr.eval.settings import EvalSettings, KnowledgeSettings

SETTINGS = {"max_new_tokens": 8, "num_samples": 1, "temperature": 0.0, "seed": 0,
            "batch_size": 4, "engine": "transformers", "dtype": "float32"}


def _examples(n: int = 6) -> list[dict]:
    from rlvr.data.builtin import builtin_splits
    from rlvr.data.messages import parse_messages_row

    rows = builtin_splits()["train"][:n]
    return [parse_messages_row(r, "builtin", i + 1) for i, r in enumerate(rows)]


@pytest.fixture
def tiny():
    from tiny_models import tiny_chat_llama

    return tiny_chat_llama()


def test_the_key_follows_weights_rows_prompt_and_sampling(tiny):
    import torch

    from rlvr.tasks.heldout import heldout_rows, run_task

    model, tokenizer = tiny
    task = run_task()
    rows = heldout_rows(_examples())
    weights = weights_digest(model)
    key = answers_key(weights, tokenizer, task, rows, SETTINGS)
    assert key == answers_key(weights_digest(model), tokenizer, task, rows, dict(SETTINGS))
    # greedy answers do not depend on the seed; sampled ones do
    assert answers_key(weights, tokenizer, task, rows, {**SETTINGS, "seed": 7}) == key
    sampled = {**SETTINGS, "temperature": 0.7, "num_samples": 4}
    assert answers_key(weights, tokenizer, task, rows, sampled) != key
    assert answers_key(weights, tokenizer, task, rows, {**sampled, "seed": 7}) != \
        answers_key(weights, tokenizer, task, rows, sampled)
    changed = [
        answers_key(weights, tokenizer, task, rows[:-1], SETTINGS),  # fewer rows
        answers_key(weights, tokenizer, task, rows[::-1], SETTINGS),  # other order
        answers_key(weights, tokenizer, task, rows, {**SETTINGS, "max_new_tokens": 9}),
        answers_key(weights, tokenizer, task, rows, {**SETTINGS, "dtype": "bfloat16"}),
    ]
    assert all(k != key for k in changed)
    # another prompt: the rows' chat prompt with another system message
    other = [{**r, "chat_prompt": [{"role": "system", "content": "Be brief."},
                                   *r["chat_prompt"]]} for r in rows]
    assert answers_key(weights, tokenizer, task, other, SETTINGS) != key
    # one weight changed by one float step is another model
    with torch.no_grad():
        p = next(model.parameters())
        p.view(-1)[0] = torch.nextafter(p.view(-1)[0], torch.tensor(1e9))
    assert weights_digest(model) != weights


def test_a_second_labelling_generates_nothing(tiny, tmp_path, monkeypatch):
    from rlvr.tasks.heldout import run_task

    monkeypatch.setenv("RLVR_CACHE_DIR", str(tmp_path / "cache"))
    model, tokenizer = tiny
    task = run_task()
    train = _examples()
    generation = EvalSettings(max_new_tokens=8, batch_size=4)
    calls = []
    real = labelling._knowledge_samples

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(labelling, "_knowledge_samples", counting)
    outputs = []
    for run in ("a", "b"):
        folder = tmp_path / run
        folder.mkdir()
        outputs.append(labelling.known_training_rows(
            model, tokenizer, task, train, KnowledgeSettings(cache=True), generation, "label",
            folder))
        assert (folder / labelling.TRAIN_LABELS_FILE).is_file()
    assert len(calls) == 1  # the second run took the cache
    assert outputs[0] == outputs[1]
    assert len(list(cache_folder().glob("*.jsonl"))) == 1
    # the cache off: it generates again
    folder = tmp_path / "c"
    folder.mkdir()
    labelling.known_training_rows(model, tokenizer, task, train, KnowledgeSettings(),
                                  generation, "label", folder)
    assert len(calls) == 2


def test_sampled_labels_of_the_training_rows_are_one_draw_for_every_run_seed(
        tiny, tmp_path, monkeypatch):
    from rlvr.tasks.heldout import run_task

    monkeypatch.setenv("RLVR_CACHE_DIR", str(tmp_path / "cache"))
    model, tokenizer = tiny
    calls = []
    real = labelling._knowledge_samples
    monkeypatch.setattr(labelling, "_knowledge_samples",
                        lambda *a, **k: calls.append(a[5].seed) or real(*a, **k))
    outputs = []
    for seed in (3, 4):  # two runs' seeds: the same draw, generated once
        folder = tmp_path / f"seed{seed}"
        folder.mkdir()
        outputs.append(labelling.known_training_rows(
            model, tokenizer, run_task(), _examples(), KnowledgeSettings(4, 0.7, cache=True),
            EvalSettings(max_new_tokens=8, batch_size=4, seed=seed), "label", folder))
    assert calls == [labelling.POOL_SEED]
    assert outputs[0] == outputs[1]


def test_a_cut_short_cache_file_is_not_used(tiny, tmp_path, monkeypatch):
    from rlvr.tasks.heldout import run_task

    monkeypatch.setenv("RLVR_CACHE_DIR", str(tmp_path / "cache"))
    model, tokenizer = tiny
    train = _examples()
    generation = EvalSettings(max_new_tokens=8, batch_size=4)
    labelling.known_training_rows(model, tokenizer, run_task(), train,
                                  KnowledgeSettings(cache=True), generation, "label", tmp_path)
    (path,) = cache_folder().glob("*.jsonl")
    path.write_text(path.read_text().splitlines()[0] + "\n")  # one record left
    calls = []
    real = labelling._knowledge_samples
    monkeypatch.setattr(labelling, "_knowledge_samples",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    (tmp_path / "x").mkdir()
    labelling.known_training_rows(model, tokenizer, run_task(), train,
                                  KnowledgeSettings(cache=True), generation, "label",
                                  tmp_path / "x")
    assert calls == [1]  # it went back to generating
    assert len(path.read_text().splitlines()) == len(train) - sum(
        ex["is_unanswerable"] for ex in train)  # and wrote the whole file again
