// TileLang's explicit warp specialization: `with T.ws(ids):` scopes and the
// kernel's own mbarriers.
//
//   bar = T.alloc_barrier(arrive_count=128)      one mbarrier (a list: several)
//   T.create_list_of_mbarrier(128, 128)          mbarriers 0, 1 (v0.1.5 style)
//   with T.ws(1): ...                            only warpgroup 1 (threads 128..255)
//   T.barrier_wait(bar, parity) / T.mbarrier_wait_parity(mbarrier=..., parity=...)
//   T.barrier_arrive(bar) / T.mbarrier_arrive(mbarrier=...)
//   T.tma_copy(src, dst, barrier=bar)            a copy the scope's threads make
//
// The kernel keeps the block of `threads` the user launched (launch_threads)
// and every tile operation is partitioned over one scope's threads
// (TlKernel.threads after sema: the largest scope's size; a smaller scope
// partitions its copies, fills and loops of stores over its own threads,
// and holds no fragment work). Outside the
// scopes, copies, fills and nests of plain stores run the same partition in
// each scope-sized group of threads (threads t and t + size store the same
// values); anything else there is an error. The scopes are ordered by the user's mbarriers, not by tlc:
// T.Pipelined loops around them run as plain loops (the user's barriers are
// the pipeline), thread-sync places no block barrier between scopes, and a
// barrier inside a scope is a named barrier of its threads.
//
// T.tma_copy in a scope keeps its mbarrier (ST_COPY stage_b): the tma-copy
// pass makes it a TMA load whose bytes the barrier expects, issued by the
// scope's first thread (TileLang's expect_tx + tma_load; the user's
// T.barrier_arrive completes the phase). Where TMA cannot do it, and
// outside scopes, it is a copy by the threads with ordinary loads and
// stores, and each arrive is preceded by a proxy fence, so wgmma (the async
// proxy) in the waiting scope sees those stores.
#include <string.h>

#include "SemaInternal.h"

enum { MAX_MBARRIERS = 256 };

static bool add_mbarriers(Sema *s, TlLoc loc, const int64_t *counts, int n, int64_t *base) {
  TlKernel *k = s->kernel;
  if (s->module->sm < 90) { // mbarrier.try_wait.parity and expect_tx are sm_90's
    tl_error(s->diag, loc, "mbarriers need sm_90 or later; the target is %s", s->module->target_name);
    return false;
  }
  if (k->nmbar + n > MAX_MBARRIERS) {
    tl_error(s->diag, loc, "a kernel holds at most %d mbarriers", MAX_MBARRIERS);
    return false;
  }
  int64_t *all = TL_NEW_ARRAY(s->arena, int64_t, k->nmbar + n);
  for (int i = 0; i < k->nmbar; i++)
    all[i] = k->mbar_counts[i];
  for (int i = 0; i < n; i++) {
    if (counts[i] < 1 || counts[i] > 1024) {
      tl_error(s->diag, loc, "an mbarrier's arrive count is 1..1024 threads, not %lld",
               (long long)counts[i]);
      return false;
    }
    all[k->nmbar + i] = counts[i];
  }
  *base = k->nmbar;
  k->mbar_counts = all;
  k->nmbar += n;
  return true;
}

// Arrive counts from an int (*single) or a list of ints.
static int counts_of(Sema *s, const TlNode *n, int64_t *out, int max, bool *single) {
  TlValue *v = tl_sema_eval_const(s, n);
  *single = v->kind == VAL_INT;
  if (v->kind == VAL_INT) {
    out[0] = v->i;
    return 1;
  }
  if (v->kind == VAL_TUPLE && v->items.len >= 1 && v->items.len <= max) {
    for (int i = 0; i < v->items.len; i++) {
      const TlValue *x = TL_VEC_AT(v->items, TlValue, i);
      if (x->kind != VAL_INT) break;
      out[i] = x->i;
      if (i == v->items.len - 1) return v->items.len;
    }
  }
  if (v->kind != VAL_ERROR)
    tl_error(s->diag, n->loc, "an arrive count is an int or a list of at most %d ints", max);
  return 0;
}

bool tl_sema_alloc_barrier(Sema *s, const TlNode *target, const TlNode *call) {
  static const char *const kws[] = {"arrive_count", NULL};
  if (!tl_sema_check_keywords(s, call, "alloc_barrier", kws)) return false;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.alloc_barrier must be assigned to a name");
    return false;
  }
  const TlNode *arg =
      call->list.len == 1 ? TL_VEC_AT(call->list, TlNode, 0) : tl_sema_kwarg(call, "arrive_count");
  if (!arg || call->list.len > 1) {
    tl_error(s->diag, call->loc, "T.alloc_barrier takes one arrive_count (an int or a list)");
    return false;
  }
  int64_t counts[MAX_MBARRIERS], base;
  bool single;
  int n = counts_of(s, arg, counts, MAX_MBARRIERS, &single);
  if (!n || !add_mbarriers(s, call->loc, counts, n, &base)) return false;
  TlValue *v = tl_value_new(s, VAL_BARRIER, call->loc);
  v->i = base;
  v->count = single ? 0 : n;
  TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_VALUE, target->loc);
  y->value = v;
  return true;
}

static const TlValue *barrier_value(Sema *s, const TlNode *n) {
  if (n->kind != ND_NAME) return NULL;
  TlSym *y = tl_scope_lookup(s, n->name);
  return y && y->kind == SYM_VALUE && y->value->kind == VAL_BARRIER ? y->value : NULL;
}

// The index among the kernel's mbarriers that n names: a T.alloc_barrier
// name, one element of a list of them, or a plain index (v0.1.5's ids into
// T.create_list_of_mbarrier, T.get_mbarrier(id)).
static TlExpr *barrier_index(Sema *s, const TlNode *n) {
  TlArena *a = s->arena;
  const TlValue *b = barrier_value(s, n);
  if (b) {
    if (b->count) {
      tl_error(s->diag, n->loc, "'%s' is a list of %lld mbarriers; index it", n->name,
               (long long)b->count);
      return NULL;
    }
    return tl_expr_int(a, n->loc, b->i, TY_INT32);
  }
  if (n->kind == ND_SUBSCRIPT && (b = barrier_value(s, n->a)) != NULL) {
    if (!b->count || n->list.len != 1) {
      tl_error(s->diag, n->loc, "'%s' is %s; it takes one index", n->a->name,
               b->count ? "a list of mbarriers" : "one mbarrier");
      return NULL;
    }
    TlExpr *i = tl_sema_convert(s, tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, 0)), TY_INT32);
    if (i->kind == EX_INT && (i->ival < 0 || i->ival >= b->count)) {
      tl_error(s->diag, n->loc, "index %lld of a list of %lld mbarriers", (long long)i->ival,
               (long long)b->count);
      return NULL;
    }
    return tl_simplify(a, tl_expr_binary(a, n->loc, OP_ADD, tl_expr_int(a, n->loc, b->i, TY_INT32),
                                         i, TY_INT32));
  }
  if (n->kind == ND_CALL) {
    const char *t = tl_sema_t_attr(s, n->a);
    if (t && strcmp(t, "get_mbarrier") == 0 && n->list.len == 1)
      return barrier_index(s, TL_VEC_AT(n->list, TlNode, 0));
  }
  TlExpr *i = tl_sema_expr(s, n);
  if (i->dtype == TY_BOOL || tl_dtype_is_float(i->dtype)) {
    tl_error(s->diag, n->loc, "expected an mbarrier (T.alloc_barrier) or an mbarrier index");
    return NULL;
  }
  if (i->kind == EX_INT && (i->ival < 0 || i->ival >= s->kernel->nmbar)) {
    tl_error(s->diag, n->loc, "mbarrier %lld of a kernel with %d", (long long)i->ival,
             s->kernel->nmbar);
    return NULL;
  }
  return tl_sema_convert(s, i, TY_INT32);
}

// The argument named `kw` or at position pos.
static const TlNode *arg(const TlNode *call, int pos, const char *kw, const char *kw2) {
  if (call->list.len > pos) return TL_VEC_AT(call->list, TlNode, pos);
  const TlNode *n = tl_sema_kwarg(call, kw);
  return n || !kw2 ? n : tl_sema_kwarg(call, kw2);
}

static void mbar_stmt(Sema *s, const TlNode *call, const char *name, bool wait, TlVec *out) {
  static const char *const wait_kws[] = {"mbarrier", "barrier_id", "parity", NULL};
  static const char *const arrive_kws[] = {"mbarrier", "barrier_id", NULL};
  if (!tl_sema_check_keywords(s, call, name, wait ? wait_kws : arrive_kws)) return;
  if (s->in_parallel) {
    tl_error(s->diag, call->loc, "T.%s inside T.Parallel; mbarriers are waited on and arrived at "
                                 "by whole scopes", name);
    return;
  }
  const TlNode *bar = arg(call, 0, "mbarrier", "barrier_id");
  const TlNode *parity = wait ? arg(call, 1, "parity", NULL) : NULL;
  if (!bar || (wait && !parity) || call->list.len > (wait ? 2 : 1)) {
    tl_error(s->diag, call->loc, wait ? "T.%s takes an mbarrier and a parity"
                                      : "T.%s takes one mbarrier", name);
    return;
  }
  if (!s->kernel->nmbar) {
    tl_error(s->diag, call->loc, "T.%s in a kernel without mbarriers", name);
    tl_note(s->diag, call->loc, "make them with T.alloc_barrier(arrive_count) first");
    return;
  }
  TlExpr *index = barrier_index(s, bar);
  if (!index) return;
  TlStmt *st = tl_stmt_new(s->arena, wait ? ST_MBAR_WAIT : ST_MBAR_ARRIVE, call->loc);
  st->ring = RING_USER;
  st->stage_a = index;
  if (wait) {
    TlExpr *p = tl_sema_expr(s, parity);
    if (p->dtype == TY_BOOL || tl_dtype_is_float(p->dtype)) {
      tl_error(s->diag, parity->loc, "a parity is an integer (0 or 1)");
      return;
    }
    st->value = tl_sema_convert(s, p, TY_INT32);
  }
  tl_vec_push(s->arena, out, st);
}

bool tl_sema_barrier_stmt(Sema *s, const TlNode *call, const char *name, TlVec *out) {
  if (strcmp(name, "create_list_of_mbarrier") == 0) {
    int64_t counts[MAX_MBARRIERS], base;
    int n = 0;
    if (s->kernel->nmbar) {
      tl_error(s->diag, call->loc, "T.create_list_of_mbarrier comes once, before any other "
                                   "mbarrier of the kernel (its ids count from 0)");
      return true;
    }
    if (call->list.len == 1) {
      bool single;
      n = counts_of(s, TL_VEC_AT(call->list, TlNode, 0), counts, MAX_MBARRIERS, &single);
    } else {
      for (int i = 0; i < call->list.len && i < MAX_MBARRIERS; i++)
        if (!tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, i), "an arrive count", &counts[n++]))
          return true;
    }
    if (n) add_mbarriers(s, call->loc, counts, n, &base);
    else if (call->list.len == 0)
      tl_error(s->diag, call->loc, "T.create_list_of_mbarrier takes the arrive counts");
    return true;
  }
  if (strcmp(name, "barrier_wait") == 0 || strcmp(name, "mbarrier_wait_parity") == 0) {
    mbar_stmt(s, call, name, true, out);
    return true;
  }
  // cp.async.mbarrier.arrive.noinc: the thread arrives once its cp.async
  // copies land; tlc's T.ptx_cp_async has landed already (PtxCopy.c).
  if (strcmp(name, "barrier_arrive") == 0 || strcmp(name, "mbarrier_arrive") == 0 ||
      strcmp(name, "cp_async_barrier_noinc") == 0) {
    mbar_stmt(s, call, name, false, out);
    return true;
  }
  if (strcmp(name, "fence_proxy_async") == 0) // each arrive fences already
    return true;
  if (strcmp(name, "tma_copy") == 0) {
    static const char *const kws[] = {"barrier", "eviction_policy", NULL};
    if (!tl_sema_check_keywords(s, call, "tma_copy", kws)) return true;
    const TlNode *bar = tl_sema_kwarg(call, "barrier");
    TlExpr *index = bar ? barrier_index(s, bar) : NULL;
    if (bar && !index) return true;
    // The copy itself, without the keywords T.copy does not take; in a
    // scope, its mbarrier goes with it (the tma-copy pass puts it on TMA).
    TlNode *copy = TL_NEW(s->arena, TlNode);
    *copy = *call;
    copy->list2 = (TlVec){0};
    int before = out->len;
    tl_sema_tile_op(s, copy, "copy", out);
    if (index && s->ws_depth && out->len == before + 1 &&
        TL_VEC_AT(*out, TlStmt, before)->kind == ST_COPY)
      TL_VEC_AT(*out, TlStmt, before)->stage_b = index;
    return true;
  }
  return false;
}

// if lo <= threadIdx.x < lo + n: a scope's statement.
static TlStmt *group_if(TlArena *a, const TlKernel *k, int64_t lo, int64_t n, TlLoc loc) {
  TlExpr *tx = tl_expr_var(a, loc, k->thread_vars[0]);
  TlStmt *st = tl_stmt_new(a, ST_IF, loc);
  st->cond = tl_expr_binary(
      a, loc, OP_AND,
      tl_expr_binary(a, loc, OP_GE, tx, tl_expr_int(a, loc, lo, TY_INT32), TY_BOOL),
      tl_expr_binary(a, loc, OP_LT, tl_expr_clone(a, tx), tl_expr_int(a, loc, lo + n, TY_INT32),
                     TY_BOOL),
      TY_BOOL);
  st->group_lo = lo;
  st->group_threads = n;
  return st;
}

// with T.ws(i, j, ...): warpgroups i..j (consecutive), threads
// [128 * i, 128 * (j + 1)).
void tl_sema_ws_scope(Sema *s, const TlNode *with, TlVec *out) {
  const TlNode *call = with->a;
  TlKernel *k = s->kernel;
  if (with->b) {
    tl_error(s->diag, with->b->loc, "'with T.ws(...)' binds no names");
    return;
  }
  if (s->in_parallel || s->ws_depth) {
    tl_error(s->diag, with->loc, s->in_parallel ? "T.ws inside T.Parallel; a scope holds whole "
                                                  "warpgroups' statements"
                                                : "T.ws scopes do not nest");
    return;
  }
  if (call->list.len < 1 || call->list2.len) {
    tl_error(s->diag, call->loc, "T.ws takes the warpgroup indices (T.ws(0), T.ws(1, 2))");
    return;
  }
  if (k->launch_threads && !s->ws_threads) {
    tl_error(s->diag, with->loc, "T.ws in a kernel whose thread-index branches split it into warp "
                                 "ranges; tlc takes one or the other");
    return;
  }
  int64_t first = 0, prev = 0;
  for (int i = 0; i < call->list.len; i++) {
    int64_t g;
    const TlNode *n = TL_VEC_AT(call->list, TlNode, i);
    if (!tl_sema_const_int(s, n, "a warpgroup index", &g)) return;
    if (i == 0) first = g;
    if (g < 0 || (i > 0 && g != prev + 1)) {
      tl_error(s->diag, n->loc, "tlc takes consecutive warpgroups in T.ws (here %lld after %lld)",
               (long long)g, (long long)prev);
      return;
    }
    prev = g;
  }
  int64_t lo = 128 * first, n = 128 * (int64_t)call->list.len;
  if (k->threads[1] != 1 || k->threads[2] != 1 || lo + n > k->threads[0]) {
    tl_error(s->diag, call->loc, "T.ws(%s%lld) needs threads %lld..%lld, but the block has "
                                 "threads=(%lld, %lld, %lld)",
             call->list.len > 1 ? "..., " : "", (long long)prev, (long long)lo,
             (long long)(lo + n - 1), (long long)k->threads[0], (long long)k->threads[1],
             (long long)k->threads[2]);
    return;
  }
  // Scopes may differ in size (FlashMLA's one-warpgroup producer beside a
  // two-warpgroup consumer): the largest is the kernel's partition size and
  // tl_sema_finish_ws checks what the smaller ones hold.
  if (n > s->ws_threads) s->ws_threads = n;
  if (lo % n) {
    tl_error(s->diag, call->loc, "a T.ws scope of %lld threads starts at a multiple of %lld "
                                 "(this one at thread %lld)",
             (long long)n, (long long)n, (long long)lo);
    return;
  }
  TlArena *a = s->arena;
  TlStmt *st = group_if(a, k, lo, n, with->loc);
  s->ws_depth++;
  tl_scope_push(s);
  tl_sema_body(s, &with->list, &st->body);
  tl_scope_pop(s);
  s->ws_depth--;
  tl_vec_push(a, out, st);
}

// TileLang's other spelling of warp specialization: branches on the thread
// index,
//   tx = T.get_thread_binding()
//   if tx < 128: ...  elif tx >= 128 and tx < 256: ...  elif tx >= 256: ...
// where TileLang bounds each branch's threads and partitions its tile
// operations over them. A chain whose every branch (else included) runs one
// window of whole warpgroups, and one of which holds tile work, is a chain
// of T.ws scopes here; any other thread-index branch stays an ordinary if.

// threadIdx.x, directly or through a scalar whose single value it is.
// Such scalars go to s->seen_through: their lets are dropped at the end if
// nothing else reads them (the harness's reference has no thread indices).
static bool is_thread_x(Sema *s, const TlExpr *e) {
  const TlVar *tx = s->kernel->thread_vars[0];
  if (e->kind == EX_CAST) return is_thread_x(s, e->args[0]);
  if (e->kind != EX_VAR) return false;
  if (e->var == tx) return true;
  if (e->var->kind != VAR_SCALAR) return false;
  TlSym *y = tl_scope_lookup(s, e->var->name);
  if (!y || y->kind != SYM_VAR || y->var != e->var || !y->let_value ||
      !is_thread_x(s, y->let_value))
    return false;
  tl_vec_push(s->arena, &s->seen_through, e->var);
  return true;
}

// Narrows [*lo, *hi) by a condition of comparisons of threadIdx.x with
// constants joined by `and`. False for any other condition.
static bool thread_window(Sema *s, const TlExpr *c, int64_t *lo, int64_t *hi) {
  if (c->kind == EX_CAST) return thread_window(s, c->args[0], lo, hi);
  if (c->kind != EX_BINARY) return false;
  if (c->op == OP_AND)
    return thread_window(s, c->args[0], lo, hi) && thread_window(s, c->args[1], lo, hi);
  TlOp op = c->op;
  const TlExpr *x = c->args[0], *k = c->args[1];
  if (!is_thread_x(s, x)) { // c OP tx: turn it around
    const TlExpr *t = x;
    x = k, k = t;
    op = op == OP_LT ? OP_GT : op == OP_GT ? OP_LT : op == OP_LE ? OP_GE : op == OP_GE ? OP_LE : op;
  }
  int64_t v;
  if (!is_thread_x(s, x) || !tl_expr_is_const(k, &v)) return false;
  if (v < -(INT64_C(1) << 40) || v > (INT64_C(1) << 40)) return false; // no thread is there
  switch (op) {
  case OP_LT: *hi = *hi < v ? *hi : v; return true;
  case OP_LE: *hi = *hi < v + 1 ? *hi : v + 1; return true;
  case OP_GE: *lo = *lo > v ? *lo : v; return true;
  case OP_GT: *lo = *lo > v + 1 ? *lo : v + 1; return true;
  default: return false;
  }
}

// Does a statement list hold tile work (a tile operator, a T.Parallel nest,
// a macro that may hold either)?
static bool node_has_tile_work(Sema *s, const TlNode *n, int depth) {
  if (!n || depth > 200) return false;
  if (n->kind == ND_CALL) {
    const char *t = tl_sema_t_attr(s, n->a);
    if (t && (tl_sema_is_tile_op(t) || strcmp(t, "Parallel") == 0)) return true;
    if (n->a->kind == ND_NAME) {
      TlSym *y = tl_scope_lookup(s, n->a->name);
      if (y && y->kind == SYM_VALUE && y->value->kind == VAL_MACRO) return true;
    }
  }
  if (node_has_tile_work(s, n->a, depth + 1) || node_has_tile_work(s, n->b, depth + 1) ||
      node_has_tile_work(s, n->c, depth + 1))
    return true;
  const TlVec *lists[2] = {&n->list, &n->list2};
  for (int l = 0; l < 2; l++)
    for (int i = 0; i < lists[l]->len; i++)
      if (node_has_tile_work(s, TL_VEC_AT(*lists[l], TlNode, i), depth + 1)) return true;
  return false;
}

// A condition that can only be comparisons of kernel names and integers
// joined by `and` (so lowering it here reports nothing the ordinary if
// would not): the cheap test before the real one.
static bool simple_condition(Sema *s, const TlNode *c, int depth) {
  if (depth > 16) return false;
  switch (c->kind) {
  case ND_AND:
  case ND_COMPARE:
    return c->kind == ND_AND || c->ival == 0 ? simple_condition(s, c->a, depth + 1) &&
                                                   simple_condition(s, c->b, depth + 1)
                                             : false;
  case ND_INT:
    return true;
  case ND_NAME: {
    TlSym *y = tl_scope_lookup(s, c->name);
    return y && y->kind == SYM_VAR;
  }
  case ND_CALL: {
    const char *t = tl_sema_t_attr(s, c->a);
    return t && strcmp(t, "get_thread_binding") == 0 && c->list.len == 0 && c->list2.len == 0;
  }
  default:
    return false;
  }
}

enum { MAX_THREAD_BRANCHES = 16 };

bool tl_sema_thread_branches(Sema *s, const TlNode *n, TlVec *out) {
  TlKernel *k = s->kernel;
  if (s->in_parallel || s->ws_depth || !k || k->threads[1] != 1 || k->threads[2] != 1)
    return false;
  int64_t T = k->launch_threads ? k->launch_threads : k->threads[0];
  if (s->ws_threads) T = k->threads[0]; // scopes so far kept the block's size here
  const TlNode *branch[MAX_THREAD_BRANCHES];
  const TlVec *bodies[MAX_THREAD_BRANCHES];
  int64_t lo[MAX_THREAD_BRANCHES], hi[MAX_THREAD_BRANCHES];
  int nb = 0;
  bool work = false;
  const TlNode *e = n;
  bool complete = false; // every branch of the chain seen
  while (e && nb < MAX_THREAD_BRANCHES) {
    if (!simple_condition(s, e->a, 0)) return false;
    TlExpr *c = tl_sema_expr(s, e->a);
    lo[nb] = 0, hi[nb] = T;
    if (!thread_window(s, c, &lo[nb], &hi[nb])) return false;
    branch[nb] = e;
    bodies[nb] = &e->list;
    work = work || node_has_tile_work(s, e->list.len ? TL_VEC_AT(e->list, TlNode, 0) : NULL, 0);
    for (int i = 1; i < e->list.len && !work; i++)
      work = node_has_tile_work(s, TL_VEC_AT(e->list, TlNode, i), 0);
    nb++;
    const TlNode *next = e->list2.len == 1 ? TL_VEC_AT(e->list2, TlNode, 0) : NULL;
    if (next && next->kind == ND_IF) {
      e = next;
      continue;
    }
    if (e->list2.len) { // else: what the branches before leave
      if (nb == MAX_THREAD_BRANCHES) return false;
      branch[nb] = e, bodies[nb] = &e->list2, lo[nb] = 0, hi[nb] = T;
      for (int i = 0; i < e->list2.len && !work; i++)
        work = node_has_tile_work(s, TL_VEC_AT(e->list2, TlNode, i), 0);
      nb++;
    }
    complete = true;
    break;
  }
  if (!work || !complete) return false;
  // Each branch runs its window less the windows before it (an elif);
  // every result must be one non-empty window of whole warps. Windows of
  // whole warpgroups, all of one size, are T.ws scopes as `with T.ws` makes
  // them; any other split is a chain of warp ranges (below).
  bool warpgroups = true;
  for (int i = 0; i < nb; i++) {
    for (int j = 0; j < i; j++) {
      if (hi[j] <= lo[i] || lo[j] >= hi[i]) continue;
      if (lo[j] <= lo[i]) lo[i] = hi[j] > lo[i] ? hi[j] : lo[i];
      else if (hi[j] >= hi[i]) hi[i] = lo[j];
      else return false; // a hole in the middle
    }
    if (lo[i] < 0) lo[i] = 0;
    if (hi[i] > T) hi[i] = T;
    int64_t size = hi[i] - lo[i];
    if (size <= 0 || size % 32 || lo[i] % 32) return false;
    if (size % 128 || lo[i] % size || size != hi[0] - lo[0] || k->launch_threads ||
        (s->ws_threads && s->ws_threads != size))
      warpgroups = false;
  }
  (void)branch;
  if (!warpgroups) {
    // Warp ranges (mhc_pre's `if tx < 32: ... else: ...` over 96 threads):
    // the kernel's partition stays the whole block, and each branch's tile
    // work and fragments are laid out over its own threads (layout
    // inference runs per range). Not beside T.ws scopes, whose partition
    // is a scope's size; each range's barrier is named barrier
    // 1 + first thread / 32, so ranges start below thread 448.
    if (s->ws_threads) return false;
    for (int i = 0; i < nb; i++)
      if (1 + lo[i] / 32 > 15) return false;
    k->launch_threads = T;
  }
  for (int i = 0; i < nb; i++) {
    if (warpgroups) s->ws_threads = hi[i] - lo[i];
    TlStmt *st = group_if(s->arena, k, lo[i], hi[i] - lo[i], branch[i]->loc);
    s->ws_depth++;
    tl_scope_push(s);
    tl_sema_body(s, bodies[i], &st->body);
    tl_scope_pop(s);
    s->ws_depth--;
    tl_vec_push(s->arena, out, st);
  }
  return true;
}

static bool body_reads(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (tl_expr_loads(s->value, b) || tl_expr_loads(s->cond, b) || body_reads(&s->body, b) ||
        body_reads(&s->else_body, b))
      return true;
    for (int d = 0; d < s->nindices; d++)
      if (tl_expr_loads(s->indices[d], b)) return true;
  }
  return false;
}

// Does every thread of the block doing the work of a scope-sized partition
// (threads t and t + size doing the same part) leave the same result? Plain
// stores of values that do not read what the nest writes: yes.
static bool idempotent(const TlVec *nest, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && (s->atomic || s->update_op != OP_EQ || body_reads(nest, s->buf)))
      return false;
    if (s->kind != ST_STORE && s->kind != ST_LET && s->kind != ST_IF) return false;
    if (!idempotent(nest, &s->body) || !idempotent(nest, &s->else_body)) return false;
  }
  return true;
}

// Tile work outside the scopes that every thread of the block may run as if
// it were one scope's: copies, fills and nests of plain stores.
static bool duplicable(const TlStmt *s) {
  if (s->kind == ST_COPY) return !s->atomic && s->src.buf != s->dst.buf;
  if (s->kind == ST_FILL) return true;
  if (s->kind == ST_PARALLEL) return idempotent(&s->body, &s->body);
  return false;
}

static bool is_tile_work(const TlStmt *s) {
  return s->kind == ST_PARALLEL || s->kind == ST_COPY || s->kind == ST_GEMM ||
         s->kind == ST_FILL || s->kind == ST_REDUCE ||
         (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT);
}

static void fragments_read(const TlExpr *e, const TlBuffer **out, int *n) {
  if (!e) return;
  if (e->kind == EX_LOAD && e->buf && e->buf->scope == SCOPE_FRAGMENT && *n < 8) out[(*n)++] = e->buf;
  for (int i = 0; i < e->nargs; i++)
    fragments_read(e->args[i], out, n);
}

static void body_fragments_read(const TlVec *body, const TlBuffer **out, int *n) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    fragments_read(s->value, out, n);
    fragments_read(s->cond, out, n);
    for (int d = 0; d < s->nindices; d++)
      fragments_read(s->indices[d], out, n);
    body_fragments_read(&s->body, out, n);
    body_fragments_read(&s->else_body, out, n);
  }
}

// Folds into *owner the first thread of each scope under body that writes
// b (-1: none so far; -2: two different scopes).
static void scope_writing(const TlVec *body, const TlBuffer *b, int64_t *owner) {
  for (int i = 0; i < body->len && *owner != -2; i++) {
    const TlStmt *g = TL_VEC_AT(*body, TlStmt, i);
    if (g->kind == ST_IF && g->group_threads) {
      if (tl_stmt_touches(g, b, true)) *owner = *owner >= 0 && *owner != g->group_lo ? -2 : g->group_lo;
      continue;
    }
    scope_writing(&g->body, b, owner);
    scope_writing(&g->else_body, b, owner);
  }
}

// The scope whose threads hold the fragments statement st reads, when one
// of the kernel's scopes writes them: its first thread (-1: none writes
// them; -2: several scopes do).
static int64_t owning_scope(const TlKernel *k, const TlStmt *st) {
  const TlBuffer *frags[8];
  int n = 0;
  if ((st->kind == ST_COPY || st->kind == ST_REDUCE) && st->src.buf &&
      st->src.buf->scope == SCOPE_FRAGMENT)
    frags[n++] = st->src.buf;
  if (st->kind == ST_PARALLEL) body_fragments_read(&st->body, frags, &n);
  int64_t owner = -1;
  for (int f = 0; f < n && owner != -2; f++)
    scope_writing(&k->body, frags[f], &owner);
  return owner;
}

// Outside the scopes: no tile operation (it would have to be partitioned
// over every thread of the block). T.Pipelined loops become plain loops.
static void check_outside(Sema *s, const TlKernel *k, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_IF && st->group_threads) continue;
    // A tile operation that reads the fragments one scope computed runs in
    // that scope (their values live in its threads' registers): TileLang's
    // epilogue `T.copy(C_local, C[...])` after the scopes.
    int64_t owner = is_tile_work(st) ? owning_scope(k, st) : -1;
    if (owner == -2) {
      tl_error(s->diag, st->loc, "this tile operation reads fragments that different T.ws scopes "
                                 "compute");
      return;
    }
    if (owner >= 0) {
      TlStmt *g = group_if(s->arena, k, owner, k->threads[0], st->loc);
      tl_vec_push(s->arena, &g->body, st);
      body->items[i] = g;
      continue;
    }
    if (is_tile_work(st) && !duplicable(st)) {
      tl_error(s->diag, st->loc, "this tile operation outside the T.ws scopes of the kernel is "
                                 "not a copy, a fill or a nest of plain stores");
      tl_note(s->diag, st->loc, "tlc partitions the tile operations of a warp-specialized kernel "
                                "over one scope's %lld threads (outside the scopes each part is "
                                "run by %lld threads alike); put it in a 'with T.ws(...)' scope",
              (long long)k->threads[0], (long long)(k->launch_threads / k->threads[0]));
      return;
    }
    if (is_tile_work(st) && k->launch_threads % k->threads[0]) {
      // Threads past the last whole group would redo part of the work.
      tl_error(s->diag, st->loc, "this tile operation outside the T.ws scopes would be run by "
                                 "groups of %lld threads, which do not divide the block's %lld",
               (long long)k->threads[0], (long long)k->launch_threads);
      tl_note(s->diag, st->loc, "put it in a 'with T.ws(...)' scope");
      return;
    }
    if (is_tile_work(st)) continue;
    if (st->kind == ST_FOR && st->loop_kind == LOOP_PIPELINED) {
      st->loop_kind = LOOP_SERIAL;
      st->num_stages = 0;
      st->order = st->stage = (TlVec){0};
    }
    check_outside(s, k, &st->body);
    check_outside(s, k, &st->else_body);
  }
}

// Does st (or anything under it) touch a fragment, or is it tile work that
// needs one (a gemm, a reduction)? Such work is laid out for the kernel's
// partition size, which a smaller scope does not have.
static const TlStmt *fragment_work(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    const TlBuffer *frags[8];
    int n = 0;
    fragments_read(st->value, frags, &n);
    fragments_read(st->cond, frags, &n);
    for (int d = 0; d < st->nindices; d++)
      fragments_read(st->indices[d], frags, &n);
    bool frag = n > 0 || (st->buf && st->buf->scope == SCOPE_FRAGMENT) ||
                (st->src.buf && st->src.buf->scope == SCOPE_FRAGMENT) ||
                (st->dst.buf && st->dst.buf->scope == SCOPE_FRAGMENT);
    if (frag || st->kind == ST_GEMM || st->kind == ST_REDUCE) return st;
    const TlStmt *inner = fragment_work(&st->body);
    if (!inner) inner = fragment_work(&st->else_body);
    if (inner) return inner;
  }
  return NULL;
}

// Scopes smaller than the kernel's partition size run their copies, fills
// and loops of stores partitioned over their own threads (Partition.c); no
// fragment work there.
static bool check_small_scopes(Sema *s, const TlKernel *k, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind == ST_IF && st->group_threads) {
      if (st->group_threads == k->threads[0]) continue;
      const TlStmt *bad = fragment_work(&st->body);
      if (bad) {
        tl_error(s->diag, bad->loc, "fragment work in a T.ws scope of %lld threads, smaller than "
                                    "the kernel's largest scope (%lld threads)",
                 (long long)st->group_threads, (long long)k->threads[0]);
        tl_note(s->diag, st->loc, "tlc lays fragments out over the largest scope's threads; a "
                                  "smaller scope may copy, fill and store to shared or global "
                                  "memory");
        return false;
      }
      continue;
    }
    if (!check_small_scopes(s, k, &st->body) || !check_small_scopes(s, k, &st->else_body))
      return false;
  }
  return true;
}

void tl_sema_finish_ws(Sema *s, TlKernel *k) {
  if (!s->ws_threads) return;
  k->launch_threads = k->threads[0];
  k->threads[0] = s->ws_threads;
  s->ws_threads = 0;
  if (!check_small_scopes(s, k, &k->body)) return;
  check_outside(s, k, &k->body);
}
