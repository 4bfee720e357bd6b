#!/usr/bin/env bash
# bench/ws_gpu.sh: on the GPU machine, TileLang's explicit warp-specialized
# GEMM files (T.ws scopes and mbarriers) and test/GPU/Inputs/warp_groups.py.
#   here:  WORK=bench/gen-ws/main NVCC=none bash bench/tilelang_corpus.sh --harness DIR/main   (and v0.1.5)
#          build/bin/tlc test/GPU/Inputs/warp_groups.py --harness -o bench/gen-ws/own/warp_groups_harness.cu
#   there: bash bench/ws_gpu.sh        (carry bench/gen-ws)
# Prints every harness's PASS/FAIL and perf line, compute-sanitizer's verdicts on
# warp_groups.py, and torch's fp16 matmul (cuBLAS) at the files' sizes, same run.
set -u
cd "$(dirname "$0")/.."
RUN_TIMEOUT=${RUN_TIMEOUT:-180} bash bench/tilelang_corpus.sh run-harnesses bench/gen-ws/main bench/gen-ws/v0.1.5 bench/gen-ws/own
for h in bench/gen-ws/*/*_harness; do
  [ -x "$h" ] || continue
  echo "== $h"
  "$h" 2>&1 | grep -E "^(check|perf)" | head -20
done
for tool in memcheck racecheck synccheck; do
  out=$(compute-sanitizer --tool $tool bench/gen-ws/own/warp_groups_harness --no-perf 2>&1 | tail -3)
  echo "sanitizer $tool: $(echo "$out" | tr '\n' ' ')"
done
python3 - <<'PY'
import torch
for n in (1024, 4096, 16384):
    a = torch.randn(n, n, device="cuda", dtype=torch.float16)
    b = torch.randn(n, n, device="cuda", dtype=torch.float16)
    for _ in range(3): a @ b
    ts = []
    for _ in range(10):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); a @ b; e.record(); torch.cuda.synchronize(); ts.append(s.elapsed_time(e))
    ts.sort(); ms = ts[len(ts) // 2]
    print(f"torch fp16 matmul {n}^3: median_ms={ms:.3f} tflops={2*n**3/ms/1e9:.1f}")
PY
