// Reads of tiles before anything writes them (lib/Analysis/Uninitialized.c).
#ifndef TLC_UNINITIALIZED_H
#define TLC_UNINITIALIZED_H

#include "tlc/IR.h"

// Warns at the first read of each shared, fragment or local tile of kernel
// k (sema's tile IR) that no earlier statement can have written, with notes
// at a later write in the same loop and at the declaration.
void tl_check_uninitialized(const TlKernel *k, TlDiag *d);

#endif
