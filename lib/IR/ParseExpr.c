// The IR text parser's expressions: literals, variables, loads, calls and
// intrinsics, casts, unary and binary operators by precedence, each with
// its optional `:dtype` when it differs from the implied one (IRText.h).
#include "IRParse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static TlExpr *new_expr(Parser *p, TlExprKind k, int nargs) {
  return tl_expr_new(p->a, k, p->line_loc, TY_INT32, nargs);
}

static void call_args(Parser *p, TlExpr *e, int n, const char *what) {
  tl_irp_expect(p, "(");
  for (int i = 0; i < n; i++) {
    if (i) tl_irp_expect(p, ",");
    e->args[i] = tl_irp_expr(p);
  }
  if (!tl_irp_accept(p, ")"))
    tl_irp_error_at(p, tl_irp_peek(p), "%s takes %d operand%s; expected ')'", what, n,
                    n == 1 ? "" : "s");
}

// Index list "[e, e, ...]" into a fresh array.
TlExpr **tl_irp_index_list(Parser *p, int *n) {
  TlVec v = {0};
  tl_irp_expect(p, "[");
  if (!tl_irp_is_punct(tl_irp_peek(p), "]")) do {
      tl_vec_push(p->a, &v, tl_irp_expr(p));
    } while (tl_irp_accept(p, ","));
  tl_irp_expect(p, "]");
  *n = v.len;
  TlExpr **idx = TL_NEW_ARRAY(p->a, TlExpr *, v.len ? v.len : 1);
  for (int i = 0; i < v.len; i++)
    idx[i] = TL_VEC_AT(v, TlExpr, i);
  return idx;
}

static bool intrinsic(const char *name, TlIntrinsic *fn) {
  for (int i = 0; i <= FN_RNG_NORMAL; i++) // the last intrinsic
    if (strcmp(name, tl_intrinsic_name((TlIntrinsic)i)) == 0) {
      *fn = (TlIntrinsic)i;
      return true;
    }
  return false;
}

static TlExpr *primary(Parser *p) {
  Tok *t = tl_irp_peek(p);
  TlExpr *e;
  TlIntrinsic fn;
  if (t->kind == TK_INT || t->kind == TK_FLOAT) {
    tl_irp_next(p);
    e = new_expr(p, t->kind == TK_INT ? EX_INT : EX_FLOAT, 0);
    e->ival = t->ival;
    e->fval = t->fval;
  } else if ((tl_irp_is_word(t, "inf") || tl_irp_is_word(t, "nan")) &&
             !tl_irp_is_punct(tl_irp_peek_at(p, 1), "#") &&
             !tl_irtext_resolve(&p->scope, p->k, t->text)) {
    tl_irp_next(p); // %g's spelling of infinity and not-a-number
    e = new_expr(p, EX_FLOAT, 0);
    e->fval = tl_irp_is_word(t, "inf") ? strtod("inf", NULL) : strtod("nan", NULL);
  } else if (tl_irp_accept(p, "(")) {
    e = tl_irp_expr(p);
    tl_irp_expect(p, ")");
  } else if (t->kind != TK_IDENT) {
    tl_irp_error_at(p, t, "expected an expression, found '%s'", tl_irp_describe(t));
  } else if (tl_irp_is_word(t, "cast") && tl_irp_is_punct(tl_irp_peek_at(p, 1), "<")) {
    tl_irp_next(p);
    tl_irp_next(p);
    e = new_expr(p, EX_CAST, 1);
    e->untyped = tl_irp_accept(p, "~");
    e->dtype = tl_irp_dtype(p);
    tl_irp_expect(p, ">");
    call_args(p, e, 1, "cast");
    return e; // a cast states its dtype: no suffix
  } else if (tl_irp_is_word(t, "swizzle") && tl_irp_is_punct(tl_irp_peek_at(p, 1), "<")) {
    tl_irp_next(p);
    tl_irp_next(p);
    e = new_expr(p, EX_CALL, 2);
    e->fn = FN_SWIZZLE;
    e->buf = tl_irp_buffer(p);
    tl_irp_expect(p, ">");
    call_args(p, e, 2, "swizzle");
  } else if (tl_irp_is_word(t, "reinterpret") && tl_irp_is_punct(tl_irp_peek_at(p, 1), "<")) {
    tl_irp_next(p);
    tl_irp_next(p);
    e = new_expr(p, EX_CALL, 1);
    e->fn = FN_REINTERPRET;
    e->dtype = tl_irp_dtype(p);
    tl_irp_expect(p, ">");
    call_args(p, e, 1, "reinterpret");
    return e; // it states its dtype: no suffix
  } else if (tl_irp_is_word(t, "select") && tl_irp_is_punct(tl_irp_peek_at(p, 1), "(")) {
    tl_irp_next(p);
    e = new_expr(p, EX_SELECT, 3);
    call_args(p, e, 3, "select");
  } else if ((tl_irp_is_word(t, "min") || tl_irp_is_word(t, "max") || tl_irp_is_word(t, "fmod")) &&
             tl_irp_is_punct(tl_irp_peek_at(p, 1), "(")) {
    tl_irp_next(p);
    e = new_expr(p, EX_BINARY, 2);
    e->op = tl_irp_is_word(t, "min") ? OP_MIN : tl_irp_is_word(t, "max") ? OP_MAX : OP_FMOD;
    call_args(p, e, 2, t->text);
  } else if (intrinsic(t->text, &fn) && fn != FN_SWIZZLE && fn != FN_REINTERPRET &&
             tl_irp_is_punct(tl_irp_peek_at(p, 1), "(")) {
    tl_irp_next(p);
    e = new_expr(p, EX_CALL,
                 fn == FN_SHFL_XOR || fn == FN_ATOMIC_ADD ? 2
                 : tl_intrinsic_is_user_shuffle(fn)       ? 4
                 : tl_intrinsic_is_rng(fn)                ? 0
                                                          : 1);
    e->fn = fn;
    call_args(p, e, e->nargs, t->text);
  } else if (!tl_irp_is_punct(tl_irp_peek_at(p, 1), "#") &&
             tl_irp_is_punct(tl_irp_peek_at(p, 1), "[") && tl_irp_find_buffer(p, t->text)) {
    tl_irp_next(p);
    int n;
    TlExpr **idx = tl_irp_index_list(p, &n);
    e = new_expr(p, EX_LOAD, 0);
    e->buf = tl_irp_find_buffer(p, t->text);
    e->args = idx;
    e->nargs = n;
  } else {
    if (tl_irp_is_punct(tl_irp_peek_at(p, 1), "[") && !tl_irtext_resolve(&p->scope, p->k, t->text))
      tl_irp_error_at(p, t, "unknown buffer '%s'", t->text);
    TlVar *v = tl_irp_var_ref(p);
    if (tl_irp_is_punct(tl_irp_peek(p), "[")) {
      int n;
      TlExpr **idx = tl_irp_index_list(p, &n);
      if (n != 1)
        tl_irp_error_at(p, t, "an element of register array '%s' takes one index", v->name);
      e = new_expr(p, EX_ELEM, 0);
      e->args = idx;
      e->nargs = 1;
    } else {
      e = new_expr(p, EX_VAR, 0);
    }
    e->var = v;
  }
  e->dtype = tl_irtext_implied_dtype(e);
  if (tl_irp_is_punct(tl_irp_peek(p), ":") &&
      (tl_irp_is_punct(tl_irp_peek_at(p, 1), "~") || tl_irp_peek_at(p, 1)->kind == TK_IDENT)) {
    tl_irp_next(p);
    e->untyped = tl_irp_accept(p, "~");
    e->dtype = tl_irp_dtype(p);
  }
  return e;
}

static TlExpr *unary(Parser *p) {
  if (++p->depth > MAX_DEPTH)
    tl_irp_error_at(p, tl_irp_peek(p), "expression nested more than %d deep", MAX_DEPTH);
  TlExpr *e = NULL;
  if (tl_irp_accept(p, "-") || tl_irp_accept(p, "~") || tl_irp_accept_word(p, "not")) {
    const Tok *op = &p->toks[p->pos - 1];
    e = new_expr(p, EX_UNARY, 1);
    e->op = tl_irp_is_word(op, "not") ? OP_NOT : tl_irp_is_punct(op, "~") ? OP_BITNOT : OP_NEG;
    e->args[0] = unary(p);
    e->dtype = tl_irtext_implied_dtype(e);
  } else {
    e = primary(p);
  }
  p->depth--;
  return e;
}

// The infix operator at t, with its precedence (TL_BINOPS), or false.
static bool infix(const Tok *t, TlOp *op, int *prec) {
  static const struct {
    const char *s;
    TlOp op;
    int prec;
  } ops[] = {{"+", OP_ADD, 8},       {"-", OP_SUB, 8},      {"*", OP_MUL, 9},    {"/", OP_DIV, 9},
             {"//", OP_FLOORDIV, 9}, {"%", OP_FLOORMOD, 9}, {"**", OP_POW, 10},  {"==", OP_EQ, 2},
             {"!=", OP_NE, 2},       {"<", OP_LT, 3},       {"<=", OP_LE, 3},    {">", OP_GT, 3},
             {">=", OP_GE, 3},       {"^", OP_XOR, 5},      {"&", OP_BITAND, 6}, {"|", OP_BITOR, 4},
             {"<<", OP_SHL, 7},      {">>", OP_SHR, 7},     {"and", OP_AND, 1},  {"or", OP_OR, 0}};
  if (t->kind != TK_PUNCT && t->kind != TK_IDENT) return false;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strcmp(t->text, ops[i].s) == 0) {
      *op = ops[i].op;
      *prec = ops[i].prec;
      return true;
    }
  return false;
}

// Precedence climbing with the printer's rules: left-associative, except
// ** (right-associative).
TlExpr *tl_irp_binary(Parser *p, int min_prec) {
  TlExpr *lhs = unary(p);
  TlOp op;
  int prec;
  while (infix(tl_irp_peek(p), &op, &prec) && prec >= min_prec) {
    tl_irp_next(p);
    TlExpr *rhs = tl_irp_binary(p, op == OP_POW ? prec : prec + 1);
    TlExpr *e = new_expr(p, EX_BINARY, 2);
    e->op = op;
    e->args[0] = lhs;
    e->args[1] = rhs;
    e->dtype = tl_irtext_implied_dtype(e);
    lhs = e;
  }
  return lhs;
}

TlExpr *tl_irp_expr(Parser *p) {
  return tl_irp_binary(p, 0);
}

/* ---- statements ---- */
