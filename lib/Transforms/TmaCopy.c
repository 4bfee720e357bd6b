// tma-copy: a T.ws scope's `T.tma_copy(src, dst, barrier=b)` on the TMA unit.
//
// Sema keeps the copy's mbarrier on it (stage_b), lower-tile-ops on its
// nest. Here, when TMA can write the tile as tlc lays it out (the tensor
// map the warp-specialize pass would build: a whole 2-D shared tile, its
// columns along the tensor's contiguous dimension, one box per swizzle
// panel), the nest becomes what TileLang's tma_copy lowers to: the scope's
// first thread announces the tile's bytes on b (mbarrier.expect_tx, no
// arrival) and issues the loads, which complete on b. The user's
// T.barrier_arrive(b) after it and T.barrier_wait(b, parity) in the
// consumer are unchanged. Out-of-bounds parts of a box arrive as zeros, as
// the copy's edge guard would store. A copy TMA cannot do stays a copy by
// the scope's threads (ordinary loads and stores, ordered by the same
// barrier).
#include "tlc/Passes.h"

typedef struct Ctx {
  TlArena *arena;
  TlModule *m;
  TlKernel *k;
  int loaded, kept;
} Ctx;

static TlStmt *tma_load(Ctx *c, TlStmt *nest, int64_t scope_threads) {
  TlTmaMap map;
  TlExpr *start[TL_MAX_DIMS];
  const char *why = NULL;
  if (!tl_tma_map_for_copy(c->arena, c->m, c->k, nest, &map, start, &why)) return NULL;
  TlArena *a = c->arena;
  TlLoc loc = nest->loc;
  TlTmaMap *saved = TL_NEW(a, TlTmaMap);
  *saved = map;
  tl_vec_push(a, &c->k->tma_maps, saved);
  TlExpr *bar = nest->stage_b;
  int64_t bytes = map.tile->shape[0] * map.tile->shape[1] * (tl_dtype_bits(map.tile->dtype) / 8);
  // The scope's first thread (a scope starts at a multiple of its size).
  TlExpr *tid = tl_expr_binary(a, loc, OP_FLOORMOD, tl_expr_var(a, loc, c->k->thread_vars[0]),
                               tl_expr_int(a, loc, scope_threads, TY_INT32), TY_INT32);
  TlStmt *g = tl_stmt_new(a, ST_IF, loc);
  g->cond = tl_expr_binary(a, loc, OP_EQ, tid, tl_expr_int(a, loc, 0, TY_INT32), TY_BOOL);
  TlStmt *expect = tl_stmt_new(a, ST_MBAR_ARRIVE, loc);
  expect->ring = RING_USER;
  expect->stage_a = tl_expr_clone(a, bar);
  expect->width = bytes;
  tl_vec_push(a, &g->body, expect);
  TlStmt *ld = tl_stmt_new(a, ST_TMA_LOAD, loc);
  ld->tma_map = c->k->tma_maps.len - 1;
  ld->src.buf = map.global;
  ld->src.loc = loc;
  ld->src.ndims = map.rank;
  for (int d = 0; d < map.rank; d++) {
    ld->src.start[d] = start[d];
    ld->src.extent[d] = d == map.col_dim   ? map.tile->shape[1]
                        : d == map.row_dim ? map.tile->shape[0]
                                           : map.box[d];
  }
  ld->dst.buf = map.tile;
  ld->dst.ndims = 2;
  ld->stage_a = tl_expr_int(a, loc, 0, TY_INT32);
  ld->stage_b = tl_expr_clone(a, bar);
  tl_vec_push(a, &g->body, ld);
  return g;
}

// scope_threads: the threads of the T.ws scope around body (0: none).
static void walk(Ctx *c, TlVec *body, int64_t scope_threads) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_PARALLEL && s->stage_b) {
      TlStmt *g = scope_threads && c->m->has_tma ? tma_load(c, s, scope_threads) : NULL;
      s->stage_b = NULL; // a copy by the threads from here on
      if (g) {
        body->items[i] = g;
        c->loaded++;
      } else {
        c->kept++;
      }
      continue;
    }
    walk(c, &s->body, s->kind == ST_IF && s->group_threads ? s->group_threads : scope_threads);
    walk(c, &s->else_body, scope_threads);
  }
}

bool tl_tma_copy(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int i = 0; i < m->kernels.len; i++) {
    TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    Ctx c = {a, m, k, 0, 0};
    walk(&c, &k->body, 0);
  }
  return true;
}
