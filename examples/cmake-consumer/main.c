/* Calls the kernel of add.tl from plain C through the header tlc generated
   (add.h, found on the include path tlc_add_kernels set). It checks the sum on
   the host, so it also serves as a smoke test on a machine with a GPU; the
   package test only compiles and links it. */
#include <stdio.h>
#include <stdlib.h>

#include "add.h"

enum { M = 1024, N = 1024 }; /* the shape in add.tl, also in add.h's comments */

/* Prints the failing call and returns 1: a C program has no exceptions, so
   every CUDA call is checked where it is made. */
static int check(cudaError_t err, const char *what) {
  if (err == cudaSuccess)
    return 0;
  fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
  return 1;
}

int main(void) {
  size_t bytes = (size_t)M * N * sizeof(float);
  float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
  if (!a || !b || !c)
    return 1;
  for (size_t i = 0; i < (size_t)M * N; i++) {
    a[i] = (float)(i % 7);
    b[i] = (float)(i % 5);
  }
  void *da = NULL, *db = NULL, *dc = NULL;
  int failed = check(cudaMalloc(&da, bytes), "cudaMalloc") || check(cudaMalloc(&db, bytes), "cudaMalloc") ||
               check(cudaMalloc(&dc, bytes), "cudaMalloc") ||
               check(cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice), "cudaMemcpy") ||
               check(cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice), "cudaMemcpy") ||
               check(add(da, db, dc, 0), "add") || check(cudaDeviceSynchronize(), "add (running)") ||
               check(cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  size_t wrong = 0;
  for (size_t i = 0; !failed && i < (size_t)M * N; i++)
    wrong += c[i] != a[i] + b[i];
  if (!failed)
    printf("%s: %zu of %zu sums wrong\n", wrong ? "FAIL" : "ok", wrong, (size_t)M * N);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  free(a);
  free(b);
  free(c);
  return failed || wrong;
}
