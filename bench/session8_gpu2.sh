#!/usr/bin/env bash
# The device script of bench/hopper-runs/session8-run2.txt: the TensorCoreIntrinEmitter GEMMs
# (bench/torch_checks.py gemm), harnesses of newly compiling TileLang files and own inputs
# (carrying bench/gen-corpus and bench/gen-check).
set -u
echo "== harnesses"; RUN_TIMEOUT=150 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s8b bench/gen-corpus/own8 2>&1 | tail -8
echo "== TensorCoreIntrinEmitter GEMMs against torch"
python3 bench/torch_checks.py gemm bench/gen-check/gi_main.so utl_matmul 4096 4096 4096 float16 float16 --bench
python3 bench/torch_checks.py gemm bench/gen-check/gi_v015.so utl_matmul 4096 4096 4096 float16 float32 --bench
python3 bench/torch_checks.py gemm bench/gen-check/fp8i.so utl_matmul 128 128 128 e4m3 float32
python3 bench/torch_checks.py gemm bench/gen-check/i8i8.so utl_matmul 1024 1024 1024 int8 int32
python3 bench/torch_checks.py gemm bench/gen-check/i8i8_main.so utl_matmul 1024 1024 1024 int8 int32
echo "== sanitizer"
for args in "gemm bench/gen-check/fp8i.so utl_matmul 128 128 128 e4m3 float32" "gemm bench/gen-check/i8i8.so utl_matmul 1024 1024 1024 int8 int32"; do
  for tool in memcheck racecheck; do echo "$args $tool: $(timeout 150 compute-sanitizer --tool $tool python3 bench/torch_checks.py $args 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|PASS|FAIL' | tr '\n' ' ')"; done
done
