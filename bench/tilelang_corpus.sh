#!/usr/bin/env bash
# bench/tilelang_corpus.sh [--harness] [--run] DIR [CALLS_FILE]: TileLang's own example files
# through tlc, unchanged.
#
# For every .py under DIR (sorted) it prints one line:
#   compiled     PATH                    tlc and nvcc both succeeded (with --harness: and the harness built)
#   refused      PATH: first error line  tlc rejected the file
#   nvcc-failed  PATH: first error line  tlc wrote CUDA that nvcc rejects (a tlc bug)
#   no-call      PATH                    a kernel file whose --call is not in CALLS_FILE yet
#   out-of-scope PATH: why               not a CUDA kernel file for sm_90 or older (below)
#   not-kernel   PATH: why               no TileLang kernel in it (test driver, Triton/torch code, utils)
# then the counts. The rate is compiled / (compiled + refused + nvcc-failed + no-call).
#
# CALLS_FILE (default bench/tilelang_corpus_calls.txt) maps a path relative to DIR to its calls,
# one line each: `PATH CALL` (a --call string, taken from the file's __main__/test defaults;
# several lines give several --calls), `PATH -` (compile the module-level prim_funcs, no --call),
# `PATH !REASON` (out of scope, with why), `PATH +data NAME=SPEC` (tlc --harness --data: an index
# input filled as offsets or a range instead of random values), `PATH +size NAME=VALUE` (a runtime size or integer
# scalar parameter's value for --harness, which needs one). A `[NAME]` line starts the section for the DIR whose
# last component is NAME (lines before any section apply to every DIR).
#
# Out of scope, found from the file unless the calls file says so: AMD (HIP/MFMA), Blackwell
# (tcgen05, TMEM, sm_100/sm_120), AWS Trainium; test_*.py (pytest drivers that import the
# examples) and files without a TileLang kernel are not kernel files.
#
#   --harness   also builds tlc's --harness for each compiled file (nvcc, binary in the work dir)
#   --run       with --harness: runs each harness binary (needs a GPU; skipped without nvidia-smi)
# Environment: TLC (build/bin/tlc), NVCC (nvcc; NVCC=none skips the CUDA compile), JOBS (2),
# WORK (the output dir, default bench/gen-corpus/NAME), KEEP_GOING.
#
#   bench/tilelang_corpus.sh run-harnesses WORK...   on the GPU machine (needs nvcc, not tlc):
#       builds every WORK/*_harness.cu that a `--harness` run with NVCC=none left (carry the WORK
#       dirs, e.g. bench/gen-corpus), JOBS (default: every core) nvcc at a time, then runs each
#       (timeout RUN_TIMEOUT, 60 s) and prints one line per harness (PASS / FAIL / build failed)
#       and the counts last. The split, in one device call:
#         here:  NVCC=none bash bench/tilelang_corpus.sh --harness DIR/v0.1.5   (and DIR/main)
#         there: bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/v0.1.5 bench/gen-corpus/main
#       carrying bench/gen-corpus (only the *_harness.cu files matter).
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = run-harnesses ]; then
  # One device call: every harness is built in parallel (nvcc, JOBS at a
  # time, default every core), then run one at a time (the GPU is shared by
  # nothing else, so timings stay clean); a summary table comes last.
  shift
  NVCC=${NVCC:-nvcc}
  command -v "$NVCC" >/dev/null 2>&1 || NVCC=/usr/local/cuda/bin/nvcc
  RUN_JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
  RUN_TIMEOUT=${RUN_TIMEOUT:-60}
  build_one() {
    local cu=$1 exe=${1%.cu} flags
    flags=$(sed -n 's|^// Compile with: *||p' "$cu" | head -1 | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^-/ && $i != "-c" && $i != "-o") printf "%s ", $i}')
    # shellcheck disable=SC2086
    "$NVCC" -O3 ${flags:--gencode=arch=compute_90a,code=sm_90a} "$cu" -o "$exe" 2>"$exe.nvcc" || rm -f "$exe"
  }
  export -f build_one
  export NVCC
  list=$(for dir in "$@"; do ls "$dir"/*_harness.cu 2>/dev/null; done)
  echo "$list" | grep . | xargs -P "$RUN_JOBS" -I{} bash -c 'build_one "$1"' _ {}
  pass=0 fail=0 broken=0
  for cu in $list; do
    exe=${cu%.cu}
    if [ ! -x "$exe" ]; then
      echo "build-failed $cu: $(grep -m1 error "$exe.nvcc")"
      broken=$((broken + 1))
      continue
    fi
    if timeout "$RUN_TIMEOUT" "$exe" --iters 10 >"$exe.out" 2>&1 && ! grep -q FAIL "$exe.out"; then
      echo "PASS         $cu: $(grep -c 'check .*PASS' "$exe.out") checks"
      pass=$((pass + 1))
    else
      echo "FAIL         $cu: $(grep -m1 -E 'FAIL|error|rror' "$exe.out" || echo "exit status $? (timeout ${RUN_TIMEOUT}s?)")"
      fail=$((fail + 1))
    fi
  done
  printf '\nharnesses: %d passed, %d failed, %d did not build\n' "$pass" "$fail" "$broken"
  exit 0
fi
HARNESS=0
RUN=0
while [ $# -gt 0 ]; do
  case "$1" in
  --harness) HARNESS=1 ;;
  --run) RUN=1 HARNESS=1 ;;
  -*) echo "usage: $0 [--harness] [--run] DIR [CALLS_FILE]" >&2; exit 2 ;;
  *) break ;;
  esac
  shift
done
[ $# -ge 1 ] || { echo "usage: $0 [--harness] [--run] DIR [CALLS_FILE]" >&2; exit 2; }
DIR=$(cd "$1" && pwd) || exit 2
CALLS=${2:-bench/tilelang_corpus_calls.txt}
NAME=$(basename "$DIR")
TLC=$(realpath "${TLC:-build/bin/tlc}")
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null 2>&1 || [ "$NVCC" = none ] || NVCC=/usr/local/cuda/bin/nvcc
JOBS=${JOBS:-2}
WORK=${WORK:-bench/gen-corpus/$NAME}
rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
GPU=0
if [ "$RUN" = 1 ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then GPU=1; fi

# this DIR's lines of the calls file: PATH REST
awk -v name="$NAME" '
  /^[[:space:]]*(#|$)/ { next }
  /^\[.*\]$/ { section = substr($0, 2, length($0) - 2); next }
  section == "" || section == name { print }
' "$CALLS" >"$WORK/calls.txt"

# why a file is out of scope or not a kernel file, or nothing
classify() {
  local rel=$1 file=$2 why
  why=$(awk -v p="$rel" '$1 == p && substr($2, 1, 1) == "!" { $1 = ""; sub(/^ !/, ""); print; exit }' "$WORK/calls.txt")
  if [ -n "$why" ]; then echo "out-of-scope|$why"; return; fi
  case "$(basename "$rel")" in
  test_*.py | conftest.py) echo "not-kernel|pytest driver (imports the example files)"; return ;;
  esac
  if ! grep -Eq 'T\.prim_func|tilelang\.jit|@jit|T\.Kernel\(' "$file"; then
    echo "not-kernel|no TileLang kernel (Triton, torch, model or utility code)"; return
  fi
  case "$rel" in
  */amd/* | *amd_*) echo "out-of-scope|AMD (HIP/MFMA target)"; return ;;
  */aws/*) echo "out-of-scope|AWS Trainium target"; return ;;
  esac
  if grep -Eq 'tcgen05|T\.alloc_tmem|sm_?100|sm_?120|blockscaled' "$file" ||
    [[ "$rel" == *sm100* || "$rel" == *sm120* || "$rel" == *tcgen05* ]]; then
    echo "out-of-scope|Blackwell (tcgen05/TMEM, sm_100/sm_120)"; return
  fi
  if grep -Eq 'target *= *"(hip|rocm)|mfma' "$file"; then echo "out-of-scope|AMD (HIP/MFMA target)"; return; fi
  if grep -Eq 'target *= *"(c|llvm)"' "$file" && ! grep -q 'T.Kernel(.*threads' "$file"; then
    echo "out-of-scope|CPU target"; return
  fi
}

# one file: prints `STATUS|PATH|DETAIL`
one() {
  local rel=$1 file="$DIR/$1" cls safe out err args=() hargs=() line compile have=0
  cls=$(classify "$rel" "$file")
  if [ -n "$cls" ]; then echo "${cls%%|*}|$rel|${cls#*|}"; return; fi
  safe=$(echo "$rel" | tr '/' '_' | sed 's/\.py$//')
  out="$WORK/$safe.cu"
  err="$WORK/$safe.err"
  while IFS= read -r line; do
    case "$line" in
    -) have=1 ;;
    +size\ *) hargs+=(--size "${line#+size }") ;;
    +data\ *) hargs+=(--data "${line#+data }") ;;
    \?* | "") ;;
    *) have=1 args+=(--call "$line") ;;
    esac
  done < <(awk -v p="$rel" '$1 == p { $1 = ""; sub(/^ /, ""); print }' "$WORK/calls.txt")
  if [ "$have" = 0 ]; then echo "no-call|$rel|"; return; fi
  if ! "$TLC" -w "$file" "${args[@]}" -o "$out" 2>"$err"; then
    echo "refused|$rel|$(grep -m1 -E 'error:' "$err" | sed "s|^$DIR/||" || true)"
    return
  fi
  if [ "$NVCC" != none ]; then
    compile=$(sed -n 's|^// Compile with: *||p' "$out" | head -1 | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^-/ && $i != "-c" && $i != "-o") printf "%s ", $i}')
    # shellcheck disable=SC2086
    if ! "$NVCC" ${compile:--gencode=arch=compute_90a,code=sm_90a} -c "$out" -o "$WORK/$safe.o" 2>"$err.nvcc"; then
      echo "nvcc-failed|$rel|$(grep -m1 -E 'error' "$err.nvcc")"
      return
    fi
  fi
  if [ "$HARNESS" = 1 ]; then
    if ! "$TLC" -w "$file" "${args[@]}" "${hargs[@]}" --harness -o "$WORK/${safe}_harness.cu" 2>"$err.harness"; then
      echo "compiled|$rel|harness refused: $(grep -m1 'error:' "$err.harness" | sed "s|^$DIR/||")"
      return
    fi
    if [ "$NVCC" = none ]; then
      echo "compiled|$rel|harness written"
      return
    fi
    if ! "$NVCC" -O3 ${compile:--gencode=arch=compute_90a,code=sm_90a} "$WORK/${safe}_harness.cu" -o "$WORK/${safe}_harness" 2>"$err.hnvcc"; then
      echo "compiled|$rel|harness nvcc failed: $(grep -m1 error "$err.hnvcc")"
      return
    fi
    if [ "$GPU" = 1 ]; then
      if "$WORK/${safe}_harness" >"$WORK/$safe.run" 2>&1; then
        echo "compiled|$rel|harness passed: $(tail -1 "$WORK/$safe.run")"
      else
        echo "compiled|$rel|harness FAILED: $(grep -m1 -iE 'fail|error|mismatch' "$WORK/$safe.run")"
      fi
      return
    fi
  fi
  echo "compiled|$rel|"
}
export -f one classify
export DIR WORK TLC NVCC HARNESS GPU

(cd "$DIR" && find . -name '*.py' | sed 's|^\./||' | LC_ALL=C sort) |
  xargs -P "$JOBS" -I{} bash -c 'one "$1"' _ {} >"$WORK/results.raw"
LC_ALL=C sort -t'|' -k2,2 "$WORK/results.raw" >"$WORK/results.txt"
awk -F'|' '{ d = $3 == "" ? "" : ": " $3; printf "%-12s %s%s\n", $1, $2, d }' "$WORK/results.txt"
awk -F'|' -v name="$NAME" '
  { n[$1]++ }
  END {
    in_scope = n["compiled"] + n["refused"] + n["nvcc-failed"] + n["no-call"]
    printf "\n%s: %d kernel files in scope: %d compiled, %d refused by tlc, %d nvcc failed, %d without a call", name, in_scope, n["compiled"], n["refused"], n["nvcc-failed"], n["no-call"]
    printf " (%.0f%%); %d out of scope, %d not kernel files\n", in_scope ? 100 * n["compiled"] / in_scope : 0, n["out-of-scope"], n["not-kernel"]
  }' "$WORK/results.txt"
