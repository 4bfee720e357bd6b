#!/usr/bin/env bash
# Device script, run 3 of the twelfth session (carry bench/gen-corpus/{s16-main,s16-v0.1.5,s17},
# bench/gen-attn, bench/checks-s11; made here by `NVCC=none bash bench/tilelang_corpus.sh
# --harness` on the 17 TileLang files whose CUDA changed, `tlc --harness` on two inputs,
# `NVCC=true sh bench/attn_gpu.sh prepare`, bench/checks-s11/mhc_dequant/gen.sh):
#  - every TileLang file whose CUDA changed: num_stages=1 loops now get a TMA ring of two stages
#    (16 files), mhc_pre (warp ranges, its range-local staging fixed);
#  - test inputs warp_ranges.py and one_stage_ring.py (harness + sanitizers);
#  - the mhc torch check; attention (issue configs and TileLang's files) against SDPA.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
GEN=bench/gen-attn
ls $GEN/attn/*.cu $GEN/tl/*.cu | xargs -P 12 -I{} sh -c '
  cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
  nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
    -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' _ {} &
for f in bench/gen-corpus/s17/*_harness.cu; do
  nvcc -O2 -lineinfo -gencode=arch=compute_90a,code=sm_90a -o /tmp/$(basename $f .cu) $f -lcuda > /dev/null 2>&1 &
done
for n in mhc_gemm_sqrsum mhc_big_fuse; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC bench/checks-s11/mhc_dequant/$n.cu python/tlc/glue.cu -o /tmp/$n.so -lcuda > /dev/null 2>&1 &
done
wait
JOBS=16 RUN_TIMEOUT=90 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s16-main bench/gen-corpus/s16-v0.1.5 2>&1 | grep -E "^(PASS|FAIL|build)|harnesses" | tail -24
for f in bench/gen-corpus/s17/*_harness.cu; do
  x=/tmp/$(basename $f .cu)
  for s in 1234 7; do echo "$(basename $f) seed $s: $(timeout 60 $x --no-perf --seed $s 2>&1 | grep -E '^check' | tr '\n' ' ')"; done
  for tool in memcheck racecheck synccheck; do
    echo "$(basename $x) $tool: $(timeout 150 compute-sanitizer --tool $tool $x --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
  done
done
echo "== mhc torch check"; timeout 200 python3 bench/checks-s11/mhc_dequant/check.py /tmp 2>&1 | grep -v dequant | tail -6
for log in $GEN/*/*.ptxas.log; do
  printf '%-22s %s\n' "$(basename "$log" .ptxas.log)" \
    "$(grep -E 'Used [0-9]+ registers|spill' "$log" | grep -oE '[0-9]+ bytes spill (stores|loads)|Used [0-9]+ registers' | tr '\n' ' ')"
done > $GEN/ptxas.txt
python3 bench/tilelang_style_check.py $GEN/attn > "$OUT/attn.txt" 2>&1; tail -16 "$OUT/attn.txt"
python3 bench/tilelang_style_check.py $GEN/tl > "$OUT/attn-tl.txt" 2>&1; tail -18 "$OUT/attn-tl.txt"
grep -E "up0|upmain" $GEN/ptxas.txt
