#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run4.txt (carrying bench/gen-corpus): after gemm
# regions are read in place (layout-inference), every test/GPU/Inputs harness again
# (bench/gen-corpus/s9, rebuilt by bench/session9_prepare.sh), the region-reading TileLang files
# (bench/gen-corpus/s9c-main), compute-sanitizer on hand_written_async, and their timings.
set -u
RUN_TIMEOUT=200 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s9 bench/gen-corpus/s9b bench/gen-corpus/s9c-main bench/gen-corpus/s9-v0.1.5 2>&1 | tail -60
f=hand_written_async
nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/s9/${f}_harness.cu -lcuda 2>&1 | tail -2
for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done
for h in bench/gen-corpus/s9c-main/*_harness.cu bench/gen-corpus/s9-v0.1.5/*_harness.cu; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/t9 "$h" -lcuda 2>/dev/null && echo "$h: $(timeout 150 /tmp/t9 2>&1 | grep -E 'check|perf' | tr '\n' ' ')"
done
