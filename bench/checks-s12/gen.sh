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
