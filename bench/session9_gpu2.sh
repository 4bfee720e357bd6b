#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run3.txt (carrying bench/gen-corpus): the T.view
# input, the fragment-A-from-shared input (both targets), v0.1.5's paged MLA decode (which
# compiles since the gemm reads S_shared instead of a staging copy of acc_s_cast), then
# compute-sanitizer on the T.view input.
set -u
RUN_TIMEOUT=240 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s9b bench/gen-corpus/s9b-v0.1.5 2>&1 | tail -12
f=shared_view
nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/s9b/${f}_harness.cu -lcuda 2>&1 | tail -2
for tool in memcheck racecheck synccheck; do echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done
h=$(ls bench/gen-corpus/s9b-v0.1.5/*_harness.cu)
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/mdp "$h" -lcuda 2>/dev/null && echo "$h: $(timeout 200 /tmp/mdp 2>&1 | grep -E 'check|perf' | tr '\n' ' ')"
