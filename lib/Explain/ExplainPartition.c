// placeholder until the explain-partition tool lands
#include "tlc/Explain.h"
int tl_explain_partition_main(int argc, char **argv) { (void)argc; (void)argv; return 2; }
