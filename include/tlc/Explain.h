// The explain tools (lib/Explain/): `tlc explain-partition` and
// `tlc explain-pipeline`. They read the IR or the models, never change them.
#ifndef TLC_EXPLAIN_H
#define TLC_EXPLAIN_H

#include "tlc/PartitionPlan.h"
#include "tlc/PipelineModel.h"
#include "tlc/Support.h"

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
int tl_explain_pipeline_main(int argc, char **argv);

/* lib/Driver/ExplainFile.c: the FILE.tl modes of the explain tools; they
   compile the file, then call the renderers above for every loop. */
int tl_driver_explain_partition_file(const char *path, int line, TlExplainFormat f);
int tl_driver_explain_pipeline_file(const char *path, TlExplainFormat f);

#endif
