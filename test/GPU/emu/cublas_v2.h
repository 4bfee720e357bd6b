// Emulated cublasGemmEx (column-major, the subset the harness uses).
#pragma once
#include "cuda_emu.h"
typedef int cublasStatus_t;
enum { CUBLAS_STATUS_SUCCESS = 0 };
typedef struct EmuCublas *cublasHandle_t;
struct EmuCublas { int x; };
typedef enum { CUBLAS_OP_N, CUBLAS_OP_T } cublasOperation_t;
typedef enum { CUDA_R_16F, CUDA_R_16BF, CUDA_R_32F } cudaDataType;
typedef enum { CUBLAS_COMPUTE_32F } cublasComputeType_t;
typedef enum { CUBLAS_GEMM_DEFAULT } cublasGemmAlgo_t;
inline cublasStatus_t cublasCreate(cublasHandle_t *h) { *h = new EmuCublas{0}; return 0; }
inline cublasStatus_t cublasDestroy(cublasHandle_t h) { delete h; return 0; }
inline cublasStatus_t cublasSetStream(cublasHandle_t, cudaStream_t) { return 0; }
inline const char *cublasGetStatusString(cublasStatus_t) { return "emu"; }
inline float emu_ld(const void *p, cudaDataType t, long long i) {
  if (t == CUDA_R_16F) return (float)((const __half *)p)[i];
  if (t == CUDA_R_16BF) return (float)((const __nv_bfloat16 *)p)[i];
  return ((const float *)p)[i];
}
inline cublasStatus_t cublasGemmEx(cublasHandle_t, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                                   const void *alpha, const void *A, cudaDataType at, int lda, const void *B,
                                   cudaDataType bt, int ldb, const void *beta, void *C, cudaDataType ct, int ldc,
                                   cublasComputeType_t, cublasGemmAlgo_t) {
  float al = *(const float *)alpha, be = *(const float *)beta;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      float acc = 0;
      for (int l = 0; l < k; l++) {
        float a = ta == CUBLAS_OP_N ? emu_ld(A, at, i + (long long)l * lda) : emu_ld(A, at, l + (long long)i * lda);
        float b = tb == CUBLAS_OP_N ? emu_ld(B, bt, l + (long long)j * ldb) : emu_ld(B, bt, j + (long long)l * ldb);
        acc += a * b;
      }
      long long ci = i + (long long)j * ldc;
      float c = be != 0 ? emu_ld(C, ct, ci) : 0;
      float v = al * acc + be * c;
      if (ct == CUDA_R_16F) ((__half *)C)[ci] = __half(v);
      else if (ct == CUDA_R_16BF) ((__nv_bfloat16 *)C)[ci] = __nv_bfloat16(v);
      else ((float *)C)[ci] = v;
    }
  return 0;
}
