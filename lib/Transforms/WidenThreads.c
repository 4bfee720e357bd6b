// widen-threads: a kernel whose fragments cannot fit in a thread's 255
// registers at the thread count it asks for runs with twice the threads,
// when nothing in it depends on that count.
//
// Why: TileLang's flash-attention files at 128 threads with 128 x 128 score
// and output tiles at head dim 128 hold acc_s (128 registers per thread),
// acc_o (128) and acc_s's fp16 copy (64): 320 against 255. ptxas spilled
// 2.2-2.8 KB per thread and those kernels ran at 0.09-0.20 of torch's SDPA
// (bench/RESULTS.md part 9), while the same files at 256 threads ran at
// 0.89-0.99. The thread count of a tile program is the compiler's to choose:
// T.Parallel, T.copy, T.gemm and T.reduce_* are partitioned over whatever
// threads the block has, so the result is the same; only code that names
// threads (T.get_thread_binding, T.ws scopes, mbarrier arrive counts, named
// barriers, warp shuffles, per-thread statements, layouts the user wrote for
// a thread count) pins it, and such a kernel keeps its count (the register
// warning of layout-inference then tells the user).
//
// The estimate is each fragment's elements spread evenly over the threads,
// which is what layout inference gives a gemm accumulator and its copies;
// the threshold is the register warning's (Occupancy.c). Widening stops at
// 256 threads: 65536 registers per SM hold 256 threads at 255. Every gemm
// accumulator must keep whole 64-row wgmma slabs per warpgroup (rows a
// multiple of 128). --keep-threads (TlModule.keep_threads) turns this off.
#include "tlc/Occupancy.h"
#include "tlc/Passes.h"

enum { WIDEST = 256 };

static bool expr_pins(const TlExpr *e) {
  if (!e) return false;
  if (e->kind == EX_VAR && e->var && e->var->kind == VAR_THREAD_IDX) return true;
  if (e->kind == EX_CALL && tl_intrinsic_is_user_shuffle(e->fn)) return true;
  for (int i = 0; i < e->nargs; i++)
    if (expr_pins(e->args[i])) return true;
  return false;
}

// Does statement s depend on the block's thread count?
static bool stmt_pins(const TlStmt *s, int64_t widened) {
  switch (s->kind) {
  case ST_MBAR_WAIT:
  case ST_MBAR_ARRIVE:
  case ST_TMA_LOAD:
  case ST_TMA_STORE:
  case ST_MMA:
  case ST_CP_ASYNC:
  case ST_RNG_INIT: // each thread's random stream, and which points it draws for
    return true;
  case ST_SYNC:
    if (s->barrier_id || s->grid_sync) return true;
    break;
  case ST_IF:
    if (s->group_threads) return true;
    break;
  case ST_SEQ:
    if (s->per_thread) return true;
    break;
  case ST_STORE:
    if (s->async_copy) return true;
    break;
  case ST_GEMM:
    // Each warpgroup takes whole 64-row slabs of the accumulator.
    if (!s->c || s->c->scope != SCOPE_FRAGMENT || s->c->shape[0] % (64 * (widened / 128)))
      return true;
    break;
  default:
    break;
  }
  for (int i = 0; i < s->nindices; i++)
    if (expr_pins(s->indices[i])) return true;
  if (expr_pins(s->value) || expr_pins(s->cond) || expr_pins(s->start) || expr_pins(s->stop))
    return true;
  for (int i = 0; i < s->body.len; i++)
    if (stmt_pins(TL_VEC_AT(s->body, TlStmt, i), widened)) return true;
  for (int i = 0; i < s->else_body.len; i++)
    if (stmt_pins(TL_VEC_AT(s->else_body, TlStmt, i), widened)) return true;
  return false;
}

// 32-bit registers per thread the fragments need when spread over `threads`.
static int64_t spread_registers(const TlKernel *k, int64_t threads) {
  int64_t total = 0;
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->scope != SCOPE_FRAGMENT) continue;
    int64_t bits = tl_buffer_elems(b) * tl_dtype_bits(b->dtype);
    total += (bits + 32 * threads - 1) / (32 * threads);
  }
  return total;
}

static bool user_layouts(const TlKernel *k) {
  for (int i = 0; i < k->buffers.len; i++) {
    const TlBuffer *b = TL_VEC_AT(k->buffers, TlBuffer, i);
    if (b->scope == SCOPE_FRAGMENT && (b->layout || b->table)) return true;
  }
  return false;
}

static void widen(TlKernel *k, const TlModule *m, TlDiag *d) {
  int64_t threads = k->threads[0], need = spread_registers(k, threads);
  if (k->threads[1] != 1 || k->threads[2] != 1 || k->launch_threads || k->ring_stages ||
      threads % 128 || need <= TL_THREAD_REGISTERS + TL_FRAGMENT_OVERESTIMATE)
    return;
  int64_t wide = threads * 2;
  if (wide > WIDEST || wide > m->max_threads || user_layouts(k)) return;
  for (int i = 0; i < k->body.len; i++)
    if (stmt_pins(TL_VEC_AT(k->body, TlStmt, i), wide)) return;
  k->threads[0] = wide;
  tl_note(d, k->loc,
          "kernel '%s' runs with %lld threads, not %lld: its fragments need about %lld "
          "registers per thread at %lld (a thread has %d), %lld at %lld; --keep-threads keeps %lld",
          k->name, (long long)wide, (long long)threads, (long long)need, (long long)threads,
          TL_THREAD_REGISTERS, (long long)spread_registers(k, wide), (long long)wide,
          (long long)threads);
}

bool tl_widen_threads(TlArena *a, TlModule *m, TlDiag *d) {
  (void)a;
  if (m->keep_threads) return true;
  for (int i = 0; i < m->kernels.len; i++)
    widen(TL_VEC_AT(m->kernels, TlKernel, i), m, d);
  return true;
}
