// The TMA ring model (lib/Analysis/RingModel.c): a discrete-event schedule of
// a warp-specialized pipelined loop, the producer/consumer form of seed 002's
// copy -> compute model. tlc's warp-specialize pass emits this protocol:
//
//   producer warpgroup, position g (slot g % S):
//     wait empty[slot] (released by the consumers), issue the TMA loads
//   consumer warpgroups, position g:
//     wait full[slot]; issue the wgmma group of g; wgmma.wait_group 1
//     (which completes the group of g - 1); arrive on empty[slot of g - 1]
//   at a tile's last position: wgmma.wait_group 0, release its slot, epilogue
//
// So a slot is released late: the consumers give back the slot of g - 1 only
// once the data of g has arrived (they wait on full[g] first). Per position
// g (t = its tile, the ring continues across a persistent kernel's tiles):
//   issue_g   = max(producer free, release_{g-S})     ready_g = issue_g + latency
//   start_g   = max(end_{g-1} (+ epilogue when g opens a tile), ready_g)
//   end_g     = start_g + compute
//   release_g = end_g at a tile's last position, else max(end_g, ready_{g+1})
//   producer free = issue_g + issue
// With S = 1 the protocol deadlocks (the consumers hold the only slot until
// the next load arrives, which needs that slot), and the model says so.
#ifndef TLC_RING_MODEL_H
#define TLC_RING_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "tlc/Support.h"

typedef struct TlRingModel {
  int64_t iterations; // positions per tile (the pipelined loop's trip count)
  int64_t tiles;      // tiles one block walks (1 unless persistent)
  int64_t issue;      // cycles the producer's loads occupy the copy path per position
  int64_t latency;    // cycles from issue to the full barrier's phase completing
  int64_t compute;    // tensor-core cycles of one position's wgmma group
  int64_t epilogue;   // consumer cycles between a tile's last wgmma and the next tile
} TlRingModel;

// One position of the ring, in cycles.
typedef struct TlRingStep {
  int64_t tile, k;      // which tile, which iteration of it
  int slot, phase;      // ring slot and the full barrier's parity the consumers wait for
  int64_t empty_wait;   // cycles the producer waited on empty[slot]
  int64_t issue, ready; // loads issued; full[slot] completes
  int64_t full_wait;    // cycles the tensor core sat idle waiting on full[slot]
  int64_t start, end;   // the wgmma group
  int64_t release;      // consumers arrive on empty[slot]
  int in_flight;        // slots loaded or loading, not yet consumed, as g is issued (incl. g)
} TlRingStep;

typedef struct TlRingSummary {
  int stages;
  bool deadlock;                        // stages == 1 and a tile has more than one position
  int64_t positions;                    // iterations * tiles
  int64_t makespan;                     // last end + the last tile's epilogue
  int64_t producer_waits, empty_cycles; // positions whose issue waited on a release, cycles waited
  int64_t consumer_waits, full_cycles;  // positions whose wgmma waited on data, cycles waited
  double compute_utilization;           // positions * compute / makespan
  double mean_in_flight;                // mean of in_flight over all positions
} TlRingSummary;

#define TL_RING_MAX_POSITIONS INT64_C(10000000)

// Simulates every position but keeps only the first `keep` in *steps (an
// arena array of min(keep, positions)); s describes the whole schedule.
// False on stages < 1, negative costs, iterations or tiles < 0, more than
// TL_RING_MAX_POSITIONS positions, or overflow (err says which). A deadlock
// is not an error: s->deadlock is set and no step is kept.
bool tl_ring_simulate(TlArena *a, const TlRingModel *m, int stages, int64_t keep,
                      TlRingStep **steps, TlRingSummary *s, char *err, size_t errlen);

#endif
