#!/usr/bin/env bash
# Builds ./.venv-verl: verl 0.9.1 and OpenRLHF 0.11.2 beside rlvr, for the hand-off checks
# (tests/test_handoff_engines.py runs tests/engines/*_check.py in it). Idempotent; about
# 75 s on a warm pip cache.
#   verl cannot share rlvr's environment: it pins transformers<5.11, rlvr's training stack
#   needs >=5.23. Both engines are installed --no-deps (verl pulls vLLM, flash-attn and
#   CUDA builds; OpenRLHF needs flash-attn and deepspeed); the packages below are what their
#   data loaders, reward paths and argument parsers import on a CPU. rlvr goes in without
#   extras: the reward files the hand-off writes import only its pure core.
#   torch==2.13.0 is the CPU build (a bare `torch` requirement pulls a multi-GB CUDA build).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[[ -x .venv-verl/bin/python ]] || "$PY" -m venv .venv-verl
. .venv-verl/bin/activate
pip install -q --upgrade pip
pip install -q torch==2.13.0
pip install -q --no-deps verl==0.9.1 openrlhf==0.11.2
pip install -q "ray==2.60.0" "tensordict==0.10.0" "hydra-core==1.3.8" "omegaconf==2.3.1" \
  "aiohttp==3.14.5" "datasets==5.2.0" "pandas==3.1.1" "pyarrow==26.0.1" "codetiming==1.4.0" \
  "transformers==5.10.4" "pillow==13.0.0" "torchdata==0.11.0" "pylatexenc==2.11"
pip install -q -e .
python -c "import verl, openrlhf, rlvr; print('engines:', 'verl', verl.__version__, '/ openrlhf 0.11.2 / rlvr', rlvr.__version__)"
