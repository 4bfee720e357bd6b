// A barrier under `if (threadIdx.x < 32)`: one warp waits at __syncthreads()
// for three that never come.
extern "C" __global__ void __launch_bounds__(128, 1) first_warp_kernel(float* __restrict__ A) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 512 bytes
  A_shared[threadIdx.x] = A[bx_0 * 128 + threadIdx.x];
  if (threadIdx.x < 32) {
    A_shared[threadIdx.x] += A_shared[threadIdx.x + 32];
    __syncthreads();
  }
  A[bx_0 * 128 + threadIdx.x] = A_shared[threadIdx.x];
}

extern "C" cudaError_t first_warp(float* A, cudaStream_t stream) {
  const size_t smem = 512;
  first_warp_kernel<<<dim3(16, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}
