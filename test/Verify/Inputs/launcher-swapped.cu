// Launchers that do not match their kernels. add's parameters are swapped
// (A and C trade places: a caller passing (A, B, C) gets A written and C
// read); axpy's parameters match but its launch passes them out of order.
extern "C" __global__ void __launch_bounds__(128, 1) add_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C) {
  C[blockIdx.x * 128 + threadIdx.x] = A[blockIdx.x * 128 + threadIdx.x] + B[blockIdx.x * 128 + threadIdx.x];
}

extern "C" cudaError_t add(float* C, const float* B, const float* A, cudaStream_t stream) {
  const size_t smem = 0;
  add_kernel<<<dim3(32, 1, 1), dim3(128, 1, 1), smem, stream>>>(A, B, C);
  return cudaGetLastError();
}

extern "C" __global__ void __launch_bounds__(128, 1) axpy_kernel(const float* __restrict__ X, const float* __restrict__ Y, float* __restrict__ Z) {
  Z[threadIdx.x] = 2.0f * X[threadIdx.x] + Y[threadIdx.x];
}

extern "C" cudaError_t axpy(const float* X, const float* Y, float* Z, cudaStream_t stream) {
  const size_t smem = 0;
  axpy_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(Y, X, Z);
  return cudaGetLastError();
}
