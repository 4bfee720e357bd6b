#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run6.txt (carrying bench/gen-corpus/s9e): MInference
# after the thread-sync fix (its `if column_count != 0:` branch now gets barriers), three seeds, and
# compute-sanitizer racecheck / synccheck on it.
set -u
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/m_fixed bench/gen-corpus/s9e/minf_fixed_harness.cu -lcuda 2>&1 | tail -2
for seed in 1234 7 99; do echo "fixed seed $seed: $(timeout 120 /tmp/m_fixed --no-perf --seed $seed 2>&1 | grep check)"; done
echo "fixed perf: $(timeout 120 /tmp/m_fixed 2>&1 | grep perf)"
for tool in racecheck synccheck; do echo "fixed $tool: $(timeout 240 compute-sanitizer --tool $tool /tmp/m_fixed --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Race reported' | head -3 | tr '\n' ' ')"; done
