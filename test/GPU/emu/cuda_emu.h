// A tiny CPU emulation of the CUDA subset the tlc harness uses, to run
// harnesses on a machine without a GPU (for testing the harness itself).
// Blocks run one after another; the threads of a block are ucontext
// coroutines switched at __syncthreads() and warp shuffles.
#pragma once
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <chrono>
#include <algorithm>
#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__
#define __align__(n) __attribute__((aligned(n)))

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct uint3e { unsigned x, y, z; };
inline uint3e threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
inline unsigned char tl_smem[1 << 18] __attribute__((aligned(1024)));

typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorMemoryAllocation = 2, cudaErrorInvalidValue = 1 };
typedef void *cudaStream_t;
typedef struct EmuEvent *cudaEvent_t;
struct EmuEvent { double t; };
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
struct cudaDeviceProp { char name[256]; int major, minor, multiProcessorCount, l2CacheSize; };

inline int emu_alloc_fail = 0;
inline cudaError_t cudaMalloc(void **p, size_t n) {
  *p = aligned_alloc(256, (n + 255) / 256 * 256 + 256);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaFree(void *p) { free(p); return cudaSuccess; }
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { memcpy(d, s, n); return cudaSuccess; }
inline cudaError_t cudaMemset(void *d, int v, size_t n) { memset(d, v, n); return cudaSuccess; }
inline cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t = 0) { memset(d, v, n); return cudaSuccess; }
template <typename T> cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n) { memcpy(&sym, src, n); return cudaSuccess; }
template <typename T> cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n) { memcpy(dst, &sym, n); return cudaSuccess; }
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t emu_last_error = cudaSuccess;
inline cudaError_t cudaGetLastError() { cudaError_t e = emu_last_error; emu_last_error = 0; return e; }
inline const char *cudaGetErrorName(cudaError_t e) { return e ? "cudaErrorEmu" : "cudaSuccess"; }
inline const char *cudaGetErrorString(cudaError_t e) { return e ? "emulated error" : "no error"; }
inline double emu_now() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) { *e = new EmuEvent{0}; return cudaSuccess; }
inline cudaError_t cudaEventDestroy(cudaEvent_t e) { delete e; return cudaSuccess; }
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) { e->t = emu_now(); return cudaSuccess; }
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) { *ms = (float)(b->t - a->t); return cudaSuccess; }
inline cudaError_t cudaGetDevice(int *d) { *d = 0; return cudaSuccess; }
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  memset(p, 0, sizeof *p); strcpy(p->name, "CPU emulator"); p->major = 9; p->minor = 0;
  p->multiProcessorCount = 1; p->l2CacheSize = 1 << 20; return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int *v) { *v = 13000; return cudaSuccess; }
inline cudaError_t cudaDriverGetVersion(int *v) { *v = 13000; return cudaSuccess; }
template <typename F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }

// ---- half types: storage plus float conversion (round to nearest even)
inline uint16_t emu_f2h(float f) {
  uint32_t x; memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000; int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15; uint32_t man = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
  if (exp >= 31) return (uint16_t)(sign | 0x7c00);
  if (exp <= 0) {
    if (exp < -10) return (uint16_t)sign;
    man |= 0x800000; int shift = 14 - exp; uint32_t h = man >> shift; uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (man >> 13); uint32_t rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) h++;
  return (uint16_t)(sign | h);
}
inline float emu_h2f(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16; int exp = (h >> 10) & 0x1f; uint32_t man = h & 0x3ff; uint32_t x;
  if (exp == 0) { if (!man) x = sign; else { float f = ldexpf((float)man, -24); return sign ? -f : f; } }
  else if (exp == 31) x = sign | 0x7f800000 | (man << 13);
  else x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (man << 13);
  float f; memcpy(&f, &x, 4); return f;
}
inline uint16_t emu_f2bf(float f) {
  uint32_t x; memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000) return (uint16_t)((x >> 16) | 0x40);
  x += 0x7fff + ((x >> 16) & 1); return (uint16_t)(x >> 16);
}
inline float emu_bf2f(uint16_t b) { uint32_t x = (uint32_t)b << 16; float f; memcpy(&f, &x, 4); return f; }

struct __half {
  uint16_t bits;
  __half() = default;
  __half(float f) : bits(emu_f2h(f)) {}
  __half(double f) : bits(emu_f2h((float)f)) {}
  __half(int f) : bits(emu_f2h((float)f)) {}
  operator float() const { return emu_h2f(bits); }
};
struct __nv_bfloat16 {
  uint16_t bits;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) : bits(emu_f2bf(f)) {}
  __nv_bfloat16(double f) : bits(emu_f2bf((float)f)) {}
  __nv_bfloat16(int f) : bits(emu_f2bf((float)f)) {}
  operator float() const { return emu_bf2f(bits); }
};
#define EMU_HOPS(T)                                                                \
  inline T operator+(T a, T b) { return T((float)a + (float)b); }                 \
  inline T operator-(T a, T b) { return T((float)a - (float)b); }                 \
  inline T operator*(T a, T b) { return T((float)a * (float)b); }                 \
  inline T operator/(T a, T b) { return T((float)a / (float)b); }                 \
  inline T operator-(T a) { return T(-(float)a); }                                \
  inline T &operator+=(T &a, T b) { a = a + b; return a; }                         \
  inline bool operator<(T a, T b) { return (float)a < (float)b; }                  \
  inline bool operator>(T a, T b) { return (float)a > (float)b; }
EMU_HOPS(__half)
EMU_HOPS(__nv_bfloat16)
inline __half __float2half(float f) { return __half(f); }
inline float __half2float(__half h) { return (float)h; }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }
struct float4 { float x, y, z, w; } __attribute__((aligned(16)));
struct float2 { float x, y; } __attribute__((aligned(8)));
struct uint4 { unsigned x, y, z, w; } __attribute__((aligned(16)));
struct uint2 { unsigned x, y; } __attribute__((aligned(8)));

inline float __int_as_float(int i) { float f; memcpy(&f, &i, 4); return f; }
inline double __longlong_as_double(long long i) { double f; memcpy(&f, &i, 8); return f; }
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __expf(float x) { return expf(x); }
using std::min;
using std::max;
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }

// ---- the scheduler
struct EmuThread { ucontext_t ctx; bool done, at_barrier; std::vector<char> stack; };
inline ucontext_t emu_main_ctx;
inline std::vector<EmuThread> emu_threads;
inline int emu_cur;
inline std::function<void()> *emu_body;
inline void emu_entry() {
  (*emu_body)();
  emu_threads[emu_cur].done = true;
  swapcontext(&emu_threads[emu_cur].ctx, &emu_main_ctx);
}
inline void emu_set_ids(int t) {
  threadIdx.x = t % blockDim.x; threadIdx.y = t / blockDim.x % blockDim.y; threadIdx.z = t / (blockDim.x * blockDim.y);
}
inline void __syncthreads() {
  emu_threads[emu_cur].at_barrier = true;
  swapcontext(&emu_threads[emu_cur].ctx, &emu_main_ctx);
}
// Warp shuffles: a barrier of the warp with a value exchange.
inline double emu_shfl_vals[1024];
template <typename T> T __shfl_xor_sync(unsigned, T v, int mask) {
  int me = emu_cur;
  emu_shfl_vals[me] = (double)v;
  __syncthreads(); // all threads of the block: fine when every warp shuffles together
  T r = (T)emu_shfl_vals[(me & ~31) | ((me & 31) ^ mask)];
  __syncthreads();
  return r;
}
inline void emu_launch(dim3 g, dim3 b, std::function<void()> body) {
  gridDim = g; blockDim = b;
  int n = (int)(b.x * b.y * b.z);
  emu_threads.resize((size_t)n);
  for (auto &t : emu_threads) if (t.stack.size() < (1 << 18)) t.stack.resize(1 << 18);
  emu_body = &body;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++) {
        blockIdx.x = bx; blockIdx.y = by; blockIdx.z = bz;
        for (int t = 0; t < n; t++) {
          EmuThread &th = emu_threads[(size_t)t];
          th.done = th.at_barrier = false;
          getcontext(&th.ctx);
          th.ctx.uc_stack.ss_sp = th.stack.data(); th.ctx.uc_stack.ss_size = th.stack.size(); th.ctx.uc_link = 0;
          makecontext(&th.ctx, emu_entry, 0);
        }
        for (;;) {
          int ndone = 0, nbar = 0;
          for (int t = 0; t < n; t++) {
            EmuThread &th = emu_threads[(size_t)t];
            if (th.done) { ndone++; continue; }
            th.at_barrier = false;
            emu_cur = t; emu_set_ids(t);
            swapcontext(&emu_main_ctx, &th.ctx);
            if (th.done) ndone++; else nbar++;
          }
          if (ndone == n) break;
          if (ndone > 0 && nbar > 0) { fprintf(stderr, "emu: __syncthreads divergence\n"); exit(3); }
        }
      }
}
#define EMU_LAUNCH(g, b, ...) emu_launch(dim3(g), dim3(b), [&]() { __VA_ARGS__; })
