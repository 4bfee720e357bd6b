#!/usr/bin/env bash
# Device script, run 6 of the twelfth session (carry bench/gen-corpus/s20-main, bench/gen-corpus/s21,
# bench/checks-s12; made here by `NVCC=none bash bench/tilelang_corpus.sh --harness` on
# deepseek_mhc/example_mhc_bwd.py, `tlc --harness` on test/GPU/Inputs/fragment_3d.py and
# bench/checks-s12/gen.sh): fragments of 3 dimensions kept in shared memory.
#  - mhc_bwd against torch autograd as the file's own main() checks it (bench/checks-s12/mhc_bwd_check.py);
#    its harness too (its 32 conjugate-gradient steps in float32 amplify the kernel's and the
#    reference's different summation orders on random data: expected to differ), and a 256-token
#    harness (data in [0, 0.125], where 6 CG steps agreed in the emulator) under the sanitizers;
#  - the new input fragment_3d.py (harness + sanitizers).
set -u
cd "$(dirname "$0")/.."
A="-O3 -gencode=arch=compute_90a,code=sm_90a"
nvcc $A -lineinfo -o /tmp/mhcb bench/gen-corpus/s20-main/examples_deepseek_mhc_example_mhc_bwd_harness.cu -lcuda > /dev/null 2>&1 &
nvcc $A -lineinfo -o /tmp/f3 bench/gen-corpus/s21/fragment_3d_harness.cu -lcuda > /dev/null 2>&1 &
nvcc $A -lineinfo -o /tmp/mhcs bench/gen-corpus/s21/mhcb_small_harness.cu -lcuda > /dev/null 2>&1 &
nvcc $A -shared -Xcompiler -fPIC bench/checks-s12/mhc_bwd.cu python/tlc/glue.cu -o /tmp/mhc_bwd.so -lcuda > /dev/null 2>&1 &
wait
echo "== mhc_bwd torch"; timeout 200 python3 bench/checks-s12/mhc_bwd_check.py /tmp/mhc_bwd.so 2>&1 | tail -4
echo "== mhc_bwd harness: $(timeout 120 /tmp/mhcb --seed 1234 2>&1 | grep -E '^check|^perf' | tr '\n' ' ')"
echo "== fragment_3d: $(timeout 60 /tmp/f3 --no-perf 2>&1 | grep -E '^check' | tr '\n' ' ')"
echo "== mhc_bwd small (256 tokens): $(timeout 60 /tmp/mhcs --no-perf 2>&1 | grep -E '^check' | tr '\n' ' ')"
for x in mhcs f3; do for tool in memcheck racecheck synccheck; do
  echo "$x $tool: $(timeout 150 compute-sanitizer --tool $tool /tmp/$x --no-perf 2>&1 | grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' | head -1)"
done; done
