#!/bin/sh
# bench/rowwise.sh prepare|run: the row-wise examples (softmax, one-pass
# online softmax, RMSNorm, LayerNorm over 8192 x 8192 rows, fp16 and bf16)
# against tlc's harness reference, torch, a torch copy and torch eager.
#
#   sh bench/rowwise.sh prepare   HERE: tlc writes bench/gen-rowwise/NAME.cu
#                                 (launchers), NAME_harness.cu and
#                                 manifest.txt; nvcc -c checks each compiles
#   sh bench/rowwise.sh run       on the GPU machine (carry bench/gen-rowwise;
#                                 needs nvcc, python3 with torch): nvcc builds
#                                 a shared library and a harness per kernel;
#                                 the harnesses check against tlc's reference;
#                                 bench/rowwise_check.py checks against torch
#                                 and times everything (CUDA events, medians,
#                                 fresh random inputs), then prints the table
#                                 (the _t512 lines: the same examples with
#                                 threads=512, for the register/occupancy
#                                 trade-off)
set -eu
cd "$(dirname "$0")/.."
GEN=bench/gen-rowwise
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  NVCC=${NVCC:-nvcc}
  rm -rf "$GEN"
  mkdir -p "$GEN"
  : >"$GEN/manifest.txt"
  # NAME EXAMPLE KIND DTYPE [NAME=VALUE]: KIND is what torch computes
  # (rowwise_check.py); the optional define overrides another constant
  while read -r name example kind dtype define; do
    [ -n "$name" ] || continue
    set -- -D "dtype=$dtype"
    [ -z "$define" ] || set -- "$@" -D "$define"
    "$TLC" "examples/$example.tl" "$@" -o "$GEN/$name.cu"
    "$TLC" "examples/$example.tl" "$@" --harness -o "$GEN/${name}_harness.cu"
    "$TLC" "examples/$example.tl" "$@" --emit=signature -o "$GEN/$name.json"
    echo "$name $example $kind $dtype" >>"$GEN/manifest.txt"
  done <<'LIST'
softmax_fp16 softmax_rows softmax float16
softmax_bf16 softmax_rows softmax bfloat16
online_softmax_fp16 online_softmax softmax float16
online_softmax_bf16 online_softmax softmax bfloat16
rms_norm_fp16 rms_norm rms_norm float16
rms_norm_bf16 rms_norm rms_norm bfloat16
layer_norm_fp16 layer_norm layer_norm float16
layer_norm_bf16 layer_norm layer_norm bfloat16
softmax_fp16_t512 softmax_rows softmax float16 threads=512
rms_norm_fp16_t512 rms_norm rms_norm float16 threads=512
layer_norm_fp16_t512 layer_norm layer_norm float16 threads=512
LIST
  # the small softmax of examples/softmax.tl (8192 x 1024, fp16 only)
  "$TLC" examples/softmax.tl -o "$GEN/softmax_1024_fp16.cu"
  "$TLC" examples/softmax.tl --harness -o "$GEN/softmax_1024_fp16_harness.cu"
  "$TLC" examples/softmax.tl --emit=signature -o "$GEN/softmax_1024_fp16.json"
  echo "softmax_1024_fp16 softmax softmax float16" >>"$GEN/manifest.txt"
  if command -v "$NVCC" >/dev/null 2>&1; then
    for cu in "$GEN"/*.cu; do
      "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -Werror all-warnings -c "$cu" -o /dev/null
      echo "nvcc ok $(basename "$cu")"
    done
  fi
  echo "prepared $(wc -l <"$GEN/manifest.txt") kernels in $GEN"
  ;;
run)
  NVCC=${NVCC:-nvcc}
  # every nvcc at once: the GPU machine has cores to spare, not minutes
  while read -r name example kind dtype; do
    "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -Xcompiler -fPIC -shared -o "$GEN/lib$name.so" "$GEN/$name.cu" &
    "$NVCC" -gencode=arch=compute_90a,code=sm_90a -O3 -o "$GEN/${name}_harness" "$GEN/${name}_harness.cu" &
  done <"$GEN/manifest.txt"
  wait
  status=0
  while read -r name example kind dtype; do
    echo "== $name (tlc harness: reference check and timing)"
    out=$("$GEN/${name}_harness") || status=1
    echo "$out" | grep -E "^(check|perf)" || true
  done <"$GEN/manifest.txt"
  python3 bench/rowwise_check.py "$GEN" || status=1
  exit $status
  ;;
*)
  echo "usage: sh bench/rowwise.sh prepare|run" >&2
  exit 2
  ;;
esac
