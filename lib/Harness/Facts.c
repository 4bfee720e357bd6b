// What the harness's host side needs to know about a kernel, read from the
// tile IR: which parameters are read (get random data) and which are written
// (get poisoned, then compared), how many flops its T.gemm calls do, whether
// it is one plain GEMM that cuBLAS can also time, and the check tolerances.
//
// Read/written are recomputed here instead of trusting TlBuffer.read: sema
// marks the target of every element store as read (it lowers the target as
// an expression), which would leave pure outputs unpoisoned.
#include <math.h>
#include <string.h>

#include "HarnessInternal.h"

typedef struct Walk {
  TlKernelFacts *f;
  const TlKernel *k;
  bool only_tile_ops; // no T.Parallel, element store or reduce anywhere
  const TlStmt *gemm;
} Walk;

static void mark(Walk *w, const TlBuffer *b, bool write) {
  if (b && b->view_of) b = b->view_of;
  if (!b || b->scope != SCOPE_GLOBAL || b->param_index < 0 || b->param_index >= 64) return;
  if (write)
    w->f->written[b->param_index] = true;
  else
    w->f->read[b->param_index] = true;
}

static void expr_reads(Walk *w, const TlExpr *x) {
  if (!x) return;
  if (x->kind == EX_LOAD) mark(w, x->buf, false);
  for (int i = 0; i < x->nargs; i++)
    expr_reads(w, x->args[i]);
}

static void region_reads(Walk *w, const TlRegion *r) {
  for (int d = 0; d < r->ndims; d++)
    expr_reads(w, r->start[d]);
}

// Trip count of a loop with constant bounds, or -1.
static int64_t trips(const TlStmt *s) {
  int64_t lo, hi, step;
  if (!tl_expr_is_const(s->start, &lo) || !tl_expr_is_const(s->stop, &hi) ||
      !tl_expr_is_const(s->step, &step) || step == 0)
    return -1;
  int64_t n = step > 0 ? (hi - lo + step - 1) / step : (lo - hi - step - 1) / -step;
  return n > 0 ? n : 0;
}

// times: how often a statement here runs per block (-1: unknown).
static void walk(Walk *w, const TlVec *body, double times);

static void walk_stmt(Walk *w, const TlStmt *s, double times) {
  TlKernelFacts *f = w->f;
  switch (s->kind) {
  case ST_STORE:
    w->only_tile_ops = false;
    mark(w, s->buf, true);
    if (s->update_op != OP_EQ) mark(w, s->buf, false);
    for (int i = 0; i < s->nindices; i++)
      expr_reads(w, s->indices[i]);
    expr_reads(w, s->value);
    break;
  case ST_LET:
  case ST_SET:
    expr_reads(w, s->value);
    break;
  case ST_COPY:
    mark(w, s->src.buf, false);
    mark(w, s->dst.buf, true);
    if (s->atomic) // T.atomic_add's tile form: dst += src, so dst is read too
      mark(w, s->dst.buf, false);
    region_reads(w, &s->src);
    region_reads(w, &s->dst);
    break;
  case ST_FILL:
    mark(w, s->dst.buf, true);
    region_reads(w, &s->dst);
    expr_reads(w, s->value);
    break;
  case ST_REDUCE:
    w->only_tile_ops = false;
    f->has_reduce = true;
    if (s->reduce_dim >= 0 && s->reduce_dim < s->src.ndims) {
      int64_t n = s->src.extent[s->reduce_dim] > 0    ? s->src.extent[s->reduce_dim]
                  : s->reduce_dim < s->src.buf->ndims ? s->src.buf->shape[s->reduce_dim]
                                                      : 1;
      if (n > f->reduce_len) f->reduce_len = n;
    }
    mark(w, s->src.buf, false);
    mark(w, s->dst.buf, true);
    if (!s->reduce_clear) mark(w, s->dst.buf, false);
    break;
  case ST_GEMM: {
    f->has_gemm = true;
    f->ngemm++;
    w->gemm = s;
    int64_t M = s->c->shape[0], N = s->c->shape[1],
            K = s->trans_a ? s->a->shape[0] : s->a->shape[1];
    if (times < 0 || f->flops < 0)
      f->flops = -1;
    else
      f->flops += 2.0 * (double)M * (double)N * (double)K * times;
    break;
  }
  case ST_PARALLEL:
    w->only_tile_ops = false;
    walk(w, &s->body, times);
    break;
  case ST_FOR: {
    expr_reads(w, s->start);
    expr_reads(w, s->stop);
    int64_t n = trips(s);
    walk(w, &s->body, times < 0 || n < 0 ? -1 : times * (double)n);
    break;
  }
  case ST_WHILE: // trips unknown
    expr_reads(w, s->cond);
    walk(w, &s->body, -1);
    break;
  case ST_IF:
    // Both branches counted as always taken: flops are an upper bound here.
    expr_reads(w, s->cond);
    walk(w, &s->body, times);
    walk(w, &s->else_body, times);
    break;
  case ST_SEQ:
    walk(w, &s->body, times);
    break;
  default:
    break;
  }
}

static void walk(Walk *w, const TlVec *body, double times) {
  for (int i = 0; i < body->len; i++)
    walk_stmt(w, TL_VEC_AT(*body, TlStmt, i), times);
}

static bool same_shape(const TlBuffer *a, const TlBuffer *b) {
  if (a->ndims != b->ndims) return false;
  for (int d = 0; d < a->ndims; d++)
    if (a->shape[d] != b->shape[d]) return false;
  return true;
}

// One plain GEMM: three 2-D fp16/bf16 parameters A, B (read only) and C
// (written only), one T.gemm, and nothing but copies, fills and loops around
// it, so the kernel computes C = op(A) op(B) and cuBLAS can do the same.
static void cublas_fit(Walk *w, const TlKernel *k) {
  TlKernelFacts *f = w->f;
  if (f->ngemm != 1 || !w->only_tile_ops || k->params.len != 3) return;
  const TlBuffer *p[3];
  int nin = 0, out = -1, in[2] = {-1, -1};
  for (int i = 0; i < 3; i++) {
    p[i] = TL_VEC_AT(k->params, TlBuffer, i);
    if (p[i]->ndims != 2) return;
    if (f->written[i] && !f->read[i])
      out = i;
    else if (f->read[i] && !f->written[i] && nin < 2)
      in[nin++] = i;
  }
  if (out < 0 || nin != 2) return;
  const TlStmt *g = w->gemm;
  // Which input feeds the A side: the one with the gemm A operand's dtype
  // and a shape that fits; try the parameter order first.
  for (int swap = 0; swap < 2; swap++) {
    const TlBuffer *A = p[in[swap]], *B = p[in[1 - swap]], *C = p[out];
    TlDtype t = A->dtype;
    if ((t != TY_FLOAT16 && t != TY_BFLOAT16) || B->dtype != t) return;
    if (C->dtype != t && C->dtype != TY_FLOAT32) return;
    int64_t M = C->shape[0], N = C->shape[1];
    int64_t K = g->trans_a ? A->shape[0] : A->shape[1];
    int64_t am = g->trans_a ? A->shape[1] : A->shape[0];
    int64_t bk = g->trans_b ? B->shape[1] : B->shape[0];
    int64_t bn = g->trans_b ? B->shape[0] : B->shape[1];
    if (am == M && bk == K && bn == N) {
      f->cublas = true;
      f->a = in[swap], f->b = in[1 - swap], f->c = out;
      f->trans_a = g->trans_a, f->trans_b = g->trans_b;
      f->m = M, f->n = N, f->k = K;
      return;
    }
  }
}

bool tl_kernel_facts(const TlKernel *k, TlKernelFacts *f, TlDiag *d) {
  memset(f, 0, sizeof *f);
  if (k->params.len > 64) {
    tl_error(d, k->loc, "the harness supports kernels with up to 64 tensor parameters, '%s' has %d",
             k->name, k->params.len);
    return false;
  }
  Walk w = {f, k, true, NULL};
  double blocks = (double)k->grid_const[0] * (double)k->grid_const[1] * (double)k->grid_const[2];
  walk(&w, &k->body, blocks);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    f->traffic += tl_buffer_bytes(b) * ((f->read[i] ? 1 : 0) + (f->written[i] ? 1 : 0));
  }
  cublas_fit(&w, k);
  f->kind = "other";
  if (f->cublas) {
    f->kind = "gemm";
  } else if (!f->has_gemm && !f->has_reduce && k->params.len >= 2) {
    const TlBuffer *p0 = TL_VEC_AT(k->params, TlBuffer, 0);
    bool same = true;
    for (int i = 1; i < k->params.len; i++) {
      const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
      same = same && same_shape(p0, b) && b->dtype == p0->dtype;
    }
    if (same) f->kind = "elementwise";
  }
  return true;
}

double tl_harness_abs_tolerance(const TlKernelFacts *f, TlDtype t) {
  // Only for float32/float64 results of kernels without T.gemm, whose
  // relative tolerance is tight (1e-4): the 16-bit, fp8 and tensor-core ones
  // are loose already, and outputs that are small rather than cancelling
  // (attention's weighted means of V, about 0.05) would pass anything
  // within tol * sqrt(n) = 0.11 (found by the CPU emulator: an attention
  // kernel that skipped a wgmma wait passed at rel_err 0.95).
  if (f->has_gemm || (t != TY_FLOAT32 && t != TY_FLOAT64)) return 0;
  double tol = tl_harness_tolerance(f, t);
  // A sum of n terms of size ~1 in another order differs by ~sqrt(n) ulps of
  // the terms, whatever the result: on an output that cancels to zero
  // (tlc-smith seed 3876: sum(x) + abssum(x) of negative x) that is all of it.
  if (tol > 0 && f->has_reduce && f->reduce_len > 1) tol *= sqrt((double)f->reduce_len);
  return tol;
}

double tl_harness_tolerance(const TlKernelFacts *f, TlDtype t) {
  if (!tl_dtype_is_float(t)) return 0; // integers and bools: exact
  // fp8: one ulp is up to 2^-3 (e4m3) or 2^-2 (e5m2) of the value. The
  // float result before the cast matches the reference's to a few float
  // ulps, so only the elements within those ulps of a rounding boundary may
  // round the other way; a dropped mantissa bit everywhere measures 6e-2.
  if (t == TY_FLOAT8_E4M3) return 1e-2;
  if (t == TY_FLOAT8_E5M2) return 2e-2;
  if (t == TY_BFLOAT16) return 2e-2;
  if (t == TY_FLOAT16 || f->has_gemm)
    return 1e-2;                  // half rounding, or tensor-core accumulation order / tf32
  if (f->has_reduce) return 1e-4; // float sums in another order: ~sqrt(n) ulps on cancelling data
  return 1e-5;
}
