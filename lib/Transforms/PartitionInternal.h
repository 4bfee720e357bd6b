// What the three files of the partition pass share: Partition.c (the
// default formula and the driver of the pass), PartitionLayout.c (nests
// with loop_layout=) and PartitionFragment.c (nests over fragments and
// reductions). One declaration each, instead of one in every file.
#ifndef TLC_PARTITION_INTERNAL_H
#define TLC_PARTITION_INTERNAL_H

#include "tlc/IR.h"

/* Partition.c */
// The linear thread index of the block (threadIdx.x + y * X + z * X * Y).
TlExpr *tl_partition_thread_id(TlArena *a, const TlKernel *k, TlLoc loc);

/* PartitionLayout.c */
TlStmt *tl_partition_layout_nest(TlArena *a, TlKernel *k, TlStmt *nest, TlDiag *d, int serial);
int64_t tl_layout_default_width(const TlKernel *k, const TlStmt *nest);

/* PartitionFragment.c */
bool tl_nest_touches_fragment(const TlStmt *nest);
TlStmt *tl_partition_fragment_nest(TlArena *a, TlKernel *k, TlStmt *nest, TlDiag *d);
TlStmt *tl_lower_reduce(TlArena *a, TlKernel *k, TlStmt *red);
bool tl_check_no_fragment_access(const TlStmt *s, TlDiag *d);

#endif
