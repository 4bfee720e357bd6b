// The FILE.tl modes of the explain tools: the file is compiled through the
// whole pass pipeline by the caller's `compile` (the driver's, passed in by
// tools/tlc/main.c, so lib/Explain never calls up into lib/Driver), then the
// decisions the passes recorded are shown.
//   explain-partition FILE.tl [--line N]: every T.Parallel, user loops and
//     the loops of T.copy / T.fill alike. Loops planned with the default
//     formula go through the same renderer as the standalone tool; loops
//     that follow a fragment layout show the layout and where each element
//     lives (thread, register), mapped by lib/Explain/FragNest.c.
//     Reductions over fragments are named in one line.
//   explain-pipeline FILE.tl: the seed's pipeline model applied to every
//     T.Pipelined loop, with costs from the target description: the copy
//     engine issues a stage's bytes at the SM's share of DRAM bandwidth, the
//     data arrives after the DRAM latency, and compute is the stage's
//     tensor-core work at the SM's mma rate. An advisory warning says when
//     num_stages is below the depth that hides the latency, or above it.
//     A warp-specialized loop also gets the TMA ring model (RingModel.h):
//     the producer/consumer protocol with its late slot release, L2 costs,
//     and the tiles a persistent block walks with their epilogues.
#include <string.h>

#include "tlc/Explain.h"
#include "tlc/FragLayout.h"

// What both FILE modes share around their walk over the loops: the
// compilation, its module and the text rendered for it.
typedef struct FileRun {
  TlArena arena;
  TlDiag diag;
  TlTarget target;
  TlModule *module; // NULL when the file did not compile
  TlBuf out;
} FileRun;

// Compiles in's file. Both tools honour --target as tlc does: sema checks
// the thread limit, plan-shared the shared memory, and explain-pipeline takes
// its costs from it. False (after reporting) when it does not compile.
static bool file_run_start(FileRun *r, const TlExplainInput *in) {
  tl_arena_init(&r->arena);
  tl_diag_init(&r->diag, stderr);
  tl_buf_init(&r->out, &r->arena);
  tl_buf_puts(&r->out, "");
  r->module = NULL;
  const char *target_name = in->target ? in->target : "sm_90a";
  char err[256];
  if (!tl_target_load(&r->arena, target_name, &r->target, err, sizeof err))
    tl_error_noloc(&r->diag, "%s", err);
  else
    r->module = in->compile(&r->arena, in->path, in->sema, target_name, &r->diag);
  return r->module != NULL;
}

// Prints what the walk rendered when it found `count` loops and rendered
// them all (`ok`), else `none` as the error when it found none. Releases the
// run; returns the exit status.
static int file_run_finish(FileRun *r, int count, bool ok, const char *none) {
  int rc = 1;
  if (r->module && count == 0) {
    fprintf(stderr, "tlc: error: %s\n", none);
  } else if (r->module && ok) {
    fwrite(r->out.data, 1, r->out.len, stdout);
    rc = 0;
  }
  tl_arena_free(&r->arena);
  return rc;
}

typedef struct Found {
  int seen[256][2]; // line, col of loops already shown (pipelining clones them)
  int nseen;
  int count;
  int line;
  TlExplainFormat format;
  TlBuf *out;
  const TlKernel *kernel;
} Found;

// True the first time a loop's location is seen (pipelining clones loops).
static bool first_sight(Found *f, TlLoc loc) {
  for (int k = 0; k < f->nseen; k++)
    if (f->seen[k][0] == loc.line && f->seen[k][1] == loc.col)
      return false;
  if (f->nseen < 256) {
    f->seen[f->nseen][0] = loc.line;
    f->seen[f->nseen++][1] = loc.col;
  }
  return true;
}

// Separates what one loop adds from the previous loop's: a blank line
// between tables, "---" between YAML documents (one stream, many documents).
static void separate(Found *f) {
  if (f->count > 0 && f->format == TL_EXPLAIN_TABLE)
    tl_buf_puts(f->out, "\n");
  if (f->count > 0 && f->format == TL_EXPLAIN_YAML)
    tl_buf_puts(f->out, "---\n");
}

static void partition_loops(Found *f, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    bool planned = s->kind == ST_SEQ && (s->plan.ndims > 0 || s->plan_frag);
    if (planned && (f->line == 0 || s->plan_loc.line == f->line)) {
      if (!first_sight(f, s->plan_loc))
        continue;
      char *title = tl_arena_printf(f->out->arena, "kernel %s, T.Parallel at %s:%d:%d (%s)",
                                    f->kernel->name, s->plan_loc.src->name, s->plan_loc.line,
                                    s->plan_loc.col, tl_origin_name(s->plan_origin));
      if (f->format == TL_EXPLAIN_SVG && f->count > 0)
        continue; // one SVG document per run: the first loop
      if (s->plan_frag) {
        TlFragNest n;
        tl_frag_nest_build(f->out->arena, &n, s);
        separate(f);
        tl_explain_fragment_render(f->out, &n, f->format, title,
                                   tl_layout_describe(f->out->arena, s->plan_frag),
                                   tl_explain_fragment_name(s));
      } else {
        separate(f);
        tl_explain_partition_render(f->out, &s->plan, f->format, title);
      }
      f->count++;
      continue;
    }
    if (s->kind == ST_SEQ && !planned && s->per_thread && s->body.len &&
        f->format == TL_EXPLAIN_TABLE &&
        (f->line == 0 || s->loc.line == f->line)) {
      const TlStmt *note = TL_VEC_AT(s->body, TlStmt, 0);
      if (note->kind == ST_COMMENT) {
        tl_buf_printf(f->out, "%skernel %s: %s\n", f->count ? "\n" : "", f->kernel->name, note->text);
        f->count++;
      }
    }
    partition_loops(f, &s->body);
    partition_loops(f, &s->else_body);
  }
}

int tl_explain_partition_file(const TlExplainInput *in, int line, TlExplainFormat format) {
  FileRun r;
  Found f = {.line = line, .format = format, .out = &r.out};
  if (file_run_start(&r, in)) {
    for (int k = 0; k < r.module->kernels.len; k++) {
      f.kernel = TL_VEC_AT(r.module->kernels, TlKernel, k);
      partition_loops(&f, &f.kernel->body);
    }
  }
  const char *none =
      line ? tl_arena_printf(&r.arena, "explain-partition: no T.Parallel loop on line %d of %s",
                             line, in->path)
           : tl_arena_printf(&r.arena, "explain-partition: %s has no T.Parallel loop", in->path);
  return file_run_finish(&r, f.count, true, none);
}

static int64_t gemm_flops(const TlVec *body) {
  int64_t f = 0;
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM) {
      int64_t M = s->c->shape[0], N = s->c->shape[1];
      int64_t K = s->trans_a ? s->a->shape[0] : s->a->shape[1];
      f += 2 * M * N * K;
    }
    f += gemm_flops(&s->body) + gemm_flops(&s->else_body);
  }
  return f;
}

typedef struct PipeCtx {
  TlArena *arena;
  const TlTarget *target;
  const TlKernel *kernel;
  TlExplainFormat format;
  TlBuf *out;
  TlDiag *diag;
  int count;
  bool ok;
} PipeCtx;

static bool has_tma_store(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_TMA_STORE || has_tma_store(&s->body) || has_tma_store(&s->else_body))
      return true;
  }
  return false;
}

static const TlStmt *first_gemm(const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_GEMM)
      return s;
    const TlStmt *g = first_gemm(&s->body);
    if (g || (g = first_gemm(&s->else_body)))
      return g;
  }
  return NULL;
}

// A warp-specialized loop also gets the TMA ring model (lib/Analysis/
// RingModel.c), next to the seed's: same bytes and latency, the stage's work
// at the wgmma rate, the tiles one block walks (a persistent kernel walks
// ceil(tiles / SMs)), and between tiles an epilogue that writes the first
// gemm's accumulator tile as 2-byte values, to shared memory at 128 B/cycle
// when a TMA store drains it, else at the SM's share of DRAM bandwidth.
static bool ring_model(PipeCtx *p, const TlStmt *loop, const TlPipeModel *seed, int64_t bytes) {
  const TlTarget *t = p->target;
  const TlKernel *k = p->kernel;
  TlRingModel m = {seed->iterations, 1, seed->issue, seed->latency, seed->compute, 0};
  // Tiles that many blocks load come from L2 after the first block's miss:
  // the ring charges the L2 rate and latency where the target has them.
  const char *source = "DRAM (no L2 figures for this target)";
  if (t->l2_bandwidth_gbs > 0 && t->l2_latency_cycles > 0) {
    double per_cycle = t->l2_bandwidth_gbs / (double)t->sm_count / t->clock_ghz;
    m.issue = (int64_t)(bytes / per_cycle + 0.5) > 1 ? (int64_t)(bytes / per_cycle + 0.5) : 1;
    m.latency = t->l2_latency_cycles;
    source = tl_arena_printf(p->arena, "L2 at %.1f B/cycle per SM -> issue %lld, latency %lld", per_cycle,
                             (long long)m.issue, (long long)m.latency);
  }
  int64_t flops = gemm_flops(&loop->body);
  double rate = t->wgmma_flops_per_cycle_sm > 0 ? t->wgmma_flops_per_cycle_sm : t->tensor_flops_per_cycle_sm;
  if (flops)
    m.compute = (int64_t)(flops / rate + 0.5) > 1 ? (int64_t)(flops / rate + 0.5) : 1;
  const char *tiles_why = "one tile per block";
  const char *epilogue_why = "";
  if (k->persistent) {
    int64_t total = k->grid_const[0] * k->grid_const[1] * k->grid_const[2];
    int64_t sms = t->sm_count > 0 ? t->sm_count : 1;
    m.tiles = total > 0 ? (total + sms - 1) / sms : 1;
    tiles_why = tl_arena_printf(p->arena, "persistent: %lld tiles over %lld SMs", (long long)total,
                                (long long)sms);
    const TlStmt *g = first_gemm(&loop->body);
    if (g) {
      bool staged = has_tma_store(&k->body);
      double out_bytes = 2.0 * (double)g->c->shape[0] * (double)g->c->shape[1];
      double per_cycle = staged ? 128.0 : t->dram_bandwidth_gbs / (double)t->sm_count / t->clock_ghz;
      m.epilogue = (int64_t)(out_bytes / per_cycle + 0.5);
      epilogue_why = tl_arena_printf(p->arena, "; epilogue: %lldx%lld accumulator as 2-byte values %s -> %lld cycles",
                                     (long long)g->c->shape[0], (long long)g->c->shape[1],
                                     staged ? "into the TMA store's staging tile at 128 B/cycle"
                                            : "to global memory at the SM's DRAM share",
                                     (long long)m.epilogue);
    }
  }
  char *title = tl_arena_printf(
      p->arena,
      "kernel %s, T.Pipelined at %s:%d on a TMA ring of %d slots: %lld bytes per stage from %s; "
      "%lld flops per stage at %.0f wgmma flops/cycle -> compute %lld; %s%s",
      k->name, loop->loc.src->name, loop->loc.line, k->ring_stages, (long long)bytes, source,
      (long long)flops, rate, (long long)m.compute, tiles_why, epilogue_why);
  int stages[8], n = 0;
  for (int i = 1; i <= 8; i++)
    stages[n++] = i;
  if (p->format == TL_EXPLAIN_TABLE)
    tl_buf_puts(p->out, "\n");
  else if (p->format == TL_EXPLAIN_YAML)
    tl_buf_puts(p->out, "---\n");
  char err[256];
  if (p->format != TL_EXPLAIN_SVG &&
      !tl_explain_ring_render(p->out, &m, stages, n, p->format, title, err, sizeof err)) {
    tl_error_noloc(p->diag, "explain-pipeline: %s", err);
    p->ok = false;
    return false;
  }
  return true;
}

static void pipeline_loops(PipeCtx *p, const TlVec *body) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    pipeline_loops(p, &s->body);
    pipeline_loops(p, &s->else_body);
    if (s->kind != ST_FOR || s->loop_kind != LOOP_PIPELINED)
      continue;
    const TlTarget *t = p->target;
    int64_t bytes = 0;
    for (int j = 0; j < s->pipe_buffers.len; j++) {
      const TlBuffer *b = TL_VEC_AT(s->pipe_buffers, TlBuffer, j);
      bytes += tl_buffer_bytes(b) / (b->stages > 1 ? b->stages : 1);
    }
    int64_t lo = 0, hi = 0;
    int64_t iters = tl_expr_is_const(s->start, &lo) && tl_expr_is_const(s->stop, &hi) && hi > lo ? hi - lo : 8;
    double bytes_per_cycle = t->dram_bandwidth_gbs / (double)t->sm_count / t->clock_ghz;
    TlPipeModel model;
    model.iterations = iters;
    model.issue = bytes ? (int64_t)(bytes / bytes_per_cycle + 0.5) : 1;
    if (model.issue < 1)
      model.issue = 1;
    model.latency = t->dram_latency_cycles;
    int64_t flops = gemm_flops(&s->body);
    model.compute = flops ? (int64_t)(flops / t->tensor_flops_per_cycle_sm + 0.5) : 1;
    if (model.compute < 1)
      model.compute = 1;
    int stages[8], n = 0;
    for (int k = 1; k <= 8; k++)
      stages[n++] = k;
    char *title = tl_arena_printf(
        p->arena,
        "kernel %s, T.Pipelined(num_stages=%d) at %s:%d: %lld bytes per stage at %.1f B/cycle per SM "
        "-> issue %lld cycles; latency %lld; %lld flops per stage at %.0f flops/cycle -> compute %lld",
        p->kernel->name, s->num_stages, s->loc.src->name, s->loc.line, (long long)bytes, bytes_per_cycle,
        (long long)model.issue, (long long)model.latency, (long long)flops, t->tensor_flops_per_cycle_sm,
        (long long)model.compute);
    // How the slots are refilled: the model's "slot free at the end of its
    // last compute" is the empty barrier of a warp-specialized ring, and the
    // barrier after cp.async.wait_group otherwise.
    if (p->kernel->ring_stages && s->applied_stages == p->kernel->ring_stages)
      title = tl_arena_printf(p->arena, "%s; TMA ring: a producer warpgroup refills slot i %% %d once every "
                              "compute thread has released it (empty barrier), compute waits on its full barrier",
                              title, p->kernel->ring_stages);
    else
      title = tl_arena_printf(p->arena, "%s; cp.async: every thread copies, a barrier per iteration", title);
    if (!(tl_expr_is_const(s->start, &lo) && tl_expr_is_const(s->stop, &hi)))
      title = tl_arena_printf(p->arena,
                              "%s; the trip count is known at run time (runtime sizes): "
                              "modelled with %lld iterations",
                              title, (long long)iters);
    if (p->count++ && p->format == TL_EXPLAIN_TABLE)
      tl_buf_puts(p->out, "\n");
    char err[256];
    if (!tl_explain_pipeline_render(p->out, &model, stages, n, p->format, title, err, sizeof err)) {
      tl_error_noloc(p->diag, "explain-pipeline: %s", err);
      p->ok = false;
      continue;
    }
    if (p->kernel->ring_stages && s->applied_stages == p->kernel->ring_stages &&
        !ring_model(p, s, &model, bytes))
      continue;
    // The advisor: the fewest stages whose modelled makespan is within 1% of
    // the best (the seed's 1 + ceil(latency / compute) ignores a copy engine
    // that is itself the bottleneck, so the schedule is simulated instead).
    int64_t span[9] = {0}, best = INT64_MAX;
    for (int k = 1; k <= 8; k++) {
      TlPipeTimeline tl;
      TlPipeSummary sum;
      if (!tl_pipe_simulate_prefix(p->arena, &model, k, 0, &tl, &sum, err, sizeof err))
        break;
      span[k] = sum.makespan;
      if (span[k] < best)
        best = span[k];
    }
    int advised = 1;
    while (advised < 8 && span[advised] > best + best / 100)
      advised++;
    int ns = s->num_stages < 1 ? 1 : s->num_stages;
    if (best < INT64_MAX && ns < advised)
      tl_warning(p->diag, s->loc, "num_stages=%d: the model's makespan on %s is %.0f%% above what %d "
                                  "stages reach", s->num_stages, t->name,
                 100.0 * (double)(span[ns] - best) / (double)best, advised);
    else if (best < INT64_MAX && ns > advised + 1)
      tl_warning(p->diag, s->loc, "num_stages=%d: on %s the model gains nothing past %d stages; the "
                                  "extra ones only cost shared memory", s->num_stages, t->name, advised);
  }
}

int tl_explain_pipeline_file(const TlExplainInput *in, TlExplainFormat format) {
  FileRun r;
  PipeCtx p = {&r.arena, &r.target, NULL, format, &r.out, &r.diag, 0, true};
  if (file_run_start(&r, in)) {
    for (int k = 0; k < r.module->kernels.len; k++) {
      p.kernel = TL_VEC_AT(r.module->kernels, TlKernel, k);
      pipeline_loops(&p, &p.kernel->body);
    }
  }
  const char *none =
      tl_arena_printf(&r.arena, "explain-pipeline: %s has no T.Pipelined loop", in->path);
  return file_run_finish(&r, p.count, p.ok, none);
}
