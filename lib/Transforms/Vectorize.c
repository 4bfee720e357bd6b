// vectorize: a lane loop `for lane in 0..V vectorized { ... }` becomes
//   decl r[V]; r = vload A[base]          (for each stride-1 aligned load;
//                                          over 16 bytes: 16-byte pieces)
//   for lane in 0..V unrolled { w[lane] = ...r[lane]... }
//   vstore C[base] = w                    (for each stride-1 aligned store)
// Only accesses at the top level of the lane body are widened: a load under
// an `if` or inside a select (the zero-filled tile edge) may be out of range
// for some lanes, so it stays a per-lane load, and so does a store under an
// `if`, unless the `if` is the whole body and decides every lane alike (then
// it is tested once around the vectors). Invariant loads stay scalar (a
// broadcast the compiler hoists).
#include "tlc/Passes.h"

typedef struct Ctx {
  TlArena *arena;
  TlKernel *kernel;
} Ctx;

typedef struct Hoisted {
  TlBuffer *buf;
  TlExpr *base;
  TlVar *array;
} Hoisted;

typedef struct Lanes {
  const TlVar *lane;
  int64_t width;
  Hoisted loads[32];
  int nloads;
  TlVec before, after; // statements placed around the loop
  TlVec lets;          // scalars defined inside the loop: a hoisted base cannot use them
  TlVec ordered;       // buffers stored and then loaded again in the loop: kept in order
} Lanes;

static bool in_vec(const TlVec *v, const void *x) {
  for (int i = 0; i < v->len; i++)
    if (v->items[i] == x) return true;
  return false;
}

static bool body_loads(const TlVec *body, int from, const TlBuffer *b) {
  for (int i = from; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (tl_expr_loads(s->value, b) || tl_expr_loads(s->cond, b) || body_loads(&s->body, 0, b) ||
        body_loads(&s->else_body, 0, b))
      return true;
    for (int d = 0; d < s->nindices; d++)
      if (tl_expr_loads(s->indices[d], b)) return true;
  }
  return false;
}

// The widened access's base, when `index` is base + lane with base aligned.
static TlExpr *vector_base(Ctx *c, Lanes *L, const TlBuffer *b, TlExpr *index) {
  if (b->scope == SCOPE_LOCAL || b->scope == SCOPE_FRAGMENT || in_vec(&L->ordered, b))
    return NULL; // a buffer written and read again in this loop keeps its per-lane order
  // Up to 16 bytes in one access; wider runs (8 fp32 registers of a rows
  // fragment whose runs are sized for 16-byte fp16 accesses) become several
  // 16-byte accesses, on unswizzled tiles only (a swizzle moves 16-byte
  // chunks independently).
  int64_t bits = tl_dtype_bits(b->dtype) * L->width;
  if (bits < 16 || (bits > 128 && (bits % 128 != 0 || bits > 512 || b->swizzle))) return NULL;
  TlExpr *base;
  int64_t coeff;
  if (!tl_affine_in(c->arena, index, L->lane, &base, &coeff) || coeff != 1) return NULL;
  if (tl_known_alignment(base, L->width) % L->width != 0) return NULL;
  for (int i = 0; i < L->lets.len; i++)
    if (tl_expr_uses_var(base, L->lets.items[i])) return NULL;
  return base;
}

static TlExpr *widen_loads(Ctx *c, Lanes *L, TlExpr *e) {
  if (e->kind == EX_SELECT) return e; // its branches may be out of range for some lanes
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = widen_loads(c, L, e->args[i]);
  if (e->kind != EX_LOAD) return e;
  TlExpr *base = vector_base(c, L, e->buf, e->args[0]);
  if (!base) return e;
  Hoisted *h = NULL;
  for (int i = 0; i < L->nloads; i++)
    if (L->loads[i].buf == e->buf && tl_expr_equal(L->loads[i].base, base)) h = &L->loads[i];
  if (!h) {
    if (L->nloads == 32) return e;
    h = &L->loads[L->nloads++];
    h->buf = e->buf;
    h->base = base;
    h->array = tl_var_new(c->arena, c->kernel, tl_arena_printf(c->arena, "v_%s", e->buf->name),
                          VAR_ARRAY, e->buf->dtype, e->loc);
    h->array->lanes = L->width;
    TlStmt *decl = tl_stmt_new(c->arena, ST_DECL, e->loc);
    decl->var = h->array;
    tl_vec_push(c->arena, &L->before, decl);
    TlStmt *ld = tl_stmt_new(c->arena, ST_VLOAD, e->loc);
    ld->var = h->array;
    ld->buf = e->buf;
    ld->indices = TL_NEW_ARRAY(c->arena, TlExpr *, 1);
    ld->indices[0] = base;
    ld->nindices = 1;
    ld->width = L->width;
    tl_vec_push(c->arena, &L->before, ld);
  }
  TlExpr *elem = tl_expr_new(c->arena, EX_ELEM, e->loc, e->dtype, 1);
  elem->var = h->array;
  elem->args[0] = tl_expr_var(c->arena, e->loc, (TlVar *)L->lane);
  return elem;
}

// Is `cond` the same for every lane of an aligned vector? True for
// conjunctions of comparisons against multiples of the width (constants, or
// runtime sizes with such a divisor),
// whose left side is invariant or base + lane with an aligned base.
static bool uniform_over_lanes(Ctx *c, Lanes *L, const TlExpr *cond) {
  if (cond->kind == EX_BINARY && cond->op == OP_AND)
    return uniform_over_lanes(c, L, cond->args[0]) && uniform_over_lanes(c, L, cond->args[1]);
  if (cond->kind != EX_BINARY || (cond->op != OP_LT && cond->op != OP_GE))
    return !tl_expr_uses_var(cond, L->lane);
  TlExpr *base;
  int64_t coeff;
  if (!tl_affine_in(c->arena, cond->args[0], L->lane, &base, &coeff)) return false;
  if (coeff == 0) return !tl_expr_uses_var(cond->args[1], L->lane);
  // The bound: a constant, or a runtime size whose divisor the launcher checks.
  return coeff == 1 && tl_known_alignment(base, L->width) % L->width == 0 &&
         !tl_expr_uses_var(cond->args[1], L->lane) &&
         tl_known_alignment(cond->args[1], L->width) % L->width == 0;
}

// A pipeline producer's lane loop `dst[s + lane] = src[g + lane]` (maybe
// zero-filled at the tensor edge) becomes one cp.async of V elements.
static bool async_copy(Ctx *c, Lanes *L, TlStmt *loop, TlVec *out) {
  if (!loop->async_copy || loop->body.len != 1) return false;
  TlStmt *s = TL_VEC_AT(loop->body, TlStmt, 0);
  if (s->kind != ST_STORE || !s->buf || s->buf->scope != SCOPE_SHARED || s->update_op != OP_EQ)
    return false;
  TlExpr *v = s->value, *cond = NULL;
  if (v->kind == EX_SELECT) {
    cond = v->args[0];
    v = v->args[1];
  }
  if (v->kind != EX_LOAD || v->buf->scope != SCOPE_GLOBAL || v->dtype != s->buf->dtype)
    return false;
  int64_t bytes = tl_dtype_bits(s->buf->dtype) / 8 * L->width;
  if (bytes != 4 && bytes != 8 && bytes != 16) return false;
  TlExpr *dbase = vector_base(c, L, s->buf, s->indices[0]);
  TlExpr *sbase = vector_base(c, L, v->buf, v->args[0]);
  if (!dbase || !sbase || (cond && !uniform_over_lanes(c, L, cond))) return false;
  TlStmt *cp = tl_stmt_new(c->arena, ST_CP_ASYNC, s->loc);
  cp->buf = s->buf;
  cp->indices = TL_NEW_ARRAY(c->arena, TlExpr *, 1);
  cp->indices[0] = dbase;
  cp->nindices = 1;
  cp->width = L->width;
  TlExpr *src = tl_expr_new(c->arena, EX_LOAD, v->loc, v->dtype, 1);
  src->buf = v->buf;
  src->args[0] = sbase;
  cp->value = src;
  if (cond) {
    TlExpr *zero = tl_expr_int(c->arena, loop->loc, 0, L->lane->dtype);
    cp->cond = tl_simplify(c->arena,
                           tl_expr_substitute(c->arena, cond, 1, (TlVar *const *)&L->lane, &zero));
  }
  tl_vec_push(c->arena, out, cp);
  return true;
}

static void vectorize_loop(Ctx *c, TlStmt *loop, TlVec *out);

// A lane loop whose body is one `if` that every lane of the vector decides
// alike (a store guarded at a runtime edge that is a multiple of the width,
// specialize-sizes): the guard is tested once, for lane 0, around the
// vectorized body.
static bool guarded_lanes(Ctx *c, Lanes *L, TlStmt *loop, TlVec *out) {
  if (loop->body.len != 1) return false;
  TlStmt *g = TL_VEC_AT(loop->body, TlStmt, 0);
  if (g->kind != ST_IF || g->else_body.len || !uniform_over_lanes(c, L, g->cond)) return false;
  TlExpr *zero = tl_expr_int(c->arena, loop->loc, 0, L->lane->dtype);
  TlStmt *once = tl_stmt_new(c->arena, ST_IF, g->loc);
  once->cond = tl_simplify(
      c->arena, tl_expr_substitute(c->arena, g->cond, 1, (TlVar *const *)&L->lane, &zero));
  loop->body = g->body;
  vectorize_loop(c, loop, &once->body);
  tl_vec_push(c->arena, out, once);
  return true;
}

static void vectorize_loop(Ctx *c, TlStmt *loop, TlVec *out) {
  int64_t V;
  if (!tl_expr_is_const(loop->stop, &V) || !tl_expr_is_const(loop->start, &(int64_t){0}) || V < 2) {
    tl_vec_push(c->arena, out, loop);
    return;
  }
  Lanes L = {0};
  L.lane = loop->var;
  L.width = V;
  for (int i = 0; i < loop->body.len; i++) {
    TlStmt *s = TL_VEC_AT(loop->body, TlStmt, i);
    if (s->kind == ST_LET || s->kind == ST_SET) tl_vec_push(c->arena, &L.lets, s->var);
    // Stored here and loaded by a later statement: hoisting that load above
    // the loop, or deferring this store past it, would reorder them.
    if (s->kind == ST_STORE && s->buf && !in_vec(&L.ordered, s->buf) &&
        body_loads(&loop->body, i + 1, s->buf))
      tl_vec_push(c->arena, &L.ordered, s->buf);
  }
  if (async_copy(c, &L, loop, out) || guarded_lanes(c, &L, loop, out)) return;
  for (int i = 0; i < loop->body.len; i++) {
    TlStmt *s = TL_VEC_AT(loop->body, TlStmt, i);
    if (s->kind == ST_STORE || s->kind == ST_LET || s->kind == ST_SET)
      s->value = widen_loads(c, &L, s->value);
    if (s->kind != ST_STORE || s->update_op != OP_EQ) continue;
    TlExpr *base = vector_base(c, &L, s->buf, s->indices[0]);
    if (!base) continue;
    // Store into a staging array; one vector store after the loop.
    TlVar *w = tl_var_new(c->arena, c->kernel, tl_arena_printf(c->arena, "w_%s", s->buf->name),
                          VAR_ARRAY, s->buf->dtype, s->loc);
    w->lanes = V;
    TlStmt *decl = tl_stmt_new(c->arena, ST_DECL, s->loc);
    decl->var = w;
    tl_vec_push(c->arena, &L.before, decl);
    TlStmt *vs = tl_stmt_new(c->arena, ST_VSTORE, s->loc);
    vs->var = w;
    vs->buf = s->buf;
    vs->indices = TL_NEW_ARRAY(c->arena, TlExpr *, 1);
    vs->indices[0] = base;
    vs->nindices = 1;
    vs->width = V;
    tl_vec_push(c->arena, &L.after, vs);
    s->buf = NULL;
    s->var = w;
    s->indices[0] = tl_expr_var(c->arena, s->loc, loop->var);
  }
  for (int i = 0; i < L.before.len; i++)
    tl_vec_push(c->arena, out, L.before.items[i]);
  loop->loop_kind = LOOP_UNROLL;
  tl_vec_push(c->arena, out, loop);
  for (int i = 0; i < L.after.len; i++)
    tl_vec_push(c->arena, out, L.after.items[i]);
}

static bool expand(void *ctx, TlStmt *s, TlVec *out) {
  if (s->kind != ST_FOR || s->loop_kind != LOOP_VECTORIZED) return false;
  vectorize_loop(ctx, s, out);
  return true;
}

bool tl_vectorize(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  Ctx c = {a, NULL};
  for (int k = 0; k < m->kernels.len; k++) {
    c.kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    tl_stmt_expand(a, &c.kernel->body, expand, &c);
  }
  return true;
}
