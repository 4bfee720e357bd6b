#!/usr/bin/env bash
# The device script of bench/hopper-runs/session8-run3.txt: harnesses of the TileLang files that
# compile since run 2 (stream-K both tags, the fp8 GEMM example, fused MoE with its group tables
# given) and of every test/GPU/Inputs/*.tl (carrying bench/gen-corpus).
set -u
echo "== TileLang files"; RUN_TIMEOUT=150 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s8c bench/gen-corpus/s8c5 2>&1 | tail -8
echo "== test/GPU/Inputs/*.tl"; RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/ownall 2>&1 | tail -40
