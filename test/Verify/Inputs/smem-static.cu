// Static shared arrays count too: 40 KB static with 200 KB dynamic is over
// sm_90's 227 KB, and 64 KB of static __shared__ is over the 48 KB that
// static shared memory may use.
extern "C" __global__ void __launch_bounds__(128, 1) both_kernel(float* __restrict__ A) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  float* A_shared = (float*)(tl_smem + 0); // 204800 bytes
  __shared__ float stat[80][128];
  stat[threadIdx.x % 80][threadIdx.x] = A_shared[threadIdx.x];
  A[threadIdx.x] = stat[0][threadIdx.x];
}

extern "C" cudaError_t both(float* A, cudaStream_t stream) {
  const size_t smem = 204800;
  cudaError_t err = cudaFuncSetAttribute(both_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (err != cudaSuccess)
    return err;
  both_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}

extern "C" __global__ void __launch_bounds__(128, 1) static_only_kernel(float* __restrict__ A) {
  __shared__ float big[128][128];
  big[threadIdx.x][threadIdx.x] = A[threadIdx.x];
  A[threadIdx.x] = big[127 - threadIdx.x][threadIdx.x];
}

extern "C" cudaError_t static_only(float* A, cudaStream_t stream) {
  const size_t smem = 0;
  static_only_kernel<<<dim3(1, 1, 1), dim3(128, 1, 1), smem, stream>>>(A);
  return cudaGetLastError();
}
