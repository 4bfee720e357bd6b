// X = T.reshape(src, shape): TileLang's view of a buffer's elements, row
// major, with another shape of the same element count.
//  * a shared tile: X is a T.view alias of it (TlBuffer.alias_of), so tile
//    operators may name X like any shared tile;
//  * a fragment or local buffer: X is an index view that sema resolves at
//    each access (it never reaches the IR): X[i..] is src at the view's
//    row-major linear index re-split into src's shape, leading dimensions
//    that agree kept as they are, so X[a, b, c] of a (N, Q, H) view of an
//    (N, Q * H) fragment is src[a, b * H + c];
//  * a T.Parallel whose trailing variables index X's split dimensions
//    (T.Parallel(N, Q, H) over X[a, b, c]) is fused into one variable over
//    src's dimension (b = m // H, c = m % H), so the nest indexes src by its
//    loop variables and follows src's layout;
//  * T.reduce_*(X, dst, dim=-1) along the split dimension: with Q = 1 the
//    reduction of src's rows, otherwise, for each q, src masked to the
//    columns of segment q reduced along its rows (the register path), then
//    one nest storing the Q results into dst.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "SemaInternal.h"

// The identity of a reduction (what a masked-out element holds) and its
// combining step: sum and abs-sum add, max and abs-max take the larger.
static TlExpr *reduce_identity(Sema *s, TlReduceKind kind, TlDtype t, TlLoc loc) {
  bool f = tl_dtype_is_float(t);
  if (kind == REDUCE_SUM || kind == REDUCE_ABSSUM || kind == REDUCE_ABSMAX)
    return f ? tl_expr_float(s->arena, loc, 0, t) : tl_expr_int(s->arena, loc, 0, t);
  bool mx = kind == REDUCE_MAX;
  if (f) return tl_expr_float(s->arena, loc, mx ? -INFINITY : INFINITY, t);
  int bits = tl_dtype_bits(t);
  int64_t hi = tl_dtype_is_signed(t) ? (int64_t)((~0ULL) >> (65 - bits))
                                     : (bits == 64 ? -1 : (int64_t)((1ULL << bits) - 1));
  int64_t lo = tl_dtype_is_signed(t) ? -hi - 1 : 0;
  return tl_expr_int(s->arena, loc, mx ? lo : hi, t);
}

static TlExpr *reduce_step(Sema *s, TlReduceKind kind, TlExpr *acc, TlExpr *x, TlLoc loc) {
  TlOp op = kind == REDUCE_SUM || kind == REDUCE_ABSSUM   ? OP_ADD
            : kind == REDUCE_MAX || kind == REDUCE_ABSMAX ? OP_MAX
                                                          : OP_MIN;
  return tl_expr_binary(s->arena, loc, op, acc, x, acc->dtype);
}

bool tl_sema_reshape(Sema *s, const TlNode *target, const TlNode *call) {
  static const char *const kws[] = {"src", "shape", NULL};
  if (!tl_sema_check_keywords(s, call, "reshape", kws)) return false;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.reshape must be assigned to a name");
    return false;
  }
  const TlNode *src = tl_sema_arg(call, 0, "src");
  const TlNode *shape = tl_sema_arg(call, 1, "shape");
  if (!src || !shape || call->list.len > 2) {
    tl_error(s->diag, call->loc, "T.reshape takes a buffer and a shape");
    return false;
  }
  TlSym *y = src->kind == ND_NAME ? tl_scope_lookup(s, src->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    tl_error(s->diag, src->loc, "T.reshape takes an on-chip buffer by name");
    return false;
  }
  TlBuffer *p = y->buf;
  if (p->reshape_of) p = (TlBuffer *)p->reshape_of; // a view of a view: of the buffer
  if (p->scope == SCOPE_SHARED && p->alias_of) p = (TlBuffer *)p->alias_of;
  if (p->scope == SCOPE_GLOBAL) {
    tl_error(s->diag, src->loc,
             "'%s' is a global tensor; tlc takes T.reshape of shared tiles, fragments and "
             "local buffers",
             p->name);
    tl_note(s->diag, p->loc,
            "declare the tensor parameter with the shape you need, or use "
            "T.Tensor(shape, dtype, %s.data)",
            p->name);
    return false;
  }
  if (p->stages != 1) {
    tl_error(s->diag, src->loc, "T.reshape of the multi-buffered tile '%s' is not supported",
             p->name);
    return false;
  }
  TlValue *sv = tl_sema_eval_const(s, shape);
  if (sv->kind == VAL_ERROR) return false;
  int nd = sv->kind == VAL_TUPLE ? sv->items.len : 1;
  if ((sv->kind != VAL_TUPLE && sv->kind != VAL_INT) || nd < 1 || nd > TL_MAX_DIMS) {
    tl_error(s->diag, shape->loc, "expected a shape of 1 to %d integers", TL_MAX_DIMS);
    return false;
  }
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  *b = (TlBuffer){.name = target->name,
                  .loc = target->loc,
                  .scope = p->scope,
                  .stages = 1,
                  .dtype = p->dtype,
                  .ndims = nd};
  int64_t total = 1;
  for (int i = 0; i < nd; i++) {
    const TlValue *d = sv->kind == VAL_TUPLE ? TL_VEC_AT(sv->items, TlValue, i) : sv;
    if (d->kind != VAL_INT || d->i < 1 || tl_mul_overflows(total, d->i, &total)) {
      tl_error(s->diag, shape->loc,
               "dimension %d of the reshape '%s' must be a positive integer (compile-time)", i,
               b->name);
      return false;
    }
    b->shape[i] = d->i;
  }
  // Shapes as written (a fragment's unit dimensions are dropped from p).
  int64_t src_total = tl_buffer_elems(p);
  if (total != src_total) {
    char sa[160] = "", sb[160] = "";
    for (int i = 0, n = 0; i < nd; i++)
      n += snprintf(sa + n, sizeof sa - (size_t)n, "%s%lld", i ? ", " : "", (long long)b->shape[i]);
    int pn = p->source_ndims ? p->source_ndims : p->ndims;
    for (int i = 0, j = 0, n = 0; i < pn; i++) {
      int64_t e = p->source_ndims && (p->dropped_dims & (1u << i)) ? 1 : p->shape[j++];
      n += snprintf(sb + n, sizeof sb - (size_t)n, "%s%lld", i ? ", " : "", (long long)e);
    }
    tl_error(s->diag, call->loc,
             "T.reshape of '%s' to (%s) has %lld elements, but '%s' (%s) has %lld", p->name, sa,
             (long long)total, p->name, sb, (long long)src_total);
    tl_note(s->diag, p->loc,
            "a reshape keeps the elements: the product of the new shape must be %lld",
            (long long)src_total);
    return false;
  }
  TlSym *prev = tl_scope_lookup(s, b->name);
  if (prev && prev->kind == SYM_BUFFER) {
    tl_error(s->diag, target->loc, "redefinition of buffer '%s'", b->name);
    tl_note(s->diag, prev->loc, "previous definition is here");
    return false;
  }
  if (p->scope == SCOPE_SHARED) { // a T.view alias, which the tile operators take
    b->alias_of = p;
    p->aliased = true;
    tl_vec_push(s->arena, &s->kernel->buffers, b);
  } else {
    b->reshape_of = p;
  }
  TlSym *sym = tl_scope_define(s, s->scope, b->name, SYM_BUFFER, target->loc);
  sym->buf = b;
  return true;
}

static TlExpr *ibin(Sema *s, TlLoc loc, TlOp op, TlExpr *x, int64_t c) {
  return tl_expr_binary(s->arena, loc, op, x, tl_expr_int(s->arena, loc, c, s->index_dtype),
                        s->index_dtype);
}

// The dimensions of view v that agree with its source's leading ones.
static int common_prefix(const TlBuffer *v) {
  const TlBuffer *p = v->reshape_of;
  int c = 0;
  while (c < v->ndims - 1 && c < p->ndims - 1 && v->shape[c] == p->shape[c])
    c++;
  return c;
}

TlExpr *tl_sema_reshape_access(Sema *s, TlBuffer *v, TlExpr **idx, TlLoc loc) {
  TlBuffer *p = (TlBuffer *)v->reshape_of;
  int c = common_prefix(v);
  TlExpr *out[TL_MAX_DIMS];
  for (int d = 0; d < c; d++)
    out[d] = idx[d];
  TlExpr *lin = idx[c];
  for (int d = c + 1; d < v->ndims; d++)
    lin = tl_expr_binary(s->arena, loc, OP_ADD, ibin(s, loc, OP_MUL, lin, v->shape[d]), idx[d],
                         s->index_dtype);
  int64_t stride = 1;
  for (int d = p->ndims - 1; d >= c; d--) {
    TlExpr *e = lin;
    if (stride > 1) e = ibin(s, loc, OP_FLOORDIV, e, stride);
    if (d > c) e = ibin(s, loc, OP_FLOORMOD, e, p->shape[d]);
    out[d] = e;
    stride *= p->shape[d];
  }
  // The trailing variables of the T.Parallel being lowered index the split
  // dimensions in order: ask for the nest to be fused (tl_sema_reshape_fuse).
  const TlStmt *par = s->parallel;
  int split = v->ndims - c;
  if (par && p->ndims - c == 1 && split > 1 && split <= par->nvars) {
    int from = par->nvars - split;
    bool ok = true;
    for (int d = c; d < v->ndims && ok; d++) {
      const TlExpr *e = idx[d];
      int at = from + d - c;
      ok = e->kind == EX_VAR && e->var == par->vars[at] && par->extents[at] == v->shape[d];
    }
    if (ok) {
      if (s->reshape_fuse_nest == par && s->reshape_fuse_from != from)
        s->reshape_fuse_from = -1; // two different splits: no fusion
      else if (s->reshape_fuse_nest != par) {
        s->reshape_fuse_nest = par;
        s->reshape_fuse_from = from;
      }
    }
  }
  p->read = true;
  return tl_expr_load(s->arena, loc, p, out, p->ndims);
}

static TlExpr *simplify_indices(TlArena *a, TlExpr *e) {
  if (!e) return e;
  for (int i = 0; i < e->nargs; i++) {
    e->args[i] = simplify_indices(a, e->args[i]);
    if (e->kind == EX_LOAD) e->args[i] = tl_simplify(a, e->args[i]);
  }
  return e;
}

static void simplify_body(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    for (int d = 0; d < st->nindices; d++)
      st->indices[d] = tl_simplify(a, simplify_indices(a, st->indices[d]));
    st->value = simplify_indices(a, st->value);
    st->cond = simplify_indices(a, st->cond);
    simplify_body(a, &st->body);
    simplify_body(a, &st->else_body);
  }
}

void tl_sema_reshape_fuse(Sema *s, TlStmt *par) {
  if (s->reshape_fuse_nest != par) return;
  int from = s->reshape_fuse_from;
  s->reshape_fuse_nest = NULL;
  if (from < 0 || par->layout || par->nvars - from < 2) return;
  int64_t ext = 1;
  for (int d = from; d < par->nvars; d++)
    ext *= par->extents[d];
  TlLoc loc = par->loc;
  const char *name = par->vars[from]->name;
  for (int d = from + 1; d < par->nvars; d++)
    name = tl_arena_printf(s->arena, "%s_%s", name, par->vars[d]->name);
  TlVar *m = tl_var_new(s->arena, s->kernel, name, VAR_LOOP, par->vars[from]->dtype, loc);
  m->extent = ext;
  TlVar *old[TL_MAX_DIMS];
  TlExpr *with[TL_MAX_DIMS];
  int n = par->nvars - from;
  int64_t stride = 1;
  for (int d = par->nvars - 1; d >= from; d--) {
    TlExpr *e = tl_expr_var(s->arena, loc, m);
    if (stride > 1) e = ibin(s, loc, OP_FLOORDIV, e, stride);
    if (d > from) e = ibin(s, loc, OP_FLOORMOD, e, par->extents[d]);
    old[d - from] = par->vars[d];
    with[d - from] = e;
    stride *= par->extents[d];
  }
  for (int i = 0; i < par->body.len; i++)
    tl_stmt_substitute(s->arena, TL_VEC_AT(par->body, TlStmt, i), n, old, with);
  simplify_body(s->arena, &par->body);
  par->vars[from] = m;
  par->extents[from] = ext;
  par->nvars = from + 1;
}

static TlStmt *nest2(Sema *s, TlLoc loc, int64_t e0, int64_t e1, const char *n0, const char *n1) {
  TlStmt *st = tl_stmt_new(s->arena, ST_PARALLEL, loc);
  st->origin = ORIGIN_REDUCE;
  st->nvars = 2;
  st->extents[0] = e0;
  st->extents[1] = e1;
  st->vars[0] = tl_var_new(s->arena, s->kernel, n0, VAR_LOOP, s->index_dtype, loc);
  st->vars[1] = tl_var_new(s->arena, s->kernel, n1, VAR_LOOP, s->index_dtype, loc);
  st->vars[0]->extent = e0;
  st->vars[1]->extent = e1;
  return st;
}

static TlBuffer *new_fragment(Sema *s, const char *name, TlDtype t, int nd, const int64_t *shape,
                              TlLoc loc) {
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  *b = (TlBuffer){.name = name, .loc = loc, .scope = SCOPE_FRAGMENT, .stages = 1, .dtype = t};
  b->ndims = nd;
  for (int d = 0; d < nd; d++)
    b->shape[d] = shape[d];
  b->read = b->written = true;
  tl_vec_push(s->arena, &s->kernel->buffers, b);
  return b;
}

bool tl_sema_reshape_reduce(Sema *s, const TlNode *call, TlStmt *st, int dim, const char *op,
                            TlVec *out) {
  TlBuffer *v = st->src.buf, *p = (TlBuffer *)v->reshape_of, *dst = st->dst.buf;
  TlLoc loc = call->loc;
  int c = common_prefix(v);
  // Supported: a 2-D fragment whose last dimension the view splits in two,
  // reduced along the view's last dimension.
  bool form = p->scope == SCOPE_FRAGMENT && p->ndims == 2 && v->ndims == 3 && c == 1 && dim == 2 &&
              v->shape[1] * v->shape[2] == p->shape[1];
  if (!form) {
    tl_error(s->diag, loc,
             "T.%s of the reshape '%s' is supported along its last dimension, when it splits "
             "the last dimension of a 2-D fragment in two ((N, Q * H) viewed as (N, Q, H))",
             op, v->name);
    tl_note(s->diag, v->loc, "'%s' declared here", v->name);
    return false;
  }
  int64_t N = v->shape[0], Q = v->shape[1], H = v->shape[2];
  // dst has the view's shape without dim: (N, Q), unit dimensions dropped.
  int64_t want[2] = {N, Q}, kept[2];
  int nk = 0;
  for (int d = 0; d < 2; d++)
    if (want[d] != 1 || !dst->source_ndims) kept[nk++] = want[d];
  bool ok = dst->ndims == nk && (dst->scope == SCOPE_FRAGMENT || dst->scope == SCOPE_SHARED);
  for (int d = 0; ok && d < nk; d++)
    ok = dst->shape[d] == kept[d];
  if (!ok) {
    tl_error(s->diag, loc,
             "shape mismatch in T.%s: reducing the reshape '%s' (%lld, %lld, %lld) along dim 2 "
             "needs a (%lld, %lld) fragment or shared tile, not '%s'",
             op, v->name, (long long)N, (long long)Q, (long long)H, (long long)N, (long long)Q,
             dst->name);
    return false;
  }
  bool whole = true;
  for (int d = 0; d < st->src.ndims && whole; d++) {
    int64_t z;
    whole = st->src.extent[d] == v->shape[d] && tl_expr_is_const(st->src.start[d], &z) && z == 0;
  }
  if (!whole || st->src.ndims != 3) {
    tl_error(s->diag, st->src.loc, "T.%s takes the whole reshape '%s', not a region of it", op,
             v->name);
    return false;
  }
  p->read = true;
  dst->written = true;
  if (Q == 1) { // the rows of p
    st->src.buf = p;
    st->src.ndims = 2;
    for (int d = 0; d < 2; d++) {
      st->src.start[d] = tl_expr_int(s->arena, loc, 0, s->index_dtype);
      st->src.extent[d] = p->shape[d];
    }
    st->reduce_dim = 1;
    tl_vec_push(s->arena, out, st);
    return true;
  }
  TlDtype t = dst->dtype;
  int64_t shape[2] = {N, p->shape[1]};
  TlBuffer *masked =
      new_fragment(s, tl_arena_printf(s->arena, "%s_seg%d", v->name, s->kernel->buffers.len),
                   p->dtype, 2, shape, loc);
  TlBuffer *rows[TL_MAX_DIMS * 8];
  if (Q > (int64_t)(sizeof rows / sizeof rows[0])) {
    tl_error(s->diag, loc, "T.%s of the reshape '%s' into more than %d segments per row", op,
             v->name, (int)(sizeof rows / sizeof rows[0]));
    return false;
  }
  for (int64_t q = 0; q < Q; q++) {
    // masked[i, j] = j // H == q ? p[i, j] : init
    TlStmt *m = nest2(s, loc, N, p->shape[1], "i", "j");
    TlExpr *ij[2] = {tl_expr_var(s->arena, loc, m->vars[0]),
                     tl_expr_var(s->arena, loc, m->vars[1])};
    TlExpr *in = tl_expr_binary(s->arena, loc, OP_EQ, ibin(s, loc, OP_FLOORDIV, ij[1], H),
                                tl_expr_int(s->arena, loc, q, s->index_dtype), TY_BOOL);
    TlExpr *sel = tl_expr_new(s->arena, EX_SELECT, loc, p->dtype, 3);
    sel->args[0] = in;
    sel->args[1] = tl_expr_load(s->arena, loc, p, ij, 2);
    sel->args[2] = reduce_identity(s, st->reduce, p->dtype, loc);
    TlStmt *w = tl_stmt_new(s->arena, ST_STORE, loc);
    w->buf = masked;
    w->indices = TL_NEW_ARRAY(s->arena, TlExpr *, 2);
    w->indices[0] = ij[0];
    w->indices[1] = ij[1];
    w->nindices = 2;
    w->update_op = OP_EQ;
    w->value = sel;
    tl_vec_push(s->arena, &m->body, w);
    tl_vec_push(s->arena, out, m);
    // rows[q] = reduce(masked, dim=1)
    rows[q] = new_fragment(s, tl_arena_printf(s->arena, "%s_row%lld", v->name, (long long)q), t, 1,
                           &N, loc);
    TlStmt *r = tl_stmt_new(s->arena, ST_REDUCE, loc);
    r->reduce = st->reduce;
    r->reduce_dim = 1;
    r->reduce_clear = true;
    r->src = (TlRegion){.buf = masked, .loc = loc, .ndims = 2};
    r->dst = (TlRegion){.buf = rows[q], .loc = loc, .ndims = 1};
    for (int d = 0; d < 2; d++) {
      r->src.start[d] = tl_expr_int(s->arena, loc, 0, s->index_dtype);
      r->src.extent[d] = shape[d];
    }
    r->dst.start[0] = tl_expr_int(s->arena, loc, 0, s->index_dtype);
    r->dst.extent[0] = N;
    tl_vec_push(s->arena, out, r);
  }
  // dst[i, q] = rows[q][i] (combined with dst[i, q] when clear=False)
  TlStmt *fin = nest2(s, loc, N, Q, "i", "q");
  TlExpr *i = tl_expr_var(s->arena, loc, fin->vars[0]),
         *q = tl_expr_var(s->arena, loc, fin->vars[1]);
  TlExpr *val = tl_expr_load(s->arena, loc, rows[Q - 1], &i, 1);
  for (int64_t k = Q - 2; k >= 0; k--) {
    TlExpr *sel = tl_expr_new(s->arena, EX_SELECT, loc, t, 3);
    sel->args[0] = tl_expr_binary(s->arena, loc, OP_EQ, q,
                                  tl_expr_int(s->arena, loc, k, s->index_dtype), TY_BOOL);
    sel->args[1] = tl_expr_load(s->arena, loc, rows[k], &i, 1);
    sel->args[2] = val;
    val = sel;
  }
  TlExpr *didx[2] = {i, q};
  int dn = 0;
  for (int d = 0; d < 2; d++)
    if (want[d] != 1 || !dst->source_ndims) didx[dn++] = d ? q : i;
  if (!st->reduce_clear)
    val = reduce_step(s, st->reduce, tl_expr_load(s->arena, loc, dst, didx, dn), val, loc);
  TlStmt *w = tl_stmt_new(s->arena, ST_STORE, loc);
  w->buf = dst;
  w->indices = TL_NEW_ARRAY(s->arena, TlExpr *, 2);
  w->indices[0] = didx[0];
  w->indices[1] = didx[1];
  w->nindices = dn;
  w->update_op = OP_EQ;
  w->value = val;
  tl_vec_push(s->arena, &fin->body, w);
  tl_vec_push(s->arena, out, fin);
  return true;
}
