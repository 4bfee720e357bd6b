// Orderings the hazard check must accept: a two-stage cp.async pipeline
// with the right wait and barrier; each thread rereading only what it
// wrote itself (no barrier needed, including a float4 written and read
// back one lane at a time); two barriers in a row.
template <int N> __device__ __forceinline__ void tl_cp_async(void *smem, const void *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(gmem));
}

__device__ __forceinline__ float tl_sum(const float* __restrict__ T) {
  float acc = 0.0f;
  for (int i = 0; i < 512; ++i)
    acc += T[i];
  return acc;
}

extern "C" __global__ void __launch_bounds__(128, 1) pipe_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 4096 bytes
  float acc = 0.0f;
  tl_cp_async<16>(&S[(int)threadIdx.x * 4], &A[(int)threadIdx.x * 4]);
  asm volatile("cp.async.commit_group;\n" ::);
  for (int k = 0; k < 8; ++k) {
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    acc += tl_sum(S + k % 2 * 512);
    if (k + 1 < 8)
      tl_cp_async<16>(&S[(k + 1) % 2 * 512 + (int)threadIdx.x * 4], &A[(k + 1) * 512 + (int)threadIdx.x * 4]);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  B[threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(128, 1) own_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 8192 bytes
  for (int step = 0; step < 4; ++step) {
    __align__(16) float v[4];
    *(float4*)v = *(const float4*)&A[step * 512 + (int)threadIdx.x * 4];
    *(float4*)&S[step * 512 + (int)threadIdx.x * 4] = *(const float4*)v;
  }
  for (int step = 0; step < 4; ++step)
    for (int lane = 0; lane < 4; ++lane)
      S[step * 512 + (int)threadIdx.x * 4 + lane] *= 2.0f;
  __syncthreads();
  __syncthreads();
  B[threadIdx.x] = S[2047 - threadIdx.x];
}

extern "C" cudaError_t pipe(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 4096;
  pipe_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}

extern "C" cudaError_t own(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 8192;
  own_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
