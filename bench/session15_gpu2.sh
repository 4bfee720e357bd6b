#!/usr/bin/env bash
# Device run 2 of the fifteenth session (carry bench/gen-s15 and bench/checks-s11,
# made here by bench/session15_prepare.sh, the checks' gen.sh and the tlc
# commands in bench/RESULTS.md part 20): clear-accumulators (T.clear before a
# wgmma gemm -> scale-d 0 on the first k-step) against the compiler before it
# and --overlap-pv, interleaved passes on issue #16's configs against SDPA;
# a block-size sweep; the masked-rows check; harnesses of 4 attention inputs
# (both paths) with sanitizers; every TileLang file whose CUDA the change
# touched (harness, or its torch check).
set -u
cd "$(dirname "$0")/.."
G=bench/gen-s15
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
( ls $G/corpus/*_harness.cu | xargs -P 10 -I{} sh -c 'nvcc '"$A"' -o ${1%.cu} $1 -lcuda > ${1%.cu}.nvcc.log 2>&1 || echo "NVCC FAILED $1"' _ {}
  for n in masked_hopper masked_ov; do nvcc $A -o /tmp/$n $G/$n.cu > /dev/null 2>&1 || echo "NVCC FAILED $n"; done
  for f in $G/h/*.cu; do nvcc $A -lineinfo -o /tmp/h_$(basename $f .cu) $f -lcuda > /dev/null 2>&1 || echo "NVCC FAILED $f"; done
  nvcc $A -shared -Xcompiler -fPIC $G/checks/mla_decode_ws.cu python/tlc/glue.cu -o /tmp/mla_decode_ws.so -lcuda > /dev/null 2>&1 || echo "NVCC FAILED mla"
) > /tmp/build.log 2>&1 &
BUILD=$!
ls $G/old/*.cu $G/new/*.cu $G/pp/*.cu $G/sweep/*.cu | xargs -P 8 -I{} sh -c 'd=$(dirname $1); n=$(basename $1 .cu);
  nvcc '"$A"' -Xcompiler -fPIC -shared -o $d/lib$n.so $1 > /dev/null 2>&1 || echo "NVCC FAILED $1"' _ {}
for v in old new pp new old pp; do
  echo "== $v"; python3 bench/tilelang_style_check.py $G/$v 2>&1 | grep -E "^attn " ; done
echo "== sweep"; python3 bench/tilelang_style_check.py $G/sweep 2>&1 | grep -E "^attn "
wait $BUILD; cat /tmp/build.log
for n in masked_hopper masked_ov; do echo "$n: $(timeout 60 /tmp/$n 2>&1 | tail -2 | tr '\n' ' ')"; done
for f in $G/h/*.cu; do
  x=/tmp/h_$(basename $f .cu)
  for s in 1234 7; do echo "$(basename $f .cu) seed $s: $(timeout 60 $x --no-perf --seed $s 2>&1 | grep -E '^check' | tr '\n' ' ')"; done
done
for tool in racecheck synccheck; do for n in causal1000_new d128_1000_new; do
  echo "$n $tool: $(timeout 100 compute-sanitizer --tool $tool /tmp/h_$n --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done; done
for f in $G/corpus/*_harness; do
  echo "$(basename $f): $(timeout 60 $f --no-perf 2>&1 | grep -E '^check' | sed 's/max_abs.*//' | tr '\n' ' ') rc=$?"
done
echo "mla_decode_ws: $(cd bench && timeout 120 python3 torch_checks.py mla /tmp/mla_decode_ws.so flashattn 132 128 8192 512 64 1 2>&1 | tail -1)"
timeout 200 bash bench/checks-s11/sparse_mla/build.sh 2>&1 | tail -4
timeout 120 bash bench/checks-s11/indexer/build.sh 2>&1 | tail -6
