# The fp8 dtypes under every spelling TileLang files use: TileLang's current
# T.float8_e4m3fn / T.float8_e4m3 / T.float8_e5m2, v0.1.5's strings
# "e4m3_float8" / "e5m2_float8", torch.float8_e4m3fn as a value, and string
# equality with the T. dtype; `.bits` is 8 (T.float16.bits and
# torch.bfloat16.itemsize read as unknown before). float8_e4m3fnuz (another
# encoding: no negative zero, bias 8) is not one of them: a located error.
# RUN: %tlc %s --call 'f()' --emit=signature | FileCheck %s
# RUN: %tlc %s --call 'f(T.float8_e5m2)' --emit=signature | FileCheck %s --check-prefix=E5
# RUN: not %tlc %s --call 'f("float8_e4m3fnuz")' 2>&1 | FileCheck %s --check-prefix=FNUZ
import tilelang.language as T
import torch


def f(in_dtype=T.float8_e4m3fn):
    assert T.float8_e4m3 == "e4m3_float8" and torch.float8_e4m3fn == "float8_e4m3"
    assert "e5m2_float8" == T.float8_e5m2 and torch.float8_e5m2 != T.float8_e4m3fn
    assert T.float8_e4m3.bits == 8 and T.float16.bits == 16 and torch.bfloat16.itemsize == 2

    @T.prim_func
    def k(A: T.Tensor((64,), in_dtype), B: T.Tensor((64,), "e4m3_float8"), C: T.Tensor((64,), torch.float8_e4m3fn)):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                C[i] = T.cast(A[i], "float32") + B[i]

    return k

# CHECK: "dtype": "float8_e4m3", "shape": [64]
# CHECK: "dtype": "float8_e4m3", "shape": [64]
# CHECK: "dtype": "float8_e4m3", "shape": [64]
# E5: "dtype": "float8_e5m2"
# FNUZ: error: unknown dtype 'float8_e4m3fnuz'
