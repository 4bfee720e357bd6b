# Runtime sizes through the whole compiler: the kernel and the launcher take
# them as ints after the tensors, the launcher refuses negative sizes and
# tensors past 32-bit indexing, computes the grid and launches nothing when
# it is empty; copies are guarded at the runtime edges (the row stride of B
# is the runtime n: float4 stores under one guard when n % 4 == 0, else the
# unaligned twin, one element per lane); the header, the plan YAML and the IR text print the
# sizes by name, and the IR text reads back to the same CUDA. T.dyn["n"]
# names the same size as T.symbolic("n"); an int64 size indexes in 64 bits.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %tlc %s --call 'rows()' --call 'wide()' -o %t/k.cu --header=%t/k.h
# RUN: FileCheck %s --check-prefix=CUDA --input-file=%t/k.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/k.h
# RUN: %tlc %s --call 'rows()' --emit=plan | FileCheck %s --check-prefix=PLAN
# RUN: %tlc %s --call 'rows()' --emit=ir --stop-after=sema -o %t/k.tir
# RUN: FileCheck %s --check-prefix=IR --input-file=%t/k.tir
# RUN: %tlc %t/k.tir --emit=ir -o %t/k2.tir && diff %t/k.tir %t/k2.tir
# RUN: %tlc %s --call 'rows()' --emit=ir --stop-after=vectorize -o %t/v.tir
# RUN: %tlc %t/v.tir --emit=ir -o %t/v2.tir && diff %t/v.tir %t/v2.tir
# RUN: %tlc %t/k.tir --passes=specialize-sizes,lower-tile-ops,layout-inference,pipeline,partition,flatten,vectorize,swizzle,thread-sync,plan-shared -o %t/resumed.cu
# RUN: %tlc %s --call 'rows()' -o %t/direct.cu
# RUN: sed 1d %t/resumed.cu > %t/resumed.body && sed 1d %t/direct.cu > %t/direct.body && diff %t/resumed.body %t/direct.body
# explain-pipeline says when a loop's trip count is a runtime size:
# RUN: %tlc explain-pipeline %S/../../GPU/Dynamic/gemm.py --call 'matmul.compile()' | FileCheck %s --check-prefix=EXPLAIN
# EXPLAIN: loop: kernel matmul, T.Pipelined(num_stages=3) at {{.*}}gemm.py:{{[0-9]+}}: {{.*}}; the trip count is known at run time (runtime sizes): modelled with 8 iterations
import tilelang
import tilelang.language as T


def rows(block_M=64, block_N=32, dtype="float32"):
    m = T.symbolic("m")
    n = T.symbolic("n")

    @T.prim_func
    def main(A: T.Tensor((m, 32), dtype), B: T.Tensor[(m, T.dyn["n"]), dtype]):
        with T.Kernel(T.ceildiv(n, block_N), T.ceildiv(m, block_M), threads=128) as (bx, by):
            tile = T.alloc_shared((block_M, block_N), dtype)
            T.copy(A[by * block_M, 0], tile)
            T.copy(tile, B[by * block_M, bx * block_N])

    return main


def wide(block=256):
    m = T.dynamic("m", "int64")

    @T.prim_func
    def main(A: T.Tensor((m,), "float32")):
        with T.Kernel(T.ceildiv(m, block), threads=block) as bx:
            for i in T.Parallel(block):
                A[bx * block + i] = 1.0

    return main

# CUDA: // kernel rows ({{.*}}kernels.py:{{[0-9]+}}): grid ((n_1 + 31) / 32, (m_0 + 63) / 64, 1), 128 threads
# CUDA: extern "C" __global__ void __launch_bounds__(128, 1) rows_kernel(const float* __restrict__ A, float* __restrict__ B, int m_0, int n_1) {
# CUDA: by_{{[0-9]+}} * 64 + {{.*}} < m_0 ? A[
# CUDA: if ({{.*}} < m_0 && bx_{{[0-9]+}} * 32 + {{.*}} < n_1) {
# CUDA: *(float4*)&B[({{.*}}) * n_1 +
# CUDA: extern "C" cudaError_t rows(const float* A, float* B, int m_0, int n_1, cudaStream_t stream) {
# CUDA-NEXT:   // Runtime sizes: refuse what the kernel cannot index; launch nothing when empty.
# CUDA-NEXT:   if (m_0 < 0)
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   if (n_1 < 0)
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   if ((double)m_0 * 32.0 > 2147483647.0) // A: past 32-bit indexing
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   if ((double)m_0 * (double)n_1 > 2147483647.0) // B: past 32-bit indexing
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   const long long grid_x = (n_1 + 31) / 32;
# CUDA-NEXT:   if (grid_x > 2147483647)
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   if (grid_x <= 0)
# CUDA-NEXT:     return cudaSuccess;
# CUDA-NEXT:   const long long grid_y = (m_0 + 63) / 64;
# CUDA-NEXT:   if (grid_y > 65535)
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   if (grid_y <= 0)
# CUDA-NEXT:     return cudaSuccess;
# CUDA-NEXT:   // Sizes this kernel does not assume (rows of 16 bytes) run its unaligned twin.
# CUDA-NEXT:   if (n_1 % 4 != 0)
# CUDA-NEXT:     return rows_unaligned(A, B, m_0, n_1, stream);
# CUDA-NEXT:   const size_t smem = 8192;
# CUDA-NEXT:   const dim3 tl_grid((unsigned)grid_x, (unsigned)grid_y, 1);
# CUDA-NEXT:   rows_kernel<<<tl_grid, dim3(128, 1, 1), smem, stream>>>(A, B, m_0, n_1);
# The unaligned twin (n not a multiple of 4): one element per lane.
# CUDA: extern "C" __global__ void __launch_bounds__(128, 1) rows_unaligned_kernel(
# CUDA: if ({{.*}} < m_0 && bx_{{[0-9]+}} * 32 + {{.*}} < n_1) {
# CUDA-NEXT: B[({{.*}}) * n_1 +
# CUDA: extern "C" __global__ void __launch_bounds__(256, 1) wide_kernel(float* __restrict__ A, long long m_0) {
# CUDA: extern "C" cudaError_t wide(float* A, long long m_0, cudaStream_t stream) {
# CUDA-NEXT:   // Runtime sizes: refuse what the kernel cannot index; launch nothing when empty.
# CUDA-NEXT:   if (m_0 < 0)
# CUDA-NEXT:     return cudaErrorInvalidValue;
# CUDA-NEXT:   const long long grid_x = (m_0 + 255LL) / 256LL;

# HEADER: /* rows (kernels.py:{{[0-9]+}}): grid ((n + 31) // 32, (m + 63) // 64, 1), threads (128, 1, 1) = 128,
# HEADER: cudaError_t rows(const void *A /* float32[m, 32], read */,
# HEADER-NEXT: void *B /* float32[m, n], written */,
# HEADER-NEXT: int m /* runtime size: 0 launches nothing, < 0 is cudaErrorInvalidValue */,
# HEADER-NEXT: int n /* runtime size: 0 launches nothing, < 0 is cudaErrorInvalidValue */,
# HEADER-NEXT: cudaStream_t stream);
# HEADER: cudaError_t wide(void *A /* float32[m], written */,
# HEADER-NEXT: long long m /* runtime size

# PLAN: grid: [(n + 31) // 32, (m + 63) // 64, 1]
# PLAN-NEXT: sizes: [m, n]
# PLAN-NEXT: tensors:
# PLAN-NEXT: - {name: A, shape: [m, 32]}
# PLAN-NEXT: - {name: B, shape: [m, n]}

# IR: kernel rows(A: global float32[m#0, 32] read @{{[0-9:]+}}, B: global float32[m#0, n#1] written @{{[0-9:]+}}) grid(0, 0, 1)
# IR-NEXT: var m#0: int32 size
# IR-NEXT: var n#1: int32 size
# IR: sizes m#0, n#1
# IR-NEXT: grid x (n + 31) // 32
# IR-NEXT: grid y (m + 63) // 64
