// pipeline: `for k in T.Pipelined(start, stop, num_stages=s)` becomes a
// software pipeline over multi-buffered shared tiles.
//
// Planning: the loop's copies from global into shared memory are producers
// (stage 0), everything else consumers (stage s-1); `stage=` chooses the
// producers explicitly and `order=`/`stage=` are checked (lengths, ranges, a
// permutation, no consumer before the producer of what it reads).
// Multi-buffering: each shared tile a producer writes gets s copies; every
// access in the loop indexes copy (iteration - start) % s.
// Schedule, for s >= 2 (n = stop - start, any n >= 0):
//   for p in 0..s-2:  if start+p < stop: produce(start+p) into copy p;  commit
//   for k in start..stop:
//     wait until at most s-2 groups are pending; __syncthreads()
//     consume(k) from copy (k-start) % s
//     if k+s-1 < stop: produce(k+s-1) into copy (k+s-1-start) % s;  commit
//   wait until no group is pending
// (with s = 2 the produce step comes before consume(k), so that it overlaps
// the compute).
// The tile produced at iteration k goes into the copy consumed at iteration
// k-1, which every thread finished before this iteration's barrier, so no
// copy is overwritten while read (nor the one consume(k) reads). A commit
// with no copies (past the end) keeps the group count aligned, so the wait
// always covers tile k.
// Producers are marked async: vectorize turns them into cp.async.
// A T.gemm on wgmma keeps its tensor-core work running across the barrier
// when s >= 4 and it is the loop's only gemm (and nothing else in the loop
// touches its accumulator): tiles are produced d = s-1 iterations ahead
// instead of s, so the copy issued at iteration k fills the stage consumed
// at k-2; the gemm's wgmma wait leaves one commit group (iteration k's) in
// flight and waits for k-1's, and every warpgroup passed iteration k's
// barrier after that wait at k-1, so group k-2 is complete everywhere
// before its stage is overwritten. A wgmma_wait after the loop drains the
// last group (a wait inside the loop on its last iteration would make the
// accumulators flow through a branch, and ptxas then waits every time).
// s <= 1 leaves the loop serial (copy, barrier, compute, barrier).
#include "tlc/Passes.h"

typedef struct Ctx {
  TlArena *arena;
  TlKernel *kernel;
  TlDiag *diag;
  bool ok;
  // The scalars the pipelined loop's body computes before its copies
  // (`kv_start = block_table[bx, k] * block_size`), each value with the
  // earlier ones already substituted: a producer issued for iteration k+d
  // in the prologue or at iteration k recomputes them for its own iteration
  // (the `let` of iteration k+d is not in scope there).
  TlVar *let_vars[64];
  TlExpr *let_values[64];
  int nlets;
} Ctx;

static bool reads_only_global(const TlExpr *e) {
  if (!e) return true;
  if (e->kind == EX_LOAD && e->buf->scope != SCOPE_GLOBAL) return false;
  for (int i = 0; i < e->nargs; i++)
    if (!reads_only_global(e->args[i])) return false;
  return true;
}

TlBuffer *tl_pipeline_producer_target(const TlStmt *s) {
  if (s->kind != ST_PARALLEL || s->origin != ORIGIN_COPY || s->body.len != 1) return NULL;
  const TlStmt *st = TL_VEC_AT(s->body, TlStmt, 0);
  if (st->kind != ST_STORE || !st->buf || st->buf->scope != SCOPE_SHARED || st->buf->aliased ||
      st->buf->alias_of || !reads_only_global(st->value))
    return NULL; // a T.view's tile keeps one copy: stages would move under the view
  if (st->update_op != OP_EQ) // T.atomic_add's copy adds: it is compute, not a producer
    return NULL;
  return st->buf;
}

// Prepends the stage index to every access of a multi-buffered tile.
static TlExpr *stage_expr(Ctx *c, TlExpr *e, TlBuffer *const *bufs, int nb, TlExpr *stage) {
  if (!e) return e;
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = stage_expr(c, e->args[i], bufs, nb, stage);
  if (e->kind != EX_LOAD || e->nargs != e->buf->ndims) return e;
  for (int i = 0; i < nb; i++)
    if (e->buf == bufs[i]) {
      TlExpr *x = tl_expr_new(c->arena, EX_LOAD, e->loc, e->dtype, e->nargs + 1);
      x->buf = e->buf;
      x->args[0] = tl_expr_clone(c->arena, stage);
      for (int d = 0; d < e->nargs; d++)
        x->args[d + 1] = e->args[d];
      return x;
    }
  return e;
}

static void stage_stmt(Ctx *c, TlStmt *s, TlBuffer *const *bufs, int nb, TlExpr *stage) {
  for (int i = 0; i < s->nindices; i++)
    s->indices[i] = stage_expr(c, s->indices[i], bufs, nb, stage);
  s->value = stage_expr(c, s->value, bufs, nb, stage);
  s->cond = stage_expr(c, s->cond, bufs, nb, stage);
  if (s->kind == ST_STORE && s->buf && s->nindices == s->buf->ndims)
    for (int i = 0; i < nb; i++)
      if (s->buf == bufs[i]) {
        TlExpr **idx = TL_NEW_ARRAY(c->arena, TlExpr *, s->nindices + 1);
        idx[0] = tl_expr_clone(c->arena, stage);
        for (int d = 0; d < s->nindices; d++)
          idx[d + 1] = s->indices[d];
        s->indices = idx;
        s->nindices++;
        break;
      }
  if (s->kind == ST_GEMM)
    for (int i = 0; i < nb; i++) {
      if (s->a == bufs[i]) s->stage_a = tl_expr_clone(c->arena, stage);
      if (s->b == bufs[i]) s->stage_b = tl_expr_clone(c->arena, stage);
    }
  if (s->kind == ST_COPY || s->kind == ST_REDUCE || s->kind == ST_FILL)
    for (int i = 0; i < nb; i++)
      if (s->src.buf == bufs[i] || s->dst.buf == bufs[i]) {
        tl_error(c->diag, s->loc,
                 "internal error: tile operator on a multi-buffered tile (pipeline)");
        c->ok = false;
      }
  for (int i = 0; i < s->body.len; i++)
    stage_stmt(c, TL_VEC_AT(s->body, TlStmt, i), bufs, nb, stage);
  for (int i = 0; i < s->else_body.len; i++)
    stage_stmt(c, TL_VEC_AT(s->else_body, TlStmt, i), bufs, nb, stage);
}

bool tl_pipeline_stage_stmt(TlArena *a, TlDiag *d, TlStmt *s, TlBuffer *const *bufs, int nb,
                            TlExpr *stage) {
  Ctx c = {.arena = a, .diag = d, .ok = true};
  stage_stmt(&c, s, bufs, nb, stage);
  return c.ok;
}

static TlExpr *I(Ctx *c, TlLoc loc, int64_t v, TlDtype t) {
  return tl_expr_int(c->arena, loc, v, t);
}

// (it - start) % s, the copy an iteration uses.
static TlExpr *copy_index(Ctx *c, TlExpr *it, TlExpr *start, int s, TlLoc loc) {
  TlDtype t = it->dtype;
  TlExpr *rel = tl_expr_binary(c->arena, loc, OP_SUB, it, tl_expr_clone(c->arena, start), t);
  return tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_FLOORMOD, rel, I(c, loc, s, t), t));
}

// Does statement s (at any depth) read variable v?
static bool stmt_uses_var(const TlStmt *s, const TlVar *v) {
  for (int i = 0; i < s->nindices; i++)
    if (tl_expr_uses_var(s->indices[i], v)) return true;
  if (tl_expr_uses_var(s->value, v) || tl_expr_uses_var(s->cond, v) ||
      tl_expr_uses_var(s->start, v) || tl_expr_uses_var(s->stop, v) || tl_expr_uses_var(s->step, v))
    return true;
  for (int d = 0; d < s->src.ndims; d++)
    if (tl_expr_uses_var(s->src.start[d], v)) return true;
  for (int d = 0; d < s->dst.ndims; d++)
    if (tl_expr_uses_var(s->dst.start[d], v)) return true;
  for (int i = 0; i < s->body.len; i++)
    if (stmt_uses_var(TL_VEC_AT(s->body, TlStmt, i), v)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (stmt_uses_var(TL_VEC_AT(s->else_body, TlStmt, i), v)) return true;
  return false;
}

// Does the loop body re-assign v (a `set`) anywhere?
static bool body_sets_var(const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_SET && s->var == v) || body_sets_var(&s->body, v) ||
        body_sets_var(&s->else_body, v))
      return true;
  }
  return false;
}

// Can a scalar of iteration k be computed for another iteration? Only from
// the loop counter, values fixed for the whole loop (block indices, sizes,
// scalars the loop does not re-assign) and buffers the loop does not write
// (what another iteration writes there would be read too early); not from
// a fragment, whose elements are spread over the threads.
static const char *why_not_recomputable(const TlExpr *e, const TlStmt *loop) {
  if (!e) return NULL;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT) return e->buf->name;
  if (e->kind == EX_LOAD)
    for (int i = 0; i < loop->body.len; i++)
      if (tl_stmt_touches(TL_VEC_AT(loop->body, TlStmt, i), e->buf, true)) return e->buf->name;
  if (e->kind == EX_VAR && body_sets_var(&loop->body, e->var)) return e->var->name;
  for (int i = 0; i < e->nargs; i++) {
    const char *why = why_not_recomputable(e->args[i], loop);
    if (why) return why;
  }
  return NULL;
}

// Collects the loop body's top-level scalars that its producers read, with
// their values inlined (false after an error when one cannot be recomputed
// for another iteration).
static bool collect_producer_lets(Ctx *c, TlStmt *loop, TlStmt **prods, int np) {
  c->nlets = 0;
  for (int i = 0; i < loop->body.len; i++) {
    TlStmt *s = TL_VEC_AT(loop->body, TlStmt, i);
    if (s->kind != ST_LET) continue;
    if (c->nlets == 64) {
      tl_error(c->diag, s->loc,
               "a pipelined loop body with more than 64 scalars is too long for tlc");
      return false;
    }
    c->let_vars[c->nlets] = s->var;
    c->let_values[c->nlets] =
        tl_expr_substitute(c->arena, s->value, c->nlets, c->let_vars, c->let_values);
    c->nlets++;
    for (int p = 0; p < np; p++) {
      if (!stmt_uses_var(prods[p], s->var)) continue;
      const char *why = why_not_recomputable(c->let_values[c->nlets - 1], loop);
      if (why || body_sets_var(&loop->body, s->var)) {
        tl_error(c->diag, prods[p]->loc,
                 "this copy is issued ahead of its iteration by the pipeline, but it uses '%s', "
                 "which depends on '%s' as the loop leaves it",
                 s->var->name, why ? why : s->var->name);
        tl_note(c->diag, s->loc, "'%s' is computed here", s->var->name);
        tl_note(c->diag, loop->loc,
                "hint: compute the copy's position from the loop variable, "
                "block indices and global tensors only, or use num_stages=1");
        return false;
      }
    }
  }
  return true;
}

// Clones the producers for iteration `it` (an expression), staged.
static void produce(Ctx *c, TlStmt *loop, TlStmt **prods, int np, TlBuffer **bufs, int nb,
                    TlExpr *it, TlVec *out) {
  TlExpr *stage = copy_index(c, it, loop->start, loop->num_stages, loop->loc);
  for (int i = 0; i < np; i++) {
    TlStmt *p = tl_stmt_clone(c->arena, prods[i]);
    tl_stmt_substitute(c->arena, p, c->nlets, c->let_vars, c->let_values);
    tl_stmt_substitute(c->arena, p, 1, &loop->var, &it);
    stage_stmt(c, p, bufs, nb, stage);
    p->async_copy = true;
    tl_vec_push(c->arena, out, p);
  }
}

static TlStmt *guarded(Ctx *c, TlExpr *cond, TlVec body, TlLoc loc) {
  TlStmt *g = tl_stmt_new(c->arena, ST_IF, loc);
  g->cond = cond;
  g->body = body;
  return g;
}

static bool check_annotations(Ctx *c, TlStmt *loop, bool *is_producer) {
  int n = loop->body.len, s = loop->num_stages;
  if (loop->stage.len && loop->stage.len != n) {
    tl_error(c->diag, loop->loc, "stage= has %d entries but the pipelined loop has %d statements",
             loop->stage.len, n);
    return false;
  }
  if (loop->order.len && loop->order.len != n) {
    tl_error(c->diag, loop->loc, "order= has %d entries but the pipelined loop has %d statements",
             loop->order.len, n);
    return false;
  }
  bool seen[256] = {0};
  for (int i = 0; i < loop->order.len; i++) {
    int64_t o = (int64_t)(intptr_t)loop->order.items[i];
    if (o < 0 || o >= n || n > 256 || seen[o]) {
      tl_error(c->diag, loop->loc, "order= must be a permutation of 0..%d", n - 1);
      return false;
    }
    seen[o] = true;
  }
  for (int i = 0; i < loop->stage.len; i++) {
    int64_t st = (int64_t)(intptr_t)loop->stage.items[i];
    if (st < 0 || st >= (s > 0 ? s : 1)) {
      tl_error(c->diag, loop->loc, "stage= values must be in 0..%d for num_stages=%d",
               s > 0 ? s - 1 : 0, s);
      return false;
    }
  }
  for (int i = 0; i < n; i++) {
    TlStmt *st = TL_VEC_AT(loop->body, TlStmt, i);
    bool prod = tl_pipeline_producer_target(st) != NULL;
    if (loop->stage.len) {
      bool stage0 = (int64_t)(intptr_t)loop->stage.items[i] == 0 && s > 1;
      if (stage0 && !prod) {
        tl_error(c->diag, st->loc,
                 "stage 0 of a pipeline holds copies from global into shared "
                 "memory; this statement is not one");
        return false;
      }
      prod = stage0;
    }
    is_producer[i] = prod;
  }
  // A consumer must not be scheduled before the producer of what it reads.
  for (int i = 0; i < n; i++) {
    if (!is_producer[i]) continue;
    TlBuffer *b = tl_pipeline_producer_target(TL_VEC_AT(loop->body, TlStmt, i));
    for (int j = 0; j < n; j++) {
      if (is_producer[j] || !tl_stmt_touches(TL_VEC_AT(loop->body, TlStmt, j), b, false)) continue;
      int64_t si = loop->stage.len ? (int64_t)(intptr_t)loop->stage.items[i] : 0;
      // Without pipelining (num_stages 0 or 1) consumers share the copies'
      // stage 0, so program order decides.
      int64_t sj = loop->stage.len ? (int64_t)(intptr_t)loop->stage.items[j] : (s > 1 ? s - 1 : 0);
      int64_t oi = loop->order.len ? (int64_t)(intptr_t)loop->order.items[i] : i;
      int64_t oj = loop->order.len ? (int64_t)(intptr_t)loop->order.items[j] : j;
      if (sj < si || (sj == si && oj < oi)) {
        tl_error(c->diag, TL_VEC_AT(loop->body, TlStmt, j)->loc,
                 "this statement reads '%s' before the copy that fills it is scheduled", b->name);
        tl_note(c->diag, TL_VEC_AT(loop->body, TlStmt, i)->loc, "the copy is here");
        return false;
      }
    }
  }
  return true;
}

TlStmt *tl_pipeline_deferred_wgmma(const TlVec *consumers) {
  TlStmt *g = NULL;
  for (int i = 0; i < consumers->len; i++) {
    TlStmt *st = TL_VEC_AT(*consumers, TlStmt, i);
    if (st->kind == ST_GEMM) {
      if (g || !st->use_wgmma) return NULL;
      g = st;
    }
  }
  for (int i = 0; g && i < consumers->len; i++) {
    const TlStmt *st = TL_VEC_AT(*consumers, TlStmt, i);
    if (st != g && (tl_stmt_touches(st, g->c, false) || tl_stmt_touches(st, g->c, true)))
      return NULL;
  }
  return g;
}

static void pipeline_loop(Ctx *c, TlStmt *loop, TlVec *out) {
  int s = loop->num_stages;
  TlLoc loc = loop->loc;
  loop->applied_stages = 1; // num_stages 0 or 1: a plain loop, one stage
  bool is_prod[256] = {0};
  if (loop->body.len > 256) {
    tl_error(c->diag, loc, "a pipelined loop body of %d statements is too long (limit 256)",
             loop->body.len);
    c->ok = false;
  }
  if (!c->ok || !check_annotations(c, loop, is_prod)) {
    c->ok = false;
    tl_vec_push(c->arena, out, loop);
    return;
  }
  TlStmt *prods[64];
  TlBuffer *bufs[64];
  int np = 0, nb = 0;
  TlVec consumers = {0};
  // order= gives each statement's position in the scheduled body: walk the
  // statements in that order (producers keep it among themselves too).
  int by_order[256];
  for (int i = 0; i < loop->body.len; i++)
    by_order[i] = i;
  if (loop->order.len)
    for (int i = 0; i < loop->body.len; i++)
      by_order[(int)(intptr_t)loop->order.items[i]] = i;
  for (int oi = 0; oi < loop->body.len; oi++) {
    int i = by_order[oi];
    TlStmt *st = TL_VEC_AT(loop->body, TlStmt, i);
    if (is_prod[i] && np < 64) {
      prods[np++] = st;
      TlBuffer *b = tl_pipeline_producer_target(st);
      bool dup = false;
      for (int j = 0; j < nb; j++)
        dup = dup || bufs[j] == b;
      if (!dup) bufs[nb++] = b;
    } else {
      tl_vec_push(c->arena, &consumers, st);
    }
  }
  // A tile written by a consumer too cannot be multi-buffered.
  for (int i = 0; i < nb; i++)
    for (int j = 0; j < consumers.len; j++)
      if (tl_stmt_touches(TL_VEC_AT(consumers, TlStmt, j), bufs[i], true)) {
        tl_warning(c->diag, TL_VEC_AT(consumers, TlStmt, j)->loc,
                   "'%s' is written inside the pipelined loop besides its copy; the loop runs "
                   "without pipelining",
                   bufs[i]->name);
        np = 0;
      }
  if (s <= 1 || np == 0) {
    for (int i = 0; i < nb && np > 0; i++) // recorded for --emit=plan and explain-pipeline
      tl_vec_push(c->arena, &loop->pipe_buffers, bufs[i]);
    tl_vec_push(c->arena, out, loop);
    return;
  }
  // Only from 4 stages on: two tiles stay in flight besides the wgmma group
  // (H200, 4096^3 fp16, 128x256x64 over two warpgroups: 4 stages 501 -> 607
  // TFLOP/s; with 3 stages one tile in flight lost more than the overlap
  // gained: examples/gemm.tl 405 -> 329; bench/hopper-runs/).
  if (!collect_producer_lets(c, loop, prods, np)) {
    c->ok = false;
    tl_vec_push(c->arena, out, loop);
    return;
  }
  TlStmt *wg = s >= 4 ? tl_pipeline_deferred_wgmma(&consumers) : NULL;
  int d = wg ? s - 1 : s; // the schedule's depth: tiles in flight + 1
  for (int i = 0; i < nb; i++) {
    bufs[i]->stages = s;
    tl_vec_push(c->arena, &loop->pipe_buffers, bufs[i]);
  }
  loop->applied_stages = s;
  TlDtype t = loop->var->dtype;
  int64_t n0 = -1, lo, hi;
  if (tl_expr_is_const(loop->start, &lo) && tl_expr_is_const(loop->stop, &hi))
    n0 = hi > lo ? hi - lo : 0;

  TlStmt *note = tl_stmt_new(c->arena, ST_COMMENT, loc);
  note->text = tl_arena_printf(c->arena,
                               "T.Pipelined(num_stages=%d) at line %d: %d tile%s in flight, "
                               "%d shared tile%s multi-buffered%s",
                               s, loc.line, d - 1, d - 1 == 1 ? "" : "s", nb, nb == 1 ? "" : "s",
                               wg ? ", one wgmma group in flight across the barrier" : "");
  tl_vec_push(c->arena, out, note);
  // Prologue: the first d-1 tiles.
  for (int p = 0; p < d - 1; p++) {
    TlExpr *it = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_ADD,
                                                      tl_expr_clone(c->arena, loop->start),
                                                      I(c, loc, p, t), t));
    TlVec body = {0};
    produce(c, loop, prods, np, bufs, nb, it, &body);
    if (n0 >= 0 && p < n0) {
      for (int i = 0; i < body.len; i++)
        tl_vec_push(c->arena, out, body.items[i]);
    } else if (n0 < 0) {
      tl_vec_push(c->arena, out,
                  guarded(c,
                          tl_expr_binary(c->arena, loc, OP_LT, it,
                                         tl_expr_clone(c->arena, loop->stop), TY_BOOL),
                          body, loc));
    }
    tl_vec_push(c->arena, out, tl_stmt_new(c->arena, ST_ASYNC_COMMIT, loc));
  }
  // The steady state.
  TlStmt *wait = tl_stmt_new(c->arena, ST_ASYNC_WAIT, loc);
  wait->width = d - 2;
  TlVec body = {0};
  tl_vec_push(c->arena, &body, wait);
  tl_vec_push(c->arena, &body, tl_stmt_new(c->arena, ST_SYNC, loc));
  TlExpr *kv = tl_expr_var(c->arena, loc, loop->var);
  TlExpr *next = tl_expr_binary(c->arena, loc, OP_ADD, kv, I(c, loc, d - 1, t), t);
  TlVec issue = {0};
  produce(c, loop, prods, np, bufs, nb, next, &issue);
  TlStmt *produce_next = guarded(c,
                                 tl_expr_binary(c->arena, loc, OP_LT, tl_expr_clone(c->arena, next),
                                                tl_expr_clone(c->arena, loop->stop), TY_BOOL),
                                 issue, loc);
  // With s >= 3 the next tile is issued after the consumers: right after the
  // barrier the warps start on the tile that is ready (ldmatrix, mma) instead
  // of first computing copy addresses, and the tile still has s-2 iterations
  // to land (4096^3 fp16 GEMM, 4 stages: 394 -> 415 TFLOP/s). With s = 2 it
  // is issued first, or it would not overlap any compute.
  bool late = d >= 3;
  if (!late) {
    tl_vec_push(c->arena, &body, produce_next);
    tl_vec_push(c->arena, &body, tl_stmt_new(c->arena, ST_ASYNC_COMMIT, loc));
  }
  TlExpr *stage = copy_index(c, kv, loop->start, s, loc);
  for (int i = 0; i < consumers.len; i++) {
    TlStmt *st = TL_VEC_AT(consumers, TlStmt, i);
    stage_stmt(c, st, bufs, nb, stage);
    tl_vec_push(c->arena, &body, st);
  }
  if (wg) wg->wgmma_in_flight = true;
  if (late) {
    tl_vec_push(c->arena, &body, produce_next);
    tl_vec_push(c->arena, &body, tl_stmt_new(c->arena, ST_ASYNC_COMMIT, loc));
  }
  loop->body = body;
  tl_vec_push(c->arena, out, loop);
  TlStmt *drain = tl_stmt_new(c->arena, ST_ASYNC_WAIT, loc);
  drain->width = 0;
  tl_vec_push(c->arena, out, drain);
  if (wg) { // the last gemm's group, before anything reads the accumulator
    TlStmt *w = tl_stmt_new(c->arena, ST_WGMMA_WAIT, loc);
    w->buf = wg->c;
    tl_vec_push(c->arena, out, w);
  }
}

static bool expand(void *ctx, TlStmt *s, TlVec *out) {
  // (a loop warp-specialize scheduled has applied_stages)
  if (s->kind != ST_FOR || s->loop_kind != LOOP_PIPELINED || s->applied_stages) return false;
  pipeline_loop(ctx, s, out);
  return true;
}

bool tl_pipeline(TlArena *a, TlModule *m, TlDiag *d) {
  Ctx c = {.arena = a, .diag = d, .ok = true};
  for (int k = 0; k < m->kernels.len; k++) {
    c.kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    tl_stmt_expand(a, &c.kernel->body, expand, &c);
  }
  return c.ok;
}
