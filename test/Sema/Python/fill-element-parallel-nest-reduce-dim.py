# TileLang forms that were refused before: T.fill / T.clear of one element
# (the one-element region it names), a perfect nest of T.Parallel loops or
# TIR's T.parallel (one nest of all the extents, as TileLang's layout
# inference takes it), and T.reduce_* without dim= (TileLang's default is the
# last dimension: dim=0 for a 1-D source).
# RUN: %tlc %s --call 'f()' | FileCheck %s
# RUN: not %tlc %s --call 'two_args()' 2>&1 | FileCheck %s --check-prefix=ARGS
# RUN: not %tlc %s --call 'not_perfect()' 2>&1 | FileCheck %s --check-prefix=NEST
import tilelang.language as T


def f(M=64, N=128):
    @T.prim_func
    def main(A: T.Tensor((M, N), "float32"), B: T.Tensor((M, N), "float32"),
             C: T.Tensor((4,), "int32"), R: T.Tensor((1,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            S = T.alloc_shared((M, N), "float32")
            cnt = T.alloc_shared((4,), "int32")
            v = T.alloc_fragment((N,), "float32")
            total = T.alloc_fragment((1,), "float32")
            T.fill(cnt, 7)
            # CHECK: T.Parallel(1) at line [[#@LINE+3]] (fill): 1 points, 128 threads x vector 1 -> 1 step, guarded
            # CHECK-NEXT: if ((int)threadIdx.x < 1) {
            # CHECK-NEXT: cnt[(int)threadIdx.x + 1] = 0;
            T.fill(cnt[1], 0)
            T.copy(cnt, C)
            T.copy(A, S)
            # CHECK: T.Parallel(64, 128) at line [[#@LINE+1]] (user): 8192 points, 128 threads x vector 4
            for i in T.parallel(M):
                for j in T.parallel(N):
                    if i >= 3:
                        S[i, j] = S[i, j] * 2.0
            # CHECK: T.Parallel(64, 64, 2) at line [[#@LINE+1]] (user): 8192 points
            for i in T.Parallel(M):
                for j, k in T.Parallel(N // 2, 2):
                    B[i, j * 2 + k] = S[i, j * 2 + k] + 1.0
            T.copy(A[0, :], v)
            # CHECK: T.Parallel(1) at line [[#@LINE+1]] (reduce)
            T.reduce_sum(v, total)
            T.copy(total, R)
    return main


def two_args():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            # ARGS: fill-element-parallel-nest-reduce-dim.py:[[#@LINE+1]]:22: error: T.parallel takes one extent here (T.parallel(n)); for a start and a stop, loop over T.Parallel(stop - start) and add start
            for i in T.parallel(0, 64):
                A[i] = 1.0
    return main


def not_perfect():
    @T.prim_func
    def main(A: T.Tensor((64, 64), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(64):
                A[i, 0] = 0.0
                # NEST: fill-element-parallel-nest-reduce-dim.py:[[#@LINE+1]]:17: error: T.Parallel nested inside T.Parallel; list all extents in one T.Parallel(e0, e1, ...)
                for j in T.Parallel(63):
                    A[i, j + 1] = 1.0
    return main
