// The software-pipeline model (lib/Analysis/PipelineModel.c): a discrete-event
// greedy list schedule of a copy -> compute loop over `stages` buffer slots,
// the model of seed 002. Used by explain-pipeline and the num_stages advisor.
//
// Per iteration i (slot = i % stages):
//   issue = max(copy engine free, slot free)      ready = issue + latency
//   start = max(compute unit free, ready)          end   = start + compute
//   copy engine frees at issue + issue_cost; compute unit at end; slot at end.
#ifndef TLC_PIPELINE_MODEL_H
#define TLC_PIPELINE_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "tlc/Support.h"

typedef struct TlPipeModel {
  int64_t iterations; // n_iters
  int64_t issue;      // cycles the copy engine is busy per iteration
  int64_t latency;    // cycles from issue to data ready
  int64_t compute;    // cycles the compute unit is busy per iteration
} TlPipeModel;

typedef struct TlPipeTimeline {
  int stages;
  TlPipeModel model;
  int64_t *copy_issue, *copy_ready, *compute_start, *compute_end; // [iterations]
} TlPipeTimeline;

// Simulates; arrays are allocated in the arena. False on stages < 1, negative
// costs or iterations < 0, or arithmetic overflow (err says which).
bool tl_pipe_simulate(TlArena *a, const TlPipeModel *m, int stages, TlPipeTimeline *t, char *err,
                      size_t errlen);
int64_t tl_pipe_makespan(const TlPipeTimeline *t);
double tl_pipe_issue_interval(const TlPipeTimeline *t);
double tl_pipe_compute_interval(const TlPipeTimeline *t);
double tl_pipe_compute_utilization(const TlPipeTimeline *t);
double tl_pipe_copy_utilization(const TlPipeTimeline *t);
// 1 + ceil(latency / max(compute, 1)).
int64_t tl_pipe_required_depth(const TlPipeModel *m);

#endif
