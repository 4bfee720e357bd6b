#!/bin/sh
# bench/prepare.sh: run HERE (where tlc builds), before bench/run_on_gpu.sh.
#
# Builds tlc, then writes into bench/gen/ (recreated each time):
#   *.cu            one harness per examples/*.tl and per size of the sweeps
#                   (element-wise add fp32/fp16, GEMM fp16/bf16), made with
#                   `tlc --harness --cublas`;
#   kernels.json    per kernel: harness, kind, shape, dtype, flops, bytes, read
#                   from the harnesses' TLH-META lines (for bench/peers.py);
#   tests/*.cu      harnesses for test/GPU/Inputs/*.tl (and reference-only
#                   ones, ref_*.cu): run_on_gpu.sh runs them first, as the
#                   GPU tests that need tlc cannot run on the GPU machine;
#   SKIPPED         programs tlc could not compile, with the reason;
#   prepared.txt    when, from which commit, with which tlc.
# When nvcc is installed here, it also checks that every harness compiles
# (NO_NVCC=1 skips that), so the GPU machine only runs things that build.
#
# Usage: sh bench/prepare.sh            (from the repository root)
# Env:   BUILD=build-harness  SIZES_ADD="1024 2048 4096 8192"
#        SIZES_GEMM="1024 2048 4096 8192"  ITERS=100  NVCC=/usr/local/cuda/bin/nvcc
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-harness}
SIZES_ADD=${SIZES_ADD:-"1024 2048 4096 8192"}
SIZES_GEMM=${SIZES_GEMM:-"1024 2048 4096 8192"}
ITERS=${ITERS:-100}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}

echo "== building tlc in $BUILD"
cmake -S . -B "$BUILD" >/dev/null
cmake --build "$BUILD" -j2 >/dev/null
TLC=$BUILD/bin/tlc

GEN=bench/gen
rm -rf "$GEN"
mkdir -p "$GEN/src"
: >"$GEN/SKIPPED"

# harness NAME FILE.tl: bench/gen/NAME.cu, or a line in SKIPPED.
harness() {
  if "$TLC" --harness --cublas --iters="$ITERS" "$2" -o "$GEN/$1.cu" 2>"$GEN/$1.err"; then
    rm -f "$GEN/$1.err"
    echo "   $1"
  else
    echo "$1 ($2): $(head -1 "$GEN/$1.err")" >>"$GEN/SKIPPED"
    echo "   $1: SKIPPED (tlc failed, see $GEN/SKIPPED)"
    rm -f "$GEN/$1.err" "$GEN/$1.cu"
  fi
}

echo "== harnesses for examples/*.tl"
for f in examples/*.tl; do
  harness "example_$(basename "$f" .tl)" "$f"
done

echo "== sweeps"
for dtype in float32 float16; do
  for n in $SIZES_ADD; do
    sed "s/@N@/$n/; s/@DTYPE@/$dtype/" bench/templates/add.tl.in >"$GEN/src/add_${dtype}_$n.tl"
    harness "add_${dtype}_$n" "$GEN/src/add_${dtype}_$n.tl"
  done
done
for dtype in float16 bfloat16; do
  for n in $SIZES_GEMM; do
    sed "s/@N@/$n/; s/@DTYPE@/$dtype/" bench/templates/gemm.tl.in >"$GEN/src/gemm_${dtype}_$n.tl"
    harness "gemm_${dtype}_$n" "$GEN/src/gemm_${dtype}_$n.tl"
  done
done

# The GPU tests (test/GPU/run-*.test) need tlc, which the GPU machine lacks:
# their harnesses are made here and run by run_on_gpu.sh as a correctness
# gate. Reference-only ones come from bench/refharness.c; ref_oob must fail.
echo "== test harnesses (test/GPU/Inputs) for the correctness gate"
mkdir -p "$GEN/tests"
cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -Iinclude bench/refharness.c "$BUILD/libtlccore.a" \
  -lyaml -lm -o "$BUILD/refharness"
for f in test/GPU/Inputs/*.tl; do
  n=$(basename "$f" .tl)
  case $n in name_clash | oob) continue ;; esac # an error case; a wrong program
  if ! "$TLC" --harness --cublas --iters=5 "$f" -o "$GEN/tests/$n.cu" 2>"$GEN/tests/$n.err"; then
    echo "tests/$n ($f): $(head -1 "$GEN/tests/$n.err")" >>"$GEN/SKIPPED"
    rm -f "$GEN/tests/$n.cu"
  fi
  rm -f "$GEN/tests/$n.err"
done
for n in gemm_shapes reduce_dim0 oob; do
  "$BUILD/refharness" --cublas --iters=5 "test/GPU/Inputs/$n.tl" -o "$GEN/tests/ref_$n.cu"
done
echo "   $(ls "$GEN"/tests/*.cu | wc -l) test harnesses"

echo "== $GEN/kernels.json"
python3 - "$GEN" <<'EOF'
import glob, json, os, re, sys
gen = sys.argv[1]
rows = []
for cu in sorted(glob.glob(os.path.join(gen, "*.cu"))):
    name = os.path.basename(cu)[:-3]
    m = re.match(r"(add|gemm)_(\w+?)_(\d+)$", name)
    with open(cu) as f:
        for line in f:
            if line.startswith("// TLH-META "):
                row = json.loads(line[len("// TLH-META "):])
                row["harness"] = name
                row["sweep"] = "%s_%s" % (m.group(1), m.group(2)) if m else None
                rows.append(row)
            elif not line.startswith("//") and not line.startswith("#define"):
                break
with open(os.path.join(gen, "kernels.json"), "w") as f:
    json.dump(rows, f, indent=1)
print("   %d kernels in %d harnesses" % (len(rows), len({r["harness"] for r in rows})))
EOF

{
  echo "prepared: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with local changes)')"
  echo "tlc: $("$TLC" --version)"
} >"$GEN/prepared.txt"

if [ "${NO_NVCC:-0}" != 1 ] && [ -x "$NVCC" ]; then
  echo "== checking that every harness compiles ($NVCC)"
  ls "$GEN"/*.cu "$GEN"/tests/*.cu | xargs -P 8 -I{} sh -c \
    '"$0" -O3 -gencode=arch=compute_90a,code=sm_90a "$1" -o "${1%.cu}.check" -lcublas >"${1%.cu}.nvcc.log" 2>&1 \
       && rm -f "${1%.cu}.check" "${1%.cu}.nvcc.log" || echo "   NVCC FAILED: $1 (see ${1%.cu}.nvcc.log)"' "$NVCC" {}
fi
if [ -s "$GEN/SKIPPED" ]; then
  echo "== skipped:"
  cat "$GEN/SKIPPED"
fi
echo "== done: now run bench/run_on_gpu.sh on the GPU machine (from the repository root)"
