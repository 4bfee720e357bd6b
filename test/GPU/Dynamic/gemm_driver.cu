// Runs the runtime-size GEMMs of gemm.py (eager T.dynamic: `matmul`, and
// `matmul_2`, 128x256x64 over two warpgroups) and gemm_classic.py (classic
// T.symbolic: `matmul_dynamic_mnk`) on the GPU, linked with the .cu files tlc
// wrote for them (run_on_gpu.sh builds it):
//   tlc gemm.py --call 'matmul.compile()' --call 'matmul.compile(block_N=256, ...)'
//       --call 'static_matmul.compile(M=4096, N=4096, K=4096)' --call 'static_matmul.compile(..., block_N=256, ...)'
//   tlc gemm_classic.py --call 'matmul_dynamic_mnk()'
// `driver M,N,K ...` runs the three runtime-size kernels at each shape and checks 257
// sampled elements of C (corners included) against a host dot product in
// double, and that nothing is written past C. `driver --bench` times, at
// 4096^3, the static kernel, the same kernel with runtime sizes (both styles),
// the two-warpgroup pair, and cuBLAS (fp16 in and out, fp32 accumulation),
// printing `bench NAME ms TFLOPS` lines. Exit status 1 if a check fails.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>

extern "C" {
cudaError_t matmul(const __half *A, const __half *B, __half *C, int m, int k, int n, cudaStream_t s);
cudaError_t matmul_2(const __half *A, const __half *B, __half *C, int m, int k, int n, cudaStream_t s);
cudaError_t matmul_dynamic_mnk(const __half *A, const __half *B, __half *C, int m, int k, int n,
                               cudaStream_t s);
cudaError_t static_matmul(const __half *A, const __half *B, __half *C, cudaStream_t s);
cudaError_t static_matmul_2(const __half *A, const __half *B, __half *C, cudaStream_t s);
}

static int failures = 0;

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(err_));         \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

// Small integers: exact in float16, products summed exactly in float32.
static float value(long long i, int salt) {
  return (float)((i * 7 + salt * 3) % 5 - 2);
}

static __half *device_matrix(std::vector<float> &host, long long rows, long long cols, int salt) {
  host.resize((size_t)(rows * cols));
  std::vector<__half> h((size_t)(rows * cols));
  for (long long i = 0; i < rows * cols; i++) {
    host[(size_t)i] = value(i, salt);
    h[(size_t)i] = __float2half(host[(size_t)i]);
  }
  __half *d = nullptr;
  CHECK_CUDA(cudaMalloc((void **)&d, h.size() * sizeof(__half) + 16));
  CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(__half), cudaMemcpyHostToDevice));
  return d;
}

typedef cudaError_t (*Launcher)(const __half *, const __half *, __half *, int, int, int, cudaStream_t);

static void run(const char *name, Launcher launch, int m, int n, int k) {
  std::vector<float> a, b;
  __half *da = device_matrix(a, m, k, 1), *db = device_matrix(b, k, n, 2), *dc = nullptr;
  size_t count = (size_t)m * n;
  CHECK_CUDA(cudaMalloc((void **)&dc, count * sizeof(__half) + 16));
  CHECK_CUDA(cudaMemset(dc, 0x7f, count * sizeof(__half) + 16)); // a sentinel past C
  CHECK_CUDA(launch(da, db, dc, m, k, n, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<__half> c(count + 8);
  CHECK_CUDA(cudaMemcpy(c.data(), dc, (count + 8) * sizeof(__half), cudaMemcpyDeviceToHost));
  unsigned short sentinel;
  memcpy(&sentinel, &c[count], sizeof sentinel);
  bool ok = sentinel == 0x7f7f;
  if (!ok)
    printf("  wrote past C\n");
  for (int s = 0; s <= 256 && ok; s++) {
    long long i = s == 0 ? 0 : s == 1 ? m - 1 : (long long)((s * 2654435761ull) % (unsigned)m);
    long long j = s == 0 ? 0 : s == 1 ? n - 1 : (long long)((s * 40503ull + 7) % (unsigned)n);
    double ref = 0;
    for (long long x = 0; x < k; x++)
      ref += (double)a[(size_t)(i * k + x)] * b[(size_t)(x * n + j)];
    double got = (double)__half2float(c[(size_t)(i * n + j)]);
    ok = fabs(got - ref) <= 1e-3 * fabs(ref) + 1e-2;
    if (!ok)
      printf("  C[%lld, %lld] = %g, expected %g\n", i, j, got, ref);
  }
  printf("%s %s m=%d n=%d k=%d (%s)\n", ok ? "ok" : "FAIL", name, m, n, k,
         k % 8 == 0 && n % 8 == 0 && k > 0 ? "aligned kernel" : "unaligned twin");
  failures += !ok;
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
}

enum { SIZE = 4096, WARMUP = 10, ITERS = 50 };

static cublasHandle_t blas;

// C = A B in row-major is C^T = B^T A^T in cuBLAS's column-major.
static cudaError_t cublas_gemm(const __half *a, const __half *b, __half *c) {
  const float one = 1.0f, zero = 0.0f;
  cublasStatus_t st = cublasGemmEx(blas, CUBLAS_OP_N, CUBLAS_OP_N, SIZE, SIZE, SIZE, &one, b, CUDA_R_16F, SIZE,
                                   a, CUDA_R_16F, SIZE, &zero, c, CUDA_R_16F, SIZE, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT);
  return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

static cudaError_t call(int which, const __half *a, const __half *b, __half *c) {
  switch (which) {
  case 0: return static_matmul(a, b, c, 0);
  case 1: return matmul(a, b, c, SIZE, SIZE, SIZE, 0);
  case 2: return matmul_dynamic_mnk(a, b, c, SIZE, SIZE, SIZE, 0);
  case 3: return static_matmul_2(a, b, c, 0);
  case 4: return matmul_2(a, b, c, SIZE, SIZE, SIZE, 0);
  default: return cublas_gemm(a, b, c);
  }
}

static float time_ms(int which, const __half *a, const __half *b, __half *c) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  for (int i = 0; i < WARMUP; i++)
    CHECK_CUDA(call(which, a, b, c));
  CHECK_CUDA(cudaEventRecord(start, 0));
  for (int i = 0; i < ITERS; i++)
    CHECK_CUDA(call(which, a, b, c));
  CHECK_CUDA(cudaEventRecord(stop, 0));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  return ms / ITERS;
}

static void bench() {
  static const char *const names[] = {"static_128x128x32", "dynamic_128x128x32", "dynamic_classic_128x128x32",
                                      "static_128x256x64", "dynamic_128x256x64", "cublas"};
  if (cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
    printf("FAIL cublasCreate\n");
    exit(1);
  }
  std::vector<float> ha, hb;
  __half *a = device_matrix(ha, SIZE, SIZE, 1), *b = device_matrix(hb, SIZE, SIZE, 2), *c = nullptr;
  CHECK_CUDA(cudaMalloc((void **)&c, (size_t)SIZE * SIZE * sizeof(__half)));
  double flop = 2.0 * SIZE * SIZE * SIZE;
  // Interleaved rounds, the best of three per kernel: clocks and the other
  // kernels' heat affect them alike.
  float best[6];
  for (int w = 0; w < 6; w++)
    best[w] = 1e30f;
  for (int round = 0; round < 3; round++)
    for (int w = 0; w < 6; w++) {
      float ms = time_ms(w, a, b, c);
      best[w] = ms < best[w] ? ms : best[w];
    }
  for (int w = 0; w < 6; w++)
    printf("bench %s %.4f %.1f\n", names[w], best[w], flop / best[w] * 1e-9);
  cublasDestroy(blas);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s M,N,K... | --bench\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--bench") == 0) {
      bench();
      continue;
    }
    int m, n, k;
    if (sscanf(argv[i], "%d,%d,%d", &m, &n, &k) != 3) {
      fprintf(stderr, "bad shape '%s' (M,N,K)\n", argv[i]);
      return 2;
    }
    run("matmul", matmul, m, n, k);
    run("matmul_dynamic_mnk", matmul_dynamic_mnk, m, n, k);
    run("matmul_2", matmul_2, m, n, k);
  }
  return failures ? 1 : 0;
}
