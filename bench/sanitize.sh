#!/bin/sh
# bench/sanitize.sh: compute-sanitizer memcheck and racecheck on the harness
# of every example, at a small size.
#   sh bench/sanitize.sh prepare   HERE: writes bench/gen-san/*.cu (small copies of examples/*.tl)
#   sh bench/sanitize.sh run       ON THE GPU MACHINE (carry bench/gen-san): builds and runs them
set -eu
cd "$(dirname "$0")/.."
DIR=bench/gen-san
case "${1:-}" in
prepare)
  TLC=${TLC:-build/bin/tlc}
  rm -rf "$DIR" && mkdir -p "$DIR"
  # Shrink the module constants that set the problem size.
  for f in examples/*.tl; do
    b=$(basename "$f" .tl)
    sed -e 's/^M = N = 4096/M = N = 256/' -e 's/^M = N = K = 4096/M = N = K = 256/' \
        -e 's/^M, N = 8192, 1024/M, N = 64, 1024/' -e 's/^M, N = 4096, 8192/M, N = 64, 1024/' \
        "$f" >"$DIR/$b.tl"
    "$TLC" --harness --iters=1 "$DIR/$b.tl" -o "$DIR/$b.cu"
  done
  echo "prepared $(ls "$DIR"/*.cu | wc -l) harnesses in $DIR" ;;
run)
  fail=0
  for cu in "$DIR"/*.cu; do
    b=${cu%.cu}
    nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -lineinfo "$cu" -o "$b"
    "$b" --no-perf | tail -1
    for tool in memcheck racecheck; do
      if compute-sanitizer --tool $tool --error-exitcode 9 "$b" --no-perf >"$b.$tool.log" 2>&1; then
        echo "$(basename "$b") $tool: clean"
      else
        echo "$(basename "$b") $tool: FINDINGS (see $b.$tool.log)"; fail=1
      fi
    done
  done
  exit $fail ;;
*)
  echo "usage: sh bench/sanitize.sh prepare|run" >&2; exit 2 ;;
esac
