#!/usr/bin/env bash
# Device script (carry bench/gen-corpus from bench/session10_prepare.sh): every harness it built,
# then compute-sanitizer memcheck/racecheck/synccheck on the new test inputs.
set -u
RUN_TIMEOUT=${RUN_TIMEOUT:-240} bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s10 bench/gen-corpus/s10-* 2>&1 | tail -40
for f in ${SANITIZE:-warp_groups sync_grid gemm_fragment_from_shared}; do
  nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/s10/${f}_harness.cu -lcuda 2>&1 | tail -2
  for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done
done
