// The CUDA emitter's statements: loops, guards, stores and vector accesses,
// reductions and atomics, copies, gemm calls, barriers, cp.async and TMA
// copies, mbarrier waits and arrivals, each printed as the passes left it.
#include "CudaEmitInternal.h"

#include <math.h>
#include <string.h>

// The CUDA type that moves `width` elements of t in one access.
static const char *vector_type(TlDtype t, int64_t width) {
  int bytes = (int)(tl_dtype_bits(t) / 8 * width);
  if (t == TY_FLOAT32) return width == 4 ? "float4" : width == 2 ? "float2" : "float";
  if (t == TY_FLOAT16 && width == 2) return "__half2";
  if (t == TY_BFLOAT16 && width == 2) return "__nv_bfloat162";
  if (t == TY_FLOAT64 && width == 2) return "double2";
  return bytes == 16  ? "uint4"
         : bytes == 8 ? "uint2"
         : bytes == 4 ? "unsigned int"
         : bytes == 2 ? "unsigned short"
                      : "unsigned char";
}

// A vector load or store of more than 16 bytes (a run of 8 fp32 registers)
// is 16-byte pieces, `((uint4*)r)[i] = ((const uint4*)&A[base])[i]`: the
// vectorizer checked that base is aligned to the whole run.
static bool wide_access(Emit *e, const TlStmt *s, int level) {
  int64_t bytes = tl_dtype_bits(s->buf->dtype) / 8 * s->width;
  if (bytes <= 16) return false;
  TlBuf *o = &e->body;
  for (int64_t i = 0; i < bytes / 16; i++) {
    tl_buf_indent(o, level);
    if (s->kind == ST_VLOAD) {
      tl_buf_printf(o, "((uint4*)%s)[%lld] = ((const uint4*)&%s[", s->var->cname, (long long)i,
                    tl_cuda_buf_name(e, s->buf));
      tl_cuda_expr(e, s->indices[0]);
      tl_buf_printf(o, "])[%lld];\n", (long long)i);
    } else {
      tl_buf_printf(o, "((uint4*)&%s[", tl_cuda_buf_name(e, s->buf));
      tl_cuda_expr(e, s->indices[0]);
      tl_buf_printf(o, "])[%lld] = ((const uint4*)%s)[%lld];\n", (long long)i, s->var->cname,
                    (long long)i);
    }
  }
  return true;
}

// Prints an expression into another buffer (the gemm helpers use it).
static void print_expr_to(TlBuf *out, const TlExpr *x) {
  Emit tmp = {0};
  tmp.body = *out;
  tl_cuda_expr(&tmp, x);
  *out = tmp.body;
}

// T.atomic_add: CUDA's atomicAdd has float, __half and __nv_bfloat16
// overloads on sm_80 and newer (sema keeps other dtypes out), so the value,
// already converted to the buffer's dtype, is passed as it is.
static void atomic_add(Emit *e, const char *target, const TlExpr *value) {
  tl_buf_printf(&e->body, "atomicAdd(&%s, ", target);
  tl_cuda_expr(e, value);
  tl_buf_puts(&e->body, ");\n");
}

static void update(Emit *e, const TlStmt *s, const char *target) {
  TlBuf *o = &e->body;
  switch (s->update_op) {
  case OP_EQ:
    tl_buf_printf(o, "%s = ", target);
    tl_cuda_expr(e, s->value);
    break;
  case OP_ADD:
  case OP_SUB:
  case OP_MUL:
  case OP_DIV:
  case OP_BITAND: // C's compound assignment converts back to the target's type
  case OP_BITOR:
  case OP_XOR:
  case OP_SHL:
  case OP_SHR:
    tl_buf_printf(o, "%s %s= ", target, tl_op_name(s->update_op));
    tl_cuda_expr(e, s->value);
    break;
  default: {
    // floor ops: target = op(target, value)
    tl_buf_printf(o, "%s = ", target);
    const char *fn = s->update_op == OP_FLOORDIV ? "tl_floordiv"
                     : s->update_op == OP_FMOD   ? "tl_pymod"
                                                 : "tl_floormod";
    if (s->update_op == OP_FLOORDIV)
      e->need_floordiv = true;
    else if (s->update_op == OP_FMOD)
      e->need_fmod = true;
    else
      e->need_floormod = true;
    tl_buf_printf(o, "%s(%s, ", fn, target);
    tl_cuda_expr(e, s->value);
    tl_buf_putc(o, ')');
    break;
  }
  }
  tl_buf_puts(o, ";\n");
}

// One TMA load per swizzle panel of the tile: coordinates innermost first
// (the tensor map's order), the panel's columns offset along the contiguous
// dimension; the bytes complete on the stage's full barrier.
static void tma_load(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(e->k->tma_maps, TlTmaMap, s->tma_map);
  int64_t rows = m->tile->shape[0], panels = m->tile->shape[1] / m->panel_cols;
  // A multicast map's box is this cluster rank's half of the rows; the
  // bytes land at the same offsets in both blocks of the cluster.
  int64_t half = m->multicast ? m->box[m->row_dim] : 0;
  e->need_tma_ranks |= 1u << m->rank;
  if (m->multicast) e->need_tma_mc_ranks |= 1u << m->rank;
  e->need_mbar = true;
  for (int64_t p = 0; p < panels; p++) {
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_tma_load_%s%dd(&%s[", m->multicast ? "mc_" : "", m->rank,
                  tl_cuda_buf_name(e, m->tile));
    tl_cuda_expr_p(e, s->stage_a, 13);
    tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(m->tile));
    if (p) tl_buf_printf(o, " + %lld", (long long)(p * rows * m->panel_cols));
    if (half) tl_buf_printf(o, " + tl_cta_rank * %lld", (long long)(half * m->panel_cols));
    // The stage's full barrier, or the kernel's own (T.tma_copy's barrier=).
    tl_buf_printf(o, "], &tl_tmap_%d, &tl_%s[", s->tma_map, s->stage_b ? "user" : "full");
    tl_cuda_expr(e, s->stage_b ? s->stage_b : s->stage_a);
    tl_buf_puts(o, "]");
    for (int d = m->rank - 1; d >= 0; d--) {
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, s->src.start[d]);
      if (d == m->col_dim && p) tl_buf_printf(o, " + %lld", (long long)(p * m->panel_cols));
      if (d == m->row_dim && half) tl_buf_printf(o, " + (int)tl_cta_rank * %lld", (long long)half);
    }
    tl_buf_puts(o, ");\n");
  }
}

// Thread 0 stores the staged tile, one TMA store per swizzle panel, and
// commits them as one bulk group (the barrier before it made every thread's
// writes to the tile visible to the TMA unit).
static void tma_store(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  const TlTmaMap *m = TL_VEC_AT(e->k->tma_maps, TlTmaMap, s->tma_map);
  int64_t rows = m->tile->shape[0], panels = m->tile->shape[1] / m->panel_cols;
  e->need_tma_store_ranks |= 1u << m->rank;
  tl_buf_indent(o, level);
  tl_buf_puts(o, "if (threadIdx.x == 0) {\n");
  for (int64_t p = 0; p < panels; p++) {
    tl_buf_indent(o, level + 1);
    tl_buf_printf(o, "tl_tma_store_%dd(&tl_tmap_%d, &%s[%lld]", m->rank, s->tma_map,
                  tl_cuda_buf_name(e, m->tile), (long long)(p * rows * m->panel_cols));
    for (int d = m->rank - 1; d >= 0; d--) {
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, s->dst.start[d]);
      if (d == m->col_dim && p) tl_buf_printf(o, " + %lld", (long long)(p * m->panel_cols));
    }
    tl_buf_puts(o, ");\n");
  }
  tl_buf_indent(o, level + 1);
  tl_buf_puts(o, "tl_tma_store_commit();\n");
  tl_buf_indent(o, level);
  tl_buf_puts(o, "}\n");
}

static void stmt(Emit *e, const TlStmt *s, int level) {
  TlBuf *o = &e->body;
  switch (s->kind) {
  case ST_SEQ:
    if (s->plan.ndims > 0 || s->per_thread || s->body.len > 1) {
      tl_buf_indent(o, level);
      tl_buf_puts(o, "{\n");
      tl_cuda_stmts(e, &s->body, level + 1);
      tl_buf_indent(o, level);
      tl_buf_puts(o, "}\n");
    } else {
      tl_cuda_stmts(e, &s->body, level);
    }
    return;
  case ST_COMMENT:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "// %s\n", s->text);
    return;
  case ST_FOR: {
    int64_t n;
    if (s->loop_kind == LOOP_UNROLL || s->loop_kind == LOOP_VECTORIZED ||
        (tl_expr_is_const(s->stop, &n) && tl_expr_is_const(s->start, NULL) && n <= 1)) {
      tl_buf_indent(o, level);
      tl_buf_puts(o, "#pragma unroll\n");
    }
    tl_buf_indent(o, level);
    tl_buf_printf(o, "for (%s %s = ", tl_dtype_cuda(s->var->dtype), s->var->cname);
    tl_cuda_expr(e, s->start);
    int64_t step = 1;
    tl_expr_is_const(s->step, &step);
    tl_buf_printf(o, "; %s %s ", s->var->cname,
                  step < 0 ? ">" : "<"); // range(15, -1, -1) counts down
    tl_cuda_expr(e, s->stop);
    if (step == 1)
      tl_buf_printf(o, "; ++%s) {\n", s->var->cname);
    else
      tl_buf_printf(o, "; %s += %lld) {\n", s->var->cname, (long long)step);
    tl_cuda_stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    tl_buf_puts(o, "}\n");
    return;
  }
  case ST_WHILE:
    tl_buf_indent(o, level);
    tl_buf_puts(o, "while (");
    tl_cuda_expr(e, s->cond);
    tl_buf_puts(o, ") {\n");
    tl_cuda_stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    tl_buf_puts(o, "}\n");
    return;
  case ST_IF:
    tl_buf_indent(o, level);
    tl_buf_puts(o, "if (");
    tl_cuda_expr(e, s->cond);
    tl_buf_puts(o, ") {\n");
    if (s->group_threads) { // a T.ws scope: its barriers are its threads' named barrier
      tl_buf_indent(o, level + 1);
      tl_buf_printf(o, "// T.ws: threads %lld..%lld\n", (long long)s->group_lo,
                    (long long)(s->group_lo + s->group_threads - 1));
      e->group_lo = s->group_lo;
      e->group_threads = s->group_threads;
      tl_cuda_stmts(e, &s->body, level + 1);
      e->group_threads = 0;
      tl_buf_indent(o, level);
      tl_buf_puts(o, "}\n");
      return;
    }
    tl_cuda_stmts(e, &s->body, level + 1);
    tl_buf_indent(o, level);
    // An if alone in an else (an elif) is printed flat as `} else if`, in a
    // loop: a chain of n branches is n lines deep, not n levels.
    while (s->else_body.len == 1 && TL_VEC_AT(s->else_body, TlStmt, 0)->kind == ST_IF) {
      s = TL_VEC_AT(s->else_body, TlStmt, 0);
      tl_buf_puts(o, "} else if (");
      tl_cuda_expr(e, s->cond);
      tl_buf_puts(o, ") {\n");
      tl_cuda_stmts(e, &s->body, level + 1);
      tl_buf_indent(o, level);
    }
    if (s->else_body.len) {
      tl_buf_puts(o, "} else {\n");
      tl_cuda_stmts(e, &s->else_body, level + 1);
      tl_buf_indent(o, level);
    }
    tl_buf_puts(o, "}\n");
    return;
  case ST_STORE: {
    tl_buf_indent(o, level);
    TlBuf target;
    tl_buf_init(&target, o->arena);
    if (s->buf) {
      tl_buf_printf(&target, "%s[", tl_cuda_buf_name(e, s->buf));
    } else {
      tl_buf_printf(&target, "%s[", s->var->cname);
    }
    TlBuf saved = e->body;
    e->body = target;
    tl_cuda_expr(e, s->indices[0]);
    tl_buf_putc(&e->body, ']');
    target = e->body;
    e->body = saved;
    if (s->atomic)
      atomic_add(e, target.data, s->value);
    else
      update(e, s, target.data);
    return;
  }
  case ST_LET:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "%s %s = ", tl_dtype_cuda(s->var->dtype), s->var->cname);
    tl_cuda_expr(e, s->value);
    tl_buf_puts(o, ";\n");
    return;
  case ST_SET:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "%s = ", s->var->cname);
    tl_cuda_expr(e, s->value);
    tl_buf_puts(o, ";\n");
    return;
  case ST_DECL:
    tl_buf_indent(o, level);
    tl_buf_printf(o, "__align__(16) %s %s[%lld];\n", tl_dtype_cuda(s->var->dtype), s->var->cname,
                  (long long)s->var->lanes);
    return;
  case ST_VLOAD: {
    if (wide_access(e, s, level)) return;
    const char *vt = vector_type(s->buf->dtype, s->width);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "*(%s*)%s = *(const %s*)&%s[", vt, s->var->cname, vt,
                  tl_cuda_buf_name(e, s->buf));
    tl_cuda_expr(e, s->indices[0]);
    tl_buf_puts(o, "];\n");
    return;
  }
  case ST_VSTORE: {
    if (wide_access(e, s, level)) return;
    const char *vt = vector_type(s->buf->dtype, s->width);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "*(%s*)&%s[", vt, tl_cuda_buf_name(e, s->buf));
    tl_cuda_expr(e, s->indices[0]);
    tl_buf_printf(o, "] = *(const %s*)%s;\n", vt, s->var->cname);
    return;
  }
  case ST_RNG_INIT: // T.rng_init: this thread's generator (declared at the kernel's top)
    tl_buf_indent(o, level);
    tl_buf_puts(o, "tl_rng_init(&tl_rng, (unsigned long long)(");
    tl_cuda_expr(e, s->value);
    tl_buf_puts(o, "), (unsigned long long)(");
    tl_cuda_expr(e, s->start);
    tl_buf_puts(o, "), (unsigned long long)(");
    tl_cuda_expr(e, s->stop);
    tl_buf_puts(o, "));\n");
    return;
  case ST_SYNC:
    if (s->grid_sync) { // T.sync_grid(): the kernel is launched cooperatively
      tl_buf_indent(o, level);
      tl_buf_puts(o, "tl_grid_sync();\n");
      return;
    }
    if (s->barrier_id && s->barrier_arrive) {
      // A T.ws scope hands shared data to another (thread-sync): its writes,
      // also those the other scope's wgmma reads, before it arrives.
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
      tl_buf_indent(o, level);
      tl_buf_printf(o, "asm volatile(\"bar.arrive %d, %lld;\\n\" ::: \"memory\");\n",
                    s->barrier_id, (long long)s->barrier_threads);
      return;
    }
    if (s->barrier_id) { // T.sync_threads(id, count), or the reader's side of a hand-over
      tl_buf_indent(o, level);
      tl_buf_printf(o, "asm volatile(\"bar.sync %d, %lld;\\n\" ::: \"memory\");\n", s->barrier_id,
                    (long long)s->barrier_threads);
      return;
    }
    if (e->group_threads) {
      // Inside a T.ws scope only its threads reach the barrier: named barrier
      // 1 + (first thread / 128) of that many threads (0 is __syncthreads),
      // or 1 + (first thread / 32) in a kernel split into warp ranges.
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
      tl_buf_indent(o, level);
      tl_buf_printf(o, "asm volatile(\"bar.sync %d, %lld;\\n\" ::: \"memory\");\n",
                    tl_scope_barrier_id(e->k, e->group_lo), (long long)e->group_threads);
      return;
    }
    if (e->k->ring_stages) {
      // Warp-specialized: the producer warpgroup never reaches this barrier,
      // so the compute threads meet at named barrier 1, not __syncthreads.
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
      tl_buf_indent(o, level);
      tl_buf_printf(o, "asm volatile(\"bar.sync 1, %lld;\\n\" ::: \"memory\");\n",
                    (long long)e->k->threads[0]);
      return;
    }
    if (e->kernel_wgmma) {
      // Shared memory written by ordinary stores and cp.async (the generic
      // proxy) is read by wgmma through the async proxy: each writer fences
      // before the barrier (PTX ISA, "Memory proxies"; fence.proxy.async).
      tl_buf_indent(o, level);
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
    }
    tl_buf_indent(o, level);
    tl_buf_puts(o, "__syncthreads();\n");
    return;
  case ST_CP_ASYNC: {
    e->need_cp_async = true;
    const TlExpr *src = s->value;
    int bytes = (int)(tl_dtype_bits(s->buf->dtype) / 8 * s->width);
    tl_buf_indent(o, level);
    if (s->cond) {
      tl_buf_printf(o, "tl_cp_async_zfill<%d>(&%s[", bytes, tl_cuda_buf_name(e, s->buf));
      tl_cuda_expr(e, s->indices[0]);
      tl_buf_puts(o, "], ");
      tl_cuda_expr(e, s->cond);
      tl_buf_puts(o, " ? (const void*)&");
      tl_cuda_expr(e, src);
      tl_buf_printf(o, " : (const void*)%s, ", tl_cuda_buf_name(e, src->buf));
      tl_cuda_expr(e, s->cond);
      tl_buf_puts(o, ");\n");
    } else {
      tl_buf_printf(o, "tl_cp_async<%d>(&%s[", bytes, tl_cuda_buf_name(e, s->buf));
      tl_cuda_expr(e, s->indices[0]);
      tl_buf_puts(o, "], &");
      tl_cuda_expr(e, src);
      tl_buf_puts(o, ");\n");
    }
    return;
  }
  case ST_ASYNC_COMMIT:
    e->need_cp_async = true;
    tl_buf_indent(o, level);
    tl_buf_puts(o, "asm volatile(\"cp.async.commit_group;\\n\" ::);\n");
    return;
  case ST_ASYNC_WAIT:
    e->need_cp_async = true;
    tl_buf_indent(o, level);
    tl_buf_printf(o, "asm volatile(\"cp.async.wait_group %lld;\\n\" ::);\n", (long long)s->width);
    return;
  case ST_GEMM:
    if (s->use_mma) e->need_mma = e->need_swz = true;
    if (s->use_mma && ((s->a->scope == SCOPE_SHARED && tl_cuda_swizzle_is_wg(s->a)) ||
                       tl_cuda_swizzle_is_wg(s->b)))
      e->need_swz_wg = true; // an operand a wgmma gemm laid out (GemmEmit.c swz_index)
    if (s->use_wgmma) e->need_wgmma = true;
    tl_emit_gemm_helper(&e->helpers, o->arena, s, e->group_threads ? e->group_threads : e->k->launch_threads ? e->k->threads[0] : 0,
                        print_expr_to);
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_gemm_%d(%s", s->gemm_id, tl_cuda_buf_name(e, s->a));
    if (s->offset_a) { // a region of a larger tile, read in place
      tl_buf_puts(o, " + ");
      tl_cuda_expr_p(e, s->offset_a, 13);
    }
    if (s->stage_a) {
      tl_buf_puts(o, " + ");
      tl_cuda_expr_p(e, s->stage_a, 13);
      tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(s->a));
    }
    tl_buf_printf(o, ", %s", tl_cuda_buf_name(e, s->b));
    if (s->offset_b) {
      tl_buf_puts(o, " + ");
      tl_cuda_expr_p(e, s->offset_b, 13);
    }
    if (s->stage_b) {
      tl_buf_puts(o, " + ");
      tl_cuda_expr_p(e, s->stage_b, 13);
      tl_buf_printf(o, " * %lld", (long long)tl_buffer_elems(s->b));
    }
    tl_buf_printf(o, ", %s", tl_cuda_buf_name(e, s->c));
    if (tl_gemm_held_a(s)) { // its A registers are the kernel's, held until the wait
      tl_buf_printf(o, ", tl_pk_%s", tl_cuda_buf_name(e, s->a));
      e->need_wgmma_pack = true;
      if (s->wgmma_in_flight) {
        e->inflight_acc = s->c;
        e->inflight_a = s->a;
      }
    }
    if (s->cond) { // issued by every thread, its wgmma predicated on this
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, s->cond);
    }
    tl_buf_puts(o, ");\n");
    return;
  case ST_MMA: { // one m16n8k16 / m16n8k32 atom on local buffers
    TlDtype t = s->a->dtype;
    const char *fn = t == TY_FLOAT16    ? "tl_mma_half"
                     : t == TY_BFLOAT16 ? "tl_mma_bf16"
                     : t == TY_INT8     ? "tl_mma_s8"
                     : t == TY_FLOAT8_E4M3 ? "tl_mma_e4m3"
                                           : "tl_mma_e5m2";
    if (t == TY_FLOAT16 || t == TY_BFLOAT16)
      e->need_mma = e->need_swz = true;
    else
      e->need_mma_8bit |= t == TY_INT8 ? 1u : t == TY_FLOAT8_E4M3 ? 2u : 4u;
    tl_buf_indent(o, level);
    tl_buf_printf(o, "%s(%s + %lld, (const unsigned*)(%s + %lld), (const unsigned*)(%s + %lld));\n", fn,
                  tl_cuda_buf_name(e, s->c), (long long)s->mma_offset[2], tl_cuda_buf_name(e, s->a),
                  (long long)s->mma_offset[0], tl_cuda_buf_name(e, s->b), (long long)s->mma_offset[1]);
    return;
  }
  case ST_WGMMA_PACK: { // the fragment as register-A operands, held for a later gemm
    int64_t ks, mi;
    tl_wgmma_packed_dims(s->buf, &ks, &mi);
    e->need_wgmma_pack = true;
    tl_buf_indent(o, level);
    tl_buf_printf(o, "tl_wgmma_pack<%lld, %lld, %lld>(%s, tl_pk_%s);\n", (long long)ks, (long long)mi,
                  (long long)(s->buf->shape[1] / 8), tl_cuda_buf_name(e, s->buf), tl_cuda_buf_name(e, s->buf));
    return;
  }
  case ST_WGMMA_WAIT:
    tl_buf_indent(o, level);
    if (s->width) // the newest groups stay in flight
      tl_buf_printf(o, "tl_wgmma_wait<%lld>(); // %s's group done, the newest %lld still in flight\n",
                    (long long)s->width, tl_cuda_buf_name(e, s->buf), (long long)s->width);
    else
      tl_buf_printf(o, "tl_wgmma_wait<0>(); // the last wgmma group of %s\n", tl_cuda_buf_name(e, s->buf));
    tl_buf_indent(o, level);
    tl_buf_puts(o, "#pragma unroll\n");
    tl_buf_indent(o, level);
    tl_buf_printf(o, "for (int l = 0; l < %lld; ++l)\n", (long long)s->buf->layout->locals);
    tl_buf_indent(o, level + 1);
    tl_buf_printf(o, "tl_wgmma_pin(%s[l]);\n", tl_cuda_buf_name(e, s->buf));
    if (e->inflight_acc == s->buf) { // and the register-A operand it read until now
      const char *a = tl_cuda_buf_name(e, e->inflight_a);
      tl_buf_indent(o, level);
      tl_buf_printf(o, "tl_wgmma_pin_regs(&tl_pk_%s[0][0][0], sizeof tl_pk_%s / sizeof(unsigned));\n", a, a);
      e->inflight_acc = NULL;
    }
    return;
  case ST_TMA_LOAD:
    tma_load(e, s, level);
    return;
  case ST_TMA_STORE:
    tma_store(e, s, level);
    return;
  case ST_TMA_STORE_WAIT: // before the staging tile is written again
    e->need_tma_store_ranks |= 1u;
    tl_buf_indent(o, level);
    tl_buf_puts(o, "if (threadIdx.x == 0)\n");
    tl_buf_indent(o, level + 1);
    tl_buf_puts(o, "tl_tma_store_wait_read();\n");
    return;
  case ST_MBAR_WAIT:
  case ST_MBAR_ARRIVE:
    e->need_mbar = true;
    tl_buf_indent(o, level);
    if (s->kind == ST_MBAR_ARRIVE && s->ring == RING_USER && !s->width) {
      // What this thread wrote to shared memory with ordinary stores may be
      // read by the waiting threads' wgmma or TMA stores (the async proxy).
      tl_buf_puts(o, "asm volatile(\"fence.proxy.async.shared::cta;\\n\" ::: \"memory\");\n");
      tl_buf_indent(o, level);
    }
    if (s->kind == ST_MBAR_WAIT)
      tl_buf_printf(o, "tl_mbar_wait(&tl_%s[", tl_ring_name(s->ring));
    else if (s->width && s->ring == RING_USER) { // T.tma_copy: bytes, no arrival
      e->need_expect_only = true;
      tl_buf_printf(o, "tl_mbar_expect_tx_only(&tl_%s[", tl_ring_name(s->ring));
    } else if (s->width)
      tl_buf_printf(o, "tl_mbar_expect_tx(&tl_%s[", tl_ring_name(s->ring));
    else if (e->k->cluster) // both blocks' producers wait for this slot (multicast)
      tl_buf_printf(o, "tl_mbar_arrive_cluster(&tl_%s[", tl_ring_name(s->ring));
    else
      tl_buf_printf(o, "tl_mbar_arrive(&tl_%s[", tl_ring_name(s->ring));
    tl_cuda_expr(e, s->stage_a);
    tl_buf_puts(o, "]");
    if (s->kind == ST_MBAR_ARRIVE && !s->width && e->k->cluster) tl_buf_puts(o, ", tl_cta_rank");
    if (s->kind == ST_MBAR_WAIT) {
      tl_buf_puts(o, ", ");
      tl_cuda_expr(e, s->value);
    } else if (s->width) {
      tl_buf_printf(o, ", %lld", (long long)s->width);
    }
    tl_buf_puts(o, ");\n");
    return;
  default:
    TL_UNREACHABLE("codegen-cuda", "a tile-level statement reached the CUDA emitter");
  }
}

void tl_cuda_stmts(Emit *e, const TlVec *body, int level) {
  for (int i = 0; i < body->len; i++)
    stmt(e, TL_VEC_AT(*body, TlStmt, i), level);
}
