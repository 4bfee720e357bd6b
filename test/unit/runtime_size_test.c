// Unit tests of runtime sizes in the IR (lib/IR/IR.c, Simplify.c): a
// tensor's flat offset uses its runtime dimensions as strides, a leading
// runtime dimension leaves the strides constant, and what the simplifier may
// assume about a size (non-negative, no upper bound, a divisor the launcher
// checked), and offsets with a runtime row stride stay affine in a lane.
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tlc/IR.h"

static const TlLoc nowhere = {0};

static void expect_text(TlArena *a, const TlExpr *e, const char *want) {
  TlBuf text;
  tl_buf_init(&text, a);
  tl_ir_print_expr(&text, e);
  CHECK_MSG(strcmp(text.data, want) == 0, "got \"%s\", want \"%s\"", text.data, want);
}

// A 2-D global tensor; each dimension a constant, or the given size.
static TlBuffer *tensor(TlArena *a, TlVar *rows, int64_t nrows, TlVar *cols, int64_t ncols) {
  TlBuffer *b = TL_NEW(a, TlBuffer);
  b->name = "A";
  b->scope = SCOPE_GLOBAL;
  b->dtype = TY_FLOAT32;
  b->stages = 1;
  b->ndims = 2;
  b->dyn[0] = rows;
  b->shape[0] = rows ? 0 : nrows;
  b->dyn[1] = cols;
  b->shape[1] = cols ? 0 : ncols;
  return b;
}

int main(void) {
  TlArena arena;
  tl_arena_init(&arena);
  TlArena *a = &arena;
  TlKernel *k = TL_NEW(a, TlKernel);
  TlVar *m = tl_var_new(a, k, "m", VAR_SIZE, TY_INT32, nowhere);
  TlVar *n = tl_var_new(a, k, "n", VAR_SIZE, TY_INT32, nowhere);
  TlVar *i = tl_var_new(a, k, "i", VAR_LOOP, TY_INT32, nowhere);
  TlVar *j = tl_var_new(a, k, "j", VAR_LOOP, TY_INT32, nowhere);
  i->extent = j->extent = 64;
  TlExpr *idx[2] = {tl_expr_var(a, nowhere, i), tl_expr_var(a, nowhere, j)};

  // Leading runtime dimension: the row stride is still the constant 32.
  TlBuffer *rows = tensor(a, m, 0, NULL, 32);
  CHECK(tl_buffer_is_dynamic(rows));
  CHECK(tl_buffer_elems(rows) == 0);
  expect_text(a, tl_access_flat(a, rows, idx, 2), "i * 32 + j");
  expect_text(a, tl_buffer_dim(a, rows, 0, TY_INT32, nowhere), "m");
  expect_text(a, tl_buffer_dim(a, rows, 1, TY_INT32, nowhere), "32");
  // A 64-bit index of a 32-bit size is a cast.
  expect_text(a, tl_buffer_dim(a, rows, 0, TY_INT64, nowhere), "cast<int64>(m)");

  // Inner runtime dimension: it is the row stride.
  TlBuffer *both = tensor(a, m, 0, n, 0);
  expect_text(a, tl_access_flat(a, both, idx, 2), "i * n + j");

  // Static tensors are unchanged.
  TlBuffer *fixed = tensor(a, NULL, 16, NULL, 48);
  CHECK(!tl_buffer_is_dynamic(fixed));
  CHECK(tl_buffer_elems(fixed) == 16 * 48);
  expect_text(a, tl_access_flat(a, fixed, idx, 2), "i * 48 + j");

  // The launcher refuses negative sizes, so a size is non-negative; it has
  // no upper bound, so a comparison with it is never folded.
  TlExpr *size = tl_expr_var(a, nowhere, m);
  int64_t lo, hi;
  CHECK(tl_expr_nonneg(size));
  CHECK(!tl_expr_bounds(size, &lo, &hi));
  CHECK(tl_expr_nonneg(tl_expr_binary(a, nowhere, OP_FLOORDIV, size,
                                      tl_expr_int(a, nowhere, 64, TY_INT32), TY_INT32)));

  // A size with a divisor (specialize-sizes: the launcher checks it) makes a
  // row times it that aligned; without one nothing is known.
  TlExpr *row_times_n = tl_expr_binary(a, nowhere, OP_MUL, tl_expr_var(a, nowhere, i),
                                       tl_expr_var(a, nowhere, n), TY_INT32);
  CHECK(tl_known_alignment(row_times_n, 8) == 1);
  n->divisor = 8;
  CHECK(tl_known_alignment(row_times_n, 8) == 8);
  CHECK(tl_known_alignment(row_times_n, 4) == 4);
  CHECK(tl_known_alignment(tl_expr_var(a, nowhere, n), 16) == 8);
  n->divisor = 0;

  // x // 64 * n + x % 64 with x = 8 * t + lane (lane < 8): affine in lane
  // with coefficient 1 and base (8 * t) // 64 * n + (8 * t) % 64: the row
  // is the same for every lane, so the runtime stride multiplies a base.
  TlVar *t = tl_var_new(a, k, "t", VAR_THREAD_IDX, TY_INT32, nowhere);
  TlVar *lane = tl_var_new(a, k, "lane", VAR_LOOP, TY_INT32, nowhere);
  t->extent = 128;
  lane->extent = 8;
  TlExpr *x =
      tl_expr_binary(a, nowhere, OP_ADD,
                     tl_expr_binary(a, nowhere, OP_MUL, tl_expr_int(a, nowhere, 8, TY_INT32),
                                    tl_expr_var(a, nowhere, t), TY_INT32),
                     tl_expr_var(a, nowhere, lane), TY_INT32);
  TlExpr *c64 = tl_expr_int(a, nowhere, 64, TY_INT32);
  TlExpr *off = tl_expr_binary(
      a, nowhere, OP_ADD,
      tl_expr_binary(a, nowhere, OP_MUL, tl_expr_binary(a, nowhere, OP_FLOORDIV, x, c64, TY_INT32),
                     tl_expr_var(a, nowhere, n), TY_INT32),
      tl_expr_binary(a, nowhere, OP_FLOORMOD, tl_expr_clone(a, x), c64, TY_INT32), TY_INT32);
  TlExpr *base = NULL;
  int64_t coeff = 0;
  CHECK(tl_affine_in(a, off, lane, &base, &coeff));
  CHECK(coeff == 1);
  CHECK(base && !tl_expr_uses_var(base, lane) && tl_expr_uses_var(base, n));
  // A lane in the runtime factor itself is not affine.
  TlExpr *bad = tl_expr_binary(a, nowhere, OP_MUL, tl_expr_var(a, nowhere, lane),
                               tl_expr_var(a, nowhere, n), TY_INT32);
  CHECK(!tl_affine_in(a, bad, lane, &base, &coeff));

  tl_arena_free(a);
  return check_result("runtime_size_test");
}
