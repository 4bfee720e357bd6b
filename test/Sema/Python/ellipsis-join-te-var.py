# More of the Python around TileLang kernels: `...` (Ellipsis, in
# annotations such as Callable[..., Any]) parses and is None to tlc;
# str.join; a dtype iterated as its name's characters (TileLang's dtypes
# are str subclasses); tvm.te.var("m") / tvm.tir.Var("m", dtype), TVM's
# spellings of T.dynamic.
# RUN: %tlc %s --call 'f(T.int8)' --emit=ir | FileCheck %s
# RUN: not %tlc %s --call 'join_ints()' 2>&1 | FileCheck %s --check-prefix=JOIN --match-full-lines
from typing import Any, Callable

import tilelang.language as T
from tilelang import tvm as tvm


def stub(x: int) -> Callable[..., Any]:
    ...


# CHECK: kernel f(A: global int8[m#0, k#1] read @[[#@LINE+11]]:14, B: global int8[m#0, k#1] written
# CHECK-NEXT: var m#0: int32 size
# CHECK-NEXT: var k#1: int64 size
def f(storage_dtype) -> Callable[..., Any]:
    kind = "".join(c for c in storage_dtype if not c.isdigit())
    bits = int("".join(c for c in storage_dtype if c.isdigit()))
    assert kind == "int" and bits == 8 and stub(1) is None
    M = tvm.te.var("m")
    K = tvm.tir.Var("k", "int64")

    @T.prim_func
    def main(A: T.Tensor((M, K), storage_dtype), B: T.Tensor((M, K), storage_dtype)):
        with T.Kernel(T.ceildiv(M, 32), threads=128) as bx:
            for i, j in T.Parallel(32, 4):
                if bx * 32 + i < M and j < K:
                    B[bx * 32 + i, j] = A[bx * 32 + i, j]
    return main


def join_ints():
    return ", ".join([1, 2])
# JOIN: {{.*}}ellipsis-join-te-var.py:[[#@LINE-1]]:12: error: 'str.join' joins strings, not an int
