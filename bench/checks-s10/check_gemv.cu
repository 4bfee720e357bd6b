// Standalone check of a tlc-compiled GEMV (TileLang's example_gemv.py, the
// T.tvm_thread_allreduce form): C[n] = sum_k A[k] * B[n, k], N = K = 1024,
// against a host reference. Build: nvcc -O3 -gencode=arch=compute_90a,code=sm_90a
//   -DKFILE='"gemv_tvm.cu"' -DLAUNCH=splitk_gemv_vectorized_tvm check_gemv.cu -o check_gemv_tvm
#include KFILE
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
int main() {
  const int N = 1024, K = 1024;
  std::vector<__half> hA(K), hB((size_t)N * K), hC(N);
  std::vector<float> fA(K), fB((size_t)N * K);
  srand(7);
  for (int k = 0; k < K; k++) { fA[k] = (rand() % 2001 - 1000) / 1000.0f; hA[k] = __float2half(fA[k]); fA[k] = __half2float(hA[k]); }
  for (size_t i = 0; i < (size_t)N * K; i++) { fB[i] = (rand() % 2001 - 1000) / 1000.0f; hB[i] = __float2half(fB[i]); fB[i] = __half2float(hB[i]); }
  __half *dA, *dB, *dC;
  cudaMalloc(&dA, K * 2); cudaMalloc(&dB, (size_t)N * K * 2); cudaMalloc(&dC, N * 2);
  cudaMemcpy(dA, hA.data(), K * 2, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hB.data(), (size_t)N * K * 2, cudaMemcpyHostToDevice);
  cudaMemset(dC, 0, N * 2);
  cudaError_t e = LAUNCH(dA, dB, dC, 0);
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 1; }
  cudaMemcpy(hC.data(), dC, N * 2, cudaMemcpyDeviceToHost);
  int bad = 0; double worst = 0;
  for (int n = 0; n < N; n++) {
    double ref = 0;
    for (int k = 0; k < K; k++) ref += (double)fA[k] * fB[(size_t)n * K + k];
    double got = __half2float(hC[n]), err = fabs(got - ref);
    if (err > worst) worst = err;
    if (err > 0.05 + 0.01 * fabs(ref)) { if (bad < 5) printf("C[%d] = %f, expected %f\n", n, got, ref); bad++; }
  }
  printf("%s: %s (%d of %d wrong, max abs error %.4f)\n", KFILE, bad ? "FAIL" : "PASS", bad, N, worst);
  return bad != 0;
}
