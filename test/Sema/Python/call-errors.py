# Errors of --call and of the Python tlc evaluates, each at its location:
# the call's own text is the source '--call'.
# RUN: not %tlc %s --call 'kernel_factory(128)' 2>&1 | FileCheck %s --check-prefix=MISSING --match-full-lines
# RUN: not %tlc %s --call 'kernel_factory(128, 64, blk=4)' 2>&1 | FileCheck %s --check-prefix=KEYWORD --match-full-lines
# RUN: not %tlc %s --call 'helper(3)' 2>&1 | FileCheck %s --check-prefix=NOTKERNEL --match-full-lines
# RUN: not %tlc %s --call 'kernel_factory(100, 64)' 2>&1 | FileCheck %s --check-prefix=ASSERT --match-full-lines
# RUN: not %tlc %s --call 'uses_host(64)' 2>&1 | FileCheck %s --check-prefix=HOST --match-full-lines
# RUN: not %tlc %s --call 'kernel_factory(128, 64' 2>&1 | FileCheck %s --check-prefix=SYNTAX --match-full-lines
# RUN: not %tlc %s 2>&1 | FileCheck %s --check-prefix=NOCALL --match-full-lines
import tilelang.language as T
import torch

DEVICE = torch.device("cuda")


def helper(x):
    return x * 2


def kernel_factory(M, block):
    assert M % block == 0, "M must be a multiple of block"

    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(M // block, threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = 0

    return main


def uses_host(M):
    where = DEVICE

    @T.prim_func
    def main(A: T.Tensor((M,), "float32")):
        with T.Kernel(1, threads=M) as bx:
            for i in T.Parallel(M):
                A[i] = 0

    return main

# MISSING:--call:1:1: error: 'kernel_factory' needs a value for parameter 'block'
# MISSING-NEXT:kernel_factory(128)
# MISSING-NEXT:^~~~~~~~~~~~~~
# MISSING-NEXT:{{.*}}call-errors.py:20:23: note: 'block' declared here without a default
# KEYWORD:--call:1:25: error: 'kernel_factory' has no parameter 'blk'
# NOTKERNEL:--call:1:1: error: --call must give a @T.prim_func kernel; this gives an int
# ASSERT:{{.*}}call-errors.py:21:5: error: assertion failed: M must be a multiple of block
# ASSERT:--call:1:1: note: in the call to 'kernel_factory' here
# HOST:{{.*}}call-errors.py:33:13: error: 'DEVICE' is host code that tlc skipped; a kernel cannot use it
# HOST-NEXT:    where = DEVICE
# HOST-NEXT:            ^~~~~~
# HOST-NEXT:{{.*}}call-errors.py:13:1: note: tlc skipped it because of these errors:
# HOST-NEXT:DEVICE = torch.device("cuda")
# HOST-NEXT:^~~~~~
# HOST-NEXT:{{.*}}call-errors.py:13:10: error: 'torch.device' belongs to the Python module 'torch', which tlc does not evaluate
# SYNTAX:--call:1:15: error: '(' was never closed
# NOCALL:{{.*}}call-errors.py:1:1: error: no @T.prim_func kernel in this file
# NOCALL-NEXT:# Errors of --call{{.*}}
# NOCALL-NEXT:^
# NOCALL-NEXT:{{.*}}call-errors.py:1:1: note: a kernel built by a factory is compiled with --call 'factory(args)'
