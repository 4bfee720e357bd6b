// Fragment layouts (lib/Analysis/FragLayout.c): constructors and the closed
// forms the passes need. A layout maps buffer coordinates to (thread, local
// register); the passes walk it backwards: for each local register l of
// thread tid, which coordinates does the thread hold?
#ifndef TLC_FRAG_LAYOUT_H
#define TLC_FRAG_LAYOUT_H

#include "tlc/IR.h"

// The mma.sync m16n8 accumulator of an (m x n) tile, warps tiled wm x wn
// (each warp owns a contiguous (m/wm) x (n/wn) block of 16x8 atoms).
TlFragLayout *tl_layout_gemm_c(TlArena *a, int64_t m, int64_t n, int64_t threads, int64_t wm,
                               int64_t wn);
// The wgmma accumulator of an (m x n) tile over threads/128 warpgroups, each
// taking whole 64-row slabs (m a multiple of 64 * warpgroups).
TlFragLayout *tl_layout_wgmma_c(TlArena *a, int64_t m, int64_t n, int64_t threads);
// Rows of `cols` elements shared by g threads (g: the largest power of two
// up to 32 dividing both cols and threads); the threads/g row groups take
// rows round-robin. A 1-D buffer is rows x 1.
TlFragLayout *tl_layout_rows(TlArena *a, int64_t rows, int64_t cols, int64_t threads);
// A 1-D buffer over the rows of `parent`, replicated over each row's owners.
TlFragLayout *tl_layout_row_of(TlArena *a, const TlFragLayout *parent);

bool tl_layout_equal(const TlFragLayout *x, const TlFragLayout *y);
// Do x and y spread rows over threads the same way (so one row fragment
// serves both)? True for equal layouts, and for mma accumulators of equal
// rows and warp tiling but different widths (S and O of an attention tile).
bool tl_layout_same_rows(const TlFragLayout *x, const TlFragLayout *y);
const char *tl_layout_describe(TlArena *a, const TlFragLayout *l);

// The coordinates (row, col; ROW_OF: row only) that thread `tid` holds in
// register `local`. *guard is set to a condition when some (tid, local)
// pairs fall outside the buffer, else NULL.
void tl_layout_coords(TlArena *a, const TlFragLayout *l, TlExpr *tid, TlExpr *local,
                      TlExpr **coords, TlExpr **guard, TlLoc loc);
// The ROW_OF register holding the row of parent register `parent_local`.
TlExpr *tl_layout_row_local(TlArena *a, const TlFragLayout *parent, TlExpr *parent_local,
                            TlLoc loc);
// For ROW_OF: true on exactly one replica of each row (who writes memory).
TlExpr *tl_layout_primary_replica(TlArena *a, const TlFragLayout *row_of, TlExpr *tid, TlLoc loc);
// The xor-shuffle offsets that combine the lanes sharing a row of `parent`
// (within a warp); returns how many. False in *ok when a row spans warps.
int tl_layout_row_shuffles(const TlFragLayout *parent, int64_t *offsets, bool *ok);

#endif
