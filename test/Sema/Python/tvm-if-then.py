# TVM script's `with T.If(cond), T.Then():` (TileLang v0.1.5's grouped GEMM)
# is `if cond:`; `with A, B:` is `with A: with B:` as in Python.
# RUN: %tlc %s --call 'f()' --emit=ir | FileCheck %s
# RUN: not %tlc %s --call 'no_then()' 2>&1 | FileCheck %s --check-prefix=NOTHEN --match-full-lines
# RUN: not %tlc %s --call 'two_conditions()' 2>&1 | FileCheck %s --check-prefix=TWO --match-full-lines
import tilelang.language as T


# CHECK: if tx * 4 + lane < rows @[[#@LINE+7]]:17 {
# CHECK-NEXT: C[tx * 4 + lane] = A[tx * 4 + lane] @[[#@LINE+7]]:26
def f():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), C: T.Tensor((64,), "float32"), rows: T.int32):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                with T.If(i < rows), T.Then():
                    C[i] = A[i]
    return main


def no_then():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), C: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                with T.If(i < 32):
                    C[i] = A[i]
    return main
# NOTHEN: {{.*}}tvm-if-then.py:[[#@LINE-3]]:17: error: 'with T.If(cond)' needs 'T.Then()' as its only statement
# NOTHEN-NEXT:                 with T.If(i < 32):
# NOTHEN-NEXT:                 ^~~~
# NOTHEN-NEXT: {{.*}}tvm-if-then.py:[[#@LINE-6]]:17: note: write it as 'with T.If(cond), T.Then():', or as 'if cond:'


def two_conditions():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32"), C: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            for i in T.Parallel(64):
                with T.If(i < 32, i > 2), T.Then():
                    C[i] = A[i]
    return main
# TWO: {{.*}}tvm-if-then.py:[[#@LINE-3]]:22: error: 'T.If' takes one condition
