// tlc's command line: subcommands go to their tools, everything else to the
// compiler driver (lib/Driver/Driver.c). The tools get the driver's compile
// function for their FILE modes, so lib/Explain does not depend on lib/Driver.
#include <string.h>

#include "tlc/Driver.h"
#include "tlc/Explain.h"

int main(int argc, char **argv) {
  if (argc >= 2 && strcmp(argv[1], "explain-partition") == 0)
    return tl_explain_partition_main(argc - 1, argv + 1, tl_compile_file);
  if (argc >= 2 && strcmp(argv[1], "explain-pipeline") == 0)
    return tl_explain_pipeline_main(argc - 1, argv + 1, tl_compile_file);
  if (argc >= 2 && strcmp(argv[1], "tune") == 0)
    return tl_tune_main(argc - 1, argv + 1);
  return tl_driver_main(argc, argv);
}
