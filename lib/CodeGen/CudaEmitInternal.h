// What the files of the CUDA emitter share (lib/CodeGen/Cuda*.c): the
// emitter's state and the printers each file offers the others.
#ifndef TLC_CUDA_EMIT_INTERNAL_H
#define TLC_CUDA_EMIT_INTERNAL_H

#include "tlc/CIdent.h"
#include "tlc/CodeGen.h"
#include "tlc/FragLayout.h"

typedef struct Emit {
  TlBuf *out;
  TlBuf body; // the kernels, printed before the prelude is known
  const TlModule *m;
  const TlKernel *k;
  bool need_floordiv, need_floormod, need_fmod, need_swz, need_mma, need_cp_async, need_bitcast;
  unsigned need_mma_8bit; // k32 mma.sync helpers of 8-bit operands (TensorCoreIntrinEmitter):
                          // bit 0 int8, 1 float8_e4m3, 2 float8_e5m2
  bool need_swz_wg, need_wgmma;
  bool kernel_wgmma; // this kernel's shared tiles are read by wgmma (the async proxy)
  int64_t group_lo, group_threads; // inside a T.ws scope: its threads (group_threads 0: not)
  bool need_mbar, need_tma_host, need_expect_only;
  unsigned need_tma_ranks;       // bit r: the TMA load helper of rank r
  unsigned need_tma_mc_ranks;    // bit r: its multicast form (clusters)
  unsigned need_tma_store_ranks; // bit r: the TMA store of rank r; bit 0: the bulk-group waits
  bool need_cluster;
  TlBuf helpers; // gemm helpers, printed before the kernels
  // A register-A wgmma gemm returning with its group in flight: its packed A
  // registers live in the kernel (tl_pk_<A>) until the wgmma wait of its
  // accumulator pins them, so that nothing reuses them while the wgmma reads.
  const TlBuffer *inflight_acc, *inflight_a;
  bool need_wgmma_pack;
} Emit;

void tl_emit_gemm_ptx(TlBuf *out);
// The k32 mma.sync helpers of 8-bit operands, those whose bit is set in forms
// (bit 0 int8, 1 float8_e4m3, 2 float8_e5m2).
void tl_emit_mma_8bit_ptx(TlBuf *out, unsigned forms);
void tl_emit_wgmma_ptx(TlBuf *out);
// A register-A wgmma gemm reading an operand packed by an ST_WGMMA_PACK
// (a_packed): its A registers are the kernel's (tl_pk_<A>), held until the
// wgmma wait after it when it is left in flight.
bool tl_gemm_held_a(const TlStmt *g);
// A 16-bit fragment in a wgmma accumulator layout as register-A operands:
// true, with the packed array's dimensions [ks][mi][4].
bool tl_wgmma_packed_dims(const TlBuffer *a, int64_t *ks, int64_t *mi);
// Its prelude (tl_wgmma_pack, tl_wgmma_pin_regs), after tl_emit_wgmma_ptx.
void tl_emit_wgmma_pack_ptx(TlBuf *out);
void tl_emit_gemm_helper(TlBuf *out, TlArena *a, const TlStmt *g, int64_t group_threads,
                         void (*print_expr)(TlBuf *, const TlExpr *));
// A shared tile stored in wgmma's canonical layout wider than one swizzle
// panel (tl_swz_wg), not tl_swz's rows: its indexing function in the kernel
// and in an mma.sync gemm helper that reads it (GemmEmit.c).
bool tl_cuda_swizzle_is_wg(const TlBuffer *b);

// The C name of buffer b in the kernel's code.
const char *tl_cuda_buf_name(Emit *e, const TlBuffer *b);
// Prints x (CudaExpr.c); expr_p parenthesizes it below C precedence min_prec.
void tl_cuda_expr(Emit *e, const TlExpr *x);
void tl_cuda_expr_p(Emit *e, const TlExpr *x, int min_prec);
// Prints kernel k and its launcher (CudaKernel.c).
void tl_cuda_kernel(Emit *e, const TlKernel *k);
// Prints a body at indentation level (CudaStmt.c).
void tl_cuda_stmts(Emit *e, const TlVec *body, int level);

#endif
