// Fragment layouts in closed form.
//
// GEMM_C (m x n tile, wm x wn warps, warp tile WM x WN, NI = WN / 8 atoms
// across): register l of thread tid (warp w = tid / 32, lane = tid % 32,
// wi = w / wn, wj = w % wn) holds
//   atom = l / 4, r = l % 4, mi = atom / NI, ni = atom % NI
//   row = wi*WM + mi*16 + lane/4 + 8*(r/2)
//   col = wj*WN + ni*8 + 2*(lane%4) + r%2
// which is mma.m16n8k16's c0..c3 per atom. A row of the tile is held by the
// 4 lanes with equal lane/4 in each of the wn warps of its warp row.
//
// GEMM_C with wgmma (the warpgroup accumulator, wn == 1, wm = 4 x warpgroups):
// each wgmma.m64nN covers a 64-row slab with one warpgroup, warp w of the
// group owning rows 16w..16w+15, so the warp slices interleave instead:
//   row = mi*(16*wm) + wi*16 + lane/4 + 8*(r/2),  col as above
// (PTX ISA, "Register fragments: wgmma .m64nNk16", accumulator D).
//
// ROWS (R x C, T threads, g threads per row (g > 32 only when R < T / 32:
// a row then spans g / 32 warps), P = T / g row groups, CPR =
// C / g registers per row, runs of V consecutive columns per thread):
// register l of thread tid holds, with w = l % CPR,
//   row = (l / CPR) * P + tid / g,
//   col = (w / V) * (g * V) + (tid % g) * V + w % V
// so a thread's V neighbouring registers are V neighbouring columns (one
// vector access) and consecutive threads take consecutive runs (coalesced).
//
// ROW_OF(parent): register lr holds the parent's row `lr` of that thread:
//   GEMM_C: row = wi*WM + (lr/2)*16 + lane/4 + 8*(lr%2)
//   ROWS:   row = lr * P + tid / g
#include "tlc/FragLayout.h"

static TlExpr *I(TlArena *a, TlLoc loc, int64_t v) {
  return tl_expr_int(a, loc, v, TY_INT32);
}
static TlExpr *bin(TlArena *a, TlLoc loc, TlOp op, TlExpr *x, TlExpr *y) {
  return tl_expr_binary(a, loc, op, x, y, TY_INT32);
}
static TlExpr *divc(TlArena *a, TlLoc loc, TlExpr *x, int64_t c) {
  return c == 1 ? x : bin(a, loc, OP_FLOORDIV, x, I(a, loc, c));
}
static TlExpr *modc(TlArena *a, TlLoc loc, TlExpr *x, int64_t c) {
  return c == 1 ? I(a, loc, 0) : bin(a, loc, OP_FLOORMOD, x, I(a, loc, c));
}
static TlExpr *mulc(TlArena *a, TlLoc loc, TlExpr *x, int64_t c) {
  return bin(a, loc, OP_MUL, x, I(a, loc, c));
}
static TlExpr *add(TlArena *a, TlLoc loc, TlExpr *x, TlExpr *y) {
  return bin(a, loc, OP_ADD, x, y);
}

TlFragLayout *tl_layout_gemm_c(TlArena *a, int64_t m, int64_t n, int64_t threads, int64_t wm,
                               int64_t wn) {
  TlFragLayout *l = TL_NEW(a, TlFragLayout);
  l->kind = LAYOUT_GEMM_C;
  l->rows = m, l->cols = n, l->threads = threads, l->wm = wm, l->wn = wn;
  l->locals = (m / wm / 16) * (n / wn / 8) * 4;
  return l;
}

TlFragLayout *tl_layout_wgmma_c(TlArena *a, int64_t m, int64_t n, int64_t threads) {
  TlFragLayout *l = tl_layout_gemm_c(a, m, n, threads, threads / 32, 1);
  l->wgmma = true;
  return l;
}

TlFragLayout *tl_layout_rows(TlArena *a, int64_t rows, int64_t cols, int64_t threads) {
  TlFragLayout *l = TL_NEW(a, TlFragLayout);
  l->kind = LAYOUT_ROWS;
  l->rows = rows, l->cols = cols, l->threads = threads;
  // Runs of 8 columns when the row allows (16 bytes of fp16/bf16 memory,
  // two 16-byte accesses of fp32), else 4, 2, 1; then as many threads per
  // row as divide the rest, up to a warp.
  int64_t v = cols % 8 == 0 ? 8 : cols % 4 == 0 ? 4 : cols % 2 == 0 ? 2 : 1;
  int64_t g = 1;
  while (g * 2 <= 32 && (cols / v) % (g * 2) == 0 && threads % (g * 2) == 0)
    g *= 2;
  // Fewer rows than row groups would leave warps idle (one 8192-wide row
  // over 128 threads): widen the groups past a warp while rows are short
  // of groups. A row then spans g / 32 warps, and its reduction ends with
  // a step through shared memory (PartitionFragment.c).
  while (g >= 32 && threads / g > rows && (cols / v) % (g * 2) == 0 && threads % (g * 2) == 0)
    g *= 2;
  l->g = g;
  l->vec = v;
  int64_t p = threads / g;
  l->locals = (rows + p - 1) / p * (cols / g);
  return l;
}

TlFragLayout *tl_layout_row_of(TlArena *a, const TlFragLayout *parent) {
  TlFragLayout *l = TL_NEW(a, TlFragLayout);
  l->kind = LAYOUT_ROW_OF;
  l->parent = parent;
  l->rows = parent->rows, l->cols = parent->cols, l->threads = parent->threads;
  l->locals = parent->kind == LAYOUT_GEMM_C ? (parent->rows / parent->wm / 16) * 2
                                            : (parent->rows + parent->threads / parent->g - 1) /
                                                  (parent->threads / parent->g);
  return l;
}

bool tl_layout_equal(const TlFragLayout *x, const TlFragLayout *y) {
  if (x == y)
    return true;
  if (!x || !y || x->kind != y->kind || x->rows != y->rows || x->cols != y->cols ||
      x->threads != y->threads)
    return false;
  if (x->kind == LAYOUT_GEMM_C)
    return x->wm == y->wm && x->wn == y->wn && x->wgmma == y->wgmma;
  if (x->kind == LAYOUT_ROW_OF)
    return tl_layout_equal(x->parent, y->parent);
  return x->g == y->g && x->vec == y->vec;
}

bool tl_layout_same_rows(const TlFragLayout *x, const TlFragLayout *y) {
  if (tl_layout_equal(x, y))
    return true;
  if (!x || !y || x->kind != y->kind || x->rows != y->rows || x->threads != y->threads)
    return false;
  if (x->kind == LAYOUT_GEMM_C)
    return x->wm == y->wm && x->wn == y->wn && x->wgmma == y->wgmma;
  if (x->kind == LAYOUT_ROWS)
    return x->g == y->g;
  return false;
}

const char *tl_layout_describe(TlArena *a, const TlFragLayout *l) {
  switch (l->kind) {
  case LAYOUT_GEMM_C:
    if (l->wgmma)
      return tl_arena_printf(a, "wgmma_c(%lldx%lld, %lld warpgroup%s, %lld regs)", (long long)l->rows,
                             (long long)l->cols, (long long)(l->wm / 4), l->wm > 4 ? "s" : "", (long long)l->locals);
    return tl_arena_printf(a, "gemm_c(%lldx%lld, warps %lldx%lld, %lld regs)", (long long)l->rows,
                           (long long)l->cols, (long long)l->wm, (long long)l->wn, (long long)l->locals);
  case LAYOUT_ROWS:
    return tl_arena_printf(a, "rows(%lldx%lld, %lld threads per row, runs of %lld, %lld regs)",
                           (long long)l->rows, (long long)l->cols, (long long)l->g, (long long)l->vec,
                           (long long)l->locals);
  case LAYOUT_ROW_OF:
    return tl_arena_printf(a, "row_of(%s, %lld regs)", tl_layout_describe(a, l->parent),
                           (long long)l->locals);
  default:
    return "none";
  }
}

// Row of a GEMM_C register = wi*warp_stride + mi*slab_stride + lane/4 + 8*(r/2).
static void gemm_c_row_strides(const TlFragLayout *l, int64_t *warp_stride, int64_t *slab_stride) {
  if (l->wgmma)
    *warp_stride = 16, *slab_stride = 16 * l->wm;
  else
    *warp_stride = l->rows / l->wm, *slab_stride = 16;
}

static void gemm_c_parts(TlArena *a, const TlFragLayout *l, TlExpr *tid, TlLoc loc, TlExpr **wi,
                         TlExpr **wj, TlExpr **lane) {
  TlExpr *warp = divc(a, loc, tid, 32);
  *wi = divc(a, loc, warp, l->wn);
  *wj = modc(a, loc, warp, l->wn);
  *lane = modc(a, loc, tid, 32);
}

void tl_layout_coords(TlArena *a, const TlFragLayout *l, TlExpr *tid, TlExpr *local,
                      TlExpr **coords, TlExpr **guard, TlLoc loc) {
  *guard = NULL;
  if (l->kind == LAYOUT_GEMM_C) {
    int64_t WN = l->cols / l->wn, NI = WN / 8, WS, SS;
    gemm_c_row_strides(l, &WS, &SS);
    TlExpr *wi, *wj, *lane;
    gemm_c_parts(a, l, tid, loc, &wi, &wj, &lane);
    TlExpr *atom = divc(a, loc, local, 4), *r = modc(a, loc, local, 4);
    TlExpr *row = add(a, loc, add(a, loc, mulc(a, loc, wi, WS), mulc(a, loc, divc(a, loc, atom, NI), SS)),
                      add(a, loc, divc(a, loc, lane, 4), mulc(a, loc, divc(a, loc, r, 2), 8)));
    TlExpr *col = add(a, loc, add(a, loc, mulc(a, loc, wj, WN), mulc(a, loc, modc(a, loc, atom, NI), 8)),
                      add(a, loc, mulc(a, loc, modc(a, loc, lane, 4), 2), modc(a, loc, r, 2)));
    coords[0] = tl_simplify(a, row);
    coords[1] = tl_simplify(a, col);
    return;
  }
  const TlFragLayout *p = l->kind == LAYOUT_ROW_OF ? l->parent : l;
  if (p->kind == LAYOUT_GEMM_C) { // ROW_OF(GEMM_C)
    int64_t WS, SS;
    gemm_c_row_strides(p, &WS, &SS);
    TlExpr *wi, *wj, *lane;
    gemm_c_parts(a, p, tid, loc, &wi, &wj, &lane);
    TlExpr *row = add(a, loc, add(a, loc, mulc(a, loc, wi, WS), mulc(a, loc, divc(a, loc, local, 2), SS)),
                      add(a, loc, divc(a, loc, lane, 4), mulc(a, loc, modc(a, loc, local, 2), 8)));
    coords[0] = tl_simplify(a, row);
    return;
  }
  int64_t g = p->g, P = p->threads / g, cpr = p->cols / g;
  TlExpr *rr = l->kind == LAYOUT_ROW_OF ? local : divc(a, loc, local, cpr);
  TlExpr *row = add(a, loc, mulc(a, loc, rr, P), divc(a, loc, tid, g));
  coords[0] = tl_simplify(a, row);
  if (l->kind == LAYOUT_ROWS)
  {
    int64_t v = p->vec > 0 ? p->vec : 1;
    TlExpr *w = modc(a, loc, local, cpr);
    coords[1] = tl_simplify(a, add(a, loc, add(a, loc, mulc(a, loc, divc(a, loc, w, v), g * v),
                                                mulc(a, loc, modc(a, loc, tid, g), v)),
                                   modc(a, loc, w, v)));
  }
  if (p->rows % P != 0)
    *guard = tl_expr_binary(a, loc, OP_LT, coords[0], I(a, loc, p->rows), TY_BOOL);
}

TlExpr *tl_layout_row_local(TlArena *a, const TlFragLayout *parent, TlExpr *parent_local,
                            TlLoc loc) {
  if (parent->kind == LAYOUT_GEMM_C) {
    int64_t NI = parent->cols / parent->wn / 8;
    TlExpr *mi = divc(a, loc, divc(a, loc, parent_local, 4), NI);
    return tl_simplify(a, add(a, loc, mulc(a, loc, mi, 2), divc(a, loc, modc(a, loc, parent_local, 4), 2)));
  }
  return tl_simplify(a, divc(a, loc, parent_local, parent->cols / parent->g));
}

TlExpr *tl_layout_primary_replica(TlArena *a, const TlFragLayout *row_of, TlExpr *tid, TlLoc loc) {
  const TlFragLayout *p = row_of->parent;
  if (p->kind == LAYOUT_GEMM_C) {
    TlExpr *wi, *wj, *lane;
    gemm_c_parts(a, p, tid, loc, &wi, &wj, &lane);
    TlExpr *c = tl_expr_binary(a, loc, OP_EQ, modc(a, loc, lane, 4), I(a, loc, 0), TY_BOOL);
    if (p->wn > 1)
      c = tl_expr_binary(a, loc, OP_AND, c, tl_expr_binary(a, loc, OP_EQ, wj, I(a, loc, 0), TY_BOOL), TY_BOOL);
    return c;
  }
  if (p->g == 1)
    return NULL;
  return tl_expr_binary(a, loc, OP_EQ, modc(a, loc, tid, p->g), I(a, loc, 0), TY_BOOL);
}

int tl_layout_row_shuffles(const TlFragLayout *parent, int64_t *offsets, bool *ok) {
  *ok = true;
  int n = 0;
  if (parent->kind == LAYOUT_GEMM_C) {
    if (parent->wn > 1)
      *ok = false;
    offsets[n++] = 2;
    offsets[n++] = 1;
    return n;
  }
  // A row over g > 32 threads: the shuffles combine each warp's share;
  // the warps are combined through shared memory by the caller.
  if (parent->g > 32) *ok = false;
  for (int64_t o = (parent->g > 32 ? 32 : parent->g) / 2; o >= 1; o /= 2)
    offsets[n++] = o;
  return n;
}
