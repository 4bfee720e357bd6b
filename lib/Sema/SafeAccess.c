// Safe global accesses, as TileLang's LegalizeSafeMemoryAccess defines them:
// a load of a global tensor whose index may leave the tensor reads zero
// there, and such a store is skipped, in T.Parallel nests and in every other
// statement of the kernel. T.copy gets the same guards in lower-tile-ops;
// this is the rule for code the user writes, e.g. an epilogue reading
// bias[bx * block_N + j] when N is not a multiple of block_N.
//
// "May leave" is decided from the index's interval over the loop and block
// indices (tl_expr_bounds). Along a dimension whose extent is a runtime size
// every index is tested against it (idx < n). An index whose interval is
// unknown along a static dimension (a gather through another buffer) is
// left as written, as are
// on-chip buffers (an index outside them is the user's bug, which the
// harness's reference reports). A bound the user already tests in an
// enclosing `if idx < n` (n within the tensor) needs no second guard.
//
// Applied once to the tile IR at the end of sema, so that the passes, the
// printed IR and the harness's reference lowering all see the guards.
#include "SemaInternal.h"

enum { MAX_CONDS = 64 };

// The conjuncts of the enclosing `if` conditions (then-branches only), and
// the kernel being guarded (its grid says which block index runs below
// which runtime size).
typedef struct Conds {
  const TlExpr *c[MAX_CONDS];
  int n;
  const TlKernel *kernel;
} Conds;

static void push_conjuncts(Conds *cs, const TlExpr *e) {
  // `(i < n) & (j < m)`, TileLang's usual spelling, is a conjunction too
  if (e->kind == EX_BINARY && (e->op == OP_AND || (e->op == OP_BITAND && e->dtype == TY_BOOL))) {
    push_conjuncts(cs, e->args[0]);
    push_conjuncts(cs, e->args[1]);
  } else if (cs->n < MAX_CONDS) {
    cs->c[cs->n++] = e;
  }
}

// True when an enclosing condition says idx < k with k <= extent.
static bool tested_below(const Conds *cs, const TlExpr *idx, int64_t extent) {
  for (int i = 0; i < cs->n; i++) {
    const TlExpr *c = cs->c[i];
    int64_t k;
    if (c->kind == EX_BINARY && c->op == OP_LT && tl_expr_is_const(c->args[1], &k) && k <= extent &&
        tl_expr_equal(c->args[0], idx))
      return true;
    if (c->kind == EX_BINARY && c->op == OP_LE && tl_expr_is_const(c->args[1], &k) && k < extent &&
        tl_expr_equal(c->args[0], idx))
      return true;
  }
  return false;
}

static bool tested_nonneg(const Conds *cs, const TlExpr *idx) {
  for (int i = 0; i < cs->n; i++) {
    const TlExpr *c = cs->c[i];
    int64_t k;
    if (c->kind == EX_BINARY && c->op == OP_GE && tl_expr_is_const(c->args[1], &k) && k >= 0 &&
        tl_expr_equal(c->args[0], idx))
      return true;
  }
  return false;
}

// True when an enclosing condition says idx < size (the runtime size var).
static bool tested_below_size(const Conds *cs, const TlExpr *idx, const TlVar *size) {
  for (int i = 0; i < cs->n; i++) {
    const TlExpr *c = cs->c[i];
    if (c->kind != EX_BINARY || c->op != OP_LT || !tl_expr_equal(c->args[0], idx)) continue;
    const TlExpr *k = c->args[1];
    while (k->kind == EX_CAST) k = k->args[0];
    if (k->kind == EX_VAR && k->var == size) return true;
  }
  return false;
}

// Is idx a block index whose grid extent is the runtime size itself
// (`with T.Kernel(seq_len) as bx`: bx < seq_len always)?
static bool block_below_size(const TlKernel *k, const TlExpr *idx, const TlVar *size) {
  while (idx->kind == EX_CAST) idx = idx->args[0];
  if (idx->kind != EX_VAR || idx->var->kind != VAR_BLOCK_IDX) return false;
  for (int d = 0; d < 3; d++) {
    const TlExpr *g = k->grid[d];
    while (g && g->kind == EX_CAST) g = g->args[0];
    if (k->block_vars[d] == idx->var && g && g->kind == EX_VAR && g->var == size)
      return true;
  }
  return false;
}

// idx < size for a dimension whose extent is a runtime size (TileLang's
// guard against the symbolic shape), unless an enclosing `if` tests it.
static TlExpr *runtime_guard(TlArena *a, const Conds *cs, TlVar *size, int64_t scale, TlExpr *idx,
                             TlLoc loc) {
  TlExpr *ok = NULL;
  if (!tl_expr_nonneg(idx) && !tested_nonneg(cs, idx))
    ok = tl_expr_binary(a, loc, OP_GE, tl_expr_clone(a, idx), tl_expr_int(a, loc, 0, idx->dtype),
                        TY_BOOL);
  if (scale > 1 || (!tested_below_size(cs, idx, size) && !block_below_size(cs->kernel, idx, size))) {
    // the extent is size * scale
    TlExpr *n = tl_expr_var(a, loc, size);
    if (n->dtype != idx->dtype) n = tl_expr_cast(a, loc, n, idx->dtype);
    if (scale > 1)
      n = tl_expr_binary(a, loc, OP_MUL, n, tl_expr_int(a, loc, scale, idx->dtype), idx->dtype);
    TlExpr *lt = tl_expr_binary(a, loc, OP_LT, tl_expr_clone(a, idx), n, TY_BOOL);
    ok = ok ? tl_expr_binary(a, loc, OP_AND, ok, lt, TY_BOOL) : lt;
  }
  return ok;
}

// The condition that keeps the access inside the tensor, or NULL.
static TlExpr *crossing_guard(TlArena *a, const Conds *cs, TlBuffer *b, TlExpr **idx, int n, TlLoc loc) {
  if (b->scope != SCOPE_GLOBAL)
    return NULL;
  TlExpr *cond = NULL;
  for (int d = 0; d < n && d < b->ndims; d++) {
    int64_t lo, hi;
    if (b->dyn[d]) {
      TlExpr *ok = runtime_guard(a, cs, b->dyn[d], tl_buffer_dyn_scale(b, d), idx[d], loc);
      if (ok) cond = cond ? tl_expr_binary(a, loc, OP_AND, cond, ok, TY_BOOL) : ok;
      continue;
    }
    if (!tl_expr_bounds(idx[d], &lo, &hi))
      continue;
    bool below = hi < b->shape[d] || tested_below(cs, idx[d], b->shape[d]);
    bool above = lo >= 0 || tested_nonneg(cs, idx[d]);
    if (below && above)
      continue;
    TlExpr *ok = NULL;
    if (!above)
      ok = tl_expr_binary(a, loc, OP_GE, tl_expr_clone(a, idx[d]), tl_expr_int(a, loc, 0, idx[d]->dtype),
                          TY_BOOL);
    if (!below) {
      TlExpr *lt = tl_expr_binary(a, loc, OP_LT, tl_expr_clone(a, idx[d]),
                                  tl_expr_int(a, loc, b->shape[d], idx[d]->dtype), TY_BOOL);
      ok = ok ? tl_expr_binary(a, loc, OP_AND, ok, lt, TY_BOOL) : lt;
    }
    cond = cond ? tl_expr_binary(a, loc, OP_AND, cond, ok, TY_BOOL) : ok;
  }
  return cond;
}

static TlExpr *safe_loads(TlArena *a, const Conds *cs, TlExpr *e) {
  if (!e)
    return e;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = safe_loads(a, cs, e->args[i]);
  if (e->kind != EX_LOAD)
    return e;
  TlExpr *ok = crossing_guard(a, cs, e->buf, e->args, e->nargs, e->loc);
  if (!ok)
    return e;
  TlExpr *sel = tl_expr_new(a, EX_SELECT, e->loc, e->dtype, 3);
  sel->args[0] = ok;
  sel->args[1] = e;
  sel->args[2] = tl_dtype_is_float(e->dtype) ? tl_expr_float(a, e->loc, 0, e->dtype)
                                             : tl_expr_int(a, e->loc, 0, e->dtype);
  return sel;
}

static void safe_body(TlArena *a, Conds cs, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    s->value = safe_loads(a, &cs, s->value);
    s->cond = safe_loads(a, &cs, s->cond);
    if (s->kind == ST_IF) {
      Conds then = cs;
      push_conjuncts(&then, s->cond);
      safe_body(a, then, &s->body);
      safe_body(a, cs, &s->else_body);
      continue;
    }
    safe_body(a, cs, &s->body);
    safe_body(a, cs, &s->else_body);
    if (s->kind != ST_STORE || !s->buf)
      continue;
    for (int d = 0; d < s->nindices; d++)
      s->indices[d] = safe_loads(a, &cs, s->indices[d]);
    TlExpr *ok = crossing_guard(a, &cs, s->buf, s->indices, s->nindices, s->loc);
    if (ok) {
      TlStmt *g = tl_stmt_new(a, ST_IF, s->loc);
      g->cond = ok;
      tl_vec_push(a, &g->body, s);
      body->items[i] = g;
    }
  }
}

// Every statement of every kernel: TileLang (HEAD) legalizes the whole
// function body, so a per-thread store outside T.Parallel is guarded too
// (deepseek_v32/fp8_lighting_indexer's clean_logits stores Logits[bx, idx]
// for idx up to a multiple of 4096 past seq_len_kv; v0.1.5 guarded the
// bodies of innermost loops, which covers that store as well).
void tl_sema_safe_accesses(TlArena *a, TlModule *m) {
  for (int k = 0; k < m->kernels.len; k++) {
    TlKernel *kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    Conds none = {.n = 0, .kernel = kernel};
    safe_body(a, none, &kernel->body);
  }
}
