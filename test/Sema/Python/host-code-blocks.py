# Names bound inside skipped host code blocks (a try, a with ... as) are
# host code too; a runaway host loop uses its own statement budget and
# does not hide the kernels after it.
# RUN: not %tlc %s --call 'f()' 2>&1 | FileCheck %s
# RUN: %tlc %s --call 'g()' | FileCheck %s --check-prefix=LATER
import tilelang.language as T
import torch

N = 4
try:
    N = torch.cuda.get_device_properties(0).multi_processor_count
except ImportError:
    pass
W = 2
with open("config.txt") as W:
    pass
for i in range(2000000):  # over the budget: host code, skipped
    pass
LATE = 3


def f():
    @T.prim_func
    def main(A: T.Tensor((N * W,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(4):
                A[i] = 1.0

    return main


def g():
    @T.prim_func
    def main(A: T.Tensor((LATE,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(LATE):
                A[i] = 1.0

    return main

# CHECK-DAG: host-code-blocks.py:24:27: error: 'N' is host code that tlc skipped; a kernel cannot use it
# CHECK-DAG: host-code-blocks.py:24:31: error: 'W' is host code that tlc skipped; a kernel cannot use it
# LATER: // kernel g ({{.*}}): grid (1, 1, 1), 32 threads
