# A prim_func with several T.Kernel blocks and runtime sizes (sparse GQA
# decode's split + combine with T.symbolic sizes): the group launcher takes
# every block's sizes, once each by name, and passes each block its own
# (it called the blocks without them, which nvcc rejected).
# RUN: rm -rf %t && mkdir -p %t
# RUN: %tlc %s --call 'split_combine()' -o %t/k.cu --header=%t/k.h
# RUN: FileCheck %s --input-file=%t/k.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/k.h
import tilelang
import tilelang.language as T

M = T.symbolic("m")
S = T.symbolic("splits")


def split_combine():
    @T.prim_func
    def main(A: T.Tensor((M, 64), "float32"), P: T.Tensor((S, 64), "float32"), B: T.Tensor((64,), "float32")):
        with T.Kernel(S, threads=64) as bx:
            for j in T.Parallel(64):
                P[bx, j] = A[bx, j] * 2.0
        with T.Kernel(1, threads=64) as bx:
            for j in T.Parallel(64):
                B[j] = P[0, j]

    return main

# CHECK: extern "C" cudaError_t split_combine_part0(const float* A, float* P, const float* B, int [[M:m_[0-9]+]], int [[S:splits_[0-9]+]], cudaStream_t stream) {
# CHECK: extern "C" cudaError_t split_combine_part1(const float* A, const float* P, float* B, int {{m_[0-9]+}}, int {{splits_[0-9]+}}, cudaStream_t stream) {
# CHECK: extern "C" cudaError_t split_combine(const float* A, float* P, float* B, int [[M]], int [[S]], cudaStream_t stream) {
# CHECK-NEXT: cudaError_t err;
# CHECK-NEXT: if ((err = split_combine_part0(A, P, B, [[M]], [[S]], stream)) != cudaSuccess)
# CHECK: if ((err = split_combine_part1(A, P, B, [[M]], [[S]], stream)) != cudaSuccess)
# HEADER: cudaError_t split_combine(const void *A,
# HEADER: int {{m_[0-9]+}},
# HEADER-NEXT: int {{splits_[0-9]+}},
# HEADER-NEXT: cudaStream_t stream);
