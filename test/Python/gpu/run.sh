#!/bin/sh
# test/Python/gpu/run.sh: the tlc Python package on the GPU machine (needs
# torch with CUDA, nvcc and a GPU). From the repository root, with build/
# carried (build/bin/tlc is all it uses):
#
#   sh test/Python/gpu/run.sh check   every example from Python vs torch, the
#                                     argument checks, the calling overhead
#   sh test/Python/gpu/run.sh tune    `tlc tune` on the TileLang-style GEMM at
#                                     4096^3 over a 24-config space, top 3 re-timed;
#                                     writes $OUT/gemm.py.tune.yaml (or ./)
#
# The cache goes to a fresh folder under $OUT (or /tmp), so the run starts cold.
set -eu
cd "$(dirname "$0")/../../.."
export PATH="$PATH:/usr/local/cuda/bin"
export TLC_BIN="${TLC_BIN:-$PWD/build/bin/tlc}"
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"
DEST="${OUT:-/tmp}"
export TLC_CACHE_DIR="$DEST/tlc-cache"
case "${1:-check}" in
check)
  python3 test/Python/gpu/check_examples.py ;;
tune)
  "$TLC_BIN" tune examples/tilelang-style/gemm.py --call 'matmul(4096, 4096, 4096)' \
    --space block_M=128 --space block_N=128,256 --space block_K=32,64 \
    --space num_stages=2,3,4 --space threads=128,256 --out "$DEST/gemm.py.tune.yaml"
  # The tuned compile: tlc.compile picks the winner (and says so).
  python3 -c "import tlc; m = tlc.compile('examples/tilelang-style/gemm.py', call='matmul(4096, 4096, 4096)', tune_file='$DEST/gemm.py.tune.yaml'); print(m.note)" ;;
*)
  echo "usage: sh test/Python/gpu/run.sh check|tune" >&2; exit 2 ;;
esac
