// Expressions of the tile IR printed as CUDA for the reference lowering.
//
// Deliberately independent of lib/CodeGen: the reference exists to catch
// bugs there, so it shares no printing code with it. Every subexpression is
// parenthesized (no precedence reasoning to get wrong), float16/bfloat16
// arithmetic goes through float and is rounded back (what the hardware's
// half ops compute for + - * /), narrow integers are cast back after C's
// promotions, and Python's floor division and modulo use helper functions
// for every sign. Each function returns a string in the arena.
#include <math.h>
#include <string.h>

#include "HarnessInternal.h"
#include "tlc/CIdent.h"

// float16, bfloat16 and fp8: arithmetic through float, rounded back.
static bool is_half(TlDtype t) {
  return tl_dtype_is_narrow_float(t);
}

// Integer types narrower than int: C promotes them, so results are cast back.
static bool is_narrow(TlDtype t) {
  return !tl_dtype_is_float(t) && tl_dtype_bits(t) < 32;
}

const char *tl_ref_paren(TlRef *r, const char *s) {
  size_t i = 0, n = strlen(s);
  if (s[0] != '(')
    while (i < n && (s[i] == '_' || s[i] == '.' || (s[i] >= '0' && s[i] <= '9') ||
                     (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')))
      i++;
  while (i < n && (s[i] == '(' || s[i] == '[')) {
    int depth = 0;
    do {
      depth += s[i] == '(' || s[i] == '[';
      depth -= s[i] == ')' || s[i] == ']';
      i++;
    } while (i < n && depth > 0);
  }
  return i == n && n > 0 ? s : tl_arena_printf(r->arena, "(%s)", s);
}

static const char *ctype(TlDtype t) {
  return tl_dtype_cuda(t);
}

static void error(TlRef *r, TlLoc loc, const char *what) {
  if (r->ok) tl_error(r->diag, loc, "the harness reference lowering does not support %s", what);
  r->ok = false;
}

// The same spelling as the compiled kernel's (CIdent.h): this is naming, not
// printing, so sharing it does not weaken the reference as a check.
const char *tl_ref_buf_name(TlRef *r, const TlBuffer *b) {
  if (b->view_of) b = b->view_of; // T.Tensor(..., P.data): P's memory
  return tl_cident(r->arena, b->name, TL_CIDENT_LOCAL);
}

static const char *int_literal(TlRef *r, int64_t v, TlDtype t) {
  switch (t) {
  case TY_BOOL:
    return v ? "true" : "false";
  case TY_INT64:
    if (v == INT64_MIN) return "(-9223372036854775807LL - 1LL)";
    return tl_arena_printf(r->arena, "%lldLL", (long long)v);
  case TY_UINT32:
    return tl_arena_printf(r->arena, "%lluu", (unsigned long long)(uint32_t)v);
  case TY_UINT64:
    return tl_arena_printf(r->arena, "%lluull", (unsigned long long)v);
  case TY_INT32:
    if (v > INT32_MIN && v <= INT32_MAX) return tl_arena_printf(r->arena, "%lld", (long long)v);
    return tl_arena_printf(r->arena, "((int)(%lldLL))", (long long)v);
  default:
    return tl_arena_printf(r->arena, "((%s)(%lld))", ctype(t), (long long)v);
  }
}

static const char *float_literal(TlRef *r, double v, TlDtype t) {
  const char *f;
  if (isnan(v)) {
    f = t == TY_FLOAT64 ? "__longlong_as_double(0x7ff8000000000000LL)"
                        : "__int_as_float(0x7fc00000)";
  } else if (isinf(v)) {
    f = t == TY_FLOAT64 ? (v < 0 ? "(-__longlong_as_double(0x7ff0000000000000LL))"
                                 : "__longlong_as_double(0x7ff0000000000000LL)")
                        : (v < 0 ? "(-__int_as_float(0x7f800000))" : "__int_as_float(0x7f800000)");
  } else {
    char num[64];
    snprintf(num, sizeof num, t == TY_FLOAT64 ? "%.17g" : "%.9g", v);
    if (!strpbrk(num, ".e")) strcat(num, ".0");
    f = tl_arena_printf(r->arena, t == TY_FLOAT64 ? "%s" : "%sf", num);
    if (v < 0) f = tl_arena_printf(r->arena, "(%s)", f);
  }
  if (is_half(t)) return tl_arena_printf(r->arena, "((%s)(%s))", ctype(t), f);
  return f;
}

const char *tl_ref_convert(TlRef *r, const char *x, TlDtype from, TlDtype to) {
  if (from == to) return x;
  // The conversions to and from half types are defined for float.
  if ((is_half(from) && to != TY_FLOAT32) || (is_half(to) && from != TY_FLOAT32))
    return tl_arena_printf(r->arena, "((%s)(float)%s)", ctype(to), tl_ref_paren(r, x));
  return tl_arena_printf(r->arena, "((%s)%s)", ctype(to), tl_ref_paren(r, x));
}

const char *tl_ref_widen(TlRef *r, const char *x, TlDtype t) {
  if (t == TY_FLOAT64) return x;
  if (tl_dtype_is_float(t)) return tl_ref_convert(r, x, t, TY_FLOAT32);
  return tl_ref_convert(r, x, t, TY_INT64);
}

// A float math function of x (dtype t): float for float16/bfloat16/float32,
// double for float64.
static const char *math1(TlRef *r, const char *fn, TlDtype t, const char *x) {
  if (t == TY_FLOAT64) return tl_arena_printf(r->arena, "%s(%s)", fn, x);
  const char *v = tl_arena_printf(r->arena, "%sf(%s)", fn, tl_ref_convert(r, x, t, TY_FLOAT32));
  return is_half(t) ? tl_arena_printf(r->arena, "((%s)(%s))", ctype(t), v) : v;
}

static const char *math2(TlRef *r, const char *fn, TlDtype t, const char *l, const char *rhs) {
  if (t == TY_FLOAT64) return tl_arena_printf(r->arena, "%s(%s, %s)", fn, l, rhs);
  const char *v = tl_arena_printf(r->arena, "%sf(%s, %s)", fn, tl_ref_convert(r, l, t, TY_FLOAT32),
                                  tl_ref_convert(r, rhs, t, TY_FLOAT32));
  return is_half(t) ? tl_arena_printf(r->arena, "((%s)(%s))", ctype(t), v) : v;
}

static const char *c_op(TlOp op) {
  switch (op) {
  case OP_ADD:
    return "+";
  case OP_SUB:
    return "-";
  case OP_MUL:
    return "*";
  case OP_DIV:
    return "/";
  case OP_EQ:
    return "==";
  case OP_NE:
    return "!=";
  case OP_LT:
    return "<";
  case OP_LE:
    return "<=";
  case OP_GT:
    return ">";
  case OP_GE:
    return ">=";
  case OP_AND:
    return "&&";
  case OP_BITAND:
    return "&";
  case OP_BITOR:
    return "|";
  case OP_XOR:
    return "^";
  case OP_SHL:
    return "<<";
  case OP_SHR:
    return ">>";
  case OP_OR:
    return "||";
  default:
    return NULL;
  }
}

#define P(s) tl_ref_paren(r, (s))

const char *tl_ref_binop(TlRef *r, TlOp op, TlDtype t, const char *l, const char *rhs) {
  TlArena *a = r->arena;
  bool fl = tl_dtype_is_float(t);
  switch (op) {
  case OP_ADD:
  case OP_SUB:
  case OP_MUL:
  case OP_DIV:
  case OP_BITAND: // integers only: computed on int, narrow types cast back (TVM keeps the type)
  case OP_BITOR:
  case OP_XOR:
  case OP_SHL:
  case OP_SHR:
    if (is_half(t))
      return tl_arena_printf(a, "((%s)((float)%s %s (float)%s))", ctype(t), P(l), c_op(op), P(rhs));
    if (is_narrow(t) || t == TY_BOOL)
      return tl_arena_printf(a, "((%s)(%s %s %s))", ctype(t), P(l), c_op(op), P(rhs));
    return tl_arena_printf(a, "(%s %s %s)", P(l), c_op(op), P(rhs));
  case OP_EQ:
  case OP_NE:
  case OP_LT:
  case OP_LE:
  case OP_GT:
  case OP_GE:
    if (is_half(t)) return tl_arena_printf(a, "((float)%s %s (float)%s)", P(l), c_op(op), P(rhs));
    return tl_arena_printf(a, "(%s %s %s)", P(l), c_op(op), P(rhs));
  case OP_AND:
  case OP_OR:
    return tl_arena_printf(a, "(%s %s %s)", P(l), c_op(op), P(rhs));
  case OP_FLOORDIV:
    if (fl) return math1(r, "floor", t, tl_ref_binop(r, OP_DIV, t, l, rhs));
    return tl_arena_printf(a, "tlr_floordiv<%s>(%s, %s)", ctype(t), l, rhs);
  case OP_FLOORMOD:
  case OP_FMOD:
    if (fl) return math2(r, "tlr_fmod", t, l, rhs);
    return tl_arena_printf(a, "tlr_floormod<%s>(%s, %s)", ctype(t), l, rhs);
  case OP_POW:
    if (fl) return math2(r, "pow", t, l, rhs);
    return tl_arena_printf(a, "((%s)pow((double)(%s), (double)(%s)))", ctype(t), l, rhs);
  case OP_MIN:
  case OP_MAX:
    if (fl) return math2(r, op == OP_MIN ? "fmin" : "fmax", t, l, rhs);
    return tl_arena_printf(a, "tlr_%s<%s>(%s, %s)", op == OP_MIN ? "min" : "max", ctype(t), l, rhs);
  default:
    return "0";
  }
}

static const char *call(TlRef *r, const TlExpr *x) {
  TlDtype t = x->dtype;
  if (tl_intrinsic_is_rng(x->fn)) {
    error(r, x->loc, "random draws (T.rng_*: each thread's generator stream follows the kernel's "
                     "own partition)");
    return "0";
  }
  const char *v = tl_ref_expr(r, x->args[0]);
  if (tl_intrinsic_is_user_shuffle(x->fn)) // per-thread code runs in the same threads here
    return tl_arena_printf(r->arena, "%s((unsigned)%s, %s, %s, %s)", tl_shuffle_cuda_name(x->fn),
                           P(v), P(tl_ref_expr(r, x->args[1])), P(tl_ref_expr(r, x->args[2])),
                           P(tl_ref_expr(r, x->args[3])));
  if (x->fn == FN_ATOMIC_ADD) // the reference's threads and blocks add concurrently too
    return tl_arena_printf(r->arena, "atomicAdd(&%s, %s)", v, P(tl_ref_expr(r, x->args[1])));
  if (x->fn == FN_REINTERPRET)
    return tl_arena_printf(r->arena, "tlr_bitcast<%s, %s>(%s)", ctype(t), ctype(x->args[0]->dtype),
                           v);
  if (!tl_dtype_is_float(t)) {
    if (x->fn == FN_ABS) return tl_arena_printf(r->arena, "tlr_abs<%s>(%s)", ctype(t), v);
    error(r, x->loc, "math functions of integers");
    return "0";
  }
  switch (x->fn) {
  case FN_EXP:
    return math1(r, "exp", t, v);
  case FN_EXP2:
    return math1(r, "exp2", t, v);
  case FN_LOG:
    return math1(r, "log", t, v);
  case FN_LOG2:
    return math1(r, "log2", t, v);
  case FN_SQRT:
    return math1(r, "sqrt", t, v);
  case FN_RSQRT:
    return math1(r, "rsqrt", t, v);
  case FN_TANH:
    return math1(r, "tanh", t, v);
  case FN_ABS:
    return math1(r, "fabs", t, v);
  case FN_SIGMOID: {
    // 1 / (1 + exp(-x)) in float (double for float64), rounded once.
    TlDtype w = t == TY_FLOAT64 ? TY_FLOAT64 : TY_FLOAT32;
    const char *s = tl_arena_printf(
        r->arena, t == TY_FLOAT64 ? "(1.0 / (1.0 + exp(-(%s))))" : "(1.0f / (1.0f + expf(-(%s))))",
        tl_ref_convert(r, v, t, w));
    return tl_ref_convert(r, s, w, t);
  }
  default: // lane shuffles, swizzles: thread IR only
    error(r, x->loc, "thread-level intrinsics");
    return "0";
  }
}

static const char *index_list_access(TlRef *r, const TlExpr *x) {
  const char *idx[TL_MAX_DIMS];
  for (int i = 0; i < x->nargs; i++)
    idx[i] = tl_ref_expr(r, x->args[i]);
  return tl_ref_access(r, x->buf, idx, x->loc.line);
}

const char *tl_ref_expr(TlRef *r, const TlExpr *x) {
  TlArena *a = r->arena;
  switch (x->kind) {
  case EX_INT:
    return int_literal(r, x->ival, x->dtype);
  case EX_FLOAT:
    return float_literal(r, x->fval, x->dtype);
  case EX_VAR:
    if (x->var->kind == VAR_THREAD_IDX || x->var->kind == VAR_ARRAY) {
      error(r, x->loc, "thread indices (the reference runs its own thread count)");
      return "0";
    }
    return x->var->cname;
  case EX_LOAD:
    if (x->nargs != x->buf->ndims) {
      error(r, x->loc, "flat buffer accesses (thread IR)");
      return "0";
    }
    return index_list_access(r, x);
  case EX_ELEM:
    error(r, x->loc, "register arrays (thread IR)");
    return "0";
  case EX_BINARY:
    return tl_ref_binop(r, x->op, x->args[0]->dtype, tl_ref_expr(r, x->args[0]),
                        tl_ref_expr(r, x->args[1]));
  case EX_UNARY: {
    const char *v = tl_ref_expr(r, x->args[0]);
    TlDtype t = x->dtype;
    if (x->op == OP_NOT) return tl_arena_printf(a, "(!%s)", P(v));
    if (x->op == OP_BITNOT)
      return is_narrow(t) ? tl_arena_printf(a, "((%s)(~%s))", ctype(t), P(v))
                          : tl_arena_printf(a, "(~%s)", P(v));
    if (is_half(t)) return tl_arena_printf(a, "((%s)(-(float)%s))", ctype(t), P(v));
    if (is_narrow(t)) return tl_arena_printf(a, "((%s)(-%s))", ctype(t), P(v));
    return tl_arena_printf(a, "(-%s)", P(v));
  }
  case EX_CALL:
    return call(r, x);
  case EX_CAST:
    return tl_ref_convert(r, tl_ref_expr(r, x->args[0]), x->args[0]->dtype, x->dtype);
  case EX_SELECT:
    return tl_arena_printf(a, "(%s ? %s : %s)", P(tl_ref_expr(r, x->args[0])),
                           P(tl_ref_expr(r, x->args[1])), P(tl_ref_expr(r, x->args[2])));
  }
  return "0";
}

// Row-major offset of idx in b; check: each index goes through tlr_ix.
static const char *access(TlRef *r, const TlBuffer *b, const char *const *idx, bool check,
                          int line) {
  TlBuf s;
  tl_buf_init(&s, r->arena);
  tl_buf_printf(&s, "%s[", tl_ref_buf_name(r, b));
  if (b->strided) { // sum of index * stride (the harness binds every runtime size)
    for (int d = 0; d < b->ndims; d++) {
      tl_buf_puts(&s, d ? " + " : "");
      if (check)
        tl_buf_printf(&s, "tlr_ix(%s, %lldLL, %d)", idx[d], (long long)b->shape[d], line);
      else
        tl_buf_printf(&s, "(long long)%s", tl_ref_paren(r, idx[d]));
      tl_buf_printf(&s, " * %lldLL", (long long)b->stride[d]);
    }
    tl_buf_putc(&s, ']');
    return s.data;
  }
  for (int d = 0; d < b->ndims; d++) {
    // ((i0 * S1 + i1) * S2 + i2): open all parentheses first.
    if (d == 0)
      for (int j = 1; j < b->ndims; j++)
        tl_buf_putc(&s, '(');
    if (d > 0) tl_buf_printf(&s, " * %lldLL + ", (long long)b->shape[d]);
    if (check)
      tl_buf_printf(&s, "tlr_ix(%s, %lldLL, %d)", idx[d], (long long)b->shape[d], line);
    else
      tl_buf_printf(&s, "(long long)%s", tl_ref_paren(r, idx[d]));
    if (d > 0) tl_buf_putc(&s, ')');
  }
  tl_buf_putc(&s, ']');
  return s.data;
}

const char *tl_ref_access(TlRef *r, const TlBuffer *b, const char *const *idx, int line) {
  return access(r, b, idx, true, line);
}

const char *tl_ref_access_unchecked(TlRef *r, const TlBuffer *b, const char *const *idx) {
  return access(r, b, idx, false, 0);
}
