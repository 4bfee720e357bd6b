// placeholder until the explain-pipeline tool lands
#include "tlc/Explain.h"
int tl_explain_pipeline_main(int argc, char **argv) { (void)argc; (void)argv; return 2; }
