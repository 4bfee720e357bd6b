// The AST (lib/Parse/): what the parser builds and sema reads. One fat node
// type for expressions and statements (chibicc style): each kind uses the
// fields its comment names and leaves the others zero.
#ifndef TLC_AST_H
#define TLC_AST_H

#include "tlc/Lex.h"

#define TL_NODES(X)                                                                                \
  /* expressions */                                                                                \
  X(ND_INT, "int")             /* ival */                                                          \
  X(ND_FLOAT, "float")         /* fval */                                                          \
  X(ND_STR, "str")             /* str */                                                           \
  X(ND_BOOL, "bool")           /* ival 0/1 */                                                      \
  X(ND_NONE, "none")           /* - */                                                             \
  X(ND_NAME, "name")           /* name */                                                          \
  X(ND_ATTR, "attr")           /* a.name */                                                        \
  X(ND_CALL, "call")           /* a(list..., list2 = keywords) */                                  \
  X(ND_KEYWORD, "keyword")     /* name = a */                                                      \
  X(ND_STARRED, "starred")     /* *a */                                                            \
  X(ND_SUBSCRIPT, "subscript") /* a[list...] */                                                    \
  X(ND_SLICE, "slice")         /* a:b:c, any may be NULL */                                        \
  X(ND_TUPLE, "tuple")         /* (list...) */                                                     \
  X(ND_LIST, "list")           /* [list...] */                                                     \
  X(ND_DICT, "dict")           /* {list[i]: list2[i]...} */                                        \
  X(ND_SET, "set")             /* {list...} */                                                     \
  X(ND_COMP, "comprehension")  /* [a for..], {a: b for..}, (a for..): op [ { (; list = clauses   */ \
  X(ND_BINOP, "binop")         /* a op b, op is a TlTokenKind */                                   \
  X(ND_UNARY, "unary")         /* op a (TK_MINUS, TK_PLUS, TK_NOT) */                              \
  X(ND_COMPARE, "compare")     /* a op b; ival 1 for 'not in' / 'is not' */                        \
  X(ND_AND, "and")             /* a and b */                                                       \
  X(ND_OR, "or")               /* a or b */                                                        \
  X(ND_IFEXP, "ifexp")         /* b if a else c */                                                 \
  X(ND_LAMBDA, "lambda")       /* lambda params: a */                                              \
  /* statements */                                                                                 \
  X(ND_IMPORT, "import")       /* name (module), str (alias or NULL) */                            \
  X(ND_ASSIGN, "assign")       /* list = targets (chained), a = value */                           \
  X(ND_AUGASSIGN, "augassign") /* a op= b */                                                       \
  X(ND_EXPR_STMT, "expr")      /* a */                                                             \
  X(ND_IF, "if")               /* if a: list else: list2 (elif nests an ND_IF in list2) */         \
  X(ND_FOR, "for")             /* for list2 (targets) in a: list else: params */                   \
  X(ND_WHILE, "while")         /* while a: list else: list2 */                                     \
  X(ND_WITH, "with")           /* with a as b: list */                                             \
  X(ND_DEF, "def")             /* def name(params) -> a: list, decorators in list2 */              \
  X(ND_PARAM, "param")         /* name: a = b */                                                   \
  X(ND_RETURN, "return")       /* return a */                                                      \
  X(ND_PASS, "pass")           /* -; a bare annotation `a: b` is a pass with a = name, b = it */   \
  X(ND_ASSERT, "assert")       /* assert a, b */                                                   \
  X(ND_RAISE, "raise")         /* raise a */                                                       \
  X(ND_SKIPPED, "skipped")     /* .py host code: name (defined, or NULL), str (its errors), ival */ \
  X(ND_MODULE, "module")       /* list = statements */

typedef enum {
#define X(k, s) k,
  TL_NODES(X)
#undef X
      ND_COUNT
} TlNodeKind;

typedef struct TlNode TlNode;
struct TlNode {
  TlNodeKind kind;
  TlLoc loc;
  TlTokenKind op;
  const char *name;
  const char *str;
  int64_t ival;
  double fval;
  TlNode *a, *b, *c;
  TlVec list, list2, params;
};

const char *tl_node_kind_name(TlNodeKind k);

/* lib/Parse/Parse.c */
// Parses a whole module. Errors go to d (several per run where recovery is
// easy); the returned module holds what parsed. In a Python source (.py), a
// top-level statement that does not parse becomes an ND_SKIPPED node holding
// its diagnostics, reported only if a kernel or --call needs the name it
// defines; a module-level @T.prim_func is never skipped.
TlNode *tl_parse(TlArena *a, TlTokens toks, TlDiag *d);
// Parses one expression that must fill the tokens (--call, -D values).
TlNode *tl_parse_expression(TlArena *a, TlTokens toks, TlDiag *d);

/* lib/Parse/AstPrint.c */
void tl_ast_print(TlBuf *out, const TlNode *n);

#endif
