// The parser's expressions, one function per grammar rule with the rule as
// its comment: atoms, calls and subscripts, comprehensions, lambdas, the
// operators by Python's precedence, and expression lists.
#include "ParseInternal.h"

#include <string.h>

static TlNode *or_expr(Parser *p);
static TlNode *comprehension(Parser *p, TlToken *open, TlNode *elem, TlNode *value);

// args = arg ("," arg)* ","?
// arg  = NAME "=" expr | "*" expr | expr
static void call_args(Parser *p, TlNode *call) {
  while (!tl_parse_at(p, TK_RPAREN) && !p->failed) {
    if (tl_parse_at(p, TK_NAME) && p->tok[1].kind == TK_ASSIGN) {
      TlToken *name = tl_parse_advance(p);
      tl_parse_advance(p);
      TlNode *kw = tl_parse_new_node(p, ND_KEYWORD, name->loc);
      kw->name = name->text;
      // A repeated keyword is an error in Python; taking either value
      // silently (threads=128, threads=64) would hide the mistake.
      for (int i = 0; i < call->list2.len && !p->failed; i++)
        if (strcmp(TL_VEC_AT(call->list2, TlNode, i)->name, kw->name) == 0) {
          p->failed = true;
          tl_error(p->diag, name->loc, "keyword argument '%s' repeated", kw->name);
        }
      kw->a = tl_parse_expr(p);
      tl_vec_push(p->arena, &call->list2, kw);
    } else if (tl_parse_at(p, TK_STAR)) {
      TlToken *star = tl_parse_advance(p);
      TlNode *s = tl_parse_new_node(p, ND_STARRED, star->loc);
      s->a = tl_parse_expr(p);
      tl_vec_push(p->arena, &call->list, s);
    } else if (tl_parse_at(p, TK_STARSTAR)) { // **mapping: keywords from a dict
      TlToken *star = tl_parse_advance(p);
      TlNode *kw = tl_parse_new_node(p, ND_KEYWORD, star->loc);
      kw->op = TK_STARSTAR;
      kw->name = "**"; // never a parameter name: only the evaluator expands it
      kw->a = tl_parse_expr(p);
      tl_vec_push(p->arena, &call->list2, kw);
    } else {
      if (call->list2.len > 0) {
        tl_parse_error_at_tok(p, p->tok, "positional argument after keyword argument%s (found %s)",
                              "");
        return;
      }
      TlNode *arg = tl_parse_expr(p);
      if (tl_parse_at(p, TK_FOR)) // f(x for x in xs)
        arg = comprehension(p, p->tok, arg, NULL);
      tl_vec_push(p->arena, &call->list, arg);
    }
    if (!tl_parse_accept(p, TK_COMMA)) break;
  }
  tl_parse_expect(p, TK_RPAREN, "to close the call");
}

// subscript = expr? ":" expr? (":" expr?)? | expr
static TlNode *subscript(Parser *p) {
  TlNode *lo = NULL;
  TlLoc loc = p->tok->loc;
  if (!tl_parse_at(p, TK_COLON)) lo = tl_parse_expr(p);
  if (!tl_parse_at(p, TK_COLON)) return lo;
  TlNode *s = tl_parse_new_node(p, ND_SLICE, loc);
  tl_parse_advance(p);
  s->a = lo;
  if (!tl_parse_at(p, TK_COLON) && !tl_parse_at(p, TK_COMMA) && !tl_parse_at(p, TK_RBRACKET))
    s->b = tl_parse_expr(p);
  if (tl_parse_accept(p, TK_COLON) && !tl_parse_at(p, TK_COMMA) && !tl_parse_at(p, TK_RBRACKET))
    s->c = tl_parse_expr(p);
  return s;
}

// comp_clauses = ("for" target ("," target)* "in" or_expr ("if" or_expr)*)+
// Each clause is an ND_FOR (targets in list2, iterable in a) or an ND_IF.
static void comp_clauses(Parser *p, TlNode *comp) {
  while (tl_parse_at(p, TK_FOR) && !p->failed) {
    TlNode *f = tl_parse_new_node(p, ND_FOR, tl_parse_advance(p)->loc);
    do {
      if (tl_parse_at(p, TK_IN)) break;
      tl_vec_push(p->arena, &f->list2, tl_parse_postfix(p));
    } while (tl_parse_accept(p, TK_COMMA) && !p->failed);
    if (!tl_parse_expect(p, TK_IN, "in a comprehension")) return;
    f->a = or_expr(p);
    tl_vec_push(p->arena, &comp->list, f);
    while (tl_parse_at(p, TK_IF) && !p->failed) {
      TlNode *c = tl_parse_new_node(p, ND_IF, tl_parse_advance(p)->loc);
      c->a = or_expr(p);
      tl_vec_push(p->arena, &comp->list, c);
    }
  }
}

static TlNode *comprehension(Parser *p, TlToken *open, TlNode *elem, TlNode *value) {
  TlNode *c = tl_parse_new_node(p, ND_COMP, open->loc);
  c->op = open->kind;
  c->a = elem;
  c->b = value;
  comp_clauses(p, c);
  return c;
}

// brace = "{" "}" | "{" expr ":" expr ("," expr ":" expr)* ","? "}"
//       | "{" expr ":" expr comp_clauses "}" | "{" expr ("," expr)* "}" | "{" expr comp_clauses "}"
static TlNode *brace(Parser *p) {
  TlToken *t = tl_parse_advance(p);
  TlNode *n = tl_parse_new_node(p, ND_DICT, t->loc);
  if (tl_parse_accept(p, TK_RBRACE)) return n;
  TlNode *first = tl_parse_expr(p);
  if (tl_parse_accept(p, TK_COLON)) {
    TlNode *value = tl_parse_expr(p);
    if (tl_parse_at(p, TK_FOR)) {
      n = comprehension(p, t, first, value);
    } else {
      tl_vec_push(p->arena, &n->list, first);
      tl_vec_push(p->arena, &n->list2, value);
      while (tl_parse_accept(p, TK_COMMA) && !tl_parse_at(p, TK_RBRACE) && !p->failed) {
        tl_vec_push(p->arena, &n->list, tl_parse_expr(p));
        tl_parse_expect(p, TK_COLON, "between a key and its value");
        tl_vec_push(p->arena, &n->list2, tl_parse_expr(p));
      }
    }
  } else if (tl_parse_at(p, TK_FOR)) {
    n = comprehension(p, t, first, NULL);
  } else {
    n->kind = ND_SET;
    tl_vec_push(p->arena, &n->list, first);
    while (tl_parse_accept(p, TK_COMMA) && !tl_parse_at(p, TK_RBRACE) && !p->failed)
      tl_vec_push(p->arena, &n->list, tl_parse_expr(p));
  }
  tl_parse_expect(p, TK_RBRACE, "to close the braces");
  return n;
}

// atom = NAME | INT | FLOAT | STRING+ | "True" | "False" | "None"
//      | "(" exprlist? ")" | "[" (expr ("," expr)*)? "]"
static TlNode *atom(Parser *p) {
  TlToken *t = p->tok;
  if (t->deferred_error) {
    tl_parse_error_at_tok(p, t, "%s (found %s)", t->deferred_error);
    return tl_parse_new_node(p, ND_NONE, t->loc);
  }
  switch (t->kind) {
  case TK_NAME: {
    tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_NAME, t->loc);
    n->name = t->text;
    return n;
  }
  case TK_INT: {
    tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_INT, t->loc);
    n->ival = t->ival;
    return n;
  }
  case TK_FLOAT: {
    tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_FLOAT, t->loc);
    n->fval = t->fval;
    return n;
  }
  case TK_STRING: {
    TlNode *n = tl_parse_new_node(p, ND_STR, t->loc);
    TlBuf b;
    tl_buf_init(&b, p->arena);
    tl_buf_puts(&b, "");
    while (tl_parse_at(p, TK_STRING)) { // adjacent literals concatenate
      n->ival |= p->tok->ival;          // f-string
      tl_buf_puts(&b, tl_parse_advance(p)->text);
    }
    n->str = b.data;
    return n;
  }
  case TK_TRUE:
  case TK_FALSE: {
    tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_BOOL, t->loc);
    n->ival = t->kind == TK_TRUE;
    return n;
  }
  case TK_NONE:
    tl_parse_advance(p);
    return tl_parse_new_node(p, ND_NONE, t->loc);
  case TK_DOT: // `...`, Python's Ellipsis (Callable[..., Any], stub bodies): None to tlc
    if (p->tok + 2 < p->end && p->tok[1].kind == TK_DOT && p->tok[2].kind == TK_DOT &&
        p->tok[1].loc.line == t->loc.line && p->tok[1].loc.col == t->loc.col + 1 &&
        p->tok[2].loc.line == t->loc.line && p->tok[2].loc.col == t->loc.col + 2) {
      p->tok += 3;
      return tl_parse_new_node(p, ND_NONE, t->loc);
    }
    tl_parse_error_at_tok(p, t, "expected an expression%s, found %s", "");
    return tl_parse_new_node(p, ND_NONE, t->loc);
  case TK_LBRACE:
    return brace(p);
  case TK_LPAREN: {
    tl_parse_advance(p);
    if (tl_parse_accept(p, TK_RPAREN)) return tl_parse_new_node(p, ND_TUPLE, t->loc);
    TlNode *n = tl_parse_exprlist(p);
    if (n->kind != ND_TUPLE && tl_parse_at(p, TK_FOR)) {
      n = comprehension(p, t, n, NULL);
      tl_parse_expect(p, TK_RPAREN, "to close the generator");
      return n;
    }
    if (n->kind == ND_TUPLE) n->loc = t->loc; // a parenthesized tuple starts at its '('
    tl_parse_expect(p, TK_RPAREN, "to close the parenthesis");
    return n;
  }
  case TK_LBRACKET: {
    tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_LIST, t->loc);
    while (!tl_parse_at(p, TK_RBRACKET) && !p->failed) {
      tl_vec_push(p->arena, &n->list, tl_parse_expr(p));
      if (n->list.len == 1 && tl_parse_at(p, TK_FOR)) { // [x for x in xs]
        n = comprehension(p, t, TL_VEC_AT(n->list, TlNode, 0), NULL);
        break;
      }
      if (!tl_parse_accept(p, TK_COMMA)) break;
    }
    tl_parse_expect(p, TK_RBRACKET, "to close the list");
    return n;
  }
  default:
    tl_parse_error_at_tok(p, t, "expected an expression%s, found %s", "");
    return tl_parse_new_node(p, ND_NONE, t->loc);
  }
}

// postfix = atom ("(" args ")" | "[" subscript ("," subscript)* ","? "]" | "." NAME)*
TlNode *tl_parse_postfix(Parser *p) {
  TlNode *n = atom(p);
  for (;;) {
    if (p->failed) return n;
    TlToken *t = p->tok;
    if (tl_parse_accept(p, TK_LPAREN)) {
      TlNode *call = tl_parse_new_node(p, ND_CALL, n->loc);
      call->a = n;
      call_args(p, call);
      n = call;
    } else if (tl_parse_accept(p, TK_LBRACKET)) {
      TlNode *sub = tl_parse_new_node(p, ND_SUBSCRIPT, n->loc);
      sub->a = n;
      do {
        if (tl_parse_at(p, TK_RBRACKET)) break;
        tl_vec_push(p->arena, &sub->list, subscript(p));
      } while (tl_parse_accept(p, TK_COMMA) && !p->failed);
      if (sub->list.len == 0) tl_parse_error_at_tok(p, p->tok, "expected an index%s, found %s", "");
      tl_parse_expect(p, TK_RBRACKET, "to close the subscript");
      n = sub;
    } else if (tl_parse_accept(p, TK_DOT)) {
      TlNode *attr = tl_parse_new_node(p, ND_ATTR, n->loc);
      attr->a = n;
      if (!tl_parse_at(p, TK_NAME)) {
        tl_parse_error_at_tok(p, p->tok, "expected an attribute name after '.'%s, found %s", "");
        return n;
      }
      attr->name = tl_parse_advance(p)->text;
      attr->loc.len = (int)(p->tok[-1].loc.col + p->tok[-1].loc.len - attr->loc.col);
      if (p->tok[-1].loc.line != attr->loc.line || attr->loc.len < 1) attr->loc.len = 1;
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
  TlNode *n = tl_parse_postfix(p);
  if (tl_parse_at(p, TK_STARSTAR)) {
    TlToken *op = tl_parse_advance(p);
    TlNode *b = tl_parse_new_node(p, ND_BINOP, op->loc);
    b->op = TK_STARSTAR;
    b->a = n;
    b->b = factor(p);
    return b;
  }
  return n;
}

// factor = ("-" | "+" | "~") factor | power
static TlNode *factor(Parser *p) {
  if (!tl_parse_enter(p)) return tl_parse_new_node(p, ND_NONE, p->tok->loc);
  TlNode *n;
  if (tl_parse_at(p, TK_MINUS) || tl_parse_at(p, TK_PLUS) || tl_parse_at(p, TK_TILDE)) {
    TlToken *op = tl_parse_advance(p);
    n = tl_parse_new_node(p, ND_UNARY, op->loc);
    n->op = op->kind;
    n->a = factor(p);
  } else {
    n = power(p);
  }
  p->depth--;
  return n;
}

// The leftmost location of an expression (its first token).
TlLoc tl_parse_leftmost(const TlNode *n) {
  TlLoc l = n->loc;
  while (n) {
    const TlNode *next = NULL;
    if (n->kind == ND_BINOP || n->kind == ND_COMPARE || n->kind == ND_AND || n->kind == ND_OR ||
        n->kind == ND_CALL || n->kind == ND_SUBSCRIPT || n->kind == ND_ATTR)
      next = n->a;
    else if (n->kind == ND_IFEXP)
      next = n->b;
    if (!next) break;
    if (next->loc.line < l.line || (next->loc.line == l.line && next->loc.col < l.col))
      l = next->loc;
    n = next;
  }
  return l;
}

static TlNode *binop(Parser *p, TlToken *op, TlNode *lhs, TlNode *rhs) {
  TlNode *b = tl_parse_new_node(p, ND_BINOP, op->loc);
  b->op = op->kind;
  b->a = lhs;
  b->b = rhs;
  return b;
}

// term = factor (("*" | "/" | "//" | "%" | "@") factor)*
static TlNode *term(Parser *p) {
  TlNode *n = factor(p);
  while ((tl_parse_at(p, TK_STAR) || tl_parse_at(p, TK_SLASH) || tl_parse_at(p, TK_SLASHSLASH) ||
          tl_parse_at(p, TK_PERCENT) || tl_parse_at(p, TK_AT)) &&
         !p->failed) {
    TlToken *op = tl_parse_advance(p);
    n = binop(p, op, n, factor(p));
  }
  return n;
}

// sum = term (("+" | "-") term)*
static TlNode *sum(Parser *p) {
  TlNode *n = term(p);
  while ((tl_parse_at(p, TK_PLUS) || tl_parse_at(p, TK_MINUS)) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    n = binop(p, op, n, term(p));
  }
  return n;
}

// shift = sum (("<<" | ">>") sum)*
static TlNode *shift(Parser *p) {
  TlNode *n = sum(p);
  while ((tl_parse_at(p, TK_LSHIFT) || tl_parse_at(p, TK_RSHIFT)) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    n = binop(p, op, n, sum(p));
  }
  return n;
}

// bit_and = shift ("&" shift)*
static TlNode *bit_and(Parser *p) {
  TlNode *n = shift(p);
  while (tl_parse_at(p, TK_AMP) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    n = binop(p, op, n, shift(p));
  }
  return n;
}

// bit_xor = bit_and ("^" bit_and)*
static TlNode *bit_xor(Parser *p) {
  TlNode *n = bit_and(p);
  while (tl_parse_at(p, TK_CARET) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    n = binop(p, op, n, bit_and(p));
  }
  return n;
}

// bit_or = bit_xor ("|" bit_xor)*
static TlNode *bit_or(Parser *p) {
  TlNode *n = bit_xor(p);
  while (tl_parse_at(p, TK_PIPE) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
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
    TlToken *op = tl_parse_advance(p);
    bool negated = false;
    if (op->kind == TK_NOT) { // not in
      tl_parse_advance(p);
      negated = true;
    } else if (op->kind == TK_IS && tl_parse_accept(p, TK_NOT)) {
      negated = true;
    }
    TlNode *rhs = bit_or(p);
    TlNode *c = tl_parse_new_node(p, ND_COMPARE, op->loc);
    c->op = op->kind == TK_NOT ? TK_IN : op->kind;
    c->ival = negated;
    c->a = lhs;
    c->b = rhs;
    if (result) {
      TlNode *both = tl_parse_new_node(p, ND_AND, op->loc);
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
  if (tl_parse_at(p, TK_NOT)) {
    if (!tl_parse_enter(p)) return tl_parse_new_node(p, ND_NONE, p->tok->loc);
    TlToken *op = tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_UNARY, op->loc);
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
  while (tl_parse_at(p, TK_AND) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    TlNode *b = tl_parse_new_node(p, ND_AND, op->loc);
    b->a = n;
    b->b = not_expr(p);
    n = b;
  }
  return n;
}

// or_expr = and_expr ("or" and_expr)*
static TlNode *or_expr(Parser *p) {
  TlNode *n = and_expr(p);
  while (tl_parse_at(p, TK_OR) && !p->failed) {
    TlToken *op = tl_parse_advance(p);
    TlNode *b = tl_parse_new_node(p, ND_OR, op->loc);
    b->a = n;
    b->b = and_expr(p);
    n = b;
  }
  return n;
}

// expr = "lambda" params? ":" expr | or_expr ("if" or_expr "else" expr)?
TlNode *tl_parse_expr(Parser *p) {
  if (p->failed) return tl_parse_new_node(p, ND_NONE, p->tok->loc);
  if (!tl_parse_enter(p)) return tl_parse_new_node(p, ND_NONE, p->tok->loc);
  TlNode *n;
  if (tl_parse_at(p, TK_LAMBDA)) {
    TlToken *kw = tl_parse_advance(p);
    n = tl_parse_new_node(p, ND_LAMBDA, kw->loc);
    tl_parse_params(p, &n->params, TK_COLON);
    tl_parse_expect(p, TK_COLON, "after the lambda's parameters");
    n->a = tl_parse_expr(p);
  } else {
    n = or_expr(p);
    if (tl_parse_at(p, TK_IF)) {
      TlToken *kw = tl_parse_advance(p);
      TlNode *c = tl_parse_new_node(p, ND_IFEXP, kw->loc);
      c->b = n;
      c->a = or_expr(p);
      tl_parse_expect(p, TK_ELSE, "in conditional expression");
      c->c = tl_parse_expr(p);
      n = c;
    }
  }
  p->depth--;
  return n;
}

// exprlist = expr ("," expr)* ","?      (a tuple when there is a comma)
TlNode *tl_parse_exprlist(Parser *p) {
  TlNode *first = tl_parse_expr(p);
  if (!tl_parse_at(p, TK_COMMA)) return first;
  TlNode *t = tl_parse_new_node(p, ND_TUPLE, first->loc);
  tl_vec_push(p->arena, &t->list, first);
  while (tl_parse_accept(p, TK_COMMA) && !p->failed) {
    if (tl_parse_at(p, TK_RPAREN) || tl_parse_at(p, TK_NEWLINE) || tl_parse_at(p, TK_ASSIGN) ||
        tl_parse_at(p, TK_COLON) || tl_parse_at(p, TK_RBRACKET))
      break;
    tl_vec_push(p->arena, &t->list, tl_parse_expr(p));
  }
  return t;
}
