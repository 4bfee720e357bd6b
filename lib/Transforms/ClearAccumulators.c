// clear-accumulators: a zero fill of a wgmma accumulator that the gemm right
// after it overwrites becomes the gemm's own first k-step.
//
//   fill acc_s = 0              gemm Q, K^T -> acc_s (wgmma) clear_c
//   gemm Q, K^T -> acc_s   =>   (the first wgmma of each accumulator chunk
//                                has scale-d 0: D = A B, C not read)
//
// Why: attention clears its score tile every K/V step (`T.clear(acc_s)` or
// `clear_accum=True`). As a fill, ptxas materializes 0 in one register and
// copies it into the 64-128 accumulator registers, and in a loop with a wgmma
// left in flight (--overlap-pv) those copies sit inside the in-flight
// wgmma's pipeline stage: ptxas then injects a warpgroup.wait (C7517) and
// the overlap is partly serialized. CUTLASS clears the same way (its
// ScaleOut::Zero on the first k-block).
//
// A fill qualifies when, after the pipelining passes:
//   * it is a lowered T.fill / T.clear nest (origin fill) storing the
//     constant 0 to every element of a fragment F, and
//   * the first later statement of the same list that mentions F at all is a
//     T.gemm on wgmma whose accumulator is F, which reads F through neither
//     operand and is not predicated (an issue predicated off would leave F
//     unset where the fill had zeroed it).
// Statements between the two that do not mention F cannot observe it, so
// moving the clear into the gemm keeps every value the program reads. A
// gemm's accumulator is its whole buffer (sema checks C is M x N), so every
// element is written by the first k-step.
#include "tlc/Passes.h"
#include "tlc/Support.h"

static bool is_zero(const TlExpr *e) {
  while (e && e->kind == EX_CAST && e->nargs == 1)
    e = e->args[0];
  return e && ((e->kind == EX_FLOAT && e->fval == 0.0) || (e->kind == EX_INT && e->ival == 0));
}

// The fragment a nest zeroes whole (the nest is `F[v0, v1] = 0` over F's
// shape), or NULL.
static TlBuffer *zeroed_fragment(const TlStmt *s) {
  if (s->kind != ST_PARALLEL || s->origin != ORIGIN_FILL || s->layout || s->body.len != 1)
    return NULL;
  const TlStmt *st = TL_VEC_AT(s->body, TlStmt, 0);
  TlBuffer *f = st->buf;
  if (st->kind != ST_STORE || !f || f->scope != SCOPE_FRAGMENT || st->update_op != OP_EQ ||
      st->atomic || f->stages > 1 || st->nindices != f->ndims || s->nvars != f->ndims ||
      !is_zero(st->value))
    return NULL;
  for (int d = 0; d < f->ndims; d++) {
    const TlExpr *ix = st->indices[d];
    if (s->extents[d] != f->shape[d] || ix->kind != EX_VAR || ix->var != s->vars[d]) return NULL;
  }
  return f;
}

// Does s name F anywhere: reads, writes, tile operands, waits and packs?
static bool mentions(const TlStmt *s, const TlBuffer *f) {
  if (s->buf == f || s->dst.buf == f || s->src.buf == f) return true;
  if (tl_stmt_touches(s, f, false) || tl_stmt_touches(s, f, true)) return true;
  for (int i = 0; i < s->body.len; i++)
    if (mentions(TL_VEC_AT(s->body, TlStmt, i), f)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (mentions(TL_VEC_AT(s->else_body, TlStmt, i), f)) return true;
  return false;
}

static void clear_body(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    TlBuffer *f = zeroed_fragment(s);
    if (!f) {
      clear_body(a, &s->body);
      clear_body(a, &s->else_body);
      continue;
    }
    for (int j = i + 1; j < body->len; j++) {
      TlStmt *g = TL_VEC_AT(*body, TlStmt, j);
      if (!mentions(g, f)) continue;
      if (g->kind == ST_GEMM && g->use_wgmma && g->c == f && g->a != f && g->b != f && !g->cond) {
        g->clear_c = true;
        TlVec none = {0};
        tl_vec_splice(a, body, i, &none);
        i--;
      }
      break;
    }
  }
}

bool tl_clear_accumulators(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++)
    clear_body(a, &TL_VEC_AT(m->kernels, TlKernel, k)->body);
  return true;
}
