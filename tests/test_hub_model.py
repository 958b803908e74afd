"""A hub model id is checked before any model loads: in the local cache, or a reachable hub
(one bounded probe), else one line with the fix within seconds (rlvr.models)."""

from __future__ import annotations

import time

import pytest

from rlvr import models
from rlvr.errors import ModelNotFoundError


def test_an_unreachable_hub_id_fails_at_once_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    start = time.perf_counter()
    with pytest.raises(ModelNotFoundError, match=r"'org/model' is a hub id that is not in the "
                                                 r"local cache .*not reachable.*huggingface-cli "
                                                 r"download org/model"):
        models.check_model_path("org/model", probe=lambda: "https://hf.co not reachable")
    assert time.perf_counter() - start < 1.0
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ModelNotFoundError, match="HF_HUB_OFFLINE is set"):
        models.check_model_path("org/model", probe=lambda: pytest.fail("probed offline"))


def test_a_cached_or_reachable_hub_id_passes(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "models--org--model").mkdir()
    models.check_model_path("org/model")  # cached: no probe, even offline
    monkeypatch.delenv("HF_HUB_OFFLINE")
    models.check_model_path("org/other", probe=lambda: None)  # the hub answered


def test_the_real_probe_is_bounded(tmp_path, monkeypatch):
    # a closed local port refuses at once; the probe never waits past its deadline
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    start = time.perf_counter()
    with pytest.raises(ModelNotFoundError, match="127.0.0.1:9"):
        models.check_model_path("org/model")
    assert time.perf_counter() - start < 4.0
