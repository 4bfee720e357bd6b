#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run7.txt, at the session's final commit (27f7d52), carrying
# bench/gen-corpus (s9: every test/GPU/Inputs harness, the pointer/strided inputs, gemm_region_in_place and
# gemm_fragment_from_shared on sm_90; s9b-v0.1.5: the paged MLA decode; s9c-main: the region-reading
# TileLang files), then compute-sanitizer on gemm_fragment_from_shared (its dead fragment copy is gone).
set -u
RUN_TIMEOUT=200 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s9 bench/gen-corpus/s9b-v0.1.5 bench/gen-corpus/s9c-main 2>&1 | tail -60
f=gemm_fragment_from_shared
nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/s9/${f}_harness.cu -lcuda 2>&1 | tail -2
for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done
