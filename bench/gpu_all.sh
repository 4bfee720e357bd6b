#!/bin/sh
# bench/gpu_all.sh: every GPU check of the tree in one device call.
#   HERE:  sh bench/gpu_all.sh prepare   (builds, writes bench/gen-hopper and
#          bench/gen-ts, copies libyaml next to build/bin/tlc so that tlc runs
#          on a machine without it)
#   THERE: sh bench/gpu_all.sh run       with carry ["bench/gen-hopper",
#          "bench/gen-ts", "bench/gen-rowwise", "build/bin"] (and
#          "bench/gen-smith" after `sh bench/smith.sh prepare N` here, N up
#          to ~500 for its 120 s here: smith.sh compiles them there);
#          prints each part's table.
set -u
cd "$(dirname "$0")/.."
case "${1:-}" in
prepare)
  set -e
  sh bench/hopper.sh prepare
  sh bench/tilelang_style.sh prepare
  NVCC=/nonexistent sh bench/rowwise.sh prepare # (nvcc compiles them there)
  cp "$(ldd build/bin/tlc | awk '/libyaml/ {print $3}')" build/bin/ 2>/dev/null || true
  ;;
run)
  export LD_LIBRARY_PATH="$PWD/build/bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export TLC="$PWD/build/bin/tlc"
  OUT=${OUT:-/tmp/gpu_all}
  mkdir -p "$OUT"
  SANITIZE=${SANITIZE:-1} TIMEOUT=30 sh bench/hopper.sh run >"$OUT/hopper.txt" 2>&1; r1=$?
  sh bench/tilelang_style.sh run >"$OUT/tilelang_style.txt" 2>&1; r2=$?
  OUT="$OUT/dynamic" timeout 200 bash test/GPU/Dynamic/run_on_gpu.sh >"$OUT/dynamic.txt" 2>&1; r3=$?
  OUT="$OUT/python" timeout 200 sh test/Python/gpu/run.sh check >"$OUT/python.txt" 2>&1; r4=$?
  timeout 240 sh bench/rowwise.sh run >"$OUT/rowwise.txt" 2>&1; r6=$?
  r5=-
  if [ -d bench/gen-smith ]; then
    DEADLINE=90 timeout 120 sh bench/smith.sh run >"$OUT/smith.txt" 2>&1; r5=$?
  fi
  cp bench/gen-hopper/run/table.txt "$OUT/hopper-table.txt" 2>/dev/null
  echo "== hopper (rc=$r1)"; grep -E "rc=" "$OUT/hopper.txt" | awk '{print $1,$2,$3,$4,$8,$9}'
  echo "== tilelang-style (rc=$r2)"; grep -A14 "^kernel (kind" "$OUT/tilelang_style.txt"
  echo "== dynamic (rc=$r3)"; tail -12 "$OUT/dynamic.txt"
  echo "== python (rc=$r4)"; tail -15 "$OUT/python.txt"
  echo "== smith (rc=$r5)"; tail -15 "$OUT/smith.txt" 2>/dev/null
  echo "== rowwise (rc=$r6)"; grep -E "^check|FAIL" "$OUT/rowwise.txt" | grep -v PASS | head; tail -16 "$OUT/rowwise.txt"
  ;;
*)
  echo "usage: sh bench/gpu_all.sh prepare|run" >&2
  exit 2
  ;;
esac
