// Private interface of the harness (lib/Harness/): the pieces Harness.c
// puts together into one .cu file.
//
//   RefExpr.c     expressions of the tile IR -> CUDA text for the reference
//   RefEmit.c     the reference lowering: kernels NAME_ref_kernel + NAME_ref
//   Facts.c       what the host side needs to know about a kernel: which
//                 tensors are read / written, flops, tolerances, cuBLAS fit
//   Runtime.c     the host runtime (data, checks, timing, main) as text
//   Harness.c     tl_emit_harness: the file, the per-kernel tables
#ifndef TLC_HARNESS_INTERNAL_H
#define TLC_HARNESS_INTERNAL_H

#include "tlc/Harness.h"

// The reference lowering runs every block with this many threads, whatever
// threads= the kernel asks for: the result must not depend on it.
enum { TL_REF_THREADS = 128 };

/* RefExpr.c */
typedef struct TlRef {
  TlArena *arena;
  TlDiag *diag;
  const TlKernel *kernel;
  bool ok;    // false once an error was reported
  int depth;  // nesting of generated loops, for unique temporaries
} TlRef;

// s as an operand: as is when it is a primary expression (a name, a number,
// a call, an element access, one parenthesized group), else parenthesized.
const char *tl_ref_paren(TlRef *r, const char *s);
// The C identifier of a buffer (keywords and reserved prefixes renamed).
const char *tl_ref_buf_name(TlRef *r, const TlBuffer *b);
// e as a CUDA expression of type tl_dtype_cuda(e->dtype), fully
// parenthesized. Reports an error (and returns "0") for thread-IR nodes.
const char *tl_ref_expr(TlRef *r, const TlExpr *e);
// x (a value of dtype `from`) converted to `to`, through float for half types.
const char *tl_ref_convert(TlRef *r, const char *x, TlDtype from, TlDtype to);
// x of dtype t as a float / double / integer accumulator value.
const char *tl_ref_widen(TlRef *r, const char *x, TlDtype t);
// l op r on operands of dtype t (the result type of arithmetic is t).
const char *tl_ref_binop(TlRef *r, TlOp op, TlDtype t, const char *l, const char *rhs);
// buf[idx...] with every index checked against the buffer's shape: an index
// outside it is clamped and reported through tlr_oob_line (never a fault).
const char *tl_ref_access(TlRef *r, const TlBuffer *b, const char *const *idx, int line);
// Same, without checks: the caller proved or tested the indices.
const char *tl_ref_access_unchecked(TlRef *r, const TlBuffer *b, const char *const *idx);

/* RefEmit.c */
// Helpers, reference kernels and their launchers NAME_ref(params..., stream).
bool tl_ref_emit_module(TlArena *a, const TlModule *ref, TlBuf *out, TlDiag *d);
// Bytes of per-block scratch (shared + fragment buffers) the reference uses.
int64_t tl_ref_scratch_bytes(const TlKernel *k);

/* Facts.c */
typedef struct TlKernelFacts {
  bool read[64], written[64]; // per parameter, from the tile IR itself
  bool has_gemm, has_reduce;
  int64_t reduce_len; // the longest extent a T.reduce_* sums over (1 when none)
  int ngemm;
  double flops;     // 2*M*N*K per T.gemm execution, summed; < 0 when unknown
  int64_t traffic;  // bytes: each tensor read once and/or written once
  // cuBLAS: the kernel is one plain GEMM C = op(A) op(B) on its parameters.
  bool cublas;
  int a, b, c;      // parameter positions
  bool trans_a, trans_b;
  int64_t m, n, k;
  const char *kind; // "gemm", "elementwise" or "other" (for the benchmarks)
} TlKernelFacts;

bool tl_kernel_facts(const TlKernel *k, TlKernelFacts *f, TlDiag *d);
// Relative-norm tolerance of a written tensor (0: must match exactly).
double tl_harness_tolerance(const TlKernelFacts *f, TlDtype t);
// Absolute tolerance: every element within it also passes (an output that
// cancels to near zero); the relative one, times sqrt(n) for a sum of n.
double tl_harness_abs_tolerance(const TlKernelFacts *f, TlDtype t);

/* Runtime.c */
// Lines of text, NULL-terminated (one literal per line: -Wpedantic limits
// the length of a single string literal).
extern const char *const tl_harness_runtime_head[]; // includes, helpers, table types
extern const char *const tl_harness_runtime_main[]; // per-kernel check + timing, main()

#endif
