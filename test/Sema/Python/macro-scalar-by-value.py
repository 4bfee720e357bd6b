# A scalar passed to a @T.macro is passed by value: assigning to the
# parameter inside the macro makes a copy and leaves the caller's variable
# alone (buffers and loop/block indices are aliased).
# RUN: %tlc %s --call 'f()' | FileCheck %s
import tilelang.language as T

def f():
    @T.macro
    def Bump(X, k):
        k = k * 2
        for i in T.Parallel(4):
            X[i] = X[i] + k

    @T.prim_func
    def main(A: T.Tensor((8,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            k = A[4]
            Bump(A, k)
            A[5] = k
    return main

# CHECK: float k_[[CALLER:[0-9]+]] = A[4];
# CHECK-NEXT: float k_[[PARAM:[0-9]+]] = k_[[CALLER]];
# CHECK-NEXT: k_[[PARAM]] = k_[[PARAM]] * 2.0f;
# CHECK: A[5] = k_[[CALLER]];
