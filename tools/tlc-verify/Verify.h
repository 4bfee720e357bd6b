// tlc-verify: shared declarations. Ast.c lowers libclang's cursors into the
// small tree below once, so that the checks (Check*.c) read plain C structs
// instead of re-walking cursors and re-tokenizing operators each time.
#ifndef TLC_VERIFY_H
#define TLC_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <clang-c/Index.h>

/* ---- Support.c: allocation, strings, findings ---- */

void *tv_alloc(size_t n); // zeroed; exits on exhaustion; freed at exit
char *tv_strdup(const char *s);
char *tv_strndup(const char *s, size_t n);
char *tv_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void tv_free_all(void);

// A growable array of pointers.
typedef struct TvVec {
  void **items;
  int len, cap;
} TvVec;
void tv_push(TvVec *v, void *item);
#define TV_AT(v, T, i) ((T *)(v).items[i])

typedef struct TvLoc {
  const char *file; // NULL: no location
  unsigned line, col;
} TvLoc;

// One problem found; printed clang-style as FILE:LINE:COL: error: MSG.
void tv_error(TvLoc loc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int tv_error_count(void);
void tv_print_findings(void); // sorted by file order, line, column

/* ---- the lowered program ---- */

typedef struct TvExpr TvExpr;
typedef struct TvStmt TvStmt;
typedef struct TvFunc TvFunc;

typedef enum {
  VAR_LOCAL,  // a variable declared in a function body
  VAR_PARAM,  // a function parameter
  VAR_GLOBAL, // a file-scope variable
} TvVarKind;

typedef struct TvVar {
  const char *name;
  TvVarKind kind;
  TvLoc loc;
  CXCursor cursor;
  const char *type;  // spelling of its type
  const char *ctype; // spelling of its canonical type
  long long size;   // sizeof, -1 when unknown (incomplete types)
  bool is_integer, is_pointer, is_array;
  long long elem_size;   // arrays: element size; pointers: pointee size (-1 unknown)
  int rank;              // arrays: number of constant dimensions
  long long dims[4];     // arrays: their extents
  bool is_shared;        // __shared__
  bool is_dynamic_smem;  // extern __shared__ T x[] (tl_smem)
  TvExpr *init;          // its initializer, if any
  int nassign;           // assignments after the declaration (not counting a for's own increment)
  bool addr_taken;       // &v appears (then nassign cannot be trusted)
  TvStmt *loop;          // the for loop whose counter this is, if any
  // Model.c: a pointer into dynamic shared memory, T* v = (T*)(tl_smem + OFF); // B bytes
  bool is_smem_view;
  long long smem_offset, smem_bytes; // smem_bytes -1: no "// B bytes" comment
  // CheckSharedBounds.c: the counter's range while walking its loop.
  bool has_range;
  long long range_lo, range_hi;
  // CheckBarrier.c: why the variable may differ between threads (NULL: uniform).
  const char *taint;
  // CheckBarrier.c: a register array used other than as a[i] (its address
  // taken, passed to a call, named in inline asm): not tracked element-wise.
  bool array_escapes;
} TvVar;

typedef enum {
  EX_INT,       // an integer constant (value)
  EX_VAR,       // a reference to a variable (var)
  EX_FUNCREF,   // a reference to a function (name, func)
  EX_BUILTIN,   // threadIdx/blockIdx/blockDim/gridDim.x/y/z (builtin, dim)
  EX_BINARY,    // kids[0] op kids[1], also assignments and operator calls
  EX_UNARY,     // op kids[0]; op "++"/"--" prefix, "p++"/"p--" postfix
  EX_COND,      // kids[0] ? kids[1] : kids[2]
  EX_SUBSCRIPT, // kids[0][kids[1]]
  EX_CAST,      // (type)kids[0]
  EX_MEMBER,    // kids[0].name
  EX_CALL,      // name(kids...), func when it names a function of this file
  EX_LAUNCH,    // kids[0..nconfig) are <<<grid, block, smem, stream>>>, then args; func is the kernel
  EX_TPARAM,    // a non-type template parameter of the enclosing template (value: its index)
  EX_OTHER,     // anything else; kids are its subexpressions
} TvExprKind;

typedef enum { BI_THREAD_IDX, BI_BLOCK_IDX, BI_BLOCK_DIM, BI_GRID_DIM } TvBuiltin;

struct TvExpr {
  TvExprKind kind;
  TvLoc loc;
  unsigned begin, end; // byte offsets in the main file (end exclusive); begin == end: none
  char op[4];
  long long value;
  TvVar *var;
  TvFunc *func;
  const char *name;
  TvBuiltin builtin;
  int dim;
  // EX_BINARY "/" or "%" read from tlc's tl_floordiv / tl_floormod: Python's
  // floor division and modulo (the result of % has the divisor's sign)
  bool floor_op;
  // EX_CAST: the target type
  bool cast_to_pointer, cast_to_integer;
  long long cast_pointee_size; // -1 unknown
  const char *cast_type;
  int nconfig; // EX_LAUNCH
  // EX_CALL of a template specialization: its template arguments (integral
  // ones; TV_NEG_INF for the others) and func is the template.
  long long *targs;
  int ntargs;
  TvExpr **kids;
  int nkids;
};

typedef enum {
  ST_BLOCK,    // kids
  ST_DECL,     // vars (with their init)
  ST_EXPR,     // expr
  ST_IF,       // cond, kids[0] then, kids[1] else (or NULL)
  ST_FOR,      // init (kids[0] or NULL), cond (or NULL), inc (or NULL), kids[1] body
  ST_WHILE,    // cond, kids[0]
  ST_DO,       // kids[0], cond
  ST_SWITCH,   // cond, kids[0]
  ST_RETURN,   // expr (or NULL)
  ST_BREAK,
  ST_CONTINUE,
  ST_ASM,      // text (the asm string), exprs (operands)
  ST_OTHER,    // kids, exprs: anything else (case labels, goto, ...)
} TvStmtKind;

struct TvStmt {
  TvStmtKind kind;
  TvLoc loc;
  TvExpr *cond, *inc, *expr;
  TvStmt **kids;
  int nkids;
  TvVec vars;  // ST_DECL: TvVar*
  TvVec exprs; // ST_ASM / ST_OTHER: TvExpr*
  const char *text;
};

// One kernel<<<grid, block, smem, stream>>>(args) in the file.
typedef struct TvLaunch {
  TvExpr *e;
  TvFunc *in; // the function that contains it
  bool dims_known, smem_known;
  long long grid[3], block[3], smem;
} TvLaunch;

struct TvFunc {
  const char *name;
  const char *usr; // identifies overloads and redeclarations
  TvLoc loc;
  CXCursor cursor;
  bool is_global, is_device, is_host, is_extern_c, is_template;
  bool is_internal; // internal linkage (`static`): callable only from this file
  const char *return_type;
  TvVec params; // TvVar*
  TvStmt *body; // NULL: declaration only
  long long launch_bounds; // __launch_bounds__ max threads, -1 none
  // Model.c
  TvVec launches; // kernels: TvLaunch* for every launch of this kernel in the file
  bool threads_known;
  long long threads[3], grid[3]; // from the launches (max over them); 0: unknown
  // Model.c: shared memory
  long long static_smem, dynamic_smem_use;
  TvVar *dynamic_smem_end; // the view that ends last
  // CheckBarrier.c
  bool has_barrier;
  int barrier_state; // 0 unvisited, 1 in progress, 2 done
};

typedef struct TvProgram {
  const char *path;     // the main file, as named on the command line
  const char *text;     // its contents
  size_t text_len;
  TvVec funcs;          // TvFunc* with bodies or declarations, in file order
  TvVec globals;        // TvVar* at file scope
  CXTranslationUnit tu;
  int target_sm;        // 80 or 90
  long long smem_limit; // per block, bytes (dynamic opt-in maximum)
} TvProgram;

/* ---- Ast.c, AstStmt.c ---- */
void tv_lower(TvProgram *p);
TvFunc *tv_find_func(TvProgram *p, const char *name); // the first of that name
const char *tv_expr_text(const TvProgram *p, const TvExpr *e); // its source text
TvExpr *tv_strip(TvExpr *e); // through parentheses and implicit conversions (EX_OTHER with one kid)

/* ---- Model.c: launches, threads, shared memory ---- */
void tv_model(TvProgram *p);
void tv_for_each_expr(TvStmt *s, void (*fn)(TvExpr *e, void *ctx), void *ctx); // pre-order, with initializers
bool tv_is_barrier_call(const TvExpr *e);
// A variable whose only value is its initializer (never assigned after, no
// address taken, not a loop counter), so uses can be replaced by it.
bool tv_single_assignment(const TvVar *v);
// Does s (or a statement in it) write v: an assignment, ++/--, &v, or an
// inline asm operand (as counted into nassign)?
bool tv_stmt_writes_var(TvStmt *s, const TvVar *v);

/* ---- Fold.c, Affine.c, Range.c: constant folding and interval analysis ---- */
#define TV_NEG_INF INT64_MIN
#define TV_POS_INF INT64_MAX
typedef struct TvRange {
  long long lo, hi; // TV_NEG_INF / TV_POS_INF: unbounded
} TvRange;
bool tv_const_eval(const TvExpr *e, long long *out); // Fold.c
long long tv_floor_div(long long a, long long b);     // Python's //, b != 0 (Fold.c)
long long tv_floor_mod(long long a, long long b);     // Python's %, b != 0 (Fold.c)

typedef struct TvGuard TvGuard; // a fact lhs in [lo, hi] known on the current path
typedef struct TvFrame TvFrame; // a call being inlined: its arguments
typedef struct TvRangeEnv {
  const TvFunc *kernel;
  // blockIdx.x is the one value block_x on this walk (check 6 walks a kernel
  // once per block when its loops' trip counts depend on the block)
  bool block_x_pinned;
  long long block_x;
  TvGuard *guards;
  const TvFrame *frame;
} TvRangeEnv;
// The range of an integer expression on the current path; unknown parts make
// it unbounded. `atoms` receives a "name in [lo, hi]" list for messages.
TvRange tv_range(const TvRangeEnv *env, const TvExpr *e, char *atoms, size_t atoms_len);
// What is known of e modulo something: e = r (mod g), g >= 1 (g == 1: nothing).
void tv_congruence(const TvRangeEnv *env, const TvExpr *e, long long *g, long long *r);
// Pushes the facts that hold when `cond` is true (negate: false); returns the
// previous guard list, to restore with tv_pop_guards.
TvGuard *tv_push_cond(TvRangeEnv *env, const TvExpr *cond, bool negate);
void tv_pop_guards(TvRangeEnv *env, TvGuard *saved);
// The pipeline stage term of an index: a summand stride * (x % stages) whose
// x involves a loop counter (k % 3 * 4096). False when there is none.
// Thread t accesses elements k * t + rest (rest the same for all threads,
// one k-element slot starting at d, modulo G = k * threads when multiples
// of G were dropped from rest; G 0 and d exact when none were): false when
// the index is not of that form. Accesses with equal k, G and d are
// per-thread.
bool tv_thread_slot(const TvRangeEnv *env, const TvExpr *e, long long width, long long *k,
                    long long *G, long long *d);
bool tv_stage_term(const TvRangeEnv *env, const TvExpr *e, long long *stride, long long *stages);
// The value of e for each thread (t, 0, 0), t < threads, and whether that
// thread passes the guards on the path: false when some part of e is not
// one value for a given thread (a loop counter over a range, loaded data).
bool tv_thread_values(const TvRangeEnv *env, const TvExpr *e, long long threads, long long *vals,
                      bool *runs);
// Every value of e lies in [lo, hi] + M * Z, hi - lo < M (M >= 2): false
// when no coefficient of its form gives such a window.
bool tv_residue_window(const TvRangeEnv *env, const TvExpr *e, long long *M, long long *lo,
                       long long *hi);

/* ---- the checks ---- */
void tv_check_parse(TvProgram *p, bool list_undeclared, int *undeclared); // Diagnostics.c
void tv_check_barriers(TvProgram *p);     // CheckBarrier.c
void tv_check_shared_budget(TvProgram *p); // CheckSharedBudget.c
void tv_check_shared_bounds(TvProgram *p); // CheckSharedBounds.c
void tv_check_launchers(TvProgram *p);    // CheckLauncher.c
void tv_check_shared_hazards(TvProgram *p); // CheckSharedHazards.c

#endif
