// What the files of the .tl / .py parser share (lib/Parse/Parse*.c): the
// parser's state and the rules and token helpers each file offers the
// others. Other folders use tlc/Ast.h.
#ifndef TLC_PARSE_INTERNAL_H
#define TLC_PARSE_INTERNAL_H

#include "tlc/Ast.h"

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

/* Parse.c: tokens and errors */
bool tl_parse_accept(Parser *p, TlTokenKind k);
TlToken *tl_parse_advance(Parser *p);
bool tl_parse_at(Parser *p, TlTokenKind k);
bool tl_parse_enter(Parser *p);
void tl_parse_error_at_tok(Parser *p, const TlToken *t, const char *fmt, const char *what);
bool tl_parse_expect(Parser *p, TlTokenKind k, const char *context);
TlNode *tl_parse_new_node(Parser *p, TlNodeKind kind, TlLoc loc);

/* ParseExpr.c: expressions */
TlNode *tl_parse_expr(Parser *p);
TlNode *tl_parse_exprlist(Parser *p);
TlLoc tl_parse_leftmost(const TlNode *n);
TlNode *tl_parse_postfix(Parser *p);

/* ParseStmt.c: statements */
void tl_parse_block(Parser *p, TlVec *body);
void tl_parse_params(Parser *p, TlVec *out, TlTokenKind closer);
TlNode *tl_parse_stmt_list(Parser *p, TlVec *out);

#endif
