// TileLang's hand-written cp.async, in per-thread code:
//
//   T.ptx_cp_async(T.access_ptr(S[i, j], "w", n), T.access_ptr(G[a, b], "r", n), n[, pred])
//   T.cp_async_barrier_noinc(bar)
//
// The copy is n elements from G[a, b..b+n) to S[i, j..j+n) made by the
// calling thread (zeros where pred is false), lowered to n element stores:
// they are complete when the statement ends, so the cp.async group a
// T.ptx_commit_group / T.ptx_wait_group would close or wait for is empty
// (Scalars.c accepts both), and `cp.async.mbarrier.arrive.noinc` (each
// thread's arrival once its copies land) is a plain arrival of the thread at
// the user's mbarrier (WarpGroups.c). The run of n elements stays in the last
// dimension, as TileLang's own uses keep it (8 halves at a multiple of 8).
#include <string.h>

#include "SemaInternal.h"

enum { MAX_ELEMS = 32 };

// T.access_ptr(X[...], mode[, extent]) -> the load X[...] it points at.
static TlExpr *access_ptr(Sema *s, const TlNode *n, const char *what) {
  const char *t = n->kind == ND_CALL ? tl_sema_t_attr(s, n->a) : NULL;
  if (!t || strcmp(t, "access_ptr") != 0 || n->list.len < 1 || n->list.len > 3) {
    tl_error(s->diag, n->loc,
             "the %s of T.ptx_cp_async must be T.access_ptr(buffer[indices], mode)", what);
    return NULL;
  }
  const TlNode *at = TL_VEC_AT(n->list, TlNode, 0);
  if (at->kind != ND_SUBSCRIPT) {
    tl_error(s->diag, at->loc, "T.access_ptr takes an element, buffer[indices]");
    return NULL;
  }
  TlSym *y = at->a->kind == ND_NAME ? tl_scope_lookup(s, at->a->name) : NULL;
  bool was_read = y && y->kind == SYM_BUFFER && y->buf->read;
  TlExpr *e = tl_sema_expr(s, at);
  if (e->kind != EX_LOAD) return NULL; // reported
  if (strcmp(what, "destination") == 0) e->buf->read = was_read;
  return e;
}

// The element `k` past the load x along its last dimension.
static TlExpr *shifted(Sema *s, const TlExpr *x, int64_t k, TlLoc loc) {
  TlExpr **idx = TL_NEW_ARRAY(s->arena, TlExpr *, x->nargs);
  for (int d = 0; d < x->nargs; d++)
    idx[d] = tl_expr_clone(s->arena, x->args[d]);
  TlExpr *last = idx[x->nargs - 1];
  if (k)
    idx[x->nargs - 1] = tl_expr_binary(s->arena, loc, OP_ADD, last,
                                       tl_expr_int(s->arena, loc, k, last->dtype), last->dtype);
  return tl_expr_load(s->arena, loc, x->buf, idx, x->nargs);
}

void tl_sema_ptx_cp_async(Sema *s, const TlNode *call, TlVec *out) {
  if (call->list2.len || call->list.len < 3 || call->list.len > 4) {
    tl_error(s->diag, call->loc,
             "T.ptx_cp_async takes (dst access_ptr, src access_ptr, num_elems[, predicate])");
    return;
  }
  if (s->in_parallel) {
    tl_error(s->diag, call->loc,
             "T.ptx_cp_async inside T.Parallel; it is one thread's copy, written in per-thread "
             "code");
    return;
  }
  TlExpr *dst = access_ptr(s, TL_VEC_AT(call->list, TlNode, 0), "destination");
  TlExpr *src = access_ptr(s, TL_VEC_AT(call->list, TlNode, 1), "source");
  int64_t n;
  if (!dst || !src ||
      !tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 2), "num_elems of T.ptx_cp_async", &n))
    return;
  if (dst->buf->scope != SCOPE_SHARED || src->buf->scope != SCOPE_GLOBAL) {
    tl_error(s->diag, call->loc,
             "T.ptx_cp_async copies global memory into shared memory; here the source '%s' is "
             "%s and the destination '%s' is %s",
             src->buf->name, tl_scope_name(src->buf->scope), dst->buf->name,
             tl_scope_name(dst->buf->scope));
    return;
  }
  if (dst->buf->dtype != src->buf->dtype) {
    tl_error(s->diag, call->loc,
             "T.ptx_cp_async copies bytes between equal dtypes; '%s' is %s, "
             "'%s' is %s",
             src->buf->name, tl_dtype_name(src->buf->dtype), dst->buf->name,
             tl_dtype_name(dst->buf->dtype));
    return;
  }
  int64_t bytes = n * tl_dtype_bits(dst->buf->dtype) / 8;
  if (n < 1 || n > MAX_ELEMS || (bytes != 4 && bytes != 8 && bytes != 16)) {
    tl_error(s->diag, TL_VEC_AT(call->list, TlNode, 2)->loc,
             "T.ptx_cp_async moves 4, 8 or 16 bytes; %lld %s elements are %lld", (long long)n,
             tl_dtype_name(dst->buf->dtype), (long long)bytes);
    return;
  }
  TlExpr *pred = NULL;
  if (call->list.len == 4) {
    pred = tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 3));
    pred = tl_sema_convert(s, pred, TY_BOOL);
  }
  for (int64_t k = 0; k < n; k++) {
    TlExpr *to = shifted(s, dst, k, call->loc);
    TlExpr *value = shifted(s, src, k, call->loc);
    if (pred) {
      TlExpr *sel = tl_expr_new(s->arena, EX_SELECT, call->loc, value->dtype, 3);
      sel->args[0] = tl_expr_clone(s->arena, pred);
      sel->args[1] = value;
      sel->args[2] =
          tl_sema_convert(s, tl_expr_int(s->arena, call->loc, 0, TY_INT32), value->dtype);
      value = sel;
    }
    TlStmt *st = tl_stmt_new(s->arena, ST_STORE, call->loc);
    st->buf = to->buf;
    st->indices = to->args;
    st->nindices = to->nargs;
    st->value = value;
    st->update_op = OP_EQ;
    st->async_copy = true;
    tl_vec_push(s->arena, out, st);
  }
  dst->buf->written = true;
  src->buf->read = true;
}
