// --emit=plan: the decisions of the passes as YAML (written with libyaml):
// per kernel its launch shape, shared bytes, every partitioned loop (where
// it came from, extents, vector width, steps, guard, layout) and every
// T.Pipelined loop. Tools and tests read this instead of scraping CUDA.
// A loop that follows a fragment layout lists the layout and, for every
// element, the thread and register holding it (lib/Explain/FragNest.c maps
// them with the layout's own closed form).
#include <string.h>
#include <yaml.h>

#include "tlc/CodeGen.h"
#include "tlc/Explain.h"
#include "tlc/FragLayout.h"

typedef struct Y {
  yaml_emitter_t em;
  yaml_event_t ev;
  TlBuf *out;
  bool ok;
} Y;

static int write_handler(void *data, unsigned char *buffer, size_t size) {
  tl_buf_write((TlBuf *)data, (const char *)buffer, size);
  return 1;
}

static void emit(Y *y) {
  if (y->ok && !yaml_emitter_emit(&y->em, &y->ev))
    y->ok = false;
}

static void scalar(Y *y, const char *s) {
  yaml_scalar_event_initialize(&y->ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1,
                               YAML_PLAIN_SCALAR_STYLE);
  emit(y);
}

static void key_str(Y *y, const char *k, const char *v) {
  scalar(y, k);
  scalar(y, v);
}

static void key_int(Y *y, const char *k, long long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  key_str(y, k, buf);
}

static void map_begin(Y *y, bool flow) {
  yaml_mapping_start_event_initialize(&y->ev, NULL, NULL, 1,
                                      flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
  emit(y);
}

static void map_end(Y *y) {
  yaml_mapping_end_event_initialize(&y->ev);
  emit(y);
}

static void seq_begin(Y *y, bool flow) {
  yaml_sequence_start_event_initialize(&y->ev, NULL, NULL, 1,
                                       flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
  emit(y);
}

static void seq_end(Y *y) {
  yaml_sequence_end_event_initialize(&y->ev);
  emit(y);
}

static void int_seq(Y *y, const int64_t *v, int n) {
  seq_begin(y, true);
  for (int i = 0; i < n; i++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%lld", (long long)v[i]);
    scalar(y, buf);
  }
  seq_end(y);
}

// The grid: each extent a number, or the expression of runtime sizes the
// launcher computes ("(m + 63) // 64").
static void grid_seq(Y *y, const TlKernel *k) {
  seq_begin(y, true);
  for (int d = 0; d < 3; d++) {
    TlBuf text;
    tl_buf_init(&text, y->out->arena);
    if (k->grid_const[d] > 0)
      tl_buf_printf(&text, "%lld", (long long)k->grid_const[d]);
    else
      tl_ir_print_expr(&text, k->grid[d]);
    scalar(y, text.data);
  }
  seq_end(y);
}

// The runtime sizes, by name, and the tensors whose shapes use them.
static void runtime_sizes(Y *y, const TlKernel *k) {
  if (k->sizes.len == 0) return;
  scalar(y, "sizes");
  seq_begin(y, true);
  for (int i = 0; i < k->sizes.len; i++)
    scalar(y, TL_VEC_AT(k->sizes, TlVar, i)->name);
  seq_end(y);
  scalar(y, "tensors");
  seq_begin(y, false);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    map_begin(y, true);
    key_str(y, "name", b->name);
    scalar(y, "shape");
    seq_begin(y, true);
    for (int d = 0; d < b->ndims; d++) {
      char num[32];
      snprintf(num, sizeof num, "%lld", (long long)b->shape[d]);
      scalar(y, b->dyn[d] ? b->dyn[d]->name : num);
    }
    seq_end(y);
    map_end(y);
  }
  seq_end(y);
}

static void loops(Y *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_SEQ && s->plan.ndims > 0) {
      const TlPartitionPlan *p = &s->plan;
      map_begin(y, true);
      key_int(y, "line", s->plan_loc.line);
      key_int(y, "col", s->plan_loc.col);
      key_str(y, "kind", "parallel");
      key_str(y, "origin", tl_origin_name(s->plan_origin));
      scalar(y, "extents");
      int_seq(y, p->extents, p->ndims);
      key_int(y, "threads", p->threads);
      key_int(y, "vector", p->vector);
      key_int(y, "steps", p->steps);
      key_int(y, "threads_used", p->threads_used);
      key_str(y, "guard", p->guard ? "true" : "false");
      key_str(y, "layout", s->plan_has_layout ? "loop_layout" : "default");
      map_end(y);
      continue;
    }
    if (s->kind == ST_SEQ && s->plan_frag) {
      TlFragNest n;
      tl_frag_nest_build(y->out->arena, &n, s);
      // A block mapping: the element list is long.
      map_begin(y, false);
      key_int(y, "line", s->plan_loc.line);
      key_int(y, "col", s->plan_loc.col);
      key_str(y, "kind", "parallel");
      key_str(y, "origin", tl_origin_name(s->plan_origin));
      if (y->ok)
        tl_explain_fragment_yaml_fields(&y->em, &n, tl_layout_describe(y->out->arena, s->plan_frag),
                                        tl_explain_fragment_name(s), true);
      map_end(y);
      continue;
    }
    loops(y, &s->body);
    loops(y, &s->else_body);
  }
}

static void pipelines(Y *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_FOR && s->loop_kind == LOOP_PIPELINED) {
      map_begin(y, false);
      key_int(y, "line", s->loc.line);
      key_int(y, "col", s->loc.col);
      key_int(y, "num_stages", s->num_stages);
      key_int(y, "applied_stages", s->applied_stages ? s->applied_stages : 1);
      int64_t v[64];
      int n = s->order.len < 64 ? s->order.len : 64;
      for (int j = 0; j < n; j++)
        v[j] = (int64_t)(intptr_t)s->order.items[j];
      scalar(y, "order");
      int_seq(y, v, n);
      n = s->stage.len < 64 ? s->stage.len : 64;
      for (int j = 0; j < n; j++)
        v[j] = (int64_t)(intptr_t)s->stage.items[j];
      scalar(y, "stage");
      int_seq(y, v, n);
      scalar(y, "buffers");
      seq_begin(y, true);
      for (int j = 0; j < s->pipe_buffers.len; j++) {
        const TlBuffer *b = TL_VEC_AT(s->pipe_buffers, TlBuffer, j);
        int64_t shape[TL_MAX_DIMS + 1];
        int ns = 0;
        shape[ns++] = b->stages;
        for (int d = 0; d < b->ndims; d++)
          shape[ns++] = b->shape[d];
        map_begin(y, true);
        key_str(y, "name", b->name);
        scalar(y, "shape");
        int_seq(y, shape, ns);
        key_int(y, "bytes", tl_buffer_bytes(b));
        map_end(y);
      }
      seq_end(y);
      map_end(y);
    }
    pipelines(y, &s->body);
    pipelines(y, &s->else_body);
  }
}

// Which instructions each T.gemm runs on, and why not wgmma when it does
// not (the rule is in lib/Transforms/LayoutInference.c, wgmma_refusal).
static void gemms(Y *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM) {
      map_begin(y, true);
      key_int(y, "line", s->loc.line);
      key_int(y, "col", s->loc.col);
      key_str(y, "engine", s->use_wgmma ? "wgmma" : s->use_mma ? "mma.sync" : "cuda-cores");
      if (s->c->layout)
        key_str(y, "accumulator", tl_layout_describe(y->out->arena, s->c->layout));
      if (s->use_wgmma)
        key_str(y, "in_flight", s->wgmma_in_flight ? "one group across the pipeline barrier" : "none");
      else if (s->engine_why)
        key_str(y, "why_not_wgmma", s->engine_why);
      map_end(y);
    }
    gemms(y, &s->body);
    gemms(y, &s->else_body);
  }
}

// The roles of a warp-specialized kernel (lib/Transforms/WarpSpecialize.c):
// who runs what, the ring and its barriers, the register split, the tensor
// maps; or why a pipelined kernel stayed on cp.async.
static void warp_specialization(Y *y, const TlKernel *k) {
  if (!k->ring_stages && !k->ws_why)
    return;
  scalar(y, "warp_specialization");
  map_begin(y, false);
  if (!k->ring_stages) {
    key_str(y, "applied", "no");
    key_str(y, "why_not", k->ws_why);
    map_end(y);
    return;
  }
  key_str(y, "applied", "yes");
  key_int(y, "compute_threads", k->threads[0]);
  key_int(y, "producer_threads", 128);
  key_str(y, "producer", "one elected thread issues the TMA loads of each stage");
  key_int(y, "ring_stages", k->ring_stages);
  key_int(y, "blocks_per_sm", k->blocks_per_sm);
  int64_t bytes = 0;
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
    bytes += tl_buffer_elems(t->tile) * (tl_dtype_bits(t->tile->dtype) / 8);
  }
  key_str(y, "full_barrier", tl_arena_printf(y->out->arena, "1 arrival + %lld bytes of TMA transactions per stage",
                                             (long long)bytes));
  key_str(y, "empty_barrier", tl_arena_printf(y->out->arena, "%lld arrivals (every compute thread)",
                                              (long long)k->threads[0]));
  scalar(y, "registers");
  map_begin(y, true);
  key_int(y, "compute", k->consumer_regs);
  key_int(y, "producer", k->producer_regs);
  map_end(y);
  scalar(y, "tensor_maps");
  seq_begin(y, false);
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
    map_begin(y, true);
    key_str(y, "tensor", t->global->name);
    key_str(y, "tile", t->tile->name);
    scalar(y, "box");
    int_seq(y, t->box, t->rank);
    key_int(y, "loads_per_stage", t->tile->shape[1] / t->panel_cols);
    key_int(y, "swizzle_bytes", t->swizzle_bytes);
    map_end(y);
  }
  seq_end(y);
  map_end(y);
}

bool tl_emit_plan(const TlModule *m, TlBuf *out, TlDiag *d) {
  Y y = {0};
  y.out = out;
  y.ok = true;
  if (!yaml_emitter_initialize(&y.em)) {
    tl_error_noloc(d, "cannot initialise the YAML emitter");
    return false;
  }
  yaml_emitter_set_output(&y.em, write_handler, out);
  yaml_emitter_set_width(&y.em, 200);
  yaml_stream_start_event_initialize(&y.ev, YAML_UTF8_ENCODING);
  emit(&y);
  yaml_document_start_event_initialize(&y.ev, NULL, NULL, NULL, 1);
  emit(&y);
  map_begin(&y, false);
  key_str(&y, "target", m->target_name);
  scalar(&y, "kernels");
  seq_begin(&y, false);
  for (int k = 0; k < m->kernels.len; k++) {
    const TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, k);
    map_begin(&y, false);
    key_str(&y, "name", kn->name);
    key_int(&y, "line", kn->loc.line);
    key_int(&y, "threads", kn->threads[0] * kn->threads[1] * kn->threads[2]);
    scalar(&y, "grid");
    grid_seq(&y, kn);
    runtime_sizes(&y, kn);
    key_int(&y, "shared_bytes", kn->shared_bytes);
    scalar(&y, "shared");
    seq_begin(&y, false);
    for (int i = 0; i < kn->buffers.len; i++) {
      TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
      if (b->scope != SCOPE_SHARED)
        continue;
      map_begin(&y, true);
      key_str(&y, "name", b->name);
      key_str(&y, "dtype", tl_dtype_name(b->dtype));
      scalar(&y, "shape");
      int64_t shape[TL_MAX_DIMS + 1];
      int n = 0;
      if (b->stages > 1)
        shape[n++] = b->stages;
      for (int j = 0; j < b->ndims; j++)
        shape[n++] = b->shape[j];
      int_seq(&y, shape, n);
      key_int(&y, "offset", b->shared_offset);
      key_int(&y, "bytes", tl_buffer_bytes(b));
      map_end(&y);
    }
    seq_end(&y);
    scalar(&y, "loops");
    seq_begin(&y, false);
    loops(&y, &kn->body);
    seq_end(&y);
    scalar(&y, "pipelines");
    seq_begin(&y, false);
    pipelines(&y, &kn->body);
    seq_end(&y);
    scalar(&y, "gemms");
    seq_begin(&y, false);
    gemms(&y, &kn->body);
    seq_end(&y);
    warp_specialization(&y, kn);
    map_end(&y);
  }
  seq_end(&y);
  map_end(&y);
  yaml_document_end_event_initialize(&y.ev, 1);
  emit(&y);
  yaml_stream_end_event_initialize(&y.ev);
  emit(&y);
  yaml_emitter_flush(&y.em);
  if (!y.ok)
    tl_error_noloc(d, "YAML emitter failed: %s", y.em.problem ? y.em.problem : "unknown problem");
  yaml_emitter_delete(&y.em);
  return y.ok;
}
