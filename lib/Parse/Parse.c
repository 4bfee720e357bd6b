// Parser: tokens -> AST, by recursive descent. Each grammar rule is one
// function with the rule as its comment. The grammar is the subset of
// Python that .tl files use (see docs/language.md).
//
// Error recovery: the first error in a statement sets `failed`; every rule
// returns early once it is set, and the statement loop skips to the end of
// the statement (and over its block, if it opened one) before going on, so
// one run reports independent errors without cascades.
//
// This file holds the token helpers, the .py top level (host code skipped)
// and the entry points; expressions are in ParseExpr.c, statements in
// ParseStmt.c (ParseInternal.h).
#include "ParseInternal.h"

#include <string.h>

static const char *const node_names[] = {
#define X(k, s) s,
    TL_NODES(X)
#undef X
};

const char *tl_node_kind_name(TlNodeKind k) {
  return k < ND_COUNT ? node_names[k] : "?";
}

TlNode *tl_parse_new_node(Parser *p, TlNodeKind kind, TlLoc loc) {
  if (++p->nodes == MAX_EXPR_NODES && !p->failed) {
    p->failed = true;
    tl_error(p->diag, loc, "statement too long: more than %d terms; split it", MAX_EXPR_NODES);
  }
  TlNode *n = TL_NEW(p->arena, TlNode);
  n->kind = kind;
  n->loc = loc;
  return n;
}

bool tl_parse_at(Parser *p, TlTokenKind k) {
  return p->tok->kind == k;
}

TlToken *tl_parse_advance(Parser *p) {
  TlToken *t = p->tok;
  if (p->tok < p->end) p->tok++;
  return t;
}

bool tl_parse_accept(Parser *p, TlTokenKind k) {
  if (!tl_parse_at(p, k)) return false;
  tl_parse_advance(p);
  return true;
}

static const char *describe(const TlToken *t) {
  static char buf[96];
  switch (t->kind) {
  case TK_NAME:
    snprintf(buf, sizeof buf, "name '%.60s'", t->text);
    return buf;
  case TK_INT:
  case TK_FLOAT:
    snprintf(buf, sizeof buf, "number '%.60s'", t->text);
    return buf;
  case TK_STRING:
    return "string literal";
  case TK_NEWLINE:
    return "end of line";
  case TK_INDENT:
    return "indented block";
  case TK_DEDENT:
    return "end of block";
  case TK_EOF:
    return "end of file";
  default:
    snprintf(buf, sizeof buf, "'%s'", tl_token_kind_name(t->kind));
    return buf;
  }
}

void tl_parse_error_at_tok(Parser *p, const TlToken *t, const char *fmt, const char *what) {
  if (p->failed) return;
  p->failed = true;
  TlLoc loc = t->loc;
  if (loc.len == 0) loc.len = 1;
  tl_error(p->diag, loc, fmt, what, describe(t));
}

// Reports "expected X, found Y" at the current token (once per statement).
bool tl_parse_expect(Parser *p, TlTokenKind k, const char *context) {
  if (tl_parse_accept(p, k)) return true;
  if (!p->failed) {
    char what[128];
    snprintf(what, sizeof what, "'%s'%s%s", tl_token_kind_name(k), context ? " " : "",
             context ? context : "");
    tl_parse_error_at_tok(p, p->tok, "expected %s, found %s", what);
  }
  return false;
}

bool tl_parse_enter(Parser *p) {
  if (++p->depth > MAX_EXPR_DEPTH) {
    if (!p->failed) {
      p->failed = true;
      tl_error(p->diag, p->tok->loc, "nesting deeper than %d levels; split the expression",
               MAX_EXPR_DEPTH);
    }
    return false;
  }
  return true;
}

// True when the statement at t is decorated with @T.prim_func (or any
// decorator naming prim_func): a kernel, whose errors are never deferred.
static bool decorated_kernel(const TlToken *t) {
  while (t->kind == TK_AT) {
    for (; t->kind != TK_NEWLINE && t->kind != TK_EOF; t++)
      if (t->kind == TK_NAME && strcmp(t->text, "prim_func") == 0) return true;
    t++;
  }
  return false;
}

// The name a skipped top-level statement defines: `def NAME`, `class NAME`
// (after decorators) or the first target of `NAME = ...`; NULL otherwise.
static bool python_keyword(const char *s) {
  static const char *const kws[] = {"class", "try",    "except",   "finally", "async", "await",
                                    "del",   "global", "nonlocal", "yield",   "break", "continue",
                                    "match", "case",   "type",     NULL};
  for (int i = 0; kws[i]; i++)
    if (strcmp(s, kws[i]) == 0) return true;
  return false;
}

static const char *defined_name(const TlToken *t) {
  while (t->kind == TK_AT) {
    while (t->kind != TK_NEWLINE && t->kind != TK_EOF)
      t++;
    if (t->kind == TK_NEWLINE) t++;
  }
  if ((t->kind == TK_DEF || (t->kind == TK_NAME && strcmp(t->text, "class") == 0)) &&
      t[1].kind == TK_NAME)
    return t[1].text;
  if (t->kind == TK_NAME && strcmp(t->text, "async") == 0 && t[1].kind == TK_DEF &&
      t[2].kind == TK_NAME)
    return t[2].text;
  if (t->kind == TK_NAME && (t[1].kind == TK_ASSIGN || t[1].kind == TK_COLON) &&
      !python_keyword(t->text))
    return t->text;
  return NULL;
}

static void add_name(Parser *p, TlNode *n, const TlToken *t) {
  if (t->kind != TK_NAME || python_keyword(t->text)) return;
  TlNode *name = tl_parse_new_node(p, ND_NAME, t->loc);
  name->name = t->text;
  tl_vec_push(p->arena, &n->list, name);
}

static bool is_assign_op(TlTokenKind k) {
  return k == TK_ASSIGN || k == TK_PLUS_EQ || k == TK_MINUS_EQ || k == TK_STAR_EQ ||
         k == TK_SLASH_EQ || k == TK_SLASHSLASH_EQ || k == TK_PERCENT_EQ || k == TK_STARSTAR_EQ ||
         k == TK_LSHIFT_EQ || k == TK_RSHIFT_EQ || k == TK_AMP_EQ || k == TK_PIPE_EQ ||
         k == TK_CARET_EQ || k == TK_AT_EQ || k == TK_COLON_EQ;
}

// Every module-level name a skipped statement may bind (into n->list):
// targets of assignments at bracket depth 0 (not keyword arguments), `for`
// and `as` targets, and def/class names, whose bodies are skipped (their
// names are local). A `try` block's assignments bind module names too.
static void skipped_names(Parser *p, const TlToken *t, const TlToken *end, TlNode *n) {
  int depth = 0;
  const TlToken *prev = NULL;
  while (t < end) {
    if (t->kind == TK_LPAREN || t->kind == TK_LBRACKET || t->kind == TK_LBRACE)
      depth++;
    else if ((t->kind == TK_RPAREN || t->kind == TK_RBRACKET || t->kind == TK_RBRACE) && depth > 0)
      depth--;
    bool stmt_start = !prev || prev->kind == TK_NEWLINE || prev->kind == TK_INDENT ||
                      prev->kind == TK_DEDENT || prev->kind == TK_SEMI || prev->kind == TK_COLON;
    if (t->kind == TK_DEF || (t->kind == TK_NAME && strcmp(t->text, "class") == 0)) {
      if (t + 1 < end) add_name(p, n, t + 1);
      // skip to the end of its block: its names are its own
      while (t < end && t->kind != TK_NEWLINE)
        t++;
      if (t + 1 < end && t[1].kind == TK_INDENT) {
        int level = 0;
        for (t++; t < end; t++) {
          if (t->kind == TK_INDENT)
            level++;
          else if (t->kind == TK_DEDENT && --level == 0)
            break;
        }
      }
      prev = t;
      if (t < end) t++;
      continue;
    }
    if (depth == 0 && t->kind == TK_NAME && t + 1 < end &&
        (stmt_start || (prev && (prev->kind == TK_ASSIGN || prev->kind == TK_COMMA))) &&
        (is_assign_op(t[1].kind) || (t[1].kind == TK_COMMA && stmt_start) ||
         (t[1].kind == TK_COLON && stmt_start)))
      add_name(p, n, t);
    if (depth == 0 && (t->kind == TK_AS || t->kind == TK_FOR) && t + 1 < end) add_name(p, n, t + 1);
    prev = t;
    t++;
  }
}

// One top-level statement of a Python file: parsed with its diagnostics
// captured; if it fails, it becomes an ND_SKIPPED node (host code).
static void python_toplevel(Parser *p, TlVec *out) {
  TlToken *start = p->tok;
  if (decorated_kernel(start)) {
    tl_parse_stmt_list(p, out);
    return;
  }
  TlDiagCapture cap;
  tl_diag_capture_begin(p->diag, &cap);
  int before = out->len;
  tl_parse_stmt_list(p, out);
  int nerrors;
  const char *text = tl_diag_capture_end(p->diag, &cap, p->arena, &nerrors);
  if (nerrors == 0) return;
  out->len = before;
  TlNode *n = tl_parse_new_node(p, ND_SKIPPED, start->loc);
  n->name = defined_name(start);
  n->str = text;
  n->ival = nerrors;
  skipped_names(p, start, p->tok, n);
  tl_vec_push(p->arena, out, n);
}

// module = stmt* EOF
TlNode *tl_parse(TlArena *a, TlTokens toks, TlDiag *d) {
  Parser p = {.arena = a, .diag = d, .tok = toks.items, .end = toks.items + toks.len - 1};
  TlLoc loc = toks.items[0].loc;
  bool python = loc.src && loc.src->python;
  TlNode *m = tl_parse_new_node(&p, ND_MODULE, loc);
  while (!tl_parse_at(&p, TK_EOF) && !tl_diag_too_many(d)) {
    if (tl_parse_accept(&p, TK_NEWLINE)) continue;
    if (tl_parse_at(&p, TK_DEDENT)) { // stray dedent after an indentation error
      tl_parse_advance(&p);
      continue;
    }
    if (python)
      python_toplevel(&p, &m->list);
    else
      tl_parse_stmt_list(&p, &m->list);
  }
  return m;
}

TlNode *tl_parse_expression(TlArena *a, TlTokens toks, TlDiag *d) {
  Parser p = {.arena = a, .diag = d, .tok = toks.items, .end = toks.items + toks.len - 1};
  while (tl_parse_at(&p, TK_NEWLINE))
    tl_parse_advance(&p);
  TlNode *n = tl_parse_exprlist(&p);
  while (tl_parse_accept(&p, TK_NEWLINE) || tl_parse_accept(&p, TK_DEDENT))
    ;
  if (!p.failed && !tl_parse_at(&p, TK_EOF))
    tl_parse_error_at_tok(&p, p.tok, "unexpected %s%s after the expression", "");
  return p.failed ? NULL : n;
}
