// TVM's thread all-reduce, as TileLang's GEMV examples write it:
//
//   with T.attr(T.comm_reducer(lambda x, y: x + y, [T.Cast(dt, 0)]), "reduce_scope", ...):
//       T.evaluate(T.tvm_thread_allreduce(T.uint32(1), value, True, out[0], tk, dtype="handle"))
//
// Every thread contributes `value`; the threads that differ only along the
// reduce axes (tk, ...: thread indices) form a group, and each thread of a
// group gets the group's reduction in its own out[0]. Lowered here to code
// the rest of tlc already compiles: each thread writes its value to its slot
// of a shared scratch tile (one slot per thread of the block), a barrier,
// then each thread folds the slots of its group in order with the reducer
// (the lambda, inlined like any helper), from the first slot on.
#include <string.h>

#include "SemaInternal.h"

// The T.tvm_thread_allreduce call of the with-block's body (`T.evaluate(...)`
// or the call alone), or NULL.
static const TlNode *allreduce_call(Sema *s, const TlNode *with) {
  if (with->list.len != 1) return NULL;
  const TlNode *st = TL_VEC_AT(with->list, TlNode, 0);
  if (st->kind != ND_EXPR_STMT || st->a->kind != ND_CALL) return NULL;
  const TlNode *c = st->a;
  const char *t = tl_sema_t_attr(s, c->a);
  if (t && strcmp(t, "evaluate") == 0 && c->list.len == 1 &&
      TL_VEC_AT(c->list, TlNode, 0)->kind == ND_CALL)
    c = TL_VEC_AT(c->list, TlNode, 0);
  t = tl_sema_t_attr(s, c->a);
  return t && strcmp(t, "tvm_thread_allreduce") == 0 ? c : NULL;
}

// threadIdx along dimension d (0 when the kernel has no variable for it).
static TlExpr *thread_index(Sema *s, int d, TlLoc loc) {
  TlVar *v = s->kernel->thread_vars[d];
  return v ? tl_expr_var(s->arena, loc, v) : tl_expr_int(s->arena, loc, 0, s->index_dtype);
}

// The `let v = value` among stmts (at any depth), or NULL.
static const TlExpr *let_in(const TlVec *stmts, const TlVar *v, int depth) {
  for (int i = 0; i < stmts->len && depth < 64; i++) {
    const TlStmt *st = TL_VEC_AT(*stmts, TlStmt, i);
    if (st->kind == ST_LET && st->var == v) return st->value;
    const TlExpr *e = let_in(&st->body, v, depth + 1);
    if (!e) e = let_in(&st->else_body, v, depth + 1);
    if (e) return e;
  }
  return NULL;
}

// The value a kernel scalar was defined with (`tk = T.get_thread_binding(1)`,
// or a macro's parameter bound to it), when sema still knows it: NULL after
// a re-assignment in scope, or when it is found nowhere.
static const TlExpr *let_value(Sema *s, const TlVar *v, const TlVec *out) {
  for (TlSymScope *sc = s->scope; sc; sc = sc->parent)
    for (TlSym *y = sc->syms; y; y = y->next)
      if (y->kind == SYM_VAR && y->var == v && y->let_value) return y->let_value;
  const TlExpr *e = let_in(out, v, 0);
  return e ? e : let_in(&s->kernel->body, v, 0);
}

// A copy of the indices of access e (each statement gets its own).
static TlExpr **clone_args(Sema *s, const TlExpr *e) {
  TlExpr **a = TL_NEW_ARRAY(s->arena, TlExpr *, e->nargs ? e->nargs : 1);
  for (int i = 0; i < e->nargs; i++)
    a[i] = tl_expr_clone(s->arena, e->args[i]);
  return a;
}

// `with T.attr(T.comm_reducer(...), "reduce_scope", ...)`: true when n is one
// (then lowered into out, or reported).
bool tl_sema_thread_allreduce(Sema *s, const TlNode *n, TlVec *out) {
  const TlNode *attr = n->a;
  if (attr->kind != ND_CALL || n->b) return false;
  const char *t = tl_sema_t_attr(s, attr->a);
  if (!t || strcmp(t, "attr") != 0 || attr->list.len != 3) return false;
  const TlNode *red = TL_VEC_AT(attr->list, TlNode, 0);
  const char *rt = red->kind == ND_CALL ? tl_sema_t_attr(s, red->a) : NULL;
  if (!rt || strcmp(rt, "comm_reducer") != 0) return false;
  const TlNode *call = allreduce_call(s, n);
  if (!call) {
    tl_error(s->diag, n->loc,
             "a 'reduce_scope' attribute holds one T.tvm_thread_allreduce(...) call");
    return true;
  }
  if (s->in_parallel) {
    tl_error(s->diag, call->loc,
             "T.tvm_thread_allreduce inside T.Parallel; it reduces the values of per-thread "
             "code across threads");
    return true;
  }
  // The reducer: a function of two values (one reduced value per thread).
  if (red->list.len < 1) {
    tl_error(s->diag, red->loc, "T.comm_reducer takes a reducer and its identities");
    return true;
  }
  const TlNode *fn_node = TL_VEC_AT(red->list, TlNode, 0);
  TlValue *fn = tl_sema_eval_const(s, fn_node);
  if (fn->kind == VAL_ERROR) return true;
  if (fn->kind != VAL_FUNC || fn->fn->params.len != 2) {
    tl_error(s->diag, fn_node->loc,
             "tlc reduces one value per thread: the reducer must be a function of two "
             "values, e.g. lambda x, y: x + y");
    return true;
  }
  // tvm_thread_allreduce(size, source, cond, result, reduce_axis...)
  if (call->list.len < 5) {
    tl_error(s->diag, call->loc,
             "T.tvm_thread_allreduce takes (1, value, True, result, thread axis...), %d "
             "arguments given",
             call->list.len);
    return true;
  }
  int64_t size;
  if (!tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 0), "the number of values", &size))
    return true;
  if (size != 1) {
    tl_error(s->diag, TL_VEC_AT(call->list, TlNode, 0)->loc,
             "T.tvm_thread_allreduce of %lld values at once; tlc reduces one", (long long)size);
    return true;
  }
  const TlNode *cond_node = TL_VEC_AT(call->list, TlNode, 2);
  TlValue *cond = tl_sema_is_constant_expr(s, cond_node) ? tl_sema_eval_const(s, cond_node) : NULL;
  if (cond && cond->kind == VAL_ERROR) return true;
  if (!cond || !tl_value_truthy(cond)) {
    tl_error(s->diag, cond_node->loc,
             "T.tvm_thread_allreduce's condition must be True: every thread contributes");
    return true;
  }
  TlExpr *value = tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 1));
  const TlNode *res_node = TL_VEC_AT(call->list, TlNode, 3);
  TlExpr *res = tl_sema_expr(s, res_node);
  if (res->kind != EX_LOAD || res->buf->scope != SCOPE_LOCAL) {
    tl_error(s->diag, res_node->loc,
             "the result of T.tvm_thread_allreduce is each thread's own: an element of a "
             "T.alloc_local buffer");
    return true;
  }
  TlKernel *k = s->kernel;
  bool axis[3] = {false, false, false};
  TlExpr *axis_expr[3] = {NULL, NULL, NULL};
  int64_t group = 1;
  for (int i = 4; i < call->list.len; i++) {
    const TlNode *an = TL_VEC_AT(call->list, TlNode, i);
    TlExpr *a = tl_sema_expr(s, an), *written = a;
    // tk = T.get_thread_binding(1): a scalar assigned once, seen through
    for (int hops = 0; a->kind == EX_VAR && a->var->kind == VAR_SCALAR && hops < 8; hops++) {
      const TlExpr *v = let_value(s, a->var, out);
      if (!v) break;
      a = (TlExpr *)v;
    }
    int d = -1;
    for (int j = 0; j < 3; j++)
      if (a->kind == EX_VAR && k->thread_vars[j] && a->var == k->thread_vars[j]) d = j;
    if (d < 0) {
      tl_error(s->diag, an->loc,
               "T.tvm_thread_allreduce reduces across thread axes: T.get_thread_binding(d) "
               "values");
      return true;
    }
    if (axis[d]) {
      tl_error(s->diag, an->loc, "thread axis %c is named twice", "xyz"[d]);
      return true;
    }
    axis[d] = true;
    axis_expr[d] = written; // the slot index along d: uses the name the user wrote
    group *= k->threads[d];
  }
  TlLoc loc = call->loc;
  TlDtype dt = res->buf->dtype;
  // The scratch tile: one slot per thread, [z, y, x].
  TlBuffer *b = TL_NEW(s->arena, TlBuffer);
  b->name = tl_arena_printf(s->arena, "allreduce_%d_%d", loc.line, loc.col);
  for (int i = 0, nth = 2; i < k->buffers.len; i++) // a macro's all-reduce, inlined twice
    if (strcmp(TL_VEC_AT(k->buffers, TlBuffer, i)->name, b->name) == 0) {
      b->name = tl_arena_printf(s->arena, "allreduce_%d_%d_%d", loc.line, loc.col, nth++);
      i = -1;
    }
  b->loc = loc;
  b->scope = SCOPE_SHARED;
  b->stages = 1;
  b->dtype = dt;
  b->ndims = 3;
  for (int d = 0; d < 3; d++)
    b->shape[2 - d] = k->threads[d] > 0 ? k->threads[d] : 1;
  tl_vec_push(s->arena, &k->buffers, b);
  TlExpr **mine = TL_NEW_ARRAY(s->arena, TlExpr *, 3);
  for (int d = 0; d < 3; d++)
    mine[2 - d] = axis[d] ? tl_expr_clone(s->arena, axis_expr[d]) : thread_index(s, d, loc);
  TlStmt *put = tl_stmt_new(s->arena, ST_STORE, loc);
  put->buf = b;
  put->indices = mine;
  put->nindices = 3;
  put->update_op = OP_EQ;
  put->value = tl_sema_convert(s, value, dt);
  tl_vec_push(s->arena, out, put);
  tl_vec_push(s->arena, out, tl_stmt_new(s->arena, ST_SYNC, loc));
  // slot(r): this thread's slot with the reduce axes at member r of the
  // group (x fastest).
  TlVar *r = tl_var_new(s->arena, k, "r", VAR_LOOP, s->index_dtype, loc);
  r->extent = group;
  TlExpr **slot_r = TL_NEW_ARRAY(s->arena, TlExpr *, 3);
  TlExpr **slot_0 = TL_NEW_ARRAY(s->arena, TlExpr *, 3);
  int64_t stride = 1;
  for (int d = 0; d < 3; d++) {
    if (!axis[d]) {
      slot_r[2 - d] = thread_index(s, d, loc);
      slot_0[2 - d] = thread_index(s, d, loc);
      continue;
    }
    TlExpr *e = tl_expr_var(s->arena, loc, r);
    if (stride > 1)
      e = tl_expr_binary(s->arena, loc, OP_FLOORDIV, e,
                         tl_expr_int(s->arena, loc, stride, s->index_dtype), s->index_dtype);
    e = tl_expr_binary(s->arena, loc, OP_FLOORMOD, e,
                       tl_expr_int(s->arena, loc, k->threads[d], s->index_dtype), s->index_dtype);
    slot_r[2 - d] = e;
    slot_0[2 - d] = tl_expr_int(s->arena, loc, 0, s->index_dtype);
    stride *= k->threads[d];
  }
  TlStmt *first = tl_stmt_new(s->arena, ST_STORE, loc);
  first->buf = res->buf;
  first->indices = clone_args(s, res);
  first->nindices = res->nargs;
  first->update_op = OP_EQ;
  first->value = tl_expr_load(s->arena, loc, b, slot_0, 3);
  tl_vec_push(s->arena, out, first);
  if (group == 1) return true;
  TlStmt *loop = tl_stmt_new(s->arena, ST_FOR, loc);
  loop->loop_kind = LOOP_SERIAL;
  loop->var = r;
  loop->start = tl_expr_int(s->arena, loc, 1, s->index_dtype);
  loop->stop = tl_expr_int(s->arena, loc, group, s->index_dtype);
  loop->step = tl_expr_int(s->arena, loc, 1, s->index_dtype);
  TlExpr *args[2] = {tl_expr_load(s->arena, loc, res->buf, clone_args(s, res), res->nargs),
                     tl_expr_load(s->arena, loc, b, slot_r, 3)};
  TlExpr *folded[2];
  int nfolded = 0;
  if (!tl_sema_inline_helper(s, fn, fn_node->loc, 2, args, folded, 2, &nfolded)) return true;
  if (nfolded != 1) {
    tl_error(s->diag, fn_node->loc, "the reducer must give one value");
    return true;
  }
  TlStmt *fold = tl_stmt_new(s->arena, ST_STORE, loc);
  fold->buf = res->buf;
  fold->indices = clone_args(s, res);
  fold->nindices = res->nargs;
  fold->update_op = OP_EQ;
  fold->value = tl_sema_convert(s, folded[0], dt);
  tl_vec_push(s->arena, &loop->body, fold);
  tl_vec_push(s->arena, out, loop);
  return true;
}
