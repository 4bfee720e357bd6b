// A 128-element tile read at threadIdx.x + 1 by 128 threads: the last
// thread reads S[128], one past the end.
extern "C" __global__ void __launch_bounds__(128, 1) shift_kernel(const float* __restrict__ A, float* __restrict__ B) {
  const int bx_0 = blockIdx.x;
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 512 bytes
  S[threadIdx.x] = A[bx_0 * 128 + threadIdx.x];
  __syncthreads();
  B[bx_0 * 128 + threadIdx.x] = S[threadIdx.x + 1] - S[threadIdx.x];
}

extern "C" cudaError_t shift(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 512;
  shift_kernel<<<dim3(32, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
