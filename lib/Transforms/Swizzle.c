// swizzle: shared tiles read by ldmatrix are stored XOR-swizzled so that the
// 8 rows of an 8x8 matrix fall into 8 different bank groups. The logical
// flat offset f of a buffer with rows of C elements becomes
//   swizzle(f / C, f % C) = row*C + chunk'*V + f%V,
//   chunk' = (chunk / S) * S + ((chunk % S) ^ ((row / (8 / S)) % S))
// with V elements per 16-byte chunk and S swizzled chunks per row (8, 4, 2).
// It runs after vectorize: a vector of at most 16 bytes starting at a chunk
// boundary stays contiguous, so vector accesses keep working. The gemm
// helpers compute their ldmatrix addresses with the same function.
#include "tlc/Passes.h"

static TlExpr *physical(TlArena *a, TlBuffer *b, TlExpr *flat) {
  TlLoc loc = flat->loc;
  TlDtype t = flat->dtype;
  int64_t C = b->shape[b->ndims - 1];
  // The stage offset (a multiple of a whole stage, itself whole 8-row swizzle
  // periods) stays outside: stage * E + swizzle(rest) keeps the swizzled part
  // loop-invariant in a pipelined loop, so the compiler hoists it.
  int64_t E = tl_buffer_elems(b);
  TlExpr *stage, *rest;
  if (b->stages > 1 && tl_split_multiples(a, flat, E, &stage, &rest) && rest->kind != EX_INT) {
    TlExpr *sw = physical(a, b, rest);
    return tl_expr_binary(a, loc, OP_ADD, stage, sw, t);
  }
  if (b->ndims > 2 && b->stages <= 1) { // each 2-D slice is laid out as a 2-D tile
    int64_t E2 = b->shape[b->ndims - 2] * C, lo, hi;
    // The split must leave the offset inside one slice; else floordiv/floormod.
    if (!tl_split_multiples(a, flat, E2, &stage, &rest) || !tl_expr_bounds(rest, &lo, &hi) ||
        lo < 0 || hi >= E2) {
      TlExpr *e2 = tl_expr_int(a, loc, E2, t);
      stage = tl_simplify(
          a, tl_expr_binary(a, loc, OP_MUL,
                            tl_expr_binary(a, loc, OP_FLOORDIV, flat, e2, t), tl_expr_clone(a, e2), t));
      rest = tl_simplify(a, tl_expr_binary(a, loc, OP_FLOORMOD, tl_expr_clone(a, flat),
                                           tl_expr_clone(a, e2), t));
    }
    TlExpr *cc = tl_expr_int(a, loc, C, t);
    TlExpr *e = tl_expr_new(a, EX_CALL, loc, t, 2);
    e->fn = FN_SWIZZLE;
    e->buf = b;
    e->args[0] = tl_simplify(a, tl_expr_binary(a, loc, OP_FLOORDIV, rest, cc, t));
    e->args[1] = tl_simplify(a, tl_expr_binary(a, loc, OP_FLOORMOD, tl_expr_clone(a, rest),
                                                tl_expr_clone(a, cc), t));
    return tl_simplify(a, tl_expr_binary(a, loc, OP_ADD, stage, e, t));
  }
  TlExpr *cc = tl_expr_int(a, loc, C, t);
  TlExpr *e = tl_expr_new(a, EX_CALL, loc, t, 2);
  e->fn = FN_SWIZZLE;
  e->buf = b;
  e->args[0] = tl_simplify(a, tl_expr_binary(a, loc, OP_FLOORDIV, flat, cc, t));
  e->args[1] = tl_simplify(a, tl_expr_binary(a, loc, OP_FLOORMOD, flat, cc, t));
  return e;
}

static TlExpr *visit_expr(TlArena *a, TlExpr *e) {
  if (!e)
    return e;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = visit_expr(a, e->args[i]);
  if (e->kind == EX_LOAD && e->buf->swizzle)
    e->args[0] = physical(a, e->buf, e->args[0]);
  return e;
}

static void visit(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int d = 0; d < s->nindices; d++)
      s->indices[d] = visit_expr(a, s->indices[d]);
    if ((s->kind == ST_STORE || s->kind == ST_VLOAD || s->kind == ST_VSTORE || s->kind == ST_CP_ASYNC) &&
        s->buf &&
        s->buf->swizzle)
      s->indices[0] = physical(a, s->buf, s->indices[0]);
    s->value = visit_expr(a, s->value);
    s->cond = visit_expr(a, s->cond);
    visit(a, &s->body);
    visit(a, &s->else_body);
  }
}

bool tl_swizzle(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++)
    visit(a, &TL_VEC_AT(m->kernels, TlKernel, k)->body);
  return true;
}
