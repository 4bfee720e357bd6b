# T.StridedTensor(shape, strides, dtype): a tensor parameter whose element
# strides are given (constants or runtime sizes); every access is the sum of
# index * stride, the IR prints the strides (and reads them back), and a
# pipelined copy of such a tensor stays off TMA (cp.async instead).
# RUN: %tlc %s --call 'f(1000, 2048)' -o - | FileCheck %s --check-prefix=CUDA
# RUN: %tlc %s --call 'f(1000, 2048)' --stop-after=sema --emit=ir | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'f(1000, 2048)' --emit=ir > %t.tir && %tlc %t.tir --emit=ir | diff - %t.tir
# RUN: %tlc %s --call 'gemm()' --emit=plan | FileCheck %s --check-prefix=PLAN
# RUN: not %tlc %s --call 'misuse()' 2>&1 | FileCheck %s --check-prefix=BAD --implicit-check-not=error:
import tilelang.language as T

# IR: kernel f(A: global float16[64, 1000] strides [2048, 1] read @{{.*}}, B: global float16[64, 1000] strides [1, 64] written @{{.*}}, C: global float32[64, nn#{{[0-9]+}}] strides [nn#{{[0-9]+}}, 1] written
# CUDA: B[{{.*}}] = A[{{.*}} * 2048 + {{.*}}];
# CUDA: C[{{.*}} * nn_{{[0-9]+}} + {{.*}}] =
def f(N, NN):
    nn = T.dynamic("nn")

    @T.prim_func
    def k(A: T.StridedTensor((64, N), (NN, 1), T.float16), B: T.StridedTensor((64, N), (1, 64), T.float16),
          C: T.StridedTensor(shape=(64, nn), strides=(nn, 1), dtype=T.float32)):
        with T.Kernel(T.ceildiv(N, 128), threads=128) as bx:
            for i, j in T.Parallel(64, 128):
                if bx * 128 + j < N:
                    B[i, bx * 128 + j] = A[i, bx * 128 + j]
            for i, j in T.Parallel(64, 128):
                if bx * 128 + j < nn:
                    C[i, bx * 128 + j] = 1.0
    return k


# PLAN: why_not: a pipelined copy reads a T.StridedTensor (tlc encodes TMA maps of row-major tensors only)
def gemm():
    @T.prim_func
    def k(A: T.StridedTensor((256, 256), (512, 1), T.float16), B: T.Tensor((256, 256), T.float16),
          C: T.Tensor((256, 256), T.float32)):
        with T.Kernel(2, 2, threads=128) as (bx, by):
            A_s = T.alloc_shared((128, 32), T.float16)
            B_s = T.alloc_shared((32, 128), T.float16)
            acc = T.alloc_fragment((128, 128), T.float32)
            T.clear(acc)
            for ko in T.Pipelined(8, num_stages=3):
                T.copy(A[by * 128, ko * 32], A_s)
                T.copy(B[ko * 32, bx * 128], B_s)
                T.gemm(A_s, B_s, acc)
            T.copy(acc, C[by * 128, bx * 128])
    return k


def misuse():
    @T.prim_func
    def k(A: T.StridedTensor((64, 64), (64,), T.float16), B: T.StridedTensor((64, 64), (0, 1), T.float16),
          C: T.StridedTensor[(64, 64), T.float16], D: T.StridedTensor((64,), T.float16)):
        with T.Kernel(1, threads=32) as bx:
            A[0, 0] = B[0, 0]
    return k
# BAD: strided-tensor.py:[[#@LINE-5]]:40: error: T.StridedTensor takes one stride per dimension (2 here)
# BAD: strided-tensor.py:[[#@LINE-6]]:89: error: stride 0 of 'B' must be a positive integer or a runtime size
# BAD: strided-tensor.py:[[#@LINE-6]]:14: error: write T.StridedTensor(shape, strides, dtype)
# BAD: strided-tensor.py:[[#@LINE-7]]:78: error: T.StridedTensor takes one stride per dimension (1 here)
