// A row of 16 per block, filled at column bs - 16 * (bs // 16) (Python's //,
// as tlc writes it for a value it cannot prove non-negative) and at
// bs - 16 * floordiv(bs, 16) + 1: the first is bs % 16, in [0, 15]; the
// second reaches 16, one past the row.
template <typename T> __device__ __forceinline__ T tl_floordiv(T a, T b) {
  T q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

extern "C" __global__ void __launch_bounds__(32, 1) row_kernel(const int* __restrict__ S, float* __restrict__ B) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* R = (float*)(tl_smem + 0); // 64 bytes
  const int bs = (int)(blockIdx.x * 977) % 8192 - 4096; // negative for some blocks
  const int first = bs - tl_floordiv(bs, 16) * 16;
  for (int d = 0; d < first + 1; ++d)
    if (threadIdx.x == 0) R[d] = 1.0f;
  __syncthreads();
  if (threadIdx.x == 0) R[bs - tl_floordiv(bs, 16) * 16 + 1] = 2.0f;
  __syncthreads();
  B[blockIdx.x * 32 + threadIdx.x] = R[threadIdx.x % 16];
}

extern "C" cudaError_t row(const int* S, float* B, cudaStream_t stream) {
  const size_t smem = 64;
  row_kernel<<<dim3(32, 1, 1), dim3(32, 1, 1), smem, stream>>>(S, B);
  return cudaGetLastError();
}
