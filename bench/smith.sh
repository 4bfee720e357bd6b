#!/bin/sh
# bench/smith.sh: differential testing of tlc with random valid kernels
# (tools/tlc-smith): every kernel's compiled code against tlc's reference
# lowering (docs/harness.md) on random data.
#
#   sh bench/smith.sh prepare N [SEED]   HERE: N kernels from seeds SEED..SEED+N-1
#       (default 1), BATCH per file (default 50). Each file is compiled by
#       tlc (every other file with --target=sm_90, so T.gemm takes both the
#       wgmma and the mma.sync paths), checked by tlc-verify, and its harness
#       built by nvcc (-j JOBS, default 2) into bench/gen-smith/. A kernel tlc
#       refuses fails prepare: it is a generator or compiler bug. tlc-verify's
#       reports are collected in bench/gen-smith/VERIFY.txt.
#   sh bench/smith.sh run                ON THE GPU MACHINE (needs no tlc, no nvcc):
#       runs every harness with --no-perf, prints a table (files, kernels,
#       PASS, FAIL per family) and writes bench/gen-smith/run/mismatches.txt:
#       per failing kernel its seed, the harness's FAIL lines and the command
#       that regenerates it alone (`tlc-smith --seed S`), which is the
#       reproducer to minimize here and keep as a lit test. With $OUT set the
#       logs are copied to $OUT/smith/.
#   sh bench/smith.sh emulate N [SEED]   HERE: one file per seed, run on the CPU
#       emulator (test/GPU/emu): kernels without inline PTX (no tensor-core
#       gemm, no cp.async) run compiled against the reference; the others are
#       counted as skipped.
#
# Device tool: `sh bench/smith.sh prepare 1000` here, then on the device
# `sh bench/smith.sh run` with carry ["bench/gen-smith"] (about 40 MB for
# 1000 kernels, so at most ~1500 fit in one carry; the run takes about a
# minute of GPU time). prepare 1000 takes ~20 min of nvcc on 2 busy cores.
# Env: BUILD (default build), BATCH, JOBS, NVCC.
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
BATCH=${BATCH:-50}
JOBS=${JOBS:-2}
GEN=bench/gen-smith
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NVCC_FLAGS="-O3 -gencode=arch=compute_90a,code=sm_90a"

usage() {
  sed -n '2,30p' "$0" >&2
  exit 2
}

build_tools() {
  cmake -S . -B "$BUILD" >/dev/null
  cmake --build "$BUILD" -j2 --target tlc tlc-smith >/dev/null
  cmake --build "$BUILD" -j2 --target tlc-verify >/dev/null 2>&1 || true
}

# compile_one FILE.tl: the harness FILE.cu, the kernels alone (for tlc-verify)
# and the binary FILE (stripped: the device tool carries at most 64 MB).
compile_one() {
  tl=$1
  base=${tl%.tl}
  target=$(sed -n 's/^# target: //p' "$tl")
  "$BUILD/bin/tlc" --target="$target" --harness "$tl" -o "$base.cu" 2>"$base.err" || {
    echo "REFUSED $tl (target $target):" && head -20 "$base.err"
    return 1
  }
  "$BUILD/bin/tlc" --target="$target" "$tl" -o "$base.kernels.cu" 2>>"$base.err"
  if [ -x "$BUILD/bin/tlc-verify" ]; then
    # Reported, not fatal: tlc-verify is conservative (docs/tlc-verify.md), so
    # a report is a tlc bug or a tlc-verify false positive, to be read.
    "$BUILD/bin/tlc-verify" "$base.kernels.cu" --target "$target" >"$base.verify" 2>&1 ||
      echo "tlc-verify reports on $base.kernels.cu (see $base.verify)"
  fi
  "$NVCC" $NVCC_FLAGS "$base.cu" -o "$base" >>"$base.err" 2>&1 || {
    echo "NVCC $tl:" && tail -20 "$base.err"
    return 1
  }
  strip "$base" 2>/dev/null || true
  # The sources stay for reading (zcat), compressed: the device tool carries
  # at most 64 MB (1000 kernels: about 37 MB of binaries, 3 MB of the rest).
  gzip -f "$base.cu" "$base.kernels.cu"
  echo "built $base"
}

prepare() {
  count=$1
  seed=${2:-1}
  build_tools
  rm -rf "$GEN"
  mkdir -p "$GEN"
  i=0
  while [ "$i" -lt "$count" ]; do
    n=$((count - i < BATCH ? count - i : BATCH))
    file=$(printf '%s/b%05d.tl' "$GEN" $((i / BATCH)))
    target=sm_90a
    [ $((i / BATCH % 2)) -eq 1 ] && target=sm_90
    "$BUILD/bin/tlc-smith" --seed $((seed + i)) --count "$n" -o "$file"
    printf '# target: %s\n' "$target" >>"$file"
    i=$((i + n))
  done
  # One compile per file, JOBS at a time (this script again, as compile-one).
  if ! ls "$GEN"/*.tl | xargs -P "$JOBS" -n 1 sh "$0" compile-one; then
    echo "prepare: some files did not build (see above)"
    exit 1
  fi
  cat "$GEN"/*.verify >"$GEN/VERIFY.txt" 2>/dev/null || true
  grep -h '^# smith:' "$GEN"/*.tl | sed 's/.*features=//' | tr ',' '\n' | sort | uniq -c |
    sort -rn >"$GEN/features.txt"
  {
    echo "prepared $(date -u +%Y-%m-%dT%H:%MZ) from $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
    echo "kernels $count seeds $seed..$((seed + count - 1)) batch $BATCH"
  } >"$GEN/prepared.txt"
  echo "prepare: $count kernels in $(ls "$GEN"/*.tl | wc -l) harnesses under $GEN," \
    "$(du -sh "$GEN" | cut -f1); features:"
  cat "$GEN/features.txt"
}

run() {
  [ -f "$GEN/prepared.txt" ] || {
    echo "run: no $GEN/prepared.txt; run 'sh bench/smith.sh prepare N' first"
    exit 2
  }
  log=$GEN/run
  rm -rf "$log"
  mkdir -p "$log"
  : >"$log/mismatches.txt"
  for tl in "$GEN"/b*.tl; do
    exe=${tl%.tl}
    name=$(basename "$exe")
    status=0
    "./$exe" --no-perf >"$log/$name.log" 2>&1 || status=$?
    [ "$status" -le 1 ] || echo "harness $name exited $status" >>"$log/mismatches.txt"
    grep '^check .*: FAIL' "$log/$name.log" | while read -r _ kernel _; do
      kernel=${kernel%:}
      seed=$(echo "$kernel" | sed 's/^k\([0-9]*\)_.*/\1/')
      {
        echo "== $kernel ($name, $(sed -n 's/^# target: //p' "$tl")): reproduce with"
        echo "   tlc-smith --seed $seed -o k$seed.tl && tlc --target=$(sed -n 's/^# target: //p' "$tl") --harness k$seed.tl -o k$seed.cu"
        grep -A3 "^check $kernel:" "$log/$name.log"
      } >>"$log/mismatches.txt"
    done
  done
  status=0
  python3 - "$GEN" <<'EOF' || status=$?
import glob, os, re, sys
gen = sys.argv[1]
fam = {}
for tl in sorted(glob.glob(os.path.join(gen, "b*.tl"))):
    text = open(tl).read()
    kernels = re.findall(r"^# smith: seed=(\d+) family=(\w+)", text, re.M)
    log = os.path.join(gen, "run", os.path.basename(tl)[:-3] + ".log")
    out = open(log).read() if os.path.exists(log) else ""
    for seed, family in kernels:
        m = re.search(r"^check k%s_%s: (PASS|FAIL)" % (seed, family), out, re.M)
        row = fam.setdefault(family, [0, 0, 0])
        row[0 if m and m.group(1) == "PASS" else 1 if m else 2] += 1
print("%-12s %8s %8s %8s" % ("family", "PASS", "FAIL", "no-run"))
tot = [0, 0, 0]
for f, row in sorted(fam.items()):
    print("%-12s %8d %8d %8d" % (f, *row))
    tot = [a + b for a, b in zip(tot, row)]
print("%-12s %8d %8d %8d" % ("total", *tot))
sys.exit(1 if tot[1] or tot[2] else 0)
EOF
  [ -s "$log/mismatches.txt" ] && cat "$log/mismatches.txt"
  if [ -n "${OUT:-}" ]; then
    mkdir -p "$OUT/smith"
    cp "$log"/* "$GEN/prepared.txt" "$GEN/features.txt" "$OUT/smith/"
  fi
  return $status
}

emulate() {
  count=$1
  seed=${2:-1}
  build_tools
  dir=$GEN-emu
  rm -rf "$dir"
  mkdir -p "$dir/src"
  i=0
  while [ "$i" -lt "$count" ]; do
    "$BUILD/bin/tlc-smith" --seed $((seed + i)) -o "$dir/src/k$((seed + i)).tl"
    i=$((i + 1))
  done
  python3 test/GPU/run_harnesses.py --tlc "$BUILD/bin/tlc" --emulate --no-perf \
    --out "$dir/out" "$dir/src" >"$dir/log.txt" 2>&1 || true
  ok=$(grep -c '^ok ' "$dir/log.txt" || true)
  skipped=$(grep -c '^skipped ' "$dir/log.txt" || true)
  echo "emulate: $count kernels: $ok ok, $skipped skipped (inline PTX), log $dir/log.txt"
  if grep -q 'FAIL' "$dir/log.txt"; then
    grep -B2 -A6 'FAIL' "$dir/log.txt"
    return 1
  fi
}

[ $# -ge 1 ] || usage
case $1 in
prepare) [ $# -ge 2 ] || usage; prepare "$2" "${3:-1}" ;;
run) run ;;
compile-one) compile_one "$2" ;;
emulate) [ $# -ge 2 ] || usage; emulate "$2" "${3:-1}" ;;
*) usage ;;
esac
