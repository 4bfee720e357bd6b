#!/bin/sh
# bench/run_on_gpu.sh: run ON THE GPU MACHINE from the repository root, after
# bench/prepare.sh wrote bench/gen/ (it needs nvcc, python3 with torch and
# triton; no tlc, no libyaml).
#
#   1. compiles every bench/gen/*.cu and bench/gen/tests/*.cu harness
#      (nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -lcublas),
#   2. runs the test harnesses (test/GPU/Inputs: the GPU tests, as a
#      correctness gate; NO_TESTS=1 skips them), then each benchmark harness
#      (checks, then median timing; cuBLAS beside single GEMMs),
#   3. runs bench/peers.py (torch and Triton on the same shapes and dtypes),
#   4. bench/report.py prints a short table last and writes bench/RESULTS.md
#      (+ bench/throughput.png when matplotlib is there).
# Logs go to bench/gen/run/; when $OUT is set, RESULTS.md, the plot and the
# logs are copied there too. Takes about 2-4 minutes on an H200.
#
# Env: ITERS=100 (timed runs per kernel), JOBS=8 (parallel nvcc),
#      NVCC=nvcc, NO_PEERS=1 (skip torch/Triton), PEERS_TIMEOUT=S (stop them after S s).
set -u
cd "$(dirname "$0")/.."
GEN=bench/gen
RUN=$GEN/run
ITERS=${ITERS:-100}
JOBS=${JOBS:-8}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if ! ls "$GEN"/*.cu >/dev/null 2>&1; then
  echo "no harnesses in $GEN: run bench/prepare.sh first (and carry bench/gen to this machine)" >&2
  exit 2
fi
rm -rf "$RUN"
mkdir -p "$RUN"
start=$(date +%s)

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "host: $(hostname)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.draw,power.limit,temperature.gpu --format=csv 2>&1
  "$NVCC" --version 2>&1 | tail -2
  cat "$GEN/prepared.txt" 2>/dev/null
} >"$RUN/environment.txt"
nvidia-smi -q -d CLOCK,POWER >"$RUN/clocks-before.txt" 2>&1

mkdir -p "$RUN/tests"
echo "== compiling $(ls "$GEN"/*.cu "$GEN"/tests/*.cu 2>/dev/null | wc -l) harnesses ($NVCC, $JOBS at a time)"
# Each binary goes to $RUN/<dir relative to $GEN>/<name>.
ls "$GEN"/*.cu "$GEN"/tests/*.cu 2>/dev/null | xargs -P "$JOBS" -I{} sh -c \
  'o='"$RUN"'/${1#'"$GEN"'/}; o=${o%.cu}; "$0" -O3 -gencode=arch=compute_90a,code=sm_90a "$1" -o "$o" -lcublas >"$o.nvcc.log" 2>&1 \
     || echo "   NVCC FAILED: $1 (see $o.nvcc.log)"' "$NVCC" {}
echo "   $(( $(date +%s) - start )) s"

if [ "${NO_TESTS:-0}" != 1 ]; then
  echo "== correctness gate: the test harnesses (test/GPU/Inputs)"
  : >"$RUN/tests.txt"
  for cu in "$GEN"/tests/*.cu; do
    [ -e "$cu" ] || continue
    b=$(basename "$cu" .cu)
    if [ ! -x "$RUN/tests/$b" ]; then
      echo "$b: NOT BUILT" >>"$RUN/tests.txt"
      continue
    fi
    "$RUN/tests/$b" --iters 5 >"$RUN/tests/$b.out" 2>&1
    rc=$?
    pass=$(grep -c ': PASS' "$RUN/tests/$b.out")
    fail=$(grep -c ': FAIL' "$RUN/tests/$b.out")
    if [ "$b" = ref_oob ]; then # a wrong program: it must fail, naming the line
      if [ $rc = 1 ] && grep -q 'indexed outside a buffer at line 9' "$RUN/tests/$b.out"; then
        echo "$b: ok (failed as it must: out-of-bounds index reported)" >>"$RUN/tests.txt"
      else
        echo "$b: WRONG (exit $rc; the out-of-bounds index was not reported)" >>"$RUN/tests.txt"
      fi
    elif [ $rc = 0 ]; then
      echo "$b: ok ($pass checks pass)" >>"$RUN/tests.txt"
    else
      echo "$b: FAIL (exit $rc, $pass pass, $fail fail; see $RUN/tests/$b.out)" >>"$RUN/tests.txt"
    fi
  done
  sed 's/^/   /' "$RUN/tests.txt"
  echo "   $(( $(date +%s) - start )) s"
fi

echo "== running the harnesses (--iters $ITERS)"
for cu in "$GEN"/*.cu; do
  b=$(basename "$cu" .cu)
  [ -x "$RUN/$b" ] || { echo "   $b: not built"; continue; }
  "$RUN/$b" --iters "$ITERS" >"$RUN/$b.out" 2>&1
  echo "   $b: exit $? ($(grep -c ': PASS' "$RUN/$b.out") pass, $(grep -c ': FAIL' "$RUN/$b.out") fail)"
done
echo "   $(( $(date +%s) - start )) s"
nvidia-smi -q -d CLOCK,POWER >"$RUN/clocks-after.txt" 2>&1

if [ "${NO_PEERS:-0}" != 1 ]; then
  echo "== torch and Triton on the same shapes (bench/peers.py)"
  # PEERS_TIMEOUT=S stops peers.py after S seconds (a lease's time is short).
  ${PEERS_TIMEOUT:+timeout "$PEERS_TIMEOUT"} python3 bench/peers.py "$GEN/kernels.json" "$RUN/peers.json" 2>"$RUN/peers.log" || {
    echo "   peers.py failed (see $RUN/peers.log):"
    tail -5 "$RUN/peers.log"
  }
  echo "   $(( $(date +%s) - start )) s"
fi

echo "== report (measured in $(( $(date +%s) - start )) s)"
# The table comes last: the device tool returns the end of the output.
python3 bench/report.py "$GEN" "$RUN" bench/RESULTS.md bench/throughput.png >"$RUN/report.txt" 2>&1
status=$?
if [ -n "${OUT:-}" ] && [ -d "${OUT:-}" ]; then
  mkdir -p "$OUT/bench"
  cp bench/RESULTS.md "$OUT/bench/" 2>/dev/null
  cp bench/throughput.png "$OUT/bench/" 2>/dev/null
  cp "$RUN"/*.out "$RUN"/*.txt "$RUN"/*.json "$RUN"/*.log "$GEN/kernels.json" "$OUT/bench/" 2>/dev/null
  mkdir -p "$OUT/bench/tests" && cp "$RUN"/tests/*.out "$OUT/bench/tests/" 2>/dev/null
fi
cat "$RUN/report.txt"
exit $status
