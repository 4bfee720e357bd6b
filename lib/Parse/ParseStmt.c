// The parser's statements, one function per grammar rule with the rule as
// its comment: parameters, imports, simple statements (assignments,
// return, assert, ...), def, if, for, while, with, blocks, and the
// statement loop with its error recovery.
#include "ParseInternal.h"

#include <string.h>

// params = param ("," param)* ","?
// param  = NAME (":" expr)? ("=" expr)?      (no annotation in a lambda)
void tl_parse_params(Parser *p, TlVec *out, TlTokenKind closer) {
  while (!tl_parse_at(p, closer) && !p->failed) {
    // *args (ival 1), **kwargs (ival 2), a bare * before keyword-only
    // parameters (ival 3, name "*"); a / (positional-only) is skipped.
    if (tl_parse_at(p, TK_SLASH)) { // the parameters before it are positional-only
      tl_parse_advance(p);
      for (int i = 0; i < out->len; i++)
        TL_VEC_AT(*out, TlNode, i)->op = TK_SLASH;
      if (!tl_parse_accept(p, TK_COMMA)) break;
      continue;
    }
    if (tl_parse_at(p, TK_STAR) || tl_parse_at(p, TK_STARSTAR)) {
      TlToken *star = tl_parse_advance(p);
      TlNode *prm = tl_parse_new_node(p, ND_PARAM, star->loc);
      prm->ival = star->kind == TK_STAR ? 1 : 2;
      if (tl_parse_at(p, TK_NAME)) {
        prm->name = tl_parse_advance(p)->text;
        if (closer == TK_RPAREN && tl_parse_accept(p, TK_COLON)) prm->a = tl_parse_expr(p);
      } else if (star->kind == TK_STAR) {
        prm->name = "*";
        prm->ival = 3;
      } else {
        tl_parse_error_at_tok(p, p->tok, "expected a parameter name after '**'%s, found %s", "");
        return;
      }
      tl_vec_push(p->arena, out, prm);
      if (!tl_parse_accept(p, TK_COMMA)) break;
      continue;
    }
    if (!tl_parse_at(p, TK_NAME)) {
      tl_parse_error_at_tok(p, p->tok, "expected a parameter name%s, found %s", "");
      return;
    }
    TlToken *name = tl_parse_advance(p);
    TlNode *prm = tl_parse_new_node(p, ND_PARAM, name->loc);
    prm->name = name->text;
    if (closer == TK_RPAREN && tl_parse_accept(p, TK_COLON)) prm->a = tl_parse_expr(p);
    if (tl_parse_accept(p, TK_ASSIGN)) prm->b = tl_parse_expr(p);
    for (int i = 0; i < out->len; i++)
      if (strcmp(TL_VEC_AT(*out, TlNode, i)->name, prm->name) == 0 && !p->failed) {
        p->failed = true;
        tl_error(p->diag, prm->loc, "duplicate parameter '%s'", prm->name);
      }
    tl_vec_push(p->arena, out, prm);
    if (!tl_parse_accept(p, TK_COMMA)) break;
  }
}

// dotted = NAME ("." NAME)*
static const char *dotted(Parser *p) {
  TlBuf b;
  tl_buf_init(&b, p->arena);
  if (!tl_parse_at(p, TK_NAME)) {
    tl_parse_error_at_tok(p, p->tok, "expected a module name%s, found %s", "");
    return "";
  }
  tl_buf_puts(&b, tl_parse_advance(p)->text);
  while (tl_parse_accept(p, TK_DOT)) {
    if (!tl_parse_at(p, TK_NAME)) {
      tl_parse_error_at_tok(p, p->tok, "expected a name after '.'%s, found %s", "");
      break;
    }
    tl_buf_putc(&b, '.');
    tl_buf_puts(&b, tl_parse_advance(p)->text);
  }
  return b.data;
}

// import_stmt = "import" dotted ("as" NAME)?
//             | "from" "."* dotted "import" NAME ("as" NAME)? ("," NAME ("as" NAME)?)*
static void import_stmt(Parser *p, TlVec *out) {
  TlToken *kw = tl_parse_advance(p);
  if (kw->kind == TK_IMPORT) {
    TlNode *n = tl_parse_new_node(p, ND_IMPORT, kw->loc);
    n->name = dotted(p);
    if (tl_parse_accept(p, TK_AS) && tl_parse_expect(p, TK_NAME, "after 'as'"))
      n->str = p->tok[-1].text;
    tl_vec_push(p->arena, out, n);
    return;
  }
  // from .X import a: a module next to this file (one dot per level up)
  int dots = 0;
  while (tl_parse_accept(p, TK_DOT))
    dots++;
  const char *module = dotted(p);
  if (dots) module = tl_arena_printf(p->arena, "%.*s%s", dots, "........", module);
  if (!tl_parse_expect(p, TK_IMPORT, "after the module name")) return;
  bool paren = tl_parse_accept(p, TK_LPAREN);
  do {
    if (!tl_parse_at(p, TK_NAME) && !tl_parse_at(p, TK_STAR)) {
      tl_parse_error_at_tok(p, p->tok, "expected a name to import%s, found %s", "");
      return;
    }
    TlNode *n = tl_parse_new_node(p, ND_IMPORT, p->tok->loc);
    n->name = tl_arena_printf(p->arena, "%s.%s", module, tl_parse_advance(p)->text);
    n->ival = 1; // from-import: binds the last name
    if (tl_parse_accept(p, TK_AS) && tl_parse_expect(p, TK_NAME, "after 'as'"))
      n->str = p->tok[-1].text;
    tl_vec_push(p->arena, out, n);
  } while (tl_parse_accept(p, TK_COMMA) && !tl_parse_at(p, TK_RPAREN));
  if (paren) tl_parse_expect(p, TK_RPAREN, "to close the import list");
}

// simple_stmt = "pass" | "return" exprlist? | import_stmt
//             | exprlist ("=" exprlist)* | exprlist augop expr
static void simple_stmt(Parser *p, TlVec *out) {
  TlToken *t = p->tok;
  if (tl_parse_accept(p, TK_PASS)) {
    tl_vec_push(p->arena, out, tl_parse_new_node(p, ND_PASS, t->loc));
    return;
  }
  if (tl_parse_accept(p, TK_RETURN)) {
    TlNode *n = tl_parse_new_node(p, ND_RETURN, t->loc);
    if (!tl_parse_at(p, TK_NEWLINE) && !tl_parse_at(p, TK_SEMI)) n->a = tl_parse_exprlist(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (tl_parse_at(p, TK_IMPORT) || tl_parse_at(p, TK_FROM)) {
    import_stmt(p, out);
    return;
  }
  if (tl_parse_accept(p, TK_ASSERT)) {
    TlNode *n = tl_parse_new_node(p, ND_ASSERT, t->loc);
    n->a = tl_parse_expr(p);
    if (tl_parse_accept(p, TK_COMMA)) n->b = tl_parse_expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (tl_parse_accept(p, TK_RAISE)) {
    TlNode *n = tl_parse_new_node(p, ND_RAISE, t->loc);
    if (!tl_parse_at(p, TK_NEWLINE) && !tl_parse_at(p, TK_SEMI)) n->a = tl_parse_expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  TlNode *first = tl_parse_exprlist(p);
  TlTokenKind k = p->tok->kind;
  // An annotated assignment `x: int = 5` (the annotation is not checked);
  // a bare `x: ann` assigns nothing, but keeps the annotation: in an eager
  // @tilelang.jit function `A: T.Tensor((M, K), dtype)` gives a tensor
  // parameter its shape.
  if (k == TK_COLON && first->kind == ND_NAME) {
    tl_parse_advance(p);
    TlNode *annotation = tl_parse_expr(p);
    if (!tl_parse_at(p, TK_ASSIGN)) {
      TlNode *n = tl_parse_new_node(p, ND_PASS, first->loc);
      n->a = first;
      n->b = annotation;
      tl_vec_push(p->arena, out, n);
      return;
    }
    TlToken *eq = tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_ASSIGN, eq->loc);
    tl_vec_push(p->arena, &n->list, first);
    n->a = tl_parse_exprlist(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  if (k == TK_ASSIGN) {
    TlNode *n = tl_parse_new_node(p, ND_ASSIGN, p->tok->loc);
    TlNode *value = first;
    while (tl_parse_accept(p, TK_ASSIGN) && !p->failed) {
      tl_vec_push(p->arena, &n->list, value);
      value = tl_parse_exprlist(p);
    }
    n->a = value;
    tl_vec_push(p->arena, out, n);
    return;
  }
  static const TlTokenKind augops[][2] = {{TK_PLUS_EQ, TK_PLUS},
                                          {TK_MINUS_EQ, TK_MINUS},
                                          {TK_STAR_EQ, TK_STAR},
                                          {TK_SLASH_EQ, TK_SLASH},
                                          {TK_PERCENT_EQ, TK_PERCENT},
                                          {TK_SLASHSLASH_EQ, TK_SLASHSLASH},
                                          {TK_STARSTAR_EQ, TK_STARSTAR},
                                          {TK_LSHIFT_EQ, TK_LSHIFT},
                                          {TK_RSHIFT_EQ, TK_RSHIFT},
                                          {TK_AMP_EQ, TK_AMP},
                                          {TK_PIPE_EQ, TK_PIPE},
                                          {TK_CARET_EQ, TK_CARET},
                                          {TK_AT_EQ, TK_AT}};
  TlTokenKind aug = TK_EOF;
  for (size_t i = 0; i < sizeof augops / sizeof augops[0]; i++)
    if (augops[i][0] == k) aug = augops[i][1];
  if (aug != TK_EOF) {
    TlToken *op = tl_parse_advance(p);
    TlNode *n = tl_parse_new_node(p, ND_AUGASSIGN, op->loc);
    n->op = aug;
    n->a = first;
    n->b = tl_parse_expr(p);
    tl_vec_push(p->arena, out, n);
    return;
  }
  TlNode *n = tl_parse_new_node(p, ND_EXPR_STMT, tl_parse_leftmost(first));
  n->a = first;
  tl_vec_push(p->arena, out, n);
}

// simple_stmts = simple_stmt (";" simple_stmt)* ";"? NEWLINE
static void simple_stmts(Parser *p, TlVec *out) {
  simple_stmt(p, out);
  while (tl_parse_accept(p, TK_SEMI) && !tl_parse_at(p, TK_NEWLINE) && !p->failed)
    simple_stmt(p, out);
  if (!p->failed && !tl_parse_at(p, TK_NEWLINE)) {
    tl_parse_error_at_tok(p, p->tok, "expected end of line after the statement%s, found %s", "");
    return;
  }
  if (!p->failed) // after an error, synchronize() finds the end of the statement
    tl_parse_accept(p, TK_NEWLINE);
}

// def_stmt = "def" NAME "(" params? ")" ("->" expr)? ":" block
static TlNode *def_stmt(Parser *p, TlVec *decorators) {
  TlToken *kw = tl_parse_advance(p);
  TlNode *n = tl_parse_new_node(p, ND_DEF, kw->loc);
  if (decorators) n->list2 = *decorators;
  if (!tl_parse_at(p, TK_NAME)) {
    tl_parse_error_at_tok(p, p->tok, "expected a function name after 'def'%s, found %s", "");
    return n;
  }
  TlToken *name = tl_parse_advance(p);
  n->name = name->text;
  n->loc = name->loc;
  if (!tl_parse_expect(p, TK_LPAREN, "after the function name")) return n;
  tl_parse_params(p, &n->params, TK_RPAREN);
  if (!tl_parse_expect(p, TK_RPAREN, "to close the parameter list")) return n;
  if (tl_parse_accept(p, TK_ARROW)) n->a = tl_parse_expr(p);
  if (!tl_parse_expect(p, TK_COLON, "after the function signature")) return n;
  tl_parse_block(p, &n->list);
  return n;
}

// if_stmt = "if" expr ":" block ("elif" expr ":" block)* ("else" ":" block)?
// An elif is an if alone in the else branch of the one before; the chain
// is built in a loop, so its length costs no stack.
static TlNode *if_stmt(Parser *p) {
  TlToken *kw = tl_parse_advance(p);
  TlNode *first = tl_parse_new_node(p, ND_IF, kw->loc);
  for (TlNode *n = first;;) {
    n->a = tl_parse_expr(p);
    if (!tl_parse_expect(p, TK_COLON, "after the condition")) return first;
    tl_parse_block(p, &n->list);
    if (tl_parse_at(p, TK_ELIF)) {
      TlNode *elif = tl_parse_new_node(p, ND_IF, tl_parse_advance(p)->loc);
      tl_vec_push(p->arena, &n->list2, elif);
      n = elif;
      continue;
    }
    if (tl_parse_at(p, TK_ELSE)) {
      tl_parse_advance(p);
      if (tl_parse_expect(p, TK_COLON, "after 'else'")) tl_parse_block(p, &n->list2);
    }
    return first;
  }
}

// for_stmt = "for" target ("," target)* ","? "in" expr ":" block
static TlNode *for_stmt(Parser *p) {
  TlToken *kw = tl_parse_advance(p);
  TlNode *n = tl_parse_new_node(p, ND_FOR, kw->loc);
  bool paren = tl_parse_accept(p, TK_LPAREN);
  do {
    if (tl_parse_at(p, TK_IN) || (paren && tl_parse_at(p, TK_RPAREN))) break;
    tl_vec_push(p->arena, &n->list2, tl_parse_postfix(p));
  } while (tl_parse_accept(p, TK_COMMA) && !p->failed);
  if (paren) tl_parse_expect(p, TK_RPAREN, "to close the loop variables");
  if (n->list2.len == 0)
    tl_parse_error_at_tok(p, p->tok, "expected a loop variable%s, found %s", "");
  if (!tl_parse_expect(p, TK_IN, "after the loop variables")) return n;
  n->a = tl_parse_expr(p);
  if (!tl_parse_expect(p, TK_COLON, "after the loop header")) return n;
  tl_parse_block(p, &n->list);
  if (tl_parse_at(p, TK_ELSE)) { // for-else: runs when the loop ends without break
    tl_parse_advance(p);
    if (tl_parse_expect(p, TK_COLON, "after 'else'")) tl_parse_block(p, &n->params);
  }
  return n;
}

// while_stmt = "while" expr ":" block ("else" ":" block)?
static TlNode *while_stmt(Parser *p) {
  TlToken *kw = tl_parse_advance(p);
  TlNode *n = tl_parse_new_node(p, ND_WHILE, kw->loc);
  n->a = tl_parse_expr(p);
  if (!tl_parse_expect(p, TK_COLON, "after the condition")) return n;
  tl_parse_block(p, &n->list);
  if (tl_parse_at(p, TK_ELSE)) {
    tl_parse_advance(p);
    if (tl_parse_expect(p, TK_COLON, "after 'else'")) tl_parse_block(p, &n->list2);
  }
  return n;
}

// ", NAME" then "," or ":": one more name bound by `as`.
static bool name_follows(Parser *p) {
  return p->tok + 2 < p->end && p->tok[0].kind == TK_COMMA && p->tok[1].kind == TK_NAME &&
         (p->tok[2].kind == TK_COMMA || p->tok[2].kind == TK_COLON);
}

// with_stmt = "with" expr ("as" (postfix | "(" postfix ("," postfix)* ")"))? ("," expr)* ":" block
static TlNode *with_stmt(Parser *p) {
  TlToken *kw = tl_parse_advance(p);
  TlNode *n = tl_parse_new_node(p, ND_WITH, kw->loc);
  n->a = tl_parse_expr(p);
  if (tl_parse_accept(p, TK_AS)) {
    TlLoc loc = p->tok->loc;
    if (tl_parse_accept(p, TK_LPAREN)) {
      TlNode *t = tl_parse_new_node(p, ND_TUPLE, loc);
      do {
        if (tl_parse_at(p, TK_RPAREN)) break;
        tl_vec_push(p->arena, &t->list, tl_parse_postfix(p));
      } while (tl_parse_accept(p, TK_COMMA) && !p->failed);
      tl_parse_expect(p, TK_RPAREN, "to close the names");
      n->b = t;
    } else {
      // `as bx, by` (tlc's unparenthesized names) while a name follows each
      // comma; `as bx, other(...)` is Python's second with item (below).
      TlNode *first = tl_parse_postfix(p);
      if (name_follows(p)) {
        TlNode *t = tl_parse_new_node(p, ND_TUPLE, loc);
        tl_vec_push(p->arena, &t->list, first);
        while (name_follows(p) && !p->failed) {
          tl_parse_advance(p);
          tl_vec_push(p->arena, &t->list, tl_parse_postfix(p));
        }
        n->b = t;
      } else {
        n->b = first;
      }
    }
  }
  // `with A, B:` is `with A: with B:` (TVM script's `with T.If(c), T.Then():`).
  TlNode *inner = n;
  while (!p->failed && tl_parse_accept(p, TK_COMMA)) {
    TlNode *item = tl_parse_new_node(p, ND_WITH, p->tok->loc);
    item->a = tl_parse_expr(p);
    tl_vec_push(p->arena, &inner->list, item);
    inner = item;
  }
  if (!tl_parse_expect(p, TK_COLON, "after the with item")) return n;
  tl_parse_block(p, &inner->list);
  return n;
}

// Skips the rest of a failed statement and, if it opened a block, the block.
static void synchronize(Parser *p) {
  int depth = 0;
  while (!tl_parse_at(p, TK_EOF)) {
    if (tl_parse_at(p, TK_INDENT))
      depth++;
    else if (tl_parse_at(p, TK_DEDENT)) {
      if (depth == 0) return;
      depth--;
      if (depth == 0) {
        tl_parse_advance(p);
        return;
      }
    } else if (tl_parse_at(p, TK_NEWLINE) && depth == 0) {
      tl_parse_advance(p);
      if (tl_parse_at(p, TK_INDENT)) continue;
      return;
    }
    tl_parse_advance(p);
  }
}

// stmt = decorated | def_stmt | if_stmt | for_stmt | while_stmt | with_stmt | simple_stmts
// decorated = ("@" expr NEWLINE)+ def_stmt
TlNode *tl_parse_stmt_list(Parser *p, TlVec *out) {
  p->failed = false;
  p->nodes = 0;
  TlToken *t = p->tok;
  if (!tl_parse_enter(p)) {
    p->depth--;
    synchronize(p);
    return NULL;
  }
  switch (t->kind) {
  case TK_AT: {
    TlVec decorators = {0};
    while (tl_parse_accept(p, TK_AT) && !p->failed) {
      tl_vec_push(p->arena, &decorators, tl_parse_expr(p));
      tl_parse_expect(p, TK_NEWLINE, "after the decorator");
    }
    if (!p->failed && !tl_parse_at(p, TK_DEF))
      tl_parse_error_at_tok(p, p->tok, "expected 'def' after a decorator%s, found %s", "");
    if (!p->failed) tl_vec_push(p->arena, out, def_stmt(p, &decorators));
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
    tl_parse_error_at_tok(p, t, "unexpected indentation%s (found %s)", "");
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
  if (p->failed) synchronize(p);
  return NULL;
}

// block = NEWLINE INDENT stmt+ DEDENT | simple_stmts
void tl_parse_block(Parser *p, TlVec *body) {
  if (!tl_parse_at(p, TK_NEWLINE)) {
    simple_stmts(p, body);
    return;
  }
  tl_parse_advance(p);
  if (!tl_parse_at(p, TK_INDENT)) {
    tl_parse_error_at_tok(p, p->tok, "expected an indented block%s, found %s", "");
    return;
  }
  tl_parse_advance(p);
  while (!tl_parse_at(p, TK_DEDENT) && !tl_parse_at(p, TK_EOF) && !tl_diag_too_many(p->diag))
    tl_parse_stmt_list(p, body);
  tl_parse_accept(p, TK_DEDENT);
  p->failed = false;
}
