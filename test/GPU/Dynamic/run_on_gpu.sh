#!/usr/bin/env bash
# The GPU runs of test/GPU/Dynamic/ in one go, for a machine with an H200 and
# nvcc (carry build/ there; it needs build/bin/tlc only). Prints a table last.
#  1. kernels with runtime sizes (sizes.py) from one .cu at 1, 17, 1000, 4096, 8191;
#  2. the runtime-size GEMMs (gemm.py eager T.dynamic, gemm_classic.py classic
#     T.symbolic, and a 128x256x64 two-warpgroup config), each built ONCE per
#     path, checked on sampled elements at every M, N, K in {1, 17, 1000,
#     4096, 8191} squared plus non-square mixes, on the warp-specialized TMA
#     path (default) and the cp.async path (--no-warp-specialize);
#  3. 4096^3 timings: the same kernel with static sizes, with runtime sizes
#     (both styles), the two-warpgroup pair, and cuBLAS;
#  4. the harness (--size) for sizes.py at 8191 and the GEMM at 4096 and 1000.
# Exit status 1 if a check fails (the table is still printed).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tlc=${TLC:-$here/../../../build/bin/tlc}
arch="-gencode=arch=compute_90a,code=sm_90a"
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
status=0
step() { echo "== $*"; }
fail() { echo "FAIL: $*"; status=1; }

step "sizes.py at 1 17 1000 4096 8191"
"$tlc" "$here/sizes.py" --call 'add.compile(N=256)' --call 'scale()' -o "$out/sizes.cu" &&
  cat "$out/sizes.cu" "$here/sizes_driver.cu" > "$out/sizes_all.cu" &&
  nvcc -O3 $arch "$out/sizes_all.cu" -o "$out/sizes" &&
  "$out/sizes" 1 17 1000 4096 8191 || fail "sizes.py"

shapes=""
for s in 1 17 1000 4096 8191; do shapes="$shapes $s,$s,$s"; done
shapes="$shapes 1,4096,8191 8191,17,1000 1000,8191,1 4096,1,17 17,1000,4096 4096,4096,1000 1000,1000,4096 4096,8191,4096 8191,4096,4096 4096,4096,8191"
wide="block_N=256, block_K=64, num_stages=4, threads=256"
for path in tma cpasync; do
  flags=""
  [ $path = cpasync ] && flags="--no-warp-specialize"
  step "GEMM, $path path: build once"
  "$tlc" "$here/gemm.py" $flags --call 'matmul.compile()' --call "matmul.compile($wide)" \
      --call 'static_matmul.compile(M=4096, N=4096, K=4096)' \
      --call "static_matmul.compile(M=4096, N=4096, K=4096, $wide)" -o "$out/gemm_$path.cu" &&
    "$tlc" "$here/gemm_classic.py" $flags --call 'matmul_dynamic_mnk()' -o "$out/classic_$path.cu" &&
    nvcc -O3 $arch "$out/gemm_$path.cu" "$out/classic_$path.cu" "$here/gemm_driver.cu" -lcublas \
      -o "$out/gemm_$path" || { fail "GEMM build ($path)"; continue; }
  step "GEMM, $path path: shapes"
  "$out/gemm_$path" $shapes || fail "GEMM shapes ($path)"
  step "GEMM, $path path: 4096^3"
  "$out/gemm_$path" --bench | tee "$out/bench_$path.txt" || fail "GEMM bench ($path)"
done

step "harness (--size)"
"$tlc" --harness "$here/sizes.py" --call 'add.compile(N=256)' --call 'scale()' \
    --size m=8191 --size n=8192 -o "$out/h.cu" && nvcc -O3 $arch "$out/h.cu" -o "$out/h" && "$out/h" ||
  fail "sizes harness"
for s in 4096 1000; do
  "$tlc" --harness --cublas "$here/gemm.py" --call 'matmul.compile()' \
      --size m=$s --size n=$s --size k=$s -o "$out/hg$s.cu" &&
    nvcc -O3 $arch "$out/hg$s.cu" -o "$out/hg$s" -lcublas && "$out/hg$s" || fail "GEMM harness at $s"
done

echo
echo "4096^3 float16 GEMM (fp32 accumulation), best of 3 x 50 launches"
printf "%-8s %-28s %9s %9s %10s %10s\n" path kernel ms TFLOP/s vs_static vs_cuBLAS
for path in tma cpasync; do
  [ -s "$out/bench_$path.txt" ] || continue
  awk -v path=$path '/^bench / { ms[$2] = $3; tf[$2] = $4; order[n++] = $2 }
    END {
      for (i = 0; i < n; i++) {
        k = order[i]; st = (k ~ /256x64/) ? "static_128x256x64" : "static_128x128x32"
        printf "%-8s %-28s %9.4f %9.1f %10.3f %10.3f\n", path, k, ms[k], tf[k], ms[st] / ms[k], ms["cublas"] / ms[k]
      }
    }' "$out/bench_$path.txt"
done
echo "(vs_static: static time / this time; the bar is >= 0.90 for dynamic_128x128x32 on the tma path)"
[ $status = 0 ] && echo "ALL CHECKS PASSED" || echo "SOME CHECKS FAILED"
exit $status
