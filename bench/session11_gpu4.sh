#!/usr/bin/env bash
# Device script, run 4 of the eleventh session (carry bench/gen-corpus): the two index-table files
# given their fills (nsa_fwd_varlen both tags: tokens:Offsets; deepseek_v4 sparse_attn_fwd_sm90:
# TopkIndices in range) and ws_hand_over.py without its mbarrier-paced kernel; racecheck on it.
set -u
cd "$(dirname "$0")/.."
RUN_TIMEOUT=60 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s11 bench/gen-corpus/s11-main bench/gen-corpus/s11-v0.1.5 2>&1 | tail -8
nvcc -O2 -lineinfo -gencode=arch=compute_90a,code=sm_90a -o /tmp/who bench/gen-corpus/s11/ws_hand_over_harness.cu -lcuda
for tool in memcheck racecheck synccheck; do
  echo "ws_hand_over $tool: $(timeout 120 compute-sanitizer --tool $tool /tmp/who --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
done
