// IR constructors, the dtype/op/intrinsic tables, and tree helpers
// (clone, substitute, variable use) shared by sema and the passes.
#include "tlc/CIdent.h"
#include "tlc/IR.h"

#include <string.h>

static const struct {
  const char *name, *cuda;
  int bits;
  bool is_float, is_signed;
} dtypes[] = {
#define X(k, n, b, c, f, s) {n, c, b, f, s},
    TL_DTYPES(X)
#undef X
};

const char *tl_dtype_name(TlDtype t) {
  return dtypes[t].name;
}
const char *tl_dtype_cuda(TlDtype t) {
  return dtypes[t].cuda;
}
int tl_dtype_bits(TlDtype t) {
  return dtypes[t].bits;
}
bool tl_dtype_is_float(TlDtype t) {
  return dtypes[t].is_float;
}
bool tl_dtype_is_signed(TlDtype t) {
  return dtypes[t].is_signed;
}

bool tl_dtype_is_narrow_float(TlDtype t) {
  return dtypes[t].is_float && dtypes[t].bits < 32;
}
bool tl_dtype_is_fp8(TlDtype t) {
  return dtypes[t].is_float && dtypes[t].bits == 8;
}

bool tl_dtype_parse(const char *s, TlDtype *out) {
  static const struct {
    const char *alias;
    TlDtype t;
  } aliases[] = {{"float", TY_FLOAT32},
                 {"half", TY_FLOAT16},
                 {"fp16", TY_FLOAT16},
                 {"bf16", TY_BFLOAT16},
                 {"fp32", TY_FLOAT32},
                 {"double", TY_FLOAT64},
                 {"int", TY_INT32},
                 {"fp64", TY_FLOAT64},
                 // fp8: TileLang's and torch's spellings of the two OCP formats
                 // (e4m3 has no infinity, so torch calls it "fn", finite + NaN)
                 {"float8_e4m3fn", TY_FLOAT8_E4M3},
                 {"e4m3_float8", TY_FLOAT8_E4M3},
                 {"fp8_e4m3", TY_FLOAT8_E4M3},
                 {"e5m2_float8", TY_FLOAT8_E5M2},
                 {"fp8_e5m2", TY_FLOAT8_E5M2},
                 // TF32 is a float32 in memory; tlc computes on it in float32
                 // (no TF32 tensor-core path: T.gemm on it runs on CUDA cores)
                 {"tfloat32", TY_FLOAT32}};
  for (int i = 0; i < TY_COUNT; i++)
    if (strcmp(s, dtypes[i].name) == 0) {
      *out = (TlDtype)i;
      return true;
    }
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (strcmp(s, aliases[i].alias) == 0) {
      *out = aliases[i].t;
      return true;
    }
  return false;
}

const char *tl_scope_name(TlScope s) {
  static const char *names[] = {"global", "shared", "fragment", "local"};
  return names[s];
}

const char *tl_op_name(TlOp op) {
  static const char *names[] = {
#define X(k, s, p) s,
      TL_BINOPS(X)
#undef X
  };
  return names[op];
}

const char *tl_intrinsic_name(TlIntrinsic fn) {
  static const char *names[] = {
#define X(k, s) s,
      TL_INTRINSICS(X)
#undef X
  };
  return names[fn];
}

bool tl_intrinsic_is_user_shuffle(TlIntrinsic fn) {
  return fn == FN_SHFL || fn == FN_SHFL_DOWN || fn == FN_SHFL_UP || fn == FN_SHFL_XOR_MASKED;
}

const char *tl_shuffle_cuda_name(TlIntrinsic fn) {
  return fn == FN_SHFL_DOWN         ? "__shfl_down_sync"
         : fn == FN_SHFL_UP         ? "__shfl_up_sync"
         : fn == FN_SHFL_XOR_MASKED ? "__shfl_xor_sync"
                                    : "__shfl_sync";
}

const char *tl_loop_kind_name(TlLoopKind k) {
  static const char *names[] = {"serial", "unroll", "vectorized", "pipelined"};
  return names[k];
}

const char *tl_ring_name(TlRing r) {
  static const char *names[] = {"none", "full", "empty", "user"};
  return names[r];
}

const char *tl_origin_name(TlOrigin o) {
  static const char *names[] = {"user", "copy", "fill", "reduce"};
  return names[o];
}

int64_t tl_buffer_elems(const TlBuffer *b) {
  int64_t n = 1;
  for (int i = 0; i < b->ndims; i++)
    n *= b->shape[i]; // sema checked the product does not overflow
  return n;
}

bool tl_buffer_is_dynamic(const TlBuffer *b) {
  for (int i = 0; i < b->ndims; i++)
    if (b->dyn[i]) return true;
  return false;
}

int64_t tl_buffer_dyn_scale(const TlBuffer *b, int d) {
  return b->dyn_scale[d] > 1 ? b->dyn_scale[d] : 1;
}

TlExpr *tl_buffer_dim(TlArena *a, const TlBuffer *b, int d, TlDtype t, TlLoc loc) {
  if (!b->dyn[d]) return tl_expr_int(a, loc, b->shape[d], t);
  TlExpr *v = tl_expr_var(a, loc, b->dyn[d]);
  v = v->dtype == t ? v : tl_expr_cast(a, loc, v, t);
  int64_t k = tl_buffer_dyn_scale(b, d);
  return k == 1 ? v : tl_expr_binary(a, loc, OP_MUL, v, tl_expr_int(a, loc, k, t), t);
}

TlExpr *tl_buffer_stride(TlArena *a, const TlBuffer *b, int d, TlDtype t, TlLoc loc) {
  if (!b->dyn_stride[d]) return tl_expr_int(a, loc, b->stride[d], t);
  TlExpr *v = tl_expr_var(a, loc, b->dyn_stride[d]);
  return v->dtype == t ? v : tl_expr_cast(a, loc, v, t);
}

int64_t tl_buffer_span(const TlBuffer *b) {
  if (!b->strided) return tl_buffer_elems(b);
  for (int i = 0; i < b->ndims; i++)
    if (b->dyn[i] || b->dyn_stride[i]) return 0; // known at run time only
  int64_t n = 1;
  for (int i = 0; i < b->ndims; i++)
    n += (b->shape[i] - 1) * b->stride[i]; // sema checked it fits
  return n;
}

int64_t tl_buffer_bytes(const TlBuffer *b) {
  return tl_buffer_elems(b) * (tl_dtype_bits(b->dtype) / 8) * (b->stages > 0 ? b->stages : 1);
}

TlExpr *tl_expr_new(TlArena *a, TlExprKind k, TlLoc loc, TlDtype t, int nargs) {
  TlExpr *e = TL_NEW(a, TlExpr);
  e->kind = k;
  e->loc = loc;
  e->dtype = t;
  e->nargs = nargs;
  if (nargs) e->args = TL_NEW_ARRAY(a, TlExpr *, nargs);
  return e;
}

TlExpr *tl_expr_int(TlArena *a, TlLoc loc, int64_t v, TlDtype t) {
  TlExpr *e = tl_expr_new(a, EX_INT, loc, t, 0);
  e->ival = v;
  return e;
}

TlExpr *tl_expr_float(TlArena *a, TlLoc loc, double v, TlDtype t) {
  TlExpr *e = tl_expr_new(a, EX_FLOAT, loc, t, 0);
  e->fval = v;
  return e;
}

TlExpr *tl_expr_var(TlArena *a, TlLoc loc, TlVar *v) {
  TlExpr *e = tl_expr_new(a, EX_VAR, loc, v->dtype, 0);
  e->var = v;
  return e;
}

TlExpr *tl_expr_binary(TlArena *a, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r, TlDtype t) {
  TlExpr *e = tl_expr_new(a, EX_BINARY, loc, t, 2);
  e->op = op;
  e->args[0] = l;
  e->args[1] = r;
  return e;
}

TlExpr *tl_expr_unary(TlArena *a, TlLoc loc, TlOp op, TlExpr *x, TlDtype t) {
  TlExpr *e = tl_expr_new(a, EX_UNARY, loc, t, 1);
  e->op = op;
  e->args[0] = x;
  return e;
}

TlExpr *tl_expr_cast(TlArena *a, TlLoc loc, TlExpr *x, TlDtype t) {
  if (x->dtype == t && !x->untyped) return x;
  TlExpr *e = tl_expr_new(a, EX_CAST, loc, t, 1);
  e->args[0] = x;
  return e;
}

TlExpr *tl_expr_load(TlArena *a, TlLoc loc, TlBuffer *b, TlExpr **idx, int n) {
  TlExpr *e = tl_expr_new(a, EX_LOAD, loc, b->dtype, n);
  e->buf = b;
  for (int i = 0; i < n; i++)
    e->args[i] = idx[i];
  return e;
}

TlStmt *tl_stmt_new(TlArena *a, TlStmtKind k, TlLoc loc) {
  TlStmt *s = TL_NEW(a, TlStmt);
  s->kind = k;
  s->loc = loc;
  s->update_op = OP_EQ;
  return s;
}

TlVar *tl_var_new(TlArena *a, TlKernel *k, const char *name, TlVarKind kind, TlDtype t, TlLoc loc) {
  TlVar *v = TL_NEW(a, TlVar);
  v->name = name;
  v->kind = kind;
  v->dtype = t;
  v->loc = loc;
  // A numeric suffix makes every emitted name unique and keeps it off every
  // keyword; CIdent.h escapes tlc's own prefixes (tl_gemm -> utl_gemm_4).
  v->cname = tl_cident_numbered(a, name, k ? k->next_id++ : 0);
  return v;
}

TlExpr *tl_expr_clone(TlArena *a, const TlExpr *e) {
  return tl_expr_substitute(a, e, 0, NULL, NULL);
}

TlExpr *tl_expr_substitute(TlArena *a, const TlExpr *e, int n, TlVar *const *vars,
                           TlExpr *const *with) {
  if (!e) return NULL;
  if (e->kind == EX_VAR)
    for (int i = 0; i < n; i++)
      if (e->var == vars[i]) return tl_expr_clone(a, with[i]);
  TlExpr *c = TL_NEW(a, TlExpr);
  *c = *e;
  if (e->nargs) {
    c->args = TL_NEW_ARRAY(a, TlExpr *, e->nargs);
    for (int i = 0; i < e->nargs; i++)
      c->args[i] = tl_expr_substitute(a, e->args[i], n, vars, with);
  }
  return c;
}

static void subst_region(TlArena *a, TlRegion *r, int n, TlVar *const *vars, TlExpr *const *with) {
  for (int i = 0; i < r->ndims; i++)
    r->start[i] = tl_expr_substitute(a, r->start[i], n, vars, with);
}

void tl_stmt_substitute(TlArena *a, TlStmt *s, int n, TlVar *const *vars, TlExpr *const *with) {
  for (int i = 0; i < s->nindices; i++)
    s->indices[i] = tl_expr_substitute(a, s->indices[i], n, vars, with);
  s->value = tl_expr_substitute(a, s->value, n, vars, with);
  s->cond = tl_expr_substitute(a, s->cond, n, vars, with);
  s->start = tl_expr_substitute(a, s->start, n, vars, with);
  s->stop = tl_expr_substitute(a, s->stop, n, vars, with);
  s->step = tl_expr_substitute(a, s->step, n, vars, with);
  subst_region(a, &s->src, n, vars, with);
  subst_region(a, &s->dst, n, vars, with);
  for (int i = 0; i < s->body.len; i++)
    tl_stmt_substitute(a, TL_VEC_AT(s->body, TlStmt, i), n, vars, with);
  for (int i = 0; i < s->else_body.len; i++)
    tl_stmt_substitute(a, TL_VEC_AT(s->else_body, TlStmt, i), n, vars, with);
}

bool tl_expr_loads(const TlExpr *e, const TlBuffer *b) {
  if (!e) return false;
  if (e->kind == EX_LOAD && e->buf == b) return true;
  for (int i = 0; i < e->nargs; i++)
    if (tl_expr_loads(e->args[i], b)) return true;
  return false;
}

bool tl_stmt_touches(const TlStmt *s, const TlBuffer *b, bool writes_only) {
  if ((s->kind == ST_STORE && s->buf == b) || (s->kind == ST_GEMM && s->c == b)) return true;
  if (!writes_only) {
    if (s->kind == ST_GEMM && (s->a == b || s->b == b)) return true;
    if ((s->kind == ST_COPY || s->kind == ST_REDUCE) && s->src.buf == b) return true;
    for (int i = 0; i < s->nindices; i++)
      if (tl_expr_loads(s->indices[i], b)) return true;
    if (tl_expr_loads(s->value, b) || tl_expr_loads(s->cond, b)) return true;
  } else if ((s->kind == ST_COPY || s->kind == ST_FILL || s->kind == ST_REDUCE) &&
             s->dst.buf == b) {
    return true;
  }
  for (int i = 0; i < s->body.len; i++)
    if (tl_stmt_touches(TL_VEC_AT(s->body, TlStmt, i), b, writes_only)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (tl_stmt_touches(TL_VEC_AT(s->else_body, TlStmt, i), b, writes_only)) return true;
  return false;
}

bool tl_body_syncs_grid(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_SYNC && s->grid_sync) || tl_body_syncs_grid(&s->body) ||
        tl_body_syncs_grid(&s->else_body))
      return true;
  }
  return false;
}

bool tl_body_uses_wgmma(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if ((s->kind == ST_GEMM && s->use_wgmma) || tl_body_uses_wgmma(&s->body) ||
        tl_body_uses_wgmma(&s->else_body))
      return true;
  }
  return false;
}

bool tl_expr_uses_var(const TlExpr *e, const TlVar *v) {
  if (!e) return false;
  if (e->kind == EX_VAR && e->var == v) return true;
  for (int i = 0; i < e->nargs; i++)
    if (tl_expr_uses_var(e->args[i], v)) return true;
  return false;
}

bool tl_expr_is_const(const TlExpr *e, int64_t *v) {
  if (e && e->kind == EX_INT) {
    if (v) *v = e->ival;
    return true;
  }
  return false;
}

TlExpr *tl_access_flat(TlArena *a, const TlBuffer *b, TlExpr *const *idx, int n) {
  int lead = n - b->ndims; // 1 when a stage index leads
  TlLoc loc = idx[0]->loc;
  TlExpr *off = NULL;
  if (b->strided) { // sum of index * stride (globals: no stage index)
    for (int d = 0; d < b->ndims; d++) {
      TlDtype t = idx[d]->dtype;
      TlExpr *term = tl_expr_binary(a, loc, OP_MUL, idx[d], tl_buffer_stride(a, b, d, t, loc), t);
      off = off ? tl_expr_binary(a, loc, OP_ADD, off, term, t) : term;
    }
    return tl_simplify(a, off);
  }
  for (int d = lead; d < n; d++) {
    TlDtype t = idx[d]->dtype;
    off = off ? tl_expr_binary(
                    a, loc, OP_ADD,
                    tl_expr_binary(a, loc, OP_MUL, off, tl_buffer_dim(a, b, d - lead, t, loc), t),
                    idx[d], t)
              : idx[d];
  }
  if (lead == 1) {
    TlDtype t = off->dtype;
    off = tl_expr_binary(
        a, loc, OP_ADD,
        tl_expr_binary(a, loc, OP_MUL, idx[0], tl_expr_int(a, loc, tl_buffer_elems(b), t), t), off,
        t);
  }
  return tl_simplify(a, off);
}

static void clone_region(TlArena *a, TlRegion *r) {
  for (int i = 0; i < r->ndims; i++)
    r->start[i] = tl_expr_clone(a, r->start[i]);
}

static TlVec clone_body(TlArena *a, const TlVec *body) {
  TlVec out = {0};
  for (int i = 0; i < body->len; i++)
    tl_vec_push(a, &out, tl_stmt_clone(a, TL_VEC_AT(*body, TlStmt, i)));
  return out;
}

TlStmt *tl_stmt_clone(TlArena *a, const TlStmt *s) {
  TlStmt *c = TL_NEW(a, TlStmt);
  *c = *s;
  if (s->nindices) {
    c->indices = TL_NEW_ARRAY(a, TlExpr *, s->nindices);
    for (int i = 0; i < s->nindices; i++)
      c->indices[i] = tl_expr_clone(a, s->indices[i]);
  }
  c->value = tl_expr_clone(a, s->value);
  c->cond = tl_expr_clone(a, s->cond);
  c->start = tl_expr_clone(a, s->start);
  c->stop = tl_expr_clone(a, s->stop);
  c->step = tl_expr_clone(a, s->step);
  c->stage_a = tl_expr_clone(a, s->stage_a);
  c->stage_b = tl_expr_clone(a, s->stage_b);
  c->offset_a = tl_expr_clone(a, s->offset_a);
  c->offset_b = tl_expr_clone(a, s->offset_b);
  clone_region(a, &c->src);
  clone_region(a, &c->dst);
  c->body = clone_body(a, &s->body);
  c->else_body = clone_body(a, &s->else_body);
  return c;
}

bool tl_expr_eval_int(const TlExpr *e, TlVar *const *vars, const int64_t *vals, int n,
                      int64_t *out) {
  int64_t a = 0, b = 0;
  // uint64 values past 2^63 are negative int64s here: not evaluated
  if (e->dtype == TY_UINT64 || (e->nargs > 0 && e->args[0]->dtype == TY_UINT64)) return false;
  switch (e->kind) {
  case EX_INT:
    *out = e->ival;
    return true;
  case EX_VAR:
    for (int i = 0; i < n; i++)
      if (vars[i] == e->var) {
        *out = vals[i];
        return true;
      }
    return false;
  case EX_CAST:
    return !tl_dtype_is_float(e->dtype) && tl_expr_eval_int(e->args[0], vars, vals, n, out);
  case EX_UNARY:
    if (!tl_expr_eval_int(e->args[0], vars, vals, n, &a)) return false;
    if (e->op == OP_BITNOT) { // ~a of a signed type in 64 bits is ~a in its own width
      if (!tl_dtype_is_signed(e->dtype)) return false;
      *out = ~a;
      return true;
    }
    if (e->op == OP_NEG && a == INT64_MIN) return false;
    *out = e->op == OP_NEG ? -a : !a;
    return true;
  case EX_SELECT:
    if (!tl_expr_eval_int(e->args[0], vars, vals, n, &a)) return false;
    return tl_expr_eval_int(e->args[a ? 1 : 2], vars, vals, n, out);
  case EX_BINARY:
    if (!tl_expr_eval_int(e->args[0], vars, vals, n, &a) ||
        !tl_expr_eval_int(e->args[1], vars, vals, n, &b))
      return false;
    switch (e->op) {
    case OP_ADD:
      return !tl_add_overflows(a, b, out);
    case OP_SUB:
      return !tl_sub_overflows(a, b, out);
    case OP_MUL:
      return !tl_mul_overflows(a, b, out);
    case OP_FLOORDIV:
    case OP_FLOORMOD:
      if (b == 0 || (a == INT64_MIN && b == -1)) return false;
      *out = e->op == OP_FLOORDIV ? tl_floordiv(a, b) : tl_floormod(a, b);
      return true;
    case OP_MIN:
      *out = a < b ? a : b;
      return true;
    case OP_MAX:
      *out = a > b ? a : b;
      return true;
    case OP_EQ:
      *out = a == b;
      return true;
    case OP_NE:
      *out = a != b;
      return true;
    case OP_LT:
      *out = a < b;
      return true;
    case OP_LE:
      *out = a <= b;
      return true;
    case OP_GT:
      *out = a > b;
      return true;
    case OP_GE:
      *out = a >= b;
      return true;
    case OP_AND:
      *out = a && b;
      return true;
    case OP_OR:
      *out = a || b;
      return true;
    case OP_XOR:
    case OP_BITAND:
    case OP_BITOR:
      if (!tl_dtype_is_signed(e->dtype) && e->dtype != TY_BOOL && (a < 0 || b < 0)) return false;
      *out = e->op == OP_XOR ? a ^ b : e->op == OP_BITAND ? a & b : a | b;
      return true;
    case OP_SHR: // arithmetic on signed values; the operand is non-negative otherwise
      if (b < 0 || b >= tl_dtype_bits(e->dtype) || (!tl_dtype_is_signed(e->dtype) && a < 0))
        return false;
      *out = a >> b;
      return true;
    case OP_SHL: { // only where the result fits the type (no wrap-around modelled)
      int bits = tl_dtype_bits(e->dtype);
      if (a < 0 || b < 0 || b >= bits || bits > 62) return false;
      int64_t limit = tl_dtype_is_signed(e->dtype) ? INT64_C(1) << (bits - 1) : INT64_C(1) << bits;
      if (a >= limit >> b) return false;
      *out = a << b;
      return true;
    }
    default:
      return false;
    }
  default:
    return false;
  }
}

void tl_stmt_expand(TlArena *a, TlVec *body, bool (*expand)(void *ctx, TlStmt *s, TlVec *out),
                    void *ctx) {
  TlVec out = {0};
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    tl_stmt_expand(a, &s->body, expand, ctx);
    tl_stmt_expand(a, &s->else_body, expand, ctx);
    if (!expand(ctx, s, &out)) tl_vec_push(a, &out, s);
  }
  *body = out;
}

bool tl_kernel_warp_ranges(const TlKernel *k) {
  return k->launch_threads && k->launch_threads == k->threads[0];
}

int tl_scope_barrier_id(const TlKernel *k, int64_t group_lo) {
  return (int)(1 + group_lo / (tl_kernel_warp_ranges(k) ? 32 : 128));
}

int tl_first_free_barrier_id(const TlKernel *k) {
  return tl_scope_barrier_id(k, k->launch_threads);
}

bool tl_intrinsic_is_rng(TlIntrinsic fn) {
  return fn == FN_RNG_RAND || fn == FN_RNG_UNIFORM || fn == FN_RNG_NORMAL;
}

bool tl_body_uses_rng(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_RNG_INIT || tl_body_uses_rng(&s->body) || tl_body_uses_rng(&s->else_body))
      return true;
  }
  return false;
}
