#!/usr/bin/env bash
# Runs the test suite: C unit tests and the lit/FileCheck suite. Builds first
# (scripts/setup.sh). By default the fast set only (no nvcc, no valgrind; a
# few minutes on two cores); the slow set is the tests marked `REQUIRES: slow`
# (test/lit.cfg.py): nvcc compiles of every example, harness and doc example,
# harnesses on the CPU emulator, valgrind, the installed CMake package, and
# the GPU runs where a GPU is visible.
#   TLC_TEST_SLOW=1            the slow set too (ctest label `slow`; .ci/run sets it)
#   TLC_TEST_SANITIZE=1        first run the suite on an ASan+UBSan build (build-asan)
#   TLC_TEST_FUZZ_SECONDS=N    first fuzz the whole compiler for N seconds (needs clang
#                              and libclang-rt-14-dev; skipped with a message otherwise)
# The last lines are always the summary of the main suite.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${TLC_BUILD_DIR:-build}
bash scripts/setup.sh

# ctest's label `slow` is the lit-slow entry (test/CMakeLists.txt).
sets=(-LE slow)
[ "${TLC_TEST_SLOW:-0}" = 1 ] && sets=()

if [ "${TLC_TEST_SANITIZE:-0}" = 1 ]; then
  echo "== sanitizer build (ASan + UBSan): the whole suite"
  TLC_BUILD_DIR=build-asan TLC_CMAKE_ARGS="${TLC_CMAKE_ARGS:-} -DTLC_SANITIZE=ON" bash scripts/setup.sh
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    ctest --test-dir build-asan --output-on-failure -j"$(nproc)" "${sets[@]}"
fi

fuzz=${TLC_TEST_FUZZ_SECONDS:-0}
if [ "$fuzz" -gt 0 ]; then
  if command -v clang >/dev/null 2>&1 && ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
    echo "== fuzzing the compiler for $fuzz s (libFuzzer + ASan + UBSan)"
    CC=clang cmake -S . -B build-fuzz -DTLC_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build-fuzz -j"$(nproc)" --target fuzz_tlc >/dev/null
    corpus=build-fuzz/corpus
    mkdir -p "$corpus" build-fuzz/artifacts
    cp examples/*.tl test/Fuzz/Inputs/* "$corpus"/ 2>/dev/null || true
    TLC_TARGETS_DIR="$PWD/targets" build-fuzz/bin/fuzz_tlc -max_total_time="$fuzz" -timeout=10 \
      -rss_limit_mb=4096 -artifact_prefix=build-fuzz/artifacts/ "$corpus" 2>&1 | tail -3
  else
    echo "== fuzzing skipped: clang and libclang-rt-14-dev are needed"
  fi
fi

ctest --test-dir "$build" --output-on-failure -j"$(nproc)" "${sets[@]}"
