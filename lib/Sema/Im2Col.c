// T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad)
// (T.c2d_im2col, its deprecated name): tile (nhw_step, c_step) of the
// im2col matrix of an NHWC image into a 2-D tile `col`, the A operand of a
// convolution as a GEMM. Row m of the matrix is output pixel (n, oh, ow),
// column k the filter tap (kh, kw, c); taps outside the image read as 0,
// as in TileLang's lowering (src/op/copy.cc, LowerIm2ColSIMT). tlc also
// zero-fills rows past the last pixel and columns past the last tap, which
// TileLang reads from whatever memory follows.
//
// Lowered here to the T.Parallel nest TileLang builds, so the nest's
// partition, vectorization and pipelining are those of any nest.
#include <string.h>

#include "SemaInternal.h"

static TlBuffer *buffer_arg(Sema *s, const TlNode *n, const char *what) {
  TlSym *y = n->kind == ND_NAME ? tl_scope_lookup(s, n->name) : NULL;
  if (!y || y->kind != SYM_BUFFER) {
    tl_error(s->diag, n->loc, "T.im2col's %s must be a buffer name", what);
    return NULL;
  }
  return y->buf;
}

// Integers are the kernel's index type (int64 when a tensor is past 2^31
// elements, as an NHWC image easily is).
static TlExpr *lit(Sema *s, TlLoc loc, int64_t v) {
  return tl_expr_int(s->arena, loc, v, s->index_dtype);
}

static TlExpr *bin(Sema *s, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r) {
  bool compare = op == OP_LT || op == OP_GE || op == OP_AND;
  return tl_expr_binary(s->arena, loc, op, l, r, compare ? TY_BOOL : s->index_dtype);
}

void tl_sema_im2col(Sema *s, const TlNode *call, TlVec *out) {
  static const char *const kws[] = {"eviction_policy", "annotations", NULL};
  if (!tl_sema_check_keywords(s, call, "im2col", kws)) return;
  if (call->list.len != 8) {
    tl_error(s->diag, call->loc, "T.im2col takes 8 arguments (img, col, nhw_step, c_step, "
                                 "kernel, stride, dilation, pad), %d given", call->list.len);
    return;
  }
  TlLoc loc = call->loc;
  TlBuffer *img = buffer_arg(s, TL_VEC_AT(call->list, TlNode, 0), "image");
  TlBuffer *col = buffer_arg(s, TL_VEC_AT(call->list, TlNode, 1), "column tile");
  if (!img || !col) return;
  if (img->ndims != 4 || tl_buffer_is_dynamic(img)) {
    tl_error(s->diag, TL_VEC_AT(call->list, TlNode, 0)->loc,
             "T.im2col reads an NHWC image of 4 compile-time dimensions; '%s' is not one",
             img->name);
    return;
  }
  if (col->ndims != 2 || col->scope == SCOPE_GLOBAL) {
    tl_error(s->diag, TL_VEC_AT(call->list, TlNode, 1)->loc,
             "T.im2col writes a 2-D shared or fragment tile; '%s' is not one", col->name);
    return;
  }
  if (img->dtype != col->dtype) {
    tl_error(s->diag, loc, "T.im2col copies without conversion: '%s' is %s, '%s' is %s",
             img->name, tl_dtype_name(img->dtype), col->name, tl_dtype_name(col->dtype));
    return;
  }
  TlExpr *nhw = tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 2));
  TlExpr *cst = tl_sema_expr(s, TL_VEC_AT(call->list, TlNode, 3));
  nhw = tl_sema_convert(s, nhw, s->index_dtype);
  cst = tl_sema_convert(s, cst, s->index_dtype);
  int64_t K, S, D, P;
  if (!tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 4), "T.im2col's kernel", &K) ||
      !tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 5), "T.im2col's stride", &S) ||
      !tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 6), "T.im2col's dilation", &D) ||
      !tl_sema_const_int(s, TL_VEC_AT(call->list, TlNode, 7), "T.im2col's pad", &P))
    return;
  int64_t N = img->shape[0], H = img->shape[1], W = img->shape[2], C = img->shape[3];
  if (K < 1 || S < 1 || D < 1 || P < 0) {
    tl_error(s->diag, loc, "T.im2col needs kernel, stride and dilation of at least 1 and a pad of "
                           "at least 0");
    return;
  }
  int64_t OH = (H + 2 * P - (K - 1) * D - 1) / S + 1, OW = (W + 2 * P - (K - 1) * D - 1) / S + 1;
  if (OH < 1 || OW < 1) {
    tl_error(s->diag, loc, "T.im2col: a %lldx%lld kernel (dilation %lld, pad %lld) does not fit "
                           "the %lldx%lld image", (long long)K, (long long)K, (long long)D,
             (long long)P, (long long)H, (long long)W);
    return;
  }
  int64_t BM = col->shape[0], BK = col->shape[1];
  TlStmt *nest = tl_stmt_new(s->arena, ST_PARALLEL, loc);
  nest->origin = ORIGIN_USER;
  nest->nvars = 2;
  const char *names[2] = {"i", "j"};
  for (int d = 0; d < 2; d++) {
    TlVar *v = tl_var_new(s->arena, s->kernel, names[d], VAR_LOOP, TY_INT32, loc);
    v->extent = col->shape[d];
    nest->vars[d] = v;
    nest->extents[d] = col->shape[d];
  }
  TlExpr *i = tl_sema_convert(s, tl_expr_var(s->arena, loc, nest->vars[0]), s->index_dtype);
  TlExpr *j = tl_sema_convert(s, tl_expr_var(s->arena, loc, nest->vars[1]), s->index_dtype);
  // m: the output pixel (n, oh, ow); k: the tap (kh, kw, c).
  TlExpr *m = bin(s, loc, OP_ADD, bin(s, loc, OP_MUL, nhw, lit(s, loc, BM)), i);
  TlExpr *k = bin(s, loc, OP_ADD, bin(s, loc, OP_MUL, cst, lit(s, loc, BK)), j);
  TlExpr *n = bin(s, loc, OP_FLOORDIV, m, lit(s, loc, OH * OW));
  TlExpr *oh = bin(s, loc, OP_FLOORDIV, bin(s, loc, OP_FLOORMOD, m, lit(s, loc, OH * OW)),
                   lit(s, loc, OW));
  TlExpr *ow = bin(s, loc, OP_FLOORMOD, m, lit(s, loc, OW));
  TlExpr *kh = bin(s, loc, OP_FLOORDIV, k, lit(s, loc, K * C));
  TlExpr *kw = bin(s, loc, OP_FLOORMOD, bin(s, loc, OP_FLOORDIV, k, lit(s, loc, C)), lit(s, loc, K));
  TlExpr *c = bin(s, loc, OP_FLOORMOD, k, lit(s, loc, C));
  TlExpr *h = bin(s, loc, OP_SUB,
                  bin(s, loc, OP_ADD, bin(s, loc, OP_MUL, oh, lit(s, loc, S)),
                      bin(s, loc, OP_MUL, kh, lit(s, loc, D))),
                  lit(s, loc, P));
  TlExpr *w = bin(s, loc, OP_SUB,
                  bin(s, loc, OP_ADD, bin(s, loc, OP_MUL, ow, lit(s, loc, S)),
                      bin(s, loc, OP_MUL, kw, lit(s, loc, D))),
                  lit(s, loc, P));
  TlExpr *inside = bin(s, loc, OP_LT, m, lit(s, loc, N * OH * OW));
  inside = bin(s, loc, OP_AND, inside, bin(s, loc, OP_LT, k, lit(s, loc, K * K * C)));
  inside = bin(s, loc, OP_AND, inside, bin(s, loc, OP_GE, h, lit(s, loc, 0)));
  inside = bin(s, loc, OP_AND, inside, bin(s, loc, OP_LT, h, lit(s, loc, H)));
  inside = bin(s, loc, OP_AND, inside, bin(s, loc, OP_GE, w, lit(s, loc, 0)));
  inside = bin(s, loc, OP_AND, inside, bin(s, loc, OP_LT, w, lit(s, loc, W)));
  TlExpr *idx[4] = {n, h, w, c};
  TlExpr *value = tl_expr_new(s->arena, EX_SELECT, loc, img->dtype, 3);
  value->args[0] = inside;
  value->args[1] = tl_expr_load(s->arena, loc, img, idx, 4);
  value->args[2] = tl_sema_convert(s, lit(s, loc, 0), img->dtype);
  TlStmt *st = tl_stmt_new(s->arena, ST_STORE, loc);
  st->buf = col;
  st->nindices = 2;
  st->indices = TL_NEW_ARRAY(s->arena, TlExpr *, 2);
  st->indices[0] = tl_expr_var(s->arena, loc, nest->vars[0]);
  st->indices[1] = tl_expr_var(s->arena, loc, nest->vars[1]);
  st->value = value;
  st->update_op = OP_EQ;
  tl_vec_push(s->arena, &nest->body, st);
  img->read = true;
  col->written = true;
  tl_vec_push(s->arena, out, nest);
}
