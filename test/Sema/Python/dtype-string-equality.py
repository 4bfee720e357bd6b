# A dtype string equals the same T. dtype, as in TileLang: `dtype ==
# T.float16` with dtype = "float16" picks the branch, "float" is float32, a
# different dtype is unequal, and a dict keyed by names finds a T. dtype.
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: %tlc %s --call 'f("bfloat16")' | FileCheck %s --check-prefix=BF16
import tilelang.language as T

ACCUM = {"float16": "float32", "bfloat16": "float64"}


def f(dtype="float16"):
    assert T.float32 == "float" and "bfloat16" != T.float16 and T.int32 != "float32"
    acc = T.float32 if dtype == T.float16 else T.float64
    assert ACCUM[T.bfloat16] == "float64" and acc == ACCUM[dtype]

    @T.prim_func
    def main(A: T.Tensor((64,), acc)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                A[i] = A[i] + 1.0

    return main

# CHECK: float* __restrict__ A
# BF16: double* __restrict__ A
