// The explain tools (lib/Explain/): `tlc explain-partition` and
// `tlc explain-pipeline`. They read the IR or the models, never change them.
#ifndef TLC_EXPLAIN_H
#define TLC_EXPLAIN_H

#include "tlc/PartitionPlan.h"
#include "tlc/PipelineModel.h"
#include "tlc/Support.h"
#include "tlc/Sema.h"

typedef enum { TL_EXPLAIN_TABLE, TL_EXPLAIN_YAML, TL_EXPLAIN_SVG } TlExplainFormat;

/* lib/Explain/ExplainPartition.c */
// Renders one plan. `title` (may be NULL) names where the plan comes from,
// e.g. "kernel add, T.Parallel at add.tl:12:9".
void tl_explain_partition_render(TlBuf *out, const TlPartitionPlan *p, TlExplainFormat f,
                                 const char *title);
// The seed's --compare: equal total work, different nest shapes.
void tl_explain_partition_compare(TlBuf *out, int64_t threads, int64_t vector, TlExplainFormat f);
// `tlc explain-partition ARGS...` (argv[0] is "explain-partition"). Returns the exit status.
int tl_explain_partition_main(int argc, char **argv);

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
int tl_explain_pipeline_main(int argc, char **argv);

/* lib/Driver/ExplainFile.c: the FILE.tl modes of the explain tools; they
   compile the file, then call the renderers above for every loop. */
// `sema` (may be NULL) carries --call and -D for TileLang Python files.
int tl_driver_explain_partition_file(const char *path, const TlSemaOptions *sema, int line,
                                     TlExplainFormat f);
int tl_driver_explain_pipeline_file(const char *path, const TlSemaOptions *sema,
                                    TlExplainFormat f);

#endif
