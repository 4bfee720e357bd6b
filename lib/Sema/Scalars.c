// Scalar builtins of kernels, the ones TileLang files use around tiles:
//   values      T.clamp(x, lo, hi), T.Cast(dtype, x) (TVM's argument order),
//               T.float32(x) and the other dtype-named casts,
//               T.get_thread_binding(dim)
//   variables   x = T.alloc_var(dtype, init=v): a per-thread scalar
//   statements  T.sync_threads(); T.func_attr({...}),
//               T.disable_warp_group_reg_alloc() and T.no_set_max_nreg(),
//               which are accepted and ignored (see docs/tilelang-users.md)
// Each entry point returns whether the call was one of these, so the
// general lowering in SemaExpr.c / Stmt.c only sees what is left.
#include <string.h>

#include "SemaInternal.h"

// check_arity's message, for the calls handled here.
static bool arity(Sema *s, const TlNode *n, const char *what, int lo, int hi) {
  int got = n->list.len;
  if (got >= lo && got <= hi) return true;
  if (lo == hi)
    tl_error(s->diag, n->loc, "'%s' takes %d argument%s, %d given", what, lo, lo == 1 ? "" : "s",
             got);
  else
    tl_error(s->diag, n->loc, "'%s' takes %d to %d arguments, %d given", what, lo, hi, got);
  return false;
}

static TlExpr *arg(Sema *s, const TlNode *n, int i) {
  return tl_sema_expr(s, TL_VEC_AT(n->list, TlNode, i));
}

static bool dtype_of(Sema *s, const TlNode *n, TlDtype *out) {
  TlValue *v = tl_sema_eval_const(s, n);
  return v->kind != VAL_ERROR && tl_value_as_dtype(s, v, out);
}

// T.clamp(x, lo, hi) = min(max(x, lo), hi), in x's dtype.
static TlExpr *clamp(Sema *s, const TlNode *n) {
  TlExpr *x = arg(s, n, 0), *lo = arg(s, n, 1), *hi = arg(s, n, 2);
  TlDtype t = x->dtype;
  if (x->untyped && !lo->untyped)
    t = lo->dtype;
  else if (x->untyped && !hi->untyped)
    t = hi->dtype;
  TlExpr *low = tl_expr_binary(s->arena, n->loc, OP_MAX, tl_sema_convert(s, x, t),
                               tl_sema_convert(s, lo, t), t);
  return tl_expr_binary(s->arena, n->loc, OP_MIN, low, tl_sema_convert(s, hi, t), t);
}

// Does n name a dtype (a string, T.float16, a name bound to a dtype)?
static bool names_dtype(Sema *s, const TlNode *n) {
  TlDtype d;
  if (n->kind == ND_STR) return true;
  const char *t = tl_sema_t_attr(s, n);
  if (t) return tl_dtype_parse(t, &d);
  if (n->kind != ND_NAME) return false;
  TlSym *y = tl_scope_lookup(s, n->name);
  return y && y->kind == SYM_VALUE && (y->value->kind == VAL_DTYPE || y->value->kind == VAL_STR);
}

// T.reinterpret(x, dtype) (TileLang) or T.reinterpret(dtype, x) (TVM's
// order): the bits of x read as dtype, which must have x's size.
static TlExpr *reinterpret(Sema *s, const TlNode *n) {
  int di = names_dtype(s, TL_VEC_AT(n->list, TlNode, 0)) ? 0 : 1;
  TlDtype t;
  if (!dtype_of(s, TL_VEC_AT(n->list, TlNode, di), &t)) return NULL;
  TlExpr *x = arg(s, n, 1 - di);
  if (x->untyped) {
    tl_error(s->diag, x->loc, "T.reinterpret of a literal: its size is not known");
    tl_note(s->diag, x->loc, "give it a dtype first, e.g. T.reinterpret(T.float32(1.5), T.uint32)");
    return NULL;
  }
  int from = tl_dtype_bits(x->dtype), to = tl_dtype_bits(t);
  if (from != to || t == TY_BOOL || x->dtype == TY_BOOL) {
    tl_error(s->diag, n->loc,
             "T.reinterpret from %s (%d bits) to %s (%d bits): the sizes must match",
             tl_dtype_name(x->dtype), from, tl_dtype_name(t), to);
    return NULL;
  }
  if (x->dtype == t) return x;
  TlExpr *e = tl_expr_new(s->arena, EX_CALL, n->loc, t, 1);
  e->fn = FN_REINTERPRET;
  e->args[0] = x;
  return e;
}

// T.get_thread_binding(dim=0): threadIdx.{x,y,z}, the kernel's thread var.
static TlExpr *thread_binding(Sema *s, const TlNode *n) {
  int64_t dim = 0;
  if (n->list.len == 1 &&
      !tl_sema_const_int(s, TL_VEC_AT(n->list, TlNode, 0), "the dimension", &dim))
    return NULL;
  if (dim < 0 || dim > 2) {
    tl_error(s->diag, n->loc, "T.get_thread_binding takes a dimension 0, 1 or 2, got %lld",
             (long long)dim);
    return NULL;
  }
  TlVar *v = s->kernel->thread_vars[dim];
  if (!v) {
    tl_error(s->diag, n->loc, "T.get_thread_binding outside a T.Kernel block");
    return NULL;
  }
  return tl_expr_var(s->arena, n->loc, v);
}

// kr = T.thread_binding(start, stop, thread="threadIdx.x") (TVM's thread
// binding, used as a value; T.thread_binding(n, thread=...) starts at 0):
// the thread index plus start. The binding spans the whole axis, so the
// block's extent along it must be stop - start.
static TlExpr *bound_thread(Sema *s, const TlNode *n) {
  const TlNode *th = tl_sema_kwarg(n, "thread");
  int npos = n->list.len;
  if (!th && npos == 3) th = TL_VEC_AT(n->list, TlNode, 2), npos = 2;
  if (!th || npos < 1 || npos > 2) {
    tl_error(s->diag, n->loc,
             "T.thread_binding takes (start, stop, thread=\"threadIdx.x\") or "
             "(extent, thread=...)");
    return NULL;
  }
  TlValue *tv = tl_sema_eval_const(s, th);
  if (tv->kind == VAL_ERROR) return NULL;
  int dim = -1;
  if (tv->kind == VAL_STR)
    for (int d = 0; d < 3; d++) {
      static const char *const names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z"};
      if (strcmp(tv->s, names[d]) == 0) dim = d;
    }
  if (dim < 0) {
    tl_error(s->diag, th->loc,
             "T.thread_binding binds threadIdx.x, threadIdx.y or threadIdx.z here");
    return NULL;
  }
  int64_t start = 0, stop;
  if (!tl_sema_const_int(s, TL_VEC_AT(n->list, TlNode, 0), npos == 2 ? "the start" : "the extent",
                         npos == 2 ? &start : &stop))
    return NULL;
  if (npos == 2 && !tl_sema_const_int(s, TL_VEC_AT(n->list, TlNode, 1), "the stop", &stop))
    return NULL;
  TlVar *v = s->kernel ? s->kernel->thread_vars[dim] : NULL;
  if (!v) {
    tl_error(s->diag, n->loc, "T.thread_binding outside a T.Kernel block");
    return NULL;
  }
  if (stop - start != s->kernel->threads[dim]) {
    tl_error(s->diag, n->loc,
             "T.thread_binding over %lld threads along %c, but the kernel has %lld there",
             (long long)(stop - start), "xyz"[dim], (long long)s -> kernel -> threads[dim]);
    tl_note(s->diag, n->loc, "tlc binds a whole axis: give T.Kernel threads= that extent");
    return NULL;
  }
  TlExpr *x = tl_expr_var(s->arena, n->loc, v);
  return start ? tl_expr_binary(s->arena, n->loc, OP_ADD, x,
                                tl_expr_int(s->arena, n->loc, start, v->dtype), v->dtype)
               : x;
}

// T.rng_rand() / T.rng_rand_float(bit=32, dist="uniform"): the next number
// of the thread's generator (T.rng_init). Inside T.Parallel each point draws
// in the order the partition gives the thread its points.
static TlExpr *rng_draw(Sema *s, const TlNode *n, const char *name) {
  bool bits = strcmp(name, "rng_rand") == 0;
  char what[40];
  snprintf(what, sizeof what, "T.%s", name);
  if (!arity(s, n, what, 0, bits ? 0 : 2)) return NULL;
  if (!s->rng_started) {
    tl_error(s->diag, n->loc, "%s() before T.rng_init(...): the thread has no generator yet", what);
    return NULL;
  }
  TlIntrinsic fn = FN_RNG_RAND;
  TlDtype t = TY_UINT32;
  if (!bits) {
    static const char *const kws[] = {"bit", "dist", NULL};
    if (!tl_sema_check_keywords(s, n, what, kws)) return NULL;
    const TlNode *bn = tl_sema_arg(n, 0, "bit"), *dn = tl_sema_arg(n, 1, "dist");
    int64_t b = 32;
    if (bn && !tl_sema_const_int(s, bn, "bit=", &b)) return NULL;
    if (b != 32 && b != 64) {
      tl_error(s->diag, bn->loc, "bit= is 32 or 64, not %lld", (long long)b);
      return NULL;
    }
    fn = FN_RNG_UNIFORM;
    if (dn) {
      TlValue *dv = tl_sema_eval_const(s, dn);
      if (dv->kind == VAL_ERROR) return NULL;
      if (dv->kind != VAL_STR || (strcmp(dv->s, "uniform") && strcmp(dv->s, "normal"))) {
        tl_error(s->diag, dn->loc, "dist= is \"uniform\" or \"normal\"");
        return NULL;
      }
      fn = strcmp(dv->s, "normal") == 0 ? FN_RNG_NORMAL : FN_RNG_UNIFORM;
    }
    t = b == 64 ? TY_FLOAT64 : TY_FLOAT32;
  }
  TlExpr *e = tl_expr_new(s->arena, EX_CALL, n->loc, t, 0);
  e->fn = fn;
  return e;
}

TlExpr *tl_sema_scalar_call(Sema *s, const TlNode *n, const char *name, bool *handled) {
  *handled = true;
  char what[64];
  snprintf(what, sizeof what, "T.%s", name);
  TlDtype t;
  if (strcmp(name, "clamp") == 0) {
    if (!arity(s, n, what, 3, 3)) return NULL;
    return clamp(s, n);
  }
  if (strcmp(name, "Cast") == 0) {
    if (!arity(s, n, what, 2, 2) || !dtype_of(s, TL_VEC_AT(n->list, TlNode, 0), &t)) return NULL;
    return tl_sema_convert(s, arg(s, n, 1), t);
  }
  if (strcmp(name, "reinterpret") == 0) {
    if (!arity(s, n, what, 2, 2)) return NULL;
    return reinterpret(s, n);
  }
  if (strcmp(name, "thread_binding") == 0) return bound_thread(s, n);
  if (strcmp(name, "rng_rand") == 0 || strcmp(name, "rng_rand_float") == 0) return rng_draw(s, n, name);
  if (strcmp(name, "get_thread_binding") == 0) {
    if (!arity(s, n, what, 0, 1)) return NULL;
    return thread_binding(s, n);
  }
  // T.float32(x), T.int32(x), T.bfloat16(x)...: TVM's typed constructors.
  if (strcmp(name, "float") != 0 && strcmp(name, "half") != 0 && tl_dtype_parse(name, &t)) {
    if (!arity(s, n, what, 1, 1)) return NULL;
    return tl_sema_convert(s, arg(s, n, 0), t);
  }
  *handled = false;
  return NULL;
}

// x = T.alloc_var(dtype, init=v) (or T.alloc_var(dtype, v)): a scalar of
// that dtype, 0 unless init= says otherwise; later `x = ...` and `x += ...`
// re-assign it like any scalar local.
bool tl_sema_alloc_var(Sema *s, const TlNode *target, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"dtype", "init", "scope", NULL};
  if (!tl_sema_check_keywords(s, call, "alloc_var", kws)) return false;
  if (target->kind != ND_NAME) {
    tl_error(s->diag, target->loc, "T.alloc_var must be assigned to a name");
    return false;
  }
  const TlNode *dt = tl_sema_arg(call, 0, "dtype");
  const TlNode *init = tl_sema_arg(call, 1, "init");
  if (!dt || call->list.len > 2) {
    tl_error(s->diag, call->loc, "T.alloc_var takes a dtype and an optional init=");
    return false;
  }
  TlDtype t;
  if (!dtype_of(s, dt, &t)) return false;
  TlExpr *value = init ? tl_sema_expr(s, init) : tl_expr_int(s->arena, call->loc, 0, t);
  TlVar *v = tl_var_new(s->arena, s->kernel, target->name, VAR_SCALAR, t, target->loc);
  TlSym *y = tl_scope_define(s, s->scope, target->name, SYM_VAR, target->loc);
  y->var = v;
  TlStmt *st = tl_stmt_new(s->arena, ST_LET, call->loc);
  st->var = v;
  st->value = tl_sema_convert(s, value, t);
  tl_vec_push(s->arena, out, st);
  return true;
}

// T.sync_threads() is __syncthreads; T.sync_threads(id, count) is named
// barrier id (1-15) that `count` threads (a multiple of 32) arrive at, as in
// TileLang: the threads of a branch (`if tx < 256:`) synchronize among
// themselves. The id is the user's to keep apart from T.ws scopes' barriers.
static void named_barrier(Sema *s, const TlNode *call, TlVec *out) {
  TlStmt *st = tl_stmt_new(s->arena, ST_SYNC, call->loc);
  tl_vec_push(s->arena, out, st);
  if (call->list.len == 0) return;
  if (call->list.len != 2) {
    tl_error(s->diag, call->loc,
             "'T.sync_threads' takes no arguments, or a barrier id and a "
             "thread count");
    return;
  }
  const TlNode *id_node = TL_VEC_AT(call->list, TlNode, 0);
  const TlNode *count_node = TL_VEC_AT(call->list, TlNode, 1);
  int64_t id, count;
  int64_t block = s->kernel->threads[0] * s->kernel->threads[1] * s->kernel->threads[2];
  if (!tl_sema_const_int(s, id_node, "a barrier id", &id) ||
      !tl_sema_const_int(s, count_node, "a barrier's thread count", &count))
    return;
  if (id < 0 || id > 15) {
    tl_error(s->diag, id_node->loc,
             "barrier id %lld is out of range; the GPU has named barriers "
             "0-15",
             (long long)id);
    return;
  }
  if (count <= 0 || count % 32 || count > block) {
    tl_error(s->diag, count_node->loc,
             "a barrier of %lld threads; it takes a positive multiple of "
             "32 up to the block's %lld threads",
             (long long)count, (long long)block);
    return;
  }
  if (id == 0 && count == block) return; // the whole block: __syncthreads
  if (id == 0) {
    tl_error(s->diag, id_node->loc,
             "barrier 0 is the whole block's (__syncthreads); a barrier of "
             "%lld threads needs an id from 1 to 15",
             (long long)count);
    return;
  }
  st->barrier_id = (int)id;
  st->barrier_threads = count;
}

// TileLang's register-allocation hints for warp-specialized kernels:
// T.set_max_nreg(n, inc), T.inc_max_nreg / T.dec_max_nreg(n), the producer /
// consumer annotations and the switches that turn them off. They move
// registers between warpgroups (setmaxnreg) and never change what a kernel
// computes; tlc chooses its own split where it specializes warps
// (TlKernel.consumer_regs), so it accepts them and does nothing.
bool tl_sema_is_register_hint(const char *name) {
  static const char *const hints[] = {"disable_warp_group_reg_alloc",
                                      "no_set_max_nreg",
                                      "set_max_nreg",
                                      "inc_max_nreg",
                                      "dec_max_nreg",
                                      "annotate_producer_reg_dealloc",
                                      "annotate_consumer_reg_alloc",
                                      NULL};
  for (int i = 0; hints[i]; i++)
    if (strcmp(name, hints[i]) == 0) return true;
  return false;
}

// T.rng_init(seed, seq=None, off=0, generator="curandStatePhilox4_32_10_t"):
// this thread's generator, curand's Philox (curand_init(seed, seq, off)).
// Without seq each thread of the grid gets its own subsequence,
// threadIdx.x + blockIdx.x * blockDim.x, as TileLang's default.
static void rng_init(Sema *s, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"seed", "seq", "off", "generator", NULL};
  if (!tl_sema_check_keywords(s, call, "T.rng_init", kws) || !arity(s, call, "T.rng_init", 0, 4))
    return;
  if (s->in_parallel) {
    tl_error(s->diag, call->loc, "T.rng_init inside T.Parallel; start each thread's generator "
                                 "once, before the nests that draw from it");
    return;
  }
  const TlNode *seed = tl_sema_arg(call, 0, "seed"), *seq = tl_sema_arg(call, 1, "seq"),
               *off = tl_sema_arg(call, 2, "off"), *gen = tl_sema_arg(call, 3, "generator");
  if (!seed) {
    tl_error(s->diag, call->loc, "T.rng_init needs a seed");
    return;
  }
  if (gen) {
    TlValue *g = tl_sema_eval_const(s, gen);
    if (g->kind == VAL_ERROR) return;
    if (g->kind != VAL_STR || strcmp(g->s, "curandStatePhilox4_32_10_t") != 0) {
      tl_error(s->diag, gen->loc, "tlc's generator is curand's Philox4_32_10 "
                                  "(generator=\"curandStatePhilox4_32_10_t\")");
      return;
    }
  }
  TlKernel *k = s->kernel;
  TlArena *a = s->arena;
  TlStmt *st = tl_stmt_new(a, ST_RNG_INIT, call->loc);
  st->value = tl_sema_convert(s, tl_sema_expr(s, seed), TY_INT64);
  if (seq && seq->kind != ND_NONE) {
    st->start = tl_sema_convert(s, tl_sema_expr(s, seq), TY_INT64);
  } else {
    if (!k->block_vars[0]) { // `with T.Kernel(...)` without names: blockIdx.x all the same
      TlVar *v = tl_var_new(a, k, "bx", VAR_BLOCK_IDX, TY_INT32, call->loc);
      v->dim = 0;
      v->extent = k->grid_const[0];
      k->block_vars[0] = v;
    }
    TlExpr *tx = tl_expr_var(a, call->loc, k->thread_vars[0]);
    TlExpr *bx = tl_expr_var(a, call->loc, k->block_vars[0]);
    TlExpr *id = tl_expr_binary(a, call->loc, OP_ADD, tx,
                                tl_expr_binary(a, call->loc, OP_MUL, bx,
                                               tl_expr_int(a, call->loc, k->threads[0], TY_INT32),
                                               TY_INT32),
                                TY_INT32);
    st->start = tl_sema_convert(s, id, TY_INT64);
  }
  st->stop = off ? tl_sema_convert(s, tl_sema_expr(s, off), TY_INT64)
                 : tl_expr_int(a, call->loc, 0, TY_INT64);
  s->rng_started = true;
  tl_vec_push(a, out, st);
}

// Statement calls. T.func_attr and the two register-allocation switches
// steer TileLang's own code generation (function attributes, the setmaxnreg
// of warp-specialized kernels, which tlc does not emit): nothing to do;
// neither for T.wait_wgmma (below).
bool tl_sema_scalar_stmt(Sema *s, const TlNode *call, const char *name, TlVec *out) {
  if (strcmp(name, "sync_threads") == 0) {
    if (s->in_parallel)
      tl_error(s->diag, call->loc,
               "T.sync_threads() inside T.Parallel; a barrier belongs between "
               "the statements of the block");
    else if (arity(s, call, "T.sync_threads", 0, 2))
      named_barrier(s, call, out);
    return true;
  }
  if (strcmp(name, "sync_grid") == 0) {
    // A barrier of every thread of the grid (TileLang's persistent kernels:
    // all blocks finish the split phase before any combines). At the top
    // level of the kernel's body, where every thread reaches it.
    if (!arity(s, call, "T.sync_grid", 0, 0)) return true;
    if (out != &s->kernel->body || s->ws_depth) {
      tl_error(s->diag, call->loc, "T.sync_grid() inside a loop, branch or scope; tlc takes it "
                                   "at the top level of the kernel's body");
      tl_note(s->diag, call->loc, "every thread of every block must reach a grid barrier");
      return true;
    }
    TlStmt *st = tl_stmt_new(s->arena, ST_SYNC, call->loc);
    st->grid_sync = true;
    tl_vec_push(s->arena, out, st);
    return true;
  }
  if (strcmp(name, "rng_init") == 0) {
    rng_init(s, call, out);
    return true;
  }
  if (strcmp(name, "func_attr") == 0 || tl_sema_is_register_hint(name)) return true;
  // T.wait_wgmma(n) waits until at most n wgmma groups are in flight, after
  // T.gemm(..., wg_wait=-1) left them running. tlc ignores wg_wait=: each of
  // its T.gemm has waited for what the code after it reads, so there is
  // nothing left to wait for.
  if (strcmp(name, "wait_wgmma") == 0) {
    if (arity(s, call, "T.wait_wgmma", 1, 1)) {
      int64_t groups;
      (void)tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 0), "T.wait_wgmma", &groups);
    }
    return true;
  }
  // T.ptx_commit_group() / T.ptx_wait_group(n) close and wait for the
  // cp.async groups of a hand-written prefetch (`T.Parallel(...,
  // prefer_async=True)`). tlc emits such a nest as ordinary loads and stores,
  // done when the nest ends (thread-sync orders them with barriers), so there
  // is no group to commit or wait for.
  if (strcmp(name, "ptx_cp_async") == 0) {
    tl_sema_ptx_cp_async(s, call, out);
    return true;
  }
  if (strcmp(name, "ptx_commit_group") == 0) {
    (void)arity(s, call, "T.ptx_commit_group", 0, 0);
    return true;
  }
  if (strcmp(name, "ptx_wait_group") == 0) {
    if (arity(s, call, "T.ptx_wait_group", 1, 1)) {
      int64_t groups;
      (void)tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 0), "T.ptx_wait_group", &groups);
    }
    return true;
  }
  if (strcmp(name, "annotate_layout") == 0) {
    tl_sema_annotate_layout(s, call);
    return true;
  }
  return false;
}
