// plan-shared: lays the shared tiles of each kernel out in one dynamic
// shared-memory block (declaration order, each 128-byte aligned, swizzled
// tiles 1024-byte aligned, stages included) and checks the total against the target's per-block limit,
// naming the buffers and their bytes when it does not fit.
#include "tlc/Passes.h"

// An XOR-swizzled tile starts on a 1024-byte boundary: the hardware's
// swizzle (wgmma descriptors, TMA) is a function of address bits 4-9, so
// the pattern tlc computes from the tile's own offsets matches only there.
enum { SHARED_ALIGN = 128, SWIZZLED_ALIGN = 1024 };

static void describe_kb(char *buf, size_t n, int64_t bytes) {
  if (bytes % 1024 == 0)
    snprintf(buf, n, "%lld KB", (long long)(bytes / 1024));
  else
    snprintf(buf, n, "%.1f KB", (double)bytes / 1024.0);
}

bool tl_plan_shared(TlArena *a, TlModule *m, TlDiag *d) {
  (void)a;
  bool ok = true;
  for (int k = 0; k < m->kernels.len; k++) {
    TlKernel *kn = TL_VEC_AT(m->kernels, TlKernel, k);
    int64_t off = 0;
    for (int i = 0; i < kn->buffers.len; i++) {
      TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
      if (b->scope != SCOPE_SHARED)
        continue;
      int64_t align = b->swizzle ? SWIZZLED_ALIGN : SHARED_ALIGN;
      off = (off + align - 1) / align * align;
      b->shared_offset = off;
      off += tl_buffer_bytes(b);
    }
    kn->shared_bytes = off;
    // A warp-specialized kernel's mbarriers are static shared memory, which
    // the alignment of the dynamic block rounds up to 1 KB; it counts too.
    if (kn->ring_stages)
      off += TL_RING_BARRIER_BYTES;
    if (off > m->max_shared_bytes) {
      char used[32], lim[32];
      describe_kb(used, sizeof used, off);
      describe_kb(lim, sizeof lim, m->max_shared_bytes);
      tl_error(d, kn->loc,
               "kernel '%s' uses %s (%lld bytes) of shared memory, over the %s limit of %s "
               "(%lld bytes) by %lld bytes",
               kn->name, used, (long long)off, m->target_name, lim, (long long)m->max_shared_bytes,
               (long long)(off - m->max_shared_bytes));
      for (int i = 0; i < kn->buffers.len; i++) {
        TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
        if (b->scope != SCOPE_SHARED)
          continue;
        char shape[96];
        size_t o = 0;
        for (int j = 0; j < b->ndims && o < sizeof shape; j++)
          o += (size_t)snprintf(shape + o, sizeof shape - o, "%s%lld", j ? "x" : "", (long long)b->shape[j]);
        if (b->stages > 1)
          tl_note(d, b->loc, "'%s' uses %lld bytes (%d stages x %s %s)", b->name,
                  (long long)tl_buffer_bytes(b), b->stages, shape, tl_dtype_name(b->dtype));
        else
          tl_note(d, b->loc, "'%s' uses %lld bytes (%s %s)", b->name, (long long)tl_buffer_bytes(b),
                  shape, tl_dtype_name(b->dtype));
      }
      // With multi-buffered tiles: how many stages would fit?
      int64_t fixed = 0, per_stage = 0, stages = 0;
      for (int i = 0; i < kn->buffers.len; i++) {
        TlBuffer *b = TL_VEC_AT(kn->buffers, TlBuffer, i);
        if (b->scope != SCOPE_SHARED)
          continue;
        int64_t one = (tl_buffer_bytes(b) / (b->stages > 1 ? b->stages : 1) + SHARED_ALIGN - 1) /
                      SHARED_ALIGN * SHARED_ALIGN;
        if (b->stages > 1) {
          per_stage += one;
          stages = b->stages;
        } else {
          fixed += one;
        }
      }
      if (stages > 1) {
        int64_t fit = per_stage ? (m->max_shared_bytes - fixed) / per_stage : 0;
        if (fit >= 1)
          tl_note(d, kn->loc, "with %lld stage%s the pipelined tiles fit; use num_stages=%lld",
                  (long long)fit, fit == 1 ? "" : "s", (long long)fit);
        else
          tl_note(d, kn->loc, "even one stage of the pipelined tiles does not fit; use smaller tiles");
      }
      ok = false;
    }
  }
  return ok;
}
