#!/bin/sh
# bench/tilelang_style.sh prepare|run: the TileLang-style kernel files
# (examples/tilelang-style/*.py) compiled with --call, checked against torch.
#
#   sh bench/tilelang_style.sh prepare   HERE: tlc writes bench/gen-ts/*.cu,
#                                        the harnesses and manifest.txt
#   sh bench/tilelang_style.sh run       on the GPU machine (carry bench/gen-ts):
#                                        nvcc builds each .cu into a shared
#                                        library and a harness; runs the
#                                        harnesses (tlc's own reference), then
#                                        bench/tilelang_style_check.py (torch),
#                                        then the general-reduction harnesses and
#                                        compute-sanitizer memcheck + racecheck
set -eu
cd "$(dirname "$0")/.."
GEN=bench/gen-ts
E=examples/tilelang-style
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  rm -rf "$GEN"
  mkdir -p "$GEN"
  : >"$GEN/manifest.txt"
  # one FILE CALL KIND ARGS per line; the kernel takes the name before '='
  while read -r name file call kind args; do
    [ -n "$name" ] || continue
    "$TLC" -w "$E/$file" --call "$name=$call" -o "$GEN/$name.cu"
    "$TLC" -w "$E/$file" --call "$name=$call" --harness -o "$GEN/${name}_harness.cu"
    echo "$GEN/lib$name.so $kind $name $args" >>"$GEN/manifest.txt"
  done <<'EOF'
gemm_1024 gemm.py matmul(1024,1024,1024,128,128,32) gemm 1024 1024 1024
gemm_4096 gemm.py matmul(4096,4096,4096,128,128,32) gemm 4096 4096 4096
gemm_odd gemm.py matmul(1000,1000,1000,128,128,32,num_stages=2,threads=256) gemm 1000 1000 1000
add_1024 elementwise_add.py elementwise_add(1024,1024,64,128,128) add 1024 1024
add_odd elementwise_add.py elementwise_add(1000,1000,block_M=32,block_N=256,threads=256) add 1000 1000
attn flash_attention.py flashattn(1,4,1024,64,False) attn 1 4 1024 64 0
attn_causal flash_attention.py flashattn(1,4,1024,64,True) attn 1 4 1024 64 1
attn_causal_128 flash_attention.py flashattn(2,3,1024,64,is_causal=True,block_M=128,block_N=64,num_stages=2) attn 2 3 1024 64 1
attn_big flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2) attn 4 16 4096 64 0
attn_d128 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=64,num_stages=2) attn 8 32 4096 128 0
attn_d128_wg2 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 8 32 4096 128 0
attn_causal_d128 flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256) attn 2 16 8192 128 1
attn_big_wg2 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 4 16 4096 64 0
attn_big_bf16 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2,dtype="bfloat16") attn 4 16 4096 64 0 bfloat16
attn_d128_wg2_bf16 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 8 32 4096 128 0 bfloat16
attn_causal_d128_bf16 flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 2 16 8192 128 1 bfloat16
attn_gqa flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16) attn 1 64 8192 128 0 float16 16
attn_gqa_bf16 flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16,dtype="bfloat16") attn 1 64 8192 128 0 bfloat16 16
attn_gqa_small flash_attention_gqa.py flashattn_gqa(2,8,1000,64,True,groups=4,block_M=128,block_N=64,threads=128) attn 2 8 1000 64 1 float16 4
rms rms_norm.py rms_norm(4096,2048,2) rmsnorm 4096 2048 1e-6
rms_b4 rms_norm.py rms_norm(1000,1024,block_M=4,eps=1e-5) rmsnorm 1000 1024 1e-5
EOF
  # the general reductions, and small harnesses (--iters=1) for compute-sanitizer
  mkdir -p "$GEN/extra"
  for f in reduce_cross_warp reduce_general reduce_dim0; do
    "$TLC" "test/GPU/Inputs/$f.tl" --harness -o "$GEN/extra/$f.cu"
    "$TLC" "test/GPU/Inputs/$f.tl" --harness --iters=1 -o "$GEN/extra/san_$f.cu"
  done
  "$TLC" -w "$E/flash_attention.py" --call 'flashattn(1,2,256,64,is_causal=True,block_M=128,block_N=64,num_stages=2)' \
    --harness --iters=1 -o "$GEN/extra/san_attn.cu"
  "$TLC" "$E/rms_norm.py" --call 'rms_norm(256,512,2)' --harness --iters=1 -o "$GEN/extra/san_rms.cu"
  echo "prepared $(wc -l <"$GEN/manifest.txt") kernels in $GEN"
  ;;
run)
  NVCC=${NVCC:-nvcc}
  # every nvcc at once: the GPU machine has cores to spare, not minutes
  for cu in "$GEN"/*_harness.cu; do
    name=$(basename "$cu" _harness.cu)
    "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -Xcompiler -fPIC -shared -o "$GEN/lib$name.so" "$GEN/$name.cu" &
    "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -o "$GEN/${name}_harness" "$cu" &
  done
  wait
  for cu in "$GEN"/*_harness.cu; do
    h=${cu%.cu}
    echo "== $(basename "$h")"
    "$h" | tail -3
  done
  status=0
  python3 bench/tilelang_style_check.py "$GEN" || status=1
  for cu in "$GEN"/extra/*.cu; do "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -o "${cu%.cu}" "$cu" & done
  wait
  for f in reduce_cross_warp reduce_general reduce_dim0; do
    echo "== $f"
    "$GEN/extra/$f" | grep -E "^check|^perf"
  done
  for h in "$GEN"/extra/san_*; do
    case "$h" in *.cu) continue ;; esac
    echo "== memcheck $(basename "$h")"
    compute-sanitizer --tool memcheck "$h" 2>&1 | grep -E "ERROR SUMMARY|^check "
    echo "== racecheck $(basename "$h")"
    compute-sanitizer --tool racecheck "$h" 2>&1 | grep -E "RACECHECK SUMMARY|hazard"
  done
  exit $status
  ;;
*)
  echo "usage: sh bench/tilelang_style.sh prepare|run" >&2
  exit 2
  ;;
esac
