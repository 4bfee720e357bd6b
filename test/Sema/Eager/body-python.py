# The body of an eager function before its T.Kernel is compile-time Python:
# it reads a tensor's shape and dtype (A.shape[0], A.dtype), uses the
# T.Buffer and signature forms of the annotation, and a T.copy whose tile
# crosses the tensor's edge (1000 rows, 128-row tiles) is guarded.
# RUN: %tlc %s --call 'copy.compile(M=1000, N=64)' -o %t.cu --header=%t.h
# RUN: FileCheck %s --input-file=%t.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t.h
import tilelang
import tilelang.language as T


@tilelang.jit
def copy(A, Scale: T.Tensor((1,), T.float32), block=128):
    M, N = T.const("M, N")
    A: T.Buffer((M, N), T.float32)
    rows = A.shape[0]
    assert rows % 8 == 0, "rows must be a multiple of 8"
    B = T.empty((rows, N), A.dtype)
    with T.Kernel(T.ceildiv(rows, block), threads=block) as bx:
        S = T.alloc_shared((block, N), A.dtype)
        T.copy(A[bx * block, 0], S)
        for i, j in T.Parallel(block, N):
            S[i, j] = S[i, j] * Scale[0]
        T.copy(S, B[bx * block, 0])
    return B

# CHECK: // kernel copy ({{.*}}body-python.py:13): grid (8, 1, 1), 128 threads
# CHECK: ? A[{{.*}} : 0.0f
# CHECK: if (bx_{{[0-9]+}} * 128 + {{.*}} < 1000) {
# CHECK: extern "C" cudaError_t copy(const float* A, const float* Scale, float* B, cudaStream_t stream)
# HEADER: cudaError_t copy(const void *A /* float32[1000, 64], read */,
# HEADER-NEXT: const void *Scale /* float32[1], read */,
# HEADER-NEXT: void *B /* float32[1000, 64], written; output: the T.empty the function returns, allocated by the caller */,
