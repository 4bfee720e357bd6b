#!/bin/bash
# gen.sh: tlc's CUDA for the twelfth session's standalone checks (run here, no GPU needed):
# TileLang's deepseek_v32/topk_selector.py at the current compiler, for bench/checks-s10's
# check_topk.cu (its topk.cu there predates the safe-access change of the eleventh session).
# Writes topk.cu next to this script (ignored; carry it to the device).
set -e
cd "$(dirname "$0")/../.."
TLC=${TLC:-build/bin/tlc}
$TLC /work/tilelang-corpus/main/examples/deepseek_v32/topk_selector.py --call 'tl_topk_impl.compile(topk=2048)' -w -o bench/checks-s12/topk.cu
