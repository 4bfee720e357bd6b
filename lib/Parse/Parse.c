// Parser: tokens -> AST, by recursive descent. Each grammar rule is one
// function with the rule as its comment. The grammar is the subset of
// Python that .tl files use (see docs/language.md).
//
// Error recovery: the first error in a statement sets `failed`; every rule
// returns early once it is set, and the statement loop skips to the end of
// the statement (and over its block, if it opened one) before going on, so
// one run reports independent errors without cascades.
#include "tlc/Ast.h"

#include <string.h>

// Each bracket costs the parser about two levels; the lexer stops at 200
// brackets, so this limit only catches long unary chains and the like.
enum { MAX_EXPR_DEPTH = 500, MAX_EXPR_NODES = 20000 };

typedef struct Parser {
  TlArena *arena;
  TlDiag *diag;
  TlToken *tok; // current token
  TlToken *end; // the EOF token
  bool failed;  // an error in the current statement
  int depth;    // expression/statement nesting, bounded
  int nodes;    // nodes in the current statement, bounded (sema recurses over them)
} Parser;

static const char *const node_names[] = {
#define X(k, s) s,
    TL_NODES(X)
#undef X
};

const char *tl_node_kind_name(TlNodeKind k) {
  return k < ND_COUNT ? node_names[k] : "?";
}

static TlNode *new_node(Parser *p, TlNodeKind kind, TlLoc loc) {
  if (++p->nodes == MAX_EXPR_NODES && !p->failed) {
    p->failed = true;
    tl_error(p->diag, loc, "statement too long: more than %d terms; split it", MAX_EXPR_NODES);
  }
  TlNode *n = TL_NEW(p->arena, TlNode);
  n->kind = kind;
  n->loc = loc;
  return n;
}

static bool at(Parser *p, TlTokenKind k) {
  return p->tok->kind == k;
}

static TlToken *advance(Parser *p) {
  TlToken *t = p->tok;
  if (p->tok < p->end)
    p->tok++;
  return t;
}

static bool accept(Parser *p, TlTokenKind k) {
  if (!at(p, k))
    return false;
  advance(p);
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

static void error_at_tok(Parser *p, const TlToken *t, const char *fmt, const char *what) {
  if (p->failed)
    return;
  p->failed = true;
  TlLoc loc = t->loc;
  if (loc.len == 0)
    loc.len = 1;
  tl_error(p->diag, loc, fmt, what, describe(t));
}

// Reports "expected X, found Y" at the current token (once per statement).
static bool expect(Parser *p, TlTokenKind k, const char *context) {
  if (accept(p, k))
    return true;
  if (!p->failed) {
    char what[128];
    snprintf(what, sizeof what, "'%s'%s%s", tl_token_kind_name(k), context ? " " : "",
             context ? context : "");
    error_at_tok(p, p->tok, "expected %s, found %s", what);
  }
  return false;
}

static TlNode *expr(Parser *p);
static TlNode *or_expr(Parser *p);
static TlNode *exprlist(Parser *p);
static void block(Parser *p, TlVec *body);
static TlNode *stmt_list(Parser *p, TlVec *out);
static TlNode *postfix(Parser *p);
static TlNode *comprehension(Parser *p, TlToken *open, TlNode *elem, TlNode *value);

static bool enter(Parser *p) {
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

// args = arg ("," arg)* ","?
// arg  = NAME "=" expr | "*" expr | expr
static void call_args(Parser *p, TlNode *call) {
  while (!at(p, TK_RPAREN) && !p->failed) {
    if (at(p, TK_NAME) && p->tok[1].kind == TK_ASSIGN) {
      TlToken *name = advance(p);
      advance(p);
      TlNode *kw = new_node(p, ND_KEYWORD, name->loc);
      kw->name = name->text;
      // A repeated keyword is an error in Python; taking either value
      // silently (threads=128, threads=64) would hide the mistake.
      for (int i = 0; i < call->list2.len && !p->failed; i++)
        if (strcmp(TL_VEC_AT(call->list2, TlNode, i)->name, kw->name) == 0) {
          p->failed = true;
          tl_error(p->diag, name->loc, "keyword argument '%s' repeated", kw->name);
        }
      kw->a = expr(p);
      tl_vec_push(p->arena, &call->list2, kw);
    } else if (at(p, TK_STAR)) {
      TlToken *star = advance(p);
      TlNode *s = new_node(p, ND_STARRED, star->loc);
      s->a = expr(p);
      tl_vec_push(p->arena, &call->list, s);
    } else if (at(p, TK_STARSTAR)) { // **mapping: keywords from a dict
      TlToken *star = advance(p);
      TlNode *kw = new_node(p, ND_KEYWORD, star->loc);
      kw->op = TK_STARSTAR;
      kw->name = "**"; // never a parameter name: only the evaluator expands it
      kw->a = expr(p);
      tl_vec_push(p->arena, &call->list2, kw);
    } else {
      if (call->list2.len > 0) {
        error_at_tok(p, p->tok, "positional argument after keyword argument%s (found %s)",
                     "");
        return;
      }
      TlNode *arg = expr(p);
      if (at(p, TK_FOR)) // f(x for x in xs)
        arg = comprehension(p, p->tok, arg, NULL);
      tl_vec_push(p->arena, &call->list, arg);
    }
    if (!accept(p, TK_COMMA))
      break;
  }
  expect(p, TK_RPAREN, "to close the call");
}

// subscript = expr? ":" expr? (":" expr?)? | expr
static TlNode *subscript(Parser *p) {
  TlNode *lo = NULL;
  TlLoc loc = p->tok->loc;
  if (!at(p, TK_COLON))
    lo = expr(p);
  if (!at(p, TK_COLON))
    return lo;
  TlNode *s = new_node(p, ND_SLICE, loc);
  advance(p);
  s->a = lo;
  if (!at(p, TK_COLON) && !at(p, TK_COMMA) && !at(p, TK_RBRACKET))
    s->b = expr(p);
  if (accept(p, TK_COLON) && !at(p, TK_COMMA) && !at(p, TK_RBRACKET))
    s->c = expr(p);
  return s;
}

// comp_clauses = ("for" target ("," target)* "in" or_expr ("if" or_expr)*)+
// Each clause is an ND_FOR (targets in list2, iterable in a) or an ND_IF.
static void comp_clauses(Parser *p, TlNode *comp) {
  while (at(p, TK_FOR) && !p->failed) {
    TlNode *f = new_node(p, ND_FOR, advance(p)->loc);
    do {
      if (at(p, TK_IN))
        break;
      tl_vec_push(p->arena, &f->list2, postfix(p));
    } while (accept(p, TK_COMMA) && !p->failed);
    if (!expect(p, TK_IN, "in a comprehension"))
      return;
    f->a = or_expr(p);
    tl_vec_push(p->arena, &comp->list, f);
    while (at(p, TK_IF) && !p->failed) {
      TlNode *c = new_node(p, ND_IF, advance(p)->loc);
      c->a = or_expr(p);
      tl_vec_push(p->arena, &comp->list, c);
    }
  }
}

static TlNode *comprehension(Parser *p, TlToken *open, TlNode *elem, TlNode *value) {
  TlNode *c = new_node(p, ND_COMP, open->loc);
  c->op = open->kind;
  c->a = elem;
  c->b = value;
  comp_clauses(p, c);
  return c;
}

// brace = "{" "}" | "{" expr ":" expr ("," expr ":" expr)* ","? "}"
//       | "{" expr ":" expr comp_clauses "}" | "{" expr ("," expr)* "}" | "{" expr comp_clauses "}"
static TlNode *brace(Parser *p) {
  TlToken *t = advance(p);
  TlNode *n = new_node(p, ND_DICT, t->loc);
  if (accept(p, TK_RBRACE))
    return n;
  TlNode *first = expr(p);
  if (accept(p, TK_COLON)) {
    TlNode *value = expr(p);
    if (at(p, TK_FOR)) {
      n = comprehension(p, t, first, value);
    } else {
      tl_vec_push(p->arena, &n->list, first);
      tl_vec_push(p->arena, &n->list2, value);
      while (accept(p, TK_COMMA) && !at(p, TK_RBRACE) && !p->failed) {
        tl_vec_push(p->arena, &n->list, expr(p));
        expect(p, TK_COLON, "between a key and its value");
        tl_vec_push(p->arena, &n->list2, expr(p));
      }
    }
  } else if (at(p, TK_FOR)) {
    n = comprehension(p, t, first, NULL);
  } else {
    n->kind = ND_SET;
    tl_vec_push(p->arena, &n->list, first);
    while (accept(p, TK_COMMA) && !at(p, TK_RBRACE) && !p->failed)
      tl_vec_push(p->arena, &n->list, expr(p));
  }
  expect(p, TK_RBRACE, "to close the braces");
  return n;
}

// atom = NAME | INT | FLOAT | STRING+ | "True" | "False" | "None"
//      | "(" exprlist? ")" | "[" (expr ("," expr)*)? "]"
static TlNode *atom(Parser *p) {
  TlToken *t = p->tok;
  if (t->deferred_error) {
    error_at_tok(p, t, "%s (found %s)", t->deferred_error);
    return new_node(p, ND_NONE, t->loc);
  }
  switch (t->kind) {
  case TK_NAME: {
    advance(p);
    TlNode *n = new_node(p, ND_NAME, t->loc);
    n->name = t->text;
    return n;
  }
  case TK_INT: {
    advance(p);
    TlNode *n = new_node(p, ND_INT, t->loc);
    n->ival = t->ival;
    return n;
  }
  case TK_FLOAT: {
    advance(p);
    TlNode *n = new_node(p, ND_FLOAT, t->loc);
    n->fval = t->fval;
    return n;
  }
  case TK_STRING: {
    TlNode *n = new_node(p, ND_STR, t->loc);
    TlBuf b;
    tl_buf_init(&b, p->arena);
    tl_buf_puts(&b, "");
    while (at(p, TK_STRING)) { // adjacent literals concatenate
      n->ival |= p->tok->ival;   // f-string
      tl_buf_puts(&b, advance(p)->text);
    }
    n->str = b.data;
    return n;
  }
  case TK_TRUE:
  case TK_FALSE: {
    advance(p);
    TlNode *n = new_node(p, ND_BOOL, t->loc);
    n->ival = t->kind == TK_TRUE;
    return n;
  }
  case TK_NONE:
    advance(p);
    return new_node(p, ND_NONE, t->loc);
  case TK_LBRACE:
    return brace(p);
  case TK_LPAREN: {
    advance(p);
    if (accept(p, TK_RPAREN))
      return new_node(p, ND_TUPLE, t->loc);
    TlNode *n = exprlist(p);
    if (n->kind != ND_TUPLE && at(p, TK_FOR)) {
      n = comprehension(p, t, n, NULL);
      expect(p, TK_RPAREN, "to close the generator");
      return n;
    }
    if (n->kind == ND_TUPLE)
      n->loc = t->loc; // a parenthesized tuple starts at its '('
    expect(p, TK_RPAREN, "to close the parenthesis");
    return n;
  }
  case TK_LBRACKET: {
    advance(p);
    TlNode *n = new_node(p, ND_LIST, t->loc);
    while (!at(p, TK_RBRACKET) && !p->failed) {
      tl_vec_push(p->arena, &n->list, expr(p));
      if (n->list.len == 1 && at(p, TK_FOR)) { // [x for x in xs]
        n = comprehension(p, t, TL_VEC_AT(n->list, TlNode, 0), NULL);
        break;
      }
      if (!accept(p, TK_COMMA))
        break;
    }
    expect(p, TK_RBRACKET, "to close the list");
    return n;
  }
  default:
    error_at_tok(p, t, "expected an expression%s, found %s", "");
    return new_node(p, ND_NONE, t->loc);
  }
}

// postfix = atom ("(" args ")" | "[" subscript ("," subscript)* ","? "]" | "." NAME)*
static TlNode *postfix(Parser *p) {
  TlNode *n = atom(p);
  for (;;) {
    if (p->failed)
      return n;
    TlToken *t = p->tok;
    if (accept(p, TK_LPAREN)) {
      TlNode *call = new_node(p, ND_CALL, n->loc);
      call->a = n;
      call_args(p, call);
      n = call;
    } else if (accept(p, TK_LBRACKET)) {
      TlNode *sub = new_node(p, ND_SUBSCRIPT, n->loc);
      sub->a = n;
      do {
        if (at(p, TK_RBRACKET))
          break;
        tl_vec_push(p->arena, &sub->list, subscript(p));
      } while (accept(p, TK_COMMA) && !p->failed);
      if (sub->list.len == 0)
        error_at_tok(p, p->tok, "expected an index%s, found %s", "");
      expect(p, TK_RBRACKET, "to close the subscript");
      n = sub;
    } else if (accept(p, TK_DOT)) {
      TlNode *attr = new_node(p, ND_ATTR, n->loc);
      attr->a = n;
      if (!at(p, TK_NAME)) {
        error_at_tok(p, p->tok, "expected an attribute name after '.'%s, found %s", "");
        return n;
      }
      attr->name = advance(p)->text;
      attr->loc.len = (int)(p->tok[-1].loc.col + p->tok[-1].loc.len - attr->loc.col);
      if (p->tok[-1].loc.line != attr->loc.line || attr->loc.len < 1)
        attr->loc.len = 1;
      n = attr;
    } else {
      (void)t;
      return n;
    }
  }
}

static TlNode *factor(Parser *p);

// power = postfix ("**" factor)?
static TlNode *power(Parser *p) {
  TlNode *n = postfix(p);
  if (at(p, TK_STARSTAR)) {
    TlToken *op = advance(p);
    TlNode *b = new_node(p, ND_BINOP, op->loc);
    b->op = TK_STARSTAR;
    b->a = n;
    b->b = factor(p);
    return b;
  }
  return n;
}

// factor = ("-" | "+" | "~") factor | power
static TlNode *factor(Parser *p) {
  if (!enter(p))
    return new_node(p, ND_NONE, p->tok->loc);
  TlNode *n;
  if (at(p, TK_MINUS) || at(p, TK_PLUS) || at(p, TK_TILDE)) {
    TlToken *op = advance(p);
    n = new_node(p, ND_UNARY, op->loc);
    n->op = op->kind;
    n->a = factor(p);
  } else {
    n = power(p);
  }
  p->depth--;
  return n;
}

// The leftmost location of an expression (its first token).
static TlLoc leftmost(const TlNode *n) {
  TlLoc l = n->loc;
  while (n) {
    const TlNode *next = NULL;
    if (n->kind == ND_BINOP || n->kind == ND_COMPARE || n->kind == ND_AND || n->kind == ND_OR ||
        n->kind == ND_CALL || n->kind == ND_SUBSCRIPT || n->kind == ND_ATTR)
      next = n->a;
    else if (n->kind == ND_IFEXP)
      next = n->b;
    if (!next)
      break;
    if (next->loc.line < l.line || (next->loc.line == l.line && next->loc.col < l.col))
      l = next->loc;
    n = next;
  }
  return l;
}

static TlNode *binop(Parser *p, TlToken *op, TlNode *lhs, TlNode *rhs) {
  TlNode *b = new_node(p, ND_BINOP, op->loc);
  b->op = op->kind;
  b->a = lhs;
  b->b = rhs;
  return b;
}

// term = factor (("*" | "/" | "//" | "%" | "@") factor)*
static TlNode *term(Parser *p) {
  TlNode *n = factor(p);
  while ((at(p, TK_STAR) || at(p, TK_SLASH) || at(p, TK_SLASHSLASH) || at(p, TK_PERCENT) ||
          at(p, TK_AT)) &&
         !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, factor(p));
  }
  return n;
}

// sum = term (("+" | "-") term)*
static TlNode *sum(Parser *p) {
  TlNode *n = term(p);
  while ((at(p, TK_PLUS) || at(p, TK_MINUS)) && !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, term(p));
  }
  return n;
}

// shift = sum (("<<" | ">>") sum)*
static TlNode *shift(Parser *p) {
  TlNode *n = sum(p);
  while ((at(p, TK_LSHIFT) || at(p, TK_RSHIFT)) && !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, sum(p));
  }
  return n;
}

// bit_and = shift ("&" shift)*
static TlNode *bit_and(Parser *p) {
  TlNode *n = shift(p);
  while (at(p, TK_AMP) && !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, shift(p));
  }
  return n;
}

// bit_xor = bit_and ("^" bit_and)*
static TlNode *bit_xor(Parser *p) {
  TlNode *n = bit_and(p);
  while (at(p, TK_CARET) && !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, bit_and(p));
  }
  return n;
}

// bit_or = bit_xor ("|" bit_xor)*
static TlNode *bit_or(Parser *p) {
  TlNode *n = bit_xor(p);
  while (at(p, TK_PIPE) && !p->failed) {
    TlToken *op = advance(p);
    n = binop(p, op, n, bit_xor(p));
  }
  return n;
}

static bool is_compare(Parser *p) {
  TlTokenKind k = p->tok->kind;
  return k == TK_EQEQ || k == TK_NE || k == TK_LT || k == TK_LE || k == TK_GT || k == TK_GE ||
         k == TK_IN || k == TK_IS || (k == TK_NOT && p->tok[1].kind == TK_IN);
}

// comparison = bit_or (compop bit_or)*
// compop = "==" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "not" "in" | "is" | "is" "not"
// A chain a < b < c means (a < b) and (b < c), as in Python.
static TlNode *comparison(Parser *p) {
  TlNode *lhs = bit_or(p);
  TlNode *result = NULL;
  while (is_compare(p) && !p->failed) {
    TlToken *op = advance(p);
    bool negated = false;
    if (op->kind == TK_NOT) { // not in
      advance(p);
      negated = true;
    } else if (op->kind == TK_IS && accept(p, TK_NOT)) {
      negated = true;
    }
    TlNode *rhs = bit_or(p);
    TlNode *c = new_node(p, ND_COMPARE, op->loc);
    c->op = op->kind == TK_NOT ? TK_IN : op->kind;
    c->ival = negated;
    c->a = lhs;
    c->b = rhs;
    if (result) {
      TlNode *both = new_node(p, ND_AND, op->loc);
      both->a = result;
      both->b = c;
      result = both;
    } else {
      result = c;
    }
    lhs = rhs;
  }
  return result ? result : lhs;
}

// not_expr = "not" not_expr | comparison
static TlNode *not_expr(Parser *p) {
  if (at(p, TK_NOT)) {
    if (!enter(p))
      return new_node(p, ND_NONE, p->tok->loc);
    TlToken *op = advance(p);
    TlNode *n = new_node(p, ND_UNARY, op->loc);
    n->op = TK_NOT;
    n->a = not_expr(p);
    p->depth--;
    return n;
  }
  return comparison(p);
}

// and_expr = not_expr ("and" not_expr)*
static TlNode *and_expr(Parser *p) {
  TlNode *n = not_expr(p);
  while (at(p, TK_AND) && !p->failed) {
    TlToken *op = advance(p);
    TlNode *b = new_node(p, ND_AND, op->loc);
    b->a = n;
    b->b = not_expr(p);
    n = b;
  }
  return n;
}

// or_expr = and_expr ("or" and_expr)*
static TlNode *or_expr(Parser *p) {
  TlNode *n = and_expr(p);
  while (at(p, TK_OR) && !p->failed) {
    TlToken *op = advance(p);
    TlNode *b = new_node(p, ND_OR, op->loc);
    b->a = n;
    b->b = and_expr(p);
    n = b;
  }
  return n;
}

static void params(Parser *p, TlVec *out, TlTokenKind closer);

// expr = "lambda" params? ":" expr | or_expr ("if" or_expr "else" expr)?
static TlNode *expr(Parser *p) {
  if (p->failed)
    return new_node(p, ND_NONE, p->tok->loc);
  if (!enter(p))
    return new_node(p, ND_NONE, p->tok->loc);
  TlNode *n;
  if (at(p, TK_LAMBDA)) {
    TlToken *kw = advance(p);
    n = new_node(p, ND_LAMBDA, kw->loc);
    params(p, &n->params, TK_COLON);
    expect(p, TK_COLON, "after the lambda's parameters");
    n->a = expr(p);
  } else {
    n = or_expr(p);
    if (at(p, TK_IF)) {
      TlToken *kw = advance(p);
      TlNode *c = new_node(p, ND_IFEXP, kw->loc);
      c->b = n;
      c->a = or_expr(p);
      expect(p, TK_ELSE, "in conditional expression");
      c->c = expr(p);
      n = c;
    }
  }
  p->depth--;
  return n;
}

// exprlist = expr ("," expr)* ","?      (a tuple when there is a comma)
static TlNode *exprlist(Parser *p) {
  TlNode *first = expr(p);
  if (!at(p, TK_COMMA))
    return first;
  TlNode *t = new_node(p, ND_TUPLE, first->loc);
  tl_vec_push(p->arena, &t->list, first);
  while (accept(p, TK_COMMA) && !p->failed) {
    if (at(p, TK_RPAREN) || at(p, TK_NEWLINE) || at(p, TK_ASSIGN) || at(p, TK_COLON) ||
        at(p, TK_RBRACKET))
      break;
    tl_vec_push(p->arena, &t->list, expr(p));
  }
  return t;
}

// params = param ("," param)* ","?
// param  = NAME (":" expr)? ("=" expr)?      (no annotation in a lambda)
static void params(Parser *p, TlVec *out, TlTokenKind closer) {
  while (!at(p, closer) && !p->failed) {
    // *args (ival 1), **kwargs (ival 2), a bare * before keyword-only
    // parameters (ival 3, name "*"); a / (positional-only) is skipped.
    if (at(p, TK_SLASH)) { // the parameters before it are positional-only
      advance(p);
      for (int i = 0; i < out->len; i++)
        TL_VEC_AT(*out, TlNode, i)->op = TK_SLASH;
      if (!accept(p, TK_COMMA))
        break;
      continue;
    }
    if (at(p, TK_STAR) || at(p, TK_STARSTAR)) {
      TlToken *star = advance(p);
      TlNode *prm = new_node(p, ND_PARAM, star->loc);
      prm->ival = star->kind == TK_STAR ? 1 : 2;
      if (at(p, TK_NAME)) {
        prm->name = advance(p)->text;
        if (closer == TK_RPAREN && accept(p, TK_COLON))
          prm->a = expr(p);
      } else if (star->kind == TK_STAR) {
        prm->name = "*";
        prm->ival = 3;
      } else {
        error_at_tok(p, p->tok, "expected a parameter name after '**'%s, found %s", "");
        return;
      }
      tl_vec_push(p->arena, out, prm);
      if (!accept(p, TK_COMMA))
        break;
      continue;
    }
    if (!at(p, TK_NAME)) {
      error_at_tok(p, p->tok, "expected a parameter name%s, found %s", "");
      return;
    }
    TlToken *name = advance(p);
    TlNode *prm = new_node(p, ND_PARAM, name->loc);
    prm->name = name->text;
    if (closer == TK_RPAREN && accept(p, TK_COLON))
      prm->a = expr(p);
    if (accept(p, TK_ASSIGN))
      prm->b = expr(p);
    for (int i = 0; i < out->len; i++)
      if (strcmp(TL_VEC_AT(*out, TlNode, i)->name, prm->name) == 0 && !p->failed) {
        p->failed = true;
        tl_error(p->diag, prm->loc, "duplicate parameter '%s'", prm->name);
      }
    tl_vec_push(p->arena, out, prm);
    if (!accept(p, TK_COMMA))
      break;
  }
}

// dotted = NAME ("." NAME)*
static const char *dotted(Parser *p) {
  TlBuf b;
  tl_buf_init(&b, p->arena);
  if (!at(p, TK_NAME)) {
    error_at_tok(p, p->tok, "expected a module name%s, found %s", "");
    return "";
  }
  tl_buf_puts(&b, advance(p)->text);
  while (accept(p, TK_DOT)) {
    if (!at(p, TK_NAME)) {
      error_at_tok(p, p->tok, "expected a name after '.'%s, found %s", "");
      break;
    }
    tl_buf_putc(&b, '.');
    tl_buf_puts(&b, advance(p)->text);
  }
  return b.data;
}

// import_stmt = "import" dotted ("as" NAME)?
//             | "from" dotted "import" NAME ("as" NAME)? ("," NAME ("as" NAME)?)*
static void import_stmt(Parser *p, TlVec *out) {
  TlToken *kw = advance(p);
  if (kw->kind == TK_IMPORT) {
    TlNode *n = new_node(p, ND_IMPORT, kw->loc);
    n->name = dotted(p);
    if (accept(p, TK_AS) && expect(p, TK_NAME, "after 'as'"))
      n->str = p->tok[-1].text;
    tl_vec_push(p->arena, out, n);
    return;
  }
  const char *module = dotted(p);
  if (!expect(p, TK_IMPORT, "after the module name"))
    return;
  bool paren = accept(p, TK_LPAREN);
  do {
    if (!at(p, TK_NAME) && !at(p, TK_STAR)) {
      error_at_tok(p, p->tok, "expected a name to import%s, found %s", "");
      return;
    }
    TlNode *n = new_node(p, ND_IMPORT, p->tok->loc);
    n->name = tl_arena_printf(p->arena, "%s.%s", module, advance(p)->text);
    n->ival = 1; // from-import: binds the last name
    if (accept(p, TK_AS) && expect(p, TK_NAME, "after 'as'"))
      n->str = p->tok[-1].text;
    tl_vec_push(p->arena, out, n);
  } while (accept(p, TK_COMMA) && !at(p, TK_RPAREN));
  if (paren)
    expect(p, TK_RPAREN, "to close the import list");
}

// simple_stmt = "pass" | "return" exprlist? | import_stmt
//             | exprlist ("=" exprlist)* | exprlist augop expr
static void simple_stmt(Parser *p, TlVec *out) {
  TlToken *t = p->tok;
  if (accept(p, TK_PASS)) {
    tl_vec_push(p->arena, out, new_node(p, ND_PASS, t->loc));
    return;
  }
  if (accept(p, TK_RETURN)) {
    TlNode *n = new_node(p, ND_RETURN, t->loc);
    if (!at(p, TK_NEWLINE) && !at(p, TK_SEMI))
      n->a = exprlist(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (at(p, TK_IMPORT) || at(p, TK_FROM)) {
    import_stmt(p, out);
    return;
  }
  if (accept(p, TK_ASSERT)) {
    TlNode *n = new_node(p, ND_ASSERT, t->loc);
    n->a = expr(p);
    if (accept(p, TK_COMMA))
      n->b = expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (accept(p, TK_RAISE)) {
    TlNode *n = new_node(p, ND_RAISE, t->loc);
    if (!at(p, TK_NEWLINE) && !at(p, TK_SEMI))
      n->a = expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  TlNode *first = exprlist(p);
  TlTokenKind k = p->tok->kind;
  // An annotated assignment `x: int = 5` (the annotation is not checked);
  // a bare `x: ann` assigns nothing, but keeps the annotation: in an eager
  // @tilelang.jit function `A: T.Tensor((M, K), dtype)` gives a tensor
  // parameter its shape.
  if (k == TK_COLON && first->kind == ND_NAME) {
    advance(p);
    TlNode *annotation = expr(p);
    if (!at(p, TK_ASSIGN)) {
      TlNode *n = new_node(p, ND_PASS, first->loc);
      n->a = first;
      n->b = annotation;
      tl_vec_push(p->arena, out, n);
      return;
    }
    TlToken *eq = advance(p);
    TlNode *n = new_node(p, ND_ASSIGN, eq->loc);
    tl_vec_push(p->arena, &n->list, first);
    n->a = exprlist(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (k == TK_ASSIGN) {
    TlNode *n = new_node(p, ND_ASSIGN, p->tok->loc);
    TlNode *value = first;
    while (accept(p, TK_ASSIGN) && !p->failed) {
      tl_vec_push(p->arena, &n->list, value);
      value = exprlist(p);
    }
    n->a = value;
    tl_vec_push(p->arena, out, n);
    return;
  }
  static const TlTokenKind augops[][2] = {
      {TK_PLUS_EQ, TK_PLUS},       {TK_MINUS_EQ, TK_MINUS},   {TK_STAR_EQ, TK_STAR},
      {TK_SLASH_EQ, TK_SLASH},     {TK_PERCENT_EQ, TK_PERCENT}, {TK_SLASHSLASH_EQ, TK_SLASHSLASH},
      {TK_STARSTAR_EQ, TK_STARSTAR}, {TK_LSHIFT_EQ, TK_LSHIFT}, {TK_RSHIFT_EQ, TK_RSHIFT},
      {TK_AMP_EQ, TK_AMP},         {TK_PIPE_EQ, TK_PIPE},     {TK_CARET_EQ, TK_CARET},
      {TK_AT_EQ, TK_AT}};
  TlTokenKind aug = TK_EOF;
  for (size_t i = 0; i < sizeof augops / sizeof augops[0]; i++)
    if (augops[i][0] == k)
      aug = augops[i][1];
  if (aug != TK_EOF) {
    TlToken *op = advance(p);
    TlNode *n = new_node(p, ND_AUGASSIGN, op->loc);
    n->op = aug;
    n->a = first;
    n->b = expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  TlNode *n = new_node(p, ND_EXPR_STMT, leftmost(first));
  n->a = first;
  tl_vec_push(p->arena, out, n);
}

// simple_stmts = simple_stmt (";" simple_stmt)* ";"? NEWLINE
static void simple_stmts(Parser *p, TlVec *out) {
  simple_stmt(p, out);
  while (accept(p, TK_SEMI) && !at(p, TK_NEWLINE) && !p->failed)
    simple_stmt(p, out);
  if (!p->failed && !at(p, TK_NEWLINE)) {
    error_at_tok(p, p->tok, "expected end of line after the statement%s, found %s", "");
    return;
  }
  if (!p->failed) // after an error, synchronize() finds the end of the statement
    accept(p, TK_NEWLINE);
}

// def_stmt = "def" NAME "(" params? ")" ("->" expr)? ":" block
static TlNode *def_stmt(Parser *p, TlVec *decorators) {
  TlToken *kw = advance(p);
  TlNode *n = new_node(p, ND_DEF, kw->loc);
  if (decorators)
    n->list2 = *decorators;
  if (!at(p, TK_NAME)) {
    error_at_tok(p, p->tok, "expected a function name after 'def'%s, found %s", "");
    return n;
  }
  TlToken *name = advance(p);
  n->name = name->text;
  n->loc = name->loc;
  if (!expect(p, TK_LPAREN, "after the function name"))
    return n;
  params(p, &n->params, TK_RPAREN);
  if (!expect(p, TK_RPAREN, "to close the parameter list"))
    return n;
  if (accept(p, TK_ARROW))
    n->a = expr(p);
  if (!expect(p, TK_COLON, "after the function signature"))
    return n;
  block(p, &n->list);
  return n;
}

// if_stmt = "if" expr ":" block ("elif" expr ":" block)* ("else" ":" block)?
// An elif is an if alone in the else branch of the one before; the chain
// is built in a loop, so its length costs no stack.
static TlNode *if_stmt(Parser *p) {
  TlToken *kw = advance(p);
  TlNode *first = new_node(p, ND_IF, kw->loc);
  for (TlNode *n = first;;) {
    n->a = expr(p);
    if (!expect(p, TK_COLON, "after the condition")) return first;
    block(p, &n->list);
    if (at(p, TK_ELIF)) {
      TlNode *elif = new_node(p, ND_IF, advance(p)->loc);
      tl_vec_push(p->arena, &n->list2, elif);
      n = elif;
      continue;
    }
    if (at(p, TK_ELSE)) {
      advance(p);
      if (expect(p, TK_COLON, "after 'else'")) block(p, &n->list2);
    }
    return first;
  }
}

// for_stmt = "for" target ("," target)* ","? "in" expr ":" block
static TlNode *for_stmt(Parser *p) {
  TlToken *kw = advance(p);
  TlNode *n = new_node(p, ND_FOR, kw->loc);
  bool paren = accept(p, TK_LPAREN);
  do {
    if (at(p, TK_IN) || (paren && at(p, TK_RPAREN)))
      break;
    tl_vec_push(p->arena, &n->list2, postfix(p));
  } while (accept(p, TK_COMMA) && !p->failed);
  if (paren)
    expect(p, TK_RPAREN, "to close the loop variables");
  if (n->list2.len == 0)
    error_at_tok(p, p->tok, "expected a loop variable%s, found %s", "");
  if (!expect(p, TK_IN, "after the loop variables"))
    return n;
  n->a = expr(p);
  if (!expect(p, TK_COLON, "after the loop header"))
    return n;
  block(p, &n->list);
  if (at(p, TK_ELSE)) { // for-else: runs when the loop ends without break
    advance(p);
    if (expect(p, TK_COLON, "after 'else'"))
      block(p, &n->params);
  }
  return n;
}

// while_stmt = "while" expr ":" block ("else" ":" block)?
static TlNode *while_stmt(Parser *p) {
  TlToken *kw = advance(p);
  TlNode *n = new_node(p, ND_WHILE, kw->loc);
  n->a = expr(p);
  if (!expect(p, TK_COLON, "after the condition"))
    return n;
  block(p, &n->list);
  if (at(p, TK_ELSE)) {
    advance(p);
    if (expect(p, TK_COLON, "after 'else'"))
      block(p, &n->list2);
  }
  return n;
}

// with_stmt = "with" expr ("as" (postfix | "(" postfix ("," postfix)* ")"))? ":" block
static TlNode *with_stmt(Parser *p) {
  TlToken *kw = advance(p);
  TlNode *n = new_node(p, ND_WITH, kw->loc);
  n->a = expr(p);
  if (accept(p, TK_AS)) {
    TlLoc loc = p->tok->loc;
    if (accept(p, TK_LPAREN)) {
      TlNode *t = new_node(p, ND_TUPLE, loc);
      do {
        if (at(p, TK_RPAREN))
          break;
        tl_vec_push(p->arena, &t->list, postfix(p));
      } while (accept(p, TK_COMMA) && !p->failed);
      expect(p, TK_RPAREN, "to close the names");
      n->b = t;
    } else {
      TlNode *first = postfix(p);
      if (at(p, TK_COMMA)) {
        TlNode *t = new_node(p, ND_TUPLE, loc);
        tl_vec_push(p->arena, &t->list, first);
        while (accept(p, TK_COMMA) && !at(p, TK_COLON) && !p->failed)
          tl_vec_push(p->arena, &t->list, postfix(p));
        n->b = t;
      } else {
        n->b = first;
      }
    }
  }
  if (!expect(p, TK_COLON, "after the with item"))
    return n;
  block(p, &n->list);
  return n;
}

// Skips the rest of a failed statement and, if it opened a block, the block.
static void synchronize(Parser *p) {
  int depth = 0;
  while (!at(p, TK_EOF)) {
    if (at(p, TK_INDENT))
      depth++;
    else if (at(p, TK_DEDENT)) {
      if (depth == 0)
        return;
      depth--;
      if (depth == 0) {
        advance(p);
        return;
      }
    } else if (at(p, TK_NEWLINE) && depth == 0) {
      advance(p);
      if (at(p, TK_INDENT))
        continue;
      return;
    }
    advance(p);
  }
}

// stmt = decorated | def_stmt | if_stmt | for_stmt | while_stmt | with_stmt | simple_stmts
// decorated = ("@" expr NEWLINE)+ def_stmt
static TlNode *stmt_list(Parser *p, TlVec *out) {
  p->failed = false;
  p->nodes = 0;
  TlToken *t = p->tok;
  if (!enter(p)) {
    p->depth--;
    synchronize(p);
    return NULL;
  }
  switch (t->kind) {
  case TK_AT: {
    TlVec decorators = {0};
    while (accept(p, TK_AT) && !p->failed) {
      tl_vec_push(p->arena, &decorators, expr(p));
      expect(p, TK_NEWLINE, "after the decorator");
    }
    if (!p->failed && !at(p, TK_DEF))
      error_at_tok(p, p->tok, "expected 'def' after a decorator%s, found %s", "");
    if (!p->failed)
      tl_vec_push(p->arena, out, def_stmt(p, &decorators));
    break;
  }
  case TK_DEF:
    tl_vec_push(p->arena, out, def_stmt(p, NULL));
    break;
  case TK_IF:
    tl_vec_push(p->arena, out, if_stmt(p));
    break;
  case TK_FOR:
    tl_vec_push(p->arena, out, for_stmt(p));
    break;
  case TK_WITH:
    tl_vec_push(p->arena, out, with_stmt(p));
    break;
  case TK_WHILE:
    tl_vec_push(p->arena, out, while_stmt(p));
    break;
  case TK_INDENT:
    error_at_tok(p, t, "unexpected indentation%s (found %s)", "");
    break;
  case TK_ELSE:
  case TK_ELIF:
    if (!p->failed) {
      p->failed = true;
      tl_error(p->diag, t->loc, "'%s' without a matching 'if'", tl_token_kind_name(t->kind));
    }
    break;
  default:
    simple_stmts(p, out);
    break;
  }
  p->depth--;
  if (p->failed)
    synchronize(p);
  return NULL;
}

// block = NEWLINE INDENT stmt+ DEDENT | simple_stmts
static void block(Parser *p, TlVec *body) {
  if (!at(p, TK_NEWLINE)) {
    simple_stmts(p, body);
    return;
  }
  advance(p);
  if (!at(p, TK_INDENT)) {
    error_at_tok(p, p->tok, "expected an indented block%s, found %s", "");
    return;
  }
  advance(p);
  while (!at(p, TK_DEDENT) && !at(p, TK_EOF) && !tl_diag_too_many(p->diag))
    stmt_list(p, body);
  accept(p, TK_DEDENT);
  p->failed = false;
}

// True when the statement at t is decorated with @T.prim_func (or any
// decorator naming prim_func): a kernel, whose errors are never deferred.
static bool decorated_kernel(const TlToken *t) {
  while (t->kind == TK_AT) {
    for (; t->kind != TK_NEWLINE && t->kind != TK_EOF; t++)
      if (t->kind == TK_NAME && strcmp(t->text, "prim_func") == 0)
        return true;
    t++;
  }
  return false;
}

// The name a skipped top-level statement defines: `def NAME`, `class NAME`
// (after decorators) or the first target of `NAME = ...`; NULL otherwise.
static bool python_keyword(const char *s) {
  static const char *const kws[] = {"class", "try", "except", "finally", "async",
                                    "await", "del", "global", "nonlocal", "yield", "break",
                                    "continue", "match", "case", "type", NULL};
  for (int i = 0; kws[i]; i++)
    if (strcmp(s, kws[i]) == 0)
      return true;
  return false;
}

static const char *defined_name(const TlToken *t) {
  while (t->kind == TK_AT) {
    while (t->kind != TK_NEWLINE && t->kind != TK_EOF)
      t++;
    if (t->kind == TK_NEWLINE)
      t++;
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
  if (t->kind != TK_NAME || python_keyword(t->text))
    return;
  TlNode *name = new_node(p, ND_NAME, t->loc);
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
      if (t + 1 < end)
        add_name(p, n, t + 1);
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
      if (t < end)
        t++;
      continue;
    }
    if (depth == 0 && t->kind == TK_NAME && t + 1 < end &&
        (stmt_start || (prev && (prev->kind == TK_ASSIGN || prev->kind == TK_COMMA))) &&
        (is_assign_op(t[1].kind) || (t[1].kind == TK_COMMA && stmt_start) ||
         (t[1].kind == TK_COLON && stmt_start)))
      add_name(p, n, t);
    if (depth == 0 && (t->kind == TK_AS || t->kind == TK_FOR) && t + 1 < end)
      add_name(p, n, t + 1);
    prev = t;
    t++;
  }
}

// One top-level statement of a Python file: parsed with its diagnostics
// captured; if it fails, it becomes an ND_SKIPPED node (host code).
static void python_toplevel(Parser *p, TlVec *out) {
  TlToken *start = p->tok;
  if (decorated_kernel(start)) {
    stmt_list(p, out);
    return;
  }
  TlDiagCapture cap;
  tl_diag_capture_begin(p->diag, &cap);
  int before = out->len;
  stmt_list(p, out);
  int nerrors;
  const char *text = tl_diag_capture_end(p->diag, &cap, p->arena, &nerrors);
  if (nerrors == 0)
    return;
  out->len = before;
  TlNode *n = new_node(p, ND_SKIPPED, start->loc);
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
  TlNode *m = new_node(&p, ND_MODULE, loc);
  while (!at(&p, TK_EOF) && !tl_diag_too_many(d)) {
    if (accept(&p, TK_NEWLINE))
      continue;
    if (at(&p, TK_DEDENT)) { // stray dedent after an indentation error
      advance(&p);
      continue;
    }
    if (python)
      python_toplevel(&p, &m->list);
    else
      stmt_list(&p, &m->list);
  }
  return m;
}

TlNode *tl_parse_expression(TlArena *a, TlTokens toks, TlDiag *d) {
  Parser p = {.arena = a, .diag = d, .tok = toks.items, .end = toks.items + toks.len - 1};
  while (at(&p, TK_NEWLINE))
    advance(&p);
  TlNode *n = exprlist(&p);
  while (accept(&p, TK_NEWLINE) || accept(&p, TK_DEDENT))
    ;
  if (!p.failed && !at(&p, TK_EOF))
    error_at_tok(&p, p.tok, "unexpected %s%s after the expression", "");
  return p.failed ? NULL : n;
}
