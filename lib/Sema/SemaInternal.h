// Sema's internal interface: the state sema and the evaluator share
// (struct Sema) and the functions the sema files share. Values, scopes and
// the evaluator are in lib/Eval/Eval.h.
#ifndef TLC_SEMA_INTERNAL_H
#define TLC_SEMA_INTERNAL_H

#include "../Eval/Eval.h"
#include "tlc/Ast.h"
#include "tlc/IR.h"
#include "tlc/Sema.h"

typedef struct Sema {
  TlLowering lower; // sema's lowering, for the evaluator (installed by tl_sema)
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
  const struct TlStmt *parallel; // the T.Parallel being lowered (in_parallel), for its variables
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
  struct TlEagerState *eager; // the eager function being compiled (Eager.c), or NULL
  int sm_count;            // the target's SMs, for driver.get_num_sms() (PyLib.c)
  bool iket_warned;        // iket tracing calls were reported (Stmt.c), once
  bool launch_pending;     // a macro called in a prim_func body: its `with T.Kernel`
                           // is the kernel's launch (Kernel.c)
  TlVec seen_through;      // TlVar*: kernel scalars whose value a slice extent used (TileOps.c)
  int64_t ws_threads;      // the kernel's T.ws scopes' size so far, 0 before any (WarpGroups.c)
  int ws_depth;            // inside a T.ws scope
  bool rng_started;        // the kernel has called T.rng_init (Scalars.c), so draws may follow
  const struct TlStmt *reshape_fuse_nest; // the T.Parallel whose trailing variables index a
  int reshape_fuse_from;                  // T.reshape's split dimensions, from this one (-1:
                                          // two different splits, no fusion) (Reshape.c)
  bool reshape_reduce;     // T.reduce_* is reading its source: a reshape view may be named
  // Modules next to the compiled file (`from X import a`, Module.c): each
  // evaluated once; import_depth counts those being evaluated now, and
  // module_env is the names of the innermost (what its module-level defs
  // close over; NULL in the main file, whose names are `globals`).
  // The flag of the innermost T.serial / range / T.unroll loop whose body
  // breaks (Stmt.c: `break` sets it, the rest of the body is skipped once
  // it is set); NULL outside such a loop and inside any other loop.
  TlVar *break_var;
  struct TlSiblingModule *siblings;
  int import_depth;
  TlSymScope *module_env;
} Sema;

/* Reshape.c: X = T.reshape(src, shape) */
// Defines the view X; false after reporting.
bool tl_sema_reshape(Sema *s, const TlNode *target, const TlNode *call);
// The load of view v at idx (v's indices), as an access of the buffer it views.
TlExpr *tl_sema_reshape_access(Sema *s, TlBuffer *v, TlExpr **idx, TlLoc loc);
// After a T.Parallel's body: fuses the variables that index a view's split
// dimensions into one over the viewed buffer's dimension.
void tl_sema_reshape_fuse(Sema *s, struct TlStmt *par);
// T.reduce_*(view, dst, dim): st has its regions; appends the lowering to out.
bool tl_sema_reshape_reduce(Sema *s, const TlNode *call, struct TlStmt *st, int dim,
                            const char *op, TlVec *out);

/* WarpGroups.c: T.ws scopes and the kernel's own mbarriers */
bool tl_sema_alloc_barrier(Sema *s, const TlNode *target, const TlNode *call);
// T.create_list_of_mbarrier, T.barrier_wait/arrive, T.mbarrier_wait_parity/
// arrive, T.tma_copy: true when name is one of them (reported or lowered).
bool tl_sema_barrier_stmt(Sema *s, const TlNode *call, const char *name, TlVec *out);
// `if tx < 128: ... elif tx >= 128 and tx < 256: ...` with tile work: the
// branches as T.ws scopes. False (nothing emitted) for any other if.
bool tl_sema_thread_branches(Sema *s, const TlNode *n, TlVec *out);
void tl_sema_ws_scope(Sema *s, const TlNode *with, TlVec *out);
// After a kernel's body: the launch and scope sizes, checks outside scopes.
void tl_sema_finish_ws(Sema *s, TlKernel *k);

/* Kernel.c */
// Compiles a kernel value under `name` (the evaluator calls it for each
// kernel a module or --call makes).
void tl_sema_compile_kernel(Sema *s, TlValue *kv);
// SafeAccess.c: guards the global accesses of T.Parallel nests that may
// leave their tensor (TileLang's LegalizeSafeMemoryAccess).
void tl_sema_safe_accesses(TlArena *a, TlModule *m);
// A global tensor of the given shape and dtype (dtype NULL: float32); NULL
// after reporting.
TlBuffer *tl_sema_global_buffer(Sema *s, const char *name, TlLoc loc, const TlNode *shape,
                                const TlNode *dtype);
// The tensor a parameter annotation declares; NULL after reporting.
TlBuffer *tl_sema_tensor_param(Sema *s, const char *name, TlLoc loc, const TlNode *ann);
// The kernel's VAR_SIZE variable of runtime size v (made at its first use);
// NULL after reporting outside a kernel.
TlVar *tl_sema_size_var(Sema *s, const TlValue *v, TlLoc loc);
// Appends b to k's parameters (its launcher position).
void tl_sema_add_param(Sema *s, TlKernel *k, TlBuffer *b);
// `with T.Kernel(...) as ...:` -> k's launch configuration and body.
bool tl_sema_kernel_block(Sema *s, TlKernel *k, const TlNode *with);

/* Eager.c: the bodies of eager @tilelang.jit functions (lib/Eval/EvalEager.c binds them) */
// Compiles the body of an eager function bound by f.compile(...) into k.
// What compiling one T.Kernel block of an eager function saw of its body:
// how many blocks and T.alloc_global buffers it has, the block compiled.
typedef struct TlEagerBlocks {
  bool ok;
  int nwith, nscratch;
  const TlNode *with;
} TlEagerBlocks;
TlEagerBlocks tl_sema_eager_kernel(Sema *s, const TlValue *kv, TlKernel *k, int part);
// NAME = T.alloc_global(shape, dtype) next to T.Kernel blocks, and its
// buffer made a parameter of k that the launcher allocates (Kernel.c).
bool tl_sema_is_alloc_global(Sema *s, const TlNode *st);
bool tl_sema_scratch_param(Sema *s, TlKernel *k, const TlNode *st);

/* Kernel.c */
// The `with T.Kernel(...)` of a macro that a prim_func calls as one of its
// blocks: the launch of s->kernel and its body. False after reporting.
bool tl_sema_macro_launch(Sema *s, const TlNode *with);

/* SemaExpr.c */
TlExpr *tl_sema_expr(Sema *s, const TlNode *n);
// An expression that must fold to an integer constant; `what` names it.
bool tl_sema_const_int(Sema *s, const TlNode *n, const char *what, int64_t *out);
// T.set_max_nreg and TileLang's other register-allocation hints (Scalars.c).
bool tl_sema_is_register_hint(const char *name);
// emitter.ldmatrix_a(...) and the other methods of a TensorCoreIntrinEmitter
// value, lowered into out (MmaEmitter.c); false when call is no such call.
bool tl_sema_mma_emitter_call(Sema *s, const TlNode *call, TlVec *out);
TlExpr *tl_sema_convert(Sema *s, TlExpr *e, TlDtype t); // cast unless it already is t
TlExpr *tl_sema_fold(Sema *s, TlExpr *e);               // folds constant subtrees
// Inlines a helper/lambda with its parameters bound to args; returns its
// results (the tuple of a `return a, b`), or false after reporting.
bool tl_sema_inline_helper(Sema *s, const TlValue *fn, TlLoc call_loc, int nargs, TlExpr **args,
                           TlExpr **results, int max_results, int *nresults);
// A helper's argument: a kernel expression, or (expr NULL) a compile-time
// value the helper's Python reads (a dtype, a default).
typedef struct TlHelperArg {
  TlExpr *expr;
  TlValue *value;
} TlHelperArg;
// tl_sema_inline_helper with each parameter bound to an expression or value.
bool tl_sema_bind_helper(Sema *s, const TlValue *fn, TlLoc call_loc, int nargs,
                         const TlHelperArg *args, TlExpr **results, int max_results,
                         int *nresults);

/* PtrParams.c: `P: T.ptr` parameters shaped by `X = T.make_tensor(P, shape, dtype)` */
bool tl_sema_is_ptr_param(Sema *s, const TlNode *param);
bool tl_sema_is_make_tensor(Sema *s, const TlNode *stmt);
// The tensor X of pointer parameter p (defined in scope), from the one
// make_tensor statement of `stmts` that names p; NULL after an error.
TlBuffer *tl_sema_ptr_param(Sema *s, const TlNode *p, const TlNode *const *stmts, int n);
/* SharedView.c: X = T.view(src, shape, dtype), src's bytes as another tile */
bool tl_sema_shared_view(Sema *s, const TlNode *target, const TlNode *call);
/* TensorView.c: X = T.Tensor(shape, dtype, P.data), a view of parameter P */
bool tl_sema_tensor_view(Sema *s, const TlNode *target, const TlNode *call);
// Marks the parameters read or written through their views (the launcher's
// const, the harness's outputs).
void tl_sema_finish_views(TlKernel *k);
/* Im2Col.c: T.im2col(img, col, nhw_step, c_step, kernel, stride, dilation, pad) */
void tl_sema_im2col(Sema *s, const TlNode *call, TlVec *out);
// T.ptx_cp_async(dst access_ptr, src access_ptr, n[, pred]) as element stores (PtxCopy.c).
void tl_sema_ptx_cp_async(Sema *s, const TlNode *call, TlVec *out);
// T.cumsum(src, dst=None, dim=0, reverse=False) as T.Parallel nests (Scan.c).
void tl_sema_cumsum(Sema *s, const TlNode *call, TlVec *out);

/* TileOps.c */
bool tl_sema_tile_op(Sema *s, const TlNode *call, const char *op, TlVec *out);
bool tl_sema_is_tile_op(const char *name);
// x = T.atomic_add(C[i], v, return_prev=True): the FN_ATOMIC_ADD expression;
// NULL without return_prev=True (then a statement only).
TlExpr *tl_sema_atomic_add_value(Sema *s, const TlNode *call);
// Drops the lets of scalars a slice extent saw through that nothing reads
// (`ed` in A[st:ed] once the slice is A[bx * 64 : +64]): nvcc would warn.
void tl_sema_drop_unread_lets(Sema *s);
// A kernel scalar assigned a second time (Stmt.c); false after an error.
bool tl_sema_scalar_reassigned(Sema *s, TlSym *y, TlLoc loc);

/* Scalars.c: scalar builtins (T.clamp, T.Cast, T.float32(x), T.alloc_var, ...) */
// A T.<name>(...) value call handled here: *handled, and the expression or
// NULL after reporting; *handled false for every other name.
TlExpr *tl_sema_scalar_call(Sema *s, const TlNode *n, const char *name, bool *handled);
// x = T.alloc_var(dtype, init=v): defines the scalar x; false after reporting.
bool tl_sema_alloc_var(Sema *s, const TlNode *target, const TlNode *call, TlVec *out);
// A T.<name>(...) statement handled here (T.sync_threads, and the accepted
// and ignored T.func_attr, ...): true when it was one of them.
bool tl_sema_scalar_stmt(Sema *s, const TlNode *call, const char *name, TlVec *out);

/* AllReduce.c */
// `with T.attr(T.comm_reducer(f, ...), "reduce_scope", ...):` holding
// T.tvm_thread_allreduce(1, value, True, out[i], axis...): every thread gets
// f folded over the values of the threads that differ only along the axes.
// True when n is such a with (lowered into out, or reported).
bool tl_sema_thread_allreduce(Sema *s, const TlNode *n, TlVec *out);

/* Annotate.c */
// T.annotate_layout({buffer: layout, ...}): checks the form and the keys
// (layouts are TileLang's to choose, tlc keeps its own); false after reporting.
bool tl_sema_annotate_layout(Sema *s, const TlNode *call);

/* Persistent.c */
// for v0, ..., vn in T.Persistent(domain, wave_size, index, group_size=8):
// TileLang's persistent tile loop, as a serial loop over waves whose body
// binds the tile's coordinates and skips tiles past the domain.
void tl_sema_persistent_loop(Sema *s, const TlNode *n, const TlNode *call, TlVec *out);
// A loop over ne extents (T.Parallel, T.grid, T.Persistent) binds 1..max of
// them and one variable each; false after reporting at extents_loc / n.
bool tl_sema_nest_arity(Sema *s, const TlNode *n, TlLoc extents_loc, int ne, int max,
                        const char *what);

/* Stmt.c */
void tl_sema_body(Sema *s, const TlVec *stmts, TlVec *out);
// The index nodes of an access to b that address its laid-out dimensions:
// all of them, or, for a fragment whose unit dimensions were dropped and an
// access written with every dimension, those of the kept dimensions (each
// dropped one checked to be 0 or a full slice). Their count; -1 after
// reporting.
int tl_sema_kept_indices(Sema *s, const TlBuffer *b, const TlVec *indices, const TlNode **kept);

#endif
