# A @T.prim_func defined under a top-level `if` is a kernel, not host code:
# its errors are reported, and nothing is written.
# RUN: not %tlc %s -o %t.cu 2>&1 | FileCheck %s
# RUN: not test -e %t.cu
import tilelang.language as T

USE = True
if USE:
    @T.prim_func
    def scale(A: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(4):
                A[i] = A[i] * undefined_factor

# CHECK: kernel-under-if.py:13:31: error: use of undeclared name 'undefined_factor'
