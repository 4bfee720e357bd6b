#!/usr/bin/env bash
# The device script of bench/hopper-runs/session9-run5.txt (carrying bench/gen-corpus/s9d): TileLang's
# MInference file with its gemm regions copied (the compiler of 216933e) and read in place (66f6269),
# three seeds each, then compute-sanitizer racecheck and synccheck on the copy form: the copy form's
# rel_err was 3.8e-2 in run 2 against 2.2e-5 in place (run 4); a race would explain it.
set -u
for v in copy inplace; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/m_$v bench/gen-corpus/s9d/minf_${v}_harness.cu -lcuda 2>&1 | tail -2
  for seed in 1234 7 99; do echo "$v seed $seed: $(timeout 120 /tmp/m_$v --no-perf --seed $seed 2>&1 | grep check)"; done
done
for tool in racecheck synccheck memcheck; do echo "copy $tool: $(timeout 240 compute-sanitizer --tool $tool /tmp/m_copy --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Race reported|hazard' | head -4 | tr '\n' ' ')"; done
echo "inplace racecheck: $(timeout 240 compute-sanitizer --tool racecheck /tmp/m_inplace --no-perf 2>&1 | grep -E 'RACECHECK SUMMARY' | head -1)"
