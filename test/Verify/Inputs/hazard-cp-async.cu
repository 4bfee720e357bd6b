// A two-stage cp.async pipeline in tlc's form, broken three ways: a wait
// that leaves the stage about to be read in flight, a wait with no barrier
// after it (other threads' copies may not have landed), and a copy into
// the stage being read (k % 2 instead of (k + 1) % 2).
template <int N> __device__ __forceinline__ void tl_cp_async(void *smem, const void *gmem) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(s), "l"(gmem));
}

// Reads a whole 512-float stage, as tl_gemm_* reads its tiles.
__device__ __forceinline__ float tl_sum(const float* __restrict__ T) {
  float acc = 0.0f;
  for (int i = 0; i < 512; ++i)
    acc += T[i];
  return acc;
}

extern "C" __global__ void __launch_bounds__(128, 1) early_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 4096 bytes
  float acc = 0.0f;
  tl_cp_async<16>(&S[(int)threadIdx.x * 4], &A[(int)threadIdx.x * 4]);
  asm volatile("cp.async.commit_group;\n" ::);
  for (int k = 0; k < 8; ++k) {
    asm volatile("cp.async.wait_group 1;\n" ::);
    __syncthreads();
    acc += tl_sum(S + k % 2 * 512);
    if (k + 1 < 8)
      tl_cp_async<16>(&S[(k + 1) % 2 * 512 + (int)threadIdx.x * 4], &A[(k + 1) * 512 + (int)threadIdx.x * 4]);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  B[threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(128, 1) unsynced_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 4096 bytes
  float acc = 0.0f;
  tl_cp_async<16>(&S[(int)threadIdx.x * 4], &A[(int)threadIdx.x * 4]);
  asm volatile("cp.async.commit_group;\n" ::);
  for (int k = 0; k < 8; ++k) {
    asm volatile("cp.async.wait_group 0;\n" ::);
    acc += tl_sum(S + k % 2 * 512);
    __syncthreads();
    if (k + 1 < 8)
      tl_cp_async<16>(&S[(k + 1) % 2 * 512 + (int)threadIdx.x * 4], &A[(k + 1) * 512 + (int)threadIdx.x * 4]);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  B[threadIdx.x] = acc;
}

extern "C" __global__ void __launch_bounds__(128, 1) overwrite_kernel(const float* __restrict__ A, float* __restrict__ B) {
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
      tl_cp_async<16>(&S[k % 2 * 512 + (int)threadIdx.x * 4], &A[(k + 1) * 512 + (int)threadIdx.x * 4]);
    asm volatile("cp.async.commit_group;\n" ::);
  }
  B[threadIdx.x] = acc;
}

extern "C" cudaError_t early(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 4096;
  early_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}

extern "C" cudaError_t unsynced(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 4096;
  unsynced_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}

extern "C" cudaError_t overwrite(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 4096;
  overwrite_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
