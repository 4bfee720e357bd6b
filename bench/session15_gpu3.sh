#!/usr/bin/env bash
# Device run 3 of the fifteenth session (carry bench/gen-s15 and bench/checks-s11;
# made here by `OLD_TLC=... bash bench/session15_prepare.sh`, the checks' gen.sh
# and the tlc commands of bench/RESULTS.md part 20). Run 2 timed the first
# form of clear-accumulators ("+f" operands with scale-d 0 on the first
# k-step) while 40 harnesses compiled beside it; this run has the second form
# (a first-step instruction with "=f" outputs) and times nothing while
# anything else runs. Order: attention old/new/--overlap-pv interleaved, the
# block-size sweep, then correctness (masked rows, 8 harnesses with
# sanitizers, the 40 TileLang harnesses whose CUDA changed, three torch checks)
# and the SASS of the three d64 variants.
set -u
cd "$(dirname "$0")/.."
G=bench/gen-s15
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
ls $G/old/*.cu $G/new/*.cu $G/pp/*.cu $G/sweep/*.cu | xargs -P 16 -I{} sh -c 'd=$(dirname $1); n=$(basename $1 .cu);
  nvcc '"$A"' -Xcompiler -fPIC -shared -o $d/lib$n.so $1 > /dev/null 2>&1 || echo "NVCC FAILED $1"' _ {}
for v in old new pp new old pp; do
  echo "== $v"; python3 bench/tilelang_style_check.py $G/$v 2>&1 | grep -E "^attn .* (PASS|FAIL) .*[0-9] *$"; done
echo "== sweep"; python3 bench/tilelang_style_check.py $G/sweep 2>&1 | grep -E "^attn .* (PASS|FAIL) .*[0-9] *$"
date
( ls $G/corpus/*_harness.cu | xargs -P 16 -I{} sh -c 'nvcc '"$A"' -o ${1%.cu} $1 -lcuda > /dev/null 2>&1 || echo "NVCC FAILED $1"' _ {}
  for n in masked_hopper masked_ov; do nvcc $A -o /tmp/$n $G/$n.cu > /dev/null 2>&1 || echo "NVCC FAILED $n"; done
  for f in $G/h/*.cu; do nvcc $A -lineinfo -o /tmp/h_$(basename $f .cu) $f -lcuda > /dev/null 2>&1 || echo "NVCC FAILED $f"; done
  nvcc $A -shared -Xcompiler -fPIC $G/checks/mla_decode_ws.cu python/tlc/glue.cu -o /tmp/mla_decode_ws.so -lcuda > /dev/null 2>&1 || echo "NVCC FAILED mla"
) 2>&1
date
for n in masked_hopper masked_ov; do echo "$n: $(timeout 60 /tmp/$n 2>&1 | tail -2 | tr '\n' ' ')"; done
for f in $G/h/*.cu; do
  x=/tmp/h_$(basename $f .cu)
  echo "$(basename $f .cu): $(timeout 60 $x --no-perf --seed 7 2>&1 | grep -E '^check' | sed 's/max_abs.*//' | tr '\n' ' ')"
done
for f in $G/corpus/*_harness; do
  echo "$(basename $f): $(timeout 60 $f --no-perf 2>&1 | grep -E '^check' | sed 's/max_abs.*//' | tr '\n' ' ')"
done
for tool in racecheck synccheck; do for n in d128_1000_new widened_threads_pp; do
  echo "$n $tool: $(timeout 60 compute-sanitizer --tool $tool /tmp/h_$n --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done; done
echo "mla_decode_ws: $(cd bench && timeout 100 python3 torch_checks.py mla /tmp/mla_decode_ws.so flashattn 132 128 8192 512 64 1 2>&1 | tail -1)"
timeout 120 bash bench/checks-s11/indexer/build.sh 2>&1 | tail -4
timeout 150 bash bench/checks-s11/sparse_mla/build.sh 2>&1 | tail -4
for v in old new pp; do
  cuobjdump -sass $G/$v/libattn_d64.so > /tmp/$v.sass
  echo "sass $v d64: HGMMA=$(grep -c HGMMA /tmp/$v.sass) DEPBAR=$(grep -c WARPGROUP.DEPBAR /tmp/$v.sass) ARRIVE=$(grep -c WARPGROUP.ARRIVE /tmp/$v.sass) MOV=$(grep -cE ' MOV ' /tmp/$v.sass) instrs=$(grep -cE '/\*[0-9a-f]{4}\*/' /tmp/$v.sass)"
done
