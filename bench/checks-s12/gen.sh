#!/bin/bash
# gen.sh: tlc's CUDA for the twelfth session's standalone checks (run here, no GPU needed):
# TileLang's deepseek_v32/topk_selector.py at the current compiler, for bench/checks-s10's
# check_topk.cu (its topk.cu there predates the safe-access change of the eleventh session).
# Also deepseek_mhc/example_mhc_bwd.py's sinkhorn_bwd_implicit_cg as mhc_bwd.cu (mhc_bwd_check.py).
# Writes the .cu files next to this script (ignored; carry them to the device).
set -e
cd "$(dirname "$0")/../.."
TLC=${TLC:-build/bin/tlc}
$TLC /work/tilelang-corpus/main/examples/deepseek_v32/topk_selector.py --call 'tl_topk_impl.compile(topk=2048)' -w -o bench/checks-s12/topk.cu
$TLC /work/tilelang-corpus/main/examples/deepseek_mhc/example_mhc_bwd.py --call 'mhc_bwd=sinkhorn_bwd_implicit_cg.compile(n_stream=16)' -w -o bench/checks-s12/mhc_bwd.cu
# T.rng_* (bench/checks-s12/rand_check.py): TileLang's rand_uint at its three (M, seed) pairs and a
# 128-thread kernel of this directory.
for ms in 1024:42 512:123 128:0; do
  M=${ms%%:*}; S=${ms##*:}
  $TLC /work/tilelang-corpus/main/examples/rand/rand_uint.py --call "rand_M$M=tilelang_rand_1d.compile(M=$M, seed=$S)" -w -o bench/checks-s12/rand_M$M.cu
done
$TLC bench/checks-s12/rng_threads.py -w -o bench/checks-s12/rng_threads.cu
