// A helper that stores to shared memory with inline asm, through the
// shared-window address of its pointer parameter (as an stmatrix helper
// would): a call of it is a write of what it is passed, and another
// thread's read of that element needs a barrier.
__device__ __forceinline__ void tl_st_shared(float *smem, float v) {
  unsigned s = (unsigned)__cvta_generic_to_shared(smem);
  asm volatile("st.shared.f32 [%0], %1;\n" :: "r"(s), "f"(v) : "memory");
}

extern "C" __global__ void __launch_bounds__(128, 1) store_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 512 bytes
  tl_st_shared(&S[threadIdx.x], A[threadIdx.x]);
  B[threadIdx.x] = S[127 - threadIdx.x];
}

extern "C" cudaError_t store(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 512;
  store_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
