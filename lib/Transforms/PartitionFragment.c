// The partition pass, fragment half: loops that touch fragments follow the
// fragments' layouts instead of the default formula, and reductions over
// fragments become per-thread loops plus lane shuffles.
//
// A T.Parallel over a fragment F with layout L becomes
//   for l in 0..L.locals (unrolled) { (i, j) = L.coords(tid, l); body }
// where F[i, j] is register F[l] and a row fragment R[i] (ROW_OF L) is
// register R[L.row_local(l)]; other buffers are indexed by the recovered
// (i, j). When the loop follows a replicated row layout, stores to shared or
// global memory run on one replica only.
//
// T.reduce_op(S, R, dim=1) with R = ROW_OF(S's layout) becomes
//   acc[lr] = init; for l: acc[row_local(l)] = op(acc[...], S[l])
//   for each row-sharing lane offset o: acc = op(acc, shfl_xor(acc, o))
//   R[lr] = acc[lr]  (or op(R[lr], acc[lr]) when clear=False)
// A rows layout whose rows span several warps (g > 32) adds, between the
// shuffles and the store, a step through a small shared tile (one value
// per warp) and log2(warps per row) more shuffles: a tree, no serial loop.
#include <math.h>

#include "tlc/FragLayout.h"
#include "tlc/Passes.h"

#include "PartitionInternal.h"

static bool expr_has_fragment(const TlExpr *e) {
  if (!e) return false;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT) return true;
  for (int i = 0; i < e->nargs; i++)
    if (expr_has_fragment(e->args[i])) return true;
  return false;
}

static bool body_has_fragment(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT) return true;
    for (int d = 0; d < s->nindices; d++)
      if (expr_has_fragment(s->indices[d])) return true;
    if (expr_has_fragment(s->value) || expr_has_fragment(s->cond) || body_has_fragment(&s->body) ||
        body_has_fragment(&s->else_body))
      return true;
  }
  return false;
}

bool tl_nest_touches_fragment(const TlStmt *nest) {
  return body_has_fragment(&nest->body);
}

static const TlExpr *find_fragment(const TlExpr *e) {
  if (!e) return NULL;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT) return e;
  for (int i = 0; i < e->nargs; i++) {
    const TlExpr *f = find_fragment(e->args[i]);
    if (f) return f;
  }
  return NULL;
}

bool tl_check_no_fragment_access(const TlStmt *s, TlDiag *d) {
  // The bodies of loops, branches and sequences are visited on their own;
  // their own expressions (an if's condition, a loop's bounds) run at block
  // level here, where a fragment element lives in one thread only (TileLang's
  // block-sparse attention tests `if block_mask[k] != 0:` on a fragment).
  bool bad =
      s->kind != ST_SEQ && ((s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT) ||
                            expr_has_fragment(s->value) || expr_has_fragment(s->cond) ||
                            expr_has_fragment(s->start) || expr_has_fragment(s->stop));
  for (int i = 0; s->kind != ST_SEQ && s->kind != ST_FOR && s->kind != ST_IF && i < s->nindices;
       i++)
    bad = bad || expr_has_fragment(s->indices[i]);
  if (bad) {
    const TlExpr *f = find_fragment(s->value);
    if (!f) f = find_fragment(s->cond);
    if (!f) f = find_fragment(s->start);
    if (!f) f = find_fragment(s->stop);
    tl_error(d, f ? f->loc : s->loc,
             "a fragment is distributed over the threads: access it inside a "
             "T.Parallel loop or with a tile operator");
    tl_note(d, f ? f->buf->loc : s->loc,
            "tlc gives every thread a whole copy of a fragment read at block level only when no "
            "T.gemm or T.reduce_* uses it, it has at most 256 elements and the T.Parallel nests "
            "that fill it store nothing else");
  }
  return !bad;
}

typedef struct Rewrite {
  TlArena *arena;
  const TlStmt *nest;
  const TlFragLayout *layout;
  TlExpr *local; // the register index of the loop
} Rewrite;

static bool is_direct(const TlExpr *const *idx, int n, const TlStmt *nest) {
  if (n != nest->nvars) return false;
  for (int i = 0; i < n; i++)
    if (idx[i]->kind != EX_VAR || idx[i]->var != nest->vars[i]) return false;
  return true;
}

// The register index of a fragment access, or NULL if it does not fit.
static TlExpr *register_index(Rewrite *r, const TlBuffer *b, TlExpr *const *idx, int n) {
  if (is_direct((const TlExpr *const *)idx, n, r->nest) && tl_layout_equal(b->layout, r->layout))
    return r->local;
  if (n == 1 && r->nest->nvars == 2 && idx[0]->kind == EX_VAR && idx[0]->var == r->nest->vars[0] &&
      b->layout && b->layout->kind == LAYOUT_ROW_OF &&
      tl_layout_same_rows(b->layout->parent, r->layout))
    return tl_layout_row_local(r->arena, r->layout, r->local, idx[0]->loc);
  return NULL;
}

static TlExpr *rewrite_expr(Rewrite *r, TlExpr *e) {
  if (!e) return e;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT) {
    TlExpr *reg = register_index(r, e->buf, e->args, e->nargs);
    TL_ASSERT("partition", reg != NULL); // layout-inference checked every access
    TlExpr *x = tl_expr_new(r->arena, EX_LOAD, e->loc, e->dtype, 1);
    x->buf = e->buf;
    x->args[0] = reg;
    return x;
  }
  for (int i = 0; i < e->nargs; i++)
    e->args[i] = rewrite_expr(r, e->args[i]);
  return e;
}

static void rewrite_body(Rewrite *r, TlVec *body, TlExpr *replica_guard) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int d = 0; d < s->nindices; d++)
      s->indices[d] = rewrite_expr(r, s->indices[d]);
    s->value = rewrite_expr(r, s->value);
    s->cond = rewrite_expr(r, s->cond);
    rewrite_body(r, &s->body, replica_guard);
    rewrite_body(r, &s->else_body, replica_guard);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT) {
      TlExpr *reg = register_index(r, s->buf, s->indices, s->nindices);
      TL_ASSERT("partition", reg != NULL);
      s->indices = TL_NEW_ARRAY(r->arena, TlExpr *, 1);
      s->indices[0] = reg;
      s->nindices = 1;
    } else if (s->kind == ST_STORE && s->buf && replica_guard) {
      // A replicated row: one replica writes memory.
      TlStmt *g = tl_stmt_new(r->arena, ST_IF, s->loc);
      g->cond = replica_guard;
      tl_vec_push(r->arena, &g->body, s);
      body->items[i] = g;
    }
  }
}

// The layout a fragment load gives the nest: its buffer's when indexed by
// the nest's variables in order; with `rows`, the parent tile of a
// replicated row R[i] read by a 2-D nest.
static const TlFragLayout *load_layout(const TlExpr *e, const TlStmt *nest, bool rows) {
  if (e->kind != EX_LOAD || e->buf->scope != SCOPE_FRAGMENT || !e->buf->layout) return NULL;
  if (!rows)
    return is_direct((const TlExpr *const *)e->args, e->nargs, nest) ? e->buf->layout : NULL;
  bool row = e->buf->layout->kind == LAYOUT_ROW_OF && nest->nvars == 2 && e->nargs == 1 &&
             e->args[0]->kind == EX_VAR && e->args[0]->var == nest->vars[0];
  return row ? e->buf->layout->parent : NULL;
}

// The layout a fragment nest follows (layout-inference made sure it exists):
// the first fragment it stores or loads directly; with `rows`, the tile a
// replicated row it reads came from (RMSNorm's `x[i, j] * inv_rms[i]`).
static const TlFragLayout *source_layout(const TlVec *body, const TlStmt *nest, bool rows) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (!rows && s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT &&
        s->buf->layout && is_direct((const TlExpr *const *)s->indices, s->nindices, nest))
      return s->buf->layout;
    const TlExpr *stack[256];
    int n = 0;
    if (s->value) stack[n++] = s->value;
    if (s->cond) stack[n++] = s->cond;
    for (int d = 0; d < s->nindices && n < 256; d++)
      stack[n++] = s->indices[d];
    while (n > 0) {
      const TlExpr *e = stack[--n];
      const TlFragLayout *l = load_layout(e, nest, rows);
      if (l) return l;
      for (int k = 0; k < e->nargs && n < 256; k++)
        stack[n++] = e->args[k];
    }
    const TlFragLayout *l = source_layout(&s->body, nest, rows);
    if (!l) l = source_layout(&s->else_body, nest, rows);
    if (l) return l;
  }
  return NULL;
}

static TlStmt *unrolled_loop(TlArena *a, TlKernel *k, const char *name, int64_t n, TlLoc loc,
                             TlVar **var) {
  TlStmt *loop = tl_stmt_new(a, ST_FOR, loc);
  loop->loop_kind = LOOP_UNROLL;
  *var = tl_var_new(a, k, name, VAR_LOOP, TY_INT32, loc);
  (*var)->extent = n;
  loop->var = *var;
  loop->start = tl_expr_int(a, loc, 0, TY_INT32);
  loop->stop = tl_expr_int(a, loc, n, TY_INT32);
  loop->step = tl_expr_int(a, loc, 1, TY_INT32);
  return loop;
}

TlStmt *tl_partition_fragment_nest(TlArena *a, TlKernel *k, TlStmt *nest, TlDiag *d) {
  TlLoc loc = nest->loc;
  const TlFragLayout *L = source_layout(&nest->body, nest, false);
  if (!L) L = source_layout(&nest->body, nest, true);
  if (!L) {
    tl_error(d, loc, "internal error: no fragment layout for this T.Parallel (partition)");
    return NULL;
  }
  // In the mma accumulator layout registers 2p and 2p+1 hold neighbouring
  // columns, in the rows layout runs of `vec`: the loop runs over runs with
  // an inner lane loop, which the vectorize pass turns into one vector
  // access where memory allows (__half2 epilogue stores, 8-byte row loads).
  TlVar *l, *pair = NULL;
  TlStmt *loop, *lanes = NULL;
  TlExpr *local;
  int64_t run = L->kind == LAYOUT_GEMM_C ? 2 : (L->kind == LAYOUT_ROWS && L->vec > 1 ? L->vec : 1);
  if (run > 1) {
    loop = unrolled_loop(a, k, "r", L->locals / run, loc, &pair);
    lanes = unrolled_loop(a, k, "c", run, loc, &l);
    lanes->loop_kind = LOOP_VECTORIZED;
    local = tl_expr_binary(a, loc, OP_ADD,
                           tl_expr_binary(a, loc, OP_MUL, tl_expr_var(a, loc, pair),
                                          tl_expr_int(a, loc, run, TY_INT32), TY_INT32),
                           tl_expr_var(a, loc, l), TY_INT32);
  } else {
    loop = unrolled_loop(a, k, "r", L->locals, loc, &l);
    local = tl_expr_var(a, loc, l);
  }
  TlExpr *tid = tl_partition_thread_id(a, k, loc);
  TlExpr *coords[2], *guard;
  tl_layout_coords(a, L, tid, local, coords, &guard, loc);
  Rewrite rw = {a, nest, L, local};
  TlExpr *replica = L->kind == LAYOUT_ROW_OF ? tl_layout_primary_replica(a, L, tid, loc) : NULL;
  rewrite_body(&rw, &nest->body, replica);
  TlExpr *with[2];
  for (int i = 0; i < nest->nvars; i++)
    with[i] = tl_expr_cast(a, loc, coords[i], nest->vars[i]->dtype);
  // A loop over part of the fragment (T.Parallel(32, 64) on a 64x64 tile,
  // T.fill of a slice): the registers outside the loop's extents are skipped.
  int64_t shape[2] = {L->rows, L->kind == LAYOUT_ROW_OF ? 1 : L->cols};
  for (int i = 0; i < nest->nvars; i++)
    if (nest->extents[i] < shape[i]) {
      TlExpr *in = tl_expr_binary(a, loc, OP_LT, tl_expr_clone(a, coords[i]),
                                  tl_expr_int(a, loc, nest->extents[i], TY_INT32), TY_BOOL);
      guard = guard ? tl_expr_binary(a, loc, OP_AND, guard, in, TY_BOOL) : in;
    }
  for (int i = 0; i < nest->body.len; i++)
    tl_stmt_substitute(a, TL_VEC_AT(nest->body, TlStmt, i), nest->nvars, nest->vars, with);
  TlStmt *inner = lanes ? lanes : loop;
  if (guard) {
    TlStmt *g = tl_stmt_new(a, ST_IF, loc);
    g->cond = guard;
    g->body = nest->body;
    tl_vec_push(a, &inner->body, g);
  } else {
    inner->body = nest->body;
  }
  if (lanes) tl_vec_push(a, &loop->body, lanes);
  TlStmt *seq = tl_stmt_new(a, ST_SEQ, loc);
  seq->per_thread = true;
  // Recorded for --emit=plan and explain-partition, which map elements to
  // (thread, register) with the same tl_layout_coords as above.
  seq->plan_frag = L;
  seq->plan_frag_ndims = nest->nvars;
  for (int i = 0; i < nest->nvars; i++)
    seq->plan_frag_extents[i] = nest->extents[i];
  seq->plan_loc = loc;
  seq->plan_origin = nest->origin;
  TlStmt *note = tl_stmt_new(a, ST_COMMENT, loc);
  note->text = tl_arena_printf(a, "T.Parallel at line %d (%s) follows the fragment layout %s",
                               loc.line, tl_origin_name(nest->origin), tl_layout_describe(a, L));
  tl_vec_push(a, &seq->body, note);
  tl_vec_push(a, &seq->body, loop);
  return seq;
}

static TlExpr *elem(TlArena *a, TlVar *arr, TlExpr *idx, TlLoc loc) {
  TlExpr *e = tl_expr_new(a, EX_ELEM, loc, arr->dtype, 1);
  e->var = arr;
  e->args[0] = idx;
  return e;
}

static TlStmt *set_elem(TlArena *a, TlVar *arr, TlExpr *idx, TlExpr *v, TlLoc loc) {
  TlStmt *s = tl_stmt_new(a, ST_STORE, loc);
  s->var = arr;
  s->indices = TL_NEW_ARRAY(a, TlExpr *, 1);
  s->indices[0] = idx;
  s->nindices = 1;
  s->value = v;
  return s;
}

static TlExpr *reg(TlArena *a, TlBuffer *b, TlExpr *idx, TlLoc loc) {
  TlExpr *x = tl_expr_new(a, EX_LOAD, loc, b->dtype, 1);
  x->buf = b;
  x->args[0] = idx;
  return x;
}

// acc[lr] = op(acc[lr], shfl_xor(acc[lr], o)) for each offset o.
static void add_shuffles(TlArena *a, TlReduceKind kind, TlVar *acc, TlVar *lr, const int64_t *offs,
                         int n, TlVec *out, TlLoc loc) {
  TlDtype t = acc->dtype;
  for (int i = 0; i < n; i++) {
    TlExpr *sh = tl_expr_new(a, EX_CALL, loc, t, 2);
    sh->fn = FN_SHFL_XOR;
    sh->args[0] = elem(a, acc, tl_expr_var(a, loc, lr), loc);
    sh->args[1] = tl_expr_int(a, loc, offs[i], TY_INT32);
    TlExpr *cur = elem(a, acc, tl_expr_var(a, loc, lr), loc);
    tl_vec_push(
        a, out,
        set_elem(a, acc, tl_expr_var(a, loc, lr), tl_reduce_combine(a, kind, cur, sh, loc), loc));
  }
}

static TlExpr *I32(TlArena *a, TlLoc loc, int64_t v) {
  return tl_expr_int(a, loc, v, TY_INT32);
}
static TlExpr *ibin(TlArena *a, TlLoc loc, TlOp op, TlExpr *x, TlExpr *y) {
  return tl_expr_binary(a, loc, op, x, y, TY_INT32);
}

// A new shared tile of n values of the accumulator's dtype, where the warps
// of a row leave their shares (named after the reduced fragment).
static TlBuffer *warp_shares_tile(TlArena *a, TlKernel *k, const TlStmt *red, TlDtype t,
                                  int64_t n, TlLoc loc) {
  TlBuffer *W = TL_NEW(a, TlBuffer);
  W->name = tl_arena_printf(a, "%s_warps%d", red->src.buf->name, k->buffers.len);
  W->loc = loc;
  W->scope = SCOPE_SHARED;
  W->dtype = t;
  W->stages = 1;
  W->ndims = 1;
  W->shape[0] = n;
  W->read = W->written = true;
  tl_vec_push(a, &k->buffers, W);
  return W;
}

// W[at] = v, a store to a 1-D tile.
static TlStmt *store_at(TlArena *a, TlBuffer *W, TlExpr *at, TlExpr *v, TlLoc loc) {
  TlStmt *st = tl_stmt_new(a, ST_STORE, loc);
  st->buf = W;
  st->indices = TL_NEW_ARRAY(a, TlExpr *, 1);
  st->indices[0] = at;
  st->nindices = 1;
  st->value = v;
  return st;
}

// How two partial results combine: the abs kinds' partials are already
// absolute, so they add (abssum) or take the maximum (absmax).
static TlReduceKind partial_kind(TlReduceKind k) {
  return k == REDUCE_ABSSUM ? REDUCE_SUM : k == REDUCE_ABSMAX ? REDUCE_MAX : k;
}

// The cross-warp half of a row reduction whose rows span `nwarps` warps
// (a power of two): a shared tile of one value per (row register, warp),
//   if (tid % 32 == 0) for lr: W[lr * warps + tid / 32] = acc[lr]
//   for lr: acc[lr] = W[lr * warps + (tid / 32) / nwarps * nwarps + tid % nwarps]
// with a barrier between the two (thread-sync adds the one before the tile
// is written again, in a loop); the caller's shuffles then fold the nwarps
// values each lane group holds.
static void cross_warp_step(TlArena *a, TlKernel *k, const TlStmt *red, TlVar *acc, int64_t rlocals,
                            int64_t nwarps, TlVec *out, TlLoc loc) {
  int64_t warps = k->threads[0] * k->threads[1] * k->threads[2] / 32;
  TlBuffer *W = warp_shares_tile(a, k, red, acc->dtype, rlocals * warps, loc);
  TlExpr *tid = tl_partition_thread_id(a, k, loc);
  TlExpr *warp = ibin(a, loc, OP_FLOORDIV, tid, I32(a, loc, 32));

  TlStmt *lane0 = tl_stmt_new(a, ST_IF, loc);
  lane0->cond = tl_expr_binary(a, loc, OP_EQ, ibin(a, loc, OP_FLOORMOD, tid, I32(a, loc, 32)),
                               I32(a, loc, 0), TY_BOOL);
  TlVar *lr;
  TlStmt *put = unrolled_loop(a, k, "r", rlocals, loc, &lr);
  TlExpr *at =
      tl_simplify(a, ibin(a, loc, OP_ADD,
                          ibin(a, loc, OP_MUL, tl_expr_var(a, loc, lr), I32(a, loc, warps)), warp));
  tl_vec_push(a, &put->body, store_at(a, W, at, elem(a, acc, tl_expr_var(a, loc, lr), loc), loc));
  tl_vec_push(a, &lane0->body, put);
  tl_vec_push(a, out, lane0);
  // Every thread reaches this barrier (the reduction is not under a
  // per-thread condition); thread-sync sees it and adds none of its own.
  tl_vec_push(a, out, tl_stmt_new(a, ST_SYNC, loc));

  TlStmt *get = unrolled_loop(a, k, "r", rlocals, loc, &lr);
  TlExpr *first = ibin(a, loc, OP_MUL, ibin(a, loc, OP_FLOORDIV, warp, I32(a, loc, nwarps)),
                       I32(a, loc, nwarps));
  TlExpr *mine = ibin(a, loc, OP_ADD, first, ibin(a, loc, OP_FLOORMOD, tid, I32(a, loc, nwarps)));
  TlExpr *idx =
      tl_simplify(a, ibin(a, loc, OP_ADD,
                          ibin(a, loc, OP_MUL, tl_expr_var(a, loc, lr), I32(a, loc, warps)), mine));
  tl_vec_push(a, &get->body,
              set_elem(a, acc, tl_expr_var(a, loc, lr), tl_expr_load(a, loc, W, &idx, 1), loc));
  tl_vec_push(a, out, get);
}

// The cross-warp half of a row reduction over an mma accumulator tiled
// wm x wn warps with wn > 1 (a row is held by the same quad lanes of wn
// warps): after the quad shuffles, lane 0 of each quad leaves its warp's
// share of each of its rows in a shared tile of rows x wn values,
//   if (lane % 4 == 0) for lr: W[row(lr) * wn + wj] = acc[lr]
// and after the barrier every thread folds the wn shares of its rows in the
// same order (so the replicas of a row agree bit for bit):
//   for lr: acc[lr] = op(W[row(lr) * wn], W[row(lr) * wn + 1], ...)
// A tree of one level: wn is at most the block's warps, no serial loop
// over outputs.
static void cross_warp_columns(TlArena *a, TlKernel *k, const TlStmt *red, TlVar *acc,
                               const TlFragLayout *R, TlVec *out, TlLoc loc) {
  const TlFragLayout *P = R->parent;
  int64_t wn = P->wn;
  TlBuffer *W = warp_shares_tile(a, k, red, acc->dtype, P->rows * wn, loc);
  TlExpr *tid = tl_partition_thread_id(a, k, loc);
  TlExpr *wj = ibin(a, loc, OP_FLOORMOD, ibin(a, loc, OP_FLOORDIV, tid, I32(a, loc, 32)),
                    I32(a, loc, wn));

  TlStmt *quad0 = tl_stmt_new(a, ST_IF, loc);
  quad0->cond = tl_expr_binary(a, loc, OP_EQ, ibin(a, loc, OP_FLOORMOD, tid, I32(a, loc, 4)),
                               I32(a, loc, 0), TY_BOOL);
  TlVar *lr;
  TlStmt *put = unrolled_loop(a, k, "r", R->locals, loc, &lr);
  TlExpr *row, *guard;
  tl_layout_coords(a, R, tid, tl_expr_var(a, loc, lr), &row, &guard, loc);
  TlExpr *at = tl_simplify(a, ibin(a, loc, OP_ADD, ibin(a, loc, OP_MUL, row, I32(a, loc, wn)), wj));
  tl_vec_push(a, &put->body, store_at(a, W, at, elem(a, acc, tl_expr_var(a, loc, lr), loc), loc));
  tl_vec_push(a, &quad0->body, put);
  tl_vec_push(a, out, quad0);
  // Every thread reaches this barrier (see cross_warp_step).
  tl_vec_push(a, out, tl_stmt_new(a, ST_SYNC, loc));

  TlStmt *get = unrolled_loop(a, k, "r", R->locals, loc, &lr);
  tl_layout_coords(a, R, tid, tl_expr_var(a, loc, lr), &row, &guard, loc);
  TlExpr *sum = NULL;
  for (int64_t c = 0; c < wn; c++) {
    TlExpr *idx =
        tl_simplify(a, ibin(a, loc, OP_ADD, ibin(a, loc, OP_MUL, row, I32(a, loc, wn)), I32(a, loc, c)));
    TlExpr *x = tl_expr_load(a, loc, W, &idx, 1);
    sum = sum ? tl_reduce_combine(a, partial_kind(red->reduce), sum, x, loc) : x;
  }
  tl_vec_push(a, &get->body, set_elem(a, acc, tl_expr_var(a, loc, lr), sum, loc));
  tl_vec_push(a, out, get);
}

TlStmt *tl_lower_reduce(TlArena *a, TlKernel *k, TlStmt *red) {
  TlLoc loc = red->loc;
  TlBuffer *src = red->src.buf, *dst = red->dst.buf;
  const TlFragLayout *P = src->layout, *R = dst->layout;
  TlDtype t = dst->dtype;
  TlStmt *seq = tl_stmt_new(a, ST_SEQ, loc);
  seq->per_thread = true;
  static const char *names[] = {"sum", "max", "min", "abssum", "absmax"};
  TlStmt *note = tl_stmt_new(a, ST_COMMENT, loc);
  note->text =
      tl_arena_printf(a, "T.reduce_%s at line %d: %lld registers per thread, then lane shuffles%s",
                      names[red->reduce], loc.line, (long long)P->locals,
                      P->kind == LAYOUT_ROWS && P->g > 32
                          ? tl_arena_printf(a, ", then across %lld warps through shared memory",
                                            (long long)(P->g / 32))
                      : P->kind == LAYOUT_GEMM_C && P->wn > 1
                          ? tl_arena_printf(a, ", then across %lld warps through shared memory",
                                            (long long)P->wn)
                          : "");
  tl_vec_push(a, &seq->body, note);
  TlVar *acc = tl_var_new(a, k, "acc", VAR_ARRAY, t, loc);
  acc->lanes = R->locals;
  TlStmt *decl = tl_stmt_new(a, ST_DECL, loc);
  decl->var = acc;
  tl_vec_push(a, &seq->body, decl);
  // acc[lr] = init
  TlVar *lr;
  TlStmt *init = unrolled_loop(a, k, "r", R->locals, loc, &lr);
  tl_vec_push(
      a, &init->body,
      set_elem(a, acc, tl_expr_var(a, loc, lr), tl_reduce_init(a, red->reduce, t, loc), loc));
  tl_vec_push(a, &seq->body, init);
  // acc[row_local(l)] = op(acc[row_local(l)], src[l])
  TlVar *l;
  TlStmt *fold = unrolled_loop(a, k, "r", P->locals, loc, &l);
  TlExpr *rl = tl_layout_row_local(a, P, tl_expr_var(a, loc, l), loc);
  TlExpr *x = tl_expr_cast(a, loc, reg(a, src, tl_expr_var(a, loc, l), loc), t);
  if (red->reduce == REDUCE_ABSSUM || red->reduce == REDUCE_ABSMAX) {
    TlExpr *abs = tl_expr_new(a, EX_CALL, loc, t, 1);
    abs->fn = FN_ABS;
    abs->args[0] = x;
    x = abs;
  }
  tl_vec_push(
      a, &fold->body,
      set_elem(a, acc, rl, tl_reduce_combine(a, red->reduce, elem(a, acc, rl, loc), x, loc), loc));
  tl_vec_push(a, &seq->body, fold);
  // Combine the lanes that share a row.
  int64_t offs[8];
  bool in_warp;
  int n = tl_layout_row_shuffles(P, offs, &in_warp);
  TlVar *lr2;
  TlStmt *shuf = unrolled_loop(a, k, "r", R->locals, loc, &lr2);
  add_shuffles(a, red->reduce, acc, lr2, offs, n, &shuf->body, loc);
  if (P->kind == LAYOUT_ROWS && P->g > 32) {
    // The row spans g / 32 whole warps: each warp's lane 0 leaves its
    // share in shared memory, and after the barrier lane l of every warp
    // of the row takes share l % (g / 32) and a second round of shuffles
    // combines them: log2(g / 32) steps, every lane gets the row.
    tl_vec_push(a, &seq->body, shuf);
    cross_warp_step(a, k, red, acc, R->locals, P->g / 32, &seq->body, loc);
    seq->per_thread = false; // it holds a barrier: a region thread-sync enters
    shuf = unrolled_loop(a, k, "r", R->locals, loc, &lr2);
    int64_t offs2[8];
    int n2 = 0;
    for (int64_t o = P->g / 32 / 2; o >= 1; o /= 2)
      offs2[n2++] = o;
    add_shuffles(a, red->reduce, acc, lr2, offs2, n2, &shuf->body, loc);
  }
  if (P->kind == LAYOUT_GEMM_C && P->wn > 1) {
    tl_vec_push(a, &seq->body, shuf);
    cross_warp_columns(a, k, red, acc, R, &seq->body, loc);
    seq->per_thread = false; // it holds a barrier
    shuf = unrolled_loop(a, k, "r", R->locals, loc, &lr2);
  }
  // dst[lr] = acc[lr] (clear) or op(dst[lr], acc[lr])
  TlExpr *res = elem(a, acc, tl_expr_var(a, loc, lr2), loc);
  if (!red->reduce_clear) {
    res = tl_reduce_combine(a, partial_kind(red->reduce), reg(a, dst, tl_expr_var(a, loc, lr2), loc),
                            res, loc);
  }
  tl_vec_push(a, &shuf->body, store_at(a, dst, tl_expr_var(a, loc, lr2), res, loc));
  tl_vec_push(a, &seq->body, shuf);
  return seq;
}
