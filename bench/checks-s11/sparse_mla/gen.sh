#!/bin/bash
# gen.sh: compile TileLang's DeepSeek-V3.2 sparse MLA forward kernels (pipelined and
# seesaw warp-specialized variants) with tlc into CUDA + launcher signatures.
# Run here (no GPU needed), from anywhere; writes NAME.cu / NAME.json next to this script.
set -e
cd /work/main
TLC=${TLC:-build/bin/tlc}
E=/work/tilelang-corpus/main/examples/deepseek_v32
D=bench/checks-s11/sparse_mla
CALL='sparse_mla_fwd.compile(heads=128, dim=512, tail_dim=64, topk=2048, kv_stride=1, kv_group=1, sm_scale=None, is_causal=True, CP0=False)'
gen() {  # FILE NAME
  $TLC "$1" --call "$2=$CALL" -o $D/$2.cu
  $TLC "$1" --call "$2=$CALL" --emit=signature -o $D/$2.json
}
gen $E/sparse_mla_fwd_pipelined.py sparse_mla_pipelined
gen $E/sparse_mla_fwd_seesaw.py sparse_mla_seesaw
