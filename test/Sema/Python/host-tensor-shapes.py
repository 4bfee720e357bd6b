# A torch tensor made by module-level host code (torch.rand / randn / zeros /
# ones / empty with integer sizes, times or plus numbers, .cuda() / .to())
# is known by its shape and dtype, so sizes read from it (`M, K = A.shape`,
# TileLang's stream-K example) are compile-time ints a kernel may use;
# nothing is allocated. Anything else about it is a located error when used.
# RUN: %tlc %s --call 'copy()' --emit=ir --stop-after=sema | FileCheck %s
# RUN: not %tlc %s --call 'strided()' 2>&1 | FileCheck %s --check-prefix=BAD --match-full-lines
import torch
import tilelang.language as T

torch.random.manual_seed(0)
A = torch.rand(48, 80, device="cuda", dtype=torch.float16) * 2 - 1
B = torch.zeros((16, 8)).cuda()
M, K = A.shape
N = B.shape[1]
DT = A.dtype


# CHECK: kernel copy(X: global float16[48, 80] read {{.*}}, Y: global float16[48, 80] written {{.*}}, Z: global float32[8]
def copy():
    @T.prim_func
    def main(X: T.Tensor((M, K), DT), Y: T.Tensor(A.shape, DT), Z: T.Tensor((N,), B.dtype)):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, K):
                Y[i, j] = X[i, j]
            for i in T.Parallel(N):
                Z[i] = 0.0
    return main


def strided():
    s = A.stride()

    @T.prim_func
    def main(X: T.Tensor((M, K), DT)):
        with T.Kernel(1, threads=128) as bx:
            for i, j in T.Parallel(M, K):
                X[i, j] = X[i, j]
    return main
# BAD: {{.*}}host-tensor-shapes.py:[[#@LINE-8]]:9: error: tlc knows a host tensor's shape and dtype; it cannot call '.stride'
