// Standalone check of TileLang's deepseek_v32/topk_selector.py compiled by
// tlc (T.atomic_add(..., return_prev=True), break, named barriers): for each
// row the 2048 indices returned must be exactly the indices of the 2048
// largest inputs (as a set; the kernel's order depends on the atomics).
// Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a check_topk.cu -o check_topk
#include "topk.cu"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>
int main() {
  const int batch = 8, seq_len = 32 * 1024, topk = 2048;
  std::vector<float> in((size_t)batch * seq_len);
  std::mt19937 rng(1);
  std::normal_distribution<float> nd(0.f, 1.f);
  for (auto &x : in) x = nd(rng);
  std::vector<int> starts(batch, 0), ends(batch, seq_len), idx((size_t)batch * topk, -1);
  float *dIn; int *dIdx, *dS, *dE;
  cudaMalloc(&dIn, in.size() * 4); cudaMalloc(&dIdx, idx.size() * 4);
  cudaMalloc(&dS, batch * 4); cudaMalloc(&dE, batch * 4);
  cudaMemcpy(dIn, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dS, starts.data(), batch * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dE, ends.data(), batch * 4, cudaMemcpyHostToDevice);
  cudaMemset(dIdx, 0xff, idx.size() * 4);
  cudaError_t e = utl_topk_impl(dIn, dIdx, dS, dE, batch, seq_len, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(idx.data(), dIdx, idx.size() * 4, cudaMemcpyDeviceToHost);
  int bad_rows = 0;
  for (int b = 0; b < batch; b++) {
    std::vector<int> order(seq_len);
    for (int i = 0; i < seq_len; i++) order[i] = i;
    const float *row = &in[(size_t)b * seq_len];
    std::nth_element(order.begin(), order.begin() + topk, order.end(), [&](int x, int y) { return row[x] > row[y]; });
    std::vector<int> want(order.begin(), order.begin() + topk), got(idx.begin() + (size_t)b * topk, idx.begin() + (size_t)(b + 1) * topk);
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    int diff = 0;
    for (int i = 0; i < topk; i++) diff += want[i] != got[i];
    if (diff) { if (bad_rows < 3) printf("row %d: %d of %d indices differ (first got %d want %d)\n", b, diff, topk, got[0], want[0]); bad_rows++; }
  }
  printf("topk_selector: %s (%d of %d rows wrong)\n", bad_rows ? "FAIL" : "PASS", bad_rows, batch);
  return bad_rows != 0;
}
