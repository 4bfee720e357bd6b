// The compile-time Python evaluator's interface (lib/Eval/): values, the
// scopes that bind names to them, and evaluation of module code, factories,
// closures, --call, -D and @T.macro. Sema (lib/Sema/) calls it for every
// constant, call and macro in a kernel. The evaluator works on sema's state
// (struct Sema, lib/Sema/SemaInternal.h) and hands kernels and macro bodies
// back to sema to lower through the TlLowering callbacks sema installs, so
// that it calls nothing above its layer (test/Docs/layers.test).
#ifndef TLC_EVAL_H
#define TLC_EVAL_H

#include "tlc/Ast.h"
#include "tlc/IR.h"

typedef struct Sema Sema;

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
  VAL_SIZE,   // a runtime size, T.dynamic("m"): s is its name, dtype int32 or int64; i > 1: the
              // size times the constant i (`m * 32`, tl_eval_size_scale)
  VAL_BARRIER, // T.alloc_barrier: the first of the kernel's mbarriers it made (i), count
  VAL_TUNER,  // AutoTuner.from_kernel(kernel=f, configs=c): items {f, c} (PyLib.c)
  VAL_HOST_TENSOR, // a torch tensor host code makes (torch.rand(m, k, dtype=...)): items =
                   // its shape (ints), dtype; only .shape, .dtype and arithmetic are known
  VAL_MMA_EMITTER, // TensorCoreIntrinEmitter(...): items = its 14 settings in
                   // __init__ order (PyLib.c); kernels call its methods (MmaEmitter.c)
  VAL_ERROR,  // evaluation failed (already reported)
} TlValueKind;

struct TlSymScope;
struct TlValue;

// What the evaluator hands back to sema to lower to IR. Sema sits above the
// evaluator and installs these in its state (Sema.lower) when it creates it
// (tl_sema, lib/Sema/Kernel.c); the evaluator calls them instead of naming
// sema's functions, so the dependency stays one way.
typedef struct TlLowering {
  // Compiles a kernel value (a @T.prim_func the module or --call made).
  void (*compile_kernel)(Sema *s, struct TlValue *kv);
  // Lowers a kernel-time expression met inside evaluated code (a macro
  // argument, -T.infinity(dtype) in a factory).
  TlExpr *(*expr)(Sema *s, const TlNode *n);
  // Lowers statements into out (a macro's body where it is inlined).
  void (*body)(Sema *s, const TlVec *stmts, TlVec *out);
  // e converted to dtype t (a cast unless it already is t).
  TlExpr *(*convert)(Sema *s, TlExpr *e, TlDtype t);
} TlLowering;

typedef struct TlValue {
  TlValueKind kind;
  TlLoc loc;
  int64_t i;
  double f;
  const char *s; // str value; function, kernel, macro or skipped name
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
  int64_t count;              // VAL_BARRIER: how many (0: one, not a list)
  struct TlValueIndex *index; // VAL_DICT, sets: a hash index of items (Value.c), or NULL
  struct TlValue *consts;     // VAL_KERNEL of an eager function bound by f.compile(...):
                              // the keywords that are not parameters (T.const values), a dict
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
  // A kernel scalar's value while it has been assigned once (x = expr and
  // never again so far); slice extents see through it (lib/Sema/TileOps.c).
  TlExpr *let_value;
  bool pinned;    // let_value fixed a slice extent: a later assignment is an error
  TlLoc pinned_at;
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

/* Value.c (values), EvalExpr.c (the expression evaluator) */
TlValue *tl_sema_eval_const(Sema *s, const TlNode *n); // VAL_ERROR after reporting
TlValue *tl_value_new(Sema *s, TlValueKind k, TlLoc loc);
bool tl_value_truthy(const TlValue *v);
// True when n only uses literals and module-level constants (strings too),
// so it can be evaluated like Python would before staging the kernel.
bool tl_sema_is_constant_expr(Sema *s, const TlNode *n);
const char *tl_value_kind_name(TlValueKind k);
const char *tl_value_kind_article(TlValueKind k);                    // "a" or "an"
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
// True when n is a name bound to a module whose last component is leaf
// (`tirx` of `from tvm import tirx`, `iket` of tilelang.tools.cuda).
bool tl_sema_names_module(Sema *s, const TlNode *n, const char *leaf);
// `X.name` where X names a module next to the compiled file (`import X`):
// X's value of name, or NULL (n is no such attribute, or X lacks the name).
TlValue *tl_sema_module_attr(Sema *s, const TlNode *n);
// Reports the use of an undeclared name, with the closest known name as a
// hint when one is near.
void tl_sema_unknown_name(Sema *s, TlLoc loc, const char *name);

/* PyLib.c: library functions and values of the Python around kernels */
// tilelang.cdiv, tilelang.math.next_power_of_2, driver.get_num_sms(),
// tilelang.compile(f, ...), DataType(x): the call's value, or NULL when the
// callee is none of these.
TlValue *tl_sema_library_call(Sema *s, const TlNode *n);
// A method of an AutoTuner.from_kernel(...) value: set_* return it, run()
// compiles the kernel function with the first config (and warns).
TlValue *tl_sema_tuner_method(Sema *s, const TlNode *n, TlValue *tuner);
// torch dtypes (torch.float16) and dtype.bits / .itemsize, or NULL.
TlValue *tl_sema_library_attr(Sema *s, const TlNode *n);
// functools.cache / lru_cache, simplify_prim_func, any *jit wrapper.
bool tl_sema_transparent_decorator(const char *name);

/* Eval.c (statements), Call.c (calls), Module.c (the module, -D, --call) */
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
// Evaluates a call's arguments: positional (with *xs) into args, keywords
// (with **d) into names and vals; false after reporting.
bool tl_sema_eval_call_args(Sema *s, const TlNode *call, TlVec *args, TlVec *names, TlVec *vals);
// Executes one statement at compile time in the current scope (an eager
// function's statements before its T.Kernel); false after reporting.
bool tl_sema_exec(Sema *s, const TlNode *st);
// False (after reporting) when def has *args, **kwargs or a bare *: kernels,
// macros and kernel helpers bind their parameters one to one.
bool tl_sema_plain_params(Sema *s, const TlNode *def, const char *what);
/* EvalEager.c: TileLang's eager @tilelang.jit functions (T.const, f.compile) */
// While lib/Sema/Eager.c compiles an eager function: the call's T.const
// bindings, which T.const reads (Sema.eager points at it).
struct TlEagerState {
  const TlValue *consts; // f.compile's keywords that are not parameters: name -> value
  bool *declared;        // per binding of consts, whether a T.const declared it
  TlLoc call_loc;        // the f.compile(...) call
  const char *fname;     // the eager function's name
};
// True when def is an eager function: its own body holds the T.Kernel.
bool tl_sema_is_eager(const TlNode *def);
// f.compile(...) and tilelang.compile(f_or_kernel, ...): a kernel value.
TlValue *tl_sema_compile_method(Sema *s, const TlNode *call, TlValue *target);
// T.const("M, N, K") inside an eager function being compiled.
TlValue *tl_sema_eager_const(Sema *s, const TlNode *call);
// True when ann is T.Tensor(...), T.Buffer(...), T.Tensor[...] or T.Buffer[...].
bool tl_sema_is_tensor_annotation(Sema *s, const TlNode *ann);
// `name: T.Tensor(...)`, a bare annotation statement of an eager body.
bool tl_sema_is_tensor_decl(Sema *s, const TlNode *st);
// The position of parameter `name` of def, or -1.
int tl_sema_param_index(const TlNode *def, const char *name);

/* AutotuneRecord.c */
// Records, for --emit=signature, every config of an @autotune factory the
// call left the names in `tuned` (a JSON array) to. Configs whose values
// JSON cannot hold (functions, infinities) are not recorded.
void tl_sema_record_autotune(Sema *s, const TlValue *fn, const TlValue *configs, const char *tuned);

// Runs the module's top-level statements, then compiles the kernels asked for.
void tl_sema_run_module(Sema *s, const TlNode *module);
// Reports the use of host code tlc skipped, replaying why it was skipped.
void tl_sema_report_opaque(Sema *s, TlLoc use, const TlValue *v);

/* Macro.c */
// Inlines a @T.macro call statement into out; false after reporting.
bool tl_sema_inline_macro(Sema *s, const TlValue *m, const TlNode *call, TlVec *out);

/* Scope.c: scopes (also the call-argument helpers every sema file uses) */
// The value of keyword argument `name` of a call, or NULL.
const TlNode *tl_sema_kwarg(const TlNode *call, const char *name);
// Argument i of call, positional, or else its keyword `name` (NULL: neither).
const TlNode *tl_sema_arg(const TlNode *call, int i, const char *name);
// Reports keyword arguments not in `allowed` (NULL-terminated); false if any.
bool tl_sema_check_keywords(Sema *s, const TlNode *call, const char *what,
                            const char *const *allowed);
void tl_scope_push(Sema *s);
void tl_scope_pop(Sema *s);
TlSym *tl_scope_lookup(Sema *s, const char *name);
TlSym *tl_scope_lookup_local(TlSymScope *sc, const char *name);
TlSym *tl_scope_define(Sema *s, TlSymScope *sc, const char *name, TlSymKind kind, TlLoc loc);

// A VAL_SIZE's constant factor (`m * 32`: 32), 1 for the size itself.
int64_t tl_eval_size_scale(const TlValue *v);

#endif
