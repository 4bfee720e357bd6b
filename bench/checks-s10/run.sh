#!/usr/bin/env bash
# On the GPU machine, from the repository root: bash bench/checks-s10/run.sh
# Builds and runs the standalone checks of helper work merged in session 10 (topk_selector,
# the thread all-reduce GEMVs, T.atomic_add return_prev); the kernel .cu files here are tlc
# outputs of that work (bb2e98b), kept so the checks rebuild without tlc
cd "$(dirname "$0")"
NVCC=${NVCC:-nvcc}; command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
F="-O3 -gencode=arch=compute_90a,code=sm_90a"
b() { "$NVCC" $F "$@" 2>&1 | grep -v "^$" | head -5; }
b -DKFILE='"gemv_tvm.cu"' -DLAUNCH=splitk_gemv_vectorized_tvm check_gemv.cu -o check_gemv_tvm &
b -DKFILE='"gemv_auto.cu"' -DLAUNCH=get_autotuned_kernel_ check_gemv.cu -o check_gemv_auto &
b -DKFILE='"gemv_v015.cu"' -DLAUNCH=get_best_config check_gemv.cu -o check_gemv_v015 &
b check_topk.cu -o check_topk &
b check_arp.cu -o check_arp &
wait
for x in check_gemv_tvm check_gemv_auto check_gemv_v015 check_topk check_arp; do
  echo "== $x"; timeout 120 ./$x 2>&1 | tail -12; echo "rc=$?"
done
