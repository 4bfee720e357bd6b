// Standalone check of test/GPU/Inputs/atomic_return_prev.py (claim_slots):
// Count[b] = how many A[i] % 8 == b, Mark[b, 0..Count[b]) = 1, the rest
// untouched. Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a check_arp.cu -o check_arp
#include "arp.cu"
#include <cstdio>
#include <cstdlib>
#include <vector>
int main() {
  std::vector<int> A(512), Mark(8 * 512, 7), Count(8, -1);
  srand(3);
  for (auto &a : A) a = rand() % 1000 - 500;
  int *dA, *dM, *dC;
  cudaMalloc(&dA, 512 * 4); cudaMalloc(&dM, 8 * 512 * 4); cudaMalloc(&dC, 8 * 4);
  cudaMemcpy(dA, A.data(), 512 * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dM, Mark.data(), 8 * 512 * 4, cudaMemcpyHostToDevice);
  cudaError_t e = claim_slots(dA, dM, dC, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(Mark.data(), dM, 8 * 512 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(Count.data(), dC, 8 * 4, cudaMemcpyDeviceToHost);
  int want[8] = {0}, bad = 0;
  for (int a : A) want[((a % 8) + 8) % 8]++;
  for (int b = 0; b < 8; b++) {
    bad += Count[b] != want[b];
    for (int s = 0; s < 512; s++) bad += Mark[b * 512 + s] != (s < want[b] ? 1 : 7);
  }
  printf("claim_slots: %s (%d wrong)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
