#!/bin/sh
# bench/attn_gpu.sh prepare|run: issue #16's flash-attention configurations
# (fp16 and bf16; (8,32,4096,128), (4,16,4096,64), GQA (1,64,8192,128) with
# 16 groups, causal (2,16,8192,128)) and the row-wise kernels (LayerNorm,
# RMSNorm, softmax over 8192 x 8192), built HERE so that the GPU call only
# runs them (a short device call).
#
#   sh bench/attn_gpu.sh prepare   HERE: tlc writes bench/gen-attn/{attn,rowwise}/
#                                  *.cu, nvcc builds each into a shared library
#                                  (ptxas -v: registers and spills of every
#                                  kernel in bench/gen-attn/ptxas.txt)
#   sh bench/attn_gpu.sh run       on the GPU machine, from the repository
#                                  root (carry bench/gen-attn; rowwise_check.py
#                                  reads eps from examples/*.tl):
#                                  bench/tilelang_style_check.py (attention vs
#                                  torch SDPA) and bench/rowwise_check.py (vs
#                                  torch and a torch copy), tables last
set -eu
cd "$(dirname "$0")/.."
GEN=bench/gen-attn
E=examples/tilelang-style
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  NVCC=${NVCC:-nvcc}
  JOBS=${JOBS:-2}
  rm -rf "$GEN"
  mkdir -p "$GEN/attn" "$GEN/rowwise"
  : >"$GEN/attn/manifest.txt"
  : >"$GEN/rowwise/manifest.txt"
  # NAME FILE CALL KIND ARGS (as bench/tilelang_style.sh)
  while read -r name file call kind args; do
    [ -n "$name" ] || continue
    "$TLC" -w "$E/$file" --call "$name=$call" -o "$GEN/attn/$name.cu"
    echo "$GEN/attn/lib$name.so $kind $name $args" >>"$GEN/attn/manifest.txt"
  done <<'LIST'
attn_d64 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2) attn 4 16 4096 64 0
attn_d64_bf16 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2,dtype="bfloat16") attn 4 16 4096 64 0 bfloat16
attn_d64_wg2 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 4 16 4096 64 0
attn_d128 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 8 32 4096 128 0
attn_d128_bf16 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 8 32 4096 128 0 bfloat16
attn_causal flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256) attn 2 16 8192 128 1
attn_causal_bf16 flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16") attn 2 16 8192 128 1 bfloat16
attn_gqa flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16) attn 1 64 8192 128 0 float16 16
attn_gqa_bf16 flash_attention_gqa.py flashattn_gqa(1,64,8192,128,False,groups=16,dtype="bfloat16") attn 1 64 8192 128 0 bfloat16 16
attn_gqa_odd flash_attention_gqa.py flashattn_gqa(2,8,1000,64,True,groups=4,block_M=128,block_N=64,threads=128) attn 2 8 1000 64 1 float16 4
attn_causal_small flash_attention.py flashattn(2,3,1024,64,is_causal=True,block_M=128,block_N=64,num_stages=2) attn 2 3 1024 64 1
LIST
  # NAME EXAMPLE KIND DTYPE [NAME=VALUE] (as bench/rowwise.sh)
  while read -r name example kind dtype define; do
    [ -n "$name" ] || continue
    set -- -D "dtype=$dtype"
    [ -z "$define" ] || set -- "$@" -D "$define"
    "$TLC" "examples/$example.tl" "$@" -o "$GEN/rowwise/$name.cu"
    "$TLC" "examples/$example.tl" "$@" --emit=signature -o "$GEN/rowwise/$name.json"
    echo "$name $example $kind $dtype" >>"$GEN/rowwise/manifest.txt"
  done <<'LIST'
layer_norm_fp16 layer_norm layer_norm float16
layer_norm_bf16 layer_norm layer_norm bfloat16
rms_norm_fp16 rms_norm rms_norm float16
softmax_fp16 softmax_rows softmax float16
LIST
  # BASE_TLC=path/to/other/tlc: the same run also times that compiler's
  # kernels for a few of the configurations (names base_*), for same-run ratios
  if [ -n "${BASE_TLC:-}" ]; then
    while read -r name file call kind args; do
      "$BASE_TLC" -w "$E/$file" --call "$name=$call" -o "$GEN/attn/$name.cu"
      echo "$GEN/attn/lib$name.so $kind $name $args" >>"$GEN/attn/manifest.txt"
    done <<'LIST'
base_d64 flash_attention.py flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2) attn 4 16 4096 64 0
base_d128 flash_attention.py flashattn(8,32,4096,128,False,block_M=128,block_N=128,num_stages=2,threads=256) attn 8 32 4096 128 0
base_causal flash_attention.py flashattn(2,16,8192,128,True,block_M=128,block_N=128,num_stages=2,threads=256) attn 2 16 8192 128 1
LIST
    "$BASE_TLC" examples/layer_norm.tl -o "$GEN/rowwise/base_layer_norm_fp16.cu"
    "$BASE_TLC" examples/layer_norm.tl --emit=signature -o "$GEN/rowwise/base_layer_norm_fp16.json"
    echo "base_layer_norm_fp16 layer_norm layer_norm float16" >>"$GEN/rowwise/manifest.txt"
  fi
  ls "$GEN"/attn/*.cu "$GEN"/rowwise/*.cu | xargs -P "$JOBS" -I{} sh -c '
    cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
    "$0" -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
      -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' "$NVCC" {}
  # one line per kernel: registers, spill stores/loads
  for log in "$GEN"/*/*.ptxas.log; do
    printf '%-22s %s\n' "$(basename "$log" .ptxas.log)" \
      "$(grep -E 'Used [0-9]+ registers|spill' "$log" | grep -oE '[0-9]+ bytes spill (stores|loads)|Used [0-9]+ registers' | tr '\n' ' ')"
  done >"$GEN/ptxas.txt"
  git rev-parse --short HEAD >"$GEN/commit.txt"
  cat "$GEN/ptxas.txt"
  ;;
run)
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader || true
  status=0
  python3 bench/rowwise_check.py "$GEN/rowwise" || status=1
  python3 bench/tilelang_style_check.py "$GEN/attn" || status=1
  echo "== ptxas (built at $(cat "$GEN/commit.txt"))"
  cat "$GEN/ptxas.txt"
  exit $status
  ;;
*)
  echo "usage: sh bench/attn_gpu.sh prepare|run" >&2
  exit 2
  ;;
esac
