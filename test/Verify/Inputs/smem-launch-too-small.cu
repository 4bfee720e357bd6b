// The launcher requests less dynamic shared memory than the kernel's tiles
// span: B_shared ends at byte 32768 but the launch passes 16384, so the
// kernel writes past its allocation (and the launch itself succeeds).
extern "C" __global__ void __launch_bounds__(128, 1) two_tiles_kernel(const float* __restrict__ A, float* __restrict__ B) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 16384 bytes
  float* B_shared = (float*)(tl_smem + 16384); // 16384 bytes
  for (int step_0 = 0; step_0 < 8; ++step_0) {
    *(float4*)&A_shared[step_0 * 512 + threadIdx.x * 4] = *(const float4*)&A[bx_0 * 4096 + step_0 * 512 + threadIdx.x * 4];
  }
  __syncthreads();
  for (int step_1 = 0; step_1 < 32; ++step_1) {
    B_shared[step_1 * 128 + threadIdx.x] = A_shared[threadIdx.x % 64 * 64 + (step_1 * 128 + threadIdx.x) / 64];
  }
  __syncthreads();
  for (int step_2 = 0; step_2 < 8; ++step_2) {
    *(float4*)&B[bx_0 * 4096 + step_2 * 512 + threadIdx.x * 4] = *(const float4*)&B_shared[step_2 * 512 + threadIdx.x * 4];
  }
}

extern "C" cudaError_t two_tiles(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 16384;
  two_tiles_kernel<<<dim3(64, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
