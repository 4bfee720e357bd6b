// A barrier under a condition on an element of read-only memory at a
// block-uniform index (TileLang's block-sparse GEMM: `if BlockMask[by, bx,
// k]:` around a tile copy and its gemm): every thread loads the same element
// of a `const T* __restrict__` parameter, which the kernel cannot write, so
// all take the same branch. Through Counts, which the kernel writes, the
// same condition may differ between threads.
extern "C" __global__ void __launch_bounds__(128, 1) masked_kernel(const float* __restrict__ A, const bool* __restrict__ Mask, float* __restrict__ B, int* __restrict__ Counts) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 512 bytes
  for (int k = 0; k < 8; ++k) {
    if (Mask[bx_0 * 8 + k]) {
      A_shared[threadIdx.x] = A[(bx_0 * 8 + k) * 128 + threadIdx.x];
      __syncthreads();
      B[(bx_0 * 8 + k) * 128 + threadIdx.x] = A_shared[127 - threadIdx.x];
      __syncthreads();
    }
  }
  if (Counts[bx_0] > 0) {
    __syncthreads();
  }
  if (threadIdx.x == 0)
    Counts[bx_0] = 1;
}

extern "C" cudaError_t masked(const float* A, const bool* Mask, float* B, int* Counts, cudaStream_t stream) {
  const size_t smem = 512;
  masked_kernel<<<dim3(16, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, Mask, B, Counts);
  return cudaGetLastError();
}
