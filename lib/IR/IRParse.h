// What the files of the IR text parser share (lib/IR/Parse*.c): the
// tokens, the parser's state, and the helpers each file offers the others.
// The lexer and token helpers are in ParseTokens.c, expressions in
// ParseExpr.c, statements in ParseStmt.c, kernels and the entry point
// tl_ir_parse in Parse.c.
#ifndef TLC_IR_PARSE_H
#define TLC_IR_PARSE_H

#include "IRText.h"

#include <setjmp.h>

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
  bool stride; // a runtime stride of dimension dim (strides [...]), not its extent
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
  TlVec vars;         // TlVar*: the kernel's variable table
  TlVec scope;        // TlVar*: the variables visible here, innermost last
  TlVec runtime_dims; // RuntimeDim*: parameter dimensions named before the var table
  TlLoc line_loc;     // the location written at the end of the current line
  int depth;          // nesting of expressions and blocks, bounded (the C stack is not)
} Parser;

enum { MAX_DEPTH = 500 };

/* ParseTokens.c: the lexer and token helpers */
// Reports at t and ends the parse (longjmp to Parser.fail).
_Noreturn void tl_irp_error_at(Parser *p, const Tok *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool tl_irp_accept(Parser *p, const char *punct);
bool tl_irp_accept_word(Parser *p, const char *w);
TlBuffer *tl_irp_buffer(Parser *p);
int64_t tl_irp_count(Parser *p, const char *what);
const char *tl_irp_describe(const Tok *t);
TlDtype tl_irp_dtype(Parser *p);
void tl_irp_expect(Parser *p, const char *punct);
void tl_irp_expect_newline(Parser *p);
void tl_irp_expect_word(Parser *p, const char *w);
TlBuffer *tl_irp_find_buffer(Parser *p, const char *name);
const char *tl_irp_ident(Parser *p, const char *what);
int64_t tl_irp_integer(Parser *p, const char *what);
bool tl_irp_is_punct(const Tok *t, const char *s);
bool tl_irp_is_word(const Tok *t, const char *s);
const char *tl_irp_key_cname(Parser *p, const char *name);
void tl_irp_lex(Parser *p);
Tok *tl_irp_next(Parser *p);
TlOrigin tl_irp_origin(Parser *p);
TlLoc tl_irp_parse_loc(Parser *p);
Tok *tl_irp_peek(Parser *p);
Tok *tl_irp_peek_at(Parser *p, int ahead);
void tl_irp_push_scope(Parser *p, TlVar *v);
void tl_irp_scan_line_loc(Parser *p);
int tl_irp_small_int(Parser *p, const char *what);
TlVar *tl_irp_table_var(Parser *p, const char *name, const char *cname);
TlVar *tl_irp_var_key(Parser *p);
TlVar *tl_irp_var_ref(Parser *p);

/* ParseExpr.c: expressions */
TlExpr *tl_irp_binary(Parser *p, int min_prec);
TlExpr *tl_irp_expr(Parser *p);
TlExpr **tl_irp_index_list(Parser *p, int *n);

/* ParseStmt.c: statements */
void tl_irp_close_block(Parser *p);
void tl_irp_int_list(Parser *p, TlVec *out);
void tl_irp_parse_body(Parser *p, TlVec *body);
void tl_irp_ring(Parser *p, TlStmt *s);

/* Parse.c: kernels */
const TlFragLayout *tl_irp_layout(Parser *p);

#endif
