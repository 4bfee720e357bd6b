#!/usr/bin/env bash
# Device script, run 5 of the eleventh session (carry bench/gen-corpus and bench/checks-s11):
# the torch checks the helpers wrote for six harness-refused TileLang files (bench/checks-s11/*;
# run each gen.sh here first: the .cu/.json it writes are tlc's output for TileLang's files, which
# stay out of the repository, so they are ignored and must be carried), then the harnesses of the TileLang
# files whose CUDA changed with safe-access outside T.Parallel and of those given new fills
# (bench/gen-corpus/s13-*).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
for cu in bench/checks-s11/*/*.cu; do
  n=$(basename "$cu" .cu)
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC "$cu" python/tlc/glue.cu -o /tmp/$n.so -lcuda > /tmp/$n.nvcc.log 2>&1 || echo "NVCC FAILED $n: $(grep -m1 error /tmp/$n.nvcc.log)" &
done
wait
timeout 240 python3 bench/checks-s11/indexer/check.py /tmp 2>&1 | tail -12
timeout 240 python3 bench/checks-s11/mhc_dequant/check.py /tmp 2>&1 | tail -12
for n in sparse_mla_pipelined sparse_mla_seesaw; do
  timeout 200 python3 bench/checks-s11/sparse_mla/check.py /tmp $n 2>&1 | tail -3
done
RUN_TIMEOUT=90 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/s13-main bench/gen-corpus/s13-v0.1.5 > "$OUT/s13.txt" 2>&1
grep -E "^(PASS|FAIL|build-failed)" "$OUT/s13.txt" | sed 's|bench/gen-corpus/||' | cut -c1-150
tail -1 "$OUT/s13.txt"
