#!/usr/bin/env bash
# Device script, run 2 (carry bench/gen-corpus and bench/gen-check): the MLA decode kernels that
# the harness's reference cannot check (scopes whose loops hand tiles over by mbarriers) against
# torch on fresh random data (bench/torch_checks.py mla), then the test inputs again.
set -u
cd "$(dirname "$0")/.."
for n in flashmla_main:132:128 flashmla_v015:128:128 mla_decode_ws:132:128 mla_persistent:128:128; do
  f=${n%%:*} rest=${n#*:} b=${rest%%:*} h=${rest#*:}
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC bench/gen-check/$f.cu python/tlc/glue.cu -o /tmp/$f.so -lcuda > /tmp/$f.log 2>&1 || { echo "$f: build failed"; tail -3 /tmp/$f.log; continue; }
  split=1; [ $f = mla_persistent ] && split=2
  echo "$f: $(cd bench && timeout 120 python3 torch_checks.py mla /tmp/$f.so flashattn $b $h 8192 512 64 $split --bench 2>&1 | tail -1)"
done
RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s10 2>&1 | tail -8
