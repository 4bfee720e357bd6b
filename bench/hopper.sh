#!/bin/sh
# bench/hopper.sh: the Hopper (sm_90a, wgmma) path of T.gemm, checked and
# timed against cuBLAS on the H200 in one GPU call.
#
#   sh bench/hopper.sh prepare   HERE: builds tlc, writes bench/gen-hopper/:
#                                harnesses (tlc --harness --cublas --target=sm_90a) for
#                                the GEMM variants of bench/gemm_variants.py, every
#                                examples/*.tl and test/GPU/Inputs/*.tl; the same
#                                GEMM examples for --target=sm_90 (mma.sync) beside them
#   sh bench/hopper.sh run       ON THE GPU MACHINE: compiles them (nvcc, 16 at a time),
#                                runs each (check against the reference lowering, then
#                                median timing with cuBLAS beside), prints one line per
#                                harness (status, TFLOP/s, ratio to cuBLAS) and a table last.
# Env: ITERS=50, NVCC=nvcc, SANITIZE=1 (compute-sanitizer memcheck, synccheck and
# racecheck on the small variants, a persistent two-warpgroup one included).
set -u
cd "$(dirname "$0")/.."
GEN=bench/gen-hopper
ITERS=${ITERS:-50}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

prepare() {
  set -e
  cmake -S . -B build >/dev/null && cmake --build build -j2 >/dev/null
  rm -rf "$GEN" && mkdir -p "$GEN/src"
  python3 bench/gemm_variants.py "$GEN/src" >/dev/null
  : >"$GEN/SKIPPED"
  mk() { # NAME FILE TARGET [TLC FLAG]
    build/bin/tlc --harness --cublas --iters="$ITERS" --target="$3" ${4:-} "$2" -o "$GEN/$1.cu" 2>"$GEN/$1.err" &&
      rm -f "$GEN/$1.err" || { echo "$1: $(head -1 "$GEN/$1.err")" >>"$GEN/SKIPPED"; rm -f "$GEN/$1.cu"; }
  }
  for f in "$GEN"/src/*.tl; do mk "$(basename "$f" .tl)" "$f" sm_90a; done
  for f in examples/*.tl; do mk "ex_$(basename "$f" .tl)" "$f" sm_90a; done
  for f in examples/gemm*.tl; do mk "mma_$(basename "$f" .tl)" "$f" sm_90; done
  # The same kernels in thread-block clusters (TMA multicast), to see what clusters buy.
  for f in "$GEN"/src/s_*.tl examples/gemm.tl examples/gemm_fast.tl "$GEN"/src/v_128x256x64_2wg.tl "$GEN"/src/v_odd_1000.tl; do
    mk "cl_$(basename "$f" .tl)" "$f" sm_90a --cluster
  done
  for f in test/GPU/Inputs/*.tl; do
    n=$(basename "$f" .tl)
    case $n in name_clash | oob) continue ;; esac
    mk "t_$n" "$f" sm_90a
  done
  git rev-parse --short HEAD >"$GEN/commit.txt"
  echo "prepared $(ls "$GEN"/*.cu | wc -l) harnesses in $GEN; skipped: $(wc -l <"$GEN/SKIPPED")"
  cat "$GEN/SKIPPED"
}

run() {
  R=$GEN/run
  rm -rf "$R" && mkdir -p "$R"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw,power.limit,temperature.gpu --format=csv,noheader
  ls "$GEN"/*.cu | xargs -P 16 -I{} sh -c '
    b=$(basename "$1" .cu)
    case $b in mma_*) arch="-arch=sm_90" ;; *) arch="-gencode=arch=compute_90a,code=sm_90a" ;; esac
    "$0" -O3 $arch -Xptxas -v "$1" -o "'"$R"'/$b" -lcublas >"'"$R"'/$b.nvcc.log" 2>&1 || echo "NVCC FAILED: $b"' "$NVCC" {}
  : >"$R/table.txt"
  for cu in "$GEN"/*.cu; do
    b=$(basename "$cu" .cu)
    [ -x "$R/$b" ] || { echo "$b NOT-BUILT" >>"$R/table.txt"; continue; }
    timeout "${TIMEOUT:-40}" "$R/$b" --iters "$ITERS" >"$R/$b.out" 2>&1
    rc=$?
    spill=$(grep -A2 "_kernel' for" "$R/$b.nvcc.log" | grep -v "_ref_kernel" | grep -o '[0-9]* bytes spill stores' | head -1 | cut -d' ' -f1)
    ser=$(grep -c C75 "$R/$b.nvcc.log")
    tf=$(grep '^perf ' "$R/$b.out" | head -1 | sed 's/.*tflops=\([0-9.]*\).*/\1/')
    cr=$(grep '^cublas ' "$R/$b.out" | head -1 | sed 's/.*tflops=\([0-9.]*\) ratio=\([0-9.]*\).*/\1 \2/')
    pass=$(grep -c ': PASS' "$R/$b.out"); fail=$(grep -c ': FAIL' "$R/$b.out")
    echo "$b rc=$rc pass=$pass fail=$fail spill=${spill:-?} c75=$ser tlc_tflops=${tf:--} cublas_tflops_ratio=${cr:--}" >>"$R/table.txt"
    [ -n "${OUT:-}" ] && cp "$R/table.txt" "$OUT/" 2>/dev/null # partial results survive a time-out
  done
  if [ "${SANITIZE:-0}" = 1 ] && command -v compute-sanitizer >/dev/null; then
    # Small problems only: racecheck slows a kernel by orders of magnitude.
    for b in v_64x64x16_f16 v_64x32x32_bf16 v_64x128x128_tatb v_128x256x64_2wg v_odd_1000 cl_v_128x256x64_2wg cl_v_odd_1000; do
      [ -x "$R/$b" ] || continue
      for tool in memcheck synccheck racecheck; do
        timeout 60 compute-sanitizer --tool $tool "$R/$b" --iters 1 >"$R/$b.$tool.txt" 2>&1
        echo "sanitize $b $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$b.$tool.txt" | tail -1)" >>"$R/table.txt"
        [ -n "${OUT:-}" ] && cp "$R/table.txt" "$OUT/" 2>/dev/null
      done
    done
  fi
  if [ -n "${OUT:-}" ]; then
    tar czf "$OUT/hopper-run.tgz" -C "$R" . 2>/dev/null
    cp "$R/table.txt" "$OUT/" 2>/dev/null
  fi
  cat "$R/table.txt"
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) echo "usage: sh bench/hopper.sh prepare|run" >&2; exit 2 ;;
esac
