// Shared-memory hazards between threads, with no cp.async: a read of what
// another thread wrote with no barrier between (RAW), and, in a loop, the
// next iteration's write over what other threads may still read (WAR,
// loop-carried). threadIdx.x reads S[127 - threadIdx.x], another thread's.
// Last, two accesses with the same index that still cross threads.
extern "C" __global__ void __launch_bounds__(128, 1) reverse_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 512 bytes
  S[threadIdx.x] = A[threadIdx.x];
  B[threadIdx.x] = S[127 - threadIdx.x];
}

extern "C" __global__ void __launch_bounds__(128, 1) rows_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 512 bytes
  for (int k = 0; k < 4; ++k) {
    S[threadIdx.x] = A[k * 128 + threadIdx.x];
    __syncthreads();
    B[k * 128 + threadIdx.x] = S[127 - threadIdx.x];
  }
}

// The same index on both sides is not enough: thread t reads S[t + 1] at
// k = 1, which thread t + 1 wrote at k = 0.
extern "C" __global__ void __launch_bounds__(128, 1) slide_kernel(const float* __restrict__ A, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* S = (float*)(tl_smem + 0); // 1024 bytes
  for (int k = 0; k < 2; ++k)
    S[k + threadIdx.x] = A[k * 128 + threadIdx.x];
  for (int k = 0; k < 2; ++k)
    B[k * 128 + threadIdx.x] = S[k + threadIdx.x];
}

extern "C" cudaError_t reverse(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 512;
  reverse_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}

extern "C" cudaError_t rows(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 512;
  rows_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}

extern "C" cudaError_t slide(const float* A, float* B, cudaStream_t stream) {
  const size_t smem = 1024;
  slide_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B);
  return cudaGetLastError();
}
