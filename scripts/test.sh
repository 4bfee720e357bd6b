#!/usr/bin/env bash
# Runs the whole test suite: C unit tests and the lit/FileCheck suite (which
# also compiles every example's CUDA with nvcc when nvcc is present, and runs
# GPU tests only where a GPU is visible). Builds first (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TLC_BUILD_DIR:-build}
bash scripts/setup.sh
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
