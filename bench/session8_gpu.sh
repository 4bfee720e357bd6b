#!/usr/bin/env bash
# The device script of bench/hopper-runs/session8-run1.txt (run from the repository root on the GPU,
# carrying bench/gen-corpus and bench/gen-check built as bench/torch_checks.py says).
set -u
echo "== harnesses"; RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s8main bench/gen-corpus/own8 2>&1 | tail -12
echo "== torch checks"
python3 bench/torch_checks.py hadamard bench/gen-check/hadamard_main.so hadamard 64 1024 --bench
python3 bench/torch_checks.py hadamard bench/gen-check/hadamard_v015.so hadamard 64 32768 --bench
python3 bench/torch_checks.py decode bench/gen-check/mha_inference.so flashattn 1 128 32 8192 128 --bench
echo "== sanitizer: the decode launcher (T.alloc_global scratch) and hadamard (shuffles)"
for args in "hadamard bench/gen-check/hadamard_main.so hadamard 64 1024" "decode bench/gen-check/mha_inference.so flashattn 1 128 32 8192 128"; do
  tools="memcheck"; case $args in hadamard*) tools="memcheck racecheck";; esac
  for tool in $tools; do echo "$args $tool: $(timeout 150 compute-sanitizer --tool $tool python3 bench/torch_checks.py $args 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL' | tr '\n' ' ')"; done
done
