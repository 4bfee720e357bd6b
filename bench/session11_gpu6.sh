#!/usr/bin/env bash
# Device script, run 6 of the eleventh session (carry bench/gen-corpus, bench/checks-s11): the
# whole output of dsa_sparse_finetune/indexer_bwd's harness (FAIL in run 5 once its TokenIndices
# became real (sequence, position) pairs), and the sparse_mla_seesaw torch check alone (no output
# in run 5).
set -u
cd "$(dirname "$0")/.."
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -o /tmp/ib bench/gen-corpus/s13-main/examples_dsa_sparse_finetune_indexer_bwd_harness.cu -lcuda &
nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC bench/checks-s11/sparse_mla/sparse_mla_seesaw.cu python/tlc/glue.cu -o /tmp/sparse_mla_seesaw.so -lcuda &
wait
for s in 1234 7; do timeout 60 /tmp/ib --no-perf --seed $s 2>&1 | tail -8; done
timeout 150 python3 bench/checks-s11/sparse_mla/check.py /tmp sparse_mla_seesaw 2>&1 | tail -5; echo "seesaw rc=$?"
