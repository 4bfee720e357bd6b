# Several --call options put several kernels in one .cu: a repeated
# factory is numbered, 'NAME=' names a kernel, and a factory returning a
# factory is called until the kernel comes out.
# RUN: %tlc %s --call 'fill(64)' --call 'fill(128)' --call 'ones=fill(32, 1.0)' --call 'staged(256)' | FileCheck %s
import tilelang.language as T


def fill(n, value=0.0):
    @T.prim_func
    def main(A: T.Tensor((n,), "float32")):
        with T.Kernel(1, threads=32) as bx:
            for i in T.Parallel(n):
                A[i] = value

    return main


def staged(n):
    def build():
        return fill(n, 2.0)

    return build

# CHECK: // kernel fill ({{.*}}several-calls.py:10)
# CHECK: T.Parallel(64)
# CHECK: extern "C" cudaError_t fill(float* A, cudaStream_t stream)
# CHECK: // kernel fill_2
# CHECK: T.Parallel(128)
# CHECK: extern "C" cudaError_t fill_2(float* A, cudaStream_t stream)
# CHECK: // kernel ones
# CHECK: = 1.0f;
# CHECK: // kernel staged
# CHECK: T.Parallel(256)
# CHECK: = 2.0f;
