// The FILE.tl modes of the explain tools: compile the file to Tile IR, plan
// every loop, and render each plan with the explain renderers.
#include "tlc/Explain.h"

int tl_driver_explain_partition_file(const char *path, int line, TlExplainFormat f) {
  (void)line;
  (void)f;
  fprintf(stderr, "tlc: error: explain-partition %s: file mode is not implemented yet\n", path);
  return 1;
}

int tl_driver_explain_pipeline_file(const char *path, TlExplainFormat f) {
  (void)f;
  fprintf(stderr, "tlc: error: explain-pipeline %s: file mode is not implemented yet\n", path);
  return 1;
}
