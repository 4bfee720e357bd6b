// Lowerings through a shared tile, for what registers cannot do:
//  * tl_stage_in_shared: a fragment gemm operand the mma path cannot read
//    from registers (any B, an A that is not a gemm accumulator with its
//    rows in one warp) is copied into a new shared tile before the gemm;
//  * tl_reduce_via_shared: the general T.reduce_* lowering;
//  * tl_unstage_from_shared: the copy back, after a T.Parallel nest that
//    wrote a fragment through its shared copy (layout-inference stages a
//    fragment a nest indexes in a way its layout does not fit).
//
// The general T.reduce_* lowering, through shared memory. The fast path
// (PartitionFragment.c) reduces a 2-D fragment along dim=1 in registers,
// lane shuffles and, for rows over several warps (a rows layout, or an mma
// accumulator tiled with wn > 1 warps along N), one value per warp in
// shared memory. Every other reduction (along dim 0, of a shared or 1-D
// tile, in a block with a partial last warp) becomes ordinary T.Parallel nests around shared
// scratch tiles:
//
//   S_red = shared tile of the source's extents (a shared source is read
//   for i, j in T.Parallel(M, N): S_red[i, j] = S[..]    in place instead)
//
// then, when the outputs are fewer than the threads, a tree (reduce_tree):
// G threads per output fold strided parts of the reduced dimension into a
// shared tile of partials, log2(G) halving steps combine them, and the
// destination takes the first partial; with at least as many outputs as
// threads (G = 1), each output's owner folds it serially:
//
//   for j in T.Parallel(N):                       # dst's extents
//       acc = clear ? init : D[j]
//       for r in T.serial(M): acc = op(acc, f(S_red[r, j]))
//       D[j] = acc
//
// The partition pass maps the nests onto threads (following the fragments'
// layouts) and thread-sync separates them with barriers: any layout, any
// dimension, any thread count.
#include "tlc/Passes.h"

#include <math.h>

TlExpr *tl_reduce_combine(TlArena *a, TlReduceKind kind, TlExpr *acc, TlExpr *x, TlLoc loc) {
  TlDtype t = acc->dtype;
  switch (kind) {
  case REDUCE_SUM:
  case REDUCE_ABSSUM:
    return tl_expr_binary(a, loc, OP_ADD, acc, x, t);
  case REDUCE_MAX:
  case REDUCE_ABSMAX:
    return tl_expr_binary(a, loc, OP_MAX, acc, x, t);
  default:
    return tl_expr_binary(a, loc, OP_MIN, acc, x, t);
  }
}

TlExpr *tl_reduce_init(TlArena *a, TlReduceKind kind, TlDtype t, TlLoc loc) {
  bool f = tl_dtype_is_float(t);
  if (kind == REDUCE_SUM || kind == REDUCE_ABSSUM || kind == REDUCE_ABSMAX)
    return f ? tl_expr_float(a, loc, 0, t) : tl_expr_int(a, loc, 0, t);
  bool mx = kind == REDUCE_MAX;
  if (f) return tl_expr_float(a, loc, mx ? -INFINITY : INFINITY, t);
  int bits = tl_dtype_bits(t);
  int64_t lo = tl_dtype_is_signed(t) ? -(int64_t)((~0ULL) >> (65 - bits)) - 1 : 0;
  int64_t hi = tl_dtype_is_signed(t) ? (int64_t)((~0ULL) >> (65 - bits))
                                     : (bits == 64 ? -1 /* all ones */ : (int64_t)((1ULL << bits) - 1));
  return tl_expr_int(a, loc, mx ? lo : hi, t);
}

static const char *const VAR_NAMES[] = {"i", "j", "k", "l", "m", "n", "o", "p"};

// A T.Parallel over the given extents (unit extents skipped, at least one).
static TlStmt *nest(TlArena *a, TlKernel *k, const int64_t *extents, int n, TlLoc loc) {
  TlStmt *p = tl_stmt_new(a, ST_PARALLEL, loc);
  p->origin = ORIGIN_REDUCE;
  for (int d = 0; d < n; d++) {
    if (extents[d] == 1) continue;
    TlVar *v = tl_var_new(a, k, VAR_NAMES[p->nvars], VAR_LOOP, TY_INT32, loc);
    v->extent = extents[d];
    p->vars[p->nvars] = v;
    p->extents[p->nvars++] = extents[d];
  }
  if (p->nvars == 0) {
    TlVar *v = tl_var_new(a, k, "i", VAR_LOOP, TY_INT32, loc);
    v->extent = 1;
    p->vars[p->nvars] = v;
    p->extents[p->nvars++] = 1;
  }
  return p;
}

// The nest's coordinate of dimension d of `extents` (0 for a unit extent).
static TlExpr *coord(TlArena *a, const TlStmt *p, const int64_t *extents, int d, TlLoc loc) {
  if (p->nvars == 1 && p->extents[0] == 1 && d == 0) // all unit: the nest's one variable
    return tl_expr_var(a, loc, p->vars[0]);
  if (extents[d] == 1) return tl_expr_int(a, loc, 0, TY_INT32);
  int v = 0;
  for (int e = 0; e < d; e++)
    v += extents[e] != 1;
  return tl_expr_var(a, loc, p->vars[v]);
}

static TlExpr *offset(TlArena *a, TlExpr *start, TlExpr *x, TlLoc loc) {
  TlDtype t = start->dtype;
  return tl_simplify(a, tl_expr_binary(a, loc, OP_ADD, start, tl_expr_cast(a, loc, x, t), t));
}

static TlStmt *store(TlArena *a, TlBuffer *b, TlExpr **idx, int n, TlExpr *v, TlLoc loc) {
  TlStmt *s = tl_stmt_new(a, ST_STORE, loc);
  s->buf = b;
  s->indices = TL_NEW_ARRAY(a, TlExpr *, n);
  for (int i = 0; i < n; i++)
    s->indices[i] = idx[i];
  s->nindices = n;
  s->value = v;
  s->update_op = OP_EQ;
  return s;
}

// `acc = combine(acc, x)` with x = (t)loaded, through |x| for the abs
// reductions: one step of a serial reduction over a shared tile (the tree's
// strided partial sums and the plain loop share it).
static TlStmt *combine_step(TlArena *a, TlReduceKind kind, TlVar *acc, TlExpr *loaded, TlDtype t,
                            TlLoc loc) {
  TlExpr *x = tl_expr_cast(a, loc, loaded, t);
  if (kind == REDUCE_ABSSUM || kind == REDUCE_ABSMAX) {
    TlExpr *abs = tl_expr_new(a, EX_CALL, loc, t, 1);
    abs->fn = FN_ABS;
    abs->args[0] = x;
    x = abs;
  }
  TlStmt *step = tl_stmt_new(a, ST_SET, loc);
  step->var = acc;
  step->value = tl_reduce_combine(a, kind, tl_expr_var(a, loc, acc), x, loc);
  return step;
}

// The threads per output of the tree: a power of two up to the reduced
// extent, doubled while the outputs leave threads idle.
static int64_t tree_width(const TlKernel *k, const TlStmt *red) {
  int64_t threads = k->threads[0] * k->threads[1] * k->threads[2];
  int64_t outputs = 1, extent = red->src.extent[red->reduce_dim];
  for (int d = 0; d < red->src.ndims; d++)
    if (d != red->reduce_dim) outputs *= red->src.extent[d];
  int64_t g = 1;
  while (g * 2 <= extent && outputs * g < threads)
    g *= 2;
  return g;
}

static TlExpr *int_binary(TlArena *a, TlLoc loc, TlOp op, TlExpr *x, int64_t c) {
  return tl_expr_binary(a, loc, op, x, tl_expr_int(a, loc, c, TY_INT32), TY_INT32);
}

// The scratch coordinates of a nest over `ext` (ext[dim] replaced by the
// nest's own variable there or `at_dim`), offset by base.
static void nest_coords(TlArena *a, const TlStmt *p, const int64_t *ext, int n, TlExpr **out,
                        TlLoc loc) {
  for (int d = 0; d < n; d++)
    out[d] = coord(a, p, ext, d, loc);
}

// The tree: G threads per output (tree_width) each fold a strided part of
// the reduced dimension, then log2(G) halving steps combine the partials in
// a shared tile P (thread-sync separates the steps with barriers), and the
// destination takes P[.., 0, ..]:
//
//   for c.., t in T.Parallel(.., G, ..):          # t along dim
//       acc = init
//       for r in T.serial(ceil(R / G)):
//           if t + r * G < R: acc = op(acc, f(S[c.., t + r * G, ..]))
//       P[c.., t, ..] = acc
//   for h in G/2, G/4, .., 1:
//       for c.., t in T.Parallel(.., h, ..): P[c.., t] = op(P[c.., t], P[c.., t + h])
//   for j in T.Parallel(dst): D[j] = clear ? P[j.., 0] : op(D[j], P[j.., 0])
static void reduce_tree(TlArena *a, TlKernel *k, const TlStmt *red, TlBuffer *S,
                        TlExpr *const *sbase, TlVec *out) {
  TlLoc loc = red->loc;
  const TlRegion *src = &red->src, *dst = &red->dst;
  TlBuffer *D = dst->buf;
  TlDtype t = D->dtype;
  int dim = red->reduce_dim, n = src->ndims;
  int64_t G = tree_width(k, red), R = src->extent[dim];
  int64_t ext[TL_MAX_DIMS] = {0};
  for (int d = 0; d < n; d++)
    ext[d] = d == dim ? G : src->extent[d];

  TlBuffer *P = TL_NEW(a, TlBuffer);
  P->name = tl_arena_printf(a, "%s_tree%d", S->name, k->buffers.len);
  P->loc = loc;
  P->scope = SCOPE_SHARED;
  P->dtype = t;
  P->stages = 1;
  P->ndims = n;
  for (int d = 0; d < n; d++)
    P->shape[d] = ext[d];
  P->read = P->written = true;
  tl_vec_push(a, &k->buffers, P);

  // 1. strided partials
  TlStmt *part = nest(a, k, ext, n, loc);
  TlExpr *pc[TL_MAX_DIMS], *at[TL_MAX_DIMS];
  nest_coords(a, part, ext, n, pc, loc);
  TlVar *acc = tl_var_new(a, k, "acc", VAR_SCALAR, t, loc);
  TlStmt *init = tl_stmt_new(a, ST_LET, loc);
  init->var = acc;
  init->value = tl_reduce_init(a, red->reduce, t, loc);
  tl_vec_push(a, &part->body, init);
  TlStmt *loop = tl_stmt_new(a, ST_FOR, loc);
  loop->loop_kind = LOOP_SERIAL;
  loop->var = tl_var_new(a, k, "r", VAR_LOOP, TY_INT32, loc);
  loop->var->extent = (R + G - 1) / G;
  loop->start = tl_expr_int(a, loc, 0, TY_INT32);
  loop->stop = tl_expr_int(a, loc, (R + G - 1) / G, TY_INT32);
  loop->step = tl_expr_int(a, loc, 1, TY_INT32);
  TlExpr *along = tl_simplify(
      a, tl_expr_binary(a, loc, OP_ADD, pc[dim],
                        int_binary(a, loc, OP_MUL, tl_expr_var(a, loc, loop->var), G), TY_INT32));
  for (int d = 0; d < n; d++)
    at[d] = offset(a, sbase[d], d == dim ? along : pc[d], loc);
  TlStmt *step = combine_step(a, red->reduce, acc, tl_expr_load(a, loc, S, at, n), t, loc);
  if (R % G != 0) { // the last strided step runs past the extent for some t
    TlStmt *in = tl_stmt_new(a, ST_IF, loc);
    in->cond = tl_expr_binary(a, loc, OP_LT, along, tl_expr_int(a, loc, R, TY_INT32), TY_BOOL);
    tl_vec_push(a, &in->body, step);
    step = in;
  }
  tl_vec_push(a, &loop->body, step);
  tl_vec_push(a, &part->body, loop);
  tl_vec_push(a, &part->body, store(a, P, pc, n, tl_expr_var(a, loc, acc), loc));
  tl_vec_push(a, out, part);

  // 2. halving steps over the shared partials
  TlReduceKind fold = red->reduce == REDUCE_ABSSUM   ? REDUCE_SUM
                      : red->reduce == REDUCE_ABSMAX ? REDUCE_MAX
                                                     : red->reduce;
  for (int64_t h = G / 2; h >= 1; h /= 2) {
    int64_t hext[TL_MAX_DIMS] = {0};
    for (int d = 0; d < n; d++)
      hext[d] = d == dim ? h : ext[d];
    TlStmt *half = nest(a, k, hext, n, loc);
    TlExpr *hc[TL_MAX_DIMS], *far[TL_MAX_DIMS];
    nest_coords(a, half, hext, n, hc, loc);
    for (int d = 0; d < n; d++)
      far[d] = d == dim ? tl_simplify(a, int_binary(a, loc, OP_ADD, hc[d], h)) : hc[d];
    TlExpr *v = tl_reduce_combine(a, fold, tl_expr_load(a, loc, P, hc, n),
                                  tl_expr_load(a, loc, P, far, n), loc);
    tl_vec_push(a, &half->body, store(a, P, hc, n, v, loc));
    tl_vec_push(a, out, half);
  }

  // 3. the destination from P[.., 0, ..]
  TlStmt *fin = nest(a, k, dst->extent, dst->ndims, loc);
  TlExpr *didx[TL_MAX_DIMS];
  for (int d = 0; d < dst->ndims; d++)
    didx[d] = offset(a, dst->start[d], coord(a, fin, dst->extent, d, loc), loc);
  for (int d = 0, e = 0; d < n; d++) {
    if (d == dim) {
      at[d] = tl_expr_int(a, loc, 0, TY_INT32);
      continue;
    }
    // as in the serial lowering: dst dimension e holds src dimension d,
    // or is a unit dimension (a one-element destination)
    at[d] = e < dst->ndims && dst->extent[e] == src->extent[d] ? coord(a, fin, dst->extent, e, loc)
                                                               : tl_expr_int(a, loc, 0, TY_INT32);
    e++;
  }
  TlExpr *res = tl_expr_load(a, loc, P, at, n);
  if (!red->reduce_clear)
    res = tl_reduce_combine(a, fold, tl_expr_load(a, loc, D, didx, dst->ndims), res, loc);
  tl_vec_push(a, &fin->body, store(a, D, didx, dst->ndims, res, loc));
  tl_vec_push(a, out, fin);
}

void tl_reduce_via_shared(TlArena *a, TlKernel *k, const TlStmt *red, TlVec *out) {
  TlLoc loc = red->loc;
  const TlRegion *src = &red->src, *dst = &red->dst;
  TlBuffer *S = src->buf, *D = dst->buf;
  int dim = red->reduce_dim;

  // A shared source is read in place (the thread-sync pass puts the
  // barrier after whatever wrote it); others are first staged in a scratch
  // tile, so that every thread can read the elements other threads own.
  TlExpr *sbase[TL_MAX_DIMS];
  TlBuffer *scratch = S;
  if (S->scope == SCOPE_SHARED) {
    for (int d = 0; d < src->ndims; d++)
      sbase[d] = src->start[d];
    goto reduce_rows;
  }
  for (int d = 0; d < src->ndims; d++)
    sbase[d] = tl_expr_int(a, loc, 0, TY_INT32);
  scratch = TL_NEW(a, TlBuffer);
  scratch->name = tl_arena_printf(a, "%s_red%d", S->name, k->buffers.len);
  scratch->loc = loc;
  scratch->scope = SCOPE_SHARED;
  scratch->dtype = S->dtype;
  scratch->stages = 1;
  scratch->ndims = src->ndims;
  for (int d = 0; d < src->ndims; d++)
    scratch->shape[d] = src->extent[d];
  scratch->read = scratch->written = true;
  tl_vec_push(a, &k->buffers, scratch);

  // 1. every element of the source tile into the scratch tile
  TlStmt *fill = nest(a, k, src->extent, src->ndims, loc);
  TlExpr *sidx[TL_MAX_DIMS], *ridx[TL_MAX_DIMS];
  for (int d = 0; d < src->ndims; d++) {
    TlExpr *c = coord(a, fill, src->extent, d, loc);
    sidx[d] = offset(a, src->start[d], c, loc);
    ridx[d] = c;
  }
  tl_vec_push(a, &fill->body,
              store(a, scratch, ridx, src->ndims, tl_expr_load(a, loc, S, sidx, src->ndims), loc));
  tl_vec_push(a, out, fill);

reduce_rows:;
  if (tree_width(k, red) > 1) {
    reduce_tree(a, k, red, scratch, sbase, out);
    return;
  }
  // 2. each destination element reduced serially along `dim` by its owner
  //    (when there are at least as many outputs as threads)
  TlStmt *reduce = nest(a, k, dst->extent, dst->ndims, loc);
  TlExpr *didx[TL_MAX_DIMS];
  for (int d = 0; d < dst->ndims; d++)
    didx[d] = offset(a, dst->start[d], coord(a, reduce, dst->extent, d, loc), loc);
  TlDtype t = D->dtype;
  TlVar *acc = tl_var_new(a, k, "acc", VAR_SCALAR, t, loc);
  TlStmt *init = tl_stmt_new(a, ST_LET, loc);
  init->var = acc;
  init->value = red->reduce_clear ? tl_reduce_init(a, red->reduce, t, loc)
                                  : tl_expr_load(a, loc, D, didx, dst->ndims);
  tl_vec_push(a, &reduce->body, init);

  TlStmt *loop = tl_stmt_new(a, ST_FOR, loc);
  loop->loop_kind = LOOP_SERIAL;
  loop->var = tl_var_new(a, k, "r", VAR_LOOP, TY_INT32, loc);
  loop->var->extent = src->extent[dim];
  loop->start = tl_expr_int(a, loc, 0, TY_INT32);
  loop->stop = tl_expr_int(a, loc, src->extent[dim], TY_INT32);
  loop->step = tl_expr_int(a, loc, 1, TY_INT32);
  // The source coordinates: the reduced dimension is r, the others follow
  // the destination's nest in order.
  TlExpr *at[TL_MAX_DIMS];
  int64_t kept[TL_MAX_DIMS];
  int nk = 0;
  for (int d = 0; d < src->ndims; d++)
    if (d != dim) kept[nk++] = src->extent[d];
  for (int d = 0, e = 0; d < src->ndims; d++) {
    if (d == dim) {
      at[d] = tl_expr_var(a, loc, loop->var);
      continue;
    }
    // dst dimension e has src extent kept[e]; dst may hold it as a unit
    // dimension (a 1-element destination), then the coordinate is 0
    at[d] = e < dst->ndims && dst->extent[e] == kept[e] ? coord(a, reduce, dst->extent, e, loc)
                                                        : tl_expr_int(a, loc, 0, TY_INT32);
    e++;
  }
  for (int d = 0; d < src->ndims; d++)
    at[d] = offset(a, sbase[d], at[d], loc);
  TlStmt *step =
      combine_step(a, red->reduce, acc, tl_expr_load(a, loc, scratch, at, src->ndims), t, loc);
  tl_vec_push(a, &loop->body, step);
  tl_vec_push(a, &reduce->body, loop);
  tl_vec_push(a, &reduce->body, store(a, D, didx, dst->ndims, tl_expr_var(a, loc, acc), loc));
  tl_vec_push(a, out, reduce);
}

void tl_vec_splice(TlArena *a, TlVec *v, int i, const TlVec *with) {
  TlVec out = {0};
  for (int j = 0; j < v->len; j++) {
    if (j != i) {
      tl_vec_push(a, &out, v->items[j]);
      continue;
    }
    for (int w = 0; w < with->len; w++)
      tl_vec_push(a, &out, with->items[w]);
  }
  *v = out;
}

// dst = src element by element, over a T.Parallel nest of frag's shape:
// staging a fragment in shared memory and back.
static TlStmt *tile_copy(TlArena *a, TlKernel *k, const TlBuffer *frag, TlBuffer *dst,
                         TlBuffer *src, TlLoc loc) {
  TlStmt *copy = nest(a, k, frag->shape, frag->ndims, loc);
  copy->origin = ORIGIN_COPY;
  TlExpr *idx[TL_MAX_DIMS];
  for (int d = 0; d < frag->ndims; d++)
    idx[d] = coord(a, copy, frag->shape, d, loc);
  tl_vec_push(a, &copy->body,
              store(a, dst, idx, frag->ndims, tl_expr_load(a, loc, src, idx, frag->ndims), loc));
  return copy;
}

TlBuffer *tl_stage_in_shared(TlArena *a, TlKernel *k, TlBuffer *frag, TlLoc loc, TlVec *out) {
  TlBuffer *t = TL_NEW(a, TlBuffer);
  *t = *frag;
  t->name = tl_arena_printf(a, "%s_smem%d", frag->name, k->buffers.len);
  t->scope = SCOPE_SHARED;
  t->layout = NULL;
  t->swizzle = 0;
  t->loc = loc;
  t->read = t->written = true;
  tl_vec_push(a, &k->buffers, t);
  tl_vec_push(a, out, tile_copy(a, k, frag, t, frag, loc));
  return t;
}

void tl_unstage_from_shared(TlArena *a, TlKernel *k, TlBuffer *shared, TlBuffer *frag, TlLoc loc,
                            TlVec *out) {
  tl_vec_push(a, out, tile_copy(a, k, frag, frag, shared, loc));
}
