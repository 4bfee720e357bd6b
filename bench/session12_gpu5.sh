#!/usr/bin/env bash
# Device script, run 5 of the twelfth session (carry bench/gen-attn, bench/gen-pp; the --ping-pong
# compiler is the experiment commit before its revert, git log --grep "ping-pong v2"): ping-pong
# again, with each turn covering only the issue of a gemm (it returns with its wgmma group in
# flight, hands the turn over, then waits): the 256-thread attention configs with and without
# --ping-pong against SDPA in one run, and the causal 1000-token harness under racecheck (first
# hazards printed).
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
grep -E "d128|causal |causal_bf16|gqa |gqa_bf16|wg2" bench/gen-attn/attn/manifest.txt > /tmp/m.txt
mkdir -p /tmp/plain && cp /tmp/m.txt /tmp/plain/manifest.txt
echo "== ping-pong"; python3 bench/tilelang_style_check.py bench/gen-pp/attn 2>&1 | tail -8
echo "== plain"; python3 bench/tilelang_style_check.py bench/gen-attn/attn 2>&1 | grep -E "wg2|d128|causal |causal_bf16|gqa |gqa_bf16" | tail -8
echo "== ping-pong again"; python3 bench/tilelang_style_check.py bench/gen-pp/attn 2>&1 | tail -8
for s in 1234 7; do echo "pp harness seed $s: $(timeout 60 /tmp/pp --no-perf --seed $s 2>&1 | grep -E '^check' | tr '\n' ' ')"; done
timeout 200 compute-sanitizer --tool racecheck --print-limit 4 /tmp/pp --no-perf 2>&1 | grep -E "Race|Hazard|at .*pp_harness|SUMMARY|Error" | head -16
echo "synccheck: $(timeout 150 compute-sanitizer --tool synccheck /tmp/pp --no-perf 2>&1 | grep 'ERROR SUMMARY')"
for f in bench/gen-pp/attn/*.ptxas.log; do echo "$(basename $f .ptxas.log) pp: $(grep -oE 'Used [0-9]+ registers|[0-9]+ bytes spill stores' $f | tr '\n' ' ')"; done
