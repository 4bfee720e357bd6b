#!/usr/bin/env bash
# Builds here what bench/session9_gpu.sh runs on the H200 (carry bench/gen-corpus): every
# test/GPU/Inputs harness (oob.tl excepted: it fails by design), the pointer-parameter and
# T.StridedTensor inputs of test/GPU/Dynamic at odd runtime sizes, and the harnesses of the
# TileLang files that newly compile this session (NVCC=none: nvcc runs on the device).
set -eu
cd "$(dirname "$0")/.."
W=bench/gen-corpus/s9
rm -rf "$W" && mkdir -p "$W"
for f in test/GPU/Inputs/*.tl test/GPU/Inputs/*.py; do
  n=$(basename "${f%.*}")
  [ "$n" = oob ] && continue
  build/bin/tlc -w --harness "$f" -o "$W/${n}_harness.cu"
done
D=test/GPU/Dynamic
build/bin/tlc -w --harness $D/ptr_params.py --call 'scale()' --size m=4095 --size n=8191 -o $W/ptr_scale_harness.cu
build/bin/tlc -w --harness $D/ptr_params.py --call 'gemm(1024, 1024, 1024, 128, 128, 32)' --size m=1000 --size n=1000 --size k=1000 -o $W/ptr_gemm_harness.cu
build/bin/tlc -w --harness $D/strided.py --call 'copy_with_stride(1024, 1024, 2048, 128, 128)' -o $W/strided_copy_harness.cu
build/bin/tlc -w --harness $D/strided.py --call 'tile_copy(4000, 3000, 32, 64)' --size NN=4099 -o $W/strided_tile_harness.cu
# The TileLang files that compile since this session's first commit.
S=/tmp/sel9
rm -rf $S && mkdir -p $S/main/examples/warp_specialize $S/main/examples/minference $S/main/examples/deepseek_v32 $S/v0.1.5/examples/warp_specialize
C=/work/tilelang-corpus
cp $C/main/examples/warp_specialize/example_warp_specialize_gemm_barrierpipe_stage2.py $S/main/examples/warp_specialize/
cp $C/main/examples/minference/example_vertical_slash_sparse_attn.py $S/main/examples/minference/
cp $C/main/examples/deepseek_v32/sparse_mla_fwd.py $S/main/examples/deepseek_v32/
cp $C/v0.1.5/examples/warp_specialize/example_warp_specialize_gemm_barrierpipe_stage2.py $S/v0.1.5/examples/warp_specialize/
for tag in main v0.1.5; do
  WORK=bench/gen-corpus/s9-$tag NVCC=none bash bench/tilelang_corpus.sh --harness $S/$tag | tail -2
done
ls $W | wc -l
