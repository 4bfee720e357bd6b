// Internal to Ast.c and AstStmt.c: the lowering's state and the libclang
// helpers both halves use.
#ifndef TLC_VERIFY_AST_INTERNAL_H
#define TLC_VERIFY_AST_INTERNAL_H

#include "Verify.h"

// A token of the main file; operators are read from these.
typedef struct Tok {
  unsigned offset, end;
  CXTokenKind kind;
  const char *text;
} Tok;

typedef struct VarSlot {
  CXCursor cursor;
  TvVar *var;
  struct VarSlot *next;
} VarSlot;

#define NBUCKETS 1024
typedef struct AstState {
  TvProgram *p;
  CXFile main_file;
  Tok *toks;
  unsigned ntoks;
  VarSlot *buckets[NBUCKETS]; // cursor -> variable
} AstState;
extern AstState tv_ast;

// A cursor's children, in order.
typedef struct Kids {
  CXCursor *c;
  int n, cap;
} Kids;

bool tv_in_main(CXSourceLocation loc, unsigned *line, unsigned *col, unsigned *offset);
TvLoc tv_make_loc(CXSourceLocation sl);
bool tv_extent(CXCursor c, unsigned *begin, unsigned *end); // main-file offsets
unsigned tv_tok_from(unsigned offset); // index of the first token at or after offset
void tv_tokenize_main(void);
Kids tv_kids_of(CXCursor c);
const char *tv_spelling(CXCursor c);
const char *tv_type_spelling(CXType t);
TvExpr *tv_lower_expr(CXCursor c);
TvVar *tv_lower_var(CXCursor c, TvVarKind kind);
TvFunc *tv_func_ref(CXCursor decl); // AstStmt.c; NULL for functions not in the main file

#endif
