#!/usr/bin/env bash
# Device script, run 4 (carry bench/gen-corpus): the harnesses of the merged helpers' work
# (atomic_return_prev.py, block_causal_attention_varlen's four kernels), then the full output of
# the three TileLang harnesses that failed in run 3 (sparse_mla_bwd, pool_mqa_fp8,
# fp8_lighting_indexer), 90 s each.
set -u
cd "$(dirname "$0")/.."
RUN_TIMEOUT=150 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s10b bench/gen-corpus/s10b-main 2>&1 | tail -6
build_one() { nvcc -O3 -gencode=arch=compute_90a,code=sm_90a "$1" -o "${1%.cu}" 2>/dev/null; }
export -f build_one
ls bench/gen-corpus/s10c/*_harness.cu | xargs -P 3 -I{} bash -c 'build_one {}'
for f in bench/gen-corpus/s10c/*_harness; do
  echo "== $f"; timeout 90 "$f" --no-perf 2>&1 | grep -v "^\s*$" | head -14; echo "exit ${PIPESTATUS[0]}"
done
