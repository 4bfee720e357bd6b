#!/bin/bash
# gen.sh: compile TileLang's DeepSeek-V3.2 lightning-indexer kernels and the
# dsa_hisa clean_and_maintain_logits kernel with tlc into CUDA + signatures.
# Run here (no GPU needed), from anywhere; writes NAME.cu / NAME.json next to this script.
set -e
cd /work/main
TLC=${TLC:-build/bin/tlc}
C=/work/tilelang-corpus/main/examples
D=bench/checks-s11/indexer
gen() {  # FILE NAME CALL
  $TLC "$1" --call "$2=$3" -o $D/$2.cu
  $TLC "$1" --call "$2=$3" --emit=signature -o $D/$2.json
}
gen $C/deepseek_v32/fp8_lighting_indexer.py mqa_logits 'mqa_attn_return_logits.compile(heads=32, index_dim=64)'
gen $C/deepseek_v32/fp8_lighting_indexer.py clean_logits 'clean_logits_.compile()'
gen $C/dsa_hisa/clean_and_maintain_logits.py clean_maintain 'clean_and_maintain_logits_.compile(seq_len=4096, seq_len_kv=4096)'
