#!/usr/bin/env bash
# Device script, run 3 of the eleventh session (carry bench/gen-corpus): every TileLang example
# file of v0.1.5 that compiles and every test/GPU/Inputs harness (built here with tlc --harness,
# the --data inputs with their fills), under the harness. Full output in $OUT.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
for n in gdn_example_chunk_delta_h deepseek_nsa_example_tilelang_nsa_fwd_varlen deepseek_v4_sparse_attn_fwd_sm90; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$n bench/gen-corpus/main/examples_${n}_harness.cu -lcuda > /tmp/$n.log 2>&1 &
done
nvcc -O2 -lineinfo -gencode=arch=compute_90a,code=sm_90a -o /tmp/who bench/gen-corpus/inputs/ws_hand_over_harness.cu -lcuda > /tmp/who.log 2>&1 &
RUN_TIMEOUT=${RUN_TIMEOUT:-60} bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/v0.1.5 > "$OUT/corpus-v015.txt" 2>&1
grep -E "^(FAIL|build-failed)" "$OUT/corpus-v015.txt" | head -20
tail -3 "$OUT/corpus-v015.txt"
RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/inputs > "$OUT/inputs.txt" 2>&1
grep -E "^(FAIL|build-failed)" "$OUT/inputs.txt" | head -20
tail -3 "$OUT/inputs.txt"
# The three harnesses of main that failed in run 1 (gated-delta-rule fwd_h with its uniform fills,
# nsa_fwd_varlen, deepseek_v4 sparse_attn_fwd_sm90), with their whole output; racecheck's first
# hazards on ws_hand_over (line info).
wait
for n in gdn_example_chunk_delta_h deepseek_nsa_example_tilelang_nsa_fwd_varlen deepseek_v4_sparse_attn_fwd_sm90; do
  echo "== $n"; timeout 120 /tmp/$n --no-perf 2>&1 | tail -12
done
timeout 150 compute-sanitizer --tool racecheck --print-limit 3 /tmp/who --no-perf 2>&1 | grep -v "^=========     #" | head -40
