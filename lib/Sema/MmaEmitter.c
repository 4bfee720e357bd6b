// TileLang's TensorCoreIntrinEmitter in kernels: the warp-level MMA helper of
// tilelang/cuda/intrinsics/macro/mma_macro_generator.py, whose methods a
// kernel calls on per-thread local buffers:
//
//   mma_emitter = TensorCoreIntrinEmitter(a_dtype=T.float16, ..., chunk=32)
//   ...
//   mma_emitter.ldmatrix_a(A_local, A_shared, ki)   # A's mma fragments
//   mma_emitter.ldmatrix_b(B_local, B_shared, ki)   # B's
//   mma_emitter.mma(A_local, B_local, C_local)      # C += A B, per warp tile
//   mma_emitter.stmatrix(C_local, C_shared)         # C's fragments to a tile
//
// Each method lowers to per-thread statements with TileLang's thread and
// register layout, so a kernel that reads or writes the local buffers itself
// (dequantizing B_local, scaling C_local) sees the same elements: thread t
// is lane t % 32 of warp t / 32, warp_m = warp % block_row_warps and warp_n
// = warp / block_row_warps % block_col_warps (is_m_first swaps them); an
// m16n8kK atom holds A as rows lane / 4 (+8) and K-pairs (lane % 4) of 32-bit
// words, B as columns lane / 4 (+8 for the second n8 half), C as rows
// lane / 4 (+8) and column pairs (lane % 4) * 2 (PTX ISA, "Matrix fragments
// for mma.m16n8k16 / mma.m16n8k32"). The fragment loads are element loads
// (the values ldmatrix would give, a little slower); each atom is one ST_MMA
// statement (mma.sync). Supported: float16 / bfloat16 into float32 (k16),
// int8 into int32 and float8 into float32 (k32), reduce_k 1, no thread_var.
#include <string.h>

#include "SemaInternal.h"

typedef struct {
  TlDtype a, b, acc;
  bool a_trans, b_trans, m_first;
  int64_t row_warps, col_warps, warp_row_tiles, warp_col_tiles, chunk;
  int64_t k_dim, n_dim, warp_rows, warp_cols, lsa, lsb, lso;
} MmaConfig;

static bool setting_int(Sema *s, const TlValue *v, const char *what, TlLoc loc, int64_t *out) {
  if (v->kind != VAL_INT && v->kind != VAL_BOOL) {
    tl_error(s->diag, loc, "TensorCoreIntrinEmitter's %s must be an integer", what);
    return false;
  }
  *out = v->i;
  return true;
}

static bool config_of(Sema *s, const TlValue *em, TlLoc loc, MmaConfig *c) {
  const TlValue *const *v = (const TlValue *const *)em->items.items;
  memset(c, 0, sizeof *c);
  if (!tl_value_as_dtype(s, v[0], &c->a) || !tl_value_as_dtype(s, v[1], &c->b) ||
      !tl_value_as_dtype(s, v[2], &c->acc))
    return false;
  int64_t at, bt, reduce_k, mf;
  if (!setting_int(s, v[3], "a_transposed", loc, &at) ||
      !setting_int(s, v[4], "b_transposed", loc, &bt) ||
      !setting_int(s, v[5], "block_row_warps", loc, &c->row_warps) ||
      !setting_int(s, v[6], "block_col_warps", loc, &c->col_warps) ||
      !setting_int(s, v[7], "warp_row_tiles", loc, &c->warp_row_tiles) ||
      !setting_int(s, v[8], "warp_col_tiles", loc, &c->warp_col_tiles) ||
      !setting_int(s, v[9], "chunk", loc, &c->chunk) ||
      !setting_int(s, v[10], "reduce_k", loc, &reduce_k) ||
      !setting_int(s, v[12], "is_m_first", loc, &mf))
    return false;
  c->a_trans = at, c->b_trans = bt, c->m_first = mf;
  bool half = (c->a == TY_FLOAT16 || c->a == TY_BFLOAT16) && c->acc == TY_FLOAT32;
  bool int8 = c->a == TY_INT8 && c->acc == TY_INT32;
  bool fp8 = tl_dtype_is_fp8(c->a) && c->acc == TY_FLOAT32;
  if (c->a != c->b || !(half || int8 || fp8)) {
    tl_error(s->diag, loc,
             "tlc's TensorCoreIntrinEmitter takes float16 or bfloat16 operands into float32, int8 "
             "into int32 or float8 into float32 (a_dtype %s, b_dtype %s, accum_dtype %s)",
             tl_dtype_name(c->a), tl_dtype_name(c->b), tl_dtype_name(c->acc));
    return false;
  }
  if (reduce_k != 1 || v[13]->kind != VAL_NONE) {
    tl_error(s->diag, loc, "tlc's TensorCoreIntrinEmitter takes reduce_k=1 and no thread_var");
    return false;
  }
  if ((c->a_trans && !half) || (!c->b_trans && !half)) {
    tl_error(s->diag, loc,
             "8-bit TensorCoreIntrinEmitter operands must be K-major "
             "(a_transposed=False, b_transposed=True)");
    return false;
  }
  c->k_dim = 256 / tl_dtype_bits(c->a);
  if (c->chunk < c->k_dim) c->k_dim = c->chunk;
  if (c->k_dim != (half ? 16 : 32) || c->chunk % c->k_dim || c->warp_row_tiles < 16 ||
      c->warp_row_tiles % 16 || c->warp_col_tiles < 8 || c->warp_col_tiles % 8 ||
      c->row_warps < 1 || c->col_warps < 1 || c->row_warps * c->col_warps > 32 ||
      c->warp_row_tiles > 4096 || c->warp_col_tiles > 4096 || c->chunk > 4096) {
    tl_error(s->diag, loc,
             "TensorCoreIntrinEmitter needs chunk a multiple of %d, warp_row_tiles of 16 and "
             "warp_col_tiles of 8 (each at most 4096), and 1 to 32 warps",
             half ? 16 : 32);
    return false;
  }
  c->n_dim = c->warp_col_tiles % 16 == 0 ? 16 : 8;
  c->warp_rows = c->warp_row_tiles / 16;
  c->warp_cols = c->warp_col_tiles / c->n_dim;
  c->lsa = 16 * c->k_dim / 32;
  c->lsb = c->n_dim * c->k_dim / 32;
  c->lso = 16 * c->n_dim / 32;
  return true;
}

typedef struct {
  Sema *s;
  TlLoc loc;
  TlExpr *lane, *warp_m, *warp_n;
} Threads;

static TlExpr *num(const Threads *t, int64_t v) {
  return tl_expr_int(t->s->arena, t->loc, v, TY_INT32);
}

static bool is_int(const TlExpr *e, int64_t v) {
  return e->kind == EX_INT && e->ival == v;
}

// a op b, without the terms of the layout formulas that vanish (+ 0, * 1, % 1).
static TlExpr *bin(const Threads *t, TlOp op, TlExpr *a, TlExpr *b) {
  if (op == OP_ADD && is_int(a, 0)) return b;
  if ((op == OP_ADD && is_int(b, 0)) || ((op == OP_MUL || op == OP_FLOORDIV) && is_int(b, 1)))
    return a;
  if (op == OP_MUL && is_int(a, 1)) return b;
  if ((op == OP_FLOORMOD && is_int(b, 1)) || (op == OP_MUL && (is_int(a, 0) || is_int(b, 0))))
    return num(t, 0);
  return tl_sema_fold(t->s, tl_expr_binary(t->s->arena, t->loc, op, a, b, TY_INT32));
}

// The thread index: the call's thread_bindings= (older TileLang), else the
// block's threadIdx.x.
static bool threads_of(Sema *s, const MmaConfig *c, const TlNode *call, Threads *t) {
  TlLoc loc = call->loc;
  const TlNode *given = tl_sema_kwarg(call, "thread_bindings");
  TlVar *tx = s->kernel ? s->kernel->thread_vars[0] : NULL;
  if (!tx && !given) {
    tl_error(s->diag, loc, "TensorCoreIntrinEmitter's methods belong inside a T.Kernel block");
    return false;
  }
  t->s = s, t->loc = loc;
  TlExpr *x =
      given ? tl_sema_convert(s, tl_sema_expr(s, given), TY_INT32) : tl_expr_var(s->arena, loc, tx);
  t->lane = bin(t, OP_FLOORMOD, x, num(t, 32));
  TlExpr *warp = bin(t, OP_FLOORDIV, x, num(t, 32));
  int64_t first = c->m_first ? c->col_warps : c->row_warps;
  int64_t second = c->m_first ? c->row_warps : c->col_warps;
  TlExpr *w0 = bin(t, OP_FLOORMOD, warp, num(t, first));
  TlExpr *w1 = bin(t, OP_FLOORMOD, bin(t, OP_FLOORDIV, warp, num(t, first)), num(t, second));
  t->warp_m = c->m_first ? w1 : w0;
  t->warp_n = c->m_first ? w0 : w1;
  return true;
}

// Argument i of a method call, or its keyword; NULL when absent.
static const TlNode *arg(const TlNode *call, int i, const char *keyword) {
  if (i < call->list.len) return TL_VEC_AT(call->list, TlNode, i);
  return keyword ? tl_sema_kwarg(call, keyword) : NULL;
}

// Checks a method's arguments: at most `most` positional ones, keywords
// from kws (and thread_bindings=), the first `need` present.
static bool method_args(Sema *s, const TlNode *call, const char *name, int need, int most,
                        const char *const *kws) {
  for (int k = 0; k < call->list2.len; k++) {
    const char *kw = TL_VEC_AT(call->list2, TlNode, k)->name;
    bool known = strcmp(kw, "thread_bindings") == 0;
    for (int i = 0; kws[i]; i++)
      known = known || strcmp(kw, kws[i]) == 0;
    if (!known) {
      tl_error(s->diag, TL_VEC_AT(call->list2, TlNode, k)->loc,
               "unexpected keyword argument '%s' to '%s'", kw, name);
      return false;
    }
  }
  bool ok = call->list.len <= most;
  for (int i = 0; i < need && ok; i++)
    ok = arg(call, i, kws[i]) != NULL;
  if (!ok) tl_error(s->diag, call->loc, "'%s' takes %s", name, kws[most + 1]);
  return ok;
}

// The buffer a method argument names, of the scope it needs.
static TlBuffer *buffer_arg(Sema *s, const TlNode *n, const char *what, bool local) {
  TlSym *y = n->kind == ND_NAME ? tl_scope_lookup(s, n->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    tl_error(s->diag, n->loc, "%s must name a buffer", what);
    return NULL;
  }
  TlBuffer *b = y->buf;
  if (local && (b->scope != SCOPE_LOCAL || b->ndims != 1)) {
    tl_error(s->diag, n->loc, "%s must be a T.alloc_local buffer of one dimension", what);
    return NULL;
  }
  return b;
}

static void store(Sema *s, TlLoc loc, TlBuffer *b, TlExpr **idx, int n, TlExpr *value, TlVec *out) {
  TlStmt *st = tl_stmt_new(s->arena, ST_STORE, loc);
  st->buf = b;
  st->nindices = n;
  st->indices = TL_NEW_ARRAY(s->arena, TlExpr *, n);
  for (int i = 0; i < n; i++)
    st->indices[i] = idx[i];
  st->update_op = OP_EQ;
  st->value = tl_sema_convert(s, value, b->dtype);
  tl_vec_push(s->arena, out, st);
}

static bool fits_local(Sema *s, const TlBuffer *b, int64_t need, TlLoc loc, const char *what) {
  if (b->shape[0] >= need) return true;
  tl_error(s->diag, loc, "%s '%s' holds %lld elements; this emitter needs %lld", what, b->name,
           (long long)b->shape[0], (long long)need);
  return false;
}

// ldmatrix_a / ldmatrix_b: each thread's fragment elements of the warp's
// tiles at K step rk * chunk + ki * k_dim, element e of 16 x k_dim (A) or
// n_dim x k_dim (B) as the atom holds it.
static void load_fragments(Sema *s, const TlNode *call, const MmaConfig *c, bool is_a,
                           const Threads *t, TlVec *out) {
  const char *name = is_a ? "ldmatrix_a" : "ldmatrix_b";
  static const char *const kws_a[] = {
      "A_local_buf", "A_shared_buf", "ki", "rk", NULL, "a local buffer, a shared tile, ki and rk"};
  static const char *const kws_b[] = {
      "B_local_buf", "B_shared_buf", "ki", "rk", NULL, "a local buffer, a shared tile, ki and rk"};
  const char *const *kws = is_a ? kws_a : kws_b;
  if (!method_args(s, call, name, 3, 4, kws)) return;
  TlBuffer *local = buffer_arg(s, arg(call, 0, kws[0]), "the fragment", true);
  TlBuffer *src = buffer_arg(s, arg(call, 1, kws[1]), "the tile", false);
  if (!local || !src) return;
  if (src->ndims != 2 || (src->scope != SCOPE_SHARED && src->scope != SCOPE_GLOBAL)) {
    tl_error(s->diag, arg(call, 1, kws[1])->loc, "'%s' reads a 2-D shared tile; '%s' is not one",
             name, src->name);
    return;
  }
  int64_t tiles = is_a ? c->warp_rows : c->warp_cols, per = is_a ? c->lsa : c->lsb;
  if (!fits_local(s, local, tiles * per, call->loc, "fragment")) return;
  TlExpr *ki = tl_sema_convert(s, tl_sema_expr(s, arg(call, 2, kws[2])), TY_INT32);
  const TlNode *rk_node = arg(call, 3, kws[3]);
  TlExpr *rk = rk_node ? tl_sema_convert(s, tl_sema_expr(s, rk_node), TY_INT32) : num(t, 0);
  TlExpr *wk =
      bin(t, OP_ADD, bin(t, OP_MUL, rk, num(t, c->chunk)), bin(t, OP_MUL, ki, num(t, c->k_dim)));
  int64_t tile_rows = is_a ? 16 : c->n_dim;
  TlExpr *warp = is_a ? t->warp_m : t->warp_n;
  int64_t warp_tiles = is_a ? c->warp_row_tiles : c->warp_col_tiles;
  int64_t kb = c->k_dim == 16 ? 2 : 4;          // elements of one 32-bit register
  bool trans = is_a ? c->a_trans : !c->b_trans; // the tile is [K, rows]
  for (int64_t i = 0; i < tiles; i++) {
    TlExpr *wi = bin(t, OP_ADD, bin(t, OP_MUL, warp, num(t, warp_tiles)), num(t, i * tile_rows));
    for (int64_t e = 0; e < per; e++) {
      // A: e = (k half) * 2kb + (row half) * kb + within; B: e = (n half) * 2kb
      // + (k half) * kb + within.
      int64_t within = e % kb, half1 = (e / kb) % 2, half2 = e / (2 * kb);
      int64_t row_half = is_a ? half1 : half2, k_half = is_a ? half2 : half1;
      TlExpr *row = bin(t, OP_ADD, bin(t, OP_FLOORDIV, t->lane, num(t, 4)), num(t, 8 * row_half));
      TlExpr *k =
          bin(t, OP_ADD, bin(t, OP_MUL, bin(t, OP_FLOORMOD, t->lane, num(t, 4)), num(t, kb)),
              num(t, within + k_half * c->k_dim / 2));
      TlExpr *r = bin(t, OP_ADD, wi, row), *kk = bin(t, OP_ADD, wk, k);
      TlExpr *idx[2] = {trans ? kk : r, trans ? r : kk};
      TlExpr *dst[1] = {num(t, i * per + e)};
      store(s, call->loc, local, dst, 1, tl_expr_load(s->arena, call->loc, src, idx, 2), out);
    }
  }
}

static void mma_atoms(Sema *s, const TlNode *call, const MmaConfig *c, TlVec *out) {
  static const char *const kws[] = {"A_local_buf", "B_local_buf",
                                    "C_local_buf", "k_inner",
                                    NULL,          "the A, B and C local buffers (and k_inner)"};
  if (!method_args(s, call, "mma", 3, 4, kws)) return;
  TlBuffer *A = buffer_arg(s, arg(call, 0, kws[0]), "mma's A", true);
  TlBuffer *B = buffer_arg(s, arg(call, 1, kws[1]), "mma's B", true);
  TlBuffer *C = buffer_arg(s, arg(call, 2, kws[2]), "mma's C", true);
  if (!A || !B || !C) return;
  if (A->dtype != c->a || B->dtype != c->b || C->dtype != c->acc) {
    tl_error(s->diag, call->loc,
             "mma's buffers are %s, %s and %s; the emitter takes %s, %s into %s",
             tl_dtype_name(A->dtype), tl_dtype_name(B->dtype), tl_dtype_name(C->dtype),
             tl_dtype_name(c->a), tl_dtype_name(c->b), tl_dtype_name(c->acc));
    return;
  }
  if (!fits_local(s, A, c->warp_rows * c->lsa, call->loc, "A") ||
      !fits_local(s, B, c->warp_cols * c->lsb, call->loc, "B") ||
      !fits_local(s, C, c->warp_rows * c->warp_cols * c->lso, call->loc, "C"))
    return;
  // k_inner offsets fragments only (A_local / B_local here are local buffers).
  for (int64_t i = 0; i < c->warp_rows; i++)
    for (int64_t j = 0; j < c->warp_cols; j++)
      for (int64_t h = 0; h < c->n_dim / 8; h++) {
        TlStmt *st = tl_stmt_new(s->arena, ST_MMA, call->loc);
        st->a = A, st->b = B, st->c = C;
        st->mma_k = (int)c->k_dim;
        st->mma_offset[0] = i * c->lsa;
        st->mma_offset[1] = j * c->lsb + h * c->lsb / 2;
        st->mma_offset[2] = (i * c->warp_cols + j) * c->lso + h * c->lso / 2;
        tl_vec_push(s->arena, out, st);
      }
}

// stmatrix(C_local, C_buf[, pid_m, pid_n]): each thread's accumulators to
// a [rows, cols] tile (or the tensor at block (pid_m, pid_n)) or to a
// [tiles_m, tiles_n, 16, n_dim] tile.
static void store_fragments(Sema *s, const TlNode *call, const MmaConfig *c, const Threads *t,
                            TlVec *out) {
  static const char *const kws[] = {
      "C_local_buf", "C_buf", "pid_m",
      "pid_n",       NULL,    "the C local buffer and a tile (and pid_m, pid_n)"};
  if (!method_args(s, call, "stmatrix", 2, 4, kws)) return;
  TlBuffer *C = buffer_arg(s, arg(call, 0, kws[0]), "stmatrix's C", true);
  TlBuffer *dst = buffer_arg(s, arg(call, 1, kws[1]), "stmatrix's tile", false);
  if (!C || !dst) return;
  const TlNode *pm = arg(call, 2, kws[2]), *pn = arg(call, 3, kws[3]);
  bool global = pm && pn;
  if ((dst->ndims != 2 && dst->ndims != 4) || (global && dst->ndims != 2)) {
    tl_error(s->diag, arg(call, 1, kws[1])->loc,
             "stmatrix writes a 2-D tile or tensor, or a 4-D [tiles_m, tiles_n, 16, %lld] tile",
             (long long)c->n_dim);
    return;
  }
  if (!fits_local(s, C, c->warp_rows * c->warp_cols * c->lso, call->loc, "C")) return;
  TlExpr *pid_m = global ? tl_sema_convert(s, tl_sema_expr(s, pm), TY_INT32) : num(t, 0);
  TlExpr *pid_n = global ? tl_sema_convert(s, tl_sema_expr(s, pn), TY_INT32) : num(t, 0);
  int64_t block_m = c->row_warps * c->warp_rows, block_n = c->col_warps * c->warp_cols;
  for (int64_t i = 0; i < c->warp_rows; i++)
    for (int64_t j = 0; j < c->warp_cols; j++)
      for (int64_t e = 0; e < c->lso; e++) {
        // element e: column pair (lane % 4) * 2 + e % 2, row lane / 4 + 8 * (e / 2 % 2),
        // n8 half e / 4
        TlExpr *row =
            bin(t, OP_ADD, bin(t, OP_FLOORDIV, t->lane, num(t, 4)), num(t, 8 * ((e / 2) % 2)));
        TlExpr *col =
            bin(t, OP_ADD, bin(t, OP_MUL, bin(t, OP_FLOORMOD, t->lane, num(t, 4)), num(t, 2)),
                num(t, e % 2 + 8 * (e / 4)));
        TlExpr *tm = bin(t, OP_ADD,
                         bin(t, OP_ADD, bin(t, OP_MUL, pid_m, num(t, block_m)),
                             bin(t, OP_MUL, t->warp_m, num(t, c->warp_rows))),
                         num(t, i));
        TlExpr *tn = bin(t, OP_ADD,
                         bin(t, OP_ADD, bin(t, OP_MUL, pid_n, num(t, block_n)),
                             bin(t, OP_MUL, t->warp_n, num(t, c->warp_cols))),
                         num(t, j));
        TlExpr *src[1] = {num(t, (i * c->warp_cols + j) * c->lso + e)};
        TlExpr *value = tl_expr_load(s->arena, call->loc, C, src, 1);
        if (dst->ndims == 4) {
          TlExpr *idx[4] = {tm, tn, row, col};
          store(s, call->loc, dst, idx, 4, value, out);
        } else {
          TlExpr *idx[2] = {bin(t, OP_ADD, bin(t, OP_MUL, tm, num(t, 16)), row),
                            bin(t, OP_ADD, bin(t, OP_MUL, tn, num(t, c->n_dim)), col)};
          store(s, call->loc, dst, idx, 2, value, out);
        }
      }
}

bool tl_sema_mma_emitter_call(Sema *s, const TlNode *call, TlVec *out) {
  if (call->kind != ND_CALL || call->a->kind != ND_ATTR || call->a->a->kind != ND_NAME)
    return false;
  TlSym *y = tl_scope_lookup(s, call->a->a->name);
  if (!y || y->kind != SYM_VALUE || y->value->kind != VAL_MMA_EMITTER) return false;
  const char *m = call->a->name;
  if (s->in_parallel) {
    tl_error(s->diag, call->loc,
             "TensorCoreIntrinEmitter's '%s' inside T.Parallel; it is warp "
             "code, called by every thread",
             m);
    return true;
  }
  MmaConfig c;
  Threads t;
  if (!config_of(s, y->value, call->loc, &c) || !threads_of(s, &c, call, &t)) return true;
  if (strcmp(m, "ldmatrix_a") == 0 || strcmp(m, "ldmatrix_b") == 0)
    load_fragments(s, call, &c, m[9] == 'a', &t, out);
  else if (strcmp(m, "mma") == 0)
    mma_atoms(s, call, &c, out);
  else if (strcmp(m, "stmatrix") == 0)
    store_fragments(s, call, &c, &t, out);
  else
    tl_error(s->diag, call->a->loc,
             "tlc's TensorCoreIntrinEmitter has ldmatrix_a, ldmatrix_b, mma and stmatrix, not '%s'",
             m);
  return true;
}
