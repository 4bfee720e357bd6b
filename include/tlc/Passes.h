// The passes (lib/Transforms/), one per file, each with one entry point that
// returns false after reporting errors. lib/Driver/PassManager.c runs them in
// order and verifies the IR after each.
#ifndef TLC_PASSES_H
#define TLC_PASSES_H

#include "tlc/IR.h"

/* lib/Transforms/SpecializeSizes.c: kernels with a runtime contiguous extent
   assume it a multiple of 16 bytes; an unaligned twin for the other launches */
bool tl_specialize_sizes(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/WidenThreads.c: a kernel whose fragments would spill runs
   with twice the threads when nothing in it names a thread */
bool tl_widen_threads(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/LowerTileOps.c: T.copy / T.fill -> T.Parallel nests */
bool tl_lower_tile_ops(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/ReplicateFragments.c: fragments read at block level ->
   local arrays every thread holds whole (TileLang replicates them) */
bool tl_replicate_fragments(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/UniformSelect.c */
// uniform-select: a nest storing select(cond, a, b) with cond convex in the
// nest variables gets a block-uniform fast path storing a (causal masks).
bool tl_uniform_select(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/LayoutInference.c: a layout for every fragment */
bool tl_layout_inference(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/TmaCopy.c: a T.ws scope's T.tma_copy on the TMA unit */
bool tl_tma_copy(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/WarpSpecialize.c: T.Pipelined loops on TMA + mbarriers,
   a producer warpgroup (sm_90a; the loops it cannot take stay for pipeline) */
bool tl_warp_specialize(TlArena *a, TlModule *m, TlDiag *d);
// The tensor map and box origin (per global dimension) of a copy nest into a
// whole 2-D shared tile, as the producer warpgroup would load it (loop
// counters allowed in the origin); false with *why when TMA cannot do it.
bool tl_tma_map_for_copy(TlArena *a, TlModule *m, TlKernel *k, const TlStmt *nest, TlTmaMap *map,
                         TlExpr **start, const char **why);

/* lib/Transforms/Pipeline.c: T.Pipelined loops */
bool tl_pipeline(TlArena *a, TlModule *m, TlDiag *d);
// Shared by both pipelining passes:
// the shared tile a copy nest fills from global memory (a producer), or NULL;
TlBuffer *tl_pipeline_producer_target(const TlStmt *s);
// prepends `stage` to every access of the multi-buffered tiles bufs in s
// (false: a tile operator on one, reported as an internal error);
bool tl_pipeline_stage_stmt(TlArena *a, TlDiag *d, TlStmt *s, TlBuffer *const *bufs, int nb, TlExpr *stage);
// the loop's one wgmma gemm whose accumulator no other consumer touches
// (its wgmma group may stay in flight across iterations), or NULL.
TlStmt *tl_pipeline_deferred_wgmma(const TlVec *consumers);

/* lib/Transforms/Partition.c: T.Parallel nests -> per-thread loops (thread IR) */
bool tl_partition(TlArena *a, TlModule *m, TlDiag *d);
// The vector width the partition pass picks for a nest (TileLang v0.1.5
// rules); exposed for --emit=plan and the explain tools.
int64_t tl_partition_vector_width(TlArena *a, const TlKernel *k, const TlStmt *nest);

/* lib/Transforms/Flatten.c: multi-dimensional accesses -> flat offsets */
bool tl_flatten(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/Vectorize.c: lane loops -> vector loads and stores */
bool tl_vectorize(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/Swizzle.c: XOR-swizzled shared tiles get physical offsets */
bool tl_swizzle(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/ThreadSync.c: barriers between shared-memory hazards */
bool tl_thread_sync(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/PlanShared.c: offsets in the dynamic shared block, budget */
bool tl_plan_shared(TlArena *a, TlModule *m, TlDiag *d);

/* lib/Transforms/ShiftedNests.c (part of layout-inference): a T.Parallel
   that reads one fragment as F[i + c, j] (c fixed for the nest) and stores
   only what it reads runs over F's own rows instead, so it follows F's
   layout rather than staging F in shared memory. */
void tl_shift_fragment_nests(TlArena *a, TlKernel *k);

/* lib/Transforms/ViaShared.c: lowerings through a shared tile */
// Appends to out a nest copying the whole of `frag` into a new shared tile
// of its shape and dtype (added to the kernel's buffers), and returns it.
TlBuffer *tl_stage_in_shared(TlArena *a, TlKernel *k, TlBuffer *frag, TlLoc loc, TlVec *out);
// Appends to out a nest copying the shared tile back into `frag` (same shape).
void tl_unstage_from_shared(TlArena *a, TlKernel *k, TlBuffer *shared, TlBuffer *frag, TlLoc loc,
                            TlVec *out);
// Appends to out the two T.Parallel nests (source -> shared scratch tile,
// then a serial reduction per destination element) that replace `red`.
void tl_reduce_via_shared(TlArena *a, TlKernel *k, const TlStmt *red, TlVec *out);
TlExpr *tl_reduce_init(TlArena *a, TlReduceKind kind, TlDtype t, TlLoc loc);
TlExpr *tl_reduce_combine(TlArena *a, TlReduceKind kind, TlExpr *acc, TlExpr *x, TlLoc loc);
// Replaces item i of v by the items of with.
void tl_vec_splice(TlArena *a, TlVec *v, int i, const TlVec *with);

#endif
