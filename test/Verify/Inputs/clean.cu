// A hand-written kernel in the shape tlc emits, with everything tlc-verify
// looks at and nothing wrong: dynamic shared tiles above 48 KB with the
// opt-in, a static __shared__ array, guarded and vector accesses, barriers
// under block-uniform control only. It also compiles with nvcc.
#ifndef TLC_VERIFY_PRELUDE
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <stdint.h>
#endif

typedef __half half_t;
typedef __nv_bfloat16 bfloat16_t;

extern "C" __global__ void __launch_bounds__(256, 1) stage_kernel(const float* __restrict__ A, half_t* __restrict__ B, int n) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 65536 bytes
  half_t* B_shared = (half_t*)(tl_smem + 65536); // 4094 bytes
  __shared__ float partial[8][32];
  for (int step_0 = 0; step_0 < 16; ++step_0) {
    *(float4*)&A_shared[step_0 * 1024 + threadIdx.x * 4] = *(const float4*)&A[bx_0 * 16384 + step_0 * 1024 + threadIdx.x * 4];
  }
  __syncthreads();
  for (int step_1 = 0; step_1 < 8; ++step_1) {
    // 2047 halves: the last step is guarded.
    if (step_1 * 256 + threadIdx.x < 2047) {
      B_shared[step_1 * 256 + threadIdx.x] = (half_t)(A_shared[(step_1 * 256 + threadIdx.x) * 2]);
    }
  }
  partial[threadIdx.x / 32][threadIdx.x % 32] = A_shared[threadIdx.x];
  __syncthreads(); // B_shared and partial are read by other threads below
  // Block-uniform conditions and loop bounds: every thread reaches these.
  if (bx_0 < n) {
    __syncthreads();
  }
  for (int k_2 = 0; k_2 < n; ++k_2) {
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float s = partial[0][threadIdx.x] + partial[7][threadIdx.x];
    B[bx_0 * 32 + threadIdx.x] = (half_t)(s) + B_shared[threadIdx.x * 2];
  }
}

extern "C" cudaError_t stage(const float* A, half_t* B, int n, cudaStream_t stream) {
  const size_t smem = 69630;
  // Above 48 KB a kernel must opt in to more dynamic shared memory.
  cudaError_t err = cudaFuncSetAttribute(stage_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (err != cudaSuccess)
    return err;
  stage_kernel<<<dim3(64, 1, 1), dim3(256, 1, 1), smem, stream>>>(A, B, n);
  return cudaGetLastError();
}
