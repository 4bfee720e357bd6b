// ---------------------------------------------------------------------------
// Harness runtime (the same for every program): random inputs, poisoned
// outputs, the comparison with the reference, and the timing loop.
// ---------------------------------------------------------------------------
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <vector>
#ifdef TLH_CUBLAS
#include <cublas_v2.h>
#endif

// Every CUDA call is checked: on error, say where and stop (exit status 2).
#define TLH_CHECK(call)                                                                          \
  do {                                                                                           \
    cudaError_t tlh_e_ = (call);                                                                 \
    if (tlh_e_ != cudaSuccess) {                                                                 \
      fprintf(stderr, "%s:%d: CUDA error %s (%s) in %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorName(tlh_e_), cudaGetErrorString(tlh_e_), #call);                      \
      exit(2);                                                                                   \
    }                                                                                            \
  } while (0)
#ifdef TLH_CUBLAS
#define TLH_CUBLAS_CHECK(call)                                                                   \
  do {                                                                                           \
    cublasStatus_t tlh_s_ = (call);                                                              \
    if (tlh_s_ != CUBLAS_STATUS_SUCCESS) {                                                       \
      fprintf(stderr, "%s:%d: cuBLAS error %d (%s) in %s\n", __FILE__, __LINE__, (int)tlh_s_,    \
              cublasGetStatusString(tlh_s_), #call);                                             \
      exit(2);                                                                                   \
    }                                                                                            \
  } while (0)
#endif

enum { TLH_BOOL, TLH_I8, TLH_U8, TLH_I16, TLH_I32, TLH_U32, TLH_I64, TLH_F16, TLH_BF16, TLH_F32, TLH_F64,
       TLH_F8E4, TLH_F8E5, TLH_U16, TLH_U64 };
static const char *const tlh_type_name[] = {"bool",  "int8",    "uint8",    "int16",   "int32",
                                            "uint32", "int64",  "float16",  "bfloat16", "float32",
                                            "float64", "float8_e4m3", "float8_e5m2", "uint16",
                                            "uint64"};
static const int tlh_type_bytes[] = {1, 1, 1, 2, 4, 4, 8, 2, 2, 4, 8, 1, 1, 2, 8};

struct TlhTensor {
  const char *name;
  int type, ndims;
  long long shape[8], elems;
  int read, written; // read: random data; written only: poisoned, then compared
  double tol;        // relative-norm tolerance; 0: must match exactly
  double atol;       // or every element within this (cancelling outputs)
  const char *data;  // tlc --data: how to fill it instead of random values, or NULL
};

typedef cudaError_t (*TlhLaunch)(void *const *args, cudaStream_t stream);

struct TlhKernel {
  const char *name;
  const TlhTensor *tensors;
  int ntensors;
  TlhLaunch run, ref; // the compiled kernel and the reference
  double flops;       // per run; < 0: unknown
  long long traffic;  // bytes per run: each tensor read and/or written once
  int cublas;         // one plain GEMM: tensors[a], [b] in, [c] out
  int a, b, c, trans_a, trans_b;
  long long m, n, k;
};

struct TlhOptions {
  int iters, perf;
  const char *only;
  unsigned long long seed;
};

// splitmix64: a small, fixed, portable generator, so that a seed means the
// same data on every machine.
static unsigned long long tlh_next(unsigned long long *s) {
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Floats uniform in [-1, 1]; signed integers in [-8, 8], unsigned in [0, 16].
static void tlh_random(std::vector<double> &h, int type, unsigned long long seed) {
  unsigned long long s = seed;
  for (size_t i = 0; i < h.size(); i++) {
    unsigned long long r = tlh_next(&s);
    switch (type) {
    case TLH_BOOL: h[i] = (double)(r & 1); break;
    case TLH_U8: case TLH_U16: case TLH_U32: case TLH_U64: h[i] = (double)(r % 17); break;
    case TLH_I8: case TLH_I16: case TLH_I32: case TLH_I64: h[i] = (double)(long long)(r % 17) - 8.0; break;
    default: h[i] = (double)(float)((double)(r >> 11) * (2.0 / 9007199254740992.0) - 1.0); break;
    }
  }
}

// tlc --data fills (docs/harness.md): offsets:TOTAL:MAX is a cu_seqlens
// table (0 first, TOTAL last, random steps of 0..MAX that add up to TOTAL),
// range:LO:HI random integers in [LO, HI), arange the index, arange:STEP
// the index times STEP, div:D:N the index divided by D (at most N - 1),
// const:V, uniform:LO:HI random reals in [LO, HI).
static void tlh_fill(std::vector<double> &h, const char *spec, unsigned long long seed) {
  unsigned long long s = seed;
  long long a = 0, b = 0;
  double lo = 0, hi = 0;
  size_t n = h.size();
  if (strcmp(spec, "arange") == 0) {
    for (size_t i = 0; i < n; i++) h[i] = (double)i;
  } else if (sscanf(spec, "arange:%lld", &a) == 1) {
    for (size_t i = 0; i < n; i++) h[i] = (double)((long long)i * a);
  } else if (sscanf(spec, "div:%lld:%lld", &a, &b) == 2) {
    for (size_t i = 0; i < n; i++) h[i] = (double)((long long)i / a < b - 1 ? (long long)i / a : b - 1);
  } else if (sscanf(spec, "uniform:%lf:%lf", &lo, &hi) == 2) {
    for (size_t i = 0; i < n; i++) h[i] = lo + (hi - lo) * ((double)(tlh_next(&s) >> 11) / 9007199254740992.0);
  } else if (sscanf(spec, "const:%lld", &a) == 1) {
    for (size_t i = 0; i < n; i++) h[i] = (double)a;
  } else if (sscanf(spec, "range:%lld:%lld", &a, &b) == 2) {
    for (size_t i = 0; i < n; i++) h[i] = (double)(a + (long long)(tlh_next(&s) % (unsigned long long)(b - a)));
  } else if (sscanf(spec, "offsets:%lld:%lld", &a, &b) == 2 && n > 0) {
    // a = TOTAL, b = MAX: n - 1 steps; each step leaves the rest reachable.
    long long left = a, at = 0;
    h[0] = 0;
    for (size_t i = 1; i < n; i++) {
      long long steps_after = (long long)(n - 1 - i);
      long long lo = left - steps_after * b, hi = left < b ? left : b;
      if (lo < 0) lo = 0;
      long long step = i + 1 == n ? left : lo + (long long)(tlh_next(&s) % (unsigned long long)(hi - lo + 1));
      at += step;
      left -= step;
      h[i] = (double)at;
    }
  }
}

// tokens:OFFS: row j of a [T, 2] table is (b, j - OFFS[b]) for the sequence b
// of the cu_seqlens table OFFS that holds token j ((0, 0) past its end).
static void tlh_fill_tokens(std::vector<double> &h, const std::vector<double> &offs) {
  size_t b = 0;
  for (size_t j = 0; 2 * j + 1 < h.size(); j++) {
    while (b + 1 < offs.size() && (double)j >= offs[b + 1]) b++;
    bool in = b + 1 < offs.size() && (double)j >= offs[b];
    h[2 * j] = in ? (double)b : 0.0;
    h[2 * j + 1] = in ? (double)j - offs[b] : 0.0;
  }
}

static int tlh_tensor_index(const TlhKernel *k, const char *name) {
  for (int i = 0; i < k->ntensors; i++)
    if (strcmp(k->tensors[i].name, name) == 0) return i;
  return 0;
}

template <typename T> __device__ __forceinline__ T tlh_from_double(double v) { return (T)v; }
template <> __device__ __forceinline__ bool tlh_from_double<bool>(double v) { return v != 0.0; }
template <> __device__ __forceinline__ __half tlh_from_double<__half>(double v) { return __float2half((float)v); }
template <> __device__ __forceinline__ __nv_bfloat16 tlh_from_double<__nv_bfloat16>(double v) {
  return __float2bfloat16((float)v);
}
// fp8: the constructor from float rounds to nearest and saturates.
template <> __device__ __forceinline__ __nv_fp8_e4m3 tlh_from_double<__nv_fp8_e4m3>(double v) {
  return __nv_fp8_e4m3((float)v);
}
template <> __device__ __forceinline__ __nv_fp8_e5m2 tlh_from_double<__nv_fp8_e5m2>(double v) {
  return __nv_fp8_e5m2((float)v);
}
template <typename T> __device__ __forceinline__ double tlh_to_double(T v) { return (double)v; }
template <> __device__ __forceinline__ double tlh_to_double<__half>(__half v) { return (double)__half2float(v); }
template <> __device__ __forceinline__ double tlh_to_double<__nv_bfloat16>(__nv_bfloat16 v) {
  return (double)__bfloat162float(v);
}

template <typename T> __global__ void tlh_from_doubles(const double *in, T *out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = tlh_from_double<T>(in[i]);
}
template <typename T> __global__ void tlh_to_doubles(const T *in, double *out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    out[i] = tlh_to_double<T>(in[i]);
}

// Element conversion between a tensor of any dtype and doubles on the device.
template <typename T> static void tlh_convert_t(bool to_double, void *t, double *d, long long n) {
  if (to_double)
    tlh_to_doubles<T><<<1024, 256>>>((const T *)t, d, n);
  else
    tlh_from_doubles<T><<<1024, 256>>>(d, (T *)t, n);
  TLH_CHECK(cudaGetLastError());
}
static void tlh_convert(int type, bool to_double, void *t, double *d, long long n) {
  switch (type) {
  case TLH_BOOL: tlh_convert_t<bool>(to_double, t, d, n); break;
  case TLH_I8: tlh_convert_t<signed char>(to_double, t, d, n); break;
  case TLH_U8: tlh_convert_t<unsigned char>(to_double, t, d, n); break;
  case TLH_I16: tlh_convert_t<short>(to_double, t, d, n); break;
  case TLH_I32: tlh_convert_t<int>(to_double, t, d, n); break;
  case TLH_U32: tlh_convert_t<unsigned int>(to_double, t, d, n); break;
  case TLH_U16: tlh_convert_t<unsigned short>(to_double, t, d, n); break;
  case TLH_U64: tlh_convert_t<unsigned long long>(to_double, t, d, n); break;
  case TLH_I64: tlh_convert_t<long long>(to_double, t, d, n); break;
  case TLH_F16: tlh_convert_t<__half>(to_double, t, d, n); break;
  case TLH_BF16: tlh_convert_t<__nv_bfloat16>(to_double, t, d, n); break;
  case TLH_F32: tlh_convert_t<float>(to_double, t, d, n); break;
  case TLH_F8E4: tlh_convert_t<__nv_fp8_e4m3>(to_double, t, d, n); break;
  case TLH_F8E5: tlh_convert_t<__nv_fp8_e5m2>(to_double, t, d, n); break;
  default: tlh_convert_t<double>(to_double, t, d, n); break;
  }
}

static long long tlh_bytes(const TlhTensor *t) {
  return t->elems * tlh_type_bytes[t->type];
}

// A device tensor's elements as doubles on the host.
static std::vector<double> tlh_download(const TlhTensor *t, void *dev, double *tmp) {
  std::vector<double> h((size_t)t->elems);
  tlh_convert(t->type, true, dev, tmp, t->elems);
  TLH_CHECK(cudaMemcpy(h.data(), tmp, sizeof(double) * (size_t)t->elems, cudaMemcpyDeviceToHost));
  return h;
}

struct TlhStats {
  double rel_err, max_abs;
  long long nonfinite; // non-finite values where the other side differs
  long long worst;     // element of the largest difference (or first non-finite one), -1: none
};

// ||x - ref|| / ||ref|| (absolute when ref is all zeros), the largest
// difference, and the elements where one side is NaN/Inf and the other is not
// the same value (matching NaN/Inf, e.g. log of a negative input or an
// element neither side writes, compare equal and stay out of the norms).
static TlhStats tlh_compare(const std::vector<double> &x, const std::vector<double> &ref) {
  TlhStats s = {0, 0, 0, -1};
  double d2 = 0, r2 = 0;
  for (size_t i = 0; i < x.size(); i++) {
    double a = x[i], b = ref[i];
    if (!isfinite(a) || !isfinite(b)) {
      if ((isnan(a) && isnan(b)) || a == b)
        continue;
      if (s.nonfinite++ == 0)
        s.worst = (long long)i;
      continue;
    }
    double d = fabs(a - b);
    d2 += d * d;
    r2 += b * b;
    if (d > s.max_abs) {
      s.max_abs = d;
      if (s.nonfinite == 0)
        s.worst = (long long)i;
    }
  }
  s.rel_err = r2 > 0 ? sqrt(d2 / r2) : sqrt(d2);
  return s;
}

// Within tol relative to the reference's norm, or every element within
// atol: an output that cancels to near zero has a relative error of order 1
// from rounding order alone (docs/harness.md).
static bool tlh_pass(const TlhStats &s, const TlhTensor *t) {
  return s.nonfinite == 0 &&
         (t->tol == 0 ? s.max_abs == 0 : s.rel_err <= t->tol || s.max_abs <= t->atol);
}

static void tlh_print_index(const TlhTensor *t, long long flat) {
  long long idx[8];
  for (int d = t->ndims - 1; d >= 0; d--) {
    idx[d] = flat % t->shape[d];
    flat /= t->shape[d];
  }
  printf("%s[", t->name);
  for (int d = 0; d < t->ndims; d++)
    printf("%s%lld", d ? ", " : "", idx[d]);
  printf("]");
}

static void tlh_explain(const char *what, const TlhTensor *t, const TlhStats &s, const std::vector<double> &x,
                        const std::vector<double> &ref) {
  printf("  %s %s %s[%lld elements]: rel_err=%.3e max_abs=%.3e nan=%lld tol=%.1e atol=%.1e", what, t->name,
         tlh_type_name[t->type], t->elems, s.rel_err, s.max_abs, s.nonfinite, t->tol,
         t->atol);
  if (s.worst >= 0) {
    printf("; worst ");
    tlh_print_index(t, s.worst);
    printf(" = %.6g, reference %.6g", x[(size_t)s.worst], ref[(size_t)s.worst]);
  }
  printf("\n");
}

static double tlh_median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + (double)v[n / 2]);
}

// Median time of `iters` runs of fn(set i % nsets), each between its own
// events, after 10 warm-up runs. Rotating over copies of the tensors keeps
// consecutive runs from reading what the previous one left in L2.
template <typename F>
static double tlh_time(F fn, const std::vector<std::vector<void *>> &sets, int iters, cudaStream_t stream,
                       float *lo, float *hi) {
  for (int i = 0; i < 10; i++)
    fn(sets[(size_t)i % sets.size()].data());
  TLH_CHECK(cudaStreamSynchronize(stream));
  std::vector<cudaEvent_t> ev(2 * (size_t)iters);
  for (auto &e : ev)
    TLH_CHECK(cudaEventCreate(&e));
  for (int i = 0; i < iters; i++) {
    TLH_CHECK(cudaEventRecord(ev[2 * (size_t)i], stream));
    fn(sets[(size_t)i % sets.size()].data());
    TLH_CHECK(cudaEventRecord(ev[2 * (size_t)i + 1], stream));
  }
  TLH_CHECK(cudaStreamSynchronize(stream));
  std::vector<float> ms((size_t)iters);
  for (int i = 0; i < iters; i++)
    TLH_CHECK(cudaEventElapsedTime(&ms[(size_t)i], ev[2 * (size_t)i], ev[2 * (size_t)i + 1]));
  for (auto &e : ev)
    TLH_CHECK(cudaEventDestroy(e));
  *lo = *std::min_element(ms.begin(), ms.end());
  *hi = *std::max_element(ms.begin(), ms.end());
  return tlh_median(ms);
}

