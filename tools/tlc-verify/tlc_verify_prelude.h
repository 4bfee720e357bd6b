// tlc-verify's stand-in for the CUDA toolkit headers. Debian's clang 14
// cannot parse the CUDA 13 headers, so tlc-verify parses tlc's output
// (-include this file, clang's CUDA device mode, no CUDA installation)
// against these declarations instead. tlc's output skips its own toolkit
// #includes when TLC_VERIFY_PRELUDE is defined.
//
// Keep it in step with the toolkit: declare what tlc's output uses with the
// toolkit's signatures (same overloads, same implicit conversions, so that
// ambiguities show up here too), no more permissive. test/Verify checks that
// the output of every example parses against this file, and (with nvcc) that
// Inputs/prelude-uses.cu, which uses every declaration here, compiles against
// both this file and the real toolkit.
#ifndef TLC_VERIFY_PRELUDE
#define TLC_VERIFY_PRELUDE 1

/* ---- execution-space and storage keywords ---- */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))
#define __align__(n) __attribute__((aligned(n)))
#define __restrict__ __restrict
#define __grid_constant__ // clang 14 does not know it; it only affects parameters' storage
#define __cluster_dims__(...) // clang 14 does not know it; the launcher's grid is checked as usual

/* ---- <stdint.h>, <stddef.h> ---- */
typedef __SIZE_TYPE__ size_t;
typedef __PTRDIFF_TYPE__ ptrdiff_t;
typedef __INT8_TYPE__ int8_t;
typedef __INT16_TYPE__ int16_t;
typedef __INT32_TYPE__ int32_t;
typedef __INT64_TYPE__ int64_t;
typedef __UINT8_TYPE__ uint8_t;
typedef __UINT16_TYPE__ uint16_t;
typedef __UINT32_TYPE__ uint32_t;
typedef __UINT64_TYPE__ uint64_t;
typedef __UINTPTR_TYPE__ uintptr_t;
#define NULL nullptr

/* ---- vector types (vector_types.h): plain aggregates ---- */
struct __align__(4) char4 { signed char x, y, z, w; };
struct __align__(4) uchar4 { unsigned char x, y, z, w; };
struct __align__(4) short2 { short x, y; };
struct __align__(8) short4 { short x, y, z, w; };
struct __align__(4) ushort2 { unsigned short x, y; };
struct __align__(8) ushort4 { unsigned short x, y, z, w; };
struct __align__(8) int2 { int x, y; };
struct int3 { int x, y, z; };
struct __align__(16) int4 { int x, y, z, w; };
struct __align__(8) uint2 { unsigned int x, y; };
struct uint3 { unsigned int x, y, z; };
struct __align__(16) uint4 { unsigned int x, y, z, w; };
struct __align__(8) float2 { float x, y; };
struct float3 { float x, y, z; };
struct __align__(16) float4 { float x, y, z, w; };
struct __align__(16) double2 { double x, y; };
struct __align__(16) longlong2 { long long x, y; };
struct __align__(16) ulonglong2 { unsigned long long x, y; };
typedef struct char4 char4;
typedef struct uchar4 uchar4;
typedef struct short2 short2;
typedef struct short4 short4;
typedef struct ushort2 ushort2;
typedef struct ushort4 ushort4;
typedef struct int2 int2;
typedef struct int3 int3;
typedef struct int4 int4;
typedef struct uint2 uint2;
typedef struct uint3 uint3;
typedef struct uint4 uint4;
typedef struct float2 float2;
typedef struct float3 float3;
typedef struct float4 float4;
typedef struct double2 double2;
typedef struct longlong2 longlong2;
typedef struct ulonglong2 ulonglong2;

struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return uint3{x, y, z}; }
};
typedef struct dim3 dim3;

__host__ __device__ int2 make_int2(int x, int y);
__host__ __device__ int4 make_int4(int x, int y, int z, int w);
__host__ __device__ uint2 make_uint2(unsigned int x, unsigned int y);
__host__ __device__ uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w);
__host__ __device__ float2 make_float2(float x, float y);
__host__ __device__ float4 make_float4(float x, float y, float z, float w);
__host__ __device__ double2 make_double2(double x, double y);

/* ---- built-in variables ---- */
extern const __device__ uint3 threadIdx;
extern const __device__ uint3 blockIdx;
extern const __device__ dim3 blockDim;
extern const __device__ dim3 gridDim;
extern const __device__ int warpSize;

/* ---- runtime API used by launchers (cuda_runtime_api.h, cuda_runtime.h) ---- */
enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719,
  cudaErrorNotSupported = 801,
};
typedef enum cudaError cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };
enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};
extern "C" {
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ cudaError_t cudaGetDevice(int *device);
__host__ cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device);
__host__ cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);
// T.sync_grid(): the kernel's launcher launches it cooperatively.
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                 void **args, size_t sharedMem, cudaStream_t stream);
// T.alloc_global buffers: the prim_func's launcher allocates them on its stream.
__host__ cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t hStream);
__host__ cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t hStream);
// What clang's CUDA mode calls for <<<grid, block, smem, stream>>>: the
// first for toolkits before 9.2, the second after.
__host__ int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, cudaStream_t stream = 0);
__host__ unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0, void *stream = 0);
}
template <class T> __host__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value);

/* ---- T.rng_*: curand's Philox generator, one per thread (tlc's names) ---- */
struct tl_rng_t { unsigned int state[16]; };
__device__ void tl_rng_init(tl_rng_t *s, unsigned long long seed, unsigned long long seq, unsigned long long off);
__device__ unsigned int tl_rng_rand(tl_rng_t *s);
__device__ float tl_rng_uniform(tl_rng_t *s);
__device__ double tl_rng_uniform_double(tl_rng_t *s);
__device__ float tl_rng_normal(tl_rng_t *s);
__device__ double tl_rng_normal_double(tl_rng_t *s);

/* ---- synchronization, warps, atomics, memory ---- */
__device__ void __syncthreads(void);
__device__ void tl_grid_sync(void); // tlc's grid barrier (cooperative groups): a block barrier too
__device__ int __syncthreads_count(int predicate);
__device__ int __syncthreads_and(int predicate);
__device__ int __syncthreads_or(int predicate);
__device__ void __syncwarp(unsigned int mask = 0xffffffff);
__device__ void __threadfence(void);
__device__ void __threadfence_block(void);
__device__ unsigned int __activemask(void);
__device__ unsigned int __ballot_sync(unsigned int mask, int predicate);
__device__ int __any_sync(unsigned int mask, int predicate);
__device__ int __all_sync(unsigned int mask, int predicate);
#define TLC_VERIFY_SHFL(T)                                                                         \
  __device__ T __shfl_sync(unsigned int mask, T var, int srcLane, int width = 32);                 \
  __device__ T __shfl_up_sync(unsigned int mask, T var, unsigned int delta, int width = 32);       \
  __device__ T __shfl_down_sync(unsigned int mask, T var, unsigned int delta, int width = 32);     \
  __device__ T __shfl_xor_sync(unsigned int mask, T var, int laneMask, int width = 32);
TLC_VERIFY_SHFL(int)
TLC_VERIFY_SHFL(unsigned int)
TLC_VERIFY_SHFL(long long)
TLC_VERIFY_SHFL(unsigned long long)
TLC_VERIFY_SHFL(float)
TLC_VERIFY_SHFL(double)
#undef TLC_VERIFY_SHFL
#define TLC_VERIFY_ATOMIC(T)                                                                       \
  __device__ T atomicAdd(T *address, T val);                                                       \
  __device__ T atomicExch(T *address, T val);
TLC_VERIFY_ATOMIC(int)
TLC_VERIFY_ATOMIC(unsigned int)
TLC_VERIFY_ATOMIC(unsigned long long)
TLC_VERIFY_ATOMIC(float)
#undef TLC_VERIFY_ATOMIC
__device__ double atomicAdd(double *address, double val);
__device__ int atomicMax(int *address, int val);
__device__ int atomicMin(int *address, int val);
__device__ unsigned int atomicMax(unsigned int *address, unsigned int val);
__device__ unsigned int atomicMin(unsigned int *address, unsigned int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare, unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address, unsigned long long compare,
                                        unsigned long long val);
__device__ float __ldg(const float *ptr);
__device__ float2 __ldg(const float2 *ptr);
__device__ float4 __ldg(const float4 *ptr);
__device__ int __ldg(const int *ptr);
__device__ uint4 __ldg(const uint4 *ptr);
__device__ double __ldg(const double *ptr);
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ long long clock64(void);

/* ---- math (math_functions.h, device_functions.h) ---- */
#define TLC_VERIFY_MATH1(name)                                                                     \
  __host__ __device__ float name##f(float x);                                                      \
  __host__ __device__ double name(double x);
TLC_VERIFY_MATH1(exp)
TLC_VERIFY_MATH1(exp2)
TLC_VERIFY_MATH1(expm1)
TLC_VERIFY_MATH1(log)
TLC_VERIFY_MATH1(log2)
TLC_VERIFY_MATH1(log1p)
TLC_VERIFY_MATH1(sqrt)
TLC_VERIFY_MATH1(rsqrt)
TLC_VERIFY_MATH1(tanh)
TLC_VERIFY_MATH1(sin)
TLC_VERIFY_MATH1(cos)
TLC_VERIFY_MATH1(erf)
TLC_VERIFY_MATH1(fabs)
TLC_VERIFY_MATH1(floor)
TLC_VERIFY_MATH1(ceil)
TLC_VERIFY_MATH1(round)
TLC_VERIFY_MATH1(trunc)
#undef TLC_VERIFY_MATH1
#define TLC_VERIFY_MATH2(name)                                                                     \
  __host__ __device__ float name##f(float x, float y);                                             \
  __host__ __device__ double name(double x, double y);
TLC_VERIFY_MATH2(fmin)
TLC_VERIFY_MATH2(fmax)
TLC_VERIFY_MATH2(pow)
TLC_VERIFY_MATH2(fmod)
#undef TLC_VERIFY_MATH2
__host__ __device__ float fmaf(float x, float y, float z);
__host__ __device__ double fma(double x, double y, double z);
__device__ float __expf(float x);
__device__ float __logf(float x);
__device__ float __fdividef(float x, float y);
__device__ float __saturatef(float x);
__device__ float __int_as_float(int x);
__device__ int __float_as_int(float x);
__device__ float __uint_as_float(unsigned int x);
__device__ unsigned int __float_as_uint(float x);
__device__ double __longlong_as_double(long long x);
__device__ long long __double_as_longlong(double x);
__host__ __device__ int abs(int x);
__host__ __device__ long long llabs(long long x);
// min/max: the integer and mixed overloads of math_functions.hpp.
#define TLC_VERIFY_MINMAX(R, A, B)                                                                 \
  __host__ __device__ R min(A a, B b);                                                             \
  __host__ __device__ R max(A a, B b);
TLC_VERIFY_MINMAX(int, int, int)
TLC_VERIFY_MINMAX(unsigned int, unsigned int, unsigned int)
TLC_VERIFY_MINMAX(unsigned int, int, unsigned int)
TLC_VERIFY_MINMAX(unsigned int, unsigned int, int)
TLC_VERIFY_MINMAX(long, long, long)
TLC_VERIFY_MINMAX(unsigned long, unsigned long, unsigned long)
TLC_VERIFY_MINMAX(long long, long long, long long)
TLC_VERIFY_MINMAX(unsigned long long, unsigned long long, unsigned long long)
TLC_VERIFY_MINMAX(float, float, float)
TLC_VERIFY_MINMAX(double, double, double)
#undef TLC_VERIFY_MINMAX

/* ---- __half and __nv_bfloat16 (cuda_fp16.h, cuda_bf16.h) ---- */
// Both convert implicitly from float, double and the integer types and to
// float and the integer types, as the toolkit's do; so mixing them with
// float in arithmetic is ambiguous here as it is there, and tlc converts
// through (float) explicitly.
struct __half;
struct __nv_bfloat16;
#define TLC_VERIFY_HALF(H, OTHER)                                                                  \
  struct __align__(2) H {                                                                          \
  protected:                                                                                       \
    unsigned short __x;                                                                            \
                                                                                                   \
  public:                                                                                          \
    H() = default;                                                                                 \
    explicit __host__ __device__ H(const OTHER f);                                                 \
    __host__ __device__ H(const float f);                                                          \
    __host__ __device__ H(const double f);                                                         \
    __host__ __device__ H(const short val);                                                        \
    __host__ __device__ H(const unsigned short val);                                               \
    __host__ __device__ H(const int val);                                                          \
    __host__ __device__ H(const unsigned int val);                                                 \
    __host__ __device__ H(const long val);                                                         \
    __host__ __device__ H(const unsigned long val);                                                \
    __host__ __device__ H(const long long val);                                                    \
    __host__ __device__ H(const unsigned long long val);                                           \
    __host__ __device__ operator float() const;                                                    \
    __host__ __device__ operator signed char() const;                                              \
    __host__ __device__ operator unsigned char() const;                                            \
    __host__ __device__ operator char() const;                                                     \
    __host__ __device__ operator short() const;                                                    \
    __host__ __device__ operator unsigned short() const;                                           \
    __host__ __device__ operator int() const;                                                      \
    __host__ __device__ operator unsigned int() const;                                             \
    __host__ __device__ operator long() const;                                                     \
    __host__ __device__ operator unsigned long() const;                                            \
    __host__ __device__ operator long long() const;                                                \
    __host__ __device__ operator unsigned long long() const;                                       \
    __host__ __device__ operator bool() const;                                                     \
    __host__ __device__ H &operator=(const float f);                                               \
    __host__ __device__ H &operator=(const double f);                                              \
    __host__ __device__ H &operator=(const short val);                                             \
    __host__ __device__ H &operator=(const unsigned short val);                                    \
    __host__ __device__ H &operator=(const int val);                                               \
    __host__ __device__ H &operator=(const unsigned int val);                                      \
    __host__ __device__ H &operator=(const long long val);                                         \
    __host__ __device__ H &operator=(const unsigned long long val);                                \
  };                                                                                               \
  __host__ __device__ H operator+(const H &lh, const H &rh);                                       \
  __host__ __device__ H operator-(const H &lh, const H &rh);                                       \
  __host__ __device__ H operator*(const H &lh, const H &rh);                                       \
  __host__ __device__ H operator/(const H &lh, const H &rh);                                       \
  __host__ __device__ H &operator+=(H &lh, const H &rh);                                           \
  __host__ __device__ H &operator-=(H &lh, const H &rh);                                           \
  __host__ __device__ H &operator*=(H &lh, const H &rh);                                           \
  __host__ __device__ H &operator/=(H &lh, const H &rh);                                           \
  __host__ __device__ H &operator++(H &h);                                                         \
  __host__ __device__ H &operator--(H &h);                                                         \
  __host__ __device__ H operator++(H &h, const int ignored);                                       \
  __host__ __device__ H operator--(H &h, const int ignored);                                       \
  __host__ __device__ H operator+(const H &h);                                                     \
  __host__ __device__ H operator-(const H &h);                                                     \
  __host__ __device__ bool operator==(const H &lh, const H &rh);                                   \
  __host__ __device__ bool operator!=(const H &lh, const H &rh);                                   \
  __host__ __device__ bool operator>(const H &lh, const H &rh);                                    \
  __host__ __device__ bool operator<(const H &lh, const H &rh);                                    \
  __host__ __device__ bool operator>=(const H &lh, const H &rh);                                   \
  __host__ __device__ bool operator<=(const H &lh, const H &rh);
TLC_VERIFY_HALF(__half, __nv_bfloat16)
TLC_VERIFY_HALF(__nv_bfloat16, __half)
#undef TLC_VERIFY_HALF
typedef struct __half half;
typedef struct __nv_bfloat16 nv_bfloat16;

#define TLC_VERIFY_HALF2(H2, H)                                                                    \
  struct __align__(4) H2 {                                                                         \
    H x;                                                                                           \
    H y;                                                                                           \
    H2() = default;                                                                                \
    __host__ __device__ H2(const H &a, const H &b);                                                \
  };                                                                                               \
  __host__ __device__ H2 operator+(const H2 &lh, const H2 &rh);                                    \
  __host__ __device__ H2 operator-(const H2 &lh, const H2 &rh);                                    \
  __host__ __device__ H2 operator*(const H2 &lh, const H2 &rh);                                    \
  __host__ __device__ H2 operator/(const H2 &lh, const H2 &rh);                                    \
  __host__ __device__ H2 &operator+=(H2 &lh, const H2 &rh);                                        \
  __host__ __device__ H2 &operator-=(H2 &lh, const H2 &rh);                                        \
  __host__ __device__ H2 &operator*=(H2 &lh, const H2 &rh);                                        \
  __host__ __device__ H2 &operator/=(H2 &lh, const H2 &rh);                                        \
  __host__ __device__ H2 operator-(const H2 &h);                                                   \
  __host__ __device__ bool operator==(const H2 &lh, const H2 &rh);                                 \
  __host__ __device__ bool operator!=(const H2 &lh, const H2 &rh);
TLC_VERIFY_HALF2(__half2, __half)
TLC_VERIFY_HALF2(__nv_bfloat162, __nv_bfloat16)
#undef TLC_VERIFY_HALF2
typedef struct __half2 half2;
typedef struct __nv_bfloat162 nv_bfloat162;
/* ---- __nv_fp8_e4m3 and __nv_fp8_e5m2 (cuda_fp8.h) ----
 * Every conversion is explicit and there are no operators, as in the
 * toolkit: tlc prints fp8 arithmetic on floats. */
#define TLC_VERIFY_FP8(F)                                                                          \
  struct __align__(1) F {                                                                          \
    unsigned char __x;                                                                             \
    F() = default;                                                                                 \
    explicit __host__ __device__ F(const __half f);                                                \
    explicit __host__ __device__ F(const __nv_bfloat16 f);                                         \
    explicit __host__ __device__ F(const float f);                                                 \
    explicit __host__ __device__ F(const double f);                                                \
    explicit __host__ __device__ F(const int val);                                                 \
    explicit __host__ __device__ F(const long long val);                                           \
    explicit __host__ __device__ operator float() const;                                           \
    explicit __host__ __device__ operator double() const;                                          \
    explicit __host__ __device__ operator __half() const;                                          \
    explicit __host__ __device__ operator __nv_bfloat16() const;                                   \
    explicit __host__ __device__ operator int() const;                                             \
    explicit __host__ __device__ operator long long() const;                                       \
    explicit __host__ __device__ operator bool() const;                                            \
  };
TLC_VERIFY_FP8(__nv_fp8_e4m3)
TLC_VERIFY_FP8(__nv_fp8_e5m2)
#undef TLC_VERIFY_FP8
/* cuda_fp16.h / cuda_bf16.h shuffle 16-bit floats too: a register reduction
 * into a float16 or bfloat16 fragment shuffles its accumulator. */
__device__ __half __shfl_xor_sync(unsigned int mask, __half var, int laneMask, int width = 32);
__device__ __nv_bfloat16 __shfl_xor_sync(unsigned int mask, __nv_bfloat16 var, int laneMask,
                                         int width = 32);
/* ... and T.shfl_sync / shfl_up / shfl_down of a 16-bit float. */
__device__ __half __shfl_sync(unsigned int mask, __half var, int srcLane, int width = 32);
__device__ __nv_bfloat16 __shfl_sync(unsigned int mask, __nv_bfloat16 var, int srcLane,
                                     int width = 32);
__device__ __half __shfl_up_sync(unsigned int mask, __half var, unsigned int delta, int width = 32);
__device__ __nv_bfloat16 __shfl_up_sync(unsigned int mask, __nv_bfloat16 var, unsigned int delta,
                                        int width = 32);
__device__ __half __shfl_down_sync(unsigned int mask, __half var, unsigned int delta,
                                   int width = 32);
__device__ __nv_bfloat16 __shfl_down_sync(unsigned int mask, __nv_bfloat16 var,
                                          unsigned int delta, int width = 32);

__host__ __device__ __half __float2half(const float a);
__host__ __device__ __half __float2half_rn(const float a);
__host__ __device__ float __half2float(const __half a);
__host__ __device__ __half2 __floats2half2_rn(const float a, const float b);
__host__ __device__ __half2 __float22half2_rn(const float2 a);
__host__ __device__ float2 __half22float2(const __half2 a);
__host__ __device__ float __low2float(const __half2 a);
__host__ __device__ float __high2float(const __half2 a);
__host__ __device__ __nv_bfloat16 __float2bfloat16(const float a);
__host__ __device__ __nv_bfloat16 __float2bfloat16_rn(const float a);
__host__ __device__ float __bfloat162float(const __nv_bfloat16 a);
__host__ __device__ unsigned short __half_as_ushort(const __half h);
__host__ __device__ unsigned short __bfloat16_as_ushort(const __nv_bfloat16 h);
__host__ __device__ __nv_bfloat162 __floats2bfloat162_rn(const float a, const float b);
__host__ __device__ __nv_bfloat162 __float22bfloat162_rn(const float2 a);
__host__ __device__ float2 __bfloat1622float2(const __nv_bfloat162 a);
__device__ __half __hadd(const __half a, const __half b);
__device__ __half __hmul(const __half a, const __half b);
__device__ __half __hmul_rn(const __half a, const __half b);
__device__ __half __hfma(const __half a, const __half b, const __half c);
__device__ __half __hmax(const __half a, const __half b);
__device__ __half atomicAdd(__half *address, __half val);                      // sm_70+
__device__ __nv_bfloat16 atomicAdd(__nv_bfloat16 *address, __nv_bfloat16 val); // sm_80+
__device__ __half __hmin(const __half a, const __half b);
__device__ __half2 __hadd2(const __half2 a, const __half2 b);
__device__ __half2 __hmul2(const __half2 a, const __half2 b);
__device__ __half2 __hfma2(const __half2 a, const __half2 b, const __half2 c);
__device__ __nv_bfloat16 __hadd(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmul(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hmul_rn(const __nv_bfloat16 a, const __nv_bfloat16 b);
__device__ __nv_bfloat16 __hfma(const __nv_bfloat16 a, const __nv_bfloat16 b, const __nv_bfloat16 c);
__device__ __nv_bfloat162 __hadd2(const __nv_bfloat162 a, const __nv_bfloat162 b);
__device__ __nv_bfloat162 __hmul2(const __nv_bfloat162 a, const __nv_bfloat162 b);
__device__ __nv_bfloat162 __hfma2(const __nv_bfloat162 a, const __nv_bfloat162 b, const __nv_bfloat162 c);

/* ---- Hopper tensor maps (cuda.h), for TMA kernels passed as __grid_constant__ ---- */
typedef struct __align__(128) CUtensorMap_st {
  unsigned long long opaque[16];
} CUtensorMap;
/* The launcher encodes them through the driver entry point (cudaTypedefs.h). */
typedef unsigned long long cuuint64_t;
typedef unsigned int cuuint32_t;
typedef enum { CUDA_SUCCESS = 0 } CUresult;
typedef enum {
  CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0,
  CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1,
  CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2,
  CU_TENSOR_MAP_DATA_TYPE_INT32 = 3,
  CU_TENSOR_MAP_DATA_TYPE_INT64 = 5,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT16 = 6,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT32 = 7,
  CU_TENSOR_MAP_DATA_TYPE_FLOAT64 = 8,
  CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 = 9,
} CUtensorMapDataType;
typedef enum { CU_TENSOR_MAP_INTERLEAVE_NONE = 0 } CUtensorMapInterleave;
typedef enum {
  CU_TENSOR_MAP_SWIZZLE_NONE = 0,
  CU_TENSOR_MAP_SWIZZLE_32B = 1,
  CU_TENSOR_MAP_SWIZZLE_64B = 2,
  CU_TENSOR_MAP_SWIZZLE_128B = 3,
} CUtensorMapSwizzle;
typedef enum { CU_TENSOR_MAP_L2_PROMOTION_L2_256B = 3 } CUtensorMapL2promotion;
typedef enum { CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE = 0 } CUtensorMapFloatOOBfill;
typedef CUresult (*PFN_cuTensorMapEncodeTiled_v12000)(
    CUtensorMap *tensorMap, CUtensorMapDataType tensorDataType, cuuint32_t tensorRank, void *globalAddress,
    const cuuint64_t *globalDim, const cuuint64_t *globalStrides, const cuuint32_t *boxDim,
    const cuuint32_t *elementStrides, CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion l2Promotion, CUtensorMapFloatOOBfill oobFill);
enum cudaDriverEntryPointQueryResult { cudaDriverEntryPointSuccess = 0 };
enum { cudaEnableDefault = 0 };
/* Thread-block clusters: the launcher asks how many 2-block clusters fit at once. */
enum cudaLaunchAttributeID { cudaLaunchAttributeClusterDimension = 4 };
union cudaLaunchAttributeValue {
  char pad[64];
  struct {
    unsigned int x, y, z;
  } clusterDim;
};
typedef struct cudaLaunchAttribute_st {
  enum cudaLaunchAttributeID id;
  char pad[8 - sizeof(enum cudaLaunchAttributeID)];
  union cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
  dim3 gridDim;
  dim3 blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute *attrs;
  unsigned int numAttrs;
} cudaLaunchConfig_t;
extern "C" __host__ cudaError_t cudaOccupancyMaxActiveClusters(int *numClusters, const void *func,
                                                               const cudaLaunchConfig_t *config);
extern "C" __host__ cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                                 unsigned int cudaVersion,
                                                                 unsigned long long flags,
                                                                 enum cudaDriverEntryPointQueryResult *status);

#endif
