# An eager function compiled inside the file (f.compile at module level, as
# TileLang runs it), tilelang.compile on a classic factory's kernel, and the
# T.empty output last among the launcher's tensors: marked in the IR and
# documented in the header.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %tlc %s -o %t/file.cu --header=%t/file.h
# RUN: FileCheck %s --check-prefix=FILE --input-file=%t/file.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/file.h
# RUN: %tlc %s --call 'tilelang.compile(classic(128), out_idx=[-1])' --call 'scaled' -o %t/calls.cu
# RUN: FileCheck %s --check-prefix=CALLS --input-file=%t/calls.cu
# RUN: %tlc %s --emit=ir --stop-after=sema | FileCheck %s --check-prefix=IR
# RUN: not %tlc %s --call 'tilelang.compile(classic(128), out_index=[-1])' 2>&1 | FileCheck %s --check-prefix=OPTION --match-full-lines
import tilelang
import tilelang.language as T


@tilelang.jit
def scale(A, factor, block=128, dtype="float32"):
    """B = A * factor; the output comes after the input."""
    M = T.const("M")
    B = T.empty((M,), dtype)
    A: T.Tensor((M,), dtype)
    with T.Kernel(T.ceildiv(M, block), threads=block) as bx:
        for i in T.Parallel(block):
            B[bx * block + i] = A[bx * block + i] * factor
    return B


def classic(M, dtype="float32"):
    @T.prim_func
    def main(A: T.Tensor((M,), dtype), B: T.Tensor((M,), dtype)):
        with T.Kernel(1, threads=M) as bx:
            for i in T.Parallel(M):
                B[i] = A[i] + 1

    return main


scaled = scale.compile(M=4096, factor=3)

# FILE: // kernel scale ({{.*}}compile-in-file.py:{{[0-9]+}}): grid (32, 1, 1), 128 threads
# FILE: extern "C" cudaError_t scale(const float* A, float* B, cudaStream_t stream)
# HEADER: cudaError_t scale(const void *A /* float32[4096], read */,
# HEADER-NEXT: void *B /* float32[4096], written; output: the T.empty the function returns, allocated by the caller */,
# CALLS: extern "C" cudaError_t classic(const float* A, float* B, cudaStream_t stream)
# CALLS: // kernel scaled ({{.*}}): grid (32, 1, 1), 128 threads
# IR: kernel scale(A: global float32[4096] read @22:5, B: global float32[4096] written output @21:5)
# OPTION: --call:1:32: error: unexpected keyword argument 'out_index' to tilelang.compile
# OPTION-NEXT: tilelang.compile(classic(128), out_index=[-1])
# OPTION-NEXT:                                ^~~~~~~~~
