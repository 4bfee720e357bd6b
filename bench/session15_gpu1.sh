#!/usr/bin/env bash
# Device run 1 of the fifteenth session (carry bench/gen-attn, bench/gen-pp,
# bench/gen-corpus/s13-pv, bench/gen-s15; all made here: bench/session13_prepare.sh
# and the tlc commands in bench/RESULTS.md part 20): the masked-rows attention
# check (run-masked-rows.test's two kernels), minference's vertical-slash file
# (the harness that passed only through the closed tolerance hole) at its config
# and under racecheck/synccheck at a small one, then bench/session13_gpu1.sh
# (--overlap-pv against the default, same run as SDPA).
set -u
cd "$(dirname "$0")/.."
G=bench/gen-s15
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
for n in masked_hopper masked_ov; do nvcc $A -o /tmp/$n $G/$n.cu > /tmp/$n.log 2>&1 || echo "NVCC FAILED $n" & done
for n in minf_harness minf_small_harness; do nvcc $A -lineinfo -o /tmp/$n $G/$n.cu -lcuda > /tmp/$n.log 2>&1 || echo "NVCC FAILED $n" & done
wait
for n in masked_hopper masked_ov; do echo "== $n"; timeout 60 /tmp/$n 2>&1 | tail -3; done
for s in 1234 7; do echo "minf full seed $s: $(timeout 90 /tmp/minf_harness --seed $s 2>&1 | grep -E '^(check|PASS|FAIL|time)' | tr '\n' ' ')"; done
echo "minf small: $(timeout 60 /tmp/minf_small_harness --no-perf 2>&1 | grep -E '^check' | tr '\n' ' ')"
for tool in memcheck racecheck synccheck; do
  echo "minf small $tool: $(timeout 120 compute-sanitizer --tool $tool /tmp/minf_small_harness --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Race|Barrier' | sort | uniq -c | head -5 | tr '\n' ' ')"
done
bash bench/session13_gpu1.sh
