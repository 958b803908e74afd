"""Gather what a lent GPU machine lacks for benchmarks/gpu_check.py into one folder.

The GPU machine has no network and takes at most 64 MiB of files. It is assumed to have
torch (a CUDA build) and transformers; this collects pure-Python wheels of trl, peft,
accelerate and datasets at the versions installed here, rlvr's own wheel, and the default
model's tokenizer files (gpu_check builds its models from configs, but needs a tokenizer):

    .venv/bin/python scripts/gpu_bundle.py --out shared/gpu_bundle

Each wheel is fetched with `pip download --no-deps`; without network, a wheel is rebuilt
from the installed package's files (its RECORD), and rlvr's is built with
`pip wheel --no-deps --no-build-isolation .`. Prints every file with its size, the total,
what could not be gathered, and the command for the GPU machine. Exit status 1 when the
total passes 64 MiB or something is missing.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib.metadata as metadata
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("trl", "peft", "accelerate", "datasets")
LIMIT = 64 * 1024 * 1024
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "chat_template.jinja",
                   "special_tokens_map.json")
SKIP_IN_WHEEL = ("INSTALLER", "REQUESTED", "direct_url.json", "RECORD")


def download(package: str, version: str, out: Path) -> Path | None:
    """`pip download --no-deps --only-binary=:all: package==version` into `out`.

    Returns:
        the wheel's path, or None when pip failed (no network, no wheel).
    """
    before = set(out.glob("*.whl"))
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps",
                           "--only-binary=:all:", "--disable-pip-version-check", "-d", str(out),
                           f"{package}=={version}"], capture_output=True, text=True,
                          timeout=120)
    new = sorted(set(out.glob("*.whl")) - before)
    if done.returncode == 0 and not new:  # already there from an earlier run
        name = package.replace("-", "_")
        new = sorted(out.glob(f"{name}-{version}-*.whl"))
    return new[0] if done.returncode == 0 and new else None


def _record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def rebuild_wheel(package: str, out: Path) -> Path:
    """Rebuild a pure-Python wheel from an installed distribution's files (offline).

    Args:
        package: an installed distribution whose files lie under site-packages.
        out: folder for `{name}-{version}-py3-none-any.whl`.
    Returns:
        the wheel's path.
    Raises:
        RuntimeError: the distribution has no RECORD (editable or foreign install) or holds
            compiled extensions (not pure Python).
    """
    dist = metadata.distribution(package)
    files = [f for f in dist.files or []
             if not f.parts[0] == ".." and "__pycache__" not in f.parts]
    if not files:
        raise RuntimeError(f"{package}: no installed file list to rebuild a wheel from")
    if any(f.suffix in (".so", ".pyd", ".dylib") for f in files):
        raise RuntimeError(f"{package}: has compiled extensions, not pure Python")
    name = dist.metadata["Name"].replace("-", "_")
    wheel = out / f"{name}-{dist.version}-py3-none-any.whl"
    info = next(f.parts[0] for f in files if f.parts[0].endswith(".dist-info"))
    records = []
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in files:
            arcname = file.as_posix()
            if file.parts[0] == info and file.name in SKIP_IN_WHEEL:
                continue
            data = Path(file.locate()).read_bytes()
            archive.writestr(arcname, data)
            records.append(_record_line(arcname, data))
        records.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(records) + "\n")
    return wheel


def rlvr_wheel(out: Path) -> Path:
    """Build rlvr's own wheel from the checkout (`pip wheel --no-deps --no-build-isolation`,
    so no network is needed when setuptools is installed). Returns its path.

    Raises:
        RuntimeError: pip failed (message: its stderr tail).
    """
    for old in out.glob("rlvr-*.whl"):
        old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "src-copy"  # built from a copy: no build/ left in the checkout
        for name in ("pyproject.toml", "README.md"):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
        shutil.copytree(ROOT / "src", source / "src",
                        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                               "--no-build-isolation", "--disable-pip-version-check",
                               "-w", tmp, str(source)], capture_output=True, text=True,
                              timeout=300)
        built = list(Path(tmp).glob("rlvr-*.whl"))
        if done.returncode or not built:
            raise RuntimeError(f"pip wheel failed: {done.stderr[-1000:]}")
        return Path(shutil.copy2(built[0], out / built[0].name))


def copy_tokenizer(out: Path) -> list[Path]:
    """Copy the default model's tokenizer files into `out/tokenizer`. Returns the copies.

    Raises:
        rlvr.errors ModelNotFoundError: the default model is not installed here.
    """
    from rlvr.models import resolve_model

    source = Path(resolve_model(None))
    target = out / "tokenizer"
    target.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copy2(source / f, target / f)) for f in TOKENIZER_FILES
            if (source / f).is_file()]


def main() -> int:
    """CLI entry (module docstring). Returns 0, or 1 when over 64 MiB or incomplete."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder to gather the files into")
    parser.add_argument("--offline", action="store_true",
                        help="skip `pip download`; rebuild wheels from the installed packages")
    args = parser.parse_args()
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    missing = []
    for package in PACKAGES:
        version = metadata.version(package)
        wheel = None if args.offline else download(package, version, out)
        how = "pip download"
        if wheel is None:
            how = "rebuilt from the installed files"
            try:
                wheel = rebuild_wheel(package, out)
            except (RuntimeError, metadata.PackageNotFoundError) as exc:
                missing.append(f"{package}=={version}: {exc}")
                continue
        print(f"{package}=={version}: {how}")
    try:
        rlvr_wheel(out)
    except (RuntimeError, subprocess.TimeoutExpired) as exc:
        missing.append(f"rlvr: {exc}")
    try:
        copy_tokenizer(out)
    except Exception as exc:  # noqa: BLE001 -- reported as missing
        missing.append(f"tokenizer: {exc}")
    files = sorted(p for p in out.rglob("*") if p.is_file())
    total = sum(p.stat().st_size for p in files)
    for path in files:
        print(f"{path.stat().st_size / 1024:10.1f} KiB  {path.relative_to(out)}")
    print(f"total {total / 2**20:.2f} MiB in {len(files)} files (limit 64 MiB)")
    for line in missing:
        print(f"missing: {line}")
    print("not bundled (the GPU machine must have them): torch with CUDA, transformers, "
          "and rlvr's core dependencies pyyaml, tqdm, math-verify; bitsandbytes and vllm "
          "only for the QLoRA and vLLM branches")
    if total > LIMIT:
        print(f"refused: {total / 2**20:.2f} MiB is over the 64 MiB limit", file=sys.stderr)
        return 1
    rel = out.relative_to(ROOT) if out.is_relative_to(ROOT) else out
    print("on the GPU machine, from the repository root:")
    print(f"pip install --no-deps {rel}/*.whl && python benchmarks/gpu_check.py "
          f"--tokenizer {rel}/tokenizer")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
