// The test-and-benchmark harness (lib/Harness/): `tlc --harness FILE.tl`
// writes one .cu with the compiled kernels, a reference lowering of the same
// program (from the untouched tile IR: no partitioning, no pipelining, no
// vectors, fp32 accumulation for gemm), and a main() that checks every
// kernel against its reference on seeded random data and times it.
#ifndef TLC_HARNESS_H
#define TLC_HARNESS_H

#include "tlc/IR.h"

typedef struct TlHarnessOptions {
  bool cublas;      // --cublas: also time cuBLAS for kernels that are one GEMM
  int iterations;   // timed runs per kernel (median reported), default 100
  unsigned seed;    // random data seed, default 1234
  const char *const *sizes; // --size NAME=VALUE: what the launchers get for runtime sizes
  int nsizes;
  const char *const *data; // --data NAME=SPEC: inputs filled by SPEC instead of random values
  int ndata;
} TlHarnessOptions;

// Is SPEC (the part after NAME= of --data) a fill the harness knows:
// offsets:TOTAL:MAX, range:LO:HI, arange or const:V (docs/harness.md)?
bool tl_harness_data_spec_ok(const char *spec);

// ref: the module straight out of sema (tile IR); compiled: the same program
// after the pass pipeline (thread IR). Writes the whole harness to out.
bool tl_emit_harness(TlArena *a, const TlModule *ref, const TlModule *compiled,
                     const TlHarnessOptions *o, TlBuf *out, TlDiag *d);

#endif
