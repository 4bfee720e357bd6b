// CUDA emitter: thread IR -> one self-contained .cu file. It makes no
// decisions (layouts, vector widths, offsets, barriers were chosen by the
// passes); it prints them:
//   * a prelude with the toolkit headers and only the helpers used,
//   * per kernel an extern "C" __global__ function with __launch_bounds__,
//     the block indices and shared tiles named as in the source, and the
//     partitioned loops with threadIdx.x, the vector width and the guards,
//   * per kernel a host launcher that raises the dynamic shared-memory limit
//     when needed, launches the grid and returns the launch error.
#include "tlc/CIdent.h"
#include "tlc/CodeGen.h"
#include "tlc/FragLayout.h"

#include <math.h>
#include <string.h>

typedef struct Emit {
  TlBuf *out;
  TlBuf body; // the kernels, printed before the prelude is known
  const TlModule *m;
  const TlKernel *k;
  bool need_floordiv, need_floormod, need_fmod, need_swz, need_mma, need_cp_async;
  bool need_swz_wg, need_wgmma;
  bool kernel_wgmma; // this kernel's shared tiles are read by wgmma (the async proxy)
  bool need_mbar, need_tma_host;
  unsigned need_tma_ranks; // bit r: the TMA load helper of rank r
  unsigned need_tma_mc_ranks; // bit r: its multicast form (clusters)
  unsigned need_tma_store_ranks; // bit r: the TMA store of rank r; bit 0: the bulk-group waits
  bool need_cluster;
  TlBuf helpers; // gemm helpers, printed before the kernels
} Emit;

void tl_emit_gemm_ptx(TlBuf *out);
void tl_emit_wgmma_ptx(TlBuf *out);
void tl_emit_gemm_helper(TlBuf *out, TlArena *a, const TlStmt *g,
                         void (*print_expr)(TlBuf *, const TlExpr *));

static const char *buf_name(Emit *e, const TlBuffer *b) {
  if (b->table)
    return b->name; // tlc's own name
  // One spelling in every output (CIdent.h).
  return tl_cident(e->body.arena, b->name, TL_CIDENT_LOCAL);
}

static bool is_half(TlDtype t) {
  return t == TY_FLOAT16 || t == TY_BFLOAT16;
}

static void expr(Emit *e, const TlExpr *x);
static void expr_p(Emit *e, const TlExpr *x, int min_prec);

static void float_literal(Emit *e, double v, TlDtype t) {
  TlBuf *o = &e->body;
  if (isinf(v)) {
    if (t == TY_FLOAT64)
      tl_buf_printf(o, "%s__longlong_as_double(0x%s)", v < 0 ? "-" : "", "7ff0000000000000LL");
    else if (t == TY_FLOAT32)
      tl_buf_printf(o, "%s__int_as_float(0x7f800000)", v < 0 ? "-" : "");
    else
      tl_buf_printf(o, "%s(%s)__int_as_float(0x7f800000)", v < 0 ? "-" : "", tl_dtype_cuda(t));
    return;
  }
  if (isnan(v)) {
    tl_buf_printf(o, "(%s)__int_as_float(0x7fc00000)", tl_dtype_cuda(t));
    return;
  }
  char num[64];
  snprintf(num, sizeof num, "%.17g", v);
  if (t == TY_FLOAT32) {
    snprintf(num, sizeof num, "%.9g", v);
  }
  if (!strpbrk(num, ".eEn"))
    strcat(num, ".0");
  if (t == TY_FLOAT32)
    tl_buf_printf(o, "%sf", num);
  else if (t == TY_FLOAT64)
    tl_buf_puts(o, num);
  else
    tl_buf_printf(o, "%s(%sf)", tl_dtype_cuda(t), num);
}

static void var_name(Emit *e, const TlVar *v) {
  static const char *dims = "xyz";
  // threadIdx is unsigned; as an int it keeps Python's signed arithmetic
  // when a user expression mixes it with negative values.
  if (v->kind == VAR_THREAD_IDX)
    tl_buf_printf(&e->body, "(int)threadIdx.%c", dims[v->dim]);
  else
    tl_buf_puts(&e->body, v->cname);
}

// A value converted to float, for math on half types.
static void as_float(Emit *e, const TlExpr *x) {
  if (is_half(x->dtype)) {
    tl_buf_puts(&e->body, "(float)(");
    expr(e, x);
    tl_buf_putc(&e->body, ')');
  } else {
    expr(e, x);
  }
}

static void cast(Emit *e, const TlExpr *x, TlDtype to) {
  TlBuf *o = &e->body;
  TlDtype from = x->dtype;
  // half/bfloat16 convert through float to and from anything but float.
  if ((is_half(from) && to != TY_FLOAT32) || (is_half(to) && from != TY_FLOAT32)) {
    tl_buf_printf(o, "(%s)((float)(", tl_dtype_cuda(to));
    expr(e, x);
    tl_buf_puts(o, "))");
    return;
  }
  tl_buf_printf(o, "(%s)(", tl_dtype_cuda(to));
  expr(e, x);
  tl_buf_putc(o, ')');
}

// C precedence of the infix operators the emitter prints.
static int c_precedence(TlOp op) {
  switch (op) {
  case OP_MUL: case OP_DIV: case OP_FLOORDIV: case OP_FLOORMOD: return 13;
  case OP_ADD: case OP_SUB: return 12;
  case OP_LT: case OP_LE: case OP_GT: case OP_GE: return 10;
  case OP_EQ: case OP_NE: return 9;
  case OP_AND: return 5;
  case OP_OR: return 4;
  default: return 15;
  }
}

static void binary(Emit *e, const TlExpr *x, int min_prec) {
  TlBuf *o = &e->body;
  const TlExpr *l = x->args[0], *r = x->args[1];
  TlDtype t = l->dtype;
  bool fl = tl_dtype_is_float(t);
  switch (x->op) {
  case OP_MIN:
  case OP_MAX:
    if (fl) {
      if (is_half(t))
        tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
      tl_buf_printf(o, "%s(", x->op == OP_MIN ? (t == TY_FLOAT64 ? "fmin" : "fminf")
                                              : (t == TY_FLOAT64 ? "fmax" : "fmaxf"));
      as_float(e, l);
      tl_buf_puts(o, ", ");
      as_float(e, r);
      tl_buf_putc(o, ')');
    } else {
      tl_buf_printf(o, "%s(", x->op == OP_MIN ? "min" : "max");
      expr(e, l);
      tl_buf_puts(o, ", ");
      expr(e, r);
      tl_buf_putc(o, ')');
    }
    return;
  case OP_FLOORDIV:
  case OP_FLOORMOD:
    if (fl) {
      if (is_half(t))
        tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
      if (x->op == OP_FLOORDIV) {
        tl_buf_puts(o, t == TY_FLOAT64 ? "floor(" : "floorf(");
        as_float(e, l);
        tl_buf_puts(o, " / ");
        as_float(e, r);
        tl_buf_putc(o, ')');
        return;
      }
      e->need_fmod = true;
      tl_buf_puts(o, "tl_pymod(");
      as_float(e, l);
      tl_buf_puts(o, ", ");
      as_float(e, r);
      tl_buf_putc(o, ')');
      return;
    }
    if (tl_expr_nonneg(l) && tl_expr_nonneg(r)) {
      // Both sides are known non-negative: C's / and % are Python's.
      bool paren = 13 < min_prec;
      if (paren)
        tl_buf_putc(o, '(');
      expr_p(e, l, 13);
      tl_buf_puts(o, x->op == OP_FLOORDIV ? " / " : " % ");
      expr_p(e, r, 14);
      if (paren)
        tl_buf_putc(o, ')');
      return;
    }
    if (x->op == OP_FLOORDIV)
      e->need_floordiv = true;
    else
      e->need_floormod = true;
    tl_buf_puts(o, x->op == OP_FLOORDIV ? "tl_floordiv(" : "tl_floormod(");
    expr(e, l);
    tl_buf_puts(o, ", ");
    expr(e, r);
    tl_buf_putc(o, ')');
    return;
  case OP_FMOD:
    e->need_fmod = true;
    if (is_half(t))
      tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
    tl_buf_puts(o, "tl_pymod(");
    as_float(e, l);
    tl_buf_puts(o, ", ");
    as_float(e, r);
    tl_buf_putc(o, ')');
    return;
  case OP_POW:
    if (is_half(t))
      tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
    tl_buf_puts(o, t == TY_FLOAT64 ? "pow(" : "powf(");
    as_float(e, l);
    tl_buf_puts(o, ", ");
    as_float(e, r);
    tl_buf_putc(o, ')');
    return;
  default:
    break;
  }
  static const char *ops[] = {
#define X(k, s, p) s,
      TL_BINOPS(X)
#undef X
  };
  const char *op = x->op == OP_AND ? "&&" : x->op == OP_OR ? "||" : ops[x->op];
  int p = c_precedence(x->op);
  bool paren = p < min_prec;
  if (paren)
    tl_buf_putc(o, '(');
  expr_p(e, l, p);
  tl_buf_printf(o, " %s ", op);
  expr_p(e, r, p + 1);
  if (paren)
    tl_buf_putc(o, ')');
}

static void call(Emit *e, const TlExpr *x) {
  TlBuf *o = &e->body;
  TlDtype t = x->dtype;
  const TlExpr *a = x->args[0];
  bool dbl = t == TY_FLOAT64;
  if (x->fn == FN_SHFL_XOR) {
    tl_buf_puts(o, "__shfl_xor_sync(0xffffffffu, ");
    expr(e, a);
    tl_buf_puts(o, ", ");
    expr(e, x->args[1]);
    tl_buf_putc(o, ')');
    return;
  }
  if (x->fn == FN_SWIZZLE) {
    const TlBuffer *b = x->buf;
    int64_t C = b->shape[b->ndims - 1], V = 128 / tl_dtype_bits(b->dtype);
    if (b->wgmma_operand && C > V * b->swizzle) { // panels of V * swizzle columns
      e->need_swz_wg = e->need_swz = true;
      tl_buf_printf(o, "tl_swz_wg<%lld, %lld, %lld, %d>(", (long long)(tl_buffer_elems(b) / C), (long long)C,
                    (long long)V, b->swizzle);
    } else {
      e->need_swz = true;
      tl_buf_printf(o, "tl_swz<%lld, %lld, %d>(", (long long)C, (long long)V, b->swizzle);
    }
    expr(e, a);
    tl_buf_puts(o, ", ");
    expr(e, x->args[1]);
    tl_buf_putc(o, ')');
    return;
  }
  if (x->fn == FN_ABS && !tl_dtype_is_float(t)) {
    tl_buf_puts(o, t == TY_INT64 ? "llabs(" : "abs(");
    expr(e, a);
    tl_buf_putc(o, ')');
    return;
  }
  if (is_half(t))
    tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
  switch (x->fn) {
  case FN_SIGMOID:
    tl_buf_puts(o, dbl ? "(1.0 / (1.0 + exp(-(" : "(1.0f / (1.0f + __expf(-(");
    as_float(e, a);
    tl_buf_puts(o, "))))");
    return;
  case FN_RSQRT:
    tl_buf_puts(o, dbl ? "rsqrt(" : "rsqrtf(");
    break;
  default: {
    static const char *names[] = {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "tanh", "sigmoid", "fabs"};
    tl_buf_printf(o, "%s%s(", names[x->fn], dbl ? "" : "f");
    break;
  }
  }
  as_float(e, a);
  tl_buf_putc(o, ')');
}

static void expr(Emit *e, const TlExpr *x) {
  expr_p(e, x, 0);
}

static void expr_p(Emit *e, const TlExpr *x, int min_prec) {
  TlBuf *o = &e->body;
  switch (x->kind) {
  case EX_INT:
    if (x->dtype == TY_BOOL)
      tl_buf_puts(o, x->ival ? "true" : "false");
    else if (x->ival > INT32_MAX || x->ival < INT32_MIN || x->dtype == TY_INT64)
      tl_buf_printf(o, "%lldLL", (long long)x->ival);
    else if (x->dtype == TY_UINT32)
      tl_buf_printf(o, "%lldu", (long long)x->ival);
    else
      tl_buf_printf(o, "%lld", (long long)x->ival);
    return;
  case EX_FLOAT:
    float_literal(e, x->fval, x->dtype);
    return;
  case EX_VAR:
    var_name(e, x->var);
    return;
  case EX_LOAD:
    tl_buf_printf(o, "%s[", buf_name(e, x->buf));
    expr(e, x->args[0]);
    tl_buf_putc(o, ']');
    return;
  case EX_ELEM:
    tl_buf_printf(o, "%s[", x->var->cname);
    expr(e, x->args[0]);
    tl_buf_putc(o, ']');
    return;
  case EX_BINARY:
    binary(e, x, min_prec);
    return;
  case EX_UNARY: {
    tl_buf_puts(o, x->op == OP_NOT ? "!" : "-");
    size_t operand = o->len;
    expr_p(e, x->args[0], 14);
    // "-" then an operand printed with its own leading "-" (-(-a), -(-1.0f))
    // would read "--", C's decrement: separate them (found by tlc-smith).
    if (x->op != OP_NOT && o->len > operand && o->data[operand] == '-') {
      tl_buf_putc(o, ' ');
      memmove(o->data + operand + 1, o->data + operand, o->len - 1 - operand);
      o->data[operand] = ' ';
    }
    return;
  }
  case EX_CALL:
    call(e, x);
    return;
  case EX_CAST:
    cast(e, x->args[0], x->dtype);
    return;
  case EX_SELECT:
    tl_buf_putc(o, '(');
    expr_p(e, x->args[0], 4);
    tl_buf_puts(o, " ? ");
    expr_p(e, x->args[1], 4);
    tl_buf_puts(o, " : ");
    expr_p(e, x->args[2], 4);
    tl_buf_putc(o, ')');
    return;
  }
}

// The CUDA type that moves `width` elements of t in one access.
static const char *vector_type(TlDtype t, int64_t width) {
  int bytes = (int)(tl_dtype_bits(t) / 8 * width);
  if (t == TY_FLOAT32)
    return width == 4 ? "float4" : width == 2 ? "float2" : "float";
  if (t == TY_FLOAT16 && width == 2)
    return "__half2";
  if (t == TY_BFLOAT16 && width == 2)
    return "__nv_bfloat162";
  if (t == TY_FLOAT64 && width == 2)
    return "double2";
  return bytes == 16 ? "uint4" : bytes == 8 ? "uint2" : bytes == 4 ? "unsigned int" : "unsigned short";
}

static void stmts(Emit *e, const TlVec *body, int level);

// A vector load or store of more than 16 bytes (a run of 8 fp32 registers)
// is 16-byte pieces, `((uint4*)r)[i] = ((const uint4*)&A[base])[i]`: the
// vectorizer checked that base is aligned to the whole run.
static bool wide_access(Emit *e, const TlStmt *s, int level) {
  int64_t bytes = tl_dtype_bits(s->buf->dtype) / 8 * s->width;
  if (bytes <= 16) return false;
  TlBuf *o = &e->body;
  for (int64_t i = 0; i < bytes / 16; i++) {
    tl_buf_indent(o, level);
    if (s->kind == ST_VLOAD) {
      tl_buf_printf(o, "((uint4*)%s)[%lld] = ((const uint4*)&%s[", s->var->cname, (long long)i,
                    buf_name(e, s->buf));
      expr(e, s->indices[0]);
      tl_buf_printf(o, "])[%lld];\n", (long long)i);
    } else {
      tl_buf_printf(o, "((uint4*)&%s[", buf_name(e, s->buf));
      expr(e, s->indices[0]);
      tl_buf_printf(o, "])[%lld] = ((const uint4*)%s)[%lld];\n", (long long)i, s->var->cname,
                    (long long)i);
    }
  }
  return true;
}

// Prints an expression into another buffer (the gemm helpers use it).
static void print_expr_to(TlBuf *out, const TlExpr *x) {
  Emit tmp = {0};
  tmp.body = *out;
  expr(&tmp, x);
  *out = tmp.body;
}

// T.atomic_add: CUDA's atomicAdd has float, __half and __nv_bfloat16
// overloads on sm_80 and newer (sema keeps other dtypes out), so the value,
// already converted to the buffer's dtype, is passed as it is.
static void atomic_add(Emit *e, const char *target, const TlExpr *value) {
  tl_buf_printf(&e->body, "atomicAdd(&%s, ", target);
  expr(e, value);
  tl_buf_puts(&e->body, ");\n");
}

static void update(Emit *e, const TlStmt *s, const char *target) {
  TlBuf *o = &e->body;
  switch (s->update_op) {
  case OP_EQ:
    tl_buf_printf(o, "%s = ", target);
    expr(e, s->value);
    break;
  case OP_ADD:
  case OP_SUB:
  case OP_MUL:
  case OP_DIV:
    tl_buf_printf(o, "%s %s= ", target, tl_op_name(s->update_op));
    expr(e, s->value);
    break;
  default: {
    // floor ops: target = op(target, value)
    tl_buf_printf(o, "%s = ", target);
    const char *fn = s->update_op == OP_FLOORDIV ? "tl_floordiv" : s->update_op == OP_FMOD ? "tl_pymod" : "tl_floormod";
    if (s->update_op == OP_FLOORDIV)
      e->need_floordiv = true;
    else if (s->update_op == OP_FMOD)
      e->need_fmod = true;
    else
      e->need_floormod = true;
    tl_buf_printf(o, "%s(%s, ", fn, target);
    expr(e, s->value);
    tl_buf_putc(o, ')');
    break;
  }
  }
  tl_buf_puts(o, ";\n");
}

// One TMA load per swizzle panel of the tile: coordinates innermost first
// (the tensor map's order), the panel's columns offset along the contiguous
// dimension; the bytes complete on the stage's full barrier.
static void tma_load(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(e->k->tma_maps, TlTmaMap, s->tma_map);
  int64_t rows = m->tile->shape[0], panels = m->tile->shape[1] / m->panel_cols;
  // A multicast map's box is this cluster rank's half of the rows; the
  // bytes land at the same offsets in both blocks of the cluster.
  int64_t half = m->multicast ? m->box[m->row_dim] : 0;
  e->need_tma_ranks |= 1u << m->rank;
  if (m->multicast)
    e->need_tma_mc_ranks |= 1u << m->rank;
  e->need_mbar = true;
  for (int64_t p = 0; p < panels; p++) {
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_tma_load_%s%dd(&%s[", m->multicast ? "mc_" : "", m->rank, buf_name(e, m->tile));
    expr_p(e, s->stage_a, 13);
    tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(m->tile));
    if (p)
      tl_buf_printf(o, " + %lld", (long long)(p * rows * m->panel_cols));
    if (half)
      tl_buf_printf(o, " + tl_cta_rank * %lld", (long long)(half * m->panel_cols));
    tl_buf_printf(o, "], &tl_tmap_%d, &tl_full[", s->tma_map);
    expr(e, s->stage_a);
    tl_buf_puts(o, "]");
    for (int d = m->rank - 1; d >= 0; d--) {
      tl_buf_puts(o, ", ");
      expr(e, s->src.start[d]);
      if (d == m->col_dim && p)
        tl_buf_printf(o, " + %lld", (long long)(p * m->panel_cols));
      if (d == m->row_dim && half)
        tl_buf_printf(o, " + (int)tl_cta_rank * %lld", (long long)half);
    }
    tl_buf_puts(o, ");\n");
  }
}

// Thread 0 stores the staged tile, one TMA store per swizzle panel, and
// commits them as one bulk group (the barrier before it made every thread's
// writes to the tile visible to the TMA unit).
static void tma_store(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(e->k->tma_maps, TlTmaMap, s->tma_map);
  int64_t rows = m->tile->shape[0], panels = m->tile->shape[1] / m->panel_cols;
  e->need_tma_store_ranks |= 1u << m->rank;
  tl_buf_indent(o, level);
  tl_buf_puts(o, "if (threadIdx.x == 0) {\n");
  for (int64_t p = 0; p < panels; p++) {
    tl_buf_indent(o, level + 1);
    tl_buf_printf(o, "tl_tma_store_%dd(&tl_tmap_%d, &%s[%lld]", m->rank, s->tma_map, buf_name(e, m->tile),
                  (long long)(p * rows * m->panel_cols));
    for (int d = m->rank - 1; d >= 0; d--) {
      tl_buf_puts(o, ", ");
      expr(e, s->dst.start[d]);
      if (d == m->col_dim && p)
        tl_buf_printf(o, " + %lld", (long long)(p * m->panel_cols));
    }
    tl_buf_puts(o, ");\n");
  }
  tl_buf_indent(o, level + 1);
  tl_buf_puts(o, "tl_tma_store_commit();\n");
  tl_buf_indent(o, level);
  tl_buf_puts(o, "}\n");
}

static void stmt(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  switch (s->kind) {
  case ST_SEQ:
    if (s->plan.ndims > 0 || s->per_thread || s->body.len > 1) {
      tl_buf_indent(o, level);
      tl_buf_puts(o, "{\n");
      stmts(e, &s->body, level + 1);
      tl_buf_indent(o, level);
      tl_buf_puts(o, "}\n");
    } else {
      stmts(e, &s->body, level);
    }
    return;
  case ST_COMMENT:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "// %s\n", s->text);
    return;
  case ST_FOR: {
    int64_t n;
    if (s->loop_kind == LOOP_UNROLL || s->loop_kind == LOOP_VECTORIZED ||
        (tl_expr_is_const(s->stop, &n) && tl_expr_is_const(s->start, NULL) && n <= 1)) {
      tl_buf_indent(o, level);
      tl_buf_puts(o, "#pragma unroll\n");
    }
    tl_buf_indent(o, level);
    tl_buf_printf(o, "for (%s %s = ", tl_dtype_cuda(s->var->dtype), s->var->cname);
    expr(e, s->start);
    int64_t step = 1;
    tl_expr_is_const(s->step, &step);
    tl_buf_printf(o, "; %s %s ", s->var->cname, step < 0 ? ">" : "<"); // range(15, -1, -1) counts down
    expr(e, s->stop);
    if (step == 1)
      tl_buf_printf(o, "; ++%s) {\n", s->var->cname);
    else
      tl_buf_printf(o, "; %s += %lld) {\n", s->var->cname, (long long)step);
    stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    tl_buf_puts(o, "}\n");
    return;
  }
  case ST_WHILE:
    tl_buf_indent(o, level);
    tl_buf_puts(o, "while (");
    expr(e, s->cond);
    tl_buf_puts(o, ") {\n");
    stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    tl_buf_puts(o, "}\n");
    return;
  case ST_IF:
    tl_buf_indent(o, level);
    tl_buf_puts(o, "if (");
    expr(e, s->cond);
    tl_buf_puts(o, ") {\n");
    stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    // An if alone in an else (an elif) is printed flat as `} else if`, in a
    // loop: a chain of n branches is n lines deep, not n levels.
    while (s->else_body.len == 1 && TL_VEC_AT(s->else_body, TlStmt, 0)->kind == ST_IF) {
      s = TL_VEC_AT(s->else_body, TlStmt, 0);
      tl_buf_puts(o, "} else if (");
      expr(e, s->cond);
      tl_buf_puts(o, ") {\n");
      stmts(e, &s->body, level + 1);
      tl_buf_indent(o, level);
    }
    if (s->else_body.len) {
      tl_buf_puts(o, "} else {\n");
      stmts(e, &s->else_body, level + 1);
      tl_buf_indent(o, level);
    }
    tl_buf_puts(o, "}\n");
    return;
  case ST_STORE: {
    tl_buf_indent(o, level);
    TlBuf target;
    tl_buf_init(&target, o->arena);
    if (s->buf) {
      tl_buf_printf(&target, "%s[", buf_name(e, s->buf));
    } else {
      tl_buf_printf(&target, "%s[", s->var->cname);
    }
    TlBuf saved = e->body;
    e->body = target;
    expr(e, s->indices[0]);
    tl_buf_putc(&e->body, ']');
    target = e->body;
    e->body = saved;
    if (s->atomic)
      atomic_add(e, target.data, s->value);
    else
      update(e, s, target.data);
    return;
  }
  case ST_LET:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "%s %s = ", tl_dtype_cuda(s->var->dtype), s->var->cname);
    expr(e, s->value);
    tl_buf_puts(o, ";\n");
    return;
  case ST_SET:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "%s = ", s->var->cname);
    expr(e, s->value);
    tl_buf_puts(o, ";\n");
    return;
  case ST_DECL:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "__align__(16) %s %s[%lld];\n", tl_dtype_cuda(s->var->dtype), s->var->cname,
                  (long long)s->var->lanes);
    return;
  case ST_VLOAD: {
    if (wide_access(e, s, level)) return;
    const char *vt = vector_type(s->buf->dtype, s->width);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "*(%s*)%s = *(const %s*)&%s[", vt, s->var->cname, vt, buf_name(e, s->buf));
    expr(e, s->indices[0]);
    tl_buf_puts(o, "];\n");
    return;
  }
  case ST_VSTORE: {
    if (wide_access(e, s, level)) return;
    const char *vt = vector_type(s->buf->dtype, s->width);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "*(%s*)&%s[", vt, buf_name(e, s->buf));
    expr(e, s->indices[0]);
    tl_buf_printf(o, "] = *(const %s*)%s;\n", vt, s->var->cname);
    return;
  }
  case ST_SYNC:
    if (e->k->ring_stages) {
      // Warp-specialized: the producer warpgroup never reaches this barrier,
      // so the compute threads meet at named barrier 1, not __syncthreads.
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
      tl_buf_indent(o, level);
      tl_buf_printf(o, "asm volatile(\"bar.sync 1, %lld;\\n\" ::: \"memory\");\n", (long long)e->k->threads[0]);
      return;
    }
    if (e->kernel_wgmma) {
      // Shared memory written by ordinary stores and cp.async (the generic
      // proxy) is read by wgmma through the async proxy: each writer fences
      // before the barrier (PTX ISA, "Memory proxies"; fence.proxy.async).
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
    }
    tl_buf_indent(o, level);
    tl_buf_puts(o, "__syncthreads();\n");
    return;
  case ST_CP_ASYNC: {
    e->need_cp_async = true;
    const TlExpr *src = s->value;
    int bytes = (int)(tl_dtype_bits(s->buf->dtype) / 8 * s->width);
    tl_buf_indent(o, level);
    if (s->cond) {
      tl_buf_printf(o, "tl_cp_async_zfill<%d>(&%s[", bytes, buf_name(e, s->buf));
      expr(e, s->indices[0]);
      tl_buf_puts(o, "], ");
      expr(e, s->cond);
      tl_buf_puts(o, " ? (const void*)&");
      expr(e, src);
      tl_buf_printf(o, " : (const void*)%s, ", buf_name(e, src->buf));
      expr(e, s->cond);
      tl_buf_puts(o, ");\n");
    } else {
      tl_buf_printf(o, "tl_cp_async<%d>(&%s[", bytes, buf_name(e, s->buf));
      expr(e, s->indices[0]);
      tl_buf_puts(o, "], &");
      expr(e, src);
      tl_buf_puts(o, ");\n");
    }
    return;
  }
  case ST_ASYNC_COMMIT:
    e->need_cp_async = true;
    tl_buf_indent(o, level);
    tl_buf_puts(o, "asm volatile(\"cp.async.commit_group;\\n\" ::);\n");
    return;
  case ST_ASYNC_WAIT:
    e->need_cp_async = true;
    tl_buf_indent(o, level);
    tl_buf_printf(o, "asm volatile(\"cp.async.wait_group %lld;\\n\" ::);\n", (long long)s->width);
    return;
  case ST_GEMM:
    if (s->use_mma)
      e->need_mma = e->need_swz = true;
    if (s->use_wgmma)
      e->need_wgmma = true;
    tl_emit_gemm_helper(&e->helpers, o->arena, s, print_expr_to);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_gemm_%d(%s", s->gemm_id, buf_name(e, s->a));
    if (s->stage_a) {
      tl_buf_puts(o, " + ");
      expr_p(e, s->stage_a, 13);
      tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(s->a));
    }
    tl_buf_printf(o, ", %s", buf_name(e, s->b));
    if (s->stage_b) {
      tl_buf_puts(o, " + ");
      expr_p(e, s->stage_b, 13);
      tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(s->b));
    }
    tl_buf_printf(o, ", %s);\n", buf_name(e, s->c));
    return;
  case ST_WGMMA_WAIT:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_wgmma_wait<0>(); // the last wgmma group of %s\n", buf_name(e, s->buf));
    tl_buf_indent(o, level);
    tl_buf_puts(o, "#pragma unroll\n");
    tl_buf_indent(o, level);
    tl_buf_printf(o, "for (int l = 0; l < %lld; ++l)\n", (long long)s->buf->layout->locals);
    tl_buf_indent(o, level + 1);
    tl_buf_printf(o, "tl_wgmma_pin(%s[l]);\n", buf_name(e, s->buf));
    return;
  case ST_TMA_LOAD:
    tma_load(e, s, level);
    return;
  case ST_TMA_STORE:
    tma_store(e, s, level);
    return;
  case ST_TMA_STORE_WAIT: // before the staging tile is written again
    e->need_tma_store_ranks |= 1u;
    tl_buf_indent(o, level);
    tl_buf_puts(o, "if (threadIdx.x == 0)\n");
    tl_buf_indent(o, level + 1);
    tl_buf_puts(o, "tl_tma_store_wait_read();\n");
    return;
  case ST_MBAR_WAIT:
  case ST_MBAR_ARRIVE:
    e->need_mbar = true;
    tl_buf_indent(o, level);
    if (s->kind == ST_MBAR_WAIT)
      tl_buf_printf(o, "tl_mbar_wait(&tl_%s[", tl_ring_name(s->ring));
    else if (s->width)
      tl_buf_printf(o, "tl_mbar_expect_tx(&tl_%s[", tl_ring_name(s->ring));
    else if (e->k->cluster) // both blocks' producers wait for this slot (multicast)
      tl_buf_printf(o, "tl_mbar_arrive_cluster(&tl_%s[", tl_ring_name(s->ring));
    else
      tl_buf_printf(o, "tl_mbar_arrive(&tl_%s[", tl_ring_name(s->ring));
    expr(e, s->stage_a);
    tl_buf_puts(o, "]");
    if (s->kind == ST_MBAR_ARRIVE && !s->width && e->k->cluster)
      tl_buf_puts(o, ", tl_cta_rank");
    if (s->kind == ST_MBAR_WAIT) {
      tl_buf_puts(o, ", ");
      expr(e, s->value);
    } else if (s->width) {
      tl_buf_printf(o, ", %lld", (long long)s->width);
    }
    tl_buf_puts(o, ");\n");
    return;
  default:
    TL_UNREACHABLE("codegen-cuda", "a tile-level statement reached the CUDA emitter");
  }
}

static void stmts(Emit *e, const TlVec *body, int level) {
  for (int i = 0; i < body->len; i++)
    stmt(e, TL_VEC_AT(*body, TlStmt, i), level);
}

// The tensors, then the runtime sizes (T.dynamic) as integers.
static void param_list(Emit *e, TlBuf *o, const TlKernel *k, bool restrict_) {
  for (int i = 0; i < k->params.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_buf_printf(o, "%s%s%s*%s %s", i ? ", " : "", b->written ? "" : "const ", tl_dtype_cuda(b->dtype),
                  restrict_ ? " __restrict__" : "", buf_name(e, b));
  }
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    tl_buf_printf(o, "%s%s %s", i || k->params.len ? ", " : "", tl_dtype_cuda(v->dtype), v->cname);
  }
}

static void arg_list(TlBuf *o, Emit *e, const TlKernel *k) {
  for (int i = 0; i < k->params.len; i++)
    tl_buf_printf(o, "%s%s", i ? ", " : "", buf_name(e, TL_VEC_AT(k->params, TlBuffer, i)));
  for (int i = 0; i < k->sizes.len; i++)
    tl_buf_printf(o, "%s%s", i || k->params.len ? ", " : "", TL_VEC_AT(k->sizes, TlVar, i)->cname);
}

// A grid extent: its value, or the expression of runtime sizes the launcher
// computes.
static void grid_extent(Emit *e, const TlKernel *k, int d) {
  if (k->grid_const[d] > 0)
    tl_buf_printf(&e->body, "%lld", (long long)k->grid_const[d]);
  else
    expr(e, k->grid[d]);
}

// The launcher's checks of the runtime sizes, before anything is launched:
// a negative size, a tensor past 32-bit indexing or a grid past the
// hardware's limits is refused with cudaErrorInvalidValue; an empty grid
// launches nothing.
static void size_checks(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  if (k->sizes.len == 0) return;
  tl_buf_puts(
      o, "  // Runtime sizes: refuse what the kernel cannot index; launch nothing when empty.\n");
  for (int i = 0; i < k->sizes.len; i++)
    tl_buf_printf(o, "  if (%s < 0)\n    return cudaErrorInvalidValue;\n",
                  TL_VEC_AT(k->sizes, TlVar, i)->cname);
  bool wide = false;
  for (int i = 0; i < k->sizes.len; i++)
    wide = wide || TL_VEC_AT(k->sizes, TlVar, i)->dtype == TY_INT64;
  TlVec seen = {0}; // the element counts already checked (tensors of one shape)
  for (int i = 0; i < k->params.len && !wide; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (!tl_buffer_is_dynamic(b)) continue;
    TlBuf count;
    tl_buf_init(&count, o->arena);
    tl_buf_puts(&count, "");
    for (int d = 0; d < b->ndims; d++) {
      if (b->dyn[d])
        tl_buf_printf(&count, "%s(double)%s", d ? " * " : "", b->dyn[d]->cname);
      else
        tl_buf_printf(&count, "%s%lld.0", d ? " * " : "", (long long)b->shape[d]);
    }
    bool again = false;
    for (int j = 0; j < seen.len; j++)
      again = again || strcmp(TL_VEC_AT(seen, const char, j), count.data) == 0;
    if (again) continue;
    tl_vec_push(o->arena, &seen, count.data);
    tl_buf_printf(o,
                  "  if (%s > 2147483647.0) // %s: past 32-bit indexing\n"
                  "    return cudaErrorInvalidValue;\n",
                  count.data, b->name);
  }
  static const char *const dims = "xyz";
  for (int d = 0; d < 3; d++) {
    if (k->grid_const[d] > 0) continue;
    tl_buf_printf(o, "  const long long grid_%c = ", dims[d]);
    grid_extent(e, k, d);
    tl_buf_printf(o,
                  ";\n  if (grid_%c > %lld)\n    return cudaErrorInvalidValue;\n"
                  "  if (grid_%c <= 0)\n    return cudaSuccess;\n",
                  dims[d], d == 0 ? 2147483647LL : 65535LL, dims[d]);
  }
}

// The launch's grid: constants inline; with runtime extents a dim3 of the
// checked values, declared before the launch.
static void launch_grid(Emit *e, const TlKernel *k) {
  bool runtime = k->grid_const[0] == 0 || k->grid_const[1] == 0 || k->grid_const[2] == 0;
  if (runtime) {
    tl_buf_puts(&e->body, "tl_grid");
    return;
  }
  tl_buf_printf(&e->body, "dim3(%lld, %lld, %lld)", (long long)k->grid_const[0],
                (long long)k->grid_const[1], (long long)k->grid_const[2]);
}

static void declare_runtime_grid(Emit *e, const TlKernel *k) {
  if (k->grid_const[0] > 0 && k->grid_const[1] > 0 && k->grid_const[2] > 0) return;
  tl_buf_puts(&e->body, "  const dim3 tl_grid(");
  for (int d = 0; d < 3; d++) {
    tl_buf_puts(&e->body, d ? ", " : "");
    if (k->grid_const[d] > 0)
      tl_buf_printf(&e->body, "%lld", (long long)k->grid_const[d]);
    else
      tl_buf_printf(&e->body, "(unsigned)grid_%c", "xyz"[d]);
  }
  tl_buf_puts(&e->body, ");\n");
}

static bool expr_uses(const TlExpr *x, const TlVar *v) {
  return x && tl_expr_uses_var(x, v);
}

static bool body_uses(const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int j = 0; j < s->nindices; j++)
      if (expr_uses(s->indices[j], v))
        return true;
    for (int d = 0; d < s->src.ndims; d++) // a TMA load's box origin
      if (expr_uses(s->src.start[d], v))
        return true;
    if (expr_uses(s->value, v) || expr_uses(s->cond, v) || expr_uses(s->start, v) ||
        expr_uses(s->stop, v) || body_uses(&s->body, v) || body_uses(&s->else_body, v))
      return true;
  }
  return false;
}

static bool kernel_uses(const TlKernel *k, const TlVar *v) {
  return body_uses(&k->body, v) || body_uses(&k->producer, v);
}

// `const int name = value;` for block index d; in a cluster kernel the
// decoded index along the cluster's dimension is the pair's, and the block's
// own is 2 * pair + its rank in the cluster.
static void bind_block_var(Emit *e, const TlKernel *k, int d, int level, const char *value) {
  TlBuf *o = &e->body;
  tl_buf_indent(o, level);
  if (k->cluster && d == k->cluster_dim)
    tl_buf_printf(o, "const int %s = 2 * (%s) + (int)tl_cta_rank;\n", k->block_vars[d]->cname, value);
  else
    tl_buf_printf(o, "const int %s = %s;\n", k->block_vars[d]->cname, value);
}

// The block indices the kernel's names stand for. `linear` is the block's
// (or a persistent kernel's tile's) linear index, NULL for blockIdx itself;
// in a cluster kernel it counts pairs of tiles over a grid halved along the
// cluster's dimension.
static void block_indices(Emit *e, const TlKernel *k, const char *linear, int level) {
  TlBuf *o = &e->body;
  TlArena *a = o->arena;
  static const char *dims = "xyz";
  long long g[3] = {k->grid_const[0], k->grid_const[1], k->grid_const[2]};
  if (k->cluster)
    g[k->cluster_dim] /= 2;
  long long gx = g[0], gy = g[1];
  if (k->swizzle_panel > 0 && gy > 1) {
    // T.use_swizzle: blocks walk panels of `panel` columns so neighbours in
    // launch order share rows of A and columns of B in L2.
    long long p = k->swizzle_panel;
    tl_buf_indent(o, level);
    tl_buf_printf(o, "// T.use_swizzle(panel_size=%lld): column panels of %lld blocks\n", p, p);
    tl_buf_indent(o, level);
    if (linear)
      tl_buf_printf(o, "const int tl_linear = %s %% (%lld * %lld);\n", linear, gx, gy);
    else
      tl_buf_printf(o, "const int tl_linear = blockIdx.y * %lld + blockIdx.x;\n", gx);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_panel = tl_linear / (%lld * %lld);\n", p, gy);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_in_panel = tl_linear %% (%lld * %lld);\n", p, gy);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_width = min(%lld, %lld - tl_panel * %lld);\n", p, gx, p);
    if (k->block_vars[0])
      bind_block_var(e, k, 0, level, tl_arena_printf(a, "tl_panel * %lld + tl_in_panel %% tl_width", p));
    if (k->block_vars[1])
      bind_block_var(e, k, 1, level, "tl_in_panel / tl_width");
    if (k->block_vars[2])
      bind_block_var(e, k, 2, level,
                     linear ? tl_arena_printf(a, "%s / (%lld * %lld)", linear, gx, gy) : "blockIdx.z");
    return;
  }
  for (int d = 0; d < 3; d++) {
    if (!k->block_vars[d] || !kernel_uses(k, k->block_vars[d]))
      continue;
    if (!linear)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "blockIdx.%c", dims[d]));
    else if (d == 0)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s %% %lld", linear, gx));
    else if (d == 1)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s / %lld %% %lld", linear, gx, gy));
    else
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s / (%lld * %lld)", linear, gx, gy));
  }
}

// Constant tables tlc computed (loop_layout inverses), at file scope.
static void tables(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (!b->table)
      continue;
    tl_buf_printf(o, "// %s[slot * threads + thread] = point * replicas + replica, -1: no point\n", b->name);
    tl_buf_printf(o, "__device__ const int %s[%lld] = {", b->name, (long long)b->table_len);
    for (int64_t j = 0; j < b->table_len; j++)
      tl_buf_printf(o, "%s%d", j % 16 ? ", " : (j ? ",\n  " : "\n  "), b->table[j]);
    tl_buf_puts(o, "\n};\n\n");
  }
}

// The tiles a launch covers; a cluster kernel's blocks walk pairs of them.
static long long launch_tiles(const TlKernel *k) {
  long long tiles = (long long)(k->grid_const[0] * k->grid_const[1] * k->grid_const[2]);
  return k->cluster ? tiles / 2 : tiles;
}

// One role's code; in a persistent kernel, once per tile of this block:
// tiles blockIdx.x, blockIdx.x + gridDim.x, ... with their block indices
// (in a cluster kernel both blocks of a cluster walk the same pairs).
static void role_code(Emit *e, const TlKernel *k, const TlVec *code, int level) {
  if (!k->persistent) {
    stmts(e, code, level);
    return;
  }
  TlBuf *o = &e->body;
  long long tiles = launch_tiles(k);
  tl_buf_indent(o, level);
  // (counted by the tile index of this block, whose range the bounds say)
  tl_buf_printf(o, "for (int %s = 0; %s < %lld; ++%s) {\n", k->tile_iter->cname, k->tile_iter->cname, tiles,
                k->tile_iter->cname);
  tl_buf_indent(o, level + 1);
  if (k->cluster)
    tl_buf_printf(o, "const int tl_tile = (blockIdx.x >> 1) + %s * (gridDim.x >> 1);\n", k->tile_iter->cname);
  else
    tl_buf_printf(o, "const int tl_tile = blockIdx.x + %s * gridDim.x;\n", k->tile_iter->cname);
  tl_buf_indent(o, level + 1);
  tl_buf_printf(o, "if (tl_tile >= %lld)\n", tiles);
  tl_buf_indent(o, level + 2);
  tl_buf_puts(o, "break;\n");
  block_indices(e, k, "tl_tile", level + 1);
  stmts(e, code, level + 1);
  tl_buf_indent(o, level);
  tl_buf_puts(o, "}\n");
}

// A cluster's block must not leave while the other block's compute warps
// may still arrive on its barriers: its producer waits, after its last load,
// until every slot of the ring has been released by both blocks (positions
// P .. P + S - 1 of its ring, P the positions it filled).
static void producer_tail(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  TlArena *a = o->arena;
  const TlStmt *loop = TL_VEC_AT(k->producer, TlStmt, 0);
  TlExpr *n = tl_simplify(a, tl_expr_binary(a, loop->loc, OP_SUB, tl_expr_clone(a, loop->stop),
                                            tl_expr_clone(a, loop->start), loop->var->dtype));
  int S = k->ring_stages;
  tl_buf_puts(o, "      // Before this block leaves: every slot released by the compute warps of both blocks.\n");
  tl_buf_puts(o, "      const int tl_positions = max(");
  expr(e, n);
  if (k->persistent) // times the tiles this block walked
    tl_buf_printf(o, ", 0) * ((%lld - 1 - (int)(blockIdx.x >> 1)) / (int)(gridDim.x >> 1) + 1);\n",
                  launch_tiles(k));
  else
    tl_buf_puts(o, ", 0);\n");
  tl_buf_printf(o, "      for (int q = tl_positions; q < tl_positions + %d; ++q)\n", S);
  tl_buf_printf(o, "        tl_mbar_wait(&tl_empty[q %% %d], (q / %d + 1) %% 2);\n", S, S);
}

// A warp-specialized kernel's body: the ring's barriers, then the producer
// warpgroup's loop (one elected thread issues the TMA loads) and the compute
// threads' code, each with its register budget (setmaxnreg). In a cluster
// the barriers of both blocks are initialized before either block's loads
// or arrivals reach them (a cluster barrier), and neither block leaves while
// the other may still arrive on its barriers (producer_tail).
static void warp_roles(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  long long T = (long long)k->threads[0];
  int S = k->ring_stages;
  e->need_mbar = true;
  if (k->cluster)
    tl_buf_printf(o, "  // full[s]: stage s's tiles have landed (TMA bytes, this block's and the multicast\n"
                     "  // halves); empty[s]: every compute warp of both blocks of the cluster is done with\n"
                     "  // stage s (a multicast load writes both blocks' stage s).\n");
  else
    tl_buf_printf(o, "  // full[s]: stage s's tiles have landed (TMA bytes); empty[s]: all %lld compute threads\n"
                     "  // are done reading stage s.\n", T);
  tl_buf_printf(o, "  __shared__ __align__(8) uint64_t tl_full[%d], tl_empty[%d];\n", S, S);
  tl_buf_puts(o, "  if (threadIdx.x == 0) {\n");
  tl_buf_printf(o, "    for (int s = 0; s < %d; ++s) {\n", S);
  tl_buf_puts(o, "      tl_mbar_init(&tl_full[s], 1);\n");
  tl_buf_printf(o, "      tl_mbar_init(&tl_empty[s], %lld);\n    }\n", k->cluster ? 2 * T / 32 : T);
  e->need_cluster = e->need_cluster || k->cluster;
  tl_buf_printf(o, "    tl_mbar_fence_init();\n  }\n  %s\n", k->cluster ? "tl_cluster_sync();" : "__syncthreads();");
  tl_buf_printf(o, "  if (threadIdx.x >= %lld) { // the producer warpgroup\n", T);
  if (k->producer_regs)
    tl_buf_printf(o, "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %d;\\n\");\n", k->producer_regs);
  tl_buf_printf(o, "    if (threadIdx.x == %lld) {\n", T);
  role_code(e, k, &k->producer, 3);
  if (k->cluster)
    producer_tail(e, k);
  tl_buf_puts(o, "    }\n    return;\n  }\n");
  if (k->consumer_regs)
    tl_buf_printf(o, "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %d;\\n\");\n", k->consumer_regs);
  role_code(e, k, &k->body, 1);
  for (int i = 0; i < k->tma_maps.len; i++)
    if (TL_VEC_AT(k->tma_maps, TlTmaMap, i)->store) { // the block's shared memory outlives its last store
      e->need_tma_store_ranks |= 1u;
      tl_buf_puts(o, "  if (threadIdx.x == 0)\n    tl_tma_store_wait_all();\n");
      break;
    }
}

static const char *tma_dtype(TlDtype t) {
  switch (t) {
  case TY_FLOAT16: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  case TY_BFLOAT16: return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
  case TY_FLOAT32: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
  case TY_FLOAT64: return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
  case TY_INT32: return "CU_TENSOR_MAP_DATA_TYPE_INT32";
  case TY_UINT32: return "CU_TENSOR_MAP_DATA_TYPE_UINT32";
  case TY_INT64: return "CU_TENSOR_MAP_DATA_TYPE_INT64";
  case TY_INT16: return "CU_TENSOR_MAP_DATA_TYPE_UINT16";
  default: return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
  }
}

// The launcher encodes tensor map i (innermost dimension first, as the
// driver wants it); an address or shape TMA cannot take is a launch error.
static void tensor_map(Emit *e, const TlKernel *k, int i) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
  e->need_tma_host = true;
  const TlBuffer *g = m->global;
  int64_t eb = tl_dtype_bits(g->dtype) / 8, stride = eb;
  tl_buf_printf(o, "  CUtensorMap tl_tmap_%d; // %s -> %s\n  {\n    const cuuint64_t dims[%d] = {", i,
                g->name, m->tile->name, m->rank);
  // A runtime extent is the size parameter (checked above 0 before), and the
  // strides its products with the static extents.
  for (int d = m->rank - 1; d >= 0; d--) {
    tl_buf_puts(o, d == m->rank - 1 ? "" : ", ");
    if (g->dyn[d])
      tl_buf_printf(o, "(cuuint64_t)%s", g->dyn[d]->cname);
    else
      tl_buf_printf(o, "%lld", (long long)g->shape[d]);
  }
  tl_buf_printf(o, "};\n    const cuuint64_t strides[%d] = {", m->rank > 1 ? m->rank - 1 : 1);
  TlBuf runtime; // the runtime factors of the stride so far
  tl_buf_init(&runtime, o->arena);
  tl_buf_puts(&runtime, "");
  for (int d = m->rank - 1; d >= 1; d--) {
    if (g->dyn[d])
      tl_buf_printf(&runtime, " * (cuuint64_t)%s", g->dyn[d]->cname);
    else
      stride *= g->shape[d];
    tl_buf_printf(o, "%s%lld%s", d == m->rank - 1 ? "" : ", ", (long long)stride, runtime.data);
  }
  if (m->rank == 1)
    tl_buf_puts(o, "0");
  tl_buf_printf(o, "};\n    const cuuint32_t box[%d] = {", m->rank);
  for (int d = m->rank - 1; d >= 0; d--)
    tl_buf_printf(o, "%s%lld", d == m->rank - 1 ? "" : ", ", (long long)m->box[d]);
  tl_buf_printf(o, "};\n    cudaError_t err = tl_tma_map(&tl_tmap_%d, %s, %s, %d, dims, strides, box, "
                   "CU_TENSOR_MAP_SWIZZLE_%s);\n",
                i, buf_name(e, g), tma_dtype(g->dtype), m->rank,
                m->swizzle_bytes == 128 ? "128B" : m->swizzle_bytes == 64 ? "64B"
                                              : m->swizzle_bytes == 32 ? "32B" : "NONE");
  tl_buf_puts(o, "    if (err != cudaSuccess)\n      return err;\n  }\n");
}

// A kernel that assumes divisors of its runtime sizes (specialize-sizes)
// runs its unaligned twin when one does not hold, or when a runtime extent of
// a TMA tensor is 0 (the driver encodes no map of an empty dimension).
static void fallback_dispatch(Emit *e, const TlKernel *k) {
  if (!k->fallback) return;
  TlBuf *o = &e->body;
  TlBuf cond;
  tl_buf_init(&cond, o->arena);
  tl_buf_puts(&cond, "");
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    if (v->divisor > 1)
      tl_buf_printf(&cond, "%s%s %% %lld != 0", cond.len ? " || " : "", v->cname, (long long)v->divisor);
  }
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    bool in_map = false;
    for (int j = 0; j < k->tma_maps.len && !in_map; j++) {
      const TlBuffer *g = TL_VEC_AT(k->tma_maps, TlTmaMap, j)->global;
      for (int d = 0; d < g->ndims; d++)
        in_map = in_map || g->dyn[d] == v;
    }
    if (in_map)
      tl_buf_printf(&cond, "%s%s == 0", cond.len ? " || " : "", v->cname);
  }
  if (!cond.len) return;
  tl_buf_printf(o, "  // Sizes this kernel does not assume (rows of 16 bytes%s) run its unaligned twin.\n",
                k->tma_maps.len ? ", TMA extents above 0" : "");
  tl_buf_printf(o, "  if (%s)\n    return %s(", cond.data, k->fallback);
  arg_list(o, e, k);
  tl_buf_printf(o, "%sstream);\n", k->params.len || k->sizes.len ? ", " : "");
}

static void kernel(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  e->k = k;
  e->kernel_wgmma = tl_body_uses_wgmma(&k->body);
  tables(e, k);
  int64_t T = k->threads[0] * k->threads[1] * k->threads[2];
  tl_buf_printf(o, "// kernel %s (%s:%d): grid (", k->name, e->m->src->name, k->loc.line);
  for (int d = 0; d < 3; d++) {
    tl_buf_puts(o, d ? ", " : "");
    grid_extent(e, k, d);
  }
  tl_buf_printf(o, "), %lld threads, %lld bytes of dynamic shared memory\n", (long long)T,
                (long long)k->shared_bytes);
  int64_t producer = k->ring_stages ? TL_PRODUCER_THREADS : 0, launched = T + producer;
  if (k->ring_stages)
    tl_buf_printf(o, "// Warp-specialized: threads 0..%lld compute, threads %lld..%lld (one warpgroup) "
                     "load tiles by TMA\n", (long long)T - 1, (long long)T, (long long)launched - 1);
  if (k->cluster)
    tl_buf_printf(o, "// Clusters of 2 blocks along %c: the tiles both blocks need are loaded half by each and\n"
                     "// multicast to both (TMA .multicast::cluster)\n", "xyz"[k->cluster_dim]);
  tl_buf_printf(o, "extern \"C\" __global__ void %s__launch_bounds__(%lld, %d) %s_kernel(",
                k->cluster ? "__cluster_dims__(2, 1, 1) " : "", (long long)launched,
                k->blocks_per_sm > 1 ? k->blocks_per_sm : 1, k->name);
  param_list(e, o, k, true);
  for (int i = 0; i < k->tma_maps.len; i++)
    tl_buf_printf(o, ", const __grid_constant__ CUtensorMap tl_tmap_%d", i);
  tl_buf_puts(o, ") {\n");
  if (k->cluster) // a 1-D launch: blocks 2i and 2i+1 form cluster i, which computes pair i
    tl_buf_puts(o, "  const unsigned tl_cta_rank = tl_cluster_rank();\n");
  if (!k->persistent)
    block_indices(e, k, k->cluster ? "(blockIdx.x >> 1)" : NULL, 1);
  bool has_shared = false;
  for (int i = 0; i < k->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->scope == SCOPE_SHARED && !has_shared) {
      tl_buf_puts(o, "  extern __shared__ __align__(1024) unsigned char tl_smem[];\n");
      has_shared = true;
    }
    if (b->scope == SCOPE_SHARED)
      tl_buf_printf(o, "  %s* %s = (%s*)(tl_smem + %lld); // %lld bytes\n", tl_dtype_cuda(b->dtype),
                    buf_name(e, b), tl_dtype_cuda(b->dtype), (long long)b->shared_offset,
                    (long long)tl_buffer_bytes(b));
    else if (b->scope == SCOPE_LOCAL)
      tl_buf_printf(o, "  %s %s[%lld];\n", tl_dtype_cuda(b->dtype), buf_name(e, b),
                    (long long)tl_buffer_elems(b));
    else if (b->scope == SCOPE_FRAGMENT && b->layout)
      tl_buf_printf(o, "  %s %s[%lld]; // fragment %s\n", tl_dtype_cuda(b->dtype), buf_name(e, b),
                    (long long)b->layout->locals, tl_layout_describe(o->arena, b->layout));
  }
  if (k->ring_stages)
    warp_roles(e, k);
  else
    stmts(e, &k->body, 1);
  tl_buf_puts(o, "}\n\n");

  // The host launcher (an unaligned twin's is static: only its kernel's
  // launcher calls it).
  if (k->fallback) {
    tl_buf_printf(o, "static cudaError_t %s(", k->fallback);
    param_list(e, o, k, false);
    tl_buf_printf(o, "%scudaStream_t stream);\n\n", k->params.len || k->sizes.len ? ", " : "");
  }
  tl_buf_printf(o, "%s cudaError_t %s(", k->is_fallback ? "static" : "extern \"C\"", k->name);
  param_list(e, o, k, false);
  tl_buf_printf(o, "%scudaStream_t stream) {\n", k->params.len || k->sizes.len ? ", " : "");
  size_checks(e, k);
  fallback_dispatch(e, k);
  tl_buf_printf(o, "  const size_t smem = %lld;\n", (long long)k->shared_bytes);
  // A warp-specialized kernel's barriers are static shared memory on top
  // (1 KB once aligned), which counts towards the same 48 KB default.
  if (k->shared_bytes + (k->ring_stages ? TL_RING_BARRIER_BYTES : 0) > 48 * 1024) {
    tl_buf_printf(o, "  // Above 48 KB a kernel must opt in to more dynamic shared memory.\n");
    tl_buf_printf(o, "  cudaError_t err = cudaFuncSetAttribute(%s_kernel, "
                     "cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);\n",
                  k->name);
    tl_buf_puts(o, "  if (err != cudaSuccess)\n    return err;\n");
  }
  for (int i = 0; i < k->tma_maps.len; i++)
    tensor_map(e, k, i);
  if (k->persistent && k->cluster) {
    // One cluster per pair of SMs that can hold one (at most one per pair
    // of tiles); each walks its share of the pairs.
    long long pairs = launch_tiles(k);
    tl_buf_puts(o, "  static int tl_clusters = 0;\n  if (!tl_clusters) {\n"
                   "    cudaLaunchConfig_t cfg = {};\n    cudaLaunchAttribute attr = {};\n"
                   "    attr.id = cudaLaunchAttributeClusterDimension;\n"
                   "    attr.val.clusterDim.x = 2;\n    attr.val.clusterDim.y = 1;\n    attr.val.clusterDim.z = 1;\n");
    tl_buf_printf(o, "    cfg.gridDim = dim3(2, 1, 1);\n    cfg.blockDim = dim3(%lld, 1, 1);\n",
                  (long long)(k->threads[0] + producer));
    tl_buf_printf(o, "    cfg.dynamicSmemBytes = smem;\n    cfg.attrs = &attr;\n    cfg.numAttrs = 1;\n"
                     "    if (cudaOccupancyMaxActiveClusters(&tl_clusters, (const void *)%s_kernel, &cfg) != cudaSuccess ||\n"
                     "        tl_clusters < 1)\n      return cudaErrorInvalidValue;\n  }\n", k->name);
    tl_buf_printf(o, "  const unsigned tl_blocks = 2u * (unsigned)(tl_clusters < %lld ? tl_clusters : %lld);\n", pairs,
                  pairs);
    tl_buf_printf(o, "  %s_kernel<<<dim3(tl_blocks, 1, 1)", k->name);
  } else if (k->persistent) {
    // One block per SM (at most one per tile); each walks its share of the
    // tiles. (Warp specialization needs compile-time sizes: no runtime grid.)
    long long tiles = launch_tiles(k);
    tl_buf_puts(o, "  static int tl_sms = 0;\n  if (!tl_sms) {\n    int dev = 0;\n"
                   "    if (cudaGetDevice(&dev) != cudaSuccess ||\n"
                   "        cudaDeviceGetAttribute(&tl_sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess)\n"
                   "      return cudaErrorInvalidValue;\n  }\n");
    tl_buf_printf(o, "  const unsigned tl_blocks = (unsigned)(tl_sms < %lld ? tl_sms : %lld);\n", tiles, tiles);
    tl_buf_printf(o, "  %s_kernel<<<dim3(tl_blocks, 1, 1)", k->name);
  } else if (k->cluster) {
    tl_buf_printf(o, "  %s_kernel<<<dim3(%lld, 1, 1)", k->name, 2 * launch_tiles(k));
  } else {
    declare_runtime_grid(e, k);
    tl_buf_printf(o, "  %s_kernel<<<", k->name);
    launch_grid(e, k);
  }
  tl_buf_printf(o, ", dim3(%lld, %lld, %lld), smem, stream>>>(",
                (long long)(k->threads[0] + producer), (long long)k->threads[1],
                (long long)k->threads[2]);
  arg_list(o, e, k);
  for (int i = 0; i < k->tma_maps.len; i++)
    tl_buf_printf(o, "%stl_tmap_%d", i || k->params.len || k->sizes.len ? ", " : "", i);
  tl_buf_puts(o, ");\n  return cudaGetLastError();\n}\n\n");
}

static void mbarrier_prelude(TlBuf *out) {
  tl_buf_puts(out,
              "// mbarriers (PTX ISA, mbarrier): a phase completes when `count` threads have\n"
              "// arrived and every expected transaction byte has landed; waiters poll the\n"
              "// phase's parity.\n"
              "__device__ __forceinline__ unsigned tl_smem_addr(const void *p) {\n"
              "  return (unsigned)__cvta_generic_to_shared(p);\n}\n"
              "__device__ __forceinline__ void tl_mbar_init(uint64_t *bar, unsigned count) {\n"
              "  asm volatile(\"mbarrier.init.shared::cta.b64 [%0], %1;\\n\" :: \"r\"(tl_smem_addr(bar)), \"r\"(count));\n}\n"
              "// The initialized barriers become visible to the TMA unit (the async proxy).\n"
              "__device__ __forceinline__ void tl_mbar_fence_init() {\n"
              "  asm volatile(\"fence.mbarrier_init.release.cluster;\\n\" ::: \"memory\");\n"
              "  asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n}\n"
              "__device__ __forceinline__ void tl_mbar_wait(uint64_t *bar, unsigned parity) {\n"
              "  unsigned done;\n"
              "  do {\n"
              "    asm volatile(\"{\\n.reg .pred p;\\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\\n\"\n"
              "                 \"selp.u32 %0, 1, 0, p;\\n}\\n\" : \"=r\"(done) : \"r\"(tl_smem_addr(bar)), \"r\"(parity) : \"memory\");\n"
              "  } while (!done);\n}\n"
              "__device__ __forceinline__ void tl_mbar_arrive(uint64_t *bar) {\n"
              "  asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: \"r\"(tl_smem_addr(bar)) : \"memory\");\n}\n"
              "// The producer's arrival, announcing the bytes its TMA loads will bring.\n"
              "__device__ __forceinline__ void tl_mbar_expect_tx(uint64_t *bar, unsigned bytes) {\n"
              "  asm volatile(\"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\\n\" :: \"r\"(tl_smem_addr(bar)), \"r\"(bytes) : \"memory\");\n}\n\n");
}

// cp.async.bulk.tensor of one box into shared memory, completing on an
// mbarrier; coordinates innermost first. The multicast form writes the box,
// and completes its bytes on the barrier, at the same offsets in both blocks
// of the cluster (mask 3).
static void tma_load_prelude(TlBuf *out, int rank, bool multicast) {
  if (multicast)
    tl_buf_printf(out, "// TMA multicast: the %d-D box is written to both blocks of the cluster.\n", rank);
  else
    tl_buf_printf(out, "// TMA (PTX ISA, cp.async.bulk.tensor): a %d-D box of the tensor map at the\n"
                       "// given coordinates (innermost first; out-of-bounds elements read as zero).\n", rank);
  tl_buf_printf(out, "__device__ __forceinline__ void tl_tma_load_%s%dd(void *smem, const CUtensorMap *map, uint64_t *bar",
                multicast ? "mc_" : "", rank);
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, ", int c%d", d);
  tl_buf_printf(out, ") {\n  asm volatile(\"cp.async.bulk.tensor.%dd.shared::cluster.global.mbarrier::complete_tx::bytes%s",
                rank, multicast ? ".multicast::cluster [%0], [%1, {" : " [%0], [%1, {");
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, "%s%%%d", d ? ", " : "", d + (multicast ? 4 : 3));
  tl_buf_printf(out, "}], [%%2]%s;\\n\"\n               :: \"r\"(tl_smem_addr(smem)), \"l\"(map), \"r\"(tl_smem_addr(bar))%s",
                multicast ? ", %3" : "", multicast ? ", \"h\"((unsigned short)3)" : "");
  for (int d = 0; d < rank; d++)
    tl_buf_printf(out, ", \"r\"(c%d)", d);
  tl_buf_puts(out, " : \"memory\");\n}\n\n");
}

// TMA stores (PTX ISA, cp.async.bulk.tensor .global.shared::cta, bulk groups).
static void tma_store_prelude(TlBuf *out, unsigned ranks) {
  tl_buf_puts(out, "// TMA stores: a box of shared memory (in the map's swizzled layout) to the tensor at\n"
                   "// the given coordinates (innermost first); out-of-bounds elements are not written.\n");
  for (int r = 1; r <= 5; r++) {
    if (!(ranks & (1u << r)))
      continue;
    tl_buf_printf(out, "__device__ __forceinline__ void tl_tma_store_%dd(const CUtensorMap *map, const void *smem", r);
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, ", int c%d", d);
    tl_buf_printf(out, ") {\n  asm volatile(\"cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group [%%0, {", r);
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, "%s%%%d", d ? ", " : "", d + 2);
    tl_buf_puts(out, "}], [%1];\\n\"\n               :: \"l\"(map), \"r\"(tl_smem_addr(smem))");
    for (int d = 0; d < r; d++)
      tl_buf_printf(out, ", \"r\"(c%d)", d);
    tl_buf_puts(out, " : \"memory\");\n}\n");
  }
  tl_buf_puts(out, "__device__ __forceinline__ void tl_tma_store_commit() {\n"
                   "  asm volatile(\"cp.async.bulk.commit_group;\\n\" ::: \"memory\");\n}\n"
                   "// This thread's stores have read their shared memory (it may be written again).\n"
                   "__device__ __forceinline__ void tl_tma_store_wait_read() {\n"
                   "  asm volatile(\"cp.async.bulk.wait_group.read 0;\\n\" ::: \"memory\");\n}\n"
                   "// This thread's stores are complete.\n"
                   "__device__ __forceinline__ void tl_tma_store_wait_all() {\n"
                   "  asm volatile(\"cp.async.bulk.wait_group 0;\\n\" ::: \"memory\");\n}\n\n");
}

// Clusters (PTX ISA: barrier.cluster, mapa, %cluster_ctarank).
static void cluster_prelude(TlBuf *out) {
  tl_buf_puts(out,
              "// Thread-block clusters: every thread of both blocks meets here.\n"
              "__device__ __forceinline__ void tl_cluster_sync() {\n"
              "  asm volatile(\"barrier.cluster.arrive.release;\\nbarrier.cluster.wait.acquire;\\n\" ::: \"memory\");\n}\n"
              "__device__ __forceinline__ unsigned tl_cluster_rank() {\n"
              "  unsigned r;\n  asm volatile(\"mov.u32 %0, %%cluster_ctarank;\\n\" : \"=r\"(r));\n  return r;\n}\n"
              "// A warp's release of a ring slot, on the barrier at the same offset in both\n"
              "// blocks of the cluster (the lanes' reads are ordered before it by __syncwarp;\n"
              "// the reads are complete, so no cluster-scope release fence is needed).\n"
              "__device__ __forceinline__ void tl_mbar_arrive_cluster(uint64_t *bar, unsigned rank) {\n"
              "  __syncwarp();\n"
              "  if ((threadIdx.x & 31) == 0) {\n"
              "    asm volatile(\"mbarrier.arrive.shared::cta.b64 _, [%0];\\n\" :: \"r\"(tl_smem_addr(bar)) : \"memory\");\n"
              "    asm volatile(\"{\\n.reg .b32 remote;\\nmapa.shared::cluster.u32 remote, %0, %1;\\n\"\n"
              "                 \"mbarrier.arrive.shared::cluster.b64 _, [remote];\\n}\\n\"\n"
              "                 :: \"r\"(tl_smem_addr(bar)), \"r\"(rank ^ 1u) : \"memory\");\n"
              "  }\n}\n\n");
}

static void tensor_map_prelude(TlBuf *out) {
  tl_buf_puts(out,
              "// Host: encodes a tiled tensor map through the driver entry point the runtime\n"
              "// hands out (nothing new to link). Zero fill out of bounds, 256-byte L2 promotion.\n"
              "static cudaError_t tl_tma_map(CUtensorMap *map, const void *base, CUtensorMapDataType type, unsigned rank,\n"
              "                              const cuuint64_t *dims, const cuuint64_t *strides, const cuuint32_t *box,\n"
              "                              CUtensorMapSwizzle swizzle) {\n"
              "  static PFN_cuTensorMapEncodeTiled_v12000 encode = NULL;\n"
              "  if (!encode) {\n"
              "    void *fn = NULL;\n"
              "    cudaDriverEntryPointQueryResult found;\n"
              "    if (cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn, 12000, cudaEnableDefault, &found) !=\n"
              "            cudaSuccess || found != cudaDriverEntryPointSuccess || !fn)\n"
              "      return cudaErrorNotSupported;\n"
              "    encode = (PFN_cuTensorMapEncodeTiled_v12000)fn;\n"
              "  }\n"
              "  const cuuint32_t unit[5] = {1, 1, 1, 1, 1};\n"
              "  CUresult r = encode(map, type, rank, (void *)base, dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE,\n"
              "                      swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);\n"
              "  return r == CUDA_SUCCESS ? cudaSuccess : cudaErrorInvalidValue;\n"
              "}\n\n");
}

// The launcher of a prim_func with several T.Kernel blocks (TileLang's
// split + combine kernels): it runs the blocks' own launchers in order on
// the stream and returns the first error. A parameter is const only when no
// block writes it.
static void group_launcher(Emit *e, const TlModule *m, int first) {
  const TlKernel *k0 = TL_VEC_AT(m->kernels, TlKernel, first);
  TlBuf *o = &e->body;
  const TlKernel *parts[64];
  int n = 0;
  for (int i = first; i < m->kernels.len && n < 64; i++) {
    const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
    if (k->launcher && strcmp(k->launcher, k0->launcher) == 0 && k->params.len == k0->params.len)
      parts[n++] = k;
  }
  tl_buf_printf(o, "// %s runs the %d T.Kernel blocks of its prim_func in order on the stream.\n",
                k0->launcher, n);
  tl_buf_printf(o, "extern \"C\" cudaError_t %s(", k0->launcher);
  for (int p = 0; p < k0->params.len; p++) {
    const TlBuffer *b = TL_VEC_AT(k0->params, TlBuffer, p);
    bool written = false;
    for (int j = 0; j < n; j++)
      written = written || TL_VEC_AT(parts[j]->params, TlBuffer, p)->written;
    tl_buf_printf(o, "%s%s%s* %s", p ? ", " : "", written ? "" : "const ", tl_dtype_cuda(b->dtype),
                  buf_name(e, b));
  }
  // The runtime sizes of every block, once each by name (in the order they
  // first appear), after the tensors as in a single kernel's launcher; each
  // block's launcher gets its own.
  const TlVar *sizes[64];
  int ns = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < parts[j]->sizes.len; i++) {
      const TlVar *v = TL_VEC_AT(parts[j]->sizes, TlVar, i);
      bool seen = false;
      for (int q = 0; q < ns; q++)
        seen = seen || strcmp(sizes[q]->name, v->name) == 0;
      if (!seen && ns < 64) sizes[ns++] = v;
    }
  for (int q = 0; q < ns; q++)
    tl_buf_printf(o, "%s%s %s", k0->params.len || q ? ", " : "", tl_dtype_cuda(sizes[q]->dtype),
                  sizes[q]->cname);
  tl_buf_printf(o, "%scudaStream_t stream) {\n  cudaError_t err;\n",
                k0->params.len || ns ? ", " : "");
  for (int j = 0; j < n; j++) {
    tl_buf_printf(o, "  if ((err = %s(", parts[j]->name);
    for (int p = 0; p < parts[j]->params.len; p++)
      tl_buf_printf(o, "%s%s", p ? ", " : "",
                    buf_name(e, TL_VEC_AT(parts[j]->params, TlBuffer, p)));
    for (int i = 0; i < parts[j]->sizes.len; i++) {
      const TlVar *v = TL_VEC_AT(parts[j]->sizes, TlVar, i);
      for (int q = 0; q < ns; q++)
        if (strcmp(sizes[q]->name, v->name) == 0)
          tl_buf_printf(o, "%s%s", parts[j]->params.len || i ? ", " : "", sizes[q]->cname);
    }
    tl_buf_printf(o, "%sstream)) != cudaSuccess)\n    return err;\n",
                  parts[j]->params.len || parts[j]->sizes.len ? ", " : "");
  }
  tl_buf_puts(o, "  return cudaSuccess;\n}\n\n");
}

// Whether kernel i is the first block of its launcher group.
static bool starts_group(const TlModule *m, int i) {
  const TlKernel *k = TL_VEC_AT(m->kernels, TlKernel, i);
  if (!k->launcher) return false;
  for (int j = 0; j < i; j++) {
    const TlKernel *o = TL_VEC_AT(m->kernels, TlKernel, j);
    if (o->launcher && strcmp(o->launcher, k->launcher) == 0) return false;
  }
  return true;
}

void tl_emit_cuda(TlArena *a, const TlModule *m, TlBuf *out) {
  Emit e = {0};
  e.out = out;
  e.m = m;
  tl_buf_init(&e.body, a);
  tl_buf_puts(&e.body, "");
  tl_buf_init(&e.helpers, a);
  tl_buf_puts(&e.helpers, "");
  for (int i = 0; i < m->kernels.len; i++)
    kernel(&e, TL_VEC_AT(m->kernels, TlKernel, i));
  for (int i = 0; i < m->kernels.len; i++)
    if (starts_group(m, i)) group_launcher(&e, m, i);

  tl_buf_printf(out, "// Generated by tlc %s from %s for %s. Do not edit: edit the .tl file.\n",
                TLC_VERSION, m->src->name, m->target_name);
  if (m->nvcc_arch)
    tl_buf_printf(out, "// Compile with: nvcc %s -c this_file.cu\n", m->nvcc_arch);
  else
    tl_buf_printf(out, "// Compile with: nvcc -arch=%s -c this_file.cu\n", m->target_name);
  // tlc-verify parses this file with libclang against its own small prelude
  // (it defines TLC_VERIFY_PRELUDE); nvcc sees the real toolkit headers.
  bool tma = false;
  for (int i = 0; i < m->kernels.len; i++)
    tma = tma || TL_VEC_AT(m->kernels, TlKernel, i)->tma_maps.len;
  tl_buf_puts(out, "#ifndef TLC_VERIFY_PRELUDE\n#include <cuda_runtime.h>\n#include <cuda_fp16.h>\n"
                   "#include <cuda_bf16.h>\n#include <stdint.h>\n");
  if (tma) // CUtensorMap and the cuTensorMapEncodeTiled prototype (driver API types only)
    tl_buf_puts(out, "#include <cudaTypedefs.h>\n");
  tl_buf_puts(out, "#endif\n\n");
  tl_buf_puts(out, "typedef __half half_t;\ntypedef __nv_bfloat16 bfloat16_t;\n\n");
  if (e.need_floordiv)
    tl_buf_puts(out, "// Python's floor division on integers (C's / truncates toward zero).\n"
                     "template <typename T> __device__ __forceinline__ T tl_floordiv(T a, T b) {\n"
                     "  T q = a / b;\n  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n\n");
  if (e.need_floormod)
    tl_buf_puts(out, "// Python's modulo on integers: the result has the sign of b.\n"
                     "template <typename T> __device__ __forceinline__ T tl_floormod(T a, T b) {\n"
                     "  T r = a % b;\n  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n\n");
  if (e.need_fmod)
    tl_buf_puts(out, "// Python's % on floats: a - floor(a / b) * b.\n"
                     "__device__ __forceinline__ float tl_pymod(float a, float b) {\n"
                     "  return a - floorf(a / b) * b;\n}\n"
                     "__device__ __forceinline__ double tl_pymod(double a, double b) {\n"
                     "  return a - floor(a / b) * b;\n}\n\n");
  if (e.need_swz)
    tl_buf_puts(out, "// The XOR swizzle of shared tiles read by ldmatrix: 16-byte chunk c of row r\n"
                     "// moves to chunk c ^ key(r), so the 8 rows of an 8x8 matrix hit 8 bank groups.\n"
                     "// Unsigned: offsets are never negative, and / and % become shifts and masks.\n"
                     "template <unsigned C, unsigned V, unsigned S>\n"
                     "__device__ __forceinline__ unsigned tl_swz(unsigned row, unsigned col) {\n"
                     "  const unsigned chunk = col / V;\n"
                     "  return row * C + ((chunk / S) * S + ((chunk % S) ^ ((row / (8 / S)) % S))) * V + col % V;\n"
                     "}\n\n");
  if (e.need_swz_wg)
    tl_buf_puts(out, "// wgmma's canonical layout of a tile wider than one swizzle panel: panels of\n"
                     "// S*V columns stored one after the other, each swizzled like tl_swz. A row\n"
                     "// past R is in a later pipeline stage of R x C elements.\n"
                     "template <unsigned R, unsigned C, unsigned V, unsigned S>\n"
                     "__device__ __forceinline__ unsigned tl_swz_wg(unsigned row, unsigned col) {\n"
                     "  const unsigned chunk = col % (S * V) / V, r = row % R;\n"
                     "  return row / R * (R * C) + col / (S * V) * (R * S * V) + r * (S * V) + (chunk ^ ((r / (8 / S)) % S)) * V +\n"
                     "         col % V;\n"
                     "}\n\n");
  if (e.need_mma)
    tl_emit_gemm_ptx(out);
  if (e.need_wgmma)
    tl_emit_wgmma_ptx(out);
  if (e.need_cp_async)
    tl_buf_puts(out,
                "// cp.async: copy N bytes global -> shared without staging in registers; the\n"
                "// data lands after cp.async.wait_group (PTX ISA, cp.async). .cg (L2 only) for 16 B.\n"
                "template <int N> __device__ __forceinline__ void tl_cp_async(void *smem, const void *gmem) {\n"
                "  unsigned s = (unsigned)__cvta_generic_to_shared(smem);\n"
                "  if (N == 16)\n"
                "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16;\\n\" :: \"r\"(s), \"l\"(gmem));\n"
                "  else\n"
                "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2;\\n\" :: \"r\"(s), \"l\"(gmem), \"n\"(N));\n"
                "}\n"
                "// The same with zero fill: when !full no byte is read and the destination is zeroed.\n"
                "template <int N> __device__ __forceinline__ void tl_cp_async_zfill(void *smem, const void *gmem, bool full) {\n"
                "  unsigned s = (unsigned)__cvta_generic_to_shared(smem);\n"
                "  int src = full ? N : 0;\n"
                "  if (N == 16)\n"
                "    asm volatile(\"cp.async.cg.shared.global [%0], [%1], 16, %2;\\n\" :: \"r\"(s), \"l\"(gmem), \"r\"(src));\n"
                "  else\n"
                "    asm volatile(\"cp.async.ca.shared.global [%0], [%1], %2, %3;\\n\" :: \"r\"(s), \"l\"(gmem), \"n\"(N), \"r\"(src));\n"
                "}\n\n");
  if (e.need_mbar)
    mbarrier_prelude(out);
  for (int r = 1; r <= 5; r++)
    if (e.need_tma_ranks & (1u << r))
      tma_load_prelude(out, r, false);
  for (int r = 1; r <= 5; r++)
    if (e.need_tma_mc_ranks & (1u << r))
      tma_load_prelude(out, r, true);
  if (e.need_cluster)
    cluster_prelude(out);
  if (e.need_tma_store_ranks)
    tma_store_prelude(out, e.need_tma_store_ranks);
  if (e.need_tma_host)
    tensor_map_prelude(out);
  tl_buf_write(out, e.helpers.data, e.helpers.len);
  tl_buf_write(out, e.body.data, e.body.len);
}
