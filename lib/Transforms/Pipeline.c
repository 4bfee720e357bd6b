// pipeline: T.Pipelined loops. Today a pipelined loop runs as a serial loop
// with no multi-buffering (the num_stages = 1 schedule, which is correct
// for any body); the loop keeps its num_stages so --emit=plan can report
// it. Multi-buffered async schedules land with the pipelining issue (#5).
#include "tlc/Passes.h"

static void visit(TlArena *a, TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_FOR && s->loop_kind == LOOP_PIPELINED && s->num_stages > 1) {
      TlStmt *note = tl_stmt_new(a, ST_COMMENT, s->loc);
      note->text = tl_arena_printf(
          a, "T.Pipelined(num_stages=%d) at line %d runs unpipelined (1 stage) for now", s->num_stages,
          s->loc.line);
      // Insert the note before the loop.
      tl_vec_push(a, body, NULL);
      for (int j = body->len - 1; j > i; j--)
        body->items[j] = body->items[j - 1];
      body->items[i] = note;
      i++;
    }
    visit(a, &s->body);
    visit(a, &s->else_body);
  }
}

bool tl_pipeline(TlArena *a, TlModule *m, TlDiag *d) {
  (void)d;
  for (int k = 0; k < m->kernels.len; k++)
    visit(a, &TL_VEC_AT(m->kernels, TlKernel, k)->body);
  return true;
}
