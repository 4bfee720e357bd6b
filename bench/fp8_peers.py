#!/usr/bin/env python3
"""bench/fp8_peers.py N...: torch._scaled_mm (cuBLAS fp8) on N x N x N.

The peer of bench/fp8.sh's s8_* kernels: A[N, K] and B[N, K] float8_e4m3fn
uniform in [-1, 1] (B passed transposed, the column-major operand cuBLAS
wants), unit scales, bfloat16 out. Median of triton.testing.do_bench (CUDA
events, L2 flushed before every run), as the harness times tlc's kernels.
"""
import sys

import torch
from triton.testing import do_bench

for n in [int(a) for a in sys.argv[1:]]:
    a = (torch.rand(n, n, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    b = (torch.rand(n, n, device="cuda") * 2 - 1).to(torch.float8_e4m3fn)
    one = torch.tensor(1.0, device="cuda")
    f = lambda: torch._scaled_mm(a, b.t(), scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    ref = (a.float() @ b.float().t())
    err = ((f().float() - ref).norm() / ref.norm()).item()
    ms = do_bench(f, warmup=25, rep=200, return_mode="median")
    print("peer torch._scaled_mm %d: median_ms=%.4f tflops=%.1f rel_err=%.2e" % (n, ms, 2 * n**3 / ms / 1e9, err))
