// Blocks per SM that a kernel asks for in its __launch_bounds__
// (lib/Analysis/Occupancy.c).
#ifndef TLC_OCCUPANCY_H
#define TLC_OCCUPANCY_H

#include "tlc/IR.h"

// The minimum blocks per SM of `__launch_bounds__(threads, n)`: the
// warp-specialize pass's choice for its kernels; 2 for a register-heavy
// kernel without gemm whose largest fragment leaves room under the
// two-block register cap; 1 otherwise.
int tl_kernel_min_blocks(const TlKernel *k);

#endif
