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

// 32-bit registers per thread that the kernel's fragments hold together
// (each fragment counted once; TileLang kernels allocate them at the top and
// keep them across the main loop, so this is what is live in it).
int64_t tl_kernel_fragment_registers(const TlKernel *k);
// The registers a thread may have, and how far past them the fragments'
// sum (an overestimate: not every fragment is live at once) may go before
// ptxas is sure to spill: the register warning's threshold, which
// widen-threads uses too.
enum { TL_THREAD_REGISTERS = 255, TL_FRAGMENT_OVERESTIMATE = 32 };

// Warns, at the largest fragment, when the fragments alone leave no room
// under the 255 registers a thread can have: ptxas then spills to local
// memory. The warning names each fragment's share and the ways out.
void tl_check_fragment_registers(const TlKernel *k, TlDiag *d);
// The same for a warp-specialized kernel against its compute threads'
// setmaxnreg budget (warp-specialize's choice), with the headroom its
// loop needs beside the fragments.
void tl_check_consumer_registers(const TlKernel *k, TlDiag *d);

#endif
