// Sema (lib/Sema/): AST -> Tile IR. Resolves names, folds module constants
// with exact, overflow-checked 64-bit arithmetic, checks dtypes and shapes,
// and builds one TlKernel per @T.prim_func.
#ifndef TLC_SEMA_H
#define TLC_SEMA_H

#include "tlc/Ast.h"
#include "tlc/IR.h"
#include "tlc/Target.h"

// What to compile from a file that builds kernels with Python (issue #10).
typedef struct TlSemaOptions {
  const char *const *calls; // --call 'factory(args)': each names one kernel to emit
  int ncalls;
  const char *const *defines; // -D NAME=VALUE: overrides a module-level constant
  int ndefines;
  // NAME=VALUE: T.dynamic("NAME") is the constant VALUE (the harness's
  // reference module, with --size); NULL when runtime sizes stay runtime.
  const char *const *sizes;
  int nsizes;
} TlSemaOptions;

// Returns the module (possibly partial after errors; check d->nerrors).
// opts may be NULL (no --call, no -D).
TlModule *tl_sema(TlArena *a, const TlNode *module, const TlSource *src, const TlTarget *target,
                  const TlSemaOptions *opts, TlDiag *d);

#endif
