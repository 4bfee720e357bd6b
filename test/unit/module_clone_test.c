// Unit test of tl_module_clone (lib/IR/Clone.c): a copy taken after sema
// prints exactly as the module did then, even after the whole pass pipeline
// has rewritten the original (stages, layouts, swizzles, partitioned loops),
// so nothing the passes change is shared between the two.
#include <string.h>

#include "check.h"
#include "tlc/Driver.h"

static const char *const examples[] = {
    "elementwise_add.tl",  "gemm.tl",    "gemm_bias_relu.tl", "gemm_fast.tl", "attention_tile.tl",
    "pipelined_rowsum.tl", "softmax.tl",
};

static const char *print(TlArena *a, const TlModule *m) {
  TlBuf out;
  tl_buf_init(&out, a);
  tl_buf_puts(&out, "");
  tl_ir_print_module(&out, m);
  return out.data;
}

static void check_example(const char *name) {
  TlArena a;
  tl_arena_init(&a);
  TlDiag d;
  tl_diag_init(&d, stderr);
  char err[512];
  const char *path = tl_arena_printf(&a, "%s/examples/%s", TLC_SOURCE_DIR, name);
  TlSource *src = tl_source_read(&a, path, err, sizeof err);
  TlTarget target;
  TlFront front;
  CHECK(src && tl_target_load(&a, "sm_90a", &target, err, sizeof err));
  if (src && tl_front_half(&a, src, &target, NULL, TL_FRONT_MODULE, &d, &front)) {
    const char *after_sema = print(&a, front.module);
    TlModule *copy = tl_module_clone(&a, front.module);
    CHECK(strcmp(print(&a, copy), after_sema) == 0);
    TlOptions o = {0};
    o.verify_each = true;
    TlBuf dump;
    tl_buf_init(&dump, &a);
    CHECK(tl_run_pipeline(&a, front.module, &o, &d, &dump));
    // The passes changed the original, and the copy is still sema's module.
    CHECK(strcmp(print(&a, front.module), after_sema) != 0);
    CHECK(strcmp(print(&a, copy), after_sema) == 0);
  } else {
    fprintf(stderr, "%s: does not compile\n", path);
    failures++;
  }
  tl_arena_free(&a);
}

int main(void) {
  for (size_t i = 0; i < sizeof examples / sizeof *examples; i++)
    check_example(examples[i]);
  return check_result("module_clone_test");
}
