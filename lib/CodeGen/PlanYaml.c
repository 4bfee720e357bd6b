// --emit=plan: the decisions of the passes as YAML (written with libyaml):
// per kernel its launch shape, shared bytes, every partitioned loop (where
// it came from, extents, vector width, steps, guard, layout) and every
// T.Pipelined loop. Tools and tests read this instead of scraping CUDA.
// A loop that follows a fragment layout lists the layout and, for every
// element, the thread and register holding it (lib/Explain/FragNest.c maps
// them with the layout's own closed form).
#include <string.h>

#include "tlc/CodeGen.h"
#include "tlc/Explain.h"
#include "tlc/FragLayout.h"
#include "tlc/Yaml.h"

// The grid: each extent a number, or the expression of runtime sizes the
// launcher computes ("(m + 63) // 64").
static void grid_seq(TlYaml *y, const TlKernel *k) {
  tl_yaml_seq(y, true);
  for (int d = 0; d < 3; d++) {
    TlBuf text;
    tl_buf_init(&text, y->out->arena);
    if (k->grid_const[d] > 0)
      tl_buf_printf(&text, "%lld", (long long)k->grid_const[d]);
    else
      tl_ir_print_expr(&text, k->grid[d]);
    tl_yaml_scalar(y, text.data);
  }
  tl_yaml_seq_end(y);
}

// The runtime sizes, by name, and the tensors whose shapes use them.
static void runtime_sizes(TlYaml *y, const TlKernel *k) {
  if (k->sizes.len == 0)
    return;
  tl_yaml_scalar(y, "sizes");
  tl_yaml_seq(y, true);
  for (int i = 0; i < k->sizes.len; i++)
    tl_yaml_scalar(y, TL_VEC_AT(k->sizes, TlVar, i)->name);
  tl_yaml_seq_end(y);
  tl_yaml_scalar(y, "tensors");
  tl_yaml_seq(y, false);
  for (int i = 0; i < k->params.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_yaml_map(y, true);
    tl_yaml_key_str(y, "name", b->name);
    tl_yaml_scalar(y, "shape");
    tl_yaml_seq(y, true);
    for (int d = 0; d < b->ndims; d++) {
      char num[160];
      if (b->dyn[d] && tl_buffer_dyn_scale(b, d) > 1)
        snprintf(num, sizeof num, "%s*%lld", b->dyn[d]->name, (long long)tl_buffer_dyn_scale(b, d));
      else
        snprintf(num, sizeof num, "%lld", (long long)b->shape[d]);
      tl_yaml_scalar(y, b->dyn[d] && tl_buffer_dyn_scale(b, d) == 1 ? b->dyn[d]->name : num);
    }
    tl_yaml_seq_end(y);
    tl_yaml_map_end(y);
  }
  tl_yaml_seq_end(y);
}

// specialize-sizes: what the kernel assumes of its runtime sizes (the
// launcher checks it) and the twin that runs the other launches.
static void runtime_alignment(TlYaml *y, const TlKernel *k) {
  if (!k->fallback && !k->is_fallback)
    return;
  tl_yaml_scalar(y, "runtime_alignment");
  tl_yaml_map(y, false);
  if (k->is_fallback) {
    tl_yaml_key_str(y, "assumes", "nothing (the unaligned twin: element-wise copies, no TMA)");
    tl_yaml_map_end(y);
    return;
  }
  tl_yaml_scalar(y, "assumes");
  tl_yaml_seq(y, true);
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    if (v->divisor > 1)
      tl_yaml_scalar(y, tl_arena_printf(y->out->arena, "%s %% %lld == 0", v->name, (long long)v->divisor));
  }
  tl_yaml_seq_end(y);
  tl_yaml_key_str(y, "otherwise", k->fallback);
  tl_yaml_map_end(y);
}

static void loops(TlYaml *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_SEQ && s->plan.ndims > 0) {
      const TlPartitionPlan *p = &s->plan;
      tl_yaml_map(y, true);
      tl_yaml_key_int(y, "line", s->plan_loc.line);
      tl_yaml_key_int(y, "col", s->plan_loc.col);
      tl_yaml_key_str(y, "kind", "parallel");
      tl_yaml_key_str(y, "origin", tl_origin_name(s->plan_origin));
      tl_yaml_scalar(y, "extents");
      tl_yaml_ints(y, p->extents, p->ndims);
      tl_yaml_key_int(y, "threads", p->threads);
      tl_yaml_key_int(y, "vector", p->vector);
      tl_yaml_key_int(y, "steps", p->steps);
      tl_yaml_key_int(y, "threads_used", p->threads_used);
      tl_yaml_key_str(y, "guard", p->guard ? "true" : "false");
      tl_yaml_key_str(y, "layout", s->plan_has_layout ? "loop_layout" : "default");
      tl_yaml_map_end(y);
      continue;
    }
    if (s->kind == ST_SEQ && s->plan_frag) {
      TlFragNest n;
      tl_frag_nest_build(y->out->arena, &n, s);
      // A block mapping: the element list is long.
      tl_yaml_map(y, false);
      tl_yaml_key_int(y, "line", s->plan_loc.line);
      tl_yaml_key_int(y, "col", s->plan_loc.col);
      tl_yaml_key_str(y, "kind", "parallel");
      tl_yaml_key_str(y, "origin", tl_origin_name(s->plan_origin));
      if (!y->failed)
        tl_explain_fragment_yaml_fields(y, &n, tl_layout_describe(y->out->arena, s->plan_frag),
                                        tl_explain_fragment_name(s), true);
      tl_yaml_map_end(y);
      continue;
    }
    loops(y, &s->body);
    loops(y, &s->else_body);
  }
}

static void pipelines(TlYaml *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_FOR && s->loop_kind == LOOP_PIPELINED) {
      tl_yaml_map(y, false);
      tl_yaml_key_int(y, "line", s->loc.line);
      tl_yaml_key_int(y, "col", s->loc.col);
      tl_yaml_key_int(y, "num_stages", s->num_stages);
      tl_yaml_key_int(y, "applied_stages", s->applied_stages ? s->applied_stages : 1);
      int64_t v[64];
      int n = s->order.len < 64 ? s->order.len : 64;
      for (int j = 0; j < n; j++)
        v[j] = (int64_t)(intptr_t)s->order.items[j];
      tl_yaml_scalar(y, "order");
      tl_yaml_ints(y, v, n);
      n = s->stage.len < 64 ? s->stage.len : 64;
      for (int j = 0; j < n; j++)
        v[j] = (int64_t)(intptr_t)s->stage.items[j];
      tl_yaml_scalar(y, "stage");
      tl_yaml_ints(y, v, n);
      tl_yaml_scalar(y, "buffers");
      tl_yaml_seq(y, true);
      for (int j = 0; j < s->pipe_buffers.len; j++) {
        const TlBuffer *b = TL_VEC_AT(s->pipe_buffers, TlBuffer, j);
        int64_t shape[TL_MAX_DIMS + 1];
        int ns = 0;
        shape[ns++] = b->stages;
        for (int d = 0; d < b->ndims; d++)
          shape[ns++] = b->shape[d];
        tl_yaml_map(y, true);
        tl_yaml_key_str(y, "name", b->name);
        tl_yaml_scalar(y, "shape");
        tl_yaml_ints(y, shape, ns);
        tl_yaml_key_int(y, "bytes", tl_buffer_bytes(b));
        tl_yaml_map_end(y);
      }
      tl_yaml_seq_end(y);
      tl_yaml_map_end(y);
    }
    pipelines(y, &s->body);
    pipelines(y, &s->else_body);
  }
}

// Which instructions each T.gemm runs on, and why not wgmma when it does
// not (the rule is in lib/Transforms/LayoutInference.c, wgmma_refusal).
static void gemms(TlYaml *y, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM) {
      tl_yaml_map(y, true);
      tl_yaml_key_int(y, "line", s->loc.line);
      tl_yaml_key_int(y, "col", s->loc.col);
      tl_yaml_key_str(y, "engine", s->use_wgmma ? "wgmma" : s->use_mma ? "mma.sync" : "cuda-cores");
      if (s->c->layout)
        tl_yaml_key_str(y, "accumulator", tl_layout_describe(y->out->arena, s->c->layout));
      if (s->use_wgmma && s->a_packed) { // --overlap-pv's rotated loop (WarpSpecialize.c)
        tl_yaml_key_str(y, "in_flight", "one group across the next softmax, until its wgmma_wait");
        int64_t always;
        if (s->cond && !tl_expr_is_const(s->cond, &always)) { // its wgmma off where this is false
          TlBuf text;
          tl_buf_init(&text, y->out->arena);
          tl_ir_print_expr(&text, s->cond);
          tl_yaml_key_str(y, "issued_when", text.data);
        }
        tl_yaml_key_str(y, "a_operand", tl_arena_printf(y->out->arena, "registers packed from %s where it is made",
                                                        s->a->name));
      } else if (s->use_wgmma) {
        const TlStmt *next = i + 1 < body->len ? TL_VEC_AT(*body, TlStmt, i + 1) : NULL;
        tl_yaml_key_str(y, "in_flight",
                        !s->wgmma_in_flight ? "none"
                        : next && next->kind == ST_GEMM && next->a_packed
                            ? "one group while the next gemm issues, until the wgmma_wait after it"
                            : "one group across the pipeline barrier");
      }
      else if (s->engine_why)
        tl_yaml_key_str(y, "why_not_wgmma", s->engine_why);
      tl_yaml_map_end(y);
    }
    gemms(y, &s->body);
    gemms(y, &s->else_body);
  }
}

// The roles of a warp-specialized kernel (lib/Transforms/WarpSpecialize.c):
// who runs what, the ring and its barriers, the register split, the tensor
// maps; or why a pipelined kernel stayed on cp.async.
static void warp_specialization(TlYaml *y, const TlKernel *k) {
  if (!k->ring_stages && !k->ws_why)
    return;
  tl_yaml_scalar(y, "warp_specialization");
  tl_yaml_map(y, false);
  if (!k->ring_stages) {
    tl_yaml_key_str(y, "applied", "no");
    tl_yaml_key_str(y, "why_not", k->ws_why);
    tl_yaml_map_end(y);
    return;
  }
  tl_yaml_key_str(y, "applied", "yes");
  tl_yaml_key_int(y, "compute_threads", k->threads[0]);
  tl_yaml_key_int(y, "producer_threads", TL_PRODUCER_THREADS);
  tl_yaml_key_str(y, "producer", "one elected thread issues the TMA loads of each stage");
  tl_yaml_key_int(y, "ring_stages", k->ring_stages);
  tl_yaml_key_int(y, "blocks_per_sm", k->blocks_per_sm);
  tl_yaml_key_str(y, "persistent",
                  !k->persistent ? "no"
                  : k->cluster   ? "yes: one block per SM; cluster c walks the pairs of tiles c + i * (gridDim.x / 2)"
                                 : "yes: one block per SM walks tiles blockIdx.x + i * gridDim.x");
  int64_t bytes = 0;
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
    bytes += tl_buffer_elems(t->tile) * (tl_dtype_bits(t->tile->dtype) / 8);
  }
  tl_yaml_key_str(y, "full_barrier", tl_arena_printf(y->out->arena, "1 arrival + %lld bytes of TMA transactions per stage",
                                             (long long)bytes));
  if (k->cluster) {
    tl_yaml_key_str(y, "cluster",
                    tl_arena_printf(y->out->arena, "2 blocks along %c (blocks 2i and 2i+1 of a 1-D launch): tiles "
                                    "that do not depend on that block index are loaded half by each block and "
                                    "multicast to both", "xyz"[k->cluster_dim]));
    tl_yaml_key_str(y, "empty_barrier",
                    tl_arena_printf(y->out->arena, "%lld arrivals (every compute warp of both blocks)",
                                    (long long)(2 * k->threads[0] / 32)));
  } else {
    tl_yaml_key_str(y, "cluster", "no");
    tl_yaml_key_str(y, "empty_barrier", tl_arena_printf(y->out->arena, "%lld arrivals (every compute thread)",
                                                        (long long)k->threads[0]));
  }
  tl_yaml_scalar(y, "registers");
  tl_yaml_map(y, true);
  tl_yaml_key_int(y, "compute", k->consumer_regs);
  tl_yaml_key_int(y, "producer", k->producer_regs);
  tl_yaml_map_end(y);
  tl_yaml_scalar(y, "tensor_maps");
  tl_yaml_seq(y, false);
  for (int i = 0; i < k->tma_maps.len; i++) {
    const TlTmaMap *t = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
    tl_yaml_map(y, true);
    tl_yaml_key_str(y, "tensor", t->global->name);
    tl_yaml_key_str(y, "tile", t->tile->name);
    tl_yaml_scalar(y, "box");
    tl_yaml_ints(y, t->box, t->rank);
    tl_yaml_key_int(y, "loads_per_stage", t->tile->shape[1] / t->panel_cols);
    tl_yaml_key_int(y, "swizzle_bytes", t->swizzle_bytes);
    if (t->multicast)
      tl_yaml_key_str(y, "multicast", "yes: each block of the cluster loads half of the rows for both");
    if (t->store)
      tl_yaml_key_str(y, "store", "yes: the epilogue, by thread 0, while the next tile computes");
    tl_yaml_map_end(y);
  }
  tl_yaml_seq_end(y);
  tl_yaml_map_end(y);
}

bool tl_emit_plan(const TlModule *m, TlBuf *out, TlDiag *d) {
  TlYaml y;
  tl_yaml_begin(&y, out, 200, false);
  tl_yaml_map(&y, false);
  tl_yaml_key_str(&y, "target", m->target_name);
  tl_yaml_scalar(&y, "kernels");
  tl_yaml_seq(&y, false);
  for (int k = 0; k < m->kernels.len; k++) {
    const TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, k);
    tl_yaml_map(&y, false);
    tl_yaml_key_str(&y, "name", kn->name);
    tl_yaml_key_int(&y, "line", kn->loc.line);
    tl_yaml_key_int(&y, "threads", kn->threads[0] * kn->threads[1] * kn->threads[2]);
    tl_yaml_scalar(&y, "grid");
    grid_seq(&y, kn);
    runtime_sizes(&y, kn);
    runtime_alignment(&y, kn);
    tl_yaml_key_int(&y, "shared_bytes", kn->shared_bytes);
    tl_yaml_scalar(&y, "shared");
    tl_yaml_seq(&y, false);
    for (int i = 0; i < kn->buffers.len; i++) {
      TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
      if (b->scope != SCOPE_SHARED)
        continue;
      tl_yaml_map(&y, true);
      tl_yaml_key_str(&y, "name", b->name);
      tl_yaml_key_str(&y, "dtype", tl_dtype_name(b->dtype));
      tl_yaml_scalar(&y, "shape");
      int64_t shape[TL_MAX_DIMS + 1];
      int n = 0;
      if (b->stages > 1)
        shape[n++] = b->stages;
      for (int j = 0; j < b->ndims; j++)
        shape[n++] = b->shape[j];
      tl_yaml_ints(&y, shape, n);
      tl_yaml_key_int(&y, "offset", b->shared_offset);
      tl_yaml_key_int(&y, "bytes", tl_buffer_bytes(b));
      tl_yaml_map_end(&y);
    }
    tl_yaml_seq_end(&y);
    tl_yaml_scalar(&y, "loops");
    tl_yaml_seq(&y, false);
    loops(&y, &kn->body);
    tl_yaml_seq_end(&y);
    tl_yaml_scalar(&y, "pipelines");
    tl_yaml_seq(&y, false);
    pipelines(&y, &kn->body);
    tl_yaml_seq_end(&y);
    tl_yaml_scalar(&y, "gemms");
    tl_yaml_seq(&y, false);
    gemms(&y, &kn->body);
    tl_yaml_seq_end(&y);
    warp_specialization(&y, kn);
    tl_yaml_map_end(&y);
  }
  tl_yaml_seq_end(&y);
  tl_yaml_map_end(&y);
  char err[256];
  if (!tl_yaml_end(&y, err, sizeof err)) {
    tl_error_noloc(d, "%s", err);
    return false;
  }
  return true;
}
