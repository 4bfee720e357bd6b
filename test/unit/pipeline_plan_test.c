// Unit test of the pipelining pass: for every num_stages s in 1..5 and trip
// count n in 1..7 (n < s included), compile a pipelined copy -> compute loop
// through the real front end and pass pipeline, then check the schedule's
// structure: s - 1 prologue commits, wait_group s - 2 at the top of the loop
// followed by a barrier, every shared tile multi-buffered s times, prologue
// copies only for tiles that exist, a drain after the loop; s = 1 leaves a
// plain loop with no async copies at all.
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "tlc/Ast.h"
#include "tlc/Driver.h"
#include "tlc/Sema.h"

typedef struct Counts {
  int commits_before_loop, waits_in_loop, wait_width, sync_after_wait, drains, cp_async, loops;
  int prologue_producers;
} Counts;

static void count(const TlVec *body, Counts *c, bool in_loop) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_ASYNC_COMMIT && !in_loop)
      c->commits_before_loop++;
    if (s->kind == ST_ASYNC_WAIT && in_loop) {
      c->waits_in_loop++;
      c->wait_width = (int)s->width;
      if (i + 1 < body->len && TL_VEC_AT(*body, TlStmt, i + 1)->kind == ST_SYNC)
        c->sync_after_wait++;
    }
    if (s->kind == ST_ASYNC_WAIT && !in_loop && s->width == 0)
      c->drains++;
    if (s->kind == ST_CP_ASYNC)
      c->cp_async++;
    if (s->kind == ST_SEQ && s->plan.ndims > 0 && !in_loop)
      c->prologue_producers++;
    bool loop = s->kind == ST_FOR && strcmp(s->var->name, "k") == 0;
    if (loop)
      c->loops++;
    count(&s->body, c, in_loop || loop);
    count(&s->else_body, c, in_loop || loop);
  }
}

static TlModule *compile(TlArena *a, const char *text, TlDiag *d) {
  TlSource *src = tl_source_from_string(a, "plan.tl", text);
  TlTarget target;
  char err[256];
  if (!tl_target_load(a, "sm_90", &target, err, sizeof err)) {
    printf("FAIL: %s\n", err);
    return NULL;
  }
  TlTokens toks = tl_lex(a, src, d);
  TlNode *ast = tl_parse(a, toks, d);
  if (d->nerrors)
    return NULL;
  TlModule *m = tl_sema(a, ast, src, &target, NULL, d);
  if (d->nerrors)
    return NULL;
  TlOptions o = {0};
  o.verify_each = true;
  TlBuf dump;
  tl_buf_init(&dump, a);
  if (!tl_run_pipeline(a, m, &o, d, &dump))
    return NULL;
  return m;
}

int main(void) {
  for (int s = 1; s <= 5; s++)
    for (int n = 1; n <= 7; n++) {
      char text[2048];
      snprintf(text, sizeof text,
               "import tilelang.language as T\n"
               "@T.prim_func\n"
               "def k(A: T.Tensor((64, %d), \"float16\"), B: T.Tensor((%d, 64), \"float16\"), "
               "C: T.Tensor((64, 64), \"float32\")):\n"
               "    with T.Kernel(1, threads=128) as bx:\n"
               "        A_s = T.alloc_shared((64, 32), \"float16\")\n"
               "        B_s = T.alloc_shared((32, 64), \"float16\")\n"
               "        C_l = T.alloc_fragment((64, 64), \"float32\")\n"
               "        T.clear(C_l)\n"
               "        for k in T.Pipelined(%d, num_stages=%d):\n"
               "            T.copy(A[0, k * 32], A_s)\n"
               "            T.copy(B[k * 32, 0], B_s)\n"
               "            T.gemm(A_s, B_s, C_l)\n"
               "        T.copy(C_l, C)\n",
               32 * n, 32 * n, n, s);
      TlArena a;
      tl_arena_init(&a);
      TlDiag d;
      tl_diag_init(&d, stdout);
      TlModule *m = compile(&a, text, &d);
      CHECK_MSG(m != NULL, "s=%d n=%d does not compile", s, n);
      if (!m) {
        tl_arena_free(&a);
        continue;
      }
      TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, 0);
      Counts c = {0};
      count(&kn->body, &c, false);
      CHECK_MSG(c.loops == 1, "s=%d n=%d: %d k loops", s, n, c.loops);
      for (int i = 0; i < kn->buffers.len; i++) {
        TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
        if (b->scope == SCOPE_SHARED)
          CHECK_MSG(b->stages == (s > 1 ? s : 1), "s=%d n=%d: %s has %d stages", s, n, b->name,
                    b->stages);
      }
      if (s == 1) {
        CHECK_MSG(c.cp_async == 0 && c.commits_before_loop == 0 && c.waits_in_loop == 0,
                  "s=1 n=%d: async copies in an unpipelined loop", n);
      } else {
        CHECK_MSG(c.commits_before_loop == s - 1, "s=%d n=%d: %d prologue commits", s, n,
                  c.commits_before_loop);
        CHECK_MSG(c.waits_in_loop == 1 && c.wait_width == s - 2,
                  "s=%d n=%d: wait_group %d (%d waits)", s, n, c.wait_width, c.waits_in_loop);
        CHECK_MSG(c.sync_after_wait == 1, "s=%d n=%d: no barrier after the wait", s, n);
        CHECK_MSG(c.drains == 1, "s=%d n=%d: %d drains", s, n, c.drains);
        int expect = 2 * (n < s - 1 ? n : s - 1); // two copies per prologue tile that exists
        CHECK_MSG(c.prologue_producers == expect, "s=%d n=%d: %d prologue copies, expected %d", s,
                  n, c.prologue_producers, expect);
        CHECK_MSG(c.cp_async > 0, "s=%d n=%d: no cp.async", s, n);
      }
      tl_arena_free(&a);
    }
  return check_result("pipeline_plan_test");
}
