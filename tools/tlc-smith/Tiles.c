/* tlc-smith's tile-operator families: T.gemm with random tile shapes,
 * dtypes, transposes, loops (T.Pipelined with 0-6 stages or T.serial), block
 * rasterization (T.use_swizzle) and epilogues; T.reduce_* over fragments or shared tiles along
 * either dimension; and row reductions streamed through a T.Pipelined loop. */
#include "Smith.h"

#include <string.h>

static const char *const reduce_ops[] = {"sum", "max", "min", "abssum", "absmax"};

static int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

/* An extent of 1 to max_tiles tiles, often cut short of the last one but
 * never narrower than one tile (T.copy refuses a tile wider than its tensor). */
static int extent_for(Smith *s, int tile, int max_tiles) {
  int tiles = smith_range(&s->rng, 1, max_tiles);
  if (tiles == 1 || smith_chance(&s->rng, 50)) return tiles * tile;
  return tiles * tile - smith_range(&s->rng, 0, tile - 1);
}

typedef struct {
  int m, n, k;         /* the problem */
  int bm, bn, bk;      /* the tiles */
  int threads, stages; /* stages < 0: a T.serial loop */
  int trans_a, trans_b;
  SmithDtype in, out;
} GemmShape;

/* Tiles that wgmma takes on sm_90a (whole warpgroups, 64 rows per
 * warpgroup, fp16/bf16): without this bias few random shapes would. */
static void wgmma_tiles(Smith *s, GemmShape *g) {
  static const int n_tiles[] = {32, 64, 128, 256};
  g->bm = smith_chance(&s->rng, 50) ? 64 : 128;
  g->threads = g->bm == 128 && smith_chance(&s->rng, 50) ? 256 : 128;
  do
    g->bn = smith_pick(&s->rng, n_tiles, 4);
  while (g->bm * g->bn / g->threads > 128);
  smith_feature(s, "gemm-wgmma-shape");
}

static void random_tiles(Smith *s, GemmShape *g) {
  static const int mn_tiles[] = {16, 32, 64, 128};
  static const int threads[] = {32, 64, 128, 256};
  g->bm = smith_pick(&s->rng, mn_tiles, 4);
  g->bn = smith_pick(&s->rng, mn_tiles, 4);
  do
    g->threads = smith_pick(&s->rng, threads, 4);
  while (g->bm * g->bn / g->threads > 128 || g->bm * g->bn < g->threads * 4);
}

static void random_gemm_shape(Smith *s, GemmShape *g) {
  static const int k_tiles[] = {16, 32, 64};
  int hopper = smith_chance(&s->rng, 40);
  if (hopper)
    wgmma_tiles(s, g);
  else
    random_tiles(s, g);
  g->bk = smith_pick(&s->rng, k_tiles, 3);
  g->m = extent_for(s, g->bm, 3);
  g->n = extent_for(s, g->bn, 3);
  g->k = extent_for(s, g->bk, 5);
  g->trans_a = smith_chance(&s->rng, 30);
  g->trans_b = smith_chance(&s->rng, 40);
  static const int in_types[] = {DT_F16, DT_F16, DT_BF16, DT_F32};
  g->in = (SmithDtype)smith_pick(&s->rng, in_types, hopper ? 3 : 4);
  static const int out_types[] = {DT_F16, DT_BF16, DT_F32};
  g->out = (SmithDtype)smith_pick(&s->rng, out_types, 3);
  int elem = g->in == DT_F32 ? 4 : 2;
  int stage_bytes = (g->bm + g->bn) * g->bk * elem;
  g->stages = smith_range(&s->rng, -1, 6);
  while (g->stages > 1 && stage_bytes * g->stages > 160 * 1024)
    g->stages--;
}

static void gemm_loop(Smith *s, const GemmShape *g) {
  if (g->stages < 0) {
    smith_line(s, "for k in T.serial(%d):", ceil_div(g->k, g->bk));
    smith_feature(s, "serial");
  } else {
    smith_line(s, "for k in T.Pipelined(%d, num_stages=%d):", ceil_div(g->k, g->bk), g->stages);
    smith_feature(s, "pipelined");
    if (g->stages > 4) smith_feature(s, "pipelined-5-6-stages");
  }
  s->indent++;
  if (g->trans_a)
    smith_line(s, "T.copy(A[k * %d, by * %d], A_s)", g->bk, g->bm);
  else
    smith_line(s, "T.copy(A[by * %d, k * %d], A_s)", g->bm, g->bk);
  if (g->trans_b)
    smith_line(s, "T.copy(B[bx * %d, k * %d], B_s)", g->bn, g->bk);
  else
    smith_line(s, "T.copy(B[k * %d, bx * %d], B_s)", g->bk, g->bn);
  smith_line(s, "T.gemm(A_s, B_s, C_f, transpose_A=%s, transpose_B=%s)",
             g->trans_a ? "True" : "False", g->trans_b ? "True" : "False");
  s->indent--;
  smith_feature(s, "gemm");
  if (g->trans_a) smith_feature(s, "gemm-transpose-a");
  if (g->trans_b) smith_feature(s, "gemm-transpose-b");
}

/* An element-wise epilogue on the accumulator, with a bias row staged in
 * shared memory (T.copy zero-fills it past N) and sometimes a row reduction
 * of the accumulator written to R. */
static void gemm_epilogue(Smith *s, const GemmShape *g, int with_bias, int with_rows) {
  char expr[SMITH_EXPR_MAX] = "";
  const char *leaves[] = {"C_f[i, j]", "bias_s[j]"};
  if (with_bias) smith_line(s, "T.copy(Bias[bx * %d], bias_s)", g->bn);
  smith_line(s, "for i, j in T.Parallel(%d, %d):", g->bm, g->bn);
  s->indent++;
  smith_expr(s, 1, leaves, with_bias ? 2 : 1, 2, expr, sizeof expr);
  smith_line(s, "C_f[i, j] = %s", expr);
  s->indent--;
  smith_feature(s, "epilogue");
  if (!with_rows) return;
  const char *op = reduce_ops[smith_range(&s->rng, 0, 4)];
  smith_line(s, "T.reduce_%s(C_f, rows, dim=1)", op);
  smith_line(s, "for i in T.Parallel(%d):", g->bm);
  s->indent++;
  if (g->m % g->bm) {
    smith_line(s, "if by * %d + i < %d:", g->bm, g->m);
    s->indent++;
  }
  smith_line(s, "R[by * %d + i, bx] = rows[i]", g->bm);
  s->indent -= 1 + (g->m % g->bm != 0);
  smith_feature(s, "gemm-reduce");
}

void smith_gemm(Smith *s, const char *name) {
  GemmShape g;
  random_gemm_shape(s, &g);
  int with_epilogue = smith_chance(&s->rng, 50);
  int with_bias = with_epilogue && smith_chance(&s->rng, 60);
  int with_rows = with_epilogue && smith_chance(&s->rng, 40);
  const char *in = smith_dtype_name(g.in);
  char extra[160] = "";
  if (with_bias) snprintf(extra, sizeof extra, ", Bias: T.Tensor((%d,), \"float32\")", g.n);
  if (with_rows)
    snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
             ",\n        R: T.Tensor((%d, %d), \"float32\")", g.m, ceil_div(g.n, g.bn));
  smith_line(s, "@T.prim_func");
  smith_line(s, "def %s(A: T.Tensor((%d, %d), \"%s\"), B: T.Tensor((%d, %d), \"%s\"),", name,
             g.trans_a ? g.k : g.m, g.trans_a ? g.m : g.k, in, g.trans_b ? g.n : g.k,
             g.trans_b ? g.k : g.n, in);
  smith_line(s, "        C: T.Tensor((%d, %d), \"%s\")%s):", g.m, g.n, smith_dtype_name(g.out),
             extra);
  s->indent++;
  smith_line(s, "with T.Kernel(%d, %d, threads=%d) as (bx, by):", ceil_div(g.n, g.bn),
             ceil_div(g.m, g.bm), g.threads);
  s->indent++;
  smith_line(s, "A_s = T.alloc_shared((%d, %d), \"%s\")", g.trans_a ? g.bk : g.bm,
             g.trans_a ? g.bm : g.bk, in);
  smith_line(s, "B_s = T.alloc_shared((%d, %d), \"%s\")", g.trans_b ? g.bn : g.bk,
             g.trans_b ? g.bk : g.bn, in);
  smith_line(s, "C_f = T.alloc_fragment((%d, %d), \"float32\")", g.bm, g.bn);
  if (with_bias) smith_line(s, "bias_s = T.alloc_shared((%d,), \"float32\")", g.bn);
  if (with_rows) smith_line(s, "rows = T.alloc_fragment((%d,), \"float32\")", g.bm);
  smith_line(s, "T.clear(C_f)");
  if (smith_chance(&s->rng, 25)) {
    /* Block rasterization in panels: a remapped bx/by that every index of
     * the kernel must follow. */
    static const int panels[] = {1, 2, 3, 4, 8};
    smith_line(s, "T.use_swizzle(panel_size=%d)", smith_pick(&s->rng, panels, 5));
    smith_feature(s, "use-swizzle");
  }
  gemm_loop(s, &g);
  if (with_epilogue) gemm_epilogue(s, &g, with_bias, with_rows);
  smith_line(s, "T.copy(C_f, C[by * %d, bx * %d])", g.bm, g.bn);
  s->indent -= 2;
  smith_feature(s, in);
  if (g.m % g.bm || g.n % g.bn || g.k % g.bk) smith_feature(s, "gemm-edges");
}

/* A block of rows of X in a fragment or shared tile, an optional element-wise
 * update, one or two reductions (the second with clear=False adds to the
 * first), and the result stored with a guard past the last row. */
void smith_reduce(Smith *s, const char *name) {
  static const int row_tiles[] = {1, 2, 4, 8, 16, 32, 64};
  static const int col_tiles[] = {8, 16, 32, 48, 64, 96, 128, 256};
  /* Partial warps too: their fragment reductions go through shared memory. */
  static const int threads[] = {32, 48, 64, 96, 128, 200, 256};
  int rows = smith_pick(&s->rng, row_tiles, 7), cols = smith_pick(&s->rng, col_tiles, 8);
  int nthreads;
  do
    nthreads = smith_pick(&s->rng, threads, 7);
  while (!smith_fragment_fits(rows * cols, DT_F32, nthreads));
  int m = extent_for(s, rows, 8);
  if (nthreads % 32) smith_feature(s, "partial-warp");
  int dim = smith_chance(&s->rng, 25) ? 0 : 1;
  /* A one-row fragment drops its unit dimension, and reducing along it is
   * refused ("nothing to reduce", test/Diagnostics/reduce-over-unit-dimension.tl);
   * a shared tile keeps it. */
  int along_unit_dim = rows == 1 && dim == 0;
  const char *kind = smith_chance(&s->rng, 75) && !along_unit_dim ? "fragment" : "shared";
  if (rows == 1 && kind[0] == 'f') smith_feature(s, "fragment-unit-dim");
  static const int in_types[] = {DT_F16, DT_BF16, DT_F32, DT_F32};
  SmithDtype in = (SmithDtype)smith_pick(&s->rng, in_types, 4);
  SmithDtype acc = smith_chance(&s->rng, 80) ? DT_F32 : in;
  int out_len = dim == 1 ? rows : cols;
  int blocks = ceil_div(m, rows);
  smith_line(s, "@T.prim_func");
  /* Y has the accumulator's dtype: a float16 accumulator rounds every step
   * (as TileLang's does) while the reference folds in float, so a float32 Y
   * would be held to a tolerance the accumulator cannot meet (seed 67). */
  smith_line(s, "def %s(X: T.Tensor((%d, %d), \"%s\"), Y: T.Tensor((%d, %d), \"%s\")):", name, m,
             cols, smith_dtype_name(in), dim == 1 ? m : blocks, dim == 1 ? 1 : cols,
             smith_dtype_name(acc));
  s->indent++;
  smith_line(s, "with T.Kernel(%d, threads=%d) as bx:", blocks, nthreads);
  s->indent++;
  smith_line(s, "x = T.alloc_%s((%d, %d), \"%s\")", kind, rows, cols, smith_dtype_name(in));
  smith_line(s, "r = T.alloc_fragment((%d,), \"%s\")", out_len, smith_dtype_name(acc));
  smith_line(s, "T.copy(X[bx * %d, 0], x)", rows);
  if (smith_chance(&s->rng, 50)) {
    char expr[SMITH_EXPR_MAX] = "";
    const char *leaves[] = {"x[i, j]"};
    smith_expr(s, 1, leaves, 1, 2, expr, sizeof expr);
    smith_line(s, "for i, j in T.Parallel(%d, %d):", rows, cols);
    smith_line(s, "    x[i, j] = %s", expr);
  }
  const char *op = reduce_ops[smith_range(&s->rng, 0, 4)];
  int clear_first = smith_chance(&s->rng, 70);
  if (!clear_first) smith_line(s, "T.fill(r, 0.5)");
  smith_line(s, "T.reduce_%s(x, r, dim=%d%s)", op, dim, clear_first ? "" : ", clear=False");
  if (smith_chance(&s->rng, 30)) {
    smith_line(s, "T.reduce_%s(x, r, dim=%d, clear=False)", reduce_ops[smith_range(&s->rng, 0, 4)],
               dim);
    smith_feature(s, "reduce-twice");
  }
  smith_line(s, "for i in T.Parallel(%d):", out_len);
  s->indent++;
  if (dim == 1) {
    int guarded = m % rows != 0;
    if (guarded) smith_line(s, "if bx * %d + i < %d:", rows, m);
    smith_line(s, "%sY[bx * %d + i, 0] = r[i]", guarded ? "    " : "", rows);
  } else {
    smith_line(s, "Y[bx, i] = r[i]");
  }
  s->indent -= 3;
  smith_feature(s, dim == 1 ? "reduce-dim1" : "reduce-dim0");
  smith_feature(s, strcmp(kind, "shared") == 0 ? "reduce-shared" : "reduce-fragment");
  if (!clear_first) smith_feature(s, "reduce-noclear");
}

/* Row reductions of an M x N matrix streamed through a T.Pipelined loop over
 * column tiles (cp.async into shared memory, a fragment copy, a reduction,
 * an accumulation), as examples/pipelined_rowsum.tl. */
void smith_pipelined_rows(Smith *s, const char *name) {
  static const int row_tiles[] = {4, 8, 16, 32};
  static const int col_tiles[] = {32, 64, 128, 256};
  static const int threads[] = {64, 128, 256};
  int bm = smith_pick(&s->rng, row_tiles, 4), bn = smith_pick(&s->rng, col_tiles, 4);
  int nthreads = smith_pick(&s->rng, threads, 3);
  int m = extent_for(s, bm, 6), n = extent_for(s, bn, 6);
  int stages = smith_range(&s->rng, 0, 6);
  SmithDtype in = smith_chance(&s->rng, 50) ? DT_F32 : DT_F16;
  while (stages > 1 && bm * bn * (in == DT_F32 ? 4 : 2) * stages > 160 * 1024)
    stages--;
  if (stages > 4) smith_feature(s, "pipelined-5-6-stages");
  int is_max = smith_chance(&s->rng, 30);
  smith_line(s, "@T.prim_func");
  smith_line(s, "def %s(X: T.Tensor((%d, %d), \"%s\"), S: T.Tensor((%d,), \"float32\")):", name, m,
             n, smith_dtype_name(in), m);
  s->indent++;
  smith_line(s, "with T.Kernel(%d, threads=%d) as bx:", ceil_div(m, bm), nthreads);
  s->indent++;
  smith_line(s, "X_s = T.alloc_shared((%d, %d), \"%s\")", bm, bn, smith_dtype_name(in));
  smith_line(s, "x = T.alloc_fragment((%d, %d), \"float32\")", bm, bn);
  smith_line(s, "part = T.alloc_fragment((%d,), \"float32\")", bm);
  smith_line(s, "acc = T.alloc_fragment((%d,), \"float32\")", bm);
  smith_line(s, is_max ? "T.fill(acc, -1.0e30)" : "T.clear(acc)");
  smith_line(s, "for k in T.Pipelined(%d, num_stages=%d):", ceil_div(n, bn), stages);
  s->indent++;
  smith_line(s, "T.copy(X[bx * %d, k * %d], X_s)", bm, bn);
  smith_line(s, "T.copy(X_s, x)");
  smith_line(s, "T.reduce_%s(x, part, dim=1)", is_max ? "max" : "sum");
  smith_line(s, "for i in T.Parallel(%d):", bm);
  smith_line(s, is_max ? "    acc[i] = T.max(acc[i], part[i])" : "    acc[i] += part[i]");
  s->indent--;
  smith_line(s, "T.copy(acc, S[bx * %d])", bm);
  s->indent -= 2;
  smith_feature(s, "pipelined");
  smith_feature(s, "pipelined-reduce");
  smith_feature(s, in == DT_F32 ? "float32" : "float16");
}
