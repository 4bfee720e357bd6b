// A CPU emulation of the small CUDA subset that tlc harnesses use, so that
// the harness itself (its reference lowering, its runtime, its cuBLAS call)
// and simple compiled kernels can run on a machine without a GPU: CI has
// nvcc but no GPU. emucc.py compiles a harness against this header with the
// host C++ compiler.
//
// Blocks run one after another. The threads of a block are ucontext
// coroutines: a thread runs until it has to wait (a barrier, a warp-wide
// operation, an mbarrier phase, a wgmma group), so barriers behave as on the
// GPU, and a round in which no waiting thread can move is reported as a
// deadlock (exit 3; a __syncthreads() that not every thread reaches is one).
// Warp shuffles exchange values within their warp. Memory is host memory;
// launches are synchronous; events read the host clock. tlc's inline PTX
// (wgmma, TMA, mbarriers, cp.async, ldmatrix, mma.sync) is interpreted by
// ptx_emu.h, included at the end; emucc.py refuses other PTX.
#pragma once
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static
#define __grid_constant__
#define __align__(n) __attribute__((aligned(n)))

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
struct emu_uint3 {
  unsigned x, y, z;
};
inline emu_uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;
// Dynamic shared memory: one block runs at a time, so one array serves all.
inline unsigned char tl_smem[1 << 18] __attribute__((aligned(1024)));

// ---- runtime API
typedef int cudaError_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1, cudaErrorMemoryAllocation = 2, cudaErrorNotSupported = 801 };
typedef void *cudaStream_t;
struct EmuEvent {
  double ms;
};
typedef EmuEvent *cudaEvent_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost, cudaMemcpyDeviceToDevice, cudaMemcpyDefault };
enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize };
struct cudaDeviceProp {
  char name[256];
  int major, minor, multiProcessorCount, l2CacheSize;
};

inline cudaError_t cudaMalloc(void **p, size_t n) {
  *p = aligned_alloc(256, (n + 255) / 256 * 256 + 256);
  return *p ? cudaSuccess : cudaErrorMemoryAllocation;
}
inline cudaError_t cudaMallocAsync(void **p, size_t n, cudaStream_t) { return cudaMalloc(p, n); }
inline cudaError_t cudaFreeAsync(void *p, cudaStream_t) {
  free(p);
  return cudaSuccess;
}
inline cudaError_t cudaFree(void *p) {
  free(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) {
  memcpy(d, s, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemset(void *d, int v, size_t n) {
  memset(d, v, n);
  return cudaSuccess;
}
inline cudaError_t cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t = 0) {
  memset(d, v, n);
  return cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n) {
  memcpy(&sym, src, n);
  return cudaSuccess;
}
template <typename T> cudaError_t cudaMemcpyFromSymbol(void *dst, const T &sym, size_t n) {
  memcpy(dst, &sym, n);
  return cudaSuccess;
}
inline cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
inline cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
inline cudaError_t cudaGetLastError() { return cudaSuccess; }
inline const char *cudaGetErrorName(cudaError_t e) { return e ? "cudaErrorEmulated" : "cudaSuccess"; }
inline const char *cudaGetErrorString(cudaError_t e) { return e ? "emulated error" : "no error"; }
inline double emu_now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
inline cudaError_t cudaEventCreate(cudaEvent_t *e) {
  *e = new EmuEvent{0};
  return cudaSuccess;
}
inline cudaError_t cudaEventDestroy(cudaEvent_t e) {
  delete e;
  return cudaSuccess;
}
inline cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t = 0) {
  e->ms = emu_now_ms();
  return cudaSuccess;
}
inline cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  *ms = (float)(b->ms - a->ms);
  return cudaSuccess;
}
inline cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
inline cudaError_t cudaGetDeviceProperties(cudaDeviceProp *p, int) {
  memset(p, 0, sizeof *p);
  strcpy(p->name, "CPU emulator");
  p->major = 9;
  p->multiProcessorCount = 3;
  p->l2CacheSize = 1 << 20;
  return cudaSuccess;
}
inline cudaError_t cudaRuntimeGetVersion(int *v) {
  *v = 0;
  return cudaSuccess;
}
inline cudaError_t cudaDriverGetVersion(int *v) {
  *v = 0;
  return cudaSuccess;
}
template <typename F> cudaError_t cudaFuncSetAttribute(F, cudaFuncAttribute, int) { return cudaSuccess; }
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };
// Three SMs: persistent kernels then stride over tiles with more than one block.
inline cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr, int) {
  *v = 3;
  return cudaSuccess;
}

// ---- float16 / bfloat16: 16-bit storage, float arithmetic, round to nearest even
inline uint16_t emu_float_to_half(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, man = x & 0x7fffff;
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  if (((x >> 23) & 0xff) == 0xff)
    return (uint16_t)(sign | 0x7c00 | (man ? 0x200 : 0));
  if (exp >= 31)
    return (uint16_t)(sign | 0x7c00);
  if (exp <= 0) { // subnormal
    if (exp < -10)
      return (uint16_t)sign;
    man |= 0x800000;
    int shift = 14 - exp;
    uint32_t h = man >> shift, rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1)))
      h++;
    return (uint16_t)(sign | h);
  }
  uint32_t h = ((uint32_t)exp << 10) | (man >> 13), rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    h++; // a carry into the exponent is the right rounding, up to infinity
  return (uint16_t)(sign | h);
}
inline float emu_half_to_float(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, man = h & 0x3ff, x;
  int exp = (h >> 10) & 0x1f;
  if (exp == 0) {
    float f = ldexpf((float)man, -24);
    return sign ? -f : f;
  }
  if (exp == 31)
    x = sign | 0x7f800000 | (man << 13);
  else
    x = sign | ((uint32_t)(exp - 15 + 127) << 23) | (man << 13);
  float f;
  memcpy(&f, &x, 4);
  return f;
}
inline uint16_t emu_float_to_bf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if ((x & 0x7fffffff) > 0x7f800000)
    return (uint16_t)((x >> 16) | 0x40); // quiet NaN
  x += 0x7fff + ((x >> 16) & 1);
  return (uint16_t)(x >> 16);
}
inline float emu_bf16_to_float(uint16_t b) {
  uint32_t x = (uint32_t)b << 16;
  float f;
  memcpy(&f, &x, 4);
  return f;
}

struct __half {
  uint16_t bits;
  __half() = default;
  __half(float f) : bits(emu_float_to_half(f)) {}
  __half(double f) : bits(emu_float_to_half((float)f)) {}
  __half(int f) : bits(emu_float_to_half((float)f)) {}
  operator float() const { return emu_half_to_float(bits); }
};
struct __nv_bfloat16 {
  uint16_t bits;
  __nv_bfloat16() = default;
  __nv_bfloat16(float f) : bits(emu_float_to_bf16(f)) {}
  __nv_bfloat16(double f) : bits(emu_float_to_bf16((float)f)) {}
  __nv_bfloat16(int f) : bits(emu_float_to_bf16((float)f)) {}
  operator float() const { return emu_bf16_to_float(bits); }
};
#define EMU_HALF_OPS(T)                                                                            \
  inline T operator+(T a, T b) { return T((float)a + (float)b); }                                   \
  inline T operator-(T a, T b) { return T((float)a - (float)b); }                                   \
  inline T operator*(T a, T b) { return T((float)a * (float)b); }                                   \
  inline T __hmul_rn(T a, T b) { return a * b; }                                                    \
  inline T operator/(T a, T b) { return T((float)a / (float)b); }                                   \
  inline T operator-(T a) { return T(-(float)a); }                                                  \
  inline T &operator+=(T &a, T b) { return a = a + b; }                                             \
  inline bool operator<(T a, T b) { return (float)a < (float)b; }                                   \
  inline bool operator>(T a, T b) { return (float)a > (float)b; }
EMU_HALF_OPS(__half)
EMU_HALF_OPS(__nv_bfloat16)
inline __half __float2half(float f) { return __half(f); }
inline float __half2float(__half h) { return (float)h; }
inline unsigned short __half_as_ushort(__half h) { return h.bits; }
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.bits; }
inline __nv_bfloat16 __float2bfloat16(float f) { return __nv_bfloat16(f); }
inline float __bfloat162float(__nv_bfloat16 h) { return (float)h; }

// ---- fp8 (OCP e4m3 / e5m2): 8-bit storage, round to nearest even, values
// past the largest finite one saturate to it (the toolkit's __NV_SATFINITE);
// no operators, as in cuda_fp8.h.
inline uint8_t emu_float_to_fp8(float f, int mbits, int bias, float maxv) {
  uint8_t sign = signbit(f) ? 0x80 : 0;
  if (isnan(f)) return (uint8_t)(sign | 0x7f);
  float a = fabsf(f);
  int emin = 1 - bias, e;
  frexpf(a, &e); // a = m * 2^e, m in [0.5, 1): the leading bit is 2^(e-1)
  int lead = a > 0 ? e - 1 : emin;
  if (lead < emin) lead = emin;
  float quantum = ldexpf(1.0f, lead - mbits);
  float q = nearbyintf(a / quantum) * quantum; // ties to even
  if (q > maxv) q = maxv;
  if (q == 0) return sign;
  frexpf(q, &e);
  lead = e - 1;
  if (lead < emin) // subnormal
    return (uint8_t)(sign | (uint8_t)(q / ldexpf(1.0f, emin - mbits)));
  int man = (int)(q / ldexpf(1.0f, lead - mbits)) - (1 << mbits);
  return (uint8_t)(sign | ((lead + bias) << mbits) | man);
}
inline float emu_fp8_to_float(uint8_t b, int mbits, int bias, bool has_inf) {
  float sign = (b & 0x80) ? -1.0f : 1.0f;
  int ebits = 7 - mbits, ef = (b & 0x7f) >> mbits, man = b & ((1 << mbits) - 1);
  if (ef == (1 << ebits) - 1 && (has_inf ? true : man == (1 << mbits) - 1)) {
    if (has_inf && man == 0) return sign * INFINITY;
    return NAN;
  }
  if (ef == 0) return sign * ldexpf((float)man, 1 - bias - mbits);
  return sign * ldexpf((float)((1 << mbits) + man), ef - bias - mbits);
}
#define EMU_FP8(T, MB, BIAS, MAXV, INF)                                                             \
  struct T {                                                                                       \
    uint8_t __x;                                                                                   \
    T() = default;                                                                                 \
    explicit T(float f) : __x(emu_float_to_fp8(f, MB, BIAS, MAXV)) {}                              \
    explicit T(double f) : __x(emu_float_to_fp8((float)f, MB, BIAS, MAXV)) {}                      \
    explicit T(int f) : __x(emu_float_to_fp8((float)f, MB, BIAS, MAXV)) {}                         \
    explicit T(__half h) : T((float)h) {}                                                          \
    explicit T(__nv_bfloat16 h) : T((float)h) {}                                                   \
    explicit operator float() const { return emu_fp8_to_float(__x, MB, BIAS, INF); }              \
    explicit operator double() const { return (double)(float)*this; }                              \
    explicit operator int() const { return (int)(float)*this; }                                    \
    explicit operator __half() const { return __half((float)*this); }                              \
    explicit operator __nv_bfloat16() const { return __nv_bfloat16((float)*this); }                \
  };
EMU_FP8(__nv_fp8_e4m3, 3, 7, 448.0f, false)
EMU_FP8(__nv_fp8_e5m2, 2, 15, 57344.0f, true)
#undef EMU_FP8

struct float4 {
  float x, y, z, w;
} __attribute__((aligned(16)));
struct float2 {
  float x, y;
} __attribute__((aligned(8)));
struct uint4 {
  unsigned x, y, z, w;
} __attribute__((aligned(16)));
struct uint2 {
  unsigned x, y;
} __attribute__((aligned(8)));
// The 2-wide vectors tlc's vector accesses use for 16-bit and 64-bit floats
// (lib/CodeGen/CudaEmit.c, vector_type): only moved, never computed on.
struct __half2 {
  __half x, y;
} __attribute__((aligned(4)));
struct __nv_bfloat162 {
  __nv_bfloat16 x, y;
} __attribute__((aligned(4)));
struct double2 {
  double x, y;
} __attribute__((aligned(16)));

// ---- device functions
inline float __int_as_float(int i) {
  float f;
  memcpy(&f, &i, 4);
  return f;
}
inline double __longlong_as_double(long long i) {
  double f;
  memcpy(&f, &i, 8);
  return f;
}
// Threads switch only at __syncthreads(), so a read-add-write is atomic.
template <typename T> T atomicAdd(T *address, T value) {
  T old = *address;
  *address = old + value;
  return old;
}
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float __expf(float x) { return expf(x); }
using std::max;
using std::min;
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }

// ---- the scheduler: one block at a time, its threads as coroutines
// A thread runs until it has to wait (a barrier, a warp-wide operation, an
// mbarrier phase, a wgmma group); then the next one runs. A round in which
// every waiting thread still waits and nothing changed is a deadlock: the
// program stops with exit 3 and says where the threads wait.
struct EmuThread {
  ucontext_t ctx;
  bool done;
  const char *waiting; // what the thread waits for, while it waits
  std::vector<char> stack;
};
inline ucontext_t emu_scheduler;
inline std::vector<EmuThread> emu_threads;
inline int emu_current, emu_nthreads, emu_live;
inline long emu_progress; // bumped by every change another thread may wait for
inline std::function<void()> *emu_body;
inline void emu_block_begin(); // ptx_emu.h: resets the asynchronous state
inline void emu_thread_end(int t); // ptx_emu.h: lands a thread's pending copies

inline void emu_thread_main() {
  (*emu_body)();
  emu_thread_end(emu_current);
  emu_threads[(size_t)emu_current].done = true;
  swapcontext(&emu_threads[(size_t)emu_current].ctx, &emu_scheduler);
}
// Gives the other threads a turn; `why` names the wait in a deadlock report.
inline void emu_yield(const char *why) {
  emu_threads[(size_t)emu_current].waiting = why;
  swapcontext(&emu_threads[(size_t)emu_current].ctx, &emu_scheduler);
  emu_threads[(size_t)emu_current].waiting = nullptr;
}

// Waits that end only when no other thread can move (the scheduler's round
// changed nothing): asynchronous work done as late as possible.
inline long emu_quiet_epoch;
inline int emu_lazy_waiters;
inline void emu_wait_for_quiet(const char *why) {
  long epoch = emu_quiet_epoch;
  emu_lazy_waiters++;
  while (emu_quiet_epoch == epoch)
    emu_yield(why);
  emu_lazy_waiters--;
}

// Barriers 0-15: bar.sync ID, COUNT waits until COUNT threads arrived
// (bar.arrive arrives without waiting); __syncthreads() is barrier 0 over the
// whole block.
struct EmuBarrier {
  int arrived;
  unsigned generation;
};
inline EmuBarrier emu_barriers[16];
inline void emu_bar_arrive(int id, int count) {
  EmuBarrier &b = emu_barriers[id];
  emu_progress++;
  if (++b.arrived >= count) {
    b.arrived = 0;
    b.generation++;
  }
}
inline void emu_bar_sync(int id, int count) {
  unsigned generation = emu_barriers[id].generation;
  emu_bar_arrive(id, count);
  while (emu_barriers[id].generation == generation)
    emu_yield(id == 0 ? "__syncthreads()" : "a named barrier (bar.sync)");
}
inline void __syncthreads() { emu_bar_sync(0, emu_nthreads); }
inline void __syncwarp(unsigned = 0xffffffffu) {}

// Warp-wide operations (shuffles, ldmatrix, mma.sync): each lane leaves its
// record; the last lane to arrive runs `run` over all of them while the
// others wait.
struct EmuWarpSlot {
  int arrived;
  unsigned generation;
  void *records[32];
};
inline EmuWarpSlot emu_warps[32];
inline int emu_warp_lanes() {
  int first = emu_current & ~31;
  return emu_nthreads - first < 32 ? emu_nthreads - first : 32;
}
template <typename F> void emu_warp_collective(void *record, const char *why, F run) {
  EmuWarpSlot &w = emu_warps[emu_current / 32];
  unsigned generation = w.generation;
  w.records[emu_current % 32] = record;
  emu_progress++;
  if (++w.arrived == emu_warp_lanes()) {
    run(w.records, emu_warp_lanes());
    w.arrived = 0;
    w.generation++;
    return;
  }
  while (w.generation == generation)
    emu_yield(why);
}
template <typename T> T __shfl_xor_sync(unsigned, T v, int mask) {
  struct Rec {
    T in, out;
  } me{v, v};
  emu_warp_collective(&me, "a warp shuffle", [mask](void **records, int lanes) {
    T in[32];
    for (int l = 0; l < lanes; l++)
      in[l] = ((Rec *)records[l])->in;
    for (int l = 0; l < lanes; l++)
      if ((l ^ mask) < lanes)
        ((Rec *)records[l])->out = in[l ^ mask];
  });
  return me.out;
}

// A kernel that touches memory outside every buffer stops the program, as a
// GPU stops the kernel with cudaErrorIllegalAddress (what was printed stays).
inline void emu_fault(int) {
  static const char msg[] = "emu: a kernel thread touched memory outside every buffer (on a GPU: "
                            "cudaErrorIllegalAddress)\n";
  fflush(stdout);
  if (write(2, msg, sizeof msg - 1) < 0) {
  }
  _exit(5);
}

inline void emu_launch(dim3 grid, dim3 block, std::function<void()> body) {
  signal(SIGSEGV, emu_fault);
  signal(SIGBUS, emu_fault);
  gridDim = grid;
  blockDim = block;
  int n = (int)(block.x * block.y * block.z);
  emu_threads.resize((size_t)n);
  for (auto &t : emu_threads)
    if (t.stack.size() < (1 << 18))
      t.stack.resize(1 << 18);
  emu_body = &body;
  emu_nthreads = n;
  for (unsigned bz = 0; bz < grid.z; bz++)
    for (unsigned by = 0; by < grid.y; by++)
      for (unsigned bx = 0; bx < grid.x; bx++) {
        blockIdx = {bx, by, bz};
        // Shared memory starts as garbage on a GPU: 0xFF bytes (NaN in every
        // float type) make a read of something no thread of this block wrote show.
        memset(tl_smem, 0xFF, sizeof tl_smem);
        memset(emu_barriers, 0, sizeof emu_barriers);
        memset(emu_warps, 0, sizeof emu_warps);
        emu_block_begin();
        for (auto &t : emu_threads) {
          t.done = false;
          t.waiting = nullptr;
          getcontext(&t.ctx);
          t.ctx.uc_stack.ss_sp = t.stack.data();
          t.ctx.uc_stack.ss_size = t.stack.size();
          t.ctx.uc_link = nullptr;
          makecontext(&t.ctx, emu_thread_main, 0);
        }
        emu_live = n;
        emu_lazy_waiters = 0;
        for (;;) {
          long before = emu_progress;
          for (int t = 0; t < n; t++) {
            EmuThread &th = emu_threads[(size_t)t];
            if (th.done)
              continue;
            emu_current = t;
            threadIdx = {t % block.x, t / block.x % block.y, t / (block.x * block.y)};
            swapcontext(&emu_scheduler, &th.ctx);
            if (th.done) {
              emu_live--;
              emu_progress++;
            }
          }
          if (emu_live == 0)
            break;
          if (emu_progress == before && emu_lazy_waiters > 0) {
            emu_quiet_epoch++;
            continue;
          }
          if (emu_progress == before) {
            int shown = 0;
            bool block_barrier = false;
            for (int t = 0; t < n; t++)
              block_barrier |= !emu_threads[(size_t)t].done && emu_threads[(size_t)t].waiting &&
                               strcmp(emu_threads[(size_t)t].waiting, "__syncthreads()") == 0;
            if (block_barrier && emu_live < n)
              fprintf(stderr, "emu: __syncthreads() not reached by every thread of block (%u, %u, %u)\n", bx,
                      by, bz);
            else
              fprintf(stderr, "emu: deadlock in block (%u, %u, %u): %d threads wait\n", bx, by, bz, emu_live);
            for (int t = 0; t < n && shown < 4; t++)
              if (!emu_threads[(size_t)t].done) {
                fprintf(stderr, "emu:   thread %d waits for %s\n", t,
                        emu_threads[(size_t)t].waiting ? emu_threads[(size_t)t].waiting : "?");
                shown++;
              }
            exit(3);
          }
        }
      }
}
#define EMU_LAUNCH(grid, block, ...) emu_launch(dim3(grid), dim3(block), [&]() { __VA_ARGS__; })
#include "ptx_emu.h"
