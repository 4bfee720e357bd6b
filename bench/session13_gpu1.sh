#!/usr/bin/env bash
# Device script for --overlap-pv (written in the thirteenth session, which was lent no GPU; carry
# bench/gen-attn, bench/gen-pp, bench/gen-corpus/s13-pv, all made here by
# bench/session13_prepare.sh): the P V gemm in flight across the next softmax, issued by every
# iteration with the first one's wgmma predicated off (no C7513) and P packed where it is made
# (no spills), against the default, in one run against SDPA (issue #16's configs and TileLang's
# attention files); its harnesses (4 inputs, 5 TileLang files) on fresh random data and under
# compute-sanitizer; SASS of the spills, if any.
set -u
cd "$(dirname "$0")/.."
for G in bench/gen-attn bench/gen-pp; do
  ls $G/attn/*.cu $G/tl/*.cu | xargs -P 8 -I{} sh -c '
    cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
    nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
      -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' _ {} &
done
JOBS=8 RUN_TIMEOUT=90 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s13-pv 2>&1 | grep -E "^(PASS|FAIL|build)|harnesses" &
for f in bench/gen-pp/h/*.cu; do
  nvcc -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -o /tmp/h_$(basename $f .cu) $f -lcuda > /dev/null 2>&1 &
done
wait
echo "== plain"; python3 bench/tilelang_style_check.py bench/gen-attn/attn 2>&1 | tail -13
echo "== overlap-pv"; python3 bench/tilelang_style_check.py bench/gen-pp/attn 2>&1 | tail -13
echo "== plain again"; python3 bench/tilelang_style_check.py bench/gen-attn/attn 2>&1 | tail -13
echo "== tl plain"; python3 bench/tilelang_style_check.py bench/gen-attn/tl 2>&1 | tail -22
echo "== tl overlap-pv"; python3 bench/tilelang_style_check.py bench/gen-pp/tl 2>&1 | tail -22
for f in bench/gen-pp/h/*.cu; do
  x=/tmp/h_$(basename $f .cu)
  for s in 1234 7; do echo "$(basename $f) seed $s: $(timeout 60 $x --no-perf --seed $s 2>&1 | grep -E '^check' | tr '\n' ' ')"; done
done
for tool in memcheck racecheck synccheck; do
  for n in causal1000 d128_1000; do
    echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool /tmp/h_$n --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
  done
done
for n in attn_d128 attn_d64 attn_d64_wg2; do
  so=bench/gen-pp/attn/lib$n.so
  echo "$n pp: $(grep -oE 'C75[0-9]+|[0-9]+ bytes spill stores' bench/gen-pp/attn/$n.ptxas.log | sort | uniq -c | tr '\n' ' ') STL=$(cuobjdump -sass $so | grep -c STL) LDL=$(cuobjdump -sass $so | grep -c LDL)"
  cuobjdump -sass $so | grep -nE "STL|LDL|HGMMA|WARPGROUP|BAR.SYNC|SYNCS" | awk '{$1=$1};1' | cut -c1-90 | head -70 > /tmp/sass_$n.txt
done
echo "== sass d128 (STL/LDL/HGMMA lines)"; cat /tmp/sass_attn_d128.txt
