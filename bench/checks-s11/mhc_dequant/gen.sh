#!/bin/bash
# gen.sh: run from /work/main (no GPU). Compiles the TileLang examples checked by
# check.py to CUDA with tlc, and writes each launcher's signature (JSON).
#   mhc_gemm_sqrsum, mhc_big_fuse : deepseek_mhc/example_mhc_pre.py
#   dequant_fine                  : dequantize_gemm/example_dequant_gemm_fine_grained.py
set -e
TLC=${TLC:-build/bin/tlc}
EX=/work/tilelang-corpus/main/examples
D=bench/checks-s11/mhc_dequant
gen() {  # gen FILE NAME CALL
  "$TLC" "$1" --call "$2=$3" -o "$D/$2.cu"
  "$TLC" "$1" --call "$2=$3" --emit=signature -o "$D/$2.json"
}
gen $EX/deepseek_mhc/example_mhc_pre.py mhc_gemm_sqrsum \
  'mhc_pre_gemm_sqrsum_tilelang.compile(hc_mult3=24, hc_hidden_size=5120)'
gen $EX/deepseek_mhc/example_mhc_pre.py mhc_big_fuse \
  'mhc_pre_big_fuse_tilelang.compile(hidden_size=1280, rms_eps=1e-6, hc_pre_eps=1e-6, hc_sinkhorn_eps=1e-6, hc_post_mult_value=1.0, sinkhorn_repeat=10, n_splits=1, hc_mult=4)'
gen $EX/dequantize_gemm/example_dequant_gemm_fine_grained.py dequant_fine \
  'matmul(256, 256, 256, 128, 128, 32, T.float16, T.float16, T.float16, 3, 128)'
