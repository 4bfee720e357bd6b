// What the evaluator's expression files share (lib/Eval/): the values of
// Value.c, the operators of Operators.c, the builtins of Builtins.c and the
// expression walk of EvalExpr.c. Other folders use lib/Eval/Eval.h.
#ifndef TLC_EVAL_INTERNAL_H
#define TLC_EVAL_INTERNAL_H

#include "../Sema/SemaInternal.h"

enum { MAX_SEQUENCE = 1 << 20 }; // items a compile-time list or string may hold

// Statement budgets: a --call (or a .tl module statement) may run a
// factory's loops; a top-level statement of a .py file is host code or a
// constant, so a runaway host loop is cut short sooner.
enum {
  MAX_CALL_DEPTH = 64,
  MAX_STEPS = 1000000,
  MAX_HOST_STEPS = 100000,
  MAX_ITEMS = 1 << 21,
  MAX_CALLS = 50000
};

/* Value.c */
// A str value (shared: str values are never mutated).
const TlValue *tl_value_str(Sema *s, TlLoc loc, const char *str);
double tl_eval_as_double(const TlValue *v);
TlValue *tl_eval_bool_value(Sema *s, TlLoc loc, bool b);
// Python == under the work budget; false after reporting when it is spent.
bool tl_eval_checked_equal(Sema *s, TlLoc loc, const TlValue *a, const TlValue *b, bool *eq);
// A VAL_ERROR value (its error is already reported).
TlValue *tl_eval_error_value(Sema *s, TlLoc loc);
TlValue *tl_eval_float_value(Sema *s, TlLoc loc, double f);
// The position of key in a dict or set's items, or -1.
int tl_eval_index_find(const TlValue *c, const TlValue *key);
TlValue *tl_eval_int_value(Sema *s, TlLoc loc, int64_t i);
// a ** b for b >= 0; false on overflow.
bool tl_eval_ipow(int64_t a, int64_t b, int64_t *out);
bool tl_eval_is_number(const TlValue *v);
TlValue *tl_eval_tuple_value(Sema *s, TlLoc loc, bool is_list);

/* Operators.c */
// A binary arithmetic, bitwise or sequence operator node on evaluated operands.
TlValue *tl_eval_binop(Sema *s, const TlNode *n, TlValue *l, TlValue *r);
// A comparison node (==, <, in, is, ...) on evaluated operands.
TlValue *tl_eval_compare(Sema *s, const TlNode *n, TlValue *l, TlValue *r);

/* Builtins.c */
// A Python builtin or math function on evaluated arguments; NULL when
// fname is none of them.
TlValue *tl_eval_builtin(Sema *s, const TlNode *n, const char *fname, bool math, int nargs,
                         TlValue **args);
// Evaluates a call's positional arguments into out; VAL_ERROR after reporting, else NULL.
TlValue *tl_eval_args(Sema *s, const TlNode *n, TlVec *out);
// isinstance(x, int | (int, float) | ...) with builtin class names.
TlValue *tl_eval_isinstance(Sema *s, const TlNode *n);
// int("8") / float("-inf"); NULL when str is not such a literal.
TlValue *tl_eval_number_from_str(Sema *s, TlLoc loc, const char *str, bool is_float);

/* Methods.c */
// dict.items/keys/values/get, list.append/extend, int.bit_length, str methods.
TlValue *tl_eval_method(Sema *s, const TlNode *n, TlValue *self);
// itertools.product(...) as a list of tuples.
TlValue *tl_eval_product(Sema *s, const TlNode *n);
// T.dynamic("m"[, dtype]), T.symbolic("m"), T.dyn["m"]: a runtime size value.
TlValue *tl_eval_runtime_size(Sema *s, const TlNode *n, const char *form, const TlNode *name,
                              const TlNode *dtype);

/* EvalEager.c */
// The names of "M, N, K" (commas and/or spaces between them) into out;
// how many, or -1 past max.
int tl_eval_split_names(Sema *s, const char *text, const char **out, int max);
bool tl_eval_is_identifier(const char *name);

/* EvalExpr.c */
// A call node: user functions, library functions, builtins, T.* values.
TlValue *tl_eval_call(Sema *s, const TlNode *n);

/* Eval.c: statements */
// How a statement ends: the next statement runs, or control leaves the block.
typedef enum { FLOW_NEXT, FLOW_RETURN, FLOW_BREAK, FLOW_CONTINUE, FLOW_ERROR } Flow;
typedef enum { DEC_KERNEL, DEC_MACRO, DEC_TRANSPARENT, DEC_UNKNOWN } DecoratorKind;
// The scope names are bound in: the innermost kernel scope, else the module's.
TlSymScope *tl_eval_current(Sema *s);
// Binds an assignment target (a name, or a tuple/list to unpack) to v.
void tl_eval_bind(Sema *s, const TlNode *target, TlValue *v);
// Binds the names target defines to host code (VAL_OPAQUE) with its diagnostics.
void tl_eval_bind_opaque(Sema *s, const TlNode *target, const TlNode *st, const char *text,
                         int nerrors);
DecoratorKind tl_eval_decorator_kind(Sema *s, const TlNode *d);
void tl_eval_import(Sema *s, const TlNode *st);
// Executes one statement, or a block; *ret gets the value of a `return`.
Flow tl_eval_exec_stmt(Sema *s, const TlNode *st, TlValue **ret);
Flow tl_eval_exec_block(Sema *s, const TlVec *stmts, TlValue **ret);

/* Module.c: modules next to the compiled file */
// The names of module `name` (its top level evaluated once, as the main
// file's is), from the file at path; NULL after reporting at `at` (a
// cycle, too deep, unreadable, a lex or parse error).
TlSymScope *tl_eval_sibling_module(Sema *s, const char *path, const char *name, TlLoc at);

/* Module.c: -D overrides */
// True when every name target assigns is overridden by -D.
bool tl_eval_all_overridden(Sema *s, const TlNode *target);
// Rebinds the names of target that -D overrides to their -D values.
void tl_eval_override_unpacked(Sema *s, const TlNode *target, TlLoc at);

#endif
