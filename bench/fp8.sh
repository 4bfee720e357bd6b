#!/bin/sh
# bench/fp8.sh: fp8 (float8_e4m3 / float8_e5m2) on the H200 in one GPU call:
# the fp8 GEMM variants of bench/gemm_variants.py (wgmma k32), the same
# kernel on the cp.async path and on CUDA cores (sm_90, no wgmma), the fp8
# test inputs, TileLang's fp8 example files (bench/gen-corpus), each checked
# against tlc's reference lowering on random data; then the large GEMMs
# timed beside torch._scaled_mm (cuBLAS fp8) in the same run.
#
#   sh bench/fp8.sh prepare   HERE: writes bench/gen-fp8/ (harness .cu files)
#   sh bench/fp8.sh run       ON THE GPU MACHINE: nvcc (16 at a time), run,
#                             compute-sanitizer on the small ones, torch peer,
#                             one line per harness and a table last.
set -u
cd "$(dirname "$0")/.."
GEN=bench/gen-fp8
ITERS=${ITERS:-50}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

prepare() {
  set -e
  rm -rf "$GEN" && mkdir -p "$GEN/src"
  python3 bench/gemm_variants.py "$GEN/src" v8_64x64x32_e4m3 v8_128x128x64_e5m2 v8_128x256x128_2wg \
    v8_odd_k480 s8_4096_128x256x128_2wg s8_4096_128x256x128_2wg_4st s8_8192_128x256x128_2wg >/dev/null
  : >"$GEN/SKIPPED"
  mk() { # NAME FILE TARGET [TLC FLAG]
    build/bin/tlc --harness --iters="$ITERS" --target="$3" ${4:-} "$2" -o "$GEN/$1.cu" 2>"$GEN/$1.err" &&
      rm -f "$GEN/$1.err" || { echo "$1: $(head -1 "$GEN/$1.err")" >>"$GEN/SKIPPED"; rm -f "$GEN/$1.cu"; }
  }
  for f in "$GEN"/src/*.tl; do mk "$(basename "$f" .tl)" "$f" sm_90a; done
  mk cpasync_v8_128x128x64_e5m2 "$GEN/src/v8_128x128x64_e5m2.tl" sm_90a --no-warp-specialize
  mk cores_v8_odd_k480 "$GEN/src/v8_odd_k480.tl" sm_90
  mk in_fp8_gemm test/GPU/Inputs/fp8_gemm.tl sm_90a
  mk in_fp8_quant test/GPU/Inputs/fp8_quant.tl sm_90a
  for f in bench/gen-corpus/*/*fp8*_harness.cu; do
    [ -f "$f" ] && cp "$f" "$GEN/tl_$(basename "$(dirname "$f")")_$(basename "$f" _harness.cu | sed 's/^examples_//').cu"
  done
  ls "$GEN"/*.cu | wc -l
  cat "$GEN/SKIPPED"
}

run() {
  R=$GEN/run
  rm -rf "$R" && mkdir -p "$R"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
  ls "$GEN"/*.cu | xargs -P 16 -I{} sh -c '
    b=$(basename "$1" .cu)
    case $b in cores_*) arch="-arch=sm_90" ;; *) arch="-gencode=arch=compute_90a,code=sm_90a" ;; esac
    "$0" -O3 $arch -Xptxas -v "$1" -o "'"$R"'/$b" -lcublas >"'"$R"'/$b.nvcc.log" 2>&1 || echo "NVCC FAILED: $b"' "$NVCC" {}
  : >"$R/table.txt"
  for cu in "$GEN"/*.cu; do
    b=$(basename "$cu" .cu)
    [ -x "$R/$b" ] || { echo "$b NOT-BUILT" >>"$R/table.txt"; continue; }
    seeds="1"; case $b in v8_*|in_*|cores_*|cpasync_*) seeds="1 2 3" ;; esac
    pass=0; fail=0
    for s in $seeds; do
      timeout "${TIMEOUT:-60}" "$R/$b" --iters "$ITERS" --seed "$s" >"$R/$b.$s.out" 2>&1
      pass=$((pass + $(grep -c ': PASS' "$R/$b.$s.out"))); fail=$((fail + $(grep -c ': FAIL' "$R/$b.$s.out")))
      grep ': FAIL' "$R/$b.$s.out" | head -2
    done
    spill=$(grep -A2 "_kernel' for" "$R/$b.nvcc.log" | grep -v "_ref_kernel" | grep -o '[0-9]* bytes spill stores' | head -1 | cut -d' ' -f1)
    tf=$(grep '^perf ' "$R/$b.1.out" | head -1 | sed 's/.*tflops=\([0-9.]*\).*/\1/')
    echo "$b pass=$pass fail=$fail spill=${spill:-?} tlc_tflops=${tf:--}" >>"$R/table.txt"
  done
  if command -v compute-sanitizer >/dev/null; then
    for b in v8_64x64x32_e4m3 v8_odd_k480 in_fp8_gemm in_fp8_quant; do
      [ -x "$R/$b" ] || continue
      for tool in memcheck synccheck racecheck; do
        timeout 120 compute-sanitizer --tool $tool "$R/$b" --no-perf >"$R/$b.$tool.txt" 2>&1
        echo "sanitize $b $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$R/$b.$tool.txt" | tail -1)" >>"$R/table.txt"
      done
    done
  fi
  python3 bench/fp8_peers.py 4096 8192 >>"$R/table.txt" 2>&1
  cat "$R/table.txt"
}

case "${1:-}" in
prepare) prepare ;;
run) run ;;
*) echo "usage: sh bench/fp8.sh prepare|run" >&2; exit 2 ;;
esac
