// Stand-in for cuBLAS in the CPU emulator: cublasGemmEx by the BLAS
// definition (column-major, op(A) is m x k, op(B) is k x n), which is what
// checks the harness's row-major -> column-major argument mapping.
#pragma once
#include "cuda_emu.h"

typedef int cublasStatus_t;
enum { CUBLAS_STATUS_SUCCESS = 0 };
struct EmuCublas {
  int unused;
};
typedef EmuCublas *cublasHandle_t;
typedef enum { CUBLAS_OP_N, CUBLAS_OP_T } cublasOperation_t;
typedef enum { CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F } cudaDataType;
typedef enum { CUBLAS_COMPUTE_32F } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT } cublasGemmAlgo_t;

inline cublasStatus_t cublasCreate(cublasHandle_t *h) {
  *h = new EmuCublas{0};
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasDestroy(cublasHandle_t h) {
  delete h;
  return CUBLAS_STATUS_SUCCESS;
}
inline cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) { return CUBLAS_STATUS_SUCCESS; }
inline const char *cublasGetStatusString(cublasStatus_t) { return "emulated cuBLAS error"; }

inline float emu_load(const void *p, cudaDataType t, long long i) {
  if (t == CUDA_R_16F)
    return (float)((const __half *)p)[i];
  if (t == CUDA_R_16BF)
    return (float)((const __nv_bfloat16 *)p)[i];
  return ((const float *)p)[i];
}

inline cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                   int k, const void *alpha, const void *A, cudaDataType at, int lda,
                                   const void *B, cudaDataType bt, int ldb, const void *beta, void *C,
                                   cudaDataType ct, int ldc, cublasComputeType_t, cublasGemmAlgo_t) {
  // op(A) as m x k and op(B) as k x n in float, row by row, then the products.
  std::vector<float> a((size_t)m * k), b((size_t)k * n);
  for (int i = 0; i < m; i++)
    for (int l = 0; l < k; l++)
      a[(size_t)i * k + l] = emu_load(A, at, ta == CUBLAS_OP_N ? i + (long long)l * lda : l + (long long)i * lda);
  for (int l = 0; l < k; l++)
    for (int j = 0; j < n; j++)
      b[(size_t)l * n + j] = emu_load(B, bt, tb == CUBLAS_OP_N ? l + (long long)j * ldb : j + (long long)l * ldb);
  float al = *(const float *)alpha, be = *(const float *)beta;
  std::vector<float> acc((size_t)n);
  for (int i = 0; i < m; i++) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (int l = 0; l < k; l++)
      for (int j = 0; j < n; j++)
        acc[(size_t)j] += a[(size_t)i * k + l] * b[(size_t)l * n + j];
    for (int j = 0; j < n; j++) {
      long long c = i + (long long)j * ldc;
      float v = al * acc[(size_t)j] + (be != 0 ? be * emu_load(C, ct, c) : 0.0f);
      if (ct == CUDA_R_16F)
        ((__half *)C)[c] = __half(v);
      else if (ct == CUDA_R_16BF)
        ((__nv_bfloat16 *)C)[c] = __nv_bfloat16(v);
      else
        ((float *)C)[c] = v;
    }
  }
  return CUBLAS_STATUS_SUCCESS;
}
