# An eager function with several T.Kernel blocks (TileLang's fused MoE: an
# up-projection kernel, then a down-projection kernel that reads its
# result) compiles like a prim_func with several blocks: kernels
# NAME_part0, NAME_part1 and a launcher NAME that runs them in order; each
# block is compiled by its own run of the body (fresh tensors, sizes and
# T.const bindings). A T.alloc_global buffer is the launcher's scratch, as
# in a prim_func. After the blocks only `return` may follow.
# RUN: %tlc %s --call 'two_steps.compile(N=256)' -o %t.cu --header=%t.h
# RUN: FileCheck %s --input-file=%t.cu
# RUN: FileCheck %s --check-prefix=HEADER --input-file=%t.h
# RUN: %tlc %s --call 'two_steps.compile(N=256)' --harness -o %t.harness.cu
# RUN: not %tlc %s --call 'trailing.compile(N=256)' 2>&1 | FileCheck %s --check-prefix=TRAIL --match-full-lines
import tilelang
import tilelang.language as T


@tilelang.jit
def two_steps(A, block=64):
    N = T.const("N")
    A: T.Tensor((N,), T.float32)
    B = T.empty((N,), T.float32)
    mid = T.alloc_global((N,), T.float32)
    with T.Kernel(N // block, threads=block) as bx:
        for i in T.Parallel(block):
            mid[bx * block + i] = A[bx * block + i] * 2.0
    with T.Kernel(N // block, threads=block) as bx:
        for i in T.Parallel(block):
            B[bx * block + i] = mid[bx * block + i] + 1.0
    return B

# CHECK: extern "C" cudaError_t two_steps_part0(const float* A, const float* B, float* mid, cudaStream_t stream) {
# CHECK: extern "C" cudaError_t two_steps_part1(const float* A, float* B, const float* mid, cudaStream_t stream) {
# CHECK:      extern "C" cudaError_t two_steps(const float* A, float* B, cudaStream_t stream) {
# CHECK:   if (err == cudaSuccess) err = cudaMallocAsync((void**)&mid, 1024ull, stream); // T.alloc_global at line 22
# CHECK-NEXT:   if (err == cudaSuccess) err = two_steps_part0(A, B, mid, stream);
# CHECK-NEXT:   if (err == cudaSuccess) err = two_steps_part1(A, B, mid, stream);
# HEADER: /* two_steps: runs two_steps_part0, then two_steps_part1 on `stream`. */


@tilelang.jit
def trailing(A, block=64):
    N = T.const("N")
    A: T.Tensor((N,), T.float32)
    B = T.empty((N,), T.float32)
    with T.Kernel(N // block, threads=block) as bx:
        for i in T.Parallel(block):
            B[bx * block + i] = A[bx * block + i]
    x = 1
    return B
# TRAIL: {{.*}}several-blocks.py:[[#@LINE-2]]:7: error: after its T.Kernel blocks an eager function only returns its T.empty outputs
