// lower-tile-ops: T.copy and T.fill become T.Parallel nests of element
// stores (origin copy / fill), which the partition pass then maps onto
// threads and vectorizes like any user loop. The tile form of T.atomic_add
// is a copy whose stores are atomic adds.
//
// A copy's nest runs over the tile's non-unit extents, in order; each side
// indexes its buffer at start + loop variable. Where a global tile may cross
// the tensor edge (the interval of start + extent is not provably inside),
// loads are zero-filled and stores skipped, per dimension.
//
// T.gemm and T.reduce_* stay tile operators: they need the fragment layouts
// that layout-inference computes, and are lowered by the partition pass;
// except reductions the register path cannot do (dim 0, shared or 1-D
// sources), which become nests around a shared tile here (ViaShared.c), and
// a fragment B of T.gemm, staged in a shared tile (ViaShared.c).
#include "tlc/Passes.h"

static const char *const PASS = "lower-tile-ops";

typedef struct Ctx {
  TlArena *arena;
  TlKernel *kernel;
  TlDiag *diag;
  bool ok;
} Ctx;

static void lower_body(Ctx *c, TlVec *body);

// The nest over the non-unit extents of r (at least one dimension).
static TlStmt *nest_over(Ctx *c, const TlStmt *op, const TlRegion *r, TlOrigin origin) {
  TlStmt *p = tl_stmt_new(c->arena, ST_PARALLEL, op->loc);
  p->origin = origin;
  p->coalesced_width = op->width;
  static const char *names[] = {"i", "j", "k", "l", "m", "n", "o", "p"};
  for (int d = 0; d < r->ndims; d++) {
    if (r->extent[d] == 1)
      continue;
    TlVar *v = tl_var_new(c->arena, c->kernel, names[p->nvars], VAR_LOOP, TY_INT32, op->loc);
    v->extent = r->extent[d];
    p->vars[p->nvars] = v;
    p->extents[p->nvars++] = r->extent[d];
  }
  if (p->nvars == 0) {
    TlVar *v = tl_var_new(c->arena, c->kernel, "i", VAR_LOOP, TY_INT32, op->loc);
    v->extent = 1;
    p->vars[0] = v;
    p->extents[0] = 1;
    p->nvars = 1;
  }
  return p;
}

// Indices of r at the nest's point: start_d + var for non-unit dims.
static void indices_at(Ctx *c, const TlRegion *r, const TlStmt *nest, TlExpr **out) {
  int v = 0;
  // A one-element tile: its nest's single variable (extent 1) indexes
  // dimension 0, so a 1-element fragment is accessed directly.
  bool single = nest->nvars == 1 && nest->extents[0] == 1;
  for (int d = 0; d < r->ndims; d++) {
    TlDtype t = r->start[d]->dtype;
    if (r->extent[d] == 1 && !(single && d == 0)) {
      out[d] = r->start[d];
      continue;
    }
    TlExpr *var = tl_expr_cast(c->arena, r->loc, tl_expr_var(c->arena, r->loc, nest->vars[v++]), t);
    out[d] = tl_simplify(c->arena, tl_expr_binary(c->arena, r->loc, OP_ADD, r->start[d], var, t));
  }
}

// The condition that every index of a global access is inside the tensor,
// or NULL when that is provable at compile time.
static TlExpr *edge_guard(Ctx *c, const TlRegion *r, TlExpr **idx) {
  if (r->buf->scope != SCOPE_GLOBAL)
    return NULL;
  TlExpr *cond = NULL;
  for (int d = 0; d < r->ndims; d++) {
    int64_t lo, hi;
    if (!r->buf->dyn[d] && tl_expr_bounds(idx[d], &lo, &hi) && lo >= 0 && hi < r->buf->shape[d])
      continue;
    TlExpr *lt = tl_expr_binary(c->arena, r->loc, OP_LT, idx[d],
                                tl_buffer_dim(c->arena, r->buf, d, idx[d]->dtype, r->loc), TY_BOOL);
    bool nonneg = (tl_expr_bounds(idx[d], &lo, &hi) && lo >= 0) ||
                  (r->buf->dyn[d] && tl_expr_nonneg(idx[d])); // a grid of runtime extent
    if (!nonneg)
      lt = tl_expr_binary(c->arena, r->loc, OP_AND,
                          tl_expr_binary(c->arena, r->loc, OP_GE, idx[d],
                                         tl_expr_int(c->arena, r->loc, 0, idx[d]->dtype), TY_BOOL),
                          lt, TY_BOOL);
    cond = cond ? tl_expr_binary(c->arena, r->loc, OP_AND, cond, lt, TY_BOOL) : lt;
  }
  return cond;
}

static TlStmt *lower_copy(Ctx *c, TlStmt *op) {
  TlStmt *nest = nest_over(c, op, &op->dst, ORIGIN_COPY);
  nest->stage_b = op->stage_b; // T.tma_copy's mbarrier (the tma-copy pass)
  TlExpr *sidx[TL_MAX_DIMS], *didx[TL_MAX_DIMS];
  indices_at(c, &op->src, nest, sidx);
  indices_at(c, &op->dst, nest, didx);
  TlExpr *value = tl_expr_load(c->arena, op->loc, op->src.buf, sidx, op->src.ndims);
  TlExpr *load_ok = edge_guard(c, &op->src, sidx);
  if (load_ok) { // zero-fill outside the source tensor
    TlExpr *sel = tl_expr_new(c->arena, EX_SELECT, op->loc, value->dtype, 3);
    sel->args[0] = load_ok;
    sel->args[1] = value;
    sel->args[2] = tl_dtype_is_float(value->dtype) ? tl_expr_float(c->arena, op->loc, 0, value->dtype)
                                                   : tl_expr_int(c->arena, op->loc, 0, value->dtype);
    value = sel;
  }
  TlStmt *st = tl_stmt_new(c->arena, ST_STORE, op->loc);
  st->buf = op->dst.buf;
  st->indices = TL_NEW_ARRAY(c->arena, TlExpr *, op->dst.ndims);
  for (int d = 0; d < op->dst.ndims; d++)
    st->indices[d] = didx[d];
  st->nindices = op->dst.ndims;
  st->value = tl_expr_cast(c->arena, op->loc, value, op->dst.buf->dtype);
  if (op->atomic) { // T.atomic_add(dst, src): dst += src, each add atomic
    st->update_op = OP_ADD;
    st->atomic = true;
  }
  TlExpr *store_ok = edge_guard(c, &op->dst, didx);
  if (store_ok) { // skip stores outside the destination tensor
    TlStmt *g = tl_stmt_new(c->arena, ST_IF, op->loc);
    g->cond = store_ok;
    tl_vec_push(c->arena, &g->body, st);
    st = g;
  }
  tl_vec_push(c->arena, &nest->body, st);
  return nest;
}

static TlStmt *lower_fill(Ctx *c, TlStmt *op) {
  TlStmt *nest = nest_over(c, op, &op->dst, ORIGIN_FILL);
  TlExpr *idx[TL_MAX_DIMS];
  indices_at(c, &op->dst, nest, idx);
  TlStmt *st = tl_stmt_new(c->arena, ST_STORE, op->loc);
  st->buf = op->dst.buf;
  st->indices = TL_NEW_ARRAY(c->arena, TlExpr *, op->dst.ndims);
  for (int d = 0; d < op->dst.ndims; d++)
    st->indices[d] = idx[d];
  st->nindices = op->dst.ndims;
  st->value = op->value;
  TlExpr *ok = edge_guard(c, &op->dst, idx);
  if (ok) {
    TlStmt *g = tl_stmt_new(c->arena, ST_IF, op->loc);
    g->cond = ok;
    tl_vec_push(c->arena, &g->body, st);
    st = g;
  }
  tl_vec_push(c->arena, &nest->body, st);
  return nest;
}

// A unit dimension of a user T.Parallel (T.Parallel(block_M, N) with
// block_M = 1) is the constant 0: dropping it lets the nest index a (1, N)
// fragment, whose unit dimension sema dropped, by the nest's first
// variable, as layout inference expects. A loop_layout= keeps its arity.
static void drop_unit_vars(Ctx *c, TlStmt *nest) {
  if (nest->layout || nest->nvars < 2) return;
  int kept = 0;
  for (int d = 0; d < nest->nvars; d++)
    kept += nest->extents[d] != 1;
  if (kept == nest->nvars || kept == 0) return;
  int n = 0;
  for (int d = 0; d < nest->nvars; d++) {
    if (nest->extents[d] != 1) {
      nest->vars[n] = nest->vars[d];
      nest->extents[n++] = nest->extents[d];
      continue;
    }
    TlExpr *zero = tl_expr_int(c->arena, nest->loc, 0, nest->vars[d]->dtype);
    for (int i = 0; i < nest->body.len; i++)
      tl_stmt_substitute(c->arena, TL_VEC_AT(nest->body, TlStmt, i), 1, &nest->vars[d], &zero);
  }
  nest->nvars = n;
}

static void lower_body(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_PARALLEL) drop_unit_vars(c, s);
    switch (s->kind) {
    case ST_COPY: {
      TlStmt *n = lower_copy(c, s);
      if (n)
        body->items[i] = n;
      break;
    }
    case ST_FILL: {
      TlStmt *n = lower_fill(c, s);
      if (n)
        body->items[i] = n;
      break;
    }
    case ST_GEMM:
      // mma.sync reads B from shared memory (ldmatrix) or, on CUDA cores,
      // any thread reads any element of B: a fragment B is first staged in
      // a shared tile (a copy nest that follows the fragment's layout).
      if (s->b->scope == SCOPE_FRAGMENT) {
        TlVec two = {0};
        s->b = tl_stage_in_shared(c->arena, c->kernel, s->b, s->loc, &two);
        tl_vec_push(c->arena, &two, s);
        tl_vec_splice(c->arena, body, i, &two);
        i++;
      }
      break;
    case ST_REDUCE:
      // The register fast path needs a 2-D fragment reduced along dim=1
      // (layout-inference sends cross-warp rows here too); the rest goes
      // through a shared scratch tile.
      if (s->src.buf->scope != SCOPE_FRAGMENT || s->dst.buf->scope != SCOPE_FRAGMENT ||
          s->src.buf->ndims != 2 || s->reduce_dim != 1) {
        TlVec two = {0};
        tl_reduce_via_shared(c->arena, c->kernel, s, &two);
        tl_vec_splice(c->arena, body, i, &two);
        i += two.len - 1;
      }
      break;
    default:
      lower_body(c, &s->body);
      lower_body(c, &s->else_body);
      break;
    }
  }
}

bool tl_lower_tile_ops(TlArena *a, TlModule *m, TlDiag *d) {
  (void)PASS;
  Ctx c = {a, NULL, d, true};
  for (int k = 0; k < m->kernels.len; k++) {
    c.kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    lower_body(&c, &c.kernel->body);
  }
  return c.ok;
}
