// ping-pong: the two compute warpgroups of a warp-specialized attention loop
// take turns on the tensor cores (FlashAttention-3's ping-pong schedule).
//
// In a loop of two or more wgmma gemms (S = Q K^T, then O += P V) each of
// the 256 compute threads' warpgroups owns its own rows, so the two run the
// same code on different data and, left alone, fall into step: both issue
// their gemms at once, then both do their softmax while the tensor cores
// idle. Here each gemm of the loop is a turn: warpgroup w waits for its
// turn (named barrier 2 + w, 256 threads: its own 128 sync, the other's 128
// arrive), issues the gemm, and hands the turn to the other (arrives on
// 3 - w). The gemms then alternate, WG0 S, WG1 S, WG0 PV, WG1 PV, ..., and
// each warpgroup's softmax runs while the other's gemm does.
//
//   before the loop:   if tx >= 128: arrive barrier 2     (WG0 goes first)
//   each gemm:         if tx < 128: sync 2 else sync 3; gemm;
//                      if tx < 128: arrive 3 else arrive 2
//   after the loop:    if tx < 128: sync 2                (WG1's last turn back)
//
// Both warpgroups run every turn (the same trip count, the same gemms), so
// the turns pair up; the last hand-over is taken back after the loop, which
// leaves the barriers as they were for the next tile of a persistent
// kernel. The pass runs after thread-sync, which never sees these barriers
// (they order only the tensor cores' use, no memory: the loop has no
// shared-memory hazard between the warpgroups, or thread-sync would have
// put a barrier in it, and then this pass leaves the loop alone).
#include "tlc/Passes.h"

enum { TURN_BARRIER = 2, COMPUTE_THREADS = 256, WARPGROUP = 128 };

// A gemm whose accumulator is a wgmma fragment of both warpgroups (each its
// own 64-row slabs).
static bool split_gemm(const TlStmt *s) {
  return s->kind == ST_GEMM && s->use_wgmma && s->c && s->c->layout && s->c->layout->wgmma &&
         s->c->layout->threads == COMPUTE_THREADS;
}

static bool has_sync(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_SYNC || has_sync(&s->body) || has_sync(&s->else_body)) return true;
  }
  return false;
}

// The loop warp-specialize scheduled on the ring, when it qualifies.
static TlStmt *turn_loop(const TlKernel *k) {
  if (!k->ring_stages || k->launch_threads || k->cluster || k->threads[0] != COMPUTE_THREADS ||
      k->threads[1] != 1 || k->threads[2] != 1 || has_sync(&k->producer))
    return NULL;
  for (int i = 0; i < k->body.len; i++) {
    TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (s->kind != ST_FOR || !s->pipe_buffers.len) continue;
    int gemms = 0;
    for (int j = 0; j < s->body.len; j++) {
      const TlStmt *g = TL_VEC_AT(s->body, TlStmt, j);
      if (g->kind == ST_GEMM && (!split_gemm(g) || g->wgmma_in_flight)) return NULL;
      gemms += g->kind == ST_GEMM;
    }
    return gemms >= 2 && !has_sync(&s->body) ? s : NULL;
  }
  return NULL;
}

static TlStmt *named(TlArena *a, TlLoc loc, int id, bool arrive) {
  TlStmt *s = tl_stmt_new(a, ST_SYNC, loc);
  s->barrier_id = id;
  s->barrier_threads = COMPUTE_THREADS;
  s->barrier_arrive = arrive;
  return s;
}

// if tx < 128: then_stmt else: else_stmt (either may be NULL).
static TlStmt *by_warpgroup(TlArena *a, const TlKernel *k, TlLoc loc, TlStmt *wg0, TlStmt *wg1) {
  TlStmt *s = tl_stmt_new(a, ST_IF, loc);
  s->cond = tl_expr_binary(a, loc, OP_LT, tl_expr_var(a, loc, k->thread_vars[0]),
                           tl_expr_int(a, loc, WARPGROUP, TY_INT32), TY_BOOL);
  if (wg0) tl_vec_push(a, &s->body, wg0);
  if (wg1) tl_vec_push(a, &s->else_body, wg1);
  return s;
}

static void take_turns(TlArena *a, TlKernel *k, TlStmt *loop) {
  TlVec body = {0};
  for (int i = 0; i < loop->body.len; i++) {
    TlStmt *s = TL_VEC_AT(loop->body, TlStmt, i);
    if (s->kind != ST_GEMM) {
      tl_vec_push(a, &body, s);
      continue;
    }
    // The turn covers the gemm's issue only: it returns with its group in
    // flight, the turn goes to the other warpgroup, and then this one waits.
    tl_vec_push(a, &body,
                by_warpgroup(a, k, s->loc, named(a, s->loc, TURN_BARRIER, false),
                             named(a, s->loc, TURN_BARRIER + 1, false)));
    s->wgmma_in_flight = true;
    tl_vec_push(a, &body, s);
    tl_vec_push(a, &body,
                by_warpgroup(a, k, s->loc, named(a, s->loc, TURN_BARRIER + 1, true),
                             named(a, s->loc, TURN_BARRIER, true)));
    TlStmt *w = tl_stmt_new(a, ST_WGMMA_WAIT, s->loc);
    w->buf = s->c;
    tl_vec_push(a, &body, w);
  }
  loop->body = body;
  TlVec out = {0};
  for (int i = 0; i < k->body.len; i++) {
    TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (s == loop) {
      TlStmt *first = tl_stmt_new(a, ST_IF, loop->loc); // WG1 lets WG0 go first
      first->cond = tl_expr_binary(a, loop->loc, OP_GE, tl_expr_var(a, loop->loc, k->thread_vars[0]),
                                   tl_expr_int(a, loop->loc, WARPGROUP, TY_INT32), TY_BOOL);
      tl_vec_push(a, &first->body, named(a, loop->loc, TURN_BARRIER, true));
      tl_vec_push(a, &out, first);
      tl_vec_push(a, &out, loop);
      tl_vec_push(a, &out, by_warpgroup(a, k, loop->loc, named(a, loop->loc, TURN_BARRIER, false), NULL));
      continue;
    }
    tl_vec_push(a, &out, s);
  }
  k->body = out;
}

bool tl_ping_pong(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  if (!m->ping_pong) return true;
  for (int i = 0; i < m->kernels.len; i++) {
    TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    TlStmt *loop = turn_loop(k);
    if (loop) take_turns(a, k, loop);
  }
  return true;
}
