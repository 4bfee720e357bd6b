# Every name a failed top-level statement may have bound (through +=, an if,
# a for, an import) is host code: a kernel using it gets the replayed error,
# not a half-evaluated value.
# RUN: not %tlc %s --call 'f()' 2>&1 | FileCheck %s
import tilelang.language as T
import torch
x = 1.0
x += torch.cuda.memory_allocated()
if True:
    y = torch.zeros(3).numpy()

def f():
    @T.prim_func
    def main(A: T.Tensor((4,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(4):
                A[i] = A[i] + x + y
    return main

# CHECK: host-code-names.py:17:31: error: 'x' is host code that tlc skipped; a kernel cannot use it
# CHECK: host-code-names.py:17:35: error: 'y' is host code that tlc skipped; a kernel cannot use it
