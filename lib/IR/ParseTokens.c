// The IR text parser's lexer and token helpers: the text (lib/IR/Print.c's
// output) becomes tokens once, up front; the helpers accept, expect and
// describe them, and read the small shared pieces (locations, dtypes,
// origins, buffer and variable references) every other parser file uses.
#include "IRParse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

_Noreturn void tl_irp_error_at(Parser *p, const Tok *t, const char *fmt, ...) {
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
      tl_irp_error_at(p, t, "integer '%.*s' does not fit in 64 bits", (int)(end - start), start);
  }
  return s;
}

void tl_irp_lex(Parser *p) {
  TlVec toks = {0};
  const char *s = p->file->text;
  int line = 1;
  const char *line_start = s;
  bool first_on_line = true;
  static const char *const puncts[] = {
      "//", "**", "==", "!=", "<=", ">=", "->", "<-", "..", "+:", "<<", ">>", "(", ")", "[",
      "]",  "{",  "}",  ",",  ":",  "#",  "@",  "<",  ">",  "=",  "+",  "-", "*", "/", "%",
      "^",  "~",  "&",  "|"};
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
      if (*s != '"') tl_irp_error_at(p, &t, "unterminated string");
      s++;
      t.kind = TK_STRING;
      t.text = b.data;
    } else {
      const char *match = NULL;
      for (size_t i = 0; i < sizeof puncts / sizeof puncts[0] && !match; i++)
        if (strncmp(s, puncts[i], strlen(puncts[i])) == 0) match = puncts[i];
      if (!match) tl_irp_error_at(p, &t, "unexpected character '%c'", *s);
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

Tok *tl_irp_peek(Parser *p) {
  return &p->toks[p->pos];
}
Tok *tl_irp_peek_at(Parser *p, int ahead) {
  int i = p->pos + ahead;
  return &p->toks[i < p->ntoks ? i : p->ntoks - 1];
}
Tok *tl_irp_next(Parser *p) {
  Tok *t = &p->toks[p->pos];
  if (t->kind != TK_EOF) p->pos++;
  return t;
}
bool tl_irp_is_punct(const Tok *t, const char *s) {
  return t->kind == TK_PUNCT && strcmp(t->text, s) == 0;
}
bool tl_irp_is_word(const Tok *t, const char *s) {
  return t->kind == TK_IDENT && strcmp(t->text, s) == 0;
}
bool tl_irp_accept(Parser *p, const char *punct) {
  if (!tl_irp_is_punct(tl_irp_peek(p), punct)) return false;
  tl_irp_next(p);
  return true;
}
bool tl_irp_accept_word(Parser *p, const char *w) {
  if (!tl_irp_is_word(tl_irp_peek(p), w)) return false;
  tl_irp_next(p);
  return true;
}

const char *tl_irp_describe(const Tok *t) {
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

void tl_irp_expect(Parser *p, const char *punct) {
  if (!tl_irp_accept(p, punct))
    tl_irp_error_at(p, tl_irp_peek(p), "expected '%s', found '%s'", punct,
                    tl_irp_describe(tl_irp_peek(p)));
}
void tl_irp_expect_word(Parser *p, const char *w) {
  if (!tl_irp_accept_word(p, w))
    tl_irp_error_at(p, tl_irp_peek(p), "expected '%s', found '%s'", w,
                    tl_irp_describe(tl_irp_peek(p)));
}
const char *tl_irp_ident(Parser *p, const char *what) {
  if (tl_irp_peek(p)->kind != TK_IDENT)
    tl_irp_error_at(p, tl_irp_peek(p), "expected %s, found '%s'", what,
                    tl_irp_describe(tl_irp_peek(p)));
  return tl_irp_next(p)->text;
}
int64_t tl_irp_integer(Parser *p, const char *what) {
  if (tl_irp_peek(p)->kind != TK_INT)
    tl_irp_error_at(p, tl_irp_peek(p), "expected %s, found '%s'", what,
                    tl_irp_describe(tl_irp_peek(p)));
  return tl_irp_next(p)->ival;
}
int tl_irp_small_int(Parser *p, const char *what) {
  Tok *t = tl_irp_peek(p);
  int64_t v = tl_irp_integer(p, what);
  if (v < -1000000000 || v > 1000000000)
    tl_irp_error_at(p, t, "%s %lld is out of range", what, (long long)v);
  return (int)v;
}
int64_t tl_irp_count(Parser *p, const char *what) {
  Tok *t = tl_irp_peek(p);
  int64_t v = tl_irp_integer(p, what);
  if (v < 0) tl_irp_error_at(p, t, "%s must not be negative", what);
  return v;
}
void tl_irp_expect_newline(Parser *p) {
  if (tl_irp_peek(p)->kind != TK_NEWLINE)
    tl_irp_error_at(p, tl_irp_peek(p), "expected end of line, found '%s'",
                    tl_irp_describe(tl_irp_peek(p)));
  tl_irp_next(p);
}

// @line:col, a location in the kernel's source.
TlLoc tl_irp_parse_loc(Parser *p) {
  tl_irp_expect(p, "@");
  TlLoc loc = {p->origin, 0, 0, 1};
  loc.line = tl_irp_small_int(p, "a line number");
  tl_irp_expect(p, ":");
  loc.col = tl_irp_small_int(p, "a column");
  return loc;
}

// The location at the end of the line starting at the current token, so
// that a line's expressions can carry it.
void tl_irp_scan_line_loc(Parser *p) {
  p->line_loc = (TlLoc){p->origin, 0, 0, 1};
  for (int i = p->pos; i + 3 < p->ntoks && p->toks[i].kind != TK_NEWLINE; i++)
    if (tl_irp_is_punct(&p->toks[i], "@") && p->toks[i + 1].kind == TK_INT &&
        tl_irp_is_punct(&p->toks[i + 2], ":") && p->toks[i + 3].kind == TK_INT) {
      p->line_loc.line = (int)p->toks[i + 1].ival;
      p->line_loc.col = (int)p->toks[i + 3].ival;
    }
}

TlDtype tl_irp_dtype(Parser *p) {
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "a dtype");
  for (int i = 0; i < TY_COUNT; i++)
    if (strcmp(name, tl_dtype_name((TlDtype)i)) == 0) return (TlDtype)i;
  tl_irp_error_at(p, t, "unknown dtype '%s'", name);
}

TlOrigin tl_irp_origin(Parser *p) {
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "an origin");
  for (int i = ORIGIN_USER; i <= ORIGIN_REDUCE; i++)
    if (strcmp(name, tl_origin_name((TlOrigin)i)) == 0) return (TlOrigin)i;
  tl_irp_error_at(p, t, "unknown origin '%s'", name);
}

/* ---- names ---- */

TlBuffer *tl_irp_find_buffer(Parser *p, const char *name) {
  for (int i = 0; i < p->k->params.len; i++)
    if (strcmp(TL_VEC_AT(p->k->params, TlBuffer, i)->name, name) == 0)
      return TL_VEC_AT(p->k->params, TlBuffer, i);
  for (int i = 0; i < p->k->buffers.len; i++)
    if (strcmp(TL_VEC_AT(p->k->buffers, TlBuffer, i)->name, name) == 0)
      return TL_VEC_AT(p->k->buffers, TlBuffer, i);
  return NULL;
}

TlBuffer *tl_irp_buffer(Parser *p) {
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "a buffer name");
  TlBuffer *b = tl_irp_find_buffer(p, name);
  if (!b) tl_irp_error_at(p, t, "unknown buffer '%s'", name);
  return b;
}

// The emitted name a key NAME#N or NAME#"CNAME" stands for.
const char *tl_irp_key_cname(Parser *p, const char *name) {
  tl_irp_expect(p, "#");
  if (tl_irp_peek(p)->kind == TK_STRING) return tl_irp_next(p)->text;
  int64_t n = tl_irp_count(p, "a variable number");
  return tl_arena_printf(p->a, "%s_%lld", name, (long long)n);
}

TlVar *tl_irp_table_var(Parser *p, const char *name, const char *cname) {
  for (int i = 0; i < p->vars.len; i++) {
    TlVar *v = TL_VEC_AT(p->vars, TlVar, i);
    if (strcmp(v->cname, cname) == 0 && strcmp(v->name, name) == 0) return v;
  }
  return NULL;
}

// NAME#N: a variable of the kernel's table.
TlVar *tl_irp_var_key(Parser *p) {
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "a variable");
  const char *cname = tl_irp_key_cname(p, name);
  TlVar *v = tl_irp_table_var(p, name, cname);
  if (!v)
    tl_irp_error_at(p, t, "variable '%s' (emitted as '%s') is not in the kernel's var table", name,
                    cname);
  return v;
}

// A variable reference: NAME#N, or a bare NAME resolved in scope.
TlVar *tl_irp_var_ref(Parser *p) {
  if (tl_irp_is_punct(tl_irp_peek_at(p, 1), "#")) return tl_irp_var_key(p);
  Tok *t = tl_irp_peek(p);
  const char *name = tl_irp_ident(p, "a variable");
  TlVar *v = tl_irtext_resolve(&p->scope, p->k, name);
  if (!v) tl_irp_error_at(p, t, "unknown variable '%s'", name);
  return v;
}

void tl_irp_push_scope(Parser *p, TlVar *v) {
  tl_vec_push(p->a, &p->scope, v);
}

/* ---- expressions ---- */
