// What the IR printer (Print.c) and the IR parser (Parse.c) must agree on:
// the implied dtype of an expression (printed only when it differs), the
// names of enum values, and how a variable is named in the text. The format
// itself is described in docs/ir.md.
#ifndef TLC_IR_TEXT_H
#define TLC_IR_TEXT_H

#include "tlc/IR.h"

// The dtype the parser gives an expression written without `:dtype`:
// int32 for an integer literal, float32 for a float literal, the variable's
// or buffer's dtype, bool for comparisons and logic, else the first operand's.
TlDtype tl_irtext_implied_dtype(const TlExpr *e);

// "block", "thread", "loop", "scalar", "array", "size".
const char *tl_irtext_var_kind_name(TlVarKind k);
// "none", "gemm_c", "rows", "row_of".
const char *tl_irtext_layout_kind_name(TlLayoutKind k);
// "sum", "max", "min", "abssum", "absmax".
const char *tl_irtext_reduce_name(TlReduceKind k);

// The number N of a variable's emitted name `NAME_N`, or -1 when the emitted
// name has another form (then the text spells it out as NAME#"CNAME").
long long tl_irtext_var_number(const TlVar *v);

// Writes s as a string of the text: in double quotes, with '"' and '\\'
// escaped by a backslash, as the parser's lexer (ParseTokens.c) reads it.
void tl_irtext_put_string(TlBuf *out, const char *s);

// The variable a bare NAME means at a point of the text: the innermost one
// in scope (the loops, lets and decls around it, outermost first in scope),
// else a block or thread index of kernel k, visible everywhere. NULL if none.
TlVar *tl_irtext_resolve(const TlVec *scope, const TlKernel *k, const char *name);

#endif
