// The CUDA emitter's kernels: the __global__ function (block indices,
// tables, the warp roles of a warp-specialized kernel, the body), its
// tensor maps, and its host launcher (size checks, the grid, the dynamic
// shared-memory limit, the fallback dispatch).
#include "CudaEmitInternal.h"
#include "tlc/Occupancy.h"

#include <math.h>
#include <string.h>

// The tensors, then the runtime sizes (T.dynamic) as integers.
static void param_list(Emit *e, TlBuf *o, const TlKernel *k, bool restrict_) {
  for (int i = 0; i < k->params.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    tl_buf_printf(o, "%s%s%s*%s %s", i ? ", " : "", b->written ? "" : "const ",
                  tl_dtype_cuda(b->dtype), restrict_ ? " __restrict__" : "",
                  tl_cuda_buf_name(e, b));
  }
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    tl_buf_printf(o, "%s%s %s", i || k->params.len ? ", " : "", tl_dtype_cuda(v->dtype), v->cname);
  }
}

static void arg_list(TlBuf *o, Emit *e, const TlKernel *k) {
  for (int i = 0; i < k->params.len; i++)
    tl_buf_printf(o, "%s%s", i ? ", " : "", tl_cuda_buf_name(e, TL_VEC_AT(k->params, TlBuffer, i)));
  for (int i = 0; i < k->sizes.len; i++)
    tl_buf_printf(o, "%s%s", i || k->params.len ? ", " : "", TL_VEC_AT(k->sizes, TlVar, i)->cname);
}

// Is b an operand of an mma atom (TensorCoreIntrinEmitter.mma) in body?
static bool mma_operand(const TlVec *body, const TlBuffer *b) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    if (s->kind == ST_MMA && (s->a == b || s->b == b || s->c == b)) return true;
    if (mma_operand(&s->body, b) || mma_operand(&s->else_body, b)) return true;
  }
  return false;
}

// A grid extent: its value, or the expression of runtime sizes the launcher
// computes.
static void grid_extent(Emit *e, const TlKernel *k, int d) {
  if (k->grid_const[d] > 0)
    tl_buf_printf(&e->body, "%lld", (long long)k->grid_const[d]);
  else
    tl_cuda_expr(e, k->grid[d]);
}

// The launcher's checks of the runtime sizes, before anything is launched:
// a negative size, a tensor past 32-bit indexing or a grid past the
// hardware's limits is refused with cudaErrorInvalidValue; an empty grid
// launches nothing.
static void size_checks(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  if (k->sizes.len == 0) return;
  tl_buf_puts(
      o, "  // Runtime sizes: refuse what the kernel cannot index; launch nothing when empty.\n");
  for (int i = 0; i < k->sizes.len; i++)
    tl_buf_printf(o, "  if (%s < 0)\n    return cudaErrorInvalidValue;\n",
                  TL_VEC_AT(k->sizes, TlVar, i)->cname);
  bool wide = false;
  for (int i = 0; i < k->sizes.len; i++)
    wide = wide || TL_VEC_AT(k->sizes, TlVar, i)->dtype == TY_INT64;
  TlVec seen = {0}; // the element counts already checked (tensors of one shape)
  for (int i = 0; i < k->params.len && !wide; i++) {
    const TlBuffer *b = TL_VEC_AT(k->params, TlBuffer, i);
    if (!tl_buffer_is_dynamic(b)) continue;
    TlBuf count;
    tl_buf_init(&count, o->arena);
    tl_buf_puts(&count, "");
    for (int d = 0; d < b->ndims; d++) {
      if (b->dyn[d] && tl_buffer_dyn_scale(b, d) > 1)
        tl_buf_printf(&count, "%s(double)%s * %lld.0", d ? " * " : "", b->dyn[d]->cname,
                      (long long)tl_buffer_dyn_scale(b, d));
      else if (b->dyn[d])
        tl_buf_printf(&count, "%s(double)%s", d ? " * " : "", b->dyn[d]->cname);
      else
        tl_buf_printf(&count, "%s%lld.0", d ? " * " : "", (long long)b->shape[d]);
    }
    bool again = false;
    for (int j = 0; j < seen.len; j++)
      again = again || strcmp(TL_VEC_AT(seen, const char, j), count.data) == 0;
    if (again) continue;
    tl_vec_push(o->arena, &seen, count.data);
    tl_buf_printf(o,
                  "  if (%s > 2147483647.0) // %s: past 32-bit indexing\n"
                  "    return cudaErrorInvalidValue;\n",
                  count.data, b->name);
  }
  static const char *const dims = "xyz";
  for (int d = 0; d < 3; d++) {
    if (k->grid_const[d] > 0) continue;
    tl_buf_printf(o, "  const long long grid_%c = ", dims[d]);
    grid_extent(e, k, d);
    tl_buf_printf(o,
                  ";\n  if (grid_%c > %lld)\n    return cudaErrorInvalidValue;\n"
                  "  if (grid_%c <= 0)\n    return cudaSuccess;\n",
                  dims[d], d == 0 ? 2147483647LL : 65535LL, dims[d]);
  }
}

// A grid whose y or z extent is past CUDA's 65535 (a plain launch of
// compile-time extents): launched as gx * gy * gz blocks along x, the kernel
// recovering (bx, by, bz) from blockIdx.x. Persistent and cluster kernels
// number their tiles linearly anyway.
static bool folded_grid(const TlKernel *k) {
  return !k->persistent && !k->cluster && k->grid_const[0] > 0 && k->grid_const[1] > 0 &&
         k->grid_const[2] > 0 && (k->grid_const[1] > 65535 || k->grid_const[2] > 65535);
}

// The launch's grid: constants inline; with runtime extents a dim3 of the
// checked values, declared before the launch.
static void launch_grid(Emit *e, const TlKernel *k) {
  bool runtime = k->grid_const[0] == 0 || k->grid_const[1] == 0 || k->grid_const[2] == 0;
  if (runtime) {
    tl_buf_puts(&e->body, "tl_grid");
    return;
  }
  if (folded_grid(k))
    tl_buf_printf(&e->body, "dim3(%lld, 1, 1)",
                  (long long)(k->grid_const[0] * k->grid_const[1] * k->grid_const[2]));
  else
    tl_buf_printf(&e->body, "dim3(%lld, %lld, %lld)", (long long)k->grid_const[0],
                  (long long)k->grid_const[1], (long long)k->grid_const[2]);
}

static void declare_runtime_grid(Emit *e, const TlKernel *k) {
  if (k->grid_const[0] > 0 && k->grid_const[1] > 0 && k->grid_const[2] > 0) return;
  tl_buf_puts(&e->body, "  const dim3 tl_grid(");
  for (int d = 0; d < 3; d++) {
    tl_buf_puts(&e->body, d ? ", " : "");
    if (k->grid_const[d] > 0)
      tl_buf_printf(&e->body, "%lld", (long long)k->grid_const[d]);
    else
      tl_buf_printf(&e->body, "(unsigned)grid_%c", "xyz"[d]);
  }
  tl_buf_puts(&e->body, ");\n");
}

static bool expr_uses(const TlExpr *x, const TlVar *v) {
  return x && tl_expr_uses_var(x, v);
}

static bool body_uses(const TlVec *body, const TlVar *v) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    for (int j = 0; j < s->nindices; j++)
      if (expr_uses(s->indices[j], v)) return true;
    for (int d = 0; d < s->src.ndims; d++) // a TMA load's box origin
      if (expr_uses(s->src.start[d], v)) return true;
    if (expr_uses(s->value, v) || expr_uses(s->cond, v) || expr_uses(s->start, v) ||
        expr_uses(s->stop, v) || body_uses(&s->body, v) || body_uses(&s->else_body, v))
      return true;
  }
  return false;
}

static bool kernel_uses(const TlKernel *k, const TlVar *v) {
  return body_uses(&k->body, v) || body_uses(&k->producer, v);
}

// `const int name = value;` for block index d; in a cluster kernel the
// decoded index along the cluster's dimension is the pair's, and the block's
// own is 2 * pair + its rank in the cluster.
static void bind_block_var(Emit *e, const TlKernel *k, int d, int level, const char *value) {
  TlBuf *o = &e->body;
  tl_buf_indent(o, level);
  if (k->cluster && d == k->cluster_dim)
    tl_buf_printf(o, "const int %s = 2 * (%s) + (int)tl_cta_rank;\n", k->block_vars[d]->cname,
                  value);
  else
    tl_buf_printf(o, "const int %s = %s;\n", k->block_vars[d]->cname, value);
}

// The block indices the kernel's names stand for. `linear` is the block's
// (or a persistent kernel's tile's) linear index, NULL for blockIdx itself;
// in a cluster kernel it counts pairs of tiles over a grid halved along the
// cluster's dimension.
static void block_indices(Emit *e, const TlKernel *k, const char *linear, int level) {
  TlBuf *o = &e->body;
  TlArena *a = o->arena;
  static const char *dims = "xyz";
  long long g[3] = {k->grid_const[0], k->grid_const[1], k->grid_const[2]};
  if (k->cluster) g[k->cluster_dim] /= 2;
  long long gx = g[0], gy = g[1];
  // A grid sized by runtime values swizzles over gridDim (a plain launch
  // only: a persistent or cluster kernel's tile index needs the extents).
  bool runtime_grid = gx == 0 || gy == 0;
  if (k->swizzle_panel > 0 && (runtime_grid ? !linear && !k->cluster : gy > 1)) {
    // T.use_swizzle: blocks walk panels of `panel` columns so neighbours in
    // launch order share rows of A and columns of B in L2.
    long long p = k->swizzle_panel;
    const char *sx = runtime_grid ? "(int)gridDim.x" : tl_arena_printf(a, "%lld", gx);
    const char *sy = runtime_grid ? "(int)gridDim.y" : tl_arena_printf(a, "%lld", gy);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "// T.use_swizzle(panel_size=%lld): column panels of %lld blocks\n", p, p);
    tl_buf_indent(o, level);
    if (linear)
      tl_buf_printf(o, "const int tl_linear = %s %% (%s * %s);\n", linear, sx, sy);
    else
      tl_buf_printf(o, "const int tl_linear = blockIdx.y * %s + blockIdx.x;\n", sx);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_panel = tl_linear / (%lld * %s);\n", p, sy);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_in_panel = tl_linear %% (%lld * %s);\n", p, sy);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "const int tl_width = min(%lld, %s - tl_panel * %lld);\n", p, sx, p);
    if (k->block_vars[0])
      bind_block_var(e, k, 0, level,
                     tl_arena_printf(a, "tl_panel * %lld + tl_in_panel %% tl_width", p));
    if (k->block_vars[1]) bind_block_var(e, k, 1, level, "tl_in_panel / tl_width");
    if (k->block_vars[2])
      bind_block_var(e, k, 2, level,
                     linear ? tl_arena_printf(a, "%s / (%s * %s)", linear, sx, sy)
                            : "blockIdx.z");
    return;
  }
  for (int d = 0; d < 3; d++) {
    if (!k->block_vars[d] || !kernel_uses(k, k->block_vars[d])) continue;
    if (!linear)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "blockIdx.%c", dims[d]));
    else if (d == 0)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s %% %lld", linear, gx));
    else if (d == 1)
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s / %lld %% %lld", linear, gx, gy));
    else
      bind_block_var(e, k, d, level, tl_arena_printf(a, "%s / (%lld * %lld)", linear, gx, gy));
  }
}

// Constant tables tlc computed (loop_layout inverses), at file scope.
static void tables(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (!b->table) continue;
    tl_buf_printf(o, "// %s[slot * threads + thread] = point * replicas + replica, -1: no point\n",
                  b->name);
    tl_buf_printf(o, "__device__ const int %s[%lld] = {", b->name, (long long)b->table_len);
    for (int64_t j = 0; j < b->table_len; j++)
      tl_buf_printf(o, "%s%d", j % 16 ? ", " : (j ? ",\n  " : "\n  "), b->table[j]);
    tl_buf_puts(o, "\n};\n\n");
  }
}

// The tiles a launch covers; a cluster kernel's blocks walk pairs of them.
static long long launch_tiles(const TlKernel *k) {
  long long tiles = (long long)(k->grid_const[0] * k->grid_const[1] * k->grid_const[2]);
  return k->cluster ? tiles / 2 : tiles;
}

// One role's code; in a persistent kernel, once per tile of this block:
// tiles blockIdx.x, blockIdx.x + gridDim.x, ... with their block indices
// (in a cluster kernel both blocks of a cluster walk the same pairs).
static void role_code(Emit *e, const TlKernel *k, const TlVec *code, int level) {
  if (!k->persistent) {
    tl_cuda_stmts(e, code, level);
    return;
  }
  TlBuf *o = &e->body;
  long long tiles = launch_tiles(k);
  tl_buf_indent(o, level);
  // (counted by the tile index of this block, whose range the bounds say)
  tl_buf_printf(o, "for (int %s = 0; %s < %lld; ++%s) {\n", k->tile_iter->cname,
                k->tile_iter->cname, tiles, k->tile_iter->cname);
  tl_buf_indent(o, level + 1);
  if (k->cluster)
    tl_buf_printf(o, "const int tl_tile = (blockIdx.x >> 1) + %s * (gridDim.x >> 1);\n",
                  k->tile_iter->cname);
  else
    tl_buf_printf(o, "const int tl_tile = blockIdx.x + %s * gridDim.x;\n", k->tile_iter->cname);
  tl_buf_indent(o, level + 1);
  tl_buf_printf(o, "if (tl_tile >= %lld)\n", tiles);
  tl_buf_indent(o, level + 2);
  tl_buf_puts(o, "break;\n");
  block_indices(e, k, "tl_tile", level + 1);
  tl_cuda_stmts(e, code, level + 1);
  tl_buf_indent(o, level);
  tl_buf_puts(o, "}\n");
}

// A cluster's block must not leave while the other block's compute warps
// may still arrive on its barriers: its producer waits, after its last load,
// until every slot of the ring has been released by both blocks (positions
// P .. P + S - 1 of its ring, P the positions it filled).
static void producer_tail(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  TlArena *a = o->arena;
  const TlStmt *loop = TL_VEC_AT(k->producer, TlStmt, 0);
  TlExpr *n = tl_simplify(a, tl_expr_binary(a, loop->loc, OP_SUB, tl_expr_clone(a, loop->stop),
                                            tl_expr_clone(a, loop->start), loop->var->dtype));
  int S = k->ring_stages;
  tl_buf_puts(o, "      // Before this block leaves: every slot released by the compute warps of "
                 "both blocks.\n");
  tl_buf_puts(o, "      const int tl_positions = max(");
  tl_cuda_expr(e, n);
  if (k->persistent) // times the tiles this block walked
    tl_buf_printf(o, ", 0) * ((%lld - 1 - (int)(blockIdx.x >> 1)) / (int)(gridDim.x >> 1) + 1);\n",
                  launch_tiles(k));
  else
    tl_buf_puts(o, ", 0);\n");
  tl_buf_printf(o, "      for (int q = tl_positions; q < tl_positions + %d; ++q)\n", S);
  tl_buf_printf(o, "        tl_mbar_wait(&tl_empty[q %% %d], (q / %d + 1) %% 2);\n", S, S);
}

// A warp-specialized kernel's body: the ring's barriers, then the producer
// warpgroup's loop (one elected thread issues the TMA loads) and the compute
// threads' code, each with its register budget (setmaxnreg). In a cluster
// the barriers of both blocks are initialized before either block's loads
// or arrivals reach them (a cluster barrier), and neither block leaves while
// the other may still arrive on its barriers (producer_tail).
static void warp_roles(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  long long T = (long long)k->threads[0];
  int S = k->ring_stages;
  e->need_mbar = true;
  if (k->cluster)
    tl_buf_printf(
        o, "  // full[s]: stage s's tiles have landed (TMA bytes, this block's and the multicast\n"
           "  // halves); empty[s]: every compute warp of both blocks of the cluster is done with\n"
           "  // stage s (a multicast load writes both blocks' stage s).\n");
  else
    tl_buf_printf(o,
                  "  // full[s]: stage s's tiles have landed (TMA bytes); empty[s]: all %lld "
                  "compute threads\n"
                  "  // are done reading stage s.\n",
                  T);
  tl_buf_printf(o, "  __shared__ __align__(8) uint64_t tl_full[%d], tl_empty[%d];\n", S, S);
  tl_buf_puts(o, "  if (threadIdx.x == 0) {\n");
  tl_buf_printf(o, "    for (int s = 0; s < %d; ++s) {\n", S);
  tl_buf_puts(o, "      tl_mbar_init(&tl_full[s], 1);\n");
  tl_buf_printf(o, "      tl_mbar_init(&tl_empty[s], %lld);\n    }\n", k->cluster ? 2 * T / 32 : T);
  e->need_cluster = e->need_cluster || k->cluster;
  tl_buf_printf(o, "    tl_mbar_fence_init();\n  }\n  %s\n",
                k->cluster ? "tl_cluster_sync();" : "__syncthreads();");
  tl_buf_printf(o, "  if (threadIdx.x >= %lld) { // the producer warpgroup\n", T);
  if (k->producer_regs)
    tl_buf_printf(o, "    asm volatile(\"setmaxnreg.dec.sync.aligned.u32 %d;\\n\");\n",
                  k->producer_regs);
  tl_buf_printf(o, "    if (threadIdx.x == %lld) {\n", T);
  role_code(e, k, &k->producer, 3);
  if (k->cluster) producer_tail(e, k);
  tl_buf_puts(o, "    }\n    return;\n  }\n");
  if (k->consumer_regs)
    tl_buf_printf(o, "  asm volatile(\"setmaxnreg.inc.sync.aligned.u32 %d;\\n\");\n",
                  k->consumer_regs);
  role_code(e, k, &k->body, 1);
  for (int i = 0; i < k->tma_maps.len; i++)
    if (TL_VEC_AT(k->tma_maps, TlTmaMap, i)
            ->store) { // the block's shared memory outlives its last store
      e->need_tma_store_ranks |= 1u;
      tl_buf_puts(o, "  if (threadIdx.x == 0)\n    tl_tma_store_wait_all();\n");
      break;
    }
}

// The packed A registers (tl_pk_<A>) that ST_WGMMA_PACK fills and a_packed
// gemms read (an in-flight one until the wait that pins them): one array per
// fragment.
static void declare_held_a(Emit *e, const TlVec *body, TlVec *seen) {
  for (int i = 0; i < body->len; i++) {
    const TlStmt *s = TL_VEC_AT(*body, TlStmt, i);
    const TlBuffer *a = s->kind == ST_WGMMA_PACK ? s->buf : tl_gemm_held_a(s) ? s->a : NULL;
    bool known = false;
    for (int j = 0; a && j < seen->len; j++)
      known |= seen->items[j] == a;
    int64_t ks, mi;
    if (a && !known && tl_wgmma_packed_dims(a, &ks, &mi)) {
      tl_vec_push(e->body.arena, seen, (void *)a);
      tl_buf_printf(&e->body, "  unsigned tl_pk_%s[%lld][%lld][4];\n", tl_cuda_buf_name(e, a), (long long)ks,
                    (long long)mi);
    }
    declare_held_a(e, &s->body, seen);
    declare_held_a(e, &s->else_body, seen);
  }
}

// The kernel's own mbarriers (T.alloc_barrier, T.create_list_of_mbarrier):
// static shared memory, initialized with their arrive counts by thread 0
// before any thread can reach them.
static void user_mbarriers(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  e->need_mbar = true;
  tl_buf_printf(o, "  __shared__ __align__(8) uint64_t tl_user[%d];\n", k->nmbar);
  tl_buf_puts(o, "  if (threadIdx.x == 0) {\n");
  for (int i = 0; i < k->nmbar; i++)
    tl_buf_printf(o, "    tl_mbar_init(&tl_user[%d], %lld);\n", i, (long long)k->mbar_counts[i]);
  tl_buf_puts(o, "    tl_mbar_fence_init();\n  }\n  __syncthreads();\n");
}

static const char *tma_dtype(TlDtype t) {
  switch (t) {
  case TY_FLOAT16:
    return "CU_TENSOR_MAP_DATA_TYPE_FLOAT16";
  case TY_BFLOAT16:
    return "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16";
  case TY_FLOAT32:
    return "CU_TENSOR_MAP_DATA_TYPE_FLOAT32";
  case TY_FLOAT64:
    return "CU_TENSOR_MAP_DATA_TYPE_FLOAT64";
  case TY_INT32:
    return "CU_TENSOR_MAP_DATA_TYPE_INT32";
  case TY_UINT32:
    return "CU_TENSOR_MAP_DATA_TYPE_UINT32";
  case TY_INT64:
    return "CU_TENSOR_MAP_DATA_TYPE_INT64";
  case TY_INT16:
  case TY_UINT16:
    return "CU_TENSOR_MAP_DATA_TYPE_UINT16";
  case TY_UINT64:
    return "CU_TENSOR_MAP_DATA_TYPE_UINT64";
  default:
    return "CU_TENSOR_MAP_DATA_TYPE_UINT8";
  }
}

// The launcher encodes tensor map i (innermost dimension first, as the
// driver wants it); an address or shape TMA cannot take is a launch error.
static void tensor_map(Emit *e, const TlKernel *k, int i) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(k->tma_maps, TlTmaMap, i);
  e->need_tma_host = true;
  const TlBuffer *g = m->global;
  int64_t eb = tl_dtype_bits(g->dtype) / 8, stride = eb;
  tl_buf_printf(o, "  CUtensorMap tl_tmap_%d; // %s -> %s\n  {\n    const cuuint64_t dims[%d] = {",
                i, g->name, m->tile->name, m->rank);
  // A runtime extent is the size parameter (checked above 0 before), and the
  // strides its products with the static extents.
  for (int d = m->rank - 1; d >= 0; d--) {
    tl_buf_puts(o, d == m->rank - 1 ? "" : ", ");
    if (g->dyn[d] && tl_buffer_dyn_scale(g, d) > 1)
      tl_buf_printf(o, "(cuuint64_t)%s * %lld", g->dyn[d]->cname,
                    (long long)tl_buffer_dyn_scale(g, d));
    else if (g->dyn[d])
      tl_buf_printf(o, "(cuuint64_t)%s", g->dyn[d]->cname);
    else
      tl_buf_printf(o, "%lld", (long long)g->shape[d]);
  }
  tl_buf_printf(o, "};\n    const cuuint64_t strides[%d] = {", m->rank > 1 ? m->rank - 1 : 1);
  TlBuf runtime; // the runtime factors of the stride so far
  tl_buf_init(&runtime, o->arena);
  tl_buf_puts(&runtime, "");
  for (int d = m->rank - 1; d >= 1; d--) {
    if (g->dyn[d]) {
      tl_buf_printf(&runtime, " * (cuuint64_t)%s", g->dyn[d]->cname);
      stride *= tl_buffer_dyn_scale(g, d);
    } else
      stride *= g->shape[d];
    tl_buf_printf(o, "%s%lld%s", d == m->rank - 1 ? "" : ", ", (long long)stride, runtime.data);
  }
  if (m->rank == 1) tl_buf_puts(o, "0");
  tl_buf_printf(o, "};\n    const cuuint32_t box[%d] = {", m->rank);
  for (int d = m->rank - 1; d >= 0; d--)
    tl_buf_printf(o, "%s%lld", d == m->rank - 1 ? "" : ", ", (long long)m->box[d]);
  tl_buf_printf(o,
                "};\n    cudaError_t err = tl_tma_map(&tl_tmap_%d, %s, %s, %d, dims, strides, box, "
                "CU_TENSOR_MAP_SWIZZLE_%s);\n",
                i, tl_cuda_buf_name(e, g), tma_dtype(g->dtype), m->rank,
                m->swizzle_bytes == 128  ? "128B"
                : m->swizzle_bytes == 64 ? "64B"
                : m->swizzle_bytes == 32 ? "32B"
                                         : "NONE");
  tl_buf_puts(o, "    if (err != cudaSuccess)\n      return err;\n  }\n");
}

// A kernel that assumes divisors of its runtime sizes (specialize-sizes)
// runs its unaligned twin when one does not hold, or when a runtime extent of
// a TMA tensor is 0 (the driver encodes no map of an empty dimension).
static void fallback_dispatch(Emit *e, const TlKernel *k) {
  if (!k->fallback) return;
  TlBuf *o = &e->body;
  TlBuf cond;
  tl_buf_init(&cond, o->arena);
  tl_buf_puts(&cond, "");
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    if (v->divisor > 1)
      tl_buf_printf(&cond, "%s%s %% %lld != 0", cond.len ? " || " : "", v->cname,
                    (long long)v->divisor);
  }
  for (int i = 0; i < k->sizes.len; i++) {
    const TlVar *v = TL_VEC_AT(k->sizes, TlVar, i);
    bool in_map = false;
    for (int j = 0; j < k->tma_maps.len && !in_map; j++) {
      const TlBuffer *g = TL_VEC_AT(k->tma_maps, TlTmaMap, j)->global;
      for (int d = 0; d < g->ndims; d++)
        in_map = in_map || g->dyn[d] == v;
    }
    if (in_map) tl_buf_printf(&cond, "%s%s == 0", cond.len ? " || " : "", v->cname);
  }
  if (!cond.len) return;
  tl_buf_printf(
      o, "  // Sizes this kernel does not assume (rows of 16 bytes%s) run its unaligned twin.\n",
      k->tma_maps.len ? ", TMA extents above 0" : "");
  tl_buf_printf(o, "  if (%s)\n    return %s(", cond.data, k->fallback);
  arg_list(o, e, k);
  tl_buf_printf(o, "%sstream);\n", k->params.len || k->sizes.len ? ", " : "");
}

void tl_cuda_kernel(Emit *e, const TlKernel *k) {
  TlBuf *o = &e->body;
  e->k = k;
  e->kernel_wgmma = tl_body_uses_wgmma(&k->body);
  tables(e, k);
  int64_t T = k->threads[0] * k->threads[1] * k->threads[2];
  tl_buf_printf(o, "// kernel %s (%s:%d): grid (", k->name, e->m->src->name, k->loc.line);
  for (int d = 0; d < 3; d++) {
    tl_buf_puts(o, d ? ", " : "");
    grid_extent(e, k, d);
  }
  if (k->launch_threads)
    tl_buf_printf(o, "), %lld threads in T.ws scopes of %lld, %lld bytes of dynamic shared memory\n",
                  (long long)k->launch_threads, (long long)T, (long long)k->shared_bytes);
  else
    tl_buf_printf(o, "), %lld threads, %lld bytes of dynamic shared memory\n", (long long)T,
                  (long long)k->shared_bytes);
  // T.ws scopes: the block is launch_threads threads, each scope `threads`.
  int64_t producer = k->ring_stages ? TL_PRODUCER_THREADS : k->launch_threads ? k->launch_threads - T : 0,
          launched = T + producer;
  if (k->ring_stages)
    tl_buf_printf(
        o,
        "// Warp-specialized: threads 0..%lld compute, threads %lld..%lld (one warpgroup) "
        "load tiles by TMA\n",
        (long long)T - 1, (long long)T, (long long)launched - 1);
  if (k->cluster)
    tl_buf_printf(
        o,
        "// Clusters of 2 blocks along %c: the tiles both blocks need are loaded half by each and\n"
        "// multicast to both (TMA .multicast::cluster)\n",
        "xyz"[k->cluster_dim]);
  tl_buf_printf(o, "extern \"C\" __global__ void %s__launch_bounds__(%lld, %d) %s_kernel(",
                k->cluster ? "__cluster_dims__(2, 1, 1) " : "", (long long)launched,
                tl_kernel_min_blocks(k), k->name);
  param_list(e, o, k, true);
  for (int i = 0; i < k->tma_maps.len; i++)
    tl_buf_printf(o, ", const __grid_constant__ CUtensorMap tl_tmap_%d", i);
  tl_buf_puts(o, ") {\n");
  if (k->cluster) // a 1-D launch: blocks 2i and 2i+1 form cluster i, which computes pair i
    tl_buf_puts(o, "  const unsigned tl_cta_rank = tl_cluster_rank();\n");
  if (folded_grid(k))
    tl_buf_printf(o,
                  "  // grid (%lld, %lld, %lld) launched as %lld blocks along x: y or z is past "
                  "65535\n",
                  (long long)k->grid_const[0], (long long)k->grid_const[1],
                  (long long)k->grid_const[2],
                  (long long)(k->grid_const[0] * k->grid_const[1] * k->grid_const[2]));
  if (!k->persistent)
    block_indices(e, k,
                  k->cluster       ? "(blockIdx.x >> 1)"
                  : folded_grid(k) ? "(int)blockIdx.x"
                                   : NULL,
                  1);
  bool has_shared = false;
  for (int i = 0; i < k->buffers.len; i++) {
    TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->scope == SCOPE_SHARED && !has_shared) {
      tl_buf_puts(o, "  extern __shared__ __align__(1024) unsigned char tl_smem[];\n");
      has_shared = true;
    }
    if (b->scope == SCOPE_SHARED)
      tl_buf_printf(o, "  %s* %s = (%s*)(tl_smem + %lld); // %lld bytes\n", tl_dtype_cuda(b->dtype),
                    tl_cuda_buf_name(e, b), tl_dtype_cuda(b->dtype), (long long)b->shared_offset,
                    (long long)tl_buffer_bytes(b));
    else if (b->scope == SCOPE_LOCAL)
      // An mma.sync operand is read as 32-bit registers: 16-byte aligned.
      tl_buf_printf(o, "  %s%s %s[%lld];\n", mma_operand(&k->body, b) ? "__align__(16) " : "",
                    tl_dtype_cuda(b->dtype), tl_cuda_buf_name(e, b), (long long)tl_buffer_elems(b));
    else if (b->scope == SCOPE_FRAGMENT && b->layout)
      tl_buf_printf(o, "  %s %s[%lld]; // fragment %s\n", tl_dtype_cuda(b->dtype),
                    tl_cuda_buf_name(e, b), (long long)b->layout->locals,
                    tl_layout_describe(o->arena, b->layout));
  }
  if (k->nmbar) user_mbarriers(e, k);
  TlVec held = {0};
  declare_held_a(e, &k->body, &held);
  if (tl_body_uses_rng(&k->body)) // T.rng_init: each thread's own Philox generator
    tl_buf_puts(&e->body, "  tl_rng_t tl_rng;\n");
  if (k->ring_stages)
    warp_roles(e, k);
  else
    tl_cuda_stmts(e, &k->body, 1);
  tl_buf_puts(o, "}\n\n");

  // The host launcher (an unaligned twin's is static: only its kernel's
  // launcher calls it).
  if (k->fallback) {
    tl_buf_printf(o, "static cudaError_t %s(", k->fallback);
    param_list(e, o, k, false);
    tl_buf_printf(o, "%scudaStream_t stream);\n\n", k->params.len || k->sizes.len ? ", " : "");
  }
  tl_buf_printf(o, "%s cudaError_t %s(", k->is_fallback ? "static" : "extern \"C\"", k->name);
  param_list(e, o, k, false);
  tl_buf_printf(o, "%scudaStream_t stream) {\n", k->params.len || k->sizes.len ? ", " : "");
  size_checks(e, k);
  fallback_dispatch(e, k);
  tl_buf_printf(o, "  const size_t smem = %lld;\n", (long long)k->shared_bytes);
  // A warp-specialized kernel's barriers are static shared memory on top
  // (1 KB once aligned), which counts towards the same 48 KB default.
  if (k->shared_bytes + (k->ring_stages ? TL_RING_BARRIER_BYTES : 0) > 48 * 1024) {
    tl_buf_printf(o, "  // Above 48 KB a kernel must opt in to more dynamic shared memory.\n");
    tl_buf_printf(o,
                  "  cudaError_t err = cudaFuncSetAttribute(%s_kernel, "
                  "cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);\n",
                  k->name);
    tl_buf_puts(o, "  if (err != cudaSuccess)\n    return err;\n");
  }
  for (int i = 0; i < k->tma_maps.len; i++)
    tensor_map(e, k, i);
  if (k->persistent && k->cluster) {
    // One cluster per pair of SMs that can hold one (at most one per pair
    // of tiles); each walks its share of the pairs.
    long long pairs = launch_tiles(k);
    tl_buf_puts(o, "  static int tl_clusters = 0;\n  if (!tl_clusters) {\n"
                   "    cudaLaunchConfig_t cfg = {};\n    cudaLaunchAttribute attr = {};\n"
                   "    attr.id = cudaLaunchAttributeClusterDimension;\n"
                   "    attr.val.clusterDim.x = 2;\n    attr.val.clusterDim.y = 1;\n    "
                   "attr.val.clusterDim.z = 1;\n");
    tl_buf_printf(o, "    cfg.gridDim = dim3(2, 1, 1);\n    cfg.blockDim = dim3(%lld, 1, 1);\n",
                  (long long)(k->threads[0] + producer));
    tl_buf_printf(
        o,
        "    cfg.dynamicSmemBytes = smem;\n    cfg.attrs = &attr;\n    cfg.numAttrs = 1;\n"
        "    if (cudaOccupancyMaxActiveClusters(&tl_clusters, (const void *)%s_kernel, &cfg) != "
        "cudaSuccess ||\n"
        "        tl_clusters < 1)\n      return cudaErrorInvalidValue;\n  }\n",
        k->name);
    tl_buf_printf(
        o,
        "  const unsigned tl_blocks = 2u * (unsigned)(tl_clusters < %lld ? tl_clusters : %lld);\n",
        pairs, pairs);
    tl_buf_printf(o, "  %s_kernel<<<dim3(tl_blocks, 1, 1)", k->name);
  } else if (k->persistent) {
    // One block per SM (at most one per tile); each walks its share of the
    // tiles. (Warp specialization needs compile-time sizes: no runtime grid.)
    long long tiles = launch_tiles(k);
    tl_buf_puts(o, "  static int tl_sms = 0;\n  if (!tl_sms) {\n    int dev = 0;\n"
                   "    if (cudaGetDevice(&dev) != cudaSuccess ||\n"
                   "        cudaDeviceGetAttribute(&tl_sms, cudaDevAttrMultiProcessorCount, dev) "
                   "!= cudaSuccess)\n"
                   "      return cudaErrorInvalidValue;\n  }\n");
    tl_buf_printf(o, "  const unsigned tl_blocks = (unsigned)(tl_sms < %lld ? tl_sms : %lld);\n",
                  tiles, tiles);
    tl_buf_printf(o, "  %s_kernel<<<dim3(tl_blocks, 1, 1)", k->name);
  } else if (k->cluster) {
    tl_buf_printf(o, "  %s_kernel<<<dim3(%lld, 1, 1)", k->name, 2 * launch_tiles(k));
  } else if (tl_body_syncs_grid(&k->body)) {
    // T.sync_grid(): a cooperative launch, so every block is resident at
    // once (the runtime refuses a grid that cannot be, with
    // cudaErrorCooperativeLaunchTooLarge).
    declare_runtime_grid(e, k);
    tl_buf_puts(o, "  void *tl_args[] = {");
    int n = 0;
    for (int i = 0; i < k->params.len; i++)
      tl_buf_printf(o, "%s(void *)&%s", n++ ? ", " : "",
                    tl_cuda_buf_name(e, TL_VEC_AT(k->params, TlBuffer, i)));
    for (int i = 0; i < k->sizes.len; i++)
      tl_buf_printf(o, "%s(void *)&%s", n++ ? ", " : "", TL_VEC_AT(k->sizes, TlVar, i)->cname);
    for (int i = 0; i < k->tma_maps.len; i++)
      tl_buf_printf(o, "%s(void *)&tl_tmap_%d", n++ ? ", " : "", i);
    tl_buf_printf(o, "%snullptr};\n", n ? ", " : "");
    tl_buf_printf(o, "  return cudaLaunchCooperativeKernel((const void *)%s_kernel, ", k->name);
    launch_grid(e, k);
    tl_buf_printf(o, ", dim3(%lld, %lld, %lld), tl_args, smem, stream);\n}\n\n",
                  (long long)(k->threads[0] + producer), (long long)k->threads[1],
                  (long long)k->threads[2]);
    return;
  } else {
    declare_runtime_grid(e, k);
    tl_buf_printf(o, "  %s_kernel<<<", k->name);
    launch_grid(e, k);
  }
  tl_buf_printf(o, ", dim3(%lld, %lld, %lld), smem, stream>>>(",
                (long long)(k->threads[0] + producer), (long long)k->threads[1],
                (long long)k->threads[2]);
  arg_list(o, e, k);
  for (int i = 0; i < k->tma_maps.len; i++)
    tl_buf_printf(o, "%stl_tmap_%d", i || k->params.len || k->sizes.len ? ", " : "", i);
  tl_buf_puts(o, ");\n  return cudaGetLastError();\n}\n\n");
}
