// Sema's internal interface: compile-time values (module constants), the
// scopes of a kernel body, and the functions the sema files share.
#ifndef TLC_SEMA_INTERNAL_H
#define TLC_SEMA_INTERNAL_H

#include "tlc/Ast.h"
#include "tlc/IR.h"
#include "tlc/Sema.h"

typedef enum {
  VAL_INT,
  VAL_FLOAT,
  VAL_BOOL,
  VAL_STR,
  VAL_NONE,
  VAL_TUPLE,  // also lists
  VAL_DTYPE,  // T.float16, or a dtype string used as one
  VAL_FUNC,   // a module-level def (helper) or a lambda
  VAL_MODULE, // T / tilelang: only attribute access is meaningful
  VAL_KERNEL, // an @T.prim_func
  VAL_MACRO,  // a @T.macro: inlined into the kernel at each call
  VAL_OPAQUE, // .py host code tlc skipped or could not evaluate; an error if used
  VAL_DICT,   // keys in items, values in values (insertion order, as Python)
  VAL_ERROR,  // evaluation failed (already reported)
} TlValueKind;

struct TlSymScope;

typedef struct TlValue {
  TlValueKind kind;
  TlLoc loc;
  int64_t i;
  double f;
  const char *s;    // str value; function, kernel, macro or skipped name
  TlDtype dtype;
  TlVec items;                // TlValue*: tuple/list items, dict keys
  TlVec values;               // TlValue*: dict values
  TlNode *fn;                 // VAL_FUNC, VAL_KERNEL, VAL_MACRO: the def (or lambda)
  struct TlSymScope *env;     // functions: the scope they close over (NULL: module)
  TlVec defaults;             // VAL_FUNC/VAL_MACRO: per parameter, its default or NULL
  bool is_list;               // VAL_TUPLE made by [...] or list()
  const char *text;           // VAL_OPAQUE: the diagnostics that made it host code
  const TlNode *autotune;     // VAL_FUNC: the configs= of its @autotune, or NULL
  int nerrors;                // VAL_OPAQUE: how many errors text holds
  struct TlValueIndex *index; // VAL_DICT, sets: a hash index of items (Const.c), or NULL
} TlValue;

// A name binding: module constants and helpers at the module level, buffers,
// variables and constants inside a kernel.
typedef enum { SYM_VALUE, SYM_BUFFER, SYM_VAR } TlSymKind;

typedef struct TlSym {
  const char *name;
  TlSymKind kind;
  TlValue *value;
  TlBuffer *buf;
  TlVar *var;
  TlLoc loc;
  struct TlSym *next;
} TlSym;

typedef struct TlSymScope {
  TlSym *syms;
  struct TlSymScope *parent;
  // A hash index of syms once the scope holds many names (a module with
  // thousands of constants): lookups, failing ones included, stay O(1).
  TlSym **table; // open addressing, NULL slots empty; NULL while small
  int cap, count;
} TlSymScope;

typedef struct Sema {
  TlArena *arena;
  TlDiag *diag;
  TlModule *module;
  TlSymScope *globals;
  TlSymScope *scope;  // innermost kernel scope (NULL at module level)
  TlKernel *kernel;
  int helper_depth;      // inlining depth of helper calls
  const TlNode *helper_stack[32];
  int loop_depth;        // of T.Parallel / T.Pipelined, for nesting checks
  bool in_parallel;
  TlDtype index_dtype;   // int32, or int64 when a tensor exceeds 2^31 elements
  bool python;           // a .py source: host code is skipped, not an error
  const TlSemaOptions *opts;
  bool *define_used;       // per -D, whether the module assigned that name
  TlNode **define_nodes;   // per -D, its parsed value (NULL if it did not parse)
  int call_depth;          // compile-time function calls in progress
  int depth;               // recursion of the expression and statement walks (bounded)
  bool depth_reported;     // the bound on depth was reported in this walk
  int64_t steps;           // statements executed at compile time (bounded)
  int64_t step_limit;      // the bound for the current top-level statement or --call
  int64_t items;           // list/tuple items made at compile time (bounded)
  int64_t work;            // items compared or copied for the current statement (bounded)
  int64_t calls;           // compile-time calls for the current statement (bounded)
  const char *kernel_name; // name for the next kernel compiled (--call), or NULL
  TlLoc kernel_name_loc;   // where --call 'NAME=...' gave that name (src NULL otherwise)
  int sm_count;            // the target's SMs, for driver.get_num_sms() (PyLib.c)
  bool launch_pending;     // a macro called in a prim_func body: its `with T.Kernel`
                           // is the kernel's launch (Kernel.c)
} Sema;

/* Const.c */
TlValue *tl_sema_eval_const(Sema *s, const TlNode *n); // VAL_ERROR after reporting
TlValue *tl_value_new(Sema *s, TlValueKind k, TlLoc loc);
bool tl_value_truthy(const TlValue *v);
// True when n only uses literals and module-level constants (strings too),
// so it can be evaluated like Python would before staging the kernel.
bool tl_sema_is_constant_expr(Sema *s, const TlNode *n);
const char *tl_value_kind_name(TlValueKind k);
const char *tl_value_kind_article(TlValueKind k); // "a" or "an"
TlValue *tl_value_dict_get(const TlValue *dict, const TlValue *key); // NULL if absent
void tl_value_dict_set(Sema *s, TlValue *dict, TlValue *key, TlValue *value);
// Appends x to a set (a list of distinct items) unless an equal item is in
// it; true when it was added.
bool tl_value_set_add(Sema *s, TlValue *set, TlValue *x);
// What `for x in v` walks: a list/tuple itself, a dict's keys, a string's
// characters; NULL for anything else.
TlValue *tl_value_iterable(Sema *s, TlValue *v);
bool tl_value_as_dtype(Sema *s, const TlValue *v, TlDtype *out); // reports
// T.<name> attribute recognition: returns the attribute name when n is T.x
// (or tilelang.language.x), else NULL.
const char *tl_sema_t_attr(Sema *s, const TlNode *n);

/* Eval.c: the compile-time Python evaluator (statements, calls, --call) */
// Bounds the recursion of sema's and the evaluator's tree walks (deep
// expressions, long elif chains, calls inside them) so that no input can
// overflow the stack: false, after reporting at loc, past the bound. Every
// successful tl_sema_enter is paired with one tl_sema_leave.
bool tl_sema_enter(Sema *s, TlLoc loc);
void tl_sema_leave(Sema *s);
// Counts n more list items against the evaluator's memory budget; false
// (after reporting at loc) when it is spent.
bool tl_sema_spend_items(Sema *s, int64_t n, TlLoc loc);
// Counts n units of work (items compared, hashed or copied, bytes / 64)
// against the evaluator's work budget, which bounds time where statements
// do not (one `x in big_list` per loop step); false, reported once, when
// it is spent.
bool tl_sema_spend_work(Sema *s, int64_t n, TlLoc loc);
// Calls a function value with evaluated arguments; VAL_ERROR after reporting.
TlValue *tl_sema_apply(Sema *s, TlValue *fn, TlLoc loc, int nargs, TlValue **args, int nkw,
                       const char **kwnames, TlValue **kwvals);
// [x for ...], {k: v for ...}, (x for ...): a list (or dict) value.
TlValue *tl_sema_eval_comprehension(Sema *s, const TlNode *n);
// Python equality on compile-time values (numbers across int/float/bool).
bool tl_value_equal(const TlValue *a, const TlValue *b);
// Evaluates a call node whose callee is a user function/kernel value.
TlValue *tl_sema_call_user(Sema *s, const TlNode *call, TlValue *callee);
// False (after reporting) when def has *args, **kwargs or a bare *: kernels,
// macros and kernel helpers bind their parameters one to one.
bool tl_sema_plain_params(Sema *s, const TlNode *def, const char *what);
// Runs the module's top-level statements, then compiles the kernels asked for.
void tl_sema_run_module(Sema *s, const TlNode *module);
// Reports the use of host code tlc skipped, replaying why it was skipped.
void tl_sema_report_opaque(Sema *s, TlLoc use, const TlValue *v);
// Compiles a kernel value (Kernel.c) under `name`.
void tl_sema_compile_kernel(Sema *s, TlValue *kv);

/* Kernel.c */
// The `with T.Kernel(...)` of a macro that a prim_func calls as one of its
// blocks: the launch of s->kernel and its body. False after reporting.
bool tl_sema_macro_launch(Sema *s, const TlNode *with);

/* Macro.c */
// Inlines a @T.macro call statement into out; false after reporting.
bool tl_sema_inline_macro(Sema *s, const TlValue *m, const TlNode *call, TlVec *out);

/* Scope.c (also the call-argument helpers every sema file uses) */
// The value of keyword argument `name` of a call, or NULL.
const TlNode *tl_sema_kwarg(const TlNode *call, const char *name);
// Reports keyword arguments not in `allowed` (NULL-terminated); false if any.
bool tl_sema_check_keywords(Sema *s, const TlNode *call, const char *what,
                            const char *const *allowed);
void tl_scope_push(Sema *s);
void tl_scope_pop(Sema *s);
TlSym *tl_scope_lookup(Sema *s, const char *name);
TlSym *tl_scope_lookup_local(TlSymScope *sc, const char *name);
TlSym *tl_scope_define(Sema *s, TlSymScope *sc, const char *name, TlSymKind kind, TlLoc loc);

/* SemaExpr.c */
TlExpr *tl_sema_expr(Sema *s, const TlNode *n);
// An expression that must fold to an integer constant; `what` names it.
bool tl_sema_const_int(Sema *s, const TlNode *n, const char *what, int64_t *out);
TlExpr *tl_sema_convert(Sema *s, TlExpr *e, TlDtype t); // cast unless it already is t
TlExpr *tl_sema_fold(Sema *s, TlExpr *e);               // folds constant subtrees
// Inlines a helper/lambda with its parameters bound to args; returns its
// results (the tuple of a `return a, b`), or false after reporting.
bool tl_sema_inline_helper(Sema *s, const TlValue *fn, TlLoc call_loc, int nargs, TlExpr **args,
                           TlExpr **results, int max_results, int *nresults);

/* TileOps.c */
bool tl_sema_tile_op(Sema *s, const TlNode *call, const char *op, TlVec *out);
bool tl_sema_is_tile_op(const char *name);

/* Scalars.c: scalar builtins (T.clamp, T.Cast, T.float32(x), T.alloc_var, ...) */
// A T.<name>(...) value call handled here: *handled, and the expression or
// NULL after reporting; *handled false for every other name.
TlExpr *tl_sema_scalar_call(Sema *s, const TlNode *n, const char *name, bool *handled);
// x = T.alloc_var(dtype, init=v): defines the scalar x; false after reporting.
bool tl_sema_alloc_var(Sema *s, const TlNode *target, const TlNode *call, TlVec *out);
// A T.<name>(...) statement handled here (T.sync_threads, and the accepted
// and ignored T.func_attr, ...): true when it was one of them.
bool tl_sema_scalar_stmt(Sema *s, const TlNode *call, const char *name, TlVec *out);

/* PyLib.c: library functions and values of the Python around kernels */
// tilelang.cdiv, tilelang.math.next_power_of_2, driver.get_num_sms(),
// tilelang.compile(f, ...), DataType(x): the call's value, or NULL when the
// callee is none of these.
TlValue *tl_sema_library_call(Sema *s, const TlNode *n);
// torch dtypes (torch.float16) and dtype.bits / .itemsize, or NULL.
TlValue *tl_sema_library_attr(Sema *s, const TlNode *n);
// functools.cache / lru_cache, simplify_prim_func, any *jit wrapper.
bool tl_sema_transparent_decorator(const char *name);

/* Stmt.c */
void tl_sema_body(Sema *s, const TlVec *stmts, TlVec *out);
// The index nodes of an access to b that address its laid-out dimensions:
// all of them, or, for a fragment whose unit dimensions were dropped and an
// access written with every dimension, those of the kept dimensions (each
// dropped one checked to be 0 or a full slice). Their count; -1 after
// reporting.
int tl_sema_kept_indices(Sema *s, const TlBuffer *b, const TlVec *indices, const TlNode **kept);

#endif
