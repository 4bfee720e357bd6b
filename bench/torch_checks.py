#!/usr/bin/env python3
"""bench/torch_checks.py MODE SO FN ARGS... [--bench]: checks a tlc launcher, called
through ctypes from a shared library, against torch on fresh random data,
independently of tlc's own reference (which cannot run per-thread code or a
prim_func's own launcher).

  hadamard SO FN B N    TileLang's example_hadamard (warp shuffles, per-thread code):
                        B = A @ H_N (Sylvester's Hadamard matrix, unnormalized), float32
  gemm SO FN M N K IN OUT
                        TileLang's TensorCoreIntrinEmitter GEMMs (C = A @ B.T, A [M, K],
                        B [N, K]; IN float16, bfloat16, int8 or e4m3; OUT float16, float32
                        or int32) against torch's matmul in float64
  decode SO FN B SQ H SKV D
                        TileLang's flash_decoding/example_mha_inference: the prim_func's
                        launcher (T.alloc_global scratch, split kernel, combine kernel)
                        against torch's scaled_dot_product_attention, float16
  mla SO FN B H SKV D PE NSPLIT
                        TileLang's MLA decode kernels with one KV head (warp_specialize/
                        example_warp_specialize_flashmla, deepseek_mla/example_mla_decode_ws and
                        _persistent): launcher(Q [B,H,D], Q_pe [B,H,PE], KV [B,SKV,1,D],
                        K_pe [B,SKV,1,PE], glse [B,H,NSPLIT], Output_partial [B,H,NSPLIT,D],
                        Output [B,H,D]) against softmax((Q.KV + Q_pe.K_pe) / sqrt(D + PE)) @ KV
                        in float32, float16 data

Build the library here (no GPU needed):
  tlc FILE --call '...' -o bench/gen-check/NAME.cu
  nvcc -O3 -gencode=arch=compute_90a,code=sm_90a -shared -Xcompiler -fPIC \\
       bench/gen-check/NAME.cu python/tlc/glue.cu -o bench/gen-check/NAME.so
Prints one line: PASS/FAIL and the relative error; with --bench the median time of
tlc's launcher and of torch's in the same run (CUDA events, 20 runs after 5 warm-ups).
"""
import ctypes
import sys

import torch
import torch.nn.functional as F

from conv_check import median_ms  # CUDA events, 20 runs after 5 warm-ups


def walsh_hadamard(x):
    """x @ H_n for Sylvester's H_n, by butterflies (no n x n matrix)."""
    rows, n = x.shape
    y, h = x.clone(), 1
    while h < n:
        y = y.view(rows, n // (2 * h), 2, h)
        y = torch.stack((y[:, :, 0, :] + y[:, :, 1, :], y[:, :, 0, :] - y[:, :, 1, :]), dim=2)
        h *= 2
    return y.reshape(rows, n)


def launcher(so, fn):
    f = getattr(ctypes.CDLL(so), fn)
    f.restype = ctypes.c_int
    return f


def ptr(t):
    return ctypes.c_void_p(t.data_ptr())


def run(f, *tensors):
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    args = tuple(ptr(t) for t in tensors) + (stream,)
    return f(*args), args


def hadamard(so, fn, b, n, bench):
    torch.manual_seed(1234)
    a = torch.randn(b, n, device="cuda", dtype=torch.float32)
    out = torch.full((b, n), float("nan"), device="cuda", dtype=torch.float32)
    f = launcher(so, fn)
    err, args = run(f, a, out)
    torch.cuda.synchronize()
    ref = walsh_hadamard(a.double()).float()
    rel = ((out - ref).norm() / ref.norm()).item()
    nan = torch.isnan(out).sum().item()
    ok = err == 0 and rel < 1e-5 and nan == 0
    line = f"{'PASS' if ok else 'FAIL'} hadamard {fn} B={b} N={n}: err={err} rel_err={rel:.2e} nan={nan}"
    if bench and ok:
        t_tlc = median_ms(lambda: f(*args))
        t_torch = median_ms(lambda: walsh_hadamard(a))
        line += f" tlc_ms={t_tlc:.3f} torch_butterflies_ms={t_torch:.3f}"
    return ok, line


TORCH_DTYPES = {"float16": torch.float16, "bfloat16": torch.bfloat16, "int8": torch.int8,
                "e4m3": torch.float8_e4m3fn, "float32": torch.float32, "int32": torch.int32}


def gemm(so, fn, m, n, k, din, dout, bench):
    torch.manual_seed(1234)
    if din == "int8":
        a = torch.randint(-7, 8, (m, k), device="cuda", dtype=torch.int8)
        b = torch.randint(-7, 8, (n, k), device="cuda", dtype=torch.int8)
    else:
        a = torch.randn(m, k, device="cuda").to(TORCH_DTYPES[din])
        b = torch.randn(n, k, device="cuda").to(TORCH_DTYPES[din])
    c = torch.zeros(m, n, device="cuda", dtype=TORCH_DTYPES[dout])
    f = launcher(so, fn)
    err, args = run(f, a, b, c)
    torch.cuda.synchronize()
    ref = a.double() @ b.double().T
    rel = ((c.double() - ref).norm() / ref.norm()).item()
    tol = 0 if din == "int8" else 1e-2
    ok = err == 0 and rel <= tol and not torch.isnan(c.double()).any().item()
    line = f"{'PASS' if ok else 'FAIL'} gemm {fn} {m}x{n}x{k} {din}->{dout}: err={err} rel_err={rel:.2e}"
    if bench and ok and din in ("float16", "bfloat16"):
        t_tlc = median_ms(lambda: f(*args))
        t_torch = median_ms(lambda: a @ b.T)
        tflops = 2.0 * m * n * k / t_tlc / 1e9
        line += f" tlc_ms={t_tlc:.3f} ({tflops:.0f} TFLOP/s) cublas_ms={t_torch:.3f} ratio={t_torch / t_tlc:.2f}x"
    return ok, line


def decode(so, fn, b, sq, h, skv, d, bench):
    torch.manual_seed(1234)
    q = torch.randn(b, sq, h, d, device="cuda", dtype=torch.float16)
    k = torch.randn(b, skv, h, d, device="cuda", dtype=torch.float16)
    v = torch.randn(b, skv, h, d, device="cuda", dtype=torch.float16)
    out = torch.full((b, sq, h, d), float("nan"), device="cuda", dtype=torch.float16)
    f = launcher(so, fn)
    err, args = run(f, q, k, v, out)
    torch.cuda.synchronize()
    ref = F.scaled_dot_product_attention(q.transpose(1, 2).float(), k.transpose(1, 2).float(),
                                         v.transpose(1, 2).float()).transpose(1, 2)
    rel = ((out.float() - ref).norm() / ref.norm()).item()
    nan = torch.isnan(out).sum().item()
    ok = err == 0 and rel < 1e-2 and nan == 0
    line = (f"{'PASS' if ok else 'FAIL'} decode {fn} B={b} SQ={sq} H={h} SKV={skv} D={d}: "
            f"err={err} rel_err={rel:.2e} nan={nan}")
    if bench and ok:
        t_tlc = median_ms(lambda: f(*args))
        qt, kt, vt = (x.transpose(1, 2) for x in (q, k, v))
        t_torch = median_ms(lambda: F.scaled_dot_product_attention(qt, kt, vt))
        line += f" tlc_ms={t_tlc:.3f} sdpa_ms={t_torch:.3f} ratio={t_torch / t_tlc:.2f}x"
    return ok, line


def mla(so, fn, b, h, skv, d, pe, nsplit, bench):
    torch.manual_seed(1234)
    q = torch.randn(b, h, d, device="cuda", dtype=torch.float16)
    q_pe = torch.randn(b, h, pe, device="cuda", dtype=torch.float16)
    kv = torch.randn(b, skv, 1, d, device="cuda", dtype=torch.float16)
    k_pe = torch.randn(b, skv, 1, pe, device="cuda", dtype=torch.float16)
    glse = torch.zeros(b, h, nsplit, device="cuda", dtype=torch.float16)
    partial = torch.zeros(b, h, nsplit, d, device="cuda", dtype=torch.float16)
    out = torch.full((b, h, d), float("nan"), device="cuda", dtype=torch.float16)
    f = launcher(so, fn)
    err, args = run(f, q, q_pe, kv, k_pe, glse, partial, out)
    torch.cuda.synchronize()
    kv0, kpe0 = kv[:, :, 0, :].float(), k_pe[:, :, 0, :].float()
    scores = (torch.einsum("bhd,bsd->bhs", q.float(), kv0) +
              torch.einsum("bhd,bsd->bhs", q_pe.float(), kpe0)) / (d + pe) ** 0.5
    ref = torch.einsum("bhs,bsd->bhd", torch.softmax(scores, dim=-1), kv0)
    rel = ((out.float() - ref).norm() / ref.norm()).item()
    nan = torch.isnan(out).sum().item()
    ok = err == 0 and rel < 1e-2 and nan == 0
    line = (f"{'PASS' if ok else 'FAIL'} mla {fn} B={b} H={h} SKV={skv} D={d} PE={pe}: "
            f"err={err} rel_err={rel:.2e} nan={nan}")
    if bench and ok:
        t_tlc = median_ms(lambda: f(*args))
        line += f" tlc_ms={t_tlc:.3f}"
    return ok, line


def main():
    bench = "--bench" in sys.argv
    argv = [a for a in sys.argv[1:] if a != "--bench"]
    mode, so, fn = argv[0], argv[1], argv[2]
    nums = [int(x) for x in argv[3:]] if mode != "gemm" else []
    if mode == "hadamard":
        ok, line = hadamard(so, fn, *nums, bench)
    elif mode == "decode":
        ok, line = decode(so, fn, *nums, bench)
    elif mode == "mla":
        ok, line = mla(so, fn, *nums, bench)
    elif mode == "gemm":
        ok, line = gemm(so, fn, int(argv[3]), int(argv[4]), int(argv[5]), argv[6], argv[7], bench)
    else:
        print(f"unknown mode {mode}")
        return 2
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
