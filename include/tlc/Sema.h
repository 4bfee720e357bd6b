// Sema (lib/Sema/): AST -> Tile IR. Resolves names, folds module constants
// with exact, overflow-checked 64-bit arithmetic, checks dtypes and shapes,
// and builds one TlKernel per @T.prim_func.
#ifndef TLC_SEMA_H
#define TLC_SEMA_H

#include "tlc/Ast.h"
#include "tlc/IR.h"
#include "tlc/Target.h"

// Returns the module (possibly partial after errors; check d->nerrors).
TlModule *tl_sema(TlArena *a, const TlNode *module, const TlSource *src, const TlTarget *target,
                  TlDiag *d);

#endif
