# A float16 GEMM whose m, n, k are runtime sizes (eager T.dynamic) is
# compiled twice: `matmul` assumes k and n (the row lengths) are multiples of
# 8 elements, its launcher checks that and runs `matmul_unaligned`, which
# assumes nothing, otherwise. On sm_90a the aligned kernel is warp-specialized:
# tensor maps encoded from the size parameters, a runtime trip count for the
# producer's ring, the twin also for a 0 extent (TMA takes none). On the
# cp.async path its copies are 16-byte cp.async with zero fill at the runtime
# edges; the twin's are element-wise. Only `matmul` has a launcher of its own.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %tlc %s --call 'matmul.compile()' --emit=ir --stop-after=specialize-sizes | FileCheck %s --check-prefix=IR
# RUN: %tlc %s --call 'matmul.compile()' --emit=plan | FileCheck %s --check-prefix=PLAN
# RUN: %tlc %s --call 'matmul.compile()' -o %t/tma.cu --header=%t/tma.h
# RUN: FileCheck %s --check-prefix=TMA --input-file=%t/tma.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t/tma.h
# RUN: %tlc %s --call 'matmul.compile()' --emit=signature | FileCheck %s --check-prefix=SIG
# RUN: %tlc %s --call 'matmul.compile()' --no-warp-specialize | FileCheck %s --check-prefix=CPASYNC
# RUN: %tlc %s --call 'matmul.compile()' --target=sm_90 | FileCheck %s --check-prefix=CPASYNC
# The IR text after warp-specialize reads back and resumes to the same CUDA:
# RUN: %tlc %s --call 'matmul.compile()' --emit=ir --stop-after=warp-specialize -o %t/ws.tir
# RUN: %tlc %t/ws.tir --emit=ir -o %t/ws2.tir && diff %t/ws.tir %t/ws2.tir
# RUN: %tlc %t/ws.tir --passes=pipeline,partition,flatten,vectorize,swizzle,thread-sync,plan-shared -o %t/resumed.cu
# RUN: sed 1d %t/resumed.cu > %t/resumed.body && sed 1d %t/tma.cu > %t/direct.body && diff %t/resumed.body %t/direct.body
import tilelang
import tilelang.language as T


@tilelang.jit
def matmul(A, B, block_M=128, block_N=128, block_K=32, dtype=T.float16, accum_dtype=T.float32,
           num_stages=3, threads=128):
    M, N, K = T.dynamic("m"), T.dynamic("n"), T.dynamic("k")
    A: T.Tensor((M, K), dtype)
    B: T.Tensor((K, N), dtype)
    C = T.empty((M, N), dtype)
    with T.Kernel(T.ceildiv(N, block_N), T.ceildiv(M, block_M), threads=threads) as (bx, by):
        A_shared = T.alloc_shared((block_M, block_K), dtype)
        B_shared = T.alloc_shared((block_K, block_N), dtype)
        C_local = T.alloc_fragment((block_M, block_N), accum_dtype)
        T.clear(C_local)
        for ko in T.Pipelined(T.ceildiv(K, block_K), num_stages=num_stages):
            T.copy(A[by * block_M, ko * block_K], A_shared)
            T.copy(B[ko * block_K, bx * block_N], B_shared)
            T.gemm(A_shared, B_shared, C_local)
        T.copy(C_local, C[by * block_M, bx * block_N])
    return C

# IR: kernel matmul({{.*}}) grid(0, 0, 1) threads(128, 1, 1) level tile fallback matmul_unaligned next_id
# IR-NEXT: var m#0: int32 size @
# IR-NEXT: var k#1: int32 size divisor 8 @
# IR-NEXT: var n#2: int32 size divisor 8 @
# IR: kernel matmul_unaligned({{.*}}) level tile is_fallback next_id
# IR-NEXT: var m#0: int32 size @
# IR-NEXT: var k#1: int32 size @
# IR-NEXT: var n#2: int32 size @

# PLAN: - name: matmul
# PLAN: runtime_alignment:
# PLAN-NEXT: assumes: [k % 8 == 0, n % 8 == 0]
# PLAN-NEXT: otherwise: matmul_unaligned
# PLAN: warp_specialization:
# PLAN-NEXT: applied: yes
# PLAN: persistent: no
# PLAN: - name: matmul_unaligned
# PLAN: runtime_alignment:
# PLAN-NEXT: assumes: 'nothing (the unaligned twin: element-wise copies, no TMA)'
# PLAN: threads: 128, vector: 1,
# PLAN: warp_specialization:
# PLAN-NEXT: applied: no
# PLAN-NEXT: why_not: 'this is the unaligned twin of a kernel with runtime sizes: it runs the launches TMA cannot take (a row that is not a multiple of 16 bytes, an empty extent)'

# TMA: void __launch_bounds__(256, 2) matmul_kernel({{.*}}, int m_0, int k_1, int n_2, const __grid_constant__ CUtensorMap tl_tmap_0, const __grid_constant__ CUtensorMap tl_tmap_1) {
# TMA: for (int ko_{{[0-9]+}} = 0; ko_{{[0-9]+}} < (k_1 + 31) / 32; ++ko_{{[0-9]+}}) {
# TMA: tl_tma_load_2d(&A_shared[
# TMA: static cudaError_t matmul_unaligned(const half_t* A, const half_t* B, half_t* C, int m_0, int k_1, int n_2, cudaStream_t stream);
# TMA: extern "C" cudaError_t matmul(
# TMA: // Sizes this kernel does not assume (rows of 16 bytes, TMA extents above 0) run its unaligned twin.
# TMA-NEXT: if (k_1 % 8 != 0 || n_2 % 8 != 0 || m_0 == 0 || k_1 == 0 || n_2 == 0)
# TMA-NEXT: return matmul_unaligned(A, B, C, m_0, k_1, n_2, stream);
# TMA: CUtensorMap tl_tmap_0; // A -> A_shared
# TMA-NEXT: {
# TMA-NEXT: const cuuint64_t dims[2] = {(cuuint64_t)k_1, (cuuint64_t)m_0};
# TMA-NEXT: const cuuint64_t strides[1] = {2 * (cuuint64_t)k_1};
# TMA-NEXT: const cuuint32_t box[2] = {32, 128};
# TMA: const cuuint64_t dims[2] = {(cuuint64_t)n_2, (cuuint64_t)k_1};
# TMA-NEXT: const cuuint64_t strides[1] = {2 * (cuuint64_t)n_2};
# TMA: extern "C" __global__ void __launch_bounds__(128, 1) matmul_unaligned_kernel(const half_t* __restrict__ A, const half_t* __restrict__ B, half_t* __restrict__ C, int m_0, int k_1, int n_2) {
# TMA-NOT: tl_tma_load
# TMA: static cudaError_t matmul_unaligned(const half_t* A, const half_t* B, half_t* C, int m_0, int k_1, int n_2, cudaStream_t stream) {
# TMA-NOT: tl_tmap

# HEADER: cudaError_t matmul(
# HEADER-NOT: unaligned
# SIG: "name": "matmul",
# SIG-NOT: unaligned

# CPASYNC: void __launch_bounds__(128, 1) matmul_kernel(
# CPASYNC: 128 threads x vector 8 -> 4 steps
# CPASYNC-NEXT: #pragma unroll
# CPASYNC-NEXT: for (int step_{{[0-9]+}} = 0; step_{{[0-9]+}} < 4; ++step_{{[0-9]+}}) {
# CPASYNC-NEXT: tl_cp_async_zfill<16>(&A_shared[{{.*}}], {{.*}} < m_0 && {{.*}} < k_1) ? (const void*)&A[({{.*}}) * k_1 + {{.*}}] : (const void*)A, {{.*}});
# CPASYNC: if (k_1 % 8 != 0 || n_2 % 8 != 0)
# CPASYNC-NEXT: return matmul_unaligned(A, B, C, m_0, k_1, n_2, stream);
# CPASYNC: matmul_unaligned_kernel(
# CPASYNC: 128 threads x vector 1 -> 32 steps
# CPASYNC-NOT: tl_cp_async_zfill<16>
