// T.cumsum(src, dst=None, dim=0, reverse=False): the inclusive prefix sum of
// a shared tile or fragment along one dimension, into dst (src itself when
// dst is None), as TileLang's tilelang/language/scan_op.py defines it.
//
// Lowered here to a T.Parallel nest over the other dimension whose body
// walks its line serially: dst[first] = src[first], then dst[i] = dst[prev]
// + src[i], from the last element down when reverse=True. A fragment is
// scanned in a shared copy and copied back, as TileLang does
// (cumsum_fragment), so the nest never depends on which thread holds what.
// One thread per line: fine for TileLang's chunked gates (64 elements a
// line), slow for a long single line (a tree scan is not built).
#include <string.h>

#include "SemaInternal.h"

static TlBuffer *buffer_of(Sema *s, const TlNode *n, const char *what) {
  TlSym *y = n && n->kind == ND_NAME ? tl_scope_lookup(s, n->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    tl_error(s->diag, n ? n->loc : (TlLoc){0}, "T.cumsum's %s must name a buffer", what);
    return NULL;
  }
  TlBuffer *b = y->buf;
  if ((b->scope != SCOPE_SHARED && b->scope != SCOPE_FRAGMENT) || b->ndims > 2 || b->ndims < 1) {
    tl_error(s->diag, n->loc,
             "T.cumsum scans a 1-D or 2-D shared tile or fragment; '%s' is not one", b->name);
    return NULL;
  }
  return b;
}

static TlExpr *var(Sema *s, TlLoc loc, TlVar *v) {
  return tl_expr_var(s->arena, loc, v);
}

static TlExpr *lit(Sema *s, TlLoc loc, int64_t v) {
  return tl_expr_int(s->arena, loc, v, s->index_dtype);
}

static TlStmt *store(Sema *s, TlLoc loc, TlBuffer *b, TlExpr **idx, TlExpr *value) {
  TlStmt *st = tl_stmt_new(s->arena, ST_STORE, loc);
  st->buf = b;
  st->nindices = b->ndims;
  st->indices = TL_NEW_ARRAY(s->arena, TlExpr *, b->ndims);
  for (int d = 0; d < b->ndims; d++)
    st->indices[d] = idx[d];
  st->value = tl_sema_convert(s, value, b->dtype);
  st->update_op = OP_EQ;
  b->written = true;
  return st;
}

static TlStmt *nest(Sema *s, TlLoc loc, int n, const int64_t *extents) {
  TlStmt *p = tl_stmt_new(s->arena, ST_PARALLEL, loc);
  p->origin = ORIGIN_USER;
  p->nvars = n;
  static const char *const names[2] = {"i", "j"};
  for (int d = 0; d < n; d++) {
    TlVar *v = tl_var_new(s->arena, s->kernel, names[d], VAR_LOOP, TY_INT32, loc);
    v->extent = extents[d];
    p->vars[d] = v;
    p->extents[d] = extents[d];
  }
  return p;
}

// dst[...] = src[...] over the whole (same-shaped) tile.
static TlStmt *copy_nest(Sema *s, TlLoc loc, TlBuffer *dst, TlBuffer *src) {
  TlStmt *p = nest(s, loc, dst->ndims, dst->shape);
  TlExpr *idx[2];
  for (int d = 0; d < dst->ndims; d++)
    idx[d] = var(s, loc, p->vars[d]);
  tl_vec_push(s->arena, &p->body,
              store(s, loc, dst, idx, tl_expr_load(s->arena, loc, src, idx, dst->ndims)));
  src->read = true;
  return p;
}

// The indices of position pos of line `line` along dim.
static void at(const TlBuffer *b, int dim, TlExpr *line, TlExpr *pos, TlExpr **idx) {
  if (b->ndims == 1) {
    idx[0] = pos;
    return;
  }
  idx[dim] = pos;
  idx[1 - dim] = line;
}

// The scan of `src` into `dst` (same shape, shared) along dimension dim.
static TlStmt *scan_nest(Sema *s, TlLoc loc, TlBuffer *dst, TlBuffer *src, int dim, bool reverse) {
  int64_t len = src->shape[dim];
  int64_t other = src->ndims == 2 ? src->shape[1 - dim] : 1;
  TlStmt *p = nest(s, loc, 1, &other);
  TlExpr *line = var(s, loc, p->vars[0]);
  TlExpr *fi[2];
  at(src, dim, line, lit(s, loc, reverse ? len - 1 : 0), fi);
  if (dst != src) // in place, the first element is its own sum
    tl_vec_push(s->arena, &p->body,
                store(s, loc, dst, fi, tl_expr_load(s->arena, loc, src, fi, src->ndims)));
  if (len > 1) {
    TlStmt *walk = tl_stmt_new(s->arena, ST_FOR, loc);
    walk->loop_kind = LOOP_SERIAL;
    walk->var = tl_var_new(s->arena, s->kernel, "t", VAR_LOOP, s->index_dtype, loc);
    walk->var->extent = len;
    walk->start = lit(s, loc, 1);
    walk->stop = lit(s, loc, len);
    walk->step = lit(s, loc, 1);
    TlDtype it = s->index_dtype;
    TlExpr *t = var(s, loc, walk->var);
    TlExpr *cur = reverse ? tl_expr_binary(s->arena, loc, OP_SUB, lit(s, loc, len - 1), t, it) : t;
    TlExpr *prev = reverse ? tl_expr_binary(s->arena, loc, OP_ADD, cur, lit(s, loc, 1), it)
                           : tl_expr_binary(s->arena, loc, OP_SUB, t, lit(s, loc, 1), it);
    TlExpr *ci[2], *pi[2];
    at(src, dim, line, cur, ci);
    at(src, dim, line, prev, pi);
    TlExpr *sum =
        tl_expr_binary(s->arena, loc, OP_ADD, tl_expr_load(s->arena, loc, dst, pi, dst->ndims),
                       tl_expr_load(s->arena, loc, src, ci, src->ndims), dst->dtype);
    tl_vec_push(s->arena, &walk->body, store(s, loc, dst, ci, sum));
    tl_vec_push(s->arena, &p->body, walk);
  }
  src->read = dst->read = true;
  return p;
}

void tl_sema_cumsum(Sema *s, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"src", "dst", "dim", "reverse", "annotations", NULL};
  if (!tl_sema_check_keywords(s, call, "T.cumsum", kws)) return;
  if (call->list.len > 4) {
    tl_error(s->diag, call->loc, "T.cumsum takes src, dst, dim and reverse");
    return;
  }
  const TlNode *arg[4];
  for (int i = 0; i < 4; i++)
    arg[i] = i < call->list.len ? TL_VEC_AT(call->list, TlNode, i) : tl_sema_kwarg(call, kws[i]);
  TlLoc loc = call->loc;
  TlBuffer *src = buffer_of(s, arg[0], "source");
  if (!src) return;
  TlBuffer *dst = src;
  if (arg[1] && arg[1]->kind != ND_NONE && !(dst = buffer_of(s, arg[1], "destination"))) return;
  int64_t dim = 0;
  if (arg[2] && !tl_sema_const_int(s, arg[2], "dim=", &dim)) return;
  bool reverse = false;
  if (arg[3]) {
    TlValue *v = tl_sema_eval_const(s, arg[3]);
    if (v->kind != VAL_BOOL && v->kind != VAL_INT) {
      if (v->kind != VAL_ERROR) tl_error(s->diag, arg[3]->loc, "reverse= must be True or False");
      return;
    }
    reverse = v->i != 0;
  }
  // dim counts the dimensions as written; a fragment's unit ones are dropped.
  int written = src->source_ndims ? src->source_ndims : src->ndims;
  if (dim < 0) dim += written;
  if (dim < 0 || dim >= written) {
    tl_error(s->diag, arg[2] ? arg[2]->loc : loc, "dim=%lld is out of range for the %d-D '%s'",
             (long long)dim, written, src->name);
    return;
  }
  if (src->source_ndims) {
    if (src->dropped_dims & (1u << dim))
      dim = -1; // a unit dimension: the sums are the elements
    else {
      int kept = 0;
      for (int d = 0; d < dim; d++)
        kept += !(src->dropped_dims & (1u << d));
      dim = kept;
    }
  }
  if (dst->ndims != src->ndims || dst->dtype != src->dtype ||
      memcmp(dst->shape, src->shape, sizeof(int64_t) * (size_t)src->ndims) != 0) {
    tl_error(s->diag, loc, "T.cumsum's destination '%s' must have the shape and dtype of '%s'",
             dst->name, src->name);
    return;
  }
  if (dim < 0) { // along a unit dimension
    if (dst != src) tl_vec_push(s->arena, out, copy_nest(s, loc, dst, src));
    return;
  }
  if (src->scope == SCOPE_SHARED && dst->scope == SCOPE_SHARED) {
    tl_vec_push(s->arena, out, scan_nest(s, loc, dst, src, (int)dim, reverse));
    return;
  }
  // A fragment on either side: scan in a shared copy (TileLang's cumsum_fragment).
  TlBuffer *tmp = TL_NEW(s->arena, TlBuffer);
  *tmp = *src;
  tmp->name = tl_arena_printf(s->arena, "%s_scan%d", src->name, s->kernel->buffers.len);
  tmp->scope = SCOPE_SHARED;
  tmp->layout = NULL;
  tmp->loc = loc;
  tmp->source_ndims = 0;
  tmp->dropped_dims = 0;
  tl_vec_push(s->arena, &s->kernel->buffers, tmp);
  tl_vec_push(s->arena, out, copy_nest(s, loc, tmp, src));
  tl_vec_push(s->arena, out, scan_nest(s, loc, tmp, tmp, (int)dim, reverse));
  tl_vec_push(s->arena, out, copy_nest(s, loc, dst, tmp));
}
