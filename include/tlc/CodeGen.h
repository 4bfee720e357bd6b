// Code generators (lib/CodeGen/): thread IR -> text.
#ifndef TLC_CODEGEN_H
#define TLC_CODEGEN_H

#include "tlc/IR.h"

/* lib/CodeGen/CudaEmit.c: one self-contained .cu file */
void tl_emit_cuda(TlArena *a, const TlModule *m, TlBuf *out);

/* lib/CodeGen/HeaderEmit.c: --header=OUT.h, a C/C++ header declaring every
   launcher (shapes and dtypes as comments), usable from plain C */
void tl_emit_header(const TlModule *m, const char *header_name, TlBuf *out);

/* lib/CodeGen/PlanYaml.c: --emit=plan, YAML written with libyaml */
bool tl_emit_plan(const TlModule *m, TlBuf *out, TlDiag *d);

/* lib/CodeGen/SignatureEmit.c: --emit=signature, JSON describing every
   launcher's parameters (dtype, shape, alignment, outputs) for callers such
   as the Python package */
void tl_emit_signature(const TlModule *m, TlBuf *out);

#endif
