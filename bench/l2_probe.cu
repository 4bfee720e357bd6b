// bench/l2_probe.cu: the H200's L2 -> SM read bandwidth, the fact behind
// targets/sm_90a.yaml's l2_bandwidth_gbs (read by explain-pipeline's TMA ring
// model). Every block streams a 16 MB buffer (resident in the 50 MB L2 after
// the first pass) with 16-byte ld.global.cg loads, many times; the median of
// 9 timed launches (events) of bytes read / time. Also a DRAM-sized buffer
// (2 GB) for comparison.
//   nvcc -O3 -arch=sm_90a bench/l2_probe.cu -o l2_probe && ./l2_probe
#include <cstdio>
#include <algorithm>
#include <vector>

__global__ void stream(const int4 *__restrict__ p, size_t n4, int passes, int *sink) {
  int4 acc = make_int4(0, 0, 0, 0);
  size_t stride = (size_t)gridDim.x * blockDim.x;
  for (int r = 0; r < passes; r++)
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride) {
      int4 v = __ldcg(p + i);
      acc.x ^= v.x; acc.y ^= v.y; acc.z ^= v.z; acc.w ^= v.w;
    }
  if ((acc.x ^ acc.y ^ acc.z ^ acc.w) == 0x12345678)
    *sink = 1;
}

static double measure(size_t bytes, int passes) {
  int4 *p; int *sink;
  cudaMalloc(&p, bytes); cudaMalloc(&sink, 4);
  cudaMemset(p, 1, bytes);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  size_t n4 = bytes / 16;
  stream<<<sms * 4, 512>>>(p, n4, 1, sink);
  cudaEvent_t a, b; cudaEventCreate(&a); cudaEventCreate(&b);
  std::vector<float> t;
  for (int i = 0; i < 9; i++) {
    cudaEventRecord(a);
    stream<<<sms * 4, 512>>>(p, n4, passes, sink);
    cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  cudaFree(p); cudaFree(sink);
  return (double)bytes * passes / (t[4] * 1e-3) / 1e9;
}

int main() {
  double l2 = measure((size_t)16 << 20, 200);
  double dram = measure((size_t)2 << 30, 2);
  printf("L2-resident 16 MB: %.0f GB/s\nDRAM 2 GB: %.0f GB/s\n", l2, dram);
  return 0;
}
