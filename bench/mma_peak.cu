// bench/mma_peak.cu: the H200's mma.sync.m16n8k16 ceiling (fp16 and bf16
// inputs, fp32 accumulators), registers only: no shared or global memory in
// the loop. Each warp keeps 16 independent accumulators; every SM runs
// WARPS warps. This is the roof for tlc's GEMM (which uses mma.sync, not
// wgmma). Build: nvcc -O3 -arch=sm_90 bench/mma_peak.cu -o mma_peak
#include <cstdio>
#include <cuda_runtime.h>

template <bool BF16> __global__ void mma_loop(float *out, int iters) {
  unsigned a[4], b[2];
  for (int i = 0; i < 4; i++)
    a[i] = 0x3c003c00u ^ (threadIdx.x * 2654435761u >> (8 + i)); // small, finite values
  b[0] = 0x3c003c00u ^ (threadIdx.x >> 3), b[1] = 0x38003800u;
  float d[16][4] = {};
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int j = 0; j < 16; j++) {
      if (BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d[j][0]), "+f"(d[j][1]), "+f"(d[j][2]), "+f"(d[j][3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  }
  float s = 0;
  for (int j = 0; j < 16; j++)
    s += d[j][0] + d[j][1] + d[j][2] + d[j][3];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

int main() {
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int iters = 20000;
  float *out;
  cudaMalloc(&out, sizeof(float) * sms * 8 * 1024);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0), cudaEventCreate(&e1);
  for (int bf = 0; bf < 2; bf++)
    for (int warps = 4; warps <= 16; warps *= 2) {
      int threads = warps * 32, blocks = sms;
      auto k = bf ? mma_loop<true> : mma_loop<false>;
      k<<<blocks, threads>>>(out, 100); // warm-up
      cudaEventRecord(e0);
      k<<<blocks, threads>>>(out, iters);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      double flops = 2.0 * 16 * 8 * 16 * 16.0 * iters * warps * blocks;
      printf("mma.sync m16n8k16 %s: %2d warps/SM: %.1f TFLOP/s (%s)\n", bf ? "bf16" : "fp16", warps,
             flops / (ms * 1e-3) / 1e12, cudaGetErrorString(cudaGetLastError()));
    }
  return 0;
}
