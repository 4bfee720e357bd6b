// Kernels without their host launchers: NAME_kernel has no NAME, and a
// kernel not named *_kernel is launched by no host function.
extern "C" __global__ void __launch_bounds__(128, 1) orphan_kernel(float* __restrict__ A) {
  A[blockIdx.x * 128 + threadIdx.x] = 0.0f;
}

extern "C" __global__ void __launch_bounds__(128, 1) lonely(float* __restrict__ A) {
  A[threadIdx.x] = 1.0f;
}

// Launches lonely, which makes it lonely's launcher, but not orphan_kernel's.
extern "C" cudaError_t orphan_launcher(float* A, cudaStream_t stream) {
  const size_t smem = 0;
  lonely<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}

extern "C" __global__ void __launch_bounds__(128, 1) unlaunched(float* __restrict__ A) {
  A[threadIdx.x] = 2.0f;
}
