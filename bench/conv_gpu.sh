#!/usr/bin/env bash
# The device script of bench/hopper-runs/session7-run2.txt (run from the repository root on the GPU,
# carrying bench/gen-corpus and bench/gen-conv built as that file says).
set -u
echo "== harnesses"; RUN_TIMEOUT=120 bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/main bench/gen-corpus/v0.1.5 bench/gen-corpus/own 2>&1 | tail -16
echo "== torch conv2d checks"
python3 bench/conv_check.py bench/gen-conv/conv_im2col.so conv_im2col 2 8 9 9 32 3 2 1 1
python3 bench/conv_check.py bench/gen-conv/convolution.so convolution 128 128 64 64 128 3 1 1 1 --bench
python3 bench/conv_check.py bench/gen-conv/conv_analyze.so kernel 16 16 512 512 128 3 1 1 1 --bench
echo "== sanitizers on conv_im2col / compat_forms"
for f in conv_im2col compat_forms; do nvcc -O2 -arch=sm_90a -o /tmp/$f bench/gen-corpus/own/${f}_harness.cu -lcuda 2>&1 | tail -2; for tool in memcheck racecheck synccheck; do echo "$f $tool: $(compute-sanitizer --tool $tool /tmp/$f 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"; done; done
