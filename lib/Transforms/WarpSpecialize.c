// warp-specialize: a T.Pipelined loop on Hopper's TMA and mbarriers, with a
// producer warpgroup (sm_90a).
//
// When a kernel's one top-level pipelined loop copies whole 2-D tiles from
// global into shared memory (every copy one TMA box per swizzle panel: the
// tile's columns run along the tensor's contiguous dimension) and feeds a
// wgmma gemm, the loop is split between two roles:
//   * a producer warpgroup (128 threads launched after the `threads` compute
//     threads; one of them issues everything) walks the iterations, waits
//     until ring slot s = (k - start) % S is empty, announces the slot's
//     bytes on full[s] and issues the TMA loads into stage s;
//   * the compute threads (the kernel's `threads`, running everything else
//     of the kernel, unchanged) wait on full[s] with the parity of the lap
//     ((k - start) / S) % 2, compute, and arrive on empty[s] once nothing
//     reads stage s any more: right after the next iteration's gemm when the
//     gemm keeps one wgmma group in flight (its wait covers the group that
//     read the previous stage), else at the end of the iteration.
// There is no block barrier in the loop. Out-of-bounds parts of a box are
// filled with zeros by TMA, so the copies' edge guards disappear. Loops it
// cannot take (why: the plan's warp_specialization.why_not) stay for the
// pipeline pass (cp.async, one barrier per iteration).
#include <string.h>

#include "tlc/Occupancy.h"
#include "tlc/Passes.h"

enum { MAX_PRODUCERS = 16 };

enum { MAX_LETS = 64 };

// producer_computable's loop_var for a copy in the loop's own threads (a
// T.ws scope's T.tma_copy): any loop counter is visible there.
static const TlVar any_loop_counter;
#define ANY_LOOP_COUNTER (&any_loop_counter)

typedef struct Ctx {
  TlArena *arena;
  TlModule *m;
  TlKernel *k;
  TlDiag *diag;
  const char *why; // the first reason the kernel is not specialized
  // Scalars the kernel computes before the loop (`loop_range = T.min(...)`),
  // each with its value in terms of earlier ones already substituted: the
  // producer warpgroup recomputes them where its loop bounds or copy
  // offsets use them.
  TlVar *let_vars[MAX_LETS];
  TlExpr *let_values[MAX_LETS];
  int nlets;
} Ctx;

static TlExpr *inline_lets(Ctx *c, const TlExpr *e) {
  return tl_simplify(c->arena, tl_expr_substitute(c->arena, e, c->nlets, c->let_vars, c->let_values));
}

// Is v assigned (ST_SET) anywhere in body? Such a scalar (T.alloc_var) does
// not keep its let's value.
static bool assigned(const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_SET && s->var == v) || assigned(&s->body, v) || assigned(&s->else_body, v))
      return true;
  }
  return false;
}

// The lets before the loop whose values the producer may recompute: a
// scalar set again later (`m = T.alloc_var(...)`, then `m = T.min(m, ...)`
// in a loop) stays a variable, which the producer cannot compute, so such a
// loop is not specialized (the producer would otherwise run the trip count
// of the let's first value while the consumers wait for more tiles).
static void collect_lets(Ctx *c, const TlStmt *loop) {
  for (int i = 0; i < c->k->body.len; i++) {
    const TlStmt *s = TL_VEC_AT(c->k->body, TlStmt, i);
    if (s == loop)
      return;
    if (s->kind == ST_LET && c->nlets < MAX_LETS && !assigned(&c->k->body, s->var)) {
      c->let_vars[c->nlets] = s->var;
      c->let_values[c->nlets] = inline_lets(c, s->value);
      c->nlets++;
    }
  }
}

static bool refuse(Ctx *c, const char *why) {
  if (!c->why)
    c->why = why;
  return false;
}

static int count_pipelined(const TlVec *body) {
  int n = 0;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    n += s->kind == ST_FOR && s->loop_kind == LOOP_PIPELINED;
    n += count_pipelined(&s->body) + count_pipelined(&s->else_body);
  }
  return n;
}

// Only block indices, the loop counter and constants: what the producer
// warpgroup can compute by itself (scalars of the compute code are not
// visible to it, and a load would be an indirect copy).
static bool producer_computable(const TlExpr *e, const TlVar *loop_var) {
  if (!e)
    return true;
  if (e->kind == EX_LOAD || e->kind == EX_ELEM || e->kind == EX_FLOAT)
    return false;
  if (e->kind == EX_VAR && e->var != loop_var && e->var->kind != VAR_BLOCK_IDX &&
      e->var->kind != VAR_SIZE && // a runtime size is a kernel parameter
      !(loop_var == ANY_LOOP_COUNTER && e->var->kind == VAR_LOOP))
    return false;
  for (int i = 0; i < e->nargs; i++)
    if (!producer_computable(e->args[i], loop_var))
      return false;
  return true;
}

static bool is_zero(const TlExpr *e) {
  return (e->kind == EX_INT && e->ival == 0) || (e->kind == EX_FLOAT && e->fval == 0.0);
}

// The global load a copy nest stores: the load itself, or the load under the
// copy's edge guard (select(in bounds, load, 0)), which TMA's zero fill of
// out-of-bounds box elements replaces.
static const TlExpr *copied_load(const TlExpr *v) {
  if (v->kind == EX_SELECT && v->args[1]->kind == EX_LOAD && is_zero(v->args[2]))
    return v->args[1];
  return v->kind == EX_LOAD ? v : NULL;
}

// What extent j of g is known to be a multiple of: the extent, or a runtime
// size's divisor (checked by the launcher, specialize-sizes).
static int64_t known_multiple(const TlBuffer *g, int j) {
  if (!g->dyn[j])
    return g->shape[j];
  return g->dyn[j]->divisor > 1 ? g->dyn[j]->divisor : 1;
}

// A tensor with runtime extents: the launcher encodes its map from the
// sizes, and runs the kernel's unaligned twin when one of them is 0 (TMA
// takes no empty dimension), so the kernel needs a twin.
static bool runtime_extents_ok(Ctx *c, const TlBuffer *g) {
  if (tl_buffer_is_dynamic(g) && c->k->is_fallback)
    return refuse(c, "this is the unaligned twin of a kernel with runtime sizes: it runs the launches TMA "
                     "cannot take (a row that is not a multiple of 16 bytes, an empty extent)");
  if (tl_buffer_is_dynamic(g) && !c->k->fallback)
    return refuse(c, "a pipelined copy reads a tensor with runtime sizes and the kernel has no unaligned twin "
                     "(specialize-sizes) for the launches TMA cannot take");
  return true;
}

// A tensor map for the copy nest `nest` (a producer), and in `start` the
// box's origin per global dimension; false (with a reason) when TMA cannot
// do the copy as tlc lays out the tile.
static bool tma_map_for(Ctx *c, const TlStmt *nest, const TlVar *loop_var, TlTmaMap *map, TlExpr **start) {
  const TlStmt *st = TL_VEC_AT(nest->body, TlStmt, 0);
  TlBuffer *tile = st->buf;
  if (tile->ndims != 2 || nest->nvars != 2 || st->nindices != 2 || st->update_op != OP_EQ)
    return refuse(c, "a pipelined copy fills a shared tile that is not 2-D");
  for (int d = 0; d < 2; d++)
    if (st->indices[d]->kind != EX_VAR || st->indices[d]->var != nest->vars[d] ||
        nest->extents[d] != tile->shape[d])
      return refuse(c, "a pipelined copy fills part of its shared tile");
  const TlExpr *load = copied_load(st->value);
  if (!load || load->dtype != tile->dtype || load->buf->dtype != tile->dtype)
    return refuse(c, "a pipelined copy converts its elements (TMA copies bytes)");
  TlBuffer *g = load->buf;
  if (g->strided)
    return refuse(c, "a pipelined copy reads a T.StridedTensor (tlc encodes TMA maps of row-major tensors only)");
  if (!runtime_extents_ok(c, g))
    return false;
  if (g->ndims > 5 || load->nargs != g->ndims)
    return refuse(c, "a pipelined copy reads a tensor of more than 5 dimensions (TMA's limit)");
  int64_t eb = tl_dtype_bits(g->dtype) / 8, rows = tile->shape[0], cols = tile->shape[1];
  *map = (TlTmaMap){.global = g, .tile = tile, .rank = g->ndims, .row_dim = -1, .col_dim = -1};
  for (int j = 0; j < g->ndims; j++) {
    TlExpr *idx = load->args[j], *base = idx;
    map->box[j] = 1;
    for (int v = 0; v < 2; v++) {
      if (!tl_expr_uses_var(idx, nest->vars[v]))
        continue;
      int64_t coeff = 0;
      if (!tl_affine_in(c->arena, idx, nest->vars[v], &base, &coeff) || coeff != 1 ||
          tl_expr_uses_var(base, nest->vars[1 - v]) || (v == 0 ? map->row_dim : map->col_dim) >= 0)
        return refuse(c, "a pipelined copy does not read a rectangular box of its tensor");
      if (v == 0)
        map->row_dim = j;
      else
        map->col_dim = j;
      map->box[j] = v == 0 ? rows : cols;
    }
    start[j] = inline_lets(c, base);
    if (!producer_computable(start[j], loop_var))
      return refuse(c, "a pipelined copy's offset uses a value the producer warpgroup cannot compute");
  }
  if (map->col_dim != g->ndims - 1 || map->row_dim < 0)
    return refuse(c, "a pipelined copy's tile columns do not run along the tensor's contiguous dimension");
  // TMA: every stride a multiple of 16 bytes, every extent below 2^32 (a
  // runtime extent is an int: always below; its stride is known up to the
  // size's divisor).
  int64_t stride = eb;
  bool runtime_stride = false;
  for (int j = g->ndims - 1; j >= 0; j--) {
    if (!g->dyn[j] && g->shape[j] >= (INT64_C(1) << 32))
      return refuse(c, "a tensor dimension is too large for a TMA tensor map");
    if (j < g->ndims - 1 && stride % 16)
      return refuse(c, runtime_stride ? "a tensor's row stride is a runtime size not known to be a multiple of 16 bytes (TMA)"
                                     : "a tensor's row stride is not a multiple of 16 bytes (TMA)");
    stride = stride % 16 * (known_multiple(g, j) % 16) % 16; // only stride % 16 matters
    runtime_stride = runtime_stride || g->dyn[j];
  }
  // The tile's layout decides the box: one swizzle panel per load.
  if (tile->swizzle) {
    map->swizzle_bytes = tile->swizzle * 16;
    map->panel_cols = map->swizzle_bytes / eb;
    if (cols % map->panel_cols || (!tile->wgmma_operand && cols != map->panel_cols))
      return refuse(c, "a pipelined copy's shared tile is swizzled in a way TMA does not write");
  } else {
    map->panel_cols = cols;
    if ((cols * eb) % 16)
      return refuse(c, "a pipelined copy's tile rows are not a multiple of 16 bytes (TMA)");
  }
  if (rows > 256 || map->panel_cols > 256 || rows % 8)
    return refuse(c, "a pipelined copy's tile is outside TMA's box (at most 256 x 256, rows a multiple of 8)");
  map->box[map->col_dim] = map->panel_cols;
  return true;
}

bool tl_tma_map_for_copy(TlArena *a, TlModule *m, TlKernel *k, const TlStmt *nest, TlTmaMap *map,
                         TlExpr **start, const char **why) {
  Ctx c = {.arena = a, .m = m, .k = k};
  bool ok = tma_map_for(&c, nest, ANY_LOOP_COUNTER, map, start);
  *why = c.why;
  return ok;
}

static TlExpr *I(Ctx *c, TlLoc loc, int64_t v, TlDtype t) {
  return tl_expr_int(c->arena, loc, v, t);
}

// (k - start) % S and ((k - start) / S + flip) % 2: the ring slot of an
// iteration and the parity of the phase to wait for.
static TlExpr *slot_of(Ctx *c, TlExpr *rel, int s, TlLoc loc) {
  TlDtype t = rel->dtype;
  return tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_FLOORMOD, tl_expr_clone(c->arena, rel),
                                              I(c, loc, s, t), t));
}

static TlExpr *parity_of(Ctx *c, TlExpr *rel, int s, int flip, TlLoc loc) {
  TlDtype t = rel->dtype;
  TlExpr *lap = tl_expr_binary(c->arena, loc, OP_FLOORDIV, tl_expr_clone(c->arena, rel), I(c, loc, s, t), t);
  if (flip)
    lap = tl_expr_binary(c->arena, loc, OP_ADD, lap, I(c, loc, flip, t), t);
  return tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_FLOORMOD, lap, I(c, loc, 2, t), t));
}

static TlStmt *mbar(Ctx *c, TlStmtKind kind, TlRing ring, TlExpr *slot, TlLoc loc) {
  TlStmt *s = tl_stmt_new(c->arena, kind, loc);
  s->ring = ring;
  s->stage_a = slot;
  return s;
}

typedef struct Plan {
  TlStmt *loop;
  TlStmt *prods[MAX_PRODUCERS];
  TlTmaMap maps[MAX_PRODUCERS];
  TlExpr *starts[MAX_PRODUCERS][TL_MAX_DIMS];
  int np;
  TlBuffer *bufs[MAX_PRODUCERS];
  int nb;
  TlVec consumers;
} Plan;

static bool touched_outside(const TlVec *body, const TlStmt *loop, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s != loop && tl_stmt_touches(s, b, false))
      return true;
  }
  return false;
}

static int64_t shared_estimate(const TlKernel *k);

// Can the kernel be specialized? Fills the plan when it can.
static bool plan_kernel(Ctx *c, Plan *p) {
  TlKernel *k = c->k;
  int n = count_pipelined(&k->body);
  if (n == 0)
    return false; // nothing to say: no pipeline
  for (int i = 0; i < k->body.len && !p->loop; i++) {
    TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (s->kind == ST_FOR && s->loop_kind == LOOP_PIPELINED)
      p->loop = s;
  }
  if (tl_body_syncs_grid(&k->body))
    return refuse(c, "the kernel has a grid barrier (T.sync_grid), which the producer would not reach");
  if (n != 1 || !p->loop)
    return refuse(c, "the kernel has more than one pipelined loop, or one inside another loop");
  TlStmt *loop = p->loop;
  int64_t step = 0;
  if (!tl_expr_is_const(loop->step, &step) || step != 1)
    return refuse(c, "the pipelined loop's step is not 1");
  if (loop->num_stages < 1)
    return refuse(c, "num_stages is 0 (no pipeline asked for)");
  if (loop->order.len || loop->stage.len)
    return refuse(c, "order= / stage= annotations keep the cp.async schedule");
  if (k->threads[1] != 1 || k->threads[2] != 1 || k->threads[0] % 128 ||
      k->threads[0] + TL_PRODUCER_THREADS > c->m->max_threads)
    return refuse(c, "the compute threads are not whole warpgroups along x (or no room for a producer warpgroup)");
  collect_lets(c, loop);
  if (!producer_computable(inline_lets(c, loop->start), NULL) ||
      !producer_computable(inline_lets(c, loop->stop), NULL))
    return refuse(c, "the pipelined loop's bounds use values the producer warpgroup cannot compute");
  if (!tl_body_uses_wgmma(&loop->body))
    return refuse(c, "the pipelined loop has no gemm on wgmma");
  for (int i = 0; i < loop->body.len; i++) {
    TlStmt *st = TL_VEC_AT(loop->body, TlStmt, i);
    TlBuffer *b = tl_pipeline_producer_target(st);
    if (!b) {
      tl_vec_push(c->arena, &p->consumers, st);
      continue;
    }
    if (p->np == MAX_PRODUCERS)
      return refuse(c, "the pipelined loop has more than 16 copies");
    if (!tma_map_for(c, st, loop->var, &p->maps[p->np], p->starts[p->np]))
      return false;
    for (int j = 0; j < p->nb; j++)
      if (p->bufs[j] == b)
        return refuse(c, "two pipelined copies fill the same shared tile");
    p->bufs[p->nb++] = b;
    p->prods[p->np++] = st;
  }
  if (p->np == 0)
    return refuse(c, "the pipelined loop copies nothing from global into shared memory");
  if (loop->num_stages == 1) {
    // One slot would leave the producer nothing to run ahead into (and the
    // consumer releases a slot one gemm late): num_stages=1 gets a ring of
    // two when the second stage's shared memory fits (TileLang's 1-stage
    // attention configs: its producer overlaps the next K/V load too).
    int64_t stage = 0;
    for (int i = 0; i < p->nb; i++)
      stage += (tl_buffer_bytes(p->bufs[i]) + 1023) / 1024 * 1024;
    if (shared_estimate(k) + stage > c->m->max_shared_bytes)
      return refuse(c, "num_stages=1 and no room in shared memory for a second ring stage");
  }
  for (int i = 0; i < p->nb; i++) {
    for (int j = 0; j < p->consumers.len; j++)
      if (tl_stmt_touches(TL_VEC_AT(p->consumers, TlStmt, j), p->bufs[i], true))
        return refuse(c, "a tile the pipelined loop copies into is also written by its computation");
    if (touched_outside(&k->body, loop, p->bufs[i]))
      return refuse(c, "a tile the pipelined loop copies into is used outside the loop");
  }
  return true;
}

// Shared memory the kernel's tiles take per block (stages included), each
// rounded up to the 1 KB a swizzled tile is aligned to, plus the barriers.
static int64_t shared_estimate(const TlKernel *k) {
  int64_t total = TL_RING_BARRIER_BYTES;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->scope == SCOPE_SHARED)
      total += (tl_buffer_bytes(b) + 1023) / 1024 * 1024;
  }
  return total;
}

// Blocks per SM and setmaxnreg. One warpgroup of compute threads alone
// cannot keep the tensor cores busy across its barrier waits, so when the
// shared memory of two blocks fits (with room for what later passes add)
// the SM holds two (H200, examples/gemm_fast.tl at 4096^3: 0.59 -> 0.72 of
// cuBLAS). The producer keeps few registers, the compute threads take the
// rest of the block's share of the register file (multiples of 8, at most
// 240 as TileLang does).
//
// Two blocks also cap what ptxas may allocate at 65536 / (2 * 256) = 128
// registers, setmaxnreg or not, and one wgmma.m64nNk16 instruction holds N/2
// fp32 accumulator registers at once: an N = 256 instruction needs about 154
// (ptxas: "Insufficient registers (128) to compile instruction"), so a
// kernel with a wgmma wider than 128 columns keeps one block per SM.
static int64_t widest_wgmma(const TlVec *body) {
  int64_t widest = 0;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM && s->use_wgmma && s->c->layout) {
      int64_t N = s->c->layout->cols, NC = (N + 255) / 256;
      if (N / NC > widest) widest = N / NC;
    }
    int64_t a = widest_wgmma(&s->body), b = widest_wgmma(&s->else_body);
    if (a > widest) widest = a;
    if (b > widest) widest = b;
  }
  return widest;
}

static void split_resources(TlKernel *k) {
  int64_t T = k->threads[0];
  k->blocks_per_sm =
      T == 128 && 2 * shared_estimate(k) <= 200 * 1024 && widest_wgmma(&k->body) <= 128 ? 2 : 1;
  k->producer_regs = T >= 256 ? 24 : 40;
  int64_t left = (65536 / k->blocks_per_sm - TL_PRODUCER_THREADS * k->producer_regs) / T;
  left -= left % 8;
  k->consumer_regs = (int)(left > 240 ? 240 : left);
}

// The store that a copy nest `C[base + i, base' + j] = f(frag[i, j])` makes,
// unguarded (the guard of an edge tile is TMA's clipping), or NULL.
static TlStmt *epilogue_store(const TlStmt *nest) {
  if (nest->kind != ST_PARALLEL || nest->nvars != 2 || nest->body.len != 1)
    return NULL;
  TlStmt *st = TL_VEC_AT(nest->body, TlStmt, 0);
  if (st->kind == ST_IF && !st->else_body.len && st->body.len == 1)
    st = TL_VEC_AT(st->body, TlStmt, 0);
  if (st->kind != ST_STORE || st->update_op != OP_EQ || st->buf->scope != SCOPE_GLOBAL || st->cond ||
      st->buf->strided) // TMA maps of row-major tensors only
    return NULL;
  const TlExpr *v = st->value;
  if (v->kind == EX_CAST)
    v = v->args[0];
  if (v->kind != EX_LOAD || v->buf->scope != SCOPE_FRAGMENT || v->buf->ndims != 2 || v->nargs != 2)
    return NULL;
  for (int d = 0; d < 2; d++)
    if (v->args[d]->kind != EX_VAR || v->args[d]->var != nest->vars[d] || nest->extents[d] != v->buf->shape[d])
      return NULL;
  return st;
}

// The bytes of the staging tile stage_epilogue would add, or 0.
static int64_t staged_epilogue_bytes(const TlKernel *k) {
  for (int i = 0; i < k->body.len; i++) {
    const TlStmt *nest = TL_VEC_AT(k->body, TlStmt, i);
    const TlStmt *st = epilogue_store(nest);
    if (!st)
      continue;
    int64_t eb = tl_dtype_bits(st->buf->dtype) / 8, rows = nest->extents[0], cols = nest->extents[1];
    return (eb == 2 || eb == 4) && (cols * eb) % 128 == 0 && rows % 8 == 0 && rows <= 256 ? rows * cols * eb : 0;
  }
  return 0;
}

// A persistent kernel's epilogue through shared memory and TMA: the copy of
// the accumulator into its global tile writes a staging tile instead (in
// TMA's 128-byte swizzle, so the rows a warp writes fall in different banks),
// and thread 0 stores it with cp.async.bulk.tensor, which runs while the
// compute threads go on to the next tile's k-loop. Before the next tile's
// epilogue writes the staging tile again, thread 0 waits until that store has
// read it. Measured on the H200 without any epilogue, the persistent GEMMs ran
// at 1.01 (4096^3) and 0.98 (4096x8192x512) of cuBLAS against 0.91 and 0.59
// with the register-to-global stores: the epilogue was what the compute
// threads waited on. Only when the staging tile fits next to the ring.
static void stage_epilogue(Ctx *c, TlVec *body) {
  TlKernel *k = c->k;
  for (int i = 0; i < body->len; i++) {
    TlStmt *nest = TL_VEC_AT(*body, TlStmt, i);
    TlStmt *st = epilogue_store(nest);
    if (!st)
      continue;
    TlBuffer *g = st->buf;
    int64_t eb = tl_dtype_bits(g->dtype) / 8, rows = nest->extents[0], cols = nest->extents[1];
    if (tl_buffer_is_dynamic(g) || g->ndims > 5 || st->nindices != g->ndims || (eb != 2 && eb != 4) ||
        (cols * eb) % 128 || rows % 8 || rows > 256 ||
        shared_estimate(k) + rows * cols * eb > c->m->max_shared_bytes)
      return;
    TlTmaMap map = {.global = g, .rank = g->ndims, .row_dim = -1, .col_dim = -1, .store = true,
                    .swizzle_bytes = 128, .panel_cols = 128 / eb};
    TlExpr *start[TL_MAX_DIMS];
    for (int j = 0; j < g->ndims; j++) {
      TlExpr *idx = st->indices[j], *base = idx;
      map.box[j] = 1;
      for (int v = 0; v < 2; v++) {
        int64_t coeff = 0;
        if (!tl_expr_uses_var(idx, nest->vars[v]))
          continue;
        if (!tl_affine_in(c->arena, idx, nest->vars[v], &base, &coeff) || coeff != 1 ||
            tl_expr_uses_var(base, nest->vars[1 - v]) || (v == 0 ? map.row_dim : map.col_dim) >= 0)
          return;
        *(v == 0 ? &map.row_dim : &map.col_dim) = j;
        map.box[j] = v == 0 ? rows : map.panel_cols;
      }
      start[j] = base;
    }
    if (map.col_dim != g->ndims - 1 || map.row_dim < 0)
      return;
    int64_t stride = eb;
    for (int j = g->ndims - 1; j >= 0; j--) {
      if (g->shape[j] >= (INT64_C(1) << 32) || (j < g->ndims - 1 && stride % 16))
        return;
      stride *= g->shape[j];
    }
    TlBuffer *t = TL_NEW(c->arena, TlBuffer);
    *t = (TlBuffer){.name = tl_arena_printf(c->arena, "%s_staged", g->name), .scope = SCOPE_SHARED,
                    .dtype = g->dtype, .ndims = 2, .shape = {rows, cols}, .loc = nest->loc,
                    .stages = 1, .read = true, .written = true, .wgmma_operand = true, .swizzle = 8};
    tl_vec_push(c->arena, &k->buffers, t);
    map.tile = t;
    TlTmaMap *m = TL_NEW(c->arena, TlTmaMap);
    *m = map;
    tl_vec_push(c->arena, &k->tma_maps, m);

    TlExpr *idx[2] = {tl_expr_var(c->arena, nest->loc, nest->vars[0]), tl_expr_var(c->arena, nest->loc, nest->vars[1])};
    st->buf = t;
    st->nindices = 2;
    st->indices = TL_NEW_ARRAY(c->arena, TlExpr *, 2);
    st->indices[0] = idx[0];
    st->indices[1] = idx[1];
    nest->body.len = 0;
    tl_vec_push(c->arena, &nest->body, st);
    TlStmt *store = tl_stmt_new(c->arena, ST_TMA_STORE, nest->loc);
    store->tma_map = k->tma_maps.len - 1;
    store->src.buf = t;
    store->src.ndims = 2;
    store->dst.buf = g;
    store->dst.ndims = g->ndims;
    store->dst.loc = nest->loc;
    for (int j = 0; j < g->ndims; j++) {
      store->dst.start[j] = start[j];
      store->dst.extent[j] = j == map.row_dim ? rows : j == map.col_dim ? cols : 1;
    }
    TlVec out = {0};
    for (int j = 0; j < body->len; j++) {
      if (j != i) {
        tl_vec_push(c->arena, &out, TL_VEC_AT(*body, TlStmt, j));
        continue;
      }
      tl_vec_push(c->arena, &out, tl_stmt_new(c->arena, ST_TMA_STORE_WAIT, nest->loc));
      tl_vec_push(c->arena, &out, tl_stmt_new(c->arena, ST_SYNC, nest->loc));
      tl_vec_push(c->arena, &out, nest);
      tl_vec_push(c->arena, &out, tl_stmt_new(c->arena, ST_SYNC, nest->loc));
      tl_vec_push(c->arena, &out, store);
    }
    *body = out;
    return;
  }
}

// Thread-block clusters of two blocks that differ only in one block index
// d: the copies whose offsets do not use d bring the same tile into both
// blocks, so each block loads half of its rows and multicasts it to both
// (TMA's .multicast::cluster) and L2 serves that operand once per pair.
// d is the dimension that shares the most bytes per stage (a 128x256 GEMM
// tile: B's 64x256 over A's 128x64); its grid extent must be even, and a
// shared tile's half must be whole 8-row swizzle atoms.
//
// A compute warp releases a slot on both blocks' empty barriers without a
// cluster-scope fence (that fence cost half the throughput on the H200),
// which is sound when only wgmma reads the ring's tiles: its reads are
// complete at its wait_group, before the release. A loop that reads them
// otherwise keeps one block per tile.
static bool shares_tile(const Plan *p, int i, const TlVar *bv) {
  for (int j = 0; j < p->maps[i].rank; j++)
    if (tl_expr_uses_var(p->starts[i][j], bv))
      return false;
  return p->maps[i].tile->shape[0] % 16 == 0;
}

static void choose_cluster(Ctx *c, Plan *p) {
  TlKernel *k = c->k;
  if (!c->m->clusters || !k->grid_const[0] || !k->grid_const[1] || !k->grid_const[2])
    return;
  for (int i = 0; i < p->consumers.len; i++) {
    const TlStmt *st = TL_VEC_AT(p->consumers, TlStmt, i);
    for (int j = 0; j < p->nb; j++)
      if (!(st->kind == ST_GEMM && st->use_wgmma) && tl_stmt_touches(st, p->bufs[j], false))
        return;
  }
  int64_t best_bytes = 0;
  for (int d = 0; d < 3; d++) {
    TlVar *bv = k->block_vars[d];
    if (!bv || k->grid_const[d] % 2)
      continue;
    int64_t bytes = 0;
    for (int i = 0; i < p->np; i++)
      if (shares_tile(p, i, bv))
        bytes += tl_buffer_elems(p->maps[i].tile) * (tl_dtype_bits(p->maps[i].tile->dtype) / 8);
    if (bytes > best_bytes) {
      best_bytes = bytes;
      k->cluster = 2;
      k->cluster_dim = d;
    }
  }
  for (int i = 0; k->cluster && i < p->np; i++)
    if (shares_tile(p, i, k->block_vars[k->cluster_dim])) {
      p->maps[i].multicast = true;
      p->maps[i].box[p->maps[i].row_dim] = p->maps[i].tile->shape[0] / 2;
    }
}

enum { OVERLAP_HEADROOM = 32 }; // registers beside the fragments: addresses, descriptors, the loop

// Attention's loop, S = Q K^T then O += P V with the softmax between, rotated
// by one gemm (FlashAttention-3's intra-warpgroup overlap): iteration k
// issues S_k, then P_{k-1} V_{k-1} in flight, runs the part of the softmax
// that touches neither O nor P while that gemm runs, waits for it, releases
// slot k-1, and ends with the rest (P_k, the rescale of O). The last P V and
// its release follow the loop. `body` is the consumer loop's body as built
// (full wait, statements, the release at its end); returns the gemm that
// moved (the caller adds the one after the loop), or NULL when the loop is
// not of that shape.
static TlStmt *overlap_pv(Ctx *c, Plan *p, TlVec *body, TlExpr *rel, TlExpr *local, int S, TlLoc loc,
                          TlDtype t) {
  if (!c->m->overlap_pv || c->k->cluster) return NULL;
  // While P V runs, its accumulator and packed P stay allocated beside the
  // score tile the softmax works on: every fragment is live at once. Where
  // they leave less than OVERLAP_HEADROOM registers of the compute threads'
  // budget, ptxas spills or serializes the wgmma (C7512): TileLang's
  // split-KV example_mha_inference, 376 -> 560 bytes of spills.
  if (tl_kernel_fragment_registers(c->k) + OVERLAP_HEADROOM > c->k->consumer_regs) return NULL;
  int i0 = -1, i1 = -1;
  for (int i = 0; i < body->len; i++) {
    TlStmt *st = TL_VEC_AT(*body, TlStmt, i);
    if (st->kind != ST_GEMM) continue;
    if (!st->use_wgmma || st->wgmma_in_flight || i1 >= 0) return NULL;
    if (i0 < 0) i0 = i;
    else i1 = i;
  }
  // P V last, then only the release; P V does not read S's accumulator.
  if (i0 < 0 || i1 < 0 || i1 != body->len - 2) return NULL;
  TlStmt *g0 = TL_VEC_AT(*body, TlStmt, i0), *g1 = TL_VEC_AT(*body, TlStmt, i1);
  if (g1->a == g0->c || g1->c == g0->c || g0->a == g1->c || g0->b == g1->c) return NULL;
  for (int i = 0; i < i0; i++)
    if (tl_stmt_touches(TL_VEC_AT(*body, TlStmt, i), g1->c, false) ||
        tl_stmt_touches(TL_VEC_AT(*body, TlStmt, i), g1->a, true))
      return NULL;
  // Only P V reads V's stage (its slot is released at P V's wait, which
  // moves to the next iteration).
  for (int i = i0 + 1; i < i1; i++)
    if (tl_stmt_touches(TL_VEC_AT(*body, TlStmt, i), g1->b, false) ||
        tl_stmt_touches(TL_VEC_AT(*body, TlStmt, i), g1->b, true))
      return NULL;
  // The first softmax statement that must wait for P V: one that touches O
  // (or a barrier). P itself may be made before the wait: the wgmma reads
  // the registers P_{k-1} was packed into, not the fragment.
  int split = i0 + 1;
  while (split < i1) {
    TlStmt *st = TL_VEC_AT(*body, TlStmt, split);
    if (tl_stmt_touches(st, g1->c, false) || tl_stmt_touches(st, g1->c, true) || st->kind == ST_SYNC)
      break;
    split++;
  }
  // P is made in the loop: packed right after its last write (and after the
  // wait, which frees the registers) as the next iteration's register-A
  // operand, so that the 16-bit fragment (one register per value) does not
  // stay live across the back edge.
  int made = -1;
  for (int i = i0 + 1; i < i1; i++)
    if (tl_stmt_touches(TL_VEC_AT(*body, TlStmt, i), g1->a, true)) made = i;
  if (made < 0 || g1->trans_a || g1->a->ndims != 2 || tl_dtype_bits(g1->a->dtype) != 16 || !g1->a->layout ||
      !g1->a->layout->wgmma)
    return NULL;
  TlArena *a = c->arena;
  TlExpr *prev = tl_simplify(a, tl_expr_binary(a, loc, OP_SUB, tl_expr_clone(a, rel), I(c, loc, 1, t), t));
  TlStmt *moved = tl_stmt_clone(a, g1);
  tl_pipeline_stage_stmt(a, c->diag, moved, p->bufs, p->nb, slot_of(c, prev, S, loc));
  moved->wgmma_in_flight = moved->a_packed = true;
  TlStmt *pack = tl_stmt_new(a, ST_WGMMA_PACK, loc);
  pack->buf = g1->a;
  // Issued and waited for by every iteration, the first one's wgmma
  // predicated off: under `if` guards ptxas cannot tie the wait to the issue
  // and serializes the wgmma (C7513), which undoes the overlap. Only the
  // release of slot k-1 stays guarded.
  moved->cond = tl_expr_binary(a, loc, OP_GT, tl_expr_clone(a, local), I(c, loc, 0, t), TY_BOOL);
  TlStmt *w = tl_stmt_new(a, ST_WGMMA_WAIT, loc), *release = tl_stmt_new(a, ST_IF, loc);
  w->buf = g1->c;
  // S_k is left in flight too, and waited for (one group, P V's, pending)
  // once P_{k-1} V_{k-1} is issued: the tensor cores go from one to the
  // other without the issue in between (FlashAttention-3's order).
  g0->wgmma_in_flight = true;
  TlStmt *s_done = tl_stmt_new(a, ST_WGMMA_WAIT, loc);
  s_done->buf = g0->c;
  s_done->width = 1;
  release->cond = tl_expr_clone(a, moved->cond);
  tl_vec_push(a, &release->body, mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, slot_of(c, prev, S, loc), loc));
  TlVec out = {0};
  for (int i = 0; i < body->len - 2; i++) { // without P V and the release
    if (i == split) {
      tl_vec_push(a, &out, w);
      tl_vec_push(a, &out, release);
      if (made < split) tl_vec_push(a, &out, pack);
    }
    tl_vec_push(a, &out, TL_VEC_AT(*body, TlStmt, i));
    if (i == i0) {
      tl_vec_push(a, &out, moved);
      tl_vec_push(a, &out, s_done);
    }
    if (i == made && made >= split) tl_vec_push(a, &out, pack);
  }
  if (split >= i1) { // nothing in the softmax touches O: the wait ends the iteration
    tl_vec_push(a, &out, w);
    tl_vec_push(a, &out, release);
    tl_vec_push(a, &out, pack);
  }
  *body = out;
  g1->wgmma_in_flight = g1->a_packed = true; // the one after the loop: the last P, packed
  return g1;
}

static void build(Ctx *c, Plan *p) {
  TlKernel *k = c->k;
  TlStmt *loop = p->loop;
  TlLoc loc = loop->loc;
  int S = loop->num_stages < 2 ? 2 : loop->num_stages; // plan_kernel made room for 2
  TlDtype t = loop->var->dtype;
  int64_t bytes = 0;
  choose_cluster(c, p);
  for (int i = 0; i < p->np; i++) {
    TlTmaMap *m = TL_NEW(c->arena, TlTmaMap);
    *m = p->maps[i];
    tl_vec_push(c->arena, &k->tma_maps, m);
    bytes += tl_buffer_elems(m->tile) * (tl_dtype_bits(m->tile->dtype) / 8);
  }
  for (int i = 0; i < p->nb; i++) {
    p->bufs[i]->stages = S;
    tl_vec_push(c->arena, &loop->pipe_buffers, p->bufs[i]);
  }
  k->ring_stages = S;
  split_resources(k);
  tl_check_consumer_registers(k, c->diag);
  // Persistent when one block holds the SM and every tile runs the same
  // number of iterations n: the ring then goes on across tiles at position
  // tile_iter * n + (k - start), and the next tile's loads overlap this
  // tile's epilogue.
  int64_t lo = 0, hi = 0;
  TlExpr *base = NULL;
  if (k->blocks_per_sm == 1 && tl_expr_is_const(inline_lets(c, loop->start), &lo) &&
      tl_expr_is_const(inline_lets(c, loop->stop), &hi) && hi > lo) {
    k->persistent = true;
    k->tile_iter = tl_var_new(c->arena, k, "tile_iter", VAR_TILE_ITER, t, loc);
    base = tl_expr_binary(c->arena, loc, OP_MUL, tl_expr_var(c->arena, loc, k->tile_iter), I(c, loc, hi - lo, t), t);
    // The staged epilogue pays more than a fourth stage (H200, 128x256x64:
    // 3 and 4 stages ran alike): give one up when both do not fit.
    int64_t staged = staged_epilogue_bytes(k), ring_stage = 0;
    for (int i = 0; i < p->nb; i++)
      ring_stage += (tl_buffer_bytes(p->bufs[i]) / S + 1023) / 1024 * 1024;
    if (staged && S > 3 && shared_estimate(k) + staged > c->m->max_shared_bytes &&
        shared_estimate(k) - ring_stage + staged <= c->m->max_shared_bytes) {
      S--;
      for (int i = 0; i < p->nb; i++)
        p->bufs[i]->stages = S;
      k->ring_stages = S;
    }
  }

  // The producer: its own counter over the same iterations.
  TlVar *pk = tl_var_new(c->arena, k, loop->var->name, VAR_LOOP, t, loop->var->loc);
  pk->extent = loop->var->extent;
  TlStmt *ploop = tl_stmt_new(c->arena, ST_FOR, loc);
  ploop->var = pk;
  ploop->loop_kind = LOOP_SERIAL;
  ploop->start = inline_lets(c, loop->start);
  ploop->stop = inline_lets(c, loop->stop);
  ploop->step = tl_expr_clone(c->arena, loop->step);
  TlExpr *pkv = tl_expr_var(c->arena, loc, pk);
  TlExpr *prel = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, pkv, tl_expr_clone(c->arena, ploop->start), t));
  if (base)
    prel = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_ADD, tl_expr_clone(c->arena, base), prel, t));
  TlStmt *wait_empty = mbar(c, ST_MBAR_WAIT, RING_EMPTY, slot_of(c, prel, S, loc), loc);
  // A fresh barrier counts as having completed the phase before its first
  // (parity 1), so the first lap does not wait.
  wait_empty->value = parity_of(c, prel, S, 1, loc);
  tl_vec_push(c->arena, &ploop->body, wait_empty);
  TlStmt *expect = mbar(c, ST_MBAR_ARRIVE, RING_FULL, slot_of(c, prel, S, loc), loc);
  expect->width = bytes;
  tl_vec_push(c->arena, &ploop->body, expect);
  for (int i = 0; i < p->np; i++) {
    TlStmt *ld = tl_stmt_new(c->arena, ST_TMA_LOAD, p->prods[i]->loc);
    ld->tma_map = k->tma_maps.len - p->np + i;
    ld->src.buf = p->maps[i].global;
    ld->src.loc = p->prods[i]->loc;
    ld->src.ndims = p->maps[i].rank;
    for (int d = 0; d < p->maps[i].rank; d++) {
      ld->src.start[d] = tl_simplify(c->arena, tl_expr_substitute(c->arena, p->starts[i][d], 1, &loop->var, &pkv));
      // (the whole tile arrives, a multicast map's two halves included)
      ld->src.extent[d] = d == p->maps[i].col_dim   ? p->maps[i].tile->shape[1]
                          : d == p->maps[i].row_dim ? p->maps[i].tile->shape[0]
                                                    : p->maps[i].box[d];
    }
    ld->dst.buf = p->maps[i].tile;
    ld->dst.ndims = 2;
    ld->stage_a = slot_of(c, prel, S, loc);
    tl_vec_push(c->arena, &ploop->body, ld);
  }
  tl_vec_push(c->arena, &k->producer, ploop);

  // The compute threads: wait for the slot, compute, release it.
  TlExpr *kv = tl_expr_var(c->arena, loc, loop->var);
  TlExpr *local = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, kv, tl_expr_clone(c->arena, loop->start), t));
  TlExpr *rel = base ? tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_ADD, tl_expr_clone(c->arena, base),
                                                            tl_expr_clone(c->arena, local), t))
                     : local;
  TlExpr *slot = slot_of(c, rel, S, loc);
  TlStmt *wg = tl_pipeline_deferred_wgmma(&p->consumers);
  TlVec body = {0};
  TlStmt *wait_full = mbar(c, ST_MBAR_WAIT, RING_FULL, tl_expr_clone(c->arena, slot), loc);
  wait_full->value = parity_of(c, rel, S, 0, loc);
  tl_vec_push(c->arena, &body, wait_full);
  for (int i = 0; i < p->consumers.len; i++) {
    TlStmt *st = TL_VEC_AT(p->consumers, TlStmt, i);
    tl_pipeline_stage_stmt(c->arena, c->diag, st, p->bufs, p->nb, slot);
    tl_vec_push(c->arena, &body, st);
    if (st == wg) { // its wait covered the previous iteration's group: that slot is free
      wg->wgmma_in_flight = true;
      TlExpr *prev = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, tl_expr_clone(c->arena, rel), I(c, loc, 1, t), t));
      TlStmt *g = tl_stmt_new(c->arena, ST_IF, loc);
      g->cond = tl_expr_binary(c->arena, loc, OP_GT, tl_expr_clone(c->arena, local), I(c, loc, 0, t), TY_BOOL);
      tl_vec_push(c->arena, &g->body, mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, slot_of(c, prev, S, loc), loc));
      tl_vec_push(c->arena, &body, g);
    }
  }
  if (!wg)
    tl_vec_push(c->arena, &body, mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, tl_expr_clone(c->arena, slot), loc));
  TlStmt *pv = wg ? NULL : overlap_pv(c, p, &body, rel, local, S, loc, t);
  loop->body = body;
  loop->applied_stages = S; // scheduled: the pipeline pass leaves it alone

  TlVec out = {0};
  for (int i = 0; i < k->body.len; i++) {
    TlStmt *s = TL_VEC_AT(k->body, TlStmt, i);
    if (s != loop) {
      tl_vec_push(c->arena, &out, s);
      continue;
    }
    TlStmt *note = tl_stmt_new(c->arena, ST_COMMENT, loc);
    note->text = tl_arena_printf(c->arena, "T.Pipelined(num_stages=%d) at line %d: TMA into a ring of %d stages "
                                 "(full/empty mbarriers), filled by the producer warpgroup%s%s", loop->num_stages, loc.line, S,
                                 wg ? "; one wgmma group in flight" : "",
                                 S < loop->num_stages ? "; one stage's shared memory holds the staged epilogue" : "");
    tl_vec_push(c->arena, &out, note);
    tl_vec_push(c->arena, &out, loop);
    if (pv) { // the last P V (staged at the last slot) and its release, when the loop ran
      TlExpr *n = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, tl_expr_clone(c->arena, loop->stop),
                                                        tl_expr_clone(c->arena, loop->start), t));
      TlExpr *last = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, tl_expr_clone(c->arena, n), I(c, loc, 1, t), t));
      if (base)
        last = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_ADD, tl_expr_clone(c->arena, base), last, t));
      tl_pipeline_stage_stmt(c->arena, c->diag, pv, p->bufs, p->nb, slot_of(c, last, S, loc));
      // The helper is the loop's (predicated), here always on: issue, wait
      // and release in one branch, which ptxas ties together.
      pv->cond = tl_expr_int(c->arena, loc, 1, TY_BOOL);
      TlStmt *g = tl_stmt_new(c->arena, ST_IF, loc);
      g->cond = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_GT, n, I(c, loc, 0, t), TY_BOOL));
      tl_vec_push(c->arena, &g->body, pv);
      TlStmt *w = tl_stmt_new(c->arena, ST_WGMMA_WAIT, loc);
      w->buf = pv->c;
      tl_vec_push(c->arena, &g->body, w);
      tl_vec_push(c->arena, &g->body, mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, slot_of(c, last, S, loc), loc));
      tl_vec_push(c->arena, &out, g);
    }
    if (wg) { // the last gemm's group, before anything reads the accumulator
      TlStmt *w = tl_stmt_new(c->arena, ST_WGMMA_WAIT, loc);
      w->buf = wg->c;
      tl_vec_push(c->arena, &out, w);
      if (base) { // and the tile's last slot, which no next iteration releases
        TlExpr *last = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_ADD, tl_expr_clone(c->arena, base),
                                                             I(c, loc, hi - lo - 1, t), t));
        tl_vec_push(c->arena, &out, mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, slot_of(c, last, S, loc), loc));
      } else if (k->cluster) {
        // A cluster's producers wait for every slot's release before their
        // block leaves (the other block's warps arrive on its barriers), so
        // the last slot is released too when the loop ran at all.
        TlExpr *n = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, tl_expr_clone(c->arena, loop->stop),
                                                          tl_expr_clone(c->arena, loop->start), t));
        TlExpr *last = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_SUB, n, I(c, loc, 1, t), t));
        TlStmt *release = mbar(c, ST_MBAR_ARRIVE, RING_EMPTY, slot_of(c, last, S, loc), loc);
        int64_t trips = 0;
        if (!tl_expr_is_const(n, &trips)) {
          TlStmt *g = tl_stmt_new(c->arena, ST_IF, loc);
          g->cond = tl_simplify(c->arena, tl_expr_binary(c->arena, loc, OP_GT, tl_expr_clone(c->arena, n),
                                                         I(c, loc, 0, t), TY_BOOL));
          tl_vec_push(c->arena, &g->body, release);
          tl_vec_push(c->arena, &out, g);
        } else if (trips > 0) {
          tl_vec_push(c->arena, &out, release);
        }
      }
    }
  }
  // The next tile's code must not write a shared tile (other than the
  // ring's) that threads still read for this one: one named barrier per tile.
  if (base)
    tl_vec_push(c->arena, &out, tl_stmt_new(c->arena, ST_SYNC, loc));
  k->body = out;
  if (base)
    stage_epilogue(c, &k->body);
}

// specialize-sizes made an unaligned twin of every kernel with runtime sizes
// in case this pass gives it TMA maps; a kernel that got none and assumes no
// divisor would launch the same code either way: the twin goes.
static void drop_unneeded_twins(TlArena *a, TlModule *m) {
  TlVec dropped = {0}, keep = {0};
  for (int i = 0; i < m->kernels.len; i++) {
    TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    bool divisors = false;
    for (int j = 0; j < k->sizes.len; j++)
      divisors = divisors || TL_VEC_AT(k->sizes, TlVar, j)->divisor > 1;
    if (k->fallback && !divisors && k->tma_maps.len == 0) {
      tl_vec_push(a, &dropped, (void *)k->fallback);
      k->fallback = NULL;
    }
  }
  for (int i = 0; i < m->kernels.len; i++) {
    TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    bool drop = false;
    for (int j = 0; j < dropped.len && k->is_fallback; j++)
      drop = drop || strcmp(k->name, TL_VEC_AT(dropped, const char, j)) == 0;
    if (!drop)
      tl_vec_push(a, &keep, k);
  }
  m->kernels = keep;
}

bool tl_warp_specialize(TlArena *a, TlModule *m, TlDiag *d) {
  if (!m->has_wgmma || !m->has_tma)
    return true;
  for (int i = 0; i < m->kernels.len; i++) {
    Ctx c = {.arena = a, .m = m, .k = TL_VEC_AT(m->kernels, TlKernel, i), .diag = d};
    Plan p = {0};
    if (plan_kernel(&c, &p))
      build(&c, &p);
    else
      c.k->ws_why = c.why;
  }
  drop_unneeded_twins(a, m);
  return true;
}
