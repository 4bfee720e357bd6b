#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run*.txt (after bench/session9_prepare.sh here,
# carrying bench/gen-corpus): every harness built there, then compute-sanitizer on the
# hand-written pipeline input (thread-index branches, mbarriers, gemm regions).
set -u
RUN_TIMEOUT=150 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s9 bench/gen-corpus/s9-main bench/gen-corpus/s9-v0.1.5 2>&1 | tail -60
f=hand_written_async
nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/s9/${f}_harness.cu -lcuda 2>&1 | tail -2
for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done
# The newly compiling TileLang files' harnesses again, for their timings (median_ms lines).
for h in bench/gen-corpus/s9-main/*_harness.cu bench/gen-corpus/s9-v0.1.5/*_harness.cu; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/t9 "$h" -lcuda 2>/dev/null && echo "$h: $(timeout 120 /tmp/t9 2>&1 | grep -E 'check|perf' | tr '\n' ' ')"
done
