// The explain tools (lib/Explain/): `tlc explain-partition` and
// `tlc explain-pipeline`. They read the IR or the models, never change them.
// They sit below lib/Driver: a FILE is compiled by a function the caller
// passes in (tools/tlc/main.c passes the driver's tl_compile_file).
#ifndef TLC_EXPLAIN_H
#define TLC_EXPLAIN_H

#include "tlc/IR.h"
#include "tlc/PartitionPlan.h"
#include "tlc/PipelineModel.h"
#include "tlc/RingModel.h"
#include "tlc/Support.h"
#include "tlc/Sema.h"

typedef enum { TL_EXPLAIN_TABLE, TL_EXPLAIN_YAML, TL_EXPLAIN_SVG } TlExplainFormat;

// Compiles the file at `path` for the target named `target` through every
// pass; NULL after errors (reported to d).
typedef TlModule *(*TlExplainCompileFn)(TlArena *a, const char *path, const TlSemaOptions *sema,
                                        const char *target, TlDiag *d);

// A FILE mode's input: the file, its --call / -D (`sema`, may be NULL), its
// --target (NULL: sm_90a) and how to compile it.
typedef struct TlExplainInput {
  const char *path;
  const TlSemaOptions *sema;
  const char *target;
  TlExplainCompileFn compile;
} TlExplainInput;

/* lib/Explain/ExplainPartition.c */
// Renders one plan. `title` (may be NULL) names where the plan comes from,
// e.g. "kernel add, T.Parallel at add.tl:12:9".
void tl_explain_partition_render(TlBuf *out, const TlPartitionPlan *p, TlExplainFormat f,
                                 const char *title);
// The seed's --compare: equal total work, different nest shapes.
void tl_explain_partition_compare(TlBuf *out, int64_t threads, int64_t vector, TlExplainFormat f);
// `tlc explain-partition ARGS...` (argv[0] is "explain-partition"). Returns the exit status.
// `compile` serves FILE mode.
int tl_explain_partition_main(int argc, char **argv, TlExplainCompileFn compile);

/* lib/Explain/FragNest.c: where the elements of a fragment nest live */
// A T.Parallel that follows a fragment layout (a partitioned ST_SEQ with
// plan_frag): every element of the nest with the threads that hold it and
// the register, from the layout's closed form (tl_layout_coords), the same
// one the partition pass emits. Elements are numbered row-major (flat).
typedef struct TlFragNest {
  const TlFragLayout *layout; // the layout the nest follows
  int ndims;
  int64_t extents[2];   // the nest's extents (may be less than the fragment's)
  int64_t elements;     // points of the nest
  int64_t threads;      // threads of the block
  int64_t registers;    // registers per thread (the layout's locals)
  bool mapped;          // false past TL_FRAG_NEST_MAX_PAIRS: the fields below are unset
  int64_t replicas;     // most threads holding one element (1 unless a replicated row)
  int64_t threads_used; // threads holding at least one element
  bool guard;           // some (thread, register) pairs hold no element of the nest
  int64_t *pair_elem;   // [thread * registers + register]: flat element, or -1
  int64_t *first;       // [elements + 1]: where each element's holders start in owners
  int64_t *owners;      // holders as thread * registers + register, by element then thread
} TlFragNest;
// Maps every element unless threads x registers is above
// TL_FRAG_NEST_MAX_PAIRS, more than a register file holds (1024 threads x 255
// registers), where only the fields above `mapped` are filled.
void tl_frag_nest_build(TlArena *a, TlFragNest *n, const TlStmt *seq);
#define TL_FRAG_NEST_MAX_PAIRS INT64_C(262144)
void tl_frag_nest_index(const TlFragNest *n, int64_t flat, int64_t *idx);
// How many threads hold element `flat`, and the k-th of them (thread order).
int64_t tl_frag_nest_holders(const TlFragNest *n, int64_t flat);
void tl_frag_nest_holder(const TlFragNest *n, int64_t flat, int64_t k, int64_t *thread,
                         int64_t *reg);
// The element (flat) in register `reg` of `thread`, or -1.
int64_t tl_frag_nest_element(const TlFragNest *n, int64_t thread, int64_t reg);
int64_t tl_frag_nest_thread_count(const TlFragNest *n, int64_t thread);

/* lib/Explain/ExplainPartition.c, fragment nests */
// Renders one fragment nest: the layout it follows (`follows`, e.g.
// "gemm_c(128x128, warps 2x2, 128 regs)"), the fragment it comes from
// (`fragment`, may be NULL) and where its elements live. The table shows a
// selection as for plans, yaml every (element, holder) pair, svg the grid
// coloured by thread.
void tl_explain_fragment_render(TlBuf *out, const TlFragNest *n, TlExplainFormat f,
                                const char *title, const char *follows, const char *fragment);
struct TlYaml;
// The fields of a fragment nest into an open YAML mapping (shared with
// --emit=plan): extents, threads, layout: fragment, fragment, follows,
// elements, registers, replicas, threads_used, guard, points. A point is
// {index, flat, thread, register}, or with `compact` [i, j, thread, register].
void tl_explain_fragment_yaml_fields(struct TlYaml *y, const TlFragNest *n, const char *follows,
                                     const char *fragment, bool compact);
// The fragment a partitioned fragment nest follows: the first it stores to,
// else the first it reads, with exactly that layout; NULL when none has it
// (a nest may follow the parent tile of a row vector it reads).
const char *tl_explain_fragment_name(const TlStmt *seq);

/* lib/Explain/ExplainPipeline.c */
// Renders the schedules of model m for each of the `nstages` stage counts (in
// that order; the table also prints the seed's summary over sorted({1} u
// stages)). The table format is seed 002's output; yaml lists every
// iteration (at most TL_EXPLAIN_PIPELINE_YAML_MAX); svg draws one Gantt chart
// per stage count. `title` (may be NULL) names where the model comes from.
// False, with a one-line reason in err and nothing appended, on an invalid
// model, a stage count < 1, or cycle counts that overflow.
bool tl_explain_pipeline_render(TlBuf *out, const TlPipeModel *m, const int *stages, int nstages,
                                TlExplainFormat f, const char *title, char *err, size_t errlen);
#define TL_EXPLAIN_PIPELINE_YAML_MAX INT64_C(1000000)
// `tlc explain-pipeline ARGS...` (argv[0] is "explain-pipeline"). Returns the exit status.
// `compile` serves FILE mode.
int tl_explain_pipeline_main(int argc, char **argv, TlExplainCompileFn compile);

/* lib/Explain/ExplainRing.c */
// Renders the TMA ring model's schedules (lib/Analysis/RingModel.c) for each
// stage count, in that order: the table shows the first positions (and, for
// several tiles, those around the first tile boundary) and a summary; yaml
// lists every position (at most TL_EXPLAIN_RING_YAML_MAX). No SVG form yet.
// False, with a one-line reason in err and nothing appended, on an invalid
// model or stage count, overflow, or svg.
bool tl_explain_ring_render(TlBuf *out, const TlRingModel *m, const int *stages, int nstages,
                            TlExplainFormat f, const char *title, char *err, size_t errlen);
#define TL_EXPLAIN_RING_YAML_MAX INT64_C(100000)

/* lib/Explain/ExplainFile.c: the FILE.tl modes of the explain tools; they
   compile the file with in->compile, then call the renderers above for every
   loop. Return the exit status. */
int tl_explain_partition_file(const TlExplainInput *in, int line, TlExplainFormat f);
int tl_explain_pipeline_file(const TlExplainInput *in, TlExplainFormat f);

#endif
