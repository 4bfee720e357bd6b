# A module function of constants inside a kernel expression (math.ceil in
# TileLang's flash-decoding logits example) is evaluated at compile time, like
# a builtin of constants.
# RUN: %tlc %s --call 'f()' | FileCheck %s
import math

import tilelang.language as T


def f(n=8192, b=96):
    @T.prim_func
    def main(A: T.Tensor((128,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            # CHECK: T.Parallel(86) at line [[#@LINE+1]] (user)
            for h in T.Parallel(math.ceil(n / b)):
                # CHECK: w_A_{{[0-9]+}}[lane_{{[0-9]+}}] = 6.0f;
                A[h] = T.float32(math.floor(math.log2(b)))
    return main
