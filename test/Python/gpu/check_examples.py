#!/usr/bin/env python3
"""test/Python/gpu/check_examples.py: the tlc Python package on a GPU, with torch.

Run on the H200 from the repository root (test/Python/gpu/run.sh does it):

  1. every examples/*.tl and every examples/tilelang-style/*.py call of
     bench/tilelang_style.sh is compiled with tlc.compile, called from Python
     on fresh random tensors (outputs left out: the package allocates them)
     and compared with torch's own computation;
  2. the argument checks on real CUDA tensors (wrong dtype, a CPU tensor, a
     transposed view, a misaligned view each raise before any launch);
  3. the calling overhead: a kernel on a 4-byte tensor launched through the
     package vs the same launcher called through bare ctypes (median of
     per-call CPU times over 20 x 2000 calls; the issue's aim: under 10 us more).

Prints one line per check and exits 1 if any fails.
"""
import ctypes
import os
import sys
import tempfile
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "python"))
import tlc  # noqa: E402

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
EX = os.path.join(ROOT, "examples")
TS = os.path.join(EX, "tilelang-style")
dev = "cuda"


def rand(*shape, dtype=torch.float16):
    return torch.randn(*shape, device=dev, dtype=dtype)


def rel_err(got, want):
    got, want = got.float(), want.float()
    return ((got - want).norm() / want.norm().clamp_min(1e-12)).item()


def attention_ref(q, k, v):
    s = (q.float() @ k.float().T) * 0.125
    return torch.softmax(s, -1) @ v.float()


def rmsnorm_ref(x, w, eps):
    xf = x.float()
    return xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps) * w.float()


def flash_ref(q, k, v, causal):
    return F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                          is_causal=causal).transpose(1, 2)


def case_tl(name, file, make, ref, tol):
    return (name, os.path.join(EX, file), None, make, ref, tol)


def case_ts(name, file, call, make, ref, tol):
    return (name, os.path.join(TS, file), call, make, ref, tol)


def gemm_case(m, n, k):
    return lambda: (rand(m, k), rand(k, n)), lambda a, b: a.float() @ b.float()


def attn_case(b, h, s, d, causal):
    return (lambda: tuple(rand(b, s, h, d) for _ in range(3)),
            lambda q, k, v: flash_ref(q, k, v, causal))


CASES = [
    case_tl("elementwise_add.tl", "elementwise_add.tl",
            lambda: (rand(4096, 4096, dtype=torch.float32), rand(4096, 4096, dtype=torch.float32)),
            lambda a, b: a + b, 1e-6),
    case_tl("elementwise_add_fp16.tl", "elementwise_add_fp16.tl", lambda: (rand(4096, 4096), rand(4096, 4096)),
            lambda a, b: a.float() + b.float(), 1e-3),
    case_tl("gemm.tl", "gemm.tl", *gemm_case(4096, 4096, 4096), 1e-2),
    case_tl("gemm_fast.tl", "gemm_fast.tl", *gemm_case(4096, 4096, 4096), 1e-2),
    case_tl("gemm_fast_bf16.tl", "gemm_fast_bf16.tl",
            lambda: (rand(4096, 4096, dtype=torch.bfloat16), rand(4096, 4096, dtype=torch.bfloat16)),
            lambda a, b: a.float() @ b.float(), 2e-2),
    case_tl("gemm_bf16_transpose_b.tl", "gemm_bf16_transpose_b.tl",
            lambda: (rand(4096, 4096, dtype=torch.bfloat16), rand(4096, 4096, dtype=torch.bfloat16)),
            lambda a, b: a.float() @ b.float().T, 2e-2),
    case_tl("gemm_bias_relu.tl", "gemm_bias_relu.tl", lambda: (rand(4096, 4096), rand(4096, 4096), rand(4096)),
            lambda a, b, bias: torch.relu(a.float() @ b.float() + bias.float()), 1e-2),
    case_tl("attention_tile.tl", "attention_tile.tl", lambda: (rand(4096, 64), rand(128, 64), rand(128, 64)),
            attention_ref, 1e-2),
    case_tl("pipelined_rowsum.tl", "pipelined_rowsum.tl", lambda: (rand(4096, 8192, dtype=torch.float32),),
            lambda x: x.sum(-1), 1e-5),
    case_tl("softmax.tl", "softmax.tl", lambda: (rand(8192, 1024),), lambda x: torch.softmax(x.float(), -1), 1e-2),
    case_ts("gemm_1024", "gemm.py", "matmul(1024,1024,1024,128,128,32)", *gemm_case(1024, 1024, 1024), 1e-2),
    case_ts("gemm_4096", "gemm.py", "matmul(4096,4096,4096,128,128,32)", *gemm_case(4096, 4096, 4096), 1e-2),
    case_ts("gemm_odd", "gemm.py", "matmul(1000,1000,1000,128,128,32,num_stages=2,threads=256)",
            *gemm_case(1000, 1000, 1000), 1e-2),
    case_ts("add_1024", "elementwise_add.py", "elementwise_add(1024,1024,64,128,128)",
            lambda: (rand(1024, 1024, dtype=torch.float32), rand(1024, 1024, dtype=torch.float32)),
            lambda a, b: a + b, 1e-6),
    case_ts("add_odd", "elementwise_add.py", "elementwise_add(1000,1000,block_M=32,block_N=256,threads=256)",
            lambda: (rand(1000, 1000, dtype=torch.float32), rand(1000, 1000, dtype=torch.float32)),
            lambda a, b: a + b, 1e-6),
    case_ts("attn", "flash_attention.py", "flashattn(1,4,1024,64,False)", *attn_case(1, 4, 1024, 64, False), 1e-2),
    case_ts("attn_causal", "flash_attention.py", "flashattn(1,4,1024,64,True)", *attn_case(1, 4, 1024, 64, True), 1e-2),
    case_ts("attn_causal_128", "flash_attention.py",
            "flashattn(2,3,1024,64,is_causal=True,block_M=128,block_N=64,num_stages=2)",
            *attn_case(2, 3, 1024, 64, True), 1e-2),
    case_ts("attn_big", "flash_attention.py", "flashattn(4,16,4096,64,False,block_M=128,block_N=64,num_stages=2)",
            *attn_case(4, 16, 4096, 64, False), 1e-2),
    case_ts("rms", "rms_norm.py", "rms_norm(4096,2048,2)",
            lambda: (rand(4096, 2048), rand(2048)), lambda x, w: rmsnorm_ref(x, w, 1e-6), 1e-2),
    case_ts("rms_b4", "rms_norm.py", "rms_norm(1000,1024,block_M=4,eps=1e-5)",
            lambda: (rand(1000, 1024), rand(1024)), lambda x, w: rmsnorm_ref(x, w, 1e-5), 1e-2),
]


def check_examples():
    bad = 0
    for name, path, call, make, ref, tol in CASES:
        try:
            mod = tlc.compile(path, call=call)
            inputs = make()
            out = mod(*inputs)  # the output is allocated by the package
            torch.cuda.synchronize()
            err = rel_err(out, ref(*inputs))
            ok = err < tol
        except Exception as e:  # reported, not fatal to the other cases
            ok, err = False, float("nan")
            print(f"{name}: {type(e).__name__}: {e}")
        bad += not ok
        print(f"{'PASS' if ok else 'FAIL'} {name}: rel_err={err:.2e} (tol {tol:g})", flush=True)
    return bad


def check_arguments():
    mod = tlc.compile(os.path.join(EX, "elementwise_add_fp16.tl"))
    a, b = rand(4096, 4096), rand(4096, 4096)
    spare = rand(4096 * 4096 + 8)  # a view one element in is 2 bytes off the 16 the kernel needs
    misaligned = spare[1:4096 * 4096 + 1].view(4096, 4096)
    bad = 0
    for label, args in [("float32", (a.float(), b)), ("cpu", (a.cpu(), b)), ("transposed", (a.t(), b)),
                        ("misaligned", (misaligned, b))]:
        try:
            mod(*args)
            print(f"FAIL argument check {label}: no error")
            bad += 1
        except tlc.ArgumentError as e:
            print(f"PASS argument check {label}: {e}")
    return bad


TINY = """import tilelang.language as T

@T.prim_func
def tiny(X: T.Tensor((1,), "float32")):
    with T.Kernel(1, threads=32) as bx:
        for i in T.Parallel(1):
            X[i] = X[i] + 1.0
"""


def per_call_us(fn, calls=2000, reps=20):
    samples = []
    for _ in range(reps):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        samples.append((t1 - t0) / calls * 1e6)
    samples.sort()
    return samples[len(samples) // 2]


def measure_overhead():
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "tiny.tl")
        with open(path, "w") as f:
            f.write(TINY)
        mod = tlc.compile(path)
    x = torch.zeros(1, device=dev)
    bare = ctypes.CDLL(mod.library_path).tiny
    bare.restype = ctypes.c_int
    bare.argtypes = [ctypes.c_void_p, ctypes.c_void_p]
    ptr, stream = x.data_ptr(), torch.cuda.current_stream().cuda_stream
    kernel = mod.tiny
    kernel(x)
    torch.cuda.synchronize()
    if x.item() != 1.0:
        print(f"FAIL tiny kernel: x = {x.item()}, expected 1.0")
        return 1
    t_bare = per_call_us(lambda: bare(ptr, stream))
    t_pkg = per_call_us(lambda: kernel(x))
    extra = t_pkg - t_bare
    print(f"{'PASS' if extra < 10 else 'FAIL'} overhead: package {t_pkg:.2f} us/call, bare ctypes "
          f"{t_bare:.2f} us/call, {extra:.2f} us more (aim: under 10)")
    return 0 if extra < 10 else 1


def main():
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}, cache {tlc.cache_dir()}")
    bad = check_examples() + check_arguments() + measure_overhead()
    print(f"{'all passed' if not bad else f'{bad} failed'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
