// The CUDA emitter's expressions: buffer and variable names, float literals
// in the dtype's own form, casts through float for the 16-bit types, C
// precedence with only the parentheses it needs, Python's // and % through
// the floordiv helpers, and the intrinsics.
#include "CudaEmitInternal.h"

#include <math.h>
#include <string.h>

bool tl_cuda_swizzle_is_wg(const TlBuffer *b) {
  int64_t C = b->shape[b->ndims - 1], V = 128 / tl_dtype_bits(b->dtype);
  return b->wgmma_operand && b->swizzle && C > V * b->swizzle;
}

const char *tl_cuda_buf_name(Emit *e, const TlBuffer *b) {
  if (b->table) return b->name;   // tlc's own name
  if (b->view_of) b = b->view_of; // T.Tensor(..., P.data): P's memory
  // One spelling in every output (CIdent.h).
  return tl_cident(e->body.arena, b->name, TL_CIDENT_LOCAL);
}

// float16, bfloat16 and fp8: math goes through float.
static bool is_half(TlDtype t) {
  return tl_dtype_is_narrow_float(t);
}

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
  if (!strpbrk(num, ".eEn")) strcat(num, ".0");
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
    tl_cuda_expr(e, x);
    tl_buf_putc(&e->body, ')');
  } else {
    tl_cuda_expr(e, x);
  }
}

// fn(l, r) with both operands as floats: pow and Python's float %.
static void float_call(Emit *e, const char *fn, const TlExpr *l, const TlExpr *r) {
  tl_buf_printf(&e->body, "%s(", fn);
  as_float(e, l);
  tl_buf_puts(&e->body, ", ");
  as_float(e, r);
  tl_buf_putc(&e->body, ')');
}

static void cast(Emit *e, const TlExpr *x, TlDtype to) {
  TlBuf *o = &e->body;
  TlDtype from = x->dtype;
  // half/bfloat16 convert through float to and from anything but float.
  if ((is_half(from) && to != TY_FLOAT32) || (is_half(to) && from != TY_FLOAT32)) {
    tl_buf_printf(o, "(%s)((float)(", tl_dtype_cuda(to));
    tl_cuda_expr(e, x);
    tl_buf_puts(o, "))");
    return;
  }
  tl_buf_printf(o, "(%s)(", tl_dtype_cuda(to));
  tl_cuda_expr(e, x);
  tl_buf_putc(o, ')');
}

// C precedence of the infix operators the emitter prints.
static int c_precedence(TlOp op) {
  switch (op) {
  case OP_MUL:
  case OP_DIV:
  case OP_FLOORDIV:
  case OP_FLOORMOD:
    return 13;
  case OP_ADD:
  case OP_SUB:
    return 12;
  case OP_SHL:
  case OP_SHR:
    return 11;
  case OP_LT:
  case OP_LE:
  case OP_GT:
  case OP_GE:
    return 10;
  case OP_EQ:
  case OP_NE:
    return 9;
  case OP_BITAND:
    return 8;
  case OP_XOR:
    return 7;
  case OP_BITOR:
    return 6;
  case OP_AND:
    return 5;
  case OP_OR:
    return 4;
  default:
    return 15;
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
      if (is_half(t)) tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
      tl_buf_printf(o, "%s(",
                    x->op == OP_MIN ? (t == TY_FLOAT64 ? "fmin" : "fminf")
                                    : (t == TY_FLOAT64 ? "fmax" : "fmaxf"));
      as_float(e, l);
      tl_buf_puts(o, ", ");
      as_float(e, r);
      tl_buf_putc(o, ')');
    } else {
      tl_buf_printf(o, "%s(", x->op == OP_MIN ? "min" : "max");
      tl_cuda_expr(e, l);
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, r);
      tl_buf_putc(o, ')');
    }
    return;
  case OP_FLOORDIV:
  case OP_FLOORMOD:
    if (fl) {
      if (is_half(t)) tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
      if (x->op == OP_FLOORDIV) {
        tl_buf_puts(o, t == TY_FLOAT64 ? "floor(" : "floorf(");
        as_float(e, l);
        tl_buf_puts(o, " / ");
        as_float(e, r);
        tl_buf_putc(o, ')');
        return;
      }
      e->need_fmod = true;
      float_call(e, "tl_pymod", l, r);
      return;
    }
    if (tl_expr_nonneg(l) && tl_expr_nonneg(r)) {
      // Both sides are known non-negative: C's / and % are Python's.
      bool paren = 13 < min_prec;
      if (paren) tl_buf_putc(o, '(');
      tl_cuda_expr_p(e, l, 13);
      tl_buf_puts(o, x->op == OP_FLOORDIV ? " / " : " % ");
      tl_cuda_expr_p(e, r, 14);
      if (paren) tl_buf_putc(o, ')');
      return;
    }
    if (x->op == OP_FLOORDIV)
      e->need_floordiv = true;
    else
      e->need_floormod = true;
    tl_buf_puts(o, x->op == OP_FLOORDIV ? "tl_floordiv(" : "tl_floormod(");
    tl_cuda_expr(e, l);
    tl_buf_puts(o, ", ");
    tl_cuda_expr(e, r);
    tl_buf_putc(o, ')');
    return;
  case OP_FMOD:
    e->need_fmod = true;
    if (is_half(t)) tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
    float_call(e, "tl_pymod", l, r);
    return;
  case OP_POW:
    if (is_half(t)) tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
    float_call(e, t == TY_FLOAT64 ? "pow" : "powf", l, r);
    return;
  case OP_MUL:
    if (is_half(t) && !tl_dtype_is_fp8(t) && is_half(r->dtype)) {
      // nvcc contracts a 16-bit multiply and the add or subtract after it
      // into one fma (one rounding, found by tlc-smith on the H200); the
      // reference lowering, TileLang's half_t and the CPU emulator round the
      // product first. __hmul_rn keeps it rounded.
      tl_buf_puts(o, "__hmul_rn(");
      tl_cuda_expr(e, l);
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, r);
      tl_buf_putc(o, ')');
      return;
    }
    break;
  default:
    break;
  }
  static const char *ops[] = {
#define X(k, s, p) s,
      TL_BINOPS(X)
#undef X
  };
  const char *op = x->op == OP_AND ? "&&" : x->op == OP_OR ? "||" : ops[x->op];
  // fp8 (cuda_fp8.h) has conversions only, no operators: + - * / and the
  // comparisons are printed on floats, and arithmetic rounds back.
  if (tl_dtype_is_fp8(t) && x->op != OP_AND && x->op != OP_OR) {
    bool cmp = x->dtype == TY_BOOL;
    if (!cmp)
      tl_buf_printf(o, "(%s)(", tl_dtype_cuda(t));
    else if (c_precedence(x->op) < min_prec)
      tl_buf_putc(o, '(');
    as_float(e, l);
    tl_buf_printf(o, " %s ", op);
    as_float(e, r);
    if (!cmp || c_precedence(x->op) < min_prec) tl_buf_putc(o, ')');
    return;
  }
  int p = c_precedence(x->op);
  // + - * and the bitwise operators on integers narrower than int compute
  // on int in C; TVM (and the reference lowering) keep the type, so the
  // result is cast back: a uint8 200 + 100 is 44 before a >> reads it, and a
  // uint16 shifted left drops its high bits.
  bool narrow = (x->op == OP_ADD || x->op == OP_SUB || x->op == OP_MUL || tl_bitwise_op(x->op)) &&
                !fl && t != TY_BOOL && tl_dtype_bits(t) < 32;
  bool paren = p < min_prec && !narrow;
  if (narrow) tl_buf_printf(o, "((%s)(", tl_dtype_cuda(t));
  if (paren) tl_buf_putc(o, '(');
  tl_cuda_expr_p(e, l, p);
  tl_buf_printf(o, " %s ", op);
  tl_cuda_expr_p(e, r, p + 1);
  if (paren) tl_buf_putc(o, ')');
  if (narrow) tl_buf_puts(o, "))");
}

static void call(Emit *e, const TlExpr *x) {
  TlBuf *o = &e->body;
  TlDtype t = x->dtype;
  const TlExpr *a = x->nargs ? x->args[0] : NULL; // (draws of the generator have none)
  bool dbl = t == TY_FLOAT64;
  if (x->fn == FN_SHFL_XOR) {
    tl_buf_puts(o, "__shfl_xor_sync(0xffffffffu, ");
    tl_cuda_expr(e, a);
    tl_buf_puts(o, ", ");
    tl_cuda_expr(e, x->args[1]);
    tl_buf_putc(o, ')');
    return;
  }
  if (tl_intrinsic_is_user_shuffle(x->fn)) { // T.shfl_sync and friends
    tl_buf_printf(o, "%s((unsigned)", tl_shuffle_cuda_name(x->fn));
    for (int i = 0; i < 4; i++) {
      if (i) tl_buf_puts(o, ", ");
      tl_cuda_expr(e, x->args[i]);
    }
    tl_buf_putc(o, ')');
    return;
  }
  if (x->fn == FN_SWIZZLE) {
    const TlBuffer *b = x->buf;
    int64_t C = b->shape[b->ndims - 1], V = 128 / tl_dtype_bits(b->dtype);
    if (tl_cuda_swizzle_is_wg(b)) { // panels of V * swizzle columns
      e->need_swz_wg = e->need_swz = true;
      // rows of one 2-D slice (a tile of more dimensions is a stack of them)
      tl_buf_printf(o, "tl_swz_wg<%lld, %lld, %lld, %d>(", (long long)(b->ndims > 2 ? b->shape[b->ndims - 2] : tl_buffer_elems(b) / C),
                    (long long)C, (long long)V, b->swizzle);
    } else {
      e->need_swz = true;
      tl_buf_printf(o, "tl_swz<%lld, %lld, %d>(", (long long)C, (long long)V, b->swizzle);
    }
    tl_cuda_expr(e, a);
    tl_buf_puts(o, ", ");
    tl_cuda_expr(e, x->args[1]);
    tl_buf_putc(o, ')');
    return;
  }
  if (tl_intrinsic_is_rng(x->fn)) { // the thread's generator (CudaKernel.c declares tl_rng)
    tl_buf_printf(o, "tl_rng_%s%s(&tl_rng)",
                  x->fn == FN_RNG_RAND ? "rand" : x->fn == FN_RNG_UNIFORM ? "uniform" : "normal",
                  x->fn != FN_RNG_RAND && x->dtype == TY_FLOAT64 ? "_double" : "");
    return;
  }
  if (x->fn == FN_ATOMIC_ADD) { // T.atomic_add(..., return_prev=True): the old value
    tl_buf_puts(o, "atomicAdd(&");
    tl_cuda_expr(e, a);
    tl_buf_puts(o, ", ");
    tl_cuda_expr(e, x->args[1]);
    tl_buf_putc(o, ')');
    return;
  }
  if (x->fn == FN_REINTERPRET) {
    e->need_bitcast = true;
    tl_buf_printf(o, "tl_bitcast<%s>(", tl_dtype_cuda(t));
    tl_cuda_expr(e, a);
    tl_buf_putc(o, ')');
    return;
  }
  if (x->fn == FN_ABS && !tl_dtype_is_float(t)) {
    tl_buf_puts(o, t == TY_INT64 ? "llabs(" : "abs(");
    tl_cuda_expr(e, a);
    tl_buf_putc(o, ')');
    return;
  }
  if (is_half(t)) tl_buf_printf(o, "(%s)", tl_dtype_cuda(t));
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
    static const char *names[] = {"exp",   "exp2", "log",     "log2", "sqrt",
                                  "rsqrt", "tanh", "sigmoid", "fabs"};
    tl_buf_printf(o, "%s%s(", names[x->fn], dbl ? "" : "f");
    break;
  }
  }
  as_float(e, a);
  tl_buf_putc(o, ')');
}

void tl_cuda_expr(Emit *e, const TlExpr *x) {
  tl_cuda_expr_p(e, x, 0);
}

void tl_cuda_expr_p(Emit *e, const TlExpr *x, int min_prec) {
  TlBuf *o = &e->body;
  switch (x->kind) {
  case EX_INT:
    if (x->dtype == TY_BOOL)
      tl_buf_puts(o, x->ival ? "true" : "false");
    else if (x->dtype == TY_UINT64)
      tl_buf_printf(o, "%lluull", (unsigned long long)x->ival);
    else if (x->dtype == TY_UINT32) // before the range test: 0x9E3779B1 is a uint32
      tl_buf_printf(o, "%lluu", (unsigned long long)(uint32_t)x->ival);
    else if (x->ival > INT32_MAX || x->ival < INT32_MIN || x->dtype == TY_INT64)
      tl_buf_printf(o, "%lldLL", (long long)x->ival);
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
    tl_buf_printf(o, "%s[", tl_cuda_buf_name(e, x->buf));
    tl_cuda_expr(e, x->args[0]);
    tl_buf_putc(o, ']');
    return;
  case EX_ELEM:
    tl_buf_printf(o, "%s[", x->var->cname);
    tl_cuda_expr(e, x->args[0]);
    tl_buf_putc(o, ']');
    return;
  case EX_BINARY:
    binary(e, x, min_prec);
    return;
  case EX_UNARY: {
    if (x->op != OP_NOT && tl_dtype_is_fp8(x->dtype)) {
      tl_buf_printf(o, "(%s)(-", tl_dtype_cuda(x->dtype));
      as_float(e, x->args[0]);
      tl_buf_putc(o, ')');
      return;
    }
    if (x->op == OP_BITNOT) { // cast back from C's int for types narrower than it
      bool narrow = tl_dtype_bits(x->dtype) < 32;
      if (narrow) tl_buf_printf(o, "((%s)", tl_dtype_cuda(x->dtype));
      tl_buf_putc(o, '~');
      tl_cuda_expr_p(e, x->args[0], 14);
      if (narrow) tl_buf_putc(o, ')');
      return;
    }
    bool narrow_neg = x->op == OP_NEG && !tl_dtype_is_float(x->dtype) && x->dtype != TY_BOOL &&
                      tl_dtype_bits(x->dtype) < 32; // cast back from C's int, as + - * are
    if (narrow_neg) tl_buf_printf(o, "((%s)(", tl_dtype_cuda(x->dtype));
    tl_buf_puts(o, x->op == OP_NOT ? "!" : "-");
    size_t operand = o->len;
    tl_cuda_expr_p(e, x->args[0], 14);
    // "-" then an operand printed with its own leading "-" (-(-a), -(-1.0f))
    // would read "--", C's decrement: separate them (found by tlc-smith).
    if (x->op != OP_NOT && o->len > operand && o->data[operand] == '-') {
      tl_buf_putc(o, ' ');
      memmove(o->data + operand + 1, o->data + operand, o->len - 1 - operand);
      o->data[operand] = ' ';
    }
    if (narrow_neg) tl_buf_puts(o, "))");
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
    tl_cuda_expr_p(e, x->args[0], 4);
    tl_buf_puts(o, " ? ");
    tl_cuda_expr_p(e, x->args[1], 4);
    tl_buf_puts(o, " : ");
    tl_cuda_expr_p(e, x->args[2], 4);
    tl_buf_putc(o, ')');
    return;
  }
}
