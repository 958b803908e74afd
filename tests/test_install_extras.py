"""The `gpu` extra installs what the documented GPU launches import, in versions TRL 1.16
accepts: checked offline against pyproject.toml and the installed TRL's own metadata."""

from __future__ import annotations

import importlib.metadata
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def _extra(name: str) -> dict[str, Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {Requirement(r).name: Requirement(r)
            for r in project["optional-dependencies"][name]}


def _trl_extra(package: str, extra: str) -> Requirement:
    for text in importlib.metadata.requires("trl") or []:
        req = Requirement(text)
        if req.name == package and req.marker and req.marker.evaluate({"extra": extra}):
            return req
    raise AssertionError(f"TRL {importlib.metadata.version('trl')} names no {package} in "
                         f"its {extra} extra")


# versions around every bound either side could have
PROBES = [Version(v) for v in ("0.15", "0.18.5", "0.18.6", "0.19", "0.21.9", "0.22.0",
                               "0.25", "0.30.0", "0.31.0", "0.31.1", "0.32", "1.0")]


@pytest.mark.parametrize("package, trl_extra", [("vllm", "vllm"), ("deepspeed", "deepspeed")])
def test_the_gpu_extra_admits_only_versions_trl_accepts(package, trl_extra):
    ours = _extra("gpu")[package].specifier
    trls = _trl_extra(package, trl_extra).specifier
    admitted = [v for v in PROBES if v in ours]
    assert admitted, f"the gpu extra admits no {package} version"
    assert all(v in trls for v in admitted), (package, str(ours), str(trls))


def test_the_gpu_extra_covers_the_documented_launches():
    gpu = _extra("gpu")
    # configs/accelerate/deepspeed_zero*.yaml need deepspeed; quantization: nf4 bitsandbytes
    assert (ROOT / "configs" / "accelerate" / "deepspeed_zero3.yaml").is_file()
    assert {"deepspeed", "vllm", "bitsandbytes"} <= set(gpu)
    assert "'.[train,plot,gpu]'" in (ROOT / "docs" / "scaling.md").read_text(encoding="utf-8")
