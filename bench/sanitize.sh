#!/bin/sh
# bench/sanitize.sh: compute-sanitizer memcheck, synccheck and racecheck on
# the harness of every example at a small size (module constants shrunk with
# -D), plus the GEMM examples with --cluster and at an odd size (edge tiles).
#   sh bench/sanitize.sh prepare   HERE: writes bench/gen-san/*.cu
#   sh bench/sanitize.sh run       ON THE GPU MACHINE (carry bench/gen-san): builds them
#                                  (nvcc, 16 in parallel), runs each harness, then the
#                                  three tools on each, and prints a table last.
# A harness runs the kernel and tlc's reference lowering; racecheck also sees
# the reference kernels and, where a harness compares with cuBLAS, cuBLAS's
# own kernels (nvjet_*): the table counts racecheck hazards in tlc's kernels
# (names ending in _kernel) apart from the others.
set -eu
cd "$(dirname "$0")/.."
DIR=bench/gen-san
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  rm -rf "$DIR" && mkdir -p "$DIR"
  for f in examples/*.tl; do
    b=$(basename "$f" .tl)
    defs=""
    case "$b" in
    gemm*) sizes="M=512 N=512 K=512" ;;
    attention*) sizes="M=512" ;; # N is the key count the fragments hold
    *) sizes="M=256" ;;
    esac
    for kv in $sizes; do
      if grep -Eq "^([A-Z, ]*[ ,])?${kv%%=*}([ ,=][A-Z, ]*)?=" "$f"; then defs="$defs -D $kv"; fi
    done
    # shellcheck disable=SC2086
    "$TLC" --harness --iters=1 $defs "$f" -o "$DIR/$b.cu"
    case "$b" in
    gemm*)
      # shellcheck disable=SC2086
      "$TLC" --harness --iters=1 --cluster $defs "$f" -o "$DIR/${b}_cluster.cu"
      odd=$(echo "$defs" | sed 's/=512/=1000/g')
      # shellcheck disable=SC2086
      "$TLC" --harness --iters=1 $odd "$f" -o "$DIR/${b}_1000.cu" 2>/dev/null ||
        echo "$b at 1000: refused by tlc (the example needs divisible sizes)" ;;
    esac
  done
  # The warp-specialization tests: persistent kernels, the staged TMA-store
  # epilogue, clusters (small sizes already).
  for f in test/Transforms/WarpSpecialize/*.tl; do
    b=ws_$(basename "$f" .tl)
    flags=""
    case "$b" in *cluster*) flags="--cluster" ;; esac
    # shellcheck disable=SC2086
    "$TLC" --harness --iters=1 $flags "$f" -o "$DIR/$b.cu"
  done
  echo "prepared $(ls "$DIR"/*.cu | wc -l) harnesses in $DIR" ;;
run)
  NVCC=${NVCC:-nvcc}
  ls "$DIR"/*.cu | xargs -P 16 -I{} sh -c \
    'b=${1%.cu}; '"$NVCC"' -O3 -gencode=arch=compute_90a,code=sm_90a -lineinfo "$1" -o "$b" 2>"$b.nvcc.log" || echo "nvcc failed: $1"' _ {}
  printf '%-34s %-6s %-9s %-9s %s\n' harness check memcheck synccheck "racecheck (tlc / other kernels)" >"$DIR/table.txt"
  fail=0
  for cu in "$DIR"/*.cu; do
    b=${cu%.cu}
    n=$(basename "$b")
    [ -x "$b" ] || { printf '%-34s %s\n' "$n" "NOT BUILT" >>"$DIR/table.txt"; fail=1; continue; }
    check=$("$b" --no-perf 2>&1 | tail -1 | awk '{print $1}')
    res=""
    for tool in memcheck synccheck racecheck; do
      compute-sanitizer --tool $tool --print-limit 1000 "$b" --no-perf >"$b.$tool.log" 2>&1 || true
      errs=$(grep -Eo 'ERROR SUMMARY: [0-9]+' "$b.$tool.log" | awk '{print $3}' | tail -1)
      if [ $tool = racecheck ]; then
        summ=$(grep -Eo 'RACECHECK SUMMARY: [0-9]+ hazard' "$b.$tool.log" | awk '{print $3}' | tail -1)
        ours=$(grep -E '^(=+ +)?(Error|Warning): Race reported' -A3 "$b.$tool.log" | grep -c '_kernel' || true)
        res="$res ${summ:-?} (${ours} in tlc kernels)"
        [ "${ours:-0}" = 0 ] || fail=1
      else
        res="$res ${errs:-?}"
        [ "${errs:-1}" = 0 ] || fail=1
      fi
    done
    printf '%-34s %-6s %s\n' "$n" "$check" "$res" >>"$DIR/table.txt"
  done
  [ -n "${OUT:-}" ] && mkdir -p "$OUT/san" && cp "$DIR"/*.log "$DIR/table.txt" "$OUT/san/" 2>/dev/null || true
  cat "$DIR/table.txt"
  exit $fail ;;
*)
  echo "usage: sh bench/sanitize.sh prepare|run" >&2; exit 2 ;;
esac
