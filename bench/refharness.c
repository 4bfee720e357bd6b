// refharness: writes a reference-only harness for a .tl file, i.e. what
// `tlc --harness` writes but without the compiled kernels (the reference
// stands in for them). It needs only the front end, so it works for
// programs the pass pipeline cannot compile yet, and with --cublas it checks
// the reference T.gemm lowering against cuBLAS on a GPU.
//
// Build (bench/prepare.sh does this) against a tlc build directory:
//   cc -std=c11 -Iinclude bench/refharness.c BUILD/libtlccore.a -lyaml -lm -o refharness
// Use:  refharness [--cublas] [--iters=N] FILE.tl -o OUT.cu
#include <stdlib.h>
#include <string.h>

#include "tlc/Driver.h"
#include "tlc/Harness.h"

int main(int argc, char **argv) {
  TlOptions o;
  memset(&o, 0, sizeof o);
  o.target = "sm_90";
  TlHarnessOptions ho = {false, 100, 1234, NULL, 0};
  const char *out_path = NULL;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--cublas") == 0)
      ho.cublas = true;
    else if (strncmp(argv[i], "--iters=", 8) == 0)
      ho.iterations = atoi(argv[i] + 8);
    else if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
      out_path = argv[++i];
    else if (argv[i][0] != '-' && !o.input)
      o.input = argv[i];
    else {
      fprintf(stderr, "usage: refharness [--cublas] [--iters=N] FILE.tl -o OUT.cu\n");
      return 2;
    }
  }
  if (!o.input || !out_path || ho.iterations < 1) {
    fprintf(stderr, "usage: refharness [--cublas] [--iters=N] FILE.tl -o OUT.cu\n");
    return 2;
  }
  TlDiag d;
  tl_diag_init(&d, stderr);
  TlArena a;
  tl_arena_init(&a);
  int rc = 1;
  TlModule *m = tl_compile_to_module(&a, &o, &d, false);
  TlBuf out;
  tl_buf_init(&out, &a);
  if (m && tl_emit_harness(&a, m, NULL, &ho, &out, &d)) {
    FILE *f = fopen(out_path, "wb");
    if (f && fwrite(out.data, 1, out.len, f) == out.len && fclose(f) == 0)
      rc = 0;
    else
      fprintf(stderr, "refharness: cannot write '%s'\n", out_path);
  }
  tl_arena_free(&a);
  return rc;
}
