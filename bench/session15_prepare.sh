#!/usr/bin/env bash
# Here (no GPU), before bench/session15_gpu2.sh: issue #16's 11 attention
# configurations (bench/attn_gpu.sh's list) built three ways, and a block-size
# sweep, all compiled to shared libraries here (ptxas -v logs beside them):
#   bench/gen-s15/old    the compiler before clear-accumulators (OLD_TLC, a build of 4a6c36e)
#   bench/gen-s15/new    build/bin/tlc (T.clear before a wgmma gemm -> scale-d 0 on its first k-step)
#   bench/gen-s15/pp     build/bin/tlc --overlap-pv
#   bench/gen-s15/sweep  flash_attention.py at (4,16,4096,64) and (8,32,4096,128), other block
#                        sizes, warpgroup counts and stage counts (the default compiler)
# The clear-accumulators pass it measures (commit f8fea20) was reverted after run 3
# (bench/RESULTS.md part 20): to rebuild what ran, build f8fea20 as build/bin/tlc.
# Usage: OLD_TLC=/tmp/old/build/bin/tlc bash bench/session15_prepare.sh
set -eu
cd "$(dirname "$0")/.."
G=bench/gen-s15
OLD_TLC=${OLD_TLC:-/tmp/old/build/bin/tlc}
W=$(mktemp -d)
printf '#!/bin/sh\nexec %s --overlap-pv "$@"\n' "$PWD/build/bin/tlc" > "$W/tlc-pv" && chmod +x "$W/tlc-pv"
for v in old new pp; do
  case $v in old) T=$OLD_TLC ;; new) T=$PWD/build/bin/tlc ;; pp) T=$W/tlc-pv ;; esac
  TLC=$T NVCC=true sh bench/attn_gpu.sh prepare > "$W/$v.log" 2>&1
  rm -rf "$G/$v" && mkdir -p "$G/$v"
  cp bench/gen-attn/attn/*.cu "$G/$v/"
  sed "s|bench/gen-attn/attn/|$G/$v/|" bench/gen-attn/attn/manifest.txt > "$G/$v/manifest.txt"
done
rm -rf "$G/sweep" && mkdir -p "$G/sweep" && : > "$G/sweep/manifest.txt"
E=examples/tilelang-style/flash_attention.py
for c in 128,64,2,128 128,128,2,128 128,64,3,128 128,128,2,256 128,64,2,256 192,128,2,384 192,64,2,384 256,64,2,512; do
  IFS=, read -r bm bn st th <<< "$c"
  for d in 64 128; do
    if [ $d = 64 ]; then shape="4,16,4096,64"; else shape="8,32,4096,128"; fi
    n=d${d}_m${bm}_n${bn}_s${st}_t${th}
    build/bin/tlc -w $E --call "$n=flashattn($shape,False,block_M=$bm,block_N=$bn,num_stages=$st,threads=$th)" -o "$G/sweep/$n.cu" 2>/dev/null || continue
    echo "$G/sweep/lib$n.so attn $n ${shape//,/ } 0" >> "$G/sweep/manifest.txt"
  done
done
ls $G/old/*.cu $G/new/*.cu $G/pp/*.cu $G/sweep/*.cu | xargs -P 2 -I{} sh -c 'cu={}; d=$(dirname $cu); n=$(basename $cu .cu);
  nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -Xptxas -v -Xcompiler -fPIC -shared -o $d/lib$n.so $cu > $d/$n.ptxas.log 2>&1 || echo "NVCC FAILED $cu"'
for f in $G/*/*.ptxas.log; do
  echo "$f: $(grep -oE 'C75[0-9]+|[0-9]+ bytes spill stores|Used [0-9]+ registers' "$f" | sort | uniq -c | tr '\n' ' ')"
done > $G/ptxas.txt
rm -rf "$W"
echo "gen-s15: $(ls $G/*/*.so | wc -l) libraries; ptxas notes in $G/ptxas.txt"
