#!/usr/bin/env bash
# The attention configurations of bench/attn_gpu.sh (issue #16's shapes: fp16
# and bf16, head dims 64 and 128, one and two consumer warpgroups, causal,
# GQA, odd lengths) at small sizes, built with and without --overlap-pv and
# run through their harnesses on the CPU emulator (test/GPU/emu) in both
# orders of asynchronous work (EMU_ASYNC late / early). No GPU needed;
# checks correctness only (the emulator does not time).
# With CORPUS=DIR (a TileLang checkout, e.g. /work/tilelang-corpus/main) also
# the five TileLang example files whose CUDA --overlap-pv changes, unchanged,
# at small sizes of their own factories.
# Usage: [CORPUS=DIR] bash bench/emu_attention.sh [OUTDIR]     prints a table last
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-$(mktemp -d)}
TLC=$PWD/build/bin/tlc
E=examples/tilelang-style
mkdir -p "$OUT"
configs='
d64 flash_attention.py flashattn(2,3,640,64,False,block_M=128,block_N=64,num_stages=2)
d64_bf16 flash_attention.py flashattn(2,3,640,64,False,block_M=128,block_N=64,num_stages=2,dtype="bfloat16")
d64_wg2 flash_attention.py flashattn(2,3,640,64,False,block_M=128,block_N=128,num_stages=2,threads=256)
d128 flash_attention.py flashattn(1,2,512,128,False,block_M=128,block_N=128,num_stages=2,threads=256)
d128_bf16 flash_attention.py flashattn(1,2,512,128,False,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16")
causal flash_attention.py flashattn(1,2,768,128,True,block_M=128,block_N=128,num_stages=2,threads=256)
causal_bf16 flash_attention.py flashattn(1,2,768,128,True,block_M=128,block_N=128,num_stages=2,threads=256,dtype="bfloat16")
gqa flash_attention_gqa.py flashattn_gqa(1,8,512,128,False,groups=4)
gqa_bf16 flash_attention_gqa.py flashattn_gqa(1,8,512,128,False,groups=4,dtype="bfloat16")
gqa_odd flash_attention_gqa.py flashattn_gqa(2,8,1000,64,True,groups=4,block_M=128,block_N=64,threads=128)
causal_small flash_attention.py flashattn(2,3,1000,64,is_causal=True,block_M=128,block_N=64,num_stages=2)
'
if [ -n "${CORPUS:-}" ]; then
  configs="$configs
tl_sink $CORPUS/examples/attention_sink/example_mha_sink_fwd_bhsd.py flashattn(1,2,512,512,128,None,block_M=128,block_N=128,num_stages=2,threads=256,dtype=T.float16)
tl_gqa_bshd $CORPUS/examples/flash_attention/example_gqa_fwd_bshd.py flashattn(1,8,512,128,False,groups=4,block_M=64,block_N=64,num_stages=2,threads=128)
tl_mha_bhsd $CORPUS/examples/flash_attention/example_mha_fwd_bhsd.py flashattn(1,2,256,320,64,False,block_M=128,block_N=128,num_stages=2,threads=256)
tl_mha_bshd $CORPUS/examples/flash_attention/example_mha_fwd_bshd.py flashattn(1,2,512,128,False,block_M=128,block_N=128,num_stages=1,threads=128)
tl_gqa_decode $CORPUS/examples/flash_decoding/example_gqa_decode.py flashattn(1,32,8,1024,128,block_N=128,block_H=64,num_split=8,num_stages=2,threads=128)
"
fi
rows=""
while read -r name file call; do
  [ -n "$name" ] || continue
  case $file in /*) ;; *) file=$E/$file ;; esac
  for mode in default overlap; do
    flag=""
    [ $mode = overlap ] && flag=--overlap-pv
    cu=$OUT/${name}_$mode.cu
    "$TLC" -w --harness $flag "$file" --call "$call" -o "$cu"
    python3 test/GPU/emu/emucc.py "$cu" -o "${cu%.cu}"
  done
  rotated=$(grep -c "tl_wgmma_wait<1>(); // acc_s" "$OUT/${name}_overlap.cu" || true)
  row="$name"
  for mode in default overlap; do
    for order in late early; do
      r=$(EMU_ASYNC=$order "$OUT/${name}_$mode" --no-perf 2>&1 | grep -o '^check [^:]*: [A-Z]* rel_err=[^ ]*' | awk '{print $3, $4}' | sort -u | tr '\n' ' ')
      row="$row | ${r:-ERROR}"
    done
  done
  rows="$rows$row | $rotated\n"
done <<< "$configs"
echo "| config (small sizes) | default, late | default, early | --overlap-pv, late | --overlap-pv, early | loop rotated |"
echo "|---|---|---|---|---|---|"
printf "$rows" | sed 's/^/| /; s/$/ |/'
