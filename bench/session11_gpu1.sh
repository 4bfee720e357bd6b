#!/usr/bin/env bash
# Device script, run 1 of the eleventh session (carry bench/gen-corpus): every TileLang example
# file of main (a35008a42) that compiles, under tlc's harness (built here by
# `NVCC=none bash bench/tilelang_corpus.sh --harness DIR/main`, nvcc runs there). The full
# output goes to $OUT/corpus-main.txt; the counts come last.
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp}
RUN_TIMEOUT=${RUN_TIMEOUT:-60} bash bench/tilelang_corpus.sh run-harnesses bench/gen-corpus/main > "$OUT/corpus-main.txt" 2>&1
grep -E "^(FAIL|build-failed)" "$OUT/corpus-main.txt" | head -30
tail -4 "$OUT/corpus-main.txt"
