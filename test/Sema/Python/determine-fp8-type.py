# tilelang.language.fp8.determine_fp8_type(fmt) (and determine_torch_fp8_type)
# pick the platform's fp8 dtype: on a CUDA target float8_e4m3fn for "e4m3"
# (the default) and float8_e5m2 for "e5m2" (TileLang's fp8 GEMM example).
# RUN: %tlc %s --call 'f()' --emit=ir --stop-after=sema | FileCheck %s
# RUN: not %tlc %s --call 'bad()' 2>&1 | FileCheck %s --check-prefix=BAD
import tilelang.language as T
from tilelang.language.fp8 import determine_fp8_type, determine_torch_fp8_type


# CHECK: kernel f(A: global float8_e4m3[64] read {{.*}}, B: global float8_e5m2[64] written
def f():
    a_dtype = determine_fp8_type()
    b_dtype = determine_torch_fp8_type(fp8_format="e5m2")

    @T.prim_func
    def main(A: T.Tensor((64,), a_dtype), B: T.Tensor((64,), b_dtype)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                B[i] = A[i]
    return main


# BAD: error: 'determine_fp8_type' takes one format, "e4m3" or "e5m2"
def bad():
    dtype = determine_fp8_type("e3m4")

    @T.prim_func
    def main(A: T.Tensor((64,), dtype)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                A[i] = A[i]
    return main
