// Uses every name tlc_verify_prelude.h declares, the way CUDA code does, so
// that compiling this file with nvcc against the real toolkit and parsing it
// with tlc-verify against the prelude keeps the two in step (prelude-uses
// tests). prelude-in-step.test checks that no declared name is missing here.
#ifndef TLC_VERIFY_PRELUDE
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda_fp8.h>
#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdint.h>
#include <cooperative_groups.h>
#include <curand_kernel.h>
// tlc defines its grid barrier in the generated file; the prelude declares it.
__device__ __forceinline__ void tl_grid_sync() { cooperative_groups::this_grid().sync(); }
// And its T.rng_* helpers (curand's Philox generator), the same way.
typedef curandStatePhilox4_32_10_t tl_rng_t;
__device__ __forceinline__ void tl_rng_init(tl_rng_t *s, unsigned long long seed, unsigned long long seq,
                                            unsigned long long off) { curand_init(seed, seq, off, s); }
__device__ __forceinline__ unsigned tl_rng_rand(tl_rng_t *s) { return curand(s); }
__device__ __forceinline__ float tl_rng_uniform(tl_rng_t *s) { return curand_uniform(s); }
__device__ __forceinline__ double tl_rng_uniform_double(tl_rng_t *s) { return curand_uniform_double(s); }
__device__ __forceinline__ float tl_rng_normal(tl_rng_t *s) { return curand_normal(s); }
__device__ __forceinline__ double tl_rng_normal_double(tl_rng_t *s) { return curand_normal_double(s); }
#endif

static_assert(cudaSuccess == 0 && cudaErrorInvalidValue == 1 && cudaErrorMemoryAllocation == 2 &&
                  cudaErrorInvalidConfiguration == 9 && cudaErrorLaunchFailure == 719,
              "cudaError values");
static_assert(cudaFuncAttributeMaxDynamicSharedMemorySize == 8 &&
                  cudaFuncAttributePreferredSharedMemoryCarveout == 9,
              "cudaFuncAttribute values");
static_assert(sizeof(int8_t) == 1 && sizeof(int16_t) == 2 && sizeof(int32_t) == 4 && sizeof(int64_t) == 8 &&
                  sizeof(uint8_t) == 1 && sizeof(uint16_t) == 2 && sizeof(uint32_t) == 4 &&
                  sizeof(uint64_t) == 8 && sizeof(uintptr_t) == 8 && sizeof(size_t) == 8 &&
                  sizeof(ptrdiff_t) == 8,
              "integer types");
static_assert(sizeof(char4) == 4 && sizeof(uchar4) == 4 && sizeof(short2) == 4 && sizeof(short4) == 8 &&
                  sizeof(ushort2) == 4 && sizeof(ushort4) == 8 && sizeof(int2) == 8 && sizeof(int3) == 12 &&
                  sizeof(int4) == 16 && sizeof(uint2) == 8 && sizeof(uint3) == 12 && sizeof(uint4) == 16 &&
                  sizeof(float2) == 8 && sizeof(float3) == 12 && sizeof(float4) == 16 &&
                  sizeof(double2) == 16 && sizeof(longlong2) == 16 && sizeof(ulonglong2) == 16,
              "vector types");
static_assert(alignof(float4) == 16 && alignof(uint4) == 16 && alignof(float2) == 8 && alignof(double2) == 16,
              "vector alignment");
static_assert(sizeof(__half) == 2 && sizeof(__nv_bfloat16) == 2 && sizeof(__half2) == 4 &&
                  sizeof(__nv_bfloat162) == 4 && sizeof(half) == 2 && sizeof(half2) == 4 &&
                  sizeof(nv_bfloat16) == 2 && sizeof(nv_bfloat162) == 4,
              "half types");
static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) == 128 && sizeof(struct CUtensorMap_st) == 128,
              "tensor map");
static_assert(sizeof(dim3) == 12, "dim3");

__device__ float math(float x, double d) {
  float f = expf(x) + exp2f(x) + expm1f(x) + logf(x) + log2f(x) + log1pf(x) + sqrtf(x) + rsqrtf(x) + tanhf(x) +
            sinf(x) + cosf(x) + erff(x) + fabsf(x) + floorf(x) + ceilf(x) + roundf(x) + truncf(x) + fminf(x, 1.0f) +
            fmaxf(x, 1.0f) + powf(x, 2.0f) + fmodf(x, 3.0f) + fmaf(x, x, x) + __expf(x) + __logf(x) +
            __fdividef(x, 3.0f) + __saturatef(x);
  double g = exp(d) + exp2(d) + expm1(d) + log(d) + log2(d) + log1p(d) + sqrt(d) + rsqrt(d) + tanh(d) + sin(d) +
             cos(d) + erf(d) + fabs(d) + floor(d) + ceil(d) + round(d) + trunc(d) + fmin(d, 1.0) + fmax(d, 1.0) +
             pow(d, 2.0) + fmod(d, 3.0) + fma(d, d, d);
  f += __int_as_float(0x7f800000) + __uint_as_float(0x7f800000u) + (float)__float_as_int(x) +
       (float)__float_as_uint(x);
  g += __longlong_as_double(0x7ff0000000000000LL) + (double)__double_as_longlong(d);
  int i = min(1, 2) + max(3, 4) + abs(-5);
  unsigned u = min(1u, 2u) + max(3u, 4u) + min(1, 2u) + max(3u, 4);
  long l = min(1L, 2L) + max(3L, 4L);
  unsigned long ul = min(1UL, 2UL) + max(3UL, 4UL);
  long long ll = min(1LL, 2LL) + max(3LL, 4LL) + llabs(-6LL);
  unsigned long long ull = min(1ULL, 2ULL) + max(3ULL, 4ULL);
  float mf = min(1.0f, 2.0f) + max(1.0f, 2.0f);
  double md = min(1.0, 2.0) + max(1.0, 2.0);
  return f + (float)g + (float)(i + u + l + ul + ll + ull) + mf + (float)md;
}

// fp8: explicit conversions only, in and out (tlc prints fp8 math on floats).
__device__ float fp8s(const __nv_fp8_e4m3* ap, __nv_fp8_e5m2* bp, __half h, __nv_bfloat16 b) {
  __nv_fp8_e4m3 a = ap[threadIdx.x], a1 = (__nv_fp8_e4m3)(1.0f), a2 = (__nv_fp8_e4m3)(2.0);
  __nv_fp8_e4m3 a3 = (__nv_fp8_e4m3)(h), a4 = (__nv_fp8_e4m3)(b), a5 = (__nv_fp8_e4m3)(5), a6 = (__nv_fp8_e4m3)(6LL);
  __nv_fp8_e5m2 e = (__nv_fp8_e5m2)((float)a * (float)a1);
  bp[threadIdx.x] = e;
  __half h2 = (__half)a2;
  __nv_bfloat16 b2 = (__nv_bfloat16)a3;
  return (float)e + (float)(double)a4 + (float)(int)a5 + (float)(long long)a6 + (float)h2 + (float)b2 +
         ((bool)a ? 1.0f : 0.0f);
}

__device__ float halves(const __half* hp, const __nv_bfloat16* bp) {
  __half h = hp[threadIdx.x], h1 = (__half)(1.0f), h2 = __half(2.0), h3 = (__half)(3), h4 = (__half)(4u);
  __half h5 = (__half)(5LL), h6 = (__half)((short)6), h7 = (__half)((unsigned short)7), h8 = (__half)(8L);
  __half h9 = (__half)(9UL), h10 = (__half)(10ULL);
  __nv_bfloat16 b = bp[threadIdx.x], b1 = (__nv_bfloat16)(1.0f), b2 = (__nv_bfloat16)(h1);
  __half h11 = (__half)(b);
  h11 = atomicAdd((__half*)hp, h11); // T.atomic_add on fp16 and bf16 tiles
  b2 = atomicAdd((__nv_bfloat16*)bp, b2);
  h = h + h1 - h2 * h3 / h4;
  h += h5;
  h -= h6;
  h *= h7;
  h /= h8;
  ++h;
  --h;
  h++;
  h--;
  h = -h + +h9;
  h = 1.0f;
  h = 2.0;
  h = (short)1;
  h = (unsigned short)1;
  h = 1;
  h = 1u;
  h = 1LL;
  h = 1ULL;
  b = b + b1 - b2 * b / b1;
  b += b1;
  b -= b1;
  b *= b1;
  b /= b1;
  ++b;
  --b;
  b++;
  b--;
  b = -b + +b1;
  b = 1.0f;
  b = 2.0;
  b = (short)1;
  b = (unsigned short)1;
  b = 1;
  b = 1u;
  b = 1LL;
  b = 1ULL;
  bool c = h == h1 || h != h2 || h < h3 || h > h4 || h <= h5 || h >= h6 || b == b1 || b != b2 || b < b1 ||
           b > b1 || b <= b1 || b >= b1 || (bool)h10 || (bool)b;
  int i = (int)h + (int)b + (signed char)h + (unsigned char)h + (char)h + (short)h + (unsigned short)h +
          (int)(unsigned int)h + (int)(long)h + (int)(unsigned long)h + (int)(long long)h +
          (int)(unsigned long long)h;
  __half2 p(h, h1), q = __floats2half2_rn(1.0f, 2.0f), r = __float22half2_rn(make_float2(1.0f, 2.0f));
  p = p + q - r * p / q;
  p += q;
  p -= q;
  p *= q;
  p /= q;
  p = -p;
  c = c || p == q || p != r;
  __nv_bfloat162 bp2(b, b1), bq = __floats2bfloat162_rn(1.0f, 2.0f), br = __float22bfloat162_rn(make_float2(1, 2));
  bp2 = bp2 + bq - br * bp2 / bq;
  bp2 += bq;
  bp2 -= bq;
  bp2 *= bq;
  bp2 /= bq;
  bp2 = -bp2;
  c = c || bp2 == bq || bp2 != br;
  float2 f2 = __half22float2(p), g2 = __bfloat1622float2(bp2);
  half hh = __float2half(1.0f) + __float2half_rn(2.0f) + __hadd(h, h1) + __hmul(h, h1) + __hmul_rn(h, h1) + __hfma(h, h1, h2) +
            __hmax(h, h1) + __hmin(h, h1);
  half2 hh2 = __hadd2(p, q) + __hmul2(p, q) + __hfma2(p, q, r);
  nv_bfloat16 bb = __float2bfloat16(1.0f) + __float2bfloat16_rn(2.0f) + __hadd(b, b1) + __hmul(b, b1) + __hmul_rn(b, b1) +
                   __hfma(b, b1, b2);
  nv_bfloat162 bb2 = __hadd2(bp2, bq) + __hmul2(bp2, bq) + __hfma2(bp2, bq, br);
  const float bits = (float)(__half_as_ushort(hh) + __bfloat16_as_ushort(bb));
  return __half2float(hh) + __bfloat162float(bb) + __low2float(hh2) + __high2float(hh2) + f2.x + g2.y + bits +
         (float)(h11) + (float)bb2.x + (float)i + (c ? 1.0f : 0.0f);
}

__device__ float vectors(const float4* f4, const uint4* u4, const float* f, const int* i, const double* d) {
  char4 c4 = {1, 2, 3, 4};
  uchar4 uc4 = {1, 2, 3, 4};
  short2 s2 = {1, 2};
  short4 s4 = {1, 2, 3, 4};
  ushort2 us2 = {1, 2};
  ushort4 us4 = {1, 2, 3, 4};
  int2 i2 = make_int2(1, 2);
  int3 i3 = {1, 2, 3};
  int4 i4 = make_int4(1, 2, 3, 4);
  uint2 u2 = make_uint2(1, 2);
  uint3 u3 = {1, 2, 3};
  uint4 v4 = make_uint4(1, 2, 3, 4);
  float2 fl2 = make_float2(1, 2);
  float3 fl3 = {1, 2, 3};
  float4 fl4 = make_float4(1, 2, 3, 4);
  double2 d2 = make_double2(1, 2);
  longlong2 ll2 = {1, 2};
  ulonglong2 ull2 = {1, 2};
  dim3 dm(1, 2, 3), dn = u3;
  uint3 back = dm;
  float4 g4 = __ldg(f4);
  float2 g2 = __ldg((const float2*)f);
  uint4 w4 = __ldg(u4);
  float s = __ldg(f) + (float)__ldg(i) + (float)__ldg(d) + g4.x + g2.y + (float)w4.z;
  return s + c4.x + uc4.y + s2.x + s4.w + us2.y + us4.z + i2.y + i3.z + i4.w + u2.x + u3.y + v4.w + fl2.x + fl3.z +
         fl4.w + (float)d2.y + (float)ll2.x + (float)ull2.y + (float)(dm.x + dn.y + back.z);
}

__device__ unsigned warps(int* ip, unsigned* up, unsigned long long* ullp, float* fp, double* dp, const void* sp) {
  unsigned mask = __activemask() & __ballot_sync(0xffffffffu, threadIdx.x < 16);
  int v = __any_sync(mask, 1) + __all_sync(mask, 1);
  v += __shfl_sync(mask, v, 0) + __shfl_up_sync(mask, v, 1) + __shfl_down_sync(mask, v, 1) +
       __shfl_xor_sync(mask, v, 1);
  unsigned u = __shfl_xor_sync(mask, 1u, 1);
  long long ll = __shfl_xor_sync(mask, 1LL, 1);
  unsigned long long ull = __shfl_xor_sync(mask, 1ULL, 1);
  float f = __shfl_xor_sync(mask, 1.0f, 1);
  double d = __shfl_xor_sync(mask, 1.0, 1);
  __syncwarp();
  __syncwarp(mask);
  __threadfence();
  __threadfence_block();
  v += atomicAdd(ip, 1) + atomicExch(ip, 2) + atomicMax(ip, 3) + atomicMin(ip, 4) + atomicCAS(ip, 5, 6);
  u += atomicAdd(up, 1u) + atomicExch(up, 2u) + atomicMax(up, 3u) + atomicMin(up, 4u) + atomicCAS(up, 5u, 6u);
  ull += atomicAdd(ullp, 1ULL) + atomicExch(ullp, 2ULL) + atomicCAS(ullp, 5ULL, 6ULL);
  f += atomicAdd(fp, 1.0f) + atomicExch(fp, 2.0f);
  d += atomicAdd(dp, 1.0);
  size_t a = __cvta_generic_to_shared(sp);
  return (unsigned)(v + ll + ull + f + d + a + clock64()) + u;
}

extern "C" __global__ void __launch_bounds__(128, 1) uses_kernel(float* __restrict__ out, const __half* __restrict__ hp, const __nv_bfloat16* __restrict__ bp, const float4* __restrict__ f4, const uint4* __restrict__ u4, const int* __restrict__ ip, const double* __restrict__ dp, int* __restrict__ ai, unsigned* __restrict__ au, unsigned long long* __restrict__ aull, float* __restrict__ af, double* __restrict__ ad, const __grid_constant__ CUtensorMap tmap) {
  extern __shared__ __align__(1024) unsigned char tl_smem[];
  __shared__ int counts[4];
  float x = out[blockIdx.x * blockDim.x + threadIdx.x] + (float)(gridDim.x + warpSize) + (float)tmap.opaque[0];
  x += math(x, (double)x) + halves(hp, bp) + vectors(f4, u4, out, ip, dp);
  x += (float)warps(ai, au, aull, af, ad, tl_smem);
  __syncthreads();
  x += (float)(__syncthreads_count(x > 0.0f) + __syncthreads_and(1) + __syncthreads_or(0) + counts[0]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

// What a TMA kernel's launcher does: encode a tensor map via the runtime's
// driver entry point.
static cudaError_t tensor_map(CUtensorMap *map, const void *base, const cuuint64_t *dims,
                              const cuuint64_t *strides, const cuuint32_t *box) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult found;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)
    return cudaErrorNotSupported;
  PFN_cuTensorMapEncodeTiled_v12000 encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;
  const cuuint32_t unit[2] = {1, 1};
  const CUtensorMapInterleave interleave = CU_TENSOR_MAP_INTERLEAVE_NONE;
  const CUtensorMapL2promotion promotion = CU_TENSOR_MAP_L2_PROMOTION_L2_256B;
  const CUtensorMapFloatOOBfill fill = CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE;
  const CUtensorMapDataType types[9] = {
      CU_TENSOR_MAP_DATA_TYPE_UINT8,   CU_TENSOR_MAP_DATA_TYPE_UINT16,  CU_TENSOR_MAP_DATA_TYPE_UINT32,
      CU_TENSOR_MAP_DATA_TYPE_INT32,   CU_TENSOR_MAP_DATA_TYPE_INT64,   CU_TENSOR_MAP_DATA_TYPE_FLOAT16,
      CU_TENSOR_MAP_DATA_TYPE_FLOAT32, CU_TENSOR_MAP_DATA_TYPE_FLOAT64, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16};
  const CUtensorMapSwizzle swizzles[4] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                                          CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};
  for (int i = 0; i < 9; i++) {
    CUresult r = encode(map, types[i], 2, (void *)base, dims, strides, box, unit, interleave, swizzles[i % 4],
                        promotion, fill);
    if (r != CUDA_SUCCESS)
      return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(128, 1) clustered_kernel(float* __restrict__ out) {
  out[blockIdx.x * 128 + threadIdx.x] = 0.0f;
}

extern "C" cudaError_t uses_cluster(float* out, cudaStream_t stream) {
  static_assert(cudaLaunchAttributeClusterDimension == 4 && sizeof(cudaLaunchAttribute) == 72,
                "cluster launch attributes as in the toolkit");
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr = {};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = 2;
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3(2, 1, 1);
  cfg.blockDim = dim3(128, 1, 1);
  cfg.dynamicSmemBytes = 0;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int clusters = 0;
  const struct cudaLaunchConfig_st *cfgp = &cfg;
  const struct cudaLaunchAttribute_st *attrp = &attr;
  const enum cudaLaunchAttributeID aid = attrp->id;
  if (aid != cudaLaunchAttributeClusterDimension ||
      cudaOccupancyMaxActiveClusters(&clusters, (const void *)clustered_kernel, cfgp) != cudaSuccess)
    return cudaErrorInvalidValue;
  clustered_kernel<<<dim3(2, 1, 1), dim3(128, 1, 1), 0, stream>>>(out);
  return cudaGetLastError();
}

extern "C" __global__ void __launch_bounds__(128, 1) grid_synced_kernel(float* __restrict__ out) {
  out[blockIdx.x] = 1.0f;
  tl_grid_sync();
  out[blockIdx.x + 2] = out[(blockIdx.x + 1) % 2];
}

extern "C" cudaError_t uses_grid_sync(float* out, cudaStream_t stream) {
  void *args[] = {(void *)&out, nullptr};
  return cudaLaunchCooperativeKernel((const void *)grid_synced_kernel, dim3(2, 1, 1), dim3(128, 1, 1), args, 0, stream);
}

extern "C" cudaError_t uses(float* out, const __half* hp, const __nv_bfloat16* bp, const float4* f4, const uint4* u4, const int* ip, const double* dp, int* ai, unsigned* au, unsigned long long* aull, float* af, double* ad, const CUtensorMap tmap, cudaStream_t stream) {
  const size_t smem = 65536;
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&sms, (cudaDeviceAttr)cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)
    return cudaErrorInvalidValue;
  const cuuint64_t dims[2] = {64, 64}, strides[1] = {128};
  const cuuint32_t box[2] = {64, 8};
  CUtensorMap local;
  if (tensor_map(&local, out, dims, strides, box) != cudaSuccess)
    return cudaErrorInvalidValue;
  cudaError_t err = cudaFuncSetAttribute(uses_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
  if (err != cudaSuccess)
    return err;
  err = cudaFuncSetAttribute((const void*)uses_kernel, cudaFuncAttributePreferredSharedMemoryCarveout, 100);
  if (err != cudaSuccess)
    return err;
  void* scratch = nullptr; // a T.alloc_global buffer of a prim_func's launcher
  if ((err = cudaMallocAsync(&scratch, 64, stream)) != cudaSuccess ||
      (err = cudaFreeAsync(scratch, stream)) != cudaSuccess)
    return err;
  uses_kernel<<<dim3(4, 1, 1), dim3(128, 1, 1), smem, stream>>>(out, hp, bp, f4, u4, ip, dp, ai, au, aull, af, ad, tmap);
  err = cudaPeekAtLastError();
  if (err != cudaSuccess)
    return err;
  if (cudaGetErrorString(err) == nullptr || cudaDeviceSynchronize() != cudaSuccess)
    return cudaErrorLaunchFailure;
  return cudaGetLastError();
}

extern "C" __global__ void __launch_bounds__(64, 1) random_draws_kernel(unsigned* __restrict__ bits, float* __restrict__ f,
                                                                  double* __restrict__ d) {
  tl_rng_t tl_rng;
  tl_rng_init(&tl_rng, (unsigned long long)(7LL), (unsigned long long)(threadIdx.x), (unsigned long long)(0LL));
  bits[threadIdx.x] = tl_rng_rand(&tl_rng);
  f[threadIdx.x] = tl_rng_uniform(&tl_rng) + tl_rng_normal(&tl_rng);
  d[threadIdx.x] = tl_rng_uniform_double(&tl_rng) + tl_rng_normal_double(&tl_rng);
}

extern "C" cudaError_t random_draws(unsigned* bits, float* f, double* d, cudaStream_t stream) {
  random_draws_kernel<<<dim3(1, 1, 1), dim3(64, 1, 1), 0, stream>>>(bits, f, d);
  return cudaGetLastError();
}
