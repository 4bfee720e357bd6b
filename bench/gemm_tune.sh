#!/bin/sh
# bench/gemm_tune.sh: a GEMM tile/stage sweep in one GPU call.
#
#   sh bench/gemm_tune.sh prepare   HERE: writes bench/gen-tune/<name>.cu (one
#                                   `tlc --harness --cublas` harness per config,
#                                   from bench/templates/gemm_tune.tl.in), and,
#                                   with nvcc, the binaries and each kernel's
#                                   registers/spills (ptxas.txt);
#   sh bench/gemm_tune.sh run       ON THE GPU: builds what is missing, checks
#                                   and times each harness (cuBLAS in the same
#                                   process), prints a table (medians).
#
# A config is DTYPE:BMxBNxBK:THREADS:STAGES:PANEL[:MxNxK] (PANEL 0: no
# T.use_swizzle; the shape defaults to SIZE^3). Configs whose shape is not
# SIZE^3 are run as correctness checks only (--no-perf).
# Env: CONFIGS="...", SIZE=4096, ITERS=100, TLC=build/bin/tlc, NVCC=nvcc, PREFIX=
set -eu
cd "$(dirname "$0")/.."
GEN=${GEN:-bench/gen-tune}
SIZE=${SIZE:-4096}
ITERS=${ITERS:-100}
TLC=${TLC:-build/bin/tlc}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
PREFIX=${PREFIX:-}
CONFIGS=${CONFIGS:-"
float16:128x128x32:128:3:0
float16:128x256x32:256:3:8
float16:128x256x64:256:3:8
bfloat16:128x256x32:256:3:8
"}

name_of() { # config -> harness name
  echo "$PREFIX$1" | tr ':' '_'
}

case ${1:-} in
prepare)
  mkdir -p "$GEN/src"
  : >"$GEN/ptxas.txt"
  : >"$GEN/noperf"
  for c in $CONFIGS; do
    IFS=: read -r dt tile th st pn shape <<EOC
$c
EOC
    bm=${tile%%x*}; rest=${tile#*x}; bn=${rest%%x*}; bk=${rest#*x}
    shape=${shape:-${SIZE}x${SIZE}x${SIZE}}
    m=${shape%%x*}; rest=${shape#*x}; n=${rest%%x*}; k=${rest#*x}
    sw="pass"
    [ "$pn" != 0 ] && sw="T.use_swizzle(panel_size=$pn)"
    nm=$(name_of "$c")
    [ "$shape" = "${SIZE}x${SIZE}x${SIZE}" ] || echo "$nm" >>"$GEN/noperf"
    sed "s/@M@/$m/; s/@N@/$n/; s/@K@/$k/; s/@BM@/$bm/; s/@BN@/$bn/; s/@BK@/$bk/; s/@DTYPE@/$dt/; \
         s/@THREADS@/$th/g; s/@STAGES@/$st/g; s/@PANEL@/$pn/; s/@SWIZZLE@/$sw/" \
      bench/templates/gemm_tune.tl.in >"$GEN/src/$nm.tl"
    "$TLC" --harness --cublas --iters="$ITERS" "$GEN/src/$nm.tl" -o "$GEN/$nm.cu"
    echo "   $nm"
  done
  if [ "${NO_NVCC:-0}" != 1 ] && [ -x "$NVCC" ]; then
    echo "== nvcc (binaries and ptxas -v)"
    for c in $CONFIGS; do name_of "$c"; done | xargs -P "${JOBS:-2}" -I{} sh -c \
      '"$0" -O3 -gencode=arch=compute_90a,code=sm_90a -Xptxas -v "$1/{}.cu" -o "$1/{}" -lcublas >"$1/{}.nvcc.log" 2>&1 || echo "NVCC FAILED: {}"' \
      "$NVCC" "$GEN"
    for c in $CONFIGS; do
      nm=$(name_of "$c")
      printf '%s: %s; %s\n' "$nm" "$(grep -A4 "entry function 'gemm_kernel'" "$GEN/$nm.nvcc.log" | grep -o 'Used [0-9]* registers')" \
        "$(grep -A4 "entry function 'gemm_kernel'" "$GEN/$nm.nvcc.log" | grep -o '[0-9]* bytes spill stores')" >>"$GEN/ptxas.txt"
    done
    cat "$GEN/ptxas.txt"
  fi
  ;;
run)
  printf '%-44s %-6s %9s %9s %9s %7s\n' config check tlc_ms TFLOP/s cuBLAS ratio
  for cu in "$GEN"/*.cu; do
    nm=$(basename "$cu" .cu)
    if [ ! -x "$GEN/$nm" ] || ! "$GEN/$nm" --help >/dev/null 2>&1; then
      "$NVCC" -O3 -gencode=arch=compute_90a,code=sm_90a "$cu" -o "$GEN/$nm" -lcublas >"$GEN/$nm.nvcc.log" 2>&1 || { echo "$nm: NVCC FAILED"; continue; }
    fi
    perf=
    grep -qx "$nm" "$GEN/noperf" 2>/dev/null && perf=--no-perf
    "$GEN/$nm" --iters "$ITERS" $perf >"$GEN/$nm.out" 2>&1 || true
    chk=$(grep -q '^check gemm: PASS' "$GEN/$nm.out" && echo PASS || echo FAIL)
    ms=$(sed -n 's/^perf gemm: median_ms=\([0-9.]*\) tflops=\([0-9.]*\).*/\1/p' "$GEN/$nm.out")
    tf=$(sed -n 's/^perf gemm: median_ms=\([0-9.]*\) tflops=\([0-9.]*\).*/\2/p' "$GEN/$nm.out")
    cb=$(sed -n 's/^cublas gemm: .*tflops=\([0-9.]*\).*/\1/p' "$GEN/$nm.out")
    rt=$(sed -n 's/^cublas gemm: .*ratio=\([0-9.]*\).*/\1/p' "$GEN/$nm.out")
    printf '%-44s %-6s %9s %9s %9s %7s\n' "$nm" "$chk" "${ms:--}" "${tf:--}" "${cb:--}" "${rt:--}"
  done
  ;;
*)
  echo "usage: sh bench/gemm_tune.sh prepare|run" >&2
  exit 2
  ;;
esac
