// Accesses that stay in bounds only because of what the path knows: if and
// else branches, &&, early exits, ?:, loop bounds that are not 0..N, min(),
// blockDim, single-assignment locals, and a swizzle helper read through.
// None may be reported; barriers at line ends order the writes (check 6).
template <int C> __device__ __forceinline__ int swz(int row, int col) {
  const int chunk = col / 8;
  return row * C + ((chunk ^ (row % 8)) * 8) + col % 8;
}

extern "C" __global__ void __launch_bounds__(256, 1) guards_kernel(const float* __restrict__ A, float* __restrict__ B, int n) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 400 bytes
  float* T = (float*)(tl_smem + 512); // 8192 bytes
  // 100 elements, 256 threads.
  if (threadIdx.x < 100) {
    S[threadIdx.x] = A[threadIdx.x];
  } else if (threadIdx.x >= 156) {
    S[threadIdx.x - 156] = 0.0f;
  } __syncthreads();
  if (threadIdx.x >= 50 && threadIdx.x * 2 < 250)
    S[threadIdx.x - 50] += 1.0f; __syncthreads();
  for (int i_0 = 4; i_0 <= 28; i_0 += 4) {
    if (i_0 * 4 + threadIdx.x / 64 < 100)
      S[i_0 * 4 + threadIdx.x / 64] = 2.0f;
  } __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  S[warp * 12 + lane % 12] = (float)lane; __syncthreads();
  B[threadIdx.x] = threadIdx.x < 100 ? S[threadIdx.x] : S[min(threadIdx.x, 99u)];
  T[blockDim.x - 1 - threadIdx.x] = 0.0f; __syncthreads();
  for (int k_1 = 0; k_1 < 2; ++k_1) {
    // 2048 floats as 32 rows of 64, swizzled in 8-float chunks, by float4.
    *(float4*)&T[swz<64>((k_1 * 256 + threadIdx.x) * 4 / 64, (k_1 * 256 + threadIdx.x) * 4 % 64)] = *(const float4*)&A[k_1 * 1024];
  }
  if (threadIdx.x >= 200)
    return;
  S[threadIdx.x / 2] = 3.0f;
}

extern "C" cudaError_t guards(const float* A, float* B, int n, cudaStream_t stream) {
  const size_t smem = 8704;
  guards_kernel<<<dim3(1, 1, 1), dim3(256, 1, 1), smem, stream>>>(A, B, n);
  return cudaGetLastError();
}
