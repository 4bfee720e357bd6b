// The other shapes of divergent barriers, and block-uniform ones that are fine.
__device__ __forceinline__ void tl_block_sync() {
  asm volatile("bar.sync 0;\n" ::: "memory");
}

extern "C" __global__ void __launch_bounds__(128, 1) forms_kernel(const int* __restrict__ F, float* __restrict__ B, int n) {
  const int bx_0 = blockIdx.x;
  // Fine: block-uniform conditions and bounds.
  if (bx_0 * 2 < n) {
    __syncthreads();
  }
  for (int k_0 = bx_0; k_0 < n; k_0 += 4) {
    __syncthreads();
  }
  // A loop bound per thread.
  const int count = threadIdx.x % 4;
  for (int k_1 = 0; k_1 < count; ++k_1) {
    __syncthreads();
  }
  // A loop left early on loaded data.
  for (int k_2 = 0; k_2 < 8; ++k_2) {
    if (F[k_2 * 128 + threadIdx.x] < 0)
      break;
    __syncthreads();
  }
  // ?: and && on threadIdx, a barrier in inline asm, a helper containing one.
  (threadIdx.x < 64) ? __syncthreads() : (void)0;
  if (n > 0 && threadIdx.x == 0) {
    asm volatile("bar.sync 0;\n" ::: "memory");
    tl_block_sync();
    // Named barriers for a thread count are meant for part of the block.
    asm volatile("bar.sync 1, 32;\n" ::: "memory");
  }
  // An early exit makes every later barrier divergent.
  if (F[threadIdx.x] == 7)
    return;
  B[bx_0 * 128 + threadIdx.x] = 1.0f;
  __syncthreads();
}

extern "C" cudaError_t forms(const int* F, float* B, int n, cudaStream_t stream) {
  const size_t smem = 0;
  forms_kernel<<<dim3(16, 1, 1), dim3(128, 1, 1), smem, stream>>>(F, B, n);
  return cudaGetLastError();
}
