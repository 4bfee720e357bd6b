// partition: every T.Parallel nest becomes what one thread does (TileLang's
// loop_partition.cc). For a nest with extents e0..e(k-1), T threads and
// vector width V the plan (lib/Analysis/PartitionPlan.c) gives
//   access = step * T + tid          (step: the per-thread serial loop)
//   flat   = access * V + lane       (lane: the vector lanes)
// and the original indices come back from flat row-major:
//   i(k-1) = flat % e(k-1),  i(k-2) = flat // e(k-1) % e(k-2),  ...
// The nest is replaced by
//   seq[plan] { for step (unrolled when short) { if access < accesses
//                 { for lane vectorized { body[i := ...] } } } }
// leaving out the loops of extent 1 and the guard when every (step, tid)
// is inside the space. Flatten and Vectorize then turn lane loops into
// vector accesses. The vector width follows TileLang v0.1.5: the largest
// power of two up to 128 bits that divides the innermost extent and for
// which every access is stride-1 (or invariant) in the innermost variable
// with an aligned base; coalesced_width= overrides it.
#include "tlc/FragLayout.h"
#include "tlc/Passes.h"

#include "PartitionInternal.h"

static const char *const PASS = "partition";

enum { MAX_UNROLLED_STEPS = 16 };

typedef struct Ctx {
  TlArena *arena;
  TlKernel *kernel;
  TlDiag *diag;
  bool ok;
  int next_gemm;
  int next_table;
  TlVec thread_scalars; // TlVar*: block-level scalars whose value depends on threadIdx
  int per_thread;       // inside branches or loops whose condition or bounds read threadIdx
  // The threads that run the statements being partitioned: [run_lo, run_hi)
  // of the block, narrowed by enclosing `if tx < C` / `if tx >= C` branches.
  int64_t run_lo, run_hi;
  bool run_holes; // and not all of those (the else of `if a <= tx < b`)
  TlLoc run_loc;  // the branch that narrowed it
} Ctx;

// Whether e reads threadIdx, directly (T.get_thread_binding) or through a
// scalar computed from it.
static bool depends_on_thread(const Ctx *c, const TlExpr *e) {
  if (!e) return false;
  if (e->kind == EX_CALL && e->fn == FN_ATOMIC_ADD) return true; // each thread's own old value
  if (e->kind == EX_CALL && tl_intrinsic_is_rng(e->fn)) return true; // each thread's own stream
  if (e->kind == EX_VAR) {
    if (e->var->kind == VAR_THREAD_IDX) return true;
    for (int i = 0; i < c->thread_scalars.len; i++)
      if (TL_VEC_AT(c->thread_scalars, TlVar, i) == e->var) return true;
  }
  for (int i = 0; i < e->nargs; i++)
    if (depends_on_thread(c, e->args[i])) return true;
  return false;
}

static bool store_is_per_thread(const Ctx *c, const TlStmt *s) {
  for (int i = 0; i < s->nindices; i++)
    if (depends_on_thread(c, s->indices[i])) return true;
  return false;
}

typedef struct WidthScan {
  TlArena *arena;
  const TlVar *inner;
  int64_t v;      // the current candidate
} WidthScan;

// Narrows the candidate width for one access (load or store).
static void scan_access(WidthScan *w, const TlBuffer *b, TlExpr *const *idx, int nidx,
                        bool is_store, TlLoc loc) {
  if (tl_buffer_elems(b) == 1 && b->scope == SCOPE_LOCAL)
    return; // a per-thread scalar cell: no constraint
  int64_t cap = 128 / tl_dtype_bits(b->dtype);
  if (cap < 1)
    cap = 1;
  w->v = tl_gcd(w->v, cap);
  TlExpr *off = tl_access_flat(w->arena, b, idx, nidx);
  (void)loc;
  TlExpr *base;
  int64_t coeff;
  while (w->v > 1) {
    if (!tl_affine_in(w->arena, off, w->inner, &base, &coeff)) {
      w->v = 1;
      break;
    }
    if (coeff == 0 && !is_store)
      break; // invariant load: a broadcast
    if (coeff == 1 && tl_known_alignment(base, w->v) % w->v == 0)
      break;
    w->v /= 2;
  }
}

static void scan_expr(WidthScan *w, const TlExpr *e) {
  if (!e)
    return;
  if (e->kind == EX_LOAD)
    scan_access(w, e->buf, e->args, e->nargs, false, e->loc);
  if (e->kind == EX_CALL && (e->fn == FN_ATOMIC_ADD || tl_intrinsic_is_rng(e->fn)))
    w->v = 1; // one atomic, or one draw in the thread's order, per point: keep it scalar
  for (int i = 0; i < e->nargs; i++)
    scan_expr(w, e->args[i]);
}

static void scan_body(WidthScan *w, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE) {
      scan_access(w, s->buf, s->indices, s->nindices, true, s->loc);
      for (int d = 0; d < s->nindices; d++)
        scan_expr(w, s->indices[d]);
    }
    scan_expr(w, s->value);
    scan_expr(w, s->cond);
    scan_expr(w, s->start);
    scan_expr(w, s->stop);
    if (s->kind == ST_FOR) // a loop inside the nest: keep it scalar
      w->v = 1;
    scan_body(w, &s->body);
    scan_body(w, &s->else_body);
  }
}

int64_t tl_partition_vector_width(TlArena *a, const TlKernel *k, const TlStmt *nest) {
  (void)k;
  if (nest->coalesced_width > 0)
    return nest->coalesced_width;
  if (nest->layout)
    return 1;
  WidthScan w = {a, nest->vars[nest->nvars - 1], 16};
  w.v = tl_gcd(w.v, nest->extents[nest->nvars - 1]);
  // Largest power of two dividing the innermost extent.
  int64_t p = 1;
  while (p * 2 <= w.v && w.v % (p * 2) == 0)
    p *= 2;
  w.v = p;
  scan_body(&w, &nest->body);
  return w.v;
}

TlExpr *tl_partition_thread_id(TlArena *a, const TlKernel *k, TlLoc loc) {
  TlExpr *tid = tl_expr_var(a, loc, k->thread_vars[0]);
  if (k->threads[1] > 1 || k->threads[2] > 1) {
    TlExpr *ty = tl_expr_binary(a, loc, OP_MUL, tl_expr_var(a, loc, k->thread_vars[1]),
                                tl_expr_int(a, loc, k->threads[0], TY_INT32), TY_INT32);
    tid = tl_expr_binary(a, loc, OP_ADD, tid, ty, TY_INT32);
    if (k->threads[2] > 1)
      tid = tl_expr_binary(a, loc, OP_ADD, tid,
                           tl_expr_binary(a, loc, OP_MUL,
                                          tl_expr_var(a, loc, k->thread_vars[2]),
                                          tl_expr_int(a, loc, k->threads[0] * k->threads[1], TY_INT32),
                                          TY_INT32),
                           TY_INT32);
  }
  // T.ws scopes: a tile operation runs on one scope's threads, numbered from
  // 0 within it (each scope starts at a multiple of its size).
  if (k->launch_threads)
    tid = tl_expr_binary(a, loc, OP_FLOORMOD, tid, tl_expr_int(a, loc, k->threads[0], TY_INT32),
                         TY_INT32);
  return tid;
}

// Does the body store only into per-thread local buffers (true also when
// it stores nothing)? *any tells whether it stores at all.
static bool no_shared_stores(const TlVec *body, bool *any) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE) {
      if (!s->buf || s->buf->scope != SCOPE_LOCAL)
        return false;
      *any = true;
    }
    if (!no_shared_stores(&s->body, any) || !no_shared_stores(&s->else_body, any)) return false;
  }
  return true;
}

// Does the nest store only into per-thread local buffers? Then every thread
// runs all of it on its own copy (T.fill of a T.alloc_local tile, a
// reduction into a one-element fragment, whose serial loop stores nothing).
static bool stores_only_local(const TlVec *body) {
  bool any = false;
  return no_shared_stores(body, &any) && any;
}

static TlStmt *per_thread_nest(Ctx *c, TlStmt *nest) {
  TlArena *a = c->arena;
  TlVec body = nest->body;
  for (int d = nest->nvars - 1; d >= 0; d--) {
    TlStmt *loop = tl_stmt_new(a, ST_FOR, nest->loc);
    loop->loop_kind = nest->extents[d] <= 16 ? LOOP_UNROLL : LOOP_SERIAL;
    loop->var = nest->vars[d];
    loop->start = tl_expr_int(a, nest->loc, 0, loop->var->dtype);
    loop->stop = tl_expr_int(a, nest->loc, nest->extents[d], loop->var->dtype);
    loop->step = tl_expr_int(a, nest->loc, 1, loop->var->dtype);
    loop->body = body;
    body = (TlVec){0};
    tl_vec_push(a, &body, loop);
  }
  TlStmt *seq = tl_stmt_new(a, ST_SEQ, nest->loc);
  seq->per_thread = true;
  TlStmt *note = tl_stmt_new(a, ST_COMMENT, nest->loc);
  note->text = tl_arena_printf(a, "T.Parallel at line %d writes only per-thread local buffers: every "
                               "thread runs all of it", nest->loc.line);
  tl_vec_push(a, &seq->body, note);
  tl_vec_push(a, &seq->body, TL_VEC_AT(body, TlStmt, 0));
  return seq;
}

// Does the body store into a per-thread local buffer anywhere?
static bool stores_local(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_LOCAL) return true;
    if (stores_local(&s->body) || stores_local(&s->else_body)) return true;
  }
  return false;
}

// Wraps every store to shared or global memory in body in `if (guard)`.
static void guard_memory_stores(TlArena *a, TlVec *body, TlExpr *guard) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope != SCOPE_LOCAL) {
      TlStmt *g = tl_stmt_new(a, ST_IF, s->loc);
      g->cond = guard;
      tl_vec_push(a, &g->body, s);
      body->items[i] = g;
      continue;
    }
    guard_memory_stores(a, &s->body, guard);
    guard_memory_stores(a, &s->else_body, guard);
  }
}

// A one-point nest that writes a per-thread buffer, TileLang's
// `for i in T.Parallel(blk_m)` with blk_m = 1 over one-element fragments
// (`mean[i] = sum[i] * inv_D; Mean[bx + i] = mean[i]`): the fragment is
// replicated, so every thread runs the point for its own copy, and one
// replica (thread 0) writes memory. Partitioned by the default formula,
// only thread 0 would set its copy and the others would read garbage
// (TileLang's examples/norm/layernorm.py, found by the corpus harness).
static TlStmt *replicated_point_nest(Ctx *c, TlStmt *nest) {
  TlStmt *seq = per_thread_nest(c, nest);
  TlExpr *tid = tl_partition_thread_id(c->arena, c->kernel, nest->loc);
  TlExpr *first = tl_expr_binary(c->arena, nest->loc, OP_EQ, tid,
                                 tl_expr_int(c->arena, nest->loc, 0, TY_INT32), TY_BOOL);
  guard_memory_stores(c->arena, &seq->body, first);
  TL_VEC_AT(seq->body, TlStmt, 0)->text =
      tl_arena_printf(c->arena, "T.Parallel at line %d has one point and writes per-thread buffers: every "
                      "thread runs it, thread 0 writes memory", nest->loc.line);
  return seq;
}

static int64_t nest_points(const TlStmt *nest) {
  int64_t n = 1;
  for (int d = 0; d < nest->nvars; d++) n *= nest->extents[d];
  return n;
}

// Builds the per-thread form of one nest.
static bool narrowed(Ctx *c, const TlStmt *s, const char *what, int64_t used);

static TlStmt *partition_nest(Ctx *c, TlStmt *nest) {
  if (!nest->layout && stores_only_local(&nest->body))
    return per_thread_nest(c, nest);
  if (!nest->layout && nest_points(nest) == 1 && stores_local(&nest->body))
    return replicated_point_nest(c, nest);
  TlArena *a = c->arena;
  TlLoc loc = nest->loc;
  bool from_layout = false;
  if (nest->layout) {
    int64_t v = tl_layout_default_width(c->kernel, nest);
    if (!v)
      return tl_partition_layout_nest(a, c->kernel, nest, c->diag, c->next_table++);
    nest->coalesced_width = v; // the layout is the default formula with vector v
    nest->layout = NULL;
    from_layout = true;
  }
  int64_t T = c->kernel->threads[0] * c->kernel->threads[1] * c->kernel->threads[2];
  int64_t V = tl_partition_vector_width(a, c->kernel, nest);
  if (nest->extents[nest->nvars - 1] % V != 0) {
    tl_error(c->diag, loc, "coalesced_width=%lld does not divide the innermost extent %lld",
             (long long)V, (long long)nest->extents[nest->nvars - 1]);
    return NULL;
  }
  TlPartitionPlan plan;
  char err[160];
  if (!tl_partition_plan_default(&plan, nest->nvars, nest->extents, T, V, err, sizeof err)) {
    tl_error(c->diag, loc, "cannot partition this T.Parallel: %s", err);
    return NULL;
  }
  if (narrowed(c, nest, nest->origin == ORIGIN_USER ? "this T.Parallel" : "this tile copy",
               plan.threads_used))
    return NULL;
  // The flat index in int64 when the space is larger than int32.
  TlDtype it = plan.total > INT32_MAX / 2 ? TY_INT64 : TY_INT32;
  TlExpr *tid = tl_partition_thread_id(a, c->kernel, loc);
  TlVar *step = NULL, *lane = NULL;
  TlExpr *access = tid;
  if (plan.steps > 1) {
    step = tl_var_new(a, c->kernel, "step", VAR_LOOP, it, loc);
    step->extent = plan.steps;
    access = tl_expr_binary(a, loc, OP_ADD,
                            tl_expr_binary(a, loc, OP_MUL, tl_expr_var(a, loc, step),
                                           tl_expr_int(a, loc, T, it), it),
                            tl_expr_cast(a, loc, tid, it), it);
  } else if (it != TY_INT32) {
    access = tl_expr_cast(a, loc, tid, it);
  }
  TlExpr *flat = access;
  if (V > 1) {
    lane = tl_var_new(a, c->kernel, "lane", VAR_LOOP, it, loc);
    lane->extent = V;
    flat = tl_expr_binary(a, loc, OP_ADD,
                          tl_expr_binary(a, loc, OP_MUL, access, tl_expr_int(a, loc, V, it), it),
                          tl_expr_var(a, loc, lane), it);
  }
  // Recover the nest indices, innermost first.
  TlExpr *with[TL_MAX_DIMS];
  TlExpr *rest = flat;
  for (int d = nest->nvars - 1; d >= 0; d--) {
    TlExpr *idx;
    if (d == 0) {
      idx = rest;
    } else {
      TlExpr *ed = tl_expr_int(a, loc, nest->extents[d], it);
      idx = tl_expr_binary(a, loc, OP_FLOORMOD, rest, ed, it);
      rest = tl_expr_binary(a, loc, OP_FLOORDIV, rest, ed, it);
    }
    with[d] = tl_simplify(a, tl_expr_cast(a, loc, idx, nest->vars[d]->dtype));
  }
  for (int i = 0; i < nest->body.len; i++)
    tl_stmt_substitute(a, TL_VEC_AT(nest->body, TlStmt, i), nest->nvars, nest->vars, with);

  TlStmt *inner = tl_stmt_new(a, ST_SEQ, loc);
  inner->body = nest->body;
  if (lane) {
    TlStmt *lanes = tl_stmt_new(a, ST_FOR, loc);
    lanes->loop_kind = LOOP_VECTORIZED;
    lanes->var = lane;
    lanes->start = tl_expr_int(a, loc, 0, it);
    lanes->stop = tl_expr_int(a, loc, V, it);
    lanes->step = tl_expr_int(a, loc, 1, it);
    lanes->body = nest->body;
    lanes->async_copy = nest->async_copy;
    inner = lanes;
  }
  if (plan.guard) {
    TlStmt *g = tl_stmt_new(a, ST_IF, loc);
    g->cond = tl_expr_binary(a, loc, OP_LT, tl_simplify(a, access),
                             tl_expr_int(a, loc, plan.accesses, it), TY_BOOL);
    tl_vec_push(a, &g->body, inner);
    inner = g;
  }
  if (step) {
    TlStmt *loop = tl_stmt_new(a, ST_FOR, loc);
    loop->loop_kind = plan.steps <= MAX_UNROLLED_STEPS ? LOOP_UNROLL : LOOP_SERIAL;
    loop->var = step;
    loop->start = tl_expr_int(a, loc, 0, it);
    loop->stop = tl_expr_int(a, loc, plan.steps, it);
    loop->step = tl_expr_int(a, loc, 1, it);
    tl_vec_push(a, &loop->body, inner);
    inner = loop;
  }
  TlStmt *seq = tl_stmt_new(a, ST_SEQ, loc);
  seq->plan = plan;
  seq->plan_loc = loc;
  seq->plan_origin = nest->origin;
  seq->plan_has_layout = from_layout;
  TlStmt *note = tl_stmt_new(a, ST_COMMENT, loc);
  char shape[160];
  size_t off = 0;
  for (int d = 0; d < nest->nvars && off < sizeof shape; d++)
    off += (size_t)snprintf(shape + off, sizeof shape - off, "%s%lld", d ? ", " : "",
                            (long long)nest->extents[d]);
  note->text = tl_arena_printf(
      a, "T.Parallel(%s) at line %d (%s): %lld points, %lld threads x vector %lld -> %lld step%s%s",
      shape, loc.line, tl_origin_name(nest->origin), (long long)plan.total, (long long)T,
      (long long)V, (long long)plan.steps, plan.steps == 1 ? "" : "s",
      plan.guard ? ", guarded" : "");
  if (from_layout)
    note->text = tl_arena_printf(a, "%s (loop_layout is this default formula)", note->text);
  tl_vec_push(a, &seq->body, note);
  tl_vec_push(a, &seq->body, inner);
  return seq;
}

// Is e the thread index (threadIdx.x, or a scalar defined as it)?
static bool is_thread_index(const TlExpr *e) {
  while (e->kind == EX_CAST) e = e->args[0];
  return e->kind == EX_VAR && e->var->kind == VAR_THREAD_IDX;
}

// Narrows [*lo, *hi) by `cond` when it is `tx < C`, `tx >= C` (<=, >) or a
// conjunction of those; false when cond says something else about threads.
static bool thread_range(const TlExpr *cond, int64_t *lo, int64_t *hi) {
  if (cond->kind == EX_BINARY && (cond->op == OP_AND || cond->op == OP_BITAND))
    return thread_range(cond->args[0], lo, hi) && thread_range(cond->args[1], lo, hi);
  int64_t k;
  if (cond->kind != EX_BINARY || !is_thread_index(cond->args[0]) ||
      !tl_expr_is_const(cond->args[1], &k))
    return false;
  switch (cond->op) {
  case OP_LT: *hi = k < *hi ? k : *hi; return true;
  case OP_LE: *hi = k + 1 < *hi ? k + 1 : *hi; return true;
  case OP_GE: *lo = k > *lo ? k : *lo; return true;
  case OP_GT: *lo = k + 1 > *lo ? k + 1 : *lo; return true;
  default: return false;
  }
}

// Tile work partitioned over the whole block in a branch that only some
// threads take would leave the others' elements undone: TileLang lays such
// work out over the branch's threads (its thread bounds); tlc does not yet,
// so it is an error (DeepSeek's mhc_pre: a copy under `else` of
// `if T.get_thread_binding() < 32` loaded 32 of 96 threads' shares of
// nothing, and its outputs were wrong on the H200).
static bool narrowed(Ctx *c, const TlStmt *s, const char *what, int64_t used) {
  int64_t T = c->kernel->threads[0] * c->kernel->threads[1] * c->kernel->threads[2];
  if (c->run_lo == 0 && c->run_hi >= T && !c->run_holes) return false;
  if (used && c->run_lo == 0 && used <= c->run_hi && !c->run_holes) return false; // owners run it
  if (c->run_holes)
    tl_error(c->diag, s->loc,
             "%s is partitioned over the block's %lld threads, but only some of them run this "
             "branch: the other threads' part would never be done",
             what, (long long)T);
  else
    tl_error(c->diag, s->loc,
             "%s is partitioned over the block's %lld threads, but only threads %lld to %lld run "
             "this branch: the other threads' part would never be done",
             what, (long long)T, (long long)c->run_lo,
             (long long)(c->run_hi < T ? c->run_hi : T) - 1);
  tl_note(c->diag, c->run_loc,
          "the branch on the thread index is here; tlc lays tile work out over a branch's own "
          "threads only when every branch of its if/elif/else chain is a window of whole warps "
          "(comparisons of the thread index with constants)");
  c->ok = false;
  return true;
}

static void partition_body(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_PARALLEL && tl_nest_touches_fragment(s)) {
      if (narrowed(c, s, "this fragment T.Parallel", 0)) continue;
      TlStmt *r = tl_partition_fragment_nest(c->arena, c->kernel, s, c->diag);
      if (r)
        body->items[i] = r;
      else
        c->ok = false;
      continue;
    }
    if (s->kind == ST_REDUCE) {
      if (narrowed(c, s, "this reduction", 0)) continue;
      TlStmt *r = tl_lower_reduce(c->arena, c->kernel, s);
      if (r)
        body->items[i] = r;
      else
        c->ok = false;
      continue;
    }
    if (s->kind == ST_GEMM) {
      if (narrowed(c, s, "this T.gemm", 0)) continue;
      s->gemm_id = c->next_gemm++;
      continue;
    }
    if (!tl_check_no_fragment_access(s, c->diag)) {
      c->ok = false;
      continue;
    }
    if ((s->kind == ST_LET || s->kind == ST_SET) &&
        (c->per_thread || depends_on_thread(c, s->value)))
      tl_vec_push(c->arena, &c->thread_scalars, s->var);
    if (s->kind == ST_STORE && s->buf &&
        (s->buf->scope == SCOPE_GLOBAL || s->buf->scope == SCOPE_SHARED) && !s->atomic &&
        !c->per_thread && !store_is_per_thread(c, s)) {
      // A store outside T.Parallel is the block's, not each thread's: one
      // thread performs it (S[bx] += x would otherwise race with itself).
      // A store indexed by the thread (T.get_thread_binding) is each
      // thread's own, as the user wrote it, and so is every T.atomic_add
      // (TileLang runs block-level statements in every thread: for an
      // idempotent store that is the same as one thread, for an add not).
      TlStmt *g = tl_stmt_new(c->arena, ST_IF, s->loc);
      g->cond = tl_expr_binary(c->arena, s->loc, OP_EQ, tl_partition_thread_id(c->arena, c->kernel, s->loc),
                               tl_expr_int(c->arena, s->loc, 0, TY_INT32), TY_BOOL);
      tl_vec_push(c->arena, &g->body, s);
      body->items[i] = g;
      continue;
    }
    if (s->kind == ST_PARALLEL) {
      TlStmt *r = partition_nest(c, s);
      if (r)
        body->items[i] = r;
      else
        c->ok = false;
      continue;
    }
    if (s->kind == ST_IF && s->group_threads && s->group_threads < c->kernel->threads[0]) {
      // A T.ws scope smaller than the kernel's partition size (sema allows
      // it no fragments): its loops are partitioned over its own threads,
      // numbered within it (it starts at a multiple of its size).
      int64_t saved = c->kernel->threads[0];
      c->kernel->threads[0] = s->group_threads;
      partition_body(c, &s->body);
      c->kernel->threads[0] = saved;
      continue;
    }
    // A branch some threads take and others not (`if s_hist[tx] >= k:`), or
    // a loop whose trip count differs between threads: the stores in it are
    // each taking thread's own, as the user wrote them.
    // (A T.ws scope's condition names the thread too, but its statements
    // are the scope's, partitioned over its threads as the block's are.)
    bool per_thread = !s->group_threads &&
                      (depends_on_thread(c, s->cond) || depends_on_thread(c, s->start) ||
                       depends_on_thread(c, s->stop));
    c->per_thread += per_thread;
    int64_t lo = c->run_lo, hi = c->run_hi;
    bool holes = c->run_holes;
    TlLoc at = c->run_loc;
    int64_t then_lo = lo, then_hi = hi;
    bool ranged = per_thread && s->kind == ST_IF && thread_range(s->cond, &then_lo, &then_hi);
    if (ranged) c->run_lo = then_lo, c->run_hi = then_hi, c->run_loc = s->loc;
    partition_body(c, &s->body);
    c->run_lo = lo, c->run_hi = hi, c->run_loc = at;
    if (ranged && (then_lo == lo || then_hi == hi)) { // the else: the rest of [lo, hi)
      c->run_lo = then_lo == lo ? then_hi : lo;
      c->run_hi = then_lo == lo ? hi : then_lo;
      c->run_loc = s->loc;
    } else if (ranged) { // the else of `a <= tx < b`: two pieces
      c->run_holes = true;
      c->run_loc = s->loc;
    }
    partition_body(c, &s->else_body);
    c->run_lo = lo, c->run_hi = hi, c->run_holes = holes, c->run_loc = at;
    c->per_thread -= per_thread;
  }
}

bool tl_partition(TlArena *a, TlModule *m, TlDiag *d) {
  (void)PASS;
  Ctx c = {a, NULL, d, true, 0, 0, {0}, 0, 0, 0, false, {0}};
  for (int k = 0; k < m->kernels.len; k++) {
    c.kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    c.run_lo = 0;
    c.run_hi = INT64_MAX;
    c.thread_scalars.len = 0;
    partition_body(&c, &c.kernel->body);
    c.kernel->thread_level = true;
  }
  return c.ok;
}
