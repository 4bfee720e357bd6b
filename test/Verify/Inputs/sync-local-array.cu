// Register arrays in barrier conditions (tlc's replicated fragments: every
// thread copies the whole block-mask row, then `if (mask[k] != 0)` guards a
// barrier). An array every thread fills alike, from read-only memory at
// uniform indices, is uniform; one filled from threadIdx, at a thread index,
// under a thread-dependent branch, or whose address escapes is not.
extern "C" __global__ void __launch_bounds__(128, 1) arrays_kernel(const float* __restrict__ A, const signed char* __restrict__ M, float* __restrict__ B) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 512 bytes
  signed char mask[4];
  for (int i = 0; i < 4; ++i) {
    mask[i] = M[bx_0 * 4 + i];
  }
  int by_thread[4];
  for (int i = 0; i < 4; ++i) {
    by_thread[i] = (int)threadIdx.x + i;
  }
  int at_thread[4];
  at_thread[0] = 0;
  at_thread[threadIdx.x % 4] = 1;
  int under_branch[4];
  under_branch[0] = 0;
  if (threadIdx.x < 64) {
    under_branch[0] = 1;
  }
  int escaped[4];
  escaped[0] = 0;
  *(int*)&escaped[0] = 1;
  for (int k = 0; k < 4; ++k) {
    if (mask[k] != 0) {
      A_shared[threadIdx.x] = A[(bx_0 * 4 + k) * 128 + threadIdx.x];
      __syncthreads();
      B[(bx_0 * 4 + k) * 128 + threadIdx.x] = A_shared[127 - threadIdx.x];
      __syncthreads();
    }
  }
  if (by_thread[1] > 0) {
    __syncthreads();
  }
  if (at_thread[1] > 0) {
    __syncthreads();
  }
  if (under_branch[0] > 0) {
    __syncthreads();
  }
  if (escaped[0] > 0) {
    __syncthreads();
  }
}

extern "C" cudaError_t arrays(const float* A, const signed char* M, float* B, cudaStream_t stream) {
  const size_t smem = 512;
  arrays_kernel<<<dim3(16, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, M, B);
  return cudaGetLastError();
}
