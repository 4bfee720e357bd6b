// The partition formula, in one place (lib/Analysis/PartitionPlan.c).
//
// TileLang's default loop partition (loop_partition.cc, PlanLoopPartition):
// for a k-deep T.Parallel nest with extents e0..e(k-1), T threads and vector
// width V,
//   flat   = row-major flatten of (i0..i(k-1)), last index fastest
//   access = flat / V
//   thread = access % T
//   slot   = (access / T) * V + flat % V
// Read it fastest first: lane -> thread -> per-thread serial replication.
// Everything here is closed form: no function enumerates the iteration space,
// so a 2^40-point nest plans as fast as a 16-point one. Used by the partition
// pass, --emit=plan, explain-partition and the unit tests.
#ifndef TLC_PARTITION_PLAN_H
#define TLC_PARTITION_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { TL_MAX_NEST = 8 };

typedef struct TlPartitionPlan {
  int ndims;
  int64_t extents[TL_MAX_NEST];
  int64_t total;        // product of extents
  int64_t threads;      // T
  int64_t vector;       // V
  int64_t accesses;     // ceil(total / V): V-wide accesses in the nest
  int64_t steps;        // ceil(accesses / T): per-thread serial iterations
  int64_t slots;        // steps * V: per-thread slots (the fragment's local extent)
  int64_t threads_used; // min(T, accesses)
  bool guard;           // some (thread, step) pairs fall outside the space
} TlPartitionPlan;

// Fills *p for the default formula. Returns false (with a one-line reason in
// err) when an argument is out of range (ndims, extents < 1, threads < 1,
// vector < 1) or a product overflows int64.
bool tl_partition_plan_default(TlPartitionPlan *p, int ndims, const int64_t *extents,
                               int64_t threads, int64_t vector, char *err, size_t errlen);

int64_t tl_partition_flatten(const TlPartitionPlan *p, const int64_t *index);
void tl_partition_unflatten(const TlPartitionPlan *p, int64_t flat, int64_t *index);

// Forward map of one iteration point.
void tl_partition_point(const TlPartitionPlan *p, const int64_t *index, int64_t *thread,
                        int64_t *slot);

// Inverse map: the iteration point that (thread, slot) covers. Returns false
// when that pair is outside the space (the guard of the emitted code).
bool tl_partition_inverse(const TlPartitionPlan *p, int64_t thread, int64_t slot, int64_t *index);

// How many iteration points `thread` owns (0 when thread >= threads_used).
// A thread's points sit in slots 0..count-1 in increasing flat order, so
// its first points are tl_partition_inverse(p, thread, 0), (.., 1), ...
int64_t tl_partition_thread_count(const TlPartitionPlan *p, int64_t thread);

#endif
