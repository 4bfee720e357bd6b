#!/usr/bin/env bash
# Device script, run 2 of the twelfth session (carry bench/gen-corpus/s15, s15-main and
# bench/checks-s11; made here by `NVCC=none bash bench/tilelang_corpus.sh --harness` on the three
# selected files, `tlc --harness` on test/GPU/Inputs/warp_ranges.py and
# bench/checks-s11/mhc_dequant/gen.sh):
#  - deepseek_mhc/example_mhc_pre now that thread-index branches over whole warps are laid out
#    over their own threads (harness, sanitizers, and the helper's torch check);
#  - gdn/example_chunk_delta_h with use_initial_state=True; indexer_bwd with top-k rows anywhere;
#  - the new GPU input warp_ranges.py (harness + sanitizers).
set -u
cd "$(dirname "$0")/.."
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
for f in bench/gen-corpus/s15-main/*_harness.cu bench/gen-corpus/s15/*_harness.cu; do
  nvcc $A -lineinfo -o /tmp/$(basename $f .cu) $f -lcuda &
done
for n in mhc_gemm_sqrsum mhc_big_fuse dequant_fine; do
  nvcc $A -shared -Xcompiler -fPIC bench/checks-s11/mhc_dequant/$n.cu python/tlc/glue.cu -o /tmp/$n.so -lcuda &
done
wait
for f in bench/gen-corpus/s15-main/*_harness.cu bench/gen-corpus/s15/*_harness.cu; do
  b=/tmp/$(basename $f .cu)
  for s in 1234 7; do echo "== $(basename $f) seed $s"; timeout 120 $b --seed $s 2>&1 | grep -E "^check|FAIL|rel_err|median" | head -12; done
done
for x in examples_deepseek_mhc_example_mhc_pre_harness warp_ranges_harness; do
  for tool in memcheck racecheck synccheck; do
    echo "$x $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$x --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
  done
done
echo "== mhc torch check"; timeout 200 python3 bench/checks-s11/mhc_dequant/check.py /tmp 2>&1 | tail -8
