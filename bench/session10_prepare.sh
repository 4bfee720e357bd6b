#!/usr/bin/env bash
# Builds here what bench/session10_gpu.sh runs on the H200 (carry bench/gen-corpus): the test
# inputs this session changed (warp_groups.py: T.ws scopes of two sizes; gemm_fragment_from_shared.tl
# on sm_90a and sm_90: register-A from a copied fragment; sync_grid.py: T.sync_grid), and the
# harnesses of the TileLang files that newly compile or whose CUDA changed (NVCC=none: nvcc runs
# on the device). SEL: extra corpus files, as TAG:PATH (PATH relative to the tag's root).
set -eu
cd "$(dirname "$0")/.."
W=bench/gen-corpus/s10
rm -rf "$W" && mkdir -p "$W"
for f in test/GPU/Inputs/warp_groups.py test/GPU/Inputs/gemm_fragment_from_shared.tl test/GPU/Inputs/sync_grid.py ${INPUTS:-}; do
  n=$(basename "${f%.*}")
  build/bin/tlc -w --harness "$f" -o "$W/${n}_harness.cu"
done
build/bin/tlc -w --harness --target=sm_90 test/GPU/Inputs/gemm_fragment_from_shared.tl -o "$W/gemm_fragment_from_shared_sm90_harness.cu"
S=/tmp/sel10
rm -rf $S
C=/work/tilelang-corpus
for sel in main:examples/warp_specialize/example_warp_specialize_flashmla.py \
           v0.1.5:examples/warp_specialize/example_warp_specialize_flashmla.py \
           main:examples/deepseek_mla/example_mla_decode_persistent.py \
           main:examples/fusedmoe/example_fusedmoe_tilelang.py ${SEL:-}; do
  tag=${sel%%:*} p=${sel#*:}
  mkdir -p "$S/$tag/$(dirname "$p")"
  cp "$C/$tag/$p" "$S/$tag/$p"
  for sib in ${SIBLINGS:-}; do [ "$(dirname "$p")" = "$(dirname "${sib#*:}")" ] && cp "$C/$tag/${sib#*:}" "$S/$tag/${sib#*:}"; done
done
for tag in main v0.1.5; do
  [ -d $S/$tag ] || continue
  WORK=bench/gen-corpus/s10-$tag NVCC=none bash bench/tilelang_corpus.sh --harness $S/$tag | tail -3
done
ls $W bench/gen-corpus/s10-* | grep -c harness.cu
