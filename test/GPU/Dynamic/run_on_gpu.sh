#!/usr/bin/env bash
# The GPU runs of test/GPU/Dynamic/ without lit, for a machine with an H200
# and nvcc (carry build/ there): kernels with runtime sizes from one .cu at
# 1, 17, 1000, 4096, 8191; the runtime-size GEMM checked on sampled elements
# and timed next to its static twin at 4096^3; the harness (--size) at 8191
# and the GEMM harness at 4096 with cuBLAS. Exit status 1 if a check fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tlc=${TLC:-$here/../../../build/bin/tlc}
arch="-gencode=arch=compute_90a,code=sm_90a"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
"$tlc" "$here/sizes.py" --call 'add.compile(N=256)' --call 'scale()' -o "$out/sizes.cu"
cat "$out/sizes.cu" "$here/sizes_driver.cu" > "$out/sizes_all.cu"
nvcc -O3 $arch "$out/sizes_all.cu" -o "$out/sizes"
"$out/sizes" 1 17 1000 4096 8191
"$tlc" "$here/gemm.py" --call 'matmul.compile()' \
    --call 'static_matmul.compile(M=4096, N=4096, K=4096)' -o "$out/gemm.cu"
cat "$out/gemm.cu" "$here/gemm_driver.cu" > "$out/gemm_all.cu"
nvcc -O3 $arch "$out/gemm_all.cu" -o "$out/gemm"
"$out/gemm" 1 17 1000 4096 8191 --bench
"$tlc" --harness "$here/sizes.py" --call 'add.compile(N=256)' --call 'scale()' \
    --size m=8191 --size n=8192 -o "$out/h.cu"
nvcc -O3 $arch "$out/h.cu" -o "$out/h" && "$out/h"
"$tlc" --harness --cublas "$here/gemm.py" --call 'matmul.compile()' \
    --size m=4096 --size n=4096 --size k=4096 -o "$out/hg.cu"
nvcc -O3 $arch "$out/hg.cu" -o "$out/hg" -lcublas && "$out/hg"
