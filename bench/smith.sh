#!/bin/sh
# bench/smith.sh: differential testing of tlc with random valid kernels
# (tools/tlc-smith): every kernel's compiled code against tlc's reference
# lowering (docs/harness.md) on random data.
#
#   sh bench/smith.sh prepare N [SEED]   HERE (cheap: no nvcc): N kernels from
#       seeds SEED..SEED+N-1 (default 1), BATCH per file (default 100). Each
#       file goes through tlc --harness (every other file with --target=sm_90,
#       so T.gemm takes both the wgmma and the mma.sync paths; runtime sizes
#       bound by the kernels' "# smith-size:" lines) and tlc-verify, into
#       bench/gen-smith/: bNNNNN.tl, bNNNNN.cu.gz (the harness), MANIFEST.tsv
#       (file, target, kernels, first seed), features.txt, VERIFY.txt. A
#       kernel tlc refuses fails prepare: a generator or compiler bug.
#   sh bench/smith.sh run                ON THE GPU MACHINE (nvcc, no tlc):
#       compiles every harness with nvcc, JOBS at a time (default 16), then
#       runs them with --no-perf, RUNJOBS at a time (default 4), and prints a
#       table last: kernels, PASS/FAIL/no-run per family, features, nvcc
#       failures, wall time per phase. Phases stop starting new files after
#       DEADLINE seconds in all (default 500; what did not run counts as
#       no-run). Writes bench/gen-smith/run/mismatches.txt: per failing
#       kernel its seed, the harness's FAIL lines and the commands that
#       regenerate it alone (the reproducer to minimize here and keep as a lit
#       test). With $OUT set, the logs go to $OUT/smith/.
#   sh bench/smith.sh emulate N [SEED]   HERE: one file per seed, run on the CPU
#       emulator (test/GPU/emu): kernels run compiled against the reference,
#       tensor-core gemms and async copies included (emu/ptx_emu.h interprets
#       tlc's PTX); a file with PTX it does not interpret counts as skipped.
#
# Device tool: `sh bench/smith.sh prepare 3000` here (about 5 minutes on two
# busy cores; about 3 MB), then on the device `sh bench/smith.sh run` with
# carry ["bench/gen-smith"]. Env: BUILD (default build), BATCH, JOBS,
# RUNJOBS, DEADLINE, RUN_TIMEOUT (per harness, default 120 s), NVCC (a command, perhaps with arguments: the emulator's
# `python3 test/GPU/emu/emucc.py` runs the device half on the CPU), FAMILY
# (prepare: only that tlc-smith family), GEN (the folder, default
# bench/gen-smith), SKIP_BUILD (set: use BUILD's tools as they are),
# VERIFY=0 (prepare without tlc-verify: about half of prepare's time).
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BATCH=${BATCH:-100}
GEN=${GEN:-bench/gen-smith}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NVCC_FLAGS="-O3 -gencode=arch=compute_90a,code=sm_90a"

usage() {
  sed -n '2,33p' "$0" >&2
  exit 2
}

now() { date +%s; }

# A path to run: relative ones from here.
runnable() {
  case $1 in
  /*) echo "$1" ;;
  *) echo "./$1" ;;
  esac
}

build_tools() {
  [ -z "${SKIP_BUILD:-}" ] || return 0
  cmake -S . -B "$BUILD" >/dev/null
  cmake --build "$BUILD" -j2 --target tlc tlc-smith >/dev/null
  cmake --build "$BUILD" -j2 --target tlc-verify >/dev/null 2>&1 || true
}

# The --size flags of a file: one per "# smith-size: NAME=VALUE" line.
size_flags() {
  sed -n 's/^# smith-size: \(.*\)$/--size \1/p' "$1" | tr '\n' ' '
}

# harness_one FILE.tl: the harness FILE.cu (for the file's "# target:"), and
# the kernels alone checked by tlc-verify (report in FILE.verify).
harness_one() {
  tl=$1
  base=${tl%.tl}
  target=$(sed -n 's/^# target: //p' "$tl")
  target=${target:-sm_90a}
  # shellcheck disable=SC2046 # one word per flag
  "$BUILD/bin/tlc" --target="$target" --harness $(size_flags "$tl") "$tl" -o "$base.cu" \
    2>"$base.err" || {
    echo "REFUSED $tl (target $target):" && head -20 "$base.err"
    return 1
  }
  if [ "${VERIFY:-1}" != 0 ] && [ -x "$BUILD/bin/tlc-verify" ]; then
    # Reported, not fatal: tlc-verify is conservative (docs/tlc-verify.md), so
    # a report is a tlc bug or a tlc-verify false positive, to be read.
    "$BUILD/bin/tlc" --target="$target" "$tl" -o "$base.kernels.cu" 2>>"$base.err"
    "$BUILD/bin/tlc-verify" "$base.kernels.cu" --target "$target" >"$base.verify" 2>&1 ||
      echo "tlc-verify reports on $base.kernels.cu (see $base.verify)"
    rm -f "$base.kernels.cu"
  fi
  rm -f "$base.err"
}

# The batches of prepare: file i holds seeds seed + i * BATCH onwards.
write_batches() {
  count=$1
  seed=$2
  i=0
  while [ "$i" -lt "$count" ]; do
    n=$((count - i < BATCH ? count - i : BATCH))
    file=$(printf '%s/b%05d.tl' "$GEN" $((i / BATCH)))
    target=sm_90a
    [ $((i / BATCH % 2)) -eq 1 ] && target=sm_90
    # shellcheck disable=SC2046 # no word, or two
    "$BUILD/bin/tlc-smith" --seed $((seed + i)) --count "$n" \
      $([ -n "${FAMILY:-}" ] && echo --family "$FAMILY") -o "$file"
    printf '# target: %s\n' "$target" >>"$file"
    printf '%s\t%s\t%d\t%d\n' "$(basename "$file" .tl)" "$target" "$n" $((seed + i)) \
      >>"$GEN/MANIFEST.tsv"
    i=$((i + n))
  done
}

prepare() {
  count=$1
  seed=${2:-1}
  start=$(now)
  build_tools
  rm -rf "$GEN"
  mkdir -p "$GEN"
  write_batches "$count" "$seed"
  if ! ls "$GEN"/*.tl | xargs -P "${JOBS:-2}" -n 1 sh "$0" harness-one; then
    echo "prepare: tlc refused some files (see above)"
    exit 1
  fi
  # The device carries at most 64 MB: harnesses are ~9 KB per kernel, ~1 KB
  # compressed.
  gzip -f "$GEN"/*.cu
  cat "$GEN"/*.verify >"$GEN/VERIFY.txt" 2>/dev/null || true
  rm -f "$GEN"/*.verify
  grep -h '^# smith:' "$GEN"/*.tl | sed 's/.*features=//' | tr ',' '\n' | sort | uniq -c |
    sort -rn >"$GEN/features.txt"
  {
    echo "prepared $(date -u +%Y-%m-%dT%H:%MZ) from $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "kernels $count seeds $seed..$((seed + count - 1)) batch $BATCH"
  } >"$GEN/prepared.txt"
  echo "prepare: $count kernels in $(ls "$GEN"/*.tl | wc -l) harnesses under $GEN," \
    "$(du -sh "$GEN" | cut -f1), $(($(now) - start)) s; tlc-verify reports:" \
    "$(grep -c 'error' "$GEN/VERIFY.txt" || true) lines in $GEN/VERIFY.txt; features:"
  cat "$GEN/features.txt"
}

# nvcc_one bNNNNN.cu.gz (device): the binary bNNNNN, or bNNNNN.nvcc.err; the
# seconds it took in bNNNNN.nvcc.s. Past the deadline the file is skipped.
nvcc_one() {
  base=${1%.cu.gz}
  if [ "$(now)" -ge "$SMITH_UNTIL" ]; then
    echo "skipped: past the deadline" >"$base.nvcc.err"
    return 0
  fi
  t=$(now)
  gzip -dc "$1" >"$base.cu"
  # shellcheck disable=SC2086 # NVCC may be a command with arguments
  if ! $NVCC $NVCC_FLAGS "$base.cu" -o "$base" >"$base.nvcc.out" 2>&1; then
    mv "$base.nvcc.out" "$base.nvcc.err"
  fi
  rm -f "$base.cu" "$base.nvcc.out"
  echo $(($(now) - t)) >"$base.nvcc.s"
}

# run_one bNNNNN (device): its log in run/bNNNNN.log, its exit status in
# run/bNNNNN.status.
run_one() {
  name=$(basename "$1")
  [ "$(now)" -lt "$SMITH_UNTIL" ] || return 0
  status=0
  timeout "${RUN_TIMEOUT:-120}" "$(runnable "$1")" --no-perf >"$GEN/run/$name.log" 2>&1 || status=$?
  echo "$status" >"$GEN/run/$name.status"
}

run() {
  [ -f "$GEN/MANIFEST.tsv" ] || {
    echo "run: no $GEN/MANIFEST.tsv; run 'sh bench/smith.sh prepare N' here first"
    exit 2
  }
  log=$GEN/run
  # Nothing of an earlier run may count: binaries, nvcc results, logs.
  rm -rf "$log" "$GEN"/*.nvcc.*
  for f in $(cut -f1 "$GEN/MANIFEST.tsv"); do
    rm -f "$GEN/$f"
  done
  mkdir -p "$log"
  start=$(now)
  SMITH_UNTIL=$((start + ${DEADLINE:-500}))
  export SMITH_UNTIL NVCC
  ls "$GEN"/b*.cu.gz | xargs -P "${JOBS:-16}" -n 1 sh "$0" nvcc-one
  built=$(now)
  for f in $(cut -f1 "$GEN/MANIFEST.tsv"); do
    [ -x "$GEN/$f" ] && echo "$GEN/$f"
  done | xargs -r -P "${RUNJOBS:-4}" -n 1 sh "$0" run-one
  ran=$(now)
  status=0
  python3 bench/smith_table.py "$GEN" "$((built - start))" "$((ran - built))" \
    >"$log/table.txt" || status=$?
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/smith"
    cp "$log"/* "$GEN/prepared.txt" "$GEN/features.txt" "$GEN/MANIFEST.tsv" "$OUT/smith/"
    cp "$GEN"/*.nvcc.err "$OUT/smith/" 2>/dev/null || true
  fi
  # The table last: it is what the device tool's output tail shows.
  head -c 6000 "$log/mismatches.txt"
  cat "$log/table.txt"
  return $status
}

# emulate_one kSEED.tl: the harness, built by the emulator's compiler and run
# (emucc exits 77 for kernels with inline PTX: skipped).
emulate_one() {
  base=${1%.tl}
  harness_one "$1" >/dev/null || {
    echo "REFUSED $1"
    return 0
  }
  status=0
  python3 test/GPU/emu/emucc.py "$base.cu" -o "$base" >"$base.log" 2>&1 || status=$?
  if [ "$status" -eq 77 ]; then
    echo "skipped $(basename "$base")"
  elif [ "$status" -ne 0 ]; then
    echo "FAIL $(basename "$base"): the emulator did not build it (see $base.log)"
  elif "$(runnable "$base")" --no-perf >>"$base.log" 2>&1 && ! grep -q 'FAIL' "$base.log"; then
    echo "ok $(basename "$base")"
  else
    echo "FAIL $(basename "$base") (see $base.log):"
    grep -A3 'FAIL' "$base.log" | head -8
  fi
}

emulate() {
  count=$1
  seed=${2:-1}
  build_tools
  dir=$GEN-emu
  rm -rf "$dir"
  mkdir -p "$dir"
  i=0
  while [ "$i" -lt "$count" ]; do
    "$BUILD/bin/tlc-smith" --seed $((seed + i)) -o "$dir/k$((seed + i)).tl"
    i=$((i + 1))
  done
  ls "$dir"/k*.tl | xargs -P "${JOBS:-2}" -n 1 sh "$0" emulate-one >"$dir/log.txt"
  ok=$(grep -c '^ok ' "$dir/log.txt" || true)
  skipped=$(grep -c '^skipped ' "$dir/log.txt" || true)
  echo "emulate: $count kernels: $ok ok, $skipped skipped (PTX the emulator does not interpret), log $dir/log.txt"
  if grep -q '^FAIL\|^REFUSED' "$dir/log.txt"; then
    grep -A8 '^FAIL\|^REFUSED' "$dir/log.txt"
    return 1
  fi
}

[ $# -ge 1 ] || usage
case $1 in
prepare) [ $# -ge 2 ] || usage; prepare "$2" "${3:-1}" ;;
run) run ;;
harness-one) harness_one "$2" ;;
nvcc-one) nvcc_one "$2" ;;
run-one) run_one "$2" ;;
emulate-one) emulate_one "$2" ;;
emulate) [ $# -ge 2 ] || usage; emulate "$2" "${3:-1}" ;;
*) usage ;;
esac
