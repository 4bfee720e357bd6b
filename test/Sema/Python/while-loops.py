# `while` runs in compile-time code (with break, continue and else, bounded
# by the statement budget); inside a kernel it is a loop of the kernel.
# RUN: %tlc %s --call 'pow2_copy(300)' | FileCheck %s
# RUN: %tlc %s --call 'looping()' | FileCheck %s --check-prefix=KERNEL
import tilelang.language as T


def next_pow2(n):
    p = 1
    while True:
        if p >= n:
            break
        p *= 2
    return p


def pow2_copy(n):
    block = next_pow2(n)        # 512
    tries = 0
    while tries < 3:
        tries += 1
        if tries == 2:
            continue
    else:
        tries += 10             # no break: the else block runs

    @T.prim_func
    def main(A: T.Tensor((block,), "float32")):
        with T.Kernel(1, threads=128) as bx:
            for i in T.Parallel(block):
                A[i] = tries

    return main


def looping():
    @T.prim_func
    def main(A: T.Tensor((64,), "float32")):
        with T.Kernel(1, threads=64) as bx:
            i = 0
            while i < 64:
                i += 1

    return main

# CHECK: T.Parallel(512)
# CHECK: = 13.0f;
# KERNEL: while (i_{{[0-9]+}} < 64) {
# KERNEL-NEXT: i_{{[0-9]+}} = i_{{[0-9]+}} + 1;
