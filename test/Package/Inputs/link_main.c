/* Calls the launchers of examples/elementwise_add.tl and
   examples/elementwise_add_fp16.tl through their generated headers; linked
   with the nvcc-compiled .cu files by header-compiles.test, so the symbols
   the headers declare must be the ones the .cu files define. */
#include "add.h"
#include "add_fp16.h"

int main(void) {
  void *p = 0;
  if (add(p, p, p, 0) != cudaSuccess)
    return 1;
  return add_fp16(p, p, p, 0) != cudaSuccess;
}
