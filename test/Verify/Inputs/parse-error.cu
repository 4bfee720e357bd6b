// Does not parse: an undeclared helper, an operator mixing __half and float
// (ambiguous with the toolkit's conversions, here as with nvcc), and a
// missing semicolon.
typedef __half half_t;

extern "C" __global__ void __launch_bounds__(128, 1) scale_kernel(half_t* __restrict__ X) {
  X[threadIdx.x] = tl_missing(X[threadIdx.x]);
  X[threadIdx.x] = X[threadIdx.x] * 2.0f;
  const int i = threadIdx.x
  X[i] = X[i];
}

extern "C" cudaError_t scale(half_t* X, cudaStream_t stream) {
  const size_t smem = 0;
  scale_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(X);
  return cudaGetLastError();
}
