// IR parser: reads the text lib/IR/Print.c writes (a .tir file, described
// in docs/ir.md) back into a TlModule in the compilation arena, so that a
// compilation can stop after any pass and resume from the text. One entry
// point, tl_ir_parse. The first error is reported at its line:col in the
// .tir file and ends the parse (the text is machine-written: one precise
// error is more useful than a cascade).
//
// Locations: every `@line:col` in the text is a location in the source the
// kernel came from (the `module source` file); statements, buffers and
// variables get it back, and the expressions of a line get their line's.
#include "IRText.h"

#include <errno.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef enum {
  TK_EOF,
  TK_NEWLINE,
  TK_IDENT,
  TK_INT,
  TK_FLOAT,
  TK_STRING,
  TK_COMMENT, // "// text" as the first thing on a line: text holds the text
  TK_PUNCT,   // text holds the punctuation: ( ) [ ] { } , : # @ < > = ...
} TokKind;

typedef struct Tok {
  TokKind kind;
  const char *text; // identifier, punctuation, comment or decoded string
  int64_t ival;
  double fval;
  int line, col;
} Tok;

// A parameter's dimension that is a runtime size (m#0): the kernel line
// names it before the var table declares it.
typedef struct RuntimeDim {
  TlBuffer *buf;
  int dim;
  struct Tok *tok;
  const char *name, *cname;
} RuntimeDim;

typedef struct Parser {
  TlArena *a;
  TlDiag *d;
  const TlSource *file; // the .tir text, for errors
  Tok *toks;
  int ntoks, pos;
  jmp_buf fail; // the first error ends the parse
  TlModule *m;
  const TlSource *origin; // the source the locations refer to
  TlKernel *k;
  TlVec vars;     // TlVar*: the kernel's variable table
  TlVec scope;    // TlVar*: the variables visible here, innermost last
  TlVec runtime_dims; // RuntimeDim*: parameter dimensions named before the var table
  TlLoc line_loc; // the location written at the end of the current line
  int depth;      // nesting of expressions and blocks, bounded (the C stack is not)
} Parser;

enum { MAX_DEPTH = 500 };

static _Noreturn void error_at(Parser *p, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static _Noreturn void error_at(Parser *p, const Tok *t, const char *fmt, ...) {
  TlLoc loc = {p->file, t->line, t->col, 1};
  va_list ap;
  va_start(ap, fmt);
  tl_vdiag(p->d, TL_SEV_ERROR, loc, fmt, ap);
  va_end(ap);
  longjmp(p->fail, 1);
}

/* ---- lexer ---- */

static bool is_ident_start(char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
static bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}
static bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

static void push_tok(Parser *p, TlVec *v, Tok t) {
  Tok *n = TL_NEW(p->a, Tok);
  *n = t;
  tl_vec_push(p->a, v, n);
}

// A number: an integer, or a float (fraction, exponent, inf or nan), with
// an optional leading '-' the caller has seen glued to it.
static const char *lex_number(Parser *p, const char *s, Tok *t) {
  const char *start = s;
  if (*s == '-') s++;
  if (strncmp(s, "inf", 3) == 0 || strncmp(s, "nan", 3) == 0) {
    t->kind = TK_FLOAT;
    t->fval = strtod(start, NULL);
    return s + 3;
  }
  bool is_float = false;
  while (is_digit(*s))
    s++;
  if (*s == '.' && is_digit(s[1])) {
    is_float = true;
    s++;
    while (is_digit(*s))
      s++;
  }
  if ((*s == 'e' || *s == 'E') &&
      (is_digit(s[1]) || ((s[1] == '+' || s[1] == '-') && is_digit(s[2])))) {
    is_float = true;
    s += 2;
    while (is_digit(*s))
      s++;
  }
  char *end;
  if (is_float) {
    t->kind = TK_FLOAT;
    t->fval = strtod(start, &end);
  } else {
    t->kind = TK_INT;
    errno = 0;
    t->ival = strtoll(start, &end, 10);
    if (errno == ERANGE)
      error_at(p, t, "integer '%.*s' does not fit in 64 bits", (int)(end - start), start);
  }
  return s;
}

static void lex(Parser *p) {
  TlVec toks = {0};
  const char *s = p->file->text;
  int line = 1;
  const char *line_start = s;
  bool first_on_line = true;
  static const char *const puncts[] = {
      "//", "**", "==", "!=", "<=", ">=", "->", "<-", "..", "+:", "(", ")", "[", "]", "{",
      "}",  ",",  ":",  "#",  "@",  "<",  ">",  "=",  "+",  "-",  "*", "/", "%", "^", "~"};
  for (;;) {
    while (*s == ' ' || *s == '\t' || *s == '\r')
      s++;
    Tok t = {0};
    t.line = line;
    t.col = (int)(s - line_start) + 1;
    if (!*s) {
      if (!first_on_line) {
        t.kind = TK_NEWLINE;
        push_tok(p, &toks, t);
      }
      t.kind = TK_EOF;
      push_tok(p, &toks, t);
      break;
    }
    if (*s == '\n') {
      if (!first_on_line) {
        t.kind = TK_NEWLINE;
        push_tok(p, &toks, t);
      }
      s++;
      line++;
      line_start = s;
      first_on_line = true;
      continue;
    }
    if (first_on_line && s[0] == '/' && s[1] == '/') {
      // A comment statement: "// " then the text to the end of the line.
      const char *b = s + 2;
      if (*b == ' ') b++;
      const char *e = b;
      while (*e && *e != '\n')
        e++;
      t.kind = TK_COMMENT;
      t.text = tl_arena_strndup(p->a, b, (size_t)(e - b));
      push_tok(p, &toks, t);
      s = e;
      first_on_line = false;
      continue;
    }
    first_on_line = false;
    if (is_ident_start(*s)) {
      const char *b = s;
      while (is_ident_char(*s))
        s++;
      t.kind = TK_IDENT;
      t.text = tl_arena_strndup(p->a, b, (size_t)(s - b));
    } else if (is_digit(*s) || (*s == '-' && (is_digit(s[1]) || ((strncmp(s + 1, "inf", 3) == 0 ||
                                                                  strncmp(s + 1, "nan", 3) == 0) &&
                                                                 !is_ident_char(s[4]))))) {
      // The printer puts spaces around binary minus, so a '-' glued to a
      // number is the number's sign.
      s = lex_number(p, s, &t);
    } else if (*s == '"') {
      TlBuf b;
      tl_buf_init(&b, p->a);
      tl_buf_puts(&b, "");
      s++;
      while (*s && *s != '"' && *s != '\n') {
        if (*s == '\\' && s[1] && s[1] != '\n') s++;
        tl_buf_putc(&b, *s++);
      }
      if (*s != '"') error_at(p, &t, "unterminated string");
      s++;
      t.kind = TK_STRING;
      t.text = b.data;
    } else {
      const char *match = NULL;
      for (size_t i = 0; i < sizeof puncts / sizeof puncts[0] && !match; i++)
        if (strncmp(s, puncts[i], strlen(puncts[i])) == 0) match = puncts[i];
      if (!match) error_at(p, &t, "unexpected character '%c'", *s);
      t.kind = TK_PUNCT;
      t.text = match;
      s += strlen(match);
    }
    push_tok(p, &toks, t);
  }
  p->toks = TL_NEW_ARRAY(p->a, Tok, toks.len);
  for (int i = 0; i < toks.len; i++)
    p->toks[i] = *TL_VEC_AT(toks, Tok, i);
  p->ntoks = toks.len;
}

/* ---- token helpers ---- */

static Tok *peek(Parser *p) {
  return &p->toks[p->pos];
}
static Tok *peek_at(Parser *p, int ahead) {
  int i = p->pos + ahead;
  return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}
static Tok *next(Parser *p) {
  Tok *t = &p->toks[p->pos];
  if (t->kind != TK_EOF) p->pos++;
  return t;
}
static bool is_punct(const Tok *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->text, s) == 0;
}
static bool is_word(const Tok *t, const char *s) {
  return t->kind == TK_IDENT && strcmp(t->text, s) == 0;
}
static bool accept(Parser *p, const char *punct) {
  if (!is_punct(peek(p), punct)) return false;
  next(p);
  return true;
}
static bool accept_word(Parser *p, const char *w) {
  if (!is_word(peek(p), w)) return false;
  next(p);
  return true;
}

static const char *describe(const Tok *t) {
  switch (t->kind) {
  case TK_EOF:
    return "end of file";
  case TK_NEWLINE:
    return "end of line";
  case TK_INT:
  case TK_FLOAT:
    return "a number";
  case TK_STRING:
    return "a string";
  case TK_COMMENT:
    return "a comment";
  default:
    return t->text;
  }
}

static void expect(Parser *p, const char *punct) {
  if (!accept(p, punct))
    error_at(p, peek(p), "expected '%s', found '%s'", punct, describe(peek(p)));
}
static void expect_word(Parser *p, const char *w) {
  if (!accept_word(p, w)) error_at(p, peek(p), "expected '%s', found '%s'", w, describe(peek(p)));
}
static const char *ident(Parser *p, const char *what) {
  if (peek(p)->kind != TK_IDENT)
    error_at(p, peek(p), "expected %s, found '%s'", what, describe(peek(p)));
  return next(p)->text;
}
static int64_t integer(Parser *p, const char *what) {
  if (peek(p)->kind != TK_INT)
    error_at(p, peek(p), "expected %s, found '%s'", what, describe(peek(p)));
  return next(p)->ival;
}
static int small_int(Parser *p, const char *what) {
  Tok *t = peek(p);
  int64_t v = integer(p, what);
  if (v < -1000000000 || v > 1000000000)
    error_at(p, t, "%s %lld is out of range", what, (long long)v);
  return (int)v;
}
static int64_t count(Parser *p, const char *what) {
  Tok *t = peek(p);
  int64_t v = integer(p, what);
  if (v < 0) error_at(p, t, "%s must not be negative", what);
  return v;
}
static void expect_newline(Parser *p) {
  if (peek(p)->kind != TK_NEWLINE)
    error_at(p, peek(p), "expected end of line, found '%s'", describe(peek(p)));
  next(p);
}

// @line:col, a location in the kernel's source.
static TlLoc parse_loc(Parser *p) {
  expect(p, "@");
  TlLoc loc = {p->origin, 0, 0, 1};
  loc.line = small_int(p, "a line number");
  expect(p, ":");
  loc.col = small_int(p, "a column");
  return loc;
}

// The location at the end of the line starting at the current token, so
// that a line's expressions can carry it.
static void scan_line_loc(Parser *p) {
  p->line_loc = (TlLoc){p->origin, 0, 0, 1};
  for (int i = p->pos; i + 3 < p->ntoks && p->toks[i].kind != TK_NEWLINE; i++)
    if (is_punct(&p->toks[i], "@") && p->toks[i + 1].kind == TK_INT &&
        is_punct(&p->toks[i + 2], ":") && p->toks[i + 3].kind == TK_INT) {
      p->line_loc.line = (int)p->toks[i + 1].ival;
      p->line_loc.col = (int)p->toks[i + 3].ival;
    }
}

static TlDtype dtype(Parser *p) {
  Tok *t = peek(p);
  const char *name = ident(p, "a dtype");
  for (int i = 0; i < TY_COUNT; i++)
    if (strcmp(name, tl_dtype_name((TlDtype)i)) == 0) return (TlDtype)i;
  error_at(p, t, "unknown dtype '%s'", name);
}

static TlOrigin origin(Parser *p) {
  Tok *t = peek(p);
  const char *name = ident(p, "an origin");
  for (int i = ORIGIN_USER; i <= ORIGIN_REDUCE; i++)
    if (strcmp(name, tl_origin_name((TlOrigin)i)) == 0) return (TlOrigin)i;
  error_at(p, t, "unknown origin '%s'", name);
}

/* ---- names ---- */

static TlBuffer *find_buffer(Parser *p, const char *name) {
  for (int i = 0; i < p->k->params.len; i++)
    if (strcmp(TL_VEC_AT(p->k->params, TlBuffer, i)->name, name) == 0)
      return TL_VEC_AT(p->k->params, TlBuffer, i);
  for (int i = 0; i < p->k->buffers.len; i++)
    if (strcmp(TL_VEC_AT(p->k->buffers, TlBuffer, i)->name, name) == 0)
      return TL_VEC_AT(p->k->buffers, TlBuffer, i);
  return NULL;
}

static TlBuffer *buffer(Parser *p) {
  Tok *t = peek(p);
  const char *name = ident(p, "a buffer name");
  TlBuffer *b = find_buffer(p, name);
  if (!b) error_at(p, t, "unknown buffer '%s'", name);
  return b;
}

// The emitted name a key NAME#N or NAME#"CNAME" stands for.
static const char *key_cname(Parser *p, const char *name) {
  expect(p, "#");
  if (peek(p)->kind == TK_STRING) return next(p)->text;
  int64_t n = count(p, "a variable number");
  return tl_arena_printf(p->a, "%s_%lld", name, (long long)n);
}

static TlVar *table_var(Parser *p, const char *name, const char *cname) {
  for (int i = 0; i < p->vars.len; i++) {
    TlVar *v = TL_VEC_AT(p->vars, TlVar, i);
    if (strcmp(v->cname, cname) == 0 && strcmp(v->name, name) == 0) return v;
  }
  return NULL;
}

// NAME#N: a variable of the kernel's table.
static TlVar *var_key(Parser *p) {
  Tok *t = peek(p);
  const char *name = ident(p, "a variable");
  const char *cname = key_cname(p, name);
  TlVar *v = table_var(p, name, cname);
  if (!v)
    error_at(p, t, "variable '%s' (emitted as '%s') is not in the kernel's var table", name, cname);
  return v;
}

// A variable reference: NAME#N, or a bare NAME resolved in scope.
static TlVar *var_ref(Parser *p) {
  if (is_punct(peek_at(p, 1), "#")) return var_key(p);
  Tok *t = peek(p);
  const char *name = ident(p, "a variable");
  TlVar *v = tl_irtext_resolve(&p->scope, p->k, name);
  if (!v) error_at(p, t, "unknown variable '%s'", name);
  return v;
}

static void push_scope(Parser *p, TlVar *v) {
  tl_vec_push(p->a, &p->scope, v);
}

/* ---- expressions ---- */

static TlExpr *expr(Parser *p);
static TlExpr *binary(Parser *p, int min_prec);

static TlExpr *new_expr(Parser *p, TlExprKind k, int nargs) {
  return tl_expr_new(p->a, k, p->line_loc, TY_INT32, nargs);
}

static void call_args(Parser *p, TlExpr *e, int n, const char *what) {
  expect(p, "(");
  for (int i = 0; i < n; i++) {
    if (i) expect(p, ",");
    e->args[i] = expr(p);
  }
  if (!accept(p, ")"))
    error_at(p, peek(p), "%s takes %d operand%s; expected ')'", what, n, n == 1 ? "" : "s");
}

// Index list "[e, e, ...]" into a fresh array.
static TlExpr **index_list(Parser *p, int *n) {
  TlVec v = {0};
  expect(p, "[");
  if (!is_punct(peek(p), "]")) do {
      tl_vec_push(p->a, &v, expr(p));
    } while (accept(p, ","));
  expect(p, "]");
  *n = v.len;
  TlExpr **idx = TL_NEW_ARRAY(p->a, TlExpr *, v.len ? v.len : 1);
  for (int i = 0; i < v.len; i++)
    idx[i] = TL_VEC_AT(v, TlExpr, i);
  return idx;
}

static bool intrinsic(const char *name, TlIntrinsic *fn) {
  for (int i = 0; i <= FN_SWIZZLE; i++)
    if (strcmp(name, tl_intrinsic_name((TlIntrinsic)i)) == 0) {
      *fn = (TlIntrinsic)i;
      return true;
    }
  return false;
}

static TlExpr *primary(Parser *p) {
  Tok *t = peek(p);
  TlExpr *e;
  TlIntrinsic fn;
  if (t->kind == TK_INT || t->kind == TK_FLOAT) {
    next(p);
    e = new_expr(p, t->kind == TK_INT ? EX_INT : EX_FLOAT, 0);
    e->ival = t->ival;
    e->fval = t->fval;
  } else if ((is_word(t, "inf") || is_word(t, "nan")) && !is_punct(peek_at(p, 1), "#") &&
             !tl_irtext_resolve(&p->scope, p->k, t->text)) {
    next(p); // %g's spelling of infinity and not-a-number
    e = new_expr(p, EX_FLOAT, 0);
    e->fval = is_word(t, "inf") ? strtod("inf", NULL) : strtod("nan", NULL);
  } else if (accept(p, "(")) {
    e = expr(p);
    expect(p, ")");
  } else if (t->kind != TK_IDENT) {
    error_at(p, t, "expected an expression, found '%s'", describe(t));
  } else if (is_word(t, "cast") && is_punct(peek_at(p, 1), "<")) {
    next(p);
    next(p);
    e = new_expr(p, EX_CAST, 1);
    e->untyped = accept(p, "~");
    e->dtype = dtype(p);
    expect(p, ">");
    call_args(p, e, 1, "cast");
    return e; // a cast states its dtype: no suffix
  } else if (is_word(t, "swizzle") && is_punct(peek_at(p, 1), "<")) {
    next(p);
    next(p);
    e = new_expr(p, EX_CALL, 2);
    e->fn = FN_SWIZZLE;
    e->buf = buffer(p);
    expect(p, ">");
    call_args(p, e, 2, "swizzle");
  } else if (is_word(t, "select") && is_punct(peek_at(p, 1), "(")) {
    next(p);
    e = new_expr(p, EX_SELECT, 3);
    call_args(p, e, 3, "select");
  } else if ((is_word(t, "min") || is_word(t, "max") || is_word(t, "fmod")) &&
             is_punct(peek_at(p, 1), "(")) {
    next(p);
    e = new_expr(p, EX_BINARY, 2);
    e->op = is_word(t, "min") ? OP_MIN : is_word(t, "max") ? OP_MAX : OP_FMOD;
    call_args(p, e, 2, t->text);
  } else if (intrinsic(t->text, &fn) && fn != FN_SWIZZLE && is_punct(peek_at(p, 1), "(")) {
    next(p);
    e = new_expr(p, EX_CALL, fn == FN_SHFL_XOR ? 2 : 1);
    e->fn = fn;
    call_args(p, e, e->nargs, t->text);
  } else if (!is_punct(peek_at(p, 1), "#") && is_punct(peek_at(p, 1), "[") &&
             find_buffer(p, t->text)) {
    next(p);
    int n;
    TlExpr **idx = index_list(p, &n);
    e = new_expr(p, EX_LOAD, 0);
    e->buf = find_buffer(p, t->text);
    e->args = idx;
    e->nargs = n;
  } else {
    if (is_punct(peek_at(p, 1), "[") && !tl_irtext_resolve(&p->scope, p->k, t->text))
      error_at(p, t, "unknown buffer '%s'", t->text);
    TlVar *v = var_ref(p);
    if (is_punct(peek(p), "[")) {
      int n;
      TlExpr **idx = index_list(p, &n);
      if (n != 1) error_at(p, t, "an element of register array '%s' takes one index", v->name);
      e = new_expr(p, EX_ELEM, 0);
      e->args = idx;
      e->nargs = 1;
    } else {
      e = new_expr(p, EX_VAR, 0);
    }
    e->var = v;
  }
  e->dtype = tl_irtext_implied_dtype(e);
  if (is_punct(peek(p), ":") && (is_punct(peek_at(p, 1), "~") || peek_at(p, 1)->kind == TK_IDENT)) {
    next(p);
    e->untyped = accept(p, "~");
    e->dtype = dtype(p);
  }
  return e;
}

static TlExpr *unary(Parser *p) {
  if (++p->depth > MAX_DEPTH)
    error_at(p, peek(p), "expression nested more than %d deep", MAX_DEPTH);
  TlExpr *e = NULL;
  if (accept(p, "-") || accept_word(p, "not")) {
    bool neg = !is_word(&p->toks[p->pos - 1], "not");
    e = new_expr(p, EX_UNARY, 1);
    e->op = neg ? OP_NEG : OP_NOT;
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
  } ops[] = {{"+", OP_ADD, 4},       {"-", OP_SUB, 4},      {"*", OP_MUL, 5},   {"/", OP_DIV, 5},
             {"//", OP_FLOORDIV, 5}, {"%", OP_FLOORMOD, 5}, {"**", OP_POW, 6},  {"==", OP_EQ, 2},
             {"!=", OP_NE, 2},       {"<", OP_LT, 3},       {"<=", OP_LE, 3},   {">", OP_GT, 3},
             {">=", OP_GE, 3},       {"^", OP_XOR, 4},      {"and", OP_AND, 1}, {"or", OP_OR, 0}};
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
static TlExpr *binary(Parser *p, int min_prec) {
  TlExpr *lhs = unary(p);
  TlOp op;
  int prec;
  while (infix(peek(p), &op, &prec) && prec >= min_prec) {
    next(p);
    TlExpr *rhs = binary(p, op == OP_POW ? prec : prec + 1);
    TlExpr *e = new_expr(p, EX_BINARY, 2);
    e->op = op;
    e->args[0] = lhs;
    e->args[1] = rhs;
    e->dtype = tl_irtext_implied_dtype(e);
    lhs = e;
  }
  return lhs;
}

static TlExpr *expr(Parser *p) {
  return binary(p, 0);
}

/* ---- statements ---- */

static void parse_body(Parser *p, TlVec *body);

static void int_list(Parser *p, TlVec *out) {
  expect(p, "[");
  if (!is_punct(peek(p), "]")) do {
      tl_vec_push(p->a, out, (void *)(intptr_t)integer(p, "an integer"));
    } while (accept(p, ","));
  expect(p, "]");
}

// KEY N: a named count, as plans and layouts print their fields.
static int64_t keyed_count(Parser *p, const char *key, const char *what) {
  expect_word(p, key);
  return count(p, what);
}

static void parse_plan(Parser *p, TlPartitionPlan *pl) {
  expect(p, "(");
  pl->threads = keyed_count(p, "threads", "a thread count");
  expect(p, ",");
  pl->vector = keyed_count(p, "vector", "a vector width");
  expect(p, ",");
  pl->steps = keyed_count(p, "steps", "a step count");
  expect(p, ",");
  if (accept_word(p, "guarded")) {
    pl->guard = true;
    expect(p, ",");
  }
  expect_word(p, "extents");
  TlVec ext = {0};
  Tok *t = peek(p);
  int_list(p, &ext);
  if (ext.len < 1 || ext.len > TL_MAX_NEST)
    error_at(p, t, "a partition plan has 1 to %d extents", TL_MAX_NEST);
  pl->ndims = ext.len;
  for (int i = 0; i < ext.len; i++)
    pl->extents[i] = (int64_t)(intptr_t)ext.items[i];
  expect(p, ",");
  pl->total = keyed_count(p, "total", "a total");
  expect(p, ",");
  pl->accesses = keyed_count(p, "accesses", "an access count");
  expect(p, ",");
  pl->slots = keyed_count(p, "slots", "a slot count");
  expect(p, ",");
  pl->threads_used = keyed_count(p, "threads_used", "a thread count");
  expect(p, ")");
}

static TlLayoutFn *parse_layout_fn(Parser *p) {
  TlLayoutFn *f = TL_NEW(p->a, TlLayoutFn);
  f->name = ident(p, "a layout function name");
  int mark = p->scope.len;
  expect(p, "(");
  if (!is_punct(peek(p), ")")) do {
      if (f->nparams == TL_MAX_DIMS + 1)
        error_at(p, peek(p), "a layout function takes at most %d parameters", TL_MAX_DIMS + 1);
      f->params[f->nparams] = var_key(p);
      push_scope(p, f->params[f->nparams++]);
    } while (accept(p, ","));
  expect(p, ")");
  expect(p, "->");
  expect(p, "(");
  f->thread = expr(p);
  expect(p, ",");
  f->local = expr(p);
  expect(p, ")");
  p->scope.len = mark;
  f->replicate = keyed_count(p, "replicate", "a replication count");
  expect_word(p, "at");
  f->loc = (TlLoc){p->origin, 0, 0, 1};
  f->loc.line = small_int(p, "a line number");
  expect(p, ":");
  f->loc.col = small_int(p, "a column");
  return f;
}

// The keyword-led facts of Print.c's print_facts, in any order.
static const TlFragLayout *layout(Parser *p);

static void parse_facts(Parser *p, TlStmt *s) {
  for (;;) {
    Tok *t = peek(p);
    if (t->kind != TK_IDENT) return;
    next(p);
    if (is_word(t, "from")) {
      s->origin = origin(p);
    } else if (is_word(t, "coalesced_width")) {
      s->coalesced_width = count(p, "a width");
    } else if (is_word(t, "width")) {
      s->width = count(p, "a width");
    } else if (is_word(t, "layout")) {
      s->layout = parse_layout_fn(p);
    } else if (is_word(t, "stages")) {
      s->num_stages = small_int(p, "a stage count");
    } else if (is_word(t, "partition")) {
      parse_plan(p, &s->plan);
    } else if (is_word(t, "plan_at")) {
      s->plan_loc = (TlLoc){p->origin, 0, 0, 1};
      s->plan_loc.line = small_int(p, "a line number");
      expect(p, ":");
      s->plan_loc.col = small_int(p, "a column");
      s->plan_origin = origin(p);
    } else if (is_word(t, "plan_has_layout")) {
      s->plan_has_layout = true;
    } else if (is_word(t, "order")) {
      int_list(p, &s->order);
    } else if (is_word(t, "stage")) {
      int_list(p, &s->stage);
    } else if (is_word(t, "pipe_buffers")) {
      expect(p, "[");
      if (!is_punct(peek(p), "]")) do {
          tl_vec_push(p->a, &s->pipe_buffers, buffer(p));
        } while (accept(p, ","));
      expect(p, "]");
    } else if (is_word(t, "applied_stages")) {
      s->applied_stages = small_int(p, "a stage count");
    } else if (is_word(t, "per_thread")) {
      s->per_thread = true;
    } else if (is_word(t, "async_copy")) {
      s->async_copy = true;
    } else if (is_word(t, "atomic_add")) {
      s->atomic = true;
    } else if (is_word(t, "gemm_id")) {
      s->gemm_id = small_int(p, "a gemm id");
    } else if (is_word(t, "plan_frag")) {
      TlVec v = {0};
      int_list(p, &v);
      if (v.len < 1 || v.len > 2) error_at(p, t, "plan_frag takes one or two extents");
      s->plan_frag_ndims = v.len;
      for (int i = 0; i < v.len; i++)
        s->plan_frag_extents[i] = (int64_t)(intptr_t)v.items[i];
      s->plan_frag = layout(p);
    } else if (is_word(t, "wgmma_in_flight")) {
      s->wgmma_in_flight = true;
    } else if (is_word(t, "why_not_wgmma")) {
      if (peek(p)->kind != TK_STRING) error_at(p, peek(p), "why_not_wgmma takes a quoted reason");
      s->engine_why = next(p)->text;
    } else if (is_word(t, "stage_a")) {
      s->stage_a = expr(p);
    } else if (is_word(t, "stage_b")) {
      s->stage_b = expr(p);
    } else {
      error_at(p, t, "unknown statement attribute '%s'", t->text);
    }
  }
}

// The end of a statement's line: facts, the location, then '{' and a body
// when the statement has one.
static void finish_line(Parser *p, TlStmt *s, bool block) {
  parse_facts(p, s);
  s->loc = parse_loc(p);
  if (block) expect(p, "{");
  expect_newline(p);
}

static void close_block(Parser *p) {
  expect(p, "}");
  expect_newline(p);
}

static void parse_region(Parser *p, TlRegion *r) {
  r->buf = buffer(p);
  r->loc = p->line_loc;
  expect(p, "[");
  if (!is_punct(peek(p), "]")) do {
      if (r->ndims == TL_MAX_DIMS)
        error_at(p, peek(p), "a region has at most %d dimensions", TL_MAX_DIMS);
      r->start[r->ndims] = expr(p);
      expect(p, "+:");
      r->extent[r->ndims++] = count(p, "an extent");
    } while (accept(p, ","));
  expect(p, "]");
}

static TlLoopKind loop_kind(Parser *p) {
  Tok *t = peek(p);
  const char *name = ident(p, "a loop kind");
  for (int i = LOOP_SERIAL; i <= LOOP_PIPELINED; i++)
    if (strcmp(name, tl_loop_kind_name((TlLoopKind)i)) == 0) return (TlLoopKind)i;
  error_at(p, t, "unknown loop kind '%s'", name);
}

// NAME[0..W]: a register array and its width (vload / vstore).
static TlVar *lanes_of(Parser *p, int64_t *width) {
  TlVar *v = var_ref(p);
  expect(p, "[");
  if (integer(p, "0") != 0) error_at(p, &p->toks[p->pos - 1], "a vector access starts at lane 0");
  expect(p, "..");
  *width = count(p, "a width");
  expect(p, "]");
  return v;
}

/* ---- statements: KEYWORD operands facts @line:col, one function per form ---- */

static void for_operands(Parser *p, TlStmt *s) {
  s->loop_kind = loop_kind(p);
  s->var = var_key(p);
  expect_word(p, "in");
  s->start = expr(p);
  expect(p, "..");
  s->stop = expr(p);
  s->step = accept_word(p, "step") ? expr(p) : tl_expr_int(p->a, p->line_loc, 1, TY_INT32);
}

static void parallel_operands(Parser *p, TlStmt *s) {
  expect(p, "(");
  do {
    if (s->nvars == TL_MAX_DIMS)
      error_at(p, peek(p), "T.Parallel has at most %d variables", TL_MAX_DIMS);
    s->vars[s->nvars] = var_key(p);
    expect(p, "<");
    s->extents[s->nvars++] = count(p, "an extent");
  } while (accept(p, ","));
  expect(p, ")");
}

// `: dtype = value` after a scalar, which the var table already typed.
static void typed_value(Parser *p, TlStmt *s) {
  expect(p, ":");
  Tok *dt = peek(p);
  if (dtype(p) != s->var->dtype)
    error_at(p, dt, "'%s' is declared %s in the var table", s->var->name,
             tl_dtype_name(s->var->dtype));
  expect(p, "=");
  s->value = expr(p);
}

static void let_operands(Parser *p, TlStmt *s) {
  s->var = var_key(p);
  typed_value(p, s);
}

static void if_operands(Parser *p, TlStmt *s) {
  s->cond = expr(p);
}

static void copy_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  expect(p, "->");
  parse_region(p, &s->dst);
}

// A gemm operand: BUF, or BUF^T when it is transposed.
static TlBuffer *gemm_operand(Parser *p, bool *transposed) {
  TlBuffer *b = buffer(p);
  if (accept(p, "^")) {
    expect_word(p, "T");
    *transposed = true;
  }
  return b;
}

static void gemm_operands(Parser *p, TlStmt *s) {
  s->a = gemm_operand(p, &s->trans_a);
  expect(p, ",");
  s->b = gemm_operand(p, &s->trans_b);
  expect(p, "->");
  s->c = buffer(p);
  if (accept(p, "(")) {
    if (accept_word(p, "wgmma")) {
      s->use_wgmma = true;
    } else {
      if (accept_word(p, "tensor"))
        s->use_mma = true;
      else
        expect_word(p, "CUDA");
      expect_word(p, "cores");
    }
    expect(p, ")");
  }
}

static void fill_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->dst);
  expect(p, "=");
  s->value = expr(p);
}

// After the keyword reduce_KIND, which parse_stmt has read into s->reduce.
static void reduce_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  expect(p, "->");
  parse_region(p, &s->dst);
  expect_word(p, "dim");
  s->reduce_dim = small_int(p, "a dimension");
  s->reduce_clear = accept_word(p, "clear");
}

// BUF[i, ...]: the buffer and its indices.
static void access(Parser *p, TlStmt *s) {
  s->buf = buffer(p);
  int n;
  s->indices = index_list(p, &n);
  s->nindices = n;
}

static void vstore_operands(Parser *p, TlStmt *s) {
  access(p, s);
  expect(p, "=");
  s->var = lanes_of(p, &s->width);
}

static void decl_operands(Parser *p, TlStmt *s) {
  s->var = var_key(p);
  expect(p, ":");
  Tok *dt = peek(p);
  TlDtype ty = dtype(p);
  expect(p, "[");
  int64_t lanes = count(p, "a register count");
  expect(p, "]");
  if (ty != s->var->dtype || lanes != s->var->lanes)
    error_at(p, dt, "'%s' is declared %s[%lld] in the var table", s->var->name,
             tl_dtype_name(s->var->dtype), (long long)s->var->lanes);
}

static void no_operands(Parser *p, TlStmt *s) {
  (void)p;
  (void)s;
}

static void wgmma_wait_operands(Parser *p, TlStmt *s) {
  s->buf = buffer(p);
}

static void async_wait_operands(Parser *p, TlStmt *s) {
  s->width = count(p, "a group count");
}

static void cp_async_operands(Parser *p, TlStmt *s) {
  access(p, s);
  expect(p, "<-");
  s->value = expr(p);
  s->width = keyed_count(p, "x", "a width");
  if (accept_word(p, "if")) s->cond = expr(p);
}

static void tma_load_operands(Parser *p, TlStmt *s) {
  parse_region(p, &s->src);
  expect(p, "->");
  s->dst.buf = buffer(p);
  s->dst.ndims = s->dst.buf->ndims;
  expect_word(p, "map");
  Tok *mt = peek(p);
  s->tma_map = small_int(p, "a tensor map index");
  if (s->tma_map >= p->k->tma_maps.len) error_at(p, mt, "tensor map %d is not declared", s->tma_map);
}

static void tma_store_operands(Parser *p, TlStmt *s) {
  s->src.buf = buffer(p);
  s->src.ndims = s->src.buf->ndims;
  expect(p, "->");
  parse_region(p, &s->dst);
  expect_word(p, "map");
  Tok *mt = peek(p);
  s->tma_map = small_int(p, "a tensor map index");
  if (s->tma_map >= p->k->tma_maps.len) error_at(p, mt, "tensor map %d is not declared", s->tma_map);
}

static void ring(Parser *p, TlStmt *s) {
  Tok *rt = peek(p);
  if (accept_word(p, "full"))
    s->ring = RING_FULL;
  else if (accept_word(p, "empty"))
    s->ring = RING_EMPTY;
  else
    error_at(p, rt, "expected a barrier ring (full or empty), found '%s'", describe(rt));
}

static void mbar_wait_operands(Parser *p, TlStmt *s) {
  ring(p, s);
  expect_word(p, "parity");
  s->value = expr(p);
}

// (the full ring's expected bytes come as the width fact)
static void mbar_arrive_operands(Parser *p, TlStmt *s) {
  ring(p, s);
}

// Where the variables a statement declares are visible.
typedef enum {
  DECLARES_NONE,
  DECLARES_IN_BODY, // for, parallel: in the statement's own body
  DECLARES_AFTER,   // let, decl: in the rest of the enclosing body
} DeclScope;

// The statements that start with a keyword. A block form (for, parallel,
// if, while) ends its line with '{' and has a body; if may add `} else {`.
static const struct StmtForm {
  const char *keyword;
  TlStmtKind kind;
  void (*operands)(Parser *p, TlStmt *s);
  bool block;
  DeclScope declares;
} stmt_forms[] = {
    {"for", ST_FOR, for_operands, true, DECLARES_IN_BODY},
    {"parallel", ST_PARALLEL, parallel_operands, true, DECLARES_IN_BODY},
    {"let", ST_LET, let_operands, false, DECLARES_AFTER},
    {"if", ST_IF, if_operands, true, DECLARES_NONE},
    {"while", ST_WHILE, if_operands, true, DECLARES_NONE}, // while COND {
    {"copy", ST_COPY, copy_operands, false, DECLARES_NONE},
    {"gemm", ST_GEMM, gemm_operands, false, DECLARES_NONE},
    {"fill", ST_FILL, fill_operands, false, DECLARES_NONE},
    {"vstore", ST_VSTORE, vstore_operands, false, DECLARES_NONE},
    {"decl", ST_DECL, decl_operands, false, DECLARES_AFTER},
    {"sync", ST_SYNC, no_operands, false, DECLARES_NONE},
    {"async_commit", ST_ASYNC_COMMIT, no_operands, false, DECLARES_NONE},
    {"wgmma_wait", ST_WGMMA_WAIT, wgmma_wait_operands, false, DECLARES_NONE},
    {"async_wait", ST_ASYNC_WAIT, async_wait_operands, false, DECLARES_NONE},
    {"cp_async", ST_CP_ASYNC, cp_async_operands, false, DECLARES_NONE},
    {"tma_load", ST_TMA_LOAD, tma_load_operands, false, DECLARES_NONE},
    {"tma_store", ST_TMA_STORE, tma_store_operands, false, DECLARES_NONE},
    {"tma_store_wait", ST_TMA_STORE_WAIT, no_operands, false, DECLARES_NONE},
    {"mbar_wait", ST_MBAR_WAIT, mbar_wait_operands, false, DECLARES_NONE},
    {"mbar_arrive", ST_MBAR_ARRIVE, mbar_arrive_operands, false, DECLARES_NONE},
};

// The variables s declares, into scope.
static void declare(Parser *p, const TlStmt *s) {
  if (s->kind == ST_PARALLEL)
    for (int i = 0; i < s->nvars; i++)
      push_scope(p, s->vars[i]);
  else
    push_scope(p, s->var);
}

// The body of a block form (and an if's else body), then its closing brace.
static void block_body(Parser *p, TlStmt *s, int mark) {
  parse_body(p, &s->body);
  p->scope.len = mark;
  if (s->kind == ST_IF && is_punct(peek(p), "}") && is_word(peek_at(p, 1), "else")) {
    next(p);
    next(p);
    expect(p, "{");
    expect_newline(p);
    parse_body(p, &s->else_body);
    p->scope.len = mark;
  }
  close_block(p);
}

static TlStmt *keyword_stmt(Parser *p, const struct StmtForm *f) {
  int mark = p->scope.len;
  TlStmt *s = tl_stmt_new(p->a, f->kind, p->line_loc);
  f->operands(p, s);
  finish_line(p, s, f->block);
  if (f->declares != DECLARES_NONE) declare(p, s);
  if (f->block) block_body(p, s, mark);
  return s;
}

static TlStmt *reduce_stmt(Parser *p, Tok *t) {
  next(p);
  TlStmt *s = tl_stmt_new(p->a, ST_REDUCE, p->line_loc);
  int kind = -1;
  for (int i = REDUCE_SUM; i <= REDUCE_ABSMAX; i++)
    if (strcmp(t->text + 7, tl_irtext_reduce_name((TlReduceKind)i)) == 0) kind = i;
  if (kind < 0) error_at(p, t, "unknown reduction '%s'", t->text);
  s->reduce = (TlReduceKind)kind;
  reduce_operands(p, s);
  finish_line(p, s, false);
  return s;
}

// NAME: dtype = value re-assigns a scalar.
static TlStmt *set_stmt(Parser *p) {
  TlStmt *s = tl_stmt_new(p->a, ST_SET, p->line_loc);
  s->var = var_ref(p);
  typed_value(p, s);
  finish_line(p, s, false);
  return s;
}

// BUF[i] OP= value or ARRAY[i] OP= value: `=` or an update such as `+=`.
static void store_update(Parser *p, TlStmt *s) {
  static const struct {
    const char *s;
    TlOp op;
  } updates[] = {{"=", OP_EQ},        {"+", OP_ADD},  {"-", OP_SUB},  {"*", OP_MUL}, {"/", OP_DIV},
                 {"//", OP_FLOORDIV}, {"%", OP_FMOD}, {"**", OP_POW}, {"^", OP_XOR}};
  Tok *ot = peek(p);
  int found = -1;
  for (size_t i = 0; i < sizeof updates / sizeof updates[0]; i++)
    if (is_punct(ot, updates[i].s)) found = (int)i;
  if (is_word(ot, "min") || is_word(ot, "max")) found = -2;
  if (found == -1)
    error_at(p, ot, "expected '=' or an update such as '+=', found '%s'", describe(ot));
  next(p);
  if (found == -2)
    s->update_op = is_word(ot, "min") ? OP_MIN : OP_MAX;
  else
    s->update_op = updates[found].op;
  if (s->update_op != OP_EQ) expect(p, "=");
}

// A store (buffer or register array), or NAME[0..W] = vload BUF[i].
static TlStmt *store_stmt(Parser *p, Tok *t) {
  bool is_buf = !is_punct(peek_at(p, 1), "#") && find_buffer(p, t->text);
  int start = p->pos;
  TlBuffer *b = NULL;
  TlVar *v = NULL;
  if (is_buf)
    b = buffer(p);
  else
    v = var_ref(p);
  int save = p->pos;
  TlStmt *s;
  if (v && accept(p, "[") && peek(p)->kind == TK_INT && is_punct(peek_at(p, 1), "..")) {
    p->pos = start;
    s = tl_stmt_new(p->a, ST_VLOAD, p->line_loc);
    s->var = lanes_of(p, &s->width);
    expect(p, "=");
    expect_word(p, "vload");
    access(p, s);
    finish_line(p, s, false);
    return s;
  }
  p->pos = save;
  s = tl_stmt_new(p->a, ST_STORE, p->line_loc);
  s->buf = b;
  s->var = v;
  int n;
  s->indices = index_list(p, &n);
  s->nindices = n;
  store_update(p, s);
  // "%=" is printed for both float and integer modulo: the target's dtype
  // tells which.
  s->value = expr(p);
  if (s->update_op == OP_FMOD && !tl_dtype_is_float(b ? b->dtype : v->dtype))
    s->update_op = OP_FLOORMOD;
  finish_line(p, s, false);
  return s;
}

static TlStmt *parse_stmt(Parser *p) {
  Tok *t = peek(p);
  scan_line_loc(p);
  TlStmt *s;
  if (t->kind == TK_COMMENT) {
    next(p);
    s = tl_stmt_new(p->a, ST_COMMENT, p->line_loc);
    s->text = t->text;
    expect_newline(p);
    return s;
  }
  if (accept(p, "{")) {
    s = tl_stmt_new(p->a, ST_SEQ, p->line_loc);
    parse_facts(p, s);
    if (is_punct(peek(p), "@"))
      s->loc = parse_loc(p);
    else
      s->loc = (TlLoc){0};
    expect_newline(p);
    parse_body(p, &s->body);
    close_block(p);
    return s;
  }
  if (t->kind != TK_IDENT) error_at(p, t, "expected a statement, found '%s'", describe(t));
  for (size_t i = 0; i < sizeof stmt_forms / sizeof stmt_forms[0]; i++)
    if (accept_word(p, stmt_forms[i].keyword)) return keyword_stmt(p, &stmt_forms[i]);
  if (strncmp(t->text, "reduce_", 7) == 0) return reduce_stmt(p, t);
  if (is_punct(peek_at(p, 1), ":") ||
      (is_punct(peek_at(p, 1), "#") && is_punct(peek_at(p, 3), ":")))
    return set_stmt(p);
  return store_stmt(p, t);
}

static void parse_body(Parser *p, TlVec *body) {
  if (++p->depth > MAX_DEPTH) error_at(p, peek(p), "blocks nested more than %d deep", MAX_DEPTH);
  int mark = p->scope.len;
  while (!is_punct(peek(p), "}")) {
    if (peek(p)->kind == TK_EOF) error_at(p, peek(p), "expected '}' before the end of the file");
    tl_vec_push(p->a, body, parse_stmt(p));
  }
  p->scope.len = mark;
  p->depth--;
}

/* ---- kernels and the module ---- */

static void parse_layout(Parser *p, TlFragLayout *l);

static const TlFragLayout *layout(Parser *p) {
  TlFragLayout *l = TL_NEW(p->a, TlFragLayout);
  parse_layout(p, l);
  return l;
}

static void parse_layout(Parser *p, TlFragLayout *l) {
  Tok *t = peek(p);
  const char *kind = ident(p, "a layout kind");
  int found = -1;
  for (int i = LAYOUT_NONE; i <= LAYOUT_ROW_OF; i++)
    if (strcmp(kind, tl_irtext_layout_kind_name((TlLayoutKind)i)) == 0) found = i;
  if (found < 0) error_at(p, t, "unknown layout kind '%s'", kind);
  l->kind = (TlLayoutKind)found;
  static const char *const keys[] = {"rows", "cols", "threads", "wm", "wn", "g", "vec", "locals"};
  int64_t *fields[] = {&l->rows, &l->cols, &l->threads, &l->wm, &l->wn, &l->g, &l->vec, &l->locals};
  expect(p, "(");
  for (int i = 0; i < 8; i++) {
    if (i) expect(p, ",");
    expect_word(p, keys[i]);
    *fields[i] = count(p, keys[i]);
  }
  if (accept(p, ",")) {
    if (accept_word(p, "wgmma")) {
      l->wgmma = true;
      if (!accept(p, ",")) {
        expect(p, ")");
        return;
      }
    }
    expect_word(p, "parent");
    if (++p->depth > MAX_DEPTH) error_at(p, peek(p), "layouts nested more than %d deep", MAX_DEPTH);
    l->parent = layout(p);
    p->depth--;
  }
  expect(p, ")");
}

static void parse_buffer_type(Parser *p, TlBuffer *b) {
  Tok *t = peek(p);
  const char *scope = ident(p, "a buffer scope");
  int found = -1;
  for (int i = SCOPE_GLOBAL; i <= SCOPE_LOCAL; i++)
    if (strcmp(scope, tl_scope_name((TlScope)i)) == 0) found = i;
  if (found < 0) error_at(p, t, "unknown buffer scope '%s'", scope);
  b->scope = (TlScope)found;
  b->dtype = dtype(p);
  b->stages = 1;
  expect(p, "[");
  if (peek_at(p, 1)->kind == TK_IDENT && is_word(peek_at(p, 1), "x")) {
    b->stages = small_int(p, "a stage count");
    next(p);
  }
  do {
    if (b->ndims == TL_MAX_DIMS)
      error_at(p, peek(p), "a buffer has at most %d dimensions", TL_MAX_DIMS);
    if (peek(p)->kind == TK_IDENT) { // a runtime size m#0, resolved after the var table
      RuntimeDim *r = TL_NEW(p->a, RuntimeDim);
      r->buf = b;
      r->dim = b->ndims++;
      r->tok = peek(p);
      r->name = ident(p, "a runtime size");
      r->cname = key_cname(p, r->name);
      tl_vec_push(p->a, &p->runtime_dims, r);
      continue;
    }
    b->shape[b->ndims++] = count(p, "a dimension");
  } while (accept(p, ","));
  expect(p, "]");
}

// The runtime sizes of the parameters' shapes, the `sizes` line (the
// launcher's order) and the `grid D EXPR` lines of extents computed at launch.
static void parse_runtime_sizes(Parser *p, TlKernel *k) {
  for (int i = 0; i < p->runtime_dims.len; i++) {
    RuntimeDim *r = TL_VEC_AT(p->runtime_dims, RuntimeDim, i);
    TlVar *v = table_var(p, r->name, r->cname);
    if (!v || v->kind != VAR_SIZE)
      error_at(p, r->tok, "'%s' is not a runtime size of the kernel's var table", r->name);
    r->buf->dyn[r->dim] = v;
  }
  if (accept_word(p, "sizes")) {
    do {
      Tok *t = peek(p);
      TlVar *v = var_key(p);
      if (v && v->kind != VAR_SIZE) error_at(p, t, "'%s' is not a runtime size", v->name);
      tl_vec_push(p->a, &k->sizes, v);
    } while (accept(p, ","));
    expect_newline(p);
  }
  while (accept_word(p, "grid")) {
    Tok *t = peek(p);
    const char *dim = ident(p, "x, y or z");
    int d = strlen(dim) == 1 && dim[0] >= 'x' && dim[0] <= 'z' ? dim[0] - 'x' : -1;
    if (d < 0 || k->grid_const[d] != 0)
      error_at(p, t, "'grid %s' names no extent the kernel line leaves to the launcher", dim);
    k->grid[d] = expr(p);
    expect_newline(p);
  }
  for (int d = 0; d < 3; d++)
    if (k->grid_const[d] == 0 && !k->grid[d])
      error_at(p, peek(p), "grid extent %c is 0 and no 'grid %c' line gives it", "xyz"[d],
               "xyz"[d]);
}

static void parse_buffer_facts(Parser *p, TlBuffer *b) {
  for (;;) {
    if (accept_word(p, "offset")) {
      b->shared_offset = count(p, "an offset");
    } else if (accept_word(p, "swizzle")) {
      b->swizzle = small_int(p, "a swizzle chunk count");
    } else if (accept_word(p, "wgmma_operand")) {
      b->wgmma_operand = true;
    } else if (accept_word(p, "written")) {
      b->written = true;
    } else if (accept_word(p, "read")) {
      b->read = true;
    } else if (accept_word(p, "output")) {
      b->output = true;
    } else if (accept_word(p, "layout")) {
      b->layout = layout(p);
    } else if (accept_word(p, "table")) {
      TlVec v = {0};
      int_list(p, &v);
      int32_t *table = TL_NEW_ARRAY(p->a, int32_t, v.len ? v.len : 1);
      for (int i = 0; i < v.len; i++)
        table[i] = (int32_t)(intptr_t)v.items[i];
      b->table = table;
      b->table_len = v.len;
    } else {
      break;
    }
  }
  b->loc = parse_loc(p);
}

static void parse_var_decl(Parser *p) {
  TlVar *v = TL_NEW(p->a, TlVar);
  Tok *t = peek(p);
  v->name = ident(p, "a variable name");
  v->cname = key_cname(p, v->name);
  if (table_var(p, v->name, v->cname)) error_at(p, t, "variable '%s' is declared twice", v->cname);
  expect(p, ":");
  v->dtype = dtype(p);
  Tok *kt = peek(p);
  const char *kind = ident(p, "a variable kind");
  int found = -1;
  for (int i = VAR_BLOCK_IDX; i <= VAR_TILE_ITER; i++)
    if (strcmp(kind, tl_irtext_var_kind_name((TlVarKind)i)) == 0) found = i;
  if (found < 0) error_at(p, kt, "unknown variable kind '%s'", kind);
  v->kind = (TlVarKind)found;
  if (v->kind == VAR_BLOCK_IDX || v->kind == VAR_THREAD_IDX) {
    Tok *dt = peek(p);
    const char *dim = ident(p, "x, y or z");
    if (strlen(dim) != 1 || dim[0] < 'x' || dim[0] > 'z')
      error_at(p, dt, "expected x, y or z, found '%s'", dim);
    v->dim = dim[0] - 'x';
  }
  if (accept_word(p, "extent")) v->extent = count(p, "an extent");
  if (accept_word(p, "lanes")) v->lanes = count(p, "a register count");
  if (accept_word(p, "divisor")) v->divisor = count(p, "a divisor");
  v->loc = parse_loc(p);
  expect_newline(p);
  tl_vec_push(p->a, &p->vars, v);
}

static void parse_index_vars(Parser *p, TlVar **vars, TlVarKind kind) {
  for (int d = 0; d < 3; d++) {
    if (accept(p, "-")) continue;
    Tok *t = peek(p);
    vars[d] = var_key(p);
    if (vars[d]->kind != kind || vars[d]->dim != d)
      error_at(p, t, "'%s' is not a %s index along %c", vars[d]->name,
               kind == VAR_BLOCK_IDX ? "block" : "thread", "xyz"[d]);
  }
  expect_newline(p);
}

static void parse_kernel(Parser *p) {
  TlKernel *k = TL_NEW(p->a, TlKernel);
  p->k = k;
  p->vars = (TlVec){0};
  p->runtime_dims = (TlVec){0};
  p->scope = (TlVec){0};
  k->name = ident(p, "a kernel name");
  expect(p, "(");
  if (!is_punct(peek(p), ")")) do {
      TlBuffer *b = TL_NEW(p->a, TlBuffer);
      b->name = ident(p, "a parameter name");
      expect(p, ":");
      parse_buffer_type(p, b);
      parse_buffer_facts(p, b);
      b->param_index = k->params.len;
      tl_vec_push(p->a, &k->params, b);
    } while (accept(p, ","));
  expect(p, ")");
  expect_word(p, "grid");
  expect(p, "(");
  for (int d = 0; d < 3; d++) {
    if (d) expect(p, ",");
    k->grid_const[d] = count(p, "a grid extent");
    k->grid[d] =
        k->grid_const[d] ? tl_expr_int(p->a, (TlLoc){0}, k->grid_const[d], TY_INT32) : NULL;
  }
  expect(p, ")");
  expect_word(p, "threads");
  expect(p, "(");
  for (int d = 0; d < 3; d++) {
    if (d) expect(p, ",");
    k->threads[d] = count(p, "a thread count");
  }
  expect(p, ")");
  if (accept_word(p, "shared_bytes")) k->shared_bytes = count(p, "a byte count");
  expect_word(p, "level");
  if (accept_word(p, "thread"))
    k->thread_level = true;
  else
    expect_word(p, "tile");
  k->flat = accept_word(p, "flat");
  if (accept_word(p, "swizzle_panel")) k->swizzle_panel = count(p, "a panel size");
  if (accept_word(p, "ring_stages")) {
    k->ring_stages = small_int(p, "a ring size");
    expect_word(p, "regs");
    k->consumer_regs = small_int(p, "a register count");
    k->producer_regs = small_int(p, "a register count");
    expect_word(p, "blocks_per_sm");
    k->blocks_per_sm = small_int(p, "a block count");
  }
  k->persistent = accept_word(p, "persistent");
  if (accept_word(p, "cluster")) {
    Tok *ct = peek(p);
    k->cluster = small_int(p, "a cluster size");
    if (k->cluster != 2) error_at(p, ct, "clusters are of 2 blocks");
    Tok *dt = peek(p);
    const char *dim = ident(p, "a block dimension (x, y or z)");
    if (strlen(dim) != 1 || !strchr("xyz", dim[0])) error_at(p, dt, "a cluster runs along x, y or z");
    k->cluster_dim = dim[0] - 'x';
  }
  if (accept_word(p, "ws_why")) {
    if (peek(p)->kind != TK_STRING) error_at(p, peek(p), "ws_why takes a quoted reason");
    k->ws_why = next(p)->text;
  }
  if (accept_word(p, "launcher")) k->launcher = ident(p, "a launcher name");
  if (accept_word(p, "fallback")) k->fallback = ident(p, "a kernel name");
  k->is_fallback = accept_word(p, "is_fallback");
  expect_word(p, "next_id");
  k->next_id = small_int(p, "a variable count");
  k->loc = parse_loc(p);
  expect(p, "{");
  expect_newline(p);
  while (is_word(peek(p), "var")) {
    next(p);
    parse_var_decl(p);
  }
  for (int i = 0; i < p->vars.len; i++) // a persistent kernel's tile counter
    if (TL_VEC_AT(p->vars, TlVar, i)->kind == VAR_TILE_ITER) k->tile_iter = TL_VEC_AT(p->vars, TlVar, i);
  if (accept_word(p, "block_vars")) parse_index_vars(p, k->block_vars, VAR_BLOCK_IDX);
  if (accept_word(p, "thread_vars")) parse_index_vars(p, k->thread_vars, VAR_THREAD_IDX);
  parse_runtime_sizes(p, k);
  while (is_word(peek(p), "alloc")) {
    next(p);
    TlBuffer *b = TL_NEW(p->a, TlBuffer);
    Tok *t = peek(p);
    b->name = ident(p, "a buffer name");
    if (find_buffer(p, b->name)) error_at(p, t, "buffer '%s' is declared twice", b->name);
    expect(p, ":");
    parse_buffer_type(p, b);
    parse_buffer_facts(p, b);
    expect_newline(p);
    tl_vec_push(p->a, &k->buffers, b);
  }
  while (accept_word(p, "tma_map")) {
    TlTmaMap *t = TL_NEW(p->a, TlTmaMap);
    Tok *it = peek(p);
    if (small_int(p, "a tensor map index") != k->tma_maps.len)
      error_at(p, it, "tensor maps are numbered in order from 0");
    expect(p, ":");
    t->global = buffer(p);
    expect(p, "->");
    t->tile = buffer(p);
    t->rank = t->global->ndims;
    expect_word(p, "rows");
    t->row_dim = small_int(p, "a dimension");
    expect_word(p, "cols");
    t->col_dim = small_int(p, "a dimension");
    if (t->row_dim >= t->rank || t->col_dim >= t->rank)
      error_at(p, it, "a tensor map dimension is past the tensor's rank %d", t->rank);
    expect_word(p, "box");
    expect(p, "[");
    for (int d = 0; d < t->rank; d++) {
      if (d) expect(p, ",");
      t->box[d] = count(p, "a box extent");
    }
    expect(p, "]");
    expect_word(p, "panel_cols");
    t->panel_cols = count(p, "a column count");
    expect_word(p, "swizzle");
    t->swizzle_bytes = small_int(p, "a swizzle span in bytes");
    t->multicast = accept_word(p, "multicast");
    t->store = accept_word(p, "store");
    expect_newline(p);
    tl_vec_push(p->a, &k->tma_maps, t);
  }
  if (accept_word(p, "producer")) {
    expect(p, "{");
    expect_newline(p);
    parse_body(p, &k->producer);
    close_block(p);
  }
  parse_body(p, &k->body);
  close_block(p);
  tl_vec_push(p->a, &p->m->kernels, k);
}

TlModule *tl_ir_parse(TlArena *a, const TlSource *src, TlDiag *d) {
  Parser p = {0};
  p.a = a;
  p.d = d;
  p.file = src;
  if (setjmp(p.fail)) return NULL;
  lex(&p);
  TlModule *m = TL_NEW(a, TlModule);
  p.m = m;
  expect_word(&p, "module");
  expect_word(&p, "source");
  if (peek(&p)->kind != TK_STRING)
    error_at(&p, peek(&p), "expected the source file name as a string, found '%s'",
             describe(peek(&p)));
  const char *name = next(&p)->text;
  // The locations refer to the source; its text (when it is still there)
  // lets diagnostics of the later passes show the line.
  char err[256];
  TlSource *origin = tl_source_read(a, name, err, sizeof err);
  p.origin = origin ? origin : tl_source_from_string(a, name, "");
  m->src = p.origin;
  expect_word(&p, "target");
  m->target_name = ident(&p, "a target name");
  expect_word(&p, "sm");
  m->sm = small_int(&p, "an sm number");
  expect_word(&p, "max_shared_bytes");
  m->max_shared_bytes = count(&p, "a byte count");
  expect_word(&p, "max_threads");
  m->max_threads = count(&p, "a thread count");
  if (accept_word(&p, "has_wgmma"))
    m->has_wgmma = true;
  if (accept_word(&p, "has_tma"))
    m->has_tma = true;
  if (accept_word(&p, "clusters"))
    m->clusters = true;
  if (accept_word(&p, "nvcc_arch")) {
    if (peek(&p)->kind != TK_STRING) error_at(&p, peek(&p), "nvcc_arch takes a quoted flag");
    m->nvcc_arch = next(&p)->text;
  }
  expect_newline(&p);
  while (peek(&p)->kind != TK_EOF) {
    expect_word(&p, "kernel");
    parse_kernel(&p);
  }
  return m;
}
