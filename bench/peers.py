#!/usr/bin/env python3
"""bench/peers.py KERNELS.json OUT.json: the same work in torch and Triton.

For every kernel in KERNELS.json (written by bench/prepare.sh from the
harnesses' TLH-META lines) of kind
  elementwise  torch.add(a, b, out=c) (or torch.mul(a, 2, out=c) for one
               input) and a Triton element-wise kernel (the tutorial's add);
  gemm         torch.matmul(a, b, out=c) (cuBLAS) and a tutorial-style Triton
               matmul (grouped tile order, a small autotuned config set),
               B transposed when the kernel reads it transposed;
on the same shapes and dtypes, with data uniform in [-1, 1] like the
harness. Times are medians of triton.testing.do_bench (CUDA events, L2
flushed before every run). Kernels of other kinds have no peer.
"""
import json
import sys

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
          "float64": torch.float64, "int32": torch.int32}


@triton.jit
def elementwise_kernel(a, b, c, n, BLOCK: tl.constexpr, TWO: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(a + offs, mask=mask)
    if TWO:
        x = x + tl.load(b + offs, mask=mask)
    else:
        x = x * 2
    tl.store(c + offs, x, mask=mask)


def triton_elementwise(a, b, c):
    n = c.numel()
    elementwise_kernel[(triton.cdiv(n, 1024),)](a, b if b is not None else a, c, n, BLOCK=1024,
                                                TWO=b is not None)


def matmul_configs():
    cfg = triton.Config
    return [cfg({"BM": 128, "BN": 256, "BK": 64, "G": 8}, num_stages=3, num_warps=8),
            cfg({"BM": 256, "BN": 128, "BK": 64, "G": 8}, num_stages=3, num_warps=8),
            cfg({"BM": 128, "BN": 128, "BK": 64, "G": 8}, num_stages=4, num_warps=4),
            cfg({"BM": 128, "BN": 128, "BK": 32, "G": 8}, num_stages=4, num_warps=4),
            cfg({"BM": 64, "BN": 128, "BK": 32, "G": 8}, num_stages=4, num_warps=4)]


@triton.autotune(configs=matmul_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(a, b, c, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, G: tl.constexpr):
    # Tiles in groups of G rows, so neighbouring programs share A and B in L2.
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    in_group = G * num_n
    first_m = (pid // in_group) * G
    group_m = min(num_m - first_m, G)
    pid_m = first_m + ((pid % in_group) % group_m)
    pid_n = (pid % in_group) // group_m
    offs_m = (pid_m * BM + tl.arange(0, BM)) % M
    offs_n = (pid_n * BN + tl.arange(0, BN)) % N
    offs_k = tl.arange(0, BK)
    a_ptrs = a + offs_m[:, None] * sam + offs_k[None, :] * sak
    b_ptrs = b + offs_k[:, None] * sbk + offs_n[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        x = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BK, other=0.0)
        y = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(x, y, acc)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    rows = pid_m * BM + tl.arange(0, BM)
    cols = pid_n * BN + tl.arange(0, BN)
    tl.store(c + rows[:, None] * scm + cols[None, :] * scn, acc.to(c.dtype.element_ty),
             mask=(rows[:, None] < M) & (cols[None, :] < N))


def triton_matmul(a, b, c):
    M, K = a.shape
    N = b.shape[1]
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                        c.stride(0), c.stride(1))


def uniform(shape, dtype):
    return (torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1).to(dtype)


def bench(fn):
    return do_bench(fn, warmup=25, rep=100, return_mode="median")


def peer(row):
    dt, out_dt = DTYPES.get(row["dtype"]), DTYPES.get(row["out_dtype"])
    res = {"harness": row["harness"], "kernel": row["kernel"]}
    if dt is None or out_dt is None:
        return res
    if row["kind"] == "elementwise" and row["inputs"] in (1, 2) and dt.is_floating_point:
        shape = row["shape"]
        a = uniform(shape, dt)
        b = uniform(shape, dt) if row["inputs"] == 2 else None
        c = torch.empty(shape, device="cuda", dtype=dt)
        if b is not None:
            res["torch_what"] = "torch.add"
            res["torch_ms"] = bench(lambda: torch.add(a, b, out=c))
        else:
            res["torch_what"] = "torch.mul"
            res["torch_ms"] = bench(lambda: torch.mul(a, 2, out=c))
        want = c.clone()
        res["triton_what"] = "triton element-wise"
        res["triton_ms"] = bench(lambda: triton_elementwise(a, b, c))
        res["triton_ok"] = bool(torch.equal(c, want))
    elif row["kind"] == "gemm":
        M, N, K = row["m"], row["n"], row["k"]
        a = uniform((K, M), dt).t() if row["trans_a"] else uniform((M, K), dt)
        b = uniform((N, K), dt).t() if row["trans_b"] else uniform((K, N), dt)
        c = torch.empty((M, N), device="cuda", dtype=out_dt)
        if out_dt == dt:
            res["torch_what"] = "torch.matmul (cuBLAS)"
            res["torch_ms"] = bench(lambda: torch.matmul(a, b, out=c))
        else:  # a 32-bit output from 16-bit inputs
            try:
                torch.mm(a, b, out_dtype=out_dt)
                res["torch_what"] = "torch.mm out_dtype (cuBLAS)"
                res["torch_ms"] = bench(lambda: torch.mm(a, b, out_dtype=out_dt))
            except (TypeError, RuntimeError):  # older torch: a 16-bit output instead
                res["torch_what"] = "torch.matmul (cuBLAS, %s output)" % row["dtype"]
                res["torch_ms"] = bench(lambda: torch.matmul(a, b))
        want = torch.matmul(a.float(), b.float())
        res["triton_what"] = "triton matmul (tutorial, autotuned)"
        triton_matmul(a, b, c)  # autotunes once, outside the timing
        res["triton_ms"] = bench(lambda: triton_matmul(a, b, c))
        err = (c.float() - want).norm() / want.norm()
        res["triton_rel_err"] = float(err)
        res["triton_ok"] = bool(err < 2e-2)
    return res


def main():
    rows = json.load(open(sys.argv[1]))
    out = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
           "triton": triton.__version__, "cuda": torch.version.cuda, "results": []}
    for row in rows:
        try:
            r = peer(row)
        except Exception as e:  # one shape failing must not lose the others
            r = {"harness": row["harness"], "kernel": row["kernel"], "error": repr(e)}
        print(json.dumps(r), file=sys.stderr)
        out["results"].append(r)
        torch.cuda.empty_cache()
    json.dump(out, open(sys.argv[2], "w"), indent=1)


if __name__ == "__main__":
    main()
