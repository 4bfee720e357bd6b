// layout-inference: gives every fragment a layout (how its elements are
// spread over the block's threads), in TileLang's order:
//   1. T.gemm fixes its accumulator: the mma m16n8 atom, warps tiled over
//      the tile (as many warps along M as fit: rows stay inside a warp, so a
//      row reduction needs only lane shuffles). Shared A/B operands of a
//      tensor-core gemm get the 128-byte XOR swizzle.
//   2. Until nothing changes: a reduction's destination becomes ROW_OF its
//      source; a T.Parallel whose body indexes a fragment exactly by its
//      loop variables follows that fragment's layout, and gives it to the
//      other fragments it indexes the same way (2-D) or by its first variable
//      (1-D rows, replicated over the row's owners).
//   3. Fragments still without a layout get the ROWS layout (2-D first, then
//      step 2 again, then 1-D).
// Then every T.Parallel over fragments is checked: all its fragment accesses
// must agree with the layout it follows; a fragment whose accesses do not is
// staged through a shared copy for that nest (with a warning).
//
// A kernel split into warp ranges by thread-index branches (TileLang's
// `if tx < 32: ... else: ...`, thread bounds per branch) runs all of this
// once per range first, over the range's threads and the fragments it alone
// uses, then over the rest of the kernel with the ranges' bodies set aside.
#include <string.h>

#include "tlc/FragLayout.h"
#include "tlc/Occupancy.h"
#include "tlc/Passes.h"

typedef struct Ctx {
  TlArena *arena;
  TlKernel *kernel;
  const TlVec *kernel_body;
  TlDiag *diag;
  int64_t threads;
  const TlVec *only; // defaults: only fragments this body names (a warp range's)
  bool has_wgmma; // the target has wgmma (sm_90a)
  bool changed, ok;
} Ctx;

typedef struct Access {
  TlBuffer *buf;
  TlExpr **idx;
  int n;
  TlLoc loc;
} Access;

typedef struct Accesses {
  Access items[64];
  int n;
} Accesses;

static void collect_expr(const TlExpr *e, Accesses *acc) {
  if (!e)
    return;
  if (e->kind == EX_LOAD && e->buf->scope == SCOPE_FRAGMENT && acc->n < 64)
    acc->items[acc->n++] = (Access){e->buf, e->args, e->nargs, e->loc};
  for (int i = 0; i < e->nargs; i++)
    collect_expr(e->args[i], acc);
}

static void collect(const TlVec *body, Accesses *acc) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf && s->buf->scope == SCOPE_FRAGMENT && acc->n < 64)
      acc->items[acc->n++] = (Access){s->buf, s->indices, s->nindices, s->loc};
    for (int d = 0; d < s->nindices; d++)
      collect_expr(s->indices[d], acc);
    collect_expr(s->value, acc);
    collect_expr(s->cond, acc);
    collect(&s->body, acc);
    collect(&s->else_body, acc);
  }
}

// Is the access exactly (v0, v1, ...) of the nest, in order?
static bool direct(const Access *a, const TlStmt *nest) {
  if (a->n != nest->nvars)
    return false;
  for (int i = 0; i < a->n; i++)
    if (a->idx[i]->kind != EX_VAR || a->idx[i]->var != nest->vars[i])
      return false;
  return true;
}

// Is the access a 1-D fragment indexed by the nest's first variable of a 2-D nest?
static bool row_access(const Access *a, const TlStmt *nest) {
  return nest->nvars == 2 && a->n == 1 && a->buf->ndims == 1 && a->idx[0]->kind == EX_VAR &&
         a->idx[0]->var == nest->vars[0];
}

static void assign(Ctx *c, TlBuffer *b, const TlFragLayout *l) {
  if (!b->layout) {
    b->layout = l;
    c->changed = true;
  }
}

// The layout a nest follows: its first directly indexed fragment with one.
// Without one, a 2-D nest that reads a replicated row fragment R[i] follows
// the tile R's rows came from (RMSNorm's `x[i, j] * inv_rms[i]`).
static const TlFragLayout *nest_source(const TlStmt *nest, const Accesses *acc) {
  for (int i = 0; i < acc->n; i++)
    if (direct(&acc->items[i], nest) && acc->items[i].buf->layout)
      return acc->items[i].buf->layout;
  for (int i = 0; i < acc->n; i++) {
    const TlFragLayout *l = acc->items[i].buf->layout;
    if (row_access(&acc->items[i], nest) && l && l->kind == LAYOUT_ROW_OF &&
        nest->extents[0] <= l->parent->rows && nest->extents[1] <= l->parent->cols)
      return l->parent;
  }
  return NULL;
}

static void propagate_nest(Ctx *c, TlStmt *nest) {
  Accesses acc = {0};
  collect(&nest->body, &acc);
  const TlFragLayout *src = nest_source(nest, &acc);
  if (!src)
    return;
  for (int i = 0; i < acc.n; i++) {
    Access *a = &acc.items[i];
    // Only a fragment of the layout's own shape can take it.
    bool same_rows = a->buf->shape[0] == src->rows;
    if (direct(a, nest) && a->buf->ndims == nest->nvars && same_rows &&
        (a->buf->ndims == 1 || a->buf->shape[1] == src->cols))
      assign(c, a->buf, src);
    else if (row_access(a, nest) && src->kind != LAYOUT_ROW_OF && same_rows)
      assign(c, a->buf, tl_layout_row_of(c->arena, src));
  }
}

static void propagate(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_PARALLEL)
      propagate_nest(c, s);
    else if (s->kind == ST_REDUCE && s->src.buf->scope == SCOPE_FRAGMENT &&
             s->dst.buf->scope == SCOPE_FRAGMENT && s->src.buf->layout && s->reduce_dim == 1 &&
             s->src.buf->layout->kind != LAYOUT_ROW_OF)
      assign(c, s->dst.buf, tl_layout_row_of(c->arena, s->src.buf->layout));
    propagate(c, &s->body);
    propagate(c, &s->else_body);
  }
}

static bool mma_dtypes(const TlStmt *s) {
  TlDtype in = s->a->dtype;
  return (in == TY_FLOAT16 || in == TY_BFLOAT16) && s->c->dtype == TY_FLOAT32 &&
         s->a->scope == SCOPE_SHARED && s->b->scope == SCOPE_SHARED;
}

// Swizzle chunks per row for a shared operand read by ldmatrix: 8 for rows
// of 128 bytes or more, 4 for 64, 2 for 32, 0 (none) below.
static int swizzle_for(const TlBuffer *b) {
  int64_t row_bytes = b->shape[b->ndims - 1] * tl_dtype_bits(b->dtype) / 8;
  int64_t rows = tl_buffer_elems(b) / b->shape[b->ndims - 1];
  if (row_bytes % 16 != 0 || rows % 8 != 0)
    return 0; // the XOR key repeats every 8 rows: whole periods only
  // The key permutes chunks within groups of S, so S must divide the row's
  // chunks (48 columns = 6 chunks: groups of 2, not 4, or the last group's
  // chunks would land past the row: found by tlc-verify's bounds check).
  int64_t chunks = row_bytes / 16;
  return chunks % 8 == 0 ? 8 : chunks % 4 == 0 ? 4 : chunks % 2 == 0 ? 2 : 0;
}

// Is buffer b reduced along its rows anywhere in the body?
static bool reduced_later(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_REDUCE && s->src.buf == b)
      return true;
    if (reduced_later(&s->body, b) || reduced_later(&s->else_body, b))
      return true;
  }
  return false;
}

// Can a shared operand be read by wgmma through a descriptor? Its stored
// rows (the contiguous dimension, `cols` elements of 16 bits) must split
// into panels of 16, 32 or 64 columns (the 32, 64 and 128-byte swizzle
// modes), and its rows come in whole 8-row swizzle atoms.
static bool wgmma_operand_ok(const TlBuffer *b) {
  int64_t cols = b->shape[b->ndims - 1], rows = tl_buffer_elems(b) / cols;
  int64_t row_bytes = cols * tl_dtype_bits(b->dtype) / 8;
  if (b->wgmma_operand)
    return true;
  if (b->swizzle) // already an ldmatrix operand of an mma.sync gemm
    return false;
  return rows % 8 == 0 && (row_bytes == 32 || row_bytes == 64 || row_bytes % 128 == 0);
}

// A shared operand read by wgmma: stored in wgmma's canonical layout, panels
// of min(row, 128 bytes); swizzle = 16-byte chunks per panel row.
static void mark_wgmma_operand(TlBuffer *b) {
  int64_t row_bytes = b->shape[b->ndims - 1] * tl_dtype_bits(b->dtype) / 8;
  b->wgmma_operand = true;
  b->swizzle = (int)((row_bytes < 128 ? row_bytes : 128) / 16);
}

// The rule for T.gemm on wgmma (shown by --emit=plan and docs/passes.md):
// a target with wgmma; fp16/bf16 shared operands (fp8 ones K-major, K a
// multiple of 32) into an fp32 fragment;
// whole warpgroups, each taking 64-row slabs of C (M a multiple of 64 per
// warpgroup); K a multiple of 16; N a multiple of 8 (split into wgmma of at
// most 256 columns); operands whose rows fit the swizzle modes; and an
// accumulator that no earlier gemm laid out for mma.sync.
static const char *wgmma_refusal(const Ctx *c, const TlStmt *s) {
  int64_t M = s->c->shape[0], N = s->c->shape[1];
  int64_t K = s->trans_a ? s->a->shape[0] : s->a->shape[1];
  if (!c->has_wgmma)
    return "the target has no wgmma";
  bool fp8 = tl_dtype_is_fp8(s->a->dtype) && s->c->dtype == TY_FLOAT32 &&
             s->a->scope == SCOPE_SHARED && s->b->scope == SCOPE_SHARED;
  if ((!mma_dtypes(s) && !fp8) || s->a->dtype != s->b->dtype)
    return "wgmma takes float16/bfloat16/float8 shared operands into a float32 fragment";
  // PTX ISA, wgmma: only 16-bit operands may be MN-major (transposed).
  if (fp8 && (s->trans_a || !s->trans_b))
    return "wgmma reads float8 operands K-major only (A[M, K], and B[N, K] with transpose_B=True)";
  if (c->threads % 128 != 0)
    return "the block is not whole warpgroups (128 threads)";
  if (M % (64 * (c->threads / 128)) != 0)
    return "M is not a multiple of 64 per warpgroup";
  int64_t chunks = (N + 255) / 256;
  if (K % (fp8 ? 32 : 16) != 0 || N % (8 * chunks) != 0)
    return fp8 ? "K is not a multiple of 32 (float8) or N of 8" : "K is not a multiple of 16 or N of 8";
  if (!wgmma_operand_ok(s->a) || !wgmma_operand_ok(s->b))
    return "an operand's rows do not fit the wgmma swizzle modes";
  if (!s->trans_b && chunks > 1 && (N / chunks) % 64 != 0)
    return "an N chunk of an MN-major B would start inside a swizzle panel";
  if (s->c->layout && !(s->c->layout->kind == LAYOUT_GEMM_C && s->c->layout->wgmma))
    return "the accumulator already has another layout";
  return NULL;
}

// The same rule for a fragment A (register-A wgmma, attention's P.V): A must
// hold a wgmma accumulator of the same rows (its registers are the A operand
// of each k16 step: two n8 chunks of the D layout, packed two 16-bit values
// per register), fp16/bf16 like B, into an fp32 C of A's rows.
static const char *wgmma_rs_refusal(const Ctx *c, const TlStmt *s) {
  const TlFragLayout *A = s->a->layout;
  int64_t M = s->c->shape[0], N = s->c->shape[1], K = s->a->shape[1];
  int64_t chunks = (N + 255) / 256;
  if (!c->has_wgmma)
    return "the target has no wgmma";
  if (s->trans_a)
    return "transpose_A=True with a fragment A";
  if ((s->a->dtype != TY_FLOAT16 && s->a->dtype != TY_BFLOAT16) || s->a->dtype != s->b->dtype ||
      s->c->dtype != TY_FLOAT32 || s->b->scope != SCOPE_SHARED)
    return "a fragment A must be float16/bfloat16 like a shared B, with a float32 accumulator";
  if (A->rows != M || A->cols != K || K % 16 != 0 || N % (8 * chunks) != 0)
    return "the tile shape does not fit wgmma";
  if (!wgmma_operand_ok(s->b) || (!s->trans_b && chunks > 1 && (N / chunks) % 64 != 0))
    return "B's rows do not fit the wgmma swizzle modes";
  if (s->c->layout && !(s->c->layout->kind == LAYOUT_GEMM_C && s->c->layout->wgmma))
    return "the accumulator already has another layout";
  return NULL;
}

// The gemm at body[*at] needs the accumulator layout l, and its C already
// has another (a T.Parallel nest gave it a wgmma layout, or another gemm its
// own): the gemm accumulates into a copy of C laid out for it, moved in and
// out through shared memory, and *at moves past the statements added.
static void accumulate_in_copy(Ctx *c, TlVec *body, int *at, TlStmt *s, TlFragLayout *l) {
  TlBuffer *C = s->c;
  tl_warning(c->diag, s->loc,
             "accumulator '%s' already has the layout %s; this T.gemm needs %s, so it "
             "accumulates into a copy moved through shared memory before and after it",
             C->name, tl_layout_describe(c->arena, C->layout), tl_layout_describe(c->arena, l));
  TlBuffer *copy = TL_NEW(c->arena, TlBuffer);
  *copy = *C;
  copy->name = tl_arena_printf(c->arena, "%s_gemm%d", C->name, c->kernel->buffers.len);
  copy->layout = l;
  copy->loc = s->loc;
  copy->read = copy->written = true;
  tl_vec_push(c->arena, &c->kernel->buffers, copy);
  TlVec around = {0};
  TlBuffer *in = tl_stage_in_shared(c->arena, c->kernel, C, s->loc, &around);
  tl_unstage_from_shared(c->arena, c->kernel, in, copy, s->loc, &around);
  tl_vec_push(c->arena, &around, s);
  s->c = copy;
  TlBuffer *out = tl_stage_in_shared(c->arena, c->kernel, copy, s->loc, &around);
  tl_unstage_from_shared(c->arena, c->kernel, out, C, s->loc, &around);
  tl_vec_splice(c->arena, body, *at, &around);
  *at += around.len - 1;
  c->changed = true;
}

// The accumulator layout and operand swizzles of a gemm whose A and B are
// shared tiles (body[*at]).
static void gemm_shared_layout(Ctx *c, TlVec *body, int *at, TlStmt *s) {
  s->engine_why = wgmma_refusal(c, s);
  if (!s->engine_why) {
    TlFragLayout *l = tl_layout_wgmma_c(c->arena, s->c->shape[0], s->c->shape[1], c->threads);
    s->c->layout = l;
    s->use_wgmma = true;
    mark_wgmma_operand(s->a);
    mark_wgmma_operand(s->b);
    return;
  }
  {
    int64_t M = s->c->shape[0], N = s->c->shape[1];
    int64_t K = s->trans_a ? s->a->shape[0] : s->a->shape[1];
    int64_t warps = c->threads / 32;
    if (c->threads % 32 != 0 || warps < 1) {
      tl_error(c->diag, s->loc, "T.gemm needs a multiple of 32 threads (whole warps), the kernel has %lld",
               (long long)c->threads);
      c->ok = false;
      return;
    }
    TL_ASSERT("layout-inference", s->b->scope != SCOPE_FRAGMENT); // lower-tile-ops staged it in shared memory
    // Warp tiling: when the accumulator's rows are reduced later, all warps
    // go along M (a row stays inside one warp: lane shuffles suffice);
    // otherwise the tiling with the fewest ldmatrix per mma, i.e. the
    // smallest 1/NI + 1/(2 MI) for warp tiles of MI x NI atoms. A warp tile
    // whose accumulator and two k16 steps of fragments (double-buffered) fit
    // in the 255 registers of a thread wins over one that does not: at most
    // 128 accumulator registers per thread, a 64x64 warp tile, when some
    // tiling allows it.
    int64_t wm = 0, wn = 0;
    bool mma = mma_dtypes(s) && K % 16 == 0;
    bool rows_reduced = reduced_later(c->kernel_body, s->c);
    double best = 1e30;
    bool best_fits = false;
    for (int64_t m = warps; m >= 1; m--) {
      if (warps % m)
        continue;
      int64_t n = warps / m;
      if (M % (16 * m) != 0 || N % ((mma ? 16 : 8) * n) != 0 || (rows_reduced && n != 1))
        continue;
      double cost = 1.0 / (double)(N / n / 8) + 0.5 / (double)(M / m / 16);
      bool fits = (M / m) * (N / n) / 32 <= 128;
      if ((fits && !best_fits) || (fits == best_fits && cost < best - 1e-12)) {
        best = cost;
        best_fits = fits;
        wm = m, wn = n;
      }
    }
    if (!wm && rows_reduced) // rows spanning warps: reported when the reduction is lowered
      for (int64_t m = warps; m >= 1 && !wm; m--)
        if (warps % m == 0 && M % (16 * m) == 0 && N % ((mma ? 16 : 8) * (warps / m)) == 0)
          wm = m, wn = warps / m;
    if (!wm && mma) { // fall back to CUDA cores with the same 16x8 atoms
      mma = false;
      for (int64_t m = warps; m >= 1 && !wm; m--)
        if (warps % m == 0 && M % (16 * m) == 0 && N % (8 * (warps / m)) == 0)
          wm = m, wn = warps / m;
    }
    if (!wm) {
      tl_error(c->diag, s->loc, "the %lldx%lld accumulator of T.gemm cannot be tiled over %lld warps "
                                "with 16x8 atoms; make M a multiple of 16 and N of 8 per warp",
               (long long)M, (long long)N, (long long)warps);
      c->ok = false;
      return;
    }
    TlFragLayout *l = tl_layout_gemm_c(c->arena, M, N, c->threads, wm, wn);
    if (s->c->layout && !tl_layout_equal(s->c->layout, l))
      accumulate_in_copy(c, body, at, s, l);
    s->c->layout = l;
    s->use_mma = mma;
    if (mma) {
      s->a->swizzle = swizzle_for(s->a);
      s->b->swizzle = swizzle_for(s->b);
    }
  }
}

static void gemm_layouts(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len && c->ok; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    gemm_layouts(c, &s->body);
    gemm_layouts(c, &s->else_body);
    // A fragment A waits for gemm_rs_layouts, once it has its layout.
    if (s->kind == ST_GEMM && s->a->scope != SCOPE_FRAGMENT)
      gemm_shared_layout(c, body, &i, s);
  }
}

// Does s (at any depth) write b?
static bool writes_buffer(const TlStmt *s, const TlBuffer *b) {
  if ((s->buf == b && (s->kind == ST_STORE || s->kind == ST_VSTORE || s->kind == ST_CP_ASYNC)) ||
      (s->dst.buf == b && s->kind != ST_GEMM) || s->c == b)
    return true;
  for (int i = 0; i < s->body.len; i++)
    if (writes_buffer(TL_VEC_AT(s->body, TlStmt, i), b)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (writes_buffer(TL_VEC_AT(s->else_body, TlStmt, i), b)) return true;
  return false;
}

// The shared tile a fragment A was last filled from, whole, when neither has
// changed since: `T.copy(S_shared, acc_s_cast)` then `T.gemm(acc_s_cast, ...)`
// (TileLang's MLA decode). The gemm reads the tile itself then, instead of a
// staging copy of the fragment. NULL otherwise.
static TlBuffer *fragment_source(const TlVec *body, int at, const TlBuffer *frag, int *copy_at) {
  for (int j = at - 1; j >= 0; j--) {
    const TlStmt *p = TL_VEC_AT(*body, TlStmt, j);
    if (!writes_buffer(p, frag)) continue;
    if (p->kind != ST_PARALLEL || p->origin != ORIGIN_COPY || p->nvars != 2 || p->body.len != 1 ||
        p->extents[0] != frag->shape[0] || p->extents[1] != frag->shape[1])
      return NULL;
    const TlStmt *st = TL_VEC_AT(p->body, TlStmt, 0);
    const TlExpr *v = st->value;
    if (st->kind != ST_STORE || st->buf != frag || st->update_op != OP_EQ || st->nindices != 2 ||
        v->kind != EX_LOAD || v->nargs != 2 || v->buf->scope != SCOPE_SHARED ||
        v->buf->dtype != frag->dtype || v->buf->ndims != 2 || v->buf->stages > 1 ||
        v->buf->shape[0] != frag->shape[0] || v->buf->shape[1] != frag->shape[1])
      return NULL;
    for (int d = 0; d < 2; d++)
      if (st->indices[d]->kind != EX_VAR || st->indices[d]->var != p->vars[d] ||
          v->args[d]->kind != EX_VAR || v->args[d]->var != p->vars[d])
        return NULL;
    for (int q = j + 1; q < at; q++)
      if (writes_buffer(TL_VEC_AT(*body, TlStmt, q), v->buf)) return NULL;
    *copy_at = j;
    return v->buf;
  }
  return NULL;
}

// --- gemm operands that are regions of a larger shared tile, in place ---
// Sema copies a region operand (`K_s[stage, :, :]`, `Q_s[:, :D]`) into a
// tile of its own (region_tile) right before the gemm; the harness's
// reference keeps that. Once the tile's layout is known, the gemm reads the
// region where it is instead, when that is the same layout: whole rows of
// the source's last two dimensions, and either every column (a stage of a
// 3-D tile: each 2-D slice is laid out as a 2-D tile, Swizzle.c) or, on
// wgmma's panel layout, whole panels. The source then takes the tile's
// layout (it must have none yet, or the same), the gemm reads a view of it
// (alias_of) at an element offset, and the copy goes.

static bool expr_uses_buffer(const TlExpr *e, const TlBuffer *b) {
  if (!e) return false;
  if (e->buf == b) return true;
  for (int i = 0; i < e->nargs; i++)
    if (expr_uses_buffer(e->args[i], b)) return true;
  return false;
}

static bool stmt_uses_buffer(const TlStmt *s, const TlBuffer *b) {
  if (s->buf == b || s->a == b || s->b == b || s->c == b || s->src.buf == b || s->dst.buf == b)
    return true;
  for (int i = 0; i < s->nindices; i++)
    if (expr_uses_buffer(s->indices[i], b)) return true;
  if (expr_uses_buffer(s->value, b) || expr_uses_buffer(s->cond, b)) return true;
  for (int i = 0; i < s->body.len; i++)
    if (stmt_uses_buffer(TL_VEC_AT(s->body, TlStmt, i), b)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (stmt_uses_buffer(TL_VEC_AT(s->else_body, TlStmt, i), b)) return true;
  return false;
}

// p is `T[i, j] = X[lead..., i, j + c0]` over T's whole shape: the source X,
// its leading indices and the first column (an expression of neither i nor j).
static TlBuffer *region_copy_source(Ctx *c, const TlStmt *p, const TlBuffer *T, TlExpr **lead,
                                    TlExpr **c0) {
  if (p->kind != ST_PARALLEL || p->origin != ORIGIN_COPY || p->nvars != 2 || p->body.len != 1 ||
      p->extents[0] != T->shape[0] || p->extents[1] != T->shape[1])
    return NULL;
  const TlStmt *st = TL_VEC_AT(p->body, TlStmt, 0);
  const TlExpr *v = st->value;
  if (st->kind != ST_STORE || st->buf != T || st->update_op != OP_EQ || st->nindices != 2 ||
      v->kind != EX_LOAD || v->buf->scope != SCOPE_SHARED || v->buf->dtype != T->dtype ||
      v->buf->ndims < 2 || v->nargs != v->buf->ndims)
    return NULL;
  for (int d = 0; d < 2; d++)
    if (st->indices[d]->kind != EX_VAR || st->indices[d]->var != p->vars[d]) return NULL;
  int nd = v->nargs;
  for (int d = 0; d < nd - 2; d++) {
    if (tl_expr_uses_var(v->args[d], p->vars[0]) || tl_expr_uses_var(v->args[d], p->vars[1]))
      return NULL;
    lead[d] = v->args[d];
  }
  TlExpr *base;
  int64_t k, r0;
  const TlExpr *row = v->args[nd - 2], *col = v->args[nd - 1];
  if (tl_expr_uses_var(row, p->vars[1]) || tl_expr_uses_var(col, p->vars[0]) ||
      !tl_affine_in(c->arena, (TlExpr *)row, p->vars[0], &base, &k) || k != 1 ||
      !tl_expr_is_const(base, &r0) || r0 != 0 ||
      !tl_affine_in(c->arena, (TlExpr *)col, p->vars[1], c0, &k) || k != 1 ||
      tl_expr_uses_var(*c0, p->vars[0]) || tl_expr_uses_var(*c0, p->vars[1]))
    return NULL;
  return v->buf;
}

// A view of X with T's shape and layout (one per X, shape and layout).
static TlBuffer *region_view(Ctx *c, TlBuffer *X, const TlBuffer *T) {
  TlKernel *k = c->kernel;
  for (int i = 0; i < k->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->alias_of == X && b->shape[0] == T->shape[0] && b->shape[1] == T->shape[1] &&
        b->ndims == 2 && b->swizzle == T->swizzle && b->wgmma_operand == T->wgmma_operand)
      return b;
  }
  TlBuffer *v = TL_NEW(c->arena, TlBuffer);
  *v = (TlBuffer){.name = tl_arena_printf(c->arena, "%s_view%d", X->name, k->buffers.len),
                  .loc = T->loc, .scope = SCOPE_SHARED, .dtype = T->dtype, .ndims = 2,
                  .stages = 1, .alias_of = X, .swizzle = T->swizzle,
                  .wgmma_operand = T->wgmma_operand, .read = true};
  v->shape[0] = T->shape[0], v->shape[1] = T->shape[1];
  tl_vec_push(c->arena, &k->buffers, v);
  return v;
}

// Operand `which` (0: A, 1: B) of the gemm body[*at] in place; true when done.
static bool region_in_place(Ctx *c, TlVec *body, int *at, TlStmt *g, int which) {
  TlBuffer *T = which ? g->b : g->a;
  if (!T->region_tile || T->scope != SCOPE_SHARED || (which ? g->stage_b : g->stage_a)) return false;
  int j = *at - 1;
  while (j >= 0 && !writes_buffer(TL_VEC_AT(*body, TlStmt, j), T))
    j--;
  TlExpr *lead[TL_MAX_DIMS], *c0 = NULL;
  TlBuffer *X = j >= 0 ? region_copy_source(c, TL_VEC_AT(*body, TlStmt, j), T, lead, &c0) : NULL;
  if (!X || X->stages > 1 || X->alias_of || X->view_of || X->table) return false;
  for (int q = j + 1; q < *at; q++)
    if (writes_buffer(TL_VEC_AT(*body, TlStmt, q), X)) return false;
  int nd = X->ndims;
  int64_t R = X->shape[nd - 2], C = X->shape[nd - 1], w = T->shape[1];
  if (T->shape[0] != R) return false; // whole rows only
  int64_t pc = 0, zero;
  if (w != C) { // whole panels of wgmma's layout (the first column a known multiple of one)
    pc = (128 / tl_dtype_bits(T->dtype)) * T->swizzle;
    if (!T->wgmma_operand || !T->swizzle || w % pc || C % pc ||
        tl_known_alignment(c0, pc) % pc != 0)
      return false;
  } else if (!tl_expr_is_const(c0, &zero) || zero != 0) {
    return false;
  }
  if ((X->swizzle || X->wgmma_operand) &&
      (X->swizzle != T->swizzle || X->wgmma_operand != T->wgmma_operand))
    return false;
  TlLoc loc = g->loc;
  TlDtype t = TY_INT32;
  TlExpr *off = tl_expr_int(c->arena, loc, 0, t);
  if (pc) { // the first column's panel, times a panel's elements
    TlExpr *col = c0->dtype == t ? tl_expr_clone(c->arena, c0)
                                 : tl_expr_cast(c->arena, loc, tl_expr_clone(c->arena, c0), t);
    off = tl_expr_binary(
        c->arena, loc, OP_MUL,
        tl_expr_binary(c->arena, loc, OP_FLOORDIV, col, tl_expr_int(c->arena, loc, pc, t), t),
        tl_expr_int(c->arena, loc, R * pc, t), t);
  }
  int64_t stride = R * C;
  for (int d = nd - 3; d >= 0; d--) {
    TlExpr *ld = lead[d]->dtype == t ? tl_expr_clone(c->arena, lead[d])
                                     : tl_expr_cast(c->arena, loc, tl_expr_clone(c->arena, lead[d]), t);
    off = tl_expr_binary(c->arena, loc, OP_ADD, off,
                         tl_expr_binary(c->arena, loc, OP_MUL, ld, tl_expr_int(c->arena, loc, stride, t), t),
                         t);
    stride *= X->shape[d];
  }
  X->swizzle = T->swizzle;
  X->wgmma_operand = T->wgmma_operand;
  X->aliased = true; // no pipeline stages, no TMA maps under the view
  TlBuffer *V = region_view(c, X, T);
  if (which)
    g->b = V, g->offset_b = tl_simplify(c->arena, off);
  else
    g->a = V, g->offset_a = tl_simplify(c->arena, off);
  for (int q = j + 1; q < body->len; q++) // the copy goes
    body->items[q - 1] = body->items[q];
  body->len--;
  (*at)--;
  return true;
}

static void regions_in_place(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    regions_in_place(c, &s->body);
    regions_in_place(c, &s->else_body);
    if (s->kind != ST_GEMM) continue;
    region_in_place(c, body, &i, s, 0);
    region_in_place(c, body, &i, s, 1);
  }
}

// Region tiles no statement names any more (every gemm reads in place).
static void drop_unused_region_tiles(TlKernel *k) {
  int n = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    bool used = !b->region_tile;
    for (int j = 0; !used && j < k->body.len; j++)
      used = stmt_uses_buffer(TL_VEC_AT(k->body, TlStmt, j), b);
    if (used) k->buffers.items[n++] = b;
  }
  k->buffers.len = n;
}

// Does any statement of the kernel read b (a load, a gemm operand, a copy's source)?
static bool reads_in(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->a == b || s->b == b || s->src.buf == b) return true;
    for (int d = 0; d < s->nindices; d++)
      if (expr_uses_buffer(s->indices[d], b)) return true;
    if (expr_uses_buffer(s->value, b) || expr_uses_buffer(s->cond, b) ||
        expr_uses_buffer(s->start, b) || expr_uses_buffer(s->stop, b))
      return true;
    if (s->kind == ST_STORE && s->buf == b && s->update_op != OP_EQ) return true;
    if (s->kind == ST_GEMM && s->c == b) return true; // accumulates
    if (reads_in(&s->body, b) || reads_in(&s->else_body, b)) return true;
  }
  return false;
}

static bool kernel_reads(const TlKernel *k, const TlBuffer *b) {
  return reads_in(&k->body, b);
}

static bool kernel_names(const TlKernel *k, const TlBuffer *b) {
  for (int i = 0; i < k->body.len; i++)
    if (stmt_uses_buffer(TL_VEC_AT(k->body, TlStmt, i), b)) return true;
  return false;
}

static void drop_buffer(TlKernel *k, const TlBuffer *b) {
  int n = 0;
  for (int i = 0; i < k->buffers.len; i++)
    if (TL_VEC_AT(k->buffers, TlBuffer, i) != b) k->buffers.items[n++] = k->buffers.items[i];
  k->buffers.len = n;
}

// Is every write of frag in body a copy from shared or global memory (a
// T.copy into it, lowered to a copy nest), so no layout is forced on it from
// elsewhere? *any: it is written at all.
static bool written_from_memory(const TlVec *body, const TlBuffer *frag, bool *any) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *p = TL_VEC_AT(*body, TlStmt, i);
    if (!writes_buffer(p, frag)) continue;
    if (p->kind == ST_PARALLEL && p->origin == ORIGIN_COPY && p->body.len == 1) {
      const TlStmt *st = TL_VEC_AT(p->body, TlStmt, 0);
      if (st->kind == ST_STORE && st->buf == frag && st->update_op == OP_EQ && st->value &&
          st->value->kind == EX_LOAD && st->value->buf->scope != SCOPE_FRAGMENT &&
          st->value->buf->scope != SCOPE_LOCAL) {
        *any = true;
        continue;
      }
    }
    if (p->kind == ST_PARALLEL || p->kind == ST_COPY || p->kind == ST_GEMM || p->kind == ST_REDUCE ||
        p->kind == ST_STORE || p->kind == ST_FILL)
      return false;
    if (!written_from_memory(&p->body, frag, any) || !written_from_memory(&p->else_body, frag, any))
      return false;
  }
  return true;
}

// A fragment A with no layout yet, filled only by copies from memory
// (FlashMLA's `T.copy(Q_pe_shared, Q_pe_local)`): it takes the register-A
// wgmma layout (a wgmma accumulator's of M x K), so the gemm reads it from
// registers instead of a staging copy in shared memory. False (and no
// layout) where that gemm could not.
static bool give_register_a_layout(Ctx *c, TlStmt *s) {
  TlBuffer *A = s->a;
  int64_t M = s->c->shape[0], K = A->shape[1];
  bool any = false;
  if (A->layout || A->ndims != 2 || !c->has_wgmma || c->threads % 128 ||
      M != 64 * (c->threads / 128) || A->shape[0] != M ||
      !written_from_memory(&c->kernel->body, A, &any) || !any)
    return false;
  A->layout = tl_layout_wgmma_c(c->arena, M, K, c->threads);
  if (wgmma_rs_refusal(c, s)) {
    A->layout = NULL;
    return false;
  }
  c->changed = true;
  return true;
}

// T.gemm(A_frag, B_shared, C): A's registers are fed to mma.sync directly.
// The accumulator layout of an m16n8 atom is the A operand layout of half a
// k16 step, so A must be another gemm's accumulator layout (cast through a
// T.Parallel to fp16/bf16) with its rows in one warp (wn = 1); C then takes
// the same warp rows.
static void gemm_rs_layouts(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len && c->ok; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    gemm_rs_layouts(c, &s->body);
    gemm_rs_layouts(c, &s->else_body);
    if (s->kind != ST_GEMM || s->a->scope != SCOPE_FRAGMENT || (s->c->layout && (s->use_mma || s->use_wgmma)))
      continue;
    if (!s->a->layout) give_register_a_layout(c, s);
    const TlFragLayout *A = s->a->layout;
    int64_t M = s->c->shape[0], N = s->c->shape[1], K = s->a->shape[1];
    int64_t warps = c->threads / 32;
    const char *why = NULL;
    if (A && A->kind == LAYOUT_GEMM_C && A->wgmma && !(why = wgmma_rs_refusal(c, s))) {
      // Register-A wgmma: A's accumulator registers are the A operand.
      if (!s->c->layout)
        c->changed = true;
      s->c->layout = tl_layout_wgmma_c(c->arena, M, N, c->threads);
      s->use_wgmma = true;
      s->engine_why = NULL;
      mark_wgmma_operand(s->b);
      continue;
    }
    if (why)
      ;
    else if (s->trans_a)
      why = "transpose_A=True with a fragment A";
    else if (!A || A->kind != LAYOUT_GEMM_C)
      why = "its fragment A does not hold another T.gemm's accumulator layout";
    else if (A->wn != 1)
      why = "the rows of its fragment A are split across warps";
    else if ((s->a->dtype != TY_FLOAT16 && s->a->dtype != TY_BFLOAT16) || s->a->dtype != s->b->dtype ||
             s->c->dtype != TY_FLOAT32)
      why = "a fragment A must be float16/bfloat16 like B, with a float32 accumulator";
    else if (K % 16 != 0 || N % (16 * (warps / A->wm)) != 0)
      why = "the tile shape does not fit the mma atoms";
    if (!why)
      s->engine_why = c->has_wgmma ? "a fragment A that is an mma.sync accumulator" : "the target has no wgmma";
    int copy_at = -1;
    TlBuffer *src = why && !s->trans_a ? fragment_source(body, i, s->a, &copy_at) : NULL;
    if (src) { // the tile A was copied from, unchanged: the gemm reads it
      TlBuffer *frag = s->a;
      s->a = src;
      if (!kernel_reads(c->kernel, frag)) { // the copy into the fragment is dead now
        for (int q = copy_at + 1; q < body->len; q++)
          body->items[q - 1] = body->items[q];
        body->len--;
        i--;
        if (!kernel_names(c->kernel, frag)) drop_buffer(c->kernel, frag);
      }
      gemm_shared_layout(c, body, &i, s);
      c->changed = true;
      continue;
    }
    if (why) {
      // Registers cannot feed mma.sync here: stage A in a shared tile
      // right before the gemm (a copy nest that follows A's layout).
      TlVec two = {0};
      s->a = tl_stage_in_shared(c->arena, c->kernel, s->a, s->loc, &two);
      tl_vec_push(c->arena, &two, s);
      tl_vec_splice(c->arena, body, i, &two);
      i++;
      gemm_shared_layout(c, body, &i, s);
      c->changed = true;
      continue;
    }
    TlFragLayout *l = tl_layout_gemm_c(c->arena, M, N, c->threads, A->wm, warps / A->wm);
    if (s->c->layout && !tl_layout_equal(s->c->layout, l))
      accumulate_in_copy(c, body, &i, s, l);
    if (!s->c->layout)
      c->changed = true;
    s->c->layout = l;
    s->use_mma = true;
    s->b->swizzle = swizzle_for(s->b);
  }
}

static void defaults(Ctx *c, int ndims) {
  for (int i = 0; i < c->kernel->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(c->kernel->buffers, TlBuffer, i);
    if (b->scope != SCOPE_FRAGMENT || b->layout || b->ndims != ndims)
      continue;
    if (c->only) {
      bool named = false;
      for (int j = 0; j < c->only->len && !named; j++)
        named = stmt_uses_buffer(TL_VEC_AT(*c->only, TlStmt, j), b);
      if (!named) continue;
    }
    b->layout = tl_layout_rows(c->arena, b->shape[0], ndims == 2 ? b->shape[1] : 1, c->threads);
    c->changed = true;
  }
}

static bool reads_expr(const TlExpr *e, const TlBuffer *b) {
  if (!e) return false;
  if (e->kind == EX_LOAD && e->buf == b) return true;
  for (int i = 0; i < e->nargs; i++)
    if (reads_expr(e->args[i], b)) return true;
  return false;
}

static void rename_expr(TlExpr *e, const TlBuffer *from, TlBuffer *to) {
  if (!e) return;
  if (e->kind == EX_LOAD && e->buf == from) e->buf = to;
  for (int i = 0; i < e->nargs; i++)
    rename_expr(e->args[i], from, to);
}

// Does the body read / store `b`?
static void uses(const TlVec *body, const TlBuffer *b, bool *read, bool *written) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    *written = *written || (s->kind == ST_STORE && s->buf == b);
    for (int d = 0; d < s->nindices; d++)
      *read = *read || reads_expr(s->indices[d], b);
    // an update store (x[i] += v) reads its target too
    *read = *read || reads_expr(s->value, b) || reads_expr(s->cond, b) ||
            (s->kind == ST_STORE && s->buf == b && s->update_op != OP_EQ);
    uses(&s->body, b, read, written);
    uses(&s->else_body, b, read, written);
  }
}

// Loads of `from` become loads of `in`, stores to it stores to `out`.
static void rename_buffer(TlVec *body, const TlBuffer *from, TlBuffer *in, TlBuffer *out) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_STORE && s->buf == from) s->buf = out;
    for (int d = 0; d < s->nindices; d++)
      rename_expr(s->indices[d], from, in);
    rename_expr(s->value, from, in);
    rename_expr(s->cond, from, in);
    rename_buffer(&s->body, from, in, out);
    rename_buffer(&s->else_body, from, in, out);
  }
}

static void check_nests(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len && c->ok; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    check_nests(c, &s->body);
    check_nests(c, &s->else_body);
    if (s->kind != ST_PARALLEL)
      continue;
    Accesses acc = {0};
    collect(&s->body, &acc);
    if (acc.n == 0)
      continue;
    if (s->layout) {
      tl_error(c->diag, s->loc, "loop_layout= on a T.Parallel over fragments; the loop follows the "
                                "fragment's layout");
      c->ok = false;
      return;
    }
    const TlFragLayout *src = nest_source(s, &acc);
    // Fragments this nest indexes in a way its layout does not fit (a
    // transposed read, a 1-D fragment indexed by the second variable, a
    // fragment whose layout follows another tile's rows) are staged through
    // a shared copy for this nest, as a TileLang user would by hand:
    // copy in before, the nest reads and writes the copy, copy back after
    // when it writes it. Thread-sync puts the barriers between them.
    TlBuffer *staged[64];
    int nstaged = 0;
    for (int k = 0; k < acc.n; k++) {
      Access *a = &acc.items[k];
      bool fits = src && ((direct(a, s) && tl_layout_equal(a->buf->layout, src)) ||
                          (row_access(a, s) && a->buf->layout && a->buf->layout->kind == LAYOUT_ROW_OF &&
                           tl_layout_same_rows(a->buf->layout->parent, src)));
      bool seen = false;
      for (int q = 0; q < nstaged; q++)
        seen = seen || staged[q] == a->buf;
      if (!fits && !seen) {
        staged[nstaged++] = a->buf;
        if (s->origin != ORIGIN_REDUCE) // a reduction's own nests stage quietly
          tl_warning(c->diag, a->loc,
                     "fragment '%s' is staged through shared memory for this T.Parallel: no "
                     "single layout fits its accesses here",
                     a->buf->name);
      }
    }
    if (nstaged == 0) continue;
    TlVec around = {0}, after = {0};
    for (int q = 0; q < nstaged; q++) {
      // Reads see the values from before the nest, so a nest that reads and
      // writes the fragment (F[i, j] = F[j, i]) writes a second copy.
      TlBuffer *frag = staged[q];
      bool read = false, written = false;
      uses(&s->body, frag, &read, &written);
      TlBuffer *in = tl_stage_in_shared(c->arena, c->kernel, frag, s->loc, &around);
      TlBuffer *out = in;
      if (read && written) out = tl_stage_in_shared(c->arena, c->kernel, frag, s->loc, &around);
      rename_buffer(&s->body, frag, in, out);
      if (written) tl_unstage_from_shared(c->arena, c->kernel, out, frag, s->loc, &after);
    }
    tl_vec_push(c->arena, &around, s);
    for (int q = 0; q < after.len; q++)
      tl_vec_push(c->arena, &around, TL_VEC_AT(after, TlStmt, q));
    tl_vec_splice(c->arena, body, i, &around);
    i += around.len - 1;
  }
}

static void check_reduces(Ctx *c, TlVec *body) {
  for (int i = 0; i < body->len && c->ok; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    check_reduces(c, &s->body);
    check_reduces(c, &s->else_body);
    if (s->kind != ST_REDUCE)
      continue;
    if (s->src.buf->scope != SCOPE_FRAGMENT || s->dst.buf->scope != SCOPE_FRAGMENT ||
        s->src.buf->ndims != 2 || s->reduce_dim != 1) {
      static const char *names[] = {"sum", "max", "min", "abssum", "absmax"};
      tl_error(c->diag, s->loc, "T.reduce_%s is supported from a 2-D fragment along dim=1 into a "
                                "1-D fragment; copy other tiles into fragments first", names[s->reduce]);
      c->ok = false;
      return;
    }
    // The register path needs the destination to hold the source's rows
    // and each row in one warp, in whole warps of a rows layout, or in the
    // wn warps of an mma accumulator's warp row (shuffles,
    // then a step through shared memory across the row's warps); otherwise
    // the reduction goes through shared memory (ViaShared.c), whose nests
    // follow the layouts as they are. Its lane shuffles name all 32 lanes,
    // so in a block with a partial last warp (threads=48) only a reduction
    // without shuffles (one thread per row) stays in registers.
    const TlFragLayout *d = s->dst.buf->layout, *src = s->src.buf->layout;
    int64_t offs[8];
    bool in_warp = false;
    if (d && d->kind == LAYOUT_ROW_OF && tl_layout_same_rows(d->parent, src)) {
      int shuffles = tl_layout_row_shuffles(src, offs, &in_warp);
      in_warp = in_warp && (c->threads % 32 == 0 || shuffles == 0);
      if (src->kind == LAYOUT_ROWS && src->g > 32) // whole warps per row
        in_warp = true;
      if (src->kind == LAYOUT_GEMM_C && !src->wgmma && src->wn > 1 && c->threads % 32 == 0)
        in_warp = true; // quad shuffles, then the warps of a row through shared memory
    }
    if (!in_warp) {
      TlVec two = {0};
      tl_reduce_via_shared(c->arena, c->kernel, s, &two);
      tl_vec_splice(c->arena, body, i, &two);
      i += two.len - 1;
    }
  }
}

// Layouts for the fragments of one body over c->threads.
static void infer_layouts(Ctx *c, TlVec *body) {
  gemm_layouts(c, body);
  for (int phase = 0; phase < 3 && c->ok; phase++) {
    do {
      c->changed = false;
      propagate(c, body);
      if (phase == 0)
        gemm_rs_layouts(c, body);
    } while (c->changed && c->ok);
    if (phase == 0)
      defaults(c, 2);
    else if (phase == 1)
      defaults(c, 1);
  }
  if (c->ok)
    regions_in_place(c, body);
}

// Then the checks of its reductions and nests, and their stagings.
static void infer_checks(Ctx *c, TlVec *body) {
  if (c->ok) // first: it may turn reductions into nests, which check_nests checks
    check_reduces(c, body);
  if (c->ok)
    check_nests(c, body);
}

static void set_bodies(TlStmt **ranges, const TlVec *bodies, int n) {
  for (int r = 0; r < n; r++)
    ranges[r]->body = bodies ? bodies[r] : (TlVec){0};
}

enum { MAX_RANGES = 64 };

// The warp ranges of a kernel split by thread-index branches (scopes smaller
// than the kernel's partition, which is then the whole block).
static void find_ranges(const TlKernel *k, TlVec *body, TlStmt **out, int *n) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_IF && s->group_threads && s->group_threads < k->threads[0]) {
      if (*n < MAX_RANGES) out[*n] = s;
      ++*n;
      continue;
    }
    find_ranges(k, &s->body, out, n);
    find_ranges(k, &s->else_body, out, n);
  }
}

// Each range's fragments are laid out over its threads; a fragment it
// shares with the rest of the kernel would need two layouts.
static void infer_ranges(Ctx *c, TlStmt **ranges, int n, TlVec *hidden) {
  TlKernel *k = c->kernel;
  for (int r = 0; r < n && c->ok; r++) {
    TlStmt *g = ranges[r];
    hidden[r] = g->body;
    g->body = (TlVec){0};
    for (int i = 0; i < k->buffers.len && c->ok; i++) {
      TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
      bool inside = false;
      for (int j = 0; j < hidden[r].len && !inside; j++)
        inside = stmt_uses_buffer(TL_VEC_AT(hidden[r], TlStmt, j), b);
      if (b->scope != SCOPE_FRAGMENT || !inside || !kernel_names(k, b)) continue;
      tl_error(c->diag, b->loc, "fragment '%s' is used inside the branch of threads %lld..%lld and "
                                "outside it",
               b->name, (long long)g->group_lo, (long long)(g->group_lo + g->group_threads - 1));
      tl_note(c->diag, g->loc, "a branch on the thread index lays its fragments out over its own "
                               "%lld threads; pass values out through shared memory",
              (long long)g->group_threads);
      c->ok = false;
    }
    g->body = hidden[r];
    if (!c->ok) break;
    int64_t saved = k->threads[0];
    k->threads[0] = g->group_threads;
    c->threads = g->group_threads;
    c->only = &g->body;
    c->kernel_body = &g->body;
    infer_layouts(c, &g->body);
    infer_checks(c, &g->body);
    hidden[r] = g->body; // as the stagings left it, for the main run to set aside
    k->threads[0] = saved;
    c->only = NULL;
  }
}

bool tl_layout_inference(TlArena *a, TlModule *m, TlDiag *d) {
  Ctx c = {.arena = a, .diag = d, .ok = true};
  for (int k = 0; k < m->kernels.len && c.ok; k++) {
    c.kernel = TL_VEC_AT(m->kernels, TlKernel, k);
    bool any = false;
    for (int i = 0; i < c.kernel->buffers.len; i++) {
      TlBuffer *b = TL_VEC_AT(c.kernel->buffers, TlBuffer, i);
      if (b->scope == SCOPE_FRAGMENT) {
        any = true;
        if (b->ndims > 2) {
          tl_error(d, b->loc, "fragments of more than 2 dimensions are not supported yet");
          c.ok = false;
        }
      }
    }
    c.threads = c.kernel->threads[0] * c.kernel->threads[1] * c.kernel->threads[2];
    c.kernel_body = &c.kernel->body;
    if (!any) {
      check_reduces(&c, &c.kernel->body);
      continue;
    }
    if (!c.ok)
      continue;
    c.has_wgmma = m->has_wgmma;
    tl_shift_fragment_nests(a, c.kernel);
    TlStmt *ranges[MAX_RANGES];
    TlVec hidden[MAX_RANGES];
    int nranges = 0;
    if (tl_kernel_warp_ranges(c.kernel))
      find_ranges(c.kernel, &c.kernel->body, ranges, &nranges);
    if (nranges > MAX_RANGES) {
      tl_error(d, c.kernel->loc, "more than %d thread-index branches with tile work in one kernel",
               MAX_RANGES);
      c.ok = false;
      continue;
    }
    infer_ranges(&c, ranges, nranges, hidden);
    if (!c.ok)
      continue;
    // The rest of the kernel, the ranges' bodies set aside.
    c.threads = c.kernel->threads[0] * c.kernel->threads[1] * c.kernel->threads[2];
    c.kernel_body = &c.kernel->body;
    set_bodies(ranges, NULL, nranges);
    infer_layouts(&c, &c.kernel->body);
    set_bodies(ranges, hidden, nranges);
    if (c.ok)
      drop_unused_region_tiles(c.kernel);
    set_bodies(ranges, NULL, nranges);
    infer_checks(&c, &c.kernel->body);
    set_bodies(ranges, hidden, nranges);
    if (c.ok) tl_check_fragment_registers(c.kernel, d);
  }
  return c.ok;
}
