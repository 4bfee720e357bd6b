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

// Largest iteration count tl_pipe_simulate and tl_pipe_simulate_prefix accept.
#define TL_PIPE_MAX_ITERATIONS INT64_C(10000000)

// The whole-schedule numbers of one simulation (what a summary row prints).
typedef struct TlPipeSummary {
  int stages;
  int64_t makespan;
  double issue_interval, compute_interval, compute_utilization, copy_utilization;
} TlPipeSummary;

void tl_pipe_summarize(const TlPipeTimeline *t, TlPipeSummary *s);
// Simulates all m->iterations but keeps only the first `keep` of them in t
// (t->model.iterations = min(keep, m->iterations)); s describes the whole
// schedule. A greedy schedule never looks ahead, so t is exactly the
// schedule of the shorter loop. Memory is O(keep + min(stages, iterations)),
// which lets a 10^7-iteration table print without 10^7-entry arrays.
bool tl_pipe_simulate_prefix(TlArena *a, const TlPipeModel *m, int stages, int64_t keep,
                             TlPipeTimeline *t, TlPipeSummary *s, char *err, size_t errlen);
// a / b for a, b >= 0, b > 0, rounded once to the nearest double (ties to
// even), like Python's int / int; the tables depend on that last bit.
double tl_pipe_ratio(int64_t a, int64_t b);

#endif
