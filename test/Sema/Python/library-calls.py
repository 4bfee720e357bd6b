# The library calls and values of TileLang files' Python, evaluated without
# the libraries: tilelang.cdiv / tl.cdiv (ceiling, any sign),
# tilelang.math.next_power_of_2, driver.get_num_sms() from --target's file
# (132 SMs on the H200, 108 on sm_80), DataType(dtype).bits, torch dtypes as
# dict keys and defaults, functools.lru_cache / functools.cache /
# simplify_prim_func / a project's *jit decorator around the factory, a lazy
# import inside the factory, and `return tilelang.compile(main, out_idx=...)`.
# RUN: %tlc %s --call 'scale(8192)' | FileCheck %s --check-prefix=H200
# RUN: %tlc %s --target=sm_80 --call 'scale(8192)' | FileCheck %s --check-prefix=A100
# RUN: %tlc %s --call 'cached(256)' --call 'wrapped(256)' | FileCheck %s --check-prefix=WRAPPED
# RUN: not %tlc %s --call 'bad_cdiv()' 2>&1 | FileCheck %s --check-prefix=BADCDIV --match-full-lines
# RUN: not %tlc %s --call 'too_big()' 2>&1 | FileCheck %s --check-prefix=TOOBIG --match-full-lines
import functools
import torch
import tilelang
import tilelang as tl
import tilelang.language as T
from tilelang.carver.arch import driver
from tvm import DataType
from tilelang.math import next_power_of_2

DTYPES = {torch.float16: "float16", torch.bfloat16: "bfloat16"}


def name_of(dtype=torch.float16):
    return DTYPES[dtype]


@functools.lru_cache(maxsize=None)
def scale(N, dtype="float16", torch_dtype=torch.float16):
    sms = driver.get_num_sms()
    block = next_power_of_2(N // sms)
    bits = DataType(dtype).bits
    grid = tilelang.cdiv(N, block)
    assert tl.cdiv(7, 2) == 4 and tl.cdiv(-7, 2) == -3 and tilelang.cdiv(0, 5) == 0
    assert bits == 16 and DataType("float32").bits == 32 and name_of(torch_dtype) == dtype
    assert next_power_of_2(1) == 1 and next_power_of_2(64) == 64 and next_power_of_2(65) == 128

    @T.prim_func
    def main(A: T.Tensor((N,), dtype), B: T.Tensor((N,), dtype)):
        with T.Kernel(grid, threads=128) as bx:
            for i in T.Parallel(block):
                B[bx * block + i] = A[bx * block + i] * (sms + bits)

    return tilelang.compile(main, out_idx=[1], target="cuda")


def simplify_prim_func(f):
    return f


def tilelang_jit(f):
    return f


@functools.cache
@simplify_prim_func
def cached(N):
    import tilelang.language as TL

    @TL.prim_func
    def main(A: TL.Tensor((N,), "float32")):
        with TL.Kernel(1, threads=128) as bx:
            for i in TL.Parallel(N):
                A[i] = A[i] + 1.0

    return main


@tilelang_jit
def wrapped(N):
    return cached(N)


def bad_cdiv():
    return tilelang.cdiv(7, 0)


def too_big():
    return next_power_of_2(2**62 + 1)

# H200: kernel scale ({{.*}}): grid (128, 1, 1)
# H200: T.Parallel(64)
# H200: half_t(148.0f)
# A100: kernel scale ({{.*}}): grid (64, 1, 1)
# A100: T.Parallel(128)
# A100: half_t(124.0f)
# WRAPPED: cached_kernel(
# WRAPPED: wrapped_kernel(
# BADCDIV: {{.*}}library-calls.py:76:12: error: 'tilelang.cdiv' divides by zero
# TOOBIG: {{.*}}library-calls.py:80:12: error: 'tilelang.math.next_power_of_2(4611686018427387905)' does not fit in 64 bits
