// T.sync_grid's launchers: a cooperative launch through an argument array.
// good's array passes the kernel's parameters in order on the launcher's
// stream; swapped's array trades X and P, off_stream launches on stream 0.
__device__ void tl_grid_sync(void);

extern "C" __global__ void __launch_bounds__(128, 1) good_kernel(const float* __restrict__ X, float* __restrict__ P) {
  P[blockIdx.x] = X[blockIdx.x];
  tl_grid_sync();
  P[blockIdx.x] += X[(blockIdx.x + 1) % 4];
}

extern "C" cudaError_t good(const float* X, float* P, cudaStream_t stream) {
  const size_t smem = 0;
  void *tl_args[] = {(void *)&X, (void *)&P, nullptr};
  return cudaLaunchCooperativeKernel((const void *)good_kernel, dim3(4, 1, 1), dim3(128, 1, 1), tl_args, smem, stream);
}

extern "C" __global__ void __launch_bounds__(128, 1) swapped_kernel(const float* __restrict__ X, float* __restrict__ P) {
  P[blockIdx.x] = X[blockIdx.x];
}

extern "C" cudaError_t swapped(const float* X, float* P, cudaStream_t stream) {
  const size_t smem = 0;
  void *tl_args[] = {(void *)&P, (void *)&X, nullptr};
  return cudaLaunchCooperativeKernel((const void *)swapped_kernel, dim3(4, 1, 1), dim3(128, 1, 1), tl_args, smem, stream);
}

extern "C" __global__ void __launch_bounds__(128, 1) off_stream_kernel(const float* __restrict__ X, float* __restrict__ P) {
  P[blockIdx.x] = X[blockIdx.x];
}

extern "C" cudaError_t off_stream(const float* X, float* P, cudaStream_t stream) {
  const size_t smem = 0;
  void *tl_args[] = {(void *)&X, (void *)&P, nullptr};
  return cudaLaunchCooperativeKernel((const void *)off_stream_kernel, dim3(4, 1, 1), dim3(256, 1, 1), tl_args, smem, 0);
}
