// 64 KB of dynamic shared memory without cudaFuncSetAttribute: the launch
// fails, since without the opt-in a kernel gets at most 48 KB. The second
// launcher opts in, but to less than it then requests.
extern "C" __global__ void __launch_bounds__(128, 1) wide_kernel(float* __restrict__ A) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 65536 bytes
  for (int step_0 = 0; step_0 < 128; ++step_0) {
    A_shared[step_0 * 128 + threadIdx.x] = A[step_0 * 128 + threadIdx.x];
  }
}

extern "C" cudaError_t wide(float* A, cudaStream_t stream) {
  const size_t smem = 65536;
  wide_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}

extern "C" cudaError_t wide_again(float* A, cudaStream_t stream) {
  const size_t smem = 65536;
  cudaError_t err = cudaFuncSetAttribute(wide_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 49152);
  if (err != cudaSuccess)
    return err;
  wide_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}
