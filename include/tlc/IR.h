// The IR (lib/IR/): one data structure, two levels.
//
// Tile IR (what a block does) comes out of sema: buffers with scopes,
// T.Parallel nests (ST_PARALLEL), tile ops (copy, gemm, fill, reduce),
// serial / unrolled / pipelined loops, element stores, scalar lets.
// Thread IR (what one thread does) comes out of the partition pass: no
// ST_PARALLEL or tile op is left; loops run over per-thread slots, indices
// read threadIdx.x, buffer accesses are flat, vector loads and stores are
// explicit. The verifier (Verify.c) knows which level it checks.
#ifndef TLC_IR_H
#define TLC_IR_H

#include "tlc/PartitionPlan.h"
#include "tlc/Support.h"

enum { TL_MAX_DIMS = 8 };

#define TL_DTYPES(X)                                                                               \
  /* kind, name, bits, cuda type, is_float, is_signed */                                           \
  X(TY_BOOL, "bool", 8, "bool", 0, 0)                                                              \
  X(TY_INT8, "int8", 8, "signed char", 0, 1)                                                       \
  X(TY_UINT8, "uint8", 8, "unsigned char", 0, 0)                                                   \
  X(TY_INT16, "int16", 16, "short", 0, 1)                                                          \
  X(TY_INT32, "int32", 32, "int", 0, 1)                                                            \
  X(TY_UINT32, "uint32", 32, "unsigned int", 0, 0)                                                 \
  X(TY_INT64, "int64", 64, "long long", 0, 1)                                                      \
  X(TY_FLOAT16, "float16", 16, "half_t", 1, 1)                                                     \
  X(TY_BFLOAT16, "bfloat16", 16, "bfloat16_t", 1, 1)                                               \
  X(TY_FLOAT32, "float32", 32, "float", 1, 1)                                                      \
  X(TY_FLOAT64, "float64", 64, "double", 1, 1)                                                     \
  X(TY_FLOAT8_E4M3, "float8_e4m3", 8, "fp8_e4_t", 1, 1)                                            \
  X(TY_FLOAT8_E5M2, "float8_e5m2", 8, "fp8_e5_t", 1, 1)                                            \
  X(TY_UINT16, "uint16", 16, "unsigned short", 0, 0)                                               \
  X(TY_UINT64, "uint64", 64, "unsigned long long", 0, 0)

typedef enum {
#define X(k, n, b, c, f, s) k,
  TL_DTYPES(X)
#undef X
      TY_COUNT
} TlDtype;

const char *tl_dtype_name(TlDtype t);
const char *tl_dtype_cuda(TlDtype t);
int tl_dtype_bits(TlDtype t);
bool tl_dtype_is_float(TlDtype t);
bool tl_dtype_is_signed(TlDtype t);
// float16, bfloat16 and the fp8 types: storage types whose arithmetic the
// emitters print through float.
bool tl_dtype_is_narrow_float(TlDtype t);
// float8_e4m3 / float8_e5m2: conversions only in cuda_fp8.h, wgmma k32.
bool tl_dtype_is_fp8(TlDtype t);
// Parses "float16", "float", "half", "fp32", "bf16"... False if unknown.
bool tl_dtype_parse(const char *s, TlDtype *out);

typedef enum { SCOPE_GLOBAL, SCOPE_SHARED, SCOPE_FRAGMENT, SCOPE_LOCAL } TlScope;
const char *tl_scope_name(TlScope s);

// How a fragment's elements are spread over the block's threads
// (lib/Analysis/FragLayout.c). Every layout is a closed-form bijection
// between buffer coordinates and (thread, local register), with replication
// for ROW_OF layouts (every thread that owns part of a row holds the row's
// value).
typedef enum {
  LAYOUT_NONE,
  LAYOUT_GEMM_C, // mma m16n8 accumulator tiles; warps tiled wm x wn over (m, n)
  LAYOUT_ROWS,   // g threads share a row; rows cycle over threads/g groups
  LAYOUT_ROW_OF, // a 1-D buffer over the rows of a 2-D parent layout
} TlLayoutKind;

typedef struct TlFragLayout TlFragLayout;
struct TlFragLayout {
  TlLayoutKind kind;
  int64_t rows, cols;  // the 2-D shape laid out (ROW_OF: the parent's)
  int64_t threads;     // threads of the block
  int64_t wm, wn;      // GEMM_C: warps along m and n
  bool wgmma;          // GEMM_C: the wgmma accumulator: each 64-row slab is one
                       // warpgroup's, its 4 warps own 16-row slices (wn == 1)
  int64_t g;           // ROWS: threads per row group
  int64_t vec;         // ROWS: consecutive columns per run in one thread
  const TlFragLayout *parent; // ROW_OF
  int64_t locals;      // registers per thread
};

typedef struct TlBuffer {
  const char *name;
  TlLoc loc; // declaration (parameter or alloc)
  TlScope scope;
  TlDtype dtype;
  int ndims;
  int64_t shape[TL_MAX_DIMS]; // 0 where dyn gives the dimension
  struct TlVar *dyn[TL_MAX_DIMS]; // globals: the runtime size (VAR_SIZE) of a dimension, or NULL
  int64_t dyn_scale[TL_MAX_DIMS]; // globals: the extent is dyn[d] * dyn_scale[d] where it is
                                  // above 1 (`seq_len * heads`); 0 or 1: dyn[d] itself
  int param_index;       // kernel parameter position, globals only
  int stages;            // pipeline copies (leading stage dimension); 1 when not multi-buffered
  int64_t shared_offset; // byte offset in the dynamic shared block (plan-shared)
  bool written, read;    // filled by sema: used by the launcher (const) and checks
  bool output;           // an eager function's T.empty tensor, which it returns
  bool scratch;          // T.alloc_global in a prim_func: a kernel parameter that the
                         // prim_func's launcher allocates (cudaMallocAsync) and frees
  const TlFragLayout *layout; // fragments, after layout inference
  const int32_t *table;  // a constant table tlc computed (loop_layout inverse), or NULL
  int64_t table_len;
  int swizzle;           // shared: 0, or the XOR-swizzle chunk count per row (2, 4, 8)
  int source_ndims;      // sema only: a fragment's dimensions as written, when its unit
  unsigned dropped_dims; // dimensions were dropped (bit d: written dimension d); 0 otherwise
  // sema only: T.reshape of a fragment or local buffer, an index view of this
  // buffer that sema resolves at each access (never in the IR); NULL otherwise.
  const struct TlBuffer *reshape_of;
  const struct TlBuffer *view_of; // global: T.Tensor(shape, dtype, P.data), parameter P's
                                 // memory seen with this shape (no memory of its own)
  // T.view (shared): the tile whose bytes this buffer reinterprets (it has
  // no memory of its own); `aliased`: a T.view reinterprets this tile.
  const struct TlBuffer *alias_of;
  bool aliased;
  bool region_tile; // shared: sema's copy of a gemm operand that is a region of another tile
  // T.StridedTensor (globals): the element stride of each dimension, a
  // constant or the runtime size dyn_stride[d]; not strided: row-major.
  bool strided;
  int64_t stride[TL_MAX_DIMS];
  struct TlVar *dyn_stride[TL_MAX_DIMS];
  bool wgmma_operand;    // shared: swizzle is wgmma's canonical layout (panels of
                         // swizzle*8 16-bit columns, Swizzle<3|2|1,4,3>), not tl_swz
} TlBuffer;

int64_t tl_buffer_elems(const TlBuffer *b); // one stage; 0 for a tensor with runtime sizes
bool tl_buffer_is_dynamic(const TlBuffer *b); // a dimension is a runtime size
int64_t tl_buffer_dyn_scale(const TlBuffer *b, int d); // dyn_scale[d], at least 1
// Dimension d of b as an expression: its extent, or its runtime size.
struct TlExpr *tl_buffer_dim(TlArena *a, const TlBuffer *b, int d, TlDtype t, TlLoc loc);
// The element stride of dimension d of a T.StridedTensor, as an expression.
struct TlExpr *tl_buffer_stride(TlArena *a, const TlBuffer *b, int d, TlDtype t, TlLoc loc);
// The elements a strided tensor spans (1 + sum of (extent - 1) * stride), for
// compile-time extents and strides (0 when one is a runtime size);
// tl_buffer_elems for a tensor that is not strided.
int64_t tl_buffer_span(const TlBuffer *b);
// Indices of an access: ndims, or ndims + 1 with a leading stage index for a
// multi-buffered tile. Returns the row-major flat element offset.
struct TlExpr;
struct TlExpr *tl_access_flat(TlArena *a, const TlBuffer *b, struct TlExpr *const *idx, int n);
int64_t tl_buffer_bytes(const TlBuffer *b); // all stages

typedef enum {
  VAR_BLOCK_IDX,  // blockIdx.{x,y,z}: the T.Kernel names
  VAR_THREAD_IDX, // threadIdx.{x,y,z}
  VAR_LOOP,       // a loop counter
  VAR_SCALAR,     // a scalar local (x = expr)
  VAR_ARRAY,      // a per-thread register array (vector staging), thread IR only
  VAR_SIZE,       // a runtime size (T.dynamic): an int parameter of the kernel and launcher
  VAR_TILE_ITER,  // a persistent kernel's tiles done by this block before the current one
} TlVarKind;

typedef struct TlVar {
  const char *name;  // as in the source
  const char *cname; // as emitted (unique within the kernel)
  TlLoc loc;
  TlVarKind kind;
  TlDtype dtype;
  int dim;         // x/y/z for block and thread indices
  int64_t extent;  // known range [0, extent) for counters; 0 when unknown
  int64_t lanes;   // VAR_ARRAY length
  int64_t divisor; // VAR_SIZE: a multiple of it at every launch (the launcher runs the
                   // kernel's fallback otherwise); 0 when nothing is known
} TlVar;

#define TL_EXPRS(X)                                                                                \
  X(EX_INT, "int")                                                                                 \
  X(EX_FLOAT, "float")                                                                             \
  X(EX_VAR, "var")                                                                                 \
  X(EX_LOAD, "load")       /* buf[args...] (tile IR) or buf[args[0]] (flat, thread IR) */          \
  X(EX_ELEM, "elem")       /* var[args[0]]: an element of a VAR_ARRAY */                           \
  X(EX_BINARY, "binary")   /* args[0] op args[1] */                                                \
  X(EX_UNARY, "unary")     /* op args[0] */                                                        \
  X(EX_CALL, "call")       /* fn(args...) */                                                       \
  X(EX_CAST, "cast")       /* (dtype)args[0] */                                                    \
  X(EX_SELECT, "select")   /* args[0] ? args[1] : args[2] */

typedef enum {
#define X(k, s) k,
  TL_EXPRS(X)
#undef X
} TlExprKind;

#define TL_BINOPS(X)                                                                               \
  X(OP_ADD, "+", 8)                                                                                \
  X(OP_SUB, "-", 8)                                                                                \
  X(OP_MUL, "*", 9)                                                                                \
  X(OP_DIV, "/", 9)       /* true division (floats) */                                             \
  X(OP_FLOORDIV, "//", 9) /* Python floor division (integers) */                                   \
  X(OP_FLOORMOD, "%", 9)  /* Python modulo, sign of the divisor (integers) */                      \
  X(OP_FMOD, "fmod", 9)   /* float % */                                                            \
  X(OP_POW, "**", 10)                                                                              \
  X(OP_MIN, "min", 13)                                                                             \
  X(OP_MAX, "max", 13)                                                                             \
  X(OP_EQ, "==", 2)                                                                                \
  X(OP_NE, "!=", 2)                                                                                \
  X(OP_LT, "<", 3)                                                                                 \
  X(OP_LE, "<=", 3)                                                                                \
  X(OP_GT, ">", 3)                                                                                 \
  X(OP_GE, ">=", 3)                                                                                \
  X(OP_AND, "and", 1)                                                                              \
  X(OP_OR, "or", 0)                                                                                \
  X(OP_XOR, "^", 5)    /* bitwise, integers (as the three below) */                                \
  X(OP_BITAND, "&", 6)                                                                             \
  X(OP_BITOR, "|", 4)                                                                              \
  X(OP_SHL, "<<", 7)                                                                               \
  X(OP_SHR, ">>", 7)   /* arithmetic for signed types, as Python and nvcc */                       \
  X(OP_NEG, "-", 11)                                                                               \
  X(OP_NOT, "not", 11)                                                                             \
  X(OP_BITNOT, "~", 11)

typedef enum {
#define X(k, s, p) k,
  TL_BINOPS(X)
#undef X
} TlOp;

const char *tl_op_name(TlOp op);
// & | ^ << >>: the integer-only binary operators.
static inline bool tl_bitwise_op(TlOp op) {
  return op == OP_BITAND || op == OP_BITOR || op == OP_XOR || op == OP_SHL || op == OP_SHR;
}

#define TL_INTRINSICS(X)                                                                           \
  X(FN_EXP, "exp")                                                                                 \
  X(FN_EXP2, "exp2")                                                                               \
  X(FN_LOG, "log")                                                                                 \
  X(FN_LOG2, "log2")                                                                               \
  X(FN_SQRT, "sqrt")                                                                               \
  X(FN_RSQRT, "rsqrt")                                                                             \
  X(FN_TANH, "tanh")                                                                               \
  X(FN_SIGMOID, "sigmoid")                                                                         \
  X(FN_ABS, "abs")                                                                                 \
  X(FN_REINTERPRET, "reinterpret") /* the bits of args[0] read as dtype (same size) */           \
  X(FN_SHFL_XOR, "shfl_xor") /* thread IR: value exchanged with lane ^ offset */              \
  X(FN_SWIZZLE, "swizzle")   /* thread IR: physical offset of (row, col) in buf's swizzle */ \
  X(FN_SHFL, "shfl") /* shfl(mask, value, lane, width): `value` of lane `lane` (T.shfl_sync) */ \
  X(FN_SHFL_DOWN, "shfl_down") /* shfl_down(mask, value, delta, width): of lane + delta */       \
  X(FN_SHFL_UP, "shfl_up")     /* shfl_up(mask, value, delta, width): of lane - delta */         \
  X(FN_SHFL_XOR_MASKED, "shfl_xor_masked") /* (mask, value, delta, width): of lane ^ delta */ \
  X(FN_ATOMIC_ADD, "atomic_add") /* atomic_add(buf[idx], value): adds, gives the old value */  \
  X(FN_RNG_RAND, "rng_rand")       /* the thread's next 32 random bits (T.rng_rand; uint32) */  \
  X(FN_RNG_UNIFORM, "rng_uniform") /* its next uniform in (0, 1] (float32 or float64) */        \
  X(FN_RNG_NORMAL, "rng_normal")   /* its next standard normal (float32 or float64) */

typedef enum {
#define X(k, s) k,
  TL_INTRINSICS(X)
#undef X
} TlIntrinsic;

const char *tl_intrinsic_name(TlIntrinsic fn);
// The draws of the thread's random generator (no operands; each call is the
// next number, so two calls are never the same value).
bool tl_intrinsic_is_rng(TlIntrinsic fn);
// The warp shuffles a kernel writes (T.shfl_sync, T.shfl_down, ...): four
// operands (mask, value, lane or delta, width), and their CUDA function.
bool tl_intrinsic_is_user_shuffle(TlIntrinsic fn);
const char *tl_shuffle_cuda_name(TlIntrinsic fn);

typedef struct TlExpr TlExpr;
struct TlExpr {
  TlExprKind kind;
  TlLoc loc;
  TlDtype dtype;
  bool untyped; // a literal whose dtype adapts to the other operand
  int64_t ival;
  double fval;
  TlOp op;
  TlIntrinsic fn;
  TlVar *var;
  TlBuffer *buf;
  TlExpr **args;
  int nargs;
};

#define TL_STMTS(X)                                                                                \
  X(ST_SEQ, "seq")             /* body */                                                          \
  X(ST_FOR, "for")             /* var in [start, stop) by step, loop kind, body */                 \
  X(ST_PARALLEL, "parallel")   /* tile IR: nest vars[] x extents[], body */                        \
  X(ST_STORE, "store")         /* buf[indices] (op)= value */                                      \
  X(ST_LET, "let")             /* var = value (declares) */                                        \
  X(ST_SET, "set")             /* var = value (re-assigns a scalar) */                             \
  X(ST_IF, "if")               /* cond ? body : else_body */                                       \
  X(ST_WHILE, "while")         /* while cond: body (cond the same in every thread) */              \
  X(ST_COPY, "copy")           /* tile IR: T.copy(src region, dst region) */                       \
  X(ST_GEMM, "gemm")           /* tile IR: T.gemm(A, B, C) */                                      \
  X(ST_FILL, "fill")           /* tile IR: T.fill / T.clear */                                     \
  X(ST_REDUCE, "reduce")       /* tile IR: T.reduce_* */                                           \
  X(ST_VLOAD, "vload")         /* thread IR: var[0..V) = buf[index .. index+V) */                  \
  X(ST_VSTORE, "vstore")       /* thread IR: buf[index .. index+V) = var[0..V) */                  \
  X(ST_SYNC, "sync")           /* thread IR: __syncthreads() */                                    \
  X(ST_DECL, "decl")           /* thread IR: declares a register array var */                      \
  X(ST_COMMENT, "comment")     /* a line of explanation carried to the CUDA */                 \
  X(ST_CP_ASYNC, "cp_async")   /* thread IR: buf[index..+width) <- value's buffer, async */       \
  X(ST_ASYNC_COMMIT, "commit") /* close this thread's group of async copies */                    \
  X(ST_ASYNC_WAIT, "wait")     /* wait until at most `width` groups are pending */               \
  X(ST_WGMMA_WAIT, "wgmma_wait") /* wait until `width` groups are left; accumulator `buf` readable */ \
  X(ST_WGMMA_PACK, "wgmma_pack") /* fragment `buf` -> its packed register-A copy (a_packed gemms) */ \
  X(ST_MMA, "mma") /* one warp's mma.sync m16n8k(mma_k) on local buffers a, b, c at mma_offset */ \
  X(ST_TMA_LOAD, "tma_load")     /* src (global region) -> stage `stage_a` of dst.buf by TMA,  */ \
                                 /* through tensor map `tma_map`; completes on full[stage]     */ \
  X(ST_TMA_STORE, "tma_store")   /* src.buf (a shared tile) -> dst (global region) by TMA through */ \
                                 /* tensor map `tma_map`, issued and committed by thread 0      */ \
  X(ST_TMA_STORE_WAIT, "tma_store_wait") /* thread 0: its TMA stores have read their tiles */       \
  X(ST_MBAR_WAIT, "mbar_wait")   /* wait until ring[stage_a] completes the phase of parity `value` */ \
  X(ST_MBAR_ARRIVE, "mbar_arrive") /* arrive on ring[stage_a]; width: TMA bytes to expect (full) */ \
  X(ST_RNG_INIT, "rng_init") /* the thread's Philox generator: seed `value`, subsequence `start`, */ \
                             /* offset `stop` (T.rng_init; curand_init)                         */

typedef enum {
#define X(k, s) k,
  TL_STMTS(X)
#undef X
} TlStmtKind;

typedef enum { LOOP_SERIAL, LOOP_UNROLL, LOOP_VECTORIZED, LOOP_PIPELINED } TlLoopKind;
const char *tl_loop_kind_name(TlLoopKind k);

// The two mbarrier rings of a warp-specialized pipeline: full[s] completes
// when stage s's TMA bytes have landed, empty[s] when every consumer thread
// is done reading stage s.
// RING_USER: the kernel's own mbarriers (T.alloc_barrier /
// T.create_list_of_mbarrier), stage_a the barrier's index among them.
typedef enum { RING_NONE, RING_FULL, RING_EMPTY, RING_USER } TlRing;
const char *tl_ring_name(TlRing r);

typedef enum { ORIGIN_USER, ORIGIN_COPY, ORIGIN_FILL, ORIGIN_REDUCE } TlOrigin;
const char *tl_origin_name(TlOrigin o);

typedef enum { REDUCE_SUM, REDUCE_MAX, REDUCE_MIN, REDUCE_ABSSUM, REDUCE_ABSMAX } TlReduceKind;

// A rectangular region of a buffer: per dimension a start and an extent.
typedef struct TlRegion {
  TlBuffer *buf;
  TlLoc loc;
  int ndims;
  TlExpr *start[TL_MAX_DIMS];
  int64_t extent[TL_MAX_DIMS];
  bool point; // written as a point A[i, j]: extents come from the other side
} TlRegion;

// A loop_layout= helper: f(i, j[, rep]) -> (thread, local).
typedef struct TlLayoutFn {
  const char *name;
  TlLoc loc;
  int nparams;
  TlVar *params[TL_MAX_DIMS + 1];
  TlExpr *thread, *local; // in terms of params
  int64_t replicate;
} TlLayoutFn;

typedef struct TlStmt TlStmt;
struct TlStmt {
  TlStmtKind kind;
  TlLoc loc;
  TlVec body;      // TlStmt*
  TlVec else_body; // ST_IF
  // ST_FOR
  TlVar *var;
  TlLoopKind loop_kind;
  TlExpr *start, *stop, *step;
  int num_stages;
  TlVec order, stage; // int64 values stored as (intptr_t)
  // ST_PARALLEL
  int nvars;
  TlVar *vars[TL_MAX_DIMS];
  int64_t extents[TL_MAX_DIMS];
  int64_t coalesced_width; // 0 when absent
  TlLayoutFn *layout;      // loop_layout=, or NULL
  TlOrigin origin;
  // ST_STORE / ST_LET / ST_SET / ST_VLOAD / ST_VSTORE
  TlBuffer *buf;
  TlExpr **indices;
  int nindices;
  TlExpr *value;
  TlOp update_op; // ST_STORE: OP_ADD for +=, ...; OP_EQ for plain =
  bool atomic;    // ST_STORE with OP_ADD: an atomicAdd (T.atomic_add); ST_COPY:
                  // dst += src element by element, each add atomic
  int64_t width;  // ST_VLOAD / ST_VSTORE lanes
  TlExpr *cond;   // ST_IF, ST_WHILE, ST_CP_ASYNC (its guard); ST_GEMM: an in-flight wgmma that
                  // every thread issues, predicated off where this is false
  // tile ops
  TlRegion src, dst;          // copy; fill dst; reduce src->dst
  TlBuffer *a, *b, *c;        // gemm
  bool trans_a, trans_b;      // gemm
  bool use_mma;               // gemm: tensor cores (mma.sync) or CUDA cores
  bool use_wgmma;             // gemm: Hopper warpgroup MMA from shared descriptors
  const char *engine_why;     // gemm without wgmma: why not (the plan shows it), else NULL
  int gemm_id;                // gemm: which emitted helper implements it
  TlReduceKind reduce;        // reduce
  int reduce_dim;             // reduce
  bool reduce_clear;          // reduce
  const char *text;           // ST_COMMENT
  // Facts recorded by passes for --emit=plan and the explain tools.
  TlPartitionPlan plan; // ST_FOR produced by the partition pass (plan.ndims > 0)
  TlLoc plan_loc;       // the T.Parallel (or tile op) the plan came from
  TlOrigin plan_origin;
  bool plan_has_layout;
  // ST_SEQ of a T.Parallel over fragments (per_thread, plan.ndims == 0): the
  // fragment layout the nest follows and the nest's own extents (a nest may
  // cover part of the fragment). NULL for every other statement.
  const TlFragLayout *plan_frag;
  int plan_frag_ndims;
  int64_t plan_frag_extents[2];
  bool per_thread; // ST_SEQ: what one thread does alone (a partitioned nest); no barrier inside
  bool async_copy;  // ST_PARALLEL / lane loop: a pipeline producer, lowered to cp.async;
                    // ST_STORE: an element of T.ptx_cp_async (thread-sync: two such writes
                    // do not order each other; the user's mbarriers or wait_group do)
  TlExpr *stage_a, *stage_b; // ST_GEMM: the pipeline stage of a multi-buffered A / B
  // ST_GEMM: an operand that is a region of a larger shared tile read in place
  // (a buffer with alias_of): its element offset in that tile; NULL otherwise.
  TlExpr *offset_a, *offset_b;
  // ST_GEMM on wgmma with a register-A operand: its A registers are the ones
  // an ST_WGMMA_PACK of A filled (packed where A was made, so that the 16-bit
  // fragment need not stay live until the gemm issues)
  bool a_packed;
  bool wgmma_in_flight;      // ST_GEMM on wgmma in a pipelined loop: returns with its own
                             // group in flight; an ST_WGMMA_WAIT after the loop drains it
  TlVec pipe_buffers;        // ST_FOR pipelined: the multi-buffered shared tiles
  int applied_stages;        // ST_FOR pipelined: the schedule actually built
  TlRing ring;               // ST_MBAR_WAIT / ST_MBAR_ARRIVE: which barrier ring
  int tma_map;               // ST_TMA_LOAD: index into the kernel's tma_maps
  // ST_IF of a T.ws scope: only threads [group_lo, group_lo + group_threads)
  // of the block run the body (group_threads 0: an ordinary if). ST_SYNC
  // inside one: a named barrier of those threads, not __syncthreads.
  int64_t group_lo, group_threads;
  // ST_SYNC from T.sync_threads(id, count): named barrier `barrier_id` (1-15)
  // that `barrier_threads` threads meet at; 0: the whole block.
  int barrier_id;
  int64_t barrier_threads;
  // ST_SYNC with barrier_id: only arrive at it (bar.arrive, no wait): the
  // writer's side of a hand-over between two T.ws scopes (thread-sync).
  bool barrier_arrive;
  // ST_SYNC from T.sync_grid(): every thread of the grid meets here (a
  // cooperative launch; only at the top level of a kernel's body).
  bool grid_sync;
  // ST_MMA (TensorCoreIntrinEmitter.mma): C[c..] += A[a..] B[b..] for one
  // m16n8k(mma_k) atom; the offsets are elements of the local buffers a, b, c.
  int mma_k;
  int64_t mma_offset[3];
};

// A TMA tensor map the launcher encodes (cuTensorMapEncodeTiled) and passes
// to the kernel: `global` seen as a rank-d tensor, a box of `box` elements
// per dimension (outermost first, as the IR indexes), `panel_cols` columns
// per load (one swizzle span) into a shared tile of rows x cols.
typedef struct TlTmaMap {
  TlBuffer *global, *tile;
  int rank;
  int row_dim, col_dim;         // the global dimensions the tile's rows / columns run along
  int64_t box[TL_MAX_DIMS];     // per global dimension: rows, panel_cols or 1
  int64_t panel_cols;           // columns one TMA load brings (tile cols / panel_cols loads)
  int swizzle_bytes;            // 0 (none), 32, 64 or 128: TMA's swizzle = the tile's layout
  // Clusters: the tile is the same for both blocks of a cluster, so each
  // loads half of its rows (box[row_dim] = rows / 2, the half of cluster
  // rank r at row r * rows / 2) and multicasts it to both.
  bool multicast;
  // A store map: the tile (a staging copy of an accumulator, in the map's
  // swizzled layout) is written to the tensor (TMA clips the box at its edges).
  bool store;
} TlTmaMap;

// A warp-specialized kernel's producer warpgroup, launched after the
// compute threads, and the static shared memory its mbarriers take (1 KB
// once the dynamic block after them is 1024-byte aligned).
enum { TL_PRODUCER_THREADS = 128, TL_RING_BARRIER_BYTES = 1024 };

typedef struct TlKernel {
  const char *name;
  TlLoc loc;
  TlVec params;  // TlBuffer* (global)
  TlVec buffers; // TlBuffer* (shared, fragment, local) in declaration order
  TlExpr *grid[3];       // grid extents; an expression of runtime sizes where grid_const is 0
  int64_t grid_const[3]; // folded grid extents, 0 for one computed at launch
  TlVec sizes;           // TlVar* (VAR_SIZE): the runtime sizes, after the tensors
  int64_t threads[3];
  TlVar *block_vars[3]; // the names bound by `as (bx, by)`; NULL when unnamed
  TlVar *thread_vars[3];
  TlVec body;                  // TlStmt*
  int64_t shared_bytes;        // dynamic shared memory (plan-shared)
  int64_t swizzle_panel;       // T.use_swizzle(panel_size), 0 when off
  bool thread_level;           // after partition: thread IR
  bool flat;                   // after flatten: every access has one flat index
  int next_id;                 // for unique cnames
  const char *launcher;        // one of several T.Kernel blocks of a prim_func: the
                               // launcher that runs them in order (NULL otherwise)
  // Warp specialization (warp-specialize): a producer warpgroup of 128
  // threads after the `threads` compute threads runs `producer` (TMA loads
  // into a ring of ring_stages slots with full/empty mbarriers); the compute
  // threads run `body`. ring_stages == 0: not specialized.
  int ring_stages;
  TlVec producer;              // TlStmt*
  TlVec tma_maps;              // TlTmaMap*
  int consumer_regs, producer_regs; // setmaxnreg per thread; 0: unchanged
  int blocks_per_sm;           // warp-specialized: the blocks one SM must hold (launch bounds)
  const char *ws_why;          // why a pipelined kernel was not specialized (plan), or NULL
  // Persistent (warp-specialized kernels on one block per SM): the launch
  // has one block per SM and each block walks the tiles blockIdx.x,
  // blockIdx.x + gridDim.x, ...; the block indices are the tile's, and the
  // ring carries on across tiles at position tile_iter * n + (k - start).
  bool persistent;
  TlVar *tile_iter;
  // Thread-block clusters (warp-specialized kernels): `cluster` blocks (2)
  // that differ only in block index `cluster_dim` run together and share
  // the tiles whose copies do not depend on it (TlTmaMap.multicast); 0: none.
  int cluster, cluster_dim;
  // Runtime sizes (specialize-sizes): the kernel assumes each size's divisor
  // and the launcher checks them; when one does not hold it runs `fallback`,
  // a twin compiled without them (is_fallback: no launcher of its own).
  const char *fallback;
  bool is_fallback;
  // Explicit warp specialization (T.ws scopes): the block launches
  // launch_threads threads; `threads` is the size of each scope, the threads
  // every tile operation is partitioned over (0: no T.ws scopes). The
  // kernel's own mbarriers, initialized at entry with these arrive counts.
  int64_t launch_threads;
  int64_t *mbar_counts;
  int nmbar;
} TlKernel;

// An @autotune factory that a call left some tuned parameters to: tlc took
// the first config (with a warning); --emit=signature lists every config so
// a tuner (python/tlc/tune.py) can time them all.
typedef struct TlAutotune {
  const char *factory;
  TlLoc loc;           // the configs= expression
  const char *tuned;   // JSON array: the parameters the call left to the configs
  const char *configs; // JSON array of objects: every config, values as JSON
} TlAutotune;

typedef struct TlModule {
  const TlSource *src;
  TlVec kernels;  // TlKernel*
  TlVec autotune; // TlAutotune*, in the order the calls ran (sema)
  const char *target_name;
  const char *nvcc_arch; // what to give nvcc: "-arch=sm_90", "-gencode=arch=compute_90a,code=sm_90a"
  int sm;
  bool has_wgmma;        // the target has wgmma (sm_90a): T.gemm may use it
  bool has_tma;          // the target has TMA and mbarrier transactions (sm_90)
  bool clusters;         // --cluster: warp-specialized kernels may run in thread-block clusters
  bool keep_threads;     // --keep-threads: widen-threads leaves every kernel's thread count
  bool overlap_pv;       // --overlap-pv: warp-specialize rotates attention loops by one gemm
  int64_t max_shared_bytes;
  int64_t max_threads;
} TlModule;

/* lib/IR/IR.c: constructors and helpers */
TlExpr *tl_expr_int(TlArena *a, TlLoc loc, int64_t v, TlDtype t);
TlExpr *tl_expr_float(TlArena *a, TlLoc loc, double v, TlDtype t);
TlExpr *tl_expr_var(TlArena *a, TlLoc loc, TlVar *v);
TlExpr *tl_expr_binary(TlArena *a, TlLoc loc, TlOp op, TlExpr *l, TlExpr *r, TlDtype t);
TlExpr *tl_expr_unary(TlArena *a, TlLoc loc, TlOp op, TlExpr *x, TlDtype t);
TlExpr *tl_expr_cast(TlArena *a, TlLoc loc, TlExpr *x, TlDtype t);
TlExpr *tl_expr_load(TlArena *a, TlLoc loc, TlBuffer *b, TlExpr **idx, int n);
TlExpr *tl_expr_new(TlArena *a, TlExprKind k, TlLoc loc, TlDtype t, int nargs);
TlStmt *tl_stmt_new(TlArena *a, TlStmtKind k, TlLoc loc);
TlVar *tl_var_new(TlArena *a, TlKernel *k, const char *name, TlVarKind kind, TlDtype t, TlLoc loc);
TlExpr *tl_expr_clone(TlArena *a, const TlExpr *e);
// A deep copy of a statement tree (variables are shared, expressions copied).
TlStmt *tl_stmt_clone(TlArena *a, const TlStmt *s);
/* lib/IR/Clone.c */
// A deep copy of a module: kernels, buffers, variables and statements are
// new, so passes on m leave the copy as it was.
TlModule *tl_module_clone(TlArena *a, const TlModule *m);
// A deep copy of one kernel, with its own buffers and variables.
TlKernel *tl_kernel_clone(TlArena *a, const TlKernel *k);
// Replaces every use of vars[i] in e by with[i] (a fresh tree; e is unchanged).
TlExpr *tl_expr_substitute(TlArena *a, const TlExpr *e, int n, TlVar *const *vars,
                           TlExpr *const *with);
// Rewrites stmt trees in place with the same substitution.
void tl_stmt_substitute(TlArena *a, TlStmt *s, int n, TlVar *const *vars, TlExpr *const *with);
// Rewrites body and every body below it, innermost first: a statement for
// which expand returns true is replaced by the statements it appended to
// out; any other is kept. (The passes that expand one kind of loop in
// place, pipeline and vectorize, walk with it.)
void tl_stmt_expand(TlArena *a, TlVec *body, bool (*expand)(void *ctx, TlStmt *s, TlVec *out),
                    void *ctx);
bool tl_expr_uses_var(const TlExpr *e, const TlVar *v);
// Does e (or a subexpression) load from buffer b?
bool tl_expr_loads(const TlExpr *e, const TlBuffer *b);
// Does s (or a statement in it) write b (writes_only), or touch it at all?
bool tl_stmt_touches(const TlStmt *s, const TlBuffer *b, bool writes_only);
// Thread scopes (ST_IF with group_threads): does the kernel split its block
// into warp ranges (thread-index branches over whole warps, the kernel's
// partition the whole block) rather than T.ws warpgroup scopes? The named
// barrier of a scope's threads is 1 + first thread / 32 or / 128 then, and
// the first id past every scope's.
bool tl_kernel_warp_ranges(const TlKernel *k);
int tl_scope_barrier_id(const TlKernel *k, int64_t group_lo);
int tl_first_free_barrier_id(const TlKernel *k);
// Does a statement of body (at any depth) run a T.gemm on wgmma?
bool tl_body_uses_wgmma(const TlVec *body);
// Does the body start a random generator (ST_RNG_INIT, T.rng_init)?
bool tl_body_uses_rng(const TlVec *body);
// Does the body hold a T.sync_grid() (ST_SYNC grid_sync)?
bool tl_body_syncs_grid(const TlVec *body);
// Structural equality (same operators, constants, variables and buffers).
bool tl_expr_equal(const TlExpr *a, const TlExpr *b);
bool tl_expr_is_const(const TlExpr *e, int64_t *v);
// Evaluates an integer expression with vars[i] = vals[i] (Python // and %).
// False when it reads memory, divides by zero or is not integer arithmetic.
bool tl_expr_eval_int(const TlExpr *e, TlVar *const *vars, const int64_t *vals, int n, int64_t *out);

/* lib/IR/Simplify.c: integer index algebra */
// Canonicalizes integer expressions: folds constants, collects affine terms,
// and rewrites (x // c) * c + x % c into x (how partitioned indices collapse
// back to the book's `step * 512 + threadIdx.x * 4`). Float parts untouched.
TlExpr *tl_simplify(TlArena *a, TlExpr *e);
// Affine view of an integer expression in one variable v: e = base + coeff * v
// where base does not use v. False when e is not affine in v.
bool tl_affine_in(TlArena *a, TlExpr *e, const TlVar *v, TlExpr **base, int64_t *coeff);
// Largest power of two (up to cap) that divides e for every value of its
// variables, from the constant and term coefficients; 1 when unknown.
int64_t tl_known_alignment(TlExpr *e, int64_t cap);
// Interval of e over the known ranges of its variables (block and thread
// indices, counters with constant extents). False when unbounded/unknown.
bool tl_expr_bounds(const TlExpr *e, int64_t *lo, int64_t *hi);
// Splits e = multiple + rest, where every term of `multiple` has a
// coefficient divisible by m (e.g. the stage offset stage * elems of a
// multi-buffered tile). False when no term is such a multiple.
bool tl_split_multiples(TlArena *a, TlExpr *e, int64_t m, TlExpr **multiple, TlExpr **rest);
// True when e >= 0 for all values of its variables (counters, indices).
bool tl_expr_nonneg(const TlExpr *e);

/* lib/IR/Print.c */
void tl_ir_print_module(TlBuf *out, const TlModule *m);
void tl_ir_print_expr(TlBuf *out, const TlExpr *e);

/* lib/IR/Parse.c */
// Reads the printer's text (a .tir file, docs/ir.md) into a module in the
// arena. NULL after reporting the first error at its file:line:col.
TlModule *tl_ir_parse(TlArena *a, const TlSource *src, TlDiag *d);

/* lib/IR/Verify.c */
// Checks the structural invariants of the level the kernel is at. Returns
// false and reports an internal error naming `after` (the last pass); with
// after == NULL (a module read from IR text) an "invalid IR" error.
bool tl_ir_verify(const TlModule *m, const char *after, TlDiag *d);

#endif
