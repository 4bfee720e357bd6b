#!/usr/bin/env bash
# Device script, run 8 of the twelfth session (carry bench/gen-attn, bench/gen-pp; compiler: branch
# overlap-pv, not merged into main): attention loops rotated by one gemm (--overlap-pv: P V in flight during the next
# softmax) against the default, in one run against SDPA; a causal 1000-token harness with it
# under compute-sanitizer.
set -u
cd "$(dirname "$0")/.."
for G in bench/gen-attn bench/gen-pp; do
  ls $G/attn/*.cu | xargs -P 12 -I{} sh -c '
    cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
    nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
      -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' _ {} &
done
nvcc -O3 -lineinfo -gencode=arch=compute_90a,code=sm_90a -o /tmp/pp bench/gen-pp/pp_harness.cu -lcuda > /dev/null 2>&1 &
wait
echo "== plain"; python3 bench/tilelang_style_check.py bench/gen-attn/attn 2>&1 | tail -12
echo "== overlap-pv"; python3 bench/tilelang_style_check.py bench/gen-pp/attn 2>&1 | tail -12
echo "== plain again"; python3 bench/tilelang_style_check.py bench/gen-attn/attn 2>&1 | tail -12
for s in 1234 7; do echo "pp harness seed $s: $(timeout 60 /tmp/pp --no-perf --seed $s 2>&1 | grep -E '^check' | tr '\n' ' ')"; done
for tool in memcheck racecheck synccheck; do
  echo "pp $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/pp --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
done
for f in bench/gen-pp/attn/*.ptxas.log; do echo "$(basename $f .ptxas.log) pp: $(grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores|C75[0-9]+" $f | tr '\n' ' ')"; done | grep -E "d128|causal|gqa"
