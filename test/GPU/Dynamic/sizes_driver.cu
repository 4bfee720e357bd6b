// Runs the kernels of sizes.py (compiled with
//   tlc sizes.py --call 'add.compile(N=256)' --call 'scale()')
// at the runtime sizes given on the command line and checks every element
// against the host: `driver 1 17 1000` runs add with m = 1, 17, 1000 and
// scale with (m, n) = (1, 1), (17, 18), (1000, 1001). It also checks that a
// negative size is refused with cudaErrorInvalidValue and that a size of 0
// launches nothing. Prints one "ok" or "FAIL" line per run; exit status 1 if
// one fails. Built after the generated .cu in one file (emucc.py or nvcc).
#include <stdio.h>
#include <stdlib.h>
#include <vector>

static int failures = 0;

static void report(bool ok, const char *what, long long m, long long n) {
  printf("%s %s m=%lld n=%lld\n", ok ? "ok" : "FAIL", what, m, n);
  if (!ok)
    failures++;
}

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t err_ = (call);                                                                     \
    if (err_ != cudaSuccess) {                                                                     \
      printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, (int)err_);                \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

static float value(long long i, int salt) {
  return (float)((i * 37 + salt * 11) % 1001) / 8.0f - 60.0f; // exact in float
}

static float *device_copy(const std::vector<float> &host) {
  float *d = nullptr;
  CHECK_CUDA(cudaMalloc((void **)&d, host.size() * sizeof(float) + 4));
  CHECK_CUDA(cudaMemcpy(d, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

static std::vector<float> host_copy(const float *d, size_t n) {
  std::vector<float> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  return h;
}

// add: C = A + B, (m, 256). A sentinel after C must survive the edge.
static void run_add(int m) {
  const int N = 256;
  size_t n = (size_t)m * N;
  std::vector<float> a(n), b(n), c(n + 1, -7.0f);
  for (size_t i = 0; i < n; i++) {
    a[i] = value((long long)i, 1);
    b[i] = value((long long)i, 2);
  }
  float *da = device_copy(a), *db = device_copy(b), *dc = device_copy(c);
  CHECK_CUDA(add(da, db, dc, m, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out = host_copy(dc, n + 1);
  bool ok = out[n] == -7.0f;
  for (size_t i = 0; i < n && ok; i++)
    ok = out[i] == a[i] + b[i];
  report(ok, "add", m, N);
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
}

// scale: B = 2 * A, (m, n) with both sizes at run time.
static void run_scale(int m, int n) {
  size_t count = (size_t)m * n;
  std::vector<float> a(count), b(count + 1, -7.0f);
  for (size_t i = 0; i < count; i++)
    a[i] = value((long long)i, 3);
  float *da = device_copy(a), *db = device_copy(b);
  CHECK_CUDA(scale(da, db, m, n, 0));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<float> out = host_copy(db, count + 1);
  bool ok = out[count] == -7.0f;
  for (size_t i = 0; i < count && ok; i++)
    ok = out[i] == 2.0f * a[i];
  report(ok, "scale", m, n);
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
}

// Sizes the launcher must refuse or skip, before touching memory.
static void run_limits() {
  float *d = nullptr;
  CHECK_CUDA(cudaMalloc((void **)&d, 16));
  report(add(d, d, d, -1, 0) == cudaErrorInvalidValue, "add refuses", -1, 256);
  report(scale(d, d, 4, -3, 0) == cudaErrorInvalidValue, "scale refuses", 4, -3);
  report(add(d, d, d, 0, 0) == cudaSuccess, "add empty", 0, 256);
  report(scale(d, d, 1 << 20, 1 << 12, 0) == cudaErrorInvalidValue, "scale refuses 2^32 elements",
         1 << 20, 1 << 12);
  CHECK_CUDA(cudaFree(d));
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s SIZE...\n", argv[0]);
    return 2;
  }
  for (int i = 1; i < argc; i++) {
    int m = atoi(argv[i]);
    run_add(m);
    run_scale(m, m + 1);
  }
  run_limits();
  return failures ? 1 : 0;
}
