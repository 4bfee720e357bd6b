#!/usr/bin/env bash
# The device script of bench/hopper-runs/session8-run5.txt: every test/GPU/Inputs harness (.tl and
# .py, oob.tl excepted: it fails by design) built at the session's final commit, and compute-sanitizer
# on the new cumsum input and on gemm_accumulator_copy (carrying bench/gen-corpus).
set -u
RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/final8 2>&1 | tail -42
for f in cumsum gemm_accumulator_copy; do nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/final8/${f}_harness.cu -lcuda 2>&1 | tail -2; for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 120 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done; done
