/* Includes tlc-generated headers and calls every launcher with the argument
   types a caller has at hand (float *, int *, void *...). Compiled as C11 and
   as C++ by header-compiles.test: the headers must be valid, warning-free,
   self-contained (only <cuda_runtime_api.h>) and safe to include twice. */
#include "my-kernels.h"
#include "my-kernels.h"
#include "gemm.h"
#include "reserved.h"

int main(void) {
  float *a = 0, *b = 0, *c = 0;
  int *n = 0;
  const void *x = 0;
  void *y = 0;
  cudaStream_t stream = 0;
  cudaError_t err = mix(a, b, c, n, stream);
  if (err == cudaSuccess)
    err = cube(x, y, stream);
  if (err == cudaSuccess)
    err = gemm(x, x, y, 0);
  if (err == cudaSuccess)
    err = reserved(a, b, x, stream);
  return err == cudaSuccess ? 0 : 1;
}
