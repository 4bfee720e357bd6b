# *args, **kwargs, keyword-only parameters after a bare * and positional-only
# markers bind as in Python; kernels and macros take named parameters only.
# RUN: %tlc %s --call 'fac(1024, threads=256)' | FileCheck %s
# RUN: not %tlc %s --call 'fac(1024, 32)' 2>&1 | FileCheck %s --check-prefix=POS
# RUN: not %tlc %s --call 'starred_kernel()' 2>&1 | FileCheck %s --check-prefix=KERNEL
import tilelang.language as T


def cfg(a, /, *dims, scale=1.0, **extra):
    return (a,) + dims, scale, extra


def fac(M, *, block=64, **opts):
    dims, sc, ex = cfg(M, block, scale=2.0, threads=opts.get("threads", 128))

    @T.prim_func
    def main(A: T.Tensor((dims[0],), "float32")):
        with T.Kernel(M // block, threads=ex["threads"]) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = sc + len(dims)

    return main


def starred_kernel():
    @T.prim_func
    def main(*tensors):
        with T.Kernel(1, threads=32) as bx:
            pass

    return main

# CHECK: // kernel fac ({{.*}}): grid (16, 1, 1), 256 threads
# CHECK: = 4.0f;
# POS: --call:1:1: error: 'fac' takes 1 positional argument, 2 given
# KERNEL: params-star.py:27:14: error: a @T.prim_func kernel takes named parameters only, not '*tensors'
