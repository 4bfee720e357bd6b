// flatten: multi-dimensional buffer accesses become one flat element offset
// (row-major, the stage dimension first for multi-buffered tiles), then the
// offset is simplified. After partition this is where (f // 32) * 32 + f % 32
// collapses back into f, so the CUDA shows `step * 512 + threadIdx.x * 4`.
#include "tlc/Passes.h"

static TlExpr *flatten_expr(TlArena *a, TlExpr *e) {
  if (!e)
    return e;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = flatten_expr(a, e->args[i]);
  if (e->kind == EX_LOAD && e->nargs > 1) {
    TlExpr *flat = tl_access_flat(a, e->buf, e->args, e->nargs);
    e->args[0] = flat;
    e->nargs = 1;
  } else if (e->kind == EX_LOAD) {
    e->args[0] = tl_simplify(a, e->args[0]);
  }
  return e;
}

static void flatten_body(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int d = 0; d < s->nindices; d++)
      s->indices[d] = flatten_expr(a, s->indices[d]);
    if ((s->kind == ST_STORE && s->buf) && s->nindices >= 1) {
      s->indices[0] = s->nindices > 1 ? tl_access_flat(a, s->buf, s->indices, s->nindices)
                                      : tl_simplify(a, s->indices[0]);
      s->nindices = 1;
    }
    s->value = flatten_expr(a, s->value);
    s->cond = flatten_expr(a, s->cond);
    if (s->cond)
      s->cond = tl_simplify(a, s->cond);
    s->start = flatten_expr(a, s->start);
    s->stop = flatten_expr(a, s->stop);
    if (s->kind == ST_GEMM) {
      s->stage_a = s->stage_a ? tl_simplify(a, s->stage_a) : NULL;
      s->stage_b = s->stage_b ? tl_simplify(a, s->stage_b) : NULL;
      s->offset_a = s->offset_a ? tl_simplify(a, s->offset_a) : NULL;
      s->offset_b = s->offset_b ? tl_simplify(a, s->offset_b) : NULL;
    }
    flatten_body(a, &s->body);
    flatten_body(a, &s->else_body);
  }
}

bool tl_flatten(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++) {
    flatten_body(a, &TL_VEC_AT(m->kernels, TlKernel, k)->body);
    TL_VEC_AT(m->kernels, TlKernel, k)->flat = true;
  }
  return true;
}
