#!/usr/bin/env bash
# Device script, run 2 of the eleventh session (carry bench/gen-attn and bench/gen-check, built
# here by `TLC=... NVCC=true sh bench/attn_gpu.sh prepare` and tlc for the MLA file): issue #16's
# attention kernels and TileLang's forward-attention files (four of them now run with 256
# threads: widen-threads) against torch's SDPA, with ptxas registers/spills; mla_decode_ws against
# torch (its scopes now hand sum_exp_shared over through a named barrier); then compute-sanitizer
# on the two new test inputs (bench/gen-corpus/inputs).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
GEN=bench/gen-attn
ls $GEN/attn/*.cu $GEN/tl/*.cu | xargs -P 16 -I{} sh -c '
  cu=$1; d=$(dirname "$cu"); n=$(basename "$cu" .cu)
  nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared \
    -o "$d/lib$n.so" "$cu" >"$d/$n.ptxas.log" 2>&1 || echo "NVCC FAILED: $n"' _ {} &
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC bench/gen-check/mla_decode_ws.cu python/tlc/glue.cu -o /tmp/mla_decode_ws.so -lcuda > /tmp/mla.log 2>&1 &
for f in ws_hand_over widened_threads; do
  nvcc -O2 -gencode=arch=compute_90a,code=sm_90a -o /tmp/$f bench/gen-corpus/inputs/${f}_harness.cu -lcuda > /tmp/$f.log 2>&1 &
done
wait
for log in $GEN/*/*.ptxas.log; do
  printf '%-22s %s\n' "$(basename "$log" .ptxas.log)" \
    "$(grep -E 'Used [0-9]+ registers|spill' "$log" | grep -oE '[0-9]+ bytes spill (stores|loads)|Used [0-9]+ registers' | tr '\n' ' ')"
done > $GEN/ptxas.txt
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv,noheader || true
python3 bench/tilelang_style_check.py $GEN/attn > "$OUT/attn.txt" 2>&1; tail -16 "$OUT/attn.txt"
python3 bench/tilelang_style_check.py $GEN/tl > "$OUT/attn-tl.txt" 2>&1; tail -18 "$OUT/attn-tl.txt"
echo "mla_decode_ws: $(cd bench && timeout 120 python3 torch_checks.py mla /tmp/mla_decode_ws.so flashattn 132 128 8192 512 64 1 --bench 2>&1 | tail -1)"
for f in ws_hand_over widened_threads; do
  echo "$f: $(timeout 60 /tmp/$f --no-perf | grep -c PASS) PASS"
  for tool in memcheck racecheck synccheck; do
    echo "$f $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$f --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
  done
done
cat $GEN/ptxas.txt
