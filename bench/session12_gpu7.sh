#!/usr/bin/env bash
# Device script, run 7 of the twelfth session (carry bench/checks-s12; made here by
# bench/checks-s12/gen.sh): T.rng_* against Triton's Philox, bit for bit
# (bench/checks-s12/rand_check.py: TileLang's rand_uint at its three configs, and 128 threads
# per block with their own subsequences).
set -u
cd "$(dirname "$0")/.."
for n in rand_M1024 rand_M512 rand_M128 rng_threads; do
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC bench/checks-s12/$n.cu -o /tmp/$n.so > /tmp/$n.log 2>&1 || { echo "NVCC FAILED $n"; cat /tmp/$n.log | head; } &
done
wait
timeout 200 python3 bench/checks-s12/rand_check.py /tmp 2>&1 | tail -8
