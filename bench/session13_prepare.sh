#!/usr/bin/env bash
# Here (no GPU), before bench/session13_gpu1.sh: builds what that device run carries.
#   bench/gen-attn   `sh bench/attn_gpu.sh prepare` with build/bin/tlc (the default)
#   bench/gen-pp     the same with `tlc --overlap-pv`, plus gen-pp/h: tlc --harness --overlap-pv on
#                    four attention inputs (causal 1000 tokens, head dim 128 over 1000 tokens,
#                    test/GPU/Inputs/one_stage_ring.py and widened_threads.py)
#   bench/gen-corpus/s13-pv   the harnesses of the TileLang files whose CUDA --overlap-pv changes
#                    (found by comparing `bench/tilelang_corpus.sh` output with and without it)
# Usage: bash bench/session13_prepare.sh [CORPUS_DIR]   (default /work/tilelang-corpus/main)
set -eu
cd "$(dirname "$0")/.."
CORPUS=${1:-/work/tilelang-corpus/main}
TLC=$PWD/build/bin/tlc
W=$(mktemp -d)
printf '#!/bin/sh\nexec %s --overlap-pv "$@"\n' "$TLC" > "$W/tlc-pv" && chmod +x "$W/tlc-pv"
TLC=$W/tlc-pv NVCC=true sh bench/attn_gpu.sh prepare > "$W/prep-pv.log" 2>&1
rm -rf bench/gen-pp && mv bench/gen-attn bench/gen-pp
NVCC=true sh bench/attn_gpu.sh prepare > "$W/prep.log" 2>&1
mkdir -p bench/gen-pp/h
for f in one_stage_ring widened_threads; do
  "$TLC" -w --harness --overlap-pv test/GPU/Inputs/$f.py -o bench/gen-pp/h/$f.cu
done
E=examples/tilelang-style/flash_attention.py
"$TLC" -w --harness --overlap-pv $E --call 'flashattn(2,3,1000,64,True,block_M=128,block_N=64,num_stages=2)' -o bench/gen-pp/h/causal1000.cu
"$TLC" -w --harness --overlap-pv $E --call 'flashattn(1,2,1000,128,False,block_M=128,block_N=128,num_stages=2,threads=256)' -o bench/gen-pp/h/d128_1000.cu
if [ -d "$CORPUS" ]; then
  TLC=$TLC WORK=$W/plain NVCC=none bash bench/tilelang_corpus.sh "$CORPUS" > /dev/null 2>&1
  TLC=$W/tlc-pv WORK=$W/pv NVCC=none bash bench/tilelang_corpus.sh --harness "$CORPUS" > /dev/null 2>&1
  rm -rf bench/gen-corpus/s13-pv && mkdir -p bench/gen-corpus/s13-pv
  for f in "$W"/plain/*.cu; do
    n=$(basename "$f")
    cmp -s "$f" "$W/pv/$n" || cp "$W/pv/${n%.cu}_harness.cu" bench/gen-corpus/s13-pv/
  done
fi
for f in bench/gen-pp/attn/*.cu bench/gen-attn/attn/*.cu; do
  build/bin/tlc-verify "$f" > /dev/null || echo "tlc-verify findings: $f"
done
echo "gen-attn, gen-pp ($(ls bench/gen-pp/h | wc -l) harnesses), s13-pv: $(ls bench/gen-corpus/s13-pv 2>/dev/null | wc -l) corpus harnesses"
rm -rf "$W"
